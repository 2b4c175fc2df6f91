/* `clgauge devices`: every platform and device, as a property list or JSON, both from cg_device_props. */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include "cli/commands.h"
#include "core/device.h"
#include "core/size.h"

static void print_text(const cg_device *d, FILE *out)
{
    fprintf(out, "Device %u:%u\n", d->pidx, d->didx);
    for (size_t i = 0; i < cg_device_nprops; i++) {
        const cg_device_prop *p = &cg_device_props[i];
        char buf[64];
        fprintf(out, "  %-22s ", p->label);
        switch (p->kind) {
        case CG_PROP_STR:
            fprintf(out, "%s\n", p->str(d));
            break;
        case CG_PROP_UINT:
            fprintf(out, "%llu\n", p->num(d));
            break;
        case CG_PROP_BYTES:
            cg_format_bytes((double)p->num(d), buf, sizeof buf);
            fprintf(out, "%s (%llu B)\n", buf, p->num(d));
            break;
        case CG_PROP_BOOL:
            fprintf(out, "%s\n", p->num(d) ? "yes" : "no");
            break;
        }
    }
}

static cJSON *to_json(const cg_device *d)
{
    cJSON *j = cJSON_CreateObject();
    char sel[32];
    snprintf(sel, sizeof sel, "%u:%u", d->pidx, d->didx);
    cJSON_AddStringToObject(j, "selector", sel);
    for (size_t i = 0; i < cg_device_nprops; i++) {
        const cg_device_prop *p = &cg_device_props[i];
        if (p->kind == CG_PROP_STR)
            cJSON_AddStringToObject(j, p->key, p->str(d));
        else if (p->kind == CG_PROP_BOOL)
            cJSON_AddBoolToObject(j, p->key, p->num(d) != 0);
        else
            cJSON_AddNumberToObject(j, p->key, (double)p->num(d));
    }
    return j;
}

cg_status cg_cmd_devices(const cg_opts *o, FILE *out)
{
    cg_device_list l;
    cg_status st = cg_device_list_init(&l);
    if (st != CG_OK) return st;
    cJSON *arr = o->json_stdout ? cJSON_CreateArray() : NULL;
    for (size_t i = 0; i < l.n; i++) {
        cg_device_probe_fp16(&l.dev[i]);
        if (arr)
            cJSON_AddItemToArray(arr, to_json(&l.dev[i]));
        else if (!o->quiet)
            print_text(&l.dev[i], out), fputc('\n', out);
    }
    if (arr) {
        char *s = cJSON_Print(arr);
        if (s) fprintf(out, "%s\n", s);
        free(s);
        cJSON_Delete(arr);
    }
    cg_device_list_fini(&l);
    return CG_OK;
}
