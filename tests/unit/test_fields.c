/* The one field-descriptor type (model/fields.h) and the one row writer per format: every table (run rows,
 * peak rows, the device block) describes members that fit their struct, do not overlap and have the size
 * their kind reads; names are unique; the JSON rows and the CSV header of a peak report and the device block
 * follow their table in order; a field of each kind is written as the schema says (fp16 null while not
 * known, big integers as exact digits, a peak status by its word). */
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
    case CG_F_PEAK_STATUS:
        return sizeof(cg_peak_status);
    case CG_F_TIMES:
        return sizeof(cg_times);
    }
    return (size_t)-1;
}

/* Every field of t (n of them) lies inside a struct of struct_size bytes, has its kind's size, overlaps no
 * other field and has a unique name; device says whether name1 and label belong to it. */
static void check_table(const cg_field *t, size_t n, size_t struct_size, bool device)
{
    for (size_t i = 0; i < n; i++) {
        const cg_field *f = &t[i];
        size_t want = kind_size(f->kind);
        if (f->offset + f->size > struct_size) fail_msg("%s lies outside its struct", f->name);
        if (want ? f->size != want : f->size < 2) fail_msg("%s: size %zu for its kind", f->name, f->size);
        assert_non_null(f->unit);
        if (device ? !f->label : f->label || f->name1) fail_msg("%s: label or name1 misplaced", f->name);
        for (size_t j = i + 1; j < n; j++) {
            assert_string_not_equal(f->name, t[j].name);
            if (f->offset < t[j].offset + t[j].size && t[j].offset < f->offset + f->size)
                fail_msg("%s and %s overlap", f->name, t[j].name);
        }
    }
}

static void test_tables(void **state)
{
    (void)state;
    assert_true(cg_result_nfields >= 34);
    assert_int_equal(cg_peak_nfields, 11);
    assert_int_equal(cg_device_nfields, 20);
    check_table(cg_result_fields, cg_result_nfields, sizeof(cg_result), false);
    check_table(cg_peak_fields, cg_peak_nfields, sizeof(cg_peak_row), false);
    check_table(cg_device_fields, cg_device_nfields, sizeof(cg_report_device), true);
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

static void fill_peak(cg_peak_report *r)
{
    cg_peak_report_init(r);
    r->device.compute_units = 4000000000u;
    r->device.global_mem = 18446744073709551615ull;
    for (int i = 0; i < 2; i++) {
        cg_peak_row *row = cg_peak_report_add(r);
        assert_non_null(row);
        snprintf(row->family, sizeof row->family, "compute");
        snprintf(row->test, sizeof row->test, "fp32");
        snprintf(row->variant, sizeof row->variant, "float%d", 4 * i + 1);
        row->value = i ? NAN : 1234.5;
        row->runs = -i;
        row->status = i ? CG_PEAK_FAILED : CG_PEAK_ZERO_COPY;
    }
}

static void test_peak_json(void **state)
{
    (void)state;
    cg_peak_report r;
    char dir[] = "/tmp/cg_fields_XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.json", dir);
    fill_peak(&r);
    assert_int_equal(cg_peak_report_json(&r, path), 0);
    char *text = cg_fs_read(path, NULL);
    assert_non_null(text);
    cJSON *top = cJSON_Parse(text);
    assert_non_null(top);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(top, "results");
    assert_int_equal(cJSON_GetArraySize(rows), 2);
    for (int i = 0; i < 2; i++)
        check_keys(cJSON_GetArrayItem(rows, i), cg_peak_fields, cg_peak_nfields);
    check_keys(cJSON_GetObjectItemCaseSensitive(top, "device"), cg_device_fields, cg_device_nfields);
    assert_non_null(strstr(text, "\"status\":\t\"zero_copy\""));
    assert_non_null(strstr(text, "\"status\":\t\"cl_error\""));
    assert_non_null(strstr(text, "\"value\":\tnull"));
    assert_non_null(strstr(text, "\"runs\":\t-1"));
    assert_non_null(strstr(text, "\"compute_units\":\t4000000000,"));
    assert_non_null(strstr(text, "\"global_mem_bytes\":\t18446744073709551615,"));
    cJSON_Delete(top);
    free(text);
    remove(path);
    rmdir(dir);
    cg_peak_report_fini(&r);
}

static void test_peak_csv(void **state)
{
    (void)state;
    cg_peak_report r;
    char dir[] = "/tmp/cg_fields_XXXXXX", path[64], header[512] = "";
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/p.csv", dir);
    fill_peak(&r);
    assert_int_equal(cg_peak_report_csv(&r, path), 0);
    char *text = cg_fs_read(path, NULL);
    assert_non_null(text);
    for (size_t k = 0; k < cg_peak_nfields; k++) { /* the header is the table, in order */
        size_t len = strlen(header);
        snprintf(header + len, sizeof header - len, "%s%s", cg_peak_fields[k].name,
                 k + 1 < cg_peak_nfields ? "," : "\n");
    }
    assert_true(!strncmp(text, header, strlen(header)));
    assert_non_null(strstr(text, "\ncompute,fp32,float1,1234.5,,zero_copy,0,0,0,,\n"));
    assert_non_null(strstr(text, "\ncompute,fp32,float5,,,cl_error,0,0,-1,,\n"));
    free(text);
    remove(path);
    rmdir(dir);
    cg_peak_report_fini(&r);
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
