/* Which cores each rank may run on, as the kernel sees it: the benchmarks print it so that the
 * report shows the binding each launcher really applied, not the one it was asked for. */
#ifndef PT2PT_AFFINITY_H
#define PT2PT_AFFINITY_H

/* Every rank calls it; rank 0 prints "# cpus: 0 1 | 1 ..." (one CPU list per rank, in rank order).
 */
void pt2pt_print_affinity(void);

#endif
