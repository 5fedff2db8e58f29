// The numbers of the Parquet format that the writer emits, as in parquet.thrift
// (https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift).
#pragma once

#include <cstdint>

namespace pgnbase::dataset::parquet {

enum class Type : int32_t { Int32 = 1, Int64 = 2, ByteArray = 6 };
enum class Repetition : int32_t { Required = 0, Optional = 1 };
enum class Encoding : int32_t { Plain = 0, Rle = 3, RleDictionary = 8 };
enum class Codec : int32_t { Uncompressed = 0, Zstd = 6 };
enum class PageType : int32_t { DataPage = 0, DictionaryPage = 2 };
// ConvertedType values, written beside the LogicalType for older readers.
enum class ConvertedType : int32_t { Utf8 = 0, Uint8 = 11, Uint16 = 12 };

// FileMetaData, SchemaElement, RowGroup, ColumnChunk, ColumnMetaData, Statistics,
// PageHeader, DataPageHeader and DictionaryPageHeader field ids used by the writer are
// spelled out where they are written (parquet_writer.cpp), next to their names.

inline constexpr char kMagic[4] = {'P', 'A', 'R', '1'};

}  // namespace pgnbase::dataset::parquet
