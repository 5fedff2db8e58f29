// The peak resident memory of this process since the last reset, for tests that bound
// what one call allocates: Linux keeps a high-water mark (VmHWM) that writing 5 to
// /proc/self/clear_refs resets (proc(5)), so earlier tests' peaks do not hide a new one.
#pragma once

#include <fstream>
#include <string>

namespace pgnbase::test {

// Resets the high-water mark to the current resident size; false where Linux refuses.
inline bool reset_peak_memory() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  clear.flush();
  return bool(clear);
}

// Reads a "Name:   123 kB" line of /proc/self/status; -1 when absent.
inline long status_kib(const std::string& name) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(name + ":", 0) == 0) return std::stol(line.substr(name.size() + 1));
  return -1;
}

// How far the peak rose above the resident size at the last reset_peak_memory(), in KiB.
class PeakMemory {
 public:
  PeakMemory() : ok_(reset_peak_memory()), start_kib_(status_kib("VmRSS")) {}
  bool available() const { return ok_ && start_kib_ >= 0; }
  long growth_kib() const { return status_kib("VmHWM") - start_kib_; }

 private:
  bool ok_;
  long start_kib_;
};

}  // namespace pgnbase::test
