/* Parsing of --size values and formatting of byte counts. */
#include "core/size.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One count: digits with an optional K/M/G suffix (binary), or 2^E. */
static bool parse_count(const char *s, const char **end, uint64_t *out)
{
    if (!isdigit((unsigned char)*s)) return false;
    errno = 0;
    char *e;
    unsigned long long v = strtoull(s, &e, 10);
    if (errno) return false;
    if (*e == '^') {
        if (v != 2 || !isdigit((unsigned char)e[1])) return false;
        unsigned long long ex = strtoull(e + 1, &e, 10);
        if (ex > 62) return false;
        v = 1ull << ex;
    } else if (*e == 'K' || *e == 'k' || *e == 'M' || *e == 'G' || *e == 'g') {
        int shift = (*e == 'K' || *e == 'k') ? 10 : (*e == 'M') ? 20 : 30;
        if (v > (UINT64_MAX >> shift)) return false;
        v <<= shift;
        e++;
    }
    *end = e;
    *out = v;
    return true;
}

bool cg_size_parse(const char *s, cg_size *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    const char *e;
    uint64_t a, b;
    if (!s || !parse_count(s, &e, &a)) {
        snprintf(err, errlen, "expected a count such as 16777216, 16M or 2^24, or WxH such as 4096x4096");
        return false;
    }
    if (*e == 'x' || *e == 'X') {
        if (!parse_count(e + 1, &e, &b) || *e) {
            snprintf(err, errlen, "expected WxH such as 4096x4096");
            return false;
        }
        if (a == 0 || b == 0 || a > UINT64_MAX / b) {
            snprintf(err, errlen, "width and height must be positive and their product must fit in 64 bits");
            return false;
        }
        *out = (cg_size){.dims = 2, .n = a * b, .w = a, .h = b};
        return true;
    }
    if (*e || a == 0) {
        snprintf(err, errlen, *e ? "unexpected '%s' after the number" : "size must be positive", e);
        return false;
    }
    *out = (cg_size){.dims = 1, .n = a, .w = a, .h = 1};
    return true;
}

void cg_format_bytes(double bytes, char *buf, size_t len)
{
    static const char *unit[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (bytes >= 1024 && u < 5) {
        bytes /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%.0f B", bytes);
    else
        snprintf(buf, len, "%.1f %s", bytes, unit[u]);
}
