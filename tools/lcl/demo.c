/* demo.c -- lcl demo (make demo): a short tour of what the library does, on the context that
   --backend / --device give (auto by default: the best device found), with timings and every
   result checked: what was found and where dense and sparse work run; dense solves (LU and
   Cholesky) with their residuals; SpMV in the format auto chooses, and why, against the tool's
   own serial product. */
#include "lcl.h"
#include <stdlib.h>
#include <string.h>

/* Dense systems of this order: under a second each on two cores. */
#define DEMO_DENSE_N 2000
static const char *const demo_spmv_matrices[2] = {"gen:poisson3d:60", "gen:powerlaw:200000:16"};

/* y = 2x + y on one backend, against the exact result (the values are exact in float): 1 if exact */
static int axpy_exact(lcl_context *ctx, lcl_dtype dt) {
    enum { N = 100003 };
    static double xd[N], yd[N];
    static float xf[N], yf[N];
    int k, f = dt == LCL_F32;
    for (k = 0; k < N; k++) { xd[k] = xf[k] = (float)(k % 97) * 0.25f; yd[k] = yf[k] = (float)(k % 13); }
    if (lcl_axpy(ctx, dt, N, 2.0, f ? (const void *)xf : (const void *)xd, f ? (void *)yf : (void *)yd) != LCL_OK) return 0;
    for (k = 0; k < N; k++)
        if ((f ? (double)yf[k] : yd[k]) != 2.0 * ((k % 97) * 0.25) + (k % 13)) return 0;
    return 1;
}

/* 1. backends, devices, where the work goes; the number of failures */
static int demo_context(lcl_context *ctx, const opts *o) {
    const lcl_backend all[3] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP, LCL_BACKEND_OPENCL};
    lcl_device_info *devs = NULL;
    lcl_device_info di;
    int b, i, n = 0, failures = 0;
    char spmv_dev[160] = "", dense_dev[160] = "";
    printf("1. What was found\n   backends     ");
    for (b = 0; b < 3; b++) {   /* each compiled-in backend runs y = 2x + y in both precisions */
        lcl_context_desc d;
        lcl_context *bc = NULL;
        if (!lcl_backend_compiled(all[b])) continue;
        memset(&d, 0, sizeof d);
        d.backend = all[b];
        d.device = o->device;
        printf("%s%s ", b ? ", " : "", lcl_backend_name(all[b]));
        if (lcl_context_create(&d, &bc) != LCL_OK) printf("unavailable");     /* the OpenCL line says why */
        else if (axpy_exact(bc, LCL_F64) && axpy_exact(bc, LCL_F32)) printf("ok");
        else { printf("WRONG (y = 2x + y: %s)", lcl_last_error(bc)); failures++; }
        lcl_context_destroy(bc);
    }
    printf("   (y = 2x + y exact in double and single)\n");
    if (lcl_list_devices(NULL, NULL, 0, &n) == LCL_OK && n > 0 && (devs = (lcl_device_info *)calloc((size_t)n, sizeof *devs)) != NULL &&
        lcl_list_devices(NULL, devs, n, &n) == LCL_OK) {
        for (i = 0; i < n; i++)
            printf("   %-12s %d: %s (%s, %s, %d units, %.1f GiB%s)\n", i ? "" : "OpenCL", devs[i].index, devs[i].name, devs[i].platform,
                   device_type_name(devs[i].type), devs[i].compute_units, devs[i].global_mem / 1073741824.0, devs[i].fp64 ? ", fp64" : "");
    } else {
        const char *why = lcl_opencl_unavailable_reason();
        printf("   %-12s no device%s%s%s\n", "OpenCL", why ? " (" : "", why ? why : "", why ? ")" : "");
    }
    free(devs);
    for (i = 0; i < lcl_context_num_devices(ctx); i++)
        if (lcl_context_device(ctx, i, &di) == LCL_OK)
            snprintf(spmv_dev + strlen(spmv_dev), sizeof spmv_dev - strlen(spmv_dev), "%s device %d", i ? "," : " on", di.index);
    dense_device_name(ctx, 0, dense_dev, sizeof dense_dev);
    printf("   %-12s %s%s\n", "context", lcl_backend_name(lcl_context_backend(ctx)), spmv_dev);
    printf("   %-12s %s%s%s\n", "dense work", lcl_backend_name(lcl_dense_backend(ctx)), strcmp(dense_dev, "cpu") ? " on " : " on the host",
           strcmp(dense_dev, "cpu") ? dense_dev : "");
    if (lcl_dense_backend(ctx) != lcl_context_backend(ctx))
        printf("   %-12s (every device is a CPU: factorizations run on the host's threads, faster than through OpenCL)\n", "");
    printf("   %-12s %s%s\n", "SpMV", lcl_backend_name(lcl_context_backend(ctx)), spmv_dev);
    if (lcl_context_backend(ctx) == LCL_BACKEND_OPENCL) {
        double t0 = now_s();
        lcl_status st = lcl_context_prepare(ctx, o->dtype);
        if (st == LCL_OK) printf("   %-12s built for %s in %.2f s\n", "kernels", prec_name(o->dtype), now_s() - t0);
        else printf("   %-12s %s\n", "kernels", lcl_last_error(ctx));
    }
    return failures;
}

/* 2. LU (gesv) and Cholesky (posv) of generated well-conditioned systems; the number of failures */
static int demo_dense(lcl_context *ctx, const opts *o) {
    const int64_t n = DEMO_DENSE_N;
    const double tol = o->dtype == LCL_F64 ? 1e-12 : 1e-4;
    int chol, failures = 0;
    printf("\n2. Dense solve A x = b, n = %lld, %s precision, b = A x* for a random x*\n", (long long)n, prec_name(o->dtype));
    printf("   %-24s %-16s %9s %8s %10s\n", "matrix", "routine", "time (s)", "GF/s", "residual");
    for (chol = 0; chol < 2; chol++) {
        dense_system c;
        lcl_dense F, B;
        int32_t *ipiv = (int32_t *)malloc((size_t)n * sizeof *ipiv);
        int64_t info = 0;
        lcl_status st;
        double t, res = 0, flops = (chol ? 1.0 / 3.0 : 2.0 / 3.0) * (double)n * (double)n * (double)n + 2.0 * (double)n * (double)n;
        char what[64];
        memset(&F, 0, sizeof F);
        memset(&B, 0, sizeof B);
        snprintf(what, sizeof what, "%s:%lld", chol ? "dense-spd" : "dense-random", (long long)n);
        if (!ipiv || dense_system_make(ctx, chol, n, o->seed, o->dtype, &c) >= 0) {
            free(ipiv);
            failures++;
            continue;
        }
        /* gesv and posv overwrite A and b: solve copies */
        st = dense_convert(ctx, &c.Aw, o->dtype, &F);
        if (st == LCL_OK) st = dense_convert(ctx, &c.Bw, o->dtype, &B);
        t = now_s();
        if (st == LCL_OK) st = chol ? lcl_posv(ctx, LCL_LOWER, &F, &B, &info) : lcl_gesv(ctx, &F, ipiv, &B, &info);
        t = now_s() - t;
        if (st == LCL_OK) {
            dense_to_array(&B, c.x);
            res = backward_error(&c.A, c.normA, c.x, c.b, c.work);
        }
        printf("   %-24s %-16s ", what, chol ? "posv (Cholesky)" : "gesv (LU)");
        if (st != LCL_OK) {
            printf("%s\n", lcl_last_error(ctx));
            failures += st != LCL_ERR_NO_FP64;      /* a device without double precision: --precision single */
        } else {
            printf("%9.3f %8.2f %10.1e%s\n", t, t > 0 ? flops / t * 1e-9 : 0.0, res, res <= tol ? "" : "  WRONG");
            failures += !(res <= tol);
        }
        lcl_dense_free(&F);
        lcl_dense_free(&B);
        dense_system_free(&c);
        free(ipiv);
    }
    printf("   residual = |b - A x| / (|A| |x| + |b|), infinity norms, checked on the host in double (bound %.0e)\n", tol);
    return failures;
}

/* 3. SpMV in the format auto chooses, checked against the tool's serial product; the failures */
static int demo_spmv(lcl_context *ctx, const opts *o) {
    int m, failures = 0;
    printf("\n3. Sparse y = A x, %s precision, format chosen by auto; median of %d products after a warm-up\n", prec_name(o->dtype),
           SPMV_REPS);
    printf("   %-24s %8s %9s  %-13s %9s %7s  %s\n", "matrix", "rows", "nnz", "format", "time (ms)", "GF/s", "check");
    for (m = 0; m < 2; m++) {
        const char *src = demo_spmv_matrices[m];
        lcl_coo A;
        lcl_spmat_opts so;
        spmv_ref ref;
        spmv_run run;
        double *x0;
        void *y;
        int64_t i;
        char fmt[48];
        memset(&so, 0, sizeof so);
        if (spmv_load(ctx, src, o->seed, o->dtype, &A) >= 0) { failures++; continue; }
        x0 = (double *)malloc((size_t)(A.cols + 1) * sizeof *x0);
        y = malloc((size_t)(A.rows + 1) * sizeof(double));
        for (i = 0; x0 && i < A.cols; i++) x0[i] = urand_sym(o->seed, (uint64_t)i);
        if (!x0 || !y || spmv_ref_make(&A, 0, x0, &ref) != LCL_OK) {
            fail(EXIT_NUMERIC, "out of memory");
            free(x0);
            free(y);
            lcl_coo_free(&A);
            failures++;
            continue;
        }
        spmv_measure(ctx, &A, &so, 0, SPMV_REPS, &ref, y, &run);
        printf("   %-24s %8lld %9lld  ", src, (long long)A.rows, (long long)A.nnz);
        if (run.st != LCL_OK) {
            printf("%s\n", run.msg);
            failures++;
        } else {
            snprintf(fmt, sizeof fmt, "%s/%s", lcl_format_name(run.info.format), lcl_spmv_kernel_name(run.info.kernel));
            printf("%-13s %9.3f %7.2f  %s (rel_err %.1e)\n", fmt, run.seconds * 1e3, 2e-3 * spmv_mnnz(&run), run.ok ? "ok" : "WRONG",
                   run.rel_err);
            printf("     auto's reason: %s\n", run.info.reason);
            failures += !run.ok;
        }
        free(x0);
        free(y);
        spmv_ref_free(&ref);
        lcl_coo_free(&A);
    }
    printf("   check: every product against the tool's own serial CSR product, accumulated in long double\n");
    return failures;
}

int cmd_demo(const opts *o) {
    lcl_context *ctx = NULL;
    int code, failures = 0;
    double t0 = now_s();
    if ((code = make_context(o, &ctx)) >= 0) return code;
    printf("linalg_cl %d.%d.%d: a tour on the best device found\n\n", LCL_VERSION_MAJOR, LCL_VERSION_MINOR, LCL_VERSION_PATCH);
    failures += demo_context(ctx, o);
    fflush(stdout);
    failures += demo_dense(ctx, o);
    fflush(stdout);
    failures += demo_spmv(ctx, o);
    printf("\n4. Next: lcl --help (every command: solve, spmv, bench, gen, stat, ...), examples/ (short programs\n"
           "   to read and copy: quickstart.c, dense_solve.c, spmv_formats.c; the sparse LU in a circuit\n"
           "   simulation, circuit_transient.c; the block LU in a Newton loop, reaction_diffusion.c), README.md\n"
           "   (the API, backends, benchmarks).   Tour: %.1f s, %s.\n", now_s() - t0, failures ? "SOME CHECKS FAILED" : "every check ok");
    lcl_context_destroy(ctx);
    return failures ? EXIT_NUMERIC : EXIT_OK;
}
