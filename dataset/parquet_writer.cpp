#include "dataset/parquet_writer.h"

#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <span>
#include <string_view>
#include <unistd.h>
#include <unordered_map>

#include "dataset/parquet_format.h"
#include "dataset/rle_hybrid.h"
#include "dataset/thrift_compact.h"

namespace pgnbase::dataset {

namespace {

using parquet::Encoding;

// Longer string min/max values are left out of the statistics rather than truncated.
constexpr size_t kMaxStatisticsBytes = 64;
// A dictionary is given up past this many entries (the indices would need 17+ bits).
constexpr size_t kMaxDictionaryEntries = 1 << 16;

bool holds_bytes(ColumnKind kind) { return kind == ColumnKind::String || kind == ColumnKind::Binary; }

parquet::Type physical_type(ColumnKind kind) {
  switch (kind) {
    case ColumnKind::Int64: return parquet::Type::Int64;
    case ColumnKind::Int32:
    case ColumnKind::UInt8:
    case ColumnKind::UInt16: return parquet::Type::Int32;
    case ColumnKind::String:
    case ColumnKind::Binary: return parquet::Type::ByteArray;
  }
  return parquet::Type::Int64;
}

void put_le(std::vector<uint8_t>& out, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(uint8_t(v >> (8 * i)));
}

std::string plain_int(ColumnKind kind, int64_t v) {
  std::vector<uint8_t> b;
  put_le(b, uint64_t(v), kind == ColumnKind::Int64 ? 8 : 4);
  return std::string(b.begin(), b.end());
}

void put_plain(std::vector<uint8_t>& out, ColumnKind kind, const ColumnValues& values, size_t i) {
  if (holds_bytes(kind)) {
    const std::string& s = values.bytes()[i];
    put_le(out, s.size(), 4);
    out.insert(out.end(), s.begin(), s.end());
  } else {
    put_le(out, uint64_t(values.ints()[i]), kind == ColumnKind::Int64 ? 8 : 4);
  }
}

size_t plain_size(ColumnKind kind, const ColumnValues& values, size_t i) {
  if (holds_bytes(kind)) return 4 + values.bytes()[i].size();
  return kind == ColumnKind::Int64 ? 8 : 4;
}

// min, max and null count of values [begin, end) (non-null values) over rows_in_range rows.
ParquetWriter::Statistics statistics_of(const ColumnSpec& spec, const ColumnValues& values, size_t begin, size_t end,
                                        size_t rows_in_range) {
  ParquetWriter::Statistics s;
  s.null_count = int64_t(rows_in_range - (end - begin));
  if (!spec.statistics || begin == end) return s;
  if (holds_bytes(spec.kind)) {
    const auto [lo, hi] = std::minmax_element(values.bytes().begin() + begin, values.bytes().begin() + end);
    if (lo->size() <= kMaxStatisticsBytes && hi->size() <= kMaxStatisticsBytes) {
      s.min = *lo;
      s.max = *hi;
    }
  } else {
    const auto [lo, hi] = std::minmax_element(values.ints().begin() + begin, values.ints().begin() + end);
    s.min = plain_int(spec.kind, *lo);
    s.max = plain_int(spec.kind, *hi);
  }
  return s;
}

// The chunk's values as dictionary indices and the PLAIN dictionary page body.
struct Dictionary {
  std::vector<uint32_t> indices;  // one per non-null value
  std::vector<uint8_t> page;
  uint32_t entries = 0;
};

// Builds the dictionary when it makes the chunk smaller than PLAIN (before compression).
std::optional<Dictionary> build_dictionary(const ColumnSpec& spec, const ColumnValues& values) {
  const size_t n = holds_bytes(spec.kind) ? values.bytes().size() : values.ints().size();
  if (!spec.dictionary || n == 0) return std::nullopt;
  Dictionary d;
  d.indices.reserve(n);
  size_t plain_bytes = 0;
  std::unordered_map<std::string_view, uint32_t> strings;
  std::unordered_map<int64_t, uint32_t> ints;
  for (size_t i = 0; i < n; ++i) {
    plain_bytes += plain_size(spec.kind, values, i);
    const size_t before = d.entries;
    uint32_t index;
    if (holds_bytes(spec.kind)) index = strings.try_emplace(values.bytes()[i], d.entries).first->second;
    else index = ints.try_emplace(values.ints()[i], d.entries).first->second;
    if (index == before) {
      ++d.entries;
      if (d.entries > kMaxDictionaryEntries) return std::nullopt;
      put_plain(d.page, spec.kind, values, i);
    }
    d.indices.push_back(index);
  }
  const size_t index_bytes = (n * size_t(bit_width_for(d.entries - 1)) + 7) / 8;
  if (d.page.size() + index_bytes >= plain_bytes) return std::nullopt;
  return d;
}

void write_statistics(ThriftWriter& t, int16_t field, const ParquetWriter::Statistics& s) {
  t.begin_struct(field);
  t.field_i64(3, s.null_count);               // null_count
  if (s.max) t.field_binary(5, *s.max);        // max_value
  if (s.min) t.field_binary(6, *s.min);        // min_value
  t.end_struct();
}

}  // namespace

ParquetWriter::ParquetWriter(std::filesystem::path path, std::vector<ColumnSpec> columns, ParquetOptions options)
    : path_(std::move(path)), columns_(std::move(columns)), options_(std::move(options)) {
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw DatasetError(path_.string() + ": cannot create: " + std::strerror(errno));
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    ::close(fd);
    throw DatasetError(path_.string() + ": cannot open: " + std::strerror(errno));
  }
  write_bytes(parquet::kMagic, 4);
}

ParquetWriter::~ParquetWriter() {
  if (file_) std::fclose(file_);
}

void ParquetWriter::write_bytes(const void* data, size_t n) {
  if (n && std::fwrite(data, 1, n, file_) != n) throw DatasetError(path_.string() + ": write failed: " + std::strerror(errno));
  offset_ += n;
}

ParquetWriter::ChunkMeta ParquetWriter::write_chunk(size_t column, const ColumnValues& values) {
  const ColumnSpec& spec = columns_[column];
  ChunkMeta meta;
  meta.values = int64_t(values.rows());
  const size_t non_null = holds_bytes(spec.kind) ? values.bytes().size() : values.ints().size();
  meta.statistics = statistics_of(spec, values, 0, non_null, values.rows());
  const std::optional<Dictionary> dictionary = build_dictionary(spec, values);
  meta.dictionary = dictionary.has_value();

  // Writes one page: its Thrift header, then its zstd-compressed body; the chunk's
  // sizes count both, headers included.
  std::vector<uint8_t> compressed;
  auto write_page = [&](parquet::PageType type, const std::vector<uint8_t>& body, auto&& type_header) {
    compressed.resize(ZSTD_compressBound(body.size()));
    const size_t size = ZSTD_compress(compressed.data(), compressed.size(), body.data(), body.size(), options_.zstd_level);
    if (ZSTD_isError(size)) throw DatasetError(path_.string() + ": zstd: " + ZSTD_getErrorName(size));
    ThriftWriter header;
    header.field_i32(1, int32_t(type));               // type
    header.field_i32(2, int32_t(body.size()));        // uncompressed_page_size
    header.field_i32(3, int32_t(size));               // compressed_page_size
    type_header(header);
    header.end_struct();
    write_bytes(header.bytes().data(), header.bytes().size());
    write_bytes(compressed.data(), size);
    meta.uncompressed += int64_t(header.bytes().size() + body.size());
    meta.compressed += int64_t(header.bytes().size() + size);
  };

  if (dictionary) {
    meta.dictionary_page_offset = int64_t(offset_);
    write_page(parquet::PageType::DictionaryPage, dictionary->page, [&](ThriftWriter& h) {
      h.begin_struct(7);                                  // dictionary_page_header
      h.field_i32(1, int32_t(dictionary->entries));       // num_values
      h.field_i32(2, int32_t(Encoding::Plain));           // encoding
      h.end_struct();
    });
  }
  meta.data_page_offset = int64_t(offset_);
  const int index_width = dictionary ? bit_width_for(dictionary->entries - 1) : 0;
  std::vector<uint8_t> body, levels;
  std::vector<uint32_t> defined;
  size_t value = 0;
  const bool bounded_bytes = !dictionary && holds_bytes(spec.kind);
  for (size_t row = 0, end_row = 0; row < values.rows(); row = end_row) {
    end_row = std::min(values.rows(), row + std::max<size_t>(options_.page_rows, 1));
    if (bounded_bytes) {  // ends earlier at page_bytes of values, after one value at least
      size_t bytes = 0, v = value;
      for (size_t r = row; r < end_row; ++r) {
        if (r > row && bytes >= options_.page_bytes) {
          end_row = r;
          break;
        }
        if (values.defined()[r]) bytes += plain_size(spec.kind, values, v++);
      }
    }
    body.clear();
    size_t page_values = 0;
    if (spec.optional) {
      defined.assign(values.defined().begin() + row, values.defined().begin() + end_row);
      levels.clear();
      append_rle_hybrid(defined, 1, levels);
      put_le(body, levels.size(), 4);
      body.insert(body.end(), levels.begin(), levels.end());
      for (uint32_t d : defined) page_values += d;
    } else {
      page_values = end_row - row;
    }
    if (dictionary) {
      body.push_back(uint8_t(index_width));
      append_rle_hybrid(std::span(dictionary->indices).subspan(value, page_values), index_width, body);
    } else {
      for (size_t i = value; i < value + page_values; ++i) put_plain(body, spec.kind, values, i);
    }
    const Statistics page_statistics = statistics_of(spec, values, value, value + page_values, end_row - row);
    write_page(parquet::PageType::DataPage, body, [&](ThriftWriter& h) {
      h.begin_struct(5);                                                   // data_page_header
      h.field_i32(1, int32_t(end_row - row));                              // num_values (nulls included)
      h.field_i32(2, int32_t(dictionary ? Encoding::RleDictionary : Encoding::Plain));  // encoding
      h.field_i32(3, int32_t(Encoding::Rle));                              // definition_level_encoding
      h.field_i32(4, int32_t(Encoding::Rle));                              // repetition_level_encoding
      write_statistics(h, 5, page_statistics);                             // statistics
      h.end_struct();
    });
    value += page_values;
  }
  return meta;
}

void ParquetWriter::write_row_group(const std::vector<ColumnValues>& columns) {
  if (columns.size() != columns_.size()) throw DatasetError(path_.string() + ": row group has the wrong column count");
  RowGroupMeta group;
  group.rows = int64_t(columns.empty() ? 0 : columns[0].rows());
  if (group.rows == 0) return;  // Parquet has no empty row groups to speak of
  group.offset = int64_t(offset_);
  for (size_t c = 0; c < columns.size(); ++c) {
    if (int64_t(columns[c].rows()) != group.rows)
      throw DatasetError(path_.string() + ": column " + columns_[c].name + " has a different row count");
    group.chunks.push_back(write_chunk(c, columns[c]));
  }
  rows_ += uint64_t(group.rows);
  row_groups_.push_back(std::move(group));
}

uint64_t ParquetWriter::finish() {
  ThriftWriter t;                                       // FileMetaData
  t.field_i32(1, 1);                                    // version
  t.begin_list(2, ThriftType::Struct, columns_.size() + 1);  // schema
  t.begin_list_struct();
  t.field_binary(4, "schema");                          // name
  t.field_i32(5, int32_t(columns_.size()));             // num_children
  t.end_struct();
  for (const ColumnSpec& c : columns_) {
    t.begin_list_struct();
    t.field_i32(1, int32_t(physical_type(c.kind)));     // type
    t.field_i32(3, int32_t(c.optional ? parquet::Repetition::Optional : parquet::Repetition::Required));
    t.field_binary(4, c.name);                          // name
    if (c.kind == ColumnKind::String) {
      t.field_i32(6, int32_t(parquet::ConvertedType::Utf8));  // converted_type
      t.begin_struct(10);                               // logicalType
      t.begin_struct(1);                                // STRING
      t.end_struct();
      t.end_struct();
    } else if (c.kind == ColumnKind::UInt8 || c.kind == ColumnKind::UInt16) {
      const bool u8 = c.kind == ColumnKind::UInt8;
      t.field_i32(6, int32_t(u8 ? parquet::ConvertedType::Uint8 : parquet::ConvertedType::Uint16));
      t.begin_struct(10);                               // logicalType
      t.begin_struct(10);                               // INTEGER
      t.field_i8(1, int8_t(u8 ? 8 : 16));               // bitWidth
      t.field_bool(2, false);                           // isSigned
      t.end_struct();
      t.end_struct();
    }
    t.end_struct();
  }
  t.field_i64(3, int64_t(rows_));                       // num_rows
  t.begin_list(4, ThriftType::Struct, row_groups_.size());  // row_groups
  for (const RowGroupMeta& g : row_groups_) {
    t.begin_list_struct();
    t.begin_list(1, ThriftType::Struct, g.chunks.size());  // columns
    int64_t total_uncompressed = 0, total_compressed = 0;
    for (size_t c = 0; c < g.chunks.size(); ++c) {
      const ChunkMeta& m = g.chunks[c];
      total_uncompressed += m.uncompressed;
      total_compressed += m.compressed;
      t.begin_list_struct();                            // ColumnChunk
      t.field_i64(2, m.dictionary_page_offset >= 0 ? m.dictionary_page_offset : m.data_page_offset);  // file_offset
      t.begin_struct(3);                                // meta_data
      t.field_i32(1, int32_t(physical_type(columns_[c].kind)));  // type
      const bool levels = columns_[c].optional;
      t.begin_list(2, ThriftType::I32, m.dictionary ? 2 + levels : 1 + levels);  // encodings
      t.list_i32(int32_t(Encoding::Plain));
      if (m.dictionary) t.list_i32(int32_t(Encoding::RleDictionary));
      if (levels) t.list_i32(int32_t(Encoding::Rle));
      t.begin_list(3, ThriftType::Binary, 1);           // path_in_schema
      t.list_binary(columns_[c].name);
      t.field_i32(4, int32_t(parquet::Codec::Zstd));    // codec
      t.field_i64(5, m.values);                         // num_values
      t.field_i64(6, m.uncompressed);                   // total_uncompressed_size
      t.field_i64(7, m.compressed);                     // total_compressed_size
      t.field_i64(9, m.data_page_offset);               // data_page_offset
      if (m.dictionary_page_offset >= 0) t.field_i64(11, m.dictionary_page_offset);  // dictionary_page_offset
      write_statistics(t, 12, m.statistics);            // statistics
      t.end_struct();
      t.end_struct();
    }
    t.field_i64(2, total_uncompressed);                 // total_byte_size
    t.field_i64(3, g.rows);                             // num_rows
    if (!options_.sorting_columns.empty()) {
      t.begin_list(4, ThriftType::Struct, options_.sorting_columns.size());  // sorting_columns
      for (int column : options_.sorting_columns) {
        t.begin_list_struct();
        t.field_i32(1, column);                         // column_idx
        t.field_bool(2, false);                         // descending
        t.field_bool(3, true);                          // nulls_first
        t.end_struct();
      }
    }
    t.field_i64(5, g.offset);                           // file_offset
    t.field_i64(6, total_compressed);                   // total_compressed_size
    t.end_struct();
  }
  if (!options_.metadata.empty()) {
    t.begin_list(5, ThriftType::Struct, options_.metadata.size());  // key_value_metadata
    for (const auto& [key, value] : options_.metadata) {
      t.begin_list_struct();
      t.field_binary(1, key);
      t.field_binary(2, value);
      t.end_struct();
    }
  }
  t.field_binary(6, "pgnbase version " PGNBASE_VERSION);  // created_by
  t.begin_list(7, ThriftType::Struct, columns_.size());  // column_orders: TYPE_ORDER each
  for (size_t c = 0; c < columns_.size(); ++c) {
    t.begin_list_struct();
    t.begin_struct(1);
    t.end_struct();
    t.end_struct();
  }
  t.end_struct();
  const std::vector<uint8_t>& footer = t.bytes();
  write_bytes(footer.data(), footer.size());
  std::vector<uint8_t> tail;
  put_le(tail, footer.size(), 4);
  write_bytes(tail.data(), tail.size());
  write_bytes(parquet::kMagic, 4);
  if (std::fflush(file_) != 0 || ::fsync(::fileno(file_)) != 0 || std::fclose(file_) != 0) {
    file_ = nullptr;
    throw DatasetError(path_.string() + ": write failed: " + std::strerror(errno));
  }
  file_ = nullptr;
  return offset_;
}

}  // namespace pgnbase::dataset
