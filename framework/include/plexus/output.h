/* Output levels for the host API's log(): errors and warnings always print, verbose tracing
 * prints when the level is at or below the framework's <framework>_base_verbose parameter. */
#ifndef PLEXUS_OUTPUT_H
#define PLEXUS_OUTPUT_H

#ifdef __cplusplus
extern "C" {
#endif

#define PLEXUS_LOG_ERROR (-2)
#define PLEXUS_LOG_WARN (-1)
/* Verbose levels, the scale Open MPI users know: 1 component-level decisions, 10 per-peer or
 * per-object decisions, 50 per-operation detail, 100 everything. */
#define PLEXUS_LOG_DECISION 1
#define PLEXUS_LOG_DETAIL 10
#define PLEXUS_LOG_TRACE 50
#define PLEXUS_LOG_ALL 100

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_OUTPUT_H */
