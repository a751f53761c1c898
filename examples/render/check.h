/* --check: the distributed image against a single-process render of the same scene, byte for
 * byte, and the PNG on disk against the encoding of that render. */
#ifndef RENDER_CHECK_H
#define RENDER_CHECK_H

#include "job.h"

/* Renders the whole image in this process and compares: the pixels, the rays (the reduced total
 * must equal the single-process count) and the bytes of png_path. Prints the verdict; returns
 * 0 when everything is identical, else 1. */
int check_against_serial(const render_job *j, const unsigned char *image, long long rays,
                         const char *png_path);

#endif
