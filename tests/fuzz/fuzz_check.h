// Shared by the fuzz targets: a property check that aborts with a message (so both
// libFuzzer and the corpus replay report it), and a sink that keeps reads alive.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace pgnbase::fuzz {

[[noreturn]] inline void fail(const char* what, std::string_view detail = {}) {
  std::fprintf(stderr, "fuzz property violated: %s: %.*s\n", what, int(detail.size() > 400 ? 400 : detail.size()),
               detail.data());
  std::abort();
}

inline void check(bool ok, const char* what, std::string_view detail = {}) {
  if (!ok) fail(what, detail);
}

// Reads every byte of a view, so ASan sees any view that points outside its buffer.
inline uint64_t touch(std::string_view view) {
  uint64_t sum = view.size();
  for (char c : view) sum = sum * 31 + static_cast<unsigned char>(c);
  return sum;
}

// Whether view lies inside [data, data + size).
inline bool inside(std::string_view view, const uint8_t* data, size_t size) {
  const char* begin = reinterpret_cast<const char*>(data);
  return view.empty() || (view.data() >= begin && view.data() + view.size() <= begin + size);
}

}  // namespace pgnbase::fuzz
