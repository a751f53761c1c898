/* The master: spawns the workers, serves the tile queue, grows the crew mid-render, gathers the
 * statistics, writes the PNG and reports. */
#ifndef RENDER_MASTER_H
#define RENDER_MASTER_H

#include "options.h"

/* Returns the process's exit status: 0, or 1 after a message on stderr. */
int master_main(const render_options *o);

#endif
