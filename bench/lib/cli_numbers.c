/* See cli_numbers.h. */
#include "cli_numbers.h"

#include <errno.h>
#include <stdlib.h>

int cli_parse_count(const char *text, unsigned long long max, size_t *out) {
    if (!text || !*text || *text == '-') return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || end == text) return -1;
    if (*end == 'k' || *end == 'K')
        v <<= 10, end++;
    else if (*end == 'M')
        v <<= 20, end++;
    if (*end || v > max) return -1;
    *out = (size_t)v;
    return 0;
}

int cli_parse_seconds(const char *text, double max, double *out) {
    if (!text) return -1;
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !(v > 0 && v <= max)) return -1;
    *out = v;
    return 0;
}
