// The unit of the position index: one posting per position of every game.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <tuple>

#include "core/error.h"

namespace pgnbase::store {

enum class GameResult : uint8_t { Unknown = 0, WhiteWin = 1, Draw = 2, BlackWin = 3 };

// "The position with this Polyglot key occurs in game game_id after ply plies
// (0 = the start position), and next_move was played from it." next_move is a
// 16-bit MoveCode (core/move_code.h); 0 for the final position of a game.
struct Posting {
  uint64_t key = 0;
  uint32_t game_id = 0;
  uint16_t ply = 0;
  uint16_t next_move = 0;
  GameResult result = GameResult::Unknown;

  bool operator==(const Posting&) const = default;
};

// A lean segment (PositionIndexOptions::lean) does not store the ply of a posting, nor
// the next move and result of a key that occurs only once in its block: such postings
// come back with these markers, and the reader replays the game to learn them.
inline constexpr uint16_t kUnknownPly = 0xFFFF;
inline constexpr uint16_t kUnknownNextMove = 0xFFFF;  // bit 15 set: never a MoveCode

// The index's order: by key, then game id, then ply. Blocks, runs and merges all use it.
inline bool posting_less(const Posting& a, const Posting& b) {
  return std::tie(a.key, a.game_id, a.ply) < std::tie(b.key, b.game_id, b.ply);
}

// The key space is cut into partitions by the key's top bits, so that sorted postings
// can be merged and encoded one partition per thread; no block spans two partitions.
inline constexpr unsigned kKeyPartitionBits = 6;
inline constexpr unsigned kKeyPartitions = 1u << kKeyPartitionBits;
inline unsigned key_partition(uint64_t key) { return unsigned(key >> (64 - kKeyPartitionBits)); }

// A corrupt block, a failed temp-file write (disk full) or a misuse of the builder.
// what() is one line naming what failed, ready for main to print.
class PositionIndexError : public Error {
 public:
  explicit PositionIndexError(const std::string& message) : Error(ErrorKind::PositionIndex, message) {}
};

}  // namespace pgnbase::store
