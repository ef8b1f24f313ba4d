/* bklu.c -- lcl solve MATRIX --method bklu (block sparse LU of J (x) B: analyze, factor, refactor,
   solve) and lcl bench bklu (the 2016 thesis's Table 6.2: refactor times on the OpenMP CPU and on
   1, 2 and all OpenCL devices, S1 and S2).

   The matrix comes from the generator's block form (lclg_hb_*: J and B, never the expanded COO),
   and every solve is checked in double against the generator's own product (J (x) B) x, not the
   library's lcl_bmat_mv. With --as-blocks M, MATRIX is read as it is and cut into M x M blocks
   (lcl_bmat_from_csr); its solves are checked against the scalar matrix in double. */
#include "lcl.h"
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BKLU_BENCH_REPS 3

int bklu_schedule_parse(const char *s) {
    return !strcmp(s, "default") ? LCL_BKLU_SCHEDULE_DEFAULT : !strcmp(s, "static") ? LCL_BKLU_STATIC
         : !strcmp(s, "affinity") ? LCL_BKLU_AFFINITY : !strcmp(s, "dynamic") ? LCL_BKLU_DYNAMIC : -1;
}
static const char *schedule_name(lcl_bklu_schedule s) {
    return s == LCL_BKLU_STATIC ? "static" : s == LCL_BKLU_AFFINITY ? "affinity" : s == LCL_BKLU_DYNAMIC ? "dynamic" : "default";
}

/* digits, an optional fraction, an optional K|M|G|T (powers of 1024) and an optional B */
int parse_bytes(const char *s, int64_t *out) {
    const char *p = s;
    double v, mul = 1;
    char num[64];
    while (*p >= '0' && *p <= '9') p++;
    if (p == s) return 0;
    if (*p == '.') {
        const char *f = ++p;
        while (*p >= '0' && *p <= '9') p++;
        if (p == f) return 0;
    }
    if ((size_t)(p - s) >= sizeof num) return 0;
    memcpy(num, s, (size_t)(p - s));
    num[p - s] = 0;
    switch (*p) {
    case 'k': case 'K': mul = 1024.0; p++; break;
    case 'm': case 'M': mul = 1024.0 * 1024.0; p++; break;
    case 'g': case 'G': mul = 1024.0 * 1024.0 * 1024.0; p++; break;
    case 't': case 'T': mul = 1024.0 * 1024.0 * 1024.0 * 1024.0; p++; break;
    default: break;
    }
    if (*p == 'B') p++;
    if (*p) return 0;
    v = strtod(num, NULL) * mul;
    if (!(v >= 1 && v < 9.0e18)) return 0;
    *out = (int64_t)v;
    return 1;
}

/* the library's options from the command line; devices 0: all of the context's */
static void bklu_opts_from(const opts *o, lcl_bklu_opts *bo) {
    memset(bo, 0, sizeof *bo);
    klu_opts_from(o, &bo->klu);
    bo->nopivot = o->nopivot;
    bo->schedule = o->schedule ? (lcl_bklu_schedule)bklu_schedule_parse(o->schedule) : LCL_BKLU_SCHEDULE_DEFAULT;
    bo->mem_limit = o->mem_limit;
}

/* One test system: J and B (the check's matrix, in double), A = J (x) B in the working precision
   (what is factored), x* from urand_sym(seed, i), b = (J (x) B) x* in double. */
typedef struct bklu_system {
    lclg_hb h;
    lcl_csr csr;                /* --as-blocks: MATRIX in double (the checks), h unused */
    void *orig;                 /* --as-blocks: A's values as cut, for refactors' perturbations */
    lcl_bmat A;
    int64_t nm;                 /* unknowns: n * M */
    double normA;
    double *scale;              /* nnzb: the perturbation of each block, for refactors (J (x) B only) */
    sys_vecs v;
    lcl_context *pin;           /* A.val is this context's lcl_host_alloc memory */
} bklu_system;

static void bklu_system_free(bklu_system *s) {
    if (s->pin) {
        lcl_host_free(s->pin, s->A.val);
        s->A.val = NULL;
    }
    lclg_bmat_free(&s->A);
    lclg_hb_free(&s->h);
    lcl_csr_free(&s->csr);
    free(s->orig);
    free(s->scale);
    sys_vecs_free(&s->v);
    memset(s, 0, sizeof *s);
}

/* src expanded by M (expand), or src = gen:hb:BASE:M as it is: -1, else the exit code (printed) */
static int bklu_system_make(lcl_context *ctx, const char *src, int64_t m, int expand, uint64_t seed, lcl_dtype dt, bklu_system *s) {
    char err[1024] = "";
    lcl_status st;
    memset(s, 0, sizeof *s);
    st = expand ? lclg_hb_open(ctx, src, m, seed, &s->h, err, sizeof err) : lclg_hb_open_spec(ctx, src, seed, &s->h, err, sizeof err);
    if (st == LCL_OK && dt == LCL_F32) {   /* each block is J(i,j) B: one beyond float's range is bad input, named */
        const double *jv = (const double *)s->h.base.val;
        double bmax = 0;
        int64_t k, mm = s->h.m * s->h.m;
        for (k = 0; k < mm; k++) bmax = fabs(s->h.B[k]) > bmax ? fabs(s->h.B[k]) : bmax;
        for (k = 0; k < s->h.base.nnz; k++)
            if (fabs(jv[k]) * bmax > FLT_MAX) {
                int code = fail(EXIT_USAGE, "%s: block (%lld,%lld) = %g B reaches %g, beyond single precision range (%g): use --precision double",
                                src, (long long)s->h.base.row[k] + 1, (long long)s->h.base.col[k] + 1, jv[k], fabs(jv[k]) * bmax, (double)FLT_MAX);
                bklu_system_free(s);
                return code;
            }
    }
    if (st == LCL_OK) st = lclg_hb_bmat(&s->h, dt, &s->A, err, sizeof err);
    if (st != LCL_OK) {
        bklu_system_free(s);
        return fail(exit_code(st), "%s", err[0] ? err : lcl_status_string(st));
    }
    s->nm = s->A.n * s->A.m;
    s->scale = (double *)malloc((size_t)s->A.nnzb * sizeof(double) + 1);
    if (!s->scale || !sys_vecs_alloc(&s->v, s->nm, dt, seed) || lclg_hb_mv(&s->h, s->v.xs, s->v.b) != LCL_OK) {
        long long n = (long long)s->nm;
        bklu_system_free(s);
        return fail(EXIT_NUMERIC, "out of memory (n = %lld)", n);
    }
    s->normA = lclg_hb_norm_inf(&s->h);
    return -1;
}

/* --as-blocks m: src read as a scalar matrix and cut into m x m blocks (the values in dt), b from
   its double copy: -1, else the exit code (printed) */
static int bklu_system_cut(lcl_context *ctx, const char *src, int64_t m, uint64_t seed, lcl_dtype dt, bklu_system *s) {
    lcl_coo coo, cw;
    lcl_csr w;
    lcl_status st;
    size_t bytes;
    int code;
    memset(s, 0, sizeof *s);
    memset(&w, 0, sizeof w);
    memset(&cw, 0, sizeof cw);
    if ((code = load_square_coo(ctx, src, seed, &coo)) >= 0) return code;
    if ((code = fits_coo(src, dt, &coo)) >= 0) { lcl_coo_free(&coo); return code; }
    st = lcl_csr_from_coo(ctx, &coo, &s->csr);
    if (st == LCL_OK && dt == LCL_F64) st = lcl_bmat_from_csr(ctx, &s->csr, m, &s->A);
    else if (st == LCL_OK && (st = lcl_coo_copy(ctx, &coo, dt, &cw)) == LCL_OK && (st = lcl_csr_from_coo(ctx, &cw, &w)) == LCL_OK)
        st = lcl_bmat_from_csr(ctx, &w, m, &s->A);
    lcl_coo_free(&coo);
    lcl_coo_free(&cw);
    lcl_csr_free(&w);
    if (st != LCL_OK) {
        code = fail(exit_code(st), "%s: %s", src, lcl_last_error(ctx));
        bklu_system_free(s);
        return code;
    }
    s->nm = s->A.n * s->A.m;
    bytes = (size_t)s->A.nnzb * (size_t)(m * m) * (dt == LCL_F32 ? sizeof(float) : sizeof(double));
    s->orig = malloc(bytes + 1);
    if (!s->orig || !sys_vecs_alloc(&s->v, s->nm, dt, seed)) {
        long long n = (long long)s->nm;
        bklu_system_free(s);
        return fail(EXIT_NUMERIC, "out of memory (n = %lld)", n);
    }
    memcpy(s->orig, s->A.val, bytes);
    s->normA = csr_norm_inf64(&s->csr);
    csr_matvec64(&s->csr, s->v.xs, s->v.b);
    return -1;
}

/* A's values into ctx's pinned memory (lcl_host_alloc), as a user who refactors on OpenCL devices
   would keep them: the devices read them with no host copy. From malloc'd values the host copies
   each refactor's A through a staging ring, and on two H200s that copy was the whole time (gen:
   circuit:1000, M = 256: 124 ms on two, 127 on one; 74 and 108 from pinned memory). Not pinned
   (the device refused, or --pageable): A stays where it is. */
static void bklu_system_pin(lcl_context *ctx, const opts *o, bklu_system *s) {
    size_t bytes = (size_t)s->A.nnzb * (size_t)(s->A.m * s->A.m) * (s->A.dtype == LCL_F32 ? sizeof(float) : sizeof(double));
    void *p = NULL;
    if (o->pageable || !ctx || lcl_context_backend(ctx) != LCL_BACKEND_OPENCL || !bytes) return;
    if (lcl_host_alloc(ctx, bytes, &p) != LCL_OK) return;
    memcpy(p, s->A.val, bytes);
    free(s->A.val);
    s->A.val = p;
    s->pin = ctx;
}

/* A's values: each block's scalar times (1 + amp u_e), u_e = urand_sym(seed, e); amp 0: A's own */
static void bklu_set_values(bklu_system *s, uint64_t seed, double amp) {
    int64_t e, mm = s->A.m * s->A.m, q;
    if (s->orig) {  /* --as-blocks: each block's values as cut, times its factor */
        for (e = 0; e < s->A.nnzb; e++) {
            double f = amp ? 1 + amp * urand_sym(seed, (uint64_t)e) : 1;
            for (q = e * mm; q < (e + 1) * mm; q++)
                if (s->A.dtype == LCL_F32) ((float *)s->A.val)[q] = (float)(((const float *)s->orig)[q] * f);
                else ((double *)s->A.val)[q] = ((const double *)s->orig)[q] * f;
        }
        return;
    }
    if (amp == 0) { lclg_hb_fill(&s->h, &s->A, NULL); return; }
    for (e = 0; e < s->A.nnzb; e++) s->scale[e] = 1 + amp * urand_sym(seed, (uint64_t)e);
    lclg_hb_fill(&s->h, &s->A, s->scale);
}

/* |b - A x| / (|A| |x| + |b|) of x = bw, A in double from J and B */
static double bklu_residual(bklu_system *s) {
    sys_vecs_take(&s->v);
    if (s->orig) csr_matvec64(&s->csr, s->v.x, s->v.ax);
    else if (lclg_hb_mv(&s->h, s->v.x, s->v.ax) != LCL_OK) return HUGE_VAL;
    return backward_error_ax(s->v.ax, s->normA, s->v.x, s->v.b, s->nm);
}

/* A x = b in place in bw; reps > 0: *t the median of reps solves after one warm-up, else one */
static lcl_status bklu_solve_timed(lcl_context *ctx, const lcl_bklu_symbolic *S, const lcl_bklu_numeric *N, bklu_system *s, long reps,
                                   double *t) {
    double *tt = (double *)malloc((size_t)(reps + 1) * sizeof *tt), t0;
    lcl_status st = LCL_OK;
    long r;
    if (!tt) return LCL_ERR_OUT_OF_MEMORY;
    for (r = 0; r <= reps && st == LCL_OK; r++) {
        sys_vecs_load(&s->v);
        t0 = now_s();
        st = lcl_bklu_solve(ctx, S, N, 1, s->v.bw, s->nm);
        tt[r] = now_s() - t0;
    }
    *t = reps > 0 ? median(tt + 1, reps) : tt[0];
    free(tt);
    return st;
}

/* where the factorization runs: "cpu", the device, or "K devices: name, name, ..." */
static void bklu_device_name(lcl_context *ctx, char *buf, size_t cap) {
    int nd = lcl_context_backend(ctx) == LCL_BACKEND_OPENCL ? lcl_context_num_devices(ctx) : 0, d;
    size_t len = 0;
    snprintf(buf, cap, "cpu");
    if (nd > 1) len = (size_t)snprintf(buf, cap, "%d devices: ", nd);
    for (d = 0; d < nd && len < cap; d++) {
        lcl_device_info di;
        if (lcl_context_device(ctx, d, &di) != LCL_OK) continue;
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", d ? ", " : "", di.name);
    }
}

/* --block against MATRIX: a base needs M; a gen:hb spec carries it */
int check_solve_bklu(const opts *o) {
    int64_t m;
    int code = check_solve(o);
    if (code >= 0) return code;
    if (o->as_blocks) {
        if (o->block) return fail(EXIT_USAGE, "--as-blocks and --block exclude each other: --as-blocks M cuts MATRIX itself into blocks, "
                                  "--block M makes each of its nonzeros a block");
        if (lclg_hb_spec(o->pos[0], &m)) return fail(EXIT_USAGE, "--as-blocks takes a scalar matrix, not the block spec %s", o->pos[0]);
        return -1;
    }
    if (lclg_hb_spec(o->pos[0], &m)) {
        if (m == 0) return fail(EXIT_USAGE, "%s: an hb spec needs BASE and M: gen:hb:BASE:M (e.g. gen:hb:gen:circuit:300:16)", o->pos[0]);
        if (o->block && o->block != m)
            return fail(EXIT_USAGE, "--block %ld does not match M = %lld of %s (omit --block, or give the same M)", o->block, (long long)m,
                        o->pos[0]);
    } else if (!o->block) {
        return fail(EXIT_USAGE, "solve --method bklu needs --block M (each nonzero of %s becomes a dense M x M block), or a "
                    "gen:hb:BASE:M matrix", o->pos[0]);
    }
    return -1;
}

/* lcl solve MATRIX --method bklu --block M [--device SPEC] [--schedule S] [--mem-limit B] [--nopivot]
   [--refactor K] [--ordering O] [--tol T] [--scale S] [--reps N] [-o FILE]: analyze, factor and solve
   A x = b; with K, K refactors of perturbed values (timed), then one of A's own values, solved and
   checked again: the residual is the larger of the two. */
int cmd_solve_bklu(const opts *o) {
    const char *src = o->pos[0];
    lcl_context *ctx = NULL;
    lcl_bklu_opts bo;
    lcl_bklu_info ainfo, finfo, rinfo;
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N = NULL;
    bklu_system s;
    int64_t hm;
    double t0, t_analyze = 0, t_factor = 0, t_solve = 0, t_refactor = 0, residual = 0, ferr = 0, *tref = NULL, rflops = 0;
    long r;
    int code, have_x = 0, cl;
    lcl_status st = LCL_OK;
    const char *phase = "";
    char dev[512];
    memset(&s, 0, sizeof s);
    memset(&ainfo, 0, sizeof ainfo);
    memset(&finfo, 0, sizeof finfo);
    bklu_opts_from(o, &bo);
    if ((code = make_context(o, &ctx)) >= 0) return code;
    cl = lcl_context_backend(ctx) == LCL_BACKEND_OPENCL;
    if (cl && (st = lcl_context_prepare(ctx, o->dtype)) != LCL_OK) {
        code = fail(exit_code(st), "%s", lcl_last_error(ctx));
        goto done;
    }
    if (!cl && !o->json && (o->schedule || o->mem_limit))
        fprintf(stderr, "lcl: note: --schedule and --mem-limit apply to OpenCL devices; the %s backend ignores them\n",
                lcl_backend_name(lcl_context_backend(ctx)));
    bklu_device_name(ctx, dev, sizeof dev);
    if (o->as_blocks ? (code = bklu_system_cut(ctx, src, o->as_blocks, o->seed, o->dtype, &s)) >= 0
                     : (code = bklu_system_make(ctx, src, o->block, !lclg_hb_spec(src, &hm), o->seed, o->dtype, &s)) >= 0)
        goto done;
    code = -1;
    bklu_system_pin(ctx, o, &s);
    phase = "analyze";
    t0 = now_s();
    st = lcl_bklu_analyze(ctx, &s.A, &bo, &S, &ainfo);
    t_analyze = now_s() - t0;
    if (st != LCL_OK) goto failed;
    phase = "factor";
    t0 = now_s();
    st = lcl_bklu_factor(ctx, S, &s.A, &N, &finfo);
    t_factor = now_s() - t0;
    if (st != LCL_OK) goto failed;
    phase = "solve";
    if ((st = bklu_solve_timed(ctx, S, N, &s, o->reps, &t_solve)) != LCL_OK) goto failed;
    residual = bklu_residual(&s);
    ferr = forward_error(s.v.x, s.v.xs, s.nm);
    have_x = 1;
    if (o->out && (code = sys_vecs_write_x(ctx, &s.v, o->out)) >= 0) goto done;
    if (o->refactor > 0) {
        phase = "refactor";
        if (!(tref = (double *)malloc((size_t)o->refactor * sizeof *tref))) { code = fail(EXIT_NUMERIC, "out of memory"); goto done; }
        for (r = 0; r < o->refactor; r++) {
            bklu_set_values(&s, o->seed + 1 + (uint64_t)r, KLU_PERTURB);
            t0 = now_s();
            st = lcl_bklu_refactor(ctx, S, &s.A, N, &rinfo);
            tref[r] = now_s() - t0;
            if (st != LCL_OK) goto failed;
            rflops = rinfo.flops;
        }
        t_refactor = median(tref, o->refactor);
        /* A's own values again: the refactored factors must solve A x = b as well as the first */
        bklu_set_values(&s, 0, 0);
        if ((st = lcl_bklu_refactor(ctx, S, &s.A, N, &rinfo)) != LCL_OK) goto failed;
        phase = "solve";
        if ((st = bklu_solve_timed(ctx, S, N, &s, 0, &t0)) != LCL_OK) goto failed;
        residual = amax(residual, bklu_residual(&s));
    }
    goto report;
failed:
    code = fail(exit_code(st), "%s: %s", phase, lcl_last_error(ctx));
    have_x = 0;
report:
    if (o->json) {
        printf("{\"op\":\"solve\",\"method\":\"bklu\",\"ordering\":\"%s\",\"scale\":\"%s\",\"tol\":", klu_ordering_name(&bo.klu),
               klu_scale_name(&bo.klu));
        json_double(stdout, bo.klu.tol > 0 ? bo.klu.tol : 1, 1);
        printf(",\"nopivot\":%s,\"schedule\":\"%s\",\"mem_limit\":%lld,\"backend\":\"%s\",\"device\":", bo.nopivot ? "true" : "false",
               schedule_name(bo.schedule), (long long)bo.mem_limit, lcl_backend_name(lcl_context_backend(ctx)));
        lclg_json_str(stdout, dev);
        printf(",\"a_pinned\":%s", s.pin ? "true" : "false");
        printf(",\"devices\":%d,\"precision\":\"%s\",\"n\":%lld,\"m\":%lld,\"n_blocks\":%lld,\"nrhs\":1,\"nnz\":%lld,\"nnzb\":%lld,"
               "\"residual\":", finfo.devices, prec_name(o->dtype), (long long)s.nm, (long long)s.A.m, (long long)s.A.n,
               (long long)(s.A.nnzb * s.A.m * s.A.m), (long long)s.A.nnzb);
        json_double(stdout, residual, have_x);
        printf(",\"forward_error\":");
        json_double(stdout, ferr, have_x);
        printf(",\"t_analyze\":");
        json_double(stdout, t_analyze, S != NULL);
        printf(",\"t_factor\":");
        json_double(stdout, t_factor, N != NULL);
        printf(",\"t_refactor\":");
        json_double(stdout, t_refactor, tref && have_x);
        printf(",\"refactors\":%ld,\"t_solve\":", o->refactor);
        json_double(stdout, t_solve, have_x);
        printf(",\"nnzb_lu\":%lld,\"nnzb_l\":%lld,\"nnzb_u\":%lld,\"blocks\":%lld,\"levels\":%lld,\"flops\":",
               (long long)(finfo.nnzb_l + finfo.nnzb_u), (long long)finfo.nnzb_l, (long long)finfo.nnzb_u, (long long)ainfo.blocks,
               (long long)finfo.levels);
        json_double(stdout, finfo.flops, N != NULL);
        printf(",\"gflops\":");
        json_double(stdout, t_factor > 0 ? finfo.flops / t_factor * 1e-9 : 0, N != NULL && t_factor > 0);
        printf(",\"gflops_refactor\":");
        json_double(stdout, t_refactor > 0 ? rflops / t_refactor * 1e-9 : 0, tref && have_x && t_refactor > 0);
        printf(",\"transfers\":%lld,\"evictions\":%lld,\"status\":", (long long)finfo.transfers, (long long)finfo.evictions);
        lclg_json_str(stdout, lcl_status_string(st));
        printf("}\n");
        fflush(stdout);
    } else if (s.A.n > 0) {
        printf("solve %s\n", src);
        printf("  matrix      %lld x %lld: %lld block columns of M = %lld, %lld blocks (%lld nonzeros); b = A x* for a random x* "
               "(seed %llu)\n", (long long)s.nm, (long long)s.nm, (long long)s.A.n, (long long)s.A.m, (long long)s.A.nnzb,
               (long long)(s.A.nnzb * s.A.m * s.A.m), (unsigned long long)o->seed);
        printf("  method      block sparse LU: ordering %s, scaling %s, block pivot tolerance %g, %s inside the pivot blocks\n",
               klu_ordering_name(&bo.klu), klu_scale_name(&bo.klu), bo.klu.tol > 0 ? bo.klu.tol : 1.0,
               bo.nopivot ? "no pivoting" : "partial pivoting");
        printf("  backend     %s on %s, %s precision", lcl_backend_name(lcl_context_backend(ctx)), dev, prec_name(o->dtype));
        if (cl) printf("; schedule %s, memory limit %s%lld, A's values %s", schedule_name(bo.schedule), bo.mem_limit ? "" : "default ",
                       (long long)bo.mem_limit, s.pin ? "pinned (lcl_host_alloc)" : "malloc'd");
        printf("\n");
        if (S) printf("  analyze     %.6f s: %lld diagonal blocks of J\n", t_analyze, (long long)ainfo.blocks);
        if (N) {
            printf("  factor      %.6f s (%.3g GF/s): %lld blocks in L+U (%lld in L), %lld levels", t_factor,
                   t_factor > 0 ? finfo.flops / t_factor * 1e-9 : 0.0, (long long)(finfo.nnzb_l + finfo.nnzb_u), (long long)finfo.nnzb_l,
                   (long long)finfo.levels);
            if (cl) printf("; %d devices, %lld block transfers, %lld evictions", finfo.devices, (long long)finfo.transfers,
                           (long long)finfo.evictions);
            printf("\n");
        }
        if (tref && have_x)
            printf("  refactor    %.6f s (%.3g GF/s; median of %ld, values perturbed by %g)\n", t_refactor,
                   t_refactor > 0 ? rflops / t_refactor * 1e-9 : 0.0, o->refactor, KLU_PERTURB);
        if (have_x) {
            printf("  solve       %.6f s%s\n", t_solve, o->reps > 0 ? " (median)" : "");
            sys_vecs_report(residual, ferr, o->out);
        }
        printf("  status      %s\n", lcl_status_string(st));
    }
    if (code < 0 && have_x) code = residual_exit(o, residual);
    if (code < 0) code = EXIT_OK;
done:
    free(tref);
    lcl_bklu_numeric_free(N);
    lcl_bklu_symbolic_free(S);
    bklu_system_free(&s);
    lcl_context_destroy(ctx);
    return code;
}

/* ---- bench bklu ---- */
enum { BK_CPU, BK_DEV1, BK_DEV2, BK_ALL, BK_NCFG };
static const char *const cfg_key[BK_NCFG] = {"cpu", "dev1", "dev2", "all"};

typedef struct bklu_cell {      /* one configuration on one (base, M) */
    int ran, ok;
    double t[4];                /* analyze, factor, refactor (median), solve */
    double residual, flops;     /* residual: -1 until a solve was checked */
    int devices;                /* as the library reports (0: it ran on the host) */
    int64_t transfers, evictions;
    char msg[256];
} bklu_cell;
typedef struct bklu_row {
    char label[128];
    int64_t m, n, nnzb, nnzb_lu, levels;
    bklu_cell c[BK_NCFG];
    double s1, s2;              /* 0: unknown */
    int ok;
    int pinned;                 /* A's values in the device context's pinned memory */
} bklu_row;

int check_bench_bklu(const opts *o) {
    int i;
    int64_t m;
    if (o->backend_set && o->backend != LCL_BACKEND_SERIAL && o->backend != LCL_BACKEND_OPENMP)
        return fail(EXIT_USAGE, "bench bklu: --backend picks the CPU column's backend (serial or openmp), not %s; --device picks the "
                    "OpenCL devices", lcl_backend_name(o->backend));
    if (o->as_blocks) {     /* matrices of one's own, cut into blocks: no expansion sizes, no block specs */
        if (o->blocks) return fail(EXIT_USAGE, "bench bklu: --as-blocks M and --blocks exclude each other (M is the matrices' own)");
        if (arrlen(o->pos) < 2) return fail(EXIT_USAGE, "bench bklu --as-blocks M needs the matrices to cut (files or gen: specs)");
        for (i = 1; i < (int)arrlen(o->pos); i++)
            if (lclg_hb_spec(o->pos[i], &m)) return fail(EXIT_USAGE, "--as-blocks takes scalar matrices, not the block spec %s", o->pos[i]);
    }
    return -1;
}

/* analyze (timed), factor (the warm-up), reps refactors of A's values (the median), one solve,
   checked against b = A x* */
static void bench_cell(lcl_context *ctx, bklu_system *s, const lcl_bklu_opts *bo, long reps, double tol, bklu_cell *c, bklu_row *row) {
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N = NULL;
    lcl_bklu_info info;
    double *t = (double *)malloc((size_t)reps * sizeof *t), t0;
    lcl_status st;
    const char *phase = "analyze";
    long r;
    memset(&info, 0, sizeof info);
    c->ran = 1;
    c->residual = -1;
    if (!t) { snprintf(c->msg, sizeof c->msg, "out of memory"); return; }
    t0 = now_s();
    st = lcl_bklu_analyze(ctx, &s->A, bo, &S, &info);
    c->t[0] = now_s() - t0;
    if (st == LCL_OK) {
        phase = "factor";
        t0 = now_s();
        st = lcl_bklu_factor(ctx, S, &s->A, &N, &info);
        c->t[1] = now_s() - t0;
    }
    if (st == LCL_OK) {
        c->devices = info.devices;
        c->transfers = info.transfers;
        c->evictions = info.evictions;
        c->flops = info.flops;
        row->nnzb_lu = info.nnzb_l + info.nnzb_u;
        row->levels = info.levels;
        phase = "refactor";
    }
    for (r = 0; r < reps && st == LCL_OK; r++) {
        t0 = now_s();
        st = lcl_bklu_refactor(ctx, S, &s->A, N, &info);
        t[r] = now_s() - t0;
    }
    if (st == LCL_OK) {
        c->t[2] = median(t, reps);
        phase = "solve";
        st = bklu_solve_timed(ctx, S, N, s, 0, &c->t[3]);
    }
    if (st == LCL_OK) {
        c->residual = bklu_residual(s);
        c->ok = c->residual <= tol;
        if (!c->ok) snprintf(c->msg, sizeof c->msg, "residual %.2e above %g", c->residual, tol);
    } else {
        snprintf(c->msg, sizeof c->msg, "%s: %s", phase, lcl_last_error(ctx));
    }
    lcl_bklu_numeric_free(N);
    lcl_bklu_symbolic_free(S);
    free(t);
}

static void bk_ms_cell(char *buf, size_t cap, const bklu_cell *c) {
    if (!c->ran) snprintf(buf, cap, "-");
    else if (!c->ok) snprintf(buf, cap, "FAIL");
    else if (c->t[2] >= 0.1) snprintf(buf, cap, "%.0f", c->t[2] * 1e3);
    else snprintf(buf, cap, "%.3g", c->t[2] * 1e3);
}
static double cell_gflops(const bklu_cell *c) { return c->ok && c->t[2] > 0 ? c->flops / c->t[2] * 1e-9 : 0; }

/* The device set: --device, else the GPUs, else every device. NULL (with *why) when there is none;
   a --device that fails is the user's error: *code set. */
static lcl_context *bench_device_context(const opts *o, lcl_dtype dt, char *why, size_t cap, int *code) {
    static const char *const tries[2] = {"gpu", "all"};
    int k;
    *code = -1;
    for (k = 0; k < (o->device ? 1 : 2); k++) {
        lcl_context_desc d;
        lcl_context *ctx = NULL;
        lcl_status st;
        memset(&d, 0, sizeof d);
        d.backend = LCL_BACKEND_OPENCL;
        d.device = o->device ? o->device : tries[k];
        d.log = o->device ? log_stderr : NULL;
        st = lcl_context_create(&d, &ctx);
        if (st == LCL_OK) st = lcl_context_prepare(ctx, dt);
        if (st == LCL_OK) return ctx;
        snprintf(why, cap, "%s", lcl_last_error(ctx));
        if (o->device) *code = fail(exit_code(st), "%s", why);
        lcl_context_destroy(ctx);
    }
    return NULL;
}

/* lcl bench bklu [BASE...] [--blocks M,...] [--reps K] [--device SPEC] [--schedule S] [--mem-limit B]
   [--nopivot] [--ordering O] [--tol T] [--scale S] [--csv F] [--svg F] */
int cmd_bench_bklu(const opts *o) {
    lcl_context *cpu = NULL, *dev = NULL;
    lcl_context_desc d;
    lcl_bklu_opts bo;
    char **bases = NULL, why[512] = "", devname[512] = "", cpuname[32], notes[BK_NCFG][600];
    int64_t ms[MAX_SIZES];
    bklu_row *rows = NULL;
    long reps = o->reps > 0 ? o->reps : BKLU_BENCH_REPS;
    double tol = o->dtype == LCL_F64 ? 1e-10 : 1e-4;
    int nm, nd = 0, code = -1, b, k, c, i, failures = 0, host_fallback = 0;
    lcl_backend cpub = o->backend_set ? o->backend : LCL_BACKEND_OPENMP;
    const char *cfg_title[BK_NCFG] = {"CPU", "1 device", "2 devices", "all devices"};
    bklu_opts_from(o, &bo);
    if (o->as_blocks) nm = 1, ms[0] = o->as_blocks;
    else nm = parse_sizes(o->blocks ? o->blocks : "64,128,256", ms, MAX_SIZES);
    for (c = 0; c < BK_NCFG; c++) notes[c][0] = 0;
    /* the CPU column */
    if (!lcl_backend_compiled(cpub)) {
        snprintf(notes[BK_CPU], sizeof notes[BK_CPU], "CPU: the %s backend is not compiled in", lcl_backend_name(cpub));
    } else {
        memset(&d, 0, sizeof d);
        d.backend = cpub;
        d.log = log_stderr;
        if (lcl_context_create(&d, &cpu) != LCL_OK) {
            snprintf(notes[BK_CPU], sizeof notes[BK_CPU], "CPU: %s", lcl_last_error(cpu));
            lcl_context_destroy(cpu);
            cpu = NULL;
        }
    }
    snprintf(cpuname, sizeof cpuname, "%s CPU", cpub == LCL_BACKEND_OPENMP ? "OpenMP" : "serial");
    cfg_title[BK_CPU] = cpuname;
    /* the device columns: one context, opts.devices = 1, 2, 0 (all) */
    if (!lcl_backend_compiled(LCL_BACKEND_OPENCL)) snprintf(why, sizeof why, "OpenCL is not compiled in");
    else if (!(dev = bench_device_context(o, o->dtype, why, sizeof why, &code)) && code >= 0) goto done;
    if (dev) {
        nd = lcl_context_num_devices(dev);
        bklu_device_name(dev, devname, sizeof devname);
    } else {
        snprintf(notes[BK_DEV1], sizeof notes[BK_DEV1], "device columns: no OpenCL device (%s)", why);
    }
    if (dev && nd < 2) snprintf(notes[BK_DEV2], sizeof notes[BK_DEV2], "2 devices: the device set has one (%s)", devname);
    if (dev && nd == 2) snprintf(notes[BK_ALL], sizeof notes[BK_ALL], "all devices: the set has two, the 2-device column");
    for (c = 0; c < BK_NCFG; c++)
        if (notes[c][0]) fprintf(stderr, "bench: note: %s\n", notes[c]);
    for (i = 1; i < (int)arrlen(o->pos); i++) add_string(&bases, o->pos[i]);
    if (arrlen(o->pos) < 2) add_string(&bases, "gen:circuit:2000");
    for (b = 0; b < (int)arrlen(bases); b++)
        for (k = 0; k < nm; k++) {
            bklu_row row;
            bklu_system s;
            double gb;
            memset(&row, 0, sizeof row);
            if ((code = o->as_blocks ? bklu_system_cut(cpu ? cpu : dev, bases[b], ms[k], o->seed, o->dtype, &s)
                                     : bklu_system_make(cpu ? cpu : dev, bases[b], ms[k], 1, o->seed, o->dtype, &s)) >= 0)
                goto done;
            code = -1;
            bklu_system_pin(dev, o, &s);
            row.pinned = s.pin != NULL;
            matrix_label(bases[b], row.label, sizeof row.label);
            row.m = ms[k];
            row.n = s.A.n;
            row.nnzb = s.A.nnzb;
            gb = (double)s.A.nnzb * (double)(s.A.m * s.A.m) * (o->dtype == LCL_F64 ? 8.0 : 4.0) * 1e-9;
            fprintf(stderr, "bench: %s M = %lld: %lld block columns, %lld blocks (A: %.3g GB)\n", row.label, (long long)row.m,
                    (long long)row.n, (long long)row.nnzb, gb);
            for (c = 0; c < BK_NCFG; c++) {
                lcl_bklu_opts co = bo;
                lcl_context *ctx = c == BK_CPU ? cpu : dev;
                bklu_cell *cl = &row.c[c];
                if (!ctx || (c == BK_DEV2 && nd < 2) || (c == BK_ALL && nd <= 2)) continue;
                co.devices = c == BK_DEV1 ? 1 : c == BK_DEV2 ? 2 : 0;
                bench_cell(ctx, &s, &co, reps, tol, cl, &row);
                if (c != BK_CPU && cl->ok && cl->devices == 0) host_fallback = 1;
                if (cl->ok)
                    fprintf(stderr, "bench: %s M = %lld %s: refactor %.4g ms (%.3g GF/s), factor %.4g ms, residual %.1e\n", row.label,
                            (long long)row.m, cfg_title[c], cl->t[2] * 1e3, cell_gflops(cl), cl->t[1] * 1e3, cl->residual);
                else fprintf(stderr, "bench: %s M = %lld %s: FAIL: %s\n", row.label, (long long)row.m, cfg_title[c], cl->msg);
            }
            bklu_system_free(&s);
            row.ok = 1;
            for (c = 0; c < BK_NCFG; c++) row.ok &= !row.c[c].ran || row.c[c].ok;
            failures += !row.ok;
            {   /* S1: CPU over 2 devices (1 when there is one); S2: 1 over 2 devices */
                const bklu_cell *cp = &row.c[BK_CPU], *d1 = &row.c[BK_DEV1], *d2 = &row.c[BK_DEV2], *dv = d2->ok ? d2 : d1;
                if (cp->ok && dv->ok && dv->t[2] > 0) row.s1 = cp->t[2] / dv->t[2];
                if (d1->ok && d2->ok && d2->t[2] > 0) row.s2 = d1->t[2] / d2->t[2];
            }
            if (o->json) {
                printf("{\"op\":\"bench\",\"suite\":\"bklu\",\"matrix\":");
                lclg_json_str(stdout, row.label);
                printf(",\"m\":%lld,\"n_blocks\":%lld,\"nnzb\":%lld,\"nnzb_lu\":%lld,\"levels\":%lld,\"precision\":\"%s\",\"reps\":%ld,"
                       "\"schedule\":\"%s\",\"nopivot\":%s,\"mem_limit\":%lld,\"a_pinned\":%s,\"cpu_backend\":\"%s\",\"device\":",
                       (long long)row.m, (long long)row.n, (long long)row.nnzb, (long long)row.nnzb_lu, (long long)row.levels,
                       prec_name(o->dtype), reps, schedule_name(bo.schedule), bo.nopivot ? "true" : "false", (long long)bo.mem_limit,
                       row.pinned ? "true" : "false", lcl_backend_name(cpub));
                lclg_json_str(stdout, devname);
                for (c = 0; c < BK_NCFG; c++) {
                    const bklu_cell *cl = &row.c[c];
                    int ph;
                    static const char *const ph_names[4] = {"t_analyze", "t_factor", "t_refactor", "t_solve"};
                    for (ph = 0; ph < 4; ph++) {
                        printf(",\"%s_%s\":", cfg_key[c], ph_names[ph]);
                        json_double(stdout, cl->t[ph], cl->ok);
                    }
                    printf(",\"%s_gflops\":", cfg_key[c]);
                    json_double(stdout, cell_gflops(cl), cl->ok);
                    printf(",\"%s_residual\":", cfg_key[c]);
                    json_double(stdout, cl->residual, cl->ran && cl->residual >= 0);
                    printf(",\"%s_devices\":%d,\"%s_transfers\":%lld,\"%s_evictions\":%lld,\"%s_check\":\"%s\"", cfg_key[c], cl->devices,
                           cfg_key[c], (long long)cl->transfers, cfg_key[c], (long long)cl->evictions, cfg_key[c],
                           !cl->ran ? "skipped" : cl->ok ? "ok" : "FAIL");
                }
                printf(",\"s1\":");
                json_double(stdout, row.s1, row.s1 > 0);
                printf(",\"s2\":");
                json_double(stdout, row.s2, row.s2 > 0);
                printf(",\"check\":\"%s\"}\n", row.ok ? "ok" : "FAIL");
                fflush(stdout);
            }
            arrput(rows, row);
        }
    if (host_fallback) fprintf(stderr, "bench: note: the device columns ran on the host: the library's OpenCL path did not take the "
                                       "factorization (info.devices = 0)\n");
    if (!o->json) {
        printf("Block sparse LU (%s), %s precision: numeric refactor milliseconds, the median of %ld after a factor; every run "
               "solved and checked (residual <= %g). %s: the %s backend; the device set: %s. S1 = CPU / 2 devices (1 device when there is "
               "one), S2 = 1 device / 2 devices. Schedule %s%s; A's values %s.\n\n",
               o->as_blocks ? "each matrix cut into M x M blocks" : "J (x) B", prec_name(o->dtype), reps, tol, cpuname,
               lcl_backend_name(cpub), dev ? devname : "none", schedule_name(bo.schedule), bo.nopivot ? ", no pivoting inside the blocks" : "",
               arrlen(rows) && rows[0].pinned ? "in the device context's pinned memory (lcl_host_alloc)" : "malloc'd");
        printf("| matrix | M | n | nnzb | nnzb(L+U) | levels | %s | 1 device | 2 devices | all devices | S1 | S2 |\n"
               "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n", cpuname);
        for (i = 0; i < (int)arrlen(rows); i++) {
            const bklu_row *r = &rows[i];
            printf("| %s | %lld | %lld | %lld | %lld | %lld |", r->label, (long long)r->m, (long long)r->n, (long long)r->nnzb,
                   (long long)r->nnzb_lu, (long long)r->levels);
            for (c = 0; c < BK_NCFG; c++) {
                char cell[32];
                bk_ms_cell(cell, sizeof cell, &r->c[c]);
                printf(" %s |", cell);
            }
            if (r->s1 > 0) printf(" %.2f |", r->s1); else printf(" - |");
            if (r->s2 > 0) printf(" %.2f |\n", r->s2); else printf(" - |\n");
        }
        for (c = 0; c < BK_NCFG; c++)
            if (notes[c][0]) printf("\n- %s", notes[c]);
        if (host_fallback) printf("\n- the device columns ran on the host (info.devices = 0): the OpenCL path did not take them");
        for (i = 0; i < (int)arrlen(rows); i++)
            for (c = 0; c < BK_NCFG; c++)
                if (rows[i].c[c].ran && !rows[i].c[c].ok)
                    printf("\n- FAIL %s M = %lld, %s: %s", rows[i].label, (long long)rows[i].m, cfg_title[c], rows[i].c[c].msg);
        printf("\n");
    }
    if (o->csv) {
        FILE *fo = fopen(o->csv, "w");
        if (!fo) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
        fprintf(fo, "matrix,m,n_blocks,nnzb,nnzb_lu,levels,precision,reps,schedule,cpu_backend,device");
        for (c = 0; c < BK_NCFG; c++)
            fprintf(fo, ",%s_t_analyze,%s_t_factor,%s_t_refactor,%s_t_solve,%s_gflops,%s_residual,%s_devices,%s_transfers,%s_evictions,"
                        "%s_check", cfg_key[c], cfg_key[c], cfg_key[c], cfg_key[c], cfg_key[c], cfg_key[c], cfg_key[c], cfg_key[c],
                    cfg_key[c], cfg_key[c]);
        fprintf(fo, ",s1,s2,check,message\n");
        for (i = 0; i < (int)arrlen(rows); i++) {
            const bklu_row *r = &rows[i];
            const char *msg = "";
            csv_field(fo, r->label);
            fprintf(fo, ",%lld,%lld,%lld,%lld,%lld,%s,%ld,%s,%s,", (long long)r->m, (long long)r->n, (long long)r->nnzb,
                    (long long)r->nnzb_lu, (long long)r->levels, prec_name(o->dtype), reps, schedule_name(bo.schedule),
                    lcl_backend_name(cpub));
            csv_field(fo, devname);
            for (c = 0; c < BK_NCFG; c++) {
                const bklu_cell *cl = &r->c[c];
                if (cl->ok) fprintf(fo, ",%.9g,%.9g,%.9g,%.9g,%.6g,%.3g,%d,%lld,%lld,ok", cl->t[0], cl->t[1], cl->t[2], cl->t[3],
                                    cell_gflops(cl), cl->residual, cl->devices, (long long)cl->transfers, (long long)cl->evictions);
                else fprintf(fo, ",,,,,,,,,,%s", cl->ran ? "FAIL" : "skipped");
                if (cl->ran && !cl->ok && !msg[0]) msg = cl->msg;
            }
            if (r->s1 > 0) fprintf(fo, ",%.4f", r->s1); else fputc(',', fo);
            if (r->s2 > 0) fprintf(fo, ",%.4f", r->s2); else fputc(',', fo);
            fprintf(fo, ",%s,", r->ok ? "ok" : "FAIL");
            csv_field(fo, msg);
            fputc('\n', fo);
        }
        if (fclose(fo) != 0) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
    }
    if (o->svg) {
        int ng = (int)arrlen(rows), okw;
        char **gl = (char **)calloc((size_t)ng + 1, sizeof(char *)), (*gbuf)[160] = (char (*)[160])calloc((size_t)ng + 1, 160);
        double *val = (double *)calloc((size_t)(ng * BK_NCFG) + 1, sizeof(double));
        char *sl[BK_NCFG], title[256];
        if (!gl || !gbuf || !val) okw = 0;
        else {
            for (i = 0; i < ng; i++) {
                snprintf(gbuf[i], sizeof gbuf[i], "%s M=%lld", rows[i].label, (long long)rows[i].m);
                gl[i] = gbuf[i];
                for (c = 0; c < BK_NCFG; c++) val[i * BK_NCFG + c] = cell_gflops(&rows[i].c[c]);
            }
            for (c = 0; c < BK_NCFG; c++) sl[c] = (char *)cfg_title[c];
            snprintf(title, sizeof title, "Block sparse LU refactor, %s precision: GF/s per base and M", prec_name(o->dtype));
            okw = write_svg_bars(o->svg, title, "GF/s", gl, ng, sl, BK_NCFG, val);
        }
        free(gl);
        free(gbuf);
        free(val);
        if (!okw) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->svg, strerror(errno)); goto done; }
    }
    code = failures ? EXIT_NUMERIC : EXIT_OK;
    if (failures) fprintf(stderr, "bench: %d row%s FAILED (see above)\n", failures, failures == 1 ? "" : "s");
done:
    arrfree(rows);
    free_strings(&bases);
    lcl_context_destroy(cpu);
    lcl_context_destroy(dev);
    return code;
}
