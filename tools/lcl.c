/* lcl -- the linalg_cl command-line tool: every operation on Matrix Market files.

   lcl info | gen KIND ARGS... -o FILE | stat MATRIX | demo      (lcl --help for all)
   Exit codes: 0 success, 1 numerical failure, 2 bad input or usage, 3 backend/device unavailable.
   Results go to stdout (--json: exactly one JSON object per result); errors to stderr as
   "lcl: error: ...". */
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include "lcl_gen.h"
#include "lcl_tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <stdarg.h>

#define STB_DS_IMPLEMENTATION
#include <stb_ds.h>

enum { EXIT_OK = 0, EXIT_NUMERIC = 1, EXIT_USAGE = 2, EXIT_BACKEND = 3 };

typedef struct opts {
    lcl_backend backend;
    int backend_set;
    const char *device;
    lcl_dtype dtype;
    int json;
    uint64_t seed;
    const char *out;
    char **pos;             /* stb_ds array of positional arguments */
} opts;

static int exit_code(lcl_status st) {
    switch (st) {
    case LCL_OK: return EXIT_OK;
    case LCL_ERR_BACKEND_UNAVAILABLE: case LCL_ERR_NO_FP64: case LCL_ERR_OPENCL: case LCL_ERR_BUILD:
    case LCL_ERR_DEVICE_MEMORY: return EXIT_BACKEND;
    case LCL_ERR_SINGULAR: case LCL_ERR_NOT_SPD: case LCL_ERR_OUT_OF_MEMORY: case LCL_ERR_INTERNAL: return EXIT_NUMERIC;
    default: return EXIT_USAGE;
    }
}

static int quiet_errors;    /* set by lcl_tool_parse_only: validate without printing */

static int fail(int code, const char *fmt, ...) {
    va_list ap;
    if (quiet_errors) return code;
    fputs("lcl: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

static void json_str(FILE *f, const char *s) {
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') fprintf(f, "\\%c", c);
        else if (c < 0x20) fprintf(f, "\\u%04x", c);
        else fputc(c, f);
    }
    fputc('"', f);
}

static const char *usage_text =
    "usage: lcl COMMAND [ARGS] [OPTIONS]\n"
    "commands:\n"
    "  info                          backends compiled in, every OpenCL platform and device\n"
    "  gen KIND ARGS... -o FILE.mtx  generate a matrix (seeded, streamed):\n"
    "        dense-random N | dense-spd N | poisson2d M | poisson3d M | powerlaw N AVG\n"
    "        circuit N | hb BASE.mtx M\n"
    "  stat MATRIX                   sizes, row lengths, bandwidth, symmetry, dominance\n"
    "  demo                          a short tour on the best device found\n"
    "MATRIX is a Matrix Market file or gen:KIND:ARG... (e.g. gen:poisson3d:100)\n"
    "options:\n"
    "  --backend serial|openmp|opencl|auto   (default auto; --device implies opencl)\n"
    "  --device SPEC      index, list (0,1), gpu, cpu, all, or a name substring\n"
    "  --precision double|single\n"
    "  --json             one JSON object per result on stdout\n"
    "  --seed N           generator seed (default 1)\n"
    "  -o FILE            output file\n"
    "  -h, --help         this text;  --version\n"
    "exit: 0 ok, 1 numerical failure, 2 bad input or usage, 3 backend or device unavailable\n";

/* Parses argv after the command word. Returns -1 to go on, else an exit code. */
static int parse_opts(int argc, char **argv, opts *o) {
    int i;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        int takes = !strcmp(a, "--backend") || !strcmp(a, "--device") || !strcmp(a, "--precision") ||
                    !strcmp(a, "--seed") || !strcmp(a, "-o");
        if (takes) {
            if (i + 1 >= argc) return fail(EXIT_USAGE, "option %s needs a value", a);
            val = argv[++i];
        }
        if (!strcmp(a, "--backend")) {
            if (!lcl_backend_parse(val, &o->backend)) return fail(EXIT_USAGE, "unknown backend '%s' (serial, openmp, opencl, auto)", val);
            o->backend_set = 1;
        } else if (!strcmp(a, "--device")) {
            o->device = val;
        } else if (!strcmp(a, "--precision")) {
            if (!strcmp(val, "double") || !strcmp(val, "f64")) o->dtype = LCL_F64;
            else if (!strcmp(val, "single") || !strcmp(val, "float") || !strcmp(val, "f32")) o->dtype = LCL_F32;
            else return fail(EXIT_USAGE, "unknown precision '%s' (double, single)", val);
        } else if (!strcmp(a, "--seed")) {
            char *end;
            unsigned long long s = strtoull(val, &end, 10);
            if (!*val || *end || val[0] == '-') return fail(EXIT_USAGE, "--seed needs a non-negative integer, got '%s'", val);
            o->seed = (uint64_t)s;
        } else if (!strcmp(a, "-o")) {
            o->out = val;
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (a[0] == '-' && a[1] != 0) {
            return fail(EXIT_USAGE, "unknown option '%s' (lcl --help)", a);
        } else {
            arrput(o->pos, argv[i]);
        }
    }
    return -1;
}

static void log_stderr(void *user, lcl_log_level level, const char *msg) {
    (void)user;
    if (level <= LCL_LOG_WARN) fprintf(stderr, "lcl: %s\n", msg);
}

static int make_context(const opts *o, lcl_context **ctx) {
    lcl_context_desc d;
    lcl_status st;
    memset(&d, 0, sizeof d);
    d.backend = o->backend;
    if (!o->backend_set && o->device) d.backend = LCL_BACKEND_OPENCL;
    d.device = o->device;
    d.log = log_stderr;
    st = lcl_context_create(&d, ctx);
    if (st != LCL_OK) {
        int code = fail(exit_code(st), "%s", lcl_last_error(*ctx));
        lcl_context_destroy(*ctx);
        *ctx = NULL;
        return code;
    }
    return -1;
}

static const char *type_name(lcl_device_type t) {
    return t == LCL_DEVICE_GPU ? "gpu" : t == LCL_DEVICE_CPU ? "cpu" : t == LCL_DEVICE_ACCELERATOR ? "accelerator" : "other";
}

static int cmd_info(const opts *o) {
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
            json_str(stdout, devs[i].platform);
            printf(",\"name\":");
            json_str(stdout, devs[i].name);
            printf(",\"vendor\":");
            json_str(stdout, devs[i].vendor);
            printf(",\"type\":\"%s\",\"global_mem\":%llu,\"max_alloc\":%llu,\"local_mem\":%llu,\"compute_units\":%d,"
                   "\"max_work_group\":%llu,\"clock_mhz\":%d,\"fp64\":%s,\"driver\":",
                   type_name(devs[i].type), (unsigned long long)devs[i].global_mem, (unsigned long long)devs[i].max_alloc,
                   (unsigned long long)devs[i].local_mem, devs[i].compute_units, (unsigned long long)devs[i].max_work_group,
                   devs[i].clock_mhz, devs[i].fp64 ? "true" : "false");
            json_str(stdout, devs[i].driver);
            printf(",\"version\":");
            json_str(stdout, devs[i].version);
            printf("}");
        }
        printf("]");
        if (n == 0) { printf(",\"opencl_unavailable\":"); json_str(stdout, why); }
        printf("}\n");
    } else {
        printf("linalg_cl %d.%d.%d\nbackends:", LCL_VERSION_MAJOR, LCL_VERSION_MINOR, LCL_VERSION_PATCH);
        for (b = 0; b < 3; b++)
            if (lcl_backend_compiled(all[b])) printf(" %s", lcl_backend_name(all[b]));
        printf("\n");
        if (n == 0) printf("OpenCL: no device (%s)\n", why);
        for (i = 0; i < n; i++) {
            printf("device %d: %s\n", devs[i].index, devs[i].name);
            printf("    platform     %s\n    vendor       %s\n    type         %s\n", devs[i].platform, devs[i].vendor, type_name(devs[i].type));
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

static int cmd_gen(const opts *o) {
    char spec[4096] = "", err[1024] = "";
    size_t len = 0;
    int i;
    lcl_status st;
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    if (arrlen(o->pos) < 1) return fail(EXIT_USAGE, "gen needs a KIND and its arguments (lcl --help)");
    if (!o->out) return fail(EXIT_USAGE, "gen needs -o FILE.mtx");
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
        json_str(stdout, spec);
        printf(",\"seed\":%llu,\"file\":", (unsigned long long)o->seed);
        json_str(stdout, o->out);
        printf("}\n");
    }
    return EXIT_OK;
}

static int cmd_stat(const opts *o) {
    lcl_coo A;
    lclg_stats s;
    char err[1024] = "";
    lcl_status st;
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    int i;
    if (arrlen(o->pos) < 1) return fail(EXIT_USAGE, "stat needs a MATRIX (file or gen:KIND:ARGS)");
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

/* The tour: grows as operations land. */
static int cmd_demo(const opts *o) {
    lcl_context *ctx = NULL;
    lcl_device_info di;
    lcl_coo A;
    lclg_stats s;
    char err[1024] = "";
    int code, i, b, failures = 0;
    lcl_status st;
    const lcl_backend backends[3] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP, LCL_BACKEND_OPENCL};
    if ((code = make_context(o, &ctx)) >= 0) return code;
    printf("linalg_cl demo\n==============\n");
    printf("1. Context: backend %s", lcl_backend_name(lcl_context_backend(ctx)));
    for (i = 0; i < lcl_context_num_devices(ctx); i++)
        if (lcl_context_device(ctx, i, &di) == LCL_OK)
            printf("%s device %d \"%s\" (%s, %d compute units, %.1f GiB, fp64 %s)", i ? ";" : ",", di.index, di.name, di.platform,
                   di.compute_units, di.global_mem / 1073741824.0, di.fp64 ? "yes" : "no");
    printf("\n");
    if (lcl_context_backend(ctx) == LCL_BACKEND_OPENCL) {
        for (i = 0; i < 2; i++) {
            lcl_dtype dt = i ? LCL_F32 : LCL_F64;
            st = lcl_context_prepare(ctx, dt);
            printf("   kernels for %s: %s\n", dt == LCL_F64 ? "double" : "single", st == LCL_OK ? "built" : lcl_last_error(ctx));
        }
    }
    lcl_context_destroy(ctx);

    printf("2. A generated matrix, gen:poisson2d:64 (seed %llu):\n", (unsigned long long)o->seed);
    lcl_context_create(NULL, &ctx);
    st = lclg_load(ctx, "gen:poisson2d:64", o->seed, LCL_F64, &A, err, sizeof err);
    if (st == LCL_OK) st = lclg_stat(&A, &s, err, sizeof err);
    if (st != LCL_OK) { lcl_context_destroy(ctx); lcl_coo_free(&A); return fail(exit_code(st), "%s", err); }
    lclg_stats_print(stdout, "gen:poisson2d:64", &s, 0);
    lcl_coo_free(&A);
    lcl_context_destroy(ctx);

    printf("3. y = 2x + y on every backend, checked against the serial result:\n");
    for (b = 0; b < 3; b++) {
        for (i = 0; i < 2; i++) {
            lcl_dtype dt = i ? LCL_F32 : LCL_F64;
            lcl_context_desc d;
            enum { N = 100003 };
            static double xd[N], yd[N];
            static float xf[N], yf[N];
            double maxerr = 0;
            int k;
            if (!lcl_backend_compiled(backends[b])) continue;
            memset(&d, 0, sizeof d);
            d.backend = backends[b];
            d.device = o->device;
            if (lcl_context_create(&d, &ctx) != LCL_OK) {
                printf("   %-7s %-6s unavailable: %s\n", lcl_backend_name(backends[b]), i ? "single" : "double", lcl_last_error(ctx));
                lcl_context_destroy(ctx);
                continue;
            }
            for (k = 0; k < N; k++) { xd[k] = xf[k] = (float)(k % 97) * 0.25f; yd[k] = yf[k] = (float)(k % 13); }
            st = lcl_axpy(ctx, dt, N, 2.0, i ? (const void *)xf : (const void *)xd, i ? (void *)yf : (void *)yd);
            for (k = 0; k < N && st == LCL_OK; k++) {
                double want = 2.0 * (double)((k % 97) * 0.25) + (double)(k % 13);
                double got = i ? (double)yf[k] : yd[k];
                if (fabs(got - want) > maxerr) maxerr = fabs(got - want);
            }
            if (st != LCL_OK || maxerr > 0) failures++;
            printf("   %-7s %-6s %s", lcl_backend_name(backends[b]), i ? "single" : "double",
                   st == LCL_OK ? (maxerr == 0 ? "exact" : "WRONG") : lcl_last_error(ctx));
            if (st == LCL_OK) printf(" (max error %g)", maxerr);
            printf("\n");
            lcl_context_destroy(ctx);
        }
    }
    printf("4. Coming next: dense LU/Cholesky, SpMV in every format, sparse LU (KLU), block KLU.\n");
    printf("   Try: lcl info | lcl gen poisson3d 50 -o p.mtx | lcl stat p.mtx\n");
    return failures ? EXIT_NUMERIC : EXIT_OK;
}

/* The command word and its positional arguments, checked before anything runs (KIND specs are
   checked by the generator when it runs). -1 to go on, else the exit code. */
static int check_cmd(const char *cmd, const opts *o) {
    if (!strcmp(cmd, "info") || !strcmp(cmd, "demo")) return -1;
    if (!strcmp(cmd, "gen")) {
        size_t len = 0;
        int i;
        if (arrlen(o->pos) < 1) return fail(EXIT_USAGE, "gen needs a KIND and its arguments (lcl --help)");
        if (!o->out) return fail(EXIT_USAGE, "gen needs -o FILE.mtx");
        for (i = 0; i < (int)arrlen(o->pos); i++) len += strlen(o->pos[i]) + (i ? 1 : 0);
        if (len + 2 > 4096) return fail(EXIT_USAGE, "gen: arguments too long");   /* cmd_gen's spec[] */
        return -1;
    }
    if (!strcmp(cmd, "stat")) {
        if (arrlen(o->pos) < 1) return fail(EXIT_USAGE, "stat needs a MATRIX (file or gen:KIND:ARGS)");
        return -1;
    }
    return fail(EXIT_USAGE, "unknown command '%s' (lcl --help)", cmd);
}

int lcl_tool_main(int argc, char **argv) {
    opts o;
    int code;
    const char *cmd;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    if (argc < 2) { fputs(usage_text, stderr); return EXIT_USAGE; }
    cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help")) { fputs(usage_text, stdout); return EXIT_OK; }
    if (!strcmp(cmd, "--version")) { printf("lcl %d.%d.%d\n", LCL_VERSION_MAJOR, LCL_VERSION_MINOR, LCL_VERSION_PATCH); return EXIT_OK; }
    code = parse_opts(argc - 2, argv + 2, &o);
    if (code < 0) code = check_cmd(cmd, &o);
    if (code < 0) {
        if (!strcmp(cmd, "info")) code = cmd_info(&o);
        else if (!strcmp(cmd, "gen")) code = cmd_gen(&o);
        else if (!strcmp(cmd, "stat")) code = cmd_stat(&o);
        else code = cmd_demo(&o);
    }
    arrfree(o.pos);
    fflush(stdout);
    return code;
}

/* lcl_tool_main up to the point where a command would run: options, the command word and its
   positional arguments. Prints nothing, runs nothing, frees everything; returns the exit code
   the tool would give for a usage error (2), else 0. */
int lcl_tool_parse_only(int argc, char **argv) {
    opts o;
    int code;
    const char *cmd;
    if (argc < 2 || !argv || !argv[1]) return EXIT_USAGE;
    cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help") || !strcmp(cmd, "--version")) return EXIT_OK;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    quiet_errors = 1;
    code = parse_opts(argc - 2, argv + 2, &o);
    if (code < 0) code = check_cmd(cmd, &o);
    quiet_errors = 0;
    arrfree(o.pos);
    return code < 0 ? EXIT_OK : code;
}

#ifndef LCL_TOOL_NO_MAIN
int main(int argc, char **argv) { return lcl_tool_main(argc, argv); }
#endif
