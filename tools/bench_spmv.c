/* bench_spmv.c -- the OpenMP CSR SpMV of linalg_cl against the machine's copy bandwidth, measured
   in the same process: SpMV is memory-bound, so its limit is the bytes one product moves (values,
   indices, row pointers, x, y: lcl_spmat_describe().bytes) over what a plain copy loop achieves.
   Bar: SpMV GB/s >= 0.7 x copy GB/s.

   make bench-spmv       (OMP_NUM_THREADS=2)
   build/bench_spmv [--threads T] [--runs N] [--copy-mib M] [SPEC...]
       default SPECs: poisson3d:100 powerlaw:2000000:16 (tools/lcl_gen.h), each in double and single

   Copy: b[i] = a[i] over two arrays of M MiB (default 256, far beyond the caches) with T threads
   (default 2), first-touched by the same threads, one warm-up then the median of 9, counted as
   2 x M MiB moved (STREAM's convention: no write-allocate traffic), measured again just before
   each SpMV row so drift hits both alike. SpMV: lcl_spmat in CSR (kernel auto) on the OpenMP
   backend with T threads, one warm-up then the median of N products (default 20), y poisoned with
   NaN before each and checked against a serial double product written here. Then the same for
   format auto, to show what it chooses and what that costs. */
#define _POSIX_C_SOURCE 200809L
#define LINALG_CL_IMPLEMENTATION
#define LINALG_CL_NO_OPENCL
#include "../linalg_cl.h"
#include "lcl_gen.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <float.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}
static double median(double *t, int n) {
    qsort(t, (size_t)n, sizeof *t, cmp_d);
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}

/* STREAM-like copy: GB/s, or -1 when the copy came out wrong */
static double copy_gbps(double *a, double *b, long n, int threads) {
    double t[9];
    int r;
    long i, bad = 0;
    for (r = -1; r < 9; r++) {
        double t0 = now();
#pragma omp parallel for num_threads(threads) schedule(static)
        for (i = 0; i < n; i++) b[i] = a[i];
        if (r >= 0) t[r] = now() - t0;
    }
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : bad)
    for (i = 0; i < n; i++) bad += b[i] != a[i];
    return bad ? -1 : 2.0 * (double)n * sizeof(double) / median(t, 9) * 1e-9;
}

typedef struct result {
    lcl_status st;
    lcl_spmat_info info;
    double seconds, rel_err;
} result;

/* one warm-up and runs products of A (format f) on ctx, each checked against yref */
static result measure(lcl_context *ctx, const lcl_coo *A, lcl_format f, const void *x, const double *yref, double scale, int runs) {
    result res;
    lcl_spmat *M = NULL;
    lcl_spmat_opts so;
    size_t es = A->dtype == LCL_F64 ? sizeof(double) : sizeof(float);
    void *y = malloc((size_t)(A->rows + 1) * es);
    double *t = (double *)malloc((size_t)runs * sizeof *t);
    int r;
    memset(&res, 0, sizeof res);
    memset(&so, 0, sizeof so);
    so.format = f;
    if (!y || !t) { res.st = LCL_ERR_OUT_OF_MEMORY; goto done; }
    if ((res.st = lcl_spmat_from_coo(ctx, A, &so, &M)) != LCL_OK || (res.st = lcl_spmat_describe(M, &res.info)) != LCL_OK) goto done;
    for (r = -1; r < runs; r++) {
        double t0, d = 0;
        int64_t i;
        memset(y, 0xff, (size_t)A->rows * es);     /* NaN: beta = 0 must not read y */
        t0 = now();
        if ((res.st = lcl_spmv(ctx, LCL_NO_TRANS, 1.0, M, x, 0.0, y)) != LCL_OK) goto done;
        if (r >= 0) t[r] = now() - t0;
        for (i = 0; i < A->rows; i++) {
            double v = A->dtype == LCL_F64 ? ((double *)y)[i] : (double)((float *)y)[i], e = fabs(v - yref[i]);
            if (!(e <= d)) d = e;                  /* NaN wins */
        }
        d = scale > 0 ? d / scale : d;
        if (!(d <= res.rel_err)) res.rel_err = d;
    }
    res.seconds = median(t, runs);
done:
    if (res.st != LCL_OK) fprintf(stderr, "bench_spmv: %s: %s\n", lcl_format_name(f), lcl_last_error(ctx));
    lcl_spmat_free(M);
    free(y);
    free(t);
    return res;
}

int main(int argc, char **argv) {
    static const char *const defaults[2] = {"poisson3d:100", "powerlaw:2000000:16"};
    const char *specs[16];
    int nspecs = 0, threads = 2, runs = 20, ai, s, p, fails = 0, misses = 0;
    long copy_mib = 256, n;
    double *a, *b;
    lcl_context *ctx = NULL;
    lcl_context_desc desc;
    for (ai = 1; ai < argc; ai++) {
        if (!strcmp(argv[ai], "--threads") && ai + 1 < argc) threads = atoi(argv[++ai]);
        else if (!strcmp(argv[ai], "--runs") && ai + 1 < argc) runs = atoi(argv[++ai]);
        else if (!strcmp(argv[ai], "--copy-mib") && ai + 1 < argc) copy_mib = atol(argv[++ai]);
        else if (argv[ai][0] != '-' && nspecs < 16) specs[nspecs++] = argv[ai];
        else {
            fprintf(stderr, "usage: %s [--threads T] [--runs N] [--copy-mib M] [SPEC...]  (SPEC as in lcl gen, e.g. poisson3d:100)\n", argv[0]);
            return 2;
        }
    }
    if (threads < 1 || runs < 1 || copy_mib < 1) { fprintf(stderr, "bench_spmv: --threads, --runs and --copy-mib must be positive\n"); return 2; }
    if (!nspecs) for (s = 0; s < 2; s++) specs[nspecs++] = defaults[s];
    n = copy_mib * 1048576L / (long)sizeof(double);
    a = (double *)malloc((size_t)n * sizeof(double));
    b = (double *)malloc((size_t)n * sizeof(double));
    if (!a || !b) { fprintf(stderr, "bench_spmv: out of memory (copy arrays)\n"); return 1; }
    {
        long i;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (i = 0; i < n; i++) { a[i] = (double)(i % 1000) * 0.5; b[i] = 0; }
    }
    memset(&desc, 0, sizeof desc);
    desc.backend = LCL_BACKEND_OPENMP;
    desc.num_threads = threads;
    if (lcl_context_create(&desc, &ctx) != LCL_OK) { fprintf(stderr, "bench_spmv: %s\n", lcl_last_error(ctx)); return 3; }
    printf("# lcl CSR SpMV (OpenMP, %d threads) vs a %d-thread copy loop (2 x %ld MiB, median of 9) measured just before each row;\n"
           "# SpMV: median of %d products after a warm-up, GB/s = lcl_spmat_describe().bytes / time; bar: ratio >= 0.7\n",
           threads, threads, copy_mib, runs);
    printf("%-22s %-6s %-6s %-14s %10s %10s %10s %8s %8s %7s %-6s %9s\n", "matrix", "prec", "asked", "format/kernel", "nnz", "median_s",
           "spmv_GB/s", "copy_GB/s", "ratio", "GF/s", "bar", "rel_err");
    for (s = 0; s < nspecs; s++) {
        lcl_coo A64;
        char err[1024] = "";
        double *x0, *yref, scale = 0;
        int64_t i, k, maxrow = 0;
        double t0 = now();
        if (lclg_gen_coo(ctx, specs[s], 1, LCL_F64, &A64, err, sizeof err) != LCL_OK) {
            fprintf(stderr, "bench_spmv: %s: %s\n", specs[s], err);
            fails++;
            continue;
        }
        fprintf(stderr, "bench_spmv: %s: %lld x %lld, %lld nonzeros (generated in %.1f s)\n", specs[s], (long long)A64.rows,
                (long long)A64.cols, (long long)A64.nnz, now() - t0);
        x0 = (double *)malloc((size_t)(A64.cols + 1) * sizeof(double));
        yref = (double *)malloc((size_t)(A64.rows + 1) * sizeof(double));
        if (!x0 || !yref) { fprintf(stderr, "bench_spmv: out of memory\n"); return 1; }
        for (i = 0; i < A64.cols; i++) x0[i] = (double)((i * 7919) % 2001) / 1000.0 - 1.0;
        for (p = 0; p < 2; p++) {
            lcl_coo A32, *A = &A64;
            void *x = p ? malloc((size_t)(A64.cols + 1) * sizeof(float)) : (void *)x0;
            int which;
            memset(&A32, 0, sizeof A32);
            if (!x) { fprintf(stderr, "bench_spmv: out of memory\n"); return 1; }
            if (p) {
                if (lcl_coo_copy(ctx, &A64, LCL_F32, &A32) != LCL_OK) { fprintf(stderr, "bench_spmv: %s\n", lcl_last_error(ctx)); return 1; }
                A = &A32;
                for (i = 0; i < A64.cols; i++) ((float *)x)[i] = (float)x0[i];
            }
            /* the reference, from the values and x the library sees, accumulated in long double */
            scale = 0;
            maxrow = 0;
            {
                long double *acc = (long double *)calloc((size_t)(A->rows + 1), sizeof(long double));
                double *absrow = (double *)calloc((size_t)(A->rows + 1), sizeof(double));
                int64_t *len = (int64_t *)calloc((size_t)(A->rows + 1), sizeof(int64_t));
                if (!acc || !absrow || !len) { fprintf(stderr, "bench_spmv: out of memory\n"); return 1; }
                for (k = 0; k < A->nnz; k++) {
                    double v = p ? (double)((float *)A->val)[k] : ((double *)A->val)[k];
                    double xv = p ? (double)((float *)x)[A->col[k]] : x0[A->col[k]];
                    acc[A->row[k]] += (long double)v * xv;
                    absrow[A->row[k]] += fabs(v * xv);
                    len[A->row[k]]++;
                }
                for (i = 0; i < A->rows; i++) {
                    yref[i] = (double)acc[i];
                    if (absrow[i] > scale) scale = absrow[i];
                    if (len[i] > maxrow) maxrow = len[i];
                }
                free(acc);
                free(absrow);
                free(len);
            }
            for (which = 0; which < 2; which++) {
                lcl_format f = which ? LCL_FMT_AUTO : LCL_FMT_CSR;
                double cbw = copy_gbps(a, b, n, threads), tol = (double)(maxrow + 2) * (p ? FLT_EPSILON : DBL_EPSILON);
                result r = measure(ctx, A, f, x, yref, scale, runs);
                char fk[64];
                int ok = r.st == LCL_OK && r.rel_err <= tol && cbw > 0;
                double gbps = ok ? r.info.bytes / r.seconds * 1e-9 : 0, ratio = ok ? gbps / cbw : 0;
                if (!ok) fails++;
                else if (ratio < 0.7) misses++;
                snprintf(fk, sizeof fk, "%s/%s", lcl_format_name(r.info.format), lcl_spmv_kernel_name(r.info.kernel));
                printf("%-22s %-6s %-6s %-14s %10lld %10.6f %10.2f %9.2f %8.3f %7.2f %-6s %9.1e\n", specs[s], p ? "single" : "double",
                       lcl_format_name(f), r.st == LCL_OK ? fk : "-", (long long)A->nnz, r.seconds, gbps, cbw, ratio,
                       ok ? 2.0 * (double)A->nnz / r.seconds * 1e-9 : 0.0, !ok ? "FAIL" : ratio >= 0.7 ? "ok" : "missed", r.rel_err);
                if (which && r.st == LCL_OK && r.info.reason[0]) printf("#   auto: %s\n", r.info.reason);
                fflush(stdout);
            }
            if (p) { free(x); lcl_coo_free(&A32); }
        }
        free(x0);
        free(yref);
        lcl_coo_free(&A64);
    }
    printf("# %s: %d row(s) below the 0.7 bar, %d failed\n", fails ? "FAIL" : misses ? "bar missed" : "bar met", misses, fails);
    lcl_context_destroy(ctx);
    free(a);
    free(b);
    return fails ? 1 : 0;
}
