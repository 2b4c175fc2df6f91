/* Output-path checks and report metadata shared by run, peak and report. */
#include "cli/meta.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "core/log.h"

cg_status cg_cli_check_writable(const char *flag, const char *path)
{
    if (!path || !strcmp(path, "-")) return CG_OK;
    bool existed = access(path, F_OK) == 0;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0) {
        CG_ERROR("cannot write %s file %s: %s; choose a writable path", flag, path, strerror(errno));
        return CG_E_IO;
    }
    close(fd);
    if (!existed) unlink(path);
    return CG_OK;
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
    for (int i = 0; i < argc && used < len; i++) {
        int w = snprintf(buf + used, len - used, "%s%s", i ? " " : "", argv[i]);
        if (w < 0) break;
        used += (size_t)w;
    }
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
    rd->compute_units = d->compute_units;
    rd->clock_mhz = d->clock_mhz;
    rd->global_mem = d->global_mem;
    rd->local_mem = d->local_mem;
    rd->max_alloc = d->max_alloc;
}
