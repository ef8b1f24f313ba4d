/* xctx.c -- OpenCL transfer paths between the host and the GPUs, and between two GPUs: a context
   per device (as linalg_cl makes them) against one context for all GPUs of the platform. Plain
   OpenCL, no library. GB/s, median of 5 copies of SIZE MiB (argv[1], default 1024).
   Build: gcc -O2 -std=c99 bench/gpu/xctx.c -lOpenCL -o build/xctx */
#define _POSIX_C_SOURCE 199309L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
#define CK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { printf("%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_); exit(1); } } while (0)
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static size_t SZ;
/* fn runs one copy (and waits); the median of 5 after one warm-up, as GB/s of bytes */
#define MEDIAN(label, bytes, body) do { double ts_[6]; int r_; for (r_ = 0; r_ < 6; r_++) { double t0_ = now(); body; ts_[r_] = now() - t0_; } \
    qsort(ts_ + 1, 5, sizeof(double), cmpd); printf("%-58s %7.1f GB/s\n", label, (double)(bytes) / ts_[3] / 1e9); fflush(stdout); } while (0)

int main(int argc, char **argv) {
    cl_platform_id pl[8]; cl_uint np, ip, nd = 0, i;
    cl_device_id dv[8];
    cl_int e;
    char lab[128];
    SZ = (size_t)(argc > 1 ? atoi(argv[1]) : 1024) << 20;
    CK(clGetPlatformIDs(8, pl, &np));
    for (ip = 0; ip < np; ip++) if (clGetDeviceIDs(pl[ip], getenv("XCTX_ALL") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 8, dv, &nd) == CL_SUCCESS && nd) break;
    if (!nd) { printf("no GPU\n"); return 0; }
    printf("%u GPU(s), %zu MiB copies\n", nd, SZ >> 20);
    char *host = malloc(SZ);
    memset(host, 1, SZ);
    /* a context per device */
    for (i = 0; i < nd; i++) {
        cl_context c = clCreateContext(NULL, 1, &dv[i], NULL, NULL, &e); CK(e);
        cl_command_queue q = clCreateCommandQueue(c, dv[i], 0, &e); CK(e);
        cl_mem b = clCreateBuffer(c, CL_MEM_READ_WRITE, SZ, NULL, &e); CK(e);
        cl_mem pb = clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR, SZ, NULL, &e); CK(e);
        void *p = clEnqueueMapBuffer(q, pb, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, SZ, 0, NULL, NULL, &e); CK(e);
        memset(p, 1, SZ);
        snprintf(lab, sizeof lab, "own context, gpu%u: write from pageable", i);
        MEDIAN(lab, SZ, CK(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, SZ, host, 0, NULL, NULL)));
        snprintf(lab, sizeof lab, "own context, gpu%u: read to pageable", i);
        MEDIAN(lab, SZ, CK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, SZ, host, 0, NULL, NULL)));
        snprintf(lab, sizeof lab, "own context, gpu%u: write from mapped pinned", i);
        MEDIAN(lab, SZ, CK(clEnqueueWriteBuffer(q, b, CL_TRUE, 0, SZ, p, 0, NULL, NULL)));
        snprintf(lab, sizeof lab, "own context, gpu%u: read to mapped pinned", i);
        MEDIAN(lab, SZ, CK(clEnqueueReadBuffer(q, b, CL_TRUE, 0, SZ, p, 0, NULL, NULL)));
        snprintf(lab, sizeof lab, "own context, gpu%u: copy pinned buffer -> buffer", i);
        MEDIAN(lab, SZ, CK(clEnqueueCopyBuffer(q, pb, b, 0, 0, SZ, 0, NULL, NULL)); CK(clFinish(q)));
        snprintf(lab, sizeof lab, "own context, gpu%u: memcpy pageable -> mapped pinned", i);
        MEDIAN(lab, SZ, memcpy(p, host, SZ));
        CK(clEnqueueUnmapMemObject(q, pb, p, 0, NULL, NULL)); CK(clFinish(q));
        clReleaseMemObject(pb); clReleaseMemObject(b); clReleaseCommandQueue(q); clReleaseContext(c);
    }
    if (nd < 2) return 0;
    /* one context for all: pinned memory is pinned for every device */
    {
        cl_context c = clCreateContext(NULL, nd, dv, NULL, NULL, &e); CK(e);
        cl_command_queue q[8];
        cl_mem b[8], pb[8];
        void *p[8];
        for (i = 0; i < nd; i++) {
            q[i] = clCreateCommandQueue(c, dv[i], 0, &e); CK(e);
            b[i] = clCreateBuffer(c, CL_MEM_READ_WRITE, SZ, NULL, &e); CK(e);
            pb[i] = clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR, SZ, NULL, &e); CK(e);
            p[i] = clEnqueueMapBuffer(q[i], pb[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, SZ, 0, NULL, NULL, &e); CK(e);
            memset(p[i], 1, SZ);
            CK(clEnqueueWriteBuffer(q[i], b[i], CL_TRUE, 0, SZ, host, 0, NULL, NULL));  /* places b[i] on device i */
        }
        for (i = 0; i < nd; i++) {
            snprintf(lab, sizeof lab, "shared context, gpu%u: write from mapped pinned 0", i);
            MEDIAN(lab, SZ, CK(clEnqueueWriteBuffer(q[i], b[i], CL_TRUE, 0, SZ, p[0], 0, NULL, NULL)));
            snprintf(lab, sizeof lab, "shared context, gpu%u: read to mapped pinned 0", i);
            MEDIAN(lab, SZ, CK(clEnqueueReadBuffer(q[i], b[i], CL_TRUE, 0, SZ, p[0], 0, NULL, NULL)));
        }
        MEDIAN("shared context: gpu0 -> pinned -> gpu1 (read, then write)", SZ,
               CK(clEnqueueReadBuffer(q[0], b[0], CL_TRUE, 0, SZ, p[0], 0, NULL, NULL));
               CK(clEnqueueWriteBuffer(q[1], b[1], CL_TRUE, 0, SZ, p[0], 0, NULL, NULL)));
        /* b[0] was last written on gpu0: a copy on gpu1's queue makes the runtime move it */
        MEDIAN("shared context: clEnqueueCopyBuffer b0 -> b1 on gpu1's queue", SZ,
               CK(clEnqueueWriteBuffer(q[0], b[0], CL_FALSE, 0, 4096, host, 0, NULL, NULL)); CK(clFinish(q[0]));
               CK(clEnqueueCopyBuffer(q[1], b[0], b[1], 0, 0, SZ, 0, NULL, NULL)); CK(clFinish(q[1])));
        MEDIAN("shared context: clEnqueueCopyBuffer b0 -> b1 on gpu0's queue", SZ,
               CK(clEnqueueWriteBuffer(q[1], b[1], CL_FALSE, 0, 4096, host, 0, NULL, NULL)); CK(clFinish(q[1]));
               CK(clEnqueueCopyBuffer(q[0], b[0], b[1], 0, 0, SZ, 0, NULL, NULL)); CK(clFinish(q[0])));
        snprintf(lab, sizeof lab, "shared context: all %u GPUs write from own pinned at once", nd);
        MEDIAN(lab, (size_t)nd * SZ,
               for (i = 0; i < nd; i++) CK(clEnqueueWriteBuffer(q[i], b[i], CL_FALSE, 0, SZ, p[i], 0, NULL, NULL));
               for (i = 0; i < nd; i++) CK(clFinish(q[i])));
        snprintf(lab, sizeof lab, "shared context: all %u GPUs write from pageable at once", nd);
        MEDIAN(lab, (size_t)nd * SZ,
               for (i = 0; i < nd; i++) CK(clEnqueueWriteBuffer(q[i], b[i], CL_FALSE, 0, SZ, host, 0, NULL, NULL));
               for (i = 0; i < nd; i++) CK(clFinish(q[i])));
        for (i = 0; i < nd; i++) { clEnqueueUnmapMemObject(q[i], pb[i], p[i], 0, NULL, NULL); clFinish(q[i]); }
        for (i = 0; i < nd; i++) { clReleaseMemObject(pb[i]); clReleaseMemObject(b[i]); clReleaseCommandQueue(q[i]); }
        clReleaseContext(c);
    }
    free(host);
    return 0;
}
