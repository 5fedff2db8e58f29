#include "dataset/parquet_metadata.h"

namespace pgnbase::dataset::parquet {

namespace {

// Reads the fields of one struct with on_field(id, type); on_field returns false for a
// field it does not read, which is then skipped.
template <typename OnField>
void read_struct(ThriftReader& r, OnField on_field) {
  r.begin_struct();
  int16_t id;
  ThriftType type;
  while (r.next_field(id, type))
    if (!on_field(id, type)) r.skip(type);
}

// The field's value when its type is the one expected; a field of another type is a
// damaged file.
void expect(ThriftType actual, ThriftType wanted) {
  if (actual != wanted) throw ThriftReadError("a metadata field has the wrong type");
}

int32_t read_i32_field(ThriftReader& r, ThriftType type) {
  expect(type, ThriftType::I32);
  return r.read_i32();
}

int64_t read_i64_field(ThriftReader& r, ThriftType type) {
  expect(type, ThriftType::I64);
  return r.read_i64();
}

// An empty struct (a union member such as STRING or MILLIS) whose presence is its meaning.
void skip_struct(ThriftReader& r, ThriftType type) {
  expect(type, ThriftType::Struct);
  r.skip(type);
}

TimeUnit read_time_unit(ThriftReader& r) {
  TimeUnit unit = TimeUnit::Millis;
  read_struct(r, [&](int16_t id, ThriftType type) {
    if (id < 1 || id > 3) return false;
    skip_struct(r, type);
    unit = TimeUnit(id);
    return true;
  });
  return unit;
}

LogicalType read_logical_type(ThriftReader& r) {
  LogicalType logical;
  read_struct(r, [&](int16_t id, ThriftType type) {
    expect(type, ThriftType::Struct);
    logical.id = LogicalTypeId(id);
    switch (LogicalTypeId(id)) {
      case LogicalTypeId::Time:
      case LogicalTypeId::Timestamp:
        read_struct(r, [&](int16_t field, ThriftType t) {
          if (field != 2) return false;  // 1 isAdjustedToUTC: a time is printed as stored
          expect(t, ThriftType::Struct);
          logical.unit = read_time_unit(r);
          return true;
        });
        return true;
      case LogicalTypeId::Integer:
        read_struct(r, [&](int16_t field, ThriftType t) {
          if (field == 1) {
            expect(t, ThriftType::Byte);
            logical.bit_width = r.read_byte();
            return true;
          }
          if (field == 2 && (t == ThriftType::BoolTrue || t == ThriftType::BoolFalse)) {
            logical.is_signed = ThriftReader::read_bool(t);
            return true;
          }
          return false;
        });
        return true;
      default:
        return false;  // the kind is known from the id; its fields (decimal scale, ...) are not needed
    }
  });
  return logical;
}

SchemaElement read_schema_element(ThriftReader& r) {
  SchemaElement e;
  read_struct(r, [&](int16_t id, ThriftType type) {
    switch (id) {
      case 1: e.type = Type(read_i32_field(r, type)); return true;                  // type
      case 3: e.repetition = Repetition(read_i32_field(r, type)); return true;      // repetition_type
      case 4: expect(type, ThriftType::Binary); e.name = r.read_binary(); return true;  // name
      case 5: e.num_children = read_i32_field(r, type); return true;                // num_children
      case 6: e.converted_type = ConvertedType(read_i32_field(r, type)); return true;  // converted_type
      case 10: expect(type, ThriftType::Struct); e.logical_type = read_logical_type(r); return true;  // logicalType
      default: return false;
    }
  });
  return e;
}

ColumnChunkMeta read_column_meta(ThriftReader& r) {
  ColumnChunkMeta m;
  read_struct(r, [&](int16_t id, ThriftType type) {
    switch (id) {
      case 1: m.type = Type(read_i32_field(r, type)); return true;  // type
      case 2: {                                                     // encodings
        expect(type, ThriftType::List);
        const auto [element, n] = r.read_list_header();
        expect(element, ThriftType::I32);
        for (size_t i = 0; i < n; ++i) m.encodings.push_back(Encoding(r.read_i32()));
        return true;
      }
      case 3: {  // path_in_schema
        expect(type, ThriftType::List);
        const auto [element, n] = r.read_list_header();
        expect(element, ThriftType::Binary);
        for (size_t i = 0; i < n; ++i) m.path.emplace_back(r.read_binary());
        return true;
      }
      case 4: m.codec = Codec(read_i32_field(r, type)); return true;                  // codec
      case 5: m.num_values = read_i64_field(r, type); return true;                    // num_values
      case 7: m.total_compressed_size = read_i64_field(r, type); return true;         // total_compressed_size
      case 9: m.data_page_offset = read_i64_field(r, type); return true;              // data_page_offset
      case 11: m.dictionary_page_offset = read_i64_field(r, type); return true;       // dictionary_page_offset
      default: return false;
    }
  });
  return m;
}

ColumnChunkMeta read_column_chunk(ThriftReader& r) {
  ColumnChunkMeta m;
  bool has_meta = false, other_file = false;
  read_struct(r, [&](int16_t id, ThriftType type) {
    if (id == 1) {  // file_path
      expect(type, ThriftType::Binary);
      other_file = !r.read_binary().empty();
      return true;
    }
    if (id == 3) {  // meta_data
      expect(type, ThriftType::Struct);
      m = read_column_meta(r);
      has_meta = true;
      return true;
    }
    return false;
  });
  if (!has_meta) throw ThriftReadError("a column chunk without its metadata");
  m.in_other_file = other_file;
  return m;
}

RowGroupMeta read_row_group(ThriftReader& r) {
  RowGroupMeta g;
  read_struct(r, [&](int16_t id, ThriftType type) {
    if (id == 1) {  // columns
      expect(type, ThriftType::List);
      const auto [element, n] = r.read_list_header();
      expect(element, ThriftType::Struct);
      for (size_t i = 0; i < n; ++i) g.columns.push_back(read_column_chunk(r));
      return true;
    }
    if (id == 3) {  // num_rows
      g.num_rows = read_i64_field(r, type);
      return true;
    }
    return false;
  });
  return g;
}

}  // namespace

FileMetaData parse_file_metadata(std::span<const uint8_t> bytes) {
  ThriftReader r(bytes);
  FileMetaData meta;
  read_struct(r, [&](int16_t id, ThriftType type) {
    switch (id) {
      case 2: {  // schema
        expect(type, ThriftType::List);
        const auto [element, n] = r.read_list_header();
        expect(element, ThriftType::Struct);
        for (size_t i = 0; i < n; ++i) meta.schema.push_back(read_schema_element(r));
        return true;
      }
      case 3: meta.num_rows = read_i64_field(r, type); return true;  // num_rows
      case 4: {                                                      // row_groups
        expect(type, ThriftType::List);
        const auto [element, n] = r.read_list_header();
        expect(element, ThriftType::Struct);
        for (size_t i = 0; i < n; ++i) meta.row_groups.push_back(read_row_group(r));
        return true;
      }
      default: return false;
    }
  });
  return meta;
}

PageHeader parse_page_header(ThriftReader& r) {
  PageHeader h;
  read_struct(r, [&](int16_t id, ThriftType type) {
    switch (id) {
      case 1: h.type = PageType(read_i32_field(r, type)); return true;             // type
      case 2: h.uncompressed_page_size = read_i32_field(r, type); return true;     // uncompressed_page_size
      case 3: h.compressed_page_size = read_i32_field(r, type); return true;       // compressed_page_size
      case 5:                                                                      // data_page_header
        expect(type, ThriftType::Struct);
        read_struct(r, [&](int16_t field, ThriftType t) {
          switch (field) {
            case 1: h.num_values = read_i32_field(r, t); return true;                             // num_values
            case 2: h.encoding = Encoding(read_i32_field(r, t)); return true;                     // encoding
            case 3: h.definition_level_encoding = Encoding(read_i32_field(r, t)); return true;    // definition_level_encoding
            case 4: h.repetition_level_encoding = Encoding(read_i32_field(r, t)); return true;    // repetition_level_encoding
            default: return false;
          }
        });
        return true;
      case 7:  // dictionary_page_header
        expect(type, ThriftType::Struct);
        read_struct(r, [&](int16_t field, ThriftType t) {
          switch (field) {
            case 1: h.num_values = read_i32_field(r, t); return true;          // num_values
            case 2: h.encoding = Encoding(read_i32_field(r, t)); return true;  // encoding
            default: return false;
          }
        });
        return true;
      case 8:  // data_page_header_v2
        expect(type, ThriftType::Struct);
        read_struct(r, [&](int16_t field, ThriftType t) {
          switch (field) {
            case 1: h.num_values = read_i32_field(r, t); return true;                        // num_values
            case 2: h.num_nulls = read_i32_field(r, t); return true;                         // num_nulls
            case 4: h.encoding = Encoding(read_i32_field(r, t)); return true;                // encoding
            case 5: h.definition_levels_byte_length = read_i32_field(r, t); return true;     // definition_levels_byte_length
            case 6: h.repetition_levels_byte_length = read_i32_field(r, t); return true;     // repetition_levels_byte_length
            case 7:                                                                          // is_compressed
              if (t != ThriftType::BoolTrue && t != ThriftType::BoolFalse) return false;
              h.is_compressed = ThriftReader::read_bool(t);
              return true;
            default: return false;
          }
        });
        return true;
      default: return false;
    }
  });
  return h;
}

}  // namespace pgnbase::dataset::parquet
