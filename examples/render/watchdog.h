/* Every process of the demo gives up after a deadline instead of hanging, and says what it was
 * waiting for: a spawn that never returns (openpmix#2735 under Open MPI here), a worker that
 * never answers. SIGALRM ends the process with status 124; the launcher then ends the job. */
#ifndef RENDER_WATCHDOG_H
#define RENDER_WATCHDOG_H

/* Arms the deadline for this process; who names it in the message ("master", "worker 3"). */
void watchdog_start(int seconds, const char *who);
/* What the process is about to wait for, for the message (a string literal or static buffer). */
void watchdog_phase(const char *what);

#endif
