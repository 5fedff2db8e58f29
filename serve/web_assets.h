// The page's files (web/), compiled into the program by serve/embed_web.cmake: the
// server answers only these paths and the API, so no request reaches the file system.
#pragma once

#include <span>
#include <string_view>

namespace pgnbase::serve {

struct WebAsset {
  std::string_view path;          // "/app.js"; "/index.html" is also served at "/"
  std::string_view body;
  std::string_view content_type;  // from the extension
};

// The file served at PATH, or nullptr.
const WebAsset* find_web_asset(std::string_view path);

// Every file, for the tests.
std::span<const WebAsset> web_assets();

}  // namespace pgnbase::serve
