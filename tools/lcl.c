/* lcl -- the linalg_cl command-line tool: every operation on Matrix Market files.

   lcl info | gen KIND ARGS... -o FILE | stat MATRIX | solve MATRIX --method M | spmv MATRIX
   | bench dense --op M | bench spmv [MATRIX...] | tune | demo      (lcl --help for all)
   Exit codes: 0 success, 1 numerical failure, 2 bad input or usage, 3 backend/device unavailable.
   Results go to stdout (--json: exactly one JSON object per result); errors to stderr as
   "lcl: error: ...". */
#define _POSIX_C_SOURCE 200809L     /* clock_gettime */
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include "lcl_gen.h"
#include "lcl_tool.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <float.h>
#include <stdarg.h>
#include <errno.h>
#include <time.h>
#include <dirent.h>

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
    /* solve and bench (NULL / 0 when not given) */
    const char *rhs, *method, *algorithm, *op, *sizes, *algorithms, *csv, *svg;
    long block, reps;
    int force;
    int split;              /* dense: opts.device = -1, the factorization split over the devices */
    /* spmv and bench spmv */
    const char *format, *kernel, *x, *formats, *backends;
    int trans;
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
    "  solve MATRIX --method lu|cholesky   factor and solve A x = b; prints residual, forward error, times\n"
    "        [--rhs B.mtx] (default b = A x* for a random x*) [--algorithm auto|blocked|unblocked|\n"
    "        crout|banachiewicz] [--block N] [--split] [-o X.mtx]\n"
    "  bench dense --op lu|cholesky [--sizes 256,512,1024] [--algorithms blocked,...] [--reps 3]\n"
    "        [--block N] [--force] [--split] [--csv F] [--svg F]   GF/s per size, backend and algorithm\n"
    "        (every backend available unless --backend; unblocked algorithms only to n = 2048\n"
    "        unless --force; --split: one device against all, host arrays, transfers timed)\n"
    "  spmv MATRIX [--format F] [--kernel K] [--reps 20] [--trans] [--split] [--x X.mtx] [-o Y.mtx]\n"
    "        y = A x (A^T x with --trans) in one storage format, timed and checked: M nnz/s, GF/s, GB/s,\n"
    "        rel_err. F: coo|csr|csc|ell|sell|hyb|dia|bcsr|dense|auto (default auto),\n"
    "        K: scalar|vector|merge|image|auto (default auto); x random (--seed) unless --x\n"
    "  bench spmv [MATRIX...] [--formats f1,f2,...|all] [--backends b1,b2] [--reps 20] [--csv F] [--svg F]\n"
    "        M nnz/s per matrix, backend and format, and auto's choice against the best (default\n"
    "        matrices: $LCL_SHARED/matrices/*.mtx, gen:poisson3d:60, gen:powerlaw:200000:16)\n"
    "  tune [--device D] [--precision P]   measure GEMM tiles on an OpenCL device, print its table row\n"
    "  demo                          a short tour on the best device found\n"
    "MATRIX is a Matrix Market file or gen:KIND:ARG... (e.g. gen:poisson3d:100)\n"
    "options:\n"
    "  --backend serial|openmp|opencl|auto   (default auto; --device implies opencl)\n"
    "  --device SPEC      index, list (0,1), gpu, cpu, all, or a name substring\n"
    "  --split            solve, bench dense: factor over every device of --device (opts.device = -1);\n"
    "                     spmv: rows split by nnz over them\n"
    "  --precision double|single\n"
    "  --json             one JSON object per result on stdout\n"
    "  --seed N           generator seed (default 1)\n"
    "  -o FILE            output file\n"
    "  -h, --help         this text;  --version\n"
    "exit: 0 ok, 1 numerical failure, 2 bad input or usage, 3 backend or device unavailable\n";

/* solve and bench arguments (checked while parsing: usage errors before anything runs) */
static const char *const alg_names[5] = {"auto", "blocked", "unblocked", "crout", "banachiewicz"};
static int alg_parse(const char *s) {
    int i;
    for (i = 0; i < 5; i++)
        if (!strcmp(s, alg_names[i])) return i;
    return -1;
}
static int method_parse(const char *s) { return !strcmp(s, "lu") ? 0 : !strcmp(s, "cholesky") ? 1 : -1; }
static int alg_fits(int chol, int alg) { return alg >= 0 && (chol || alg != LCL_ALG_BANACHIEWICZ); }
static int alg_unblocked(int alg) { return alg == LCL_ALG_UNBLOCKED || alg == LCL_ALG_CROUT || alg == LCL_ALG_BANACHIEWICZ; }

/* a decimal integer in [1, max], digits only */
static int parse_count(const char *s, long max, long *out) {
    long v = 0;
    if (!*s) return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return 0;
        v = v * 10 + (*s - '0');
        if (v > max) return 0;
    }
    if (v < 1) return 0;
    *out = v;
    return 1;
}
/* "256,512,1024": at most cap sizes in [1, 2^31-1], digits only; the count, or 0 when malformed
   (out may be NULL) */
static int parse_sizes(const char *s, int64_t *out, int cap) {
    int n = 0;
    for (;;) {
        int64_t v = 0;
        const char *p = s;
        for (; *p >= '0' && *p <= '9'; p++)
            if ((v = v * 10 + (*p - '0')) > 2147483647) return 0;
        if (p == s || v < 1 || (*p && *p != ',') || n >= cap) return 0;
        if (out) out[n] = v;
        n++;
        if (!*p) return n;
        s = p + 1;
    }
}
/* "a,b,c": one(name, i, out) for each of at most cap comma-separated names (each under 16
   characters); the count, or 0 when malformed (out may be NULL) */
static int parse_names(const char *s, int cap, int (*one)(const char *name, int i, void *out), void *out) {
    int n = 0;
    for (;;) {
        char field[16];
        size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof field || n >= cap) return 0;
        memcpy(field, s, len);
        field[len] = 0;
        if (!one(field, n, out)) return 0;
        n++;
        if (!s[len]) return n;
        s += len + 1;
    }
}
static int one_alg(const char *name, int i, void *out) {
    int a = alg_parse(name);
    if (a < 0) return 0;
    if (out) ((int *)out)[i] = a;
    return 1;
}
static int one_format(const char *name, int i, void *out) {
    lcl_format f;
    if (!lcl_format_parse(name, &f) || f == LCL_FMT_AUTO) return 0;
    if (out) ((lcl_format *)out)[i] = f;
    return 1;
}
static int one_backend(const char *name, int i, void *out) {
    lcl_backend b;
    if (!lcl_backend_parse(name, &b)) return 0;
    if (out) ((lcl_backend *)out)[i] = b;
    return 1;
}
/* "blocked,crout": algorithm names */
static int parse_algs(const char *s, int *out, int cap) { return parse_names(s, cap, one_alg, out); }
#define MAX_SIZES 64
#define MAX_ALGS 16

/* "csr,ell" or "all" (every storage format; auto is its own column) */
static int parse_formats(const char *s, lcl_format *out, int cap) {
    int n = 0;
    if (!strcmp(s, "all")) {
        for (n = 0; n + 1 < LCL_FMT_COUNT_ && n < cap; n++)
            if (out) out[n] = (lcl_format)(n + 1);
        return n;
    }
    return parse_names(s, cap, one_format, out);
}
/* "serial,openmp" */
static int parse_backends(const char *s, lcl_backend *out, int cap) { return parse_names(s, cap, one_backend, out); }
#define MAX_FORMATS 16
#define MAX_BACKENDS 4

/* Parses argv after the command word. Returns -1 to go on, else an exit code. */
static int parse_opts(int argc, char **argv, opts *o) {
    int i;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        int takes = !strcmp(a, "--backend") || !strcmp(a, "--device") || !strcmp(a, "--precision") ||
                    !strcmp(a, "--seed") || !strcmp(a, "-o") || !strcmp(a, "--rhs") || !strcmp(a, "--method") ||
                    !strcmp(a, "--algorithm") || !strcmp(a, "--block") || !strcmp(a, "--op") || !strcmp(a, "--sizes") ||
                    !strcmp(a, "--algorithms") || !strcmp(a, "--reps") || !strcmp(a, "--csv") || !strcmp(a, "--svg") ||
                    !strcmp(a, "--format") || !strcmp(a, "--kernel") || !strcmp(a, "--x") || !strcmp(a, "--formats") ||
                    !strcmp(a, "--backends");
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
            unsigned long long s;
            errno = 0;
            s = strtoull(val, &end, 10);    /* digits only: strtoull would skip spaces, take '+' and wrap '-' */
            if (val[0] < '0' || val[0] > '9' || *end || errno == ERANGE)
                return fail(EXIT_USAGE, "--seed needs a non-negative integer below 2^64, got '%s'", val);
            o->seed = (uint64_t)s;
        } else if (!strcmp(a, "-o")) {
            o->out = val;
        } else if (!strcmp(a, "--json")) {
            o->json = 1;
        } else if (!strcmp(a, "--method") || !strcmp(a, "--op")) {
            if (method_parse(val) < 0) return fail(EXIT_USAGE, "unknown %s '%s' (lu, cholesky)", a, val);
            if (a[2] == 'm') o->method = val;
            else o->op = val;
        } else if (!strcmp(a, "--algorithm")) {
            if (alg_parse(val) < 0) return fail(EXIT_USAGE, "unknown algorithm '%s' (auto, blocked, unblocked, crout, banachiewicz)", val);
            o->algorithm = val;
        } else if (!strcmp(a, "--algorithms")) {
            if (!parse_algs(val, NULL, MAX_ALGS))
                return fail(EXIT_USAGE, "--algorithms needs a comma-separated list of at most %d of auto, blocked, unblocked, crout, "
                            "banachiewicz, got '%s'", MAX_ALGS, val);
            o->algorithms = val;
        } else if (!strcmp(a, "--sizes")) {
            if (!parse_sizes(val, NULL, MAX_SIZES))
                return fail(EXIT_USAGE, "--sizes needs a comma-separated list of at most %d matrix sizes (1 to 2147483647), got '%s'",
                            MAX_SIZES, val);
            o->sizes = val;
        } else if (!strcmp(a, "--block")) {
            if (!parse_count(val, 65536, &o->block)) return fail(EXIT_USAGE, "--block needs a block size from 1 to 65536, got '%s'", val);
        } else if (!strcmp(a, "--reps")) {
            if (!parse_count(val, 10000, &o->reps)) return fail(EXIT_USAGE, "--reps needs a count from 1 to 10000, got '%s'", val);
        } else if (!strcmp(a, "--rhs")) {
            o->rhs = val;
        } else if (!strcmp(a, "--csv")) {
            o->csv = val;
        } else if (!strcmp(a, "--svg")) {
            o->svg = val;
        } else if (!strcmp(a, "--force")) {
            o->force = 1;
        } else if (!strcmp(a, "--split")) {
            o->split = 1;
        } else if (!strcmp(a, "--format")) {
            lcl_format f;
            if (!lcl_format_parse(val, &f))
                return fail(EXIT_USAGE, "unknown format '%s' (coo, csr, csc, ell, sell, hyb, dia, bcsr, dense, auto)", val);
            o->format = val;
        } else if (!strcmp(a, "--kernel")) {
            lcl_spmv_kernel k;
            if (!lcl_spmv_kernel_parse(val, &k)) return fail(EXIT_USAGE, "unknown kernel '%s' (scalar, vector, merge, image, auto)", val);
            o->kernel = val;
        } else if (!strcmp(a, "--formats")) {
            if (!parse_formats(val, NULL, MAX_FORMATS))
                return fail(EXIT_USAGE, "--formats needs 'all' or a comma-separated list of coo, csr, csc, ell, sell, hyb, dia, bcsr, "
                            "dense (auto is always measured), got '%s'", val);
            o->formats = val;
        } else if (!strcmp(a, "--backends")) {
            if (!parse_backends(val, NULL, MAX_BACKENDS))
                return fail(EXIT_USAGE, "--backends needs a comma-separated list of at most %d of serial, openmp, opencl, auto, got '%s'",
                            MAX_BACKENDS, val);
            o->backends = val;
        } else if (!strcmp(a, "--x")) {
            o->x = val;
        } else if (!strcmp(a, "--trans")) {
            o->trans = 1;
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
    if (!o->backend_set && (o->device || o->split)) d.backend = LCL_BACKEND_OPENCL;
    /* the unblocked oracle algorithms exist on the CPU backends only: auto picks one of those */
    if (!o->backend_set && !o->device && o->algorithm && alg_unblocked(alg_parse(o->algorithm)))
        d.backend = lcl_backend_compiled(LCL_BACKEND_OPENMP) ? LCL_BACKEND_OPENMP : LCL_BACKEND_SERIAL;
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
    printf("4. Dense solves on the best backend: the slides' 3x3 system and a random 500 x 500 one\n");
    if (make_context(o, &ctx) < 0) {
        static const double a3[9] = {1, 2, 3, 2, 5, 8, 3, 8, 14}, b3[3] = {6, 15, 25};
        lcl_dense A, B;
        int32_t ipiv[500];
        int64_t info = 0, r, c;
        int n;
        for (n = 3; n <= 500; n += 497) {
            double res = 0, an = 0, xn = 0, bn = 0;
            lcl_dense A0;
            if (lcl_dense_alloc(ctx, &A, LCL_F64, LCL_COL_MAJOR, n, n) != LCL_OK || lcl_dense_alloc(ctx, &B, LCL_F64, LCL_COL_MAJOR, n, 1) != LCL_OK ||
                lcl_dense_alloc(ctx, &A0, LCL_F64, LCL_COL_MAJOR, n, n) != LCL_OK) {
                failures++;
                break;
            }
            for (r = 0; r < n; r++) {
                for (c = 0; c < n; c++) {
                    double v = n == 3 ? a3[r * 3 + c] : (r == c ? 2.0 * n : (double)((r * 7 + c * 13) % 17) / 17.0 - 0.5);
                    lcl_dense_set(&A, r, c, v);
                    lcl_dense_set(&A0, r, c, v);
                }
                lcl_dense_set(&B, r, 0, n == 3 ? b3[r] : 1.0);
            }
            st = lcl_gesv(ctx, &A, ipiv, &B, &info);
            for (r = 0; r < n && st == LCL_OK; r++) {
                long double acc = 0;   /* the check's own rounding must stay below what it checks */
                double s2, rs = 0;
                for (c = 0; c < n; c++) { acc += (long double)lcl_dense_get(&A0, r, c) * lcl_dense_get(&B, c, 0); rs += fabs(lcl_dense_get(&A0, r, c)); }
                s2 = (double)fabsl((long double)(n == 3 ? b3[r] : 1.0) - acc);
                if (s2 > res) res = s2;
                if (rs > an) an = rs;
                if (fabs(lcl_dense_get(&B, r, 0)) > xn) xn = fabs(lcl_dense_get(&B, r, 0));
                if ((n == 3 ? b3[r] : 1.0) > bn) bn = n == 3 ? b3[r] : 1.0;
            }
            res /= an * xn + bn;
            if (st != LCL_OK || res > 1e-14) failures++;
            if (n == 3 && st == LCL_OK)
                printf("   gesv 3x3 on %s: x = [%g, %g, %g], residual %.1e\n", lcl_backend_name(lcl_dense_backend(ctx)), lcl_dense_get(&B, 0, 0),
                       lcl_dense_get(&B, 1, 0), lcl_dense_get(&B, 2, 0), res);
            else if (st == LCL_OK)
                printf("   gesv 500x500 on %s: residual %.1e\n", lcl_backend_name(lcl_dense_backend(ctx)), res);
            else
                printf("   gesv %dx%d: %s\n", n, n, lcl_last_error(ctx));
            lcl_dense_free(&A);
            lcl_dense_free(&B);
            lcl_dense_free(&A0);
        }
        lcl_context_destroy(ctx);
    }
    printf("5. Coming next: SpMV in every format, sparse LU (KLU), block KLU.\n");
    printf("   Try: lcl info | lcl gen poisson3d 50 -o p.mtx | lcl stat p.mtx\n");
    return failures ? EXIT_NUMERIC : EXIT_OK;
}

/* ---- solve and bench: dense LU and Cholesky ---------------------------------------------------- */
#define DENSE_MAX_BYTES (8.0 * 1073741824.0)    /* refuse matrices whose dense double form is larger */
#define BENCH_UNBLOCKED_MAX 2048                /* unblocked algorithms stop here unless --force */

static double now_s(void) {
#if defined(_WIN32)
    return (double)clock() / CLOCKS_PER_SEC;
#else
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
#endif
}

static double amax(double m, double v) { return (v > m || v != v) ? v : m; }   /* NaN wins */

/* uniform in [-1,1), a hash of (seed, i): the same x* for the same seed on every backend */
static uint64_t mix64(uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static double urand_sym(uint64_t seed, uint64_t i) {
    return 2.0 * (double)(mix64(mix64(seed ^ 0x78737472ULL) + i) >> 11) * (1.0 / 9007199254740992.0) - 1.0;
}

/* y = A x, A column-major double (as load_square and lcl_coo_to_dense leave it) */
/* y = A x accumulated in long double where it is wider: the check's own rounding (about n eps in
   double) would otherwise reach the 1e-14 it checks at large n */
static void matvec64(const lcl_dense *A, const double *x, double *y) {
    const double *a = (const double *)A->data;
    int64_t i, j, n = A->rows;
    long double *acc = (long double *)calloc((size_t)(n > 0 ? n : 1), sizeof(long double));
    if (!acc) {
        for (i = 0; i < n; i++) y[i] = 0;
        for (j = 0; j < A->cols; j++)
            for (i = 0; i < n; i++) y[i] += a[(size_t)j * (size_t)A->ld + (size_t)i] * x[j];
        return;
    }
    for (j = 0; j < A->cols; j++) {
        const double *col = a + (size_t)j * (size_t)A->ld;
        long double xj = x[j];
        for (i = 0; i < n; i++) acc[i] += col[i] * xj;
    }
    for (i = 0; i < n; i++) y[i] = (double)acc[i];
    free(acc);
}
static double inf_norm64(const lcl_dense *A, double *rowsum) {
    const double *a = (const double *)A->data;
    int64_t i, j, n = A->rows;
    double m = 0;
    for (i = 0; i < n; i++) rowsum[i] = 0;
    for (j = 0; j < A->cols; j++) {
        const double *col = a + (size_t)j * (size_t)A->ld;
        for (i = 0; i < n; i++) rowsum[i] += fabs(col[i]);
    }
    for (i = 0; i < n; i++) m = amax(m, rowsum[i]);
    return m;
}
/* normwise backward error ||b - A x|| / (||A|| ||x|| + ||b||), infinity norms, in double */
static double backward_error(const lcl_dense *A, double normA, const double *x, const double *b, double *work) {
    int64_t i, n = A->rows;
    double rn = 0, xn = 0, bn = 0, den;
    matvec64(A, x, work);
    for (i = 0; i < n; i++) {
        rn = amax(rn, fabs(b[i] - work[i]));
        xn = amax(xn, fabs(x[i]));
        bn = amax(bn, fabs(b[i]));
    }
    if (rn != rn) return rn;
    den = normA * xn + bn;
    return den > 0 ? rn / den : (rn > 0 ? HUGE_VAL : 0.0);
}
static double forward_error(const double *x, const double *xs, int64_t n) {
    int64_t i;
    double d = 0, m = 0;
    for (i = 0; i < n; i++) {
        d = amax(d, fabs(x[i] - xs[i]));
        m = amax(m, fabs(xs[i]));
    }
    return m > 0 ? d / m : d;
}

/* an n x k column-major array of doubles as a matrix of dtype dt (and back) */
static lcl_status dense_from_array(lcl_context *ctx, const double *v, int64_t n, int64_t k, lcl_dtype dt, lcl_dense *out) {
    int64_t i, j;
    lcl_status st = lcl_dense_alloc(ctx, out, dt, LCL_COL_MAJOR, n, k);
    if (st != LCL_OK) return st;
    for (j = 0; j < k; j++)
        for (i = 0; i < n; i++) lcl_dense_set(out, i, j, v[j * n + i]);
    return LCL_OK;
}
static void dense_to_array(const lcl_dense *m, double *v) {
    int64_t i, j;
    for (j = 0; j < m->cols; j++)
        for (i = 0; i < m->rows; i++) v[j * m->rows + i] = lcl_dense_get(m, i, j);
}
static lcl_status dense_convert(lcl_context *ctx, const lcl_dense *src, lcl_dtype dt, lcl_dense *out) {
    int64_t i, j;
    lcl_status st = lcl_dense_alloc(ctx, out, dt, LCL_COL_MAJOR, src->rows, src->cols);
    if (st != LCL_OK) return st;
    for (j = 0; j < src->cols; j++)
        for (i = 0; i < src->rows; i++) lcl_dense_set(out, i, j, lcl_dense_get(src, i, j));
    return LCL_OK;
}


/* where the dense work runs: an auto context on CPU OpenCL devices factors on the CPU backends */
static void device_name(lcl_context *ctx, int split, char *buf, size_t cap) {
    lcl_device_info di;
    if (lcl_dense_backend(ctx) != LCL_BACKEND_OPENCL || lcl_context_device(ctx, 0, &di) != LCL_OK) snprintf(buf, cap, "cpu");
    else if (split) snprintf(buf, cap, "%d devices, split", lcl_context_num_devices(ctx));
    else snprintf(buf, cap, "%s", di.name);
}
/* --split: the context must hold several devices (-1 would otherwise just mean device 0) */
static int split_check(lcl_context *ctx) {
    int nd = lcl_context_num_devices(ctx);
    if (nd >= 2) return -1;
    return fail(EXIT_BACKEND, "--split needs at least two OpenCL devices in the context (--device all, gpu, or a list such as 0,1); "
                "this one has %d", nd);
}

/* n of gen:SPEC from its first argument before generating anything (dense-random:N, poisson3d:M
   -> M^3, ...), or -1 when unknown (hb) or malformed (the generator then says why) */
static double gen_dim_hint(const char *spec) {
    const char *c = strchr(spec, ':'), *p;
    double a = 0;
    size_t klen;
    if (!c) return -1;
    klen = (size_t)(c - spec);
    for (p = c + 1; *p && *p != ':'; p++) {
        if (*p < '0' || *p > '9') return -1;
        a = a * 10 + (*p - '0');
    }
    if (p == c + 1) return -1;
    if (klen == 9 && !strncmp(spec, "poisson2d", 9)) return a * a;
    if (klen == 9 && !strncmp(spec, "poisson3d", 9)) return a * a * a;
    if (lclg_is_dense_kind(spec) || (klen == 8 && !strncmp(spec, "powerlaw", 8)) || (klen == 7 && !strncmp(spec, "circuit", 7)))
        return a;
    return -1;
}
static int too_big(const char *src, double n) {
    return fail(EXIT_USAGE, "%s: n = %.0f: the dense matrix would take %.1f GiB (the limit is %.0f GiB)", src, n,
                n * n * 8.0 / 1073741824.0, DENSE_MAX_BYTES / 1073741824.0);
}

/* MATRIX (a Matrix Market file, symmetric storage expanded, or gen:SPEC) as a square column-major
   double matrix. -1 on success, else the exit code (the error is printed). */
static int load_square(lcl_context *ctx, const char *src, uint64_t seed, lcl_dense *A) {
    lcl_status st;
    lcl_mm_info info;
    memset(A, 0, sizeof *A);
    if (!strncmp(src, "gen:", 4)) {
        lcl_coo coo;
        char err[1024] = "";
        double hint = gen_dim_hint(src + 4);
        if (hint > 0 && hint * hint * 8.0 > DENSE_MAX_BYTES) return too_big(src, hint);
        st = lclg_gen_coo(ctx, src + 4, seed, LCL_F64, &coo, err, sizeof err);
        if (st != LCL_OK) return fail(exit_code(st), "%s", err[0] ? err : lcl_status_string(st));
        if (coo.rows != coo.cols) {
            lcl_coo_free(&coo);
            return fail(EXIT_USAGE, "%s is %lld x %lld: solve needs a square matrix", src, (long long)coo.rows, (long long)coo.cols);
        }
        if ((double)coo.rows * (double)coo.rows * 8.0 > DENSE_MAX_BYTES) {
            lcl_coo_free(&coo);
            return too_big(src, (double)coo.rows);
        }
        st = lcl_coo_to_dense(ctx, &coo, LCL_COL_MAJOR, A);
        lcl_coo_free(&coo);
        return st == LCL_OK ? -1 : fail(exit_code(st), "%s", lcl_last_error(ctx));
    }
    if ((st = lcl_mm_read_info(ctx, src, &info)) != LCL_OK) return fail(exit_code(st), "%s", lcl_last_error(ctx));
    if (info.rows != info.cols)
        return fail(EXIT_USAGE, "%s is %lld x %lld: solve needs a square matrix", src, (long long)info.rows, (long long)info.cols);
    if ((double)info.rows * (double)info.rows * 8.0 > DENSE_MAX_BYTES) return too_big(src, (double)info.rows);
    st = lcl_mm_read_dense(ctx, src, LCL_F64, LCL_COL_MAJOR, LCL_MM_EXPAND, A, NULL);
    return st == LCL_OK ? -1 : fail(exit_code(st), "%s", lcl_last_error(ctx));
}

static int64_t count_nonzeros(const lcl_dense *A) {
    int64_t i, j, c = 0;
    for (j = 0; j < A->cols; j++)
        for (i = 0; i < A->rows; i++) c += lcl_dense_get(A, i, j) != 0;
    return c;
}

static void json_double(FILE *f, double v, int valid) {
    if (valid && v - v == 0) fprintf(f, "%.6g", v);
    else fputs("null", f);
}

/* lcl solve MATRIX --method lu|cholesky [--rhs FILE] [--algorithm A] [--block N] [-o FILE] */
static int cmd_solve(const opts *o) {
    const char *src = o->pos[0];
    int chol = method_parse(o->method) == 1, code, have_x = 0;
    lcl_dense_alg alg = o->algorithm ? (lcl_dense_alg)alg_parse(o->algorithm) : LCL_ALG_AUTO;
    lcl_context *ctx = NULL;
    lcl_dense A, Aw, Bw, Bin;
    lcl_dense_opts dopt;
    double *B = NULL, *X = NULL, *xs = NULL, *work = NULL;
    int32_t *ipiv = NULL;
    int64_t n = 0, k = 1, nnz = 0, info = 0, i, j;
    double t0, t_factor = 0, t_solve = 0, residual = 0, ferr = 0, normA;
    lcl_status st, fst;
    char dev[128];
    memset(&A, 0, sizeof A);
    memset(&Aw, 0, sizeof Aw);
    memset(&Bw, 0, sizeof Bw);
    memset(&Bin, 0, sizeof Bin);
    if ((code = make_context(o, &ctx)) >= 0) return code;
    if (o->split && (code = split_check(ctx)) >= 0) goto done;
    if (lcl_dense_backend(ctx) == LCL_BACKEND_OPENCL && (st = lcl_context_prepare(ctx, o->dtype)) != LCL_OK) {
        code = fail(exit_code(st), "%s", lcl_last_error(ctx));
        goto done;
    }
    device_name(ctx, o->split, dev, sizeof dev);
    if ((code = load_square(ctx, src, o->seed, &A)) >= 0) goto done;
    n = A.rows;
    nnz = count_nonzeros(&A);
    if (o->rhs) {
        if ((st = lcl_mm_read_dense(ctx, o->rhs, LCL_F64, LCL_COL_MAJOR, 0, &Bin, NULL)) != LCL_OK) {
            code = fail(exit_code(st), "%s", lcl_last_error(ctx));
            goto done;
        }
        if (Bin.rows != n || Bin.cols < 1) {
            code = fail(EXIT_USAGE, "%s is %lld x %lld: the right-hand side needs %lld rows and at least one column", o->rhs,
                        (long long)Bin.rows, (long long)Bin.cols, (long long)n);
            goto done;
        }
        k = Bin.cols;
    }
    B = (double *)malloc((size_t)(n * k + 1) * sizeof *B);
    X = (double *)malloc((size_t)(n * k + 1) * sizeof *X);
    xs = (double *)malloc((size_t)(n + 1) * sizeof *xs);
    work = (double *)malloc((size_t)(n + 1) * sizeof *work);
    ipiv = (int32_t *)malloc((size_t)(n + 1) * sizeof *ipiv);
    if (!B || !X || !xs || !work || !ipiv) { code = fail(EXIT_NUMERIC, "out of memory (n = %lld)", (long long)n); goto done; }
    if (o->rhs) dense_to_array(&Bin, B);
    else {  /* b = A x* for a seeded random x*, in double */
        for (i = 0; i < n; i++) xs[i] = urand_sym(o->seed, (uint64_t)i);
        matvec64(&A, xs, B);
    }
    if ((st = dense_convert(ctx, &A, o->dtype, &Aw)) != LCL_OK || (st = dense_from_array(ctx, B, n, k, o->dtype, &Bw)) != LCL_OK) {
        code = fail(exit_code(st), "%s", lcl_last_error(ctx));
        goto done;
    }
    memset(&dopt, 0, sizeof dopt);
    dopt.alg = alg;
    dopt.block = (int)o->block;
    dopt.device = o->split ? -1 : 0;
    t0 = now_s();
    fst = chol ? lcl_potrf(ctx, LCL_LOWER, &Aw, &info, &dopt) : lcl_getrf(ctx, &Aw, ipiv, &info, &dopt);
    t_factor = now_s() - t0;
    if (fst == LCL_OK) {
        t0 = now_s();
        st = chol ? lcl_potrs(ctx, LCL_LOWER, &Aw, &Bw) : lcl_getrs(ctx, LCL_NO_TRANS, &Aw, ipiv, &Bw);
        t_solve = now_s() - t0;
        if (st != LCL_OK) { code = fail(exit_code(st), "%s", lcl_last_error(ctx)); goto done; }
        have_x = 1;
    } else if (fst == LCL_ERR_SINGULAR || fst == LCL_ERR_NOT_SPD) {
        fail(EXIT_NUMERIC, "%s", lcl_last_error(ctx));      /* the result still follows, with its status */
    } else {
        code = fail(exit_code(fst), "%s", lcl_last_error(ctx));
        goto done;
    }
    if (have_x) {
        normA = inf_norm64(&A, work);
        dense_to_array(&Bw, X);
        residual = 0;
        for (j = 0; j < k; j++) residual = amax(residual, backward_error(&A, normA, X + j * n, B + j * n, work));
        if (!o->rhs) ferr = forward_error(X, xs, n);
        if (o->out && (st = lcl_mm_write_dense(ctx, o->out, &Bw)) != LCL_OK) {
            code = fail(exit_code(st), "%s", lcl_last_error(ctx));
            goto done;
        }
    }
    if (o->json) {
        printf("{\"op\":\"solve\",\"method\":\"%s\",\"algorithm\":\"%s\",\"backend\":\"%s\",\"device\":", chol ? "cholesky" : "lu",
               alg_names[alg], lcl_backend_name(lcl_dense_backend(ctx)));
        json_str(stdout, dev);
        printf(",\"precision\":\"%s\",\"n\":%lld,\"nrhs\":%lld,\"nnz\":%lld,\"residual\":", o->dtype == LCL_F64 ? "double" : "single",
               (long long)n, (long long)k, (long long)nnz);
        json_double(stdout, residual, have_x);
        printf(",\"forward_error\":");
        json_double(stdout, ferr, have_x && !o->rhs);
        printf(",\"t_factor\":");
        json_double(stdout, t_factor, 1);
        printf(",\"t_solve\":");
        json_double(stdout, t_solve, have_x);
        printf(",\"status\":");
        json_str(stdout, lcl_status_string(fst));
        printf("}\n");
        fflush(stdout);   /* the result is out before any driver teardown (PoCL 5 can abort there) */
    } else {
        double flops = (chol ? 1.0 / 3.0 : 2.0 / 3.0) * (double)n * (double)n * (double)n;
        printf("solve %s\n", src);
        printf("  matrix      %lld x %lld, %lld nonzeros", (long long)n, (long long)n, (long long)nnz);
        if (o->rhs) printf("; %lld right-hand side%s from %s", (long long)k, k == 1 ? "" : "s", o->rhs);
        else printf("; b = A x* for a random x* (seed %llu)", (unsigned long long)o->seed);
        printf("\n  method      %s, algorithm %s", chol ? "Cholesky (potrf/potrs)" : "LU (getrf/getrs)", alg_names[alg]);
        if (o->block) printf(", block %ld", o->block);
        printf("\n  backend     %s on %s, %s precision\n", lcl_backend_name(lcl_dense_backend(ctx)), dev,
               o->dtype == LCL_F64 ? "double" : "single");
        printf("  factor      %.6f s", t_factor);
        if (t_factor > 0 && fst == LCL_OK) printf(" (%.3g GF/s)", flops / t_factor * 1e-9);
        printf("\n");
        if (have_x) {
            printf("  solve       %.6f s\n", t_solve);
            printf("  residual    %.3e   |b - Ax| / (|A| |x| + |b|), infinity norms\n", residual);
            if (!o->rhs) printf("  fwd error   %.3e   |x - x*| / |x*|\n", ferr);
            if (o->out) printf("  x written   %s\n", o->out);
        }
        printf("  status      %s", lcl_status_string(fst));
        if (info) printf(" (info = %lld: the first %s, 1-based)", (long long)info, chol ? "non-positive leading minor" : "zero pivot");
        printf("\n");
    }
    code = have_x ? EXIT_OK : EXIT_NUMERIC;
done:
    free(B);
    free(X);
    free(xs);
    free(work);
    free(ipiv);
    lcl_dense_free(&A);
    lcl_dense_free(&Aw);
    lcl_dense_free(&Bw);
    lcl_dense_free(&Bin);
    lcl_context_destroy(ctx);
    return code;
}

typedef struct bench_row {
    int64_t n;
    char backend[16], device[128], msg[256];
    int alg;
    double t_median, t_min, gflops, residual;
    lcl_status st;
    int ok;
} bench_row;

typedef struct bench_case {    /* one size: the matrix in double and in the bench precision, b = A x* */
    lcl_dense A, Aw, Bw;
    double normA, *xs, *b, *x, *work;
} bench_case;

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* warm-up + reps factorizations of a fresh copy (only the factorization is timed), then one solve
   against b = A x*, checked on the host in double. host < 0: the copy is a device matrix (lcl_dmat);
   else host arrays with opts.device = host - 1 (0: device 0, -1: split), transfers timed. */
static void bench_one(lcl_context *ctx, int chol, int alg, long block, long reps, int host, const bench_case *c, bench_row *row) {
    lcl_dmat *M = NULL, *MB = NULL;
    lcl_dense_opts dopt;
    lcl_dense Bx, F;
    int64_t n = c->A.rows, info = 0;
    double *times = (double *)malloc((size_t)reps * sizeof *times);
    int32_t *ipiv = (int32_t *)malloc((size_t)(n + 1) * sizeof *ipiv);
    lcl_status st = LCL_OK;
    long r;
    memset(&dopt, 0, sizeof dopt);
    memset(&Bx, 0, sizeof Bx);
    memset(&F, 0, sizeof F);
    dopt.alg = (lcl_dense_alg)alg;
    dopt.block = (int)block;
    dopt.device = host > 0 ? host - 1 : 0;
    row->residual = HUGE_VAL;
    if (!times || !ipiv) { st = LCL_ERR_OUT_OF_MEMORY; snprintf(row->msg, sizeof row->msg, "out of memory"); goto done; }
    if (host >= 0 && (st = lcl_dense_alloc(ctx, &F, c->Aw.dtype, LCL_COL_MAJOR, n, n)) != LCL_OK) goto fail;
    for (r = 0; r <= reps; r++) {
        double t0;
        lcl_dmat_free(M);
        M = NULL;
        if (host >= 0) memcpy(F.data, c->Aw.data, (size_t)(n * n) * (c->Aw.dtype == LCL_F64 ? sizeof(double) : sizeof(float)));
        else if ((st = lcl_dmat_upload(ctx, &c->Aw, &M)) != LCL_OK) break;
        t0 = now_s();
        if (host >= 0) st = chol ? lcl_potrf(ctx, LCL_LOWER, &F, &info, &dopt) : lcl_getrf(ctx, &F, ipiv, &info, &dopt);
        else st = chol ? lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, &dopt) : lcl_dmat_getrf(ctx, M, ipiv, &info, &dopt);
        if (r > 0) times[r - 1] = now_s() - t0;
        if (st != LCL_OK) break;
    }
    if (st == LCL_OK && host >= 0) st = lcl_dmat_upload(ctx, &F, &M);   /* the factors, solved as below */
    if (st == LCL_OK) {
        qsort(times, (size_t)reps, sizeof *times, cmp_double);
        row->t_min = times[0];
        row->t_median = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
        row->gflops = row->t_median > 0 ? (chol ? 1.0 / 3.0 : 2.0 / 3.0) * (double)n * (double)n * (double)n / row->t_median * 1e-9 : 0;
        if ((st = lcl_dmat_upload(ctx, &c->Bw, &MB)) == LCL_OK &&
            (st = chol ? lcl_dmat_potrs(ctx, LCL_LOWER, M, MB) : lcl_dmat_getrs(ctx, LCL_NO_TRANS, M, ipiv, MB)) == LCL_OK &&
            (st = lcl_dense_alloc(ctx, &Bx, c->Bw.dtype, LCL_COL_MAJOR, n, 1)) == LCL_OK &&
            (st = lcl_dmat_download(ctx, MB, &Bx)) == LCL_OK) {
            dense_to_array(&Bx, c->x);
            row->residual = backward_error(&c->A, c->normA, c->x, c->b, c->work);
        }
    }
fail:
    if (st != LCL_OK) snprintf(row->msg, sizeof row->msg, "%s", lcl_last_error(ctx));
done:
    row->st = st;
    row->ok = st == LCL_OK && row->residual <= (c->Aw.dtype == LCL_F64 ? 1e-12 : 1e-4);
    lcl_dense_free(&Bx);
    lcl_dense_free(&F);
    lcl_dmat_free(M);
    lcl_dmat_free(MB);
    free(times);
    free(ipiv);
}

static void bench_case_free(bench_case *c) {
    lcl_dense_free(&c->A);
    lcl_dense_free(&c->Aw);
    lcl_dense_free(&c->Bw);
    free(c->xs);
    free(c->b);
    free(c->x);
    free(c->work);
    memset(c, 0, sizeof *c);
}
/* dense-random:n (LU: diagonally dominant) or dense-spd:n (Cholesky), b = A x* */
static int bench_case_make(lcl_context *gctx, int chol, int64_t n, uint64_t seed, lcl_dtype dt, bench_case *c) {
    char spec[64], err[1024] = "";
    lcl_coo coo;
    lcl_status st;
    int64_t i;
    memset(c, 0, sizeof *c);
    snprintf(spec, sizeof spec, "%s:%lld", chol ? "dense-spd" : "dense-random", (long long)n);
    if ((st = lclg_gen_coo(gctx, spec, seed, LCL_F64, &coo, err, sizeof err)) != LCL_OK)
        return fail(exit_code(st), "%s", err[0] ? err : lcl_status_string(st));
    st = lcl_coo_to_dense(gctx, &coo, LCL_COL_MAJOR, &c->A);
    lcl_coo_free(&coo);
    if (st == LCL_OK) st = dense_convert(gctx, &c->A, dt, &c->Aw);
    c->xs = (double *)malloc((size_t)n * sizeof(double));
    c->b = (double *)malloc((size_t)n * sizeof(double));
    c->x = (double *)malloc((size_t)n * sizeof(double));
    c->work = (double *)malloc((size_t)n * sizeof(double));
    if (st == LCL_OK && (!c->xs || !c->b || !c->x || !c->work)) st = LCL_ERR_OUT_OF_MEMORY;
    if (st == LCL_OK) {
        for (i = 0; i < n; i++) c->xs[i] = urand_sym(seed, (uint64_t)i);
        matvec64(&c->A, c->xs, c->b);
        c->normA = inf_norm64(&c->A, c->work);
        st = dense_from_array(gctx, c->b, n, 1, dt, &c->Bw);
    }
    if (st != LCL_OK) {
        bench_case_free(c);
        return fail(exit_code(st), "%s", st == LCL_ERR_OUT_OF_MEMORY ? "out of memory" : lcl_last_error(gctx));
    }
    return -1;
}

static void csv_field(FILE *f, const char *s) {
    if (!strpbrk(s, ",\"\n")) { fputs(s, f); return; }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"') fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}
static void xml_text(FILE *f, const char *s) {
    for (; *s; s++) {
        if (*s == '&') fputs("&amp;", f);
        else if (*s == '<') fputs("&lt;", f);
        else if (*s == '>') fputs("&gt;", f);
        else if (*s == '"') fputs("&quot;", f);
        else fputc(*s, f);
    }
}
static void series_label(const bench_row *r, char *buf, size_t cap) {
    if (strcmp(r->device, "cpu")) snprintf(buf, cap, "%s %s (%s)", r->backend, alg_names[r->alg], r->device);
    else snprintf(buf, cap, "%s %s", r->backend, alg_names[r->alg]);
}
static double nice_step(double raw) {
    double p = pow(10.0, floor(log10(raw))), m = raw / p;
    return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

/* Self-contained SVG charts written by hand: svg_frame draws what every chart shares (the page,
   its title, the y grid with values, both axes, the y label), svg_legend_label a legend line. */
static const char *const svg_colors[10] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
                                           "#bcbd22", "#7f7f7f"};
static void svg_frame(FILE *f, double W, double H, double L, double T, double pw, double ph, double ytop, double ystep,
                      const char *title, const char *ylabel) {
    double y;
    fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" "
               "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n", W, H, W, H);
    fprintf(f, "<rect x=\"0\" y=\"0\" width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", W, H);
    fprintf(f, "<text x=\"%.1f\" y=\"26\" text-anchor=\"middle\" font-size=\"16\">", L + pw / 2);
    xml_text(f, title);
    fprintf(f, "</text>\n");
    for (y = 0; y <= ytop + ystep * 0.5; y += ystep) {
        double py = T + ph * (1 - y / ytop);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", L, py, L + pw, py);
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n", L - 6, py + 4, y);
    }
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", L, T + ph, L + pw, T + ph);
    fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", L, T, L, T + ph);
    fprintf(f, "<text x=\"18\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 18 %.1f)\">", T + ph / 2, T + ph / 2);
    xml_text(f, ylabel);
    fprintf(f, "</text>\n");
}
static void svg_legend_label(FILE *f, double x, double y, const char *label) {
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\">", x, y);
    if (strlen(label) > 40) {   /* long device names: keep the legend inside the picture */
        char shortl[48];
        snprintf(shortl, sizeof shortl, "%.37s...", label);
        xml_text(f, shortl);
    } else xml_text(f, label);
    fprintf(f, "</text>\n");
}

/* GF/s against n, one line per backend/algorithm */
static int write_svg(const char *path, const bench_row *rows, int nrows, const char *title) {
    const double W = 860, H = 480, L = 72, R = 300, T = 48, Bm = 58, pw = W - L - R, ph = H - T - Bm;
    char labels[64][200];
    int nser = 0, i, j, s, logx;
    double xmin = 0, xmax = 0, ymax = 0, ystep, ytop;
    int64_t ticks[MAX_SIZES];
    int nticks = 0, every;
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    for (i = 0; i < nrows; i++) {
        char lab[200];
        if (i == 0 || (double)rows[i].n < xmin) xmin = (double)rows[i].n;
        if (i == 0 || (double)rows[i].n > xmax) xmax = (double)rows[i].n;
        if (rows[i].st == LCL_OK && rows[i].gflops > ymax) ymax = rows[i].gflops;
        for (j = 0; j < nticks && ticks[j] != rows[i].n; j++) {}
        if (j == nticks && nticks < MAX_SIZES) ticks[nticks++] = rows[i].n;
        series_label(&rows[i], lab, sizeof lab);
        for (j = 0; j < nser && strcmp(labels[j], lab); j++) {}
        if (j == nser && nser < 64) snprintf(labels[nser++], sizeof labels[0], "%s", lab);
    }
    logx = xmin > 0 && xmax / xmin >= 4;
    if (ymax <= 0) ymax = 1;
    ystep = nice_step(ymax / 5);
    ytop = ceil(ymax / ystep) * ystep;
#define SVG_X(n) (xmax > xmin ? L + pw * (0.04 + 0.92 * (logx ? log((double)(n) / xmin) / log(xmax / xmin) : ((double)(n) - xmin) / (xmax - xmin))) : L + pw / 2)
#define SVG_Y(v) (T + ph * (1 - (v) / ytop))
    svg_frame(f, W, H, L, T, pw, ph, ytop, ystep, title, "GF/s");
    /* x ticks at the sizes measured (at most about 10 labels) */
    every = nticks > 10 ? (nticks + 9) / 10 : 1;
    for (i = 0; i < nticks; i++) {
        int64_t t = ticks[i];
        for (j = i; j > 0 && ticks[j - 1] > t; j--) ticks[j] = ticks[j - 1];
        ticks[j] = t;
    }
    for (i = 0; i < nticks; i++) {
        double x = SVG_X(ticks[i]);
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>\n", x, T, x, T + ph);
        if (i % every == 0)
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%lld</text>\n", x, T + ph + 18, (long long)ticks[i]);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">matrix size n%s</text>\n", L + pw / 2, H - 14,
            logx ? " (log scale)" : "");
    /* one line per series, points in order of n; failed configurations are left out */
    for (s = 0; s < nser; s++) {
        const char *col = svg_colors[s % 8];
        int npt = 0;
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s points=\"", col, s >= 8 ? " stroke-dasharray=\"6 3\"" : "");
        for (i = 0; i < nticks; i++)
            for (j = 0; j < nrows; j++) {
                char lab[200];
                if (rows[j].n != ticks[i] || rows[j].st != LCL_OK) continue;
                series_label(&rows[j], lab, sizeof lab);
                if (strcmp(lab, labels[s])) continue;
                fprintf(f, "%s%.1f,%.1f", npt++ ? " " : "", SVG_X(rows[j].n), SVG_Y(rows[j].gflops));
            }
        fprintf(f, "\"/>\n");
        for (j = 0; j < nrows; j++) {
            char lab[200];
            if (rows[j].st != LCL_OK) continue;
            series_label(&rows[j], lab, sizeof lab);
            if (!strcmp(lab, labels[s]))
                fprintf(f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\"/>\n", SVG_X(rows[j].n), SVG_Y(rows[j].gflops), col);
        }
        /* legend */
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" stroke-width=\"2\"%s/>\n", L + pw + 20,
                T + 10 + 20.0 * s, L + pw + 44, T + 10 + 20.0 * s, col, s >= 8 ? " stroke-dasharray=\"6 3\"" : "");
        svg_legend_label(f, L + pw + 50, T + 14 + 20.0 * s, labels[s]);
    }
    if (nrows == 0) fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>\n", L + pw / 2, T + ph / 2);
    fprintf(f, "</svg>\n");
#undef SVG_X
#undef SVG_Y
    return fclose(f) == 0;
}

/* lcl bench dense --op lu|cholesky --sizes N,... [--backend B] [--algorithms A,...] [--reps N]
   [--block N] [--force] [--split] [--csv F] [--svg F] */
static int cmd_bench(const opts *o) {
    int64_t sizes[MAX_SIZES];
    int algs[MAX_ALGS], nsizes, nalgs, chol = method_parse(o->op) == 1, code = -1, nb = 0, b, a, s, i, failures = 0;
    long reps = o->reps > 0 ? o->reps : 3;
    lcl_context *gctx = NULL, *ctxs[3] = {NULL, NULL, NULL};
    lcl_backend want[3];
    char devs[3][128];
    const char *kname = chol ? "Cholesky (potrf)" : "LU (getrf)", *prec = o->dtype == LCL_F64 ? "double" : "single";
    bench_row *rows = NULL;
    lcl_context_desc d;
    char title[256];
    nsizes = parse_sizes(o->sizes ? o->sizes : "256,512,1024", sizes, MAX_SIZES);
    if (o->algorithms) nalgs = parse_algs(o->algorithms, algs, MAX_ALGS);
    else { algs[0] = LCL_ALG_BLOCKED; nalgs = 1; }
    for (s = 0; s < nsizes; s++)
        if ((double)sizes[s] * (double)sizes[s] * 8.0 > DENSE_MAX_BYTES) {
            char what[64];
            snprintf(what, sizeof what, "bench dense --sizes %lld", (long long)sizes[s]);
            return too_big(what, (double)sizes[s]);
        }
    if (o->backend_set || o->device || o->split) want[nb++] = o->backend_set ? o->backend : LCL_BACKEND_OPENCL;
    else {
        want[nb++] = LCL_BACKEND_SERIAL;
        if (lcl_backend_compiled(LCL_BACKEND_OPENMP)) want[nb++] = LCL_BACKEND_OPENMP;
        if (lcl_backend_compiled(LCL_BACKEND_OPENCL)) want[nb++] = LCL_BACKEND_OPENCL;
    }
    for (b = 0; b < nb; b++) {  /* contexts first: an explicitly asked backend that is missing ends here (3) */
        int asked = nb == 1 && (o->backend_set || o->device || o->split);
        lcl_status st;
        memset(&d, 0, sizeof d);
        d.backend = want[b];
        d.device = o->device;
        d.log = asked ? log_stderr : NULL;
        st = lcl_context_create(&d, &ctxs[b]);
        if (st == LCL_OK && lcl_dense_backend(ctxs[b]) == LCL_BACKEND_OPENCL) st = lcl_context_prepare(ctxs[b], o->dtype);
        if (st == LCL_OK && o->split && (code = split_check(ctxs[b])) >= 0) goto done;
        if (st != LCL_OK) {
            if (asked) { code = fail(exit_code(st), "%s", lcl_last_error(ctxs[b])); goto done; }
            fprintf(stderr, "bench: %s skipped: %s\n", lcl_backend_name(want[b]), lcl_last_error(ctxs[b]));
            lcl_context_destroy(ctxs[b]);
            ctxs[b] = NULL;
            continue;
        }
        device_name(ctxs[b], 0, devs[b], sizeof devs[b]);
    }
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    lcl_context_create(&d, &gctx);
    snprintf(title, sizeof title, "Dense %s, %s precision", kname, prec);
    for (s = 0; s < nsizes; s++) {
        bench_case c;
        int64_t n = sizes[s];
        int runs = 0;
        for (a = 0; a < nalgs; a++) runs += !alg_unblocked(algs[a]) || n <= BENCH_UNBLOCKED_MAX || o->force;
        if (!runs) {
            fprintf(stderr, "bench: n = %lld skipped: unblocked algorithms stop at n = %d (--force runs them)\n", (long long)n,
                    BENCH_UNBLOCKED_MAX);
            continue;
        }
        fprintf(stderr, "bench: n = %lld: generating %s:%lld (seed %llu)\n", (long long)n, chol ? "dense-spd" : "dense-random",
                (long long)n, (unsigned long long)o->seed);
        if ((code = bench_case_make(gctx, chol, n, o->seed, o->dtype, &c)) >= 0) goto done;
        for (b = 0; b < nb; b++) {
            if (!ctxs[b]) continue;
            for (a = 0; a < nalgs * (o->split ? 2 : 1); a++) {
                bench_row r;
                int host = o->split ? 1 - a % 2 : -1;   /* --split: device 0, then all of them, on host arrays */
                int alg = algs[o->split ? a / 2 : a];
                if (alg_unblocked(alg) && n > BENCH_UNBLOCKED_MAX && !o->force) {
                    fprintf(stderr, "bench: n = %lld %s %s skipped: unblocked algorithms stop at n = %d (--force runs them)\n",
                            (long long)n, lcl_backend_name(lcl_dense_backend(ctxs[b])), alg_names[alg], BENCH_UNBLOCKED_MAX);
                    continue;
                }
                memset(&r, 0, sizeof r);
                r.n = n;
                r.alg = alg;
                snprintf(r.backend, sizeof r.backend, "%s", lcl_backend_name(lcl_dense_backend(ctxs[b])));
                if (host == 0) device_name(ctxs[b], 1, r.device, sizeof r.device);
                else {
                    memcpy(r.device, devs[b], sizeof r.device);     /* both 128 bytes, NUL-terminated */
                    r.device[sizeof r.device - 1] = 0;
                }
                bench_one(ctxs[b], chol, alg, o->block, reps, host, &c, &r);
                if (!r.ok) failures++;
                if (r.st == LCL_OK)
                    fprintf(stderr, "bench: n = %lld %s %s: median %.6f s, %.3f GF/s, residual %.2e%s\n", (long long)n, r.backend,
                            alg_names[r.alg], r.t_median, r.gflops, r.residual, r.ok ? "" : " FAIL");
                else
                    fprintf(stderr, "bench: n = %lld %s %s: FAIL: %s\n", (long long)n, r.backend, alg_names[r.alg], r.msg);
                if (o->json) {
                    printf("{\"op\":\"bench\",\"suite\":\"dense\",\"method\":\"%s\",\"n\":%lld,\"backend\":\"%s\",\"device\":",
                           chol ? "cholesky" : "lu", (long long)n, r.backend);
                    json_str(stdout, r.device);
                    printf(",\"algorithm\":\"%s\",\"block\":%ld,\"precision\":\"%s\",\"reps\":%ld,\"t_median\":", alg_names[r.alg],
                           o->block, prec, reps);
                    json_double(stdout, r.t_median, r.st == LCL_OK);
                    printf(",\"t_min\":");
                    json_double(stdout, r.t_min, r.st == LCL_OK);
                    printf(",\"gflops\":");
                    json_double(stdout, r.gflops, r.st == LCL_OK);
                    printf(",\"residual\":");
                    json_double(stdout, r.residual, r.st == LCL_OK);
                    printf(",\"status\":");
                    json_str(stdout, lcl_status_string(r.st));
                    printf(",\"check\":\"%s\"}\n", r.ok ? "ok" : "FAIL");
                    fflush(stdout);
                }
                arrput(rows, r);
            }
        }
        bench_case_free(&c);
    }
    if (!o->json) {
        printf("Dense %s, %s precision: median of %ld runs after one warm-up (factorization only, fresh copy each run), "
               "GF/s = %s n^3 / time, residual = |b - Ax| / (|A| |x| + |b|) of one solve (FAIL above %g), seed %llu.\n\n",
               kname, prec, reps, chol ? "1/3" : "2/3", o->dtype == LCL_F64 ? 1e-12 : 1e-4, (unsigned long long)o->seed);
        if (o->split)
            printf("--split: host arrays (lcl_getrf / lcl_potrf), upload and download timed, on device 0 alone (opts.device 0) and "
                   "split over all %d devices (opts.device -1).\n\n", lcl_context_num_devices(ctxs[0]));
        printf("| n | backend | device | algorithm | block | median (s) | min (s) | GF/s | residual | check |\n");
        printf("|---:|---|---|---|---:|---:|---:|---:|---:|---|\n");
        for (i = 0; i < (int)arrlen(rows); i++) {
            const bench_row *r = &rows[i];
            char blk[16];
            if (o->block) snprintf(blk, sizeof blk, "%ld", o->block);
            else snprintf(blk, sizeof blk, "%s", alg_unblocked(r->alg) ? "-" : "auto");
            printf("| %lld | %s | %s | %s | %s | ", (long long)r->n, r->backend, r->device, alg_names[r->alg], blk);
            if (r->st == LCL_OK) printf("%.6f | %.6f | %.3f | %.2e | %s |\n", r->t_median, r->t_min, r->gflops, r->residual, r->ok ? "ok" : "FAIL");
            else printf("- | - | - | - | FAIL (%s) |\n", lcl_status_string(r->st));
        }
    }
    if (o->csv) {
        FILE *f = fopen(o->csv, "w");
        if (!f) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
        fprintf(f, "method,n,backend,device,algorithm,block,precision,reps,t_median_s,t_min_s,gflops,residual,status,check\n");
        for (i = 0; i < (int)arrlen(rows); i++) {
            const bench_row *r = &rows[i];
            fprintf(f, "%s,%lld,%s,", chol ? "cholesky" : "lu", (long long)r->n, r->backend);
            csv_field(f, r->device);
            fprintf(f, ",%s,%ld,%s,%ld,", alg_names[r->alg], o->block, prec, reps);
            if (r->st == LCL_OK) fprintf(f, "%.9g,%.9g,%.6g,%.6g,", r->t_median, r->t_min, r->gflops, r->residual);
            else fprintf(f, ",,,,");
            csv_field(f, lcl_status_string(r->st));
            fprintf(f, ",%s\n", r->ok ? "ok" : "FAIL");
        }
        if (fclose(f) != 0) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
    }
    if (o->svg && !write_svg(o->svg, rows, (int)arrlen(rows), title)) {
        code = fail(EXIT_USAGE, "cannot write %s: %s", o->svg, strerror(errno));
        goto done;
    }
    code = failures ? EXIT_NUMERIC : EXIT_OK;
done:
    arrfree(rows);
    for (b = 0; b < nb; b++) lcl_context_destroy(ctxs[b]);
    lcl_context_destroy(gctx);
    return code;
}

/* ---- spmv and bench spmv: sparse matrix-vector products in every storage format ---------------- */
#define SPMV_REPS 20

/* The tool's own check, independent of the library's SpMV: y_ref = op(A) x from the COO as a
   serial CSR product (row by row; --trans scatters), accumulated in long double where wider. */
typedef struct spmv_ref {
    int64_t n_in, n_out;        /* lengths of x and y */
    double *x;                  /* x as the library sees it (rounded to float in single precision) */
    void *xw;                   /* the same x in the working precision, what lcl_spmv reads */
    double *y;
    double scale;               /* max_i sum_j |a_ij| |x_j|, the denominator of rel_err */
    double tol;                 /* rel_err above this is a wrong result */
} spmv_ref;

static double coo_val(const lcl_coo *A, int64_t k) {
    return A->dtype == LCL_F64 ? ((const double *)A->val)[k] : (double)((const float *)A->val)[k];
}
static void spmv_ref_free(spmv_ref *r) {
    free(r->x);
    free(r->xw);
    free(r->y);
    memset(r, 0, sizeof *r);
}
/* A canonical (sorted by row, as lclg_load leaves it), any dtype; x0 the x asked for (n_in
   doubles). The bound: recursive summation of m terms in any order errs by at most about
   m u sum |a||x| (u = eps/2); tol allows m eps, m the longest row of op(A). */
static lcl_status spmv_ref_make(const lcl_coo *A, int trans, const double *x0, spmv_ref *r) {
    int64_t i, k, maxlen = 0;
    int64_t n_in = trans ? A->rows : A->cols, n_out = trans ? A->cols : A->rows;
    size_t es = A->dtype == LCL_F64 ? sizeof(double) : sizeof(float);
    long double *acc, *abs_acc;
    int64_t *len;
    memset(r, 0, sizeof *r);
    r->n_in = n_in;
    r->n_out = n_out;
    r->x = (double *)malloc((size_t)(n_in + 1) * sizeof(double));
    r->xw = malloc((size_t)(n_in + 1) * es);
    r->y = (double *)malloc((size_t)(n_out + 1) * sizeof(double));
    acc = (long double *)calloc((size_t)(n_out + 1), sizeof(long double));
    abs_acc = (long double *)calloc((size_t)(n_out + 1), sizeof(long double));
    len = (int64_t *)calloc((size_t)(n_out + 1), sizeof(int64_t));
    if (!r->x || !r->xw || !r->y || !acc || !abs_acc || !len) {
        free(acc);
        free(abs_acc);
        free(len);
        spmv_ref_free(r);
        return LCL_ERR_OUT_OF_MEMORY;
    }
    for (i = 0; i < n_in; i++) {
        if (A->dtype == LCL_F64) ((double *)r->xw)[i] = r->x[i] = x0[i];
        else r->x[i] = (double)(((float *)r->xw)[i] = (float)x0[i]);
    }
    for (k = 0; k < A->nnz; k++) {
        int64_t out = trans ? A->col[k] : A->row[k], in = trans ? A->row[k] : A->col[k];
        long double a = coo_val(A, k);
        acc[out] += a * r->x[in];
        abs_acc[out] += fabsl(a * r->x[in]);
        len[out]++;
    }
    r->scale = 0;
    for (i = 0; i < n_out; i++) {
        r->y[i] = (double)acc[i];
        r->scale = amax(r->scale, (double)abs_acc[i]);
        if (len[i] > maxlen) maxlen = len[i];
    }
    r->tol = (double)(maxlen + 2) * (A->dtype == LCL_F64 ? DBL_EPSILON : FLT_EPSILON);
    free(acc);
    free(abs_acc);
    free(len);
    return LCL_OK;
}
/* max |y - y_ref| / scale (NaN when y holds one) */
static double spmv_rel_err(const spmv_ref *r, lcl_dtype dt, const void *y) {
    int64_t i;
    double d = 0;
    for (i = 0; i < r->n_out; i++) {
        double v = dt == LCL_F64 ? ((const double *)y)[i] : (double)((const float *)y)[i];
        d = amax(d, fabs(v - r->y[i]));
    }
    return r->scale > 0 ? d / r->scale : d;
}

typedef struct spmv_run {
    lcl_status st;
    char msg[512];              /* the library's message when st != LCL_OK */
    lcl_spmat_info info;        /* format and kernel as chosen */
    double seconds;             /* median of the timed products */
    double rel_err;             /* the largest over every product */
    int ok;                     /* st == LCL_OK and every product within ref->tol */
} spmv_run;

/* Builds op's lcl_spmat from A (in the working precision), one warm-up product, then reps timed
   products into y (poisoned with NaN before each: beta = 0 must not read it), each checked. */
static void spmv_measure(lcl_context *ctx, const lcl_coo *A, const lcl_spmat_opts *so, int trans, long reps,
                         const spmv_ref *ref, void *y, spmv_run *r) {
    lcl_spmat *M = NULL;
    lcl_vec *xv = NULL, *yv = NULL;
    size_t es = A->dtype == LCL_F64 ? sizeof(double) : sizeof(float);
    double *times = (double *)malloc((size_t)reps * sizeof *times);
    long k;
    memset(r, 0, sizeof *r);
    r->rel_err = 0;
    if (!times) { r->st = LCL_ERR_OUT_OF_MEMORY; snprintf(r->msg, sizeof r->msg, "out of memory"); return; }
    r->st = lcl_spmat_from_coo(ctx, A, so, &M);
    if (r->st == LCL_OK) r->st = lcl_spmat_describe(M, &r->info);
    /* a matrix on one OpenCL device is timed as an iterative solver uses it: x and y stay on the
       device (lcl_spmv_vec, then lcl_finish); y is read back, untimed, to check every product */
    if (r->st == LCL_OK && r->info.devices == 1) {
        r->st = lcl_vec_create(ctx, A->dtype, trans ? A->rows : A->cols, ref->xw, &xv);
        if (r->st == LCL_OK) r->st = lcl_vec_create(ctx, A->dtype, ref->n_out, NULL, &yv);
    }
    for (k = 0; k <= reps && r->st == LCL_OK; k++) {
        double t0, t1;
        memset(y, 0xff, (size_t)ref->n_out * es);   /* all bits set: NaN in float and double */
        if (yv && (r->st = lcl_vec_write(ctx, yv, y)) != LCL_OK) break;
        if (yv && (r->st = lcl_finish(ctx)) != LCL_OK) break;
        t0 = now_s();
        if (yv) {
            r->st = lcl_spmv_vec(ctx, trans ? LCL_TRANS : LCL_NO_TRANS, 1.0, M, xv, 0.0, yv);
            if (r->st == LCL_OK) r->st = lcl_finish(ctx);
        } else
            r->st = lcl_spmv(ctx, trans ? LCL_TRANS : LCL_NO_TRANS, 1.0, M, ref->xw, 0.0, y);
        t1 = now_s();
        if (r->st == LCL_OK && yv) r->st = lcl_vec_read(ctx, yv, y);
        if (r->st != LCL_OK) break;
        r->rel_err = amax(r->rel_err, spmv_rel_err(ref, A->dtype, y));
        if (k > 0) times[k - 1] = t1 - t0;
    }
    if (r->st == LCL_OK) {
        qsort(times, (size_t)reps, sizeof *times, cmp_double);
        r->seconds = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / 2]);
        r->ok = r->rel_err <= ref->tol;     /* false for NaN */
    } else {
        snprintf(r->msg, sizeof r->msg, "%s", lcl_last_status(ctx) == r->st ? lcl_last_error(ctx) : lcl_status_string(r->st));
    }
    lcl_vec_free(xv);
    lcl_vec_free(yv);
    lcl_spmat_free(M);
    free(times);
}
static double spmv_mnnz(const spmv_run *r) { return r->st == LCL_OK && r->seconds > 0 ? (double)r->info.nnz / r->seconds * 1e-6 : 0; }
static double spmv_gbps(const spmv_run *r) { return r->st == LCL_OK && r->seconds > 0 ? r->info.bytes / r->seconds * 1e-9 : 0; }

/* the OpenCL device's name, "" on the CPU backends */
static void spmv_device(lcl_context *ctx, char *buf, size_t cap) {
    lcl_device_info di;
    buf[0] = 0;
    if (lcl_context_backend(ctx) == LCL_BACKEND_OPENCL && lcl_context_device(ctx, 0, &di) == LCL_OK) snprintf(buf, cap, "%s", di.name);
}
static const char *prec_name(lcl_dtype dt) { return dt == LCL_F64 ? "double" : "single"; }

/* MATRIX as canonical COO in the working precision: -1, else the exit code (printed) */
static int spmv_load(lcl_context *ctx, const char *src, uint64_t seed, lcl_dtype dt, lcl_coo *A) {
    char err[1024] = "";
    lcl_coo A64;
    lcl_status st = lclg_load(ctx, src, seed, LCL_F64, &A64, err, sizeof err);
    memset(A, 0, sizeof *A);
    if (st != LCL_OK) {
        lcl_coo_free(&A64);
        return fail(exit_code(st), "%s", err[0] ? err : lcl_status_string(st));
    }
    if (dt == LCL_F64) { *A = A64; return -1; }
    st = lcl_coo_copy(ctx, &A64, dt, A);
    lcl_coo_free(&A64);
    return st == LCL_OK ? -1 : fail(exit_code(st), "%s", lcl_last_error(ctx));
}

/* lcl spmv MATRIX [--format F] [--kernel K] [--reps N] [--trans] [--split] [--x FILE] [-o FILE] */
static int cmd_spmv(const opts *o) {
    const char *src = o->pos[0];
    long reps = o->reps > 0 ? o->reps : SPMV_REPS;
    lcl_context *ctx = NULL;
    lcl_coo A;
    lcl_dense X;
    lcl_spmat_opts so;
    spmv_ref ref;
    spmv_run run;
    double *x0 = NULL;
    void *y = NULL;
    int64_t n_in, i;
    int code;
    lcl_status st;
    char dev[128];
    memset(&A, 0, sizeof A);
    memset(&X, 0, sizeof X);
    memset(&ref, 0, sizeof ref);
    memset(&so, 0, sizeof so);
    if (o->format) lcl_format_parse(o->format, &so.format);
    if (o->kernel) lcl_spmv_kernel_parse(o->kernel, &so.kernel);
    if ((code = make_context(o, &ctx)) >= 0) return code;
    if (lcl_context_backend(ctx) == LCL_BACKEND_OPENCL && (st = lcl_context_prepare(ctx, o->dtype)) != LCL_OK) {
        code = fail(exit_code(st), "%s", lcl_last_error(ctx));
        goto done;
    }
    spmv_device(ctx, dev, sizeof dev);
    if (o->split) {   /* rows split by nnz over every device of the context */
        if ((code = split_check(ctx)) >= 0) goto done;
        so.device = -1;
        snprintf(dev, sizeof dev, "%d devices, split", lcl_context_num_devices(ctx));
    }
    if ((code = spmv_load(ctx, src, o->seed, o->dtype, &A)) >= 0) goto done;
    code = -1;
    n_in = o->trans ? A.rows : A.cols;
    x0 = (double *)malloc((size_t)(n_in + 1) * sizeof *x0);
    if (!x0) { code = fail(EXIT_NUMERIC, "out of memory"); goto done; }
    if (o->x) {
        if ((st = lcl_mm_read_dense(ctx, o->x, LCL_F64, LCL_COL_MAJOR, 0, &X, NULL)) != LCL_OK) {
            code = fail(exit_code(st), "%s", lcl_last_error(ctx));
            goto done;
        }
        if (X.rows * X.cols != n_in || (X.rows != 1 && X.cols != 1)) {
            code = fail(EXIT_USAGE, "%s is %lld x %lld: x must be a vector of %lld entries (the %s of %s, %lld x %lld%s)", o->x,
                        (long long)X.rows, (long long)X.cols, (long long)n_in, o->trans ? "rows" : "columns", src, (long long)A.rows,
                        (long long)A.cols, o->trans ? ", --trans" : "");
            goto done;
        }
        for (i = 0; i < n_in; i++) x0[i] = X.cols == 1 ? lcl_dense_get(&X, i, 0) : lcl_dense_get(&X, 0, i);
    } else {
        for (i = 0; i < n_in; i++) x0[i] = urand_sym(o->seed, (uint64_t)i);
    }
    if (spmv_ref_make(&A, o->trans, x0, &ref) != LCL_OK ||
        !(y = malloc((size_t)(ref.n_out + 1) * (o->dtype == LCL_F64 ? sizeof(double) : sizeof(float))))) {
        code = fail(EXIT_NUMERIC, "out of memory");
        goto done;
    }
    spmv_measure(ctx, &A, &so, o->trans, reps, &ref, y, &run);
    if (run.st != LCL_OK) { code = fail(exit_code(run.st), "%s", run.msg); goto done; }
    if (run.ok && o->out) {
        lcl_dense Y;
        if ((st = lcl_dense_wrap(ctx, &Y, o->dtype, LCL_COL_MAJOR, ref.n_out, 1, ref.n_out > 0 ? ref.n_out : 1, y)) != LCL_OK ||
            (st = lcl_mm_write_dense(ctx, o->out, &Y)) != LCL_OK) {
            code = fail(exit_code(st), "%s", lcl_last_error(ctx));
            goto done;
        }
    }
    if (o->json) {
        printf("{\"op\":\"spmv\",\"format\":\"%s\",\"kernel\":\"%s\",\"backend\":\"%s\",\"device\":", lcl_format_name(run.info.format),
               lcl_spmv_kernel_name(run.info.kernel), lcl_backend_name(lcl_context_backend(ctx)));
        json_str(stdout, dev);
        printf(",\"precision\":\"%s\",\"rows\":%lld,\"cols\":%lld,\"nnz\":%lld,\"seconds\":", prec_name(o->dtype), (long long)A.rows,
               (long long)A.cols, (long long)run.info.nnz);
        json_double(stdout, run.seconds, 1);
        printf(",\"gflops\":");
        json_double(stdout, 2e-3 * spmv_mnnz(&run), 1);
        printf(",\"gbps\":");
        json_double(stdout, spmv_gbps(&run), 1);
        printf(",\"rel_err\":");
        json_double(stdout, run.rel_err, 1);
        if (run.info.reason[0]) { printf(",\"reason\":"); json_str(stdout, run.info.reason); }
        printf("}\n");
    } else {
        printf("spmv %s\n", src);
        printf("  matrix      %lld x %lld, %lld nonzeros\n", (long long)A.rows, (long long)A.cols, (long long)A.nnz);
        if (o->x) printf("  product     y = %s x, x from %s\n", o->trans ? "A^T" : "A", o->x);
        else printf("  product     y = %s x, x random (seed %llu)\n", o->trans ? "A^T" : "A", (unsigned long long)o->seed);
        printf("  format      %s, kernel %s; %lld slots stored (%.2f per nonzero)\n", lcl_format_name(run.info.format),
               lcl_spmv_kernel_name(run.info.kernel), (long long)run.info.stored,
               run.info.nnz > 0 ? (double)run.info.stored / (double)run.info.nnz : 0.0);
        if (run.info.reason[0]) printf("  auto        %s\n", run.info.reason);
        printf("  backend     %s%s%s, %s precision\n", lcl_backend_name(lcl_context_backend(ctx)), dev[0] ? " on " : "", dev,
               prec_name(o->dtype));
        printf("  time        %.3e s per product (median of %ld after one warm-up)\n", run.seconds, reps);
        printf("  speed       %.1f M nnz/s, %.3f GF/s, %.2f GB/s (%.0f bytes moved per product at least)\n", spmv_mnnz(&run),
               2e-3 * spmv_mnnz(&run), spmv_gbps(&run), run.info.bytes);
        printf("  rel_err     %.2e   max|y - y_ref| / max_i sum_j |a_ij||x_j|, every product (bound %.1e: %s)\n", run.rel_err, ref.tol,
               run.ok ? "ok" : "WRONG");
        if (run.ok && o->out) printf("  y written   %s\n", o->out);
    }
    if (!run.ok) {
        code = fail(EXIT_NUMERIC, "%s %s/%s: wrong result: rel_err %.3e above %.1e against the serial double reference", src,
                    lcl_format_name(run.info.format), lcl_spmv_kernel_name(run.info.kernel), run.rel_err, ref.tol);
        goto done;
    }
    code = EXIT_OK;
done:
    free(x0);
    free(y);
    spmv_ref_free(&ref);
    lcl_dense_free(&X);
    lcl_coo_free(&A);
    lcl_context_destroy(ctx);
    return code;
}

/* ---- bench spmv ---- */
typedef struct spmv_dims { int64_t rows, cols, nnz; } spmv_dims;
typedef struct spmv_row {
    int mi, b;                  /* matrix and backend slots */
    lcl_format want;            /* the format asked; LCL_FMT_AUTO: the auto column */
    spmv_run run;
    double ratio;               /* auto: M nnz/s over the best format's; 0 when unknown */
    int note;                   /* footnote number, 0 = none */
} spmv_row;

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* every *.mtx in $LCL_SHARED/matrices (../shared/matrices), sorted, then the two generated ones */
static void spmv_default_matrices(char ***list) {
    const char *shared = getenv("LCL_SHARED");
    char dir[1024];
    DIR *d;
    struct dirent *e;
    size_t first = (size_t)arrlen(*list);
    snprintf(dir, sizeof dir, "%s/matrices", shared && shared[0] ? shared : "../shared");
    if ((d = opendir(dir)) != NULL) {
        while ((e = readdir(d)) != NULL) {
            size_t n = strlen(e->d_name);
            char *path;
            if (n < 5 || strcmp(e->d_name + n - 4, ".mtx") || e->d_name[0] == '.') continue;
            if (!(path = (char *)malloc(strlen(dir) + n + 2))) continue;
            sprintf(path, "%s/%s", dir, e->d_name);
            arrput(*list, path);
        }
        closedir(d);
        qsort(*list + first, (size_t)arrlen(*list) - first, sizeof(char *), cmp_str);
    } else {
        fprintf(stderr, "bench: %s: %s (no shared matrices; set LCL_SHARED)\n", dir, strerror(errno));
    }
    {
        static const char *const gens[2] = {"gen:poisson3d:60", "gen:powerlaw:200000:16"};
        int i;
        for (i = 0; i < 2; i++) {
            char *g = (char *)malloc(strlen(gens[i]) + 1);
            if (g) { strcpy(g, gens[i]); arrput(*list, g); }
        }
    }
}
/* west0067 for ../shared/matrices/west0067.mtx, the spec itself for gen: */
static void matrix_label(const char *src, char *buf, size_t cap) {
    const char *base = strncmp(src, "gen:", 4) ? strrchr(src, '/') : NULL;
    size_t n;
    base = base ? base + 1 : src;
    n = strlen(base);
    if (strncmp(src, "gen:", 4) && n > 4 && !strcmp(base + n - 4, ".mtx")) n -= 4;
    if (n >= cap) n = cap - 1;
    memcpy(buf, base, n);
    buf[n] = 0;
}
static void mnnz_cell(char *buf, size_t cap, double v) {
    if (v >= 100) snprintf(buf, cap, "%.0f", v);
    else if (v >= 10) snprintf(buf, cap, "%.1f", v);
    else snprintf(buf, cap, "%.3g", v);
}
/* LCL_ERR_FILL (the format refuses the matrix: too much padding) and LCL_ERR_UNSUPPORTED (a
   device limit, e.g. a part beyond int32 indexing or the ELL image kernel without images) are
   documented outcomes: shown with their reason, not failures */
static int spmv_refused(const spmv_run *r) { return r->st == LCL_ERR_FILL || r->st == LCL_ERR_UNSUPPORTED; }

/* Grouped bars: ngroups groups (matrix and backend) of nser bars (formats), val[g * nser + s]
   (<= 0: none, a failed or refused format) */
static int write_svg_bars(const char *path, const char *title, const char *ylabel, char **groups, int ngroups, char **series,
                          int nser, const double *val) {
    const double L = 72, R = 170, T = 48, Bm = 150, H = 520, ph = H - T - Bm, minw = 8.0 * nser + 14;
    const double pw = ngroups * minw > 520 ? ngroups * minw : 520, W = L + pw + R;
    const double gw = ngroups > 0 ? pw / ngroups : pw, gap = gw * 14 / minw, bw = (gw - gap) / (nser > 0 ? nser : 1);
    double ymax = 0, ystep, ytop;
    int g, s;
    FILE *f = fopen(path, "w");
    if (!f) return 0;
    for (g = 0; g < ngroups * nser; g++)
        if (val[g] > ymax) ymax = val[g];
    if (ymax <= 0) ymax = 1;
    ystep = nice_step(ymax / 5);
    ytop = ceil(ymax / ystep) * ystep;
    svg_frame(f, W, H, L, T, pw, ph, ytop, ystep, title, ylabel);
    for (g = 0; g < ngroups; g++) {
        double x0 = L + g * gw + gap / 2, lx = x0 + nser * bw / 2;
        for (s = 0; s < nser; s++) {
            double v = val[g * nser + s];
            if (!(v > 0)) continue;
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>", x0 + s * bw, T + ph * (1 - v / ytop),
                    bw - 1, ph * v / ytop, svg_colors[s % 10]);
            xml_text(f, groups[g]);
            fputs(" ", f);
            xml_text(f, series[s]);
            fprintf(f, ": %.4g</title></rect>\n", v);
        }
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" transform=\"rotate(-40 %.1f %.1f)\">", lx, T + ph + 14, lx, T + ph + 14);
        xml_text(f, groups[g]);
        fprintf(f, "</text>\n");
    }
    for (s = 0; s < nser; s++) {
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"10\" fill=\"%s\"%s/>\n", L + pw + 20, T + 4 + 20.0 * s,
                svg_colors[s % 10], s >= 10 ? " stroke=\"black\" stroke-dasharray=\"2 1\"" : "");
        svg_legend_label(f, L + pw + 40, T + 14 + 20.0 * s, series[s]);
    }
    if (ngroups == 0) fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">no data</text>\n", L + pw / 2, T + ph / 2);
    fprintf(f, "</svg>\n");
    return fclose(f) == 0;
}

/* lcl bench spmv [MATRIX...] [--formats F,...|all] [--backends B,...] [--reps N] [--csv F] [--svg F] */
static int cmd_bench_spmv(const opts *o) {
    lcl_format fmts[MAX_FORMATS];
    lcl_backend want[MAX_BACKENDS];
    lcl_context *gctx = NULL, *ctxs[MAX_BACKENDS] = {NULL, NULL, NULL, NULL};
    char devs[MAX_BACKENDS][128], **mats = NULL, **labels = NULL;
    spmv_dims *dims = NULL;
    long reps = o->reps > 0 ? o->reps : SPMV_REPS;
    int nf, nb = 0, b, f, m, i, code = -1, failures = 0, nnotes = 0, asked;
    spmv_row *rows = NULL;
    lcl_context_desc d;
    nf = parse_formats(o->formats ? o->formats : "all", fmts, MAX_FORMATS);
    if (o->backends) nb = parse_backends(o->backends, want, MAX_BACKENDS);
    else if (o->backend_set || o->device) want[nb++] = o->backend_set ? o->backend : LCL_BACKEND_OPENCL;
    else {
        want[nb++] = LCL_BACKEND_SERIAL;
        if (lcl_backend_compiled(LCL_BACKEND_OPENMP)) want[nb++] = LCL_BACKEND_OPENMP;
        if (lcl_backend_compiled(LCL_BACKEND_OPENCL)) want[nb++] = LCL_BACKEND_OPENCL;
    }
    asked = o->backends || o->backend_set || o->device;
    for (b = 0; b < nb; b++) {  /* contexts first: a backend asked for that is missing ends here (3) */
        lcl_status st;
        memset(&d, 0, sizeof d);
        d.backend = want[b];
        d.device = o->device;
        d.log = asked ? log_stderr : NULL;
        st = lcl_context_create(&d, &ctxs[b]);
        if (st == LCL_OK && lcl_context_backend(ctxs[b]) == LCL_BACKEND_OPENCL) st = lcl_context_prepare(ctxs[b], o->dtype);
        if (st != LCL_OK) {
            if (asked) { code = fail(exit_code(st), "%s", lcl_last_error(ctxs[b])); goto done; }
            fprintf(stderr, "bench: %s skipped: %s\n", lcl_backend_name(want[b]), lcl_last_error(ctxs[b]));
            lcl_context_destroy(ctxs[b]);
            ctxs[b] = NULL;
            continue;
        }
        spmv_device(ctxs[b], devs[b], sizeof devs[b]);
    }
    for (i = 1; i < (int)arrlen(o->pos); i++) {
        char *p = (char *)malloc(strlen(o->pos[i]) + 1);
        if (p) { strcpy(p, o->pos[i]); arrput(mats, p); }
    }
    if (arrlen(o->pos) < 2) spmv_default_matrices(&mats);
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    lcl_context_create(&d, &gctx);
    for (m = 0; m < (int)arrlen(mats); m++) {
        lcl_coo A;
        spmv_ref ref;
        double *x0;
        void *y;
        char label[256], *lab;
        spmv_dims dim;
        int64_t k;
        if ((code = spmv_load(gctx, mats[m], o->seed, o->dtype, &A)) >= 0) goto done;
        code = -1;
        matrix_label(mats[m], label, sizeof label);
        if ((lab = (char *)malloc(strlen(label) + 1)) != NULL) strcpy(lab, label);
        arrput(labels, lab);
        dim.rows = A.rows;
        dim.cols = A.cols;
        dim.nnz = A.nnz;
        arrput(dims, dim);
        x0 = (double *)malloc((size_t)(A.cols + 1) * sizeof *x0);
        y = malloc((size_t)(A.rows + 1) * sizeof(double));
        for (k = 0; x0 && k < A.cols; k++) x0[k] = urand_sym(o->seed, (uint64_t)k);
        if (!x0 || !y || !lab || spmv_ref_make(&A, 0, x0, &ref) != LCL_OK) {
            free(x0);
            free(y);
            lcl_coo_free(&A);
            code = fail(EXIT_NUMERIC, "out of memory");
            goto done;
        }
        free(x0);
        fprintf(stderr, "bench: %s: %lld x %lld, %lld nonzeros\n", label, (long long)A.rows, (long long)A.cols, (long long)A.nnz);
        for (b = 0; b < nb; b++) {
            int best = -1;
            if (!ctxs[b]) continue;
            for (f = 0; f <= nf; f++) {
                spmv_row r;
                lcl_spmat_opts so;
                const char *bname = lcl_backend_name(lcl_context_backend(ctxs[b]));
                memset(&r, 0, sizeof r);
                memset(&so, 0, sizeof so);
                r.mi = m;
                r.b = b;
                r.want = so.format = f < nf ? fmts[f] : LCL_FMT_AUTO;
                spmv_measure(ctxs[b], &A, &so, 0, reps, &ref, y, &r.run);
                if (r.want != LCL_FMT_AUTO && r.run.ok && (best < 0 || spmv_mnnz(&r.run) > spmv_mnnz(&rows[best].run)))
                    best = (int)arrlen(rows);
                if (r.want == LCL_FMT_AUTO && r.run.ok && best >= 0) r.ratio = spmv_mnnz(&r.run) / spmv_mnnz(&rows[best].run);
                if (!r.run.ok && !spmv_refused(&r.run)) failures++;
                if (r.run.st == LCL_OK)
                    fprintf(stderr, "bench: %s %s %s -> %s/%s: %.1f M nnz/s, %.2f GB/s, rel_err %.1e%s\n", label, bname,
                            lcl_format_name(r.want), lcl_format_name(r.run.info.format), lcl_spmv_kernel_name(r.run.info.kernel),
                            spmv_mnnz(&r.run), spmv_gbps(&r.run), r.run.rel_err, r.run.ok ? "" : " WRONG");
                else
                    fprintf(stderr, "bench: %s %s %s: %s: %s\n", label, bname, lcl_format_name(r.want),
                            spmv_refused(&r.run) ? "refused" : "FAIL", r.run.msg);
                if (!r.run.ok) {   /* a footnote, shared by every row with the same format and message */
                    for (i = 0; i < (int)arrlen(rows); i++)
                        if (rows[i].note && rows[i].want == r.want && rows[i].run.st == r.run.st && !strcmp(rows[i].run.msg, r.run.msg)) break;
                    r.note = i < (int)arrlen(rows) ? rows[i].note : ++nnotes;
                }
                if (o->json) {
                    printf("{\"op\":\"bench\",\"suite\":\"spmv\",\"matrix\":");
                    json_str(stdout, label);
                    printf(",\"rows\":%lld,\"cols\":%lld,\"nnz\":%lld,\"backend\":\"%s\",\"device\":", (long long)A.rows, (long long)A.cols,
                           (long long)A.nnz, bname);
                    json_str(stdout, devs[b]);
                    printf(",\"precision\":\"%s\",\"reps\":%ld,\"requested\":\"%s\",\"format\":\"%s\",\"kernel\":\"%s\",\"seconds\":",
                           prec_name(o->dtype), reps, lcl_format_name(r.want),
                           r.run.st == LCL_OK ? lcl_format_name(r.run.info.format) : lcl_format_name(r.want),
                           r.run.st == LCL_OK ? lcl_spmv_kernel_name(r.run.info.kernel) : "");
                    json_double(stdout, r.run.seconds, r.run.st == LCL_OK);
                    printf(",\"mnnz_per_s\":");
                    json_double(stdout, spmv_mnnz(&r.run), r.run.st == LCL_OK);
                    printf(",\"gflops\":");
                    json_double(stdout, 2e-3 * spmv_mnnz(&r.run), r.run.st == LCL_OK);
                    printf(",\"gbps\":");
                    json_double(stdout, spmv_gbps(&r.run), r.run.st == LCL_OK);
                    printf(",\"rel_err\":");
                    json_double(stdout, r.run.rel_err, r.run.st == LCL_OK);
                    if (r.want == LCL_FMT_AUTO) {
                        printf(",\"ratio_to_best\":");
                        json_double(stdout, r.ratio, r.ratio > 0);
                        printf(",\"reason\":");
                        json_str(stdout, r.run.info.reason);
                    }
                    printf(",\"status\":");
                    json_str(stdout, lcl_status_string(r.run.st));
                    printf(",\"check\":\"%s\"}\n", r.run.ok ? "ok" : spmv_refused(&r.run) ? "refused" : "FAIL");
                    fflush(stdout);
                }
                arrput(rows, r);
            }
        }
        free(y);
        spmv_ref_free(&ref);
        lcl_coo_free(&A);
    }
    if (!o->json) {
        int shown = 0, within = 0;
        double logsum = 0, worst = 0;
        int worst_row = -1;
        printf("SpMV y = A x, %s precision: M nnz/s = nonzeros / median time of %ld products after one warm-up, every product "
               "checked against the tool's own serial double CSR product; seed %llu. auto: the format/kernel it chose, its speed "
               "over the best format measured.\n\n", prec_name(o->dtype), reps, (unsigned long long)o->seed);
        printf("| matrix | rows | cols | nnz | backend |");
        for (f = 0; f < nf; f++) printf(" %s |", lcl_format_name(fmts[f]));
        printf(" auto |\n|---|---:|---:|---:|---|");
        for (f = 0; f < nf; f++) printf("---:|");
        printf("---|\n");
        for (i = 0; i < (int)arrlen(rows); i += nf + 1) {
            const spmv_row *g = &rows[i], *a = &rows[i + nf];
            int best = -1;
            for (f = 0; f < nf; f++)
                if (g[f].run.ok && (best < 0 || spmv_mnnz(&g[f].run) > spmv_mnnz(&g[best].run))) best = f;
            printf("| %s | %lld | %lld | %lld | %s%s%s%s |", labels[g->mi], (long long)dims[g->mi].rows, (long long)dims[g->mi].cols,
                   (long long)dims[g->mi].nnz, lcl_backend_name(lcl_context_backend(ctxs[g->b])), devs[g->b][0] ? " (" : "", devs[g->b],
                   devs[g->b][0] ? ")" : "");
            for (f = 0; f <= nf; f++) {
                const spmv_row *r = &g[f];
                char cell[64];
                if (r->run.st == LCL_OK) mnnz_cell(cell, sizeof cell, spmv_mnnz(&r->run));
                if (f == nf) {
                    printf(" %s/%s", r->run.st == LCL_OK ? lcl_format_name(r->run.info.format) : "-",
                           r->run.st == LCL_OK ? lcl_spmv_kernel_name(r->run.info.kernel) : "-");
                    if (r->run.ok && best >= 0) {
                        printf(" %.2fx", r->ratio);
                        if (r->run.info.format == g[best].run.info.format) printf(" (best)");
                        else printf(" of %s", lcl_format_name(g[best].run.info.format));
                    }
                    if (r->note) printf(" [%d]", r->note);
                    printf(" |\n");
                } else if (r->run.ok) printf(f == best ? " **%s** |" : " %s |", cell);
                else if (r->run.st == LCL_OK) printf(" WRONG [%d] |", r->note);
                else printf(" - [%d] |", r->note);
            }
            if (a->run.ok && a->ratio > 0) {
                shown++;
                within += a->ratio >= 0.9;
                logsum += log(a->ratio);
                if (worst_row < 0 || a->ratio < worst) { worst = a->ratio; worst_row = i; }
            }
        }
        if (nnotes) printf("\n");
        for (i = 0; i < (int)arrlen(rows); i++) {   /* each footnote once, at its first row */
            const spmv_row *r = &rows[i];
            int k;
            for (k = 0; k < i && !(rows[k].note == r->note); k++) {}
            if (!r->note || k < i) continue;
            printf("[%d] ", r->note);
            if (strncmp(r->run.msg, lcl_format_name(r->want), strlen(lcl_format_name(r->want)))) printf("%s: ", lcl_format_name(r->want));
            if (r->run.st == LCL_OK) printf("wrong result on %s: rel_err %.2e above the bound\n", labels[r->mi], r->run.rel_err);
            else if (strcmp(r->run.msg, lcl_status_string(r->run.st))) printf("%s (%s)\n", r->run.msg, lcl_status_string(r->run.st));
            else printf("%s\n", r->run.msg);
        }
        if (shown) {
            const spmv_row *w = &rows[worst_row];
            printf("\nauto against the best format measured: within 10%% on %d of %d (matrix, backend) pairs, geometric mean %.2fx; "
                   "worst %.2fx (%s, %s: auto chose %s).\n", within, shown, exp(logsum / shown), worst, labels[w->mi],
                   lcl_backend_name(lcl_context_backend(ctxs[w->b])), lcl_format_name(w[nf].run.info.format));
        }
    }
    if (o->csv) {
        FILE *fo = fopen(o->csv, "w");
        if (!fo) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
        fprintf(fo, "matrix,rows,cols,nnz,backend,device,precision,reps,requested,format,kernel,seconds,mnnz_per_s,gflops,gbps,rel_err,"
                    "ratio_to_best,status,check,message\n");
        for (i = 0; i < (int)arrlen(rows); i++) {
            const spmv_row *r = &rows[i];
            int okst = r->run.st == LCL_OK;
            csv_field(fo, labels[r->mi]);
            fprintf(fo, ",%lld,%lld,%lld,%s,", (long long)dims[r->mi].rows, (long long)dims[r->mi].cols, (long long)dims[r->mi].nnz,
                    lcl_backend_name(lcl_context_backend(ctxs[r->b])));
            csv_field(fo, devs[r->b]);
            fprintf(fo, ",%s,%ld,%s,%s,%s,", prec_name(o->dtype), reps, lcl_format_name(r->want),
                    okst ? lcl_format_name(r->run.info.format) : "", okst ? lcl_spmv_kernel_name(r->run.info.kernel) : "");
            if (okst) fprintf(fo, "%.9g,%.6g,%.6g,%.6g,%.3g,", r->run.seconds, spmv_mnnz(&r->run), 2e-3 * spmv_mnnz(&r->run),
                              spmv_gbps(&r->run), r->run.rel_err);
            else fprintf(fo, ",,,,,");
            if (r->ratio > 0) fprintf(fo, "%.4f", r->ratio);
            fputc(',', fo);
            csv_field(fo, lcl_status_string(r->run.st));
            fprintf(fo, ",%s,", r->run.ok ? "ok" : spmv_refused(&r->run) ? "refused" : "FAIL");
            csv_field(fo, r->run.st == LCL_OK ? (r->want == LCL_FMT_AUTO ? r->run.info.reason : "") : r->run.msg);
            fputc('\n', fo);
        }
        if (fclose(fo) != 0) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
    }
    if (o->svg) {
        int ng = nf + 1 > 0 ? (int)arrlen(rows) / (nf + 1) : 0, okw;
        char **gl = (char **)calloc((size_t)ng + 1, sizeof(char *)), **sl = (char **)calloc((size_t)nf + 2, sizeof(char *));
        char (*gbuf)[200] = (char (*)[200])calloc((size_t)ng + 1, sizeof *gbuf);
        double *val = (double *)calloc((size_t)(ng * (nf + 1)) + 1, sizeof(double));
        char title[256];
        if (!gl || !sl || !gbuf || !val) okw = 0;
        else {
            for (i = 0; i < ng; i++) {
                const spmv_row *g = &rows[i * (nf + 1)];
                snprintf(gbuf[i], sizeof gbuf[i], "%s %s", labels[g->mi], lcl_backend_name(lcl_context_backend(ctxs[g->b])));
                gl[i] = gbuf[i];
                for (f = 0; f <= nf; f++) val[i * (nf + 1) + f] = g[f].run.ok ? spmv_mnnz(&g[f].run) : 0;
            }
            for (f = 0; f < nf; f++) sl[f] = (char *)lcl_format_name(fmts[f]);
            sl[nf] = (char *)"auto";
            snprintf(title, sizeof title, "SpMV, %s precision: M nnz/s per matrix, backend and format", prec_name(o->dtype));
            okw = write_svg_bars(o->svg, title, "M nnz/s", gl, ng, sl, nf + 1, val);
        }
        free(gl);
        free(sl);
        free(gbuf);
        free(val);
        if (!okw) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->svg, strerror(errno)); goto done; }
    }
    code = failures ? EXIT_NUMERIC : EXIT_OK;
done:
    arrfree(rows);
    for (i = 0; i < (int)arrlen(mats); i++) free(mats[i]);
    arrfree(mats);
    for (i = 0; i < (int)arrlen(labels); i++) free(labels[i]);
    arrfree(labels);
    arrfree(dims);
    for (b = 0; b < nb; b++) lcl_context_destroy(ctxs[b]);
    lcl_context_destroy(gctx);
    return code;
}

/* An option given to a command that does not take it (solve, bench and spmv have their own; bench
   dense and bench spmv are told apart in check_cmd), or NULL. */
static const char *misplaced_option(const char *cmd, const opts *o) {
    int solve = !strcmp(cmd, "solve"), bench = !strcmp(cmd, "bench"), spmv = !strcmp(cmd, "spmv");
    if (!solve && o->rhs) return "--rhs";
    if (!solve && o->method) return "--method";
    if (!solve && o->algorithm) return "--algorithm";
    if (!bench && o->op) return "--op";
    if (!bench && o->sizes) return "--sizes";
    if (!bench && o->algorithms) return "--algorithms";
    if (!bench && !spmv && o->reps) return "--reps";
    if (!bench && o->csv) return "--csv";
    if (!bench && o->svg) return "--svg";
    if (!bench && o->force) return "--force";
    if (!solve && !bench && o->block) return "--block";
    if (!solve && !bench && !spmv && o->split) return "--split";
    if (!bench && o->formats) return "--formats";
    if (!bench && o->backends) return "--backends";
    if (!spmv && o->format) return "--format";
    if (!spmv && o->kernel) return "--kernel";
    if (!spmv && o->x) return "--x";
    if (!spmv && o->trans) return "--trans";
    return NULL;
}

/* lcl tune: time the GEMM-bound device Cholesky with each candidate tile (through the
   LCL_TUNE_GEMM override) and print the lcl__tune_table row for the fastest. */
static int cmd_tune(const opts *o) {
    static const int cand[][5] = {{32, 32, 16, 8, 8}, {64, 64, 8, 16, 16}, {64, 64, 16, 16, 16}, {128, 64, 16, 16, 16},
                                  {64, 128, 8, 16, 8}, {128, 128, 8, 16, 16}, {128, 128, 16, 16, 16}, {128, 128, 8, 32, 8}};
    const int ncand = (int)(sizeof cand / sizeof cand[0]);
    lcl_context *ctx = NULL;
    lcl_device_info di;
    lcl_dense A;
    double best = 0, t[3];
    int c, bi = -1, r, n, code;
    size_t es = o->dtype == LCL_F32 ? sizeof(float) : sizeof(double);
    opts oc = *o;
    oc.backend = LCL_BACKEND_OPENCL;
    oc.backend_set = 1;
    if ((code = make_context(&oc, &ctx)) >= 0) return code;
    if (lcl_context_device(ctx, 0, &di) != LCL_OK) { lcl_context_destroy(ctx); return fail(EXIT_BACKEND, "no OpenCL device"); }
    lcl_context_destroy(ctx);
    n = di.type == LCL_DEVICE_GPU ? 4096 : 512;
    if (lcl_dense_alloc(NULL, &A, o->dtype, LCL_COL_MAJOR, n, n) != LCL_OK) return fail(EXIT_NUMERIC, "out of memory");
    for (r = 0; r < n; r++) {
        int j;
        for (j = 0; j < n; j++) lcl_dense_set(&A, r, j, r == j ? (double)n : (double)((r * 7 + j * 7) % 13) / 13.0 - 0.5);
    }
    if (!o->json) printf("tuning the GEMM tiles of \"%s\" (%s): device Cholesky, n = %d\n| TM | TN | TK | WX | WY | GF/s |\n|---:|---:|---:|---:|---:|---:|\n",
                         di.name, o->dtype == LCL_F32 ? "single" : "double", n);
    for (c = 0; c < ncand; c++) {
        char tile[64];
        lcl_dmat *M = NULL;
        int64_t info;
        lcl_status st = LCL_OK;
        const int *v = cand[c];
        /* what the device cannot hold is skipped, not silently replaced by the default */
        if ((size_t)(v[3] * v[4]) > di.max_work_group || (uint64_t)((v[0] + v[1]) * (v[2] + 1)) * es > di.local_mem) continue;
        snprintf(tile, sizeof tile, "%d,%d,%d,%d,%d", v[0], v[1], v[2], v[3], v[4]);
        setenv("LCL_TUNE_GEMM", tile, 1);
        if (make_context(&oc, &ctx) >= 0) { unsetenv("LCL_TUNE_GEMM"); lcl_dense_free(&A); return EXIT_BACKEND; }
        for (r = 0; r < 4 && st == LCL_OK; r++) {
            double t0;
            if ((st = lcl_dmat_upload(ctx, &A, &M)) != LCL_OK) break;
            t0 = now_s();
            st = lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, NULL);
            if (r) t[r - 1] = now_s() - t0;
            lcl_dmat_free(M);
            M = NULL;
        }
        if (st == LCL_OK) {
            double med, gf;
            if (t[0] > t[1]) { double x = t[0]; t[0] = t[1]; t[1] = x; }
            if (t[1] > t[2]) { double x = t[1]; t[1] = t[2]; t[2] = x; }
            if (t[0] > t[1]) { double x = t[0]; t[0] = t[1]; t[1] = x; }
            med = t[1];
            gf = (double)n * n * n / 3.0 / med / 1e9;
            if (gf > best) { best = gf; bi = c; }
            if (o->json) printf("{\"op\":\"tune\",\"device\":\"%s\",\"precision\":\"%s\",\"tile\":[%s],\"gflops\":%.3f}\n", di.name,
                                o->dtype == LCL_F32 ? "single" : "double", tile, gf);
            else printf("| %d | %d | %d | %d | %d | %.2f |\n", v[0], v[1], v[2], v[3], v[4], gf);
        } else
            fprintf(stderr, "lcl: tile %s: %s\n", tile, lcl_last_error(ctx));
        lcl_context_destroy(ctx);
        ctx = NULL;
    }
    unsetenv("LCL_TUNE_GEMM");
    lcl_dense_free(&A);
    if (bi < 0) return fail(EXIT_BACKEND, "no tile configuration ran on \"%s\"", di.name);
    if (!o->json)
        printf("\nfastest: %d,%d,%d,%d,%d at %.2f GF/s. Its row for lcl__tune_table in linalg_cl.h (%s slot):\n"
               "    {\"%s\", {{...}, {...}}},   /* %s: {%d, %d, %d, %d, %d} */\n",
               cand[bi][0], cand[bi][1], cand[bi][2], cand[bi][3], cand[bi][4], best, o->dtype == LCL_F32 ? "second, single" : "first, double",
               di.name, o->dtype == LCL_F32 ? "single" : "double", cand[bi][0], cand[bi][1], cand[bi][2], cand[bi][3], cand[bi][4]);
    return EXIT_OK;
}

/* The command word and its positional arguments, checked before anything runs (KIND specs are
   checked by the generator when it runs). -1 to go on, else the exit code. */
static int check_cmd(const char *cmd, const opts *o) {
    const char *mis = misplaced_option(cmd, o);
    if (mis && (!strcmp(cmd, "info") || !strcmp(cmd, "demo") || !strcmp(cmd, "gen") || !strcmp(cmd, "stat") ||
                !strcmp(cmd, "solve") || !strcmp(cmd, "bench") || !strcmp(cmd, "spmv")))
        return fail(EXIT_USAGE, "option %s does not apply to '%s' (lcl --help)", mis, cmd);
    if (o->split && o->backend_set && o->backend != LCL_BACKEND_OPENCL)
        return fail(EXIT_USAGE, "--split divides the work among OpenCL devices: it needs --backend opencl, not %s", lcl_backend_name(o->backend));
    if (!strcmp(cmd, "info") || !strcmp(cmd, "demo")) return -1;
    if (!strcmp(cmd, "tune")) {
        if (mis) return fail(EXIT_USAGE, "option %s does not apply to 'tune' (lcl --help)", mis);
        if (arrlen(o->pos)) return fail(EXIT_USAGE, "tune takes no arguments, only --device and --precision");
        return -1;
    }
    if (!strcmp(cmd, "solve")) {
        if (arrlen(o->pos) != 1)
            return fail(EXIT_USAGE, "solve needs exactly one MATRIX (a file or gen:KIND:ARGS), got %d", (int)arrlen(o->pos));
        if (!o->method) return fail(EXIT_USAGE, "solve needs --method lu|cholesky");
        if (o->algorithm && !alg_fits(method_parse(o->method), alg_parse(o->algorithm)))
            return fail(EXIT_USAGE, "--algorithm %s is for --method cholesky (lu: auto, blocked, unblocked, crout)", o->algorithm);
        return -1;
    }
    if (!strcmp(cmd, "spmv")) {
        if (arrlen(o->pos) != 1)
            return fail(EXIT_USAGE, "spmv needs exactly one MATRIX (a file or gen:KIND:ARGS), got %d", (int)arrlen(o->pos));
        return -1;
    }
    if (!strcmp(cmd, "bench")) {
        int algs[MAX_ALGS], na, k;
        if (arrlen(o->pos) >= 1 && !strcmp(o->pos[0], "spmv")) {
            const char *dense_only = o->op ? "--op" : o->sizes ? "--sizes" : o->algorithms ? "--algorithms" : o->block ? "--block"
                                     : o->force ? "--force" : o->split ? "--split" : NULL;
            if (dense_only) return fail(EXIT_USAGE, "option %s is for 'bench dense', not 'bench spmv' (lcl --help)", dense_only);
            if (o->backends && (o->backend_set || o->device))
                return fail(EXIT_USAGE, "bench spmv: give --backends or --backend/--device, not both");
            return -1;
        }
        if (arrlen(o->pos) != 1 || strcmp(o->pos[0], "dense"))
            return fail(EXIT_USAGE, "bench needs the suite 'dense' or 'spmv': lcl bench dense --op lu|cholesky [--sizes N,N,...] "
                        "| lcl bench spmv [MATRIX...]");
        if (o->formats || o->backends) return fail(EXIT_USAGE, "option %s is for 'bench spmv', not 'bench dense'", o->formats ? "--formats" : "--backends");
        if (!o->op) return fail(EXIT_USAGE, "bench dense needs --op lu|cholesky");
        na = o->algorithms ? parse_algs(o->algorithms, algs, MAX_ALGS) : 0;
        for (k = 0; k < na; k++)
            if (!alg_fits(method_parse(o->op), algs[k]))
                return fail(EXIT_USAGE, "--algorithms: %s is for --op cholesky (lu: auto, blocked, unblocked, crout)", alg_names[algs[k]]);
        return -1;
    }
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
        else if (!strcmp(cmd, "solve")) code = cmd_solve(&o);
        else if (!strcmp(cmd, "bench")) code = !strcmp(o.pos[0], "spmv") ? cmd_bench_spmv(&o) : cmd_bench(&o);
        else if (!strcmp(cmd, "spmv")) code = cmd_spmv(&o);
        else if (!strcmp(cmd, "tune")) code = cmd_tune(&o);
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
