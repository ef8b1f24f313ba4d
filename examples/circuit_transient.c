/* circuit_transient.c -- a transient simulation of a nonlinear circuit with the sparse direct LU
   (lcl_klu_*), the way a circuit simulator uses it: the pattern of the Jacobian never changes, so
   it is analyzed once and factored once; every Newton iteration after that is a refactor (new
   values, the same pivot order, no allocation), with a full factor only when the refactor reports
   that its pivots became unstable.

   The circuit: a sine voltage source Vs drives, through a resistor Rs, an RC ladder of N sections
   (R between neighbouring nodes, C from each node to ground), with a diode from every DIODE_EVERY-th
   node to ground (Shockley: I = Is (exp(V / Vt) - 1)), which clips the positive half-waves.

   Modified nodal analysis: unknowns v_0 (the source node), v_1 .. v_N (the ladder) and i_s (the
   current through the source); time by backward Euler (a capacitor is a conductance C/h and a
   current C/h v_prev); each step solves the nonlinear equations by Newton, each diode linearized
   around the last iterate (a conductance gd and a current). The Jacobian J is stamped anew every
   iteration into the same CSR arrays.

   build/circuit_transient: prints some node voltages over time and the factor/refactor counts;
   exits 1 when Newton does not converge or a call fails. */
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 1000              /* ladder sections */
#define DIODE_EVERY 10
#define RS 50.0             /* ohm */
#define R 2.0               /* ohm, per section */
#define C 1e-6              /* farad, per node */
#define VAMP 5.0            /* volt, source amplitude */
#define FREQ 1e3            /* hertz */
#define IS 1e-14            /* ampere, diode saturation current */
#define VT 0.025852         /* volt, thermal voltage at 300 K */
#define H 2e-5              /* second, time step */
#define STEPS 150           /* three periods */
#define NEWTON_MAX 50
#define NEWTON_TOL 1e-9     /* volt (or ampere): the largest change of an unknown */

#define NV (N + 1)          /* node voltages v_0 .. v_N */
#define NX (NV + 1)         /* and the source current: the unknowns */
#define SRC NV              /* index of i_s */

/* the diode's current and conductance at v; beyond 40 Vt the exponential continues as its
   tangent, which keeps early Newton iterates from overflowing */
static void diode(double v, double *id, double *gd) {
    double a = v / VT;
    if (a > 40) {
        double e = exp(40.0);
        *id = IS * (e * (1 + a - 40) - 1);
        *gd = IS / VT * e;
    } else {
        double e = exp(a);
        *id = IS * (e - 1);
        *gd = IS / VT * e;
    }
}

/* J(i, j) += v; the entry is in the pattern (rows hold at most four entries) */
static void stamp(lcl_csr *J, int64_t i, int64_t j, double v) {
    int64_t k;
    for (k = J->ptr[i]; k < J->ptr[i + 1]; k++)
        if (J->col[k] == j) { ((double *)J->val)[k] += v; return; }
    fprintf(stderr, "stamp (%lld, %lld) is not in the pattern\n", (long long)i, (long long)j);
    exit(1);
}
static void stamp_conductance(lcl_csr *J, int64_t a, int64_t b, double g) {
    stamp(J, a, a, g);
    stamp(J, b, b, g);
    stamp(J, a, b, -g);
    stamp(J, b, a, -g);
}

/* The Jacobian at x and the right-hand side of J x_new = rhs, for the step from x_prev at time t */
static void assemble(lcl_csr *J, double *rhs, const double *x, const double *x_prev, double t) {
    int64_t k;
    memset(J->val, 0, (size_t)J->nnz * sizeof(double));
    memset(rhs, 0, NX * sizeof(double));
    stamp_conductance(J, 0, 1, 1.0 / RS);
    for (k = 1; k < N; k++) stamp_conductance(J, k, k + 1, 1.0 / R);
    for (k = 1; k <= N; k++) {      /* backward Euler: C dv/dt ~ C/h (v - v_prev) */
        stamp(J, k, k, C / H);
        rhs[k] += C / H * x_prev[k];
    }
    for (k = DIODE_EVERY; k <= N; k += DIODE_EVERY) {   /* id(v) ~ id(x) + gd (v - x) */
        double id, gd;
        diode(x[k], &id, &gd);
        stamp(J, k, k, gd);
        rhs[k] -= id - gd * x[k];
    }
    stamp(J, 0, SRC, 1.0);          /* the source: its current leaves node 0, v_0 = Vs(t) */
    stamp(J, SRC, 0, 1.0);
    rhs[SRC] = VAMP * sin(2 * 3.14159265358979323846 * FREQ * t);
}

/* The pattern, once: every entry any stamp touches (values are set by assemble) */
static lcl_status make_pattern(lcl_context *ctx, lcl_csr *J) {
    lcl_coo coo;
    lcl_status st;
    int64_t k;
    if ((st = lcl_coo_alloc(ctx, &coo, LCL_F64, NX, NX, 4 * NX)) != LCL_OK) return st;
    for (k = 0; k < N && st == LCL_OK; k++) {   /* the resistors Rs (0-1) and R (k to k+1) */
        if ((st = lcl_coo_push(ctx, &coo, k, k, 1)) == LCL_OK && (st = lcl_coo_push(ctx, &coo, k + 1, k + 1, 1)) == LCL_OK &&
            (st = lcl_coo_push(ctx, &coo, k, k + 1, 1)) == LCL_OK)
            st = lcl_coo_push(ctx, &coo, k + 1, k, 1);
    }
    if (st == LCL_OK && (st = lcl_coo_push(ctx, &coo, 0, SRC, 1)) == LCL_OK) st = lcl_coo_push(ctx, &coo, SRC, 0, 1);
    if (st == LCL_OK) st = lcl_coo_canonicalize(ctx, &coo);     /* sums the repeated diagonal entries */
    if (st == LCL_OK) st = lcl_csr_from_coo(ctx, &coo, J);
    lcl_coo_free(&coo);
    return st;
}

int main(void) {
    static double x[NX], x_prev[NX], rhs[NX];
    static const int64_t probes[4] = {1, N / 10, N / 2, N};
    lcl_context *ctx = NULL;
    lcl_csr J;
    lcl_klu_symbolic *S = NULL;
    lcl_klu_numeric *Num = NULL;
    lcl_klu_info info;
    lcl_status st;
    long step, iters = 0, refactors = 0, factors = 0, worst_iters = 0;
    int p, ok = 0;
    double vmax_diode = -HUGE_VAL;
    memset(&J, 0, sizeof J);
    if ((st = lcl_context_create(NULL, &ctx)) != LCL_OK) goto fail;
    if ((st = make_pattern(ctx, &J)) != LCL_OK) goto fail;
    printf("RC ladder of %d sections, diodes at every %dth node, %lld unknowns, %lld nonzeros; backend %s\n", N, DIODE_EVERY,
           (long long)NX, (long long)J.nnz, lcl_backend_name(lcl_context_backend(ctx)));
    /* the pattern alone: BTF, ordering, symbolic structure (values are not looked at) */
    if ((st = lcl_klu_analyze(ctx, &J, NULL, &S, &info)) != LCL_OK) goto fail;
    printf("analyze: %lld diagonal blocks, the largest %lld\n", (long long)info.blocks, (long long)info.max_block);
    printf("%10s", "t (ms)");
    for (p = 0; p < 4; p++) printf("   v(%4lld) V", (long long)probes[p]);
    printf("  Newton\n");
    for (step = 1; step <= STEPS; step++) {
        double t = step * H;
        long it;
        memcpy(x_prev, x, sizeof x);
        for (it = 1; it <= NEWTON_MAX; it++) {
            double change = 0;
            int64_t k;
            assemble(&J, rhs, x, x_prev, t);
            if (!Num) {
                st = lcl_klu_factor(ctx, S, &J, &Num, &info);
                factors++;
            } else {
                st = lcl_klu_refactor(ctx, S, &J, Num, &info);
                refactors++;
                if (st == LCL_OK && info.refactor_unstable) {   /* the old pivot order no longer fits these values */
                    lcl_klu_numeric_free(Num);
                    Num = NULL;
                    st = lcl_klu_factor(ctx, S, &J, &Num, &info);
                    factors++;
                }
            }
            if (st != LCL_OK) goto fail;
            if ((st = lcl_klu_solve(ctx, S, Num, 1, rhs, NX)) != LCL_OK) goto fail;   /* rhs becomes x_new */
            for (k = 0; k < NX; k++) {
                double d = fabs(rhs[k] - x[k]);
                if (d > change || d != d) change = d;
                x[k] = rhs[k];
            }
            if (change <= NEWTON_TOL) break;
        }
        if (it > NEWTON_MAX) {
            printf("Newton did not converge at t = %g s after %d iterations\n", t, NEWTON_MAX);
            goto done;
        }
        iters += it;
        if (it > worst_iters) worst_iters = it;
        for (p = DIODE_EVERY; p <= N; p += DIODE_EVERY)
            if (x[p] > vmax_diode) vmax_diode = x[p];
        if (step % 10 == 0) {
            printf("%10.3f", t * 1e3);
            for (p = 0; p < 4; p++) printf(" %11.5f", x[probes[p]]);
            printf("  %ld\n", it);
        }
    }
    printf("Newton converged at every step: %d steps, %ld iterations (at most %ld in a step)\n", STEPS, iters, worst_iters);
    printf("largest diode voltage %.3f V (the diodes clip near 0.7 V)\n", vmax_diode);
    printf("factors: %ld, refactors: %ld\n", factors, refactors);
    ok = vmax_diode < 1.0;
    if (!ok) printf("a diode voltage above 1 V: the simulation is wrong\n");
    goto done;
fail:
    printf("failed: %s (%s)\n", lcl_status_string(st), ctx ? lcl_last_error(ctx) : "no context");
done:
    lcl_klu_numeric_free(Num);
    lcl_klu_symbolic_free(S);
    lcl_csr_free(&J);
    lcl_context_destroy(ctx);
    return ok ? 0 : 1;
}
