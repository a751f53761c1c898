/* Command line of the collective benchmark (see coll_options.h). */
#include "coll_options.h"

#include "collectives.h"
#include "cli_numbers.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: coll_bench [--colls LIST] [--sizes B1,B2,...] [--seconds S] [--batches N]\n"
    "                  [--min-iters N] [--max-iters N] [--skip N] [--mode batches|osu]\n"
    "  LIST: some of barrier,bcast,reduce,allreduce,allgather,alltoall (default: all)\n"
    "  sizes: ascending byte counts, multiples of 4, at most 64M; k and M suffixes allowed\n"
    "         (per-rank block for allgather and alltoall)\n"
    "  --mode osu: per size --skip untimed then --max-iters timed calls, each followed by\n"
    "         MPI_Barrier; the average over the ranks of their mean (osu_bcast's loop)\n";

static int complain(int rank, const char *what, const char *value) {
    if (rank == 0)
        fprintf(stderr, "coll_bench: %s: '%s'\n%s", what, value ? value : "(missing)", usage);
    return -1;
}

/* Sizes up to 64 MiB. */
static int parse_count(const char *text, size_t *out) { return cli_parse_count(text, 64ull << 20, out); }

static int parse_int(const char *text, int min, int *out) {
    size_t v;
    if (parse_count(text, &v) || v < (size_t)min) return -1;
    *out = (int)v;
    return 0;
}

static int parse_seconds(const char *text, double *out) { return cli_parse_seconds(text, 600, out); }

static int parse_sizes(const char *text, coll_options *opt) {
    char copy[1024];
    if (!text || strlen(text) >= sizeof copy) return -1;
    strcpy(copy, text);
    opt->nsizes = 0;
    for (char *save, *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        size_t v;
        if (opt->nsizes == COLL_MAX_SIZES || parse_count(tok, &v) || v == 0 || v % 4) return -1;
        if (opt->nsizes > 0 && v <= opt->sizes[opt->nsizes - 1]) return -1;
        opt->sizes[opt->nsizes++] = v;
    }
    return opt->nsizes > 0 ? 0 : -1;
}

/* The names point into argv (or the static default list), which outlive the run. */
static int parse_colls(char *text, coll_options *opt) {
    if (!text) return -1;
    opt->ncolls = 0;
    for (char *save, *tok = strtok_r(text, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        if (opt->ncolls == COLL_MAX_KINDS || !coll_find(tok)) return -1;
        opt->colls[opt->ncolls++] = tok;
    }
    return opt->ncolls > 0 ? 0 : -1;
}

static void defaults(coll_options *opt) {
    static const char *const all[] = {"barrier",   "bcast",     "reduce",
                                      "allreduce", "allgather", "alltoall"};
    static const size_t sizes[] = {8, 64, 256, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10,
                                   1 << 20};
    memset(opt, 0, sizeof *opt);
    for (size_t k = 0; k < sizeof all / sizeof all[0]; k++) opt->colls[opt->ncolls++] = all[k];
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        opt->sizes[opt->nsizes++] = sizes[s];
    opt->seconds = 0.25;
    opt->batches = 5;
    opt->min_iters = 1;
    opt->max_iters = 200; /* 5 x 200: OSU's 1000 iterations for small messages */
    opt->skip = 10;
}

int coll_parse_options(int argc, char **argv, int rank, coll_options *opt) {
    defaults(opt);
    for (int i = 1; i < argc; i++) {
        const char *name = argv[i];
        char *value = i + 1 < argc ? argv[i + 1] : NULL;
        int bad;
        if (!strcmp(name, "--colls")) {
            bad = parse_colls(value, opt);
            if (bad) return complain(rank, "--colls wants names from the list", value);
        } else if (!strcmp(name, "--sizes")) {
            bad = parse_sizes(value, opt);
            if (bad) return complain(rank, "--sizes wants ascending multiples of 4", value);
        } else if (!strcmp(name, "--seconds"))
            bad = parse_seconds(value, &opt->seconds);
        else if (!strcmp(name, "--batches")) {
            bad = parse_int(value, 1, &opt->batches) || opt->batches > COLL_MAX_BATCHES;
        } else if (!strcmp(name, "--min-iters"))
            bad = parse_int(value, 1, &opt->min_iters);
        else if (!strcmp(name, "--max-iters"))
            bad = parse_int(value, 1, &opt->max_iters);
        else if (!strcmp(name, "--skip"))
            bad = parse_int(value, 0, &opt->skip);
        else if (!strcmp(name, "--mode")) {
            bad = !value || (strcmp(value, "osu") && strcmp(value, "batches"));
            if (bad) return complain(rank, "--mode wants batches or osu", value);
            opt->osu = !strcmp(value, "osu");
        }
        else
            return complain(rank, "unknown option", name);
        if (bad) return complain(rank, name, value);
        i++;
    }
    if (opt->min_iters > opt->max_iters)
        return complain(rank, "--min-iters is above --max-iters", "");
    return 0;
}

size_t coll_max_size(const coll_options *opt) {
    return opt->sizes[opt->nsizes - 1];
}
