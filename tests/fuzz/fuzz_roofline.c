/* Fuzz target: the roofline cache (cg_roofline_load), the JSON file of ceilings `run` divides by. Contract
 * checked: no crash, leak or sanitizer report; accepted ceilings are finite and above zero. */
#include <math.h>
#include <stdlib.h>
#include "fuzz.h"
#include "peak/roofline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cg_roofline r = {0};
    const char *path = cg_fuzz_file(0, data, size);
    if (cg_roofline_load(path, &r) &&
        !(isfinite(r.copy_gbps) && isfinite(r.read_gbps) && isfinite(r.mad_gflops) && r.copy_gbps > 0 &&
          r.read_gbps > 0 && r.mad_gflops > 0))
        abort();
    return 0;
}
