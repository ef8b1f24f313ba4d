/* test_spmv_opencl.c -- OpenCL SpMV (>>spmv-opencl, kernels/sparse.cl): every format and kernel,
   double and float, against a double-precision host product; device vectors, two devices, faults.

   This file is compiled inside tests/run_tests.c (#included after the implementation) so that it
   sees struct lcl_spmat and the OpenCL table the fault hooks swap; compiled alone (the Makefile
   lists every tests/test_*.c) it is empty.

   Until lcl_spmat_create lands (the conversion branch), matrices are built here by hand following
   the storage conventions of >>formats: sp_make / sp_free / sp_mv / vec_make are the only places
   to switch to lcl_spmat_create / lcl_spmat_free / lcl_spmv / lcl_vec_create after the merge. */
#ifndef LINALG_CL_IMPLEMENTATION_INCLUDED
typedef int lt_spmv_opencl_compiled_in_run_tests;
#else
#include <sys/wait.h>
#ifndef LINALG_CL_NO_OPENCL

static lcl_context *sp_ocl(const char *device) {
    lcl_context_desc d;
    lcl_context *c = NULL;
    int n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) return NULL;
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_OPENCL;
    d.device = device;
    d.ignore_env = device != NULL;
    d.cache_dir = getenv("LT_CACHE");
    if (lcl_context_create(&d, &c) != LCL_OK) {
        fprintf(stderr, "  %s\n", lcl_last_error(c));
        lcl_context_destroy(c);
        return NULL;
    }
    return c;
}

static uint64_t sp_rng = 42;
static double sp_rand(void) {  /* uniform in [-1, 1) */
    sp_rng ^= sp_rng << 13; sp_rng ^= sp_rng >> 7; sp_rng ^= sp_rng << 17;
    return (double)(sp_rng >> 11) / 9007199254740992.0 * 2 - 1;
}

/* canonical host CSR (double values) of the test matrices:
   kind 0 random with heavy-tailed rows (empty rows, a few rows of every column), kind 1 dense,
   kind 2 a long row (split by the adaptive kernel) among short ones, kind 3 banded */
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
        else len = i % 97 == 3 ? cols : i % 7 == 0 ? 0 : (int64_t)(u * u * u * 40);   /* cubed: heavy tail */
        if (len > cols) len = cols;
        memset(mark, 0, msz);
        if (kind == 3) { for (j = i - 2; j <= i + 3; j++) if (j >= 0 && j < cols) mark[j] = 1; }
        else if (len == cols) memset(mark, 1, msz - 1);
        else { int64_t t; for (t = 0; t < len; t++) mark[(int64_t)((sp_rand() + 1) / 2 * (double)cols) % cols] = 1; }
        for (j = 0; j < cols; j++) {
            if (!mark[j]) continue;
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
static double sp_v(const lcl_csr *A, int64_t k) { return ((const double *)A->val)[k]; }

/* ---- the test-only builder: lcl_spmat host arrays by hand (conventions of >>formats) ---- */
static void *sp_vals(lcl_dtype dt, int64_t n) { return calloc((size_t)(n > 0 ? n : 1), dt == LCL_F32 ? sizeof(float) : sizeof(double)); }
static void sp_set(void *v, lcl_dtype dt, int64_t k, double x) { if (dt == LCL_F32) ((float *)v)[k] = (float)x; else ((double *)v)[k] = x; }
static int32_t *sp_ints(int64_t n, int32_t fill) {
    int32_t *p = (int32_t *)malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
    int64_t i;
    for (i = 0; i < n; i++) p[i] = fill;
    return p;
}
static int64_t sp_len(const lcl_csr *A, int64_t i) { return A->ptr[i + 1] - A->ptr[i]; }

static lcl_spmat *sp_build(const lcl_csr *A, lcl_dtype dt, lcl_format fmt, lcl_spmv_kernel kern, int device) {
    lcl_spmat *M = (lcl_spmat *)calloc(1, sizeof *M);
    int64_t i, k, j, rows = A->rows, cols = A->cols, maxlen = 0;
    M->format = fmt; M->kernel = kern; M->dtype = dt; M->backend = LCL_BACKEND_OPENCL;
    M->rows = rows; M->cols = cols; M->nnz = A->nnz;
    M->opts.format = fmt; M->opts.kernel = kern; M->opts.device = device;
    for (i = 0; i < rows; i++) if (sp_len(A, i) > maxlen) maxlen = sp_len(A, i);
    M->ld = (rows + 31) / 32 * 32;
    switch (fmt) {
    case LCL_FMT_CSR: case LCL_FMT_COO:
        M->ptr = (int64_t *)malloc(((size_t)rows + 1) * sizeof(int64_t));
        memcpy(M->ptr, A->ptr, ((size_t)rows + 1) * sizeof(int64_t));
        M->idx = sp_ints(A->nnz, 0);
        M->val = sp_vals(dt, A->nnz);
        for (k = 0; k < A->nnz; k++) { M->idx[k] = A->col[k]; sp_set(M->val, dt, k, sp_v(A, k)); }
        if (fmt == LCL_FMT_COO) {
            M->row = sp_ints(A->nnz, 0);
            for (i = 0; i < rows; i++) for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) M->row[k] = (int32_t)i;
            free(M->ptr);
            M->ptr = NULL;
        }
        M->stored = A->nnz;
        break;
    case LCL_FMT_ELL: case LCL_FMT_HYB: {
        int64_t w = fmt == LCL_FMT_ELL ? maxlen : (maxlen < 3 ? maxlen : 3), nc = 0;
        M->width = (int32_t)w;
        M->idx = sp_ints(w * M->ld, -1);
        M->val = sp_vals(dt, w * M->ld);
        M->crow = sp_ints(A->nnz, 0); M->ccol = sp_ints(A->nnz, 0); M->cval = sp_vals(dt, A->nnz);
        for (i = 0; i < rows; i++)
            for (k = A->ptr[i], j = 0; k < A->ptr[i + 1]; k++, j++) {
                if (j < w) { M->idx[j * M->ld + i] = A->col[k]; sp_set(M->val, dt, j * M->ld + i, sp_v(A, k)); }
                else { M->crow[nc] = (int32_t)i; M->ccol[nc] = A->col[k]; sp_set(M->cval, dt, nc, sp_v(A, k)); nc++; }
            }
        M->ncoo = nc;
        M->stored = w * M->ld + nc;
        break;
    }
    case LCL_FMT_SELL: {
        int32_t C = 8, sigma = 16, s;
        int64_t ns = (rows + C - 1) / C, p;
        M->C = C; M->sigma = sigma; M->nslices = (int32_t)ns;
        M->perm = sp_ints(rows, 0);
        for (i = 0; i < rows; i++) M->perm[i] = (int32_t)i;
        for (p = 0; p < rows; p += sigma) {   /* sort by length, descending, within each window (stable) */
            int64_t e = p + sigma < rows ? p + sigma : rows, a, b;
            for (a = p + 1; a < e; a++)
                for (b = a; b > p && sp_len(A, M->perm[b - 1]) < sp_len(A, M->perm[b]); b--) { int32_t t = M->perm[b]; M->perm[b] = M->perm[b - 1]; M->perm[b - 1] = t; }
        }
        M->swidth = sp_ints(ns, 0);
        M->ptr = (int64_t *)malloc(((size_t)ns + 1) * sizeof(int64_t));
        M->ptr[0] = 0;
        for (s = 0; s < ns; s++) {
            for (p = (int64_t)s * C; p < (int64_t)(s + 1) * C && p < rows; p++) if (sp_len(A, M->perm[p]) > M->swidth[s]) M->swidth[s] = (int32_t)sp_len(A, M->perm[p]);
            M->ptr[s + 1] = M->ptr[s] + (int64_t)M->swidth[s] * C;
        }
        M->idx = sp_ints(M->ptr[ns], -1);
        M->val = sp_vals(dt, M->ptr[ns]);
        for (p = 0; p < rows; p++) {
            int64_t r = M->perm[p], sl = p / C, lane = p % C;
            for (k = A->ptr[r], j = 0; k < A->ptr[r + 1]; k++, j++) {
                M->idx[M->ptr[sl] + j * C + lane] = A->col[k];
                sp_set(M->val, dt, M->ptr[sl] + j * C + lane, sp_v(A, k));
            }
        }
        M->stored = M->ptr[ns];
        break;
    }
    case LCL_FMT_DIA: {
        char *has = (char *)calloc((size_t)(rows + cols + 1), 1);
        int32_t *where = sp_ints(rows + cols + 1, -1);
        int32_t nd = 0;
        for (i = 0; i < rows; i++) for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) has[A->col[k] - i + rows] = 1;
        M->off = sp_ints(rows + cols + 1, 0);
        for (j = 0; j < rows + cols + 1; j++) if (has[j]) { where[j] = nd; M->off[nd++] = (int32_t)(j - rows); }
        M->ndiag = nd;
        M->val = sp_vals(dt, (int64_t)nd * M->ld);
        for (i = 0; i < rows; i++) for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) sp_set(M->val, dt, where[A->col[k] - i + rows] * M->ld + i, sp_v(A, k));
        M->stored = (int64_t)nd * M->ld;
        free(has); free(where);
        break;
    }
    case LCL_FMT_BCSR: {
        int32_t br = 3, bc = 2;
        int64_t brows = (rows + br - 1) / br, bcols = (cols + bc - 1) / bc, nb = 0, b, cap = 16;
        int32_t *slot = sp_ints(bcols + 1, -1);
        M->br = br; M->bc = bc;
        M->ptr = (int64_t *)malloc(((size_t)brows + 1) * sizeof(int64_t));
        M->idx = sp_ints(cap, 0);
        M->val = sp_vals(dt, cap * br * bc);
        M->ptr[0] = 0;
        for (b = 0; b < brows; b++) {
            int64_t first = nb, c;
            for (c = 0; c <= bcols; c++) slot[c] = -1;
            for (i = b * br; i < (b + 1) * br && i < rows; i++) for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) slot[A->col[k] / bc] = 1;
            for (c = 0; c < bcols; c++)
                if (slot[c] >= 0) {
                    if (nb == cap) {
                        cap *= 2;
                        M->idx = (int32_t *)realloc(M->idx, (size_t)cap * sizeof(int32_t));
                        M->val = realloc(M->val, (size_t)(cap * br * bc) * (dt == LCL_F32 ? sizeof(float) : sizeof(double)));
                    }
                    for (j = 0; j < br * bc; j++) sp_set(M->val, dt, nb * br * bc + j, 0);
                    slot[c] = (int32_t)nb;
                    M->idx[nb++] = (int32_t)c;
                }
            for (i = b * br; i < (b + 1) * br && i < rows; i++)
                for (k = A->ptr[i]; k < A->ptr[i + 1]; k++)
                    sp_set(M->val, dt, slot[A->col[k] / bc] * br * bc + (i - b * br) * bc + A->col[k] % bc, sp_v(A, k));
            (void)first;
            M->ptr[b + 1] = nb;
        }
        M->stored = nb * br * bc;
        free(slot);
        break;
    }
    case LCL_FMT_DENSE:
        M->val = sp_vals(dt, rows * cols);
        for (i = 0; i < rows; i++) for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) sp_set(M->val, dt, i * cols + A->col[k], sp_v(A, k));
        M->stored = rows * cols;
        break;
    default: break;
    }
    return M;
}
static void sp_free(lcl_spmat *M) {
    if (!M) return;
    lcl__spmat_release(M);
    free(M->ptr); free(M->idx); free(M->val); free(M->row); free(M->crow); free(M->ccol); free(M->cval);
    free(M->perm); free(M->swidth); free(M->off);
    free(M);
}
/* after the merge: lcl_spmat_create(ctx, A, &opts, &M) with opts {fmt, kern, device} */
static lcl_status sp_make(lcl_context *ctx, const lcl_csr *A, lcl_dtype dt, lcl_format fmt, lcl_spmv_kernel kern, int device, lcl_spmat **out) {
    lcl_spmat *M = sp_build(A, dt, fmt, kern, device);
    lcl_status st = lcl__spmat_upload(ctx, M);
    if (st != LCL_OK) { sp_free(M); M = NULL; }
    *out = M;
    return st;
}
/* after the merge: lcl_spmv(ctx, LCL_NO_TRANS, alpha, M, x, beta, y) */
static lcl_status sp_mv(lcl_context *ctx, double alpha, lcl_spmat *M, const void *x, double beta, void *y) {
    return lcl__spmv_cl(ctx, alpha, M, x, beta, y);
}
/* after the merge: lcl_vec_create / lcl_vec_free / lcl_spmv_vec */
static lcl_status vec_make(lcl_context *ctx, lcl_dtype dt, int64_t n, const void *init, lcl_vec **out) {
    lcl_vec *v = (lcl_vec *)calloc(1, sizeof *v);
    lcl_status st;
    v->dtype = dt;
    v->n = n;
    st = lcl__vec_cl_create(ctx, v, init);
    if (st != LCL_OK) { free(v); v = NULL; }
    *out = v;
    return st;
}
static void vec_free(lcl_vec *v) { if (v) { lcl__vec_cl_free(v); free(v); } }

/* y = alpha*A*x + beta*y in double from the values as stored in dt; bound[i] = sum |a||x| + |beta y| */
static void sp_ref(const lcl_csr *A, lcl_dtype dt, double alpha, const double *x, double beta, const double *y0, double *y, double *bound) {
    int64_t i, k;
    for (i = 0; i < A->rows; i++) {
        double s = 0, b = 0;
        for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) {
            double a = dt == LCL_F32 ? (double)(float)sp_v(A, k) : sp_v(A, k), xv = x[A->col[k]];
            s += a * xv;
            b += fabs(a * xv);
        }
        y[i] = alpha * s + (beta != 0 ? beta * y0[i] : 0);
        bound[i] = fabs(alpha) * b + fabs(beta * y0[i]) + 1e-300;
    }
}

static const struct sp_case { lcl_format f; lcl_spmv_kernel k; const char *name; } sp_cases[] = {
    {LCL_FMT_CSR, LCL_KERNEL_SCALAR, "csr-scalar"}, {LCL_FMT_CSR, LCL_KERNEL_VECTOR, "csr-vector"},
    {LCL_FMT_CSR, LCL_KERNEL_MERGE, "csr-merge"}, {LCL_FMT_CSR, LCL_KERNEL_AUTO, "csr-auto"},
    {LCL_FMT_COO, LCL_KERNEL_AUTO, "coo"}, {LCL_FMT_ELL, LCL_KERNEL_AUTO, "ell"}, {LCL_FMT_ELL, LCL_KERNEL_IMAGE, "ell-image"},
    {LCL_FMT_SELL, LCL_KERNEL_AUTO, "sell"}, {LCL_FMT_HYB, LCL_KERNEL_AUTO, "hyb"}, {LCL_FMT_DIA, LCL_KERNEL_AUTO, "dia"},
    {LCL_FMT_BCSR, LCL_KERNEL_AUTO, "bcsr"}, {LCL_FMT_DENSE, LCL_KERNEL_AUTO, "dense"}};
#define SP_NCASES (int)(sizeof sp_cases / sizeof sp_cases[0])

/* one format x dtype on A: host arrays (beta 0 with NaN in y, then beta != 0) and device vectors;
   returns the number of failed checks */
static int sp_check(lcl_context *ctx, const lcl_csr *A, const struct sp_case *c, lcl_dtype dt, int device, int vecs) {
    int64_t n = A->rows, m = A->cols, i;
    size_t es = dt == LCL_F32 ? sizeof(float) : sizeof(double);
    double *x = (double *)malloc((size_t)(m + 1) * sizeof(double)), *y0 = (double *)malloc((size_t)(n + 1) * sizeof(double));
    double *ref = (double *)malloc((size_t)(n + 1) * sizeof(double)), *bound = (double *)malloc((size_t)(n + 1) * sizeof(double));
    void *xd = malloc((size_t)(m + 1) * es), *yd = malloc((size_t)(n + 1) * es);
    double tol = dt == LCL_F32 ? 2e-6 * 64 : 1e-14 * 64;
    int bad = 0, pass;
    lcl_spmat *M = NULL;
    lcl_status st = sp_make(ctx, A, dt, c->f, c->k, device, &M);
    if (st != LCL_OK) {
        fprintf(stderr, "  %s %s %lldx%lld: upload -> %s: %s\n", c->name, dt == LCL_F32 ? "f32" : "f64", (long long)n, (long long)m,
                lcl_status_string(st), lcl_last_error(ctx));
        bad++;
        goto out;
    }
    for (i = 0; i < m; i++) { x[i] = sp_rand(); if (dt == LCL_F32) x[i] = (double)(float)x[i]; sp_set(xd, dt, i, x[i]); }
    for (i = 0; i < n; i++) { y0[i] = sp_rand(); if (dt == LCL_F32) y0[i] = (double)(float)y0[i]; }
    for (pass = 0; pass < (vecs ? 4 : 2); pass++) {
        double alpha = pass & 1 ? -0.75 : 1.0, beta = pass & 1 ? 2.0 : 0.0;
        int64_t worst = -1;
        double werr = 0;
        for (i = 0; i < n; i++) sp_set(yd, dt, i, beta == 0 ? NAN : y0[i]);
        sp_ref(A, dt, alpha, x, beta, y0, ref, bound);
        if (pass < 2) st = sp_mv(ctx, alpha, M, xd, beta, yd);
        else {
            lcl_vec *xv = NULL, *yv = NULL;
            st = vec_make(ctx, dt, m, xd, &xv);
            if (st == LCL_OK) st = vec_make(ctx, dt, n, yd, &yv);
            if (st == LCL_OK) st = lcl__spmv_cl_vec(ctx, alpha, M, xv, beta, yv);
            if (st == LCL_OK) st = lcl__vec_cl_read(ctx, yv, yd);
            vec_free(xv);
            vec_free(yv);
        }
        if (st != LCL_OK) {
            fprintf(stderr, "  %s %s %lldx%lld pass %d: %s: %s\n", c->name, dt == LCL_F32 ? "f32" : "f64", (long long)n, (long long)m, pass,
                    lcl_status_string(st), lcl_last_error(ctx));
            bad++;
            continue;
        }
        for (i = 0; i < n; i++) {
            double got = dt == LCL_F32 ? (double)((float *)yd)[i] : ((double *)yd)[i], err = fabs(got - ref[i]) / bound[i];
            if (!(err <= tol)) { if (worst < 0 || !(err <= werr)) { worst = i; werr = err; } }
        }
        if (worst >= 0) {
            double got = dt == LCL_F32 ? (double)((float *)yd)[worst] : ((double *)yd)[worst];
            fprintf(stderr, "  %s %s %lldx%lld pass %d: y[%lld] = %.17g, want %.17g (rel err %.3g, row length %lld)\n", c->name,
                    dt == LCL_F32 ? "f32" : "f64", (long long)n, (long long)m, pass, (long long)worst, got, ref[worst], werr,
                    (long long)sp_len(A, worst));
            bad++;
        }
    }
out:
    sp_free(M);
    free(x); free(y0); free(ref); free(bound); free(xd); free(yd);
    return bad;
}

static const struct sp_shape { int64_t rows, cols; int kind; } sp_shapes[] = {
    {0, 0, 0}, {0, 5, 0}, {4, 0, 0}, {1, 1, 1}, {1, 33, 1}, {2, 2, 0}, {17, 17, 0}, {17, 17, 1}, {33, 20, 0}, {20, 33, 3},
    {1000, 1000, 0}, {300, 300, 3}, {3, 20000, 2}};
#define SP_NSHAPES (int)(sizeof sp_shapes / sizeof sp_shapes[0])

static void test_spmv_opencl_formats(void) {
    lcl_context *ctx = sp_ocl(NULL);
    int s, c, t;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    for (t = 0; t < 2; t++) {
        lcl_dtype dt = t ? LCL_F32 : LCL_F64;
        if (dt == LCL_F64 && !ctx->dev[0].info.fp64) continue;
        for (s = 0; s < SP_NSHAPES; s++) {
            lcl_csr A;
            sp_gen(&A, sp_shapes[s].rows, sp_shapes[s].cols, sp_shapes[s].kind);
            for (c = 0; c < SP_NCASES; c++) {
                int bad = sp_check(ctx, &A, &sp_cases[c], dt, 0, 1);
                CHECK_MSG(bad == 0, "%s %s on %lldx%lld (kind %d, nnz %lld)", sp_cases[c].name, t ? "f32" : "f64", (long long)A.rows,
                          (long long)A.cols, sp_shapes[s].kind, (long long)A.nnz);
            }
            sp_csr_free(&A);
        }
    }
    lcl_context_destroy(ctx);
}

/* the kernel choice: CPU devices run scalar for auto, and every V of the vector kernel is right */
static void test_spmv_opencl_kernels(void) {
    lcl_context *ctx = sp_ocl(NULL);
    static const int64_t widths[] = {2, 4, 9, 17, 40};
    int w;
    lcl_csr A;
    lcl_spmat *M = NULL;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    /* the documented rule: short rows (a band of 6) run scalar everywhere; rows of 50 run vector
       on GPUs and scalar on CPU devices */
    sp_gen(&A, 50, 50, 3);
    CHECK_OK(ctx, sp_make(ctx, &A, LCL_F32, LCL_FMT_CSR, LCL_KERNEL_AUTO, 0, &M));
    if (M) CHECK(M->kernel == LCL_KERNEL_SCALAR && M->kernel == M->part[0].kernel);
    sp_free(M);
    M = NULL;
    sp_csr_free(&A);
    sp_gen(&A, 50, 50, 1);
    CHECK_OK(ctx, sp_make(ctx, &A, LCL_F32, LCL_FMT_CSR, LCL_KERNEL_AUTO, 0, &M));
    if (M) CHECK(M->kernel == (ctx->dev[0].info.type == LCL_DEVICE_CPU ? LCL_KERNEL_SCALAR : LCL_KERNEL_VECTOR) && M->kernel == M->part[0].kernel);
    sp_free(M);
    M = NULL;
    sp_csr_free(&A);
    for (w = 0; w < (int)(sizeof widths / sizeof widths[0]); w++) {
        static const struct sp_case vc = {LCL_FMT_CSR, LCL_KERNEL_VECTOR, "csr-vector"};
        sp_gen(&A, 70, widths[w], 1);
        CHECK_OK(ctx, sp_make(ctx, &A, LCL_F32, LCL_FMT_CSR, LCL_KERNEL_VECTOR, 0, &M));
        if (M) fprintf(stderr, "  row length %lld: V = %d\n", (long long)widths[w], M->part[0].V);
        sp_free(M);
        CHECK(sp_check(ctx, &A, &vc, LCL_F32, 0, 0) == 0);
        sp_csr_free(&A);
    }
    lcl_context_destroy(ctx);
}

static void test_spmv_opencl_vec(void) {
    lcl_context *ctx = sp_ocl(NULL);
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
    CHECK_OK(ctx, vec_make(ctx, LCL_F64, 20, xs, &x));
    CHECK_OK(ctx, vec_make(ctx, LCL_F64, 33, NULL, &y));
    CHECK_OK(ctx, vec_make(ctx, LCL_F64, 20, NULL, &y2));
    if (M && x && y && y2) {
        CHECK_OK(ctx, lcl__vec_cl_read(ctx, y, back));
        for (i = 0; i < 33; i++) CHECK(back[i] == 0);
        CHECK_OK(ctx, lcl__vec_cl_write(ctx, y, ys));
        CHECK_OK(ctx, lcl__vec_cl_read(ctx, y, back));
        for (i = 0; i < 33; i++) CHECK(back[i] == ys[i]);
        /* length mismatches: x too short (y2 has 20 = cols but is given as y), swapped */
        CHECK_STATUS(ctx, lcl__spmv_cl_vec(ctx, 1.0, M, x, 0.0, y2), LCL_ERR_DIMENSION);
        CHECK_STATUS(ctx, lcl__spmv_cl_vec(ctx, 1.0, M, y, 0.0, x), LCL_ERR_DIMENSION);
        CHECK(strstr(lcl_last_error(ctx), "33") != NULL);
        CHECK_OK(ctx, lcl__vec_cl_read(ctx, y, back));
        for (i = 0; i < 33; i++) CHECK(back[i] == ys[i]);
    }
    vec_free(x); vec_free(y); vec_free(y2);
    sp_free(M);
    sp_csr_free(&A);
    lcl_context_destroy(ctx);
}

/* OpenCL faults in upload (a buffer) and in the product (a launch): a named error, no host leak,
   and the context works afterwards */
static void test_spmv_opencl_faults(void) {
    lcl_context *ctx = sp_ocl(NULL);
    static const struct sp_case cases[] = {{LCL_FMT_CSR, LCL_KERNEL_MERGE, "csr-merge"}, {LCL_FMT_COO, LCL_KERNEL_AUTO, "coo"},
                                           {LCL_FMT_SELL, LCL_KERNEL_AUTO, "sell"}};
    lcl_csr A;
    double x[100], y[100];
    int c, i;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    sp_gen(&A, 100, 100, 0);
    for (i = 0; i < 100; i++) { x[i] = 1; y[i] = 7; }
    for (c = 0; c < 3; c++) {
        lcl_spmat *M = NULL;
        long base;
        lcl_status st;
        CHECK(sp_check(ctx, &A, &cases[c], LCL_F64, 0, 0) == 0);   /* kernels built before counting */
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
        st = sp_mv(ctx, 1.0, M, x, 1.0, y);
        lt_cl_reset();
        CHECK_MSG(st == LCL_ERR_OPENCL && strstr(lcl_last_error(ctx), "clEnqueueNDRangeKernel") && strstr(lcl_last_error(ctx), "CL_OUT_OF_HOST_MEMORY"),
                  "%s product with a failing launch: %s: %s", cases[c].name, lcl_status_string(st), lcl_last_error(ctx));
        fprintf(stderr, "  %s: %s\n", cases[c].name, lcl_last_error(ctx));
        CHECK_MSG(lt_alloc_outstanding() == base, "%s: failed product leaks %ld block(s)", cases[c].name, lt_alloc_outstanding() - base);
        lcl_clear_error(ctx);
        CHECK(sp_check(ctx, &A, &cases[c], LCL_F64, 0, 0) == 0);   /* the context still works */
        sp_free(M);
    }
    sp_csr_free(&A);
    lcl_context_destroy(ctx);
}

/* child (POCL_DEVICES="pthread pthread"): a matrix split over both devices, every format */
static int lt_child_spmv(const char *name) {
    lcl_context *ctx = sp_ocl("Portable Computing Language");
    int bad = 0, s, c;
    static const struct sp_shape shapes[] = {{1000, 1000, 0}, {33, 20, 0}, {1, 5, 1}, {0, 3, 0}, {3, 20000, 2}};
    (void)name;
    if (!ctx || lcl_context_num_devices(ctx) != 2) {
        fprintf(stderr, "  want 2 devices, the context has %d\n", ctx ? lcl_context_num_devices(ctx) : 0);
        lcl_context_destroy(ctx);
        return 1;
    }
    for (s = 0; s < 5; s++) {
        lcl_csr A;
        sp_gen(&A, shapes[s].rows, shapes[s].cols, shapes[s].kind);
        for (c = 0; c < SP_NCASES; c++) {
            int b = sp_check(ctx, &A, &sp_cases[c], LCL_F32, -1, 0);
            if (b) fprintf(stderr, "  two devices: %s on %lldx%lld failed\n", sp_cases[c].name, (long long)A.rows, (long long)A.cols);
            bad += b;
        }
        if (A.rows >= 33) {   /* split across devices: device vectors are refused with the advice */
            lcl_spmat *M = NULL;
            lcl_vec *x = NULL, *y = NULL;
            lcl_status st;
            if (sp_make(ctx, &A, LCL_F32, LCL_FMT_CSR, LCL_KERNEL_AUTO, -1, &M) != LCL_OK || M->nparts != 2) { bad++; fprintf(stderr, "  no 2-part matrix\n"); }
            else if (vec_make(ctx, LCL_F32, A.cols, NULL, &x) == LCL_OK && vec_make(ctx, LCL_F32, A.rows, NULL, &y) == LCL_OK) {
                st = lcl__spmv_cl_vec(ctx, 1.0, M, x, 0.0, y);
                if (st != LCL_ERR_UNSUPPORTED || !strstr(lcl_last_error(ctx), "use lcl_spmv with host arrays for a matrix split across devices")) {
                    fprintf(stderr, "  split matrix with device vectors: %s: %s\n", lcl_status_string(st), lcl_last_error(ctx));
                    bad++;
                }
                fprintf(stderr, "  parts: rows [%lld,%lld) on %d, [%lld,%lld) on %d\n", (long long)M->part[0].r0, (long long)M->part[0].r1, M->part[0].dev,
                        (long long)M->part[1].r0, (long long)M->part[1].r1, M->part[1].dev);
            }
            vec_free(x); vec_free(y);
            sp_free(M);
        }
        /* a matrix on the second device alone */
        if (A.rows >= 33) {
            static const struct sp_case cc = {LCL_FMT_ELL, LCL_KERNEL_AUTO, "ell"};
            bad += sp_check(ctx, &A, &cc, LCL_F32, 1, 0);
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
    snprintf(cmd, sizeof cmd, "POCL_DEVICES='pthread pthread' '%s' --child spmv2dev", lt_self);
    rc = system(cmd);
    CHECK_MSG(rc != -1 && WEXITSTATUS(rc) == 0, "two-device child failed (%d)", rc);
}

void lt_suite_spmv_opencl(void) {
    LT_RUN(test_spmv_opencl_formats);
    LT_RUN(test_spmv_opencl_kernels);
    LT_RUN(test_spmv_opencl_vec);
    LT_RUN(test_spmv_opencl_faults);
    LT_RUN(test_spmv_opencl_two_devices);
}
#else
static int lt_child_spmv(const char *name) { (void)name; return 0; }
void lt_suite_spmv_opencl(void) {}
#endif
#endif
