/* The single-process reference and the comparisons, each failure naming where it differs. */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png_write.h"
#include "watchdog.h"

static int first_difference(const unsigned char *a, const unsigned char *b, size_t n, size_t *at) {
    for (size_t i = 0; i < n; ++i)
        if (a[i] != b[i]) {
            *at = i;
            return 1;
        }
    return 0;
}

/* The whole file into a malloc'ed buffer; NULL when it cannot be read. */
static unsigned char *slurp(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    unsigned char *buf = size >= 0 ? malloc((size_t)size + 1) : NULL;
    int ok = buf && fseek(f, 0, SEEK_SET) == 0 && fread(buf, 1, (size_t)size, f) == (size_t)size;
    fclose(f);
    if (!ok) {
        free(buf);
        return NULL;
    }
    *len = (size_t)size;
    return buf;
}

static int compare_pixels(const render_job *j, const unsigned char *image,
                          const unsigned char *ref) {
    int w = j->cfg[CFG_WIDTH];
    size_t n = (size_t)w * (size_t)j->cfg[CFG_HEIGHT] * 3, at;
    if (!first_difference(image, ref, n, &at)) {
        printf("check: pixels identical to a single-process render (%zu bytes)\n", n);
        return 0;
    }
    size_t px = at / 3;
    printf("check FAILED: pixel (%zu, %zu) channel %zu is %u, the single-process render has %u\n",
           px % (size_t)w, px / (size_t)w, at % 3, image[at], ref[at]);
    return 1;
}

static int compare_png(const unsigned char *ref, int w, int h, const char *png_path) {
    unsigned char *want, *got;
    size_t want_len, got_len, at;
    if (png_encode(ref, w, h, &want, &want_len) != 0) {
        printf("check FAILED: cannot encode the reference image\n");
        return 1;
    }
    got = slurp(png_path, &got_len);
    int bad = !got || got_len != want_len || first_difference(got, want, want_len, &at);
    if (!got)
        printf("check FAILED: cannot read back %s\n", png_path);
    else if (got_len != want_len)
        printf("check FAILED: %s has %zu bytes, the reference PNG %zu\n", png_path, got_len,
               want_len);
    else if (bad)
        printf("check FAILED: %s differs from the reference PNG at byte %zu\n", png_path, at);
    else
        printf("check: %s identical to the single-process render's PNG (%zu bytes)\n", png_path,
               got_len);
    free(want);
    free(got);
    return bad;
}

int check_against_serial(const render_job *j, const unsigned char *image, long long rays,
                         const char *png_path) {
    int w = j->cfg[CFG_WIDTH], h = j->cfg[CFG_HEIGHT];
    unsigned char *ref = malloc((size_t)w * (size_t)h * 3);
    if (!ref) return 1;
    pixel_rect all = {0, 0, w, h};
    watchdog_phase("the single-process reference render (--check)");
    long long serial_rays = (long long)trace_rect(&j->scene, &j->cam, j->params, all, ref);
    int bad = compare_pixels(j, image, ref);
    if (serial_rays == rays) {
        printf("check: %lld rays, as many as the single-process render traced\n", rays);
    } else {
        printf("check FAILED: the workers traced %lld rays, the single-process render %lld\n", rays,
               serial_rays);
        bad = 1;
    }
    bad |= compare_png(ref, w, h, png_path);
    free(ref);
    printf("check: %s\n", bad ? "FAILED" : "identical");
    return bad;
}
