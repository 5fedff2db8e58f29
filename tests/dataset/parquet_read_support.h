// Reading a whole Parquet file with dataset::ParquetReader in the tests: from bytes in
// memory (so that a test can damage them) or from a file.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "dataset/parquet_reader.h"
#include "tests/support/files.h"

namespace pgnbase::dataset_test {

// A reader over bytes, which must outlive it. A read outside the bytes is a reader bug
// (it checks every offset against the file size first): the test fails.
inline dataset::ParquetReader reader_over(const std::string& bytes, const std::string& name = "test.parquet") {
  return dataset::ParquetReader(name, bytes.size(), [&bytes](uint64_t offset, size_t size, uint8_t* out) {
    if (offset > bytes.size() || size > bytes.size() - offset) {
      ADD_FAILURE() << "read of " << size << " bytes at " << offset << " outside a file of " << bytes.size();
      throw dataset::ParquetReadError("read outside the file");
    }
    std::memcpy(out, bytes.data() + offset, size);
  });
}

// Every row of the reader, each value as text: "\\N" for a null, numbers in decimal.
inline std::vector<std::vector<std::string>> all_rows(dataset::ParquetReader& reader) {
  std::vector<std::vector<std::string>> rows;
  while (reader.next_row()) {
    std::vector<std::string>& row = rows.emplace_back();
    for (size_t c = 0; c < reader.columns().size(); ++c) {
      if (!reader.present(c)) {
        row.push_back("\\N");
        continue;
      }
      switch (reader.columns()[c].kind) {
        case dataset::ParquetValueKind::Text: row.emplace_back(reader.text(c)); break;
        case dataset::ParquetValueKind::Real: row.push_back(std::to_string(reader.real(c))); break;
        case dataset::ParquetValueKind::Unsigned: row.push_back(std::to_string(uint64_t(reader.number(c)))); break;
        default: row.push_back(std::to_string(reader.number(c))); break;
      }
    }
  }
  return rows;
}

}  // namespace pgnbase::dataset_test
