// A small Parquet file writer: flat schemas of required or optional columns, one or
// more row groups, data pages (v1) compressed with zstd, PLAIN or dictionary encoding
// chosen per column chunk by size, and min/max/null-count statistics on every page and
// column chunk (https://parquet.apache.org/docs/file-format/).
//
// Values are collected per row group in ColumnValues and written by write_row_group;
// finish() writes the footer (Thrift compact FileMetaData). Not thread-safe; one
// writer per file.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "dataset/dataset_error.h"

namespace pgnbase::dataset {

// What a column holds and how SQL engines see it (DuckDB's names in brackets).
enum class ColumnKind {
  Int64,   // INT64 (BIGINT)
  Int32,   // INT32 (INTEGER)
  UInt8,   // INT32 annotated INT(8, unsigned) (UTINYINT)
  UInt16,  // INT32 annotated INT(16, unsigned) (USMALLINT)
  String,  // BYTE_ARRAY annotated STRING (VARCHAR)
  Binary,  // BYTE_ARRAY (BLOB)
};

struct ColumnSpec {
  std::string name;
  ColumnKind kind = ColumnKind::Int64;
  bool optional = false;    // nullable: definition levels are written
  bool dictionary = true;   // try dictionary encoding; kept only when the chunk gets smaller
  bool statistics = true;   // min/max (the null count is always written)
};

// One row group's values of one column, in row order.
class ColumnValues {
 public:
  void add(int64_t v) {
    ints_.push_back(v);
    defined_.push_back(1);
    value_bytes_ += 8;
  }
  void add(std::string_view v) {
    bytes_.emplace_back(v);
    defined_.push_back(1);
    value_bytes_ += 4 + v.size();
  }
  void add_null() { defined_.push_back(0); }
  size_t rows() const { return defined_.size(); }
  // The values' size as PLAIN encoding writes them (4-byte length + bytes; 8 per integer).
  size_t value_bytes() const { return value_bytes_; }
  void clear() {
    ints_.clear();
    bytes_.clear();
    defined_.clear();
    value_bytes_ = 0;
  }

  const std::vector<int64_t>& ints() const { return ints_; }
  const std::vector<std::string>& bytes() const { return bytes_; }
  const std::vector<uint8_t>& defined() const { return defined_; }

 private:
  std::vector<int64_t> ints_;       // the non-null values of integer columns
  std::vector<std::string> bytes_;  // the non-null values of string and binary columns
  std::vector<uint8_t> defined_;    // per row: 1 value, 0 null
  size_t value_bytes_ = 0;
};

struct ParquetOptions {
  size_t page_rows = 8192;              // rows per data page
  // A PLAIN-encoded page of text or binary values also ends once it holds this many bytes
  // (a page holds at least one value, whatever its size).
  size_t page_bytes = size_t{8} << 20;
  int zstd_level = 3;
  std::vector<int> sorting_columns;     // the rows are sorted by these columns, ascending
  std::vector<std::pair<std::string, std::string>> metadata;  // footer key/value pairs
};

class ParquetWriter {
 public:
  // Creates path, which must not exist yet (never overwrites a file).
  ParquetWriter(std::filesystem::path path, std::vector<ColumnSpec> columns, ParquetOptions options = {});
  ~ParquetWriter();
  ParquetWriter(const ParquetWriter&) = delete;
  ParquetWriter& operator=(const ParquetWriter&) = delete;

  // Writes one row group: columns[i] holds column i's values; all have the same rows.
  void write_row_group(const std::vector<ColumnValues>& columns);
  // Writes the footer and closes the file; returns its size in bytes.
  uint64_t finish();

  uint64_t rows() const { return rows_; }
  const std::vector<ColumnSpec>& columns() const { return columns_; }

  // What the footer says about a written page or column chunk.
  struct Statistics {
    std::optional<std::string> min, max;  // PLAIN-encoded values (no length prefix)
    int64_t null_count = 0;
  };
  struct ChunkMeta {
    bool dictionary = false;
    int64_t values = 0, uncompressed = 0, compressed = 0, data_page_offset = 0, dictionary_page_offset = -1;
    Statistics statistics;
  };
  struct RowGroupMeta {
    std::vector<ChunkMeta> chunks;
    int64_t rows = 0, offset = 0;
  };

 private:
  void write_bytes(const void* data, size_t n);
  ChunkMeta write_chunk(size_t column, const ColumnValues& values);

  std::filesystem::path path_;
  std::vector<ColumnSpec> columns_;
  ParquetOptions options_;
  std::FILE* file_ = nullptr;
  uint64_t offset_ = 0, rows_ = 0;
  std::vector<RowGroupMeta> row_groups_;
};

}  // namespace pgnbase::dataset
