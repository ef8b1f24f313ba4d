/* run_tests.c -- the test runner: every suite, one process; subprocess checks re-run this binary
   with --child NAME. Last line: "N passed, N failed, N skipped". LT_FILTER=a,b picks tests. */
#define _POSIX_C_SOURCE 200809L   /* setenv in the white-box tests */
#include <stddef.h>
/* every library allocation goes through the test hooks below (counting, fault injection) */
void *lt_malloc(size_t n);
void *lt_realloc(void *p, size_t n);
void lt_free(void *p);
#define LCL_MALLOC(sz) lt_malloc(sz)
#define LCL_REALLOC(p, sz) lt_realloc((p), (sz))
#define LCL_FREE(p) lt_free(p)
#define LCL__MULTI_STAGE 3000       /* small: split factorizations stage their columns in several row chunks */
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include "lt.h"
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <dirent.h>

int lt_checks_failed;
const char *lt_shared = "../shared";
const char *lt_self = "build/run_tests";
static int passed, failed, skipped;
int lt_kernel_files(void) { return LCL__KERNEL_FILE_COUNT; }
static char failed_names[4096];

/* ---- allocation hooks: count outstanding blocks; fail the k-th call (lt.h). Relaxed atomics:
   one increment per call when no fault is armed, safe under test_threads and TSan. ---- */
static long lt__alloc_calls, lt__alloc_fail, lt__alloc_sticky, lt__alloc_out;
static void lt__alloc_arm(long k, long sticky) {
    __atomic_store_n(&lt__alloc_fail, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&lt__alloc_calls, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&lt__alloc_sticky, sticky, __ATOMIC_SEQ_CST);
    __atomic_store_n(&lt__alloc_fail, k > 0 ? k : 0, __ATOMIC_SEQ_CST);
}
void lt_alloc_fail_at(long k) { lt__alloc_arm(k, 0); }
void lt_alloc_fail_from(long k) { lt__alloc_arm(k, 1); }
long lt_alloc_calls(void) { return __atomic_load_n(&lt__alloc_calls, __ATOMIC_SEQ_CST); }
long lt_alloc_outstanding(void) { return __atomic_load_n(&lt__alloc_out, __ATOMIC_SEQ_CST); }
static int lt__alloc_fails(void) {
    long n = __atomic_add_fetch(&lt__alloc_calls, 1, __ATOMIC_RELAXED);
    long k = __atomic_load_n(&lt__alloc_fail, __ATOMIC_RELAXED);
    return k > 0 && (n == k || (n > k && __atomic_load_n(&lt__alloc_sticky, __ATOMIC_RELAXED)));
}
void *lt_malloc(size_t n) {
    void *p;
    if (lt__alloc_fails()) return NULL;
    p = malloc(n);
    if (p) __atomic_add_fetch(&lt__alloc_out, 1, __ATOMIC_RELAXED);
    return p;
}
void *lt_realloc(void *p, size_t n) {
    void *q;
    if (lt__alloc_fails()) return NULL;     /* as realloc: NULL, and p stays allocated */
    q = realloc(p, n ? n : 1);
    if (q && !p) __atomic_add_fetch(&lt__alloc_out, 1, __ATOMIC_RELAXED);
    return q;
}
void lt_free(void *p) {
    if (!p) return;
    __atomic_sub_fetch(&lt__alloc_out, 1, __ATOMIC_RELAXED);
    free(p);
}

/* ---- OpenCL fault injection: swap entries of the implementation's lcl__cl table for wrappers
   that fail the nth call (0 = every call) with a given error, else call the saved original. ---- */
#ifndef LINALG_CL_NO_OPENCL
#define LT__CL_HOOKS(X) X(clGetPlatformIDs) X(clGetDeviceIDs) X(clCreateContext) X(clCreateCommandQueue) \
    X(clCreateProgramWithSource) X(clCreateProgramWithBinary) X(clBuildProgram) X(clCreateKernel) \
    X(clSetKernelArg) X(clCreateBuffer) X(clEnqueueWriteBuffer) X(clEnqueueReadBuffer) \
    X(clEnqueueNDRangeKernel) X(clFinish) X(clEnqueueReadBufferRect) X(clEnqueueWriteBufferRect) X(clEnqueueCopyBufferRect) \
    X(clEnqueueMarkerWithWaitList) X(clWaitForEvents) X(clCreateUserEvent) X(clSetEventCallback) X(clEnqueueMapBuffer) \
    X(clRetainContext)
#define LT__CL_ENUM(name) LT__CL_##name,
enum { LT__CL_HOOKS(LT__CL_ENUM) LT__CL_NHOOKS };
static struct { int armed, nth, calls; cl_int code; } lt__clh[LT__CL_NHOOKS];
static lcl__cl_api lt__cl_orig;   /* the real entry points, saved on the first lt_cl_fail */
static int lt__cl_saved;
static int lt__cl_hit(int i) {   /* calls may come from a host thread per device (the block LU's) */
    int n;
    if (!lt__clh[i].armed) return 0;
    n = __atomic_add_fetch(&lt__clh[i].calls, 1, __ATOMIC_RELAXED);
    return lt__clh[i].nth == 0 || n == lt__clh[i].nth;
}
#define LT__CL_RET(i, orig_call) do { if (lt__cl_hit(LT__CL_##i)) return lt__clh[LT__CL_##i].code; return orig_call; } while (0)
#define LT__CL_OBJ(i, orig_call) do { if (lt__cl_hit(LT__CL_##i)) { if (e) *e = lt__clh[LT__CL_##i].code; return NULL; } \
    return orig_call; } while (0)
static cl_int CL_API_CALL lt__clGetPlatformIDs(cl_uint n, cl_platform_id *p, cl_uint *np) {
    LT__CL_RET(clGetPlatformIDs, lt__cl_orig.clGetPlatformIDs(n, p, np));
}
static cl_int CL_API_CALL lt__clGetDeviceIDs(cl_platform_id p, cl_device_type t, cl_uint n, cl_device_id *d, cl_uint *nd) {
    LT__CL_RET(clGetDeviceIDs, lt__cl_orig.clGetDeviceIDs(p, t, n, d, nd));
}
static cl_context CL_API_CALL lt__clCreateContext(const cl_context_properties *pr, cl_uint n, const cl_device_id *d,
                                                  void (CL_CALLBACK *cb)(const char *, const void *, size_t, void *), void *u, cl_int *e) {
    LT__CL_OBJ(clCreateContext, lt__cl_orig.clCreateContext(pr, n, d, cb, u, e));
}
static cl_command_queue CL_API_CALL lt__clCreateCommandQueue(cl_context c, cl_device_id d, cl_command_queue_properties pr, cl_int *e) {
    LT__CL_OBJ(clCreateCommandQueue, lt__cl_orig.clCreateCommandQueue(c, d, pr, e));
}
static cl_program CL_API_CALL lt__clCreateProgramWithSource(cl_context c, cl_uint n, const char **s, const size_t *l, cl_int *e) {
    LT__CL_OBJ(clCreateProgramWithSource, lt__cl_orig.clCreateProgramWithSource(c, n, s, l, e));
}
static cl_program CL_API_CALL lt__clCreateProgramWithBinary(cl_context c, cl_uint n, const cl_device_id *d, const size_t *l,
                                                            const unsigned char **b, cl_int *bst, cl_int *e) {
    LT__CL_OBJ(clCreateProgramWithBinary, lt__cl_orig.clCreateProgramWithBinary(c, n, d, l, b, bst, e));
}
static cl_int CL_API_CALL lt__clBuildProgram(cl_program p, cl_uint n, const cl_device_id *d, const char *o,
                                             void (CL_CALLBACK *cb)(cl_program, void *), void *u) {
    LT__CL_RET(clBuildProgram, lt__cl_orig.clBuildProgram(p, n, d, o, cb, u));
}
static cl_kernel CL_API_CALL lt__clCreateKernel(cl_program p, const char *name, cl_int *e) {
    LT__CL_OBJ(clCreateKernel, lt__cl_orig.clCreateKernel(p, name, e));
}
static cl_int CL_API_CALL lt__clSetKernelArg(cl_kernel k, cl_uint i, size_t n, const void *v) {
    LT__CL_RET(clSetKernelArg, lt__cl_orig.clSetKernelArg(k, i, n, v));
}
static cl_mem CL_API_CALL lt__clCreateBuffer(cl_context c, cl_mem_flags f, size_t n, void *h, cl_int *e) {
    LT__CL_OBJ(clCreateBuffer, lt__cl_orig.clCreateBuffer(c, f, n, h, e));
}
static cl_int CL_API_CALL lt__clEnqueueWriteBuffer(cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t n, const void *h,
                                                   cl_uint nw, const cl_event *w, cl_event *ev) {
    LT__CL_RET(clEnqueueWriteBuffer, lt__cl_orig.clEnqueueWriteBuffer(q, m, b, o, n, h, nw, w, ev));
}
static cl_int CL_API_CALL lt__clEnqueueReadBuffer(cl_command_queue q, cl_mem m, cl_bool b, size_t o, size_t n, void *h,
                                                  cl_uint nw, const cl_event *w, cl_event *ev) {
    LT__CL_RET(clEnqueueReadBuffer, lt__cl_orig.clEnqueueReadBuffer(q, m, b, o, n, h, nw, w, ev));
}
static cl_int CL_API_CALL lt__clEnqueueNDRangeKernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *off,
                                                     const size_t *g, const size_t *l, cl_uint nw, const cl_event *w, cl_event *ev) {
    LT__CL_RET(clEnqueueNDRangeKernel, lt__cl_orig.clEnqueueNDRangeKernel(q, k, dim, off, g, l, nw, w, ev));
}
static cl_int CL_API_CALL lt__clFinish(cl_command_queue q) { LT__CL_RET(clFinish, lt__cl_orig.clFinish(q)); }
static cl_int CL_API_CALL lt__clEnqueueReadBufferRect(cl_command_queue q, cl_mem m, cl_bool b, const size_t *bo, const size_t *ho,
                                                      const size_t *r, size_t brp, size_t bsp, size_t hrp, size_t hsp, void *h,
                                                      cl_uint nw, const cl_event *w, cl_event *ev) {
    LT__CL_RET(clEnqueueReadBufferRect, lt__cl_orig.clEnqueueReadBufferRect(q, m, b, bo, ho, r, brp, bsp, hrp, hsp, h, nw, w, ev));
}
static cl_int CL_API_CALL lt__clEnqueueWriteBufferRect(cl_command_queue q, cl_mem m, cl_bool b, const size_t *bo, const size_t *ho,
                                                       const size_t *r, size_t brp, size_t bsp, size_t hrp, size_t hsp, const void *h,
                                                       cl_uint nw, const cl_event *w, cl_event *ev) {
    LT__CL_RET(clEnqueueWriteBufferRect, lt__cl_orig.clEnqueueWriteBufferRect(q, m, b, bo, ho, r, brp, bsp, hrp, hsp, h, nw, w, ev));
}
static cl_int CL_API_CALL lt__clEnqueueCopyBufferRect(cl_command_queue q, cl_mem s, cl_mem d, const size_t *so, const size_t *dor,
                                                      const size_t *r, size_t srp, size_t ssp, size_t drp, size_t dsp, cl_uint nw,
                                                      const cl_event *w, cl_event *ev) {
    LT__CL_RET(clEnqueueCopyBufferRect, lt__cl_orig.clEnqueueCopyBufferRect(q, s, d, so, dor, r, srp, ssp, drp, dsp, nw, w, ev));
}
static cl_int CL_API_CALL lt__clEnqueueMarkerWithWaitList(cl_command_queue q, cl_uint nw, const cl_event *w, cl_event *ev) {
    LT__CL_RET(clEnqueueMarkerWithWaitList, lt__cl_orig.clEnqueueMarkerWithWaitList(q, nw, w, ev));
}
static cl_int CL_API_CALL lt__clWaitForEvents(cl_uint n, const cl_event *ev) { LT__CL_RET(clWaitForEvents, lt__cl_orig.clWaitForEvents(n, ev)); }
static cl_event CL_API_CALL lt__clCreateUserEvent(cl_context c, cl_int *e) { LT__CL_OBJ(clCreateUserEvent, lt__cl_orig.clCreateUserEvent(c, e)); }
static cl_int CL_API_CALL lt__clSetEventCallback(cl_event ev, cl_int t, void (CL_CALLBACK *cb)(cl_event, cl_int, void *), void *u) {
    LT__CL_RET(clSetEventCallback, lt__cl_orig.clSetEventCallback(ev, t, cb, u));
}
static void *CL_API_CALL lt__clEnqueueMapBuffer(cl_command_queue q, cl_mem m, cl_bool b, cl_map_flags f, size_t o, size_t n, cl_uint nw,
                                                const cl_event *w, cl_event *ev, cl_int *e) {
    LT__CL_OBJ(clEnqueueMapBuffer, lt__cl_orig.clEnqueueMapBuffer(q, m, b, f, o, n, nw, w, ev, e));
}
static cl_int CL_API_CALL lt__clRetainContext(cl_context c) { LT__CL_RET(clRetainContext, lt__cl_orig.clRetainContext(c)); }
static int lt__cl_index(const char *fn) {
#define LT__CL_NAME(name) if (!strcmp(fn, #name)) return LT__CL_##name;
    LT__CL_HOOKS(LT__CL_NAME)
#undef LT__CL_NAME
    return -1;
}
int lt_cl_fail(const char *fn, int nth, int errcode) {
    int i = fn ? lt__cl_index(fn) : -1;
    if (i < 0 || lcl_opencl_unavailable_reason() != NULL) return 0;   /* also loads the table */
    if (!lt__cl_saved) { lt__cl_orig = lcl__cl; lt__cl_saved = 1; }
    lt__clh[i].armed = 1;
    lt__clh[i].nth = nth;
    lt__clh[i].calls = 0;
    lt__clh[i].code = (cl_int)errcode;
#define LT__CL_SET(name) if (i == LT__CL_##name) lcl__cl.name = lt__##name;
    LT__CL_HOOKS(LT__CL_SET)
#undef LT__CL_SET
    return 1;
}
int lt_cl_calls(const char *fn) {
    int i = fn ? lt__cl_index(fn) : -1;
    return i < 0 ? -1 : __atomic_load_n(&lt__clh[i].calls, __ATOMIC_SEQ_CST);
}
void lt_cl_reset(void) {
    if (lt__cl_saved) {
#define LT__CL_RESTORE(name) lcl__cl.name = lt__cl_orig.name;
        LT__CL_HOOKS(LT__CL_RESTORE)
#undef LT__CL_RESTORE
    }
    memset(lt__clh, 0, sizeof lt__clh);
}
int lt_cl_fp64(lcl_context *ctx, int dev, int on) {
    if (!ctx || dev < 0 || dev >= ctx->ndev) return 0;
    ctx->dev[dev].info.fp64 = on;
    return 1;
}
#else
int lt_cl_fail(const char *fn, int nth, int errcode) { (void)fn; (void)nth; (void)errcode; return 0; }
int lt_cl_calls(const char *fn) { (void)fn; return -1; }
void lt_cl_reset(void) {}
int lt_cl_fp64(lcl_context *ctx, int dev, int on) { (void)ctx; (void)dev; (void)on; return 0; }
#endif

/* the OpenCL faults of lt_cl_sweep (codes: CL_MEM_OBJECT_ALLOCATION_FAILURE -4,
   CL_OUT_OF_RESOURCES -5, CL_OUT_OF_HOST_MEMORY -6) */
#define LT__CL_ABSORB 4     /* may end LCL_OK: clFinish in cleanup, after the work was waited for */
static const struct { const char *fn; int code; lcl_status want; int use; } lt__cl_faults[] = {
    {"clCreateBuffer", -4, LCL_ERR_DEVICE_MEMORY, LT_CL_ONE | LT_CL_SPLIT},
    {"clSetKernelArg", -6, LCL_ERR_OPENCL, LT_CL_ONE},
    {"clEnqueueNDRangeKernel", -5, LCL_ERR_DEVICE_MEMORY, LT_CL_ONE | LT_CL_SPLIT},
    {"clEnqueueNDRangeKernel", -6, LCL_ERR_OPENCL, LT_CL_ONE},
    {"clEnqueueWriteBuffer", -6, LCL_ERR_OPENCL, LT_CL_ONE | LT_CL_SPLIT},
    {"clEnqueueReadBuffer", -6, LCL_ERR_OPENCL, LT_CL_ONE},
    {"clEnqueueWriteBufferRect", -6, LCL_ERR_OPENCL, LT_CL_SPLIT},
    {"clEnqueueReadBufferRect", -6, LCL_ERR_OPENCL, LT_CL_SPLIT},
    {"clEnqueueCopyBufferRect", -6, LCL_ERR_OPENCL, LT_CL_SPLIT},
    {"clEnqueueMarkerWithWaitList", -6, LCL_ERR_OPENCL, LT_CL_SPLIT},
    {"clWaitForEvents", -6, LCL_ERR_OPENCL, LT_CL_SPLIT},
    {"clFinish", -6, LCL_ERR_OPENCL, LT_CL_SPLIT | LT__CL_ABSORB}};
#define LT__CL_NFAULTS ((int)(sizeof lt__cl_faults / sizeof lt__cl_faults[0]))
/* Sampled sweeps: the full ones were the largest part of CI's time (bklu's two-device sweep alone
   about 1,150 faulted runs, in each make test and under ASan). For a fault whose entry point a
   clean run calls n times: the first LT__SW_HEAD calls, every k-th call after them (about
   LT__SW_MID, from an offset the seed gives), the last LT__SW_TAIL, then past the end as before;
   each checked as in the full sweep. The seed is the time unless LT_SWEEP_SEED is set, and is
   printed: runs over time cover every call, a failure is repeated with its seed. LT_FULL=1: every
   call of every fault. Under LT_SMALL=1 (ASan, valgrind) half as many points: the sweeps were half
   of ASan's time on the two-device tests, and CI's runs, each with its own seed, still add up to
   every call; make test keeps the full sample. */
#define LT__SW_HEAD (lt_small() ? 4 : 8)
#define LT__SW_MID (lt_small() ? 6 : 12)
#define LT__SW_TAIL (lt_small() ? 2 : 3)
static int lt__env_on(const char *name) {
    const char *e = getenv(name);
    return e && e[0] && strcmp(e, "0") != 0;
}
static unsigned lt__sweep_seed(void) {   /* one per process: every sweep of a run prints the same */
    static unsigned seed, have;
    const char *e = getenv("LT_SWEEP_SEED");
    if (!have) seed = e && e[0] ? (unsigned)strtoul(e, NULL, 10) : (unsigned)time(NULL) % 100000u;
    have = 1;
    return seed;
}
/* the stride for n calls (n < 0: not counted, every call) */
static int lt__sw_stride(int n) {
    if (n < 0 || n <= LT__SW_HEAD + LT__SW_MID + LT__SW_TAIL) return 1;
    return (n - LT__SW_HEAD - LT__SW_TAIL + LT__SW_MID - 1) / LT__SW_MID;
}
/* the call to fail after nth (0: the first) for n calls, stride k, offset off in [0, k) */
static int lt__sw_next(int nth, int n, int k, int off) {
    int next = nth + 1;
    if (k <= 1 || next <= LT__SW_HEAD || next > n - LT__SW_TAIL) return next;
    next = LT__SW_HEAD + 1 + off + k * ((next - LT__SW_HEAD - 1 - off + k - 1) / k);   /* the stride's next point */
    return next > n - LT__SW_TAIL ? n - LT__SW_TAIL + 1 : next;
}
int lt_cl_sweep(const char *name, lcl_context *ctx, int which, int max_nth, const char *alt,
                int (*run)(lcl_context *ctx, void *u), void *u, unsigned *reached) {
    int f, nth, runs = 0, points = 0, full = lt__env_on("LT_FULL"), ncalls[LT__CL_NFAULTS];
    unsigned seed = lt__sweep_seed();
    CHECK_MSG(run(ctx, u) == LCL_OK, "%s: the clean run failed", name);   /* warm: kernels built */
    if (lt__env_on("LT_NO_SWEEP")) {    /* results only (a GPU run inside a device call's minutes) */
        fprintf(stderr, "  %s: the clean run only (LT_NO_SWEEP=1)\n", name);
        for (f = 0; f < LT__CL_NFAULTS; f++)
            if (reached && (lt__cl_faults[f].use & which)) *reached |= 1u << f;
        return 0;
    }
    for (f = 0; f < LT__CL_NFAULTS; f++) ncalls[f] = -1;
    if (!full) {   /* a clean run counts each entry point's calls (armed past any count: nothing fails) */
        int st;
        for (f = 0; f < LT__CL_NFAULTS; f++)
            if (lt__cl_faults[f].use & which) lt_cl_fail(lt__cl_faults[f].fn, 0x7fffffff, lt__cl_faults[f].code);
        st = run(ctx, u);
        for (f = 0; f < LT__CL_NFAULTS; f++)
            if (lt__cl_faults[f].use & which) ncalls[f] = LCL__MIN(lt_cl_calls(lt__cl_faults[f].fn), max_nth - 1);   /* the sweep's range */
        lt_cl_reset();
        CHECK_MSG(st == LCL_OK, "%s: the counting run failed", name);
    }
    for (f = 0; f < LT__CL_NFAULTS; f++) {
        const char *fn = lt__cl_faults[f].fn;
        lcl_status want = lt__cl_faults[f].want;
        int k = lt__sw_stride(ncalls[f]), off = (int)((seed + 7u * (unsigned)f) % (unsigned)k);
        if (!(lt__cl_faults[f].use & which)) continue;
        points += ncalls[f] < 0 ? 0 : ncalls[f];
        for (nth = lt__sw_next(0, ncalls[f], k, off); nth < max_nth; nth = lt__sw_next(nth, ncalls[f], k, off)) {
            long before = lt_alloc_outstanding();
            int st, calls;
            if (!lt_cl_fail(fn, nth, lt__cl_faults[f].code)) { CHECK_MSG(0, "%s cannot be hooked", fn); break; }
            st = run(ctx, u);
            calls = lt_cl_calls(fn);
            lt_cl_reset();
            runs++;
            if (calls < nth) {   /* past the last call: the run must be right */
                CHECK_MSG(st == LCL_OK, "%s %s: %d calls, %s", name, fn, calls, st < 0 ? "a wrong result" : lcl_status_string((lcl_status)st));
                break;
            }
            if (nth == 1) fprintf(stderr, "  %s #1 -> %s: %.160s\n", fn, st < 0 ? "a wrong result" : lcl_status_string((lcl_status)st),
                                  lcl_last_error(ctx));
            if (reached) *reached |= 1u << f;
            if (st == LCL_OK && (lt__cl_faults[f].use & LT__CL_ABSORB)) continue;
            if (st == LCL_OK && (which & LT_CL_OPTBUF) && !strcmp(fn, "clCreateBuffer")) continue;
            if (st == LCL_OK && (which & LT_CL_MEMRETRY) && lt__cl_faults[f].want == LCL_ERR_DEVICE_MEMORY) continue;
            CHECK_MSG(st == (int)want, "%s with %s #%d failing: %s, want %s (%s)", name, fn, nth,
                      st < 0 ? "a wrong result" : lcl_status_string((lcl_status)st), lcl_status_string(want), lcl_last_error(ctx));
            CHECK_MSG(strstr(lcl_last_error(ctx), fn) != NULL || strstr(lcl_last_error(ctx), alt) != NULL,
                      "%s: the message names no call: %s", name, lcl_last_error(ctx));
            CHECK_MSG(lt_alloc_outstanding() == before, "%s: %s #%d: %ld host blocks leaked", name, fn, nth,
                      lt_alloc_outstanding() - before);
            lcl_clear_error(ctx);
            CHECK_MSG(run(ctx, u) == LCL_OK, "%s: the context fails after %s #%d", name, fn, nth);
        }
    }
    if (!full) fprintf(stderr, "  %s: %d faulted runs for %d calls, sampled (LT_SWEEP_SEED=%u; LT_FULL=1 fails every call)\n", name, runs,
                       points, seed);
    return runs;
}
const char *lt_cl_unreached(unsigned reached, int which) {
    int f;
    for (f = 0; f < LT__CL_NFAULTS; f++)
        if ((lt__cl_faults[f].use & which) && !(reached >> f & 1)) return lt__cl_faults[f].fn;
    return NULL;
}

/* 1 when name contains any part of the comma-separated list */
static int lt__any(const char *name, const char *list) {
    while (*list) {
        char part[128];
        size_t n = strcspn(list, ",");
        if (n > 0 && n < sizeof part) {
            memcpy(part, list, n);
            part[n] = 0;
            if (strstr(name, part)) return 1;
        }
        list += n + (list[n] == ',');
    }
    return 0;
}
/* LT_FILTER=a,b,c runs only the tests containing any of them; LT_SKIP=a,b,c skips those (the same
   list in both splits a run in two: check-asan's halves in CI) */
int lt_selected(const char *name) {
    const char *f = getenv("LT_FILTER"), *skip = getenv("LT_SKIP");
    if (f && f[0] && !lt__any(name, f)) return 0;
    return !(skip && lt__any(name, skip));
}
int lt_small(void) { return lt__env_on("LT_SMALL"); }
double *lt_dense_rows(const lcl_dense *m) {
    int64_t i, j;
    double *a = (double *)malloc((size_t)(m->rows * m->cols + 1) * sizeof(double));
    if (!a) { fprintf(stderr, "lt_dense_rows: out of memory\n"); exit(2); }
    for (i = 0; i < m->rows; i++)
        for (j = 0; j < m->cols; j++) a[i * m->cols + j] = lcl_dense_get(m, i, j);
    return a;
}
int lt_valgrind(void) { return lt__env_on("LT_VALGRIND"); }
/* ---- real matrices: shipped in LT_MATRICES, more in $LCL_SHARED/matrices when present ---- */
static int lt__exists(const char *path) {
    FILE *f = fopen(path, "rb");
    if (f) fclose(f);
    return f != NULL;
}
int lt_matrix_path(char *buf, size_t cap, const char *name) {
    snprintf(buf, cap, "%s/%s", LT_MATRICES, name);
    if (lt__exists(buf)) return 1;
    snprintf(buf, cap, "%s/matrices/%s", lt_shared, name);
    return lt__exists(buf);
}
int lt_matrix_optional(char *buf, size_t cap, const char *name) {
    if (lt_matrix_path(buf, cap, name)) return 1;
    fprintf(stderr, "  %s: not shipped and not in %s/matrices (LCL_SHARED): left out\n", name, lt_shared);
    return 0;
}
static int lt__name_cmp(const void *a, const void *b) { return strcmp((const char *)a, (const char *)b); }
static int lt__list_dir(const char *dir, char (*names)[LT_NAME_MAX], int n, int cap) {
    DIR *d = opendir(dir);
    struct dirent *e;
    int k, have = n;
    if (!d) return n;
    while ((e = readdir(d)) != NULL && n < cap) {
        size_t l = strlen(e->d_name);
        if (l < 5 || l >= LT_NAME_MAX || strcmp(e->d_name + l - 4, ".mtx") != 0) continue;
        for (k = 0; k < have && strcmp(names[k], e->d_name) != 0; k++) {}
        if (k < have) continue;     /* shipped: the copy in LT_MATRICES is used */
        memcpy(names[n++], e->d_name, l + 1);
    }
    closedir(d);
    return n;
}
int lt_matrix_list(char (*names)[LT_NAME_MAX], int cap) {
    char dir[1024];
    int n = lt__list_dir(LT_MATRICES, names, 0, cap);
    snprintf(dir, sizeof dir, "%s/matrices", lt_shared);
    n = lt__list_dir(dir, names, n, cap);
    qsort(names, (size_t)n, sizeof names[0], lt__name_cmp);
    return n;
}
/* LCL_SHARED_CONTEXT reaches the tests' contexts although they ignore the environment, so the
   multi-device tests run with either kind of context: 1 (unset, as the library's default) one
   cl_context per platform, 0 one per device */
int lt_shared_env(void) {
    const char *e = getenv("LCL_SHARED_CONTEXT");
    return !(e && e[0]) || atoi(e) != 0;
}
lcl_context *lt_context(lcl_backend b, const char *device, const char *cache, const char *opts, int threads) {
    lcl_context_desc d;
    lcl_context *ctx = NULL;
    memset(&d, 0, sizeof d);
    d.shared_context = lt_shared_env() ? 1 : -1;
    d.backend = b;
    d.device = device;
    d.cache_dir = cache;
    d.build_options = opts;
    d.num_threads = threads;
    d.ignore_env = 1;
    if (lcl_context_create(&d, &ctx) != LCL_OK) {
        fprintf(stderr, "  context (%s): %s\n", lcl_backend_name(b), lcl_last_error(ctx));
        lcl_context_destroy(ctx);
        return NULL;
    }
    if (cache) lt_binary_cache(ctx, 1);   /* a test that names a cache tests it: on PoCL too, where it is off */
    return ctx;
}
int lt_binary_cache(lcl_context *ctx, int set) {
#ifndef LINALG_CL_NO_OPENCL
    int i;
    for (i = 0; set >= 0 && i < ctx->ndev; i++) ctx->dev[i].tune.binary_cache = set;
    return ctx->ndev ? ctx->dev[0].tune.binary_cache : 0;
#else
    (void)ctx;
    (void)set;
    return 0;
#endif
}
lcl_context *lt_ocl(const char *device) {
    lcl_context_desc d;
    lcl_context *c = NULL;
    int n = 0;
    lcl_list_devices(NULL, NULL, 0, &n);
    if (!n) return NULL;
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_OPENCL;
    d.device = device;
    d.ignore_env = device != NULL;
    d.shared_context = lt_shared_env() ? 1 : -1;
    d.cache_dir = getenv("LT_CACHE");
    if (lcl_context_create(&d, &c) != LCL_OK) {
        fprintf(stderr, "  %s\n", lcl_last_error(c));
        lcl_context_destroy(c);
        return NULL;
    }
    return c;
}
void lt_skip(const char *why) { lt_checks_failed = -1000000; fprintf(stderr, "  skipped: %s\n", why); }
/* LT_TIMES=1: each test's wall time on its own line ("time NAME SECONDS"), to find what CI spends
   (the library's clock: wall time with OpenMP, CPU time in the serial-only TSan build) */
void lt_run(const char *name, void (*fn)(void)) {
    int times = lt__env_on("LT_TIMES");
    double t0;
    if (!lt_selected(name)) return;
    lt_checks_failed = 0;
    fprintf(stderr, "%s\n", name);
    t0 = lcl__wtime();
    fn();
    if (times) fprintf(stderr, "time %s %.2f\n", name, lcl__wtime() - t0);
    if (lt_checks_failed < 0) skipped++;
    else if (lt_checks_failed == 0) passed++;
    else {
        failed++;
        if (strlen(failed_names) + strlen(name) + 3 < sizeof failed_names) { strcat(failed_names, " "); strcat(failed_names, name); }
        fprintf(stderr, "FAILED %s\n", name);
    }
}

void lt_suite_core(void);
void lt_suite_mm(void);
void lt_suite_gen(void);
void lt_suite_tool(void);
void lt_suite_dense_opencl(void);
void lt_suite_faults(void);
void lt_suite_dense(void);
void lt_suite_sparse(void);
void lt_suite_rowpart(void);
int lt_pocl_aborted(const char *path, int echo) {
    char line[512];
    int hit = 0;
    FILE *f = path ? fopen(path, "r") : NULL;
    if (!f) return 0;
    while (fgets(line, sizeof line, f)) {
        if (echo) fputs(line, stderr);
        if (strstr(line, LT_POCL_ABORT)) hit = 1;
    }
    fclose(f);
    return hit;
}
int lt_system_pocl(const char *cmd) {
    char tmp[] = "/tmp/lt_child_XXXXXX", *full;
    int fd = mkstemp(tmp), rc = -1, run, again = 0;
    size_t cap = strlen(cmd) + sizeof tmp + 32;
    if (fd < 0 || !(full = (char *)malloc(cap))) {
        if (fd >= 0) close(fd), unlink(tmp);
        return system(cmd);
    }
    close(fd);
    snprintf(full, cap, "{ %s ; } 2>'%s'", cmd, tmp);
    for (run = 0; run < LT_POCL_RUNS; run++) {
        rc = system(full);
        again = lt_pocl_aborted(tmp, 1);
        if (rc == 0 || !again) break;
        if (run + 1 < LT_POCL_RUNS) fprintf(stderr, "  (PoCL aborted in its own kernel cache, pocl_release_dlhandle_cache: the child runs again)\n");
    }
    unlink(tmp);
    free(full);
    return rc;
}

int lt_child(const char *name);
int lt_child_dense(const char *name);
/* compiled here, with the implementation: they see struct lcl_spmat / lcl_klu_symbolic (see the files) */
#include "test_spmv_opencl.c"
#include "test_spmv_cpu.c"
#include "test_klu.c"
#include "test_klu_opencl.c"
#include "test_klu_analyze.c"
#include "test_bklu.c"
#include "test_gemm_opencl.c"

int main(int argc, char **argv) {
    const char *sh = getenv("LCL_SHARED");
    if (sh && sh[0]) lt_shared = sh;
    lt_self = argv[0];
    if (argc >= 3 && !strcmp(argv[1], "--child") && !strncmp(argv[2], "spmv", 4)) return lt_child_spmv(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "--child") && !strncmp(argv[2], "dense", 5)) return lt_child_dense(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "--child") && !strncmp(argv[2], "bklu", 4)) return lt_child_bklu(argv[2]);
    if (argc >= 3 && !strcmp(argv[1], "--child")) return lt_child(argv[2]);
    lt_suite_core();
    lt_suite_mm();
    lt_suite_gen();
    lt_suite_dense_opencl();
    lt_suite_gemm_opencl();
    lt_suite_tool();
    lt_suite_faults();
    lt_suite_dense();
    lt_suite_sparse();
    lt_suite_rowpart();
    lt_suite_spmv_opencl();
    lt_suite_spmv_cpu();
    lt_suite_klu();
    lt_suite_klu_opencl();
    lt_suite_klu_analyze();
    lt_suite_bklu();
    if (failed) fprintf(stderr, "failed:%s\n", failed_names);
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
