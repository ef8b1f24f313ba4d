/* test_klu.c -- the numeric phase of the sparse direct LU (>>klu-numeric): factor, refactor,
   solve and tsolve on sizes 1, 2, 17, random unsymmetric matrices (with and without a zero-free
   diagonal), the real matrices of tests/data/matrices and gen:circuit, in double and float, with
   each row scaling; residuals against A and A^T, solutions against the dense lcl_gesv; refactor
   with new values making no allocation; singular, NaN, wrong pattern and bad arguments.
   The symbolic analysis is built here (kt_symbolic: one block with the natural order, or a block
   triangular form from a maximum transversal and Tarjan's components, natural order inside each
   block), so these tests do not depend on lcl_klu_analyze. Without a fill-reducing order the
   default threshold (0.001) lets the pivot growth of gen:circuit blocks and of random matrices in
   float exceed the residual bounds; those run with partial pivoting (tol 1), the rest with the
   default.

   Compiled inside tests/run_tests.c (#included after the implementation) to see struct
   lcl_klu_symbolic; compiled alone (the Makefile lists every tests/test_*.c) it is empty. */
#ifndef LINALG_CL_IMPLEMENTATION_INCLUDED
typedef int lt_klu_compiled_in_run_tests;
#else
#include "../tools/lcl_gen.h"
#include <time.h>

static uint64_t kt_rs = 0x2545F4914F6CDD1DULL;
static uint64_t kt_rnd(void) { kt_rs ^= kt_rs >> 12; kt_rs ^= kt_rs << 25; kt_rs ^= kt_rs >> 27; return kt_rs * 2685821657736338717ULL; }
static double kt_u(void) { return (double)(kt_rnd() >> 11) / 9007199254740992.0; }
static double kt_now(void) { return lcl__wtime(); }

static void kt_sym_free(lcl_klu_symbolic *S) { free(S->P); free(S->Q); free(S->R); memset(S, 0, sizeof *S); }

/* Tarjan's strongly connected components on the graph of the matched columns (j -> j' when row
   m[j] has an entry in column j'), iterative; components come out sinks first. */
static int64_t kt_tarjan(const lcl_csr *A, const int32_t *m, int32_t *order, int32_t *R) {
    int64_t n = A->rows, idx = 0, nord = 0, nb = 0, j;
    int32_t *low = (int32_t *)malloc((size_t)n * 4), *num = (int32_t *)malloc((size_t)n * 4);
    int32_t *cs = (int32_t *)malloc((size_t)n * 4), *ts = (int32_t *)malloc((size_t)n * 4);
    int64_t *cp = (int64_t *)malloc((size_t)n * 8);
    char *on = (char *)calloc((size_t)n, 1);
    int64_t csp, tsp = 0;
    for (j = 0; j < n; j++) num[j] = -1;
    R[0] = 0;
    for (j = 0; j < n; j++) {
        if (num[j] >= 0) continue;
        csp = 0; cs[0] = (int32_t)j; num[j] = low[j] = (int32_t)idx++; cp[0] = A->ptr[m[j]]; ts[tsp++] = (int32_t)j; on[j] = 1;
        while (csp >= 0) {
            int32_t v = cs[csp];
            if (cp[csp] < A->ptr[m[v] + 1]) {
                int32_t w = A->col[cp[csp]++];
                if (num[w] < 0) {
                    cs[++csp] = w; num[w] = low[w] = (int32_t)idx++; cp[csp] = A->ptr[m[w]]; ts[tsp++] = w; on[w] = 1;
                } else if (on[w] && num[w] < low[v]) low[v] = num[w];
                continue;
            }
            if (low[v] == num[v]) {
                int32_t w;
                do { w = ts[--tsp]; on[w] = 0; order[nord++] = w; } while (w != v);
                R[++nb] = (int32_t)nord;
            }
            if (--csp >= 0 && low[v] < low[cs[csp]]) low[cs[csp]] = low[v];
        }
    }
    free(low); free(num); free(cs); free(ts); free(cp); free(on);
    return nb;
}
/* A valid symbolic for A: btf 0 = one block, P = Q = identity; btf 1 = block upper triangular
   form (A must be structurally nonsingular), natural order inside the blocks */
static void kt_symbolic(const lcl_csr *A, int btf, lcl_klu_symbolic *S) {
    int64_t n = A->rows, j, b;
    memset(S, 0, sizeof *S);
    S->n = n; S->nnz = A->nnz;
    S->P = (int32_t *)malloc((size_t)n * 4); S->Q = (int32_t *)malloc((size_t)n * 4);
    S->R = (int32_t *)malloc((size_t)(n + 1) * 4);
    S->pattern_hash = lcl__klu_pattern_hash(A);
    S->structural_rank = n;
    if (!btf) {
        for (j = 0; j < n; j++) S->P[j] = S->Q[j] = (int32_t)j;
        S->R[0] = 0; S->R[1] = (int32_t)n; S->nblocks = 1; S->max_block = n;
        return;
    } else {
        /* maximum transversal: augmenting paths by depth-first search over rows (rows of A are
           the "columns" of the bipartite search here: row i is matched to column cm[i]) */
        int32_t *rm = (int32_t *)malloc((size_t)n * 4), *cm = (int32_t *)malloc((size_t)n * 4), *vis = (int32_t *)malloc((size_t)n * 4);
        int32_t *st = (int32_t *)malloc((size_t)n * 4), *m = (int32_t *)malloc((size_t)n * 4), *Rb = (int32_t *)malloc((size_t)(n + 1) * 4);
        int64_t *sp = (int64_t *)malloc((size_t)n * 8), i, nb, k;
        for (j = 0; j < n; j++) { rm[j] = cm[j] = vis[j] = -1; }
        for (i = 0; i < n; i++) {   /* cheap assignment, then augment */
            int64_t p, top = 0;
            double best = -1;
            for (p = A->ptr[i]; p < A->ptr[i + 1]; p++) {   /* the largest free entry: a stable diagonal */
                double v = A->dtype == LCL_F32 ? fabs((double)((float *)A->val)[p]) : fabs(((double *)A->val)[p]);
                if (rm[A->col[p]] < 0 && v > best) { best = v; cm[i] = A->col[p]; }
            }
            if (cm[i] >= 0) { rm[cm[i]] = (int32_t)i; continue; }
            st[0] = (int32_t)i; sp[0] = A->ptr[i];
            while (top >= 0) {
                int32_t r = st[top];
                if (sp[top] < A->ptr[r + 1]) {
                    int32_t c = A->col[sp[top]++];
                    if (vis[c] == i) continue;
                    vis[c] = (int32_t)i;
                    if (rm[c] < 0) {   /* free column: flip the path */
                        int64_t t;
                        for (t = top; t >= 0; t--) { int32_t rr = st[t], old = cm[rr]; cm[rr] = c; rm[c] = rr; c = old; }
                        break;
                    }
                    st[++top] = rm[c]; sp[top] = A->ptr[rm[c]];
                } else top--;
            }
        }
        for (j = 0; j < n; j++) m[j] = rm[j];   /* column j is matched to row m[j] */
        nb = kt_tarjan(A, m, st, Rb);
        /* sinks first: reverse to put them last (upper triangular) */
        S->R[0] = 0;
        for (b = 0, k = 0; b < nb; b++) {
            int64_t lo = Rb[nb - 1 - b], hi = Rb[nb - b];
            for (i = lo; i < hi; i++, k++) S->Q[k] = st[i];
            S->R[b + 1] = (int32_t)k;
            if (hi - lo > S->max_block) S->max_block = hi - lo;
        }
        for (k = 0; k < n; k++) S->P[k] = m[S->Q[k]];
        S->nblocks = nb;
        free(rm); free(cm); free(vis); free(st); free(m); free(Rb); free(sp);
    }
    {   /* entries above the diagonal blocks */
        int32_t *bq = (int32_t *)malloc((size_t)n * 4), *pinv = (int32_t *)malloc((size_t)n * 4);
        int64_t i, p;
        for (b = 0; b < S->nblocks; b++) for (j = S->R[b]; j < S->R[b + 1]; j++) bq[S->Q[j]] = (int32_t)b;
        for (j = 0; j < n; j++) pinv[S->P[j]] = (int32_t)j;
        for (i = 0; i < n; i++) {
            int32_t bi = -1;
            for (b = 0; b < S->nblocks; b++) if (pinv[i] < S->R[b + 1]) { bi = (int32_t)b; break; }
            for (p = A->ptr[i]; p < A->ptr[i + 1]; p++) S->nnz_offdiag += bq[A->col[p]] != bi;
        }
        free(bq); free(pinv);
    }
}

/* x (n x nrhs, ld) against A x = b (trans 0) or A^T x = b: max over columns of
   ||b - op(A) x||_inf / (||A||_inf ||x||_inf + ||b||_inf), in double */
static double kt_resid(const lcl_csr *A, int trans, const void *xv, const void *bv, int64_t nrhs, int64_t ld) {
    int64_t n = A->rows, i, p, c;
    double *r = (double *)calloc((size_t)n, sizeof(double)), anorm = 0, worst = 0;
    double *rs = (double *)calloc((size_t)n, sizeof(double));
    int f = A->dtype == LCL_F32;
#define KT_V(ptr, k) (f ? (double)((const float *)(ptr))[k] : ((const double *)(ptr))[k])
    for (i = 0; i < n; i++)
        for (p = A->ptr[i]; p < A->ptr[i + 1]; p++) rs[trans ? A->col[p] : i] += fabs(KT_V(A->val, p));
    for (i = 0; i < n; i++) if (rs[i] > anorm) anorm = rs[i];
    for (c = 0; c < nrhs; c++) {
        double xn = 0, bn = 0, rn = 0;
        for (i = 0; i < n; i++) { r[i] = KT_V(bv, c * ld + i); if (fabs(r[i]) > bn) bn = fabs(r[i]); if (fabs(KT_V(xv, c * ld + i)) > xn) xn = fabs(KT_V(xv, c * ld + i)); }
        for (i = 0; i < n; i++)
            for (p = A->ptr[i]; p < A->ptr[i + 1]; p++) {
                if (trans) r[A->col[p]] -= KT_V(A->val, p) * KT_V(xv, c * ld + i);
                else r[i] -= KT_V(A->val, p) * KT_V(xv, c * ld + A->col[p]);
            }
        for (i = 0; i < n; i++) if (fabs(r[i]) > rn) rn = fabs(r[i]);
        if (rn / (anorm * xn + bn) > worst) worst = rn / (anorm * xn + bn);
    }
#undef KT_V
    free(r); free(rs);
    return worst;
}

static void *kt_rhs(lcl_dtype dt, int64_t n, int64_t nrhs, int64_t ld) {
    int64_t i;
    void *b = malloc((size_t)(ld * nrhs) * (dt == LCL_F32 ? 4 : 8));
    (void)n;
    for (i = 0; i < ld * nrhs; i++) {
        double v = 2 * kt_u() - 1;
        if (dt == LCL_F32) ((float *)b)[i] = (float)v; else ((double *)b)[i] = v;
    }
    return b;
}

static double kt_dense = 0;   /* opts.dense of kt_check's factorizations */
/* info's growth, rcond and off-diagonal pivots against their definitions, over N's stored values
   (refactor gathers them column by column as it goes) */
static void kt_stats(const char *name, const lcl_klu_numeric *N, const lcl_klu_info *info) {
    int f = N->dtype == LCL_F32;
    int64_t j, p, off = 0;
    double g = 1, dmin = 0, dmax = 0;
#define KT_V(x, k) (f ? (double)((const float *)(x))[k] : ((const double *)(x))[k])
    for (j = 0; j < N->n; j++) {
        double am = 0, d = fabs(KT_V(N->Ud, j)), um = d;
        for (p = N->Cd[j]; p < N->Cp[j + 1]; p++) am = fmax(am, fabs(KT_V(N->Cx, p)));
        for (p = N->Up[j]; p < N->Up[j + 1]; p++) um = fmax(um, fabs(KT_V(N->Ux, p)));
        if (um > 0) g = fmin(g, am / um);
        dmin = j ? fmin(dmin, d) : d;
        dmax = fmax(dmax, d);
        off += N->piv[j] != j;
    }
#undef KT_V
    CHECK_MSG(info->growth == g && info->rcond == (dmax > 0 ? dmin / dmax : 0) && info->off_diag_pivots == off,
              "%s: growth %.17g (expected %.17g), rcond %.17g (%.17g), off-diagonal pivots %lld (%lld)", name, info->growth, g,
              info->rcond, dmax > 0 ? dmin / dmax : 0, (long long)info->off_diag_pivots, (long long)off);
}
/* factor, solve and tsolve with nrhs = 3, residuals; then refactor with perturbed values (0
   allocation calls) and solve again; with n <= 500 the solution against lcl_gesv's */
static void kt_check(lcl_context *ctx, const char *name, lcl_csr *A, int btf, lcl_klu_scaling scale, double ptol) {
    lcl_klu_symbolic S;
    lcl_klu_numeric *N = NULL;
    lcl_klu_info info;
    int64_t n = A->rows, ld = n + 2, nrhs = 3, p, i;
    int f = A->dtype == LCL_F32;
    size_t es = f ? 4 : 8;
    double tol = f ? 1e-4 : 1e-12, r1, r2, r3;   /* refactor's stale pivot order: 10x that */
    void *b, *x;
    kt_symbolic(A, btf, &S);
    S.opts.scale = scale;
    S.opts.tol = ptol;
    S.opts.dense = kt_dense;
    memset(&info, 0, sizeof info);
    CHECK_OK(ctx, lcl_klu_factor(ctx, &S, A, &N, &info));
    if (!N) { kt_sym_free(&S); return; }
    CHECK(info.singular_col == -1 && info.n == n && info.blocks == S.nblocks && info.nnz_l >= n && info.nnz_u >= n);
    CHECK(info.growth > 0 && info.growth <= 1 && info.rcond > 0 && info.rcond <= 1);
    kt_stats(name, N, &info);
    b = kt_rhs(A->dtype, n, nrhs, ld);
    x = malloc((size_t)(ld * nrhs) * es);
    memcpy(x, b, (size_t)(ld * nrhs) * es);
    CHECK_OK(ctx, lcl_klu_solve(ctx, &S, N, nrhs, x, ld));
    r1 = kt_resid(A, 0, x, b, nrhs, ld);
    if (n <= 500) {   /* the dense solver's answer */
        lcl_dense D, X;
        int32_t *ipiv = (int32_t *)malloc((size_t)n * 4);
        int64_t dinfo = 0, c, worst = 0;
        double dx = 0, xn = 0;
        CHECK_OK(ctx, lcl_dense_alloc(ctx, &D, A->dtype, LCL_COL_MAJOR, n, n));
        CHECK_OK(ctx, lcl_dense_alloc(ctx, &X, A->dtype, LCL_COL_MAJOR, n, nrhs));
        for (i = 0; i < n; i++) for (p = A->ptr[i]; p < A->ptr[i + 1]; p++)
            lcl_dense_set(&D, i, A->col[p], f ? (double)((float *)A->val)[p] : ((double *)A->val)[p]);
        for (c = 0; c < nrhs; c++) for (i = 0; i < n; i++)
            lcl_dense_set(&X, i, c, f ? (double)((float *)b)[c * ld + i] : ((double *)b)[c * ld + i]);
        CHECK_OK(ctx, lcl_gesv(ctx, &D, ipiv, &X, &dinfo));
        for (c = 0; c < nrhs; c++) for (i = 0; i < n; i++) {
            double u = lcl_dense_get(&X, i, c), v = f ? (double)((float *)x)[c * ld + i] : ((double *)x)[c * ld + i];
            if (fabs(u - v) > dx) dx = fabs(u - v);
            if (fabs(u) > xn) xn = fabs(u);
        }
        (void)worst;
        /* both backward stable: the solutions agree to about cond * eps; rcond is cheap, so the
           bound is loose and only checked where the dense solve saw a small growth */
        CHECK_MSG(dx <= (f ? 1e-2 : 1e-6) * xn || info.rcond < 1e-6, "%s: |x - x_gesv| = %g, |x| = %g", name, dx, xn);
        lcl_dense_free(&D); lcl_dense_free(&X); free(ipiv);
    }
    memcpy(x, b, (size_t)(ld * nrhs) * es);
    CHECK_OK(ctx, lcl_klu_tsolve(ctx, &S, N, nrhs, x, ld));
    r2 = kt_resid(A, 1, x, b, nrhs, ld);
    /* new values, same pattern: refactor, no allocation */
    for (p = 0; p < A->nnz; p++) {
        double s = 1 + 0.05 * (2 * kt_u() - 1);
        if (f) ((float *)A->val)[p] *= (float)s; else ((double *)A->val)[p] *= s;
    }
    lt_alloc_fail_at(0);
    CHECK_OK(ctx, lcl_klu_refactor(ctx, &S, A, N, &info));
    kt_stats(name, N, &info);
    CHECK_OK(ctx, lcl_klu_solve(ctx, &S, N, nrhs, x, ld));
    CHECK_MSG(lt_alloc_calls() == 0, "%s: refactor and solve made %ld allocation calls", name, lt_alloc_calls());
    memcpy(x, b, (size_t)(ld * nrhs) * es);
    CHECK_OK(ctx, lcl_klu_solve(ctx, &S, N, nrhs, x, ld));
    r3 = kt_resid(A, 0, x, b, nrhs, ld);
    CHECK_MSG(r1 <= tol && r2 <= tol && r3 <= 10 * tol, "%s (%s, btf %d, scale %d): residuals solve %.3g tsolve %.3g after refactor %.3g",
              name, f ? "float" : "double", btf, (int)scale, r1, r2, r3);
    if (getenv("LT_KLU_VERBOSE"))
        printf("  %-18s %s btf %d: blocks %lld nnz L+U %lld offpiv %lld growth %.2g rcond %.2g resid %.2g %.2g %.2g\n", name,
               f ? "f32" : "f64", btf, (long long)S.nblocks, (long long)(info.nnz_l + info.nnz_u), (long long)info.off_diag_pivots,
               info.growth, info.rcond, r1, r2, r3);
    lcl_klu_numeric_free(N);
    kt_sym_free(&S);
    free(b); free(x);
}

/* random n x n: density d off the diagonal, diagonal kept with probability pdiag */
static void kt_random(lcl_context *ctx, lcl_dtype dt, int64_t n, double d, double pdiag, lcl_csr *A) {
    lcl_coo C;
    int64_t i, j;
    CHECK_OK(ctx, lcl_coo_alloc(ctx, &C, dt, n, n, 16));
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++)
            if (i == j ? kt_u() < pdiag : kt_u() < d) CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, j, 2 * kt_u() - 1 + (i == j ? 0.5 : 0)));
        CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, (i * 7 + 3) % n, 1.0 + kt_u()));   /* a transversal */
    }
    CHECK_OK(ctx, lcl_coo_canonicalize(ctx, &C));
    CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, A));
    lcl_coo_free(&C);
}

static void test_klu_small(void) {
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    static const int64_t sizes[] = {1, 2, 17, 60, 200};
    int si, t, btf, sc;
    if (!ctx) return;
    for (t = 0; t < 2; t++)
        for (si = 0; si < 5; si++)
            for (btf = 0; btf < 2; btf++)
                for (sc = 0; sc < 4; sc++) {
                    lcl_csr A;
                    char name[64];
                    lcl_dtype dt = t ? LCL_F32 : LCL_F64;
                    kt_random(ctx, dt, sizes[si], sizes[si] > 20 ? 0.05 : 0.3, sc & 1 ? 0.2 : 1.0, &A);
                    snprintf(name, sizeof name, "random %lld", (long long)sizes[si]);
                    kt_check(ctx, name, &A, btf, (lcl_klu_scaling)sc, t ? 1.0 : 0);
                    lcl_csr_free(&A);
                }
    lcl_context_destroy(ctx);
}

/* zero diagonal everywhere: every pivot is off the diagonal */
static void test_klu_offdiag_pivots(void) {
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    lcl_klu_symbolic S;
    lcl_klu_numeric *N = NULL;
    lcl_klu_info info;
    lcl_coo C;
    lcl_csr A;
    int64_t n = 50, i;
    if (!ctx) return;
    CHECK_OK(ctx, lcl_coo_alloc(ctx, &C, LCL_F64, n, n, 16));
    for (i = 0; i < n; i++) {   /* a shifted bidiagonal plus a few entries, no diagonal */
        CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, (i + 1) % n, 3.0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, (i + 5) % n, 1.0));
        CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, (i + n - 3) % n, -1.0));
    }
    CHECK_OK(ctx, lcl_coo_canonicalize(ctx, &C));
    CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, &A));
    kt_symbolic(&A, 0, &S);
    CHECK_OK(ctx, lcl_klu_factor(ctx, &S, &A, &N, &info));
    CHECK(info.off_diag_pivots > 0);
    lcl_klu_numeric_free(N);
    kt_sym_free(&S);
    kt_check(ctx, "zero diagonal", &A, 0, LCL_KLU_SCALE_DEFAULT, 0);
    kt_check(ctx, "zero diagonal", &A, 1, LCL_KLU_SCALE_NONE, 0);
    lcl_csr_free(&A);
    lcl_coo_free(&C);
    lcl_context_destroy(ctx);
}

static void test_klu_real(void) {
    static const char *names[] = {"west0067.mtx", "impcol_a.mtx", "fs_183_1.mtx", "arrow.mtx", "LF10.mtx", "mesh1e1.mtx",
                                  "Trefethen_500.mtx", "bcsstk01.mtx", "LFAT5.mtx"};
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int i, t, btf;
    if (!ctx) return;
    for (i = 0; i < (int)(sizeof names / sizeof names[0]); i++)
        for (t = 0; t < 2; t++)
            for (btf = 0; btf < 2; btf++) {
                char path[512];
                lcl_coo C;
                lcl_csr A;
                lcl_dtype dt = t ? LCL_F32 : LCL_F64;
                if (!lt_matrix_path(path, sizeof path, names[i])) { CHECK_MSG(0, "%s missing", path); continue; }
                if (lcl_mm_read(ctx, path, dt, LCL_MM_EXPAND, &C, NULL) != LCL_OK) { CHECK_MSG(0, "%s: %s", path, lcl_last_error(ctx)); continue; }
                CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, &A));
                /* float: the ill-conditioned ones are beyond single precision's residual bound */
                if (!t || (strcmp(names[i], "fs_183_1.mtx") && strcmp(names[i], "LFAT5.mtx") && strcmp(names[i], "LF10.mtx")))
                    kt_check(ctx, names[i], &A, btf, LCL_KLU_SCALE_DEFAULT, 0);
                lcl_csr_free(&A);
                lcl_coo_free(&C);
            }
    lcl_context_destroy(ctx);
}

static void test_klu_circuit(void) {
    static const char *specs[] = {"circuit:1000", "circuit:20000"};
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int i;
    if (!ctx) return;
    for (i = 0; i < 2; i++) {
        lcl_coo C;
        lcl_csr A;
        lcl_klu_symbolic S;
        lcl_klu_numeric *N = NULL;
        lcl_klu_info info;
        double t0, t1, t2, t3;
        void *b, *x;
        int64_t n;
        CHECK_OK(ctx, lclg_gen_coo(ctx, specs[i], 1, LCL_F64, &C, NULL, 0));
        CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, &A));
        kt_check(ctx, specs[i], &A, 1, LCL_KLU_SCALE_DEFAULT, 1.0);
        n = A.rows;
        kt_symbolic(&A, 1, &S);
        S.opts.tol = 1.0;
        t0 = kt_now();
        CHECK_OK(ctx, lcl_klu_factor(ctx, &S, &A, &N, &info));
        t1 = kt_now();
        CHECK_OK(ctx, lcl_klu_refactor(ctx, &S, &A, N, &info));
        t2 = kt_now();
        b = kt_rhs(LCL_F64, n, 1, n);
        x = malloc((size_t)n * 8);
        memcpy(x, b, (size_t)n * 8);
        CHECK_OK(ctx, lcl_klu_solve(ctx, &S, N, 1, x, n));
        t3 = kt_now();
        CHECK(kt_resid(&A, 0, x, b, 1, n) <= 1e-12);
        printf("  %s: blocks %lld (largest %lld), nnz(A) %lld, nnz(L+U) %lld; factor %.2f ms, refactor %.2f ms, solve %.3f ms\n",
               specs[i], (long long)S.nblocks, (long long)S.max_block, (long long)A.nnz, (long long)(info.nnz_l + info.nnz_u),
               1e3 * (t1 - t0), 1e3 * (t2 - t1), 1e3 * (t3 - t2));
        free(b); free(x);
        lcl_klu_numeric_free(N);
        kt_sym_free(&S);
        lcl_csr_free(&A);
        lcl_coo_free(&C);
    }
    lcl_context_destroy(ctx);
}

static void test_klu_errors(void) {
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    lcl_klu_symbolic S, S2;
    lcl_klu_numeric *N = NULL;
    lcl_klu_info info;
    lcl_csr A, A2;
    double *v, x[40];
    int64_t p;
    long out0;
    if (!ctx) return;
    kt_random(ctx, LCL_F64, 17, 0.3, 1.0, &A);
    kt_symbolic(&A, 1, &S);
    kt_random(ctx, LCL_F64, 17, 0.3, 1.0, &A2);
    v = (double *)A.val;
    out0 = lt_alloc_outstanding();
    /* numerically singular: column 5 of A scaled to zero */
    {
        double *keep = (double *)malloc((size_t)A.nnz * 8);
        memcpy(keep, v, (size_t)A.nnz * 8);
        for (p = 0; p < A.nnz; p++) if (A.col[p] == 5) v[p] = 0;
        info.singular_col = 99;
        CHECK_STATUS(ctx, lcl_klu_factor(ctx, &S, &A, &N, &info), LCL_ERR_SINGULAR);
        CHECK(N == NULL && info.singular_col == 5);
        CHECK(strstr(lcl_last_error(ctx), "column 5") != NULL);
        memcpy(v, keep, (size_t)A.nnz * 8);
        CHECK_OK(ctx, lcl_klu_factor(ctx, &S, &A, &N, &info));
        for (p = 0; p < A.nnz; p++) if (A.col[p] == 5) v[p] = 0;
        info.singular_col = 99;
        info.rcond = 1;
        CHECK_STATUS(ctx, lcl_klu_refactor(ctx, &S, &A, N, &info), LCL_ERR_SINGULAR);
        CHECK(info.singular_col == 5 && info.rcond == 0);
        {   /* the factors it left (part old, part new) are refused by every solve, the failure named */
            double bx[64];
            lcl_vec *bv = NULL;
            int64_t i;
            for (i = 0; i < A.rows && i < 64; i++) bx[i] = 1;
            CHECK(A.rows <= 64);
            CHECK_STATUS(ctx, lcl_klu_solve(ctx, &S, N, 1, bx, A.rows), LCL_ERR_INVALID_ARGUMENT);
            CHECK_MSG(strstr(lcl_last_error(ctx), "no factors to solve with: the last refactor failed (lcl_klu_refactor: zero pivot in column 5") != NULL,
                      "%s", lcl_last_error(ctx));
            CHECK_STATUS(ctx, lcl_klu_tsolve(ctx, &S, N, 1, bx, A.rows), LCL_ERR_INVALID_ARGUMENT);
            if (lcl_vec_create(ctx, LCL_F64, A.rows, bx, &bv) == LCL_OK) {
                CHECK_STATUS(ctx, lcl_klu_solve_vec(ctx, &S, N, LCL_NO_TRANS, bv), LCL_ERR_INVALID_ARGUMENT);
                lcl_vec_free(bv);
            } else
                CHECK_MSG(0, "lcl_vec_create: %s", lcl_last_error(ctx));
        }
        memcpy(v, keep, (size_t)A.nnz * 8);
        CHECK_OK(ctx, lcl_klu_refactor(ctx, &S, &A, N, &info));   /* usable again */
        CHECK(info.refactor_unstable == 0);
        /* a value making the kept pivot tiny: refactor says so */
        for (p = A.ptr[0]; p < A.ptr[1]; p++) if (A.col[p] == S.Q[0] && S.P[0] == 0) v[p] = 1e-30;
        free(keep);
    }
    /* huge finite values whose row sum overflows are no Inf */
    for (p = A.ptr[2]; p < A.ptr[3]; p++) v[p] = p & 1 ? 1.5e308 : -1.5e308;
    CHECK(A.ptr[3] - A.ptr[2] >= 2);
    CHECK_OK(ctx, lcl_klu_refactor(ctx, &S, &A, N, &info));
    /* NaN and Inf */
    v[3] = 0.0 / 0.0 * 0;
    CHECK_STATUS(ctx, lcl_klu_refactor(ctx, &S, &A, N, &info), LCL_ERR_NAN);
    lcl_klu_numeric_free(N);
    N = NULL;
    CHECK_STATUS(ctx, lcl_klu_factor(ctx, &S, &A, &N, &info), LCL_ERR_NAN);
    CHECK(N == NULL);
    v[3] = 1e308 * 10;
    CHECK_STATUS(ctx, lcl_klu_factor(ctx, &S, &A, &N, &info), LCL_ERR_NAN);
    v[3] = 1;
    /* a different pattern */
    CHECK_STATUS(ctx, lcl_klu_factor(ctx, &S, &A2, &N, &info), LCL_ERR_INVALID_ARGUMENT);
    kt_symbolic(&A2, 0, &S2);
    CHECK_OK(ctx, lcl_klu_factor(ctx, &S, &A, &N, &info));
    CHECK_STATUS(ctx, lcl_klu_refactor(ctx, &S2, &A2, N, &info), LCL_ERR_INVALID_ARGUMENT);   /* S2 is not N's symbolic */
    CHECK_STATUS(ctx, lcl_klu_refactor(ctx, &S, &A2, N, &info), LCL_ERR_INVALID_ARGUMENT);
    /* bad arguments */
    {
        lcl_klu_numeric *N2 = N;
        CHECK_STATUS(ctx, lcl_klu_factor(ctx, NULL, &A, &N2, &info), LCL_ERR_INVALID_ARGUMENT);
        CHECK_STATUS(ctx, lcl_klu_factor(ctx, &S, NULL, &N2, &info), LCL_ERR_INVALID_ARGUMENT);
        CHECK(N2 == NULL);
    }
    CHECK_STATUS(ctx, lcl_klu_factor(ctx, &S, &A, NULL, &info), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_klu_refactor(ctx, &S, &A, NULL, &info), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_klu_solve(ctx, &S, N, 1, NULL, 17), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_klu_solve(ctx, &S, N, -1, x, 17), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_klu_tsolve(ctx, &S, N, 1, x, 16), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_klu_solve(ctx, NULL, N, 1, x, 17), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_klu_tsolve(ctx, &S, NULL, 1, x, 17), LCL_ERR_INVALID_ARGUMENT);
    CHECK_OK(ctx, lcl_klu_solve(ctx, &S, N, 0, x, 17));
    lcl_klu_numeric_free(N);
    lcl_klu_numeric_free(NULL);
    CHECK(lt_alloc_outstanding() == out0);
    /* every allocation of factor failing in turn: a clean error, nothing leaked */
    {
        long k;
        for (k = 1; k < 40; k++) {
            lcl_status st;
            N = NULL;
            lt_alloc_fail_at(k);
            st = lcl_klu_factor(ctx, &S, &A, &N, &info);
            lt_alloc_fail_at(0);
            if (st == LCL_OK) { lcl_klu_numeric_free(N); break; }
            CHECK(st == LCL_ERR_OUT_OF_MEMORY && N == NULL);
        }
        CHECK(lt_alloc_outstanding() == out0);
    }
    kt_sym_free(&S); kt_sym_free(&S2);
    lcl_csr_free(&A); lcl_csr_free(&A2);
    /* a zero pivot in a 1x1 block (lower bidiagonal: every block 1x1), at refactor */
    {
        lcl_coo C;
        int64_t i, n = 6;
        CHECK_OK(ctx, lcl_coo_alloc(ctx, &C, LCL_F64, n, n, 16));
        for (i = 0; i < n; i++) {
            CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, i, 2.0 + (double)i));
            if (i) CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, i - 1, -1.0));
        }
        CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, &A));
        kt_symbolic(&A, 1, &S);
        CHECK(S.nblocks == n);
        CHECK_OK(ctx, lcl_klu_factor(ctx, &S, &A, &N, &info));
        v = (double *)A.val;
        for (p = A.ptr[3]; p < A.ptr[4]; p++) if (A.col[p] == 3) v[p] = 0;
        info.singular_col = 99;
        CHECK_STATUS(ctx, lcl_klu_refactor(ctx, &S, &A, N, &info), LCL_ERR_SINGULAR);
        CHECK(info.singular_col == 3);
        for (p = A.ptr[3]; p < A.ptr[4]; p++) if (A.col[p] == 3) v[p] = -0.5;
        CHECK_OK(ctx, lcl_klu_refactor(ctx, &S, &A, N, &info));
        CHECK(info.refactor_unstable == 0 && info.growth == 1 && info.rcond == 0.5);   /* rows scaled by their max: pivots 1 and -0.5 */
        lcl_klu_numeric_free(N);
        kt_sym_free(&S);
        lcl_csr_free(&A);
        lcl_coo_free(&C);
    }
    lcl_context_destroy(ctx);
}

/* The OpenMP refactor and solves against the serial ones, bitwise: one factor per context (factor
   is serial on every backend), refactor of the same new values, then solve and tsolve with nrhs
   1, 3, 17, then a second refactor (after solves, which leave values in the work vectors). force:
   the schedule rebuilt with every level split among the threads, so small matrices run the
   parallel path too; dense, refine: opts. Returns whether the parallel refactor path ran, plus 2
   when a block had a dense tail. */
static int kt_omp_same(lcl_context *cs, lcl_context *co, const char *name, lcl_csr *A, int btf, double ptol, int force,
                       double dense, int refine) {
    static const int64_t nrhs[] = {1, 3, 17};
    lcl_klu_symbolic S;
    lcl_klu_numeric *Ns = NULL, *No = NULL;
    lcl_klu_info is, io;
    int64_t n = A->rows, ld = n + 1, p, k, wide;
    int f = A->dtype == LCL_F32, par = 0, round;
    size_t es = f ? 4 : 8;
    kt_symbolic(A, btf, &S);
    S.opts.tol = ptol;
    S.opts.dense = dense;
    S.opts.refine = refine;
    CHECK_OK(cs, lcl_klu_factor(cs, &S, A, &Ns, &is));
    CHECK_OK(co, lcl_klu_factor(co, &S, A, &No, &io));
    if (!Ns || !No) { lcl_klu_numeric_free(Ns); lcl_klu_numeric_free(No); kt_sym_free(&S); return 0; }
    if (force && No->nth > 1) {
        LCL_FREE(No->chunkp); LCL_FREE(No->sched); LCL_FREE(No->done);
        CHECK_OK(co, lcl__klu_schedule(co, &S, No, 0, 1, 0));
    }
    wide = No->nchunk - 1;
    for (round = 0; round < 2; round++) {
        for (p = 0; p < A->nnz; p++) {
            double s = 1 + 0.05 * (2 * kt_u() - 1);
            if (f) ((float *)A->val)[p] *= (float)s; else ((double *)A->val)[p] *= s;
        }
        lt_alloc_fail_at(0);
        CHECK_OK(cs, lcl_klu_refactor(cs, &S, A, Ns, &is));
        CHECK_OK(co, lcl_klu_refactor(co, &S, A, No, &io));
        CHECK_MSG(lt_alloc_calls() == 0, "%s: refactors made %ld allocation calls", name, lt_alloc_calls());
        par = No->nth > 1 && wide > 0;
        CHECK_MSG(!memcmp(Ns->Lx, No->Lx, (size_t)Ns->Lp[n] * es) && !memcmp(Ns->Ux, No->Ux, (size_t)Ns->Up[n] * es) &&
                  !memcmp(Ns->Ud, No->Ud, (size_t)n * es),
                  "%s (%s, btf %d, %d threads, %lld chunks): OpenMP refactor differs from the serial one", name,
                  f ? "float" : "double", btf, No->nth, (long long)No->nchunk);
        /* flops: a dense tail's 2/3 t^3 is not an integer, and joins the sum in another order */
        CHECK_MSG(fabs(is.flops - io.flops) <= 1e-12 * is.flops && is.growth == io.growth && is.refactor_unstable == io.refactor_unstable,
                  "%s: refactor info differs: flops %g %g", name, is.flops, io.flops);
        for (k = 0; k < 3; k++) {
            void *b = kt_rhs(A->dtype, n, nrhs[k], ld), *xs = malloc((size_t)(ld * nrhs[k]) * es), *xo = malloc((size_t)(ld * nrhs[k]) * es);
            int t;
            for (t = 0; t < 2; t++) {
                lcl_status (*fn)(lcl_context *, const lcl_klu_symbolic *, const lcl_klu_numeric *, int64_t, void *, int64_t) =
                    t ? lcl_klu_tsolve : lcl_klu_solve;
                memcpy(xs, b, (size_t)(ld * nrhs[k]) * es);
                memcpy(xo, b, (size_t)(ld * nrhs[k]) * es);
                lt_alloc_fail_at(0);
                CHECK_OK(cs, fn(cs, &S, Ns, nrhs[k], xs, ld));
                CHECK_OK(co, fn(co, &S, No, nrhs[k], xo, ld));
                CHECK_MSG(lt_alloc_calls() == 0, "%s: solves made %ld allocation calls", name, lt_alloc_calls());
                CHECK_MSG(!memcmp(xs, xo, (size_t)(ld * nrhs[k]) * es), "%s (%s): OpenMP %ssolve, nrhs %lld, differs from the serial one",
                          name, f ? "float" : "double", t ? "t" : "", (long long)nrhs[k]);
                if (t == 0 && k == 1)   /* and it solves: equal to a wrong serial answer would pass too */
                    CHECK_MSG(kt_resid(A, 0, xo, b, nrhs[k], ld) <= (f ? 1e-3 : 1e-10), "%s: OpenMP solve residual %g", name,
                              kt_resid(A, 0, xo, b, nrhs[k], ld));
            }
            free(b); free(xs); free(xo);
        }
    }
    for (k = 0; k < S.nblocks; k++) if (No->tail[k] < S.R[k + 1]) { par |= 2; break; }
    lcl_klu_numeric_free(Ns);
    lcl_klu_numeric_free(No);
    kt_sym_free(&S);
    return par;
}

static void test_klu_openmp(void) {
    static const int64_t sizes[] = {1, 2, 17, 200};
    static const char *names[] = {"west0067.mtx", "impcol_a.mtx", "arrow.mtx", "mesh1e1.mtx", "Trefethen_500.mtx"};
    static const char *specs[] = {"circuit:1000", "circuit:20000"};
    static const int threads[] = {1, 2, 3};
    lcl_context *cs = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int ti, t, i, btf, ran = 0;
    if (!cs) return;
    if (!lcl_backend_compiled(LCL_BACKEND_OPENMP)) { lcl_context_destroy(cs); lt_skip("OpenMP not compiled in"); return; }
    for (ti = 0; ti < 3; ti++) {
        lcl_context *co;
        if (lt_valgrind() && threads[ti] != 3) continue;   /* memcheck runs the team one thread at a time: the
                                                               uneven split only (54 of its seconds for all three) */
        co = lt_context(LCL_BACKEND_OPENMP, NULL, NULL, NULL, threads[ti]);
        if (!co) break;
        for (t = 0; t < 2; t++) {
            lcl_dtype dt = t ? LCL_F32 : LCL_F64;
            for (i = 0; i < 4; i++)
                for (btf = 0; btf < 2; btf++) {
                    lcl_csr A;
                    char name[64];
                    kt_random(cs, dt, sizes[i], sizes[i] > 20 ? 0.05 : 0.3, 1.0, &A);
                    snprintf(name, sizeof name, "random %lld", (long long)sizes[i]);
                    ran += kt_omp_same(cs, co, name, &A, btf, 1.0, 1, btf ? 0.01 : 0, 0) & 1;   /* btf 1: tails everywhere */
                    lcl_csr_free(&A);
                }
            for (i = 0; i < (int)(sizeof names / sizeof names[0]); i++) {
                char path[512];
                lcl_coo C;
                lcl_csr A;
                if (!lt_matrix_path(path, sizeof path, names[i])) { CHECK_MSG(0, "%s missing", path); continue; }
                if (lcl_mm_read(cs, path, dt, LCL_MM_EXPAND, &C, NULL) != LCL_OK) { CHECK_MSG(0, "%s: %s", path, lcl_last_error(cs)); continue; }
                CHECK_OK(cs, lcl_csr_from_coo(cs, &C, &A));
                ran += kt_omp_same(cs, co, names[i], &A, 1, 0, 1, 0, 2) & 1;   /* solves refined */
                lcl_csr_free(&A);
                lcl_coo_free(&C);
            }
            for (i = 0; i < 2; i++) {   /* the factor's own schedule: circuit:20000 has wide levels and tails */
                lcl_coo C;
                lcl_csr A;
                int par;
                if (i && lt_small() && (threads[ti] != 2 || t)) continue;   /* minutes under valgrind: once, 2 threads, double */
                if (i && lt_valgrind()) continue;   /* even once, 65 of memcheck's seconds; ASan runs it */
                CHECK_OK(cs, lclg_gen_coo(cs, specs[i], 1, dt, &C, NULL, 0));
                CHECK_OK(cs, lcl_csr_from_coo(cs, &C, &A));
                par = kt_omp_same(cs, co, specs[i], &A, 1, 1.0, 0, 0, 0);
                CHECK_MSG(!i || ((par & 1) == (threads[ti] > 1) && (par & 2)), "%s, %d threads: the parallel refactor %s, tails %s",
                          specs[i], threads[ti], par & 1 ? "ran" : "did not run", par & 2 ? "present" : "absent");
                lcl_csr_free(&A);
                lcl_coo_free(&C);
            }
        }
        lcl_context_destroy(co);
    }
    CHECK(ran > 0);
    lcl_context_destroy(cs);
}

/* a zero pivot under the OpenMP refactor: the column the serial one reports, and usable again */
static void test_klu_openmp_singular(void) {
    lcl_context *cs = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0), *co = lt_context(LCL_BACKEND_OPENMP, NULL, NULL, NULL, 2);
    lcl_klu_symbolic S;
    lcl_klu_numeric *Ns = NULL, *No = NULL;
    lcl_klu_info is, io;
    lcl_csr A;
    double *keep;
    int64_t p, c, wide;
    if (!cs || !co || !lcl_backend_compiled(LCL_BACKEND_OPENMP)) { lcl_context_destroy(cs); lcl_context_destroy(co); return; }
    kt_random(cs, LCL_F64, 300, 0.01, 1.0, &A);
    kt_symbolic(&A, 0, &S);
    CHECK_OK(cs, lcl_klu_factor(cs, &S, &A, &Ns, &is));
    CHECK_OK(co, lcl_klu_factor(co, &S, &A, &No, &io));
    if (!Ns || !No) goto done;
    LCL_FREE(No->chunkp); LCL_FREE(No->sched); LCL_FREE(No->done);
    CHECK_OK(co, lcl__klu_schedule(co, &S, No, 0, 1, 0));
    wide = No->nchunk - 1;
    CHECK(No->nth == 2 && wide > 1);
    keep = (double *)malloc((size_t)A.nnz * 8);
    memcpy(keep, A.val, (size_t)A.nnz * 8);
    for (c = 250; c >= 40; c -= 70) {   /* two columns zero: the first in column order is reported */
        for (p = 0; p < A.nnz; p++) if (A.col[p] == c || A.col[p] == c + 30) ((double *)A.val)[p] = 0;
        is.singular_col = io.singular_col = -7;
        CHECK_STATUS(cs, lcl_klu_refactor(cs, &S, &A, Ns, &is), LCL_ERR_SINGULAR);
        CHECK_STATUS(co, lcl_klu_refactor(co, &S, &A, No, &io), LCL_ERR_SINGULAR);
        CHECK_MSG(io.singular_col == is.singular_col && is.singular_col == c, "zero column %lld: serial says %lld, OpenMP %lld",
                  (long long)c, (long long)is.singular_col, (long long)io.singular_col);
        memcpy(A.val, keep, (size_t)A.nnz * 8);
        CHECK_OK(cs, lcl_klu_refactor(cs, &S, &A, Ns, &is));
        CHECK_OK(co, lcl_klu_refactor(co, &S, &A, No, &io));
        CHECK(!memcmp(Ns->Lx, No->Lx, (size_t)Ns->Lp[A.rows] * 8) && !memcmp(Ns->Ud, No->Ud, (size_t)A.rows * 8));
    }
    free(keep);
done:
    lcl_klu_numeric_free(Ns);
    lcl_klu_numeric_free(No);
    kt_sym_free(&S);
    lcl_csr_free(&A);
    lcl_context_destroy(cs);
    lcl_context_destroy(co);
}

/* dense tails: a block's last columns factored as one dense LU (partial pivoting), refactored
   without pivoting. Random unsymmetric matrices in natural order fill in, so tails start early;
   with tails everywhere (dense 0.01), the default, and none (-1) the checks of kt_check hold
   (refactor after solves, no allocation) and the solutions agree; a zero row gives a zero pivot
   inside the tail, in factor and in refactor. */
static void test_klu_dense_tail(void) {
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    static const double dens[] = {-1, 0, 0.01};
    int t, d;
    if (!ctx) return;
    for (t = 0; t < 2; t++)
        for (d = 0; d < 3; d++) {
            lcl_csr A;
            lcl_dtype dt = t ? LCL_F32 : LCL_F64;
            kt_dense = dens[d];
            kt_random(ctx, dt, 301, 0.03, 1.0, &A);
            kt_check(ctx, dens[d] < 0 ? "random 301, no tail" : "random 301, tail", &A, 0, LCL_KLU_SCALE_DEFAULT, 1.0);
            lcl_csr_free(&A);
            kt_random(ctx, dt, 97, 0.05, 0.2, &A);
            kt_check(ctx, "random 97", &A, 1, LCL_KLU_SCALE_NONE, t ? 1.0 : 0);
            lcl_csr_free(&A);
        }
    kt_dense = 0;
    {   /* the tail is there, and solutions with and without it agree */
        lcl_csr A;
        lcl_klu_symbolic S;
        lcl_klu_numeric *N1 = NULL, *N2 = NULL;
        int64_t n = 200, i;
        double *x1, *x2, dx = 0, xn = 0;
        kt_random(ctx, LCL_F64, n, 0.04, 1.0, &A);
        kt_symbolic(&A, 0, &S);
        S.opts.tol = 1;
        S.opts.dense = -1;
        CHECK_OK(ctx, lcl_klu_factor(ctx, &S, &A, &N1, NULL));
        S.opts.dense = 0;
        CHECK_OK(ctx, lcl_klu_factor(ctx, &S, &A, &N2, NULL));
        if (N1 && N2) {
            CHECK(N1->tail[0] == n && N2->tail[0] < n - LCL__KLU_TAIL_MIN);
            x1 = (double *)kt_rhs(LCL_F64, n, 1, n);
            x2 = (double *)malloc((size_t)n * 8);
            memcpy(x2, x1, (size_t)n * 8);
            CHECK_OK(ctx, lcl_klu_solve(ctx, &S, N1, 1, x1, n));
            CHECK_OK(ctx, lcl_klu_solve(ctx, &S, N2, 1, x2, n));
            for (i = 0; i < n; i++) { dx = fmax(dx, fabs(x1[i] - x2[i])); xn = fmax(xn, fabs(x1[i])); }
            CHECK_MSG(dx <= 1e-9 * xn, "tail vs no tail: |dx| %g |x| %g", dx, xn);
            free(x1); free(x2);
        }
        lcl_klu_numeric_free(N1); lcl_klu_numeric_free(N2);
        N1 = N2 = NULL;
        {
            double *v;
            lcl_klu_info info;
            int64_t p, q;
            lcl_csr_free(&A);
            kt_random(ctx, LCL_F64, n, 0.04, 1.0, &A);
            /* row n-1 zero: singular in any order, found in the last column of the tail */
            v = (double *)A.val;
            for (p = A.ptr[n - 1]; p < A.ptr[n]; p++) v[p] = 0;
            kt_sym_free(&S);
            kt_symbolic(&A, 0, &S);
            S.opts.tol = 1;
            memset(&info, 0, sizeof info);
            CHECK(lcl_klu_factor(ctx, &S, &A, &N1, &info) == LCL_ERR_SINGULAR && N1 == NULL);
            CHECK(info.singular_col >= 0 && info.singular_col < n);
            /* a good factorization, then refactor with the zero row: singular in refactor */
            for (p = A.ptr[n - 1], q = 1; p < A.ptr[n]; p++, q++) v[p] = 0.5 + 0.1 * (double)q;
            CHECK_OK(ctx, lcl_klu_factor(ctx, &S, &A, &N1, &info));
            CHECK(N1 && N1->tail[0] < n);
            for (p = A.ptr[n - 1]; p < A.ptr[n]; p++) v[p] = 0;
            info.singular_col = -1;
            CHECK(N1 && lcl_klu_refactor(ctx, &S, &A, N1, &info) == LCL_ERR_SINGULAR);
            CHECK(info.singular_col >= 0 && info.singular_col < n);
            CHECK(strstr(lcl_last_error(ctx), "singular") != NULL);
            lcl_klu_numeric_free(N1);
        }
        /* every allocation of a factor with a tail failing in turn: a clean error, nothing leaked */
        {
            long k, out0;
            kt_sym_free(&S);
            lcl_csr_free(&A);
            kt_random(ctx, LCL_F64, n, 0.04, 1.0, &A);
            kt_symbolic(&A, 0, &S);
            S.opts.tol = 1;
            out0 = lt_alloc_outstanding();
            for (k = 1; k < 80; k++) {
                lcl_status st;
                N1 = NULL;
                lt_alloc_fail_at(k);
                st = lcl_klu_factor(ctx, &S, &A, &N1, NULL);
                lt_alloc_fail_at(0);
                if (st == LCL_OK) { CHECK(N1 && N1->tail[0] < n); lcl_klu_numeric_free(N1); break; }
                CHECK_MSG(st == LCL_ERR_OUT_OF_MEMORY && N1 == NULL, "allocation %ld failing: %s", k, lcl_last_error(ctx));
            }
            CHECK(k < 80 && lt_alloc_outstanding() == out0);
        }
        kt_sym_free(&S);
        lcl_csr_free(&A);
    }
    lcl_context_destroy(ctx);
}

/* iterative refinement: gen:circuit in natural order inside its blocks with the default threshold
   (0.001) loses digits to pivot growth; the default (refine when the reciprocal growth is below
   1e-3) brings the residuals of solve and tsolve (two right-hand sides) to rounding level, in
   double and float; refine = -1 turns it off and then the residual is what the factors give. */
static void test_klu_refine(void) {
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int t, tr, off;
    if (!ctx) return;
    for (t = 0; t < 2; t++) {
        lcl_coo C;
        lcl_csr A;
        lcl_dtype dt = t ? LCL_F32 : LCL_F64;
        size_t es = t ? 4 : 8;
        CHECK_OK(ctx, lclg_gen_coo(ctx, "circuit:3000", 2, dt, &C, NULL, 0));
        CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, &A));
        for (off = 0; off < 2; off++) {
            lcl_klu_symbolic S;
            lcl_klu_numeric *N = NULL;
            lcl_klu_info info;
            int64_t n = A.rows;
            kt_symbolic(&A, 1, &S);
            S.opts.refine = off ? -1 : 0;
            CHECK_OK(ctx, lcl_klu_factor(ctx, &S, &A, &N, &info));
            if (N) {
                CHECK_MSG(info.growth < 1e-3, "circuit:3000 natural order: growth %g, expected below 1e-3", info.growth);
                CHECK(N->refine == (off ? 0 : 2));
                for (tr = 0; tr < 2; tr++) {
                    void *b = kt_rhs(dt, n, 2, n), *x = malloc((size_t)(2 * n) * es);
                    double r;
                    memcpy(x, b, (size_t)(2 * n) * es);
                    CHECK_OK(ctx, tr ? lcl_klu_tsolve(ctx, &S, N, 2, x, n) : lcl_klu_solve(ctx, &S, N, 2, x, n));
                    r = kt_resid(&A, tr, x, b, 2, n);
                    if (!off) CHECK_MSG(r <= (t ? 1e-6 : 1e-15), "refined %s residual %g (%s)", tr ? "tsolve" : "solve", r, t ? "float" : "double");
                    if (getenv("LT_KLU_VERBOSE")) printf("  refine %s %s: growth %.2g residual %.2g\n", off ? "off" : "auto", tr ? "tsolve" : "solve", info.growth, r);
                    free(b); free(x);
                }
            }
            lcl_klu_numeric_free(N);
            kt_sym_free(&S);
        }
        lcl_csr_free(&A);
        lcl_coo_free(&C);
    }
    lcl_context_destroy(ctx);
}

void lt_suite_klu(void) {
    LT_RUN(test_klu_small);
    LT_RUN(test_klu_offdiag_pivots);
    LT_RUN(test_klu_real);
    LT_RUN(test_klu_circuit);
    LT_RUN(test_klu_errors);
    LT_RUN(test_klu_openmp);
    LT_RUN(test_klu_openmp_singular);
    LT_RUN(test_klu_dense_tail);
    LT_RUN(test_klu_refine);
}
#endif
