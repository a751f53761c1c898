/* Whitted-style tracing: direct light with shadows and Phong highlights, mirror reflections up
 * to a depth, a regular grid of sub-pixel samples, and gamma 2.2 on output. */
#include "trace.h"

#include <math.h>
#include <stddef.h>

#define PI 3.14159265358979323846

void camera_look_at(camera *c, vec3 eye, vec3 target, double fov_deg, int width, int height) {
    c->eye = eye;
    c->forward = v_norm(v_sub(target, eye));
    c->right = v_norm(v_cross(c->forward, v3(0, 1, 0)));
    c->up = v_cross(c->right, c->forward);
    c->half_w = tan(fov_deg * PI / 360.0);
    c->half_h = c->half_w * (double)height / (double)width;
    c->width = width;
    c->height = height;
}

void camera_demo(camera *c, int width, int height) {
    camera_look_at(c, v3(0.0, 2.6, 7.5), v3(0.0, 0.9, 0.0), 50.0, width, height);
}

typedef struct {
    const scene *s;
    unsigned long long rays;
} tracer;

static vec3 trace(tracer *tr, vec3 o, vec3 d, int depth);

static vec3 direct_light(tracer *tr, const hit *h, vec3 d) {
    const scene *s = tr->s;
    vec3 c = v_mul(s->ambient, h->color);
    vec3 from = v_add(h->point, v_scale(h->normal, 1e-4));
    for (int i = 0; i < s->nlights; ++i) {
        vec3 to_light = v_sub(s->lights[i].position, from);
        double dist = v_length(to_light);
        vec3 l = v_scale(to_light, 1.0 / dist);
        double lambert = v_dot(h->normal, l);
        if (lambert <= 0) continue;
        tr->rays++;
        if (scene_occluded(s, from, l, dist)) continue;
        vec3 diffuse = v_scale(v_mul(h->color, s->lights[i].color), h->mat->diffuse * lambert);
        double spec = v_dot(v_reflect(l, h->normal), d);
        spec = spec > 0 ? h->mat->specular * pow(spec, h->mat->shininess) : 0.0;
        c = v_add(c, v_add(diffuse, v_scale(s->lights[i].color, spec)));
    }
    return c;
}

static vec3 trace(tracer *tr, vec3 o, vec3 d, int depth) {
    hit h;
    tr->rays++;
    if (!scene_intersect(tr->s, o, d, 1e30, &h)) return scene_sky(tr->s, d);
    vec3 c = direct_light(tr, &h, d);
    double k = h.mat->reflect;
    if (k <= 0 || depth <= 0) return c;
    vec3 r = v_reflect(d, h.normal);
    vec3 bounced = trace(tr, v_add(h.point, v_scale(h.normal, 1e-4)), r, depth - 1);
    return v_add(v_scale(c, 1.0 - k), v_scale(v_mul(bounced, h.color), k));
}

static unsigned char to_byte(double linear) {
    if (linear <= 0) return 0;
    if (linear >= 1) return 255;
    return (unsigned char)lround(255.0 * pow(linear, 1.0 / 2.2));
}

static vec3 pixel(tracer *tr, const camera *c, trace_params p, int x, int y) {
    vec3 sum = v3(0, 0, 0);
    for (int sy = 0; sy < p.samples; ++sy)
        for (int sx = 0; sx < p.samples; ++sx) {
            double u = ((x + (sx + 0.5) / p.samples) / c->width * 2.0 - 1.0) * c->half_w;
            double v = (1.0 - (y + (sy + 0.5) / p.samples) / c->height * 2.0) * c->half_h;
            vec3 d = v_norm(v_add(c->forward, v_add(v_scale(c->right, u), v_scale(c->up, v))));
            sum = v_add(sum, trace(tr, c->eye, d, p.max_depth));
        }
    return v_scale(sum, 1.0 / (p.samples * p.samples));
}

unsigned long long trace_rect(const scene *s, const camera *c, trace_params p, pixel_rect r,
                              unsigned char *rgb) {
    tracer tr = {s, 0};
    for (int y = 0; y < r.h; ++y)
        for (int x = 0; x < r.w; ++x) {
            vec3 col = pixel(&tr, c, p, r.x0 + x, r.y0 + y);
            unsigned char *px = rgb + 3 * ((size_t)y * r.w + x);
            px[0] = to_byte(col.x);
            px[1] = to_byte(col.y);
            px[2] = to_byte(col.z);
        }
    return tr.rays;
}
