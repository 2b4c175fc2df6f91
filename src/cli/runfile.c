/* Run files from disk: the safe read (core/fs), then the model's parser. */
#include "cli/runfile.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include "core/fs.h"
#include "model/loadkeys.h"

int cg_report_load(const char *path, cg_report *r, char *err, size_t errlen)
{
    size_t len = 0;
    char *text = cg_fs_read_max(path, CG_LOAD_MAX_BYTES, &len);
    if (!text) {
        int e = errno;
        cg_report_init(r);
        if (e == EFBIG)
            snprintf(err, errlen,
                     "%s: cannot read: over the %u MiB a run file may have; give a run file written by "
                     "`clgauge run --json`",
                     path, CG_LOAD_MAX_BYTES >> 20);
        else
            snprintf(err, errlen, "%s: cannot read: %s%s", path, cg_fs_strerror(e),
                     e == EISDIR || e == EINVAL ? "; give a run file written by `clgauge run --json`" : "");
        return -1;
    }
    int rc = cg_report_parse(path, text, len, r, err, errlen);
    free(text);
    return rc;
}
