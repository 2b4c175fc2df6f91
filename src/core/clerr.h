/* Names of OpenCL error codes and the one CG_TRY macro that every OpenCL call goes through. */
#ifndef CG_CLERR_H
#define CG_CLERR_H
#include "core/cl.h"
#include "core/log.h"
#include "core/status.h"

/* "CL_OUT_OF_RESOURCES" for -5; an unknown code gives "CL_UNKNOWN_ERROR(-NN)" in a static per-thread buffer.
 */
const char *cg_cl_strerror(cl_int err);

/* Runs an OpenCL call; on failure logs "what failed: CL_NAME" and jumps to `out` with st = CG_E_RUNTIME.
 * The enclosing function must declare `cg_status st` and an `out:` label. */
#define CG_TRY(call)                                                                                         \
    do {                                                                                                     \
        cl_int cg_try_err_ = (call);                                                                         \
        if (cg_try_err_ != CL_SUCCESS) {                                                                     \
            CG_ERROR("%s failed: %s (%s:%d)", #call, cg_cl_strerror(cg_try_err_), __FILE__, __LINE__);       \
            st = CG_E_RUNTIME;                                                                               \
            goto out;                                                                                        \
        }                                                                                                    \
    } while (0)

/* Same, for calls that return an object and report through an err out-parameter: CG_TRY_OBJ(x, clCreateX(...,
 * &e)). */
#define CG_TRY_OBJ(lhs, call)                                                                                \
    do {                                                                                                     \
        cl_int cg_try_err_ = CL_SUCCESS;                                                                     \
        cl_int *CG_ERRP = &cg_try_err_;                                                                      \
        (void)CG_ERRP;                                                                                       \
        (lhs) = (call);                                                                                      \
        if (cg_try_err_ != CL_SUCCESS) {                                                                     \
            CG_ERROR("%s failed: %s (%s:%d)", #call, cg_cl_strerror(cg_try_err_), __FILE__, __LINE__);       \
            st = CG_E_RUNTIME;                                                                               \
            goto out;                                                                                        \
        }                                                                                                    \
    } while (0)

/* Jumps to out with a status after logging one line, PoCL-style checklist: CG_FAIL_IF(n == 0, CG_E_USAGE,
 * "..."). */
#define CG_FAIL_IF(cond, code, ...)                                                                          \
    do {                                                                                                     \
        if (cond) {                                                                                          \
            CG_ERROR(__VA_ARGS__);                                                                           \
            st = (code);                                                                                     \
            goto out;                                                                                        \
        }                                                                                                    \
    } while (0)

#endif
