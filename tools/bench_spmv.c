/* bench_spmv.c -- the OpenMP CSR SpMV of linalg_cl against the machine's copy bandwidth, measured
   in the same process: SpMV is memory-bound, so its limit is the bytes one product moves (values,
   indices, row pointers, x, y: lcl_spmat_describe().bytes) over what a plain copy loop achieves.
   Bar: SpMV GB/s >= 0.7 x copy GB/s.

   make bench-spmv       (OMP_NUM_THREADS=2)
   build/bench_spmv [--threads T] [--runs N] [--copy-mib M] [--bounds] [SPEC...]
       default SPECs: poisson3d:100 powerlaw:2000000:16 (tools/lcl_gen.h), each in double and single

   Copy: b[i] = a[i] over two arrays of M MiB (default 256, far beyond the caches) with T threads
   (default 2), first-touched by the same threads, one warm-up then the median of 9, counted as
   2 x M MiB moved (STREAM's convention: no write-allocate traffic), measured again just before
   each SpMV row so drift hits both alike. SpMV: lcl_spmat in CSR (kernel auto) on the OpenMP
   backend with T threads, one warm-up then the median of N products (default 20), y poisoned with
   NaN before each and checked against a serial double product written here. Then the same for
   format auto, to show what it chooses and what that costs.

   --bounds adds rows per matrix and precision, timed alike, divided by the same bytes, each with
   the library's row loop: gather: y[i] = sum of x[col[k]] over the matrix's own indices in CSR
   order, x prefetched when the library prefetches (no values read: the product does all this and
   more, so it cannot beat it); gather-Np: the same in the library's N column panels, when it uses
   them; product-l1: the whole product with every column folded into a window of 512 (x stays in
   L1): what the row loop and the streams cost when x gathers never miss, the most any reordering
   of x could buy. */
#include "bench_common.h"
#define LINALG_CL_IMPLEMENTATION
#define LINALG_CL_NO_OPENCL
#include "../linalg_cl.h"
#include "lcl_gen.h"
#include <math.h>
#include <float.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* STREAM-like copy: GB/s, or -1 when the copy came out wrong */
static double copy_gbps(double *a, double *b, long n, int threads) {
    double t[9];
    int r;
    long i, bad = 0;
    for (r = -1; r < 9; r++) {
        double t0 = now();
#pragma omp parallel for num_threads(threads) schedule(static)
        for (i = 0; i < n; i++) b[i] = a[i];
        if (r >= 0) t[r] = now() - t0;
    }
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : bad)
    for (i = 0; i < n; i++) bad += b[i] != a[i];
    return bad ? -1 : 2.0 * (double)n * sizeof(double) / median(t, 9) * 1e-9;
}

/* ---- --bounds: the parts of a CSR product alone (see the head) ---- */
#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH(p) __builtin_prefetch(p)
#else
#define PREFETCH(p) ((void)0)
#endif
#define PF_DIST LCL__PF_DIST
typedef struct bcsr {  /* CSR indices, padded by PF_DIST zeros; np column panels: pp per panel */
    int64_t rows, nnz, *ptr, *pp;
    int32_t *idx;
    int np, pf;
} bcsr;
/* the library's row loop (>>spmv-cpu: eight sums, tails of 4, 2, 1, prefetch when pf), with
   TERM(k) the work per entry: x[c[k]] for a gather, v[k] * x[c[k]] for the product */
#define BOUND_ROWS(NAME, T, TERM, LAST) \
static void NAME(const bcsr *B, const T *v, const T *x, T *y, int threads, const int64_t *split) { \
    _Pragma("omp parallel num_threads(threads)") \
    { \
        int t = 0, p, pf = B->pf; \
        int64_t i, k; \
        BOUND_TID(t); \
        (void)v; \
        for (p = 0; p < B->np; p++) { \
            const int64_t *ptr = B->np > 1 ? B->pp + (int64_t)p * (B->rows + 1) : B->ptr; \
            const int32_t *c = B->idx; \
            for (i = split[t], k = ptr[i]; i < split[t + 1]; i++) { \
                T s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0, s; \
                int64_t e = ptr[i + 1], u; \
                for (; k + 8 <= e; k += 8) { \
                    if (pf) for (u = 0; u < 8; u++) PREFETCH(x + c[k + u + PF_DIST]); \
                    s0 += TERM(k); s1 += TERM(k + 1); s2 += TERM(k + 2); s3 += TERM(k + 3); \
                    s4 += TERM(k + 4); s5 += TERM(k + 5); s6 += TERM(k + 6); s7 += TERM(k + 7); \
                } \
                if (k + 4 <= e) { \
                    if (pf) for (u = 0; u < 4; u++) PREFETCH(x + c[k + u + PF_DIST]); \
                    s4 += TERM(k); s5 += TERM(k + 1); s6 += TERM(k + 2); s7 += TERM(k + 3); k += 4; \
                } \
                if (k + 2 <= e) { if (pf) { PREFETCH(x + c[k + PF_DIST]); PREFETCH(x + c[k + 1 + PF_DIST]); } s0 += TERM(k); s1 += TERM(k + 1); k += 2; } \
                if (k < e) { if (pf) PREFETCH(x + c[k + PF_DIST]); s2 += TERM(k); k++; } \
                s = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)) + LAST; \
                y[i] = p ? y[i] + s : s; \
            } \
        } \
    } \
}
#ifdef _OPENMP
#define BOUND_TID(t) ((t) = omp_get_thread_num())
#else
#define BOUND_TID(t) ((void)(t))
#endif
#define GATHER(k) x[c[k]]
#define PRODUCT(k) v[k] * x[c[k]]
BOUND_ROWS(gather_d, double, GATHER, 0)
BOUND_ROWS(gather_s, float, GATHER, 0)
BOUND_ROWS(product_d, double, PRODUCT, 0)
BOUND_ROWS(product_s, float, PRODUCT, 0)

/* B from the canonical COO A: CSR indices, reordered into np column panels when np > 1, or
   folded into a window of `window` columns (x then stays in L1) when window > 0 */
static int bcsr_make(const lcl_coo *A, int np, int32_t window, int pf, bcsr *B) {
    int64_t k, i, p, q = 0, w = (A->cols + np - 1) / np;
    memset(B, 0, sizeof *B);
    B->rows = A->rows;
    B->nnz = A->nnz;
    B->np = np;
    B->pf = pf;
    B->ptr = (int64_t *)calloc((size_t)A->rows + 1, sizeof(int64_t));
    B->idx = (int32_t *)calloc((size_t)A->nnz + PF_DIST, sizeof(int32_t));
    if (!B->ptr || !B->idx) return 0;
    for (k = 0; k < A->nnz; k++) B->ptr[A->row[k] + 1]++;
    for (i = 0; i < A->rows; i++) B->ptr[i + 1] += B->ptr[i];
    if (np <= 1) {
        for (k = 0; k < A->nnz; k++) B->idx[k] = window > 0 ? A->col[k] % window : A->col[k];
        return 1;
    }
    B->pp = (int64_t *)malloc((size_t)np * ((size_t)A->rows + 1) * sizeof(int64_t));
    if (!B->pp) return 0;
    for (p = 0; p < np; p++) {   /* A is sorted by row, then column */
        int64_t *pr = B->pp + p * (A->rows + 1);
        for (i = 0; i < A->rows; i++) {
            pr[i] = q;
            for (k = B->ptr[i]; k < B->ptr[i + 1]; k++)
                if (A->col[k] / w == p) B->idx[q++] = A->col[k];
        }
        pr[A->rows] = q;
    }
    return 1;
}
static void bcsr_free(bcsr *B) { free(B->ptr); free(B->pp); free(B->idx); }

/* median seconds of runs passes of a bound kernel (one warm-up): gather, or product when prod */
static double bound_time(const lcl_coo *A, const bcsr *B, const void *x, int prod, int threads, int runs) {
    size_t es = A->dtype == LCL_F64 ? sizeof(double) : sizeof(float);
    void *y = malloc((size_t)(A->rows + 1) * es);
    double *t = (double *)malloc((size_t)runs * sizeof *t), m;
    int64_t split[65], p;
    int r;
    if (threads > 64) threads = 64;
    for (p = 0, split[0] = 0; p < threads; p++) {   /* rows of equal nnz + rows, as the library splits */
        int64_t want = (int64_t)((double)(A->nnz + A->rows) * (double)(p + 1) / threads), lo = split[p], hi = A->rows;
        while (lo < hi) { int64_t mid = lo + (hi - lo) / 2; if (B->ptr[mid] + mid < want) lo = mid + 1; else hi = mid; }
        split[p + 1] = p + 1 == threads ? A->rows : lo;
    }
    if (!y || !t) { free(y); free(t); return 0; }
    for (r = -1; r < runs; r++) {
        double t0 = now();
        if (A->dtype == LCL_F64) {
            if (prod) product_d(B, (const double *)A->val, (const double *)x, (double *)y, threads, split);
            else gather_d(B, (const double *)A->val, (const double *)x, (double *)y, threads, split);
        } else {
            if (prod) product_s(B, (const float *)A->val, (const float *)x, (float *)y, threads, split);
            else gather_s(B, (const float *)A->val, (const float *)x, (float *)y, threads, split);
        }
        if (r >= 0) t[r] = now() - t0;
    }
    m = median(t, runs);
    free(y);
    free(t);
    return m;
}

typedef struct result {
    lcl_status st;
    lcl_spmat_info info;
    double seconds, rel_err;
} result;

/* one warm-up and runs products of A (format f) on ctx, each checked against yref */
static result measure(lcl_context *ctx, const lcl_coo *A, lcl_format f, const void *x, const double *yref, double scale, int runs) {
    result res;
    lcl_spmat *M = NULL;
    lcl_spmat_opts so;
    size_t es = A->dtype == LCL_F64 ? sizeof(double) : sizeof(float);
    void *y = malloc((size_t)(A->rows + 1) * es);
    double *t = (double *)malloc((size_t)runs * sizeof *t);
    int r;
    memset(&res, 0, sizeof res);
    memset(&so, 0, sizeof so);
    so.format = f;
    if (!y || !t) { res.st = LCL_ERR_OUT_OF_MEMORY; goto done; }
    if ((res.st = lcl_spmat_from_coo(ctx, A, &so, &M)) != LCL_OK || (res.st = lcl_spmat_describe(M, &res.info)) != LCL_OK) goto done;
    for (r = -1; r < runs; r++) {
        double t0, d = 0;
        int64_t i;
        memset(y, 0xff, (size_t)A->rows * es);     /* NaN: beta = 0 must not read y */
        t0 = now();
        if ((res.st = lcl_spmv(ctx, LCL_NO_TRANS, 1.0, M, x, 0.0, y)) != LCL_OK) goto done;
        if (r >= 0) t[r] = now() - t0;
        for (i = 0; i < A->rows; i++) {
            double v = A->dtype == LCL_F64 ? ((double *)y)[i] : (double)((float *)y)[i], e = fabs(v - yref[i]);
            if (!(e <= d)) d = e;                  /* NaN wins */
        }
        d = scale > 0 ? d / scale : d;
        if (!(d <= res.rel_err)) res.rel_err = d;
    }
    res.seconds = median(t, runs);
done:
    if (res.st != LCL_OK) fprintf(stderr, "bench_spmv: %s: %s\n", lcl_format_name(f), lcl_last_error(ctx));
    lcl_spmat_free(M);
    free(y);
    free(t);
    return res;
}

int main(int argc, char **argv) {
    static const char *const defaults[2] = {"poisson3d:100", "powerlaw:2000000:16"};
    const char *specs[16];
    int nspecs = 0, threads = 2, runs = 20, ai, s, p, fails = 0, misses = 0, bounds = 0;
    long copy_mib = 256, n;
    double *a, *b;
    lcl_context *ctx = NULL;
    lcl_context_desc desc;
    for (ai = 1; ai < argc; ai++) {
        if (!strcmp(argv[ai], "--threads") && ai + 1 < argc) threads = atoi(argv[++ai]);
        else if (!strcmp(argv[ai], "--runs") && ai + 1 < argc) runs = atoi(argv[++ai]);
        else if (!strcmp(argv[ai], "--copy-mib") && ai + 1 < argc) copy_mib = atol(argv[++ai]);
        else if (!strcmp(argv[ai], "--bounds")) bounds = 1;
        else if (argv[ai][0] != '-' && nspecs < 16) specs[nspecs++] = argv[ai];
        else {
            fprintf(stderr, "usage: %s [--threads T] [--runs N] [--copy-mib M] [--bounds] [SPEC...]  (SPEC as in lcl gen, e.g. poisson3d:100)\n", argv[0]);
            return 2;
        }
    }
    if (threads < 1 || runs < 1 || copy_mib < 1) { fprintf(stderr, "bench_spmv: --threads, --runs and --copy-mib must be positive\n"); return 2; }
    if (!nspecs) for (s = 0; s < 2; s++) specs[nspecs++] = defaults[s];
    n = copy_mib * 1048576L / (long)sizeof(double);
    a = (double *)malloc((size_t)n * sizeof(double));
    b = (double *)malloc((size_t)n * sizeof(double));
    if (!a || !b) { fprintf(stderr, "bench_spmv: out of memory (copy arrays)\n"); return 1; }
    {
        long i;
#pragma omp parallel for num_threads(threads) schedule(static)
        for (i = 0; i < n; i++) { a[i] = (double)(i % 1000) * 0.5; b[i] = 0; }
    }
    memset(&desc, 0, sizeof desc);
    desc.backend = LCL_BACKEND_OPENMP;
    desc.num_threads = threads;
    if (lcl_context_create(&desc, &ctx) != LCL_OK) { fprintf(stderr, "bench_spmv: %s\n", lcl_last_error(ctx)); return 3; }
    printf("# lcl CSR SpMV (OpenMP, %d threads) vs a %d-thread copy loop (2 x %ld MiB, median of 9) measured just before each row;\n"
           "# SpMV: median of %d products after a warm-up, GB/s = lcl_spmat_describe().bytes / time; bar: ratio >= 0.7\n",
           threads, threads, copy_mib, runs);
    printf("%-22s %-6s %-6s %-14s %10s %10s %10s %8s %8s %7s %-6s %9s\n", "matrix", "prec", "asked", "format/kernel", "nnz", "median_s",
           "spmv_GB/s", "copy_GB/s", "ratio", "GF/s", "bar", "rel_err");
    for (s = 0; s < nspecs; s++) {
        lcl_coo A64;
        char err[1024] = "";
        double *x0, *yref, scale = 0;
        int64_t i, k, maxrow = 0;
        double t0 = now();
        if (lclg_gen_coo(ctx, specs[s], 1, LCL_F64, &A64, err, sizeof err) != LCL_OK) {
            fprintf(stderr, "bench_spmv: %s: %s\n", specs[s], err);
            fails++;
            continue;
        }
        fprintf(stderr, "bench_spmv: %s: %lld x %lld, %lld nonzeros (generated in %.1f s)\n", specs[s], (long long)A64.rows,
                (long long)A64.cols, (long long)A64.nnz, now() - t0);
        x0 = (double *)malloc((size_t)(A64.cols + 1) * sizeof(double));
        yref = (double *)malloc((size_t)(A64.rows + 1) * sizeof(double));
        if (!x0 || !yref) { fprintf(stderr, "bench_spmv: out of memory\n"); return 1; }
        for (i = 0; i < A64.cols; i++) x0[i] = (double)((i * 7919) % 2001) / 1000.0 - 1.0;
        for (p = 0; p < 2; p++) {
            lcl_coo A32, *A = &A64;
            void *x = p ? malloc((size_t)(A64.cols + 1) * sizeof(float)) : (void *)x0;
            int which;
            memset(&A32, 0, sizeof A32);
            if (!x) { fprintf(stderr, "bench_spmv: out of memory\n"); return 1; }
            if (p) {
                if (lcl_coo_copy(ctx, &A64, LCL_F32, &A32) != LCL_OK) { fprintf(stderr, "bench_spmv: %s\n", lcl_last_error(ctx)); return 1; }
                A = &A32;
                for (i = 0; i < A64.cols; i++) ((float *)x)[i] = (float)x0[i];
            }
            /* the reference, from the values and x the library sees, accumulated in long double */
            scale = 0;
            maxrow = 0;
            {
                long double *acc = (long double *)calloc((size_t)(A->rows + 1), sizeof(long double));
                double *absrow = (double *)calloc((size_t)(A->rows + 1), sizeof(double));
                int64_t *len = (int64_t *)calloc((size_t)(A->rows + 1), sizeof(int64_t));
                if (!acc || !absrow || !len) { fprintf(stderr, "bench_spmv: out of memory\n"); return 1; }
                for (k = 0; k < A->nnz; k++) {
                    double v = p ? (double)((float *)A->val)[k] : ((double *)A->val)[k];
                    double xv = p ? (double)((float *)x)[A->col[k]] : x0[A->col[k]];
                    acc[A->row[k]] += (long double)v * xv;
                    absrow[A->row[k]] += fabs(v * xv);
                    len[A->row[k]]++;
                }
                for (i = 0; i < A->rows; i++) {
                    yref[i] = (double)acc[i];
                    if (absrow[i] > scale) scale = absrow[i];
                    if (len[i] > maxrow) maxrow = len[i];
                }
                free(acc);
                free(absrow);
                free(len);
            }
            for (which = 0; which < 2; which++) {
                lcl_format f = which ? LCL_FMT_AUTO : LCL_FMT_CSR;
                double cbw = copy_gbps(a, b, n, threads), tol = (double)(maxrow + 2) * (p ? FLT_EPSILON : DBL_EPSILON);
                result r = measure(ctx, A, f, x, yref, scale, runs);
                char fk[64];
                int ok = r.st == LCL_OK && r.rel_err <= tol && cbw > 0;
                double gbps = ok ? r.info.bytes / r.seconds * 1e-9 : 0, ratio = ok ? gbps / cbw : 0;
                if (!ok) fails++;
                else if (ratio < 0.7) misses++;
                snprintf(fk, sizeof fk, "%s/%s", lcl_format_name(r.info.format), lcl_spmv_kernel_name(r.info.kernel));
                printf("%-22s %-6s %-6s %-14s %10lld %10.6f %10.2f %9.2f %8.3f %7.2f %-6s %9.1e\n", specs[s], p ? "single" : "double",
                       lcl_format_name(f), r.st == LCL_OK ? fk : "-", (long long)A->nnz, r.seconds, gbps, cbw, ratio,
                       ok ? 2.0 * (double)A->nnz / r.seconds * 1e-9 : 0.0, !ok ? "FAIL" : ratio >= 0.7 ? "ok" : "missed", r.rel_err);
                if (which && r.st == LCL_OK && r.info.reason[0]) printf("#   auto: %s\n", r.info.reason);
                fflush(stdout);
            }
            if (bounds) {
                lcl_spmat_info bi;
                lcl_spmat *M = NULL;
                lcl_spmat_opts so;
                size_t es = p ? sizeof(float) : sizeof(double);
                int np = (int)ceil((double)A->cols * (double)es / (double)LCL__PANEL_X), which, pf;
                memset(&so, 0, sizeof so);
                so.format = LCL_FMT_CSR;
                if (lcl_spmat_from_coo(ctx, A, &so, &M) != LCL_OK || lcl_spmat_describe(M, &bi) != LCL_OK) {
                    fprintf(stderr, "bench_spmv: %s\n", lcl_last_error(ctx));
                    return 1;
                }
                pf = M->prefetch;               /* as the library runs this matrix */
                if (!M->npanel) np = 1;
                lcl_spmat_free(M);
                for (which = 0; which < 3; which++) {   /* gather, gather in panels, product with x in L1 */
                    bcsr B;
                    char name[32];
                    double cbw, sec;
                    if (which == 1 && np < 2) continue;
                    if (!bcsr_make(A, which == 1 ? np : 1, which == 2 ? 512 : 0, pf && which < 2, &B)) {
                        fprintf(stderr, "bench_spmv: out of memory (bounds)\n");
                        return 1;
                    }
                    cbw = copy_gbps(a, b, n, threads);
                    sec = bound_time(A, &B, x, which == 2, threads, runs);
                    if (which == 1) snprintf(name, sizeof name, "gather-%dp", np);
                    else snprintf(name, sizeof name, "%s", which == 0 ? "gather" : "product-l1");
                    printf("%-22s %-6s %-6s %-14s %10lld %10.6f %10.2f %9.2f %8.3f %7s %-6s %9s\n", specs[s], p ? "single" : "double",
                           "bound", name, (long long)A->nnz, sec, bi.bytes / sec * 1e-9, cbw, bi.bytes / sec * 1e-9 / cbw, "-", "-", "-");
                    fflush(stdout);
                    bcsr_free(&B);
                }
            }
            if (p) { free(x); lcl_coo_free(&A32); }
        }
        free(x0);
        free(yref);
        lcl_coo_free(&A64);
    }
    printf("# %s: %d row(s) below the 0.7 bar, %d failed\n", fails ? "FAIL" : misses ? "bar missed" : "bar met", misses, fails);
    lcl_context_destroy(ctx);
    free(a);
    free(b);
    return fails ? 1 : 0;
}
