/* The render demo's command line. */
#ifndef RENDER_OPTIONS_H
#define RENDER_OPTIONS_H

typedef struct {
    int workers;       /* spawned at the start; 0: the master renders alone */
    int grow;          /* spawned mid-render */
    double grow_at;    /* ... once this share of the tiles has come back */
    int width, height; /* image size in pixels */
    int tile;          /* tile edge in pixels */
    int samples;       /* samples x samples rays per pixel */
    int depth;         /* reflections followed at most */
    int timeout;       /* seconds before any process gives up and says what it waited for */
    int check;         /* compare with a single-process render */
    const char *output;
} render_options;

/* Parses argv into o (defaults first). 0 on success; 1 after --help was printed; -1 after a
 * message naming the bad option was printed to stderr. */
int render_parse_options(int argc, char **argv, render_options *o);

#endif
