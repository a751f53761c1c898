/* The settings' check and the derived render state. */
#include "job.h"

#include <string.h>

const char *job_config_problem(const int cfg[CFG_COUNT]) {
    if (cfg[CFG_WIDTH] < 1 || cfg[CFG_WIDTH] > 16384) return "width out of range";
    if (cfg[CFG_HEIGHT] < 1 || cfg[CFG_HEIGHT] > 16384) return "height out of range";
    if (cfg[CFG_TILE] < 1 || cfg[CFG_TILE] > 1024) return "tile size out of range";
    if (cfg[CFG_SAMPLES] < 1 || cfg[CFG_SAMPLES] > 16) return "samples out of range";
    if (cfg[CFG_DEPTH] < 0 || cfg[CFG_DEPTH] > 16) return "depth out of range";
    if (cfg[CFG_TIMEOUT] < 1) return "timeout out of range";
    if (cfg[CFG_WAVE] != 0 && cfg[CFG_WAVE] != 1) return "wave is neither 0 nor 1";
    return NULL;
}

void job_init(render_job *j, const int cfg[CFG_COUNT]) {
    memcpy(j->cfg, cfg, sizeof j->cfg);
    scene_build_demo(&j->scene);
    camera_demo(&j->cam, cfg[CFG_WIDTH], cfg[CFG_HEIGHT]);
    j->params.samples = cfg[CFG_SAMPLES];
    j->params.max_depth = cfg[CFG_DEPTH];
    tiles_init(&j->queue, cfg[CFG_WIDTH], cfg[CFG_HEIGHT], cfg[CFG_TILE]);
}

unsigned long long job_render_tile(const render_job *j, int id, unsigned char *rgb) {
    return trace_rect(&j->scene, &j->cam, j->params, tiles_rect(&j->queue, id), rgb);
}
