/* trace_dense.c -- where the time of an OpenCL LU / Cholesky goes: every kernel the library
   launches is timed by OpenCL event profiling, then summed per kernel and per queue, with the
   time both queues were busy at once (the overlap look-ahead relies on) and the time the device
   sat idle. Not a test. Usage: trace_dense [device-spec] [n] [lu|cholesky|both] [block]
   trace_dense seq [panel]: one line per enqueued command (kernel name, queue, sizes) of getrf and
   potrf (lower, upper) over a fixed set of sizes and blocks, both precisions, for comparing the
   launch sequence before and after a change; opts.device = -1 when TRACE_MULTI is set.
   TRACE_SPLIT=1: the matrix split over every device of the spec (lcl_dmat_upload_split), and the
   transfers and copies traced too (TRACE_XFER=1: those without the split); TRACE_QUEUED=N: the first
   N commands' enqueue and submission times beside their start and end; TRACE_EVENTS=FILE appends one line per traced command (queue
   in creation order, start and end in ms, name) for a timeline per device and queue.
   trace_dense spmv [device-spec] [m] [reps]: the resident split SpMV (lcl_vec_create_like) of the
   7-point Poisson matrix on an m^3 grid over every device of the spec, each product timed alone
   (lcl_finish after it), the last three traced: every command with its queued, start and end times
   from the product's first enqueue.
   trace_dense bklu [device-spec] [BASE] [M] [devices]: the block LU's refactor of J (x) B (J the
   base, default gen:circuit:1000; B = M I + uniform[-0.5, 0.5] off the diagonal; devices 0: all),
   the third run traced: every kernel and transfer, and a marker on each device's queue at each
   phase of each level, so the device time of a level's phases (values in, U steps, pivot LU,
   inverses, L) and the device's idle gap before its next level show without draining anything
   (LCL_BKLU_HOST_THREADS=1 too: the records are locked). The tracing itself slows the host (an
   event a command): on two H200s at M = 256 most of a traced run's gaps were the host's, and
   untraced the host held nothing up (BENCHMARKS.md, twenty-seventh session): weigh gaps against
   NOTRACE runs.
   NOTRACE=N: N untraced refactors only; SCHEDULE=static|affinity|dynamic. LEVELMARKS=1: the
   phase markers (nothing else traced) in one more untraced refactor, reported as the traced one's:
   the per-level table without the tracer's host cost, with a column for the eager queue (two
   devices: when the rounds the level's end waits for were done, after the level's own L or not).
   SPLITOUT=PREFIX (several devices): each device's share of the base as PREFIXd.mtx, to factor
   alone on one device with ORDERING=natural (which keeps the run's order): a one-GPU stand-in
   for the several-GPU run (bklu_split_out). TRACE_BARRIER=DIR:K: the refactors start once K
   processes have reached them (bench/gpu/bklu_shares.sh: two shares at once, a GPU each).
   HOSTTIME=1: each untraced refactor's host time inside each kind of OpenCL call (launches,
   transfers, markers, flushes, waits, event queries, kernel arguments, releases) and the calling
   thread's CPU time: what the host does while the devices work. */
#define _POSIX_C_SOURCE 200809L
static void tb_mark(void *q, int ph);
#define LCL_BKLU_TIMING(q, ph) tb_mark((void *)(q), ph)
#define LCL__DEVICE_REPEAT   /* "0,0": one device opened twice, its copies in one context (two pipelines on one GPU) */
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include "lcl_gen.h"
#include <stdio.h>
#include <time.h>
#include <dlfcn.h>
#include <dirent.h>
#include <unistd.h>

typedef struct { cl_event ev; cl_command_queue q; int name; } rec;
static rec *recs;
static int nrec, caprec, tracing, marking;
static struct { cl_kernel k; char name[64]; } knames[256];
static int nk;
static lcl__pfn_clEnqueueNDRangeKernel real_nd;
static lcl__pfn_clCreateCommandQueue real_cq;
static lcl__pfn_clCreateKernel real_ck;
static cl_command_queue qmade[16];
static int nqmade;

/* TRACE_PRIO=1: the second queue of the device (the panel queue) at high priority, the first at
   low (cl_khr_priority_hints, through clCreateCommandQueueWithProperties) */
typedef cl_command_queue(CL_API_CALL *cqwp_fn)(cl_context, cl_device_id, const cl_ulong *, cl_int *);
static int nq_made;
static cl_command_queue CL_API_CALL cq(cl_context c, cl_device_id d, cl_command_queue_properties p, cl_int *e) {
    const char *prio = getenv("TRACE_PRIO");
    if (prio && atoi(prio)) {
        void *h = dlopen("libOpenCL.so.1", RTLD_NOW);
        cqwp_fn f = NULL;
        void *sym = h ? dlsym(h, "clCreateCommandQueueWithProperties") : NULL;
        if (sym) memcpy(&f, &sym, sizeof f);
        if (f) {
            cl_ulong props[] = {CL_QUEUE_PROPERTIES, p | CL_QUEUE_PROFILING_ENABLE, 0x1096 /* CL_QUEUE_PRIORITY_KHR */,
                                           nq_made++ % 2 ? 1u /* HIGH */ : 4u /* LOW */, 0};
            cl_command_queue q = f(c, d, props, e);
            printf("   queue %d with priority hint: %s (%d)\n", nq_made - 1, q ? "created" : "refused", e ? *e : 0);
            if (q) return q;
        }
    }
    {
        cl_command_queue q = real_cq(c, d, p | CL_QUEUE_PROFILING_ENABLE, e);
        if (q && nqmade < 16) qmade[nqmade++] = q;
        return q;
    }
}
/* the block LU may launch from a host thread per device (LCL_BKLU_HOST_THREADS=1) */
static pthread_mutex_t tmx = PTHREAD_MUTEX_INITIALIZER;
static cl_kernel CL_API_CALL ck(cl_program p, const char *name, cl_int *e) {
    cl_kernel k = real_ck(p, name, e);
    pthread_mutex_lock(&tmx);
    if (k && nk < 256) { knames[nk].k = k; snprintf(knames[nk].name, sizeof knames[nk].name, "%s", name); nk++; }
    pthread_mutex_unlock(&tmx);
    return k;
}
/* seq mode: every enqueue printed, queues numbered in creation order */
static int seq;
static lcl__pfn_clEnqueueMarkerWithWaitList real_mk;
static lcl__pfn_clEnqueueBarrierWithWaitList real_br;
static lcl__pfn_clEnqueueReadBufferRect real_rr;
static lcl__pfn_clEnqueueWriteBufferRect real_wr;
static lcl__pfn_clEnqueueCopyBufferRect real_cr;
static lcl__pfn_clEnqueueReadBuffer real_rb;
static lcl__pfn_clEnqueueWriteBuffer real_wb;
static lcl__pfn_clEnqueueCopyBuffer real_cb;
/* HOSTTIME=1 (bklu): the host's time inside each kind of OpenCL call, per untraced refactor */
enum { HT_KERNEL, HT_XFER, HT_MARK, HT_FLUSH, HT_WAIT, HT_EVINFO, HT_ARG, HT_RELEASE, HT_N };
static const char *const ht_names[HT_N] = {"kernels", "transfers", "markers", "flushes", "waits", "event queries", "kernel args", "event releases"};
static int htime;
static double ht_sum[HT_N];
static long ht_cnt[HT_N];
static double now(void);
#define HT(cat, call) do { if (htime) { double t_ = now(); call; t_ = now() - t_; pthread_mutex_lock(&tmx); ht_sum[cat] += t_; ht_cnt[cat]++; \
    pthread_mutex_unlock(&tmx); } else { call; } } while (0)
static lcl__pfn_clFlush real_fl;
static lcl__pfn_clFinish real_fi;
static lcl__pfn_clWaitForEvents real_we;
static lcl__pfn_clGetEventInfo real_ei;
static lcl__pfn_clSetKernelArg real_sa;
static lcl__pfn_clReleaseEvent real_re;
static cl_int CL_API_CALL ht_fl(cl_command_queue q) { cl_int e; HT(HT_FLUSH, e = real_fl(q)); return e; }
static cl_int CL_API_CALL ht_fi(cl_command_queue q) { cl_int e; HT(HT_WAIT, e = real_fi(q)); return e; }
static cl_int CL_API_CALL ht_we(cl_uint n, const cl_event *l) { cl_int e; HT(HT_WAIT, e = real_we(n, l)); return e; }
static cl_int CL_API_CALL ht_ei(cl_event v, cl_event_info i, size_t n, void *p, size_t *r) { cl_int e; HT(HT_EVINFO, e = real_ei(v, i, n, p, r)); return e; }
static cl_int CL_API_CALL ht_sa(cl_kernel k, cl_uint i, size_t n, const void *p) { cl_int e; HT(HT_ARG, e = real_sa(k, i, n, p)); return e; }
static cl_int CL_API_CALL ht_re(cl_event v) { cl_int e; HT(HT_RELEASE, e = real_re(v)); return e; }
static int qidx(cl_command_queue q) {
    int i;
    for (i = 0; i < nqmade; i++) if (qmade[i] == q) return i;
    return -1;
}
static cl_int CL_API_CALL mk(cl_command_queue q, cl_uint nw, const cl_event *w, cl_event *ev) {
    if (seq) printf("  marker q%d wait %u\n", qidx(q), nw);
    { cl_int e; HT(HT_MARK, e = real_mk(q, nw, w, ev)); return e; }
}
static cl_int CL_API_CALL br(cl_command_queue q, cl_uint nw, const cl_event *w, cl_event *ev) {
    if (seq) printf("  barrier q%d wait %u\n", qidx(q), nw);
    { cl_int e; HT(HT_MARK, e = real_br(q, nw, w, ev)); return e; }
}
static void rect(const char *what, cl_command_queue q, const size_t *a, const size_t *b, const size_t *r, cl_bool blk, cl_uint nw) {
    if (seq) printf("  %s q%d %zu,%zu -> %zu,%zu region %zux%zux%zu%s wait %u\n", what, qidx(q), a[0], a[1], b[0], b[1], r[0], r[1], r[2],
                    blk ? " blocking" : "", nw);
}
static void rec_add(cl_command_queue q, int name, cl_event *ev, cl_event mine);
static int xname(const char *what);
static int xtrace;   /* TRACE_SPLIT */
#define XTRACE(call, what) do { cl_event mine_ = NULL; cl_event *evp_ = xtrace && tracing && !ev ? &mine_ : ev; cl_int e_; \
    HT(HT_XFER, call); if (xtrace && tracing && e_ == CL_SUCCESS) rec_add(q, xname(what), ev, mine_); return e_; } while (0)
static cl_int CL_API_CALL rr(cl_command_queue q, cl_mem m, cl_bool blk, const size_t *bo, const size_t *ho, const size_t *r, size_t a, size_t b,
                             size_t c, size_t d, void *p, cl_uint nw, const cl_event *w, cl_event *ev) {
    rect("readrect", q, bo, ho, r, blk, nw);
    XTRACE(e_ = real_rr(q, m, blk, bo, ho, r, a, b, c, d, p, nw, w, evp_), "D2H rect");
}
static cl_int CL_API_CALL wr(cl_command_queue q, cl_mem m, cl_bool blk, const size_t *bo, const size_t *ho, const size_t *r, size_t a, size_t b,
                             size_t c, size_t d, const void *p, cl_uint nw, const cl_event *w, cl_event *ev) {
    rect("writerect", q, bo, ho, r, blk, nw);
    XTRACE(e_ = real_wr(q, m, blk, bo, ho, r, a, b, c, d, p, nw, w, evp_), "H2D rect");
}
static cl_int CL_API_CALL cr(cl_command_queue q, cl_mem s, cl_mem dm, const size_t *so, const size_t *dor, const size_t *r, size_t a, size_t b,
                             size_t c, size_t d, cl_uint nw, const cl_event *w, cl_event *ev) {
    rect("copyrect", q, so, dor, r, 0, nw);
    XTRACE(e_ = real_cr(q, s, dm, so, dor, r, a, b, c, d, nw, w, evp_), "copy rect");
}
static cl_int CL_API_CALL rb(cl_command_queue q, cl_mem m, cl_bool blk, size_t o, size_t n, void *p, cl_uint nw, const cl_event *w, cl_event *ev) {
    if (seq) printf("  read q%d %zu+%zu%s wait %u\n", qidx(q), o, n, blk ? " blocking" : "", nw);
    XTRACE(e_ = real_rb(q, m, blk, o, n, p, nw, w, evp_), "D2H");
}
static cl_int CL_API_CALL wb(cl_command_queue q, cl_mem m, cl_bool blk, size_t o, size_t n, const void *p, cl_uint nw, const cl_event *w,
                             cl_event *ev) {
    if (seq) printf("  write q%d %zu+%zu%s wait %u\n", qidx(q), o, n, blk ? " blocking" : "", nw);
    XTRACE(e_ = real_wb(q, m, blk, o, n, p, nw, w, evp_), "H2D");
}
static cl_int CL_API_CALL cb(cl_command_queue q, cl_mem s, cl_mem d, size_t so, size_t dof, size_t n, cl_uint nw, const cl_event *w, cl_event *ev) {
    if (seq) printf("  copy q%d %zu -> %zu +%zu wait %u\n", qidx(q), so, dof, n, nw);
    XTRACE(e_ = real_cb(q, s, d, so, dof, n, nw, w, evp_), "copy");
}
static void seq_kernel(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *g, const size_t *l) {
    int i, name = -1;
    if (!seq) return;
    for (i = 0; i < nk; i++) if (knames[i].k == k) name = i;
    printf("  kernel %s q%d g", name >= 0 ? knames[name].name : "?", qidx(q));
    for (i = 0; i < (int)dim; i++) printf("%s%zu", i ? "x" : "", g[i]);
    printf(" l");
    for (i = 0; i < (int)dim; i++) printf("%s%zu", i ? "x" : "", l ? l[i] : 0);
    printf("\n");
}
/* a traced command: the caller's event (kept one reference longer) or ours */
static void rec_add(cl_command_queue q, int name, cl_event *ev, cl_event mine) {
    if (ev) { mine = *ev; LCL__CL->clRetainEvent(mine); }
    pthread_mutex_lock(&tmx);
    if (nrec == caprec) { caprec = caprec ? 2 * caprec : 4096; recs = (rec *)realloc(recs, (size_t)caprec * sizeof *recs); }
    recs[nrec].ev = mine; recs[nrec].q = q; recs[nrec].name = name; nrec++;
    pthread_mutex_unlock(&tmx);
}
/* TRACE_SPLIT: transfers and copies are traced too, under these names */
static int xname(const char *what) {
    int i;
    pthread_mutex_lock(&tmx);
    for (i = 0; i < nk; i++) if (!knames[i].k && !strcmp(knames[i].name, what)) break;
    if (i == nk && nk < 256) {
        knames[nk].k = NULL;
        snprintf(knames[nk].name, sizeof knames[nk].name, "%s", what);
        nk++;
    }
    pthread_mutex_unlock(&tmx);
    return i < 256 ? i : -1;
}
static cl_int CL_API_CALL nd(cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *o, const size_t *g, const size_t *l, cl_uint nw,
                             const cl_event *w, cl_event *ev) {
    cl_event mine = NULL;
    cl_int e;
    seq_kernel(q, k, dim, g, l);
    HT(HT_KERNEL, e = real_nd(q, k, dim, o, g, l, nw, w, tracing && !ev ? &mine : ev));
    if (tracing && e == CL_SUCCESS) {
        int i, name = -1;
        for (i = 0; i < nk; i++) if (knames[i].k == k) name = i;
        rec_add(q, name, ev, mine);
    }
    return e;
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec; }
static int cmp_start(const void *a, const void *b) {
    const double *x = (const double *)a, *y = (const double *)b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}
/* union length of intervals iv[i] = {start, end}, sorted in place */
static double busy(double *iv, int n) {
    double tot = 0, s = 0, e = -1;
    int i;
    qsort(iv, (size_t)n, 2 * sizeof(double), cmp_start);
    for (i = 0; i < n; i++) {
        if (iv[2 * i] > e) { if (e > s) tot += e - s; s = iv[2 * i]; e = iv[2 * i + 1]; }
        else if (iv[2 * i + 1] > e) e = iv[2 * i + 1];
    }
    if (e > s) tot += e - s;
    return tot;
}

static void report(const char *what, double wall, const cl_command_queue *qs) {
    cl_command_queue q0 = qs[0];
    double *iv2 = (double *)malloc((size_t)nrec * 2 * sizeof(double)), *iv = (double *)malloc((size_t)nrec * 2 * sizeof(double)), *iq = (double *)malloc((size_t)nrec * 2 * sizeof(double));
    double tsum[257] = {0}, tiso[257] = {0}, t0 = 1e300, t1 = 0, b0, b1, ball, wa = 0, wb = -1;
    int cnt[257] = {0}, ciso[257] = {0}, i, nq, q, m;
    if (getenv("TRACE_WIN")) sscanf(getenv("TRACE_WIN"), "%lf,%lf", &wa, &wb);
    for (i = 0; i < nrec; i++) {
        cl_ulong s = 0, e = 0;
        LCL__CL->clGetEventProfilingInfo(recs[i].ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
        LCL__CL->clGetEventProfilingInfo(recs[i].ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
        iv[2 * i] = iv2[2 * i] = (double)s * 1e-9;
        iv[2 * i + 1] = iv2[2 * i + 1] = (double)e * 1e-9;
        if (iv[2 * i] < t0) t0 = iv[2 * i];
        if (iv[2 * i + 1] > t1) t1 = iv[2 * i + 1];
        tsum[recs[i].name + 1] += iv[2 * i + 1] - iv[2 * i];
        cnt[recs[i].name + 1]++;
    }
    /* a launch is isolated when no launch on the other side (update queue / panel queues) overlaps it */
    for (i = 0; i < nrec; i++) {
        int iso = 1;
        for (m = 0; m < nrec && iso; m++)
            if ((recs[m].q == q0) != (recs[i].q == q0) && iv[2 * m] < iv[2 * i + 1] && iv[2 * m + 1] > iv[2 * i]) iso = 0;
        if (iso) { tiso[recs[i].name + 1] += iv[2 * i + 1] - iv[2 * i]; ciso[recs[i].name + 1]++; }
        if ((iv[2 * i] - t0) * 1e3 >= wa && (iv[2 * i] - t0) * 1e3 <= wb)
            printf("   @ %9.3f .. %9.3f ms  q%d  %s\n", (iv[2 * i] - t0) * 1e3, (iv[2 * i + 1] - t0) * 1e3, recs[i].q == q0 ? 0 : recs[i].q == qs[1] ? 1 : 2,
                   recs[i].name >= 0 ? knames[recs[i].name].name : "?");
    }
    printf("== %s: wall %.2f ms, first kernel start to last end %.2f ms, %d kernels\n", what, wall * 1e3, (t1 - t0) * 1e3, nrec);
    if (getenv("TRACE_QUEUED"))   /* the first commands' host enqueue and submission against their start: who waited */
        for (i = 0; i < nrec && i < atoi(getenv("TRACE_QUEUED")); i++) {
            cl_ulong qd = 0, sb = 0;
            LCL__CL->clGetEventProfilingInfo(recs[i].ev, CL_PROFILING_COMMAND_QUEUED, sizeof qd, &qd, NULL);
            LCL__CL->clGetEventProfilingInfo(recs[i].ev, CL_PROFILING_COMMAND_SUBMIT, sizeof sb, &sb, NULL);
            printf("   q%d queued %9.4f submit %9.4f start %9.4f end %9.4f ms  %s\n", qidx(recs[i].q), ((double)qd * 1e-9 - t0) * 1e3,
                   ((double)sb * 1e-9 - t0) * 1e3, (iv[2 * i] - t0) * 1e3, (iv[2 * i + 1] - t0) * 1e3,
                   recs[i].name >= 0 ? knames[recs[i].name].name : "?");
        }
    for (i = 1; i <= nk; i++)   /* one line a kernel name (the same kernel of each device's program merged) */
        for (m = 1; m < i; m++)
            if (!strcmp(knames[m - 1].name, knames[i - 1].name)) {
                cnt[m] += cnt[i]; tsum[m] += tsum[i]; ciso[m] += ciso[i]; tiso[m] += tiso[i];
                cnt[i] = 0;
                break;
            }
    for (i = 0; i <= nk; i++)
        if (cnt[i])
            printf("   %-22s %6d launches %9.2f ms  (%.1f us each; %d alone: %.1f us each)\n", i ? knames[i - 1].name : "?", cnt[i], tsum[i] * 1e3,
                   tsum[i] * 1e6 / cnt[i], ciso[i], ciso[i] ? tiso[i] * 1e6 / ciso[i] : 0.0);
    for (q = 0; q < 2; q++) {
        nq = 0;
        for (i = 0; i < nrec; i++)
            if ((recs[i].q == q0) == !q) { iq[2 * nq] = iv[2 * i]; iq[2 * nq + 1] = iv[2 * i + 1]; nq++; }
        if (q == 0) b0 = busy(iq, nq); else b1 = busy(iq, nq);
    }
    ball = busy(iv, nrec);
    printf("   busy: update queue %.2f ms, panel queues %.2f ms, either %.2f ms, both at once %.2f ms, idle %.2f ms\n", b0 * 1e3, b1 * 1e3,
           ball * 1e3, (b0 + b1 - ball) * 1e3, (t1 - t0 - ball) * 1e3);
    if (getenv("TRACE_EVENTS")) {   /* every traced command: queue (creation order), start, end, enqueue (ms; the last is
                                       CL_PROFILING_COMMAND_QUEUED, which NVIDIA's driver stamps when it takes the
                                       command up, not always at the host's call), name */
        FILE *f = fopen(getenv("TRACE_EVENTS"), "a");
        if (f) {
            fprintf(f, "# %s\n", what);
            for (i = 0; i < nrec; i++) {
                cl_ulong qd = 0;
                LCL__CL->clGetEventProfilingInfo(recs[i].ev, CL_PROFILING_COMMAND_QUEUED, sizeof qd, &qd, NULL);
                fprintf(f, "%d %.4f %.4f %.4f %s\n", qidx(recs[i].q), (iv2[2 * i] - t0) * 1e3, (iv2[2 * i + 1] - t0) * 1e3,
                        ((double)qd * 1e-9 - t0) * 1e3, recs[i].name >= 0 ? knames[recs[i].name].name : "?");
            }
            fclose(f);
        }
    }
    free(iv2);
    for (i = 0; i < nrec; i++) LCL__CL->clReleaseEvent(recs[i].ev);
    nrec = 0;
    free(iv);
    free(iq);
}

/* a few rows of P A - L U (or A - L L^T) against the input, relative to max |A|: the variants
   this tool times must still factor correctly */
static void check(lcl_context *ctx, lcl_dmat *M, const lcl_dense *A, const int32_t *ipiv, int chol) {
    int64_t n = A->rows, rows[4], r, i, j, q;
    lcl_dense F;
    double *f, *a = (double *)A->data, amax = 0, err = 0;
    int64_t *perm;
    if (lcl_dense_alloc(ctx, &F, LCL_F64, LCL_ROW_MAJOR, n, n) != LCL_OK || lcl_dmat_download(ctx, M, &F) != LCL_OK) {
        fprintf(stderr, "%s\n", lcl_last_error(ctx));
        return;
    }
    f = (double *)F.data;
    perm = (int64_t *)malloc((size_t)n * sizeof *perm);
    for (i = 0; i < n; i++) perm[i] = i;
    if (!chol)
        for (i = 0; i < n; i++) { int64_t t = perm[i]; perm[i] = perm[ipiv[i]]; perm[ipiv[i]] = t; }
    rows[0] = 0; rows[1] = n / 3; rows[2] = 2 * n / 3 + 1; rows[3] = n - 1;
    for (i = 0; i < n * n; i++) if (fabs(a[i]) > amax) amax = fabs(a[i]);
    for (q = 0; q < 4; q++) {
        r = rows[q] < n ? rows[q] : n - 1;
        for (j = 0; j < n; j++) {
            double s = 0, want = a[perm[r] * n + j];
            if (chol) { for (i = 0; i <= (r < j ? r : j); i++) s += f[r * n + i] * f[j * n + i]; }
            else {
                /* (L U)[r][j] = sum_{i < min(r, j+1)} L[r][i] U[i][j] + (r <= j ? U[r][j] : 0) */
                int64_t m = r < j + 1 ? r : j + 1;
                for (i = 0; i < m; i++) s += f[r * n + i] * f[i * n + j];
                if (r <= j) s += f[r * n + j];
            }
            if (fabs(s - want) > err) err = fabs(s - want);
        }
    }
    printf("   check: max |%s - A| over 4 rows / max |A| = %.2e %s\n", chol ? "L L^T" : "L U", err / amax, err / amax < 1e-13 ? "ok" : "WRONG");
    free(perm);
    lcl_dense_free(&F);
}

/* deterministic test matrices: general with a weak diagonal, or SPD; bad = 1 makes column / the
   leading minor n/2 singular / not positive definite */
static void seq_fill(lcl_dense *A, int spd, int bad) {
    int64_t n = A->rows, i, j;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            uint64_t h = (uint64_t)(i < j ? i * 1000003 + j : j * 1000003 + i) * 0x9E3779B97F4A7C15ull + (spd || i < j ? 0 : 7);
            double v = (double)(h >> 11) / 9007199254740992.0 - 0.5;
            lcl_dense_set(A, i, j, i == j ? (spd ? (double)n : 0.1 * v) : v);
        }
    if (bad && n > 1) {
        for (i = 0; i < n; i++) { if (!spd) lcl_dense_set(A, i, n / 2, 0); }
        if (spd) lcl_dense_set(A, n / 2, n / 2, -1.0);
    }
}
static int seq_main(int argc, char **argv) {
    static const int ns[] = {1, 17, 200, 700}, blocks[] = {64, 128};
    lcl_context_desc desc = {0};
    lcl_context *ctx;
    int panel = argc > 2 ? atoi(argv[2]) : 0, t, ni, bi, w, bad;
    desc.backend = LCL_BACKEND_OPENCL;
    if (lcl_context_create(&desc, &ctx) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); return 1; }
    printf("devices %d, queues %d\n", lcl_context_num_devices(ctx), nqmade);
    for (t = 0; t < 2; t++)
        for (ni = 0; ni < 4; ni++)
            for (bi = 0; bi < 2; bi++)
                for (w = 0; w < 3; w++)
                    for (bad = 0; bad < 2; bad++) {
                        lcl_dtype dt = t ? LCL_F32 : LCL_F64;
                        int n = ns[ni];
                        lcl_dense A;
                        lcl_dense_opts o = {LCL_ALG_AUTO, 0, 0, 0};
                        int32_t *ipiv = (int32_t *)malloc((size_t)n * sizeof *ipiv);
                        int64_t info = 0;
                        lcl_status st;
                        if (bad && n != 200) { free(ipiv); continue; }
                        o.block = blocks[bi];
                        o.panel = panel;
                        o.device = getenv("TRACE_MULTI") ? -1 : 0;
                        lcl_dense_alloc(ctx, &A, dt, LCL_ROW_MAJOR, n, n);
                        seq_fill(&A, w > 0, bad);
                        printf("== %s %s n %d block %d panel %d%s\n", t ? "float" : "double", w == 0 ? "getrf" : w == 1 ? "potrf lower" : "potrf upper",
                               n, o.block, panel, bad ? " bad" : "");
                        seq = 1;
                        st = w == 0 ? lcl_getrf(ctx, &A, ipiv, &info, &o) : lcl_potrf(ctx, w == 1 ? LCL_LOWER : LCL_UPPER, &A, &info, &o);
                        seq = 0;
                        printf("-> status %d info %lld: %s\n", (int)st, (long long)info, st == LCL_OK ? "" : lcl_last_error(ctx));
                        lcl_dense_free(&A);
                        free(ipiv);
                    }
    lcl_context_destroy(ctx);
    return 0;
}
/* the split SpMV's timeline (see the top) */
static int spmv_main(int argc, char **argv) {
    lcl_context_desc desc = {0};
    lcl_context *ctx;
    lcl_coo A;
    lcl_spmat *S = NULL;
    lcl_spmat_opts so;
    lcl_vec *x = NULL, *y = NULL;
    int64_t m = argc > 3 ? atoi(argv[3]) : 320, n = m * m * m, i, j, k;
    int reps = argc > 4 ? atoi(argv[4]) : 10, r;
    double *xv;
    xtrace = 1;
    desc.backend = LCL_BACKEND_OPENCL;
    desc.device = argc > 2 ? argv[2] : "gpu";
    if (lcl_context_create(&desc, &ctx) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); return 1; }
    if (lcl_coo_alloc(ctx, &A, LCL_F64, n, n, 7 * n) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); return 1; }
    for (i = 0; i < m; i++)
        for (j = 0; j < m; j++)
            for (k = 0; k < m; k++) {
                int64_t row = (i * m + j) * m + k, nb[7], c;
                int q, cnt = 0;
                nb[cnt++] = row;
                if (i > 0) nb[cnt++] = row - m * m;
                if (i < m - 1) nb[cnt++] = row + m * m;
                if (j > 0) nb[cnt++] = row - m;
                if (j < m - 1) nb[cnt++] = row + m;
                if (k > 0) nb[cnt++] = row - 1;
                if (k < m - 1) nb[cnt++] = row + 1;
                for (q = 0; q < cnt; q++) {
                    c = nb[q];
                    A.row[A.nnz] = (int32_t)row;
                    A.col[A.nnz] = (int32_t)c;
                    ((double *)A.val)[A.nnz++] = c == row ? 6.0 : -1.0;
                }
            }
    memset(&so, 0, sizeof so);
    so.device = -1;
    xv = (double *)malloc((size_t)n * sizeof *xv);
    for (i = 0; i < n; i++) xv[i] = (double)(i % 17) - 8.0;
    if (lcl_spmat_from_coo(ctx, &A, &so, &S) != LCL_OK || lcl_vec_create_like(ctx, S, xv, &x) != LCL_OK ||
        lcl_vec_create_like(ctx, S, NULL, &y) != LCL_OK) {
        fprintf(stderr, "%s\n", lcl_last_error(ctx));
        return 1;
    }
    lcl_coo_free(&A);
    printf("spmv split: %lld rows, %d devices, queues %d\n", (long long)n, lcl_context_num_devices(ctx), nqmade);
    for (r = 0; r < reps; r++) {
        double t0, t1, t2;
        cl_ulong base = 0;
        tracing = r >= reps - 3;
        t0 = now();
        if (lcl_spmv_vec(ctx, LCL_NO_TRANS, 1.0, S, x, 0.0, y) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); return 1; }
        t1 = now();
        lcl_finish(ctx);
        t2 = now();
        tracing = 0;
        printf("product %d: enqueue %.1f us, to finish %.1f us\n", r, (t1 - t0) * 1e6, (t2 - t0) * 1e6);
        for (i = 0; i < nrec; i++) {
            cl_ulong qd = 0;
            LCL__CL->clGetEventProfilingInfo(recs[i].ev, CL_PROFILING_COMMAND_QUEUED, sizeof qd, &qd, NULL);
            if (!base || qd < base) base = qd;
        }
        for (i = 0; i < nrec; i++) {
            cl_ulong qd = 0, sb = 0, st = 0, en = 0;
            LCL__CL->clGetEventProfilingInfo(recs[i].ev, CL_PROFILING_COMMAND_QUEUED, sizeof qd, &qd, NULL);
            LCL__CL->clGetEventProfilingInfo(recs[i].ev, CL_PROFILING_COMMAND_SUBMIT, sizeof sb, &sb, NULL);
            LCL__CL->clGetEventProfilingInfo(recs[i].ev, CL_PROFILING_COMMAND_START, sizeof st, &st, NULL);
            LCL__CL->clGetEventProfilingInfo(recs[i].ev, CL_PROFILING_COMMAND_END, sizeof en, &en, NULL);
            printf("   q%d %-24s queued %8.1f submit %8.1f start %8.1f end %8.1f us\n", qidx(recs[i].q),
                   recs[i].name >= 0 ? knames[recs[i].name].name : "?", (double)(qd - base) * 1e-3, (double)(sb - base) * 1e-3,
                   (double)(st - base) * 1e-3, (double)(en - base) * 1e-3);
            LCL__CL->clReleaseEvent(recs[i].ev);
        }
        nrec = 0;
    }
    lcl_vec_free(x);
    lcl_vec_free(y);
    lcl_spmat_free(S);
    free(xv);
    lcl_context_destroy(ctx);
    return 0;
}
/* the block LU's phase markers (bklu mode): queue, phase, event */
typedef struct { cl_command_queue q; int ph; cl_event ev; } tbrec;
static tbrec *tbr;
static int ntb, captb;
static double hmark[18];   /* host clock at the host's markers (q NULL: 10 setup, 11 levels, 12 the end, 13 out; 15 F's
                              rest copied, 16 pivots read back, 17 F done by the slices) */
static void tb_mark(void *q, int ph) {
    cl_event ev = NULL;
    if (!q && ph >= 10 && ph <= 17) { hmark[ph] = now(); return; }
    if (!(tracing || marking) || !q || (ph > 5 && ph != 14)) return;
    if (LCL__CL->clEnqueueMarkerWithWaitList((cl_command_queue)q, 0, NULL, &ev) != CL_SUCCESS) return;
    pthread_mutex_lock(&tmx);
    if (ntb == captb) { captb = captb ? 2 * captb : 1024; tbr = (tbrec *)realloc(tbr, (size_t)captb * sizeof *tbr); }
    tbr[ntb].q = (cl_command_queue)q; tbr[ntb].ph = ph; tbr[ntb].ev = ev; ntb++;
    pthread_mutex_unlock(&tmx);
}
static double tb_end(cl_event ev) {
    cl_ulong e = 0;
    LCL__CL->clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof e, &e, NULL);
    return (double)e * 1e-9;
}
/* each device: a line per level (chunk) with its phases' device time, then the sums; with an
   eager queue, when the rounds the level's end waits for were done (marker 14), against its L */
static void tb_report(lcl_context *ctx, cl_command_queue const *eq) {
    int nd = lcl_context_num_devices(ctx), d, i, ph;
    double t0 = 1e300;
    for (i = 0; i < ntb; i++) if (tb_end(tbr[i].ev) < t0) t0 = tb_end(tbr[i].ev);
    for (i = 0; i < nrec; i++) {
        cl_ulong s = 0;
        LCL__CL->clGetEventProfilingInfo(recs[i].ev, CL_PROFILING_COMMAND_START, sizeof s, &s, NULL);
        if ((double)s * 1e-9 < t0) t0 = (double)s * 1e-9;
    }
    for (d = 0; d < nd; d++) {
        cl_command_queue q = ctx->dev[d].queue[0];
        double sum[7] = {0}, prev[6] = {0}, last5 = -1, q2 = -1, late = 0;
        int lv = 0, have = 0, nlate = 0, nq2 = 0;
        printf("== device %d (%s): per level (chunk): start ms, [values, U steps, pivot LU, inverses, L] ms, idle gap before it ms;"
               " eager: its rounds' end after L (ms; < 0: before)\n", d, ctx->dev[d].info.name);
        for (i = 0; i <= ntb; i++) {
            if (i < ntb && tbr[i].q != q) {
                if (tbr[i].ph == 14 && eq && d < 64 && tbr[i].q == eq[d]) q2 = tb_end(tbr[i].ev);
                continue;
            }
            if (i == ntb || tbr[i].ph == 0) {
                if (have == 6) {
                    double gap = last5 < 0 ? 0 : prev[0] - last5;
                    printf("   %3d %9.3f [%7.3f %7.3f %7.3f %7.3f %7.3f] gap %7.3f", lv, (prev[0] - t0) * 1e3, (prev[1] - prev[0]) * 1e3,
                           (prev[2] - prev[1]) * 1e3, (prev[3] - prev[2]) * 1e3, (prev[4] - prev[3]) * 1e3, (prev[5] - prev[4]) * 1e3, gap * 1e3);
                    if (q2 >= 0) {
                        printf(" eager %7.3f", (q2 - prev[5]) * 1e3);
                        nq2++;
                        if (q2 > prev[5]) nlate++, late += q2 - prev[5];
                    }
                    printf("\n");
                    for (ph = 1; ph < 6; ph++) sum[ph] += prev[ph] - prev[ph - 1];
                    sum[6] += gap;
                    last5 = prev[5];
                    lv++;
                }
                have = 0;
                q2 = -1;
                if (i == ntb) break;
            }
            ph = tbr[i].ph;
            prev[ph] = tb_end(tbr[i].ev);
            if (ph == have) have++;
        }
        printf("   sums over %d levels: values %.3f, U steps %.3f, pivot LU %.3f, inverses %.3f, L %.3f, idle gaps %.3f ms\n", lv, sum[1] * 1e3,
               sum[2] * 1e3, sum[3] * 1e3, sum[4] * 1e3, sum[5] * 1e3, sum[6] * 1e3);
        if (nq2) printf("   eager queue: %d of %d levels' rounds ended after their L, %.3f ms after it in all\n", nlate, nq2, late * 1e3);
    }
    for (i = 0; i < ntb; i++) LCL__CL->clReleaseEvent(tbr[i].ev);
    ntb = 0;
}
static double tb_hash(uint64_t p, uint64_t q) {
    uint64_t z = p * 0x9E3779B97F4A7C15ull + q * 0xBF58476D1CE4E5B9ull + 12345;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0 - 0.5;
}
/* SPLITOUT=PREFIX (bklu mode, several devices): the base J restricted to each device's BTF blocks,
   written as PREFIXd.mtx in J's permuted order (row P[i] and column Q[i] both become i's rank among
   the device's positions), so each file factored on one device is that device's share of the run:
   a one-GPU proxy for the several-GPU refactor, whose split keeps whole blocks on one device */
/* entry e of the base (C, by column unless by_row) in a share: its row and column there (rk: a
   permuted position's rank in the share, -1 outside it), or 0 */
static int share_entry(const lcl_coo *C, int by_row, int64_t e, const int32_t *pr, const int32_t *pc, const int32_t *rk, int32_t *r, int32_t *c) {
    *r = rk[pr[by_row ? C->row[e] : C->col[e]]];
    *c = rk[pc[by_row ? C->col[e] : C->row[e]]];
    return *r >= 0 && *c >= 0;
}
static void bklu_split_out(const char *prefix, const lcl_bklu_symbolic *S, const lcl_bklu_numeric *N, const lcl_coo *C, int by_row, int nd) {
    const lcl_klu_symbolic *ks = S->ks;
    const lcl__bklu_cl *D = (const lcl__bklu_cl *)N->cl;
    int64_t n = ks->n, b, i, e, mixed = 0;
    int32_t *dev = (int32_t *)malloc(sizeof(int32_t) * (size_t)n), *rk = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    int32_t *pr = (int32_t *)malloc(sizeof(int32_t) * (size_t)n), *pc = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    int d;
    if (!dev || !rk || !pr || !pc) { fprintf(stderr, "SPLITOUT: no memory\n"); exit(1); }
    for (b = 0; b < ks->nblocks; b++) {   /* a block goes where its last column (the tree's root) went */
        int32_t o = D->owner[ks->R[b + 1] - 1];
        for (i = ks->R[b]; i < ks->R[b + 1]; i++) { mixed += D->owner[i] != o; dev[i] = o; }
    }
    for (i = 0; i < n; i++) { pr[ks->P[i]] = (int32_t)i; pc[ks->Q[i]] = (int32_t)i; }
    for (d = 0; d < nd; d++) {
        char path[1024];
        int64_t cnt = 0, nn = 0;
        int32_t r, c;
        FILE *f;
        for (i = 0; i < n; i++) rk[i] = dev[i] == d ? (int32_t)nn++ : -1;
        for (e = 0; e < C->nnz; e++) cnt += share_entry(C, by_row, e, pr, pc, rk, &r, &c);
        snprintf(path, sizeof path, "%s%d.mtx", prefix, d);
        if (!(f = fopen(path, "w"))) { fprintf(stderr, "SPLITOUT: cannot write %s\n", path); exit(1); }
        fprintf(f, "%%%%MatrixMarket matrix coordinate real general\n%lld %lld %lld\n", (long long)nn, (long long)nn, (long long)cnt);
        for (e = 0; e < C->nnz; e++)
            if (share_entry(C, by_row, e, pr, pc, rk, &r, &c)) fprintf(f, "%d %d %.17g\n", r + 1, c + 1, ((const double *)C->val)[e]);
        fclose(f);
        printf("   SPLITOUT: %s, %lld block columns, %lld entries\n", path, (long long)nn, (long long)cnt);
    }
    if (mixed) printf("   SPLITOUT: %lld columns lie on another device than their block's root: the files are not the run's shares\n", (long long)mixed);
    free(dev); free(rk); free(pr); free(pc);
}
static int bklu_main(int argc, char **argv) {
    lcl_context_desc desc = {0};
    lcl_context *ctx;
    const char *base = argc > 3 ? argv[3] : "gen:circuit:1000";
    int64_t m = argc > 4 ? atoll(argv[4]) : 256, mm = m * m, e, q;
    lcl_bklu_opts o;
    lcl_bklu_symbolic *S = NULL;
    lcl_bklu_numeric *N = NULL;
    lcl_bklu_info info;
    lcl_coo C;
    lcl_csr J;
    lcl_bmat A;
    cl_command_queue eq[64] = {NULL};
    double *B, t, t0;
    struct timespec c0, c1;
    char err[512];
    int rep, i, pinned, by_row, nuntraced, lmarks;
    memset(&o, 0, sizeof o);
    o.devices = argc > 5 ? atoi(argv[5]) : 1;
    if (getenv("ORDERING"))     /* ORDERING=natural|colamd|amd (SPLITOUT's files: natural keeps the run's order) */
        o.klu.ordering = !strcmp(getenv("ORDERING"), "natural") ? LCL_KLU_NATURAL : !strcmp(getenv("ORDERING"), "colamd") ? LCL_KLU_COLAMD : LCL_KLU_AMD;
    if (getenv("SCHEDULE"))     /* SCHEDULE=static|affinity|dynamic (default: the library's) */
        o.schedule = !strcmp(getenv("SCHEDULE"), "static") ? LCL_BKLU_STATIC : !strcmp(getenv("SCHEDULE"), "dynamic") ? LCL_BKLU_DYNAMIC : LCL_BKLU_AFFINITY;
    xtrace = 1;
    desc.backend = LCL_BACKEND_OPENCL;
    desc.device = argc > 2 ? argv[2] : "gpu";
    if (m < 1 || lcl_context_create(&desc, &ctx) != LCL_OK) { fprintf(stderr, "bklu: %s\n", m < 1 ? "M < 1" : lcl_last_error(ctx)); return 1; }
    if (lclg_load(NULL, base, 1, LCL_F64, &C, err, sizeof err) != LCL_OK) {
        fprintf(stderr, "bklu: base %s: %s\n", base, err);
        return 1;
    }
    /* by column, as lcl gen and lcl bench bklu give it (a column's blocks next to each other, one
       write each run); TRACE_BY_ROW=1: block compressed row. The CSR of J's transpose is J by column. */
    by_row = getenv("TRACE_BY_ROW") && atoi(getenv("TRACE_BY_ROW"));
    if (!by_row) {
        int32_t *tp = C.row;
        C.row = C.col, C.col = tp;
    }
    if (lcl_csr_from_coo(NULL, &C, &J) != LCL_OK) {
        fprintf(stderr, "bklu: base %s: no memory for its CSR\n", base);
        return 1;
    }
    B = (double *)malloc(sizeof(double) * (size_t)mm);
    memset(&A, 0, sizeof A);
    A.n = J.rows; A.m = m; A.nnzb = J.nnz; A.dtype = LCL_F64; A.by_row = by_row; A.ptr = J.ptr; A.idx = J.col;
    /* A's values in the context's pinned memory (lcl_host_alloc: its blocks uploaded with no host
       copy); TRACE_MALLOC_A=1: malloc'd, through the library's staging ring */
    pinned = !getenv("TRACE_MALLOC_A") && lcl_host_alloc(ctx, sizeof(double) * (size_t)(J.nnz * mm), &A.val) == LCL_OK;
    if (!pinned) A.val = malloc(sizeof(double) * (size_t)(J.nnz * mm));
    if (!B || !A.val) { fprintf(stderr, "bklu: no memory for %lld blocks\n", (long long)J.nnz); return 1; }
    for (i = 0; i < m; i++)
        for (q = 0; q < m; q++) B[i * m + q] = i == q ? (double)m : tb_hash((uint64_t)i, (uint64_t)q);
    for (e = 0; e < J.nnz; e++) {
        double a = ((double *)J.val)[e], *v = (double *)A.val + e * mm;
        for (q = 0; q < mm; q++) v[q] = a * B[q];
    }
    if (lcl_bklu_analyze(ctx, &A, &o, &S, &info) != LCL_OK || lcl_bklu_factor(ctx, S, &A, &N, &info) != LCL_OK) {
        fprintf(stderr, "bklu: %s\n", lcl_last_error(ctx));
        return 1;
    }
    printf("bklu %s M %lld: %lld block columns, %lld blocks, levels %lld, devices %d, queues %d, A %s\n", base, (long long)m, (long long)A.n,
           (long long)A.nnzb, (long long)info.levels, info.devices, nqmade, !pinned ? "malloc'd" : lcl__host_pinned(ctx, A.val, 1) ? "pinned (lcl_host_alloc)" : "lcl_host_alloc's, not pinned (the device refused)");
    if (N->cl && info.devices > 1) {    /* the schedule's split of the work (lcl__bklu_costs, M^3 flops) */
        lcl__bklu_cl *D = (lcl__bklu_cl *)N->cl;
        double *cost = (double *)malloc(sizeof(double) * (size_t)(N->n + 1)), lw[8] = {0}, crit = 0, tot = 0;
        int64_t l, p;
        lcl__bklu_costs(N, cost);
        for (l = 0; l < N->nlev; l++) {
            double ll[8] = {0}, mx = 0;
            for (p = N->levp[l]; p < N->levp[l + 1]; p++) ll[D->owner[N->levc[p]] & 7] += cost[N->levc[p]];
            for (i = 0; i < info.devices && i < 8; i++) { lw[i] += ll[i]; tot += ll[i]; if (ll[i] > mx) mx = ll[i]; }
            crit += mx;
        }
        printf("   work (M^3 flops):");
        for (i = 0; i < info.devices && i < 8; i++) printf(" device %d %.0f (%.1f%%)", i, lw[i], 100 * lw[i] / tot);
        printf(", sum of the levels' largest shares %.0f (%.1f%% of all), transfers %lld\n", crit, 100 * crit / tot, (long long)info.transfers);
        free(cost);
    }
    if (getenv("SPLITOUT") && N->cl && info.devices > 1) bklu_split_out(getenv("SPLITOUT"), S, N, &C, by_row, info.devices);
    if (N->cl) {   /* each device's eager queue, by context device (marker 14) */
        lcl__bklu_cl *D = (lcl__bklu_cl *)N->cl;
        for (i = 0; i < D->nd; i++)
            if (D->dv[i].d - ctx->dev >= 0 && D->dv[i].d - ctx->dev < 64) eq[D->dv[i].d - ctx->dev] = D->dv[i].q2;
    }
    /* TRACE_BARRIER=DIR:K: before the refactors, a file in DIR, then a wait until DIR holds K (several
       processes, each on its own GPU, refactoring at the same time: bench/gpu/bklu_shares.sh) */
    if (getenv("TRACE_BARRIER")) {
        char dir[512], f[600];
        int want = 0, have = 0;
        FILE *fp;
        if (sscanf(getenv("TRACE_BARRIER"), "%511[^:]:%d", dir, &want) == 2) {
            snprintf(f, sizeof f, "%s/%ld", dir, (long)getpid());
            if ((fp = fopen(f, "w"))) fclose(fp);
            while (have < want) {
                struct timespec ts = {0, 20000000};
                DIR *dp = opendir(dir);
                struct dirent *de;
                for (have = 0; dp && (de = readdir(dp)) != NULL;) have += de->d_name[0] != '.';
                if (dp) closedir(dp);
                if (have < want) nanosleep(&ts, NULL);
            }
        }
    }
    /* NOTRACE=N: N untraced refactors and no traced one (large bases, where a trace is long) */
    nuntraced = getenv("NOTRACE") ? atoi(getenv("NOTRACE")) : 2;
    lmarks = getenv("LEVELMARKS") != NULL;   /* one refactor more, after the untraced ones */
    for (rep = 0; rep < nuntraced + (getenv("NOTRACE") ? 0 : 1) + lmarks; rep++) {
        marking = lmarks && rep == nuntraced;
        tracing = !marking && rep == nuntraced + lmarks;
        htime = getenv("HOSTTIME") && rep < nuntraced;
        memset(ht_sum, 0, sizeof ht_sum);
        hmark[17] = 0;
        memset(ht_cnt, 0, sizeof ht_cnt);
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c0);
        t0 = now();
        if (lcl_bklu_refactor(ctx, S, &A, N, &info) != LCL_OK) { fprintf(stderr, "bklu: %s\n", lcl_last_error(ctx)); return 1; }
        t = now() - t0;
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c1);
        tracing = htime = 0;
        if (rep < nuntraced) {
            char fdone[64] = "not done by the slices";   /* when the slices finished F, if they did */
            if (hmark[17] > 0) snprintf(fdone, sizeof fdone, "F by the slices %.2f", (hmark[17] - hmark[11]) * 1e3);
            printf("   untraced refactor %d: %.2f ms (host: before the setup %.2f, setup %.2f, levels %.2f (%s), after %.2f: F's rest %.2f, "
                   "pivots read %.2f, the rest %.2f)\n", rep, t * 1e3, (hmark[10] - t0) * 1e3, (hmark[11] - hmark[10]) * 1e3,
                   (hmark[12] - hmark[11]) * 1e3, fdone, (t0 + t - hmark[12]) * 1e3, (hmark[15] - hmark[12]) * 1e3,
                   (hmark[16] - hmark[15]) * 1e3, (t0 + t - hmark[16]) * 1e3);
            if (getenv("HOSTTIME")) {   /* where the calling thread's time went (other host threads' calls are summed in too) */
                double in = 0;
                printf("      host in OpenCL calls, ms (calls):");
                for (i = 0; i < HT_N; i++) printf(" %s %.2f (%ld)", ht_names[i], ht_sum[i] * 1e3, ht_cnt[i]), in += ht_sum[i];
                printf("; all %.2f of %.2f; the thread's CPU time %.2f\n", in * 1e3, t * 1e3,
                       ((double)(c1.tv_sec - c0.tv_sec) + 1e-9 * (double)(c1.tv_nsec - c0.tv_nsec)) * 1e3);
            }
            nrec = 0;
            continue;
        }
        if (marking) {   /* LEVELMARKS: the markers alone */
            for (i = 0; i < lcl_context_num_devices(ctx); i++) LCL__CL->clFinish(ctx->dev[i].queue[0]);
            printf("   refactor with the level markers (LEVELMARKS): %.2f ms\n", t * 1e3);
            tb_report(ctx, eq);
            marking = 0;
            continue;
        }
        for (i = 0; i < lcl_context_num_devices(ctx); i++) LCL__CL->clFinish(ctx->dev[i].queue[0]);
        tb_report(ctx, eq);
        report("bklu refactor", t, ctx->dev[0].queue);
    }
    lcl_bklu_numeric_free(N);
    lcl_bklu_symbolic_free(S);
    lcl_csr_free(&J);
    lcl_coo_free(&C);
    if (pinned) lcl_host_free(ctx, A.val);
    else free(A.val);
    free(B);
    lcl_context_destroy(ctx);
    return 0;
}
int main(int argc, char **argv) {
    lcl_context_desc desc = {0};
    lcl_context *ctx;
    lcl_dense A;
    lcl_dmat *M = NULL;
    lcl_dense_opts o = {LCL_ALG_AUTO, 0, 0, 0};
    int n = argc > 2 ? atoi(argv[2]) : 16384, w, rep;
    const char *which = argc > 3 ? argv[3] : "both";
    int32_t *ipiv;
    int64_t i, j, info;
    o.block = argc > 4 ? atoi(argv[4]) : 0;
    if (!lcl__cl_load()) { fprintf(stderr, "no OpenCL: %s\n", lcl__cl.why); return 1; }
    /* the entry table's calls through ours: each entry kept in REAL, replaced by MINE */
#define HOOK(entry, real, mine) ((real) = lcl__cl.entry, lcl__cl.entry = (mine))
    HOOK(clEnqueueNDRangeKernel, real_nd, nd);
    HOOK(clCreateCommandQueue, real_cq, cq);
    HOOK(clCreateKernel, real_ck, ck);
    HOOK(clEnqueueMarkerWithWaitList, real_mk, mk);
    HOOK(clEnqueueBarrierWithWaitList, real_br, br);
    HOOK(clEnqueueReadBufferRect, real_rr, rr);
    HOOK(clEnqueueWriteBufferRect, real_wr, wr);
    HOOK(clEnqueueCopyBufferRect, real_cr, cr);
    HOOK(clEnqueueReadBuffer, real_rb, rb);
    HOOK(clEnqueueWriteBuffer, real_wb, wb);
    HOOK(clEnqueueCopyBuffer, real_cb, cb);
    if (getenv("HOSTTIME")) {
        HOOK(clFlush, real_fl, ht_fl);
        HOOK(clFinish, real_fi, ht_fi);
        HOOK(clWaitForEvents, real_we, ht_we);
        HOOK(clGetEventInfo, real_ei, ht_ei);
        HOOK(clSetKernelArg, real_sa, ht_sa);
        HOOK(clReleaseEvent, real_re, ht_re);
    }
    if (argc > 1 && !strcmp(argv[1], "seq")) return seq_main(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "spmv")) return spmv_main(argc, argv);
    if (argc > 1 && !strcmp(argv[1], "bklu")) return bklu_main(argc, argv);
    xtrace = getenv("TRACE_SPLIT") != NULL || getenv("TRACE_XFER") != NULL;
    desc.backend = LCL_BACKEND_OPENCL;
    desc.device = argc > 1 ? argv[1] : "gpu";
    if (lcl_context_create(&desc, &ctx) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); return 1; }
    if (getenv("TRACE_LOG")) {   /* with LCL_BUILD_OPTIONS=-cl-nv-verbose and an empty cache: registers per kernel */
        lcl__program *pr;
        char *log;
        size_t len = 0;
        char ext[8192] = "";
        LCL__CL->clGetDeviceInfo(ctx->dev[0].id, CL_DEVICE_EXTENSIONS, sizeof ext - 1, ext, NULL);
        printf("extensions: %s\n", ext);
        if (lcl__program_of(ctx, &ctx->dev[0], LCL_F64, "lcl_gemm_d", &pr) == LCL_OK) {
            LCL__CL->clGetProgramBuildInfo(pr->prog, ctx->dev[0].id, CL_PROGRAM_BUILD_LOG, 0, NULL, &len);
            log = (char *)calloc(len + 1, 1);
            LCL__CL->clGetProgramBuildInfo(pr->prog, ctx->dev[0].id, CL_PROGRAM_BUILD_LOG, len, log, NULL);
            printf("build log:\n%s\n", log);
            free(log);
        }
    }
    if (lcl_dense_alloc(ctx, &A, LCL_F64, LCL_ROW_MAJOR, n, n) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); return 1; }
    ipiv = (int32_t *)malloc((size_t)n * sizeof *ipiv);
    printf("device %s, n %d, block %d\n", ctx->dev[0].info.name, n, o.block);
    for (w = 0; w < 2; w++) {
        int chol = w == 1;
        if ((chol && !strcmp(which, "lu")) || (!chol && !strcmp(which, "cholesky"))) continue;
        for (i = 0; i < n; i++)
            for (j = 0; j < n; j++) {
                uint64_t h = (uint64_t)(i < j ? i * 1000003 + j : j * 1000003 + i) * 0x9E3779B97F4A7C15ull;
                ((double *)A.data)[i * n + j] = (double)(h >> 11) / 9007199254740992.0 - 0.5 + (i == j ? n : 0);
            }
        for (rep = 0; rep < 3; rep++) {
            double t;
            lcl_status st;
            lcl_dmat_free(M);
            M = NULL;
            if ((xtrace ? lcl_dmat_upload_split(ctx, &A, o.block, &M) : lcl_dmat_upload(ctx, &A, &M)) != LCL_OK) {
                fprintf(stderr, "%s\n", lcl_last_error(ctx));
                return 1;
            }
            for (i = 0; i < lcl_context_num_devices(ctx); i++) LCL__CL->clFinish(ctx->dev[i].queue[0]);
            tracing = rep == 2;
            t = now();
            st = chol ? lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, &o) : lcl_dmat_getrf(ctx, M, ipiv, &info, &o);
            t = now() - t;
            tracing = 0;
            if (st != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); return 1; }
            if (rep < 2) { printf("   untraced run %d: %.2f ms, %.2f TF/s\n", rep, t * 1e3, (chol ? 1.0 : 2.0) * n * (double)n * n / 3 / t / 1e12); nrec = 0; }
            else {
                report(chol ? "dpotrf" : "dgetrf", t, ctx->dev[0].queue);
                check(ctx, M, &A, ipiv, chol);
            }
        }
    }
    lcl_dmat_free(M);
    lcl_dense_free(&A);
    free(ipiv);
    free(recs);
    lcl_context_destroy(ctx);
    return 0;
}
