/* The single logging entry point: formats a line, makes it safe for a terminal and hands it to the sink
 * main.c installed. */
#include "core/log.h"
#include <stdio.h>
#include <string.h>
#include "model/utf8.h"

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
    /* Text from argv, the environment or a file may carry terminal escapes: each line is cleaned (invalid
     * UTF-8 and control characters become '?'), the line breaks of a multi-line message (a build log) kept.
     */
    for (char *line = buf; line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        cg_utf8_clean(line, strlen(line) + 1, line, true);
        if (nl) *nl = '\n';
        line = nl ? nl + 1 : NULL;
    }
    sink(level, buf, sink_user);
}
