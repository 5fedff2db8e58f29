// A streaming 64-bit hash of an input's uncompressed bytes: the same PGN text gives the
// same value whether it arrives mapped, streamed from .zst or from stdin, so the sources
// table can tell that a file was imported before. Not cryptographic: it guards against
// accidental re-imports, not against forgery.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pgnbase::indexer {

class ContentHasher {
 public:
  void update(std::string_view bytes);
  // "h64:<16 hex digits>:<byte count>"
  std::string finish() const;
  // How the hash of `bytes` bytes ends (":<byte count>"): contents of other sizes never
  // share a hash.
  static std::string ending_for_size(uint64_t bytes);

 private:
  void consume_block(const unsigned char* block);

  uint64_t lanes_[4] = {0x9E3779B185EBCA87ull, 0xC2B2AE3D27D4EB4Full, 0x165667B19E3779F9ull, 0x27D4EB2F165667C5ull};
  unsigned char pending_[32];
  size_t pending_size_ = 0;
  uint64_t total_ = 0;
};

}  // namespace pgnbase::indexer
