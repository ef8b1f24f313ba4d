#define _POSIX_C_SOURCE 200809L
/* potf2_probe.c -- time lcl_potf2_inv_d (kernels/dense.cl: POTF2 of one 64 x 64 block with its
   inverse, the Cholesky step's chain) alone on the first GPU, for each option string given, and
   check L L^T = A and Y L = I. With -DPW_STAMP the kernel records clock64() at its phases (work-item
   0) and the probe prints the phases' cycles.
     gcc -std=c99 -O1 bench/gpu/potf2_probe.c -lOpenCL -lm -o build/potf2_probe
     build/potf2_probe kernels/dense.cl "-DLCL_NV_CC=90 -DTC_SHAPE=2 -DPW_STAMP" */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
int main(int argc, char **argv) {
    const char *file = argc > 1 ? argv[1] : "kernels/dense.cl";
    FILE *f = fopen(file, "rb");
    if (!f) return 1;
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    char *src = malloc(n + 1); if (fread(src, 1, n, f) != (size_t)n) return 1; src[n] = 0; fclose(f);
    cl_platform_id pl[8]; cl_uint np = 0; clGetPlatformIDs(8, pl, &np);
    cl_device_id dev = 0;
    for (cl_uint i = 0; i < np && !dev; i++) if (clGetDeviceIDs(pl[i], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = 0;
    if (!dev) { printf("no GPU\n"); return 1; }
    cl_int e; cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    cl_command_queue q = clCreateCommandQueue(c, dev, CL_QUEUE_PROFILING_ENABLE, &e);
    enum { B = 64, NS = 16 };
    double A0[B * B], L[B * B], Y[B * B + NS];
    for (int i = 0; i < B; i++)
        for (int j = 0; j <= i; j++) {
            double v = i == j ? B : sin(1.0 + i * 7.0 + j * 3.0) * 0.5;
            A0[i * B + j] = A0[j * B + i] = v;
        }
    cl_mem a0 = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof A0, A0, &e);
    cl_mem a = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof A0, NULL, &e);
    cl_mem y = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof Y, NULL, &e);
    int zero = 0;
    cl_mem fl = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof zero, &zero, &e);
    for (int o = 2; o < argc; o++) {
        char opts[1024];
        snprintf(opts, sizeof opts, "-DLCL_FP64=1 -DLCL_WG=256 %s", argv[o]);
        cl_program p = clCreateProgramWithSource(c, 1, (const char **)&src, NULL, &e);
        e = clBuildProgram(p, 1, &dev, opts, NULL, NULL);
        if (e != CL_SUCCESS) {
            size_t ls = 0; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &ls);
            char *log = malloc(ls + 1); clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, ls, log, NULL); log[ls] = 0;
            printf("==== '%s': build %d\n%s\n", opts, e, log); free(log); continue;
        }
        cl_kernel k = clCreateKernel(p, "lcl_potf2_inv_d", &e);
        if (e != CL_SUCCESS) { printf("no kernel (%d)\n", e); continue; }
        cl_long off = 0; int ld = B, kb = B, base = 0;
        double zy = 0;
        clEnqueueFillBuffer(q, y, &zy, sizeof zy, 0, sizeof Y, 0, NULL, NULL);
        clSetKernelArg(k, 0, sizeof a, &a); clSetKernelArg(k, 1, sizeof off, &off); clSetKernelArg(k, 2, sizeof ld, &ld);
        clSetKernelArg(k, 3, sizeof kb, &kb); clSetKernelArg(k, 4, sizeof base, &base); clSetKernelArg(k, 5, sizeof fl, &fl);
        clSetKernelArg(k, 6, sizeof y, &y);
        enum { R = 60 };
        double t[R];
        size_t g = 256, l = 256;
        for (int r = 0; r < R; r++) {
            cl_event ev; cl_ulong t0, t1;
            clEnqueueCopyBuffer(q, a0, a, 0, 0, sizeof A0, 0, NULL, NULL);
            e = clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev);
            if (e != CL_SUCCESS) { printf("launch %d\n", e); break; }
            clWaitForEvents(1, &ev);
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof t0, &t0, NULL);
            clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof t1, &t1, NULL);
            t[r] = (t1 - t0) * 1e-3;
            clReleaseEvent(ev);
        }
        qsort(t, R, sizeof(double), cmpd);
        clEnqueueReadBuffer(q, a, CL_TRUE, 0, sizeof L, L, 0, NULL, NULL);
        clEnqueueReadBuffer(q, y, CL_TRUE, 0, sizeof Y, Y, 0, NULL, NULL);
        int fail = -1; clEnqueueReadBuffer(q, fl, CL_TRUE, 0, sizeof fail, &fail, 0, NULL, NULL);
        double er = 0, ey = 0;
        for (int i = 0; i < B; i++)
            for (int j = 0; j <= i; j++) {
                double s = 0, sy = 0;
                for (int kk = 0; kk <= j; kk++) s += L[i * B + kk] * L[j * B + kk];
                for (int kk = j; kk <= i; kk++) sy += Y[i * B + kk] * L[kk * B + j];
                er = fmax(er, fabs(s - A0[i * B + j]));
                ey = fmax(ey, fabs(sy - (i == j)));
            }
        printf("==== '%s': median %.2f us (min %.2f), |LL^T - A| %.1e, |YL - I| %.1e, fail %d\n", opts, t[R / 2], t[0], er, ey, fail);
        if (strstr(opts, "PW_STAMP")) {
            unsigned long long *s = (unsigned long long *)(Y + B * B);
            printf("   phase cycles:");
            for (int i = 1; i < NS && s[i]; i++) printf(" %llu", s[i] - s[i - 1]);
            printf("  (total %llu)\n", s[NS - 1] ? s[NS - 1] - s[0] : 0ULL);
        }
        clReleaseKernel(k); clReleaseProgram(p);
    }
    return 0;
}
