#include "indexer/truncated_copies.h"

#include <functional>
#include <string>

#include "store/games_sql.h"

namespace pgnbase::indexer {

namespace {

// The headers that make two records the same game, absent ones as export writes them.
uint64_t header_hash(std::optional<std::string_view> white, std::optional<std::string_view> black,
                     std::optional<std::string_view> event, std::optional<std::string_view> date,
                     std::optional<std::string_view> round, std::string_view start_fen) {
  std::string text;
  for (auto [value, absent] : {std::pair{white, "?"}, {black, "?"}, {event, "?"}, {date, "????.??.??"}, {round, "?"}}) {
    text += value ? *value : std::string_view(absent);
    text += '\0';
  }
  text += start_fen;
  return std::hash<std::string>{}(text);
}

std::optional<std::string_view> view(const std::optional<std::string>& s) {
  return s ? std::optional<std::string_view>(*s) : std::nullopt;
}

// Whether `shorter` can be an earlier state of `longer`: it has no result yet (a finished
// game is never a copy of a longer one: a time forfeit after 4 plies is a game of its
// own), and its moves are a strict prefix of `longer`'s, or the same moves where only
// `longer` knows the result. Both blobs are compact moves from the same start position
// (the header hash includes it), where each move's bytes depend only on the position
// before it: the moves are a prefix exactly when the bytes are.
bool truncates(std::string_view shorter, store::GameResult shorter_result, std::string_view longer, store::GameResult longer_result) {
  if (shorter_result != store::GameResult::Unknown) return false;
  if (shorter.size() > longer.size() || !longer.starts_with(shorter)) return false;
  return shorter.size() < longer.size() || longer_result != store::GameResult::Unknown;
}

// The value of a tag that names one game, as export writes it: Site's absence is "?", the
// others' is empty.
std::string_view identifying_value(std::string_view name, std::optional<std::string_view> value) {
  if (value) return *value;
  return name == "Site" ? "?" : "";
}

// Whether every tag that identifies a game (kIdentifyingTags) agrees between the new game
// and a stored one (its site and its tags blob): one absent on one side only differs.
bool same_identity(const GameRecord& game, std::optional<std::string_view> stored_site, std::string_view stored_tags) {
  std::vector<store::TagView> stored;
  if (!store::decode_tags(stored_tags, stored)) return false;
  for (std::string_view name : kIdentifyingTags) {
    std::optional<std::string_view> mine, theirs;
    if (name == "Site") {
      if (game.header.site) mine = *game.header.site;
      theirs = stored_site;
    }
    for (const store::Tag& tag : game.tags)
      if (!mine && tag.name == name) mine = tag.value;
    for (const store::TagView& tag : stored)
      if (!theirs && tag.name == name) theirs = tag.value;
    if (identifying_value(name, mine) != identifying_value(name, theirs)) return false;
  }
  return true;
}

}  // namespace

uint64_t truncated_copy_header_hash(const GameRecord& game) {
  const store::HeaderColumns& h = game.header;
  return header_hash(view(h.white), view(h.black), view(h.event), view(h.date), view(h.round), game.start_fen);
}

void TruncatedCopyFinder::load() {
  store::Statement s = db_.prepare(store::sql::kCopyCheckHeaders);
  auto column = [&](int c) { return s.column_is_null(c) ? std::nullopt : std::optional<std::string_view>(s.column_text(c)); };
  while (s.step())
    ids_by_header_.add(header_hash(column(1), column(2), column(3), column(4), column(5), column(6).value_or("")),
                       uint32_t(s.column_int64(0)), store::GameResult(s.column_int64(7)) != store::GameResult::Unknown);
  loaded_ = true;
}

std::optional<TruncatedCopy> TruncatedCopyFinder::find(const GameRecord& game) {
  if (!loaded_) load();
  const bool finished = game.result != store::GameResult::Unknown;
  std::optional<TruncatedCopy> copy;
  store::Statement* row = nullptr;
  ids_by_header_.any_of(game.copy_header_hash, [&](uint32_t id, bool stored_finished) {
    if (finished && stored_finished) return false;  // neither can be an earlier state of the other
    if (!row) row = &db_.cached(store::sql::kCopyCheckGame);
    store::Statement& s = *row;
    s.reset();
    s.bind_int64(1, id);
    if (!s.step()) return false;
    const std::span<const std::byte> blob = s.column_blob(0);
    const std::string_view stored(reinterpret_cast<const char*>(blob.data()), blob.size());
    const auto stored_result = store::GameResult(s.column_int64(1));
    const bool new_is_shorter = truncates(game.moves_blob, game.result, stored, stored_result);
    if (!new_is_shorter && !truncates(stored, stored_result, game.moves_blob, game.result)) return false;
    const std::span<const std::byte> tags = s.column_blob(4);
    if (!same_identity(game, s.column_is_null(3) ? std::nullopt : std::optional<std::string_view>(s.column_text(3)),
                       std::string_view(reinterpret_cast<const char*>(tags.data()), tags.size())))
      return false;
    copy = TruncatedCopy{.game_number = game.place.number, .line = game.place.line, .stored_id = id,
                         .plies = game.codes.size(), .stored_plies = uint64_t(s.column_int64(2)),
                         .new_is_shorter = new_is_shorter};
    return true;
  });
  if (row) row->reset();  // a cached statement left on a row would hold its read open
  return copy;
}

void TruncatedCopyFinder::add(const GameRecord& game, int64_t id) {
  if (loaded_) ids_by_header_.add(game.copy_header_hash, uint32_t(id), game.result != store::GameResult::Unknown);
}

void TruncatedCopyFinder::clear() {
  ids_by_header_.clear();
  loaded_ = false;
}

}  // namespace pgnbase::indexer
