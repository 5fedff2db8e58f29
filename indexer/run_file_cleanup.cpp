#include "indexer/run_file_cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <mutex>

namespace pgnbase::indexer {

namespace {

constexpr char kPrefix[] = "pgnbase-postings-";
constexpr char kSuffix[] = ".run";
constexpr int kHandledSignals[] = {SIGINT, SIGTERM, SIGHUP};

// What the handler reads: fixed buffers, written before a slot is marked used and never
// changed afterwards. own_prefix is "pgnbase-postings-<pid>-".
constexpr int kSlots = 8;
constexpr size_t kPathBytes = 4096;
char slot_paths[kSlots][kPathBytes];
std::atomic<bool> slot_used[kSlots];
char own_prefix[64];
struct sigaction previous_actions[std::size(kHandledSignals)];
std::mutex registry_mutex;  // taken by registering threads only, never by the handler

bool is_own_run_file(const char* name) {
  const size_t length = std::strlen(name), prefix = std::strlen(own_prefix), suffix = std::strlen(kSuffix);
  return length > prefix + suffix && std::memcmp(name, own_prefix, prefix) == 0 &&
         std::memcmp(name + length - suffix, kSuffix, suffix) == 0;
}

// Removes this process's run files in one folder. Async-signal-safe. A removal during the
// listing may make the listing skip entries, so it lists again until nothing is removed.
void remove_own_run_files(const char* directory) {
  const int fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  alignas(8) char entries[8192];
  for (int pass = 0; pass < 8; ++pass) {
    bool removed = false;
    lseek(fd, 0, SEEK_SET);
    for (ssize_t n; (n = getdents64(fd, entries, sizeof entries)) > 0;) {
      for (ssize_t at = 0; at < n;) {
        const auto* entry = reinterpret_cast<const dirent64*>(entries + at);
        if (is_own_run_file(entry->d_name) && unlinkat(fd, entry->d_name, 0) == 0) removed = true;
        at += entry->d_reclen;
      }
    }
    if (!removed) break;
  }
  close(fd);
}

void remove_run_files_and_resignal(int signal_number) {
  const int saved_errno = errno;
  for (int i = 0; i < kSlots; ++i)
    if (slot_used[i].load()) remove_own_run_files(slot_paths[i]);
  // Back to what was there before us (the default: end the process; or the handler of
  // another module, which then does its part). The signal is blocked while this handler
  // runs, so the raised one is delivered when it returns.
  for (size_t i = 0; i < std::size(kHandledSignals); ++i)
    if (kHandledSignals[i] == signal_number) sigaction(signal_number, &previous_actions[i], nullptr);
  raise(signal_number);
  errno = saved_errno;
}

void install_handler() {
  const std::string prefix = kPrefix + std::to_string(getpid()) + "-";
  std::memcpy(own_prefix, prefix.c_str(), prefix.size() + 1);
  for (size_t i = 0; i < std::size(kHandledSignals); ++i) {
    struct sigaction old {};
    if (sigaction(kHandledSignals[i], nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;
    previous_actions[i] = old;
    struct sigaction handler {};
    handler.sa_handler = remove_run_files_and_resignal;
    sigemptyset(&handler.sa_mask);
    sigaction(kHandledSignals[i], &handler, nullptr);
  }
}

// The pid in a run file's name, or 0 when the name is not a run file's.
pid_t pid_of_run_file(const std::string& name) {
  if (!name.starts_with(kPrefix) || !name.ends_with(kSuffix)) return 0;
  const char* begin = name.data() + std::strlen(kPrefix);
  const char* end = name.data() + name.size();
  pid_t pid = 0;
  const auto [at, error] = std::from_chars(begin, end, pid);
  if (error != std::errc() || at == begin || *at != '-' || pid <= 0) return 0;
  return pid;
}

bool process_has_ended(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

}  // namespace

std::string run_file_template(const std::filesystem::path& directory) {
  return (directory / (kPrefix + std::to_string(getpid()) + "-XXXXXX" + kSuffix)).string();
}

void remove_run_files_on_signal(const std::filesystem::path& directory) {
  const std::string path = std::filesystem::absolute(directory).string();
  if (path.size() >= kPathBytes) return;
  std::lock_guard lock(registry_mutex);
  static const bool installed = (install_handler(), true);
  (void)installed;
  for (int i = 0; i < kSlots; ++i) {
    if (slot_used[i].load()) {
      if (path == slot_paths[i]) return;
      continue;
    }
    std::memcpy(slot_paths[i], path.c_str(), path.size() + 1);
    slot_used[i].store(true);
    return;
  }
}

StaleRunFiles sweep_stale_run_files(const std::filesystem::path& directory) {
  StaleRunFiles stale;
  std::error_code error;
  for (std::filesystem::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    const pid_t pid = pid_of_run_file(name);
    if (pid == 0 || pid == getpid() || !process_has_ended(pid)) continue;
    struct stat info {};
    if (lstat(it->path().c_str(), &info) != 0 || !S_ISREG(info.st_mode) || info.st_uid != geteuid()) continue;
    if (unlink(it->path().c_str()) != 0) continue;
    ++stale.files;
    stale.bytes += uint64_t(info.st_size);
    if (std::find(stale.pids.begin(), stale.pids.end(), pid) == stale.pids.end()) stale.pids.push_back(pid);
  }
  std::sort(stale.pids.begin(), stale.pids.end());
  return stale;
}

}  // namespace pgnbase::indexer
