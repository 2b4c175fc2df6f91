/* Raw per-run times in and out of the JSON files: an array written, and read back with its checks. */
#include "model/times.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The fewest significant digits (up to 17) that read back as the same double: the parser gives back the
 * exact time (cJSON's own printer may round the last bit). */
static void shortest(char *buf, size_t n, double v)
{
    for (int digits = 6; digits <= 17; digits++) {
        snprintf(buf, n, "%.*g", digits, v);
        if (strtod(buf, NULL) == v) return;
    }
}

/* A JSON item for v seconds: the shortest exact number, or null when not finite; NULL when out of memory. */
static cJSON *seconds_item(double v)
{
    char buf[32];
    shortest(buf, sizeof buf, v);
    return isfinite(v) ? cJSON_CreateRaw(buf) : cJSON_CreateNull();
}

bool cg_times_to_json(cJSON *o, const char *key, const cg_times *t)
{
    cJSON *a = cJSON_AddArrayToObject(o, key);
    if (!a) return false;
    for (size_t i = 0; i < t->n; i++) {
        cJSON *v = seconds_item(t->s[i]);
        if (!v || !cJSON_AddItemToArray(a, v)) {
            cJSON_Delete(v);
            return false;
        }
    }
    return true;
}

bool cg_times_from_json(const cJSON *v, double max_s, cg_times *t)
{
    int n = cJSON_GetArraySize(v);
    if (!cJSON_IsArray(v) || n < 0 || (unsigned)n > CG_TIMES_MAX) return false;
    double *s = n ? malloc((size_t)n * sizeof *s) : NULL;
    if (n && !s) return false;
    size_t i = 0;
    const cJSON *x;
    cJSON_ArrayForEach(x, v)
    {
        double d = cJSON_IsNumber(x) ? x->valuedouble : NAN;
        if (!(isfinite(d) && d > 0 && d <= max_s)) {
            free(s);
            return false;
        }
        s[i++] = d;
    }
    *t = (cg_times){s, i};
    return true;
}

bool cg_stages_to_json(cJSON *o, const char *key, const cg_stages *g)
{
    cJSON *m = cJSON_AddObjectToObject(o, key);
    if (!m) return false;
    for (size_t i = 0; i < g->n && i < CG_STAGES_MAX; i++) {
        cJSON *v = seconds_item(g->median_s[i]);
        if (!v || !cJSON_AddItemToObject(m, g->name[i], v)) {
            cJSON_Delete(v);
            return false;
        }
    }
    return true;
}

bool cg_stages_from_json(const cJSON *v, double max_s, cg_stages *g)
{
    cg_stages r;
    memset(&r, 0, sizeof r);
    if (!cJSON_IsObject(v) || cJSON_GetArraySize(v) > CG_STAGES_MAX) return false;
    const cJSON *x;
    cJSON_ArrayForEach(x, v)
    {
        double d = cJSON_IsNumber(x) ? x->valuedouble : NAN;
        if (!x->string || !x->string[0] || strlen(x->string) >= sizeof r.name[0] ||
            !(isfinite(d) && d >= 0 && d <= max_s))
            return false;
        memcpy(r.name[r.n], x->string, strlen(x->string) + 1);
        r.median_s[r.n++] = d;
    }
    *g = r;
    return true;
}
