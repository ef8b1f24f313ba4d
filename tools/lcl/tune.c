/* tune.c -- lcl tune: time the GEMM-bound device Cholesky with each candidate GEMM tile (through
   the LCL_TUNE_GEMM override) and print the row of the tuning table in linalg_cl.h for the
   fastest. */
#include "lcl.h"
#include <stdlib.h>
#include <string.h>

int check_tune(const opts *o) {
    if (arrlen(o->pos)) return fail(EXIT_USAGE, "tune takes no arguments, only --device and --precision");
    if (o->backend_set && o->backend != LCL_BACKEND_OPENCL && o->backend != LCL_BACKEND_AUTO)
        return fail(EXIT_USAGE, "tune measures OpenCL devices: --backend %s has nothing to tune", lcl_backend_name(o->backend));
    return -1;
}

int cmd_tune(const opts *o) {
    static const int cand[][5] = {{32, 32, 16, 8, 8}, {64, 64, 8, 16, 16}, {64, 64, 16, 16, 16}, {128, 64, 16, 16, 16},
                                  {64, 128, 8, 16, 8}, {128, 128, 8, 16, 16}, {128, 128, 16, 16, 16}, {128, 128, 8, 32, 8}};
    const int ncand = (int)(sizeof cand / sizeof cand[0]);
    lcl_context *ctx = NULL;
    lcl_device_info di;
    lcl_dense A;
    double best = 0, t[3];
    int c, bi = -1, r, n, code;
    size_t es = o->dtype == LCL_F32 ? sizeof(float) : sizeof(double);
    opts oc = *o;
    oc.backend = LCL_BACKEND_OPENCL;
    oc.backend_set = 1;
    if ((code = make_context(&oc, &ctx)) >= 0) return code;
    if (lcl_context_device(ctx, 0, &di) != LCL_OK) { lcl_context_destroy(ctx); return fail(EXIT_BACKEND, "no OpenCL device"); }
    lcl_context_destroy(ctx);
    n = di.type == LCL_DEVICE_GPU ? 4096 : 512;
    if (lcl_dense_alloc(NULL, &A, o->dtype, LCL_COL_MAJOR, n, n) != LCL_OK) return fail(EXIT_NUMERIC, "out of memory");
    for (r = 0; r < n; r++) {
        int j;
        for (j = 0; j < n; j++) lcl_dense_set(&A, r, j, r == j ? (double)n : (double)((r * 7 + j * 7) % 13) / 13.0 - 0.5);
    }
    if (!o->json) printf("tuning the GEMM tiles of \"%s\" (%s): device Cholesky, n = %d\n| TM | TN | TK | WX | WY | GF/s |\n|---:|---:|---:|---:|---:|---:|\n",
                         di.name, o->dtype == LCL_F32 ? "single" : "double", n);
    for (c = 0; c < ncand; c++) {
        char tile[64];
        lcl_dmat *M = NULL;
        int64_t info;
        lcl_status st = LCL_OK;
        const int *v = cand[c];
        /* what the device cannot hold is skipped, not silently replaced by the default */
        if ((size_t)(v[3] * v[4]) > di.max_work_group || (uint64_t)((v[0] + v[1]) * (v[2] + 1)) * es > di.local_mem) continue;
        snprintf(tile, sizeof tile, "%d,%d,%d,%d,%d", v[0], v[1], v[2], v[3], v[4]);
        setenv("LCL_TUNE_GEMM", tile, 1);
        if (make_context(&oc, &ctx) >= 0) { unsetenv("LCL_TUNE_GEMM"); lcl_dense_free(&A); return EXIT_BACKEND; }
        for (r = 0; r < 4 && st == LCL_OK; r++) {
            double t0;
            if ((st = lcl_dmat_upload(ctx, &A, &M)) != LCL_OK) break;
            t0 = now_s();
            st = lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, NULL);
            if (r) t[r - 1] = now_s() - t0;
            lcl_dmat_free(M);
            M = NULL;
        }
        if (st == LCL_OK) {
            double med, gf;
            med = median(t, 3);
            gf = (double)n * n * n / 3.0 / med / 1e9;
            if (gf > best) { best = gf; bi = c; }
            if (o->json) printf("{\"op\":\"tune\",\"device\":\"%s\",\"precision\":\"%s\",\"tile\":[%s],\"gflops\":%.3f}\n", di.name,
                                o->dtype == LCL_F32 ? "single" : "double", tile, gf);
            else printf("| %d | %d | %d | %d | %d | %.2f |\n", v[0], v[1], v[2], v[3], v[4], gf);
        } else
            fprintf(stderr, "lcl: tile %s: %s\n", tile, lcl_last_error(ctx));
        lcl_context_destroy(ctx);
        ctx = NULL;
    }
    unsetenv("LCL_TUNE_GEMM");
    lcl_dense_free(&A);
    if (bi < 0) return fail(EXIT_BACKEND, "no tile configuration ran on \"%s\"", di.name);
    if (!o->json)
        printf("\nfastest: %d,%d,%d,%d,%d at %.2f GF/s. Its row for the tuning table in linalg_cl.h (%s slot):\n"
               "    {\"%s\", {{...}, {...}}},   /* %s: {%d, %d, %d, %d, %d} */\n",
               cand[bi][0], cand[bi][1], cand[bi][2], cand[bi][3], cand[bi][4], best, o->dtype == LCL_F32 ? "second, single" : "first, double",
               di.name, o->dtype == LCL_F32 ? "single" : "double", cand[bi][0], cand[bi][1], cand[bi][2], cand[bi][3], cand[bi][4]);
    return EXIT_OK;
}
