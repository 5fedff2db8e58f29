// The numbers of the Parquet format, as in parquet.thrift
// (https://github.com/apache/parquet-format/blob/master/src/main/thrift/parquet.thrift):
// those the writer emits, and those the reader (parquet_reader.h) meets in other
// programs' files, whether it reads them or names them in a refusal.
#pragma once

#include <cstdint>
#include <string_view>

namespace pgnbase::dataset::parquet {

enum class Type : int32_t {
  Boolean = 0, Int32 = 1, Int64 = 2, Int96 = 3, Float = 4, Double = 5, ByteArray = 6, FixedLenByteArray = 7,
};
enum class Repetition : int32_t { Required = 0, Optional = 1, Repeated = 2 };
enum class Encoding : int32_t {
  Plain = 0, PlainDictionary = 2, Rle = 3, BitPacked = 4, DeltaBinaryPacked = 5, DeltaLengthByteArray = 6,
  DeltaByteArray = 7, RleDictionary = 8, ByteStreamSplit = 9,
};
enum class Codec : int32_t { Uncompressed = 0, Snappy = 1, Gzip = 2, Lzo = 3, Brotli = 4, Lz4 = 5, Zstd = 6, Lz4Raw = 7 };
enum class PageType : int32_t { DataPage = 0, IndexPage = 1, DictionaryPage = 2, DataPageV2 = 3 };
// ConvertedType values, written beside the LogicalType for older readers.
enum class ConvertedType : int32_t {
  Utf8 = 0, Map = 1, MapKeyValue = 2, List = 3, Enum = 4, Decimal = 5, Date = 6, TimeMillis = 7, TimeMicros = 8,
  TimestampMillis = 9, TimestampMicros = 10, Uint8 = 11, Uint16 = 12, Uint32 = 13, Uint64 = 14, Int8 = 15,
  Int16 = 16, Int32 = 17, Int64 = 18, Json = 19, Bson = 20, Interval = 21,
};
// The field ids of the LogicalType union, and of TimeUnit's.
enum class LogicalTypeId : int16_t {
  String = 1, Map = 2, List = 3, Enum = 4, Decimal = 5, Date = 6, Time = 7, Timestamp = 8, Integer = 10,
  Unknown = 11, Json = 12, Bson = 13, Uuid = 14, Float16 = 15,
};
enum class TimeUnit : int16_t { Millis = 1, Micros = 2, Nanos = 3 };

// FileMetaData, SchemaElement, RowGroup, ColumnChunk, ColumnMetaData, Statistics,
// PageHeader, DataPageHeader and DictionaryPageHeader field ids are spelled out where
// they are written (parquet_writer.cpp) and read (parquet_metadata.cpp), next to their names.

inline constexpr char kMagic[4] = {'P', 'A', 'R', '1'};

// The format's names ("DELTA_BINARY_PACKED", "LZ4", "INT96"), for messages; "an unknown
// one" for a number the format does not define.
std::string_view encoding_name(Encoding encoding);
std::string_view codec_name(Codec codec);
std::string_view type_name(Type type);

}  // namespace pgnbase::dataset::parquet
