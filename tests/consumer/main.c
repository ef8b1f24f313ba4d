/* main.c -- a program that uses linalg_cl the way an outside project does: through the installed
   or fetched headers, with only the flags the build system hands out. Solves a small dense system
   with gesv on the serial backend and on auto; exits 1 when a solve fails or its residual is large. */
#define LINALG_CL_IMPLEMENTATION
#include "linalg_cl.h"
#include <stdio.h>
#include <string.h>
#include <math.h>

enum { N = 40 };

static int solve_on(lcl_backend backend) {
    static double a[N * N], b[N], x[N];
    lcl_context_desc d;
    lcl_context *ctx = NULL;
    lcl_dense A, B;
    int32_t ipiv[N];
    int64_t info = 0;
    double rn = 0, an = 0, xn = 0, bn = 0;
    int i, j, rc = 1, solved = 0;
    for (i = 0; i < N; i++) {       /* diagonally dominant, so well conditioned */
        for (j = 0; j < N; j++) a[i * N + j] = i == j ? N : 1.0 / (1 + i + 2 * j);
        b[i] = i % 7 - 3;
    }
    memset(&d, 0, sizeof d);
    d.backend = backend;
    if (lcl_context_create(&d, &ctx) != LCL_OK) {
        printf("%s: context: %s\n", lcl_backend_name(backend), lcl_last_error(ctx));
        lcl_context_destroy(ctx);
        return 1;
    }
    if (lcl_dense_alloc(ctx, &A, LCL_F64, LCL_ROW_MAJOR, N, N) != LCL_OK) goto out;
    if (lcl_dense_alloc(ctx, &B, LCL_F64, LCL_COL_MAJOR, N, 1) != LCL_OK) { lcl_dense_free(&A); goto out; }
    for (i = 0; i < N; i++) {
        for (j = 0; j < N; j++) lcl_dense_set(&A, i, j, a[i * N + j]);
        lcl_dense_set(&B, i, 0, b[i]);
    }
    if (lcl_gesv(ctx, &A, ipiv, &B, &info) == LCL_OK && info == 0) {
        solved = 1;
        for (i = 0; i < N; i++) x[i] = lcl_dense_get(&B, i, 0);
        for (i = 0; i < N; i++) {   /* ||b - A x|| / (||A|| ||x|| + ||b||), infinity norms */
            double s = 0, row = 0;
            for (j = 0; j < N; j++) {
                s += a[i * N + j] * x[j];
                row += fabs(a[i * N + j]);
            }
            rn = fmax(rn, fabs(b[i] - s));
            an = fmax(an, row);
            xn = fmax(xn, fabs(x[i]));
            bn = fmax(bn, fabs(b[i]));
        }
        rn /= an * xn + bn;
        rc = !(rn <= 1e-13);
        printf("%s (%s): gesv %dx%d residual %.1e %s\n", lcl_backend_name(backend),
               lcl_backend_name(lcl_context_backend(ctx)), N, N, rn, rc ? "BAD" : "ok");
    }
    lcl_dense_free(&A);
    lcl_dense_free(&B);
out:
    if (!solved) printf("%s: gesv failed (info %lld): %s\n", lcl_backend_name(backend), (long long)info, lcl_last_error(ctx));
    lcl_context_destroy(ctx);
    return rc;
}

int main(void) {
    int fail = solve_on(LCL_BACKEND_SERIAL);
    fail |= solve_on(LCL_BACKEND_AUTO);
    printf("linalg_cl %d.%d.%d consumer: %s\n", LCL_VERSION_MAJOR, LCL_VERSION_MINOR, LCL_VERSION_PATCH,
           fail ? "FAILED" : "ok");
    return fail;
}
