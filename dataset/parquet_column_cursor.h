// One column chunk of a Parquet file read row by row, one page at a time (the part of
// parquet_reader.h that decodes pages). Each page is read with its own pread when the
// rows reach it, decompressed, and decoded into the page's values: views into the page
// (text) or numbers. A dictionary page is kept for the chunk.
//
// Errors: ParquetReadError naming the file and the column, for a damaged page or one
// that uses an encoding or codec that is not read.
// Lifetime: text() views live until the next advance().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dataset/parquet_metadata.h"
#include "dataset/parquet_reader.h"

namespace pgnbase::dataset {

// A page of more values than this is refused: a page header may state two billion
// values that an RLE run of three bytes produces, and each value costs up to 17 bytes
// here. Writers cut pages at about 1 MiB, far below this.
constexpr int64_t kMaxPageValues = int64_t{1} << 24;
// A page larger than this, compressed or not, is refused (the format allows 2 GiB).
constexpr int64_t kMaxPageBytes = int64_t{1} << 30;

class ParquetColumnCursor {
 public:
  // Reads the chunk at file bytes [begin, end), which holds rows values of column.
  // read_at and bytes_read must outlive the cursor.
  ParquetColumnCursor(const std::string& file_name, const ParquetColumn& column, parquet::Codec codec, uint64_t begin,
                      uint64_t end, uint64_t rows, const ParquetReader::ReadAt& read_at, uint64_t& bytes_read);

  // Moves to the next row (the first on the first call), reading pages as needed.
  void advance();
  // Checks, after the chunk's last row, that its pages held no more values than its rows.
  void finish() const;

  bool present() const { return defined_.empty() || defined_[row_] != 0; }
  std::string_view text() const { return texts_[value_]; }
  int64_t number() const { return numbers_[value_]; }
  double real() const { return reals_[value_]; }

 private:
  [[noreturn]] void damaged(const std::string& why) const;
  [[noreturn]] void refuse(const std::string& what) const;
  // Reads page bytes [offset, offset + size) of the file into out.
  void read_file(uint64_t offset, size_t size, std::vector<uint8_t>& out);
  // Reads the next page header at offset_ and moves offset_ past it.
  parquet::PageHeader read_page_header();
  // Reads and decodes pages until one holds rows; damaged when the chunk ends first.
  void read_data_page();
  void read_dictionary_page(const parquet::PageHeader& header);
  // The payload [offset_, offset_ + compressed) of a page, decompressed when compressed.
  std::span<const uint8_t> page_payload(const parquet::PageHeader& header, size_t skip_uncompressed, bool compressed,
                                        std::vector<uint8_t>& buffer);
  void decode_levels(std::span<const uint8_t> levels, size_t count);
  void decode_values(parquet::Encoding encoding, std::span<const uint8_t> values, size_t count);
  // Decodes count PLAIN values of the column's type; returns the bytes used.
  size_t decode_plain(std::span<const uint8_t> in, size_t count, std::vector<std::string_view>& texts,
                      std::vector<int64_t>& numbers, std::vector<double>& reals) const;

  const std::string& file_name_;
  const ParquetColumn& column_;
  parquet::Codec codec_;
  uint64_t offset_, end_, rows_;
  const ParquetReader::ReadAt& read_at_;
  uint64_t& bytes_read_;
  uint64_t values_seen_ = 0;  // in the pages read so far

  // The dictionary: its decompressed page and its values.
  bool has_dictionary_ = false;
  std::vector<uint8_t> dictionary_page_;
  std::vector<std::string_view> dictionary_texts_;
  std::vector<int64_t> dictionary_numbers_;
  std::vector<double> dictionary_reals_;

  // The current page: its bytes, definition levels (empty: every row present) and values.
  std::vector<uint8_t> raw_, page_;
  std::vector<uint32_t> levels_, indices_;
  std::vector<uint8_t> defined_;
  std::vector<std::string_view> texts_;
  std::vector<int64_t> numbers_;
  std::vector<double> reals_;
  size_t page_rows_ = 0, row_ = 0, value_ = 0;
  bool started_ = false;
};

}  // namespace pgnbase::dataset
