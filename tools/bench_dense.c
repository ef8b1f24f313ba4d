/* bench_dense.c -- lcl_getrf / lcl_potrf (double, column-major, OpenMP backend) against OpenBLAS's
   LAPACKE_dgetrf / LAPACKE_dpotrf, in one process on the same inputs.

   make bench-dense      (sets OPENBLAS_NUM_THREADS=2 OMP_NUM_THREADS=2)
   build/bench_dense [--sizes 1024,2048,4096] [--runs N] [--threads T] [--uplo L|U] [--only lu|chol]

   Inputs: diagonally dominant random (LU), random symmetric + n*I (Cholesky). Each timed run starts
   from a fresh copy of the input and poisoned pivots; its result is checked by solving A x = b with
   the factors (an O(n^2) check written here, the same for both libraries). Reported: median of the
   runs after one warm-up, GF/s with 2/3 n^3 (getrf) and 1/3 n^3 (potrf) flops, and lcl / OpenBLAS. */
#define _POSIX_C_SOURCE 200809L
#define LINALG_CL_IMPLEMENTATION
#define LINALG_CL_NO_OPENCL
#include "../linalg_cl.h"
#include <lapacke.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static void pause_ms(int ms) {  /* let the other library's spinning threads go to sleep */
    struct timespec t;
    t.tv_sec = ms / 1000;
    t.tv_nsec = (long)(ms % 1000) * 1000000L;
    nanosleep(&t, NULL);
}
static uint64_t rng = 88172645463325252ULL;
static double urand(void) {     /* xorshift64, uniform in [-0.5, 0.5) */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 - 0.5;
}
static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Solve with the factors and return ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf). */
static double check(int chol, int upper, int n, const double *A, const double *F, const int *ipiv) {
    double *x = (double *)malloc(sizeof(double) * (size_t)n), *b = (double *)malloc(sizeof(double) * (size_t)n);
    double rmax = 0, anorm = 0, xmax = 0, bmax = 0;
    int i, j;
    for (i = 0; i < n; i++) b[i] = urand();
    memcpy(x, b, sizeof(double) * (size_t)n);
    if (!chol) {
        for (i = 0; i < n; i++) { double t = x[i]; x[i] = x[ipiv[i]]; x[ipiv[i]] = t; }
        for (j = 0; j < n; j++) for (i = j + 1; i < n; i++) x[i] -= F[i + (size_t)j * n] * x[j];
        for (j = n - 1; j >= 0; j--) { x[j] /= F[j + (size_t)j * n]; for (i = 0; i < j; i++) x[i] -= F[i + (size_t)j * n] * x[j]; }
    } else if (!upper) {
        for (j = 0; j < n; j++) { x[j] /= F[j + (size_t)j * n]; for (i = j + 1; i < n; i++) x[i] -= F[i + (size_t)j * n] * x[j]; }
        for (i = n - 1; i >= 0; i--) { double s = x[i]; for (j = i + 1; j < n; j++) s -= F[j + (size_t)i * n] * x[j]; x[i] = s / F[i + (size_t)i * n]; }
    } else {
        for (i = 0; i < n; i++) { double s = x[i]; for (j = 0; j < i; j++) s -= F[j + (size_t)i * n] * x[j]; x[i] = s / F[i + (size_t)i * n]; }
        for (j = n - 1; j >= 0; j--) { x[j] /= F[j + (size_t)j * n]; for (i = 0; i < j; i++) x[i] -= F[i + (size_t)j * n] * x[j]; }
    }
    for (i = 0; i < n; i++) {
        double r = b[i], a = 0;
        for (j = 0; j < n; j++) {
            double v = chol ? A[(upper ? i <= j : i >= j) ? i + (size_t)j * n : j + (size_t)i * n] : A[i + (size_t)j * n];
            r -= v * x[j];
            a += fabs(v);
        }
        if (fabs(r) > rmax) rmax = fabs(r);
        if (a > anorm) anorm = a;
        if (fabs(x[i]) > xmax) xmax = fabs(x[i]);
        if (fabs(b[i]) > bmax) bmax = fabs(b[i]);
    }
    free(x);
    free(b);
    return rmax / (anorm * xmax + bmax);
}

int main(int argc, char **argv) {
    int sizes[16] = {1024, 2048, 4096}, nsizes = 3, runs = 0, threads = 2, upper = 0, only = 0, s, ai;
    lcl_context *ctx = NULL;
    lcl_context_desc desc;
    int fails = 0;
    for (ai = 1; ai < argc; ai++) {
        if (!strcmp(argv[ai], "--sizes") && ai + 1 < argc) {
            char *p = argv[++ai];
            nsizes = 0;
            while (*p && nsizes < 16) { sizes[nsizes++] = (int)strtol(p, &p, 10); if (*p == ',') p++; }
        } else if (!strcmp(argv[ai], "--runs") && ai + 1 < argc) runs = atoi(argv[++ai]);
        else if (!strcmp(argv[ai], "--threads") && ai + 1 < argc) threads = atoi(argv[++ai]);
        else if (!strcmp(argv[ai], "--uplo") && ai + 1 < argc) upper = argv[++ai][0] == 'U' || argv[ai][0] == 'u';
        else if (!strcmp(argv[ai], "--only") && ai + 1 < argc) { ai++; only = !strcmp(argv[ai], "lu") ? 1 : !strcmp(argv[ai], "chol") ? 2 : 0; }
        else { fprintf(stderr, "usage: %s [--sizes 1024,2048,4096] [--runs N] [--threads T] [--uplo L|U] [--only lu|chol]\n", argv[0]); return 2; }
    }
    memset(&desc, 0, sizeof desc);
    desc.backend = LCL_BACKEND_OPENMP;
    desc.num_threads = threads;
    if (lcl_context_create(&desc, &ctx) != LCL_OK) { fprintf(stderr, "context: %s\n", lcl_last_error(ctx)); return 3; }
    printf("# lcl (OpenMP, %d threads) vs OpenBLAS LAPACKE (OPENBLAS_NUM_THREADS=%s); double, column-major; median of runs\n", threads,
           getenv("OPENBLAS_NUM_THREADS") ? getenv("OPENBLAS_NUM_THREADS") : "unset");
    printf("%-6s %6s %5s %10s %10s %10s %7s %10s %10s\n", "op", "n", "runs", "lcl_s", "lcl_GF/s", "oblas_GF/s", "ratio", "lcl_resid", "ob_resid");
    for (s = 0; s < nsizes; s++) {
        int n = sizes[s], op, nr = runs > 0 ? runs : (n <= 2048 ? 7 : 3), r, i, j;
        size_t nn = (size_t)n * (size_t)n;
        double *A = (double *)malloc(nn * sizeof(double)), *W = (double *)malloc(nn * sizeof(double));
        int32_t *ipiv = (int32_t *)malloc((size_t)n * sizeof(int32_t));
        lapack_int *lp = (lapack_int *)malloc((size_t)n * sizeof(lapack_int));
        int *piv = (int *)malloc((size_t)n * sizeof(int));
        for (op = 0; op < 2; op++) {
            double t[2][64], res[2] = {0, 0}, med[2], flops = op == 0 ? 2.0 / 3.0 * n * (double)n * n : 1.0 / 3.0 * n * (double)n * n;
            int lib;
            if ((only == 1 && op == 1) || (only == 2 && op == 0)) continue;
            for (j = 0; j < n; j++)
                for (i = 0; i < n; i++) A[i + (size_t)j * n] = urand();
            if (op == 1)
                for (j = 0; j < n; j++)
                    for (i = 0; i < j; i++) A[j + (size_t)i * n] = A[i + (size_t)j * n];
            for (i = 0; i < n; i++) A[i + (size_t)i * n] += n;
            /* the libraries alternate run by run (ABBA...), so drift and other load hit both alike */
            for (r = -1; r < nr; r++) {   /* r = -1: warm-up of each */
                int q;
                for (q = 0; q < 2; q++) {
                    double t0, t1, rr;
                    int ok = 1;
                    lib = (r & 1) ? 1 - q : q;
                    pause_ms(100);
                    memcpy(W, A, nn * sizeof(double));
                    for (i = 0; i < n; i++) { ipiv[i] = -1; lp[i] = -1; }
                    if (lib == 0) {
                        lcl_dense M;
                        int64_t info = 0;
                        lcl_dense_wrap(ctx, &M, LCL_F64, LCL_COL_MAJOR, n, n, n, W);
                        t0 = now();
                        ok = (op == 0 ? lcl_getrf(ctx, &M, ipiv, &info, NULL) : lcl_potrf(ctx, upper ? LCL_UPPER : LCL_LOWER, &M, &info, NULL)) == LCL_OK;
                        t1 = now();
                        if (!ok) fprintf(stderr, "lcl: %s\n", lcl_last_error(ctx));
                        for (i = 0; i < n; i++) piv[i] = ipiv[i];
                    } else {
                        lapack_int info;
                        t0 = now();
                        info = op == 0 ? LAPACKE_dgetrf(LAPACK_COL_MAJOR, n, n, W, n, lp) : LAPACKE_dpotrf(LAPACK_COL_MAJOR, upper ? 'U' : 'L', n, W, n);
                        t1 = now();
                        ok = info == 0;
                        for (i = 0; i < n; i++) piv[i] = (int)lp[i] - 1;
                    }
                    rr = ok ? check(op, upper, n, A, W, piv) : 1.0;
                    if (!(rr < 1e-12)) { fprintf(stderr, "%s %s n=%d: bad result, residual %.3g\n", lib ? "openblas" : "lcl", op ? "potrf" : "getrf", n, rr); fails++; }
                    if (rr > res[lib]) res[lib] = rr;
                    if (r >= 0) t[lib][r] = t1 - t0;
                }
            }
            for (lib = 0; lib < 2; lib++) {
                qsort(t[lib], (size_t)nr, sizeof(double), cmp);
                med[lib] = t[lib][nr / 2];
            }
            printf("%-6s %6d %5d %10.4f %10.2f %10.2f %7.3f %10.2e %10.2e\n", op == 0 ? "getrf" : (upper ? "potrfU" : "potrf"), n, nr, med[0],
                   flops / med[0] * 1e-9, flops / med[1] * 1e-9, med[1] / med[0], res[0], res[1]);
            fflush(stdout);
        }
        free(A);
        free(W);
        free(ipiv);
        free(lp);
        free(piv);
    }
    lcl_context_destroy(ctx);
    return fails ? 1 : 0;
}
