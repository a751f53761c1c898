/* Return codes shared by the core and every component across the plugin boundary.
 * Negative values are errors; components return these, never errno or MPI error classes. */
#ifndef PLEXUS_STATUS_H
#define PLEXUS_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

enum plexus_status {
    PLEXUS_SUCCESS = 0,
    PLEXUS_ERROR = -1,                /* unspecified failure; log the detail */
    PLEXUS_ERR_NOT_AVAILABLE = -2,    /* cannot run here (no device, not for this scope) */
    PLEXUS_ERR_BAD_PARAM = -3,        /* an argument or parameter value is wrong */
    PLEXUS_ERR_OUT_OF_RESOURCE = -4,  /* memory, descriptors, segments exhausted */
    PLEXUS_ERR_NOT_SUPPORTED = -5,    /* the operation is not implemented by this module */
    PLEXUS_ERR_NOT_FOUND = -6,        /* no such parameter, peer, key */
    PLEXUS_ERR_UNREACH = -7,          /* the peer cannot be reached through this module */
    PLEXUS_ERR_TIMEOUT = -8,
    PLEXUS_ERR_EXISTS = -9,           /* already registered */
    PLEXUS_ERR_AGAIN = -10            /* no resources right now: retry after progress */
};

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_STATUS_H */
