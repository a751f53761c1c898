/* The demo scene and the intersection queries: analytic sphere and plane hits, nearest first. */
#include "scene.h"

#include <math.h>
#include <string.h>

/* Hits closer than this are the surface the ray started from (self-shadowing acne otherwise). */
#define HIT_EPS 1e-6
#define PI 3.14159265358979323846

static material matte(vec3 color) {
    material m = {color, color, 0.0, 0.9, 0.3, 32.0, 0.0};
    return m;
}

static material mirror(vec3 tint, double reflect) {
    material m = {tint, tint, 0.0, 0.4, 0.8, 128.0, reflect};
    return m;
}

static void add_sphere(scene *s, vec3 center, double radius, material m) {
    if (s->nspheres == SCENE_MAX_SPHERES) return;
    sphere *sp = &s->spheres[s->nspheres++];
    sp->center = center;
    sp->radius = radius;
    sp->mat = m;
}

void scene_build_demo(scene *s) {
    memset(s, 0, sizeof *s);
    material checkered = {v3(0.85, 0.85, 0.85), v3(0.15, 0.2, 0.3), 1.0, 0.9, 0.1, 16.0, 0.25};
    s->planes[0].point = v3(0, 0, 0);
    s->planes[0].normal = v3(0, 1, 0);
    s->planes[0].mat = checkered;
    s->nplanes = 1;

    /* A big mirror in the middle, a ring of six smaller spheres around it alternating matte
     * colours and tinted mirrors: every pixel near the centre takes a few reflections. */
    add_sphere(s, v3(0, 1.2, 0), 1.2, mirror(v3(0.95, 0.95, 0.95), 0.75));
    const vec3 colors[6] = {v3(0.9, 0.2, 0.15),  v3(0.95, 0.75, 0.1), v3(0.2, 0.7, 0.25),
                            v3(0.15, 0.45, 0.9), v3(0.6, 0.25, 0.8),  v3(0.9, 0.5, 0.2)};
    for (int i = 0; i < 6; ++i) {
        double a = i * (2.0 * PI / 6.0) + 0.3;
        vec3 c = v3(2.6 * cos(a), 0.55, 2.6 * sin(a));
        add_sphere(s, c, 0.55, (i % 2) ? mirror(colors[i], 0.5) : matte(colors[i]));
    }
    add_sphere(s, v3(-1.3, 0.3, 1.9), 0.3, mirror(v3(0.9, 0.9, 1.0), 0.6));
    add_sphere(s, v3(1.5, 0.25, 2.0), 0.25, matte(v3(0.95, 0.95, 0.95)));

    s->lights[0].position = v3(-4.0, 6.0, 5.0);
    s->lights[0].color = v3(0.85, 0.8, 0.75);
    s->lights[1].position = v3(5.0, 4.0, -2.0);
    s->lights[1].color = v3(0.35, 0.4, 0.55);
    s->nlights = 2;
    s->ambient = v3(0.08, 0.08, 0.1);
    s->sky_zenith = v3(0.25, 0.45, 0.85);
    s->sky_horizon = v3(0.85, 0.9, 1.0);
}

/* Smallest root of |o + t d - c|^2 = r^2 above HIT_EPS, or -1. */
static double sphere_hit(const sphere *sp, vec3 o, vec3 d) {
    vec3 oc = v_sub(o, sp->center);
    double b = v_dot(oc, d), c = v_dot(oc, oc) - sp->radius * sp->radius;
    double disc = b * b - c;
    if (disc < 0) return -1;
    double root = sqrt(disc);
    double t = -b - root;
    if (t > HIT_EPS) return t;
    t = -b + root;
    return t > HIT_EPS ? t : -1;
}

static double plane_hit(const plane *pl, vec3 o, vec3 d) {
    double denom = v_dot(pl->normal, d);
    if (fabs(denom) < 1e-12) return -1;
    double t = v_dot(v_sub(pl->point, o), pl->normal) / denom;
    return t > HIT_EPS ? t : -1;
}

static vec3 surface_color(const material *m, vec3 p) {
    if (m->checker <= 0) return m->color;
    long cx = (long)floor(p.x / m->checker), cz = (long)floor(p.z / m->checker);
    return ((cx + cz) & 1) ? m->color2 : m->color;
}

int scene_intersect(const scene *s, vec3 o, vec3 d, double tmax, hit *h) {
    double best = tmax;
    const sphere *bs = NULL;
    const plane *bp = NULL;
    for (int i = 0; i < s->nspheres; ++i) {
        double t = sphere_hit(&s->spheres[i], o, d);
        if (t > 0 && t < best) best = t, bs = &s->spheres[i], bp = NULL;
    }
    for (int i = 0; i < s->nplanes; ++i) {
        double t = plane_hit(&s->planes[i], o, d);
        if (t > 0 && t < best) best = t, bp = &s->planes[i], bs = NULL;
    }
    if (!bs && !bp) return 0;
    h->t = best;
    h->point = v_add(o, v_scale(d, best));
    if (bs) {
        h->normal = v_scale(v_sub(h->point, bs->center), 1.0 / bs->radius);
        h->mat = &bs->mat;
    } else {
        h->normal = bp->normal;
        h->mat = &bp->mat;
    }
    if (v_dot(h->normal, d) > 0) h->normal = v_scale(h->normal, -1.0);
    h->color = surface_color(h->mat, h->point);
    return 1;
}

int scene_occluded(const scene *s, vec3 o, vec3 d, double dist) {
    hit h;
    return scene_intersect(s, o, d, dist, &h);
}

vec3 scene_sky(const scene *s, vec3 d) {
    double k = d.y > 0 ? d.y : 0;
    return v_add(v_scale(s->sky_horizon, 1.0 - k), v_scale(s->sky_zenith, k));
}
