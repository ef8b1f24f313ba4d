/* info.c -- the commands about matrices and machines: lcl info (backends, every OpenCL device),
   lcl gen KIND ARGS... -o FILE (tools/lcl_gen.h's generators) and lcl stat MATRIX... */
#include "lcl.h"
#include <stdlib.h>
#include <string.h>

#define GEN_SPEC_MAX 4096       /* "KIND:ARG:...", as cmd_gen joins the arguments */

int check_gen(const opts *o) {
    size_t len = 0;
    int i;
    if (arrlen(o->pos) < 1) return fail(EXIT_USAGE, "gen needs a KIND and its arguments (lcl --help)");
    if (!o->out) return fail(EXIT_USAGE, "gen needs -o FILE.mtx");
    for (i = 0; i < (int)arrlen(o->pos); i++) len += strlen(o->pos[i]) + (i ? 1 : 0);
    if (len + 2 > GEN_SPEC_MAX) return fail(EXIT_USAGE, "gen: arguments too long");
    return -1;
}

int check_stat(const opts *o) {
    if (arrlen(o->pos) < 1) return fail(EXIT_USAGE, "stat needs a MATRIX (file or gen:KIND:ARGS)");
    return -1;
}

int cmd_info(const opts *o) {
    lcl_context *ctx = NULL;
    lcl_device_info *devs = NULL;
    int n = 0, i, b;
    lcl_status st;
    const lcl_backend all[3] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP, LCL_BACKEND_OPENCL};
    lcl_context_desc d;
    char why[512] = "";
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    lcl_context_create(&d, &ctx);
    st = lcl_list_devices(ctx, NULL, 0, &n);
    if (st == LCL_OK && n > 0) {
        devs = (lcl_device_info *)calloc((size_t)n, sizeof *devs);
        if (!devs) { lcl_context_destroy(ctx); return fail(EXIT_NUMERIC, "out of memory"); }
        st = lcl_list_devices(ctx, devs, n, &n);
    }
    if (n == 0) snprintf(why, sizeof why, "%s", lcl_last_error(ctx));
    if (st != LCL_OK) {
        int code = fail(exit_code(st), "%s", lcl_last_error(ctx));
        free(devs);
        lcl_context_destroy(ctx);
        return code;
    }
    if (o->json) {
        printf("{\"backends\":[");
        for (b = 0, i = 0; b < 3; b++)
            if (lcl_backend_compiled(all[b])) printf("%s\"%s\"", i++ ? "," : "", lcl_backend_name(all[b]));
        printf("],\"devices\":[");
        for (i = 0; i < n; i++) {
            printf("%s{\"index\":%d,\"platform\":", i ? "," : "", devs[i].index);
            lclg_json_str(stdout, devs[i].platform);
            printf(",\"name\":");
            lclg_json_str(stdout, devs[i].name);
            printf(",\"vendor\":");
            lclg_json_str(stdout, devs[i].vendor);
            printf(",\"type\":\"%s\",\"global_mem\":%llu,\"max_alloc\":%llu,\"local_mem\":%llu,\"compute_units\":%d,"
                   "\"max_work_group\":%llu,\"clock_mhz\":%d,\"fp64\":%s,\"driver\":",
                   device_type_name(devs[i].type), (unsigned long long)devs[i].global_mem, (unsigned long long)devs[i].max_alloc,
                   (unsigned long long)devs[i].local_mem, devs[i].compute_units, (unsigned long long)devs[i].max_work_group,
                   devs[i].clock_mhz, devs[i].fp64 ? "true" : "false");
            lclg_json_str(stdout, devs[i].driver);
            printf(",\"version\":");
            lclg_json_str(stdout, devs[i].version);
            printf("}");
        }
        printf("]");
        if (n == 0) { printf(",\"opencl_unavailable\":"); lclg_json_str(stdout, why); }
        printf("}\n");
    } else {
        printf("linalg_cl %d.%d.%d\nbackends:", LCL_VERSION_MAJOR, LCL_VERSION_MINOR, LCL_VERSION_PATCH);
        for (b = 0; b < 3; b++)
            if (lcl_backend_compiled(all[b])) printf(" %s", lcl_backend_name(all[b]));
        printf("\n");
        if (n == 0) printf("OpenCL: no device (%s)\n", why);
        for (i = 0; i < n; i++) {
            printf("device %d: %s\n", devs[i].index, devs[i].name);
            printf("    platform     %s\n    vendor       %s\n    type         %s\n", devs[i].platform, devs[i].vendor, device_type_name(devs[i].type));
            printf("    version      %s (driver %s)\n", devs[i].version, devs[i].driver);
            printf("    memory       %.2f GiB (largest buffer %.2f GiB), local %llu KiB\n", devs[i].global_mem / 1073741824.0,
                   devs[i].max_alloc / 1073741824.0, (unsigned long long)(devs[i].local_mem / 1024));
            printf("    compute      %d units at %d MHz, work-group up to %llu\n", devs[i].compute_units, devs[i].clock_mhz,
                   (unsigned long long)devs[i].max_work_group);
            printf("    fp64         %s\n", devs[i].fp64 ? "yes" : "no");
        }
    }
    free(devs);
    lcl_context_destroy(ctx);
    return EXIT_OK;
}

int cmd_gen(const opts *o) {
    char spec[GEN_SPEC_MAX] = "", err[1024] = "";
    size_t len = 0;
    int i;
    lcl_status st;
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    for (i = 0; i < (int)arrlen(o->pos); i++) {
        size_t n = strlen(o->pos[i]);
        if (len + n + 2 > sizeof spec) return fail(EXIT_USAGE, "gen: arguments too long");
        if (i) spec[len++] = ':';
        memcpy(spec + len, o->pos[i], n + 1);
        len += n;
    }
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    lcl_context_create(&d, &ctx);
    st = lclg_gen_file(ctx, spec, o->seed, o->out, err, sizeof err);
    lcl_context_destroy(ctx);
    if (st != LCL_OK) return fail(exit_code(st), "%s", err[0] ? err : lcl_status_string(st));
    if (o->json) {
        printf("{\"op\":\"gen\",\"spec\":");
        lclg_json_str(stdout, spec);
        printf(",\"seed\":%llu,\"file\":", (unsigned long long)o->seed);
        lclg_json_str(stdout, o->out);
        printf("}\n");
    }
    return EXIT_OK;
}

int cmd_stat(const opts *o) {
    lcl_coo A;
    lclg_stats s;
    char err[1024] = "";
    lcl_status st;
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    int i;
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    lcl_context_create(&d, &ctx);
    for (i = 0; i < (int)arrlen(o->pos); i++) {
        st = lclg_load(ctx, o->pos[i], o->seed, LCL_F64, &A, err, sizeof err);
        if (st == LCL_OK) st = lclg_stat(&A, &s, err, sizeof err);
        lcl_coo_free(&A);
        if (st != LCL_OK) {
            lcl_context_destroy(ctx);
            return fail(exit_code(st), "%s", err[0] ? err : lcl_status_string(st));
        }
        lclg_stats_print(stdout, o->pos[i], &s, o->json);
    }
    lcl_context_destroy(ctx);
    return EXIT_OK;
}
