/* quickstart.c -- the README's two-file integration as a complete program.
   build/quickstart [MATRIX.mtx]: picks the best backend, reads a matrix (default: the shared
   west0067), prints its size and runs y = 2x + y on the chosen backend. */
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include <stdio.h>
#include <stdlib.h>

static void say(void *user, lcl_log_level level, const char *msg) {
    (void)user;
    if (level <= LCL_LOG_INFO) printf("[linalg_cl] %s\n", msg);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "../shared/matrices/west0067.mtx";
    lcl_context_desc desc = {LCL_BACKEND_AUTO, NULL, NULL, NULL, say, NULL, 0, 0, 0};
    lcl_context *ctx;
    lcl_coo A;
    lcl_mm_info info;
    double *x, *y;
    int64_t i;
    int rc = 0;
    if (lcl_context_create(&desc, &ctx) != LCL_OK) {
        fprintf(stderr, "context: %s\n", lcl_last_error(ctx));
        lcl_context_destroy(ctx);
        return 3;
    }
    printf("backend: %s\n", lcl_backend_name(lcl_context_backend(ctx)));
    if (lcl_mm_read(ctx, path, LCL_F64, LCL_MM_EXPAND, &A, &info) != LCL_OK) {
        fprintf(stderr, "%s\n", lcl_last_error(ctx));
        lcl_context_destroy(ctx);
        return 2;
    }
    printf("%s: %lld x %lld, %lld entries stored, %lld after expansion\n", path, (long long)A.rows, (long long)A.cols,
           (long long)info.entries, (long long)A.nnz);
    /* the nonzero values as a vector: y = 2*x + y */
    x = (double *)A.val;
    y = (double *)calloc((size_t)A.nnz + 1, sizeof *y);
    if (y && lcl_axpy(ctx, LCL_F64, A.nnz, 2.0, x, y) == LCL_OK) {
        for (i = 0; i < A.nnz; i++) if (y[i] != 2.0 * x[i]) rc = 1;
        printf("axpy on %lld values: %s\n", (long long)A.nnz, rc ? "WRONG" : "ok");
    } else {
        fprintf(stderr, "axpy: %s\n", lcl_last_error(ctx));
        rc = 1;
    }
    free(y);
    lcl_coo_free(&A);
    lcl_context_destroy(ctx);
    return rc;
}
