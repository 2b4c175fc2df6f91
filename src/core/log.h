/* Logging: core/, peak/ and workloads/ never print; they call cg_log and main.c decides where lines go. */
#ifndef CG_LOG_H
#define CG_LOG_H
#include <stdarg.h>

typedef enum cg_log_level { CG_LOG_DEBUG, CG_LOG_INFO, CG_LOG_WARN, CG_LOG_ERROR } cg_log_level;

typedef void (*cg_log_fn)(cg_log_level level, const char *msg, void *user);

/* Installs the sink for all log lines (NULL: drop them). Not thread-safe; call once at start-up. */
void cg_log_set_sink(cg_log_fn fn, void *user);

/* Formats one line (no trailing newline) and hands it to the sink. */
void cg_log(cg_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define CG_ERROR(...) cg_log(CG_LOG_ERROR, __VA_ARGS__)
#define CG_WARN(...)  cg_log(CG_LOG_WARN, __VA_ARGS__)
#define CG_INFO(...)  cg_log(CG_LOG_INFO, __VA_ARGS__)
#define CG_DEBUG(...) cg_log(CG_LOG_DEBUG, __VA_ARGS__)

#endif
