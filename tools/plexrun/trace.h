// PLEXRUN_TRACE=1: one stderr line per PMIx upcall and per launch step, for debugging the
// launcher and for tests that must see an upcall happen.
#pragma once

namespace plexrun {

bool tracing();
void trace(const char *format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace plexrun
