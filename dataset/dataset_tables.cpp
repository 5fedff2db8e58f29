#include "dataset/dataset_tables.h"

#include <algorithm>
#include <compare>
#include <string>

#include "dataset/dataset_key.h"
#include "store/blob_codec.h"
#include "store/tag_codec.h"
#include "store/utf8.h"

namespace pgnbase::dataset {

namespace {

using K = ColumnKind;

// Column indexes of games_columns(), in order.
enum GamesColumn : int {
  G_ID, G_SOURCE_ID, G_GAME_NUMBER, G_EVENT, G_SITE, G_DATE, G_DATE_KEY, G_ROUND, G_WHITE, G_BLACK,
  G_RESULT_TAG, G_RESULT, G_WHITE_ELO, G_BLACK_ELO, G_ECO, G_ECO_SOURCE, G_OPENING, G_TIME_CONTROL,
  G_PLIES, G_VARIANT, G_START_FEN, G_LANGUAGE, G_MOVES, G_TAGS, G_ANNOTATIONS, G_COUNT
};

// Text columns are UTF-8: valid UTF-8 passes, any other byte is read as Latin-1 (the
// store's reading rule, store/utf8.h), since old PGN files are often Latin-1.
void add_text(ColumnValues& c, std::optional<std::string_view> v) {
  if (v) c.add(std::string_view(store::as_utf8(*v)));
  else c.add_null();
}

void add_int(ColumnValues& c, std::optional<int64_t> v) {
  if (v) c.add(*v);
  else c.add_null();
}

// The other tags as PGN tag pair lines, [Name "Value"] joined by newlines.
std::string tag_lines(const std::vector<store::TagView>& tags) {
  std::string out;
  for (const store::TagView& t : tags) {
    if (!out.empty()) out += '\n';
    out += '[';
    out += t.name;
    out += " \"";
    for (char ch : t.value) {
      if (ch == '"' || ch == '\\') out += '\\';
      out += ch;
    }
    out += "\"]";
  }
  return store::as_utf8(out);
}

// Runs of sorted postings with one key: calls f(begin, end) for each.
template <typename F>
void for_each_key(std::span<const DatasetPosting> sorted, F&& f) {
  for (size_t i = 0; i < sorted.size();) {
    size_t j = i + 1;
    while (j < sorted.size() && sorted[j].key == sorted[i].key) ++j;
    f(i, j);
    i = j;
  }
}

// Writes a row group when it holds group_rows rows or more (called between keys).
void flush_if_full(std::vector<ColumnValues>& columns, size_t group_rows, ParquetWriter& writer, bool last) {
  if (columns[0].rows() == 0 || (!last && columns[0].rows() < group_rows)) return;
  writer.write_row_group(columns);
  for (ColumnValues& c : columns) c.clear();
}

}  // namespace

std::vector<ColumnSpec> games_columns() {
  return {
      {"id", K::Int64, false, false},
      {"source_id", K::Int64},
      {"game_number", K::Int64, false, false},
      {"event", K::String, true},
      {"site", K::String, true},
      {"date", K::String, true},
      {"date_key", K::Int32, true},
      {"round", K::String, true},
      {"white", K::String, true},
      {"black", K::String, true},
      {"result_tag", K::String, true},
      {"result", K::UInt8},
      {"white_elo", K::Int32, true},
      {"black_elo", K::Int32, true},
      {"eco", K::String, true},
      {"eco_source", K::UInt8},
      {"opening", K::String, true},
      {"time_control", K::String, true},
      {"plies", K::Int32},
      {"variant", K::UInt8},
      {"start_fen", K::String, true},
      {"language", K::String},
      {"moves", K::Binary, false, false, false},
      {"tags", K::String, true, false, false},
      {"annotations", K::Binary, true, false, false},
  };
}

std::vector<ColumnSpec> plies_columns() {
  return {
      {"game_id", K::Int64, false, false},
      {"ply", K::Int32},
      {"clock_ms", K::Int32, true},
      {"eval_cp", K::Int32, true},
      {"eval_mate", K::Int32, true},
      {"source_id", K::Int64},
  };
}

std::vector<ColumnSpec> positions_columns() {
  return {
      {"key", K::Int64},
      {"game_id", K::Int64, false, false},
      {"ply", K::Int32},
      {"next_move", K::UInt16},
      {"result", K::UInt8},
      {"source_id", K::Int64},
  };
}

std::vector<ColumnSpec> explorer_columns() {
  return {
      {"key", K::Int64},
      {"next_move", K::UInt16},
      {"games", K::Int64},
      {"white_wins", K::Int64},
      {"draws", K::Int64},
      {"black_wins", K::Int64},
      {"rated_games", K::Int64},
      {"elo_sum", K::Int64},
      {"position_games", K::Int64},
      {"source_id", K::Int64},
  };
}

std::vector<ColumnSpec> removed_columns() {
  return {
      {"source_id", K::Int64},
      {"export", K::Int32},
  };
}

std::vector<int> positions_sorting_columns() { return {0, 1, 2}; }  // key, game_id, ply
std::vector<int> explorer_sorting_columns() { return {0, 9, 1}; }   // key, source_id, next_move

bool add_game_row(const store::GameRow& row, std::span<const MoveCode> codes, store::AnnotationReader& reader,
                  std::vector<ColumnValues>& c) {
  std::vector<store::TagView> tags;
  if (!store::decode_tags(row.tags, tags) || !reader.read(row.annotations)) return false;
  // The payload of text entries alone: the numbers go to plies.
  std::vector<store::AnnotationEntry> entries;
  for (const store::AnnotationView& a : reader.entries()) entries.push_back({a.ply, std::string(a.text)});
  std::string annotations;
  store::encode_annotations(entries, annotations);
  c[G_ID].add(row.id);
  c[G_SOURCE_ID].add(row.source_id);
  c[G_GAME_NUMBER].add(row.game_number);
  add_text(c[G_EVENT], row.event);
  add_text(c[G_SITE], row.site);
  add_text(c[G_DATE], row.date);
  add_int(c[G_DATE_KEY], row.date_key);
  add_text(c[G_ROUND], row.round);
  add_text(c[G_WHITE], row.white);
  add_text(c[G_BLACK], row.black);
  add_text(c[G_RESULT_TAG], row.result_tag);
  c[G_RESULT].add(int64_t(row.result));
  add_int(c[G_WHITE_ELO], row.white_elo);
  add_int(c[G_BLACK_ELO], row.black_elo);
  add_text(c[G_ECO], row.eco);
  c[G_ECO_SOURCE].add(int64_t(row.eco_source));  // the stored number (EcoSource)
  add_text(c[G_OPENING], row.opening);
  add_text(c[G_TIME_CONTROL], row.time_control);
  c[G_PLIES].add(row.plies);
  c[G_VARIANT].add(int64_t(row.variant));
  add_text(c[G_START_FEN], row.start_fen);
  add_text(c[G_LANGUAGE], row.language);
  std::string moves;
  for (MoveCode code : codes) {
    moves += char(code & 0xFF);
    moves += char(code >> 8);
  }
  c[G_MOVES].add(std::string_view(moves));
  if (tags.empty()) c[G_TAGS].add_null();
  else c[G_TAGS].add(std::string_view(tag_lines(tags)));
  if (row.annotations.empty()) c[G_ANNOTATIONS].add_null();
  else c[G_ANNOTATIONS].add(std::string_view(annotations));
  return true;
}

size_t add_ply_rows(const store::GameRow& row, size_t plies, const std::vector<store::PlyClockEval>& clock_evals,
                    std::vector<ColumnValues>& c) {
  size_t rows = 0;
  for (const store::PlyClockEval& d : clock_evals) {
    if (d.ply > plies) break;  // a damaged file's entries past the last move
    c[0].add(row.id);
    c[1].add(int64_t(d.ply));
    if (d.clock >= 0) c[2].add(int64_t(d.clock) * 100);
    else c[2].add_null();
    if (d.eval.kind == store::EvalKind::Centipawns) c[3].add(int64_t(d.eval.value));
    else c[3].add_null();
    if (d.eval.kind == store::EvalKind::Mate) c[4].add(int64_t(d.eval.value));
    else c[4].add_null();
    c[5].add(row.source_id);
    ++rows;
  }
  return rows;
}

void write_positions(std::span<const DatasetPosting> sorted, const GameFactsTable& games, size_t group_rows,
                     ParquetWriter& writer) {
  std::vector<ColumnValues> c(positions_columns().size());
  for_each_key(sorted, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      const DatasetPosting& p = sorted[i];
      c[0].add(signed_key(p.key));
      c[1].add(int64_t(p.game_id));
      c[2].add(int64_t(p.ply));
      c[3].add(int64_t(p.next_move));
      const GameFacts& g = games.of(p.game_id);
      c[4].add(int64_t(g.result));
      c[5].add(int64_t(g.source_id));
    }
    flush_if_full(c, group_rows, writer, false);
  });
  flush_if_full(c, group_rows, writer, true);
}

uint64_t write_explorer(std::span<const DatasetPosting> sorted, const GameFactsTable& games, size_t group_rows,
                        ParquetWriter& writer) {
  struct Played {  // sorted by source, then move, then game
    uint32_t source;
    uint16_t move;
    uint32_t game;
    auto operator<=>(const Played&) const = default;
  };
  std::vector<ColumnValues> c(explorer_columns().size());
  std::vector<Played> played;  // one per distinct (source, move, game), sorted
  std::vector<uint32_t> ids;
  uint64_t rows = 0;
  for_each_key(sorted, [&](size_t begin, size_t end) {
    played.clear();
    for (size_t i = begin; i < end; ++i)
      played.push_back({games.of(sorted[i].game_id).source_id, sorted[i].next_move, sorted[i].game_id});
    std::sort(played.begin(), played.end());
    played.erase(std::unique(played.begin(), played.end()), played.end());
    // The mover is the same in every posting of a key: the side to move is part of it.
    const DatasetPosting& first = sorted[begin];
    const bool white_moves = (first.ply % 2 == 0) != games.of(first.game_id).black_starts;
    for (size_t s = 0; s < played.size();) {
      size_t source_end = s;
      while (source_end < played.size() && played[source_end].source == played[s].source) ++source_end;
      // Distinct games of the source that reach the key, on its first row only.
      ids.clear();
      for (size_t i = s; i < source_end; ++i) ids.push_back(played[i].game);
      std::sort(ids.begin(), ids.end());
      int64_t position_games = std::unique(ids.begin(), ids.end()) - ids.begin();
      for (size_t i = s; i < source_end;) {
        int64_t counts[4] = {}, rated = 0, elo_sum = 0, n = 0;
        size_t j = i;
        for (; j < source_end && played[j].move == played[i].move; ++j) {
          const GameFacts& g = games.of(played[j].game);
          ++n;
          ++counts[g.result & 3];
          const int32_t elo = white_moves ? g.white_elo : g.black_elo;
          if (elo >= 0) {
            ++rated;
            elo_sum += elo;
          }
        }
        c[0].add(signed_key(first.key));
        c[1].add(int64_t(played[i].move));
        c[2].add(n);
        c[3].add(counts[1]);
        c[4].add(counts[2]);
        c[5].add(counts[3]);
        c[6].add(rated);
        c[7].add(elo_sum);
        c[8].add(position_games);
        c[9].add(int64_t(played[i].source));
        position_games = 0;
        ++rows;
        i = j;
      }
      s = source_end;
    }
    flush_if_full(c, group_rows, writer, false);
  });
  flush_if_full(c, group_rows, writer, true);
  return rows;
}

}  // namespace pgnbase::dataset
