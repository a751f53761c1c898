/* A minimal PNG encoder: 8-bit RGB, no filtering, the zlib stream made of stored (uncompressed)
 * deflate blocks, with the CRC-32 of every chunk and the Adler-32 of the stream. No library:
 * Plexus depends on neither libpng nor zlib, and a demo image does not need compression. */
#ifndef RENDER_PNG_WRITE_H
#define RENDER_PNG_WRITE_H

#include <stddef.h>

/* Encodes width x height RGB pixels (rows top to bottom) into a malloc'ed buffer; 0 on success,
 * -1 when out of memory or the image is empty or too large for one PNG. */
int png_encode(const unsigned char *rgb, int width, int height, unsigned char **out, size_t *len);
/* png_encode, then the bytes to path; 0 on success, -1 with errno set. */
int png_write_file(const char *path, const unsigned char *rgb, int width, int height);
/* The checksums, exposed for the tests. */
unsigned long png_crc32(unsigned long crc, const unsigned char *p, size_t n);
unsigned long png_adler32(unsigned long adler, const unsigned char *p, size_t n);

#endif
