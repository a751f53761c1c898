/* DPM (dynamic process management) framework interface: spawn, connect/accept, join.
 * Single-select: the one usable component with the highest priority. */
#ifndef PLEXUS_DPM_H
#define PLEXUS_DPM_H

#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLEXUS_DPM_MAJOR 1
#define PLEXUS_DPM_MINOR 0

/* query() scope for dpm: NULL. */

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_DPM_H */
