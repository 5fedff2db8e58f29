// One input file through the pipeline: source -> splitter -> N workers -> the writer,
// with bounded queues between them. The writer consumes chunks in input order, so game
// ids, game numbers and every row are the same whatever the thread count.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

#include "indexer/database_writer.h"
#include "indexer/game_builder.h"
#include "indexer/input_source.h"

namespace pgnbase::indexer {

struct ImportOptions {
  unsigned threads = 1;
  // The largest chunk; with many threads chunks are smaller (import_pipeline.cpp), so
  // that the chunks in flight stay near 48 MiB.
  size_t chunk_bytes = size_t{4} << 20;
  // --max-game-bytes: a game (or text between games) longer than this is one reject, not
  // read (splitter.h), so that memory stays bounded whatever the input.
  size_t max_game_bytes = size_t{64} << 20;
  BuildOptions build;
  std::ostream* rejects_out = nullptr;  // --rejects: original text of every rejected game
  bool replace = false;                 // --replace: remove the sources of this path or content first
  std::filesystem::path temp_dir = std::filesystem::temp_directory_path();  // --replace of a stream copies it here
  bool dedupe = true;                   // skip games equal to one already stored (off: --keep-duplicates)
  // For tests: runs on a worker thread before it parses each chunk; what it throws
  // ends the import as a worker's own failure (out of memory) would.
  std::function<void(uint64_t chunk_index)> on_worker_chunk;
};

struct ImportProgress {
  uint64_t bytes_done = 0;        // uncompressed bytes written
  uint64_t input_bytes_read = 0;  // bytes read from disk (compressed for .zst)
  std::optional<uint64_t> input_size;
  uint64_t games = 0, rejected = 0;
  double seconds = 0;
};

struct ImportOutcome {
  bool already_imported = false;
  int64_t existing_source_id = 0;
  SourceSummary summary;
  std::vector<RemovedSource> replaced;  // --replace: the older sources removed
  uint64_t bytes = 0;  // uncompressed bytes read
  double seconds = 0;
};

// Imports the file at path as one source, unless its content is in the database already
// (already_imported). That is known before any work for a plain file (mapped and hashed
// first) and for a stream hashed first (--replace, or a zip member of at most 1 MiB,
// read twice), else at the stream's end, where the import is rolled back.
//
// Throws InputError (unreadable or corrupt input), store::StoreError (cannot write),
// ThreadStartError (thread_group.h) or what a worker thread threw (std::bad_alloc); the
// file's transaction is then rolled back, earlier files stay.
ImportOutcome import_file(const std::string& path, DatabaseWriter& writer, const ImportOptions& options,
                          const std::function<void(const ImportProgress&)>& progress = {});

// Imports sources.paths()[index] as the above imports that path, opening it through
// sources: the members of a zip archive imported in order cost one pass over it.
ImportOutcome import_file(SourceList& sources, size_t index, DatabaseWriter& writer, const ImportOptions& options,
                          const std::function<void(const ImportProgress&)>& progress = {});

}  // namespace pgnbase::indexer
