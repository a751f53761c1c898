/* Tile geometry and the queue's cursor. */
#include "tiles.h"

#include <string.h>

void tiles_init(tile_queue *q, int width, int height, int size) {
    q->width = width;
    q->height = height;
    q->size = size;
    q->cols = (width + size - 1) / size;
    q->rows = (height + size - 1) / size;
    q->count = q->cols * q->rows;
    q->next = 0;
}

int tiles_take(tile_queue *q) {
    return q->next < q->count ? q->next++ : -1;
}

pixel_rect tiles_rect(const tile_queue *q, int id) {
    pixel_rect r;
    r.x0 = (id % q->cols) * q->size;
    r.y0 = (id / q->cols) * q->size;
    r.w = q->width - r.x0 < q->size ? q->width - r.x0 : q->size;
    r.h = q->height - r.y0 < q->size ? q->height - r.y0 : q->size;
    return r;
}

void tiles_place(const tile_queue *q, int id, const unsigned char *tile_rgb, unsigned char *image) {
    pixel_rect r = tiles_rect(q, id);
    for (int y = 0; y < r.h; ++y)
        memcpy(image + 3 * ((size_t)(r.y0 + y) * q->width + r.x0), tile_rgb + 3 * (size_t)y * r.w,
               3 * (size_t)r.w);
}
