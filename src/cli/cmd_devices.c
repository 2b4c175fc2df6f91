/* `clgauge devices`: every platform and device, as a property list or one JSON document. Both are drawn
 * from the device block every report records (cg_device_fields), so that `devices --json`, the run JSON and
 * the peak JSON name a device's properties alike. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "cli/commands.h"
#include "cli/meta.h"
#include "core/device.h"
#include "core/log.h"
#include "core/size.h"
#include "report/jsonmeta.h"

static void print_field(const cg_field *f, const cg_report_device *d, FILE *out)
{
    const void *p = (const char *)d + f->offset;
    unsigned long long v = f->kind == CG_F_UINT  ? *(const unsigned *)p
                           : f->kind == CG_F_ULL ? *(const unsigned long long *)p
                                                 : 0;
    char buf[64];
    fprintf(out, "  %-22s ", f->label);
    switch (f->kind) {
    case CG_F_STR:
        fprintf(out, "%s\n", (const char *)p);
        break;
    case CG_F_UINT:
    case CG_F_ULL:
        if (strcmp(f->unit, "B")) {
            fprintf(out, "%llu\n", v);
            break;
        }
        cg_format_bytes((double)v, buf, sizeof buf);
        fprintf(out, "%s (%llu B)\n", buf, v);
        break;
    case CG_F_BOOL:
        fprintf(out, "%s\n", *(const bool *)p ? "yes" : "no");
        break;
    case CG_F_MAYBE_BOOL:
        fprintf(out, "%s\n", !d->fp16_known ? "unknown" : d->fp16 ? "yes" : "no");
        break;
    default: /* the device block has no other kind */
        fputc('\n', out);
        break;
    }
}

static void print_text(const cg_device *dev, const cg_report_device *d, FILE *out)
{
    fprintf(out, "Device %u:%u\n", dev->pidx, dev->didx);
    for (size_t i = 0; i < cg_device_nfields; i++)
        print_field(&cg_device_fields[i], d, out);
}

/* {"selector": "P:D", then the device block}, added to arr. */
static bool add_json(cJSON *arr, const cg_device *dev, const cg_report_device *d)
{
    cJSON *j = cJSON_CreateObject();
    char sel[32];
    if (!j || !cJSON_AddItemToArray(arr, j)) {
        cJSON_Delete(j);
        return false;
    }
    snprintf(sel, sizeof sel, "%u:%u", dev->pidx, dev->didx);
    return cg_json_add_str(j, "selector", sel) && cg_json_add_device(j, d);
}

/* The document: the shared metadata (kind "devices"), then "devices": one object per device. */
static cJSON *json_doc(cJSON **arr)
{
    char now[32];
    cg_cli_time_utc(now, sizeof now);
    const cg_report_meta m = {"devices", CLGAUGE_VERSION, CLGAUGE_GIT, now, NULL};
    cJSON *top = cJSON_CreateObject();
    *arr = top && cg_json_add_meta(top, &m) ? cJSON_AddArrayToObject(top, "devices") : NULL;
    return top;
}

cg_status cg_cmd_devices(const cg_opts *o, FILE *out)
{
    cg_device_list l;
    cg_status st = cg_device_list_init(&l);
    if (st != CG_OK) return st;
    cJSON *arr = NULL, *top = o->json_stdout ? json_doc(&arr) : NULL;
    bool ok = !o->json_stdout || arr;
    for (size_t i = 0; ok && i < l.n; i++) {
        cg_report_device d;
        cg_device_probe_fp16(&l.dev[i]);
        cg_device_probe_wg_multiple(&l.dev[i]);
        cg_cli_fill_device(&d, &l.dev[i]);
        if (arr)
            ok = add_json(arr, &l.dev[i], &d);
        else if (!o->quiet)
            print_text(&l.dev[i], &d, out), fputc('\n', out);
    }
    char *s = ok && top ? cJSON_Print(top) : NULL;
    if (s) fprintf(out, "%s\n", s);
    free(s);
    cJSON_Delete(top);
    cg_device_list_fini(&l);
    if (ok) return CG_OK;
    CG_ERROR("out of memory writing the device list");
    return CG_E_RUNTIME;
}
