/* The result model's field table: one row per field of a run row (name = JSON key and CSV header, kind, where
 * it lives in cg_result). The writers (src/report/) and the loader (model/load.c) both loop over it. */
#ifndef CG_MODEL_FIELDS_H
#define CG_MODEL_FIELDS_H
#include <stddef.h>
#include "model/result.h"

/* One per-row field: name (JSON key and CSV header), kind, and where it lives in cg_result. */
typedef enum cg_field_kind {
    CG_F_STR,
    CG_F_DOUBLE,
    CG_F_SIZE,
    CG_F_BOOL,
    CG_F_LL,
    CG_F_STATUS,
    CG_F_WARNINGS,
    CG_F_TIMES /* cg_times: an array of seconds */
} cg_field_kind;
typedef struct cg_field {
    const char *name;
    cg_field_kind kind;
    size_t offset;
    const char *unit; /* "s", "B", "GB/s"... or "" */
    size_t size;      /* sizeof the member: a CG_F_STR's buffer, NUL included */
} cg_field;
extern const cg_field cg_result_fields[];
extern const size_t cg_result_nfields;

#endif
