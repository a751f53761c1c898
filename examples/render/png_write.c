/* PNG = signature, IHDR, one IDAT holding a zlib stream of stored deflate blocks, IEND
 * (RFC 2083 for PNG, RFC 1950/1951 for zlib and deflate). */
#include "png_write.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STORED_MAX = 65535 }; /* bytes in one stored deflate block */

unsigned long png_crc32(unsigned long crc, const unsigned char *p, size_t n) {
    static unsigned long table[256];
    static int ready;
    if (!ready) {
        for (unsigned long i = 0; i < 256; ++i) {
            unsigned long c = i;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320UL ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        ready = 1;
    }
    crc ^= 0xFFFFFFFFUL;
    while (n--) crc = table[(crc ^ *p++) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFUL;
}

unsigned long png_adler32(unsigned long adler, const unsigned char *p, size_t n) {
    unsigned long a = adler & 0xFFFF, b = (adler >> 16) & 0xFFFF;
    while (n) {
        /* 5552 bytes is the most that cannot overflow 32 bits before the modulo (zlib's NMAX). */
        size_t run = n < 5552 ? n : 5552;
        n -= run;
        while (run--) {
            a += *p++;
            b += a;
        }
        a %= 65521;
        b %= 65521;
    }
    return (b << 16) | a;
}

static unsigned char *put32(unsigned char *p, unsigned long v) {
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
    return p + 4;
}

/* Writes a chunk whose data (len bytes) is already at p + 8; returns the end of the chunk. */
static unsigned char *close_chunk(unsigned char *p, const char type[4], size_t len) {
    put32(p, (unsigned long)len);
    memcpy(p + 4, type, 4);
    return put32(p + 8 + len, png_crc32(0, p + 4, len + 4));
}

/* The zlib stream of the filtered scanlines (filter byte 0, then the row) at p; returns its end. */
static unsigned char *put_zlib(unsigned char *p, const unsigned char *rgb, int width, int height) {
    size_t row = 3 * (size_t)width, raw = (row + 1) * (size_t)height, left = raw;
    unsigned long adler = 1;
    int y = 0;
    size_t in_row = 0; /* bytes of row y already emitted, the filter byte counting as one */
    *p++ = 0x78;       /* deflate, 32 KiB window */
    *p++ = 0x01;       /* no preset dictionary, fastest; 0x7801 is a multiple of 31 */
    while (left) {
        size_t block = left < STORED_MAX ? left : STORED_MAX;
        left -= block;
        *p++ = left ? 0 : 1; /* BFINAL on the last block, BTYPE 00: stored */
        *p++ = (unsigned char)(block & 0xFF);
        *p++ = (unsigned char)(block >> 8);
        *p++ = (unsigned char)(~block & 0xFF);
        *p++ = (unsigned char)((~block >> 8) & 0xFF);
        while (block) {
            const unsigned char *src;
            size_t n;
            static const unsigned char filter_none = 0;
            if (in_row == 0) {
                src = &filter_none;
                n = 1;
            } else {
                src = rgb + (size_t)y * row + (in_row - 1);
                n = row + 1 - in_row;
                if (n > block) n = block;
            }
            memcpy(p, src, n);
            adler = png_adler32(adler, src, n);
            p += n;
            block -= n;
            in_row += n;
            if (in_row == row + 1) in_row = 0, ++y;
        }
    }
    return put32(p, adler);
}

int png_encode(const unsigned char *rgb, int width, int height, unsigned char **out, size_t *len) {
    if (width <= 0 || height <= 0) return -1;
    size_t raw = (3 * (size_t)width + 1) * (size_t)height;
    size_t blocks = raw / STORED_MAX + 1;
    size_t zlen = 2 + raw + 5 * blocks + 4;
    if (zlen > 0x7FFFFFFFUL) return -1; /* a chunk's length is 31 bits */
    size_t total = 8 + (12 + 13) + (12 + zlen) + 12;
    unsigned char *buf = malloc(total), *p = buf;
    if (!buf) return -1;
    static const unsigned char signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    memcpy(p, signature, 8);
    p += 8;
    unsigned char *d = p + 8;
    d = put32(d, (unsigned long)width);
    d = put32(d, (unsigned long)height);
    memcpy(d, "\x08\x02\x00\x00\x00", 5); /* 8 bits, RGB, deflate, adaptive filters, no interlace */
    p = close_chunk(p, "IHDR", 13);
    unsigned char *zend = put_zlib(p + 8, rgb, width, height);
    p = close_chunk(p, "IDAT", (size_t)(zend - (p + 8)));
    p = close_chunk(p, "IEND", 0);
    *out = buf;
    *len = (size_t)(p - buf);
    return 0;
}

int png_write_file(const char *path, const unsigned char *rgb, int width, int height) {
    unsigned char *png;
    size_t len;
    if (png_encode(rgb, width, height, &png, &len) != 0) {
        errno = ENOMEM;
        return -1;
    }
    FILE *f = fopen(path, "wb");
    if (!f) {
        free(png);
        return -1;
    }
    size_t put = fwrite(png, 1, len, f);
    int saved = errno;
    free(png);
    if (fclose(f) != 0 || put != len) {
        if (put != len) errno = saved;
        return -1;
    }
    return 0;
}
