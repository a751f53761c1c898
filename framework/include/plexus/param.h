/* Parameters as components see them: a description to register and a value to read back.
 * Full names are <framework>_<component>_<name>; users set them with --mca, PLEXUS_MCA_<name> or
 * the mca-params files, and plexus_info shows each with its source. */
#ifndef PLEXUS_PARAM_H
#define PLEXUS_PARAM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum plexus_param_type {
    PLEXUS_PARAM_BOOL = 0,  /* 1/0, true/false, yes/no, on/off, enabled/disabled */
    PLEXUS_PARAM_INT,       /* signed 64-bit, decimal or 0x hex, optional [min, max] */
    PLEXUS_PARAM_SIZE,      /* unsigned bytes with optional k/m/g/t suffix (powers of 1024) */
    PLEXUS_PARAM_DOUBLE,
    PLEXUS_PARAM_STRING,
    PLEXUS_PARAM_ENUM,      /* one of enum_values */
    PLEXUS_PARAM_LIST       /* comma-separated words */
} plexus_param_type_t;

/* Where storage points, by type (the core writes the effective value there at registration):
 *   BOOL int*   INT int64_t*   SIZE uint64_t*   DOUBLE double*   ENUM int* (index in enum_values)
 *   STRING const char**   LIST const char* const** (NULL-terminated; owned by the core)
 * Strings and lists stay valid until the core finalizes (in a running job values are fixed after
 * init; tools that set a value again later get new pointers). storage may be NULL. */
typedef struct plexus_param_desc {
    uint32_t struct_size;          /* sizeof(plexus_param_desc_t) as the caller was built */
    const char *name;              /* short name; the core prefixes <framework>_<component>_ */
    plexus_param_type_t type;
    const char *default_value;     /* as text; parsed like any other source */
    const char *help;              /* required: one or two sentences a user can act on */
    int level;                     /* 1 (basic user) .. 9 (developer) */
    const char *const *enum_values;/* NULL-terminated, for PLEXUS_PARAM_ENUM */
    int has_range;                 /* INT only: enforce min <= value <= max */
    int64_t min;
    int64_t max;
    void *storage;
} plexus_param_desc_t;

/* A value read back through the host API's param_lookup. Strings are owned by the core. */
typedef struct plexus_param_value {
    plexus_param_type_t type;
    int64_t i;                 /* BOOL (0/1), INT, ENUM index */
    uint64_t u;                /* SIZE */
    double d;                  /* DOUBLE */
    const char *s;             /* STRING, ENUM name, LIST as written; also the text of any type */
    const char *const *list;   /* LIST elements, NULL-terminated */
    const char *source;        /* "default", "env", "cli", "/etc/plexus/mca-params.conf:12", ... */
} plexus_param_value_t;

#ifdef __cplusplus
}
#endif

#endif /* PLEXUS_PARAM_H */
