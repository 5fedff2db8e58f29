#include "search/row_filter.h"

#include <algorithm>
#include <cctype>

#include "search/name_match.h"
#include "store/blob_codec.h"
#include "store/name_words.h"

namespace pgnbase::search {

namespace {

bool equal_ignoring_case(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// The tags whose values live in table names.
constexpr std::string_view kNameTags[] = {"Event", "Site", "White", "Black"};

// The value of a tag the import keeps in a column, when the game had it (not the Seven Tag
// Roster's placeholders); nullopt for other names. number: scratch for the ratings.
std::optional<std::string_view> column_tag(const store::GameRow& row, std::string_view name, std::string& number) {
  auto rating = [&](const std::optional<int64_t>& elo) -> std::optional<std::string_view> {
    if (!elo) return std::nullopt;
    number = std::to_string(*elo);
    return number;
  };
  if (equal_ignoring_case(name, "Event")) return row.event;
  if (equal_ignoring_case(name, "Site")) return row.site;
  if (equal_ignoring_case(name, "Date")) return row.date;
  if (equal_ignoring_case(name, "Round")) return row.round;
  if (equal_ignoring_case(name, "White")) return row.white;
  if (equal_ignoring_case(name, "Black")) return row.black;
  if (equal_ignoring_case(name, "Result")) return row.result_tag;
  if (equal_ignoring_case(name, "WhiteElo")) return rating(row.white_elo);
  if (equal_ignoring_case(name, "BlackElo")) return rating(row.black_elo);
  if (equal_ignoring_case(name, "ECO")) return row.eco_source == store::EcoSource::Tag ? row.eco : std::nullopt;
  if (equal_ignoring_case(name, "TimeControl")) return row.time_control;
  return std::nullopt;
}

}  // namespace

bool tag_value_matches(std::string_view pattern, std::string_view value) {
  return store::glob_matches(pattern, value, true);
}

bool RowFilter::passes(const store::GameRow& row) {
  return tags_pass(row) && opening_passes(row) && comment_passes(row) && eval_passes(row);
}

bool RowFilter::tags_pass(const store::GameRow& row) {
  if (filter_.tags.empty() && !filter_.opening_name) return true;
  tags_.clear();
  if (!store::decode_tags(row.tags, tags_)) return false;
  // A tag in its column first, then in the blob (which holds later repeats and values the
  // column could not hold, such as WhiteElo "-").
  for (const TagCondition& condition : filter_.tags) {
    auto holds = [&](std::string_view value) { return !condition.value || tag_value_matches(*condition.value, value); };
    const std::optional<std::string_view> column = column_tag(row, condition.name, number_);
    bool found = column && holds(*column);
    for (size_t i = 0; i < tags_.size() && !found; ++i)
      found = equal_ignoring_case(tags_[i].name, condition.name) && holds(tags_[i].value);
    if (!found) return false;
  }
  return true;
}

bool RowFilter::opening_passes(const store::GameRow& row) {
  if (!filter_.opening_name) return true;
  if (row.opening && words_match(*filter_.opening_name, *row.opening)) return true;
  return std::any_of(tags_.begin(), tags_.end(), [&](const store::TagView& t) {
    return t.name == "Opening" && words_match(*filter_.opening_name, t.value);
  });
}

bool RowFilter::comment_passes(const store::GameRow& row) {
  if (!filter_.comment) return true;
  if (row.annotations.empty()) return false;
  // The text as the file had it: lifted clocks and evaluations are back in their comments.
  if (!annotations_.read(row.annotations)) return false;
  // An entry holds "{comment}", NAGs and "(variations)", which hold comments of their own.
  for (const store::AnnotationView& entry : annotations_.entries()) {
    size_t open = entry.text.find('{');
    while (open != std::string_view::npos) {
      const size_t close = entry.text.find('}', open + 1);
      const std::string_view comment = entry.text.substr(open + 1, close == std::string_view::npos ? close : close - open - 1);
      if (words_match(*filter_.comment, comment)) return true;
      if (close == std::string_view::npos) break;
      open = entry.text.find('{', close + 1);
    }
  }
  return false;
}

int64_t eval_score(const store::Evaluation& eval) {
  constexpr int64_t kMate = 1000000;
  if (eval.kind != store::EvalKind::Mate) return eval.value;
  return eval.value >= 0 ? kMate - eval.value : -kMate - eval.value;
}

bool RowFilter::eval_passes(const store::GameRow& row) {
  if (!filter_.has_eval_filter()) return true;
  if (row.annotations.empty() || !annotations_.read(row.annotations)) return false;
  const int64_t low = filter_.min_eval.value_or(INT64_MIN), high = filter_.max_eval.value_or(INT64_MAX);
  for (const store::PlyClockEval& p : annotations_.clock_evals()) {
    if (p.ply < filter_.eval_ply_from || p.eval.kind == store::EvalKind::None) continue;
    if (p.ply > filter_.eval_ply_to) break;  // by ascending ply
    const int64_t score = eval_score(p.eval);
    if (score >= low && score <= high) return true;
  }
  return false;
}

std::vector<int64_t> games_passing_row_filters(store::Database& db, const GameFilter& filter,
                                               const store::GameConditions& conditions) {
  const bool names = std::any_of(filter.tags.begin(), filter.tags.end(), [](const TagCondition& t) {
    return std::any_of(std::begin(kNameTags), std::end(kNameTags), [&](std::string_view n) { return equal_ignoring_case(n, t.name); });
  });
  store::SqlQuery q = store::build_game_scan_query(
      conditions, {.names = names, .opening = filter.opening_name.has_value(), .annotations = filter.comment.has_value() || filter.has_eval_filter()});
  store::Statement s = db.prepare(q.sql);
  q.bind(s);
  RowFilter row_filter(filter);
  store::GameRow row;
  std::vector<int64_t> ids;
  while (s.step()) {
    store::read_game_row(s, row);
    if (row_filter.passes(row)) ids.push_back(row.id);
  }
  return ids;
}

}  // namespace pgnbase::search
