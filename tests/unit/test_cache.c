/* Hostile files where the caches and --kernel-dir expect their own: directories, FIFOs and devices are
 * refused at once (never a hang, never a 2^63-byte malloc), oversized files are refused, untrusted cache
 * directories and entries (another owner, group- or world-writable) are refused, a crafted entry whose length
 * does not match its header is refused before its binary reaches a driver, and cache writes are private
 * (0600, 0700) and leave no temporary behind. An alarm turns a hang into a failure. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/fs.h"
#include "core/log.h"
#include "core/program.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    cg_log_set_sink(NULL, NULL); /* drop the log lines */
    alarm(20);                   /* a FIFO that blocks fails the test instead of hanging it */
    snprintf(dir, sizeof dir, "/tmp/clgauge-cache.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static void path_of(char *out, size_t len, const char *name)
{
    snprintf(out, len, "%s/%s", dir, name);
}

static void write_file(const char *path, const void *data, size_t n, mode_t mode)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, mode), 0);
}

/* ---- cg_fs_read and cg_fs_open_regular */

static void test_read_refuses_non_regular(void **state)
{
    (void)state;
    char d[128], fifo[128];
    path_of(d, sizeof d, "a-dir.cl");
    path_of(fifo, sizeof fifo, "a-fifo.cl");
    assert_int_equal(mkdir(d, 0700), 0);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    size_t n = 7;
    errno = 0;
    assert_null(cg_fs_read(d, &n));
    assert_int_equal(errno, EISDIR);
    assert_non_null(strstr(cg_fs_strerror(EISDIR), "directory"));
    errno = 0;
    assert_null(cg_fs_read(fifo, &n)); /* returns at once: no writer is waited for */
    assert_int_equal(errno, EINVAL);
    assert_non_null(strstr(cg_fs_strerror(EINVAL), "FIFO"));
    errno = 0;
    assert_null(cg_fs_read("/dev/zero", &n)); /* an endless device is never read */
    assert_int_equal(errno, EINVAL);
    assert_int_equal(cg_fs_open_regular(d, NULL), -1);
    assert_null(cg_fs_fopen_regular(fifo, NULL));
    assert_int_equal(n, 7);
}

static void test_read_regular(void **state)
{
    (void)state;
    char p[128];
    path_of(p, sizeof p, "text.cl");
    write_file(p, "kernel", 6, 0600);
    size_t n = 0;
    char *s = cg_fs_read(p, &n);
    assert_non_null(s);
    assert_int_equal(n, 6);
    assert_string_equal(s, "kernel");
    free(s);
    errno = 0;
    assert_null(cg_fs_read_max(p, 5, &n)); /* over the cap */
    assert_int_equal(errno, EFBIG);
    s = cg_fs_read_max(p, 6, &n); /* exactly the cap */
    assert_non_null(s);
    free(s);
    path_of(p, sizeof p, "empty.cl");
    write_file(p, "", 0, 0600);
    s = cg_fs_read(p, &n);
    assert_non_null(s);
    assert_int_equal(n, 0);
    free(s);
    struct stat st;
    FILE *f = cg_fs_fopen_regular(p, &st);
    assert_non_null(f);
    assert_true(S_ISREG(st.st_mode));
    fclose(f);
}

/* ---- trust: directories and entries */

static void test_dir_trust(void **state)
{
    (void)state;
    char d[128], why[96] = "";
    path_of(d, sizeof d, "made/by/mkdirs");
    mode_t old = umask(0);
    bool made = cg_fs_mkdirs(d);
    umask(old);
    assert_true(made);
    struct stat st;
    assert_int_equal(stat(d, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700); /* private whatever the umask */
    assert_true(cg_fs_dir_trusted(d, why, sizeof why));
    assert_int_equal(chmod(d, 0770), 0);
    assert_false(cg_fs_dir_trusted(d, why, sizeof why));
    assert_non_null(strstr(why, "writable by group or others"));
    assert_int_equal(chmod(d, 0703), 0);
    assert_false(cg_fs_dir_trusted(d, why, sizeof why));
    assert_int_equal(chmod(d, 0755), 0); /* readable by others is fine, as for ~/.ssh */
    assert_true(cg_fs_dir_trusted(d, why, sizeof why));
    if (geteuid() == 0) { /* root can give it away: another owner is refused */
        assert_int_equal(chown(d, 65534, 65534), 0);
        assert_false(cg_fs_dir_trusted(d, why, sizeof why));
        assert_non_null(strstr(why, "another user"));
    }
    char f[128];
    path_of(f, sizeof f, "plain");
    write_file(f, "x", 1, 0600);
    assert_false(cg_fs_dir_trusted(f, why, sizeof why));
}

/* Loads path with key k and expects a refusal whose reason contains want. */
static void expect_refused(const char *path, cg_cache_key k, const char *want)
{
    unsigned char *bin = NULL;
    size_t n = 0;
    char why[128] = "";
    assert_false(cg_cache_load(path, k, &bin, &n, why, sizeof why));
    assert_null(bin);
    if (!strstr(why, want)) fail_msg("reason '%s' does not mention '%s'", why, want);
}

static void test_entry_refused(void **state)
{
    (void)state;
    unsigned char bin[256];
    for (size_t i = 0; i < sizeof bin; i++)
        bin[i] = (unsigned char)i;
    cg_cache_key k = cg_cache_key_make("s", "o", "p", "d", "v");
    char p[128];
    path_of(p, sizeof p, "fifo.bin");
    assert_int_equal(mkfifo(p, 0600), 0);
    expect_refused(p, k, "FIFO");
    path_of(p, sizeof p, "dir.bin");
    assert_int_equal(mkdir(p, 0700), 0);
    expect_refused(p, k, "directory");
    path_of(p, sizeof p, "entry.bin");
    assert_true(cg_cache_store(p, k, bin, sizeof bin));
    assert_int_equal(chmod(p, 0620), 0);
    expect_refused(p, k, "not trusted");
    assert_int_equal(chmod(p, 0602), 0);
    expect_refused(p, k, "not trusted");
    assert_int_equal(chmod(p, 0644), 0);
    unsigned char *got = NULL;
    size_t n = 0;
    char why[128];
    assert_true(cg_cache_load(p, k, &got, &n, why, sizeof why));
    free(got);
    if (geteuid() == 0) {
        assert_int_equal(chown(p, 65534, 65534), 0);
        expect_refused(p, k, "another user");
    }
}

/* A crafted entry: a valid header and checksum over a binary shorter than the header's size (what made PoCL
 * abort), or longer: the file's real length gives it away before the binary is read. */
static void test_entry_crafted_length(void **state)
{
    (void)state;
    unsigned char bin[512];
    memset(bin, 0x5a, sizeof bin);
    cg_cache_key k = cg_cache_key_make("s", "o", "p", "d", "v");
    char good[128], bad[128];
    path_of(good, sizeof good, "good.bin");
    path_of(bad, sizeof bad, "bad.bin");
    assert_true(cg_cache_store(good, k, bin, 256));
    size_t len = 0;
    char *img = cg_fs_read(good, &len);
    assert_non_null(img);
    assert_int_equal(len, 36 + 256 + 8);
    uint64_t claimed = 512; /* header says 512, file holds 256 + checksum */
    memcpy(img + 28, &claimed, 8);
    write_file(bad, img, len, 0600);
    expect_refused(bad, k, "length");
    claimed = 128; /* header says 128, file is longer */
    memcpy(img + 28, &claimed, 8);
    write_file(bad, img, len, 0600);
    expect_refused(bad, k, "length");
    free(img);
}

static size_t count_entries(void)
{
    size_t n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d) closedir(d);
    return n;
}

static void test_store_private_atomic(void **state)
{
    (void)state;
    unsigned char bin[64] = {1, 2, 3};
    cg_cache_key k = cg_cache_key_make("s", "o", "p", "d", "v");
    char p[128];
    path_of(p, sizeof p, "entry.bin");
    write_file(p, "old", 3, 0666);
    mode_t old = umask(0);
    bool ok = cg_cache_store(p, k, bin, sizeof bin);
    umask(old);
    assert_true(ok);
    struct stat st;
    assert_int_equal(stat(p, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600); /* replaced by a private file, not written in place */
    assert_int_equal(count_entries(), 1);      /* no temporary left behind */
    /* a write that cannot finish leaves the old entry and no temporary */
    path_of(p, sizeof p, "sub");
    assert_int_equal(mkdir(p, 0700), 0);
    assert_false(cg_cache_store(p, k, bin, sizeof bin)); /* rename over a directory fails */
    assert_int_equal(count_entries(), 2);
}

/* A child rewrites a 32 MiB file in a loop and gets SIGTERM while doing so (it spends nearly all its time
 * writing): it dies of the signal and leaves no temporary file behind. */
static void test_store_signal_cleanup(void **state)
{
    (void)state;
    char p[128];
    path_of(p, sizeof p, "big.bin");
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        size_t n = (size_t)32 << 20;
        unsigned char *buf = calloc(1, n);
        for (int i = 0; buf && i < 1000; i++)
            cg_fs_write_atomic(p, buf, n);
        _exit(0);
    }
    struct timespec ts = {0, 150 * 1000 * 1000};
    nanosleep(&ts, NULL);
    kill(pid, SIGTERM);
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.' && strcmp(e->d_name, "big.bin")) fail_msg("left behind: %s", e->d_name);
    if (d) closedir(d);
}

static void test_check_sources(void **state)
{
    (void)state;
    char p[128];
    const char *files[] = {"a.cl", "b.cl"};
    assert_int_equal(cg_program_check_sources(NULL, files, 2), CG_OK); /* embedded sources */
    assert_int_equal(cg_program_check_sources(dir, files, 2), CG_E_IO);
    path_of(p, sizeof p, "a.cl");
    write_file(p, "", 0, 0600);
    assert_int_equal(cg_program_check_sources(dir, files, 1), CG_OK);
    assert_int_equal(cg_program_check_sources(dir, files, 2), CG_E_IO); /* b.cl missing */
    path_of(p, sizeof p, "b.cl");
    assert_int_equal(mkdir(p, 0700), 0);
    assert_int_equal(cg_program_check_sources(dir, files, 2), CG_E_IO); /* b.cl a directory */
    assert_int_equal(rmdir(p), 0);
    assert_int_equal(mkfifo(p, 0600), 0);
    assert_int_equal(cg_program_check_sources(dir, files, 2), CG_E_IO); /* b.cl a FIFO: no hang */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_read_refuses_non_regular, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_regular, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dir_trust, setup, teardown),
        cmocka_unit_test_setup_teardown(test_entry_refused, setup, teardown),
        cmocka_unit_test_setup_teardown(test_entry_crafted_length, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_private_atomic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_signal_cleanup, setup, teardown),
        cmocka_unit_test_setup_teardown(test_check_sources, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
