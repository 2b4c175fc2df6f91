/* The single logging entry point: formats a line and hands it to the sink main.c installed. */
#include "core/log.h"
#include <stdio.h>

static cg_log_fn sink;
static void *sink_user;

void cg_log_set_sink(cg_log_fn fn, void *user)
{
    sink = fn;
    sink_user = user;
}

void cg_log(cg_log_level level, const char *fmt, ...)
{
    if (!sink) return;
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    sink(level, buf, sink_user);
}
