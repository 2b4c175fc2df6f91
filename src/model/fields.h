/* The result model's field tables: one descriptor type (cg_field) for the fields of a run row (cg_result),
 * of a peak row (cg_peak_row) and of the device block (cg_report_device). Each row of a table gives a name
 * (JSON key and CSV header), a kind, where the value lives in its struct, a unit and a size. The writers
 * (src/report/) and the loader (model/load.c) loop over these tables, so the formats cannot drift apart. */
#ifndef CG_MODEL_FIELDS_H
#define CG_MODEL_FIELDS_H
#include <stddef.h>
#include "model/peak_result.h"
#include "model/result.h"

/* The C type a field's member has, and so how every format writes and reads it. */
typedef enum cg_field_kind {
    CG_F_STR,         /* char[size], NUL-terminated */
    CG_F_DOUBLE,      /* double: null in JSON and an empty CSV cell when not finite */
    CG_F_SIZE,        /* size_t */
    CG_F_INT,         /* int */
    CG_F_UINT,        /* unsigned */
    CG_F_ULL,         /* unsigned long long (unit "B": a byte count, shown as such in text) */
    CG_F_LL,          /* long long */
    CG_F_BOOL,        /* bool */
    CG_F_MAYBE_BOOL,  /* bool, then a bool that says whether it is known: null while not known */
    CG_F_STATUS,      /* cg_rung_status, written as its word (cg_rung_status_name) */
    CG_F_PEAK_STATUS, /* cg_peak_status, written as its word (cg_peak_status_name) */
    CG_F_WARNINGS,    /* unsigned cg_warning bits: an array of names in JSON, joined by ';' in CSV */
    CG_F_TIMES        /* cg_times: an array of seconds (JSON only; an empty CSV cell) */
} cg_field_kind;

/* One field of a row or of the device block. */
typedef struct cg_field {
    const char *name; /* JSON key and CSV header: "t_median_s", "global_mem_bytes" */
    cg_field_kind kind;
    size_t offset;     /* where it lives in its struct */
    const char *unit;  /* "s", "B", "GB/s"... or "" */
    size_t size;       /* sizeof the member: a CG_F_STR's buffer, NUL included */
    const char *name1; /* device block: its key in schema_version 1 files, NULL when it had none */
    const char *label; /* device block: its label in the text of `devices` ("Global memory") */
} cg_field;

/* The fields of a run row, in the order of its JSON keys. */
extern const cg_field cg_result_fields[];
extern const size_t cg_result_nfields;
/* The fields of a peak row, in the order of its JSON keys and CSV columns. */
extern const cg_field cg_peak_fields[];
extern const size_t cg_peak_nfields;
/* The device block of run, peak and `devices`, in the order of its JSON keys and text lines. */
extern const cg_field cg_device_fields[];
extern const size_t cg_device_nfields;

#endif
