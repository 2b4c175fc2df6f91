/* The NVIDIA OpenCL driver's ptxas report: with the build option -cl-nv-verbose (extension
 * cl_nv_compiler_options) the build log holds, per kernel, lines such as
 *     ptxas info    : Compiling entry function 'reduce_local' for 'sm_90'
 *     ptxas info    : Used 32 registers, 4096 bytes smem, 400 bytes cmem[0]
 * This parser is pure (no OpenCL) so that it is unit-tested on sample lines on a machine without NVIDIA. */
#ifndef CG_PTXAS_H
#define CG_PTXAS_H
#include <stdbool.h>

/* What ptxas says of one kernel. */
typedef struct cg_ptxas_info {
    unsigned regs;      /* "Used N registers" */
    unsigned long smem; /* "M bytes smem" (static shared memory; "M+K bytes smem" is summed) */
} cg_ptxas_info;

/* Finds the "Used N registers" line of `kernel` in log: the one after "Compiling entry function 'kernel'"
 * (before the next entry). kernel NULL, or a log without entry lines: its only "Used" line. False, *out
 * zeroed, when there is no such line (or, without entry lines, more than one), or its numbers do not parse.
 */
bool cg_ptxas_find(const char *log, const char *kernel, cg_ptxas_info *out);

#endif
