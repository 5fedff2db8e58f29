#include "store/multi_row_insert.h"

#include <stdexcept>

namespace pgnbase::store {

std::string multi_row_insert(std::string_view one_row, int rows) {
  constexpr std::string_view kValues = " VALUES (";
  const size_t values = one_row.rfind(kValues);
  if (values == std::string_view::npos || rows < 1 || one_row.back() != ')')
    throw std::invalid_argument("multi_row_insert: not INSERT ... VALUES (...): " + std::string(one_row));
  // The parameters must be ?1, ?2, ... in order: each row renumbers them.
  const std::string_view list = one_row.substr(values + kValues.size(), one_row.size() - values - kValues.size() - 1);
  int count = 0;
  for (size_t at = 0; at < list.size();) {
    const std::string expected = "?" + std::to_string(count + 1);
    if (list.compare(at, expected.size(), expected) != 0)
      throw std::invalid_argument("multi_row_insert: parameters not ?1, ?2, ... in order: " + std::string(one_row));
    ++count;
    at += expected.size();
    if (at < list.size()) {
      if (list.compare(at, 2, ", ") != 0)
        throw std::invalid_argument("multi_row_insert: parameters not ?1, ?2, ... in order: " + std::string(one_row));
      at += 2;
    }
  }
  if (count == 0) throw std::invalid_argument("multi_row_insert: no parameters: " + std::string(one_row));
  std::string sql(one_row.substr(0, values + kValues.size() - 1));
  for (int row = 0; row < rows; ++row) {
    sql += row ? ", (" : "(";
    for (int k = 1; k <= count; ++k) sql += (k > 1 ? ", ?" : "?") + std::to_string(row * count + k);
    sql += ")";
  }
  return sql;
}

}  // namespace pgnbase::store
