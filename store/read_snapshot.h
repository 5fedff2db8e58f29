// One consistent view of the database for a whole read-only command, even while an
// import writes (WAL): BEGIN on construction, the end of the transaction on
// destruction. Declare it before the statements that read, so they end first.
#pragma once

#include "store/database.h"

namespace pgnbase::store {

class ReadSnapshot {
 public:
  explicit ReadSnapshot(Database& db) : db_(db) { db_.exec("BEGIN"); }
  ~ReadSnapshot() {
    if (!db_.in_transaction()) return;
    try {
      db_.exec("COMMIT");  // nothing was written: this only ends the snapshot
    } catch (const StoreError&) {
      // A destructor must not throw; closing the connection ends the transaction anyway.
    }
  }
  ReadSnapshot(const ReadSnapshot&) = delete;
  ReadSnapshot& operator=(const ReadSnapshot&) = delete;

 private:
  Database& db_;
};

}  // namespace pgnbase::store
