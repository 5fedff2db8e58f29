#include "serve/facets_cache.h"

#include <cstdint>
#include <mutex>
#include <optional>
#include <utility>

#include "store/counters.h"

namespace pgnbase::serve {

namespace {

// What changes when the games do: content_version is bumped by every import, removal and
// replacement (in its transaction), and the next game id grows with every import.
using GamesVersion = std::pair<int64_t, int64_t>;

std::mutex cache_mutex;
GamesVersion cached_version{-1, -1};
std::shared_ptr<const store::GameFacets> cached;

}  // namespace

std::shared_ptr<const store::GameFacets> shared_facets(store::Database& db) {
  const int64_t content_version = store::read_counter(db, store::kContentVersion);
  if (content_version == 0) return nullptr;  // never bumped: an older database, read per call
  const GamesVersion version{content_version, store::next_game_id(db)};
  {
    std::lock_guard lock(cache_mutex);
    if (version == cached_version) return cached;
  }
  // Read outside the lock: another thread may read the same facets at once, once.
  std::optional<store::GameFacets> read = store::read_game_facets(db);
  std::shared_ptr<const store::GameFacets> facets =
      read ? std::make_shared<const store::GameFacets>(std::move(*read)) : nullptr;
  std::lock_guard lock(cache_mutex);
  cached_version = version;
  cached = facets;
  return facets;
}

}  // namespace pgnbase::serve
