#include "store/site_url.h"

#include <algorithm>

namespace pgnbase::store {

namespace {

bool is_ascii_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// The length of "http://" or "https://" at the start of text, else 0.
size_t scheme_length(std::string_view text) {
  if (text.starts_with("https://")) return 8;
  if (text.starts_with("http://")) return 7;
  return 0;
}

}  // namespace

// A scheme, a host and a path ending in '/'.
bool is_site_prefix(std::string_view text) {
  const size_t scheme = scheme_length(text);
  if (scheme == 0 || !text.ends_with('/')) return false;
  // The host: at least one character before the first '/' after the scheme.
  const size_t host_end = text.find('/', scheme);
  return host_end != std::string_view::npos && host_end > scheme;
}

std::optional<SiteParts> split_site(std::string_view site) {
  const size_t slash = site.rfind('/');
  if (slash == std::string_view::npos) return std::nullopt;
  const std::string_view prefix = site.substr(0, slash + 1), suffix = site.substr(slash + 1);
  if (suffix.empty() || suffix.size() > kMaxSiteSuffix || !std::all_of(suffix.begin(), suffix.end(), is_ascii_alnum))
    return std::nullopt;
  if (!is_site_prefix(prefix)) return std::nullopt;
  return SiteParts{prefix, suffix};
}

}  // namespace pgnbase::store
