/* Parsing with the shared number parsers of bench/lib (cli_numbers). */
#include "dpm_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_numbers.h"

static const char *const modes[] = {"spawn", "rate",    "cycles",  "merge",
                                    "latency", "intra", "connect", "coll"};
static const char *const all_colls = "bcast,reduce,allreduce,reduce_scatter,allgather,alltoall,barrier";

const char *dpm_mode_name(dpm_mode m) {
    return modes[m];
}

int dpm_list_has(const char *list, const char *name) {
    size_t n = strlen(name);
    for (const char *p = list; (p = strstr(p, name)); p += n)
        if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) return 1;
    return 0;
}

static int bad(const char *opt, const char *value, const char *why) {
    fprintf(stderr, "dpm_bench: %s: '%s' %s\n", opt, value ? value : "(missing)", why);
    return -1;
}

static int parse_int(const char *opt, const char *text, int lo, int hi, int *out) {
    size_t v;
    if (!text || cli_parse_count(text, (unsigned long long)hi, &v) != 0 || (int)v < lo) {
        char why[64];
        snprintf(why, sizeof why, "is not a number from %d to %d", lo, hi);
        return bad(opt, text, why);
    }
    *out = (int)v;
    return 0;
}

static int parse_list(const char *text, dpm_options *o) {
    char buf[128];
    if (!text || strlen(text) >= sizeof buf)
        return bad("--children", text, "is not a list like 1,2,4,8");
    strcpy(buf, text);
    o->nchildren = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        if (o->nchildren == DPM_MAX_COUNTS)
            return bad("--children", text, "has more than 8 counts");
        if (parse_int("--children", tok, 1, 64, &o->children[o->nchildren++]) != 0) return -1;
    }
    return o->nchildren ? 0 : bad("--children", text, "is empty");
}

/* Sizes from 1 byte to 16 MiB; the largest buffers are allocated once per run. */
static int parse_sizes(const char *text, dpm_options *o) {
    char buf[512];
    if (!text || strlen(text) >= sizeof buf)
        return bad("--sizes", text, "is not a list like 8,1k,4M");
    strcpy(buf, text);
    o->nsizes = 0;
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        size_t v;
        if (o->nsizes == DPM_MAX_SIZES) return bad("--sizes", text, "has more than 32 sizes");
        if (cli_parse_count(tok, 16u << 20, &v) != 0 || v == 0)
            return bad("--sizes", tok, "is not a size from 1 to 16M");
        o->sizes[o->nsizes++] = (long)v;
    }
    return o->nsizes ? 0 : bad("--sizes", text, "is empty");
}

static int parse_colls(const char *text, dpm_options *o) {
    char buf[128];
    if (!text || strlen(text) >= sizeof buf) return bad("--colls", text, "is too long");
    strcpy(buf, text);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
        if (!dpm_list_has(all_colls, tok))
            return bad("--colls", tok, "is not one of bcast, reduce, allreduce, reduce_scatter, "
                                       "allgather, alltoall, barrier");
    strcpy(o->colls, text);
    return 0;
}

static int parse_option(const char *a, const char *v, dpm_options *o) {
    if (!strcmp(a, "--children")) return parse_list(v, o);
    if (!strcmp(a, "--sizes")) return parse_sizes(v, o);
    if (!strcmp(a, "--colls")) return parse_colls(v, o);
    if (!strcmp(a, "--iters")) return parse_int(a, v, 1, 10000000, &o->iters);
    if (!strcmp(a, "--count")) return parse_int(a, v, 1, 1000000, &o->count);
    if (!strcmp(a, "--progress")) return parse_int(a, v, 1, 1000000, &o->progress);
    if (!strcmp(a, "--stall")) return parse_int(a, v, 1, 3600, &o->stall);
    if (!strcmp(a, "--seconds"))
        return cli_parse_seconds(v ? v : "", 3600, &o->seconds) ? bad(a, v, "is not seconds up to 3600")
                                                                : 0;
    if (!strcmp(a, "--budget"))
        return cli_parse_seconds(v ? v : "", 86400, &o->budget)
                   ? bad(a, v, "is not seconds up to 86400")
                   : 0;
    return bad("option", a,
               "is unknown (--children, --sizes, --colls, --iters, --seconds, --count, --progress, "
               "--stall, --budget)");
}

int dpm_parse(int argc, char **argv, dpm_options *o) {
    dpm_options d = {MODE_SPAWN, {1}, 1, {8}, 1, "", 10, 2.0, 1000, 100, 60, 0.0};
    *o = d;
    strcpy(o->colls, all_colls);
    if (argc < 2)
        return bad("MODE", NULL,
                   "is missing (spawn, rate, cycles, merge, latency, intra, connect, coll)");
    size_t m;
    for (m = 0; m < sizeof modes / sizeof *modes && strcmp(argv[1], modes[m]); ++m) {
    }
    if (m == sizeof modes / sizeof *modes)
        return bad("MODE", argv[1],
                   "is not one of spawn, rate, cycles, merge, latency, intra, connect, coll");
    o->mode = (dpm_mode)m;
    for (int i = 2; i < argc; i += 2)
        if (parse_option(argv[i], i + 1 < argc ? argv[i + 1] : NULL, o) != 0) return -1;
    return 0;
}
