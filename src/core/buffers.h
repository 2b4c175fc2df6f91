/* The registry of a workload's device buffers, kept on the context: every buffer a rung may write (outputs
 * and intermediates) is poisoned by the runner before every run, warm-up and timed, so that each rung starts
 * from a state as if it ran alone, whatever an earlier rung of the ladder left in a shared buffer. A workload
 * gets this by construction when it creates its buffers with cg_buffer_create. */
#ifndef CG_BUFFERS_H
#define CG_BUFFERS_H
#include <stddef.h>
#include "core/context.h"

typedef enum cg_buf_role {
    CG_BUF_INPUT,  /* written once at creation (host copy), never written by a rung: not poisoned */
    CG_BUF_WRITTEN /* an output or intermediate some rung writes: poisoned before every run */
} cg_buf_role;

/* clCreateBuffer(flags, bytes, host) recorded on ctx with its role. The caller owns *out and releases it as
 * usual; the registry keeps its own reference until cg_buffers_clear. CG_E_RUNTIME when the creation or the
 * registry's growth fails (*out is then NULL). */
cg_status cg_buffer_create(cg_ctx *ctx, cl_mem_flags flags, size_t bytes, void *host, cg_buf_role role,
                           cl_mem *out);

/* cg_buffer_create in a function with `cg_status st` and an `out:` label (as CG_TRY): jumps to out on
 * failure. */
#define CG_TRY_BUF(ctx, flags, bytes, host, role, out_mem)                                                   \
    do {                                                                                                     \
        if ((st = cg_buffer_create(ctx, flags, bytes, host, role, out_mem)) != CG_OK) goto out;              \
    } while (0)

/* The byte every WRITTEN buffer is filled with before run `run` (0-based, warm-up runs first): 0xFF on even
 * runs (float NaN, UINT_MAX, 255), 0xA5 on odd runs, so that an unwritten element of any type fails one of
 * two consecutive runs even where the right value happens to equal one poison. */
unsigned char cg_buffers_poison_byte(unsigned run);

/* Fills every WRITTEN buffer on ctx with cg_buffers_poison_byte(run) and waits (untimed). CG_E_RUNTIME when a
 * fill fails. */
cg_status cg_buffers_poison(cg_ctx *ctx, unsigned run);

/* Bytes of the WRITTEN buffers on ctx (what one poisoning fills). */
size_t cg_buffers_written_bytes(const cg_ctx *ctx);

/* Drops the registry's references (the runner calls it after a workload's teardown); keeps the storage. */
void cg_buffers_clear(cg_ctx *ctx);
/* Clears and frees the registry (cg_ctx_fini calls it). */
void cg_buffers_fini(cg_ctx *ctx);

#endif
