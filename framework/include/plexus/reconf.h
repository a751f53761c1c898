/* RECONF (run-time reconfiguration) framework interface. Zero or one component: when none is
 * usable the library runs unreconfigured. */
#ifndef PLEXUS_RECONF_H
#define PLEXUS_RECONF_H

#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PLEXUS_RECONF_MAJOR 1
#define PLEXUS_RECONF_MINOR 0

/* query() scope for reconf: NULL. */

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_RECONF_H */
