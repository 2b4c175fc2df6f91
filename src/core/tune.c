/* Search spaces, candidates, the seeds' work-group rules and the strategies' visiting orders (core/tune.h).
 * Pure functions of their arguments: no OpenCL here, so that tests/unit can check every one. */
#include "core/tune.h"
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/rng.h"

const cg_tspace *cg_tune_space_of(const cg_tspace *spaces, size_t n, const char *rung)
{
    size_t len = strlen(rung);
    for (size_t i = 0; spaces && i < n; i++)
        for (const char *p = spaces[i].rungs; p && *p;) {
            size_t k = strcspn(p, ",");
            if (k == len && !strncmp(p, rung, k)) return &spaces[i];
            p += k;
            if (*p) p++;
        }
    return NULL;
}

size_t cg_tune_space_size(const cg_tspace *s)
{
    size_t n = 1;
    for (int i = 0; i < s->n; i++)
        n *= (size_t)(s->p[i].n > 0 ? s->p[i].n : 1);
    return s->n > 0 ? n : 0;
}

void cg_tune_candidate(const cg_tspace *s, size_t i, int *vals)
{
    for (int k = s->n - 1; k >= 0; k--) {
        size_t m = (size_t)(s->p[k].n > 0 ? s->p[k].n : 1);
        vals[k] = s->p[k].v[i % m];
        i /= m;
    }
}

size_t cg_tune_index(const cg_tspace *s, const int *vals)
{
    size_t idx = 0;
    for (int k = 0; k < s->n; k++) {
        int j = 0;
        while (j < s->p[k].n && s->p[k].v[j] != vals[k])
            j++;
        if (j == s->p[k].n) return (size_t)-1;
        idx = idx * (size_t)s->p[k].n + (size_t)j;
    }
    return idx;
}

void cg_tune_format(const cg_tspace *s, const int *vals, char *buf, size_t len)
{
    size_t used = 0;
    if (len) buf[0] = 0;
    for (int k = 0; k < s->n && used < len; k++) {
        int w = snprintf(buf + used, len - used, "%s%s=%d", k ? "," : "", s->p[k].name, vals[k]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

bool cg_tune_parse(const cg_tspace *s, const char *text, int *vals)
{
    bool seen[CG_TUNE_MAXP] = {false};
    int found = 0;
    for (const char *p = text; p && *p;) {
        size_t n = strcspn(p, ","), eq = strcspn(p, "=");
        if (eq >= n) return false;
        int k = 0;
        while (k < s->n && !(strlen(s->p[k].name) == eq && !strncmp(s->p[k].name, p, eq)))
            k++;
        if (k == s->n || seen[k]) return false;
        char num[24];
        size_t nl = n - eq - 1;
        if (nl == 0 || nl >= sizeof num) return false;
        memcpy(num, p + eq + 1, nl);
        num[nl] = 0;
        char *end = NULL;
        errno = 0;
        long v = strtol(num, &end, 10);
        if (errno || *end || v < -1000000 || v > 1000000 ||
            !(num[0] == '-' || (num[0] >= '0' && num[0] <= '9')))
            return false;
        vals[k] = (int)v;
        seen[k] = true;
        found++;
        p += n;
        if (*p) p++;
    }
    return found == s->n;
}

bool cg_tune_restrict(cg_tspace *s, const char *text, char *err, size_t len)
{
    bool seen[CG_TUNE_MAXP] = {false};
    for (const char *p = text; p && *p;) {
        size_t n = strcspn(p, ";"), eq = strcspn(p, "=");
        if (eq >= n) {
            snprintf(err, len, "'%.*s' is not NAME=V1,V2,...", (int)(n < 40 ? n : 40), p);
            return false;
        }
        int k = 0;
        while (k < s->n && !(strlen(s->p[k].name) == eq && !strncmp(s->p[k].name, p, eq)))
            k++;
        if (k == s->n) {
            size_t used = (size_t)snprintf(
                err, len, "no parameter '%.*s' (its parameters:", (int)(eq < 24 ? eq : 24), p);
            for (int i = 0; i < s->n && used < len; i++)
                used += (size_t)snprintf(err + used, len - used, "%s %s", i ? "," : "", s->p[i].name);
            if (used < len) snprintf(err + used, len - used, ")");
            return false;
        }
        if (seen[k]) {
            snprintf(err, len, "parameter '%s' given twice", s->p[k].name);
            return false;
        }
        seen[k] = true;
        int vals[CG_TUNE_MAXV], nv = 0;
        for (const char *q = p + eq + 1; q < p + n;) {
            size_t m = strcspn(q, ",;");
            char num[24];
            char *end = NULL;
            if (m == 0 || m >= sizeof num || nv == CG_TUNE_MAXV) {
                snprintf(err, len, "%s: %s", s->p[k].name,
                         nv == CG_TUNE_MAXV ? "at most 12 values" : "a value is empty or too long");
                return false;
            }
            memcpy(num, q, m);
            num[m] = 0;
            errno = 0;
            long v = strtol(num, &end, 10);
            if (errno || *end || !(num[0] >= '0' && num[0] <= '9') || v > 1000000) {
                snprintf(err, len, "%s: '%s' is not a whole number from 0 to 1000000", s->p[k].name, num);
                return false;
            }
            vals[nv++] = (int)v;
            q += m;
            if (*q == ',') q++;
        }
        if (!nv) {
            snprintf(err, len, "%s: no values", s->p[k].name);
            return false;
        }
        s->p[k].n = nv;
        memcpy(s->p[k].v, vals, sizeof(int) * (size_t)nv);
        p += n;
        if (*p) p++;
    }
    return true;
}

void cg_tune_defaults(const cg_tspace *s, const int *rung_p, int *vals)
{
    for (int k = 0; k < s->n; k++)
        vals[k] = rung_p[s->p[k].index];
}

void cg_tune_apply(const cg_tspace *s, const int *vals, int *p)
{
    for (int k = 0; k < s->n; k++)
        p[s->p[k].index] = vals[k];
}

/* ---- the seeds' rules ------------------------------------------------------------------------------------
 * Each rule, applied literally, sets the work-group roles (and the groups per compute unit where a rung has
 * such a parameter) and leaves every other parameter at the rung's own value. docs/tune.md quotes each. */

static const cg_tune_rule rules[CG_TUNE_NRULES] = {
    {"null", "003", "local_work_size NULL: the runtime picks the work-group (the report's starting point)"},
    {"amd-wavefront", "000",
     "a work-group of one 64-wide wavefront, two wavefronts (here: groups) per compute unit"},
    {"nvidia-warps", "004",
     "a multiple of the 32-wide warp (the talk's 128 work-items), more than 2 groups "
     "per multiprocessor (4)"},
    {"report-32x4", "003", "a manual 32x4 work-group (128 work-items; x a multiple of the warp)"},
    {"mapping-3waves", "002",
     "three 64-wide wavefronts per work-group (the chapter's fix for its LDS-bound 2-wavefront groups), "
     "two groups per SIMD core"},
};

const cg_tune_rule *cg_tune_rules(void)
{
    return rules;
}

/* A rule's pick: total work-items of a 1D group, the x and y sides of a 2D one, groups per compute unit
 * (0: leave the rung's). */
typedef struct pick {
    int wg1, x, y, per_cu;
} pick;

static bool rule_values(size_t k, const cg_tune_dev *d, pick *p)
{
    int warp = d->simd ? (int)d->simd : 32;
    switch (k) {
    case 0:
        *p = (pick){0, 0, 0, 0};
        return true;
    case 1:
        *p = (pick){64, 64, 1, 2};
        return true;
    case 2:
        *p = (pick){4 * warp, warp, 4, 4};
        return true;
    case 3:
        *p = (pick){128, 32, 4, 0};
        return true;
    case 4:
        *p = (pick){192, 64, 3, 2};
        return true;
    default:
        return false;
    }
}

bool cg_tune_rule_pick(size_t k, const cg_tspace *s, const cg_tune_dev *d, const int *dflt, int *vals)
{
    pick pk;
    if (!rule_values(k, d, &pk)) return false;
    int x = -1, y = -1;
    for (int i = 0; i < s->n; i++) {
        vals[i] = dflt[i];
        if (s->p[i].role == CG_TR_WG_X) x = i;
        if (s->p[i].role == CG_TR_WG_Y) y = i;
    }
    if (x < 0) return false; /* no work-group parameter: the rules say nothing */
    if (k == 0) {            /* NULL: only where the rung's kernel takes any work-group */
        bool zero = false;
        for (int j = 0; j < s->p[x].n; j++)
            zero |= s->p[x].v[j] == 0;
        if (!zero) return false;
    }
    if (y >= 0) {
        vals[x] = pk.x;
        vals[y] = pk.y;
    } else
        vals[x] = pk.wg1;
    for (int i = 0; i < s->n; i++)
        if (s->p[i].role == CG_TR_GROUPS_PER_CU && pk.per_cu > 0) vals[i] = pk.per_cu;
    return true;
}

bool cg_tune_over_limit(const cg_tspace *s, const int *vals, const cg_tune_dev *d, char *why, size_t len)
{
    long long wg = 1;
    bool any = false;
    for (int i = 0; i < s->n; i++)
        if (s->p[i].role == CG_TR_WG_X || s->p[i].role == CG_TR_WG_Y) {
            if (vals[i] == 0) return false; /* NULL: the runtime's choice is within the limit */
            if (vals[i] < 0) {
                snprintf(why, len, "%s=%d: a work-group side must be positive", s->p[i].name, vals[i]);
                return true;
            }
            wg *= vals[i];
            any = true;
        }
    if (any && d->max_wg && (unsigned long long)wg > (unsigned long long)d->max_wg) {
        snprintf(why, len, "work-group of %lld work-items: over the device's %zu", wg, d->max_wg);
        return true;
    }
    return false;
}

/* ---- strategies ------------------------------------------------------------------------------------------
 */

bool cg_tune_strategy_parse(const char *word, cg_tune_strategy *s)
{
    static const char *const names[] = {"exhaustive", "random", "anneal"};
    for (int i = 0; i < 3; i++)
        if (word && !strcmp(word, names[i])) {
            *s = (cg_tune_strategy)i;
            return true;
        }
    return false;
}

static uint64_t below(cg_rng *rng, uint64_t n)
{
    return n ? cg_rng_next(rng) % n : 0;
}

void cg_tune_order(cg_tune_strategy st, size_t size, uint64_t seed, size_t *order, size_t cap, size_t *n)
{
    *n = 0;
    if (st == CG_TS_ANNEAL) return;
    if (st == CG_TS_EXHAUSTIVE || size <= cap) {
        for (size_t i = 0; i < size && *n < cap; i++)
            order[(*n)++] = i;
    }
    if (st == CG_TS_RANDOM) {
        cg_rng rng;
        cg_rng_init(&rng, seed ^ 0x9e3779b97f4a7c15ull);
        if (size <= cap) { /* a shuffle of every index */
            for (size_t i = size; i > 1; i--) {
                size_t j = (size_t)below(&rng, i), t = order[i - 1];
                order[i - 1] = order[j];
                order[j] = t;
            }
        } else { /* cap distinct indices drawn from a larger space */
            while (*n < cap) {
                size_t c = (size_t)below(&rng, size);
                bool dup = false;
                for (size_t i = 0; i < *n && !dup; i++)
                    dup = order[i] == c;
                if (!dup) order[(*n)++] = c;
            }
        }
    }
}

size_t cg_tune_anneal_next(const cg_tspace *s, size_t cur, cg_rng *rng)
{
    int vals[CG_TUNE_MAXP];
    cg_tune_candidate(s, cur, vals);
    int movable[CG_TUNE_MAXP], nm = 0;
    for (int k = 0; k < s->n; k++)
        if (s->p[k].n > 1) movable[nm++] = k;
    if (!nm) return cur;
    int k = movable[below(rng, (uint64_t)nm)], j = 0;
    while (j < s->p[k].n && s->p[k].v[j] != vals[k])
        j++;
    int step = below(rng, 2) ? 1 : -1;
    if (j + step < 0 || j + step >= s->p[k].n) step = -step;
    vals[k] = s->p[k].v[j + step];
    size_t idx = cg_tune_index(s, vals);
    return idx == (size_t)-1 ? cur : idx;
}

bool cg_tune_anneal_accept(double t_cur, double t_new, double used, cg_rng *rng)
{
    if (!(t_new > 0)) return false;
    if (!(t_cur > 0) || t_new <= t_cur) return true;
    /* temperature: a 20% slower neighbour is taken with probability 1/e at the start, hardly at the end */
    double temp = 0.2 * (1.0 - (used < 0 ? 0 : used > 1 ? 1 : used)) + 1e-3;
    double p = exp(-(t_new / t_cur - 1.0) / temp);
    return (double)(cg_rng_next(rng) >> 11) * 0x1p-53 < p;
}
