/* Command-line parsing: every value range-checked, every complaint naming its option. */
#include "options.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: render [--workers N] [--grow K] [--grow-at F] [--size WxH] [--tile PX]\n"
    "              [--samples S] [--depth D] [--output PATH] [--check] [--timeout S]\n"
    "  A master spawns N workers (MPI_Comm_spawn), hands out tiles on demand and writes a PNG;\n"
    "  --grow K spawns K more once the share F of the tiles is done (default 0.3); --check\n"
    "  compares the image with a single-process render byte for byte. Run it as one process:\n"
    "  mpirun -n 1 render --workers 4 --grow 2\n";

static int bad(const char *opt, const char *value, const char *why) {
    fprintf(stderr, "render: %s: '%s' %s\n%s", opt, value ? value : "", why, usage);
    return -1;
}

static int parse_int(const char *opt, const char *text, int lo, int hi, int *out) {
    char *end;
    errno = 0;
    long v = text ? strtol(text, &end, 10) : 0;
    if (!text || errno || end == text || *end) return bad(opt, text, "is not an integer");
    if (v < lo || v > hi) {
        char why[64];
        snprintf(why, sizeof why, "is out of range %d..%d", lo, hi);
        return bad(opt, text, why);
    }
    *out = (int)v;
    return 0;
}

static int parse_size(const char *text, int *w, int *h) {
    char *x = text ? strchr(text, 'x') : NULL;
    char buf[32];
    if (!x || (size_t)(x - text) >= sizeof buf) return bad("--size", text, "is not WIDTHxHEIGHT");
    memcpy(buf, text, (size_t)(x - text));
    buf[x - text] = '\0';
    if (parse_int("--size", buf, 1, 16384, w) || parse_int("--size", x + 1, 1, 16384, h)) return -1;
    return 0;
}

static int parse_fraction(const char *text, double *out) {
    char *end;
    errno = 0;
    double v = text ? strtod(text, &end) : 0;
    if (!text || errno || end == text || *end || !(v >= 0.0 && v <= 1.0))
        return bad("--grow-at", text, "is not a share of the tiles between 0 and 1");
    *out = v;
    return 0;
}

int render_parse_options(int argc, char **argv, render_options *o) {
    render_options d = {2, 0, 0.3, 640, 480, 32, 2, 4, 300, 0, "render.png"};
    *o = d;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = 0, takes = 1;
        if (!strcmp(a, "--workers"))
            rc = parse_int(a, v, 0, 1024, &o->workers);
        else if (!strcmp(a, "--grow"))
            rc = parse_int(a, v, 0, 1024, &o->grow);
        else if (!strcmp(a, "--grow-at"))
            rc = parse_fraction(v, &o->grow_at);
        else if (!strcmp(a, "--size"))
            rc = parse_size(v, &o->width, &o->height);
        else if (!strcmp(a, "--tile"))
            rc = parse_int(a, v, 1, 1024, &o->tile);
        else if (!strcmp(a, "--samples"))
            rc = parse_int(a, v, 1, 16, &o->samples);
        else if (!strcmp(a, "--depth"))
            rc = parse_int(a, v, 0, 16, &o->depth);
        else if (!strcmp(a, "--timeout"))
            rc = parse_int(a, v, 1, 86400, &o->timeout);
        else if (!strcmp(a, "--output")) {
            if (!v || !*v) rc = bad(a, v, "is not a file name");
            o->output = v;
        } else if (!strcmp(a, "--check"))
            o->check = 1, takes = 0;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 1;
        } else {
            fprintf(stderr, "render: unknown option '%s'\n%s", a, usage);
            return -1;
        }
        if (rc) return -1;
        i += takes;
    }
    if (o->grow > 0 && o->workers == 0) {
        fprintf(stderr,
                "render: --grow %d needs --workers of at least 1 (the grown workers join "
                "them)\n",
                o->grow);
        return -1;
    }
    return 0;
}
