/* Fuzz target: the run-file reader of `report` and `compare` (cg_report_load: cli/runfile.c reads the file,
 * model/load.c parses it), then what those commands do with a run it accepted: the text table, and compare
 * against itself on the same device and on another one.
 * Contract checked: no crash, leak or sanitizer report; a refused file comes with a one-line reason. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/runfile.h"
#include "fuzz.h"
#include "report/compare.h"
#include "report/report.h"

static FILE *devnull(void)
{
    static FILE *f;
    if (!f && !(f = fopen("/dev/null", "w"))) abort();
    return f;
}

static void use(const cg_report *r)
{
    char err[512];
    cg_report_text(r, devnull());
    cg_compare(r, "old.json", r, "new.json", 5.0, devnull(), err, sizeof err);
    cg_report other = *r; /* shallow: the rows are shared, only read */
    snprintf(other.device.name, sizeof other.device.name, "another %.200s", r->device.name);
    cg_compare(r, "a.json", &other, "b.json", 5.0, devnull(), err, sizeof err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = cg_fuzz_file(0, data, size);
    cg_report r;
    char err[512] = "";
    if (cg_report_load(path, &r, err, sizeof err) == 0)
        use(&r);
    else if (!err[0] || strchr(err, '\n'))
        abort(); /* a refusal must say why, in one line */
    cg_report_fini(&r);
    return 0;
}
