/* Message buffers of the point-to-point benchmarks: page-aligned and touched before timing, and a
 * data pattern each benchmark checks once per size before it times that size. */
#ifndef PT2PT_BUFFERS_H
#define PT2PT_BUFFERS_H

#include <stddef.h>

/* A page-aligned buffer of at least `size` bytes (one byte when size is 0), filled with `fill` so
 * that its pages are touched before anything is timed. Aborts the job when memory runs out. */
void *pt2pt_alloc(size_t size, int fill);

/* Writes and checks a pattern that depends on the size and on who sent it: a benchmark exchanges
 * each size once with checking before timing it, so wrong data cannot pass for a fast run. */
void pt2pt_fill(unsigned char *buf, size_t size, int sender);
void pt2pt_check(const unsigned char *buf, size_t size, int sender, int receiver,
                 const char *bench);

#endif
