/* solve.c -- lcl solve MATRIX --method lu|cholesky: factor and solve A x = b on the chosen
   backend, then check x on the host in double (backward error; forward error when b = A x*).
   --method klu is its own command row, in klu.c. */
#include "lcl.h"
#include <stdlib.h>
#include <string.h>

int check_solve(const opts *o) {
    if (arrlen(o->pos) != 1)
        return fail(EXIT_USAGE, "solve needs exactly one MATRIX (a file or gen:KIND:ARGS), got %d", (int)arrlen(o->pos));
    if (!o->method) return fail(EXIT_USAGE, "solve needs --method lu|cholesky|klu|bklu");
    if (o->algorithm && !alg_fits(method_parse(o->method), alg_parse(o->algorithm)))
        return fail(EXIT_USAGE, "--algorithm %s is for --method cholesky (lu: auto, blocked, unblocked, crout)", o->algorithm);
    return -1;
}

/* lcl solve MATRIX --method lu|cholesky [--rhs FILE] [--algorithm A] [--block N] [-o FILE] */
int cmd_solve(const opts *o) {
    const char *src = o->pos[0];
    int chol = method_parse(o->method) == 1, code, have_x = 0;
    lcl_dense_alg alg = o->algorithm ? (lcl_dense_alg)alg_parse(o->algorithm) : LCL_ALG_AUTO;
    lcl_context *ctx = NULL;
    lcl_dense A, Aw, Bw, Bin;
    lcl_dense_opts dopt;
    double *B = NULL, *X = NULL, *xs = NULL, *work = NULL;
    int32_t *ipiv = NULL;
    int64_t n = 0, k = 1, nnz = 0, info = 0, i, j;
    double t0, t_factor = 0, t_solve = 0, residual = 0, ferr = 0, normA;
    lcl_status st, fst;
    char dev[128];
    memset(&A, 0, sizeof A);
    memset(&Aw, 0, sizeof Aw);
    memset(&Bw, 0, sizeof Bw);
    memset(&Bin, 0, sizeof Bin);
    if ((code = make_context(o, &ctx)) >= 0) return code;
    if (o->split && (code = split_check(ctx)) >= 0) goto done;
    if (lcl_dense_backend(ctx) == LCL_BACKEND_OPENCL && (st = lcl_context_prepare(ctx, o->dtype)) != LCL_OK) {
        code = fail(exit_code(st), "%s", lcl_last_error(ctx));
        goto done;
    }
    dense_device_name(ctx, o->split, dev, sizeof dev);
    if ((code = load_square(ctx, src, o->seed, &A)) >= 0 || (code = fits_dense(src, o->dtype, &A)) >= 0) goto done;
    n = A.rows;
    nnz = count_nonzeros(&A);
    if (o->rhs) {
        /* (a symmetric file holds one triangle: expanded, as the matrix's own) */
        if ((st = lcl_mm_read_dense(ctx, o->rhs, LCL_F64, LCL_COL_MAJOR, LCL_MM_EXPAND, &Bin, NULL)) != LCL_OK) {
            code = fail(exit_code(st), "%s", lcl_last_error(ctx));
            goto done;
        }
        if ((code = fits_dense(o->rhs, o->dtype, &Bin)) >= 0) goto done;
        if (Bin.rows != n || Bin.cols < 1) {
            code = fail(EXIT_USAGE, "%s is %lld x %lld: the right-hand side needs %lld rows and at least one column", o->rhs,
                        (long long)Bin.rows, (long long)Bin.cols, (long long)n);
            goto done;
        }
        k = Bin.cols;
    }
    B = (double *)malloc((size_t)(n * k + 1) * sizeof *B);
    X = (double *)malloc((size_t)(n * k + 1) * sizeof *X);
    xs = (double *)malloc((size_t)(n + 1) * sizeof *xs);
    work = (double *)malloc((size_t)(n + 1) * sizeof *work);
    ipiv = (int32_t *)malloc((size_t)(n + 1) * sizeof *ipiv);
    if (!B || !X || !xs || !work || !ipiv) { code = fail(EXIT_NUMERIC, "out of memory (n = %lld)", (long long)n); goto done; }
    if (o->rhs) dense_to_array(&Bin, B);
    else {  /* b = A x* for a seeded random x*, in double */
        for (i = 0; i < n; i++) xs[i] = urand_sym(o->seed, (uint64_t)i);
        matvec64(&A, xs, B);
    }
    if ((st = dense_convert(ctx, &A, o->dtype, &Aw)) != LCL_OK || (st = dense_from_array(ctx, B, n, k, o->dtype, &Bw)) != LCL_OK) {
        code = fail(exit_code(st), "%s", lcl_last_error(ctx));
        goto done;
    }
    memset(&dopt, 0, sizeof dopt);
    dopt.alg = alg;
    dopt.block = (int)o->block;
    dopt.device = o->split ? -1 : 0;
    t0 = now_s();
    fst = chol ? lcl_potrf(ctx, LCL_LOWER, &Aw, &info, &dopt) : lcl_getrf(ctx, &Aw, ipiv, &info, &dopt);
    t_factor = now_s() - t0;
    if (fst == LCL_OK) {
        t0 = now_s();
        st = chol ? lcl_potrs(ctx, LCL_LOWER, &Aw, &Bw) : lcl_getrs(ctx, LCL_NO_TRANS, &Aw, ipiv, &Bw);
        t_solve = now_s() - t0;
        if (st != LCL_OK) { code = fail(exit_code(st), "%s", lcl_last_error(ctx)); goto done; }
        have_x = 1;
    } else if (fst == LCL_ERR_SINGULAR || fst == LCL_ERR_NOT_SPD) {
        fail(EXIT_NUMERIC, "%s", lcl_last_error(ctx));      /* the result still follows, with its status */
    } else {
        code = fail(exit_code(fst), "%s", lcl_last_error(ctx));
        goto done;
    }
    if (have_x) {
        normA = inf_norm64(&A, work);
        dense_to_array(&Bw, X);
        residual = 0;
        for (j = 0; j < k; j++) residual = amax(residual, backward_error(&A, normA, X + j * n, B + j * n, work));
        if (!o->rhs) ferr = forward_error(X, xs, n);
        if (o->out && (st = lcl_mm_write_dense(ctx, o->out, &Bw)) != LCL_OK) {
            code = fail(exit_code(st), "%s", lcl_last_error(ctx));
            goto done;
        }
    }
    if (o->json) {
        printf("{\"op\":\"solve\",\"method\":\"%s\",\"algorithm\":\"%s\",\"backend\":\"%s\",\"device\":", chol ? "cholesky" : "lu",
               alg_names[alg], lcl_backend_name(lcl_dense_backend(ctx)));
        lclg_json_str(stdout, dev);
        printf(",\"precision\":\"%s\",\"n\":%lld,\"nrhs\":%lld,\"nnz\":%lld,\"residual\":", o->dtype == LCL_F64 ? "double" : "single",
               (long long)n, (long long)k, (long long)nnz);
        json_double(stdout, residual, have_x);
        printf(",\"forward_error\":");
        json_double(stdout, ferr, have_x && !o->rhs);
        printf(",\"t_factor\":");
        json_double(stdout, t_factor, 1);
        printf(",\"t_solve\":");
        json_double(stdout, t_solve, have_x);
        printf(",\"status\":");
        lclg_json_str(stdout, lcl_status_string(fst));
        printf("}\n");
        fflush(stdout);   /* the result is out before any driver teardown (PoCL 5 can abort there) */
    } else {
        double flops = (chol ? 1.0 / 3.0 : 2.0 / 3.0) * (double)n * (double)n * (double)n;
        printf("solve %s\n", src);
        printf("  matrix      %lld x %lld, %lld nonzeros", (long long)n, (long long)n, (long long)nnz);
        if (o->rhs) printf("; %lld right-hand side%s from %s", (long long)k, k == 1 ? "" : "s", o->rhs);
        else printf("; b = A x* for a random x* (seed %llu)", (unsigned long long)o->seed);
        printf("\n  method      %s, algorithm %s", chol ? "Cholesky (potrf/potrs)" : "LU (getrf/getrs)", alg_names[alg]);
        if (o->block) printf(", block %ld", o->block);
        printf("\n  backend     %s on %s, %s precision\n", lcl_backend_name(lcl_dense_backend(ctx)), dev,
               o->dtype == LCL_F64 ? "double" : "single");
        printf("  factor      %.6f s", t_factor);
        if (t_factor > 0 && fst == LCL_OK) printf(" (%.3g GF/s)", flops / t_factor * 1e-9);
        printf("\n");
        if (have_x) {
            printf("  solve       %.6f s\n", t_solve);
            printf("  residual    %.3e   |b - Ax| / (|A| |x| + |b|), infinity norms\n", residual);
            if (!o->rhs) printf("  fwd error   %.3e   |x - x*| / |x*|\n", ferr);
            if (o->out) printf("  x written   %s\n", o->out);
        }
        printf("  status      %s", lcl_status_string(fst));
        if (info) printf(" (info = %lld: the first %s, 1-based)", (long long)info, chol ? "non-positive leading minor" : "zero pivot");
        printf("\n");
    }
    code = have_x ? residual_exit(o, residual) : EXIT_NUMERIC;
    if (code < 0) code = EXIT_OK;
done:
    free(B);
    free(X);
    free(xs);
    free(work);
    free(ipiv);
    lcl_dense_free(&A);
    lcl_dense_free(&Aw);
    lcl_dense_free(&Bw);
    lcl_dense_free(&Bin);
    lcl_context_destroy(ctx);
    return code;
}
