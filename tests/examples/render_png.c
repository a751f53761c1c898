/* The render demo's PNG encoder (examples/render/png_write.c): the checksums against their
 * published check values and a direct computation, and encoded images parsed back chunk by
 * chunk and block by block (CRCs, zlib header, stored block lengths, Adler-32, every pixel),
 * including sizes where the scanlines end exactly on a 65535-byte block boundary. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png_write.h"

static int failures;

#define CHECK(cond, ...)                                            \
    do {                                                            \
        if (!(cond)) {                                              \
            printf("FAIL: %s:%d: %s: ", __FILE__, __LINE__, #cond); \
            printf(__VA_ARGS__);                                    \
            printf("\n");                                           \
            failures++;                                             \
            return;                                                 \
        }                                                           \
    } while (0)

static unsigned long get32(const unsigned char *p) {
    return ((unsigned long)p[0] << 24) | ((unsigned long)p[1] << 16) | ((unsigned long)p[2] << 8) |
           p[3];
}

static void checksums(void) {
    const unsigned char *digits = (const unsigned char *)"123456789";
    CHECK(png_crc32(0, digits, 9) == 0xCBF43926UL, "crc32 = %08lx", png_crc32(0, digits, 9));
    CHECK(png_adler32(1, (const unsigned char *)"Wikipedia", 9) == 0x11E60398UL, "adler32 = %08lx",
          png_adler32(1, (const unsigned char *)"Wikipedia", 9));
    /* Long runs of 0xFF: the batching of the modulo must give what reducing every byte gives. */
    enum { N = 1 << 20 };
    unsigned char *ff = malloc(N);
    memset(ff, 0xFF, N);
    unsigned long a = 1, b = 0;
    for (size_t i = 0; i < N; ++i) a = (a + ff[i]) % 65521, b = (b + a) % 65521;
    unsigned long got = png_adler32(1, ff, N);
    free(ff);
    CHECK(got == ((b << 16) | a), "adler32 of 1 MiB of 0xFF = %08lx, expected %08lx", got,
          (b << 16) | a);
    printf("PASS: CRC-32 and Adler-32 check values, Adler-32 of 1 MiB of 0xFF\n");
}

/* Parses png and compares its pixels with rgb; a failed CHECK returns early. */
static void parse_back(const unsigned char *png, size_t len, const unsigned char *rgb, int w,
                       int h) {
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    CHECK(len > 8 && !memcmp(png, sig, 8), "signature");
    size_t pos = 8, zlen = 0, raw_len = (3 * (size_t)w + 1) * (size_t)h;
    const unsigned char *z = NULL;
    int chunks = 0, ended = 0;
    while (pos < len) {
        CHECK(!ended, "bytes after IEND at %zu", pos);
        CHECK(pos + 12 <= len, "truncated chunk at %zu", pos);
        size_t n = get32(png + pos);
        CHECK(pos + 12 + n <= len, "chunk at %zu overruns the file", pos);
        const unsigned char *type = png + pos + 4, *data = png + pos + 8;
        CHECK(get32(data + n) == png_crc32(0, type, n + 4), "CRC of chunk %.4s",
              (const char *)type);
        if (chunks == 0) {
            CHECK(!memcmp(type, "IHDR", 4) && n == 13, "first chunk %.4s of %zu bytes",
                  (const char *)type, n);
            CHECK(get32(data) == (unsigned long)w && get32(data + 4) == (unsigned long)h, "size");
            CHECK(!memcmp(data + 8, "\x08\x02\x00\x00\x00", 5), "depth, colour type, methods");
        } else if (!memcmp(type, "IDAT", 4)) {
            CHECK(!z, "more than one IDAT");
            z = data, zlen = n;
        } else {
            CHECK(!memcmp(type, "IEND", 4) && n == 0, "unexpected chunk %.4s", (const char *)type);
            ended = 1;
        }
        pos += 12 + n;
        chunks++;
    }
    CHECK(ended && z, "IDAT and IEND present");
    CHECK(zlen >= 6 && z[0] == 0x78 && ((z[0] << 8) | z[1]) % 31 == 0, "zlib header");
    unsigned char *raw = malloc(raw_len + 1);
    size_t zp = 2, got = 0;
    int final = 0;
    while (!final) {
        if (zp + 5 > zlen) break;
        final = z[zp] & 1;
        unsigned type = (z[zp] >> 1) & 3, n = z[zp + 1] | (z[zp + 2] << 8),
                 nn = z[zp + 3] | (z[zp + 4] << 8);
        if (type != 0 || (n ^ nn) != 0xFFFF || zp + 5 + n > zlen || got + n > raw_len) break;
        memcpy(raw + got, z + zp + 5, n);
        got += n, zp += 5 + n;
    }
    int ok = final && got == raw_len && zp + 4 == zlen && get32(z + zp) == png_adler32(1, raw, got);
    for (int y = 0; ok && y < h; ++y)
        ok = raw[y * (3 * (size_t)w + 1)] == 0 &&
             !memcmp(raw + y * (3 * (size_t)w + 1) + 1, rgb + 3 * (size_t)w * y, 3 * (size_t)w);
    free(raw);
    CHECK(ok, "stored blocks (%zu of %zu bytes), Adler-32, filter bytes and pixels", got, raw_len);
}

static void round_trip(int w, int h) {
    size_t n = 3 * (size_t)w * (size_t)h;
    unsigned char *rgb = malloc(n), *png;
    size_t len;
    for (size_t i = 0; i < n; ++i) rgb[i] = (unsigned char)(i * 131 + (i >> 9));
    int failed_before = failures;
    if (png_encode(rgb, w, h, &png, &len) != 0) {
        printf("FAIL: png_encode %dx%d\n", w, h);
        failures++;
    } else {
        parse_back(png, len, rgb, w, h);
        free(png);
    }
    free(rgb);
    if (failures == failed_before)
        printf("PASS: %dx%d (%zu bytes of scanlines) encoded and parsed back\n", w, h,
               (3 * (size_t)w + 1) * h);
}

static void refusals(void) {
    unsigned char px[3] = {1, 2, 3}, *png = NULL;
    size_t len;
    CHECK(png_encode(px, 0, 1, &png, &len) == -1, "an empty image encoded");
    CHECK(png_encode(px, 1, -1, &png, &len) == -1, "a negative height encoded");
    errno = 0;
    CHECK(png_write_file("/nonexistent-dir/x.png", px, 1, 1) == -1 && errno == ENOENT,
          "writing into a missing directory: errno %d", errno);
    printf("PASS: empty images refused, an unwritable path reported with errno\n");
}

/* --write PATH: the 200x120 test image of round_trip, for a decoder that is not ours. */
static int write_sample(const char *path) {
    enum { W = 200, H = 120 };
    static unsigned char rgb[3 * W * H];
    for (size_t i = 0; i < sizeof rgb; ++i) rgb[i] = (unsigned char)(i * 131 + (i >> 9));
    if (png_write_file(path, rgb, W, H) == 0) return 0;
    perror(path);
    return 1;
}

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "--write")) return write_sample(argv[2]);
    checksums();
    round_trip(1, 1);
    round_trip(3, 2);
    round_trip(200, 120); /* 72,120 bytes: two blocks */
    round_trip(28, 771);  /* exactly 65,535 bytes: one full block */
    round_trip(428, 51);  /* exactly 65,535 too, longer rows */
    round_trip(50, 434);  /* 65,534: one byte short of a full block */
    round_trip(85, 256);  /* 65,536: a full block and a block of one byte */
    round_trip(1456, 30); /* 131,070: two full blocks */
    round_trip(640, 480);
    refusals();
    printf("%s\n", failures ? "render_png: FAILED" : "render_png: all passed");
    return failures ? 1 : 0;
}
