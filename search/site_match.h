// The rule of --site over sites stored split (store/site_url.h: a shared prefix name and a
// per-game suffix). A game matches exactly when the name rule (search/name_match.h) would
// match its whole Site by words: "lichess" matches every game whose prefix holds the word,
// "https://lichess.org/AbCd1234" (a whole URL, case-insensitive as every name filter) and
// "AbCd1234" alone match the game with that suffix, a pattern "=URL" only the URL exactly.
// A split site is matched by its words only: the people's-name reading of the name rule
// ("Last, First") is for names, not URLs.
#pragma once

#include "search/game_filter.h"
#include "store/database.h"
#include "store/game_query.h"

namespace pgnbase::search {

// What the pattern accepts, as the games query tests it: names matched whole (as
// matching_names finds them), and the prefix ids under which a pattern word left over
// must be the suffix. The prefixes are looked up in a range of the names index (a few
// rows); the suffixes are tested on each game's row, as --site tests site_id (games have
// no index on either). The caller holds a read snapshot.
store::SiteIds matching_sites(store::Database& db, const NamePattern& pattern);

}  // namespace pgnbase::search
