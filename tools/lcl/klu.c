/* klu.c -- lcl solve MATRIX --method klu (sparse direct LU: analyze, factor, refactor, solve,
   checked on the host in double as the dense solve is) and lcl bench klu (each phase's time and
   the fill per matrix).

   Built with -DLCL_BENCH_KLU (make bench-klu: build/lcl-bench), bench klu also measures
   SuiteSparse KLU on the same matrices in the same process. Only that benchmark build links
   SuiteSparse; the library and the plain tool never do. */
#include "lcl.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef LCL_BENCH_KLU
#include <klu.h>
#endif

#define KLU_BENCH_REPS 5

int klu_ordering_parse(const char *s) {
    return !strcmp(s, "amd") ? LCL_KLU_AMD : !strcmp(s, "colamd") ? LCL_KLU_COLAMD : !strcmp(s, "natural") ? LCL_KLU_NATURAL : -1;
}
int klu_scale_parse(const char *s) {
    return !strcmp(s, "none") ? LCL_KLU_SCALE_NONE : !strcmp(s, "sum") ? LCL_KLU_SCALE_SUM : !strcmp(s, "max") ? LCL_KLU_SCALE_MAX : -1;
}

void klu_opts_from(const opts *o, lcl_klu_opts *ko) {
    memset(ko, 0, sizeof *ko);
    if (o->ordering) ko->ordering = (lcl_klu_ordering)klu_ordering_parse(o->ordering);
    if (o->scale) ko->scale = (lcl_klu_scaling)klu_scale_parse(o->scale);
    ko->tol = o->tol;
    ko->refine = o->refine;
    ko->dense = o->dense;
}

/* One test system: A in double (the check's) and in the working precision (what is factored, the
   same pattern), x* from urand_sym(seed, i), b = A x* in double. */
typedef struct klu_system {
    lcl_csr A, Aw;
    double normA;
    sys_vecs v;
} klu_system;

int sys_vecs_alloc(sys_vecs *v, int64_t n, lcl_dtype dt, uint64_t seed) {
    int64_t i;
    memset(v, 0, sizeof *v);
    v->n = n;
    v->dt = dt;
    v->xs = (double *)malloc((size_t)n * sizeof(double) + 1);
    v->b = (double *)malloc((size_t)n * sizeof(double) + 1);
    v->x = (double *)malloc((size_t)n * sizeof(double) + 1);
    v->ax = (double *)malloc((size_t)n * sizeof(double) + 1);
    v->bw = malloc((size_t)n * sizeof(double) + 1);
    if (!v->xs || !v->b || !v->x || !v->ax || !v->bw) { sys_vecs_free(v); return 0; }
    for (i = 0; i < n; i++) v->xs[i] = urand_sym(seed, (uint64_t)i);
    return 1;
}
void sys_vecs_free(sys_vecs *v) {
    free(v->xs);
    free(v->b);
    free(v->x);
    free(v->ax);
    free(v->bw);
    memset(v, 0, sizeof *v);
}
void sys_vecs_load(sys_vecs *v) {
    int64_t i;
    for (i = 0; i < v->n; i++)
        if (v->dt == LCL_F64) ((double *)v->bw)[i] = v->b[i];
        else ((float *)v->bw)[i] = (float)v->b[i];
}
void sys_vecs_take(sys_vecs *v) {
    int64_t i;
    for (i = 0; i < v->n; i++) v->x[i] = v->dt == LCL_F64 ? ((double *)v->bw)[i] : (double)((float *)v->bw)[i];
}
int sys_vecs_write_x(lcl_context *ctx, const sys_vecs *v, const char *path) {
    lcl_dense X;
    lcl_status st;
    if ((st = dense_from_array(ctx, v->x, v->n, 1, LCL_F64, &X)) == LCL_OK) {
        st = lcl_mm_write_dense(ctx, path, &X);
        lcl_dense_free(&X);
    }
    return st == LCL_OK ? -1 : fail(exit_code(st), "%s", lcl_last_error(ctx));
}
void sys_vecs_report(double residual, double ferr, const char *path) {
    printf("  residual    %.3e   |b - Ax| / (|A| |x| + |b|), infinity norms\n", residual);
    printf("  fwd error   %.3e   |x - x*| / |x*|\n", ferr);
    if (path) printf("  x written   %s\n", path);
}

static void klu_system_free(klu_system *s) {
    lcl_csr_free(&s->A);
    lcl_csr_free(&s->Aw);
    sys_vecs_free(&s->v);
    memset(s, 0, sizeof *s);
}

/* y = A x in double, accumulated in long double (as matvec64) */
void csr_matvec64(const lcl_csr *A, const double *x, double *y) {
    const double *v = (const double *)A->val;
    int64_t i, k;
    for (i = 0; i < A->rows; i++) {
        long double acc = 0;
        for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) acc += (long double)v[k] * x[A->col[k]];
        y[i] = (double)acc;
    }
}

double csr_norm_inf64(const lcl_csr *A) {
    double m = 0;
    int64_t i, k;
    for (i = 0; i < A->rows; i++) {
        double r = 0;
        for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) r += fabs(((const double *)A->val)[k]);
        m = amax(m, r);
    }
    return m;
}

/* Aw's values = A's times (1 + amp u_k), u_k = urand_sym(seed, k), in Aw's precision */
static void set_values(const lcl_csr *A, lcl_csr *Aw, uint64_t seed, double amp) {
    const double *v = (const double *)A->val;
    int64_t k;
    for (k = 0; k < A->nnz; k++) {
        double a = amp ? v[k] * (1 + amp * urand_sym(seed, (uint64_t)k)) : v[k];
        if (Aw->dtype == LCL_F64) ((double *)Aw->val)[k] = a;
        else ((float *)Aw->val)[k] = (float)a;
    }
}

/* b (double) into bw (the working precision) and bw back into x */
static void rhs_load(klu_system *s) { sys_vecs_load(&s->v); }
static double rhs_residual(klu_system *s) {
    sys_vecs_take(&s->v);
    csr_matvec64(&s->A, s->v.x, s->v.ax);
    return backward_error_ax(s->v.ax, s->normA, s->v.x, s->v.b, s->v.n);
}

int load_square_coo(lcl_context *ctx, const char *src, uint64_t seed, lcl_coo *coo) {
    int code;
    if ((code = spmv_load(ctx, src, seed, LCL_F64, coo)) >= 0) return code;
    if (coo->rows != coo->cols || coo->rows == 0) {
        code = fail(EXIT_USAGE, "%s is %lld x %lld: solve needs a square, non-empty matrix", src, (long long)coo->rows, (long long)coo->cols);
        lcl_coo_free(coo);
        return code;
    }
    return -1;
}

/* MATRIX as a square system: -1, else the exit code (printed) */
static int klu_system_make(lcl_context *ctx, const char *src, uint64_t seed, lcl_dtype dt, klu_system *s) {
    lcl_coo coo;
    lcl_status st;
    int64_t n;
    int code;
    memset(s, 0, sizeof *s);
    if ((code = load_square_coo(ctx, src, seed, &coo)) >= 0) return code;
    if ((code = fits_coo(src, dt, &coo)) >= 0) { lcl_coo_free(&coo); return code; }
    st = lcl_csr_from_coo(ctx, &coo, &s->A);
    if (st == LCL_OK && dt == LCL_F64) st = lcl_csr_from_coo(ctx, &coo, &s->Aw);
    else if (st == LCL_OK) {
        lcl_coo cw;
        memset(&cw, 0, sizeof cw);
        if ((st = lcl_coo_copy(ctx, &coo, dt, &cw)) == LCL_OK) st = lcl_csr_from_coo(ctx, &cw, &s->Aw);
        lcl_coo_free(&cw);
    }
    lcl_coo_free(&coo);
    if (st != LCL_OK) {
        code = fail(exit_code(st), "%s", lcl_last_error(ctx));
        klu_system_free(s);
        return code;
    }
    n = s->A.rows;
    if (!sys_vecs_alloc(&s->v, n, dt, seed)) {
        klu_system_free(s);
        return fail(EXIT_NUMERIC, "out of memory (n = %lld)", (long long)n);
    }
    s->normA = csr_norm_inf64(&s->A);
    csr_matvec64(&s->A, s->v.xs, s->v.b);
    return -1;
}

/* A x = b for b in s->v.bw, in place: lcl_klu_solve on host arrays, or (vec) lcl_klu_solve_vec on a
   vector where the context computes, b written before the clock starts, x read after it stops
   (the solve timed to lcl_finish). reps > 0: *t is the median of reps solves after one warm-up,
   else the one solve's time. */
static lcl_status klu_solve_timed(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_klu_numeric *N, klu_system *s, int vec,
                                  long reps, double *t) {
    int64_t n = s->A.rows;
    double *tt = (double *)malloc((size_t)(reps + 1) * sizeof *tt), t0;
    lcl_vec *v = NULL;
    lcl_status st = LCL_OK;
    long r;
    if (!tt) return LCL_ERR_OUT_OF_MEMORY;
    rhs_load(s);
    if (vec) st = lcl_vec_create(ctx, s->Aw.dtype, n, s->v.bw, &v);
    for (r = 0; r <= reps && st == LCL_OK; r++) {
        if (r > 0) st = vec ? lcl_vec_write(ctx, v, s->v.bw) : (rhs_load(s), LCL_OK);
        if (st != LCL_OK) break;
        t0 = now_s();
        st = vec ? lcl_klu_solve_vec(ctx, S, N, LCL_NO_TRANS, v) : lcl_klu_solve(ctx, S, N, 1, s->v.bw, n);
        if (st == LCL_OK && vec) st = lcl_finish(ctx);
        tt[r] = now_s() - t0;
        if (!vec && r < reps) rhs_load(s);   /* the next solve's b; the last x stays */
    }
    if (st == LCL_OK && vec) st = lcl_vec_read(ctx, v, s->v.bw);
    *t = reps > 0 ? median(tt + 1, reps) : tt[0];
    lcl_vec_free(v);
    free(tt);
    return st;
}

/* the error of a failed phase, worded for the user: -1 when st is LCL_OK, else the exit code.
   Singular at analyze is structural (info->structural_rank); later, a zero pivot (singular_col). */
static int klu_failure(lcl_context *ctx, const char *src, const char *phase, lcl_status st, const lcl_klu_info *info) {
    if (st == LCL_OK) return -1;
    if (st == LCL_ERR_SINGULAR && (!strcmp(phase, "analyze") || info->singular_col < 0))
        return fail(EXIT_NUMERIC, "%s is structurally singular: structural rank %lld of %lld (%s)", src, (long long)info->structural_rank,
                    (long long)info->n, phase);
    if (st == LCL_ERR_SINGULAR)
        return fail(EXIT_NUMERIC, "%s is numerically singular: zero pivot in column %lld (%s)", src, (long long)info->singular_col, phase);
    return fail(exit_code(st), "%s: %s", phase, lcl_last_error(ctx));
}

const char *klu_ordering_name(const lcl_klu_opts *ko) {
    return ko->ordering == LCL_KLU_COLAMD ? "colamd" : ko->ordering == LCL_KLU_NATURAL ? "natural" : "amd";
}
const char *klu_scale_name(const lcl_klu_opts *ko) {
    return ko->scale == LCL_KLU_SCALE_NONE ? "none" : ko->scale == LCL_KLU_SCALE_SUM ? "sum" : "max";
}

/* lcl solve MATRIX --method klu [--ordering O] [--tol T] [--scale S] [--refactor K] [--vec] [--reps N]
   [-o FILE]: analyze, factor and solve A x = b; with K, K refactors of perturbed values (timed),
   then one of A's own values, solved and checked again: the residual is the larger of the two. */
int cmd_solve_klu(const opts *o) {
    const char *src = o->pos[0];
    lcl_context *ctx = NULL;
    lcl_klu_opts ko;
    lcl_klu_info ainfo, finfo, rinfo;
    lcl_klu_symbolic *S = NULL;
    lcl_klu_numeric *N = NULL;
    klu_system s;
    double t0, t_analyze = 0, t_factor = 0, t_solve = 0, t_refactor = 0, residual = 0, ferr = 0, *tref = NULL;
    long r, unstable = 0;
    int code, have_x = 0;
    lcl_status st = LCL_OK;
    char dev[128];
    memset(&s, 0, sizeof s);
    memset(&ainfo, 0, sizeof ainfo);
    memset(&finfo, 0, sizeof finfo);
    klu_opts_from(o, &ko);
    if ((code = make_context(o, &ctx)) >= 0) return code;
    if (lcl_context_backend(ctx) == LCL_BACKEND_OPENCL && (st = lcl_context_prepare(ctx, o->dtype)) != LCL_OK) {
        code = fail(exit_code(st), "%s", lcl_last_error(ctx));
        goto done;
    }
    spmv_device_name(ctx, dev, sizeof dev);
    if (!dev[0]) snprintf(dev, sizeof dev, "cpu");
    if ((code = klu_system_make(ctx, src, o->seed, o->dtype, &s)) >= 0) goto done;
    code = -1;
    t0 = now_s();
    st = lcl_klu_analyze(ctx, &s.Aw, &ko, &S, &ainfo);
    t_analyze = now_s() - t0;
    if ((code = klu_failure(ctx, src, "analyze", st, &ainfo)) >= 0) goto report;
    t0 = now_s();
    st = lcl_klu_factor(ctx, S, &s.Aw, &N, &finfo);
    t_factor = now_s() - t0;
    if ((code = klu_failure(ctx, src, "factor", st, &finfo)) >= 0) goto report;
    st = klu_solve_timed(ctx, S, N, &s, o->vec, o->reps, &t_solve);
    if ((code = klu_failure(ctx, src, "solve", st, &finfo)) >= 0) goto report;
    residual = rhs_residual(&s);
    ferr = forward_error(s.v.x, s.v.xs, s.A.rows);
    have_x = 1;
    if (o->out && (code = sys_vecs_write_x(ctx, &s.v, o->out)) >= 0) goto done;
    if (o->refactor > 0) {
        if (!(tref = (double *)malloc((size_t)o->refactor * sizeof *tref))) { code = fail(EXIT_NUMERIC, "out of memory"); goto done; }
        for (r = 0; r < o->refactor; r++) {
            set_values(&s.A, &s.Aw, o->seed + 1 + (uint64_t)r, KLU_PERTURB);
            t0 = now_s();
            st = lcl_klu_refactor(ctx, S, &s.Aw, N, &rinfo);
            tref[r] = now_s() - t0;
            if ((code = klu_failure(ctx, src, "refactor", st, &rinfo)) >= 0) goto report;
            unstable += rinfo.refactor_unstable != 0;
        }
        t_refactor = median(tref, o->refactor);
        /* A's own values again: the refactored factors must solve A x = b as well as the first */
        set_values(&s.A, &s.Aw, 0, 0);
        st = lcl_klu_refactor(ctx, S, &s.Aw, N, &rinfo);
        if (st == LCL_OK && rinfo.refactor_unstable) {
            lcl_klu_numeric_free(N);
            N = NULL;
            st = lcl_klu_factor(ctx, S, &s.Aw, &N, &rinfo);
        }
        if ((code = klu_failure(ctx, src, "refactor", st, &rinfo)) >= 0) goto report;
        if ((code = klu_failure(ctx, src, "solve", klu_solve_timed(ctx, S, N, &s, o->vec, 0, &t0), &rinfo)) >= 0) goto report;
        residual = amax(residual, rhs_residual(&s));
    }
report:
    if (o->json) {
        printf("{\"op\":\"solve\",\"method\":\"klu\",\"ordering\":\"%s\",\"scale\":\"%s\",\"tol\":", klu_ordering_name(&ko), klu_scale_name(&ko));
        json_double(stdout, ko.tol > 0 ? ko.tol : 1e-3, 1);
        printf(",\"backend\":\"%s\",\"device\":", lcl_backend_name(lcl_context_backend(ctx)));
        lclg_json_str(stdout, dev);
        printf(",\"precision\":\"%s\",\"n\":%lld,\"nrhs\":1,\"nnz\":%lld,\"residual\":", prec_name(o->dtype), (long long)s.A.rows,
               (long long)s.A.nnz);
        json_double(stdout, residual, have_x);
        printf(",\"forward_error\":");
        json_double(stdout, ferr, have_x);
        printf(",\"t_analyze\":");
        json_double(stdout, t_analyze, S != NULL);
        printf(",\"t_factor\":");
        json_double(stdout, t_factor, N != NULL);
        printf(",\"t_refactor\":");
        json_double(stdout, t_refactor, tref && have_x && code < 0);
        printf(",\"refactors\":%ld,\"refactor_unstable\":%ld,\"solve_vec\":%s,\"t_solve\":", o->refactor, unstable, o->vec ? "true" : "false");
        json_double(stdout, t_solve, have_x);
        printf(",\"nnz_lu\":%lld,\"nnz_l\":%lld,\"nnz_u\":%lld,\"blocks\":%lld,\"max_block\":%lld,\"structural_rank\":%lld,\"rcond\":",
               (long long)(finfo.nnz_l + finfo.nnz_u), (long long)finfo.nnz_l, (long long)finfo.nnz_u, (long long)ainfo.blocks,
               (long long)ainfo.max_block, (long long)ainfo.structural_rank);
        json_double(stdout, finfo.rcond, N != NULL);
        printf(",\"growth\":");
        json_double(stdout, finfo.growth, N != NULL);
        printf(",\"off_diag_pivots\":%lld,\"status\":", (long long)finfo.off_diag_pivots);
        lclg_json_str(stdout, lcl_status_string(st));
        printf("}\n");
        fflush(stdout);
    } else {
        printf("solve %s\n", src);
        printf("  matrix      %lld x %lld, %lld nonzeros; b = A x* for a random x* (seed %llu)\n", (long long)s.A.rows,
               (long long)s.A.rows, (long long)s.A.nnz, (unsigned long long)o->seed);
        printf("  method      sparse LU (KLU class): ordering %s, scaling %s, pivot tolerance %g\n", klu_ordering_name(&ko), klu_scale_name(&ko),
               ko.tol > 0 ? ko.tol : 1e-3);
        printf("  backend     %s on %s, %s precision\n", lcl_backend_name(lcl_context_backend(ctx)), dev, prec_name(o->dtype));
        if (S) printf("  analyze     %.6f s: %lld diagonal blocks, the largest %lld\n", t_analyze, (long long)ainfo.blocks,
                      (long long)ainfo.max_block);
        if (N) printf("  factor      %.6f s: nnz(L+U) %lld, rcond %.2e, pivot growth %.2e, %lld off-diagonal pivots\n", t_factor,
                      (long long)(finfo.nnz_l + finfo.nnz_u), finfo.rcond, finfo.growth, (long long)finfo.off_diag_pivots);
        if (tref && have_x && code < 0)
            printf("  refactor    %.6f s (median of %ld, values perturbed by %g; %ld flagged unstable)\n", t_refactor, o->refactor,
                   KLU_PERTURB, unstable);
        if (have_x) {
            printf("  solve       %.6f s%s%s\n", t_solve, o->vec ? " (device vector, lcl_klu_solve_vec)" : "",
                   o->reps > 0 ? " (median)" : "");
            sys_vecs_report(residual, ferr, o->out);
        }
        printf("  status      %s\n", lcl_status_string(st));
    }
    if (code < 0 && have_x) code = residual_exit(o, residual);
    if (code < 0) code = EXIT_OK;
done:
    free(tref);
    lcl_klu_numeric_free(N);
    lcl_klu_symbolic_free(S);
    klu_system_free(&s);
    lcl_context_destroy(ctx);
    return code;
}

/* ---- bench klu ---- */
int check_bench_klu(const opts *o) {
    if (o->dtype != LCL_F64) return fail(EXIT_USAGE, "bench klu compares double precision (SuiteSparse KLU has no single)");
    return -1;
}

typedef struct klu_phases {     /* one solver on one matrix */
    double t[4];                /* analyze, factor, refactor, solve: medians, seconds */
    int64_t nnz_lu, blocks;
    double residual;
    int ok;                     /* ran, and the residual within 1e-12 */
    char msg[256];              /* why not */
} klu_phases;
static const char *const phase_names[4] = {"analyze", "factor", "refactor", "solve"};

/* reps of each phase (after one warm-up): analyze and factor from scratch each time, refactor of
   perturbed values, solve of b = A x*; then a refactor of A's own values, solved and checked */
static void bench_ours(lcl_context *ctx, klu_system *s, const lcl_klu_opts *ko, long reps, uint64_t seed, klu_phases *p) {
    lcl_klu_symbolic *S = NULL;
    lcl_klu_numeric *N = NULL;
    lcl_klu_info info;
    double *t = (double *)malloc((size_t)(reps + 1) * sizeof *t), t0;
    lcl_status st = LCL_OK;
    long r;
    int ph;
    const char *phase = "";
    memset(&info, 0, sizeof info);
    if (!t) { snprintf(p->msg, sizeof p->msg, "out of memory"); return; }
    for (ph = 0; ph < 4 && st == LCL_OK; ph++) {
        phase = phase_names[ph];
        for (r = 0; r <= reps && st == LCL_OK; r++) {
            if (ph == 0) { lcl_klu_symbolic_free(S); S = NULL; }
            if (ph == 1) { lcl_klu_numeric_free(N); N = NULL; }
            if (ph == 2) set_values(&s->A, &s->Aw, seed + 1 + (uint64_t)r, KLU_PERTURB);
            if (ph == 3) rhs_load(s);
            t0 = now_s();
            st = ph == 0 ? lcl_klu_analyze(ctx, &s->Aw, ko, &S, &info)
               : ph == 1 ? lcl_klu_factor(ctx, S, &s->Aw, &N, &info)
               : ph == 2 ? lcl_klu_refactor(ctx, S, &s->Aw, N, &info)
                         : lcl_klu_solve(ctx, S, N, 1, s->v.bw, s->A.rows);
            if (r > 0) t[r - 1] = now_s() - t0;
        }
        if (st != LCL_OK) break;
        p->t[ph] = median(t, reps);
        if (ph == 0) p->blocks = info.blocks;
        if (ph == 1) p->nnz_lu = info.nnz_l + info.nnz_u;
        if (ph == 2) {      /* back to A's values for the solve */
            set_values(&s->A, &s->Aw, 0, 0);
            phase = "refactor";
            if ((st = lcl_klu_refactor(ctx, S, &s->Aw, N, &info)) == LCL_OK && info.refactor_unstable) {
                lcl_klu_numeric_free(N);
                N = NULL;
                st = lcl_klu_factor(ctx, S, &s->Aw, &N, &info);
            }
        }
    }
    if (st == LCL_OK) {
        p->residual = rhs_residual(s);
        p->ok = p->residual <= 1e-12;
        if (!p->ok) snprintf(p->msg, sizeof p->msg, "residual %.2e above 1e-12", p->residual);
    } else {
        snprintf(p->msg, sizeof p->msg, "%s: %s", phase, lcl_last_error(ctx));
    }
    set_values(&s->A, &s->Aw, 0, 0);
    lcl_klu_numeric_free(N);
    lcl_klu_symbolic_free(S);
    free(t);
}

#ifdef LCL_BENCH_KLU
/* KLU takes compressed columns: the CSC of A (the CSR of A^T), int indices; pos[d]: the CSR entry
   of CSC entry d, so that both solvers see the same perturbed values */
static int csc_of(const lcl_csr *A, int **Ap, int **Ai, double **Ax, int64_t **pos) {
    int64_t n = A->rows, i, k;
    const double *v = (const double *)A->val;
    int *next;
    *Ap = (int *)calloc((size_t)n + 1, sizeof(int));
    *Ai = (int *)malloc((size_t)A->nnz * sizeof(int) + 1);
    *Ax = (double *)malloc((size_t)A->nnz * sizeof(double) + 1);
    *pos = (int64_t *)malloc((size_t)A->nnz * sizeof(int64_t) + 1);
    next = (int *)malloc((size_t)n * sizeof(int) + 1);
    if (!*Ap || !*Ai || !*Ax || !*pos || !next || A->nnz > 2147483647) { free(next); return 0; }
    for (k = 0; k < A->nnz; k++) (*Ap)[A->col[k] + 1]++;
    for (i = 0; i < n; i++) (*Ap)[i + 1] += (*Ap)[i];
    memcpy(next, *Ap, (size_t)n * sizeof(int));
    for (i = 0; i < n; i++)
        for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) {
            int d = next[A->col[k]]++;
            (*Ai)[d] = (int)i;
            (*Ax)[d] = v[k];
            (*pos)[d] = k;
        }
    free(next);
    return 1;
}

/* SuiteSparse KLU on the same A, options and right-hand side, timed as bench_ours */
static void bench_ref(klu_system *s, const lcl_klu_opts *ko, long reps, uint64_t seed, klu_phases *p) {
    int *Ap = NULL, *Ai = NULL, n = (int)s->A.rows, ph, ok = 1;
    int64_t *pos = NULL;
    double *Ax = NULL, *Av = NULL, *t = (double *)malloc((size_t)(reps + 1) * sizeof *t);
    klu_common c;
    klu_symbolic *Sym = NULL;
    klu_numeric *Num = NULL;
    long r;
    int64_t k;
    if (!t || !csc_of(&s->A, &Ap, &Ai, &Ax, &pos) || !(Av = (double *)malloc((size_t)s->A.nnz * sizeof(double) + 1))) {
        snprintf(p->msg, sizeof p->msg, "out of memory");
        goto done;
    }
    klu_defaults(&c);
    c.ordering = ko->ordering == LCL_KLU_COLAMD ? 1 : 0;
    c.scale = ko->scale == LCL_KLU_SCALE_NONE ? 0 : ko->scale == LCL_KLU_SCALE_SUM ? 1 : 2;
    if (ko->tol > 0) c.tol = ko->tol;
    for (ph = 0; ph < 4 && ok; ph++) {
        for (r = 0; r <= reps && ok; r++) {
            double t0;
            if (ph == 0 && Sym) klu_free_symbolic(&Sym, &c);
            if (ph == 1 && Num) klu_free_numeric(&Num, &c);
            if (ph == 2)    /* the values bench_ours refactors with */
                for (k = 0; k < s->A.nnz; k++) Av[k] = Ax[k] * (1 + KLU_PERTURB * urand_sym(seed + 1 + (uint64_t)r, (uint64_t)pos[k]));
            if (ph == 3) memcpy(s->v.x, s->v.b, (size_t)n * sizeof(double));
            t0 = now_s();
            if (ph == 0) ok = (Sym = ko->ordering == LCL_KLU_NATURAL ? klu_analyze_given(n, Ap, Ai, NULL, NULL, &c)
                                                                       : klu_analyze(n, Ap, Ai, &c)) != NULL;
            else if (ph == 1) ok = (Num = klu_factor(Ap, Ai, Ax, Sym, &c)) != NULL;
            else if (ph == 2) ok = klu_refactor(Ap, Ai, Av, Sym, Num, &c);
            else ok = klu_solve(Sym, Num, n, 1, s->v.x, &c);
            if (r > 0) t[r - 1] = now_s() - t0;
        }
        if (!ok) {
            snprintf(p->msg, sizeof p->msg, "klu_%s: status %d", phase_names[ph], c.status);
            goto done;
        }
        p->t[ph] = median(t, reps);
        if (ph == 0) p->blocks = Sym->nblocks;
        if (ph == 1) p->nnz_lu = Num->lnz + Num->unz;
        if (ph == 2 && !klu_refactor(Ap, Ai, Ax, Sym, Num, &c)) {
            snprintf(p->msg, sizeof p->msg, "klu_refactor: status %d", c.status);
            goto done;
        }
    }
    csr_matvec64(&s->A, s->v.x, s->v.ax);
    p->residual = backward_error_ax(s->v.ax, s->normA, s->v.x, s->v.b, n);
    p->ok = p->residual <= 1e-12;
    if (!p->ok) snprintf(p->msg, sizeof p->msg, "residual %.2e above 1e-12", p->residual);
done:
    if (Num) klu_free_numeric(&Num, &c);
    if (Sym) klu_free_symbolic(&Sym, &c);
    free(Ap);
    free(Ai);
    free(Ax);
    free(Av);
    free(pos);
    free(t);
}
#endif

#ifdef LCL_BENCH_KLU
#define KLU_REF 1
#else
#define KLU_REF 0
#endif

typedef struct klu_bench_row {
    char label[128];
    int64_t n, nnz;
    klu_phases ours, ref;
} klu_bench_row;

/* ours / KLU's, 0 when either is missing */
static double klu_ratio(double ours, double ref) { return ours > 0 && ref > 0 ? ours / ref : 0; }
static void ms_cell(char *buf, size_t cap, double t) {
    if (t >= 0.1) snprintf(buf, cap, "%.0f", t * 1e3);
    else if (t >= 0.001) snprintf(buf, cap, "%.2f", t * 1e3);
    else snprintf(buf, cap, "%.3g", t * 1e3);
}

/* with KLU: ours / KLU's per phase and the fill; without: our times (ms). 0 when not written */
static int klu_svg(const char *path, klu_bench_row *rows, int ng) {
    int nser = KLU_REF ? 5 : 4, okw, i, ph;
    char **gl = (char **)calloc((size_t)ng + 1, sizeof(char *));
    double *val = (double *)calloc((size_t)(ng * nser) + 1, sizeof(double));
    char *sl[5] = {(char *)"analyze", (char *)"factor", (char *)"refactor", (char *)"solve", (char *)"nnz(L+U)"};
    if (!gl || !val) okw = 0;
    else {
        for (i = 0; i < ng; i++) {
            const klu_bench_row *r = &rows[i];
            gl[i] = rows[i].label;
            for (ph = 0; ph < nser; ph++)
                val[i * nser + ph] = !r->ours.ok ? 0 : !KLU_REF ? 1e3 * r->ours.t[ph]
                                   : !r->ref.ok ? 0 : klu_ratio(ph < 4 ? r->ours.t[ph] : (double)r->ours.nnz_lu,
                                                                ph < 4 ? r->ref.t[ph] : (double)r->ref.nnz_lu);
        }
        okw = write_svg_bars(path, KLU_REF ? "Sparse LU: ours / SuiteSparse KLU per phase (< 1: ours faster or less fill)"
                                           : "Sparse LU: milliseconds per phase",
                             KLU_REF ? "ours / KLU" : "ms", gl, ng, sl, nser, val);
    }
    free(gl);
    free(val);
    return okw;
}

/* lcl bench klu [MATRIX...] [--ordering O] [--tol T] [--scale S] [--reps N] [--csv F] [--svg F] */
int cmd_bench_klu(const opts *o) {
    lcl_context *ctx = NULL;
    opts oc = *o;
    lcl_klu_opts ko;
    char **mats = NULL, dev[128];
    klu_bench_row *rows = NULL;
    long reps = o->reps > 0 ? o->reps : KLU_BENCH_REPS;
    int code, m, i, ph, failures = 0;
    lcl_status st;
    klu_opts_from(o, &ko);
    if (!o->backend_set && !o->device) {   /* the comparison is serial unless asked otherwise */
        oc.backend = LCL_BACKEND_SERIAL;
        oc.backend_set = 1;
    }
    if ((code = make_context(&oc, &ctx)) >= 0) return code;
    spmv_device_name(ctx, dev, sizeof dev);
    for (i = 1; i < (int)arrlen(o->pos); i++) add_string(&mats, o->pos[i]);
    if (arrlen(o->pos) < 2) {
        add_string(&mats, "gen:circuit:10000");
        add_string(&mats, "gen:circuit:100000");
        if (!mtx_files("tests/data/matrices", &mats))
            fprintf(stderr, "bench: tests/data/matrices: %s (run from the repository root)\n", strerror(errno));
    }
    if (!KLU_REF) fprintf(stderr, "bench: ours only; SuiteSparse KLU's columns come with 'make bench-klu' (build/lcl-bench)\n");
    /* the files given, checked before any is timed: a bad one late in the list lost the rows before it */
    for (m = 0; arrlen(o->pos) >= 2 && m < (int)arrlen(mats); m++) {
        lcl_mm_info mi;
        if (!strncmp(mats[m], "gen:", 4)) continue;
        if ((st = lcl_mm_read_info(ctx, mats[m], &mi)) != LCL_OK) { code = fail(exit_code(st), "%s", lcl_last_error(ctx)); goto done; }
        if (mi.rows != mi.cols) {
            code = fail(EXIT_USAGE, "%s is %lld x %lld: the sparse LU needs a square matrix", mats[m], (long long)mi.rows, (long long)mi.cols);
            goto done;
        }
    }
    for (m = 0; m < (int)arrlen(mats); m++) {
        klu_bench_row row;
        klu_system s;
        lcl_mm_info mi;
        int given = arrlen(o->pos) >= 2;
        memset(&row, 0, sizeof row);
        /* the defaults from tests/data/matrices: the square real ones only */
        if (!given && strncmp(mats[m], "gen:", 4) &&
            (lcl_mm_read_info(ctx, mats[m], &mi) != LCL_OK || mi.rows != mi.cols || mi.field == LCL_MM_COMPLEX || mi.field == LCL_MM_PATTERN))
            continue;
        if ((code = klu_system_make(ctx, mats[m], o->seed, LCL_F64, &s)) >= 0) goto done;
        code = -1;
        matrix_label(mats[m], row.label, sizeof row.label);
        row.n = s.A.rows;
        row.nnz = s.A.nnz;
        fprintf(stderr, "bench: %s: n = %lld, %lld nonzeros\n", row.label, (long long)row.n, (long long)row.nnz);
        bench_ours(ctx, &s, &ko, reps, o->seed, &row.ours);
#ifdef LCL_BENCH_KLU
        bench_ref(&s, &ko, reps, o->seed, &row.ref);
#endif
        klu_system_free(&s);
        failures += !row.ours.ok;
        if (!row.ours.ok) fprintf(stderr, "bench: %s: FAIL: %s\n", row.label, row.ours.msg);
        if (KLU_REF && !row.ref.ok) fprintf(stderr, "bench: %s: KLU: %s\n", row.label, row.ref.msg);
        if (o->json) {
            printf("{\"op\":\"bench\",\"suite\":\"klu\",\"matrix\":");
            lclg_json_str(stdout, row.label);
            printf(",\"n\":%lld,\"nnz\":%lld,\"backend\":\"%s\",\"reps\":%ld,\"ordering\":\"%s\"", (long long)row.n, (long long)row.nnz,
                   lcl_backend_name(lcl_context_backend(ctx)), reps, klu_ordering_name(&ko));
            for (ph = 0; ph < 4; ph++) {
                printf(",\"t_%s\":", phase_names[ph]);
                json_double(stdout, row.ours.t[ph], row.ours.ok);
                if (KLU_REF) {
                    printf(",\"klu_t_%s\":", phase_names[ph]);
                    json_double(stdout, row.ref.t[ph], row.ref.ok);
                    printf(",\"ratio_%s\":", phase_names[ph]);
                    json_double(stdout, klu_ratio(row.ours.t[ph], row.ref.t[ph]), row.ours.ok && row.ref.ok);
                }
            }
            printf(",\"nnz_lu\":%lld,\"blocks\":%lld,\"residual\":", (long long)row.ours.nnz_lu, (long long)row.ours.blocks);
            json_double(stdout, row.ours.residual, row.ours.ok);
            if (KLU_REF) {
                printf(",\"klu_nnz_lu\":%lld,\"klu_blocks\":%lld,\"fill_ratio\":", (long long)row.ref.nnz_lu, (long long)row.ref.blocks);
                json_double(stdout, klu_ratio((double)row.ours.nnz_lu, (double)row.ref.nnz_lu), row.ours.ok && row.ref.ok);
                printf(",\"klu_residual\":");
                json_double(stdout, row.ref.residual, row.ref.ok);
            }
            printf(",\"check\":\"%s\"}\n", row.ours.ok ? "ok" : "FAIL");
            fflush(stdout);
        }
        arrput(rows, row);
    }
    if (!o->json) {
        printf("Sparse LU (KLU class), %s backend%s%s: milliseconds, the median of %ld runs after one warm-up; refactor: values "
               "perturbed by up to %g; every solve checked (residual <= 1e-12); ordering %s.%s\n\n",
               lcl_backend_name(lcl_context_backend(ctx)), dev[0] ? " on " : "", dev, reps, KLU_PERTURB, klu_ordering_name(&ko),
               KLU_REF ? " Cells: ours / SuiteSparse KLU's = ratio (< 1: ours is faster, or fills less)."
                       : " SuiteSparse KLU's columns: make bench-klu.");
        printf("| matrix | n | nnz | blocks | analyze | factor | refactor | solve | nnz(L+U) | residual |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (i = 0; i < (int)arrlen(rows); i++) {
            const klu_bench_row *r = &rows[i];
            printf("| %s | %lld | %lld | %lld |", r->label, (long long)r->n, (long long)r->nnz, (long long)r->ours.blocks);
            for (ph = 0; ph < 5; ph++) {
                char a[32], b[32];
                double ours = ph < 4 ? r->ours.t[ph] : (double)r->ours.nnz_lu, ref = ph < 4 ? r->ref.t[ph] : (double)r->ref.nnz_lu;
                if (ph < 4) { ms_cell(a, sizeof a, ours); ms_cell(b, sizeof b, ref); }
                else { snprintf(a, sizeof a, "%.0f", ours); snprintf(b, sizeof b, "%.0f", ref); }
                if (!r->ours.ok) printf(" - |");
                else if (KLU_REF && r->ref.ok) printf(" %s / %s = %.2fx |", a, b, klu_ratio(ours, ref));
                else printf(" %s |", a);
            }
            if (r->ours.ok) printf(" %.1e |\n", r->ours.residual);
            else printf(" FAIL: %s |\n", r->ours.msg);
        }
    }
    if (o->csv) {
        FILE *fo = fopen(o->csv, "w");
        if (!fo) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
        fprintf(fo, "matrix,n,nnz,backend,reps,ordering,t_analyze,t_factor,t_refactor,t_solve,nnz_lu,blocks,residual,klu_t_analyze,"
                    "klu_t_factor,klu_t_refactor,klu_t_solve,klu_nnz_lu,klu_blocks,klu_residual,ratio_analyze,ratio_factor,"
                    "ratio_refactor,ratio_solve,fill_ratio,check,message\n");
        for (i = 0; i < (int)arrlen(rows); i++) {
            const klu_bench_row *r = &rows[i];
            const klu_phases *p[2] = {&r->ours, &r->ref};
            int w;
            csv_field(fo, r->label);
            fprintf(fo, ",%lld,%lld,%s,%ld,%s", (long long)r->n, (long long)r->nnz, lcl_backend_name(lcl_context_backend(ctx)), reps,
                    klu_ordering_name(&ko));
            for (w = 0; w < 2; w++) {
                if (p[w]->ok) fprintf(fo, ",%.9g,%.9g,%.9g,%.9g,%lld,%lld,%.3g", p[w]->t[0], p[w]->t[1], p[w]->t[2], p[w]->t[3],
                                      (long long)p[w]->nnz_lu, (long long)p[w]->blocks, p[w]->residual);
                else fprintf(fo, ",,,,,,,");
            }
            for (ph = 0; ph < 5; ph++) {
                double v = r->ours.ok && r->ref.ok ? klu_ratio(ph < 4 ? r->ours.t[ph] : (double)r->ours.nnz_lu,
                                                               ph < 4 ? r->ref.t[ph] : (double)r->ref.nnz_lu) : 0;
                if (v > 0) fprintf(fo, ",%.4f", v);
                else fputc(',', fo);
            }
            fprintf(fo, ",%s,", r->ours.ok ? "ok" : "FAIL");
            csv_field(fo, r->ours.ok ? r->ref.msg : r->ours.msg);
            fputc('\n', fo);
        }
        if (fclose(fo) != 0) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
    }
    if (o->svg && !klu_svg(o->svg, rows, (int)arrlen(rows))) {
        code = fail(EXIT_USAGE, "cannot write %s: %s", o->svg, strerror(errno));
        goto done;
    }
    code = failures ? EXIT_NUMERIC : EXIT_OK;
done:
    arrfree(rows);
    free_strings(&mats);
    lcl_context_destroy(ctx);
    return code;
}
