/* The tuning cache (core/tunecache.h): a stored winner reads back exactly and only under its own key; a file
 * that is damaged (truncated, not JSON, a field missing, mistyped or too long, a wrong version, an edited
 * value, another key's entry), untrusted (group- or other-writable, another owner, a FIFO or directory) or
 * too large is refused with exactly one warning naming it, never a crash or a hang; a missing file is silent;
 * a failed store leaves the old entry as it was; size classes round log2. An alarm turns a hang into a
 * failure. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/fs.h"
#include "core/log.h"
#include "core/tunecache.h"

static char dir[64];
static int n_warn;
static char last_warn[1024];

static void record(cg_log_level level, const char *msg, void *user)
{
    (void)user;
    if (level != CG_LOG_WARN) return;
    n_warn++;
    snprintf(last_warn, sizeof last_warn, "%s", msg);
}

static int setup(void **state)
{
    (void)state;
    alarm(20); /* a FIFO that blocks fails the test instead of hanging it */
    n_warn = 0;
    last_warn[0] = 0;
    snprintf(dir, sizeof dir, "/tmp/clgauge-tune.XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "chmod -R u+rwx '%s'; rm -rf '%s'", dir, dir);
    return system(cmd);
}

static cg_tune_key key_a(void)
{
    cg_tune_key k = {"Portable Computing Language|OpenCL 3.0 PoCL",
                     "cpu-haswell|OpenCL 3.0",
                     "5.0+debian",
                     "histogram",
                     "local-copies",
                     "2^24",
                     "bins=256"};
    return k;
}

static cg_tune_entry entry_a(void)
{
    cg_tune_entry e = {"wg=128,copies=4", 1.0 / 3.0 * 1e-3, 0.1, "exhaustive", 48, "2025-11-27T13:58:00Z"};
    return e;
}

static void assert_entry_equal(const cg_tune_entry *a, const cg_tune_entry *b)
{
    assert_string_equal(a->params, b->params);
    assert_memory_equal(&a->t_best_s, &b->t_best_s, sizeof a->t_best_s); /* bit for bit */
    assert_memory_equal(&a->t_default_s, &b->t_default_s, sizeof a->t_default_s);
    assert_string_equal(a->strategy, b->strategy);
    assert_int_equal(a->candidates, b->candidates);
    assert_string_equal(a->when, b->when);
}

/* Loads k and asserts a refusal with exactly one warning naming the file and containing what. */
static void assert_refused(const cg_tune_key *k, const char *what)
{
    char path[512];
    cg_tune_entry e;
    cg_tunecache_path(dir, k, path, sizeof path);
    n_warn = 0;
    last_warn[0] = 0;
    assert_false(cg_tunecache_load(dir, k, &e));
    assert_int_equal(n_warn, 1);
    if (!strstr(last_warn, path) || !strstr(last_warn, what))
        fail_msg("warning \"%s\" should name %s and say \"%s\"", last_warn, path, what);
}

static char *read_text(const char *path, size_t *n)
{
    char *t = cg_fs_read(path, n);
    assert_non_null(t);
    return t;
}

static void write_text(const char *path, const char *text, size_t n, mode_t mode)
{
    unlink(path);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, mode), 0);
}

/* Files in d other than . and .. */
static int count_files(const char *d)
{
    DIR *h = opendir(d);
    int n = 0;
    assert_non_null(h);
    for (struct dirent *de; (de = readdir(h));)
        n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
    closedir(h);
    return n;
}

/* ---- size classes and paths */

static void test_size_class(void **state)
{
    (void)state;
    static const struct {
        double n;
        const char *want;
    } cases[] = {{1, "2^0"},   {3, "2^2"}, {1000, "2^10"}, {16777216, "2^24"}, {0, "0"},
                 {0.5, "0"},   {-8, "0"},  {NAN, "0"},     {INFINITY, "0"},    {-INFINITY, "0"},
                 {2.9, "2^2"}, {5, "2^2"}, {6, "2^3"},     {1e300, "2^997"}};
    char buf[16];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cg_tune_size_class(cases[i].n, buf, sizeof buf);
        assert_string_equal(buf, cases[i].want);
    }
    memcpy(buf, "xxxxxxxx", 9);
    cg_tune_size_class(16777216, buf, 3); /* truncated, never overrun */
    assert_string_equal(buf, "2^");
    cg_tune_size_class(16777216, buf, 0);
    assert_string_equal(buf, "2^");
}

static void test_path(void **state)
{
    (void)state;
    cg_tune_key k = key_a(), k2 = key_a();
    char p[512], p2[512];
    cg_tunecache_path("/c", &k, p, sizeof p);
    assert_int_equal(strlen(p), strlen("/c/tuned/") + 32 + strlen(".json"));
    assert_memory_equal(p, "/c/tuned/", 9);
    assert_int_equal(strspn(p + 9, "0123456789abcdef"), 32);
    assert_string_equal(p + 9 + 32, ".json");
    cg_tunecache_path("/c", &k2, p2, sizeof p2);
    assert_string_equal(p, p2); /* the same key, the same file */
    k2.workload = "histogra";   /* fields are length-prefixed: ("histogra", "mlocal-copies") differs */
    k2.rung = "mlocal-copies";
    cg_tunecache_path("/c", &k2, p2, sizeof p2);
    assert_string_not_equal(p, p2);
    k2 = key_a();
    k2.options = NULL; /* NULL reads as "" */
    cg_tunecache_path("/c", &k2, p2, sizeof p2);
    k.options = "";
    cg_tunecache_path("/c", &k, p, sizeof p);
    assert_string_equal(p, p2);
    cg_tunecache_path("", &k, p, sizeof p);
    assert_string_equal(p, "");
    cg_tunecache_path(NULL, &k, p, sizeof p);
    assert_string_equal(p, "");
}

/* ---- round trip and keys */

static void test_round_trip(void **state)
{
    (void)state;
    cg_tune_key k = key_a();
    cg_tune_entry e = entry_a(), got;
    char path[512], tuned[128];
    memset(&got, 0x5a, sizeof got);
    assert_true(cg_tunecache_store(dir, &k, &e));
    assert_true(cg_tunecache_load(dir, &k, &got));
    assert_entry_equal(&got, &e);
    assert_int_equal(n_warn, 0);
    cg_tunecache_path(dir, &k, path, sizeof path);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    snprintf(tuned, sizeof tuned, "%s/tuned", dir);
    assert_int_equal(stat(tuned, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0700);
    assert_int_equal(count_files(tuned), 1); /* no temporary left behind */
    size_t n;
    char *text = read_text(path, &n); /* the key fields in clear, a version and a checksum */
    const char *const clear[] = {"\"platform\"", k.platform, "\"device\"",     k.device,       "\"driver\"",
                                 k.driver,       k.workload, "\"size_class\"", k.size_class,   "\"options\"",
                                 k.options,      e.params,   "\"version\"",    "\"checksum\"", "exhaustive"};
    for (size_t i = 0; i < sizeof clear / sizeof clear[0]; i++)
        if (!strstr(text, clear[i])) fail_msg("%s not in the file", clear[i]);
    free(text);
    e.t_best_s = 2.5e-4; /* a second store replaces the entry */
    snprintf(e.params, sizeof e.params, "wg=64,copies=8");
    e.candidates = 0;
    e.t_default_s = 0;
    assert_true(cg_tunecache_store(dir, &k, &e));
    assert_true(cg_tunecache_load(dir, &k, &got));
    assert_entry_equal(&got, &e);
    assert_int_equal(count_files(tuned), 1);
    srand(20);
    for (int i = 0; i < 40; i++) { /* times read back bit for bit, whatever their last digit */
        e.t_best_s = (double)rand() / RAND_MAX * 1e-3;
        e.t_default_s = (double)rand() / RAND_MAX * pow(10, rand() % 40 - 20);
        assert_true(cg_tunecache_store(dir, &k, &e));
        assert_true(cg_tunecache_load(dir, &k, &got));
        assert_entry_equal(&got, &e);
    }
    assert_int_equal(n_warn, 0);
}

/* Key strings that JSON must escape, and bytes over 127, read back as they were. */
static void test_round_trip_odd_strings(void **state)
{
    (void)state;
    cg_tune_key k = {"a \"quoted\" \\ platform",
                     "tab\there\nnewline \x01\x1f",
                     "",
                     "h\xc3\xa9llo \xff\xfe",
                     "r",
                     "2^3",
                     NULL};
    cg_tune_entry e = entry_a(), got;
    snprintf(e.params, sizeof e.params, "%s", "p\"=\\1");
    e.t_best_s = 5e-324; /* the smallest subnormal */
    e.t_default_s = 1.7976931348623157e308;
    e.candidates = 4294967295u;
    assert_true(cg_tunecache_store(dir, &k, &e));
    assert_true(cg_tunecache_load(dir, &k, &got));
    assert_entry_equal(&got, &e);
    k.options = "";
    assert_true(cg_tunecache_load(dir, &k, &got)); /* NULL and "" are the same key */
    assert_int_equal(n_warn, 0);
}

static void test_other_keys_miss(void **state)
{
    (void)state;
    cg_tune_key k = key_a();
    cg_tune_entry e = entry_a(), got;
    assert_true(cg_tunecache_store(dir, &k, &e));
    for (int i = 0; i < 7; i++) {
        cg_tune_key o = key_a();
        const char **f[] = {&o.platform, &o.device,     &o.driver, &o.workload,
                            &o.rung,     &o.size_class, &o.options};
        *f[i] = "other";
        assert_false(cg_tunecache_load(dir, &o, &got));
    }
    assert_int_equal(n_warn, 0); /* another key is another file: simply none */
    cg_tune_key none = key_a();
    none.rung = "naive";
    assert_false(cg_tunecache_load(dir, &none, &got));
    assert_false(cg_tunecache_load("", &k, &got));
    assert_false(cg_tunecache_load(NULL, &k, &got));
    char empty[128];
    snprintf(empty, sizeof empty, "%s/no-such-cache", dir);
    assert_false(cg_tunecache_load(empty, &k, &got));
    assert_int_equal(n_warn, 0);
    assert_true(cg_tunecache_load(dir, &k, &got));
}

/* An intact file under another key's name (renamed by hand, or a hash collision) is that other key's. */
static void test_key_mismatch_in_file(void **state)
{
    (void)state;
    cg_tune_key k = key_a(), o = key_a();
    cg_tune_entry e = entry_a();
    char pk[512], po[512];
    o.rung = "local";
    assert_true(cg_tunecache_store(dir, &k, &e));
    cg_tunecache_path(dir, &k, pk, sizeof pk);
    cg_tunecache_path(dir, &o, po, sizeof po);
    assert_int_equal(rename(pk, po), 0);
    assert_refused(&o, "another key (its rung differs)");
}

/* ---- damaged files */

/* The stored file of key_a() as a cJSON tree (delete it), and its path in path. */
static cJSON *stored_doc(char *path, size_t len)
{
    cg_tune_key k = key_a();
    cg_tune_entry e = entry_a();
    size_t n;
    assert_true(cg_tunecache_store(dir, &k, &e));
    cg_tunecache_path(dir, &k, path, len);
    char *text = read_text(path, &n);
    cJSON *doc = cJSON_Parse(text);
    free(text);
    assert_non_null(doc);
    return doc;
}

/* Writes doc to path (unformatted), refuses it with what, and deletes doc. */
static void refuse_doc(cJSON *doc, const char *path, const char *what)
{
    char *text = cJSON_PrintUnformatted(doc);
    assert_non_null(text);
    write_text(path, text, strlen(text), 0600);
    cJSON_free(text);
    cJSON_Delete(doc);
    cg_tune_key k = key_a();
    assert_refused(&k, what);
}

/* One edit of the stored document: the member name of entry, key or the top ("" obj) deleted (DEL) or set to
 * a number, a string or an empty array; the load must then say what. */
typedef struct edit {
    const char *obj, *name;
    enum { DEL, NUM, STR, ARR } op;
    double num;
    const char *str, *what;
} edit;

static char long_params[201];

static const edit edits[] = {
    {"entry", "t_best_s", NUM, 1e-3, NULL, "checksum mismatch"}, /* a value edited */
    {"entry", "params", STR, 0, "wg=256,copies=4", "checksum mismatch"},
    {"entry", "candidates", NUM, 47, NULL, "checksum mismatch"},
    {"", "version", NUM, 2, NULL, "format version differs"},
    {"", "version", STR, 0, "1", "version is not a number"},
    {"", "version", DEL, 0, NULL, "version is missing"},
    {"", "kind", STR, 0, "clgauge run", "not a tuning cache file"},
    {"key", "device", DEL, 0, NULL, "key.device is missing"},
    {"key", "rung", NUM, 3, NULL, "key.rung is not a string"},
    {"", "key", ARR, 0, NULL, "key is not an object"},
    {"", "entry", DEL, 0, NULL, "entry is missing"},
    {"entry", "params", STR, 0, long_params, "entry.params is 200 bytes long"},
    {"entry", "strategy", STR, 0, "exhaustive-search!", "entry.strategy is 18 bytes long"},
    {"entry", "when", DEL, 0, NULL, "entry.when is missing"},
    {"entry", "t_best_s", STR, 0, "0.001", "entry.t_best_s is not a number"},
    {"entry", "t_default_s", NUM, -1, NULL, "entry.t_default_s is out of range"},
    {"entry", "candidates", NUM, 1.5, NULL, "entry.candidates is out of range"},
    {"entry", "candidates", NUM, 4294967296.0, NULL, "entry.candidates is out of range"},
    {"", "checksum", DEL, 0, NULL, "checksum is missing"},
    {"", "checksum", STR, 0, "0123456789ABCDEF", "checksum is not 16 hex digits"},
    {"", "checksum", STR, 0, "-123456789abcdef", "checksum is not 16 hex digits"},
};

static void test_edited_fields(void **state)
{
    (void)state;
    char path[512];
    memset(long_params, 'w', 200);
    for (size_t i = 0; i < sizeof edits / sizeof edits[0]; i++) {
        const edit *x = &edits[i];
        cJSON *d = stored_doc(path, sizeof path);
        cJSON *o = *x->obj ? cJSON_GetObjectItemCaseSensitive(d, x->obj) : d;
        if (x->op == DEL)
            cJSON_DeleteItemFromObjectCaseSensitive(o, x->name);
        else
            assert_true(cJSON_ReplaceItemInObjectCaseSensitive(o, x->name,
                                                               x->op == NUM   ? cJSON_CreateNumber(x->num)
                                                               : x->op == STR ? cJSON_CreateString(x->str)
                                                                              : cJSON_CreateArray()));
        refuse_doc(d, path, x->what);
    }
}

/* Raw damage: cut short, NUL bytes, garbage, too deep, too large. */
static void test_damaged_text(void **state)
{
    (void)state;
    cg_tune_key k = key_a();
    cg_tune_entry e = entry_a(), got;
    char path[512];
    size_t n;
    assert_true(cg_tunecache_store(dir, &k, &e));
    cg_tunecache_path(dir, &k, path, sizeof path);
    char *good = read_text(path, &n);
    for (size_t cut = 0; cut < n - 1; cut += 7) { /* every truncation is refused (the last byte is "\n") */
        write_text(path, good, cut, 0600);
        assert_refused(&k, "not valid JSON");
    }
    char *buf = malloc(n + 200000);
    assert_non_null(buf);
    memcpy(buf, good, n);
    buf[n / 2] = 0;
    write_text(path, buf, n, 0600);
    assert_refused(&k, "NUL byte");
    memcpy(buf, good, n);
    memcpy(buf + n, "{}", 2); /* trailing garbage */
    write_text(path, buf, n + 2, 0600);
    assert_refused(&k, "not valid JSON");
    write_text(path, "[1, 2, 3]", 9, 0600);
    assert_refused(&k, "not a tuning cache file");
    write_text(path, "\"kind\"", 6, 0600);
    assert_refused(&k, "not a tuning cache file");
    write_text(path, "not json at all", 15, 0600);
    assert_refused(&k, "not valid JSON");
    memset(buf, '[', 5000); /* deeper than the parser goes */
    write_text(path, buf, 5000, 0600);
    assert_refused(&k, "not valid JSON");
    memset(buf, ' ', 100000); /* over the size bound, however valid */
    memcpy(buf + 100000 - n, good, n);
    write_text(path, buf, 100000, 0600);
    assert_refused(&k, "larger than");
    free(buf);
    write_text(path, good, n, 0600); /* restored: trusted again */
    assert_true(cg_tunecache_load(dir, &k, &got));
    free(good);
}

/* ---- trust */

static void test_untrusted(void **state)
{
    (void)state;
    cg_tune_key k = key_a();
    cg_tune_entry e = entry_a(), got;
    char path[512], tuned[128];
    assert_true(cg_tunecache_store(dir, &k, &e));
    cg_tunecache_path(dir, &k, path, sizeof path);
    snprintf(tuned, sizeof tuned, "%s/tuned", dir);
    assert_int_equal(chmod(path, 0620), 0);
    assert_refused(&k, "writable by group or others");
    assert_int_equal(chmod(path, 0602), 0);
    assert_refused(&k, "writable by group or others");
    assert_int_equal(chmod(path, 0644), 0); /* readable by others is fine */
    assert_true(cg_tunecache_load(dir, &k, &got));
    assert_int_equal(chmod(tuned, 0770), 0);
    assert_refused(&k, "not trusted");
    assert_int_equal(chmod(tuned, 0700), 0);
    assert_int_equal(chmod(dir, 0707), 0);
    assert_refused(&k, "not trusted");
    assert_int_equal(chmod(dir, 0700), 0);
    if (geteuid() == 0) { /* root can give it away: another owner is refused */
        assert_int_equal(chown(path, 65534, 65534), 0);
        assert_refused(&k, "another user");
        assert_int_equal(chown(path, 0, 0), 0);
    }
    assert_true(cg_tunecache_load(dir, &k, &got));
    assert_int_equal(unlink(path), 0); /* a FIFO never blocks, a directory is never read */
    assert_int_equal(mkfifo(path, 0600), 0);
    assert_refused(&k, "FIFO");
    assert_int_equal(unlink(path), 0);
    assert_int_equal(mkdir(path, 0700), 0);
    assert_refused(&k, "directory");
    assert_int_equal(rmdir(path), 0);
    assert_int_equal(symlink("/dev/zero", path), 0);
    assert_refused(&k, "FIFO, device or socket");
}

/* ---- stores that fail */

/* Stores e2 over e1 where the write must fail (the tuned directory read-only), as the user nobody when run as
 * root (root writes anywhere); 0 when the store failed with one warning and e1 still loads. */
static int store_into_readonly(const char *d)
{
    cg_tune_key k = key_a();
    cg_tune_entry e1 = entry_a(), e2 = entry_a(), got;
    char tuned[128];
    snprintf(e2.params, sizeof e2.params, "wg=32,copies=1");
    snprintf(tuned, sizeof tuned, "%s/tuned", d);
    if (!cg_tunecache_store(d, &k, &e1) || chmod(tuned, 0500) != 0) return 1;
    n_warn = 0;
    if (cg_tunecache_store(d, &k, &e2) || n_warn != 1 || !strstr(last_warn, "Permission denied")) return 2;
    if (!cg_tunecache_load(d, &k, &got) || strcmp(got.params, e1.params)) return 3;
    if (count_files(tuned) != 1) return 4;
    return chmod(tuned, 0700) == 0 ? 0 : 5;
}

static void test_store_readonly_dir(void **state)
{
    (void)state;
    if (geteuid() != 0) {
        assert_int_equal(store_into_readonly(dir), 0);
        return;
    }
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        char d[64] = "/tmp/clgauge-tune-nobody.XXXXXX", cmd[128];
        if (setgid(65534) || setuid(65534) || !mkdtemp(d)) _exit(77); /* no user to drop to: skipped */
        int rc = store_into_readonly(d);
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", d);
        _exit(system(cmd) == 0 ? rc : 11);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 77) {
        /* a container without setuid or a world-writable /tmp: test_store_write_fails still covers a failed
         * write leaving the old entry */
        print_message("test_store_readonly_dir: cannot run as another user here; skipped\n");
        skip();
    }
    assert_int_equal(WEXITSTATUS(status), 0);
}

/* A write that fails half-way (the file size limit; any user) leaves the old entry and no temporary. */
static void test_store_write_fails(void **state)
{
    (void)state;
    cg_tune_key k = key_a();
    cg_tune_entry e1 = entry_a(), e2 = entry_a(), got;
    char tuned[128];
    snprintf(e2.params, sizeof e2.params, "wg=32,copies=1");
    snprintf(tuned, sizeof tuned, "%s/tuned", dir);
    assert_true(cg_tunecache_store(dir, &k, &e1));
    struct rlimit old, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
    lim = old;
    lim.rlim_cur = 64;
    void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    n_warn = 0;
    bool stored = cg_tunecache_store(dir, &k, &e2);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &old), 0);
    signal(SIGXFSZ, was);
    assert_false(stored);
    assert_int_equal(n_warn, 1);
    assert_non_null(strstr(last_warn, "cannot write tuning cache file"));
    assert_true(cg_tunecache_load(dir, &k, &got));
    assert_entry_equal(&got, &e1);
    assert_int_equal(count_files(tuned), 1);
}

static void test_store_refused(void **state)
{
    (void)state;
    cg_tune_key k = key_a();
    cg_tune_entry e = entry_a(), got;
    char tuned[128], big[80000];
    e.t_best_s = NAN;
    assert_false(cg_tunecache_store(dir, &k, &e));
    assert_int_equal(n_warn, 1);
    assert_non_null(strstr(last_warn, "not finite"));
    e = entry_a();
    e.t_default_s = -1;
    assert_false(cg_tunecache_store(dir, &k, &e));
    e = entry_a();
    memset(e.when, 'x', sizeof e.when); /* no NUL */
    assert_false(cg_tunecache_store(dir, &k, &e));
    assert_non_null(strstr(last_warn, "unterminated"));
    e = entry_a();
    assert_false(cg_tunecache_store("", &k, &e));
    assert_false(cg_tunecache_store(NULL, &k, &e));
    assert_int_equal(n_warn, 5);
    memset(big, 'd', sizeof big - 1); /* a file the load would refuse is never written */
    big[sizeof big - 1] = 0;
    k.device = big;
    assert_false(cg_tunecache_store(dir, &k, &e));
    assert_non_null(strstr(last_warn, "larger than"));
    assert_false(cg_tunecache_load(dir, &k, &got));
    assert_int_equal(n_warn, 6);
    k = key_a();
    snprintf(tuned, sizeof tuned, "%s/tuned", dir);
    assert_int_equal(count_files(tuned), 0); /* nothing of the refused stores was left */
    assert_int_equal(rmdir(tuned), 0);
    write_text(tuned, "x", 1, 0600); /* tuned/ is a file: no directory to write in */
    assert_false(cg_tunecache_store(dir, &k, &e));
    assert_int_equal(n_warn, 7);
    assert_false(cg_tunecache_load(dir, &k, &got)); /* and reading through it is one warning */
    assert_int_equal(n_warn, 8);
    assert_int_equal(unlink(tuned), 0);
    assert_int_equal(mkdir(tuned, 0700), 0);
    assert_int_equal(chmod(tuned, 0770), 0); /* a group-writable tuned/ is not written into */
    assert_false(cg_tunecache_store(dir, &k, &e));
    assert_non_null(strstr(last_warn, "not trusted"));
    assert_int_equal(count_files(tuned), 0);
}

int main(void)
{
    cg_log_set_sink(record, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_size_class),
        cmocka_unit_test(test_path),
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_round_trip_odd_strings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_keys_miss, setup, teardown),
        cmocka_unit_test_setup_teardown(test_key_mismatch_in_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_edited_fields, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged_text, setup, teardown),
        cmocka_unit_test_setup_teardown(test_untrusted, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_readonly_dir, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_write_fails, setup, teardown),
        cmocka_unit_test_setup_teardown(test_store_refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
