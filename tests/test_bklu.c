/* test_bklu.c -- the block-aware sparse LU (>>bklu, >>bklu-opencl): lcl_bklu_analyze / factor /
   refactor / solve on J (x) B (B = M*I + uniform[-0.5, 0.5] off the diagonal), on blocks that are
   each their own random well-conditioned matrix (no Kronecker product), on blocks whose (0,0)
   entry is zero (pivoting inside the pivot blocks needed) and on gen's hb:BASE.mtx:M. Each matrix
   is built here from J's entries in both block-compressed forms (by_row 0 and 1) and, from the
   same blocks, as an expanded scalar CSR: residuals ||b - A x|| / (||A|| ||x||) by that matrix
   (double) and by lcl_bmat_mv, solutions against lcl_gesv of the expanded matrix (small sizes)
   and, M = 1, against the scalar lcl_klu; the block counts of L and U against the scalar KLU of J
   (J (x) B has J's pivot order) and exact counts, levels and flops where the pattern gives them;
   refactor with new values of the same pattern (no allocation on the CPU backends), then the new
   matrix's solution; singular pivot blocks (where, and the row inside the block), structurally
   singular patterns, NaN and Inf by block, bad input; OpenMP against serial (factors bit for
   bit); OpenCL on PoCL, one device and two in a child (POCL_DEVICES="pthread pthread"), against
   the serial results.
   Sizes n = 1, 2, 17, 150 block columns, M = 1, 2, 3, 8, 17, 33, nrhs 1 and 3 with ldb > n M,
   double and float (looser bounds), opts.nopivot, the orderings, no_btf and the row scalings.

   Compiled inside tests/run_tests.c after test_klu.c (its kt_ helpers: kt_u, kt_rhs, kt_random;
   struct lcl_bklu_numeric); compiled alone it is empty. */
#ifndef LINALG_CL_IMPLEMENTATION_INCLUDED
typedef int lt_bklu_compiled_in_run_tests;
#else
#include "../tools/lcl_gen.h"
#include <sys/wait.h>
#include <unistd.h>

/* 1 where >>bklu-opencl factors on the devices (its arenas are defined): OpenCL contexts must
   then report info.devices >= 1 and a tiny opts.mem_limit must fail with LCL_ERR_DEVICE_MEMORY.
   0 while it is a stub (the host factors; the OpenCL tests then check the same results through
   the OpenCL context). */
#if defined(LCL__BKLU_ARENAS) && !defined(LINALG_CL_NO_OPENCL)
#define BT_DEVICE_PATH 1
#else
#define BT_DEVICE_PATH 0
#endif
#define BT_DENSE_MAX 640        /* expanded sizes up to which lcl_gesv's solution is compared */

enum { BT_KRON, BT_RAND, BT_ZERO00, BT_SINGB };
static const char *const bt_kinds[] = {"J(x)B", "random blocks", "zero (0,0)", "J(x)B, B singular"};

typedef struct bt_case {
    lcl_csr J;                  /* n x n, J's values (double); library-allocated */
    int64_t m;
    int kind, sing;             /* BT_SINGB: B's zero column */
    double xtol;                /* 0: the default bound on |x - x_gesv| / |x_gesv| */
    double *blk;                /* J.nnz blocks in J's entry order, m x m row-major, rounded to A's dtype */
    int64_t *ord;               /* A's block q is J's entry ord[q] */
    lcl_bmat A;                 /* the matrix under test */
    int64_t *ep;                /* the expanded matrix, nm x nm: CSR in double */
    int32_t *ei;
    double *ev;
} bt_case;

/* bounds: the residual about 17 units of rounding (the worst measured here 0.15 of it); the
   solution against lcl_gesv's 1e-11 / 1e-4 (worst 5e-14 / 7e-6) */
static double bt_rtol(lcl_dtype dt) { return dt == LCL_F32 ? 2e-6 : 4e-15; }
static double bt_xtol(lcl_dtype dt) { return dt == LCL_F32 ? 1e-4 : 1e-11; }
/* max that keeps a NaN (fmax drops it: a NaN solution would pass) */
static double bt_max(double a, double b) { return a != a || b != b ? a + b : a > b ? a : b; }
static int bt_cpu(const lcl_context *ctx) { return lcl_context_backend(ctx) != LCL_BACKEND_OPENCL; }
static double bt_get(lcl_dtype dt, const void *p, int64_t i) { return dt == LCL_F32 ? (double)((const float *)p)[i] : ((const double *)p)[i]; }
static void bt_put(lcl_dtype dt, void *p, int64_t i, double v) {
    if (dt == LCL_F32) ((float *)p)[i] = (float)v;
    else ((double *)p)[i] = v;
}

/* B = M*I + uniform[-0.5, 0.5] off the diagonal: strictly diagonally dominant, cond <= 3 */
static void bt_base(int64_t m, double *B) {
    int64_t i, j;
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++) B[i * m + j] = i == j ? (double)m : kt_u() - 0.5;
}
/* the shared B of the Kronecker kinds: zero (0,0) is a dominant C with C(1,0) = 0 and its first
   two rows swapped (as well-conditioned); B singular has column sing zero (rank M - 1) */
static void bt_base_kind(const bt_case *c, double *B) {
    int64_t m = c->m, j;
    bt_base(m, B);
    if (c->kind == BT_ZERO00 && m > 1) {
        B[m] = 0;
        for (j = 0; j < m; j++) {
            double t = B[j];
            B[j] = B[m + j];
            B[m + j] = t;
        }
    }
    if (c->kind == BT_SINGB)
        for (j = 0; j < m; j++) B[j * m + c->sing] = 0;
}
/* the blocks (blk) into A and into the expanded matrix: row i m + r holds row r of each block of
   J's row i */
static void bt_sync(bt_case *c) {
    int64_t m = c->m, mm = m * m, n = c->J.rows, p, q, i, r, cc, e = 0;
    for (q = 0; q < c->A.nnzb; q++)
        for (p = 0; p < mm; p++) bt_put(c->A.dtype, c->A.val, q * mm + p, c->blk[c->ord[q] * mm + p]);
    for (i = 0; i < n; i++)
        for (r = 0; r < m; r++)
            for (p = c->J.ptr[i]; p < c->J.ptr[i + 1]; p++)
                for (cc = 0; cc < m; cc++) c->ev[e++] = c->blk[p * mm + r * m + cc];
}
/* the blocks from J's values: block p = J_p B, or J_p times its own dominant matrix */
static void bt_fill(bt_case *c) {
    int64_t m = c->m, mm = m * m, p, q;
    double *B = (double *)malloc((size_t)mm * sizeof(double));
    lcl_dtype dt = c->A.dtype;
    if (c->kind != BT_RAND) bt_base_kind(c, B);
    for (p = 0; p < c->J.nnz; p++) {
        double v = ((const double *)c->J.val)[p], *d = c->blk + p * mm;
        if (c->kind == BT_RAND) bt_base(m, B);
        for (q = 0; q < mm; q++) d[q] = dt == LCL_F32 ? (double)(float)(v * B[q]) : v * B[q];
    }
    free(B);
    bt_sync(c);
}
/* in every block, rows 1 and 2 of column 0 alike and above row 0 by less than a pivot key's
   resolution (BK_KEY: the top 32 bits of a double); in float all three equal */
static void bt_ties(bt_case *c) {
    int64_t m = c->m, mm = m * m, p;
    for (p = 0; m > 2 && p < c->J.nnz; p++) {
        double *d = c->blk + p * mm, v = d[0] * (1 + ldexp(1, -40));
        d[m] = d[2 * m] = c->A.dtype == LCL_F32 ? (double)(float)v : v;
    }
    bt_sync(c);
}
/* J's entry (i, j), or -1 */
static int64_t bt_entry(const bt_case *c, int64_t i, int64_t j) {
    int64_t p;
    if (i < 0 || i >= c->J.rows) return -1;
    for (p = c->J.ptr[i]; p < c->J.ptr[i + 1]; p++)
        if (c->J.col[p] == j) return p;
    return -1;
}
/* c from J (taken over), block size m, kind, dtype, form */
static void bt_make(bt_case *c, lcl_csr *J, int64_t m, int kind, lcl_dtype dt, int by_row) {
    int64_t n = J->rows, nz = J->nnz, mm = m * m, i, p, r, cc, e = 0;
    memset(c, 0, sizeof *c);
    c->J = *J;
    memset(J, 0, sizeof *J);
    c->m = m;
    c->kind = kind;
    c->sing = (int)(m / 2);
    c->A.n = n;
    c->A.m = m;
    c->A.nnzb = nz;
    c->A.dtype = dt;
    c->A.by_row = by_row;
    c->A.ptr = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    c->A.idx = (int32_t *)malloc((size_t)(nz + 1) * sizeof(int32_t));
    c->A.val = malloc((size_t)(nz * mm + 1) * lcl__dsize(dt));
    c->ord = (int64_t *)malloc((size_t)(nz + 1) * sizeof(int64_t));
    c->blk = (double *)malloc((size_t)(nz * mm + 1) * sizeof(double));
    if (by_row) {
        for (i = 0; i <= n; i++) c->A.ptr[i] = c->J.ptr[i];
        for (p = 0; p < nz; p++) {
            c->A.idx[p] = c->J.col[p];
            c->ord[p] = p;
        }
    } else {   /* by columns: J's rows in order, so each column's rows come out sorted */
        int64_t *next = (int64_t *)calloc((size_t)n + 1, sizeof(int64_t));
        for (p = 0; p < nz; p++) next[c->J.col[p] + 1]++;
        for (i = 0; i < n; i++) next[i + 1] += next[i];
        for (i = 0; i <= n; i++) c->A.ptr[i] = next[i];
        for (i = 0; i < n; i++)
            for (p = c->J.ptr[i]; p < c->J.ptr[i + 1]; p++) {
                int64_t q = next[c->J.col[p]]++;
                c->A.idx[q] = (int32_t)i;
                c->ord[q] = p;
            }
        free(next);
    }
    c->ep = (int64_t *)malloc((size_t)(n * m + 1) * sizeof(int64_t));
    c->ei = (int32_t *)malloc((size_t)(nz * mm + 1) * sizeof(int32_t));
    c->ev = (double *)malloc((size_t)(nz * mm + 1) * sizeof(double));
    for (i = 0; i < n; i++)
        for (r = 0; r < m; r++) {
            c->ep[i * m + r] = e;
            for (p = c->J.ptr[i]; p < c->J.ptr[i + 1]; p++)
                for (cc = 0; cc < m; cc++) c->ei[e++] = (int32_t)(c->J.col[p] * m + cc);
        }
    c->ep[n * m] = e;
    bt_fill(c);
}
static void bt_free(bt_case *c) {
    lcl_csr_free(&c->J);
    free(c->blk); free(c->ord); free(c->A.ptr); free(c->A.idx); free(c->A.val);
    free(c->ep); free(c->ei); free(c->ev);
    memset(c, 0, sizeof *c);
}
/* new values, same pattern: J's values moved by up to 5% (its pivot order stays good), every block
   new (a new B for the Kronecker kinds) */
static void bt_new_values(bt_case *c) {
    int64_t p;
    for (p = 0; p < c->J.nnz; p++) ((double *)c->J.val)[p] *= 1 + 0.05 * (2 * kt_u() - 1);
    bt_fill(c);
}
/* J from entries (i, j, v): a pattern given by hand */
static void bt_J(lcl_csr *J, int64_t n, const double (*e)[3], int cnt) {
    lcl_coo C;
    int k;
    CHECK_OK(NULL, lcl_coo_alloc(NULL, &C, LCL_F64, n, n, cnt));
    for (k = 0; k < cnt; k++) CHECK_OK(NULL, lcl_coo_push(NULL, &C, (int64_t)e[k][0], (int64_t)e[k][1], e[k][2]));
    CHECK_OK(NULL, lcl_coo_canonicalize(NULL, &C));
    CHECK_OK(NULL, lcl_csr_from_coo(NULL, &C, J));
    lcl_coo_free(&C);
}
/* a random J: n x n, density d off the diagonal, the diagonal present (kt_random) */
static void bt_Jrand(lcl_csr *J, int64_t n, double d) {
    lcl_context *s = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    kt_random(s, LCL_F64, n, d, 1.0, J);
    lcl_context_destroy(s);
}
/* J from a real matrix (NULL when absent: the note is printed) */
static int bt_Jfile(lcl_csr *J, const char *name) {
    char path[512];
    lcl_coo C;
    if (!lt_matrix_optional(path, sizeof path, name)) return 0;
    if (lcl_mm_read(NULL, path, LCL_F64, LCL_MM_EXPAND, &C, NULL) != LCL_OK) { CHECK_MSG(0, "%s unreadable", path); return 0; }
    CHECK_OK(NULL, lcl_csr_from_coo(NULL, &C, J));
    lcl_coo_free(&C);
    return 1;
}

/* max over the right-hand sides of ||b - A x||_inf / (||A||_inf ||x||_inf): A x by the expanded
   matrix in double (mv 0) or by lcl_bmat_mv in A's dtype (mv 1) */
static double bt_resid(const bt_case *c, const void *x, const void *b, int64_t nrhs, int64_t ldb, int mv) {
    lcl_dtype dt = c->A.dtype;
    int64_t nm = c->A.n * c->m, i, p, k;
    double an = 0, worst = 0;
    void *y = malloc((size_t)nm * lcl__dsize(dt));
    for (i = 0; i < nm; i++) {
        double s = 0;
        for (p = c->ep[i]; p < c->ep[i + 1]; p++) s += fabs(c->ev[p]);
        if (s > an) an = s;
    }
    for (k = 0; k < nrhs; k++) {
        const char *xk = (const char *)x + (size_t)(k * ldb) * lcl__dsize(dt);
        double rn = 0, xn = 0;
        if (mv) CHECK(lcl_bmat_mv(&c->A, xk, y) == LCL_OK);
        for (i = 0; i < nm; i++) {
            double ax = 0;
            if (mv) ax = bt_get(dt, y, i);
            else
                for (p = c->ep[i]; p < c->ep[i + 1]; p++) ax += c->ev[p] * bt_get(dt, xk, c->ei[p]);
            rn = bt_max(rn, fabs(bt_get(dt, b, k * ldb + i) - ax));
            xn = bt_max(xn, fabs(bt_get(dt, xk, i)));
        }
        worst = bt_max(worst, rn / (an * xn));
    }
    free(y);
    return worst;
}
/* max |x - y| / max |y| over nm rows of nrhs columns (x: dtype dt, ld ldx; y likewise) */
static double bt_diff(lcl_dtype dt, const void *x, int64_t ldx, lcl_dtype dty, const void *y, int64_t ldy, int64_t nm, int64_t nrhs) {
    double d = 0, yn = 0;
    int64_t i, k;
    for (k = 0; k < nrhs; k++)
        for (i = 0; i < nm; i++) {
            double u = bt_get(dt, x, k * ldx + i), v = bt_get(dty, y, k * ldy + i);
            d = bt_max(d, fabs(u - v));
            yn = bt_max(yn, fabs(v));
        }
    return yn > 0 ? d / yn : d;
}
/* x against the dense LU's solution of the expanded matrix (double, a serial context) */
static double bt_vs_dense(const bt_case *c, const void *x, const void *b, int64_t nrhs, int64_t ldb) {
    lcl_context *s = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    lcl_dtype dt = c->A.dtype;
    int64_t nm = c->A.n * c->m, i, p, k, info = 0;
    int32_t *ipiv = (int32_t *)malloc((size_t)nm * sizeof(int32_t));
    lcl_dense D, X;
    double d = 1e300;
    if (s && lcl_dense_alloc(s, &D, LCL_F64, LCL_COL_MAJOR, nm, nm) == LCL_OK) {
        if (lcl_dense_alloc(s, &X, LCL_F64, LCL_COL_MAJOR, nm, nrhs) == LCL_OK) {
            for (i = 0; i < nm; i++)
                for (p = c->ep[i]; p < c->ep[i + 1]; p++) lcl_dense_set(&D, i, c->ei[p], c->ev[p]);
            for (k = 0; k < nrhs; k++)
                for (i = 0; i < nm; i++) lcl_dense_set(&X, i, k, bt_get(dt, b, k * ldb + i));
            CHECK_OK(s, lcl_gesv(s, &D, ipiv, &X, &info));
            d = bt_diff(dt, x, ldb, LCL_F64, X.data, X.ld, nm, nrhs);
            lcl_dense_free(&X);
        }
        lcl_dense_free(&D);
    }
    free(ipiv);
    lcl_context_destroy(s);
    return d;
}
/* J (x) B keeps J's pivot order: the block counts are those of the scalar KLU of J, same options.
   Only without scaling or with SUM: the MAX scaling multiplies by 1 / max, which leaves many
   entries within an ulp of 1, so the order of those near-ties follows the representatives'
   rounding (a KLU of J multiplied by 1 + 1e-15 already pivots differently) */
static int bt_klu_comparable(const lcl_bklu_opts *o) {
    return o && (o->klu.scale == LCL_KLU_SCALE_NONE || o->klu.scale == LCL_KLU_SCALE_SUM);
}
static void bt_vs_klu(const bt_case *c, const lcl_bklu_opts *o, const lcl_bklu_info *bi, const char *name) {
    lcl_klu_opts ko;
    lcl_klu_symbolic *S = NULL;
    lcl_klu_numeric *N = NULL;
    lcl_klu_info ki;
    memset(&ko, 0, sizeof ko);
    if (o) ko = o->klu;
    if (!(ko.tol > 0)) ko.tol = 1;
    ko.dense = -1;
    ko.refine = -1;
    CHECK_OK(NULL, lcl_klu_analyze(NULL, &c->J, &ko, &S, &ki));
    if (S) CHECK_OK(NULL, lcl_klu_factor(NULL, S, &c->J, &N, &ki));
    if (N)
        CHECK_MSG(ki.blocks == bi->blocks && ki.nnz_u == bi->nnzb_u && ki.nnz_l - c->J.rows == bi->nnzb_l,
                  "%s: blocks %lld, L %lld, U %lld blocks; the scalar KLU of J: %lld, %lld, %lld", name, (long long)bi->blocks,
                  (long long)bi->nnzb_l, (long long)bi->nnzb_u, (long long)ki.blocks, (long long)(ki.nnz_l - c->J.rows),
                  (long long)ki.nnz_u);
    lcl_klu_numeric_free(N);
    lcl_klu_symbolic_free(S);
}
/* info after a factor or refactor */
static void bt_info_ok(const lcl_context *ctx, const bt_case *c, const lcl_bklu_info *in, int64_t blocks, const char *name) {
    int64_t n = c->A.n;
    double m3 = (double)c->m * (double)c->m * (double)c->m;
    CHECK_MSG(in->n == n && in->m == c->m && in->nnzb == c->A.nnzb && in->blocks == blocks, "%s: info n %lld m %lld nnzb %lld blocks %lld",
              name, (long long)in->n, (long long)in->m, (long long)in->nnzb, (long long)in->blocks);
    /* every pivot block in U, L+U holding A's blocks when there is one diagonal block */
    CHECK_MSG(in->nnzb_u >= n && in->nnzb_l >= 0 && in->nnzb_l <= n * (n - 1) / 2 && in->nnzb_u <= n * (n + 1) / 2 &&
              (blocks > 1 || in->nnzb_l + in->nnzb_u >= c->A.nnzb),
              "%s: nnzb_l %lld nnzb_u %lld (n %lld nnzb %lld)", name, (long long)in->nnzb_l, (long long)in->nnzb_u, (long long)n,
              (long long)c->A.nnzb);
    CHECK_MSG(in->levels >= 1 && in->levels <= n, "%s: levels %lld", name, (long long)in->levels);
    CHECK_MSG(in->flops >= (double)n * 2.0 / 3.0 * m3 * (1 - 1e-12), "%s: flops %g, the pivot blocks alone take %g", name, in->flops,
              (double)n * 2.0 / 3.0 * m3);
    CHECK_MSG(in->singular_col == -1 && in->singular_row == -1 && in->singular_index == -1, "%s: singular %lld %lld %lld", name,
              (long long)in->singular_col, (long long)in->singular_row, (long long)in->singular_index);
    if (bt_cpu(ctx))
        CHECK_MSG(in->devices == 0 && in->transfers == 0 && in->evictions == 0, "%s: CPU backend: devices %d transfers %lld evictions %lld",
                  name, in->devices, (long long)in->transfers, (long long)in->evictions);
    else {
        CHECK_MSG(in->devices >= (BT_DEVICE_PATH ? 1 : 0) && in->devices <= lcl_context_num_devices(ctx) && in->transfers >= 0 &&
                  in->evictions >= 0 && (in->devices == 0 || in->transfers > 0),
                  "%s: OpenCL: devices %d of %d, transfers %lld, evictions %lld", name, in->devices, lcl_context_num_devices(ctx),
                  (long long)in->transfers, (long long)in->evictions);
    }
}

/* analyze, factor, solve nrhs right-hand sides (ldb = nm + 3: the rows past nm must stay), the
   residuals by both products, the solution against lcl_gesv's (nm <= BT_DENSE_MAX), info (J (x) B:
   the counts of J's scalar KLU); then new values of the same pattern: refactor (no allocation on
   the CPU backends), the new matrix's residuals, a solution that moved, and a fresh factor's
   solution. Returns 1 when every call succeeded. */
static int bt_check(lcl_context *ctx, bt_case *c, const lcl_bklu_opts *o, int64_t nrhs, const char *name) {
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N = NULL, *N2 = NULL;
    lcl_bklu_info ia, info;
    lcl_dtype dt = c->A.dtype;
    size_t es = lcl__dsize(dt);
    int64_t n = c->A.n, nm = n * c->m, ldb = nm + 3, k, ok = 0;
    double rtol = bt_rtol(dt), xtol = c->xtol > 0 ? c->xtol : bt_xtol(dt), r0, r1, dx, t0;
    void *b = kt_rhs(dt, nm, nrhs, ldb), *x = malloc((size_t)(ldb * nrhs) * es), *x2 = malloc((size_t)(ldb * nrhs) * es);
    char full[200];
    snprintf(full, sizeof full, "%s (%s, %s, n %lld, M %lld, by_row %d, nrhs %lld, nopivot %d, ordering %d, no_btf %d, scale %d, %s)", name,
             bt_kinds[c->kind], dt == LCL_F32 ? "float" : "double", (long long)n, (long long)c->m, c->A.by_row, (long long)nrhs,
             o ? o->nopivot : 0, o ? (int)o->klu.ordering : 0, o ? o->klu.no_btf : 0, o ? (int)o->klu.scale : 0,
             lcl_backend_name(lcl_context_backend(ctx)));
    memcpy(x, b, (size_t)(ldb * nrhs) * es);
    memset(&ia, 0x5a, sizeof ia);
    CHECK_OK(ctx, lcl_bklu_analyze(ctx, &c->A, o, &S, &ia));
    if (!S) goto done;
    CHECK_MSG(ia.n == n && ia.m == c->m && ia.nnzb == c->A.nnzb && ia.blocks >= 1 && ia.blocks <= n && ia.singular_col == -1 &&
              ia.singular_row == -1 && ia.singular_index == -1, "%s: analyze's info", full);
    t0 = kt_now();
    CHECK_OK(ctx, lcl_bklu_factor(ctx, S, &c->A, &N, &info));
    if (!N) goto done;
    if (getenv("LT_BKLU_VERBOSE"))
        fprintf(stderr, "  %s: L+U %lld blocks (A %lld), levels %lld, %.3g Gflop in %.3f s\n", full, (long long)(info.nnzb_l + info.nnzb_u),
               (long long)c->A.nnzb, (long long)info.levels, 1e-9 * info.flops, kt_now() - t0);
    bt_info_ok(ctx, c, &info, ia.blocks, full);
    if (c->kind == BT_KRON && bt_klu_comparable(o)) bt_vs_klu(c, o, &info, full);
    CHECK_OK(ctx, lcl_bklu_solve(ctx, S, N, nrhs, x, ldb));
    for (k = 0; k < nrhs; k++)
        CHECK_MSG(!memcmp((char *)x + (size_t)(k * ldb + nm) * es, (char *)b + (size_t)(k * ldb + nm) * es, 3 * es),
                  "%s: solve wrote rows past n M", full);
    r0 = bt_resid(c, x, b, nrhs, ldb, 0);
    r1 = bt_resid(c, x, b, nrhs, ldb, 1);
    CHECK_MSG(r0 <= rtol && r1 <= rtol, "%s: residual %.3g (expanded) %.3g (lcl_bmat_mv), bound %.1g", full, r0, r1, rtol);
    dx = nm <= BT_DENSE_MAX ? bt_vs_dense(c, x, b, nrhs, ldb) : 0;
    CHECK_MSG(dx <= xtol, "%s: |x - x_gesv| / |x_gesv| = %.3g, bound %.1g", full, dx, xtol);
    if (getenv("LT_BKLU_VERBOSE")) fprintf(stderr, "  %s: residuals %.3g %.3g (bound %.1g), vs gesv %.3g (bound %.1g)\n", full, r0, r1, rtol, dx, xtol);
    /* new values, same pattern */
    bt_new_values(c);
    lt_alloc_fail_at(0);
    CHECK_OK(ctx, lcl_bklu_refactor(ctx, S, &c->A, N, &info));
    if (bt_cpu(ctx)) CHECK_MSG(lt_alloc_calls() == 0, "%s: refactor made %ld allocation calls", full, lt_alloc_calls());
    bt_info_ok(ctx, c, &info, ia.blocks, full);
    memcpy(x2, b, (size_t)(ldb * nrhs) * es);
    CHECK_OK(ctx, lcl_bklu_solve(ctx, S, N, nrhs, x2, ldb));
    r0 = bt_resid(c, x2, b, nrhs, ldb, 0);
    r1 = bt_resid(c, x2, b, nrhs, ldb, 1);
    CHECK_MSG(r0 <= rtol && r1 <= rtol, "%s: after refactor, residual %.3g (expanded) %.3g (lcl_bmat_mv)", full, r0, r1);
    dx = bt_diff(dt, x2, ldb, dt, x, ldb, nm, nrhs);
    CHECK_MSG(dx > 1e-6, "%s: the solution after refactor with new values moved by %.3g only", full, dx);
    CHECK_OK(ctx, lcl_bklu_factor(ctx, S, &c->A, &N2, NULL));
    if (N2) {
        memcpy(x, b, (size_t)(ldb * nrhs) * es);
        CHECK_OK(ctx, lcl_bklu_solve(ctx, S, N2, nrhs, x, ldb));
        dx = bt_diff(dt, x2, ldb, dt, x, ldb, nm, nrhs);
        CHECK_MSG(dx <= xtol, "%s: refactor's solution and a new factor's differ by %.3g", full, dx);
        ok = 1;
    }
done:
    lcl_bklu_numeric_free(N);
    lcl_bklu_numeric_free(N2);
    lcl_bklu_symbolic_free(S);
    free(b); free(x); free(x2);
    return (int)ok;
}

/* every size and block size, both kinds, both forms, double and float, nrhs 1 and 3, pivoting on
   and off, on a serial context */
static void test_bklu_small(void) {
    static const int64_t ns[] = {1, 2, 17}, ms[] = {1, 2, 3, 8, 17, 33};
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int t, si, mi, kind, by_row, runs = 0, ok = 0;
    if (!ctx) return;
    kt_rs = 0x1234567u;
    for (t = 0; t < 2; t++)
        for (si = 0; si < 3; si++)
            for (mi = 0; mi < 6; mi++)
                for (kind = BT_KRON; kind <= BT_RAND; kind++)
                    for (by_row = 0; by_row < 2; by_row++) {
                        bt_case c;
                        lcl_csr J;
                        lcl_bklu_opts o;
                        memset(&o, 0, sizeof o);
                        o.nopivot = (mi + by_row + kind) % 3 == 2;
                        o.klu.scale = (lcl_klu_scaling)((mi + si + t) % 4);
                        bt_Jrand(&J, ns[si], ns[si] > 2 ? 0.15 : 0.5);
                        bt_make(&c, &J, ms[mi], kind, t ? LCL_F32 : LCL_F64, by_row);
                        ok += bt_check(ctx, &c, &o, (mi + by_row) % 2 ? 3 : 1, "random J");
                        runs++;
                        bt_free(&c);
                    }
    CHECK_MSG(ok == runs, "%d of %d cases ran through", ok, runs);
    lcl_context_destroy(ctx);
}

/* the same matrix in both forms: the same factors, so bit-identical solutions; each form checked */
static void test_bklu_forms(void) {
    static const int64_t ms[] = {1, 3, 8};
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int t, mi, kind;
    if (!ctx) return;
    kt_rs = 0x51ed2701u;
    for (t = 0; t < 2; t++)
        for (mi = 0; mi < 3; mi++)
            for (kind = BT_KRON; kind <= BT_RAND; kind++) {
                bt_case c[2];
                lcl_csr J[2];
                void *x[2];
                lcl_dtype dt = t ? LCL_F32 : LCL_F64;
                int64_t nm, f;
                uint64_t keep;
                bt_Jrand(&J[0], 40, 0.06);
                {   /* a copy of J for the second form */
                    lcl_coo C;
                    CHECK_OK(NULL, lcl_csr_to_coo(NULL, &J[0], &C));
                    CHECK_OK(NULL, lcl_csr_from_coo(NULL, &C, &J[1]));
                    lcl_coo_free(&C);
                }
                keep = kt_rs;
                bt_make(&c[0], &J[0], ms[mi], kind, dt, 0);
                kt_rs = keep;   /* the same blocks */
                bt_make(&c[1], &J[1], ms[mi], kind, dt, 1);
                nm = c[0].A.n * c[0].m;
                for (f = 0; f < 2; f++) {
                    lcl_bklu_symbolic *S = NULL;
                    lcl_bklu_numeric *N = NULL;
                    x[f] = malloc((size_t)nm * lcl__dsize(dt));
                    kt_rs = 99;
                    {
                        void *b = kt_rhs(dt, nm, 1, nm);
                        memcpy(x[f], b, (size_t)nm * lcl__dsize(dt));
                        free(b);
                    }
                    CHECK_OK(ctx, lcl_bklu_analyze(ctx, &c[f].A, NULL, &S, NULL));
                    CHECK_OK(ctx, lcl_bklu_factor(ctx, S, &c[f].A, &N, NULL));
                    CHECK_OK(ctx, lcl_bklu_solve(ctx, S, N, 1, x[f], nm));
                    lcl_bklu_numeric_free(N);
                    lcl_bklu_symbolic_free(S);
                }
                CHECK_MSG(!memcmp(x[0], x[1], (size_t)nm * lcl__dsize(dt)), "M %lld %s %s: by columns and by rows differ by %.3g",
                          (long long)ms[mi], bt_kinds[kind], t ? "float" : "double", bt_diff(dt, x[0], nm, dt, x[1], nm, nm, 1));
                bt_check(ctx, &c[0], NULL, 3, "forms");
                bt_check(ctx, &c[1], NULL, 3, "forms");
                free(x[0]); free(x[1]);
                bt_free(&c[0]); bt_free(&c[1]);
            }
    lcl_context_destroy(ctx);
}

/* lcl_bmat_from_csr: a scalar matrix cut into m x m blocks. Every entry lands in its block with
   its value, every other entry of a block is zero, block columns ascend; B x equals A x; the block
   LU of B solves A; bad sizes and arguments refused. Orders 1, 17 and 40 blocks, m 1, 2, 3, 8,
   double and single */
static void test_bklu_from_csr(void) {
    static const int64_t ms[] = {1, 2, 3, 8}, nbs[] = {1, 17, 40};
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int t, mi, ni;
    if (!ctx) return;
    kt_rs = 0xb10c5u;
    for (t = 0; t < 2; t++)
        for (mi = 0; mi < 4; mi++)
            for (ni = 0; ni < 3; ni++) {
                const lcl_dtype dt = t ? LCL_F32 : LCL_F64;
                const int64_t m = ms[mi], nb = nbs[ni], n = nb * m;
                lcl_coo C;
                lcl_csr A;
                lcl_bmat B;
                lcl_bklu_symbolic *S = NULL;
                lcl_bklu_numeric *N = NULL;
                double *x = (double *)malloc((size_t)n * sizeof(double)), *ax = (double *)calloc((size_t)n, sizeof(double));
                void *xb = malloc((size_t)n * 8), *bx = malloc((size_t)n * 8);
                int64_t i, k, p, bad = 0, seen = 0;
                double err = 0, amax = 0;
                /* a sparse pattern at the scalar level (blocks partly filled), the diagonal dominant */
                CHECK_OK(ctx, lcl_coo_alloc(ctx, &C, dt, n, n, 8 * n + 1));
                for (i = 0; i < n; i++) {
                    CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, i, 8.0 + kt_u()));
                    for (k = 0; k < 3; k++) {
                        int64_t j = (int64_t)(kt_rnd() % (uint64_t)n);
                        if (j != i) CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, j, kt_u() - 0.5));
                    }
                }
                CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, &A));
                lcl_coo_free(&C);
                CHECK_OK(ctx, lcl_bmat_from_csr(ctx, &A, m, &B));
                CHECK(B.n == nb && B.m == m && B.by_row == 1 && B.dtype == dt && B.ptr[0] == 0 && B.ptr[nb] == B.nnzb);
                /* each block: ascending, holding at least one entry of A; the entries where A has none zero */
                for (i = 0; i < nb; i++)
                    for (p = B.ptr[i]; p < B.ptr[i + 1]; p++) {
                        int64_t r, c, hit = 0;
                        if (p > B.ptr[i] && B.idx[p] <= B.idx[p - 1]) bad++;
                        for (r = 0; r < m; r++)
                            for (c = 0; c < m; c++) {
                                int64_t row = i * m + r, col = B.idx[p] * m + c, q, at = -1;
                                double want = 0, got = dt == LCL_F32 ? (double)((float *)B.val)[p * m * m + r * m + c]
                                                                      : ((double *)B.val)[p * m * m + r * m + c];
                                for (q = A.ptr[row]; q < A.ptr[row + 1]; q++)
                                    if (A.col[q] == col) at = q;
                                if (at >= 0) want = dt == LCL_F32 ? (double)((float *)A.val)[at] : ((double *)A.val)[at], hit++, seen++;
                                if (got != want) bad++;
                            }
                        if (!hit) bad++;
                    }
                CHECK_MSG(!bad && seen == A.nnz, "m %lld, %lld blocks, %s: %lld misplaced, %lld of %lld entries", (long long)m, (long long)nb,
                          t ? "float" : "double", (long long)bad, (long long)seen, (long long)A.nnz);
                /* B x = A x, then the block LU of B against A's residual */
                for (i = 0; i < n; i++) {
                    x[i] = kt_u() - 0.5;
                    if (dt == LCL_F32) ((float *)xb)[i] = (float)x[i], x[i] = ((float *)xb)[i];
                    else ((double *)xb)[i] = x[i];
                }
                for (i = 0; i < n; i++)
                    for (k = A.ptr[i]; k < A.ptr[i + 1]; k++)
                        ax[i] += (dt == LCL_F32 ? (double)((float *)A.val)[k] : ((double *)A.val)[k]) * x[A.col[k]];
                CHECK_OK(ctx, lcl_bmat_mv(&B, xb, bx));
                for (i = 0; i < n; i++) {
                    double d = fabs((dt == LCL_F32 ? (double)((float *)bx)[i] : ((double *)bx)[i]) - ax[i]);
                    err = d > err ? d : err;
                    amax = fabs(ax[i]) > amax ? fabs(ax[i]) : amax;
                }
                CHECK_MSG(err <= (t ? 1e-5 : 1e-13) * (amax + 1), "m %lld, %lld blocks: |B x - A x| %.3g", (long long)m, (long long)nb, err);
                CHECK_OK(ctx, lcl_bklu_analyze(ctx, &B, NULL, &S, NULL));
                CHECK_OK(ctx, lcl_bklu_factor(ctx, S, &B, &N, NULL));
                memcpy(bx, xb, (size_t)n * lcl__dsize(dt));   /* b = x, solved in place */
                CHECK_OK(ctx, lcl_bklu_solve(ctx, S, N, 1, bx, n));
                for (i = 0, err = 0; i < n; i++) {  /* |x - A y| with y the solution, b = x */
                    double r = x[i];
                    for (k = A.ptr[i]; k < A.ptr[i + 1]; k++)
                        r -= (dt == LCL_F32 ? (double)((float *)A.val)[k] : ((double *)A.val)[k]) *
                             (dt == LCL_F32 ? (double)((float *)bx)[A.col[k]] : ((double *)bx)[A.col[k]]);
                    err = fabs(r) > err ? fabs(r) : err;
                }
                CHECK_MSG(err <= (t ? 1e-4 : 1e-12), "m %lld, %lld blocks, %s: the block LU of B leaves |b - A y| = %.3g", (long long)m, (long long)nb,
                          t ? "float" : "double", err);
                lcl_bklu_numeric_free(N);
                lcl_bklu_symbolic_free(S);
                lcl_bmat_free(&B);
                CHECK(B.ptr == NULL && B.nnzb == 0);
                /* refused: the order not a multiple of m, m out of range, not square, no destination */
                if (m > 1 && n % (m + 1)) {
                    CHECK(lcl_bmat_from_csr(ctx, &A, m + 1, &B) == LCL_ERR_DIMENSION && B.ptr == NULL);
                    CHECK_MSG(strstr(lcl_last_error(ctx), "not a multiple") != NULL, "%s", lcl_last_error(ctx));
                }
                CHECK(lcl_bmat_from_csr(ctx, &A, 0, &B) == LCL_ERR_INVALID_ARGUMENT);
                CHECK(lcl_bmat_from_csr(ctx, &A, m, NULL) == LCL_ERR_INVALID_ARGUMENT);
                A.cols++;
                CHECK(lcl_bmat_from_csr(ctx, &A, 1, &B) == LCL_ERR_DIMENSION);
                A.cols--;
                CHECK(lcl_bmat_from_csr(ctx, NULL, m, &B) == LCL_ERR_INVALID_ARGUMENT);
                if (ni == 1 && mi == 0) {   /* NaN: refused with where it is */
                    if (dt == LCL_F32) ((float *)A.val)[A.nnz / 2] = NAN;
                    else ((double *)A.val)[A.nnz / 2] = NAN;
                    CHECK(lcl_bmat_from_csr(ctx, &A, m, &B) != LCL_OK && B.ptr == NULL);
                }
                lcl_csr_free(&A);
                free(x); free(ax); free(xb); free(bx);
            }
    lcl_context_destroy(ctx);
}

/* M = 1: A is J itself, so the block LU is the scalar KLU (tol 1, no dense tail): the same counts
   and the same solution to rounding, for each ordering and row scaling */
static void test_bklu_scalar(void) {
    static const lcl_klu_ordering ords[] = {LCL_KLU_AMD, LCL_KLU_COLAMD, LCL_KLU_NATURAL};
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int src, oi, sc;
    if (!ctx) return;
    kt_rs = 0xabcdefu;
    for (src = 0; src < 3; src++)
        for (oi = 0; oi < 3; oi++)
            for (sc = 0; sc < 4; sc++) {
                bt_case c;
                lcl_csr J;
                lcl_bklu_opts o;
                lcl_bklu_symbolic *S = NULL;
                lcl_bklu_numeric *N = NULL;
                lcl_bklu_info info;
                lcl_klu_symbolic *KS = NULL;
                lcl_klu_numeric *KN = NULL;
                int64_t n;
                double *b, *x, *y, dx;
                if (src == 2) {
                    if (!bt_Jfile(&J, "west0067.mtx")) continue;
                } else bt_Jrand(&J, src ? 150 : 17, src ? 0.02 : 0.2);
                bt_make(&c, &J, 1, BT_KRON, LCL_F64, (oi + sc) & 1);
                n = c.A.n;
                memset(&o, 0, sizeof o);
                o.klu.ordering = ords[oi];
                o.klu.scale = (lcl_klu_scaling)sc;
                o.klu.tol = 1;
                o.klu.dense = -1;
                o.klu.refine = -1;
                b = (double *)kt_rhs(LCL_F64, n, 1, n);
                x = (double *)malloc((size_t)n * sizeof(double));
                y = (double *)malloc((size_t)n * sizeof(double));
                memcpy(x, b, (size_t)n * sizeof(double));
                memcpy(y, b, (size_t)n * sizeof(double));
                CHECK_OK(ctx, lcl_bklu_analyze(ctx, &c.A, &o, &S, NULL));
                if (S) CHECK_OK(ctx, lcl_bklu_factor(ctx, S, &c.A, &N, &info));
                if (N) {
                    CHECK_OK(ctx, lcl_bklu_solve(ctx, S, N, 1, x, n));
                    if (bt_klu_comparable(&o)) bt_vs_klu(&c, &o, &info, "M = 1");
                }
                CHECK_OK(ctx, lcl_klu_analyze(ctx, &c.J, &o.klu, &KS, NULL));
                if (KS) CHECK_OK(ctx, lcl_klu_factor(ctx, KS, &c.J, &KN, NULL));
                if (KN) CHECK_OK(ctx, lcl_klu_solve(ctx, KS, KN, 1, y, n));
                dx = bt_diff(LCL_F64, x, n, LCL_F64, y, n, n, 1);
                CHECK_MSG(dx <= 1e-11, "M = 1, n %lld, ordering %d, scale %d: block LU and scalar KLU solutions differ by %.3g", (long long)n,
                          (int)ords[oi], sc, dx);
                CHECK(bt_resid(&c, x, b, 1, n, 0) <= bt_rtol(LCL_F64));
                lcl_klu_numeric_free(KN);
                lcl_klu_symbolic_free(KS);
                lcl_bklu_numeric_free(N);
                lcl_bklu_symbolic_free(S);
                free(b); free(x); free(y);
                bt_free(&c);
            }
    lcl_context_destroy(ctx);
}

/* each ordering (the user's a random permutation), BTF on and off, pivoting on and off, each row
   scaling: n 17 (M 3, every combination) and 150 (M 2) */
static void test_bklu_options(void) {
    static const lcl_klu_ordering ords[] = {LCL_KLU_AMD, LCL_KLU_COLAMD, LCL_KLU_NATURAL, LCL_KLU_USER};
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int oi, btf, piv, big, t, i = 0;
    if (!ctx) return;
    kt_rs = 0x77u;
    for (big = 0; big < 2; big++)
        for (oi = 0; oi < 4; oi++)
            for (btf = 0; btf < 2; btf++)
                for (piv = 0; piv < 2; piv++)
                    for (t = 0; t < 2; t++, i++) {
                        int64_t n = big ? 150 : 17, k;
                        int32_t *perm = (int32_t *)malloc((size_t)n * sizeof(int32_t));
                        bt_case c;
                        lcl_csr J;
                        lcl_bklu_opts o;
                        if (big && (i & (lt_valgrind() ? 7 : 1))) { free(perm); continue; }   /* n 150: half of them (memcheck: an eighth) */
                        for (k = 0; k < n; k++) perm[k] = (int32_t)k;
                        for (k = n - 1; k > 0; k--) {
                            int64_t j = (int64_t)(kt_u() * (double)(k + 1));
                            int32_t s = perm[k];
                            perm[k] = perm[j];
                            perm[j] = s;
                        }
                        memset(&o, 0, sizeof o);
                        o.klu.ordering = ords[oi];
                        o.klu.perm = ords[oi] == LCL_KLU_USER ? perm : NULL;
                        o.klu.no_btf = btf;
                        o.klu.scale = (lcl_klu_scaling)(i % 4);
                        o.nopivot = piv;
                        bt_Jrand(&J, n, big ? 0.02 : 0.15);
                        bt_make(&c, &J, big ? 2 : 3, (i / 2) % 2 ? BT_RAND : BT_KRON, t ? LCL_F32 : LCL_F64, i % 3 == 1);
                        bt_check(ctx, &c, &o, 1 + 2 * (i % 2), "options");
                        bt_free(&c);
                        free(perm);
                    }
    lcl_context_destroy(ctx);
}

/* n = 150 block columns with M up to 17 (OpenMP: 2 threads), and real patterns */
static void test_bklu_large(void) {
    static const int64_t ms[] = {2, 3, 8, 17};
    static const char *files[] = {"west0067.mtx", "impcol_a.mtx", "arrow.mtx", "fs_183_1.mtx"};
    static const double xtols[] = {0, 0, 0, 1e-8};   /* fs_183_1, badly scaled: |x - x_gesv| about 1e-10 */
    lcl_context *ser = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0), *omp = NULL;
    int mi, t, f;
    if (!ser) return;
    if (lcl_backend_compiled(LCL_BACKEND_OPENMP)) omp = lt_context(LCL_BACKEND_OPENMP, NULL, NULL, NULL, 2);
    kt_rs = 0x150u;
    for (mi = 0; mi < 4; mi++)
        for (t = 0; t < 2; t++) {
            bt_case c;
            lcl_csr J;
            bt_Jrand(&J, 150, 0.015);
            bt_make(&c, &J, ms[mi], mi % 2 ? BT_RAND : BT_KRON, t ? LCL_F32 : LCL_F64, t);
            bt_check(omp && mi < 2 && (mi + t) % 2 ? omp : ser, &c, NULL, 3, "random J, n 150");
            bt_free(&c);
        }
    for (f = 0; f < 4; f++)
        for (t = 0; t < 2; t++) {
            bt_case c;
            lcl_csr J;
            if (!bt_Jfile(&J, files[f])) continue;
            bt_make(&c, &J, f % 2 ? 2 : 3, t ? BT_RAND : BT_KRON, LCL_F64, t);
            c.xtol = xtols[f];
            bt_check(omp && t && !f ? omp : ser, &c, NULL, 3, files[f]);
            bt_free(&c);
        }
    lcl_context_destroy(omp);
    lcl_context_destroy(ser);
}

/* gen's hb:BASE.mtx:M, built independently of bt_make: J (x) B expanded by the generator; the
   blocks taken back from its scalar matrix, the residuals against that matrix */
/* the devices' split of the columns (white box, no device needed): every column owned; affinity
   imports fewer L blocks than the thesis's even split on a circuit, and each level stays within
   its slack (or no single move would lower its largest load) */
static double bt_imports(const lcl_bklu_numeric *N, int nd, const int32_t *owner) {
    unsigned char *need = (unsigned char *)calloc((size_t)(N->n * nd), 1);
    int64_t k, p;
    double w = 0;
    for (k = 0; k < N->n; k++)
        for (p = 0; p < N->ucnt[k]; p++) {
            int64_t j = N->slotrow[N->colp[k] + p];
            if (owner[j] != owner[k] && !need[j * nd + owner[k]]) {
                need[j * nd + owner[k]] = 1;
                w += (double)(N->colp[j + 1] - N->colp[j] - N->ucnt[j]);
            }
        }
    free(need);
    return w;
}
/* a host thread per device runs (tune.bklu_host_threads) in OpenMP builds off Windows */
#if defined(_OPENMP) && !defined(_WIN32)
#define BT_HOST_THREADS 1
#else
#define BT_HOST_THREADS 0
#endif
#define BT_SLACK 1.5   /* affinity's cap on a device's share of a level (tune.bklu_slack / 100) */
#define BT_WINDOW 0.05 /* its ranges' boundaries from even work (tune.bklu_window / 100) */
static void test_bklu_affinity(void) {
    static const char *const base[] = {"gen:circuit:1000", "gen:circuit:3000"};
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int b, nd;
    if (!ctx) return;
    for (b = 0; b < 2; b++) {
        lcl_coo C;
        lcl_csr J;
        bt_case c;
        char err[200];
        lcl_bklu_symbolic *S = NULL;
        lcl_bklu_numeric *N = NULL;
        if (lclg_load(ctx, base[b], 1, LCL_F64, &C, err, sizeof err) != LCL_OK) { CHECK_MSG(0, "%s: %s", base[b], err); continue; }
        CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, &J));
        lcl_coo_free(&C);
        bt_make(&c, &J, 1, BT_KRON, LCL_F64, 0);
        CHECK_OK(ctx, lcl_bklu_analyze(ctx, &c.A, NULL, &S, NULL));
        if (S) CHECK_OK(ctx, lcl_bklu_factor(ctx, S, &c.A, &N, NULL));
        for (nd = 1; N && nd <= 3; nd++) {
            int64_t n = N->n, k, l, p;
            int32_t *own[2], *tmp = (int32_t *)malloc((size_t)n * sizeof(int32_t));
            double *cost = (double *)malloc((size_t)n * sizeof(double)), load[3], w[2];
            int sc, d;
            lcl__bklu_costs(N, cost);
            for (sc = 0; sc < 2; sc++) {
                own[sc] = (int32_t *)malloc((size_t)n * sizeof(int32_t));
                for (k = 0; k < n; k++) own[sc][k] = -1;
                lcl__bklu_assign(N, sc ? LCL_BKLU_AFFINITY : LCL_BKLU_STATIC, nd, own[sc], cost, load, tmp, BT_SLACK, BT_WINDOW);
                for (k = 0; k < n; k++) CHECK_MSG(own[sc][k] >= 0 && own[sc][k] < nd, "%s: column %lld on device %d", base[b], (long long)k, own[sc][k]);
                w[sc] = bt_imports(N, nd, own[sc]);
            }
            if (nd == 1) CHECK(w[0] == 0 && w[1] == 0);
            else CHECK_MSG(w[1] < w[0], "%s, %d devices: affinity imports %.0f L blocks, the static split %.0f", base[b], nd, w[1], w[0]);
            fprintf(stderr, "  %s, %d device(s): imports %.0f (affinity) and %.0f (static) L blocks\n", base[b], nd, w[1], w[0]);
            if (nd == 2) {  /* affinity's boundary: near even work, the fewest imports of the window */
                int64_t bound[3], bb, best = -1;
                double all = 0, run = 0, wb = 0, wmin = -1;
                lcl__bklu_ranges(N, nd, cost, BT_WINDOW, bound);
                for (k = 0; k < n; k++) all += cost[k];
                for (k = 0; k < bound[1]; k++) run += cost[k];
                CHECK_MSG(bound[0] == 0 && bound[2] == n && fabs(run - all / 2) <= BT_WINDOW * all * (1 + 1e-12),
                          "%s: boundary %lld, %.1f%% of the work before it", base[b], (long long)bound[1], 100 * run / all);
                for (bb = 0, run = 0; bb <= n; run += bb < n ? cost[bb] : 0, bb++) {   /* every boundary of the window */
                    double w;
                    if (fabs(run - all / 2) > BT_WINDOW * all) continue;
                    for (k = 0; k < n; k++) own[0][k] = k >= bb;
                    w = bt_imports(N, nd, own[0]);
                    if (bb == bound[1]) wb = w;
                    if (wmin < 0 || w < wmin) wmin = w, best = bb;
                }
                CHECK_MSG(wb == wmin, "%s: boundary %lld imports %.0f L blocks, %lld only %.0f", base[b], (long long)bound[1], wb, (long long)best, wmin);
            }
            for (l = 0; l < N->nlev; l++) {
                double tot = 0, mx = 0, mn = 1e300, cmin = 1e300;
                int hi = 0;
                for (d = 0; d < nd; d++) load[d] = 0;
                for (p = N->levp[l]; p < N->levp[l + 1]; p++) load[own[1][N->levc[p]]] += cost[N->levc[p]], tot += cost[N->levc[p]];
                for (d = 0; d < nd; d++) {
                    if (load[d] > mx) mx = load[d], hi = d;
                    if (load[d] < mn) mn = load[d];
                }
                for (p = N->levp[l]; p < N->levp[l + 1]; p++)
                    if (own[1][N->levc[p]] == hi && cost[N->levc[p]] < cmin) cmin = cost[N->levc[p]];
                CHECK_MSG(mx <= tot / nd * BT_SLACK * (1 + 1e-12) || mn + cmin >= mx,
                          "%s, %d devices, level %lld: largest load %.1f of %.1f", base[b], nd, (long long)l, mx, tot);
            }
            free(own[0]); free(own[1]); free(tmp); free(cost);
        }
        lcl_bklu_numeric_free(N);
        lcl_bklu_symbolic_free(S);
        bt_free(&c);
    }
    lcl_context_destroy(ctx);
}
static void test_bklu_hb(void) {
    static const int64_t ms[] = {3, 5};
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    char path[512], spec[600];
    int mi, by_row;
    if (!ctx) return;
    if (!lt_matrix_optional(path, sizeof path, "west0067.mtx")) { lt_skip("west0067.mtx absent"); lcl_context_destroy(ctx); return; }
    kt_rs = 0x4b;
    for (mi = 0; mi < 2; mi++)
        for (by_row = 0; by_row < 2; by_row++) {
            int64_t m = ms[mi], mm = m * m, i, p, q;
            lcl_coo C, JC;
            lcl_csr E, J;
            bt_case c;
            char err[200];
            snprintf(spec, sizeof spec, "hb:%s:%lld", path, (long long)m);
            if (lclg_gen_coo(ctx, spec, 7, LCL_F64, &C, err, sizeof err) != LCL_OK) { CHECK_MSG(0, "%s: %s", spec, err); continue; }
            CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, &E));
            /* J: the blocks holding entries, valued by their (0,0) entry / M (B(0,0) = M) */
            CHECK_OK(ctx, lcl_coo_alloc(ctx, &JC, LCL_F64, E.rows / m, E.rows / m, 0));
            for (i = 0; i < E.rows; i += m)
                for (p = E.ptr[i]; p < E.ptr[i + 1]; p++)
                    if (E.col[p] % m == 0) CHECK_OK(ctx, lcl_coo_push(ctx, &JC, i / m, E.col[p] / m, ((double *)E.val)[p] / (double)m));
            CHECK_OK(ctx, lcl_coo_canonicalize(ctx, &JC));
            CHECK_OK(ctx, lcl_csr_from_coo(ctx, &JC, &J));
            bt_make(&c, &J, m, BT_KRON, LCL_F64, by_row);
            /* the generator's blocks and its expanded matrix replace bt_make's */
            for (i = 0; i < E.rows; i++)
                for (p = E.ptr[i]; p < E.ptr[i + 1]; p++) {
                    int64_t e = bt_entry(&c, i / m, E.col[p] / m);
                    CHECK(e >= 0);
                    if (e >= 0) c.blk[e * mm + (i % m) * m + E.col[p] % m] = ((double *)E.val)[p];
                }
            bt_sync(&c);
            CHECK(c.ep[E.rows] == E.nnz);
            for (q = 0; q < E.nnz; q++) CHECK(c.ei[q] == E.col[q] && c.ev[q] == ((double *)E.val)[q]);
            bt_check(ctx, &c, NULL, 3, "hb:west0067");
            bt_free(&c);
            lcl_csr_free(&E);
            lcl_coo_free(&C);
            lcl_coo_free(&JC);
        }
    lcl_context_destroy(ctx);
}

/* a zero (0,0) in every block, so in every pivot block (J (x) B keeps B's zeros): the factor
   pivots inside the blocks; without pivoting it stops at the first pivot block, row 0 */
static void test_bklu_pivoting(void) {
    static const int64_t ms[] = {2, 3, 8, 17};
    lcl_context *ser = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0), *omp = NULL;
    int mi, t, by_row, ci;
    if (!ser) return;
    if (lcl_backend_compiled(LCL_BACKEND_OPENMP)) omp = lt_context(LCL_BACKEND_OPENMP, NULL, NULL, NULL, 2);
    kt_rs = 0x200u;
    for (mi = 0; mi < 4; mi++)
        for (t = 0; t < 2; t++)
            for (by_row = 0; by_row < 2; by_row++)
                for (ci = 0; ci < 2; ci++) {
                    lcl_context *ctx = ci && omp ? omp : ser;
                    bt_case c;
                    lcl_csr J;
                    lcl_bklu_opts o;
                    lcl_bklu_symbolic *S = NULL;
                    lcl_bklu_numeric *N = NULL;
                    lcl_bklu_info info;
                    lcl_status st;
                    bt_Jrand(&J, mi % 2 ? 1 : 17, 0.15);
                    bt_make(&c, &J, ms[mi], BT_ZERO00, t ? LCL_F32 : LCL_F64, by_row);
                    bt_check(ctx, &c, NULL, 3, "pivoting needed");
                    memset(&o, 0, sizeof o);
                    o.nopivot = 1;
                    CHECK_OK(ctx, lcl_bklu_analyze(ctx, &c.A, &o, &S, NULL));
                    memset(&info, 0, sizeof info);
                    lcl_clear_error(ctx);
                    st = lcl_bklu_factor(ctx, S, &c.A, &N, &info);
                    CHECK_MSG(st == LCL_ERR_SINGULAR && N == NULL && info.singular_index == 0 &&
                              bt_entry(&c, info.singular_row, info.singular_col) >= 0 && strstr(lcl_last_error(ctx), "singular at its row 0"),
                              "zero (0,0), M %lld, no pivoting: %s, singular at block (%lld, %lld) row %lld: %s", (long long)ms[mi],
                              lcl_status_string(st), (long long)info.singular_row, (long long)info.singular_col,
                              (long long)info.singular_index, lcl_last_error(ctx));
                    lcl_bklu_numeric_free(N);
                    lcl_bklu_symbolic_free(S);
                    bt_free(&c);
                }
    lcl_context_destroy(omp);
    lcl_context_destroy(ser);
}

/* patterns whose counts, levels and flops are known: diagonal, full, upper and lower bidiagonal
   (natural order, one block; and BTF) */
static void bt_exact(lcl_context *ctx, const char *name, lcl_csr *J, int64_t m, const lcl_bklu_opts *o, int64_t blocks, int64_t nl,
                     int64_t nu, int64_t levels, double flops) {
    bt_case c;
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N = NULL;
    lcl_bklu_info info;
    bt_make(&c, J, m, BT_KRON, LCL_F64, 0);
    CHECK_OK(ctx, lcl_bklu_analyze(ctx, &c.A, o, &S, &info));
    CHECK_MSG(info.blocks == blocks, "%s: analyze: %lld blocks, want %lld", name, (long long)info.blocks, (long long)blocks);
    if (S) CHECK_OK(ctx, lcl_bklu_factor(ctx, S, &c.A, &N, &info));
    if (N)
        CHECK_MSG(info.blocks == blocks && info.nnzb_l == nl && info.nnzb_u == nu && info.levels == levels &&
                  fabs(info.flops - flops) <= 1e-12 * flops,
                  "%s: blocks %lld L %lld U %lld levels %lld flops %.17g; want %lld %lld %lld %lld %.17g", name, (long long)info.blocks,
                  (long long)info.nnzb_l, (long long)info.nnzb_u, (long long)info.levels, info.flops, (long long)blocks, (long long)nl,
                  (long long)nu, (long long)levels, flops);
    lcl_bklu_numeric_free(N);
    lcl_bklu_symbolic_free(S);
    bt_check(ctx, &c, o, 1, name);
    bt_free(&c);
}
static void test_bklu_structure(void) {
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    double e[64][3];
    int64_t n = 7, m = 5, i, j, k;
    double m3 = (double)(m * m * m), f;
    lcl_csr J;
    lcl_bklu_opts nat;
    if (!ctx) return;
    kt_rs = 0x5u;
    memset(&nat, 0, sizeof nat);
    nat.klu.ordering = LCL_KLU_NATURAL;
    nat.klu.no_btf = 1;
    /* diagonal: n blocks, no L, one level, only the pivot blocks' LU */
    for (i = 0; i < n; i++) { e[i][0] = e[i][1] = (double)i; e[i][2] = 1 + (double)i; }
    bt_J(&J, n, (const double (*)[3])e, (int)n);
    bt_exact(ctx, "diagonal", &J, m, NULL, n, 0, n, 1, (double)n * 2.0 / 3.0 * m3);
    /* full (6 x 6), diagonally dominant: one block, L and U full, a chain of levels; column k takes
       U(j,k) = L_jj^-1 X_j and n-1-j updates from each j < k, its pivot block, its n-1-k L blocks */
    for (i = 0, k = 0; i < 6; i++)
        for (j = 0; j < 6; j++, k++) { e[k][0] = (double)i; e[k][1] = (double)j; e[k][2] = i == j ? 10 : 1 + 0.1 * (double)k; }
    bt_J(&J, 6, (const double (*)[3])e, 36);
    for (k = 0, f = 0; k < 6; k++) {
        for (j = 0; j < k; j++) f += m3 * (1 + 2 * (double)(5 - j));
        f += 2.0 / 3.0 * m3 + m3 * (double)(5 - k);
    }
    bt_exact(ctx, "full", &J, m, NULL, 1, 15, 21, 6, f);
    /* upper bidiagonal: BTF splits it into n blocks (the superdiagonal above them); in natural
       order as one block, U holds it all and each column waits for the one before */
    for (i = 0, k = 0; i < n; i++) {
        e[k][0] = e[k][1] = (double)i; e[k++][2] = 2;
        if (i + 1 < n) { e[k][0] = (double)i; e[k][1] = (double)(i + 1); e[k++][2] = 1; }
    }
    bt_J(&J, n, (const double (*)[3])e, (int)k);
    bt_exact(ctx, "upper bidiagonal, BTF", &J, m, NULL, n, 0, n, 1, (double)n * 2.0 / 3.0 * m3);
    bt_J(&J, n, (const double (*)[3])e, (int)k);
    bt_exact(ctx, "upper bidiagonal, natural", &J, m, &nat, 1, 0, 2 * n - 1, n, (double)n * 2.0 / 3.0 * m3 + (double)(n - 1) * m3);
    /* lower bidiagonal, natural, the diagonal larger: L holds the subdiagonal, no column waits */
    for (k = 0; k < 2 * n - 1; k++) { double t = e[k][0]; e[k][0] = e[k][1]; e[k][1] = t; }
    bt_J(&J, n, (const double (*)[3])e, (int)k);
    bt_exact(ctx, "lower bidiagonal, natural", &J, m, &nat, 1, n - 1, n, 1, (double)n * 2.0 / 3.0 * m3 + (double)(n - 1) * m3);
    lcl_context_destroy(ctx);
}

/* status and message of one bad call; the context cleared first so an old message cannot match */
#define BT_FAILS(ctx, expr, want, sub) do { lcl_status st_; lcl_clear_error(ctx); st_ = (expr); \
    CHECK_MSG(st_ == (want) && strstr(lcl_last_error(ctx), (sub)) != NULL, "%s -> %s (%s), want %s naming \"%s\"", #expr, \
              lcl_status_string(st_), lcl_last_error(ctx), lcl_status_string(want), (sub)); } while (0)

/* block column 4's only block sits in block row 1, alone in its row: that block is column 4's
   pivot block whatever the order; rank-deficient (column sing zero), it is singular at its row
   sing, with or without pivoting (elimination keeps a zero column zero) */
static void bt_isolated(bt_case *c, int64_t m, lcl_dtype dt, int by_row) {
    static const double e[][3] = {{0, 0, 2}, {2, 2, 3}, {3, 3, -2}, {5, 5, 2.5}, {4, 1, 2}, {0, 2, 0.5}, {3, 0, 1},
                                  {5, 3, -0.5}, {2, 1, 0.25}, {4, 5, 1}, {1, 4, 1.5}};
    lcl_csr J;
    bt_J(&J, 6, e, (int)(sizeof e / sizeof e[0]));
    bt_make(c, &J, m, BT_KRON, dt, by_row);
}
static void bt_isolated_singular(bt_case *c) {
    int64_t m = c->m, e = bt_entry(c, 1, 4), i;
    for (i = 0; i < m; i++) c->blk[e * m * m + i * m + c->sing] = 0;
    bt_sync(c);
}
/* An exactly singular block whose rows are exact multiples ({1,2,3; 2,4,6; 1,1,1}), scaled by a
   factor no power of 2 (as row scaling does): every backend and precision must find its zero
   pivot, as lcl_getrf does. A multiplier taken as a times 1/p, not a / p, left a pivot of 1e-16
   on the CPU in double (and a residual of 1e14 with LCL_OK) */
static int bt_fp64(lcl_context *ctx);
static void test_bklu_singular_multiples(void) {
    static const double a[9] = {1, 2, 3, 2, 4, 6, 1, 1, 1};
    int b, t, sc;
    for (b = 0; b < 3; b++)
        for (t = 0; t < 2; t++)
            for (sc = 0; sc < 2; sc++) {
                const lcl_dtype dt = t ? LCL_F32 : LCL_F64;
                const double f = sc ? 1.0 / 3.7 : 1.0;
                lcl_context *ctx = b == 2 ? lt_ocl(NULL) : lt_context(b ? LCL_BACKEND_OPENMP : LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
                lcl_coo C;
                lcl_csr R;
                lcl_bmat B;
                lcl_dense D;
                lcl_bklu_symbolic *S = NULL;
                lcl_bklu_numeric *N = NULL;
                lcl_bklu_info info;
                double dv[9];
                float fv[9];
                int32_t ipiv[3];
                int64_t i, dinfo = 0;
                lcl_status st;
                if (!ctx) continue;   /* no OpenCL device, or OpenMP not compiled in */
                if (b == 2 && dt == LCL_F64 && !bt_fp64(ctx)) { lcl_context_destroy(ctx); continue; }
                memset(&R, 0, sizeof R);
                memset(&B, 0, sizeof B);
                memset(&info, 0, sizeof info);
                CHECK_OK(ctx, lcl_coo_alloc(ctx, &C, dt, 3, 3, 0));
                for (i = 0; i < 9; i++) {
                    CHECK_OK(ctx, lcl_coo_push(ctx, &C, (int)(i / 3), (int)(i % 3), a[i] * f));
                    dv[i] = a[i] * f;
                    fv[i] = (float)(a[i] * f);
                }
                CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, &R));
                CHECK_OK(ctx, lcl_bmat_from_csr(ctx, &R, 3, &B));
                CHECK_OK(ctx, lcl_bklu_analyze(ctx, &B, NULL, &S, NULL));
                st = S ? lcl_bklu_factor(ctx, S, &B, &N, &info) : LCL_ERR_INTERNAL;
                CHECK_MSG(st == LCL_ERR_SINGULAR && N == NULL && info.singular_index == 2, "%s %s, scale %g: bklu factor %s (%s), index %lld",
                          lcl_backend_name(lcl_context_backend(ctx)), dt == LCL_F32 ? "float" : "double", f, lcl_status_string(st),
                          lcl_last_error(ctx), (long long)info.singular_index);
                CHECK_OK(ctx, lcl_dense_wrap(ctx, &D, dt, LCL_ROW_MAJOR, 3, 3, 3, dt == LCL_F32 ? (void *)fv : (void *)dv));
                st = lcl_getrf(ctx, &D, ipiv, &dinfo, NULL);
                CHECK_MSG(st == LCL_ERR_SINGULAR && dinfo == 3, "%s %s, scale %g: getrf %s, info %lld", lcl_backend_name(lcl_context_backend(ctx)),
                          dt == LCL_F32 ? "float" : "double", f, lcl_status_string(st), (long long)dinfo);
                lcl_bklu_numeric_free(N);
                lcl_bklu_symbolic_free(S);
                lcl_bmat_free(&B);
                lcl_csr_free(&R);
                lcl_coo_free(&C);
                lcl_context_destroy(ctx);
            }
}
static void test_bklu_singular(void) {
    static const int64_t ms[] = {2, 3, 8};
    lcl_context *ser = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0), *omp = NULL;
    int mi, t, by_row, piv, ci;
    if (!ser) return;
    if (lcl_backend_compiled(LCL_BACKEND_OPENMP)) omp = lt_context(LCL_BACKEND_OPENMP, NULL, NULL, NULL, 2);
    kt_rs = 0x5151u;
    for (mi = 0; mi < 3; mi++)
        for (t = 0; t < 2; t++)
            for (by_row = 0; by_row < 2; by_row++)
                for (piv = 0; piv < 2; piv++)
                    for (ci = 0; ci < 2; ci++) {
                        lcl_context *ctx = ci && omp ? omp : ser;
                        lcl_dtype dt = t ? LCL_F32 : LCL_F64;
                        int64_t m = ms[mi], nm, k;
                        bt_case c;
                        lcl_bklu_opts o;
                        lcl_bklu_symbolic *S = NULL;
                        lcl_bklu_numeric *N = NULL;
                        lcl_bklu_info info;
                        lcl_status st;
                        void *b, *x;
                        char want[120];
                        memset(&o, 0, sizeof o);
                        o.nopivot = piv;
                        /* the isolated block: factor fails where it should */
                        bt_isolated(&c, m, dt, by_row);
                        nm = 6 * m;
                        b = kt_rhs(dt, nm, 1, nm);
                        x = malloc((size_t)nm * lcl__dsize(dt));
                        CHECK_OK(ctx, lcl_bklu_analyze(ctx, &c.A, &o, &S, NULL));
                        CHECK_OK(ctx, lcl_bklu_factor(ctx, S, &c.A, &N, &info));   /* good values first */
                        bt_isolated_singular(&c);
                        snprintf(want, sizeof want, "block column 4 (block row 1; 0-based) is singular at its row %d", c.sing);
                        info.singular_col = info.singular_row = info.singular_index = -7;
                        BT_FAILS(ctx, lcl_bklu_refactor(ctx, S, &c.A, N, &info), LCL_ERR_SINGULAR, want);
                        CHECK_MSG(info.singular_col == 4 && info.singular_row == 1 && info.singular_index == c.sing,
                                  "refactor, M %lld: singular at (%lld, %lld) row %lld, want (1, 4) row %d", (long long)m,
                                  (long long)info.singular_row, (long long)info.singular_col, (long long)info.singular_index, c.sing);
                        /* the factors it left are refused, the failure named */
                        memcpy(x, b, (size_t)nm * lcl__dsize(dt));
                        BT_FAILS(ctx, lcl_bklu_solve(ctx, S, N, 1, x, nm), LCL_ERR_INVALID_ARGUMENT,
                                 "no factors to solve with: the last refactor failed (lcl_bklu_refactor: the pivot block of block column 4");
                        {
                            lcl_bklu_numeric *N2 = N;
                            info.singular_col = info.singular_row = info.singular_index = -7;
                            BT_FAILS(ctx, lcl_bklu_factor(ctx, S, &c.A, &N2, &info), LCL_ERR_SINGULAR, want);
                            CHECK(N2 == NULL && info.singular_col == 4 && info.singular_row == 1 && info.singular_index == c.sing);
                        }
                        /* good values again: refactor recovers */
                        for (k = 0; k < c.J.nnz; k++) ((double *)c.J.val)[k] *= 1.01;
                        bt_fill(&c);
                        CHECK_OK(ctx, lcl_bklu_refactor(ctx, S, &c.A, N, &info));
                        memcpy(x, b, (size_t)nm * lcl__dsize(dt));
                        CHECK_OK(ctx, lcl_bklu_solve(ctx, S, N, 1, x, nm));
                        CHECK(bt_resid(&c, x, b, 1, nm, 0) <= bt_rtol(dt) && info.singular_col == -1);
                        lcl_bklu_numeric_free(N);
                        lcl_bklu_symbolic_free(S);
                        N = NULL;
                        S = NULL;
                        free(b); free(x);
                        bt_free(&c);
                        /* J (x) B with B singular (column sing zero): every pivot block is */
                        {
                            lcl_csr J;
                            bt_Jrand(&J, 17, 0.15);
                            bt_make(&c, &J, m, BT_SINGB, dt, by_row);
                        }
                        CHECK_OK(ctx, lcl_bklu_analyze(ctx, &c.A, &o, &S, NULL));
                        info.singular_col = info.singular_row = info.singular_index = -7;
                        lcl_clear_error(ctx);
                        st = lcl_bklu_factor(ctx, S, &c.A, &N, &info);
                        snprintf(want, sizeof want, "is singular at its row %d", c.sing);
                        CHECK_MSG(st == LCL_ERR_SINGULAR && N == NULL && info.singular_index == c.sing &&
                                  bt_entry(&c, info.singular_row, info.singular_col) >= 0 && strstr(lcl_last_error(ctx), want),
                                  "B singular, M %lld: %s at (%lld, %lld) row %lld: %s", (long long)m, lcl_status_string(st),
                                  (long long)info.singular_row, (long long)info.singular_col, (long long)info.singular_index,
                                  lcl_last_error(ctx));
                        lcl_bklu_numeric_free(N);
                        lcl_bklu_symbolic_free(S);
                        bt_free(&c);
                    }
    {   /* structurally singular patterns: analyze refuses them */
        static const double empty_col[][3] = {{0, 0, 1}, {1, 0, 1}, {2, 2, 1}, {0, 2, 1}};
        static const double one_row[][3] = {{0, 0, 1}, {0, 1, 1}, {1, 2, 1}, {2, 2, 1}, {3, 3, 1}, {2, 3, 1}};
        bt_case c;
        lcl_csr J;
        lcl_bklu_symbolic *S = (lcl_bklu_symbolic *)&c;
        long out0 = lt_alloc_outstanding();
        bt_J(&J, 3, empty_col, 4);
        bt_make(&c, &J, 2, BT_KRON, LCL_F64, 0);
        BT_FAILS(ser, lcl_bklu_analyze(ser, &c.A, NULL, &S, NULL), LCL_ERR_SINGULAR, "structurally singular");
        CHECK(S == NULL);
        bt_free(&c);
        bt_J(&J, 4, one_row, 6);   /* columns 0 and 1 meet only row 0 */
        bt_make(&c, &J, 3, BT_KRON, LCL_F32, 1);
        BT_FAILS(ser, lcl_bklu_analyze(ser, &c.A, NULL, &S, NULL), LCL_ERR_SINGULAR, "structurally singular");
        bt_free(&c);
        CHECK(lt_alloc_outstanding() == out0);
    }
    if (omp) {   /* several singular pivot blocks: OpenMP reports the one the serial factor does */
        int rep;
        for (rep = 0; rep < 4; rep++) {
            bt_case c;
            lcl_csr J;
            lcl_bklu_symbolic *S = NULL;
            lcl_bklu_numeric *N = NULL;
            lcl_bklu_info is, io;
            bt_Jrand(&J, 150, 0.02);
            bt_make(&c, &J, 3, BT_SINGB, LCL_F64, rep & 1);
            CHECK_OK(ser, lcl_bklu_analyze(ser, &c.A, NULL, &S, NULL));
            CHECK_STATUS(ser, lcl_bklu_factor(ser, S, &c.A, &N, &is), LCL_ERR_SINGULAR);
            CHECK_STATUS(omp, lcl_bklu_factor(omp, S, &c.A, &N, &io), LCL_ERR_SINGULAR);
            CHECK_MSG(is.singular_col == io.singular_col && is.singular_row == io.singular_row && is.singular_index == io.singular_index &&
                      is.singular_col >= 0,
                      "serial: (%lld, %lld) row %lld; OpenMP (%lld, %lld) row %lld", (long long)is.singular_row, (long long)is.singular_col,
                      (long long)is.singular_index, (long long)io.singular_row, (long long)io.singular_col, (long long)io.singular_index);
            lcl_bklu_symbolic_free(S);
            bt_free(&c);
        }
    }
    lcl_context_destroy(omp);
    lcl_context_destroy(ser);
}

/* values near the ends of double's range: scale-invariant, they factor as well as the unscaled */
static void test_bklu_scaled(void) {
    static const double scales[] = {1e200, 1e-170, 1e150};
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int s, by_row;
    if (!ctx) return;
    kt_rs = 0xe200u;
    for (s = 0; s < 3; s++)
        for (by_row = 0; by_row < 2; by_row++) {
            bt_case c;
            lcl_csr J;
            int64_t p;
            bt_Jrand(&J, 17, 0.15);
            for (p = 0; p < J.nnz; p++) ((double *)J.val)[p] *= scales[s];
            bt_make(&c, &J, s == 2 ? 33 : 4, by_row ? BT_RAND : BT_KRON, LCL_F64, by_row);
            bt_check(ctx, &c, NULL, 1, s ? (s == 1 ? "scaled by 1e-170" : "scaled by 1e150") : "scaled by 1e200");
            bt_free(&c);
        }
    lcl_context_destroy(ctx);
}

/* a block of A's (block row r, column j) set to v in every entry (A only: what the library reads) */
static void bt_poke(bt_case *c, int64_t r, int64_t j, int64_t entry, double v) {
    int64_t q, mm = c->m * c->m;
    for (q = 0; q < c->A.nnzb; q++) {
        int64_t p = c->ord[q];
        if (p == bt_entry(c, r, j)) bt_put(c->A.dtype, c->A.val, q * mm + entry, v);
    }
}
static void test_bklu_errors(void) {
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0), *omp = NULL;
    bt_case c, c2, cf;
    lcl_csr J;
    lcl_bklu_symbolic *S = NULL, *S2 = NULL, *Sx;
    lcl_bklu_numeric *N = NULL, *N2 = NULL, *Nx;
    lcl_bklu_opts o;
    lcl_bmat B;
    double x[64], y[64];
    long out0;
    int by_row, t;
    if (!ctx) return;
    kt_rs = 0xe77u;
    memset(&cf, 0, sizeof cf);
    out0 = lt_alloc_outstanding();
    bt_Jrand(&J, 5, 0.4);
    bt_make(&c, &J, 3, BT_KRON, LCL_F64, 0);
    bt_Jrand(&J, 5, 0.4);
    bt_make(&c2, &J, 3, BT_KRON, LCL_F64, 0);   /* another pattern (checked below) */
    CHECK_OK(ctx, lcl_bklu_analyze(ctx, &c.A, NULL, &S, NULL));
    CHECK_OK(ctx, lcl_bklu_factor(ctx, S, &c.A, &N, NULL));
    if (!S || !N) goto done;
    /* NULL arguments */
    Sx = S;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, NULL, NULL, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL matrix");
    CHECK(Sx == NULL);
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &c.A, NULL, NULL, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL output");
    Nx = N;
    BT_FAILS(ctx, lcl_bklu_factor(ctx, NULL, &c.A, &Nx, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL symbolic");
    CHECK(Nx == NULL);
    BT_FAILS(ctx, lcl_bklu_factor(ctx, S, NULL, &Nx, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL matrix");
    BT_FAILS(ctx, lcl_bklu_factor(ctx, S, &c.A, NULL, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL output");
    BT_FAILS(ctx, lcl_bklu_refactor(ctx, S, &c.A, NULL, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL numeric");
    BT_FAILS(ctx, lcl_bklu_refactor(ctx, NULL, &c.A, N, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL symbolic");
    BT_FAILS(ctx, lcl_bklu_refactor(ctx, S, NULL, N, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL matrix");
    BT_FAILS(ctx, lcl_bklu_solve(ctx, NULL, N, 1, x, 15), LCL_ERR_INVALID_ARGUMENT, "NULL symbolic");
    BT_FAILS(ctx, lcl_bklu_solve(ctx, S, NULL, 1, x, 15), LCL_ERR_INVALID_ARGUMENT, "NULL numeric");
    /* solve: NULL B, bad ldb and nrhs; nrhs 0 is nothing to do */
    BT_FAILS(ctx, lcl_bklu_solve(ctx, S, N, 1, NULL, 15), LCL_ERR_INVALID_ARGUMENT, "B NULL");
    BT_FAILS(ctx, lcl_bklu_solve(ctx, S, N, 1, x, 14), LCL_ERR_INVALID_ARGUMENT, "ldb 14 (needs >= 15)");
    BT_FAILS(ctx, lcl_bklu_solve(ctx, S, N, -1, x, 15), LCL_ERR_INVALID_ARGUMENT, "nrhs -1");
    CHECK_OK(ctx, lcl_bklu_solve(ctx, S, N, 0, NULL, 15));
    /* empty and overflowing sizes */
    B = c.A;
    B.n = 0;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_DIMENSION, "empty matrix (0 block columns of size 3)");
    B = c.A;
    B.m = 0;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_DIMENSION, "empty matrix (5 block columns of size 0)");
    B.m = -2;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_DIMENSION, "empty matrix");
    B = c.A;
    B.n = 50000;
    B.m = 50000;   /* n m rows past int32: refused before ptr is read */
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_OVERFLOW, "overflow");
    B = c.A;
    B.nnzb = -1;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, "nnzb -1");
    /* dtype */
    B = c.A;
    B.dtype = (lcl_dtype)77;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, "unknown dtype 77");
    BT_FAILS(ctx, lcl_bklu_factor(ctx, S, &B, &Nx, NULL), LCL_ERR_INVALID_ARGUMENT, "unknown dtype 77");
    /* the arrays: NULL, ptr not from 0 or not to nnzb, decreasing, indices out of range,
       unsorted, repeated */
    B = c.A;
    B.ptr = NULL;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL block arrays");
    B = c.A;
    B.idx = NULL;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL block arrays");
    B = c.A;
    B.val = NULL;
    BT_FAILS(ctx, lcl_bklu_factor(ctx, S, &B, &Nx, NULL), LCL_ERR_INVALID_ARGUMENT, "NULL block arrays");
    for (by_row = 0; by_row < 2; by_row++) {
        int64_t ptr[6], e, col = -1;
        int32_t idx[64];
        bt_case *cc = by_row ? &cf : &c;
        if (by_row) {
            lcl_csr J2;
            lcl_coo C;
            CHECK_OK(NULL, lcl_csr_to_coo(NULL, &c.J, &C));
            CHECK_OK(NULL, lcl_csr_from_coo(NULL, &C, &J2));
            lcl_coo_free(&C);
            bt_make(&cf, &J2, 3, BT_KRON, LCL_F64, 1);
        }
        B = cc->A;
        B.ptr = ptr;
        B.idx = idx;
        memcpy(ptr, cc->A.ptr, sizeof ptr);
        memcpy(idx, cc->A.idx, (size_t)cc->A.nnzb * sizeof(int32_t));
        ptr[0] = 1;
        BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_DIMENSION, "ptr[0] = 1");
        ptr[0] = 0;
        ptr[5] = cc->A.nnzb - 1;
        BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_DIMENSION, "expected 0 and nnzb");
        ptr[5] = cc->A.nnzb;
        ptr[2] = ptr[1] - 1;
        BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_DIMENSION, "ptr decreases at 2");
        memcpy(ptr, cc->A.ptr, sizeof ptr);
        idx[3] = 5;
        BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_DIMENSION, "block index 5 out of range [0, 5) at entry 3");
        idx[3] = -1;
        BT_FAILS(ctx, lcl_bklu_factor(ctx, S, &B, &Nx, NULL), LCL_ERR_DIMENSION, "block index -1 out of range");
        memcpy(idx, cc->A.idx, (size_t)cc->A.nnzb * sizeof(int32_t));
        for (e = 0; e < 5 && col < 0; e++)
            if (ptr[e + 1] - ptr[e] >= 2) col = e;   /* a column (row) of two blocks or more */
        if (col < 0) { CHECK_MSG(0, "no column with two blocks"); continue; }
        {
            char want[80];
            int32_t t0 = idx[ptr[col]];
            snprintf(want, sizeof want, "block indices of %s %lld are not sorted and unique", by_row ? "row" : "column", (long long)col);
            idx[ptr[col]] = idx[ptr[col] + 1];
            idx[ptr[col] + 1] = t0;
            BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, want);
            idx[ptr[col] + 1] = idx[ptr[col]];
            BT_FAILS(ctx, lcl_bklu_analyze(ctx, &B, NULL, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, want);
            BT_FAILS(ctx, lcl_bklu_refactor(ctx, S, &B, N, NULL), LCL_ERR_INVALID_ARGUMENT, want);
        }
    }
    /* options out of range */
    memset(&o, 0, sizeof o);
    o.devices = -1;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &c.A, &o, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, "opts: devices -1");
    o.devices = 0;
    o.mem_limit = -5;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &c.A, &o, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, "mem_limit -5");
    o.mem_limit = 0;
    o.schedule = (lcl_bklu_schedule)9;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &c.A, &o, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, "schedule 9");
    o.schedule = LCL_BKLU_STATIC;
    o.klu.ordering = (lcl_klu_ordering)9;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &c.A, &o, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, "unknown ordering 9");
    o.klu.ordering = LCL_KLU_USER;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &c.A, &o, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, "needs opts.perm");
    o.klu.ordering = LCL_KLU_AMD;
    o.klu.tol = 2;
    BT_FAILS(ctx, lcl_bklu_analyze(ctx, &c.A, &o, &Sx, NULL), LCL_ERR_INVALID_ARGUMENT, "pivot tolerance");
    /* another block size or pattern than analyze's */
    B = c.A;
    B.m = 2;   /* the same arrays read as 2 x 2 blocks */
    BT_FAILS(ctx, lcl_bklu_factor(ctx, S, &B, &Nx, NULL), LCL_ERR_DIMENSION, "the analysis saw 5 of size 3");
    BT_FAILS(ctx, lcl_bklu_refactor(ctx, S, &B, N, NULL), LCL_ERR_DIMENSION, "A has 5 block columns of size 2");
    CHECK_MSG(c2.A.nnzb != c.A.nnzb || memcmp(c2.A.idx, c.A.idx, (size_t)c.A.nnzb * 4) || memcmp(c2.A.ptr, c.A.ptr, 6 * 8),
              "the two random patterns are equal");
    BT_FAILS(ctx, lcl_bklu_factor(ctx, S, &c2.A, &Nx, NULL), LCL_ERR_INVALID_ARGUMENT, "block pattern is not the one");
    BT_FAILS(ctx, lcl_bklu_refactor(ctx, S, &c2.A, N, NULL), LCL_ERR_INVALID_ARGUMENT, "block pattern is not the one");
    {   /* the same pattern with one block moved: same n, m, nnzb */
        int32_t idx[64];
        int64_t e;
        B = c.A;
        B.idx = idx;
        memcpy(idx, c.A.idx, (size_t)c.A.nnzb * sizeof(int32_t));
        for (e = 0; e < 5; e++)   /* a column's last block moved down a row: still sorted */
            if (idx[B.ptr[e + 1] - 1] + 1 < 5) { idx[B.ptr[e + 1] - 1]++; break; }
        CHECK(e < 5);
        BT_FAILS(ctx, lcl_bklu_factor(ctx, S, &B, &Nx, NULL), LCL_ERR_INVALID_ARGUMENT, "block pattern is not the one");
        BT_FAILS(ctx, lcl_bklu_refactor(ctx, S, &B, N, NULL), LCL_ERR_INVALID_ARGUMENT, "block pattern is not the one");
    }
    B = c.A;
    B.by_row = 1;   /* the transpose's pattern */
    BT_FAILS(ctx, lcl_bklu_factor(ctx, S, &B, &Nx, NULL), LCL_ERR_INVALID_ARGUMENT, "block pattern is not the one");
    /* refactor: another dtype, a numeric object of another symbolic */
    B = c.A;
    B.dtype = LCL_F32;
    BT_FAILS(ctx, lcl_bklu_refactor(ctx, S, &B, N, NULL), LCL_ERR_INVALID_ARGUMENT, "another pattern or dtype");
    CHECK_OK(ctx, lcl_bklu_analyze(ctx, &c2.A, NULL, &S2, NULL));
    CHECK_OK(ctx, lcl_bklu_factor(ctx, S2, &c2.A, &N2, NULL));
    BT_FAILS(ctx, lcl_bklu_refactor(ctx, S2, &c2.A, N, NULL), LCL_ERR_INVALID_ARGUMENT, "another pattern or dtype");
    BT_FAILS(ctx, lcl_bklu_solve(ctx, S2, N, 1, x, 15), LCL_ERR_INVALID_ARGUMENT, "not of this symbolic");
    BT_FAILS(ctx, lcl_bklu_solve(ctx, S, N2, 1, x, 15), LCL_ERR_INVALID_ARGUMENT, "not of this symbolic");
    /* a numeric object made with one thread, refactored and solved by a context of two: at most
       the factor's one thread, so the same factors and solution, bit for bit */
    if (lcl_backend_compiled(LCL_BACKEND_OPENMP) && (omp = lt_context(LCL_BACKEND_OPENMP, NULL, NULL, NULL, 2)) != NULL) {
        double x0[15], x1[15];
        int64_t i;
        for (i = 0; i < 15; i++) x0[i] = x1[i] = 1.0 + (double)i;
        CHECK_OK(ctx, lcl_bklu_solve(ctx, S, N, 1, x0, 15));
        CHECK_OK(omp, lcl_bklu_refactor(omp, S, &c.A, N, NULL));
        CHECK_OK(omp, lcl_bklu_solve(omp, S, N, 1, x1, 15));
        CHECK_MSG(memcmp(x0, x1, sizeof x0) == 0, "refactored by a context of two threads: another solution");
    }
    /* NaN and Inf: the block named (block row, column), in factor and refactor, both forms and
       dtypes; the numeric object works again after */
    for (t = 0; t < 2; t++)
        for (by_row = 0; by_row < 2; by_row++) {
            bt_case d;
            lcl_bklu_symbolic *Sd = NULL;
            lcl_bklu_numeric *Nd = NULL;
            static const int64_t blk[][2] = {{1, 2}, {4, 4}, {3, 0}};
            int64_t e, k;
            {
                static const double pat[][3] = {{0, 0, 2}, {1, 1, 3}, {2, 2, -2}, {3, 3, 2}, {4, 4, 4}, {1, 2, 1}, {3, 0, 1}, {0, 4, 0.5}};
                lcl_csr J2;
                bt_J(&J2, 5, pat, 8);
                bt_make(&d, &J2, 3, BT_KRON, t ? LCL_F32 : LCL_F64, by_row);
            }
            CHECK_OK(ctx, lcl_bklu_analyze(ctx, &d.A, NULL, &Sd, NULL));
            CHECK_OK(ctx, lcl_bklu_factor(ctx, Sd, &d.A, &Nd, NULL));
            for (e = 0; e < 3; e++)
                for (k = 0; k < 2; k++) {
                    char want[80];
                    Nx = NULL;
                    snprintf(want, sizeof want, "block (%lld, %lld) (block row, column; 0-based) holds NaN or Inf", (long long)blk[e][0],
                             (long long)blk[e][1]);
                    bt_poke(&d, blk[e][0], blk[e][1], (e + k) % 9, k ? HUGE_VAL * (e == 1 ? -1 : 1) : nan(""));
                    BT_FAILS(ctx, lcl_bklu_factor(ctx, Sd, &d.A, &Nx, NULL), LCL_ERR_NAN, want);
                    CHECK(Nx == NULL);
                    BT_FAILS(ctx, lcl_bklu_refactor(ctx, Sd, &d.A, Nd, NULL), LCL_ERR_NAN, want);
                    bt_sync(&d);
                }
            CHECK_OK(ctx, lcl_bklu_refactor(ctx, Sd, &d.A, Nd, NULL));
            {
                double xb[15], bb[15];
                float xf[15], bf[15];
                for (e = 0; e < 15; e++) { bb[e] = xb[e] = 1 + (double)e; bf[e] = xf[e] = 1 + (float)e; }
                CHECK_OK(ctx, lcl_bklu_solve(ctx, Sd, Nd, 1, t ? (void *)xf : (void *)xb, 15));
                CHECK(bt_resid(&d, t ? (void *)xf : (void *)xb, t ? (void *)bf : (void *)bb, 1, 15, 0) <= bt_rtol(d.A.dtype));
            }
            lcl_bklu_numeric_free(Nd);
            lcl_bklu_symbolic_free(Sd);
            bt_free(&d);
        }
    /* lcl_bmat_mv: bad arguments */
    CHECK(lcl_bmat_mv(NULL, x, y) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(lcl_bmat_mv(&c.A, NULL, y) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(lcl_bmat_mv(&c.A, x, NULL) == LCL_ERR_INVALID_ARGUMENT);
    B = c.A;
    B.dtype = (lcl_dtype)77;
    CHECK(lcl_bmat_mv(&B, x, y) == LCL_ERR_INVALID_ARGUMENT);
    B = c.A;
    B.m = 0;
    CHECK(lcl_bmat_mv(&B, x, y) == LCL_ERR_INVALID_ARGUMENT);
    {
        int32_t idx[64];
        B = c.A;
        B.idx = idx;
        memcpy(idx, c.A.idx, (size_t)c.A.nnzb * sizeof(int32_t));
        idx[2] = 5;
        CHECK(lcl_bmat_mv(&B, x, y) == LCL_ERR_DIMENSION);
    }
    lcl_bklu_symbolic_free(NULL);
    lcl_bklu_numeric_free(NULL);
done:
    lcl_bklu_numeric_free(N);
    lcl_bklu_numeric_free(N2);
    lcl_bklu_symbolic_free(S);
    lcl_bklu_symbolic_free(S2);
    if (cf.A.ptr) bt_free(&cf);
    bt_free(&c);
    bt_free(&c2);
    lcl_context_destroy(omp);
    CHECK_MSG(lt_alloc_outstanding() == out0, "%ld blocks leaked", lt_alloc_outstanding() - out0);
    lcl_context_destroy(ctx);
}

/* c on contexts ca and cb: factor, solve (3 right-hand sides), then refactor with new values and
   solve again, on both. tol 0: the factors' blocks and pivots and the solutions bit for bit (the
   same arithmetic, another schedule); else the solutions within tol relative. The counts alike,
   flops to 1e-12 (summed in another order). */
static void bt_cross(lcl_context *ca, lcl_context *cb, bt_case *c, const lcl_bklu_opts *o, double tol, const char *name) {
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *Na = NULL, *Nb = NULL;
    lcl_bklu_info ia, ib;
    lcl_dtype dt = c->A.dtype;
    size_t es = lcl__dsize(dt);
    int64_t nm = c->A.n * c->m, ldb = nm + 1, nrhs = 3;
    void *b = kt_rhs(dt, nm, nrhs, ldb), *xa = malloc((size_t)(ldb * nrhs) * es), *xb = malloc((size_t)(ldb * nrhs) * es);
    int round;
    CHECK_OK(ca, lcl_bklu_analyze(ca, &c->A, o, &S, NULL));
    if (S) {
        CHECK_OK(ca, lcl_bklu_factor(ca, S, &c->A, &Na, &ia));
        CHECK_OK(cb, lcl_bklu_factor(cb, S, &c->A, &Nb, &ib));
    }
    for (round = 0; round < 2 && Na && Nb; round++) {
        double d;
        if (round) {
            bt_new_values(c);
            CHECK_OK(ca, lcl_bklu_refactor(ca, S, &c->A, Na, &ia));
            CHECK_OK(cb, lcl_bklu_refactor(cb, S, &c->A, Nb, &ib));
        }
        CHECK_MSG(ia.nnzb_l == ib.nnzb_l && ia.nnzb_u == ib.nnzb_u && ia.levels == ib.levels && ia.blocks == ib.blocks &&
                  fabs(ia.flops - ib.flops) <= 1e-12 * ia.flops,
                  "%s (%s): info L %lld/%lld U %lld/%lld levels %lld/%lld flops %.17g/%.17g", name, dt == LCL_F32 ? "float" : "double",
                  (long long)ia.nnzb_l, (long long)ib.nnzb_l, (long long)ia.nnzb_u, (long long)ib.nnzb_u, (long long)ia.levels,
                  (long long)ib.levels, ia.flops, ib.flops);
        if (tol == 0)
            CHECK_MSG(!memcmp(Na->X, Nb->X, (size_t)(Na->nslot * Na->mm) * es) && !memcmp(Na->F, Nb->F, (size_t)(Na->fp[Na->n] * Na->mm) * es) &&
                      !memcmp(Na->ipiv, Nb->ipiv, (size_t)nm * sizeof(int32_t)),
                      "%s (%s, %s, M %lld, round %d): the factors differ by %.3g", name, lcl_backend_name(lcl_context_backend(cb)),
                      dt == LCL_F32 ? "float" : "double", (long long)c->m, round,
                      bt_diff(dt, Na->X, Na->nslot * Na->mm, dt, Nb->X, Na->nslot * Na->mm, Na->nslot * Na->mm, 1));
        memcpy(xa, b, (size_t)(ldb * nrhs) * es);
        memcpy(xb, b, (size_t)(ldb * nrhs) * es);
        CHECK_OK(ca, lcl_bklu_solve(ca, S, Na, nrhs, xa, ldb));
        CHECK_OK(cb, lcl_bklu_solve(cb, S, Nb, nrhs, xb, ldb));
        d = bt_diff(dt, xb, ldb, dt, xa, ldb, nm, nrhs);
        CHECK_MSG(tol == 0 ? !memcmp(xa, xb, (size_t)(ldb * nrhs) * es) : d <= tol, "%s (%s, %s, M %lld, round %d): solutions differ by %.3g",
                  name, lcl_backend_name(lcl_context_backend(cb)), dt == LCL_F32 ? "float" : "double", (long long)c->m, round, d);
        d = bt_resid(c, xb, b, nrhs, ldb, 0);
        CHECK_MSG(d <= bt_rtol(dt), "%s (%s, round %d): residual %.3g", name, lcl_backend_name(lcl_context_backend(cb)), round, d);
    }
    lcl_bklu_numeric_free(Na);
    lcl_bklu_numeric_free(Nb);
    lcl_bklu_symbolic_free(S);
    free(b); free(xa); free(xb);
}

/* the columns an OpenMP factor runs on all threads (narrow levels, columns with the work) and the
   wide levels (their columns spread over the threads): both paths must be covered */
static void bt_paths(const lcl_bklu_numeric *N, int64_t *split, int64_t *wide) {
    int64_t l, c;
    *split = *wide = 0;
    for (l = 0; l < N->nlev && N->nth > 1; l++) {
        if (N->levp[l + 1] - N->levp[l] >= LCL__MAX(2, N->nth / 2)) { ++*wide; continue; }
        for (c = N->levp[l]; c < N->levp[l + 1]; c++) *split += lcl__bklu_work(N, N->levc[c]) >= LCL__BKLU_SPLIT_FLOPS;
    }
}
/* OpenMP (2 and 3 threads) against serial: wide levels on the threads, narrow ones each column
   on all of them when it has the work; the factors bit for bit */
static void test_bklu_openmp(void) {
    static const struct { int64_t n, m; double d; } sh[] = {{1, 8, 1}, {2, 33, 0.5}, {17, 3, 0.15}, {17, 17, 0.2}, {150, 3, 0.02},
                                                          {40, 33, 0.08}, {60, 2, 0}};
    lcl_context *ser = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    int th, s, t;
    if (!ser) return;
    if (!lcl_backend_compiled(LCL_BACKEND_OPENMP)) { lcl_context_destroy(ser); lt_skip("OpenMP not compiled in"); return; }
    kt_rs = 0x0e11u;
    for (th = 2; th <= 3; th++) {
        lcl_context *omp = lt_context(LCL_BACKEND_OPENMP, NULL, NULL, NULL, th);
        if (!omp) continue;
        for (s = 0; s < (int)(sizeof sh / sizeof sh[0]); s++)
            for (t = 0; t < 2; t++) {
                bt_case c;
                lcl_csr J;
                lcl_bklu_opts o;
                if (th == 3 && sh[s].n * sh[s].m > 300) continue;   /* 3 threads on the small ones */
                memset(&o, 0, sizeof o);
                o.nopivot = s == 3;
                bt_Jrand(&J, sh[s].n, sh[s].d);   /* d 0: the diagonal and a transversal, many wide levels */
                bt_make(&c, &J, sh[s].m, (s + t) % 2 ? BT_RAND : BT_KRON, t ? LCL_F32 : LCL_F64, s % 2);
                if (th == 2 && t == 0 && sh[s].m == 33 && sh[s].n == 40) {
                    lcl_bklu_symbolic *S = NULL;
                    lcl_bklu_numeric *N = NULL;
                    int64_t split = 0, wide = 0;
                    CHECK_OK(omp, lcl_bklu_analyze(omp, &c.A, &o, &S, NULL));
                    if (S) CHECK_OK(omp, lcl_bklu_factor(omp, S, &c.A, &N, NULL));
                    if (N) bt_paths(N, &split, &wide);
                    CHECK_MSG(split > 0 && wide > 0, "n 40, M 33: %lld columns split, %lld wide levels: a path left out", (long long)split,
                              (long long)wide);
                    lcl_bklu_numeric_free(N);
                    lcl_bklu_symbolic_free(S);
                }
                bt_cross(ser, omp, &c, &o, 0, "OpenMP vs serial");
                if (th == 2 && s >= 2 && s <= 4) bt_check(omp, &c, &o, 3, "OpenMP");
                bt_free(&c);
            }
        lcl_context_destroy(omp);
    }
    lcl_context_destroy(ser);
}

/* ---- OpenCL ---------------------------------------------------------------------------------- */
static int bt_fp64(lcl_context *ctx) {
    lcl_device_info di;
    int d, ok = 1;
    for (d = 0; d < lcl_context_num_devices(ctx); d++) ok &= lcl_context_device(ctx, d, &di) == LCL_OK && di.fp64;
    return ok;
}
/* the OpenCL context's results on sizes and kinds, each checked (bt_check) and against serial's;
   opts (devices, schedule) as given */
static void bt_ocl_sweep(lcl_context *ocl, lcl_context *ser, const lcl_bklu_opts *base, int quick) {
    static const struct { int64_t n, m; } sh[] = {{1, 1}, {1, 33}, {2, 3}, {2, 17}, {17, 1}, {17, 2}, {17, 3}, {17, 8}, {17, 17}, {17, 33},
                                                  {150, 2}, {150, 8}};
    int s, t, i = 0, fp64 = bt_fp64(ocl);
    for (t = 0; t < 2; t++) {
        if (!t && !fp64) { fprintf(stderr, "  no fp64 on the device: double left out\n"); continue; }
        for (s = 0; s < (int)(sizeof sh / sizeof sh[0]); s++, i++) {
            bt_case c;
            lcl_csr J;
            lcl_bklu_opts o = *base;
            int kind = sh[s].m > 1 && i % 3 == 2 ? BT_ZERO00 : i % 3 == 1 ? BT_RAND : BT_KRON;
            if (quick && i % 3) continue;
            o.nopivot = kind == BT_KRON && i % 2;
            bt_Jrand(&J, sh[s].n, sh[s].n > 17 ? 0.015 : 0.15);
            bt_make(&c, &J, sh[s].m, kind, t ? LCL_F32 : LCL_F64, i % 2);
            bt_check(ocl, &c, &o, 1 + 2 * (s % 2), "OpenCL");
            bt_cross(ser, ocl, &c, &o, bt_xtol(c.A.dtype), "OpenCL vs serial");
            bt_free(&c);
        }
    }
}
/* opts.mem_limit below the factors' bytes (plus 2 MiB for what a device keeps besides them): the
   device path streams (evicts, fetches again) with the same results, or refuses a limit with
   LCL_ERR_DEVICE_MEMORY when a column does not fit; some limit under the factors' size must
   work. One byte: too little even with replacement, LCL_ERR_DEVICE_MEMORY from the device path
   (the host path ignores the limit). */
static void bt_ocl_memory(lcl_context *ocl, lcl_context *ser, const lcl_bklu_opts *base) {
    static const double frac[] = {0.1, 0.25, 0.5};
    bt_case c;
    lcl_csr J;
    lcl_bklu_opts o = *base;
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N = NULL;
    lcl_bklu_info info;
    lcl_dtype dt = bt_fp64(ocl) ? LCL_F64 : LCL_F32;
    lcl_status st;
    int64_t bytes = 0, nm;
    int f, streamed = 0;
    bt_Jrand(&J, 150, 0.02);
    bt_make(&c, &J, 8, BT_KRON, dt, 0);
    nm = c.A.n * c.m;
    CHECK_OK(ser, lcl_bklu_analyze(ser, &c.A, &o, &S, NULL));
    if (S) CHECK_OK(ser, lcl_bklu_factor(ser, S, &c.A, &N, NULL));
    if (N) bytes = N->nslot * N->mm * (int64_t)lcl__dsize(dt);
    lcl_bklu_numeric_free(N);
    N = NULL;
    for (f = 0; f < 3 && S; f++) {
        o.mem_limit = (int64_t)(frac[f] * (double)bytes) + ((int64_t)2 << 20);
        memset(&info, 0, sizeof info);
        lcl_clear_error(ocl);
        st = lcl_bklu_factor(ocl, S, &c.A, &N, &info);
        if (st == LCL_OK) {
            void *b = kt_rhs(dt, nm, 1, nm), *x = malloc((size_t)nm * lcl__dsize(dt));
            memcpy(x, b, (size_t)nm * lcl__dsize(dt));
            CHECK_OK(ocl, lcl_bklu_solve(ocl, S, N, 1, x, nm));
            CHECK_MSG(bt_resid(&c, x, b, 1, nm, 0) <= bt_rtol(dt), "mem_limit %lld: residual %.3g", (long long)o.mem_limit,
                      bt_resid(&c, x, b, 1, nm, 0));
            streamed++;
            free(b); free(x);
        } else
            CHECK_MSG(st == LCL_ERR_DEVICE_MEMORY && N == NULL && strstr(lcl_last_error(ocl), "lcl_bklu_factor"), "mem_limit %lld: %s: %s",
                      (long long)o.mem_limit, lcl_status_string(st), lcl_last_error(ocl));
        lcl_bklu_numeric_free(N);
        N = NULL;
    }
    CHECK_MSG(streamed > 0, "no limit under the factors' %lld bytes (+ 2 MiB) factored", (long long)bytes);
    lcl_bklu_symbolic_free(S);
    S = NULL;
    o.mem_limit = ((int64_t)2 << 20) + bytes / 2;
    {   /* the whole check at the middle limit, when it is taken */
        lcl_bklu_symbolic *S2 = NULL;
        lcl_bklu_numeric *N2 = NULL;
        CHECK_OK(ocl, lcl_bklu_analyze(ocl, &c.A, &o, &S2, NULL));
        if (S2 && lcl_bklu_factor(ocl, S2, &c.A, &N2, NULL) == LCL_OK) {
            bt_check(ocl, &c, &o, 3, "OpenCL, half the memory");
            bt_cross(ser, ocl, &c, &o, bt_xtol(dt), "OpenCL, half the memory");
        }
        lcl_bklu_numeric_free(N2);
        lcl_bklu_symbolic_free(S2);
    }
    o.mem_limit = 1;
    CHECK_OK(ocl, lcl_bklu_analyze(ocl, &c.A, &o, &S, NULL));
    lcl_clear_error(ocl);
    memset(&info, 0, sizeof info);
    st = S ? lcl_bklu_factor(ocl, S, &c.A, &N, &info) : LCL_ERR_INVALID_ARGUMENT;
    CHECK_MSG(st == LCL_ERR_DEVICE_MEMORY ? N == NULL && strstr(lcl_last_error(ocl), "lcl_bklu_factor") != NULL
                                          : !BT_DEVICE_PATH && st == LCL_OK && info.devices == 0,
              "mem_limit 1 byte: %s, devices %d: %s", lcl_status_string(st), info.devices, lcl_last_error(ocl));
    lcl_bklu_numeric_free(N);
    lcl_bklu_symbolic_free(S);
    bt_free(&c);
}
/* a tunable of every device of ctx set to v (white box: as its environment variable would) */
#define BT_TUNE(ctx, field, v) do { int bt_d_; for (bt_d_ = 0; bt_d_ < (ctx)->ndev; bt_d_++) (ctx)->dev[bt_d_].tune.field = (v); } while (0)
/* F, the blocks off the block triangular form's diagonal, which the host copies between the
   launches, tune.bklu_fslice entries at a time (the default; 1000, which cuts the 70 x 70 blocks;
   0: all after the levels): serial's copy to the bit, and NaN in each of its blocks named; both
   dtypes and forms */
static void bt_ocl_fcopy(lcl_context *ocl, lcl_context *ser, const lcl_bklu_opts *o) {
    static const double pat[][3] = {{0, 0, 2}, {1, 1, 3}, {2, 2, -2}, {3, 3, 2}, {4, 4, 4}, {1, 2, 1}, {3, 0, 1}, {0, 4, 0.5}};
    int t, fs = ocl->dev[0].tune.bklu_fslice;
    for (t = 0; t < 12; t++) {
        bt_case c;
        lcl_csr J;
        lcl_bklu_symbolic *S = NULL;
        lcl_bklu_numeric *N = NULL, *Ns = NULL;
        lcl_dtype dt = t & 1 ? LCL_F32 : LCL_F64;
        int64_t e, sg, nbad = 0;
        if (dt == LCL_F64 && !bt_fp64(ocl)) continue;
        BT_TUNE(ocl, bklu_fslice, t < 4 ? fs : t < 8 ? 1000 : 0);
        bt_J(&J, 5, pat, 8);
        bt_make(&c, &J, 70, BT_KRON, dt, (t >> 1) & 1);
        CHECK_OK(ser, lcl_bklu_analyze(ser, &c.A, o, &S, NULL));
        CHECK_OK(ocl, lcl_bklu_factor(ocl, S, &c.A, &N, NULL));
        CHECK_OK(ser, lcl_bklu_factor(ser, S, &c.A, &Ns, NULL));
        if (!N || !Ns) goto next;
        bt_new_values(&c);
        CHECK_OK(ocl, lcl_bklu_refactor(ocl, S, &c.A, N, NULL));
        CHECK_OK(ser, lcl_bklu_refactor(ser, S, &c.A, Ns, NULL));
        CHECK(N->fp[N->n] == 3 && !memcmp(N->F, Ns->F, (size_t)(N->fp[N->n] * N->mm) * lcl__dsize(dt)));
        /* the pivots the host reads back after the levels (a host solve or a fetch uses them) */
        CHECK(!memcmp(N->ipiv, Ns->ipiv, (size_t)(N->n * N->m) * sizeof(int32_t)));
        for (e = 0; e < c.A.nnzb; e++) {
            char want[128];
            if (N->amap[e] >= 0) continue;
            sg = lcl__bklu_seg(c.A.ptr, c.A.n, e);
            snprintf(want, sizeof want, "block (%lld, %lld) (block row, column; 0-based) holds NaN or Inf",
                     (long long)(c.A.by_row ? sg : c.A.idx[e]), (long long)(c.A.by_row ? c.A.idx[e] : sg));
            bt_put(dt, c.A.val, e * N->mm + N->mm - 1 - 1000 * nbad, nbad & 1 ? HUGE_VAL : nan(""));   /* past a slice's cut, or in it */
            nbad++;
            BT_FAILS(ocl, lcl_bklu_refactor(ocl, S, &c.A, N, NULL), LCL_ERR_NAN, want);
            bt_sync(&c);
        }
        CHECK(nbad == 3);
        CHECK_OK(ocl, lcl_bklu_refactor(ocl, S, &c.A, N, NULL));
        CHECK_OK(ser, lcl_bklu_refactor(ser, S, &c.A, Ns, NULL));
        CHECK(!memcmp(N->F, Ns->F, (size_t)(N->fp[N->n] * N->mm) * lcl__dsize(dt)));
    next:
        lcl_bklu_numeric_free(N);
        lcl_bklu_numeric_free(Ns);
        lcl_bklu_symbolic_free(S);
        bt_free(&c);   /* J's too (bt_make took it) */
    }
    BT_TUNE(ocl, bklu_fslice, fs);
}

/* singular pivot blocks and NaN through the OpenCL context: what serial reports */
static void bt_ocl_errors(lcl_context *ocl, lcl_context *ser, const lcl_bklu_opts *o) {
    int t;
    bt_ocl_fcopy(ocl, ser, o);
    for (t = 0; t < 2; t++) {
        bt_case c;
        lcl_csr J;
        lcl_bklu_symbolic *S = NULL;
        lcl_bklu_numeric *N = NULL, *Ns = NULL;
        lcl_bklu_info is, io;
        lcl_dtype dt = t ? LCL_F32 : LCL_F64;
        if (!t && !bt_fp64(ocl)) continue;
        bt_Jrand(&J, 40, 0.05);
        bt_make(&c, &J, 5, BT_SINGB, dt, t);
        CHECK_OK(ser, lcl_bklu_analyze(ser, &c.A, o, &S, NULL));
        CHECK_STATUS(ser, lcl_bklu_factor(ser, S, &c.A, &N, &is), LCL_ERR_SINGULAR);
        CHECK_STATUS(ocl, lcl_bklu_factor(ocl, S, &c.A, &N, &io), LCL_ERR_SINGULAR);
        CHECK_MSG(is.singular_col == io.singular_col && is.singular_row == io.singular_row && is.singular_index == io.singular_index,
                  "OpenCL singular at (%lld, %lld) row %lld, serial (%lld, %lld) row %lld", (long long)io.singular_row,
                  (long long)io.singular_col, (long long)io.singular_index, (long long)is.singular_row, (long long)is.singular_col,
                  (long long)is.singular_index);
        /* a good factor, then a refactor with B singular, then with NaN: errors; good again: works */
        c.kind = BT_KRON;
        bt_fill(&c);
        CHECK_OK(ocl, lcl_bklu_factor(ocl, S, &c.A, &N, NULL));
        CHECK_OK(ser, lcl_bklu_factor(ser, S, &c.A, &Ns, NULL));
        c.kind = BT_SINGB;
        bt_fill(&c);
        if (N && Ns) {
            CHECK_STATUS(ser, lcl_bklu_refactor(ser, S, &c.A, Ns, &is), LCL_ERR_SINGULAR);
            CHECK_STATUS(ocl, lcl_bklu_refactor(ocl, S, &c.A, N, &io), LCL_ERR_SINGULAR);
            CHECK(is.singular_col == io.singular_col && is.singular_row == io.singular_row && is.singular_index == io.singular_index);
            c.kind = BT_KRON;
            bt_fill(&c);
            bt_poke(&c, c.J.rows - 1, c.J.col[c.J.nnz - 1], 3, nan(""));
            BT_FAILS(ocl, lcl_bklu_refactor(ocl, S, &c.A, N, &io), LCL_ERR_NAN, "holds NaN or Inf");
            bt_sync(&c);
            CHECK_OK(ocl, lcl_bklu_refactor(ocl, S, &c.A, N, &io));
            CHECK_OK(ocl, lcl_bklu_refactor(ocl, S, &c.A, N, &io));
            {
                int64_t nm = c.A.n * c.m;
                void *b = kt_rhs(dt, nm, 1, nm), *x = malloc((size_t)nm * lcl__dsize(dt));
                memcpy(x, b, (size_t)nm * lcl__dsize(dt));
                CHECK_OK(ocl, lcl_bklu_solve(ocl, S, N, 1, x, nm));
                CHECK(bt_resid(&c, x, b, 1, nm, 0) <= bt_rtol(dt));
                free(b); free(x);
            }
        }
        lcl_bklu_numeric_free(N);
        lcl_bklu_numeric_free(Ns);
        lcl_bklu_symbolic_free(S);
        bt_free(&c);
    }
}
/* blocks past 256 rows: the pivot LU's kernels that name their work-group (512 and 1024 items),
   against the serial backend */
static void bt_ocl_big(lcl_context *ocl, lcl_context *ser, const lcl_bklu_opts *base) {
    static const struct { int64_t n, m; int kind; } sh[] = {{3, 300, BT_ZERO00}, {2, 513, BT_RAND}};
    int s;
    for (s = 0; s < 2; s++) {
        bt_case c;
        lcl_csr J;
        lcl_dtype dt = s == 0 && bt_fp64(ocl) ? LCL_F64 : LCL_F32;
        bt_Jrand(&J, sh[s].n, 0.5);
        bt_make(&c, &J, sh[s].m, sh[s].kind, dt, s);
        bt_check(ocl, &c, base, 2, "OpenCL, large blocks");
        bt_cross(ser, ocl, &c, base, bt_xtol(dt), "OpenCL vs serial, large blocks");
        bt_free(&c);
    }
}
/* clEnqueueNDRangeKernel calls of one factorization (counted by the fault hooks), -1 if it fails */
static int bt_launches(lcl_context *ctx, bt_case *c, const lcl_bklu_opts *o) {
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N = NULL;
    int n = -1;
    if (lcl_bklu_analyze(ctx, &c->A, o, &S, NULL) == LCL_OK) {
        lt_cl_fail("clEnqueueNDRangeKernel", 0x7fffffff, -5);
        if (lcl_bklu_factor(ctx, S, &c->A, &N, NULL) == LCL_OK) n = lt_cl_calls("clEnqueueNDRangeKernel");
        lt_cl_reset();
    }
    lcl_bklu_numeric_free(N);
    lcl_bklu_symbolic_free(S);
    return n;
}
/* partial pivoting's mark, which the residuals do not show: no multiplier of any pivot block's L
   above 1 in magnitude (a pivot that was not the column's largest leaves one there); the largest,
   or 1e300 if the factorization fails */
static double bt_lmax(lcl_context *ctx, bt_case *c, const lcl_bklu_opts *o) {
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N = NULL;
    double mx = 1e300;
    int64_t k, r, q;
    if (lcl_bklu_analyze(ctx, &c->A, o, &S, NULL) == LCL_OK && lcl_bklu_factor(ctx, S, &c->A, &N, NULL) == LCL_OK &&
        lcl__bklu_cl_fetch(ctx, N) == LCL_OK)
        for (k = 0, mx = 0; k < N->n; k++)
            for (r = 1; r < N->m; r++)
                for (q = 0; q < r; q++) {
                    size_t at = (size_t)((N->colp[k] + N->ucnt[k]) * N->mm + r * N->m + q);
                    double v = N->dtype == LCL_F32 ? (double)((const float *)N->X)[at] : ((const double *)N->X)[at];
                    mx = fabs(v) > mx ? fabs(v) : mx;
                }
    lcl_bklu_numeric_free(N);
    lcl_bklu_symbolic_free(S);
    return mx;
}
/* the factors (values and pivots) of a and b bit for bit the same */
/* N0 (factored in context a) and N1 (in b) hold the same factors and pivots, to the bit */
static int bt_equal(lcl_context *a, lcl_bklu_numeric *N0, lcl_context *b, lcl_bklu_numeric *N1) {
    return N0 && N1 && lcl__bklu_cl_fetch(a, N0) == LCL_OK && lcl__bklu_cl_fetch(b, N1) == LCL_OK &&
           !memcmp(N0->X, N1->X, (size_t)(N0->nslot * N0->mm) * lcl__dsize(N0->dtype)) &&
           !memcmp(N0->ipiv, N1->ipiv, (size_t)(N0->n * N0->m) * sizeof(int32_t));
}
static int bt_same(lcl_context *a, lcl_context *b, bt_case *c, const lcl_bklu_opts *o) {
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N[2] = {NULL, NULL};
    int same = lcl_bklu_analyze(a, &c->A, o, &S, NULL) == LCL_OK && lcl_bklu_factor(a, S, &c->A, &N[0], NULL) == LCL_OK &&
               lcl_bklu_factor(b, S, &c->A, &N[1], NULL) == LCL_OK && bt_equal(a, N[0], b, N[1]);
    lcl_bklu_numeric_free(N[0]);
    lcl_bklu_numeric_free(N[1]);
    lcl_bklu_symbolic_free(S);
    return same;
}
/* c from a generator spec: BT_RAND blocks of m, by columns; 0 with err on failure */
static int bt_gen(lcl_context *ser, const char *spec, int64_t m, lcl_dtype dt, bt_case *c, char *err, size_t cap) {
    lcl_coo C;
    lcl_csr J;
    if (lclg_load(ser, spec, 1, LCL_F64, &C, err, cap) != LCL_OK) return 0;
    if (lcl_csr_from_coo(ser, &C, &J) != LCL_OK) {
        lcl_coo_free(&C);
        snprintf(err, cap, "%s", lcl_last_error(ser));
        return 0;
    }
    lcl_coo_free(&C);
    bt_make(c, &J, m, BT_RAND, dt, 0);
    return 1;
}
/* device 0 of ctx takes queue priority hints (the loader has OpenCL 2.0's queue call, the device
   the extension) */
static int bt_prio_hints(lcl_context *ctx) {
    return LCL__CL->clCreateCommandQueueWithProperties && lcl__cl_has_ext(ctx->dev[0].id, "cl_khr_priority_hints");
}
/* a count of what the block LU chose, summed over the context's devices: blocks of A written
   straight from pinned memory (ahead 0), levels launched while the one before ran (ahead 1) */
static long bt_seen(lcl_context *ocl, int ahead) {
    long t = 0;
    int d;
    for (d = 0; d < ocl->ndev; d++) t += ahead ? ocl->dev[d].seen.ahead_levels : ocl->dev[d].seen.direct_blocks;
    return t;
}
/* A's values in the context's pinned memory (lcl_host_alloc): factor and refactor stage its
   blocks straight from it (counted per device; the first level's, not staged, are written from A
   either way), with factors equal to the bit to those of the same A in malloc'd memory, which
   goes through the staging ring (counted: none direct, and one write a run of blocks). Pinned
   both ways: a mapped CL_MEM_ALLOC_HOST_PTR buffer, and memory under CL_MEM_USE_HOST_PTR buffers
   (tune.host_register, NVIDIA's default), here in pieces of 4 KB that A's blocks straddle, one set
   per distinct cl_context, page-aligned. And the allocator's bad input, and a block left for
   lcl_context_destroy to free. gen:circuit:100 in blocks of 3 keeps the factors resident. */
static void bt_pinned(lcl_context *ocl, lcl_context *ser, const lcl_bklu_opts *o) {
    bt_case c;
    char err[200];
    void *pin = NULL, *keep, *junk = malloc(8);
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N[3] = {NULL, NULL, NULL};
    size_t bytes;
    long d[4] = {0, 0, 0, 0};
    int h, i, j, nctx = 0, w[3] = {-1, -1, -1}, reg0 = ocl->dev[0].tune.host_register, piece0 = ocl->dev[0].tune.host_piece_kb;
    CHECK(lcl_host_alloc(ocl, 0, &pin) == LCL_ERR_INVALID_ARGUMENT && pin == NULL);
    CHECK(lcl_host_free(ocl, junk) == LCL_ERR_INVALID_ARGUMENT && strstr(lcl_last_error(ocl), "lcl_host_alloc"));
    CHECK(lcl_host_free(ocl, NULL) == LCL_OK);
    CHECK_OK(ser, lcl_host_alloc(ser, 64, &pin));   /* plain memory on a CPU backend, freed the same way */
    CHECK(pin != NULL && lcl_host_free(ser, pin) == LCL_OK);
    CHECK_OK(ser, lcl_host_alloc(ser, 32, &pin));   /* left to lcl_context_destroy (the leak checks see it) */
    free(junk);
    if (!bt_gen(ser, "gen:circuit:100", 3, bt_fp64(ocl) ? LCL_F64 : LCL_F32, &c, err, sizeof err)) {
        CHECK_MSG(0, "gen:circuit:100: %s", err);
        return;
    }
    for (i = 0; i < ocl->ndev; i++) {
        for (j = 0; j < i && ocl->dev[j].cl != ocl->dev[i].cl; j++) {}
        nctx += j == i;
    }
    bytes = (size_t)(c.A.nnzb * c.A.m * c.A.m) * lcl__dsize(c.A.dtype);
    CHECK_OK(ocl, lcl_bklu_analyze(ocl, &c.A, o, &S, NULL));
    keep = c.A.val;
    d[0] = bt_seen(ocl, 0);
    for (h = 0; h < 3 && S; h++) {   /* h = 0: malloc'd; 1: a mapped buffer; 2: registered */
        if (h) {
            BT_TUNE(ocl, host_register, h == 2);
            BT_TUNE(ocl, host_piece_kb, 4);
            pin = NULL;
            CHECK_OK(ocl, lcl_host_alloc(ocl, bytes, &pin));
            if (!pin) break;
            if (h == 2)
                CHECK_MSG(ocl->host[ocl->nhost - 1].nreg == nctx * (int)((bytes + 4095) / 4096) && (uintptr_t)pin % 4096 == 0 &&
                              lcl__host_pinned(ocl, pin, bytes) && !lcl__host_pinned(ocl, (char *)pin + 8, bytes),
                          "registered: %d buffers for %zu bytes in pieces of 4 KB on %d context(s), at %p", ocl->host[ocl->nhost - 1].nreg,
                          bytes, nctx, pin);
            memcpy(pin, keep, bytes);
            c.A.val = pin;
        }
        CHECK_OK(ocl, lcl_bklu_factor(ocl, S, &c.A, &N[h], NULL));
        lt_cl_fail("clEnqueueWriteBuffer", 0x7fffffff, -5);   /* counted */
        if (N[h]) CHECK_OK(ocl, lcl_bklu_refactor(ocl, S, &c.A, N[h], NULL));
        w[h] = lt_cl_calls("clEnqueueWriteBuffer");
        lt_cl_reset();
        d[h + 1] = bt_seen(ocl, 0);
        if (h) CHECK(lcl_host_free(ocl, pin) == LCL_OK);
        c.A.val = keep;
    }
    BT_TUNE(ocl, host_register, reg0);
    BT_TUNE(ocl, host_piece_kb, piece0);
    /* through the ring too, one write a run of frames (a column's A blocks take consecutive ones):
       gen:circuit:100 in blocks of 3 took 133 (pinned 150) for 410 blocks, one a block before */
    CHECK_MSG(w[0] > 0 && w[0] < c.A.nnzb * 6 / 10, "the refactor's writes: %d with malloc'd A (pinned: %d) for %lld blocks of A", w[0], w[1],
              (long long)c.A.nnzb);
    for (h = 1; h < 3; h++) {
        int same = bt_equal(ocl, N[0], ocl, N[h]);
        CHECK_MSG(same && d[1] == d[0] && d[h + 1] > d[h], "%s A: factors %s, blocks staged straight from it: %ld with malloc'd A, %ld with "
                  "pinned A (want 0 and some)", h == 1 ? "mapped" : "registered", same ? "equal" : "DIFFER", d[1] - d[0], d[h + 1] - d[h]);
    }
    for (h = 0; h < 3; h++) lcl_bklu_numeric_free(N[h]);
    lcl_bklu_symbolic_free(S);
    bt_free(&c);
}
/* the host a level ahead (tune.bklu_ahead, the default): level l + 1 listed and launched while l
   runs, lists and work frames in two alternating sets. The factors must equal those of one level
   at a time to the bit (the same launches in the same order), and some levels must have gone
   ahead */
static void bt_ahead(lcl_context *ocl, lcl_context *ser, const lcl_bklu_opts *o) {
    lcl_bklu_opts one = *o;     /* one device: nothing exchanged, whatever the context holds */
    bt_case c;
    char err[200];
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N[2] = {NULL, NULL};
    long seen[3];
    int h, same;
    if (!bt_gen(ser, "gen:circuit:100", 5, bt_fp64(ocl) ? LCL_F64 : LCL_F32, &c, err, sizeof err)) {
        CHECK_MSG(0, "gen:circuit:100: %s", err);
        return;
    }
    one.devices = 1;
    CHECK_OK(ocl, lcl_bklu_analyze(ocl, &c.A, &one, &S, NULL));
    for (h = 0; h < 2 && S; h++) {     /* h = 0: one level at a time */
        BT_TUNE(ocl, bklu_ahead, h);
        seen[h] = bt_seen(ocl, 1);
        CHECK_OK(ocl, lcl_bklu_factor(ocl, S, &c.A, &N[h], NULL));
        if (N[h]) CHECK_OK(ocl, lcl_bklu_refactor(ocl, S, &c.A, N[h], NULL));
    }
    seen[2] = bt_seen(ocl, 1);
    same = bt_equal(ocl, N[0], ocl, N[1]);
    CHECK_MSG(same && seen[1] == seen[0] && seen[2] > seen[1], "a level ahead: factors %s, levels launched ahead: %ld one at a time, %ld by "
              "default (want 0 and some)", same ? "equal" : "DIFFER", seen[1] - seen[0], seen[2] - seen[1]);
    lcl_bklu_numeric_free(N[0]);
    lcl_bklu_numeric_free(N[1]);
    lcl_bklu_symbolic_free(S);
    bt_free(&c);
}
/* a device that refuses memory within the plan (NVIDIA allocates at first use: its refusal comes
   from a kernel's launch) gets the factorization again, planned for three quarters as much: the
   same factors; kept for the refactor; with opts.mem_limit the caller's cap stands: the error */
static void bt_memretry(lcl_context *ocl, lcl_context *ser) {
    lcl_bklu_opts o;
    bt_case c;
    char err[200];
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N[3] = {NULL, NULL, NULL};
    lcl_status st;
    int calls, same;
    if (!bt_gen(ser, "gen:circuit:100", 3, bt_fp64(ocl) ? LCL_F64 : LCL_F32, &c, err, sizeof err)) {
        CHECK_MSG(0, "gen:circuit:100: %s", err);
        return;
    }
    memset(&o, 0, sizeof o);
    o.devices = 1;
    CHECK_OK(ocl, lcl_bklu_analyze(ocl, &c.A, &o, &S, NULL));
    if (S) CHECK_OK(ocl, lcl_bklu_factor(ocl, S, &c.A, &N[0], NULL));
    if (S && lt_cl_fail("clEnqueueNDRangeKernel", 1, -5)) {   /* CL_OUT_OF_RESOURCES */
        st = lcl_bklu_factor(ocl, S, &c.A, &N[1], NULL);
        calls = lt_cl_calls("clEnqueueNDRangeKernel");
        lt_cl_reset();
        same = st == LCL_OK && N[0] && N[1] && bt_equal(ocl, N[0], ocl, N[1]);
        CHECK_MSG(same && calls > 1 && fabs(N[1]->memfrac - 0.675) < 1e-12, "a device refusing memory: %s, factors %s, %d launches, planned for %.3f",
                  lcl_status_string(st), same ? "equal" : "DIFFER", calls, N[1] ? N[1]->memfrac : -1.0);
        if (N[1]) CHECK_OK(ocl, lcl_bklu_refactor(ocl, S, &c.A, N[1], NULL));
        CHECK(N[1] && fabs(N[1]->memfrac - 0.675) < 1e-12);
        o.mem_limit = (int64_t)1 << 30;
        lcl_bklu_symbolic_free(S);
        S = NULL;
        CHECK_OK(ocl, lcl_bklu_analyze(ocl, &c.A, &o, &S, NULL));
        if (S && lt_cl_fail("clEnqueueNDRangeKernel", 1, -5)) {
            st = lcl_bklu_factor(ocl, S, &c.A, &N[2], NULL);
            lt_cl_reset();
            CHECK_MSG(st == LCL_ERR_DEVICE_MEMORY && N[2] == NULL && strstr(lcl_last_error(ocl), "lcl_bklu"),
                      "a device refusing memory under opts.mem_limit: %s (%s)", lcl_status_string(st), lcl_last_error(ocl));
            lcl_clear_error(ocl);
        }
    }
    lcl_bklu_numeric_free(N[0]);
    lcl_bklu_numeric_free(N[1]);
    lcl_bklu_numeric_free(N[2]);
    lcl_bklu_symbolic_free(S);
    bt_free(&c);
}
static int bt_cl_run(lcl_context *ctx, void *u);
static void test_bklu_opencl(void) {
    lcl_context *ocl = lt_ocl(NULL), *ser;
    lcl_bklu_opts o;
    if (!ocl) { lt_skip("no OpenCL device"); return; }
    ser = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    kt_rs = 0xc1u;
    memset(&o, 0, sizeof o);
    bt_ocl_sweep(ocl, ser, &o, 0);
    o.devices = 1;
    o.schedule = LCL_BKLU_STATIC;
    bt_ocl_sweep(ocl, ser, &o, 1);
    memset(&o, 0, sizeof o);
    bt_ocl_memory(ocl, ser, &o);
    bt_ocl_errors(ocl, ser, &o);
    bt_ocl_big(ocl, ser, &o);
    bt_pinned(ocl, ser, &o);
    bt_ahead(ocl, ser, &o);
    bt_memretry(ocl, ser);
    if (!lt_small()) {   /* the pivot LU's other path (a work-group smaller than M: M > 1024), for every M;
                            a kernel's build option only, the host's path is the default's: not under ASan */
        lcl_context *old = lt_context(LCL_BACKEND_OPENCL, NULL, getenv("LT_CACHE"), "-DBK_LU_NOREG", 0);
        if (old) bt_ocl_sweep(old, ser, &o, 0);
        if (old) bt_ocl_big(old, ser, &o);
        CHECK(old != NULL);
        lcl_context_destroy(old);
    }
    {   /* eager U steps (LCL_BKLU_EAGER): gen:circuit:100's later columns run their ready U steps
           with earlier levels; each block's updates come in the same order, so the factors are bit
           for bit those of the level schedule, in fewer launches; then its faults and a sweep */
        lcl_context *eg = lt_context(LCL_BACKEND_OPENCL, NULL, getenv("LT_CACHE"), NULL, 0);
        bt_case c;
        char err[200];
        int n0, n1, e0 = ocl->dev[0].tune.bklu_eager;
        CHECK(eg != NULL);
        BT_TUNE(ocl, bklu_eager, 0);   /* ocl: the level schedule, the reference */
        if (eg && bt_gen(ser, "gen:circuit:100", 3, bt_fp64(ocl) ? LCL_F64 : LCL_F32, &c, err, sizeof err)) {
            BT_TUNE(eg, bklu_eager, 1);
            memset(&o, 0, sizeof o);
            o.devices = 1;
            n0 = bt_launches(ocl, &c, &o);
            n1 = bt_launches(eg, &c, &o);
            CHECK_MSG(n0 > 0 && n1 > 0 && n1 < n0, "eager: %d launches against %d", n1, n0);
            fprintf(stderr, "  eager U steps: %d launches against %d\n", n1, n0);
            CHECK_MSG(bt_same(ocl, eg, &c, &o), "eager: other factors than the level schedule's");
            {   /* the early U steps of columns past the next level paced (tune.bklu_eager_pace): the
                   same factors; some level's selection cut short at 5% of the average level's work,
                   none without a limit */
                const int pace = eg->dev[0].tune.bklu_eager_pace;
                long p0 = eg->dev[0].seen.eager_paced, p1;
                BT_TUNE(eg, bklu_eager_pace, 5);
                CHECK_MSG(bt_same(ocl, eg, &c, &o), "eager, paced at 5%%: other factors than the level schedule's");
                p1 = eg->dev[0].seen.eager_paced;
                BT_TUNE(eg, bklu_eager_pace, 0);
                CHECK(bt_same(ocl, eg, &c, &o));
                CHECK_MSG(p1 > p0 && eg->dev[0].seen.eager_paced == p1, "eager, paced: %ld levels cut short at 5%%, then %ld without a limit "
                          "(want some, then 0)", p1 - p0, eg->dev[0].seen.eager_paced - p1);
                BT_TUNE(eg, bklu_eager_pace, pace);
            }
            {   /* later columns' A in batches of their own (tune.bklu_eager_arrived), or in the level's
                   stage: the same factors; batches made only in the first */
                int64_t nb[2] = {-1, -1};
                int a;
                for (a = 0; a < 2; a++) {
                    lcl_bklu_symbolic *S = NULL;
                    lcl_bklu_numeric *N = NULL;
                    BT_TUNE(eg, bklu_eager_arrived, !a);
                    if (lcl_bklu_analyze(eg, &c.A, &o, &S, NULL) == LCL_OK && lcl_bklu_factor(eg, S, &c.A, &N, NULL) == LCL_OK && N->cl)
                        nb[a] = N->cl->dv[0].enb;
                    lcl_bklu_numeric_free(N);
                    lcl_bklu_symbolic_free(S);
                    if (a) CHECK_MSG(bt_same(ocl, eg, &c, &o), "eager, one stage a level: other factors than the level schedule's");
                }
                CHECK_MSG(nb[0] > 0 && nb[1] == 0, "eager: %lld batches of later columns' A, %lld with one stage a level (want some and 0)",
                          (long long)nb[0], (long long)nb[1]);
                BT_TUNE(eg, bklu_eager_arrived, 1);
            }
            {   /* later columns' A in level order within a window (tune.bklu_stage_kb: the default,
                   all of it here; 1 KB, a few blocks; 0, by the level before a column's first U
                   step): the same factors. How many batches depends on when they arrive (under
                   asan, more of them do before the next top-up); their sizes do not: a batch of
                   the 1 KB window holds at most a quarter window and one column, and the default's
                   largest is larger */
                static const int kb[3] = {-1, 1, 0};
                int64_t nb[3] = {-1, -1, -1};
                double big[3] = {0, 0, 0}, col = 0;
                int w, dflt = eg->dev[0].tune.bklu_stage_kb;
                for (w = 0; w < 3; w++) {
                    lcl_bklu_symbolic *S = NULL;
                    lcl_bklu_numeric *N = NULL;
                    BT_TUNE(eg, bklu_stage_kb, kb[w] < 0 ? dflt : kb[w]);
                    if (lcl_bklu_analyze(eg, &c.A, &o, &S, NULL) == LCL_OK && lcl_bklu_factor(eg, S, &c.A, &N, NULL) == LCL_OK && N->cl) {
                        const lcl__bklu_dev *v = &N->cl->dv[0];
                        int64_t b, k;
                        nb[w] = v->enb;
                        for (b = 0; b < v->enb; b++) big[w] = big[w] > v->ebytes[b] ? big[w] : v->ebytes[b];
                        for (k = 0; k < c.A.n; k++)
                            if ((double)(N->cl->acp[k + 1] - N->cl->acp[k]) > col) col = (double)(N->cl->acp[k + 1] - N->cl->acp[k]);
                    }
                    lcl_bklu_numeric_free(N);
                    lcl_bklu_symbolic_free(S);
                    CHECK_MSG(bt_same(ocl, eg, &c, &o), "eager, A's window %d KB: other factors than the level schedule's", kb[w]);
                }
                col *= (double)(c.A.m * c.A.m) * (double)lcl__dsize(c.A.dtype);
                CHECK_MSG(nb[0] > 0 && nb[1] > 0 && nb[2] > 0 && big[1] <= 256 + col && big[0] > big[1],
                          "eager: %lld, %lld, %lld batches of A, the largest %.0f, %.0f, %.0f bytes (want some each; the second at most %.0f, "
                          "below the first)", (long long)nb[0], (long long)nb[1], (long long)nb[2], big[0], big[1], big[2], 256 + col);
                BT_TUNE(eg, bklu_stage_kb, dflt);
            }
            if (eg->dev[0].queue[1] != eg->dev[0].queue[0]) {
                /* the later columns' rounds on a second queue (tune.bklu_eager_queue, the default, as in
                   the checks above) or after the level's own: the same factors; rounds there only in the first */
                long r0 = eg->dev[0].seen.eager_rounds, r1;
                CHECK(bt_same(ocl, eg, &c, &o));
                r1 = eg->dev[0].seen.eager_rounds;
                BT_TUNE(eg, bklu_eager_queue, 0);
                CHECK_MSG(bt_same(ocl, eg, &c, &o), "eager, one queue: other factors than the level schedule's");
                CHECK_MSG(r1 > r0 && eg->dev[0].seen.eager_rounds == r1, "eager: %ld rounds on the second queue, then %ld with one (want some, then 0)",
                          r1 - r0, eg->dev[0].seen.eager_rounds - r1);
                BT_TUNE(eg, bklu_eager_queue, 1);
                /* that queue with a low priority hint (tune.bklu_eager_prio), made so where the device
                   has cl_khr_priority_hints (else the plain queue): the same factors */
                r0 = eg->dev[0].seen.low_queues;
                BT_TUNE(eg, bklu_eager_prio, 1);
                CHECK_MSG(bt_same(ocl, eg, &c, &o), "eager, a low-priority queue: other factors than the level schedule's");
                CHECK_MSG(bt_prio_hints(eg) ? eg->dev[0].seen.low_queues > r0 : eg->dev[0].seen.low_queues == r0,
                          "eager: %ld low-priority queues made; the device %s cl_khr_priority_hints", eg->dev[0].seen.low_queues - r0,
                          bt_prio_hints(eg) ? "has" : "lacks");
                BT_TUNE(eg, bklu_eager_prio, 0);
                /* a level's end waiting on that queue only up to the next level's columns' rounds
                   (tune.bklu_eager_end), the later ones running on beside the next level: the
                   same factors (each column's steps keep their order), and some level did end so */
                const int eend = eg->dev[0].tune.bklu_eager_end;   /* the default, 1, unless the environment says */
                BT_TUNE(eg, bklu_eager_end, 1);
                BT_TUNE(eg, bklu_eager_hold, 1);   /* each level's rounds held until the next level is launched */
                CHECK_MSG(bt_same(ocl, eg, &c, &o), "eager, levels ending before later columns' rounds: other factors than the level schedule's");
                {   /* (gen:circuit:100's next levels hold the longest rounds; 300's do not, at some levels) */
                    bt_case c3;
                    r0 = eg->dev[0].seen.eager_early_ends;
                    if (bt_gen(ser, "gen:circuit:300", 2, c.A.dtype, &c3, err, sizeof err)) {
                        CHECK_MSG(bt_same(ocl, eg, &c3, &o), "eager, gen:circuit:300, levels ending early: other factors than the level schedule's");
                        bt_free(&c3);
                    } else
                        CHECK_MSG(0, "gen:circuit:300: %s", err);
                    CHECK_MSG(eg->dev[0].seen.eager_early_ends > r0, "eager: %ld levels ended before their later columns' rounds (want some)",
                              eg->dev[0].seen.eager_early_ends - r0);
                }
                BT_TUNE(eg, bklu_eager_end, 0);
                CHECK_MSG(bt_same(ocl, eg, &c, &o), "eager, rounds held: other factors than the level schedule's");
                BT_TUNE(eg, bklu_eager_hold, 0);
                BT_TUNE(eg, bklu_eager_end, eend);
            }
            bt_check(eg, &c, &o, 2, "OpenCL, eager U steps");
            if (c.A.dtype == LCL_F64)
                fprintf(stderr, "  %d faulted runs\n", lt_cl_sweep("bklu, eager U steps", eg, LT_CL_ONE | LT_CL_OPTBUF | LT_CL_MEMRETRY, 100, "lcl_bklu", bt_cl_run, &c, NULL));
            bt_free(&c);
            memset(&o, 0, sizeof o);
            bt_ocl_sweep(eg, ser, &o, 1);
        } else if (eg)
            CHECK_MSG(0, "gen:circuit:100: %s", err);
        lcl_context_destroy(eg);
        BT_TUNE(ocl, bklu_eager, e0);
    }
    {   /* the pivot LU panel by panel (LCL_BKLU_LU_SPLIT), on both paths: the last panel narrow,
           singular blocks, no pivoting, blocks of 1 to 513 rows. The first context also has the
           pivot search by butterflies (BK_SHFL, emulated: 2), the inverses' prefetch (BK_TRI_PF)
           with 4 items a column (tune.bklu_tri_p) and the interchanges from
           registers (BK_SWAP_REG), in one piece and panel by panel: the same arithmetic, so the
           same factors, also in blocks of 130 rows (5 tiles of the inverses, 3 groups of columns). */
        static const char *opt[] = {"-DBK_SHFL=2 -DBK_TRI_PF=1 -DBK_SWAP_REG=2", "-DBK_LU_NOREG"};
        bt_case c, r, b;
        lcl_csr J;
        int64_t q;
        int i, one;
        bt_Jrand(&J, 5, 0.3);
        bt_make(&c, &J, 40, BT_RAND, bt_fp64(ocl) ? LCL_F64 : LCL_F32, 0);
        bt_Jrand(&J, 5, 0.3);
        bt_make(&r, &J, 70, BT_RAND, LCL_F32, 1);
        for (q = 0; q < r.A.nnzb * r.A.m * r.A.m; q++) ((float *)r.A.val)[q] = (float)(2 * kt_u() - 1);   /* pivoting at every step */
        CHECK_MSG(bt_lmax(ocl, &r, &o) <= 1, "a multiplier of %g", bt_lmax(ocl, &r, &o));
        bt_Jrand(&J, 4, 0.3);
        bt_make(&b, &J, 130, BT_RAND, bt_fp64(ocl) ? LCL_F64 : LCL_F32, 0);
        for (i = 0; i < (lt_small() ? 1 : 2); i++) {   /* LT_SMALL (ASan): the second is a kernel's build option only */
            lcl_context *sp = lt_context(LCL_BACKEND_OPENCL, NULL, getenv("LT_CACHE"), opt[i], 0);
            CHECK(sp != NULL);
            if (!sp) continue;
            if (!i) BT_TUNE(sp, bklu_tri_p, 4);   /* before its kernels are built */
            if (!i) {
                double lm = bt_lmax(sp, &r, &o);
                CHECK_MSG(lm <= 1, "%s: a multiplier of %g", opt[i], lm);
                CHECK_MSG(bt_same(ocl, sp, &r, &o) && bt_same(ocl, sp, &b, &o), "%s: other factors than without", opt[i]);
                bt_ocl_big(sp, ser, &o);
            }
            {   /* the split path runs: 40 rows, three panels, each but the last with its update */
                int n, eg0 = sp->dev[0].tune.bklu_eager;
                double lm;
                /* (the launches counted with no eager U steps: how many of those run early depends on
                   when the later columns' A has arrived, so the counts would vary from run to run) */
                BT_TUNE(sp, bklu_eager, 0);
                BT_TUNE(sp, bklu_lu_split, 0);   /* as LCL_BKLU_LU_SPLIT=0 */
                one = bt_launches(sp, &c, &o);
                BT_TUNE(sp, bklu_lu_split, 1);
                n = bt_launches(sp, &c, &o);
                if (!i) {
                    int s0 = ocl->dev[0].tune.bklu_lu_split;
                    BT_TUNE(ocl, bklu_lu_split, 1);
                    CHECK_MSG(bt_same(ocl, sp, &r, &o), "%s, panel by panel: other factors than without", opt[i]);
                    BT_TUNE(ocl, bklu_lu_split, s0);
                }
                CHECK_MSG(one > 0 && n >= one + 4, "launches: %d in one piece, %d panel by panel", one, n);
                lm = bt_lmax(sp, &r, &o);
                CHECK_MSG(lm <= 1, "%s, panel by panel: a multiplier of %g", opt[i], lm);
                {   /* the last 24 rows in one launch (tune.bklu_lu_tail): 40 rows, a panel and an update
                       fewer each pivot LU; 70 rows (r), from column 48 on */
                    int nt;
                    BT_TUNE(sp, bklu_lu_tail, 24);
                    nt = bt_launches(sp, &c, &o);
                    BT_TUNE(sp, bklu_eager, eg0);
                    CHECK_MSG(nt > 0 && nt < n && (n - nt) % 2 == 0, "%s, the last rows in one launch: %d launches, %d without", opt[i], nt, n);
                    lm = bt_lmax(sp, &r, &o);
                    CHECK_MSG(lm <= 1, "%s, the last rows in one launch: a multiplier of %g", opt[i], lm);
                    bt_check(sp, &c, &o, 2, "OpenCL, the pivot LU's last rows in one launch");
                    BT_TUNE(sp, bklu_lu_tail, 0);
                }
                if (!i && c.A.dtype == LCL_F64)   /* its launches' failures: clear errors, nothing leaked */
                    fprintf(stderr, "  %d faulted runs\n", lt_cl_sweep("bklu, pivot LU panel by panel", sp, LT_CL_ONE | LT_CL_OPTBUF | LT_CL_MEMRETRY, 100, "lcl_bklu",
                                                                       bt_cl_run, &c, NULL));
            }
            bt_ocl_sweep(sp, ser, &o, 1);
            bt_ocl_big(sp, ser, &o);
            if (!i) bt_ocl_errors(sp, ser, &o);
            lcl_context_destroy(sp);
        }
        {   /* panels 32 and 5 wide (tune.bklu_lr_nb, LCL_BKLU_LR_NB; the kernels built with it):
               40 rows in two panels, not three (two launches fewer a level), or in eight (ten
               more); multipliers at most 1 (r: too ill-conditioned in float for a residual's
               bound), residuals and the big blocks as with 16. The 32-wide context also searches
               its pivots by reductions of 32-bit keys (BK_REDUX, emulated: 2): a wrong argmax
               would show as a multiplier above 1 */
            static const int wide[2] = {32, 5};
            int n16 = 0, w;
            for (w = 0; w < 3; w++) {   /* a context a width: its kernels are built with it */
                lcl_context *sp = lt_context(LCL_BACKEND_OPENCL, NULL, getenv("LT_CACHE"), w == 1 ? "-DBK_SHFL=2 -DBK_REDUX=2" : NULL, 0);
                int n;
                double lm;
                CHECK(sp != NULL);
                if (!sp) break;
                BT_TUNE(sp, bklu_lu_split, 1);
                BT_TUNE(sp, bklu_lr_nb, w ? wide[w - 1] : 16);
                n = bt_launches(sp, &c, &o);
                if (!w) n16 = n;
                else {
                    CHECK_MSG(n16 > 0 && n != n16 && (n16 - n) % (w == 1 ? 2 : 10) == 0 && (w == 1) == (n < n16),
                              "pivot LU panels %d wide: %d launches, %d with 16", wide[w - 1], n, n16);
                    lm = bt_lmax(sp, &r, &o);
                    CHECK_MSG(lm <= 1, "pivot LU panels %d wide: a multiplier of %g", wide[w - 1], lm);
                    if (w == 1 && !lt_small()) {   /* the search by one key a stage (BK_KEY) falls back on ties: the same factors as
                                                      the search without (a kernel's build option only: not under ASan) */
                        lcl_context *nk = lt_context(LCL_BACKEND_OPENCL, NULL, getenv("LT_CACHE"), "-DBK_SHFL=2 -DBK_REDUX=2 -DBK_KEY=0", 0);
                        bt_case t;
                        CHECK(nk != NULL);
                        bt_Jrand(&J, 4, 0.3);
                        bt_make(&t, &J, 40, BT_RAND, c.A.dtype, 0);
                        bt_ties(&t);
                        if (nk) {
                            BT_TUNE(nk, bklu_lu_split, 1);
                            BT_TUNE(nk, bklu_lr_nb, 32);
                            CHECK_MSG(bt_same(sp, nk, &t, &o) && bt_same(sp, nk, &c, &o), "pivot search by keys: other factors than without");
                        }
                        lcl_context_destroy(nk);
                        bt_free(&t);
                    }
                    bt_check(sp, &c, &o, 2, "OpenCL, pivot LU panels of another width");
                    bt_ocl_big(sp, ser, &o);
                }
                lcl_context_destroy(sp);
            }
        }
        bt_free(&c);
        bt_free(&r);
        bt_free(&b);
    }
    lcl_context_destroy(ser);
    lcl_context_destroy(ocl);
}

/* an lt_cl_sweep run: factor, solve, refactor with the same values, solve; -1 for a wrong result */
static int bt_cl_run(lcl_context *ctx, void *u) {
    bt_case *c = (bt_case *)u;
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N = NULL;
    int64_t nm = c->A.n * c->m;
    double *b = (double *)malloc((size_t)nm * sizeof(double)), *x = (double *)malloc((size_t)nm * sizeof(double));
    lcl_status st;
    int ok = 1, k, i;
    for (i = 0; i < nm; i++) b[i] = 1 + 0.5 * (double)(i % 5);
    st = lcl_bklu_analyze(ctx, &c->A, NULL, &S, NULL);
    if (st == LCL_OK) st = lcl_bklu_factor(ctx, S, &c->A, &N, NULL);
    for (k = 0; k < 2 && st == LCL_OK; k++) {
        if (k) st = lcl_bklu_refactor(ctx, S, &c->A, N, NULL);
        memcpy(x, b, (size_t)nm * sizeof(double));
        if (st == LCL_OK) st = lcl_bklu_solve(ctx, S, N, 1, x, nm);
        if (st == LCL_OK) ok &= bt_resid(c, x, b, 1, nm, 0) <= bt_rtol(LCL_F64);
    }
    lcl_bklu_numeric_free(N);
    lcl_bklu_symbolic_free(S);
    free(b); free(x);
    return st == LCL_OK && !ok ? -1 : (int)st;
}

/* child (POCL_DEVICES="pthread pthread"): both devices (opts.devices 0 and 2), one, each schedule;
   the OpenCL faults of one device and of work split over both */
int lt_child_bklu(const char *name) {
    static const lcl_bklu_schedule sch[] = {LCL_BKLU_SCHEDULE_DEFAULT, LCL_BKLU_STATIC, LCL_BKLU_AFFINITY, LCL_BKLU_DYNAMIC};
    lcl_context *ocl = lt_ocl("Portable Computing Language"), *ser;   /* PoCL 5 names its devices cpu-..., 3 pthread-... */
    lcl_bklu_opts o;
    int s;
    (void)name;
    alarm(600);   /* a hang fails the test instead of the suite */
    if (!ocl || lcl_context_num_devices(ocl) != 2) {
        fprintf(stderr, "  want 2 devices, the context has %d\n", ocl ? lcl_context_num_devices(ocl) : 0);
        lcl_context_destroy(ocl);
        return 1;
    }
    ser = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    lt_checks_failed = 0;
    kt_rs = 0x2d3u;
    for (s = 0; s < 4; s++) {
        memset(&o, 0, sizeof o);
        o.schedule = sch[s];
        o.devices = s % 2 ? 2 : 0;
        bt_ocl_sweep(ocl, ser, &o, s > 0);
    }
    memset(&o, 0, sizeof o);
    o.devices = 1;
    bt_ocl_sweep(ocl, ser, &o, 1);
    memset(&o, 0, sizeof o);
    bt_pinned(ocl, ser, &o);
    bt_ahead(ocl, ser, &o);
    bt_ocl_memory(ocl, ser, &o);
    o.schedule = LCL_BKLU_AFFINITY;
    bt_ocl_errors(ocl, ser, &o);
    {   /* white box: a split factorization's exchanges pass through the producers' pinned areas
           exactly when the devices share a cl_context (LCL_SHARED_CONTEXT=1) */
        bt_case c;
        lcl_csr J;
        lcl_bklu_symbolic *S = NULL;
        lcl_bklu_numeric *N = NULL;
        lcl_bklu_info info;
        int64_t k, nx = 0;
        int shared = ocl->dev[0].cl == ocl->dev[1].cl;
        bt_Jrand(&J, 40, 0.08);
        bt_make(&c, &J, 4, BT_KRON, LCL_F32, 1);
        memset(&o, 0, sizeof o);
        memset(&info, 0, sizeof info);
        CHECK_OK(ocl, lcl_bklu_analyze(ocl, &c.A, &o, &S, NULL));
        if (S) CHECK_OK(ocl, lcl_bklu_factor(ocl, S, &c.A, &N, &info));
        if (N && N->cl) for (k = 0; k < c.A.n; k++) nx += N->cl->inx[k];
        CHECK_MSG(shared == lt_shared_env() && N && N->cl && N->cl->resident && info.devices == 2 && N->cl->shared == shared &&
                  (shared ? nx > 0 && (N->cl->dv[0].xptr || N->cl->dv[1].xptr) : nx == 0 && !N->cl->dv[0].xptr && !N->cl->dv[1].xptr),
                  "exchange: LCL_SHARED_CONTEXT=%d, shared %d, %d device(s), %lld columns through pinned areas", lt_shared_env(), shared,
                  info.devices, (long long)nx);
        fprintf(stderr, "  %s cl_context: %lld of %lld columns exchanged through pinned areas\n", shared ? "one shared" : "a", (long long)nx,
                (long long)c.A.n);
        if (N) bt_check(ocl, &c, &o, 3, shared ? "OpenCL, shared context" : "OpenCL, two contexts");
        bt_cross(ser, ocl, &c, &o, bt_xtol(LCL_F32), "OpenCL exchange");
        if (shared && S) {  /* with exchanges, still a level ahead (tune.bklu_xahead, the default): the
                               imports wait for their read-back by event; the factors bit for bit those
                               of the host's wait for every device each level, which launches none ahead;
                               and so with a host thread per device (OpenMP builds), and with the levels'
                               ends waiting for the next level's eager rounds only, each level's rounds
                               held until the next level is launched (tune.bklu_eager_end, _hold) */
            lcl_bklu_numeric *Nx[4] = {NULL, NULL, NULL, NULL};
            long ah[4] = {0, 0, 0, 0}, xi = ocl->dev[0].seen.eager_imports + ocl->dev[1].seen.eager_imports;
            long ee = ocl->dev[0].seen.eager_early_ends + ocl->dev[1].seen.eager_early_ends;
            int h, same[3];
            const int want = BT_HOST_THREADS, eend = ocl->dev[0].tune.bklu_eager_end;
            for (h = 0; h < 4; h++) {
                BT_TUNE(ocl, bklu_xahead, h > 0);
                BT_TUNE(ocl, bklu_host_threads, h == 2);
                BT_TUNE(ocl, bklu_eager_end, h == 3);
                BT_TUNE(ocl, bklu_eager_hold, h == 3);
                ah[h] = bt_seen(ocl, 1);
                CHECK_OK(ocl, lcl_bklu_factor(ocl, S, &c.A, &Nx[h], NULL));
                if (Nx[h]) CHECK_OK(ocl, lcl_bklu_refactor(ocl, S, &c.A, Nx[h], NULL));
                ah[h] = bt_seen(ocl, 1) - ah[h];
            }
            BT_TUNE(ocl, bklu_host_threads, 0);
            BT_TUNE(ocl, bklu_eager_end, eend);
            BT_TUNE(ocl, bklu_eager_hold, 0);
            for (h = 0; h < 3; h++) same[h] = Nx[0] && Nx[h + 1] && bt_equal(ocl, Nx[0], ocl, Nx[h + 1]);
            ee = ocl->dev[0].seen.eager_early_ends + ocl->dev[1].seen.eager_early_ends - ee;
            /* (those rounds run on a second queue: none where PoCL 4 and 5 get one, tune.pocl_one_queue) */
            const int q2 = ocl->dev[0].queue[1] != ocl->dev[0].queue[0];
            CHECK_MSG(same[2] && (q2 ? ee > 0 : ee == 0), "exchanges, the levels' ends on the next level's eager rounds: factors %s, %ld levels so "
                      "ended (want %s)", same[2] ? "equal" : "DIFFER", ee, q2 ? "some" : "none: one queue");
            CHECK_MSG(same[0] && same[1] && !Nx[0]->cl->xev && Nx[1]->cl->xev && Nx[2]->cl->hostthreads == want && ah[0] == 0 && ah[1] > 0 &&
                          ah[2] > 0,
                      "exchanges a level ahead: factors %s / %s (host threads %d, want %d), by events %d / %d, levels launched ahead %ld with "
                      "the host's waits, %ld / %ld by events",
                      same[0] ? "equal" : "DIFFER", same[1] ? "equal" : "DIFFER", Nx[2] && Nx[2]->cl ? Nx[2]->cl->hostthreads : -1, want,
                      Nx[0] && Nx[0]->cl->xev, Nx[1] && Nx[1]->cl->xev, ah[0], ah[1], ah[2]);
            fprintf(stderr, "  exchanges by events: %ld levels launched ahead (%ld with a host thread per device), %ld columns imported for "
                    "eager U steps\n", ah[1], ah[2], ocl->dev[0].seen.eager_imports + ocl->dev[1].seen.eager_imports - xi);
            for (h = 0; h < 4; h++) lcl_bklu_numeric_free(Nx[h]);
        }
        lcl_bklu_numeric_free(N);
        lcl_bklu_symbolic_free(S);
        bt_free(&c);
    }
    {   /* white box: no column wanted by the other device (affinity's split of gen:circuit:100), so
           each device runs its levels at its own pace (lcl__bklu_apart); then its faults */
        bt_case c;
        lcl_bklu_symbolic *S = NULL;
        lcl_bklu_numeric *N = NULL;
        lcl_bklu_info info;
        char err[200];
        int64_t k, on[2] = {0, 0}, nx = 0;
        unsigned reached = 0;
        if (bt_gen(ser, "gen:circuit:100", 3, bt_fp64(ocl) ? LCL_F64 : LCL_F32, &c, err, sizeof err)) {
            memset(&o, 0, sizeof o);
            memset(&info, 0, sizeof info);
            CHECK_OK(ocl, lcl_bklu_analyze(ocl, &c.A, &o, &S, NULL));
            if (S) CHECK_OK(ocl, lcl_bklu_factor(ocl, S, &c.A, &N, &info));
            if (N && N->cl)
                for (k = 0; k < c.A.n; k++) on[N->cl->owner[k]]++, nx += N->cl->inx[k] + N->cl->onhost[k];
            CHECK_MSG(N && N->cl && N->cl->resident && info.devices == 2 && on[0] > 0 && on[1] > 0 && nx == 0,
                      "apart: %lld and %lld columns, %lld exchanged", (long long)on[0], (long long)on[1], (long long)nx);
            if (N && N->cl) {   /* the solve runs on both devices: W moves between them, no factor comes to the host */
                int64_t nm = c.A.n * c.A.m, i, nh = 0;
                size_t es = lcl__dsize(c.A.dtype);
                char *xs = (char *)malloc((size_t)nm * es), *bb = (char *)malloc((size_t)nm * es);
                double dx;
                for (i = 0; i < nm; i++) {
                    if (c.A.dtype == LCL_F32) ((float *)xs)[i] = (float)sin(i + 1.0);
                    else ((double *)xs)[i] = sin(i + 1.0);
                }
                CHECK(lcl_bmat_mv(&c.A, xs, bb) == LCL_OK);
                N->cl->svmoves = -1;
                CHECK_OK(ocl, lcl_bklu_solve(ocl, S, N, 1, bb, nm));
                for (k = 0; k < c.A.n; k++) nh += N->cl->onhost[k];
                dx = bt_diff(c.A.dtype, bb, nm, c.A.dtype, xs, nm, nm, 1);
                CHECK_MSG(N->cl->svmoves >= 1 && nh == 0 && dx <= bt_xtol(c.A.dtype),
                          "solve on two devices: W moved %lld times, %lld columns fetched, |x - x*| / |x*| %.3g", (long long)N->cl->svmoves,
                          (long long)nh, dx);
                fprintf(stderr, "  solve on two devices: W moved %lld times\n", (long long)N->cl->svmoves);
                free(xs);
                free(bb);
            }
            if (N) bt_check(ocl, &c, &o, 2, "OpenCL, devices apart");
            bt_cross(ser, ocl, &c, &o, bt_xtol(c.A.dtype), "OpenCL apart vs serial");
            BT_TUNE(ocl, bklu_eager, 0);   /* the above with eager U steps (the default) */
            bt_check(ocl, &c, &o, 2, "OpenCL, devices apart, no eager U steps");
            BT_TUNE(ocl, bklu_eager, 1);
            {   /* eager U steps on several devices only below tune.bklu_eager_m: none at M, some at M + 1
                   (later columns' steps taken early, on a second queue or, with one, the level's) */
                long r[3];
                int h, em = ocl->dev[0].tune.bklu_eager_m;
                for (h = 0; h < 3; h++) {
                    int d;
                    for (d = 0, r[h] = 0; d < ocl->ndev; d++) r[h] += ocl->dev[d].seen.eager_cols;
                    if (h == 2) break;
                    BT_TUNE(ocl, bklu_eager_m, (int)c.A.m + h);
                    bt_check(ocl, &c, &o, 2, h ? "OpenCL, devices apart, eager below M + 1" : "OpenCL, devices apart, eager below M");
                }
                CHECK_MSG(r[1] == r[0] && r[2] > r[1], "later columns' eager U steps with tune.bklu_eager_m = M: %ld (want 0), M + 1: %ld (want some)",
                          r[1] - r[0], r[2] - r[1]);
                BT_TUNE(ocl, bklu_eager_m, em);
            }
            {   /* a host thread per device (LCL_BKLU_HOST_THREADS=1, OpenMP builds): the same
                   factors bit for bit, so the same solution; each thread too launches its
                   device's next level while the last runs, where both fit (ahead) */
                lcl_bklu_numeric *Nt[2] = {NULL, NULL};
                long ah[2] = {0, 0};
                int64_t nm = c.A.n * c.A.m, i, t;
                size_t es = lcl__dsize(c.A.dtype);
                char *xs[2];
                const int want = BT_HOST_THREADS;
                for (t = 0; t < 2; t++) {
                    xs[t] = (char *)malloc((size_t)nm * es);
                    for (i = 0; i < nm && xs[t]; i++) {
                        if (c.A.dtype == LCL_F32) ((float *)xs[t])[i] = (float)(i % 7) - 3;
                        else ((double *)xs[t])[i] = (double)(i % 7) - 3;
                    }
                    BT_TUNE(ocl, bklu_host_threads, (int)t);
                    if (S && xs[t]) CHECK_OK(ocl, lcl_bklu_factor(ocl, S, &c.A, &Nt[t], &info));
                    ah[t] = bt_seen(ocl, 1);
                    if (Nt[t]) CHECK_OK(ocl, lcl_bklu_refactor(ocl, S, &c.A, Nt[t], &info));
                    ah[t] = bt_seen(ocl, 1) - ah[t];
                    if (Nt[t]) CHECK_OK(ocl, lcl_bklu_solve(ocl, S, Nt[t], 1, xs[t], nm));
                }
                CHECK_MSG(Nt[0] && Nt[1] && Nt[0]->cl && Nt[1]->cl && Nt[0]->cl->hostthreads == 0 && Nt[1]->cl->hostthreads == want &&
                              xs[0] && xs[1] && memcmp(xs[0], xs[1], (size_t)nm * es) == 0,
                          "apart, a host thread per device: threads %d (want %d), the same solution %d",
                          Nt[1] && Nt[1]->cl ? Nt[1]->cl->hostthreads : -1, want,
                          xs[0] && xs[1] ? memcmp(xs[0], xs[1], (size_t)nm * es) == 0 : -1);
                if (Nt[0] && Nt[0]->cl && Nt[0]->cl->dv[0].ahead)
                    CHECK_MSG(ah[0] > 0 && ah[1] > 0, "apart, levels launched ahead in a refactor: %ld with one thread, %ld with a thread per device",
                              ah[0], ah[1]);
                BT_TUNE(ocl, bklu_host_threads, 0);
                for (t = 0; t < 2; t++) {
                    lcl_bklu_numeric_free(Nt[t]);
                    free(xs[t]);
                }
            }
            lcl_bklu_numeric_free(N);
            lcl_bklu_symbolic_free(S);
            if (c.A.dtype == LCL_F64) {
                int runs = lt_cl_sweep("bklu, devices apart", ocl, LT_CL_ONE | LT_CL_SPLIT | LT_CL_OPTBUF | LT_CL_MEMRETRY, 100, "lcl_bklu", bt_cl_run, &c, &reached);
                fprintf(stderr, "  %d faulted runs\n", runs);
                if (!lt_shared_env()) {     /* and a host thread per device (one of the two children: its time) */
                    BT_TUNE(ocl, bklu_host_threads, 1);
                    runs = lt_cl_sweep("bklu, devices apart, host threads", ocl, LT_CL_ONE | LT_CL_SPLIT | LT_CL_OPTBUF | LT_CL_MEMRETRY, 100, "lcl_bklu", bt_cl_run,
                                       &c, &reached);
                    fprintf(stderr, "  %d faulted runs (a host thread per device)\n", runs);
                    BT_TUNE(ocl, bklu_host_threads, 0);
                }
            }
            bt_free(&c);
        } else
            CHECK_MSG(0, "gen:circuit:100: %s", err);
    }
    if (bt_fp64(ocl)) {
        bt_case c;
        lcl_csr J;
        unsigned reached = 0;
        int runs;
        bt_Jrand(&J, 24, 0.1);
        bt_make(&c, &J, 4, BT_KRON, LCL_F64, 0);
        runs = lt_cl_sweep("bklu, two devices", ocl, LT_CL_ONE | LT_CL_SPLIT | LT_CL_OPTBUF | LT_CL_MEMRETRY, 200, "lcl_bklu", bt_cl_run, &c, &reached);
        fprintf(stderr, "  %d faulted runs%s\n", runs, reached ? "" : " (no OpenCL call reached: the host factors)");
        if (lt_shared_env()) {  /* exchanges by events with a host thread per device (the other child
                                   sweeps the host threads without exchanges) */
            BT_TUNE(ocl, bklu_host_threads, 1);
            runs = lt_cl_sweep("bklu, two devices, host threads", ocl, LT_CL_ONE | LT_CL_SPLIT | LT_CL_OPTBUF | LT_CL_MEMRETRY, 200, "lcl_bklu", bt_cl_run, &c,
                               &reached);
            fprintf(stderr, "  %d faulted runs (a host thread per device)\n", runs);
            BT_TUNE(ocl, bklu_host_threads, 0);
        }
        bt_free(&c);
    }
    lcl_context_destroy(ser);
    lcl_context_destroy(ocl);
    CHECK_MSG(lt_alloc_outstanding() == 0, "%ld library blocks not freed", lt_alloc_outstanding());
    return lt_checks_failed ? 1 : 0;
}
/* the same child with one cl_context for both devices (the default; the next test: one each) */
static void test_bklu_opencl_shared(void) {
    char cmd[1200];
    int rc, n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) { lt_skip("no OpenCL device"); return; }
    snprintf(cmd, sizeof cmd, "LCL_SHARED_CONTEXT=1 POCL_DEVICES='pthread pthread' ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
             "'%s' --child bklu2dev", lt_self);
    rc = lt_system_pocl(cmd);
    CHECK_MSG(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "the two-device child with a shared context failed (%d)", rc);
}
static void test_bklu_opencl_two_devices(void) {
    char cmd[1200];
    int rc, n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) { lt_skip("no OpenCL device"); return; }
    /* LeakSanitizer's exit-time tracer crashes in two-device children (see test_dense_opencl.c):
       the library's own blocks are counted in the child instead */
    snprintf(cmd, sizeof cmd, "LCL_SHARED_CONTEXT=0 POCL_DEVICES='pthread pthread' ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0\" "
             "'%s' --child bklu2dev", lt_self);
    rc = lt_system_pocl(cmd);
    CHECK_MSG(rc != -1 && WIFEXITED(rc) && WEXITSTATUS(rc) == 0, "the two-device child failed (%d)", rc);
}

void lt_suite_bklu(void) {
    LT_RUN(test_bklu_small);
    LT_RUN(test_bklu_forms);
    LT_RUN(test_bklu_from_csr);
    LT_RUN(test_bklu_scalar);
    LT_RUN(test_bklu_options);
    LT_RUN(test_bklu_large);
    LT_RUN(test_bklu_hb);
    LT_RUN(test_bklu_affinity);
    LT_RUN(test_bklu_pivoting);
    LT_RUN(test_bklu_structure);
    LT_RUN(test_bklu_singular);
    LT_RUN(test_bklu_singular_multiples);
    LT_RUN(test_bklu_errors);
    LT_RUN(test_bklu_scaled);
    LT_RUN(test_bklu_openmp);
    LT_RUN(test_bklu_opencl);
    LT_RUN(test_bklu_opencl_two_devices);
    LT_RUN(test_bklu_opencl_shared);
}
#endif
