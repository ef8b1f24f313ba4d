/* test_spmv_opencl.c -- OpenCL SpMV (>>spmv-opencl, kernels/sparse.cl): every format and kernel,
   double and float, A x and A^T x, against the serial backend's double-precision CSR product;
   device vectors, two devices, faults. Matrices are built with lcl_spmat_create (double) and
   lcl_spmat_from_coo (float, from a converted copy).

   This file is compiled inside tests/run_tests.c (#included after the implementation) so that its
   white-box checks can read struct lcl_spmat (a part's rows and lanes, A^T's parts); compiled
   alone (the Makefile lists every tests/test_*.c) it is empty. */
#ifndef LINALG_CL_IMPLEMENTATION_INCLUDED
typedef int lt_spmv_opencl_compiled_in_run_tests;
#else
#include <sys/wait.h>
#ifndef LINALG_CL_NO_OPENCL

static uint64_t sp_rng = 42;
static double sp_rand(void) {  /* uniform in [-1, 1) */
    sp_rng ^= sp_rng << 13; sp_rng ^= sp_rng >> 7; sp_rng ^= sp_rng << 17;
    return (double)(sp_rng >> 11) / 9007199254740992.0 * 2 - 1;
}

/* canonical host CSR (double values) of the test matrices:
   kind 0 random with heavy-tailed rows (empty rows, a few rows of every column), kind 1 dense,
   kind 2 a long row (split by the adaptive kernel) among short ones, kind 3 banded,
   kind 4 random with empty rows (i % 3 == 0) and empty columns (j % 4 == 1) */
static void sp_gen(lcl_csr *A, int64_t rows, int64_t cols, int kind) {
    int64_t i, j, cap = 16, nz = 0;
    size_t msz = (size_t)(cols > 0 ? cols : 0) + 1;
    char *mark = (char *)calloc(msz, 1);
    memset(A, 0, sizeof *A);
    A->dtype = LCL_F64;
    A->rows = rows;
    A->cols = cols;
    A->ptr = (int64_t *)malloc(((size_t)rows + 1) * sizeof(int64_t));
    A->col = (int32_t *)malloc((size_t)cap * sizeof(int32_t));
    A->val = malloc((size_t)cap * sizeof(double));
    A->ptr[0] = 0;
    for (i = 0; i < rows; i++) {
        int64_t len;
        double u = (sp_rand() + 1) / 2;
        if (kind == 1) len = cols;
        else if (kind == 2) len = i == 1 ? cols : (int64_t)(u * 4);
        else if (kind == 3) len = -1;
        else if (kind == 4) len = i % 3 == 0 ? 0 : 1 + (int64_t)(u * 6);
        else len = i % 97 == 3 ? cols : i % 7 == 0 ? 0 : (int64_t)(u * u * u * 40);   /* cubed: heavy tail */
        if (len > cols) len = cols;
        memset(mark, 0, msz);
        if (kind == 3) { for (j = i - 2; j <= i + 3; j++) if (j >= 0 && j < cols) mark[j] = 1; }
        else if (len == cols) memset(mark, 1, msz - 1);
        else { int64_t t; for (t = 0; t < len; t++) mark[(int64_t)((sp_rand() + 1) / 2 * (double)cols) % cols] = 1; }
        for (j = 0; j < cols; j++) {
            if (!mark[j] || (kind == 4 && j % 4 == 1)) continue;
            if (nz == cap) {
                cap *= 2;
                A->col = (int32_t *)realloc(A->col, (size_t)cap * sizeof(int32_t));
                A->val = realloc(A->val, (size_t)cap * sizeof(double));
            }
            A->col[nz] = (int32_t)j;
            ((double *)A->val)[nz] = sp_rand();
            nz++;
        }
        A->ptr[i + 1] = nz;
    }
    A->nnz = nz;
    free(mark);
}
static void sp_csr_free(lcl_csr *A) { free(A->ptr); free(A->col); free(A->val); memset(A, 0, sizeof *A); }
static void sp_set(void *v, lcl_dtype dt, int64_t k, double x) { if (dt == LCL_F32) ((float *)v)[k] = (float)x; else ((double *)v)[k] = x; }
static double sp_get(const void *v, lcl_dtype dt, int64_t k) { return dt == LCL_F32 ? (double)((const float *)v)[k] : ((const double *)v)[k]; }

/* A (double) in format fmt: lcl_spmat_create for double; for float, A as COO converted by
   lcl_coo_copy, then lcl_spmat_from_coo. Padded layouts are the ones the tests were written for
   (SELL C 8 sigma 16, HYB width 3, BCSR 3 x 2); max_fill lets every format take every matrix
   (A^T of the long-row matrix excepted: DIA and dense refuse it, LCL_ERR_FILL). */
static lcl_status sp_make(lcl_context *ctx, const lcl_csr *A, lcl_dtype dt, lcl_format fmt, lcl_spmv_kernel kern, int device, lcl_spmat **out) {
    lcl_spmat_opts o;
    lcl_coo c64, c32;
    lcl_status st;
    memset(&o, 0, sizeof o);
    o.format = fmt;
    o.kernel = kern;
    o.device = device;
    o.max_fill = 1000;
    o.sell_c = 8;
    o.sell_sigma = 16;
    o.hyb_width = 3;
    o.block_r = 3;
    o.block_c = 2;
    if (dt == LCL_F64) return lcl_spmat_create(ctx, A, &o, out);
    *out = NULL;
    if ((st = lcl_csr_to_coo(ctx, A, &c64)) != LCL_OK) return st;
    st = lcl_coo_copy(ctx, &c64, LCL_F32, &c32);
    lcl_coo_free(&c64);
    if (st != LCL_OK) return st;
    st = lcl_spmat_from_coo(ctx, &c32, &o, out);
    lcl_coo_free(&c32);
    return st;
}

/* The reference: the serial backend's CSR product in double, on A's values as stored in dt.
   bound[i] = (|alpha| |op(A)| |x| + |beta| |y0|)_i, the same product on absolute values. */
static void sp_ref(const lcl_csr *A, lcl_dtype dt, lcl_trans tr, double alpha, const double *x, double beta, const double *y0,
                   double *y, double *bound) {
    lcl_context *ser = NULL;
    lcl_context_desc d;
    lcl_csr R = *A, B = *A;
    lcl_spmat *MR = NULL, *MB = NULL;
    lcl_spmat_opts o;
    int64_t k, nin = tr ? A->rows : A->cols, nout = tr ? A->cols : A->rows;
    double *ax = (double *)malloc((size_t)(nin + 1) * sizeof(double));
    memset(&d, 0, sizeof d);
    memset(&o, 0, sizeof o);
    d.backend = LCL_BACKEND_SERIAL;
    o.format = LCL_FMT_CSR;
    CHECK_OK(ser, lcl_context_create(&d, &ser));
    R.val = malloc((size_t)(A->nnz + 1) * sizeof(double));
    B.val = malloc((size_t)(A->nnz + 1) * sizeof(double));
    for (k = 0; k < A->nnz; k++) {
        double a = ((const double *)A->val)[k];
        ((double *)R.val)[k] = dt == LCL_F32 ? (double)(float)a : a;
        ((double *)B.val)[k] = fabs(((double *)R.val)[k]);
    }
    for (k = 0; k < nin; k++) ax[k] = fabs(x[k]);
    for (k = 0; k < nout; k++) { y[k] = y0[k]; bound[k] = fabs(y0[k]); }
    CHECK_OK(ser, lcl_spmat_create(ser, &R, &o, &MR));
    CHECK_OK(ser, lcl_spmat_create(ser, &B, &o, &MB));
    CHECK_OK(ser, lcl_spmv(ser, tr, alpha, MR, x, beta, y));
    CHECK_OK(ser, lcl_spmv(ser, tr, fabs(alpha), MB, ax, fabs(beta), bound));
    for (k = 0; k < nout; k++) bound[k] += 1e-300;
    lcl_spmat_free(MR);
    lcl_spmat_free(MB);
    lcl_context_destroy(ser);
    free(R.val);
    free(B.val);
    free(ax);
}

static const struct sp_case { lcl_format f; lcl_spmv_kernel k; const char *name; } sp_cases[] = {
    {LCL_FMT_CSR, LCL_KERNEL_SCALAR, "csr-scalar"}, {LCL_FMT_CSR, LCL_KERNEL_VECTOR, "csr-vector"},
    {LCL_FMT_CSR, LCL_KERNEL_MERGE, "csr-merge"}, {LCL_FMT_CSR, LCL_KERNEL_AUTO, "csr-auto"},
    {LCL_FMT_CSC, LCL_KERNEL_AUTO, "csc"}, {LCL_FMT_CSC, LCL_KERNEL_MERGE, "csc-merge"},
    {LCL_FMT_COO, LCL_KERNEL_AUTO, "coo"}, {LCL_FMT_ELL, LCL_KERNEL_AUTO, "ell"}, {LCL_FMT_ELL, LCL_KERNEL_IMAGE, "ell-image"},
    {LCL_FMT_SELL, LCL_KERNEL_AUTO, "sell"}, {LCL_FMT_HYB, LCL_KERNEL_AUTO, "hyb"}, {LCL_FMT_DIA, LCL_KERNEL_AUTO, "dia"},
    {LCL_FMT_BCSR, LCL_KERNEL_AUTO, "bcsr"}, {LCL_FMT_DENSE, LCL_KERNEL_AUTO, "dense"}};
#define SP_NCASES (int)(sizeof sp_cases / sizeof sp_cases[0])

/* alpha, beta of each pass: beta 0 runs with NaN in y, alpha 0 with NaN in x (neither may be read); beta 1
   (COO skips its scaling) */
static const double sp_ab[][2] = {{1.0, 0.0}, {-0.75, 2.0}, {2.5, 0.0}, {0.0, 0.5}, {1.5, 1.0}};
#define SP_NAB (int)(sizeof sp_ab / sizeof sp_ab[0])

/* one format x dtype x op on A: every alpha/beta with host arrays, then (vecs) with device
   vectors: lcl_vec_create's (1) or lcl_vec_create_like's (2, partitioned on a split matrix; beta 0
   runs twice, the second product reusing the halo staging); returns the number of failed checks */
static int sp_check(lcl_context *ctx, const lcl_csr *A, const struct sp_case *c, lcl_dtype dt, int device, int vecs, lcl_trans tr) {
    int64_t nin = tr ? A->rows : A->cols, nout = tr ? A->cols : A->rows, i;
    size_t es = dt == LCL_F32 ? sizeof(float) : sizeof(double);
    double *x = (double *)malloc((size_t)(nin + 1) * sizeof(double)), *y0 = (double *)malloc((size_t)(nout + 1) * sizeof(double));
    double *ref = (double *)malloc((size_t)(nout + 1) * sizeof(double)), *bound = (double *)malloc((size_t)(nout + 1) * sizeof(double));
    void *xd = malloc((size_t)(nin + 1) * es), *yd = malloc((size_t)(nout + 1) * es);
    double tol = dt == LCL_F32 ? 2e-6 * 64 : 1e-14 * 64;
    const char *op = tr ? " A^T x" : "";
    int bad = 0, pass;
    lcl_spmat *M = NULL;
    lcl_status st = sp_make(ctx, A, dt, c->f, c->k, device, &M);
    if (st != LCL_OK) {
        fprintf(stderr, "  %s %s %lldx%lld: create -> %s: %s\n", c->name, dt == LCL_F32 ? "f32" : "f64", (long long)A->rows, (long long)A->cols,
                lcl_status_string(st), lcl_last_error(ctx));
        bad++;
        goto out;
    }
    for (i = 0; i < nin; i++) { x[i] = sp_rand(); if (dt == LCL_F32) x[i] = (double)(float)x[i]; sp_set(xd, dt, i, x[i]); }
    for (i = 0; i < nout; i++) { y0[i] = sp_rand(); if (dt == LCL_F32) y0[i] = (double)(float)y0[i]; }
    for (pass = 0; pass < (vecs ? 2 : 1) * SP_NAB; pass++) {
        double alpha = sp_ab[pass % SP_NAB][0], beta = sp_ab[pass % SP_NAB][1];
        int64_t worst = -1;
        double werr = 0;
        for (i = 0; i < nout; i++) sp_set(yd, dt, i, beta == 0 ? NAN : y0[i]);
        for (i = 0; i < nin; i++) sp_set(xd, dt, i, alpha == 0 ? NAN : x[i]);   /* alpha 0 must not read x */
        sp_ref(A, dt, tr, alpha, x, beta, y0, ref, bound);
        if (pass < SP_NAB) st = lcl_spmv(ctx, tr, alpha, M, xd, beta, yd);
        else {
            lcl_vec *xv = NULL, *yv = NULL;
            st = vecs == 2 ? lcl_vec_create_like(ctx, M, xd, &xv) : lcl_vec_create(ctx, dt, nin, xd, &xv);
            if (st == LCL_OK) st = vecs == 2 ? lcl_vec_create_like(ctx, M, NULL, &yv) : lcl_vec_create(ctx, dt, nout, yd, &yv);
            if (st == LCL_OK && vecs == 2) st = lcl_vec_write(ctx, yv, yd);
            if (st == LCL_OK) st = lcl_spmv_vec(ctx, tr, alpha, M, xv, beta, yv);
            if (st == LCL_OK && vecs == 2 && beta == 0) st = lcl_spmv_vec(ctx, tr, alpha, M, xv, beta, yv);
            if (st == LCL_OK) st = lcl_vec_read(ctx, yv, yd);
            lcl_vec_free(xv);
            lcl_vec_free(yv);
        }
        if (st == LCL_ERR_FILL && tr && pass == 0 && (c->f == LCL_FMT_DIA || c->f == LCL_FMT_DENSE)) {   /* documented: A^T pads too much */
            fprintf(stderr, "  %s%s %lldx%lld refused: %.90s\n", c->name, op, (long long)A->rows, (long long)A->cols, lcl_last_error(ctx));
            break;
        }
        if (st != LCL_OK) {
            fprintf(stderr, "  %s%s %s %lldx%lld pass %d: %s: %s\n", c->name, op, dt == LCL_F32 ? "f32" : "f64", (long long)A->rows,
                    (long long)A->cols, pass, lcl_status_string(st), lcl_last_error(ctx));
            bad++;
            continue;
        }
        for (i = 0; i < nout; i++) {
            double err = fabs(sp_get(yd, dt, i) - ref[i]) / bound[i];
            if (!(err <= tol)) { if (worst < 0 || !(err <= werr)) { worst = i; werr = err; } }
        }
        if (worst >= 0) {
            fprintf(stderr, "  %s%s %s %lldx%lld pass %d: y[%lld] = %.17g, want %.17g (rel err %.3g)\n", c->name, op,
                    dt == LCL_F32 ? "f32" : "f64", (long long)A->rows, (long long)A->cols, pass, (long long)worst, sp_get(yd, dt, worst),
                    ref[worst], werr);
            bad++;
        }
    }
out:
    lcl_spmat_free(M);
    free(x); free(y0); free(ref); free(bound); free(xd); free(yd);
    return bad;
}

static const struct sp_shape { int64_t rows, cols; int kind; } sp_shapes[] = {
    {0, 0, 0}, {0, 5, 0}, {4, 0, 0}, {1, 1, 1}, {1, 33, 1}, {2, 2, 0}, {17, 17, 0}, {17, 17, 1}, {33, 20, 0}, {20, 33, 3},
    {40, 30, 4}, {1000, 1000, 0}, {300, 300, 3}, {3, 20000, 2}};
#define SP_NSHAPES (int)(sizeof sp_shapes / sizeof sp_shapes[0])

static int sp_fp64(lcl_context *ctx, int dev) {
    lcl_device_info di;
    memset(&di, 0, sizeof di);
    return lcl_context_device(ctx, dev, &di) == LCL_OK && di.fp64;
}

/* every case on every shape, A x and A^T x, double (where the device has it) and float, host
   arrays and device vectors on device 0 of ctx; then extra(ctx, A, dtype) when given */
static void sp_sweep_on(lcl_context *ctx, const struct sp_shape *shapes, int nshapes, const struct sp_case *cases, int ncases,
                        void (*extra)(lcl_context *, const lcl_csr *, lcl_dtype)) {
    int s, c, t, tr;
    for (t = 0; t < 2; t++) {
        lcl_dtype dt = t ? LCL_F32 : LCL_F64;
        if (dt == LCL_F64 && !sp_fp64(ctx, 0)) continue;
        for (s = 0; s < nshapes; s++) {
            lcl_csr A;
            sp_gen(&A, shapes[s].rows, shapes[s].cols, shapes[s].kind);
            for (c = 0; c < ncases; c++)
                for (tr = 0; tr < 2; tr++) {
                    int bad = sp_check(ctx, &A, &cases[c], dt, 0, 1, (lcl_trans)tr);
                    CHECK_MSG(bad == 0, "%s%s %s on %lldx%lld (kind %d, nnz %lld)", cases[c].name, tr ? " A^T x" : "", t ? "f32" : "f64",
                              (long long)A.rows, (long long)A.cols, shapes[s].kind, (long long)A.nnz);
                }
            if (extra) extra(ctx, &A, dt);
            sp_csr_free(&A);
        }
    }
}
/* the same on the default OpenCL context */
static void sp_sweep(const struct sp_shape *shapes, int nshapes, const struct sp_case *cases, int ncases,
                     void (*extra)(lcl_context *, const lcl_csr *, lcl_dtype)) {
    lcl_context *ctx = lt_ocl(NULL);
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    sp_sweep_on(ctx, shapes, nshapes, cases, ncases, extra);
    lcl_context_destroy(ctx);
}

static void test_spmv_opencl_formats(void) { sp_sweep(sp_shapes, SP_NSHAPES, sp_cases, SP_NCASES, NULL); }

static const struct sp_case sp_merge_cases[] = {{LCL_FMT_CSR, LCL_KERNEL_MERGE, "csr-merge"}, {LCL_FMT_CSC, LCL_KERNEL_MERGE, "csc-merge"}};
/* an OpenCL context built with opts, under LCL_SPMV_WG = wg and LCL_SPMV_XPART_KB = xpart while
   it is created (NULL: unset); NULL when creation fails (a CHECK failed then) */
static lcl_context *sp_ctx_env(const char *opts, const char *wg, const char *xpart) {
    lcl_context_desc d;
    lcl_context *ctx = NULL;
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_OPENCL;
    d.build_options = opts;
    d.cache_dir = getenv("LT_CACHE");
    if (wg) setenv("LCL_SPMV_WG", wg, 1);
    if (xpart) setenv("LCL_SPMV_XPART_KB", xpart, 1);
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    unsetenv("LCL_SPMV_WG");
    unsetenv("LCL_SPMV_XPART_KB");
    return ctx;
}
/* CSR adaptive with SPMV_UNROLL entries a work-item at once (a kernel build option, off by
   default until timed): 4 divides the block's local products, 3 does not; the second also on
   32-item work-groups (LCL_SPMV_WG: blocks of at most 32 rows, long rows split sooner); every
   shape, both precisions, A x and A^T x, against the same references */
static void test_spmv_opencl_merge_unrolled(void) {
    static const char *const opts[] = {"-DSPMV_UNROLL=4", "-DSPMV_UNROLL=3"};
    int o, n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) { lt_skip("no OpenCL device"); return; }
    for (o = 0; o < 2; o++) {
        lcl_context *ctx = sp_ctx_env(opts[o], o == 1 ? "32" : NULL, NULL);
        if (ctx) CHECK(ctx->dev[0].tune.spmv_wg == (o == 1 ? 32 : ctx->dev[0].tune.wg));
        if (ctx) sp_sweep_on(ctx, sp_shapes, SP_NSHAPES, sp_merge_cases, 2, NULL);
        lcl_context_destroy(ctx);
    }
}

/* CSR adaptive over column parts (lcl_spmv_csr_cols, on by default only on NVIDIA for x above
   16 MB): forced with parts of 1 KB, so x of 129 doubles and up is cut (at most 8 parts); the
   second context on 32-item groups, so long rows are split into chunks and single rows fill a
   block; every shape, both precisions, A x and A^T x, every alpha/beta on the same matrix (beta 0
   with NaN in y: the long rows' y is read by lcl_spmv_add_parts before lcl_spmv_csr_long sets it) */
static void test_spmv_opencl_xparts(void) {
    int o, n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) { lt_skip("no OpenCL device"); return; }
    for (o = 0; o < 2; o++) {
        lcl_context *ctx = sp_ctx_env(NULL, o == 1 ? "32" : NULL, "1");
        lcl_spmat *M = NULL;
        lcl_csr A;
        if (!ctx) continue;
        CHECK(ctx->dev[0].tune.spmv_xpart_kb == 1);
        /* 1000 columns of doubles: 8 KB, 8 parts; of floats 4 */
        sp_gen(&A, 300, 1000, 2);
        CHECK_OK(ctx, sp_make(ctx, &A, LCL_F64, LCL_FMT_CSR, LCL_KERNEL_MERGE, 0, &M));
        if (M) CHECK_MSG(M->part[0].ni[2] == 8, "double: %d column parts (want 8)", M->part[0].ni[2]);
        lcl_spmat_free(M);
        M = NULL;
        CHECK_OK(ctx, sp_make(ctx, &A, LCL_F32, LCL_FMT_CSR, LCL_KERNEL_MERGE, 0, &M));
        if (M) CHECK_MSG(M->part[0].ni[2] == 4, "single: %d column parts (want 4)", M->part[0].ni[2]);
        lcl_spmat_free(M);
        M = NULL;
        if (o == 0) {   /* every host allocation, then every buffer, of the upload failing in turn */
            long calls, k, base = lt_alloc_outstanding();
            int nb, fails = 0;
            lcl_status st;
            lt_alloc_fail_at(0);
            CHECK_OK(ctx, sp_make(ctx, &A, LCL_F64, LCL_FMT_CSR, LCL_KERNEL_MERGE, 0, &M));
            calls = lt_alloc_calls();
            lcl_spmat_free(M);
            M = NULL;
            for (k = 1; k <= calls; k++) {
                lt_alloc_fail_at(k);
                st = sp_make(ctx, &A, LCL_F64, LCL_FMT_CSR, LCL_KERNEL_MERGE, 0, &M);
                lt_alloc_fail_at(0);
                if (st != LCL_OK) fails++;
                CHECK_MSG(st == LCL_OK || st == LCL_ERR_OUT_OF_MEMORY, "allocation %ld failing: %s", k, lcl_status_string(st));
                CHECK(st == LCL_OK || M == NULL);
                lcl_spmat_free(M);
                M = NULL;
                lcl_clear_error(ctx);
            }
            CHECK_MSG(fails > 0, "no failing allocation reached the upload (%ld calls)", calls);
            for (nb = 1; nb <= 12; nb++) {
                CHECK(lt_cl_fail("clCreateBuffer", nb, -4 /* CL_MEM_OBJECT_ALLOCATION_FAILURE */));
                st = sp_make(ctx, &A, LCL_F64, LCL_FMT_CSR, LCL_KERNEL_MERGE, 0, &M);
                lt_cl_reset();
                CHECK_MSG(st == LCL_OK || (st == LCL_ERR_DEVICE_MEMORY && M == NULL), "buffer %d failing: %s: %s", nb, lcl_status_string(st),
                          lcl_last_error(ctx));
                lcl_spmat_free(M);
                M = NULL;
                lcl_clear_error(ctx);
            }
            CHECK_MSG(lt_alloc_outstanding() == base, "failed uploads leak %ld block(s)", lt_alloc_outstanding() - base);
        }
        sp_csr_free(&A);
        sp_sweep_on(ctx, sp_shapes, SP_NSHAPES, sp_merge_cases, 2, NULL);
        lcl_context_destroy(ctx);
    }
}

/* the kernel choice: CPU devices run scalar for auto, and every V of the vector kernel is right */
static void test_spmv_opencl_kernels(void) {
    lcl_context *ctx = lt_ocl(NULL);
    static const int64_t widths[] = {2, 4, 9, 17, 40};
    lcl_device_info di;
    lcl_spmat_info inf;
    int w;
    lcl_csr A;
    lcl_spmat *M = NULL;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    CHECK_OK(ctx, lcl_context_device(ctx, 0, &di));
    /* the documented rule: short rows (a band of 6) run scalar everywhere; rows of 50 run vector
       on GPUs and scalar on CPU devices */
    sp_gen(&A, 50, 50, 3);
    CHECK_OK(ctx, sp_make(ctx, &A, LCL_F32, LCL_FMT_CSR, LCL_KERNEL_AUTO, 0, &M));
    if (M) CHECK(lcl_spmat_describe(M, &inf) == LCL_OK && inf.kernel == LCL_KERNEL_SCALAR && M->kernel == M->part[0].kernel);
    lcl_spmat_free(M);
    M = NULL;
    sp_csr_free(&A);
    sp_gen(&A, 50, 50, 1);
    CHECK_OK(ctx, sp_make(ctx, &A, LCL_F32, LCL_FMT_CSR, LCL_KERNEL_AUTO, 0, &M));
    if (M) CHECK(lcl_spmat_describe(M, &inf) == LCL_OK && inf.kernel == (di.type == LCL_DEVICE_CPU ? LCL_KERNEL_SCALAR : LCL_KERNEL_VECTOR) &&
                 M->kernel == M->part[0].kernel);
    lcl_spmat_free(M);
    M = NULL;
    sp_csr_free(&A);
    for (w = 0; w < (int)(sizeof widths / sizeof widths[0]); w++) {
        static const struct sp_case vc = {LCL_FMT_CSR, LCL_KERNEL_VECTOR, "csr-vector"};
        sp_gen(&A, 70, widths[w], 1);
        CHECK_OK(ctx, sp_make(ctx, &A, LCL_F32, LCL_FMT_CSR, LCL_KERNEL_VECTOR, 0, &M));
        if (M) fprintf(stderr, "  row length %lld: V = %d\n", (long long)widths[w], M->part[0].V);
        lcl_spmat_free(M);
        M = NULL;
        CHECK(sp_check(ctx, &A, &vc, LCL_F32, 0, 0, LCL_NO_TRANS) == 0);
        sp_csr_free(&A);
    }
    lcl_context_destroy(ctx);
}

static void test_spmv_opencl_vec(void) {
    lcl_context *ctx = lt_ocl(NULL);
    lcl_csr A;
    lcl_spmat *M = NULL;
    lcl_vec *x = NULL, *y = NULL, *y2 = NULL;
    double xs[20], ys[33], back[33];
    int i;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    sp_gen(&A, 33, 20, 0);
    for (i = 0; i < 20; i++) xs[i] = i;
    for (i = 0; i < 33; i++) ys[i] = -i;
    CHECK_OK(ctx, sp_make(ctx, &A, LCL_F64, LCL_FMT_CSR, LCL_KERNEL_SCALAR, 0, &M));
    CHECK_OK(ctx, lcl_vec_create(ctx, LCL_F64, 20, xs, &x));
    CHECK_OK(ctx, lcl_vec_create(ctx, LCL_F64, 33, NULL, &y));
    CHECK_OK(ctx, lcl_vec_create(ctx, LCL_F64, 20, NULL, &y2));
    if (M && x && y && y2) {
        CHECK_OK(ctx, lcl_vec_read(ctx, y, back));
        for (i = 0; i < 33; i++) CHECK(back[i] == 0);
        CHECK_OK(ctx, lcl_vec_write(ctx, y, ys));
        CHECK_OK(ctx, lcl_vec_read(ctx, y, back));
        for (i = 0; i < 33; i++) CHECK(back[i] == ys[i]);
        /* length mismatches: y too short (y2 has 20 = cols), swapped */
        CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M, x, 0.0, y2), LCL_ERR_DIMENSION);
        CHECK_STATUS(ctx, lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M, y, 0.0, x), LCL_ERR_DIMENSION);
        CHECK(strstr(lcl_last_error(ctx), "33") != NULL);
        CHECK_OK(ctx, lcl_vec_read(ctx, y, back));
        for (i = 0; i < 33; i++) CHECK(back[i] == ys[i]);
    }
    if (M && x) {   /* one device: lcl_vec_create_like is lcl_vec_create's on its device; dot and axpby there */
        lcl_vec *l = NULL;
        double d = -1;
        CHECK_OK(ctx, lcl_vec_create_like(ctx, M, xs, &l));
        if (l) {
            CHECK(l->nparts == 0 && l->n == 20 && l->dev == 0);
            CHECK_OK(ctx, lcl_vec_dot(ctx, l, x, &d));
            CHECK(d == 2470);
            CHECK_OK(ctx, lcl_vec_axpby(ctx, 3, x, -2, l));
            CHECK_OK(ctx, lcl_vec_read(ctx, l, back));
            for (i = 0; i < 20; i++) CHECK(back[i] == xs[i]);
            CHECK_STATUS(ctx, lcl_vec_dot(ctx, l, y, &d), LCL_ERR_DIMENSION);
        }
        lcl_vec_free(l);
    }
    lcl_vec_free(x); lcl_vec_free(y); lcl_vec_free(y2);
    lcl_spmat_free(M);
    sp_csr_free(&A);
    lcl_context_destroy(ctx);
}

/* CSC on OpenCL, white box: A x on the CSR kept on the device, A^T x on the CSC arrays uploaded
   by the first transposed product with no host copy; lcl_spmat_to_csr gives the input back */
static void sp_csc_parts(lcl_context *ctx, const lcl_csr *A, lcl_dtype dt) {
    lcl_spmat *M = NULL;
    lcl_spmat_info inf;
    lcl_csr back;
    void *x = calloc((size_t)A->rows + 1, 8), *y = calloc((size_t)A->cols + 1, 8);
    int64_t k;
    CHECK_OK(ctx, sp_make(ctx, A, dt, LCL_FMT_CSC, LCL_KERNEL_AUTO, 0, &M));
    if (M) {
        CHECK(lcl_spmat_describe(M, &inf) == LCL_OK && inf.format == LCL_FMT_CSC && inf.devices == 1 && inf.nnz == A->nnz);
        CHECK(M->nparts == 1 && M->part[0].r0 == 0 && M->part[0].r1 == A->rows && M->tr == NULL);
        CHECK_OK(ctx, lcl_spmv(ctx, LCL_TRANS, 1.0, M, x, 0.0, y));
        CHECK(M->tr && M->tr->nparts == 1 && M->tr->part[0].r1 == A->cols && !M->tr->ptr && !M->tr->idx && !M->tr->val);
        CHECK_OK(ctx, lcl_spmat_to_csr(ctx, M, &back));
        if (back.ptr) {
            int same = back.nnz == A->nnz && back.rows == A->rows && back.cols == A->cols;
            for (k = 0; same && k <= A->rows; k++) same = back.ptr[k] == A->ptr[k];
            for (k = 0; same && k < A->nnz; k++) {
                double a = ((double *)A->val)[k];
                same = back.col[k] == A->col[k] && sp_get(back.val, dt, k) == (dt == LCL_F32 ? (double)(float)a : a);
            }
            CHECK_MSG(same, "csc %lldx%lld: lcl_spmat_to_csr differs from the input", (long long)A->rows, (long long)A->cols);
            lcl_csr_free(&back);
        }
    }
    lcl_spmat_free(M);
    free(x);
    free(y);
}
/* CSC's every CSR kernel on odd sizes (1, 2, 17, one row or column, rectangular, empty rows and
   columns, a long row), then auto never picks CSC */
static void test_spmv_opencl_csc(void) {
    static const struct sp_case cases[] = {{LCL_FMT_CSC, LCL_KERNEL_SCALAR, "csc-scalar"}, {LCL_FMT_CSC, LCL_KERNEL_VECTOR, "csc-vector"},
                                           {LCL_FMT_CSC, LCL_KERNEL_IMAGE, "csc-image"}};
    static const struct sp_shape shapes[] = {{1, 1, 0}, {2, 2, 1}, {17, 17, 0}, {1, 40, 1}, {40, 1, 1}, {33, 20, 0}, {20, 33, 4}, {61, 45, 4},
                                             {3, 20000, 2}};
    lcl_context *ctx;
    int s, t;
    sp_sweep(shapes, (int)(sizeof shapes / sizeof shapes[0]), cases, (int)(sizeof cases / sizeof cases[0]), sp_csc_parts);
    if (!(ctx = lt_ocl(NULL))) return;
    for (s = 0; s < SP_NSHAPES; s++) {   /* auto (rule and trial) never stores CSC */
        lcl_csr A;
        sp_gen(&A, sp_shapes[s].rows, sp_shapes[s].cols, sp_shapes[s].kind);
        for (t = 0; t < 2; t++) {
            lcl_spmat_opts o;
            lcl_spmat *M = NULL;
            lcl_spmat_info inf;
            memset(&o, 0, sizeof o);
            o.trial = t;
            CHECK_OK(ctx, lcl_spmat_create(ctx, &A, &o, &M));
            if (M) CHECK_MSG(lcl_spmat_describe(M, &inf) == LCL_OK && inf.format != LCL_FMT_CSC, "auto%s chose csc on %lldx%lld: %s",
                             t ? " trial" : "", (long long)A.rows, (long long)A.cols, inf.reason);
            lcl_spmat_free(M);
        }
        sp_csr_free(&A);
    }
    lcl_context_destroy(ctx);
}

/* OpenCL faults in the upload (a buffer), the product (a launch) and the upload of A^T by the
   first transposed product: a named error, no host leak, and the context works afterwards */
static void test_spmv_opencl_faults(void) {
    lcl_context *ctx = lt_ocl(NULL);
    static const struct sp_case cases[] = {{LCL_FMT_CSR, LCL_KERNEL_MERGE, "csr-merge"}, {LCL_FMT_COO, LCL_KERNEL_AUTO, "coo"},
                                           {LCL_FMT_SELL, LCL_KERNEL_AUTO, "sell"}, {LCL_FMT_CSC, LCL_KERNEL_AUTO, "csc"},
                                           {LCL_FMT_CSC, LCL_KERNEL_MERGE, "csc-merge"}};
    lcl_csr A;
    double x[100], y[100];
    int c, i;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    sp_gen(&A, 100, 100, 0);
    for (i = 0; i < 100; i++) { x[i] = 1; y[i] = 7; }
    for (c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
        lcl_spmat *M = NULL;
        long base;
        lcl_status st;
        CHECK(sp_check(ctx, &A, &cases[c], LCL_F64, 0, 0, LCL_NO_TRANS) == 0);   /* kernels built before counting */
        base = lt_alloc_outstanding();
        CHECK(lt_cl_fail("clCreateBuffer", 3, -4 /* CL_MEM_OBJECT_ALLOCATION_FAILURE */));
        st = sp_make(ctx, &A, LCL_F64, cases[c].f, cases[c].k, 0, &M);
        lt_cl_reset();
        CHECK_MSG(st == LCL_ERR_DEVICE_MEMORY && strstr(lcl_last_error(ctx), "clCreateBuffer") && strstr(lcl_last_error(ctx), "CL_MEM_OBJECT_ALLOCATION_FAILURE"),
                  "%s upload with a failing buffer: %s: %s", cases[c].name, lcl_status_string(st), lcl_last_error(ctx));
        CHECK(M == NULL);
        CHECK_MSG(lt_alloc_outstanding() == base, "%s: failed upload leaks %ld block(s)", cases[c].name, lt_alloc_outstanding() - base);
        lcl_clear_error(ctx);
        CHECK_OK(ctx, sp_make(ctx, &A, LCL_F64, cases[c].f, cases[c].k, 0, &M));
        if (!M) continue;
        base = lt_alloc_outstanding();
        CHECK(lt_cl_fail("clEnqueueNDRangeKernel", cases[c].f == LCL_FMT_COO ? 2 : 1, -6 /* CL_OUT_OF_HOST_MEMORY */));
        st = lcl_spmv(ctx, LCL_NO_TRANS, 1.0, M, x, 1.0, y);
        lt_cl_reset();
        CHECK_MSG(st == LCL_ERR_OPENCL && strstr(lcl_last_error(ctx), "clEnqueueNDRangeKernel") && strstr(lcl_last_error(ctx), "CL_OUT_OF_HOST_MEMORY"),
                  "%s product with a failing launch: %s: %s", cases[c].name, lcl_status_string(st), lcl_last_error(ctx));
        fprintf(stderr, "  %s: %s\n", cases[c].name, lcl_last_error(ctx));
        CHECK_MSG(lt_alloc_outstanding() == base, "%s: failed product leaks %ld block(s)", cases[c].name, lt_alloc_outstanding() - base);
        lcl_clear_error(ctx);
        /* the first A^T x uploads A^T: its second buffer fails, nothing is kept, a retry builds it */
        CHECK(lt_cl_fail("clCreateBuffer", 2, -4));
        st = lcl_spmv(ctx, LCL_TRANS, 1.0, M, x, 1.0, y);
        lt_cl_reset();
        CHECK_MSG(st == LCL_ERR_DEVICE_MEMORY && M->tr == NULL, "%s A^T x with a failing buffer: %s: %s", cases[c].name, lcl_status_string(st),
                  lcl_last_error(ctx));
        CHECK_MSG(lt_alloc_outstanding() == base, "%s: failed A^T upload leaks %ld block(s)", cases[c].name, lt_alloc_outstanding() - base);
        lcl_clear_error(ctx);
        CHECK(sp_check(ctx, &A, &cases[c], LCL_F64, 0, 0, LCL_NO_TRANS) == 0);   /* the context still works */
        CHECK(sp_check(ctx, &A, &cases[c], LCL_F64, 0, 0, LCL_TRANS) == 0);
        lcl_spmat_free(M);
    }
    sp_csr_free(&A);
    lcl_context_destroy(ctx);
}

/* a child's context has two devices; else it is destroyed, with a message */
static int sp_two_devices(lcl_context *ctx) {
    if (ctx && lcl_context_num_devices(ctx) == 2) return 1;
    fprintf(stderr, "  want 2 devices, the context has %d\n", ctx ? lcl_context_num_devices(ctx) : 0);
    lcl_context_destroy(ctx);
    return 0;
}
/* a 2-D Poisson matrix (5 points) on an m x m grid */
static void sp_poisson(lcl_csr *A, int64_t m) {
    int64_t n = m * m, i, nz = 0;
    memset(A, 0, sizeof *A);
    A->dtype = LCL_F64;
    A->rows = A->cols = n;
    A->ptr = (int64_t *)malloc(((size_t)n + 1) * sizeof(int64_t));
    A->col = (int32_t *)malloc(((size_t)n * 5 + 1) * sizeof(int32_t));
    A->val = malloc(((size_t)n * 5 + 1) * sizeof(double));
    A->ptr[0] = 0;
    for (i = 0; i < n; i++) {
        int64_t r = i / m, c = i % m, j[5], k;
        j[0] = r > 0 ? i - m : -1; j[1] = c > 0 ? i - 1 : -1; j[2] = i; j[3] = c < m - 1 ? i + 1 : -1; j[4] = r < m - 1 ? i + m : -1;
        for (k = 0; k < 5; k++)
            if (j[k] >= 0) { A->col[nz] = (int32_t)j[k]; ((double *)A->val)[nz] = k == 2 ? 4.0 : -1.0; nz++; }
        A->ptr[i + 1] = nz;
    }
    A->nnz = nz;
}

/* y = A x on the host, double (the CG reference) */
static void sp_host_mv(const lcl_csr *A, const double *x, double *y) {
    int64_t i, k;
    for (i = 0; i < A->rows; i++) {
        double s = 0;
        for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) s += ((const double *)A->val)[k] * x[A->col[k]];
        y[i] = s;
    }
}
#define SP_CG_STEPS 25
/* dot and axpby on partitioned vectors; CG steps on the devices against the host's; the errors */
static int sp_halo_ops(lcl_context *ctx) {
    enum { N = 1024 };
    static double xs[N], ys[N], back[N], u[N], r[N], pp[N], q[N];
    lcl_csr A, B, C;
    lcl_spmat *M = NULL, *MB = NULL, *MC = NULL, *MF = NULL;
    lcl_vec *x = NULL, *y = NULL, *w = NULL, *w1 = NULL, *xb = NULL, *xf = NULL, *vu = NULL, *vr = NULL, *vp = NULL, *vq = NULL, *w2 = NULL;
    double d = 0, want = 0, rr_dev[SP_CG_STEPS + 1], rr_host[SP_CG_STEPS + 1];
    int bad = 0, i, k;
    lcl_status st;
    sp_poisson(&A, 32);
    sp_gen(&B, N, N, 0);
    sp_gen(&C, 33, 20, 0);
    for (i = 0; i < N; i++) { xs[i] = sp_rand(); ys[i] = sp_rand(); want += xs[i] * ys[i]; }
    if (sp_make(ctx, &A, LCL_F64, LCL_FMT_AUTO, LCL_KERNEL_AUTO, -1, &M) != LCL_OK || lcl_vec_create_like(ctx, M, xs, &x) != LCL_OK ||
        lcl_vec_create_like(ctx, M, ys, &y) != LCL_OK || lcl_vec_create(ctx, LCL_F64, N, xs, &w) != LCL_OK ||
        lcl_vec_create(ctx, LCL_F64, N - 1, NULL, &w1) != LCL_OK || sp_make(ctx, &B, LCL_F64, LCL_FMT_CSR, LCL_KERNEL_AUTO, -1, &MB) != LCL_OK ||
        lcl_vec_create_like(ctx, MB, NULL, &xb) != LCL_OK || sp_make(ctx, &C, LCL_F64, LCL_FMT_CSR, LCL_KERNEL_AUTO, -1, &MC) != LCL_OK ||
        sp_make(ctx, &A, LCL_F32, LCL_FMT_AUTO, LCL_KERNEL_AUTO, -1, &MF) != LCL_OK || lcl_vec_create_like(ctx, MF, NULL, &xf) != LCL_OK) {
        fprintf(stderr, "  ops setup: %s\n", lcl_last_error(ctx));
        bad++;
        goto out;
    }
    /* dot: partial sums per device, added on the host */
    if (lcl_vec_dot(ctx, x, y, &d) != LCL_OK || !(fabs(d - want) <= 1e-12 * N)) { fprintf(stderr, "  dot %.17g, want %.17g\n", d, want); bad++; }
    if (lcl_vec_dot(ctx, w, w, &d) != LCL_OK || !(d > 0)) { fprintf(stderr, "  dot on one device: %s\n", lcl_last_error(ctx)); bad++; }
    /* axpby, then beta 0 over NaN */
    if (lcl_vec_axpby(ctx, 2.0, x, -0.5, y) != LCL_OK || lcl_vec_read(ctx, y, back) != LCL_OK) bad++;
    for (i = 0; i < N; i++) if (back[i] != 2.0 * xs[i] - 0.5 * ys[i]) { fprintf(stderr, "  axpby [%d] %g\n", i, back[i]); bad++; break; }
    for (i = 0; i < N; i++) back[i] = NAN;
    if (lcl_vec_write(ctx, y, back) != LCL_OK || lcl_vec_axpby(ctx, 1.5, x, 0.0, y) != LCL_OK || lcl_vec_read(ctx, y, back) != LCL_OK) bad++;
    for (i = 0; i < N; i++) if (back[i] != 1.5 * xs[i]) { fprintf(stderr, "  axpby beta 0 [%d] %g\n", i, back[i]); bad++; break; }
    for (i = 0; i < N; i++) back[i] = NAN;   /* alpha 0 over NaN in x */
    if (lcl_vec_write(ctx, x, back) != LCL_OK || lcl_vec_axpby(ctx, 0.0, x, 2.0, y) != LCL_OK || lcl_vec_read(ctx, y, back) != LCL_OK ||
        lcl_vec_write(ctx, x, xs) != LCL_OK) bad++;
    for (i = 0; i < N; i++) if (back[i] != 3.0 * xs[i]) { fprintf(stderr, "  axpby alpha 0 [%d] %g\n", i, back[i]); bad++; break; }
    /* CG on A u = 1 from u = 0: every vector on the devices, against the same steps on the host */
    for (i = 0; i < N; i++) { u[i] = 0; r[i] = pp[i] = 1; }
    st = lcl_vec_create_like(ctx, M, u, &vu);
    if (st == LCL_OK) st = lcl_vec_create_like(ctx, M, r, &vr);
    if (st == LCL_OK) st = lcl_vec_create_like(ctx, M, pp, &vp);
    if (st == LCL_OK) st = lcl_vec_create_like(ctx, M, NULL, &vq);
    if (st == LCL_OK) st = lcl_vec_dot(ctx, vr, vr, &rr_dev[0]);
    for (k = 0; k < SP_CG_STEPS && st == LCL_OK; k++) {
        double pq = 1, a;
        st = lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M, vp, 0.0, vq);
        if (st == LCL_OK) st = lcl_vec_dot(ctx, vp, vq, &pq);
        a = rr_dev[k] / pq;
        if (st == LCL_OK) st = lcl_vec_axpby(ctx, a, vp, 1.0, vu);
        if (st == LCL_OK) st = lcl_vec_axpby(ctx, -a, vq, 1.0, vr);
        if (st == LCL_OK) st = lcl_vec_dot(ctx, vr, vr, &rr_dev[k + 1]);
        if (st == LCL_OK) st = lcl_vec_axpby(ctx, 1.0, vr, rr_dev[k + 1] / rr_dev[k], vp);
    }
    if (st != LCL_OK) { fprintf(stderr, "  CG on the devices: %s\n", lcl_last_error(ctx)); bad++; }
    rr_host[0] = N;
    for (k = 0; k < SP_CG_STEPS; k++) {
        double pq = 0, a, rr = 0;
        sp_host_mv(&A, pp, q);
        for (i = 0; i < N; i++) pq += pp[i] * q[i];
        a = rr_host[k] / pq;
        for (i = 0; i < N; i++) { u[i] += a * pp[i]; r[i] -= a * q[i]; rr += r[i] * r[i]; }
        rr_host[k + 1] = rr;
        for (i = 0; i < N; i++) pp[i] = r[i] + rr / rr_host[k] * pp[i];
    }
    if (st == LCL_OK) {
        double err = 0, mx = 0;
        if (lcl_vec_read(ctx, vu, back) != LCL_OK) bad++;
        for (i = 0; i < N; i++) { err = fmax(err, fabs(back[i] - u[i])); mx = fmax(mx, fabs(u[i])); }
        fprintf(stderr, "  CG %d steps: |r|^2 %.3e (host %.3e), max |u - u_host| / max |u| %.2e\n", SP_CG_STEPS, rr_dev[SP_CG_STEPS],
                rr_host[SP_CG_STEPS], err / mx);
        if (!(err <= 1e-9 * mx) || !(fabs(rr_dev[SP_CG_STEPS] - rr_host[SP_CG_STEPS]) <= 1e-6 * rr_host[SP_CG_STEPS] + 1e-20)) bad++;
    }
    /* errors: each a named status, with its advice */
#define SP_ERR(call, want, text) do { lcl_status s_ = (call); if (s_ != (want) || !strstr(lcl_last_error(ctx), text)) { \
        fprintf(stderr, "  %s: %s: %s\n", #call, lcl_status_string(s_), lcl_last_error(ctx)); bad++; } lcl_clear_error(ctx); } while (0)
    SP_ERR(lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M, w, 0.0, vq), LCL_ERR_INVALID_ARGUMENT, "lcl_vec_create_like");
    SP_ERR(lcl_spmv_vec(ctx, LCL_TRANS, 1.0, M, x, 0.0, y), LCL_ERR_UNSUPPORTED, "host arrays");
    SP_ERR(lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, MB, x, 0.0, xb), LCL_ERR_INVALID_ARGUMENT, "x is partitioned otherwise");
    SP_ERR(lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M, x, 0.0, xb), LCL_ERR_INVALID_ARGUMENT, "y is partitioned otherwise");
    SP_ERR(lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M, x, 0.0, x), LCL_ERR_INVALID_ARGUMENT, "same vector");
    SP_ERR(lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, MF, x, 0.0, xf), LCL_ERR_INVALID_ARGUMENT, "the matrix is float");
    SP_ERR(lcl_vec_dot(ctx, x, w, &d), LCL_ERR_INVALID_ARGUMENT, "laid out differently");
    SP_ERR(lcl_vec_axpby(ctx, 1.0, w, 1.0, x), LCL_ERR_INVALID_ARGUMENT, "laid out differently");
    SP_ERR(lcl_vec_dot(ctx, x, xb, &d), LCL_ERR_INVALID_ARGUMENT, "laid out differently");
    SP_ERR(lcl_vec_dot(ctx, w, w1, &d), LCL_ERR_DIMENSION, "1023");
    SP_ERR(lcl_vec_dot(ctx, x, xf, &d), LCL_ERR_INVALID_ARGUMENT, "x is double, y is float");
    SP_ERR(lcl_vec_dot(ctx, x, NULL, &d), LCL_ERR_INVALID_ARGUMENT, "NULL y");
    SP_ERR(lcl_vec_dot(ctx, x, y, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL output");
    SP_ERR(lcl_vec_create_like(ctx, MC, NULL, &w2), LCL_ERR_UNSUPPORTED, "square");
    SP_ERR(lcl_vec_create_like(ctx, NULL, NULL, &w2), LCL_ERR_INVALID_ARGUMENT, "NULL matrix");
    if (w2) bad++;
    SP_ERR(lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M, w, 0.0, w1), LCL_ERR_DIMENSION, "1023");
#undef SP_ERR
out:
    lcl_vec_free(x); lcl_vec_free(y); lcl_vec_free(w); lcl_vec_free(w1); lcl_vec_free(xb); lcl_vec_free(xf);
    lcl_vec_free(vu); lcl_vec_free(vr); lcl_vec_free(vp); lcl_vec_free(vq);
    lcl_spmat_free(M); lcl_spmat_free(MB); lcl_spmat_free(MC); lcl_spmat_free(MF);
    sp_csr_free(&A); sp_csr_free(&B); sp_csr_free(&C);
    return bad;
}

/* the fault sweep's run: a split matrix, its resident copy and vectors, two products, a dot and an
   axpby, checked against the host; -1 for a wrong result */
typedef struct sp_sweep_arg { const lcl_csr *A; const double *x; const double *ref; lcl_format f; } sp_sweep_arg;
static int sp_halo_run(lcl_context *ctx, void *u) {
    const sp_sweep_arg *a = (const sp_sweep_arg *)u;
    int64_t n = a->A->rows, i;
    double *y = (double *)malloc((size_t)n * sizeof(double)), d = 0, want = 0;
    lcl_spmat *M = NULL;
    lcl_vec *x = NULL, *v = NULL;
    lcl_status st = sp_make(ctx, a->A, LCL_F64, a->f, LCL_KERNEL_AUTO, -1, &M);
    if (st == LCL_OK) st = lcl_vec_create_like(ctx, M, a->x, &x);
    if (st == LCL_OK) st = lcl_vec_create_like(ctx, M, NULL, &v);
    if (st == LCL_OK) st = lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M, x, 0.0, v);
    if (st == LCL_OK) st = lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M, x, 0.0, v);
    if (st == LCL_OK) st = lcl_vec_dot(ctx, x, v, &d);
    if (st == LCL_OK) st = lcl_vec_axpby(ctx, 1.0, x, 0.0, x);
    if (st == LCL_OK) st = lcl_vec_read(ctx, v, y);
    lcl_vec_free(x);
    lcl_vec_free(v);
    lcl_spmat_free(M);
    if (st == LCL_OK) {
        for (i = 0; i < n; i++) {
            want += a->x[i] * a->ref[i];
            if (!(fabs(y[i] - a->ref[i]) <= 1e-12 * (1 + fabs(a->ref[i])))) st = (lcl_status)-1;
        }
        if (!(fabs(d - want) <= 1e-10 * (1 + fabs(want)))) st = (lcl_status)-1;
    }
    free(y);
    return (int)st;
}
/* OpenCL faults anywhere in the resident split (build, vectors, exchange, products, dot, axpby) */
static int sp_halo_faults(void) {
    lcl_context *ctx = lt_ocl("Portable Computing Language");
    int before = lt_checks_failed, t;
    unsigned reached = 0;
    lcl_csr A;
    double *x, *ref;
    int64_t i;
    sp_gen(&A, 300, 300, 0);
    x = (double *)malloc(300 * sizeof(double));
    ref = (double *)malloc(300 * sizeof(double));
    for (i = 0; i < 300; i++) x[i] = sp_rand();
    sp_host_mv(&A, x, ref);
    for (t = 0; t < 2; t++) {
        sp_sweep_arg a;
        a.A = &A; a.x = x; a.ref = ref; a.f = t ? LCL_FMT_SELL : LCL_FMT_CSR;
        fprintf(stderr, "  %d faulted resident runs (%s)\n", lt_cl_sweep("resident split", ctx, LT_CL_ONE | LT_CL_SPLIT, 400, "lcl_", sp_halo_run,
                &a, &reached), lcl_format_name(a.f));
    }
    fprintf(stderr, "  faults not reached: %s\n", lt_cl_unreached(reached, LT_CL_ONE | LT_CL_SPLIT) ? lt_cl_unreached(reached, LT_CL_ONE | LT_CL_SPLIT) : "none");
    {   /* the calls only the exchange makes: the staging's map, the user events and their callbacks */
        static const char *const fns[] = {"clEnqueueMapBuffer", "clCreateUserEvent", "clSetEventCallback"};
        sp_sweep_arg a;
        int f, nth;
        a.A = &A; a.x = x; a.ref = ref; a.f = LCL_FMT_CSR;
        for (f = 0; f < 3; f++)
            for (nth = 1; nth <= 2; nth++) {
                long base = lt_alloc_outstanding();
                int st, calls;
                CHECK(lt_cl_fail(fns[f], nth, -6));
                st = sp_halo_run(ctx, &a);
                calls = lt_cl_calls(fns[f]);
                lt_cl_reset();
                if (f > 0 && lt_shared_env()) {     /* one cl_context: the writes wait on the reads, no user event */
                    CHECK_MSG(st == LCL_OK && calls == 0, "shared context: %s called %d times: %d: %s", fns[f], calls, st, lcl_last_error(ctx));
                    continue;
                }
                CHECK_MSG(st == LCL_ERR_OPENCL && strstr(lcl_last_error(ctx), fns[f]), "%s #%d failing: %d: %s", fns[f], nth, st, lcl_last_error(ctx));
                CHECK_MSG(lt_alloc_outstanding() == base, "%s #%d: %ld blocks leaked", fns[f], nth, lt_alloc_outstanding() - base);
                lcl_clear_error(ctx);
                CHECK(sp_halo_run(ctx, &a) == LCL_OK);
            }
    }
    free(x);
    free(ref);
    sp_csr_free(&A);
    lcl_context_destroy(ctx);
    return lt_checks_failed != before;
}

/* With LCL_SHARED_CONTEXT=1 (one cl_context for both devices): device 0's vectors are still refused
   where device 1's are expected, and another context's where this one's are; each device's programs
   go to and come from the binary cache */
static int sp_shared_checks(lcl_context *ctx) {
    static const struct sp_case csr = {LCL_FMT_CSR, LCL_KERNEL_AUTO, "csr"};
    lcl_csr A;
    lcl_spmat *M1 = NULL, *MS = NULL, *M2 = NULL;
    lcl_vec *x0 = NULL, *y0 = NULL, *x1 = NULL, *xs = NULL, *ys = NULL, *x2 = NULL, *w2 = NULL;
    lcl_spmat *M0 = NULL;
    lcl_context *ctx2 = lt_ocl("Portable Computing Language"), *cc;
    lcl_cache_stats cs;
    char dir[128], cmd[200];
    double d = 0;
    int bad = 0, r;
    sp_gen(&A, 100, 100, 0);
    if (!ctx2 || ctx2->dev[0].cl == ctx->dev[0].cl || sp_make(ctx, &A, LCL_F64, LCL_FMT_CSR, LCL_KERNEL_AUTO, 1, &M1) != LCL_OK ||
        lcl_vec_create(ctx, LCL_F64, 100, NULL, &x0) != LCL_OK || lcl_vec_create(ctx, LCL_F64, 100, NULL, &y0) != LCL_OK ||
        lcl_vec_create_like(ctx, M1, NULL, &x1) != LCL_OK || sp_make(ctx, &A, LCL_F64, LCL_FMT_CSR, LCL_KERNEL_AUTO, -1, &MS) != LCL_OK ||
        lcl_vec_create_like(ctx, MS, NULL, &xs) != LCL_OK || lcl_vec_create_like(ctx, MS, NULL, &ys) != LCL_OK ||
        sp_make(ctx2, &A, LCL_F64, LCL_FMT_CSR, LCL_KERNEL_AUTO, -1, &M2) != LCL_OK || lcl_vec_create_like(ctx2, M2, NULL, &x2) != LCL_OK ||
        sp_make(ctx, &A, LCL_F64, LCL_FMT_CSR, LCL_KERNEL_AUTO, 0, &M0) != LCL_OK || lcl_vec_create(ctx2, LCL_F64, 100, NULL, &w2) != LCL_OK ||
        x0->dev != 0 || x1->dev != 1 || xs->nparts != 2) {
        fprintf(stderr, "  shared setup: %s\n", lcl_last_error(ctx));
        bad++;
        goto out;
    }
#define SP_ERR(call, want, text) do { lcl_status s_ = (call); if (s_ != (want) || !strstr(lcl_last_error(ctx), text)) { \
        fprintf(stderr, "  shared: %s: %s: %s\n", #call, lcl_status_string(s_), lcl_last_error(ctx)); bad++; } lcl_clear_error(ctx); } while (0)
    SP_ERR(lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M1, x0, 0.0, y0), LCL_ERR_UNSUPPORTED, "live on device 0, the matrix on device 1");
    SP_ERR(lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M1, x1, 0.0, y0), LCL_ERR_UNSUPPORTED, "the matrix on device 1");
    SP_ERR(lcl_vec_dot(ctx, x1, x0, &d), LCL_ERR_INVALID_ARGUMENT, "laid out differently");
    SP_ERR(lcl_vec_axpby(ctx, 1.0, x0, 1.0, x1), LCL_ERR_INVALID_ARGUMENT, "laid out differently");
    SP_ERR(lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, MS, x2, 0.0, ys), LCL_ERR_INVALID_ARGUMENT, "x is partitioned otherwise");
    SP_ERR(lcl_vec_dot(ctx, xs, x2, &d), LCL_ERR_INVALID_ARGUMENT, "another context");
    SP_ERR(lcl_vec_axpby(ctx, 1.0, x2, 1.0, ys), LCL_ERR_INVALID_ARGUMENT, "another context");
    SP_ERR(lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M0, w2, 0.0, x0), LCL_ERR_INVALID_ARGUMENT, "another context");
    SP_ERR(lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M0, x0, 0.0, w2), LCL_ERR_INVALID_ARGUMENT, "another context");
    if (lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M0, x0, 0.0, y0) != LCL_OK) { fprintf(stderr, "  shared: device 0's product: %s\n", lcl_last_error(ctx)); bad++; }
#undef SP_ERR
    /* the cache: device 1 builds sparse.cl and stores it, device 0 loads it (the pthread devices
       share a key; with one queue a device, PoCL 4 and 5's default, each its own), a new context
       loads both */
    snprintf(dir, sizeof dir, "build/test-shared-cache-%d", (int)getpid());
    for (r = 0; r < 2; r++) {
        if (!(cc = lt_context(LCL_BACKEND_OPENCL, "Portable Computing Language", dir, NULL, 0)) || cc->ndev != 2 || cc->dev[0].cl != cc->dev[1].cl) {
            bad++;
            lcl_context_destroy(cc);
            break;
        }
        bad += sp_check(cc, &A, &csr, LCL_F32, 1, 0, LCL_NO_TRANS) + sp_check(cc, &A, &csr, LCL_F32, 0, 0, LCL_NO_TRANS);
        lcl_context_cache_stats(cc, &cs);
        fprintf(stderr, "  shared context, cache run %d: %d stored, %d hits, %d misses, %d rejected\n", r, cs.stores, cs.hits, cs.misses, cs.rejected);
        if (cs.rejected || (r == 0 && (cs.stores < 1 || cs.stores != cs.misses || cs.hits < (cc->dev[0].tune.pocl_one_queue ? 0 : 1))) ||
            (r == 1 && (cs.misses || cs.hits < 2)))
            bad++;
        lcl_context_destroy(cc);
    }
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "  (could not remove %s)\n", dir);
    /* the second device's reference to the shared cl_context, or the context itself, failing */
    for (r = 0; r < 2; r++) {
        const char *fn = r ? "clCreateContext" : "clRetainContext";
        long base = lt_alloc_outstanding();
        lcl_context_desc dd = {LCL_BACKEND_OPENCL, "Portable Computing Language", NULL, NULL, NULL, NULL, 1, 0, 1};
        lcl_status st;
        cc = NULL;
        if (!lt_cl_fail(fn, 1, -6)) { bad++; continue; }
        st = lcl_context_create(&dd, &cc);
        lt_cl_reset();
        if (st != LCL_ERR_OPENCL || !strstr(lcl_last_error(cc), fn)) { fprintf(stderr, "  %s failing: %s: %s\n", fn, lcl_status_string(st), lcl_last_error(cc)); bad++; }
        lcl_context_destroy(cc);
        if (lt_alloc_outstanding() != base) { fprintf(stderr, "  %s failing: %ld blocks leaked\n", fn, lt_alloc_outstanding() - base); bad++; }
    }
out:
    lcl_vec_free(x0); lcl_vec_free(y0); lcl_vec_free(x1); lcl_vec_free(xs); lcl_vec_free(ys); lcl_vec_free(x2); lcl_vec_free(w2);
    lcl_spmat_free(M1); lcl_spmat_free(MS); lcl_spmat_free(M2); lcl_spmat_free(M0);
    lcl_context_destroy(ctx2);
    sp_csr_free(&A);
    return bad;
}

/* child (POCL_DEVICES="pthread pthread"): the resident split (lcl_vec_create_like): every format
   (auto included) on Poisson, heavy-tailed, random-with-empty-rows matrices and n = 1, 2, 17,
   against the serial product; the halo's size; dot and axpby part by part; a few CG steps on the
   devices against the same steps on the host; the errors */
static int lt_child_halo(void) {
    lcl_context *ctx = lt_ocl("Portable Computing Language");
    static const struct sp_case cases[] = {{LCL_FMT_AUTO, LCL_KERNEL_AUTO, "auto"}, {LCL_FMT_CSR, LCL_KERNEL_SCALAR, "csr-scalar"},
        {LCL_FMT_CSR, LCL_KERNEL_VECTOR, "csr-vector"}, {LCL_FMT_CSR, LCL_KERNEL_MERGE, "csr-merge"}, {LCL_FMT_CSC, LCL_KERNEL_AUTO, "csc"},
        {LCL_FMT_COO, LCL_KERNEL_AUTO, "coo"}, {LCL_FMT_ELL, LCL_KERNEL_AUTO, "ell"}, {LCL_FMT_ELL, LCL_KERNEL_IMAGE, "ell-image"},
        {LCL_FMT_SELL, LCL_KERNEL_AUTO, "sell"}, {LCL_FMT_HYB, LCL_KERNEL_AUTO, "hyb"}, {LCL_FMT_DIA, LCL_KERNEL_AUTO, "dia"},
        {LCL_FMT_BCSR, LCL_KERNEL_AUTO, "bcsr"}, {LCL_FMT_DENSE, LCL_KERNEL_AUTO, "dense"}};
    static const struct sp_shape shapes[] = {{1024, 1024, -1}, {1000, 1000, 0}, {61, 61, 4}, {1, 1, 1}, {2, 2, 0}, {17, 17, 0}, {17, 17, 4}};
    int bad = 0, s, c, t;
    if (!sp_two_devices(ctx)) return 1;
    if ((ctx->dev[0].cl == ctx->dev[1].cl) != lt_shared_env()) {
        fprintf(stderr, "  LCL_SHARED_CONTEXT=%d, but the devices %s a cl_context\n", lt_shared_env(), lt_shared_env() ? "do not share" : "share");
        bad++;
    }
    if (lt_shared_env()) bad += sp_shared_checks(ctx);
    {   /* one queue where LCL_POCL_ONE_QUEUE=1 says so, or unset on PoCL 4 and 5 (their default) */
        const char *e = getenv("LCL_POCL_ONE_QUEUE");
        int i;
        for (i = 0; i < 2; i++) {
            const char *drv = ctx->dev[i].info.driver;
            int one = e ? atoi(e) == 1 : lcl__pocl_one_queue(ctx->dev[i].info.platform, drv);   /* its strings: test_pocl_one_queue_versions */
            if ((ctx->dev[i].queue[0] == ctx->dev[i].queue[1]) != one || !!ctx->dev[i].tune.pocl_one_queue != one) {
                fprintf(stderr, "  LCL_POCL_ONE_QUEUE=%s, PoCL %s, but device %d has %s\n", e ? e : "(unset)", drv, i, one ? "two queues" : "one queue");
                bad++;
            }
        }
    }
    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) {
        lcl_csr A;
        if (shapes[s].kind < 0) sp_poisson(&A, 32);
        else sp_gen(&A, shapes[s].rows, shapes[s].cols, shapes[s].kind);
        for (t = 0; t < 2; t++)
            for (c = 0; c < (int)(sizeof cases / sizeof cases[0]); c++) {
                int b = sp_check(ctx, &A, &cases[c], t ? LCL_F32 : LCL_F64, -1, 2, LCL_NO_TRANS);
                if (b) fprintf(stderr, "  resident: %s %s on %lldx%lld failed\n", cases[c].name, t ? "f32" : "f64", (long long)A.rows, (long long)A.cols);
                bad += b;
            }
        {   /* white box: two parts on two devices, the halo as lcl_rowpart plans it */
            lcl_spmat *M = NULL;
            lcl_vec *x = NULL;
            lcl_spmat_info inf;
            if (sp_make(ctx, &A, LCL_F64, LCL_FMT_AUTO, LCL_KERNEL_AUTO, -1, &M) == LCL_OK && lcl_vec_create_like(ctx, M, NULL, &x) == LCL_OK &&
                lcl_spmat_describe(M, &inf) == LCL_OK) {
                int want = A.rows > 1 ? 2 : 0;
                int64_t h = 0;
                int p;
                if (M->halo) for (p = 0; p < M->halo->nparts; p++) h += M->halo->p[p].nsend;
                if ((M->halo ? M->halo->nparts : 0) != want || x->nparts != want || inf.halo != h || (A.rows == 1024 && h != 64)) {
                    fprintf(stderr, "  %lldx%lld: %d part(s), vector %d, halo %lld (sent %lld)\n", (long long)A.rows, (long long)A.cols,
                            M->halo ? M->halo->nparts : 0, x->nparts, (long long)inf.halo, (long long)h);
                    bad++;
                } else if (M->halo)
                    fprintf(stderr, "  %lldx%lld: parts [%lld,%lld) %s, [%lld,%lld) %s; halo %lld values\n", (long long)A.rows, (long long)A.cols,
                            (long long)M->halo->p[0].r0, (long long)M->halo->p[0].r1, M->halo->p[0].M ? lcl_format_name(M->halo->p[0].M->format) : "-",
                            (long long)M->halo->p[1].r0, (long long)M->halo->p[1].r1, M->halo->p[1].M ? lcl_format_name(M->halo->p[1].M->format) : "-",
                            (long long)inf.halo);
            } else { fprintf(stderr, "  white box: %s\n", lcl_last_error(ctx)); bad++; }
            lcl_vec_free(x);
            lcl_spmat_free(M);
        }
        sp_csr_free(&A);
    }
    bad += sp_halo_ops(ctx);
    lcl_context_destroy(ctx);
    bad += sp_halo_faults();
    return bad ? 1 : 0;
}

/* which PoCL versions get one queue a device (their kernel cache aborts on one kernel in two
   queues at once): 4.x and 5.x only, whatever the packager appends */
static void test_pocl_one_queue_versions(void) {
    static const struct { const char *platform, *driver; int want; } v[] = {
        {"Portable Computing Language", "5.0+debian", 1}, {"Portable Computing Language", "4.0", 1},
        {"Portable Computing Language", "3.1+debian", 0}, {"Portable Computing Language", "6.0+debian", 0},
        {"Portable Computing Language", "50.1", 0}, {"Portable Computing Language", "", 0}, {"NVIDIA CUDA", "5.0", 0}};
    size_t i;
    for (i = 0; i < sizeof v / sizeof v[0]; i++)
        CHECK_MSG(lcl__pocl_one_queue(v[i].platform, v[i].driver) == v[i].want, "%s %s: want %d", v[i].platform, v[i].driver, v[i].want);
}
/* the resident split's child, a cl_context per device, with PoCL's default queues, then with one
   queue a device and a build each (the default on PoCL 4 and 5, whose kernel cache aborts on one kernel in two queues
   at once; never forced off here): the halo's user events then wait in the one queue */
static void test_spmv_opencl_resident(void) {
    char cmd[1200];
    int rc, n = 0, one;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) { lt_skip("no OpenCL device"); return; }
    for (one = 0; one < 2; one++) {
        snprintf(cmd, sizeof cmd, "LCL_SHARED_CONTEXT=0 %sPOCL_DEVICES='pthread pthread' '%s' --child spmvhalo", one ? "LCL_POCL_ONE_QUEUE=1 " : "",
                 lt_self);
        rc = system(cmd);
        CHECK_MSG(rc != -1 && WEXITSTATUS(rc) == 0, "resident two-device child (%s) failed (%d)", one ? "LCL_POCL_ONE_QUEUE=1" : "default queues", rc);
    }
}

/* child (POCL_DEVICES="pthread pthread"): a matrix split over both devices, every format, A x and
   (CSR, CSC) A^T x; CSC's two products split different dimensions */
static int lt_child_spmv(const char *name) {
    lcl_context *ctx = lt_ocl("Portable Computing Language");
    int bad = 0, s, c;
    static const struct sp_shape shapes[] = {{1000, 1000, 0}, {33, 20, 0}, {1, 5, 1}, {0, 3, 0}, {3, 20000, 2}, {61, 45, 4}};
    if (!strcmp(name, "spmvhalo")) { lcl_context_destroy(ctx); return lt_child_halo(); }
    if (!sp_two_devices(ctx)) return 1;
    for (s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) {
        lcl_csr A;
        sp_gen(&A, shapes[s].rows, shapes[s].cols, shapes[s].kind);
        for (c = 0; c < SP_NCASES; c++) {
            int b = sp_check(ctx, &A, &sp_cases[c], LCL_F32, -1, 0, LCL_NO_TRANS), tb = 0;
            if (sp_cases[c].f == LCL_FMT_CSR || sp_cases[c].f == LCL_FMT_CSC) tb = sp_check(ctx, &A, &sp_cases[c], LCL_F32, -1, 0, LCL_TRANS);
            if (b || tb) fprintf(stderr, "  two devices: %s%s on %lldx%lld failed\n", sp_cases[c].name, b ? "" : " A^T x", (long long)A.rows, (long long)A.cols);
            bad += b + tb;
        }
        if (A.rows >= 33) {   /* split across devices: device vectors are refused with the advice */
            lcl_spmat *M = NULL;
            lcl_vec *x = NULL, *y = NULL;
            lcl_status st;
            if (sp_make(ctx, &A, LCL_F32, LCL_FMT_CSR, LCL_KERNEL_AUTO, -1, &M) != LCL_OK || M->nparts != 2) { bad++; fprintf(stderr, "  no 2-part matrix\n"); }
            else if (lcl_vec_create(ctx, LCL_F32, A.cols, NULL, &x) == LCL_OK && lcl_vec_create(ctx, LCL_F32, A.rows, NULL, &y) == LCL_OK) {
                st = lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, M, x, 0.0, y);
                if (st != LCL_ERR_UNSUPPORTED || !strstr(lcl_last_error(ctx), "create x and y with lcl_vec_create_like(A)")) {
                    fprintf(stderr, "  split matrix with device vectors: %s: %s\n", lcl_status_string(st), lcl_last_error(ctx));
                    bad++;
                }
                fprintf(stderr, "  parts: rows [%lld,%lld) on %d, [%lld,%lld) on %d\n", (long long)M->part[0].r0, (long long)M->part[0].r1, M->part[0].dev,
                        (long long)M->part[1].r0, (long long)M->part[1].r1, M->part[1].dev);
            }
            if (M && A.rows == A.cols) {    /* the same rows as lcl_rowpart's (one rule, >>rowpart) */
                int64_t rb[3] = {-1, -1, -1};
                if (lcl_rowpart_bounds(ctx, &A, 2, rb) != LCL_OK || rb[1] != M->part[0].r1 || rb[1] != M->part[1].r0) {
                    fprintf(stderr, "  lcl_rowpart_bounds: [0,%lld) [%lld,%lld), the split's [0,%lld): %s\n", (long long)rb[1], (long long)rb[1],
                            (long long)rb[2], (long long)M->part[0].r1, lcl_last_error(ctx));
                    bad++;
                }
            }
            lcl_vec_free(x); lcl_vec_free(y);
            lcl_spmat_free(M);
            M = NULL;
            /* CSC: A x splits the rows, A^T x the columns, each over both devices */
            if (sp_make(ctx, &A, LCL_F32, LCL_FMT_CSC, LCL_KERNEL_AUTO, -1, &M) == LCL_OK) {
                float *xt = (float *)calloc((size_t)A.rows, sizeof(float)), *yt = (float *)calloc((size_t)A.cols, sizeof(float));
                if (lcl_spmv(ctx, LCL_TRANS, 1.0, M, xt, 0.0, yt) != LCL_OK || M->nparts != 2 || !M->tr || M->tr->nparts != 2 ||
                    M->tr->part[1].r1 != A.cols || M->part[1].r1 != A.rows) {
                    fprintf(stderr, "  csc over two devices: %d part(s), A^T %d part(s): %s\n", M->nparts, M->tr ? M->tr->nparts : 0, lcl_last_error(ctx));
                    bad++;
                } else
                    fprintf(stderr, "  csc parts: rows [0,%lld) [%lld,%lld), A^T columns [0,%lld) [%lld,%lld)\n", (long long)M->part[0].r1,
                            (long long)M->part[1].r0, (long long)M->part[1].r1, (long long)M->tr->part[0].r1, (long long)M->tr->part[1].r0,
                            (long long)M->tr->part[1].r1);
                free(xt);
                free(yt);
            } else bad++;
            lcl_spmat_free(M);
        }
        /* a matrix on the second device alone */
        if (A.rows >= 33) {
            static const struct sp_case cc[] = {{LCL_FMT_ELL, LCL_KERNEL_AUTO, "ell"}, {LCL_FMT_CSC, LCL_KERNEL_AUTO, "csc"}};
            bad += sp_check(ctx, &A, &cc[0], LCL_F32, 1, 0, LCL_NO_TRANS);
            bad += sp_check(ctx, &A, &cc[1], LCL_F32, 1, 0, LCL_NO_TRANS) + sp_check(ctx, &A, &cc[1], LCL_F32, 1, 0, LCL_TRANS);
        }
        sp_csr_free(&A);
    }
    lcl_context_destroy(ctx);
    return bad ? 1 : 0;
}

static void test_spmv_opencl_two_devices(void) {
    char cmd[1200];
    int rc;
    int n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) { lt_skip("no OpenCL device"); return; }
    snprintf(cmd, sizeof cmd, "LCL_SHARED_CONTEXT=0 POCL_DEVICES='pthread pthread' '%s' --child spmv2dev", lt_self);
    rc = system(cmd);
    CHECK_MSG(rc != -1 && WEXITSTATUS(rc) == 0, "two-device child failed (%d)", rc);
}

/* both two-device children with one cl_context for the two devices (the default; the tests above:
   a context per device) */
static void test_spmv_opencl_shared(void) {
    static const char *const kids[] = {"spmvhalo", "spmv2dev"};
    char cmd[1200];
    int rc, n = 0, k;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) { lt_skip("no OpenCL device"); return; }
    for (k = 0; k < 3; k++) {   /* the third: spmvhalo with one queue a device (a build each, two cache keys) */
        snprintf(cmd, sizeof cmd, "LCL_SHARED_CONTEXT=1 %sPOCL_DEVICES='pthread pthread' '%s' --child %s", k == 2 ? "LCL_POCL_ONE_QUEUE=1 " : "",
                 lt_self, kids[k % 2]);
        rc = system(cmd);
        CHECK_MSG(rc != -1 && WEXITSTATUS(rc) == 0, "%s child with a shared context%s failed (%d)", kids[k % 2], k == 2 ? " and one queue" : "", rc);
    }
}

void lt_suite_spmv_opencl(void) {
    LT_RUN(test_spmv_opencl_formats);
    LT_RUN(test_spmv_opencl_merge_unrolled);
    LT_RUN(test_spmv_opencl_xparts);
    LT_RUN(test_spmv_opencl_kernels);
    LT_RUN(test_spmv_opencl_vec);
    LT_RUN(test_spmv_opencl_csc);
    LT_RUN(test_spmv_opencl_faults);
    LT_RUN(test_spmv_opencl_two_devices);
    LT_RUN(test_spmv_opencl_resident);
    LT_RUN(test_pocl_one_queue_versions);
    LT_RUN(test_spmv_opencl_shared);
}
#else
static int lt_child_spmv(const char *name) { (void)name; return 0; }
void lt_suite_spmv_opencl(void) {}
#endif
#endif
