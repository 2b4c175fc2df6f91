/* Parsing of --filter lists: the list is cut at commas, each item read as "N" or "WxH" in plain decimal and
 * checked against the bound, then against the items before it for a repeat. Every refusal is one line naming
 * the item and saying what to write instead. */
#include "cli/filters.h"
#include <stdio.h>
#include <string.h>

#define FIX        "use N, WxH or a range A-B, e.g. 32, 5x3 or 2-32, comma-separated"
#define ITEM_SHOWN 40 /* at most this much of a bad item is quoted */

/* One side: decimal digits only; false when there are none. *v stops growing once above the bound, so a long
 * run of digits cannot overflow. */
static bool parse_side(const char **p, const char *end, long *v)
{
    const char *s = *p;
    for (*v = 0; s < end && *s >= '0' && *s <= '9'; s++)
        if (*v <= CG_FILTER_DIM_MAX) *v = *v * 10 + (*s - '0');
    bool any = s != *p;
    *p = s;
    return any;
}

/* "A-B" at item (len bytes, holding a '-'): the square sizes A..B into f[0..*k); false with err otherwise. */
static bool parse_range(const char *item, size_t len, int max, cg_filter_size *f, size_t room, size_t *k,
                        char *err, size_t errlen)
{
    const char *p = item, *end = item + len;
    int shown = len > ITEM_SHOWN ? ITEM_SHOWN : (int)len;
    long a = 0, b = 0;
    bool ok = parse_side(&p, end, &a) && p < end && *p++ == '-' && parse_side(&p, end, &b) && p == end;
    if (!ok) {
        snprintf(err, errlen, "'%.*s' is not a range: " FIX, shown, item);
        return false;
    }
    if (a < 1 || b > max) {
        snprintf(err, errlen, "'%.*s' has a side outside 1 to %d: " FIX, shown, item, max);
        return false;
    }
    if (a >= b) {
        snprintf(err, errlen, "'%.*s' is not a range from small to large: write A-B with A < B, e.g. 2-32",
                 shown, item);
        return false;
    }
    if ((size_t)(b - a + 1) > room) {
        snprintf(err, errlen, "more than %d sizes: split the sweep over several runs", CG_FILTERS_MAX);
        return false;
    }
    for (*k = 0; a <= b; a++)
        f[(*k)++] = (cg_filter_size){(int)a, (int)a};
    return true;
}

static bool parse_item(const char *item, size_t len, int max, cg_filter_size *f, char *err, size_t errlen)
{
    const char *p = item, *end = item + len;
    int shown = len > ITEM_SHOWN ? ITEM_SHOWN : (int)len;
    long w = 0, h = 0;
    if (!len) {
        snprintf(err, errlen, "an empty item (a comma at the start or the end, or two in a row): " FIX);
        return false;
    }
    bool ok = parse_side(&p, end, &w);
    h = w;
    if (ok && p < end && (*p == 'x' || *p == 'X')) {
        if (++p == end) {
            snprintf(err, errlen, "'%.*s' lacks the height after the x: " FIX, shown, item);
            return false;
        }
        ok = parse_side(&p, end, &h);
    }
    if (!ok || p != end) {
        snprintf(err, errlen, "'%.*s' is not a size: " FIX, shown, item);
        return false;
    }
    if (w < 1 || h < 1 || w > max || h > max) {
        snprintf(err, errlen, "'%.*s' has a side outside 1 to %d: " FIX, shown, item, max);
        return false;
    }
    *f = (cg_filter_size){(int)w, (int)h};
    return true;
}

size_t cg_filters_parse(const char *s, cg_filter_size *out, char *err, size_t errlen)
{
    return cg_filters_parse_max(s, CG_FILTER_DIM_MAX, out, err, errlen);
}

size_t cg_filters_parse_max(const char *s, int max, cg_filter_size *out, char *err, size_t errlen)
{
    size_t n = 0;
    if (max < 1 || max > CG_FILTER_DIM_MAX) max = CG_FILTER_DIM_MAX;
    for (const char *p = s ? s : "";; n++) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (n == CG_FILTERS_MAX) {
            snprintf(err, errlen, "more than %d sizes: split the sweep over several runs", CG_FILTERS_MAX);
            return 0;
        }
        size_t got = 1;
        if (len && memchr(p, '-', len) && p[0] != '-') {
            if (!parse_range(p, len, max, &out[n], CG_FILTERS_MAX - n, &got, err, errlen)) return 0;
        } else if (!parse_item(p, len, max, &out[n], err, errlen)) {
            return 0;
        }
        for (size_t i = n; i < n + got; i++)
            for (size_t k = 0; k < i; k++)
                if (out[k].w == out[i].w && out[k].h == out[i].h) {
                    snprintf(err, errlen, "'%.*s' repeats %dx%d: list each size once",
                             len > ITEM_SHOWN ? ITEM_SHOWN : (int)len, p, out[i].w, out[i].h);
                    return 0;
                }
        n += got - 1;
        if (!comma) return n + 1;
        p = comma + 1;
    }
}

void cg_filter_label(const cg_filter_size *f, char *buf, size_t len)
{
    snprintf(buf, len, "%dx%d", f->w, f->h);
}
