/* Numbers on the benchmarks' command lines, parsed the same way by every benchmark program: byte
 * counts with k/M suffixes and seconds, each under the caller's limit. */
#ifndef PLEXUS_BENCH_CLI_NUMBERS_H
#define PLEXUS_BENCH_CLI_NUMBERS_H

#include <stddef.h>

/* A non-negative integer up to max; a trailing k/K or M multiplies by 1024 or 1024*1024.
 * 0 on success, -1 on anything else (sign, junk, overflow, above max). */
int cli_parse_count(const char *text, unsigned long long max, size_t *out);
/* A positive number of seconds up to max. */
int cli_parse_seconds(const char *text, double max, double *out);

#endif
