/* The camera and the tracer: which ray goes through which pixel, and what colour comes back.
 * A pixel's colour depends only on the scene, the camera and the pixel's coordinates, never on
 * which tile or process renders it: that is what lets the master compare a distributed render
 * with a single-process one byte for byte. */
#ifndef RENDER_TRACE_H
#define RENDER_TRACE_H

#include "scene.h"

typedef struct {
    vec3 eye, forward, right, up; /* orthonormal basis */
    double half_w, half_h;        /* half extent of the image plane at distance 1 */
    int width, height;
} camera;

/* A rectangle of pixels: columns x0 .. x0+w-1, rows y0 .. y0+h-1. */
typedef struct {
    int x0, y0, w, h;
} pixel_rect;

typedef struct {
    int samples;   /* samples x samples sub-pixel rays on a regular grid */
    int max_depth; /* reflections followed at most */
} trace_params;

void camera_look_at(camera *c, vec3 eye, vec3 target, double fov_deg, int width, int height);
/* The demo's camera for an image of width x height. */
void camera_demo(camera *c, int width, int height);

/* Renders r into rgb (r.w * r.h * 3 bytes, rows top to bottom) and returns the number of rays
 * traced (primary, reflected and shadow rays). */
unsigned long long trace_rect(const scene *s, const camera *c, trace_params p, pixel_rect r,
                              unsigned char *rgb);

#endif
