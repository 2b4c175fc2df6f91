/* UTF-8 hygiene for text that comes from outside (run files, argv, driver strings) before it reaches a
 * terminal, a JSON file or an HTML page: no invalid sequence, no character cut in two, and on request no
 * control character (no terminal escape sequence). */
#ifndef CG_UTF8_H
#define CG_UTF8_H
#include <stdbool.h>
#include <stddef.h>

/* The length in bytes of the longest prefix of s[0..n) that does not end inside a UTF-8 character: cutting
 * there never splits a character (bytes before the cut are not otherwise checked). */
size_t cg_utf8_cut(const char *s, size_t n);

/* Copies the NUL-terminated src into dst (size >= 1 bytes, always NUL-terminated), cut on a character
 * boundary when it does not fit. Each byte that does not start a valid UTF-8 sequence (overlong forms,
 * surrogates and code points above U+10FFFF included) becomes '?'. With controls, every control character
 * (U+0000-U+001F, U+007F, U+0080-U+009F, ESC of an escape sequence included) and every bidirectional
 * override or isolate (U+202A-U+202E, U+2066-U+2069) also becomes '?', except that
 * tab, CR and LF become a space, so that a string prints on one line with no effect on the terminal.
 * Returns true when dst is an exact copy of src (nothing replaced or cut). dst and src may be the same. */
bool cg_utf8_clean(char *dst, size_t size, const char *src, bool controls);

#endif
