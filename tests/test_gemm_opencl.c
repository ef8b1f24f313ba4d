/* test_gemm_opencl.c -- white box: the device GEMM's lower modes alone (lcl__cl_gemm,
   kernels/dense.cl), the tuning of older NVIDIA GPUs, and the factorizations' scratch kept per
   device. The GEMM, on the first OpenCL device: C -= A B^T on and below C's diagonal, nothing above it. lower = 1 is
   the one-device Cholesky's SYRK; lower = D + (bw << 8) is the split Cholesky's update of all of a
   device's round-robin column blocks in one launch (block c's diagonal starts at row c * D * bw).
   Against a host loop in double, on odd sizes (a partial last block, blocks narrower than a tile,
   one row), both precisions.

   Compiled inside tests/run_tests.c (#included after the implementation: it calls the private
   GEMM); compiled alone it is empty. */
#ifndef LINALG_CL_IMPLEMENTATION_INCLUDED
typedef int lt_gemm_opencl_compiled_in_run_tests;
#else
#ifndef LINALG_CL_NO_OPENCL

/* deterministic values in [-0.5, 0.5) */
static double tg_rand(void) {
    static uint64_t x = 0x9E3779B97F4A7C15ull;
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;
    return (double)(x >> 11) / 9007199254740992.0 - 0.5;
}

/* the diagonal row of column j for a lower mode (as gemm_diag in kernels/dense.cl) */
/* A (allocated here): n x n, symmetric with n on the diagonal (spd), or general */
static void tg_fill(lcl_context *ctx, lcl_dense *A, lcl_dtype dt, int64_t n, int spd) {
    int64_t r, q;
    CHECK_OK(ctx, lcl_dense_alloc(ctx, A, dt, LCL_ROW_MAJOR, n, n));
    for (r = 0; r < n; r++)
        for (q = 0; q <= r; q++) {
            double v = tg_rand();
            lcl_dense_set(A, r, q, v);
            lcl_dense_set(A, q, r, spd ? v : tg_rand());
        }
    for (r = 0; spd && r < n; r++) lcl_dense_set(A, r, r, (double)n);
}
/* F (allocated here) = the factors of A on the device: Cholesky (lower) when ipiv is NULL, else
   LU with its pivots; info must be 0 */
static void tg_factor(lcl_context *ctx, const lcl_dense *A, lcl_dense *F, int32_t *ipiv, const lcl_dense_opts *o) {
    lcl_dmat *dA = NULL;
    int64_t info = -1;
    CHECK_OK(ctx, lcl_dense_alloc(ctx, F, A->dtype, LCL_ROW_MAJOR, A->rows, A->cols));
    CHECK_OK(ctx, lcl_dmat_upload(ctx, A, &dA));
    if (!ipiv) CHECK_OK(ctx, lcl_dmat_potrf(ctx, LCL_LOWER, dA, &info, o));
    else CHECK_OK(ctx, lcl_dmat_getrf(ctx, dA, ipiv, &info, o));
    CHECK(info == 0);
    CHECK_OK(ctx, lcl_dmat_download(ctx, dA, F));
    lcl_dmat_free(dA);
}
/* two factors of A against each other: *worst the largest difference (1 where getrf's pivots
   differ), *res the largest |L L^T - A| of the second (potrf; getrf 0) */
static void tg_diff(const lcl_dense *A, const lcl_dense *F0, const lcl_dense *F1, const int32_t *ip0, const int32_t *ip1, double *worst,
                    double *res) {
    int64_t n = A->rows, na = A->cols, nf = F0->cols, r, q, k;
    double *a = lt_dense_rows(A), *f0 = lt_dense_rows(F0), *f1 = lt_dense_rows(F1);
    *worst = *res = 0;
    for (r = 0; r < n; r++)
        for (q = 0; q <= (ip0 ? n - 1 : r); q++) {
            double dd = fabs(f0[r * nf + q] - f1[r * nf + q]), l = 0;
            if (dd > *worst) *worst = dd;
            if (ip0) {
                if (ip0[r] != ip1[r]) *worst = 1;
                continue;
            }
            for (k = 0; k <= q; k++) l += f1[r * nf + k] * f1[q * nf + k];
            if (fabs(l - a[r * na + q]) > *res) *res = fabs(l - a[r * na + q]);
        }
    free(a);
    free(f0);
    free(f1);
}
static int64_t tg_diag(int lower, int64_t j) {
    int64_t bw = lower >> 8;
    return bw ? j + j / bw * ((lower & 255) - 1) * bw : j;
}

/* one case: M x N of C (ld N + 3), K; returns the largest error, relative to max |C| */
static double tg_case(lcl_context *ctx, lcl_dtype dt, int M, int N, int K, int lower, int *untouched) {
    lcl__device *d = &ctx->dev[0];
    size_t es = lcl__dsize(dt);
    int ldc = N + 3, i, j, k;
    double *a = (double *)malloc((size_t)M * K * sizeof(double)), *b = (double *)malloc((size_t)N * K * sizeof(double));
    double *c = (double *)malloc((size_t)M * ldc * sizeof(double)), err = 0, cmax = 0;
    char *ha = (char *)malloc((size_t)M * K * es), *hb = (char *)malloc((size_t)N * K * es), *hc = (char *)malloc((size_t)M * ldc * es);
    cl_mem A = NULL, B = NULL, C = NULL;
    *untouched = 1;
    for (i = 0; i < M * K; i++) a[i] = tg_rand();
    for (i = 0; i < N * K; i++) b[i] = tg_rand();
    for (i = 0; i < M * ldc; i++) c[i] = tg_rand();
    lcl__narrow(dt, a, ha, (size_t)M * K);
    lcl__narrow(dt, b, hb, (size_t)N * K);
    lcl__narrow(dt, c, hc, (size_t)M * ldc);
    lcl__widen(dt, ha, a, (size_t)M * K);   /* the reference sees the values the device sees */
    lcl__widen(dt, hb, b, (size_t)N * K);
    lcl__widen(dt, hc, c, (size_t)M * ldc);
    CHECK_OK(ctx, lcl__buffer(ctx, d, (size_t)M * K * es, CL_MEM_READ_WRITE, &A));
    CHECK_OK(ctx, lcl__buffer(ctx, d, (size_t)N * K * es, CL_MEM_READ_WRITE, &B));
    CHECK_OK(ctx, lcl__buffer(ctx, d, (size_t)M * ldc * es, CL_MEM_READ_WRITE, &C));
    CHECK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], A, CL_TRUE, 0, (size_t)M * K * es, ha, 0, NULL, NULL) == CL_SUCCESS);
    CHECK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], B, CL_TRUE, 0, (size_t)N * K * es, hb, 0, NULL, NULL) == CL_SUCCESS);
    CHECK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], C, CL_TRUE, 0, (size_t)M * ldc * es, hc, 0, NULL, NULL) == CL_SUCCESS);
    CHECK_OK(ctx, lcl__cl_gemm(ctx, d, dt, M, N, K, -1.0, A, 0, K, B, 0, K, 1, 1.0, C, 0, ldc, lower, d->queue[0]));
    CHECK(LCL__CL->clEnqueueReadBuffer(d->queue[0], C, CL_TRUE, 0, (size_t)M * ldc * es, hc, 0, NULL, NULL) == CL_SUCCESS);
    for (i = 0; i < M; i++)
        for (j = 0; j < ldc; j++) {
            double want = c[(size_t)i * ldc + j], got;
            if (j < N && tg_diag(lower, j) <= i)
                for (k = 0; k < K; k++) want -= a[(size_t)i * K + k] * b[(size_t)j * K + k];
            lcl__widen(dt, hc + ((size_t)i * ldc + j) * es, &got, 1);
            if (j < N && tg_diag(lower, j) <= i) {
                if (fabs(got - want) > err) err = fabs(got - want);
                if (fabs(want) > cmax) cmax = fabs(want);
            } else if (got != want) {
                *untouched = 0;
            }
        }
    if (A) LCL__CL->clReleaseMemObject(A);
    if (B) LCL__CL->clReleaseMemObject(B);
    if (C) LCL__CL->clReleaseMemObject(C);
    free(a); free(b); free(c); free(ha); free(hb); free(hc);
    return cmax > 0 ? err / cmax : err;
}

static void test_gemm_opencl_lower(void) {
    /* {D, bw, blocks, last block's width (0: full), K}: rows from the first block's diagonal */
    static const int cases[][5] = {{1, 0, 1, 1, 3}, {1, 0, 1, 37, 5}, {1, 0, 1, 130, 17}, {2, 1, 7, 0, 4}, {2, 5, 4, 3, 9},
                                   {2, 16, 5, 0, 16}, {3, 24, 3, 7, 24}, {2, 64, 4, 17, 33}, {4, 40, 3, 0, 20}, {2, 130, 2, 61, 12}};
    lcl_context *ctx = lt_ocl(NULL);
    int t, p, bad = 0, runs = 0;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    for (p = 0; p < 2; p++) {
        lcl_dtype dt = p ? LCL_F32 : LCL_F64;
        if (dt == LCL_F64 && !ctx->dev[0].info.fp64) continue;
        for (t = 0; t < (int)(sizeof cases / sizeof cases[0]); t++) {
            int D = cases[t][0], bw = cases[t][1], nbk = cases[t][2], last = cases[t][3], K = cases[t][4];
            int N = bw ? (nbk - 1) * bw + (last ? last : bw) : last, lower = bw ? D + (bw << 8) : 1;
            int M = (int)tg_diag(lower, N - 1) + 1 + 3, untouched;   /* three rows below the last diagonal */
            double e = tg_case(ctx, dt, M, N, K, lower, &untouched);
            runs++;
            if (!(e <= (p ? 1e-5 : 1e-13)) || !untouched) {
                bad++;
                fprintf(stderr, "  %s D %d bw %d N %d M %d K %d: error %.2e, above the diagonal %s\n", p ? "single" : "double", D, bw, N, M, K, e,
                        untouched ? "untouched" : "WRITTEN");
            }
        }
    }
    CHECK_MSG(bad == 0, "%d of %d GEMM lower-mode cases wrong", bad, runs);
    lcl_context_destroy(ctx);
}

/* Older NVIDIA GPUs: the tuning of a device whose compute capability lacks FP64 MMA (sm_80) or the
   L2 cache hints turns off what needs them and tells the kernels (LCL_NV_CC, which leaves that
   code out: make check-kernels checks the PTX), so dense.cl and sparse.cl still build there. No
   device needed: a made-up NVIDIA one. */
static void test_gemm_opencl_nv_cc(void) {
    static const int ccs[] = {60, 75, 80, 90, 0};
    lcl_context ctx;
    lcl__device d;
    char opts[1024];
    int i;
    memset(&ctx, 0, sizeof ctx);
    for (i = 0; i < (int)(sizeof ccs / sizeof ccs[0]); i++) {
        int cc = ccs[i], modern = cc == 0 || cc >= 80;
        char want[32];
        memset(&d, 0, sizeof d);
        strcpy(d.info.platform, "NVIDIA CUDA");
        strcpy(d.info.name, "made-up GPU");
        d.info.type = LCL_DEVICE_GPU;
        d.info.fp64 = 1;
        d.info.local_mem = 48 * 1024;
        d.info.compute_units = 40;
        d.info.max_work_group = 1024;
        lcl__tune_device(&d, cc);
        lcl__build_options(&ctx, &d, LCL_F64, opts, sizeof opts);
        snprintf(want, sizeof want, "-DLCL_NV_CC=%d ", cc);
        CHECK_MSG(d.tune.tc == modern && d.tune.spmv_hint == modern && (modern || !d.tune.fused_step), "cc %d: tc %d, hints %d, fused %d", cc,
                  d.tune.tc, d.tune.spmv_hint, d.tune.fused_step);
        CHECK_MSG(cc ? strstr(opts, want) != NULL : strstr(opts, "LCL_NV_CC") == NULL, "cc %d: options '%s'", cc, opts);
        CHECK_MSG((strstr(opts, "SPMV_HINT") != NULL) == modern, "cc %d: options '%s'", cc, opts);
        CHECK_MSG((strstr(opts, "TC_SHAPE=2") != NULL) == (cc >= 90), "cc %d: options '%s'", cc, opts);
        /* the tensor-core GEMM's cp.async pipeline (8.0 on): three stages in 48 KB, two in 40 */
        CHECK_MSG((strstr(opts, "-DTC_STAGES=3") != NULL) == (cc >= 80), "cc %d: options '%s'", cc, opts);
        if (cc == 90) {
            d.info.local_mem = 40 * 1024;
            lcl__tune_device(&d, cc);
            CHECK_MSG(d.tune.tc && d.tune.tc_stages == 2, "cc 90, 40 KB: tc %d, %d stages", d.tune.tc, d.tune.tc_stages);
            d.info.local_mem = 48 * 1024;
            lcl__tune_device(&d, cc);
        }
        /* potrf's POTF2 with the inverse: its warp shuffles need 7.0 (the kernel's PW_NATIVE), and
           48 KB of local memory holds its block without the shuffle slots; double only */
        CHECK_MSG(d.tune.potf2_inv == (cc == 0 || cc >= 70 ? 1 << LCL_F64 : 0), "cc %d: potf2_inv %d", cc, d.tune.potf2_inv);
        /* potrf's trailing update: 40 - 8 groups, and 40 - 10 below order 6144 (NVIDIA) */
        CHECK_MSG(d.tune.chol_upd_groups == 32 && d.tune.chol_upd_groups_small == 30 && d.tune.chol_small_n == 6144, "cc %d: %d, %d below %d", cc,
                  d.tune.chol_upd_groups, d.tune.chol_upd_groups_small, d.tune.chol_small_n);
        /* getrf's: 40 - 10 groups beside the one-launch panel; U12 transposed with the tensor cores */
        CHECK_MSG(d.tune.grid_panel && d.tune.lu_upd_groups == 30 && d.tune.lu_nt == (d.tune.tc ? 1 << LCL_F64 : 0), "cc %d: grid %d, %d groups, nt %d", cc,
                  d.tune.grid_panel, d.tune.lu_upd_groups, d.tune.lu_nt);
        /* the panel's groups a unit holds: three in the data-centre parts' local memory, else two */
        CHECK_MSG(d.tune.grid_per_unit == (cc == 0 || cc == 80 || cc == 90 ? 3 : 2), "cc %d: %d panel groups a unit", cc, d.tune.grid_per_unit);
        /* the dense split's panels in double: 16 steps wide with the tensor-core GEMM, else as on one device */
        CHECK_MSG(d.tune.split_nb == (d.tune.tc ? 16 * d.tune.trsm_nb : 0), "cc %d: split panels %d", cc, d.tune.split_nb);
    }
    /* float's divide and sqrt correctly rounded where the device offers it (no device here: not
       offered), in single-precision programs only */
    CHECK(!d.tune.fp32_exact);
    for (i = 0; i < 4; i++) {
        d.tune.fp32_exact = i >> 1;
        lcl__build_options(&ctx, &d, i & 1 ? LCL_F32 : LCL_F64, opts, sizeof opts);
        CHECK_MSG((strstr(opts, " -cl-fp32-correctly-rounded-divide-sqrt") != NULL) == (i == 3), "fp32_exact %d, %s: options '%s'",
                  i >> 1, i & 1 ? "float" : "double", opts);
    }
}

/* The factorizations' scratch kept per device (lcl__ws_get / lcl__ws_put): the smallest free
   buffer that fits comes back, a full cache hands out uncached buffers, and factorizations through
   it give bit for bit what fresh buffers give (LU and Cholesky, panels of 32 so the look-ahead and
   the pivots' scratch are reused across calls of other sizes). */
static void test_gemm_opencl_scratch(void) {
    static const int sizes[] = {257, 17, 130, 1};
    lcl_context *ctx = lt_ocl(NULL);
    lcl__device *d;
    cl_mem b[LCL__WS + 1], m60, m300;
    int i, s, busy = 0, kept = 0;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    d = &ctx->dev[0];
    CHECK_OK(ctx, lcl__ws_get(ctx, d, 100, &b[0]));
    CHECK_OK(ctx, lcl__ws_get(ctx, d, 50, &b[1]));
    CHECK_OK(ctx, lcl__ws_get(ctx, d, 200, &b[2]));
    CHECK(b[0] != b[1] && b[1] != b[2] && b[0] != b[2]);
    for (i = 0; i < 3; i++) lcl__ws_put(d, b[i]);
    CHECK_OK(ctx, lcl__ws_get(ctx, d, 60, &m60));
    CHECK_MSG(m60 == b[0], "60 bytes: not the free 100-byte buffer");
    CHECK_OK(ctx, lcl__ws_get(ctx, d, 300, &m300));
    CHECK(m300 != b[0] && m300 != b[1] && m300 != b[2]);
    lcl__ws_put(d, m60);
    lcl__ws_put(d, m300);
    /* every slot busy: the next one is uncached, and given back it is released, not kept */
    for (i = 0; i <= LCL__WS; i++) CHECK_OK(ctx, lcl__ws_get(ctx, d, 8, &b[i]));
    for (i = 0; i < LCL__WS; i++) CHECK(d->ws[i].busy && d->ws[i].m != b[LCL__WS]);
    for (i = 0; i <= LCL__WS; i++) lcl__ws_put(d, b[i]);
    for (i = 0; i < LCL__WS; i++) CHECK(!d->ws[i].busy);
    for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
        int n = sizes[s], chol, c;
        for (chol = 0; chol < 2; chol++) {
            lcl_dense A, F[2];
            lcl_dense_opts o;
            int32_t *ipiv = (int32_t *)malloc((size_t)n * sizeof(int32_t)), *ipiv0 = (int32_t *)malloc((size_t)n * sizeof(int32_t));
            int64_t r, q;
            int same = 1;
            memset(&o, 0, sizeof o);
            o.block = 32;
            tg_fill(ctx, &A, LCL_F64, n, chol);
            for (r = 0; !chol && r < n; r++) lcl_dense_set(&A, r, r, 0.25 * tg_rand());
            for (c = 0; c < 2; c++) {   /* c = 0: fresh buffers each call; 1: kept */
                d->tune.ws_cache = c;
                tg_factor(ctx, &A, &F[c], chol ? NULL : c ? ipiv : ipiv0, &o);
            }
            for (r = 0; r < n; r++) {
                if (!chol) same &= ipiv[r] == ipiv0[r];
                for (q = 0; q <= (chol ? r : n - 1); q++) same &= lcl_dense_get(&F[0], r, q) == lcl_dense_get(&F[1], r, q);
            }
            CHECK_MSG(same, "n %d, %s: kept scratch gave other factors than fresh buffers", n, chol ? "potrf" : "getrf");
            lcl_dense_free(&F[0]);
            lcl_dense_free(&F[1]);
            lcl_dense_free(&A);
            free(ipiv);
            free(ipiv0);
        }
    }
    for (i = 0; i < LCL__WS; i++) {
        busy += d->ws[i].busy;
        kept += d->ws[i].m != NULL;
    }
    CHECK_MSG(busy == 0 && kept >= 5, "after the factorizations: %d busy, %d kept", busy, kept);
    lcl_context_destroy(ctx);
}

/* getrf with U12 transposed into scratch (tune.lu_nt: the trailing update as an NT product)
   against the NN update: the same pivots and the same factors to rounding, in both precisions,
   with panels of 32 (the look-ahead columns and the rest both read the transposed rows) */
static void test_gemm_opencl_lu_nt(void) {
    static const int sizes[] = {257, 130, 33, 2, 1};
    lcl_context *ctx = lt_ocl(NULL);
    int s, p;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    for (p = 0; p < 2; p++) {
        lcl_dtype dt = p ? LCL_F32 : LCL_F64;
        if (dt == LCL_F64 && !ctx->dev[0].info.fp64) continue;
        for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++) {
            int n = sizes[s], nt;
            lcl_dense A, F[2];
            lcl_dense_opts o;
            int32_t *ip[2];
            int64_t r, q;
            double worst = 0, scale = 0;
            int samepiv = 1;
            memset(&o, 0, sizeof o);
            o.block = 32;
            CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, dt, LCL_ROW_MAJOR, n, n));
            for (r = 0; r < n; r++)
                for (q = 0; q < n; q++) lcl_dense_set(&A, r, q, tg_rand());
            for (nt = 0; nt < 2; nt++) {
                ip[nt] = (int32_t *)malloc((size_t)n * sizeof(int32_t));
                ctx->dev[0].tune.lu_nt = nt << dt;
                tg_factor(ctx, &A, &F[nt], ip[nt], &o);
            }
            for (r = 0; r < n; r++) {
                samepiv &= ip[0][r] == ip[1][r];
                for (q = 0; q < n; q++) {
                    double a = lcl_dense_get(&F[0], r, q), b = lcl_dense_get(&F[1], r, q);
                    if (fabs(a - b) > worst) worst = fabs(a - b);
                    if (fabs(a) > scale) scale = fabs(a);
                }
            }
            CHECK_MSG(samepiv && worst <= (p ? 1e-4 : 1e-12) * (scale > 1 ? scale : 1), "n %d, %s: pivots %s, factors differ by %.2e",
                      n, p ? "single" : "double", samepiv ? "equal" : "DIFFER", worst);
            lcl_dense_free(&F[0]);
            lcl_dense_free(&F[1]);
            lcl_dense_free(&A);
            free(ip[0]);
            free(ip[1]);
        }
    }
    ctx->dev[0].tune.lu_nt = 0;
    lcl_context_destroy(ctx);
}

/* potrf with a tail (tune.chol_tail): panels of fewer rows than the tail by the one-launch step
   (lcl_potrf_lstep_d), the earlier ones by the three launches, in one factorization, against the
   three launches throughout: the same factor to rounding, and L L^T = A. Panels of 192 and 128
   (three and two 64-wide steps), so the switch falls between panels with steps inside them. The
   one-launch step exists on NVIDIA (sm_80 on) in double; elsewhere both runs take one path. */
static void test_gemm_opencl_chol_tail(void) {
    static const int sizes[] = {600, 449, 257};
    static const int blocks[] = {192, 128};
    lcl_context *ctx = lt_ocl(NULL);
    lcl__tuning keep;
    int s, b, t;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    keep = ctx->dev[0].tune;
    for (s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); s++)
        for (b = 0; b < 2; b++) {
            int n = sizes[s];
            lcl_dense A, F[2];
            lcl_dense_opts o;
            double worst, res;
            memset(&o, 0, sizeof o);
            o.block = blocks[b];
            tg_fill(ctx, &A, LCL_F64, n, 1);
            for (t = 0; t < 2; t++) {   /* t = 1: panels under 300 rows by the one-launch step */
                ctx->dev[0].tune.chol_lstep = 1;   /* never by order, so only the tail takes it */
                ctx->dev[0].tune.chol_tail = t ? 300 : 0;
                tg_factor(ctx, &A, &F[t], NULL, &o);
            }
            tg_diff(&A, &F[0], &F[1], NULL, NULL, &worst, &res);
            CHECK_MSG(worst <= 1e-12 && res <= 1e-12 * n, "n %d, panels of %d: factors differ by %.2e, |L L^T - A| %.2e", n, blocks[b], worst, res);
            lcl_dense_free(&F[0]);
            lcl_dense_free(&F[1]);
            lcl_dense_free(&A);
        }
    ctx->dev[0].tune = keep;
    lcl_context_destroy(ctx);
}

/* potrf's narrow last panels (tune.chol_narrow_n, _nb) against none, in both precisions: the
   same factor to rounding, L L^T = A, and the narrow panels counted: 450 rows in panels of 128,
   64 wide from 200 rows left, are 128, 128, 64, 64, 64 and the last 2 rows (the rest, not counted).
   getrf ignores the setting: its factors are the same to the bit. */
static void test_gemm_opencl_chol_narrow(void) {
    lcl_context *ctx = lt_ocl(NULL);
    lcl__device *d;
    lcl__tuning keep;
    int p, n = 450;
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    d = &ctx->dev[0];
    keep = d->tune;
    for (p = 0; p < 2; p++) {
        lcl_dtype dt = p ? LCL_F32 : LCL_F64;
        double tol = p ? 2e-4 : 1e-12;
        int h, chol;
        if (dt == LCL_F64 && !d->info.fp64) continue;
        for (chol = 0; chol < 2; chol++) {
            lcl_dense A, F[2];
            lcl_dense_opts o;
            int32_t ip[2][450];
            long runs[2];
            double worst, res;
            memset(&o, 0, sizeof o);
            o.block = 128;
            tg_fill(ctx, &A, dt, n, chol);
            for (h = 0; h < 2; h++) {
                long before = d->seen.narrow_panels;
                d->tune.chol_narrow_n = h ? 200 : 0;
                d->tune.chol_narrow_nb = 64;
                tg_factor(ctx, &A, &F[h], chol ? NULL : ip[h], &o);
                runs[h] = d->seen.narrow_panels - before;
            }
            tg_diff(&A, &F[0], &F[1], chol ? NULL : ip[0], chol ? NULL : ip[1], &worst, &res);
            CHECK_MSG((chol ? worst <= tol : worst == 0) && res <= tol * n && runs[0] == 0 && runs[1] == (chol ? 3 : 0),
                      "%s, %s: factors differ by %.2e, |L L^T - A| %.2e, narrow panels %ld / %ld", chol ? "potrf" : "getrf",
                      p ? "single" : "double", worst, res, runs[0], runs[1]);
            lcl_dense_free(&F[0]);
            lcl_dense_free(&F[1]);
            lcl_dense_free(&A);
        }
    }
    d->tune = keep;
    lcl_context_destroy(ctx);
}

/* The tensor-core GEMM (kernels/dense.cl, lcl_gemm_tc_*): on NVIDIA (sm_80 on) the real kernels,
   elsewhere their emulation (TC_EMU: the same staging, swizzles, tile loops and epilogues, each
   MMA a dot product). NVIDIA: every kernel with the cp.async pipeline (TC_STAGES 3, TC_PIPE 7),
   then every kernel with the tiles through registers (0). Emulated, one build (its kernels take
   a minute to prepare on PoCL): the default mix, the GEMMs pipelined and the split along K
   through registers. Every transpose, one row or column, partial tiles, odd and even leading
   dimensions and offsets, groups looping over tiles, both lower modes, N <= 64 (its own
   kernel, also split along K), beta = 0, and the split along K with its counters left at zero
   for the next launch. Against a host loop. */
typedef struct { int M, N, K, trans, lower, groups, ks; double alpha, beta; int narrow; } tg_tc;
static double tg_tc_case(lcl_context *ctx, const tg_tc *c, int *untouched, cl_kernel kks, cl_kernel k64s) {
    lcl__device *d = &ctx->dev[0];
    int M = c->M, N = c->N, K = c->K, ta = c->trans & 2, tb = c->trans & 1, i, k, run;
    int lda = (ta ? M : K) + 1, ldb = (tb ? K : N) + 1, ldc = N + 3, ra = ta ? K : M, rb = tb ? N : K, off = (M + N) & 1 ? 3 : 2;
    size_t na = (size_t)ra * lda + off, nb = (size_t)rb * ldb + off, nc = (size_t)M * ldc + off;
    double *a = (double *)malloc(na * 8), *b = (double *)malloc(nb * 8), *c0 = (double *)malloc(nc * 8), *got = (double *)malloc(nc * 8);
    double err = 0, cmax = 0;
    cl_mem A = NULL, B = NULL, C = NULL, part = NULL, cnt = NULL;
    *untouched = 1;
    for (i = 0; i < (int)na; i++) a[i] = tg_rand();
    for (i = 0; i < (int)nb; i++) b[i] = tg_rand();
    for (i = 0; i < (int)nc; i++) c0[i] = tg_rand();
    CHECK_OK(ctx, lcl__buffer(ctx, d, na * 8, CL_MEM_READ_WRITE, &A));
    CHECK_OK(ctx, lcl__buffer(ctx, d, nb * 8, CL_MEM_READ_WRITE, &B));
    CHECK_OK(ctx, lcl__buffer(ctx, d, nc * 8, CL_MEM_READ_WRITE, &C));
    CHECK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], A, CL_TRUE, 0, na * 8, a, 0, NULL, NULL) == CL_SUCCESS);
    CHECK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], B, CL_TRUE, 0, nb * 8, b, 0, NULL, NULL) == CL_SUCCESS);
    for (run = 0; run < (c->ks > 1 ? 2 : 1); run++) {   /* the split twice: its counters must be back at zero */
        CHECK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], C, CL_TRUE, 0, nc * 8, c0, 0, NULL, NULL) == CL_SUCCESS);
        if (c->ks > 1) {
            int n64 = N <= 64, bm = 32 * d->tune.tc_wm, bn = 64 * (n64 ? 1 : d->tune.tc_wn), tm = (M + bm - 1) / bm, tn = (N + bn - 1) / bn, tiles = 0;
            int kc = 8 * ((K + 8 * c->ks - 1) / (8 * c->ks));
            cl_int zero = 0, e, cM = M, cN = N, cK = K, clda = lda, cldb = ldb, ctr = c->trans, cldc = ldc, clo = c->lower, cks = c->ks, ckc = kc;
            cl_long o = off;
            size_t lw, gw;
            for (i = 0; i < tm; i++) tiles += c->lower ? LCL__MIN(tn, ((i + 1) * bm - 1) / bn + 1) : tn;
            lw = (size_t)(32 * d->tune.tc_wm * (n64 ? 1 : d->tune.tc_wn));
            gw = lw * (size_t)(tiles * c->ks);
            if (n64) kks = k64s;   /* lcl_gemm_tc64_ks_d: one warp along N */
            if (!part) {
                CHECK_OK(ctx, lcl__buffer(ctx, d, (size_t)tiles * c->ks * bm * bn * 8, CL_MEM_READ_WRITE, &part));
                CHECK_OK(ctx, lcl__buffer(ctx, d, (size_t)tiles * sizeof(cl_int), CL_MEM_READ_WRITE, &cnt));
                for (i = 0; i < tiles; i++)
                    CHECK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], cnt, CL_TRUE, (size_t)i * sizeof zero, sizeof zero, &zero, 0, NULL, NULL) == CL_SUCCESS);
            }
            e = lcl__argv(kks, 20, LCL__A(cM), LCL__A(cN), LCL__A(cK), LCL__A(c->alpha), LCL__A(A), LCL__A(o), LCL__A(clda), LCL__A(B), LCL__A(o),
                          LCL__A(cldb), LCL__A(ctr), LCL__A(c->beta), LCL__A(C), LCL__A(o), LCL__A(cldc), LCL__A(clo), LCL__A(cks), LCL__A(ckc),
                          LCL__A(part), LCL__A(cnt));
            CHECK(e == CL_SUCCESS && LCL__CL->clEnqueueNDRangeKernel(d->queue[0], kks, 1, NULL, &gw, &lw, 0, NULL, NULL) == CL_SUCCESS);
        } else {
            CHECK_OK(ctx, lcl__cl_gemm_gw(ctx, d, LCL_F64, M, N, K, c->alpha, A, off, lda, B, off, ldb, c->trans, c->beta, C, off, ldc, c->lower,
                                          d->queue[0], c->groups, c->narrow));
        }
        CHECK(LCL__CL->clEnqueueReadBuffer(d->queue[0], C, CL_TRUE, 0, nc * 8, got, 0, NULL, NULL) == CL_SUCCESS);
    }
    for (i = 0; i < (int)nc; i++) {
        int r = (i - off) / ldc, q = (i - off) % ldc;
        double want = c0[i];
        if (i >= off && q < N && !(c->lower && tg_diag(c->lower, q) > r)) {
            double s = 0;
            for (k = 0; k < K; k++) s += a[off + (ta ? (size_t)k * lda + r : (size_t)r * lda + k)] * b[off + (tb ? (size_t)q * ldb + k : (size_t)k * ldb + q)];
            want = c->alpha * s + c->beta * c0[i];
            if (fabs(got[i] - want) > err) err = fabs(got[i] - want);
            if (fabs(want) > cmax) cmax = fabs(want);
        } else if (got[i] != want) {
            *untouched = 0;
        }
    }
    if (A) LCL__CL->clReleaseMemObject(A);
    if (B) LCL__CL->clReleaseMemObject(B);
    if (C) LCL__CL->clReleaseMemObject(C);
    if (part) LCL__CL->clReleaseMemObject(part);
    if (cnt) LCL__CL->clReleaseMemObject(cnt);
    free(a); free(b); free(c0); free(got);
    return cmax > 0 ? err / cmax : err;
}
/* potrf's step GEMM split along K (tune.chol_step_ks, lcl_gemm_tc64_ks_d) against unsplit: the
   same factor to rounding, L L^T = A, and the split taken. Panels of 384 (steps with K up to
   320) over at most 450 rows, the device counted as 16 units (a count only): the steps of under
   five row tiles split in two or three. */
static void tg_tc_step_ks(lcl_context *ctx) {
    lcl__device *d = &ctx->dev[0];
    lcl__tuning keep = d->tune;
    int cu = d->info.compute_units, n = 450, h;
    lcl_dense A, F[2];
    lcl_dense_opts o;
    long runs[2];
    double worst = 0, res = 0;
    memset(&o, 0, sizeof o);
    o.block = 384;
    d->info.compute_units = 16;
    d->tune.potf2_inv = 1 << LCL_F64;
    d->tune.chol_lstep = d->tune.chol_tail = d->tune.fused_step = 0;
    tg_fill(ctx, &A, LCL_F64, n, 1);
    for (h = 0; h < 2; h++) {
        long before = d->seen.step_splits;
        d->tune.chol_step_ks = h ? 4 : 0;
        tg_factor(ctx, &A, &F[h], NULL, &o);
        runs[h] = d->seen.step_splits - before;
    }
    tg_diff(&A, &F[0], &F[1], NULL, NULL, &worst, &res);
    CHECK_MSG(worst <= 1e-12 && res <= 1e-12 * n && runs[0] == 0 && runs[1] >= 2, "factors differ by %.2e, |L L^T - A| %.2e, splits %ld / %ld",
              worst, res, runs[0], runs[1]);
    lcl_dense_free(&F[0]);
    lcl_dense_free(&F[1]);
    lcl_dense_free(&A);
    d->tune = keep;
    d->info.compute_units = cu;
}
/* The block LU's batched GEMM (lcl_bklu_gemm_tc_d): C = -A B + C for 5 items of 130 x 130 frames
   (4 tiles each, the last ones partial), as many rows of groups as items and 2 rows looping over
   them (the eager queue with compute units left free, tune.bklu_eager_free): each against a host
   loop, and the two the same bits. */
static void tg_tc_bklu(lcl_context *ctx) {
    enum { NI = 5, MB = 130 };
    lcl__device *d = &ctx->dev[0];
    const size_t mm = (size_t)MB * MB, bytes = 3 * NI * mm * 8;
    double *h = (double *)malloc(bytes), *got[2];
    cl_int list[3 * NI], fpa = 3 * NI, m = MB, lo = 0, cnt = NI, e;
    double alpha = -1, keep = 1, err = 0, cmax = 0;
    cl_mem F = NULL, L = NULL;
    cl_kernel k = NULL;
    size_t i, lw = (size_t)(32 * d->tune.tc_wm * d->tune.tc_wn), tiles = ((MB + 32 * d->tune.tc_wm - 1) / (32 * d->tune.tc_wm)) *
                                                                          ((MB + 64 * d->tune.tc_wn - 1) / (64 * d->tune.tc_wn));
    int t, run, r, c, q;
    got[0] = (double *)malloc(bytes);
    got[1] = (double *)malloc(bytes);
    for (i = 0; i < 3 * NI * mm; i++) h[i] = tg_rand();
    for (t = 0; t < NI; t++) list[3 * t] = (t + 2) % NI, list[3 * t + 1] = NI + t, list[3 * t + 2] = 2 * NI + (t * 3) % NI;   /* distinct Cs */
    CHECK_OK(ctx, lcl__kernel_get(ctx, d, LCL_F64, "lcl_bklu_gemm_tc_d", 1, &k));
    CHECK_OK(ctx, lcl__buffer(ctx, d, bytes, CL_MEM_READ_WRITE, &F));
    CHECK_OK(ctx, lcl__buffer(ctx, d, sizeof list, CL_MEM_READ_ONLY, &L));
    if (k && F && L) {
        CHECK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], L, CL_TRUE, 0, sizeof list, list, 0, NULL, NULL) == CL_SUCCESS);
        for (run = 0; run < 2; run++) {
            size_t g[2], l[2];
            g[0] = tiles * lw, g[1] = run ? 2 : NI, l[0] = lw, l[1] = 1;
            CHECK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], F, CL_TRUE, 0, bytes, h, 0, NULL, NULL) == CL_SUCCESS);
            e = lcl__argv(k, 11, LCL__A(F), LCL__A(F), LCL__A(F), LCL__A(F), LCL__A(fpa), LCL__A(m), LCL__A(L), LCL__A(lo), LCL__A(alpha),
                          LCL__A(keep), LCL__A(cnt));
            CHECK(e == CL_SUCCESS && LCL__CL->clEnqueueNDRangeKernel(d->queue[0], k, 2, NULL, g, l, 0, NULL, NULL) == CL_SUCCESS);
            CHECK(LCL__CL->clEnqueueReadBuffer(d->queue[0], F, CL_TRUE, 0, bytes, got[run], 0, NULL, NULL) == CL_SUCCESS);
        }
        for (t = 0; t < NI; t++) {
            const double *a = h + (size_t)list[3 * t] * mm, *b = h + (size_t)list[3 * t + 1] * mm, *c0 = h + (size_t)list[3 * t + 2] * mm;
            const double *g0 = got[0] + (size_t)list[3 * t + 2] * mm;
            for (r = 0; r < MB; r++)
                for (c = 0; c < MB; c++) {
                    double s = 0;
                    for (q = 0; q < MB; q++) s += a[r * MB + q] * b[q * MB + c];
                    s = c0[r * MB + c] - s;
                    err = LCL__MAX(err, fabs(g0[r * MB + c] - s));
                    cmax = LCL__MAX(cmax, fabs(s));
                }
        }
        CHECK_MSG(err <= 1e-13 * cmax && !memcmp(got[0], got[1], bytes), "bklu's batched GEMM: error %.2e of %.2e; looping rows %s", err, cmax,
                  memcmp(got[0], got[1], bytes) ? "differ" : "the same");
    }
    if (F) LCL__CL->clReleaseMemObject(F);
    if (L) LCL__CL->clReleaseMemObject(L);
    free(h); free(got[0]); free(got[1]);
}
/* potrf's and getrf's trailing updates on 64-wide tiles, twice the groups (tune.upd_narrow) against
   the kernel's own tiles, through the tensor-core path (emulated off NVIDIA): the same factors to
   rounding, L L^T = A, and the narrow updates counted. n = 449 in panels of 128: two updates past
   the next panel's columns, of partial tiles. */
static void tg_tc_narrow(lcl_context *ctx) {
    lcl__device *d = &ctx->dev[0];
    const int keep = d->tune.upd_narrow, n = 449;
    int chol;
    for (chol = 0; chol < 2; chol++) {
        lcl_dense A, F[2];
        lcl_dense_opts o;
        int32_t ip[2][449];
        long runs[2];
        int h;
        double worst, res;
        memset(&o, 0, sizeof o);
        o.block = 128;
        tg_fill(ctx, &A, LCL_F64, n, chol);
        for (h = 0; h < 2; h++) {
            long before = d->seen.narrow_updates;
            d->tune.upd_narrow = h ? (chol ? 1 : 2) : 0;
            tg_factor(ctx, &A, &F[h], chol ? NULL : ip[h], &o);
            runs[h] = d->seen.narrow_updates - before;
        }
        tg_diff(&A, &F[0], &F[1], chol ? NULL : ip[0], chol ? NULL : ip[1], &worst, &res);
        CHECK_MSG(worst <= 1e-12 && res <= 1e-12 * n && runs[0] == 0 && runs[1] == 2, "%s, narrow updates: factors differ by %.2e, |L L^T - A| %.2e, "
                  "narrow updates %ld / %ld (want 0 / 2)", chol ? "potrf" : "getrf", worst, res, runs[0], runs[1]);
        lcl_dense_free(&F[0]);
        lcl_dense_free(&F[1]);
        lcl_dense_free(&A);
    }
    d->tune.upd_narrow = keep;
}
static void test_gemm_opencl_tc(void) {
    static const tg_tc cases[] = {
        {1, 1, 1, 0, 0, 0, 0, -1, 1, 0},        {2, 17, 3, 1, 0, 0, 0, -1, 1, 0},      {17, 2, 9, 2, 0, 0, 0, -1, 1, 0},     {130, 70, 17, 3, 0, 0, 0, -1, 1, 0},
        {70, 130, 40, 0, 0, 0, 0, 0.5, 0, 0},   {200, 64, 33, 1, 0, 0, 0, -1, 1, 0},   {129, 257, 8, 2, 0, 0, 0, -1, 1, 0},  {257, 129, 100, 3, 0, 3, 0, -1, 1, 0},
        {300, 300, 25, 1, 1, 0, 0, -1, 1, 0},   {300, 300, 72, 1, 1, 2, 0, -1, 1, 0},  {260, 64, 41, 1, 1, 0, 0, -1, 1, 0},  {331, 200, 23, 0, 2 + (64 << 8), 0, 0, -1, 1, 0},
        {300, 200, 72, 1, 1, 0, 3, -1, 1, 0},   {129, 257, 45, 0, 0, 0, 2, 0.5, 0, 0}, {331, 200, 23, 1, 2 + (48 << 8), 0, 0, -1, 1, 0},
        {400, 260, 30, 1, 3 + (128 << 8), 0, 0, -1, 1, 0}, {500, 300, 20, 1, 2 + (192 << 8), 2, 0, -1, 1, 0},
        {300, 64, 200, 1, 1, 0, 3, -1, 1, 0},   {129, 40, 100, 0, 0, 0, 2, 0.5, 0, 0},
        /* 64-wide tiles for any N (the dense updates, tune.upd_narrow): lower, groups looping, NT, NN, split lower */
        {300, 300, 72, 1, 1, 5, 0, -1, 1, 1}, {257, 200, 40, 1, 1, 0, 0, -1, 1, 1}, {200, 130, 33, 1, 0, 3, 0, -1, 1, 1}, {70, 193, 17, 0, 0, 0, 0, 0.5, 0, 1},
        {331, 200, 23, 1, 2 + (64 << 8), 0, 0, -1, 1, 1}, {500, 300, 20, 1, 2 + (192 << 8), 2, 0, -1, 1, 1}};
    lcl_context *probe = lt_ocl(NULL);
    int nv, s, t, bad = 0, runs = 0;
    char opts[64];
    if (!probe) { lt_skip("no OpenCL device"); return; }
    if (!probe->dev[0].info.fp64) { lcl_context_destroy(probe); lt_skip("no FP64 on the first device"); return; }
    nv = probe->dev[0].tune.tc && probe->dev[0].tune.nv_cc >= 80;
    lcl_context_destroy(probe);
    for (s = 3; s >= (nv ? 0 : 3); s -= 3) {
        lcl_context *ctx;
        cl_kernel kks = NULL, k64s = NULL;
        if (nv) snprintf(opts, sizeof opts, "-DTC_PIPE=7 -DTC_STAGES=%d", s);
        else snprintf(opts, sizeof opts, "-DTC_EMU=1 -DTC_STAGES=3");   /* the default mix: split-K through registers */
        ctx = lt_context(LCL_BACKEND_OPENCL, getenv("LCL_DEVICE"), getenv("LT_CACHE"), opts, 0);
        if (!ctx) { CHECK_MSG(0, "TC_STAGES=%d: no context", s); return; }
        ctx->dev[0].tune.tc = 1;   /* emulated: the host's path to the kernels, as on NVIDIA */
        CHECK_OK(ctx, lcl__kernel_get(ctx, &ctx->dev[0], LCL_F64, "lcl_gemm_tc_ks_d", 1, &kks));
        CHECK_OK(ctx, lcl__kernel_get(ctx, &ctx->dev[0], LCL_F64, "lcl_gemm_tc64_ks_d", 1, &k64s));
        if (!kks || !k64s) {
            CHECK_MSG(0, "TC_STAGES=%d: no tensor-core kernels built", s);
            lcl_context_destroy(ctx);
            return;
        }
        for (t = 0; t < (int)(sizeof cases / sizeof cases[0]); t++) {
            int untouched;
            double e = tg_tc_case(ctx, &cases[t], &untouched, kks, k64s);
            runs++;
            if (!(e <= 1e-13) || !untouched) {
                bad++;
                fprintf(stderr, "  TC_STAGES=%d%s: %d x %d x %d trans %d lower %d groups %d ks %d narrow %d: error %.2e, outside C's part %s\n", s,
                        nv ? "" : " (emulated)", cases[t].M, cases[t].N, cases[t].K, cases[t].trans, cases[t].lower, cases[t].groups, cases[t].ks,
                        cases[t].narrow, e, untouched ? "untouched" : "WRITTEN");
            }
        }
        tg_tc_step_ks(ctx);
        tg_tc_bklu(ctx);
        tg_tc_narrow(ctx);
        lcl_context_destroy(ctx);
    }
    CHECK_MSG(bad == 0, "%d of %d tensor-core GEMM cases wrong", bad, runs);
}

void lt_suite_gemm_opencl(void) {
    LT_RUN(test_gemm_opencl_lower);
    LT_RUN(test_gemm_opencl_nv_cc);
    LT_RUN(test_gemm_opencl_scratch);
    LT_RUN(test_gemm_opencl_lu_nt);
    LT_RUN(test_gemm_opencl_chol_tail);
    LT_RUN(test_gemm_opencl_chol_narrow);
    LT_RUN(test_gemm_opencl_tc);
}
#else
void lt_suite_gemm_opencl(void) {}
#endif
#endif
