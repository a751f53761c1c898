/* The tile queue: the image cut into squares of a given size (smaller at the right and bottom
 * edges), handed out in order, one at a time, to whichever worker asks next. */
#ifndef RENDER_TILES_H
#define RENDER_TILES_H

#include "trace.h"

typedef struct {
    int width, height, size; /* image and tile size in pixels */
    int cols, rows, count;   /* tiles across, down, in all */
    int next;                /* the next tile to hand out */
} tile_queue;

void tiles_init(tile_queue *q, int width, int height, int size);
/* The next tile's id, or -1 when every tile has been handed out. */
int tiles_take(tile_queue *q);
pixel_rect tiles_rect(const tile_queue *q, int id);
/* Copies a rendered tile (rect.w * rect.h * 3 bytes) into its place in the image. */
void tiles_place(const tile_queue *q, int id, const unsigned char *tile_rgb, unsigned char *image);

#endif
