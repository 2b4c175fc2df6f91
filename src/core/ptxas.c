/* Parsing of the ptxas lines NVIDIA's OpenCL driver writes into the build log under -cl-nv-verbose. */
#include "core/ptxas.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define ENTRY "Compiling entry function '"
#define USED  "Used "

/* The line after p (past its '\n'), or NULL at the end. */
static const char *next_line(const char *p)
{
    const char *nl = strchr(p, '\n');
    return nl ? nl + 1 : NULL;
}

/* Whether the line at p holds s before its end. */
static const char *in_line(const char *p, const char *s)
{
    const char *hit = strstr(p, s), *nl = strchr(p, '\n');
    return hit && (!nl || hit < nl) ? hit : NULL;
}

/* Reads "N registers[, M[+K] bytes smem]" from the text after "Used ". */
static bool parse_used(const char *p, cg_ptxas_info *out)
{
    char *end;
    if (!isdigit((unsigned char)*p)) return false;
    unsigned long regs = strtoul(p, &end, 10);
    const char *w = end + 9; /* past " register": "s", then the word ends */
    if (strncmp(end, " register", 9) || regs > 65535) return false;
    if (*w == 's') w++;
    if (isalnum((unsigned char)*w) || *w == '_') return false;
    out->regs = (unsigned)regs;
    const char *smem = in_line(end, " bytes smem");
    if (!smem) return true;
    const char *q = smem; /* back to the start of "M+K" */
    while (q > end && (isdigit((unsigned char)q[-1]) || q[-1] == '+'))
        q--;
    while (*q && q < smem) {
        out->smem += strtoul(q, &end, 10);
        q = *end == '+' ? end + 1 : smem;
    }
    return true;
}

/* Whether the entry line at e (just past ENTRY) names kernel. */
static bool entry_is(const char *e, const char *kernel)
{
    size_t n = strlen(kernel);
    return !strncmp(e, kernel, n) && e[n] == '\'';
}

bool cg_ptxas_find(const char *log, const char *kernel, cg_ptxas_info *out)
{
    *out = (cg_ptxas_info){0};
    if (!log) return false;
    bool entries = false, mine = false;
    const char *only = NULL;
    size_t used = 0;
    for (const char *p = log; p && *p; p = next_line(p)) {
        const char *e = in_line(p, ENTRY), *u = in_line(p, USED);
        if (e) {
            entries = true;
            mine = kernel && entry_is(e + strlen(ENTRY), kernel);
        } else if (u && in_line(u, " register")) {
            if (mine) return parse_used(u + strlen(USED), out);
            used++;
            if (!only) only = u;
        }
    }
    if ((kernel && entries) || used != 1 || !parse_used(only + strlen(USED), out)) {
        *out = (cg_ptxas_info){0};
        return false;
    }
    return true;
}
