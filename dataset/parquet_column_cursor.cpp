#include "dataset/parquet_column_cursor.h"

#include <algorithm>
#include <cstring>

#include "dataset/parquet_decompress.h"
#include "dataset/rle_hybrid_reader.h"

namespace pgnbase::dataset {

namespace {

using parquet::Encoding;
using parquet::PageType;
using parquet::Type;

// Page headers are read in a window that grows from this size, up to kMaxHeaderBytes
// (statistics of long strings can make a header large).
constexpr size_t kFirstHeaderWindow = 1024;
constexpr size_t kMaxHeaderBytes = size_t{16} << 20;

uint32_t load_u32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;  // Parquet is little-endian, as are the machines pgnbase builds on
}

uint64_t load_u64(const uint8_t* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Appends count PLAIN floats or doubles at p (little-endian IEEE 754) as doubles.
template <typename Real>
void append_reals(const uint8_t* p, size_t count, std::vector<double>& reals) {
  reals.reserve(reals.size() + count);
  for (size_t i = 0; i < count; ++i) {
    Real value;
    std::memcpy(&value, p + sizeof(Real) * i, sizeof(Real));
    reals.push_back(value);
  }
}

}  // namespace

ParquetColumnCursor::ParquetColumnCursor(const std::string& file_name, const ParquetColumn& column,
                                         parquet::Codec codec, uint64_t begin, uint64_t end, uint64_t rows,
                                         const ParquetReader::ReadAt& read_at, uint64_t& bytes_read)
    : file_name_(file_name),
      column_(column),
      codec_(codec),
      offset_(begin),
      end_(end),
      rows_(rows),
      read_at_(read_at),
      bytes_read_(bytes_read) {}

void ParquetColumnCursor::damaged(const std::string& why) const {
  throw ParquetReadError("cannot read '" + file_name_ + "': damaged Parquet file (column '" + column_.name + "': " +
                         why + ")");
}

void ParquetColumnCursor::refuse(const std::string& what) const {
  throw ParquetReadError("cannot read '" + file_name_ + "': column '" + column_.name + "' uses " + what +
                         ", which pgnbase does not read");
}

void ParquetColumnCursor::read_file(uint64_t offset, size_t size, std::vector<uint8_t>& out) {
  out.resize(size);
  if (size > 0) read_at_(offset, size, out.data());
  bytes_read_ += size;
}

parquet::PageHeader ParquetColumnCursor::read_page_header() {
  const uint64_t left = end_ - offset_;
  size_t window = size_t(std::min<uint64_t>(left, kFirstHeaderWindow));
  for (;;) {
    read_file(offset_, window, raw_);
    try {
      ThriftReader reader(raw_);
      parquet::PageHeader header = parquet::parse_page_header(reader);
      offset_ += reader.position();
      return header;
    } catch (const ThriftReadError& error) {
      if (window >= left || window >= kMaxHeaderBytes) damaged(std::string("page header: ") + error.what());
      window = size_t(std::min<uint64_t>({left, uint64_t(window) * 8, kMaxHeaderBytes}));
    }
  }
}

std::span<const uint8_t> ParquetColumnCursor::page_payload(const parquet::PageHeader& header, size_t skip,
                                                           bool compressed, std::vector<uint8_t>& buffer) {
  const std::span<const uint8_t> stored = std::span<const uint8_t>(raw_).subspan(skip);
  if (!compressed) return stored;
  const int64_t expected = int64_t(header.uncompressed_page_size) - int64_t(skip);
  if (expected < 0) damaged("a page smaller than its levels");
  if (auto why = parquet::decompress(codec_, stored, size_t(expected), buffer)) damaged(*why);
  return buffer;
}

void ParquetColumnCursor::read_dictionary_page(const parquet::PageHeader& header) {
  if (has_dictionary_ || values_seen_ > 0) damaged("a second dictionary page, or one after data pages");
  if (header.num_values < 0 || header.num_values > kMaxPageValues) damaged("a dictionary of too many values");
  if (header.encoding != Encoding::Plain && header.encoding != Encoding::PlainDictionary)
    refuse("a dictionary encoded as " + std::string(parquet::encoding_name(header.encoding)));
  const std::span<const uint8_t> payload = page_payload(header, 0, codec_ != parquet::Codec::Uncompressed, page_);
  dictionary_page_.assign(payload.begin(), payload.end());
  dictionary_texts_.clear();
  dictionary_numbers_.clear();
  dictionary_reals_.clear();
  decode_plain(dictionary_page_, size_t(header.num_values), dictionary_texts_, dictionary_numbers_, dictionary_reals_);
  has_dictionary_ = true;
}

void ParquetColumnCursor::decode_levels(std::span<const uint8_t> levels, size_t count) {
  levels_.clear();
  if (!decode_rle_hybrid(levels, 1, count, levels_)) damaged("definition levels");
  defined_.assign(levels_.begin(), levels_.end());
}

size_t ParquetColumnCursor::decode_plain(std::span<const uint8_t> in, size_t count,
                                         std::vector<std::string_view>& texts, std::vector<int64_t>& numbers,
                                         std::vector<double>& reals) const {
  const uint8_t* p = in.data();
  const size_t size = in.size();
  auto need_fixed = [&](size_t width) {
    if (count > size / width) damaged("a page holds fewer values than its header states");
  };
  const bool is_unsigned = column_.kind == ParquetValueKind::Unsigned;
  switch (column_.physical) {
    case Type::ByteArray: {
      texts.reserve(texts.size() + std::min(count, size / 4));
      size_t at = 0;
      for (size_t i = 0; i < count; ++i) {
        if (size - at < 4) damaged("a page holds fewer values than its header states");
        const uint32_t length = load_u32(p + at);
        at += 4;
        if (length > size - at) damaged("a value runs past the end of its page");
        texts.emplace_back(reinterpret_cast<const char*>(p + at), length);
        at += length;
      }
      return at;
    }
    case Type::Int32:
      need_fixed(4);
      numbers.reserve(numbers.size() + count);
      for (size_t i = 0; i < count; ++i) {
        const uint32_t bits = load_u32(p + 4 * i);
        numbers.push_back(is_unsigned ? int64_t(bits) : int64_t(int32_t(bits)));
      }
      return 4 * count;
    case Type::Int64:
      need_fixed(8);
      numbers.reserve(numbers.size() + count);
      for (size_t i = 0; i < count; ++i) numbers.push_back(int64_t(load_u64(p + 8 * i)));
      return 8 * count;
    case Type::Boolean:
      if ((count + 7) / 8 > size) damaged("a page holds fewer values than its header states");
      numbers.reserve(numbers.size() + count);
      for (size_t i = 0; i < count; ++i) numbers.push_back((p[i / 8] >> (i % 8)) & 1);
      return (count + 7) / 8;
    case Type::Float:
      need_fixed(4);
      append_reals<float>(p, count, reals);
      return 4 * count;
    case Type::Double:
      need_fixed(8);
      append_reals<double>(p, count, reals);
      return 8 * count;
    case Type::Int96:
    case Type::FixedLenByteArray:
      break;
  }
  refuse(std::string(parquet::type_name(column_.physical)) + " values");  // refused at open; a page cannot change it
}

void ParquetColumnCursor::decode_values(Encoding encoding, std::span<const uint8_t> values, size_t count) {
  texts_.clear();
  numbers_.clear();
  reals_.clear();
  switch (encoding) {
    case Encoding::Plain:
      decode_plain(values, count, texts_, numbers_, reals_);
      return;
    case Encoding::PlainDictionary:
    case Encoding::RleDictionary: {
      if (!has_dictionary_) damaged("a dictionary-encoded page without a dictionary page");
      if (count == 0) return;
      if (values.empty() || values[0] > 32) damaged("dictionary indices");
      indices_.clear();
      if (!decode_rle_hybrid(values.subspan(1), values[0], count, indices_)) damaged("dictionary indices");
      const size_t entries = std::max({dictionary_texts_.size(), dictionary_numbers_.size(), dictionary_reals_.size()});
      for (uint32_t index : indices_)
        if (index >= entries) damaged("a dictionary index past the dictionary's end");
      if (column_.physical == Type::ByteArray) {
        texts_.reserve(count);
        for (uint32_t index : indices_) texts_.push_back(dictionary_texts_[index]);
      } else if (column_.kind == ParquetValueKind::Real) {
        reals_.reserve(count);
        for (uint32_t index : indices_) reals_.push_back(dictionary_reals_[index]);
      } else {
        numbers_.reserve(count);
        for (uint32_t index : indices_) numbers_.push_back(dictionary_numbers_[index]);
      }
      return;
    }
    case Encoding::Rle:
      if (column_.physical == Type::Boolean) {  // a 4-byte length, then runs of 1-bit values
        if (values.size() < 4 || load_u32(values.data()) > values.size() - 4) damaged("boolean values");
        indices_.clear();
        if (!decode_rle_hybrid(values.subspan(4, load_u32(values.data())), 1, count, indices_))
          damaged("boolean values");
        numbers_.assign(indices_.begin(), indices_.end());
        return;
      }
      break;
    case Encoding::BitPacked:
    case Encoding::DeltaBinaryPacked:
    case Encoding::DeltaLengthByteArray:
    case Encoding::DeltaByteArray:
    case Encoding::ByteStreamSplit:
      break;
  }
  refuse("the " + std::string(parquet::encoding_name(encoding)) + " encoding");
}

void ParquetColumnCursor::read_data_page() {
  for (;;) {
    if (offset_ >= end_) damaged("its pages end before the row group's " + std::to_string(rows_) + " rows");
    const parquet::PageHeader header = read_page_header();
    if (header.compressed_page_size < 0 || header.compressed_page_size > kMaxPageBytes ||
        uint64_t(header.compressed_page_size) > end_ - offset_)
      damaged("a page runs past the end of its column chunk");
    if (header.uncompressed_page_size < 0 || header.uncompressed_page_size > kMaxPageBytes)
      damaged("a page of an impossible size");
    const bool data_page = header.type == PageType::DataPage || header.type == PageType::DataPageV2;
    if (header.type != PageType::DictionaryPage && !data_page) {  // an index page, or a kind this reader skips
      offset_ += uint64_t(header.compressed_page_size);
      continue;
    }
    read_file(offset_, size_t(header.compressed_page_size), raw_);
    offset_ += uint64_t(header.compressed_page_size);
    if (header.type == PageType::DictionaryPage) {
      read_dictionary_page(header);
      continue;
    }
    if (header.num_values < 0 || header.num_values > kMaxPageValues ||
        values_seen_ + uint64_t(header.num_values) > rows_)
      damaged("a page of more values than its row group has rows");
    const size_t count = size_t(header.num_values);
    std::span<const uint8_t> values;
    if (header.type == PageType::DataPage) {
      values = page_payload(header, 0, codec_ != parquet::Codec::Uncompressed, page_);
      if (column_.optional) {
        if (header.definition_level_encoding != Encoding::Rle)
          refuse("definition levels encoded as " +
                 std::string(parquet::encoding_name(header.definition_level_encoding)));
        if (values.size() < 4 || load_u32(values.data()) > values.size() - 4) damaged("definition levels");
        const size_t length = load_u32(values.data());
        decode_levels(values.subspan(4, length), count);
        values = values.subspan(4 + length);
      }
    } else {
      const int64_t levels = int64_t(header.repetition_levels_byte_length) + header.definition_levels_byte_length;
      if (header.repetition_levels_byte_length != 0 || header.definition_levels_byte_length < 0 ||
          levels > header.compressed_page_size)
        damaged("the levels of a version 2 page");
      if (column_.optional) decode_levels(std::span<const uint8_t>(raw_).first(size_t(levels)), count);
      values = page_payload(header, size_t(levels), header.is_compressed && codec_ != parquet::Codec::Uncompressed,
                            page_);
    }
    if (!column_.optional) defined_.clear();
    const size_t present = column_.optional ? size_t(std::count(defined_.begin(), defined_.end(), uint8_t{1})) : count;
    decode_values(header.encoding, values, present);
    values_seen_ += count;
    page_rows_ = count;
    row_ = 0;
    value_ = 0;
    if (count > 0) return;
  }
}

void ParquetColumnCursor::advance() {
  if (!started_) {
    started_ = true;
    read_data_page();
    return;
  }
  if (present()) ++value_;
  if (++row_ < page_rows_) return;
  read_data_page();
}

void ParquetColumnCursor::finish() const {
  if (started_ && row_ + 1 != page_rows_) damaged("a page holds more values than its row group has rows");
}

}  // namespace pgnbase::dataset
