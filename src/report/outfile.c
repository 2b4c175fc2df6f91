/* All-or-nothing report files: the JSON, CSV and HTML writers go through core/safefile (a unique temporary
 * file next to the real target, renamed over it once everything was written). */
#include "report/outfile.h"

#include "core/safefile.h"

int cg_outfile_write(const char *path, cg_outfile_emit emit, const void *ctx)
{
    return cg_safefile_write(path, emit, ctx);
}
