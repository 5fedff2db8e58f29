// A Parquet file reader for flat tables from other programs (DuckDB, pyarrow, polars,
// the lichess database's Parquet edition): the rows of each row group, in order, one
// column value at a time. The writer's counterpart (parquet_writer.h), from the same
// specification (https://parquet.apache.org/docs/file-format/).
//
// Read: the footer (Thrift compact FileMetaData), row groups, column chunks, data pages
// v1 and v2, dictionary pages; PLAIN, RLE_DICTIONARY and PLAIN_DICTIONARY values; RLE
// definition levels (optional columns); BOOLEAN, INT32, INT64, FLOAT, DOUBLE and
// BYTE_ARRAY values, with the INT(8/16/32/64, signed or not), DATE, TIME and TIMESTAMP
// logical (or converted) types; UNCOMPRESSED, SNAPPY, GZIP and ZSTD pages.
// Refused with a ParquetReadError naming the file, the column and the thing: nested and
// repeated columns, INT96, FIXED_LEN_BYTE_ARRAY, DECIMAL, the DELTA_* and
// BYTE_STREAM_SPLIT encodings, the LZO, BROTLI, LZ4 and LZ4_RAW codecs, columns whose
// values are in another file. What the footer announces is refused when the file is
// opened; what only a page says, when that page is read.
//
// Memory: the footer, and per column one page (compressed and decompressed), its
// decoded values and the column chunk's dictionary. Rows are read in lockstep over the
// columns, each column reading its next page when the rows pass its current one, so a
// row group of any size costs a page per column, not the row group.
//
// The file is untrusted: every offset, length and count is checked against the file and
// against each other, so a damaged or hostile file ends in ParquetReadError ("cannot
// read 'x.parquet': damaged Parquet file (...)"), never in a read out of bounds.
//
// Thread safety: one thread at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "dataset/parquet_format.h"

namespace pgnbase::dataset {

class ParquetReadError : public Error {
 public:
  explicit ParquetReadError(const std::string& message) : Error(ErrorKind::Input, message) {}
};

// How a column's values read, whatever their physical type.
enum class ParquetValueKind {
  Text,       // BYTE_ARRAY
  Integer,    // INT32, INT64 (signed INT annotations, or none)
  Unsigned,   // INT32, INT64 annotated unsigned
  Boolean,    // BOOLEAN (0 or 1)
  Real,       // FLOAT, DOUBLE
  Date,       // INT32 DATE: days since 1970-01-01
  Time,       // INT32 or INT64 TIME: time of day in unit
  Timestamp,  // INT64 TIMESTAMP: time since 1970-01-01 00:00 in unit
};

struct ParquetColumn {
  std::string name;
  parquet::Type physical = parquet::Type::ByteArray;
  ParquetValueKind kind = ParquetValueKind::Text;
  parquet::TimeUnit unit = parquet::TimeUnit::Millis;  // Time and Timestamp
  bool optional = false;
};

class ParquetColumnCursor;  // parquet_column_cursor.h

class ParquetReader {
 public:
  // Reads bytes [offset, offset + size) of the file into out, whole; throws on failure.
  using ReadAt = std::function<void(uint64_t offset, size_t size, uint8_t* out)>;

  // Reads the footer of a file of file_size bytes. name is for messages. Throws
  // ParquetReadError (not Parquet, damaged, or a column it does not read).
  ParquetReader(std::string name, uint64_t file_size, ReadAt read_at);
  ~ParquetReader();
  ParquetReader(const ParquetReader&) = delete;
  ParquetReader& operator=(const ParquetReader&) = delete;

  const std::string& name() const { return name_; }
  const std::vector<ParquetColumn>& columns() const { return columns_; }
  // Rows of the file, as the footer states them (the sum over the row groups).
  uint64_t rows() const { return rows_; }
  size_t row_groups() const;

  // Moves to the next row, from row group to row group; false after the last row.
  // Throws ParquetReadError when a page is damaged or uses what is not read.
  bool next_row();

  // The current row's value of column c (which must be < columns().size()), as its kind
  // reads: present() false for a null; text() for Text (a view valid until next_row()),
  // number() for Integer, Unsigned (as its bits), Boolean, Date, Time and Timestamp,
  // real() for Real.
  bool present(size_t c) const;
  std::string_view text(size_t c) const;
  int64_t number(size_t c) const;
  double real(size_t c) const;

  // Bytes of the file read so far (for progress).
  uint64_t bytes_read() const { return *bytes_read_; }

 private:
  void start_row_group(size_t index);
  [[noreturn]] void damaged(const std::string& why) const;

  std::string name_;
  uint64_t file_size_;
  ReadAt read_at_;
  std::shared_ptr<uint64_t> bytes_read_;
  std::vector<ParquetColumn> columns_;
  uint64_t rows_ = 0;
  struct Footer;
  std::unique_ptr<Footer> footer_;
  std::vector<std::unique_ptr<ParquetColumnCursor>> cursors_;
  size_t next_row_group_ = 0;
  uint64_t rows_left_in_group_ = 0;
};

}  // namespace pgnbase::dataset
