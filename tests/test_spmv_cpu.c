/* test_spmv_cpu.c -- the CPU CSR product (>>spmv-cpu): the unrolled row kernel on every row
   length 0..40 (tails of 4, 2, 1), with and without the x prefetch and in column panels, on odd
   sizes (1, 2, 17, empty rows, more panels than columns), double and float, serial and OpenMP
   (3 threads on 2 cores: uneven parts), every alpha / beta case and A^T x, against a long double
   product computed here; the way back to CSR from panels, a failed panel split; and when create
   turns the prefetch and the panels on (scattered columns, x beyond the cache) and when not.

   Compiled inside tests/run_tests.c (#included after the implementation) to see struct lcl_spmat;
   compiled alone (the Makefile lists every tests/test_*.c) it is empty. */
#ifndef LINALG_CL_IMPLEMENTATION_INCLUDED
typedef int lt_spmv_cpu_compiled_in_run_tests;
#else
#include "../tools/lcl_gen.h"

static uint64_t cpu_rs = 0x9E3779B97F4A7C15ULL;
static uint64_t cpu_rnd(void) { cpu_rs ^= cpu_rs >> 12; cpu_rs ^= cpu_rs << 25; cpu_rs ^= cpu_rs >> 27; return cpu_rs * 2685821657736338717ULL; }
static double cpu_val(void) { return (double)((int)(cpu_rnd() >> 40) % 512 - 256) / 64.0; }   /* exact in float */

static lcl_context *cpu_ctx(lcl_backend b) { return lt_context(b, NULL, NULL, NULL, b == LCL_BACKEND_OPENMP ? 3 : 0); }

/* CSR arrays of this file (malloc, freed by cpu_free) */
static void cpu_alloc(lcl_csr *M, lcl_dtype dt, int64_t rows, int64_t cols, int64_t nnz) {
    memset(M, 0, sizeof *M);
    M->dtype = dt;
    M->rows = rows;
    M->cols = cols;
    M->nnz = nnz;
    M->ptr = (int64_t *)malloc(sizeof(int64_t) * (size_t)(rows + 1));
    M->col = (int32_t *)malloc(sizeof(int32_t) * (size_t)(nnz + 1));
    M->val = malloc((dt == LCL_F32 ? sizeof(float) : sizeof(double)) * (size_t)(nnz + 1));
}
static void cpu_free(lcl_csr *M) { free(M->ptr); free(M->col); free(M->val); memset(M, 0, sizeof *M); }
/* a copy of M (either dtype) in dtype dt */
static void cpu_as(const lcl_csr *M, lcl_dtype dt, lcl_csr *C) {
    int64_t k;
    cpu_alloc(C, dt, M->rows, M->cols, M->nnz);
    memcpy(C->ptr, M->ptr, sizeof(int64_t) * (size_t)(M->rows + 1));
    memcpy(C->col, M->col, sizeof(int32_t) * (size_t)M->nnz);
    for (k = 0; k < M->nnz; k++) {
        double v = M->dtype == LCL_F32 ? (double)((const float *)M->val)[k] : ((const double *)M->val)[k];
        if (dt == LCL_F32) ((float *)C->val)[k] = (float)v;
        else ((double *)C->val)[k] = v;
    }
}

/* canonical CSR (double) with rows x cols; row i has len(i) distinct sorted random columns */
static void cpu_csr(lcl_csr *M, int64_t rows, int64_t cols, int64_t (*len)(int64_t, int64_t)) {
    int64_t i, k, nnz = 0;
    char *used = (char *)calloc((size_t)cols + 1, 1);
    for (i = 0; i < rows; i++) nnz += len(i, cols);
    cpu_alloc(M, LCL_F64, rows, cols, nnz);
    M->ptr[0] = 0;
    for (i = 0, nnz = 0; i < rows; i++) {
        int64_t L = len(i, cols), j;
        for (k = 0; k < L; k++) {   /* L distinct columns: draw until new */
            do j = (int64_t)(cpu_rnd() % (uint64_t)cols); while (used[j]);
            used[j] = 1;
        }
        for (j = 0; j < cols; j++)
            if (used[j]) { used[j] = 0; M->col[nnz] = (int32_t)j; ((double *)M->val)[nnz++] = cpu_val(); }
        M->ptr[i + 1] = nnz;
    }
    free(used);
}
static int64_t len_mod(int64_t i, int64_t cols) { int64_t L = (i * 7 + i / 3) % 41; if (i % 5 == 2) L = 0; return L < cols ? L : cols; }
static int64_t len_one(int64_t i, int64_t cols) { (void)i; return cols > 0; }

/* y = alpha op(M) x + beta y0 in long double (M's values, either dtype); err = max |y - ref| / (sum |terms| + tiny) */
static double cpu_err(const lcl_csr *M, int trans, double alpha, const double *x, double beta, const double *y0, const void *y, lcl_dtype dt) {
    int64_t nout = trans ? M->cols : M->rows, i, k;
    long double *r = (long double *)calloc((size_t)nout + 1, sizeof(long double));
    double *sc = (double *)calloc((size_t)nout + 1, sizeof(double)), w = 0;
    for (i = 0; i < M->rows; i++)
        for (k = M->ptr[i]; k < M->ptr[i + 1]; k++) {
            double a = M->dtype == LCL_F32 ? (double)((const float *)M->val)[k] : ((const double *)M->val)[k];
            int64_t o = trans ? M->col[k] : i, in = trans ? i : M->col[k];
            r[o] += (long double)a * x[in];
            sc[o] += fabs(a * x[in]);
        }
    for (i = 0; i < nout; i++) {
        double got = dt == LCL_F32 ? (double)((const float *)y)[i] : ((const double *)y)[i], e, s;
        r[i] = r[i] * alpha + (beta != 0 ? (long double)beta * y0[i] : 0);
        s = sc[i] * fabs(alpha) + (beta != 0 ? fabs(beta * y0[i]) : 0);
        e = fabs((double)((long double)got - r[i]));
        e = s > 0 ? e / s : (e == 0 ? 0 : 1e300);
        if (!(e <= w)) w = e != e ? 1e300 : e;
    }
    free(r);
    free(sc);
    return w;
}

/* every alpha/beta and op of S (built from M, of dtype dt) on ctx; pf: force the prefetch kernel
   on (1), off (0) or leave create's choice (-1), on A and on A^T once it exists */
static void cpu_products(lcl_context *ctx, const char *what, lcl_spmat *S, const lcl_csr *M, lcl_dtype dt, int pf) {
    static const double ab[][2] = {{1, 0}, {2.5, -0.5}, {-1, 1}, {0, 2}};
    double tol = dt == LCL_F32 ? 1e-5 : 1e-14;
    int64_t n = (M->rows > M->cols ? M->rows : M->cols) + 1, i;
    size_t es = dt == LCL_F32 ? sizeof(float) : sizeof(double);
    double *xd = (double *)malloc(sizeof(double) * (size_t)n), *y0 = (double *)malloc(sizeof(double) * (size_t)n);
    void *x = malloc(es * (size_t)n), *y = malloc(es * (size_t)n);
    int t, c;
    for (i = 0; i < n; i++) {
        xd[i] = cpu_val();
        y0[i] = cpu_val();
        if (dt == LCL_F32) ((float *)x)[i] = (float)xd[i];
        else ((double *)x)[i] = xd[i];
    }
    for (t = 0; t < 2; t++)
        for (c = 0; c < (int)(sizeof ab / sizeof ab[0]); c++) {
            int64_t nout = t ? M->cols : M->rows;
            double e;
            for (i = 0; i < nout; i++) {    /* beta == 0: NaN in y must not be read */
                double v = ab[c][1] == 0 ? NAN : y0[i];
                if (dt == LCL_F32) ((float *)y)[i] = (float)v;
                else ((double *)y)[i] = v;
            }
            if (pf >= 0) { S->prefetch = pf; if (S->tr) S->tr->prefetch = pf; }
            CHECK_OK(ctx, lcl_spmv(ctx, t ? LCL_TRANS : LCL_NO_TRANS, ab[c][0], S, x, ab[c][1], y));
            if (t && S->tr && pf >= 0 && S->tr->prefetch != pf) {   /* A^T was built by this call: again, forced */
                S->tr->prefetch = pf;
                for (i = 0; i < nout; i++) {
                    double v = ab[c][1] == 0 ? NAN : y0[i];
                    if (dt == LCL_F32) ((float *)y)[i] = (float)v;
                    else ((double *)y)[i] = v;
                }
                CHECK_OK(ctx, lcl_spmv(ctx, LCL_TRANS, ab[c][0], S, x, ab[c][1], y));
            }
            e = cpu_err(M, t, ab[c][0], xd, ab[c][1], y0, y, dt);
            CHECK_MSG(e <= tol, "%s %s alpha %g beta %g prefetch %d: error %.3g > %g", what, t ? "A^T x" : "A x", ab[c][0], ab[c][1], pf, e, tol);
        }
    free(xd);
    free(y0);
    free(x);
    free(y);
}

/* M (double) in o's format, in both dtypes on both CPU backends: create, the format kept, products
   (pf as in cpu_products) */
static void cpu_each(const char *name, const lcl_csr *M, const lcl_spmat_opts *o, int pf) {
    lcl_backend bs[2] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP};
    int b, d;
    for (b = 0; b < 2; b++) {
        lcl_context *ctx = cpu_ctx(bs[b]);
        if (!ctx) { CHECK(ctx != NULL); continue; }
        for (d = 0; d < 2; d++) {
            lcl_dtype dt = d ? LCL_F32 : LCL_F64;
            lcl_csr C;
            lcl_spmat *S = NULL;
            char what[240];
            cpu_as(M, dt, &C);
            snprintf(what, sizeof what, "%s %s %s", name, d ? "f32" : "f64", lcl_backend_name(bs[b]));
            CHECK_OK(ctx, lcl_spmat_create(ctx, &C, o, &S));
            if (S) {
                CHECK_MSG(S->format == o->format, "%s: format %s", what, lcl_format_name(S->format));
                cpu_products(ctx, what, S, &C, dt, pf);
            }
            lcl_spmat_free(S);
            cpu_free(&C);
        }
        lcl_context_destroy(ctx);
    }
}

/* M (double) as CSR in both dtypes on both CPU backends, the kernel's prefetch forced each way */
static void cpu_check(const char *name, const lcl_csr *M) {
    lcl_spmat_opts o;
    int pf;
    memset(&o, 0, sizeof o);
    o.format = LCL_FMT_CSR;
    o.kernel = LCL_KERNEL_SCALAR;
    for (pf = 0; pf < 2; pf++) cpu_each(name, M, &o, pf);
}

static void test_spmv_cpu_csr_rows(void) {
    static const int64_t sz[][2] = {{1, 1}, {2, 2}, {17, 17}, {17, 5}, {5, 40}, {41, 41}, {300, 64}, {2000, 1000}};
    int s;
    for (s = 0; s < (int)(sizeof sz / sizeof sz[0]); s++) {
        lcl_csr M;
        char name[64];
        cpu_csr(&M, sz[s][0], sz[s][1], len_mod);     /* lengths 0..40, every fifth row empty */
        snprintf(name, sizeof name, "lengths 0..40, %lldx%lld", (long long)sz[s][0], (long long)sz[s][1]);
        cpu_check(name, &M);
        cpu_free(&M);
    }
    {
        lcl_csr M;
        cpu_csr(&M, 17, 3, len_one);
        cpu_check("one entry per row 17x3", &M);
        cpu_free(&M);
        cpu_csr(&M, 9, 0, len_one);
        cpu_check("no columns 9x0", &M);
        cpu_free(&M);
    }
}

/* the same products with the entries stored in np column panels (lcl__csr_panels called on a
   matrix of any size; create uses them only past LCL__PANEL_X), and the way back to CSR */
static void test_spmv_cpu_panels(void) {
    static const int64_t sz[][2] = {{1, 1}, {2, 2}, {17, 17}, {17, 5}, {5, 40}, {41, 41}, {300, 64}, {2000, 1000}};
    static const int nps[] = {2, 3, 7};
    lcl_backend bs[2] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP};
    int s, b, d, q;
    for (s = 0; s < (int)(sizeof sz / sizeof sz[0]); s++) {
        lcl_csr M;
        cpu_csr(&M, sz[s][0], sz[s][1], len_mod);
        for (b = 0; b < 2; b++) {
            lcl_context *ctx = cpu_ctx(bs[b]);
            if (!ctx) { CHECK(ctx != NULL); continue; }
            for (d = 0; d < 2; d++)
                for (q = 0; q < (int)(sizeof nps / sizeof nps[0]); q++) {
                    lcl_dtype dt = d ? LCL_F32 : LCL_F64;
                    lcl_spmat_opts o;
                    lcl_spmat *S = NULL;
                    lcl_csr C, R;
                    char what[160];
                    size_t es = d ? sizeof(float) : sizeof(double);
                    cpu_as(&M, dt, &C);
                    memset(&o, 0, sizeof o);
                    o.format = LCL_FMT_CSR;
                    o.kernel = LCL_KERNEL_SCALAR;
                    snprintf(what, sizeof what, "%lldx%lld %s %s, %d panels", (long long)sz[s][0], (long long)sz[s][1], d ? "f32" : "f64",
                             lcl_backend_name(bs[b]), nps[q]);
                    CHECK_OK(ctx, lcl_spmat_create(ctx, &C, &o, &S));
                    if (S) {
                        CHECK_OK(ctx, lcl__csr_panels(ctx, S, nps[q]));
                        CHECK_MSG(S->npanel == (M.nnz ? nps[q] : 0), "%s: npanel %d", what, S->npanel);
                        CHECK_OK(ctx, lcl_spmat_to_csr(ctx, S, &R));
                        CHECK_MSG(R.nnz == C.nnz && !memcmp(R.ptr, C.ptr, sizeof(int64_t) * (size_t)(C.rows + 1)) &&
                                  !memcmp(R.col, C.col, sizeof(int32_t) * (size_t)C.nnz) && !memcmp(R.val, C.val, es * (size_t)C.nnz),
                                  "%s: to_csr differs from the input", what);
                        lcl_csr_free(&R);
                        cpu_products(ctx, what, S, &C, dt, -1);   /* A^T is built from the panels */
                    }
                    lcl_spmat_free(S);
                    cpu_free(&C);
                }
            lcl_context_destroy(ctx);
        }
        cpu_free(&M);
    }
}

/* a failed allocation in lcl__csr_panels leaves the matrix as it was, and no block behind */
static void test_spmv_cpu_panels_faults(void) {
    lcl_context *ctx = cpu_ctx(LCL_BACKEND_OPENMP);
    lcl_csr M;
    lcl_spmat_opts o;
    lcl_spmat *S = NULL;
    long k, before;
    lcl_status st = LCL_ERR_OUT_OF_MEMORY;
    if (!ctx) { CHECK(ctx != NULL); return; }
    cpu_csr(&M, 300, 64, len_mod);
    memset(&o, 0, sizeof o);
    o.format = LCL_FMT_CSR;
    CHECK_OK(ctx, lcl_spmat_create(ctx, &M, &o, &S));
    for (k = 1; S && k < 20 && st != LCL_OK; k++) {
        before = lt_alloc_outstanding();
        lt_alloc_fail_at(k);
        st = lcl__csr_panels(ctx, S, 3);
        lt_alloc_fail_at(0);
        if (st == LCL_OK) break;
        CHECK_MSG(st == LCL_ERR_OUT_OF_MEMORY, "allocation %ld: %s", k, lcl_status_string(st));
        CHECK_MSG(S->npanel == 0 && !S->pptr && lt_alloc_outstanding() == before, "allocation %ld: matrix changed or leaked", k);
        cpu_products(ctx, "after a failed panel split", S, &M, LCL_F64, -1);
    }
    CHECK_MSG(st == LCL_OK && S && S->npanel == 3, "panel split never succeeded: %s", lcl_status_string(st));
    if (S) cpu_products(ctx, "300x64 in 3 panels", S, &M, LCL_F64, -1);
    lcl_spmat_free(S);
    cpu_free(&M);
    lcl_context_destroy(ctx);
}

/* create's choice: scattered columns with x beyond LCL__PF_XMIN prefetch, stencils and small x do
   not; past LCL__PANEL_X (16 MiB) of x the entries go into panels. Matrices that prefetch are then
   checked with the choice left as made (A^T, scattered too, chooses alike) */
static void test_spmv_cpu_prefetch_choice(void) {
    static const struct { const char *spec; lcl_dtype dt; int want, panels; } c[] = {
        {"powerlaw:200000:6", LCL_F64, 1, 0},     /* x 1.6 MB, uniform random columns */
        {"powerlaw:200000:6", LCL_F32, 0, 0},     /* x 0.8 MB: below LCL__PF_XMIN */
        {"powerlaw:300000:5", LCL_F32, 1, 0},
        {"poisson3d:64", LCL_F64, 0, 0},          /* x 2 MB, but a stencil */
        {"powerlaw:3000:6", LCL_F64, 0, 0},
        {"powerlaw:2000000:2", LCL_F64, 1, 0},    /* x 16 MB: whole (the matrix of BENCHMARKS.md) */
        {"powerlaw:2200000:2", LCL_F64, 1, 2},    /* x 17.6 MB: two panels */
        {"powerlaw:2200000:2", LCL_F32, 1, 0}};
    lcl_context *ctx = cpu_ctx(LCL_BACKEND_OPENMP);
    int i;
    if (!ctx) { CHECK(ctx != NULL); return; }
    for (i = 0; i < (int)(sizeof c / sizeof c[0]); i++) {
        lcl_coo A;
        lcl_csr M;
        lcl_spmat_opts o;
        lcl_spmat *S = NULL;
        char err[256], what[96];
        if (lclg_gen_coo(ctx, c[i].spec, 3, c[i].dt, &A, err, sizeof err) != LCL_OK) { CHECK_MSG(0, "gen %s: %s", c[i].spec, err); continue; }
        CHECK_OK(ctx, lcl_csr_from_coo(ctx, &A, &M));
        lcl_coo_free(&A);
        memset(&o, 0, sizeof o);
        o.format = LCL_FMT_CSR;
        CHECK_OK(ctx, lcl_spmat_create(ctx, &M, &o, &S));
        snprintf(what, sizeof what, "%s %s", c[i].spec, c[i].dt == LCL_F32 ? "f32" : "f64");
        if (S) {
            CHECK_MSG(S->prefetch == c[i].want && S->npanel == c[i].panels, "%s: prefetch %d, %d panels; want %d, %d", what,
                      S->prefetch, S->npanel, c[i].want, c[i].panels);
            if (c[i].want && !(lt_small() && !c[i].panels && M.rows > 1000000)) {   /* LT_SMALL: x whole is
                                                               powerlaw:200000:6's path (double), 300000:5's (single) */
                cpu_products(ctx, what, S, &M, c[i].dt, -1);
                CHECK_MSG(S->tr && S->tr->prefetch == 1 && S->tr->npanel == c[i].panels, "%s: A^T (scattered too) chose otherwise", what);
            }
        }
        lcl_spmat_free(S);
        lcl_csr_free(&M);
    }
    lcl_context_destroy(ctx);
}

/* DIA (>>spmv-cpu): the vector loop over the rows where every diagonal is inside the matrix and the
   clipped block loop over the edge rows, on sizes whose interior is empty, one row, shorter than a
   vector, odd, wider and taller than square, and one past LCL__SPMV_PAR_MIN (parts split by
   threads, an edge in only one part), diagonals that start beyond the matrix; double and float,
   serial and OpenMP, every alpha / beta case and A^T x (DIA too) */
static void test_spmv_cpu_dia(void) {
    static const int64_t sz[][2] = {{1, 1}, {2, 3}, {3, 2}, {17, 17}, {37, 29}, {29, 37}, {100, 100}, {1001, 997}, {20011, 20011}};
    static const int32_t offs[][6] = {{0, 1, -1, 0, 0, 0}, {-7, -1, 0, 1, 3, 40}, {2, 5, 9, 0, 0, 0}, {-64, -33, 0, 0, 0, 0}};
    static const int noff[] = {3, 6, 3, 2};
    int s, q;
    for (s = 0; s < (int)(sizeof sz / sizeof sz[0]); s++)
        for (q = 0; q < (int)(sizeof noff / sizeof noff[0]); q++) {
            int64_t rows = sz[s][0], cols = sz[s][1], i, nnz = 0;
            lcl_csr M;
            lcl_spmat_opts op;
            char what[160];
            int j, o[6];
            for (j = 0; j < noff[q]; j++) o[j] = offs[q][j];
            for (j = 1; j < noff[q]; j++) { int v = o[j], m = j; while (m > 0 && o[m - 1] > v) { o[m] = o[m - 1]; m--; } o[m] = v; }
            for (i = 0; i < rows; i++)
                for (j = 0; j < noff[q]; j++) nnz += i + o[j] >= 0 && i + o[j] < cols;
            if (nnz == 0) continue;
            cpu_alloc(&M, LCL_F64, rows, cols, nnz);
            M.ptr[0] = 0;
            for (i = 0, nnz = 0; i < rows; i++) {
                for (j = 0; j < noff[q]; j++)
                    if (i + o[j] >= 0 && i + o[j] < cols) { M.col[nnz] = (int32_t)(i + o[j]); ((double *)M.val)[nnz++] = cpu_val(); }
                M.ptr[i + 1] = nnz;
            }
            memset(&op, 0, sizeof op);
            op.format = LCL_FMT_DIA;
            op.max_fill = 1000;
            snprintf(what, sizeof what, "DIA %lldx%lld offsets %d..%d", (long long)rows, (long long)cols, o[0], o[noff[q] - 1]);
            cpu_each(what, &M, &op, -1);
            cpu_free(&M);
        }
}

/* SELL (>>spmv-cpu): C of one AVX-512 vector (16 floats, 8 doubles) takes lcl__sell_vec where the
   target has AVX-512, other C the scalar slice loop; row lengths 0..40 (empty rows, padding in every
   slice), sizes not a multiple of C, sort windows of 1 row (no sort), 7 and 65536; double and float,
   serial and OpenMP (3 threads: uneven parts), every alpha / beta case and A^T x (SELL alike) */
static void test_spmv_cpu_sell(void) {
    static const int64_t sz[][2] = {{1, 1}, {17, 17}, {17, 5}, {5, 40}, {41, 41}, {300, 64}, {2000, 1000}};
    static const int cs[] = {8, 16}, sig[] = {1, 7, 65536};
    int s, c, g;
    for (s = 0; s < (int)(sizeof sz / sizeof sz[0]); s++) {
        lcl_csr M;
        cpu_csr(&M, sz[s][0], sz[s][1], len_mod);
        for (c = 0; c < 2; c++)     /* 8: the vector of doubles, 16: of floats; each the other's scalar loop */
            for (g = 0; g < (int)(sizeof sig / sizeof sig[0]); g++) {
                lcl_spmat_opts o;
                char what[160];
                memset(&o, 0, sizeof o);
                o.format = LCL_FMT_SELL;
                o.sell_c = cs[c];
                o.sell_sigma = sig[g];
                o.max_fill = 100;
                snprintf(what, sizeof what, "SELL-%d-%d %lldx%lld", o.sell_c, o.sell_sigma, (long long)sz[s][0], (long long)sz[s][1]);
                cpu_each(what, &M, &o, -1);
            }
        cpu_free(&M);
    }
}

/* auto on the CPU backends: scattered columns beyond LCL__PF_XMIN take SELL with C of one AVX-512
   vector and LCL__SELL_SIGMA_CPU where the target has AVX-512 (CSR elsewhere); a stencil keeps DIA,
   small x keeps CSR; the products are then checked */
static void test_spmv_cpu_auto_sell(void) {
    static const struct { const char *spec; lcl_dtype dt; int scattered; } c[] = {
        {"powerlaw:200000:6", LCL_F64, 1}, {"powerlaw:300000:5", LCL_F32, 1}, {"powerlaw:200000:6", LCL_F32, 0},
        {"powerlaw:3000:6", LCL_F64, 0}, {"poisson3d:30", LCL_F64, 0}};
    lcl_backend bs[2] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP};
    int i, b;
    for (b = 0; b < (lt_valgrind() ? 1 : 2); b++) {   /* memcheck runs OpenMP's team one thread at a time: serial only */
        lcl_context *ctx = cpu_ctx(bs[b]);
        if (!ctx) { CHECK(ctx != NULL); continue; }
        for (i = 0; i < (int)(sizeof c / sizeof c[0]); i++) {
            lcl_coo A;
            lcl_csr M;
            lcl_spmat *S = NULL;
            char err[256], what[96];
            lcl_format want = c[i].scattered && LCL__SELL_VEC ? LCL_FMT_SELL : strstr(c[i].spec, "poisson") ? LCL_FMT_DIA : LCL_FMT_CSR;
            if (lclg_gen_coo(ctx, c[i].spec, 3, c[i].dt, &A, err, sizeof err) != LCL_OK) { CHECK_MSG(0, "gen %s: %s", c[i].spec, err); continue; }
            CHECK_OK(ctx, lcl_csr_from_coo(ctx, &A, &M));
            lcl_coo_free(&A);
            CHECK_OK(ctx, lcl_spmat_create(ctx, &M, NULL, &S));
            snprintf(what, sizeof what, "auto %s %s %s", c[i].spec, c[i].dt == LCL_F32 ? "f32" : "f64", lcl_backend_name(bs[b]));
            if (S) {
                CHECK_MSG(S->format == want, "%s: %s, want %s (%s)", what, lcl_format_name(S->format), lcl_format_name(want), S->reason);
                if (S->format == LCL_FMT_SELL)
                    CHECK_MSG(S->C == (c[i].dt == LCL_F32 ? 16 : 8) && S->sigma == LCL__SELL_SIGMA_CPU, "%s: SELL-%d-%d", what, S->C, S->sigma);
                cpu_products(ctx, what, S, &M, c[i].dt, -1);
            }
            lcl_spmat_free(S);
            lcl_csr_free(&M);
        }
        lcl_context_destroy(ctx);
    }
}

void lt_suite_spmv_cpu(void) {
    LT_RUN(test_spmv_cpu_csr_rows);
    LT_RUN(test_spmv_cpu_panels);
    LT_RUN(test_spmv_cpu_panels_faults);
    LT_RUN(test_spmv_cpu_prefetch_choice);
    LT_RUN(test_spmv_cpu_dia);
    LT_RUN(test_spmv_cpu_sell);
    LT_RUN(test_spmv_cpu_auto_sell);
}
#endif
