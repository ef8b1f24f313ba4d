#define _POSIX_C_SOURCE 200809L
/* lu_probe.c -- build kernels/bklu.cl with each given option string on the first GPU (DEVT=1: any
   device); print the build log and every kernel's limits; LAUNCH=1: time the pivot-LU kernels on one
   M x M block (M = 256, 512, 1024) at 256, 512 and 1024 work-items and check P A = L U.
     gcc -std=c99 -O1 bench/gpu/lu_probe.c -lOpenCL -o build/lu_probe
     LAUNCH=1 build/lu_probe kernels/bklu.cl "-DBK_LU_UNROLL=1" "-cl-nv-verbose"
   SPLIT=1 also times each kernel panel by panel with lcl_bklu_lu_upd_d (LCL_BKLU_LU_SPLIT; TAIL=R: the
   last R rows in one launch, LCL_BKLU_LU_TAIL); KB=32 with
   "-DLR_NB=32" for 32-wide panels; MMAX=512: the blocks up to 512 only; PROF=1 with "-DBK_PROF=1": each
   run's phases in SM clocks; TRI=P (with "-DBK_TRI_P=P"): also the inverses of the first kernel's factors */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char **argv) {
    const char *file = argc > 1 ? argv[1] : "kernels/bklu.cl";
    FILE *f = fopen(file, "rb"); if (!f) return 1;
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET);
    char *src = malloc(n + 1); if (fread(src, 1, n, f) != (size_t)n) return 1; src[n] = 0; fclose(f);
    cl_platform_id pl[8]; cl_uint np = 0; clGetPlatformIDs(8, pl, &np);
    cl_device_id dev = 0;
    for (cl_uint i = 0; i < np && !dev; i++) if (clGetDeviceIDs(pl[i], getenv("DEVT") ? CL_DEVICE_TYPE_ALL : CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = 0;
    if (!dev) { printf("no GPU\n"); return 1; }
    cl_int e; cl_context c = clCreateContext(NULL, 1, &dev, NULL, NULL, &e);
    for (int a = 2; a < argc; a++) {
        cl_program p = clCreateProgramWithSource(c, 1, (const char **)&src, NULL, &e);
        e = clBuildProgram(p, 1, &dev, argv[a], NULL, NULL);
        size_t ls = 0; clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &ls);
        char *log = malloc(ls + 1); clGetProgramBuildInfo(p, dev, CL_PROGRAM_BUILD_LOG, ls, log, NULL); log[ls] = 0;
        printf("==== options '%s': build %d\n%s\n", argv[a], e, log);
        cl_kernel ks[64]; cl_uint nk = 0;
        if (e == CL_SUCCESS && clCreateKernelsInProgram(p, 64, ks, &nk) == CL_SUCCESS)
            for (cl_uint k = 0; k < nk; k++) {
                char name[128]; size_t wg = 0; cl_ulong pm = 0, lm = 0;
                clGetKernelInfo(ks[k], CL_KERNEL_FUNCTION_NAME, sizeof name, name, NULL);
                clGetKernelWorkGroupInfo(ks[k], dev, CL_KERNEL_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
                clGetKernelWorkGroupInfo(ks[k], dev, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pm, &pm, NULL);
                clGetKernelWorkGroupInfo(ks[k], dev, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
                printf("  %-24s wg %4zu private %llu local %llu\n", name, wg, (unsigned long long)pm, (unsigned long long)lm);
                clReleaseKernel(ks[k]);
            }
        if (e == CL_SUCCESS && getenv("LAUNCH")) {   /* the pivot LU kernels on one M x M block (a launch per size) */
            static const char *kn[] = {"lcl_bklu_lu_d", "lcl_bklu_lu512_d", "lcl_bklu_lu1024_d", "lcl_bklu_lu_d", "lcl_bklu_lu_d"};
            static const size_t ws[] = {256, 512, 1024, 512, 1024};
            cl_command_queue q = clCreateCommandQueue(c, dev, 0, &e);
            size_t mx = 0; clGetDeviceInfo(dev, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof mx, &mx, NULL);
            printf("device max work-group %zu\n", mx);
            for (int m = 256; m <= (getenv("MMAX") ? atoi(getenv("MMAX")) : 1024); m *= 2) {
                double *h = malloc(sizeof(double) * m * m);
                int lst[3] = {0, 0, 0}, fpa = 1, lo = 0, nop = 0;
                cl_mem A = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof(double) * m * m, NULL, &e);
                cl_mem L = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof lst, lst, &e);
                cl_mem I = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof(int) * m, NULL, &e);
                cl_mem P = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof(int) * m, NULL, &e);
                int z14[22] = {0};   /* bad[0], then (-DBK_PROF=1) ten ulong phase counters from bad[2] */
                cl_mem Bd = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof z14, z14, &e);
                for (int k = 0; k < 5; k++) {
                    cl_kernel kk = clCreateKernel(p, kn[k], &e);
                    if (!kk) { printf("  %s: create %d\n", kn[k], e); continue; }
                    clSetKernelArg(kk, 0, sizeof A, &A); clSetKernelArg(kk, 1, sizeof A, &A); clSetKernelArg(kk, 2, sizeof A, &A); clSetKernelArg(kk, 3, sizeof A, &A);
                    clSetKernelArg(kk, 4, sizeof(int), &fpa); clSetKernelArg(kk, 5, sizeof(int), &m); clSetKernelArg(kk, 6, sizeof L, &L);
                    clSetKernelArg(kk, 7, sizeof(int), &lo); clSetKernelArg(kk, 8, sizeof I, &I); clSetKernelArg(kk, 9, sizeof P, &P);
                    clSetKernelArg(kk, 10, sizeof Bd, &Bd); clSetKernelArg(kk, 11, sizeof(int), &nop);
                    /* SPLIT=1: also panel by panel (kp = 0, 16, ...), each followed by lcl_bklu_lu_upd_d */
                    for (int sp = 0; sp < (getenv("SPLIT") ? 2 : 1); sp++) {
                    cl_kernel ku = sp ? clCreateKernel(p, "lcl_bklu_lu_upd_d", &e) : NULL;
                    int kp = -1, kb = getenv("KB") ? atoi(getenv("KB")) : 16;   /* KB: the panel width (LR_NB of the build) */
                    clSetKernelArg(kk, 12, sizeof(int), &kp);
                    if (ku) {
                        clSetKernelArg(ku, 0, sizeof A, &A); clSetKernelArg(ku, 1, sizeof A, &A); clSetKernelArg(ku, 2, sizeof A, &A); clSetKernelArg(ku, 3, sizeof A, &A);
                        clSetKernelArg(ku, 4, sizeof(int), &fpa); clSetKernelArg(ku, 5, sizeof(int), &m); clSetKernelArg(ku, 6, sizeof L, &L);
                        clSetKernelArg(ku, 7, sizeof(int), &lo); clSetKernelArg(ku, 9, sizeof(int), &kb);
                    }
                    if (sp && !ku) { printf("  no lcl_bklu_lu_upd_d: %d\n", e); break; }
                    double best = 1e9; cl_int el = 0;
                    clEnqueueWriteBuffer(q, Bd, CL_TRUE, 0, sizeof z14, z14, 0, NULL, NULL);
                    for (int r = 0; r < 4; r++) {
                        srand(7); for (long i = 0; i < (long)m * m; i++) h[i] = rand() / (double)RAND_MAX - 0.5;
                        clEnqueueWriteBuffer(q, A, CL_TRUE, 0, sizeof(double) * m * m, h, 0, NULL, NULL);
                        double t0 = now();
                        if (!ku) el = clEnqueueNDRangeKernel(q, kk, 1, NULL, &ws[k], &ws[k], 0, NULL, NULL);
                        for (kp = 0; ku && kp < m && el == CL_SUCCESS; kp += kb) {
                            size_t gu[3], lu3[3] = {16, 16, 1};
                            int tiles = (m - kp - kb + 63) / 64, tail = -kp - 2;
                            if (kp && getenv("TAIL") && m - kp <= atoi(getenv("TAIL"))) {   /* TAIL=R: the last R rows in one launch */
                                clSetKernelArg(kk, 12, sizeof(int), &tail);
                                el = clEnqueueNDRangeKernel(q, kk, 1, NULL, &ws[k], &ws[k], 0, NULL, NULL);
                                break;
                            }
                            clSetKernelArg(kk, 12, sizeof(int), &kp);
                            el = clEnqueueNDRangeKernel(q, kk, 1, NULL, &ws[k], &ws[k], 0, NULL, NULL);
                            if (el != CL_SUCCESS || tiles <= 0) continue;
                            gu[0] = gu[1] = (size_t)tiles * 16; gu[2] = 1;
                            clSetKernelArg(ku, 8, sizeof(int), &kp);
                            el = clEnqueueNDRangeKernel(q, ku, 3, NULL, gu, lu3, 0, NULL, NULL);
                        }
                        cl_int ef = clFinish(q);
                        double t = now() - t0;
                        if (el != CL_SUCCESS || ef != CL_SUCCESS) { el = el ? el : ef; break; }
                        if (t < best) best = t;
                    }
                    /* check: P A = L U on a few entries */
                    double err = 0;
                    unsigned long long hash = 0;
                    if (el == CL_SUCCESS) {
                        double *lu = malloc(sizeof(double) * m * m); int *pp = malloc(sizeof(int) * m);
                        clEnqueueReadBuffer(q, A, CL_TRUE, 0, sizeof(double) * m * m, lu, 0, NULL, NULL);
                        clEnqueueReadBuffer(q, P, CL_TRUE, 0, sizeof(int) * m, pp, 0, NULL, NULL);
                        hash = 1469598103934665603ull;   /* FNV-1a of the factors and the permutation: variants compared bit for bit */
                        for (long i = 0; i < (long)m * m * 8; i++) hash = (hash ^ ((unsigned char *)lu)[i]) * 1099511628211ull;
                        for (long i = 0; i < (long)m * 4; i++) hash = (hash ^ ((unsigned char *)pp)[i]) * 1099511628211ull;
                        for (int t = 0; t < 200; t++) {
                            int i = (t * 7919) % m, j = (t * 104729 + 13) % m; double s = 0;
                            for (int k2 = 0; k2 <= (i < j ? i : j); k2++) s += (k2 == i ? 1.0 : lu[(long)i * m + k2]) * lu[(long)k2 * m + j];
                            double d = s - h[(long)pp[i] * m + j]; if (d < 0) d = -d; if (d > err) err = d;
                        }
                        free(lu); free(pp);
                    }
                    printf("  M %4d %-18s wg %4zu %s: launch %d, %.3f ms, err %.2e, hash %016llx\n", m, kn[k], ws[k], sp ? "panel by panel" : "one launch", el,
                           1e3 * best, err, hash);
                    if (el == CL_SUCCESS && getenv("PROF")) {   /* start, panel columns, swaps, U12, rest's update, end: k clocks a run */
                        unsigned long long pc[11] = {0};
                        clEnqueueReadBuffer(q, Bd, CL_TRUE, 0, sizeof z14, pc, 0, NULL, NULL);
                        printf("      clocks/1000 a run: start %.1f, columns %.1f, swaps %.1f, U12 %.1f, update %.1f, end %.1f;"
                               " in the columns: search 1 %.1f, 2 %.1f, pivot row %.1f, update %.1f\n", pc[1] / 4e3,
                               pc[2] / 4e3, pc[3] / 4e3, pc[4] / 4e3, pc[5] / 4e3, pc[6] / 4e3, pc[7] / 4e3, pc[8] / 4e3, pc[9] / 4e3, pc[10] / 4e3);
                    }
                    if (ku) clReleaseKernel(ku);
                    if (sp && k == 0 && el == CL_SUCCESS && getenv("TRI")) {   /* TRI=P (the build's BK_TRI_P): the factors' inverses */
                        int tp = atoi(getenv("TRI")), lt[3] = {0, 1, 2};
                        cl_kernel kt = clCreateKernel(p, "lcl_bklu_trtri_d", &e);
                        cl_mem X1 = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof(double) * m * m, NULL, &e);
                        cl_mem X2 = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof(double) * m * m, NULL, &e);
                        cl_mem Pr = clCreateBuffer(c, CL_MEM_READ_WRITE, sizeof(double) * m * m, NULL, &e);
                        cl_mem Lt = clCreateBuffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, sizeof lt, lt, &e);
                        unsigned long long pz[3] = {0, 0, 0};
                        size_t gt[3] = {(size_t)((m + 63) / 64 * 64 * tp), 2, 1}, lt3[3] = {(size_t)(64 * tp), 1, 1};
                        double tb = 1e9, terr = 0;
                        unsigned long long th = 1469598103934665603ull;
                        clEnqueueWriteBuffer(q, Pr, CL_TRUE, 0, sizeof pz, pz, 0, NULL, NULL);
                        clSetKernelArg(kt, 0, sizeof A, &A); clSetKernelArg(kt, 1, sizeof X1, &X1); clSetKernelArg(kt, 2, sizeof X2, &X2);
                        clSetKernelArg(kt, 3, sizeof Pr, &Pr); clSetKernelArg(kt, 4, sizeof(int), &fpa); clSetKernelArg(kt, 5, sizeof(int), &m);
                        clSetKernelArg(kt, 6, sizeof Lt, &Lt); clSetKernelArg(kt, 7, sizeof(int), &lo);
                        for (int r = 0; r < 4 && el == CL_SUCCESS; r++) {
                            double t0 = now();
                            el = clEnqueueNDRangeKernel(q, kt, 3, NULL, gt, lt3, 0, NULL, NULL);
                            clFinish(q);
                            if (now() - t0 < tb) tb = now() - t0;
                        }
                        if (el == CL_SUCCESS) {   /* L Linv = I and U Uinv = I on a few entries */
                            double *lu = malloc(sizeof(double) * m * m), *x1 = malloc(sizeof(double) * m * m), *x2 = malloc(sizeof(double) * m * m);
                            clEnqueueReadBuffer(q, A, CL_TRUE, 0, sizeof(double) * m * m, lu, 0, NULL, NULL);
                            clEnqueueReadBuffer(q, X1, CL_TRUE, 0, sizeof(double) * m * m, x1, 0, NULL, NULL);
                            clEnqueueReadBuffer(q, X2, CL_TRUE, 0, sizeof(double) * m * m, x2, 0, NULL, NULL);
                            clEnqueueReadBuffer(q, Pr, CL_TRUE, 0, sizeof pz, pz, 0, NULL, NULL);
                            for (int t = 0; t < 200; t++) {
                                int i = (t * 7919) % m, j = (t * 104729 + 13) % m; double s1 = 0, s2 = 0;
                                for (int k2 = 0; k2 < m; k2++) {
                                    double l = k2 == i ? 1.0 : k2 < i ? lu[(long)i * m + k2] : 0, u = k2 >= i ? lu[(long)i * m + k2] : 0;
                                    s1 += l * x1[(long)k2 * m + j]; s2 += u * x2[(long)k2 * m + j];
                                }
                                s1 -= i == j; s2 -= i == j;
                                s1 = s1 < 0 ? -s1 : s1; s2 = s2 < 0 ? -s2 : s2;
                                terr = s1 > terr ? s1 : terr; terr = s2 > terr ? s2 : terr;
                            }
                            for (long i = 0; i < (long)m * m * 8; i++) th = (th ^ ((unsigned char *)x1)[i]) * 1099511628211ull;
                            for (long i = 0; i < (long)m * m * 8; i++) th = (th ^ ((unsigned char *)x2)[i]) * 1099511628211ull;
                            free(lu); free(x1); free(x2);
                        }
                        printf("  M %4d lcl_bklu_trtri_d P %d: launch %d, %.3f ms, err %.2e, hash %016llx; clocks/1000 a run: products %.1f, diagonal %.1f, stores %.1f\n",
                               m, tp, el, 1e3 * tb, terr, th, pz[0] / 4e3, pz[1] / 4e3, pz[2] / 4e3);
                        clReleaseKernel(kt); clReleaseMemObject(X1); clReleaseMemObject(X2); clReleaseMemObject(Pr); clReleaseMemObject(Lt);
                    }
                    }
                    clReleaseKernel(kk);
                }
                clReleaseMemObject(A); clReleaseMemObject(L); clReleaseMemObject(I); clReleaseMemObject(P); clReleaseMemObject(Bd); free(h);
            }
            clReleaseCommandQueue(q);
        }
        free(log); clReleaseProgram(p);
    }
    return 0;
}
