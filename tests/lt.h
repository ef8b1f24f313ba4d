/* lt.h -- the test runner's few macros. Each tests/test_*.c defines
   `void lt_suite_NAME(void)` that calls LT_RUN(fn) for each test function. */
#ifndef LT_H
#define LT_H
#include <stdio.h>
#include <string.h>
#include <math.h>
#include "../linalg_cl.h"

extern int lt_checks_failed;     /* failures inside the running test */
extern const char *lt_shared;    /* path of ../shared (or $LCL_SHARED): optional extra matrices */
extern const char *lt_self;      /* argv[0] of the runner */
void lt_run(const char *name, void (*fn)(void));
int lt_selected(const char *name); /* LT_FILTER substring */
void lt_skip(const char *why);     /* marks the running test skipped */
/* system(cmd) for a child on two PoCL devices: its stderr passed on; again where PoCL itself
   aborted in its kernel cache (pocl_release_dlhandle_cache: PoCL 3 to 5 release a compiled kernel
   by kernel and local size alone, so one kernel run at once on two devices with different grids
   can take the wrong entry; about 1 child in 15 on Debian's PoCL 3.1, twice in a row once, after a
   cold build). At most LT_POCL_RUNS runs; the status of the last. */
int lt_system_pocl(const char *cmd);
#define LT_POCL_RUNS 3
/* 1 when file path (may be NULL) holds PoCL's abort above; echo: its lines copied to stderr */
#define LT_POCL_ABORT "pocl_release_dlhandle_cache"
int lt_pocl_aborted(const char *path, int echo);
/* LT_SMALL=1 (check-asan, check-valgrind set it): the few tests that take minutes under valgrind
   do less (their largest case once, fewer random values), the fault sweeps sample half as many
   calls, and a few cases that repeat a path at a larger size or with a kernel's build option are
   left to make test */
int lt_small(void);
/* the devices' program binary cache (tune.binary_cache: off on PoCL) set on (1) or off (0), or
   only read (-1); returns device 0's */
int lt_binary_cache(lcl_context *ctx, int set);
/* LT_VALGRIND=1 (check-valgrind): the few sweeps that took most of memcheck's minutes run smaller;
   the same code paths at full size run natively and under ASan */
int lt_valgrind(void);
/* Real matrices: the ones the tests need ship in LT_MATRICES; $LCL_SHARED/matrices may add more.
   lt_matrix_path: the path of file NAME ("west0067.mtx"), shipped copy first; 1 when the file
   exists, 0 when neither folder has it (buf then holds the shared path, for messages).
   lt_matrix_optional: the same, printing a note when absent, for the matrices not shipped.
   lt_matrix_list: the *.mtx names of both folders, each once, sorted; returns how many (at most
   cap, each name shorter than LT_NAME_MAX). */
#define LT_MATRICES "tests/data/matrices"
#define LT_NAME_MAX 128
int lt_matrix_path(char *buf, size_t cap, const char *name);
int lt_matrix_optional(char *buf, size_t cap, const char *name);
int lt_matrix_list(char (*names)[LT_NAME_MAX], int cap);
/* A context on backend b with the environment ignored but for LCL_SHARED_CONTEXT (lt_shared_env)
   (device, cache, build options may be NULL; threads 0: the default); NULL when it cannot be
   created (the message is printed). */
lcl_context *lt_context(lcl_backend b, const char *device, const char *cache, const char *opts, int threads);
int lt_shared_env(void);        /* 1 unless LCL_SHARED_CONTEXT=0: lt_context and lt_ocl share cl_contexts */
/* An OpenCL context on device spec (NULL: the best device, LCL_DEVICE honoured; else the
   environment is ignored), with the binary cache $LT_CACHE; NULL when there is no device or the
   context fails (the message is printed). */
lcl_context *lt_ocl(const char *device);

/* m's values as doubles, row-major (rows * cols, at least one element; free() it): the O(n^3)
   residuals read this, not lcl_dense_get per element (60% of a two-device test's time under ASan) */
double *lt_dense_rows(const lcl_dense *m);

/* Fault injection (tests/run_tests.c routes LCL_MALLOC / LCL_REALLOC / LCL_FREE through hooks).
   Arming resets the call count; a failing realloc returns NULL and leaves the block allocated. */
void lt_alloc_fail_at(long k);     /* fail only the k-th allocation call from now on; 0 = never */
void lt_alloc_fail_from(long k);   /* fail the k-th and every later call */
long lt_alloc_calls(void);         /* malloc + realloc calls since the last lt_alloc_fail_* */
long lt_alloc_outstanding(void);   /* library blocks allocated and not yet freed (whole process) */
/* OpenCL: the nth call (1-based; 0 = every call) of entry point fn, e.g. "clCreateBuffer", fails
   with errcode (a CL_* error) until lt_cl_reset. Returns 0 when fn is not hookable or there is no
   OpenCL loader. lt_cl_calls: calls of fn since it was armed. */
int lt_cl_fail(const char *fn, int nth, int errcode);
int lt_cl_calls(const char *fn);
void lt_cl_reset(void);
/* how many kernel files (one OpenCL program each) the library embeds */
int lt_kernel_files(void);
/* OpenCL fault sweep. Each fault of a table in run_tests.c that `which` selects (LT_CL_ONE: the
   one-device paths; LT_CL_SPLIT: work split over devices) fails the 1st, 2nd, ... call of its
   entry point in turn (below max_nth) until a run no longer reaches it; unless LT_FULL=1, only a
   sample of those calls (run_tests.c says which). run returns a status, or
   -1 for a wrong result. Before the faults a clean run must succeed; a faulted run must end with
   the fault's status (a few faults may be absorbed) and a message naming the call or holding
   alt, leak no host memory, and the next run on the same context must succeed; a run past the
   last call must succeed. reached (may be NULL) gets bit i for each fault i reached. Returns the
   number of runs. LT_NO_SWEEP=1: the clean run alone, every selected fault counted as reached
   (results on a real GPU within a device call). lt_cl_unreached: the entry point of a selected
   fault not in reached, or NULL. */
#define LT_CL_ONE 1
#define LT_CL_SPLIT 2
#define LT_CL_OPTBUF 8   /* some buffers are optional (pinned staging): a failed clCreateBuffer may end LCL_OK, with the right result */
#define LT_CL_MEMRETRY 16 /* a device-memory fault may end LCL_OK, with the right result: the routine tried again with less */
int lt_cl_sweep(const char *name, lcl_context *ctx, int which, int max_nth, const char *alt,
                int (*run)(lcl_context *ctx, void *u), void *u, unsigned *reached);
const char *lt_cl_unreached(unsigned reached, int which);
/* what device dev of ctx claims about double precision (1 yes, 0 no); 0 when there is no such device */
int lt_cl_fp64(lcl_context *ctx, int dev, int on);

#define LT_RUN(fn) lt_run(#fn, fn)
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "  %s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #c); \
    lt_checks_failed++; } } while (0)
#define CHECK_MSG(c, ...) do { if (!(c)) { fprintf(stderr, "  %s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #c); \
    fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); lt_checks_failed++; } } while (0)
/* status check that prints the context's message */
#define CHECK_OK(ctx, expr) do { lcl_status st_ = (expr); if (st_ != LCL_OK) { \
    fprintf(stderr, "  %s:%d: %s -> %s: %s\n", __FILE__, __LINE__, #expr, lcl_status_string(st_), \
    lcl_last_error(ctx)); lt_checks_failed++; } } while (0)
#define CHECK_STATUS(ctx, expr, want) do { lcl_status st_ = (expr); if (st_ != (want)) { \
    fprintf(stderr, "  %s:%d: %s -> %s, want %s (%s)\n", __FILE__, __LINE__, #expr, lcl_status_string(st_), \
    lcl_status_string(want), lcl_last_error(ctx)); lt_checks_failed++; } } while (0)
#endif
