/* l2part: does x's gather in SpMV pay for where an SM sits against H100/H200's two L2 halves?
   1. Latency: SM 0 reads a 4 MB region, then SM b chases pointers through it (one warp, clock64):
      an SM whose L2 half holds SM 0's lines answers sooner. One fresh region per b.
   2. Gathers: s += val[k] * x[col[k]] over NNZ uniform columns of an x of N doubles (32 MB at
      4M, more than one half's 25 MB): plain; columns folded into N/2; and the nonzeros cut by
      column halves, each work-group (persistent, one queue a half) taking the half its SM's map
      names, the other half's queue after its own is empty. A map that matches the L2 halves
      should run like the folded x; a map that does not, like the plain one.
   gcc -O2 -std=c99 bench/gpu/l2part.c -lOpenCL -lm -o build/l2part && build/l2part [N] [NNZ] [--f32] */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *src =
"#ifdef USE_F64\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#define real double\n#else\n#define real float\n#endif\n"
"#ifdef __NV_CL_C_VERSION\n"
"uint smid(void) { uint s; asm volatile(\"mov.u32 %0, %%smid;\" : \"=r\"(s)); return s; }\n"
"ulong clk(void) { ulong c; asm volatile(\"mov.u64 %0, %%clock64;\" : \"=l\"(c)); return c; }\n"
"#else\n"
"uint smid(void) { return get_group_id(0) % 8; }\n"
"ulong clk(void) { return 0; }\n"
"#endif\n"
/* the first group on SM sm claims the launch (claim[0] from 0); the rest leave */
"int claim_sm(int sm, __global int *claim, __local int *okp) {\n"
"  __local int *ok = okp;\n"
"  if (get_local_id(0) == 0) *ok = smid() == (uint)sm ? atomic_inc(claim) == 0 : 0;\n"
"  barrier(CLK_LOCAL_MEM_FENCE);\n"
"  return *ok;\n"
"}\n"
"__kernel void warm(__global const int *r, int n, int sm, __global int *claim, __global int *sink) {\n"
"  __local int ok;\n"
"  if (claim_sm(sm, claim, &ok)) {\n"
"    int s = 0, k;\n"
"    for (k = get_local_id(0); k < n; k += get_local_size(0)) s += r[k];\n"
"    if (s == 123456789) sink[0] = s;\n"
"  }\n"
"}\n"
"__kernel void chase(__global const int *r, int steps, int sm, __global int *claim, __global ulong *out) {\n"
"  __local int ok;\n"
"  if (claim_sm(sm, claim, &ok) && get_local_id(0) == 0) {\n"
"    int i = 0, s; ulong t0 = clk();\n"
"    for (s = 0; s < steps; s++) i = r[i];\n"
"    ulong t1 = clk();\n"
"    out[0] = (t1 - t0) / (ulong)steps; out[1] = (ulong)i; out[2] = smid();\n"
"  }\n"
"}\n"
"__kernel void gplain(const int nnz, __global const int *col, __global const real *val, __global const real *x, __global real *out) {\n"
"  real s = 0; int k;\n"
"  for (k = get_global_id(0); k < nnz; k += get_global_size(0)) s += val[k] * x[col[k]];\n"
"  out[get_global_id(0)] = s;\n"
"}\n"
/* ctr[0], ctr[1]: the next chunk of half 0 = [0, m), half 1 = [m, nnz); map[smid] (or the group's
   parity when map[0] < 0 ... see host) picks a work-group's own half */
"#define CH 4096\n"
"__kernel void gpart(const int m, const int nnz, __global const int *col, __global const real *val, __global const real *x,\n"
"                    __global const int *map, const int bygroup, __global int *ctr, __global real *out) {\n"
"  __local int base;\n"
"  int p = bygroup ? (int)(get_group_id(0) & 1) : map[smid()], lid = get_local_id(0), h, k;\n"
"  real s = 0;\n"
"  for (h = 0; h < 2; h++) {\n"
"    int q = h ? 1 - p : p, lo = q ? m : 0, hi = q ? nnz : m;\n"
"    for (;;) {\n"
"      if (lid == 0) base = lo + atomic_add(ctr + q, CH);\n"
"      barrier(CLK_LOCAL_MEM_FENCE);\n"
"      int b = base, e = min(b + CH, hi);\n"
"      barrier(CLK_LOCAL_MEM_FENCE);\n"
"      if (b >= hi) break;\n"
"      for (k = b + lid; k < e; k += get_local_size(0)) s += val[k] * x[col[k]];\n"
"    }\n"
"  }\n"
"  out[get_global_id(0)] = s;\n"
"}\n";

#define CK(e, what) do { cl_int e_ = (e); if (e_ != CL_SUCCESS) { fprintf(stderr, "%s: %d\n", what, e_); exit(1); } } while (0)
static cl_context ctx; static cl_command_queue q; static cl_device_id dev;
static cl_mem buf(size_t n, const void *h) {
    cl_int e; cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE | (h ? CL_MEM_COPY_HOST_PTR : 0), n, (void *)h, &e);
    CK(e, "buffer"); return b;
}
static double run(cl_kernel k, size_t g, size_t l) {
    cl_event ev; cl_ulong a, b;
    CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &l, 0, NULL, &ev), "launch");
    CK(clWaitForEvents(1, &ev), "wait");
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
    clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL);
    clReleaseEvent(ev);
    return (double)(b - a) * 1e-6;
}
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }
static unsigned long long rs = 88172645463325252ULL;
static unsigned rnd(void) { rs ^= rs << 13; rs ^= rs >> 7; rs ^= rs << 17; return (unsigned)(rs >> 11); }

int main(int argc, char **argv) {
    int N = 4000000, NNZ = 64000000, f64 = 1, i, reps = 20;
    for (i = 1; i < argc; i++) { if (!strcmp(argv[i], "--f32")) f64 = 0; else if (N == 4000000 && i == 1) N = atoi(argv[i]); else NNZ = atoi(argv[i]); }
    size_t rsz = f64 ? 8 : 4;
    cl_platform_id pl[8]; cl_uint np = 0; clGetPlatformIDs(8, pl, &np);
    dev = 0;
    for (cl_uint p = 0; p < np && !dev; p++) if (clGetDeviceIDs(pl[p], CL_DEVICE_TYPE_GPU, 1, &dev, NULL) != CL_SUCCESS) dev = 0;
    for (cl_uint p = 0; p < np && !dev; p++) if (clGetDeviceIDs(pl[p], CL_DEVICE_TYPE_ALL, 1, &dev, NULL) != CL_SUCCESS) dev = 0;
    if (!dev) { printf("no device\n"); return 1; }
    char name[256]; cl_uint ncu; clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL);
    clGetDeviceInfo(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof ncu, &ncu, NULL);
    cl_int e; ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &e); CK(e, "context");
    q = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &e); CK(e, "queue");
    cl_program pr = clCreateProgramWithSource(ctx, 1, &src, NULL, &e);
    if (clBuildProgram(pr, 1, &dev, f64 ? "-DUSE_F64" : "", NULL, NULL) != CL_SUCCESS) {
        char lg[16384]; clGetProgramBuildInfo(pr, dev, CL_PROGRAM_BUILD_LOG, sizeof lg, lg, NULL); printf("%s\n", lg); return 1;
    }
    cl_kernel kw = clCreateKernel(pr, "warm", &e), kc = clCreateKernel(pr, "chase", &e);
    cl_kernel kp = clCreateKernel(pr, "gplain", &e), kg = clCreateKernel(pr, "gpart", &e); CK(e, "kernels");
    int nsm = (int)ncu + 16;   /* %smid may run past the count */
    printf("%s, %u units, %s, x %d (%.1f MB), nnz %d\n", name, ncu, f64 ? "double" : "single", N, N * rsz / 1e6, NNZ);

    /* 1. latency from each SM to the lines SM 0 read */
    const int RI = 1 << 20, LINES = RI / 32, STEPS = 8192;
    int *reg = (int *)malloc((size_t)RI * 4), *perm = (int *)malloc((size_t)LINES * 4);
    cl_mem R = buf((size_t)RI * 4, NULL), claim = buf(8, NULL), sink = buf(8, NULL), outl = buf(32, NULL);
    cl_mem big = 0;
    double *lat = (double *)calloc((size_t)nsm, sizeof(double));
    int *map = (int *)calloc(256, sizeof(int)), b, zero2[2] = {0, 0};
    for (b = -1; b < nsm; b++) {   /* b = -1: SM 0 through a region no one read (memory) */
        for (i = 0; i < LINES; i++) perm[i] = i;
        for (i = LINES - 1; i > 0; i--) { int j = (int)(rnd() % (unsigned)(i + 1)), t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
        memset(reg, 0, (size_t)RI * 4);
        for (i = 0; i < LINES; i++) reg[perm[i] * 32] = perm[(i + 1) % LINES] * 32;
        reg[0] = perm[0] * 32;
        CK(clEnqueueWriteBuffer(q, R, CL_TRUE, 0, (size_t)RI * 4, reg, 0, NULL, NULL), "write");
        /* the write itself leaves lines in L2: a 200 MB fill pushes them out */
        {
            int z = 0;
            if (!big) big = buf((size_t)200 << 20, NULL);
            CK(clEnqueueFillBuffer(q, big, &z, 4, 0, (size_t)200 << 20, 0, NULL, NULL), "fill");
        }
        int sm = 0, steps = STEPS, n = RI;
        size_t g = 8 * ncu * 32, l = 32;
        if (b >= 0) {
            CK(clEnqueueWriteBuffer(q, claim, CL_TRUE, 0, 8, zero2, 0, NULL, NULL), "claim");
            clSetKernelArg(kw, 0, sizeof R, &R); clSetKernelArg(kw, 1, 4, &n); clSetKernelArg(kw, 2, 4, &sm);
            clSetKernelArg(kw, 3, sizeof claim, &claim); clSetKernelArg(kw, 4, sizeof sink, &sink);
            run(kw, g, l);
        }
        cl_ulong o[4] = {0, 0, 0, 0};
        CK(clEnqueueWriteBuffer(q, outl, CL_TRUE, 0, 32, o, 0, NULL, NULL), "out");
        CK(clEnqueueWriteBuffer(q, claim, CL_TRUE, 0, 8, zero2, 0, NULL, NULL), "claim");
        sm = b < 0 ? 0 : b;
        clSetKernelArg(kc, 0, sizeof R, &R); clSetKernelArg(kc, 1, 4, &steps); clSetKernelArg(kc, 2, 4, &sm);
        clSetKernelArg(kc, 3, sizeof claim, &claim); clSetKernelArg(kc, 4, sizeof outl, &outl);
        run(kc, g, l);
        CK(clEnqueueReadBuffer(q, outl, CL_TRUE, 0, 32, o, 0, NULL, NULL), "read");
        if (b < 0) printf("memory (SM 0, region not read): %llu cycles a load\n", (unsigned long long)o[0]);
        else lat[b] = (double)o[0];
    }
    double lo = 1e30, hi = 0;
    int nseen = 0;
    for (b = 0; b < nsm; b++) if (lat[b] > 0) { nseen++; if (lat[b] < lo) lo = lat[b]; if (lat[b] > hi) hi = lat[b]; }
    int cnt[2] = {0, 0};
    printf("L2 latency after SM 0 read the lines (cycles), SMs seen %d, min %.0f max %.0f:\n", nseen, lo, hi);
    for (b = 0; b < nsm; b++) {
        if (lat[b] <= 0) { map[b] = 0; continue; }
        map[b] = lat[b] > 0.5 * (lo + hi);
        cnt[map[b]]++;
        printf(" %3d:%4.0f%s", b, lat[b], (b % 10 == 9) ? "\n" : "");
    }
    printf("\nmap by latency: %d near SM 0, %d far\n", cnt[0], cnt[1]);

    /* 2. gathers */
    int *col = (int *)malloc((size_t)NNZ * 4), *colf = (int *)malloc((size_t)NNZ * 4), *colp = (int *)malloc((size_t)NNZ * 4);
    char *val = (char *)malloc((size_t)NNZ * rsz), *valp = (char *)malloc((size_t)NNZ * rsz), *xh = (char *)malloc((size_t)N * rsz);
    int m = 0, k, h = N / 2;
    for (i = 0; i < N; i++) { double v = 1.0 + (i % 7) * 0.125; if (f64) ((double *)xh)[i] = v; else ((float *)xh)[i] = (float)v; }
    for (k = 0; k < NNZ; k++) {
        col[k] = (int)(rnd() % (unsigned)N); colf[k] = col[k] % h;
        double v = 0.5 + (k % 5) * 0.25; if (f64) ((double *)val)[k] = v; else ((float *)val)[k] = (float)v;
        if (col[k] < h) m++;
    }
    { int a = 0, z = m; for (k = 0; k < NNZ; k++) { int t = col[k] < h ? a++ : z++; colp[t] = col[k]; memcpy(valp + (size_t)t * rsz, val + (size_t)k * rsz, rsz); } }
    cl_mem C = buf((size_t)NNZ * 4, col), CF = buf((size_t)NNZ * 4, colf), CP = buf((size_t)NNZ * 4, colp);
    cl_mem V = buf((size_t)NNZ * rsz, val), VP = buf((size_t)NNZ * rsz, valp), X = buf((size_t)N * rsz, xh);
    size_t G = (size_t)ncu * 2048, L = 256;
    cl_mem O = buf(G * rsz, NULL), CT = buf(8, NULL), M = buf(256 * 4, NULL);
    double t[64], ref = 0;
    const char *names[] = {"plain", "folded into N/2", "halves, map by latency", "halves, map by latency inverted",
                           "halves, smid & 1", "halves, smid >= units/2", "halves, (smid >> 1) & 1", "halves, (smid >> 2) & 1",
                           "halves, (smid >> 3) & 1", "halves, (smid >> 4) & 1", "halves, group parity (no SM)", "halves, every group half 0 first"};
    int nv = 12, v, r;
    for (v = 0; v < nv; v++) {
        int mm[256], bygroup = v == 10;
        for (i = 0; i < 256; i++) {
            switch (v) {
            case 2: mm[i] = map[i]; break;
            case 3: mm[i] = 1 - map[i]; break;
            case 4: mm[i] = i & 1; break;
            case 5: mm[i] = i >= (int)ncu / 2; break;
            case 6: mm[i] = (i >> 1) & 1; break;
            case 7: mm[i] = (i >> 2) & 1; break;
            case 8: mm[i] = (i >> 3) & 1; break;
            case 9: mm[i] = (i >> 4) & 1; break;
            default: mm[i] = 0;
            }
        }
        CK(clEnqueueWriteBuffer(q, M, CL_TRUE, 0, sizeof mm, mm, 0, NULL, NULL), "map");
        for (r = 0; r < reps + 2; r++) {
            if (v < 2) {
                cl_mem cc = v == 1 ? CF : C;
                clSetKernelArg(kp, 0, 4, &NNZ); clSetKernelArg(kp, 1, sizeof cc, &cc); clSetKernelArg(kp, 2, sizeof V, &V);
                clSetKernelArg(kp, 3, sizeof X, &X); clSetKernelArg(kp, 4, sizeof O, &O);
                t[r] = run(kp, G, L);
            } else {
                CK(clEnqueueWriteBuffer(q, CT, CL_TRUE, 0, 8, zero2, 0, NULL, NULL), "ctr");
                clSetKernelArg(kg, 0, 4, &m); clSetKernelArg(kg, 1, 4, &NNZ); clSetKernelArg(kg, 2, sizeof CP, &CP);
                clSetKernelArg(kg, 3, sizeof VP, &VP); clSetKernelArg(kg, 4, sizeof X, &X); clSetKernelArg(kg, 5, sizeof M, &M);
                clSetKernelArg(kg, 6, 4, &bygroup); clSetKernelArg(kg, 7, sizeof CT, &CT); clSetKernelArg(kg, 8, sizeof O, &O);
                t[r] = run(kg, G, L);
            }
        }
        {
            double tot = 0, want = 0;
            char *oh = (char *)malloc(G * rsz);
            CK(clEnqueueReadBuffer(q, O, CL_TRUE, 0, G * rsz, oh, 0, NULL, NULL), "read");
            for (i = 0; i < (int)G; i++) tot += f64 ? ((double *)oh)[i] : ((float *)oh)[i];
            for (k = 0; k < NNZ; k++) {
                int c = v == 1 ? colf[k] : col[k];
                want += (f64 ? ((double *)val)[k] : ((float *)val)[k]) * (f64 ? ((double *)xh)[c] : ((float *)xh)[c]);
            }
            free(oh);
            if (fabs(tot - want) > 1e-4 * fabs(want)) printf("%s: WRONG total %.6e, want %.6e\n", names[v], tot, want);
        }
        qsort(t + 2, (size_t)reps, sizeof(double), cmpd);
        double med = t[2 + reps / 2];
        if (v == 0) ref = med;
        /* a check: the sums' total against the host's */
        printf("%-36s %8.4f ms  %7.1f GF/s  %.3fx plain\n", names[v], med, 2.0 * NNZ / med * 1e-6, ref / med);
    }
    return 0;
}
