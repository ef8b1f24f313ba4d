/* test_dense_opencl.c -- the dense factorizations on the OpenCL backend (PoCL here, any device in
   general), checked against residuals computed here in double and against the serial backend;
   split over two devices (opts.device = -1: PoCL's CPU device twice, in a child process); and
   which backend an auto context factors on. */
#define _POSIX_C_SOURCE 200809L
#include "lt.h"
#include <stdlib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

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
    int64_t n = A->rows, na = A->cols, nf = F->cols, i, j, k;   /* (row strides of the copies) */
    double *PA = lt_dense_rows(A), *f = lt_dense_rows(F), r = 0, amax = 0;
    for (i = 0; i < n; i++)
        if (ipiv[i] != i) for (j = 0; j < n; j++) { double t = PA[i * na + j]; PA[i * na + j] = PA[ipiv[i] * na + j]; PA[ipiv[i] * na + j] = t; }
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double s = 0;
            for (k = 0; k <= i && k <= j; k++) s += (k == i ? 1.0 : f[i * nf + k]) * f[k * nf + j];
            if (fabs(s - PA[i * na + j]) > r) r = fabs(s - PA[i * na + j]);
            if (fabs(PA[i * na + j]) > amax) amax = fabs(PA[i * na + j]);
        }
    free(PA);
    free(f);
    return n ? r / (amax * (double)n) : 0;
}
static double chol_residual(const lcl_dense *A, const lcl_dense *F, lcl_uplo u) {
    int64_t n = A->rows, na = A->cols, nf = F->cols, i, j, k;
    double *a = lt_dense_rows(A), *f = lt_dense_rows(F), r = 0, amax = 0;
    for (i = 0; i < n; i++)
        for (j = 0; j <= i; j++) {
            double s = 0;
            for (k = 0; k <= j; k++) s += u == LCL_LOWER ? f[i * nf + k] * f[j * nf + k] : f[k * nf + i] * f[k * nf + j];
            if (fabs(s - a[i * na + j]) > r) r = fabs(s - a[i * na + j]);
            if (fabs(a[i * na + j]) > amax) amax = fabs(a[i * na + j]);
        }
    free(a);
    free(f);
    return n ? r / (amax * (double)n) : 0;
}
/* ||b - A x||_inf / (||A||_inf ||x||_inf + ||b||_inf) for every column */
static double solve_residual(const lcl_dense *A, const lcl_dense *X, const lcl_dense *B) {
    int64_t n = A->rows, na = A->cols, nc = B->cols, nx = X->cols, c, i, j;
    double *a = lt_dense_rows(A), *x = lt_dense_rows(X), *b = lt_dense_rows(B), worst = 0;
    for (c = 0; c < nc; c++) {
        double rn = 0, an = 0, xn = 0, bn = 0;
        for (i = 0; i < n; i++) {
            double s = b[i * nc + c], rs = 0;
            for (j = 0; j < n; j++) { s -= a[i * na + j] * x[j * nx + c]; rs += fabs(a[i * na + j]); }
            if (fabs(s) > rn) rn = fabs(s);
            if (rs > an) an = rs;
            if (fabs(x[i * nx + c]) > xn) xn = fabs(x[i * nx + c]);
            if (fabs(b[i * nc + c]) > bn) bn = fabs(b[i * nc + c]);
        }
        if (an * xn + bn > 0 && rn / (an * xn + bn) > worst) worst = rn / (an * xn + bn);
    }
    free(a);
    free(x);
    free(b);
    return worst;
}

static void copy_dense(lcl_context *ctx, const lcl_dense *src, lcl_dense *dst) {
    int64_t i, j;
    CHECK_OK(ctx, lcl_dense_alloc(ctx, dst, src->dtype, src->layout, src->rows, src->cols));
    for (i = 0; i < src->rows; i++) for (j = 0; j < src->cols; j++) lcl_dense_set(dst, i, j, lcl_dense_get(src, i, j));
}

/* the residual of the solve X of M X = B within tol (what and n for the message); frees X */
static void check_solve(const lcl_dense *M, lcl_dense *X, const lcl_dense *B, double tol, const char *what, int n) {
    double r = solve_residual(M, X, B);
    CHECK_MSG(r < tol, "%s n=%d: residual %.3g", what, n, r);
    lcl_dense_free(X);
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
                    check_solve(&A, &X, &B, tol, "getrs", n);
                    {
                        /* A^T x = b against an explicit transpose */
                        lcl_dense AT;
                        int64_t a, b2;
                        CHECK_OK(ctx, lcl_dense_alloc(ctx, &AT, dt, LCL_COL_MAJOR, n, n));
                        for (a = 0; a < n; a++) for (b2 = 0; b2 < n; b2++) lcl_dense_set(&AT, a, b2, lcl_dense_get(&A, b2, a));
                        copy_dense(ctx, &B, &X);
                        CHECK_OK(ctx, lcl_getrs(ctx, LCL_TRANS, &F, ipiv, &X));
                        check_solve(&AT, &X, &B, tol, "getrs TRANS", n);
                        lcl_dense_free(&AT);
                    }
                    lcl_dense_free(&B);
                    lcl_dense_free(&F);
                    lcl_dense_free(&A);
                    free(ipiv);
                }
    lcl_context_destroy(ctx);
}

/* The device's NaN / Inf scan (a work-group a row, up to the diagonal for Cholesky): one bad value
   at each sampled position of device matrices of sizes around the work-group, both precisions.
   getrf rejects it anywhere, potrf LOWER only on or below the diagonal (the triangle it reads),
   and a rejected matrix is left as it was. 1030: rows longer than four work-groups' widths
   (each work-item loads four elements at once). */
static void test_dense_opencl_nan_scan(void) {
    static const int sizes[] = {1, 2, 37, 300, 1030};
    lcl_context *ctx = lt_ocl(NULL);
    int s, p, t;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    for (p = 0; p < 2; p++)
        for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
            int n = sizes[s], np = 0, q;
            int pos[64][2];
            lcl_dense A, B;
            lcl_dmat *dA = NULL;
            int32_t *ipiv = (int32_t *)malloc((size_t)n * sizeof(int32_t));
            CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, p ? LCL_F32 : LCL_F64, LCL_ROW_MAJOR, n, n));
            CHECK_OK(ctx, lcl_dense_alloc(ctx, &B, p ? LCL_F32 : LCL_F64, LCL_ROW_MAJOR, n, n));
            fill(&A, 1);
            /* corners, the diagonal's ends, the last row and column, and some at random */
            pos[np][0] = 0; pos[np][1] = 0; np++;
            pos[np][0] = n - 1; pos[np][1] = n - 1; np++;
            pos[np][0] = n - 1; pos[np][1] = 0; np++;
            pos[np][0] = 0; pos[np][1] = n - 1; np++;
            pos[np][0] = n / 2; pos[np][1] = n / 2; np++;
            pos[np][0] = n - 1; pos[np][1] = n / 3; np++;
            pos[np][0] = n / 3; pos[np][1] = n - 1; np++;
            while (np < 24) { pos[np][0] = (int)((urand() + 1) * 0.5 * n) % n; pos[np][1] = (int)((urand() + 1) * 0.5 * n) % n; np++; }   /* urand: [-1, 1) */
            for (q = 0; q < np; q++)
                for (t = 0; t < 2; t++) {
                    int i = pos[q][0], j = pos[q][1];
                    int64_t info = 0, r, c, same = 1;
                    double keep = lcl_dense_get(&A, i, j);
                    lcl_dense_set(&A, i, j, t ? INFINITY : NAN);
                    CHECK_OK(ctx, lcl_dmat_upload(ctx, &A, &dA));
                    CHECK_STATUS(ctx, lcl_dmat_getrf(ctx, dA, ipiv, &info, NULL), LCL_ERR_NAN);
                    if (j <= i) CHECK_STATUS(ctx, lcl_dmat_potrf(ctx, LCL_LOWER, dA, &info, NULL), LCL_ERR_NAN);
                    CHECK_OK(ctx, lcl_dmat_download(ctx, dA, &B));
                    for (r = 0; r < n; r++)
                        for (c = 0; c < n; c++) {
                            double a = lcl_dense_get(&A, r, c), b = lcl_dense_get(&B, r, c);
                            same &= a == b || (a != a && b != b);
                        }
                    CHECK_MSG(same, "n %d, %s at (%d,%d): the rejected matrix changed", n, t ? "Inf" : "NaN", i, j);
                    if (j > i) {   /* above the diagonal: no input to the lower Cholesky */
                        CHECK_OK(ctx, lcl_dmat_potrf(ctx, LCL_LOWER, dA, &info, NULL));
                        CHECK(info == 0);
                    }
                    lcl_dmat_free(dA);
                    dA = NULL;
                    lcl_dense_set(&A, i, j, keep);
                }
            free(ipiv);
            lcl_dense_free(&B);
            lcl_dense_free(&A);
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
                        check_solve(&A, &X, &B, tol, "potrs", n);
                        lcl_dense_free(&B);
                        lcl_dense_free(&F);
                        lcl_dense_free(&A);
                    }
    lcl_context_destroy(ctx);
}

/* POTF2 with inv(L11) (lcl_potf2_inv, a warp a 32-column half; L21 by a GEMM with the inverse),
   NVIDIA's default in double, forced here (LCL_POTF2_INV=1) so PoCL runs it with shuffles through
   local memory: residuals at sizes around the halves and the 64-wide blocks, 32-wide steps (each
   block padded with the identity), pivots outside float's range, and the first non-positive minor
   in either half and past a block */
static void potf2_inv_run(lcl_context *ctx) {
    static const int sizes[] = {1, 2, 17, 33, 64, 65, 130, 257};
    static const int bad[] = {1, 32, 33, 64, 65, 98};
    static const double scale[] = {1e200, 1e-200};   /* pivots outside float's range */
    int s, p, blk, i, j;
    for (p = 0; p < 2; p++)
        for (blk = 0; blk < 2; blk++)
            for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
                lcl_dtype dt = p ? LCL_F32 : LCL_F64;
                lcl_dense A, F;
                lcl_dense_opts o;
                int64_t info = -1;
                double r;
                memset(&o, 0, sizeof o);
                o.block = blk ? 32 : 0;
                CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, dt, LCL_ROW_MAJOR, sizes[s], sizes[s]));
                fill(&A, 1);
                copy_dense(ctx, &A, &F);
                CHECK_OK(ctx, lcl_potrf(ctx, LCL_LOWER, &F, &info, &o));
                r = chol_residual(&A, &F, LCL_LOWER);
                CHECK_MSG(info == 0 && r < (p ? 1e-5 : 1e-14), "potf2_inv %s n=%d block %d: info %lld, residual %.3g", p ? "f32" : "f64",
                          sizes[s], o.block, (long long)info, r);
                lcl_dense_free(&F);
                lcl_dense_free(&A);
            }
    for (s = 0; s < 2; s++) {
        lcl_dense A, F;
        int64_t info = -1;
        double r;
        CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F64, LCL_ROW_MAJOR, 130, 130));
        fill(&A, 1);
        for (i = 0; i < 130; i++)
            for (j = 0; j < 130; j++) lcl_dense_set(&A, i, j, lcl_dense_get(&A, i, j) * scale[s]);
        copy_dense(ctx, &A, &F);
        CHECK_OK(ctx, lcl_potrf(ctx, LCL_LOWER, &F, &info, NULL));
        r = chol_residual(&A, &F, LCL_LOWER);
        CHECK_MSG(info == 0 && r < 1e-14, "potf2_inv scaled by %g: info %lld, residual %.3g", scale[s], (long long)info, r);
        lcl_dense_free(&F);
        lcl_dense_free(&A);
    }
    for (p = 0; p < 2; p++)
        for (s = 0; s < (int)(sizeof bad / sizeof bad[0]); s++) {
            lcl_dense A;
            int64_t info = -1;
            CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, p ? LCL_F32 : LCL_F64, LCL_COL_MAJOR, 100, 100));
            fill(&A, 1);
            lcl_dense_set(&A, bad[s] - 1, bad[s] - 1, p ? 0.0 : -1.0);
            CHECK_STATUS(ctx, lcl_potrf(ctx, LCL_LOWER, &A, &info, NULL), LCL_ERR_NOT_SPD);
            CHECK_MSG(info == bad[s], "potf2_inv: info %lld, want %d", (long long)info, bad[s]);
            lcl_dense_free(&A);
        }
}
static void test_dense_opencl_potf2_inv(void) {
    lcl_context_desc d;
    int n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) { lt_skip("no OpenCL device"); return; }
    {
        lcl_context *ctx = NULL;
        lcl_device_info di;
        memset(&d, 0, sizeof d);
        d.backend = LCL_BACKEND_OPENCL;
        d.shared_context = lt_shared_env() ? 1 : -1;
        setenv("LCL_POTF2_INV", "1", 1);
        if (lcl_context_create(&d, &ctx) != LCL_OK) {
            CHECK_MSG(0, "context: %s", lcl_last_error(ctx));
            lcl_context_destroy(ctx);
            unsetenv("LCL_POTF2_INV");
            return;
        }
        unsetenv("LCL_POTF2_INV");
        /* the library's condition (tune.potf2_inv): 64-wide blocks, this much local memory (work-groups of 256) */
        CHECK_OK(ctx, lcl_context_device(ctx, 0, &di));
        if (di.local_mem < (64 * 65 + 32 * 33 + 256) * sizeof(double)) {
            lt_skip("device without the local memory of lcl_potf2_inv");
            lcl_context_destroy(ctx);
            return;
        }
        potf2_inv_run(ctx);
        lcl_context_destroy(ctx);
    }
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

/* ---- several devices: opts.device = -1 splits the factorization of host arrays ---- */
/* max |X - Y| over the whole matrix (tri 0), or its strictly lower (1) or strictly upper (2) part */
static double max_diff(const lcl_dense *X, const lcl_dense *Y, int tri) {
    int64_t i, j;
    double m = 0;
    for (i = 0; i < X->rows; i++)
        for (j = 0; j < X->cols; j++)
            if (tri == 0 || (tri == 1 && i > j) || (tri == 2 && i < j)) m = fmax(m, fabs(lcl_dense_get(X, i, j) - lcl_dense_get(Y, i, j)));
    return m;
}
static double max_abs(const lcl_dense *X) {
    int64_t i, j;
    double m = 0;
    for (i = 0; i < X->rows; i++) for (j = 0; j < X->cols; j++) m = fmax(m, fabs(lcl_dense_get(X, i, j)));
    return m;
}
static lcl_dense_opts dev_opts(int device, int block) {
    lcl_dense_opts o;
    memset(&o, 0, sizeof o);
    o.device = device;
    o.block = block;
    return o;
}
/* factor a copy of A: op 0 LU, 1 lower Cholesky, 2 upper Cholesky; the status, and the message in msg */
static lcl_status factor_copy(lcl_context *ctx, int op, const lcl_dense *A, const lcl_dense_opts *o, lcl_dense *F, int32_t *ipiv,
                              int64_t *info, char *msg, size_t cap) {
    lcl_status st;
    copy_dense(ctx, A, F);
    st = op == 0 ? lcl_getrf(ctx, F, ipiv, info, o) : lcl_potrf(ctx, op == 1 ? LCL_LOWER : LCL_UPPER, F, info, o);
    if (msg) snprintf(msg, cap, "%s", st == LCL_OK ? "" : lcl_last_error(ctx));
    return st;
}

/* LU of A on context ca with options a and on cb with b: the same pivots and factors, to the bit */
static void same_lu(lcl_context *ca, const lcl_dense_opts *a, lcl_context *cb, const lcl_dense_opts *b, const lcl_dense *A) {
    lcl_dense F0, F1;
    int32_t *p0 = (int32_t *)malloc(sizeof(int32_t) * (size_t)A->rows), *p1 = (int32_t *)malloc(sizeof(int32_t) * (size_t)A->rows);
    int64_t info, i, same = 0;
    CHECK_OK(ca, factor_copy(ca, 0, A, a, &F0, p0, &info, NULL, 0));
    CHECK_OK(cb, factor_copy(cb, 0, A, b, &F1, p1, &info, NULL, 0));
    for (i = 0; i < A->rows; i++) same += p0[i] == p1[i];
    CHECK_MSG(same == A->rows && max_diff(&F0, &F1, 0) == 0, "%lld of %lld pivots alike, factors %.3g apart", (long long)same,
              (long long)A->rows, max_diff(&F0, &F1, 0));
    lcl_dense_free(&F0);
    lcl_dense_free(&F1);
    free(p0);
    free(p1);
}
/* the residual of solving with the factors F of A (op as factor_copy) for two right-hand sides */
static double solved(lcl_context *ctx, int op, const lcl_dense *A, const lcl_dense *F, const int32_t *ipiv) {
    lcl_dense B, X;
    int64_t i;
    double r;
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &B, A->dtype, LCL_COL_MAJOR, A->rows, 2));
    for (i = 0; i < A->rows; i++) { lcl_dense_set(&B, i, 0, urand()); lcl_dense_set(&B, i, 1, 1.0); }
    copy_dense(ctx, &B, &X);
    CHECK_OK(ctx, op == 0 ? lcl_getrs(ctx, LCL_NO_TRANS, F, ipiv, &X) : lcl_potrs(ctx, op == 1 ? LCL_LOWER : LCL_UPPER, F, &X));
    r = solve_residual(A, &X, &B);
    lcl_dense_free(&B);
    lcl_dense_free(&X);
    return r;
}

/* every shape, block sizes that do not divide n and blocks past the local-memory TRSM: residuals,
   the untouched triangle, and (double) the serial backend's pivots and factors */
static void multi_sweep(lcl_context *ctx, lcl_context *ser) {
    /* n, block, opts.panel (1: panels on the host, else on their owner device) */
    static const int cases[][3] = {{1, 0, 0}, {2, 0, 0}, {17, 0, 0}, {17, 5, 0}, {100, 0, 0}, {100, 16, 0}, {100, 16, 1},
                                   {257, 0, 0}, {257, 48, 0}, {257, 80, 0}, {257, 80, 1}, {257, 64, 1}, {560, 530, 0}};
    int p, l, c, op;
    for (p = 0; p < 2; p++)
        for (l = 0; l < 2; l++)
            for (c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++)
                for (op = 0; op < 3; op++) {
                    lcl_dtype dt = p ? LCL_F32 : LCL_F64;
                    int n = cases[c][0];
                    lcl_dense A, F, G;
                    lcl_dense_opts o = dev_opts(-1, cases[c][1]);
                    int32_t *ipiv, *jpiv;
                    int64_t info = -1, jinfo = -1, i;
                    double r, tol = p ? 1e-5 : 1e-14;
                    char what[96];
                    /* LT_SMALL (ASan): n = 560's instrumented serial reference and O(n^3) residuals
                       were a third of ASan's time here; its one path n = 257 lacks, the split
                       Cholesky's L21 in several slabs, runs in double, both layouts */
                    if (n > 300 && lt_small() && (p || op != 1)) continue;
                    o.panel = cases[c][2];
                    ipiv = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
                    jpiv = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
                    snprintf(what, sizeof what, "%s %s %s n=%d block=%d panel=%d", op == 0 ? "LU" : op == 1 ? "Cholesky lower" : "Cholesky upper",
                             p ? "f32" : "f64", l ? "row" : "col", n, o.block, o.panel);
                    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, dt, l ? LCL_ROW_MAJOR : LCL_COL_MAJOR, n, n));
                    fill(&A, op > 0);
                    CHECK_OK(ctx, factor_copy(ctx, op, &A, &o, &F, ipiv, &info, NULL, 0));
                    CHECK_MSG(info == 0, "%s: info %lld", what, (long long)info);
                    r = op == 0 ? lu_residual(&A, &F, ipiv) : chol_residual(&A, &F, op == 1 ? LCL_LOWER : LCL_UPPER);
                    CHECK_MSG(r < tol, "%s: residual %.3g", what, r);
                    if (op > 0) CHECK_MSG(max_diff(&A, &F, op == 1 ? 2 : 1) == 0, "%s: the other triangle changed", what);
                    if (!p) {
                        CHECK_OK(ser, factor_copy(ser, op, &A, NULL, &G, jpiv, &jinfo, NULL, 0));
                        for (i = 0; op == 0 && i < n; i++) CHECK_MSG(ipiv[i] == jpiv[i], "%s: pivot %lld is %d, serial %d", what, (long long)i, ipiv[i], jpiv[i]);
                        r = max_diff(&F, &G, 0);
                        CHECK_MSG(r <= 1e-14 * n * max_abs(&G), "%s: %.3g from the serial factors", what, r);
                        lcl_dense_free(&G);
                    }
                    if (n == 257 && o.block == 0) {   /* the factors solve (on device 0) */
                        r = solved(ctx, op, &A, &F, ipiv);
                        CHECK_MSG(r < tol, "%s: solve residual %.3g", what, r);
                    }
                    lcl_dense_free(&F);
                    lcl_dense_free(&A);
                    free(ipiv);
                    free(jpiv);
                }
}

/* status, info and message as on one device and as serial: singular, not SPD, NaN, unsupported */
static void multi_same(lcl_context *ctx, lcl_context *ser, int op, const lcl_dense *A, int block, lcl_status want, int64_t want_info) {
    lcl_dense F1, F2, F3;
    int32_t p1[100], p2[100], p3[100];
    int64_t i1 = -1, i2 = -1, i3 = -1;
    char m1[512], m2[512];
    lcl_dense_opts split = dev_opts(-1, block), one = dev_opts(0, block);
    lcl_status s1 = factor_copy(ctx, op, A, &split, &F1, p1, &i1, m1, sizeof m1);
    lcl_status s2 = factor_copy(ctx, op, A, &one, &F2, p2, &i2, m2, sizeof m2);
    lcl_status s3 = want == LCL_ERR_UNSUPPORTED ? want : factor_copy(ser, op, A, NULL, &F3, p3, &i3, NULL, 0);
    CHECK_MSG(s1 == want && s2 == want && s3 == want, "op %d: split %s, one device %s, serial %s, want %s (%s)", op, lcl_status_string(s1),
              lcl_status_string(s2), lcl_status_string(s3), lcl_status_string(want), m1);
    CHECK_MSG(i1 == want_info && i2 == want_info && (i3 == want_info || want == LCL_ERR_UNSUPPORTED), "op %d: info %lld, %lld, %lld, want %lld", op,
              (long long)i1, (long long)i2, (long long)i3, (long long)want_info);
    CHECK_MSG(!strcmp(m1, m2), "op %d: split says \"%s\", one device \"%s\"", op, m1, m2);
    fprintf(stderr, "  op %d split: %s\n", op, m1[0] ? m1 : "ok");
    if (op == 0 && want == LCL_ERR_SINGULAR) CHECK(lu_residual(A, &F1, p1) < 1e-14);   /* completed, as LAPACK */
    lcl_dense_free(&F1);
    lcl_dense_free(&F2);
    if (want != LCL_ERR_UNSUPPORTED) lcl_dense_free(&F3);
}
static void multi_info(lcl_context *ctx, lcl_context *ser) {
    lcl_dense A, F;
    int32_t ipiv[100];
    int64_t info;
    lcl_dense_opts o;
    int c, u;
    /* a zero column stays exactly zero under the updates: a zero pivot, in a block of each device */
    for (c = 0; c < 2; c++) {
        int z = c ? 53 : 10;
        int64_t i;
        CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F64, c ? LCL_ROW_MAJOR : LCL_COL_MAJOR, 100, 100));
        fill(&A, 0);
        for (i = 0; i < 100; i++) lcl_dense_set(&A, i, z, 0.0);
        multi_same(ctx, ser, 0, &A, 16, LCL_ERR_SINGULAR, z + 1);
        lcl_dense_free(&A);
    }
    /* the first non-positive minor, in a block of each device, both triangles */
    for (c = 0; c < 2; c++)
        for (u = 0; u < 2; u++) {
            int z = c ? 20 : 69;
            CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F64, u ? LCL_ROW_MAJOR : LCL_COL_MAJOR, 80, 80));
            fill(&A, 1);
            lcl_dense_set(&A, z, z, c ? -1000.0 : -1.0);
            multi_same(ctx, ser, 1 + u, &A, 16, LCL_ERR_NOT_SPD, z + 1);
            lcl_dense_free(&A);
        }
    /* NaN: refused before any work; in the triangle Cholesky does not read it is no input */
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F64, LCL_COL_MAJOR, 80, 80));
    fill(&A, 1);
    lcl_dense_set(&A, 3, 70, NAN);
    multi_same(ctx, ser, 0, &A, 16, LCL_ERR_NAN, 0);
    multi_same(ctx, ser, 2, &A, 16, LCL_ERR_NAN, 0);
    multi_same(ctx, ser, 1, &A, 16, LCL_OK, 0);
    o = dev_opts(-1, 16);
    CHECK_OK(ctx, factor_copy(ctx, 1, &A, &o, &F, NULL, &info, NULL, 0));
    CHECK(chol_residual(&A, &F, LCL_LOWER) < 1e-14 && lcl_dense_get(&F, 3, 70) != lcl_dense_get(&F, 3, 70));
    lcl_dense_free(&F);
    /* the oracle algorithms stay on the CPU backends; device indices are checked */
    fill(&A, 1);
    o = dev_opts(-1, 0);
    o.alg = LCL_ALG_CROUT;
    CHECK_STATUS(ctx, lcl_getrf(ctx, &A, ipiv, &info, &o), LCL_ERR_UNSUPPORTED);
    o.alg = LCL_ALG_BLOCKED;
    o.device = 2;
    CHECK_STATUS(ctx, lcl_getrf(ctx, &A, ipiv, &info, &o), LCL_ERR_INVALID_ARGUMENT);
    o.device = -2;
    CHECK_STATUS(ctx, lcl_potrf(ctx, LCL_LOWER, &A, &info, &o), LCL_ERR_INVALID_ARGUMENT);
    lcl_dense_free(&A);
}

/* device 1 alone gives what device 0 gives; a lcl_dmat lives on one device */
static void multi_devices(lcl_context *ctx) {
    lcl_dense A, F;
    lcl_dmat *M = NULL;
    int32_t p0[150], p1[150];
    int64_t info, i;
    lcl_dense_opts o0 = dev_opts(0, 0), o1 = dev_opts(1, 0);
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F64, LCL_COL_MAJOR, 150, 150));
    fill(&A, 0);
    same_lu(ctx, &o0, ctx, &o1, &A);
    CHECK_OK(ctx, lcl_dmat_upload(ctx, &A, &M));
    o1.device = -1;
    CHECK_STATUS(ctx, lcl_dmat_getrf(ctx, M, p0, &info, &o1), LCL_ERR_UNSUPPORTED);
    CHECK_MSG(strstr(lcl_last_error(ctx), "lives on one device") != NULL, "%s", lcl_last_error(ctx));
    CHECK_STATUS(ctx, lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, &o1), LCL_ERR_UNSUPPORTED);
    o1.device = 1;
    CHECK_STATUS(ctx, lcl_dmat_getrf(ctx, M, p0, &info, &o1), LCL_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(lcl_last_error(ctx), "lives on device 0") != NULL, "%s", lcl_last_error(ctx));
    CHECK_OK(ctx, lcl_dmat_getrf(ctx, M, p1, &info, &o0));
    CHECK_OK(ctx, factor_copy(ctx, 0, &A, &o0, &F, p0, &info, NULL, 0));
    lcl_dense_free(&F);
    /* a device without double precision cannot take part in a double split */
    CHECK(lt_cl_fp64(ctx, 1, 0));
    o1.device = -1;
    CHECK_STATUS(ctx, factor_copy(ctx, 0, &A, &o1, &F, p1, &info, NULL, 0), LCL_ERR_NO_FP64);
    CHECK_MSG(strstr(lcl_last_error(ctx), "device 1") != NULL, "%s", lcl_last_error(ctx));
    lt_cl_fp64(ctx, 1, 1);
    for (i = 0; i < 150; i++) CHECK(p0[i] == p1[i]);
    lcl_dmat_free(M);
    lcl_dense_free(&F);
    lcl_dense_free(&A);
}

/* the residual of A X = B (trans: A^T X = B) solved with the split factors M, B's 3 columns on device 0 */
static double split_solved(lcl_context *ctx, int chol, int trans, const lcl_dense *A, lcl_dmat *M, const int32_t *ipiv) {
    lcl_dense B, X, At;
    lcl_dmat *MB = NULL;
    int64_t i, j, n = A->rows;
    double r;
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &B, A->dtype, LCL_COL_MAJOR, n, 3));
    for (i = 0; i < n; i++) { lcl_dense_set(&B, i, 0, urand()); lcl_dense_set(&B, i, 1, 1.0); lcl_dense_set(&B, i, 2, (double)(i % 7) - 3.0); }
    copy_dense(ctx, &B, &X);
    CHECK_OK(ctx, lcl_dmat_upload(ctx, &X, &MB));
    CHECK_OK(ctx, chol ? lcl_dmat_potrs(ctx, LCL_LOWER, M, MB) : lcl_dmat_getrs(ctx, trans ? LCL_TRANS : LCL_NO_TRANS, M, ipiv, MB));
    CHECK_OK(ctx, lcl_dmat_download(ctx, MB, &X));
    copy_dense(ctx, A, &At);
    for (i = 0; trans && i < n; i++) for (j = 0; j < n; j++) lcl_dense_set(&At, i, j, lcl_dense_get(A, j, i));
    r = solve_residual(&At, &X, &B);
    lcl_dmat_free(MB);
    lcl_dense_free(&At);
    lcl_dense_free(&B);
    lcl_dense_free(&X);
    return r;
}
/* A matrix split over the devices where it lies (lcl_dmat_upload_split): factored there, it gives
   the host-array split's pivots and factors to the bit (the same panels, the same order), with
   small residuals; Cholesky's download leaves the other triangle of the destination alone. */
static void multi_resident(lcl_context *ctx) {
    static const int cases[][2] = {{1, 0}, {2, 0}, {17, 0}, {17, 5}, {100, 16}, {257, 0}, {257, 48}, {257, 130}};
    int p, l, c, op;
    for (p = 0; p < 2; p++)
        for (l = 0; l < 2; l++)
            for (c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++)
                for (op = 0; op < 2; op++) {
                    lcl_dtype dt = p ? LCL_F32 : LCL_F64;
                    int n = cases[c][0], i;
                    lcl_dense A, F, G;
                    lcl_dmat *M = NULL;
                    lcl_dense_opts o = dev_opts(-1, cases[c][1]);
                    int32_t *ipiv = (int32_t *)malloc(sizeof(int32_t) * (size_t)n), *jpiv = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
                    int64_t info = -1, jinfo = -1;
                    double r, tol = p ? 1e-5 : 1e-14;
                    char what[96];
                    snprintf(what, sizeof what, "resident %s %s %s n=%d block=%d", op ? "Cholesky" : "LU", p ? "f32" : "f64", l ? "row" : "col", n,
                             o.block);
                    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, dt, l ? LCL_ROW_MAJOR : LCL_COL_MAJOR, n, n));
                    fill(&A, op);
                    CHECK_OK(ctx, lcl_dmat_upload_split(ctx, &A, o.block, &M));
                    CHECK_OK(ctx, op ? lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, NULL) : lcl_dmat_getrf(ctx, M, ipiv, &info, NULL));
                    copy_dense(ctx, &A, &F);
                    CHECK_OK(ctx, lcl_dmat_download(ctx, M, &F));
                    CHECK_MSG(info == 0, "%s: info %lld", what, (long long)info);
                    r = op ? chol_residual(&A, &F, LCL_LOWER) : lu_residual(&A, &F, ipiv);
                    CHECK_MSG(r < tol, "%s: residual %.3g", what, r);
                    if (op) CHECK_MSG(max_diff(&A, &F, 2) == 0, "%s: the upper triangle of the destination changed", what);
                    CHECK_OK(ctx, factor_copy(ctx, op, &A, &o, &G, jpiv, &jinfo, NULL, 0));
                    for (i = 0; !op && i < n; i++) CHECK_MSG(ipiv[i] == jpiv[i], "%s: pivot %d is %d, host-array split %d", what, i, ipiv[i], jpiv[i]);
                    CHECK_MSG(max_diff(&F, &G, op) == 0, "%s: %.3g from the host-array split", what, max_diff(&F, &G, op));
                    if (n == 2 || n == 257 || c == 3) {   /* the split factors solve (LU: both ways) */
                        r = split_solved(ctx, op, 0, &A, M, ipiv);
                        CHECK_MSG(r < tol, "%s: solve residual %.3g", what, r);
                        if (!op) r = split_solved(ctx, 0, 1, &A, M, ipiv);
                        CHECK_MSG(r < tol, "%s: transposed solve residual %.3g", what, r);
                    }
                    lcl_dmat_free(M);
                    lcl_dense_free(&F);
                    lcl_dense_free(&G);
                    lcl_dense_free(&A);
                    free(ipiv);
                    free(jpiv);
                }
}
/* The split's own panel width in double (LCL_SPLIT_NB; 1024 with NVIDIA's tensor cores, unset on
   PoCL): a matrix uploaded split (either factorization may follow) and Cholesky of host arrays take
   it from twice it on (big_n on GPUs), an explicit block still first; LU of host arrays, single
   precision and smaller orders keep the one-device width. Factors through it equal those of
   block 48 to the bit and differ from the default's; they solve. */
static void split_factor(lcl_context *ctx, int op, const lcl_dense *A, int block, lcl_dense *F, int32_t *ipiv) {
    lcl_dmat *M = NULL;
    int64_t info = -1;
    double r;
    CHECK_OK(ctx, lcl_dmat_upload_split(ctx, A, block, &M));
    CHECK_OK(ctx, op ? lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, NULL) : lcl_dmat_getrf(ctx, M, ipiv, &info, NULL));
    copy_dense(ctx, A, F);
    CHECK_OK(ctx, lcl_dmat_download(ctx, M, F));
    r = op ? chol_residual(A, F, LCL_LOWER) : lu_residual(A, F, ipiv);
    CHECK_MSG(info == 0 && r < (A->dtype == LCL_F32 ? 1e-5 : 1e-14), "%s n %lld block %d: info %lld, residual %.3g", op ? "Cholesky" : "LU",
              (long long)A->rows, block, (long long)info, r);
    r = split_solved(ctx, op, 0, A, M, ipiv);
    CHECK_MSG(r < (A->dtype == LCL_F32 ? 1e-5 : 1e-14), "%s n %lld: solve residual %.3g", op ? "Cholesky" : "LU", (long long)A->rows, r);
    lcl_dmat_free(M);
}
static void multi_split_nb(lcl_context *ctx) {
    lcl_context *c48;
    int op, n, p;
    setenv("LCL_SPLIT_NB", "48", 1);
    c48 = lt_ocl("Portable Computing Language");
    unsetenv("LCL_SPLIT_NB");
    if (!c48 || lcl_context_num_devices(c48) != 2) {
        CHECK_MSG(0, "no second two-device context");
        lcl_context_destroy(c48);
        return;
    }
    for (p = 0; p < 2; p++)
        for (n = 90; n <= 200; n += 110)
            for (op = 0; op < 2; op++) {
                lcl_dense A, F, G, H;
                lcl_dense_opts o = dev_opts(-1, 0), o48 = dev_opts(-1, 48);
                int32_t ipiv[200], jpiv[200];
                int64_t info = -1;
                int takes = !p && n >= 96;
                if (p && n < 96) continue;
                CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, p ? LCL_F32 : LCL_F64, LCL_COL_MAJOR, n, n));
                fill(&A, op);
                split_factor(c48, op, &A, 0, &F, ipiv);
                split_factor(c48, op, &A, 48, &G, jpiv);
                split_factor(ctx, op, &A, 0, &H, jpiv);
                CHECK_MSG((max_diff(&F, &G, op) == 0) == takes, "%s %s n %d: the upload %s block 48", op ? "Cholesky" : "LU", p ? "f32" : "f64", n,
                          takes ? "ignores" : "takes");
                CHECK_MSG((max_diff(&F, &H, op) == 0) == !takes, "%s %s n %d: LCL_SPLIT_NB %s", op ? "Cholesky" : "LU", p ? "f32" : "f64", n,
                          takes ? "changed nothing" : "changed the factors");
                lcl_dense_free(&F); lcl_dense_free(&G); lcl_dense_free(&H);
                /* host arrays: Cholesky takes the width, LU keeps its own */
                CHECK_OK(c48, factor_copy(c48, op, &A, &o, &F, ipiv, &info, NULL, 0));
                CHECK_OK(ctx, factor_copy(ctx, op, &A, &o, &H, jpiv, &info, NULL, 0));
                CHECK_MSG((max_diff(&F, &H, op) == 0) == !(takes && op), "%s %s n %d: host arrays with LCL_SPLIT_NB", op ? "Cholesky" : "LU",
                          p ? "f32" : "f64", n);
                if (takes && op) {
                    CHECK_OK(ctx, factor_copy(ctx, op, &A, &o48, &G, jpiv, &info, NULL, 0));
                    CHECK_MSG(max_diff(&F, &G, op) == 0, "Cholesky n %d: host arrays not as block 48", n);
                    lcl_dense_free(&G);
                }
                lcl_dense_free(&F); lcl_dense_free(&H);
                lcl_dense_free(&A);
            }
    lcl_context_destroy(c48);
}
/* a split matrix's errors: singular and not SPD (info as one device), NaN, the upper Cholesky
   (unsupported), a split B, a non-square matrix, a negative block, a wrong download */
static void multi_resident_errors(lcl_context *ctx, lcl_context *ser) {
    lcl_dense A, B, F, R;
    lcl_dmat *M = NULL, *MB = NULL;
    int32_t ipiv[80], jpiv[80];
    int64_t info = -1, jinfo = -1, i;
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F64, LCL_COL_MAJOR, 80, 80));
    fill(&A, 0);
    for (i = 0; i < 80; i++) lcl_dense_set(&A, i, 45, 0.0);
    CHECK_OK(ctx, lcl_dmat_upload_split(ctx, &A, 16, &M));
    CHECK_STATUS(ctx, lcl_dmat_getrf(ctx, M, ipiv, &info, NULL), LCL_ERR_SINGULAR);
    CHECK_MSG(info == 46 && strstr(lcl_last_error(ctx), "lcl_dmat_getrf: U(45,45) is exactly zero") != NULL, "info %lld: %s", (long long)info,
              lcl_last_error(ctx));
    CHECK(factor_copy(ser, 0, &A, NULL, &F, jpiv, &jinfo, NULL, 0) == LCL_ERR_SINGULAR && jinfo == 46);
    for (i = 0; i < 80; i++) CHECK(ipiv[i] == jpiv[i]);
    lcl_dense_free(&F);
    /* B itself split, an upper Cholesky solve, B of another size: refused */
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &B, LCL_F64, LCL_COL_MAJOR, 80, 1));
    CHECK_OK(ctx, lcl_dmat_upload(ctx, &B, &MB));
    CHECK_STATUS(ctx, lcl_dmat_getrs(ctx, LCL_NO_TRANS, MB, ipiv, M), LCL_ERR_INVALID_ARGUMENT);
    {
        lcl_dmat *MS = NULL;
        CHECK_OK(ctx, lcl_dmat_upload_split(ctx, &A, 16, &MS));
        CHECK_STATUS(ctx, lcl_dmat_getrs(ctx, LCL_NO_TRANS, M, ipiv, MS), LCL_ERR_UNSUPPORTED);
        CHECK_MSG(strstr(lcl_last_error(ctx), "B is split over devices") != NULL, "%s", lcl_last_error(ctx));
        lcl_dmat_free(MS);
    }
    CHECK_STATUS(ctx, lcl_dmat_potrs(ctx, LCL_UPPER, M, MB), LCL_ERR_UNSUPPORTED);
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &R, LCL_F64, LCL_COL_MAJOR, 80, 79));
    CHECK_STATUS(ctx, lcl_dmat_download(ctx, M, &R), LCL_ERR_INVALID_ARGUMENT);
    lcl_dense_free(&R);
    lcl_dmat_free(M);
    M = NULL;
    {   /* a 0 x 0 matrix: nothing to split (it read past an empty block list and divided by 0) */
        lcl_dense Z;
        memset(&Z, 0, sizeof Z);
        Z.dtype = LCL_F64; Z.layout = LCL_COL_MAJOR; Z.ld = 1;
        CHECK_OK(ctx, lcl_dmat_upload_split(ctx, &Z, 16, &M));
        CHECK_OK(ctx, lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, NULL));
        CHECK(info == 0);
        CHECK_OK(ctx, lcl_dmat_download(ctx, M, &Z));
        lcl_dmat_free(M);
        M = NULL;
    }
    /* not SPD at order 61, on the second device's block; NaN in what Cholesky reads, not above */
    fill(&A, 1);
    lcl_dense_set(&A, 60, 60, -5.0);
    CHECK_OK(ctx, lcl_dmat_upload_split(ctx, &A, 16, &M));
    CHECK_STATUS(ctx, lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, NULL), LCL_ERR_NOT_SPD);
    CHECK_MSG(info == 61, "info %lld: %s", (long long)info, lcl_last_error(ctx));
    CHECK_STATUS(ctx, lcl_dmat_potrf(ctx, LCL_UPPER, M, &info, NULL), LCL_ERR_UNSUPPORTED);
    lcl_dmat_free(M);
    fill(&A, 1);
    lcl_dense_set(&A, 3, 70, NAN);
    CHECK_OK(ctx, lcl_dmat_upload_split(ctx, &A, 16, &M));
    CHECK_OK(ctx, lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, NULL));
    lcl_dmat_free(M);
    lcl_dense_set(&A, 70, 3, NAN);
    CHECK_OK(ctx, lcl_dmat_upload_split(ctx, &A, 16, &M));
    CHECK_STATUS(ctx, lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, NULL), LCL_ERR_NAN);
    CHECK_STATUS(ctx, lcl_dmat_getrf(ctx, M, ipiv, &info, NULL), LCL_ERR_NAN);
    lcl_dmat_free(M);
    M = NULL;
    {   /* each device checks its columns in one launch, from its first block's diagonal (blocks of
           16 on two devices): the diagonals of later blocks, and just above them */
        static const int at[][3] = {{16, 16, 1}, {15, 16, 0}, {31, 16, 1}, {32, 33, 0}, {33, 33, 1}, {32, 47, 0}, {47, 47, 1}, {50, 60, 0},
                                    {60, 50, 1}, {63, 63, 1}, {64, 79, 0}, {79, 79, 1}, {79, 0, 1}, {0, 79, 0}};
        int c;
        for (c = 0; c < (int)(sizeof at / sizeof at[0]); c++) {
            fill(&A, 1);
            lcl_dense_set(&A, at[c][0], at[c][1], NAN);
            CHECK_OK(ctx, lcl_dmat_upload_split(ctx, &A, 16, &M));
            CHECK_MSG(lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, NULL) == (at[c][2] ? LCL_ERR_NAN : LCL_OK), "NaN at (%d, %d): %s", at[c][0], at[c][1],
                      lcl_last_error(ctx));
            lcl_dmat_free(M);
            M = NULL;
        }
    }
    CHECK_STATUS(ctx, lcl_dmat_upload_split(ctx, &A, -1, &M), LCL_ERR_INVALID_ARGUMENT);
    CHECK(M == NULL);
    CHECK_STATUS(ctx, lcl_dmat_upload_split(ctx, &B, 0, &M), LCL_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(lcl_last_error(ctx), "square") != NULL, "%s", lcl_last_error(ctx));
    lcl_dmat_free(MB);
    lcl_dense_free(&B);
    lcl_dense_free(&A);
}

/* Faults over the split path: each OpenCL call it makes fails once in turn, then each host
   allocation; every run ends with a clear status, leaks nothing, and the context works again. */
typedef struct multi_case { lcl_dense A, B, F, X; int32_t ipiv[100]; } multi_case;
/* host arrays (opts.device = -1), or resident: a split device matrix factored and solved where
   it lies, B on device 0 */
static lcl_status multi_run(lcl_context *ctx, multi_case *m, int chol, int resident, double *resid) {
    lcl_dense_opts o = dev_opts(-1, 24);
    int64_t info;
    lcl_status st;
    size_t nbytes = (size_t)(m->A.rows * m->A.cols) * sizeof(double);
    memcpy(m->F.data, m->A.data, nbytes);
    memcpy(m->X.data, m->B.data, (size_t)m->B.rows * sizeof(double));
    if (resident) {
        lcl_dmat *M = NULL, *MB = NULL;
        st = lcl_dmat_upload_split(ctx, &m->A, 24, &M);
        if (st == LCL_OK) st = chol ? lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, NULL) : lcl_dmat_getrf(ctx, M, m->ipiv, &info, NULL);
        if (st == LCL_OK) st = lcl_dmat_upload(ctx, &m->B, &MB);
        if (st == LCL_OK) st = chol ? lcl_dmat_potrs(ctx, LCL_LOWER, M, MB) : lcl_dmat_getrs(ctx, LCL_NO_TRANS, M, m->ipiv, MB);
        if (st == LCL_OK) st = lcl_dmat_download(ctx, MB, &m->X);
        lcl_dmat_free(M);
        lcl_dmat_free(MB);
    } else {
        st = chol ? lcl_potrf(ctx, LCL_LOWER, &m->F, &info, &o) : lcl_getrf(ctx, &m->F, m->ipiv, &info, &o);
        if (st == LCL_OK) st = chol ? lcl_potrs(ctx, LCL_LOWER, &m->F, &m->X) : lcl_getrs(ctx, LCL_NO_TRANS, &m->F, m->ipiv, &m->X);
    }
    *resid = st == LCL_OK ? solve_residual(&m->A, &m->X, &m->B) : 1;
    return st;
}
/* multi_run as an lt_cl_sweep run: -1 for a wrong result */
typedef struct multi_arg { multi_case *m; int chol, resident; } multi_arg;
static int multi_op(lcl_context *ctx, void *u) {
    const multi_arg *a = (const multi_arg *)u;
    double r;
    lcl_status st = multi_run(ctx, a->m, a->chol, a->resident, &r);
    return st == LCL_OK && !(r < 1e-14) ? -1 : (int)st;
}
static void multi_faults(lcl_context *ctx) {
    multi_case m;
    multi_arg a;
    int c, chol, res, k, runs = 0;
    unsigned reached = 0;
    const char *missed;
    int64_t i;
    double r;
    for (c = 0; c < 4; c++) {   /* host arrays, then the resident split; LU, Cholesky */
        chol = c % 2;
        res = c / 2;
        CHECK_OK(ctx, lcl_dense_alloc(ctx, &m.A, LCL_F64, LCL_COL_MAJOR, 100, 100));
        fill(&m.A, chol);
        CHECK_OK(ctx, lcl_dense_alloc(ctx, &m.B, LCL_F64, LCL_COL_MAJOR, 100, 1));
        for (i = 0; i < 100; i++) lcl_dense_set(&m.B, i, 0, urand());
        copy_dense(ctx, &m.A, &m.F);
        copy_dense(ctx, &m.B, &m.X);
        a.m = &m;
        a.resident = res;
        a.chol = chol;
        runs += lt_cl_sweep(res ? (chol ? "resident potrf" : "resident getrf") : chol ? "potrf" : "getrf", ctx, LT_CL_SPLIT | LT_CL_OPTBUF, 1000,
                            ": lcl_", multi_op, &a, &reached);
        for (k = 1; k < 1000; k++) {
            long before = lt_alloc_outstanding(), calls;
            lcl_status st;
            lt_alloc_fail_at(k);
            st = multi_run(ctx, &m, chol, res, &r);
            calls = lt_alloc_calls();
            lt_alloc_fail_at(0);
            runs++;
            if (calls < k) { CHECK(st == LCL_OK && r < 1e-14); break; }
            if (k == 1) fprintf(stderr, "  allocation #1 -> %s: %.160s\n", lcl_status_string(st), lcl_last_error(ctx));
            CHECK_MSG(st == LCL_ERR_OUT_OF_MEMORY, "%s with allocation %d failing: %s (%s)", chol ? "potrf" : "getrf", k, lcl_status_string(st),
                      lcl_last_error(ctx));
            CHECK_MSG(lt_alloc_outstanding() == before, "allocation %d failing: %ld host blocks leaked", k, lt_alloc_outstanding() - before);
        }
        lcl_dense_free(&m.A);
        lcl_dense_free(&m.B);
        lcl_dense_free(&m.F);
        lcl_dense_free(&m.X);
    }
    missed = lt_cl_unreached(reached, LT_CL_SPLIT);
    CHECK_MSG(missed == NULL, "%s: never called", missed);
    fprintf(stderr, "  %d faulted split runs\n", runs);
}

/* The one-launch LU panel (lcl_panel_grid, a grid barrier per column) against the per-column
   launches, on PoCL with the kernel built portably: the same arithmetic, so the same bits.
   Child "densegrid": a hang (work-groups not all resident) fails the test, not the suite. */
static lcl_context *grid_ctx(int grid) {
    lcl_context_desc d;
    lcl_context *c = NULL;
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_OPENCL;
    d.build_options = "-DLCL_GRID_PORTABLE";
    if (grid) setenv("LCL_GRID", "1", 1);
    else unsetenv("LCL_GRID");
    if (lcl_context_create(&d, &c) != LCL_OK) {
        fprintf(stderr, "  %s\n", lcl_last_error(c));
        lcl_context_destroy(c);
        c = NULL;
    }
    unsetenv("LCL_GRID");
    return c;
}
static int child_grid(void) {
    static const int sizes[] = {1, 2, 17, 100, 257};
    lcl_context *g = grid_ctx(1), *s = grid_ctx(0);
    int si, p, blk, sing;
    alarm(300);
    if (!g || !s) { lcl_context_destroy(g); lcl_context_destroy(s); return 1; }
    lt_checks_failed = 0;
    for (si = 0; si < 5; si++)
        for (p = 0; p < 2; p++)
            for (blk = 0; blk < 3; blk++)
                for (sing = 0; sing < 2; sing++) {
                    int n = sizes[si], i, j;
                    lcl_dtype dt = p ? LCL_F32 : LCL_F64;
                    lcl_dense A, B;
                    int32_t *p1 = (int32_t *)malloc((size_t)n * sizeof(int32_t)), *p2 = (int32_t *)malloc((size_t)n * sizeof(int32_t));
                    int64_t i1 = -1, i2 = -1;
                    lcl_dense_opts o = dev_opts(0, blk == 1 ? 16 : blk == 2 ? 100 : 0);
                    lcl_status st1, st2;
                    CHECK_OK(g, lcl_dense_alloc(g, &A, dt, LCL_ROW_MAJOR, n, n));
                    CHECK_OK(g, lcl_dense_alloc(g, &B, dt, LCL_ROW_MAJOR, n, n));
                    for (i = 0; i < n; i++)
                        for (j = 0; j < n; j++) {
                            double v = urand() - 0.5;
                            if (sing && n > 2 && j == n / 2) v = 0;   /* a zero column: info, no swap */
                            lcl_dense_set(&A, i, j, v);
                            lcl_dense_set(&B, i, j, v);
                        }
                    st1 = lcl_getrf(g, &A, p1, &i1, &o);
                    st2 = lcl_getrf(s, &B, p2, &i2, &o);
                    CHECK_MSG(st1 == st2 && i1 == i2, "n=%d %s block %d: status %d/%d info %lld/%lld", n, p ? "f32" : "f64", o.block, st1, st2,
                              (long long)i1, (long long)i2);
                    CHECK_MSG(!memcmp(p1, p2, (size_t)n * sizeof(int32_t)), "n=%d %s block %d: pivots differ", n, p ? "f32" : "f64", o.block);
                    CHECK_MSG(max_diff(&A, &B, 0) == 0, "n=%d %s block %d: factors differ by %.3g", n, p ? "f32" : "f64", o.block, max_diff(&A, &B, 0));
                    lcl_dense_free(&A);
                    lcl_dense_free(&B);
                    free(p1);
                    free(p2);
                }
    lcl_context_destroy(g);
    lcl_context_destroy(s);
    return lt_checks_failed ? 1 : 0;
}
static void test_dense_opencl_grid_panel(void) {
    char cmd[1200];
    int rc, n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) { lt_skip("no OpenCL device"); return; }
    snprintf(cmd, sizeof cmd, "LCL_DEVICE=cpu '%s' --child densegrid", lt_self);
    rc = system(cmd);
    /* PoCL 5.0's compiler asserts on the portable build (WorkitemLoops, seen on the GPU machine);
       production builds the kernel only with NVIDIA's compiler, where the dense tests exercise it */
    if (rc != -1 && WIFSIGNALED(rc) && WTERMSIG(rc) == SIGABRT) { lt_skip("PoCL aborted compiling the portable lcl_panel_grid"); return; }
    if (rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 128 + SIGABRT) { lt_skip("PoCL aborted compiling the portable lcl_panel_grid"); return; }
    CHECK_MSG(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "the grid-panel child failed (%d)", rc);
}

/* child (POCL_DEVICES="pthread pthread"): "dense2dev" the results, "dense2devfaults" the faults */
int lt_child_dense(const char *name) {
    lcl_context *ctx, *ser = NULL;
    lcl_context_desc d;
    if (!strcmp(name, "densegrid")) return child_grid();
    ctx = lt_ocl("Portable Computing Language");   /* PoCL 5 names its devices cpu-..., 3 pthread-... */
    alarm(600);   /* a hang fails the test instead of the suite */
    if (!ctx || lcl_context_num_devices(ctx) != 2) {
        fprintf(stderr, "  want 2 devices, the context has %d\n", ctx ? lcl_context_num_devices(ctx) : 0);
        lcl_context_destroy(ctx);
        return 1;
    }
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    lcl_context_create(&d, &ser);
    lt_checks_failed = 0;
    if (!strcmp(name, "dense2devfaults")) multi_faults(ctx);
    else {
        multi_sweep(ctx, ser);
        multi_info(ctx, ser);
        multi_devices(ctx);
        multi_resident(ctx);
        multi_split_nb(ctx);
        multi_resident_errors(ctx, ser);
    }
    lcl_context_destroy(ser);
    lcl_context_destroy(ctx);
    CHECK_MSG(lt_alloc_outstanding() == 0, "%ld library blocks not freed", lt_alloc_outstanding());
    return lt_checks_failed ? 1 : 0;
}
/* env: "" (one shared cl_context, the default) or "LCL_SHARED_CONTEXT=0 " (one per device) */
static void run_child(const char *name, const char *env) {
    char cmd[1200];
    int rc, n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) { lt_skip("no OpenCL device"); return; }
    /* LeakSanitizer's exit-time tracer crashes in this child when it is started from the test
       (signal 11 in the tracer, not in the library; run alone it passes): the library's own
       blocks are counted above instead */
    snprintf(cmd, sizeof cmd, "%sPOCL_DEVICES='pthread pthread' ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" '%s' --child %s",
             env, lt_self, name);
    rc = lt_system_pocl(cmd);
    CHECK_MSG(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "the two-device child %s (%s) failed (%d)", name, env[0] ? env : "shared context", rc);
}
static void test_dense_opencl_split(void) {
    run_child("dense2dev", "");
    run_child("dense2dev", "LCL_SHARED_CONTEXT=0 ");
}
static void test_dense_opencl_split_faults(void) { run_child("dense2devfaults", ""); }

/* opts.device -1 in a one-device context is device 0; the CPU backends ignore opts.device */
static void test_dense_opencl_split_one_device(void) {
    lcl_context *ctx = lt_ocl(NULL), *cpu = NULL;
    lcl_context_desc d;
    lcl_dense A;
    int32_t p1[120];
    int64_t info;
    int b;
    lcl_dense_opts o0 = dev_opts(0, 0), all = dev_opts(-1, 0), far = dev_opts(5, 0), bad = dev_opts(-2, 0);
    for (b = 0; b < 3; b++) {
        lcl_context *c = ctx;
        if (b < 2) {
            memset(&d, 0, sizeof d);
            d.backend = b ? LCL_BACKEND_OPENMP : LCL_BACKEND_SERIAL;
            if (!lcl_backend_compiled(d.backend)) continue;
            CHECK_OK(cpu, lcl_context_create(&d, &cpu));
            c = cpu;
        } else if (!ctx || lcl_context_num_devices(ctx) != 1) continue;
        CHECK_OK(c, lcl_dense_alloc(c, &A, LCL_F64, LCL_ROW_MAJOR, 120, 120));
        fill(&A, 0);
        same_lu(c, &o0, c, &all, &A);
        if (b < 2) same_lu(c, &o0, c, &far, &A);   /* any index: there are no devices to pick */
        else {       /* a device matrix lives on device 0: -1 names it in a one-device context */
            lcl_dmat *M = NULL;
            CHECK_OK(c, lcl_dmat_upload(c, &A, &M));
            CHECK_OK(c, lcl_dmat_getrf(c, M, p1, &info, &all));
            lcl_dmat_free(M);
        }
        CHECK_STATUS(c, lcl_getrf(c, &A, p1, &info, &bad), LCL_ERR_INVALID_ARGUMENT);
        lcl_dense_free(&A);
        lcl_context_destroy(cpu);
        cpu = NULL;
    }
    lcl_context_destroy(ctx);
}

/* An auto context whose OpenCL devices are all CPUs factors on the CPU backends (and SpMV still
   uses the devices); asking for OpenCL factors on the device. */
static int dense_cpu_notes;
static void dense_cpu_log(void *user, lcl_log_level lv, const char *m) {
    (void)user;
    (void)lv;
    if (strstr(m, "dense factorizations and solves use the")) dense_cpu_notes++;
}
static void test_dense_opencl_auto_backend(void) {
    lcl_context *oc = lt_ocl(NULL), *ac = NULL, *cc = NULL;
    lcl_context_desc d;
    lcl_device_info di;
    lcl_dense A, F1, F2;
    lcl_dmat *M = NULL;
    int32_t p1[150], p2[150];
    int64_t info, i;
    int cpu = 1;
    lcl_dense_opts far = dev_opts(7, 0);
    CHECK(lcl_dense_backend(NULL) == LCL_BACKEND_SERIAL);
    if (!oc) { lt_skip("no OpenCL device"); return; }
    CHECK(lcl_dense_backend(oc) == LCL_BACKEND_OPENCL);   /* asked for: factors on the device */
    lcl_context_destroy(oc);
    memset(&d, 0, sizeof d);
    d.ignore_env = 1;
    d.cache_dir = getenv("LT_CACHE");
    d.log = dense_cpu_log;
    dense_cpu_notes = 0;
    CHECK_OK(ac, lcl_context_create(&d, &ac));
    CHECK(lcl_context_backend(ac) == LCL_BACKEND_OPENCL);
    for (i = 0; i < lcl_context_num_devices(ac); i++) cpu &= lcl_context_device(ac, (int)i, &di) == LCL_OK && di.type == LCL_DEVICE_CPU;
    if (!cpu) {   /* a GPU: auto factors there */
        CHECK(lcl_dense_backend(ac) == LCL_BACKEND_OPENCL && dense_cpu_notes == 0);
        lcl_context_destroy(ac);
        return;
    }
    CHECK(lcl_dense_backend(ac) == (lcl_backend_compiled(LCL_BACKEND_OPENMP) ? LCL_BACKEND_OPENMP : LCL_BACKEND_SERIAL));
    CHECK_MSG(dense_cpu_notes == 1, "%d log lines on the dense backend", dense_cpu_notes);
    memset(&d, 0, sizeof d);
    d.backend = lcl_dense_backend(ac);
    CHECK_OK(cc, lcl_context_create(&d, &cc));
    /* the same results as that backend's own context, to the bit */
    CHECK_OK(ac, lcl_dense_alloc(ac, &A, LCL_F64, LCL_COL_MAJOR, 150, 150));
    fill(&A, 0);
    same_lu(ac, &far, cc, NULL, &A);   /* device indices mean nothing here */
    CHECK_OK(cc, factor_copy(cc, 0, &A, NULL, &F2, p2, &info, NULL, 0));
    /* device-resident matrices stay in host memory */
    CHECK_OK(ac, lcl_dmat_upload(ac, &A, &M));
    CHECK_OK(ac, lcl_dmat_getrf(ac, M, p1, &info, &far));
    copy_dense(ac, &A, &F1);
    CHECK_OK(ac, lcl_dmat_download(ac, M, &F1));
    CHECK(max_diff(&F1, &F2, 0) == 0);
    lcl_dmat_free(M);
    {   /* SpMV still runs on the device */
        lcl_coo C;
        lcl_spmat *S = NULL;
        lcl_spmat_info si;
        CHECK_OK(ac, lcl_dense_to_coo(ac, &A, &C));
        CHECK_OK(ac, lcl_spmat_from_coo(ac, &C, NULL, &S));
        CHECK_OK(ac, lcl_spmat_describe(S, &si));
        CHECK(si.devices == 1);
        lcl_spmat_free(S);
        lcl_coo_free(&C);
    }
    lcl_dense_free(&A);
    lcl_dense_free(&F1);
    lcl_dense_free(&F2);
    lcl_context_destroy(cc);
    lcl_context_destroy(ac);
}

void lt_suite_dense_opencl(void) {
    LT_RUN(test_dense_opencl_lu);
    LT_RUN(test_dense_opencl_cholesky);
    LT_RUN(test_dense_opencl_potf2_inv);
    LT_RUN(test_dense_opencl_matches_serial);
    LT_RUN(test_dense_opencl_bad_input);
    LT_RUN(test_dense_opencl_nan_scan);
    LT_RUN(test_dense_opencl_dmat);
    LT_RUN(test_dense_opencl_grid_panel);
    LT_RUN(test_dense_opencl_split);
    LT_RUN(test_dense_opencl_split_faults);
    LT_RUN(test_dense_opencl_split_one_device);
    LT_RUN(test_dense_opencl_auto_backend);
}
