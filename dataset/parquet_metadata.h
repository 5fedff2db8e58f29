// The parts of a Parquet file's Thrift metadata that the reader (parquet_reader.h) uses:
// the footer's FileMetaData (schema, row groups, column chunks) and each page's
// PageHeader, parsed from untrusted bytes. Fields the reader does not use (statistics,
// key/value metadata, indexes) are skipped. Numbers are kept as the file states them;
// parquet_reader.cpp checks that they make sense (offsets inside the file, counts that
// agree).
//
// Errors: ThriftReadError (thrift_compact_reader.h) for bytes that are not valid Thrift,
// or a required field that is missing.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "dataset/parquet_format.h"
#include "dataset/thrift_compact_reader.h"

namespace pgnbase::dataset::parquet {

// What a LogicalType says, reduced to what the reader tells apart.
struct LogicalType {
  LogicalTypeId id = LogicalTypeId::Unknown;
  TimeUnit unit = TimeUnit::Millis;  // Time and Timestamp
  int bit_width = 0;                 // Integer
  bool is_signed = true;             // Integer
};

struct SchemaElement {
  std::string name;
  std::optional<Type> type;  // absent on groups (the root, nested columns)
  Repetition repetition = Repetition::Required;
  int32_t num_children = 0;
  std::optional<ConvertedType> converted_type;
  std::optional<LogicalType> logical_type;
};

struct ColumnChunkMeta {
  bool in_other_file = false;  // file_path set: the values live in another file
  Type type = Type::Int32;
  std::vector<Encoding> encodings;
  std::vector<std::string> path;
  Codec codec = Codec::Uncompressed;
  int64_t num_values = 0;
  int64_t total_compressed_size = 0;
  int64_t data_page_offset = 0;
  std::optional<int64_t> dictionary_page_offset;
};

struct RowGroupMeta {
  std::vector<ColumnChunkMeta> columns;
  int64_t num_rows = 0;
};

struct FileMetaData {
  std::vector<SchemaElement> schema;  // depth first; [0] is the root
  int64_t num_rows = 0;
  std::vector<RowGroupMeta> row_groups;
};

FileMetaData parse_file_metadata(std::span<const uint8_t> bytes);

struct PageHeader {
  PageType type = PageType::DataPage;
  int32_t uncompressed_page_size = 0;
  int32_t compressed_page_size = 0;
  // DATA_PAGE, DATA_PAGE_V2 and DICTIONARY_PAGE: values in the page (nulls included).
  int32_t num_values = 0;
  Encoding encoding = Encoding::Plain;
  // DATA_PAGE: how its levels are encoded.
  Encoding definition_level_encoding = Encoding::Rle;
  Encoding repetition_level_encoding = Encoding::Rle;
  // DATA_PAGE_V2: levels (uncompressed) before the values, and whether the values are compressed.
  int32_t num_nulls = 0;
  int32_t definition_levels_byte_length = 0;
  int32_t repetition_levels_byte_length = 0;
  bool is_compressed = true;
};

// Reads one page header from the start of bytes; its size is reader.position() after.
PageHeader parse_page_header(ThriftReader& reader);

}  // namespace pgnbase::dataset::parquet
