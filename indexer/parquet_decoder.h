// A Parquet file of games (lichess's Parquet edition, or any table with a movetext
// column) read as PGN text: the rows in file order, each one game as
// parquet_game_text.h writes it, so that the import reads it as it reads a .pgn.zst.
// Rows are read a row group at a time, a page per column (dataset/parquet_reader.h), so
// memory stays bounded whatever the file's size.
//
// Errors: InputError naming the file, from the constructor (not Parquet, damaged
// footer, a column that is not read, no movetext column) or from read() (a damaged page).
// A Parquet file is read with pread, so it must be a regular file, not a pipe.
#pragma once

#include <memory>

#include "indexer/stream_decoder.h"

namespace pgnbase::indexer {

// Decodes input, a regular file whose first bytes are "PAR1".
std::unique_ptr<StreamDecoder> make_parquet_decoder(RawInput input);

}  // namespace pgnbase::indexer
