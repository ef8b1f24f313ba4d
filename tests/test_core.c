/* test_core.c -- statuses, contexts, backends, device selection, the program cache, run-time
   loading fallbacks (in child processes), containers, threads. */
#define _POSIX_C_SOURCE 200809L
#include "lt.h"
#include <sys/wait.h>
#include <stdlib.h>
#include <pthread.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/resource.h>

static lcl_context *make(lcl_backend b, const char *device, const char *cache) { return lt_context(b, device, cache, NULL, 0); }

static int opencl_devices(void) {
    int n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    return n;
}

static void test_status_strings(void) {
    int i, j;
    for (i = 0; i < LCL_STATUS_COUNT_; i++) {
        const char *s = lcl_status_string((lcl_status)i);
        CHECK(s && s[0]);
        for (j = 0; j < i; j++) CHECK(strcmp(s, lcl_status_string((lcl_status)j)) != 0);
    }
    CHECK(!strcmp(lcl_status_string((lcl_status)999), "unknown status"));
    CHECK(!strcmp(lcl_status_string((lcl_status)-1), "unknown status"));
    CHECK(lcl_last_error(NULL) != NULL);
    CHECK(lcl_last_status(NULL) == LCL_ERR_INVALID_ARGUMENT);
}

static void test_backend_names(void) {
    lcl_backend b;
    const char *names[4] = {"auto", "serial", "openmp", "opencl"};
    int i;
    for (i = 0; i < 4; i++) {
        CHECK(lcl_backend_parse(names[i], &b));
        CHECK(!strcmp(lcl_backend_name(b), names[i]));
    }
    CHECK(lcl_backend_parse("OpenCL", &b) && b == LCL_BACKEND_OPENCL);
    CHECK(!lcl_backend_parse("cuda", &b));
    CHECK(!lcl_backend_parse(NULL, &b));
    CHECK(lcl_backend_compiled(LCL_BACKEND_SERIAL));
    CHECK(lcl_backend_compiled(LCL_BACKEND_OPENMP));   /* the runner is built with -fopenmp */
    CHECK(lcl_backend_compiled(LCL_BACKEND_OPENCL));
}

static void test_context_basics(void) {
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    lcl_device_info di;
    CHECK(lcl_context_create(NULL, NULL) == LCL_ERR_INVALID_ARGUMENT);
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    CHECK(lcl_context_backend(ctx) == LCL_BACKEND_SERIAL);
    CHECK(lcl_context_num_devices(ctx) == 0);
    CHECK_STATUS(ctx, lcl_context_device(ctx, 0, &di), LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "out of range") != NULL);
    lcl_clear_error(ctx);
    CHECK(lcl_last_status(ctx) == LCL_OK);
    lcl_context_destroy(ctx);
    d.backend = (lcl_backend)42;
    CHECK(lcl_context_create(&d, &ctx) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "unknown backend") != NULL);
    lcl_context_destroy(ctx);
    d.backend = LCL_BACKEND_SERIAL;
    d.num_threads = -3;
    CHECK(lcl_context_create(&d, &ctx) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "num_threads -3") != NULL);
    lcl_context_destroy(ctx);
    d.num_threads = 0;
    d.shared_context = 5;
    CHECK(lcl_context_create(&d, &ctx) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "shared_context 5") != NULL);
    lcl_context_destroy(ctx);
    d.shared_context = 0;
    d.backend = LCL_BACKEND_OPENMP;
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    CHECK(lcl_context_backend(ctx) == LCL_BACKEND_OPENMP);
    lcl_context_destroy(ctx);
    lcl_context_destroy(NULL);
}

/* y = alpha x + y with values whose results are exact in both precisions */
static void axpy_check(lcl_context *ctx, const char *label) {
    static const int64_t sizes[] = {0, 1, 2, 17, 255, 256, 257, 100003};
    size_t s;
    int p;
    for (p = 0; p < 2; p++) {
        lcl_dtype dt = p ? LCL_F32 : LCL_F64;
        for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
            int64_t n = sizes[s], i, bad = 0;
            double *xd = (double *)malloc((size_t)(n + 1) * sizeof(double)), *yd = (double *)malloc((size_t)(n + 1) * sizeof(double));
            float *xf = (float *)malloc((size_t)(n + 1) * sizeof(float)), *yf = (float *)malloc((size_t)(n + 1) * sizeof(float));
            for (i = 0; i <= n; i++) {
                xd[i] = xf[i] = (float)((i * 7) % 101) - 50.0f;
                yd[i] = yf[i] = (float)(i % 29) * 0.5f;
            }
            CHECK_OK(ctx, lcl_axpy(ctx, dt, n, -1.5, p ? (void *)xf : (void *)xd, p ? (void *)yf : (void *)yd));
            for (i = 0; i <= n; i++) {
                double want = i < n ? -1.5 * (double)(((i * 7) % 101) - 50) + (double)(i % 29) * 0.5 : (double)(i % 29) * 0.5;
                double got = p ? (double)yf[i] : yd[i];
                if (got != want) bad++;
            }
            CHECK_MSG(bad == 0, "%s %s n=%lld: %lld wrong (the element past n must be untouched)", label, p ? "f32" : "f64", (long long)n, (long long)bad);
            free(xd); free(yd); free(xf); free(yf);
        }
    }
}

static void test_axpy_serial_openmp(void) {
    lcl_context *ctx = make(LCL_BACKEND_SERIAL, NULL, NULL);
    CHECK(ctx != NULL);
    axpy_check(ctx, "serial");
    lcl_context_destroy(ctx);
    ctx = make(LCL_BACKEND_OPENMP, NULL, NULL);
    CHECK(ctx != NULL);
    axpy_check(ctx, "openmp");
    lcl_context_destroy(ctx);
    axpy_check(NULL, "no context");
}

static void test_axpy_opencl(void) {
    lcl_context *ctx;
    if (!opencl_devices()) { lt_skip("no OpenCL device"); return; }
    ctx = make(LCL_BACKEND_OPENCL, NULL, getenv("LT_CACHE"));
    CHECK(ctx != NULL);
    if (!ctx) return;
    axpy_check(ctx, "opencl");
    lcl_context_destroy(ctx);
}

static void test_axpy_bad_input(void) {
    lcl_context *ctx = make(LCL_BACKEND_SERIAL, NULL, NULL);
    double x[4] = {1, 2, 3, 4}, y[4] = {0, 0, 0, 0};
    CHECK_STATUS(ctx, lcl_axpy(ctx, LCL_F64, -1, 1.0, x, y), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_axpy(ctx, LCL_F64, 4, 1.0, NULL, y), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_axpy(ctx, (lcl_dtype)7, 4, 1.0, x, y), LCL_ERR_INVALID_ARGUMENT);
    /* NaN propagates, as in BLAS */
    CHECK_OK(ctx, lcl_axpy(ctx, LCL_F64, 4, NAN, x, y));
    CHECK(isnan(y[0]) && isnan(y[3]));
    lcl_context_destroy(ctx);
}

static void test_device_memory_limit(void) {
    lcl_context *ctx;
    lcl_device_info di;
    double x[1], y[1];
    if (!opencl_devices()) { lt_skip("no OpenCL device"); return; }
    ctx = make(LCL_BACKEND_OPENCL, NULL, getenv("LT_CACHE"));
    if (!ctx) { CHECK(ctx != NULL); return; }
    CHECK_OK(ctx, lcl_context_device(ctx, 0, &di));
    /* a length whose buffer exceeds the device's largest allocation fails before touching x, y */
    CHECK_STATUS(ctx, lcl_axpy(ctx, LCL_F64, (int64_t)(di.max_alloc / 8) + 1, 1.0, x, y), LCL_ERR_DEVICE_MEMORY);
    CHECK(strstr(lcl_last_error(ctx), "exceeds") != NULL);
    lcl_context_destroy(ctx);
}

static void test_device_listing(void) {
    lcl_device_info di[16];
    int n = -1, i;
    CHECK_STATUS(NULL, lcl_list_devices(NULL, NULL, 0, NULL), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(NULL, lcl_list_devices(NULL, NULL, 3, &n), LCL_ERR_INVALID_ARGUMENT);
    CHECK_OK(NULL, lcl_list_devices(NULL, di, 16, &n));
    if (n == 0) { lt_skip("no OpenCL device"); return; }
    for (i = 0; i < n && i < 16; i++) {
        CHECK(di[i].index == i);
        CHECK(di[i].name[0] && di[i].platform[0]);
        CHECK(di[i].global_mem > 0 && di[i].max_alloc > 0 && di[i].compute_units > 0 && di[i].max_work_group > 0);
        CHECK(di[i].type == LCL_DEVICE_CPU || di[i].type == LCL_DEVICE_GPU || di[i].type == LCL_DEVICE_ACCELERATOR || di[i].type == LCL_DEVICE_OTHER);
    }
    CHECK(lcl_opencl_unavailable_reason() == NULL);
}

static void test_device_selection(void) {
    lcl_device_info d0, got;
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    int n = 0;
    char sub[16];
    lcl_list_devices(NULL, &d0, 1, &n);
    if (n == 0) { lt_skip("no OpenCL device"); return; }
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_OPENCL;
    d.ignore_env = 1;
    d.device = "0";
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    CHECK(lcl_context_num_devices(ctx) == 1);
    CHECK(lcl_context_device(ctx, 0, &got) == LCL_OK && !strcmp(got.name, d0.name));
    lcl_context_destroy(ctx);
    d.device = "all";
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    CHECK(lcl_context_num_devices(ctx) == n);
    lcl_context_destroy(ctx);
    d.device = d0.type == LCL_DEVICE_GPU ? "gpu" : d0.type == LCL_DEVICE_CPU ? "cpu" : "all";
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    CHECK(lcl_context_num_devices(ctx) >= 1);
    lcl_context_destroy(ctx);
    /* a name substring, in another case */
    snprintf(sub, sizeof sub, "%.6s", d0.name);
    { char *c; for (c = sub; *c; c++) if (*c >= 'a' && *c <= 'z') *c = (char)(*c - 32); }
    d.device = sub;
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    CHECK(lcl_context_num_devices(ctx) >= 1);
    lcl_context_destroy(ctx);
    d.device = "no-such-device-xyz";
    CHECK_STATUS(ctx, lcl_context_create(&d, &ctx), LCL_ERR_BACKEND_UNAVAILABLE);
    CHECK(strstr(lcl_last_error(ctx), "no-such-device-xyz") != NULL);
    lcl_context_destroy(ctx);
    d.device = "99";
    CHECK_STATUS(ctx, lcl_context_create(&d, &ctx), LCL_ERR_BACKEND_UNAVAILABLE);
    CHECK(strstr(lcl_last_error(ctx), "out of range") != NULL);
    lcl_context_destroy(ctx);
    d.device = "0,x";
    CHECK_STATUS(ctx, lcl_context_create(&d, &ctx), LCL_ERR_INVALID_ARGUMENT);
    lcl_context_destroy(ctx);
    /* auto with an impossible device falls back to the CPU instead of failing */
    d.backend = LCL_BACKEND_AUTO;
    d.device = "no-such-device-xyz";
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    CHECK(lcl_context_backend(ctx) == LCL_BACKEND_OPENMP);
    lcl_context_destroy(ctx);
    /* LCL_DEVICE overrides desc.device unless ignore_env */
    setenv("LCL_DEVICE", "no-such-device-xyz", 1);
    d.backend = LCL_BACKEND_OPENCL;
    d.device = "0";
    d.ignore_env = 0;
    CHECK_STATUS(ctx, lcl_context_create(&d, &ctx), LCL_ERR_BACKEND_UNAVAILABLE);
    lcl_context_destroy(ctx);
    d.ignore_env = 1;
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    lcl_context_destroy(ctx);
    unsetenv("LCL_DEVICE");
}

static void rm_rf(const char *dir) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "  (could not remove %s)\n", dir);
}
static int cache_file(const char *dir, char *path, size_t cap) {
    char cmd[700];
    FILE *p;
    int ok = 0;
    snprintf(cmd, sizeof cmd, "ls '%s'/lcl-*.bin 2>/dev/null | head -1", dir);
    p = popen(cmd, "r");
    if (p && fgets(path, (int)cap, p)) { path[strcspn(path, "\n")] = 0; ok = path[0] != 0; }
    if (p) pclose(p);
    return ok;
}

/* one lcl_axpy in single precision, checked: builds (or loads) blas1.cl's program alone */
static void axpy_f32_check(lcl_context *ctx) {
    float x[3] = {1, 2, 3}, y[3] = {1, 1, 1};
    CHECK_OK(ctx, lcl_axpy(ctx, LCL_F32, 3, 2.0, x, y));
    CHECK(y[0] == 3 && y[1] == 5 && y[2] == 7);
}

static void test_program_cache(void) {
    char dir[256], path[512];
    lcl_context *ctx;
    lcl_cache_stats cs;
    FILE *f;
    long size;
    float x[3] = {1, 2, 3}, y[3] = {1, 1, 1};
    if (!opencl_devices()) { lt_skip("no OpenCL device"); return; }
    snprintf(dir, sizeof dir, "build/test-cache-%d/sub", (int)getpid());
    /* miss: built from source and stored (the directory is created) */
    ctx = make(LCL_BACKEND_OPENCL, "0", dir);
    axpy_f32_check(ctx);
    lcl_context_cache_stats(ctx, &cs);
    CHECK(cs.misses == 1 && cs.hits == 0 && cs.stores == 1 && cs.rejected == 0);
    lcl_context_destroy(ctx);
    CHECK(cache_file(dir, path, sizeof path));
    /* hit, and the loaded program works */
    ctx = make(LCL_BACKEND_OPENCL, "0", dir);
    CHECK_OK(ctx, lcl_axpy(ctx, LCL_F32, 3, 2.0, x, y));
    CHECK(y[0] == 3 && y[1] == 5 && y[2] == 7);
    lcl_context_cache_stats(ctx, &cs);
    CHECK(cs.hits == 1 && cs.misses == 0 && cs.rejected == 0 && cs.stores == 0);
    lcl_context_destroy(ctx);
    /* corrupt one payload byte: rejected, rebuilt, replaced */
    f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 0, SEEK_END);
        size = ftell(f);
        fseek(f, size / 2, SEEK_SET);
        { int c = fgetc(f); fseek(f, size / 2, SEEK_SET); fputc(c ^ 0x5a, f); }
        fclose(f);
    }
    ctx = make(LCL_BACKEND_OPENCL, "0", dir);
    axpy_f32_check(ctx);
    lcl_context_cache_stats(ctx, &cs);
    CHECK(cs.rejected == 1 && cs.hits == 0 && cs.stores == 1);
    y[0] = y[1] = y[2] = 1;
    CHECK_OK(ctx, lcl_axpy(ctx, LCL_F32, 3, 2.0, x, y));
    CHECK(y[0] == 3 && y[1] == 5 && y[2] == 7);
    lcl_context_destroy(ctx);
    ctx = make(LCL_BACKEND_OPENCL, "0", dir);
    axpy_f32_check(ctx);
    lcl_context_cache_stats(ctx, &cs);
    CHECK(cs.hits == 1);
    lcl_context_destroy(ctx);
    /* truncated entry, and an entry that is not a cache file at all */
    f = fopen(path, "r+b");
    if (f) { CHECK(ftruncate(fileno(f), 40) == 0); fclose(f); }
    ctx = make(LCL_BACKEND_OPENCL, "0", dir);
    axpy_f32_check(ctx);
    lcl_context_cache_stats(ctx, &cs);
    CHECK(cs.rejected == 1 && cs.stores == 1);
    lcl_context_destroy(ctx);
    f = fopen(path, "wb");
    if (f) { fputs("garbage that is not a program binary", f); fclose(f); }
    ctx = make(LCL_BACKEND_OPENCL, "0", dir);
    axpy_f32_check(ctx);
    lcl_context_cache_stats(ctx, &cs);
    CHECK(cs.rejected == 1);
    lcl_context_destroy(ctx);
    /* other build options are another key: a miss, not a wrong hit. Then the default on PoCL,
       whose binaries hold every kernel compiled: no binary cache unless asked (make above asks);
       LCL_BINARY_CACHE=1 asks too */
    {
        lcl_context_desc d;
        int run, pocl = 0;
        char env[16] = "";
        const char *e = getenv("LCL_BINARY_CACHE");   /* CI sets it: the default is what runs 0 and 1 see */
        if (e) snprintf(env, sizeof env, "%s", e);
        unsetenv("LCL_BINARY_CACHE");
        memset(&d, 0, sizeof d);
        d.backend = LCL_BACKEND_OPENCL;
        d.device = "0";
        d.cache_dir = dir;
        d.ignore_env = 1;
        for (run = 0; run < 3; run++) {
            d.build_options = run == 2 ? "-DLCL_TEST_OPTION=2" : "-DLCL_TEST_OPTION=1";
            if (run == 2) setenv("LCL_BINARY_CACHE", "1", 1);
            ctx = NULL;
            CHECK_OK(ctx, lcl_context_create(&d, &ctx));
            if (run == 2) unsetenv("LCL_BINARY_CACHE");
            if (!ctx) break;
            {
                lcl_device_info di;
                pocl = lcl_context_device(ctx, 0, &di) == LCL_OK && strstr(di.platform, "Portable Computing Language") != NULL;
            }
            CHECK(lt_binary_cache(ctx, -1) == (run == 2 || !pocl));
            if (!run) lt_binary_cache(ctx, 1);
            axpy_f32_check(ctx);
            lcl_context_cache_stats(ctx, &cs);
            if (run == 1) CHECK_MSG(pocl ? cs.misses == 0 && cs.hits == 0 && cs.stores == 0 : cs.hits == 1,
                                    "a cache_dir on %s: %d hits, %d misses, %d stores", pocl ? "PoCL" : "another device", (int)cs.hits,
                                    (int)cs.misses, (int)cs.stores);
            else CHECK_MSG(cs.misses == 1 && cs.hits == 0 && cs.stores == 1, "run %d: %d hits, %d misses, %d stores", run, (int)cs.hits,
                           (int)cs.misses, (int)cs.stores);
            lcl_context_destroy(ctx);
        }
        if (env[0]) setenv("LCL_BINARY_CACHE", env, 1);
    }
    /* lcl_context_prepare builds every kernel file: one entry each, the first loaded from the cache */
    ctx = make(LCL_BACKEND_OPENCL, "0", dir);
    CHECK_OK(ctx, lcl_context_prepare(ctx, LCL_F32));
    lcl_context_cache_stats(ctx, &cs);
    CHECK_MSG(cs.hits == 1 && cs.misses == lt_kernel_files() - 1, "hits %d misses %d of %d files", (int)cs.hits, (int)cs.misses,
              lt_kernel_files());
    lcl_context_destroy(ctx);
    /* an unwritable cache directory is not an error: the program still builds */
    ctx = make(LCL_BACKEND_OPENCL, "0", "/proc/no-such-dir/cache");
    axpy_f32_check(ctx);
    lcl_context_destroy(ctx);
    snprintf(dir, sizeof dir, "build/test-cache-%d", (int)getpid());
    rm_rf(dir);
}

static void test_build_failure(void) {
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    float x[1] = {1}, y[1] = {1};
    if (!opencl_devices()) { lt_skip("no OpenCL device"); return; }
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_OPENCL;
    d.ignore_env = 1;
    d.build_options = "-Dlong=no_such_type";    /* breaks every kernel signature */
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    CHECK_STATUS(ctx, lcl_axpy(ctx, LCL_F32, 1, 1.0, x, y), LCL_ERR_BUILD);
    CHECK(strstr(lcl_last_error(ctx), "CL_BUILD_PROGRAM_FAILURE") != NULL);
    CHECK(strstr(lcl_last_error(ctx), "build log") != NULL);
    CHECK(strstr(lcl_last_error(ctx), "no_such_type") != NULL);   /* the log itself */
    CHECK(y[0] == 1);
    lcl_context_destroy(ctx);
}

/* Each kernel file is its own program: a tunable that breaks sparse.cl alone (SPMV_LDS) leaves
   blas1.cl and dense.cl working, and the SpMV error names the file and carries its build log. */
static void test_kernel_file_isolation(void) {
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    lcl_coo C;
    lcl_spmat *S = NULL;
    lcl_spmat_opts so;
    lcl_dense A, B;
    int32_t ipiv[17];
    int64_t info = -1, i, j;
    float x[2] = {1, 2}, y[2] = {1, 1};
    double xs[17], ys[17], r = 0;
    if (!opencl_devices()) { lt_skip("no OpenCL device"); return; }
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_OPENCL;
    d.ignore_env = 1;
    d.build_options = "-DSPMV_LDS=no_such_lds_size";
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    CHECK_OK(ctx, lcl_axpy(ctx, LCL_F32, 2, 2.0, x, y));
    CHECK(y[0] == 3 && y[1] == 5);
    /* dense.cl: a 17 x 17 diagonally dominant solve on the device, residual checked on the host */
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &A, LCL_F32, LCL_COL_MAJOR, 17, 17));
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &B, LCL_F32, LCL_COL_MAJOR, 17, 1));
    for (i = 0; i < 17; i++) {
        for (j = 0; j < 17; j++) lcl_dense_set(&A, i, j, i == j ? 20.0 : (double)((i * 3 + j * 5) % 7) - 3.0);
        lcl_dense_set(&B, i, 0, (double)(i + 1));
    }
    for (i = 0; i < 17; i++) { xs[i] = 0; ys[i] = lcl_dense_get(&B, i, 0); }
    {
        lcl_dense A0;
        CHECK_OK(ctx, lcl_dense_alloc(ctx, &A0, LCL_F32, LCL_COL_MAJOR, 17, 17));
        for (i = 0; i < 17; i++) for (j = 0; j < 17; j++) lcl_dense_set(&A0, i, j, lcl_dense_get(&A, i, j));
        CHECK_OK(ctx, lcl_gesv(ctx, &A, ipiv, &B, &info));
        CHECK(info == 0);
        for (i = 0; i < 17; i++) xs[i] = lcl_dense_get(&B, i, 0);
        for (i = 0; i < 17; i++) {
            double s = -ys[i];
            for (j = 0; j < 17; j++) s += lcl_dense_get(&A0, i, j) * xs[j];
            if (fabs(s) > r) r = fabs(s);
        }
        CHECK_MSG(r < 1e-4, "residual %g", r);
        lcl_dense_free(&A0);
    }
    lcl_dense_free(&A);
    lcl_dense_free(&B);
    /* sparse.cl: the build error, naming the file and the log's complaint */
    CHECK_OK(ctx, lcl_coo_alloc(ctx, &C, LCL_F64, 2, 2, 2));
    CHECK_OK(ctx, lcl_coo_push(ctx, &C, 0, 0, 1.0));
    CHECK_OK(ctx, lcl_coo_push(ctx, &C, 1, 1, 2.0));
    memset(&so, 0, sizeof so);
    so.format = LCL_FMT_CSR;
    {
        lcl_status st = lcl_spmat_from_coo(ctx, &C, &so, &S);
        if (st == LCL_OK) {
            double xv[2] = {1, 1}, yv[2] = {0, 0};
            st = lcl_spmv(ctx, LCL_NO_TRANS, 1.0, S, xv, 0.0, yv);
        }
        CHECK_MSG(st == LCL_ERR_BUILD, "got %s: %s", lcl_status_string(st), lcl_last_error(ctx));
        CHECK_MSG(strstr(lcl_last_error(ctx), "sparse.cl") != NULL && strstr(lcl_last_error(ctx), "no_such_lds_size") != NULL,
                  "message: %.300s", lcl_last_error(ctx));
    }
    lcl_spmat_free(S);
    lcl_coo_free(&C);
    /* and the working files still work after the failure */
    y[0] = y[1] = 1;
    CHECK_OK(ctx, lcl_axpy(ctx, LCL_F32, 2, 2.0, x, y));
    CHECK(y[0] == 3 && y[1] == 5);
    lcl_context_destroy(ctx);
}

/* run this binary again with an environment; the child's exit code is the verdict */
static int run_child(const char *env, const char *name) {
    char cmd[1024];
    int rc;
    snprintf(cmd, sizeof cmd, "%s '%s' --child %s", env, lt_self, name);
    rc = lt_system_pocl(cmd);   /* (two PoCL devices: PoCL 3.1 can abort in its kernel cache) */
    return rc == -1 ? -1 : WEXITSTATUS(rc);
}

static void test_fallback_no_loader(void) {
    CHECK(run_child("LCL_OPENCL_LIBRARY=/nonexistent/libOpenCL.so.1", "fallback") == 0);
}
static void test_fallback_no_vendor(void) {
    char env[256];
    snprintf(env, sizeof env, "mkdir -p build/empty-vendors && OCL_ICD_VENDORS=build/empty-vendors OCL_ICD_FILENAMES=");
    CHECK(run_child(env, "fallback") == 0);
}
static void test_two_pocl_devices(void) {
    if (!opencl_devices()) { lt_skip("no OpenCL device"); return; }
    CHECK(run_child("POCL_DEVICES='pthread pthread'", "twodev") == 0);
}

/* two contexts, two threads, at once */
typedef struct thr_arg { lcl_backend b; int ok; } thr_arg;
static void *thr_main(void *p) {
    thr_arg *a = (thr_arg *)p;
    int r, i, ok = 1;
    for (r = 0; r < 3; r++) {
        lcl_context *ctx = make(a->b, NULL, getenv("LT_CACHE"));
        double x[1000], y[1000];
        if (!ctx) { fprintf(stderr, "  thread %s: no context\n", lcl_backend_name(a->b)); ok = 0; break; }
        for (i = 0; i < 1000; i++) { x[i] = i; y[i] = 1; }
        if (lcl_axpy(ctx, LCL_F64, 1000, 2.0, x, y) != LCL_OK) { fprintf(stderr, "  thread %s: %s\n", lcl_backend_name(a->b), lcl_last_error(ctx)); ok = 0; }
        for (i = 0; i < 1000; i++) if (y[i] != 2.0 * i + 1) ok = 0;
        lcl_context_destroy(ctx);
    }
    a->ok = ok;
    return NULL;
}
static void test_threads(void) {
    /* the first OpenCL use of the process may happen here, in two threads at once (under TSan) */
    pthread_t t[4];
    thr_arg a[4];
    int i;
    a[0].b = opencl_devices() ? LCL_BACKEND_OPENCL : LCL_BACKEND_SERIAL;
    a[1].b = LCL_BACKEND_AUTO;
    a[2].b = lcl_backend_compiled(LCL_BACKEND_OPENMP) ? LCL_BACKEND_OPENMP : LCL_BACKEND_SERIAL;
    a[3].b = LCL_BACKEND_SERIAL;
    for (i = 0; i < 4; i++) { a[i].ok = 0; pthread_create(&t[i], NULL, thr_main, &a[i]); }
    for (i = 0; i < 4; i++) pthread_join(t[i], NULL);
    CHECK(a[0].ok && a[1].ok && a[2].ok && a[3].ok);
}

static void test_threads_first_contexts(void) {   /* in a fresh process: its first device queries */
    /* under ASan: the thread that first loads PoCL ends with another alternate signal stack than
       the one ASan gave it, which ASan then fails to unmap at the thread's exit (a CHECK abort) */
    CHECK(run_child("ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}use_sigaltstack=0\"", "first_threads") == 0);
}

static void test_dense_container(void) {
    lcl_context *ctx = make(LCL_BACKEND_SERIAL, NULL, NULL);
    lcl_dense m, w;
    double buf[12];
    int i, j;
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &m, LCL_F32, LCL_ROW_MAJOR, 3, 5));
    CHECK(m.ld == 5 && m.owner);
    for (i = 0; i < 3; i++) for (j = 0; j < 5; j++) lcl_dense_set(&m, i, j, i * 10 + j);
    CHECK(((float *)m.data)[1 * 5 + 2] == 12.0f);
    CHECK(isnan(lcl_dense_get(&m, 3, 0)) && isnan(lcl_dense_get(&m, 0, -1)));
    lcl_dense_free(&m);
    /* column-major with padding: element (i,j) at j*ld + i */
    for (i = 0; i < 12; i++) buf[i] = i;
    CHECK_OK(ctx, lcl_dense_wrap(ctx, &w, LCL_F64, LCL_COL_MAJOR, 3, 3, 4, buf));
    CHECK(lcl_dense_get(&w, 2, 1) == 6.0 && lcl_dense_get(&w, 0, 2) == 8.0);
    lcl_dense_free(&w);
    CHECK(buf[0] == 0);   /* wrapped memory is not ours to free */
    CHECK_STATUS(ctx, lcl_dense_wrap(ctx, &w, LCL_F64, LCL_COL_MAJOR, 3, 3, 2, buf), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_dense_alloc(ctx, &m, LCL_F64, LCL_COL_MAJOR, -1, 3), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_dense_alloc(ctx, &m, LCL_F64, LCL_COL_MAJOR, 3000000000LL, 3), LCL_ERR_OVERFLOW);
    CHECK_STATUS(ctx, lcl_dense_alloc(ctx, &m, LCL_F64, LCL_COL_MAJOR, 2147483647, 2147483647), LCL_ERR_OVERFLOW);
    CHECK_OK(ctx, lcl_dense_alloc(ctx, &m, LCL_F64, LCL_COL_MAJOR, 0, 0));
    lcl_dense_free(&m);
    lcl_context_destroy(ctx);
}

static void test_sparse_container(void) {
    lcl_context *ctx = make(LCL_BACKEND_SERIAL, NULL, NULL);
    lcl_coo a, b;
    lcl_csr c;
    lcl_dense d;
    /* 3x4: duplicates and an unsorted order; known CSR by hand */
    CHECK_OK(ctx, lcl_coo_alloc(ctx, &a, LCL_F64, 3, 4, 1));
    CHECK_OK(ctx, lcl_coo_push(ctx, &a, 2, 3, 1.0));
    CHECK_OK(ctx, lcl_coo_push(ctx, &a, 0, 1, 2.0));
    CHECK_OK(ctx, lcl_coo_push(ctx, &a, 2, 0, 3.0));
    CHECK_OK(ctx, lcl_coo_push(ctx, &a, 0, 1, 4.0));
    CHECK_OK(ctx, lcl_coo_push(ctx, &a, 2, 3, -1.0));
    CHECK_STATUS(ctx, lcl_coo_push(ctx, &a, 3, 0, 1.0), LCL_ERR_DIMENSION);
    CHECK_OK(ctx, lcl_csr_from_coo(ctx, &a, &c));
    CHECK(c.nnz == 3);
    CHECK(c.ptr[0] == 0 && c.ptr[1] == 1 && c.ptr[2] == 1 && c.ptr[3] == 3);
    CHECK(c.col[0] == 1 && ((double *)c.val)[0] == 6.0);
    CHECK(c.col[1] == 0 && ((double *)c.val)[1] == 3.0);
    CHECK(c.col[2] == 3 && ((double *)c.val)[2] == 0.0);   /* summed to an explicit zero: kept */
    CHECK_OK(ctx, lcl_csr_to_coo(ctx, &c, &b));
    CHECK(b.nnz == 3 && b.row[2] == 2 && b.col[2] == 3);
    CHECK_OK(ctx, lcl_coo_to_dense(ctx, &a, LCL_ROW_MAJOR, &d));
    CHECK(lcl_dense_get(&d, 0, 1) == 6.0 && lcl_dense_get(&d, 2, 0) == 3.0 && lcl_dense_get(&d, 1, 1) == 0.0);
    lcl_dense_free(&d);
    lcl_coo_free(&b);
    /* precision conversion */
    CHECK_OK(ctx, lcl_coo_copy(ctx, &a, LCL_F32, &b));
    CHECK(b.dtype == LCL_F32 && ((float *)b.val)[1] == 2.0f);
    lcl_coo_free(&b);
    /* a corrupted index is caught, not followed */
    a.col[0] = 99;
    CHECK_STATUS(ctx, lcl_coo_canonicalize(ctx, &a), LCL_ERR_DIMENSION);
    lcl_coo_free(&a);
    lcl_csr_free(&c);
    /* empty and 0x0 */
    CHECK_OK(ctx, lcl_coo_alloc(ctx, &a, LCL_F32, 0, 0, 0));
    CHECK_OK(ctx, lcl_csr_from_coo(ctx, &a, &c));
    CHECK(c.rows == 0 && c.nnz == 0 && c.ptr[0] == 0);
    lcl_csr_free(&c);
    lcl_coo_free(&a);
    CHECK_STATUS(ctx, lcl_coo_alloc(ctx, &a, LCL_F64, 5, 5, (int64_t)1 << 62), LCL_ERR_OVERFLOW);
    lcl_context_destroy(ctx);
}

/* a 2^31-1 square matrix with three entries: read, sorted and summed without a giant allocation */
static long peak_kb(void) { struct rusage u; getrusage(RUSAGE_SELF, &u); return u.ru_maxrss; }
static void test_limits_huge_sparse(void) {
    static const char text[] = "%%MatrixMarket matrix coordinate real general\n"
                               "2147483647 2147483647 3\n2147483647 1 1.5\n1 2147483647 2.5\n1 2147483647 0.5\n";
    lcl_coo a;
    lcl_dense d;
    long before = peak_kb();
    CHECK_OK(NULL, lcl_mm_read_mem(NULL, text, sizeof text - 1, LCL_F64, 0, &a, NULL));
    CHECK(a.nnz == 2 && a.rows == 2147483647);
    CHECK(a.row[0] == 0 && a.col[0] == 2147483646 && ((double *)a.val)[0] == 3.0);
    CHECK(a.row[1] == 2147483646 && a.col[1] == 0 && ((double *)a.val)[1] == 1.5);
    CHECK(peak_kb() - before < 64 * 1024);
    /* the dense form of it cannot exist: a clear error, not an attempt */
    CHECK_STATUS(NULL, lcl_coo_to_dense(NULL, &a, LCL_COL_MAJOR, &d), LCL_ERR_OVERFLOW);
    lcl_coo_free(&a);
}

void lt_suite_core(void) {
    LT_RUN(test_status_strings);
    LT_RUN(test_backend_names);
    LT_RUN(test_context_basics);
    LT_RUN(test_axpy_serial_openmp);
    LT_RUN(test_axpy_opencl);
    LT_RUN(test_axpy_bad_input);
    LT_RUN(test_device_listing);
    LT_RUN(test_device_selection);
    LT_RUN(test_device_memory_limit);
    LT_RUN(test_program_cache);
    LT_RUN(test_build_failure);
    LT_RUN(test_kernel_file_isolation);
    LT_RUN(test_fallback_no_loader);
    LT_RUN(test_fallback_no_vendor);
    LT_RUN(test_two_pocl_devices);
    LT_RUN(test_threads);
    LT_RUN(test_threads_first_contexts);
    LT_RUN(test_dense_container);
    LT_RUN(test_sparse_container);
    LT_RUN(test_limits_huge_sparse);
}

/* ---- children: run in a process of their own, with an environment set by the parent ---- */
static int log_calls;
static char log_last[1024];
static void count_log(void *u, lcl_log_level lv, const char *msg) {
    (void)u;
    if (lv <= LCL_LOG_WARN) { log_calls++; snprintf(log_last, sizeof log_last, "%s", msg); }
}

static int child_fallback(void) {
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    int n = -1, bad = 0;
    double x[5] = {1, 2, 3, 4, 5}, y[5] = {0};
    memset(&d, 0, sizeof d);
    d.log = count_log;
    d.ignore_env = 1;
    if (lcl_context_create(&d, &ctx) != LCL_OK) { fprintf(stderr, "auto failed: %s\n", lcl_last_error(ctx)); bad++; }
    if (lcl_context_backend(ctx) != LCL_BACKEND_OPENMP) { fprintf(stderr, "auto chose %s\n", lcl_backend_name(lcl_context_backend(ctx))); bad++; }
    if (log_calls != 1) { fprintf(stderr, "log called %d times, want once\n", log_calls); bad++; }
    fprintf(stderr, "  fallback said: %s\n", log_last);
    if (!strstr(log_last, "OpenCL") && !strstr(log_last, "platform")) bad++;
    if (lcl_axpy(ctx, LCL_F64, 5, 1.0, x, y) != LCL_OK || y[4] != 5) bad++;
    lcl_context_destroy(ctx);
    d.backend = LCL_BACKEND_OPENCL;
    if (lcl_context_create(&d, &ctx) != LCL_ERR_BACKEND_UNAVAILABLE) bad++;
    fprintf(stderr, "  explicit opencl: %s\n", lcl_last_error(ctx));
    lcl_context_destroy(ctx);
    if (lcl_list_devices(NULL, NULL, 0, &n) != LCL_OK || n != 0) bad++;
    return bad ? 1 : 0;
}

static int child_twodev(void) {
    lcl_device_info di[16];
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    int n = 0, i, pocl = 0, bad = 0;
    lcl_list_devices(NULL, di, 16, &n);
    for (i = 0; i < n && i < 16; i++) if (strstr(di[i].platform, "Portable")) pocl++;
    if (pocl != 2) { fprintf(stderr, "PoCL devices: %d, want 2\n", pocl); bad++; }
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_OPENCL;
    d.device = "Portable Computing Language";
    d.ignore_env = 1;
    d.cache_dir = getenv("LT_CACHE");
    if (lcl_context_create(&d, &ctx) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); bad++; }
    if (lcl_context_num_devices(ctx) != 2) { fprintf(stderr, "context holds %d devices\n", lcl_context_num_devices(ctx)); bad++; }
    if (lcl_context_prepare(ctx, LCL_F32) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); bad++; }
    lcl_context_destroy(ctx);
    return bad ? 1 : 0;
}

/* the process's first contexts, four threads at once: each must find what one thread alone finds
   (PoCL 3.1 answered concurrent first device queries with CL_DEVICE_NOT_FOUND: the threads fell
   back to OpenMP, or failed with an explicit OpenCL backend) */
typedef struct first_arg { lcl_backend want, got; lcl_status st; int ndev; char err[200]; } first_arg;
static void *first_main(void *p) {
    first_arg *a = (first_arg *)p;
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    memset(&d, 0, sizeof d);
    d.backend = a->want;
    d.ignore_env = 1;
    a->st = lcl_context_create(&d, &ctx);
    a->got = lcl_context_backend(ctx);
    a->ndev = lcl_context_num_devices(ctx);
    snprintf(a->err, sizeof a->err, "%s", a->st == LCL_OK ? "" : lcl_last_error(ctx));
    lcl_context_destroy(ctx);
    return NULL;
}
static int child_first_threads(void) {
    pthread_t t[4];
    first_arg a[4], alone;
    int i, bad = 0;
    for (i = 0; i < 4; i++) { memset(&a[i], 0, sizeof a[i]); a[i].want = i == 3 ? LCL_BACKEND_OPENCL : LCL_BACKEND_AUTO; }
    for (i = 0; i < 4; i++) pthread_create(&t[i], NULL, first_main, &a[i]);
    for (i = 0; i < 4; i++) pthread_join(t[i], NULL);
    memset(&alone, 0, sizeof alone);
    first_main(&alone);
    for (i = 0; i < 4; i++) {
        int ok = i < 3 ? a[i].st == alone.st && a[i].got == alone.got && a[i].ndev == alone.ndev
                       : alone.got != LCL_BACKEND_OPENCL || (a[i].st == LCL_OK && a[i].ndev == alone.ndev);
        if (!ok) {
            fprintf(stderr, "thread %d (%s): %s, backend %s, %d devices; alone: %s, %d devices: %s\n", i, lcl_backend_name(a[i].want),
                    lcl_status_string(a[i].st), lcl_backend_name(a[i].got), a[i].ndev, lcl_backend_name(alone.got), alone.ndev, a[i].err);
            bad++;
        }
    }
    return bad ? 1 : 0;
}

int lt_child(const char *name) {
    if (!strcmp(name, "fallback")) return child_fallback();
    if (!strcmp(name, "twodev")) return child_twodev();
    if (!strcmp(name, "first_threads")) return child_first_threads();
    fprintf(stderr, "unknown child %s\n", name);
    return 2;
}
