/* The buffer registry on the context: which buffers rungs write, and their poisoning before every run. */
#include "core/buffers.h"
#include <stdlib.h>
#include "core/clerr.h"

typedef struct cg_buf_entry {
    cl_mem mem;
    size_t bytes;
    cg_buf_role role;
} cg_buf_entry;

struct cg_buf_reg {
    cg_buf_entry *e;
    size_t n, cap;
};

static cg_status reg_add(cg_ctx *ctx, cl_mem mem, size_t bytes, cg_buf_role role)
{
    cg_status st = CG_OK;
    if (!ctx->bufs) ctx->bufs = calloc(1, sizeof *ctx->bufs);
    CG_FAIL_IF(!ctx->bufs, CG_E_RUNTIME, "out of host memory for the buffer registry");
    struct cg_buf_reg *r = ctx->bufs;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 16;
        cg_buf_entry *e = realloc(r->e, cap * sizeof *e);
        CG_FAIL_IF(!e, CG_E_RUNTIME, "out of host memory for the buffer registry");
        r->e = e;
        r->cap = cap;
    }
    CG_TRY(clRetainMemObject(mem));
    r->e[r->n++] = (cg_buf_entry){mem, bytes, role};
out:
    return st;
}

cg_status cg_buffer_create(cg_ctx *ctx, cl_mem_flags flags, size_t bytes, void *host, cg_buf_role role,
                           cl_mem *out)
{
    cg_status st = CG_OK;
    cl_mem m = NULL;
    *out = NULL;
    CG_TRY_OBJ(m, clCreateBuffer(ctx->context, flags, bytes, host, CG_ERRP));
    st = reg_add(ctx, m, bytes, role);
out:
    if (st != CG_OK && m) clReleaseMemObject(m);
    if (st == CG_OK) *out = m;
    return st;
}

unsigned char cg_buffers_poison_byte(unsigned run)
{
    return run % 2 ? 0xA5 : 0xFF;
}

cg_status cg_buffers_poison(cg_ctx *ctx, unsigned run)
{
    cg_status st = CG_OK;
    const struct cg_buf_reg *r = ctx->bufs;
    const unsigned char b = cg_buffers_poison_byte(run);
    const cl_uint word = 0x01010101u * b;
    bool any = false;
    for (size_t i = 0; r && i < r->n; i++) {
        if (r->e[i].role != CG_BUF_WRITTEN) continue;
        /* a 4-byte pattern where the size allows: faster fills on some drivers */
        if (r->e[i].bytes % 4 == 0)
            CG_TRY(clEnqueueFillBuffer(ctx->queue, r->e[i].mem, &word, 4, 0, r->e[i].bytes, 0, NULL, NULL));
        else
            CG_TRY(clEnqueueFillBuffer(ctx->queue, r->e[i].mem, &b, 1, 0, r->e[i].bytes, 0, NULL, NULL));
        any = true;
    }
    if (any) CG_TRY(clFinish(ctx->queue));
out:
    return st;
}

size_t cg_buffers_written_bytes(const cg_ctx *ctx)
{
    size_t sum = 0;
    for (size_t i = 0; ctx->bufs && i < ctx->bufs->n; i++)
        if (ctx->bufs->e[i].role == CG_BUF_WRITTEN) sum += ctx->bufs->e[i].bytes;
    return sum;
}

void cg_buffers_clear(cg_ctx *ctx)
{
    struct cg_buf_reg *r = ctx->bufs;
    for (size_t i = 0; r && i < r->n; i++)
        clReleaseMemObject(r->e[i].mem);
    if (r) r->n = 0;
}

void cg_buffers_fini(cg_ctx *ctx)
{
    cg_buffers_clear(ctx);
    if (ctx->bufs) free(ctx->bufs->e);
    free(ctx->bufs);
    ctx->bufs = NULL;
}
