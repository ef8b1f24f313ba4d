/* test_dense.c -- dense LU and Cholesky on the CPU backends: every algorithm x precision x layout x
   backend x size against references computed here (residuals of P A = L U and A = L L^T, solve
   residuals), the worked 3x3 system, pivoting, exact info for singular and non-SPD matrices,
   NaN/Inf, argument checks, lcl_dmat, allocation failures and real SPD matrices (tests/data/matrices). */
#include "lt.h"
#include <stdlib.h>
#include <stdint.h>
#include <float.h>

static lcl_context *dctx(lcl_backend b, int threads) { return lt_context(b, NULL, NULL, NULL, threads); }

static uint64_t rs_state = 0x9E3779B97F4A7C15ULL;
static double urand(void) {     /* xorshift64*, uniform in [-0.5, 0.5) */
    rs_state ^= rs_state >> 12;
    rs_state ^= rs_state << 25;
    rs_state ^= rs_state >> 27;
    return (double)((rs_state * 2685821657736338717ULL) >> 11) / 9007199254740992.0 - 0.5;
}

/* kinds of test matrix */
enum { M_RANDOM, M_DIAGDOM, M_SPD };
static void fill(double *a, int64_t n, int kind) {
    int64_t i, j;
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++) a[i + j * n] = urand();
    if (kind == M_SPD)
        for (j = 0; j < n; j++)
            for (i = 0; i < j; i++) a[j + i * n] = a[i + j * n];
    if (kind != M_RANDOM)
        for (i = 0; i < n; i++) a[i + i * n] += (double)n;
}
/* an lcl_dense of layout lay holding the column-major double array a (ld padded by pad) */
static int mk(lcl_dense *m, lcl_dtype dt, lcl_layout lay, int64_t rows, int64_t cols, int64_t pad, const double *a) {
    int64_t ld = (lay == LCL_COL_MAJOR ? rows : cols) + pad, i, j;
    size_t cnt = (size_t)(ld > 0 ? ld : 1) * (size_t)((lay == LCL_COL_MAJOR ? cols : rows) > 0 ? (lay == LCL_COL_MAJOR ? cols : rows) : 1);
    void *data = calloc(cnt, dt == LCL_F32 ? sizeof(float) : sizeof(double));
    if (!data) return 0;
    if (ld < 1) ld = 1;
    if (lcl_dense_wrap(NULL, m, dt, lay, rows, cols, ld, data) != LCL_OK) { free(data); return 0; }
    if (a)
        for (j = 0; j < cols; j++)
            for (i = 0; i < rows; i++) lcl_dense_set(m, i, j, a[i + j * rows]);
    return 1;
}
static void unmk(lcl_dense *m) { free(m->data); memset(m, 0, sizeof *m); }
static double *to_d(const lcl_dense *m) {   /* column-major double copy */
    double *a = (double *)malloc(sizeof(double) * (size_t)(m->rows * m->cols > 0 ? m->rows * m->cols : 1));
    int64_t i, j;
    for (j = 0; j < m->cols; j++)
        for (i = 0; i < m->rows; i++) a[i + j * m->rows] = lcl_dense_get(m, i, j);
    return a;
}
static double amax(const double *a, int64_t cnt) {
    double m = 0;
    int64_t i;
    for (i = 0; i < cnt; i++) if (fabs(a[i]) > m) m = fabs(a[i]);
    return m;
}
static double eps_of(lcl_dtype dt) { return dt == LCL_F32 ? (double)FLT_EPSILON : DBL_EPSILON; }

/* max |P A - L U| / max |A|; unit-diagonal L (or unit U for Crout). Exactly for n <= 100, else on
   random combinations of the columns ((P A - L U) v for three random v). */
static double lu_resid(int64_t n, const double *A, const double *F, const int32_t *ipiv, int unit_u) {
    double *PA = (double *)malloc(sizeof(double) * (size_t)(n * n > 0 ? n * n : 1)), worst = 0, an = amax(A, n * n);
    int64_t i, j, k, t;
    memcpy(PA, A, sizeof(double) * (size_t)(n * n));
    for (i = 0; i < n; i++)
        if (ipiv[i] != i)
            for (j = 0; j < n; j++) { double x = PA[i + j * n]; PA[i + j * n] = PA[ipiv[i] + j * n]; PA[ipiv[i] + j * n] = x; }
#define L_(i, k) ((i) == (k) ? (unit_u ? F[(i) + (k) * n] : 1.0) : (i) > (k) ? F[(i) + (k) * n] : 0.0)
#define U_(k, j) ((k) == (j) ? (unit_u ? 1.0 : F[(k) + (j) * n]) : (k) < (j) ? F[(k) + (j) * n] : 0.0)
    if (n <= 100) {
        for (j = 0; j < n; j++)
            for (i = 0; i < n; i++) {
                double s = 0;
                for (k = 0; k <= (i < j ? i : j); k++) s += L_(i, k) * U_(k, j);
                if (fabs(s - PA[i + j * n]) > worst) worst = fabs(s - PA[i + j * n]);
            }
    } else {
        double *v = (double *)malloc(sizeof(double) * (size_t)n), *u = (double *)malloc(sizeof(double) * (size_t)n);
        for (t = 0; t < 3; t++) {
            double vn = 0;
            for (j = 0; j < n; j++) { v[j] = urand(); if (fabs(v[j]) > vn) vn = fabs(v[j]); }
            for (k = 0; k < n; k++) { double s = 0; for (j = k; j < n; j++) s += U_(k, j) * v[j]; u[k] = s; }
            for (i = 0; i < n; i++) {
                double s = 0, r = 0;
                for (k = 0; k <= i; k++) s += L_(i, k) * u[k];
                for (j = 0; j < n; j++) r += PA[i + j * n] * v[j];
                if (fabs(s - r) / (vn * (double)n) > worst) worst = fabs(s - r) / (vn * (double)n);
            }
        }
        free(v);
        free(u);
    }
#undef L_
#undef U_
    free(PA);
    return an > 0 ? worst / an : worst;
}
/* max |A - L L^T| / max |A| over the lower triangle (upper: |A - U^T U| over the upper) */
static double chol_resid(int64_t n, const double *A, const double *F, int upper) {
    double worst = 0, an = amax(A, n * n);
    int64_t i, j, k;
    for (j = 0; j < n; j++)
        for (i = j; i < n; i++) {
            double s = 0, a = upper ? A[j + i * n] : A[i + j * n];
            for (k = 0; k <= j; k++) s += upper ? F[k + i * n] * F[k + j * n] : F[i + k * n] * F[j + k * n];
            if (fabs(s - a) > worst) worst = fabs(s - a);
        }
    return an > 0 ? worst / an : worst;
}
/* ||B - op(A) X||_inf / (||A||_inf ||X||_inf + ||B||_inf), worst column */
static double solve_resid(int64_t n, int64_t nrhs, const double *A, int trans, const double *X, const double *B) {
    double worst = 0, an = 0;
    int64_t i, j, c;
    for (i = 0; i < n; i++) {
        double s = 0;
        for (j = 0; j < n; j++) s += fabs(trans ? A[j + i * n] : A[i + j * n]);
        if (s > an) an = s;
    }
    for (c = 0; c < nrhs; c++) {
        double rm = 0, xm = amax(X + c * n, n), bm = amax(B + c * n, n), q;
        for (i = 0; i < n; i++) {
            double r = B[i + c * n];
            for (j = 0; j < n; j++) r -= (trans ? A[j + i * n] : A[i + j * n]) * X[j + c * n];
            if (fabs(r) > rm) rm = fabs(r);
        }
        q = rm / (an * xm + bm);
        if (q > worst) worst = q;
    }
    return worst;
}

static const int64_t sizes[] = {0, 1, 2, 3, 17, 64, 100, 257, 300};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

/* one LU configuration; returns the worst of the two residuals relative to the tolerance (<= 1 ok) */
static void lu_case(lcl_context *ctx, const char *bname, lcl_dtype dt, lcl_layout lay, int64_t n, lcl_dense_alg alg, int block) {
    int kind = (alg == LCL_ALG_UNBLOCKED || alg == LCL_ALG_CROUT) ? M_DIAGDOM : M_RANDOM;
    double *A = (double *)malloc(sizeof(double) * (size_t)(n * n > 0 ? n * n : 1)), *F, *B, *X, r1, r2, tol;
    int32_t *ipiv = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1));
    int64_t info = -7, i, nrhs = 3;
    lcl_dense M, Bm;
    lcl_dense_opts o;
    int trans;
    memset(&o, 0, sizeof o);
    o.alg = alg;
    o.block = block;
    fill(A, n, kind);
    for (i = 0; i < n; i++) ipiv[i] = -1;
    if (!mk(&M, dt, lay, n, n, 3, A)) { CHECK(0); free(A); free(ipiv); return; }
    free(A);
    A = to_d(&M);   /* the matrix as stored (rounded to float) */
    CHECK_OK(ctx, lcl_getrf(ctx, &M, ipiv, &info, &o));
    CHECK(info == 0);
    for (i = 0; i < n; i++) CHECK(ipiv[i] >= i && ipiv[i] < n);
    F = to_d(&M);
    tol = 2.0 * (double)(n > 4 ? n : 4) * eps_of(dt);
    r1 = lu_resid(n, A, F, ipiv, 0);   /* Crout too: getrf returns LAPACK's unit-L form */
    CHECK_MSG(r1 <= tol, "%s %s %s n=%lld alg=%d block=%d: LU residual %.3g > %.3g", bname, dt == LCL_F32 ? "float" : "double",
              lay == LCL_ROW_MAJOR ? "row" : "col", (long long)n, (int)alg, block, r1, tol);
    {
        for (trans = 0; trans < 2; trans++) {
            B = (double *)malloc(sizeof(double) * (size_t)(n * nrhs > 0 ? n * nrhs : 1));
            for (i = 0; i < n * nrhs; i++) B[i] = urand();
            if (!mk(&Bm, dt, lay == LCL_COL_MAJOR ? LCL_ROW_MAJOR : LCL_COL_MAJOR, n, nrhs, 1, B)) { CHECK(0); free(B); break; }
            free(B);
            B = to_d(&Bm);
            CHECK_OK(ctx, lcl_getrs(ctx, trans ? LCL_TRANS : LCL_NO_TRANS, &M, ipiv, &Bm));
            X = to_d(&Bm);
            r2 = solve_resid(n, nrhs, A, trans, X, B);
            CHECK_MSG(r2 <= tol, "%s %s n=%lld alg=%d trans=%d: solve residual %.3g > %.3g", bname, dt == LCL_F32 ? "float" : "double",
                      (long long)n, (int)alg, trans, r2, tol);
            free(B);
            free(X);
            unmk(&Bm);
        }
    }
    free(A);
    free(F);
    free(ipiv);
    unmk(&M);
}

static void chol_case(lcl_context *ctx, const char *bname, lcl_dtype dt, lcl_layout lay, lcl_uplo uplo, int64_t n, lcl_dense_alg alg,
                      int block) {
    double *A = (double *)malloc(sizeof(double) * (size_t)(n * n > 0 ? n * n : 1)), *F, *B, *X, r1, r2, tol;
    int64_t info = -7, i, j, nrhs = 2;
    lcl_dense M, Bm;
    lcl_dense_opts o;
    memset(&o, 0, sizeof o);
    o.alg = alg;
    o.block = block;
    fill(A, n, M_SPD);
    if (!mk(&M, dt, lay, n, n, 2, A)) { CHECK(0); free(A); return; }
    free(A);
    A = to_d(&M);
    /* poison the other triangle: it must be neither read nor written */
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            if (uplo == LCL_LOWER ? i < j : i > j) lcl_dense_set(&M, i, j, 1e6);
    CHECK_OK(ctx, lcl_potrf(ctx, uplo, &M, &info, &o));
    CHECK(info == 0);
    F = to_d(&M);
    for (j = 0; j < n; j++)
        for (i = 0; i < n; i++)
            if (uplo == LCL_LOWER ? i < j : i > j) CHECK(F[i + j * n] == 1e6);
    tol = 2.0 * (double)(n > 4 ? n : 4) * eps_of(dt);
    r1 = chol_resid(n, A, F, uplo == LCL_UPPER);
    CHECK_MSG(r1 <= tol, "%s %s %s %s n=%lld alg=%d block=%d: Cholesky residual %.3g > %.3g", bname, dt == LCL_F32 ? "float" : "double",
              lay == LCL_ROW_MAJOR ? "row" : "col", uplo == LCL_UPPER ? "upper" : "lower", (long long)n, (int)alg, block, r1, tol);
    B = (double *)malloc(sizeof(double) * (size_t)(n * nrhs > 0 ? n * nrhs : 1));
    for (i = 0; i < n * nrhs; i++) B[i] = urand();
    if (mk(&Bm, dt, lay, n, nrhs, 0, B)) {
        free(B);
        B = to_d(&Bm);
        CHECK_OK(ctx, lcl_potrs(ctx, uplo, &M, &Bm));
        X = to_d(&Bm);
        /* the full symmetric matrix for the residual */
        for (j = 0; j < n; j++)
            for (i = 0; i < n; i++)
                if (uplo == LCL_LOWER ? i < j : i > j) A[i + j * n] = A[j + i * n];
        r2 = solve_resid(n, nrhs, A, 0, X, B);
        CHECK_MSG(r2 <= tol, "%s %s n=%lld alg=%d: Cholesky solve residual %.3g > %.3g", bname, dt == LCL_F32 ? "float" : "double",
                  (long long)n, (int)alg, r2, tol);
        free(X);
        unmk(&Bm);
    } else
        CHECK(0);
    free(B);
    free(A);
    free(F);
    unmk(&M);
}

static lcl_context *backend_ctx(int b, const char **name) {
    *name = b == 0 ? "serial" : b == 1 ? "openmp" : "openmp-3";
    return dctx(b == 0 ? LCL_BACKEND_SERIAL : LCL_BACKEND_OPENMP, b == 2 ? 3 : 0);
}

#define ALL_VARIANTS 0xF        /* double/float x column/row-major */
#define TWO_VARIANTS 0x9        /* double column-major, float row-major */
/* body on serial, OpenMP (and OpenMP with 3 threads when nb = 3), for each variant v in the mask
   (bit 1 of v: float, bit 0: row-major); a backend that cannot be created skips the test */
static void each_case(int nb, int variants, void (*body)(lcl_context *ctx, const char *bn, lcl_dtype dt, lcl_layout lay)) {
    int b, v;
    for (b = 0; b < nb; b++) {
        const char *bn;
        lcl_context *ctx = backend_ctx(b, &bn);
        if (!ctx) { lt_skip("backend not available"); return; }
        for (v = 0; v < 4; v++)
            if (variants >> v & 1) body(ctx, bn, v & 2 ? LCL_F32 : LCL_F64, v & 1 ? LCL_ROW_MAJOR : LCL_COL_MAJOR);
        lcl_context_destroy(ctx);
    }
}

static void lu_all_case(lcl_context *ctx, const char *bn, lcl_dtype dt, lcl_layout lay) {
    static const lcl_dense_alg algs[4] = {LCL_ALG_AUTO, LCL_ALG_BLOCKED, LCL_ALG_UNBLOCKED, LCL_ALG_CROUT};
    int a, s;
    for (a = 0; a < 4; a++)
        for (s = 0; s < NSIZES; s++) lu_case(ctx, bn, dt, lay, sizes[s], algs[a], 0);
}
static void test_dense_lu_all(void) { each_case(2, ALL_VARIANTS, lu_all_case); }
static void chol_all_case(lcl_context *ctx, const char *bn, lcl_dtype dt, lcl_layout lay) {
    static const lcl_dense_alg algs[5] = {LCL_ALG_AUTO, LCL_ALG_BLOCKED, LCL_ALG_UNBLOCKED, LCL_ALG_CROUT, LCL_ALG_BANACHIEWICZ};
    int a, u, s;
    for (a = 0; a < 5; a++)
        for (u = 0; u < 2; u++)
            for (s = 0; s < NSIZES; s++)
                chol_case(ctx, bn, dt, lay, u ? LCL_UPPER : LCL_LOWER, sizes[s], algs[a], 0);
}
static void test_dense_chol_all(void) { each_case(2, ALL_VARIANTS, chol_all_case); }

/* block sizes that are not multiples of anything, several look-ahead steps, more threads than cores */
static const int odd_blocks[4] = {1, 7, 33, 64};
static const int64_t odd_ns[3] = {130, 257, 300};
static void lu_blocks_case(lcl_context *ctx, const char *bn, lcl_dtype dt, lcl_layout lay) {
    int k, s;
    for (k = 0; k < 4; k++)
        for (s = 0; s < 3; s++) lu_case(ctx, bn, dt, lay, odd_ns[s], LCL_ALG_BLOCKED, odd_blocks[k]);
}
static void test_dense_lu_blocks(void) { each_case(3, TWO_VARIANTS, lu_blocks_case); }
static void chol_blocks_case(lcl_context *ctx, const char *bn, lcl_dtype dt, lcl_layout lay) {
    int k, s, u;
    for (k = 0; k < 4; k++)
        for (s = 0; s < 3; s++)
            for (u = 0; u < 2; u++)
                chol_case(ctx, bn, dt, lay, u ? LCL_UPPER : LCL_LOWER, odd_ns[s], LCL_ALG_BLOCKED, odd_blocks[k]);
}
static void test_dense_chol_blocks(void) { each_case(3, TWO_VARIANTS, chol_blocks_case); }

/* blocked (pivoting, but a diagonally dominant matrix never swaps) and unblocked agree */
static void test_dense_agree(void) {
    lcl_context *ctx = dctx(LCL_BACKEND_OPENMP, 0);
    int64_t n = 257, i;
    int d, a;
    double *A = (double *)malloc(sizeof(double) * (size_t)(n * n));
    if (!ctx) { lt_skip("no OpenMP backend"); free(A); return; }
    for (d = 0; d < 2; d++) {
        lcl_dtype dt = d ? LCL_F32 : LCL_F64;
        lcl_dense M1, M2;
        int32_t *p1 = (int32_t *)malloc(sizeof(int32_t) * (size_t)n), *p2 = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
        double *F1, *F2, diff = 0, tol = 50.0 * (double)n * eps_of(dt);
        lcl_dense_opts o;
        int64_t info;
        memset(&o, 0, sizeof o);
        fill(A, n, M_DIAGDOM);
        mk(&M1, dt, LCL_COL_MAJOR, n, n, 0, A);
        mk(&M2, dt, LCL_COL_MAJOR, n, n, 0, A);
        o.alg = LCL_ALG_BLOCKED;
        CHECK_OK(ctx, lcl_getrf(ctx, &M1, p1, &info, &o));
        o.alg = LCL_ALG_UNBLOCKED;
        CHECK_OK(ctx, lcl_getrf(ctx, &M2, p2, &info, &o));
        for (i = 0; i < n; i++) CHECK(p1[i] == i && p2[i] == i);
        F1 = to_d(&M1);
        F2 = to_d(&M2);
        for (i = 0; i < n * n; i++) if (fabs(F1[i] - F2[i]) > diff) diff = fabs(F1[i] - F2[i]);
        CHECK_MSG(diff <= tol * amax(F2, n * n), "LU blocked vs unblocked differ by %.3g", diff);
        free(F1);
        free(F2);
        /* Cholesky: all four algorithms give the same factor */
        fill(A, n, M_SPD);
        for (a = 0; a < 4; a++) {
            static const lcl_dense_alg algs[4] = {LCL_ALG_BLOCKED, LCL_ALG_UNBLOCKED, LCL_ALG_CROUT, LCL_ALG_BANACHIEWICZ};
            int64_t j;
            unmk(&M1);
            mk(&M1, dt, LCL_COL_MAJOR, n, n, 0, A);
            o.alg = algs[a];
            CHECK_OK(ctx, lcl_potrf(ctx, LCL_LOWER, &M1, &info, &o));
            F1 = to_d(&M1);
            if (a == 0) { unmk(&M2); mk(&M2, dt, LCL_COL_MAJOR, n, n, 0, F1); }
            F2 = to_d(&M2);
            diff = 0;
            for (j = 0; j < n; j++) for (i = j; i < n; i++) if (fabs(F1[i + j * n] - F2[i + j * n]) > diff) diff = fabs(F1[i + j * n] - F2[i + j * n]);
            CHECK_MSG(diff <= tol * amax(F2, n * n), "Cholesky alg %d vs blocked differ by %.3g", (int)algs[a], diff);
            free(F1);
            free(F2);
        }
        unmk(&M1);
        unmk(&M2);
        free(p1);
        free(p2);
    }
    free(A);
    lcl_context_destroy(ctx);
}

/* a worked system: A = L U with L = [1 0 0; 2 1 0; 3 2 1], U = L^T; b = A [1 1 1]^T */
static void worked_3x3_case(lcl_context *ctx, const char *bn, lcl_dtype dt, lcl_layout lay) {
    static const double A[9] = {1, 2, 3, 2, 5, 8, 3, 8, 14};   /* column-major (symmetric anyway) */
    static const double L[9] = {1, 2, 3, 0, 1, 2, 0, 0, 1};
    static const double b[3] = {6, 15, 25};
    int a, i, j;
    (void)bn;
    for (a = 0; a < 5; a++) {
        lcl_dense M, B;
        lcl_dense_opts o;
        int32_t ipiv[3];
        int64_t info = -1;
        memset(&o, 0, sizeof o);
        o.alg = (lcl_dense_alg)a;
        mk(&M, dt, lay, 3, 3, 0, A);
        mk(&B, dt, lay, 3, 1, 0, b);
        if (a != LCL_ALG_BANACHIEWICZ) {
            CHECK_OK(ctx, lcl_getrf(ctx, &M, ipiv, &info, &o));
            CHECK(info == 0);
            if (a == LCL_ALG_UNBLOCKED || a == LCL_ALG_CROUT)   /* no pivoting: L and U exactly */
                for (i = 0; i < 3; i++)
                    for (j = 0; j < 3; j++) CHECK_MSG(lcl_dense_get(&M, i, j) == (i > j ? L[i + j * 3] : L[j + i * 3]),
                                                      "alg %d LU(%d,%d) = %g", a, i, j, lcl_dense_get(&M, i, j));
            {
                CHECK_OK(ctx, lcl_getrs(ctx, LCL_NO_TRANS, &M, ipiv, &B));
                for (i = 0; i < 3; i++) CHECK_MSG(fabs(lcl_dense_get(&B, i, 0) - 1) <= 1000 * eps_of(dt), "x[%d] = %.17g", i, lcl_dense_get(&B, i, 0));
            }
        }
        unmk(&M);
        unmk(&B);
        /* Cholesky: the same L, exactly */
        mk(&M, dt, lay, 3, 3, 0, A);
        mk(&B, dt, lay, 3, 1, 0, b);
        CHECK_OK(ctx, lcl_potrf(ctx, LCL_LOWER, &M, &info, &o));
        for (i = 0; i < 3; i++)
            for (j = 0; j <= i; j++) CHECK_MSG(lcl_dense_get(&M, i, j) == L[i + j * 3], "alg %d L(%d,%d) = %g", a, i, j, lcl_dense_get(&M, i, j));
        CHECK_OK(ctx, lcl_potrs(ctx, LCL_LOWER, &M, &B));
        for (i = 0; i < 3; i++) CHECK(lcl_dense_get(&B, i, 0) == 1.0);
        unmk(&M);
        unmk(&B);
    }
    {   /* gesv and posv */
        lcl_dense M, B;
        int32_t ipiv[3];
        int64_t info = -1;
        mk(&M, dt, lay, 3, 3, 0, A);
        mk(&B, dt, lay, 3, 1, 0, b);
        CHECK_OK(ctx, lcl_gesv(ctx, &M, ipiv, &B, &info));
        for (i = 0; i < 3; i++) CHECK(fabs(lcl_dense_get(&B, i, 0) - 1) <= 1000 * eps_of(dt));
        unmk(&M);
        unmk(&B);
        mk(&M, dt, lay, 3, 3, 0, A);
        mk(&B, dt, lay, 3, 1, 0, b);
        CHECK_OK(ctx, lcl_posv(ctx, LCL_UPPER, &M, &B, &info));
        for (i = 0; i < 3; i++) CHECK(lcl_dense_get(&B, i, 0) == 1.0);
        for (i = 0; i < 3; i++)
            for (j = i; j < 3; j++) CHECK(lcl_dense_get(&M, i, j) == L[j + i * 3]);   /* U = L^T */
        unmk(&M);
        unmk(&B);
    }
}
static void test_dense_worked_3x3(void) { each_case(2, ALL_VARIANTS, worked_3x3_case); }

/* a zero leading entry: without pivoting the first pivot is zero, with pivoting all is well */
static void test_dense_pivoting(void) {
    static const double A[9] = {0, 1, 2, 2, 1, 1, 1, 1, 3};   /* column-major [0 2 1; 1 1 1; 2 1 3] */
    static const double x[3] = {1, -2, 3};
    lcl_context *ctx = dctx(LCL_BACKEND_SERIAL, 0);
    int d, a, i, j;
    for (d = 0; d < 2; d++)
        for (a = 0; a < 4; a++) {
            lcl_dtype dt = d ? LCL_F32 : LCL_F64;
            lcl_dense M, B;
            lcl_dense_opts o;
            int32_t ipiv[3];
            int64_t info = -1;
            double b[3];
            for (i = 0; i < 3; i++) { b[i] = 0; for (j = 0; j < 3; j++) b[i] += A[i + j * 3] * x[j]; }
            memset(&o, 0, sizeof o);
            o.alg = (lcl_dense_alg)a;
            mk(&M, dt, LCL_COL_MAJOR, 3, 3, 0, A);
            mk(&B, dt, LCL_COL_MAJOR, 3, 1, 0, b);
            if (a == LCL_ALG_UNBLOCKED || a == LCL_ALG_CROUT) {
                CHECK_STATUS(ctx, lcl_getrf(ctx, &M, ipiv, &info, &o), LCL_ERR_SINGULAR);
                CHECK(info == 1);
                CHECK(strstr(lcl_last_error(ctx), "lcl_getrf") && strstr(lcl_last_error(ctx), "singular"));
            } else {
                CHECK_OK(ctx, lcl_getrf(ctx, &M, ipiv, &info, &o));
                CHECK(info == 0 && ipiv[0] == 2);
                CHECK_OK(ctx, lcl_getrs(ctx, LCL_NO_TRANS, &M, ipiv, &B));
                for (i = 0; i < 3; i++) CHECK(fabs(lcl_dense_get(&B, i, 0) - x[i]) <= 64 * eps_of(dt));
            }
            unmk(&M);
            unmk(&B);
        }
    lcl_context_destroy(ctx);
}

/* singular: the third pivot is exactly zero (column 2 = column 0 + column 1, power-of-two
   multipliers, so every order of operations is exact); a zero column deep in a large matrix */
static void singular_case(lcl_context *ctx, const char *bn, lcl_dtype dt, lcl_layout lay) {
    static const double A[25] = {4, 2, 1, 2, 0, 0, 4, 1, 2, 1, 4, 6, 2, 4, 1, 1, 3, 5, 7, 2, 2, 1, 1, 3, 8};
    int k;
    lcl_dense M, B;
    int32_t ipiv[5], *p2;
    int64_t info = -1, n = 300, i;
    double *Z;
    static const int blocks[3] = {0, 2, 64};
    for (k = 0; k < 3; k++) {
        lcl_dense_opts o;
        memset(&o, 0, sizeof o);
        o.block = blocks[k];
        mk(&M, dt, lay, 5, 5, 0, A);
        CHECK_STATUS(ctx, lcl_getrf(ctx, &M, ipiv, &info, &o), LCL_ERR_SINGULAR);
        CHECK_MSG(info == 3, "%s 5x5 singular: info %lld, want 3", bn, (long long)info);
        CHECK(lcl_dense_get(&M, 2, 2) == 0 && lcl_dense_get(&M, 4, 4) != 0);   /* completed */
        unmk(&M);
    }
    mk(&M, dt, lay, 5, 5, 0, A);
    mk(&B, dt, lay, 5, 1, 0, A);
    CHECK_STATUS(ctx, lcl_gesv(ctx, &M, ipiv, &B, &info), LCL_ERR_SINGULAR);
    CHECK(info == 3);
    for (i = 0; i < 5; i++) CHECK(lcl_dense_get(&B, i, 0) == A[i]);   /* B untouched */
    unmk(&M);
    unmk(&B);
    /* a zero column 200 of 300 */
    Z = (double *)malloc(sizeof(double) * (size_t)(n * n));
    p2 = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    fill(Z, n, M_RANDOM);
    for (i = 0; i < n; i++) Z[i + 200 * n] = 0;
    for (k = 0; k < 3; k++) {
        lcl_dense_opts o;
        memset(&o, 0, sizeof o);
        o.block = blocks[k];
        mk(&M, dt, lay, n, n, 0, Z);
        CHECK_STATUS(ctx, lcl_getrf(ctx, &M, p2, &info, &o), LCL_ERR_SINGULAR);
        CHECK_MSG(info == 201, "%s zero column: info %lld, want 201", bn, (long long)info);
        unmk(&M);
    }
    free(Z);
    free(p2);
}
static void test_dense_singular(void) { each_case(2, ALL_VARIANTS, singular_case); }

/* not SPD: info is the order of the first non-positive leading minor */
static void not_spd_case(lcl_context *ctx, const char *bn, lcl_dtype dt, lcl_layout lay) {
    /* the 3x3 above bordered so that the fourth pivot is exactly 0 */
    static const double A[16] = {1, 2, 3, 1, 2, 5, 8, 3, 3, 8, 14, 6, 1, 3, 6, 3};
    int a, u;
    for (a = 0; a < 5; a++)
        for (u = 0; u < 2; u++) {
            lcl_uplo uplo = u ? LCL_UPPER : LCL_LOWER;
            lcl_dense M, B;
            lcl_dense_opts o;
            int64_t info = -1, n = 300, i;
            double *S;
            memset(&o, 0, sizeof o);
            o.alg = (lcl_dense_alg)a;
            mk(&M, dt, lay, 4, 4, 0, A);
            CHECK_STATUS(ctx, lcl_potrf(ctx, uplo, &M, &info, &o), LCL_ERR_NOT_SPD);
            CHECK_MSG(info == 4, "%s alg %d: info %lld, want 4", bn, a, (long long)info);
            CHECK(strstr(lcl_last_error(ctx), "lcl_potrf") && strstr(lcl_last_error(ctx), "order 4"));
            unmk(&M);
            mk(&M, dt, lay, 4, 4, 0, A);
            mk(&B, dt, lay, 4, 1, 0, A);
            CHECK_STATUS(ctx, lcl_posv(ctx, uplo, &M, &B, &info), LCL_ERR_NOT_SPD);
            CHECK(info == 4 && lcl_dense_get(&B, 3, 0) == A[3]);
            unmk(&M);
            unmk(&B);
            if (a == LCL_ALG_UNBLOCKED || a == LCL_ALG_CROUT || a == LCL_ALG_BANACHIEWICZ) continue;
            /* a large one: pivot 151 of 300 negative */
            S = (double *)malloc(sizeof(double) * (size_t)(n * n));
            fill(S, n, M_SPD);
            S[150 + 150 * n] = -1000;
            for (i = 0; i < 2; i++) {
                o.block = i ? 32 : 0;
                mk(&M, dt, lay, n, n, 0, S);
                CHECK_STATUS(ctx, lcl_potrf(ctx, uplo, &M, &info, &o), LCL_ERR_NOT_SPD);
                CHECK_MSG(info == 151, "%s block %d: info %lld, want 151", bn, o.block, (long long)info);
                unmk(&M);
            }
            free(S);
        }
}
static void test_dense_not_spd(void) { each_case(2, ALL_VARIANTS, not_spd_case); }

static void test_dense_nan(void) {
    lcl_context *ctx = dctx(LCL_BACKEND_SERIAL, 0);
    static const double A[9] = {1, 2, 3, 2, 5, 8, 3, 8, 14};
    lcl_dense M, B;
    int32_t ipiv[3] = {0, 1, 2};
    int64_t info = -1;
    int d, k;
    for (d = 0; d < 2; d++)
        for (k = 0; k < 2; k++) {
            lcl_dtype dt = d ? LCL_F32 : LCL_F64;
            double bad = k ? HUGE_VAL : NAN;
            mk(&M, dt, LCL_COL_MAJOR, 3, 3, 0, A);
            mk(&B, dt, LCL_COL_MAJOR, 3, 1, 0, A);
            lcl_dense_set(&M, 0, 2, bad);    /* upper triangle */
            CHECK_STATUS(ctx, lcl_getrf(ctx, &M, ipiv, &info, NULL), LCL_ERR_NAN);
            CHECK(strstr(lcl_last_error(ctx), "lcl_getrf") && strstr(lcl_last_error(ctx), k ? "Inf" : "NaN"));
            CHECK(lcl_dense_get(&M, 0, 0) == 1 && lcl_dense_get(&M, 1, 0) == 2);   /* untouched */
            CHECK_STATUS(ctx, lcl_gesv(ctx, &M, ipiv, &B, &info), LCL_ERR_NAN);
            CHECK_STATUS(ctx, lcl_getrs(ctx, LCL_NO_TRANS, &M, ipiv, &B), LCL_ERR_NAN);
            CHECK_STATUS(ctx, lcl_potrf(ctx, LCL_UPPER, &M, &info, NULL), LCL_ERR_NAN);
            CHECK_OK(ctx, lcl_potrf(ctx, LCL_LOWER, &M, &info, NULL));   /* the upper triangle is not read */
            CHECK_OK(ctx, lcl_potrs(ctx, LCL_LOWER, &M, &B));
            lcl_dense_set(&B, 1, 0, bad);
            CHECK_STATUS(ctx, lcl_potrs(ctx, LCL_LOWER, &M, &B), LCL_ERR_NAN);
            CHECK(strstr(lcl_last_error(ctx), "B(1,0)"));
            unmk(&M);
            unmk(&B);
        }
    lcl_context_destroy(ctx);
}

static void test_dense_args(void) {
    lcl_context *ctx = dctx(LCL_BACKEND_SERIAL, 0);
    static const double A[9] = {1, 2, 3, 2, 5, 8, 3, 8, 14};
    lcl_dense M, B, R, E, F;
    int32_t ipiv[3] = {0, 1, 2};
    int64_t info = -1;
    lcl_dense_opts o;
    float fb[3] = {1, 2, 3};
    lcl_dmat *dm = NULL;
    mk(&M, LCL_F64, LCL_COL_MAJOR, 3, 3, 0, A);
    mk(&B, LCL_F64, LCL_COL_MAJOR, 3, 2, 0, NULL);
    mk(&R, LCL_F64, LCL_COL_MAJOR, 3, 2, 0, NULL);   /* non-square */
    mk(&E, LCL_F64, LCL_COL_MAJOR, 2, 1, 0, NULL);   /* wrong rows */
    lcl_dense_wrap(NULL, &F, LCL_F32, LCL_COL_MAJOR, 3, 1, 3, fb);
    memset(&o, 0, sizeof o);
#define BAD(expr, what) do { CHECK_STATUS(ctx, expr, LCL_ERR_INVALID_ARGUMENT); \
        CHECK_MSG(strstr(lcl_last_error(ctx), what) != NULL, "message '%s' lacks '%s'", lcl_last_error(ctx), what); } while (0)
    BAD(lcl_getrf(ctx, NULL, ipiv, &info, NULL), "lcl_getrf: A is NULL");
    BAD(lcl_getrf(ctx, &R, ipiv, &info, NULL), "not square");
    BAD(lcl_getrf(ctx, &M, NULL, &info, NULL), "ipiv is NULL");
    BAD(lcl_potrf(ctx, LCL_LOWER, &R, &info, NULL), "lcl_potrf: A is 3x2, not square");
    BAD(lcl_potrf(ctx, (lcl_uplo)5, &M, &info, NULL), "unknown uplo");
    BAD(lcl_getrs(ctx, (lcl_trans)7, &M, ipiv, &B), "unknown trans");
    BAD(lcl_getrs(ctx, LCL_NO_TRANS, &M, ipiv, &E), "B has 2 rows");
    BAD(lcl_getrs(ctx, LCL_NO_TRANS, &M, ipiv, &F), "B is float but the matrix is double");
    BAD(lcl_potrs(ctx, LCL_LOWER, &M, &F), "float");
    BAD(lcl_potrs(ctx, LCL_LOWER, &M, NULL), "B is NULL");
    BAD(lcl_gesv(ctx, &M, ipiv, &E, &info), "lcl_gesv: B has 2 rows");
    BAD(lcl_posv(ctx, LCL_LOWER, &M, &M, &info), "share");
    o.alg = LCL_ALG_BANACHIEWICZ;
    BAD(lcl_getrf(ctx, &M, ipiv, &info, &o), "Cholesky algorithm");
    o.alg = (lcl_dense_alg)9;
    BAD(lcl_getrf(ctx, &M, ipiv, &info, &o), "unknown algorithm 9");
    BAD(lcl_potrf(ctx, LCL_LOWER, &M, &info, &o), "unknown algorithm");
    o.alg = LCL_ALG_AUTO;
    o.block = -1;
    BAD(lcl_potrf(ctx, LCL_LOWER, &M, &info, &o), "negative block size");
    o.block = 0;
    o.device = -2;
    BAD(lcl_getrf(ctx, &M, ipiv, &info, &o), "device -2");
    o.device = 0;
    o.panel = 9;
    BAD(lcl_getrf(ctx, &M, ipiv, &info, &o), "panel 9");
    o.panel = 0;
    ipiv[1] = 0;
    BAD(lcl_getrs(ctx, LCL_NO_TRANS, &M, ipiv, &B), "ipiv[1] = 0");
    ipiv[1] = 3;
    BAD(lcl_getrs(ctx, LCL_NO_TRANS, &M, ipiv, &B), "ipiv[1] = 3");
    ipiv[1] = 1;
    BAD(lcl_getrs(ctx, LCL_NO_TRANS, &M, NULL, &B), "ipiv is NULL");
    M.ld = 2;
    BAD(lcl_getrf(ctx, &M, ipiv, &info, NULL), "leading dimension 2");
    M.ld = 3;
    M.layout = (lcl_layout)3;
    BAD(lcl_getrf(ctx, &M, ipiv, &info, NULL), "unknown layout");
    M.layout = LCL_COL_MAJOR;
    M.dtype = (lcl_dtype)7;
    BAD(lcl_potrf(ctx, LCL_LOWER, &M, &info, NULL), "unknown dtype");
    M.dtype = LCL_F64;
    M.rows = -1;
    BAD(lcl_getrf(ctx, &M, ipiv, &info, NULL), "negative size");
    M.rows = 3;
    {   void *keep = M.data;
        M.data = NULL;
        BAD(lcl_getrf(ctx, &M, ipiv, &info, NULL), "no data");
        M.data = keep; }
    BAD(lcl_dmat_upload(ctx, &M, NULL), "out is NULL");
    BAD(lcl_dmat_upload(ctx, NULL, &dm), "A is NULL");
    CHECK(dm == NULL);
    BAD(lcl_dmat_getrf(ctx, NULL, ipiv, &info, NULL), "A is NULL");
    CHECK_OK(ctx, lcl_dmat_upload(ctx, &R, &dm));
    BAD(lcl_dmat_getrf(ctx, dm, ipiv, &info, NULL), "not square");
    BAD(lcl_dmat_download(ctx, dm, &M), "dst is 3x3");
    lcl_dmat_free(dm);
    lcl_dmat_free(NULL);
    /* a NULL context is allowed: only the status tells */
    CHECK(lcl_getrf(NULL, &R, ipiv, &info, NULL) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(lcl_getrf(NULL, &M, ipiv, &info, NULL) == LCL_OK);
    /* n = 0: nothing to do, NULL ipiv fine */
    {
        lcl_dense Z, ZB;
        mk(&Z, LCL_F64, LCL_ROW_MAJOR, 0, 0, 0, NULL);
        mk(&ZB, LCL_F64, LCL_COL_MAJOR, 0, 4, 0, NULL);
        info = -1;
        CHECK_OK(ctx, lcl_getrf(ctx, &Z, NULL, &info, NULL));
        CHECK(info == 0);
        CHECK_OK(ctx, lcl_potrf(ctx, LCL_UPPER, &Z, &info, NULL));
        CHECK_OK(ctx, lcl_getrs(ctx, LCL_TRANS, &Z, NULL, &ZB));
        CHECK_OK(ctx, lcl_potrs(ctx, LCL_LOWER, &Z, &ZB));
        CHECK_OK(ctx, lcl_gesv(ctx, &Z, NULL, &ZB, NULL));
        CHECK_OK(ctx, lcl_posv(ctx, LCL_LOWER, &Z, &ZB, NULL));
        CHECK_OK(ctx, lcl_dmat_upload(ctx, &Z, &dm));
        CHECK_OK(ctx, lcl_dmat_getrf(ctx, dm, NULL, &info, NULL));
        CHECK_OK(ctx, lcl_dmat_potrf(ctx, LCL_LOWER, dm, &info, NULL));
        CHECK_OK(ctx, lcl_dmat_download(ctx, dm, &Z));
        lcl_dmat_free(dm);
        unmk(&Z);
        unmk(&ZB);
    }
#undef BAD
    unmk(&M);
    unmk(&B);
    unmk(&R);
    unmk(&E);
    lcl_context_destroy(ctx);
}

/* many right-hand sides (split among threads), both layouts of B, transposed solves */
static void multi_rhs_case(lcl_context *ctx, const char *bn, lcl_dtype dt, lcl_layout lay) {
    int t, k;
    static const int64_t nrhs_list[4] = {1, 5, 13, 50};
    int64_t n = 150, i;
    double *A = (double *)malloc(sizeof(double) * (size_t)(n * n)), *Ad, *Bd, *X, tol = 2.0 * (double)n * eps_of(dt);
    int32_t *ipiv = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    lcl_dense M, Bm;
    int64_t info;
    fill(A, n, M_RANDOM);
    mk(&M, dt, lay, n, n, 0, A);
    Ad = to_d(&M);
    CHECK_OK(ctx, lcl_getrf(ctx, &M, ipiv, &info, NULL));
    for (k = 0; k < 4; k++)
        for (t = 0; t < 2; t++) {
            int64_t nr = nrhs_list[k];
            double *B0 = (double *)malloc(sizeof(double) * (size_t)(n * nr)), r;
            for (i = 0; i < n * nr; i++) B0[i] = urand();
            mk(&Bm, dt, (k + t) % 2 ? LCL_ROW_MAJOR : LCL_COL_MAJOR, n, nr, 2, B0);
            Bd = to_d(&Bm);
            CHECK_OK(ctx, lcl_getrs(ctx, t ? LCL_TRANS : LCL_NO_TRANS, &M, ipiv, &Bm));
            X = to_d(&Bm);
            r = solve_resid(n, nr, Ad, t, X, Bd);
            CHECK_MSG(r <= tol, "%s nrhs=%lld trans=%d: residual %.3g", bn, (long long)nr, t, r);
            free(B0);
            free(Bd);
            free(X);
            unmk(&Bm);
        }
    free(A);
    free(Ad);
    free(ipiv);
    unmk(&M);
}
static void test_dense_multi_rhs(void) { each_case(3, ALL_VARIANTS, multi_rhs_case); }

static void dmat_case(lcl_context *ctx, const char *bn, lcl_dtype dt, lcl_layout lay) {
    int64_t n = 140, i, j, info;
    int c;
    double *A = (double *)malloc(sizeof(double) * (size_t)(n * n)), *B0 = (double *)malloc(sizeof(double) * (size_t)(n * 3));
    int32_t *p1 = (int32_t *)malloc(sizeof(int32_t) * (size_t)n), *p2 = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    lcl_dense M, M2, Bm, B2, back;
    lcl_dmat *dA = NULL, *dB = NULL, *dR = NULL;
    lcl_dense rect;
    fill(A, n, M_RANDOM);
    for (i = 0; i < n * 3; i++) B0[i] = urand();
    /* round trip of a rectangular matrix, into the other layout */
    mk(&rect, dt, lay, n, 3, 1, B0);
    mk(&back, dt, lay == LCL_ROW_MAJOR ? LCL_COL_MAJOR : LCL_ROW_MAJOR, n, 3, 0, NULL);
    CHECK_OK(ctx, lcl_dmat_upload(ctx, &rect, &dR));
    CHECK_OK(ctx, lcl_dmat_download(ctx, dR, &back));
    for (j = 0; j < 3; j++) for (i = 0; i < n; i++) CHECK(lcl_dense_get(&back, i, j) == lcl_dense_get(&rect, i, j));
    lcl_dmat_free(dR);
    unmk(&rect);
    unmk(&back);
    /* device-style LU (c = 0) and Cholesky (c = 1) solves agree with the host calls (the same
       algorithm; a B in another layout is solved in another order, so not bit for bit) */
    for (c = 0; c < 2; c++) {
        lcl_layout host = c ? LCL_COL_MAJOR : lay;
        if (c) fill(A, n, M_SPD);
        mk(&M, dt, lay, n, n, 0, A);
        mk(&M2, dt, host, n, n, 0, A);
        mk(&Bm, dt, lay, n, 3, 0, B0);
        mk(&B2, dt, host, n, 3, 0, B0);
        CHECK_OK(ctx, lcl_dmat_upload(ctx, &M, &dA));
        CHECK_OK(ctx, lcl_dmat_upload(ctx, &Bm, &dB));
        if (!c) {
            CHECK_OK(ctx, lcl_dmat_getrf(ctx, dA, p1, &info, NULL));
            CHECK_OK(ctx, lcl_dmat_getrs(ctx, LCL_NO_TRANS, dA, p1, dB));
            CHECK_OK(ctx, lcl_dmat_download(ctx, dA, &M));
        } else {
            CHECK_OK(ctx, lcl_dmat_potrf(ctx, LCL_UPPER, dA, &info, NULL));
            CHECK_OK(ctx, lcl_dmat_potrs(ctx, LCL_UPPER, dA, dB));
        }
        CHECK_OK(ctx, lcl_dmat_download(ctx, dB, &Bm));
        if (!c) {
            CHECK_OK(ctx, lcl_gesv(ctx, &M2, p2, &B2, &info));
            for (i = 0; i < n; i++) CHECK(p1[i] == p2[i]);
        } else CHECK_OK(ctx, lcl_posv(ctx, LCL_UPPER, &M2, &B2, &info));
        for (j = 0; j < 3; j++)
            for (i = 0; i < n; i++)
                CHECK_MSG(fabs(lcl_dense_get(&Bm, i, j) - lcl_dense_get(&B2, i, j)) <= 1e3 * eps_of(dt) * (1 + fabs(lcl_dense_get(&B2, i, j))),
                          "%s %s: X(%lld,%lld)", bn, c ? "potrs" : "getrs", (long long)i, (long long)j);
        lcl_dmat_free(dA);
        lcl_dmat_free(dB);
        unmk(&M);
        unmk(&M2);
        unmk(&Bm);
        unmk(&B2);
    }
    free(A);
    free(B0);
    free(p1);
    free(p2);
}
static void test_dense_dmat(void) { each_case(2, ALL_VARIANTS, dmat_case); }

/* every allocation of the factorizations and solves fails once: a clean error, nothing leaked */
static void test_dense_alloc_failures(void) {
    lcl_context *ctx = dctx(LCL_BACKEND_OPENMP, 2);
    int64_t n = 160, i, info;
    double *A = (double *)malloc(sizeof(double) * (size_t)(n * n));
    int32_t *ipiv = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    int op;
    if (!ctx) ctx = dctx(LCL_BACKEND_SERIAL, 0);
    fill(A, n, M_SPD);
    for (op = 0; op < 5; op++) {
        long k;
        for (k = 1; k < 20; k++) {
            lcl_dense M, Bm;
            lcl_dmat *dm = NULL;
            lcl_status st;
            long before;
            mk(&M, LCL_F64, op == 1 ? LCL_COL_MAJOR : LCL_ROW_MAJOR, n, n, 0, A);
            mk(&Bm, LCL_F64, LCL_COL_MAJOR, n, 30, 0, A);
            for (i = 0; i < n; i++) ipiv[i] = (int32_t)i;
            before = lt_alloc_outstanding();
            lt_alloc_fail_at(k);
            switch (op) {
            case 0: st = lcl_getrf(ctx, &M, ipiv, &info, NULL); break;
            case 1: st = lcl_potrf(ctx, LCL_LOWER, &M, &info, NULL); break;
            case 2: st = lcl_getrs(ctx, LCL_TRANS, &M, ipiv, &Bm); break;
            case 3: st = lcl_posv(ctx, LCL_UPPER, &M, &Bm, &info); break;
            default:
                st = lcl_dmat_upload(ctx, &M, &dm);
                if (st == LCL_OK) st = lcl_dmat_getrf(ctx, dm, ipiv, &info, NULL);
                lcl_dmat_free(dm);
                break;
            }
            lt_alloc_fail_at(0);
            CHECK(lt_alloc_outstanding() == before);
            unmk(&M);
            unmk(&Bm);
            if (st == LCL_OK) break;
            CHECK_MSG(st == LCL_ERR_OUT_OF_MEMORY, "op %d, failing allocation %ld: %s", op, k, lcl_status_string(st));
            {
                static const char *const fns[5] = {"lcl_getrf: ", "lcl_potrf: ", "lcl_getrs: ", "lcl_posv: ", "lcl_dmat_"};
                CHECK_MSG(!strncmp(lcl_last_error(ctx), fns[op], strlen(fns[op])), "op %d: '%s'", op, lcl_last_error(ctx));
            }
        }
        CHECK(k > 1 && k < 20);
    }
    free(A);
    free(ipiv);
    lcl_context_destroy(ctx);
}

/* real SPD matrices: potrf + potrs, residual of the solve; bcsstk16 (not shipped) when present */
static void test_dense_shared_spd(void) {
    static const char *const names[4] = {"bcsstk01.mtx", "LF10.mtx", "mesh1e1.mtx", "bcsstk16.mtx"};
    lcl_context *ctx = dctx(LCL_BACKEND_OPENMP, 0);
    int f, d, u;
    if (!ctx) ctx = dctx(LCL_BACKEND_SERIAL, 0);
    for (f = 0; f < 4; f++)
        for (d = 0; d < 2; d++)
            for (u = 0; u < 2; u++) {
                char path[1024];
                lcl_dtype dt = d ? LCL_F32 : LCL_F64;
                lcl_dense A, F, Bm;
                lcl_status st;
                int64_t n, i, j, info = -1;
                double *x, rm = 0, an = 0, xm = 0, bm = 0, r;
                if (f == 3 && (d || u)) continue;   /* 4884 x 4884: double, lower, once */
                if (f == 3 && !lt_matrix_optional(path, sizeof path, names[f])) continue;
                lt_matrix_path(path, sizeof path, names[f]);   /* a shipped one missing fails the read */
                st = lcl_mm_read_dense(ctx, path, dt, u ? LCL_ROW_MAJOR : LCL_COL_MAJOR, LCL_MM_EXPAND, &A, NULL);
                CHECK_OK(ctx, st);
                if (st != LCL_OK) continue;
                n = A.rows;
                CHECK_OK(ctx, lcl_dense_alloc(ctx, &F, dt, A.layout, n, n));
                memcpy(F.data, A.data, (size_t)(n * n) * (dt == LCL_F32 ? sizeof(float) : sizeof(double)));
                CHECK_OK(ctx, lcl_dense_alloc(ctx, &Bm, dt, LCL_COL_MAJOR, n, 1));
                for (i = 0; i < n; i++) lcl_dense_set(&Bm, i, 0, urand());
                x = to_d(&Bm);   /* b, for now */
                CHECK_OK(ctx, lcl_posv(ctx, u ? LCL_UPPER : LCL_LOWER, &F, &Bm, &info));
                CHECK(info == 0);
                for (i = 0; i < n; i++) {
                    double s = x[i], a = 0;
                    for (j = 0; j < n; j++) { double v = lcl_dense_get(&A, i, j); s -= v * lcl_dense_get(&Bm, j, 0); a += fabs(v); }
                    if (fabs(s) > rm) rm = fabs(s);
                    if (a > an) an = a;
                    if (fabs(lcl_dense_get(&Bm, i, 0)) > xm) xm = fabs(lcl_dense_get(&Bm, i, 0));
                    if (fabs(x[i]) > bm) bm = fabs(x[i]);
                }
                r = rm / (an * xm + bm);
                CHECK_MSG(r <= 2.0 * (double)n * eps_of(dt), "%s %s: solve residual %.3g", names[f], d ? "float" : "double", r);
                free(x);
                lcl_dense_free(&A);
                lcl_dense_free(&F);
                lcl_dense_free(&Bm);
            }
    lcl_context_destroy(ctx);
}

void lt_suite_dense(void) {
    LT_RUN(test_dense_worked_3x3);
    LT_RUN(test_dense_pivoting);
    LT_RUN(test_dense_singular);
    LT_RUN(test_dense_not_spd);
    LT_RUN(test_dense_nan);
    LT_RUN(test_dense_args);
    LT_RUN(test_dense_lu_all);
    LT_RUN(test_dense_lu_blocks);
    LT_RUN(test_dense_chol_all);
    LT_RUN(test_dense_chol_blocks);
    LT_RUN(test_dense_agree);
    LT_RUN(test_dense_multi_rhs);
    LT_RUN(test_dense_dmat);
    LT_RUN(test_dense_alloc_failures);
    LT_RUN(test_dense_shared_spd);
}
