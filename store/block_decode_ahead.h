// Decodes one key's position blocks on helper threads while the caller visits the
// postings of the blocks decoded before, in the blocks' order.
//
// The explorer on the start position of a million games spends about as much decoding
// its blocks (bit unpacking, zstd) as counting their postings; with the decoding beside
// it, the count runs alone on the caller's thread. The caller adds each block's bytes
// (copied: SQLite's blob dies at the next step) in order; the visitor sees each block's
// postings of the key in that order, on the caller's thread, exactly as a decoder opened
// on each block in turn would give them (PostingBlockDecoder::find; blocks without a
// posting of the key are skipped). Helpers start with the second block (a key in one
// block costs no thread); the caller decodes a block itself when no helper has taken it
// by the time it is the next to visit, so that it works without helpers too.
//
// At most a few blocks wait decoded (about 2 per helper), so memory stays a few blocks'
// worth whatever the key's size. A corrupt block throws PositionIndexError, from add()
// or finish() on the caller's thread, when its turn to be visited comes, with the
// context given for it prefixed ("position index segment 3: "); what the visitor
// throws leaves add() or finish() the same way. The destructor stops and joins the
// helpers. One owner thread.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "store/position_posting.h"
#include "store/posting_block_codec.h"

namespace pgnbase {
class ThreadGroup;
}

namespace pgnbase::store {

class BlockDecodeAhead {
 public:
  using Visitor = std::function<void(std::span<const Posting>)>;

  // helpers: threads beside the caller's (0: the caller decodes every block itself).
  BlockDecodeAhead(uint64_t key, unsigned helpers, const Visitor& visitor);
  ~BlockDecodeAhead();
  BlockDecodeAhead(const BlockDecodeAhead&) = delete;
  BlockDecodeAhead& operator=(const BlockDecodeAhead&) = delete;

  // The next block's bytes; context prefixes its decoding errors.
  void add(std::span<const uint8_t> block, std::string context);
  // Visits the blocks still waiting.
  void finish();

 private:
  struct Job {
    std::vector<uint8_t> block;
    std::string context;
    std::vector<Posting> postings;
    std::exception_ptr error;
    bool taken = false;
    bool done = false;
  };

  // Decodes job's block into its postings, or keeps the error.
  void decode(Job& job, PostingBlockDecoder& decoder) const;
  // Decodes the jobs no one has taken yet, until stopped (a helper thread's loop).
  void help();
  // Visits the oldest job, waiting for its decoding (or doing it, when no helper took it).
  void visit_front(std::unique_lock<std::mutex>& lock);
  void start_helpers();

  uint64_t key_;
  unsigned helpers_;
  const Visitor& visitor_;
  size_t window_;  // jobs added but not yet visited, at most
  std::mutex mutex_;
  std::condition_variable work_;  // a job to take, or stop
  std::condition_variable done_;  // a job decoded
  std::deque<Job> jobs_;          // in block order; a job's address stays until it is visited
  std::vector<Job> spare_;        // visited jobs, their buffers kept for the next (caller's only)
  bool stop_ = false;
  PostingBlockDecoder caller_decoder_;   // the caller's, for the blocks it decodes itself
  std::unique_ptr<ThreadGroup> threads_;  // last: destroyed (joined) first
};

}  // namespace pgnbase::store
