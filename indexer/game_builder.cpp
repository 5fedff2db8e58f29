#include "indexer/game_builder.h"

#include <algorithm>
#include <array>
#include <iterator>

#include "core/fen.h"
#include "core/replay.h"
#include "store/eco_table.h"
#include "store/game_annotations.h"
#include "indexer/truncated_copies.h"

namespace pgnbase::indexer {

namespace {

std::string lowercase_trimmed(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  return out;
}

void fill_place(const GameDraft& draft, GamePlace& place) {
  place.offset = draft.offset;
  place.line = draft.line;
}

bool reject_with(const GameDraft& draft, RejectRecord& reject, std::string kind, std::string reason) {
  fill_place(draft, reject.place);
  reject.kind = std::move(kind);
  reject.reason = std::move(reason);
  reject.text.assign(draft.text);
  return false;
}

// "4... Sf4" for ply 8 of a game starting at move 1 with White.
std::string numbered_move(const Board& start, int ply, std::string_view token) {
  int half = ply - 1 + (start.side_to_move() == BLACK ? 1 : 0);
  return std::to_string(start.fullmove_number() + half / 2) + (half % 2 ? "... " : ". ") + std::string(token);
}

uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}

uint64_t mix_text(uint64_t h, std::string_view text) {
  h = mix(h, text.size());
  for (unsigned char c : text) h = mix(h, c);
  return h;
}

}  // namespace

int64_t dedupe_key_of(const GameRecord& game) {
  // The first value of each tag the key reads, found in one pass over the tags (a lichess
  // game has 15-20 of them; ten passes cost the workers 3% of their time).
  enum : size_t { kWhite, kBlack, kDate, kEvent, kRound, kIdentifying };  // kIdentifying + i: kIdentifyingTags[i]
  static constexpr auto kRead = [] {
    std::array<std::string_view, kIdentifying + std::size(kIdentifyingTags)> names{"White", "Black", "Date", "Event",
                                                                                    "Round"};
    std::copy(std::begin(kIdentifyingTags), std::end(kIdentifyingTags), names.begin() + kIdentifying);  // Site too
    return names;
  }();
  static constexpr size_t kSite = kIdentifying;  // kIdentifyingTags[0]
  static_assert(kIdentifyingTags[0] == "Site");
  std::array<const std::string*, std::size(kRead)> found{};
  for (const store::Tag& t : game.tags)
    for (size_t i = 0; i < std::size(kRead); ++i)
      if (!found[i] && t.name == kRead[i]) {
        found[i] = &t.value;
        break;
      }

  uint64_t h = mix_text(0x51ED270B27A1F3C5ull, game.start_fen);
  for (MoveCode code : game.codes) h = mix(h, code);
  h = mix(h, uint64_t(game.result));
  // An absent tag counts as the value export writes for it, so that an exported and
  // re-imported game is recognised.
  auto mix_tag = [&](size_t tag, std::string_view absent) {
    h = mix_text(h, found[tag] ? std::string_view(*found[tag]) : absent);
  };
  mix_tag(kWhite, "?");
  mix_tag(kBlack, "?");
  mix_tag(kDate, "????.??.??");
  // A game without moves (a pairing, a forfeit) is told apart by its headers alone: two
  // rounds of one pairing list are two games.
  if (game.codes.empty())
    for (size_t tag : {size_t(kEvent), kSite, size_t(kRound)}) mix_tag(tag, "?");
  // A tag that names one game tells apart games whose moves, players and day agree (two
  // quick draws of the same pair on lichess); a Site that is a place, not a game's URL,
  // does not, as copies of one game may spell it differently. Absent, it adds nothing, so
  // the key of a game without such tags is what it always was.
  for (size_t i = 0; i < std::size(kIdentifyingTags); ++i)
    if (const std::string* value = found[kIdentifying + i])
      if (i + kIdentifying != kSite || value->find("://") != std::string::npos)
        h = mix_text(mix_text(h, kIdentifyingTags[i]), *value);
  return int64_t(h);
}

std::optional<store::Variant> variant_from_tag(std::string_view value) {
  std::string v = lowercase_trimmed(value);
  // "Regular" is how some programs name standard chess.
  if (v.empty() || v == "standard" || v == "normal" || v == "regular" || v == "from position" || v == "chess")
    return store::Variant::Standard;
  if (v == "chess960" || v == "chess 960" || v == "fischerandom" || v == "fischer random" ||
      v == "fischer random chess" || v == "fischerrandom" || v == "960")
    return store::Variant::Chess960;
  return std::nullopt;
}

store::GameResult result_from_token(std::string_view token) {
  if (token == "1-0") return store::GameResult::WhiteWin;
  if (token == "0-1") return store::GameResult::BlackWin;
  if (token == "1/2-1/2" || token == "\xC2\xBD-\xC2\xBD") return store::GameResult::Draw;
  return store::GameResult::Unknown;
}

bool build_game(const GameDraft& draft, const BuildOptions& options, GameRecord& record, RejectRecord& reject) {
  if (draft.error) {
    const PgnError& e = *draft.error;
    return reject_with(draft, reject, describe(e.code),
                       std::string(describe(e.code)) + " at line " + std::to_string(e.line) + " near '" +
                           std::string(e.token.substr(0, 40)) + "'");
  }
  store::Variant variant = store::Variant::Standard;
  if (const std::string* tag = draft.find_tag("Variant")) {
    std::optional<store::Variant> v = variant_from_tag(*tag);
    if (!v) return reject_with(draft, reject, "unsupported variant", "unsupported variant: " + *tag);
    variant = *v;
  }
  Board start;
  if (const std::string* fen = draft.find_tag("FEN")) {
    Parsed<Board> parsed = parse_fen(*fen, variant == store::Variant::Chess960);
    if (!parsed) return reject_with(draft, reject, "bad FEN", "bad FEN tag: " + parsed.error());
    start = *parsed;
  } else if (variant == store::Variant::Chess960) {
    start.set_chess960(true);  // position 518 is the standard array
  }
  if (start.chess960()) variant = store::Variant::Chess960;

  ReplayOutput replay;
  ReplayFailure failure;
  const PieceLetters* language = replay_moves(start, draft.moves, options.letters, replay, failure);
  if (!language) {
    std::string what = describe(failure.error);
    return reject_with(draft, reject, what,
                       what + " '" + std::string(failure.token.substr(0, 40)) + "' at ply " +
                           std::to_string(failure.ply) + " (" + numbered_move(start, failure.ply, failure.token.substr(0, 40)) + ")");
  }

  fill_place(draft, record.place);
  record.tags = draft.tags;
  record.variant = variant;
  record.start_fen = draft.find_tag("FEN") ? write_fen(start) : std::string();
  record.language.assign(language->code);
  const std::string* result_tag = draft.find_tag("Result");
  record.result = result_tag ? result_from_token(*result_tag) : store::GameResult::Unknown;
  if (record.result == store::GameResult::Unknown) record.result = result_from_token(draft.result_token);
  record.codes = std::move(replay.codes);
  record.compact_moves = std::move(replay.compact);
  record.keys = std::move(replay.keys);
  record.taken = std::move(replay.taken);
  record.annotations.clear();
  if (options.keep_annotations) {
    thread_local std::vector<store::AnnotationView> entries;  // one per worker, reused
    draft.annotation_views(entries);
    store::encode_game_annotations(entries, record.annotations);
  }
  record.dedupe_key = dedupe_key_of(record);
  record.eco.clear();
  record.opening.clear();
  if (options.classify_eco && variant == store::Variant::Standard) {
    if (const store::EcoEntry* entry = store::EcoTable::builtin().classify(record.keys)) {
      record.eco.assign(entry->eco);
      record.opening.assign(entry->name);
    }
  }
  return true;
}

}  // namespace pgnbase::indexer
