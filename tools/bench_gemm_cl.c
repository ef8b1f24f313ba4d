/* bench_gemm_cl.c -- time the OpenCL GEMM kernels of the dense factorizations on one device:
   C = C - A*op(B) for the shapes LU and Cholesky produce, with and without the tensor-core path.
   Usage: bench_gemm_cl [device-spec [build-options [tc]]] (default "gpu"; a third argument skips the
   portable kernel). Not a test: prints TF/s and a max error. */
#define _POSIX_C_SOURCE 200809L
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include <stdio.h>
#include <time.h>

/* the row of column j's diagonal, as gemm_diag in kernels/dense.cl */
static int diag(int lo, int j) { int bw = lo >> 8; return bw ? j + j / bw * ((lo & 255) - 1) * bw : j; }
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec; }

int main(int argc, char **argv) {
    lcl_context_desc desc = {0};
    lcl_context *ctx;
    lcl__device *d;
    /* M, N, K, op(B) = B^T, lower triangle of C only (Cholesky's trailing update) */
    static const int shapes[][5] = {{8192, 8192, 8192, 0, 0}, {16384, 16384, 64, 0, 0}, {16384, 16384, 256, 0, 0}, {16384, 16384, 512, 0, 0},
                                    {16384, 16384, 512, 1, 0}, {15744, 15744, 640, 1, 1}, {8192, 8192, 640, 1, 1}, {15744, 640, 640, 1, 0},
                                    /* the split Cholesky's update on one of two devices (n = 32768, nb = 512, round-robin
                                       blocks: lower = 2 + (512 << 8)), against a full NT GEMM of about its flops */
                                    {32256, 15872, 512, 1, 2 + (512 << 8)}, {16128, 15872, 512, 1, 0}};
    size_t s;
    desc.backend = LCL_BACKEND_OPENCL;
    desc.device = argc > 1 ? argv[1] : "gpu";
    desc.build_options = argc > 2 ? argv[2] : NULL;   /* e.g. -DTC_ASM_VOLATILE */
    if (lcl_context_create(&desc, &ctx) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); return 1; }
    d = &ctx->dev[0];
    printf("device %s, tensor cores %s\n", d->info.name, d->tune.tc ? "available" : "no");
    for (s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int M = shapes[s][0], N = shapes[s][1], K = shapes[s][2], tb = shapes[s][3], lo = shapes[s][4], tc, rep;
        /* lower: the flops below the diagonal (the split's blocks: about M N - N^2 elements) */
        double flops = (lo == 1 ? (double)M * N : lo ? 2.0 * ((double)M * N - (double)N * N) : 2.0 * M * N) * K;
        size_t na = (size_t)M * K, nbb = (size_t)K * N, nc = (size_t)M * N, i;
        double *ha = (double *)malloc(na * 8), *hb = (double *)malloc(nbb * 8), *hc = (double *)malloc(nc * 8), *hr = (double *)malloc(nc * 8);
        cl_mem a, b, c;
        cl_int e;
        for (i = 0; i < na; i++) ha[i] = (double)((i * 7919) % 1000) / 1000.0 - 0.5;
        for (i = 0; i < nbb; i++) hb[i] = (double)((i * 104729) % 1000) / 1000.0 - 0.5;
        a = LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, na * 8, ha, &e);
        b = LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nbb * 8, hb, &e);
        c = LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_WRITE, nc * 8, NULL, &e);
        for (tc = 1; tc >= 0; tc--) {
            double best = 1e30, err = 0;
            int avail = d->tune.tc;
            if ((tc && !avail) || (!tc && argc > 3)) continue;   /* a third argument: the tensor-core kernel only */
            d->tune.tc = tc;
            for (rep = 0; rep < 4; rep++) {
                double t0;
                LCL__CL->clFinish(d->queue[0]);
                t0 = now();
                if (lcl__cl_gemm(ctx, d, LCL_F64, M, N, K, 1.0, a, 0, K, b, 0, tb ? K : N, tb, 0.0, c, 0, N, lo, d->queue[0]) != LCL_OK) {
                    fprintf(stderr, "%s\n", lcl_last_error(ctx)); return 1;
                }
                if ((e = LCL__CL->clFinish(d->queue[0])) != CL_SUCCESS) {   /* a kernel that faulted */
                    fprintf(stderr, "clFinish: %s\n", lcl__cl_errname(e));
                    return 1;
                }
                if (rep > 0 && now() - t0 < best) best = now() - t0;
            }
            LCL__CL->clEnqueueReadBuffer(d->queue[0], c, CL_TRUE, 0, nc * 8, tc ? hr : hc, 0, NULL, NULL);
            if (!tc && avail) for (i = 0; i < nc; i++) { double df; if (lo && diag(lo, (int)(i % (size_t)N)) > (int)(i / (size_t)N)) continue; df = fabs(hr[i] - hc[i]); if (df > err) err = df; }
            printf("M=%d N=%d K=%d %s%s %-8s %8.3f ms %7.2f TF/s%s", M, N, K, tb ? "NT" : "NN", lo ? " lower" : "", tc ? "tensor" : "portable",
                   best * 1e3, flops / best / 1e12, tc ? "\n" : "");
            if (!tc) printf("  max |tc - portable| %.2e\n", err);
            d->tune.tc = avail;
        }
        LCL__CL->clReleaseMemObject(a); LCL__CL->clReleaseMemObject(b); LCL__CL->clReleaseMemObject(c);
        free(ha); free(hb); free(hc); free(hr);
    }
    lcl_context_destroy(ctx);
    return 0;
}
