/* The result model's field tables: one descriptor type (cg_field) for the fields of a row (cg_result, run and
 * peak alike) and of the device block (cg_report_device). Each row of a table gives a name (JSON key and CSV
 * header), a kind, where the value lives in its struct, a unit, a size and, for a row field, which documents'
 * rows carry it. The writers (src/report/) and the loader (model/load.c) loop over these tables, so the
 * formats cannot drift apart. */
#ifndef CG_MODEL_FIELDS_H
#define CG_MODEL_FIELDS_H
#include <stdbool.h>
#include <stddef.h>
#include "model/result.h"

/* The C type a field's member has, and so how every format writes and reads it. */
typedef enum cg_field_kind {
    CG_F_STR,        /* char[size], NUL-terminated */
    CG_F_DOUBLE,     /* double: null in JSON and an empty CSV cell when not finite */
    CG_F_SIZE,       /* size_t */
    CG_F_INT,        /* int */
    CG_F_UINT,       /* unsigned */
    CG_F_ULL,        /* unsigned long long (unit "B": a byte count, shown as such in text) */
    CG_F_LL,         /* long long */
    CG_F_BOOL,       /* bool */
    CG_F_MAYBE_BOOL, /* bool, then a bool that says whether it is known: null while not known */
    CG_F_STATUS,     /* cg_rung_status, written as its word (cg_rung_status_name) */
    CG_F_WARNINGS,   /* unsigned cg_warning bits: an array of names in JSON, joined by ';' in CSV */
    CG_F_TIMES,      /* cg_times: an array of seconds (JSON only; an empty CSV cell) */
    CG_F_STAGES      /* cg_stages: an object of stage name -> median seconds (JSON only; an empty CSV cell) */
} cg_field_kind;

/* One field of a row or of the device block. */
typedef struct cg_field {
    const char *name; /* JSON key and CSV header: "t_median_s", "global_mem_bytes" */
    cg_field_kind kind;
    size_t offset;     /* where it lives in its struct */
    const char *unit;  /* "s", "B", "GB/s"... or "" */
    size_t size;       /* sizeof the member: a CG_F_STR's buffer, NUL included */
    unsigned kinds;    /* row fields: the cg_report_kind bits of the documents whose rows carry it */
    const char *name1; /* device block: its key in schema_version 1 files, NULL when it had none */
    const char *label; /* device block: its label in the text of `devices` ("Global memory") */
} cg_field;

/* The fields of a row, run and peak: a document of kind k writes, in table order, the fields whose kinds
 * have k's bit (so each kind's JSON keys and CSV columns keep their order). A key both kinds carry at
 * different places in their order is listed once per place, each for its kind, with the same member. */
extern const cg_field cg_row_fields[];
extern const size_t cg_row_nfields;
/* True when the rows of a document of kind k carry field f. */
bool cg_field_carried(const cg_field *f, cg_report_kind k);
/* The device block of run, peak and `devices`, in the order of its JSON keys and text lines. */
extern const cg_field cg_device_fields[];
extern const size_t cg_device_nfields;

#endif
