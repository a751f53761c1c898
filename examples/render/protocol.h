/* What the master and the workers say to each other.
 *
 * Workers -> master: TAG_READY (no data) when a worker starts or has just joined the merged
 * communicator, TAG_TILE (the pixels of the tile it was given, rect.w * rect.h * 3 bytes) when it
 * is done with it. Each is also the request for the next command.
 * Master -> worker: TAG_COMMAND, two ints {command, tile id}: CMD_TILE (render that tile),
 * CMD_GROW (join the collective spawn of more workers, then ask again over the merged
 * communicator), CMD_STOP (no tiles left: go to the final reduction).
 *
 * The render settings travel once, as CFG_COUNT ints broadcast by the master over each
 * spawn's inter-communicator; CFG_WAVE tells a worker whether it was spawned at the start (0) or
 * by the grow (1), which decides where it asks for tiles. */
#ifndef RENDER_PROTOCOL_H
#define RENDER_PROTOCOL_H

enum { TAG_READY = 11, TAG_TILE = 12, TAG_COMMAND = 13 };
enum { CMD_TILE = 1, CMD_GROW = 2, CMD_STOP = 3 };
enum { CFG_WIDTH, CFG_HEIGHT, CFG_TILE, CFG_SAMPLES, CFG_DEPTH, CFG_TIMEOUT, CFG_WAVE, CFG_COUNT };

/* Per process, gathered at the end: tiles rendered, rays traced, microseconds spent tracing. */
enum { STAT_TILES, STAT_RAYS, STAT_BUSY_US, STAT_COUNT };

#endif
