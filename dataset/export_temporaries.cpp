#include "dataset/export_temporaries.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>

#include "dataset/dataset_error.h"

namespace pgnbase::dataset {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kTempPrefix = ".export-tmp-";
constexpr int kHandledSignals[] = {SIGINT, SIGTERM, SIGHUP};

// What the handler reads: fixed buffers, written before a slot is marked used and left
// alone until it is released. folders[i] holds NUL-terminated paths one after another,
// ended by an empty one: the temporary folder first, then the folders created on the way
// to the dataset folder, deepest first.
constexpr int kSlots = 4;
constexpr size_t kSlotBytes = 8192;
char slot_folders[kSlots][kSlotBytes];
std::atomic<bool> slot_used[kSlots];
struct sigaction previous_actions[std::size(kHandledSignals)];
std::mutex registry_mutex;  // taken by registering threads only, never by the handler

// Empties one folder (files only: the export makes no subfolders in it), then removes
// it. Async-signal-safe. A removal during the listing may make the listing skip entries,
// so it lists again until nothing is removed.
void empty_and_remove(const char* folder) {
  const int fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(8) char entries[8192];
    for (int pass = 0; pass < 64; ++pass) {
      bool removed = false;
      lseek(fd, 0, SEEK_SET);
      for (ssize_t n; (n = getdents64(fd, entries, sizeof entries)) > 0;) {
        for (ssize_t at = 0; at < n;) {
          const auto* entry = reinterpret_cast<const dirent64*>(entries + at);
          const char* name = entry->d_name;
          const bool dots = name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
          if (!dots && unlinkat(fd, name, 0) == 0) removed = true;
          at += entry->d_reclen;
        }
      }
      if (!removed) break;
    }
    close(fd);
  }
  rmdir(folder);
}

void remove_temporaries_and_resignal(int signal_number) {
  const int saved_errno = errno;
  for (int i = 0; i < kSlots; ++i) {
    if (!slot_used[i].load()) continue;
    const char* path = slot_folders[i];
    empty_and_remove(path);
    for (path += std::strlen(path) + 1; *path; path += std::strlen(path) + 1) rmdir(path);  // only if empty
  }
  for (size_t i = 0; i < std::size(kHandledSignals); ++i)
    if (kHandledSignals[i] == signal_number) sigaction(signal_number, &previous_actions[i], nullptr);
  raise(signal_number);  // delivered when this handler returns: the previous action, or death
  errno = saved_errno;
}

void install_handler() {
  for (size_t i = 0; i < std::size(kHandledSignals); ++i) {
    struct sigaction old {};
    if (sigaction(kHandledSignals[i], nullptr, &old) != 0 || old.sa_handler == SIG_IGN) continue;  // nohup
    previous_actions[i] = old;
    struct sigaction handler {};
    handler.sa_handler = remove_temporaries_and_resignal;
    sigemptyset(&handler.sa_mask);
    sigaction(kHandledSignals[i], &handler, nullptr);
  }
}

// A slot naming the folders for the handler, or -1 when none is free or the paths do not
// fit (the folder may then stay after a signal, for the next export's sweep).
int claim_slot(const fs::path& temp, const std::vector<fs::path>& created) {
  std::string text = fs::absolute(temp).string() + '\0';
  for (const fs::path& p : created) text += fs::absolute(p).string() + '\0';
  text += '\0';
  if (text.size() > kSlotBytes) return -1;
  std::lock_guard lock(registry_mutex);
  static const bool installed = (install_handler(), true);
  (void)installed;
  for (int i = 0; i < kSlots; ++i) {
    if (slot_used[i].load()) continue;
    std::memcpy(slot_folders[i], text.data(), text.size());
    slot_used[i].store(true);
    return i;
  }
  return -1;
}

// The pid in ".export-tmp-PID", or 0.
pid_t pid_of_temp_folder(std::string_view name) {
  if (!name.starts_with(kTempPrefix)) return 0;
  name.remove_prefix(kTempPrefix.size());
  pid_t pid = 0;
  const auto [at, error] = std::from_chars(name.data(), name.data() + name.size(), pid);
  return error == std::errc() && at == name.data() + name.size() && pid > 0 ? pid : 0;
}

// The pid in an earlier version's temporary file name ".NAME.tmp-PID", or 0.
pid_t pid_of_old_temporary(std::string_view name) {
  const size_t tmp = name.rfind(".tmp-");
  if (!name.starts_with('.') || tmp == std::string_view::npos || tmp == 0) return 0;
  const std::string_view digits = name.substr(tmp + 5);
  pid_t pid = 0;
  const auto [at, error] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
  return error == std::errc() && at == digits.data() + digits.size() && pid > 0 ? pid : 0;
}

bool process_has_ended(pid_t pid) { return pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH; }

bool owned_by_us(const fs::path& path, struct stat& info) {
  return lstat(path.c_str(), &info) == 0 && info.st_uid == geteuid();
}

void note_pid(StaleExportFiles& stale, pid_t pid) {
  if (std::find(stale.pids.begin(), stale.pids.end(), pid) == stale.pids.end()) stale.pids.push_back(pid);
}

// Removes the stale temporary files of earlier versions directly in folder.
void sweep_old_temporaries(const fs::path& folder, StaleExportFiles& stale) {
  std::error_code error;
  for (fs::directory_iterator it(folder, error), end; !error && it != end; it.increment(error)) {
    const pid_t pid = pid_of_old_temporary(it->path().filename().string());
    struct stat info {};
    if (pid == 0 || !process_has_ended(pid) || !owned_by_us(it->path(), info) || !S_ISREG(info.st_mode)) continue;
    if (unlink(it->path().c_str()) != 0) continue;
    ++stale.files;
    stale.bytes += uint64_t(info.st_size);
    note_pid(stale, pid);
  }
}

}  // namespace

ExportTempFolder::ExportTempFolder(const fs::path& dataset_dir) {
  // The folders to create, from dataset_dir up to the first that exists.
  std::vector<fs::path> missing;
  std::error_code error;
  for (fs::path p = dataset_dir; !p.empty() && !fs::exists(fs::symlink_status(p, error)); p = p.parent_path()) {
    missing.push_back(p);
    if (p == p.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it) {
    if (::mkdir(it->c_str(), 0777) == 0) {
      created_.insert(created_.begin(), *it);  // deepest first
    } else if (errno != EEXIST) {
      const int e = errno;
      for (const fs::path& made : created_) ::rmdir(made.c_str());
      throw DatasetError(it->string() + ": cannot create the folder: " + std::strerror(e));
    }
  }
  path_ = dataset_dir / (std::string(kTempPrefix) + std::to_string(::getpid()));
  if (::mkdir(path_.c_str(), 0700) != 0) {
    const int e = errno;
    for (const fs::path& made : created_) ::rmdir(made.c_str());
    throw DatasetError(path_.string() + ": cannot create the export's temporary folder: " + std::strerror(e));
  }
  slot_ = claim_slot(path_, created_);
}

ExportTempFolder::~ExportTempFolder() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
  for (const fs::path& made : created_) ::rmdir(made.c_str());  // only those left empty
  if (slot_ >= 0) slot_used[slot_].store(false);
}

SignalsHeld::SignalsHeld() {
  sigset_t held;
  sigemptyset(&held);
  for (int s : kHandledSignals) sigaddset(&held, s);
  pthread_sigmask(SIG_BLOCK, &held, &previous_);
}

SignalsHeld::~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

StaleExportFiles sweep_stale_export_files(const fs::path& dataset_dir) {
  StaleExportFiles stale;
  std::error_code error;
  for (fs::directory_iterator it(dataset_dir, error), end; !error && it != end; it.increment(error)) {
    const std::string name = it->path().filename().string();
    const pid_t pid = pid_of_temp_folder(name);
    struct stat info {};
    if (pid == 0 || !process_has_ended(pid) || !owned_by_us(it->path(), info) || !S_ISDIR(info.st_mode)) continue;
    uint64_t files = 0, bytes = 0;
    std::error_code walk;
    for (fs::recursive_directory_iterator f(it->path(), walk), last; !walk && f != last; f.increment(walk)) {
      struct stat file {};
      if (lstat(f->path().c_str(), &file) == 0 && !S_ISDIR(file.st_mode)) {
        ++files;
        bytes += uint64_t(file.st_size);
      }
    }
    std::error_code removing;
    fs::remove_all(it->path(), removing);
    if (removing) continue;
    stale.files += files;
    stale.bytes += bytes;
    note_pid(stale, pid);
  }
  // Earlier versions wrote each file as .NAME.tmp-PID beside its final name.
  sweep_old_temporaries(dataset_dir, stale);
  sweep_old_temporaries(dataset_dir / "removed", stale);
  for (const char* table : {"games", "positions", "explorer"}) {
    std::error_code listing;
    for (fs::directory_iterator it(dataset_dir / table, listing), end; !listing && it != end; it.increment(listing))
      if (it->is_directory(listing)) sweep_old_temporaries(it->path(), stale);
  }
  std::sort(stale.pids.begin(), stale.pids.end());
  return stale;
}

bool holds_no_files(const fs::path& dataset_dir) {
  std::error_code error;
  if (!fs::exists(dataset_dir, error)) return !error;
  fs::recursive_directory_iterator it(dataset_dir, error), end;
  for (; !error && it != end; it.increment(error)) {
    if (it.depth() == 0) {
      const pid_t pid = pid_of_temp_folder(it->path().filename().string());
      if (pid != 0 && !process_has_ended(pid)) {  // another export at work: its files are its own
        it.disable_recursion_pending();
        continue;
      }
    }
    if (!it->is_directory(error) || it->is_symlink(error)) return false;
  }
  return !error;
}

}  // namespace pgnbase::dataset
