#include "serve/web_assets.h"

#include <utility>
#include <vector>

namespace pgnbase::serve {

// Defined in the file serve/embed_web.cmake generates: (path, bytes) of each page file.
std::span<const std::pair<std::string_view, std::string_view>> embedded_web_files();

namespace {

std::string_view content_type_of(std::string_view path) {
  auto ends_with = [&](std::string_view suffix) { return path.ends_with(suffix); };
  if (ends_with(".html")) return "text/html; charset=utf-8";
  if (ends_with(".css")) return "text/css; charset=utf-8";
  if (ends_with(".js")) return "text/javascript; charset=utf-8";
  if (ends_with(".svg")) return "image/svg+xml";
  if (ends_with(".png")) return "image/png";
  return "application/octet-stream";
}

const std::vector<WebAsset>& assets() {
  static const std::vector<WebAsset> all = [] {
    std::vector<WebAsset> list;
    for (const auto& [path, body] : embedded_web_files()) list.push_back({path, body, content_type_of(path)});
    return list;
  }();
  return all;
}

}  // namespace

const WebAsset* find_web_asset(std::string_view path) {
  if (path == "/") path = "/index.html";
  for (const WebAsset& asset : assets())
    if (asset.path == path) return &asset;
  return nullptr;
}

std::span<const WebAsset> web_assets() { return assets(); }

}  // namespace pgnbase::serve
