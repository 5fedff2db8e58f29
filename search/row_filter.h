// The filters that need each game's row: --tag (any tag, in its column or in the tags
// blob), --opening (the Opening tag or the computed opening name), --comment and
// --min-eval/--max-eval (the evaluations of the annotations). SQL
// cannot read the blobs, so the games the other filters select are read once, in id
// order, without their moves, and tested here; the passing ids then join the games query
// (store::GameConditions::game_ids), so counting, ordering and every output see one set.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "search/game_filter.h"
#include "store/clock_eval_text.h"
#include "store/database.h"
#include "store/game_query.h"
#include "store/game_annotations.h"
#include "store/game_row.h"
#include "store/tag_codec.h"

namespace pgnbase::search {

// Tests one row (read with the annotations when the filter has a comment); payload is
// scratch space. A row whose tags or annotations do not decode does not pass.
class RowFilter {
 public:
  explicit RowFilter(const GameFilter& filter) : filter_(filter) {}
  bool passes(const store::GameRow& row);

 private:
  bool tags_pass(const store::GameRow& row);
  bool opening_passes(const store::GameRow& row);
  bool comment_passes(const store::GameRow& row);
  bool eval_passes(const store::GameRow& row);

  const GameFilter& filter_;
  std::vector<store::TagView> tags_;
  store::AnnotationReader annotations_;
  std::string number_;
};

// The ids, ascending, of the games that pass `conditions` (the filter's SQL part) and the
// row filters. The caller holds a read snapshot.
std::vector<int64_t> games_passing_row_filters(store::Database& db, const GameFilter& filter,
                                               const store::GameConditions& conditions);

// An evaluation as --min-eval/--max-eval order them: centipawns from White's side, and a
// mate beyond every centipawn value, the sooner the further (White mates in 3: 999,997;
// Black mates in 3: -999,997).
int64_t eval_score(const store::Evaluation& eval);

// Whether a tag value matches a --tag value: the whole value, ASCII case folded, '*' any
// run of bytes, '?' one character.
bool tag_value_matches(std::string_view pattern, std::string_view value);

}  // namespace pgnbase::search
