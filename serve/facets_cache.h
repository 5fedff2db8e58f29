// The explorer's game facets (store/game_facets.h), read once and shared by the server's
// threads until the database's games change. An explorer answer with a filter or top
// games reads the facet columns, megabytes on a big database (15 MB for 1.5M games):
// once per request that was most of its time, and under load most of a slow request's.
#pragma once

#include <memory>

#include "store/database.h"
#include "store/game_facets.h"

namespace pgnbase::serve {

// The facets of the database as the caller's read snapshot sees it, or null (no facets
// table, facets behind the games, or a database too old to say when its games change:
// then explore() reads them per call, as before). Thread-safe.
std::shared_ptr<const store::GameFacets> shared_facets(store::Database& db);

}  // namespace pgnbase::serve
