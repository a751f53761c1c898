/* A bound on every wait of the DPM benchmark: armed before a spawn, a merge or an exchange with
 * the time it may take; when it expires, the process says what it was waiting for (and in which
 * cycle) and exits with status 124, so that a hang (openpmix#2735 under Open MPI here) becomes a
 * line in the results instead of a stuck run. */
#ifndef DPM_BENCH_STALL_H
#define DPM_BENCH_STALL_H

/* who: "parent" or "child"; set once. */
void stall_init(const char *who);
/* From now on at most seconds for what (copied at once), in cycle (-1: none). */
void stall_arm(int seconds, const char *what, long cycle);
void stall_disarm(void);

#endif
