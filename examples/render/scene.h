/* The scene the demo renders: spheres and planes with simple materials, point lights and a sky,
 * and the ray-object intersection queries the tracer asks of it. */
#ifndef RENDER_SCENE_H
#define RENDER_SCENE_H

#include "vec.h"

enum { SCENE_MAX_SPHERES = 16, SCENE_MAX_PLANES = 4, SCENE_MAX_LIGHTS = 4 };

typedef struct {
    vec3 color; /* diffuse colour; a checkered material alternates it with color2 */
    vec3 color2;
    double checker;  /* > 0: square size of the checker pattern on a plane */
    double diffuse;  /* Lambert weight */
    double specular; /* Phong highlight weight and exponent */
    double shininess;
    double reflect; /* share of the colour that comes from the mirror direction */
} material;

typedef struct {
    vec3 center;
    double radius;
    material mat;
} sphere;

typedef struct {
    vec3 point, normal; /* normal: unit length */
    material mat;
} plane;

typedef struct {
    vec3 position, color;
} light;

typedef struct {
    sphere spheres[SCENE_MAX_SPHERES];
    plane planes[SCENE_MAX_PLANES];
    light lights[SCENE_MAX_LIGHTS];
    int nspheres, nplanes, nlights;
    vec3 ambient, sky_zenith, sky_horizon;
} scene;

/* What a ray hit: distance along the ray, point, unit normal facing the ray, its material and
 * the colour of the material there (checkers resolved). */
typedef struct {
    double t;
    vec3 point, normal, color;
    const material *mat;
} hit;

/* The demo scene: a ring of mirrored and matte spheres on a checkered floor, two lights. */
void scene_build_demo(scene *s);
/* Nearest hit of origin + t * dir (dir unit length) with eps < t < tmax; 0 when none. */
int scene_intersect(const scene *s, vec3 origin, vec3 dir, double tmax, hit *h);
/* Whether anything lies between origin and origin + dist * dir (a shadow ray). */
int scene_occluded(const scene *s, vec3 origin, vec3 dir, double dist);
/* The sky's colour seen in direction dir. */
vec3 scene_sky(const scene *s, vec3 dir);

#endif
