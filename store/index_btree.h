// An index B-tree in SQLite's file format, built bottom-up from records that arrive in
// index order: full leaves written out as they fill, the interior pages over them kept
// in memory (a few hundredths of the leaves) until the tree is placed in the file.
// store/index_bulk_build.h builds a new database's games indexes with it on threads of
// their own, where SQLite's CREATE INDEX would build them one after another on the
// connection's thread. The format: https://www.sqlite.org/fileformat2.html, "B-tree
// Pages" and "Record Format".
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace pgnbase::store {

// SQLite's 4-byte big-endian integers (page numbers, header fields).
uint32_t get32(const uint8_t* at);
void put32(uint8_t* at, uint32_t value);

// SQLite's variable-length integer: big-endian groups of 7 bits, the ninth byte whole.
void append_sqlite_varint(std::string& out, uint64_t value);
int sqlite_varint_length(uint64_t value);

// One record in SQLite's format (a header of serial types, then the values), built a value
// at a time. Integers take SQLite's own serial types: the smallest width, and no body
// bytes for 0 and 1 (schema format 4, every file SQLite has made since 3.3.0).
class RecordBuilder {
 public:
  void add_null() { types_.push_back(0); }
  void add_int(int64_t value);
  void add_text(std::string_view text);
  // The record (valid until the next add or finish); the builder is empty again after.
  std::string_view finish();

 private:
  std::string types_, body_, record_;
};

// An interior page of the tree, its children named by their place among the tree's pages:
// the leaves 0 .. leaves-1, then the interior pages in the order of IndexTree::upper.
struct InteriorPage {
  std::vector<uint64_t> children;  // keys.size() + 1; the last is the right-most child
  std::vector<std::string> keys;   // the records between the children
};

struct IndexTree {
  uint64_t leaves = 0;
  std::vector<InteriorPage> upper;  // the root last, when there is more than one page
  uint64_t pages() const { return leaves + upper.size(); }
};

class IndexTreeBuilder {
 public:
  // A page's bytes are page_size, of which SQLite uses usable_size (the rest is reserved
  // for extensions). Each full leaf goes to write_leaf, in order; the pages are the same
  // buffer each time.
  IndexTreeBuilder(uint32_t page_size, uint32_t usable_size, std::function<void(std::span<const uint8_t>)> write_leaf);

  // The largest record a page holds whole; a longer one would spill to overflow pages,
  // which this builder does not make (add throws std::length_error).
  static uint32_t max_record_bytes(uint32_t usable_size) { return (usable_size - 12) * 64 / 255 - 23; }

  // Records in index order (SQLite's comparison of records: the caller's duty).
  void add(std::string_view record);
  // Writes the last leaf and returns the tree (no record at all: one empty leaf, the root).
  IndexTree finish();

 private:
  struct Leaf {
    std::string cells;             // each cell: the record's length (varint), the record
    std::vector<uint32_t> ends;    // where each cell ends in cells
    uint32_t used = kLeafHeader;   // bytes the page would use
    void clear();
  };
  static constexpr uint32_t kLeafHeader = 8;

  void write(const Leaf& leaf);
  void add_interior_levels(std::vector<uint64_t> children, std::vector<std::string> keys);

  uint32_t usable_size_;
  std::function<void(std::span<const uint8_t>)> write_leaf_;
  std::vector<uint8_t> page_;
  IndexTree tree_;
  Leaf current_, full_;
  // A leaf that filled waits in full_, and the record after it (divider_) waits for the
  // next: the key between two leaves belongs to neither, and the last leaf must not end
  // up empty (finish then takes full_'s last record for the key instead).
  bool divider_waiting_ = false;
  std::string divider_;
  std::vector<std::string> leaf_keys_;  // the key after each written leaf but the last
};

// Fills page (page_size bytes) with an interior page whose children's page numbers
// page_number gives.
void write_interior_page(const InteriorPage& interior, const std::function<uint32_t(uint64_t)>& page_number,
                         std::span<uint8_t> page, uint32_t usable_size);

// The page numbers from first on, without the page that holds the byte at 1 GiB (SQLite's
// lock byte: that page is never used).
class PageNumbers {
 public:
  PageNumbers(uint32_t first, uint32_t page_size)
      : first_(first), lock_page_(uint32_t((uint64_t{1} << 30) / page_size + 1)) {}
  uint32_t operator()(uint64_t place) const;
  // The first page number after `count` of them.
  uint32_t after(uint64_t count) const { return count == 0 ? first_ : (*this)(count - 1) + 1; }
  uint32_t lock_page() const { return lock_page_; }

 private:
  uint32_t first_, lock_page_;
};

}  // namespace pgnbase::store
