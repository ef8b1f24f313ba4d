/* spmv.c -- lcl spmv MATRIX: y = A x (A^T x) in one storage format, timed and checked; and the
   measuring that bench spmv and the demo share: each product is checked against the tool's own
   serial product over the COO (independent of the library's SpMV). */
#include "lcl.h"
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int check_spmv(const opts *o) {
    if (arrlen(o->pos) != 1)
        return fail(EXIT_USAGE, "spmv needs exactly one MATRIX (a file or gen:KIND:ARGS), got %d", (int)arrlen(o->pos));
    return -1;
}

static double coo_val(const lcl_coo *A, int64_t k) {
    return A->dtype == LCL_F64 ? ((const double *)A->val)[k] : (double)((const float *)A->val)[k];
}
void spmv_ref_free(spmv_ref *r) {
    free(r->x);
    free(r->xw);
    free(r->y);
    free(r->over);
    memset(r, 0, sizeof *r);
}
/* A canonical (sorted by row, as lclg_load leaves it), any dtype; x0 the x asked for (n_in
   doubles). The bound: recursive summation of m terms in any order errs by at most about
   m u sum |a||x| (u = eps/2); tol allows m eps, m the longest row of op(A). */
lcl_status spmv_ref_make(const lcl_coo *A, int trans, const double *x0, spmv_ref *r) {
    int64_t i, k, maxlen = 0;
    int64_t n_in = trans ? A->rows : A->cols, n_out = trans ? A->cols : A->rows;
    size_t es = A->dtype == LCL_F64 ? sizeof(double) : sizeof(float);
    long double *acc, *abs_acc;
    int64_t *len;
    memset(r, 0, sizeof *r);
    r->n_in = n_in;
    r->n_out = n_out;
    r->x = (double *)malloc((size_t)(n_in + 1) * sizeof(double));
    r->xw = malloc((size_t)(n_in + 1) * es);
    r->y = (double *)malloc((size_t)(n_out + 1) * sizeof(double));
    acc = (long double *)calloc((size_t)(n_out + 1), sizeof(long double));
    abs_acc = (long double *)calloc((size_t)(n_out + 1), sizeof(long double));
    len = (int64_t *)calloc((size_t)(n_out + 1), sizeof(int64_t));
    if (!r->x || !r->xw || !r->y || !acc || !abs_acc || !len) {
        free(acc);
        free(abs_acc);
        free(len);
        spmv_ref_free(r);
        return LCL_ERR_OUT_OF_MEMORY;
    }
    for (i = 0; i < n_in; i++) {
        if (A->dtype == LCL_F64) ((double *)r->xw)[i] = r->x[i] = x0[i];
        else r->x[i] = (double)(((float *)r->xw)[i] = (float)x0[i]);
    }
    for (k = 0; k < A->nnz; k++) {
        int64_t out = trans ? A->col[k] : A->row[k], in = trans ? A->row[k] : A->col[k];
        long double a = coo_val(A, k);
        acc[out] += a * r->x[in];
        abs_acc[out] += fabsl(a * r->x[in]);
        len[out]++;
    }
    r->scale = 0;
    for (i = 0; i < n_out; i++) {
        const long double lim = A->dtype == LCL_F64 ? DBL_MAX : FLT_MAX;
        r->y[i] = (double)acc[i];
        if (abs_acc[i] > lim) {   /* the product may overflow there, or not, by the order of its sum */
            if (!r->over && !(r->over = (unsigned char *)calloc((size_t)n_out, 1))) {
                free(acc);
                free(abs_acc);
                free(len);
                spmv_ref_free(r);
                return LCL_ERR_OUT_OF_MEMORY;
            }
            r->over[i] = 1;
            r->n_over++;
        } else
            r->scale = amax(r->scale, (double)abs_acc[i]);
        if (len[i] > maxlen) maxlen = len[i];
    }
    r->tol = (double)(maxlen + 2) * (A->dtype == LCL_F64 ? DBL_EPSILON : FLT_EPSILON);
    free(acc);
    free(abs_acc);
    free(len);
    return LCL_OK;
}
/* max |y - y_ref| / scale (NaN when y holds one) */
static double spmv_rel_err(const spmv_ref *r, lcl_dtype dt, const void *y) {
    int64_t i;
    double d = 0;
    for (i = 0; i < r->n_out; i++) {
        double v = dt == LCL_F64 ? ((const double *)y)[i] : (double)((const float *)y)[i];
        if (!r->over || !r->over[i]) d = amax(d, fabs(v - r->y[i]));
    }
    return r->scale > 0 ? d / r->scale : d;
}


/* Builds op's lcl_spmat from A (in the working precision), one warm-up product, then reps timed
   products into y (poisoned with NaN before each: beta = 0 must not read it), each checked. */
void spmv_measure(lcl_context *ctx, const lcl_coo *A, const lcl_spmat_opts *so, int trans, long reps,
                  const spmv_ref *ref, void *y, spmv_run *r) {
    lcl_spmat *M = NULL;
    lcl_vec *xv = NULL, *yv = NULL, *wv = NULL;
    size_t es = A->dtype == LCL_F64 ? sizeof(double) : sizeof(float);
    double *times = (double *)malloc((size_t)reps * sizeof *times);
    double dref = 0, dtol = 0;
    long k;
    memset(r, 0, sizeof *r);
    r->rel_err = 0;
    if (!times) { r->st = LCL_ERR_OUT_OF_MEMORY; snprintf(r->msg, sizeof r->msg, "out of memory"); return; }
    r->st = lcl_spmat_from_coo(ctx, A, so, &M);
    if (r->st == LCL_OK) r->st = lcl_spmat_describe(M, &r->info);
    /* a matrix on one OpenCL device is timed as an iterative solver uses it: x and y stay on the
       device (lcl_spmv_vec, then lcl_finish), and the products follow each other with only
       vector work between them. A square one split over devices likewise, on vectors partitioned
       as its rows (only the halo of x crosses between devices); its A^T x, and a non-square
       split, take host arrays. Between products y is poisoned on the device (NaN w) and checked
       there by y . w against the reference's; the first and last products are read back whole
       and checked entry by entry. (Reading y back after each product left the devices idle for
       tens of ms between products: each then paid a cold start, 65 us of the split's 540 on two
       H100s, which no solver pays.) */
    r->resident = r->st == LCL_OK && r->info.devices > 1 && !trans && A->rows == A->cols;
    if (r->st == LCL_OK && (r->info.devices == 1 || r->resident)) {
        int ylike = !trans && A->rows == A->cols;   /* lcl_vec_create_like makes x's shape */
        if (trans) r->st = lcl_vec_create(ctx, A->dtype, A->rows, ref->xw, &xv);
        else r->st = lcl_vec_create_like(ctx, M, ref->xw, &xv);
        if (r->st == LCL_OK) r->st = ylike ? lcl_vec_create_like(ctx, M, NULL, &yv) : lcl_vec_create(ctx, A->dtype, ref->n_out, NULL, &yv);
        if (r->st == LCL_OK) r->st = lcl_spmat_describe(M, &r->info);   /* the halo, now built */
        if (r->st == LCL_OK) {   /* w_i in [1, 1.75], y_ref . w, and the dot's own rounding on top of ref->tol */
            int64_t i;
            double wsum = 0, eps = A->dtype == LCL_F64 ? DBL_EPSILON : FLT_EPSILON;
            for (i = 0; i < ref->n_out; i++) {
                double w = 1 + (double)(i % 7) / 8;
                if (A->dtype == LCL_F64) ((double *)y)[i] = w;
                else ((float *)y)[i] = (float)w;
                dref += ref->y[i] * w;
                wsum += w;
            }
            dtol = (ref->tol + eps * ((double)ref->n_out / 65536 + 64)) * ref->scale * wsum;
            r->st = ylike ? lcl_vec_create_like(ctx, M, y, &wv) : lcl_vec_create(ctx, A->dtype, ref->n_out, y, &wv);
        }
    }
    for (k = 0; k <= reps && r->st == LCL_OK; k++) {
        int whole = !yv || k == 0 || k == reps || ref->n_over;   /* (rows beyond range: no dot check) */
        double t0, t1, d = 0;
        if (whole) memset(y, 0xff, (size_t)ref->n_out * es);   /* all bits set: NaN in float and double */
        if (yv && (r->st = whole ? lcl_vec_write(ctx, yv, y) : lcl_vec_axpby(ctx, NAN, wv, 0.0, yv)) != LCL_OK) break;
        if (yv && (r->st = lcl_finish(ctx)) != LCL_OK) break;
        t0 = now_s();
        if (yv) {
            r->st = lcl_spmv_vec(ctx, trans ? LCL_TRANS : LCL_NO_TRANS, 1.0, M, xv, 0.0, yv);
            if (r->st == LCL_OK) r->st = lcl_finish(ctx);
        } else
            r->st = lcl_spmv(ctx, trans ? LCL_TRANS : LCL_NO_TRANS, 1.0, M, ref->xw, 0.0, y);
        t1 = now_s();
        if (r->st == LCL_OK && yv) r->st = whole ? lcl_vec_read(ctx, yv, y) : lcl_vec_dot(ctx, yv, wv, &d);
        if (r->st != LCL_OK) break;
        if (whole) r->rel_err = amax(r->rel_err, spmv_rel_err(ref, A->dtype, y));
        else if (!(fabs(d - dref) <= dtol)) r->rel_err = NAN;   /* a wrong product, or NaN left in y */
        if (k > 0) times[k - 1] = t1 - t0;
    }
    if (r->st == LCL_OK) {
        r->seconds = median(times, reps);
        r->ok = r->rel_err <= ref->tol;     /* false for NaN */
    } else {
        snprintf(r->msg, sizeof r->msg, "%s", lcl_last_status(ctx) == r->st ? lcl_last_error(ctx) : lcl_status_string(r->st));
    }
    lcl_vec_free(xv);
    lcl_vec_free(yv);
    lcl_vec_free(wv);
    lcl_spmat_free(M);
    free(times);
}
double spmv_mnnz(const spmv_run *r) { return r->st == LCL_OK && r->seconds > 0 ? (double)r->info.nnz / r->seconds * 1e-6 : 0; }
double spmv_gbps(const spmv_run *r) { return r->st == LCL_OK && r->seconds > 0 ? r->info.bytes / r->seconds * 1e-9 : 0; }

/* MATRIX as canonical COO in the working precision: -1, else the exit code (printed) */
int spmv_load(lcl_context *ctx, const char *src, uint64_t seed, lcl_dtype dt, lcl_coo *A) {
    char err[1024] = "";
    lcl_coo A64;
    int code;
    lcl_status st = lclg_load(ctx, src, seed, LCL_F64, &A64, err, sizeof err);
    memset(A, 0, sizeof *A);
    if (st != LCL_OK) {
        lcl_coo_free(&A64);
        return fail(exit_code(st), "%s", err[0] ? err : lcl_status_string(st));
    }
    if (dt == LCL_F64) { *A = A64; return -1; }
    if ((code = fits_coo(src, dt, &A64)) >= 0) { lcl_coo_free(&A64); return code; }
    st = lcl_coo_copy(ctx, &A64, dt, A);
    lcl_coo_free(&A64);
    return st == LCL_OK ? -1 : fail(exit_code(st), "%s", lcl_last_error(ctx));
}

/* a product that could not run: its message and exit code (a format's refusal says how to raise the guard) */
static int measure_failed(const spmv_run *r) {
    return fail(exit_code(r->st), "%s%s", r->msg, r->st == LCL_ERR_FILL ? " (--max-fill R raises the limit)" : "");
}

/* lcl spmv MATRIX [--format F] [--kernel K] [--reps N] [--trans] [--split] [--x FILE] [-o FILE] */
int cmd_spmv(const opts *o) {
    const char *src = o->pos[0];
    long reps = o->reps > 0 ? o->reps : SPMV_REPS;
    lcl_context *ctx = NULL;
    lcl_coo A;
    lcl_dense X;
    lcl_spmat_opts so;
    spmv_ref ref;
    spmv_run run, one;
    double *x0 = NULL;
    void *y = NULL;
    int64_t n_in, i;
    size_t es = o->dtype == LCL_F64 ? sizeof(double) : sizeof(float);
    int code;
    lcl_status st;
    char dev[128];
    memset(&A, 0, sizeof A);
    memset(&X, 0, sizeof X);
    memset(&ref, 0, sizeof ref);
    memset(&so, 0, sizeof so);
    memset(&one, 0, sizeof one);
    if (o->format) lcl_format_parse(o->format, &so.format);
    if (o->kernel) lcl_spmv_kernel_parse(o->kernel, &so.kernel);
    so.max_fill = o->max_fill;
    if ((code = make_context(o, &ctx)) >= 0) return code;
    if (lcl_context_backend(ctx) == LCL_BACKEND_OPENCL && (st = lcl_context_prepare(ctx, o->dtype)) != LCL_OK) {
        code = fail(exit_code(st), "%s", lcl_last_error(ctx));
        goto done;
    }
    spmv_device_name(ctx, dev, sizeof dev);
    if (o->split) {   /* rows split by nnz over every device of the context */
        if ((code = split_check(ctx)) >= 0) goto done;
        so.device = -1;
        snprintf(dev, sizeof dev, "%d devices, split%s", lcl_context_num_devices(ctx), getenv("LCL_HALO_SKIP") ? ", halo exchange skipped (LCL_HALO_SKIP)" : "");
    }
    if ((code = spmv_load(ctx, src, o->seed, o->dtype, &A)) >= 0) goto done;
    code = -1;
    n_in = o->trans ? A.rows : A.cols;
    x0 = (double *)malloc((size_t)(n_in + 1) * sizeof *x0);
    if (!x0) { code = fail(EXIT_NUMERIC, "out of memory"); goto done; }
    if (o->x) {
        if ((st = lcl_mm_read_dense(ctx, o->x, LCL_F64, LCL_COL_MAJOR, LCL_MM_EXPAND, &X, NULL)) != LCL_OK) {
            code = fail(exit_code(st), "%s", lcl_last_error(ctx));
            goto done;
        }
        if ((code = fits_dense(o->x, o->dtype, &X)) >= 0) goto done;
        if (X.rows * X.cols != n_in || (X.rows != 1 && X.cols != 1)) {
            code = fail(EXIT_USAGE, "%s is %lld x %lld: x must be a vector of %lld entries (the %s of %s, %lld x %lld%s)", o->x,
                        (long long)X.rows, (long long)X.cols, (long long)n_in, o->trans ? "rows" : "columns", src, (long long)A.rows,
                        (long long)A.cols, o->trans ? ", --trans" : "");
            goto done;
        }
        for (i = 0; i < n_in; i++) x0[i] = X.cols == 1 ? lcl_dense_get(&X, i, 0) : lcl_dense_get(&X, 0, i);
    } else {
        for (i = 0; i < n_in; i++) x0[i] = urand_sym(o->seed, (uint64_t)i);
    }
    if (spmv_ref_make(&A, o->trans, x0, &ref) != LCL_OK ||
        !(y = malloc((size_t)(ref.n_out + 1) * (o->dtype == LCL_F64 ? sizeof(double) : sizeof(float))))) {
        code = fail(EXIT_NUMERIC, "out of memory");
        goto done;
    }
    if (o->split) {   /* device 0 alone first, in the same run: the split's reference */
        lcl_spmat_opts s1 = so;
        s1.device = 0;
        spmv_measure(ctx, &A, &s1, o->trans, reps, &ref, y, &one);
        if (one.st != LCL_OK) { code = measure_failed(&one); goto done; }
        if (!one.ok) {
            code = fail(EXIT_NUMERIC, "%s on device 0: wrong result: rel_err %.3e above %.1e", src, one.rel_err, ref.tol);
            goto done;
        }
    }
    spmv_measure(ctx, &A, &so, o->trans, reps, &ref, y, &run);
    if (run.st != LCL_OK) { code = measure_failed(&run); goto done; }
    if (run.ok && o->out) {
        lcl_dense Y;
        if ((st = lcl_dense_wrap(ctx, &Y, o->dtype, LCL_COL_MAJOR, ref.n_out, 1, ref.n_out > 0 ? ref.n_out : 1, y)) != LCL_OK ||
            (st = lcl_mm_write_dense(ctx, o->out, &Y)) != LCL_OK) {
            code = fail(exit_code(st), "%s", lcl_last_error(ctx));
            goto done;
        }
    }
    if (o->json) {
        printf("{\"op\":\"spmv\",\"format\":\"%s\",\"kernel\":\"%s\",\"backend\":\"%s\",\"device\":", lcl_format_name(run.info.format),
               lcl_spmv_kernel_name(run.info.kernel), lcl_backend_name(lcl_context_backend(ctx)));
        lclg_json_str(stdout, dev);
        printf(",\"precision\":\"%s\",\"rows\":%lld,\"cols\":%lld,\"nnz\":%lld,\"seconds\":", prec_name(o->dtype), (long long)A.rows,
               (long long)A.cols, (long long)run.info.nnz);
        json_double(stdout, run.seconds, 1);
        printf(",\"gflops\":");
        json_double(stdout, 2e-3 * spmv_mnnz(&run), 1);
        printf(",\"gbps\":");
        json_double(stdout, spmv_gbps(&run), 1);
        printf(",\"rel_err\":");
        json_double(stdout, run.rel_err, 1);
        printf(",\"rows_beyond_range\":%lld", (long long)ref.n_over);
        if (run.info.reason[0]) { printf(",\"reason\":"); lclg_json_str(stdout, run.info.reason); }
        if (o->split) {
            printf(",\"resident\":%s,\"halo_values\":%lld,\"halo_bytes\":%.0f,\"one_device_seconds\":", run.resident ? "true" : "false",
                   (long long)run.info.halo, (double)run.info.halo * (double)es);
            json_double(stdout, one.seconds, 1);
            printf(",\"one_device_format\":\"%s\",\"speedup\":", lcl_format_name(one.info.format));
            json_double(stdout, run.seconds > 0 ? one.seconds / run.seconds : 0, 1);
        }
        printf("}\n");
    } else {
        printf("spmv %s\n", src);
        printf("  matrix      %lld x %lld, %lld nonzeros\n", (long long)A.rows, (long long)A.cols, (long long)A.nnz);
        if (o->x) printf("  product     y = %s x, x from %s\n", o->trans ? "A^T" : "A", o->x);
        else printf("  product     y = %s x, x random (seed %llu)\n", o->trans ? "A^T" : "A", (unsigned long long)o->seed);
        printf("  format      %s, kernel %s; %lld slots stored (%.2f per nonzero)\n", lcl_format_name(run.info.format),
               lcl_spmv_kernel_name(run.info.kernel), (long long)run.info.stored,
               run.info.nnz > 0 ? (double)run.info.stored / (double)run.info.nnz : 0.0);
        if (run.info.reason[0]) printf("  auto        %s\n", run.info.reason);
        printf("  backend     %s%s%s, %s precision\n", lcl_backend_name(lcl_context_backend(ctx)), dev[0] ? " on " : "", dev,
               prec_name(o->dtype));
        printf("  time        %.3e s per product (median of %ld after one warm-up)%s\n", run.seconds, reps,
               run.resident ? ", x and y resident per device" : o->split ? ", host arrays" : "");
        if (o->split) {
            printf("  one device  %.3e s per product on device 0 alone (%s), same run: speedup (one / split) %.2fx\n", one.seconds,
                   lcl_format_name(one.info.format), run.seconds > 0 ? one.seconds / run.seconds : 0.0);
            if (run.resident)
                printf("  halo        %lld values = %.0f bytes of x per product, each read to pinned host memory and written to its "
                       "receiver (no peer copy between OpenCL contexts)\n", (long long)run.info.halo, (double)run.info.halo * (double)es);
            if (run.resident && run.seconds > one.seconds && A.cols > 0)   /* e.g. power-law graphs: keep them on one device */
                printf("  note        the split is slower than one device: its halo is %.0f%% of x; a row partition pays where each "
                       "part's columns are mostly its own rows (meshes, banded matrices)\n", 100.0 * (double)run.info.halo / (double)A.cols);
        }
        printf("  speed       %.1f M nnz/s, %.3f GF/s, %.2f GB/s (%.0f bytes moved per product at least)\n", spmv_mnnz(&run),
               2e-3 * spmv_mnnz(&run), spmv_gbps(&run), run.info.bytes);
        printf("  rel_err     %.2e   max|y - y_ref| / max_i sum_j |a_ij||x_j|, every product (bound %.1e: %s)\n", run.rel_err, ref.tol,
               run.ok ? "ok" : "WRONG");
        if (ref.n_over)
            printf("  note        %lld of y's %lld rows are beyond %s precision's range (sum_j |a_ij||x_j|): whatever they hold, "
                   "Inf or NaN, is not checked\n", (long long)ref.n_over, (long long)ref.n_out, prec_name(o->dtype));
        if (run.ok && o->out) printf("  y written   %s\n", o->out);
    }
    if (!run.ok) {
        code = fail(EXIT_NUMERIC, "%s %s/%s: wrong result: rel_err %.3e above %.1e against the serial double reference", src,
                    lcl_format_name(run.info.format), lcl_spmv_kernel_name(run.info.kernel), run.rel_err, ref.tol);
        goto done;
    }
    code = EXIT_OK;
done:
    free(x0);
    free(y);
    spmv_ref_free(&ref);
    lcl_dense_free(&X);
    lcl_coo_free(&A);
    lcl_context_destroy(ctx);
    return code;
}
