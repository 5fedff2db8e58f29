#include "store/block_decode_ahead.h"

#include <utility>

#include "core/thread_group.h"
#include "store/posting_block_codec.h"

namespace pgnbase::store {

BlockDecodeAhead::BlockDecodeAhead(uint64_t key, unsigned helpers, const Visitor& visitor)
    : key_(key), helpers_(helpers), visitor_(visitor), window_(2 * size_t{helpers} + 1) {}

BlockDecodeAhead::~BlockDecodeAhead() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  work_.notify_all();
  threads_.reset();  // joins: a helper finishes the block it decodes, then sees stop_
}

void BlockDecodeAhead::decode(Job& job, PostingBlockDecoder& decoder) const {
  try {
    decoder.open(job.block);
    decoder.find(key_, job.postings);
  } catch (...) {
    job.error = std::current_exception();
  }
}

void BlockDecodeAhead::help() {
  PostingBlockDecoder decoder;
  std::unique_lock lock(mutex_);
  for (;;) {
    Job* job = nullptr;
    work_.wait(lock, [&] {
      for (Job& j : jobs_)
        if (!j.taken) {
          job = &j;
          break;
        }
      return stop_ || job != nullptr;
    });
    if (stop_) return;
    job->taken = true;
    lock.unlock();
    decode(*job, decoder);
    lock.lock();
    job->done = true;
    done_.notify_all();
  }
}

void BlockDecodeAhead::start_helpers() {
  threads_ = std::make_unique<ThreadGroup>();
  try {
    for (unsigned t = 0; t < helpers_; ++t)
      threads_->start([this] { help(); },
                      "position block decoding thread " + std::to_string(t + 1) + " of " + std::to_string(helpers_));
  } catch (const ThreadStartError&) {
    // The threads that started help; the caller decodes what they leave.
  }
}

void BlockDecodeAhead::add(std::span<const uint8_t> block, std::string context) {
  Job job;
  if (!spare_.empty()) {  // buffers of a visited job: no fresh pages to fault in
    job = std::move(spare_.back());
    spare_.pop_back();
  }
  job.block.assign(block.begin(), block.end());
  job.context = std::move(context);
  std::unique_lock lock(mutex_);
  jobs_.push_back(std::move(job));
  if (!threads_ && helpers_ > 0 && jobs_.size() == 2) {
    lock.unlock();
    start_helpers();
    lock.lock();
  }
  work_.notify_one();
  while (jobs_.size() > window_) visit_front(lock);
}

void BlockDecodeAhead::finish() {
  std::unique_lock lock(mutex_);
  while (!jobs_.empty()) visit_front(lock);
}

void BlockDecodeAhead::visit_front(std::unique_lock<std::mutex>& lock) {
  Job& front = jobs_.front();
  if (!front.taken) {
    front.taken = true;
    lock.unlock();
    decode(front, caller_decoder_);
    lock.lock();
    front.done = true;
  } else {
    done_.wait(lock, [&] { return front.done; });
  }
  Job job = std::move(front);
  jobs_.pop_front();
  lock.unlock();
  if (job.error) {
    try {
      std::rethrow_exception(job.error);
    } catch (const PositionIndexError& error) {
      throw PositionIndexError(job.context + error.what());
    }
  }
  if (!job.postings.empty()) visitor_(job.postings);
  job.postings.clear();
  job.taken = job.done = false;
  spare_.push_back(std::move(job));
  lock.lock();
}

}  // namespace pgnbase::store
