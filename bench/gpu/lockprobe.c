/* lockprobe.c -- the host's cost of an enqueue when two threads feed two GPUs: one cl_context
   shared by both (the library's default, LCL_SHARED_CONTEXT) against a context each. Each thread
   issues N commands to its own device's queue (kernel launches; 1 KB non-blocking writes; a
   marker and a status query of its event), alone and then both threads at once; microseconds per
   command on each thread. Plain OpenCL, no library. (Two H200s, 2026-11-30: shared 5.7 us a launch
   alone, 9.5 / 12.7 with both threads; a context each 4.7 alone, 5.6 / 6.8: the driver serializes
   one context's enqueues across threads, BENCHMARKS.md.)
   LOCKPROBE_ALL=1 takes any two devices of a platform (two PoCL devices: POCL_DEVICES="pthread pthread").
   Build: gcc -O2 -std=c99 -pthread bench/gpu/lockprobe.c -lOpenCL -o build/lockprobe && build/lockprobe [N] */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e3 + 1e-6 * t.tv_nsec; }
#define CK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { printf("%s:%d: %s = %d\n", __FILE__, __LINE__, #x, e_); exit(1); } } while (0)
static const char *src = "__kernel void k(__global int *a, int v) { if (get_global_id(0) == 0) a[0] += v; }";
typedef struct { cl_context c; cl_command_queue q; cl_kernel k; cl_mem b; int n, what; double t; char host[4096]; } job;
static void *run(void *arg) {
    job *j = (job *)arg;
    double t0 = now();
    int i, v = 1;
    size_t g = 64, l = 64;
    for (i = 0; i < j->n; i++) {
        if (j->what == 0) { CK(clSetKernelArg(j->k, 1, sizeof v, &v)); CK(clEnqueueNDRangeKernel(j->q, j->k, 1, NULL, &g, &l, 0, NULL, NULL)); }
        else if (j->what == 1) CK(clEnqueueWriteBuffer(j->q, j->b, CL_FALSE, 0, 1024, j->host, 0, NULL, NULL));
        else { cl_event e; cl_int s; CK(clEnqueueMarkerWithWaitList(j->q, 0, NULL, &e)); CK(clGetEventInfo(e, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL)); clReleaseEvent(e); }
        if (i % 500 == 499) clFlush(j->q);
    }
    j->t = now() - t0;
    CK(clFinish(j->q));
    return NULL;
}
int main(int argc, char **argv) {
    cl_platform_id pl[8]; cl_uint np, ip, nd = 0, i;
    cl_device_id dv[8];
    cl_int e;
    int n = argc > 1 ? atoi(argv[1]) : 4000, shared, what;
    CK(clGetPlatformIDs(8, pl, &np));
    for (ip = 0; ip < np; ip++) if (clGetDeviceIDs(pl[ip], getenv("LOCKPROBE_ALL") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 8, dv, &nd) == CL_SUCCESS && nd >= 2) break;
    if (nd < 2) { printf("need two GPUs (LOCKPROBE_ALL=1: any two devices of a platform)\n"); return 0; }
    for (shared = 1; shared >= 0; shared--) {
        job J[2];
        for (i = 0; i < 2; i++) {
            cl_program p;
            if (shared && i == 1) J[1].c = J[0].c, clRetainContext(J[0].c);
            else { J[i].c = clCreateContext(NULL, shared ? 2 : 1, shared ? dv : &dv[i], NULL, NULL, &e); CK(e); }
            J[i].q = clCreateCommandQueue(J[i].c, dv[i], 0, &e); CK(e);
            p = clCreateProgramWithSource(J[i].c, 1, &src, NULL, &e); CK(e);
            CK(clBuildProgram(p, 1, &dv[i], "", NULL, NULL));
            J[i].k = clCreateKernel(p, "k", &e); CK(e);
            J[i].b = clCreateBuffer(J[i].c, CL_MEM_READ_WRITE, 4096, NULL, &e); CK(e);
            CK(clSetKernelArg(J[i].k, 0, sizeof(cl_mem), &J[i].b));
            J[i].n = n;
        }
        for (what = 0; what < 3; what++) {
            static const char *nm[3] = {"kernel launches", "1 KB writes", "marker + status query"};
            pthread_t th;
            double w;
            J[0].what = J[1].what = what;
            run(&J[0]); run(&J[0]);   /* warm */
            run(&J[0]);
            printf("%s context, %-22s one thread:  %.2f us each\n", shared ? "shared" : "own   ", nm[what], J[0].t * 1e3 / n);
            w = now();
            pthread_create(&th, NULL, run, &J[1]);
            run(&J[0]);
            pthread_join(th, NULL);
            w = now() - w;
            printf("%s context, %-22s two threads: %.2f / %.2f us each (wall %.2f ms for %d)\n", shared ? "shared" : "own   ", nm[what], J[0].t * 1e3 / n,
                   J[1].t * 1e3 / n, w, 2 * n);
        }
        for (i = 0; i < 2; i++) clReleaseCommandQueue(J[i].q), clReleaseContext(J[i].c);
    }
    return 0;
}
