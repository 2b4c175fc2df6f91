/* Up-front checks of a command's output files, shared by run and peak. */
#include "cli/outputs.h"

#include <errno.h>
#include <string.h>
#include "core/fs.h"
#include "core/log.h"
#include "core/safefile.h"

cg_status cg_cli_check_outputs(const cg_out_file *files, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; files[i].path && j < n; j++)
            if (files[j].path && cg_safefile_same(files[i].path, files[j].path)) {
                CG_ERROR("%s %s and %s %s name the same file: give each output its own file", files[i].flag,
                         files[i].path, files[j].flag, files[j].path);
                return CG_E_USAGE;
            }
    for (size_t i = 0; i < n; i++)
        if (files[i].path && cg_safefile_check(files[i].path) != 0) {
            CG_ERROR("cannot write %s file %s: %s; choose a writable path", files[i].flag, files[i].path,
                     cg_fs_strerror(errno));
            return CG_E_IO;
        }
    return CG_OK;
}
