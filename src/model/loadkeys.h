/* The inside of the run reader (load.c): the loader state and the key-by-key reading of a run's objects
 * (loadkeys.c), shared by the two files only. */
#ifndef CG_LOADKEYS_H
#define CG_LOADKEYS_H
#include <stdbool.h>
#include <stddef.h>
#include <cjson/cJSON.h>
#include "model/result.h"

#define CG_LOAD_MAX_BYTES   (256u << 20) /* far above any run: refuses /dev/zero-sized input */
#define CG_LOAD_MAX_VALUES  (1u << 23)   /* JSON values: bounds the parser's memory (about 80 bytes each) */
#define CG_LOAD_MAX_ROWS    200000u      /* result rows (about 1 KiB each in memory) */
#define CG_LOAD_MAX_TIME    1e6          /* seconds: no timing of a run is longer (11.6 days) */
#define CG_LOAD_MAX_CEILING 1e9          /* GB/s or GFLOP/s of the roofline: an exaflop is 1e9 GFLOP/s */

typedef struct cg_loader {
    const char *path;
    char *err;
    size_t errlen;
    bool damaged; /* messages start with "damaged file: " */
    int version;  /* the file's schema_version: 1 (device keys of version 1, build_ms) or CG_SCHEMA_VERSION */
} cg_loader;

/* Writes "[damaged file: ]PATH: <message>" to l->err; returns -1. */
int cg_load_fail(const cg_loader *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Reads tool, time_utc, command_line, device, options and roofline of the run top into r; 0, or -1 with
 * err naming the first key of a wrong type or value, or a key given twice. */
int cg_load_meta(const cg_loader *l, const cJSON *top, cg_report *r);
/* Reads the array of rows a into r, each key checked by its kind in cg_row_fields; 0, or -1 with err
 * naming the first bad key and its row ("field t_median_s of row 2"), a missing required key (workload,
 * rung, status, t_median_s), too many rows, or none. */
int cg_load_rows(const cg_loader *l, const cJSON *a, cg_report *r);

#endif
