/* BTL (byte transfer layer) framework interface: how bytes move between two processes.
 * Multi-select: every usable BTL is kept and ranked per peer by the BML. */
#ifndef PLEXUS_BTL_H
#define PLEXUS_BTL_H

#include <plexus/component.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Interface version a btl component declares in its descriptor (framework_major/minor). The data
 * path (send, put/get with completion callbacks, fast channels for reconf, add/del peers) is
 * appended as the point-to-point layer lands; a component built for minor m loads into any core
 * whose minor is >= m. */
#define PLEXUS_BTL_MAJOR 1
#define PLEXUS_BTL_MINOR 0

/* query() scope for btl: NULL (a BTL serves the whole process). */

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_BTL_H */
