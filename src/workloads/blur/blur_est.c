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
    /* The seed's own estimates (Table 14-1: copy, 2D and separable convolution, its recursive Gaussian;
     * Table 14-2: that filter with two transposes) are for sigma 5 only. Its recursive filter has 4 feed-
     * forward and 4 feedback taps per pass (64 FLOPs over 4 passes, 10 accesses as it counts them): the
     * Deriche rungs (deriche, deriche-vt16); Young-van Vliet's has 1 and 3. */
    bool s5 = sigma == 5.0;
    const cg_estimate all[] = {
        /* algorithm, accesses/px, MADs/px, rungs, the seed's MP/s */
        {"copy (1 read + 1 write)", 2, 0, "", s5 ? 14200 : 0},
        {"2D convolution", t * t + 1, t * t, "conv2d", s5 ? 30 : 0},
        {"separable, 2 passes", 2 * (t + 1), 2 * t, "sep,sep-local", s5 ? 443 : 0},
        {"separable, fused in local", 2, 2 * t, "fused,fused-ring", 0},
        {"recursive, rows only", 4, 8, "rgH", 0},
        {"recursive, columns only", 4, 8, "rgV", 0},
        {"recursive, 4 passes", 8, 16, "recursive", 0},
        {"recursive + 2 transposes", 12, 16, "recursive-vt16,recursive-vt,recursive-ht", 0},
        /* cut into blocks of BLUR_BLK (Nehab et al.): per direction the input read twice, the output written
         * once, 24 / BLUR_BLK floats of carries; both passes run twice (once from zero, once for the output)
         */
        {"recursive in blocks, 2 x 3 passes", 2 * (3 + 24.0 / BLUR_BLK), 32, "recursive-blocks", 0},
        {"seed: recursive 4+4 taps (T14-1)", 10, 32, "deriche", s5 ? 2840 : 0},
        {"seed: 4+4 taps, V+T+V+T (T14-2)", 14, 32, "deriche-vt16", s5 ? 2030 : 0},
    };
    size_t n = sizeof all / sizeof all[0];
    n = n < max ? n : max;
    for (size_t i = 0; i < n; i++)
        rows[i] = all[i];
    return n;
}
