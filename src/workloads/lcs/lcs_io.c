/* The lcs workload's files: --input A,B (two files of bytes, the strings, instead of random ones) and
 * --output (the --traceback subsequence's bytes). An input's bytes are relabelled 0..k-1 over the k distinct
 * bytes of both files (the LCS does not change under a one-to-one relabelling, and the match masks shrink
 * from 256 rows to k); the output maps them back. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/fs.h"
#include "core/log.h"
#include "core/safefile.h"
#include "workloads/lcs/lcs.h"

/* The two paths of --input A,B into a and b (each < len): split at the only comma. */
static cg_status split_input(const char *in, char *a, char *b, size_t len)
{
    const char *comma = strchr(in, ',');
    size_t la = comma ? (size_t)(comma - in) : 0;
    if (!comma || la == 0 || !comma[1] || strchr(comma + 1, ',') || la >= len || strlen(comma + 1) >= len) {
        CG_ERROR("lcs: --input %s is not two files: use --input first.txt,second.txt", in);
        return CG_E_USAGE;
    }
    memcpy(a, in, la);
    a[la] = '\0';
    strcpy(b, comma + 1);
    return CG_OK;
}

/* One file's bytes (1 to LCS_MAX_LEN of them): malloc'd into *x, its length into *len. */
static cg_status read_string(const char *path, uint8_t **x, size_t *len)
{
    char *buf = cg_fs_read_max(path, LCS_MAX_LEN, len);
    if (!buf) {
        int e = errno;
        if (e == EFBIG) {
            CG_ERROR("lcs: --input %s is longer than %d bytes: give a shorter file", path, LCS_MAX_LEN);
            return CG_E_USAGE;
        }
        CG_ERROR("lcs: cannot read --input %s: %s: give a readable file", path, cg_fs_strerror(e));
        return CG_E_IO;
    }
    if (*len == 0) {
        free(buf);
        CG_ERROR("lcs: --input %s is empty: each string needs at least one byte", path);
        return CG_E_USAGE;
    }
    *x = (uint8_t *)buf;
    return CG_OK;
}

/* Relabels a and b over their distinct bytes: s->alphabet of them, s->sym[code] the byte. */
static void relabel(lcs_state *s)
{
    int code[256];
    memset(code, -1, sizeof code);
    s->alphabet = 0;
    for (int pass = 0; pass < 2; pass++) {
        uint8_t *x = pass ? s->b : s->a;
        size_t len = pass ? s->m : s->n;
        for (size_t i = 0; i < len; i++) {
            if (code[x[i]] < 0) {
                s->sym[s->alphabet] = x[i];
                code[x[i]] = s->alphabet++;
            }
            x[i] = (uint8_t)code[x[i]];
        }
    }
}

cg_status lcs_read_input(const cg_run_opts *o, lcs_state *s)
{
    char pa[4096], pb[4096];
    cg_status st = split_input(o->input, pa, pb, sizeof pa);
    if (st == CG_OK && o->size.dims) {
        CG_ERROR("lcs: --input %s and --size both given: the files set the lengths; drop --size", o->input);
        st = CG_E_USAGE;
    }
    if (st == CG_OK && cg_wopts_find(o->wopts, "alphabet")) {
        CG_ERROR("lcs: --alphabet sets the random strings' characters; with --input the files' bytes are the "
                 "characters: drop --alphabet");
        st = CG_E_USAGE;
    }
    if (st == CG_OK && s->pairs > 1) {
        CG_ERROR("lcs: --input gives one pair of strings: drop --pairs");
        st = CG_E_USAGE;
    }
    if (st == CG_OK) st = read_string(pa, &s->a, &s->n);
    if (st == CG_OK) st = read_string(pb, &s->b, &s->m);
    if (st == CG_OK) relabel(s);
    return st;
}

typedef struct lcs_out {
    const lcs_state *s;
} lcs_out;

/* The subsequence's bytes, first to last (s->out holds a's positions, last first). */
static int emit(FILE *f, const void *ctx)
{
    const lcs_state *s = ((const lcs_out *)ctx)->s;
    for (size_t k = s->out_len; k-- > 0;)
        if (putc(s->sym[s->a[s->out[k]]], f) == EOF) return -1;
    return 0;
}

cg_status lcs_save_output(cg_ctx *ctx, void *state, const char *path)
{
    (void)ctx;
    const lcs_state *s = state;
    lcs_out out = {s};
    if (!s->have_out) {
        CG_ERROR("cannot write %s: no lcs rung produced a verified traceback", path);
        return CG_E_IO;
    }
    if (cg_safefile_write(path, emit, &out) != 0) {
        CG_ERROR("cannot write %s: %s: give a writable path", path, cg_fs_strerror(errno));
        return CG_E_IO;
    }
    return CG_OK;
}
