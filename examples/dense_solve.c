/* dense_solve.c -- dense LU and Cholesky: a worked 3x3 system, then a random 500x500
   system on every backend this machine has (serial, openmp, opencl), then a system kept on
   every OpenCL device (split over them when there are several).
   build/dense_solve: prints the factors, the solutions and the residuals; exits 1 when a residual
   is too large or a factorization fails (a backend that is missing is skipped, not a failure). */
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static int failures;

static void check(lcl_context *ctx, lcl_status st, const char *what) {
    if (st == LCL_OK) return;
    printf("  %s failed: %s\n", what, lcl_last_error(ctx));
    failures++;
}

static void print_matrix(const char *name, const lcl_dense *M) {
    int64_t i, j;
    printf("  %s =\n", name);
    for (i = 0; i < M->rows; i++) {
        printf("    [");
        for (j = 0; j < M->cols; j++) printf(" %8.4f", lcl_dense_get(M, i, j));
        printf(" ]\n");
    }
}

/* Split a packed LU factor into L and U. unit_lower: L has the unit diagonal (Doolittle, LAPACK);
   else U has it (Crout). Returns max |L U - PA| where PA is A with the rows of ipiv (NULL: none)
   interchanged. */
static double show_lu(const lcl_dense *F, const lcl_dense *A, const int32_t *ipiv, int unit_lower) {
    enum { N = 3 };
    double L[N][N], U[N][N], PA[N][N], err = 0;
    int i, j, k;
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            double f = lcl_dense_get(F, i, j);
            L[i][j] = j < i ? f : j == i ? (unit_lower ? 1.0 : f) : 0.0;
            U[i][j] = j > i ? f : j == i ? (unit_lower ? f : 1.0) : 0.0;
            PA[i][j] = lcl_dense_get(A, i, j);
        }
    if (ipiv)   /* LAPACK order: row i was interchanged with row ipiv[i], for i = 0, 1, ... */
        for (i = 0; i < N; i++) {
            if (ipiv[i] < i || ipiv[i] >= N) { printf("    bad pivot ipiv[%d] = %d\n", i, (int)ipiv[i]); return HUGE_VAL; }
            for (j = 0; j < N; j++) {
                double t = PA[i][j];
                PA[i][j] = PA[ipiv[i]][j];
                PA[ipiv[i]][j] = t;
            }
        }
    printf("    L                              U\n");
    for (i = 0; i < N; i++) {
        printf("    [");
        for (j = 0; j < N; j++) printf(" %7.4f", L[i][j]);
        printf(" ]    [");
        for (j = 0; j < N; j++) printf(" %7.4f", U[i][j]);
        printf(" ]\n");
    }
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            double s = 0;
            for (k = 0; k < N; k++) s += L[i][k] * U[k][j];
            err = fmax(err, fabs(s - PA[i][j]));
        }
    printf("    max |L U - %sA| = %.2e\n", ipiv ? "P " : "", err);
    return err;
}

static double err_ones(const lcl_dense *x) {
    int64_t i;
    double e = 0;
    for (i = 0; i < x->rows; i++) e = fmax(e, fabs(lcl_dense_get(x, i, 0) - 1.0));
    return e;
}
static void print_x(const char *label, const lcl_dense *x) {
    printf("  %s x = [%.12g, %.12g, %.12g], max |x - 1| = %.1e\n", label, lcl_dense_get(x, 0, 0), lcl_dense_get(x, 1, 0),
           lcl_dense_get(x, 2, 0), err_ones(x));
}

/* The worked system: A = [1 2 3; 2 5 8; 3 8 14], b = [6 15 25], x = [1 1 1]. A is SPD, with
   A = L L^T for L = [1 0 0; 2 1 0; 3 2 1], so every algorithm meets the same numbers. */
static void worked_example(lcl_context *ctx) {
    static const double a[9] = {1, 2, 3, 2, 5, 8, 3, 8, 14};   /* row-major: the rows as written */
    static const double bv[3] = {6, 15, 25};
    static const struct { lcl_dense_alg alg; const char *name; int unit_lower; } nopiv[2] = {
        {LCL_ALG_UNBLOCKED, "unblocked right-looking LU, no pivoting (Doolittle: unit L)", 1},
        {LCL_ALG_CROUT, "Crout LU, no pivoting (unit U)", 0}};
    lcl_dense A, F, b;
    lcl_dense_opts o;
    int32_t ipiv[3];
    int64_t info = 0, i;
    int k;
    lcl_dense_wrap(ctx, &A, LCL_F64, LCL_ROW_MAJOR, 3, 3, 3, (void *)a);
    printf("1. The worked example (serial backend)\n");
    print_matrix("A", &A);
    printf("  b = [6, 15, 25]\n");
    memset(&o, 0, sizeof o);
    for (k = 0; k < 2; k++) {
        printf("  %s:\n", nopiv[k].name);
        o.alg = nopiv[k].alg;
        lcl_dense_alloc(ctx, &F, LCL_F64, LCL_ROW_MAJOR, 3, 3);
        for (i = 0; i < 9; i++) ((double *)F.data)[i] = a[i];
        check(ctx, lcl_getrf(ctx, &F, ipiv, &info, &o), nopiv[k].name);
        if (show_lu(&F, &A, NULL, nopiv[k].unit_lower) > 1e-12) { printf("    WRONG\n"); failures++; }
        lcl_dense_free(&F);
    }

    printf("  LU with partial pivoting (blocked, LAPACK getrf):\n");
    o.alg = LCL_ALG_BLOCKED;
    lcl_dense_alloc(ctx, &F, LCL_F64, LCL_ROW_MAJOR, 3, 3);
    for (i = 0; i < 9; i++) ((double *)F.data)[i] = a[i];
    check(ctx, lcl_getrf(ctx, &F, ipiv, &info, &o), "getrf");
    printf("    pivots: row 0 <-> %d, row 1 <-> %d, row 2 <-> %d\n", (int)ipiv[0], (int)ipiv[1], (int)ipiv[2]);
    if (show_lu(&F, &A, ipiv, 1) > 1e-12) { printf("    WRONG\n"); failures++; }
    lcl_dense_alloc(ctx, &b, LCL_F64, LCL_COL_MAJOR, 3, 1);
    for (i = 0; i < 3; i++) lcl_dense_set(&b, i, 0, bv[i]);
    check(ctx, lcl_getrs(ctx, LCL_NO_TRANS, &F, ipiv, &b), "getrs");
    print_x("getrs:", &b);
    if (err_ones(&b) > 1e-12) { printf("    WRONG\n"); failures++; }
    lcl_dense_free(&F);

    printf("  Cholesky A = L L^T (potrf, lower):\n");
    lcl_dense_alloc(ctx, &F, LCL_F64, LCL_ROW_MAJOR, 3, 3);
    for (i = 0; i < 9; i++) ((double *)F.data)[i] = a[i];
    check(ctx, lcl_potrf(ctx, LCL_LOWER, &F, &info, NULL), "potrf");
    for (i = 0; i < 3; i++)
        printf("    [ %7.4f %7.4f %7.4f ]\n", lcl_dense_get(&F, i, 0), i >= 1 ? lcl_dense_get(&F, i, 1) : 0.0,
               i >= 2 ? lcl_dense_get(&F, i, 2) : 0.0);
    for (i = 0; i < 3; i++) lcl_dense_set(&b, i, 0, bv[i]);
    check(ctx, lcl_potrs(ctx, LCL_LOWER, &F, &b), "potrs");
    print_x("potrs:", &b);
    if (err_ones(&b) > 1e-12) { printf("    WRONG\n"); failures++; }
    lcl_dense_free(&F);
    lcl_dense_free(&b);
}

static uint64_t rng_state = 42;
static double rnd(void) {   /* uniform in [-1, 1) */
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

/* ||b - A x|| / (||A|| ||x|| + ||b||), infinity norms, in double */
static double residual(const double *A, int n, const double *x, const double *b) {
    double rn = 0, an = 0, xn = 0, bn = 0;
    int i, j;
    for (i = 0; i < n; i++) {
        double s = 0, row = 0;
        for (j = 0; j < n; j++) {
            s += A[(size_t)i * n + j] * x[j];
            row += fabs(A[(size_t)i * n + j]);
        }
        rn = fmax(rn, fabs(b[i] - s));
        an = fmax(an, row);
        xn = fmax(xn, fabs(x[i]));
        bn = fmax(bn, fabs(b[i]));
    }
    return rn / (an * xn + bn);
}

/* a random 500 x 500 system: general (gesv, partial pivoting) and SPD (posv) */
static void random_system(lcl_backend backend) {
    enum { N = 500 };
    lcl_context_desc d;
    lcl_context *ctx = NULL;
    lcl_device_info di;
    lcl_dtype dt = LCL_F64;
    double *A = (double *)malloc(sizeof(double) * N * N), *S = (double *)malloc(sizeof(double) * N * N);
    double xs[N], b[N], bs[N], x[N], tol;
    int32_t ipiv[N];
    int64_t info = 0;
    int i, j, k;
    const char *name = lcl_backend_name(backend), *dev = "cpu";
    memset(&d, 0, sizeof d);
    d.backend = backend;
    if (!A || !S) { printf("  %-7s out of memory\n", name); failures++; goto done; }
    if (lcl_context_create(&d, &ctx) != LCL_OK) {
        printf("  %-7s skipped: %s\n", name, lcl_last_error(ctx));
        goto done;
    }
    if (backend == LCL_BACKEND_OPENCL && lcl_context_device(ctx, 0, &di) == LCL_OK) {
        dev = di.name;
        if (!di.fp64) dt = LCL_F32;     /* no double on this device: single precision */
    }
    tol = dt == LCL_F64 ? 1e-12 : 1e-4;
    rng_state = 42;
    for (i = 0; i < N * N; i++) A[i] = rnd();
    for (i = 0; i < N; i++)         /* S = (A + A^T) / 2 + N I: symmetric and diagonally dominant, so SPD */
        for (j = 0; j < N; j++) S[i * N + j] = 0.5 * (A[i * N + j] + A[j * N + i]) + (i == j ? N : 0);
    for (i = 0; i < N; i++) xs[i] = rnd();
    for (i = 0; i < N; i++) {
        b[i] = bs[i] = 0;
        for (j = 0; j < N; j++) {
            b[i] += A[i * N + j] * xs[j];
            bs[i] += S[i * N + j] * xs[j];
        }
    }
    for (k = 0; k < 2; k++) {      /* k = 0: gesv on A, k = 1: posv on S */
        lcl_dense M, B;
        lcl_status st;
        double r;
        lcl_dense_alloc(ctx, &M, dt, LCL_ROW_MAJOR, N, N);
        lcl_dense_alloc(ctx, &B, dt, LCL_COL_MAJOR, N, 1);
        for (i = 0; i < N; i++) {
            for (j = 0; j < N; j++) lcl_dense_set(&M, i, j, k ? S[i * N + j] : A[i * N + j]);
            lcl_dense_set(&B, i, 0, k ? bs[i] : b[i]);
        }
        st = k ? lcl_posv(ctx, LCL_LOWER, &M, &B, &info) : lcl_gesv(ctx, &M, ipiv, &B, &info);
        if (st != LCL_OK) {
            printf("  %-7s %-10s %s failed: %s\n", name, k ? "Cholesky" : "LU", k ? "posv" : "gesv", lcl_last_error(ctx));
            failures++;
        } else {
            for (i = 0; i < N; i++) x[i] = lcl_dense_get(&B, i, 0);
            r = residual(k ? S : A, N, x, k ? bs : b);
            printf("  %-7s %-8s %dx%d %s on %s: residual %.2e %s\n", name, k ? "Cholesky" : "LU", N, N,
                   dt == LCL_F64 ? "double" : "single", dev, r, r <= tol ? "ok" : "BAD");
            if (!(r <= tol)) failures++;
        }
        lcl_dense_free(&M);
        lcl_dense_free(&B);
    }
done:
    lcl_context_destroy(ctx);
    free(A);
    free(S);
}

/* The matrix kept on the devices: every OpenCL device of the context shares its columns
   (lcl_dmat_upload_split; with one device it is an ordinary device matrix). Factor, solve and
   refactor without moving the matrix; only b and x cross. */
static void on_the_devices(void) {
    enum { N = 700 };
    lcl_context_desc d;
    lcl_context *ctx = NULL;
    lcl_dense A, B;
    lcl_dmat *M = NULL, *MB = NULL;
    lcl_device_info di;
    int32_t ipiv[N];
    int64_t info = 0;
    double *a = (double *)malloc(sizeof(double) * N * N), x[N], b[N], r;
    int i, j;
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_OPENCL;
    d.device = "all";
    printf("3. A %dx%d system kept on the devices (lcl_dmat_upload_split)\n", N, N);
    if (!a || lcl_context_create(&d, &ctx) != LCL_OK || lcl_context_device(ctx, 0, &di) != LCL_OK || !di.fp64) {
        printf("  skipped: %s\n", !a ? "out of memory" : ctx && lcl_last_error(ctx)[0] ? lcl_last_error(ctx) : "no double precision");
        lcl_context_destroy(ctx);
        free(a);
        return;
    }
    rng_state = 7;
    for (i = 0; i < N * N; i++) a[i] = rnd();
    for (i = 0; i < N; i++) for (b[i] = 0, j = 0; j < N; j++) b[i] += a[i * N + j];   /* x = 1 */
    lcl_dense_wrap(ctx, &A, LCL_F64, LCL_ROW_MAJOR, N, N, N, a);
    lcl_dense_wrap(ctx, &B, LCL_F64, LCL_COL_MAJOR, N, 1, N, b);
    check(ctx, lcl_dmat_upload_split(ctx, &A, 0, &M), "lcl_dmat_upload_split");
    if (M) check(ctx, lcl_dmat_getrf(ctx, M, ipiv, &info, NULL), "lcl_dmat_getrf");   /* where the columns are */
    if (M) check(ctx, lcl_dmat_upload(ctx, &B, &MB), "lcl_dmat_upload(b)");
    if (MB) check(ctx, lcl_dmat_getrs(ctx, LCL_NO_TRANS, M, ipiv, MB), "lcl_dmat_getrs");
    lcl_dense_wrap(ctx, &B, LCL_F64, LCL_COL_MAJOR, N, 1, N, x);
    if (MB) check(ctx, lcl_dmat_download(ctx, MB, &B), "lcl_dmat_download");
    if (MB) {
        for (r = 0, i = 0; i < N; i++) r = fmax(r, fabs(x[i] - 1.0));
        printf("  LU on %d device(s): max |x - 1| = %.1e %s\n", lcl_context_num_devices(ctx), r, r <= 1e-10 ? "ok" : "BAD");
        if (!(r <= 1e-10)) failures++;
    }
    lcl_dmat_free(MB);
    lcl_dmat_free(M);
    lcl_context_destroy(ctx);
    free(a);
}

int main(void) {
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    static const lcl_backend backends[3] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP, LCL_BACKEND_OPENCL};
    int b;
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    if (lcl_context_create(&d, &ctx) != LCL_OK) {
        fprintf(stderr, "context: %s\n", lcl_last_error(ctx));
        lcl_context_destroy(ctx);
        return 3;
    }
    worked_example(ctx);
    lcl_context_destroy(ctx);
    printf("2. A random 500x500 system, b = A x*, on every backend\n");
    for (b = 0; b < 3; b++) {
        if (!lcl_backend_compiled(backends[b])) {
            printf("  %-7s not compiled in\n", lcl_backend_name(backends[b]));
            continue;
        }
        random_system(backends[b]);
    }
    if (lcl_backend_compiled(LCL_BACKEND_OPENCL)) on_the_devices();
    printf("%s\n", failures ? "FAILED" : "all residuals ok");
    return failures ? 1 : 0;
}
