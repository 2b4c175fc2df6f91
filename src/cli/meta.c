/* Output-path checks and report metadata shared by run, peak and report. */
#include "cli/meta.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli/outputs.h"
#include "core/log.h"
#include "model/utf8.h"

cg_status cg_cli_check_writable(const char *flag, const char *path)
{
    cg_out_file f = {flag, path}; /* creates nothing: a dangling link or a FIFO stays as it is */
    return cg_cli_check_outputs(&f, 1);
}

void cg_cli_time_utc(char *buf, size_t len)
{
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

void cg_cli_command_line(char *buf, size_t len, int argc, char **argv)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; i < argc && used + 1 < len; i++) {
        if (i) buf[used++] = ' ';
        /* each argument on its own: a '?' for an invalid byte, cut on a character boundary (valid JSON) */
        cg_utf8_clean(buf + used, len - used, argv[i], false);
        used += strlen(buf + used);
    }
    buf[used] = 0;
}

void cg_cli_fill_device(cg_report_device *rd, const cg_device *d)
{
    snprintf(rd->platform, sizeof rd->platform, "%s", d->platform_name);
    snprintf(rd->platform_version, sizeof rd->platform_version, "%s", d->platform_version);
    snprintf(rd->name, sizeof rd->name, "%s", d->name);
    snprintf(rd->vendor, sizeof rd->vendor, "%s", d->vendor);
    snprintf(rd->version, sizeof rd->version, "%s", d->version);
    snprintf(rd->driver, sizeof rd->driver, "%s", d->driver);
    snprintf(rd->type, sizeof rd->type, "%s", cg_device_type_name(d->type));
    snprintf(rd->c_version, sizeof rd->c_version, "%s", d->c_version);
    rd->compute_units = d->compute_units;
    rd->clock_mhz = d->clock_mhz;
    rd->global_mem = d->global_mem;
    rd->global_cache = d->global_cache;
    rd->local_mem = d->local_mem;
    rd->const_mem = d->const_mem;
    rd->max_alloc = d->max_alloc;
    rd->max_wg = d->max_wg;
    rd->global_cacheline = d->global_cacheline;
    rd->wg_multiple = d->wg_multiple;
    snprintf(rd->local_mem_type, sizeof rd->local_mem_type, "%s", cg_local_mem_type_name(d->local_mem_type));
    snprintf(rd->global_cache_type, sizeof rd->global_cache_type, "%s",
             cg_cache_type_name(d->global_cache_type));
    rd->images = d->images;
    rd->fp64 = d->fp64;
    rd->nvidia_ptx = d->nvidia;
    rd->fp16_known = d->fp16 != CG_FP16_UNKNOWN;
    rd->fp16 = d->fp16 == CG_FP16_LISTED || d->fp16 == CG_FP16_COMPILES;
}

void cg_cli_fill_meta(cg_report *rep, const cg_device *d, int argc, char **argv)
{
    snprintf(rep->tool_version, sizeof rep->tool_version, "%s", CLGAUGE_VERSION);
    snprintf(rep->git_commit, sizeof rep->git_commit, "%s", CLGAUGE_GIT);
    cg_cli_time_utc(rep->time_utc, sizeof rep->time_utc);
    cg_cli_command_line(rep->command_line, sizeof rep->command_line, argc, argv);
    cg_cli_fill_device(&rep->device, d);
}

static bool is_stdout(const char *path)
{
    return path && !strcmp(path, "-");
}

bool cg_cli_table_wanted(const cg_opts *o)
{
    return !o->quiet && !is_stdout(o->json) && !is_stdout(o->csv) && !is_stdout(o->html);
}
