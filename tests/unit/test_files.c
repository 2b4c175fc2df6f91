/* Output files never lose what the user had (core/safefile.c, core/pngio.c): a unique temporary name that
 * leaves the user's PATH.tmp alone, symbolic links updated through (the link kept), the permission bits kept,
 * a failed write that removes nothing but its own temporary file, the up-front check, the same-file test;
 * and PNG input with a palette and a tRNS chunk. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "core/pngio.h"
#include "core/safefile.h"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/clgauge-test-files-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const char *in_dir(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", dir, name);
    return buf;
}

static int emit_text(FILE *f, const void *ctx)
{
    return fputs(ctx, f) < 0 ? -1 : 0;
}

static int emit_fail(FILE *f, const void *ctx)
{
    (void)ctx;
    fputs("partial", f);
    errno = ENOSPC;
    return -1;
}

static void write_text(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void assert_content(const char *path, const char *want)
{
    char got[256] = {0};
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(got, 1, sizeof got - 1, f);
    got[n] = 0;
    fclose(f);
    assert_string_equal(got, want);
}

/* Files in dir, the directory's own entries not counted: no temporary file may be left behind. */
static int count_files(void)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void test_user_tmp_kept(void **state)
{
    (void)state;
    char out[300], tmp[300];
    in_dir(out, sizeof out, "out.json");
    in_dir(tmp, sizeof tmp, "out.json.tmp");
    write_text(tmp, "mine");
    assert_int_equal(cg_safefile_write(out, emit_text, "new"), 0);
    assert_content(out, "new");
    assert_content(tmp, "mine"); /* the old code wrote and renamed PATH.tmp */
    assert_int_equal(count_files(), 2);
    unlink(out);
    unlink(tmp);
}

static void test_failure_keeps_old(void **state)
{
    (void)state;
    char out[300];
    in_dir(out, sizeof out, "keep.json");
    write_text(out, "old");
    assert_int_equal(cg_safefile_write(out, emit_fail, NULL), -1);
    assert_int_equal(errno, ENOSPC);
    assert_content(out, "old");
    assert_int_equal(count_files(), 1); /* the temporary file is gone */
    unlink(out);
}

static void test_symlink_and_mode(void **state)
{
    (void)state;
    char real[300], link[300], dangling[300], target[300];
    in_dir(real, sizeof real, "real.json");
    in_dir(link, sizeof link, "link.json");
    write_text(real, "old");
    chmod(real, 0640);
    assert_int_equal(symlink("real.json", link), 0); /* relative: resolved from the link's directory */
    assert_int_equal(cg_safefile_write(link, emit_text, "new"), 0);
    struct stat sb;
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode)); /* still a link */
    assert_content(real, "new");
    assert_int_equal(stat(real, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0640);
    /* a dangling link gets its target created, with 0666 & ~umask */
    in_dir(dangling, sizeof dangling, "dangling.json");
    in_dir(target, sizeof target, "target.json");
    assert_int_equal(symlink(target, dangling), 0);
    mode_t old = umask(027);
    assert_int_equal(cg_safefile_write(dangling, emit_text, "t"), 0);
    umask(old);
    assert_int_equal(lstat(dangling, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(stat(target, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0640);
    assert_content(target, "t");
    unlink(real);
    unlink(link);
    unlink(dangling);
    unlink(target);
}

static void test_long_name(void **state)
{
    (void)state;
    char name[256], path[600];
    memset(name, 'a', 255);
    name[255] = 0; /* the longest name: PATH.tmp would not fit */
    snprintf(path, sizeof path, "%s/%s", dir, name);
    assert_int_equal(cg_safefile_check(path), 0);
    assert_int_equal(cg_safefile_write(path, emit_text, "x"), 0);
    assert_content(path, "x");
    unlink(path);
    snprintf(path, sizeof path, "%s/%sb", dir, name);
    assert_int_equal(cg_safefile_check(path), -1);
    assert_int_equal(errno, ENAMETOOLONG);
}

static void test_check(void **state)
{
    (void)state;
    char p[300];
    assert_int_equal(cg_safefile_check("-"), 0);
    assert_int_equal(cg_safefile_check(dir), -1);
    assert_int_equal(errno, EISDIR);
    assert_int_equal(cg_safefile_check(in_dir(p, sizeof p, "missing/x.json")), -1);
    assert_int_equal(errno, ENOENT);
    assert_int_equal(cg_safefile_check(in_dir(p, sizeof p, "new.json")), 0);
    assert_int_equal(count_files(), 0); /* the check creates nothing */
    char link[300];
    assert_int_equal(symlink(dir, in_dir(link, sizeof link, "dirlink")), 0);
    assert_int_equal(cg_safefile_check(link), -1);
    assert_int_equal(errno, EISDIR);
    unlink(link);
}

static void test_same(void **state)
{
    (void)state;
    char a[300], b[300], l[300];
    in_dir(a, sizeof a, "a.json");
    in_dir(b, sizeof b, "b.json");
    in_dir(l, sizeof l, "l.json");
    assert_true(cg_safefile_same("-", "-"));
    assert_true(cg_safefile_same(a, a));
    assert_false(cg_safefile_same(a, b));
    assert_int_equal(symlink(a, l), 0);
    assert_true(cg_safefile_same(a, l)); /* not there yet: the same name through the link */
    write_text(a, "x");
    assert_true(cg_safefile_same(l, a)); /* there: the same inode */
    char dotted[300];
    snprintf(dotted, sizeof dotted, "%s/./a.json", dir);
    assert_true(cg_safefile_same(dotted, a));
    assert_false(cg_safefile_same(a, b));
    unlink(a);
    unlink(l);
}

/* A failed PNG write through a link to a device removes neither (the old code called remove() on the path).
 */
static void test_png_write_failure_removes_nothing(void **state)
{
    (void)state;
    if (access("/dev/full", W_OK) != 0) skip();
    char link[300];
    in_dir(link, sizeof link, "full.png");
    assert_int_equal(symlink("/dev/full", link), 0);
    uint8_t pix[16] = {0};
    assert_int_equal(cg_png_write_grey(link, pix, 4, 4), CG_E_IO);
    struct stat sb;
    assert_int_equal(lstat(link, &sb), 0);
    assert_true(S_ISLNK(sb.st_mode));
    assert_int_equal(stat("/dev/full", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    unlink(link);
}

static void test_png_palette_trns(void **state)
{
    (void)state;
    const char *data = getenv("TESTDATA");
    char path[600];
    snprintf(path, sizeof path, "%s/palette_trns_4x2.png", data ? data : "tests/data");
    uint8_t *pix = NULL;
    size_t w = 0, h = 0;
    assert_int_equal(cg_png_read_grey(path, &pix, &w, &h), CG_OK);
    assert_int_equal(w, 4);
    assert_int_equal(h, 2);
    /* palette black, white, red, blue as Rec. 601 grey: 0, 255, 76, 29 */
    const int want[8] = {0, 255, 76, 29, 255, 76, 29, 0};
    for (int i = 0; i < 8; i++)
        assert_in_range(pix[i], want[i] > 0 ? want[i] - 1 : 0, want[i] + 1);
    free(pix);
    assert_int_equal(cg_png_read_size(path, &w, &h), CG_OK);
    assert_int_equal(w * 10 + h, 42);
    /* a round trip through the writer */
    char out[300];
    uint8_t back[8] = {1, 2, 3, 4, 5, 6, 7, 8}, *got = NULL;
    assert_int_equal(cg_png_write_grey(in_dir(out, sizeof out, "rt.png"), back, 4, 2), CG_OK);
    assert_int_equal(cg_png_read_grey(out, &got, &w, &h), CG_OK);
    assert_memory_equal(got, back, 8);
    free(got);
    /* and through the RGB writer: grey pixels come back as they were, pure red as its Rec. 601 luma (76) */
    uint8_t rgb[8 * 3];
    for (int i = 0; i < 8; i++)
        rgb[3 * i] = rgb[3 * i + 1] = rgb[3 * i + 2] = back[i];
    rgb[21] = 255, rgb[22] = rgb[23] = 0;
    assert_int_equal(cg_png_write_rgb(out, rgb, 2, 4), CG_OK);
    assert_int_equal(cg_png_read_grey(out, &got, &w, &h), CG_OK);
    assert_int_equal(w * 10 + h, 24);
    assert_memory_equal(got, back, 7);
    assert_in_range(got[7], 75, 77);
    free(got);
    unlink(out);
}

int main(void)
{
    cg_log_set_sink(NULL, NULL); /* drop the log lines */
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_user_tmp_kept),
        cmocka_unit_test(test_failure_keeps_old),
        cmocka_unit_test(test_symlink_and_mode),
        cmocka_unit_test(test_long_name),
        cmocka_unit_test(test_check),
        cmocka_unit_test(test_same),
        cmocka_unit_test(test_png_write_failure_removes_nothing),
        cmocka_unit_test(test_png_palette_trns),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
