/* What every clgauge JSON document shares (run, peak, devices): the value helpers (null for a non-finite
 * number, exact digits for big integers, strings made valid UTF-8), the metadata block (schema_version, kind,
 * tool, time_utc, command_line) and the one writer of a field table (model/fields.h: rows of either kind, the
 * device block), so that the three documents use one vocabulary (docs/report-schema.md) and pass one JSON
 * Schema (docs/schema/). */
#ifndef CG_REPORT_JSONMETA_H
#define CG_REPORT_JSONMETA_H
#include <stdbool.h>
#include <cjson/cJSON.h>
#include "model/fields.h"

/* Each adds key to object o and returns false when out of memory. */
bool cg_json_add_str(cJSON *o, const char *key, const char *s);        /* invalid UTF-8 written as '?' */
bool cg_json_add_num(cJSON *o, const char *key, double v);             /* null when not finite */
bool cg_json_add_ull(cJSON *o, const char *key, unsigned long long v); /* exact digits */
bool cg_json_add_ll(cJSON *o, const char *key, long long v);
bool cg_json_add_bool(cJSON *o, const char *key, bool v);

/* The run-level fields of a document. time_utc and command_line are left out when NULL. */
typedef struct cg_report_meta {
    const char *kind; /* "run", "peak" or "devices" */
    const char *tool_version, *git_commit, *time_utc, *command_line;
} cg_report_meta;

/* Adds schema_version (CG_SCHEMA_VERSION), kind, tool {name, version, git_commit}, time_utc, command_line. */
bool cg_json_add_meta(cJSON *top, const cg_report_meta *m);
/* Adds the fields of cg_row_fields that rows of kind k carry, from row to o, in table order. */
bool cg_json_add_row(cJSON *o, const cg_result *row, cg_report_kind k);
/* Adds every key of cg_device_fields from d to o, in table order. */
bool cg_json_add_device(cJSON *o, const cg_report_device *d);
/* Prints top (tabs, one value a line) to path through cg_outfile_write ("-": stdout); 0, or -1 with errno. */
int cg_json_write(const cJSON *top, const char *path);

#endif
