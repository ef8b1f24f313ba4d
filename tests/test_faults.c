/* test_faults.c -- fault injection (issue "Reliability").
   Allocation sweeps: for k = 1, 2, ... the k-th host allocation of an operation fails (once, then
   again with every later one failing too) until a run no longer reaches k. Each faulted run must
   return an error (printed per kind) -- or, where the library is meant to absorb the fault (a cache
   entry it cannot load, a message it cannot lengthen, a CPU fallback), succeed with a correct
   result -- and leave lt_alloc_outstanding() where it was: no leak.
   OpenCL faults: selected entry points fail (lt_cl_fail); each call returns promptly with a clear
   error, leaks no host memory, and the same context works again after lt_cl_reset. */
#define _POSIX_C_SOURCE 200809L
#include "lt.h"
#include <stdlib.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

/* cl.h's values, so this file needs no OpenCL header */
#define F_CL_DEVICE_NOT_AVAILABLE (-2)
#define F_CL_MEM_OBJECT_ALLOCATION_FAILURE (-4)
#define F_CL_OUT_OF_RESOURCES (-5)
#define F_CL_OUT_OF_HOST_MEMORY (-6)
#define F_CL_BUILD_PROGRAM_FAILURE (-11)
#define F_CL_INVALID_COMMAND_QUEUE (-36)

static char tmpdir[256];        /* build/test-faults-PID: cache and written files */
static char msg[4096];          /* the failing operation's message */

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}
static void note(const lcl_context *ctx) { snprintf(msg, sizeof msg, "%s", lcl_last_error(ctx)); }
static int opencl_devices(void) {
    int n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    return n;
}
static lcl_context *make(lcl_backend b, const char *device, const char *cache, const char *opts) { return lt_context(b, device, cache, opts, 0); }
static void path_in_tmp(char *out, size_t cap, const char *name) { snprintf(out, cap, "%s/%s", tmpdir, name); }

/* ---- the sweep ------------------------------------------------------------------------------ */
enum {
    SW_TOLERANT = 1,    /* a fault may be absorbed: the clean status with the fault reached is fine */
    SW_LATE_ARM = 2,    /* the operation calls arm() itself, after its unfaulted setup */
    SW_ONE_MODE = 4     /* only the fail-once mode (slow operations) */
};
static long sw_k;
static int sw_sticky;
static void arm(void) {
    if (sw_sticky) lt_alloc_fail_from(sw_k);
    else lt_alloc_fail_at(sw_k);
}
typedef lcl_status (*op_fn)(lcl_context *ctx, void *u);

/* want: the status of a run without a fault (LCL_OK, or the error an error-path test expects) */
static void sweep(const char *name, lcl_context *ctx, op_fn op, void *u, lcl_status want, int flags) {
    long seen[LCL_STATUS_COUNT_];
    char first[LCL_STATUS_COUNT_][200];
    long k, sites = -1, absorbed = 0, runs = 0;
    int mode, s;
    double t0 = now();
    memset(seen, 0, sizeof seen);
    for (mode = 0; mode < ((flags & SW_ONE_MODE) ? 1 : 2); mode++) {
        for (k = 1;; k++) {
            long base, calls, after;
            lcl_status st;
            if (k > 20000) { CHECK_MSG(0, "%s: no end to the allocations", name); break; }
            if (ctx) lcl_clear_error(ctx);
            msg[0] = 0;
            base = lt_alloc_outstanding();
            sw_k = k;
            sw_sticky = mode;
            lt_alloc_fail_at(0);
            if (!(flags & SW_LATE_ARM)) arm();
            st = op(ctx, u);
            calls = lt_alloc_calls();
            lt_alloc_fail_at(0);
            runs++;
            if (ctx && st != LCL_OK) {
                if (!msg[0]) note(ctx);
                CHECK_MSG(lcl_last_status(ctx) == st, "%s: returned %s, the context says %s", name, lcl_status_string(st),
                          lcl_status_string(lcl_last_status(ctx)));
            }
            if (ctx) lcl_clear_error(ctx);
            after = lt_alloc_outstanding();
            CHECK_MSG(after == base, "%s: %s allocation %ld (of %ld) failing leaks %ld block(s); returned %s: %s", name,
                      sw_sticky ? "every call from" : "only", k, calls, after - base, lcl_status_string(st), msg);
            if (calls < k) {    /* the fault was never reached: the clean run */
                CHECK_MSG(st == want, "%s without a fault: %s, want %s: %s", name, lcl_status_string(st), lcl_status_string(want), msg);
                if (mode == 0) sites = calls;
                break;
            }
            if (st == want) {
                CHECK_MSG(flags & SW_TOLERANT, "%s: allocation %ld of %ld failed, yet the call returned %s", name, k, calls,
                          lcl_status_string(st));
                absorbed++;
            } else if ((int)st > 0 && (int)st < LCL_STATUS_COUNT_) {
                if (!seen[st]++) snprintf(first[st], sizeof first[st], "%.199s", msg);
            } else CHECK_MSG(0, "%s: bad status %d", name, (int)st);
        }
    }
    fprintf(stderr, "  %-38s %3ld allocation(s), %4ld runs, %.2f s:", name, sites, runs, now() - t0);
    for (s = 0; s < LCL_STATUS_COUNT_; s++)
        if (seen[s]) fprintf(stderr, " %s x%ld", lcl_status_string((lcl_status)s), seen[s]);
    if (absorbed) fprintf(stderr, " absorbed x%ld", absorbed);
    fputc('\n', stderr);
    for (s = 0; s < LCL_STATUS_COUNT_; s++)
        if (seen[s] && s != LCL_ERR_OUT_OF_MEMORY) fprintf(stderr, "      %s: %.160s\n", lcl_status_string((lcl_status)s), first[s]);
}

/* ---- operations ----------------------------------------------------------------------------- */
typedef struct create_arg { lcl_backend b; const char *device, *cache, *opts; } create_arg;
static lcl_status op_create(lcl_context *unused, void *u) {
    const create_arg *a = (const create_arg *)u;
    lcl_context_desc d;
    lcl_context *ctx = NULL;
    lcl_status st;
    (void)unused;
    memset(&d, 0, sizeof d);
    d.backend = a->b;
    d.device = a->device;
    d.cache_dir = a->cache;
    d.build_options = a->opts;
    d.ignore_env = 1;
    st = lcl_context_create(&d, &ctx);
    if (st != LCL_OK) note(ctx);
    else if (a->b == LCL_BACKEND_AUTO) CHECK(lcl_context_backend(ctx) == LCL_BACKEND_OPENCL || lcl_context_backend(ctx) == LCL_BACKEND_OPENMP);
    else CHECK(lcl_context_backend(ctx) == a->b);
    lcl_context_destroy(ctx);
    return st;
}

/* unfaulted context, then faults from the program build on: prepare, or an axpy that builds */
typedef struct prog_arg { const char *cache, *opts; int axpy; } prog_arg;
static lcl_status op_program(lcl_context *unused, void *u) {
    const prog_arg *a = (const prog_arg *)u;
    lcl_context *ctx = make(LCL_BACKEND_OPENCL, NULL, a->cache, a->opts);
    float x[5] = {1, 2, 3, 4, 5}, y[5] = {1, 1, 1, 1, 1};
    lcl_status st;
    (void)unused;
    if (!ctx) { CHECK(ctx != NULL); arm(); return a->opts ? LCL_ERR_BUILD : LCL_OK; }
    arm();
    st = a->axpy ? lcl_axpy(ctx, LCL_F32, 5, 2.0, x, y) : lcl_context_prepare(ctx, LCL_F32);
    if (st != LCL_OK) {
        note(ctx);
        if (st == LCL_ERR_BUILD) CHECK(strstr(msg, "CL_BUILD_PROGRAM_FAILURE") != NULL);
        CHECK(y[4] == 1.0f);
    } else if (a->axpy) CHECK(y[0] == 3.0f && y[4] == 11.0f);
    lcl_context_destroy(ctx);
    return st;
}

static lcl_status op_axpy(lcl_context *ctx, void *u) {
    double x[300], y[300];
    int i, bad = 0;
    lcl_status st;
    (void)u;
    for (i = 0; i < 300; i++) { x[i] = i; y[i] = 1; }
    st = lcl_axpy(ctx, LCL_F64, 300, 0.5, x, y);
    for (i = 0; i < 300; i++) if (y[i] != (st == LCL_OK ? 1 + 0.5 * i : 1)) bad++;
    CHECK_MSG(bad == 0, "axpy: %d wrong after %s", bad, lcl_status_string(st));
    return st;
}

static lcl_status op_list(lcl_context *ctx, void *u) {
    lcl_device_info di[8];
    int n = -1;
    lcl_status st = lcl_list_devices(ctx, di, 8, &n);
    if (st == LCL_OK) CHECK(n == *(const int *)u);
    return st;
}

typedef struct mm_arg { const char *path; lcl_dtype dt; int flags; int64_t nnz; const char *text; } mm_arg;
static lcl_status op_mm_read(lcl_context *ctx, void *u) {
    const mm_arg *a = (const mm_arg *)u;
    lcl_coo m;
    lcl_mm_info info;
    lcl_status st = a->text ? lcl_mm_read_mem(ctx, a->text, strlen(a->text), a->dt, a->flags, &m, &info)
                            : lcl_mm_read(ctx, a->path, a->dt, a->flags, &m, &info);
    if (st == LCL_OK) CHECK(m.nnz == a->nnz && m.dtype == a->dt);
    else CHECK(m.row == NULL && m.col == NULL && m.val == NULL && m.nnz == 0);
    lcl_coo_free(&m);
    return st;
}
static lcl_status op_mm_read_dense(lcl_context *ctx, void *u) {
    const mm_arg *a = (const mm_arg *)u;
    lcl_dense m;
    lcl_status st = lcl_mm_read_dense(ctx, a->path, a->dt, LCL_COL_MAJOR, a->flags, &m, NULL);
    if (st == LCL_OK) CHECK(m.rows * m.cols == a->nnz && m.data != NULL);
    else CHECK(m.data == NULL);
    lcl_dense_free(&m);
    return st;
}
static lcl_status op_mm_read_info(lcl_context *ctx, void *u) {
    const mm_arg *a = (const mm_arg *)u;
    lcl_mm_info info;
    lcl_status st = lcl_mm_read_info(ctx, a->path, &info);
    if (st == LCL_OK) CHECK(info.entries > 0);
    return st;
}

typedef struct wr_arg { const char *path; const lcl_coo *coo; const lcl_dense *den; lcl_mm_symmetry sym; } wr_arg;
static lcl_status op_mm_write(lcl_context *ctx, void *u) {
    const wr_arg *a = (const wr_arg *)u;
    return a->den ? lcl_mm_write_dense(ctx, a->path, a->den) : lcl_mm_write(ctx, a->path, a->coo, a->sym);
}
static lcl_status op_writer(lcl_context *ctx, void *u) {
    const wr_arg *a = (const wr_arg *)u;
    lcl_mm_writer *w = NULL;
    lcl_status st = lcl_mm_writer_open(ctx, a->path, LCL_MM_COORDINATE, LCL_MM_GENERAL, 4, 4, 2, "two entries\nand a comment", &w);
    if (st != LCL_OK) { CHECK(w == NULL); return st; }
    if ((st = lcl_mm_writer_put(w, 0, 0, 1.5)) == LCL_OK) st = lcl_mm_writer_put(w, 3, 2, -2.0);
    {
        lcl_status st2 = lcl_mm_writer_close(w);
        return st != LCL_OK ? st : st2;
    }
}

/* containers: fixtures built unfaulted by the test */
typedef struct ct_arg { const lcl_coo *coo; const lcl_csr *csr; const lcl_dense *den; } ct_arg;
static lcl_status op_coo_build(lcl_context *ctx, void *u) {
    lcl_coo m;
    int k;
    lcl_status st;
    (void)u;
    if ((st = lcl_coo_alloc(ctx, &m, LCL_F64, 50, 40, 1)) != LCL_OK) { CHECK(m.row == NULL && m.val == NULL); return st; }
    for (k = 0; k < 150 && st == LCL_OK; k++) st = lcl_coo_push(ctx, &m, (k * 37) % 50, (k * 11) % 40, k);  /* unsorted, duplicates */
    if (st == LCL_OK) st = lcl_coo_canonicalize(ctx, &m);
    if (st == LCL_OK) CHECK(m.nnz > 0 && m.nnz <= 150 && m.cap >= m.nnz);
    lcl_coo_free(&m);
    return st;
}
static lcl_status op_coo_huge(lcl_context *ctx, void *u) {   /* few entries, huge dimensions */
    lcl_coo m;
    int k;
    lcl_status st;
    (void)u;
    if ((st = lcl_coo_alloc(ctx, &m, LCL_F32, 2000000, 3000000, 4)) != LCL_OK) return st;
    for (k = 0; k < 40 && st == LCL_OK; k++) st = lcl_coo_push(ctx, &m, (k * 7919) % 2000000, (k * 104729) % 3000000 / (1 + k % 3), 1);
    if (st == LCL_OK) st = lcl_coo_canonicalize(ctx, &m);
    if (st == LCL_OK) CHECK(m.nnz == 40 && m.row[0] == 0 && m.row[39] > m.row[0]);
    lcl_coo_free(&m);
    return st;
}
static lcl_status op_csr_from_coo(lcl_context *ctx, void *u) {
    lcl_csr c;
    lcl_status st = lcl_csr_from_coo(ctx, ((const ct_arg *)u)->coo, &c);
    if (st == LCL_OK) CHECK(c.ptr[c.rows] == c.nnz);
    else CHECK(c.ptr == NULL && c.col == NULL && c.val == NULL);
    lcl_csr_free(&c);
    return st;
}
static lcl_status op_rowpart(lcl_context *ctx, void *u) {
    lcl_rowpart P;
    lcl_status st = lcl_rowpart_create(ctx, (const lcl_csr *)u, 3, 1, &P);
    if (st == LCL_OK) CHECK(P.local.rows == P.nloc && P.nghost > 0 && P.send_off[3] > 0);
    else CHECK(P.local.ptr == NULL && P.ghost == NULL && P.send_idx == NULL);
    lcl_rowpart_free(&P);
    return st;
}
static lcl_status op_csr_to_coo(lcl_context *ctx, void *u) {
    const lcl_csr *c = ((const ct_arg *)u)->csr;
    lcl_coo m;
    lcl_status st = lcl_csr_to_coo(ctx, c, &m);
    if (st == LCL_OK) CHECK(m.nnz == c->nnz);
    else CHECK(m.row == NULL && m.val == NULL);
    lcl_coo_free(&m);
    return st;
}
static lcl_status op_coo_to_dense(lcl_context *ctx, void *u) {
    lcl_dense d;
    lcl_status st = lcl_coo_to_dense(ctx, ((const ct_arg *)u)->coo, LCL_ROW_MAJOR, &d);
    if (st != LCL_OK) CHECK(d.data == NULL);
    lcl_dense_free(&d);
    return st;
}
static lcl_status op_dense_to_coo(lcl_context *ctx, void *u) {
    lcl_coo m;
    lcl_status st = lcl_dense_to_coo(ctx, ((const ct_arg *)u)->den, &m);
    if (st == LCL_OK) CHECK(m.nnz > 16);
    else CHECK(m.row == NULL && m.val == NULL);
    lcl_coo_free(&m);
    return st;
}
static lcl_status op_coo_copy(lcl_context *ctx, void *u) {
    const lcl_coo *a = ((const ct_arg *)u)->coo;
    lcl_coo m;
    lcl_status st = lcl_coo_copy(ctx, a, LCL_F32, &m);
    if (st == LCL_OK) CHECK(m.nnz == a->nnz && m.dtype == LCL_F32);
    lcl_coo_free(&m);
    return st;
}
static lcl_status op_dense_alloc(lcl_context *ctx, void *u) {
    lcl_dense d;
    lcl_status st = lcl_dense_alloc(ctx, &d, LCL_F32, LCL_COL_MAJOR, 30, 20);
    (void)u;
    if (st != LCL_OK) CHECK(d.data == NULL);
    lcl_dense_free(&d);
    return st;
}

/* the message path: an error message over 256 characters is allocated (or, failing that, cut) */
static lcl_status op_long_path(lcl_context *ctx, void *u) {
    const char *path = (const char *)u;
    lcl_coo m;
    lcl_status st = lcl_mm_read(ctx, path, LCL_F64, 0, &m, NULL);
    note(ctx);
    CHECK_MSG(strncmp(msg, path, 200) == 0, "message: %.80s", msg);
    /* a second long message replaces the first */
    if (st == LCL_ERR_IO) st = lcl_mm_read(ctx, path, LCL_F64, 0, &m, NULL);
    note(ctx);
    CHECK_MSG(strncmp(msg, path, 200) == 0, "message: %.80s", msg);
    if (lt_alloc_calls() < sw_k) CHECK_MSG(strlen(msg) > strlen(path), "message cut without a fault: %zu chars", strlen(msg));
    return st;
}

/* ---- tests ---------------------------------------------------------------------------------- */
static void test_fault_hooks(void) {
    long base = lt_alloc_outstanding();
    lcl_coo m;
    lcl_context *ctx = make(LCL_BACKEND_SERIAL, NULL, NULL, NULL);
    CHECK(ctx != NULL);
    CHECK(lt_alloc_outstanding() == base + 1);
    lt_alloc_fail_at(1);
    CHECK_STATUS(ctx, lcl_coo_alloc(ctx, &m, LCL_F64, 3, 3, 4), LCL_ERR_OUT_OF_MEMORY);
    CHECK(lt_alloc_calls() == 1);
    CHECK(strstr(lcl_last_error(ctx), "out of host memory") != NULL);
    lt_alloc_fail_at(2);    /* the second of three reallocs: the first block is freed again */
    CHECK_STATUS(ctx, lcl_coo_alloc(ctx, &m, LCL_F64, 3, 3, 4), LCL_ERR_OUT_OF_MEMORY);
    CHECK(lt_alloc_calls() == 2);
    lt_alloc_fail_at(0);
    CHECK(lt_alloc_outstanding() == base + 1);
    CHECK_OK(ctx, lcl_coo_alloc(ctx, &m, LCL_F64, 3, 3, 4));
    CHECK(lt_alloc_outstanding() == base + 4 && lt_alloc_calls() == 3);
    lcl_coo_free(&m);
    lcl_context_destroy(ctx);
    CHECK(lt_alloc_outstanding() == base);
}

static void test_fault_alloc_contexts(void) {
    create_arg a;
    char cache[300];
    int ndev = opencl_devices();
    path_in_tmp(cache, sizeof cache, "cache-create");
    memset(&a, 0, sizeof a);
    a.cache = cache;
    a.opts = "-DLCL_FAULT_TEST=1";
    a.b = LCL_BACKEND_SERIAL;
    sweep("lcl_context_create serial", NULL, op_create, &a, LCL_OK, 0);
    a.b = LCL_BACKEND_OPENMP;
    sweep("lcl_context_create openmp", NULL, op_create, &a, LCL_OK, 0);
    sweep("lcl_list_devices", NULL, op_list, &ndev, LCL_OK, 0);
    if (!ndev) { lt_skip("no OpenCL device (CPU contexts were swept)"); return; }
    a.b = LCL_BACKEND_OPENCL;
    sweep("lcl_context_create opencl", NULL, op_create, &a, LCL_OK, 0);
    a.device = "all";
    sweep("lcl_context_create opencl all", NULL, op_create, &a, LCL_OK, 0);
    a.device = NULL;
    a.b = LCL_BACKEND_AUTO;   /* a fault while opening OpenCL falls back to the CPU: absorbed */
    sweep("lcl_context_create auto", NULL, op_create, &a, LCL_OK, SW_TOLERANT);
}

static void test_fault_alloc_programs(void) {
    char cache[300], nodir[] = "/proc/no-such-dir/lcl-cache";
    prog_arg p;
    lcl_context *ctx;
    if (!opencl_devices()) { lt_skip("no OpenCL device"); return; }
    path_in_tmp(cache, sizeof cache, "cache-prog");
    /* prime the cache so the sweeps load the program (fast) instead of compiling it */
    ctx = make(LCL_BACKEND_OPENCL, NULL, cache, NULL);
    if (!ctx) { CHECK(ctx != NULL); return; }
    CHECK_OK(ctx, lcl_context_prepare(ctx, LCL_F32));
    lcl_context_destroy(ctx);
    memset(&p, 0, sizeof p);
    /* cache hit: a load buffer that cannot be allocated means a rebuild, not an error */
    p.cache = cache;
    sweep("lcl_context_prepare (cache hit)", NULL, op_program, &p, LCL_OK, SW_LATE_ARM | SW_TOLERANT);
    p.axpy = 1;
    sweep("lcl_axpy opencl, first use", NULL, op_program, &p, LCL_OK, SW_LATE_ARM | SW_TOLERANT);
    /* cache miss that cannot store: the store buffer is optional too */
    p.axpy = 0;
    p.cache = nodir;
    sweep("lcl_context_prepare (cache miss)", NULL, op_program, &p, LCL_OK, SW_LATE_ARM | SW_TOLERANT | SW_ONE_MODE);
    /* a failed build: its log and the long message are allocated; failing either still says BUILD */
    p.cache = NULL;
    p.opts = "-Dlong=no_such_type";
    sweep("lcl_context_prepare (build fails)", NULL, op_program, &p, LCL_ERR_BUILD, SW_LATE_ARM | SW_TOLERANT);
    /* a prepared context's axpy allocates nothing on the host */
    ctx = make(LCL_BACKEND_OPENCL, NULL, cache, NULL);
    if (!ctx) { CHECK(ctx != NULL); return; }
    CHECK_OK(ctx, lcl_context_prepare(ctx, LCL_F64));
    sweep("lcl_axpy opencl, prepared", ctx, op_axpy, NULL, LCL_OK, 0);
    lcl_context_destroy(ctx);
}

static void test_fault_alloc_mmio(void) {
    lcl_context *ctx = make(LCL_BACKEND_SERIAL, NULL, NULL, NULL);
    char west[600], bcs[600], arr[600], out[600], *text = NULL;
    static const char sym_text[] = "%%MatrixMarket matrix coordinate real symmetric\n% unsorted, duplicates\n5 5 7\n"
                                   "5 1 1.5\n2 2 2\n3 1 -1\n5 1 2.5\n4 4 1e300\n1 1 1\n5 5 0.5\n";
    mm_arg a;
    wr_arg w;
    lcl_coo A, S;
    lcl_dense D;
    FILE *f;
    long len;
    if (!ctx) { CHECK(ctx != NULL); return; }
    lt_matrix_path(west, sizeof west, "west0067.mtx");
    lt_matrix_path(bcs, sizeof bcs, "bcsstk01.mtx");
    if (lcl_mm_read(ctx, west, LCL_F64, 0, &A, NULL) != LCL_OK) {
        CHECK_MSG(0, "%s: %s", west, lcl_last_error(ctx));
        lcl_context_destroy(ctx);
        return;
    }
    CHECK_OK(ctx, lcl_mm_read(ctx, bcs, LCL_F64, LCL_MM_EXPAND, &S, NULL));
    CHECK_OK(ctx, lcl_coo_to_dense(ctx, &A, LCL_COL_MAJOR, &D));
    path_in_tmp(arr, sizeof arr, "dense.mtx");
    CHECK_OK(ctx, lcl_mm_write_dense(ctx, arr, &D));
    memset(&a, 0, sizeof a);
    a.path = west;
    a.dt = LCL_F64;
    a.nnz = A.nnz;
    sweep("lcl_mm_read west0067", ctx, op_mm_read, &a, LCL_OK, 0);
    a.path = bcs;
    a.dt = LCL_F32;
    a.flags = LCL_MM_EXPAND;
    a.nnz = S.nnz;
    sweep("lcl_mm_read bcsstk01 expand", ctx, op_mm_read, &a, LCL_OK, 0);
    a.path = NULL;
    a.text = sym_text;
    a.dt = LCL_F64;
    a.nnz = 8;   /* 6 distinct stored, 2 of them mirrored */
    sweep("lcl_mm_read_mem symmetric", ctx, op_mm_read, &a, LCL_OK, 0);
    f = fopen(west, "rb");
    if (f && fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 && (text = (char *)malloc((size_t)len + 1)) != NULL) {
        rewind(f);
        text[fread(text, 1, (size_t)len, f)] = 0;
        a.text = text;
        a.flags = 0;
        a.nnz = A.nnz;
        sweep("lcl_mm_read_mem west0067", ctx, op_mm_read, &a, LCL_OK, 0);
    } else CHECK_MSG(0, "cannot read %s", west);
    if (f) fclose(f);
    free(text);
    a.text = NULL;
    a.path = west;
    a.nnz = 67 * 67;
    sweep("lcl_mm_read_dense coordinate", ctx, op_mm_read_dense, &a, LCL_OK, 0);
    a.path = arr;
    sweep("lcl_mm_read_dense array", ctx, op_mm_read_dense, &a, LCL_OK, 0);
    sweep("lcl_mm_read_info", ctx, op_mm_read_info, &a, LCL_OK, 0);
    path_in_tmp(out, sizeof out, "out.mtx");
    memset(&w, 0, sizeof w);
    w.path = out;
    w.coo = &A;
    sweep("lcl_mm_write general", ctx, op_mm_write, &w, LCL_OK, 0);
    w.coo = &S;
    w.sym = LCL_MM_SYMMETRIC;
    sweep("lcl_mm_write symmetric", ctx, op_mm_write, &w, LCL_OK, 0);
    w.den = &D;
    sweep("lcl_mm_write_dense", ctx, op_mm_write, &w, LCL_OK, 0);
    sweep("lcl_mm_writer_open/put/close", ctx, op_writer, &w, LCL_OK, 0);
    lcl_coo_free(&A);
    lcl_coo_free(&S);
    lcl_dense_free(&D);
    lcl_context_destroy(ctx);
}

static void test_fault_alloc_containers(void) {
    lcl_context *ctx = make(LCL_BACKEND_SERIAL, NULL, NULL, NULL);
    lcl_coo U;
    lcl_csr C;
    lcl_dense D;
    ct_arg a;
    int k;
    if (!ctx) { CHECK(ctx != NULL); return; }
    /* unsorted with duplicates, so canonicalization allocates its sort buffers */
    CHECK_OK(ctx, lcl_coo_alloc(ctx, &U, LCL_F64, 60, 70, 0));
    for (k = 0; k < 400; k++) CHECK_OK(ctx, lcl_coo_push(ctx, &U, (k * 53) % 60, (k * 29) % 70, 1.0 + k % 7));
    CHECK_OK(ctx, lcl_csr_from_coo(ctx, &U, &C));
    CHECK_OK(ctx, lcl_coo_to_dense(ctx, &U, LCL_COL_MAJOR, &D));
    a.coo = &U;
    a.csr = &C;
    a.den = &D;
    sweep("lcl_coo_alloc/push/canonicalize", ctx, op_coo_build, &a, LCL_OK, 0);
    sweep("lcl_coo_canonicalize, huge and sparse", ctx, op_coo_huge, &a, LCL_OK, 0);
    sweep("lcl_csr_from_coo", ctx, op_csr_from_coo, &a, LCL_OK, 0);
    sweep("lcl_csr_to_coo", ctx, op_csr_to_coo, &a, LCL_OK, 0);
    {   /* a square one for the row partition */
        lcl_coo Q;
        lcl_csr S;
        CHECK_OK(ctx, lcl_coo_alloc(ctx, &Q, LCL_F64, 60, 60, 0));
        for (k = 0; k < 400; k++) CHECK_OK(ctx, lcl_coo_push(ctx, &Q, (k * 53) % 60, (k * 29) % 60, 1.0 + k % 7));
        CHECK_OK(ctx, lcl_csr_from_coo(ctx, &Q, &S));
        sweep("lcl_rowpart_create", ctx, op_rowpart, &S, LCL_OK, 0);
        lcl_coo_free(&Q);
        lcl_csr_free(&S);
    }
    sweep("lcl_coo_to_dense", ctx, op_coo_to_dense, &a, LCL_OK, 0);
    sweep("lcl_dense_to_coo", ctx, op_dense_to_coo, &a, LCL_OK, 0);
    sweep("lcl_coo_copy", ctx, op_coo_copy, &a, LCL_OK, 0);
    sweep("lcl_dense_alloc", ctx, op_dense_alloc, &a, LCL_OK, 0);
    lcl_coo_free(&U);
    lcl_csr_free(&C);
    lcl_dense_free(&D);
    lcl_context_destroy(ctx);
}

static void test_fault_alloc_messages(void) {
    lcl_context *ctx = make(LCL_BACKEND_SERIAL, NULL, NULL, NULL);
    char path[420], dev[400];
    long base;
    create_arg c;
    if (!ctx) { CHECK(ctx != NULL); return; }
    memset(path, 'p', sizeof path - 1);
    memcpy(path, "build/", 6);
    path[sizeof path - 1] = 0;
    sweep("long error message (bad path)", ctx, op_long_path, path, LCL_ERR_IO, SW_TOLERANT);
    /* a long message is freed by lcl_context_destroy too */
    base = lt_alloc_outstanding();
    lcl_context_destroy(ctx);
    ctx = make(LCL_BACKEND_SERIAL, NULL, NULL, NULL);
    CHECK(ctx != NULL);
    CHECK(lcl_mm_read_info(ctx, path, NULL) == LCL_ERR_INVALID_ARGUMENT);
    {
        lcl_mm_info info;
        CHECK_STATUS(ctx, lcl_mm_read_info(ctx, path, &info), LCL_ERR_IO);
        CHECK(strlen(lcl_last_error(ctx)) > 400);
    }
    lcl_context_destroy(ctx);
    CHECK(lt_alloc_outstanding() == base - 1);
    if (!opencl_devices()) return;
    /* and in a failed context creation: no device matches a 399-character spec */
    memset(dev, 'x', sizeof dev - 1);
    dev[sizeof dev - 1] = 0;
    memset(&c, 0, sizeof c);
    c.b = LCL_BACKEND_OPENCL;
    c.device = dev;
    sweep("long error message (device spec)", NULL, op_create, &c, LCL_ERR_BACKEND_UNAVAILABLE, SW_TOLERANT);
}

/* ---- sparse formats: every allocation of lcl_spmat_create (each format, auto, trial) and of the
   first transposed product fails in turn; the matrix is either whole or absent, no leak, and the
   context goes on working. ---- */
typedef struct sp_arg {
    const lcl_csr *csr;
    const lcl_coo *coo;         /* set: lcl_spmat_from_coo */
    lcl_format f;
    int trans, trial;
    const double *x, *want;     /* A x (or A^T x) computed unfaulted */
} sp_arg;
static int sp_same(const double *y, const double *want, int64_t n) {
    int64_t i;
    for (i = 0; i < n; i++) if (fabs(y[i] - want[i]) > 1e-12 * (1 + fabs(want[i]))) return 0;
    return 1;
}
static lcl_status op_spmat(lcl_context *ctx, void *u) {
    const sp_arg *a = (const sp_arg *)u;
    lcl_spmat_opts o;
    lcl_spmat *S = NULL;
    double y[200];
    int64_t nout = a->trans ? a->csr->cols : a->csr->rows;
    lcl_status st;
    memset(&o, 0, sizeof o);
    o.format = a->f;
    o.trial = a->trial;
    o.max_fill = 1e6;   /* every format takes this small matrix */
    if (a->trans) {     /* the matrix unfaulted, then faults in the product that builds A^T */
        if ((st = lcl_spmat_create(ctx, a->csr, &o, &S)) != LCL_OK) { CHECK_OK(ctx, st); arm(); return LCL_OK; }
        arm();
    }
    st = a->trans ? LCL_OK : a->coo ? lcl_spmat_from_coo(ctx, a->coo, &o, &S) : lcl_spmat_create(ctx, a->csr, &o, &S);
    if (st != LCL_OK) { note(ctx); CHECK(S == NULL); return st; }
    st = lcl_spmv(ctx, a->trans ? LCL_TRANS : LCL_NO_TRANS, 1.0, S, a->x, 0.0, y);
    if (st == LCL_OK) CHECK_MSG(sp_same(y, a->want, nout), "%s: wrong product after a clean run", lcl_format_name(a->f));
    else note(ctx);
    if (st != LCL_OK && a->trans && !sw_sticky) {   /* the fault is spent: a retry must build A^T whole */
        double y2[200];
        lcl_status st2 = lcl_spmv(ctx, LCL_TRANS, 1.0, S, a->x, 0.0, y2);
        CHECK_MSG(st2 == LCL_OK && sp_same(y2, a->want, nout), "A^T product after a failed one: %s", lcl_status_string(st2));
    }
    lcl_spmat_free(S);
    return st;
}

/* the sparse sweeps' matrix: 60 x 45, banded with a few longer rows, unsorted with duplicates (U)
   and canonical (C); x, and A x and A^T x computed here */
static void sp_matrix(lcl_context *ctx, lcl_coo *U, lcl_csr *C, double *x, double *ax, double *atx) {
    int k;
    CHECK_OK(ctx, lcl_coo_alloc(ctx, U, LCL_F64, 60, 45, 0));
    for (k = 0; k < 300; k++) CHECK_OK(ctx, lcl_coo_push(ctx, U, (k * 7) % 60, ((k * 7) % 60 * 3 / 4 + k % 5) % 45, 1.0 + k % 9));
    for (k = 0; k < 30; k++) CHECK_OK(ctx, lcl_coo_push(ctx, U, 17, k, -0.5));
    CHECK_OK(ctx, lcl_csr_from_coo(ctx, U, C));
    for (k = 0; k < 200; k++) x[k] = 1.0 + (k % 11) * 0.25;
    memset(ax, 0, 200 * sizeof(double));
    memset(atx, 0, 200 * sizeof(double));
    for (k = 0; k < (int)C->rows; k++) {
        int64_t q;
        for (q = C->ptr[k]; q < C->ptr[k + 1]; q++) {
            ax[k] += ((double *)C->val)[q] * x[C->col[q]];
            atx[C->col[q]] += ((double *)C->val)[q] * x[k];
        }
    }
}

/* the sweeps of lcl_spmat_create in each format of fm, and of its first A^T x, on ctx */
static void sp_sweeps(lcl_context *ctx, const lcl_format *fm, int nf, const lcl_csr *C, const double *x, const double *ax, const double *atx) {
    int f, t;
    for (f = 0; f < nf; f++)
        for (t = 0; t < 2; t++) {
            sp_arg a;
            char name[80];
            memset(&a, 0, sizeof a);
            a.csr = C;
            a.f = fm[f];
            a.trans = t;
            a.x = x;
            a.want = t ? atx : ax;
            snprintf(name, sizeof name, "lcl_spmat %s%s %s", lcl_format_name(fm[f]), t ? " A^T x" : "", lcl_backend_name(lcl_context_backend(ctx)));
            sweep(name, ctx, op_spmat, &a, LCL_OK, t ? SW_LATE_ARM : 0);
        }
}

static void test_fault_alloc_sparse(void) {
    static const lcl_format fm[] = {LCL_FMT_AUTO, LCL_FMT_COO, LCL_FMT_CSR, LCL_FMT_CSC, LCL_FMT_ELL, LCL_FMT_SELL,
                                    LCL_FMT_HYB, LCL_FMT_DIA, LCL_FMT_BCSR, LCL_FMT_DENSE};
    lcl_backend bs[2] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP};
    lcl_coo U;
    lcl_csr C;
    double x[200], ax[200], atx[200];
    int b;
    lcl_context *ctx = make(LCL_BACKEND_SERIAL, NULL, NULL, NULL);
    if (!ctx) { CHECK(ctx != NULL); return; }
    sp_matrix(ctx, &U, &C, x, ax, atx);
    for (b = 0; b < 2; b++) {
        lcl_context *c2 = make(bs[b], NULL, NULL, NULL);
        if (!c2) { CHECK(c2 != NULL); continue; }
        sp_sweeps(c2, fm, (int)(sizeof fm / sizeof fm[0]), &C, x, ax, atx);
        {
            sp_arg a;
            memset(&a, 0, sizeof a);
            a.csr = &C;
            a.coo = &U;
            a.f = LCL_FMT_SELL;
            a.x = x;
            a.want = ax;
            sweep("lcl_spmat_from_coo sell", c2, op_spmat, &a, LCL_OK, 0);
            a.coo = NULL;
            a.f = LCL_FMT_AUTO;
            a.trial = 1;
            sweep("lcl_spmat auto trial", c2, op_spmat, &a, LCL_OK, SW_ONE_MODE);
        }
        {   /* the same context still builds and multiplies */
            lcl_spmat *S = NULL;
            double y[200];
            CHECK_OK(c2, lcl_spmat_create(c2, &C, NULL, &S));
            CHECK_OK(c2, lcl_spmv(c2, LCL_TRANS, 1.0, S, x, 0.0, y));
            CHECK(sp_same(y, atx, C.cols));
            lcl_spmat_free(S);
        }
        lcl_context_destroy(c2);
    }
    if (opencl_devices()) {   /* OpenCL CSC (and CSR alike): create with its upload, the first A^T x with A^T's */
        static const lcl_format cl_fm[] = {LCL_FMT_CSC, LCL_FMT_CSR};
        lcl_context *c2 = make(LCL_BACKEND_OPENCL, NULL, NULL, NULL);
        lcl_spmat *S = NULL;
        double y[200];
        CHECK(c2 != NULL);
        if (c2) {   /* kernels built before the sweeps */
            CHECK_OK(c2, lcl_spmat_create(c2, &C, NULL, &S));
            CHECK_OK(c2, lcl_spmv(c2, LCL_TRANS, 1.0, S, x, 0.0, y));
            lcl_spmat_free(S);
        }
        if (c2) sp_sweeps(c2, cl_fm, 2, &C, x, ax, atx);
        lcl_context_destroy(c2);
    }
    lcl_csr_free(&C);
    lcl_coo_free(&U);
    lcl_context_destroy(ctx);
}

/* ---- block LU: every allocation of lcl_bklu_analyze, factor, refactor and solve (stage 0), or of
   refactor and solve alone (stage 1, after an unfaulted factor), fails in turn; a run ends with
   the right solution, or with an error and no object, no leak; after a spent fault in refactor or
   solve the same objects work. ---- */
#define BK_N 10
#define BK_M 3
#define BK_NM (BK_N * BK_M)
typedef struct bk_arg {
    lcl_bmat A;
    int64_t ptr[BK_N + 1];
    int32_t idx[4 * BK_N];
    double val[4 * BK_N * BK_M * BK_M], b[BK_NM];
    int stage;
} bk_arg;
/* block tridiagonal by columns with the corner blocks (0, n-1) and (n-1, 0): fill, one BTF block;
   blocks c B with B = 3 I + 0.25 (r - c) off the diagonal, c = 4 on the diagonal, -1 off it */
static void bk_matrix(bk_arg *a) {
    int64_t i, j, q = 0, r, c;
    memset(a, 0, sizeof *a);
    for (j = 0; j < BK_N; j++) {
        a->ptr[j] = q;
        for (i = 0; i < BK_N; i++) {
            if (!(i - j <= 1 && j - i <= 1) && !(i == 0 && j == BK_N - 1) && !(i == BK_N - 1 && j == 0)) continue;
            for (r = 0; r < BK_M; r++)
                for (c = 0; c < BK_M; c++) a->val[(q * BK_M + r) * BK_M + c] = (i == j ? 4.0 : -1.0) * (r == c ? 3.0 : 0.25 * (double)(r - c));
            a->idx[q++] = (int32_t)i;
        }
    }
    a->ptr[BK_N] = q;
    a->A.n = BK_N;
    a->A.m = BK_M;
    a->A.nnzb = q;
    a->A.dtype = LCL_F64;
    a->A.ptr = a->ptr;
    a->A.idx = a->idx;
    a->A.val = a->val;
    for (i = 0; i < BK_NM; i++) a->b[i] = 1.0 + 0.125 * (double)(i % 7);
}
/* refactor and solve with a's values: 1 when the solution is right */
static int bk_solves(lcl_context *ctx, const bk_arg *a, const lcl_bklu_symbolic *S, lcl_bklu_numeric *N, lcl_status *st) {
    double x[BK_NM], y[BK_NM];
    int i;
    *st = lcl_bklu_refactor(ctx, S, &a->A, N, NULL);
    memcpy(x, a->b, sizeof x);
    if (*st == LCL_OK) *st = lcl_bklu_solve(ctx, S, N, 1, x, BK_NM);
    if (*st != LCL_OK || lcl_bmat_mv(&a->A, x, y) != LCL_OK) return 0;
    for (i = 0; i < BK_NM; i++)
        if (!(fabs(y[i] - a->b[i]) <= 1e-12 * 10)) return 0;
    return 1;
}
static lcl_status op_bklu(lcl_context *ctx, void *u) {
    const bk_arg *a = (const bk_arg *)u;
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N = NULL;
    lcl_status st;
    int ok;
    if ((st = lcl_bklu_analyze(ctx, &a->A, NULL, &S, NULL)) != LCL_OK) { note(ctx); CHECK(S == NULL); return st; }
    if ((st = lcl_bklu_factor(ctx, S, &a->A, &N, NULL)) != LCL_OK) {
        note(ctx);
        CHECK(N == NULL);
        lcl_bklu_symbolic_free(S);
        return st;
    }
    if (a->stage) arm();
    ok = bk_solves(ctx, a, S, N, &st);
    if (st != LCL_OK) note(ctx);
    else CHECK_MSG(ok, "block LU: a wrong solution after a clean run");
    if (st != LCL_OK && a->stage && !sw_sticky) {   /* the fault is spent: the objects still work */
        lcl_status st2;
        CHECK_MSG(bk_solves(ctx, a, S, N, &st2), "block LU after a failed refactor or solve: %s", lcl_status_string(st2));
    }
    lcl_bklu_numeric_free(N);
    lcl_bklu_symbolic_free(S);
    return st;
}
static void test_fault_alloc_bklu(void) {
    static const lcl_backend bs[] = {LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP, LCL_BACKEND_OPENCL};
    bk_arg a;
    int b;
    bk_matrix(&a);
    for (b = 0; b < 3; b++) {
        lcl_context *ctx;
        char name[80];
        if (bs[b] == LCL_BACKEND_OPENCL && !opencl_devices()) { fprintf(stderr, "  no OpenCL device: OpenCL left out\n"); continue; }
        if (bs[b] == LCL_BACKEND_OPENMP && !lcl_backend_compiled(LCL_BACKEND_OPENMP)) continue;
        if (!(ctx = make(bs[b], NULL, NULL, NULL))) { CHECK(ctx != NULL); continue; }
        for (a.stage = 0; a.stage < 2; a.stage++) {
            snprintf(name, sizeof name, "lcl_bklu %s %s", a.stage ? "refactor, solve" : "analyze .. solve", lcl_backend_name(bs[b]));
            sweep(name, ctx, op_bklu, &a, LCL_OK, a.stage ? SW_LATE_ARM : 0);
        }
        lcl_context_destroy(ctx);
    }
}

/* ---- OpenCL faults -------------------------------------------------------------------------- */
static void on_alarm(int sig) {
    static const char m[] = "\nFAILED: an OpenCL fault test hung (alarm)\n";
    (void)sig;
    if (write(2, m, sizeof m - 1) < 0) _exit(3);
    _exit(3);
}
static int log_warns;
static char log_last[2048];
static void count_log(void *u, lcl_log_level lv, const char *m) {
    (void)u;
    if (lv <= LCL_LOG_WARN) { log_warns++; snprintf(log_last, sizeof log_last, "%s", m); }
}

/* arm fn, run axpy on ctx, check status and message, reset, check the context works again */
static void cl_axpy_fault(lcl_context *ctx, const char *fn, int nth, int code, lcl_status want, const char *code_name) {
    float x[1000], y[1000];
    int i, bad = 0;
    long base;
    double t0;
    lcl_status st;
    for (i = 0; i < 1000; i++) { x[i] = (float)i; y[i] = 1; }
    lcl_clear_error(ctx);
    base = lt_alloc_outstanding();
    CHECK(lt_cl_fail(fn, nth, code));
    t0 = now();
    st = lcl_axpy(ctx, LCL_F32, 1000, 2.0, x, y);
    CHECK_MSG(now() - t0 < 20, "%s failing: axpy took %.1f s", fn, now() - t0);
    CHECK_MSG(lt_cl_calls(fn) >= (nth ? nth : 1), "%s: the fault was not reached (%d calls)", fn, lt_cl_calls(fn));
    lt_cl_reset();
    CHECK_MSG(st == want, "%s #%d failing: axpy -> %s, want %s: %s", fn, nth, lcl_status_string(st), lcl_status_string(want), lcl_last_error(ctx));
    /* the call and the error by name (a compile failure names the error and gives the log) */
    CHECK_MSG((want == LCL_ERR_BUILD || strstr(lcl_last_error(ctx), fn) != NULL) && strstr(lcl_last_error(ctx), code_name) != NULL,
              "%s: the message does not name the call and the error: %s", fn, lcl_last_error(ctx));
    fprintf(stderr, "  %s #%d -> %s: %.150s\n", fn, nth, lcl_status_string(st), lcl_last_error(ctx));
    for (i = 0; i < 1000; i++) if (y[i] != 1) bad++;
    CHECK_MSG(bad == 0, "%s failing: y changed (%d)", fn, bad);
    lcl_clear_error(ctx);
    CHECK_MSG(lt_alloc_outstanding() == base, "%s failing leaks %ld host block(s)", fn, lt_alloc_outstanding() - base);
    /* the same context works again */
    CHECK_OK(ctx, lcl_axpy(ctx, LCL_F32, 1000, 2.0, x, y));
    for (i = 0, bad = 0; i < 1000; i++) if (y[i] != 1 + 2.0f * (float)i) bad++;
    CHECK_MSG(bad == 0, "after %s failed: the next axpy is wrong (%d)", fn, bad);
}

/* OpenCL calls made to fail on their nth call (0: every call) with code: the status the operation
   must give and what its message must name; where says which operation and how */
enum { ON_PREPARED, ON_FRESH, ON_BUILD, AT_CREATE };
typedef struct { int where; const char *fn; int nth, code; lcl_status want; const char *name; } cl_call_fault;
static const cl_call_fault call_faults[] = {
    /* axpy on a prepared context */
    {ON_PREPARED, "clCreateBuffer", 1, F_CL_MEM_OBJECT_ALLOCATION_FAILURE, LCL_ERR_DEVICE_MEMORY, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
    {ON_PREPARED, "clCreateBuffer", 2, F_CL_MEM_OBJECT_ALLOCATION_FAILURE, LCL_ERR_DEVICE_MEMORY, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
    {ON_PREPARED, "clCreateBuffer", 2, F_CL_OUT_OF_RESOURCES, LCL_ERR_DEVICE_MEMORY, "CL_OUT_OF_RESOURCES"},
    {ON_PREPARED, "clEnqueueWriteBuffer", 1, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_OPENCL, "CL_OUT_OF_HOST_MEMORY"},
    {ON_PREPARED, "clEnqueueWriteBuffer", 2, F_CL_INVALID_COMMAND_QUEUE, LCL_ERR_OPENCL, "CL_INVALID_COMMAND_QUEUE"},
    {ON_PREPARED, "clSetKernelArg", 3, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_OPENCL, "CL_OUT_OF_HOST_MEMORY"},
    {ON_PREPARED, "clEnqueueNDRangeKernel", 1, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_OPENCL, "CL_OUT_OF_HOST_MEMORY"},
    {ON_PREPARED, "clEnqueueNDRangeKernel", 1, F_CL_OUT_OF_RESOURCES, LCL_ERR_DEVICE_MEMORY, "CL_OUT_OF_RESOURCES"},
    {ON_PREPARED, "clEnqueueReadBuffer", 1, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_OPENCL, "CL_OUT_OF_HOST_MEMORY"},
    /* the first axpy on a fresh context, which creates the kernel object */
    {ON_FRESH, "clCreateKernel", 1, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_OPENCL, "CL_OUT_OF_HOST_MEMORY"},
    /* the first axpy on a fresh context without a cache: a failed build is retried (not remembered) */
    {ON_BUILD, "clBuildProgram", 0, F_CL_BUILD_PROGRAM_FAILURE, LCL_ERR_BUILD, "CL_BUILD_PROGRAM_FAILURE"},
    {ON_BUILD, "clBuildProgram", 0, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_OPENCL, "CL_OUT_OF_HOST_MEMORY"},   /* the call itself failing */
    {ON_BUILD, "clCreateProgramWithSource", 1, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_OPENCL, "CL_OUT_OF_HOST_MEMORY"},
    /* context creation (cl_create_fault) */
    {AT_CREATE, "clCreateContext", 1, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_OPENCL, "clCreateContext"},
    {AT_CREATE, "clCreateContext", 1, F_CL_DEVICE_NOT_AVAILABLE, LCL_ERR_OPENCL, "CL_DEVICE_NOT_AVAILABLE"},
    {AT_CREATE, "clCreateCommandQueue", 1, F_CL_OUT_OF_RESOURCES, LCL_ERR_DEVICE_MEMORY, "clCreateCommandQueue"},
    {AT_CREATE, "clCreateCommandQueue", 2, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_OPENCL, "clCreateCommandQueue"},
    {AT_CREATE, "clGetPlatformIDs", 0, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_BACKEND_UNAVAILABLE, "no OpenCL platform"},
    {AT_CREATE, "clGetPlatformIDs", 2, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_OPENCL, "clGetPlatformIDs"},
    {AT_CREATE, "clGetDeviceIDs", 0, F_CL_OUT_OF_HOST_MEMORY, LCL_ERR_BACKEND_UNAVAILABLE, "no device"}};
#define N_CALL_FAULTS ((int)(sizeof call_faults / sizeof call_faults[0]))
/* cl_axpy_fault for each fault of kind where: on ctx, or (ctx NULL) each on a fresh context with
   this cache */
static void cl_axpy_faults(lcl_context *ctx, const char *cache, int where) {
    int i;
    for (i = 0; i < N_CALL_FAULTS; i++) {
        const cl_call_fault *f = &call_faults[i];
        lcl_context *c;
        if (f->where != where) continue;
        c = ctx ? ctx : make(LCL_BACKEND_OPENCL, NULL, cache, NULL);
        CHECK_MSG(c != NULL, "no OpenCL context for %s", f->fn);
        if (c) cl_axpy_fault(c, f->fn, f->nth, f->code, f->want, f->name);
        if (!ctx) lcl_context_destroy(c);
    }
}
/* an OpenCL fault test begins: skipped without a device, else ended by on_alarm if it hangs */
static int cl_begin(unsigned secs) {
    if (!opencl_devices()) { lt_skip("no OpenCL device"); return 0; }
    signal(SIGALRM, on_alarm);
    alarm(secs);
    return 1;
}
/* its context (NULL fails the test and stops the watchdog) */
static lcl_context *cl_first(const char *cache) {
    lcl_context *ctx = make(LCL_BACKEND_OPENCL, NULL, cache, NULL);
    if (!ctx) { CHECK(ctx != NULL); alarm(0); }
    return ctx;
}

static void test_fault_cl_calls(void) {
    lcl_context *ctx;
    char cache[300];
    if (!cl_begin(120)) return;
    path_in_tmp(cache, sizeof cache, "cache-cl");
    if (!(ctx = cl_first(cache))) return;
    CHECK_OK(ctx, lcl_context_prepare(ctx, LCL_F32));
    cl_axpy_faults(ctx, NULL, ON_PREPARED);
    lcl_context_destroy(ctx);
    cl_axpy_faults(NULL, cache, ON_FRESH);
    alarm(0);
}

static void test_fault_cl_build(void) {
    /* with a cache entry per kernel file: the first file's binary that will not load or build is
       rejected and rebuilt from source, the other files load theirs (calls: how often fn is then
       called for the first file; clBuildProgram for the binary, then for the source; one more
       call for each other file) */
    static const struct { const char *fn; int code, calls; } bad_binary[] = {
        {"clBuildProgram", F_CL_BUILD_PROGRAM_FAILURE, 2},
        {"clCreateProgramWithBinary", F_CL_OUT_OF_HOST_MEMORY, 1}};
    lcl_context *ctx;
    lcl_cache_stats cs;
    char cache[300];
    int i;
    if (!cl_begin(120)) return;
    path_in_tmp(cache, sizeof cache, "cache-build");
    cl_axpy_faults(NULL, NULL, ON_BUILD);
    ctx = make(LCL_BACKEND_OPENCL, NULL, cache, NULL);
    if (ctx) { CHECK_OK(ctx, lcl_context_prepare(ctx, LCL_F32)); lcl_context_destroy(ctx); }
    for (i = 0; i < 2; i++) {
        ctx = make(LCL_BACKEND_OPENCL, NULL, cache, NULL);
        if (!ctx) continue;
        CHECK(lt_cl_fail(bad_binary[i].fn, 1, bad_binary[i].code));
        CHECK_OK(ctx, lcl_context_prepare(ctx, LCL_F32));
        CHECK_MSG(lt_cl_calls(bad_binary[i].fn) == bad_binary[i].calls + lt_kernel_files() - 1, "%s: %d calls", bad_binary[i].fn,
                  lt_cl_calls(bad_binary[i].fn));
        lt_cl_reset();
        lcl_context_cache_stats(ctx, &cs);
        CHECK_MSG(cs.rejected == 1 && cs.hits == lt_kernel_files() - 1, "%s: %d rejected, %d hits", bad_binary[i].fn, (int)cs.rejected,
                  (int)cs.hits);
        lcl_context_destroy(ctx);
    }
    alarm(0);
}

/* context creation with fn failing: explicit opencl is an error, auto falls back with one log line */
static void cl_create_fault(const char *fn, int nth, int code, lcl_status want, const char *needle) {
    lcl_context *ctx = NULL;
    lcl_context_desc d;
    long base = lt_alloc_outstanding();
    lcl_status st;
    double x[3] = {1, 2, 3}, y[3] = {0, 0, 0};
    memset(&d, 0, sizeof d);
    d.ignore_env = 1;
    d.log = count_log;
    d.backend = LCL_BACKEND_OPENCL;
    CHECK(lt_cl_fail(fn, nth, code));
    st = lcl_context_create(&d, &ctx);
    CHECK_MSG(lt_cl_calls(fn) >= (nth ? nth : 1), "%s: the fault was not reached", fn);
    CHECK_MSG(st == want, "opencl context with %s #%d failing: %s, want %s: %s", fn, nth, lcl_status_string(st),
              lcl_status_string(want), lcl_last_error(ctx));
    CHECK_MSG(strstr(lcl_last_error(ctx), needle) != NULL, "message without '%s': %s", needle, lcl_last_error(ctx));
    fprintf(stderr, "  %s #%d, opencl -> %s: %.150s\n", fn, nth, lcl_status_string(st), lcl_last_error(ctx));
    lcl_context_destroy(ctx);
    ctx = NULL;
    /* auto: falls back, says so once */
    lt_cl_reset();
    CHECK(lt_cl_fail(fn, nth, code));
    d.backend = LCL_BACKEND_AUTO;
    log_warns = 0;
    log_last[0] = 0;
    CHECK_OK(ctx, lcl_context_create(&d, &ctx));
    lt_cl_reset();
    CHECK(lcl_context_backend(ctx) == LCL_BACKEND_OPENMP);
    CHECK_MSG(log_warns == 1, "auto fallback logged %d warnings, want 1", log_warns);
    CHECK_MSG(strstr(log_last, needle) != NULL, "fallback message without '%s': %s", needle, log_last);
    CHECK_OK(ctx, lcl_axpy(ctx, LCL_F64, 3, 1.0, x, y));
    CHECK(y[2] == 3);
    lcl_context_destroy(ctx);
    CHECK_MSG(lt_alloc_outstanding() == base, "%s failing at creation leaks %ld host block(s)", fn, lt_alloc_outstanding() - base);
}

static void test_fault_cl_context(void) {
    int n = -1, i;
    lcl_device_info di[4];
    if (!cl_begin(120)) return;
    for (i = 0; i < N_CALL_FAULTS; i++)
        if (call_faults[i].where == AT_CREATE)
            cl_create_fault(call_faults[i].fn, call_faults[i].nth, call_faults[i].code, call_faults[i].want, call_faults[i].name);
    /* clGetPlatformIDs failing: no devices, not an error */
    CHECK(lt_cl_fail("clGetPlatformIDs", 0, F_CL_OUT_OF_HOST_MEMORY));
    CHECK_OK(NULL, lcl_list_devices(NULL, di, 4, &n));
    lt_cl_reset();
    CHECK(n == 0);
    CHECK(opencl_devices() > 0);
    alarm(0);
}

static void rm_tmpdir(void) {
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "  (could not remove %s)\n", tmpdir);
}

/* The OpenCL dense paths: a factorization and solve (u: 1 = Cholesky, 0 = LU) */
static int dense_run(lcl_context *ctx, int chol, int n, double *resid) {
    lcl_dense A, B;
    int32_t ipiv[200];
    int64_t info = 0, i, j;
    lcl_status st;
    double r = 0;
    if (lcl_dense_alloc(ctx, &A, LCL_F64, LCL_COL_MAJOR, n, n) != LCL_OK) return -1;
    if (lcl_dense_alloc(ctx, &B, LCL_F64, LCL_COL_MAJOR, n, 1) != LCL_OK) { lcl_dense_free(&A); return -1; }
    for (i = 0; i < n; i++) {
        for (j = 0; j < n; j++) lcl_dense_set(&A, i, j, i == j ? 2.0 * n : (double)((i * 5 + j * 3) % 7) / 7.0);
        lcl_dense_set(&B, i, 0, 0);
    }
    /* b = A * ones */
    for (i = 0; i < n; i++) { double s2 = 0; for (j = 0; j < n; j++) s2 += lcl_dense_get(&A, chol ? (i > j ? i : j) : i, chol ? (i > j ? j : i) : j); lcl_dense_set(&B, i, 0, s2); }
    if (chol) for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) lcl_dense_set(&A, i, j, lcl_dense_get(&A, j, i));
    st = chol ? lcl_posv(ctx, LCL_LOWER, &A, &B, &info) : lcl_gesv(ctx, &A, ipiv, &B, &info);
    for (i = 0; i < n && st == LCL_OK; i++) if (fabs(lcl_dense_get(&B, i, 0) - 1.0) > r) r = fabs(lcl_dense_get(&B, i, 0) - 1.0);
    *resid = r;
    lcl_dense_free(&A);
    lcl_dense_free(&B);
    return (int)st;
}

static int dense_op(lcl_context *ctx, void *u) {
    double r = 0;
    int st = dense_run(ctx, *(const int *)u, 150, &r);
    return st == LCL_OK && !(r < 1e-12) ? -1 : st;
}
static void test_fault_cl_dense(void) {
    static const int chol[2] = {0, 1};
    lcl_context *ctx;
    char cache[300];
    int runs;
    if (!cl_begin(240)) return;
    path_in_tmp(cache, sizeof cache, "cache-dense");
    if (!(ctx = cl_first(cache))) return;
    runs = lt_cl_sweep("gesv", ctx, LT_CL_ONE, 400, "lcl_", dense_op, (void *)&chol[0], NULL) +
           lt_cl_sweep("posv", ctx, LT_CL_ONE, 400, "lcl_", dense_op, (void *)&chol[1], NULL);
    lcl_context_destroy(ctx);
    /* potrf's steps by lcl_potf2_inv and the GEMM with the inverse (NVIDIA's default), forced:
       its buffer and launches */
    setenv("LCL_POTF2_INV", "1", 1);
    ctx = cl_first(cache);
    unsetenv("LCL_POTF2_INV");
    if (!ctx) return;
    runs += lt_cl_sweep("posv, POTF2 with the inverse", ctx, LT_CL_ONE, 400, "lcl_", dense_op, (void *)&chol[1], NULL);
    fprintf(stderr, "  %d faulted dense runs\n", runs);
    lcl_context_destroy(ctx);
    alarm(0);
}

/* CSC SpMV on OpenCL: a create, an A x and the first A^T x (which uploads A^T) */
typedef struct csc_arg { const lcl_csr *C; const double *x, *ax, *atx; } csc_arg;
static int csc_op(lcl_context *ctx, void *u) {
    const csc_arg *a = (const csc_arg *)u;
    lcl_spmat_opts o;
    lcl_spmat *S = NULL;
    double y[200];
    lcl_status st;
    memset(&o, 0, sizeof o);
    o.format = LCL_FMT_CSC;
    if ((st = lcl_spmat_create(ctx, a->C, &o, &S)) != LCL_OK) return (int)st;
    st = lcl_spmv(ctx, LCL_NO_TRANS, 1.0, S, a->x, 0.0, y);
    if (st == LCL_OK && !sp_same(y, a->ax, a->C->rows)) { lcl_spmat_free(S); return -1; }
    if (st == LCL_OK) st = lcl_spmv(ctx, LCL_TRANS, 1.0, S, a->x, 0.0, y);
    if (st == LCL_OK && !sp_same(y, a->atx, a->C->cols)) { lcl_spmat_free(S); return -1; }
    lcl_spmat_free(S);
    return (int)st;
}
static void test_fault_cl_spmv(void) {
    lcl_context *ctx;
    lcl_coo U;
    lcl_csr C;
    double x[200], ax[200], atx[200];
    csc_arg a;
    if (!cl_begin(240)) return;
    if (!(ctx = cl_first(NULL))) return;
    sp_matrix(ctx, &U, &C, x, ax, atx);
    a.C = &C;
    a.x = x;
    a.ax = ax;
    a.atx = atx;
    fprintf(stderr, "  %d faulted csc runs\n", lt_cl_sweep("csc", ctx, LT_CL_ONE, 400, "lcl_", csc_op, &a, NULL));
    lcl_csr_free(&C);
    lcl_coo_free(&U);
    lcl_context_destroy(ctx);
    alarm(0);
}

/* the block LU through an OpenCL context: factor, solve, refactor, solve (-1: a wrong solution) */
static int bklu_cl_op(lcl_context *ctx, void *u) {
    const bk_arg *a = (const bk_arg *)u;
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N = NULL;
    lcl_status st;
    int ok = 0;
    if ((st = lcl_bklu_analyze(ctx, &a->A, NULL, &S, NULL)) == LCL_OK && (st = lcl_bklu_factor(ctx, S, &a->A, &N, NULL)) == LCL_OK)
        ok = bk_solves(ctx, a, S, N, &st);
    lcl_bklu_numeric_free(N);
    lcl_bklu_symbolic_free(S);
    return st == LCL_OK && !ok ? -1 : (int)st;
}
static void test_fault_cl_bklu(void) {
    lcl_context *ctx;
    bk_arg a;
    unsigned reached = 0;
    int runs;
    if (!cl_begin(240)) return;
    if (!(ctx = cl_first(NULL))) return;
    bk_matrix(&a);
    runs = lt_cl_sweep("bklu", ctx, LT_CL_ONE | LT_CL_OPTBUF | LT_CL_MEMRETRY, 400, "lcl_bklu", bklu_cl_op, &a, &reached);
    fprintf(stderr, "  %d faulted block LU runs%s\n", runs, reached ? "" : " (no OpenCL call reached: the host factors)");
    lcl_context_destroy(ctx);
    alarm(0);
}

void lt_suite_faults(void) {
    char cmd[400];
    snprintf(tmpdir, sizeof tmpdir, "build/test-faults-%d", (int)getpid());
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", tmpdir);
    if (system(cmd) != 0) fprintf(stderr, "  (could not create %s)\n", tmpdir);
    LT_RUN(test_fault_hooks);
    LT_RUN(test_fault_alloc_contexts);
    LT_RUN(test_fault_alloc_programs);
    LT_RUN(test_fault_alloc_mmio);
    LT_RUN(test_fault_alloc_containers);
    LT_RUN(test_fault_alloc_messages);
    LT_RUN(test_fault_alloc_sparse);
    LT_RUN(test_fault_alloc_bklu);
    LT_RUN(test_fault_cl_calls);
    LT_RUN(test_fault_cl_build);
    LT_RUN(test_fault_cl_context);
    LT_RUN(test_fault_cl_dense);
    LT_RUN(test_fault_cl_spmv);
    LT_RUN(test_fault_cl_bklu);
    rm_tmpdir();
}
