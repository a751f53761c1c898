// plexrun takes signals synchronously: blocked in every thread (so before libpmix starts
// its own) and read from a signalfd by the event loop.
#pragma once

#include <signal.h>

#include "unique_fd.h"

namespace plexrun {

// SIGCHLD, the signals forwarded to the ranks, and SIGPIPE ignored. Call first in main.
void take_signals_synchronously();
UniqueFd open_signalfd();
// "SIGTERM" for SIGTERM, "signal 42" for a number without a name.
const char *signal_abbrev(int sig);

}  // namespace plexrun
