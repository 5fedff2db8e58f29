// The same games, whatever form the input takes: plain, zstd, gzip, bzip2, xz, a zip
// member, or with CR-only line ends. Runs on the bundled sample (always present).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "indexer/import_pipeline.h"
#include "indexer/input_source.h"
#include "store/database.h"
#include "tests/support/archives.h"
#include "tests/support/bundled_sample.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace pgnbase::indexer {
namespace {

namespace fs = std::filesystem;
using test::StreamFormat;

const fs::path kFideSample = fs::path(PGNBASE_SOURCE_DIR) / "tests/data/notation/fide-appendix-e-sample.pgn";
const fs::path kInfoZip = fs::path(PGNBASE_SOURCE_DIR) / "tests/data/archives/fide-and-lichess.zip";

using test::read_file;
using test::sample_head;
using test::write_file;

// Every row of a query, columns as bytes joined by '|'.
std::vector<std::string> rows(const std::string& db_path, const std::string& sql) {
  store::Database db(db_path, store::Database::Mode::ReadOnly);
  store::Statement s = db.prepare(sql);
  std::vector<std::string> out;
  while (s.step()) {
    std::string row;
    for (int c = 0; c < s.column_count(); ++c) {
      if (s.column_is_null(c)) {
        row += "<null>|";
        continue;
      }
      auto blob = s.column_blob(c);
      row.append(reinterpret_cast<const char*>(blob.data()), blob.size());
      row += '|';
    }
    out.push_back(std::move(row));
  }
  return out;
}

class InputFormsImportTest : public test::TempDirTest {
 protected:

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  std::string write(const std::string& name, std::string_view bytes) {
    write_file(dir_ / name, bytes);
    return path(name);
  }

  ImportOutcome import(const std::string& db, const std::string& input, size_t chunk_bytes = size_t{4} << 20) {
    DatabaseWriter writer(db, WriterOptions{});
    ImportOptions options;
    options.threads = 2;
    options.chunk_bytes = chunk_bytes;
    return import_file(input, writer, options);
  }

};

TEST_F(InputFormsImportTest, EveryCompressionImportsTheGamesAndHashOfThePlainFile) {
  const std::string text = sample_head(2'000'000);
  const std::string plain = write("plain.pgn", text);
  const std::string zip = write("games.zip", test::make_zip({{"twic.pgn", text}}));
  const std::vector<std::string> forms = {
      write("games.pgn.gz", test::compress_stream(text, StreamFormat::Gzip)),
      write("games.pgn.bz2", test::compress_stream(text, StreamFormat::Bzip2)),
      write("games.pgn.xz", test::compress_stream(text, StreamFormat::Xz)),
      zip + ":twic.pgn",
  };
  ImportOutcome reference = import(path("plain.db"), plain, 256 << 10);
  EXPECT_GT(reference.summary.imported, 400u);
  EXPECT_EQ(reference.summary.rejected, 0u);
  const auto games = rows(path("plain.db"), "SELECT * FROM games ORDER BY id");
  const auto hash = rows(path("plain.db"), "SELECT content_hash FROM sources");
  for (size_t i = 0; i < forms.size(); ++i) {
    const std::string db = path("form-" + std::to_string(i) + ".db");
    ImportOutcome o = import(db, forms[i], 256 << 10);
    EXPECT_EQ(o.summary.imported, reference.summary.imported) << forms[i];
    EXPECT_EQ(rows(db, "SELECT content_hash FROM sources"), hash) << forms[i];
    EXPECT_TRUE(rows(db, "SELECT * FROM games ORDER BY id") == games) << forms[i];
    EXPECT_EQ(rows(db, "SELECT path FROM sources"), std::vector<std::string>{forms[i] + "|"});
    // Imported plain first, the compressed copy is recognised by its content.
    ImportOutcome again = import(path("plain.db"), forms[i]);
    EXPECT_TRUE(again.already_imported) << forms[i];
    EXPECT_EQ(again.existing_source_id, 1) << forms[i];
  }
  EXPECT_EQ(rows(path("form-3.db"), "SELECT size FROM sources"), std::vector<std::string>{"<null>|"});
}

TEST_F(InputFormsImportTest, EachZipMemberIsItsOwnSource) {
  const std::string zip = kInfoZip.string();
  const std::string db = path("zip.db");
  for (const std::string& source : list_sources(zip)) import(db, source);
  EXPECT_EQ(rows(db, "SELECT path, games_found, imported, rejected FROM sources ORDER BY id"),
            (std::vector<std::string>{zip + ":fide-appendix-e-sample.pgn|2|1|1|",
                                      zip + ":lichess/FIRST-10.PGN|10|10|0|"}));
  // The member's games are those of the same text imported plain.
  const std::string plain = write("FIRST-10.PGN", sample_head(48'876 + 100));
  EXPECT_TRUE(import(db, plain).already_imported);
}

TEST_F(InputFormsImportTest, CarriageReturnOnlyFileImportsTheGamesOfItsLfCopy) {
  // Old Mac files end lines with '\r' alone. The fide sample adds a reject whose line
  // number must come out the same.
  std::string lf = sample_head(1'500'000) + "\n" + read_file(kFideSample);
  std::string cr = lf;
  std::replace(cr.begin(), cr.end(), '\n', '\r');
  const std::string lf_path = write("lf.pgn", lf), cr_path = write("cr.pgn", cr);
  ImportOutcome from_lf = import(path("lf.db"), lf_path, 64 << 10);
  ImportOutcome from_cr = import(path("cr.db"), cr_path, 64 << 10);
  EXPECT_GT(from_cr.summary.imported, 300u);
  EXPECT_EQ(from_cr.summary.games_found, from_lf.summary.games_found);
  EXPECT_EQ(from_cr.summary.imported, from_lf.summary.imported);
  EXPECT_EQ(from_cr.summary.rejected, 1u);
  EXPECT_TRUE(rows(path("cr.db"), "SELECT * FROM games ORDER BY id") ==
              rows(path("lf.db"), "SELECT * FROM games ORDER BY id"));
  const auto rejects = rows(path("lf.db"), "SELECT game_number, line, kind, reason FROM rejects");
  ASSERT_EQ(rejects.size(), 1u);
  EXPECT_EQ(rows(path("cr.db"), "SELECT game_number, line, kind, reason FROM rejects"), rejects);
}

}  // namespace
}  // namespace pgnbase::indexer
