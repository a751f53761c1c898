/* What every process derives from the broadcast settings: the scene, the camera, the tracing
 * parameters and the tile geometry. Built the same way everywhere, so that every process traces
 * a given pixel identically. */
#ifndef RENDER_JOB_H
#define RENDER_JOB_H

#include "protocol.h"
#include "tiles.h"
#include "trace.h"

typedef struct {
    int cfg[CFG_COUNT];
    scene scene;
    camera cam;
    trace_params params;
    tile_queue queue;
} render_job;

/* NULL when cfg is usable, else what is wrong with it (settings from another program's message
 * would make a worker allocate or loop without bound). */
const char *job_config_problem(const int cfg[CFG_COUNT]);
void job_init(render_job *j, const int cfg[CFG_COUNT]);
/* Renders one tile into rgb (at least tile * tile * 3 bytes); returns the rays traced. */
unsigned long long job_render_tile(const render_job *j, int id, unsigned char *rgb);

#endif
