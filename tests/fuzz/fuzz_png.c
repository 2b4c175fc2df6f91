/* Fuzz target: PNG input (`--input FILE.png`, cg_png_read_grey). A picture it accepts is written back with
 * cg_png_write_grey and read again, which must give the same pixels. Contract checked: no crash, leak,
 * sanitizer report or hang on any file; a refused file logs one line. */
#include <stdlib.h>
#include <string.h>
#include "core/log.h"
#include "core/pngio.h"
#include "fuzz.h"

static int lines;

static void count(cg_log_level level, const char *msg, void *user)
{
    (void)msg;
    (void)user;
    if (level >= CG_LOG_ERROR) lines++;
}

static void round_trip(const uint8_t *pix, size_t w, size_t h)
{
    uint8_t *again = NULL;
    size_t w2 = 0, h2 = 0;
    const char *path = cg_fuzz_file(1, NULL, 0);
    if (cg_png_write_grey(path, pix, w, h) != CG_OK) abort();
    if (cg_png_read_grey(path, &again, &w2, &h2) != CG_OK || w2 != w || h2 != h || memcmp(again, pix, w * h))
        abort();
    free(again);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cg_log_set_sink(count, NULL);
    const char *path = cg_fuzz_file(0, data, size);
    uint8_t *pix = NULL;
    size_t w = 0, h = 0;
    lines = 0;
    cg_status st = cg_png_read_grey(path, &pix, &w, &h);
    if (st == CG_OK) {
        if (!pix || !w || !h || lines) abort();
        round_trip(pix, w, h);
    } else if (pix || lines != 1) {
        abort(); /* a refused file: nothing handed back, one error line */
    }
    free(pix);
    return 0;
}
