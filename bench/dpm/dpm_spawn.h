/* Spawning this program's children for a benchmark, and the measurements built on spawning alone:
 * spawn latency, spawn rate and the long run of spawn / exchange / disconnect cycles. */
#ifndef DPM_BENCH_SPAWN_H
#define DPM_BENCH_SPAWN_H

#include <mpi.h>

#include "dpm_options.h"

/* Collective over parents (root 0): spawns n copies of this program with argv (NULL-terminated,
 * "--child" first). 0 on success; else a message naming every failed child and -1. */
int dpm_spawn_children(MPI_Comm parents, int n, char **argv, MPI_Comm *inter);

/* The spawn's argv for children in mode: "--child MODE" and the options they need, from o
 * (the children parse it as the parent parses its own). Static storage: valid until the next call. */
char **dpm_child_argv(const char *mode, const dpm_options *o);

int bench_spawn_latency(const dpm_options *o);
int bench_spawn_rate(const dpm_options *o);
int bench_cycles(const dpm_options *o);
/* The children's side of the three: disconnect at once, or answer one exchange first. */
int child_spawned(MPI_Comm parent, const dpm_options *o);

#endif
