/* The --size argument: a count ("16777216", "16M", "2^24") or a 2D extent ("4096x4096", "4k x 2k" is not
 * accepted: "4096x2048"). K, M, G are binary (1024-based). */
#ifndef CG_SIZE_H
#define CG_SIZE_H
#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

typedef struct cg_size {
    int dims;      /* 0: not given, 1: a count, 2: width x height */
    uint64_t n;    /* the count (dims 1), or w*h (dims 2) */
    uint64_t w, h; /* dims 2 only; for dims 1, w = n, h = 1 */
} cg_size;

/* Parses s; false on a malformed value, zero, or overflow (err gets a short reason). */
bool cg_size_parse(const char *s, cg_size *out, char *err, size_t errlen);
/* Formats a byte count as "64.0 MiB". */
void cg_format_bytes(double bytes, char *buf, size_t len);

#endif
