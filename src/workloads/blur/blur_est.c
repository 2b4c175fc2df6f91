/* The blur ladder's speed estimate (`clgauge run blur --estimate`), after the Apple guide's worked example:
 * each algorithm's global memory accesses and MADs per pixel as its simplest kernel issues them (no cache
 * counted), for the radius of --sigma. The CLI turns them into predicted rates from the measured copy
 * bandwidth and MAD rate and prints them next to the measured rungs. */
#include "workloads/blur/blur.h"
#include "workloads/blur/blur_ref.h"

size_t blur_estimate(const cg_run_opts *o, cg_estimate *rows, size_t max)
{
    double sigma = cg_wopts_number(o->wopts, "sigma", BLUR_DEFAULT_SIGMA);
    double t = 2.0 * blur_radius(sigma) + 1.0;
    const cg_estimate all[] = {
        /* algorithm, accesses/px, MADs/px, rungs */
        {"copy (1 read + 1 write)", 2, 0, ""},
        {"2D convolution", t * t + 1, t * t, "conv2d"},
        {"separable, 2 passes", 2 * (t + 1), 2 * t, "sep,sep-local"},
        {"separable, fused in local", 2, 2 * t, "fused"},
        {"recursive, rows only", 4, 8, "rgH"},
        {"recursive, columns only", 4, 8, "rgV"},
        {"recursive, 4 passes", 8, 16, "recursive"},
        {"recursive + 2 transposes", 12, 16, "recursive-vt,recursive-ht"},
    };
    size_t n = sizeof all / sizeof all[0];
    n = n < max ? n : max;
    for (size_t i = 0; i < n; i++)
        rows[i] = all[i];
    return n;
}
