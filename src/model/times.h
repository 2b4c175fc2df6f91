/* A row's raw per-run times (cg_times) in the JSON files: written as an array of seconds, and checked when a
 * file is read back. The JSON writer and the reader call these for the field of kind CG_F_TIMES. */
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

#endif
