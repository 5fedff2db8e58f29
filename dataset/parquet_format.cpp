#include "dataset/parquet_format.h"

namespace pgnbase::dataset::parquet {

std::string_view encoding_name(Encoding encoding) {
  switch (encoding) {
    case Encoding::Plain: return "PLAIN";
    case Encoding::PlainDictionary: return "PLAIN_DICTIONARY";
    case Encoding::Rle: return "RLE";
    case Encoding::BitPacked: return "BIT_PACKED";
    case Encoding::DeltaBinaryPacked: return "DELTA_BINARY_PACKED";
    case Encoding::DeltaLengthByteArray: return "DELTA_LENGTH_BYTE_ARRAY";
    case Encoding::DeltaByteArray: return "DELTA_BYTE_ARRAY";
    case Encoding::RleDictionary: return "RLE_DICTIONARY";
    case Encoding::ByteStreamSplit: return "BYTE_STREAM_SPLIT";
  }
  return "an unknown one";
}

std::string_view codec_name(Codec codec) {
  switch (codec) {
    case Codec::Uncompressed: return "UNCOMPRESSED";
    case Codec::Snappy: return "SNAPPY";
    case Codec::Gzip: return "GZIP";
    case Codec::Lzo: return "LZO";
    case Codec::Brotli: return "BROTLI";
    case Codec::Lz4: return "LZ4";
    case Codec::Zstd: return "ZSTD";
    case Codec::Lz4Raw: return "LZ4_RAW";
  }
  return "an unknown one";
}

std::string_view type_name(Type type) {
  switch (type) {
    case Type::Boolean: return "BOOLEAN";
    case Type::Int32: return "INT32";
    case Type::Int64: return "INT64";
    case Type::Int96: return "INT96";
    case Type::Float: return "FLOAT";
    case Type::Double: return "DOUBLE";
    case Type::ByteArray: return "BYTE_ARRAY";
    case Type::FixedLenByteArray: return "FIXED_LEN_BYTE_ARRAY";
  }
  return "an unknown one";
}

}  // namespace pgnbase::dataset::parquet
