/* Parsing with the shared number parsers of bench/lib (cli_numbers). */
#include "dpm_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_numbers.h"

static const char *const modes[] = {"spawn", "rate", "cycles", "merge", "latency", "intra"};

const char *dpm_mode_name(dpm_mode m) {
    return modes[m];
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

int dpm_parse(int argc, char **argv, dpm_options *o) {
    dpm_options d = {MODE_SPAWN, {1}, 1, 10, 2.0, 1000, 100, 60, 0.0};
    *o = d;
    if (argc < 2)
        return bad("MODE", NULL, "is missing (spawn, rate, cycles, merge, latency, intra)");
    size_t m;
    for (m = 0; m < sizeof modes / sizeof *modes && strcmp(argv[1], modes[m]); ++m) {
    }
    if (m == sizeof modes / sizeof *modes)
        return bad("MODE", argv[1], "is not one of spawn, rate, cycles, merge, latency, intra");
    o->mode = (dpm_mode)m;
    for (int i = 2; i < argc; i += 2) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int rc;
        if (!strcmp(a, "--children"))
            rc = parse_list(v, o);
        else if (!strcmp(a, "--iters"))
            rc = parse_int(a, v, 1, 10000000, &o->iters);
        else if (!strcmp(a, "--count"))
            rc = parse_int(a, v, 1, 1000000, &o->count);
        else if (!strcmp(a, "--progress"))
            rc = parse_int(a, v, 1, 1000000, &o->progress);
        else if (!strcmp(a, "--stall"))
            rc = parse_int(a, v, 1, 3600, &o->stall);
        else if (!strcmp(a, "--seconds"))
            rc = cli_parse_seconds(v ? v : "", 3600, &o->seconds)
                     ? bad(a, v, "is not seconds up to 3600")
                     : 0;
        else if (!strcmp(a, "--budget"))
            rc = cli_parse_seconds(v ? v : "", 86400, &o->budget)
                     ? bad(a, v, "is not seconds up to 86400")
                     : 0;
        else
            rc = bad("option", a,
                     "is unknown (--children, --iters, --seconds, --count, --progress, --stall, "
                     "--budget)");
        if (rc) return -1;
    }
    return 0;
}
