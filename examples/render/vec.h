/* Three-component vectors for the ray tracer: points, directions and RGB colours alike.
 * Everything is inline and in double precision, so a pixel's value depends only on its inputs. */
#ifndef RENDER_VEC_H
#define RENDER_VEC_H

#include <math.h>

typedef struct {
    double x, y, z;
} vec3;

static inline vec3 v3(double x, double y, double z) {
    vec3 v = {x, y, z};
    return v;
}
static inline vec3 v_add(vec3 a, vec3 b) {
    return v3(a.x + b.x, a.y + b.y, a.z + b.z);
}
static inline vec3 v_sub(vec3 a, vec3 b) {
    return v3(a.x - b.x, a.y - b.y, a.z - b.z);
}
static inline vec3 v_scale(vec3 a, double s) {
    return v3(a.x * s, a.y * s, a.z * s);
}
static inline vec3 v_mul(vec3 a, vec3 b) {
    return v3(a.x * b.x, a.y * b.y, a.z * b.z);
}
static inline double v_dot(vec3 a, vec3 b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
static inline vec3 v_cross(vec3 a, vec3 b) {
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double v_length(vec3 a) {
    return sqrt(v_dot(a, a));
}
static inline vec3 v_norm(vec3 a) {
    return v_scale(a, 1.0 / v_length(a));
}
/* d reflected about the unit normal n. */
static inline vec3 v_reflect(vec3 d, vec3 n) {
    return v_sub(d, v_scale(n, 2.0 * v_dot(d, n)));
}

#endif
