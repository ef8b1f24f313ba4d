/* test_gen.c -- the generators and matrix statistics of tools/lcl_gen.c, checked against
   formulas, hand-built matrices and a small dense LU written here. */
#define _POSIX_C_SOURCE 200809L
#include "lt.h"
#include "../tools/lcl_gen.h"
#include <stdlib.h>
#include <unistd.h>

static lcl_context *ser(void) {
    lcl_context_desc d;
    lcl_context *c = NULL;
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    lcl_context_create(&d, &c);
    return c;
}

static int coo_equal(const lcl_coo *a, const lcl_coo *b) {
    int64_t k;
    if (a->rows != b->rows || a->cols != b->cols || a->nnz != b->nnz) return 0;
    for (k = 0; k < a->nnz; k++)
        if (a->row[k] != b->row[k] || a->col[k] != b->col[k] || ((double *)a->val)[k] != ((double *)b->val)[k]) return 0;
    return 1;
}

/* value of (i,j) in a canonical COO, 0 when absent */
static double at(const lcl_coo *a, int i, int j) {
    int64_t lo = 0, hi = a->nnz - 1;
    while (lo <= hi) {
        int64_t mid = (lo + hi) / 2;
        if (a->row[mid] < i || (a->row[mid] == i && a->col[mid] < j)) lo = mid + 1;
        else if (a->row[mid] == i && a->col[mid] == j) return ((double *)a->val)[mid];
        else hi = mid - 1;
    }
    return 0;
}

/* partial-pivoting LU of a small dense copy: smallest |pivot| relative to max |a_ij| */
static double min_rel_pivot(const lcl_coo *a) {
    int n = (int)a->rows, i, j, k;
    double *m = (double *)calloc((size_t)n * (size_t)n, sizeof(double)), amax = 0, pmin = 1e300;
    int64_t q;
    for (q = 0; q < a->nnz; q++) {
        m[(size_t)a->row[q] * (size_t)n + (size_t)a->col[q]] = ((double *)a->val)[q];
        if (fabs(((double *)a->val)[q]) > amax) amax = fabs(((double *)a->val)[q]);
    }
    for (k = 0; k < n; k++) {
        int p = k;
        for (i = k + 1; i < n; i++) if (fabs(m[(size_t)i * n + k]) > fabs(m[(size_t)p * n + k])) p = i;
        if (p != k) for (j = 0; j < n; j++) { double t = m[(size_t)k * n + j]; m[(size_t)k * n + j] = m[(size_t)p * n + j]; m[(size_t)p * n + j] = t; }
        if (fabs(m[(size_t)k * n + k]) < pmin) pmin = fabs(m[(size_t)k * n + k]);
        if (m[(size_t)k * n + k] == 0) break;
        for (i = k + 1; i < n; i++) {
            double l = m[(size_t)i * n + k] / m[(size_t)k * n + k];
            if (l != 0) for (j = k + 1; j < n; j++) m[(size_t)i * n + j] -= l * m[(size_t)k * n + j];
        }
    }
    free(m);
    return amax > 0 ? pmin / amax : 0;
}

/* each kind: in memory and through a streamed file give the same matrix, twice the same */
static void test_gen_file_equals_memory(void) {
    char specs[8][256];
    int i, n = 0;
    lcl_context *ctx = ser();
    char path[128], err[512];
    snprintf(specs[n++], 256, "dense-random:23");
    snprintf(specs[n++], 256, "dense-spd:17");
    snprintf(specs[n++], 256, "poisson2d:9");
    snprintf(specs[n++], 256, "poisson3d:4");
    snprintf(specs[n++], 256, "powerlaw:2000:6");
    snprintf(specs[n++], 256, "circuit:257");
    lt_matrix_path(path, sizeof path, "west0067.mtx");
    snprintf(specs[n++], 256, "hb:%s:3", path);
    snprintf(specs[n++], 256, "hb:gen:circuit:40:2");   /* a generated base */
    snprintf(path, sizeof path, "build/t_gen_%d.mtx", (int)getpid());
    for (i = 0; i < n; i++) {
        lcl_coo a, b, c;
        CHECK_MSG(lclg_gen_coo(ctx, specs[i], 5, LCL_F64, &a, err, sizeof err) == LCL_OK, "%s: %s", specs[i], err);
        CHECK_MSG(lclg_gen_coo(ctx, specs[i], 5, LCL_F64, &c, err, sizeof err) == LCL_OK, "%s: %s", specs[i], err);
        CHECK_MSG(lclg_gen_file(ctx, specs[i], 5, path, err, sizeof err) == LCL_OK, "%s: %s", specs[i], err);
        CHECK_OK(ctx, lcl_mm_read(ctx, path, LCL_F64, LCL_MM_EXPAND, &b, NULL));
        CHECK_MSG(coo_equal(&a, &b), "%s: file and memory differ", specs[i]);
        CHECK_MSG(coo_equal(&a, &c), "%s: not reproducible", specs[i]);
        CHECK(a.nnz > 0);
        lcl_coo_free(&a);
        lcl_coo_free(&b);
        lcl_coo_free(&c);
    }
    unlink(path);
    lcl_context_destroy(ctx);
}

static void test_gen_poisson(void) {
    lcl_context *ctx = ser();
    lcl_coo a;
    int m;
    char spec[64];
    for (m = 1; m <= 7; m += 3) {
        int i;
        snprintf(spec, sizeof spec, "poisson2d:%d", m);
        CHECK_OK(ctx, lclg_gen_coo(ctx, spec, 1, LCL_F64, &a, NULL, 0));
        CHECK(a.rows == m * m && a.nnz == 5 * m * m - 4 * m);
        /* row sums: 0 inside, positive on the boundary; symmetric; diagonal 4 */
        for (i = 0; i < a.rows; i++) CHECK(at(&a, i, i) == 4.0);
        CHECK(m < 4 || (at(&a, m + 1, m + 2) == -1.0 && at(&a, m + 2, m + 1) == -1.0 && at(&a, m + 1, 2 * m + 1) == -1.0));
        lcl_coo_free(&a);
        snprintf(spec, sizeof spec, "poisson3d:%d", m);
        CHECK_OK(ctx, lclg_gen_coo(ctx, spec, 1, LCL_F32, &a, NULL, 0));
        CHECK(a.rows == m * m * m && a.nnz == 7 * m * m * m - 6 * m * m && a.dtype == LCL_F32);
        lcl_coo_free(&a);
    }
    lcl_context_destroy(ctx);
}

static void test_gen_dense(void) {
    lcl_context *ctx = ser();
    lcl_coo a;
    lclg_stats s;
    int i, j, bad = 0;
    CHECK_OK(ctx, lclg_gen_coo(ctx, "dense-random:31", 3, LCL_F64, &a, NULL, 0));
    CHECK(a.nnz == 31 * 31);
    CHECK(lclg_stat(&a, &s, NULL, 0) == LCL_OK && s.rows_strictly_dominant == 31 && s.diagonally_dominant);
    CHECK(min_rel_pivot(&a) > 0.1);
    lcl_coo_free(&a);
    CHECK_OK(ctx, lclg_gen_coo(ctx, "dense-spd:40", 3, LCL_F64, &a, NULL, 0));
    for (i = 0; i < 40; i++) for (j = 0; j < i; j++) if (at(&a, i, j) != at(&a, j, i)) bad++;
    CHECK(bad == 0);
    /* SPD: Cholesky succeeds (positive pivots all the way) */
    {
        double L[40][40];
        int k, ok = 1;
        for (i = 0; i < 40; i++) for (j = 0; j < 40; j++) L[i][j] = at(&a, i, j);
        for (k = 0; k < 40 && ok; k++) {
            if (L[k][k] <= 0) { ok = 0; break; }
            L[k][k] = sqrt(L[k][k]);
            for (i = k + 1; i < 40; i++) L[i][k] /= L[k][k];
            for (j = k + 1; j < 40; j++) for (i = j; i < 40; i++) L[i][j] -= L[i][k] * L[j][k];
        }
        CHECK(ok);
    }
    lcl_coo_free(&a);
    CHECK(lclg_is_dense_kind("dense-spd:4") && lclg_is_dense_kind("gen:dense-random:4") && !lclg_is_dense_kind("poisson2d:4"));
    {   /* lclg_gen_dense: the COO path's values, straight into a dense matrix */
        static const char *specs[] = {"dense-random:31", "dense-spd:17", "dense-spd:1"};
        lcl_dense D;
        char err[256];
        int t;
        int64_t e;
        for (t = 0; t < 3; t++) {
            CHECK_OK(ctx, lclg_gen_coo(ctx, specs[t], 5, LCL_F64, &a, NULL, 0));
            CHECK_OK(ctx, lclg_gen_dense(ctx, specs[t], 5, &D, NULL, 0));
            bad = D.rows != a.rows || D.cols != a.cols || D.layout != LCL_COL_MAJOR || a.nnz != a.rows * a.cols;
            for (e = 0; !bad && e < a.nnz; e++) bad += lcl_dense_get(&D, a.row[e], a.col[e]) != ((const double *)a.val)[e];
            CHECK(bad == 0);
            lcl_dense_free(&D);
            lcl_coo_free(&a);
        }
        CHECK(lclg_gen_dense(ctx, "poisson2d:4", 1, &D, err, sizeof err) == LCL_ERR_INVALID_ARGUMENT && strstr(err, "not a dense kind"));
        CHECK(lclg_gen_dense(ctx, "dense-spd:x", 1, &D, err, sizeof err) != LCL_OK && err[0] && D.data == NULL);
        CHECK(lclg_gen_dense(ctx, "dense-spd:4", 1, NULL, err, sizeof err) == LCL_ERR_INVALID_ARGUMENT);
    }
    lcl_context_destroy(ctx);
}

static void test_gen_powerlaw(void) {
    lcl_context *ctx = ser();
    lcl_coo a, b;
    lclg_stats s;
    int64_t k, diag = 0;
    CHECK_OK(ctx, lclg_gen_coo(ctx, "powerlaw:50000:16", 1, LCL_F64, &a, NULL, 0));
    CHECK(lclg_stat(&a, &s, NULL, 0) == LCL_OK);
    CHECK_MSG(s.row_mean > 12 && s.row_mean < 20, "mean row length %g, want about 16", s.row_mean);
    CHECK_MSG(s.row_max > 20 * s.row_mean, "max row %lld not heavy-tailed (mean %g)", (long long)s.row_max, s.row_mean);
    CHECK(s.row_min >= 1);
    for (k = 0; k < a.nnz; k++) if (a.row[k] == a.col[k]) diag++;
    CHECK(diag == 50000);
    CHECK_OK(ctx, lclg_gen_coo(ctx, "powerlaw:50000:16", 2, LCL_F64, &b, NULL, 0));
    CHECK(!coo_equal(&a, &b));   /* another seed, another matrix */
    lcl_coo_free(&a);
    lcl_coo_free(&b);
    lcl_context_destroy(ctx);
}

static void test_gen_circuit(void) {
    lcl_context *ctx = ser();
    int sizes[4] = {1, 2, 17, 3000}, t;
    for (t = 0; t < 4; t++) {
        lcl_coo a;
        lclg_stats s;
        char spec[64];
        int64_t i, k, outside = 0;
        snprintf(spec, sizeof spec, "circuit:%d", sizes[t]);
        CHECK_OK(ctx, lclg_gen_coo(ctx, spec, 9, LCL_F64, &a, NULL, 0));
        CHECK(a.rows == sizes[t] && a.cols == sizes[t]);
        CHECK(lclg_stat(&a, &s, NULL, 0) == LCL_OK);
        for (i = 0, k = 0; i < a.rows; i++) {
            int64_t len = 0;
            while (k < a.nnz && a.row[k] == i) { len++; k++; }
            if (len < 3 || len > 10) outside++;
        }
        if (sizes[t] >= 100) {
            CHECK_MSG(outside <= a.rows / 50, "%s: %lld rows outside 3..10 nonzeros", spec, (long long)outside);
            CHECK(!s.pattern_symmetric);
        }
        if (sizes[t] <= 300) CHECK_MSG(min_rel_pivot(&a) > 1e-10, "%s looks singular", spec);
        lcl_coo_free(&a);
    }
    lcl_context_destroy(ctx);
}

static void test_gen_hb(void) {
    lcl_context *ctx = ser();
    lcl_coo base, a;
    char spec[512], path[256];
    int64_t k;
    int bad = 0;
    lt_matrix_path(path, sizeof path, "west0067.mtx");
    CHECK_OK(ctx, lcl_mm_read(ctx, path, LCL_F64, LCL_MM_EXPAND, &base, NULL));
    snprintf(spec, sizeof spec, "hb:%s:4", path);
    CHECK_OK(ctx, lclg_gen_coo(ctx, spec, 1, LCL_F64, &a, NULL, 0));
    CHECK(a.rows == 4 * base.rows && a.nnz == 16 * base.nnz);
    /* Kronecker structure: block (I,J) = base(I,J) * B, with the same B for every block */
    for (k = 0; k < base.nnz && k < 50; k++) {
        int I = base.row[k], J = base.col[k], p, q;
        double bij = ((double *)base.val)[k];
        for (p = 0; p < 4; p++)
            for (q = 0; q < 4; q++) {
                double B0 = at(&a, base.row[0] * 4 + p, base.col[0] * 4 + q) / ((double *)base.val)[0];
                double v = at(&a, I * 4 + p, J * 4 + q);
                if (fabs(v - bij * B0) > 1e-12 * (fabs(v) + 1)) bad++;
            }
    }
    CHECK(bad == 0);
    lcl_coo_free(&a);
    lcl_coo_free(&base);
    lcl_context_destroy(ctx);
}

/* value of scalar (i, j) of a canonical COO in either precision, as double; 0 when absent */
static double at_any(const lcl_coo *a, int64_t i, int64_t j) {
    int64_t lo = 0, hi = a->nnz - 1;
    while (lo <= hi) {
        int64_t mid = (lo + hi) / 2;
        if (a->row[mid] < i || (a->row[mid] == i && a->col[mid] < j)) lo = mid + 1;
        else if (a->row[mid] == i && a->col[mid] == j)
            return a->dtype == LCL_F32 ? (double)((float *)a->val)[mid] : ((double *)a->val)[mid];
        else hi = mid - 1;
    }
    return 0;
}

/* y = A x of a canonical COO, long double sums: the scalar reference of lclg_hb_mv */
static void coo_mv(const lcl_coo *a, const double *x, double *y) {
    long double *acc = (long double *)calloc((size_t)a->rows, sizeof(long double));
    int64_t k;
    for (k = 0; k < a->nnz; k++) acc[a->row[k]] += (long double)((double *)a->val)[k] * x[a->col[k]];
    for (k = 0; k < a->rows; k++) y[k] = (double)acc[k];
    free(acc);
}

/* the block form (lclg_gen_bmat / lclg_hb_*) holds exactly the scalar hb's entries: every block
   (i, j) entry (p, q) equals scalar (i M + p, j M + q), bit for bit in both precisions, and the
   blocks cover all of the scalar entries; its product, norm and refill agree with the scalar
   matrix's */
static void test_gen_hb_block(void) {
    lcl_context *ctx = ser();
    char specs[3][300], path[256], err[512];
    int s, d;
    lt_matrix_path(path, sizeof path, "west0067.mtx");
    snprintf(specs[0], sizeof specs[0], "hb:%s:4", path);
    snprintf(specs[1], sizeof specs[1], "gen:hb:gen:circuit:57:3");    /* with gen:, a generated base */
    snprintf(specs[2], sizeof specs[2], "hb:gen:poisson2d:4:1");       /* M = 1: J itself */
    for (s = 0; s < 3; s++)
        for (d = 0; d < 2; d++) {
            lcl_dtype dt = d ? LCL_F32 : LCL_F64;
            const char *sp = strncmp(specs[s], "gen:", 4) ? specs[s] : specs[s] + 4;
            lcl_coo a;
            lcl_bmat B;
            int64_t j, e, p, q, M, bad = 0, m;
            CHECK_MSG(lclg_hb_spec(specs[s], &m) == 1 && m == (s == 0 ? 4 : s == 1 ? 3 : 1), "%s", specs[s]);
            CHECK_MSG(lclg_gen_coo(ctx, sp, 7, dt, &a, err, sizeof err) == LCL_OK, "%s: %s", sp, err);
            CHECK_MSG(lclg_gen_bmat(ctx, specs[s], 7, dt, &B, err, sizeof err) == LCL_OK, "%s: %s", specs[s], err);
            M = B.m;
            CHECK(M == m && B.dtype == dt && B.by_row == 0 && a.rows == B.n * M && B.nnzb * M * M == a.nnz && B.ptr[B.n] == B.nnzb);
            for (j = 0; j < B.n && !bad; j++)
                for (e = B.ptr[j]; e < B.ptr[j + 1]; e++) {
                    if (e > B.ptr[j] && B.idx[e] <= B.idx[e - 1]) bad++;
                    for (p = 0; p < M; p++)
                        for (q = 0; q < M; q++) {
                            double v = dt == LCL_F32 ? (double)((float *)B.val)[(e * M + p) * M + q] : ((double *)B.val)[(e * M + p) * M + q];
                            if (v != at_any(&a, B.idx[e] * M + p, j * M + q)) bad++;
                        }
                }
            CHECK_MSG(bad == 0, "%s %s: %lld entries differ", specs[s], d ? "single" : "double", (long long)bad);
            lclg_bmat_free(&B);
            lcl_coo_free(&a);
        }
    {   /* product, norm and refill against the scalar matrix (double) */
        lclg_hb h;
        lcl_bmat B;
        lcl_coo a;
        double *x, *y, *yr, *sc, num = 0, den = 0, rs = 0, nrm = 0;
        int64_t i, k, e, M, bad = 0;
        CHECK_OK(ctx, lclg_hb_open(ctx, "gen:circuit:57", 3, 7, &h, err, sizeof err));
        CHECK_OK(ctx, lclg_gen_coo(ctx, "hb:gen:circuit:57:3", 7, LCL_F64, &a, err, sizeof err));
        {   /* the base is gen:circuit:57 with the same seed */
            lcl_coo base;
            CHECK_OK(ctx, lclg_gen_coo(ctx, "circuit:57", 7, LCL_F64, &base, err, sizeof err));
            CHECK(coo_equal(&base, &h.base));
            lcl_coo_free(&base);
        }
        M = h.m;
        x = (double *)malloc((size_t)a.rows * sizeof(double));
        y = (double *)malloc((size_t)a.rows * sizeof(double));
        yr = (double *)malloc((size_t)a.rows * sizeof(double));
        for (i = 0; i < a.rows; i++) x[i] = sin(1.0 + (double)i);
        CHECK_OK(ctx, lclg_hb_mv(&h, x, y));
        coo_mv(&a, x, yr);
        for (i = 0; i < a.rows; i++) {
            num = fmax(num, fabs(y[i] - yr[i]));
            den = fmax(den, fabs(yr[i]));
        }
        CHECK_MSG(num <= 1e-14 * den && den > 0, "hb_mv: %g of %g", num, den);
        /* and the library's block product agrees */
        CHECK_OK(ctx, lclg_hb_bmat(&h, LCL_F64, &B, err, sizeof err));
        CHECK(lcl_bmat_mv(&B, x, y) == LCL_OK);
        for (i = 0, num = 0; i < a.rows; i++) num = fmax(num, fabs(y[i] - yr[i]));
        CHECK_MSG(num <= 1e-14 * den, "lcl_bmat_mv: %g of %g", num, den);
        for (k = 0, i = -1; k < a.nnz; k++) {     /* |A|_inf from the scalar rows */
            if (a.row[k] != i) { nrm = fmax(nrm, rs); rs = 0; i = a.row[k]; }
            rs += fabs(((double *)a.val)[k]);
        }
        nrm = fmax(nrm, rs);
        CHECK_MSG(fabs(lclg_hb_norm_inf(&h) - nrm) <= 1e-13 * nrm, "norm %g vs %g", lclg_hb_norm_inf(&h), nrm);
        /* refill with a scale per block: block e = (a_e s_e) * B, and back to the same bits */
        sc = (double *)malloc((size_t)B.nnzb * sizeof(double));
        for (e = 0; e < B.nnzb; e++) sc[e] = 1 + 0.01 * (double)(e % 7);
        lclg_hb_fill(&h, &B, sc);
        for (e = 0; e < B.nnzb; e++) {
            double ae = ((double *)h.base.val)[h.entry[e]] * sc[e];
            for (k = 0; k < M * M; k++)
                if (((double *)B.val)[e * M * M + k] != ae * h.B[k]) bad++;
        }
        lclg_hb_fill(&h, &B, NULL);
        for (e = 0; e < B.nnzb; e++)
            for (k = 0; k < M * M; k++)
                if (((double *)B.val)[e * M * M + k] != at_any(&a, (int64_t)B.idx[e] * M + k / M, (int64_t)h.base.col[h.entry[e]] * M + k % M))
                    bad++;
        CHECK(bad == 0);
        free(sc);
        free(x);
        free(y);
        free(yr);
        lclg_bmat_free(&B);
        lcl_coo_free(&a);
        lclg_hb_free(&h);
    }
    {   /* refusals: not hb, a non-square base, a bad base, a bad M */
        static const char *const bad[] = {"circuit:10", "gen:poisson2d:3", "hb:gen:nosuch:3:2", "hb:gen:circuit:20:0", "hb:gen:circuit:20",
                                          "hb:/nonexistent.mtx:2"};
        lcl_bmat B;
        lclg_hb h;
        int64_t m;
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            err[0] = 0;
            CHECK_MSG(lclg_gen_bmat(ctx, bad[i], 1, LCL_F64, &B, err, sizeof err) != LCL_OK && err[0], "%s: '%s'", bad[i], err);
            CHECK(B.val == NULL && B.ptr == NULL);
        }
        lt_matrix_path(path, sizeof path, "ash219.mtx");   /* 219 x 85 */
        CHECK(lclg_hb_open(ctx, path, 2, 1, &h, err, sizeof err) == LCL_ERR_DIMENSION && strstr(err, "square") != NULL);
        CHECK(lclg_hb_open(ctx, "gen:circuit:20", 0, 1, &h, err, sizeof err) == LCL_ERR_INVALID_ARGUMENT);
        CHECK(lclg_hb_spec("hb:x.mtx:12", &m) == 1 && m == 12);
        CHECK(lclg_hb_spec("gen:hb:C:\\m\\x.mtx:5", &m) == 1 && m == 5);   /* a path with ':' */
        CHECK(lclg_hb_spec("gen:hb:x.mtx:1x", &m) == 1 && m == 0);
        CHECK(lclg_hb_spec("hb:", &m) == 1 && m == 0);
        CHECK(lclg_hb_spec("gen:circuit:20", &m) == 0 && lclg_hb_spec("hbx:a:2", &m) == 0 && lclg_hb_spec(NULL, &m) == 0);
    }
    lcl_context_destroy(ctx);
}

static void test_gen_bad_specs(void) {
    static const char *bad[] = {"", "nosuch:3", "poisson2d", "poisson2d:x", "poisson2d:0", "poisson2d:-4",
                                "poisson3d:99999999", "dense-random:3:4", "powerlaw:100", "powerlaw:100:0",
                                "hb:/nonexistent.mtx:3", "hb::3", "circuit:0", "dense-spd:2147483648",
                                "poisson2d:1e3", "powerlaw:10:abc"};
    lcl_context *ctx = ser();
    char err[512];
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        lcl_coo a;
        lcl_status st;
        err[0] = 0;
        st = lclg_gen_coo(ctx, bad[i], 1, LCL_F64, &a, err, sizeof err);
        CHECK_MSG(st != LCL_OK && err[0], "'%s' -> %s '%s'", bad[i], lcl_status_string(st), err);
        if (st == LCL_OK) lcl_coo_free(&a);
    }
    CHECK(lclg_gen_coo(ctx, "nosuch:3", 1, LCL_F64, NULL, err, sizeof err) != LCL_OK);
    lcl_context_destroy(ctx);
}

/* statistics on a hand-built 4x5 matrix with an empty row and an empty column */
static void test_stat_known(void) {
    lcl_context *ctx = ser();
    lcl_coo a;
    lclg_stats s;
    CHECK_OK(ctx, lcl_coo_alloc(ctx, &a, LCL_F64, 4, 5, 8));
    lcl_coo_push(ctx, &a, 0, 0, 5);
    lcl_coo_push(ctx, &a, 0, 3, -2);
    lcl_coo_push(ctx, &a, 1, 1, 1);
    lcl_coo_push(ctx, &a, 1, 0, 3);
    lcl_coo_push(ctx, &a, 3, 4, 7);
    lcl_coo_push(ctx, &a, 3, 1, 1);
    lcl_coo_push(ctx, &a, 3, 3, 1);
    CHECK_OK(ctx, lcl_coo_canonicalize(ctx, &a));
    CHECK(lclg_stat(&a, &s, NULL, 0) == LCL_OK);
    CHECK(s.rows == 4 && s.cols == 5 && s.nnz == 7);
    CHECK(s.row_min == 0 && s.row_max == 3 && fabs(s.row_mean - 1.75) < 1e-12);
    CHECK(s.hist[0] == 1);                  /* row 2 is empty */
    CHECK(s.bandwidth == 3);
    CHECK(!s.pattern_symmetric);
    CHECK(s.rows_strictly_dominant == 1);   /* row 0 only: 5 > 2; row 1: 1 < 3; row 3: 1 < 8 */
    CHECK(!s.diagonally_dominant);
    lcl_coo_free(&a);
    lcl_context_destroy(ctx);
}

void lt_suite_gen(void) {
    LT_RUN(test_gen_file_equals_memory);
    LT_RUN(test_gen_poisson);
    LT_RUN(test_gen_dense);
    LT_RUN(test_gen_powerlaw);
    LT_RUN(test_gen_circuit);
    LT_RUN(test_gen_hb);
    LT_RUN(test_gen_hb_block);
    LT_RUN(test_gen_bad_specs);
    LT_RUN(test_stat_known);
}
