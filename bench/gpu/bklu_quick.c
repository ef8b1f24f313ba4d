/* bklu_quick.c -- time the block LU's numeric phase (refactor: values in, factors out) on the
   OpenMP backend and on 1, 2, all OpenCL devices, for J (x) B with J a base matrix (file or gen:
   spec) and B = M I + uniform[-0.5, 0.5] off the diagonal; residual of a solve each run.
     build/bklu_quick BASE M[,M...] [reps] [runs: omp,cl1,cl2,clall; cl2s, clalls: one shared cl_context]
   BKLU_PHASES=1: one more refactor with each device phase drained and timed; 2: the host's side
   of each level timed (launches, staging, waiting); 3: as 1, with each level's phases printed */
#define _POSIX_C_SOURCE 199309L
static void bq_mark(void *q, int ph);
#define LCL_BKLU_TIMING(q, ph) bq_mark((void *)(q), ph)
#define LINALG_CL_IMPLEMENTATION
#include "linalg_cl.h"
#include "tools/lcl_gen.h"
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static double bq_t[14], bq_last, bq_hlast, bq_at[14], bq_l0, bq_lv[1024];
static int bq_nl;
static int bq_on;   /* 1: each device phase drained and timed (0-5); 2: the host's side of each level (6-9) */
static void bq_mark(void *q, int ph) {
    double t;
    if (ph > 13) return;   /* 14: the eager queue's marker, not a phase of the main queue */
    if (bq_on == 2 && !q) {
        t = now();
        if (ph >= 10) { bq_at[ph] = t; return; }
        if (ph == 6) bq_l0 = t;
        if (ph == 9 && bq_nl < 1024) bq_lv[bq_nl++] = t - bq_l0;
        if (ph > 6) bq_t[ph] += t - bq_hlast;
        bq_hlast = t;
        return;
    }
    if ((bq_on != 1 && bq_on != 3) || !q) return;
    LCL__CL->clFinish((cl_command_queue)q);
    t = now();
    if (ph > 0) bq_t[ph] += t - bq_last;
    if (bq_on == 3 && ph > 0) {     /* one line per level (chunk): values, updates, LU, inverses, L in ms */
        static double lv[6];
        lv[ph] = t - bq_last;
        if (ph == 5) printf(" [%.1f %.1f %.1f %.1f %.1f]", 1e3 * lv[1], 1e3 * lv[2], 1e3 * lv[3], 1e3 * lv[4], 1e3 * lv[5]);
    }
    bq_last = t;
}
static int cmpd(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return x < y ? -1 : x > y; }
static double hb(uint64_t p, uint64_t q) {
    uint64_t z = p * 0x9E3779B97F4A7C15ull + q * 0xBF58476D1CE4E5B9ull + 12345;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull; z = (z ^ (z >> 27)) * 0x94D049BB133111EBull; z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0 - 0.5;
}
int main(int argc, char **argv) {
    const char *base = argc > 1 ? argv[1] : "gen:circuit:2000", *runs = argc > 4 ? argv[4] : "omp,cl1,cl2";
    char ms[256], err[512];
    int reps = argc > 3 ? atoi(argv[3]) : 3;
    lcl_coo C; lcl_csr J;
    snprintf(ms, sizeof ms, "%s", argc > 2 ? argv[2] : "64");
    if (lclg_load(NULL, base, 1, LCL_F64, &C, err, sizeof err) != LCL_OK) { fprintf(stderr, "base: %s\n", err); return 1; }
    if (lcl_csr_from_coo(NULL, &C, &J) != LCL_OK) { fprintf(stderr, "csr failed\n"); return 1; }
    for (char *tok = strtok(ms, ","); tok; tok = strtok(NULL, ",")) {
        int64_t m = atoll(tok), mm = m * m, n = J.rows, e, c, q;
        lcl_bmat A; memset(&A, 0, sizeof A);
        double *B = malloc(sizeof(double) * mm);
        for (int64_t p = 0; p < m; p++) for (q = 0; q < m; q++) B[p * m + q] = p == q ? (double)m : hb(p, q);
        /* J is CSR: block rows; give A by rows */
        A.n = n; A.m = m; A.nnzb = J.nnz; A.dtype = LCL_F64; A.by_row = 1; A.ptr = J.ptr; A.idx = J.col;
        A.val = malloc(sizeof(double) * (size_t)J.nnz * mm);
        if (!A.val) { fprintf(stderr, "no memory for %lld blocks of %lld\n", (long long)J.nnz, (long long)m); return 1; }
        for (e = 0; e < J.nnz; e++) { double a = ((double *)J.val)[e]; double *v = (double *)A.val + e * mm; for (q = 0; q < mm; q++) v[q] = a * B[q]; }
        printf("== base %s M %lld: %lld block columns, %lld blocks, A %.2f GB\n", base, (long long)m, (long long)n, (long long)J.nnz,
               (double)J.nnz * mm * 8 / 1e9);
        fflush(stdout);
        double *x = malloc(8 * n * m), *b = malloc(8 * n * m), *r = malloc(8 * n * m);
        for (c = 0; c < n * m; c++) x[c] = sin(c + 1.0);
        lcl_bmat_mv(&A, x, b);
        char rl[128]; snprintf(rl, sizeof rl, "%s", runs);
        for (char *rs = rl, *run; (run = strtok_r(rs, ",", &rs)) != NULL;) {
            lcl_context *ctx = NULL; lcl_context_desc d; memset(&d, 0, sizeof d);
            if (!strcmp(run, "xfer")) {   /* A's blocks written one by one, as the device path does */
                lcl__device *dv; cl_mem buf; cl_int ce; size_t fb = (size_t)mm * 8, cap = (size_t)1 << 30, off = 0;
                d.backend = LCL_BACKEND_OPENCL; d.device = "gpu";
                if (lcl_context_create(&d, &ctx) != LCL_OK) { printf("xfer: no context\n"); continue; }
                dv = &ctx->dev[0];
                buf = LCL__CL->clCreateBuffer(dv->cl, CL_MEM_READ_WRITE, cap, NULL, &ce);
                double t1 = now();
                for (e = 0; e < J.nnz; e++) {
                    if (off + fb > cap) off = 0;
                    LCL__CL->clEnqueueWriteBuffer(dv->queue[0], buf, CL_FALSE, off, fb, (char *)A.val + (size_t)e * fb, 0, NULL, NULL);
                    off += fb;
                }
                LCL__CL->clFinish(dv->queue[0]);
                t1 = now() - t1;
                printf("xfer   A up, block by block: %.3f s, %.2f GB/s\n", t1, (double)J.nnz * fb / t1 / 1e9);
                t1 = now(); off = 0;
                char *scratch = malloc(cap);
                for (e = 0; e < J.nnz; e++) {
                    if (off + fb > cap) off = 0;
                    LCL__CL->clEnqueueReadBuffer(dv->queue[0], buf, CL_FALSE, off, fb, scratch + off, 0, NULL, NULL);
                    off += fb;
                }
                LCL__CL->clFinish(dv->queue[0]);
                t1 = now() - t1;
                printf("xfer   A down, block by block: %.3f s, %.2f GB/s\n", t1, (double)J.nnz * fb / t1 / 1e9);
                free(scratch);
                LCL__CL->clReleaseMemObject(buf);
                lcl_context_destroy(ctx);
                continue;
            }
            lcl_bklu_opts o; memset(&o, 0, sizeof o);
            if (!strcmp(run, "omp")) d.backend = LCL_BACKEND_OPENMP;
            else {  /* cl1, cl2, clall: a cl_context per device; a trailing s: one for them all (the default) */
                d.backend = LCL_BACKEND_OPENCL; d.device = getenv("BKLU_DEVICE") ? getenv("BKLU_DEVICE") : "gpu";
                o.devices = !strncmp(run, "cl1", 3) ? 1 : !strncmp(run, "cl2", 3) ? 2 : 0;
                d.shared_context = run[strlen(run) - 1] == 's' ? 1 : -1;
            }
            if (getenv("BKLU_SCHED")) o.schedule = atoi(getenv("BKLU_SCHED"));
            if (getenv("BKLU_MEM")) o.mem_limit = atoll(getenv("BKLU_MEM"));
            if (lcl_context_create(&d, &ctx) != LCL_OK) { printf("%s: no context (%s)\n", run, lcl_last_error(ctx)); lcl_context_destroy(ctx); continue; }
            if (o.devices > 0 && o.devices > lcl_context_num_devices(ctx)) { printf("%s: only %d devices\n", run, lcl_context_num_devices(ctx)); lcl_context_destroy(ctx); continue; }
            lcl_bklu_symbolic *S; lcl_bklu_numeric *N; lcl_bklu_info info;
            double t0 = now();
            if (lcl_bklu_analyze(ctx, &A, &o, &S, &info) != LCL_OK) { printf("%s analyze: %s\n", run, lcl_last_error(ctx)); return 1; }
            double ta = now() - t0; t0 = now();
            if (lcl_bklu_factor(ctx, S, &A, &N, &info) != LCL_OK) { printf("%s factor: %s\n", run, lcl_last_error(ctx)); return 1; }
            double tf = now() - t0, tr[32];
            for (int k = 0; k < reps && k < 32; k++) {
                t0 = now();
                if (lcl_bklu_refactor(ctx, S, &A, N, &info) != LCL_OK) { printf("%s refactor: %s\n", run, lcl_last_error(ctx)); return 1; }
                tr[k] = now() - t0;
            }
            qsort(tr, reps, sizeof(double), cmpd);
            if (getenv("BKLU_PHASES") && d.backend == LCL_BACKEND_OPENCL) {
                int ph = atoi(getenv("BKLU_PHASES"));
                memset(bq_t, 0, sizeof bq_t); memset(bq_at, 0, sizeof bq_at); bq_nl = 0; bq_on = ph == 2 || ph == 3 ? ph : 1;
                if (bq_on == 3) {   /* the pivot LU kernels' limits on device 0, then each launch's drained ms */
                    static const char *kn[] = {"lcl_bklu_lu_d", "lcl_bklu_lu512_d", "lcl_bklu_lu1024_d"};
                    for (int q = 0; q < 3; q++) {
                        cl_kernel kk; size_t kw = 0; cl_ulong pm = 0, lm = 0;
                        if (lcl__kernel(ctx, &ctx->dev[0], LCL_F64, kn[q], &kk) == LCL_OK) {
                            LCL__CL->clGetKernelWorkGroupInfo(kk, ctx->dev[0].id, CL_KERNEL_WORK_GROUP_SIZE, sizeof kw, &kw, NULL);
                            LCL__CL->clGetKernelWorkGroupInfo(kk, ctx->dev[0].id, CL_KERNEL_PRIVATE_MEM_SIZE, sizeof pm, &pm, NULL);
                            LCL__CL->clGetKernelWorkGroupInfo(kk, ctx->dev[0].id, CL_KERNEL_LOCAL_MEM_SIZE, sizeof lm, &lm, NULL);
                        }
                        printf("%s: work-group at most %zu, private %llu B, local %llu B\n", kn[q], kw, (unsigned long long)pm, (unsigned long long)lm);
                    }
                    printf("each level [values, updates, pivot LU, inverses, L] (ms):");
                }
                t0 = now();
                lcl_bklu_refactor(ctx, S, &A, N, &info);
                if (bq_on == 3) {   /* each level's columns, U blocks at most per column, U blocks, L blocks */
                    printf("\nlevels (columns/max U/U/L):");
                    for (int64_t l = 0; l < N->nlev; l++) {
                        int64_t mu = 0, su = 0, sl = 0;
                        for (int64_t p = N->levp[l]; p < N->levp[l + 1]; p++) {
                            int64_t k = N->levc[p];
                            mu = N->ucnt[k] > mu ? N->ucnt[k] : mu; su += N->ucnt[k]; sl += N->colp[k + 1] - N->colp[k] - N->ucnt[k] - 1;
                        }
                        printf(" %lld/%lld/%lld/%lld", (long long)(N->levp[l + 1] - N->levp[l]), (long long)mu, (long long)su, (long long)sl);
                    }
                    printf("\n");
                }
                if (bq_on != 2)
                    printf("phases (drained): total %.3f s: values in %.3f, updates %.3f, pivot LU %.3f, inverses %.3f, L %.3f\n", now() - t0, bq_t[1], bq_t[2], bq_t[3], bq_t[4], bq_t[5]);
                else
                    printf("host: total %.3f s: before the device path %.3f, its setup %.3f, levels %.3f (launches %.3f, staging and exchange "
                           "reads %.3f, waiting %.3f), end %.3f\n", now() - t0, bq_at[10] - t0, bq_at[11] - bq_at[10], bq_at[12] - bq_at[11],
                           bq_t[7], bq_t[8], bq_t[9], bq_at[13] - bq_at[12]);
                if (bq_on == 2 && N->nlev + 1 == bq_nl) {   /* each level: ms (columns); the first, staging only */
                    printf("levels:");
                    printf(" %.1f(stage)", 1e3 * bq_lv[0]);
                    for (int l = 0; l + 1 < bq_nl; l++) printf(" %.1f(%lld)", 1e3 * bq_lv[l + 1], (long long)(N->levp[l + 1] - N->levp[l]));
                    printf("\n");
                }
                bq_on = 0;
            }
            memcpy(r, b, 8 * n * m);
            t0 = now();
            /* skipped above that M on several devices: the host solves there, after reading the factors back */
            if (getenv("BKLU_NOSOLVE_ABOVE") && m > atoi(getenv("BKLU_NOSOLVE_ABOVE")) && info.devices > 1) memcpy(r, x, 8 * n * m);
            else lcl_bklu_solve(ctx, S, N, 1, r, n * m);
            double ts = now() - t0, er = 0, xn = 0;
            for (c = 0; c < n * m; c++) { er = fmax(er, fabs(r[c] - x[c])); xn = fmax(xn, fabs(x[c])); }
            printf("%-6s flops %.3g analyze %.3f s factor %.3f s refactor(median of %d) %.4f s solve %.3f s  %.1f GF/s  err %.2e  L %lld U %lld levels %lld devices %d transfers %lld evictions %lld\n",
                   run, info.flops, ta, tf, reps, tr[reps / 2], ts, info.flops / tr[reps / 2] / 1e9, er / xn, (long long)info.nnzb_l, (long long)info.nnzb_u,
                   (long long)info.levels, info.devices, (long long)info.transfers, (long long)info.evictions);
            fflush(stdout);
            lcl_bklu_numeric_free(N); lcl_bklu_symbolic_free(S); lcl_context_destroy(ctx);
        }
        free(A.val); free(B); free(x); free(b); free(r);
    }
    return 0;
}
