/* dense.c -- dense matrices for solve, bench dense and the demo: the algorithm names, loading a
   MATRIX as a square column-major double matrix, b = A x* for a seeded x*, and the checks
   (normwise backward error, forward error), accumulated so that the check's own rounding stays
   below what it checks. */
#include "lcl.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const alg_names[5] = {"auto", "blocked", "unblocked", "crout", "banachiewicz"};
int alg_parse(const char *s) {
    int i;
    for (i = 0; i < 5; i++)
        if (!strcmp(s, alg_names[i])) return i;
    return -1;
}
int method_parse(const char *s) { return !strcmp(s, "lu") ? 0 : !strcmp(s, "cholesky") ? 1 : -1; }
int alg_fits(int chol, int alg) { return alg >= 0 && (chol || alg != LCL_ALG_BANACHIEWICZ); }
int alg_unblocked(int alg) { return alg == LCL_ALG_UNBLOCKED || alg == LCL_ALG_CROUT || alg == LCL_ALG_BANACHIEWICZ; }

/* uniform in [-1,1), a hash of (seed, i): the same x* for the same seed on every backend */
static uint64_t mix64(uint64_t z) {
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
double urand_sym(uint64_t seed, uint64_t i) {
    return 2.0 * (double)(mix64(mix64(seed ^ 0x78737472ULL) + i) >> 11) * (1.0 / 9007199254740992.0) - 1.0;
}

/* y = A x, A column-major double (as load_square and lcl_coo_to_dense leave it), accumulated in
   long double where it is wider: the check's own rounding (about n eps in double) would otherwise
   reach the 1e-14 it checks at large n */
void matvec64(const lcl_dense *A, const double *x, double *y) {
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
double inf_norm64(const lcl_dense *A, double *rowsum) {
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
double backward_error(const lcl_dense *A, double normA, const double *x, const double *b, double *work) {
    matvec64(A, x, work);
    return backward_error_ax(work, normA, x, b, A->rows);
}
double backward_error_ax(const double *ax, double normA, const double *x, const double *b, int64_t n) {
    int64_t i;
    double rn = 0, xn = 0, bn = 0, den;
    for (i = 0; i < n; i++) {
        rn = amax(rn, fabs(b[i] - ax[i]));
        xn = amax(xn, fabs(x[i]));
        bn = amax(bn, fabs(b[i]));
    }
    if (rn != rn) return rn;
    den = normA * xn + bn;
    return den > 0 ? rn / den : (rn > 0 ? HUGE_VAL : 0.0);
}
double forward_error(const double *x, const double *xs, int64_t n) {
    int64_t i;
    double d = 0, m = 0;
    for (i = 0; i < n; i++) {
        d = amax(d, fabs(x[i] - xs[i]));
        m = amax(m, fabs(xs[i]));
    }
    return m > 0 ? d / m : d;
}

/* an n x k column-major array of doubles as a matrix of dtype dt (and back) */
lcl_status dense_from_array(lcl_context *ctx, const double *v, int64_t n, int64_t k, lcl_dtype dt, lcl_dense *out) {
    int64_t i, j;
    lcl_status st = lcl_dense_alloc(ctx, out, dt, LCL_COL_MAJOR, n, k);
    if (st != LCL_OK) return st;
    for (j = 0; j < k; j++)
        for (i = 0; i < n; i++) lcl_dense_set(out, i, j, v[j * n + i]);
    return LCL_OK;
}
void dense_to_array(const lcl_dense *m, double *v) {
    int64_t i, j;
    for (j = 0; j < m->cols; j++)
        for (i = 0; i < m->rows; i++) v[j * m->rows + i] = lcl_dense_get(m, i, j);
}
lcl_status dense_convert(lcl_context *ctx, const lcl_dense *src, lcl_dtype dt, lcl_dense *out) {
    int64_t i, j;
    lcl_status st = lcl_dense_alloc(ctx, out, dt, LCL_COL_MAJOR, src->rows, src->cols);
    if (st != LCL_OK) return st;
    for (j = 0; j < src->cols; j++)
        for (i = 0; i < src->rows; i++) lcl_dense_set(out, i, j, lcl_dense_get(src, i, j));
    return LCL_OK;
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
int too_big(const char *src, double n) {
    return fail(EXIT_USAGE, "%s: n = %.0f: the dense matrix would take %.1f GiB (the limit is %.0f GiB)", src, n,
                n * n * 8.0 / 1073741824.0, DENSE_MAX_BYTES / 1073741824.0);
}

/* MATRIX (a Matrix Market file, symmetric storage expanded, or gen:SPEC) as a square column-major
   double matrix. -1 on success, else the exit code (the error is printed). */
int load_square(lcl_context *ctx, const char *src, uint64_t seed, lcl_dense *A) {
    lcl_status st;
    lcl_mm_info info;
    memset(A, 0, sizeof *A);
    if (!strncmp(src, "gen:", 4)) {
        lcl_coo coo;
        char err[1024] = "";
        double hint = gen_dim_hint(src + 4);
        if (hint > 0 && hint * hint * 8.0 > DENSE_MAX_BYTES) return too_big(src, hint);
        if (lclg_is_dense_kind(src + 4)) {
            st = lclg_gen_dense(ctx, src + 4, seed, A, err, sizeof err);
            return st == LCL_OK ? -1 : fail(exit_code(st), "%s", err[0] ? err : lcl_status_string(st));
        }
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

int64_t count_nonzeros(const lcl_dense *A) {
    int64_t i, j, c = 0;
    for (j = 0; j < A->cols; j++)
        for (i = 0; i < A->rows; i++) c += lcl_dense_get(A, i, j) != 0;
    return c;
}

void dense_system_free(dense_system *c) {
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
int dense_system_make(lcl_context *gctx, int chol, int64_t n, uint64_t seed, lcl_dtype dt, dense_system *c) {
    char spec[64], err[1024] = "";
    lcl_status st;
    int64_t i;
    memset(c, 0, sizeof *c);
    snprintf(spec, sizeof spec, "%s:%lld", chol ? "dense-spd" : "dense-random", (long long)n);
    if ((st = lclg_gen_dense(gctx, spec, seed, &c->A, err, sizeof err)) != LCL_OK)
        return fail(exit_code(st), "%s", err[0] ? err : lcl_status_string(st));
    st = dense_convert(gctx, &c->A, dt, &c->Aw);
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
        dense_system_free(c);
        return fail(exit_code(st), "%s", st == LCL_ERR_OUT_OF_MEMORY ? "out of memory" : lcl_last_error(gctx));
    }
    return -1;
}
