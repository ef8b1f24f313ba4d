/* reaction_diffusion.c -- the steady state of S chemical species that react and diffuse on a 2-D
   grid, through the block sparse LU (lcl_bklu_*). Each cell has S unknowns, coupled by the
   reactions, so the Jacobian's nonzeros are dense S x S blocks: a block sparse matrix with the
   grid's 5-point pattern. Its pattern never changes: analyzed once, factored once, and every
   Newton iteration after that is a refactor with new values. On OpenCL it runs on every device
   of the context.

   The model, per cell c with concentrations u_c (S values):
       du_c/dt = F_c(u) = sum over the neighbours d of c of  diag(D) (u_d - u_c)      (diffusion)
                        + K u_c - kappa u_c.^2 + f_c                                   (reactions)
   K converts species s + 1 into s, decays each, and couples every pair weakly; kappa is a
   quadratic loss; f feeds species 0 in a patch at the centre and every species a little
   everywhere. No flux leaves the grid.

   Pseudo-transient continuation: backward Euler steps, (u - u_prev) / dt = F(u), each solved by
   Newton, with dt doubling, until |F(u)| is below TOL: the steady state. The Newton matrix is
   I / dt - dF/du:
       diagonal block  (c, c): I / dt + (neighbours of c) diag(D) - K + 2 kappa diag(u_c)
       off-diagonal    (c, d): -diag(D)

   build/reaction_diffusion [auto|serial|openmp|opencl [DEVICES]]: the backend (default auto: the
   best found; on OpenCL every device of the context, or as DEVICES says: all, gpu, 0,1, ...).
   Prints the progress, the block LU's structure, and three checks that do
   not rely on the solver: |F(u)| at the end, every concentration >= 0, and the mass balance (the
   reactions' net production summed over the grid is zero at a steady state: diffusion only moves
   mass). Exits 1 when a check or a call fails. */
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define G 20                /* grid G x G cells */
#define S 10                /* species: the block size */
#define NC (G * G)          /* cells: block rows and columns */
#define NU (NC * S)         /* unknowns */
#define KAPPA 0.05
#define TOL 1e-9            /* steady when max |F(u)| is below this */
#define STEPS_MAX 60
#define NEWTON_MAX 20

static double Dv[S], K[S][S];

/* the source of species s in cell c */
static double source(int64_t c, int s) {
    int64_t i = c / G, j = c % G;
    double f = 0.01;
    if (s == 0 && i >= G / 2 - 2 && i < G / 2 + 2 && j >= G / 2 - 2 && j < G / 2 + 2) f += 1.0;
    return f;
}

/* the reactions' net production of species s in cell c: K u_c - kappa u_c.^2 + f_c */
static double react(const double *u, int64_t c, int s) {
    double r = source(c, s) - KAPPA * u[c * S + s] * u[c * S + s];
    int t;
    for (t = 0; t < S; t++) r += K[s][t] * u[c * S + t];
    return r;
}

/* F(u), the time derivative; max |F| returned */
static double rates(const double *u, double *F) {
    int64_t c, d, q;
    int s;
    double worst = 0;
    for (c = 0; c < NC; c++) {
        const int64_t i = c / G, j = c % G, nb[4] = {i > 0 ? c - G : -1, j > 0 ? c - 1 : -1, j < G - 1 ? c + 1 : -1, i < G - 1 ? c + G : -1};
        for (s = 0; s < S; s++) {
            double r = react(u, c, s);
            for (q = 0; q < 4; q++)
                if ((d = nb[q]) >= 0) r += Dv[s] * (u[d * S + s] - u[c * S + s]);
            F[c * S + s] = r;
            if (fabs(r) > worst || r != r) worst = fabs(r);
        }
    }
    return worst;
}

/* the block pattern, once: block CSR (by_row), each block row's columns ascending */
static int make_pattern(lcl_bmat *A) {
    int64_t c, e = 0;
    memset(A, 0, sizeof *A);
    A->n = NC, A->m = S, A->dtype = LCL_F64, A->by_row = 1;
    A->ptr = (int64_t *)malloc((NC + 1) * sizeof(int64_t));
    A->idx = (int32_t *)malloc(5 * NC * sizeof(int32_t));
    A->val = malloc((size_t)5 * NC * S * S * sizeof(double));
    if (!A->ptr || !A->idx || !A->val) return 0;
    for (c = 0; c < NC; c++) {
        const int64_t i = c / G, j = c % G;
        A->ptr[c] = e;
        if (i > 0) A->idx[e++] = (int32_t)(c - G);
        if (j > 0) A->idx[e++] = (int32_t)(c - 1);
        A->idx[e++] = (int32_t)c;
        if (j < G - 1) A->idx[e++] = (int32_t)(c + 1);
        if (i < G - 1) A->idx[e++] = (int32_t)(c + G);
    }
    A->ptr[NC] = A->nnzb = e;
    return 1;
}

/* the Newton matrix I / dt - dF/du at u into A's values */
static void assemble(lcl_bmat *A, const double *u, double dt) {
    int64_t c, e;
    int s, t;
    for (c = 0; c < NC; c++) {
        const int64_t deg = A->ptr[c + 1] - A->ptr[c] - 1;
        for (e = A->ptr[c]; e < A->ptr[c + 1]; e++) {
            double *b = (double *)A->val + e * S * S;
            memset(b, 0, S * S * sizeof(double));
            for (s = 0; s < S; s++) {
                if (A->idx[e] != c) {
                    b[s * S + s] = -Dv[s];
                    continue;
                }
                for (t = 0; t < S; t++) b[s * S + t] = -K[s][t];
                b[s * S + s] += 1.0 / dt + (double)deg * Dv[s] + 2 * KAPPA * u[c * S + s];
            }
        }
    }
}

/* |b - A x| / (|A| |x| + |b|) in the infinity norms, as the lcl tool reports it (ax: scratch) */
static lcl_status residual(const lcl_bmat *A, const double *b, const double *x, double *ax, double *res) {
    const double *v = (const double *)A->val;
    double rn = 0, an = 0, xn = 0, bn = 0;
    int64_t c, e, k;
    int s, t;
    lcl_status st = lcl_bmat_mv(A, x, ax);
    if (st != LCL_OK) return st;
    for (c = 0; c < NC; c++)
        for (s = 0; s < S; s++) {   /* |A|: the largest row sum */
            double r = 0;
            for (e = A->ptr[c]; e < A->ptr[c + 1]; e++)
                for (t = 0; t < S; t++) r += fabs(v[e * S * S + s * S + t]);
            an = r > an ? r : an;
        }
    for (k = 0; k < NU; k++) {
        rn = fabs(b[k] - ax[k]) > rn ? fabs(b[k] - ax[k]) : rn;
        xn = fabs(x[k]) > xn ? fabs(x[k]) : xn;
        bn = fabs(b[k]) > bn ? fabs(b[k]) : bn;
    }
    *res = rn / (an * xn + bn);
    return LCL_OK;
}

int main(int argc, char **argv) {
    static double u[NU], u_prev[NU], F[NU], rhs[NU], b[NU];
    lcl_context *ctx = NULL;
    lcl_bmat A;
    lcl_bklu_symbolic *Sym = NULL;
    lcl_bklu_numeric *Num = NULL;
    lcl_bklu_info info;
    lcl_status st = LCL_OK;
    long step, iters = 0, factors = 0, refactors = 0;
    double dt = 2.0, fmax = 0, worst_res = 0, umin = HUGE_VAL, made = 0, net = 0;
    int64_t k;
    int s, t, ok = 0;
    for (s = 0; s < S; s++) {
        Dv[s] = 0.05 * (1.0 + s) / S;
        for (t = 0; t < S; t++) K[s][t] = s == t ? -1.0 : 0.02;
        K[s][(s + 1) % S] += 0.6;
    }
    if (!make_pattern(&A)) {
        printf("out of memory\n");
        goto done;
    }
    {
        lcl_context_desc desc;
        memset(&desc, 0, sizeof desc);
        if (argc > 1 && !lcl_backend_parse(argv[1], &desc.backend)) {
            printf("usage: %s [auto|serial|openmp|opencl [DEVICES]]\n", argv[0]);
            goto done;
        }
        desc.device = argc > 2 ? argv[2] : NULL;
        if ((st = lcl_context_create(&desc, &ctx)) != LCL_OK) goto fail;
    }
    printf("%d x %d cells, %d species: %d unknowns, %lld blocks of %d x %d; backend %s\n", G, G, S, NU, (long long)A.nnzb, S, S,
           lcl_backend_name(lcl_context_backend(ctx)));
    /* the pattern alone: ordering and BTF of the block pattern (values are not looked at) */
    if ((st = lcl_bklu_analyze(ctx, &A, NULL, &Sym, &info)) != LCL_OK) goto fail;
    memset(u, 0, sizeof u);
    for (step = 1; step <= STEPS_MAX; step++, dt *= 2) {
        long it;
        memcpy(u_prev, u, sizeof u);
        for (it = 1; it <= NEWTON_MAX; it++) {
            double change = 0, res;
            /* G(u) = (u - u_prev) / dt - F(u); solve (I / dt - dF/du) delta = -G(u) */
            rates(u, F);
            for (k = 0; k < NU; k++) rhs[k] = F[k] - (u[k] - u_prev[k]) / dt;
            assemble(&A, u, dt);
            if (!Num) {     /* the first: pivot order, the blocks of L and U, the column DAG */
                if ((st = lcl_bklu_factor(ctx, Sym, &A, &Num, &info)) != LCL_OK) goto fail;
                factors++;
                printf("factor: %lld blocks in L and %lld in U, %lld levels; on %s\n", (long long)info.nnzb_l, (long long)info.nnzb_u,
                       (long long)info.levels, info.devices ? "OpenCL devices" : "the host's cores");
            } else if ((st = lcl_bklu_refactor(ctx, Sym, &A, Num, &info)) != LCL_OK)
                goto fail;
            else
                refactors++;
            memcpy(b, rhs, sizeof rhs);
            if ((st = lcl_bklu_solve(ctx, Sym, Num, 1, rhs, NU)) != LCL_OK) goto fail;   /* rhs becomes delta */
            if ((st = residual(&A, b, rhs, F, &res)) != LCL_OK) goto fail;
            if (res > worst_res || res != res) worst_res = res;
            for (k = 0; k < NU; k++) {
                change = fabs(rhs[k]) > change || rhs[k] != rhs[k] ? fabs(rhs[k]) : change;
                u[k] += rhs[k];
            }
            if (change <= 1e-12 * (1 + dt)) break;
        }
        if (it > NEWTON_MAX) {
            printf("Newton did not converge at step %ld (dt %g)\n", step, dt);
            goto done;
        }
        iters += it;
        fmax = rates(u, F);
        if (step == 1) printf("%6s %12s %10s  Newton\n", "step", "dt", "max |F|");
        if (step % 4 == 1 || fmax < TOL) printf("%6ld %12.4g %10.3e  %ld\n", step, dt, fmax, it);
        if (fmax < TOL) break;
    }
    /* the checks, from u alone */
    for (k = 0; k < NU; k++) umin = u[k] < umin ? u[k] : umin;
    for (k = 0; k < NC; k++)    /* the reactions' net production, and what the sources make */
        for (s = 0; s < S; s++) {
            net += react(u, k, s);
            made += source(k, s);
        }
    printf("block LU: %ld factor, %ld refactors (%ld Newton iterations) on ", factors, refactors, iters);
    if (info.devices) printf("%d OpenCL device(s), %lld blocks moved between host and devices in the last refactor\n", info.devices, (long long)info.transfers);
    else printf("the host's cores (a CPU backend, or the OpenCL device is the CPU itself)\n");
    printf("largest linear-solve residual %.2e\n", worst_res);
    printf("max |F(u)| %.2e (steady below %.0e), min u %.4f, net production %.2e of %.4f made by the sources\n", fmax, TOL, umin, net, made);
    ok = fmax < TOL && umin >= 0 && fabs(net) <= 1e-6 * made && worst_res < 1e-12;
    printf("%s\n", ok ? "steady state reached, all checks ok" : "a check FAILED");
    goto done;
fail:
    printf("failed: %s (%s)\n", lcl_status_string(st), ctx ? lcl_last_error(ctx) : "no context");
done:
    lcl_bklu_numeric_free(Num);
    lcl_bklu_symbolic_free(Sym);
    lcl_context_destroy(ctx);
    free(A.ptr);
    free(A.idx);
    free(A.val);
    return ok ? 0 : 1;
}
