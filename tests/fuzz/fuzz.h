/* Shared by the fuzz targets (tests/fuzz/fuzz_*.c): the libFuzzer entry point every target defines, and a
 * per-process scratch file for readers that take a path. docs/robustness.md says how the targets are run. */
#ifndef CG_FUZZ_H
#define CG_FUZZ_H
#include <stddef.h>
#include <stdint.h>

/* The libFuzzer entry point: feeds one input to the reader under test; aborts on a broken contract. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Writes data to a scratch file of this process (named once by mkstemp in $TMPDIR or /tmp, removed at exit;
 * slot 0..3 picks one of four such files) and returns its path. Aborts when it cannot. */
const char *cg_fuzz_file(int slot, const uint8_t *data, size_t size);

#endif
