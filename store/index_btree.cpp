#include "store/index_btree.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace pgnbase::store {

namespace {

// B-tree page types and the sizes of their headers.
constexpr uint8_t kInteriorIndexPage = 0x02, kLeafIndexPage = 0x0a;
constexpr uint32_t kInteriorHeader = 12;
// A cell never takes less than 4 bytes of a page: SQLite counts it so.
constexpr uint32_t kMinCellBytes = 4;

void put16(uint8_t* at, uint32_t value) {
  at[0] = uint8_t(value >> 8);
  at[1] = uint8_t(value);
}

uint32_t cell_bytes(size_t cell) { return std::max(uint32_t(cell), kMinCellBytes); }

// Fills the page's header fields and places its cells from the end of the usable part
// down, back to back (no free block, no fragment), in key order in the pointer array.
template <typename CellAt>
void lay_out(std::span<uint8_t> page, uint32_t usable_size, uint8_t type, uint32_t header, size_t count,
             const CellAt& cell_at) {
  std::memset(page.data(), 0, page.size());
  page[0] = type;
  put16(&page[3], uint32_t(count));
  uint32_t content = usable_size;
  for (size_t i = 0; i < count; ++i) {
    const std::string_view cell = cell_at(i);
    content -= cell_bytes(cell.size());
    std::memcpy(&page[content], cell.data(), cell.size());
    put16(&page[header + 2 * i], content);
  }
  put16(&page[5], content == 65536 ? 0 : content);  // 0 stands for 65536
}

}  // namespace

uint32_t get32(const uint8_t* at) {
  return uint32_t(at[0]) << 24 | uint32_t(at[1]) << 16 | uint32_t(at[2]) << 8 | at[3];
}

void put32(uint8_t* at, uint32_t value) {
  for (int i = 0; i < 4; ++i) at[i] = uint8_t(value >> (24 - 8 * i));
}

int sqlite_varint_length(uint64_t value) {
  if (value > 0x00ffffffffffffffULL) return 9;
  int length = 1;
  while (value > 0x7f) {
    value >>= 7;
    ++length;
  }
  return length;
}

void append_sqlite_varint(std::string& out, uint64_t value) {
  uint8_t bytes[9];
  if (value > 0x00ffffffffffffffULL) {  // eight 7-bit groups, then the low 8 bits whole
    bytes[8] = uint8_t(value);
    value >>= 8;
    for (int i = 7; i >= 0; --i) {
      bytes[i] = uint8_t((value & 0x7f) | 0x80);
      value >>= 7;
    }
    out.append(reinterpret_cast<const char*>(bytes), 9);
    return;
  }
  int n = 0;
  do {
    bytes[n++] = uint8_t(value & 0x7f);
    value >>= 7;
  } while (value != 0);
  for (int i = n - 1; i >= 0; --i) out.push_back(char(i > 0 ? bytes[i] | 0x80 : bytes[i]));
}

void RecordBuilder::add_int(int64_t value) {
  // As SQLite picks them: 8 and 9 for 0 and 1, else the fewest of 1, 2, 3, 4, 6, 8 bytes
  // (serial types 1-6) that hold the value in two's complement.
  const uint64_t magnitude = value < 0 ? ~uint64_t(value) : uint64_t(value);
  if (value == 0 || value == 1) {
    types_.push_back(char(8 + value));
    return;
  }
  int type, width;
  if (magnitude <= 127) type = 1, width = 1;
  else if (magnitude <= 32767) type = 2, width = 2;
  else if (magnitude <= 8388607) type = 3, width = 3;
  else if (magnitude <= 2147483647) type = 4, width = 4;
  else if (magnitude <= 0x00007fffffffffffULL) type = 5, width = 6;
  else type = 6, width = 8;
  types_.push_back(char(type));
  for (int i = width - 1; i >= 0; --i) body_.push_back(char(uint64_t(value) >> (8 * i)));
}

void RecordBuilder::add_text(std::string_view text) {
  append_sqlite_varint(types_, 13 + 2 * uint64_t(text.size()));
  body_.append(text);
}

std::string_view RecordBuilder::finish() {
  // The header's length counts its own varint.
  uint64_t header = types_.size() + 1;
  if (sqlite_varint_length(header) > 1) header = types_.size() + sqlite_varint_length(types_.size() + 2);
  record_.clear();
  append_sqlite_varint(record_, header);
  record_.append(types_).append(body_);
  types_.clear();
  body_.clear();
  return record_;
}

void IndexTreeBuilder::Leaf::clear() {
  cells.clear();
  ends.clear();
  used = kLeafHeader;
}

IndexTreeBuilder::IndexTreeBuilder(uint32_t page_size, uint32_t usable_size,
                                   std::function<void(std::span<const uint8_t>)> write_leaf)
    : usable_size_(usable_size), write_leaf_(std::move(write_leaf)), page_(page_size) {}

void IndexTreeBuilder::add(std::string_view record) {
  if (record.size() > max_record_bytes(usable_size_))
    throw std::length_error("an index record of " + std::to_string(record.size()) + " bytes needs overflow pages");
  if (divider_waiting_) {  // a record after the divider: the full leaf is not the last one
    write(full_);
    leaf_keys_.push_back(std::move(divider_));
    divider_waiting_ = false;
  }
  const uint32_t cell = uint32_t(sqlite_varint_length(record.size()) + record.size());
  if (current_.used + 2 + cell_bytes(cell) > usable_size_) {
    std::swap(current_, full_);
    current_.clear();
    divider_.assign(record);
    divider_waiting_ = true;
    return;
  }
  append_sqlite_varint(current_.cells, record.size());
  current_.cells.append(record);
  current_.ends.push_back(uint32_t(current_.cells.size()));
  current_.used += 2 + cell_bytes(cell);
}

void IndexTreeBuilder::write(const Leaf& leaf) {
  lay_out(page_, usable_size_, kLeafIndexPage, kLeafHeader, leaf.ends.size(), [&](size_t i) {
    const uint32_t start = i == 0 ? 0 : leaf.ends[i - 1];
    return std::string_view(leaf.cells).substr(start, leaf.ends[i] - start);
  });
  write_leaf_(page_);
  ++tree_.leaves;
}

IndexTree IndexTreeBuilder::finish() {
  if (divider_waiting_) {
    // The divider is the last record: it becomes the last leaf, and the full leaf's last
    // record the key before it (a full leaf holds at least three records).
    const uint32_t last_start = full_.ends.size() > 1 ? full_.ends[full_.ends.size() - 2] : 0;
    // The cell is the record's length then the record: skip the length's varint.
    std::string_view cell = std::string_view(full_.cells).substr(last_start);
    size_t length_bytes = 1;
    while (uint8_t(cell[length_bytes - 1]) & 0x80) ++length_bytes;
    std::string key(cell.substr(length_bytes));
    full_.cells.resize(last_start);
    full_.ends.pop_back();
    write(full_);
    leaf_keys_.push_back(std::move(key));
    divider_waiting_ = false;
    const std::string last = std::move(divider_);
    add(last);
  }
  write(current_);
  std::vector<uint64_t> leaves(tree_.leaves);
  for (uint64_t i = 0; i < tree_.leaves; ++i) leaves[i] = i;
  add_interior_levels(std::move(leaves), std::move(leaf_keys_));
  return std::move(tree_);
}

void IndexTreeBuilder::add_interior_levels(std::vector<uint64_t> children, std::vector<std::string> keys) {
  while (children.size() > 1) {
    // Each page takes children while their keys fit, keeps the key after its last child
    // for the level above, and holds at least two children (the last page borrows one).
    struct Range {
      size_t first, last;  // children first..last; keys first..last-1 inside
    };
    std::vector<Range> ranges;
    size_t first = 0;
    while (first < children.size()) {
      size_t last = first;
      uint32_t used = kInteriorHeader;
      while (last + 1 < children.size()) {
        const uint32_t cell = 4 + uint32_t(sqlite_varint_length(keys[last].size()) + keys[last].size());
        if (used + 2 + cell_bytes(cell) > usable_size_) break;
        used += 2 + cell_bytes(cell);
        ++last;
      }
      ranges.push_back({first, last});
      first = last + 1;  // keys[last], between this page and the next, goes up
    }
    if (ranges.size() > 1 && ranges.back().first == ranges.back().last) {
      // A lone last child (it can only follow a full page): the page before gives it its
      // last child, and the key before that goes up instead.
      --ranges[ranges.size() - 2].last;
      --ranges.back().first;
    }
    std::vector<uint64_t> parents;
    std::vector<std::string> parent_keys;
    for (size_t r = 0; r < ranges.size(); ++r) {
      InteriorPage page;
      page.children.assign(children.begin() + ptrdiff_t(ranges[r].first),
                           children.begin() + ptrdiff_t(ranges[r].last) + 1);
      for (size_t k = ranges[r].first; k < ranges[r].last; ++k) page.keys.push_back(std::move(keys[k]));
      parents.push_back(tree_.leaves + tree_.upper.size());
      tree_.upper.push_back(std::move(page));
      if (r + 1 < ranges.size()) parent_keys.push_back(std::move(keys[ranges[r].last]));
    }
    children = std::move(parents);
    keys = std::move(parent_keys);
  }
}

void write_interior_page(const InteriorPage& interior, const std::function<uint32_t(uint64_t)>& page_number,
                         std::span<uint8_t> page, uint32_t usable_size) {
  std::string cell;
  lay_out(page, usable_size, kInteriorIndexPage, kInteriorHeader, interior.keys.size(), [&](size_t i) {
    cell.assign(4, '\0');
    put32(reinterpret_cast<uint8_t*>(cell.data()), page_number(interior.children[i]));
    append_sqlite_varint(cell, interior.keys[i].size());
    cell.append(interior.keys[i]);
    return std::string_view(cell);
  });
  put32(&page[8], page_number(interior.children.back()));
}

uint32_t PageNumbers::operator()(uint64_t place) const {
  const uint64_t number = first_ + place;
  const uint64_t skipped = first_ <= lock_page_ && number >= lock_page_ ? number + 1 : number;
  if (skipped > UINT32_MAX - 1) throw std::length_error("the database would pass SQLite's most pages");
  return uint32_t(skipped);
}

}  // namespace pgnbase::store
