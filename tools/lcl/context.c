/* context.c -- how every command reports errors and opens its context: exit codes from library
   statuses, "lcl: error: ..." lines, contexts from --backend / --device / --split, device names. */
#include "lcl.h"
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

int quiet_errors;

int exit_code(lcl_status st) {
    switch (st) {
    case LCL_OK: return EXIT_OK;
    case LCL_ERR_BACKEND_UNAVAILABLE: case LCL_ERR_NO_FP64: case LCL_ERR_OPENCL: case LCL_ERR_BUILD:
    case LCL_ERR_DEVICE_MEMORY: return EXIT_BACKEND;
    case LCL_ERR_SINGULAR: case LCL_ERR_NOT_SPD: case LCL_ERR_OUT_OF_MEMORY: case LCL_ERR_INTERNAL: return EXIT_NUMERIC;
    default: return EXIT_USAGE;
    }
}

static int fits(const char *src, double v, int64_t i, int64_t j) {
    if (!(fabs(v) > FLT_MAX) || v - v != 0) return -1;   /* Inf and NaN: the library's own error */
    return fail(EXIT_USAGE, "%s: entry (%lld,%lld) = %g exceeds single precision range (%g): use --precision double", src,
                (long long)i + 1, (long long)j + 1, v, (double)FLT_MAX);
}
int fits_coo(const char *src, lcl_dtype dt, const lcl_coo *A) {
    int64_t k;
    int code = -1;
    if (dt != LCL_F32 || A->dtype != LCL_F64) return -1;
    for (k = 0; k < A->nnz && code < 0; k++) code = fits(src, ((const double *)A->val)[k], A->row[k], A->col[k]);
    return code;
}
int fits_dense(const char *src, lcl_dtype dt, const lcl_dense *A) {
    int64_t i, j;
    int code = -1;
    if (dt != LCL_F32 || A->dtype != LCL_F64) return -1;
    for (j = 0; j < A->cols && code < 0; j++)
        for (i = 0; i < A->rows && code < 0; i++) code = fits(src, lcl_dense_get(A, i, j), i, j);
    return code;
}

int fail(int code, const char *fmt, ...) {
    va_list ap;
    if (quiet_errors) return code;
    fputs("lcl: error: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return code;
}

/* solve: a residual above --max-residual (default the square root of the precision's epsilon), or
   not a number, means the solution is not to be trusted whatever the library returned (a backward
   stable solve stays near epsilon), so the exit code says so; the report above still shows it */
int residual_exit(const opts *o, double residual) {
    double lim = o->max_residual > 0 ? o->max_residual : sqrt(o->dtype == LCL_F32 ? (double)FLT_EPSILON : DBL_EPSILON);
    if (residual <= lim) return -1;
    return fail(EXIT_NUMERIC, "the residual %.3e is above %.3g (%s): the solution is inaccurate", residual, lim,
                o->max_residual > 0 ? "--max-residual" : "the square root of the precision's epsilon; --max-residual sets the limit");
}

void log_stderr(void *user, lcl_log_level level, const char *msg) {
    (void)user;
    if (level <= LCL_LOG_WARN) fprintf(stderr, "lcl: %s\n", msg);
}

int make_context(const opts *o, lcl_context **ctx) {
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

/* --split: the context must hold several devices (-1 would otherwise just mean device 0) */
int split_check(lcl_context *ctx) {
    int nd = lcl_context_num_devices(ctx);
    if (nd >= 2) return -1;
    return fail(EXIT_BACKEND, "--split needs at least two OpenCL devices in the context (--device all, gpu, or a list such as 0,1); "
                "this one has %d", nd);
}

/* an auto context on CPU OpenCL devices factors on the CPU backends: "cpu" then */
void dense_device_name(lcl_context *ctx, int split, char *buf, size_t cap) {
    lcl_device_info di;
    if (lcl_dense_backend(ctx) != LCL_BACKEND_OPENCL || lcl_context_device(ctx, 0, &di) != LCL_OK) snprintf(buf, cap, "cpu");
    else if (split) snprintf(buf, cap, "%d devices, split", lcl_context_num_devices(ctx));
    else snprintf(buf, cap, "%s", di.name);
}

void spmv_device_name(lcl_context *ctx, char *buf, size_t cap) {
    lcl_device_info di;
    buf[0] = 0;
    if (lcl_context_backend(ctx) == LCL_BACKEND_OPENCL && lcl_context_device(ctx, 0, &di) == LCL_OK) snprintf(buf, cap, "%s", di.name);
}

const char *device_type_name(lcl_device_type t) {
    return t == LCL_DEVICE_GPU ? "gpu" : t == LCL_DEVICE_CPU ? "cpu" : t == LCL_DEVICE_ACCELERATOR ? "accelerator" : "other";
}

const char *prec_name(lcl_dtype dt) { return dt == LCL_F64 ? "double" : "single"; }
