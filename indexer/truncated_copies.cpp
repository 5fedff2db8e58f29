#include "indexer/truncated_copies.h"

#include <algorithm>
#include <functional>
#include <span>
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

// The finder's table holds each stored game under its headers and the first byte of its
// moves after the blob's format byte (about the first ply: a game and its truncated copy
// share the shorter one's moves, so that byte when both have moves), with a mark of 28
// bits: whether it is finished, how many of the moves' first four bytes it has, and bytes
// 1 to 3. A look-up walks only the games that open with
// the same move byte, and reads a stored row only when the first four bytes agree as far
// as the shorter game has them: a file of thousands of games without headers (studies,
// puzzles) no longer reads every earlier game's row for each new one.
constexpr int kPrefixBytes = 4;
constexpr int kMarkBits = 1 + 3 + 8 * (kPrefixBytes - 1);
constexpr uint32_t kNoMoves = 256;  // the "first byte" of a game without moves

struct MovesPrefix {
  uint32_t length = 0;  // min(bytes of moves, kPrefixBytes)
  uint8_t bytes[kPrefixBytes] = {};

  // blob: a moves blob, its format byte first (store/moves_codec.h); or the bytes after it.
  MovesPrefix(std::string_view blob, bool skip_format_byte) {
    if (skip_format_byte && !blob.empty()) blob.remove_prefix(1);
    length = uint32_t(std::min<size_t>(blob.size(), kPrefixBytes));
    for (uint32_t i = 0; i < length; ++i) bytes[i] = uint8_t(blob[i]);
  }
  // The game's, from what the worker packed (GameRecord::copy_moves_prefix) when it did.
  explicit MovesPrefix(const GameRecord& game) {
    const uint64_t packed =
        game.copy_moves_prefix != 0 ? game.copy_moves_prefix : truncated_copy_moves_prefix(game.moves_blob);
    length = uint32_t(packed >> 32);
    for (int i = 0; i < kPrefixBytes; ++i) bytes[i] = uint8_t(packed >> (8 * i));
  }
  uint64_t packed() const {
    uint64_t p = uint64_t{length} << 32;
    for (int i = 0; i < kPrefixBytes; ++i) p |= uint64_t{bytes[i]} << (8 * i);
    return p;
  }
  uint32_t first() const { return length ? bytes[0] : kNoMoves; }
  uint32_t mark(bool finished) const {
    uint32_t m = uint32_t{finished} | length << 1;
    for (int i = 1; i < kPrefixBytes; ++i) m |= uint32_t{bytes[i]} << (4 + 8 * (i - 1));
    return m;
  }
  // Whether a stored game with this mark can share this prefix as far as the shorter has it.
  bool agrees_with(uint32_t stored_mark) const {
    const uint32_t shorter = std::min(length, (stored_mark >> 1) & 7);
    for (uint32_t i = 1; i < shorter; ++i)
      if (bytes[i] != ((stored_mark >> (4 + 8 * (i - 1))) & 0xFF)) return false;
    return true;
  }
};

bool is_finished(uint32_t mark) { return (mark & 1) != 0; }

// Finished games waiting for their table (TruncatedCopyFinder::finished_waiting_) keep
// their vector's memory up to this many between two unfinished games.
constexpr size_t kLargestIdleWaiting = 1 << 16;
// The waiting entries are read in a row at most this many times over before they are
// filed in the table: a read is a compare, a filing a probe that misses the cache.
constexpr size_t kReadsPerFiling = 8;

// The table key of a header hash and a first move byte (or kNoMoves).
uint64_t table_key(uint64_t header_hash, uint32_t first) {
  uint64_t x = header_hash + (uint64_t{first} + 1) * 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

std::string_view as_text(std::span<const std::byte> blob) {
  return {reinterpret_cast<const char*>(blob.data()), blob.size()};
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

uint64_t truncated_copy_moves_prefix(std::string_view moves_blob) { return MovesPrefix(moves_blob, true).packed(); }

uint64_t truncated_copy_header_hash(const GameRecord& game) {
  const store::HeaderColumns& h = game.header;
  return header_hash(view(h.white), view(h.black), view(h.event), view(h.date), view(h.round), game.start_fen);
}

TruncatedCopyFinder::TruncatedCopyFinder(store::Database& db, std::function<void()> before_reading)
    : db_(db), before_reading_(std::move(before_reading)), unfinished_(kMarkBits), finished_(kMarkBits) {}

void TruncatedCopyFinder::file(uint64_t header, uint32_t first, uint32_t id, uint32_t mark) {
  const uint64_t key = table_key(header, first);
  if (is_finished(mark)) {
    finished_waiting_.push_back(Entry{key, id, mark});
  } else {
    unfinished_.add(key, id, mark);
    unfinished_headers_.add(header, id);
  }
}

void TruncatedCopyFinder::candidates(uint64_t key, bool with_finished, std::vector<std::pair<uint32_t, uint32_t>>& out) {
  out.clear();
  auto collect = [&out](uint32_t id, uint32_t mark) {
    out.emplace_back(id, mark);
    return false;
  };
  unfinished_.any_of(key, collect);
  if (with_finished) {
    // A few unfinished games among many finished ones (2 in the master-style bench file)
    // read the waiting entries in a row, a fraction of what filing each costs; many
    // file them, once the reading would cost more.
    if (waiting_read_ + finished_waiting_.size() > kReadsPerFiling * finished_waiting_.size()) {
      for (const Entry& e : finished_waiting_) finished_.add(e.key, e.id, e.mark);
      finished_waiting_.clear();
      if (finished_waiting_.capacity() > kLargestIdleWaiting) finished_waiting_.shrink_to_fit();
      waiting_read_ = 0;
    }
    for (const Entry& e : finished_waiting_)
      if (finished_.same_key(e.key, key)) out.emplace_back(e.id, e.mark);
    waiting_read_ += finished_waiting_.size();
    finished_.any_of(key, collect);
  }
  std::sort(out.begin(), out.end());  // the order they were stored in
}

void TruncatedCopyFinder::load(Loaded what) {
  // The first fill reads the stored games (none of the import under way is stored yet:
  // the first game that is not an exact duplicate asks first); a later one adds the
  // finished games stored before it, the table holding the unfinished ones and every
  // game added since.
  before_reading_();
  const bool first = loaded_ == Loaded::Nothing;
  if (first) {
    store::Statement max = db_.prepare(store::sql::kMaxGameId);
    stored_through_ = max.step() ? max.column_int64(0) : 0;
  }
  const bool by_id = first && what == Loaded::Unfinished && unfinished_ids_;
  std::string_view sql = !first                   ? store::sql::kCopyCheckHeadersFinishedThrough
                         : what == Loaded::All    ? store::sql::kCopyCheckHeaders
                         : by_id                  ? store::sql::kCopyCheckHeadersById
                                                  : store::sql::kCopyCheckHeadersUnfinished;
  store::Statement s = db_.prepare(sql);
  if (!first) s.bind_int64(1, stored_through_);
  auto column = [&](int c) { return s.column_is_null(c) ? std::nullopt : std::optional<std::string_view>(s.column_text(c)); };
  auto add_row = [&] {
    const MovesPrefix prefix(as_text(s.column_blob(8)), false);
    const bool finished = store::GameResult(s.column_int64(7)) != store::GameResult::Unknown;
    const uint64_t header = header_hash(column(1), column(2), column(3), column(4), column(5), column(6).value_or(""));
    file(header, prefix.first(), uint32_t(s.column_int64(0)), prefix.mark(finished));
  };
  if (by_id) {
    for (uint32_t id : *unfinished_ids_) {
      s.reset();
      s.bind_int64(1, id);
      if (s.step()) add_row();
    }
  } else {
    while (s.step()) add_row();
  }
  unfinished_ids_.reset();  // add() keeps the table itself up to date from here
  loaded_ = what;
}

void TruncatedCopyFinder::set_unfinished_ids(std::vector<uint32_t> ids) {
  if (loaded_ == Loaded::Nothing) unfinished_ids_ = std::move(ids);
}

std::optional<TruncatedCopy> TruncatedCopyFinder::find(const GameRecord& game) {
  const bool finished = game.result != store::GameResult::Unknown;
  if (finished ? loaded_ == Loaded::Nothing : loaded_ != Loaded::All) load(finished ? Loaded::Unfinished : Loaded::All);
  if (finished && unfinished_headers_.find(game.copy_header_hash) == 0) return std::nullopt;
  const MovesPrefix prefix(game);
  std::optional<TruncatedCopy> copy;
  store::Statement* row = nullptr;
  auto check = [&](uint32_t id, uint32_t stored_mark) {
    if (!prefix.agrees_with(stored_mark)) return false;
    if (!row) {
      before_reading_();
      row = &db_.cached(store::sql::kCopyCheckGame);
    }
    store::Statement& s = *row;
    s.reset();
    s.bind_int64(1, id);
    if (!s.step()) return false;
    const std::string_view stored = as_text(s.column_blob(0));
    const auto stored_result = store::GameResult(s.column_int64(1));
    const bool new_is_shorter = truncates(game.moves_blob, game.result, stored, stored_result);
    if (!new_is_shorter && !truncates(stored, stored_result, game.moves_blob, game.result)) return false;
    if (!same_identity(game, s.column_is_null(3) ? std::nullopt : std::optional<std::string_view>(s.column_text(3)),
                       as_text(s.column_blob(4))))
      return false;
    // A stored game that the new one truncates decides (the new one is skipped), whichever
    // order the candidates come in; one that the new game extends is kept as the answer
    // until then.
    if (!new_is_shorter && copy) return false;
    copy = TruncatedCopy{.game_number = game.place.number, .line = game.place.line, .stored_id = id,
                         .plies = game.codes.size(), .stored_plies = uint64_t(s.column_int64(2)),
                         .new_is_shorter = new_is_shorter};
    return new_is_shorter;
  };
  // The stored games that open with this game's first move byte, then those without
  // moves (a prefix of any game, so only worth asking when nothing was found); a game
  // without moves is a prefix of every stored game. Two finished games are never copies:
  // a finished one asks the unfinished stored games alone.
  const uint64_t header = game.copy_header_hash;
  auto look_under = [&](uint32_t first) {
    candidates(table_key(header, first), !finished, candidates_);
    for (const auto& [id, mark] : candidates_)
      if (check(id, mark)) return;
  };
  look_under(prefix.first());
  if (prefix.length > 0) {
    if (!copy) look_under(kNoMoves);
  } else {
    for (uint32_t first = 0; first < kNoMoves && !(copy && copy->new_is_shorter); ++first) look_under(first);
  }
  if (row) row->reset();  // a cached statement left on a row would hold its read open
  return copy;
}

void TruncatedCopyFinder::add(const GameRecord& game, int64_t id) {
  const bool finished = game.result != store::GameResult::Unknown;
  // Nothing loaded: dedupe is off (every game the writer stores was asked about first).
  if (loaded_ == Loaded::Nothing) return;
  const MovesPrefix prefix(game);
  file(game.copy_header_hash, prefix.first(), uint32_t(id), prefix.mark(finished));
}

void TruncatedCopyFinder::clear() {
  unfinished_.clear();
  unfinished_headers_.clear();
  finished_.clear();
  finished_waiting_ = {};
  unfinished_ids_.reset();
  loaded_ = Loaded::Nothing;
}

}  // namespace pgnbase::indexer
