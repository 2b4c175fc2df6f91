/* UTF-8 validation by the table of RFC 3629 (section 4): the length of a sequence from its lead byte and the
 * allowed range of its second byte, which excludes overlong forms, surrogates and code points above
 * U+10FFFF; the bytes after the second are 0x80..0xBF. */
#include "model/utf8.h"

#include <string.h>

/* The length of the valid sequence at s (n bytes available), or 0 when s does not start one. */
static size_t seq_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    size_t len;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else
        return 0;
    if (n < len || s[1] < lo || s[1] > hi) return 0;
    for (size_t k = 2; k < len; k++)
        if (s[k] < 0x80 || s[k] > 0xBF) return 0;
    return len;
}

size_t cg_utf8_cut(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t start = n;
    while (start > 0 && n - start < 4 && (u[start - 1] & 0xC0) == 0x80)
        start--; /* back over continuation bytes to the lead byte of the last character */
    if (start == 0 || n - start >= 4) return n;
    start--;
    unsigned char c = u[start];
    size_t need = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1;
    return n - start < need ? start : n;
}

/* Is the character at s (len bytes, valid) a control character, or a bidirectional override or isolate
 * (U+202A..U+202E, U+2066..U+2069: they reorder what a terminal or page shows after them)? */
static bool is_control(const unsigned char *s, size_t len)
{
    if (len == 1) return s[0] < 0x20 || s[0] == 0x7F;
    if (len == 3 && s[0] == 0xE2)
        return (s[1] == 0x80 && s[2] >= 0xAA && s[2] <= 0xAE) ||
               (s[1] == 0x81 && s[2] >= 0xA6 && s[2] <= 0xA9);
    return len == 2 && s[0] == 0xC2 && s[1] < 0xA0; /* U+0080..U+009F, C1 controls (CSI is U+009B) */
}

bool cg_utf8_clean(char *dst, size_t size, const char *src, bool controls)
{
    const unsigned char *s = (const unsigned char *)src;
    size_t n = strlen(src), i = 0, o = 0;
    bool exact = true;
    while (i < n) {
        size_t len = seq_len(s + i, n - i), step = len ? len : 1;
        if (o + step >= size) { /* does not fit: cut before this character */
            exact = false;
            break;
        }
        if (!len || (controls && is_control(s + i, len))) {
            dst[o++] = controls && (s[i] == '\t' || s[i] == '\n' || s[i] == '\r') ? ' ' : '?';
            exact = false;
        } else {
            memmove(dst + o, s + i, len);
            o += len;
        }
        i += step;
    }
    dst[o] = '\0';
    return exact;
}
