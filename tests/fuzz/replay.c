/* A main for the fuzz targets without libFuzzer (gcc builds, ctest): feeds every file of the directories
 * (or the files) named on the command line to LLVMFuzzerTestOneInput once. Fails when an argument holds no
 * input, so a missing corpus cannot pass silently; a target's abort or a sanitizer report fails it too.
 * Each input is named on stderr before it runs. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
        fprintf(stderr, "replay: %s is not a readable file\n", path);
        if (f) fclose(f);
        return -1;
    }
    size_t n = (size_t)st.st_size;
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf || (n && fread(buf, n, 1, f) != 1)) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        free(buf);
        fclose(f);
        return -1;
    }
    fclose(f);
    fprintf(stderr, "replay: %s\n", path); /* the last line names the input when the target aborts */
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

/* Runs every regular file of dir; returns how many, or -1. */
static int run_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) return run_file(dir) == 0 ? 1 : -1;
    int count = 0;
    char path[4096];
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (run_file(path) != 0) {
            count = -1;
            break;
        }
        count++;
    }
    closedir(d);
    return count;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR_OR_FILE...\n", argv[0]);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        int n = run_dir(argv[i]);
        if (n <= 0) {
            fprintf(stderr, "replay: %s: %s\n", argv[i], n == 0 ? "no input files" : "failed");
            return 1;
        }
        printf("replay: %s: %d inputs, no failure\n", argv[i], n);
    }
    return 0;
}
