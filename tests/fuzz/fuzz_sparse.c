/* fuzz_sparse.c -- libFuzzer harness for the COO/CSR containers and conversions.

   Input layout (every byte optional; missing bytes read as 0):
     0  rows % 33            (0..32)
     1  cols % 33            (0..32)
     2  flags: bit 0 F32, bit 1 row-major, bits 2-3 initial capacity, bits 4-6 raw-COO corruption,
        bit 7 CSR corruption
     3  CSR corruption target, 4 CSR corruption value
     5.. triples (i, j, v): one byte each; index bytes 0xF8..0xFF are out-of-range specials
         (-1, dim, dim+1, INT32_MIN, INT32_MAX, -2, dim-1, 2^33); value bytes below 0xE0 are small
         exact numbers, 0xE0..0xFE special values (NaN, +-Inf, -0, huge, subnormal, inexact...),
         0xFF takes the next 8 bytes as a raw double.
   Three paths over the same triples:
     A  lcl_coo_alloc + lcl_coo_push: out-of-range pushes fail with LCL_ERR_DIMENSION, the rest
        build a matrix checked against a naive dense reference (duplicates summed in insertion
        order, in the matrix's precision; NaN compares as NaN, others within a tolerance) through
        lcl_coo_canonicalize, lcl_csr_from_coo, lcl_csr_to_coo, lcl_coo_to_dense,
        lcl_dense_to_coo and lcl_coo_copy (both dtypes).
     B  the raw triples written straight into an lcl_coo (bad indices included, optionally with a
        corrupted header): every function that validates must return LCL_ERR_DIMENSION (bad index)
        or LCL_ERR_INVALID_ARGUMENT (bad header), leave the input untouched, allocate nothing.
     C  the CSR from path A with a row pointer, column index, size or dtype corrupted:
        lcl_csr_to_coo must reject it (or accept it exactly when it is still valid).
     D  lcl_spmat_create (from the CSR) / lcl_spmat_from_coo (from the pushed COO) in every format,
        options from bytes 3-4: NaN/Inf refused with LCL_ERR_NAN; otherwise lcl_spmat_to_csr gives
        the CSR back (DIA/BCSR/dense without stored zeros) and A x, A^T x match a naive product. */
#include "fuzz.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <float.h>
#include <unistd.h>

#define MAXDIM 32
#define MAXT 1024

static lcl_context *ctx;
static char path_out[256];

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc, (void)argv;
    ctx = lcl_fuzz_setup("fuzz_sparse", NULL, path_out, sizeof path_out);
    return 0;
}

/* ---- input decoding */
typedef struct reader { const uint8_t *p; size_t n, pos; } reader;
static uint8_t rd(reader *r) { return r->pos < r->n ? r->p[r->pos++] : 0; }

static int64_t idx_of(uint8_t b, int64_t dim) {
    switch (b) {
    case 0xF8: return -1;
    case 0xF9: return dim;
    case 0xFA: return dim + 1;
    case 0xFB: return INT32_MIN;
    case 0xFC: return INT32_MAX;
    case 0xFD: return -2;
    case 0xFE: return dim - 1;          /* -1 when dim is 0 */
    case 0xFF: return (int64_t)1 << 33; /* beyond int32 */
    default: return dim > 0 ? b % dim : 0;  /* dim 0: 0 is out of range */
    }
}
/* an int64 index as it would sit in an int32 array (clamped, never wrapped into range) */
static int32_t idx32(int64_t v) { return v > INT32_MAX ? INT32_MAX : v < INT32_MIN ? INT32_MIN : (int32_t)v; }

static double val_of(reader *r, uint8_t b) {
    static const double special[31] = {
        NAN, -NAN, INFINITY, -INFINITY, -0.0, 0.0, 1e300, -1e300, DBL_MAX, -DBL_MAX, 3e38, -3e38,
        FLT_MAX, 1e39, DBL_MIN, DBL_MIN / 4, 1e-45, FLT_MIN, FLT_MIN / 2, 0.1, 1.0 / 3, 1e16,
        1 + DBL_EPSILON, 1 + FLT_EPSILON / 2, 16777217.0, -16777217.0, 4.9406564584124654e-324, 1e308,
        1e-300, 123456789.123, -0.1};
    if (b < 0xE0) return ((int)b - 112) / 8.0;
    if (b < 0xFF) return special[b - 0xE0];
    {
        unsigned char raw[8];
        double d;
        int k;
        for (k = 0; k < 8; k++) raw[k] = rd(r);
        memcpy(&d, raw, sizeof d);
        return d;
    }
}

/* ---- helpers */
static double getv(const void *v, lcl_dtype dt, int64_t k) {
    return dt == LCL_F32 ? (double)((const float *)v)[k] : ((const double *)v)[k];
}
static size_t esize(lcl_dtype dt) { return dt == LCL_F32 ? sizeof(float) : sizeof(double); }

/* value equality: NaN matches NaN, infinities match exactly, finite within tol * absum */
static int close_to(double got, double want, double absum, lcl_dtype dt) {
    double eps = dt == LCL_F32 ? (double)FLT_EPSILON : DBL_EPSILON;
    if (isnan(want)) return isnan(got);
    if (isinf(want)) return got == want;
    if (!isfinite(got)) return 0;
    return fabs(got - want) <= 8 * eps * absum;
}
/* bit-level NaN-tolerant equality */
static int same_val(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

static void check_same_coo(const lcl_coo *a, const lcl_coo *b) {
    CHECK(a->dtype == b->dtype && a->rows == b->rows && a->cols == b->cols && a->nnz == b->nnz);
    if (!a->nnz) return;
    CHECK(memcmp(a->row, b->row, (size_t)a->nnz * sizeof(int32_t)) == 0);
    CHECK(memcmp(a->col, b->col, (size_t)a->nnz * sizeof(int32_t)) == 0);
    CHECK(memcmp(a->val, b->val, (size_t)a->nnz * esize(a->dtype)) == 0);
}

/* reference: cells in row-major order */
typedef struct ref {
    int64_t rows, cols;
    lcl_dtype dt;
    int present[MAXDIM * MAXDIM];
    double sum[MAXDIM * MAXDIM];    /* in dt's arithmetic, insertion order */
    double absum[MAXDIM * MAXDIM];
    int64_t npresent;
} ref;

static void ref_add(ref *R, int64_t i, int64_t j, double v) {
    int64_t c = i * R->cols + j;
    if (R->dt == LCL_F32) {
        float f = (float)v;
        R->sum[c] = R->present[c] ? (double)((float)R->sum[c] + f) : (double)f;
        R->absum[c] += fabs((double)f);
    } else {
        R->sum[c] = R->present[c] ? R->sum[c] + v : v;
        R->absum[c] += fabs(v);
    }
    if (!R->present[c]) R->npresent++;
    R->present[c] = 1;
}

/* a canonical COO against the reference */
static void check_canon_vs_ref(const lcl_coo *m, const ref *R) {
    int64_t k;
    CHECK(m->rows == R->rows && m->cols == R->cols && m->dtype == R->dt);
    CHECK(m->nnz == R->npresent);
    for (k = 0; k < m->nnz; k++) {
        int64_t c;
        CHECK(m->row[k] >= 0 && m->row[k] < m->rows && m->col[k] >= 0 && m->col[k] < m->cols);
        if (k) CHECK(m->row[k] > m->row[k - 1] || (m->row[k] == m->row[k - 1] && m->col[k] > m->col[k - 1]));
        c = (int64_t)m->row[k] * R->cols + m->col[k];
        CHECK(R->present[c]);
        CHECK(close_to(getv(m->val, m->dtype, k), R->sum[c], R->absum[c], R->dt));
    }
}

/* ---- path C: corrupt a CSR copy; lcl_csr_to_coo accepts it exactly when it is valid */
static void csr_corrupt(const lcl_csr *S, uint8_t target, uint8_t value) {
    lcl_csr T = *S;
    lcl_coo O;
    lcl_status st;
    int valid;
    int64_t k;
    size_t np = (size_t)S->rows + 1;
    T.ptr = (int64_t *)malloc(np * sizeof(int64_t));
    T.col = (int32_t *)malloc((size_t)(S->nnz ? S->nnz : 1) * sizeof(int32_t));
    T.val = malloc((size_t)(S->nnz ? S->nnz : 1) * esize(S->dtype));
    CHECK(T.ptr && T.col && T.val);
    memcpy(T.ptr, S->ptr, np * sizeof(int64_t));
    if (S->nnz) {
        memcpy(T.col, S->col, (size_t)S->nnz * sizeof(int32_t));
        memcpy(T.val, S->val, (size_t)S->nnz * esize(S->dtype));
    }
    switch (target % 6) {
    case 0: case 1: {       /* a row pointer */
        size_t at = (size_t)(target >> 3) % np;
        const int64_t sp[8] = {-1, S->nnz + 1, INT64_MAX, INT64_MIN, -1000, 2 * S->nnz + 5, T.ptr[at] + 1, T.ptr[at] - 1};
        T.ptr[at] = value < 0xF8 ? (int64_t)(value % (S->nnz + 2)) : sp[value & 7];
        break;
    }
    case 2:                 /* a column index */
        if (S->nnz) T.col[(size_t)(target >> 3) % (size_t)S->nnz] = idx32(idx_of(value, S->cols));
        break;
    case 3:                 /* the sizes: rows shrunk or negative, cols shrunk or negative */
        if (value & 1) T.rows = (value & 2) ? -1 - (int64_t)(value >> 2) : (S->rows ? S->rows - 1 : -1);
        else T.cols = (value & 2) ? -1 - (int64_t)(value >> 2) : (int64_t)(value >> 2) % (S->cols + 1);
        break;
    case 4:                 /* nnz differs from the pointers */
        T.nnz = (value & 1) ? S->nnz - 1 - (value >> 1) : S->nnz + 1 + (value >> 1);
        break;
    case 5: {               /* dtype: an unknown one (switching F32/F64 would lie about the array size) */
        static const int bad[4] = {2, 3, -1, 100};
        T.dtype = (lcl_dtype)bad[value % 4];
        break;
    }
    }
    /* what a validator can know: sizes, pointers monotone within [0, nnz], columns in range */
    valid = T.rows >= 0 && T.cols >= 0 && T.nnz >= 0 && (T.dtype == LCL_F32 || T.dtype == LCL_F64) &&
            T.rows <= S->rows && T.nnz <= S->nnz;
    if (valid) {
        valid = T.ptr[0] == 0 && T.ptr[T.rows] == T.nnz;
        for (k = 0; valid && k < T.rows; k++) valid = T.ptr[k + 1] >= T.ptr[k] && T.ptr[k + 1] <= T.nnz;
        for (k = 0; valid && k < T.nnz; k++) valid = T.col[k] >= 0 && T.col[k] < T.cols;
    }
    /* a corruption that makes the arrays look longer than they are (more rows or entries than
       allocated) cannot be detected by anyone: only those within the allocation are tried */
    if (T.rows <= S->rows && T.nnz <= S->nnz) {
        st = lcl_csr_to_coo(ctx, &T, &O);
        if (valid) {
            CHECK(st == LCL_OK);
            CHECK(O.rows == T.rows && O.cols == T.cols && O.nnz == T.nnz && O.dtype == T.dtype);
            for (k = 0; k < O.rows; k++) {
                int64_t q;
                for (q = T.ptr[k]; q < T.ptr[k + 1]; q++) CHECK(O.row[q] == k && O.col[q] == T.col[q]);
            }
            lcl_coo_free(&O);
        } else {
            CHECK(st == LCL_ERR_INVALID_ARGUMENT || st == LCL_ERR_DIMENSION);
        }
    }
    free(T.ptr);
    free(T.col);
    free(T.val);
}

/* ---- path B: raw arrays, bad indices and a corrupted header */
static void raw_coo(lcl_dtype dt, int64_t rows, int64_t cols, int mode, const int32_t *ri, const int32_t *rj,
                    const double *rv, int64_t n, int any_bad, const lcl_coo *canon_A) {
    lcl_coo R, X;
    lcl_csr S;
    lcl_dense M;
    lcl_status want, st;
    int32_t *bi = NULL, *bj = NULL;
    void *bv = NULL;
    int64_t k;
    size_t es = esize(dt), na = (size_t)(n ? n : 1);
    memset(&R, 0, sizeof R);
    R.dtype = dt;
    R.rows = rows;
    R.cols = cols;
    R.nnz = R.cap = n;
    R.row = (int32_t *)malloc(na * sizeof(int32_t));
    R.col = (int32_t *)malloc(na * sizeof(int32_t));
    R.val = malloc(na * es);
    CHECK(R.row && R.col && R.val);
    for (k = 0; k < n; k++) {
        R.row[k] = ri[k];
        R.col[k] = rj[k];
        if (dt == LCL_F32) ((float *)R.val)[k] = (float)rv[k];
        else ((double *)R.val)[k] = rv[k];
    }
    want = any_bad ? LCL_ERR_DIMENSION : LCL_OK;
    switch (mode) {
    case 1: R.dtype = (lcl_dtype)7; want = LCL_ERR_INVALID_ARGUMENT; break;
    case 2: R.rows = -1; want = LCL_ERR_INVALID_ARGUMENT; break;
    case 3: R.nnz = -1; want = LCL_ERR_INVALID_ARGUMENT; break;
    case 4: R.rows = (int64_t)INT32_MAX + 1; want = LCL_ERR_INVALID_ARGUMENT; break;
    case 5: if (n > 0) { free(R.row); R.row = NULL; want = LCL_ERR_INVALID_ARGUMENT; } break;
    case 6: R.cols = -5; want = LCL_ERR_INVALID_ARGUMENT; break;
    default: break;
    }
    /* keep a copy: a call that fails must leave its input untouched */
    bi = (int32_t *)malloc(na * sizeof(int32_t));
    bj = (int32_t *)malloc(na * sizeof(int32_t));
    bv = malloc(na * es);
    CHECK(bi && bj && bv);
    if (R.row) memcpy(bi, R.row, (size_t)n * sizeof(int32_t));
    memcpy(bj, R.col, (size_t)n * sizeof(int32_t));
    memcpy(bv, R.val, (size_t)n * es);

    memset(&S, 0, sizeof S);
    st = lcl_csr_from_coo(ctx, &R, &S);
    CHECK(st == want);
    if (st == LCL_OK) lcl_csr_free(&S);
    else CHECK(S.ptr == NULL && S.col == NULL && S.val == NULL);

    memset(&M, 0, sizeof M);
    st = lcl_coo_to_dense(ctx, &R, LCL_COL_MAJOR, &M);
    CHECK(st == want);
    if (st == LCL_OK) lcl_dense_free(&M);

    memset(&X, 0, sizeof X);
    st = lcl_coo_copy(ctx, &R, dt == LCL_F32 ? LCL_F64 : LCL_F32, &X);
    CHECK(st == want);
    if (st == LCL_OK) lcl_coo_free(&X);

    if (want != LCL_OK) {   /* fails before creating the file */
        st = lcl_mm_write(ctx, path_out, &R, LCL_MM_GENERAL);
        CHECK(st == want);
        CHECK(access(path_out, F_OK) != 0);
    }

    st = lcl_coo_canonicalize(ctx, &R);
    CHECK(st == want);
    if (st == LCL_OK) {
        if (mode == 0 || mode == 7) check_same_coo(&R, canon_A);
    } else {
        if (R.row) CHECK(memcmp(bi, R.row, (size_t)n * sizeof(int32_t)) == 0);
        CHECK(memcmp(bj, R.col, (size_t)n * sizeof(int32_t)) == 0);
        CHECK(memcmp(bv, R.val, (size_t)n * es) == 0);
    }
    free(R.row);
    free(R.col);
    free(R.val);
    free(bi);
    free(bj);
    free(bv);
}

/* ---- path D: lcl_spmat in every format from the CSR of path A (and from the pushed COO), with
   options from the corruption bytes: non-finite values are refused with LCL_ERR_NAN, anything else
   builds (max_fill high: every format fits 32x32), goes back to the same CSR through
   lcl_spmat_to_csr (DIA/BCSR/dense without stored zeros) and multiplies like the naive product. */
static void spmat_formats(const lcl_csr *S, const lcl_coo *A, uint8_t o1, uint8_t o2) {
    static const lcl_format fm[] = {LCL_FMT_AUTO, LCL_FMT_COO, LCL_FMT_CSR, LCL_FMT_CSC, LCL_FMT_ELL, LCL_FMT_SELL,
                                    LCL_FMT_HYB, LCL_FMT_DIA, LCL_FMT_BCSR, LCL_FMT_DENSE};
    size_t es = esize(S->dtype);
    int finite = 1, f, t;
    int64_t k, i;
    double x[MAXDIM + 1];
    for (k = 0; k < S->nnz; k++) if (!isfinite(getv(S->val, S->dtype, k))) finite = 0;
    for (i = 0; i <= MAXDIM; i++) x[i] = (double)((i * 37 + o1) % 13) - 6.0;
    for (f = 0; f < (int)(sizeof fm / sizeof fm[0]); f++) {
        lcl_spmat_opts o;
        lcl_spmat *M = NULL;
        lcl_csr B;
        lcl_status st;
        memset(&o, 0, sizeof o);
        o.format = fm[f];
        o.max_fill = (o2 & 0x80) ? 0 : 1e6;     /* default guard for some inputs: FILL is then allowed */
        o.sell_c = o1 % 9;
        o.sell_sigma = (o1 >> 4) % 5;
        o.block_r = o2 % 6;
        o.block_c = (o2 >> 3) % 6;
        o.hyb_width = (o1 + o2) % 4;
        o.kernel = (o2 & 0x40) ? LCL_KERNEL_MERGE : LCL_KERNEL_AUTO;
        st = (f & 1) ? lcl_spmat_from_coo(ctx, A, &o, &M) : lcl_spmat_create(ctx, S, &o, &M);
        if (!finite) { CHECK(st == LCL_ERR_NAN && M == NULL); continue; }
        if (st == LCL_ERR_FILL) { CHECK(o.max_fill == 0 && M == NULL); continue; }
        CHECK(st == LCL_OK && M != NULL);
        CHECK(lcl_spmat_to_csr(ctx, M, &B) == LCL_OK);
        {
            lcl_spmat_info info;
            int keep = 1;
            int64_t q = 0;
            CHECK(lcl_spmat_describe(M, &info) == LCL_OK);
            if (info.format == LCL_FMT_DIA || info.format == LCL_FMT_BCSR || info.format == LCL_FMT_DENSE) keep = 0;
            CHECK(B.rows == S->rows && B.cols == S->cols && B.dtype == S->dtype && B.ptr[0] == 0);
            for (i = 0; i < S->rows; i++) {
                for (k = S->ptr[i]; k < S->ptr[i + 1]; k++) {
                    if (!keep && getv(S->val, S->dtype, k) == 0) continue;
                    CHECK(q < B.nnz && B.col[q] == S->col[k]);
                    CHECK(memcmp((char *)B.val + (size_t)q * es, (char *)S->val + (size_t)k * es, es) == 0);
                    q++;
                }
                CHECK(B.ptr[i + 1] == q);
            }
            CHECK(B.nnz == q);
        }
        lcl_csr_free(&B);
        for (t = 0; t < 2; t++) {   /* y = A x and A^T x, beta 0 over NaN garbage */
            double yd[MAXDIM + 1], want[MAXDIM + 1], absum[MAXDIM + 1];
            float xf[MAXDIM + 1], yf[MAXDIM + 1];
            int64_t nout = t ? S->cols : S->rows;
            for (i = 0; i <= MAXDIM; i++) { xf[i] = (float)x[i]; yd[i] = NAN; yf[i] = NAN; want[i] = 0; absum[i] = 0; }
            for (i = 0; i < S->rows; i++)
                for (k = S->ptr[i]; k < S->ptr[i + 1]; k++) {
                    double a = getv(S->val, S->dtype, k);
                    int64_t o_ = t ? S->col[k] : i, in = t ? i : S->col[k];
                    want[o_] += a * x[in];
                    absum[o_] += fabs(a * x[in]);
                }
            st = lcl_spmv(ctx, t ? LCL_TRANS : LCL_NO_TRANS, 1.0, M, S->dtype == LCL_F32 ? (const void *)xf : (const void *)x, 0.0,
                          S->dtype == LCL_F32 ? (void *)yf : (void *)yd);
            if (st == LCL_ERR_FILL && t && o.max_fill == 0) continue;   /* A^T may pad more than A */
            CHECK(st == LCL_OK);
            for (i = 0; i < nout; i++) {
                double got = S->dtype == LCL_F32 ? (double)yf[i] : yd[i];
                if (!isfinite(absum[i]) || absum[i] > 1e300) continue;      /* overflowing products: no reference */
                if (S->dtype == LCL_F32 && absum[i] > 1e37) continue;
                CHECK(isfinite(got) && close_to(got, want[i], absum[i] * 4 * (MAXDIM + 1), S->dtype));
            }
        }
        lcl_spmat_free(M);
    }
}

static ref R64, R32;    /* large: static */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int32_t ri[MAXT], rj[MAXT];
    static int64_t pi[MAXT], pj[MAXT];
    static double rv[MAXT];
    reader r;
    int64_t rows, cols, n = 0, k, i, j, cap0;
    uint8_t flags, ctarget, cvalue;
    lcl_dtype dt, ot;
    lcl_layout lay;
    int any_bad = 0;
    ref *Rf;
    lcl_coo A, C, D, E, F, G;
    lcl_csr S;
    lcl_dense M;

    r.p = data;
    r.n = size;
    r.pos = 0;
    rows = rd(&r) % (MAXDIM + 1);
    cols = rd(&r) % (MAXDIM + 1);
    flags = rd(&r);
    ctarget = rd(&r);
    cvalue = rd(&r);
    dt = (flags & 1) ? LCL_F32 : LCL_F64;
    ot = dt == LCL_F32 ? LCL_F64 : LCL_F32;
    lay = (flags & 2) ? LCL_ROW_MAJOR : LCL_COL_MAJOR;
    while (r.pos < r.n && n < MAXT) {
        uint8_t bi = rd(&r), bj = rd(&r), bv = rd(&r);
        pi[n] = idx_of(bi, rows);
        pj[n] = idx_of(bj, cols);
        rv[n] = val_of(&r, bv);
        ri[n] = idx32(pi[n]);
        rj[n] = idx32(pj[n]);
        if (pi[n] < 0 || pi[n] >= rows || pj[n] < 0 || pj[n] >= cols) any_bad = 1;
        n++;
    }
    cap0 = ((flags >> 2) & 3) == 0 ? 0 : ((flags >> 2) & 3) == 1 ? 1 : ((flags >> 2) & 3) == 2 ? n : 1000;

    memset(&R64, 0, sizeof R64);
    memset(&R32, 0, sizeof R32);
    R64.rows = R32.rows = rows;
    R64.cols = R32.cols = cols;
    R64.dt = LCL_F64;
    R32.dt = LCL_F32;
    Rf = dt == LCL_F32 ? &R32 : &R64;

    /* ---- path A: push */
    CHECK(lcl_coo_alloc(ctx, &A, dt, rows, cols, cap0) == LCL_OK);
    for (k = 0; k < n; k++) {
        int64_t before = A.nnz;
        lcl_status st = lcl_coo_push(ctx, &A, pi[k], pj[k], rv[k]);
        if (pi[k] < 0 || pi[k] >= rows || pj[k] < 0 || pj[k] >= cols) {
            CHECK(st == LCL_ERR_DIMENSION);
            CHECK(A.nnz == before);
        } else {
            CHECK(st == LCL_OK);
            CHECK(A.nnz == before + 1);
            ref_add(&R64, pi[k], pj[k], rv[k]);
            ref_add(&R32, pi[k], pj[k], rv[k]);
        }
    }

    /* canonical copy */
    CHECK(lcl_coo_copy(ctx, &A, dt, &C) == LCL_OK);
    CHECK(lcl_coo_canonicalize(ctx, &C) == LCL_OK);
    check_canon_vs_ref(&C, Rf);
    /* canonicalizing twice changes nothing */
    CHECK(lcl_coo_copy(ctx, &C, dt, &D) == LCL_OK);
    CHECK(lcl_coo_canonicalize(ctx, &D) == LCL_OK);
    check_same_coo(&C, &D);
    lcl_coo_free(&D);

    /* CSR */
    CHECK(lcl_csr_from_coo(ctx, &A, &S) == LCL_OK);
    CHECK(S.rows == rows && S.cols == cols && S.dtype == dt && S.nnz == C.nnz);
    CHECK(S.ptr[0] == 0 && S.ptr[rows] == S.nnz);
    for (i = 0; i < rows; i++) {
        CHECK(S.ptr[i + 1] >= S.ptr[i]);
        for (k = S.ptr[i]; k < S.ptr[i + 1]; k++) {
            CHECK(C.row[k] == i && S.col[k] == C.col[k]);
            if (k > S.ptr[i]) CHECK(S.col[k] > S.col[k - 1]);
        }
    }
    if (S.nnz) CHECK(memcmp(S.val, C.val, (size_t)S.nnz * esize(dt)) == 0);
    CHECK(lcl_csr_to_coo(ctx, &S, &D) == LCL_OK);
    check_same_coo(&C, &D);
    lcl_coo_free(&D);
    if (flags & 0x80) csr_corrupt(&S, ctarget, cvalue);

    /* dense and back */
    CHECK(lcl_coo_to_dense(ctx, &A, lay, &M) == LCL_OK);
    CHECK(M.rows == rows && M.cols == cols && M.dtype == dt && M.layout == lay);
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
            int64_t c = i * cols + j;
            double got = lcl_dense_get(&M, i, j);
            if (Rf->present[c]) CHECK(close_to(got, Rf->sum[c], Rf->absum[c], dt));
            else CHECK(got == 0.0 && !signbit(got));
        }
    CHECK(lcl_dense_to_coo(ctx, &M, &E) == LCL_OK);
    CHECK(E.rows == rows && E.cols == cols && E.dtype == dt);
    k = 0;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++) {
            double v = lcl_dense_get(&M, i, j);
            if (v == 0.0) continue;     /* zeros dropped; NaN kept */
            CHECK(k < E.nnz);
            CHECK(E.row[k] == i && E.col[k] == j);
            CHECK(same_val(getv(E.val, dt, k), v));
            k++;
        }
    CHECK(k == E.nnz);
    lcl_coo_free(&E);
    lcl_dense_free(&M);

    /* copies across dtypes */
    CHECK(lcl_coo_copy(ctx, &A, ot, &F) == LCL_OK);
    CHECK(F.dtype == ot && F.rows == rows && F.cols == cols && F.nnz == A.nnz);
    for (k = 0; k < A.nnz; k++) {
        double a = getv(A.val, dt, k);
        CHECK(F.row[k] == A.row[k] && F.col[k] == A.col[k]);
        CHECK(same_val(getv(F.val, ot, k), ot == LCL_F32 ? (double)(float)a : a));
    }
    if (dt == LCL_F64) {    /* F holds (float)v: its canonical form is the single reference */
        CHECK(lcl_coo_copy(ctx, &F, LCL_F32, &G) == LCL_OK);
        CHECK(lcl_coo_canonicalize(ctx, &G) == LCL_OK);
        check_canon_vs_ref(&G, &R32);
        lcl_coo_free(&G);
    } else {                /* float -> double -> float is exact */
        CHECK(lcl_coo_copy(ctx, &F, LCL_F32, &G) == LCL_OK);
        for (k = 0; k < A.nnz; k++) CHECK(same_val(getv(G.val, dt, k), getv(A.val, dt, k)));
        lcl_coo_free(&G);
    }
    lcl_coo_free(&F);

    /* ---- path D: the sparse formats */
    spmat_formats(&S, &A, ctarget, cvalue);

    /* ---- path B: the raw triples */
    raw_coo(dt, rows, cols, (flags >> 4) & 7, ri, rj, rv, n, any_bad, &C);

    lcl_csr_free(&S);
    lcl_coo_free(&C);
    lcl_coo_free(&A);
    return 0;
}
