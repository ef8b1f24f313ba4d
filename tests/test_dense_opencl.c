/* test_dense_opencl.c -- the dense factorizations on the OpenCL backend (PoCL here, any device in
   general), checked against residuals computed here in double and against the serial backend. */
#define _POSIX_C_SOURCE 200809L
#include "lt.h"
#include <stdlib.h>

static uint64_t rng = 12345;
static double urand(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0 * 2 - 1;
}

/* random n x n: general with a weak diagonal (pivoting matters) or SPD (diagonal n) */
static void fill(lcl_dense *A, int spd) {
    int64_t n = A->rows, i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++) {
            double v = urand();
            lcl_dense_set(A, i, j, v);
            lcl_dense_set(A, j, i, spd ? v : urand());
        }
    for (i = 0; i < n; i++) lcl_dense_set(A, i, i, spd ? (double)n : 0.25 * urand());
}

/* max |P A - L U| / (n max |A|) from the packed factors, in double */
static double lu_residual(const lcl_dense *A, const lcl_dense *F, const int32_t *ipiv) {
    int64_t n = A->rows, i, j, k;
    double *PA = (double *)malloc((size_t)(n * n + 1) * sizeof(double)), r = 0, amax = 0;
    for (i = 0; i < n; i++) for (j = 0; j < n; j++) PA[i * n + j] = lcl_dense_get(A, i, j);
    for (i = 0; i < n; i++)
        if (ipiv[i] != i) for (j = 0; j < n; j++) { double t = PA[i * n + j]; PA[i * n + j] = PA[ipiv[i] * n + j]; PA[ipiv[i] * n + j] = t; }
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double s = 0;
            for (k = 0; k <= i && k <= j; k++) s += (k == i ? 1.0 : lcl_dense_get(F, i, k)) * lcl_dense_get(F, k, j);
            if (fabs(s - PA[i * n + j]) > r) r = fabs(s - PA[i * n + j]);
            if (fabs(PA[i * n + j]) > amax) amax = fabs(PA[i * n + j]);
        }
    free(PA);
    return n ? r / (amax * (double)n) : 0;
}
static double chol_residual(const lcl_dense *A, const lcl_dense *F, lcl_uplo u) {
    int64_t n = A->rows, i, j, k;
    double r = 0, amax = 0;
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++) {
            double s = 0;
            for (k = 0; k <= j; k++)
                s += u == LCL_LOWER ? lcl_dense_get(F, i, k) * lcl_dense_get(F, j, k) : lcl_dense_get(F, k, i) * lcl_dense_get(F, k, j);
            if (fabs(s - lcl_dense_get(A, i, j)) > r) r = fabs(s - lcl_dense_get(A, i, j));
            if (fabs(lcl_dense_get(A, i, j)) > amax) amax = fabs(lcl_dense_get(A, i, j));
        }
    return n ? r / (amax * (double)n) : 0;
}
/* ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf) for every column */
static double solve_residual(const lcl_dense *A, const lcl_dense *X, const lcl_dense *B) {
    int64_t n = A->rows, c, i, j;
    double worst = 0;
    for (c = 0; c < B->cols; c++) {
        double rn = 0, an = 0, xn = 0, bn = 0;
        for (i = 0; i < n; i++) {
            double s = lcl_dense_get(B, i, c), rs = 0;
            for (j = 0; j < n; j++) { s -= lcl_dense_get(A, i, j) * lcl_dense_get(X, j, c); rs += fabs(lcl_dense_get(A, i, j)); }
            if (fabs(s) > rn) rn = fabs(s);
            if (rs > an) an = rs;
            if (fabs(lcl_dense_get(X, i, c)) > xn) xn = fabs(lcl_dense_get(X, i, c));
            if (fabs(lcl_dense_get(B, i, c)) > bn) bn = fabs(lcl_dense_get(B, i, c));
        }
        if (an * xn + bn > 0 && rn / (an * xn + bn) > worst) worst = rn / (an * xn + bn);
    }
    return worst;
}

static void copy_dense(lcl_context *ctx, const lcl_dense *src, lcl_dense *dst) {
    int64_t i, j;
    CHECK_OK(ctx, lcl_dense_alloc(ctx, dst, src->dtype, src->layout, src->rows, src->cols));
    for (i = 0; i < src->rows; i++) for (j = 0; j < src->cols; j++) lcl_dense_set(dst, i, j, lcl_dense_get(src, i, j));
}

static void test_dense_opencl_lu(void) {
    static const int sizes[] = {1, 2, 17, 63, 64, 65, 130, 257};
    lcl_context *ctx = lt_ocl(NULL);
    int s, p, l, blk;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    for (p = 0; p < 2; p++)
        for (l = 0; l < 2; l++)
            for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++)
                for (blk = 0; blk < 3; blk++) {
                    lcl_dtype dt = p ? LCL_F32 : LCL_F64;
                    int n = sizes[s];
                    lcl_dense A, F, B, X;
                    int32_t *ipiv = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
                    int64_t info = -1, i;
                    lcl_dense_opts o;
                    double r, tol = p ? 1e-5 : 1e-14;
                    memset(&o, 0, sizeof o);
                    o.block = blk == 1 ? 16 : blk == 2 ? 100 : 0;   /* in-local-memory and large-block paths */
                    o.panel = blk == 1 ? 1 : 0;                     /* and the host panel */
                    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, dt, l ? LCL_ROW_MAJOR : LCL_COL_MAJOR, n, n));
                    fill(&A, 0);
                    copy_dense(ctx, &A, &F);
                    CHECK_OK(ctx, lcl_getrf(ctx, &F, ipiv, &info, &o));
                    CHECK(info == 0);
                    r = lu_residual(&A, &F, ipiv);
                    CHECK_MSG(r < tol, "LU %s %s n=%d block=%d: residual %.3g", p ? "f32" : "f64", l ? "row" : "col", n, o.block, r);
                    for (i = 0; i < n; i++) CHECK(ipiv[i] >= i && ipiv[i] < n);
                    /* two right-hand sides, both transposes */
                    CHECK_OK(ctx, lcl_dense_alloc(ctx, &B, dt, LCL_COL_MAJOR, n, 2));
                    for (i = 0; i < n; i++) { lcl_dense_set(&B, i, 0, urand()); lcl_dense_set(&B, i, 1, 1.0); }
                    copy_dense(ctx, &B, &X);
                    CHECK_OK(ctx, lcl_getrs(ctx, LCL_NO_TRANS, &F, ipiv, &X));
                    r = solve_residual(&A, &X, &B);
                    CHECK_MSG(r < tol, "getrs n=%d: residual %.3g", n, r);
                    lcl_dense_free(&X);
                    {
                        /* A^T x = b against an explicit transpose */
                        lcl_dense AT;
                        int64_t a, b2;
                        CHECK_OK(ctx, lcl_dense_alloc(ctx, &AT, dt, LCL_COL_MAJOR, n, n));
                        for (a = 0; a < n; a++) for (b2 = 0; b2 < n; b2++) lcl_dense_set(&AT, a, b2, lcl_dense_get(&A, b2, a));
                        copy_dense(ctx, &B, &X);
                        CHECK_OK(ctx, lcl_getrs(ctx, LCL_TRANS, &F, ipiv, &X));
                        r = solve_residual(&AT, &X, &B);
                        CHECK_MSG(r < tol, "getrs TRANS n=%d: residual %.3g", n, r);
                        lcl_dense_free(&AT);
                        lcl_dense_free(&X);
                    }
                    lcl_dense_free(&B);
                    lcl_dense_free(&F);
                    lcl_dense_free(&A);
                    free(ipiv);
                }
    lcl_context_destroy(ctx);
}

static void test_dense_opencl_cholesky(void) {
    static const int sizes[] = {1, 2, 17, 64, 65, 130, 257};
    lcl_context *ctx = lt_ocl(NULL);
    int s, p, l, u, blk;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    for (p = 0; p < 2; p++)
        for (l = 0; l < 2; l++)
            for (u = 0; u < 2; u++)
                for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++)
                    for (blk = 0; blk < 2; blk++) {
                        lcl_dtype dt = p ? LCL_F32 : LCL_F64;
                        lcl_uplo up = u ? LCL_UPPER : LCL_LOWER;
                        int n = sizes[s];
                        lcl_dense A, F, B, X;
                        int64_t info = -1, i;
                        lcl_dense_opts o;
                        double r, tol = p ? 1e-5 : 1e-14;
                        memset(&o, 0, sizeof o);
                        o.block = blk ? 100 : 0;
                        CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, dt, l ? LCL_ROW_MAJOR : LCL_COL_MAJOR, n, n));
                        fill(&A, 1);
                        copy_dense(ctx, &A, &F);
                        CHECK_OK(ctx, lcl_potrf(ctx, up, &F, &info, &o));
                        CHECK(info == 0);
                        r = chol_residual(&A, &F, up);
                        CHECK_MSG(r < tol, "Cholesky %s %s %s n=%d: residual %.3g", p ? "f32" : "f64", l ? "row" : "col", u ? "upper" : "lower", n, r);
                        CHECK_OK(ctx, lcl_dense_alloc(ctx, &B, dt, LCL_ROW_MAJOR, n, 3));
                        for (i = 0; i < n; i++) { lcl_dense_set(&B, i, 0, urand()); lcl_dense_set(&B, i, 1, -1); lcl_dense_set(&B, i, 2, (double)i); }
                        copy_dense(ctx, &B, &X);
                        CHECK_OK(ctx, lcl_potrs(ctx, up, &F, &X));
                        r = solve_residual(&A, &X, &B);
                        CHECK_MSG(r < tol, "potrs n=%d: residual %.3g", n, r);
                        lcl_dense_free(&X);
                        lcl_dense_free(&B);
                        lcl_dense_free(&F);
                        lcl_dense_free(&A);
                    }
    lcl_context_destroy(ctx);
}

/* the OpenCL and serial backends agree on the pivots and, to rounding, on the factors */
static void test_dense_opencl_matches_serial(void) {
    lcl_context *ctx = lt_ocl(NULL), *ser = NULL;
    lcl_context_desc d;
    lcl_dense A, F1, F2;
    int32_t p1[150], p2[150];
    int64_t i, j, same = 0;
    double dmax = 0;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    lcl_context_create(&d, &ser);
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F64, LCL_COL_MAJOR, 150, 150));
    fill(&A, 0);
    copy_dense(ctx, &A, &F1);
    copy_dense(ctx, &A, &F2);
    CHECK_OK(ctx, lcl_getrf(ctx, &F1, p1, NULL, NULL));
    CHECK_OK(ser, lcl_getrf(ser, &F2, p2, NULL, NULL));
    for (i = 0; i < 150; i++) same += p1[i] == p2[i];
    CHECK(same == 150);
    for (i = 0; i < 150; i++) for (j = 0; j < 150; j++) { double dd = fabs(lcl_dense_get(&F1, i, j) - lcl_dense_get(&F2, i, j)); if (dd > dmax) dmax = dd; }
    CHECK_MSG(dmax < 1e-10, "factors differ by %.3g", dmax);
    lcl_dense_free(&A);
    lcl_dense_free(&F1);
    lcl_dense_free(&F2);
    lcl_context_destroy(ser);
    lcl_context_destroy(ctx);
}

static void test_dense_opencl_bad_input(void) {
    lcl_context *ctx = lt_ocl(NULL);
    lcl_dense A, B;
    int32_t ipiv[80];
    int64_t info = -1, i;
    lcl_dense_opts o;
    double tiny[4] = {0, 0, 0, 0};
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    /* singular: column 3 = 2 x column 1 with exact multipliers, so the third pivot is exactly zero */
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F64, LCL_COL_MAJOR, 5, 5));
    {
        static const double m[5][5] = {{4, 1, 8, 0, 1}, {2, 3, 4, 1, 0}, {1, 1, 2, 5, 2}, {2, 3, 4, 0, 3}, {1, 1, 2, 1, 9}};
        int r, c;
        for (r = 0; r < 5; r++) for (c = 0; c < 5; c++) lcl_dense_set(&A, r, c, m[r][c]);
    }
    B = A;
    CHECK_STATUS(ctx, lcl_getrf(ctx, &A, ipiv, &info, NULL), LCL_ERR_SINGULAR);
    CHECK_MSG(info == 3, "info %lld, want 3", (long long)info);
    lcl_dense_free(&B);
    /* not SPD: the leading minor of order 70 is the first non-positive one */
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F64, LCL_COL_MAJOR, 80, 80));
    fill(&A, 1);
    lcl_dense_set(&A, 69, 69, -1.0);
    CHECK_STATUS(ctx, lcl_potrf(ctx, LCL_LOWER, &A, &info, NULL), LCL_ERR_NOT_SPD);
    CHECK_MSG(info == 70, "info %lld, want 70", (long long)info);
    /* NaN: rejected before any work */
    fill(&A, 1);
    lcl_dense_set(&A, 3, 7, NAN);
    CHECK_STATUS(ctx, lcl_getrf(ctx, &A, ipiv, &info, NULL), LCL_ERR_NAN);
    lcl_dense_set(&A, 3, 7, 0.0);
    lcl_dense_set(&A, 7, 3, INFINITY);   /* potrf LOWER reads the lower triangle only */
    CHECK_STATUS(ctx, lcl_potrf(ctx, LCL_LOWER, &A, &info, NULL), LCL_ERR_NAN);
    /* oracle algorithms are CPU-only: a clear error, not a silent substitute */
    fill(&A, 1);
    memset(&o, 0, sizeof o);
    o.alg = LCL_ALG_CROUT;
    CHECK_STATUS(ctx, lcl_potrf(ctx, LCL_LOWER, &A, &info, &o), LCL_ERR_UNSUPPORTED);
    lcl_dense_free(&A);
    /* a matrix larger than the device's largest buffer: out-of-device-memory before any copy */
    {
        lcl_device_info di;
        lcl_dmat *M = NULL;
        int64_t n;
        CHECK_OK(ctx, lcl_context_device(ctx, 0, &di));
        n = (int64_t)sqrt((double)di.max_alloc / 8.0) + 64;
        CHECK_OK(ctx, lcl_dense_wrap(ctx, &A, LCL_F64, LCL_ROW_MAJOR, n, n, n, tiny));
        CHECK_STATUS(ctx, lcl_dmat_upload(ctx, &A, &M), LCL_ERR_DEVICE_MEMORY);
        CHECK(M == NULL);
    }
    /* n = 0 does nothing */
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F64, LCL_COL_MAJOR, 0, 0));
    CHECK_OK(ctx, lcl_getrf(ctx, &A, ipiv, &info, NULL));
    CHECK(info == 0);
    lcl_dense_free(&A);
    for (i = 0; i < 4; i++) CHECK(tiny[i] == 0);
    lcl_context_destroy(ctx);
}

/* factor once on the device, solve several times: the device-resident path */
static void test_dense_opencl_dmat(void) {
    lcl_context *ctx = lt_ocl(NULL);
    lcl_dense A, B, X;
    lcl_dmat *dA = NULL, *dB = NULL;
    int32_t ipiv[97];
    int64_t info, i, r;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F64, LCL_COL_MAJOR, 97, 97));
    fill(&A, 0);
    CHECK_OK(ctx, lcl_dmat_upload(ctx, &A, &dA));
    CHECK_OK(ctx, lcl_dmat_getrf(ctx, dA, ipiv, &info, NULL));
    for (r = 0; r < 3; r++) {
        CHECK_OK(ctx, lcl_dense_alloc(ctx, &B, LCL_F64, LCL_COL_MAJOR, 97, 1));
        for (i = 0; i < 97; i++) lcl_dense_set(&B, i, 0, urand());
        copy_dense(ctx, &B, &X);
        CHECK_OK(ctx, lcl_dmat_upload(ctx, &X, &dB));
        CHECK_OK(ctx, lcl_dmat_getrs(ctx, LCL_NO_TRANS, dA, ipiv, dB));
        CHECK_OK(ctx, lcl_dmat_download(ctx, dB, &X));
        CHECK(solve_residual(&A, &X, &B) < 1e-14);
        lcl_dmat_free(dB);
        dB = NULL;
        lcl_dense_free(&B);
        lcl_dense_free(&X);
    }
    lcl_dmat_free(dA);
    dA = NULL;
    /* a device-resident matrix with a NaN is rejected before any work; in the triangle Cholesky
       does not read it is no input at all */
    fill(&A, 1);
    lcl_dense_set(&A, 10, 90, NAN);
    CHECK_OK(ctx, lcl_dmat_upload(ctx, &A, &dA));
    CHECK_STATUS(ctx, lcl_dmat_getrf(ctx, dA, ipiv, &info, NULL), LCL_ERR_NAN);
    CHECK_STATUS(ctx, lcl_dmat_potrf(ctx, LCL_UPPER, dA, &info, NULL), LCL_ERR_NAN);
    CHECK_OK(ctx, lcl_dmat_potrf(ctx, LCL_LOWER, dA, &info, NULL));
    lcl_dmat_free(dA);
    lcl_dense_free(&A);
    lcl_context_destroy(ctx);
}

void lt_suite_dense_opencl(void) {
    LT_RUN(test_dense_opencl_lu);
    LT_RUN(test_dense_opencl_cholesky);
    LT_RUN(test_dense_opencl_matches_serial);
    LT_RUN(test_dense_opencl_bad_input);
    LT_RUN(test_dense_opencl_dmat);
}
