// Files that SIGINT, SIGTERM or SIGHUP must not leave behind (an output's temporary, a
// database built under a private name): a handler removes the named files, then lets the
// signal end the process as it would have. Only kill -9 leaves them.
//
// The handler only unlinks paths from fixed buffers and calls sigaction and raise, as a
// signal handler must; it is installed on the first use, and a signal the process ignores
// (nohup) stays ignored.
#pragma once

#include <string>

namespace pgnbase::io {

// Names path for the handler; returns its slot, or -1 when all 8 are taken or the path
// is too long (the file may then stay).
int remove_on_signal(const std::string& path);
// The file is no longer the handler's to remove (committed, renamed or removed). -1: none.
void forget_on_signal(int slot);

}  // namespace pgnbase::io
