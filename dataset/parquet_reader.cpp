#include "dataset/parquet_reader.h"

#include <cstring>
#include <tuple>

#include "dataset/parquet_column_cursor.h"
#include "dataset/parquet_decompress.h"
#include "dataset/parquet_metadata.h"

namespace pgnbase::dataset {

namespace {

using parquet::ConvertedType;
using parquet::Encoding;
using parquet::LogicalTypeId;
using parquet::Type;

// A footer larger than this is refused: a lichess month's footer is a few hundred KiB.
constexpr uint32_t kMaxFooterBytes = uint32_t{256} << 20;

// How a leaf column's values read; nullopt with why_not set for those that are not read.
std::optional<ParquetColumn> describe_column(const parquet::SchemaElement& e, std::string& why_not) {
  ParquetColumn c;
  c.name = e.name;
  c.physical = *e.type;
  c.optional = e.repetition == parquet::Repetition::Optional;
  const std::optional<parquet::LogicalType>& logical = e.logical_type;
  const std::optional<ConvertedType>& converted = e.converted_type;
  auto is_logical = [&](LogicalTypeId id) { return logical && logical->id == id; };
  auto is_converted = [&](ConvertedType t) { return converted && *converted == t; };
  if (is_logical(LogicalTypeId::Decimal) || is_converted(ConvertedType::Decimal)) {
    why_not = "DECIMAL values";
    return std::nullopt;
  }
  switch (c.physical) {
    case Type::ByteArray:
      c.kind = ParquetValueKind::Text;
      return c;
    case Type::Boolean:
      c.kind = ParquetValueKind::Boolean;
      return c;
    case Type::Float:
    case Type::Double:
      c.kind = ParquetValueKind::Real;
      return c;
    case Type::Int32:
    case Type::Int64:
      c.kind = ParquetValueKind::Integer;
      if ((logical && logical->id == LogicalTypeId::Integer && !logical->is_signed) ||
          is_converted(ConvertedType::Uint8) || is_converted(ConvertedType::Uint16) ||
          is_converted(ConvertedType::Uint32) || is_converted(ConvertedType::Uint64))
        c.kind = ParquetValueKind::Unsigned;
      if (is_logical(LogicalTypeId::Date) || is_converted(ConvertedType::Date)) c.kind = ParquetValueKind::Date;
      // TIME and TIMESTAMP: the logical type's unit, else the converted type's (millis or micros).
      for (const auto& [kind, logical_id, as_millis, as_micros] :
           {std::tuple{ParquetValueKind::Time, LogicalTypeId::Time, ConvertedType::TimeMillis, ConvertedType::TimeMicros},
            std::tuple{ParquetValueKind::Timestamp, LogicalTypeId::Timestamp, ConvertedType::TimestampMillis,
                       ConvertedType::TimestampMicros}}) {
        if (is_logical(logical_id)) {
          c.kind = kind;
          c.unit = logical->unit;
        } else if (is_converted(as_millis) || is_converted(as_micros)) {
          c.kind = kind;
          c.unit = is_converted(as_millis) ? parquet::TimeUnit::Millis : parquet::TimeUnit::Micros;
        }
      }
      if (c.kind == ParquetValueKind::Date && c.physical != Type::Int32) {
        why_not = "a DATE stored as INT64";
        return std::nullopt;
      }
      return c;
    case Type::Int96:
    case Type::FixedLenByteArray:
      break;
  }
  why_not = std::string(parquet::type_name(c.physical)) + " values";
  return std::nullopt;
}

bool is_refused_encoding(Encoding e) {
  return e == Encoding::DeltaBinaryPacked || e == Encoding::DeltaLengthByteArray || e == Encoding::DeltaByteArray ||
         e == Encoding::ByteStreamSplit;
}

}  // namespace

struct ParquetReader::Footer {
  parquet::FileMetaData meta;
  uint64_t data_end = 0;  // where the footer starts: column chunks lie before it
};

ParquetReader::ParquetReader(std::string name, uint64_t file_size, ReadAt read_at)
    : name_(std::move(name)),
      file_size_(file_size),
      read_at_(std::move(read_at)),
      bytes_read_(std::make_shared<uint64_t>(0)),
      footer_(std::make_unique<Footer>()) {
  if (file_size_ < 12) damaged("too short for a Parquet file");
  uint8_t head[4], tail[8];
  read_at_(0, 4, head);
  read_at_(file_size_ - 8, 8, tail);
  if (std::memcmp(head, parquet::kMagic, 4) != 0 || std::memcmp(tail + 4, parquet::kMagic, 4) != 0)
    damaged("it does not start and end with PAR1");
  uint32_t footer_size;
  std::memcpy(&footer_size, tail, 4);
  if (footer_size > file_size_ - 12 || footer_size > kMaxFooterBytes) damaged("a footer larger than the file");
  footer_->data_end = file_size_ - 8 - footer_size;
  std::vector<uint8_t> bytes(footer_size);
  if (footer_size > 0) read_at_(footer_->data_end, footer_size, bytes.data());
  *bytes_read_ += 12 + footer_size;
  try {
    footer_->meta = parquet::parse_file_metadata(bytes);
  } catch (const ThriftReadError& error) {
    damaged(std::string("footer: ") + error.what());
  }
  const parquet::FileMetaData& meta = footer_->meta;

  // A flat schema: the root, then one leaf per column.
  if (meta.schema.empty()) damaged("a footer without a schema");
  for (size_t i = 1; i < meta.schema.size(); ++i) {
    const parquet::SchemaElement& e = meta.schema[i];
    if (e.num_children > 0 || !e.type)
      throw ParquetReadError("cannot read '" + name_ + "': column '" + e.name +
                             "' is nested (a struct, list or map), which pgnbase does not read");
    if (e.repetition == parquet::Repetition::Repeated)
      throw ParquetReadError("cannot read '" + name_ + "': column '" + e.name +
                             "' is repeated (a list), which pgnbase does not read");
    if (e.repetition != parquet::Repetition::Required && e.repetition != parquet::Repetition::Optional)
      damaged("column '" + e.name + "' has an unknown repetition");
    std::string why_not;
    std::optional<ParquetColumn> column = describe_column(e, why_not);
    if (!column)
      throw ParquetReadError("cannot read '" + name_ + "': column '" + e.name + "' holds " + why_not +
                             ", which pgnbase does not read");
    columns_.push_back(std::move(*column));
  }
  if (columns_.empty() || meta.schema[0].num_children != int32_t(columns_.size()))
    damaged("a schema whose root does not hold its columns");

  for (size_t g = 0; g < meta.row_groups.size(); ++g) {
    const parquet::RowGroupMeta& group = meta.row_groups[g];
    if (group.num_rows < 0) damaged("row group " + std::to_string(g + 1) + " has a negative row count");
    if (group.columns.size() != columns_.size())
      damaged("row group " + std::to_string(g + 1) + " does not hold one chunk per column");
    for (size_t c = 0; c < columns_.size(); ++c) {
      const parquet::ColumnChunkMeta& chunk = group.columns[c];
      const std::string column = "column '" + columns_[c].name + "'";
      if (chunk.in_other_file)
        throw ParquetReadError("cannot read '" + name_ + "': " + column +
                               " keeps its values in another file, which pgnbase does not read");
      if (chunk.path.size() != 1 || chunk.path[0] != columns_[c].name || chunk.type != columns_[c].physical)
        damaged("row group " + std::to_string(g + 1) + " has a chunk that is not " + column + "'s");
      if (!parquet::can_decompress(chunk.codec))
        throw ParquetReadError("cannot read '" + name_ + "': " + column + " is compressed with " +
                               std::string(parquet::codec_name(chunk.codec)) +
                               ", which pgnbase does not read (it reads UNCOMPRESSED, SNAPPY, GZIP and ZSTD)");
      for (Encoding e : chunk.encodings)
        if (is_refused_encoding(e))
          throw ParquetReadError("cannot read '" + name_ + "': " + column + " uses the " +
                                 std::string(parquet::encoding_name(e)) + " encoding, which pgnbase does not read");
      if (chunk.num_values != group.num_rows)
        damaged(column + " holds " + std::to_string(chunk.num_values) + " values in a row group of " +
                std::to_string(group.num_rows) + " rows");
    }
    rows_ += uint64_t(group.num_rows);
  }
}

ParquetReader::~ParquetReader() = default;

size_t ParquetReader::row_groups() const { return footer_->meta.row_groups.size(); }

void ParquetReader::damaged(const std::string& why) const {
  throw ParquetReadError("cannot read '" + name_ + "': damaged Parquet file (" + why + ")");
}

void ParquetReader::start_row_group(size_t index) {
  const parquet::RowGroupMeta& group = footer_->meta.row_groups[index];
  cursors_.clear();
  for (size_t c = 0; c < columns_.size(); ++c) {
    const parquet::ColumnChunkMeta& chunk = group.columns[c];
    // The chunk starts at its dictionary page when it has one (0 also means none: old writers).
    int64_t begin = chunk.data_page_offset;
    if (chunk.dictionary_page_offset && *chunk.dictionary_page_offset >= 4 &&
        *chunk.dictionary_page_offset < chunk.data_page_offset)
      begin = *chunk.dictionary_page_offset;
    if (begin < 4 || chunk.total_compressed_size < 0 || uint64_t(begin) > footer_->data_end ||
        uint64_t(chunk.total_compressed_size) > footer_->data_end - uint64_t(begin))
      damaged("column '" + columns_[c].name + "' of row group " + std::to_string(index + 1) +
              " lies outside the file's data");
    cursors_.push_back(std::make_unique<ParquetColumnCursor>(name_, columns_[c], chunk.codec, uint64_t(begin),
                                                             uint64_t(begin + chunk.total_compressed_size),
                                                             uint64_t(group.num_rows), read_at_, *bytes_read_));
  }
  rows_left_in_group_ = uint64_t(group.num_rows);
}

bool ParquetReader::next_row() {
  while (rows_left_in_group_ == 0) {
    for (const auto& cursor : cursors_) cursor->finish();
    cursors_.clear();
    if (next_row_group_ >= footer_->meta.row_groups.size()) return false;
    start_row_group(next_row_group_++);
  }
  for (const auto& cursor : cursors_) cursor->advance();
  --rows_left_in_group_;
  return true;
}

bool ParquetReader::present(size_t c) const { return cursors_[c]->present(); }
std::string_view ParquetReader::text(size_t c) const { return cursors_[c]->text(); }
int64_t ParquetReader::number(size_t c) const { return cursors_[c]->number(); }
double ParquetReader::real(size_t c) const { return cursors_[c]->real(); }

}  // namespace pgnbase::dataset
