/* Small file-system helpers shared by the caches and sources. */
#ifndef CG_FS_H
#define CG_FS_H
#include <stdbool.h>
#include <stddef.h>

/* mkdir -p; true when the directory exists afterwards (errno set otherwise). */
bool cg_fs_mkdirs(const char *dir);
/* Reads a whole file into a malloc'd NUL-terminated buffer; NULL with errno set on failure. */
char *cg_fs_read(const char *path, size_t *len);

#endif
