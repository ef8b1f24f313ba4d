/* test_sparse.c -- lcl_spmat on the CPU backends: every format x {double, float} x {serial,
   OpenMP} x {A x, A^T x} against a dense-free reference product computed here in long double from
   the COO, on small hand-made matrices (0x0 .. 33x20, empty rows, heavy-tailed rows), a textbook
   5x5 example, generated stencils and every real matrix (tests/data/matrices, plus the others of
   $LCL_SHARED/matrices when present); round trips to CSR, alpha/beta cases, the padding guard,
   invalid input, device vectors and the auto rule.
   OpenCL contexts are left to test_sparse_opencl. */
#define _POSIX_C_SOURCE 200809L
#include "lt.h"
#include "../tools/lcl_gen.h"
#include <stdlib.h>
#include <stdint.h>
#include <float.h>

/* OpenMP with 3 parts on 2 cores: uneven splits */
static lcl_context *sctx(lcl_backend b) { return lt_context(b, NULL, NULL, NULL, b == LCL_BACKEND_OPENMP ? 3 : 0); }

static uint64_t rs = 0x243F6A8885A308D3ULL;
static uint64_t rnd(void) { rs ^= rs >> 12; rs ^= rs << 25; rs ^= rs >> 27; return rs * 2685821657736338717ULL; }
/* small values exact in float: multiples of 1/64 in [-4, 4) */
static double rval(void) { return (double)((int)(rnd() >> 40) % 512 - 256) / 64.0; }

/* ---- the reference: y = alpha op(A) x + beta y0 from a COO, in long double ---- */
typedef struct refp { int64_t n; long double *y; double *scale; } refp;
static void ref_product(const lcl_coo *A, int trans, double alpha, const double *x, double beta, const double *y0, refp *r) {
    int64_t nout = trans ? A->cols : A->rows, k, i;
    r->n = nout;
    r->y = (long double *)calloc((size_t)(nout ? nout : 1), sizeof(long double));
    r->scale = (double *)calloc((size_t)(nout ? nout : 1), sizeof(double));
    for (k = 0; k < A->nnz; k++) {
        double a = A->dtype == LCL_F32 ? (double)((const float *)A->val)[k] : ((const double *)A->val)[k];
        int64_t o = trans ? A->col[k] : A->row[k], in = trans ? A->row[k] : A->col[k];
        r->y[o] += (long double)a * x[in];
        r->scale[o] += fabs(a * x[in]);
    }
    for (i = 0; i < nout; i++) {
        r->y[i] *= alpha;
        r->scale[i] *= fabs(alpha);
        if (beta != 0) { r->y[i] += (long double)beta * y0[i]; r->scale[i] += fabs(beta * y0[i]); }
    }
}
static void ref_free(refp *r) { free(r->y); free(r->scale); }
/* worst |y - ref| / scale; a row with scale 0 must be exact */
static double ref_err(const refp *r, const void *y, lcl_dtype dt, int64_t *worst_row) {
    double w = 0;
    int64_t i;
    *worst_row = -1;
    for (i = 0; i < r->n; i++) {
        double got = dt == LCL_F32 ? (double)((const float *)y)[i] : ((const double *)y)[i];
        double e = fabs((double)((long double)got - r->y[i]));
        double q = r->scale[i] > 0 ? e / r->scale[i] : (e == 0 ? 0 : 1e300);
        if (!(q <= w)) { w = q != q ? 1e300 : q; *worst_row = i; }
    }
    return w;
}

static const lcl_format all_formats[] = {LCL_FMT_COO, LCL_FMT_CSR, LCL_FMT_CSC, LCL_FMT_ELL, LCL_FMT_SELL,
                                         LCL_FMT_HYB, LCL_FMT_DIA, LCL_FMT_BCSR, LCL_FMT_DENSE};
#define N_FORMATS ((int)(sizeof all_formats / sizeof all_formats[0]))
static int keeps_zeros(lcl_format f) { return f != LCL_FMT_DIA && f != LCL_FMT_BCSR && f != LCL_FMT_DENSE; }
static int padded(lcl_format f) {
    return f == LCL_FMT_ELL || f == LCL_FMT_SELL || f == LCL_FMT_HYB || f == LCL_FMT_DIA || f == LCL_FMT_BCSR || f == LCL_FMT_DENSE;
}

/* to_csr must give back the input (without its stored zeros for DIA/BCSR/dense) */
static void check_round_trip(lcl_context *ctx, const char *what, const lcl_spmat *S, const lcl_csr *in, lcl_format f) {
    lcl_csr o;
    int64_t i, k, q = 0, bad = 0;
    size_t es = in->dtype == LCL_F32 ? sizeof(float) : sizeof(double);
    CHECK_OK(ctx, lcl_spmat_to_csr(ctx, S, &o));
    if (!o.ptr) return;
    CHECK_MSG(o.rows == in->rows && o.cols == in->cols && o.dtype == in->dtype, "%s: to_csr shape", what);
    for (i = 0; i < in->rows && !bad; i++) {
        int64_t q0 = q;
        for (k = in->ptr[i]; k < in->ptr[i + 1]; k++) {
            const char *v = (const char *)in->val + (size_t)k * es;
            int zero = in->dtype == LCL_F32 ? *(const float *)v == 0 : *(const double *)v == 0;
            if (zero && !keeps_zeros(f)) continue;
            if (q >= o.nnz || o.col[q] != in->col[k] || memcmp((const char *)o.val + (size_t)q * es, v, es) != 0) { bad = 1; break; }
            q++;
        }
        if (o.ptr[i] != q0 || o.ptr[i + 1] != q) bad = 1;
        if (bad) CHECK_MSG(0, "%s: to_csr differs from the input in row %lld", what, (long long)i);
    }
    CHECK_MSG(bad || o.nnz == q, "%s: to_csr has %lld entries, want %lld", what, (long long)o.nnz, (long long)q);
    lcl_csr_free(&o);
}

static long n_products, n_builds, n_fill;
static lcl_format S_format(const lcl_spmat *S) { lcl_spmat_info i; lcl_spmat_describe(S, &i); return i.format; }

/* every product case of one built matrix */
static void check_products(lcl_context *ctx, const char *what, lcl_spmat *S, const lcl_coo *A) {
    static const double ab[][2] = {{1, 0}, {2.5, -0.5}, {0, 2}, {-1, 1}, {0, 0}};
    double tol = A->dtype == LCL_F32 ? 1e-5 : 1e-14;
    size_t es = A->dtype == LCL_F32 ? sizeof(float) : sizeof(double);
    int64_t nmax = (A->rows > A->cols ? A->rows : A->cols) + 1, i, wr;
    double *xd = (double *)malloc(sizeof(double) * (size_t)nmax), *y0 = (double *)malloc(sizeof(double) * (size_t)nmax);
    void *x = malloc(es * (size_t)nmax), *y = malloc(es * (size_t)nmax);
    int c, t, usevec;
    for (i = 0; i < nmax; i++) {
        xd[i] = rval();
        y0[i] = rval();
        if (A->dtype == LCL_F32) ((float *)x)[i] = (float)xd[i];
        else ((double *)x)[i] = xd[i];
    }
    for (t = 0; t < 2; t++)
        for (c = 0; c < (int)(sizeof ab / sizeof ab[0]); c++)
            for (usevec = 0; usevec < 2; usevec++) {
                int64_t nout = t ? A->cols : A->rows, nin = t ? A->rows : A->cols;
                refp r;
                double e;
                lcl_status st;
                if (usevec && c != 1) continue;
                for (i = 0; i < nout; i++) {   /* beta == 0: y holds NaN, it must not be read */
                    double v = ab[c][1] == 0 ? NAN : y0[i];
                    if (A->dtype == LCL_F32) ((float *)y)[i] = (float)v;
                    else ((double *)y)[i] = v;
                }
                if (ab[c][0] == 0 && nin > 0) {   /* alpha == 0: x (and A) must not be read */
                    if (A->dtype == LCL_F32) ((float *)x)[0] = NAN;
                    else ((double *)x)[0] = NAN;
                }
                if (usevec) {
                    lcl_vec *vx = NULL, *vy = NULL;
                    CHECK_OK(ctx, lcl_vec_create(ctx, A->dtype, nin, x, &vx));
                    CHECK_OK(ctx, lcl_vec_create(ctx, A->dtype, nout, y, &vy));
                    st = lcl_spmv_vec(ctx, t ? LCL_TRANS : LCL_NO_TRANS, ab[c][0], S, vx, ab[c][1], vy);
                    CHECK_OK(ctx, lcl_vec_read(ctx, vy, y));
                    lcl_vec_free(vx);
                    lcl_vec_free(vy);
                } else
                    st = lcl_spmv(ctx, t ? LCL_TRANS : LCL_NO_TRANS, ab[c][0], S, x, ab[c][1], y);
                if (nin > 0) {
                    if (A->dtype == LCL_F32) ((float *)x)[0] = (float)xd[0];
                    else ((double *)x)[0] = xd[0];
                }
                if (st == LCL_ERR_FILL && t && padded(S_format(S))) { n_fill++; break; }   /* A^T pads more than allowed */
                CHECK_MSG(st == LCL_OK, "%s %s alpha %g beta %g: %s", what, t ? "A^T x" : "A x", ab[c][0], ab[c][1], lcl_last_error(ctx));
                if (st != LCL_OK) continue;
                n_products++;
                ref_product(A, t, ab[c][0], xd, ab[c][1], y0, &r);
                e = ref_err(&r, y, A->dtype, &wr);
                CHECK_MSG(e <= tol, "%s %s%s alpha %g beta %g: error %.3g (row %lld) > %g", what, t ? "A^T x" : "A x", usevec ? " (lcl_vec)" : "",
                          ab[c][0], ab[c][1], e, (long long)wr, tol);
                ref_free(&r);
            }
    free(xd);
    free(y0);
    free(x);
    free(y);
}

/* independent slot counts of the padded formats a test can predict (-1: not predicted) */
static double predicted_slots(const lcl_csr *M, lcl_format f) {
    int64_t i, mx = 0, k;
    if (f == LCL_FMT_DENSE) return (double)M->rows * (double)M->cols;
    for (i = 0; i < M->rows; i++) if (M->ptr[i + 1] - M->ptr[i] > mx) mx = M->ptr[i + 1] - M->ptr[i];
    if (f == LCL_FMT_ELL) return (double)mx * (double)M->rows;
    if (f == LCL_FMT_DIA) {
        char *seen = (char *)calloc((size_t)(M->rows + M->cols + 1), 1);
        double nd = 0;
        for (i = 0; i < M->rows; i++)
            for (k = M->ptr[i]; k < M->ptr[i + 1]; k++)
                if (!seen[M->col[k] - i + M->rows]) { seen[M->col[k] - i + M->rows] = 1; nd++; }
        free(seen);
        return nd * (double)M->rows;
    }
    return -1;
}

/* every format (CSR with both CPU kernels) of the canonical COO A on ctx */
static void check_all_formats(lcl_context *ctx, const char *name, const lcl_coo *A) {
    lcl_csr M;
    int fi, kk;
    CHECK_OK(ctx, lcl_csr_from_coo(ctx, A, &M));
    if (!M.ptr) return;
    for (fi = 0; fi < N_FORMATS; fi++)
        for (kk = 0; kk < (all_formats[fi] == LCL_FMT_CSR ? 2 : 1); kk++) {
            lcl_format f = all_formats[fi];
            lcl_spmat_opts o;
            lcl_spmat *S = NULL;
            lcl_spmat_info info;
            lcl_status st;
            char what[300];
            memset(&o, 0, sizeof o);
            o.format = f;
            o.kernel = kk ? LCL_KERNEL_MERGE : LCL_KERNEL_AUTO;
            snprintf(what, sizeof what, "%s %s %s %s%s", name, A->dtype == LCL_F32 ? "f32" : "f64", lcl_backend_name(lcl_context_backend(ctx)),
                     lcl_format_name(f), kk ? "/merge" : "");
            st = lcl_spmat_create(ctx, &M, &o, &S);
            if (st == LCL_ERR_FILL) {
                double want = predicted_slots(&M, f);
                n_fill++;
                CHECK_MSG(padded(f) && S == NULL, "%s: FILL from an unpadded format", what);
                CHECK_MSG(want < 0 || want > 3.0 * (double)(M.nnz ? M.nnz : 1) + (double)M.rows, "%s: FILL, yet %.0f slots fit", what, want);
                CHECK_MSG(strstr(lcl_last_error(ctx), "slots") && strstr(lcl_last_error(ctx), "max_fill"), "%s: message %s", what, lcl_last_error(ctx));
                if (f == LCL_FMT_DENSE && (double)M.rows * (double)M.cols > 4e6) continue;
                o.max_fill = 1e9;
                st = lcl_spmat_create(ctx, &M, &o, &S);
            } else if (st == LCL_OK && padded(f)) {
                double want = predicted_slots(&M, f);
                CHECK_MSG(want < 0 || want <= 3.0 * (double)(M.nnz ? M.nnz : 1) + (double)M.rows, "%s: built, yet %.0f slots exceed the guard", what, want);
            }
            CHECK_MSG(st == LCL_OK, "%s: create: %s", what, lcl_last_error(ctx));
            if (st != LCL_OK) continue;
            n_builds++;
            CHECK_OK(ctx, lcl_spmat_describe(S, &info));
            CHECK(info.format == f && info.rows == M.rows && info.cols == M.cols && info.nnz == M.nnz && info.dtype == M.dtype);
            CHECK(info.kernel == (f == LCL_FMT_CSR && kk ? LCL_KERNEL_MERGE : f == LCL_FMT_CSR && info.kernel == LCL_KERNEL_MERGE ? LCL_KERNEL_MERGE : LCL_KERNEL_SCALAR));
            CHECK(info.bytes >= (double)(M.rows + M.cols) * (M.dtype == LCL_F32 ? 4 : 8));
            CHECK(info.devices == 0);
            if (padded(f) && o.max_fill == 0) CHECK_MSG(info.stored <= 3 * (info.nnz ? info.nnz : 1) + info.rows, "%s: %lld stored", what, (long long)info.stored);
            if (!padded(f)) CHECK(info.stored == info.nnz);
            if (f == LCL_FMT_DENSE) CHECK(info.stored == M.rows * M.cols);
            if (f == LCL_FMT_ELL || f == LCL_FMT_DIA) CHECK(info.stored == (int64_t)predicted_slots(&M, f));
            check_round_trip(ctx, what, S, &M, f);
            check_products(ctx, what, S, A);
            lcl_spmat_free(S);
        }
    lcl_csr_free(&M);
}

/* both dtypes, both CPU backends */
static void check_everywhere(const char *name, const lcl_coo *A64) {
    lcl_backend bs[2] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP};
    int b, d;
    for (b = 0; b < 2; b++) {
        lcl_context *ctx = sctx(bs[b]);
        if (!ctx) { CHECK(ctx != NULL); continue; }
        for (d = 0; d < 2; d++) {
            lcl_coo A;
            CHECK_OK(ctx, lcl_coo_copy(ctx, A64, d ? LCL_F32 : LCL_F64, &A));
            check_all_formats(ctx, name, &A);
            lcl_coo_free(&A);
        }
        lcl_context_destroy(ctx);
    }
}

/* random COO: row lengths from kind (0 uniform, 1 heavy-tailed with one very long row), some
   empty rows, unsorted with duplicates (canonicalized) */
static void random_coo(lcl_coo *A, int64_t rows, int64_t cols, int kind, double density) {
    int64_t i, k;
    lcl_coo_alloc(NULL, A, LCL_F64, rows, cols, 16);
    for (i = 0; i < rows; i++) {
        int64_t len;
        if (i % 7 == 3) continue;   /* empty rows */
        if (kind == 0) len = (int64_t)(rnd() % (uint64_t)(2 * density * (double)cols + 1));
        else {
            double u = (double)(rnd() >> 11) / 9007199254740992.0;
            len = (int64_t)(density / (u * u + 0.02));     /* heavy tail */
            if (i == rows / 2) len = cols;                  /* one full row */
        }
        if (len > cols) len = cols;
        for (k = 0; k < len && cols > 0; k++) lcl_coo_push(NULL, A, i, (int64_t)(rnd() % (uint64_t)cols), rval());
    }
    lcl_coo_canonicalize(NULL, A);
}

static void test_sparse_small(void) {
    static const int sz[][2] = {{0, 0}, {1, 1}, {2, 2}, {17, 17}, {33, 20}, {20, 33}, {0, 5}, {5, 0}, {40, 40}};
    int s;
    for (s = 0; s < (int)(sizeof sz / sizeof sz[0]); s++) {
        lcl_coo A;
        char name[64];
        random_coo(&A, sz[s][0], sz[s][1], 0, 0.2);
        snprintf(name, sizeof name, "random %dx%d", sz[s][0], sz[s][1]);
        check_everywhere(name, &A);
        lcl_coo_free(&A);
    }
    {   /* no entries at all, and a single entry in a corner */
        lcl_coo E;
        lcl_coo_alloc(NULL, &E, LCL_F64, 6, 9, 1);
        check_everywhere("empty 6x9", &E);
        lcl_coo_push(NULL, &E, 5, 8, -3.25);
        check_everywhere("one corner entry 6x9", &E);
        lcl_coo_free(&E);
    }
    {   /* explicit zeros and negative zeros are entries (DIA/BCSR/dense drop them on the way back) */
        lcl_coo Z;
        lcl_coo_alloc(NULL, &Z, LCL_F64, 4, 4, 8);
        lcl_coo_push(NULL, &Z, 0, 0, 0.0);
        lcl_coo_push(NULL, &Z, 1, 2, -0.0);
        lcl_coo_push(NULL, &Z, 2, 1, 1.5);
        lcl_coo_push(NULL, &Z, 3, 3, 2);
        check_everywhere("explicit zeros 4x4", &Z);
        lcl_coo_free(&Z);
    }
}

static void test_sparse_heavy(void) {
    lcl_coo A;
    random_coo(&A, 3000, 2500, 1, 3.0);    /* heavy tail, a full row: merge carries across parts */
    CHECK(A.nnz > 16384);
    check_everywhere("heavy-tailed 3000x2500", &A);
    lcl_coo_free(&A);
    random_coo(&A, 700, 900, 0, 0.02);
    check_everywhere("uniform 700x900", &A);
    lcl_coo_free(&A);
}

static void test_sparse_generated(void) {
    static const char *specs[] = {"poisson2d:70", "poisson3d:12", "powerlaw:5000:12"};
    int s;
    for (s = 0; s < 3; s++) {
        lcl_coo A;
        char err[256];
        if (lclg_gen_coo(NULL, specs[s], 7, LCL_F64, &A, err, sizeof err) != LCL_OK) { CHECK_MSG(0, "gen %s: %s", specs[s], err); continue; }
        check_everywhere(specs[s], &A);
        lcl_coo_free(&A);
    }
}

/* a textbook 5x5 example: CSR pointers [0,2,4,5,7,10], ELL width 3 */
static void test_sparse_thesis(void) {
    static const double D[5][5] = {{0, 0, 3, 1, 0}, {2, 0, 0, 4, 0}, {0, 0, 2, 0, 0}, {0, 3, 0, 1, 0}, {4, 0, 2, 0, 3}};
    static const int64_t ptr[6] = {0, 2, 4, 5, 7, 10};
    static const int32_t cols[10] = {2, 3, 0, 3, 2, 1, 3, 0, 2, 4};
    lcl_context *ctx = sctx(LCL_BACKEND_SERIAL);
    lcl_coo A;
    lcl_csr M;
    lcl_spmat *S = NULL;
    lcl_spmat_opts o;
    lcl_spmat_info info;
    double x[5] = {1, 1, 1, 1, 1}, y[5];
    int i, j, f;
    if (!ctx) { CHECK(ctx != NULL); return; }
    lcl_coo_alloc(ctx, &A, LCL_F64, 5, 5, 10);
    for (j = 4; j >= 0; j--)     /* pushed column by column, backwards: the conversion sorts */
        for (i = 4; i >= 0; i--) if (D[i][j] != 0) lcl_coo_push(ctx, &A, i, j, D[i][j]);
    memset(&o, 0, sizeof o);
    o.format = LCL_FMT_CSR;
    CHECK_OK(ctx, lcl_spmat_from_coo(ctx, &A, &o, &S));
    CHECK_OK(ctx, lcl_spmat_to_csr(ctx, S, &M));
    CHECK(M.nnz == 10 && memcmp(M.ptr, ptr, sizeof ptr) == 0 && memcmp(M.col, cols, sizeof cols) == 0);
    lcl_spmat_free(S);
    for (f = 0; f < N_FORMATS; f++) {
        o.format = all_formats[f];
        CHECK_OK(ctx, lcl_spmat_create(ctx, &M, &o, &S));
        if (!S) continue;
        CHECK_OK(ctx, lcl_spmv(ctx, LCL_NO_TRANS, 1.0, S, x, 0.0, y));
        CHECK_MSG(y[0] == 4 && y[1] == 6 && y[2] == 2 && y[3] == 4 && y[4] == 9, "%s: A*1 = %g %g %g %g %g", lcl_format_name(o.format), y[0], y[1], y[2], y[3], y[4]);
        CHECK_OK(ctx, lcl_spmv(ctx, LCL_TRANS, 1.0, S, x, 0.0, y));    /* column sums */
        CHECK_MSG(y[0] == 6 && y[1] == 3 && y[2] == 7 && y[3] == 6 && y[4] == 3, "%s: A^T*1", lcl_format_name(o.format));
        lcl_spmat_describe(S, &info);
        if (o.format == LCL_FMT_ELL) CHECK_MSG(info.stored == 15, "ELL width 3: %lld slots", (long long)info.stored);
        if (o.format == LCL_FMT_DIA) CHECK_MSG(info.stored == 30, "6 diagonals: %lld slots", (long long)info.stored);
        if (o.format == LCL_FMT_DENSE) CHECK(info.stored == 25);
        if (o.format == LCL_FMT_HYB) CHECK(info.stored == 10 + 0 * 5 || info.stored >= 10);
        lcl_spmat_free(S);
    }
    check_everywhere("thesis 5x5", &A);
    lcl_csr_free(&M);
    lcl_coo_free(&A);
    lcl_context_destroy(ctx);
}

/* every real matrix: the shipped ones, and the others of $LCL_SHARED/matrices when present */
static void test_sparse_shared(void) {
    static char names[64][LT_NAME_MAX];
    int i, nm, n = 0;
    lcl_context *ctx = sctx(LCL_BACKEND_SERIAL);
    if (!ctx) { CHECK(ctx != NULL); return; }
    nm = lt_matrix_list(names, 64);
    for (i = 0; i < nm; i++) {
        char path[1200];
        lcl_coo A;
        lt_matrix_path(path, sizeof path, names[i]);
        if (lcl_mm_read(ctx, path, LCL_F64, LCL_MM_EXPAND, &A, NULL) != LCL_OK) { CHECK_MSG(0, "%s: %s", path, lcl_last_error(ctx)); continue; }
        fprintf(stderr, "  %s: %lldx%lld, %lld nonzeros\n", path, (long long)A.rows, (long long)A.cols, (long long)A.nnz);
        check_everywhere(names[i], &A);
        lcl_coo_free(&A);
        n++;
    }
    CHECK(n >= 11);     /* the shipped ones */
    lcl_context_destroy(ctx);
    fprintf(stderr, "  %ld builds, %ld refused for fill, %ld products checked so far\n", n_builds, n_fill, n_products);
}

/* format options: SELL C and sigma, BCSR blocks, HYB widths */
static void test_sparse_options(void) {
    static const int sell[][2] = {{1, 1}, {3, 1}, {3, 5}, {8, 64}, {32, 256}, {256, 1000}};
    static const int blk[][2] = {{1, 1}, {3, 2}, {5, 7}, {4, 4}, {64, 1}};
    static const int hw[] = {0, 1, 2, 5, 1000};
    lcl_backend bs[2] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP};
    lcl_coo A;
    int b, i;
    random_coo(&A, 300, 170, 1, 2.0);
    for (b = 0; b < 2; b++) {
        lcl_context *ctx = sctx(bs[b]);
        lcl_csr M;
        if (!ctx) { CHECK(ctx != NULL); continue; }
        CHECK_OK(ctx, lcl_csr_from_coo(ctx, &A, &M));
        for (i = 0; i < (int)(sizeof sell / sizeof sell[0]) + (int)(sizeof blk / sizeof blk[0]) + (int)(sizeof hw / sizeof hw[0]); i++) {
            lcl_spmat_opts o;
            lcl_spmat *S = NULL;
            char what[100];
            int ns = (int)(sizeof sell / sizeof sell[0]), nb = (int)(sizeof blk / sizeof blk[0]);
            memset(&o, 0, sizeof o);
            o.max_fill = 1e6;
            if (i < ns) { o.format = LCL_FMT_SELL; o.sell_c = sell[i][0]; o.sell_sigma = sell[i][1]; }
            else if (i < ns + nb) { o.format = LCL_FMT_BCSR; o.block_r = blk[i - ns][0]; o.block_c = blk[i - ns][1]; }
            else { o.format = LCL_FMT_HYB; o.hyb_width = hw[i - ns - nb]; }
            snprintf(what, sizeof what, "options %s C%d s%d b%dx%d w%d (%s)", lcl_format_name(o.format), o.sell_c, o.sell_sigma, o.block_r,
                     o.block_c, o.hyb_width, lcl_backend_name(bs[b]));
            CHECK_OK(ctx, lcl_spmat_create(ctx, &M, &o, &S));
            if (!S) continue;
            check_round_trip(ctx, what, S, &M, o.format);
            check_products(ctx, what, S, &A);
            lcl_spmat_free(S);
        }
        lcl_csr_free(&M);
        lcl_context_destroy(ctx);
    }
    lcl_coo_free(&A);
}

/* padding guard: refused before the storage is allocated */
static void test_sparse_fill_guard(void) {
    lcl_context *ctx = sctx(LCL_BACKEND_SERIAL);
    lcl_coo W, T;
    lcl_csr M;
    lcl_spmat *S = NULL;
    lcl_spmat_opts o;
    int64_t i;
    if (!ctx) { CHECK(ctx != NULL); return; }
    /* arrow: a full first row and column and the diagonal */
    lcl_coo_alloc(ctx, &W, LCL_F64, 500, 500, 1500);
    for (i = 0; i < 500; i++) {
        lcl_coo_push(ctx, &W, 0, i, 1.0);
        if (i) { lcl_coo_push(ctx, &W, i, 0, 1.0); lcl_coo_push(ctx, &W, i, i, 2.0); }
    }
    memset(&o, 0, sizeof o);
    o.format = LCL_FMT_ELL;
    lt_alloc_fail_at(0);
    CHECK_STATUS(ctx, lcl_spmat_from_coo(ctx, &W, &o, &S), LCL_ERR_FILL);
    CHECK(S == NULL);
    CHECK_MSG(strstr(lcl_last_error(ctx), "250000 slots") && strstr(lcl_last_error(ctx), "1498 nonzeros"), "%s", lcl_last_error(ctx));
    CHECK_OK(ctx, lcl_csr_from_coo(ctx, &W, &M));
    lt_alloc_fail_at(0);
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_FILL);
    CHECK_MSG(lt_alloc_calls() <= 1, "ELL refused after %ld allocations", lt_alloc_calls());
    o.max_fill = 170;    /* 250000 <= 170*1498 + 500 */
    CHECK_OK(ctx, lcl_spmat_create(ctx, &M, &o, &S));
    lcl_spmat_free(S);
    S = NULL;
    o.max_fill = 0;
    o.format = LCL_FMT_HYB;     /* HYB takes the arrow: the long row goes to its COO part */
    CHECK_OK(ctx, lcl_spmat_create(ctx, &M, &o, &S));
    lcl_spmat_free(S);
    S = NULL;
    lcl_csr_free(&M);
    /* dense of a big sparse matrix */
    lcl_coo_alloc(ctx, &T, LCL_F32, 20000, 20000, 60000);
    for (i = 0; i < 20000; i++) {
        lcl_coo_push(ctx, &T, i, i, 2.0);
        if (i) lcl_coo_push(ctx, &T, i, i - 1, -1.0);
    }
    CHECK_OK(ctx, lcl_csr_from_coo(ctx, &T, &M));
    o.format = LCL_FMT_DENSE;
    lt_alloc_fail_at(0);
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_FILL);
    CHECK_MSG(lt_alloc_calls() <= 1, "dense refused after %ld allocations", lt_alloc_calls());
    CHECK_MSG(strstr(lcl_last_error(ctx), "400000000 slots") != NULL, "%s", lcl_last_error(ctx));
    o.format = LCL_FMT_BCSR;    /* 4x4 blocks on a bidiagonal: 2 blocks of 16 per 4 rows > 3 * 2 */
    o.block_r = 8; o.block_c = 8;
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_FILL);
    o.format = LCL_FMT_DIA;     /* 2 diagonals: fine */
    CHECK_OK(ctx, lcl_spmat_create(ctx, &M, &o, &S));
    lcl_spmat_free(S);
    lcl_csr_free(&M);
    lcl_coo_free(&T);
    lcl_coo_free(&W);
    lcl_context_destroy(ctx);
}

/* invalid input: NaN/Inf, bad CSR, COO indices, duplicates, options */
static void test_sparse_invalid(void) {
    lcl_context *ctx = sctx(LCL_BACKEND_SERIAL);
    int64_t ptr[4] = {0, 2, 3, 5};
    int32_t col[5] = {0, 2, 1, 0, 3};
    double val[5] = {1, 2, 3, 4, 5};
    lcl_csr M;
    lcl_coo C;
    lcl_spmat *S = NULL;
    lcl_spmat_opts o;
    lcl_csr back;
    int f;
    if (!ctx) { CHECK(ctx != NULL); return; }
    M.dtype = LCL_F64; M.rows = 3; M.cols = 4; M.nnz = 5; M.ptr = ptr; M.col = col; M.val = val;
    CHECK_OK(ctx, lcl_spmat_create(ctx, &M, NULL, &S));
    lcl_spmat_free(S);
    for (f = 0; f < N_FORMATS; f++) {   /* every format refuses the same way, before building */
        memset(&o, 0, sizeof o);
        o.format = all_formats[f];
        val[3] = NAN;
        CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_NAN);
        CHECK(S == NULL && strstr(lcl_last_error(ctx), "NaN") && strstr(lcl_last_error(ctx), "(2,0)"));
        val[3] = -INFINITY;
        CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_NAN);
        CHECK(strstr(lcl_last_error(ctx), "Inf") != NULL);
        val[3] = 4;
        col[4] = 4;
        CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_DIMENSION);
        col[4] = -1;
        CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_DIMENSION);
        col[4] = 0;     /* duplicate of (2,0) */
        CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
        CHECK(strstr(lcl_last_error(ctx), "duplicate") != NULL);
        col[3] = 3; col[4] = 1;     /* unsorted */
        CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
        CHECK(strstr(lcl_last_error(ctx), "not sorted") != NULL);
        col[3] = 0; col[4] = 3;
        ptr[1] = 4; ptr[2] = 3;      /* decreasing */
        CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
        ptr[1] = 2; ptr[2] = 3;
        M.nnz = 4;                  /* ptr[rows] != nnz */
        CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
        M.nnz = 5;
        ptr[0] = 1;
        CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
        ptr[0] = 0;
        M.dtype = (lcl_dtype)5;
        CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
        M.dtype = LCL_F64;
        M.rows = -1;
        CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
        M.rows = 3;
        CHECK(S == NULL);
    }
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, NULL, NULL, &S), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, NULL, NULL), LCL_ERR_INVALID_ARGUMENT);
    /* options */
    memset(&o, 0, sizeof o);
    o.format = (lcl_format)99;
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
    o.format = LCL_FMT_CSR; o.kernel = (lcl_spmv_kernel)-1;
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
    o.kernel = LCL_KERNEL_AUTO; o.max_fill = -1;
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
    o.max_fill = NAN;
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
    o.max_fill = 0; o.sell_c = 1000;
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
    o.sell_c = 0; o.block_r = 65;
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
    o.block_r = 0; o.hyb_width = -2;
    CHECK_STATUS(ctx, lcl_spmat_create(ctx, &M, &o, &S), LCL_ERR_INVALID_ARGUMENT);
    /* COO: out-of-range index, NaN, duplicates summed (unsorted input) */
    memset(&C, 0, sizeof C);
    C.dtype = LCL_F64; C.rows = 3; C.cols = 4; C.nnz = 5; C.cap = 5;
    {
        int32_t r[5] = {2, 0, 2, 0, 1}, c[5] = {3, 2, 3, 0, 1};
        double v[5] = {1.5, 2, 2.25, 1, 4};
        C.row = r; C.col = c; C.val = v;
        o.hyb_width = 0;
        o.format = LCL_FMT_ELL;
        CHECK_OK(ctx, lcl_spmat_from_coo(ctx, &C, &o, &S));
        if (S) {
            double x[4] = {1, 10, 100, 1000}, y[3];
            CHECK_OK(ctx, lcl_spmat_to_csr(ctx, S, &back));
            CHECK(back.nnz == 4 && back.ptr[3] == 4 && back.col[3] == 3 && ((double *)back.val)[3] == 3.75);
            lcl_csr_free(&back);
            CHECK_OK(ctx, lcl_spmv(ctx, LCL_NO_TRANS, 1, S, x, 0, y));
            CHECK(y[0] == 201 && y[1] == 40 && y[2] == 3750);
            lcl_spmat_free(S);
            S = NULL;
        }
        r[1] = 3;
        CHECK_STATUS(ctx, lcl_spmat_from_coo(ctx, &C, &o, &S), LCL_ERR_DIMENSION);
        r[1] = 0; c[2] = -1;
        CHECK_STATUS(ctx, lcl_spmat_from_coo(ctx, &C, &o, &S), LCL_ERR_DIMENSION);
        c[2] = 3; v[4] = NAN;
        CHECK_STATUS(ctx, lcl_spmat_from_coo(ctx, &C, &o, &S), LCL_ERR_NAN);
        CHECK(S == NULL);
        /* c[2] intact: the input is never changed */
        CHECK(r[0] == 2 && c[0] == 3 && v[0] == 1.5);
    }
    CHECK_STATUS(ctx, lcl_spmat_from_coo(ctx, NULL, NULL, &S), LCL_ERR_INVALID_ARGUMENT);
    lcl_context_destroy(ctx);
}

/* lcl_spmv / lcl_spmv_vec argument checks, backends, lazily built transpose */
/* y = A x over A's entries alone: the reference for a non-finite x */
static void entries_product(const lcl_coo *A, const double *x, double *y) {
    int64_t k, i;
    for (i = 0; i < A->rows; i++) y[i] = 0;
    for (k = 0; k < A->nnz; k++)
        y[A->row[k]] += (A->dtype == LCL_F32 ? (double)((const float *)A->val)[k] : ((const double *)A->val)[k]) * x[A->col[k]];
}

/* x and y overlapping: refused on every backend (the CPU ones returned LCL_OK and y computed from
   a half-overwritten x). An Inf or NaN in x: every format gives the product over A's entries, so
   only rows with an entry in that column change (DIA, BCSR and dense multiplied the zeros they
   store: NaN in rows without one). alpha or beta NaN, Inf or beyond float: refused */
static void test_sparse_alias_inf(void) {
    static const lcl_backend bk[3] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP, LCL_BACKEND_OPENCL};
    static const lcl_format fmts[] = {LCL_FMT_COO, LCL_FMT_CSR, LCL_FMT_CSC, LCL_FMT_ELL, LCL_FMT_SELL,
                                      LCL_FMT_HYB, LCL_FMT_DIA, LCL_FMT_BCSR, LCL_FMT_DENSE};
    enum { NB = 64 };
    int b, p, m;
    for (b = 0; b < 3; b++)
        for (p = 0; p < 2; p++) {
            lcl_context *ctx = b == 2 ? lt_ocl(NULL) : sctx(bk[b]);
            lcl_dtype dt = p ? LCL_F32 : LCL_F64;
            if (!ctx) { if (b < 2) CHECK(ctx != NULL); continue; }
            if (dt == LCL_F64 && b == 2) {
                lcl_device_info di;
                if (lcl_context_device(ctx, 0, &di) != LCL_OK || !di.fp64) { lcl_context_destroy(ctx); continue; }
            }
            /* m = 0: 3 x 3, (0,0) (0,1) (1,1) (2,0), column 2 empty, x = {1, 1, Inf} (then NaN in
               column 1: rows 0 and 1); m = 1: tridiagonal 64 x 64 whose column 21 holds (21,21)
               alone, x[21] = Inf and later x[40] = NaN: DIA's vectorized interior rows */
            for (m = 0; m < 2; m++) {
                int n = m ? NB : 3, t;
                lcl_coo A;
                lcl_spmat_opts o;
                size_t f;
                memset(&A, 0, sizeof A);
                CHECK_OK(ctx, lcl_coo_alloc(ctx, &A, dt, n, n, 3 * n));
                if (!m) {
                    CHECK_OK(ctx, lcl_coo_push(ctx, &A, 0, 0, 1));
                    CHECK_OK(ctx, lcl_coo_push(ctx, &A, 0, 1, 3));
                    CHECK_OK(ctx, lcl_coo_push(ctx, &A, 1, 1, 1));
                    CHECK_OK(ctx, lcl_coo_push(ctx, &A, 2, 0, 2));
                } else {
                    int i;
                    for (i = 0; i < n; i++) {
                        if (i > 0 && i != 22) CHECK_OK(ctx, lcl_coo_push(ctx, &A, i, i - 1, -1 - i % 3));
                        CHECK_OK(ctx, lcl_coo_push(ctx, &A, i, i, 4 + i % 5));
                        if (i + 1 < n && i != 20) CHECK_OK(ctx, lcl_coo_push(ctx, &A, i, i + 1, -2 + i % 2));
                    }
                }
                memset(&o, 0, sizeof o);
                o.max_fill = 100;
                for (t = 0; t < 2; t++) {
                    double xs[NB], want[NB];
                    int i, bad = -1;
                    for (i = 0; i < n; i++) xs[i] = 1 + i % 4;
                    if (!m) xs[t ? 1 : 2] = t ? NAN : HUGE_VAL;
                    else xs[t ? 40 : 21] = t ? NAN : HUGE_VAL;
                    entries_product(&A, xs, want);
                    for (f = 0; f < sizeof fmts / sizeof fmts[0]; f++) {
                        lcl_spmat *S = NULL;
                        double yd[NB];
                        float xf[NB], yf[NB];
                        o.format = fmts[f];
                        if (lcl_spmat_from_coo(ctx, &A, &o, &S) != LCL_OK) { CHECK_MSG(0, "%s: %s", lcl_format_name(o.format), lcl_last_error(ctx)); continue; }
                        for (i = 0; i < n; i++) xf[i] = (float)xs[i];
                        CHECK_OK(ctx, lcl_spmv(ctx, LCL_NO_TRANS, 1.0, S, p ? (void *)xf : (void *)xs, 0.0, p ? (void *)yf : (void *)yd));
                        for (i = 0; i < n && bad < 0; i++) {
                            double yi = p ? (double)yf[i] : yd[i];
                            if (!(yi == want[i] || (yi != yi && want[i] != want[i]))) bad = i;
                        }
                        CHECK_MSG(bad < 0, "%s %s %s, %d x %d, x with %s: y[%d] = %g, want %g (the product over A's entries)",
                                  lcl_backend_name(bk[b]), lcl_format_name(o.format), p ? "f32" : "f64", n, n, t ? "NaN" : "Inf",
                                  bad, bad < 0 ? 0 : p ? (double)yf[bad] : yd[bad], bad < 0 ? 0 : want[bad]);
                        bad = -1;
                        if (!m && !t) {
                            /* the same array as x and y, and y one element into x */
                            double v[4] = {1, 2, 3, 0};
                            float vf[4] = {1, 2, 3, 0};
                            void *w = p ? (void *)vf : (void *)v;
                            CHECK_STATUS(ctx, lcl_spmv(ctx, LCL_NO_TRANS, 1.0, S, w, 0.0, w), LCL_ERR_INVALID_ARGUMENT);
                            CHECK_MSG(strstr(lcl_last_error(ctx), "overlap") != NULL, "%s", lcl_last_error(ctx));
                            CHECK_STATUS(ctx, lcl_spmv(ctx, LCL_TRANS, 1.0, S, w, 0.0, p ? (void *)(vf + 1) : (void *)(v + 1)),
                                         LCL_ERR_INVALID_ARGUMENT);
                            CHECK(p ? vf[0] == 1 && vf[1] == 2 && vf[2] == 3 : v[0] == 1 && v[1] == 2 && v[2] == 3);   /* untouched */
                            /* alpha or beta NaN or Inf: refused, y untouched (CSC and COO scattered
                               alpha a_ij x_j and left empty rows at beta y; CSR gave NaN there) */
                            CHECK_STATUS(ctx, lcl_spmv(ctx, LCL_NO_TRANS, NAN, S, p ? (void *)xf : (void *)xs, 0.0, w), LCL_ERR_NAN);
                            CHECK_MSG(strstr(lcl_last_error(ctx), "alpha is NaN") != NULL, "%s", lcl_last_error(ctx));
                            CHECK_STATUS(ctx, lcl_spmv(ctx, LCL_TRANS, 1.0, S, p ? (void *)xf : (void *)xs, -HUGE_VAL, w), LCL_ERR_NAN);
                            CHECK_MSG(strstr(lcl_last_error(ctx), "beta is Inf") != NULL, "%s", lcl_last_error(ctx));
                            CHECK_STATUS(ctx, lcl_spmv(ctx, LCL_NO_TRANS, HUGE_VAL, S, p ? (void *)xf : (void *)xs, 1.0, w), LCL_ERR_NAN);
                            CHECK_STATUS(ctx, lcl_spmv(ctx, LCL_NO_TRANS, 1e39, S, p ? (void *)xf : (void *)xs, 1.0, w),
                                         p ? LCL_ERR_OVERFLOW : LCL_OK);
                            if (p) {
                                lcl_vec *vx = NULL, *vy = NULL;
                                CHECK(vf[0] == 1 && vf[1] == 2 && vf[2] == 3);
                                CHECK_OK(ctx, lcl_vec_create(ctx, dt, 3, xf, &vx));
                                CHECK_OK(ctx, lcl_vec_create(ctx, dt, 3, NULL, &vy));
                                CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, S, vx, NAN, vy), LCL_ERR_NAN);
                                CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, -1e39, S, vx, 0.0, vy), LCL_ERR_OVERFLOW);
                                CHECK_MSG(strstr(lcl_last_error(ctx), "beyond the range of float") != NULL, "%s", lcl_last_error(ctx));
                                CHECK_OK(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1e30, S, vx, 0.0, vy));
                                lcl_vec_free(vx);
                                lcl_vec_free(vy);
                            }
                        }
                        lcl_spmat_free(S);
                    }
                }
                lcl_coo_free(&A);
            }
            lcl_context_destroy(ctx);
        }
}

static void test_sparse_vectors(void) {
    lcl_context *ctx = sctx(LCL_BACKEND_SERIAL), *omp = sctx(LCL_BACKEND_OPENMP);
    lcl_coo A;
    lcl_spmat *S = NULL, *P = NULL;
    lcl_vec *x = NULL, *y = NULL, *xt = NULL, *yt = NULL, *xf = NULL, *xo = NULL;
    double xs[20], ys[33], out[33];
    int i;
    if (!ctx || !omp) { CHECK(ctx && omp); lcl_context_destroy(ctx); lcl_context_destroy(omp); return; }
    random_coo(&A, 33, 20, 0, 0.3);
    CHECK_OK(ctx, lcl_spmat_from_coo(ctx, &A, NULL, &S));
    CHECK_OK(omp, lcl_spmat_from_coo(omp, &A, NULL, &P));
    for (i = 0; i < 20; i++) xs[i] = i;
    for (i = 0; i < 33; i++) ys[i] = 1;
    CHECK_OK(ctx, lcl_vec_create(ctx, LCL_F64, 20, xs, &x));
    CHECK_OK(ctx, lcl_vec_create(ctx, LCL_F64, 33, NULL, &y));
    CHECK_OK(ctx, lcl_vec_create(ctx, LCL_F64, 33, ys, &xt));
    CHECK_OK(ctx, lcl_vec_create(ctx, LCL_F64, 20, NULL, &yt));
    CHECK_OK(ctx, lcl_vec_create(ctx, LCL_F32, 20, NULL, &xf));
    CHECK_OK(omp, lcl_vec_create(omp, LCL_F64, 20, xs, &xo));
    CHECK_OK(ctx, lcl_vec_read(ctx, y, out));
    CHECK(out[0] == 0 && out[32] == 0);
    CHECK_OK(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1, S, x, 0, y));
    CHECK_OK(ctx, lcl_spmv_vec(ctx, LCL_TRANS, 1, S, xt, 0, yt));
    /* lengths: x must have cols entries, y rows (swapped for A^T) */
    CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1, S, xt, 0, y), LCL_ERR_DIMENSION);
    CHECK(strstr(lcl_last_error(ctx), "x of 20") != NULL);
    CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1, S, x, 0, yt), LCL_ERR_DIMENSION);
    CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_TRANS, 1, S, x, 0, y), LCL_ERR_DIMENSION);
    CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1, S, NULL, 0, y), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1, S, x, 0, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1, NULL, x, 0, y), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1, S, xf, 0, y), LCL_ERR_INVALID_ARGUMENT);   /* dtype */
    CHECK_STATUS(ctx, lcl_spmv_vec(ctx, (lcl_trans)7, 1, S, x, 0, y), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_spmv(ctx, LCL_NO_TRANS, 1, S, NULL, 0, out), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_spmv(ctx, LCL_NO_TRANS, 1, S, xs, 0, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_spmv(ctx, LCL_NO_TRANS, 1, NULL, xs, 0, out), LCL_ERR_INVALID_ARGUMENT);
    /* wrong backend: a serial matrix or vector with an OpenMP context and back */
    CHECK_STATUS(omp, lcl_spmv(omp, LCL_NO_TRANS, 1, S, xs, 0, out), LCL_ERR_INVALID_ARGUMENT);
    CHECK_MSG(strstr(lcl_last_error(omp), "serial") && strstr(lcl_last_error(omp), "openmp"), "%s", lcl_last_error(omp));
    CHECK_STATUS(ctx, lcl_spmv(ctx, LCL_NO_TRANS, 1, P, xs, 0, out), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(omp, lcl_spmv_vec(omp, LCL_NO_TRANS, 1, P, x, 0, y), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1, S, xo, 0, y), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_vec_read(ctx, xo, out), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_vec_write(ctx, xo, xs), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(omp, lcl_spmv_vec(omp, LCL_NO_TRANS, 1, P, xo, 0, y), LCL_ERR_INVALID_ARGUMENT);   /* y is serial */
    /* a NULL context runs CPU matrices serially */
    CHECK_OK(NULL, lcl_spmv(NULL, LCL_NO_TRANS, 1, P, xs, 0, out));
    {
        lcl_vec *bad = x;
        CHECK_STATUS(ctx, lcl_vec_create(ctx, LCL_F64, -1, NULL, &bad), LCL_ERR_INVALID_ARGUMENT);
        CHECK(bad == NULL);
        CHECK_STATUS(ctx, lcl_vec_create(ctx, (lcl_dtype)3, 4, NULL, &bad), LCL_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(ctx, lcl_vec_write(ctx, x, NULL), LCL_ERR_INVALID_ARGUMENT);
    }
    /* the transpose is built once, on the first A^T product */
    lt_alloc_fail_at(0);
    CHECK_OK(ctx, lcl_spmv(ctx, LCL_TRANS, 1, S, ys, 0, out));
    CHECK(lt_alloc_calls() == 0);   /* already built by the lcl_spmv_vec above */
    lt_alloc_fail_at(0);
    CHECK_OK(omp, lcl_spmv(omp, LCL_TRANS, 1, P, ys, 0.5, out));
    CHECK(lt_alloc_calls() > 0);
    lt_alloc_fail_at(0);
    CHECK_OK(omp, lcl_spmv(omp, LCL_TRANS, 1, P, ys, 0.5, out));
    CHECK(lt_alloc_calls() == 0);
    /* lcl_vec_create_like (CPU: lcl_vec_create's), lcl_vec_dot, lcl_vec_axpby and their errors */
    {
        lcl_vec *l = NULL;
        double d = -1, back[20];
        CHECK_OK(ctx, lcl_vec_create_like(ctx, S, xs, &l));
        CHECK_OK(ctx, lcl_vec_dot(ctx, l, x, &d));
        CHECK(d == 2470);                                   /* sum of i^2, i < 20 */
        CHECK_OK(ctx, lcl_vec_axpby(ctx, 2, x, -1, l));     /* l = 2 xs - xs */
        CHECK_OK(ctx, lcl_vec_read(ctx, l, back));
        for (i = 0; i < 20; i++) CHECK(back[i] == xs[i]);
        for (i = 0; i < 20; i++) back[i] = NAN;
        CHECK_OK(ctx, lcl_vec_write(ctx, l, back));
        CHECK_OK(ctx, lcl_vec_axpby(ctx, 0.5, x, 0, l));    /* beta 0 does not read l's NaN */
        CHECK_OK(ctx, lcl_vec_dot(ctx, l, l, &d));
        CHECK(d == 2470 / 4.0);
        for (i = 0; i < 20; i++) back[i] = NAN;
        CHECK_OK(ctx, lcl_vec_write(ctx, x, back));
        CHECK_OK(ctx, lcl_vec_axpby(ctx, 0, x, 4, l));      /* alpha 0 does not read x's NaN: l = 2 xs */
        CHECK_OK(ctx, lcl_vec_write(ctx, x, xs));
        CHECK_OK(ctx, lcl_vec_dot(ctx, l, l, &d));
        CHECK(d == 2470 * 4.0);
        CHECK_STATUS(ctx, lcl_vec_dot(ctx, l, y, &d), LCL_ERR_DIMENSION);
        CHECK_STATUS(ctx, lcl_vec_dot(ctx, l, xf, &d), LCL_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(ctx, lcl_vec_dot(ctx, l, x, NULL), LCL_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(ctx, lcl_vec_axpby(ctx, 1, NULL, 1, l), LCL_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(ctx, lcl_vec_axpby(ctx, 1, xo, 1, l), LCL_ERR_INVALID_ARGUMENT);   /* OpenMP vector, serial context */
        lcl_vec_free(l);    /* before the failing creates: they set l to NULL */
        l = NULL;
        CHECK_STATUS(ctx, lcl_vec_create_like(ctx, P, NULL, &l), LCL_ERR_INVALID_ARGUMENT);
        CHECK(l == NULL);
        CHECK_STATUS(ctx, lcl_vec_create_like(ctx, NULL, NULL, &l), LCL_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(ctx, lcl_vec_create_like(ctx, S, NULL, NULL), LCL_ERR_INVALID_ARGUMENT);
    }
    lcl_vec_write(ctx, x, xs);
    lcl_vec_free(x); lcl_vec_free(y); lcl_vec_free(xt); lcl_vec_free(yt); lcl_vec_free(xf); lcl_vec_free(xo);
    lcl_vec_free(NULL);
    lcl_spmat_free(S);
    lcl_spmat_free(P);
    lcl_spmat_free(NULL);
    lcl_coo_free(&A);
    lcl_context_destroy(ctx);
    lcl_context_destroy(omp);
}

/* auto on stencils and power-law rows */
static void test_sparse_auto(void) {
    static const char *specs[] = {"poisson3d:24", "powerlaw:40000:16", "poisson2d:100"};
    lcl_backend bs[2] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP};
    int s, b, trial;
    for (s = 0; s < 3; s++) {
        lcl_coo A;
        char err[256];
        if (lclg_gen_coo(NULL, specs[s], 3, LCL_F64, &A, err, sizeof err) != LCL_OK) { CHECK_MSG(0, "%s: %s", specs[s], err); continue; }
        for (b = 0; b < 2; b++)
            for (trial = 0; trial < 2; trial++) {
                lcl_context *ctx = sctx(bs[b]);
                lcl_spmat *S = NULL;
                lcl_spmat_info info;
                lcl_spmat_opts o;
                if (!ctx) { CHECK(ctx != NULL); continue; }
                memset(&o, 0, sizeof o);
                o.trial = trial;
                CHECK_OK(ctx, lcl_spmat_from_coo(ctx, &A, &o, &S));
                if (S) {
                    char what[200];
                    CHECK_OK(ctx, lcl_spmat_describe(S, &info));
                    fprintf(stderr, "  %s %s%s: %s/%s: %s\n", specs[s], lcl_backend_name(bs[b]), trial ? " trial" : "", lcl_format_name(info.format),
                            lcl_spmv_kernel_name(info.kernel), info.reason);
                    CHECK(info.format > LCL_FMT_AUTO && info.format < LCL_FMT_COUNT_);
                    CHECK(info.kernel > LCL_KERNEL_AUTO && info.kernel < LCL_KERNEL_COUNT_);
                    CHECK(strlen(info.reason) > 10);
                    if (trial) CHECK(strstr(info.reason, "trial") != NULL);
                    if (s == 1 && !trial) CHECK_MSG(info.format == LCL_FMT_CSR, "power-law rows on a CPU: %s", lcl_format_name(info.format));
                    if (s == 0 && !trial) CHECK(info.format == LCL_FMT_DIA || info.format == LCL_FMT_CSR);
                    snprintf(what, sizeof what, "auto %s %s", specs[s], lcl_backend_name(bs[b]));
                    if (!trial) check_products(ctx, what, S, &A);
                    lcl_spmat_free(S);
                }
                lcl_context_destroy(ctx);
            }
        lcl_coo_free(&A);
    }
}

void lt_suite_sparse(void) {
    LT_RUN(test_sparse_thesis);
    LT_RUN(test_sparse_small);
    LT_RUN(test_sparse_heavy);
    LT_RUN(test_sparse_generated);
    LT_RUN(test_sparse_options);
    LT_RUN(test_sparse_fill_guard);
    LT_RUN(test_sparse_invalid);
    LT_RUN(test_sparse_vectors);
    LT_RUN(test_sparse_alias_inf);
    LT_RUN(test_sparse_auto);
    LT_RUN(test_sparse_shared);
}
