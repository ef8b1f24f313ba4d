/* test_rowpart.c -- lcl_rowpart (>>rowpart): P parts simulated in one process. Each part's ghosts
   are gathered from the owners' x through the plan (send lists of the owners, receive ranges of
   the part), then each part's local matrix times its x must give its rows of A x, exactly: the
   values are multiples of 1/64 whose products and short sums are exact in float, so any order of
   summation gives the same y. P = 1, 2, 3, 7 on n = 1, 2, 17, 60 (random, unsymmetric, empty rows
   and one dense row, so some parts are empty), a 3-D Poisson matrix; double and float; serial and
   OpenCL (when a device exists). Plus the bounds' balance rule and every error. */
#define _POSIX_C_SOURCE 200809L
#include "lt.h"
#include "../tools/lcl_gen.h"
#include <stdlib.h>
#include <stdint.h>

static uint64_t rs = 0x9E3779B97F4A7C15ULL;
static uint64_t rnd(void) { rs ^= rs >> 12; rs ^= rs << 25; rs ^= rs >> 27; return rs * 2685821657736338717ULL; }
static double rval(void) { return (double)((int)(rnd() >> 40) % 512 - 256) / 64.0; }   /* exact in float */

/* kind 0: diagonal + neighbours (n = 1, 2, 17); 1: random unsymmetric with empty rows and row 3
   dense; 2: every column in row 0, the diagonal elsewhere (the first part takes most work) */
static void make_csr(lcl_context *ctx, int64_t n, int kind, lcl_dtype dt, lcl_csr *A) {
    lcl_coo C;
    int64_t i, j;
    CHECK_OK(ctx, lcl_coo_alloc(ctx, &C, dt, n, n, 0));
    for (i = 0; i < n; i++) {
        if (kind == 0) {
            for (j = i - 1; j <= i + 1; j++)
                if (j >= 0 && j < n) CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, j, j == i ? 4.0 : rval()));
            if (n > 4) CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, (i * 7 + 3) % n, rval()));    /* a far column */
        } else if (kind == 1) {
            if (i % 5 == 2) continue;                               /* empty rows */
            for (j = 0; j < n; j++)
                if (i == 3 || rnd() % 9 == 0) CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, j, rval()));
        } else {
            for (j = 0; j < n; j++)
                if (i == 0 || j == i) CHECK_OK(ctx, lcl_coo_push(ctx, &C, i, j, rval()));
        }
    }
    CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, A));
    lcl_coo_free(&C);
}

static double at(const void *v, lcl_dtype dt, int64_t k) { return dt == LCL_F32 ? (double)((const float *)v)[k] : ((const double *)v)[k]; }
static void put(void *v, lcl_dtype dt, int64_t k, double x) { if (dt == LCL_F32) ((float *)v)[k] = (float)x; else ((double *)v)[k] = x; }

/* the parts of A over P, exchanged and multiplied on ctx, against A's rows */
static void check_parts(lcl_context *ctx, const lcl_csr *A, int P, const char *what) {
    size_t es = A->dtype == LCL_F32 ? sizeof(float) : sizeof(double);
    int64_t n = A->rows, i, k, *bounds = (int64_t *)malloc((size_t)(P + 1) * sizeof(int64_t));
    lcl_rowpart *R = (lcl_rowpart *)calloc((size_t)P, sizeof(lcl_rowpart));
    void **xl = (void **)calloc((size_t)P, sizeof(void *));
    void *x = malloc((size_t)n * es);
    int p, q, bad = 0;
    if (!bounds || !R || !xl || !x) { CHECK(0); goto out; }
    CHECK_OK(ctx, lcl_rowpart_bounds(ctx, A, P, bounds));
    CHECK(bounds[0] == 0 && bounds[P] == n);
    for (p = 0; p < P; p++) CHECK(bounds[p] <= bounds[p + 1]);
    for (i = 0; i < n; i++) put(x, A->dtype, i, rval());
    for (p = 0; p < P; p++) {
        lcl_rowpart *r = &R[p];
        CHECK_OK(ctx, lcl_rowpart_create(ctx, A, P, p, r));
        CHECK_MSG(r->r0 == bounds[p] && r->r1 == bounds[p + 1] && r->nloc == r->r1 - r->r0 && r->n == n && r->nparts == P && r->part == p,
                  "%s P=%d part %d: rows %lld..%lld, bounds %lld..%lld", what, P, p, (long long)r->r0, (long long)r->r1,
                  (long long)bounds[p], (long long)bounds[p + 1]);
        CHECK(r->local.rows == r->nloc && r->local.cols == r->nloc + r->nghost && r->local.dtype == A->dtype);
        CHECK(r->local.nnz == A->ptr[r->r1] - A->ptr[r->r0]);
        CHECK(r->recv_off[0] == 0 && r->recv_off[P] == r->nghost && r->recv_off[p + 1] == r->recv_off[p]);
        CHECK(r->send_off[0] == 0 && r->send_off[p + 1] == r->send_off[p]);
        for (q = 0; q < P; q++)     /* ghosts ascending, each in its owner's rows */
            for (k = r->recv_off[q]; k < r->recv_off[q + 1]; k++)
                bad += r->ghost[k] < bounds[q] || r->ghost[k] >= bounds[q + 1] || (k > 0 && r->ghost[k] <= r->ghost[k - 1]);
        for (k = 0; k < r->send_off[P]; k++) bad += r->send_idx[k] < 0 || r->send_idx[k] >= r->nloc;
        xl[p] = malloc((size_t)(r->nloc + r->nghost + 1) * es);
        if (!xl[p]) { CHECK(0); goto out; }
        memcpy(xl[p], (char *)x + (size_t)r->r0 * es, (size_t)r->nloc * es);
    }
    CHECK_MSG(bad == 0, "%s P=%d: %d bad ghost or send indices", what, P, bad);
    /* the exchange: part q sends its owned values to part p as q's plan says, into p's receive range */
    for (p = 0; p < P; p++)
        for (q = 0; q < P; q++) {
            int64_t c = R[q].send_off[p + 1] - R[q].send_off[p];
            CHECK_MSG(c == R[p].recv_off[q + 1] - R[p].recv_off[q], "%s P=%d: part %d sends %lld to part %d, which receives %lld", what, P, q,
                      (long long)c, p, (long long)(R[p].recv_off[q + 1] - R[p].recv_off[q]));
            if (c != R[p].recv_off[q + 1] - R[p].recv_off[q]) goto out;
            for (k = 0; k < c; k++)
                memcpy((char *)xl[p] + (size_t)(R[p].nloc + R[p].recv_off[q] + k) * es,
                       (char *)xl[q] + (size_t)R[q].send_idx[R[q].send_off[p] + k] * es, es);
        }
    for (p = 0; p < P; p++) {
        lcl_spmat *M = NULL;
        void *yl = malloc((size_t)(R[p].nloc + 1) * es);
        for (k = 0; k < R[p].nghost; k++) bad += at(xl[p], A->dtype, R[p].nloc + k) != at(x, A->dtype, R[p].ghost[k]);
        CHECK_OK(ctx, lcl_spmat_create(ctx, &R[p].local, NULL, &M));
        if (M && yl) {
            CHECK_OK(ctx, lcl_spmv(ctx, LCL_NO_TRANS, 1.0, M, xl[p], 0.0, yl));
            for (i = R[p].r0; i < R[p].r1; i++) {   /* the global row, in its own order: exact (see the head) */
                double s = 0;
                for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) s += at(A->val, A->dtype, k) * at(x, A->dtype, A->col[k]);
                if (at(yl, A->dtype, i - R[p].r0) != s) {
                    if (bad < 3) fprintf(stderr, "  %s P=%d part %d row %lld: %g, want %g\n", what, P, p, (long long)i,
                                         at(yl, A->dtype, i - R[p].r0), s);
                    bad++;
                }
            }
        }
        lcl_spmat_free(M);
        free(yl);
    }
    CHECK_MSG(bad == 0, "%s P=%d: %d wrong ghosts or rows", what, P, bad);
out:
    for (p = 0; p < P && R && xl; p++) { lcl_rowpart_free(&R[p]); free(xl[p]); }
    free(bounds); free(R); free(xl); free(x);
}

static void run_products(lcl_context *ctx, const char *name) {
    static const int parts[4] = {1, 2, 3, 7};
    static const struct { int64_t n; int kind; } mats[5] = {{1, 0}, {2, 0}, {17, 0}, {60, 1}, {9, 2}};
    int d, m, p;
    for (d = 0; d < 2; d++) {
        lcl_dtype dt = d ? LCL_F32 : LCL_F64;
        for (m = 0; m < 5; m++) {
            lcl_csr A;
            char what[96];
            make_csr(ctx, mats[m].n, mats[m].kind, dt, &A);
            snprintf(what, sizeof what, "%s %s n=%lld kind %d", name, d ? "float" : "double", (long long)mats[m].n, mats[m].kind);
            for (p = 0; p < 4; p++) {
                lcl_rowpart R;
                if (parts[p] > mats[m].n) {     /* more parts than rows */
                    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, &A, parts[p], 0, &R), LCL_ERR_DIMENSION);
                    CHECK(R.local.ptr == NULL && R.ghost == NULL);
                    continue;
                }
                check_parts(ctx, &A, parts[p], what);
            }
            lcl_csr_free(&A);
        }
    }
}

static void test_rowpart_products(void) {
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    if (!ctx) { CHECK(ctx != NULL); return; }
    run_products(ctx, "serial");
    lcl_context_destroy(ctx);
}

static void test_rowpart_products_opencl(void) {
    lcl_context *ctx = lt_ocl(NULL);
    if (!ctx) { lt_skip("no OpenCL device"); return; }
    run_products(ctx, "opencl");
    lcl_context_destroy(ctx);
}

/* parts of a 3-D Poisson matrix: balanced within one row's work, and the plan's products right */
static void test_rowpart_poisson(void) {
    lcl_context *ctx = lt_context(LCL_BACKEND_OPENMP, NULL, NULL, NULL, 3);
    lcl_coo C;
    lcl_csr A;
    int64_t b[8];
    int P, p;
    if (!ctx) { CHECK(ctx != NULL); return; }
    CHECK_OK(ctx, lclg_gen_coo(ctx, "poisson3d:11", 1, LCL_F64, &C, NULL, 0));
    CHECK_OK(ctx, lcl_csr_from_coo(ctx, &C, &A));
    for (P = 1; P <= 7; P++) {
        double total = (double)(A.nnz + A.rows);
        CHECK_OK(ctx, lcl_rowpart_bounds(ctx, &A, P, b));
        for (p = 0; p < P; p++) {
            double w = (double)(A.ptr[b[p + 1]] - A.ptr[b[p]] + b[p + 1] - b[p]);
            CHECK_MSG(fabs(w - total / P) <= 8, "P=%d part %d: work %g, want %g +- 8 (one row)", P, p, w, total / P);
        }
        check_parts(ctx, &A, P, "poisson3d:11");
    }
    lcl_csr_free(&A);
    lcl_coo_free(&C);
    lcl_context_destroy(ctx);
}

static void test_rowpart_errors(void) {
    lcl_context *ctx = lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0);
    lcl_csr A, R3;
    lcl_rowpart P;
    int64_t b[4];
    if (!ctx) { CHECK(ctx != NULL); return; }
    make_csr(ctx, 3, 0, LCL_F64, &A);
    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, &A, 0, 0, &P), LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "0 parts") != NULL);
    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, &A, -2, 0, &P), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, &A, 2, 2, &P), LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "part 2 outside 0..1") != NULL);
    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, &A, 2, -1, &P), LCL_ERR_INVALID_ARGUMENT);
    CHECK(P.local.ptr == NULL && P.send_off == NULL);
    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, &A, 4, 0, &P), LCL_ERR_DIMENSION);
    CHECK(strstr(lcl_last_error(ctx), "4 parts of a 3-row matrix") != NULL);
    CHECK_STATUS(ctx, lcl_rowpart_bounds(ctx, &A, 4, b), LCL_ERR_DIMENSION);
    CHECK_STATUS(ctx, lcl_rowpart_bounds(ctx, &A, 0, b), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_rowpart_bounds(ctx, &A, 2, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, &A, 1, 0, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, NULL, 1, 0, &P), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(NULL, lcl_rowpart_create(NULL, &A, 0, 0, &P), LCL_ERR_INVALID_ARGUMENT);   /* no context: the status alone */
    /* not square */
    R3 = A;
    R3.cols = 4;
    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, &R3, 1, 0, &P), LCL_ERR_DIMENSION);
    CHECK(strstr(lcl_last_error(ctx), "3x4") != NULL);
    CHECK_STATUS(ctx, lcl_rowpart_bounds(ctx, &R3, 1, b), LCL_ERR_DIMENSION);
    /* not canonical: row 0's columns swapped; NaN */
    { int32_t c = A.col[0]; A.col[0] = A.col[1]; A.col[1] = c; }
    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, &A, 2, 0, &P), LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "lcl_rowpart_create") != NULL);
    { int32_t c = A.col[0]; A.col[0] = A.col[1]; A.col[1] = c; }
    ((double *)A.val)[2] = NAN;
    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, &A, 2, 1, &P), LCL_ERR_NAN);
    /* a zero-row matrix has no part */
    R3 = A;
    R3.rows = R3.cols = 0;
    R3.nnz = 0;
    CHECK_STATUS(ctx, lcl_rowpart_create(ctx, &R3, 1, 0, &P), LCL_ERR_DIMENSION);
    lcl_rowpart_free(NULL);
    lcl_csr_free(&A);
    lcl_context_destroy(ctx);
}

void lt_suite_rowpart(void) {
    LT_RUN(test_rowpart_products);
    LT_RUN(test_rowpart_products_opencl);
    LT_RUN(test_rowpart_poisson);
    LT_RUN(test_rowpart_errors);
}
