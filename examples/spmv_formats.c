/* spmv_formats.c -- y = A x in every storage format: a 5x5 example matrix, then a
   2-D Poisson matrix (about 50 000 rows) timed in each format on every backend this machine has
   (serial, openmp, opencl when a device exists).
   build/spmv_formats: prints y for each format and M nnz/s per format and backend; exits 1 when a
   product is wrong or fails (a format that refuses a matrix, LCL_ERR_FILL, one a device cannot
   hold, LCL_ERR_UNSUPPORTED, and a missing backend are reported, not failures). */
#define _POSIX_C_SOURCE 200809L     /* clock_gettime */
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

static int failures;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Part 1: a 5x5 example matrix, as COO triplets (0-based), in every format. */
static void small_example(lcl_context *ctx) {
    static const int32_t row[10] = {0, 0, 1, 1, 2, 3, 3, 4, 4, 4};
    static const int32_t col[10] = {2, 3, 0, 3, 2, 1, 3, 0, 2, 4};
    static const double val[10] = {3, 1, 2, 4, 2, 3, 1, 4, 2, 3};
    static const double x[5] = {1, 2, 3, 4, 5};
    static const double want[5] = {13, 18, 6, 10, 25};   /* worked by hand from the rows above */
    lcl_coo A;
    int f, k;
    if (lcl_coo_alloc(ctx, &A, LCL_F64, 5, 5, 10) != LCL_OK) { printf("  %s\n", lcl_last_error(ctx)); failures++; return; }
    for (k = 0; k < 10; k++) lcl_coo_push(ctx, &A, row[k], col[k], val[k]);
    for (f = 1; f < LCL_FMT_COUNT_; f++) {      /* every format but auto */
        lcl_spmat_opts o;
        lcl_spmat_info info;
        lcl_spmat *M = NULL;
        double y[5] = {-1, -1, -1, -1, -1};
        lcl_status st;
        int ok = 1, i;
        memset(&o, 0, sizeof o);
        o.format = (lcl_format)f;
        o.block_r = o.block_c = 2;  /* BCSR: 2 x 2 blocks suit a 5 x 5 matrix (the default 4 x 4 would be mostly padding) */
        o.max_fill = 20;            /* a tiny matrix: let the padded formats pad (SELL slices, aligned ELL columns) */
        st = lcl_spmat_from_coo(ctx, &A, &o, &M);
        if (st == LCL_OK) st = lcl_spmv(ctx, LCL_NO_TRANS, 1.0, M, x, 0.0, y);
        if (st == LCL_OK) st = lcl_spmat_describe(M, &info);
        if (st != LCL_OK) {
            printf("    %-6s %s\n", lcl_format_name((lcl_format)f), lcl_last_error(ctx));
            failures += st != LCL_ERR_NO_FP64 && st != LCL_ERR_UNSUPPORTED;   /* no fp64, a device limit */
            lcl_spmat_free(M);
            continue;
        }
        for (i = 0; i < 5; i++) ok &= y[i] == want[i];
        printf("    %-6s y = [%g %g %g %g %g]  %2lld slots stored  %s\n", lcl_format_name((lcl_format)f), y[0], y[1], y[2], y[3], y[4],
               (long long)info.stored, ok ? "ok" : "WRONG");
        if (!ok) failures++;
        lcl_spmat_free(M);
    }
    lcl_coo_free(&A);
}

/* Part 2: the 5-point Laplacian on an m x m grid, built straight into CSR (columns sorted). */
static int poisson2d(int m, lcl_csr *A) {
    int64_t n = (int64_t)m * m, i, k = 0;
    double *v;
    A->dtype = LCL_F64;
    A->rows = A->cols = n;
    A->ptr = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    A->col = (int32_t *)malloc((size_t)(5 * n) * sizeof(int32_t));
    A->val = v = (double *)malloc((size_t)(5 * n) * sizeof(double));
    if (!A->ptr || !A->col || !v) return 0;
    for (i = 0; i < n; i++) {
        int64_t r = i / m, c = i % m;
        A->ptr[i] = k;
        if (r > 0) { A->col[k] = (int32_t)(i - m); v[k++] = -1; }
        if (c > 0) { A->col[k] = (int32_t)(i - 1); v[k++] = -1; }
        A->col[k] = (int32_t)i;
        v[k++] = 4;
        if (c < m - 1) { A->col[k] = (int32_t)(i + 1); v[k++] = -1; }
        if (r < m - 1) { A->col[k] = (int32_t)(i + m); v[k++] = -1; }
    }
    A->ptr[n] = A->nnz = k;
    return 1;
}

/* each format of A on ctx: one warm-up and `reps` timed products, each checked against yref */
static void time_formats(lcl_context *ctx, const lcl_csr *A, const double *x, const double *yref) {
    enum { REPS = 30 };
    double *y = (double *)malloc((size_t)A->rows * sizeof(double)), t[REPS];
    int f;
    if (!y) { failures++; return; }
    for (f = 0; f < LCL_FMT_COUNT_; f++) {
        lcl_spmat_opts o;
        lcl_spmat_info info;
        lcl_spmat *M = NULL;
        lcl_status st;
        double err = 0;
        int r;
        int64_t i;
        memset(&o, 0, sizeof o);
        o.format = (lcl_format)((f + 1) % LCL_FMT_COUNT_);     /* the formats, then auto */
        st = lcl_spmat_create(ctx, A, &o, &M);
        if (st == LCL_OK) st = lcl_spmat_describe(M, &info);
        for (r = -1; r < REPS && st == LCL_OK; r++) {
            double t0;
            for (i = 0; i < A->rows; i++) y[i] = NAN;     /* beta = 0: y is only written */
            t0 = now();
            st = lcl_spmv(ctx, LCL_NO_TRANS, 1.0, M, x, 0.0, y);
            if (r >= 0) t[r] = now() - t0;
            for (i = 0; i < A->rows && st == LCL_OK; i++)
                if (!(fabs(y[i] - yref[i]) <= err)) err = fabs(y[i] - yref[i]);   /* NaN wins */
        }
        printf("    %-6s", lcl_format_name(o.format));
        if (st == LCL_ERR_FILL || st == LCL_ERR_NO_FP64 || st == LCL_ERR_UNSUPPORTED) printf(" refused: %s\n", lcl_last_error(ctx));
        else if (st != LCL_OK) { printf(" FAILED: %s\n", lcl_last_error(ctx)); failures++; }
        else {
            qsort(t, REPS, sizeof t[0], cmp_d);
            printf(" %8.1f M nnz/s  (%s/%s, max error %.1e)%s", (double)A->nnz / t[REPS / 2] * 1e-6, lcl_format_name(info.format),
                   lcl_spmv_kernel_name(info.kernel), err, err <= 1e-13 ? "" : "  WRONG");
            if (o.format == LCL_FMT_AUTO) printf("\n           auto: %s", info.reason);
            printf("\n");
            if (!(err <= 1e-13)) failures++;
        }
        lcl_spmat_free(M);
    }
    free(y);
}

/* a context on backend b, or NULL when this build or machine has none (then it says why) */
static lcl_context *open_backend(lcl_backend b) {
    lcl_context_desc d;
    lcl_context *ctx = NULL;
    if (!lcl_backend_compiled(b)) return NULL;
    memset(&d, 0, sizeof d);
    d.backend = b;
    if (lcl_context_create(&d, &ctx) != LCL_OK) {
        printf("  %s: skipped (%s)\n", lcl_backend_name(b), lcl_last_error(ctx));
        lcl_context_destroy(ctx);
        return NULL;
    }
    return ctx;
}

int main(void) {
    static const lcl_backend backends[3] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP, LCL_BACKEND_OPENCL};
    lcl_csr P;
    double *x, *yref;
    int b, m = 224;             /* 224^2 = 50176 rows, 250 000 nonzeros */
    int64_t i, k;
    printf("A 5x5 example matrix, x = (1, 2, 3, 4, 5); y should be [13 18 6 10 25]:\n");
    for (b = 0; b < 3; b++) {
        lcl_context *ctx = open_backend(backends[b]);
        if (!ctx) continue;
        printf("  %s:\n", lcl_backend_name(backends[b]));
        small_example(ctx);
        lcl_context_destroy(ctx);
    }

    memset(&P, 0, sizeof P);
    x = (double *)malloc((size_t)m * m * sizeof(double));
    yref = (double *)malloc((size_t)m * m * sizeof(double));
    if (!x || !yref || !poisson2d(m, &P)) { printf("out of memory\n"); return 1; }
    for (i = 0; i < P.rows; i++) x[i] = sin(0.001 * (double)i) + 1.5;
    for (i = 0; i < P.rows; i++) {     /* the reference, row by row */
        double s = 0;
        for (k = P.ptr[i]; k < P.ptr[i + 1]; k++) s += ((double *)P.val)[k] * x[P.col[k]];
        yref[i] = s;
    }
    printf("\n2-D Poisson, %d x %d grid: %lld rows, %lld nonzeros; M nnz/s, median of 30 products (host x and y)\n", m, m,
           (long long)P.rows, (long long)P.nnz);
    for (b = 0; b < 3; b++) {
        lcl_context *ctx = open_backend(backends[b]);
        if (!ctx) continue;
        if (backends[b] == LCL_BACKEND_OPENCL) {
            lcl_device_info di;
            if (lcl_context_device(ctx, 0, &di) == LCL_OK) printf("  opencl on %s:\n", di.name);
        } else printf("  %s:\n", lcl_backend_name(backends[b]));
        time_formats(ctx, &P, x, yref);
        lcl_context_destroy(ctx);
    }
    free(P.ptr);
    free(P.col);
    free(P.val);
    free(x);
    free(yref);
    printf("\n%s\n", failures ? "SOME PRODUCTS FAILED" : "all products ok");
    return failures ? 1 : 0;
}
