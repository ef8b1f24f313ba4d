#define LINALG_CL_IMPLEMENTATION
#include "linalg_cl.h"
#include <stdio.h>
#include <stdlib.h>
/* J (x) B from a random sparse pattern with diagonal */
int main(int argc, char **argv) {
    double dom = getenv("DOM") ? atof(getenv("DOM")) : 4; int n = argc > 1 ? atoi(argv[1]) : 50, m = argc > 2 ? atoi(argv[2]) : 4, be = argc > 3 ? atoi(argv[3]) : 0;
    lcl_context *ctx = NULL;
    lcl_context_desc d; memset(&d, 0, sizeof d); d.backend = be; d.device = getenv("DEVSPEC");
    if (lcl_context_create(&d, &ctx)) { printf("ctx %s\n", lcl_last_error(ctx)); }
    lcl_bmat A; memset(&A, 0, sizeof A);
    A.n = n; A.m = m; A.dtype = LCL_F64;
    A.ptr = calloc(n + 1, 8); A.idx = malloc(sizeof(int) * n * 5); 
    srand(1);
    int64_t e = 0;
    for (int j = 0; j < n; j++) {
        int rows[5], c = 0; rows[c++] = j;
        for (int t = 0; t < 3; t++) { int r = rand() % n; int dup = 0; for (int q = 0; q < c; q++) dup |= rows[q] == r; if (!dup) rows[c++] = r; }
        for (int a = 0; a < c; a++) for (int b = a + 1; b < c; b++) if (rows[b] < rows[a]) { int t = rows[a]; rows[a] = rows[b]; rows[b] = t; }
        for (int q = 0; q < c; q++) A.idx[e++] = rows[q];
        A.ptr[j + 1] = e;
    }
    A.nnzb = e;
    A.val = malloc(sizeof(double) * e * m * m);
    double *v = A.val;
    for (int64_t q = 0; q < e * m * m; q++) v[q] = (rand() / (double)RAND_MAX - 0.5);
    for (int j = 0; j < n; j++) for (int64_t p = A.ptr[j]; p < A.ptr[j+1]; p++) if (A.idx[p] == j) for (int r = 0; r < m; r++) v[p*m*m + r*m + r] += dom * m;
    lcl_bklu_symbolic *S; lcl_bklu_numeric *N; lcl_bklu_info info;
    lcl_bklu_opts o; memset(&o, 0, sizeof o); o.nopivot = getenv("NOPIV") != NULL; if (getenv("MEMLIM")) o.mem_limit = atoll(getenv("MEMLIM")); if (getenv("SCHED")) o.schedule = atoi(getenv("SCHED")); if (getenv("DEVS")) o.devices = atoi(getenv("DEVS")); if (getenv("TOL")) o.klu.tol = atof(getenv("TOL")); if (getenv("NAT")) o.klu.ordering = LCL_KLU_NATURAL; if (getenv("NOBTF")) o.klu.no_btf = 1; lcl_status st = lcl_bklu_analyze(ctx, &A, &o, &S, &info);
    if (st) { printf("analyze %s\n", lcl_last_error(ctx)); return 1; }
    double t0 = 0;
    st = lcl_bklu_factor(ctx, S, &A, &N, &info);
    if (st) { printf("factor %s\n", lcl_last_error(ctx)); return 1; }
    printf("n %d m %d nnzb %lld L %lld U %lld levels %lld blocks %lld flops %.3g\n", n, m, (long long)e, (long long)info.nnzb_l, (long long)info.nnzb_u, (long long)info.levels, (long long)info.blocks, info.flops);
    double *x = malloc(8 * n * m), *b = malloc(8 * n * m), *r = malloc(8*n*m);
    for (int i = 0; i < n * m; i++) x[i] = sin(i + 1.0);
    lcl_bmat_mv(&A, x, b);
    memcpy(r, b, 8*n*m);
    st = lcl_bklu_solve(ctx, S, N, 1, b, n * m);
    if (st) { printf("solve %s\n", lcl_last_error(ctx)); return 1; }
    double err = 0; for (int i = 0; i < n * m; i++) err = fmax(err, fabs(b[i] - x[i]));
    printf("max err %.3g\n", err);
    if (m == 1) { const lcl_klu_numeric *kn = N->kn; double dl = 0, du = 0; const double *X = N->X;
      for (int k = 0; k < n; k++) { int64_t s = N->colp[k];
        for (int64_t p = kn->Up[k]; p < kn->Up[k+1]; p++, s++) du = fmax(du, fabs(((double*)kn->Ux)[p] - X[s]));
        du = fmax(du, fabs(((double*)kn->Ud)[k] - X[s])); s++;
        for (int64_t p = kn->Lp[k]; p < kn->Lp[k+1]; p++, s++) dl = fmax(dl, fabs(((double*)kn->Lx)[p] - X[s])); }
      printf("diff L %.3g U %.3g\n", dl, du);
      double *b2 = malloc(8*n); memcpy(b2, r, 8*n); lcl_klu_solve(NULL, S->ks, kn, 1, b2, n);
      double e2 = 0; for (int i = 0; i < n; i++) e2 = fmax(e2, fabs(b2[i] - x[i])); printf("scalar err %.3g ipiv0 %d\n", e2, N->ipiv[0]); for (int b = 0; b < S->ks->nblocks; b++) printf("[%d %d] ", S->ks->R[b], S->ks->R[b+1]); printf("\nnf %lld\n", (long long)N->fp[n]); double df = 0; for (int k = 0; k < n; k++) for (int64_t c = kn->Cp[k]; c < kn->Cd[k]; c++) { int64_t f = N->fp[k] + c - kn->Cp[k]; df = fmax(df, fabs(((double*)N->F)[f] - ((double*)kn->Cx)[c])); if (N->fi[f] != kn->Ci[c]) printf("row mismatch\n"); } printf("dF %.3g\n", df); }
    st = lcl_bklu_refactor(ctx, S, &A, N, &info);
    printf("refactor %d devices %d transfers %lld evictions %lld\n", st, info.devices, (long long)info.transfers, (long long)info.evictions); memcpy(b, r, 8*n*m); lcl_bklu_solve(ctx, S, N, 1, b, n*m); err = 0; for (int i = 0; i < n * m; i++) err = fmax(err, fabs(b[i] - x[i])); printf("after refactor err %.3g\n", err);
    lcl_bklu_numeric_free(N); lcl_bklu_symbolic_free(S);
    (void)t0; (void)r;
    lcl_context_destroy(ctx);
    return 0;
}
