/* mpi_cg.c -- conjugate gradients over MPI ranks, each on its own context and device.

   Every rank builds the same 3-D Poisson matrix (7-point Laplacian on an M x M x M grid, SPD),
   takes its part of a row partition balanced by nonzeros (lcl_rowpart_create: its rows, with the
   columns it needs from other ranks renumbered after its own), multiplies on its own context
   (OpenCL: rank r on device r % devices), and exchanges the halo of x before each product
   (lcl_mpi_halo) and the dot products' partial sums (lcl_mpi_dot). Rank 0 then gathers x and
   solves the same system in one process, with the same code on the whole matrix, and compares.

   Build and run (make check-mpi does both, and skips when MPI is absent):
       mpicc -std=c99 -O2 -fopenmp -I. -o build/mpi_cg examples/mpi_cg.c -ldl -lpthread -lm
       mpirun -np 2 build/mpi_cg [--backend auto|serial|openmp|opencl] [--grid M] [--rtol R] [--maxit K]
   (as root add --allow-run-as-root; more ranks than cores: --oversubscribe).

   PASS when the distributed and the one-process solves take the same number of iterations within
   one and their solutions differ by at most 2 kappa rtol relative (see agree() for why). Exit 0 on
   PASS, 1 on FAIL or an error, 3 when the asked backend is unavailable (SKIP). */
#define _POSIX_C_SOURCE 200809L
#define LINALG_CL_MPI
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

static int rank, nranks;

/* a library failure on this rank: say so and take the job down (the others wait in a collective) */
static void die(lcl_context *ctx, lcl_status st, const char *what) {
    fprintf(stderr, "rank %d: %s: %s: %s\n", rank, what, lcl_status_string(st), ctx ? lcl_last_error(ctx) : "");
    MPI_Abort(MPI_COMM_WORLD, 1);
}
#define TRY(ctx, expr) do { lcl_status st_ = (expr); if (st_ != LCL_OK) die((ctx), st_, #expr); } while (0)

/* the 7-point Laplacian on an m^3 grid straight into CSR, columns ascending */
static int poisson3d(int64_t m, lcl_csr *A) {
    int64_t n = m * m * m, i, k = 0;
    double *v;
    memset(A, 0, sizeof *A);
    A->dtype = LCL_F64;
    A->rows = A->cols = n;
    A->ptr = (int64_t *)malloc((size_t)(n + 1) * sizeof(int64_t));
    A->col = (int32_t *)malloc((size_t)(7 * n) * sizeof(int32_t));
    A->val = v = (double *)malloc((size_t)(7 * n) * sizeof(double));
    if (!A->ptr || !A->col || !v) return 0;
    for (i = 0; i < n; i++) {
        int64_t x = i % m, y = i / m % m, z = i / (m * m);
        A->ptr[i] = k;
#define NB(c, j) if (c) { A->col[k] = (int32_t)(j); v[k++] = -1.0; }
        NB(z > 0, i - m * m) NB(y > 0, i - m) NB(x > 0, i - 1)
        A->col[k] = (int32_t)i; v[k++] = 6.0;
        NB(x < m - 1, i + 1) NB(y < m - 1, i + m) NB(z < m - 1, i + m * m)
#undef NB
    }
    A->ptr[n] = A->nnz = k;
    return 1;
}

/* One CG solver for both runs: distributed (P set: halo before each product, dots over comm) or
   one process (P NULL: the whole matrix, local dots). Unpreconditioned, x0 = 0. */
typedef struct cg_op {
    lcl_context *ctx;
    lcl_spmat *A;               /* the local (or whole) matrix */
    const lcl_rowpart *P;       /* NULL: one process */
    int64_t n, nx;              /* rows here; length of the product's input (rows + ghosts) */
} cg_op;

static double dot(const cg_op *op, const double *x, const double *y) {
    double s = 0;
    int64_t k;
    if (op->P) { TRY(op->ctx, lcl_mpi_dot(op->ctx, MPI_COMM_WORLD, LCL_F64, op->n, x, y, &s)); return s; }
    for (k = 0; k < op->n; k++) s += x[k] * y[k];
    return s;
}
/* q = A p, p holding nx values (the ghosts are filled here) */
static void matvec(const cg_op *op, double *p, double *q) {
    if (op->P) TRY(op->ctx, lcl_mpi_halo(op->ctx, MPI_COMM_WORLD, op->P, LCL_F64, p));
    TRY(op->ctx, lcl_spmv(op->ctx, LCL_NO_TRANS, 1.0, op->A, p, 0.0, q));
}

/* solves A x = b to ||r|| <= rtol ||b||; returns the iterations, *relres the recurrence's ||r||/||b|| */
static int cg(const cg_op *op, const double *b, double *x, double rtol, int maxit, double *relres) {
    int64_t n = op->n, k;
    double *r = (double *)malloc((size_t)(n + 1) * sizeof(double)), *q = (double *)malloc((size_t)(n + 1) * sizeof(double));
    double *p = (double *)malloc((size_t)(op->nx + 1) * sizeof(double));
    double rr, bb, stop;
    int it = 0;
    if (!r || !q || !p) { fprintf(stderr, "rank %d: out of memory\n", rank); MPI_Abort(MPI_COMM_WORLD, 1); }
    for (k = 0; k < n; k++) { x[k] = 0; r[k] = p[k] = b[k]; }
    rr = bb = dot(op, b, b);
    stop = rtol * rtol * bb;
    while (it < maxit && rr > stop) {
        double alpha, beta, rr1;
        matvec(op, p, q);
        alpha = rr / dot(op, p, q);
        for (k = 0; k < n; k++) { x[k] += alpha * p[k]; r[k] -= alpha * q[k]; }
        rr1 = dot(op, r, r);
        beta = rr1 / rr;
        rr = rr1;
        for (k = 0; k < n; k++) p[k] = r[k] + beta * p[k];
        it++;
    }
    *relres = bb > 0 ? sqrt(rr / bb) : 0;
    free(r); free(q); free(p);
    return it;
}

/* The two solutions cannot agree bit for bit: the dot products sum in another order (per rank,
   then across ranks) and the local rows sum their owned columns before the ghosts. What both
   guarantee is ||b - A x|| <= rtol ||b||, so ||x1 - x2|| <= ||A^-1|| 2 rtol ||b|| <= 2 kappa rtol ||x||
   (||b|| <= ||A|| ||x||). kappa of this matrix is known: the Laplacian's eigenvalues are
   6 - 2 (cos(i pi h) + cos(j pi h) + cos(k pi h)), h = 1/(m+1), so kappa = cot^2(pi h / 2). */
static double agree_tol(int64_t m, double rtol) {
    double t = 1.0 / tan(acos(-1.0) / (2.0 * (double)(m + 1)));
    return 2.0 * t * t * rtol;
}

/* each ghost must arrive as its owner's value, in both precisions: x = global index + 1 */
static int halo_check(lcl_context *ctx, const lcl_rowpart *P) {
    int64_t k, bad = 0, nx = P->nloc + P->nghost;
    int d;
    for (d = 0; d < 2; d++) {
        void *x = malloc((size_t)(nx + 1) * sizeof(double));
        if (!x) return 0;
        for (k = 0; k < nx; k++) {
            double v = k < P->nloc ? (double)(P->r0 + k + 1) : -1.0;
            if (d) ((float *)x)[k] = (float)v; else ((double *)x)[k] = v;
        }
        TRY(ctx, lcl_mpi_halo(ctx, MPI_COMM_WORLD, P, d ? LCL_F32 : LCL_F64, x));
        for (k = 0; k < P->nghost; k++) {
            double got = d ? (double)((float *)x)[P->nloc + k] : ((double *)x)[P->nloc + k];
            bad += got != (double)P->ghost[k] + 1;
        }
        free(x);
    }
    return bad == 0;
}

static int all(int ok) {    /* 1 when every rank says 1 */
    int r = 0;
    MPI_Allreduce(&ok, &r, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return r;
}

int main(int argc, char **argv) {
    lcl_context_desc desc;
    lcl_context *ctx = NULL;
    lcl_device_info di;
    lcl_rowpart P;
    lcl_spmat *A = NULL;
    lcl_csr G;
    cg_op op;
    char devspec[16] = "", where[200];
    int64_t m = 24, n, k;
    double rtol = 1e-8, relres, t0, t1, tmax, *xt, *b, *x;
    int maxit = 1000, it, i, ndev = 0, ok;
    lcl_status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    memset(&desc, 0, sizeof desc);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--backend") && v && lcl_backend_parse(v, &desc.backend)) i++;
        else if (!strcmp(a, "--grid") && v && atoi(v) > 0) { m = atoi(v); i++; }
        else if (!strcmp(a, "--rtol") && v && atof(v) > 0) { rtol = atof(v); i++; }
        else if (!strcmp(a, "--maxit") && v && atoi(v) > 0) { maxit = atoi(v); i++; }
        else {
            if (rank == 0) fprintf(stderr, "usage: mpirun -np N %s [--backend auto|serial|openmp|opencl] [--grid M] [--rtol R] [--maxit K]\n", argv[0]);
            MPI_Finalize();
            return 1;
        }
    }
    n = m * m * m;
    /* this rank's context: with OpenCL (asked, or auto) device rank % devices */
    if (desc.backend == LCL_BACKEND_OPENCL || desc.backend == LCL_BACKEND_AUTO) lcl_list_devices(NULL, NULL, 0, &ndev);
    if (ndev > 0) { snprintf(devspec, sizeof devspec, "%d", rank % ndev); desc.device = devspec; }
    st = lcl_context_create(&desc, &ctx);
    ok = all(st == LCL_OK);
    if (!ok) {
        if (st != LCL_OK) fprintf(stderr, "rank %d: no %s context: %s\n", rank, lcl_backend_name(desc.backend), lcl_last_error(ctx));
        if (rank == 0) printf("SKIP: the %s backend is unavailable here\n", lcl_backend_name(desc.backend));
        lcl_context_destroy(ctx);
        MPI_Finalize();
        return 3;
    }
    if (lcl_context_backend(ctx) == LCL_BACKEND_OPENCL && lcl_context_device(ctx, 0, &di) == LCL_OK)
        snprintf(where, sizeof where, "opencl, device %s '%s'", devspec, di.name);
    else snprintf(where, sizeof where, "%s", lcl_backend_name(lcl_context_backend(ctx)));

    /* the same matrix on every rank; b = A x_true with x_true_i = 1 + sin(i) */
    if (!poisson3d(m, &G)) { fprintf(stderr, "rank %d: out of memory\n", rank); MPI_Abort(MPI_COMM_WORLD, 1); }
    TRY(ctx, lcl_rowpart_create(ctx, &G, nranks, rank, &P));
    TRY(ctx, lcl_spmat_create(ctx, &P.local, NULL, &A));
    {
        lcl_spmat_info inf;
        TRY(ctx, lcl_spmat_describe(A, &inf));
        int from = 0;
        for (i = 0; i < nranks; i++) from += P.recv_off[i + 1] > P.recv_off[i];
        printf("rank %d: rows %lld..%lld (%lld nonzeros, %lld ghosts from %d rank(s)), %s, format %s\n", rank, (long long)P.r0,
               (long long)P.r1 - 1, (long long)P.local.nnz, (long long)P.nghost, from, where, lcl_format_name(inf.format));
    }
    fflush(stdout);
    ok = all(halo_check(ctx, &P));
    if (rank == 0) printf("halo exchange (double, float): %s\n", ok ? "ok" : "WRONG");
    xt = (double *)malloc((size_t)n * sizeof(double));
    b = (double *)malloc((size_t)n * sizeof(double));
    x = (double *)malloc((size_t)(n + 1) * sizeof(double));
    if (!xt || !b || !x) { fprintf(stderr, "rank %d: out of memory\n", rank); MPI_Abort(MPI_COMM_WORLD, 1); }
    for (k = 0; k < n; k++) xt[k] = 1.0 + sin((double)k);    /* smooth and rough parts: CG needs both */
    for (k = 0; k < n; k++) {   /* b = A xt on the host, the whole vector */
        double s = 0;
        int64_t e;
        for (e = G.ptr[k]; e < G.ptr[k + 1]; e++) s += ((double *)G.val)[e] * xt[G.col[e]];
        b[k] = s;
    }

    /* the distributed solve: this rank's rows of b and x */
    op.ctx = ctx; op.A = A; op.P = &P; op.n = P.nloc; op.nx = P.nloc + P.nghost;
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    it = cg(&op, b + P.r0, x, rtol, maxit, &relres);
    t1 = MPI_Wtime() - t0;
    MPI_Reduce(&t1, &tmax, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    {   /* the true residual ||b - A x|| / ||b||, with the distributed product */
        double *xg = (double *)malloc((size_t)(op.nx + 1) * sizeof(double)), *ax = (double *)malloc((size_t)(P.nloc + 1) * sizeof(double)), rn, bn;
        if (!xg || !ax) { fprintf(stderr, "rank %d: out of memory\n", rank); MPI_Abort(MPI_COMM_WORLD, 1); }
        memcpy(xg, x, (size_t)P.nloc * sizeof(double));
        matvec(&op, xg, ax);
        for (k = 0; k < P.nloc; k++) ax[k] = b[P.r0 + k] - ax[k];
        rn = sqrt(dot(&op, ax, ax));
        bn = sqrt(dot(&op, b + P.r0, b + P.r0));
        if (rank == 0)
            printf("distributed: %d ranks, n = %lld (grid %lld^3), %d iterations, residual %.3e (true %.3e), %.3f s\n", nranks, (long long)n,
                   (long long)m, it, relres, rn / bn, tmax);
        free(xg); free(ax);
    }
    {   /* gather x on rank 0 */
        int *cnt = (int *)malloc((size_t)nranks * sizeof(int)), *dsp = (int *)malloc((size_t)nranks * sizeof(int)), c = (int)P.nloc;
        int64_t bnd[1024 + 1];
        double *xall = rank == 0 ? (double *)malloc((size_t)n * sizeof(double)) : NULL;
        if (!cnt || !dsp || nranks > 1024 || (rank == 0 && !xall)) { fprintf(stderr, "rank %d: out of memory\n", rank); MPI_Abort(MPI_COMM_WORLD, 1); }
        TRY(ctx, lcl_rowpart_bounds(ctx, &G, nranks, bnd));
        for (i = 0; i < nranks; i++) { cnt[i] = (int)(bnd[i + 1] - bnd[i]); dsp[i] = (int)bnd[i]; }
        MPI_Gatherv(x, c, MPI_DOUBLE, xall, cnt, dsp, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (rank == 0) {   /* the one-process solve on the whole matrix, same context, same code */
            lcl_spmat *W = NULL;
            cg_op one;
            double *x1 = (double *)malloc((size_t)(n + 1) * sizeof(double)), rel1, dn = 0, xn = 0, en = 0, tol = agree_tol(m, rtol);
            int it1;
            if (!x1) { fprintf(stderr, "out of memory\n"); MPI_Abort(MPI_COMM_WORLD, 1); }
            TRY(ctx, lcl_spmat_create(ctx, &G, NULL, &W));
            one.ctx = ctx; one.A = W; one.P = NULL; one.n = n; one.nx = n;
            t0 = MPI_Wtime();
            it1 = cg(&one, b, x1, rtol, maxit, &rel1);
            t1 = MPI_Wtime() - t0;
            for (k = 0; k < n; k++) {
                dn += (xall[k] - x1[k]) * (xall[k] - x1[k]);
                xn += x1[k] * x1[k];
                en += (xall[k] - xt[k]) * (xall[k] - xt[k]);
            }
            dn = sqrt(dn / xn);
            printf("one process: %d iterations, residual %.3e, %.3f s\n", it1, rel1, t1);
            printf("difference: %+d iterations, ||x - x1|| / ||x1|| = %.3e (tolerance 2 kappa rtol = %.3e); error vs x_true %.3e\n", it - it1,
                   dn, tol, sqrt(en / xn));
            ok = ok && abs(it - it1) <= 1 && dn <= tol && it < maxit && it1 < maxit;
            printf("%s\n", ok ? "PASS" : "FAIL");
            lcl_spmat_free(W);
            free(x1);
        }
        free(cnt); free(dsp); free(xall);
    }
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    free(xt); free(b); free(x);
    lcl_spmat_free(A);
    lcl_rowpart_free(&P);
    lcl_csr_free(&G);
    lcl_context_destroy(ctx);
    MPI_Finalize();
    return ok ? 0 : 1;
}
