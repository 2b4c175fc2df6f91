/* The one field-descriptor type (model/fields.h) and the one row writer per format: both tables (rows of
 * either kind, the device block) describe members that fit their struct and have the size their kind reads;
 * among the fields one document carries, names are unique and members do not overlap; a key listed for both
 * kinds names the same member; the JSON rows and the CSV header of a peak report and the device block follow
 * their table in order; a field of each kind is written as the schema says (fp16 null while not known, big
 * integers as exact digits, a peak status by its word). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/fs.h"
#include "model/fields.h"
#include "report/jsonmeta.h"
#include "report/report.h"

/* The size a member of kind k has; 0 for a string (any buffer of at least 2 bytes). */
static size_t kind_size(cg_field_kind k)
{
    switch (k) {
    case CG_F_STR:
        return 0;
    case CG_F_DOUBLE:
        return sizeof(double);
    case CG_F_SIZE:
        return sizeof(size_t);
    case CG_F_INT:
        return sizeof(int);
    case CG_F_UINT:
    case CG_F_WARNINGS:
        return sizeof(unsigned);
    case CG_F_ULL:
        return sizeof(unsigned long long);
    case CG_F_LL:
        return sizeof(long long);
    case CG_F_BOOL:
    case CG_F_MAYBE_BOOL:
        return sizeof(bool);
    case CG_F_STATUS:
        return sizeof(cg_rung_status);
    case CG_F_TIMES:
        return sizeof(cg_times);
    case CG_F_STAGES:
        return sizeof(cg_stages);
    }
    return (size_t)-1;
}

/* Every field of t (n of them) lies inside a struct of struct_size bytes and has its kind's size; among the
 * fields of document kind k (0: all, the device block) no name repeats and no members overlap. device says
 * whether name1 and label belong to it. */
static void check_table(const cg_field *t, size_t n, size_t struct_size, bool device, unsigned k)
{
    for (size_t i = 0; i < n; i++) {
        const cg_field *f = &t[i];
        size_t want = kind_size(f->kind);
        if (f->offset + f->size > struct_size) fail_msg("%s lies outside its struct", f->name);
        if (want ? f->size != want : f->size < 2) fail_msg("%s: size %zu for its kind", f->name, f->size);
        assert_non_null(f->unit);
        if (device ? !f->label : f->label || f->name1) fail_msg("%s: label or name1 misplaced", f->name);
        if (device ? f->kinds != 0 : (f->kinds & ~(unsigned)(CG_KIND_RUN | CG_KIND_PEAK)) || !f->kinds)
            fail_msg("%s: kinds %u", f->name, f->kinds);
        if (k && !(f->kinds & k)) continue;
        for (size_t j = i + 1; j < n; j++) {
            if (k && !(t[j].kinds & k)) continue;
            assert_string_not_equal(f->name, t[j].name);
            if (f->offset < t[j].offset + t[j].size && t[j].offset < f->offset + f->size)
                fail_msg("%s and %s overlap", f->name, t[j].name);
        }
    }
}

/* Of the fields of t carried by kind k: their count. */
static size_t count_kind(cg_report_kind k)
{
    size_t n = 0;
    for (size_t i = 0; i < cg_row_nfields; i++)
        n += cg_field_carried(&cg_row_fields[i], k);
    return n;
}

static void test_tables(void **state)
{
    (void)state;
    assert_true(count_kind(CG_KIND_RUN) >= 34);
    assert_int_equal(count_kind(CG_KIND_PEAK), 11);
    assert_int_equal(cg_device_nfields, 24);
    check_table(cg_row_fields, cg_row_nfields, sizeof(cg_result), false, CG_KIND_RUN);
    check_table(cg_row_fields, cg_row_nfields, sizeof(cg_result), false, CG_KIND_PEAK);
    check_table(cg_device_fields, cg_device_nfields, sizeof(cg_report_device), true, 0);
    /* a key listed twice (once per kind, at its place in each kind's order) is one member of one kind */
    for (size_t i = 0; i < cg_row_nfields; i++)
        for (size_t j = i + 1; j < cg_row_nfields; j++) {
            const cg_field *a = &cg_row_fields[i], *b = &cg_row_fields[j];
            if (strcmp(a->name, b->name)) continue;
            assert_int_equal(a->offset, b->offset);
            assert_int_equal(a->kind, b->kind);
            assert_int_equal(a->kinds & b->kinds, 0);
        }
}

/* The keys of object o are exactly the names of the fields of kind k in cg_row_fields, in order. */
static void check_row_keys(const cJSON *o, cg_report_kind k)
{
    const cJSON *it = o->child;
    for (size_t i = 0; i < cg_row_nfields; i++) {
        if (!cg_field_carried(&cg_row_fields[i], k)) continue;
        assert_non_null(it);
        assert_string_equal(it->string, cg_row_fields[i].name);
        it = it->next;
    }
    assert_null(it);
}

/* The keys of object o are exactly the n names of t, in order. */
static void check_keys(const cJSON *o, const cg_field *t, size_t n)
{
    size_t k = 0;
    for (const cJSON *it = o->child; it; it = it->next, k++) {
        assert_true(k < n);
        assert_string_equal(it->string, t[k].name);
    }
    assert_int_equal(k, n);
}

static void fill_peak(cg_report *r)
{
    cg_report_init_kind(r, CG_KIND_PEAK);
    r->device.compute_units = 4000000000u;
    r->device.global_mem = 18446744073709551615ull;
    for (int i = 0; i < 2; i++) {
        cg_result *row = cg_report_add(r);
        assert_non_null(row);
        snprintf(row->workload, sizeof row->workload, "compute"); /* a peak row's family */
        snprintf(row->rung, sizeof row->rung, "fp32");            /* and test */
        snprintf(row->variant, sizeof row->variant, "float%d", 4 * i + 1);
        row->value = i ? NAN : 1234.5;
        row->runs = (size_t)(7 * i);
        row->status = i ? CG_RUNG_CL_ERROR : CG_RUNG_ZERO_COPY;
    }
}

static void test_peak_json(void **state)
{
    (void)state;
    cg_report r;
    char dir[] = "/tmp/cg_fields_XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.json", dir);
    fill_peak(&r);
    assert_int_equal(cg_report_json(&r, path), 0);
    char *text = cg_fs_read(path, NULL);
    assert_non_null(text);
    cJSON *top = cJSON_Parse(text);
    assert_non_null(top);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(top, "results");
    assert_int_equal(cJSON_GetArraySize(rows), 2);
    for (int i = 0; i < 2; i++)
        check_row_keys(cJSON_GetArrayItem(rows, i), CG_KIND_PEAK);
    check_keys(cJSON_GetObjectItemCaseSensitive(top, "device"), cg_device_fields, cg_device_nfields);
    assert_non_null(strstr(text, "\"status\":\t\"zero_copy\""));
    assert_non_null(strstr(text, "\"status\":\t\"cl_error\""));
    assert_non_null(strstr(text, "\"value\":\tnull"));
    assert_non_null(strstr(text, "\"runs\":\t7"));
    assert_non_null(strstr(text, "\"family\":\t\"compute\""));
    assert_null(strstr(text, "\"workload\"")); /* a run's keys are not a peak row's */
    assert_null(strstr(text, "t_median_s"));
    assert_non_null(strstr(text, "\"compute_units\":\t4000000000,"));
    assert_non_null(strstr(text, "\"global_mem_bytes\":\t18446744073709551615,"));
    cJSON_Delete(top);
    free(text);
    remove(path);
    rmdir(dir);
    cg_report_fini(&r);
}

static void test_peak_csv(void **state)
{
    (void)state;
    cg_report r;
    char dir[] = "/tmp/cg_fields_XXXXXX", path[64], header[512] = "";
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.csv", dir);
    fill_peak(&r);
    assert_int_equal(cg_report_csv(&r, path), 0);
    char *text = cg_fs_read(path, NULL);
    assert_non_null(text);
    for (size_t k = 0; k < cg_row_nfields; k++) { /* the header is the table's peak fields, in order */
        size_t len = strlen(header);
        if (cg_field_carried(&cg_row_fields[k], CG_KIND_PEAK))
            snprintf(header + len, sizeof header - len, "%s%s", len ? "," : "", cg_row_fields[k].name);
    }
    strcat(header, "\n");
    assert_true(!strncmp(text, header, strlen(header)));
    assert_non_null(strstr(text, "\ncompute,fp32,float1,1234.5,,zero_copy,0,0,0,,\n"));
    assert_non_null(strstr(text, "\ncompute,fp32,float5,,,cl_error,0,0,7,,\n"));
    free(text);
    remove(path);
    rmdir(dir);
    cg_report_fini(&r);
}

/* fp16 (CG_F_MAYBE_BOOL): null while not known, then its value. */
static void test_maybe_bool(void **state)
{
    (void)state;
    static const char *const want[] = {"null", "false", "true"};
    for (int known = 0; known < 3; known++) {
        cg_report_device d;
        memset(&d, 0, sizeof d);
        d.fp16_known = known > 0;
        d.fp16 = known > 1;
        cJSON *o = cJSON_CreateObject();
        assert_true(cg_json_add_device(o, &d));
        char *text = cJSON_PrintUnformatted(cJSON_GetObjectItemCaseSensitive(o, "fp16"));
        assert_string_equal(text, want[known]);
        cJSON_free(text);
        cJSON_Delete(o);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables),
        cmocka_unit_test(test_peak_json),
        cmocka_unit_test(test_peak_csv),
        cmocka_unit_test(test_maybe_bool),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
