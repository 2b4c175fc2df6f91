/* Kernel facts and estimated occupancy (docs/tune.md, "Kernel facts and occupancy"): which kernels a rung
 * launched and with what work-group (recorded by cg_enqueue_kernel while a cg_launches log is attached to the
 * run's cg_events), what clGetKernelWorkGroupInfo says of a kernel, its registers per work-item on NVIDIA
 * (the ptxas report of a separate -cl-nv-verbose build), and from these an occupancy estimate
 * (core/occupancy.h). The runner fills every rung's row with them; a tuner can call cg_kfacts_query on each
 * candidate. */
#ifndef CG_KFACTS_H
#define CG_KFACTS_H
#include <stdbool.h>
#include <stddef.h>
#include "core/context.h"
#include "core/events.h"
#include "model/result.h"

/* The distinct kernels a log keeps; launches of more kernels are not recorded (each counted in `more`). */
#define CG_LAUNCH_KERNELS_MAX 16

/* One kernel as first launched: its local size (auto: NULL, the runtime's choice) and its summed time. */
typedef struct cg_launch {
    cl_kernel k; /* retained by the log */
    cl_uint dims;
    size_t local[3];
    bool auto_local;
    size_t launches;
    double device_s; /* cg_launches_time: summed end - start of its commands */
} cg_launch;

/* The launches of one run: each distinct kernel once, and the kernel of each recorded event. */
typedef struct cg_launches {
    cg_launch k[CG_LAUNCH_KERNELS_MAX];
    size_t n, more;
    int main_k;         /* cg_launches_main's answer; -1 before it (or when no launch was recorded) */
    unsigned char *kid; /* kid[event index]: index into k, or 0xff for a command that is no recorded launch */
    size_t kid_cap;
} cg_launches;

void cg_launches_init(cg_launches *l);
/* Releases the kernels and the event map. */
void cg_launches_fini(cg_launches *l);
/* Records a launch of k (local NULL: the runtime's choice) whose event is ev_index of the run's cg_events.
 * A kernel seen before keeps its first local size. Best effort: out of memory, the launch is not recorded. */
void cg_launches_note(cg_launches *l, cl_kernel k, cl_uint dims, const size_t *local, size_t ev_index);
/* Sums each kernel's command times (end - start) over the events of ev (complete: after cg_events_elapsed)
 * and returns (and keeps in l->main_k) the index of the kernel with the most device time (the first launched
 * on a tie), or -1 when the log holds none. When a profiling query fails, the first kernel. */
int cg_launches_main(cg_launches *l, const cg_events *ev);

/* The facts of kernel k on ctx's device launched as (dims, local; local NULL: the runtime's choice), with
 * regs registers per work-item (0: not known), into *f: name, work-group facts, local size as launched and
 * the occupancy estimate (cg_kfacts_occupancy). f->kernels is left as it was. CG_E_RUNTIME (logged) when a
 * clGetKernel*Info call fails; f then holds what was learnt. */
cg_status cg_kfacts_query(const cg_ctx *ctx, cl_kernel k, cl_uint dims, const size_t *local, unsigned regs,
                          cg_kfacts *f);

/* Fills f's occupancy fields from its wg_size, registers and local_bytes: with the NVIDIA table for the
 * device's compute capability (cl_nv_device_attribute_query) where it has one, else the generic model
 * (CPU: one group per core; other devices: local memory only). */
void cg_kfacts_occupancy(const cg_device *d, cg_kfacts *f);

/* Whether the device takes -cl-nv-verbose (cl_nv_compiler_options): cg_kfacts_registers can work. */
bool cg_kfacts_has_nv_verbose(const cg_device *d);

/* Registers per work-item of `kernel` as ptxas reports them when `file` is built from source with `options`
 * plus -cl-nv-verbose: a separate, untimed program that the cache never sees, so the timed program's code
 * is the one built without the flag. 0 when the device lacks cl_nv_compiler_options, the build fails or the
 * log names no such kernel (logged at debug level). */
unsigned cg_kfacts_registers(const cg_ctx *ctx, const char *file, const char *options, const char *kernel);

#endif
