/* A row's raw per-run times (cg_times) and its stage medians (cg_stages) in the JSON files: written as an
 * array and an object of seconds, and checked when a file is read back. The JSON writer and the reader call
 * these for the fields of kind CG_F_TIMES and CG_F_STAGES. */
#ifndef CG_TIMES_H
#define CG_TIMES_H
#include <stdbool.h>
#include <cjson/cJSON.h>
#include "model/result.h"

/* The most times a row may have: the most timed runs `--runs` takes. */
#define CG_TIMES_MAX 1000000u

/* Adds key: [t0, t1, ...] to the object o (an empty array when t has none); false when out of memory. */
bool cg_times_to_json(cJSON *o, const char *key, const cg_times *t);
/* Reads the array v into *t (malloc'd; freed with the report): every entry a finite number of seconds above 0
 * and at most max_s, at most CG_TIMES_MAX of them. False when v is not such an array or when out of memory
 * (*t untouched). */
bool cg_times_from_json(const cJSON *v, double max_s, cg_times *t);

/* Adds key: {"stage": seconds, ...} to o, in stage order (an empty object for none); false when out of
 * memory. */
bool cg_stages_to_json(cJSON *o, const char *key, const cg_stages *g);
/* Reads the object v into *g: at most CG_STAGES_MAX entries, names shorter than cg_stages' buffers, each a
 * finite number of seconds >= 0 and at most max_s. False when v is not such an object (*g untouched). */
bool cg_stages_from_json(const cJSON *v, double max_s, cg_stages *g);

#endif
