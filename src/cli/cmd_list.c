/* `clgauge list`: workloads, their rungs (why, kernel, needs, parameters) and the run options each workload
 * takes, from the registry and the merged option table (the CLI's rows and each workload's own options); as
 * text, or with --json as one JSON document (docs/report-schema.md, "list --json"). */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include "cli/commands.h"
#include "core/device.h"
#include "core/log.h"
#include "workloads/registry.h"

#define LIST_SCHEMA_VERSION 2

/* " [needs images, image-r8]", or "" when the rung needs nothing. */
static void needs_text(unsigned needs, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (unsigned b = 1; b && b <= needs; b <<= 1)
        if ((needs & b) && used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? ", " : " [needs ",
                                     cg_feature_name(b));
    if (used && used < len) snprintf(buf + used, len - used, "]");
}

/* The workload-specific run options w takes ("--input, --output"), or "" for none. */
static void options_text(const cg_workload *w, char *buf, size_t len)
{
    size_t used = 0, n;
    const cg_opt_row *t = cg_opt_table(&n);
    buf[0] = 0;
    for (const cg_opt_row *r = t; r < t + n && used < len; r++)
        if (cg_opt_takes(r, w))
            used += (size_t)snprintf(buf + used, len - used, "%s--%s", used ? ", " : "", r->name);
}

/* " [tune: wg, loads, grid]": the rung's tunable parameters (`clgauge tune`), or "" when it has none. */
static void tune_text(const cg_tspace *sp, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int i = 0; sp && i < sp->n && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : " [tune: ", sp->p[i].name);
        if (n < 0) return;
        used += (size_t)n;
    }
    if (used && used < len) snprintf(buf + used, len - used, "]");
}

static void print_text(FILE *out)
{
    for (size_t i = 0; i < cg_nworkloads; i++) {
        const cg_workload *w = cg_workloads[i];
        char opts[256];
        options_text(w, opts, sizeof opts);
        fprintf(out, "%s: %s\n  --size: %s\n", w->name, w->summary, w->size_help);
        if (opts[0]) fprintf(out, "  options: %s\n", opts);
        for (size_t k = 0; k < w->n_rungs; k++) {
            char needs[96], tune[96];
            needs_text(w->rungs[k].needs, needs, sizeof needs);
            tune_text(cg_tune_space_of(w->tune, w->n_tune, w->rungs[k].name), tune, sizeof tune);
            fprintf(out, "  %s:%-16s %s%s%s\n", w->name, w->rungs[k].name, w->rungs[k].why, needs, tune);
        }
        fputc('\n', out);
    }
}

/* A '|'-separated list ("random|allequal") as a JSON array of strings. */
static cJSON *split_list(const char *list)
{
    cJSON *a = cJSON_CreateArray();
    for (const char *p = list; a && p && *p;) {
        size_t n = strcspn(p, "|");
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)n, p);
        cJSON_AddItemToArray(a, cJSON_CreateString(word));
        p += n + (p[n] == '|');
    }
    return a;
}

static const char *const wopt_kinds[] = {[CG_WOPT_FLAG] = "flag",
                                         [CG_WOPT_NUMBER] = "number",
                                         [CG_WOPT_WORD] = "word",
                                         [CG_WOPT_EXTENTS] = "extents"};

/* One of the workload's own options as its descriptor declares it. */
static cJSON *wopt_json(const cg_wopt *d)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", d->name);
    cJSON_AddStringToObject(j, "kind", wopt_kinds[d->kind]);
    cJSON_AddStringToObject(j, "help", d->help);
    if (d->kind == CG_WOPT_WORD)
        cJSON_AddItemToObject(j, "values", split_list(d->words));
    else
        cJSON_AddNullToObject(j, "values");
    if (d->dflt)
        cJSON_AddStringToObject(j, "default", d->dflt);
    else
        cJSON_AddNullToObject(j, "default");
    if (d->kind == CG_WOPT_EXTENTS)
        cJSON_AddNumberToObject(j, "max", d->max);
    else
        cJSON_AddNullToObject(j, "max");
    cJSON_AddBoolToObject(j, "sweep", d->kind == CG_WOPT_EXTENTS);
    return j;
}

/* The rung's search space: [{"name", "role", "param", "values"}], or null when it has none. */
static cJSON *tune_json(const cg_tspace *sp)
{
    static const char *const roles[] = {"other", "wg_x", "wg_y", "groups_per_cu"};
    if (!sp) return cJSON_CreateNull();
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; a && i < sp->n; i++) {
        cJSON *p = cJSON_CreateObject();
        cJSON_AddStringToObject(p, "name", sp->p[i].name);
        cJSON_AddStringToObject(p, "role", roles[sp->p[i].role]);
        cJSON_AddNumberToObject(p, "param", sp->p[i].index);
        cJSON_AddItemToObject(p, "values", cJSON_CreateIntArray(sp->p[i].v, sp->p[i].n));
        cJSON_AddItemToArray(a, p);
    }
    return a;
}

static cJSON *rung_json(const cg_workload *w, const cg_rung *r)
{
    cJSON *j = cJSON_CreateObject(), *needs = cJSON_AddArrayToObject(j, "needs");
    cJSON_AddStringToObject(j, "name", r->name);
    cJSON_AddStringToObject(j, "why", r->why);
    cJSON_AddStringToObject(j, "kernel", r->kernel);
    cJSON_AddStringToObject(j, "cl_file", cg_rung_cl_file(w, r));
    if (r->options)
        cJSON_AddStringToObject(j, "build_options", r->options);
    else
        cJSON_AddNullToObject(j, "build_options");
    for (unsigned b = 1; b && b <= r->needs; b <<= 1)
        if (r->needs & b) cJSON_AddItemToArray(needs, cJSON_CreateString(cg_feature_name(b)));
    cJSON_AddNumberToObject(j, "local_bytes", (double)r->local_bytes);
    cJSON_AddItemToObject(j, "params", cJSON_CreateIntArray(r->p, CG_RUNG_NPARAMS));
    cJSON_AddItemToObject(j, "tune", tune_json(cg_tune_space_of(w->tune, w->n_tune, r->name)));
    return j;
}

static cJSON *workload_json(const cg_workload *w)
{
    cJSON *j = cJSON_CreateObject();
    cJSON_AddStringToObject(j, "name", w->name);
    cJSON_AddStringToObject(j, "summary", w->summary);
    cJSON_AddStringToObject(j, "size_help", w->size_help);
    cJSON_AddStringToObject(j, "cl_file", w->cl_file);
    cJSON *files = cJSON_AddArrayToObject(j, "cl_files");
    cJSON_AddItemToArray(files, cJSON_CreateString(w->cl_file));
    for (const char *const *f = w->more_cl_files; f && *f; f++)
        cJSON_AddItemToArray(files, cJSON_CreateString(*f));
    cJSON *opts = cJSON_AddArrayToObject(j, "options");
    size_t n;
    const cg_opt_row *t = cg_opt_table(&n);
    for (const cg_opt_row *r = t; r < t + n; r++)
        if (cg_opt_takes(r, w)) cJSON_AddItemToArray(opts, cJSON_CreateString(r->name));
    cJSON *own = cJSON_AddArrayToObject(j, "own_options");
    for (size_t k = 0; k < w->n_wopts; k++)
        cJSON_AddItemToArray(own, wopt_json(&w->wopts[k]));
    cJSON *rungs = cJSON_AddArrayToObject(j, "rungs");
    for (size_t k = 0; k < w->n_rungs; k++)
        cJSON_AddItemToArray(rungs, rung_json(w, &w->rungs[k]));
    return j;
}

/* One row of the option table: its name, short form, value, commands, help and the workloads that take it
 * (null: not workload-specific). */
static cJSON *option_json(const cg_opt_row *r)
{
    cJSON *j = cJSON_CreateObject();
    char sh[2] = {r->short_name, 0};
    cJSON_AddStringToObject(j, "name", r->name);
    if (r->short_name)
        cJSON_AddStringToObject(j, "short", sh);
    else
        cJSON_AddNullToObject(j, "short");
    if (r->metavar)
        cJSON_AddStringToObject(j, "value", r->metavar);
    else
        cJSON_AddNullToObject(j, "value");
    cJSON *cmds = cJSON_AddArrayToObject(j, "commands");
    for (int c = CG_CMD_DEVICES; c < CG_CMD_COUNT; c++)
        if (r->commands & (1u << c)) cJSON_AddItemToArray(cmds, cJSON_CreateString(cg_command_name(c)));
    cJSON_AddStringToObject(j, "help", r->help);
    if (!cg_opt_is_workload_specific(r)) {
        cJSON_AddNullToObject(j, "workloads");
        return j;
    }
    cJSON *ws = cJSON_AddArrayToObject(j, "workloads");
    for (size_t i = 0; i < cg_nworkloads; i++)
        if (cg_opt_takes(r, cg_workloads[i]))
            cJSON_AddItemToArray(ws, cJSON_CreateString(cg_workloads[i]->name));
    return j;
}

static cg_status print_json(FILE *out)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddNumberToObject(root, "schema_version", LIST_SCHEMA_VERSION);
    cJSON *tool = cJSON_AddObjectToObject(root, "tool");
    cJSON_AddStringToObject(tool, "name", "clgauge");
    cJSON_AddStringToObject(tool, "version", CLGAUGE_VERSION);
    cJSON_AddStringToObject(tool, "git_commit", CLGAUGE_GIT);
    cJSON *ws = cJSON_AddArrayToObject(root, "workloads");
    for (size_t i = 0; i < cg_nworkloads; i++)
        cJSON_AddItemToArray(ws, workload_json(cg_workloads[i]));
    cJSON *opts = cJSON_AddArrayToObject(root, "options");
    size_t n;
    const cg_opt_row *t = cg_opt_table(&n);
    for (const cg_opt_row *r = t; r < t + n; r++)
        cJSON_AddItemToArray(opts, option_json(r));
    char *s = cJSON_Print(root);
    cJSON_Delete(root);
    if (!s) {
        CG_ERROR("out of memory while writing the list as JSON");
        return CG_E_RUNTIME;
    }
    fprintf(out, "%s\n", s);
    free(s);
    return CG_OK;
}

cg_status cg_cmd_list(const cg_opts *o, FILE *out)
{
    if (o->json_stdout) return print_json(out);
    if (!o->quiet) print_text(out);
    return CG_OK;
}
