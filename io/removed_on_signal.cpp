#include "io/removed_on_signal.h"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstring>

namespace pgnbase::io {

namespace {

// Fixed buffers, because the handler may only call async-signal-safe functions. A path
// is written before its slot is marked used, and the mark is cleared before the path is
// reused.
constexpr int kSlots = 8;
constexpr size_t kSlotPathBytes = 4096;
char slot_paths[kSlots][kSlotPathBytes];
std::atomic<bool> slot_used[kSlots];

void remove_files_and_die(int signal_number) {
  for (int i = 0; i < kSlots; ++i)
    if (slot_used[i].load()) unlink(slot_paths[i]);
  struct sigaction restore {};
  restore.sa_handler = SIG_DFL;
  sigemptyset(&restore.sa_mask);
  sigaction(signal_number, &restore, nullptr);
  raise(signal_number);  // ends the process as the signal would have
}

void install_handler() {
  static const bool installed = [] {
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      if (sigaction(signal_number, nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
      struct sigaction handler {};
      handler.sa_handler = remove_files_and_die;
      sigemptyset(&handler.sa_mask);
      sigaction(signal_number, &handler, nullptr);
    }
    return true;
  }();
  (void)installed;
}

}  // namespace

int remove_on_signal(const std::string& path) {
  if (path.size() >= kSlotPathBytes) return -1;
  install_handler();
  for (int i = 0; i < kSlots; ++i) {
    if (slot_used[i].load()) continue;
    std::memcpy(slot_paths[i], path.c_str(), path.size() + 1);
    slot_used[i].store(true);
    return i;
  }
  return -1;
}

void forget_on_signal(int slot) {
  if (slot >= 0) slot_used[slot].store(false);
}

}  // namespace pgnbase::io
