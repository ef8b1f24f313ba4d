/* test_klu_opencl.c -- the sparse LU on an OpenCL device (>>klu-opencl, kernels/klu.cl), on PoCL
   here: lcl_klu_solve_vec (A x = b and A^T x = b) against the host's solve of the same factors
   made on a serial context, and against the residual bound; the device refactor against the
   host refactor (double with gcc: the same factors bit for bit, the kernel replays the host's
   arithmetic; otherwise to rounding), reporting the same singular column and instability; host-array solves
   after a device refactor; refactor and device solve making no host allocation; vectors of the
   wrong length, dtype, backend or context. Sizes 1, 2, 17, 200, the real matrices and
   gen:circuit up to 20000, double and single (double skipped where the device has no fp64).
   The device refactor is forced on (tune.klu_refactor: CPU devices default to the host's).
   Without dense tails and refinement ("plain"), and with the library's defaults, where a block
   with a dense tail refactors on the host and host-array solves refine there.

   Compiled inside tests/run_tests.c after test_klu.c (its kt_ helpers, struct lcl_klu_numeric);
   compiled alone it is empty. */
#ifndef LINALG_CL_IMPLEMENTATION_INCLUDED
typedef int lt_klu_opencl_compiled_in_run_tests;
#else
#ifndef LINALG_CL_NO_OPENCL

/* the device's copy of values buffer kb (cnt values) into a new host array */
static void *ko_download(lcl_context *ctx, const lcl_klu_numeric *N, int kb, int64_t cnt) {
    size_t bytes = (size_t)cnt * lcl__dsize(N->dtype);
    void *h = malloc(bytes + 8);
    if (bytes && LCL__CL->clEnqueueReadBuffer(ctx->dev[0].queue[0], N->cl->m[kb], CL_TRUE, 0, bytes, h, 0, NULL, NULL) != CL_SUCCESS)
        CHECK_MSG(0, "download failed");
    return h;
}
/* max |a - b| / max |b| over cnt values of dtype dt */
static double ko_diff(lcl_dtype dt, const void *a, const void *b, int64_t cnt) {
    double dm = 0, bm = 0;
    int64_t i;
    for (i = 0; i < cnt; i++) {
        double x = dt == LCL_F32 ? (double)((const float *)a)[i] : ((const double *)a)[i];
        double y = dt == LCL_F32 ? (double)((const float *)b)[i] : ((const double *)b)[i];
        if (!(fabs(x - y) <= dm)) dm = fabs(x - y);
        if (fabs(y) > bm) bm = fabs(y);
    }
    return bm > 0 ? dm / bm : dm;
}
static int ko_fp(lcl_context *ctx, lcl_dtype dt) { return dt == LCL_F32 || ctx->dev[0].info.fp64; }

/* A factored on a serial context (H) and on the OpenCL one (D); solves of both kinds compared;
   then a refactor of perturbed values on both (D's on the device), compared factor by factor */
static void ko_check2(lcl_context *ser, lcl_context *ocl, const char *name, lcl_csr *A, int btf, lcl_klu_scaling scale, double ptol,
                      int plain) {
    lcl_klu_symbolic S;
    lcl_klu_numeric *H = NULL, *D = NULL;
    lcl_klu_info ih, id;
    int64_t n = A->rows, p, t;
    lcl_dtype dt = A->dtype;
    size_t es = lcl__dsize(dt);
    double tol = dt == LCL_F32 ? 1e-4 : 1e-12, close = dt == LCL_F32 ? 1e-2 : 1e-7;
    void *b = kt_rhs(dt, n, 1, n), *xh = malloc((size_t)n * es + 8), *xd = malloc((size_t)n * es + 8);
    lcl_vec *v = NULL;
    kt_symbolic(A, btf, &S);
    S.opts.scale = scale;
    S.opts.tol = ptol;
    if (plain) {   /* no dense tails (refactored on the host), no refinement (host-array solves only) */
        S.opts.dense = -1;
        S.opts.refine = -1;
    }
    CHECK_OK(ser, lcl_klu_factor(ser, &S, A, &H, &ih));
    CHECK_OK(ocl, lcl_klu_factor(ocl, &S, A, &D, &id));
    CHECK_OK(ocl, lcl_vec_create(ocl, dt, n, b, &v));
    if (!H || !D || !v) goto done;
    for (t = 0; t < 3; t++) {   /* solve, tsolve, then solve after the refactor below */
        int tr = t == 1;
        double r, rh, dx;
        if (t == 2) {
            void *lh, *ld, *uh, *ud, *dh, *dd;
            /* gcc's -std=c99 does not contract a * b + c on the host, and klu.cl turns contraction
               off: the same roundings, so double is bit for bit; clang contracts to FMA by
               default, so its host rounds differently (ill-conditioned bcsstk01 in float: 7e-3) */
#if defined(__GNUC__) && !defined(__clang__)
            double gtol = dt == LCL_F32 ? 1e-3 : 1e-9, vtol = dt == LCL_F32 ? 1e-4 : 0;
#else
            double gtol = dt == LCL_F32 ? 2e-2 : 1e-6, vtol = dt == LCL_F32 ? 5e-2 : 1e-6;
#endif
            for (p = 0; p < A->nnz; p++) {
                double s = 1 + 0.05 * (2 * kt_u() - 1);
                if (dt == LCL_F32) ((float *)A->val)[p] *= (float)s; else ((double *)A->val)[p] *= s;
            }
            CHECK_OK(ser, lcl_klu_refactor(ser, &S, A, H, &ih));
            lt_alloc_fail_at(0);
            CHECK_OK(ocl, lcl_klu_refactor(ocl, &S, A, D, &id));
            CHECK_OK(ocl, lcl_vec_write(ocl, v, b));
            CHECK_OK(ocl, lcl_klu_solve_vec(ocl, &S, D, LCL_NO_TRANS, v));
            CHECK_MSG(lt_alloc_calls() == 0, "%s: device refactor and solve made %ld host allocation calls", name, lt_alloc_calls());
            CHECK_MSG(!plain || (D->cl && D->cl->host_stale), "%s: the refactor did not run on the device", name);
            /* float: the device's reductions round differently */
            CHECK_MSG(fabs(ih.growth - id.growth) <= gtol * ih.growth && fabs(ih.rcond - id.rcond) <= gtol * ih.rcond &&
                      ih.refactor_unstable == id.refactor_unstable && ih.nnz_l == id.nnz_l,
                      "%s: info growth %g/%g rcond %g/%g unstable %d/%d", name, ih.growth, id.growth, ih.rcond, id.rcond,
                      ih.refactor_unstable, id.refactor_unstable);
            lh = H->Lx; uh = H->Ux; dh = H->Ud;
            ld = ko_download(ocl, D, LCL__KB_LX, D->Lp[n]);
            ud = ko_download(ocl, D, LCL__KB_UX, D->Up[n]);
            dd = ko_download(ocl, D, LCL__KB_UD, n);
            if (vtol == 0)
                CHECK_MSG(!memcmp(lh, ld, (size_t)D->Lp[n] * es) && !memcmp(uh, ud, (size_t)D->Up[n] * es) && !memcmp(dh, dd, (size_t)n * es),
                          "%s: device refactor differs from the host's: L %.3g U %.3g Ud %.3g", name, ko_diff(dt, ld, lh, D->Lp[n]),
                          ko_diff(dt, ud, uh, D->Up[n]), ko_diff(dt, dd, dh, n));
            else
                CHECK_MSG(ko_diff(dt, ld, lh, D->Lp[n]) <= vtol && ko_diff(dt, ud, uh, D->Up[n]) <= vtol && ko_diff(dt, dd, dh, n) <= vtol,
                          "%s: device refactor differs from the host's: L %.3g U %.3g Ud %.3g", name, ko_diff(dt, ld, lh, D->Lp[n]),
                          ko_diff(dt, ud, uh, D->Up[n]), ko_diff(dt, dd, dh, n));
            free(ld); free(ud); free(dd);
        } else {
            CHECK_OK(ocl, lcl_vec_write(ocl, v, b));
            CHECK_OK(ocl, lcl_klu_solve_vec(ocl, &S, D, tr ? LCL_TRANS : LCL_NO_TRANS, v));
        }
        CHECK_OK(ocl, lcl_vec_read(ocl, v, xd));
        memcpy(xh, b, (size_t)n * es);
        CHECK_OK(ser, (tr ? lcl_klu_tsolve : lcl_klu_solve)(ser, &S, H, 1, xh, n));
        r = kt_resid(A, tr, xd, b, 1, n);
        rh = kt_resid(A, tr, xh, b, 1, n);
        dx = ko_diff(dt, xd, xh, n);
        if (H->refine) {   /* pivot growth lost digits: the host refines, lcl_klu_solve_vec does not. Its
                              reference is the host's solve of the same factors unrefined, whose residual
                              (about eps / growth) no fixed bound holds: 1.1e-8 at growth 2e-10 */
            int keep = H->refine;
            memcpy(xh, b, (size_t)n * es);
            H->refine = 0;
            CHECK_OK(ser, (tr ? lcl_klu_tsolve : lcl_klu_solve)(ser, &S, H, 1, xh, n));
            H->refine = keep;
            rh = kt_resid(A, tr, xh, b, 1, n);
        }
        /* the device sums rows where the host pushes columns: residuals alike, not equal */
        CHECK_MSG(r <= LCL__MAX((t == 2 || H->refine ? 10 : 1) * tol, 10 * rh) && (H->refine || dx <= close || ih.rcond < 1e-6),
                  "%s (%s, btf %d, scale %d, %s%s): residual %.3g (host%s %.3g), |x_dev - x_host| / |x_host| %.3g, growth %.3g", name,
                  dt == LCL_F32 ? "float" : "double", btf, (int)scale, tr ? "A^T x = b" : "A x = b", t == 2 ? " after refactor" : "", r,
                  H->refine ? ", unrefined" : "", rh, dx, ih.growth);
        if (H->refine) fprintf(stderr, "  %s (%s, %s%s): unrefined residual %.3g on the device, %.3g on the host (growth %.3g)\n", name,
                               dt == LCL_F32 ? "float" : "double", tr ? "A^T x = b" : "A x = b", t == 2 ? " after refactor" : "", r, rh, ih.growth);
        if (t == 2) {   /* host arrays after a device refactor */
            memcpy(xh, b, (size_t)n * es);
            CHECK_OK(ocl, lcl_klu_solve(ocl, &S, D, 1, xh, n));
            /* the host solves with the device's values (fetched once): as good as the host's own */
            CHECK_MSG(kt_resid(A, 0, xh, b, 1, n) <= LCL__MAX(10 * tol, 10 * rh),
                      "%s: host-array solve after device refactor differs: %.3g, residual %.3g", name, ko_diff(dt, xh, xd, n),
                      kt_resid(A, 0, xh, b, 1, n));
            /* the host's factors of the same refactor give the reference: a stale pivot order can
               leave both above 10 tol on some random matrices */
            memcpy(xh, b, (size_t)n * es);
            CHECK_OK(ser, lcl_klu_tsolve(ser, &S, H, 1, xh, n));
            rh = kt_resid(A, 1, xh, b, 1, n);
            memcpy(xh, b, (size_t)n * es);
            CHECK_OK(ocl, lcl_klu_tsolve(ocl, &S, D, 1, xh, n));
            CHECK_MSG(kt_resid(A, 1, xh, b, 1, n) <= LCL__MAX(10 * tol, 10 * rh), "%s: host-array tsolve after device refactor: residual %.3g (host's factors %.3g)",
                      name, kt_resid(A, 1, xh, b, 1, n), rh);
        }
    }
done:
    lcl_vec_free(v);
    lcl_klu_numeric_free(H);
    lcl_klu_numeric_free(D);
    kt_sym_free(&S);
    free(b); free(xh); free(xd);
}

static void ko_check(lcl_context *ser, lcl_context *ocl, const char *name, lcl_csr *A, int btf, lcl_klu_scaling scale, double ptol) {
    ko_check2(ser, ocl, name, A, btf, scale, ptol, 1);
}

/* the OpenCL context of the tests, its device refactoring (CPU devices default to the host);
   gpu_like: a GPU's shapes (work-groups on one refactor column, lanes on one row, runs of narrow
   levels in one work-group) so that every kernel path runs on a CPU device too */
static lcl_context *ko_ctx2(int gpu_like) {
    lcl_context *ctx = lt_ocl(NULL);
    if (!ctx) { lt_skip("no OpenCL device"); return NULL; }
    ctx->dev[0].tune.klu_refactor = 1;
    if (gpu_like) {
        ctx->dev[0].tune.klu_wg_max = (int)LCL__MIN(lcl__wg(&ctx->dev[0]), 64);
        ctx->dev[0].tune.klu_lanes_max = 8;
        ctx->dev[0].tune.klu_run_wg = 4;
    }
    return ctx;
}
static lcl_context *ko_ctx(void) { return ko_ctx2(1); }

static void test_klu_opencl_small(void) {
    lcl_context *ocl = ko_ctx(), *ser = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    static const int64_t sizes[] = {1, 2, 17, 200};
    int si, t, btf, sc;
    if (!ocl || !ser) goto done;
    for (t = 0; t < 4; t++) {
        if (t == 2) {   /* again with the device's own shapes */
            lcl_context_destroy(ocl);
            if (!(ocl = ko_ctx2(0))) goto done;
        }
        lcl_dtype dt = t & 1 ? LCL_F32 : LCL_F64;
        if (!ko_fp(ocl, dt)) { fprintf(stderr, "  no fp64 on the device: double left out\n"); continue; }
        for (si = 0; si < 4; si++)
            for (btf = 0; btf < 2; btf++)
                for (sc = 0; sc < 4; sc += 1 + (sizes[si] > 20)) {
                    lcl_csr A;
                    char name[64];
                    kt_random(ser, dt, sizes[si], sizes[si] > 20 ? 0.05 : 0.3, sc & 1 ? 0.2 : 1.0, &A);
                    snprintf(name, sizeof name, "random %lld", (long long)sizes[si]);
                    ko_check(ser, ocl, name, &A, btf, (lcl_klu_scaling)sc, t & 1 ? 1.0 : 0);
                    lcl_csr_free(&A);
                }
    }
done:
    lcl_context_destroy(ocl);
    lcl_context_destroy(ser);
}

static void test_klu_opencl_real(void) {
    static const char *names[] = {"west0067.mtx", "impcol_a.mtx", "fs_183_1.mtx", "arrow.mtx", "mesh1e1.mtx", "Trefethen_500.mtx", "bcsstk01.mtx"};
    lcl_context *ocl = ko_ctx(), *ser = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int i, t;
    if (!ocl || !ser) goto done;
    for (i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        for (t = 0; t < 2; t++) {
            char path[512];
            lcl_coo C;
            lcl_csr A;
            lcl_dtype dt = t ? LCL_F32 : LCL_F64;
            if (!ko_fp(ocl, dt) || (t && !strcmp(names[i], "fs_183_1.mtx"))) continue;   /* beyond float's residual bound */
            if (!lt_matrix_path(path, sizeof path, names[i])) { CHECK_MSG(0, "%s missing", path); continue; }
            if (lcl_mm_read(ser, path, dt, LCL_MM_EXPAND, &C, NULL) != LCL_OK) { CHECK_MSG(0, "%s: %s", path, lcl_last_error(ser)); continue; }
            CHECK_OK(ser, lcl_csr_from_coo(ser, &C, &A));
            ko_check(ser, ocl, names[i], &A, 1, LCL_KLU_SCALE_DEFAULT, 0);
            ko_check2(ser, ocl, names[i], &A, 1, LCL_KLU_SCALE_DEFAULT, 0, 0);
            lcl_csr_free(&A);
            lcl_coo_free(&C);
        }
done:
    lcl_context_destroy(ocl);
    lcl_context_destroy(ser);
}

static void test_klu_opencl_circuit(void) {
    static const char *specs[] = {"circuit:1000", "circuit:20000"};
    lcl_context *ocl = ko_ctx(), *ser = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int i, t;
    if (!ocl || !ser) goto done;
    for (i = 0; i < 2; i++)
        for (t = 0; t < 2; t++) {
            lcl_coo C;
            lcl_csr A;
            lcl_dtype dt = t ? LCL_F32 : LCL_F64;
            if (!ko_fp(ocl, dt) || (t && i == 1)) continue;   /* float: gen:circuit:20000's growth is beyond its bound */
            CHECK_OK(ser, lclg_gen_coo(ser, specs[i], 1, dt, &C, NULL, 0));
            CHECK_OK(ser, lcl_csr_from_coo(ser, &C, &A));
            ko_check(ser, ocl, specs[i], &A, 1, LCL_KLU_SCALE_DEFAULT, 1.0);
            ko_check2(ser, ocl, specs[i], &A, 1, LCL_KLU_SCALE_DEFAULT, 0, 0);   /* dense tails, refinement */
            lcl_csr_free(&A);
            lcl_coo_free(&C);
        }
done:
    lcl_context_destroy(ocl);
    lcl_context_destroy(ser);
}

/* a zero pivot found by the device refactor: the column the host reports; usable afterwards */
static void test_klu_opencl_singular(void) {
    lcl_context *ocl = ko_ctx(), *ser = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    lcl_klu_symbolic S;
    lcl_klu_numeric *H = NULL, *D = NULL;
    lcl_klu_info ih, id;
    lcl_csr A;
    double *v, *keep;
    int64_t p, col;
    if (!ocl || !ser) goto done;
    kt_random(ser, LCL_F64, 60, 0.08, 1.0, &A);
    kt_symbolic(&A, 1, &S);
    S.opts.dense = -1;   /* no dense tail: every column refactored on the device */
    v = (double *)A.val;
    keep = (double *)malloc((size_t)A.nnz * 8);
    memcpy(keep, v, (size_t)A.nnz * 8);
    CHECK_OK(ser, lcl_klu_factor(ser, &S, &A, &H, &ih));
    CHECK_OK(ocl, lcl_klu_factor(ocl, &S, &A, &D, &id));
    for (col = 5; col < 60 && H && D; col += 27) {
        for (p = 0; p < A.nnz; p++) if (A.col[p] == col) v[p] = 0;
        ih.singular_col = id.singular_col = 99;
        CHECK_STATUS(ser, lcl_klu_refactor(ser, &S, &A, H, &ih), LCL_ERR_SINGULAR);
        CHECK_STATUS(ocl, lcl_klu_refactor(ocl, &S, &A, D, &id), LCL_ERR_SINGULAR);
        CHECK_MSG(ih.singular_col == col && id.singular_col == col, "column %lld: host %lld, device %lld", (long long)col,
                  (long long)ih.singular_col, (long long)id.singular_col);
        CHECK(strstr(lcl_last_error(ocl), "zero pivot") != NULL);
        {   /* the factors a failed refactor left, refused on both (the device's copy too) */
            double bx[512];
            int64_t i;
            for (i = 0; i < A.rows && i < 512; i++) bx[i] = 1;
            CHECK(A.rows <= 512);
            CHECK_STATUS(ser, lcl_klu_solve(ser, &S, H, 1, bx, A.rows), LCL_ERR_INVALID_ARGUMENT);
            CHECK_STATUS(ocl, lcl_klu_solve(ocl, &S, D, 1, bx, A.rows), LCL_ERR_INVALID_ARGUMENT);
            CHECK(strstr(lcl_last_error(ocl), "the last refactor failed") != NULL);
        }
        memcpy(v, keep, (size_t)A.nnz * 8);
        CHECK_OK(ocl, lcl_klu_refactor(ocl, &S, &A, D, &id));
        CHECK(id.refactor_unstable == 0 && id.singular_col == -1);
    }
    /* a tiny kept pivot: unstable on both */
    for (p = 0; p < A.nnz && D && H; p++) v[p] = keep[p];
    for (p = A.ptr[S.P[3]]; p < A.ptr[S.P[3] + 1]; p++) if (A.col[p] == S.Q[3]) v[p] = 1e-14;
    if (H && D) {
        CHECK_OK(ser, lcl_klu_refactor(ser, &S, &A, H, &ih));
        CHECK_OK(ocl, lcl_klu_refactor(ocl, &S, &A, D, &id));
        CHECK_MSG(ih.refactor_unstable == id.refactor_unstable, "unstable: host %d, device %d", ih.refactor_unstable, id.refactor_unstable);
    }
    free(keep);
    lcl_klu_numeric_free(H);
    lcl_klu_numeric_free(D);
    kt_sym_free(&S);
    lcl_csr_free(&A);
done:
    lcl_context_destroy(ocl);
    lcl_context_destroy(ser);
}

static void test_klu_opencl_errors(void) {
    lcl_context *ocl = ko_ctx(), *ser = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0), *other = NULL;
    lcl_klu_symbolic S;
    lcl_klu_numeric *N = NULL, *Ns = NULL;
    lcl_klu_info info;
    lcl_csr A;
    lcl_vec *v = NULL, *vs = NULL, *vf = NULL, *vo = NULL, *vh = NULL;
    double x[17], b[17];
    long out0 = lt_alloc_outstanding();
    int i;
    if (!ocl || !ser) goto done;
    kt_random(ser, LCL_F64, 17, 0.3, 1.0, &A);
    kt_symbolic(&A, 1, &S);
    S.opts.dense = -1;
    for (i = 0; i < 17; i++) b[i] = x[i] = 1.0 + i;
    if (!ko_fp(ocl, LCL_F64)) {
        CHECK_OK(ocl, lcl_klu_factor(ocl, &S, &A, &N, &info));
        CHECK_OK(ocl, lcl_vec_create(ocl, LCL_F32, 17, NULL, &vf));
        CHECK_STATUS(ocl, lcl_klu_solve_vec(ocl, &S, N, LCL_NO_TRANS, vf), LCL_ERR_INVALID_ARGUMENT);
        goto free;
    }
    CHECK_OK(ocl, lcl_klu_factor(ocl, &S, &A, &N, &info));
    CHECK_OK(ser, lcl_klu_factor(ser, &S, &A, &Ns, &info));
    CHECK_OK(ocl, lcl_vec_create(ocl, LCL_F64, 16, NULL, &v));
    CHECK_OK(ocl, lcl_vec_create(ocl, LCL_F32, 17, NULL, &vf));
    CHECK_OK(ser, lcl_vec_create(ser, LCL_F64, 17, b, &vs));
    CHECK_STATUS(ocl, lcl_klu_solve_vec(ocl, &S, N, LCL_NO_TRANS, v), LCL_ERR_DIMENSION);
    CHECK(strstr(lcl_last_error(ocl), "16 elements") != NULL);
    CHECK_STATUS(ocl, lcl_klu_solve_vec(ocl, &S, N, LCL_NO_TRANS, vf), LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ocl), "b is float, the factors are double") != NULL);
    CHECK_STATUS(ocl, lcl_klu_solve_vec(ocl, &S, N, LCL_NO_TRANS, vs), LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ocl), "serial context") != NULL);
    CHECK_STATUS(ocl, lcl_klu_solve_vec(ocl, &S, N, (lcl_trans)7, vs), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ocl, lcl_klu_solve_vec(ocl, &S, N, LCL_NO_TRANS, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ocl, lcl_klu_solve_vec(ocl, NULL, N, LCL_NO_TRANS, vf), LCL_ERR_INVALID_ARGUMENT);
    /* a vector of another OpenCL context */
    if ((other = lt_ocl(NULL)) != NULL) {
        CHECK_OK(other, lcl_vec_create(other, LCL_F64, 17, b, &vo));
        CHECK_STATUS(ocl, lcl_klu_solve_vec(ocl, &S, N, LCL_NO_TRANS, vo), LCL_ERR_INVALID_ARGUMENT);
        CHECK(strstr(lcl_last_error(ocl), "another context") != NULL);
        /* and the factors' copy belongs to ocl: other refuses it */
        CHECK_STATUS(other, lcl_klu_solve_vec(other, &S, N, LCL_NO_TRANS, vo), LCL_ERR_INVALID_ARGUMENT);
        CHECK(strstr(lcl_last_error(other), "another context") != NULL);
    }
    /* serial: solve_vec on a host vector is the host solve */
    CHECK_OK(ser, lcl_klu_solve_vec(ser, &S, Ns, LCL_NO_TRANS, vs));
    CHECK_OK(ser, lcl_vec_read(ser, vs, x));
    CHECK(kt_resid(&A, 0, x, b, 1, 17) <= 1e-12);
    CHECK_OK(ser, lcl_vec_create(ser, LCL_F64, 17, b, &vh));
    CHECK_OK(ser, lcl_klu_solve_vec(ser, &S, N, LCL_TRANS, vh));   /* N's host factors serve a serial context too */
    CHECK_OK(ser, lcl_vec_read(ser, vh, x));
    CHECK(kt_resid(&A, 1, x, b, 1, 17) <= 1e-12);
    /* refactored on the device, the host's copies are stale: a serial solve is refused */
    CHECK_OK(ocl, lcl_klu_refactor(ocl, &S, &A, N, &info));
    CHECK_STATUS(ser, lcl_klu_solve(ser, &S, N, 1, x, 17), LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ser), "refactored on an OpenCL device") != NULL);
    /* a host refactor makes them current again, and the device copy is refreshed before use */
    CHECK_OK(ser, lcl_klu_refactor(ser, &S, &A, N, &info));
    memcpy(x, b, sizeof x);
    CHECK_OK(ser, lcl_klu_solve(ser, &S, N, 1, x, 17));
    CHECK(kt_resid(&A, 0, x, b, 1, 17) <= 1e-12);
    {
        lcl_vec *w = NULL;
        CHECK_OK(ocl, lcl_vec_create(ocl, LCL_F64, 17, b, &w));
        CHECK_OK(ocl, lcl_klu_solve_vec(ocl, &S, N, LCL_NO_TRANS, w));
        CHECK_OK(ocl, lcl_vec_read(ocl, w, x));
        CHECK(kt_resid(&A, 0, x, b, 1, 17) <= 1e-12);
        lcl_vec_free(w);
    }
free:
    lcl_vec_free(v); lcl_vec_free(vs); lcl_vec_free(vf); lcl_vec_free(vo); lcl_vec_free(vh);
    lcl_klu_numeric_free(N);
    lcl_klu_numeric_free(Ns);
    kt_sym_free(&S);
    lcl_csr_free(&A);
    lcl_context_destroy(other);
    other = NULL;
    CHECK_MSG(lt_alloc_outstanding() == out0, "%ld blocks leaked", lt_alloc_outstanding() - out0);
done:
    lcl_context_destroy(other);
    lcl_context_destroy(ocl);
    lcl_context_destroy(ser);
}

/* the device's default on a CPU (PoCL): refactor on the host, host-array solves on the host, the
   copy made only by lcl_klu_solve_vec */
static void test_klu_opencl_defaults(void) {
    lcl_context *ocl = lt_ocl(NULL);
    lcl_klu_symbolic S;
    lcl_klu_numeric *N = NULL;
    lcl_klu_info info;
    lcl_csr A;
    lcl_vec *v = NULL;
    float b[200], x[200];
    int i;
    if (!ocl) { lt_skip("no OpenCL device"); return; }
    if (ocl->dev[0].info.type != LCL_DEVICE_CPU) { lt_skip("not a CPU device"); lcl_context_destroy(ocl); return; }
    kt_random(ocl, LCL_F32, 200, 0.05, 1.0, &A);
    kt_symbolic(&A, 1, &S);
    S.opts.tol = 1;
    for (i = 0; i < 200; i++) b[i] = (float)(1 + i % 7);
    CHECK_OK(ocl, lcl_klu_factor(ocl, &S, &A, &N, &info));
    CHECK(N && !N->cl);
    CHECK_OK(ocl, lcl_klu_refactor(ocl, &S, &A, N, &info));
    memcpy(x, b, sizeof x);
    CHECK_OK(ocl, lcl_klu_solve(ocl, &S, N, 1, x, 200));
    CHECK(N && !N->cl);
    CHECK_OK(ocl, lcl_vec_create(ocl, LCL_F32, 200, b, &v));
    CHECK_OK(ocl, lcl_klu_solve_vec(ocl, &S, N, LCL_NO_TRANS, v));
    CHECK(N && N->cl && !N->cl->dev_stale);
    CHECK_OK(ocl, lcl_vec_read(ocl, v, x));
    CHECK(kt_resid(&A, 0, x, b, 1, 200) <= 1e-4);
    /* a host refactor marks the copy stale; the next device solve refreshes it */
    for (i = 0; i < (int)A.nnz; i++) ((float *)A.val)[i] *= 1.0f + 0.01f * (float)(i % 5);
    CHECK_OK(ocl, lcl_klu_refactor(ocl, &S, &A, N, &info));
    CHECK(N && N->cl && N->cl->dev_stale && !N->cl->host_stale);
    CHECK_OK(ocl, lcl_vec_write(ocl, v, b));
    CHECK_OK(ocl, lcl_klu_solve_vec(ocl, &S, N, LCL_TRANS, v));
    CHECK_OK(ocl, lcl_vec_read(ocl, v, x));
    CHECK(kt_resid(&A, 1, x, b, 1, 200) <= 1e-4);
    /* host-array solves on the device once the factors reach klu_solve_min */
    ocl->dev[0].tune.klu_solve_min = 1;
    memcpy(x, b, sizeof x);
    CHECK_OK(ocl, lcl_klu_solve(ocl, &S, N, 1, x, 200));
    CHECK(kt_resid(&A, 0, x, b, 1, 200) <= 1e-4);
    lcl_vec_free(v);
    lcl_klu_numeric_free(N);
    kt_sym_free(&S);
    lcl_csr_free(&A);
    lcl_context_destroy(ocl);
}

void lt_suite_klu_opencl(void) {
    LT_RUN(test_klu_opencl_small);
    LT_RUN(test_klu_opencl_real);
    LT_RUN(test_klu_opencl_circuit);
    LT_RUN(test_klu_opencl_singular);
    LT_RUN(test_klu_opencl_errors);
    LT_RUN(test_klu_opencl_defaults);
}
#else
void lt_suite_klu_opencl(void) {}
#endif
#endif
