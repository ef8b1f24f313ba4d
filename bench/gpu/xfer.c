/* xfer.c -- where the time of a host-array factorization goes on one OpenCL device. For an n x n
   double matrix in each layout: lcl_dmat_upload, lcl_dmat_download (checked bit for bit against
   the input) and lcl_dmat_getrf (checked: no row swaps and a finite U diagonal near n, as a
   diagonally dominant input must give), each timed alone; then, for scale, a plain blocking
   clEnqueueWriteBuffer / clEnqueueReadBuffer of the same bytes from pageable host memory.
   Median of reps. Usage: xfer [device-spec] [n] [reps]   (default gpu 16384 3). Not a test. */
#define _POSIX_C_SOURCE 200809L
#define LINALG_CL_IMPLEMENTATION
#include "../../linalg_cl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

#define MAX_REPS 50

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec; }
/* median of t[0..n), sorting t in place (n is a handful of repetitions) */
static double median(double *t, int n) {
    int i, j;
    for (i = 1; i < n; i++)
        for (j = i; j > 0 && t[j - 1] > t[j]; j--) {
            double x = t[j];
            t[j] = t[j - 1];
            t[j - 1] = x;
        }
    return n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]);
}
static int fail(lcl_context *ctx, const char *what) {
    fprintf(stderr, "xfer: %s: %s\n", what, lcl_last_error(ctx));
    return 1;
}

int main(int argc, char **argv) {
    lcl_context_desc desc;
    lcl_context *ctx = NULL;
    lcl__device *d;
    long n = argc > 2 ? atol(argv[2]) : 16384;
    int reps = argc > 3 ? atoi(argv[3]) : 3, r, lay;
    size_t nn, i, bytes;
    double *src, *back, gb, t_up[MAX_REPS], t_f[MAX_REPS], t_down[MAX_REPS];
    int32_t *ipiv;
    if (n < 1 || n > 65536 || reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "usage: xfer [device-spec] [n: 1 to 65536] [reps: 1 to %d]\n", MAX_REPS);
        return 2;
    }
    nn = (size_t)n * (size_t)n;
    bytes = nn * sizeof(double);
    gb = (double)bytes / 1e9;
    memset(&desc, 0, sizeof desc);
    desc.backend = LCL_BACKEND_OPENCL;
    desc.device = argc > 1 ? argv[1] : "gpu";
    if (lcl_context_create(&desc, &ctx) != LCL_OK) return fail(ctx, "context");
    d = &ctx->dev[0];
    src = (double *)malloc(bytes);
    back = (double *)malloc(bytes);
    ipiv = (int32_t *)malloc((size_t)n * sizeof *ipiv);
    if (!src || !back || !ipiv) { fprintf(stderr, "xfer: out of host memory for n = %ld\n", n); return 1; }
    srand(1);
    for (i = 0; i < nn; i++) src[i] = (double)rand() / RAND_MAX - 0.5;
    for (i = 0; i < (size_t)n; i++) src[i * (size_t)n + i] += (double)n;   /* dominant both by rows and by columns */
    printf("device %s, n = %ld, double, %.2f GB, median of %d\n", d->info.name, n, gb, reps);
    for (lay = 0; lay < 2; lay++) {
        lcl_dense A, B;
        lcl_layout layout = lay ? LCL_ROW_MAJOR : LCL_COL_MAJOR;
        if (lcl_dense_wrap(ctx, &A, LCL_F64, layout, n, n, n, src) != LCL_OK || lcl_dense_wrap(ctx, &B, LCL_F64, layout, n, n, n, back) != LCL_OK)
            return fail(ctx, "lcl_dense_wrap");
        for (r = 0; r < reps; r++) {
            lcl_dmat *M = NULL;
            int64_t info = -1, k;
            double t0 = now();
            if (lcl_dmat_upload(ctx, &A, &M) != LCL_OK || lcl_finish(ctx) != LCL_OK) return fail(ctx, "lcl_dmat_upload");
            t_up[r] = now() - t0;
            memset(back, 0xff, bytes);   /* poison: a download that writes nothing fails the check */
            t0 = now();
            if (lcl_dmat_download(ctx, M, &B) != LCL_OK) return fail(ctx, "lcl_dmat_download");
            t_down[r] = now() - t0;
            if (memcmp(src, back, bytes)) { fprintf(stderr, "xfer: the download differs from the upload\n"); return 1; }
            t0 = now();
            if (lcl_dmat_getrf(ctx, M, ipiv, &info, NULL) != LCL_OK || lcl_finish(ctx) != LCL_OK) return fail(ctx, "lcl_dmat_getrf");
            t_f[r] = now() - t0;
            if (info != 0 || lcl_dmat_download(ctx, M, &B) != LCL_OK) return fail(ctx, "lcl_dmat_getrf result");
            for (k = 0; k < n; k++) {
                double u = lcl_dense_get(&B, k, k);
                if (ipiv[k] != k || !(u > 0.5 * (double)n && u < 1.5 * (double)n)) {
                    fprintf(stderr, "xfer: wrong factor at %lld (pivot %d, U diagonal %g)\n", (long long)k, (int)ipiv[k], u);
                    return 1;
                }
            }
            lcl_dmat_free(M);
        }
        printf("%s: upload %.4f s (%.1f GB/s), getrf %.4f s (%.1f GF/s), download %.4f s (%.1f GB/s)\n",
               lay ? "row-major" : "column-major", median(t_up, reps), gb / median(t_up, reps), median(t_f, reps),
               2.0 / 3.0 * (double)n * (double)n * (double)n / median(t_f, reps) / 1e9, median(t_down, reps), gb / median(t_down, reps));
    }
    {   /* the same bytes through the plain OpenCL calls: what the link gives pageable memory */
        cl_int e;
        cl_mem buf = LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_WRITE, bytes, NULL, &e);
        if (e != CL_SUCCESS) { fprintf(stderr, "xfer: clCreateBuffer of %zu bytes: %d\n", bytes, (int)e); return 1; }
        for (r = 0; r < reps; r++) {
            double t0 = now();
            e = LCL__CL->clEnqueueWriteBuffer(d->queue[0], buf, CL_TRUE, 0, bytes, src, 0, NULL, NULL);
            t_up[r] = now() - t0;
            memset(back, 0xff, bytes);
            t0 = now();
            if (e == CL_SUCCESS) e = LCL__CL->clEnqueueReadBuffer(d->queue[0], buf, CL_TRUE, 0, bytes, back, 0, NULL, NULL);
            t_down[r] = now() - t0;
            if (e != CL_SUCCESS || memcmp(src, back, bytes)) { fprintf(stderr, "xfer: plain write/read failed (%d)\n", (int)e); return 1; }
        }
        printf("clEnqueueWriteBuffer %.4f s (%.1f GB/s), clEnqueueReadBuffer %.4f s (%.1f GB/s)\n", median(t_up, reps),
               gb / median(t_up, reps), median(t_down, reps), gb / median(t_down, reps));
        LCL__CL->clReleaseMemObject(buf);
    }
    free(src);
    free(back);
    free(ipiv);
    lcl_context_destroy(ctx);
    return 0;
}
