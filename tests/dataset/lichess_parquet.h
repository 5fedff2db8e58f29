// Real games as Parquet files in the schema of lichess's Parquet edition (the
// Lichess/standard-chess-games dataset), written by DuckDB: the tests of Parquet input
// import them and the PGN they came from, and compare. The PGN is split into tags and
// movetext here; DuckDB reads them as JSON lines and writes the lichess columns with
// their types (SMALLINT Elo and rating changes, DATE UTCDate, TIME UTCTime).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "tests/dataset/node_readers.h"
#include "tests/support/files.h"

namespace pgnbase::dataset_test {

struct PgnGame {
  std::vector<std::pair<std::string, std::string>> tags;  // unescaped values, in file order
  std::string movetext;                                    // its lines joined by spaces
};

// The games of PGN text written as lichess writes it: tag lines, a blank line, movetext
// lines, a blank line.
inline std::vector<PgnGame> split_pgn_games(std::string_view text) {
  std::vector<PgnGame> games;
  bool in_movetext = false;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.front() == '[' && line.size() > 2 && std::isalpha(static_cast<unsigned char>(line[1]))) {
      if (games.empty() || in_movetext) games.emplace_back();
      in_movetext = false;
      const size_t space = line.find(' ');
      const size_t open = line.find('"'), close = line.rfind('"');
      if (space == std::string_view::npos || open == std::string_view::npos || close <= open) continue;
      std::string value;
      for (size_t i = open + 1; i < close; ++i) {
        if (line[i] == '\\' && i + 1 < close && (line[i + 1] == '"' || line[i + 1] == '\\')) ++i;
        value.push_back(line[i]);
      }
      games.back().tags.emplace_back(std::string(line.substr(1, space - 1)), std::move(value));
      continue;
    }
    if (games.empty()) games.emplace_back();
    in_movetext = true;
    std::string& movetext = games.back().movetext;
    if (!movetext.empty()) movetext.push_back(' ');
    movetext += line;
  }
  return games;
}

inline std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(c));
      out += escaped;
    } else {
      out.push_back(c);
    }
  }
  return out + "\"";
}

// One JSON object per game: its tags and "movetext".
inline std::string games_as_json_lines(const std::vector<PgnGame>& games) {
  std::string out;
  for (const PgnGame& game : games) {
    out += "{";
    for (const auto& [name, value] : game.tags) out += json_string(name) + ":" + json_string(value) + ",";
    out += "\"movetext\":" + json_string(game.movetext) + "}\n";
  }
  return out;
}

// The lichess Parquet edition's columns, in its order, as SQL over the JSON lines' text
// columns; extra_columns (e.g. ", Variant, FEN, SetUp") follow movetext.
inline std::string lichess_select(const std::string& json_path, const std::string& extra_columns = "",
                                  const std::string& where = "") {
  const std::vector<std::string> text_columns = {"Event", "Site", "White", "Black", "Result", "WhiteTitle",
                                                 "BlackTitle", "WhiteElo", "BlackElo", "WhiteRatingDiff",
                                                 "BlackRatingDiff", "UTCDate", "UTCTime", "ECO", "Opening",
                                                 "Termination", "TimeControl", "movetext", "Variant", "FEN", "SetUp"};
  std::string columns;
  for (const std::string& c : text_columns) columns += (columns.empty() ? "" : ", ") + c + ": 'VARCHAR'";
  return "SELECT Event, Site, White, Black, Result, WhiteTitle, BlackTitle, "
         "TRY_CAST(WhiteElo AS SMALLINT) AS WhiteElo, TRY_CAST(BlackElo AS SMALLINT) AS BlackElo, "
         "TRY_CAST(WhiteRatingDiff AS SMALLINT) AS WhiteRatingDiff, "
         "TRY_CAST(BlackRatingDiff AS SMALLINT) AS BlackRatingDiff, "
         "TRY_CAST(replace(UTCDate, '.', '-') AS DATE) AS UTCDate, TRY_CAST(UTCTime AS TIME) AS UTCTime, "
         "ECO, Opening, Termination, TimeControl, movetext" +
         extra_columns + " FROM read_json('" + json_path + "', format = 'newline_delimited', columns = {" + columns +
         "})" + (where.empty() ? "" : " WHERE " + where);
}

// Writes games to each out as a Parquet file with DuckDB, in one run: COPY (select) TO
// out (its options), where select reads the games' JSON lines, written beside the first
// out, through lichess_select. options: "COMPRESSION 'snappy'", ...
inline void write_lichess_parquets(const std::vector<PgnGame>& games,
                                   const std::vector<std::pair<std::filesystem::path, std::string>>& outs,
                                   const std::string& extra_columns = "") {
  const std::filesystem::path json = outs.at(0).first.string() + ".jsonl";
  test::write_file(json, games_as_json_lines(games));
  std::vector<std::string> args{"duckdb_query.mjs"};
  for (const auto& [out, options] : outs)
    args.push_back("COPY (" + lichess_select(json.string(), extra_columns) + ") TO '" + out.string() +
                   "' (FORMAT parquet, " + options + ")");
  ASSERT_TRUE(run_node(args).has_value()) << "DuckDB could not write " << outs[0].first;
  std::filesystem::remove(json);
}

inline void write_lichess_parquet(const std::vector<PgnGame>& games, const std::filesystem::path& out,
                                  const std::string& options, const std::string& extra_columns = "") {
  write_lichess_parquets(games, {{out, options}}, extra_columns);
}

}  // namespace pgnbase::dataset_test
