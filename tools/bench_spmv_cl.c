/* bench_spmv_cl.c -- time the OpenCL SpMV kernels (kernels/sparse.cl) on one matrix, one device.

   make build/bench_spmv_cl
   build/bench_spmv_cl [MATRIX.mtx | gen:poisson3d:M | gen:powerlaw:N:AVG] [--f32] [--reps N]
                       [--device SPEC] [--kernels csr-scalar,csr-vector,csr-merge,csr-auto,csc,ell,ell-image,sell]
                       [--sell C,SIGMA] [--build-options "-DX"] [--bound] [--variants "V1;V2;..."] [--fold W]
                       [--slabs S1,S2,...] [--slab-kernel auto|merge|vector|scalar]
   default: gen:poisson3d:60, double, 50 reps, the context's best device, every kernel.
   --bound: also the floors no product stored as (value, column) per nonzero gets under, each a
   grid-stride loop over the nonzeros with no rows and no y (one sum per work-item): "stream"
   reads the values and columns, "gather" also gathers x at the columns (the SpMV's work without
   its row structure), "gather-x" gathers x without the values, and in single "gather_pair" is
   "gather" with each value and its column side by side, one 8-byte load. Timed back to back, as
   "batch".
   --variants: the kernels again under each variant, a context apiece, the matrix loaded once; a
   variant is space-separated NAME=VALUE environment settings (LCL_SPMV_WG=64 LCL_SPMV_LDS=8
   LCL_BUILD_OPTIONS=-DSPMV_UNROLL=4,-DSPMV_HINT=1: commas in a value become spaces), unset again
   once its context exists.
   --fold W: every column index taken modulo W (duplicates summed) before anything is built: the
   same rows gathering from an x of W entries, i.e. what a product gains when its x fits a cache
   (the bound a column-slab layout can reach, before its extra passes over y).
   --slabs S,...: A cut into S column slabs of equal width, each its own CSR (auto kernel); a
   product runs the slabs in turn on one x and one y (the first with beta 0, the rest adding), so
   each pass gathers from an x of n / S entries. Timed as the kernels are, checked the same way.
   --slab-kernel: the slabs' CSR kernel (default auto: each slab's own choice).

   Per kernel: the matrix is uploaded, x (uniform in [-1,1]) written once, then one warm-up product
   and N products y = A*x on the device, each followed by clFinish: the median is reported, and the
   mean of N back-to-back products with a single clFinish (launch latency hidden, as CUDA-event
   timings of cuSPARSE are). Bytes (for GB/s) are the CSR minimum, whatever the format:
   values + int32 column indices + int32 row pointers + x + y; GF/s counts 2 flops per nonzero.
   Every kernel's y is checked against a host CSR product in double (max error relative to
   sum |a_ij x_j| of the row). Matrices are built by lcl_spmat_create (max_fill 3); the timed
   products call the part's kernels directly (lcl__sp_run), as lcl_spmv_vec would, without its
   checks. csc times A x, which runs the CSR kernels on the CSR kept on the device. */
#include "bench_common.h"
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include "lcl_gen.h"
#include <math.h>

static const char *bound_src =
    "#ifdef FP64\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\ntypedef double real;\n#else\ntypedef float real;\n#endif\n"
    "__kernel void stream(const long n, __global const real *v, __global const int *c, __global const real *x, __global real *o) {\n"
    "  real s = 0; for (long i = get_global_id(0); i < n; i += get_global_size(0)) s += v[i] * (real)c[i]; o[get_global_id(0)] = s; }\n"
    "__kernel void gather(const long n, __global const real *v, __global const int *c, __global const real *x, __global real *o) {\n"
    "  real s = 0; for (long i = get_global_id(0); i < n; i += get_global_size(0)) s += v[i] * x[c[i]]; o[get_global_id(0)] = s; }\n"
    "__kernel void gather_x(const long n, __global const real *v, __global const int *c, __global const real *x, __global real *o) {\n"
    "  real s = 0; for (long i = get_global_id(0); i < n; i += get_global_size(0)) s += x[c[i]]; o[get_global_id(0)] = s; }\n"
    "#ifndef FP64\n"
    "__kernel void gather_pair(const long n, __global const uint2 *p, __global const int *c, __global const real *x, __global real *o) {\n"
    "  real s = 0; for (long i = get_global_id(0); i < n; i += get_global_size(0)) { uint2 q = p[i]; s += as_float(q.y) * x[q.x]; }\n"
    "  o[get_global_id(0)] = s; }\n"
    "#endif\n";

/* --bound: the floors above, on device 0 of ctx, each the mean of reps launches back to back */
/* one result line, without its end: times, rates, and y's max error against the host product
   (relative to sum |a_ij x_j| of the row) */
static void result(const char *name, int reps, double med, double batch, double bytes, const lcl_csr *A, const void *yd, const double *ref,
                   const double *absref) {
    double maxerr = 0;
    int64_t i;
    for (i = 0; i < A->rows; i++) {
        double got = A->dtype == LCL_F32 ? (double)((const float *)yd)[i] : ((const double *)yd)[i], er = fabs(got - ref[i]) / absref[i];
        if (!(er <= maxerr)) maxerr = er;
    }
    printf("%-11s %-6d %10.4f %10.1f %9.1f %10.4f %10.1f  %.2e%s", name, reps, med * 1e3, bytes / med / 1e9, 2.0 * (double)A->nnz / med / 1e9,
           batch * 1e3, bytes / batch / 1e9, maxerr, maxerr > (A->dtype == LCL_F32 ? 1e-4 : 1e-12) ? "  WRONG" : "");
}

/* --slabs: one product as S passes over column slabs; the median and batch times */
static int slabs(lcl_context *ctx, const lcl_csr *A, int S, lcl_spmv_kernel kern, int reps, const void *xd, void *yd, double *tmed, double *tbatch) {
    lcl_spmat **M = (lcl_spmat **)calloc((size_t)S, sizeof *M);
    lcl_spmat_opts o;
    lcl__spdev *P0;
    lcl__device *d;
    size_t es = A->dtype == LCL_F32 ? 4 : 8;
    double *ts = (double *)malloc((size_t)reps * sizeof(double)), t;
    lcl_status st = LCL_OK;
    int s, a, ok = 0;
    memset(&o, 0, sizeof o);
    o.format = LCL_FMT_CSR;
    o.kernel = kern;
    for (s = 0; s < S && st == LCL_OK; s++) {   /* slab s: the entries with column in [lo, hi) */
        int64_t lo = A->cols * s / S, hi = A->cols * (s + 1) / S, i, k, nz = 0;
        lcl_csr B;
        B.dtype = A->dtype; B.rows = A->rows; B.cols = A->cols;
        B.ptr = (int64_t *)malloc(((size_t)A->rows + 1) * sizeof(int64_t));
        B.col = (int32_t *)malloc(((size_t)A->nnz + 1) * sizeof(int32_t));
        B.val = malloc(((size_t)A->nnz + 1) * es);
        for (i = 0; i < A->rows; i++) {
            B.ptr[i] = nz;
            for (k = A->ptr[i]; k < A->ptr[i + 1]; k++)
                if (A->col[k] >= lo && A->col[k] < hi) {
                    B.col[nz] = A->col[k];
                    memcpy((char *)B.val + nz * es, (const char *)A->val + k * es, es);
                    nz++;
                }
        }
        B.ptr[A->rows] = B.nnz = nz;
        st = lcl_spmat_create(ctx, &B, &o, &M[s]);
        free(B.ptr); free(B.col); free(B.val);
    }
    if (st != LCL_OK) { printf("slabs %d: %s\n", S, lcl_last_error(ctx)); lcl_clear_error(ctx); goto done; }
    P0 = &M[0]->part[0];
    d = &ctx->dev[P0->dev];
    if (LCL__CL->clEnqueueWriteBuffer(d->queue[0], P0->x, CL_TRUE, 0, (size_t)A->cols * es, xd, 0, NULL, NULL) != CL_SUCCESS) goto done;
    for (a = -1; a < reps && st == LCL_OK; a++) {   /* a = -1: the warm-up */
        t = now();
        for (s = 0; s < S && st == LCL_OK; s++)
            st = lcl__sp_run(ctx, M[s], &M[s]->part[0], P0->x, NULL, P0->y, 1.0, s ? 1.0 : 0.0, d->queue[0]);
        if (LCL__CL->clFinish(d->queue[0]) != CL_SUCCESS) st = LCL_ERR_OPENCL;
        if (a >= 0) ts[a] = now() - t;
    }
    t = now();
    for (a = 0; a < reps && st == LCL_OK; a++)
        for (s = 0; s < S && st == LCL_OK; s++)
            st = lcl__sp_run(ctx, M[s], &M[s]->part[0], P0->x, NULL, P0->y, 1.0, s ? 1.0 : 0.0, d->queue[0]);
    LCL__CL->clFinish(d->queue[0]);
    *tbatch = (now() - t) / reps;
    if (st != LCL_OK) { printf("slabs %d: %s\n", S, lcl_last_error(ctx)); lcl_clear_error(ctx); goto done; }
    *tmed = median(ts, reps);
    ok = LCL__CL->clEnqueueReadBuffer(d->queue[0], P0->y, CL_TRUE, 0, (size_t)A->rows * es, yd, 0, NULL, NULL) == CL_SUCCESS;
done:
    for (s = 0; s < S; s++) lcl_spmat_free(M[s]);
    free(M); free(ts);
    return ok;
}

/* --variants: apply (set 1) or undo (set 0) variant v's NAME=VALUE settings */
static void variant_env(const char *v, int set) {
    char buf[512], *tok, *c;
    snprintf(buf, sizeof buf, "%s", v);
    for (tok = strtok(buf, " "); tok; tok = strtok(NULL, " ")) {
        char *eq = strchr(tok, '=');
        if (!eq) continue;
        *eq = 0;
        for (c = eq + 1; *c; c++)
            if (*c == ',') *c = ' ';   /* commas within a value: spaces (several build options) */
        if (set) setenv(tok, eq + 1, 1);
        else unsetenv(tok);
    }
}

static int bound(lcl_context *ctx, const lcl_csr *A, lcl_dtype dt, const void *xd, int reps, double bytes) {
    static const char *names[4] = {"stream", "gather", "gather_x", "gather_pair"};
    lcl__device *d = &ctx->dev[0];
    size_t es = dt == LCL_F32 ? 4 : 8, lw = 256, gw = lw * 16 * (size_t)(d->info.compute_units > 0 ? d->info.compute_units : 1);
    cl_int e = CL_SUCCESS;
    cl_mem b[5] = {NULL, NULL, NULL, NULL, NULL};
    int nk = dt == LCL_F32 ? 4 : 3;   /* gather_pair: single only (a value and its column in 8 bytes) */
    cl_program prog = LCL__CL->clCreateProgramWithSource(d->cl, 1, &bound_src, NULL, &e);
    cl_long n = A->nnz;
    int k, a, ok = 0;
    if (e == CL_SUCCESS) e = LCL__CL->clBuildProgram(prog, 1, &d->id, dt == LCL_F32 ? "" : "-DFP64", NULL, NULL);
    if (e == CL_SUCCESS) b[0] = LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)A->nnz * es, A->val, &e);
    if (e == CL_SUCCESS) b[1] = LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)A->nnz * 4, A->col, &e);
    if (e == CL_SUCCESS) b[2] = LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)A->cols * es, (void *)xd, &e);
    if (e == CL_SUCCESS) b[3] = LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_WRITE, gw * es, NULL, &e);
    if (e == CL_SUCCESS && nk == 4) {
        uint32_t *pr = (uint32_t *)malloc((size_t)A->nnz * 8 + 8);
        int64_t i;
        if (!pr) { printf("bound: out of host memory\n"); nk = 3; }
        else {
            for (i = 0; i < A->nnz; i++) { pr[2 * i] = (uint32_t)A->col[i]; memcpy(&pr[2 * i + 1], (const float *)A->val + i, 4); }
            b[4] = LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, (size_t)A->nnz * 8, pr, &e);
            free(pr);
        }
    }
    for (k = 0; k < nk && e == CL_SUCCESS; k++) {
        cl_kernel kr = LCL__CL->clCreateKernel(prog, names[k], &e);
        double t;
        if (e != CL_SUCCESS) break;
        e = lcl__argv(kr, 5, LCL__A(n), LCL__A(b[k == 3 ? 4 : 0]), LCL__A(b[1]), LCL__A(b[2]), LCL__A(b[3]));
        for (a = 0; a < 2 && e == CL_SUCCESS; a++) e = LCL__CL->clEnqueueNDRangeKernel(d->queue[0], kr, 1, NULL, &gw, &lw, 0, NULL, NULL);   /* warm-up */
        if (e == CL_SUCCESS) e = LCL__CL->clFinish(d->queue[0]);
        t = now();
        for (a = 0; a < reps && e == CL_SUCCESS; a++) e = LCL__CL->clEnqueueNDRangeKernel(d->queue[0], kr, 1, NULL, &gw, &lw, 0, NULL, NULL);
        if (e == CL_SUCCESS) e = LCL__CL->clFinish(d->queue[0]);
        t = (now() - t) / reps;
        if (e == CL_SUCCESS) {
            double by = (double)A->nnz * (k == 2 ? 4.0 : (double)es + 4.0);
            printf("bound %-11s %10.4f ms  %8.1f GB/s of its own reads, %8.1f GF/s per nonzero; the CSR minimum at this time: %.1f GB/s\n", names[k],
                   t * 1e3, by / t / 1e9, 2.0 * (double)A->nnz / t / 1e9, bytes / t / 1e9);
            ok++;
        }
        LCL__CL->clReleaseKernel(kr);
    }
    if (e != CL_SUCCESS) printf("bound: OpenCL error %d (%s)\n", (int)e, lcl__cl_errname(e));
    for (k = 0; k < 5; k++)
        if (b[k]) LCL__CL->clReleaseMemObject(b[k]);
    if (prog) LCL__CL->clReleaseProgram(prog);
    return ok == nk ? 0 : 1;
}

int main(int argc, char **argv) {
    const char *src = "gen:poisson3d:60", *device = NULL, *kernels = "csr-scalar,csr-vector,csr-merge,csr-auto,csc,ell,ell-image,sell", *bopts = NULL;
    char vbuf[2048] = "", *var = NULL, *vnext = NULL;
    lcl_dtype dt = LCL_F64;
    int reps = 50, a, C = 0, sigma = 0, r, bnd = 0, rc = 0;
    long long fold = 0;
    const char *slablist = NULL, *sl;
    lcl_spmv_kernel slabk = LCL_KERNEL_AUTO;
    lcl_context *ctx = NULL;
    lcl_context_desc desc;
    lcl_device_info di;
    lcl_spmat_opts o;
    lcl_coo coo;
    lcl_csr A;
    char err[512];
    double *x, *ref, *absref, bytes, t0;
    void *xd, *yd;
    size_t es;
    int64_t i, j;
    static const struct { const char *name; lcl_format f; lcl_spmv_kernel k; } kinds[] = {
        {"csr-scalar", LCL_FMT_CSR, LCL_KERNEL_SCALAR}, {"csr-vector", LCL_FMT_CSR, LCL_KERNEL_VECTOR},
        {"csr-merge", LCL_FMT_CSR, LCL_KERNEL_MERGE}, {"csr-auto", LCL_FMT_CSR, LCL_KERNEL_AUTO}, {"csc", LCL_FMT_CSC, LCL_KERNEL_AUTO},
        {"ell", LCL_FMT_ELL, LCL_KERNEL_AUTO}, {"ell-image", LCL_FMT_ELL, LCL_KERNEL_IMAGE}, {"sell", LCL_FMT_SELL, LCL_KERNEL_AUTO}};
    for (a = 1; a < argc; a++) {
        if (!strcmp(argv[a], "--f32")) dt = LCL_F32;
        else if (!strcmp(argv[a], "--reps") && a + 1 < argc) reps = atoi(argv[++a]);
        else if (!strcmp(argv[a], "--device") && a + 1 < argc) device = argv[++a];
        else if (!strcmp(argv[a], "--kernels") && a + 1 < argc) kernels = argv[++a];
        else if (!strcmp(argv[a], "--build-options") && a + 1 < argc) bopts = argv[++a];
        else if (!strcmp(argv[a], "--bound")) bnd = 1;
        else if (!strcmp(argv[a], "--fold") && a + 1 < argc) fold = atoll(argv[++a]);
        else if (!strcmp(argv[a], "--slabs") && a + 1 < argc) slablist = argv[++a];
        else if (!strcmp(argv[a], "--slab-kernel") && a + 1 < argc) {
            a++;
            slabk = !strcmp(argv[a], "merge") ? LCL_KERNEL_MERGE : !strcmp(argv[a], "vector") ? LCL_KERNEL_VECTOR
                  : !strcmp(argv[a], "scalar") ? LCL_KERNEL_SCALAR : LCL_KERNEL_AUTO;
        }
        else if (!strcmp(argv[a], "--variants") && a + 1 < argc) snprintf(vbuf, sizeof vbuf, "%s", argv[++a]);
        else if (!strcmp(argv[a], "--sell") && a + 1 < argc) { if (sscanf(argv[++a], "%d,%d", &C, &sigma) != 2) C = sigma = 0; }
        else if (argv[a][0] != '-') src = argv[a];
        else { fprintf(stderr, "usage: %s [MATRIX|gen:SPEC] [--f32] [--reps N] [--device SPEC] [--kernels LIST] [--sell C,SIGMA] [--build-options S] [--bound]\n", argv[0]); return 2; }
    }
    if (reps < 1) reps = 1;
    memset(&desc, 0, sizeof desc);
    desc.backend = LCL_BACKEND_OPENCL;
    desc.device = device;
    desc.build_options = bopts;
    if (lcl_context_create(&desc, &ctx) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); lcl_context_destroy(ctx); return 1; }
    if (lcl_context_device(ctx, 0, &di) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); lcl_context_destroy(ctx); return 1; }
    if (C <= 0) { C = di.type == LCL_DEVICE_GPU ? 32 : 8; sigma = di.type == LCL_DEVICE_GPU ? 256 : 64; }
    t0 = now();
    if (lclg_load(ctx, src, 1, dt, &coo, err, sizeof err) != LCL_OK) { fprintf(stderr, "%s\n", err); lcl_context_destroy(ctx); return 1; }
    if (fold > 0)
        for (i = 0; i < coo.nnz; i++) coo.col[i] = (int32_t)(coo.col[i] % fold);
    if (lcl_csr_from_coo(ctx, &coo, &A) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); return 1; }
    lcl_coo_free(&coo);
    es = dt == LCL_F32 ? 4 : 8;
    bytes = (double)A.nnz * ((double)es + 4) + (double)(A.rows + 1) * 4 + (double)A.cols * (double)es + (double)A.rows * (double)es;
    if (fold > 0) printf("columns folded modulo %lld\n", fold);
    printf("matrix %s: %lld x %lld, nnz %lld (%.2f per row), %s, %.1f MB moved per product (CSR minimum); loaded in %.1f s\n", src,
           (long long)A.rows, (long long)A.cols, (long long)A.nnz, A.rows ? (double)A.nnz / (double)A.rows : 0.0, dt == LCL_F32 ? "float" : "double",
           bytes / 1e6, now() - t0);
    printf("device: %s (%s), work-group %u, SELL C=%d sigma=%d, %d reps\n", di.name, di.platform, (unsigned)lcl__wg(&ctx->dev[0]), C, sigma, reps);
    x = (double *)malloc(((size_t)A.cols + 1) * 8);
    ref = (double *)malloc(((size_t)A.rows + 1) * 8);
    absref = (double *)malloc(((size_t)A.rows + 1) * 8);
    xd = malloc(((size_t)A.cols + 1) * es);
    yd = malloc(((size_t)A.rows + 1) * es);
    srand(7);
    for (j = 0; j < A.cols; j++) {
        x[j] = 2.0 * rand() / RAND_MAX - 1;
        if (dt == LCL_F32) { ((float *)xd)[j] = (float)x[j]; x[j] = (float)x[j]; }
        else ((double *)xd)[j] = x[j];
    }
    for (i = 0; i < A.rows; i++) {
        double s = 0, b = 0;
        for (j = A.ptr[i]; j < A.ptr[i + 1]; j++) {
            double v = dt == LCL_F32 ? (double)((float *)A.val)[j] : ((double *)A.val)[j];
            s += v * x[A.col[j]];
            b += fabs(v * x[A.col[j]]);
        }
        ref[i] = s;
        absref[i] = b > 0 ? b : 1e-300;
    }
    vnext = vbuf[0] ? vbuf : NULL;
next_variant:
    if (var) {   /* the next variant: a context of its own */
        lcl_context_destroy(ctx);
        ctx = NULL;
        variant_env(var, 1);
        printf("variant: %s\n", var);
        if (lcl_context_create(&desc, &ctx) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); lcl_context_destroy(ctx); return 1; }
        variant_env(var, 0);
    }
    printf("%-11s %-6s %10s %10s %9s %10s %10s  %s\n", "kernel", "runs", "median ms", "GB/s", "GF/s", "batch ms", "batch GB/s", "max rel err");
    for (r = 0; r < (int)(sizeof kinds / sizeof kinds[0]); r++) {
        lcl_spmat *M = NULL;
        lcl__spdev *P;
        lcl__device *d;
        double *ts, med, batch;
        cl_int e;
        lcl_status st;
        const char *k = strstr(kernels, kinds[r].name);
        size_t nl = strlen(kinds[r].name);
        if (!k || (k[nl] && k[nl] != ',') || (k != kernels && k[-1] != ',')) continue;
        memset(&o, 0, sizeof o);
        o.format = kinds[r].f;
        o.kernel = kinds[r].k;
        o.sell_c = C;
        o.sell_sigma = sigma;
        if ((st = lcl_spmat_create(ctx, &A, &o, &M)) != LCL_OK) {   /* LCL_ERR_FILL: more than 3 x nnz + rows padded slots */
            printf("%-11s %s: %s\n", kinds[r].name, st == LCL_ERR_FILL ? "skipped" : lcl_status_string(st), lcl_last_error(ctx));
            lcl_clear_error(ctx);
            continue;
        }
        P = &M->part[0];
        d = &ctx->dev[P->dev];
        e = P->n && A.cols ? LCL__CL->clEnqueueWriteBuffer(d->queue[0], P->x, CL_TRUE, 0, (size_t)A.cols * es, xd, 0, NULL, NULL) : CL_SUCCESS;
        st = e == CL_SUCCESS ? lcl__sp_run(ctx, M, P, P->x, P->ximg, P->y, 1.0, 0.0, d->queue[0]) : LCL_ERR_OPENCL;   /* warm-up */
        if (st == LCL_OK) LCL__CL->clFinish(d->queue[0]);
        ts = (double *)malloc((size_t)reps * sizeof(double));
        for (a = 0; a < reps && st == LCL_OK; a++) {
            double t = now();
            st = lcl__sp_run(ctx, M, P, P->x, P->ximg, P->y, 1.0, 0.0, d->queue[0]);
            if (LCL__CL->clFinish(d->queue[0]) != CL_SUCCESS) st = LCL_ERR_OPENCL;
            ts[a] = now() - t;
        }
        t0 = now();
        for (a = 0; a < reps && st == LCL_OK; a++) st = lcl__sp_run(ctx, M, P, P->x, P->ximg, P->y, 1.0, 0.0, d->queue[0]);
        LCL__CL->clFinish(d->queue[0]);
        batch = (now() - t0) / reps;
        if (st != LCL_OK) { printf("%-11s %s: %s\n", kinds[r].name, lcl_status_string(st), lcl_last_error(ctx)); free(ts); lcl_spmat_free(M); continue; }
        if (P->n) LCL__CL->clEnqueueReadBuffer(d->queue[0], P->y, CL_TRUE, 0, (size_t)A.rows * es, yd, 0, NULL, NULL);
        med = median(ts, reps);
        result(kinds[r].name, reps, med, batch, bytes, &A, yd, ref, absref);
        if (M->format == LCL_FMT_CSR || M->format == LCL_FMT_CSC)
            printf("  (%s%s)", lcl_spmv_kernel_name(P->kernel), P->kernel == LCL_KERNEL_VECTOR ? (P->V == 2 ? ", V=2" : P->V == 4 ? ", V=4" : P->V == 8 ? ", V=8" : P->V == 16 ? ", V=16" : ", V=32") : "");
        else printf("  (%.2fx slots)", (double)M->stored / (double)(A.nnz ? A.nnz : 1));
        printf("\n");
        free(ts);
        lcl_spmat_free(M);
    }
    for (sl = slablist; sl && *sl; sl = strchr(sl, ',') ? strchr(sl, ',') + 1 : NULL) {
        int S = atoi(sl);
        double med, batch;
        char name[32];
        if (S < 1 || !slabs(ctx, &A, S, slabk, reps, xd, yd, &med, &batch)) continue;
        snprintf(name, sizeof name, "slabs-%d", S);
        result(name, reps, med, batch, bytes, &A, yd, ref, absref);
        printf("\n");
    }
    if (bnd && !var) rc = bound(ctx, &A, dt, xd, reps, bytes);
    if (vnext) {
        char *semi = strchr(vnext, ';');
        var = vnext;
        if (semi) *semi = 0;
        vnext = semi ? semi + 1 : NULL;
        desc.build_options = bopts;
        goto next_variant;
    }
    free(x); free(ref); free(absref); free(xd); free(yd);
    lcl_csr_free(&A);
    lcl_context_destroy(ctx);
    return rc;
}
