/* Command-line options shared by the point-to-point benchmarks. Parsed by hand rather than with
 * getopt_long so that the three MPI implementations' argv handling cannot interfere. */
#include "options.h"
#include "cli_numbers.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "options (BYTES: at most 2^30, k and M suffixes allowed):\n"
    "         --max-size BYTES | --sizes B1,B2,...  --iters N  --skip N  --iters-large N\n"
    "         --skip-large N  --large-from BYTES  --window N  --seconds S (latency, msgrate)\n";

static int complain(int rank, const char *what, const char *value) {
    if (rank == 0) fprintf(stderr, "pt2pt: %s: '%s'\n%s", what, value ? value : "(missing)", usage);
    return -1;
}

/* Sizes up to 1 GiB: messages are passed to MPI as int. */
static int parse_count(const char *text, size_t *out) { return cli_parse_count(text, 1ull << 30, out); }

static int parse_int(const char *text, int min, int *out) {
    size_t v;
    if (parse_count(text, &v) || v < (size_t)min || v > 1000000000u) return -1;
    *out = (int)v;
    return 0;
}

static int parse_seconds(const char *text, double *out) { return cli_parse_seconds(text, 3600, out); }

void pt2pt_powers_of_two(size_t max_size, pt2pt_options *opt) {
    opt->nsizes = 0;
    opt->sizes[opt->nsizes++] = 0;
    for (size_t s = 1; s <= max_size && opt->nsizes < PT2PT_MAX_SIZES; s *= 2)
        opt->sizes[opt->nsizes++] = s;
}

static int parse_sizes(const char *text, pt2pt_options *opt) {
    if (!text) return -1;
    char copy[1024];
    if (strlen(text) >= sizeof copy) return -1;
    strcpy(copy, text);
    opt->nsizes = 0;
    for (char *save, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        size_t v;
        if (opt->nsizes == PT2PT_MAX_SIZES || parse_count(tok, &v)) return -1;
        if (opt->nsizes > 0 && v <= opt->sizes[opt->nsizes - 1]) return -1; /* ascending */
        opt->sizes[opt->nsizes++] = v;
    }
    return opt->nsizes > 0 ? 0 : -1;
}

int pt2pt_parse_options(int argc, char **argv, int rank, pt2pt_options *opt) {
    for (int i = 1; i < argc; i++) {
        const char *name = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        int bad;
        if (!strcmp(name, "--max-size")) {
            size_t max_size;
            bad = parse_count(value, &max_size);
            if (!bad) pt2pt_powers_of_two(max_size, opt);
        } else if (!strcmp(name, "--sizes")) {
            bad = parse_sizes(value, opt);
            if (bad)
                return complain(rank, "--sizes wants ascending byte counts separated by commas",
                                value);
        } else if (!strcmp(name, "--iters"))
            bad = parse_int(value, 1, &opt->iters);
        else if (!strcmp(name, "--skip"))
            bad = parse_int(value, 0, &opt->skip);
        else if (!strcmp(name, "--iters-large"))
            bad = parse_int(value, 1, &opt->iters_large);
        else if (!strcmp(name, "--skip-large"))
            bad = parse_int(value, 0, &opt->skip_large);
        else if (!strcmp(name, "--large-from"))
            bad = parse_count(value, &opt->large_from);
        else if (!strcmp(name, "--window"))
            bad = parse_int(value, 1, &opt->window);
        else if (!strcmp(name, "--seconds"))
            bad = parse_seconds(value, &opt->seconds);
        else
            return complain(rank, "unknown option", name);
        if (bad) return complain(rank, name, value);
        i++;
    }
    return 0;
}

int pt2pt_iters(const pt2pt_options *opt, size_t size) {
    return size > opt->large_from ? opt->iters_large : opt->iters;
}

int pt2pt_skip(const pt2pt_options *opt, size_t size) {
    return size > opt->large_from ? opt->skip_large : opt->skip;
}

size_t pt2pt_max_size(const pt2pt_options *opt) {
    return opt->sizes[opt->nsizes - 1];
}

void pt2pt_print_header(const char *what, const pt2pt_options *opt, int nranks) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    version[strcspn(version, "\n")] = '\0'; /* MPICH's string runs over many lines */
    printf("# %s\n# library: %s\n# ranks: %d, window: %d, ", what, version, nranks, opt->window);
    if (opt->seconds > 0)
        printf("timed for %g s per size after %d (%d above %zu B) warm-up iterations\n",
               opt->seconds, opt->skip, opt->skip_large, opt->large_from);
    else
        printf("iterations (warm-up) up to %zu B: %d (%d), above: %d (%d)\n", opt->large_from,
               opt->iters, opt->skip, opt->iters_large, opt->skip_large);
    fflush(stdout);
}
