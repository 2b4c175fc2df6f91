/* The report writers, one file each behind one function, all from the same cg_report. JSON and CSV share
 * one list of per-row fields (fields.c), so the two cannot drift apart. */
#ifndef CG_REPORT_H
#define CG_REPORT_H
#include <stdio.h>
#include "report/result.h"

/* The aligned terminal table, FAILED rows marked, the why-lines and the warnings with their fixes. */
void cg_report_text(const cg_report *r, FILE *f);
/* Returns 0 on success, -1 when the file could not be written (errno set). */
int cg_report_json(const cg_report *r, const char *path);
int cg_report_csv(const cg_report *r, const char *path);

/* One per-row field: name (JSON key and CSV header), kind, and where it lives in cg_result. */
typedef enum cg_field_kind {
    CG_F_STR,
    CG_F_DOUBLE,
    CG_F_SIZE,
    CG_F_BOOL,
    CG_F_LL,
    CG_F_STATUS,
    CG_F_WARNINGS
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
