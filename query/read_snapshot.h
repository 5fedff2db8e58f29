// One consistent view of the database for a whole read-only command, even while an
// import writes (WAL): BEGIN on construction, the end of the transaction on
// destruction. Declare it before the statements that read, so they end first.
#pragma once

#include "store/database.h"

namespace pgnbase::query {

class ReadSnapshot {
 public:
  explicit ReadSnapshot(store::Database& db) : db_(db) { db_.exec("BEGIN"); }
  ~ReadSnapshot() {
    if (!db_.in_transaction()) return;
    try {
      db_.exec("COMMIT");  // nothing was written: this only ends the snapshot
    } catch (const store::StoreError&) {
      // A destructor must not throw; closing the connection ends the transaction anyway.
    }
  }
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  store::Database& db_;
};

}  // namespace pgnbase::query
