/* Host-only logic of core/: timing statistics, the program-cache key and file format, OpenCL error names,
 * --size parsing, output checks, the seeded generator, feature lists and status merging (the option parser is
 * in test_options.c). A log sink keeps the warnings of the cache tests out of the test output. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/options.h"
#include "core/check.h"
#include "core/clerr.h"
#include "core/device.h"
#include "model/grow.h"
#include "core/log.h"
#include "core/program.h"
#include "core/rng.h"
#include "core/size.h"
#include "core/stats.h"
#include "core/status.h"
#include "core/workload.h"
#include "workloads/registry.h"

/* cmocka 1.1 compares floats as float: this compares doubles, and NaN never passes. */
#define assert_near(got, want, eps)                                                                          \
    do {                                                                                                     \
        double g_ = (got), w_ = (want);                                                                      \
        if (!(fabs(g_ - w_) <= (eps)))                                                                       \
            fail_msg("%s = %.17g, want %.17g (+- %g)", #got, g_, w_, (double)(eps));                         \
    } while (0)

static char last_line[2048];

static void record(cg_log_level level, const char *msg, void *user)
{
    (void)level;
    (void)user;
    snprintf(last_line, sizeof last_line, "%s", msg);
}

/* ---- stats */

static void test_stats_odd_with_outlier(void **state)
{
    (void)state;
    const double x[] = {4, 100, 1, 3, 2};
    cg_stats s;
    cg_stats_compute(x, 5, &s);
    assert_int_equal(s.n, 5);
    assert_near(s.min, 1, 0);
    assert_near(s.max, 100, 0);
    assert_near(s.median, 3, 0);
    assert_near(s.mean, 22, 1e-12);
    assert_near(s.stddev, sqrt(7610.0 / 4), 1e-9); /* sample (n-1) standard deviation */
    assert_near(s.cv, sqrt(7610.0 / 4) / 22, 1e-12);
    assert_near(s.mad, 1, 0);        /* |x-3| = 1 97 2 0 1 -> median 1 */
    assert_int_equal(s.outliers, 1); /* only 100: 97 > 14.826 MADs; 1: 2 MADs */
    assert_near(x[1], 100, 0);       /* input untouched */
}

/* Hyperfine's threshold, 14.826 MADs: 14 MADs away is not an outlier, 15 is (the old 3.5 modified z-scores,
 * 5.2 MADs, flagged both). */
static void test_stats_outlier_threshold(void **state)
{
    (void)state;
    cg_stats s;
    const double near[] = {10, 11, 9, 10, 11, 9, 24}; /* median 10, MAD 1: 24 is 14 MADs away */
    cg_stats_compute(near, 7, &s);
    assert_near(s.mad, 1, 0);
    assert_int_equal(s.outliers, 0);
    const double far[] = {10, 11, 9, 10, 11, 9, 25};
    cg_stats_compute(far, 7, &s);
    assert_int_equal(s.outliers, 1);
    /* a steady GPU rung: CV 0.6%, one run 2% slow: an outlier by count, but below the CV that warns */
    const double gpu[] = {1.000, 1.001, 0.999, 1.000, 1.001, 0.999, 1.000, 1.001, 0.999, 1.020};
    cg_stats_compute(gpu, 10, &s);
    assert_int_equal(s.outliers, 1);
    assert_true(s.cv < CG_STATS_QUIET_CV);
}

static void test_stats_even(void **state)
{
    (void)state;
    const double x[] = {4, 1, 3, 2};
    cg_stats s;
    cg_stats_compute(x, 4, &s);
    assert_near(s.median, 2.5, 0);
    assert_near(s.mean, 2.5, 1e-12);
    assert_near(s.stddev, sqrt(5.0 / 3), 1e-12);
    assert_near(s.mad, 1, 0); /* 1.5 1.5 .5 .5 -> 1 */
}

static void test_stats_small_and_flat(void **state)
{
    (void)state;
    const double few[] = {1, 2, 3, 1000};
    cg_stats s;
    cg_stats_compute(few, 4, &s);
    assert_int_equal(s.outliers, 0); /* n < 5: never an outlier */
    const double flat[] = {2, 2, 2, 2, 2, 2};
    cg_stats_compute(flat, 6, &s);
    assert_near(s.mad, 0, 0);
    assert_near(s.stddev, 0, 0);
    assert_int_equal(s.outliers, 0); /* MAD 0: no division by zero, no outliers */
    const double one = 5;
    cg_stats_compute(&one, 1, &s);
    assert_near(s.median, 5, 0);
    assert_near(s.stddev, 0, 0);
    assert_near(s.cv, 0, 0);
    cg_stats_compute(NULL, 0, &s);
    assert_int_equal(s.n, 0);
    assert_near(s.mean, 0, 0);
    const double zeros[] = {0, 0};
    cg_stats_compute(zeros, 2, &s);
    assert_near(s.cv, 0, 0); /* mean 0: cv 0, not NaN */
}

/* ---- cache key */

static void test_cache_key(void **state)
{
    (void)state;
    cg_cache_key k = cg_cache_key_make("src", "-DWG=256", "PoCL", "cpu", "3.1");
    cg_cache_key same = cg_cache_key_make("src", "-DWG=256", "PoCL", "cpu", "3.1");
    assert_true(k.hi == same.hi && k.lo == same.lo);
    const cg_cache_key other[] = {
        cg_cache_key_make("src ", "-DWG=256", "PoCL", "cpu", "3.1"),
        cg_cache_key_make("src", "-DWG=128", "PoCL", "cpu", "3.1"),
        cg_cache_key_make("src", "-DWG=256", "NVIDIA", "cpu", "3.1"),
        cg_cache_key_make("src", "-DWG=256", "PoCL", "gpu", "3.1"),
        cg_cache_key_make("src", "-DWG=256", "PoCL", "cpu", "3.2"),
        cg_cache_key_make("src", NULL, "PoCL", "cpu", "3.1"),
    };
    for (size_t i = 0; i < sizeof other / sizeof other[0]; i++)
        assert_false(other[i].hi == k.hi && other[i].lo == k.lo);
    /* fields are delimited: moving a character from one field to the next changes the key */
    cg_cache_key a = cg_cache_key_make("ab", "c", "p", "d", "v"),
                 b = cg_cache_key_make("a", "bc", "p", "d", "v");
    assert_false(a.hi == b.hi && a.lo == b.lo);
    cg_cache_key c = cg_cache_key_make("s", "o", "pd", "", "v"),
                 d = cg_cache_key_make("s", "o", "p", "d", "v");
    assert_false(c.hi == d.hi && c.lo == d.lo);
    char hex[33];
    cg_cache_key_hex(k, hex);
    assert_int_equal(strlen(hex), 32);
    assert_int_equal(strspn(hex, "0123456789abcdef"), 32);
}

/* ---- cache file store/load */

static char tmpdir[64];

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/clgauge-unit.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    (void)state;
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    char p[512];
    while (d && (e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(p, sizeof p, "%s/%s", tmpdir, e->d_name);
            unlink(p);
        }
    if (d) closedir(d);
    return rmdir(tmpdir);
}

static size_t count_files(void)
{
    size_t n = 0;
    DIR *d = opendir(tmpdir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d) closedir(d);
    return n;
}

/* Rewrites the byte at `offset` of path (xor 0xff), or truncates the file to `offset` bytes when trunc. */
static void damage(const char *path, long offset, bool trunc)
{
    if (trunc) {
        assert_int_equal(truncate(path, offset), 0);
        return;
    }
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    int c = fgetc(f);
    assert_int_equal(fseek(f, offset, SEEK_SET), 0);
    fputc(c ^ 0xff, f);
    fclose(f);
}

/* Loads path with key k and expects a refusal whose reason contains `want`. */
static void expect_refused(const char *path, cg_cache_key k, const char *want)
{
    unsigned char *bin = (unsigned char *)"x";
    size_t n = 99;
    char why[128] = "";
    assert_false(cg_cache_load(path, k, &bin, &n, why, sizeof why));
    assert_null(bin);
    assert_int_equal(n, 0);
    if (!strstr(why, want)) fail_msg("reason '%s' does not mention '%s'", why, want);
}

#define HEADER 36 /* magic 8, version 4, key 16, size 8 */

static void test_cache_file(void **state)
{
    (void)state;
    unsigned char bin[1000];
    for (size_t i = 0; i < sizeof bin; i++)
        bin[i] = (unsigned char)(i * 7 + 3);
    cg_cache_key k = cg_cache_key_make("s", "o", "p", "d", "v"),
                 k2 = cg_cache_key_make("s", "o", "p", "d", "w");
    char path[128], why[128];
    snprintf(path, sizeof path, "%s/entry.bin", tmpdir);
    assert_true(cg_cache_store(path, k, bin, sizeof bin));
    assert_int_equal(count_files(), 1); /* the temporary was renamed, not left behind */
    unsigned char *got;
    size_t n;
    assert_true(cg_cache_load(path, k, &got, &n, why, sizeof why));
    assert_int_equal(n, sizeof bin);
    assert_memory_equal(got, bin, sizeof bin);
    free(got);

    expect_refused(path, k2, "key");
    damage(path, HEADER + 500, false);
    expect_refused(path, k, "checksum");
    assert_true(cg_cache_store(path, k, bin, sizeof bin)); /* store replaces a bad file */
    damage(path, 8, false);
    expect_refused(path, k, "version");
    assert_true(cg_cache_store(path, k, bin, sizeof bin));
    damage(path, HEADER - 1, false); /* top byte of the size: 2^63 + 1000 */
    expect_refused(path, k, "size");
    assert_true(cg_cache_store(path, k, bin, sizeof bin));
    damage(path, HEADER + 600, true);
    expect_refused(path, k, "truncated");
    damage(path, 5, true);
    expect_refused(path, k, "magic");
    assert_true(cg_cache_store(path, k, bin, sizeof bin));
    damage(path, 0, false);
    expect_refused(path, k, "magic");
    snprintf(path, sizeof path, "%s/none.bin", tmpdir);
    expect_refused(path, k, "missing");

    snprintf(path, sizeof path, "%s/no/such/dir/entry.bin", tmpdir);
    assert_false(cg_cache_store(path, k, bin, sizeof bin));
}

/* ---- OpenCL error names */

static void test_cl_strerror(void **state)
{
    (void)state;
    assert_string_equal(cg_cl_strerror(-5), "CL_OUT_OF_RESOURCES");
    assert_string_equal(cg_cl_strerror(0), "CL_SUCCESS");
    assert_string_equal(cg_cl_strerror(-11), "CL_BUILD_PROGRAM_FAILURE");
    assert_string_equal(cg_cl_strerror(-9999), "CL_UNKNOWN_ERROR(-9999)");
    assert_string_equal(cg_cl_strerror(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
    assert_string_equal(cg_cl_strerror(-68), "CL_INVALID_DEVICE_PARTITION_COUNT");
    assert_string_equal(cg_cl_strerror(7), "CL_UNKNOWN_ERROR(7)");
}

/* ---- --size */

static void size_ok(const char *s, int dims, uint64_t n, uint64_t w, uint64_t h)
{
    cg_size z;
    char err[128] = "";
    if (!cg_size_parse(s, &z, err, sizeof err)) fail_msg("'%s' refused: %s", s, err);
    assert_int_equal(z.dims, dims);
    assert_int_equal(z.n, n);
    assert_int_equal(z.w, w);
    assert_int_equal(z.h, h);
}

static void test_size_parse(void **state)
{
    (void)state;
    size_ok("16M", 1, 16u << 20, 16u << 20, 1);
    size_ok("2^24", 1, 1u << 24, 1u << 24, 1);
    size_ok("4096x2048", 2, 4096u * 2048, 4096, 2048);
    size_ok("1000003", 1, 1000003, 1000003, 1);
    size_ok("4K", 1, 4096, 4096, 1);
    size_ok("1G", 1, 1ull << 30, 1ull << 30, 1);
    size_ok("2^62", 1, 1ull << 62, 1ull << 62, 1);
    size_ok("1kx2^3", 2, 8192, 1024, 8);
    static const char *bad[] = {
        "",     "0",           "abc", "12x", "2^99", "x5", "99999999999999999999",  "-5",
        " 5",   "16MB",        "3^4", "0x5", "5x0",  "2^", "4294967296x4294967296", "16T",
        "1.5M", "17179869184G"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cg_size z;
        char err[128] = "";
        if (cg_size_parse(bad[i], &z, err, sizeof err))
            fail_msg("'%s' accepted as %llu", bad[i], (unsigned long long)z.n);
        assert_true(err[0] != 0);
        assert_int_equal(z.dims, 0);
    }
    char buf[32];
    cg_format_bytes(64.0 * 1024 * 1024, buf, sizeof buf);
    assert_string_equal(buf, "64.0 MiB");
    cg_format_bytes(100, buf, sizeof buf);
    assert_string_equal(buf, "100 B");
}

/* ---- checks */

static void test_check_float(void **state)
{
    (void)state;
    float want[6] = {1, 2, 3, 4, 5, 100}, got[6];
    memcpy(got, want, sizeof got);
    cg_check c;
    got[2] += 1e-4f;
    cg_check_float(&c, got, want, 6, 1e-3, 0);
    assert_true(c.ok);
    assert_int_equal(c.first_index, -1);
    assert_string_equal(c.detail, "");
    assert_int_equal(c.checked, 6);
    got[3] = 4.5f;
    got[4] = 6;
    cg_check_float(&c, got, want, 6, 1e-3, 0);
    assert_false(c.ok);
    assert_int_equal(c.first_index, 3);
    assert_int_equal(c.mismatches, 2);
    assert_near(c.first_got, 4.5, 0);
    assert_near(c.max_abs_err, 1, 1e-6);
    assert_non_null(strstr(c.detail, "element 3"));
    memcpy(got, want, sizeof got);
    got[5] = 100.5f; /* within 1% of 100, not within 1e-3 absolute */
    cg_check_float(&c, got, want, 6, 1e-3, 0.01);
    assert_true(c.ok);
    cg_check_float(&c, got, want, 6, 1e-3, 0);
    assert_false(c.ok);
    got[5] = NAN;
    cg_check_float(&c, got, want, 6, 1e9, 1e9);
    assert_false(c.ok);
    assert_true(isinf(c.max_abs_err));
    got[5] = INFINITY;
    cg_check_float(&c, got, want, 6, 1e9, 1e9);
    assert_false(c.ok);
}

static void test_check_exact(void **state)
{
    (void)state;
    uint8_t want[5] = {0, 1, 2, 255, 4}, got[5] = {0, 1, 2, 255, 4};
    cg_check c;
    cg_check_u8(&c, got, want, 5);
    assert_true(c.ok);
    got[3] = 254;
    cg_check_u8(&c, got, want, 5);
    assert_false(c.ok);
    assert_int_equal(c.first_index, 3);
    assert_int_equal(c.mismatches, 1);
    assert_near(c.max_abs_err, 1, 0);
    cg_check_locate_2d(&c, 2);
    assert_non_null(strstr(c.detail, "(x=1, y=1)"));
    uint32_t w32[2] = {7, 1u << 31}, g32[2] = {7, 1u << 31};
    cg_check_u32(&c, g32, w32, 2);
    assert_true(c.ok);
    g32[0] = 8;
    cg_check_u32(&c, g32, w32, 2);
    assert_false(c.ok);
    assert_int_equal(c.first_index, 0);
}

static void test_check_scalar(void **state)
{
    (void)state;
    cg_check c;
    cg_check_scalar(&c, 100.01, 100, 0.02);
    assert_true(c.ok);
    cg_check_scalar(&c, 117, 100, 0.02);
    assert_false(c.ok);
    assert_near(c.max_abs_err, 17, 1e-9);
    assert_non_null(strstr(c.detail, "got 117"));
    cg_check_scalar(&c, NAN, 100, 1e9);
    assert_false(c.ok);
    cg_check_scalar(&c, -INFINITY, 100, 1e300);
    assert_false(c.ok);
    cg_check_scalar(&c, 100.01, 100, 0.04); /* the tolerance is the bound: the ratio is reported */
    assert_near(c.bound_ratio, 0.25, 1e-9);
    cg_check_scalar(&c, 100, 100, 0); /* exact */
    assert_true(c.ok);
    assert_near(c.bound_ratio, 0, 0);
}

/* A float sum's bound gamma_k and the bound check: one element lost from a sum of values >= 0.5 fails. */
static void test_check_bound(void **state)
{
    (void)state;
    assert_near(cg_gamma(1), 0x1p-24 / (1 - 0x1p-24), 1e-30);
    assert_true(isinf(cg_gamma(0x1p24)));
    cg_check c;
    const float want[] = {1000, 2000, 0};
    const float absum[] = {1000, 2000, 0};
    float got[] = {1000.0001f, 2000, 0};
    cg_check_bound(&c, got, want, absum, 3, cg_gamma(20), 1e-30);
    assert_true(c.ok);
    assert_true(c.bound_ratio > 0 && c.bound_ratio <= 1);
    got[1] = 2000 - 0.5f; /* a lost element of 0.5: far beyond 20 u x 2000 = 2.4e-3 */
    cg_check_bound(&c, got, want, absum, 3, cg_gamma(20), 1e-30);
    assert_false(c.ok);
    assert_int_equal(c.first_index, 1);
    assert_true(c.bound_ratio > 1);
}

/* ---- rng */

static void test_rng(void **state)
{
    (void)state;
    cg_rng a, b, c;
    cg_rng_init(&a, 1);
    cg_rng_init(&b, 1);
    cg_rng_init(&c, 2);
    int differ = 0;
    for (int i = 0; i < 100; i++) {
        uint64_t x = cg_rng_next(&a);
        assert_true(x == cg_rng_next(&b));
        differ += x != cg_rng_next(&c);
    }
    assert_true(differ > 95);
    double sum = 0;
    for (int i = 0; i < 100000; i++) {
        float f = cg_rng_float(&a);
        assert_true(f >= 0.0f && f < 1.0f);
        sum += f;
    }
    assert_near(sum / 100000, 0.5, 0.01);
    float v[1000];
    cg_rng_fill_float(&a, v, 1000, -2, 3);
    for (int i = 0; i < 1000; i++)
        assert_true(v[i] >= -2 && v[i] < 3);
    unsigned char *p = malloc(13), q[13]; /* an odd length: the tail must not write past the end */
    assert_non_null(p);
    cg_rng_init(&a, 7);
    cg_rng_init(&b, 7);
    cg_rng_fill_bytes(&a, p, 13);
    cg_rng_fill_bytes(&b, q, 13);
    assert_memory_equal(p, q, 13);
    free(p);
}

/* ---- features, statuses */

static void test_features(void **state)
{
    (void)state;
    unsigned bits = 99;
    char bad[32] = "";
    assert_true(cg_feature_parse("images,fp64", &bits, bad, sizeof bad));
    assert_int_equal(bits, CG_FEAT_IMAGES | CG_FEAT_FP64);
    assert_true(cg_feature_parse("fp16,nvidia-ptx", &bits, bad, sizeof bad));
    assert_int_equal(bits, CG_FEAT_FP16 | CG_FEAT_NV_PTX);
    assert_false(cg_feature_parse("bogus", &bits, bad, sizeof bad));
    assert_string_equal(bad, "bogus");
    assert_false(cg_feature_parse("images,fp6", &bits, bad, sizeof bad));
    assert_string_equal(bad, "fp6");
    assert_false(cg_feature_parse("images,fp64x", &bits, bad, sizeof bad));
    assert_string_equal(bad, "fp64x");
    assert_string_equal(cg_feature_name(CG_FEAT_FP64), "fp64");
    assert_string_equal(cg_feature_name(CG_FEAT_NV_PTX), "nvidia-ptx");
    assert_true(cg_feature_parse("image-r8,image-rf", &bits, bad, sizeof bad));
    assert_int_equal(bits, CG_FEAT_IMAGE_R8 | CG_FEAT_IMAGE_RF);
    assert_string_equal(cg_feature_name(CG_FEAT_IMAGE_RF), "image-rf");
    assert_null(cg_feature_name(CG_FEAT_IMAGES | CG_FEAT_FP64));
}

/* Every workload accepts its documented GPU default size on an H100-like device (validate only: no device
 * work), with --check random and exact, and the documented explicit GPU sizes. */
static void test_default_sizes(void **state)
{
    (void)state;
    cg_device dev;
    memset(&dev, 0, sizeof dev);
    dev.type = CL_DEVICE_TYPE_GPU;
    dev.compute_units = 132;
    dev.global_mem = 80ull << 30;
    dev.max_alloc = 20ull << 30;
    dev.local_mem = 48 << 10;
    dev.max_wg = 1024;
    cg_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    ctx.dev = &dev;
    for (size_t w = 0; w < cg_nworkloads; w++) {
        if (!cg_workloads[w]->validate) continue;
        for (int exact = 0; exact < 2; exact++) {
            cg_run_opts o;
            memset(&o, 0, sizeof o);
            o.check_exact = exact;
            cg_status st = cg_workloads[w]->validate(&ctx, &o);
            if (st != CG_OK)
                fail_msg("%s refuses its default size (exact %d): %s", cg_workloads[w]->name, exact,
                         last_line);
        }
    }
    static const struct {
        const char *workload, *size;
    } documented[] = {{"reduction", "2^28"}, {"histogram", "2^28"}, {"transpose", "16384x16384"}};
    for (size_t i = 0; i < sizeof documented / sizeof documented[0]; i++) {
        const cg_workload *w = cg_registry_find(documented[i].workload);
        cg_run_opts o;
        char err[128];
        memset(&o, 0, sizeof o);
        assert_non_null(w);
        assert_true(cg_size_parse(documented[i].size, &o.size, err, sizeof err));
        assert_int_equal(w->validate(&ctx, &o), CG_OK);
    }
}

static void test_status_merge(void **state)
{
    (void)state;
    assert_int_equal(cg_status_merge(CG_OK, CG_OK), CG_OK);
    assert_int_equal(cg_status_merge(CG_OK, CG_E_VERIFY), CG_E_VERIFY);
    assert_int_equal(cg_status_merge(CG_E_VERIFY, CG_OK), CG_E_VERIFY);
    assert_int_equal(cg_status_merge(CG_E_VERIFY, CG_E_RUNTIME), CG_E_RUNTIME); /* the run itself broke */
    assert_int_equal(cg_status_merge(CG_E_RUNTIME, CG_E_VERIFY), CG_E_RUNTIME);
    assert_int_equal(cg_status_merge(CG_E_VERIFY, CG_E_IO), CG_E_IO);
    assert_int_equal(cg_status_merge(CG_E_RUNTIME, CG_E_IO), CG_E_RUNTIME); /* first failure wins */
    assert_int_equal(cg_status_merge(CG_E_IO, CG_E_RUNTIME), CG_E_IO);
    assert_int_equal(cg_status_merge(CG_E_NODEVICE, CG_OK), CG_E_NODEVICE);
}

/* cg_grow: doubles from `first`, keeps the contents, refuses an overflowing size without touching the array.
 */
static void test_grow(void **state)
{
    (void)state;
    void *p = NULL;
    size_t cap = 0;
    for (size_t n = 0; n < 100; n++) {
        assert_true(cg_grow(&p, &cap, n, sizeof(int), 4));
        assert_true(cap > n);
        ((int *)p)[n] = (int)n;
    }
    assert_int_equal(cap, 128);
    for (int i = 0; i < 100; i++)
        assert_int_equal(((int *)p)[i], i);
    void *before = p;
    size_t huge = SIZE_MAX / 2 + 1;
    assert_false(cg_grow(&p, &huge, huge, 2, 4));
    assert_ptr_equal(p, before);
    free(p);
}

/* cg_rung_has_option and cg_rung_option_int: a rung's build options read as the workloads read them. */
static void test_rung_options(void **state)
{
    (void)state;
    cg_rung r = {.name = "x", .options = "-DFMA -DJK=4 -DPR=12"}, none = {.name = "y", .options = NULL};
    assert_true(cg_rung_has_option(&r, "-DFMA"));
    assert_true(cg_rung_has_option(&r, "-DJK=4"));
    assert_false(cg_rung_has_option(&r, "-DCM"));
    assert_false(cg_rung_has_option(&none, "-DFMA"));
    assert_int_equal(cg_rung_option_int(&r, "-DJK="), 4);
    assert_int_equal(cg_rung_option_int(&r, "-DPR="), 12);
    assert_int_equal(cg_rung_option_int(&r, "-DTX="), 0);
    assert_int_equal(cg_rung_option_int(&none, "-DJK="), 0);
}

/* cg_rung_cl_file: the workload's file unless its rung_cl_file names another; blur's recursive rungs name
 * blur_rec.cl (the block rungs blur_blk.cl), its tensor-core rung blur_mma.cl, its other convolutions none.
 */
static const char *odd_file(const cg_rung *r)
{
    return r->p[0] == 1 ? "other.cl" : NULL;
}

static void test_rung_cl_file(void **state)
{
    (void)state;
    cg_rung a = {.name = "a", .p = {0}}, b = {.name = "b", .p = {1}};
    cg_workload plain = {.name = "plain", .cl_file = "plain.cl"};
    cg_workload two = {.name = "two", .cl_file = "two.cl", .rung_cl_file = odd_file};
    assert_string_equal(cg_rung_cl_file(&plain, &b), "plain.cl");
    assert_string_equal(cg_rung_cl_file(&two, &a), "two.cl");
    assert_string_equal(cg_rung_cl_file(&two, &b), "other.cl");
    const cg_workload *blur = cg_registry_find("blur");
    assert_non_null(blur);
    assert_string_equal(cg_rung_cl_file(blur, cg_workload_rung(blur, "recursive-blocks")), "blur_blk.cl");
    assert_string_equal(cg_rung_cl_file(blur, cg_workload_rung(blur, "deriche")), "blur_rec.cl");
    assert_string_equal(cg_rung_cl_file(blur, cg_workload_rung(blur, "ring-taps")), "blur.cl");
    assert_string_equal(cg_rung_cl_file(blur, cg_workload_rung(blur, "f16x3-sep")), "blur_mma.cl");
    assert_string_equal(blur->more_cl_files[0], "blur_rec.cl");
    assert_string_equal(blur->more_cl_files[1], "blur_blk.cl");
    assert_string_equal(blur->more_cl_files[2], "blur_mma.cl");
    assert_null(blur->more_cl_files[3]);
}

int main(void)
{
    cg_log_set_sink(record, NULL);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stats_odd_with_outlier),
        cmocka_unit_test(test_stats_outlier_threshold),
        cmocka_unit_test(test_stats_even),
        cmocka_unit_test(test_stats_small_and_flat),
        cmocka_unit_test(test_cache_key),
        cmocka_unit_test_setup_teardown(test_cache_file, make_tmpdir, remove_tmpdir),
        cmocka_unit_test(test_cl_strerror),
        cmocka_unit_test(test_size_parse),
        cmocka_unit_test(test_check_float),
        cmocka_unit_test(test_check_exact),
        cmocka_unit_test(test_check_scalar),
        cmocka_unit_test(test_check_bound),
        cmocka_unit_test(test_default_sizes),
        cmocka_unit_test(test_rng),
        cmocka_unit_test(test_features),
        cmocka_unit_test(test_status_merge),
        cmocka_unit_test(test_grow),
        cmocka_unit_test(test_rung_options),
        cmocka_unit_test(test_rung_cl_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
