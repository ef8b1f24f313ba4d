/* linalg_cl.h -- dense and sparse linear algebra: serial, OpenMP and OpenCL, in one header.

    Do this:
        #define LINALG_CL_IMPLEMENTATION
    before you include this file in *one* C or C++ file to create the implementation.
    Also put kernels_embedded.h beside it (the OpenCL kernels as strings).

    QUICK START
        lcl_context *ctx;
        lcl_context_desc desc = {0};              // zero = defaults: best backend, best device
        if (lcl_context_create(&desc, &ctx) != LCL_OK) {
            fprintf(stderr, "%s\n", lcl_last_error(ctx));   // ctx holds the message (may be NULL on OOM)
        }
        lcl_coo A;
        if (lcl_mm_read(ctx, "matrix.mtx", LCL_F64, LCL_MM_EXPAND, &A, NULL) != LCL_OK)
            fprintf(stderr, "%s\n", lcl_last_error(ctx));  // "matrix.mtx:12: column index 9 out of range 1..8"
        ...
        lcl_coo_free(&A);
        lcl_context_destroy(ctx);                 // always, even after a failed create

    BACKENDS (chosen per context)
        LCL_BACKEND_SERIAL   always compiled in
        LCL_BACKEND_OPENMP   compiled in when the file is built with -fopenmp (_OPENMP defined)
        LCL_BACKEND_OPENCL   compiled in unless LINALG_CL_NO_OPENCL is defined; the OpenCL loader
                             (libOpenCL.so.1 / OpenCL.dll / OpenCL.framework) is opened at run time,
                             so no -lOpenCL is needed. Define LINALG_CL_LINK_OPENCL to link it instead.
        LCL_BACKEND_AUTO     OpenCL (GPU first) if a device works, else OpenMP, else serial. When
                             OpenCL is missing it says so once through the log callback. When every
                             device it opened is a CPU (PoCL), dense factorizations and solves run on
                             the OpenMP backend (serial without -fopenmp), several times faster
                             there (BENCHMARKS.md), while SpMV still uses the devices;
                             lcl_dense_backend() tells which. LCL_BACKEND_OPENCL factors on them.

    DEVICES
        desc.device (or the environment variable LCL_DEVICE, which overrides it unless
        desc.ignore_env) picks OpenCL devices: "0" or "0,2" (indices as listed by `lcl info`),
        "gpu", "cpu", "all", or a case-insensitive name substring ("H200", "pthread").
        One context may hold several devices; each has a compute and a transfer queue. By
        default the devices of one platform share one cl_context: the resident split SpMV's halo
        then waits on events across devices directly, and it and the block LU exchange through
        host memory pinned for every device (two H100s: the block LU 1.5-1.8x faster where
        columns cross, the split SpMV 1.05-1.1x, the dense split the same); each buffer is still
        used by one device only (a copy between devices' buffers would be slow).
        desc.shared_context = -1 (or LCL_SHARED_CONTEXT=0) gives each device its own cl_context.
        Each kernel file (kernels/NAME.cl, embedded in kernels_embedded.h) is its own program,
        built per device and precision on first use (lcl_context_prepare builds all), so a file
        that fails to compile fails only the operations that need it. Binaries are cached on
        disk in desc.cache_dir or $LCL_CACHE_DIR when set (keyed by device, driver, options and
        source; a corrupt or stale entry is rebuilt, never trusted), except on PoCL: it caches
        its own builds, and its binaries hold every kernel compiled, ten times a first build's
        time (LCL_BINARY_CACHE=1 stores them anyway). Float programs ask for correctly rounded
        divide and sqrt on GPUs that offer them (-cl-fp32-correctly-rounded-divide-sqrt).

    ERRORS
        Every fallible function returns lcl_status (LCL_OK == 0) and leaves a message with detail
        in its context: lcl_last_error(ctx). Functions that take a context accept NULL, then only
        the status tells. OpenCL failures name the error ("CL_OUT_OF_RESOURCES"); a kernel that
        fails to compile gives its build log. lcl_status_string() names a status.

    DATA
        lcl_dense  dense matrix, row- or column-major with a leading dimension, float or double
        lcl_coo    coordinate triplets (0-based int32 indices, int64 count)
        lcl_csr    compressed sparse rows (int64 row pointers, int32 column indices)
        lcl_spmat  a sparse matrix in one of COO, CSR, CSC, ELL, SELL-C-sigma, HYB, DIA, BCSR, dense
                   (or chosen by auto), kept where the context computes; lcl_spmv / lcl_spmv_vec
        lcl_vec    a vector kept where the context computes; lcl_vec_create_like cuts it as a matrix
                   split over devices (x and y stay per device, only x's halo crosses); dot, axpby
        lcl_rowpart  part p of a row partition: its rows with local columns and the halo plan
                   (distributed or multi-device SpMV; lcl_mpi_halo exchanges it over MPI)
        Matrix Market: lcl_mm_read / lcl_mm_read_dense / lcl_mm_write / lcl_mm_write_dense.
        Sparse direct LU (KLU class): lcl_klu_analyze -> lcl_klu_factor -> lcl_klu_refactor (new
        values, same pattern) -> lcl_klu_solve / lcl_klu_tsolve (host arrays) or lcl_klu_solve_vec
        (an lcl_vec). On OpenMP, refactor's independent columns, the dense tails and the solves'
        right-hand sides run in parallel; on OpenCL the factors may also live on device 0, where
        refactor and solves run level-scheduled (GPUs; CPU devices keep the host's, faster there).
        Block-aware sparse LU (nonzeros are dense M x M blocks, lcl_bmat; lcl_bmat_from_csr cuts
        a scalar CSR into them): lcl_bklu_analyze -> lcl_bklu_factor -> lcl_bklu_refactor ->
        lcl_bklu_solve; OpenCL on several devices.
        Pinned host memory for inputs uploaded again and again (a block LU's A): lcl_host_alloc /
        lcl_host_free.

    CONFIGURATION MACROS (define before including)
        LINALG_CL_IMPLEMENTATION  create the implementation in this translation unit
        LINALG_CL_NO_OPENCL       no OpenCL backend, no OpenCL header needed
        LINALG_CL_LINK_OPENCL     call the OpenCL API directly (link with -lOpenCL)
        LINALG_CL_MPI             add lcl_mpi_halo / lcl_mpi_dot (>>mpi; includes <mpi.h>)
        LCL_API                   declaration prefix for public functions (default: extern)
        LCL_MALLOC(sz) LCL_REALLOC(p,sz) LCL_FREE(p)   allocation (default: malloc/realloc/free)
        LCL_ASSERT(c)             internal invariants (default: assert)
        LCL_DENSE_PORTABLE        plain-C dense micro-kernel (default: GNU vector extensions when
                                  the compiler has them; build with -march=native for full speed)
    ENVIRONMENT (every variable the library reads; each is read once, when a context is created
    or the OpenCL loader is first opened)
        LCL_DEVICE          device choice, as desc.device
        LCL_CACHE_DIR       program binary cache directory (not used on PoCL; see DEVICES)
        LCL_BINARY_CACHE    0: no binary cache on any device; 1: also on PoCL
        LCL_OPENCL_LIBRARY  path of the OpenCL loader to open instead of the default
        LCL_BUILD_OPTIONS   kernel build options, when desc.build_options is NULL
        LCL_SHARED_CONTEXT  1: one cl_context per platform (the default), 0: one per device (as
                            desc.shared_context = -1); overrides desc.shared_context when set
        Tuning runs and tests only (>>tuning): LCL_DENSE_NB (panel width of getrf/potrf),
        LCL_TUNE_GEMM=TM,TN,TK,WX,WY (portable GEMM tile), LCL_NO_TC (no tensor-core GEMM),
        LCL_NO_FP32_EXACT (float builds without -cl-fp32-correctly-rounded-divide-sqrt),
        LCL_TC_TILE=WMxWN (its warps per work-group), LCL_UPD_GROUPS (its work-groups in the
        trailing updates), LCL_NO_GRID / LCL_GRID (no / forced one-launch LU panel; forced needs
        -DLCL_GRID_PORTABLE off NVIDIA), LCL_GRID_GROUPS (that panel's work-groups),
        LCL_NO_FUSED_STEP (potrf's step as GEMM + POTF2 launches), LCL_FUSED_STEP=N (the fused
        step from order N on; default 12288), LCL_POTF2_INV=0|1 (potrf's diagonal blocks with
        their inverse, L21 by GEMM; default on NVIDIA in double), LCL_CHOL_LSTEP=N (with them, below
        order N each step is one launch that also updates the next step's block, else three;
        default 12288, 0 never), LCL_CHOL_KS=N (with the one-launch step, the update of the next
        panel's columns split along K in up to N parts; default 4, 0 or 1 not split),
        LCL_UPD_NARROW=B (bit 0: potrf's, bit 1: getrf's, bit 2: the split potrf's trailing updates
        by the tensor-core GEMM's 64-wide tiles, the first two on twice the work-groups; default 5
        where the tensor cores are: getrf's was slower),
        LCL_CHOL_STEP_KS=N (the three-launch steps' GEMM split along K in up to N parts once its
        row tiles fill at most half the units; default 4, 0 or 1 not split), LCL_CHOL_NARROW_N=N
        and LCL_CHOL_NARROW_NB=W (potrf's panels W wide once at most N rows remain, where its
        panels are wider; default 6144 and 384 with the tensor-core GEMM, N = 0 never),
        LCL_CHOL_TAIL=N (in larger matrices, potrf's panels of fewer than N rows with the one-launch
        step and the small-order update cap; default 0, off),
        LCL_CHOL_LAH_PANEL=0 (potrf's update of the next panel's columns on the update queue, as
        before, instead of the panel queue), LCL_LU_NT=0|1 (getrf's device panels: U12 transposed
        into scratch after its solve, so the trailing update is an NT product; default on in double
        with the tensor-core GEMM), LCL_WS_CACHE=0 (the factorizations' scratch
        buffers made and released each call, not kept per device), LCL_HALO_SKIP (the resident split
        SpMV skips its halo exchange, the ghosts keep their last values: the staging's cost, timed
        on a repeated x), LCL_SPLIT_CHAIN=0 (the dense split in one shared context: panels pass
        on through the host's waits, in row chunks after the whole panel, instead of event waits
        and Cholesky's L21 in column slabs as the panel's steps end), LCL_SPLIT_NB=N (the dense
        split's panels in double from order 12288 on, for matrices uploaded split and Cholesky of
        host arrays; default 1024 with the tensor-core GEMM, 0 = the one-device width),
        LCL_BKLU_LU_WG (the block LU's pivot-LU work-group, at most 1024),
        LCL_BKLU_LU_SPLIT=M (that LU panel by panel, the update on many work-groups, for blocks
        of M rows and more; default 256 on GPUs, 0 = off elsewhere), LCL_BKLU_LR_NB=W (its panels
        W columns wide, 4 to 32; default 16: 32 was 0.6% slower on two H200s), LCL_BKLU_LU_TAIL=R
        (its panels one launch each until R rows remain, those in one launch with their update
        inside: fewer launches a level; default 0, off; two H200s, M = 256: within the spread), LCL_BKLU_SWAP_REG=0|1|2
        (its row interchanges on the other columns as one permutation, a column's loads before
        its stores; the same bits; 1 everywhere: no gain on two H200s at M = 512, slower at 1024;
        2, the default on NVIDIA: in the pivot LU of blocks up to 256 rows only, not in the 512-
        and 1024-item kernels),
        LCL_BKLU_TRI_P=P (the pivot blocks' inverses with P work-items a column, 1, 2 or 4, the
        same bits; default 4 on NVIDIA, 1 elsewhere),
        LCL_BKLU_EAGER=0|1 (the block LU, factors resident: each level also runs the ready U
        steps of later columns; default on: faster on one H200 and on two), LCL_BKLU_EAGER_M=M
        (with several devices, those early U steps only for blocks below M; default 1024 on
        NVIDIA, 0 = any M elsewhere: two H200s at M = 1024 2.18 -> 1.70 s without them, S2 1.74),
        LCL_BKLU_EAGER_PACE=P (those of columns past the next level at most P% of an average
        level's U-step work a level, the rest left to later levels; the same factors; default 0,
        no limit: one H100, M = 256, P = 50 / 100 / 200 14 / 12 / 1.5% slower; two GPUs not timed),
        LCL_BKLU_EAGER_ARRIVED=0 (eager: later columns' A staged with the level's own, which
        waits for all of it, instead of in batches used once arrived; the window below needs the
        batches), LCL_BKLU_EAGER_QUEUE=0 (eager: the later columns' U steps on the level's queue
        after its own, not on a second queue beside its pivot LU chain), LCL_BKLU_EAGER_PRIO=1
        (that second queue with a low priority hint where the device has cl_khr_priority_hints;
        no gain on two H200s), LCL_BKLU_EAGER_FREE=N (that queue's tensor-core GEMMs on all but
        N compute units, so the pivot LUs beside them find free ones; default on NVIDIA 15% of the
        units with several devices, 0 with one: -1), LCL_BKLU_EAGER_END=0 (with that queue and
        the host a level ahead, a level's end waits there for all its rounds, not only for the
        rounds of the next level's columns with the later ones running on beside the next level;
        the same factors; default 1: up to 6% faster on two H200s, never slower),
        LCL_BKLU_STAGE_KB=N
        (eager: later columns' A goes up in level order, at most N KB on the way, topped up as
        it arrives; 0: each column's the level before its first U step can run; default a
        twentieth of all of A, 16 MB to 1 GB),
        LCL_BKLU_AHEAD=0 (the block LU, factors resident: the host lists and launches one level
        at a time, waiting for each, instead of a level ahead), LCL_BKLU_XAHEAD=0 (the block LU
        on several devices of one cl_context that exchange columns: the host waits for every
        device at every level and imports then, instead of a level ahead with each import
        waiting for its owner's read-back by event; gen:circuit:3000, M = 256, two H200s: 1.12x
        one H200 waiting, 1.57x by events), LCL_BKLU_SLACK=P (affinity: a
        device's share of a level's work at most P% of an even share before columns move;
        default 150), LCL_BKLU_WINDOW=P (affinity: each device's range of the ordering cut
        within P% of all work from an even share, where the fewest L blocks cross; default 5:
        1 and 0 were as fast on gen:circuit:3000 and slower on gen:circuit:1000, which they
        make exchange), LCL_BKLU_FSLICE=N (the block LU on OpenCL: the host copies A's blocks
        off the block triangular form's diagonal, which the solve takes, N entries at a time
        while it waits on the devices; 0: all after the levels; default 4096),
        LCL_BKLU_HOST_THREADS=1 (the block LU on several devices: each device's levels
        launched, a level ahead, and its A staged by a host thread of its own, instead of one
        thread serving the devices by turns; OpenMP builds; off by default: within 2-4% of one
        thread on two H200s, also with LCL_SHARED_CONTEXT=0, which its threads need to enqueue
        side by side there: NVIDIA's driver serializes one cl_context's enqueues across
        threads, bench/gpu/lockprobe.c; exchanged columns then pass through the host),
        LCL_HOST_REGISTER=0|1 (lcl_host_alloc: malloc'd memory pinned under CL_MEM_USE_HOST_PTR
        buffers, any size and no device memory, or a mapped CL_MEM_ALLOC_HOST_PTR buffer, which
        takes as much device memory and is capped at the largest buffer; default 1 on NVIDIA),
        LCL_HOST_PIECE_KB=N (those buffers N KB each; default the device's largest buffer),
        LCL_POCL_ONE_QUEUE=0|1 (one queue a device and a build per device; default on PoCL 4.x and
        5.x, whose kernel cache can abort on one kernel in two queues at once),
        LCL_KLU_REFACTOR=0|1 (the sparse LU's refactor on the host / device),
        LCL_KLU_SOLVE_MIN=N (its host-array solves on the
        device from nnz(L+U) = N on; 0 never), LCL_SPMV_LDS=N (CSR adaptive: a block's nonzeros
        per work-item, 1-16), LCL_SPMV_WG=N (CSR adaptive's work-group, a power of two from 32
        to the others' size; a block holds at most N rows), LCL_SPMV_XPART_KB=N (CSR adaptive
        with x above N KB: the columns cut into parts of at most N KB, at most 8, gathered a part
        at a time, each part after the first with a vector of row sums on the device; default
        16384 on NVIDIA GPUs, where an SM's lines live in its half of L2, and 0, never, elsewhere)

    NaN AND Inf
        Input files: the Matrix Market reader rejects NaN and Inf (LCL_ERR_NAN, with the line),
        and values beyond the range of the precision read (1e999; 1e39 in single:
        LCL_ERR_OVERFLOW); the writer refuses to write them. Values below the smallest subnormal
        (1e-400; 1e-50 in single) round to zero, as strtod does: the entry stays, valued 0.
        Containers store what they are given. Vector operations (lcl_axpy) propagate NaN/Inf as
        BLAS does. SpMV multiplies only A's entries, in every format: an Inf in x_j reaches only
        the rows with an entry in column j; a NaN or Inf alpha or beta is LCL_ERR_NAN.
        Factorizations and solves reject non-finite input with LCL_ERR_NAN before any work.

    THREADS
        No global mutable state except the OpenCL entry table, loaded once, thread-safely, and
        a lock that lets one thread at a time list the OpenCL devices (PoCL found none for
        concurrent callers). Contexts are independent: use each from one thread at a time,
        several threads at once.

    SECTIONS (search for the marker)
        >>api >>config >>util >>loader >>devices >>cache >>tuning >>context >>programs >>blas1
        >>dense >>dmat >>dense-cpu >>dense-opencl >>dense-multi >>dense-api >>sparse >>formats
        >>spmv-cpu >>spmv-opencl >>spmv-api >>rowpart >>mpi >>mmio >>klu-analyze >>klu-numeric
        >>klu-opencl >>bklu >>bklu-opencl

    LICENSE: MIT (see end of file).
*/
#ifndef LINALG_CL_H_INCLUDED
#define LINALG_CL_H_INCLUDED
/* >>api ---------------------------------------------------------------------------------------- */
#include <stddef.h>
#include <stdint.h>

#define LCL_VERSION_MAJOR 0
#define LCL_VERSION_MINOR 1
#define LCL_VERSION_PATCH 0

#ifndef LCL_API
#define LCL_API extern
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lcl_status {
    LCL_OK = 0,
    LCL_ERR_INVALID_ARGUMENT,   /* a NULL pointer, a negative size, an unknown option */
    LCL_ERR_OUT_OF_MEMORY,      /* a host allocation failed */
    LCL_ERR_IO,                 /* a file could not be opened, read or written */
    LCL_ERR_PARSE,              /* malformed input (the message names the line) */
    LCL_ERR_UNSUPPORTED,        /* well-formed but not supported (e.g. complex Matrix Market) */
    LCL_ERR_OVERFLOW,           /* a size does not fit the index type or size_t */
    LCL_ERR_DIMENSION,          /* mismatched or out-of-range sizes and indices */
    LCL_ERR_BACKEND_UNAVAILABLE,/* backend not compiled in, no OpenCL loader, no matching device */
    LCL_ERR_NO_FP64,            /* double precision asked of a device without fp64 */
    LCL_ERR_OPENCL,             /* an OpenCL call failed (the message names the error) */
    LCL_ERR_BUILD,              /* a kernel failed to compile (the message holds the build log) */
    LCL_ERR_DEVICE_MEMORY,      /* too little device memory */
    LCL_ERR_SINGULAR,           /* zero pivot */
    LCL_ERR_NOT_SPD,            /* non-positive leading minor */
    LCL_ERR_NAN,                /* NaN or Inf where finite numbers are required */
    LCL_ERR_FILL,               /* a padded sparse format would store too many slots (max_fill) */
    LCL_ERR_INTERNAL,
    LCL_STATUS_COUNT_
} lcl_status;

typedef enum lcl_backend {
    LCL_BACKEND_AUTO = 0,
    LCL_BACKEND_SERIAL,
    LCL_BACKEND_OPENMP,
    LCL_BACKEND_OPENCL
} lcl_backend;

typedef enum lcl_dtype { LCL_F64 = 0, LCL_F32 = 1 } lcl_dtype;
typedef enum lcl_layout { LCL_COL_MAJOR = 0, LCL_ROW_MAJOR = 1 } lcl_layout;
typedef enum lcl_log_level { LCL_LOG_ERROR = 0, LCL_LOG_WARN, LCL_LOG_INFO, LCL_LOG_DEBUG } lcl_log_level;
typedef void (*lcl_log_fn)(void *user, lcl_log_level level, const char *message);

typedef struct lcl_context lcl_context;

typedef struct lcl_context_desc {
    lcl_backend backend;        /* LCL_BACKEND_AUTO by default */
    const char *device;         /* OpenCL device spec, see DEVICES; NULL = best one */
    const char *cache_dir;      /* program binary cache; NULL = $LCL_CACHE_DIR or none */
    const char *build_options;  /* appended to every kernel build (e.g. "-DLCL_WG=128") */
    lcl_log_fn log;             /* NULL = silent */
    void *log_user;
    int ignore_env;             /* nonzero: ignore LCL_DEVICE, LCL_CACHE_DIR, LCL_BUILD_OPTIONS,
                                   LCL_SHARED_CONTEXT */
    int num_threads;            /* OpenMP threads, 0 = the OpenMP default */
    int shared_context;         /* 0 (the default) or 1: the selected devices of one OpenCL
                                   platform share one cl_context (pinned host memory serves them
                                   all, their queues wait on one another's events directly);
                                   -1: a cl_context per device. Two H100s: the block LU 1.5-1.8x
                                   faster shared where columns cross, the split SpMV 1.05-1.1x,
                                   the dense split the same */
} lcl_context_desc;

typedef enum lcl_device_type {
    LCL_DEVICE_CPU = 1, LCL_DEVICE_GPU = 2, LCL_DEVICE_ACCELERATOR = 4, LCL_DEVICE_OTHER = 8
} lcl_device_type;

typedef struct lcl_device_info {
    int index;                  /* position in lcl_list_devices' order: what "--device N" means */
    lcl_device_type type;
    char platform[128];
    char name[128];
    char vendor[128];
    char driver[64];            /* CL_DRIVER_VERSION */
    char version[64];           /* CL_DEVICE_VERSION */
    uint64_t global_mem;        /* bytes */
    uint64_t max_alloc;         /* largest single buffer, bytes */
    uint64_t local_mem;         /* bytes */
    int compute_units;
    int clock_mhz;
    size_t max_work_group;
    int fp64;                   /* 1 if double precision is supported */
} lcl_device_info;

typedef struct lcl_cache_stats {
    int hits;                   /* programs loaded from the binary cache */
    int misses;                 /* no entry: built from source (and stored) */
    int rejected;               /* an entry was corrupt or stale: rebuilt and replaced */
    int stores;                 /* entries written */
} lcl_cache_stats;

/* status, backends */
LCL_API const char *lcl_status_string(lcl_status s);
LCL_API const char *lcl_backend_name(lcl_backend b);     /* "serial", "openmp", "opencl", "auto" */
LCL_API int lcl_backend_parse(const char *name, lcl_backend *out);   /* 1 if known */
LCL_API int lcl_backend_compiled(lcl_backend b);         /* 1 if this build has it */

/* contexts */
LCL_API lcl_status lcl_context_create(const lcl_context_desc *desc, lcl_context **out);
LCL_API void lcl_context_destroy(lcl_context *ctx);
LCL_API lcl_backend lcl_context_backend(const lcl_context *ctx);
LCL_API lcl_backend lcl_dense_backend(const lcl_context *ctx);   /* where dense factorizations run (BACKENDS) */
LCL_API int lcl_context_num_devices(const lcl_context *ctx);
LCL_API lcl_status lcl_context_device(lcl_context *ctx, int i, lcl_device_info *out);
LCL_API lcl_status lcl_context_prepare(lcl_context *ctx, lcl_dtype dtype);  /* build programs now */
LCL_API void lcl_context_cache_stats(const lcl_context *ctx, lcl_cache_stats *out);
LCL_API const char *lcl_last_error(const lcl_context *ctx);
LCL_API lcl_status lcl_last_status(const lcl_context *ctx);
LCL_API void lcl_clear_error(lcl_context *ctx);
/* Host memory the context's OpenCL devices read by DMA without a copy (page-locked: on NVIDIA
   LCL_MALLOC'd memory the driver pins under CL_MEM_USE_HOST_PTR buffers, any size, no device
   memory taken; elsewhere a mapped CL_MEM_ALLOC_HOST_PTR buffer of the first device, up to its
   largest buffer; plain LCL_MALLOC where neither works, or without OpenCL). Inputs read again
   and again belong there: a block LU's A whose values live in it is uploaded at each refactor
   with no host copy through a staging ring, so the upload's cost no longer grows with the
   devices (two H200s, M = 256: 74 ms against 124 from malloc'd values; one H200, M = 1024:
   2.97 s against 3.51-3.68).
   Bytes > 0; freed by lcl_host_free with the same context (a pointer it did not give is
   LCL_ERR_INVALID_ARGUMENT; NULL is nothing to do), or by lcl_context_destroy. */
LCL_API lcl_status lcl_host_alloc(lcl_context *ctx, size_t bytes, void **out);
LCL_API lcl_status lcl_host_free(lcl_context *ctx, void *p);

/* Every OpenCL device on the machine (ctx only receives errors and may be NULL).
   Fills at most cap entries of out (may be NULL with cap 0) and sets *count to the total.
   No loader or no platform is not an error: *count = 0 and ctx's message says why. */
LCL_API lcl_status lcl_list_devices(lcl_context *ctx, lcl_device_info *out, int cap, int *count);
/* Why OpenCL is unusable in this process, or NULL when a loader was found. */
LCL_API const char *lcl_opencl_unavailable_reason(void);

/* BLAS-1 on host arrays, on the context's backend (OpenCL: its first device). y = alpha*x + y. */
LCL_API lcl_status lcl_axpy(lcl_context *ctx, lcl_dtype dtype, int64_t n, double alpha,
                            const void *x, void *y);

/* dense matrices */
typedef struct lcl_dense {
    lcl_dtype dtype;
    lcl_layout layout;
    int64_t rows, cols;
    int64_t ld;                 /* leading dimension: >= rows (column-major) or >= cols (row-major) */
    void *data;
    int owner;                  /* 1 if lcl_dense_free releases data */
} lcl_dense;

LCL_API lcl_status lcl_dense_alloc(lcl_context *ctx, lcl_dense *m, lcl_dtype dtype, lcl_layout layout,
                                   int64_t rows, int64_t cols);       /* zero-filled */
LCL_API lcl_status lcl_dense_wrap(lcl_context *ctx, lcl_dense *m, lcl_dtype dtype, lcl_layout layout,
                                  int64_t rows, int64_t cols, int64_t ld, void *data);
LCL_API void lcl_dense_free(lcl_dense *m);
LCL_API double lcl_dense_get(const lcl_dense *m, int64_t i, int64_t j);
LCL_API void lcl_dense_set(lcl_dense *m, int64_t i, int64_t j, double v);

/* sparse matrices: COO and CSR (the other formats live in lcl_spmat, below) */
typedef struct lcl_coo {
    lcl_dtype dtype;
    int64_t rows, cols;
    int64_t nnz, cap;
    int32_t *row, *col;         /* 0-based */
    void *val;                  /* float or double, per dtype */
} lcl_coo;

typedef struct lcl_csr {
    lcl_dtype dtype;
    int64_t rows, cols, nnz;
    int64_t *ptr;               /* rows + 1 */
    int32_t *col;               /* sorted within each row, no duplicates */
    void *val;
} lcl_csr;

LCL_API lcl_status lcl_coo_alloc(lcl_context *ctx, lcl_coo *m, lcl_dtype dtype, int64_t rows,
                                 int64_t cols, int64_t cap);
LCL_API lcl_status lcl_coo_push(lcl_context *ctx, lcl_coo *m, int64_t i, int64_t j, double v);
LCL_API void lcl_coo_free(lcl_coo *m);
/* Check indices, sort by (row, col), sum duplicates: the canonical form. */
LCL_API lcl_status lcl_coo_canonicalize(lcl_context *ctx, lcl_coo *m);
LCL_API lcl_status lcl_coo_copy(lcl_context *ctx, const lcl_coo *src, lcl_dtype dtype, lcl_coo *dst);
LCL_API lcl_status lcl_csr_from_coo(lcl_context *ctx, const lcl_coo *src, lcl_csr *dst);
LCL_API lcl_status lcl_csr_to_coo(lcl_context *ctx, const lcl_csr *src, lcl_coo *dst);
LCL_API void lcl_csr_free(lcl_csr *m);
LCL_API lcl_status lcl_coo_to_dense(lcl_context *ctx, const lcl_coo *src, lcl_layout layout, lcl_dense *dst);
LCL_API lcl_status lcl_dense_to_coo(lcl_context *ctx, const lcl_dense *src, lcl_coo *dst); /* drops zeros */

/* ---- dense factorizations and solves (LAPACK meaning) -------------------------------------
   Square n x n matrices in either layout with a leading dimension, float or double (the dtype of
   the lcl_dense). ipiv is 0-based: row i was interchanged with row ipiv[i] (i <= ipiv[i]).
   info (may be NULL) is LAPACK's: 0, or the 1-based index of the first zero pivot (getrf, status
   LCL_ERR_SINGULAR, the factorization is still completed) or of the first non-positive leading
   minor (potrf, status LCL_ERR_NOT_SPD). Non-finite input is LCL_ERR_NAN before any work.
   Several devices: opts.device = -1 factors host arrays (lcl_getrf, lcl_potrf) over every device of
   an OpenCL context. Column blocks go round-robin to the devices; each panel is factored on the
   device that owns it (opts.panel = 1: on the host) and sent to the others through host memory;
   each device updates its own columns. Results equal one device's to rounding, with the same
   status and info. In a one-device context -1 is device 0; the CPU backends ignore opts.device. A
   lcl_dmat from lcl_dmat_upload lives on one device, so lcl_dmat_getrf and lcl_dmat_potrf refuse
   -1 when there are several (LCL_ERR_UNSUPPORTED) and any other index (LCL_ERR_INVALID_ARGUMENT);
   one from lcl_dmat_upload_split is factored over its devices. lcl_gesv and lcl_posv take the
   defaults (device 0): for a split solve call lcl_getrf / lcl_potrf with the options, then
   lcl_getrs / lcl_potrs. */
typedef enum lcl_uplo { LCL_LOWER = 0, LCL_UPPER = 1 } lcl_uplo;
typedef enum lcl_trans { LCL_NO_TRANS = 0, LCL_TRANS = 1 } lcl_trans;
typedef enum lcl_dense_alg {
    LCL_ALG_AUTO = 0,           /* the fastest for the backend (blocked) */
    LCL_ALG_BLOCKED,            /* LU: right-looking blocked, partial pivoting, look-ahead; Cholesky: blocked */
    LCL_ALG_UNBLOCKED,          /* LU: right-looking, NO pivoting (for comparison only);
                                   Cholesky: right-looking column by column */
    LCL_ALG_CROUT,              /* LU: Crout order (computed with a unit-diagonal U, returned in getrf's
                                   unit-L form), no pivoting; Cholesky: column-by-column Crout */
    LCL_ALG_BANACHIEWICZ        /* Cholesky only: row by row (Cholesky-Banachiewicz) */
} lcl_dense_alg;
typedef struct lcl_dense_opts {
    lcl_dense_alg alg;
    int block;                  /* block size, 0 = tuned default (OpenCL: the panel width, factored in steps of <= 64;
                                   Cholesky's last panels may be narrower, tune.chol_narrow_n) */
    int device;                 /* OpenCL device of the context to use, -1 = all (split the update, above) */
    int panel;                  /* OpenCL LU panel (split: LU and Cholesky): 0 auto (device), 1 on the
                                   host, 2 on the device */
} lcl_dense_opts;               /* NULL opts = all defaults (alg auto, block 0, device 0) */

LCL_API lcl_status lcl_getrf(lcl_context *ctx, lcl_dense *A, int32_t *ipiv, int64_t *info, const lcl_dense_opts *o);
LCL_API lcl_status lcl_getrs(lcl_context *ctx, lcl_trans trans, const lcl_dense *LU, const int32_t *ipiv, lcl_dense *B);
LCL_API lcl_status lcl_potrf(lcl_context *ctx, lcl_uplo uplo, lcl_dense *A, int64_t *info, const lcl_dense_opts *o);
LCL_API lcl_status lcl_potrs(lcl_context *ctx, lcl_uplo uplo, const lcl_dense *L, lcl_dense *B);
/* one call: factor A in place and overwrite B (n x nrhs) with the solution */
LCL_API lcl_status lcl_gesv(lcl_context *ctx, lcl_dense *A, int32_t *ipiv, lcl_dense *B, int64_t *info);
LCL_API lcl_status lcl_posv(lcl_context *ctx, lcl_uplo uplo, lcl_dense *A, lcl_dense *B, int64_t *info);

/* Matrices kept where the context computes (the OpenCL device, or host memory on the CPU
   backends), so repeated factorizations pay no transfers. Upload copies; download writes into an
   existing lcl_dense of the same shape and dtype, any layout. */
typedef struct lcl_dmat lcl_dmat;
LCL_API lcl_status lcl_dmat_upload(lcl_context *ctx, const lcl_dense *A, lcl_dmat **out);
/* A square matrix split over every device of an OpenCL context: column blocks of block columns
   (0: tuned) round-robin, each device holding its own. lcl_dmat_getrf / lcl_dmat_potrf (lower)
   then factor it where it lies: each panel on its owner device, sent to the others through host
   memory (pinned, and shared by all devices of a shared context), the trailing columns updated by
   their owners; opts.device and opts.block are not used. lcl_dmat_getrs / lcl_dmat_potrs solve
   with the factors where they lie (B a lcl_dmat_upload matrix: it goes block by block to each
   block's owner through the host). Download gathers the matrix. One device or a CPU backend: the
   same as lcl_dmat_upload. */
LCL_API lcl_status lcl_dmat_upload_split(lcl_context *ctx, const lcl_dense *A, int block, lcl_dmat **out);
LCL_API lcl_status lcl_dmat_download(lcl_context *ctx, const lcl_dmat *A, lcl_dense *dst);
LCL_API void lcl_dmat_free(lcl_dmat *A);
LCL_API lcl_status lcl_dmat_getrf(lcl_context *ctx, lcl_dmat *A, int32_t *ipiv, int64_t *info, const lcl_dense_opts *o);
LCL_API lcl_status lcl_dmat_getrs(lcl_context *ctx, lcl_trans trans, const lcl_dmat *LU, const int32_t *ipiv, lcl_dmat *B);
LCL_API lcl_status lcl_dmat_potrf(lcl_context *ctx, lcl_uplo uplo, lcl_dmat *A, int64_t *info, const lcl_dense_opts *o);
LCL_API lcl_status lcl_dmat_potrs(lcl_context *ctx, lcl_uplo uplo, const lcl_dmat *L, lcl_dmat *B);

/* ---- sparse direct LU for circuit matrices (KLU class) --------------------------------------
   Four phases, as SuiteSparse KLU: lcl_klu_analyze looks at the pattern only (permutation to block
   upper triangular form: maximum transversal, then strongly connected components; a fill-reducing
   ordering of each diagonal block), lcl_klu_factor computes L and U of each diagonal block
   (left-looking Gilbert-Peierls, threshold partial pivoting preferring the diagonal, optional row
   scaling; the blocks above the diagonal are used by the solves only), lcl_klu_refactor takes new
   values of the same pattern and reuses the pivot order with no allocation (what a circuit
   simulator calls every Newton step), lcl_klu_solve / lcl_klu_tsolve solve A X = B / A^T X = B in
   place for nrhs right-hand sides (column-major, leading dimension ldb >= n).
   A is a square canonical lcl_csr (double or float; sums and factors in its dtype). factor and
   refactor require the pattern analyze saw (LCL_ERR_INVALID_ARGUMENT otherwise).
   OpenCL context: the factors get a copy on device 0 (made by factor when the device refactors
   or solves, else by the first lcl_klu_solve_vec, declared with lcl_vec below). refactor runs
   there on GPUs (level-scheduled over the column DAG; the same results as the host's, bit for
   bit in double unless the host compiler fuses a*b+c) and on the host on CPU devices; then the device's copy or the host's is stale.
   Host-array solves run on the host, after a device refactor with its values fetched once
   (solving with another context is then refused): the level-scheduled device solve is 40-60x
   slower on circuit matrices (long dependency chains). Factors with a dense tail (opts.dense)
   refactor on the host, and refinement (opts.refine) runs there too. lcl_klu_solve_vec solves on
   the device, level-scheduled, without transfers. Errors:
   structurally singular A is LCL_ERR_SINGULAR at analyze, with info.structural_rank; a zero
   pivot is LCL_ERR_SINGULAR at factor or refactor, with info.singular_col (0-based column of A);
   NaN or Inf values LCL_ERR_NAN; a non-square or empty pattern LCL_ERR_DIMENSION. A refactor that
   fails on a zero pivot (or a device error) leaves no usable factors: the solves refuse N
   (LCL_ERR_INVALID_ARGUMENT, naming that failure) until a refactor succeeds. NaN values are
   refused before any work, the factors kept.
   Backends: analyze and factor's sparse loop are serial (the pivot search is sequential; the
   dense tails use the dense kernels, threaded on OpenMP). On OpenMP, refactor also runs
   independent columns (level by level of its column graph) on ctx's threads, and the solves
   split several right-hand sides among them (one right-hand side: serial); results are bitwise
   the serial ones. They use at most the threads of the context that factored: factor keeps work
   vectors of n values per thread in the numeric object. */
typedef enum lcl_klu_ordering {
    LCL_KLU_AMD = 0,            /* approximate minimum degree on A+A^T of each block (default) */
    LCL_KLU_COLAMD,             /* column approximate minimum degree on A (very unsymmetric blocks) */
    LCL_KLU_NATURAL,            /* no fill-reducing ordering */
    LCL_KLU_USER                /* opts.perm: a symmetric permutation of A (before the BTF) */
} lcl_klu_ordering;
typedef enum lcl_klu_scaling {
    LCL_KLU_SCALE_DEFAULT = 0,  /* max */
    LCL_KLU_SCALE_NONE,
    LCL_KLU_SCALE_SUM,          /* each row divided by the sum of its |entries| */
    LCL_KLU_SCALE_MAX           /* each row divided by its largest |entry| */
} lcl_klu_scaling;
typedef struct lcl_klu_opts {
    lcl_klu_ordering ordering;
    const int32_t *perm;        /* LCL_KLU_USER: perm[k] = the row and column of A placed k-th */
    int no_btf;                 /* 1: one block (no BTF permutation) */
    double tol;                 /* pivot threshold in (0, 1], 0 = 0.001: the diagonal is kept while
                                   |diagonal| >= tol * the column's largest candidate */
    lcl_klu_scaling scale;
    double growth_limit;        /* refactor: info.refactor_unstable above this pivot growth, 0 = 1e8 */
    double dense;               /* a block switches to a dense LU (partial pivoting) of its remaining
                                   columns once a column of L fills this fraction of the rows below
                                   it; 0 = 0.8, negative = never (sparse throughout, as KLU) */
    int refine;                 /* iterative refinement steps of each solve: 0 = up to 2 when the
                                   reciprocal pivot growth is below 1e-3 (threshold pivoting let the
                                   factors lose digits), otherwise none; negative = never */
} lcl_klu_opts;                 /* NULL opts = all defaults */
typedef struct lcl_klu_info {
    int64_t n, nnz;             /* of A */
    int64_t blocks, max_block;  /* BTF diagonal blocks and the largest */
    int64_t structural_rank;    /* n unless structurally singular */
    int64_t nnz_offdiag;        /* entries of A above the diagonal blocks */
    int64_t nnz_l, nnz_u;       /* of the factors of the diagonal blocks (L's unit diagonal
                                   counted, U's diagonal counted) */
    double flops;               /* of the last factor or refactor */
    double growth;              /* reciprocal pivot growth of the last factor or refactor */
    double rcond;               /* cheap reciprocal condition estimate: min |U_ii| / max |U_ii| */
    int64_t singular_col;       /* -1, or the 0-based column of A with a zero pivot */
    int64_t off_diag_pivots;    /* columns whose pivot was not the diagonal entry */
    int refactor_unstable;      /* refactor: a pivot the threshold rule would now refuse, or growth
                                   above opts.growth_limit: call lcl_klu_factor */
} lcl_klu_info;
typedef struct lcl_klu_symbolic lcl_klu_symbolic;
typedef struct lcl_klu_numeric lcl_klu_numeric;
LCL_API lcl_status lcl_klu_analyze(lcl_context *ctx, const lcl_csr *A, const lcl_klu_opts *o, lcl_klu_symbolic **out,
                                   lcl_klu_info *info);
LCL_API lcl_status lcl_klu_factor(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_csr *A, lcl_klu_numeric **out,
                                  lcl_klu_info *info);
LCL_API lcl_status lcl_klu_refactor(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_csr *A, lcl_klu_numeric *N,
                                    lcl_klu_info *info);
LCL_API lcl_status lcl_klu_solve(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_klu_numeric *N, int64_t nrhs,
                                 void *B, int64_t ldb);
LCL_API lcl_status lcl_klu_tsolve(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_klu_numeric *N, int64_t nrhs,
                                  void *B, int64_t ldb);
LCL_API void lcl_klu_symbolic_free(lcl_klu_symbolic *S);
LCL_API void lcl_klu_numeric_free(lcl_klu_numeric *N);

/* ---- block-aware sparse LU (BKLU): nonzeros that are dense M x M blocks -----------------------
   For matrices whose pattern is a sparse matrix J with each nonzero replaced by a dense M x M block
   (harmonic balance, polynomial chaos: J (x) B). The scalar KLU runs on J's pattern (analyze: BTF,
   fill-reducing ordering) and on one representative value per block (factor: pivot order, scaling,
   the block structure of L and U); then every scalar operation becomes a block one: per block
   column, scale-copy of A's blocks, GEMM updates from the columns it depends on, LU of the pivot
   block (partial pivoting inside it by default; opts.nopivot: none, as the 2016 thesis), TRSM of
   the L blocks. refactor reuses the structure with new values (pivoting inside the pivot blocks
   again); solve does the block forward and back substitution.
   Input: lcl_bmat, block compressed columns (by_row 0: ptr over block columns, idx = block rows)
   or rows (by_row 1), indices sorted and unique within each column (row), each block M x M
   row-major, the blocks in ptr order. Backends: serial; OpenMP runs independent block columns
   (levels of the column DAG) on the threads, and a narrow level's blocks inside one column;
   OpenCL runs the numeric phase on the context's devices (opts.devices; a context that auto chose
   CPU OpenCL devices runs it on the host's OpenMP threads, as the dense routines), a level's
   columns split among them (opts.schedule) and batched per device (one launch per step of all its
   columns), A's blocks of the next level written while a level computes (through pinned memory,
   copied by the context's threads; with a host thread per device when there is none; straight
   from A when its values lie in lcl_host_alloc's memory: the fastest way in). Where the factors
   fit, the host lists and launches a device's next level while its last runs; a column another
   device needs goes through its owner's pinned memory, the import waiting for it by event (one
   cl_context; else the host waits for every device each level). The factors stay on the
   devices when they fit; otherwise each column is read back
   after its level and its L blocks dropped after their last use on that device (zero-column
   transfer), resident ones replaced by Belady's rule when even that does not fit, and a column
   whose dependencies do not fit together takes them one at a time; opts.mem_limit caps the device
   memory used (without it a device that refuses memory within the plan, as a driver that
   allocates at first use can, gets the run again planned for less, down to 30%). Solves run on
   the devices when each column's factors are still on the device that computed it (they stay
   there; the right-hand sides move between devices through the host where the column order
   changes device), else on the host, which fetches the factors once. Errors:
   block-size or pattern mismatch LCL_ERR_DIMENSION / LCL_ERR_INVALID_ARGUMENT; NaN or Inf
   LCL_ERR_NAN; a singular pivot block LCL_ERR_SINGULAR with info.singular_col (block column of
   A), info.singular_row (block row of A pivotal there) and info.singular_index (0-based step of the
   block's pivoted LU: the row of its U, where the first zero pivot is); too little device memory
   even with replacement LCL_ERR_DEVICE_MEMORY. A failed refactor leaves no usable factors (values
   are checked as they are copied in): the solves refuse N (LCL_ERR_INVALID_ARGUMENT, naming that
   failure) until a refactor succeeds. On the CPU backends refactor uses at most the threads of
   the context that factored. */
typedef struct lcl_bmat {
    int64_t n;                  /* block rows = block columns */
    int64_t m;                  /* block size M */
    int64_t nnzb;               /* blocks */
    lcl_dtype dtype;
    int by_row;                 /* 0: block compressed column, 1: block compressed row */
    int64_t *ptr;               /* n + 1 */
    int32_t *idx;               /* nnzb: block row (by_row 0) or column (1) */
    void *val;                  /* nnzb * m * m values: block e at e*m*m, row-major */
} lcl_bmat;
typedef enum lcl_bklu_schedule {
    LCL_BKLU_SCHEDULE_DEFAULT = 0,  /* the fastest measured: affinity (2 H100s, BENCHMARKS.md) */
    LCL_BKLU_STATIC,            /* the thesis: each level's columns split evenly in linear chunks */
    LCL_BKLU_AFFINITY,          /* ranges of the ordering, even in work and cut where fewest L blocks cross, kept
                                   on one device; each level balanced within 1.5x (LCL_BKLU_SLACK) */
    LCL_BKLU_DYNAMIC            /* list scheduling: a ready column to the device free first */
} lcl_bklu_schedule;
typedef struct lcl_bklu_opts {
    lcl_klu_opts klu;           /* the scalar analyze and factor of J (ordering, BTF, tol, scale);
                                   tol 0 = 1 here: partial pivoting on the blocks' norms */
    int nopivot;                /* 1: no pivoting inside the pivot blocks */
    lcl_bklu_schedule schedule; /* OpenCL, several devices */
    int devices;                /* OpenCL: the first this many devices of the context, 0 = all */
    int64_t mem_limit;          /* OpenCL: bytes of each device's memory to use, 0 = 90% of it (less after a refusal) */
} lcl_bklu_opts;                /* NULL opts = all defaults */
typedef struct lcl_bklu_info {
    int64_t n, m, nnzb;         /* of A, in blocks */
    int64_t blocks;             /* BTF diagonal blocks of J */
    int64_t nnzb_l, nnzb_u;     /* blocks of L and U, the diagonal (pivot) blocks counted in U */
    int64_t levels;             /* of the column DAG */
    double flops;               /* of the last factor or refactor */
    int devices;                /* OpenCL devices used (0 on the CPU backends) */
    int64_t transfers;          /* blocks moved between host and devices */
    int64_t evictions;          /* L columns dropped from a device and fetched again later */
    int64_t singular_col, singular_row, singular_index;   /* -1, or where a pivot block is singular */
} lcl_bklu_info;
typedef struct lcl_bklu_symbolic lcl_bklu_symbolic;
typedef struct lcl_bklu_numeric lcl_bklu_numeric;
LCL_API lcl_status lcl_bklu_analyze(lcl_context *ctx, const lcl_bmat *A, const lcl_bklu_opts *o, lcl_bklu_symbolic **out,
                                    lcl_bklu_info *info);
LCL_API lcl_status lcl_bklu_factor(lcl_context *ctx, const lcl_bklu_symbolic *S, const lcl_bmat *A, lcl_bklu_numeric **out,
                                   lcl_bklu_info *info);
LCL_API lcl_status lcl_bklu_refactor(lcl_context *ctx, const lcl_bklu_symbolic *S, const lcl_bmat *A, lcl_bklu_numeric *N,
                                     lcl_bklu_info *info);
/* A X = B in place: B is n*m rows by nrhs, column-major, ldb >= n*m; row i*m + r is row r of
   block row i */
LCL_API lcl_status lcl_bklu_solve(lcl_context *ctx, const lcl_bklu_symbolic *S, const lcl_bklu_numeric *N, int64_t nrhs,
                                  void *B, int64_t ldb);
/* y = A x (host arrays of n*m values), for residuals */
LCL_API lcl_status lcl_bmat_mv(const lcl_bmat *A, const void *x, void *y);
/* A block matrix from a scalar one: A (square CSR, its order a multiple of m) cut into m x m
   blocks; each block holding an entry of A becomes a dense block of out (the rest of it zeros),
   block rows with their columns ascending (by_row 1), in A's dtype. For a matrix assembled by
   scalar entries (a Matrix Market file) whose coupling is by blocks. Free with lcl_bmat_free. */
LCL_API lcl_status lcl_bmat_from_csr(lcl_context *ctx, const lcl_csr *A, int64_t m, lcl_bmat *out);
LCL_API void lcl_bmat_free(lcl_bmat *B);   /* arrays of lcl_bmat_from_csr; B zeroed */
LCL_API void lcl_bklu_symbolic_free(lcl_bklu_symbolic *S);
LCL_API void lcl_bklu_numeric_free(lcl_bklu_numeric *N);

/* ---- sparse formats and SpMV ------------------------------------------------------------------
   lcl_spmat: one matrix in one storage format, kept where the context computes (host memory on
   the CPU backends; the device, or several devices with rows split by nnz, on OpenCL). Built from
   canonical CSR or COO; every conversion goes through CSR. y = alpha*op(A)*x + beta*y with host
   arrays (lcl_spmv) or device vectors (lcl_spmv_vec, the iterative-solver case: no transfers).
   Padded formats (ELL, SELL, HYB's ELL part, DIA, BCSR, dense) refuse to store more than
   max_fill * nnz + rows slots: LCL_ERR_FILL, before allocating. The first LCL_TRANS product
   builds A^T in the same format and keeps it (twice the memory; later products run at full speed;
   it fails with LCL_ERR_FILL when A^T would pad more than that). CSC on OpenCL runs both products
   with the CSR kernels and no atomics: A x on the CSR it was built from, kept on the device, and
   A^T x on the CSC arrays, uploaded by the first LCL_TRANS product. CSR on a CPU backend whose
   columns are scattered and whose x exceeds 16 MiB is stored in column panels: 8 bytes per row and
   panel more (2 panels for a random 3M x 3M double matrix: +48 MB on its 600 MB), and during
   create a second copy of the indices and values.
   Input is validated in full: CSR pointers monotone, columns in range (LCL_ERR_DIMENSION), sorted
   and unique (lcl_spmat_from_coo sorts a copy and sums duplicates); NaN or Inf values are
   LCL_ERR_NAN. DIA, BCSR and dense keep no record of explicit zeros: lcl_spmat_to_csr returns
   their nonzero entries (the other formats return exactly the input). Products sum in the matrix
   dtype; beta == 0 never reads y, alpha == 0 never reads A or x. alpha and beta must be finite
   (LCL_ERR_NAN; beyond float's range for a float matrix LCL_ERR_OVERFLOW). x and y must not overlap
   (LCL_ERR_INVALID_ARGUMENT). An Inf or NaN in x reaches only the rows with an entry in its
   column, in every format: padding is never multiplied (DIA, BCSR and dense skip the zeros they
   store, where dense BLAS would give 0 * Inf = NaN), so the format auto picks cannot put a NaN in
   y (an explicit zero that COO or CSR keeps is an entry: 0 * Inf there). A matrix or vector is
   used with contexts of the backend it was created on (or a NULL context, serially, for CPU
   ones). */
typedef enum lcl_format {
    LCL_FMT_AUTO = 0,           /* chosen from row statistics, see lcl_spmat_describe().reason */
    LCL_FMT_COO,                /* triplets sorted by row; SpMV by segmented reduction */
    LCL_FMT_CSR,
    LCL_FMT_CSC,
    LCL_FMT_ELL,                /* column-major, rows padded to the longest row */
    LCL_FMT_SELL,               /* SELL-C-sigma: slices of C rows, sorted by length within sigma rows */
    LCL_FMT_HYB,                /* ELL up to a width chosen from the row-length histogram + COO rest */
    LCL_FMT_DIA,                /* diagonals (also called CDS) */
    LCL_FMT_BCSR,               /* CSR of dense r x c blocks */
    LCL_FMT_DENSE,
    LCL_FMT_COUNT_
} lcl_format;
typedef enum lcl_spmv_kernel {
    LCL_KERNEL_AUTO = 0,        /* the format's best for the matrix and device */
    LCL_KERNEL_SCALAR,          /* CSR: one row per work-item (thread) */
    LCL_KERNEL_VECTOR,          /* CSR: a group of lanes per row (sub-group / SIMD) */
    LCL_KERNEL_MERGE,           /* CSR, equal work per part (heavy-tailed rows): merge-path on the CPU
                                   backends, CSR-Adaptive row blocks per work-group on OpenCL */
    LCL_KERNEL_IMAGE,           /* ELL: x read through an image (OpenCL; elsewhere = default) */
    LCL_KERNEL_COUNT_
} lcl_spmv_kernel;
typedef struct lcl_spmat_opts {
    lcl_format format;          /* LCL_FMT_AUTO (0) by default */
    lcl_spmv_kernel kernel;
    double max_fill;            /* padding guard, 0 = 3.0 (dense: stored rows*cols counts) */
    int sell_c, sell_sigma;     /* SELL-C-sigma, 0 = defaults (32 and 256 on GPUs, 8 and 64 on CPUs) */
    int block_r, block_c;       /* BCSR block, 0 = 4 x 4 */
    int hyb_width;              /* HYB ELL width, 0 = from the row-length histogram */
    int device;                 /* OpenCL: device of the context, -1 = all (rows split by nnz) */
    int trial;                  /* auto: time the candidate formats briefly and keep the fastest */
} lcl_spmat_opts;               /* NULL opts = all defaults */
typedef struct lcl_spmat_info {
    lcl_format format;
    lcl_spmv_kernel kernel;     /* what lcl_spmv runs */
    lcl_dtype dtype;
    int64_t rows, cols, nnz;
    int64_t stored;             /* value slots stored, padding included */
    double bytes;               /* bytes one product moves at least (matrix + x + y) */
    int devices;                /* OpenCL devices holding a part; 0 on the CPU backends */
    char reason[192];           /* why auto chose this format/kernel ("" when given) */
    int64_t halo;               /* resident split (lcl_vec_create_like): x values that cross between
                                   devices per lcl_spmv_vec, each read to the host and written on */
} lcl_spmat_info;
typedef struct lcl_spmat lcl_spmat;
typedef struct lcl_vec lcl_vec;

LCL_API const char *lcl_format_name(lcl_format f);               /* "csr", "sell", "auto" ... */
LCL_API int lcl_format_parse(const char *name, lcl_format *out);  /* 1 if known */
LCL_API const char *lcl_spmv_kernel_name(lcl_spmv_kernel k);
LCL_API int lcl_spmv_kernel_parse(const char *name, lcl_spmv_kernel *out);
LCL_API lcl_status lcl_spmat_create(lcl_context *ctx, const lcl_csr *A, const lcl_spmat_opts *o, lcl_spmat **out);
LCL_API lcl_status lcl_spmat_from_coo(lcl_context *ctx, const lcl_coo *A, const lcl_spmat_opts *o, lcl_spmat **out);
LCL_API void lcl_spmat_free(lcl_spmat *A);
LCL_API lcl_status lcl_spmat_describe(const lcl_spmat *A, lcl_spmat_info *out);
LCL_API lcl_status lcl_spmat_to_csr(lcl_context *ctx, const lcl_spmat *A, lcl_csr *out);
LCL_API lcl_status lcl_spmv(lcl_context *ctx, lcl_trans trans, double alpha, lcl_spmat *A, const void *x,
                            double beta, void *y);
/* Vectors kept where the context computes (device 0; for a matrix split over devices, see
   lcl_vec_create_like below). */
LCL_API lcl_status lcl_vec_create(lcl_context *ctx, lcl_dtype dtype, int64_t n, const void *init, lcl_vec **out);
LCL_API lcl_status lcl_vec_write(lcl_context *ctx, lcl_vec *v, const void *src);
LCL_API lcl_status lcl_vec_read(lcl_context *ctx, const lcl_vec *v, void *dst);
LCL_API void lcl_vec_free(lcl_vec *v);
LCL_API lcl_status lcl_spmv_vec(lcl_context *ctx, lcl_trans trans, double alpha, lcl_spmat *A, const lcl_vec *x,
                                double beta, lcl_vec *y);
/* lcl_spmv_vec returns once the product is queued (OpenCL): lcl_vec_read, or lcl_finish, waits. */
/* Vectors laid out as A's products read them, so that an iterative solver keeps every vector on the
   devices. For a square matrix split over devices (opts.device = -1, two or more devices) the
   vector is partitioned: part p (rows cut by nnz, lcl_rowpart's rule) lives on device p with room
   for its ghosts, the entries of x other parts own that p's rows read. The first such vector builds
   A's resident copy: each device holds its rows as lcl_rowpart's local matrix, cut into its owned
   columns (format opts.format, AUTO choosing per device) and its ghost columns (COO), once more the
   matrix's device memory. lcl_spmv_vec(A x) on partitioned x and y then moves only the halo: each
   device gathers the values others need (a kernel), they are read to pinned host memory and written
   into the receivers' ghost areas (OpenCL has no peer copy), ordered by events, while each device
   multiplies its owned columns; the ghost columns follow. In a shared cl_context (the default)
   the writes wait on the reads' events directly, else on user events the host sets.
   lcl_spmat_describe().halo counts the values. A^T x needs host arrays.
   Otherwise (one device, CPU backends) the vector is lcl_vec_create's, on A's device. Partitioned
   vectors go with matrices of the same row cut; lcl_vec_read / lcl_vec_write move the whole vector.
   The vector has A->cols entries, x's shape: y of a rectangular A is lcl_vec_create(A->rows). */
LCL_API lcl_status lcl_vec_create_like(lcl_context *ctx, lcl_spmat *A, const void *init, lcl_vec **out);
/* y = alpha x + beta y (alpha 0 does not read x, beta 0 does not read y) and x . y (summed in double
   on the host from per-device partial sums; waits), on vectors of the same length and layout, on
   their devices. */
LCL_API lcl_status lcl_vec_axpby(lcl_context *ctx, double alpha, const lcl_vec *x, double beta, lcl_vec *y);
LCL_API lcl_status lcl_vec_dot(lcl_context *ctx, const lcl_vec *x, const lcl_vec *y, double *out);
LCL_API lcl_status lcl_finish(lcl_context *ctx);   /* wait for all work queued on ctx's devices */
/* The sparse LU's solve of a vector where the context computes (see lcl_klu_solve): A x = b
   (LCL_NO_TRANS) or A^T x = b, in place. On OpenCL the factors' copy on device 0 is used (made
   on first use, refreshed after a host refactor), nothing crosses to the host, and it returns once
   queued. b must have N's dtype and length and come from a context of the same backend (on
   OpenCL, this context). It does not refine (see lcl_klu_opts.refine; the residual needs A on
   the host): where lcl_klu_solve would, solve host arrays instead. */
LCL_API lcl_status lcl_klu_solve_vec(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_klu_numeric *N, lcl_trans trans,
                                     lcl_vec *b);

/* ---- row partition, for SpMV over several processes or devices (>>rowpart) -------------------
   The rows of a square canonical CSR cut into nparts contiguous ranges balanced by nonzeros (the
   rule of the multi-device SpMV: part p starts at the first row whose prefix of nnz + rows
   reaches p/nparts of the total; a part may be empty when a few rows hold most nonzeros), and
   part p's own view: its rows [r0, r1) as `local`, a canonical CSR of nloc = r1 - r0 rows whose
   columns are renumbered: the owned columns r0..r1-1 first (0..nloc-1), then the ghosts, the
   columns it needs from other parts, ascending (so grouped by owner part). Before each product the
   ghost values arrive as the plan says: x_local[nloc + recv_off[q] .. nloc + recv_off[q+1]) from
   part q, which sends x_local[send_idx[send_off[p] .. send_off[p+1])] of its own x_local (owned
   indices, in the order the receiver stores them). Then local * x_local is rows r0..r1-1 of A x.
   `local` is ready for lcl_spmat_create on any backend. Every part is computed from the global
   matrix (each process holds it; O(nnz + n) time and O(n) scratch per part). No communication is
   done here: LINALG_CL_MPI adds the MPI exchange (below). Errors: nparts < 1, part outside
   0..nparts-1 LCL_ERR_INVALID_ARGUMENT; a non-square A, nparts > rows LCL_ERR_DIMENSION; A not
   canonical or NaN/Inf values as lcl_spmat_create. */
typedef struct lcl_rowpart {
    int nparts, part;
    int64_t n;                  /* rows = columns of the global matrix */
    int64_t r0, r1;             /* the part's global rows [r0, r1) */
    int64_t nloc, nghost;       /* owned rows (= owned columns) and ghost columns */
    lcl_csr local;              /* nloc x (nloc + nghost), A's dtype */
    int32_t *ghost;             /* nghost: global column of each ghost, ascending */
    int64_t *recv_off;          /* nparts + 1: ghosts from part q at [recv_off[q], recv_off[q+1]) */
    int64_t *send_off;          /* nparts + 1: values for part q at send_idx[send_off[q] ..] */
    int32_t *send_idx;          /* send_off[nparts] owned local indices, ascending per destination */
} lcl_rowpart;
/* bounds[0..nparts]: the rows of each part (part p holds [bounds[p], bounds[p+1])) */
LCL_API lcl_status lcl_rowpart_bounds(lcl_context *ctx, const lcl_csr *A, int nparts, int64_t *bounds);
LCL_API lcl_status lcl_rowpart_create(lcl_context *ctx, const lcl_csr *A, int nparts, int part, lcl_rowpart *out);
LCL_API void lcl_rowpart_free(lcl_rowpart *P);

/* Matrix Market */
typedef enum lcl_mm_format { LCL_MM_COORDINATE = 0, LCL_MM_ARRAY = 1 } lcl_mm_format;
typedef enum lcl_mm_field { LCL_MM_REAL = 0, LCL_MM_INTEGER, LCL_MM_PATTERN, LCL_MM_COMPLEX } lcl_mm_field;
typedef enum lcl_mm_symmetry {
    LCL_MM_GENERAL = 0, LCL_MM_SYMMETRIC, LCL_MM_SKEW_SYMMETRIC, LCL_MM_HERMITIAN
} lcl_mm_symmetry;

typedef struct lcl_mm_info {
    lcl_mm_format format;
    lcl_mm_field field;
    lcl_mm_symmetry symmetry;
    int64_t rows, cols;
    int64_t entries;            /* entries stored in the file */
} lcl_mm_info;

#define LCL_MM_EXPAND 1         /* read: mirror symmetric / skew-symmetric storage to the full matrix */

/* Read any real/integer/pattern Matrix Market matrix into canonical COO (sorted, duplicates
   summed). An `array` file keeps every entry, zeros included. info may be NULL. */
LCL_API lcl_status lcl_mm_read(lcl_context *ctx, const char *path, lcl_dtype dtype, int flags,
                               lcl_coo *out, lcl_mm_info *info);
LCL_API lcl_status lcl_mm_read_mem(lcl_context *ctx, const char *text, size_t len, lcl_dtype dtype,
                                   int flags, lcl_coo *out, lcl_mm_info *info);
LCL_API lcl_status lcl_mm_read_dense(lcl_context *ctx, const char *path, lcl_dtype dtype,
                                     lcl_layout layout, int flags, lcl_dense *out, lcl_mm_info *info);
LCL_API lcl_status lcl_mm_read_info(lcl_context *ctx, const char *path, lcl_mm_info *info);
/* Write coordinate real; values in the shortest form that reads back exactly. With
   LCL_MM_SYMMETRIC / SKEW the matrix (square) may hold either triangle or both: each off-diagonal
   pair is written once, in the lower triangle (an upper-only entry mirrored, negated for skew),
   and where both triangles hold it they must agree (a[i][j] == a[j][i], or == -a[j][i] for skew;
   duplicates add) and a skew matrix's diagonal must be zero, else LCL_ERR_INVALID_ARGUMENT names
   the pair. */
LCL_API lcl_status lcl_mm_write(lcl_context *ctx, const char *path, const lcl_coo *m,
                                lcl_mm_symmetry symmetry);
LCL_API lcl_status lcl_mm_write_dense(lcl_context *ctx, const char *path, const lcl_dense *m);

/* Streaming writer, for outputs too large to hold: header first, then exactly `entries` entries. */
typedef struct lcl_mm_writer lcl_mm_writer;
LCL_API lcl_status lcl_mm_writer_open(lcl_context *ctx, const char *path, lcl_mm_format format,
                                      lcl_mm_symmetry symmetry, int64_t rows, int64_t cols,
                                      int64_t entries, const char *comment, lcl_mm_writer **out);
LCL_API lcl_status lcl_mm_writer_put(lcl_mm_writer *w, int64_t i, int64_t j, double v); /* 0-based; j ignored for array */
LCL_API lcl_status lcl_mm_writer_close(lcl_mm_writer *w);   /* checks the count; frees w */
/* A write that fails (here or in lcl_mm_write*) removes the file it created, empties a file it
   overwrote, and leaves anything else at the path alone (a device such as /dev/full, a pipe). */

/* Shortest decimal text that reads back to exactly v (at most 24 chars + NUL). */
LCL_API int lcl_format_double(char *buf, size_t cap, double v);

#ifdef __cplusplus
}
#endif

/* ---- over MPI (>>mpi): only where LINALG_CL_MPI is defined before including this file (in the
   implementation's file too); it includes <mpi.h> (build with mpicc). Without it the library
   references no MPI symbol. Part p of a lcl_rowpart runs on rank p of comm (comm's size must be
   nparts). lcl_mpi_halo fills the ghosts of x (nloc + nghost values of dtype, which need not be
   the local matrix's) from their owners' owned values, by nonblocking point-to-point messages with
   tag LCL_MPI_TAG, and returns once they arrived; every rank calls it. lcl_mpi_dot: the dot
   product of the n local values of x and y (dtype), summed in double here, then over comm
   (MPI_Allreduce), into *out. MPI failures (when comm's error handler returns) are
   LCL_ERR_INTERNAL with MPI's message. C++: OpenMPI's deprecated C++ bindings in <mpi.h> are not
   warning-free; -DOMPI_SKIP_MPICXX leaves them out. */
#ifdef LINALG_CL_MPI
#include <mpi.h>
#ifndef LCL_MPI_TAG
#define LCL_MPI_TAG 0x4c43
#endif
#ifdef __cplusplus
extern "C" {
#endif
LCL_API lcl_status lcl_mpi_halo(lcl_context *ctx, MPI_Comm comm, const lcl_rowpart *P, lcl_dtype dtype, void *x);
LCL_API lcl_status lcl_mpi_dot(lcl_context *ctx, MPI_Comm comm, lcl_dtype dtype, int64_t n, const void *x, const void *y,
                               double *out);
#ifdef __cplusplus
}
#endif
#endif /* LINALG_CL_MPI */
#endif /* LINALG_CL_H_INCLUDED */

/* ============================================================================================== */
#ifdef LINALG_CL_IMPLEMENTATION
#ifndef LINALG_CL_IMPLEMENTATION_INCLUDED
#define LINALG_CL_IMPLEMENTATION_INCLUDED
/* >>config ------------------------------------------------------------------------------------- */
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <stdarg.h>
#include <math.h>
#include <float.h>
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <sys/types.h>
#include <sys/stat.h>   /* stat: what a failed write may remove */
#ifndef LCL_MALLOC
#define LCL_MALLOC(sz) malloc(sz)
#define LCL_REALLOC(p, sz) realloc((p), (sz))
#define LCL_FREE(p) free(p)
#endif
#ifndef LCL_ASSERT
#include <assert.h>
#define LCL_ASSERT(c) assert(c)
#endif
#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(_OPENMP) && !defined(_WIN32)
#include <sched.h>
#define LCL__YIELD() sched_yield()
#else
#define LCL__YIELD() ((void)0)
#endif
#ifndef LINALG_CL_NO_OPENCL
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_USE_DEPRECATED_OPENCL_1_2_APIS
#define CL_USE_DEPRECATED_OPENCL_1_2_APIS
#endif
#ifdef __APPLE__
#include <OpenCL/cl.h>
#else
#include <CL/cl.h>
#endif
#ifdef _WIN32
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <direct.h>
#include <process.h>
#define lcl__getpid _getpid
#else
#if !defined(LINALG_CL_LINK_OPENCL)
#include <dlfcn.h>
#endif
#include <pthread.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>
#define lcl__getpid getpid
#endif
#include "kernels_embedded.h"
#endif /* !LINALG_CL_NO_OPENCL */

#ifdef __cplusplus
extern "C" {
#endif

/* unused-tolerant, as sokol does: a private helper may serve only some backend combinations */
#if defined(__GNUC__) || defined(__clang__)
#define LCL__PRIVATE __attribute__((unused)) static
#else
#define LCL__PRIVATE static
#endif

/* >>util --------------------------------------------------------------------------------------- */
#define LCL__MIN(a, b) ((a) < (b) ? (a) : (b))
#define LCL__MAX(a, b) ((a) > (b) ? (a) : (b))
#define LCL__ABS(x) ((x) < 0 ? -(x) : (x))
/* the smallest multiple of m that is >= v (v >= 0, m > 0) */
LCL__PRIVATE int64_t lcl__round_up(int64_t v, int64_t m) { return (v + m - 1) / m * m; }
#ifndef LINALG_CL_NO_OPENCL
typedef struct lcl__kernel_slot { const char *name; cl_kernel k; } lcl__kernel_slot;
typedef struct lcl__program {
    cl_program prog;
    int state;                      /* 0 not built, 1 built; a failed build is not remembered: retried */
    lcl__kernel_slot kern[32];
    int nkern;
} lcl__program;
/* Every per-device tunable, one record per device (>>tuning fills it when the context opens the
   device). Code paths read these fields, never the device's name or the environment. */
typedef struct lcl__gemm_tile { int tm, tn, tk, wx, wy; } lcl__gemm_tile;
typedef struct lcl__tuning {
    int wg;                         /* 1-D work-group size: LCL_WG of every kernel file */
    /* dense.cl: GEMM */
    lcl__gemm_tile gemm[2];         /* per lcl_dtype, the portable GEMM's tile (GEMM_TM .. GEMM_WY) */
    int nv_cc;                      /* NVIDIA's compute capability (86 for 8.6; 0 elsewhere or unknown):
                                       LCL_NV_CC of the kernels, which leave out what it lacks */
    int tc;                         /* FP64 GEMM on tensor cores (lcl_gemm_tc_d; NVIDIA, sm_80 on) */
    int tc_wm, tc_wn;               /* its warps along M and N (TC_WM, TC_WN) */
    int tc_shape;                   /* its MMA shape (TC_SHAPE), 0 = the kernel's default */
    int tc_stages;                  /* its cp.async pipeline's depth (TC_STAGES), 0: tiles through registers */
    int upd_groups;                 /* > 0: tensor-core GEMMs on queue[0] run this many groups, looping
                                       over tiles, so the panel queue's kernels find free units */
    /* dense.cl: LU and Cholesky */
    int trsm_nb;                    /* diagonal blocks held in local memory (TRSM_NB) */
    int dense_nb;                   /* panel width: the K of the big trailing GEMM */
    int big_n;                      /* from this order on (0 never), the panels widen to: */
    int big_nb_lu, big_nb_chol[2];  /*   LU's, and Cholesky's per lcl_dtype */
    int chol_upd_groups;            /* potrf's trailing-update groups (0 all): the rest runs the panel */
    int chol_small_n, chol_upd_groups_small;   /* below this order (0 never), that many instead */
    int grid_panel, grid_groups;    /* LU panel in one launch (lcl_panel_grid); its groups, 0 one a unit
                                       (with lu_upd_groups: grid_per_unit a unit the update leaves free) */
    int grid_per_unit;              /* lcl_panel_grid's groups one unit holds at once */
    int lu_upd_groups;              /* getrf's trailing-update groups (0 all), so that the next panel's
                                       groups find free units and run beside it, not after it */
    int upd_narrow;                 /* bit 0 potrf's, bit 1 getrf's, bit 2 the split potrf's trailing updates
                                       by the tensor-core GEMM's 64-wide tiles (half the warps a group), the
                                       first two on twice the groups: two groups share a unit, and one's
                                       barriers hide behind the other's MMAs */
    int fused_step;                 /* from this order on (0 never), potrf's double step in one launch
                                       (lcl_potrf_step_d): H100, faster at 16384 (-4%), slower at 4096 (+12%) */
    int potf2_inv;                  /* bit dt: potrf's steps by lcl_potf2_inv (a warp a half, with
                                       inv(L11)) and L21 by a GEMM with that inverse */
    int chol_lah_panel;             /* potrf's look-ahead update on the panel queue, behind the panel:
                                       no queue-to-queue wait on the chain at each panel's end */
    int ws_cache;                   /* the factorizations' scratch kept for the next call (lcl__ws_get) */
    int lu_nt;                      /* bit dt: getrf (device panels) reads U12 transposed (n x NB scratch)
                                       in its update, an NT product (the tensor-core GEMM's NN tiles load
                                       64 bytes a row): double with the tensor cores (H200, n = 16384:
                                       -3%; single through the portable GEMM +0.6%, off) */
    int chol_ks;                    /* with chol_lstep: the look-ahead GEMM split along K in up to this many
                                       parts (lcl_gemm_tc_ks_d; 0, 1: not split) */
    int chol_narrow_n, chol_narrow_nb;   /* potrf's panels chol_narrow_nb wide (where they are wider) once at
                                       most chol_narrow_n rows remain (0: never) */
    int chol_step_ks;               /* potrf's steps by three launches (potf2_inv): their left-looking GEMM
                                       split along K in up to this many parts, of 128 columns or more, once
                                       its row tiles fill under half the units (lcl_gemm_tc64_ks_d; 0, 1: not) */
    int chol_lstep;                 /* below this order (0 never), with potf2_inv in double on the tensor
                                       cores: each step in one launch with the next step's block
                                       (lcl_potrf_lstep_d): H100, n = 4096 -10%, 16384 +3% */
    int chol_tail;                  /* in a larger matrix, the panels with fewer rows than this (0 none)
                                       as in a small one: steps in one launch, update on
                                       chol_upd_groups_small (there the update no longer hides the panel's
                                       chain); off: 1-2% slower at 3072-8192 (H200, n = 16384) */
    int halo_skip;                  /* LCL_HALO_SKIP: the resident split's products skip the exchange */
    int split_chain;                /* the dense split in one shared context: panels go on by event waits
                                       (lcl__multi_share), not the host's (LCL_SPLIT_CHAIN) */
    int split_nb;                   /* the dense split's panels in double from big_n on (0: as on one device),
                                       for matrices uploaded split (either factorization may follow) and
                                       Cholesky of host arrays: Cholesky's update there is one GEMM a panel
                                       in the round-robin lower mode, which wants the deeper K (two H200s,
                                       n = 32768: 512 -> 1024 columns 0.2745 -> 0.2323 s, 1.32x -> 1.56x
                                       of one; LU 0.581 -> 0.590 s) */
    int pocl_one_queue;             /* PoCL 4.x and 5.x: one queue for both roles, a build per device
                                       (lcl__tune_device says why) */
    int binary_cache;               /* programs stored in and loaded from the context's cache_dir (1), or
                                       not (0: PoCL, lcl__tune_device says why) */
    int fp32_exact;                 /* single-precision programs built with -cl-fp32-correctly-rounded-divide-sqrt
                                       (1: the device offers it, lcl__tune_device says why) */
    int host_register;              /* lcl_host_alloc: LCL_MALLOC'd memory the driver pins under CL_MEM_USE_HOST_PTR
                                       buffers (1), or a mapped CL_MEM_ALLOC_HOST_PTR buffer (0) */
    int host_piece_kb;              /* ... those buffers' size (0: the device's largest; tests: small, for many) */
    /* sparse.cl: SpMV */
    int spmv_lds_per_wg;            /* CSR adaptive: a stream block's nnz per work-item (SPMV_LDS / spmv_wg) */
    int spmv_wg;                    /* CSR adaptive: its work-group (SPMV_WG; default wg) */
    int spmv_hint;                  /* CSR adaptive: SPMV_HINT, NVIDIA's cache hints (kernels/sparse.cl) */
    int bklu_lu_wg;                 /* the block LU's pivot LU: largest work-group (a row per item up to it) */
    int bklu_lu_split;              /* ... panel by panel with the update on many work-groups from M on (0: off) */
    int bklu_eager;                 /* the block LU, resident: later levels' columns run their ready U steps early
                                       (1 on, 0 off, -1 with several devices) */
    int bklu_ahead;                 /* ... resident: level l + 1 listed and launched while l runs */
    int bklu_xahead;                /* ... and with exchanges (one shared cl_context): imports wait on the producer's
                                       read-back by event, not the host on every device each level */
    int bklu_eager_arrived;         /* eager: later columns' A staged apart, used once arrived (0: the level waits for it) */
    int bklu_eager_queue;           /* eager: those U steps on a queue of their own, beside the level's pivot LU chain */
    int bklu_eager_prio;            /* ... that queue made with a low priority hint (cl_khr_priority_hints), where it can be */
    int bklu_eager_m;               /* ... on several devices only for blocks below this M (0: any M) */
    int bklu_eager_pace;            /* ... the early U steps of columns past the next level at most P% of the average
                                       level's (of the device's U-step work over the levels), the rest left to later
                                       levels: a level's waits behind a long backlog on that queue (0: no limit) */
    int bklu_eager_end;             /* ... with the host a level ahead, a level's end waits for the rounds of the next
                                       level's columns only; the later ones run on beside the next level (0: for all; default 1) */
    int bklu_eager_hold;            /* tests: each level's rounds there held until the host has launched the next
                                       level, so a level's end that does not wait for what it needs is caught */
    int bklu_eager_free;            /* ... its tensor-core GEMMs on all compute units but this many (0: as many groups as
                                       tiles; -1: 15% with several devices, else 0) */
    int bklu_stage_kb;              /* eager, batches: later columns' A in level order, at most this many KB not yet
                                       arrived (0: each column's A the level before its first U step can run;
                                       -1: a twentieth of all of A, 16 MB to 1 GB) */
    int bklu_host_threads;          /* ... on several devices: a host thread per device */
    int bklu_slack;                 /* ... affinity: a device's share of a level's work at most this % of even */
    int bklu_window;                /* ... affinity: its index ranges' boundaries within this % of all work from even */
    int bklu_fslice;                /* F (A's blocks off the block triangular form's diagonal, the solve's): entries the
                                       host copies a slice while it waits on the devices (0: all after the levels) */
    int bklu_unroll;                /* BK_LU_UNROLL: the block LU's panel steps unrolled (GPUs; PoCL compiles them for minutes) */
    int bklu_lr_nb;                 /* LR_NB: the pivot LU's panel width panel by panel (4 to 32) */
    int bklu_lu_tail;               /* ... panel by panel until this many rows remain, those in one launch (0: off) */
    int bklu_swap_reg;              /* BK_SWAP_REG: its interchanges on the other columns as one permutation (1: no
                                       gain on two H200s at M = 512; one 1024 block's LU 6.97 -> 7.88 ms, spilled),
                                       2: only in lcl_bklu_lu, not the 512- and 1024-item kernels */
    int bklu_tri_p;                 /* BK_TRI_P: work-items a column of the pivot blocks' inverses (1, 2 or 4) */
    int spmv_split_per_wg;          /* CSR adaptive: rows above this many nnz per work-item are split */
    int spmv_xpart_kb;              /* CSR adaptive: x cut into column parts of at most this many KB,
                                       gathered a part at a time (lcl_spmv_csr_cols; 0: never) */
    int spmv_csr_scalar;            /* CSR auto: always one row per work-item (CPU devices) */
    int spmv_vector_min;            /* CSR auto: lanes per row from this mean row length */
    double spmv_merge_cv;           /* CSR auto: adaptive blocks when std/mean of row lengths is above */
    int spmv_sell_c, spmv_sell_sigma;   /* SELL-C-sigma defaults */
    /* klu.cl: the sparse LU (>>klu-opencl) */
    int klu_refactor;               /* 1: lcl_klu_refactor runs on the device, 0: on the host */
    int64_t klu_solve_min;          /* host-array solves run on the device from this nnz(L+U) on (0 never;
                                       always when the device holds the newer factors) */
    int klu_wg_max;                 /* refactor: the largest work-group on one column */
    int klu_run_wg;                 /* solves: levels of at most this many nodes run in one work-group of it */
    int klu_lanes_max;              /* solves: the most lanes on one row */
} lcl__tuning;

#define LCL__WS 16
typedef struct lcl__device {
    lcl_device_info info;
    cl_platform_id platform;
    cl_device_id id;
    cl_context cl;
    cl_command_queue queue[2];      /* 0 compute, 1 transfer (and the factorizations' panels) */
    lcl__program prog[LCL__KERNEL_FILE_COUNT][2];   /* per kernel file and lcl_dtype, built on first use */
    lcl__tuning tune;               /* every tunable of the device's kernels (>>tuning) */
    struct { cl_mem m; size_t bytes; int busy; } ws[LCL__WS];   /* the factorizations' scratch, kept for the next (lcl__ws_get) */
    struct { long step_splits, narrow_panels, direct_blocks, ahead_levels, eager_rounds, low_queues, eager_imports, eager_early_ends, eager_paced, narrow_updates, eager_cols; } seen;   /* what the routines chose so far
                                       (tests count it): potrf's step GEMMs split along K, its narrow panels (>>tuning),
                                       the block LU's blocks of A written straight from the caller's pinned memory, its
                                       levels launched while the one before ran, its U-step rounds on the second queue,
                                       that queue made with a low priority hint (tune.bklu_eager_prio), the columns another
                                       device read back that it imported for its eager U steps, its levels that ended
                                       before later columns' rounds (tune.bklu_eager_end) and whose early U steps the
                                       pace cut short (tune.bklu_eager_pace), the tensor-core GEMMs on 64-wide tiles
                                       asked for (tune.upd_narrow), and the later columns given eager U steps, on
                                       either queue */
} lcl__device;
#endif

/* buf: its mapped pinned cl_mem; or reg[0..nreg): the CL_MEM_USE_HOST_PTR buffers that pin it, p page-aligned in
   base (LCL_MALLOC'd); or neither (LCL_MALLOC, p = base) */
typedef struct lcl__hostmem { char *p, *base; size_t bytes; void *buf, **reg; int nreg; } lcl__hostmem;
struct lcl_context {
    lcl_backend backend;
    lcl_status status;
    char *msg;                      /* heap; falls back to msg_small when allocation fails */
    char msg_small[256];
    lcl_log_fn log;
    void *log_user;
    int num_threads;
    char *cache_dir;
    char *build_options;
    lcl_cache_stats cache;
    int ndev;
    int dense_cpu;                  /* auto found only CPU OpenCL devices: dense work on the CPU backends */
    lcl__hostmem *host;             /* lcl_host_alloc's blocks */
    int nhost;
#ifndef LINALG_CL_NO_OPENCL
    lcl__device *dev;
#endif
};

LCL__PRIVATE void lcl__vfail_(lcl_context *ctx, lcl_status st, const char *fmt, va_list ap);
/* one message at a time: the block LU's device threads (>>bklu-opencl) may fail together */
LCL__PRIVATE lcl_status lcl__vfail(lcl_context *ctx, lcl_status st, const char *fmt, va_list ap) {
#ifdef _OPENMP
    _Pragma("omp critical(lcl__msg)")
#endif
    lcl__vfail_(ctx, st, fmt, ap);
    return st;
}
LCL__PRIVATE void lcl__vfail_(lcl_context *ctx, lcl_status st, const char *fmt, va_list ap) {
    va_list ap2;
    char tmp[sizeof ctx->msg_small];    /* not msg_small itself: an argument may be the old message */
    int n;
    if (!ctx) return;
    ctx->status = st;
    va_copy(ap2, ap);
    n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    if (n < 0) tmp[0] = 0;
    if (n >= (int)sizeof tmp) {
        char *m = (char *)LCL_MALLOC((size_t)n + 1);
        if (m) {
            vsnprintf(m, (size_t)n + 1, fmt, ap2);
            if (ctx->msg && ctx->msg != ctx->msg_small) LCL_FREE(ctx->msg);
            ctx->msg = m;
            va_end(ap2);
            return;
        }
    }
    va_end(ap2);
    if (ctx->msg && ctx->msg != ctx->msg_small) LCL_FREE(ctx->msg);
    memcpy(ctx->msg_small, tmp, strlen(tmp) + 1);
    ctx->msg = ctx->msg_small;
}

LCL__PRIVATE lcl_status lcl__fail(lcl_context *ctx, lcl_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    lcl__vfail(ctx, st, fmt, ap);
    va_end(ap);
    return st;
}

LCL__PRIVATE void lcl__log(lcl_context *ctx, lcl_log_level lv, const char *fmt, ...) {
    char buf[1024];
    va_list ap;
    if (!ctx || !ctx->log) return;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ctx->log(ctx->log_user, lv, buf);
}

LCL__PRIVATE lcl_status lcl__oom(lcl_context *ctx, const char *what, size_t bytes) {
    return lcl__fail(ctx, LCL_ERR_OUT_OF_MEMORY, "out of host memory allocating %s (%.0f bytes)", what,
                     (double)bytes);
}

/* overflow-checked size arithmetic: all sizes pass through these before any allocation */
LCL__PRIVATE int lcl__mul_size(size_t a, size_t b, size_t *r) {
    if (a && b > (size_t)-1 / a) return 0;
    *r = a * b;
    return 1;
}
LCL__PRIVATE int lcl__mul_i64(int64_t a, int64_t b, int64_t *r) {
    if (a < 0 || b < 0) return 0;
    if (a && b > INT64_MAX / a) return 0;
    *r = a * b;
    return 1;
}
LCL__PRIVATE void *lcl__alloc(lcl_context *ctx, const char *what, size_t n, size_t elem, lcl_status *st) {
    size_t bytes;
    void *p;
    if (!lcl__mul_size(n, elem, &bytes)) {
        *st = lcl__fail(ctx, LCL_ERR_OVERFLOW, "size of %s overflows size_t (%.0f x %u bytes)", what, (double)n,
                        (unsigned)elem);
        return NULL;
    }
    p = LCL_MALLOC(bytes ? bytes : 1);
    if (!p) *st = lcl__oom(ctx, what, bytes);
    return p;
}
LCL__PRIVATE size_t lcl__dsize(lcl_dtype t) { return t == LCL_F32 ? sizeof(float) : sizeof(double); }
LCL__PRIVATE char *lcl__strdup(const char *s) {
    size_t n;
    char *d;
    if (!s) return NULL;
    n = strlen(s) + 1;
    d = (char *)LCL_MALLOC(n);
    if (d) memcpy(d, s, n);
    return d;
}
LCL__PRIVATE int lcl__lower(int c) { return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c; }
LCL__PRIVATE int lcl__strieq(const char *a, const char *b) {
    while (*a && lcl__lower((unsigned char)*a) == lcl__lower((unsigned char)*b)) a++, b++;
    return lcl__lower((unsigned char)*a) == lcl__lower((unsigned char)*b);
}
LCL__PRIVATE int lcl__stristr(const char *hay, const char *needle) {
    size_t i, j, n = strlen(needle);
    if (!n) return 1;
    for (i = 0; hay[i]; i++) {
        for (j = 0; j < n && hay[i + j] && lcl__lower((unsigned char)hay[i + j]) == lcl__lower((unsigned char)needle[j]); j++) {}
        if (j == n) return 1;
    }
    return 0;
}
LCL__PRIVATE uint64_t lcl__fnv(uint64_t h, const void *data, size_t n) {
    const unsigned char *p = (const unsigned char *)data;
    size_t i;
    for (i = 0; i < n; i++) { h ^= p[i]; h *= 1099511628211ULL; }
    return h;
}
#define LCL__FNV_INIT 14695981039346656037ULL

static const char *const lcl__status_names[LCL_STATUS_COUNT_] = {
    "ok", "invalid argument", "out of host memory", "I/O error", "parse error", "unsupported",
    "size overflow", "dimension mismatch", "backend unavailable", "no fp64 on device", "OpenCL error",
    "kernel build failed", "out of device memory", "singular matrix", "matrix not positive definite",
    "NaN or Inf in input", "too much padding for the format", "internal error"};

LCL_API const char *lcl_status_string(lcl_status s) {
    if ((int)s < 0 || (int)s >= LCL_STATUS_COUNT_) return "unknown status";
    return lcl__status_names[s];
}
LCL_API const char *lcl_backend_name(lcl_backend b) {
    switch (b) {
    case LCL_BACKEND_SERIAL: return "serial";
    case LCL_BACKEND_OPENMP: return "openmp";
    case LCL_BACKEND_OPENCL: return "opencl";
    default: return "auto";
    }
}
LCL_API int lcl_backend_parse(const char *name, lcl_backend *out) {
    static const lcl_backend all[4] = {LCL_BACKEND_AUTO, LCL_BACKEND_SERIAL, LCL_BACKEND_OPENMP, LCL_BACKEND_OPENCL};
    int i;
    if (!name || !out) return 0;
    for (i = 0; i < 4; i++)
        if (lcl__strieq(name, lcl_backend_name(all[i]))) { *out = all[i]; return 1; }
    return 0;
}
LCL_API int lcl_backend_compiled(lcl_backend b) {
    switch (b) {
    case LCL_BACKEND_AUTO:
    case LCL_BACKEND_SERIAL: return 1;
#ifdef _OPENMP
    case LCL_BACKEND_OPENMP: return 1;
#endif
#ifndef LINALG_CL_NO_OPENCL
    case LCL_BACKEND_OPENCL: return 1;
#endif
    default: return 0;
    }
}
LCL_API const char *lcl_last_error(const lcl_context *ctx) {
    if (!ctx) return "no context (lcl_context_create ran out of memory or was not called)";
    if (ctx->status == LCL_OK && (!ctx->msg || !ctx->msg[0])) return "no error";
    return ctx->msg ? ctx->msg : lcl_status_string(ctx->status);
}
LCL_API lcl_status lcl_last_status(const lcl_context *ctx) { return ctx ? ctx->status : LCL_ERR_INVALID_ARGUMENT; }
LCL_API void lcl_clear_error(lcl_context *ctx) {
    if (!ctx) return;
    ctx->status = LCL_OK;
    if (ctx->msg && ctx->msg != ctx->msg_small) LCL_FREE(ctx->msg);
    ctx->msg = ctx->msg_small;
    ctx->msg_small[0] = 0;
}
/* where dense factorizations and solves run: the context's backend, or a CPU one (dense_cpu) */
LCL__PRIVATE lcl_backend lcl__dense_backend(const lcl_context *ctx) {
    if (!ctx) return LCL_BACKEND_SERIAL;
    if (ctx->dense_cpu) return lcl_backend_compiled(LCL_BACKEND_OPENMP) ? LCL_BACKEND_OPENMP : LCL_BACKEND_SERIAL;
    return ctx->backend;
}

/* >>loader ------------------------------------------------------------------------------------- */
#ifndef LINALG_CL_NO_OPENCL
/* The OpenCL entry points we use. Loaded once per process (the only global state). */
#define LCL__CL_FUNCS(X) \
    X(cl_int, clGetPlatformIDs, (cl_uint, cl_platform_id *, cl_uint *)) \
    X(cl_int, clGetPlatformInfo, (cl_platform_id, cl_platform_info, size_t, void *, size_t *)) \
    X(cl_int, clGetDeviceIDs, (cl_platform_id, cl_device_type, cl_uint, cl_device_id *, cl_uint *)) \
    X(cl_int, clGetDeviceInfo, (cl_device_id, cl_device_info, size_t, void *, size_t *)) \
    X(cl_context, clCreateContext, (const cl_context_properties *, cl_uint, const cl_device_id *, \
        void (CL_CALLBACK *)(const char *, const void *, size_t, void *), void *, cl_int *)) \
    X(cl_int, clReleaseContext, (cl_context)) \
    X(cl_int, clRetainContext, (cl_context)) \
    X(cl_command_queue, clCreateCommandQueue, (cl_context, cl_device_id, cl_command_queue_properties, cl_int *)) \
    X(cl_int, clReleaseCommandQueue, (cl_command_queue)) \
    X(cl_program, clCreateProgramWithSource, (cl_context, cl_uint, const char **, const size_t *, cl_int *)) \
    X(cl_program, clCreateProgramWithBinary, (cl_context, cl_uint, const cl_device_id *, const size_t *, \
        const unsigned char **, cl_int *, cl_int *)) \
    X(cl_int, clBuildProgram, (cl_program, cl_uint, const cl_device_id *, const char *, \
        void (CL_CALLBACK *)(cl_program, void *), void *)) \
    X(cl_int, clGetProgramBuildInfo, (cl_program, cl_device_id, cl_program_build_info, size_t, void *, size_t *)) \
    X(cl_int, clGetProgramInfo, (cl_program, cl_program_info, size_t, void *, size_t *)) \
    X(cl_int, clReleaseProgram, (cl_program)) \
    X(cl_kernel, clCreateKernel, (cl_program, const char *, cl_int *)) \
    X(cl_int, clReleaseKernel, (cl_kernel)) \
    X(cl_int, clSetKernelArg, (cl_kernel, cl_uint, size_t, const void *)) \
    X(cl_int, clGetKernelWorkGroupInfo, (cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t, void *, size_t *)) \
    X(cl_mem, clCreateBuffer, (cl_context, cl_mem_flags, size_t, void *, cl_int *)) \
    X(cl_int, clReleaseMemObject, (cl_mem)) \
    X(cl_int, clEnqueueWriteBuffer, (cl_command_queue, cl_mem, cl_bool, size_t, size_t, const void *, cl_uint, \
        const cl_event *, cl_event *)) \
    X(cl_int, clEnqueueReadBuffer, (cl_command_queue, cl_mem, cl_bool, size_t, size_t, void *, cl_uint, \
        const cl_event *, cl_event *)) \
    X(cl_int, clEnqueueCopyBuffer, (cl_command_queue, cl_mem, cl_mem, size_t, size_t, size_t, cl_uint, \
        const cl_event *, cl_event *)) \
    X(cl_int, clEnqueueReadBufferRect, (cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, \
        const size_t *, size_t, size_t, size_t, size_t, void *, cl_uint, const cl_event *, cl_event *)) \
    X(cl_int, clEnqueueWriteBufferRect, (cl_command_queue, cl_mem, cl_bool, const size_t *, const size_t *, \
        const size_t *, size_t, size_t, size_t, size_t, const void *, cl_uint, const cl_event *, cl_event *)) \
    X(cl_int, clEnqueueCopyBufferRect, (cl_command_queue, cl_mem, cl_mem, const size_t *, const size_t *, \
        const size_t *, size_t, size_t, size_t, size_t, cl_uint, const cl_event *, cl_event *)) \
    X(cl_int, clEnqueueNDRangeKernel, (cl_command_queue, cl_kernel, cl_uint, const size_t *, const size_t *, \
        const size_t *, cl_uint, const cl_event *, cl_event *)) \
    X(void *, clEnqueueMapBuffer, (cl_command_queue, cl_mem, cl_bool, cl_map_flags, size_t, size_t, cl_uint, \
        const cl_event *, cl_event *, cl_int *)) \
    X(cl_int, clEnqueueUnmapMemObject, (cl_command_queue, cl_mem, void *, cl_uint, const cl_event *, cl_event *)) \
    X(cl_mem, clCreateImage, (cl_context, cl_mem_flags, const cl_image_format *, const cl_image_desc *, void *, cl_int *)) \
    X(cl_int, clEnqueueMarkerWithWaitList, (cl_command_queue, cl_uint, const cl_event *, cl_event *)) \
    X(cl_int, clEnqueueBarrierWithWaitList, (cl_command_queue, cl_uint, const cl_event *, cl_event *)) \
    X(cl_int, clFlush, (cl_command_queue)) \
    X(cl_int, clFinish, (cl_command_queue)) \
    X(cl_int, clWaitForEvents, (cl_uint, const cl_event *)) \
    X(cl_int, clGetEventInfo, (cl_event, cl_event_info, size_t, void *, size_t *)) \
    X(cl_int, clReleaseEvent, (cl_event)) \
    X(cl_int, clRetainEvent, (cl_event)) \
    X(cl_event, clCreateUserEvent, (cl_context, cl_int *)) \
    X(cl_int, clSetUserEventStatus, (cl_event, cl_int)) \
    X(cl_int, clSetEventCallback, (cl_event, cl_int, void (CL_CALLBACK *)(cl_event, cl_int, void *), void *)) \
    X(cl_int, clGetEventProfilingInfo, (cl_event, cl_profiling_info, size_t, void *, size_t *))

#define LCL__CL_TYPEDEF(ret, name, args) typedef ret (CL_API_CALL *lcl__pfn_##name) args;
LCL__CL_FUNCS(LCL__CL_TYPEDEF)
#define LCL__CL_MEMBER(ret, name, args) lcl__pfn_##name name;
/* OpenCL 2.0's, optional (NULL where the loader lacks it): queues with priority hints */
typedef cl_command_queue (CL_API_CALL *lcl__pfn_qprops)(cl_context, cl_device_id, const cl_bitfield *, cl_int *);
typedef struct lcl__cl_api {
    LCL__CL_FUNCS(LCL__CL_MEMBER)
    lcl__pfn_qprops clCreateCommandQueueWithProperties;
    int loaded;                 /* 1: every entry point present */
    char why[512];              /* when not loaded: what went wrong */
} lcl__cl_api;
static lcl__cl_api lcl__cl;     /* written once under lcl__cl_once, read-only afterwards */
#define LCL__CL (&lcl__cl)

LCL__PRIVATE void lcl__cl_load_once(void) {
#if defined(LINALG_CL_LINK_OPENCL)
#define LCL__CL_LINK(ret, name, args) lcl__cl.name = &name;
    LCL__CL_FUNCS(LCL__CL_LINK)
    lcl__cl.loaded = 1;
#else
    const char *env = getenv("LCL_OPENCL_LIBRARY");
    const char *names[4];
    int nn = 0, i;
    void *h = NULL;
    const char *lib = "";
    if (env && env[0]) names[nn++] = env;
    else {
#if defined(_WIN32)
        names[nn++] = "OpenCL.dll";
#elif defined(__APPLE__)
        names[nn++] = "/System/Library/Frameworks/OpenCL.framework/OpenCL";
#else
        names[nn++] = "libOpenCL.so.1";
        names[nn++] = "libOpenCL.so";
#endif
    }
    for (i = 0; i < nn && !h; i++) {
        lib = names[i];
#ifdef _WIN32
        h = (void *)LoadLibraryA(lib);
#else
        h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
#endif
    }
    if (!h) {
        snprintf(lcl__cl.why, sizeof lcl__cl.why, "no OpenCL loader: could not open %s%s", lib,
                 env && env[0] ? " (from LCL_OPENCL_LIBRARY)" : "");
        return;
    }
    /* memcpy because ISO C has no cast from object to function pointer */
#ifdef _WIN32
#define LCL__CL_FIND(name) FARPROC p_ = GetProcAddress((HMODULE)h, name)
#else
#define LCL__CL_FIND(name) void *p_ = dlsym(h, name)
#endif
#define LCL__CL_SYM(ret, name, args) { LCL__CL_FIND(#name); \
        if (!p_) { snprintf(lcl__cl.why, sizeof lcl__cl.why, "OpenCL loader %s lacks %s", lib, #name); return; } \
        memcpy(&lcl__cl.name, &p_, sizeof p_); }
    LCL__CL_FUNCS(LCL__CL_SYM)
    {
        LCL__CL_FIND("clCreateCommandQueueWithProperties");
        if (p_) memcpy(&lcl__cl.clCreateCommandQueueWithProperties, &p_, sizeof p_);
    }
    lcl__cl.loaded = 1;     /* the handle stays open for the life of the process */
#endif
}

#ifdef _WIN32
static INIT_ONCE lcl__cl_once_flag = INIT_ONCE_STATIC_INIT;
LCL__PRIVATE BOOL CALLBACK lcl__cl_once_cb(PINIT_ONCE o, PVOID p, PVOID *c) { (void)o; (void)p; (void)c; lcl__cl_load_once(); return TRUE; }
LCL__PRIVATE int lcl__cl_load(void) { InitOnceExecuteOnce(&lcl__cl_once_flag, lcl__cl_once_cb, NULL, NULL); return lcl__cl.loaded; }
/* the device queries, one thread at a time: PoCL 3.1 answers concurrent first clGetDeviceIDs
   with CL_DEVICE_NOT_FOUND, so threads creating contexts at once found no device */
static SRWLOCK lcl__cl_enum_lock = SRWLOCK_INIT;
#define LCL__CL_ENUM_LOCK() AcquireSRWLockExclusive(&lcl__cl_enum_lock)
#define LCL__CL_ENUM_UNLOCK() ReleaseSRWLockExclusive(&lcl__cl_enum_lock)
#else
static pthread_once_t lcl__cl_once_flag = PTHREAD_ONCE_INIT;
LCL__PRIVATE int lcl__cl_load(void) { pthread_once(&lcl__cl_once_flag, lcl__cl_load_once); return lcl__cl.loaded; }
static pthread_mutex_t lcl__cl_enum_lock = PTHREAD_MUTEX_INITIALIZER;   /* as on Windows, above */
#define LCL__CL_ENUM_LOCK() pthread_mutex_lock(&lcl__cl_enum_lock)
#define LCL__CL_ENUM_UNLOCK() pthread_mutex_unlock(&lcl__cl_enum_lock)
#endif

/* the device lists the extension */
LCL__PRIVATE int lcl__cl_has_ext(cl_device_id id, const char *name) {
    size_t n = 0;
    char *ext;
    int has = 0;
    if (LCL__CL->clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, 0, NULL, &n) != CL_SUCCESS || !n || !(ext = (char *)LCL_MALLOC(n + 1))) return 0;
    if (LCL__CL->clGetDeviceInfo(id, CL_DEVICE_EXTENSIONS, n, ext, NULL) == CL_SUCCESS) {
        ext[n] = 0;
        has = strstr(ext, name) != NULL;
    }
    LCL_FREE(ext);
    return has;
}

LCL__PRIVATE const char *lcl__cl_errname(cl_int e) {
    switch (e) {
#define LCL__E(x) case x: return #x;
    LCL__E(CL_SUCCESS) LCL__E(CL_DEVICE_NOT_FOUND) LCL__E(CL_DEVICE_NOT_AVAILABLE) LCL__E(CL_COMPILER_NOT_AVAILABLE)
    LCL__E(CL_MEM_OBJECT_ALLOCATION_FAILURE) LCL__E(CL_OUT_OF_RESOURCES) LCL__E(CL_OUT_OF_HOST_MEMORY)
    LCL__E(CL_PROFILING_INFO_NOT_AVAILABLE) LCL__E(CL_MEM_COPY_OVERLAP) LCL__E(CL_IMAGE_FORMAT_MISMATCH)
    LCL__E(CL_IMAGE_FORMAT_NOT_SUPPORTED) LCL__E(CL_BUILD_PROGRAM_FAILURE) LCL__E(CL_MAP_FAILURE)
    LCL__E(CL_MISALIGNED_SUB_BUFFER_OFFSET) LCL__E(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
    LCL__E(CL_COMPILE_PROGRAM_FAILURE) LCL__E(CL_LINKER_NOT_AVAILABLE) LCL__E(CL_LINK_PROGRAM_FAILURE)
    LCL__E(CL_DEVICE_PARTITION_FAILED) LCL__E(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
    LCL__E(CL_INVALID_VALUE) LCL__E(CL_INVALID_DEVICE_TYPE) LCL__E(CL_INVALID_PLATFORM) LCL__E(CL_INVALID_DEVICE)
    LCL__E(CL_INVALID_CONTEXT) LCL__E(CL_INVALID_QUEUE_PROPERTIES) LCL__E(CL_INVALID_COMMAND_QUEUE)
    LCL__E(CL_INVALID_HOST_PTR) LCL__E(CL_INVALID_MEM_OBJECT) LCL__E(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
    LCL__E(CL_INVALID_IMAGE_SIZE) LCL__E(CL_INVALID_SAMPLER) LCL__E(CL_INVALID_BINARY)
    LCL__E(CL_INVALID_BUILD_OPTIONS) LCL__E(CL_INVALID_PROGRAM) LCL__E(CL_INVALID_PROGRAM_EXECUTABLE)
    LCL__E(CL_INVALID_KERNEL_NAME) LCL__E(CL_INVALID_KERNEL_DEFINITION) LCL__E(CL_INVALID_KERNEL)
    LCL__E(CL_INVALID_ARG_INDEX) LCL__E(CL_INVALID_ARG_VALUE) LCL__E(CL_INVALID_ARG_SIZE)
    LCL__E(CL_INVALID_KERNEL_ARGS) LCL__E(CL_INVALID_WORK_DIMENSION) LCL__E(CL_INVALID_WORK_GROUP_SIZE)
    LCL__E(CL_INVALID_WORK_ITEM_SIZE) LCL__E(CL_INVALID_GLOBAL_OFFSET) LCL__E(CL_INVALID_EVENT_WAIT_LIST)
    LCL__E(CL_INVALID_EVENT) LCL__E(CL_INVALID_OPERATION) LCL__E(CL_INVALID_GL_OBJECT)
    LCL__E(CL_INVALID_BUFFER_SIZE) LCL__E(CL_INVALID_MIP_LEVEL) LCL__E(CL_INVALID_GLOBAL_WORK_SIZE)
    LCL__E(CL_INVALID_PROPERTY) LCL__E(CL_INVALID_IMAGE_DESCRIPTOR) LCL__E(CL_INVALID_COMPILER_OPTIONS)
    LCL__E(CL_INVALID_LINKER_OPTIONS) LCL__E(CL_INVALID_DEVICE_PARTITION_COUNT)
#undef LCL__E
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "unknown OpenCL error";
    }
}

/* An OpenCL call failed: allocation-type failures become LCL_ERR_DEVICE_MEMORY. */
LCL__PRIVATE lcl_status lcl__clfail(lcl_context *ctx, cl_int e, const char *what, const char *dev) {
    lcl_status st = (e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_RESOURCES ||
                     e == CL_INVALID_BUFFER_SIZE) ? LCL_ERR_DEVICE_MEMORY : LCL_ERR_OPENCL;
    return lcl__fail(ctx, st, "%s failed on %s: %s (%d)", what, dev ? dev : "OpenCL", lcl__cl_errname(e), (int)e);
}
#endif /* !LINALG_CL_NO_OPENCL */

LCL_API const char *lcl_opencl_unavailable_reason(void) {
#ifdef LINALG_CL_NO_OPENCL
    return "built without OpenCL (LINALG_CL_NO_OPENCL)";
#else
    return lcl__cl_load() ? NULL : lcl__cl.why;
#endif
}
/* >>devices ------------------------------------------------------------------------------------ */
#ifndef LINALG_CL_NO_OPENCL
typedef struct lcl__cldev { lcl_device_info info; cl_platform_id platform; cl_device_id id; } lcl__cldev;

LCL__PRIVATE void lcl__cl_str(cl_device_id d, cl_device_info what, char *out, size_t cap) {
    out[0] = 0;
    if (LCL__CL->clGetDeviceInfo(d, what, cap, out, NULL) != CL_SUCCESS) out[0] = 0;
    out[cap - 1] = 0;
}
LCL__PRIVATE void lcl__cl_fill_info(lcl__cldev *d, int index) {
    lcl_device_info *in = &d->info;
    cl_device_type t = 0;
    cl_ulong u = 0;
    cl_uint c = 0;
    size_t s = 0;
    cl_device_fp_config fp = 0;
    memset(in, 0, sizeof *in);
    in->index = index;
    LCL__CL->clGetPlatformInfo(d->platform, CL_PLATFORM_NAME, sizeof in->platform, in->platform, NULL);
    in->platform[sizeof in->platform - 1] = 0;
    lcl__cl_str(d->id, CL_DEVICE_NAME, in->name, sizeof in->name);
    lcl__cl_str(d->id, CL_DEVICE_VENDOR, in->vendor, sizeof in->vendor);
    lcl__cl_str(d->id, CL_DRIVER_VERSION, in->driver, sizeof in->driver);
    lcl__cl_str(d->id, CL_DEVICE_VERSION, in->version, sizeof in->version);
    LCL__CL->clGetDeviceInfo(d->id, CL_DEVICE_TYPE, sizeof t, &t, NULL);
    in->type = (t & CL_DEVICE_TYPE_GPU) ? LCL_DEVICE_GPU : (t & CL_DEVICE_TYPE_CPU) ? LCL_DEVICE_CPU
             : (t & CL_DEVICE_TYPE_ACCELERATOR) ? LCL_DEVICE_ACCELERATOR : LCL_DEVICE_OTHER;
    if (LCL__CL->clGetDeviceInfo(d->id, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof u, &u, NULL) == CL_SUCCESS) in->global_mem = u;
    if (LCL__CL->clGetDeviceInfo(d->id, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof u, &u, NULL) == CL_SUCCESS) in->max_alloc = u;
    if (LCL__CL->clGetDeviceInfo(d->id, CL_DEVICE_LOCAL_MEM_SIZE, sizeof u, &u, NULL) == CL_SUCCESS) in->local_mem = u;
    if (LCL__CL->clGetDeviceInfo(d->id, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof c, &c, NULL) == CL_SUCCESS) in->compute_units = (int)c;
    if (LCL__CL->clGetDeviceInfo(d->id, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof c, &c, NULL) == CL_SUCCESS) in->clock_mhz = (int)c;
    if (LCL__CL->clGetDeviceInfo(d->id, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof s, &s, NULL) == CL_SUCCESS) in->max_work_group = s;
    if (LCL__CL->clGetDeviceInfo(d->id, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp, &fp, NULL) == CL_SUCCESS) in->fp64 = fp != 0;
}

/* All devices of all platforms, in a stable order: what device indices mean. */
LCL__PRIVATE lcl_status lcl__cl_enumerate_locked(lcl_context *ctx, lcl__cldev **out, int *count) {
    cl_uint np = 0, p, nd, k;
    cl_platform_id *plats = NULL;
    lcl__cldev *devs = NULL;
    int n = 0, cap = 0;
    cl_int e, dev_err = CL_SUCCESS;
    lcl_status st = LCL_OK;
    e = LCL__CL->clGetPlatformIDs(0, NULL, &np);
    if (e == -1001 || np == 0 || e != CL_SUCCESS) {
        lcl__fail(ctx, LCL_OK, "no OpenCL platform (%s)%s", e == CL_SUCCESS ? "0 platforms" : lcl__cl_errname(e),
                  e == CL_SUCCESS || e == -1001 ? ": the loader found no vendor driver" : "");
        return LCL_OK;
    }
    plats = (cl_platform_id *)lcl__alloc(ctx, "platform list", np, sizeof *plats, &st);
    if (!plats) return st;
    if ((e = LCL__CL->clGetPlatformIDs(np, plats, NULL)) != CL_SUCCESS) {
        LCL_FREE(plats);
        return lcl__clfail(ctx, e, "clGetPlatformIDs", NULL);
    }
    for (p = 0; p < np; p++) {
        cl_device_id ids[64];
        nd = 0;
        if ((e = LCL__CL->clGetDeviceIDs(plats[p], CL_DEVICE_TYPE_ALL, 64, ids, &nd)) != CL_SUCCESS) { dev_err = e; continue; }
        if (nd > 64) nd = 64;
        for (k = 0; k < nd; k++) {
            if (n == cap) {
                int nc = cap ? 2 * cap : 8;
                lcl__cldev *nd2 = (lcl__cldev *)LCL_REALLOC(devs, (size_t)nc * sizeof *devs);
                if (!nd2) { LCL_FREE(devs); LCL_FREE(plats); return lcl__oom(ctx, "device list", (size_t)nc * sizeof *devs); }
                devs = nd2;
                cap = nc;
            }
            devs[n].platform = plats[p];
            devs[n].id = ids[k];
            lcl__cl_fill_info(&devs[n], n);
            n++;
        }
    }
    LCL_FREE(plats);
    if (n == 0)
        lcl__fail(ctx, LCL_OK, "OpenCL platforms found but no device%s%s", dev_err != CL_SUCCESS ? ": clGetDeviceIDs returned " : "",
                  dev_err != CL_SUCCESS ? lcl__cl_errname(dev_err) : "");
    *out = devs;
    *count = n;
    return LCL_OK;
}
LCL__PRIVATE lcl_status lcl__cl_enumerate(lcl_context *ctx, lcl__cldev **out, int *count) {
    lcl_status st;
    *out = NULL;
    *count = 0;
    if (!lcl__cl_load()) { lcl__fail(ctx, LCL_OK, "%s", lcl__cl.why); return LCL_OK; }
    LCL__CL_ENUM_LOCK();
    st = lcl__cl_enumerate_locked(ctx, out, count);
    LCL__CL_ENUM_UNLOCK();
    return st;
}

/* Choose devices by spec: NULL/"" best, "all", "gpu", "cpu", "accelerator", "0,2", or a name
   substring (matched against platform, device name and vendor). sel gets indices into devs. */
LCL__PRIVATE lcl_status lcl__cl_select(lcl_context *ctx, const lcl__cldev *devs, int n, const char *spec,
                                       int *sel, int *nsel) {
    int i, best = -1;
    *nsel = 0;
    if (n == 0) return lcl__fail(ctx, LCL_ERR_BACKEND_UNAVAILABLE, "no OpenCL device: %s", lcl_last_error(ctx));
    if (!spec || !spec[0]) {
        /* best: the GPU with the most memory, else an accelerator, else the first device */
        for (i = 0; i < n; i++) {
            int rank_i = devs[i].info.type == LCL_DEVICE_GPU ? 3 : devs[i].info.type == LCL_DEVICE_ACCELERATOR ? 2 : 1;
            int rank_b = best < 0 ? 0 : devs[best].info.type == LCL_DEVICE_GPU ? 3 : devs[best].info.type == LCL_DEVICE_ACCELERATOR ? 2 : 1;
            if (rank_i > rank_b || (rank_i == rank_b && devs[i].info.global_mem > devs[best].info.global_mem)) best = i;
        }
        sel[(*nsel)++] = best;
        return LCL_OK;
    }
    if (lcl__strieq(spec, "all")) {
        for (i = 0; i < n; i++) sel[(*nsel)++] = i;
        return LCL_OK;
    }
    if (lcl__strieq(spec, "gpu") || lcl__strieq(spec, "cpu") || lcl__strieq(spec, "accelerator")) {
        lcl_device_type t = lcl__strieq(spec, "gpu") ? LCL_DEVICE_GPU : lcl__strieq(spec, "cpu") ? LCL_DEVICE_CPU : LCL_DEVICE_ACCELERATOR;
        for (i = 0; i < n; i++) if (devs[i].info.type == t) sel[(*nsel)++] = i;
        if (!*nsel) return lcl__fail(ctx, LCL_ERR_BACKEND_UNAVAILABLE, "no OpenCL device of type '%s' among %d device(s)", spec, n);
        return LCL_OK;
    }
    if (spec[0] >= '0' && spec[0] <= '9') {
        const char *p = spec;
        while (*p) {
            char *end;
            long v = strtol(p, &end, 10);
            if (end == p || (*end && *end != ',')) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "bad device list '%s': expected indices like 0,1", spec);
            if (v < 0 || v >= n) return lcl__fail(ctx, LCL_ERR_BACKEND_UNAVAILABLE, "device index %ld out of range: %d OpenCL device(s)", v, n);
            for (i = 0; i < *nsel; i++) if (sel[i] == (int)v) break;
#ifdef LCL__DEVICE_REPEAT   /* benchmarks: "0,0" opens device 0 twice (two sets of queues on one device) */
            i = *nsel;
#endif
            if (i == *nsel) sel[(*nsel)++] = (int)v;
            p = *end ? end + 1 : end;
        }
        return LCL_OK;
    }
    for (i = 0; i < n; i++)
        if (lcl__stristr(devs[i].info.name, spec) || lcl__stristr(devs[i].info.platform, spec) || lcl__stristr(devs[i].info.vendor, spec))
            sel[(*nsel)++] = i;
    if (!*nsel) return lcl__fail(ctx, LCL_ERR_BACKEND_UNAVAILABLE, "no OpenCL device matches '%s' (%d device(s); see `lcl info`)", spec, n);
    return LCL_OK;
}
#endif /* !LINALG_CL_NO_OPENCL */

LCL_API lcl_status lcl_list_devices(lcl_context *ctx, lcl_device_info *out, int cap, int *count) {
#ifdef LINALG_CL_NO_OPENCL
    (void)out; (void)cap;
    if (!count) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_list_devices: count is NULL");
    *count = 0;
    lcl__fail(ctx, LCL_OK, "built without OpenCL (LINALG_CL_NO_OPENCL)");
    return LCL_OK;
#else
    lcl__cldev *devs;
    int n, i;
    lcl_status st;
    if (!count || cap < 0 || (cap > 0 && !out)) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_list_devices: bad arguments");
    *count = 0;
    st = lcl__cl_enumerate(ctx, &devs, &n);
    if (st != LCL_OK) return st;
    for (i = 0; i < n && i < cap; i++) out[i] = devs[i].info;
    *count = n;
    LCL_FREE(devs);
    return LCL_OK;
#endif
}

/* >>cache -------------------------------------------------------------------------------------- */
#ifndef LINALG_CL_NO_OPENCL
/* Entry file: "LCLBIN01" | u64 key | u64 payload size | u64 payload hash | payload. Anything that
   does not check out is rebuilt from source and overwritten. */
#define LCL__CACHE_MAGIC "LCLBIN01"

LCL__PRIVATE void lcl__cache_path(const lcl_context *ctx, uint64_t key, char *out, size_t cap) {
    snprintf(out, cap, "%s/lcl-%016llx.bin", ctx->cache_dir, (unsigned long long)key);
}
LCL__PRIVATE unsigned char *lcl__cache_load(const lcl_context *ctx, uint64_t key, size_t *size, int *found) {
    char path[4096];
    FILE *f;
    unsigned char hdr[32];
    uint64_t k, sz, h;
    unsigned char *buf;
    *found = 0;
    lcl__cache_path(ctx, key, path, sizeof path);
    f = fopen(path, "rb");
    if (!f) return NULL;
    *found = 1;
    if (fread(hdr, 1, 32, f) != 32 || memcmp(hdr, LCL__CACHE_MAGIC, 8) != 0) { fclose(f); return NULL; }
    memcpy(&k, hdr + 8, 8);
    memcpy(&sz, hdr + 16, 8);
    memcpy(&h, hdr + 24, 8);
    if (k != key || sz == 0 || sz > ((uint64_t)1 << 31)) { fclose(f); return NULL; }
    buf = (unsigned char *)LCL_MALLOC((size_t)sz);
    if (!buf) { fclose(f); return NULL; }
    if (fread(buf, 1, (size_t)sz, f) != (size_t)sz || fgetc(f) != EOF || lcl__fnv(LCL__FNV_INIT, buf, (size_t)sz) != h) {
        LCL_FREE(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *size = (size_t)sz;
    return buf;
}
LCL__PRIVATE int lcl__mkdirs(const char *dir) {
    char tmp[4096];
    size_t i, n = strlen(dir);
    if (n == 0 || n >= sizeof tmp) return 0;
    memcpy(tmp, dir, n + 1);
    for (i = 1; i <= n; i++) {
        if (tmp[i] == '/' || tmp[i] == 0) {
            char c = tmp[i];
            tmp[i] = 0;
#ifdef _WIN32
            _mkdir(tmp);
#else
            mkdir(tmp, 0777);
#endif
            tmp[i] = c;
        }
    }
    return 1;
}
LCL__PRIVATE int lcl__cache_store(const lcl_context *ctx, uint64_t key, const unsigned char *bin, size_t size) {
    char path[4096], tmp[4200];
    unsigned char hdr[32];
    uint64_t sz = size, h = lcl__fnv(LCL__FNV_INIT, bin, size);
    FILE *f;
    int ok;
    lcl__mkdirs(ctx->cache_dir);
    lcl__cache_path(ctx, key, path, sizeof path);
    /* write aside and rename: a reader never sees half a file, concurrent writers don't clash */
    snprintf(tmp, sizeof tmp, "%s.%ld.%p.tmp", path, (long)lcl__getpid(), (const void *)ctx);
    f = fopen(tmp, "wb");
    if (!f) return 0;
    memcpy(hdr, LCL__CACHE_MAGIC, 8);
    memcpy(hdr + 8, &key, 8);
    memcpy(hdr + 16, &sz, 8);
    memcpy(hdr + 24, &h, 8);
    ok = fwrite(hdr, 1, 32, f) == 32 && fwrite(bin, 1, size, f) == size;
    ok = (fclose(f) == 0) && ok;
#ifdef _WIN32
    if (ok) { remove(path); ok = rename(tmp, path) == 0; }
#else
    if (ok) ok = rename(tmp, path) == 0;
#endif
    if (!ok) remove(tmp);
    return ok;
}
#endif
/* >>tuning ------------------------------------------------------------------------------------- */
#ifndef LINALG_CL_NO_OPENCL
/* lcl__tuning is filled in three layers, once per device when the context opens it: defaults by
   device kind and capabilities; then the row of lcl__tune_table whose name the device's contains
   (GEMM tiles measured by `lcl tune`, panel widths and caps measured on that GPU: BENCHMARKS.md);
   then the LCL_* tuning variables of the environment, the only place they are read. */
typedef struct lcl__tune_row {
    const char *name;               /* substring of the device name */
    lcl__gemm_tile gemm[2];         /* per lcl_dtype; tm == 0 keeps the default */
    int dense_nb, big_n, big_nb_lu, big_nb_chol[2];   /* 0 keeps the default */
} lcl__tune_row;
static const lcl__tune_row lcl__tune_table[] = {
    {"H200", {{64, 64, 16, 16, 16}, {128, 64, 16, 16, 16}}, 256, 12288, 512, {896, 640}},
};

LCL__PRIVATE int lcl__env_int(const char *name, int lo, int hi, int *out) {
    const char *e = getenv(name);
    char *end;
    long v;
    if (!e || !e[0]) return 0;
    v = strtol(e, &end, 10);
    if (*end || v < lo || v > hi) return 0;
    *out = (int)v;
    return 1;
}

/* PoCL 4.x or 5.x, by platform name and CL_DRIVER_VERSION ("5.0+debian"): see pocl_one_queue below */
LCL__PRIVATE int lcl__pocl_one_queue(const char *platform, const char *driver) {
    return lcl__stristr(platform, "Portable Computing Language") && (driver[0] == '4' || driver[0] == '5') && driver[1] == '.';
}
LCL__PRIVATE void lcl__tune_device(lcl__device *d, int nv_cc) {
    static const lcl__gemm_tile gpu[2] = {{64, 64, 16, 16, 16}, {128, 128, 16, 16, 16}};
    static const lcl__gemm_tile cpu = {32, 32, 16, 8, 8}, tiny = {16, 16, 16, 4, 4};
    lcl__tuning *t = &d->tune;
    int nvidia = lcl__stristr(d->info.platform, "NVIDIA") != 0, isgpu = d->info.type == LCL_DEVICE_GPU;
    int k, v;
    size_t r;
    memset(t, 0, sizeof *t);
    for (t->wg = 256; t->wg > 1 && (size_t)t->wg > d->info.max_work_group; t->wg >>= 1) {}
    /* defaults */
    for (k = 0; k < 2; k++) t->gemm[k] = isgpu && d->info.max_work_group >= 256 ? gpu[k] : cpu;
    t->trsm_nb = d->info.local_mem >= 64 * 66 * sizeof(double) + 1024 ? 64 : 32;
    /* the tensor-core kernel exists only where NVIDIA's compiler builds the program; if it does
       not, the first GEMM falls back to lcl_gemm and clears tc */
    t->nv_cc = nvidia ? nv_cc : 0;
    t->tc = d->info.fp64 && nvidia && (nv_cc == 0 || nv_cc >= 80) && d->info.local_mem >= 2 * 128 * 20 * sizeof(double);
    t->tc_wm = 4;
    t->tc_wn = 2;
    t->tc_shape = nv_cc >= 90 ? 2 : 0;          /* sm_90: m16n8k4 runs at twice m8n8k4's rate */
    /* GPUs: the trailing update is bandwidth-bound at K = trsm_nb, so factor panels of dense_nb
       columns by trsm_nb-wide steps and update the rest once per panel */
    t->dense_nb = isgpu ? 4 * t->trsm_nb : t->trsm_nb;
    if (isgpu && t->dense_nb >= 256) {           /* a deeper update pays once the matrix is large */
        t->big_n = 12288;
        t->big_nb_lu = 2 * t->dense_nb;
        t->big_nb_chol[LCL_F64] = 14 * t->trsm_nb;
        t->big_nb_chol[LCL_F32] = 10 * t->trsm_nb;
    }
    /* potrf's update leaves an eighth of the units (at least 8) to the panel queue's kernels; on
       NVIDIA below order 6144 a quarter, where the panel's one-launch steps are the chain (H200,
       n = 4096: 3.53-3.58 -> 3.40-3.44 ms; 8192 and 16384 slower with it) */
    if (d->info.compute_units >= 32) {
        t->chol_upd_groups = d->info.compute_units - LCL__MAX(d->info.compute_units / 8, 8);
        t->chol_small_n = nvidia ? 6144 : 0;
        t->chol_upd_groups_small = d->info.compute_units - d->info.compute_units / 4;
    }
    if (t->tc) t->split_nb = 16 * t->trsm_nb;
    /* potrf's last panels narrower: their chain of steps, not the update, is then the critical
       path, and a step's left-looking GEMM runs up to K = panel width (H200, n = 16384: 6144 rows,
       384 wide 50.26-50.45 -> 49.68 ms; 8192 and 512, 4096 and 256: 49.8-49.9) */
    if (t->tc) {
        t->chol_narrow_n = 96 * t->trsm_nb;
        t->chol_narrow_nb = 6 * t->trsm_nb;
    }
    t->grid_panel = nvidia;
    /* with the one-launch panel, getrf's update leaves a quarter of the units to it: the panel's
       groups must all be resident, so behind an update on every unit it waited for the whole
       update (H200, n = 16384: 194 -> 162 ms; 8192: 58 -> 50; 4096: 23.4 -> 22.3) */
    if (t->grid_panel && d->info.compute_units >= 32) t->lu_upd_groups = d->info.compute_units - d->info.compute_units / 4;
    /* 41 KB of local memory and 80 registers a work-item (H200's ptxas): three in the 164-228 KB of
       the data-centre parts (compute capability 8.0, 9.0, 10.x), two in the others' 100 KB */
    t->grid_per_unit = nv_cc == 0 || nv_cc == 80 || nv_cc == 90 || (nv_cc >= 100 && nv_cc < 110) ? 3 : 2;
    t->fused_step = t->tc && t->trsm_nb == 64 ? 12288 : 0;
    /* double only: single precision is not timed with it yet */
    t->potf2_inv = nvidia && (nv_cc == 0 || nv_cc >= 70) ? 1 << LCL_F64 : 0;
    t->chol_lstep = 12288;   /* used only where its kernel exists (NVIDIA, compute capability 8.0 up) */
    /* potrf's trailing updates on 64-wide tiles, two groups a unit (bit 0; tensor cores only): H200,
       same call, n = 16384 / 8192 / 4096: 49.44-49.51 -> 48.15-48.19 / 10.76 -> 10.67 / 3.445 -> 3.386
       ms (cuSOLVER 36.99 ms: 0.747 -> 0.768 at 16384). getrf's (bit 1) was slower: 161.3 -> 200.2 ms
       at 16384, its one-launch panel's groups left waiting (twenty-ninth session). The split potrf's
       (bit 2) on two H200s, n = 32768, same machine: 0.2248 -> 0.2161 s against one H200's 0.366
       (1.63 -> 1.70; thirtieth session) */
    t->upd_narrow = t->tc ? 1 | 4 : 0;
    t->chol_ks = 4;
    t->chol_step_ks = 4;
    t->chol_lah_panel = 1;
    t->ws_cache = 1;
    t->spmv_lds_per_wg = 4;
    t->spmv_wg = t->wg;
    t->bklu_unroll = isgpu;
    /* each level's pivot LUs are one work-group a block, panel after panel (two launches each): at
       M = 256 / 512 a level's take 0.77 / 2.6 ms on an H200, on each of two as on one (BENCHMARKS.md,
       nineteenth session). 32: half the launches, longer panels; two H200s at M = 512 296.4 ms
       against 294.5 (twentieth session, call 12); one H100 at M = 512 1528-1533 against 1532-1537 ms
       (thirty-sixth session): within the spread */
    t->bklu_lr_nb = 16;
    /* the inverses with 4 items a column on NVIDIA: a tail level's (one block of 512) 0.86 ->
       0.43 ms, each item's chain 4 times shorter. Refactors, gen:circuit:1000, same calls (twenty-
       first session): M = 256 one H200 107.2-114.5 -> 104.7-105.0 ms, two 75.1-79.7 -> 73.1-75.3;
       M = 512 within the runs' spread (two: 296.1-317.5 against 301.5-317.5). Elsewhere not timed */
    t->bklu_tri_p = nvidia ? 4 : 1;
    /* a pivot LU panel's interchanges as one permutation in blocks up to 256 rows (BK_SWAP_REG 2):
       one 256 block's LU 0.543 -> 0.515 ms on an H200 (twenty-fourth session, lu_probe) */
    t->bklu_swap_reg = nvidia ? 2 : 0;
    /* several NVIDIA devices: the eager queue's GEMMs leave 15% of the units free (an H200: 19 of
       132, the same rows of groups as the 20 timed), so the pivot LUs' one group a block need not
       wait for a GEMM's group to end. Two H200s, M = 512, same call: 287.3-290.4 -> 281.0-281.3
       ms, the panel kernel 74.8 -> 55.9 us a launch; 36 free 294.2-297.2; M = 256 68-72 ms either
       way. One H200 was not faster (M = 512 473.4-473.6 -> 476.1-477.7 ms), so 0 there */
    t->bklu_eager_free = nvidia ? -1 : 0;
    t->bklu_slack = 150;
    t->bklu_window = 5;
    /* before the first launch, the host's copy of F held every device up: 14 ms a refactor on
       gen:circuit:2000 at M = 256 (H100); a slice of 4096 entries is a few microseconds */
    t->bklu_fslice = 4096;
    t->bklu_ahead = 1;
    t->bklu_xahead = 1;
    /* eager U steps, on any number of devices since call 11 (one H200, gen:circuit:1000, M = 256 /
       512: 134.2 -> 126.2 / 516.7 -> 477.4 ms, with the window below); before the window and the
       second queue it was slower on one (524 -> 553-567 ms at M = 512) and on by default with
       several only (-1, still accepted) */
    t->bklu_eager = 1;
    /* ... but not on several NVIDIA devices from M = 1024: there a level's own GEMMs fill a GPU,
       and the early ones, behind in one queue, held the levels back (1.1 s of 2.0 idle on each).
       Two H200s, gen:circuit:1000, M = 1024: 2.175 -> 1.703 s (on two machines; S2 in each call
       1.33 -> 1.74). One H200 showed no difference: 2.90-2.97 s with them, 2.97 without
       (thirtieth session) */
    t->bklu_eager_m = nvidia ? 1024 : 0;
    /* eager: later columns' A in batches of their own, so that a level waits only for its own
       columns' A (and the window below needs them) */
    t->bklu_eager_arrived = 1;
    /* eager: a level's chain (pivot LU, inverses, L: about 1.1 ms at M = 256 whatever its width,
       one work-group a block) ran alone on the device after the U steps; the later columns' steps
       run on a second queue beside it (two H200s, M = 256 / 512: 84.4 -> 81.0 / 331.6 -> 327.5 ms) */
    t->bklu_eager_queue = 1;
    /* eager, a level ahead: a level's end waits on that queue only up to the next level's columns'
       rounds. Twenty-sixth session, medians of five refactors, M = 256, two / one H200:
       gen:circuit:3000 402.3 -> 379.9 / 626.7 -> 615.9 ms, 1000 75.9 -> 74.3 / 106.5 -> 105.3,
       2000 170.8-178.2 -> 168.8-178.4 / 296.7 -> 292.7; M = 512 the same (829.6 / 830.7 ms) */
    t->bklu_eager_end = 1;
    /* eager, batches: A in level order within a window. Staged by the level before each column's
       first U step, most of A went up at level 1 and the host sat in the driver's enqueue (two
       H200s, M = 512: level 2 began 25-28 ms late). Call 11, two H200s, M = 256 / 512: no window
       85.2 / 320.6 ms, 128 MB 77.5 / 298.2, 512 MB 89.9 / 293.0, 2 GB 88.8 / 337.7; one H200 timed
       at 512 MB only. Call 12, one H200: 128 MB 106.4 / 494.5 ms, 512 MB 126.4 / 482.2. Each
       setting's best is about a twentieth of A (2.6 / 10.4 GB): -1 is that, 16 MB to 1 GB */
    t->bklu_stage_kb = -1;
    t->bklu_lu_wg = 1024;
    t->bklu_lu_split = isgpu ? 256 : 0;   /* H200: a 512 block's LU 4.2 -> 2.4 ms panel by panel (256: 0.91 -> 0.75) */
    t->spmv_hint = nvidia && (nv_cc == 0 || nv_cc >= 80);   /* the matrix streamed (evict-first): x's gathers miss L2 less (+15-19%, H100) */
    t->spmv_split_per_wg = 32;
    /* x above 16 MB in column parts on NVIDIA: an SM's lines live in its half of L2 (25 MB on
       H100 / H200), so a 32 MB x misses there (BENCHMARKS.md, SpMV H200) */
    t->spmv_xpart_kb = nvidia && isgpu ? 16 * 1024 : 0;
    t->spmv_csr_scalar = d->info.type == LCL_DEVICE_CPU;
    t->spmv_vector_min = 16;
    t->spmv_merge_cv = 1.5;
    t->spmv_sell_c = isgpu ? 32 : 8;
    t->spmv_sell_sigma = isgpu ? 256 : 64;
    /* PoCL 4.x and 5.x look a kernel's compiled work-group function up by kernel, local size and
       grid width, but release it by kernel and local size alone: one kernel running on two queues
       or two devices at once, with different grids, fails an assertion and aborts the process
       (pocl_release_dlhandle_cache, seen with Ubuntu 24.04's PoCL 5.0; 6.0 releases the entry it
       took). So one queue a device there, and a build option of its own per device: the kernels
       of two devices then have different hashes. Only CPU memcpy overlap is lost. Debian's 3.1
       aborts so too, rarely (a block-LU two-device test child in 15); there the second build
       a device would cost more than that, so it keeps the default (README). */
    t->pocl_one_queue = lcl__pocl_one_queue(d->info.platform, d->info.driver);
    /* PoCL compiles a kernel when it first runs and keeps it in its own cache, but a program's
       binary holds every kernel compiled: storing one costs them all (Debian's 3.1, 2 cores, cold:
       bklu.cl 89 s and dense.cl 33 s against 1.7 and 11 s from source, the first `lcl demo` 157 s
       against 16), and loading one saves under a second against PoCL's cache. So no binary cache */
    t->binary_cache = !lcl__stristr(d->info.platform, "Portable Computing Language");
    /* OpenCL lets float divide and sqrt be off by 2.5 and 3 ulp unless this is asked for: on an
       H100 the sparse LU's refactor in float differed from the host's by up to 1e-3 on an
       ill-conditioned matrix (bcsstk01; double bit for bit), where PoCL's matched to rounding.
       The factorizations divide about once a column: with it an H100's sgetrf 4096 was 1.1-1.5%
       slower, 16384 and spotrf 0.1-0.7%.
       CPU devices divide in IEEE already: there the option would only change the programs'
       hashes (PoCL's cache cold) */
    if (d->info.type != LCL_DEVICE_CPU) {
        cl_device_fp_config fc = 0;
        t->fp32_exact = d->id && LCL__CL->clGetDeviceInfo(d->id, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fc, &fc, NULL) == CL_SUCCESS &&
                        (fc & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
    }
    /* NVIDIA pins the host memory under a CL_MEM_USE_HOST_PTR buffer (H200: 7.4 -> 55 GB/s uploads
       from it) and takes no device memory for it, where a mapped CL_MEM_ALLOC_HOST_PTR buffer takes
       its size in device memory too: a block LU's A of 42 GB (M = 1024) left its factors too little
       room, 3.6 -> 10.6 s a refactor (thirtieth session). Registering also has no size limit
       (pieces up to the largest buffer) and took 1.4 s for 32 GB against 20 s to map 45 */
    t->host_register = nvidia;
    t->split_chain = 1;
    /* the sparse LU: on CPU devices the host's serial code is faster (BENCHMARKS.md), so there the
       device copy serves lcl_klu_solve_vec only; on GPUs a guess until measured */
    t->klu_refactor = isgpu;
    t->klu_solve_min = 0;   /* H100: the level-scheduled solve is 40-60x the host's on gen:circuit */
    t->klu_wg_max = isgpu ? t->wg : 1;
    t->klu_run_wg = isgpu ? t->wg : LCL__MIN(t->wg, 32);
    t->klu_lanes_max = isgpu ? 32 : 1;
    /* measured rows */
    for (r = 0; r < sizeof lcl__tune_table / sizeof lcl__tune_table[0]; r++) {
        const lcl__tune_row *row = &lcl__tune_table[r];
        if (!lcl__stristr(d->info.name, row->name)) continue;
        for (k = 0; k < 2; k++) if (row->gemm[k].tm) t->gemm[k] = row->gemm[k];
        if (row->dense_nb) t->dense_nb = row->dense_nb;
        if (row->big_n) t->big_n = row->big_n;
        if (row->big_nb_lu) t->big_nb_lu = row->big_nb_lu;
        for (k = 0; k < 2; k++) if (row->big_nb_chol[k]) t->big_nb_chol[k] = row->big_nb_chol[k];
    }
    for (k = 0; k < 2; k++) if (d->info.max_work_group < (size_t)(t->gemm[k].wx * t->gemm[k].wy)) t->gemm[k] = tiny;
    /* the environment (tuning runs and tests; listed in the manual under ENVIRONMENT) */
    if (getenv("LCL_NO_TC")) t->tc = 0;
    if (getenv("LCL_NO_FP32_EXACT")) t->fp32_exact = 0;
    if (getenv("LCL_HALO_SKIP")) t->halo_skip = 1;
    lcl__env_int("LCL_FUSED_STEP", 1, 1 << 30, &t->fused_step);
    if (getenv("LCL_NO_FUSED_STEP") || !t->tc) t->fused_step = 0;
    if (lcl__env_int("LCL_POTF2_INV", 0, 1, &v)) t->potf2_inv = v ? 1 << LCL_F64 | 1 << LCL_F32 : 0;
    lcl__env_int("LCL_CHOL_LSTEP", 0, 1 << 30, &t->chol_lstep);
    lcl__env_int("LCL_CHOL_TAIL", 0, 1 << 30, &t->chol_tail);
    lcl__env_int("LCL_CHOL_KS", 0, 16, &t->chol_ks);
    lcl__env_int("LCL_UPD_NARROW", 0, 7, &t->upd_narrow);
    lcl__env_int("LCL_CHOL_STEP_KS", 0, 16, &t->chol_step_ks);
    lcl__env_int("LCL_CHOL_NARROW_N", 0, 1 << 30, &t->chol_narrow_n);
    lcl__env_int("LCL_CHOL_NARROW_NB", 0, 4096, &t->chol_narrow_nb);
    lcl__env_int("LCL_CHOL_LAH_PANEL", 0, 1, &t->chol_lah_panel);
    t->lu_nt = t->tc ? 1 << LCL_F64 : 0;
    if (lcl__env_int("LCL_LU_NT", 0, 1, &v)) t->lu_nt = v ? 1 << LCL_F64 | 1 << LCL_F32 : 0;
    lcl__env_int("LCL_WS_CACHE", 0, 1, &t->ws_cache);
    /* its local memory: the block, a 32 x 33 scratch and (not NVIDIA) a work-group's shuffle slots */
    if (t->trsm_nb != 64 || d->info.local_mem < (size_t)(64 * 65 + 32 * 33 + t->wg) * sizeof(double)) t->potf2_inv = 0;
    lcl__env_int("LCL_UPD_GROUPS", 1, 1 << 20, &t->upd_groups);
    if (t->upd_groups) t->chol_upd_groups = t->chol_upd_groups_small = t->lu_upd_groups = t->upd_groups;
    lcl__env_int("LCL_GRID_GROUPS", 1, 1 << 20, &t->grid_groups);
    /* LCL_GRID=1 with -DLCL_GRID_PORTABLE in the build options: the one-launch panel elsewhere, for tests */
    if (getenv("LCL_GRID")) t->grid_panel = 1;
    if (getenv("LCL_NO_GRID")) t->grid_panel = 0;
    if (lcl__env_int("LCL_DENSE_NB", 1, 4096, &v)) { t->dense_nb = v; t->big_n = 0; }
    lcl__env_int("LCL_SPMV_LDS", 1, 16, &t->spmv_lds_per_wg);
    lcl__env_int("LCL_SPMV_XPART_KB", 0, 1 << 30, &t->spmv_xpart_kb);
    if (lcl__env_int("LCL_SPMV_WG", 32, 256, &v) && (v & (v - 1)) == 0 && v <= t->wg) t->spmv_wg = v;
    lcl__env_int("LCL_BKLU_LU_WG", 1, 1024, &t->bklu_lu_wg);
    lcl__env_int("LCL_BKLU_LU_SPLIT", 0, 1 << 30, &t->bklu_lu_split);
    lcl__env_int("LCL_BKLU_LR_NB", 4, 32, &t->bklu_lr_nb);
    lcl__env_int("LCL_BKLU_LU_TAIL", 0, 1 << 30, &t->bklu_lu_tail);
    lcl__env_int("LCL_BKLU_TRI_P", 1, 4, &t->bklu_tri_p);
    while (t->bklu_tri_p & (t->bklu_tri_p - 1)) t->bklu_tri_p &= t->bklu_tri_p - 1;   /* a power of 2: 32 / P rows each */
    lcl__env_int("LCL_BKLU_SWAP_REG", 0, 2, &t->bklu_swap_reg);
    lcl__env_int("LCL_BKLU_EAGER", 0, 1, &t->bklu_eager);
    lcl__env_int("LCL_BKLU_AHEAD", 0, 1, &t->bklu_ahead);
    lcl__env_int("LCL_BKLU_XAHEAD", 0, 1, &t->bklu_xahead);
    lcl__env_int("LCL_BKLU_EAGER_ARRIVED", 0, 1, &t->bklu_eager_arrived);
    lcl__env_int("LCL_BKLU_EAGER_QUEUE", 0, 1, &t->bklu_eager_queue);
    lcl__env_int("LCL_BKLU_EAGER_PRIO", 0, 1, &t->bklu_eager_prio);
    lcl__env_int("LCL_BKLU_EAGER_FREE", -1, 4096, &t->bklu_eager_free);
    lcl__env_int("LCL_BKLU_EAGER_END", 0, 1, &t->bklu_eager_end);
    lcl__env_int("LCL_BKLU_EAGER_M", 0, 1 << 30, &t->bklu_eager_m);
    lcl__env_int("LCL_BKLU_EAGER_PACE", 0, 1 << 20, &t->bklu_eager_pace);
    lcl__env_int("LCL_BKLU_STAGE_KB", -1, 1 << 30, &t->bklu_stage_kb);
    lcl__env_int("LCL_BKLU_HOST_THREADS", 0, 1, &t->bklu_host_threads);
    lcl__env_int("LCL_BKLU_SLACK", 100, 1000, &t->bklu_slack);
    lcl__env_int("LCL_BKLU_WINDOW", 0, 50, &t->bklu_window);
    lcl__env_int("LCL_BKLU_FSLICE", 0, 1 << 30, &t->bklu_fslice);
    lcl__env_int("LCL_SPLIT_CHAIN", 0, 1, &t->split_chain);
    lcl__env_int("LCL_SPLIT_NB", 0, 4096, &t->split_nb);
    lcl__env_int("LCL_POCL_ONE_QUEUE", 0, 1, &t->pocl_one_queue);
    lcl__env_int("LCL_BINARY_CACHE", 0, 1, &t->binary_cache);
    lcl__env_int("LCL_HOST_REGISTER", 0, 1, &t->host_register);
    lcl__env_int("LCL_HOST_PIECE_KB", 0, 1 << 30, &t->host_piece_kb);
    lcl__env_int("LCL_KLU_REFACTOR", 0, 1, &t->klu_refactor);
    if (lcl__env_int("LCL_KLU_SOLVE_MIN", 0, 2147483647, &v)) t->klu_solve_min = v;
    {
        const char *e = getenv("LCL_TC_TILE");   /* "WMxWN", e.g. 4x1: work-groups of 4 warps */
        int wm = 0, wn = 0;
        if (e && sscanf(e, "%dx%d", &wm, &wn) == 2 && wm >= 2 && wn >= 1 && wm * wn <= 8 && (wm & (wm - 1)) == 0 && (wn & (wn - 1)) == 0) {
            t->tc_wm = wm;
            t->tc_wn = wn;
        }
    }
    if (t->tc && nv_cc >= 80) {   /* cp.async (sm_80 on): as many stages of 8 columns as the largest tile's fit, 2 or 3 */
        size_t rows = (size_t)LCL__MAX(256, 32 * t->tc_wm + 64 * t->tc_wn);
        for (t->tc_stages = 3; t->tc_stages >= 2 && d->info.local_mem < (size_t)t->tc_stages * rows * 8 * sizeof(double); t->tc_stages--) {}
        if (t->tc_stages < 2) t->tc_stages = 0;
    }
    {
        /* LCL_TUNE_GEMM="TM,TN,TK,WX,WY" sets both tiles, for `lcl tune`; ignored unless consistent */
        const char *e = getenv("LCL_TUNE_GEMM");
        lcl__gemm_tile g;
        if (e && sscanf(e, "%d,%d,%d,%d,%d", &g.tm, &g.tn, &g.tk, &g.wx, &g.wy) == 5 && g.wx > 0 && g.wy > 0 && g.tk > 0 &&
            g.tm % g.wy == 0 && g.tn % g.wx == 0 && (size_t)(g.wx * g.wy) <= d->info.max_work_group)
            t->gemm[0] = t->gemm[1] = g;
    }
}
#endif

/* >>context ------------------------------------------------------------------------------------ */
#ifndef LINALG_CL_NO_OPENCL
LCL__PRIVATE void lcl__device_release(lcl__device *d) {
    int f, p, k;
    for (f = 0; f < LCL__KERNEL_FILE_COUNT; f++)
        for (p = 0; p < 2; p++) {
            lcl__program *pr = &d->prog[f][p];
            for (k = 0; k < pr->nkern; k++) if (pr->kern[k].k) LCL__CL->clReleaseKernel(pr->kern[k].k);
            if (pr->prog) LCL__CL->clReleaseProgram(pr->prog);
            memset(pr, 0, sizeof *pr);
        }
    for (k = 0; k < LCL__WS; k++) if (d->ws[k].m) LCL__CL->clReleaseMemObject(d->ws[k].m);
    memset(d->ws, 0, sizeof d->ws);
    for (k = 0; k < 2; k++)
        if (d->queue[k] && (k == 0 || d->queue[1] != d->queue[0])) LCL__CL->clReleaseCommandQueue(d->queue[k]);
    if (d->cl) LCL__CL->clReleaseContext(d->cl);
    d->queue[0] = d->queue[1] = NULL;
    d->cl = NULL;
}

/* Open the selected devices: one cl_context per device, or with shared one per platform (devices
   of different platforms cannot share one; each device holds a reference), and two in-order queues
   each, so transfers can overlap compute (one under both names on PoCL 4-5: lcl__tune_device). */
LCL__PRIVATE lcl_status lcl__cl_open(lcl_context *ctx, const char *spec, int shared) {
    lcl__cldev *devs = NULL;
    cl_device_id *ids = NULL;
    int n = 0, nsel = 0, i, j, *sel;
    lcl_status st;
    cl_int e;
    st = lcl__cl_enumerate(ctx, &devs, &n);
    if (st != LCL_OK) return st;
    if (n == 0) {
        char why[512];
        snprintf(why, sizeof why, "%s", lcl_last_error(ctx));
        return lcl__fail(ctx, LCL_ERR_BACKEND_UNAVAILABLE, "OpenCL unavailable: %s", why);
    }
    sel = (int *)lcl__alloc(ctx, "device selection", (size_t)n, sizeof(int), &st);
    ids = sel ? (cl_device_id *)lcl__alloc(ctx, "device ids", (size_t)n, sizeof *ids, &st) : NULL;
    if (!ids) { LCL_FREE(sel); LCL_FREE(devs); return st; }
    st = lcl__cl_select(ctx, devs, n, spec, sel, &nsel);
    if (st == LCL_OK) {
        ctx->dev = (lcl__device *)LCL_MALLOC((size_t)nsel * sizeof *ctx->dev);
        if (!ctx->dev) st = lcl__oom(ctx, "devices", (size_t)nsel * sizeof *ctx->dev);
        else memset(ctx->dev, 0, (size_t)nsel * sizeof *ctx->dev);
    }
    for (i = 0; st == LCL_OK && i < nsel; i++) {
        lcl__device *d = &ctx->dev[i];
        cl_context_properties props[3];
        int q;
        int nv_cc = 0;
        d->info = devs[sel[i]].info;
        d->platform = devs[sel[i]].platform;
        d->id = devs[sel[i]].id;
        if (lcl__stristr(d->info.platform, "NVIDIA")) {
            cl_uint ma = 0, mi = 0;   /* cl_nv_device_attribute_query: COMPUTE_CAPABILITY_MAJOR/MINOR_NV */
            if (LCL__CL->clGetDeviceInfo(d->id, 0x4000, sizeof ma, &ma, NULL) == CL_SUCCESS &&
                LCL__CL->clGetDeviceInfo(d->id, 0x4001, sizeof mi, &mi, NULL) == CL_SUCCESS)
                nv_cc = (int)(ma * 10 + mi);
        }
        lcl__tune_device(d, nv_cc);
        ctx->ndev = i + 1;
        for (j = 0; shared && j < i && ctx->dev[j].platform != d->platform; j++) {}
        if (shared && j < i) {      /* the context made with the platform's first device holds it */
            d->cl = ctx->dev[j].cl;
            if ((e = LCL__CL->clRetainContext(d->cl)) != CL_SUCCESS) { d->cl = NULL; st = lcl__clfail(ctx, e, "clRetainContext", d->info.name); break; }
        } else {
            cl_uint nid = 0;
            for (j = i; j < nsel; j++) {   /* (each device once: LCL__DEVICE_REPEAT lists one twice) */
                int k = i;
                while (k < j && sel[k] != sel[j]) k++;
                if (j == i || (shared && devs[sel[j]].platform == d->platform && k == j)) ids[nid++] = devs[sel[j]].id;
            }
            props[0] = CL_CONTEXT_PLATFORM;
            props[1] = (cl_context_properties)d->platform;
            props[2] = 0;
            d->cl = LCL__CL->clCreateContext(props, nid, ids, NULL, NULL, &e);
            if (!d->cl) { st = lcl__clfail(ctx, e, "clCreateContext", d->info.name); break; }
        }
        for (q = 0; q < 2 && st == LCL_OK; q++) {
            if (q == 1 && d->tune.pocl_one_queue) {   /* both names, one queue (released once) */
                d->queue[1] = d->queue[0];
                break;
            }
            d->queue[q] = LCL__CL->clCreateCommandQueue(d->cl, d->id, 0, &e);
            if (!d->queue[q]) st = lcl__clfail(ctx, e, "clCreateCommandQueue", d->info.name);
        }
    }
    LCL_FREE(ids);
    LCL_FREE(sel);
    LCL_FREE(devs);
    return st;
}
#endif

LCL_API lcl_status lcl_context_create(const lcl_context_desc *desc_in, lcl_context **out) {
    lcl_context_desc desc;
    lcl_context *ctx;
    const char *spec, *cache;
    lcl_status st = LCL_OK;
    if (!out) return LCL_ERR_INVALID_ARGUMENT;
    *out = NULL;
    ctx = (lcl_context *)LCL_MALLOC(sizeof *ctx);
    if (!ctx) return LCL_ERR_OUT_OF_MEMORY;
    memset(ctx, 0, sizeof *ctx);
    ctx->msg = ctx->msg_small;
    *out = ctx;
    if (desc_in) desc = *desc_in;
    else memset(&desc, 0, sizeof desc);
    ctx->log = desc.log;
    ctx->log_user = desc.log_user;
    ctx->num_threads = desc.num_threads > 0 ? desc.num_threads : 0;
    spec = desc.device;
    cache = desc.cache_dir;
    if (!desc.ignore_env) {
        const char *e = getenv("LCL_DEVICE");
        if (e && e[0]) spec = e;
        if (!cache) cache = getenv("LCL_CACHE_DIR");
    }
    if (cache && cache[0] && !(ctx->cache_dir = lcl__strdup(cache))) return lcl__oom(ctx, "cache path", strlen(cache));
    if (!desc.build_options && !desc.ignore_env) desc.build_options = getenv("LCL_BUILD_OPTIONS");
    if (!desc.ignore_env) {
        const char *e = getenv("LCL_SHARED_CONTEXT");
        if (e && e[0]) desc.shared_context = atoi(e) != 0 ? 1 : -1;
    }
    if (desc.build_options && !(ctx->build_options = lcl__strdup(desc.build_options)))
        return lcl__oom(ctx, "build options", strlen(desc.build_options));
    if ((int)desc.backend < 0 || (int)desc.backend > (int)LCL_BACKEND_OPENCL)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "unknown backend %d", (int)desc.backend);
    if (desc.num_threads < 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "num_threads %d: 0 (the OpenMP default) or more", desc.num_threads);
    if (desc.shared_context < -1 || desc.shared_context > 1)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "shared_context %d: 0 or 1 (shared), -1 (a cl_context per device)", desc.shared_context);
    if (desc.backend != LCL_BACKEND_AUTO && !lcl_backend_compiled(desc.backend))
        return lcl__fail(ctx, LCL_ERR_BACKEND_UNAVAILABLE, "backend '%s' is not compiled in%s", lcl_backend_name(desc.backend),
                         desc.backend == LCL_BACKEND_OPENMP ? " (build with -fopenmp)" : " (LINALG_CL_NO_OPENCL)");
#ifndef LINALG_CL_NO_OPENCL
    if (desc.backend == LCL_BACKEND_OPENCL || desc.backend == LCL_BACKEND_AUTO) {
        st = lcl__cl_open(ctx, spec, desc.shared_context >= 0);
        if (st == LCL_OK) {
            int i;
            ctx->backend = LCL_BACKEND_OPENCL;
            for (i = 0; i < ctx->ndev; i++)
                lcl__log(ctx, LCL_LOG_INFO, "linalg_cl: using OpenCL device %d: %s (%s)", ctx->dev[i].info.index,
                         ctx->dev[i].info.name, ctx->dev[i].info.platform);
            /* auto: the CPU backends factor faster than a CPU OpenCL device (BENCHMARKS.md) */
            for (i = 0; i < ctx->ndev && ctx->dev[i].info.type == LCL_DEVICE_CPU; i++) {}
            if (desc.backend == LCL_BACKEND_AUTO && i == ctx->ndev) {
                ctx->dense_cpu = 1;
                lcl__log(ctx, LCL_LOG_INFO, "linalg_cl: dense factorizations and solves use the %s backend: the OpenCL device%s "
                         "CPU%s (LCL_BACKEND_OPENCL factors there)", lcl_backend_name(lcl__dense_backend(ctx)), ctx->ndev > 1 ? "s are" : " is a",
                         ctx->ndev > 1 ? "s" : "");
            }
            lcl_clear_error(ctx);
            return LCL_OK;
        }
        {
            int i;
            for (i = 0; i < ctx->ndev; i++) lcl__device_release(&ctx->dev[i]);
            LCL_FREE(ctx->dev);
            ctx->dev = NULL;
            ctx->ndev = 0;
        }
        if (desc.backend == LCL_BACKEND_OPENCL) return st;
        /* auto: fall back, and say so once */
        lcl__log(ctx, LCL_LOG_WARN, "linalg_cl: %s; using the %s backend", lcl_last_error(ctx),
                 lcl_backend_compiled(LCL_BACKEND_OPENMP) ? "openmp" : "serial");
        lcl_clear_error(ctx);
    }
#else
    (void)spec;
#endif
    if (desc.backend == LCL_BACKEND_AUTO)
        ctx->backend = lcl_backend_compiled(LCL_BACKEND_OPENMP) ? LCL_BACKEND_OPENMP : LCL_BACKEND_SERIAL;
    else
        ctx->backend = desc.backend;
    return st == LCL_OK || desc.backend == LCL_BACKEND_AUTO ? LCL_OK : st;
}

LCL_API void lcl_context_destroy(lcl_context *ctx) {
    if (!ctx) return;
    while (ctx->nhost > 0) lcl_host_free(ctx, ctx->host[ctx->nhost - 1].p);
    LCL_FREE(ctx->host);
#ifndef LINALG_CL_NO_OPENCL
    {
        int i;
        for (i = 0; i < ctx->ndev; i++) lcl__device_release(&ctx->dev[i]);
        LCL_FREE(ctx->dev);
    }
#endif
    if (ctx->msg && ctx->msg != ctx->msg_small) LCL_FREE(ctx->msg);
    LCL_FREE(ctx->cache_dir);
    LCL_FREE(ctx->build_options);
    LCL_FREE(ctx);
}
#ifndef LINALG_CL_NO_OPENCL
LCL__PRIVATE int lcl__pinned(lcl__device *d, size_t bytes, cl_mem *buf, char **ptr);
LCL__PRIVATE void lcl__unpin(lcl__device *d, cl_mem buf, char *ptr);
#endif
#ifndef LINALG_CL_NO_OPENCL
/* h->p: bytes of LCL_MALLOC'd memory, page-aligned, under CL_MEM_USE_HOST_PTR buffers of at most the
   device's largest buffer, in each distinct cl_context of the devices (a driver that pins them:
   tune.host_register). The first context's must all be made; the others' as far as they go */
#define LCL__PAGE ((size_t)4096)
/* a registered piece's bytes on device d: whole pages, at most its largest buffer */
LCL__PRIVATE size_t lcl__host_piece(const lcl__device *d) {
    size_t b = d->tune.host_piece_kb ? (size_t)d->tune.host_piece_kb << 10 : (size_t)d->info.max_alloc;
    return LCL__MAX(b / LCL__PAGE * LCL__PAGE, LCL__PAGE);
}
LCL__PRIVATE int lcl__host_register(lcl_context *ctx, size_t bytes, lcl__hostmem *h) {
    const size_t pg = LCL__PAGE;
    size_t off, piece, cap = 0;
    int i, j;
    cl_int e = CL_SUCCESS;
    if (bytes > (size_t)-1 - pg || !(h->base = (char *)LCL_MALLOC(bytes + pg))) return 0;
    h->p = h->base + (pg - (size_t)(uintptr_t)h->base % pg) % pg;
    for (i = 0; i < ctx->ndev; i++) cap += bytes / lcl__host_piece(&ctx->dev[i]) + 1;
    if (!(h->reg = (void **)LCL_MALLOC(cap * sizeof *h->reg))) goto fail;
    for (i = 0; i < ctx->ndev; i++) {
        lcl__device *d = &ctx->dev[i];
        for (j = 0; j < i && ctx->dev[j].cl != d->cl; j++) {}
        if (j < i) continue;    /* a context already done */
        piece = lcl__host_piece(d);
        for (off = 0, e = CL_SUCCESS; off < bytes && e == CL_SUCCESS; off += piece) {
            cl_mem b = LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, LCL__MIN(piece, bytes - off), h->p + off, &e);
            if (b) h->reg[h->nreg++] = (void *)b;
        }
        if (i == 0 && e != CL_SUCCESS) goto fail;
    }
    return 1;
fail:
    while (h->nreg > 0) LCL__CL->clReleaseMemObject((cl_mem)h->reg[--h->nreg]);
    LCL_FREE(h->reg);
    LCL_FREE(h->base);
    h->reg = NULL, h->base = h->p = NULL;
    return 0;
}
#endif
LCL__PRIVATE void lcl__host_release(lcl_context *ctx, lcl__hostmem *h) {
#ifndef LINALG_CL_NO_OPENCL
    if (h->buf) {
        lcl__unpin(&ctx->dev[0], (cl_mem)h->buf, h->p);
        return;
    }
    while (h->nreg > 0) LCL__CL->clReleaseMemObject((cl_mem)h->reg[--h->nreg]);
    LCL_FREE(h->reg);
#else
    (void)ctx;
#endif
    LCL_FREE(h->base);
}
LCL_API lcl_status lcl_host_alloc(lcl_context *ctx, size_t bytes, void **out) {
    lcl__hostmem h, *nh;
    if (!ctx || !out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_host_alloc: NULL argument");
    *out = NULL;
    if (bytes == 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_host_alloc: 0 bytes");
    memset(&h, 0, sizeof h);
    h.bytes = bytes;
#ifndef LINALG_CL_NO_OPENCL
    if (ctx->backend == LCL_BACKEND_OPENCL && ctx->ndev > 0) {
        cl_mem b = NULL;
        if (ctx->dev[0].tune.host_register) lcl__host_register(ctx, bytes, &h);
        else if (lcl__pinned(&ctx->dev[0], bytes, &b, &h.p)) h.buf = (void *)b;
    }
#endif
    if (!h.p && !(h.p = h.base = (char *)LCL_MALLOC(bytes))) return lcl__oom(ctx, "lcl_host_alloc", bytes);
    if (!(nh = (lcl__hostmem *)LCL_REALLOC(ctx->host, (size_t)(ctx->nhost + 1) * sizeof *nh))) {
        lcl__host_release(ctx, &h);
        return lcl__oom(ctx, "lcl_host_alloc", sizeof *nh);
    }
    ctx->host = nh;
    ctx->host[ctx->nhost++] = h;
    *out = h.p;
    return LCL_OK;
}
LCL_API lcl_status lcl_host_free(lcl_context *ctx, void *p) {
    int i;
    if (!p) return LCL_OK;
    if (!ctx) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_host_free: NULL context");
    for (i = 0; i < ctx->nhost && ctx->host[i].p != (char *)p; i++) {}
    if (i == ctx->nhost) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_host_free: %p did not come from lcl_host_alloc of this context", p);
    lcl__host_release(ctx, &ctx->host[i]);
    ctx->host[i] = ctx->host[--ctx->nhost];
    return LCL_OK;
}
/* whether [p, p + bytes) lies in one pinned block of lcl_host_alloc (the DMA reads it directly) */
LCL__PRIVATE int lcl__host_pinned(const lcl_context *ctx, const void *p, size_t bytes) {
    int i;
    for (i = 0; ctx && p && i < ctx->nhost; i++)
        if ((ctx->host[i].buf || ctx->host[i].nreg) && (const char *)p >= ctx->host[i].p && (size_t)((const char *)p - ctx->host[i].p) + bytes <= ctx->host[i].bytes) return 1;
    return 0;
}
LCL_API lcl_backend lcl_context_backend(const lcl_context *ctx) { return ctx ? ctx->backend : LCL_BACKEND_SERIAL; }
LCL_API lcl_backend lcl_dense_backend(const lcl_context *ctx) { return lcl__dense_backend(ctx); }
LCL_API int lcl_context_num_devices(const lcl_context *ctx) { return ctx ? ctx->ndev : 0; }
LCL_API lcl_status lcl_context_device(lcl_context *ctx, int i, lcl_device_info *out) {
    if (!ctx || !out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_context_device: NULL argument");
    if (i < 0 || i >= ctx->ndev)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "device %d out of range: the context has %d OpenCL device(s)", i, ctx->ndev);
#ifndef LINALG_CL_NO_OPENCL
    *out = ctx->dev[i].info;
#endif
    return LCL_OK;
}
LCL_API void lcl_context_cache_stats(const lcl_context *ctx, lcl_cache_stats *out) {
    if (!out) return;
    if (ctx) *out = ctx->cache;
    else memset(out, 0, sizeof *out);
}

/* >>programs ----------------------------------------------------------------------------------- */
#ifndef LINALG_CL_NO_OPENCL
/* The device's tunables as -D options (every kernel file has an #ifndef default for those it
   reads), then the user's options, which may override them. */
LCL__PRIVATE void lcl__build_options(const lcl_context *ctx, const lcl__device *d, lcl_dtype dt, char *out, size_t cap) {
    const lcl__tuning *t = &d->tune;
    char extra[256] = "";   /* the tunables that only a user's option may override */
    size_t at = 0;
    if (t->nv_cc) at += (size_t)snprintf(extra, sizeof extra, " -DLCL_NV_CC=%d", t->nv_cc);
    if (t->pocl_one_queue) at += (size_t)snprintf(extra + at, sizeof extra - at, " -DLCL_DEVICE_INDEX=%d", d->info.index);
    if (t->tc_shape && !(ctx->build_options && strstr(ctx->build_options, "TC_SHAPE")))
        at += (size_t)snprintf(extra + at, sizeof extra - at, " -DTC_SHAPE=%d", t->tc_shape);
    if (t->tc_stages && !(ctx->build_options && strstr(ctx->build_options, "TC_STAGES")))
        at += (size_t)snprintf(extra + at, sizeof extra - at, " -DTC_STAGES=%d", t->tc_stages);
    if (t->spmv_hint && !(ctx->build_options && strstr(ctx->build_options, "SPMV_HINT")))
        at += (size_t)snprintf(extra + at, sizeof extra - at, " -DSPMV_HINT=%d", t->spmv_hint);
    if (t->bklu_unroll && !(ctx->build_options && strstr(ctx->build_options, "BK_LU_UNROLL")))
        at += (size_t)snprintf(extra + at, sizeof extra - at, " -DBK_LU_UNROLL=1");
    if (t->bklu_lr_nb != 16) at += (size_t)snprintf(extra + at, sizeof extra - at, " -DLR_NB=%d", t->bklu_lr_nb);   /* the host's panels too */
    if (t->bklu_swap_reg) at += (size_t)snprintf(extra + at, sizeof extra - at, " -DBK_SWAP_REG=%d", t->bklu_swap_reg);
    if (t->spmv_wg != t->wg) at += (size_t)snprintf(extra + at, sizeof extra - at, " -DSPMV_WG=%d", t->spmv_wg);   /* its launches too */
    if (t->bklu_tri_p != 1) at += (size_t)snprintf(extra + at, sizeof extra - at, " -DBK_TRI_P=%d", t->bklu_tri_p);   /* its launches too */
    if (t->fp32_exact && dt == LCL_F32) snprintf(extra + at, sizeof extra - at, " -cl-fp32-correctly-rounded-divide-sqrt");
    snprintf(out, cap, "-cl-std=CL1.2 -DLCL_FP64=%d -DLCL_WG=%d -DGEMM_TM=%d -DGEMM_TN=%d -DGEMM_TK=%d -DGEMM_WX=%d -DGEMM_WY=%d -DTRSM_NB=%d "
             "-DTC_WM=%d -DTC_WN=%d%s -DSPMV_LDS=%d%s%s",
             dt == LCL_F64 ? 1 : 0, t->wg, t->gemm[dt].tm, t->gemm[dt].tn, t->gemm[dt].tk, t->gemm[dt].wx, t->gemm[dt].wy, t->trsm_nb,
             t->tc_wm, t->tc_wn, extra, t->spmv_lds_per_wg * t->spmv_wg, ctx->build_options ? " " : "", ctx->build_options ? ctx->build_options : "");
}

LCL__PRIVATE lcl_status lcl__build_log(lcl_context *ctx, lcl__device *d, const char *file, cl_program prog, cl_int e, const char *opts) {
    size_t n = 0;
    char *log = NULL;
    lcl_status st;
    LCL__CL->clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, 0, NULL, &n);
    if (n > 0 && n < ((size_t)1 << 26)) log = (char *)LCL_MALLOC(n + 1);
    if (log) {
        if (LCL__CL->clGetProgramBuildInfo(prog, d->id, CL_PROGRAM_BUILD_LOG, n, log, NULL) != CL_SUCCESS) log[0] = 0;
        log[n] = 0;
    }
    st = lcl__fail(ctx, LCL_ERR_BUILD, "kernels/%s failed to build on %s: %s (%d), options \"%s\"; build log:\n%s", file, d->info.name,
                   lcl__cl_errname(e), (int)e, opts, log ? (log[0] ? log : "(empty)") : "(no log)");
    LCL_FREE(log);
    return st;
}

/* Which kernel file declares kernel `name`: the file with the longest declared name that `name`
   starts with (kernels_embedded.h lists them; SFX(lcl_gemm) declares lcl_gemm_d and lcl_gemm_f). */
LCL__PRIVATE int lcl__kernel_file_of(const char *name) {
    int f, best = -1;
    size_t bestlen = 0;
    for (f = 0; f < LCL__KERNEL_FILE_COUNT; f++) {
        const char *t = lcl__kernel_files[f].kernels;
        while (*t) {
            size_t len = strcspn(t, " ");
            if (len > bestlen && strncmp(name, t, len) == 0) { best = f; bestlen = len; }
            t += len;
            while (*t == ' ') t++;
        }
    }
    return best;
}

/* Store d's binary of prog, built for d alone. A program from source belongs to every device of its
   cl_context (several when they share one), and the binary queries answer per device, in
   CL_PROGRAM_DEVICES' order; PoCL answers for the built device alone (one entry of each), so one
   entry is d's. Room for every binary reported: PoCL fills NULL entries, which the standard skips. */
LCL__PRIVATE void lcl__cache_program(lcl_context *ctx, const lcl__device *d, cl_program prog, uint64_t key) {
    cl_device_id ids[64];
    size_t sizes[64], ret = 0, n;
    unsigned char *bins[64];
    cl_uint nd = 0, k = 0, i;
    int ok = 1;
    if (LCL__CL->clGetProgramInfo(prog, CL_PROGRAM_NUM_DEVICES, sizeof nd, &nd, NULL) != CL_SUCCESS || nd < 1 || nd > 64 ||
        LCL__CL->clGetProgramInfo(prog, CL_PROGRAM_DEVICES, nd * sizeof *ids, ids, NULL) != CL_SUCCESS ||
        LCL__CL->clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, 0, NULL, &ret) != CL_SUCCESS)
        return;
    n = ret / sizeof *sizes;
    if (n == nd) for (k = 0; k < nd && ids[k] != d->id; k++) {}
    else if (n != 1) return;
    memset(sizes, 0, sizeof sizes);
    if (k == n || LCL__CL->clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, n * sizeof *sizes, sizes, NULL) != CL_SUCCESS || !sizes[k]) return;
    memset(bins, 0, sizeof bins);
    for (i = 0; i < n && ok; i++) ok = !sizes[i] || (bins[i] = (unsigned char *)LCL_MALLOC(sizes[i])) != NULL;
    if (ok && LCL__CL->clGetProgramInfo(prog, CL_PROGRAM_BINARIES, n * sizeof *bins, bins, NULL) == CL_SUCCESS &&
        lcl__cache_store(ctx, key, bins[k], sizes[k]))
        ctx->cache.stores++;
    for (i = 0; i < n; i++) LCL_FREE(bins[i]);
}

/* Build (or load from the cache) the program of kernel file `file` on device d for dtype, once.
   Each file is its own program, so a file that fails to compile leaves the others working. */
LCL__PRIVATE lcl_status lcl__get_program(lcl_context *ctx, lcl__device *d, int file, lcl_dtype dt, lcl__program **out) {
    lcl__program *p = &d->prog[file][dt == LCL_F32 ? 1 : 0];
    const lcl__kernel_file *kf = &lcl__kernel_files[file];
    char opts[1024];
    const char *srcs[256];
    cl_uint nsrc = 0;
    int c, found = 0;
    uint64_t key = LCL__FNV_INIT;
    cl_int e;
    *out = p;
    if (p->state == 1) return LCL_OK;
    if (dt == LCL_F64 && !d->info.fp64)
        return lcl__fail(ctx, LCL_ERR_NO_FP64, "device '%s' has no double precision (fp64); use single precision (LCL_F32)", d->info.name);
    lcl__build_options(ctx, d, dt, opts, sizeof opts);
    for (c = 0; kf->chunks[c]; c++) {
        if (nsrc == sizeof srcs / sizeof srcs[0]) return lcl__fail(ctx, LCL_ERR_INTERNAL, "%s: too many source chunks", kf->name);
        srcs[nsrc++] = kf->chunks[c];
        key = lcl__fnv(key, srcs[nsrc - 1], strlen(srcs[nsrc - 1]));
    }
    key = lcl__fnv(key, kf->name, strlen(kf->name) + 1);
    key = lcl__fnv(key, opts, strlen(opts) + 1);
    key = lcl__fnv(key, d->info.platform, strlen(d->info.platform) + 1);
    key = lcl__fnv(key, d->info.name, strlen(d->info.name) + 1);
    key = lcl__fnv(key, d->info.vendor, strlen(d->info.vendor) + 1);
    key = lcl__fnv(key, d->info.driver, strlen(d->info.driver) + 1);
    key = lcl__fnv(key, d->info.version, strlen(d->info.version) + 1);
    if (ctx->cache_dir && d->tune.binary_cache) {
        size_t bsize = 0;
        unsigned char *bin = lcl__cache_load(ctx, key, &bsize, &found);
        if (bin) {
            const unsigned char *bp = bin;
            cl_int bst = CL_SUCCESS;
            cl_program prog = LCL__CL->clCreateProgramWithBinary(d->cl, 1, &d->id, &bsize, &bp, &bst, &e);
            LCL_FREE(bin);
            if (prog && e == CL_SUCCESS && bst == CL_SUCCESS &&
                LCL__CL->clBuildProgram(prog, 1, &d->id, opts, NULL, NULL) == CL_SUCCESS) {
                p->prog = prog;
                p->state = 1;
                ctx->cache.hits++;
                return LCL_OK;
            }
            if (prog) LCL__CL->clReleaseProgram(prog);
        }
        if (found) {
            ctx->cache.rejected++;
            lcl__log(ctx, LCL_LOG_WARN, "linalg_cl: cache entry %016llx (%s) for %s was corrupt or stale; rebuilding",
                     (unsigned long long)key, kf->name, d->info.name);
        } else
            ctx->cache.misses++;
    }
    p->prog = LCL__CL->clCreateProgramWithSource(d->cl, nsrc, srcs, NULL, &e);
    if (!p->prog) return lcl__clfail(ctx, e, "clCreateProgramWithSource", d->info.name);
    e = LCL__CL->clBuildProgram(p->prog, 1, &d->id, opts, NULL, NULL);
    if (e != CL_SUCCESS) {
        /* a compile error gives its log; any other failure (no memory, no compiler) is the call's.
           Not remembered: the next call builds again. */
        lcl_status st = e == CL_BUILD_PROGRAM_FAILURE || e == CL_INVALID_BUILD_OPTIONS ? lcl__build_log(ctx, d, kf->name, p->prog, e, opts)
                      : lcl__clfail(ctx, e, "clBuildProgram", d->info.name);
        LCL__CL->clReleaseProgram(p->prog);
        p->prog = NULL;
        return st;
    }
    p->state = 1;
    if (ctx->cache_dir && d->tune.binary_cache) lcl__cache_program(ctx, d, p->prog, key);
    return LCL_OK;
}

/* The built program whose file declares kernel `name`. */
LCL__PRIVATE lcl_status lcl__program_of(lcl_context *ctx, lcl__device *d, lcl_dtype dt, const char *name, lcl__program **out) {
    int f = lcl__kernel_file_of(name);
    *out = NULL;
    if (f < 0) return lcl__fail(ctx, LCL_ERR_INTERNAL, "no kernel file declares kernel %s", name);
    return lcl__get_program(ctx, d, f, dt, out);
}

/* The kernel `name` of a built program, created once and kept in its table; NULL with *e set when
   it cannot be created (*e stays CL_SUCCESS when the table is full). Reports nothing, so a caller may
   probe for a kernel that only some compilers build. */
LCL__PRIVATE cl_kernel lcl__kernel_find(lcl__program *p, const char *name, cl_int *e) {
    cl_kernel k;
    int i;
    *e = CL_SUCCESS;
    for (i = 0; i < p->nkern; i++)
        if (strcmp(p->kern[i].name, name) == 0) return p->kern[i].k;
    if (p->nkern == (int)(sizeof p->kern / sizeof p->kern[0])) return NULL;
    k = LCL__CL->clCreateKernel(p->prog, name, e);
    if (!k) return NULL;
    p->kern[p->nkern].name = name;
    p->kern[p->nkern].k = k;
    p->nkern++;
    return k;
}

/* The kernel `name` of device d for dt, created once. Call sites pass string literals, so a kernel
   made before is found by its name's address, without looking up its file (this runs for every
   launch of a factorization). probe: a kernel the device's compiler did not build (NVIDIA-only
   code) is *out = NULL and LCL_OK, and reports nothing. */
LCL__PRIVATE lcl_status lcl__kernel_get(lcl_context *ctx, lcl__device *d, lcl_dtype dt, const char *name, int probe, cl_kernel *out) {
    lcl__program *p;
    cl_int e;
    lcl_status st;
    int f, i;
    for (f = 0; f < LCL__KERNEL_FILE_COUNT; f++) {
        p = &d->prog[f][dt == LCL_F32 ? 1 : 0];
        for (i = 0; i < p->nkern; i++)
            if (p->kern[i].name == name) { *out = p->kern[i].k; return LCL_OK; }
    }
    if ((st = lcl__program_of(ctx, d, dt, name, &p)) != LCL_OK) return st;
    if ((*out = lcl__kernel_find(p, name, &e)) != NULL || (probe && e != CL_SUCCESS)) return LCL_OK;
    if (e == CL_SUCCESS) return lcl__fail(ctx, LCL_ERR_INTERNAL, "kernel table full");
    {
        char what[128];
        snprintf(what, sizeof what, "clCreateKernel(%s)", name);
        return lcl__clfail(ctx, e, what, d->info.name);
    }
}
LCL__PRIVATE lcl_status lcl__kernel(lcl_context *ctx, lcl__device *d, lcl_dtype dt, const char *name, cl_kernel *out) {
    return lcl__kernel_get(ctx, d, dt, name, 0, out);
}

#endif

LCL_API lcl_status lcl_context_prepare(lcl_context *ctx, lcl_dtype dt) {
    if (!ctx) return LCL_ERR_INVALID_ARGUMENT;
    if (dt != LCL_F32 && dt != LCL_F64) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)dt);
#ifndef LINALG_CL_NO_OPENCL
    {
        int i;
        int f;
        for (i = 0; i < ctx->ndev; i++)
            for (f = 0; f < LCL__KERNEL_FILE_COUNT; f++) {
                lcl__program *p;
                lcl_status st = lcl__get_program(ctx, &ctx->dev[i], f, dt, &p);
                if (st != LCL_OK) return st;
            }
    }
#endif
    return LCL_OK;
}

/* >>opencl ------------------------------------------------------------------------------------- */
/* What every OpenCL operation shares: kernel arguments (one way: lcl__argv with LCL__A), sizes,
   buffers, and the events and queue orderings of the two queues each device has. */
#ifndef LINALG_CL_NO_OPENCL
#define LCL__CLCHK(call, what) do { e = (call); if (e != CL_SUCCESS) { st = lcl__clfail(ctx, e, what, d->info.name); goto done; } } while (0)


/* kernel arguments from n (size, pointer) pairs */
LCL__PRIVATE cl_int lcl__argv(cl_kernel k, int n, ...) {
    va_list ap;
    int i;
    cl_int e = CL_SUCCESS;
    va_start(ap, n);
    for (i = 0; i < n && e == CL_SUCCESS; i++) {
        size_t sz = va_arg(ap, size_t);
        const void *p = va_arg(ap, const void *);
        e = LCL__CL->clSetKernelArg(k, (cl_uint)i, sz, p);
    }
    va_end(ap);
    return e;
}
#define LCL__A(v) sizeof(v), (const void *)&(v)

/* LCL_WG of the kernel files: the 1-D work-group size, a power of two up to 256 that the device allows */
LCL__PRIVATE size_t lcl__wg(const lcl__device *d) { return (size_t)d->tune.wg; }

/* Device buffers: a request over the device's limits is a clear error before any OpenCL call. */
LCL__PRIVATE lcl_status lcl__buffer(lcl_context *ctx, lcl__device *d, size_t bytes, cl_mem_flags flags, cl_mem *out) {
    cl_int e;
    *out = NULL;
    if (bytes > d->info.max_alloc || bytes > d->info.global_mem)
        return lcl__fail(ctx, LCL_ERR_DEVICE_MEMORY, "a %.0f-byte buffer exceeds device '%s' limits (max allocation %.0f, memory %.0f bytes)",
                         (double)bytes, d->info.name, (double)d->info.max_alloc, (double)d->info.global_mem);
    *out = LCL__CL->clCreateBuffer(d->cl, flags, bytes ? bytes : 1, NULL, &e);
    if (!*out) return lcl__clfail(ctx, e, "clCreateBuffer", d->info.name);
    return LCL_OK;
}

/* Scratch of the factorizations (pivots, flags, counters, partial sums), kept per device for the
   next call: the first use of a new buffer costs NVIDIA an allocation on the chain of the first
   panel. The smallest free one that fits, else a new one in a free slot (or in place of a free
   one released), else an uncached one; lcl__ws_put gives it back (releases an uncached one). */
LCL__PRIVATE lcl_status lcl__ws_get(lcl_context *ctx, lcl__device *d, size_t bytes, cl_mem *out) {
    int i, best = -1, slot = -1;
    lcl_status st;
    if (!d->tune.ws_cache) return lcl__buffer(ctx, d, bytes, CL_MEM_READ_WRITE, out);
    for (i = 0; i < LCL__WS; i++) {
        if (d->ws[i].m && !d->ws[i].busy && d->ws[i].bytes >= bytes && (best < 0 || d->ws[i].bytes < d->ws[best].bytes)) best = i;
        if (!d->ws[i].busy && (slot < 0 || (!d->ws[i].m && d->ws[slot].m))) slot = i;   /* an empty slot first */
    }
    if (best >= 0) {
        d->ws[best].busy = 1;
        *out = d->ws[best].m;
        return LCL_OK;
    }
    if ((st = lcl__buffer(ctx, d, bytes, CL_MEM_READ_WRITE, out)) != LCL_OK || slot < 0) return st;
    if (d->ws[slot].m) LCL__CL->clReleaseMemObject(d->ws[slot].m);
    d->ws[slot].m = *out;
    d->ws[slot].bytes = bytes;
    d->ws[slot].busy = 1;
    return LCL_OK;
}
LCL__PRIVATE void lcl__ws_put(lcl__device *d, cl_mem m) {
    int i;
    if (!m) return;
    for (i = 0; i < LCL__WS; i++)
        if (d->ws[i].m == m) {
            d->ws[i].busy = 0;
            return;
        }
    LCL__CL->clReleaseMemObject(m);
}

/* rect transfer of a rows x cols block at (r0, c0) of a row-major device matrix */
LCL__PRIVATE cl_int lcl__cl_rect(lcl__device *d, int write, cl_command_queue q, cl_mem buf, int64_t ld, int64_t r0, int64_t c0,
                                 int64_t rows, int64_t cols, void *host, int64_t hld, size_t es, cl_bool block,
                                 cl_uint nw, const cl_event *w, cl_event *ev) {
    size_t bo[3], ho[3] = {0, 0, 0}, reg[3];
    (void)d;
    bo[0] = (size_t)c0 * es; bo[1] = (size_t)r0; bo[2] = 0;
    reg[0] = (size_t)cols * es; reg[1] = (size_t)rows; reg[2] = 1;
    if (rows <= 0 || cols <= 0) return CL_SUCCESS;
    if (write)
        return LCL__CL->clEnqueueWriteBufferRect(q, buf, block, bo, ho, reg, (size_t)ld * es, 0, (size_t)hld * es, 0, host, nw, w, ev);
    return LCL__CL->clEnqueueReadBufferRect(q, buf, block, bo, ho, reg, (size_t)ld * es, 0, (size_t)hld * es, 0, host, nw, w, ev);
}

/* the compute queue waits for the transfer-queue writes in ev (released here) */
LCL__PRIVATE cl_int lcl__cl_join(lcl__device *d, int n, cl_event *ev) {
    int i;
    cl_int e = LCL__CL->clFlush(d->queue[1]);
    if (e == CL_SUCCESS) e = LCL__CL->clEnqueueBarrierWithWaitList(d->queue[0], (cl_uint)n, ev, NULL);
    for (i = 0; i < n; i++) if (ev[i]) LCL__CL->clReleaseEvent(ev[i]);
    return e;
}

/* queue q waits for *mark, which is then released; nothing to do without one */
LCL__PRIVATE lcl_status lcl__cl_wait_mark(lcl_context *ctx, lcl__device *d, cl_command_queue q, cl_event *mark) {
    cl_int e;
    if (!*mark) return LCL_OK;
    e = LCL__CL->clEnqueueBarrierWithWaitList(q, 1, mark, NULL);
    LCL__CL->clReleaseEvent(*mark);
    *mark = NULL;
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, "clEnqueueBarrierWithWaitList", d->info.name);
}

/* queue b waits for everything enqueued so far on queue a */
LCL__PRIVATE cl_int lcl__cl_after(lcl__device *d, cl_command_queue a, cl_command_queue b) {
    cl_event ev;
    cl_int e = LCL__CL->clEnqueueMarkerWithWaitList(a, 0, NULL, &ev);
    (void)d;
    if (e != CL_SUCCESS) return e;
    e = LCL__CL->clFlush(a);
    if (e == CL_SUCCESS) e = LCL__CL->clEnqueueBarrierWithWaitList(b, 1, &ev, NULL);
    LCL__CL->clReleaseEvent(ev);
    return e;
}

/* pinned host memory of bytes for device d's transfers (a CL_MEM_ALLOC_HOST_PTR buffer, mapped);
   0 (nothing held) when the device cannot give it: the caller then uses pageable memory. In a
   shared cl_context the memory is pinned for every device of it. */
LCL__PRIVATE int lcl__pinned(lcl__device *d, size_t bytes, cl_mem *buf, char **ptr) {
    cl_int e = CL_SUCCESS;
    *ptr = NULL;
    *buf = bytes && bytes <= d->info.max_alloc ? LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, NULL, &e) : NULL;
    if (!*buf) return 0;
    *ptr = (char *)LCL__CL->clEnqueueMapBuffer(d->queue[1], *buf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, 0, NULL, NULL, &e);
    if (!*ptr) {
        LCL__CL->clReleaseMemObject(*buf);
        *buf = NULL;
        return 0;
    }
    return 1;
}
LCL__PRIVATE void lcl__unpin(lcl__device *d, cl_mem buf, char *ptr) {
    if (!buf) return;
    if (ptr && LCL__CL->clEnqueueUnmapMemObject(d->queue[1], buf, ptr, 0, NULL, NULL) == CL_SUCCESS) LCL__CL->clFinish(d->queue[1]);
    LCL__CL->clReleaseMemObject(buf);
}
#endif

/* >>blas1 -------------------------------------------------------------------------------------- */
LCL_API lcl_status lcl_axpy(lcl_context *ctx, lcl_dtype dt, int64_t n, double alpha, const void *x, void *y) {
    int64_t i;
    if (n < 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_axpy: negative length %lld", (long long)n);
    if (n == 0) return LCL_OK;
    if (!x || !y) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_axpy: NULL vector");
    if (dt != LCL_F32 && dt != LCL_F64) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_axpy: unknown dtype %d", (int)dt);
#ifndef LINALG_CL_NO_OPENCL
    if (ctx && ctx->backend == LCL_BACKEND_OPENCL && ctx->ndev > 0) {
        lcl__device *d = &ctx->dev[0];
        size_t bytes, wg = 64, gsz;
        cl_kernel k;
        cl_mem bx = NULL, by = NULL;
        cl_event ev[2] = {NULL, NULL};
        cl_int e = CL_SUCCESS;
        cl_long nn = (cl_long)n;
        float af = (float)alpha;
        lcl_status st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_axpy_f" : "lcl_axpy_d", &k);
        if (st != LCL_OK) return st;
        if (!lcl__mul_size((size_t)n, lcl__dsize(dt), &bytes) || (uint64_t)n > (uint64_t)((size_t)-1 / 2))
            return lcl__fail(ctx, LCL_ERR_OVERFLOW, "lcl_axpy: length %lld too large", (long long)n);
        if ((st = lcl__buffer(ctx, d, bytes, CL_MEM_READ_ONLY, &bx)) != LCL_OK) return st;
        if ((st = lcl__buffer(ctx, d, bytes, CL_MEM_READ_WRITE, &by)) != LCL_OK) { LCL__CL->clReleaseMemObject(bx); return st; }
        /* uploads on the transfer queue, the kernel waits for them on the compute queue */
        e = LCL__CL->clEnqueueWriteBuffer(d->queue[1], bx, CL_FALSE, 0, bytes, x, 0, NULL, &ev[0]);
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueWriteBuffer(d->queue[1], by, CL_FALSE, 0, bytes, y, 0, NULL, &ev[1]);
        if (e == CL_SUCCESS) LCL__CL->clFlush(d->queue[1]);
        if (e != CL_SUCCESS) st = lcl__clfail(ctx, e, "clEnqueueWriteBuffer", d->info.name);
        if (st == LCL_OK) {
            e = dt == LCL_F32 ? lcl__argv(k, 4, LCL__A(nn), LCL__A(af), LCL__A(bx), LCL__A(by))
                              : lcl__argv(k, 4, LCL__A(nn), LCL__A(alpha), LCL__A(bx), LCL__A(by));
            if (e != CL_SUCCESS) st = lcl__clfail(ctx, e, "clSetKernelArg(lcl_axpy)", d->info.name);
        }
        if (st == LCL_OK) {
            gsz = ((size_t)n + wg - 1) / wg * wg;
            e = LCL__CL->clEnqueueNDRangeKernel(d->queue[0], k, 1, NULL, &gsz, &wg, 2, ev, NULL);
            if (e != CL_SUCCESS) st = lcl__clfail(ctx, e, "clEnqueueNDRangeKernel(lcl_axpy)", d->info.name);
        }
        if (st == LCL_OK) {
            e = LCL__CL->clEnqueueReadBuffer(d->queue[0], by, CL_TRUE, 0, bytes, y, 0, NULL, NULL);
            if (e != CL_SUCCESS) st = lcl__clfail(ctx, e, "clEnqueueReadBuffer", d->info.name);
        }
        LCL__CL->clFinish(d->queue[1]);
        if (ev[0]) LCL__CL->clReleaseEvent(ev[0]);
        if (ev[1]) LCL__CL->clReleaseEvent(ev[1]);
        LCL__CL->clReleaseMemObject(bx);
        LCL__CL->clReleaseMemObject(by);
        return st;
    }
#endif
    if (dt == LCL_F64) {
        const double *xd = (const double *)x;
        double *yd = (double *)y;
#ifdef _OPENMP
#pragma omp parallel for if (ctx && ctx->backend == LCL_BACKEND_OPENMP && n > 4096) num_threads(ctx && ctx->num_threads ? ctx->num_threads : omp_get_max_threads())
#endif
        for (i = 0; i < n; i++) yd[i] += alpha * xd[i];
    } else {
        const float *xf = (const float *)x;
        float *yf = (float *)y;
        float af = (float)alpha;
#ifdef _OPENMP
#pragma omp parallel for if (ctx && ctx->backend == LCL_BACKEND_OPENMP && n > 4096) num_threads(ctx && ctx->num_threads ? ctx->num_threads : omp_get_max_threads())
#endif
        for (i = 0; i < n; i++) yf[i] += af * xf[i];
    }
    return LCL_OK;
}
/* >>dense -------------------------------------------------------------------------------------- */
LCL__PRIVATE lcl_status lcl__check_dims(lcl_context *ctx, const char *fn, lcl_dtype dt, int64_t rows, int64_t cols) {
    if (dt != LCL_F32 && dt != LCL_F64) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown dtype %d", fn, (int)dt);
    if (rows < 0 || cols < 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: negative size %lldx%lld", fn, (long long)rows, (long long)cols);
    if (rows > INT32_MAX || cols > INT32_MAX)
        return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s: size %lldx%lld exceeds 2^31-1 per dimension", fn, (long long)rows, (long long)cols);
    return LCL_OK;
}
LCL_API lcl_status lcl_dense_alloc(lcl_context *ctx, lcl_dense *m, lcl_dtype dt, lcl_layout layout, int64_t rows, int64_t cols) {
    lcl_status st;
    int64_t cnt;
    size_t bytes;
    if (!m) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_dense_alloc: NULL matrix");
    memset(m, 0, sizeof *m);
    if ((st = lcl__check_dims(ctx, "lcl_dense_alloc", dt, rows, cols)) != LCL_OK) return st;
    if (layout != LCL_ROW_MAJOR && layout != LCL_COL_MAJOR) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_dense_alloc: unknown layout");
    if (!lcl__mul_i64(rows, cols, &cnt) || (uint64_t)cnt > (uint64_t)((size_t)-1) || !lcl__mul_size((size_t)cnt, lcl__dsize(dt), &bytes))
        return lcl__fail(ctx, LCL_ERR_OVERFLOW, "dense %lldx%lld matrix does not fit in memory addressing", (long long)rows, (long long)cols);
    m->data = LCL_MALLOC(bytes ? bytes : 1);
    if (!m->data) return lcl__oom(ctx, "dense matrix", bytes);
    memset(m->data, 0, bytes);
    m->dtype = dt;
    m->layout = layout;
    m->rows = rows;
    m->cols = cols;
    m->ld = layout == LCL_COL_MAJOR ? (rows > 0 ? rows : 1) : (cols > 0 ? cols : 1);
    m->owner = 1;
    return LCL_OK;
}
LCL_API lcl_status lcl_dense_wrap(lcl_context *ctx, lcl_dense *m, lcl_dtype dt, lcl_layout layout, int64_t rows, int64_t cols,
                                  int64_t ld, void *data) {
    lcl_status st;
    if (!m) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_dense_wrap: NULL matrix");
    memset(m, 0, sizeof *m);
    if ((st = lcl__check_dims(ctx, "lcl_dense_wrap", dt, rows, cols)) != LCL_OK) return st;
    if (ld < (layout == LCL_COL_MAJOR ? rows : cols) || ld < 1)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_dense_wrap: leading dimension %lld < %lld", (long long)ld,
                         (long long)(layout == LCL_COL_MAJOR ? rows : cols));
    if (!data && rows && cols) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_dense_wrap: NULL data");
    m->dtype = dt;
    m->layout = layout;
    m->rows = rows;
    m->cols = cols;
    m->ld = ld;
    m->data = data;
    m->owner = 0;
    return LCL_OK;
}
LCL_API void lcl_dense_free(lcl_dense *m) {
    if (!m) return;
    if (m->owner) LCL_FREE(m->data);
    memset(m, 0, sizeof *m);
}
LCL__PRIVATE size_t lcl__dense_off(const lcl_dense *m, int64_t i, int64_t j) {
    return m->layout == LCL_COL_MAJOR ? (size_t)(j * m->ld + i) : (size_t)(i * m->ld + j);
}
LCL_API double lcl_dense_get(const lcl_dense *m, int64_t i, int64_t j) {
    size_t o;
    if (!m || i < 0 || j < 0 || i >= m->rows || j >= m->cols) return NAN;
    o = lcl__dense_off(m, i, j);
    return m->dtype == LCL_F32 ? (double)((const float *)m->data)[o] : ((const double *)m->data)[o];
}
LCL_API void lcl_dense_set(lcl_dense *m, int64_t i, int64_t j, double v) {
    size_t o;
    if (!m || i < 0 || j < 0 || i >= m->rows || j >= m->cols) return;
    o = lcl__dense_off(m, i, j);
    if (m->dtype == LCL_F32) ((float *)m->data)[o] = (float)v;
    else ((double *)m->data)[o] = v;
}

/* >>dmat --------------------------------------------------------------------------------------- */
/* A dense matrix where the context computes: column-major with leading dimension ld, on the host
   for the CPU backends, in one buffer of one OpenCL device otherwise. */
struct lcl_dmat {
    lcl_dtype dtype;
    int64_t rows, cols, ld;
    void *host;
#ifndef LINALG_CL_NO_OPENCL
    int dev;                    /* index into ctx->dev */
    cl_mem buf;
    struct lcl__multi *split;   /* lcl_dmat_upload_split: the columns over the devices (buf NULL) */
#endif
};

/* >>dense-cpu ---------------------------------------------------------------------------------- */
/* LU and Cholesky on the host: column-major, float and double, serial or OpenMP.

   Typed primitives are written once as macro templates, LCL__DEF_*(S, T), and instantiated for
   double (suffix _d) and float (_s): packing, the register-blocked micro-kernel and macro-kernel,
   row interchanges, and the unblocked factorizations and triangular solves. The drivers are
   written once on untyped pointers and reach the primitives through a per-dtype table (lcl__dops).
   Matrices are addressed with a row and a column stride, so a transpose is a swap of strides.

   GEMM, C += alpha op(A) op(B) with any strides, is BLIS-style: KC x NC panels of B and MC x KC
   blocks of A are packed into NR-column and MR-row micro-panels, and an MR x NR micro-kernel keeps
   its block of C in registers. With GCC or clang the micro-kernel uses GNU vector extensions sized
   for the target (AVX-512: 16x12 double / 32x12 float; AVX: 8x6 / 16x6; otherwise 16-byte
   vectors); elsewhere, or with LCL_DENSE_PORTABLE defined, a plain C 4x4 kernel.

   getrf: right-looking, blocked, partial pivoting; the panel is factored recursively (halves)
   down to LCL__PANEL_BASE columns. Look-ahead: each step packs the panel's L21 once, shared by all
   threads; thread 0 updates the next panel's columns and factors that panel while the other
   threads update the remaining columns in chunks (dynamic schedule), which thread 0 then joins.
   Row interchanges left of each panel are applied at the end. potrf: the same scheme, lower by
   column chunks and upper by row chunks (so the next panel is always chunk 0); the diagonal block
   is factored recursively and the update keeps to the triangle (SYRK through the GEMM).
   LCL_ALG_UNBLOCKED / CROUT / BANACHIEWICZ are the textbook loops, single-threaded: test oracles
   and comparison points. */
#if !defined(LCL_DENSE_PORTABLE) && (defined(__GNUC__) || defined(__clang__))
#define LCL__VEXT 1
#if defined(__AVX512F__)
#define LCL__VB 64
#define LCL__NR 12
#elif defined(__AVX__)
#define LCL__VB 32
#define LCL__NR 6
#elif defined(__aarch64__)
#define LCL__VB 16
#define LCL__NR 12
#else
#define LCL__VB 16
#define LCL__NR 6
#endif
#define LCL__MR_d (2 * LCL__VB / 8)
#define LCL__MR_s (2 * LCL__VB / 4)
#else
#define LCL__VEXT 0
#define LCL__NR 4
#define LCL__MR_d 4
#define LCL__MR_s 4
#endif
#if LCL__NR == 12
#define LCL__NR_EACH(X, V) X(0, V) X(1, V) X(2, V) X(3, V) X(4, V) X(5, V) X(6, V) X(7, V) X(8, V) X(9, V) X(10, V) X(11, V)
#elif LCL__NR == 6
#define LCL__NR_EACH(X, V) X(0, V) X(1, V) X(2, V) X(3, V) X(4, V) X(5, V)
#else
#define LCL__NR_EACH(X, V) X(0, V) X(1, V) X(2, V) X(3, V)
#endif
/* ISO C modes make GCC keep a*b+c unfused; the micro-kernel wants FMA where the target has it */
#if defined(__GNUC__) && !defined(__clang__)
#define LCL__KATTR __attribute__((optimize("fp-contract=fast")))
#else
#define LCL__KATTR
#endif
#ifdef __cplusplus
#define LCL__RESTRICT __restrict
#else
#define LCL__RESTRICT restrict
#endif
#ifdef _OPENMP
#define LCL__OMP(x) _Pragma(#x)
#else
#define LCL__OMP(x)
#endif
#define LCL__PANEL_BASE 16      /* LU panel: columns factored by the unblocked kernel */
#define LCL__TRSM_BASE 32       /* triangular solves: rows solved by the unblocked kernel */
#define LCL__CHOL_BASE 32       /* Cholesky diagonal block: unblocked below this */

/* element (i, j) of a strided matrix */
LCL__PRIVATE char *lcl__at(const void *p, int64_t i, int64_t j, int64_t rs, int64_t cs, size_t es) {
    return (char *)p + (size_t)(i * rs + j * cs) * es;
}

/* ---- typed primitives ---- */
/* Pack an mc x kc block of A into MR-row micro-panels (column by column inside), zero-padded. */
#define LCL__DEF_PACK(S, T) \
LCL__PRIVATE void lcl__packa_##S(int64_t mc, int64_t kc, const void *src, int64_t rs, int64_t cs, void *dst) { \
    const T *a = (const T *)src; \
    T *d = (T *)dst; \
    int64_t i0, i, p; \
    for (i0 = 0; i0 < mc; i0 += LCL__MR_##S, d += kc * LCL__MR_##S) { \
        int64_t ib = LCL__MIN(mc - i0, LCL__MR_##S); \
        const T *s = a + i0 * rs; \
        if (rs == 1 && ib == LCL__MR_##S) { \
            for (p = 0; p < kc; p++) { \
                const T *sp = s + p * cs; \
                T *dp = d + p * LCL__MR_##S; \
                for (i = 0; i < LCL__MR_##S; i++) dp[i] = sp[i]; \
            } \
        } else { \
            for (i = 0; i < ib; i++) { \
                const T *si = s + i * rs; \
                for (p = 0; p < kc; p++) d[p * LCL__MR_##S + i] = si[p * cs]; \
            } \
            for (; i < LCL__MR_##S; i++) \
                for (p = 0; p < kc; p++) d[p * LCL__MR_##S + i] = 0; \
        } \
    } \
} \
/* Pack a kc x nc panel of B into NR-column micro-panels (row by row inside), zero-padded. */ \
LCL__PRIVATE void lcl__packb_##S(int64_t kc, int64_t nc, const void *src, int64_t rs, int64_t cs, void *dst) { \
    const T *b = (const T *)src; \
    T *d = (T *)dst; \
    int64_t j0, j, p; \
    for (j0 = 0; j0 < nc; j0 += LCL__NR, d += kc * LCL__NR) { \
        int64_t jb = LCL__MIN(nc - j0, LCL__NR); \
        const T *s = b + j0 * cs; \
        if (cs == 1 && jb == LCL__NR) { \
            for (p = 0; p < kc; p++) { \
                const T *sp = s + p * rs; \
                T *dp = d + p * LCL__NR; \
                for (j = 0; j < LCL__NR; j++) dp[j] = sp[j]; \
            } \
        } else { \
            for (j = 0; j < jb; j++) { \
                const T *sj = s + j * cs; \
                for (p = 0; p < kc; p++) d[p * LCL__NR + j] = sj[p * rs]; \
            } \
            for (; j < LCL__NR; j++) \
                for (p = 0; p < kc; p++) d[p * LCL__NR + j] = 0; \
        } \
    } \
}

/* The micro-kernel: C[MR x NR] (column-major, ldc) += alpha * A-micro-panel * B-micro-panel. */
#if LCL__VEXT
#define LCL__KDECL(j, V) V c##j##_0 = z, c##j##_1 = z;
#define LCL__KPREF(j, V) __builtin_prefetch(c + (j) * ldc, 1, 3); __builtin_prefetch(c + (j) * ldc + 2 * sizeof(V) / sizeof(*c) - 1, 1, 3);
#define LCL__KFMA(j, V) c##j##_0 += a0 * b[j]; c##j##_1 += a1 * b[j];
#define LCL__KSTORE(j, V) { \
        V t0_, t1_; \
        memcpy(&t0_, c + (j) * ldc, sizeof t0_); \
        memcpy(&t1_, c + (j) * ldc + sizeof(V) / sizeof(*c), sizeof t1_); \
        t0_ += alpha * c##j##_0; \
        t1_ += alpha * c##j##_1; \
        memcpy(c + (j) * ldc, &t0_, sizeof t0_); \
        memcpy(c + (j) * ldc + sizeof(V) / sizeof(*c), &t1_, sizeof t1_); }
#define LCL__DEF_KERNEL(S, T) \
LCL__PRIVATE LCL__KATTR void lcl__kern_##S(int64_t kc, T alpha, const T *LCL__RESTRICT a, const T *LCL__RESTRICT b, T *LCL__RESTRICT c, \
                                int64_t ldc) { \
    typedef T V __attribute__((vector_size(LCL__VB))); \
    V z = {0}; \
    int64_t p; \
    LCL__NR_EACH(LCL__KPREF, V) \
    LCL__NR_EACH(LCL__KDECL, V) \
    for (p = 0; p < kc; p++) { \
        V a0, a1; \
        memcpy(&a0, a, sizeof a0); \
        memcpy(&a1, a + sizeof(V) / sizeof(T), sizeof a1); \
        LCL__NR_EACH(LCL__KFMA, V) \
        a += LCL__MR_##S; \
        b += LCL__NR; \
    } \
    LCL__NR_EACH(LCL__KSTORE, V) \
}
#else
#define LCL__DEF_KERNEL(S, T) \
LCL__PRIVATE LCL__KATTR void lcl__kern_##S(int64_t kc, T alpha, const T *LCL__RESTRICT a, const T *LCL__RESTRICT b, T *LCL__RESTRICT c, \
                                int64_t ldc) { \
    T acc[LCL__MR_##S * LCL__NR]; \
    int64_t p; \
    int i, j; \
    for (i = 0; i < LCL__MR_##S * LCL__NR; i++) acc[i] = 0; \
    for (p = 0; p < kc; p++, a += LCL__MR_##S, b += LCL__NR) \
        for (j = 0; j < LCL__NR; j++) { \
            T bj = b[j]; \
            for (i = 0; i < LCL__MR_##S; i++) acc[j * LCL__MR_##S + i] += a[i] * bj; \
        } \
    for (j = 0; j < LCL__NR; j++) \
        for (i = 0; i < LCL__MR_##S; i++) c[i + j * ldc] += alpha * acc[j * LCL__MR_##S + i]; \
}
#endif

/* The macro-kernel: C[mc x nc] (strides rsc, csc) += alpha * packed A * packed B. tri 1 keeps only
   entries with i - j >= doff (a lower triangle), tri 2 only i - j <= doff (upper). Edge and
   diagonal tiles go through a register-sized buffer. */
#define LCL__DEF_MACRO(S, T) \
LCL__PRIVATE void lcl__macro_##S(int64_t mc, int64_t nc, int64_t kc, double alpha_d, const void *ap, const void *bp, void *cv, \
                                 int64_t rsc, int64_t csc, int tri, int64_t doff) { \
    const T *A = (const T *)ap, *B = (const T *)bp; \
    T *C = (T *)cv, alpha = (T)alpha_d; \
    T tmp[LCL__MR_##S * LCL__NR]; \
    int64_t ir, jr, i, j; \
    for (jr = 0; jr < nc; jr += LCL__NR) { \
        int64_t nr = LCL__MIN(nc - jr, LCL__NR); \
        for (ir = 0; ir < mc; ir += LCL__MR_##S) { \
            int64_t mr = LCL__MIN(mc - ir, LCL__MR_##S); \
            int part = 0; \
            if (tri == 1) { \
                if (ir + mr - 1 - jr < doff) continue; \
                part = ir - (jr + nr - 1) < doff; \
            } else if (tri == 2) { \
                if (ir - (jr + nr - 1) > doff) continue; \
                part = ir + mr - 1 - jr > doff; \
            } \
            if (!part && mr == LCL__MR_##S && nr == LCL__NR && rsc == 1) { \
                lcl__kern_##S(kc, alpha, A + ir * kc, B + jr * kc, C + ir + jr * csc, csc); \
            } else { \
                memset(tmp, 0, sizeof tmp); \
                lcl__kern_##S(kc, (T)1, A + ir * kc, B + jr * kc, tmp, LCL__MR_##S); \
                for (j = 0; j < nr; j++) \
                    for (i = 0; i < mr; i++) { \
                        int64_t d = ir + i - (jr + j); \
                        if ((tri == 1 && d < doff) || (tri == 2 && d > doff)) continue; \
                        C[(ir + i) * rsc + (jr + j) * csc] += alpha * tmp[j * LCL__MR_##S + i]; \
                    } \
            } \
        } \
    } \
}

/* Row interchanges: for k = k1..k2-1 (dir > 0) or back down (dir < 0), swap rows k and
   ipiv[k] - off of the ncol columns at a (strides rs, cs). */
#define LCL__DEF_LASWP(S, T) \
LCL__PRIVATE void lcl__laswp_##S(int64_t ncol, void *av, int64_t rs, int64_t cs, int64_t k1, int64_t k2, const int32_t *ipiv, \
                                 int64_t off, int dir) { \
    T *a = (T *)av; \
    int64_t j, k, q; \
    while (k1 < k2 && ipiv[k1] - off == k1) k1++;       /* no interchange: nothing to do */ \
    while (k2 > k1 && ipiv[k2 - 1] - off == k2 - 1) k2--; \
    if (k2 <= k1 || ncol <= 0) return; \
    if (rs == 1) { \
        for (j = 0; j < ncol; j++) { \
            T *col = a + j * cs; \
            for (q = 0; q < k2 - k1; q++) { \
                int64_t p; \
                k = dir > 0 ? k1 + q : k2 - 1 - q; \
                p = ipiv[k] - off; \
                if (p != k) { T t = col[k]; col[k] = col[p]; col[p] = t; } \
            } \
        } \
    } else { \
        for (q = 0; q < k2 - k1; q++) { \
            int64_t p; \
            k = dir > 0 ? k1 + q : k2 - 1 - q; \
            p = ipiv[k] - off; \
            if (p != k) { \
                T *x = a + k * rs, *y = a + p * rs; \
                for (j = 0; j < ncol; j++) { T t = x[j * cs]; x[j * cs] = y[j * cs]; y[j * cs] = t; } \
            } \
        } \
    } \
}

/* Unblocked LU with partial pivoting of the m x w panel at a (LAPACK getf2): the panel base case.
   ipiv gets local pivot rows + roff. Returns the 1-based column of the first zero pivot, or 0. */
#define LCL__DEF_LU(S, T) \
/* columns k+1 .. w-1, rows k+1 .. m-1 less the outer product of column k and row k: the \
   elimination step both unblocked LUs share */ \
LCL__PRIVATE void lcl__elim_##S(T *a, int64_t lda, int64_t k, int64_t m, int64_t w) { \
    const T *ck = a + k * lda; \
    int64_t i, j; \
    for (j = k + 1; j < w; j++) { \
        T *cj = a + j * lda, f = cj[k]; \
        if (f != 0) \
            for (i = k + 1; i < m; i++) cj[i] -= f * ck[i]; \
    } \
} \
LCL__PRIVATE int64_t lcl__getf2_##S(int64_t m, int64_t w, void *av, int64_t lda, int32_t *ipiv, int64_t roff) { \
    T *a = (T *)av; \
    int64_t k, i, j, info = 0; \
    for (k = 0; k < w && k < m; k++) { \
        T *ck = a + k * lda, mx = LCL__ABS(ck[k]); \
        int64_t p = k; \
        for (i = k + 1; i < m; i++) { \
            T v = LCL__ABS(ck[i]); \
            if (v > mx) { mx = v; p = i; } \
        } \
        ipiv[k] = (int32_t)(p + roff); \
        if (mx != 0) { \
            if (p != k) \
                for (j = 0; j < w; j++) { T *cj = a + j * lda, t = cj[k]; cj[k] = cj[p]; cj[p] = t; } \
            /* divided, not times a reciprocal as LAPACK: a quotient is exact where it can be, so \
               rows that are exact multiples leave an exact zero pivot (no cost above noise, n = 200 to 3000) */ \
            const T d = ck[k]; /* (not reread: the loop vectorizes) */ \
            for (i = k + 1; i < m; i++) ck[i] /= d; \
        } else if (!info) \
            info = k + 1; \
        lcl__elim_##S(a, lda, k, m, w); \
    } \
    return info; \
} \
/* Right-looking LU without pivoting (the textbook unblocked LU). A zero pivot is recorded and its \
   column left unscaled, as LAPACK does, and the elimination goes on. */ \
LCL__PRIVATE int64_t lcl__lu_unb_##S(int64_t n, void *av, int64_t lda) { \
    T *a = (T *)av; \
    int64_t k, i, info = 0; \
    for (k = 0; k < n; k++) { \
        T *ck = a + k * lda; \
        if (ck[k] != 0) \
            for (i = k + 1; i < n; i++) ck[i] /= ck[k]; \
        else if (!info) \
            info = k + 1; \
        lcl__elim_##S(a, lda, k, n, n); \
    } \
    return info; \
} \
/* Crout LU without pivoting: L lower with its diagonal, U unit upper. Column k of L, then row k \
   of U, each from the finished columns and rows before it. */ \
LCL__PRIVATE int64_t lcl__lu_crout_##S(int64_t n, void *av, int64_t lda) { \
    T *a = (T *)av; \
    int64_t k, i, j, p, info = 0; \
    for (k = 0; k < n; k++) { \
        T *ck = a + k * lda; \
        for (p = 0; p < k; p++) { \
            const T *cp = a + p * lda; \
            T f = ck[p]; \
            if (f != 0) \
                for (i = k; i < n; i++) ck[i] -= cp[i] * f; \
        } \
        if (ck[k] == 0 && !info) info = k + 1; \
        for (j = k + 1; j < n; j++) { \
            T *cj = a + j * lda, s = cj[k]; \
            for (p = 0; p < k; p++) s -= a[k + p * lda] * cj[p]; \
            cj[k] = ck[k] != 0 ? s / ck[k] : s; \
        } \
    } \
    return info; \
}

/* Cholesky, lower triangle of the n x n matrix at a with strides (rs, cs) (an upper column-major
   matrix is the lower one of its transpose: strides swapped). Each stops at the first non-positive
   pivot, leaves it in place (as LAPACK) and returns its 1-based index; 0 on success. */
#define LCL__DEF_CHOL(S, T) \
LCL__PRIVATE int64_t lcl__potf2_##S(int64_t n, void *av, int64_t rs, int64_t cs) { \
    T *a = (T *)av; \
    int64_t k, i, j; \
    for (k = 0; k < n; k++) { \
        T *ck = a + k * cs, d = ck[k * rs]; \
        if (!(d > 0)) return k + 1; \
        d = (T)sqrt((double)d); \
        ck[k * rs] = d; \
        for (i = k + 1; i < n; i++) ck[i * rs] /= d; \
        for (j = k + 1; j < n; j++) { \
            T *cj = a + j * cs, f = ck[j * rs]; \
            if (f != 0) \
                for (i = j; i < n; i++) cj[i * rs] -= f * ck[i * rs]; \
        } \
    } \
    return 0; \
} \
/* a(i,j) less the dot product of rows i and j left of column j: the textbook loops' step */ \
LCL__PRIVATE T lcl__cdot_##S(const T *a, int64_t rs, int64_t cs, int64_t i, int64_t j) { \
    T s = a[i * rs + j * cs]; \
    int64_t k; \
    for (k = 0; k < j; k++) s -= a[i * rs + k * cs] * a[j * rs + k * cs]; \
    return s; \
} \
/* column-by-column Crout: column j from dot products of finished rows */ \
LCL__PRIVATE int64_t lcl__chol_crout_##S(int64_t n, void *av, int64_t rs, int64_t cs) { \
    T *a = (T *)av, d; \
    int64_t i, j; \
    for (j = 0; j < n; j++) { \
        d = lcl__cdot_##S(a, rs, cs, j, j); \
        if (!(d > 0)) { a[j * rs + j * cs] = d; return j + 1; } \
        d = (T)sqrt((double)d); \
        a[j * rs + j * cs] = d; \
        for (i = j + 1; i < n; i++) a[i * rs + j * cs] = lcl__cdot_##S(a, rs, cs, i, j) / d; \
    } \
    return 0; \
} \
/* Cholesky-Banachiewicz: row by row */ \
LCL__PRIVATE int64_t lcl__chol_banach_##S(int64_t n, void *av, int64_t rs, int64_t cs) { \
    T *a = (T *)av; \
    int64_t i, j; \
    for (i = 0; i < n; i++) \
        for (j = 0; j <= i; j++) { \
            T s = lcl__cdot_##S(a, rs, cs, i, j); \
            if (i != j) a[i * rs + j * cs] = s / a[j * rs + j * cs]; \
            else if (!(s > 0)) { a[i * rs + i * cs] = s; return i + 1; } \
            else a[i * rs + i * cs] = (T)sqrt((double)s); \
        } \
    return 0; \
}

/* Unblocked triangular solve op(T) X = B in place: T m x m (m <= LCL__TRSM_BASE) lower (forward)
   or upper (backward), unit diagonal or not, strides (rst, cst); B m x n, strides (rsb, csb).
   Row operations on W-column strips of B: row i -= sum_k t(i,k) row k, then row i /= t(i,i), with
   the strip of row i in registers (LCL__TRSM_ROWS, vector targets). A column-major B is transposed
   strip by strip into a buffer first. */
#if LCL__VEXT
#define LCL__EACH8(X, V) X(0, V) X(1, V) X(2, V) X(3, V) X(4, V) X(5, V) X(6, V) X(7, V)
#define LCL__TRLD(v, V) memcpy(&r##v, bi + (v) * (sizeof(V) / sizeof(*bi)), sizeof(V));
#define LCL__TRUP(v, V) { V x_; memcpy(&x_, bk + (v) * (sizeof(V) / sizeof(*bi)), sizeof(V)); r##v -= f * x_; }
#define LCL__TRDIV(v, V) r##v /= d;
#define LCL__TRST(v, V) memcpy(bi + (v) * (sizeof(V) / sizeof(*bi)), &r##v, sizeof(V));
#define LCL__TRSTRIP(S, T) (8 * LCL__VB / (int)sizeof(T))
#define LCL__DEF_TRROWS(S, T) \
LCL__PRIVATE void lcl__trsm_rows_##S(int lower, int unit, int64_t m, const T *t, int64_t rst, int64_t cst, T *b, int64_t rsb) { \
    typedef T V __attribute__((vector_size(LCL__VB))); \
    int64_t q, i, k; \
    for (q = 0; q < m; q++) { \
        T *bi; \
        V r0, r1, r2, r3, r4, r5, r6, r7; \
        i = lower ? q : m - 1 - q; \
        bi = b + i * rsb; \
        LCL__EACH8(LCL__TRLD, V) \
        for (k = lower ? 0 : i + 1; k < (lower ? i : m); k++) { \
            T f = t[i * rst + k * cst]; \
            const T *bk = b + k * rsb; \
            LCL__EACH8(LCL__TRUP, V) \
        } \
        if (!unit) { \
            T d = t[i * rst + i * cst]; \
            LCL__EACH8(LCL__TRDIV, V) \
        } \
        LCL__EACH8(LCL__TRST, V) \
    } \
}
#else
#define LCL__TRSTRIP(S, T) 0
#define LCL__DEF_TRROWS(S, T)
#endif
#define LCL__DEF_TRSM(S, T) \
LCL__DEF_TRROWS(S, T) \
/* rows i of B (strides rsb, 1), columns j0..j1: the plain loops */ \
LCL__PRIVATE void lcl__trsm_rowloop_##S(int lower, int unit, int64_t m, int64_t n, const T *t, int64_t rst, int64_t cst, T *b, \
                                        int64_t rsb) { \
    int64_t q, i, j, k; \
    for (q = 0; q < m; q++) { \
        T *bi; \
        i = lower ? q : m - 1 - q; \
        bi = b + i * rsb; \
        for (k = lower ? 0 : i + 1; k < (lower ? i : m); k++) { \
            T f = t[i * rst + k * cst]; \
            const T *bk = b + k * rsb; \
            if (f != 0) \
                for (j = 0; j < n; j++) bi[j] -= f * bk[j]; \
        } \
        if (!unit) { \
            T d = t[i * rst + i * cst]; \
            for (j = 0; j < n; j++) bi[j] /= d; \
        } \
    } \
} \
LCL__PRIVATE void lcl__trsm_unb_##S(int lower, int unit, int64_t m, int64_t n, const void *tv, int64_t rst, int64_t cst, \
                                    void *bv, int64_t rsb, int64_t csb) { \
    const T *t = (const T *)tv; \
    T *b = (T *)bv; \
    int64_t i, j, k, j0, w = LCL__TRSTRIP(S, T); \
    if (csb == 1 && rsb != 1) { \
        for (j0 = 0; j0 < n; j0 += (w ? w : n)) { \
            if (w && n - j0 >= w) LCL__TRSM_ROWS(S, lower, unit, m, t, rst, cst, b + j0, rsb); \
            else lcl__trsm_rowloop_##S(lower, unit, m, n - j0, t, rst, cst, b + j0, rsb); \
        } \
        return; \
    } \
    if (w && rsb == 1 && n >= 8 && m <= LCL__TRSM_BASE) { \
        T buf[LCL__TRSM_BASE * (LCL__TRSTRIP(S, T) > 0 ? LCL__TRSTRIP(S, T) : 1)]; \
        for (j0 = 0; j0 < n; j0 += w) { \
            int64_t nc = LCL__MIN(w, n - j0); \
            for (j = 0; j < nc; j++) { \
                const T *bj = b + (j0 + j) * csb; \
                for (i = 0; i < m; i++) buf[i * w + j] = bj[i]; \
            } \
            for (; j < w; j++) \
                for (i = 0; i < m; i++) buf[i * w + j] = 0; \
            LCL__TRSM_ROWS(S, lower, unit, m, t, rst, cst, buf, w); \
            for (j = 0; j < nc; j++) { \
                T *bj = b + (j0 + j) * csb; \
                for (i = 0; i < m; i++) bj[i] = buf[i * w + j]; \
            } \
        } \
        return; \
    } \
    for (j = 0; j < n; j++) { \
        T *x = b + j * csb; \
        for (i = lower ? 0 : m - 1; lower ? i < m : i >= 0; i += lower ? 1 : -1) { \
            T xi = x[i * rsb]; \
            if (!unit) x[i * rsb] = xi = xi / t[i * rst + i * cst]; \
            if (xi == 0) continue; \
            if (lower) for (k = i + 1; k < m; k++) x[k * rsb] -= xi * t[k * rst + i * cst]; \
            else for (k = 0; k < i; k++) x[k * rsb] -= xi * t[k * rst + i * cst]; \
        } \
    } \
}
#if LCL__VEXT
#define LCL__TRSM_ROWS(S, lower, unit, m, t, rst, cst, b, rsb) lcl__trsm_rows_##S(lower, unit, m, t, rst, cst, b, rsb)
#else
#define LCL__TRSM_ROWS(S, lower, unit, m, t, rst, cst, b, rsb) lcl__trsm_rowloop_##S(lower, unit, m, 0, t, rst, cst, b, rsb)
#endif

LCL__DEF_PACK(d, double)
LCL__DEF_PACK(s, float)
LCL__DEF_KERNEL(d, double)
LCL__DEF_KERNEL(s, float)
LCL__DEF_MACRO(d, double)
LCL__DEF_MACRO(s, float)
LCL__DEF_LASWP(d, double)
LCL__DEF_LASWP(s, float)
LCL__DEF_LU(d, double)
LCL__DEF_LU(s, float)
LCL__DEF_CHOL(d, double)
LCL__DEF_CHOL(s, float)
LCL__DEF_TRSM(d, double)
LCL__DEF_TRSM(s, float)

/* ---- the per-dtype table the drivers use ---- */
typedef struct lcl__dops {
    size_t es;
    int64_t mr, nr, kc, mc, nc, nb;     /* micro-tile, cache blocks, default LU/Cholesky block */
    void (*packa)(int64_t, int64_t, const void *, int64_t, int64_t, void *);
    void (*packb)(int64_t, int64_t, const void *, int64_t, int64_t, void *);
    void (*macro)(int64_t, int64_t, int64_t, double, const void *, const void *, void *, int64_t, int64_t, int, int64_t);
    void (*laswp)(int64_t, void *, int64_t, int64_t, int64_t, int64_t, const int32_t *, int64_t, int);
    int64_t (*getf2)(int64_t, int64_t, void *, int64_t, int32_t *, int64_t);
    int64_t (*lu_unb)(int64_t, void *, int64_t);
    int64_t (*lu_crout)(int64_t, void *, int64_t);
    int64_t (*potf2)(int64_t, void *, int64_t, int64_t);
    int64_t (*chol_crout)(int64_t, void *, int64_t, int64_t);
    int64_t (*chol_banach)(int64_t, void *, int64_t, int64_t);
    void (*trsm_unb)(int, int, int64_t, int64_t, const void *, int64_t, int64_t, void *, int64_t, int64_t);
} lcl__dops;
/* KC x NR of B (one micro-panel) stays in L1, MC x KC of A in L2, KC x NC of B in L3 */
static const lcl__dops lcl__dops_d = {sizeof(double), LCL__MR_d, LCL__NR, 256, 768, 4080, 192,
    lcl__packa_d, lcl__packb_d, lcl__macro_d, lcl__laswp_d, lcl__getf2_d, lcl__lu_unb_d, lcl__lu_crout_d,
    lcl__potf2_d, lcl__chol_crout_d, lcl__chol_banach_d, lcl__trsm_unb_d};
static const lcl__dops lcl__dops_s = {sizeof(float), LCL__MR_s, LCL__NR, 512, 768, 4080, 192,
    lcl__packa_s, lcl__packb_s, lcl__macro_s, lcl__laswp_s, lcl__getf2_s, lcl__lu_unb_s, lcl__lu_crout_s,
    lcl__potf2_s, lcl__chol_crout_s, lcl__chol_banach_s, lcl__trsm_unb_s};
LCL__PRIVATE const lcl__dops *lcl__dops_for(lcl_dtype dt) { return dt == LCL_F32 ? &lcl__dops_s : &lcl__dops_d; }

/* ---- workspace: per-thread packing buffers and one shared packed operand, one allocation ---- */
typedef struct lcl__tws { char *pa, *pb; } lcl__tws;
typedef struct lcl__ws {
    void *raw;
    char *shared;
    lcl__tws *t;
    int nt;
    int64_t mc, kc, nc;         /* the cache blocks, trimmed to the problem */
} lcl__ws;

LCL__PRIVATE void lcl__ws_free(lcl__ws *ws) {
    LCL_FREE(ws->raw);
    memset(ws, 0, sizeof *ws);
}
/* Buffers for nt threads working on matrices of order <= n; shared_elems for the shared operand. */
LCL__PRIVATE lcl_status lcl__ws_alloc(lcl_context *ctx, const char *fn, const lcl__dops *op, int nt, int64_t n,
                                      int64_t shared_elems, lcl__ws *ws) {
    size_t es = op->es, pa, pb, sh, per, hdr, total = 0;
    char *base;
    int t;
    lcl_status st = LCL_OK;
    memset(ws, 0, sizeof *ws);
    ws->mc = LCL__MIN(op->mc, lcl__round_up(LCL__MAX(n, 1), op->mr));
    ws->kc = LCL__MIN(op->kc, LCL__MAX(n, 1));
    ws->nc = LCL__MIN(op->nc, lcl__round_up(LCL__MAX(n, 1), op->nr));
    pa = (size_t)lcl__round_up(ws->mc * ws->kc * (int64_t)es, 64);
    pb = (size_t)lcl__round_up(ws->kc * ws->nc * (int64_t)es, 64);
    hdr = (size_t)lcl__round_up((int64_t)(sizeof(lcl__tws) * (size_t)nt), 64);
    if (!lcl__mul_size((size_t)shared_elems, es, &sh) || sh > (size_t)-1 / 2 || !lcl__mul_size(pa + pb, (size_t)nt, &per) ||
        per > (size_t)-1 / 4 || hdr > (size_t)-1 / 8)
        return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s: workspace size overflows size_t (order %lld, %d threads)", fn, (long long)n, nt);
    sh = (sh + 63) / 64 * 64;
    total = hdr + sh + per + 64;
    ws->raw = lcl__alloc(ctx, "dense factorization workspace", total, 1, &st);
    if (!ws->raw) return lcl__fail(ctx, st, "%s: %s", fn, lcl_last_error(ctx));
    ws->t = (lcl__tws *)ws->raw;
    base = (char *)ws->raw + hdr;
    base += (64 - (size_t)((uintptr_t)base % 64)) % 64;
    ws->shared = base;
    base += sh;
    for (t = 0; t < nt; t++) {
        ws->t[t].pa = base;
        ws->t[t].pb = base + pa;
        base += pa + pb;
    }
    ws->nt = nt;
    return LCL_OK;
}

LCL__PRIVATE int lcl__dense_threads(const lcl_context *ctx, int64_t n) {
#ifdef _OPENMP
    if (lcl__dense_backend(ctx) == LCL_BACKEND_OPENMP && n >= 128) {
        int t = ctx->num_threads > 0 ? ctx->num_threads : omp_get_max_threads();
        return t > 1 ? t : 1;
    }
#else
    (void)ctx;
#endif
    (void)n;
    return 1;
}

/* ---- GEMM and TRSM on untyped, strided matrices ---- */
/* C (m x n) += alpha * op(A) (m x k) * op(B) (k x n), single-threaded, with the caller's buffers.
   tri/doff as in the macro-kernel (keep i - j >= doff / <= doff). */
LCL__PRIVATE void lcl__gemm(const lcl__dops *op, const lcl__ws *ws, const lcl__tws *w, int64_t m, int64_t n, int64_t k,
                            double alpha, const void *a, int64_t rsa, int64_t csa, const void *b, int64_t rsb, int64_t csb,
                            void *c, int64_t rsc, int64_t csc, int tri, int64_t doff) {
    size_t es = op->es;
    int64_t jc, pc, ic;
    if (m <= 0 || n <= 0 || k <= 0) return;
    if (rsc != 1 && csc == 1) {
        /* C row-major: compute C^T = op(B)^T op(A)^T so that the kernel stores along columns */
        const void *tp = a;
        int64_t t1 = m, t2 = rsa, t3 = csa;
        m = n; n = t1;
        a = b; rsa = csb; csa = rsb;
        b = tp; rsb = t3; csb = t2;
        csc = rsc; rsc = 1;
        tri = tri == 1 ? 2 : tri == 2 ? 1 : 0;
        doff = -doff;
    }
    for (jc = 0; jc < n; jc += ws->nc) {
        int64_t nc = LCL__MIN(ws->nc, n - jc);
        for (pc = 0; pc < k; pc += ws->kc) {
            int64_t kc = LCL__MIN(ws->kc, k - pc);
            int packed = 0;
            for (ic = 0; ic < m; ic += ws->mc) {
                int64_t mc = LCL__MIN(ws->mc, m - ic), d = doff - ic + jc;
                if ((tri == 1 && mc - 1 < d) || (tri == 2 && -(nc - 1) > d)) continue;
                if (!packed) {
                    op->packb(kc, nc, lcl__at(b, pc, jc, rsb, csb, es), rsb, csb, w->pb);
                    packed = 1;
                }
                op->packa(mc, kc, lcl__at(a, ic, pc, rsa, csa, es), rsa, csa, w->pa);
                op->macro(mc, nc, kc, alpha, w->pa, w->pb, lcl__at(c, ic, jc, rsc, csc, es), rsc, csc, tri, d);
            }
        }
    }
}

/* op(T) X = B in place (T lower: forward, upper: backward), recursively: the halves' coupling
   goes through the GEMM, LCL__TRSM_BASE rows at a time through the unblocked solve. */
LCL__PRIVATE void lcl__trsm(const lcl__dops *op, const lcl__ws *ws, const lcl__tws *w, int lower, int unit, int64_t m,
                            int64_t n, const void *t, int64_t rst, int64_t cst, void *b, int64_t rsb, int64_t csb) {
    size_t es = op->es;
    int64_t m1, m2;
    if (m <= 0 || n <= 0) return;
    if (m <= LCL__TRSM_BASE) {
        op->trsm_unb(lower, unit, m, n, t, rst, cst, b, rsb, csb);
        return;
    }
    m1 = lcl__round_up(m / 2, 16);
    if (m1 >= m) m1 = m / 2;
    m2 = m - m1;
    if (lower) {
        lcl__trsm(op, ws, w, 1, unit, m1, n, t, rst, cst, b, rsb, csb);
        lcl__gemm(op, ws, w, m2, n, m1, -1.0, lcl__at(t, m1, 0, rst, cst, es), rst, cst, b, rsb, csb,
                  lcl__at(b, m1, 0, rsb, csb, es), rsb, csb, 0, 0);
        lcl__trsm(op, ws, w, 1, unit, m2, n, lcl__at(t, m1, m1, rst, cst, es), rst, cst, lcl__at(b, m1, 0, rsb, csb, es), rsb, csb);
    } else {
        lcl__trsm(op, ws, w, 0, unit, m2, n, lcl__at(t, m1, m1, rst, cst, es), rst, cst, lcl__at(b, m1, 0, rsb, csb, es), rsb, csb);
        lcl__gemm(op, ws, w, m1, n, m2, -1.0, lcl__at(t, 0, m1, rst, cst, es), rst, cst, lcl__at(b, m1, 0, rsb, csb, es), rsb, csb,
                  b, rsb, csb, 0, 0);
        lcl__trsm(op, ws, w, 0, unit, m1, n, t, rst, cst, b, rsb, csb);
    }
}

/* ---- the shared operand of a step ---- */
/* Pack op(src) into ws->shared, by all threads of the team: as A (isb 0: m x k, MR-row panels) or
   as B (isb 1: k x m, NR-column panels), in KC slices: slice s at s*KC*mpad, panel i at i*u*kc_s. */
LCL__PRIVATE void lcl__pack_shared(const lcl__dops *op, const lcl__ws *ws, int isb, int64_t m, int64_t k, const void *src,
                                   int64_t rs, int64_t cs) {
    size_t es = op->es;
    int64_t u = isb ? op->nr : op->mr, npan = (m + u - 1) / u, ns = (k + ws->kc - 1) / ws->kc, mpad = npan * u;
    int q, nq = (int)(npan * ns);
    LCL__OMP(omp for schedule(static))
    for (q = 0; q < nq; q++) {
        int64_t s = q / npan, i = q % npan, p0 = s * ws->kc, kc = LCL__MIN(ws->kc, k - p0), rows = LCL__MIN(u, m - i * u);
        char *d = ws->shared + (size_t)(p0 * mpad + i * u * kc) * es;
        if (!isb) op->packa(rows, kc, lcl__at(src, i * u, p0, rs, cs, es), rs, cs, d);
        else op->packb(kc, rows, lcl__at(src, p0, i * u, rs, cs, es), rs, cs, d);
    }
}
/* C (m x ncol, column-major ldc) -= Ash * op(B), rows lo.. (lo a multiple of MR); Ash is the shared
   m x k operand, B (k x ncol, strides rsb, csb) is packed here. */
LCL__PRIVATE void lcl__upd_sha(const lcl__dops *op, const lcl__ws *ws, const lcl__tws *w, int64_t m, int64_t k, int64_t lo,
                               const void *b, int64_t rsb, int64_t csb, int64_t ncol, void *c, int64_t ldc, int tri, int64_t doff) {
    size_t es = op->es;
    int64_t mpad = lcl__round_up(m, op->mr), p0, ic, jc;
    for (jc = 0; jc < ncol; jc += ws->nc) {
        int64_t nc = LCL__MIN(ws->nc, ncol - jc);
        for (p0 = 0; p0 < k; p0 += ws->kc) {
            int64_t kc = LCL__MIN(ws->kc, k - p0);
            op->packb(kc, nc, lcl__at(b, p0, jc, rsb, csb, es), rsb, csb, w->pb);
            for (ic = lo; ic < m; ic += ws->mc) {
                int64_t mc = LCL__MIN(ws->mc, m - ic), d = doff - ic + jc;
                if ((tri == 1 && mc - 1 < d) || (tri == 2 && -(nc - 1) > d)) continue;
                op->macro(mc, nc, kc, -1.0, ws->shared + (size_t)(p0 * mpad + ic * kc) * es, w->pb,
                          lcl__at(c, ic, jc, 1, ldc, es), 1, ldc, tri, d);
            }
        }
    }
}
/* C (nrow x m, column-major ldc) -= op(A) * Bsh, columns lo.. (lo a multiple of NR); Bsh is the
   shared k x m operand, A (nrow x k, strides rsa, csa) is packed here. */
LCL__PRIVATE void lcl__upd_shb(const lcl__dops *op, const lcl__ws *ws, const lcl__tws *w, int64_t m, int64_t k, int64_t lo,
                               const void *a, int64_t rsa, int64_t csa, int64_t nrow, void *c, int64_t ldc, int tri, int64_t doff) {
    size_t es = op->es;
    int64_t npad = lcl__round_up(m, op->nr), p0, ic;
    for (p0 = 0; p0 < k; p0 += ws->kc) {
        int64_t kc = LCL__MIN(ws->kc, k - p0);
        for (ic = 0; ic < nrow; ic += ws->mc) {
            int64_t mc = LCL__MIN(ws->mc, nrow - ic);
            op->packa(mc, kc, lcl__at(a, ic, p0, rsa, csa, es), rsa, csa, w->pa);
            op->macro(mc, m - lo, kc, -1.0, w->pa, ws->shared + (size_t)(p0 * npad + lo * kc) * es,
                      lcl__at(c, ic, lo, 1, ldc, es), 1, ldc, tri, doff - ic + lo);
        }
    }
}
/* Width of the chunks the trailing update is split into: one chunk per thread-turn, several per
   thread for balance (more for the triangular Cholesky update), whole NR tiles. */
LCL__PRIVATE int64_t lcl__chunk_w(const lcl__dops *op, const lcl__ws *ws, int64_t rest, int T, int per) {
    int64_t w;
    if (rest <= 0) return 1;
    if (T <= 1) return LCL__MIN(rest, ws->nc);
    w = lcl__round_up((rest + (int64_t)T * per - 1) / ((int64_t)T * per), op->nr);
    w = LCL__MAX(w, 4 * op->nr);
    return LCL__MIN(w, ws->nc);
}

/* ---- LU ---- */
/* Factor the m x nw panel at a (row r0 of the matrix) with partial pivoting, recursively; ipiv
   gets global rows. Returns the 1-based local column of the first zero pivot, or 0. */
LCL__PRIVATE int64_t lcl__lu_panel(const lcl__dops *op, const lcl__ws *ws, const lcl__tws *w, int64_t m, int64_t nw, void *a,
                                   int64_t lda, int32_t *ipiv, int64_t r0) {
    size_t es = op->es;
    int64_t w1, w2, i1, i2;
    if (nw <= LCL__PANEL_BASE) return op->getf2(m, nw, a, lda, ipiv, r0);
    w1 = nw / 2 > 8 ? lcl__round_up(nw / 2, 8) : nw / 2;
    w2 = nw - w1;
    i1 = lcl__lu_panel(op, ws, w, m, w1, a, lda, ipiv, r0);
    op->laswp(w2, lcl__at(a, 0, w1, 1, lda, es), 1, lda, 0, w1, ipiv, r0, 1);
    lcl__trsm(op, ws, w, 1, 1, w1, w2, a, 1, lda, lcl__at(a, 0, w1, 1, lda, es), 1, lda);
    lcl__gemm(op, ws, w, m - w1, w2, w1, -1.0, lcl__at(a, w1, 0, 1, lda, es), 1, lda, lcl__at(a, 0, w1, 1, lda, es), 1, lda,
              lcl__at(a, w1, w1, 1, lda, es), 1, lda, 0, 0);
    i2 = lcl__lu_panel(op, ws, w, m - w1, w2, lcl__at(a, w1, w1, 1, lda, es), lda, ipiv + w1, r0 + w1);
    op->laswp(w1, lcl__at(a, w1, 0, 1, lda, es), 1, lda, 0, w2, ipiv + w1, r0 + w1, 1);
    return i1 ? i1 : i2 ? i2 + w1 : 0;
}
/* Bring columns c0..c1 up to date with the step's panel (columns j..j+jb): its row interchanges,
   U12 = L11^-1 A12, A22 -= L21 U12 with L21 from the shared buffer. */
LCL__PRIVATE void lcl__lu_chunk(const lcl__dops *op, const lcl__ws *ws, const lcl__tws *w, int64_t n, char *a, int64_t lda,
                                const int32_t *ipiv, int64_t j, int64_t jb, int64_t c0, int64_t c1) {
    size_t es = op->es;
    int64_t r = j + jb, nc = c1 - c0;
    op->laswp(nc, lcl__at(a, 0, c0, 1, lda, es), 1, lda, j, r, ipiv, 0, 1);
    lcl__trsm(op, ws, w, 1, 1, jb, nc, lcl__at(a, j, j, 1, lda, es), 1, lda, lcl__at(a, j, c0, 1, lda, es), 1, lda);
    if (r < n)
        lcl__upd_sha(op, ws, w, n - r, jb, 0, lcl__at(a, j, c0, 1, lda, es), 1, lda, nc, lcl__at(a, r, c0, 1, lda, es), lda, 0, 0);
}
/* ---- Cholesky ---- */
/* The lower triangle (in the strides' view) of the n x n diagonal block, recursively. */
LCL__PRIVATE int64_t lcl__chol_diag(const lcl__dops *op, const lcl__ws *ws, const lcl__tws *w, int64_t n, void *a, int64_t rs,
                                    int64_t cs) {
    size_t es = op->es;
    int64_t n1, i;
    void *a21, *a22;
    if (n <= LCL__CHOL_BASE) return op->potf2(n, a, rs, cs);
    n1 = lcl__round_up(n / 2, 16);
    if (n1 >= n) n1 = n / 2;
    a21 = lcl__at(a, n1, 0, rs, cs, es);
    a22 = lcl__at(a, n1, n1, rs, cs, es);
    if ((i = lcl__chol_diag(op, ws, w, n1, a, rs, cs)) != 0) return i;
    lcl__trsm(op, ws, w, 1, 0, n1, n - n1, a, rs, cs, a21, cs, rs);              /* L11 L21^T = A21^T */
    lcl__gemm(op, ws, w, n - n1, n - n1, n1, -1.0, a21, rs, cs, a21, cs, rs, a22, rs, cs, 1, 0);
    i = lcl__chol_diag(op, ws, w, n - n1, a22, rs, cs);
    return i ? i + n1 : 0;
}
/* Factor the diagonal block at (r, r) of order jb and solve its panel (below for lower, right of it
   for upper). Returns the global 1-based index of a non-positive pivot, or 0. */
LCL__PRIVATE int64_t lcl__chol_panel(const lcl__dops *op, const lcl__ws *ws, const lcl__tws *w, int upper, int64_t n, char *a,
                                     int64_t lda, int64_t r, int64_t jb) {
    size_t es = op->es;
    int64_t i = lcl__chol_diag(op, ws, w, jb, lcl__at(a, r, r, 1, lda, es), upper ? lda : 1, upper ? 1 : lda);
    if (i) return r + i;
    if (r + jb < n) {
        if (!upper)     /* L21 = A21 L11^-T, as L11 L21^T = A21^T */
            lcl__trsm(op, ws, w, 1, 0, jb, n - r - jb, lcl__at(a, r, r, 1, lda, es), 1, lda, lcl__at(a, r + jb, r, 1, lda, es), lda, 1);
        else            /* U12 = U11^-T A12 */
            lcl__trsm(op, ws, w, 1, 0, jb, n - r - jb, lcl__at(a, r, r, 1, lda, es), lda, 1, lcl__at(a, r, r + jb, 1, lda, es), 1, lda);
    }
    return 0;
}
/* The trailing update of chunk c0..c1 (columns for lower, rows for upper) by the step's panel. */
LCL__PRIVATE void lcl__chol_chunk(const lcl__dops *op, const lcl__ws *ws, const lcl__tws *w, int upper, int64_t n, char *a,
                                  int64_t lda, int64_t j, int64_t jb, int64_t c0, int64_t c1) {
    size_t es = op->es;
    int64_t r = j + jb;
    if (!upper)         /* A(c0:n, c0:c1) -= L21(c0:n) L21(c0:c1)^T, lower part */
        lcl__upd_sha(op, ws, w, n - r, jb, (c0 - r) / op->mr * op->mr, lcl__at(a, c0, j, 1, lda, es), lda, 1, c1 - c0,
                     lcl__at(a, r, c0, 1, lda, es), lda, 1, c0 - r);
    else                /* A(c0:c1, c0:n) -= U12(:, c0:c1)^T U12(:, c0:n), upper part */
        lcl__upd_shb(op, ws, w, n - r, jb, (c0 - r) / op->nr * op->nr, lcl__at(a, j, c0, 1, lda, es), lda, 1, c1 - c0,
                     lcl__at(a, c0, r, 1, lda, es), lda, 2, r - c0);
}
/* ---- the blocked driver, LU and Cholesky ---- */
/* what a step factors and updates: LU (ipiv) or Cholesky (lower, or upper by row chunks) */
typedef struct lcl__fact {
    int chol, upper;
    int32_t *ipiv;
} lcl__fact;
/* the panel at (r, r), jb wide: the global 1-based index of its first zero pivot / non-positive
   minor, or 0 */
LCL__PRIVATE int64_t lcl__fact_panel(const lcl__dops *op, const lcl__ws *ws, const lcl__tws *w, const lcl__fact *f, int64_t n, char *a,
                                     int64_t lda, int64_t r, int64_t jb) {
    int64_t i;
    if (f->chol) return lcl__chol_panel(op, ws, w, f->upper, n, a, lda, r, jb);
    i = lcl__lu_panel(op, ws, w, n - r, jb, lcl__at(a, r, r, 1, lda, op->es), lda, f->ipiv + r, r);
    return i ? r + i : 0;
}
/* the step's trailing update of chunk c0..c1 */
LCL__PRIVATE void lcl__fact_chunk(const lcl__dops *op, const lcl__ws *ws, const lcl__tws *w, const lcl__fact *f, int64_t n, char *a,
                                  int64_t lda, int64_t j, int64_t jb, int64_t c0, int64_t c1) {
    if (f->chol) lcl__chol_chunk(op, ws, w, f->upper, n, a, lda, j, jb, c0, c1);
    else lcl__lu_chunk(op, ws, w, n, a, lda, f->ipiv, j, jb, c0, c1);
}
/* Right-looking with look-ahead: each step packs the panel's L21 (upper Cholesky: U12) once,
   shared by all threads; thread 0 updates the next panel's columns (rows) and factors that panel
   while the others update the rest in chunks. Cholesky stops at its first non-positive minor, LU
   goes on and keeps the first zero pivot; LU's row interchanges left of each panel come last. */
LCL__PRIVATE int64_t lcl__blocked(const lcl__dops *op, const lcl__ws *ws, int nt, const lcl__fact *f, int64_t n, char *a, int64_t lda,
                                  int64_t nb) {
    size_t es = op->es;
    int64_t bad = 0;
    (void)nt;
    LCL__OMP(omp parallel num_threads(nt) if (nt > 1))
    {
        int t = 0, T = 1, ci, nch, bi, nblk;
        int64_t j;
        const lcl__tws *w;
#ifdef _OPENMP
        t = omp_get_thread_num();
        T = omp_get_num_threads();
#endif
        w = &ws->t[t];
        if (t == 0) bad = lcl__fact_panel(op, ws, w, f, n, a, lda, 0, LCL__MIN(nb, n));
        LCL__OMP(omp barrier)
        for (j = 0; j < n; j += nb) {
            int64_t jb = LCL__MIN(nb, n - j), r = j + jb, m = n - r, jb2, rest, cw;
            if (m <= 0 || (f->chol && bad)) break;
            jb2 = LCL__MIN(nb, m);
            if (!f->upper) lcl__pack_shared(op, ws, 0, m, jb, lcl__at(a, r, j, 1, lda, es), 1, lda);
            else lcl__pack_shared(op, ws, 1, m, jb, lcl__at(a, j, r, 1, lda, es), 1, lda);
            rest = m - jb2;
            cw = lcl__chunk_w(op, ws, rest, T, 32);
            /* upper: a row chunk reuses each shared B micro-panel once per MR rows; keep them tall */
            if (f->upper) cw = LCL__MIN(LCL__MAX(cw, 192), ws->mc);
            nch = (int)((rest + cw - 1) / cw);
            if (t == 0) {
                int64_t i;
                lcl__fact_chunk(op, ws, w, f, n, a, lda, j, jb, r, r + jb2);
                i = lcl__fact_panel(op, ws, w, f, n, a, lda, r, jb2);
                if (i && !bad) bad = i;
            }
            LCL__OMP(omp for schedule(dynamic, 1) nowait)
            for (ci = 0; ci < nch; ci++) {
                int64_t c0 = r + jb2 + (int64_t)ci * cw;
                lcl__fact_chunk(op, ws, w, f, n, a, lda, j, jb, c0, LCL__MIN(c0 + cw, n));
            }
            LCL__OMP(omp barrier)
        }
        /* LU: each panel's columns take the row interchanges of the panels after it */
        nblk = f->chol ? 0 : (int)((n + nb - 1) / nb);
        LCL__OMP(omp for schedule(dynamic, 1))
        for (bi = 0; bi < nblk; bi++) {
            int64_t c0 = (int64_t)bi * nb, c1 = LCL__MIN(c0 + nb, n);
            op->laswp(c1 - c0, lcl__at(a, 0, c0, 1, lda, es), 1, lda, c1, n, f->ipiv, 0, 1);
        }
    }
    return bad;
}

/* LU without pivoting of the n x n matrix at a, recursively (the halves' coupling through TRSM and
   GEMM, right-hand sides split among nt threads): the refactor of a sparse LU's dense tail, whose
   pivot order is fixed. A zero pivot stops it; returns its 1-based index, or 0. */
LCL__PRIVATE int64_t lcl__lu_nopiv(const lcl__dops *op, const lcl__ws *ws, int nt, int64_t n, char *a, int64_t lda) {
    size_t es = op->es;
    int64_t n1, n2, i;
    char *a12, *a21, *a22;
    int q, par;
    if (n <= 64) return op->lu_unb(n, a, lda);
    n1 = lcl__round_up(n / 2, 16);
    if (n1 >= n) n1 = n / 2;
    n2 = n - n1;
    a12 = lcl__at(a, 0, n1, 1, lda, es);
    a21 = lcl__at(a, n1, 0, 1, lda, es);
    a22 = lcl__at(a, n1, n1, 1, lda, es);
    if ((i = lcl__lu_nopiv(op, ws, nt, n1, a, lda)) != 0) return i;
    par = nt > 1 && n2 >= 128;
    (void)par;
    LCL__OMP(omp parallel for num_threads(nt) schedule(static, 1) if (par))
    for (q = 0; q < nt; q++) {
        int64_t c0 = n2 * q / nt, c1 = n2 * (q + 1) / nt;
        const lcl__tws *w = &ws->t[q];
        /* L11 U12 = A12 and L21 U11 = A21 (U11^T L21^T = A21^T), this thread's share of each */
        lcl__trsm(op, ws, w, 1, 1, n1, c1 - c0, a, 1, lda, lcl__at(a12, 0, c0, 1, lda, es), 1, lda);
        lcl__trsm(op, ws, w, 1, 0, n1, c1 - c0, a, lda, 1, lcl__at(a21, c0, 0, 1, lda, es), lda, 1);
    }
    LCL__OMP(omp parallel for num_threads(nt) schedule(static, 1) if (par))
    for (q = 0; q < nt; q++) {
        int64_t c0 = n2 * q / nt, c1 = n2 * (q + 1) / nt;
        lcl__gemm(op, ws, &ws->t[q], n2, c1 - c0, n1, -1.0, a21, 1, lda, lcl__at(a12, 0, c0, 1, lda, es), 1, lda,
                  lcl__at(a22, 0, c0, 1, lda, es), 1, lda, 0, 0);
    }
    i = lcl__lu_nopiv(op, ws, nt, n2, a22, lda);
    return i ? i + n1 : 0;
}

/* ---- entry points for the API (and the OpenCL backend's host steps) ---- */
/* the block: the caller's, else op->nb, smaller for small matrices (about 8 steps at least) */
LCL__PRIVATE int64_t lcl__block(const lcl__dops *op, const lcl_dense_opts *o, int64_t n) {
    int64_t nb = o && o->block > 0 ? o->block : LCL__MIN(op->nb, LCL__MAX(64, lcl__round_up(n / 8, 32)));
    return LCL__MAX(1, LCL__MIN(nb, n));
}
/* Crout leaves L with the diagonal and U unit; getrs (and LAPACK) want L unit: L <- L D^-1,
   U <- D U with D = diag(L), in O(n^2). A zero pivot's column stays as it is. */
LCL__PRIVATE void lcl__crout_to_doolittle(lcl_dtype dt, int64_t n, void *a, int64_t lda) {
    int64_t i, j;
    for (j = 0; j < n; j++) {
        if (dt == LCL_F64) {
            double *c = (double *)a, dj = c[j * lda + j];
            if (dj == 0) continue;
            for (i = j + 1; i < n; i++) c[j * lda + i] /= dj;
            for (i = j + 1; i < n; i++) c[i * lda + j] *= dj;
        } else {
            float *c = (float *)a, dj = c[j * lda + j];
            if (dj == 0) continue;
            for (i = j + 1; i < n; i++) c[j * lda + i] /= dj;
            for (i = j + 1; i < n; i++) c[i * lda + j] *= dj;
        }
    }
}

/* the blocked factorization with its workspace: the shared L21 (U12) is KC slices of up to n rows */
LCL__PRIVATE lcl_status lcl__cpu_blocked(lcl_context *ctx, const char *fn, const lcl__dops *op, const lcl__fact *f, int64_t n, void *a,
                                         int64_t lda, const lcl_dense_opts *o, int64_t *info) {
    int64_t nb = lcl__block(op, o, n);
    int nt = lcl__dense_threads(ctx, n);
    lcl__ws ws;
    lcl_status st = lcl__ws_alloc(ctx, fn, op, nt, n, lcl__round_up(n, f->upper ? op->nr : op->mr) * nb, &ws);
    if (st != LCL_OK) return st;
    *info = lcl__blocked(op, &ws, nt, f, n, (char *)a, lda, nb);
    lcl__ws_free(&ws);
    return LCL_OK;
}
/* LU of the n x n column-major matrix at a; info as LAPACK's (0 or the first zero pivot). */
LCL__PRIVATE lcl_status lcl__cpu_getrf(lcl_context *ctx, lcl_dtype dt, int64_t n, void *a, int64_t lda, int32_t *ipiv, int64_t *info,
                                       const lcl_dense_opts *o) {
    const lcl__dops *op = lcl__dops_for(dt);
    lcl_dense_alg alg = o ? o->alg : LCL_ALG_AUTO;
    lcl__fact f;
    int64_t i;
    *info = 0;
    if (n <= 0) return LCL_OK;
    if (alg == LCL_ALG_UNBLOCKED || alg == LCL_ALG_CROUT) {
        for (i = 0; i < n; i++) ipiv[i] = (int32_t)i;
        *info = alg == LCL_ALG_CROUT ? op->lu_crout(n, a, lda) : op->lu_unb(n, a, lda);
        if (alg == LCL_ALG_CROUT) lcl__crout_to_doolittle(dt, n, a, lda);
        return LCL_OK;
    }
    f.chol = f.upper = 0;
    f.ipiv = ipiv;
    return lcl__cpu_blocked(ctx, "lcl_getrf", op, &f, n, a, lda, o, info);
}
/* Cholesky of the n x n column-major matrix at a (the uplo triangle only). */
LCL__PRIVATE lcl_status lcl__cpu_potrf(lcl_context *ctx, lcl_dtype dt, lcl_uplo uplo, int64_t n, void *a, int64_t lda, int64_t *info,
                                       const lcl_dense_opts *o) {
    const lcl__dops *op = lcl__dops_for(dt);
    lcl_dense_alg alg = o ? o->alg : LCL_ALG_AUTO;
    int upper = uplo == LCL_UPPER;
    int64_t rs = upper ? lda : 1, cs = upper ? 1 : lda;
    lcl__fact f;
    *info = 0;
    if (n <= 0) return LCL_OK;
    if (alg == LCL_ALG_UNBLOCKED) { *info = op->potf2(n, a, rs, cs); return LCL_OK; }
    if (alg == LCL_ALG_CROUT) { *info = op->chol_crout(n, a, rs, cs); return LCL_OK; }
    if (alg == LCL_ALG_BANACHIEWICZ) { *info = op->chol_banach(n, a, rs, cs); return LCL_OK; }
    f.chol = 1;
    f.upper = upper;
    f.ipiv = NULL;
    return lcl__cpu_blocked(ctx, "lcl_potrf", op, &f, n, a, lda, o, info);
}
/* The solves split the right-hand sides among the threads. */
LCL__PRIVATE lcl_status lcl__cpu_solve(lcl_context *ctx, const char *fn, lcl_dtype dt, int chol, int flag, int64_t n, int64_t nrhs,
                                       const void *f, int64_t rsf, int64_t csf, const int32_t *ipiv, void *b, int64_t rsb,
                                       int64_t csb) {
    const lcl__dops *op = lcl__dops_for(dt);
    size_t es = op->es;
    lcl__ws ws;
    lcl_status st;
    int nt = lcl__dense_threads(ctx, n), nblk;
    int64_t cw;
    if (n <= 0 || nrhs <= 0) return LCL_OK;
    nt = (int)LCL__MIN((int64_t)nt, (nrhs + op->nr - 1) / op->nr);
    if (nt < 1) nt = 1;
    st = lcl__ws_alloc(ctx, fn, op, nt, n, 0, &ws);
    if (st != LCL_OK) return st;
    cw = lcl__round_up((nrhs + nt - 1) / nt, op->nr);
    nblk = (int)((nrhs + cw - 1) / cw);
    {
        int q;
        LCL__OMP(omp parallel for num_threads(nt) schedule(static, 1) if (nt > 1))
        for (q = 0; q < nblk; q++) {
            int t = 0;
            int64_t j0 = (int64_t)q * cw, nc = LCL__MIN(cw, nrhs - j0);
            void *bj;
            const lcl__tws *w;
#ifdef _OPENMP
            t = omp_get_thread_num();
#endif
            w = &ws.t[t];
            bj = lcl__at(b, 0, j0, rsb, csb, es);
            if (!chol && flag == LCL_NO_TRANS) {            /* P A = L U: x = U^-1 L^-1 P b */
                op->laswp(nc, bj, rsb, csb, 0, n, ipiv, 0, 1);
                lcl__trsm(op, &ws, w, 1, 1, n, nc, f, rsf, csf, bj, rsb, csb);
                lcl__trsm(op, &ws, w, 0, 0, n, nc, f, rsf, csf, bj, rsb, csb);
            } else if (!chol) {                             /* A^T = U^T L^T P: x = P^T L^-T U^-T b */
                lcl__trsm(op, &ws, w, 1, 0, n, nc, f, csf, rsf, bj, rsb, csb);
                lcl__trsm(op, &ws, w, 0, 1, n, nc, f, csf, rsf, bj, rsb, csb);
                op->laswp(nc, bj, rsb, csb, 0, n, ipiv, 0, -1);
            } else if (flag == LCL_LOWER) {                 /* A = L L^T */
                lcl__trsm(op, &ws, w, 1, 0, n, nc, f, rsf, csf, bj, rsb, csb);
                lcl__trsm(op, &ws, w, 0, 0, n, nc, f, csf, rsf, bj, rsb, csb);
            } else {                                        /* A = U^T U */
                lcl__trsm(op, &ws, w, 1, 0, n, nc, f, csf, rsf, bj, rsb, csb);
                lcl__trsm(op, &ws, w, 0, 0, n, nc, f, rsf, csf, bj, rsb, csb);
            }
        }
    }
    lcl__ws_free(&ws);
    return LCL_OK;
}
/* Solve with the LU of lcl__cpu_getrf: factors at lu with strides (rsl, csl), B n x nrhs (rsb, csb). */
LCL__PRIVATE lcl_status lcl__cpu_getrs(lcl_context *ctx, lcl_dtype dt, lcl_trans trans, int64_t n, int64_t nrhs, const void *lu,
                                       int64_t rsl, int64_t csl, const int32_t *ipiv, void *b, int64_t rsb, int64_t csb) {
    return lcl__cpu_solve(ctx, "lcl_getrs", dt, 0, (int)trans, n, nrhs, lu, rsl, csl, ipiv, b, rsb, csb);
}
/* Solve with the Cholesky factor (the uplo triangle at l, strides rsl, csl). */
LCL__PRIVATE lcl_status lcl__cpu_potrs(lcl_context *ctx, lcl_dtype dt, lcl_uplo uplo, int64_t n, int64_t nrhs, const void *l,
                                       int64_t rsl, int64_t csl, void *b, int64_t rsb, int64_t csb) {
    return lcl__cpu_solve(ctx, "lcl_potrs", dt, 1, (int)uplo, n, nrhs, l, rsl, csl, NULL, b, rsb, csb);
}

/* >>dense-opencl ------------------------------------------------------------------------------- */
#ifndef LINALG_CL_NO_OPENCL
/* Device matrices are row-major (row interchanges are then coalesced); uploads of column-major
   data go through a transpose kernel. LU and Cholesky are blocked and right-looking with two
   block sizes: panels of dense_nb columns are factored on the second queue by trsm_nb-wide steps
   (local-memory POTF2/TRSM kernels; the LU pivoting in one launch per step on NVIDIA), and the
   trailing matrix is updated once per panel by the GEMM kernel (FP64 tensor cores on NVIDIA),
   the next panel's columns first, so the panel overlaps the rest (a pipelined look-ahead).
   opts.panel = 1 factors the panels on the host instead. */

/* C = beta*C + alpha*A*op(B) on device d (row-major; see kernels/dense.cl). groups > 0: the
   tensor-core kernel runs at most that many work-groups, each looping over tiles, which leaves
   compute units to kernels on the other queue. */
LCL__PRIVATE lcl_status lcl__cl_gemm_gw(lcl_context *ctx, lcl__device *d, lcl_dtype dt, int M, int N, int K, double alpha,
                                        cl_mem A, int64_t offa, int lda, cl_mem B, int64_t offb, int ldb, int transb,
                                        double beta, cl_mem C, int64_t offc, int ldc, int lower, cl_command_queue q, int groups, int narrow) {
    cl_kernel k;
    cl_int e;
    lcl_status st;
    float af = (float)alpha, bf = (float)beta;
    cl_long oa = offa, ob = offb, oc = offc;
    size_t es = dt == LCL_F32 ? sizeof(float) : sizeof(double);
    size_t gws[2], lws[2];
    int tc = dt == LCL_F64 && d->tune.tc, wn = (N <= 64 && lower <= 1) || narrow ? 1 : d->tune.tc_wn;
    if (M <= 0 || N <= 0 || K <= 0) return LCL_OK;
    if (tc) {   /* absent unless NVIDIA compiled the program: probed */
        if ((st = lcl__kernel_get(ctx, d, dt, lower > 1 ? (wn == 1 ? "lcl_gemm_tc64_split_d" : "lcl_gemm_tc_split_d") : wn == 1 ? "lcl_gemm_tc64_d" : "lcl_gemm_tc_d",
                                  1, &k)) != LCL_OK)
            return st;
        if (!k) d->tune.tc = tc = 0;
    }
    d->seen.narrow_updates += tc && narrow;
    if (!tc && (st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_gemm_f" : "lcl_gemm_d", &k)) != LCL_OK) return st;
    e = lcl__argv(k, 16, LCL__A(M), LCL__A(N), LCL__A(K), es, dt == LCL_F32 ? (const void *)&af : (const void *)&alpha, LCL__A(A),
                  LCL__A(oa), LCL__A(lda), LCL__A(B), LCL__A(ob), LCL__A(ldb), LCL__A(transb),
                  es, dt == LCL_F32 ? (const void *)&bf : (const void *)&beta, LCL__A(C), LCL__A(oc), LCL__A(ldc), LCL__A(lower));
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_gemm)", d->info.name);
    if (tc) {
        int bm = 32 * d->tune.tc_wm, bn = 64 * wn;
        lws[0] = (size_t)(32 * d->tune.tc_wm * wn);
        lws[1] = 1;
        gws[0] = (size_t)((N + bn - 1) / bn) * lws[0];
        gws[1] = (size_t)((M + bm - 1) / bm);
        if (groups > 0 && gws[0] / lws[0] * gws[1] > (size_t)groups) {
            gws[0] = (size_t)groups * lws[0];
            gws[1] = 1;
        }
    } else {
        lws[0] = (size_t)d->tune.gemm[dt].wx;
        lws[1] = (size_t)d->tune.gemm[dt].wy;
        gws[0] = (size_t)((N + d->tune.gemm[dt].tn - 1) / d->tune.gemm[dt].tn) * lws[0];
        gws[1] = (size_t)((M + d->tune.gemm[dt].tm - 1) / d->tune.gemm[dt].tm) * lws[1];
    }
    e = LCL__CL->clEnqueueNDRangeKernel(q, k, 2, NULL, gws, lws, 0, NULL, NULL);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueNDRangeKernel(lcl_gemm)", d->info.name);
    return LCL_OK;
}

/* the same with the kernel's own tile (narrow: 64 wide, lcl_gemm_tc64_d or _tc64_split_d) */
LCL__PRIVATE lcl_status lcl__cl_gemm_g(lcl_context *ctx, lcl__device *d, lcl_dtype dt, int M, int N, int K, double alpha,
                                       cl_mem A, int64_t offa, int lda, cl_mem B, int64_t offb, int ldb, int transb,
                                       double beta, cl_mem C, int64_t offc, int ldc, int lower, cl_command_queue q, int groups) {
    return lcl__cl_gemm_gw(ctx, d, dt, M, N, K, alpha, A, offa, lda, B, offb, ldb, transb, beta, C, offc, ldc, lower, q, groups, 0);
}
/* the same, with LCL_UPD_GROUPS (if set) capping the tensor-core GEMMs of the update queue */
LCL__PRIVATE lcl_status lcl__cl_gemm(lcl_context *ctx, lcl__device *d, lcl_dtype dt, int M, int N, int K, double alpha,
                                     cl_mem A, int64_t offa, int lda, cl_mem B, int64_t offb, int ldb, int transb,
                                     double beta, cl_mem C, int64_t offc, int ldc, int lower, cl_command_queue q) {
    return lcl__cl_gemm_g(ctx, d, dt, M, N, K, alpha, A, offa, lda, B, offb, ldb, transb, beta, C, offc, ldc, lower, q,
                          q == d->queue[0] ? d->tune.upd_groups : 0);
}

LCL__PRIVATE lcl_status lcl__cl_laswp(lcl_context *ctx, lcl__device *d, lcl_dtype dt, cl_mem A, int lda, int c0, int c1,
                                      int k0, int k1, cl_mem ipiv, cl_command_queue q) {
    cl_kernel k;
    cl_int e;
    cl_long off = 0;
    size_t gws, lws = 64;
    lcl_status st;
    if (c1 <= c0 || k1 == k0) return LCL_OK;   /* k1 < k0: undo the pivots, last first */
    st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_laswp_f" : "lcl_laswp_d", &k);
    if (st != LCL_OK) return st;
    e = lcl__argv(k, 8, LCL__A(A), LCL__A(off), LCL__A(lda), LCL__A(c0), LCL__A(c1), LCL__A(k0), LCL__A(k1), LCL__A(ipiv));
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_laswp)", d->info.name);
    gws = (size_t)lcl__round_up(c1 - c0, 64);
    e = LCL__CL->clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueNDRangeKernel(lcl_laswp)", d->info.name);
    return LCL_OK;
}

LCL__PRIVATE lcl_status lcl__cl_transpose(lcl_context *ctx, lcl__device *d, lcl_dtype dt, int rows, int cols, cl_mem in, int64_t offi,
                                          int ldi, cl_mem out, int ldo, cl_command_queue q) {
    cl_kernel k;
    cl_int e;
    cl_long zero = 0, oi = offi;
    size_t gws[2], lws[2] = {16, 16};
    lcl_status st;
    if (rows <= 0 || cols <= 0) return LCL_OK;
    st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_transpose_f" : "lcl_transpose_d", &k);
    if (st != LCL_OK) return st;
    e = lcl__argv(k, 8, LCL__A(rows), LCL__A(cols), LCL__A(in), LCL__A(oi), LCL__A(ldi), LCL__A(out), LCL__A(zero), LCL__A(ldo));
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_transpose)", d->info.name);
    gws[0] = (size_t)lcl__round_up(cols, 16);
    gws[1] = (size_t)lcl__round_up(rows, 16);
    e = LCL__CL->clEnqueueNDRangeKernel(q, k, 2, NULL, gws, lws, 0, NULL, NULL);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueNDRangeKernel(lcl_transpose)", d->info.name);
    return LCL_OK;
}

/* X = inv(L11) (unit) or inv(L11)^T of the kb x kb block at offl; see kernels/dense.cl */
LCL__PRIVATE lcl_status lcl__cl_trtri(lcl_context *ctx, lcl__device *d, lcl_dtype dt, cl_mem L, int64_t offl, int ld, int kb, int unit,
                                      cl_mem X, cl_command_queue q) {
    cl_kernel k;
    cl_int e;
    cl_long o = offl;
    size_t lws = 64, gws = (size_t)lcl__round_up(kb, 64);
    lcl_status st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_trtri_lower_f" : "lcl_trtri_lower_d", &k);
    if (st != LCL_OK) return st;
    e = lcl__argv(k, 7, LCL__A(L), LCL__A(o), LCL__A(ld), LCL__A(kb), LCL__A(unit), LCL__A(X), LCL__A(kb));
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_trtri_lower)", d->info.name);
    e = LCL__CL->clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueNDRangeKernel(lcl_trtri_lower)", d->info.name);
    return LCL_OK;
}

/* In-place triangular solve against the kb x kb diagonal block at offl
   (kb <= d->tune.trsm_nb) right = 0: B (kb x nrhs) = inv(L) B with L unit lower;  right = 1: B (nrhs x kb) = B inv(L)^T. */
LCL__PRIVATE lcl_status lcl__cl_trsm(lcl_context *ctx, lcl__device *d, lcl_dtype dt, int right, cl_mem L, int64_t offl, int ld, int kb,
                                     cl_mem B, int64_t offb, int ldb, int nrhs, cl_command_queue q) {
    cl_kernel k;
    cl_int e;
    cl_long ol = offl, ob = offb;
    size_t lws = 64, gws = (size_t)lcl__round_up(nrhs, 64);
    lcl_status st;
    if (nrhs <= 0) return LCL_OK;
    st = lcl__kernel(ctx, d, dt, right ? (dt == LCL_F32 ? "lcl_trsm_rlt_f" : "lcl_trsm_rlt_d") : (dt == LCL_F32 ? "lcl_trsm_llu_f" : "lcl_trsm_llu_d"), &k);
    if (st != LCL_OK) return st;
    e = lcl__argv(k, 8, LCL__A(L), LCL__A(ol), LCL__A(ld), LCL__A(kb), LCL__A(B), LCL__A(ob), LCL__A(ldb), LCL__A(nrhs));
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_trsm)", d->info.name);
    e = LCL__CL->clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueNDRangeKernel(lcl_trsm)", d->info.name);
    return LCL_OK;
}

/* B (nrhs x kb, in place, ldb) = B Y^T with Y = inv(L11) from lcl_potf2_inv (64 x 64): on the
   tensor cores a GEMM (in place is safe: a work-group's tile spans all kb columns and its rows are
   read before the tile is written), else lcl_trsm_rinv */
LCL__PRIVATE lcl_status lcl__cl_trsm_inv(lcl_context *ctx, lcl__device *d, lcl_dtype dt, cl_mem Y, int kb, cl_mem B, int64_t offb, int ldb, int nrhs,
                                         cl_command_queue q) {
    cl_kernel k;
    cl_int e;
    cl_long ob = offb;
    size_t lws = 64, gws = (size_t)lcl__round_up(nrhs, 64);
    lcl_status st;
    if (nrhs <= 0) return LCL_OK;
    if (dt == LCL_F64 && d->tune.tc)
        return lcl__cl_gemm_g(ctx, d, dt, nrhs, kb, kb, 1.0, B, offb, ldb, Y, 0, 64, 1, 0.0, B, offb, ldb, 0, q, 0);
    if ((st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_trsm_rinv_f" : "lcl_trsm_rinv_d", &k)) != LCL_OK) return st;
    e = lcl__argv(k, 6, LCL__A(Y), LCL__A(kb), LCL__A(B), LCL__A(ob), LCL__A(ldb), LCL__A(nrhs));
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_trsm_rinv)", d->info.name);
    e = LCL__CL->clEnqueueNDRangeKernel(q, k, 1, NULL, &gws, &lws, 0, NULL, NULL);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueNDRangeKernel(lcl_trsm_rinv)", d->info.name);
    return LCL_OK;
}

/* *found = 1 if the rows x cols block at off of buf (row-major, ld; lower: on and below its
   diagonal only) holds NaN or Inf; else left as is */
static const cl_int lcl__zero = 0;   /* the source of non-blocking writes of a zero flag */
/* NaN / Inf in rows x cols at off of buf (lower: on and below the diagonal, see gemm_diag in
   kernels/dense.cl), started on queue 0: *hit (host memory, zeroed here) is set once *ev
   completes. *flag is the caller's to give back (lcl__ws_put). */
LCL__PRIVATE lcl_status lcl__cl_nonfinite_start(lcl_context *ctx, lcl__device *d, lcl_dtype dt, cl_mem buf, cl_long off, int rows, int cols, int ld,
                                                int lower, cl_mem *flag, cl_int *hit, cl_event *ev) {
    cl_kernel k;
    cl_int e = CL_SUCCESS;
    size_t gws[2], lws[2] = {1, 1};
    lcl_status st;
    *hit = 0;
    if (rows <= 0 || cols <= 0) return LCL_OK;
    if ((st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_nonfinite_f" : "lcl_nonfinite_d", &k)) != LCL_OK) return st;
    if ((st = lcl__ws_get(ctx, d, sizeof(cl_int), flag)) != LCL_OK) return st;
    LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], *flag, CL_FALSE, 0, sizeof(cl_int), &lcl__zero, 0, NULL, NULL), "clEnqueueWriteBuffer");
    LCL__CLCHK(lcl__argv(k, 7, LCL__A(rows), LCL__A(cols), LCL__A(buf), LCL__A(off), LCL__A(ld), LCL__A(*flag), LCL__A(lower)),
               "clSetKernelArg(lcl_nonfinite)");
    lws[0] = gws[0] = (size_t)LCL__MIN(lcl__round_up(cols, 32), (int64_t)LCL__MIN(d->tune.wg, 256));   /* a work-group a row */
    gws[1] = (size_t)rows;
    LCL__CLCHK(LCL__CL->clEnqueueNDRangeKernel(d->queue[0], k, 2, NULL, gws, lws, 0, NULL, NULL), "clEnqueueNDRangeKernel(lcl_nonfinite)");
    LCL__CLCHK(LCL__CL->clEnqueueReadBuffer(d->queue[0], *flag, CL_FALSE, 0, sizeof(cl_int), hit, 0, NULL, ev), "clEnqueueReadBuffer");
    LCL__CLCHK(LCL__CL->clFlush(d->queue[0]), "clFlush");
done:
    return st;
}
/* wait for a read into host memory the caller frees next; if the wait fails, finish its queue
   all the same (a failed wait does not mean the read is over) */
LCL__PRIVATE cl_int lcl__wait_read(cl_event ev, cl_command_queue q) {
    cl_int e = LCL__CL->clWaitForEvents(1, &ev);
    if (e != CL_SUCCESS) LCL__CL->clFinish(q);
    LCL__CL->clReleaseEvent(ev);
    return e;
}
LCL__PRIVATE lcl_status lcl__nan_fail(lcl_context *ctx, const char *fn) {
    return lcl__fail(ctx, LCL_ERR_NAN, "%s: the matrix holds NaN or Inf; factorizations and solves need finite input", fn);
}

LCL__PRIVATE void lcl__cl_dmat_release(lcl_dmat *m) {
    if (m->buf) LCL__CL->clReleaseMemObject(m->buf);
    m->buf = NULL;
}

LCL__PRIVATE lcl_status lcl__cl_dmat_alloc(lcl_context *ctx, int dev, lcl_dtype dt, int64_t rows, int64_t cols, lcl_dmat *m) {
    size_t bytes, es = lcl__dsize(dt);
    lcl__device *d;
    if (!ctx || ctx->backend != LCL_BACKEND_OPENCL || dev < 0 || dev >= ctx->ndev)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "no OpenCL device %d in this context", dev);
    d = &ctx->dev[dev];
    if (dt == LCL_F64 && !d->info.fp64)
        return lcl__fail(ctx, LCL_ERR_NO_FP64, "device '%s' has no double precision (fp64); use single precision (LCL_F32)", d->info.name);
    m->dtype = dt;
    m->rows = rows;
    m->cols = cols;
    m->ld = lcl__round_up(cols > 0 ? cols : 1, 32);   /* aligned rows */
    m->dev = dev;
    m->host = NULL;
    m->buf = NULL;
    if (!lcl__mul_size((size_t)(rows > 0 ? rows : 1), (size_t)m->ld, &bytes) || !lcl__mul_size(bytes, es, &bytes))
        return lcl__fail(ctx, LCL_ERR_OVERFLOW, "a %lldx%lld device matrix overflows size_t", (long long)rows, (long long)cols);
    return lcl__buffer(ctx, d, bytes, CL_MEM_READ_WRITE, &m->buf);
}

/* the host array A to (up) or from the device matrix m of its size; a column-major A is the
   transpose in row-major: it goes as is through a temporary, transposed on the device */
LCL__PRIVATE lcl_status lcl__cl_dmat_xfer(lcl_context *ctx, const lcl_dmat *m, const lcl_dense *A, int up) {
    lcl__device *d = &ctx->dev[m->dev];
    size_t es = lcl__dsize(m->dtype);
    cl_mem tmp = NULL;
    cl_int e = CL_SUCCESS;
    lcl_status st = LCL_OK;
    const char *what = up ? "clEnqueueWriteBufferRect" : "clEnqueueReadBufferRect";
    if (m->rows == 0 || m->cols == 0) return LCL_OK;
    if (A->layout == LCL_ROW_MAJOR) {
        LCL__CLCHK(lcl__cl_rect(d, up, d->queue[0], m->buf, m->ld, 0, 0, m->rows, m->cols, A->data, A->ld, es, CL_TRUE, 0, NULL, NULL), what);
        goto done;
    }
    if ((st = lcl__buffer(ctx, d, (size_t)m->cols * (size_t)A->ld * es, CL_MEM_READ_WRITE, &tmp)) != LCL_OK) goto done;
    if (!up && (st = lcl__cl_transpose(ctx, d, m->dtype, (int)m->rows, (int)m->cols, m->buf, 0, (int)m->ld, tmp, (int)A->ld, d->queue[0])) != LCL_OK)
        goto done;
    LCL__CLCHK(lcl__cl_rect(d, up, d->queue[0], tmp, A->ld, 0, 0, m->cols, m->rows, A->data, A->ld, es, CL_TRUE, 0, NULL, NULL), what);
    if (!up) goto done;
    if ((st = lcl__cl_transpose(ctx, d, m->dtype, (int)m->cols, (int)m->rows, tmp, 0, (int)A->ld, m->buf, (int)m->ld, d->queue[0])) != LCL_OK) goto done;
    LCL__CLCHK(LCL__CL->clFinish(d->queue[0]), "clFinish");
done:
    if (tmp) LCL__CL->clReleaseMemObject(tmp);
    return st;
}
LCL__PRIVATE lcl_status lcl__cl_dmat_upload(lcl_context *ctx, const lcl_dense *A, lcl_dmat *m) {
    lcl_status st = lcl__cl_dmat_alloc(ctx, m->dev, A->dtype, A->rows, A->cols, m);
    if (st == LCL_OK && (st = lcl__cl_dmat_xfer(ctx, m, A, 1)) != LCL_OK) lcl__cl_dmat_release(m);
    return st;
}
LCL__PRIVATE lcl_status lcl__cl_dmat_download(lcl_context *ctx, const lcl_dmat *m, lcl_dense *A) { return lcl__cl_dmat_xfer(ctx, m, A, 0); }

/* ---- host parts: the panel and the small inverses, in double (float panels are widened) ---- */
/* row i of the row-major block P right of column n1 (n2 wide) less sum_{k < kend} P(i,k) P(k, n1..) */
LCL__PRIVATE void lcl__host_rowupd(double *P, int ld, int64_t i, int kend, int n1, int n2) {
    double *row = P + (size_t)i * ld + n1;
    int k, c;
    for (k = 0; k < kend; k++) {
        double l = P[(size_t)i * ld + k];
        const double *src = P + (size_t)k * ld + n1;
        for (c = 0; c < n2; c++) row[c] -= l * src[c];
    }
}
/* LU with partial pivoting of the m x n row-major block P (leading dimension ld), recursive so the
   bulk is a row-parallel GEMM: piv gets local row indices; the first zero pivot (1-based,
   offset by zoff) goes to *zero when not yet set. */
LCL__PRIVATE void lcl__host_rgetf(int64_t m, int n, double *P, int ld, int32_t *piv, int64_t *zero, int64_t zoff) {
    int j, n1, n2;
    int64_t i;
    if (n <= 16) {
        for (j = 0; j < n && j < m; j++) {
            int64_t p = j;
            double amax = fabs(P[(size_t)j * ld + j]), pv;
            for (i = j + 1; i < m; i++) if (fabs(P[(size_t)i * ld + j]) > amax) { amax = fabs(P[(size_t)i * ld + j]); p = i; }
            piv[j] = (int32_t)p;
            if (p != j) {
                int c;
                for (c = 0; c < n; c++) { double t = P[(size_t)j * ld + c]; P[(size_t)j * ld + c] = P[(size_t)p * ld + c]; P[(size_t)p * ld + c] = t; }
            }
            pv = P[(size_t)j * ld + j];
            if (pv == 0) { if (!*zero) *zero = zoff + j + 1; continue; }
#ifdef _OPENMP
#pragma omp parallel for if (m - j > 8192) schedule(static)
#endif
            for (i = j + 1; i < m; i++) {
                double *row = P + (size_t)i * ld, l = row[j] / pv;
                const double *prow = P + (size_t)j * ld;
                int c;
                row[j] = l;
                for (c = j + 1; c < n; c++) row[c] -= l * prow[c];
            }
        }
        return;
    }
    n1 = n / 2;
    n2 = n - n1;
    lcl__host_rgetf(m, n1, P, ld, piv, zero, zoff);
    for (j = 0; j < n1; j++)        /* left swaps on the right half */
        if (piv[j] != j) {
            double *a = P + (size_t)j * ld + n1, *b = P + (size_t)piv[j] * ld + n1;
            int c;
            for (c = 0; c < n2; c++) { double t = a[c]; a[c] = b[c]; b[c] = t; }
        }
    for (i = 1; i < n1; i++) lcl__host_rowupd(P, ld, i, (int)i, n1, n2);   /* A12 = inv(L11) A12 */
#ifdef _OPENMP
#pragma omp parallel for if (m - n1 > 2048) schedule(static)
#endif
    for (i = n1; i < m; i++) lcl__host_rowupd(P, ld, i, n1, n1, n2);        /* A22 -= A21 A12 */
    lcl__host_rgetf(m - n1, n2, P + (size_t)n1 * ld + n1, ld, piv + n1, zero, zoff + n1);
    for (j = n1; j < n; j++) {      /* right swaps on the left half */
        piv[j] += n1;
        if (piv[j] != j) {
            double *a = P + (size_t)j * ld, *b = P + (size_t)piv[j] * ld;
            int c;
            for (c = 0; c < n1; c++) { double t = a[c]; a[c] = b[c]; b[c] = t; }
        }
    }
}
/* X = inverse of the unit lower triangle of the kb x kb row-major block L (ld ldl) */
LCL__PRIVATE void lcl__host_inv_unit_lower(int kb, const double *L, int ldl, double *X) {
    int i, j, k;
    for (i = 0; i < kb; i++)
        for (j = 0; j < kb; j++) {
            double s;
            if (j > i) { X[i * kb + j] = 0; continue; }
            if (j == i) { X[i * kb + j] = 1; continue; }
            s = 0;
            for (k = j; k < i; k++) s += L[i * ldl + k] * X[k * kb + j];
            X[i * kb + j] = -s;
        }
}
/* host staging: widen a float block to double and back */
LCL__PRIVATE void lcl__widen(lcl_dtype dt, const void *src, double *dst, size_t n) {
    size_t i;
    if (dt == LCL_F64) { memcpy(dst, src, n * sizeof(double)); return; }
    for (i = 0; i < n; i++) dst[i] = (double)((const float *)src)[i];
}
LCL__PRIVATE void lcl__narrow(lcl_dtype dt, const double *src, void *dst, size_t n) {
    size_t i;
    if (dt == LCL_F64) { memcpy(dst, src, n * sizeof(double)); return; }
    for (i = 0; i < n; i++) ((float *)dst)[i] = (float)src[i];
}

/* block size: trsm_nb keeps the diagonal block in local memory (the TRSM and POTF2 kernels) */
LCL__PRIVATE int lcl__cl_block(const lcl__device *d, const lcl_dense_opts *o, int64_t n) {
    int nb = o && o->block > 0 ? o->block : d->tune.trsm_nb;
    if (nb > n) nb = (int)(n > 0 ? n : 1);
    return nb;
}
/* the two-level factorizations: panels of NB columns (opts.block, else the device's dense_nb),
   factored by steps of nb <= trsm_nb so every diagonal block fits the local-memory kernels */
/* chol: 0 LU, 1 Cholesky in single, 2 Cholesky in double */
LCL__PRIVATE void lcl__cl_blocks(const lcl__device *d, const lcl_dense_opts *o, int64_t n, int chol, int *nb, int *NB) {
    const lcl__tuning *t = &d->tune;
    int big = t->big_n > 0 && n >= t->big_n;
    int B = o && o->block > 0 ? o->block : big ? (chol ? t->big_nb_chol[chol == 2 ? LCL_F64 : LCL_F32] : t->big_nb_lu) : t->dense_nb;
    if (B > n) B = (int)(n > 0 ? n : 1);
    *NB = B;
    *nb = B < t->trsm_nb ? B : t->trsm_nb;
}

/* LU with the panel on the device. Panels of NB columns run on the second queue by nb-wide steps:
   the pivoting factorization of the step's columns (one launch on NVIDIA, lcl_panel_grid, else one
   lcl_panel_step launch per column), its swaps applied to the panel's other columns, U by the TRSM
   kernel and the panel's remaining columns by GEMM. The trailing matrix is then swapped, solved for
   U12 and updated once per panel with K = NB, the next panel's columns first (look-ahead). */
typedef struct lcl__lupanel {
    cl_kernel step, grid;         /* grid: NULL unless the device compiled lcl_panel_grid */
    cl_mem piv, zero, part, parti, count, bar;
    size_t wg, maxg, groups;      /* groups: lcl_panel_grid's work-groups, all resident at once */
    int syncs;                    /* grid barriers passed so far (the counter's base) */
} lcl__lupanel;

LCL__PRIVATE lcl_status lcl__cl_lu_steps(lcl_context *ctx, lcl__device *d, lcl_dmat *A, lcl__lupanel *P, int k, int kb, cl_command_queue q) {
    cl_int e = CL_SUCCESS;
    int ld = (int)A->ld, in = (int)A->rows, j, c1 = k + kb;
    if (P->grid) {
        size_t g1 = P->groups * 256, l1 = 256;
        int G = (int)P->groups;
        e = lcl__argv(P->grid, 11, LCL__A(A->buf), LCL__A(ld), LCL__A(in), LCL__A(k), LCL__A(kb), LCL__A(P->piv), LCL__A(P->zero),
                      LCL__A(P->part), LCL__A(P->parti), LCL__A(P->bar), LCL__A(P->syncs));
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(q, P->grid, 1, NULL, &g1, &l1, 0, NULL, NULL);
        if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "lcl_panel_grid", d->info.name);
        P->syncs += kb * G;
        return LCL_OK;
    }
    for (j = k; j <= c1; j++) {
        /* enough groups for about a row per work-item, at most maxg */
        size_t groups = (size_t)(in - j + (int)P->wg - 1) / P->wg, g1;
        if (groups < 1) groups = 1;
        if (groups > P->maxg) groups = P->maxg;
        g1 = groups * P->wg;
        e = lcl__argv(P->step, 11, LCL__A(A->buf), LCL__A(ld), LCL__A(in), LCL__A(k), LCL__A(c1), LCL__A(j), LCL__A(P->piv), LCL__A(P->zero),
                      LCL__A(P->part), LCL__A(P->parti), LCL__A(P->count));
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(q, P->step, 1, NULL, &g1, &P->wg, 0, NULL, NULL);
        if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "lcl_panel_step", d->info.name);
    }
    return LCL_OK;
}

/* B (rows k0..k0+KB, columns c0..c0+nc) = inv(L11) B for the unit lower L11 at (k0, k0), by
   nb-wide TRSM steps and GEMM updates of the rows below each step */
LCL__PRIVATE lcl_status lcl__cl_lu_u12(lcl_context *ctx, lcl__device *d, lcl_dmat *A, int k0, int KB, int nb, int64_t c0, int nc,
                                       cl_command_queue q) {
    lcl_dtype dt = A->dtype;
    int64_t ld = A->ld, k;
    lcl_status st = LCL_OK;
    for (k = k0; k < k0 + KB && st == LCL_OK; k += nb) {
        int kb = (int)(k0 + KB - k < nb ? k0 + KB - k : nb), below = (int)(k0 + KB - k - kb);
        st = lcl__cl_trsm(ctx, d, dt, 0, A->buf, k * ld + k, (int)ld, kb, A->buf, k * ld + c0, (int)ld, nc, q);
        if (st == LCL_OK && below > 0)
            st = lcl__cl_gemm(ctx, d, dt, below, nc, kb, -1.0, A->buf, (k + kb) * ld + k, (int)ld, A->buf, k * ld + c0, (int)ld, 0, 1.0,
                              A->buf, (k + kb) * ld + c0, (int)ld, 0, q);
    }
    return st;
}


/* One device's blocked factorization, right-looking with look-ahead: LU with the panel on the
   device (lcl__cl_lu_steps), LU with the panel on the host (opts.panel = 1), or lower Cholesky.
   lcl__cl_fact_run is the loop of all three; the steps that differ take the state here. */
typedef struct lcl__clfact {
    lcl_context *ctx;
    const char *fn;               /* the caller, in messages */
    lcl__device *d;
    lcl_dmat *A;
    int64_t n, bad;               /* bad: LAPACK's info, the first zero pivot / non-positive minor */
    int ld, nb, NB, chol, host;   /* panels of NB columns by nb-wide steps; host: the LU panel on the host */
    int part;                     /* a panel of the split (lcl__multi_panels_open): no update runs here */
    cl_command_queue qp, qu;      /* the panel's queue and the update's */
    cl_event ev;                  /* look-ahead: the next panel's columns are updated (host: read to stage) */
    cl_mem piv;                   /* LU: the pivots, on the device */
    cl_mem ut;                    /* LU with tune.lu_nt: U12 transposed (rest x KB, ld KB), or NULL */
    lcl__lupanel P;               /* LU, device panel */
    int32_t *ipiv, *lp;           /* LU, host panel: the pivots, and the panel's own */
    double *W, *X;                /* the panel in double, the inverse of its unit L11 */
    void *stage;                  /* the panel as read and written: n x nb, ld nb */
    cl_mem dinv, dtmp;
    cl_kernel kpot, kstep;        /* Cholesky: POTF2 in local memory; the fused step (NVIDIA), or NULL */
    cl_kernel kinv;               /* Cholesky: POTF2 with inv(L11) into dY (tune.potf2_inv), or NULL */
    cl_kernel kls;                /* Cholesky: the step in one launch with a look-ahead (tune.chol_lstep), or NULL */
    cl_mem dfail, dY, dsync;      /* dsync: kls's counters, never reset (tick, want: their next targets) */
    cl_kernel kks;                /* Cholesky with kls: the look-ahead GEMM split along K, or NULL */
    cl_kernel k64s;               /* Cholesky with kinv: the step's GEMM split along K (tune.chol_step_ks), or NULL */
    cl_mem dpart, dcnt;           /* their partial products (a tile of C per group) and tile counters */
    int tick, want;
    size_t wg;
    int groups;                   /* work-groups of the update's GEMMs (Cholesky: beyond the next panel) */
} lcl__clfact;

LCL__PRIVATE lcl_status lcl__cl_fact_open_host(lcl__clfact *f, const lcl_dense_opts *o) {
    lcl_context *ctx = f->ctx;
    lcl__device *d = f->d;
    size_t es = lcl__dsize(f->A->dtype), nb;
    cl_int e = CL_SUCCESS;
    lcl_status st = LCL_OK;
    f->nb = f->NB = lcl__cl_block(d, o, f->n);
    nb = (size_t)f->nb;
    f->W = (double *)lcl__alloc(ctx, "panel", (size_t)f->n * nb, sizeof(double), &st);
    f->X = f->W ? (double *)lcl__alloc(ctx, "panel inverse", nb * nb, sizeof(double), &st) : NULL;
    f->stage = f->X ? lcl__alloc(ctx, "panel staging", (size_t)f->n * nb, es, &st) : NULL;
    f->lp = f->stage ? (int32_t *)lcl__alloc(ctx, "pivots", nb, sizeof(int32_t), &st) : NULL;
    if (!f->lp) return st;
    if ((st = lcl__ws_get(ctx, d, (size_t)f->n * sizeof(cl_int), &f->piv)) != LCL_OK) return st;
    if ((st = lcl__ws_get(ctx, d, nb * nb * es, &f->dinv)) != LCL_OK) return st;
    if ((st = lcl__ws_get(ctx, d, nb * (size_t)f->ld * es, &f->dtmp)) != LCL_OK) return st;
    /* the first panel */
    LCL__CLCHK(lcl__cl_rect(d, 0, d->queue[0], f->A->buf, f->ld, 0, 0, f->n, f->nb, f->stage, f->nb, es, CL_TRUE, 0, NULL, NULL),
               "clEnqueueReadBufferRect");
done:
    return st;
}
LCL__PRIVATE lcl_status lcl__cl_fact_open_lu(lcl__clfact *f, const lcl_dense_opts *o) {
    lcl_context *ctx = f->ctx;
    lcl__device *d = f->d;
    lcl_dtype dt = f->A->dtype;
    lcl__lupanel *P = &f->P;
    size_t nscratch;
    cl_int e = CL_SUCCESS;
    lcl_status st;
    lcl__cl_blocks(d, o, f->n, 0, &f->nb, &f->NB);
    if ((st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_panel_step_f" : "lcl_panel_step_d", &P->step)) != LCL_OK) return st;
    if (d->tune.grid_panel && f->nb <= 64 &&   /* absent unless NVIDIA compiled the program: probed */
        (st = lcl__kernel_get(ctx, d, dt, dt == LCL_F32 ? "lcl_panel_grid_f" : "lcl_panel_grid_d", 1, &P->grid)) != LCL_OK)
        return st;
    P->wg = lcl__wg(d);   /* = LCL_WG of the build */
    P->maxg = (size_t)(d->info.compute_units > 0 ? 2 * d->info.compute_units : 2);
    P->groups = (size_t)(d->info.compute_units > 0 ? d->info.compute_units : 1);
    /* at least 64 rows a group: n = 4096 ran 3% faster on 64 groups than on 132 (H100) */
    if (f->n / 64 < (int64_t)P->groups) P->groups = (size_t)(f->n / 64 > 1 ? f->n / 64 : 1);
    /* beside a capped update, as many groups as the free units hold (H200: 96 groups beside 100
       units of update ran faster than 48 beside 116 or 144 beside 84) */
    f->groups = dt == LCL_F64 && d->tune.tc && !f->part ? d->tune.lu_upd_groups : 0;   /* the cap is the tensor-core GEMM's */
    if (f->groups > 0 && d->info.compute_units > f->groups && P->grid)
        P->groups = LCL__MIN(P->groups, (size_t)d->tune.grid_per_unit * (size_t)(d->info.compute_units - f->groups));
    if (d->tune.grid_groups > 0) P->groups = (size_t)d->tune.grid_groups;
    if (P->groups > P->maxg) P->groups = P->maxg;
    /* lcl_panel_grid: per group and barrier parity, the candidate's |value| and its row */
    nscratch = P->grid ? 2 * P->groups * 65 + 2 * 64 : P->maxg;
    if ((st = lcl__ws_get(ctx, d, (size_t)f->n * sizeof(cl_int), &f->piv)) != LCL_OK) return st;
    if ((d->tune.lu_nt >> dt & 1) && !f->part && f->n > f->NB && (st = lcl__ws_get(ctx, d, (size_t)f->n * (size_t)f->NB * lcl__dsize(dt), &f->ut)) != LCL_OK) return st;
    P->piv = f->piv;
    if ((st = lcl__ws_get(ctx, d, sizeof(cl_int), &P->zero)) != LCL_OK) return st;
    if ((st = lcl__ws_get(ctx, d, nscratch * lcl__dsize(dt), &P->part)) != LCL_OK) return st;
    if ((st = lcl__ws_get(ctx, d, 2 * P->maxg * sizeof(cl_int), &P->parti)) != LCL_OK) return st;
    if ((st = lcl__ws_get(ctx, d, sizeof(cl_int), &P->count)) != LCL_OK) return st;
    if ((st = lcl__ws_get(ctx, d, sizeof(cl_int), &P->bar)) != LCL_OK) return st;
    LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(f->qp, P->zero, CL_FALSE, 0, sizeof(cl_int), &lcl__zero, 0, NULL, NULL), "clEnqueueWriteBuffer");
    LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(f->qp, P->count, CL_FALSE, 0, sizeof(cl_int), &lcl__zero, 0, NULL, NULL), "clEnqueueWriteBuffer");
    LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(f->qp, P->bar, CL_FALSE, 0, sizeof(cl_int), &lcl__zero, 0, NULL, NULL), "clEnqueueWriteBuffer");
    LCL__CLCHK(lcl__cl_after(d, f->qu, f->qp), "clEnqueueMarkerWithWaitList");
done:
    return st;
}
/* Lower Cholesky, entirely on the device, nothing waits for the host: the panel by nb-wide steps
   (diagonal block in one work-group's local memory, L21 by the TRSM kernel), the trailing matrix
   once per panel with K = NB. On NVIDIA in double the diagonal block comes with its inverse
   (lcl_potf2_inv, tune.potf2_inv) and L21 is a GEMM with it, below order chol_lstep all of a step
   in one launch that also readies the next step's block (lcl_potrf_lstep_d); without the inverse,
   from fused_step on the step's GEMM and POTF2 are one launch (lcl_potrf_step_d), so POTF2 runs
   beside the GEMM of the rows below. (Not a third queue for those rows: its kernels wait for the
   update's GEMM to end; BENCHMARKS.md.) An upper factor is the same on the transpose. */
LCL__PRIVATE lcl_status lcl__cl_fact_open_chol(lcl__clfact *f, const lcl_dense_opts *o) {
    lcl_context *ctx = f->ctx;
    lcl__device *d = f->d;
    lcl_dtype dt = f->A->dtype;
    cl_int e = CL_SUCCESS;
    lcl_status st;
    lcl__cl_blocks(d, o, f->n, dt == LCL_F64 ? 2 : 1, &f->nb, &f->NB);
    if ((st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_potf2_local_f" : "lcl_potf2_local_d", &f->kpot)) != LCL_OK) return st;
    if ((d->tune.potf2_inv >> dt & 1) && f->nb <= 64) {
        if ((st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_potf2_inv_f" : "lcl_potf2_inv_d", &f->kinv)) != LCL_OK) return st;
        if ((st = lcl__ws_get(ctx, d, 64 * 64 * lcl__dsize(dt), &f->dY)) != LCL_OK) return st;
    }
    if (f->kinv && dt == LCL_F64 && d->tune.tc && (d->tune.chol_lstep || d->tune.chol_tail) &&   /* NVIDIA only: probed */
        (st = lcl__kernel_get(ctx, d, dt, "lcl_potrf_lstep_d", 1, &f->kls)) != LCL_OK)
        return st;
    if (f->kls) {
        static const cl_int zeros[2] = {0, 0};
        if ((st = lcl__ws_get(ctx, d, sizeof zeros, &f->dsync)) != LCL_OK) return st;
        LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(f->qp, f->dsync, CL_FALSE, 0, sizeof zeros, zeros, 0, NULL, NULL), "clEnqueueWriteBuffer");
        if (d->tune.chol_ks > 1 && (st = lcl__kernel_get(ctx, d, dt, "lcl_gemm_tc_ks_d", 1, &f->kks)) != LCL_OK) return st;
    }
    if (f->kinv && dt == LCL_F64 && d->tune.tc && d->tune.chol_step_ks > 1 && (st = lcl__kernel_get(ctx, d, dt, "lcl_gemm_tc64_ks_d", 1, &f->k64s)) != LCL_OK)
        return st;
    if (f->kks || f->k64s) {   /* their partial products and tile counters: one group a unit at most, so cu tiles */
        static const cl_int none[1024] = {0};   /* the counters' zeros (written without a wait) */
        size_t cu = (size_t)LCL__MIN(d->info.compute_units, 1024), blk = (size_t)32 * d->tune.tc_wm * 64 * d->tune.tc_wn;   /* a tile of C */
        if ((st = lcl__ws_get(ctx, d, cu * blk * sizeof(double), &f->dpart)) != LCL_OK) return st;
        if ((st = lcl__ws_get(ctx, d, cu * sizeof(cl_int), &f->dcnt)) != LCL_OK) return st;
        LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(f->qp, f->dcnt, CL_FALSE, 0, cu * sizeof(cl_int), none, 0, NULL, NULL), "clEnqueueWriteBuffer");
    }
    if (!f->kinv && dt == LCL_F64 && d->tune.tc && d->tune.fused_step && f->n >= d->tune.fused_step &&   /* NVIDIA only: probed */
        (st = lcl__kernel_get(ctx, d, dt, "lcl_potrf_step_d", 1, &f->kstep)) != LCL_OK)
        return st;
    /* The trailing update runs on chol_upd_groups units, or the panel's kernels queue behind all
       of its work-groups and nothing overlaps. LU's one-launch panel needs every unit. */
    f->groups = f->n < d->tune.chol_small_n ? d->tune.chol_upd_groups_small : d->tune.chol_upd_groups;
    f->wg = lcl__wg(d);
    if ((st = lcl__ws_get(ctx, d, sizeof(cl_int), &f->dfail)) != LCL_OK) return st;
    LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(f->qp, f->dfail, CL_FALSE, 0, sizeof(cl_int), &lcl__zero, 0, NULL, NULL), "clEnqueueWriteBuffer");
    LCL__CLCHK(lcl__cl_after(d, f->qu, f->qp), "clEnqueueMarkerWithWaitList");
done:
    return st;
}

/* LU panel K (KB wide, rest columns right of it) on the host, in double: written back with its
   pivots and L11's inverse on the transfer queue, without waiting for the rest of the previous
   update (it touches other columns); the update queue then waits for the writes */
LCL__PRIVATE lcl_status lcl__cl_panel_host(lcl__clfact *f, int64_t K, int KB, int64_t rest) {
    lcl_context *ctx = f->ctx;
    lcl__device *d = f->d;
    lcl_dtype dt = f->A->dtype;
    size_t es = lcl__dsize(dt), nb = (size_t)f->nb;
    int64_t m = f->n - K, i, z = 0;
    cl_event ew[3];
    int nw = 0;
    cl_int e = CL_SUCCESS;
    lcl_status st = LCL_OK;
    /* staging is m x KB with ld nb */
    for (i = 0; i < m; i++) lcl__widen(dt, (char *)f->stage + (size_t)i * nb * es, f->W + (size_t)i * KB, (size_t)KB);
    lcl__host_rgetf(m, KB, f->W, KB, f->lp, &z, 0);
    if (z && !f->bad) f->bad = K + z;
    for (i = 0; i < KB; i++) f->ipiv[K + i] = (int32_t)(K + f->lp[i]);
    for (i = 0; i < m; i++) lcl__narrow(dt, f->W + (size_t)i * KB, (char *)f->stage + (size_t)i * nb * es, (size_t)KB);
    if (rest > 0) {
        double *Xs = f->X;
        lcl__host_inv_unit_lower(KB, f->W, KB, f->X);
        if (dt == LCL_F32) { float *xf = (float *)f->X; int q; for (q = 0; q < KB * KB; q++) xf[q] = (float)Xs[q]; }
    }
    if (rest > 0) e = LCL__CL->clEnqueueWriteBuffer(f->qp, f->dinv, CL_FALSE, 0, (size_t)KB * KB * es, f->X, 0, NULL, &ew[nw++]);
    if (e == CL_SUCCESS) e = lcl__cl_rect(d, 1, f->qp, f->A->buf, f->ld, K, K, m, KB, f->stage, f->nb, es, CL_FALSE, 0, NULL, &ew[nw++]);
    if (e == CL_SUCCESS)
        e = LCL__CL->clEnqueueWriteBuffer(f->qp, f->piv, CL_FALSE, (size_t)K * sizeof(cl_int), (size_t)KB * sizeof(cl_int), f->ipiv + K, 0, NULL,
                                          &ew[nw++]);
    if (e != CL_SUCCESS) {
        nw--;
        while (nw > 0) LCL__CL->clReleaseEvent(ew[--nw]);
        return lcl__clfail(ctx, e, "clEnqueueWriteBuffer(panel)", d->info.name);
    }
    LCL__CLCHK(lcl__cl_join(d, nw, ew), "clEnqueueBarrierWithWaitList");
done:
    return st;
}
/* an LU step (columns k..k+kb of panel K) on the panel's queue: the pivoting factorization, its
   swaps to the panel's columns left and right of it, U by TRSM and the panel's remaining columns
   by GEMM */
LCL__PRIVATE lcl_status lcl__cl_step_lu(lcl__clfact *f, int64_t K, int KB, int64_t k, int kb) {
    lcl__device *d = f->d;
    cl_mem a = f->A->buf;
    int ld = f->ld, inner = (int)(K + KB - k - kb);
    lcl_status st;
    if ((st = lcl__cl_lu_steps(f->ctx, d, f->A, &f->P, (int)k, kb, f->qp)) != LCL_OK) return st;
    if ((st = lcl__cl_laswp(f->ctx, d, f->A->dtype, a, ld, (int)K, (int)k, (int)k, (int)(k + kb), f->piv, f->qp)) != LCL_OK || inner == 0) return st;
    if ((st = lcl__cl_laswp(f->ctx, d, f->A->dtype, a, ld, (int)(k + kb), (int)(K + KB), (int)k, (int)(k + kb), f->piv, f->qp)) != LCL_OK) return st;
    if ((st = lcl__cl_trsm(f->ctx, d, f->A->dtype, 0, a, k * ld + k, ld, kb, a, k * ld + k + kb, ld, inner, f->qp)) != LCL_OK) return st;
    return lcl__cl_gemm(f->ctx, d, f->A->dtype, (int)(f->n - k - kb), inner, kb, -1.0, a, (k + kb) * ld + k, ld, a, k * ld + k + kb, ld, 0, 1.0, a,
                        (k + kb) * ld + k + kb, ld, 0, f->qp);
}
#define LCL__TC_BK 16   /* kernels/dense.cl's TC_BK: the K step of the tensor-core GEMM */
/* Cholesky's products split along K (lcl_gemm_tc_ks_d, lcl_gemm_tc64_ks_d, kernel kr): the lower
   part of C -= L L^T, M x N at oc, L's rows at oa (K columns), ks splits of kc columns, tiles
   tiles of lw work-items a group, on q */
LCL__PRIVATE lcl_status lcl__cl_ks(lcl__clfact *f, cl_kernel kr, cl_int M, cl_int N, cl_int K, cl_long oa, cl_long oc, cl_int ks, cl_int kc,
                                   size_t lw, int tiles, cl_command_queue q) {
    cl_mem a = f->A->buf;
    cl_int ld = f->ld, tr = 1, lo = 1, e;
    double al = -1.0, be = 1.0;
    size_t gw = lw * (size_t)tiles * (size_t)ks;
    e = lcl__argv(kr, 20, LCL__A(M), LCL__A(N), LCL__A(K), LCL__A(al), LCL__A(a), LCL__A(oa), LCL__A(ld), LCL__A(a), LCL__A(oa), LCL__A(ld),
                  LCL__A(tr), LCL__A(be), LCL__A(a), LCL__A(oc), LCL__A(ld), LCL__A(lo), LCL__A(ks), LCL__A(kc), LCL__A(f->dpart), LCL__A(f->dcnt));
    if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(q, kr, 1, NULL, &gw, &lw, 0, NULL, NULL);
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(f->ctx, e, "lcl_gemm_tc_ks", f->d->info.name);
}
/* a Cholesky step's left-looking GEMM (below): its kb columns from the diagonal down less the
   panel's earlier columns. Split along K (lcl_gemm_tc64_ks_d) where its row tiles fill at most
   half the units and K is deep: in a matrix's last panels nothing runs beside the panel's chain,
   and an H200 took 55-67 us for 37 row tiles with K near 600, one unit a tile running all of K. */
LCL__PRIVATE lcl_status lcl__cl_step_gemm(lcl__clfact *f, int64_t K, int64_t k, int kb) {
    lcl__device *d = f->d;
    int M = (int)(f->n - k), kp = (int)(k - K), ld = f->ld, ks = 1, kc;
    int bm = 32 * d->tune.tc_wm, tiles = (M + bm - 1) / bm, cu = LCL__MIN(d->info.compute_units, 1024), nk = (kp + LCL__TC_BK - 1) / LCL__TC_BK;
    if (f->k64s && 2 * tiles <= cu) ks = LCL__MIN(LCL__MIN(d->tune.chol_step_ks, kp / 128), cu / tiles);
    if (ks <= 1) return lcl__cl_gemm(f->ctx, d, f->A->dtype, M, kb, kp, -1.0, f->A->buf, k * ld + K, ld, f->A->buf, k * ld + K, ld, 1, 1.0, f->A->buf,
                                     k * ld + k, ld, 1, f->qp);
    kc = (nk + ks - 1) / ks;
    ks = (nk + kc - 1) / kc;   /* every split gets some of K */
    d->seen.step_splits++;
    return lcl__cl_ks(f, f->k64s, M, kb, kp, k * ld + K, k * ld + k, ks, kc * LCL__TC_BK, (size_t)bm, tiles, f->qp);
}
/* a Cholesky step, left-looking inside the panel: the step's columns, from the diagonal down,
   less the panel's earlier columns in one GEMM with K = k - K (right-looking rewrote those columns
   up to seven times on the few units the update leaves free), POTF2 of the diagonal block, then
   L21 = A21 inv(L11)^T in place down to the last row. With kls all of it in one launch, which
   also brings the next step's block (the panel ends at KE) up to date (lcl_potrf_lstep_d). */
LCL__PRIVATE lcl_status lcl__cl_step_chol(lcl__clfact *f, int64_t K, int64_t KE, int64_t k, int kb) {
    lcl__device *d = f->d;
    cl_mem a = f->A->buf;
    int ld = f->ld, base = (int)k;
    int64_t below = f->n - k - kb;
    cl_long off = k * ld + k;
    cl_int e;
    lcl_status st;
    if (f->kls && (f->n < d->tune.chol_lstep || f->n - K < d->tune.chol_tail)) {   /* the same for all of a panel's steps */
        int kp = (int)(k - K), bl = (int)below, nxt = (int)(k + kb < KE ? LCL__MIN((int64_t)f->nb, KE - k - kb) : 0);
        int nla = bl > 0 ? 1 + (nxt > 0) : 0;
        size_t lw = 256, gw = lw * (size_t)(1 + nla + (bl > 64 ? (bl - 64 + 127) / 128 : 0));
        f->tick++;
        f->want += nla == 2;
        e = lcl__argv(f->kls, 13, LCL__A(a), LCL__A(off), LCL__A(ld), LCL__A(kb), LCL__A(kp), LCL__A(bl), LCL__A(nxt), LCL__A(base), LCL__A(f->dfail),
                      LCL__A(f->dY), LCL__A(f->dsync), LCL__A(f->tick), LCL__A(f->want));
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(f->qp, f->kls, 1, NULL, &gw, &lw, 0, NULL, NULL);
        return e == CL_SUCCESS ? LCL_OK : lcl__clfail(f->ctx, e, "lcl_potrf_lstep", d->info.name);
    }
    if (f->kstep) {   /* the same in one launch, POTF2 in group 0 beside the rows below */
        int kp = (int)(k - K), bl = (int)below;
        size_t lw = (size_t)(32 * d->tune.tc_wm), gw = lw * (size_t)(1 + (kp > 0 ? (bl + 32 * d->tune.tc_wm - 1) / (32 * d->tune.tc_wm) : 0));
        e = lcl__argv(f->kstep, 8, LCL__A(a), LCL__A(off), LCL__A(ld), LCL__A(kb), LCL__A(kp), LCL__A(bl), LCL__A(base), LCL__A(f->dfail));
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(f->qp, f->kstep, 1, NULL, &gw, &lw, 0, NULL, NULL);
        if (e != CL_SUCCESS) return lcl__clfail(f->ctx, e, "lcl_potrf_step", d->info.name);
    } else {
        if (k > K && (st = lcl__cl_step_gemm(f, K, k, kb)) != LCL_OK) return st;
        if (f->kinv) {
            e = lcl__argv(f->kinv, 7, LCL__A(a), LCL__A(off), LCL__A(ld), LCL__A(kb), LCL__A(base), LCL__A(f->dfail), LCL__A(f->dY));
            if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(f->qp, f->kinv, 1, NULL, &f->wg, &f->wg, 0, NULL, NULL);
            if (e != CL_SUCCESS) return lcl__clfail(f->ctx, e, "lcl_potf2_inv", d->info.name);
            return below == 0 ? LCL_OK : lcl__cl_trsm_inv(f->ctx, d, f->A->dtype, f->dY, kb, a, (k + kb) * ld + k, ld, (int)below, f->qp);
        }
        e = lcl__argv(f->kpot, 6, LCL__A(a), LCL__A(off), LCL__A(ld), LCL__A(kb), LCL__A(base), LCL__A(f->dfail));
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(f->qp, f->kpot, 1, NULL, &f->wg, &f->wg, 0, NULL, NULL);
        if (e != CL_SUCCESS) return lcl__clfail(f->ctx, e, "lcl_potf2_local", d->info.name);
    }
    if (below == 0) return LCL_OK;
    return lcl__cl_trsm(f->ctx, d, f->A->dtype, 1, a, off, ld, kb, a, (k + kb) * ld + k, ld, (int)below, f->qp);
}
/* panel K (KB columns) on its queue, by nb-wide steps */
LCL__PRIVATE lcl_status lcl__cl_panel_dev(lcl__clfact *f, int64_t K, int KB) {
    int64_t k;
    lcl_status st = LCL_OK;
    for (k = K; k < K + KB && st == LCL_OK; k += f->nb) {
        int kb = (int)(K + KB - k < f->nb ? K + KB - k : f->nb);
        st = f->chol ? lcl__cl_step_chol(f, K, K + KB, k, kb) : lcl__cl_step_lu(f, K, KB, k, kb);
    }
    return st;
}
/* LU: panel K's swaps to the trailing columns, then U12 = inv(L11) A12 (the host panel's by its
   inverse through the temporary) */
LCL__PRIVATE lcl_status lcl__cl_lu_trail(lcl__clfact *f, int64_t K, int KB, int64_t rest) {
    lcl_context *ctx = f->ctx;
    lcl__device *d = f->d;
    lcl_dtype dt = f->A->dtype;
    size_t es = lcl__dsize(dt), so[3] = {0, 0, 0}, dor[3], reg[3];
    int ld = f->ld;
    cl_int e = CL_SUCCESS;
    lcl_status st;
    if ((st = lcl__cl_laswp(ctx, d, dt, f->A->buf, ld, (int)(K + KB), (int)f->n, (int)K, (int)(K + KB), f->piv, f->qu)) != LCL_OK) return st;
    if (!f->host) {
        st = lcl__cl_lu_u12(ctx, d, f->A, (int)K, KB, f->nb, K + KB, (int)rest, f->qu);
        if (st == LCL_OK && f->ut) st = lcl__cl_transpose(ctx, d, dt, KB, (int)rest, f->A->buf, K * ld + K + KB, ld, f->ut, KB, f->qu);
        return st;
    }
    if ((st = lcl__cl_gemm(ctx, d, dt, KB, (int)rest, KB, 1.0, f->dinv, 0, KB, f->A->buf, K * ld + K + KB, ld, 0, 0.0, f->dtmp, 0, ld, 0,
                           f->qu)) != LCL_OK)
        return st;
    dor[0] = (size_t)(K + KB) * es; dor[1] = (size_t)K; dor[2] = 0;
    reg[0] = (size_t)rest * es; reg[1] = (size_t)KB; reg[2] = 1;
    LCL__CLCHK(LCL__CL->clEnqueueCopyBufferRect(f->qu, f->dtmp, f->A->buf, so, dor, reg, (size_t)ld * es, 0, (size_t)ld * es, 0, 0, NULL, NULL),
               "clEnqueueCopyBufferRect");
done:
    return st;
}
/* the trailing matrix less panel K's contribution, columns K+KB+c .. +w (Cholesky: the lower part
   of A22 -= L21 L21^T from row K+KB+c, capped to f->groups past the next panel's columns, beside a
   panel of the tail (tune.chol_tail) to chol_upd_groups_small), on q */
LCL__PRIVATE lcl_status lcl__cl_fact_update(lcl__clfact *f, int64_t K, int KB, int64_t rest, int c, int w, cl_command_queue q) {
    cl_mem a = f->A->buf;
    int64_t r = K + KB;
    int ld = f->ld;
    if (!f->chol) {   /* U12 in place, or transposed by lcl__cl_lu_trail (row c on) */
        int nt = f->ut != NULL, nw = c && (f->d->tune.upd_narrow & 2);
        return lcl__cl_gemm_gw(f->ctx, f->d, f->A->dtype, (int)rest, w, KB, -1.0, a, r * ld + K, ld, nt ? f->ut : a,
                               nt ? (int64_t)c * KB : K * ld + r + c, nt ? KB : ld, nt, 1.0, a, r * ld + r + c, ld, 0, q, nw ? 2 * f->groups : f->groups, nw);
    }
    if (c == 0 && f->kks) {   /* the next panel's columns: few tiles, so split K (lcl_gemm_tc_ks_d) */
        int bm = 32 * f->d->tune.tc_wm, bn = 64 * f->d->tune.tc_wn;   /* the kernel's tile (LCL_TC_TILE) */
        int tm = (int)((rest + bm - 1) / bm), tn = (w + bn - 1) / bn, tiles = 0, i, cu = LCL__MIN(f->d->info.compute_units, 1024);
        int nk = (KB + LCL__TC_BK - 1) / LCL__TC_BK, ks, per;
        for (i = 0; i < tm; i++) tiles += LCL__MIN(tn, ((i + 1) * bm - 1) / bn + 1);   /* those reaching the lower triangle */
        ks = LCL__MIN(LCL__MIN(f->d->tune.chol_ks, nk), cu / tiles);
        per = (nk + ks - 1) / LCL__MAX(ks, 1);
        ks = ks > 1 ? (nk + per - 1) / per : 1;   /* every split gets some of K */
        if (ks > 1)
            return lcl__cl_ks(f, f->kks, (cl_int)(rest - c), w, KB, (r + c) * ld + K, (r + c) * ld + r + c, ks, per * LCL__TC_BK,
                              (size_t)(32 * f->d->tune.tc_wm * f->d->tune.tc_wn), tiles, q);
    }
    {
        int g = !c ? f->d->tune.upd_groups : rest < f->d->tune.chol_tail ? f->d->tune.chol_upd_groups_small : f->groups, nw = c && (f->d->tune.upd_narrow & 1);
        return lcl__cl_gemm_gw(f->ctx, f->d, f->A->dtype, (int)(rest - c), w, KB, -1.0, a, (r + c) * ld + K, ld, a, (r + c) * ld + K, ld, 1, 1.0, a,
                               (r + c) * ld + r + c, ld, 1, q, nw ? 2 * g : g, nw);
    }
}
/* f->ev once the update queue's work so far is done: the next panel's columns (NB2 wide), or
   with the look-ahead on the panel queue the rest (a marker); with the host panel, the next
   panel's columns read into the staging on the transfer queue */
LCL__PRIVATE lcl_status lcl__cl_fact_mark(lcl__clfact *f, int64_t K, int KB, int64_t rest, int NB2) {
    lcl_context *ctx = f->ctx;
    lcl__device *d = f->d;
    cl_event mark = NULL;
    cl_int e = CL_SUCCESS;
    lcl_status st = LCL_OK;
    if (!f->host) {
        LCL__CLCHK(LCL__CL->clEnqueueMarkerWithWaitList(f->qu, 0, NULL, &f->ev), "clEnqueueMarkerWithWaitList");
        return LCL_OK;
    }
    LCL__CLCHK(LCL__CL->clEnqueueMarkerWithWaitList(f->qu, 0, NULL, &mark), "clEnqueueMarkerWithWaitList");
    LCL__CL->clFlush(f->qu);
    e = lcl__cl_rect(d, 0, f->qp, f->A->buf, f->ld, K + KB, K + KB, rest, NB2, f->stage, f->nb, lcl__dsize(f->A->dtype), CL_FALSE, 1, &mark, &f->ev);
    LCL__CL->clReleaseEvent(mark);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueReadBufferRect(panel)", d->info.name);
    LCL__CL->clFlush(f->qp);
done:
    return st;
}
/* the width of the panel at K: f->NB, or (Cholesky, tune.chol_narrow_n) narrower near the end */
LCL__PRIVATE int lcl__cl_fact_width(const lcl__clfact *f, int64_t K) {
    const lcl__tuning *t = &f->d->tune;
    int64_t m = f->n - K;
    int w = f->NB;
    if (f->chol && !f->part && t->chol_narrow_n > 0 && m <= t->chol_narrow_n && t->chol_narrow_nb > 0 && t->chol_narrow_nb < w) w = t->chol_narrow_nb;
    return (int)LCL__MIN((int64_t)w, m);
}
/* the panel waits for the look-ahead update of its columns: on its queue, or on the host */
LCL__PRIVATE lcl_status lcl__cl_fact_wait(lcl__clfact *f) {
    lcl_context *ctx = f->ctx;
    lcl__device *d = f->d;
    cl_int e = CL_SUCCESS;
    lcl_status st = LCL_OK;
    if (!f->host) return lcl__cl_wait_mark(ctx, d, f->qp, &f->ev);
    if (f->ev) {
        LCL__CLCHK(LCL__CL->clWaitForEvents(1, &f->ev), "clWaitForEvents(panel)");
        LCL__CL->clReleaseEvent(f->ev);
        f->ev = NULL;
    }
done:
    return st;
}
/* after the loop: LU's pivots and first zero pivot from the device, and the swaps left of each
   panel, deferred to the end (one pass per panel); Cholesky's first non-positive minor */
LCL__PRIVATE lcl_status lcl__cl_fact_finish(lcl__clfact *f) {
    lcl_context *ctx = f->ctx;
    lcl__device *d = f->d;
    int64_t K, n = f->n;
    cl_int e = CL_SUCCESS, bad = 0;
    lcl_status st = LCL_OK;
    if (f->chol) {
        LCL__CLCHK(LCL__CL->clFinish(f->qu), "clFinish");
        LCL__CLCHK(LCL__CL->clEnqueueReadBuffer(f->qp, f->dfail, CL_TRUE, 0, sizeof(cl_int), &bad, 0, NULL, NULL), "clEnqueueReadBuffer");
        f->bad = bad;
        return LCL_OK;
    }
    if (!f->host) {
        LCL__CLCHK(LCL__CL->clFinish(f->qp), "clFinish");
        LCL__CLCHK(LCL__CL->clEnqueueReadBuffer(f->qp, f->piv, CL_TRUE, 0, (size_t)n * sizeof(cl_int), f->ipiv, 0, NULL, NULL),
                   "clEnqueueReadBuffer(pivots)");
        LCL__CLCHK(LCL__CL->clEnqueueReadBuffer(f->qp, f->P.zero, CL_TRUE, 0, sizeof(cl_int), &bad, 0, NULL, NULL), "clEnqueueReadBuffer");
        f->bad = bad;
    }
    for (K = f->NB; K < n; K += f->NB) {
        int KB = (int)(n - K < f->NB ? n - K : f->NB);
        if ((st = lcl__cl_laswp(ctx, d, f->A->dtype, f->A->buf, f->ld, 0, (int)K, (int)K, (int)(K + KB), f->piv, f->qu)) != LCL_OK) return st;
    }
    LCL__CLCHK(LCL__CL->clFinish(f->qu), "clFinish");
done:
    return st;
}
LCL__PRIVATE void lcl__cl_fact_close(lcl__clfact *f) {
    cl_mem bufs[14];
    int i;
    if (f->ev) {
        if (f->host) LCL__CL->clWaitForEvents(1, &f->ev);
        LCL__CL->clReleaseEvent(f->ev);
    }
    LCL__CL->clFinish(f->qp);
    LCL__CL->clFinish(f->qu);
    bufs[0] = f->piv; bufs[1] = f->P.zero; bufs[2] = f->P.part; bufs[3] = f->P.parti; bufs[4] = f->P.count; bufs[5] = f->P.bar;
    bufs[6] = f->dinv; bufs[7] = f->dtmp; bufs[8] = f->dfail; bufs[9] = f->dY; bufs[10] = f->dsync; bufs[11] = f->dpart; bufs[12] = f->dcnt;
    bufs[13] = f->ut;
    for (i = 0; i < 14; i++) lcl__ws_put(f->d, bufs[i]);
    LCL_FREE(f->W);
    LCL_FREE(f->X);
    LCL_FREE(f->stage);
    LCL_FREE(f->lp);
}
/* The loop: panel K once the look-ahead update of its columns is done; (LU) the trailing columns'
   swaps and U12; the next panel's columns, marked for its factorization, then the rest of the
   trailing matrix beside it. *info: LAPACK's, with LCL_OK (the caller words the message). */
/* check: the NaN / Inf scan first (1: all of A, 2: its lower triangle), started before the
   setup and waited for before the first kernel that writes A, so that the host's setup runs
   beside it instead of after a round trip */
LCL__PRIVATE lcl_status lcl__cl_fact_run(lcl_context *ctx, const char *fn, lcl_dmat *A, int chol, int32_t *ipiv, int64_t *info,
                                         const lcl_dense_opts *o, int check) {
    lcl__clfact f;
    lcl__device *d = &ctx->dev[A->dev];
    int64_t K;
    int lah, KB = 0;
    cl_int e = CL_SUCCESS, hit = 0;
    cl_mem flag = NULL;
    cl_event ev = NULL;
    lcl_status st = LCL_OK;
    if (A->rows == 0) return LCL_OK;
    if (check)
        st = lcl__cl_nonfinite_start(ctx, d, A->dtype, A->buf, 0, (int)A->rows, (int)A->cols, (int)A->ld, check == 2, &flag, &hit, &ev);
    memset(&f, 0, sizeof f);
    f.ctx = ctx;
    f.fn = fn;
    f.d = d;
    f.A = A;
    f.n = A->rows;
    f.ld = (int)A->ld;
    f.chol = chol;
    f.host = !chol && o && o->panel == 1;
    f.ipiv = ipiv;
    f.qp = d->queue[1];
    f.qu = d->queue[0];
    if (st == LCL_OK) st = chol ? lcl__cl_fact_open_chol(&f, o) : f.host ? lcl__cl_fact_open_host(&f, o) : lcl__cl_fact_open_lu(&f, o);
    if (ev) {   /* the scan's read into hit: waited for on every path */
        cl_int we = lcl__wait_read(ev, d->queue[0]);
        if (st == LCL_OK && we != CL_SUCCESS) st = lcl__clfail(ctx, we, "clWaitForEvents", d->info.name);
        else if (st == LCL_OK && hit) st = lcl__nan_fail(ctx, fn);
    }
    lcl__ws_put(d, flag);
    /* Cholesky with device panels: the look-ahead behind the panel on its queue, so the panels'
       chain has no queue-to-queue wait (tune.chol_lah_panel); f.ev is then the previous rest's end */
    lah = chol && !f.host && d->tune.chol_lah_panel;
    for (K = 0; K < f.n && st == LCL_OK; K += KB) {
        int64_t rest;
        int NB2;
        KB = lcl__cl_fact_width(&f, K);
        d->seen.narrow_panels += KB < f.NB && KB < f.n - K;
        rest = f.n - K - KB;
        NB2 = rest > 0 ? lcl__cl_fact_width(&f, K + KB) : 0;
        if (!lah && (st = lcl__cl_fact_wait(&f)) != LCL_OK) break;
        st = f.host ? lcl__cl_panel_host(&f, K, KB, rest) : lcl__cl_panel_dev(&f, K, KB);
        if (st != LCL_OK || rest == 0) break;
        /* lah: the next panel's columns behind the panel on its queue, once the previous rest is
           done (f.ev); the rest after them, as before, so that it does not take the units first */
        if (lah && ((st = lcl__cl_wait_mark(ctx, d, f.qp, &f.ev)) != LCL_OK || (st = lcl__cl_fact_update(&f, K, KB, rest, 0, NB2, f.qp)) != LCL_OK))
            break;
        if (!f.host) {   /* the update queue waits for the panel (lah: and the look-ahead) */
            cl_event ew;
            LCL__CLCHK(LCL__CL->clEnqueueMarkerWithWaitList(f.qp, 0, NULL, &ew), "clEnqueueMarkerWithWaitList");
            LCL__CLCHK(lcl__cl_join(d, 1, &ew), "clEnqueueBarrierWithWaitList");
        }
        if (!chol && (st = lcl__cl_lu_trail(&f, K, KB, rest)) != LCL_OK) break;
        if (!lah && ((st = lcl__cl_fact_update(&f, K, KB, rest, 0, NB2, f.qu)) != LCL_OK || (st = lcl__cl_fact_mark(&f, K, KB, rest, NB2)) != LCL_OK))
            break;
        if (rest > NB2 && (st = lcl__cl_fact_update(&f, K, KB, rest, NB2, (int)(rest - NB2), f.qu)) != LCL_OK) break;
        if (lah && rest > NB2 && (st = lcl__cl_fact_mark(&f, K, KB, rest, NB2)) != LCL_OK) break;   /* the rest's end */
        LCL__CL->clFlush(f.qu);
    }
    if (st == LCL_OK) st = lcl__cl_fact_finish(&f);
done:
    lcl__cl_fact_close(&f);
    if (info) *info = st == LCL_OK ? f.bad : 0;
    return st;
}

LCL__PRIVATE lcl_status lcl__cl_alg_check(lcl_context *ctx, const lcl_dense_opts *o, const char *fn) {
    if (o && o->alg != LCL_ALG_AUTO && o->alg != LCL_ALG_BLOCKED)
        return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "%s: the OpenCL backend runs the blocked algorithm only; the unblocked, Crout and "
                         "Cholesky-Banachiewicz oracles run on the serial and openmp backends", fn);
    return LCL_OK;
}

/* in-place transpose of a square device matrix through a temporary */
LCL__PRIVATE lcl_status lcl__cl_transpose_square(lcl_context *ctx, lcl_dmat *A) {
    lcl__device *d = &ctx->dev[A->dev];
    size_t es = lcl__dsize(A->dtype);
    cl_mem tmp = NULL;
    cl_int e = CL_SUCCESS;
    lcl_status st = lcl__buffer(ctx, d, (size_t)A->rows * (size_t)A->ld * es, CL_MEM_READ_WRITE, &tmp);
    if (st != LCL_OK) return st;
    if ((st = lcl__cl_transpose(ctx, d, A->dtype, (int)A->rows, (int)A->cols, A->buf, 0, (int)A->ld, tmp, (int)A->ld, d->queue[0])) != LCL_OK) goto done;
    LCL__CLCHK(LCL__CL->clEnqueueCopyBuffer(d->queue[0], tmp, A->buf, 0, 0, (size_t)A->rows * (size_t)A->ld * es, 0, NULL, NULL), "clEnqueueCopyBuffer");
    LCL__CLCHK(LCL__CL->clFinish(d->queue[0]), "clFinish");
done:
    LCL__CL->clReleaseMemObject(tmp);
    return st;
}

/* LU (chol 0) or Cholesky of a device matrix; *info LAPACK's, with LCL_OK. An upper factor is the
   lower one of the transpose. */
LCL__PRIVATE lcl_status lcl__cl_factor(lcl_context *ctx, const char *fn, int chol, lcl_uplo u, lcl_dmat *A, int32_t *ipiv, int64_t *info,
                                       const lcl_dense_opts *o) {
    lcl_status st, st2;
    if ((st = lcl__cl_alg_check(ctx, o, fn)) != LCL_OK) return st;
    if (!chol) return lcl__cl_fact_run(ctx, fn, A, 0, ipiv, info, o, 1);
    if (u == LCL_LOWER) return lcl__cl_fact_run(ctx, fn, A, 1, NULL, info, o, 2);
    if ((st = lcl__cl_transpose_square(ctx, A)) != LCL_OK) return st;
    st = lcl__cl_fact_run(ctx, fn, A, 1, NULL, info, o, 2);
    st2 = lcl__cl_transpose_square(ctx, A);
    return st != LCL_OK ? st : st2;
}

/* op(T) X = B for the kb x kb diagonal block at ot of T (lower: op(T) is lower), B kb x nrhs at ob,
   in one work-group's local memory (kb <= trsm_nb) */
LCL__PRIVATE lcl_status lcl__cl_trsm_left(lcl_context *ctx, lcl__device *d, lcl_dtype dt, cl_mem T, cl_long ot, int ld, int kb, int lower, int unit,
                                          int trans, cl_mem B, cl_long ob, int ldb, int nrhs, cl_command_queue q) {
    cl_kernel kt;
    size_t lws = 64, gws = (size_t)lcl__round_up(nrhs, 64);
    cl_int e;
    lcl_status st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_trsm_left_f" : "lcl_trsm_left_d", &kt);
    if (st != LCL_OK) return st;
    e = lcl__argv(kt, 11, LCL__A(T), LCL__A(ot), LCL__A(ld), LCL__A(kb), LCL__A(lower), LCL__A(unit), LCL__A(trans), LCL__A(B), LCL__A(ob),
                  LCL__A(ldb), LCL__A(nrhs));
    if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(q, kt, 1, NULL, &gws, &lws, 0, NULL, NULL);
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, "lcl_trsm_left", d->info.name);
}
/* Solves stay on the device: blocked substitution, the diagonal blocks by the local-memory
   TRSM kernel, the rest by GEMM. op(T) X = B for the factor T (row-major, ld), B n x nrhs. */
LCL__PRIVATE lcl_status lcl__cl_tri_solve(lcl_context *ctx, const lcl_dmat *T, int lower, int unit, int trans, lcl_dmat *B) {
    lcl__device *d = &ctx->dev[B->dev];
    lcl_dtype dt = B->dtype;
    int64_t n = T->rows, k, first, ld = T->ld, ldb = B->ld;
    int nb = d->tune.trsm_nb, nrhs = (int)B->cols;
    lcl_status st;
    if (n == 0 || nrhs == 0) return LCL_OK;
    first = lower ? 0 : (n - 1) / nb * nb;
    for (k = first; lower ? k < n : k >= 0; k += lower ? nb : -nb) {
        int kb = (int)(n - k < nb ? n - k : nb);
        if ((st = lcl__cl_trsm_left(ctx, d, dt, T->buf, k * ld + k, (int)ld, kb, lower, unit, trans, B->buf, k * ldb, (int)ldb, nrhs, d->queue[0])) !=
            LCL_OK)
            return st;
        if (lower && k + kb < n) {
            /* B[k+kb:n] -= op(T)[k+kb:n, k:k+kb] B[k:k+kb] */
            int64_t offa = trans ? k * ld + k + kb : (k + kb) * ld + k;
            st = lcl__cl_gemm(ctx, d, dt, (int)(n - k - kb), nrhs, kb, -1.0, T->buf, offa, (int)ld, B->buf, k * ldb, (int)ldb, trans ? 2 : 0,
                              1.0, B->buf, (k + kb) * ldb, (int)ldb, 0, d->queue[0]);
        } else if (!lower && k > 0) {
            /* B[0:k] -= op(T)[0:k, k:k+kb] B[k:k+kb] */
            int64_t offa = trans ? k * ld : k;
            st = lcl__cl_gemm(ctx, d, dt, (int)k, nrhs, kb, -1.0, T->buf, offa, (int)ld, B->buf, k * ldb, (int)ldb, trans ? 2 : 0,
                              1.0, B->buf, 0, (int)ldb, 0, d->queue[0]);
        }
        if (st != LCL_OK) return st;
    }
    return LCL_OK;
}

LCL__PRIVATE lcl_status lcl__cl_getrs(lcl_context *ctx, lcl_trans t, const lcl_dmat *LU, const int32_t *ipiv, lcl_dmat *B) {
    lcl__device *d = &ctx->dev[B->dev];
    int64_t n = LU->rows;
    cl_mem dpiv = NULL;
    cl_int e = CL_SUCCESS;
    lcl_status st;
    if (n == 0 || B->cols == 0) return LCL_OK;
    if ((st = lcl__buffer(ctx, d, (size_t)n * sizeof(cl_int), CL_MEM_READ_ONLY, &dpiv)) != LCL_OK) return st;
    LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], dpiv, CL_FALSE, 0, (size_t)n * sizeof(cl_int), ipiv, 0, NULL, NULL), "clEnqueueWriteBuffer(pivots)");
    if (t == LCL_NO_TRANS) {
        /* A = P^T L U: x = inv(U) inv(L) P b */
        if ((st = lcl__cl_laswp(ctx, d, B->dtype, B->buf, (int)B->ld, 0, (int)B->cols, 0, (int)n, dpiv, d->queue[0])) != LCL_OK) goto done;
        if ((st = lcl__cl_tri_solve(ctx, LU, 1, 1, 0, B)) != LCL_OK) goto done;
        if ((st = lcl__cl_tri_solve(ctx, LU, 0, 0, 0, B)) != LCL_OK) goto done;
    } else {
        /* A^T = U^T L^T P: x = P^T inv(L^T) inv(U^T) b */
        if ((st = lcl__cl_tri_solve(ctx, LU, 1, 0, 1, B)) != LCL_OK) goto done;
        if ((st = lcl__cl_tri_solve(ctx, LU, 0, 1, 1, B)) != LCL_OK) goto done;
        if ((st = lcl__cl_laswp(ctx, d, B->dtype, B->buf, (int)B->ld, 0, (int)B->cols, (int)n, 0, dpiv, d->queue[0])) != LCL_OK) goto done;
    }
    LCL__CLCHK(LCL__CL->clFinish(d->queue[0]), "clFinish");
done:
    LCL__CL->clFinish(d->queue[0]);
    LCL__CL->clReleaseMemObject(dpiv);
    return st;
}
LCL__PRIVATE lcl_status lcl__cl_potrs(lcl_context *ctx, lcl_uplo u, const lcl_dmat *L, lcl_dmat *B) {
    lcl__device *d = &ctx->dev[B->dev];
    cl_int e = CL_SUCCESS;
    lcl_status st;
    if (u == LCL_LOWER) {           /* A = L L^T */
        if ((st = lcl__cl_tri_solve(ctx, L, 1, 0, 0, B)) != LCL_OK) return st;
        st = lcl__cl_tri_solve(ctx, L, 0, 0, 1, B);
    } else {                        /* A = U^T U */
        if ((st = lcl__cl_tri_solve(ctx, L, 1, 0, 1, B)) != LCL_OK) return st;
        st = lcl__cl_tri_solve(ctx, L, 0, 0, 0, B);
    }
    if (st == LCL_OK) LCL__CLCHK(LCL__CL->clFinish(d->queue[0]), "clFinish");
done:
    return st;
}
#endif

/* >>dense-multi -------------------------------------------------------------------------------- */
#ifndef LINALG_CL_NO_OPENCL
/* lcl_getrf / lcl_potrf over every device of the context: host arrays (opts.device = -1) or a
   split lcl_dmat (lcl_dmat_upload_split). Column blocks of width nb go round-robin (block j to
   device j % D); a device holds its columns, all n rows, row-major. The devices of one lcl_context
   share a cl_context (or have one each, shared_context -1) but never each other's buffers, so
   whatever they share passes through the host. Device panels (the default): the owner of
   panel s, right after the look-ahead update of its columns, factors it on its compute queue with
   the one-device panel steps (a copy from the diagonal row down, so the kernels see a matrix of
   their own), reads it to pinned host memory in row chunks, and the host writes each chunk on to
   the devices with columns right of it as it comes (LU: then the pivots to all). The owner then
   finishes its update while the panel travels: the other devices wait for the panel, not for it.
   On two H100s this order took LU at n = 32768 from 1.23x to 1.76x of one. With one shared
   cl_context (m->chain) each write waits for its read's event instead of the host, and
   Cholesky's L21 leaves in column slabs, each as soon as its panel steps are done (a panel's
   transfers had waited for all of it: the last eighth's steps were chain-bound, 14 ms idle a
   GPU; 1.48x -> 1.54x at n = 32768); its failure flags are checked as they come in, so the host
   runs ahead. Cholesky updates all of a device's columns right of the look-ahead block in one
   GEMM launch whose lower mode knows where each of its round-robin blocks' diagonal lies
   (gemm_diag in kernels/dense.cl): grouped rectangles computed 12% more and ran as several
   launches. Host panels
   (opts.panel = 1): the LU panel is factored on the host (lcl__host_rgetf), Cholesky's diagonal
   block on the host and L21 by the block's owner. Each device swaps, solves and updates its own
   columns. The transfer queue writes panel k+1 while the compute queue still reads panel k, so
   panels and their host staging are double-buffered, each guarded by an event. */
LCL__PRIVATE void lcl__copy2d(lcl_dtype dt, int64_t rows, int64_t cols, const void *src, int64_t rss, int64_t css, void *dst,
                              int64_t rsd, int64_t csd);

typedef struct lcl__mdev {
    lcl__device *d;
    int64_t ncols, ld;          /* its columns, and the row pitch of a (elements) */
    cl_mem a, panel[2], piv, inv, tmp, gath;
    cl_event done[2];           /* the compute queue has finished reading panel[b] */
    cl_event sent[2];           /* the writes from host staging b have completed */
    cl_mem wp;                  /* device panels: the panel this device owns, factored here (ld nb,
                                   from its diagonal row down) */
    lcl__clfact pf;             /* device panels: the one-device panel state, on wp as pview */
    lcl_dmat pview;
    cl_event fev;               /* chained Cholesky: the last read of this device's failure flag */
} lcl__mdev;

#define LCL__MULTI_SLABS 8       /* chained Cholesky: L21 leaves in column slabs as the panel's steps end */
#ifndef LCL__MULTI_CHUNKS
#define LCL__MULTI_CHUNKS 4
#endif
typedef struct lcl__multi {
    lcl_dtype dt;
    size_t es;
    int64_t n, nb, nblk;
    int nd;
    lcl__mdev *dv;
    void *stage[2];             /* the panel on its way to the devices: n x nb, ld nb */
    void *rd;                   /* the next panel (LU) or diagonal block (Cholesky) from its owner */
    void *diag;                 /* Cholesky: the factored diagonal block on its way back */
    double *P;                  /* the panel widened to double */
    cl_event ready;             /* the read into rd (device panels: the panel into stage) */
    int devpanel;               /* panels factored on their owner device (else on the host) */
    int lower;                  /* a Cholesky factor: only the lower triangle is defined */
    cl_mem pin[2];              /* stage[b] is pinned memory of the first device when pin[b] is set */
    int32_t *rpiv;              /* device panels: the panel's pivots, from its diagonal row */
    int nchunk;                 /* device panels: the panel comes to the host in row chunks, */
    cl_event rdev[LCL__MULTI_SLABS];    /* each read's event; */
    int64_t sc0[LCL__MULTI_SLABS + 1];  /* chained Cholesky: in column slabs instead, from sc0[c] to sc0[c + 1] */
    cl_int rzero;               /* device panels: the first zero pivot / failing column, 1-based */
    int chain;                  /* device panels in one shared cl_context: a panel's chunks go on to
                                   the other devices by event waits, not through the host's waits */
    cl_int *rz;                 /* chained Cholesky: panel s's failure flag (rzev[s]), checked in */
    cl_event *rzev;             /*   order as they complete (rzchk: the next), so the host runs ahead */
    int64_t rzchk;
} lcl__multi;

/* blocks j < s that device p holds */
LCL__PRIVATE int64_t lcl__mb_before(const lcl__multi *m, int p, int64_t s) { return s > p ? (s - p - 1) / m->nd + 1 : 0; }
LCL__PRIVATE int64_t lcl__mb_width(const lcl__multi *m, int64_t j) { return LCL__MIN(m->nb, m->n - j * m->nb); }

LCL__PRIVATE void lcl__multi_close(lcl__multi *m) {
    int p, b;
    if (m->ready) { LCL__CL->clWaitForEvents(1, &m->ready); LCL__CL->clReleaseEvent(m->ready); }
    for (b = 0; b < LCL__MULTI_SLABS; b++)
        if (m->rdev[b]) { LCL__CL->clWaitForEvents(1, &m->rdev[b]); LCL__CL->clReleaseEvent(m->rdev[b]); }
    for (p = 0; m->dv && p < m->nd; p++) {
        lcl__mdev *v = &m->dv[p];
        cl_mem bufs[8];
        int i;
        if (v->d) { LCL__CL->clFinish(v->d->queue[1]); LCL__CL->clFinish(v->d->queue[0]); }
        for (b = 0; b < 2; b++) {
            if (v->done[b]) LCL__CL->clReleaseEvent(v->done[b]);
            if (v->sent[b]) LCL__CL->clReleaseEvent(v->sent[b]);
        }
        if (v->fev) LCL__CL->clReleaseEvent(v->fev);
        bufs[0] = v->a; bufs[1] = v->panel[0]; bufs[2] = v->panel[1]; bufs[3] = v->piv; bufs[4] = v->inv; bufs[5] = v->tmp; bufs[6] = v->gath; bufs[7] = v->wp;
        for (i = 0; i < 8; i++) if (bufs[i]) LCL__CL->clReleaseMemObject(bufs[i]);
    }
    for (b = 0; b < 2; b++) {
        if (m->pin[b]) lcl__unpin(m->dv[0].d, m->pin[b], (char *)m->stage[b]);
        else LCL_FREE(m->stage[b]);
    }
    LCL_FREE(m->dv);
    LCL_FREE(m->rpiv);
    LCL_FREE(m->rd);
    LCL_FREE(m->diag);
    LCL_FREE(m->P);
    memset(m, 0, sizeof *m);
}

/* The block size (unless given, the smallest tuned one: the one-device panel width with device
   panels, trsm_nb with host panels), buffers on the devices used (no more than there are column
   blocks) and the host staging (pinned where the first device gives it). chol: 0 LU, 1 Cholesky,
   2 either (a resident split matrix). */
LCL__PRIVATE lcl_status lcl__multi_open(lcl_context *ctx, lcl_dtype dt, int64_t n, const lcl_dense_opts *o, int chol, lcl__multi *m) {
    lcl_status st = LCL_OK;
    size_t es = lcl__dsize(dt), pb;
    int p, b;
    memset(m, 0, sizeof *m);
    if (n < 1) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "a split matrix of order %lld: it has no column blocks", (long long)n);
    m->dt = dt;
    m->es = es;
    m->n = n;
    m->devpanel = !(o && o->panel == 1);
    m->nb = o && o->block > 0 ? o->block : 0;
    for (p = 0; p < ctx->ndev; p++) {
        lcl__device *d = &ctx->dev[p];
        int nbs, NB = d->tune.trsm_nb;
        if (dt == LCL_F64 && !d->info.fp64)
            return lcl__fail(ctx, LCL_ERR_NO_FP64, "device %d ('%s') has no double precision (fp64): split the factorization over "
                             "devices that have it, or use single precision (LCL_F32)", p, d->info.name);
        if (m->devpanel) lcl__cl_blocks(d, NULL, n, chol == 1 ? (dt == LCL_F64 ? 2 : 1) : 0, &nbs, &NB);
        /* chol 2: a matrix uploaded split (lcl_dmat_upload_split), either factorization may follow */
        if (m->devpanel && chol != 0 && dt == LCL_F64 && d->tune.split_nb > 0 &&
            n >= (d->tune.big_n > 0 ? d->tune.big_n : 2 * d->tune.split_nb))
            NB = d->tune.split_nb;
        if (!(o && o->block > 0) && (m->nb == 0 || NB < m->nb)) m->nb = NB;
    }
    if (m->nb > n) m->nb = n;
    if (m->nb < 1) m->nb = 1;
    m->nblk = (n + m->nb - 1) / m->nb;
    m->nd = (int)LCL__MIN(LCL__MIN((int64_t)ctx->ndev, m->nblk), 255);   /* 8 bits in the GEMM's lower mode (lcl__multi_lower) */
    pb = (size_t)n * (size_t)m->nb;
    m->dv = (lcl__mdev *)lcl__alloc(ctx, "device table", (size_t)m->nd, sizeof *m->dv, &st);
    if (!m->dv) return st;
    memset(m->dv, 0, (size_t)m->nd * sizeof *m->dv);
    for (p = 0; p < m->nd; p++) m->dv[p].d = &ctx->dev[p];
    for (b = 0; b < 2; b++)
        if (!(m->devpanel && lcl__pinned(m->dv[0].d, pb * es, &m->pin[b], (char **)&m->stage[b])) &&
            !(m->stage[b] = lcl__alloc(ctx, "panel staging", pb, es, &st))) return st;
    if (m->devpanel) {
        if (!(m->rpiv = (int32_t *)lcl__alloc(ctx, "panel pivots", (size_t)m->nb, sizeof(int32_t), &st))) return st;
    } else {
        if (!(m->rd = lcl__alloc(ctx, "panel staging", pb, es, &st))) return st;
        if (!(m->diag = lcl__alloc(ctx, "diagonal block", (size_t)(m->nb * m->nb), es, &st))) return st;
        if (!(m->P = (double *)lcl__alloc(ctx, "panel", pb, sizeof(double), &st))) return st;
    }
    for (p = 0; p < m->nd; p++) {
        lcl__mdev *v = &m->dv[p];
        lcl__device *d = v->d;
        int64_t last = m->nblk - 1;
        size_t bytes;
        v->ncols = lcl__mb_before(m, p, m->nblk) * m->nb - (last % m->nd == p ? m->nb - lcl__mb_width(m, last) : 0);
        v->ld = lcl__round_up(v->ncols, 32);
        if (!lcl__mul_size((size_t)n, (size_t)v->ld, &bytes) || !lcl__mul_size(bytes, es, &bytes))
            return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%lld columns of %lld rows overflow size_t", (long long)v->ncols, (long long)n);
        if ((st = lcl__buffer(ctx, d, bytes, CL_MEM_READ_WRITE, &v->a)) != LCL_OK) return st;
        for (b = 0; b < 2; b++) if ((st = lcl__buffer(ctx, d, pb * es, CL_MEM_READ_WRITE, &v->panel[b])) != LCL_OK) return st;
        if ((st = lcl__buffer(ctx, d, (size_t)n * sizeof(cl_int), CL_MEM_READ_WRITE, &v->piv)) != LCL_OK) return st;
        if (m->devpanel && (st = lcl__buffer(ctx, d, pb * es, CL_MEM_READ_WRITE, &v->wp)) != LCL_OK) return st;
        if (chol == 1 && !m->devpanel && m->nb > d->tune.trsm_nb) {   /* host diagonal blocks: L21 through the inverse */
            if ((st = lcl__buffer(ctx, d, (size_t)(m->nb * m->nb) * es, CL_MEM_READ_WRITE, &v->inv)) != LCL_OK) return st;
            if ((st = lcl__buffer(ctx, d, pb * es, CL_MEM_READ_WRITE, &v->tmp)) != LCL_OK) return st;
        }
        /* Cholesky: the L21 rows of this device's columns, gathered into one operand */
        if (chol && (st = lcl__buffer(ctx, d, (size_t)v->ncols * (size_t)m->nb * es, CL_MEM_READ_WRITE, &v->gath)) != LCL_OK) return st;
    }
    return LCL_OK;
}

/* The host matrix (element strides rs, cs) to the devices' columns (up = 1) or back, through a
   staging block of at most LCL__MULTI_STAGE elements; back with lower = 1 writes only the lower
   triangle, the part Cholesky defines. */
#ifndef LCL__MULTI_STAGE
#define LCL__MULTI_STAGE ((int64_t)1 << 23)
#endif
LCL__PRIVATE lcl_status lcl__multi_copy(lcl_context *ctx, lcl__multi *m, void *data, int64_t rs, int64_t cs, int up, int lower) {
    int64_t n = m->n, maxld = 0, chunk, r0, t, i;
    size_t es = m->es;
    char *tmp, *h = (char *)data;
    lcl_status st = LCL_OK;
    int p;
    for (p = 0; p < m->nd; p++) maxld = LCL__MAX(maxld, m->dv[p].ld);
    chunk = LCL__MAX(1, LCL__MIN(n, (int64_t)LCL__MULTI_STAGE / maxld));
    if (!(tmp = (char *)lcl__alloc(ctx, "column staging", (size_t)(chunk * maxld), es, &st))) return st;
    for (p = 0; p < m->nd && st == LCL_OK; p++) {
        lcl__mdev *v = &m->dv[p];
        for (r0 = 0; r0 < n && st == LCL_OK; r0 += chunk) {
            int64_t r1 = LCL__MIN(n, r0 + chunk);
            cl_int e;
            if (!up && (e = lcl__cl_rect(v->d, 0, v->d->queue[0], v->a, v->ld, r0, 0, r1 - r0, v->ncols, tmp, v->ld, es, CL_TRUE, 0, NULL, NULL)) != CL_SUCCESS) {
                st = lcl__clfail(ctx, e, "clEnqueueReadBufferRect", v->d->info.name);
                break;
            }
            for (t = 0; t * m->nb < v->ncols; t++) {
                int64_t c0 = (t * m->nd + p) * m->nb, w = lcl__mb_width(m, t * m->nd + p), below = LCL__MAX(r0, c0 + w);
                char *hc = h + (size_t)(r0 * rs + c0 * cs) * es, *loc = tmp + (size_t)(t * m->nb) * es;
                if (up) lcl__copy2d(m->dt, r1 - r0, w, hc, rs, cs, loc, v->ld, 1);
                else if (!lower) lcl__copy2d(m->dt, r1 - r0, w, loc, v->ld, 1, hc, rs, cs);
                else {   /* the diagonal block's rows up to the diagonal, then the rows below it */
                    for (i = LCL__MAX(r0, c0); i < LCL__MIN(r1, c0 + w); i++)
                        lcl__copy2d(m->dt, 1, i - c0 + 1, loc + (size_t)((i - r0) * v->ld) * es, v->ld, 1, hc + (size_t)((i - r0) * rs) * es, rs, cs);
                    if (below < r1)
                        lcl__copy2d(m->dt, r1 - below, w, loc + (size_t)((below - r0) * v->ld) * es, v->ld, 1, hc + (size_t)((below - r0) * rs) * es, rs, cs);
                }
            }
            if (up && (e = lcl__cl_rect(v->d, 1, v->d->queue[0], v->a, v->ld, r0, 0, r1 - r0, v->ncols, tmp, v->ld, es, CL_TRUE, 0, NULL, NULL)) != CL_SUCCESS)
                st = lcl__clfail(ctx, e, "clEnqueueWriteBufferRect", v->d->info.name);
        }
    }
    LCL_FREE(tmp);
    return st;
}

/* the queue q waits for event ev from the other queue of the same device */
LCL__PRIVATE lcl_status lcl__multi_wait(lcl_context *ctx, lcl__mdev *v, int q, cl_event ev) {
    cl_int e = LCL__CL->clEnqueueBarrierWithWaitList(v->d->queue[q], 1, &ev, NULL);
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, "clEnqueueBarrierWithWaitList", v->d->info.name);
}
/* *ev = a marker on queue q (released first if set) */
LCL__PRIVATE lcl_status lcl__multi_mark(lcl_context *ctx, lcl__mdev *v, int q, cl_event *ev) {
    cl_int e;
    if (*ev) LCL__CL->clReleaseEvent(*ev);
    *ev = NULL;
    e = LCL__CL->clEnqueueMarkerWithWaitList(v->d->queue[q], 0, NULL, ev);
    if (e == CL_SUCCESS) e = LCL__CL->clFlush(v->d->queue[q]);
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, "clEnqueueMarkerWithWaitList", v->d->info.name);
}
/* the host waits for *ev (then released) */
LCL__PRIVATE lcl_status lcl__multi_host_wait(lcl_context *ctx, cl_event *ev, const char *dev) {
    cl_int e = *ev ? LCL__CL->clWaitForEvents(1, ev) : CL_SUCCESS;
    if (*ev) LCL__CL->clReleaseEvent(*ev);
    *ev = NULL;
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, "clWaitForEvents", dev);
}
/* host staging b may be overwritten once every device has read it */
LCL__PRIVATE lcl_status lcl__multi_staging_free(lcl_context *ctx, lcl__multi *m, int b) {
    lcl_status st = LCL_OK;
    int p;
    for (p = 0; p < m->nd; p++) {
        lcl_status s2 = lcl__multi_host_wait(ctx, &m->dv[p].sent[b], m->dv[p].d->info.name);
        if (st == LCL_OK) st = s2;
    }
    return st;
}
/* rows x cols from host staging b (ld nb) into panel[b] of device v on its transfer queue, once
   its compute queue is done with that panel; the compute queue waits for the write */
LCL__PRIVATE lcl_status lcl__multi_send(lcl_context *ctx, lcl__multi *m, lcl__mdev *v, int b, cl_mem dst, int64_t dld, int64_t r0,
                                        int64_t c0, int64_t rows, int64_t cols, const int32_t *piv, int64_t k) {
    cl_int e = CL_SUCCESS;
    lcl_status st;
    if (v->done[b] && (st = lcl__multi_wait(ctx, v, 1, v->done[b])) != LCL_OK) return st;
    if (piv) e = LCL__CL->clEnqueueWriteBuffer(v->d->queue[1], v->piv, CL_FALSE, (size_t)k * sizeof(cl_int), (size_t)cols * sizeof(cl_int),
                                               piv + k, 0, NULL, NULL);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueWriteBuffer(pivots)", v->d->info.name);
    if (dst && (e = lcl__cl_rect(v->d, 1, v->d->queue[1], dst, dld, r0, c0, rows, cols, m->stage[b], m->nb, m->es, CL_FALSE, 0, NULL, NULL)) != CL_SUCCESS)
        return lcl__clfail(ctx, e, "clEnqueueWriteBufferRect(panel)", v->d->info.name);
    if ((st = lcl__multi_mark(ctx, v, 1, &v->sent[b])) != LCL_OK) return st;
    return lcl__multi_wait(ctx, v, 0, v->sent[b]);
}
/* the next panel (rows x cols at r0, c0 of v's columns) to rd once queue 0 gets here */
LCL__PRIVATE lcl_status lcl__multi_fetch(lcl_context *ctx, lcl__multi *m, lcl__mdev *v, int64_t r0, int64_t c0, int64_t rows, int64_t cols) {
    cl_event mark = NULL;
    cl_int e;
    lcl_status st = lcl__multi_mark(ctx, v, 0, &mark);
    if (st != LCL_OK) return st;
    e = lcl__cl_rect(v->d, 0, v->d->queue[1], v->a, v->ld, r0, c0, rows, cols, m->rd, m->nb, m->es, CL_FALSE, 1, &mark, &m->ready);
    LCL__CL->clReleaseEvent(mark);
    if (e == CL_SUCCESS) e = LCL__CL->clFlush(v->d->queue[1]);
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, "clEnqueueReadBufferRect(panel)", v->d->info.name);
}
LCL__PRIVATE lcl_status lcl__multi_copy_rect(lcl_context *ctx, lcl__mdev *v, int q, size_t es, cl_mem src, int64_t sld, int64_t sr, int64_t sc,
                                             cl_mem dst, int64_t dld, int64_t dr, int64_t dc, int64_t rows, int64_t cols) {
    size_t so[3], dor[3], reg[3];
    cl_int e;
    if (rows <= 0 || cols <= 0) return LCL_OK;
    so[0] = (size_t)sc * es; so[1] = (size_t)sr; so[2] = 0;
    dor[0] = (size_t)dc * es; dor[1] = (size_t)dr; dor[2] = 0;
    reg[0] = (size_t)cols * es; reg[1] = (size_t)rows; reg[2] = 1;
    e = LCL__CL->clEnqueueCopyBufferRect(v->d->queue[q], src, dst, so, dor, reg, (size_t)sld * es, 0, (size_t)dld * es, 0, 0, NULL, NULL);
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, "clEnqueueCopyBufferRect", v->d->info.name);
}

/* LU panel s on the host, from rd: its pivots to ipiv (*zero: the first zero pivot, 1-based), the
   panel to its owner's columns and to each device with columns right of it, the pivots to all */
LCL__PRIVATE lcl_status lcl__multi_panel_lu(lcl_context *ctx, lcl__multi *m, int64_t s, int32_t *piv, int32_t *ipiv, int64_t *zero) {
    size_t es = m->es;
    int64_t n = m->n, nb = m->nb, k = s * nb, kb = lcl__mb_width(m, s), rows = n - k, lco = s / m->nd * nb, z = 0, i;
    int o = (int)(s % m->nd), b = (int)(s & 1), p;
    lcl_status st;
    for (i = 0; i < rows; i++) lcl__widen(m->dt, (char *)m->rd + (size_t)(i * nb) * es, m->P + i * kb, (size_t)kb);
    lcl__host_rgetf(rows, (int)kb, m->P, (int)kb, piv, &z, 0);
    if (z && !*zero) *zero = k + z;
    for (i = 0; i < kb; i++) ipiv[k + i] = (int32_t)(k + piv[i]);
    if ((st = lcl__multi_staging_free(ctx, m, b)) != LCL_OK) return st;
    for (i = 0; i < rows; i++) lcl__narrow(m->dt, m->P + i * kb, (char *)m->stage[b] + (size_t)(i * nb) * es, (size_t)kb);
    for (p = 0; p < m->nd; p++) {
        lcl__mdev *v = &m->dv[p];
        int right = lcl__mb_before(m, p, s + 1) * nb < v->ncols;
        st = p == o ? lcl__multi_send(ctx, m, v, b, v->a, v->ld, k, lco, rows, kb, ipiv, k)
                    : lcl__multi_send(ctx, m, v, b, right ? v->panel[b] : NULL, nb, 0, 0, rows, kb, ipiv, k);
        if (st != LCL_OK) return st;
    }
    return LCL_OK;
}
/* Cholesky's diagonal block s on the host, in double, from rd (*fail: the order of the first
   non-positive minor, and nothing more is done); its owner gets it back and, unless it is the
   last, solves L21 on its transfer queue, which goes through the host to the other devices with
   columns right of it */
LCL__PRIVATE lcl_status lcl__multi_panel_chol(lcl_context *ctx, lcl__multi *m, int64_t s, int64_t *fail) {
    lcl_dtype dt = m->dt;
    size_t es = m->es;
    int64_t n = m->n, nb = m->nb, k = s * nb, kb = lcl__mb_width(m, s), rest = n - k - kb, lco = s / m->nd * nb, inf = 0, i;
    int o = (int)(s % m->nd), b = (int)(s & 1), p;
    lcl__mdev *vo = &m->dv[o];
    lcl__device *d = vo->d;
    cl_event l21 = NULL;
    cl_int e;
    lcl_status st;
    lcl_dense_opts unb;
    memset(&unb, 0, sizeof unb);
    unb.alg = LCL_ALG_UNBLOCKED;
    for (i = 0; i < kb; i++) lcl__widen(dt, (char *)m->rd + (size_t)(i * nb) * es, m->P + i * kb, (size_t)kb);
    /* row-major lower = column-major upper */
    if ((st = lcl__cpu_potrf(ctx, LCL_F64, LCL_UPPER, kb, m->P, kb, &inf, &unb)) != LCL_OK) return st;
    if (inf) { *fail = k + inf; return LCL_OK; }
    lcl__narrow(dt, m->P, m->diag, (size_t)(kb * kb));
    if ((e = lcl__cl_rect(d, 1, d->queue[1], vo->a, vo->ld, k, lco, kb, kb, m->diag, kb, es, CL_FALSE, 0, NULL, NULL)) != CL_SUCCESS)
        return lcl__clfail(ctx, e, "clEnqueueWriteBufferRect(diagonal block)", d->info.name);
    if (rest == 0) return LCL_OK;
    if (kb <= d->tune.trsm_nb) {
        if ((st = lcl__cl_trsm(ctx, d, dt, 1, vo->a, k * vo->ld + lco, (int)vo->ld, (int)kb, vo->a, (k + kb) * vo->ld + lco, (int)vo->ld, (int)rest,
                               d->queue[1])) != LCL_OK) return st;
    } else {
        if ((st = lcl__cl_trtri(ctx, d, dt, vo->a, k * vo->ld + lco, (int)vo->ld, (int)kb, 0, vo->inv, d->queue[1])) != LCL_OK) return st;
        if ((st = lcl__cl_gemm(ctx, d, dt, (int)rest, (int)kb, (int)kb, 1.0, vo->a, (k + kb) * vo->ld + lco, (int)vo->ld, vo->inv, 0, (int)kb, 0,
                               0.0, vo->tmp, 0, (int)nb, 0, d->queue[1])) != LCL_OK) return st;
        if ((st = lcl__multi_copy_rect(ctx, vo, 1, es, vo->tmp, nb, 0, 0, vo->a, vo->ld, k + kb, lco, rest, kb)) != LCL_OK) return st;
    }
    if ((st = lcl__multi_staging_free(ctx, m, b)) != LCL_OK) return st;
    e = lcl__cl_rect(d, 0, d->queue[1], vo->a, vo->ld, k + kb, lco, rest, kb, m->stage[b], nb, es, CL_FALSE, 0, NULL, &l21);
    if (e == CL_SUCCESS) e = LCL__CL->clFlush(d->queue[1]);
    if (e != CL_SUCCESS) { st = lcl__clfail(ctx, e, "clEnqueueReadBufferRect(L21)", d->info.name); goto done; }
    if ((st = lcl__multi_mark(ctx, vo, 1, &vo->sent[b])) != LCL_OK) goto done;
    if ((st = lcl__multi_wait(ctx, vo, 0, vo->sent[b])) != LCL_OK) goto done;
    if ((st = lcl__multi_host_wait(ctx, &l21, d->info.name)) != LCL_OK) goto done;
    for (p = 0; p < m->nd; p++)
        if (p != o && lcl__mb_before(m, p, s + 1) * nb < m->dv[p].ncols &&
            (st = lcl__multi_send(ctx, m, &m->dv[p], b, m->dv[p].panel[b], nb, 0, 0, rest, kb, NULL, 0)) != LCL_OK) goto done;
done:
    if (l21) { LCL__CL->clWaitForEvents(1, &l21); LCL__CL->clReleaseEvent(l21); }
    return st;
}
/* Device panels: each device's one-device panel state (lcl__clfact) on its wp, for one run */
LCL__PRIVATE lcl_status lcl__multi_panels_open(lcl_context *ctx, lcl__multi *m, int chol) {
    lcl_dense_opts ob;
    int p;
    memset(&ob, 0, sizeof ob);
    ob.block = (int)m->nb;
    for (p = 0; p < m->nd; p++) {
        lcl__mdev *v = &m->dv[p];
        lcl__clfact *f = &v->pf;
        lcl_status st;
        memset(&v->pview, 0, sizeof v->pview);
        v->pview.dtype = m->dt;
        v->pview.rows = v->pview.cols = m->n;
        v->pview.ld = m->nb;
        v->pview.dev = (int)(v->d - ctx->dev);
        v->pview.buf = v->wp;
        memset(f, 0, sizeof *f);
        f->ctx = ctx;
        f->fn = chol ? "the split Cholesky panel" : "the split LU panel";
        f->d = v->d;
        f->A = &v->pview;
        f->n = m->n;
        f->ld = (int)m->nb;
        f->chol = chol;
        f->part = 1;
        f->qp = f->qu = v->d->queue[0];   /* the panel before the rest of the update (lcl__multi_devpanel) */
        if ((st = chol ? lcl__cl_fact_open_chol(f, &ob) : lcl__cl_fact_open_lu(f, &ob)) != LCL_OK) return st;
    }
    return LCL_OK;
}
LCL__PRIVATE void lcl__multi_panels_close(lcl__multi *m) {
    int p;
    for (p = 0; m->dv && p < m->nd; p++)
        if (m->dv[p].pf.d) {
            lcl__cl_fact_close(&m->dv[p].pf);
            memset(&m->dv[p].pf, 0, sizeof m->dv[p].pf);
        }
}
/* Device panels: panel s on its owner's compute queue, next after the look-ahead update of its
   columns and before the rest of the update (the other devices wait for it, not this one): copied
   to wp from the diagonal row down, factored there by the one-device panel steps (LU with partial
   pivoting, or Cholesky's left-looking steps), copied back (the owner's updates read it there).
   Then on the transfer queue the host gets the panel (LU) or L21 (Cholesky) in stage[b],
   in row chunks (rdev[c]) so their writes to the other devices start while later chunks are read,
   and LU's pivots in rpiv (from the diagonal row), the first failure in rzero (m->ready). */
LCL__PRIVATE lcl_status lcl__multi_devpanel(lcl_context *ctx, lcl__multi *m, int64_t s, int chol) {
    int64_t nb = m->nb, k = s * nb, kb = lcl__mb_width(m, s), rows = m->n - k, rest = rows - kb, lco = s / m->nd * nb, tx, r0, len;
    int b = (int)(s & 1), c, slabs = chol && m->chain;
    lcl__mdev *v = &m->dv[s % m->nd];
    lcl__device *d = v->d;
    lcl__clfact *f = &v->pf;
    cl_command_queue q = d->queue[1], qc = d->queue[0];
    cl_mem flag = chol ? f->dfail : f->P.zero;
    cl_int e = CL_SUCCESS;
    lcl_status st = LCL_OK;
    if ((st = lcl__multi_copy_rect(ctx, v, 0, m->es, v->a, v->ld, k, lco, v->wp, nb, 0, 0, rows, kb)) != LCL_OK) return st;
    if (v->fev) {   /* chained: the flag's last read (transfer queue) before it is cleared again */
        LCL__CLCHK(LCL__CL->clEnqueueBarrierWithWaitList(qc, 1, &v->fev, NULL), "clEnqueueBarrierWithWaitList");
        LCL__CL->clReleaseEvent(v->fev);
        v->fev = NULL;
    }
    LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(qc, flag, CL_FALSE, 0, sizeof(cl_int), &lcl__zero, 0, NULL, NULL), "clEnqueueWriteBuffer");
    v->pview.rows = v->pview.cols = rows;
    f->n = rows;
    if (slabs) {    /* L21 leaves slab by slab, each once its steps are done */
        int64_t nsub = (kb + f->nb - 1) / f->nb, per = (nsub + LCL__MULTI_SLABS - 1) / LCL__MULTI_SLABS, i, j;
        if ((st = lcl__multi_staging_free(ctx, m, b)) != LCL_OK) return st;
        m->nchunk = 0;
        m->sc0[0] = 0;
        for (i = 0, j = 0; j < kb; i++) {
            int js = (int)LCL__MIN((int64_t)f->nb, kb - j);
            cl_event mk = NULL;
            if ((st = lcl__cl_step_chol(f, 0, kb, j, js)) != LCL_OK) return st;
            j += js;
            if (rest == 0 || ((i + 1) % per && j < kb)) continue;
            LCL__CLCHK(LCL__CL->clEnqueueMarkerWithWaitList(qc, 0, NULL, &mk), "clEnqueueMarkerWithWaitList");
            LCL__CL->clFlush(qc);
            c = m->nchunk;
            e = lcl__cl_rect(d, 0, q, v->wp, nb, kb, m->sc0[c], rest, j - m->sc0[c], (char *)m->stage[b] + (size_t)m->sc0[c] * m->es, nb, m->es,
                             CL_FALSE, 1, &mk, &m->rdev[c]);
            LCL__CL->clReleaseEvent(mk);
            LCL__CLCHK(e, "clEnqueueReadBufferRect(panel)");
            LCL__CL->clFlush(q);
            m->sc0[++m->nchunk] = j;
        }
    } else if ((st = lcl__cl_panel_dev(f, 0, (int)kb)) != LCL_OK)
        return st;
    if ((st = lcl__multi_copy_rect(ctx, v, 0, m->es, v->wp, nb, 0, 0, v->a, v->ld, k, lco, rows, kb)) != LCL_OK) return st;
    LCL__CLCHK(lcl__cl_after(d, qc, q), "clEnqueueMarkerWithWaitList");
    if (!slabs) {
        if ((st = lcl__multi_staging_free(ctx, m, b)) != LCL_OK) return st;
        tx = chol ? rest : rows;
        m->nchunk = (int)LCL__MAX(1, LCL__MIN((int64_t)LCL__MULTI_CHUNKS, tx / 2048));
        len = (tx + m->nchunk - 1) / m->nchunk;
        for (c = 0, r0 = 0; c < m->nchunk; c++, r0 += len)
            LCL__CLCHK(lcl__cl_rect(d, 0, q, v->wp, nb, (chol ? kb : 0) + r0, 0, LCL__MIN(len, tx - r0), kb,
                                    (char *)m->stage[b] + (size_t)(r0 * nb) * m->es, nb, m->es, CL_FALSE, 0, NULL, &m->rdev[c]),
                       "clEnqueueReadBufferRect(panel)");
    }
    if (!chol)
        LCL__CLCHK(LCL__CL->clEnqueueReadBuffer(q, f->P.piv, CL_FALSE, 0, (size_t)kb * sizeof(cl_int), m->rpiv, 0, NULL, NULL),
                   "clEnqueueReadBuffer(pivots)");
    if (chol && m->rz) {
        LCL__CLCHK(LCL__CL->clEnqueueReadBuffer(q, flag, CL_FALSE, 0, sizeof(cl_int), &m->rz[s], 0, NULL, &m->rzev[s]), "clEnqueueReadBuffer");
        LCL__CL->clRetainEvent(m->rzev[s]);
        v->fev = m->rzev[s];
    } else
        LCL__CLCHK(LCL__CL->clEnqueueReadBuffer(q, flag, CL_FALSE, 0, sizeof(cl_int), &m->rzero, 0, NULL, &m->ready), "clEnqueueReadBuffer");
    LCL__CLCHK(LCL__CL->clFlush(q), "clFlush");
done:
    return st;
}
/* Chained Cholesky: the failure flags of panels rzchk..s in order, as far as they have come in (all
   of them, waiting, when wait is set); *bad gets the first failure's order */
LCL__PRIVATE lcl_status lcl__multi_flags(lcl_context *ctx, lcl__multi *m, int64_t s, int wait, int64_t *bad) {
    for (; m->rzchk <= s && !*bad; m->rzchk++) {
        cl_event *ev = &m->rzev[m->rzchk];
        cl_int e, es = CL_COMPLETE;
        lcl_status st;
        if (!*ev) continue;
        if (!wait) {
            e = LCL__CL->clGetEventInfo(*ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof es, &es, NULL);
            if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clGetEventInfo", m->dv[m->rzchk % m->nd].d->info.name);
            if (es > CL_COMPLETE) break;
        }
        if (es < 0) return lcl__clfail(ctx, es, "a split Cholesky panel's commands", m->dv[m->rzchk % m->nd].d->info.name);
        if ((st = lcl__multi_host_wait(ctx, ev, m->dv[m->rzchk % m->nd].d->info.name)) != LCL_OK) return st;
        if (m->rz[m->rzchk]) *bad = m->rzchk * m->nb + m->rz[m->rzchk];
    }
    return LCL_OK;
}
/* Device panels, on the host as panel s's chunks arrive: each goes on to the devices with columns
   right of the panel (their transfer queues, once their compute queues are done with panel[b]);
   chained (m->chain), each write waits for its chunk's read instead, and the host goes on at once.
   Then LU's pivots to ipiv and to every device, whose compute queue waits for its transfer queue;
   Cholesky stops at a failure (*bad), which chained is found as the flags come in
   (lcl__multi_flags). */
LCL__PRIVATE lcl_status lcl__multi_share(lcl_context *ctx, lcl__multi *m, int64_t s, int chol, int32_t *ipiv, int64_t *bad) {
    int64_t nb = m->nb, k = s * nb, kb = lcl__mb_width(m, s), tx = m->n - k - (chol ? kb : 0), len = m->nchunk ? (tx + m->nchunk - 1) / m->nchunk : 0, r0, i;
    int slabs = chol && m->chain;   /* L21 in column slabs (lcl__multi_devpanel), else in row chunks */
    int o = (int)(s % m->nd), b = (int)(s & 1), p, c;
    cl_int e;
    lcl_status st = LCL_OK;
    for (c = 0, r0 = 0; c < m->nchunk; c++, r0 += len) {
        if (!m->chain && (st = lcl__multi_host_wait(ctx, &m->rdev[c], m->dv[o].d->info.name)) != LCL_OK) return st;
        for (p = 0; p < m->nd; p++) {
            lcl__mdev *v = &m->dv[p];
            if (p == o || lcl__mb_before(m, p, s + 1) * nb >= v->ncols) continue;
            if (c == 0 && v->done[b] && (st = lcl__multi_wait(ctx, v, 1, v->done[b])) != LCL_OK) return st;
            if (slabs)
                e = lcl__cl_rect(v->d, 1, v->d->queue[1], v->panel[b], nb, 0, m->sc0[c], tx, m->sc0[c + 1] - m->sc0[c],
                                 (char *)m->stage[b] + (size_t)m->sc0[c] * m->es, nb, m->es, CL_FALSE, 1, &m->rdev[c], NULL);
            else
                e = lcl__cl_rect(v->d, 1, v->d->queue[1], v->panel[b], nb, r0, 0, LCL__MIN(len, tx - r0), kb,
                                 (char *)m->stage[b] + (size_t)(r0 * nb) * m->es, nb, m->es, CL_FALSE, m->chain ? 1 : 0, m->chain ? &m->rdev[c] : NULL,
                                 NULL);
            if (e == CL_SUCCESS) e = LCL__CL->clFlush(v->d->queue[1]);
            if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueWriteBufferRect(panel)", v->d->info.name);
        }
        if (m->rdev[c]) LCL__CL->clReleaseEvent(m->rdev[c]);
        m->rdev[c] = NULL;
    }
    if (chol && m->rz) {
        if ((st = lcl__multi_flags(ctx, m, s, 0, bad)) != LCL_OK || *bad) return st;
    } else {
        if ((st = lcl__multi_host_wait(ctx, &m->ready, m->dv[o].d->info.name)) != LCL_OK) return st;
        if (chol && m->rzero) { *bad = k + m->rzero; return LCL_OK; }
    }
    if (!chol) {
        for (i = 0; i < kb; i++) ipiv[k + i] = (int32_t)(k + m->rpiv[i]);
        if (m->rzero && !*bad) *bad = k + m->rzero;
    }
    for (p = 0; p < m->nd; p++) {
        lcl__mdev *v = &m->dv[p];
        if (chol && p != o && lcl__mb_before(m, p, s + 1) * nb >= v->ncols) continue;
        if ((st = lcl__multi_send(ctx, m, v, b, NULL, nb, 0, 0, 0, kb, chol ? NULL : ipiv, k)) != LCL_OK) return st;
    }
    return LCL_OK;
}
/* where device v reads panel s's L: in its own columns if it owns the panel, else in panel[b] */
LCL__PRIVATE cl_mem lcl__multi_l(const lcl__multi *m, lcl__mdev *v, int64_t s, int64_t *offl, int64_t *ldl) {
    int own = s % m->nd == v - m->dv;
    *offl = own ? s * m->nb * v->ld + s / m->nd * m->nb : 0;
    *ldl = own ? v->ld : m->nb;
    return own ? v->a : v->panel[s & 1];
}
/* LU: A22 -= L21 U12 on v's columns c0..c0+cols */
LCL__PRIVATE lcl_status lcl__multi_lu_gemm(lcl_context *ctx, lcl__multi *m, lcl__mdev *v, int64_t s, int64_t c0, int64_t cols) {
    int64_t k = s * m->nb, kb = lcl__mb_width(m, s), ld = v->ld, offl, ldl;
    cl_mem L = lcl__multi_l(m, v, s, &offl, &ldl);
    return lcl__cl_gemm(ctx, v->d, m->dt, (int)(m->n - k - kb), (int)cols, (int)kb, -1.0, L, offl + kb * ldl, (int)ldl, v->a, k * ld + c0, (int)ld, 0,
                        1.0, v->a, (k + kb) * ld + c0, (int)ld, 0, v->d->queue[0]);
}
/* LU on device v's columns right of panel s (from local column r0): its swaps, then U12 =
   inv(L11) A12 by trsm_nb-wide TRSM steps, each followed by the GEMM of the rows below it */
LCL__PRIVATE lcl_status lcl__multi_trail_lu(lcl_context *ctx, lcl__multi *m, lcl__mdev *v, int64_t s, int64_t r0) {
    lcl__device *d = v->d;
    int64_t k = s * m->nb, kb = lcl__mb_width(m, s), nr = v->ncols - r0, ld = v->ld, offl, ldl, j;
    cl_mem L = lcl__multi_l(m, v, s, &offl, &ldl);
    cl_command_queue q = d->queue[0];
    lcl_status st;
    if ((st = lcl__cl_laswp(ctx, d, m->dt, v->a, (int)ld, (int)r0, (int)v->ncols, (int)k, (int)(k + kb), v->piv, q)) != LCL_OK) return st;
    for (j = 0; j < kb && st == LCL_OK; j += d->tune.trsm_nb) {
        int64_t jb = LCL__MIN((int64_t)d->tune.trsm_nb, kb - j), below = kb - j - jb;
        st = lcl__cl_trsm(ctx, d, m->dt, 0, L, offl + j * ldl + j, (int)ldl, (int)jb, v->a, (k + j) * ld + r0, (int)ld, (int)nr, q);
        if (st == LCL_OK && below > 0)
            st = lcl__cl_gemm(ctx, d, m->dt, (int)below, (int)nr, (int)jb, -1.0, L, offl + (j + jb) * ldl + j, (int)ldl, v->a, (k + j) * ld + r0,
                              (int)ld, 0, 1.0, v->a, (k + j + jb) * ld + r0, (int)ld, 0, q);
    }
    return st;
}
/* the GEMM's lower mode for a device's round-robin column blocks (gemm_diag in kernels/dense.cl):
   the diagonal of block c, counted from the device's first block, starts nd * nb rows below the
   last one's */
LCL__PRIVATE int lcl__multi_lower(const lcl__multi *m) { return m->nd + (int)(m->nb << 8); }
/* where device v reads Cholesky's L21 of panel s: *off is its first row's (row k + kb) offset */
LCL__PRIVATE cl_mem lcl__multi_l21(const lcl__multi *m, lcl__mdev *v, int64_t s, int64_t *off, int64_t *ld) {
    cl_mem L = lcl__multi_l(m, v, s, off, ld);
    if (L == v->a) *off += lcl__mb_width(m, s) * *ld;
    return L;
}
/* Cholesky's A22 -= L21 L21^T on v's column blocks t..t+w-1, their lower parts only: rows j0..n,
   j0 the first block's diagonal. op(B) is the block's own L21 rows (w = 1) or those of all the
   blocks, gathered into v->gath from block t on; the GEMM's lower mode D + (nb << 8) skips the
   rows above each block's diagonal. */
LCL__PRIVATE lcl_status lcl__multi_syrk(lcl_context *ctx, lcl__multi *m, lcl__mdev *v, int64_t s, int64_t t, int64_t w) {
    int64_t nb = m->nb, kb = lcl__mb_width(m, s), k = s * nb, j0 = (t * m->nd + (v - m->dv)) * nb, off, ld;
    int64_t cols = LCL__MIN((t + w) * nb, v->ncols) - t * nb;
    cl_mem L = lcl__multi_l21(m, v, s, &off, &ld), B = w == 1 ? L : v->gath;
    int64_t offa = off + (j0 - k - kb) * ld, offb = w == 1 ? offa : 0;
    int lower = w == 1 ? 1 : lcl__multi_lower(m), nw = (v->d->tune.upd_narrow & 4) != 0;
    return lcl__cl_gemm_gw(ctx, v->d, m->dt, (int)(m->n - j0), (int)cols, (int)kb, -1.0, L, offa, (int)ld, B, offb, (int)(w == 1 ? ld : nb), 1, 1.0,
                           v->a, j0 * v->ld + t * nb, (int)v->ld, lower, v->d->queue[0], v->d->tune.upd_groups, nw);
}
/* Cholesky's update of v's column blocks from t on, after panel s, in one launch: column block j
   needs rows j*nb.. of L21 and, as op(B), the L21 rows of its own columns (gathered) */
LCL__PRIVATE lcl_status lcl__multi_rest_chol(lcl_context *ctx, lcl__multi *m, lcl__mdev *v, int64_t s, int64_t t) {
    size_t es = m->es;
    int64_t nb = m->nb, D = m->nd, p = v - m->dv, kb = lcl__mb_width(m, s), k = s * nb, tn = lcl__mb_before(m, (int)p, m->nblk), full, off, ld;
    cl_mem L = lcl__multi_l21(m, v, s, &off, &ld);
    cl_int e;
    lcl_status st;
    if (tn - t <= 1) return tn > t ? lcl__multi_syrk(ctx, m, v, s, t, 1) : LCL_OK;
    /* gather: full blocks with one 3-D copy (D*nb rows apart), a short last one alone */
    full = tn - t - ((tn - 1) * D + p == m->nblk - 1 && lcl__mb_width(m, m->nblk - 1) < nb);
    if (full > 0) {
        size_t so[3], dor[3], reg[3];
        so[0] = (size_t)(off % ld) * es; so[1] = (size_t)(off / ld + (t * D + p) * nb - k - kb); so[2] = 0;
        dor[0] = dor[1] = dor[2] = 0;
        reg[0] = (size_t)kb * es; reg[1] = (size_t)nb; reg[2] = (size_t)full;
        e = LCL__CL->clEnqueueCopyBufferRect(v->d->queue[0], L, v->gath, so, dor, reg, (size_t)ld * es, (size_t)(D * nb * ld) * es, (size_t)nb * es,
                                             (size_t)(nb * nb) * es, 0, NULL, NULL);
        if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueCopyBufferRect(gather)", v->d->info.name);
    }
    if (full < tn - t &&
        (st = lcl__multi_copy_rect(ctx, v, 0, es, L, ld, off / ld + ((tn - 1) * D + p) * nb - k - kb, off % ld, v->gath, nb, (tn - 1 - t) * nb, 0,
                                   lcl__mb_width(m, m->nblk - 1), kb)) != LCL_OK) return st;
    return lcl__multi_syrk(ctx, m, v, s, t, tn - t);
}
/* The factorization over the devices (chol: lower Cholesky of the columns as stored). *bad gets
   LAPACK's info: the first zero pivot (LU goes on) or non-positive leading minor (Cholesky stops
   there). The strictly upper triangle of Cholesky's device copy is left undefined, so only the
   lower one comes back. Per panel s: the host factors it once
   its owner has sent it (rd, m->ready), the devices get it; each device with columns right of it
   (LU: swaps and U12 first) updates the next panel's columns, if it owns them, and sends them to
   the host, then the rest of its columns. */
LCL__PRIVATE lcl_status lcl__multi_run(lcl_context *ctx, lcl__multi *m, int chol, int32_t *ipiv, int64_t *bad) {
    int64_t n = m->n, nb = m->nb, s, w0 = lcl__mb_width(m, 0);
    int32_t lp[1024];
    int32_t *piv = nb <= 1024 ? lp : NULL;
    lcl_status st = LCL_OK;
    lcl__mdev *v0 = &m->dv[0];
    cl_int e;
    int p;
    m->lower = 0;
    m->chain = m->devpanel && v0->d->tune.split_chain;
    for (p = 1; p < m->nd; p++) if (m->dv[p].d->cl != v0->d->cl) m->chain = 0;
    m->rzchk = 0;
    if (m->chain && chol &&
        (!(m->rz = (cl_int *)lcl__alloc(ctx, "panel flags", (size_t)m->nblk, sizeof(cl_int), &st)) ||
         !(m->rzev = (cl_event *)lcl__alloc(ctx, "panel flag events", (size_t)m->nblk, sizeof(cl_event), &st))))
        goto done;
    if (m->rzev) memset(m->rzev, 0, (size_t)m->nblk * sizeof(cl_event));
    if (m->devpanel) {
        if ((st = lcl__multi_panels_open(ctx, m, chol)) != LCL_OK || (st = lcl__multi_devpanel(ctx, m, 0, chol)) != LCL_OK) goto done;
    } else {
        if (!chol && !piv && !(piv = (int32_t *)lcl__alloc(ctx, "panel pivots", (size_t)nb, sizeof(int32_t), &st))) return st;
        e = lcl__cl_rect(v0->d, 0, v0->d->queue[0], v0->a, v0->ld, 0, 0, chol ? w0 : n, w0, m->rd, nb, m->es, CL_TRUE, 0, NULL, NULL);
        if (e != CL_SUCCESS) { st = lcl__clfail(ctx, e, chol ? "clEnqueueReadBufferRect(diagonal block)" : "clEnqueueReadBufferRect(panel)", v0->d->info.name); goto done; }
    }
    for (s = 0; s < m->nblk; s++) {
        int64_t k = s * nb, kb = lcl__mb_width(m, s), rest = n - k - kb, nl = s + 1 < m->nblk ? lcl__mb_width(m, s + 1) : 0;
        /* device panels: lcl__multi_share waits chunk by chunk (m->ready comes after the last) */
        if (!m->devpanel && (st = lcl__multi_host_wait(ctx, &m->ready, m->dv[s % m->nd].d->info.name)) != LCL_OK) goto done;
        st = m->devpanel ? lcl__multi_share(ctx, m, s, chol, ipiv, bad)
                         : chol ? lcl__multi_panel_chol(ctx, m, s, bad) : lcl__multi_panel_lu(ctx, m, s, piv, ipiv, bad);
        if (st != LCL_OK || rest == 0 || (chol && *bad)) break;
        for (p = 0; p < m->nd; p++) {
            lcl__mdev *v = &m->dv[p];
            int64_t t = lcl__mb_before(m, p, s + 1), r0 = t * nb;
            int next = p == (s + 1) % m->nd;
            if (r0 >= v->ncols) continue;
            if (!chol && (st = lcl__multi_trail_lu(ctx, m, v, s, r0)) != LCL_OK) goto done;
            if (next) {   /* the next panel first, then to the host */
                st = chol ? lcl__multi_syrk(ctx, m, v, s, t, 1) : lcl__multi_lu_gemm(ctx, m, v, s, r0, nl);
                if (st == LCL_OK)
                    st = m->devpanel ? lcl__multi_devpanel(ctx, m, s + 1, chol) : lcl__multi_fetch(ctx, m, v, k + kb, r0, chol ? nl : rest, nl);
                if (st != LCL_OK) goto done;
            }
            st = chol ? lcl__multi_rest_chol(ctx, m, v, s, t + next) : lcl__multi_lu_gemm(ctx, m, v, s, r0 + next * nl, v->ncols - r0 - next * nl);
            if (st == LCL_OK) st = lcl__multi_mark(ctx, v, 0, &v->done[s & 1]);
            if (st != LCL_OK) goto done;
        }
    }
    if (st == LCL_OK && m->rz) st = lcl__multi_flags(ctx, m, m->nblk - 1, 1, bad);
    if (st != LCL_OK) goto done;
    for (p = 0; p < m->nd; p++) {
        lcl__mdev *v = &m->dv[p];
        if (!chol)   /* LU: the swaps left of each panel, deferred to the end */
            for (s = 1; s < m->nblk; s++) {
                int64_t c1 = lcl__mb_before(m, p, s) * nb;
                if ((st = lcl__cl_laswp(ctx, v->d, m->dt, v->a, (int)v->ld, 0, (int)c1, (int)(s * nb), (int)(s * nb + lcl__mb_width(m, s)), v->piv,
                                        v->d->queue[0])) != LCL_OK) goto done;
            }
        if ((e = LCL__CL->clFinish(v->d->queue[1])) != CL_SUCCESS || (e = LCL__CL->clFinish(v->d->queue[0])) != CL_SUCCESS) {
            st = lcl__clfail(ctx, e, "clFinish", v->d->info.name);
            goto done;
        }
    }
    m->lower = chol;
done:
    if (m->rzev) {  /* what is still queued (an error, or the steps after a failure) finishes first */
        for (p = 0; p < m->nd; p++) { LCL__CL->clFinish(m->dv[p].d->queue[1]); LCL__CL->clFinish(m->dv[p].d->queue[0]); }
        for (s = 0; s < m->nblk; s++) if (m->rzev[s]) LCL__CL->clReleaseEvent(m->rzev[s]);
    }
    for (p = 0; p < m->nd; p++) if (m->dv[p].fev) { LCL__CL->clReleaseEvent(m->dv[p].fev); m->dv[p].fev = NULL; }
    LCL_FREE(m->rz);
    LCL_FREE(m->rzev);
    m->rz = NULL;
    m->rzev = NULL;
    if (m->devpanel) lcl__multi_panels_close(m);
    if (piv != lp) LCL_FREE(piv);
    return st;
}

/* getrf (op 0) or potrf (op 1) of host arrays split over the context's devices; *info as LAPACK's,
   with LCL_OK (the caller words the singular / not-SPD message) */
LCL__PRIVATE lcl_status lcl__cl_multi_factor(lcl_context *ctx, const char *fn, int op, lcl_uplo u, lcl_dense *A, int32_t *ipiv, int64_t *info,
                                             const lcl_dense_opts *o) {
    lcl__multi m;
    int64_t rs = A->layout == LCL_COL_MAJOR ? 1 : A->ld, cs = A->layout == LCL_COL_MAJOR ? A->ld : 1, bad = 0;
    lcl_status st = lcl__cl_alg_check(ctx, o, fn);
    *info = 0;
    if (st != LCL_OK) return st;
    if (op == 1 && u == LCL_UPPER) { int64_t t = rs; rs = cs; cs = t; }   /* U^T U: the lower factor of A^T */
    if ((st = lcl__multi_open(ctx, A->dtype, A->rows, o, op, &m)) == LCL_OK && (st = lcl__multi_copy(ctx, &m, A->data, rs, cs, 1, 0)) == LCL_OK) {
        st = lcl__multi_run(ctx, &m, op, ipiv, &bad);
        if (st == LCL_OK) st = lcl__multi_copy(ctx, &m, A->data, rs, cs, 0, op == 1);
    }
    lcl__multi_close(&m);
    if (st == LCL_OK) *info = bad;
    return st;
}

/* a split matrix of this context (its first device is one of ctx's) */
LCL__PRIVATE int lcl__split_ours(const lcl_context *ctx, const lcl_dmat *A) {
    const lcl__device *d = A->split->dv[0].d;
    return ctx->backend == LCL_BACKEND_OPENCL && d >= ctx->dev && d < ctx->dev + ctx->ndev;
}
/* LU (chol 0) or lower Cholesky of a split matrix where it lies; *info LAPACK's, with LCL_OK */
LCL__PRIVATE lcl_status lcl__cl_split_factor(lcl_context *ctx, const char *fn, int chol, lcl_uplo u, lcl_dmat *A, int32_t *ipiv, int64_t *info,
                                             const lcl_dense_opts *o) {
    lcl__multi *m = A->split;
    int64_t bad = 0;
    int p, found = 0;
    lcl_status st = lcl__cl_alg_check(ctx, o, fn);
    cl_mem *flag;
    cl_event *ev;
    cl_int *hit;
    if (st != LCL_OK) return st;
    if (chol && u == LCL_UPPER)
        return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "%s: a split matrix is factored as L L^T (LCL_LOWER); for U^T U split the transpose", fn);
    /* NaN or Inf: each device's columns at once (Cholesky: from its first block's diagonal, on
       and below each block's, what it reads) */
    if (!(flag = (cl_mem *)lcl__alloc(ctx, "NaN check", (size_t)m->nd, sizeof(cl_mem) + sizeof(cl_event) + sizeof(cl_int), &st))) return st;
    memset(flag, 0, (size_t)m->nd * (sizeof(cl_mem) + sizeof(cl_event) + sizeof(cl_int)));
    ev = (cl_event *)(flag + m->nd);
    hit = (cl_int *)(ev + m->nd);
    for (p = 0; p < m->nd && st == LCL_OK; p++) {
        lcl__mdev *v = &m->dv[p];
        int64_t r0 = chol ? p * m->nb : 0;
        st = lcl__cl_nonfinite_start(ctx, v->d, m->dt, v->a, (cl_long)(r0 * v->ld), (int)(m->n - r0), (int)v->ncols, (int)v->ld,
                                     chol ? lcl__multi_lower(m) : 0, &flag[p], &hit[p], &ev[p]);
    }
    for (p = 0; p < m->nd; p++) {
        cl_int e = ev[p] ? lcl__wait_read(ev[p], m->dv[p].d->queue[0]) : CL_SUCCESS;
        if (st == LCL_OK && e != CL_SUCCESS) st = lcl__clfail(ctx, e, "clWaitForEvents", m->dv[p].d->info.name);
        if (hit[p]) found = 1;
        lcl__ws_put(m->dv[p].d, flag[p]);
    }
    LCL_FREE(flag);
    if (st != LCL_OK) return st;
    if (found) return lcl__nan_fail(ctx, fn);
    st = lcl__multi_run(ctx, m, chol, ipiv, &bad);
    *info = st == LCL_OK ? bad : 0;
    return st;
}
/* op(T) X = B for a split factor T, B row-major n x nrhs on the host (h), nrhs columns apart in bw[p]
   of each device. olow: op(T) is lower (forward order). Column block by column block on its owner,
   by trsm_nb-wide steps: without trans, solve the step, then update the rows below (above) it with
   the step's columns; with trans, first subtract the transposed columns' products with the rows
   already solved, then solve. B goes to the owner (the rows the block reads) and comes back (the
   rows it wrote) through the host. */
LCL__PRIVATE lcl_status lcl__split_trisolve(lcl_context *ctx, lcl__multi *m, int olow, int unit, int trans, char *h, int nrhs, cl_mem *bw) {
    int64_t n = m->n, nb = m->nb, s;
    int sl = olow != trans;   /* the stored triangle is the lower one */
    size_t es = m->es, row = (size_t)nrhs * es;
    lcl_status st = LCL_OK;
    for (s = 0; s < m->nblk && st == LCL_OK; s++) {
        int64_t j = olow ? s : m->nblk - 1 - s, k = j * nb, kb = lcl__mb_width(m, j), lco = j / m->nd * nb;
        int64_t r0 = sl ? k : 0, r1 = sl ? n : k + kb, w0 = trans ? k : r0, w1 = trans ? k + kb : r1, i;
        lcl__mdev *v = &m->dv[j % m->nd];
        lcl__device *d = v->d;
        cl_command_queue q = d->queue[0];
        int ld = (int)v->ld, sb = d->tune.trsm_nb;
        cl_int e = LCL__CL->clEnqueueWriteBuffer(q, bw[j % m->nd], CL_FALSE, (size_t)r0 * row, (size_t)(r1 - r0) * row, h + (size_t)r0 * row, 0, NULL, NULL);
        if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueWriteBuffer(B)", d->info.name);
        for (i = 0; i < kb && st == LCL_OK; i += sb) {
            int64_t c = olow ? k + i : k + (kb - 1 - i) / sb * sb, cb = LCL__MIN((int64_t)sb, k + kb - c), lc = lco + c - k;
            cl_mem B = bw[j % m->nd], T = v->a;
            if (trans && olow && c > 0)            /* U^T: B[c] -= U[0:c, c]^T X[0:c] */
                st = lcl__cl_gemm(ctx, d, m->dt, (int)cb, nrhs, (int)c, -1.0, T, lc, ld, B, 0, nrhs, 2, 1.0, B, c * nrhs, nrhs, 0, q);
            else if (trans && !olow && c + cb < n)  /* L^T: B[c] -= L[c+cb:n, c]^T X[c+cb:n] */
                st = lcl__cl_gemm(ctx, d, m->dt, (int)cb, nrhs, (int)(n - c - cb), -1.0, T, (c + cb) * ld + lc, ld, B, (c + cb) * nrhs, nrhs, 2, 1.0, B,
                                  c * nrhs, nrhs, 0, q);
            if (st == LCL_OK) st = lcl__cl_trsm_left(ctx, d, m->dt, T, c * ld + lc, ld, (int)cb, olow, unit, trans, B, c * nrhs, nrhs, nrhs, q);
            if (st != LCL_OK || trans) continue;
            if (olow && c + cb < n)                 /* B[c+cb:n] -= L[c+cb:n, c] X[c] */
                st = lcl__cl_gemm(ctx, d, m->dt, (int)(n - c - cb), nrhs, (int)cb, -1.0, T, (c + cb) * ld + lc, ld, B, c * nrhs, nrhs, 0, 1.0, B,
                                  (c + cb) * nrhs, nrhs, 0, q);
            else if (!olow && c > 0)                /* B[0:c] -= U[0:c, c] X[c] */
                st = lcl__cl_gemm(ctx, d, m->dt, (int)c, nrhs, (int)cb, -1.0, T, lc, ld, B, c * nrhs, nrhs, 0, 1.0, B, 0, nrhs, 0, q);
        }
        if (st != LCL_OK) return st;
        e = LCL__CL->clEnqueueReadBuffer(q, bw[j % m->nd], CL_TRUE, (size_t)w0 * row, (size_t)(w1 - w0) * row, h + (size_t)w0 * row, 0, NULL, NULL);
        if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueReadBuffer(B)", d->info.name);
    }
    return st;
}
/* LAPACK's row interchanges of ipiv on the rows (row bytes each) of h: in order, or undone */
LCL__PRIVATE void lcl__swap_rows(char *h, int64_t n, size_t row, const int32_t *ipiv, int fwd, char *tmp) {
    int64_t i;
    for (i = fwd ? 0 : n - 1; fwd ? i < n : i >= 0; i += fwd ? 1 : -1)
        if (ipiv[i] != i) {
            char *a = h + (size_t)i * row, *b = h + (size_t)ipiv[i] * row;
            memcpy(tmp, a, row);
            memcpy(a, b, row);
            memcpy(b, tmp, row);
        }
}
/* lcl_dmat_getrs (chol 0, flag = trans) or lcl_dmat_potrs (lower) with a split factor F and B on
   one device: B through the host, the row interchanges there */
LCL__PRIVATE lcl_status lcl__cl_split_solve(lcl_context *ctx, int chol, int flag, const lcl_dmat *F, const int32_t *ipiv, lcl_dmat *B) {
    lcl__multi *m = F->split;
    int64_t n = m->n;
    int nrhs = (int)B->cols, p, tr = !chol && flag == LCL_TRANS;
    size_t row = (size_t)nrhs * m->es;
    cl_mem *bw = NULL;
    char *tmp = NULL;
    lcl_dense h;
    lcl_status st = LCL_OK;
    memset(&h, 0, sizeof h);
    h.dtype = m->dt;
    h.layout = LCL_ROW_MAJOR;
    h.rows = n;
    h.cols = h.ld = nrhs;
    if (!(bw = (cl_mem *)lcl__alloc(ctx, "device table", (size_t)m->nd, sizeof *bw, &st))) return st;
    memset(bw, 0, (size_t)m->nd * sizeof *bw);
    if (!(h.data = lcl__alloc(ctx, "right-hand sides", (size_t)n, row, &st)) || !(tmp = (char *)lcl__alloc(ctx, "a row", 1, row, &st))) goto done;
    for (p = 0; p < m->nd && st == LCL_OK; p++) st = lcl__buffer(ctx, m->dv[p].d, (size_t)n * row, CL_MEM_READ_WRITE, &bw[p]);
    if (st != LCL_OK || (st = lcl__cl_dmat_xfer(ctx, B, &h, 0)) != LCL_OK) goto done;
    if (!chol && !tr) lcl__swap_rows((char *)h.data, n, row, ipiv, 1, tmp);
    /* Cholesky: L, then L^T; LU: L (unit), then U; LU transposed: U^T, then L^T (unit) */
    st = lcl__split_trisolve(ctx, m, 1, !chol && !tr, tr, (char *)h.data, nrhs, bw);
    if (st == LCL_OK) st = lcl__split_trisolve(ctx, m, 0, tr, chol || tr, (char *)h.data, nrhs, bw);
    if (st == LCL_OK && tr) lcl__swap_rows((char *)h.data, n, row, ipiv, 0, tmp);
    if (st == LCL_OK) st = lcl__cl_dmat_xfer(ctx, B, &h, 1);
done:
    /* after a failure a non-blocking write may still read h: drain the queues before freeing it */
    for (p = 0; p < m->nd && st != LCL_OK; p++) LCL__CL->clFinish(m->dv[p].d->queue[0]);
    for (p = 0; p < m->nd; p++) if (bw[p]) LCL__CL->clReleaseMemObject(bw[p]);
    LCL_FREE(bw);
    LCL_FREE(tmp);
    LCL_FREE(h.data);
    return st;
}
/* A lcl_dmat lives on one device: opts.device must name it (or be -1 in a one-device context). */
LCL__PRIVATE lcl_status lcl__multi_dmat_check(lcl_context *ctx, const char *fn, const lcl_dmat *A, const lcl_dense_opts *o) {
    if (o->device == -1 && ctx->ndev > 1)
        return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "%s: opts.device -1 splits host arrays over the devices (lcl_getrf, lcl_potrf); a lcl_dmat "
                         "lives on one device (this one on device %d): pass that index", fn, A->dev);
    if (o->device >= 0 && o->device != A->dev)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: opts.device is %d but the matrix lives on device %d", fn, o->device, A->dev);
    return LCL_OK;
}
#endif

/* >>dense-api ---------------------------------------------------------------------------------- */
/* Validation, NaN/Inf scan, layouts and dispatch. The CPU kernels are column-major: a row-major LU
   is factored in a column-major copy (a transpose would pivot columns instead of rows), a
   row-major Cholesky factor is the column-major one of the other triangle on the same memory, and
   the solves take any strides. OpenCL contexts go through lcl_dmat (upload, factor, download). */
LCL__PRIVATE lcl_status lcl__dense_arg(lcl_context *ctx, const char *fn, const char *name, const lcl_dense *m) {
    int64_t minor, major, last;
    if (!m) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, name);
    if (m->dtype != LCL_F32 && m->dtype != LCL_F64)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %s has unknown dtype %d", fn, name, (int)m->dtype);
    if (m->layout != LCL_COL_MAJOR && m->layout != LCL_ROW_MAJOR)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %s has unknown layout %d", fn, name, (int)m->layout);
    if (m->rows < 0 || m->cols < 0)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %s has negative size %lldx%lld", fn, name, (long long)m->rows,
                         (long long)m->cols);
    if (m->rows > INT32_MAX || m->cols > INT32_MAX)
        return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s: %s is %lldx%lld: more than 2^31-1 rows or columns", fn, name,
                         (long long)m->rows, (long long)m->cols);
    minor = m->layout == LCL_COL_MAJOR ? m->rows : m->cols;
    major = m->layout == LCL_COL_MAJOR ? m->cols : m->rows;
    if (m->ld < 1 || m->ld < minor)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %s has leading dimension %lld, less than %lld (%s)", fn, name,
                         (long long)m->ld, (long long)LCL__MAX(minor, 1), m->layout == LCL_COL_MAJOR ? "its rows" : "its columns");
    if (m->rows && m->cols) {
        if (!m->data) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %s has no data (NULL)", fn, name);
        if (!lcl__mul_i64(major - 1, m->ld, &last) || last > INT64_MAX - minor ||
            (uint64_t)(last + minor) > (uint64_t)((size_t)-1) / lcl__dsize(m->dtype))
            return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s: %s (%lldx%lld, ld %lld) overflows the address space", fn, name,
                             (long long)m->rows, (long long)m->cols, (long long)m->ld);
    }
    return LCL_OK;
}
LCL__PRIVATE lcl_status lcl__dense_square(lcl_context *ctx, const char *fn, const char *name, const lcl_dense *m) {
    lcl_status st = lcl__dense_arg(ctx, fn, name, m);
    if (st == LCL_OK && m->rows != m->cols)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %s is %lldx%lld, not square", fn, name, (long long)m->rows,
                         (long long)m->cols);
    return st;
}
/* B: the right-hand sides of an n x n system */
LCL__PRIVATE lcl_status lcl__dense_rhs(lcl_context *ctx, const char *fn, const lcl_dense *A, const lcl_dense *B) {
    lcl_status st = lcl__dense_arg(ctx, fn, "B", B);
    if (st != LCL_OK) return st;
    if (B->dtype != A->dtype)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: B is %s but the matrix is %s", fn, B->dtype == LCL_F32 ? "float" : "double",
                         A->dtype == LCL_F32 ? "float" : "double");
    if (B->rows != A->rows)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: B has %lld rows, the matrix is %lldx%lld", fn, (long long)B->rows,
                         (long long)A->rows, (long long)A->cols);
    if (B->data == A->data && A->rows && B->cols)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: B and the matrix share their data", fn);
    return LCL_OK;
}
LCL__PRIVATE lcl_status lcl__dense_opts_get(lcl_context *ctx, const char *fn, const lcl_dense_opts *o, int chol, lcl_dense_opts *out) {
    memset(out, 0, sizeof *out);
    if (!o) return LCL_OK;
    if ((int)o->alg < (int)LCL_ALG_AUTO || (int)o->alg > (int)LCL_ALG_BANACHIEWICZ)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown algorithm %d", fn, (int)o->alg);
    if (!chol && o->alg == LCL_ALG_BANACHIEWICZ)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: LCL_ALG_BANACHIEWICZ is a Cholesky algorithm, not an LU one", fn);
    if (o->block < 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: negative block size %d", fn, o->block);
    if (o->device < -1) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: device %d (use -1 for all, or an index)", fn, o->device);
    if (o->panel < 0 || o->panel > 2) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: panel %d (0 auto, 1 host, 2 device)", fn, o->panel);
    if (lcl__dense_backend(ctx) == LCL_BACKEND_OPENCL && o->device >= ctx->ndev)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: device %d out of range: the context has %d OpenCL device(s)", fn, o->device,
                         ctx->ndev);
    *out = *o;
    return LCL_OK;
}
/* Strided view of a dense matrix: element (i, j) at data + i*rs + j*cs. */
LCL__PRIVATE void lcl__dense_strides(const lcl_dense *m, int64_t *rs, int64_t *cs) {
    *rs = m->layout == LCL_COL_MAJOR ? 1 : m->ld;
    *cs = m->layout == LCL_COL_MAJOR ? m->ld : 1;
}
/* Non-finite entries, in the whole matrix (tri 0) or its lower (1) / upper (2) triangle: a pass
   over the exponent bits (integer operations, which vectorize), then the first bad one located. */
/* any exponent all ones, over cnt values of type U stride apart */
#define LCL__RUN_FINITE(U, MASK) \
    do { \
        U bad = 0, u; \
        for (i = 0; i < cnt; i++) { \
            memcpy(&u, q + (size_t)(i * stride) * sizeof u, sizeof u); \
            bad |= (U)((u & (MASK)) == (MASK)); \
        } \
        return !bad; \
    } while (0)
LCL__PRIVATE int lcl__run_finite(lcl_dtype dt, const void *p, int64_t cnt, int64_t stride) {
    const unsigned char *q = (const unsigned char *)p;
    int64_t i;
    if (dt == LCL_F32) LCL__RUN_FINITE(uint32_t, 0x7f800000u);
    LCL__RUN_FINITE(uint64_t, 0x7ff0000000000000ull);
}
LCL__PRIVATE lcl_status lcl__scan_finite(lcl_context *ctx, const char *fn, const char *name, lcl_dtype dt, int64_t rows, int64_t cols,
                                         const void *p, int64_t rs, int64_t cs, int tri) {
    size_t es = lcl__dsize(dt);
    int64_t i, j;
    /* walk the unit-stride direction: column runs (rs == 1) or row runs */
    int bycol = rs == 1 || cs != 1;
    int64_t outer = bycol ? cols : rows;
    for (j = 0; j < outer; j++) {
        /* the run of line j inside the triangle: rows i0..i1 of column j, or columns of row j */
        int64_t i0, i1;
        if (bycol) { i0 = tri == 1 ? j : 0; i1 = tri == 2 ? LCL__MIN(j + 1, rows) : rows; }
        else { i0 = tri == 2 ? j : 0; i1 = tri == 1 ? LCL__MIN(j + 1, cols) : cols; }
        if (i1 <= i0) continue;
        if (lcl__run_finite(dt, (const char *)p + (size_t)(bycol ? i0 * rs + j * cs : j * rs + i0 * cs) * es, i1 - i0, bycol ? rs : cs))
            continue;
        for (i = i0; i < i1; i++) {
            int64_t r = bycol ? i : j, c = bycol ? j : i;
            double v = dt == LCL_F32 ? (double)((const float *)p)[r * rs + c * cs] : ((const double *)p)[r * rs + c * cs];
            if (!(v - v == 0))
                return lcl__fail(ctx, LCL_ERR_NAN, "%s: %s(%lld,%lld) is %s (0-based); factorizations and solves need finite input",
                                 fn, name, (long long)r, (long long)c, v != v ? "NaN" : "Inf");
        }
    }
    return LCL_OK;
}
LCL__PRIVATE lcl_status lcl__dense_finite(lcl_context *ctx, const char *fn, const char *name, const lcl_dense *m, int tri) {
    int64_t rs, cs;
    lcl__dense_strides(m, &rs, &cs);
    return lcl__scan_finite(ctx, fn, name, m->dtype, m->rows, m->cols, m->data, rs, cs, tri);
}
/* Copy rows x cols between strided matrices of one dtype (tiles, so a transpose stays in cache). */
/* one tile i0..i1 x j0..j1 of lcl__copy2d for element type T, along the unit stride */
#define LCL__COPY_TILE(T) \
    do { \
        const T *s = (const T *)src; \
        T *d = (T *)dst; \
        if (rss == 1 || rsd == 1) { for (j = j0; j < j1; j++) for (i = i0; i < i1; i++) d[i * rsd + j * csd] = s[i * rss + j * css]; } \
        else { for (i = i0; i < i1; i++) for (j = j0; j < j1; j++) d[i * rsd + j * csd] = s[i * rss + j * css]; } \
    } while (0)
LCL__PRIVATE void lcl__copy2d(lcl_dtype dt, int64_t rows, int64_t cols, const void *src, int64_t rss, int64_t css, void *dst,
                              int64_t rsd, int64_t csd) {
    int64_t i0, j0, i, j;
    for (j0 = 0; j0 < cols; j0 += 64)
        for (i0 = 0; i0 < rows; i0 += 64) {
            int64_t i1 = LCL__MIN(i0 + 64, rows), j1 = LCL__MIN(j0 + 64, cols);
            if (dt == LCL_F32) LCL__COPY_TILE(float);
            else LCL__COPY_TILE(double);
        }
}
LCL__PRIVATE const char *lcl__alg_name(const lcl_dense_opts *o) {
    static const char *const names[5] = {"auto", "blocked", "unblocked", "crout", "banachiewicz"};
    return names[o->alg];
}

/* ---- OpenCL: host arrays through a device matrix ---- */
#ifndef LINALG_CL_NO_OPENCL
LCL__PRIVATE int lcl__dense_on_cl(const lcl_context *ctx) { return lcl__dense_backend(ctx) == LCL_BACKEND_OPENCL; }
/* LU (chol 0) or Cholesky of a host array through a device matrix, or split over the devices */
LCL__PRIVATE lcl_status lcl__cl_factor_host(lcl_context *ctx, const char *fn, int chol, lcl_uplo u, lcl_dense *A, int32_t *ipiv, int64_t *info,
                                            const lcl_dense_opts *o) {
    lcl_dmat m;
    lcl_status st;
    if (o && o->device < 0 && ctx->ndev > 1) return lcl__cl_multi_factor(ctx, fn, chol, u, A, ipiv, info, o);
    memset(&m, 0, sizeof m);
    m.dev = o && o->device > 0 ? o->device : 0;
    if ((st = lcl__cl_dmat_upload(ctx, A, &m)) != LCL_OK) return st;
    st = lcl__cl_factor(ctx, fn, chol, u, &m, ipiv, info, o);
    if (st == LCL_OK) st = lcl__cl_dmat_download(ctx, &m, A);
    lcl__cl_dmat_release(&m);
    return st;
}
LCL__PRIVATE lcl_status lcl__cl_solve_host(lcl_context *ctx, int op, int flag, const lcl_dense *F, const int32_t *ipiv, lcl_dense *B) {
    lcl_dmat mf, mb;
    lcl_status st;
    memset(&mf, 0, sizeof mf);
    memset(&mb, 0, sizeof mb);
    if ((st = lcl__cl_dmat_upload(ctx, F, &mf)) != LCL_OK) return st;
    if ((st = lcl__cl_dmat_upload(ctx, B, &mb)) == LCL_OK) {
        st = op == 0 ? lcl__cl_getrs(ctx, (lcl_trans)flag, &mf, ipiv, &mb) : lcl__cl_potrs(ctx, (lcl_uplo)flag, &mf, &mb);
        if (st == LCL_OK) st = lcl__cl_dmat_download(ctx, &mb, B);
        lcl__cl_dmat_release(&mb);
    }
    lcl__cl_dmat_release(&mf);
    return st;
}
#endif

/* ---- the implementations behind the public calls (arguments already checked) ---- */
/* an error of an inner step, reported under the public function's name */
LCL__PRIVATE lcl_status lcl__as(lcl_context *ctx, const char *fn, lcl_status st) {
    if (st != LCL_OK && ctx && strncmp(lcl_last_error(ctx), fn, strlen(fn)) != 0) lcl__fail(ctx, st, "%s: %s", fn, lcl_last_error(ctx));
    return st;
}
/* every path's message for LAPACK's info > 0: the first zero pivot U(i,i) (0-based) of an LU, the
   first non-positive leading minor (its order) of a Cholesky factorization */
LCL__PRIVATE lcl_status lcl__info_fail(lcl_context *ctx, const char *fn, int chol, int64_t info, const lcl_dense_opts *o) {
    if (chol)
        return lcl__fail(ctx, LCL_ERR_NOT_SPD, "%s: the leading minor of order %lld is not positive definite (%s Cholesky, info = %lld)", fn,
                         (long long)info, lcl__alg_name(o), (long long)info);
    return lcl__fail(ctx, LCL_ERR_SINGULAR, "%s: U(%lld,%lld) is exactly zero (%s LU): the matrix is singular (info = %lld)", fn,
                     (long long)info - 1, (long long)info - 1, lcl__alg_name(o), (long long)info);
}
/* a lcl_dmat of the host as a column-major lcl_dense */
LCL__PRIVATE lcl_dense lcl__dmat_view(const lcl_dmat *m) {
    lcl_dense v;
    memset(&v, 0, sizeof v);
    v.dtype = m->dtype;
    v.layout = LCL_COL_MAJOR;
    v.rows = m->rows;
    v.cols = m->cols;
    v.ld = m->ld;
    v.data = m->host;
    return v;
}
/* LU (chol 0) or Cholesky of a host array on the CPU: *info LAPACK's, with LCL_OK */
LCL__PRIVATE lcl_status lcl__factor_cpu(lcl_context *ctx, int chol, lcl_uplo uplo, lcl_dense *A, int32_t *ipiv, int64_t *info,
                                        const lcl_dense_opts *o) {
    int64_t n = A->rows;
    lcl_status st;
    void *w;
    if (chol) {   /* row-major lower is column-major upper on the same memory, and the other way round */
        if (A->layout == LCL_ROW_MAJOR) uplo = uplo == LCL_LOWER ? LCL_UPPER : LCL_LOWER;
        return lcl__cpu_potrf(ctx, A->dtype, uplo, n, A->data, A->ld, info, o);
    }
    if (A->layout == LCL_COL_MAJOR) return lcl__cpu_getrf(ctx, A->dtype, n, A->data, A->ld, ipiv, info, o);
    /* rows must stay rows: factor a column-major copy */
    if (!(w = lcl__alloc(ctx, "column-major copy", (size_t)n * (size_t)n, lcl__dsize(A->dtype), &st))) return st;
    lcl__copy2d(A->dtype, n, n, A->data, A->ld, 1, w, 1, n);
    st = lcl__cpu_getrf(ctx, A->dtype, n, w, n, ipiv, info, o);
    if (st == LCL_OK) lcl__copy2d(A->dtype, n, n, w, 1, n, A->data, A->ld, 1);
    LCL_FREE(w);
    return st;
}
/* op 0: LU solve (flag = trans), 1: Cholesky solve (flag = uplo), on the CPU */
LCL__PRIVATE lcl_status lcl__solve_cpu(lcl_context *ctx, int op, int flag, const lcl_dense *F, const int32_t *ipiv, lcl_dense *B) {
    int64_t rsf, csf, rsb, csb;
    lcl__dense_strides(F, &rsf, &csf);
    lcl__dense_strides(B, &rsb, &csb);
    if (op == 0) return lcl__cpu_getrs(ctx, F->dtype, (lcl_trans)flag, F->rows, B->cols, F->data, rsf, csf, ipiv, B->data, rsb, csb);
    return lcl__cpu_potrs(ctx, F->dtype, (lcl_uplo)flag, F->rows, B->cols, F->data, rsf, csf, B->data, rsb, csb);
}
LCL__PRIVATE lcl_status lcl__check_ipiv(lcl_context *ctx, const char *fn, const int32_t *ipiv, int64_t n) {
    int64_t i;
    if (!ipiv && n > 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: ipiv is NULL", fn);
    for (i = 0; i < n; i++)
        if (ipiv[i] < i || ipiv[i] >= n)
            return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: ipiv[%lld] = %d is outside %lld..%lld (not from lcl_getrf?)", fn,
                             (long long)i, (int)ipiv[i], (long long)i, (long long)n - 1);
    return LCL_OK;
}
LCL__PRIVATE lcl_status lcl__check_uplo(lcl_context *ctx, const char *fn, lcl_uplo u) {
    if (u != LCL_LOWER && u != LCL_UPPER) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown uplo %d", fn, (int)u);
    return LCL_OK;
}
/* Where a device matrix is: 0 host, 1 an OpenCL device of ctx; else an error. */
LCL__PRIVATE lcl_status lcl__dmat_where(lcl_context *ctx, const char *fn, const char *name, const lcl_dmat *m, int square, int *where) {
    if (!m) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, name);
    if (square && m->rows != m->cols)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %s is %lldx%lld, not square", fn, name, (long long)m->rows, (long long)m->cols);
    *where = 0;
    if (m->host) return LCL_OK;
#ifndef LINALG_CL_NO_OPENCL
    if (lcl__dense_on_cl(ctx) && ((m->buf && m->dev < ctx->ndev) || (m->split && lcl__split_ours(ctx, m)))) { *where = 1; return LCL_OK; }
#endif
    return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %s lives on an OpenCL device this context does not have", fn, name);
}
LCL__PRIVATE lcl_status lcl__dmat_pair(lcl_context *ctx, const char *fn, const lcl_dmat *F, const lcl_dmat *B, int *where) {
    int wb;
    lcl_status st;
    if ((st = lcl__dmat_where(ctx, fn, "the factor", F, 1, where)) != LCL_OK) return st;
    if ((st = lcl__dmat_where(ctx, fn, "B", B, 0, &wb)) != LCL_OK) return st;
    if (wb != *where) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the factor and B live in different places (host/device)", fn);
    if (B->dtype != F->dtype) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: B and the factor have different dtypes", fn);
    if (B->rows != F->rows)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: B has %lld rows, the matrix is %lldx%lld", fn, (long long)B->rows,
                         (long long)F->rows, (long long)F->cols);
#ifndef LINALG_CL_NO_OPENCL
    if (*where == 1 && !F->split && B->dev != F->dev)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the factor and B are on different devices (%d, %d)", fn, F->dev, B->dev);
#endif
    return LCL_OK;
}
/* lcl_getrf, lcl_potrf (chol), lcl_gesv, lcl_posv (solve, with B) on a host array A, or
   lcl_dmat_getrf / lcl_dmat_potrf on M: one validation, the factorization where the matrix is,
   one report of info, then the solve */
LCL__PRIVATE lcl_status lcl__factor(lcl_context *ctx, const char *fn, int chol, lcl_uplo uplo, lcl_dense *A, lcl_dmat *M, int32_t *ipiv,
                                    int solve, lcl_dense *B, int64_t *info, const lcl_dense_opts *o) {
    lcl_dense_opts opt;
    lcl_dense view;
    int64_t inf = 0, n;
    int where = 0, tri = chol ? (uplo == LCL_LOWER ? 1 : 2) : 0;
    lcl_status st;
    if (info) *info = 0;
    st = A ? lcl__dense_square(ctx, fn, "A", A) : lcl__dmat_where(ctx, fn, "A", M, 1, &where);
    if (st == LCL_OK && solve) st = lcl__dense_rhs(ctx, fn, A, B);
    if (st != LCL_OK) return st;
    n = A ? A->rows : M->rows;
    if (chol && (st = lcl__check_uplo(ctx, fn, uplo)) != LCL_OK) return st;
    if (!chol && !ipiv && n > 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: ipiv is NULL", fn);
    if ((st = lcl__dense_opts_get(ctx, fn, o, chol, &opt)) != LCL_OK || n == 0) return st;
    if (!A) {
#ifndef LINALG_CL_NO_OPENCL
        if (where == 1) {
            if (M->split) st = lcl__cl_split_factor(ctx, fn, chol, uplo, M, ipiv, &inf, &opt);
            else if ((st = lcl__multi_dmat_check(ctx, fn, M, &opt)) == LCL_OK) st = lcl__cl_factor(ctx, fn, chol, uplo, M, ipiv, &inf, &opt);
            else return st;
            goto report;
        }
#endif
        view = lcl__dmat_view(M);
        A = &view;
    }
    if ((st = lcl__dense_finite(ctx, fn, "A", A, tri)) != LCL_OK) return st;
    if (solve && (st = lcl__dense_finite(ctx, fn, "B", B, 0)) != LCL_OK) return st;
#ifndef LINALG_CL_NO_OPENCL
    if (!M && lcl__dense_on_cl(ctx)) st = lcl__cl_factor_host(ctx, fn, chol, uplo, A, ipiv, &inf, &opt);
    else
#endif
        st = lcl__factor_cpu(ctx, chol, uplo, A, ipiv, &inf, &opt);
#ifndef LINALG_CL_NO_OPENCL
report:
#endif
    if (info) *info = inf;
    if (st != LCL_OK) return lcl__as(ctx, fn, st);
    if (inf > 0) return lcl__info_fail(ctx, fn, chol, inf, &opt);
    if (!solve || B->cols == 0) return LCL_OK;
#ifndef LINALG_CL_NO_OPENCL
    if (lcl__dense_on_cl(ctx)) return lcl__as(ctx, fn, lcl__cl_solve_host(ctx, chol, chol ? (int)uplo : LCL_NO_TRANS, A, ipiv, B));
#endif
    return lcl__as(ctx, fn, lcl__solve_cpu(ctx, chol, chol ? (int)uplo : LCL_NO_TRANS, A, ipiv, B));
}
/* lcl_getrs, lcl_potrs (chol, flag = uplo; else flag = trans) with the factor F and B host arrays,
   or their lcl_dmat forms on FM and BM */
LCL__PRIVATE lcl_status lcl__solve(lcl_context *ctx, const char *fn, int chol, int flag, const lcl_dense *F, const lcl_dmat *FM,
                                   const int32_t *ipiv, lcl_dense *B, lcl_dmat *BM) {
    const char *name = chol ? "L" : "LU";
    lcl_dense vf, vb;
    int where = 0;
    lcl_status st;
    if (F) {
        if ((st = lcl__dense_square(ctx, fn, name, F)) != LCL_OK || (st = lcl__dense_rhs(ctx, fn, F, B)) != LCL_OK) return st;
    } else {
        if (!FM || !BM) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %s is NULL", fn, FM ? "B" : name);
        if ((st = lcl__dmat_pair(ctx, fn, FM, BM, &where)) != LCL_OK) return st;
    }
    if (chol && (st = lcl__check_uplo(ctx, fn, (lcl_uplo)flag)) != LCL_OK) return st;
    if (!chol && flag != LCL_NO_TRANS && flag != LCL_TRANS) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown trans %d", fn, flag);
    if (!chol && (st = lcl__check_ipiv(ctx, fn, ipiv, F ? F->rows : FM->rows)) != LCL_OK) return st;
    if ((F ? F->rows : FM->rows) == 0 || (F ? B->cols : BM->cols) == 0) return LCL_OK;
    if (!F) {
#ifndef LINALG_CL_NO_OPENCL
        if (where == 1 && BM->split)
            return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "%s: B is split over devices (lcl_dmat_upload_split); right-hand sides live on one "
                             "device (lcl_dmat_upload)", fn);
        if (where == 1 && FM->split) {
            if (chol && flag != LCL_LOWER)
                return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "%s: a split matrix holds an L L^T factor (LCL_LOWER)", fn);
            return lcl__as(ctx, fn, lcl__cl_split_solve(ctx, chol, flag, FM, ipiv, BM));
        }
        if (where == 1) return chol ? lcl__cl_potrs(ctx, (lcl_uplo)flag, FM, BM) : lcl__cl_getrs(ctx, (lcl_trans)flag, FM, ipiv, BM);
#endif
        vf = lcl__dmat_view(FM);
        vb = lcl__dmat_view(BM);
        F = &vf;
        B = &vb;
    }
    if ((st = lcl__dense_finite(ctx, fn, name, F, chol ? (flag == LCL_LOWER ? 1 : 2) : 0)) != LCL_OK) return st;
    if ((st = lcl__dense_finite(ctx, fn, "B", B, 0)) != LCL_OK) return st;
#ifndef LINALG_CL_NO_OPENCL
    if (!FM && lcl__dense_on_cl(ctx)) return lcl__as(ctx, fn, lcl__cl_solve_host(ctx, chol, flag, F, ipiv, B));
#endif
    return lcl__as(ctx, fn, lcl__solve_cpu(ctx, chol, flag, F, ipiv, B));
}

/* ---- public: lcl_dmat, a matrix where the context computes ---- */
LCL_API lcl_status lcl_dmat_upload(lcl_context *ctx, const lcl_dense *A, lcl_dmat **out) {
    static const char fn[] = "lcl_dmat_upload";
    lcl_dmat *m;
    lcl_status st = LCL_OK;
    int64_t ld;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    *out = NULL;
    if ((st = lcl__dense_arg(ctx, fn, "A", A)) != LCL_OK) return st;
    m = (lcl_dmat *)lcl__alloc(ctx, "lcl_dmat", 1, sizeof *m, &st);
    if (!m) return lcl__fail(ctx, st, "%s: %s", fn, lcl_last_error(ctx));
    memset(m, 0, sizeof *m);
#ifndef LINALG_CL_NO_OPENCL
    if (lcl__dense_on_cl(ctx)) {
        if ((st = lcl__cl_dmat_upload(ctx, A, m)) != LCL_OK) { LCL_FREE(m); return st; }
        *out = m;
        return LCL_OK;
    }
#endif
    ld = LCL__MAX(A->rows, 1);
    m->dtype = A->dtype;
    m->rows = A->rows;
    m->cols = A->cols;
    m->ld = ld;
    m->host = lcl__alloc(ctx, "lcl_dmat host copy", (size_t)ld * (size_t)LCL__MAX(A->cols, 1), lcl__dsize(A->dtype), &st);
    if (!m->host) { LCL_FREE(m); return lcl__fail(ctx, st, "%s: %s", fn, lcl_last_error(ctx)); }
    {
        int64_t rs, cs;
        lcl__dense_strides(A, &rs, &cs);
        lcl__copy2d(A->dtype, A->rows, A->cols, A->data, rs, cs, m->host, 1, ld);
    }
    *out = m;
    return LCL_OK;
}
LCL_API lcl_status lcl_dmat_upload_split(lcl_context *ctx, const lcl_dense *A, int block, lcl_dmat **out) {
    static const char fn[] = "lcl_dmat_upload_split";
    lcl_status st;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: out is NULL", fn);
    *out = NULL;
    if ((st = lcl__dense_arg(ctx, fn, "A", A)) != LCL_OK) return st;
    if (block < 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: block is %d (0 = tuned, else the columns of a block)", fn, block);
#ifndef LINALG_CL_NO_OPENCL
    if (lcl__dense_on_cl(ctx) && ctx->ndev > 1) {
        lcl_dmat *m;
        lcl__multi *mm = NULL;
        lcl_dense_opts o;
        int64_t rs, cs;
        if (A->rows != A->cols)
            return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: A is %lldx%lld; a split matrix is square (it is there to be factored)", fn,
                             (long long)A->rows, (long long)A->cols);
        if (A->rows == 0) return lcl_dmat_upload(ctx, A, out);   /* nothing to split: no column blocks, no devices */
        memset(&o, 0, sizeof o);
        o.block = block;
        if (!(m = (lcl_dmat *)lcl__alloc(ctx, "lcl_dmat", 1, sizeof *m, &st)) || !(mm = (lcl__multi *)lcl__alloc(ctx, "split matrix", 1, sizeof *mm, &st))) {
            LCL_FREE(m);
            return lcl__as(ctx, fn, st);
        }
        memset(m, 0, sizeof *m);
        m->dtype = A->dtype;
        m->rows = m->cols = m->ld = A->rows;
        lcl__dense_strides(A, &rs, &cs);
        if ((st = lcl__multi_open(ctx, A->dtype, A->rows, &o, 2, mm)) == LCL_OK) st = lcl__multi_copy(ctx, mm, A->data, rs, cs, 1, 0);
        if (st != LCL_OK) {
            lcl__multi_close(mm);
            LCL_FREE(mm);
            LCL_FREE(m);
            return lcl__as(ctx, fn, st);
        }
        m->split = mm;
        *out = m;
        return LCL_OK;
    }
#endif
    return lcl_dmat_upload(ctx, A, out);
}
LCL_API lcl_status lcl_dmat_download(lcl_context *ctx, const lcl_dmat *A, lcl_dense *dst) {
    static const char fn[] = "lcl_dmat_download";
    lcl_status st;
    int64_t rs, cs;
    if (!A) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: A is NULL", fn);
    if ((st = lcl__dense_arg(ctx, fn, "dst", dst)) != LCL_OK) return st;
    if (dst->dtype != A->dtype || dst->rows != A->rows || dst->cols != A->cols)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: dst is %lldx%lld %s, the matrix %lldx%lld %s", fn, (long long)dst->rows,
                         (long long)dst->cols, dst->dtype == LCL_F32 ? "float" : "double", (long long)A->rows, (long long)A->cols,
                         A->dtype == LCL_F32 ? "float" : "double");
    if (!A->host) {
#ifndef LINALG_CL_NO_OPENCL
        if (!lcl__dense_on_cl(ctx) || A->dev >= ctx->ndev || (A->split && !lcl__split_ours(ctx, A)))
            return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the matrix is on an OpenCL device of another context", fn);
        if (A->split) {
            lcl__dense_strides(dst, &rs, &cs);
            return lcl__as(ctx, fn, lcl__multi_copy(ctx, A->split, dst->data, rs, cs, 0, A->split->lower));
        }
        return lcl__cl_dmat_download(ctx, A, dst);
#else
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the matrix holds no data", fn);
#endif
    }
    lcl__dense_strides(dst, &rs, &cs);
    lcl__copy2d(A->dtype, A->rows, A->cols, A->host, 1, A->ld, dst->data, rs, cs);
    return LCL_OK;
}
LCL_API void lcl_dmat_free(lcl_dmat *A) {
    if (!A) return;
    LCL_FREE(A->host);
#ifndef LINALG_CL_NO_OPENCL
    if (A->buf) lcl__cl_dmat_release(A);
    if (A->split) { lcl__multi_close(A->split); LCL_FREE(A->split); }
#endif
    LCL_FREE(A);
}
/* ---- public: factorizations and solves, of host arrays and of lcl_dmat ---- */
LCL_API lcl_status lcl_getrf(lcl_context *ctx, lcl_dense *A, int32_t *ipiv, int64_t *info, const lcl_dense_opts *o) {
    return lcl__factor(ctx, "lcl_getrf", 0, LCL_LOWER, A, NULL, ipiv, 0, NULL, info, o);
}
LCL_API lcl_status lcl_dmat_getrf(lcl_context *ctx, lcl_dmat *A, int32_t *ipiv, int64_t *info, const lcl_dense_opts *o) {
    return lcl__factor(ctx, "lcl_dmat_getrf", 0, LCL_LOWER, NULL, A, ipiv, 0, NULL, info, o);
}
LCL_API lcl_status lcl_getrs(lcl_context *ctx, lcl_trans trans, const lcl_dense *LU, const int32_t *ipiv, lcl_dense *B) {
    return lcl__solve(ctx, "lcl_getrs", 0, (int)trans, LU, NULL, ipiv, B, NULL);
}
LCL_API lcl_status lcl_dmat_getrs(lcl_context *ctx, lcl_trans trans, const lcl_dmat *LU, const int32_t *ipiv, lcl_dmat *B) {
    return lcl__solve(ctx, "lcl_dmat_getrs", 0, (int)trans, NULL, LU, ipiv, NULL, B);
}
LCL_API lcl_status lcl_potrf(lcl_context *ctx, lcl_uplo uplo, lcl_dense *A, int64_t *info, const lcl_dense_opts *o) {
    return lcl__factor(ctx, "lcl_potrf", 1, uplo, A, NULL, NULL, 0, NULL, info, o);
}
LCL_API lcl_status lcl_dmat_potrf(lcl_context *ctx, lcl_uplo uplo, lcl_dmat *A, int64_t *info, const lcl_dense_opts *o) {
    return lcl__factor(ctx, "lcl_dmat_potrf", 1, uplo, NULL, A, NULL, 0, NULL, info, o);
}
LCL_API lcl_status lcl_potrs(lcl_context *ctx, lcl_uplo uplo, const lcl_dense *L, lcl_dense *B) {
    return lcl__solve(ctx, "lcl_potrs", 1, (int)uplo, L, NULL, NULL, B, NULL);
}
LCL_API lcl_status lcl_dmat_potrs(lcl_context *ctx, lcl_uplo uplo, const lcl_dmat *L, lcl_dmat *B) {
    return lcl__solve(ctx, "lcl_dmat_potrs", 1, (int)uplo, NULL, L, NULL, NULL, B);
}
LCL_API lcl_status lcl_gesv(lcl_context *ctx, lcl_dense *A, int32_t *ipiv, lcl_dense *B, int64_t *info) {
    return lcl__factor(ctx, "lcl_gesv", 0, LCL_LOWER, A, NULL, ipiv, 1, B, info, NULL);
}
LCL_API lcl_status lcl_posv(lcl_context *ctx, lcl_uplo uplo, lcl_dense *A, lcl_dense *B, int64_t *info) {
    return lcl__factor(ctx, "lcl_posv", 1, uplo, A, NULL, NULL, 1, B, info, NULL);
}

/* >>sparse ------------------------------------------------------------------------------------- */
LCL__PRIVATE double lcl__val(const void *v, lcl_dtype dt, int64_t k) {
    return dt == LCL_F32 ? (double)((const float *)v)[k] : ((const double *)v)[k];
}
LCL__PRIVATE void lcl__setval(void *v, lcl_dtype dt, int64_t k, double x) {
    if (dt == LCL_F32) ((float *)v)[k] = (float)x;
    else ((double *)v)[k] = x;
}
/* Cut units [0, n) into parts balanced by work(a, u), the work of units [0, u): bounds[0] = 0,
   bounds[parts] = n, and bounds[p] the first multiple of gran (or n) whose prefix work reaches
   p/parts of the total. The CPU products' thread parts (lcl__make_split), the rows of a matrix
   split over devices (>>spmv-opencl) and lcl_rowpart's (>>rowpart) are cut so; parts may be
   empty when a few units hold most work. */
LCL__PRIVATE void lcl__balance(int64_t n, int parts, int64_t gran, int64_t (*work)(const void *a, int64_t u), const void *a,
                               int64_t *bounds) {
    int64_t total = work(a, n);
    int p;
    bounds[0] = 0;
    for (p = 1; p < parts; p++) {
        int64_t lo = bounds[p - 1] / gran, hi = (n + gran - 1) / gran;
        double want = (double)total * p / parts;
        while (lo < hi) {
            int64_t m = lo + (hi - lo) / 2, r = m * gran < n ? m * gran : n;
            if ((double)work(a, r) < want) lo = m + 1; else hi = m;
        }
        bounds[p] = lo * gran < n ? lo * gran : n;
    }
    bounds[parts] = n;
}
LCL__PRIVATE lcl_status lcl__coo_reserve(lcl_context *ctx, lcl_coo *m, int64_t need) {
    int64_t nc;
    size_t es = lcl__dsize(m->dtype), b;
    int32_t *r, *c;
    void *v;
    if (need <= m->cap) return LCL_OK;
    nc = m->cap < 16 ? 16 : m->cap;
    while (nc < need) nc = nc > INT64_MAX / 2 ? need : nc * 2;
    if ((uint64_t)nc > (uint64_t)((size_t)-1) / es) return lcl__fail(ctx, LCL_ERR_OVERFLOW, "COO with %lld entries does not fit in memory", (long long)nc);
    b = (size_t)nc;
    r = (int32_t *)LCL_REALLOC(m->row, b * sizeof(int32_t));
    if (!r) return lcl__oom(ctx, "COO rows", b * sizeof(int32_t));
    m->row = r;
    c = (int32_t *)LCL_REALLOC(m->col, b * sizeof(int32_t));
    if (!c) return lcl__oom(ctx, "COO columns", b * sizeof(int32_t));
    m->col = c;
    v = LCL_REALLOC(m->val, b * es);
    if (!v) return lcl__oom(ctx, "COO values", b * es);
    m->val = v;
    m->cap = nc;
    return LCL_OK;
}
LCL_API lcl_status lcl_coo_alloc(lcl_context *ctx, lcl_coo *m, lcl_dtype dt, int64_t rows, int64_t cols, int64_t cap) {
    lcl_status st;
    if (!m) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_coo_alloc: NULL matrix");
    memset(m, 0, sizeof *m);
    if ((st = lcl__check_dims(ctx, "lcl_coo_alloc", dt, rows, cols)) != LCL_OK) return st;
    if (cap < 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_coo_alloc: negative capacity");
    m->dtype = dt;
    m->rows = rows;
    m->cols = cols;
    st = lcl__coo_reserve(ctx, m, cap > 0 ? cap : 1);
    if (st != LCL_OK) lcl_coo_free(m);
    return st;
}
LCL_API lcl_status lcl_coo_push(lcl_context *ctx, lcl_coo *m, int64_t i, int64_t j, double v) {
    lcl_status st;
    if (!m) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_coo_push: NULL matrix");
    if (i < 0 || j < 0 || i >= m->rows || j >= m->cols)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "lcl_coo_push: entry (%lld,%lld) outside the %lldx%lld matrix", (long long)i,
                         (long long)j, (long long)m->rows, (long long)m->cols);
    if (m->nnz == m->cap && (st = lcl__coo_reserve(ctx, m, m->nnz + 1)) != LCL_OK) return st;
    m->row[m->nnz] = (int32_t)i;
    m->col[m->nnz] = (int32_t)j;
    lcl__setval(m->val, m->dtype, m->nnz, v);
    m->nnz++;
    return LCL_OK;
}
LCL_API void lcl_coo_free(lcl_coo *m) {
    if (!m) return;
    LCL_FREE(m->row); LCL_FREE(m->col); LCL_FREE(m->val);
    memset(m, 0, sizeof *m);
}
LCL__PRIVATE lcl_status lcl__coo_check(lcl_context *ctx, const lcl_coo *m, const char *fn) {
    int64_t k;
    if (!m) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL matrix", fn);
    if (m->dtype != LCL_F32 && m->dtype != LCL_F64) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown dtype", fn);
    if (m->rows < 0 || m->cols < 0 || m->rows > INT32_MAX || m->cols > INT32_MAX || m->nnz < 0)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: bad sizes %lldx%lld, %lld entries", fn, (long long)m->rows,
                         (long long)m->cols, (long long)m->nnz);
    if (m->nnz > 0 && (!m->row || !m->col || !m->val)) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL arrays", fn);
    for (k = 0; k < m->nnz; k++)
        if (m->row[k] < 0 || m->row[k] >= m->rows || m->col[k] < 0 || m->col[k] >= m->cols)
            return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: entry %lld at (%d,%d) outside the %lldx%lld matrix", fn, (long long)k,
                             (int)m->row[k], (int)m->col[k], (long long)m->rows, (long long)m->cols);
    return LCL_OK;
}
typedef struct lcl__key { uint64_t key; int64_t at; } lcl__key;
LCL__PRIVATE int lcl__key_cmp(const void *a, const void *b) {
    const lcl__key *x = (const lcl__key *)a, *y = (const lcl__key *)b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->at < y->at ? -1 : x->at > y->at;   /* ties by position: a deterministic order */
}
LCL__PRIVATE lcl_status lcl__coo_sort_keys(lcl_context *ctx, lcl_coo *m) {
    int64_t n = m->nnz, k;
    size_t es = lcl__dsize(m->dtype);
    lcl_status st = LCL_OK;
    lcl__key *keys = (lcl__key *)lcl__alloc(ctx, "sort keys", (size_t)n, sizeof(lcl__key), &st);
    void *v2 = keys ? lcl__alloc(ctx, "sort values", (size_t)n, es, &st) : NULL;
    if (!v2) { LCL_FREE(keys); return st; }
    for (k = 0; k < n; k++) { keys[k].key = ((uint64_t)(uint32_t)m->row[k] << 32) | (uint32_t)m->col[k]; keys[k].at = k; }
    qsort(keys, (size_t)n, sizeof *keys, lcl__key_cmp);
    for (k = 0; k < n; k++) {
        m->row[k] = (int32_t)(keys[k].key >> 32);
        m->col[k] = (int32_t)(keys[k].key & 0xffffffffu);
        memcpy((char *)v2 + (size_t)k * es, (const char *)m->val + (size_t)keys[k].at * es, es);
    }
    LCL_FREE(m->val);
    m->val = v2;
    LCL_FREE(keys);
    return LCL_OK;
}

/* Sort by (row, col) with two stable counting passes (O(nnz + rows + cols)), then sum duplicates. */
LCL_API lcl_status lcl_coo_canonicalize(lcl_context *ctx, lcl_coo *m) {
    int64_t k, n, out, *cnt = NULL;
    int32_t *r2 = NULL, *c2 = NULL;
    void *v2 = NULL;
    size_t es;
    int sorted = 1, pass;
    lcl_status st = lcl__coo_check(ctx, m, "lcl_coo_canonicalize");
    if (st != LCL_OK) return st;
    n = m->nnz;
    es = lcl__dsize(m->dtype);
    for (k = 1; k < n && sorted; k++)
        if (m->row[k] < m->row[k - 1] || (m->row[k] == m->row[k - 1] && m->col[k] <= m->col[k - 1])) sorted = 0;
    if (!sorted && (m->rows > 4 * n + 4096 || m->cols > 4 * n + 4096)) {
        /* few entries in a huge matrix: counting arrays would dwarf the data, sort keys instead */
        st = lcl__coo_sort_keys(ctx, m);
        if (st != LCL_OK) return st;
    } else if (!sorted) {
        int64_t maxdim = m->rows > m->cols ? m->rows : m->cols;
        r2 = (int32_t *)lcl__alloc(ctx, "sort rows", (size_t)n, sizeof(int32_t), &st);
        c2 = r2 ? (int32_t *)lcl__alloc(ctx, "sort columns", (size_t)n, sizeof(int32_t), &st) : NULL;
        v2 = c2 ? lcl__alloc(ctx, "sort values", (size_t)n, es, &st) : NULL;
        cnt = v2 ? (int64_t *)lcl__alloc(ctx, "sort counts", (size_t)maxdim + 1, sizeof(int64_t), &st) : NULL;
        if (!cnt) { LCL_FREE(r2); LCL_FREE(c2); LCL_FREE(v2); return st; }
        for (pass = 0; pass < 2; pass++) {
            /* pass 0 by column, pass 1 by row: LSD radix, stable, result ordered by (row, col) */
            const int32_t *key = pass == 0 ? m->col : m->row;
            int64_t dim = pass == 0 ? m->cols : m->rows, s = 0;
            int32_t *tr;
            void *tv;
            memset(cnt, 0, ((size_t)dim + 1) * sizeof(int64_t));
            for (k = 0; k < n; k++) cnt[key[k] + 1]++;
            for (k = 0; k < dim; k++) { s += cnt[k + 1]; cnt[k + 1] = s; }
            for (k = 0; k < n; k++) {
                int64_t d = cnt[key[k]]++;
                r2[d] = m->row[k];
                c2[d] = m->col[k];
                memcpy((char *)v2 + (size_t)d * es, (const char *)m->val + (size_t)k * es, es);
            }
            tr = m->row; m->row = r2; r2 = tr;
            tr = m->col; m->col = c2; c2 = tr;
            tv = m->val; m->val = v2; v2 = tv;
        }
        LCL_FREE(r2);
        LCL_FREE(c2);
        LCL_FREE(v2);
        LCL_FREE(cnt);
    }
    /* sum duplicates, now adjacent */
    out = 0;
    for (k = 0; k < n; k++) {
        if (out > 0 && m->row[k] == m->row[out - 1] && m->col[k] == m->col[out - 1]) {
            if (m->dtype == LCL_F32) ((float *)m->val)[out - 1] += ((float *)m->val)[k];
            else ((double *)m->val)[out - 1] += ((double *)m->val)[k];
        } else {
            m->row[out] = m->row[k];
            m->col[out] = m->col[k];
            if (out != k) memcpy((char *)m->val + (size_t)out * es, (char *)m->val + (size_t)k * es, es);
            out++;
        }
    }
    m->nnz = out;
    return LCL_OK;
}
LCL_API lcl_status lcl_coo_copy(lcl_context *ctx, const lcl_coo *src, lcl_dtype dt, lcl_coo *dst) {
    int64_t k;
    lcl_status st = lcl__coo_check(ctx, src, "lcl_coo_copy");
    if (st != LCL_OK) return st;
    if (!dst) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_coo_copy: NULL destination");
    if ((st = lcl_coo_alloc(ctx, dst, dt, src->rows, src->cols, src->nnz)) != LCL_OK) return st;
    memcpy(dst->row, src->row, (size_t)src->nnz * sizeof(int32_t));
    memcpy(dst->col, src->col, (size_t)src->nnz * sizeof(int32_t));
    for (k = 0; k < src->nnz; k++) lcl__setval(dst->val, dt, k, lcl__val(src->val, src->dtype, k));
    dst->nnz = src->nnz;
    return LCL_OK;
}
LCL_API void lcl_csr_free(lcl_csr *m) {
    if (!m) return;
    LCL_FREE(m->ptr); LCL_FREE(m->col); LCL_FREE(m->val);
    memset(m, 0, sizeof *m);
}
LCL_API lcl_status lcl_csr_from_coo(lcl_context *ctx, const lcl_coo *src, lcl_csr *dst) {
    lcl_coo t;
    int64_t k;
    lcl_status st;
    if (!dst) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_csr_from_coo: NULL destination");
    memset(dst, 0, sizeof *dst);
    if ((st = lcl_coo_copy(ctx, src, src ? src->dtype : LCL_F64, &t)) != LCL_OK) return st;
    if ((st = lcl_coo_canonicalize(ctx, &t)) != LCL_OK) { lcl_coo_free(&t); return st; }
    dst->ptr = (int64_t *)lcl__alloc(ctx, "CSR row pointers", (size_t)t.rows + 1, sizeof(int64_t), &st);
    if (!dst->ptr) { lcl_coo_free(&t); return st; }
    memset(dst->ptr, 0, ((size_t)t.rows + 1) * sizeof(int64_t));
    for (k = 0; k < t.nnz; k++) dst->ptr[t.row[k] + 1]++;
    for (k = 0; k < t.rows; k++) dst->ptr[k + 1] += dst->ptr[k];
    dst->dtype = t.dtype;
    dst->rows = t.rows;
    dst->cols = t.cols;
    dst->nnz = t.nnz;
    dst->col = t.col;   /* canonical COO is CSR order already: take its arrays */
    dst->val = t.val;
    LCL_FREE(t.row);
    return LCL_OK;
}
LCL_API lcl_status lcl_csr_to_coo(lcl_context *ctx, const lcl_csr *src, lcl_coo *dst) {
    int64_t i, k;
    lcl_status st;
    if (!src || !dst) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_csr_to_coo: NULL argument");
    if (src->rows < 0 || src->cols < 0 || src->rows > INT32_MAX || src->cols > INT32_MAX || src->nnz < 0 ||
        (src->nnz > 0 && (!src->col || !src->val)))
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_csr_to_coo: bad sizes %lldx%lld, %lld entries, or NULL arrays",
                         (long long)src->rows, (long long)src->cols, (long long)src->nnz);
    if (!src->ptr || src->ptr[0] != 0 || src->ptr[src->rows] != src->nnz)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_csr_to_coo: row pointers inconsistent with nnz");
    if ((st = lcl_coo_alloc(ctx, dst, src->dtype, src->rows, src->cols, src->nnz)) != LCL_OK) return st;
    for (i = 0; i < src->rows; i++) {
        if (src->ptr[i + 1] < src->ptr[i] || src->ptr[i + 1] > src->nnz) { lcl_coo_free(dst); return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_csr_to_coo: row pointers decrease or pass nnz at row %lld", (long long)i); }
        for (k = src->ptr[i]; k < src->ptr[i + 1]; k++) {
            if (src->col[k] < 0 || src->col[k] >= src->cols) { lcl_coo_free(dst); return lcl__fail(ctx, LCL_ERR_DIMENSION, "lcl_csr_to_coo: column %d out of range", (int)src->col[k]); }
            dst->row[k] = (int32_t)i;
        }
    }
    memcpy(dst->col, src->col, (size_t)src->nnz * sizeof(int32_t));
    memcpy(dst->val, src->val, (size_t)src->nnz * lcl__dsize(src->dtype));
    dst->nnz = src->nnz;
    return LCL_OK;
}
LCL_API lcl_status lcl_coo_to_dense(lcl_context *ctx, const lcl_coo *src, lcl_layout layout, lcl_dense *dst) {
    int64_t k;
    lcl_status st = lcl__coo_check(ctx, src, "lcl_coo_to_dense");
    if (st != LCL_OK) return st;
    if ((st = lcl_dense_alloc(ctx, dst, src->dtype, layout, src->rows, src->cols)) != LCL_OK) return st;
    for (k = 0; k < src->nnz; k++) {
        size_t o = lcl__dense_off(dst, src->row[k], src->col[k]);
        if (src->dtype == LCL_F32) ((float *)dst->data)[o] += ((const float *)src->val)[k];
        else ((double *)dst->data)[o] += ((const double *)src->val)[k];
    }
    return LCL_OK;
}
LCL_API lcl_status lcl_dense_to_coo(lcl_context *ctx, const lcl_dense *src, lcl_coo *dst) {
    int64_t i, j;
    lcl_status st;
    if (!src || !dst || (!src->data && src->rows && src->cols)) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_dense_to_coo: NULL argument");
    if ((st = lcl_coo_alloc(ctx, dst, src->dtype, src->rows, src->cols, 16)) != LCL_OK) return st;
    for (i = 0; i < src->rows; i++)
        for (j = 0; j < src->cols; j++) {
            double v = lcl_dense_get(src, i, j);
            if (v != 0.0 && (st = lcl_coo_push(ctx, dst, i, j, v)) != LCL_OK) { lcl_coo_free(dst); return st; }
        }
    return LCL_OK;
}
/* >>formats ------------------------------------------------------------------------------------ */
/* lcl_spmat's storage. Every array is host memory owned by the matrix; the OpenCL copies live in
   `part` (one per device holding rows r0..r1 of the matrix, split by nnz). Conventions:
   - ELL, SELL and HYB's padding slots hold column -1 and value 0, so kernels skip them and 0*Inf
     never makes NaN there; DIA, BCSR and dense store zeros that the kernels multiply (the header
     says so at lcl_spmv);
   - ld (ELL, HYB, DIA) is rows rounded up to LCL__ALIGN_ROWS, so device loads of a column of
     slots are aligned and coalesced;
   - values are float or double per dtype, indices int32, offsets int64. */
#define LCL__ALIGN_ROWS 32
typedef struct lcl__spdev lcl__spdev;       /* one device's part (>>spmv-opencl) */
typedef struct lcl__halo lcl__halo;         /* the resident copy of a split matrix (>>spmv-opencl) */
typedef struct lcl__vpart lcl__vpart;       /* a partitioned vector's part (>>spmv-opencl) */
struct lcl_spmat {
    lcl_format format;
    lcl_spmv_kernel kernel;     /* resolved, never AUTO after create */
    lcl_dtype dtype;
    lcl_backend backend;        /* where it lives: the context's backend at create */
    int64_t rows, cols, nnz, stored;
    lcl_spmat_opts opts;        /* as resolved (defaults filled in), for building A^T alike */
    char reason[192];
    /* CSR: ptr[rows+1], idx = column, val.  CSC: ptr[cols+1], idx = row, val.
       BCSR: ptr[brows+1] over block rows, idx = block column, val = br*bc blocks, row-major,
       zero-filled, brows = ceil(rows/br).  SELL: ptr[nslices+1] = first slot of each slice,
       idx/val slot k of lane r in slice s at ptr[s] + k*C + r, perm[p] = row of sorted position
       p (rows sorted by length, descending, within windows of sigma rows), width[s] per slice.
       COO: row/idx/val sorted by (row, col).  ELL and HYB's ELL part: idx/val[k*ld + i], width
       slots per row.  HYB's rest: crow/ccol/cval, ncoo entries sorted by row.
       DIA: ndiag offsets off[d] (col - row), val[d*ld + i] = A(i, i+off[d]) (0 outside).
       DENSE: val row-major, rows x cols, ld = cols. */
    int64_t *ptr;
    int32_t *idx;
    void *val;
    int32_t *row;               /* COO */
    int32_t *crow, *ccol;       /* HYB rest */
    void *cval;
    int64_t ncoo;
    int64_t ld;
    int32_t width;              /* ELL/HYB slots per row */
    int32_t C, sigma, nslices;  /* SELL */
    int32_t *perm, *swidth;     /* SELL */
    int32_t ndiag, *off;        /* DIA */
    int32_t br, bc;             /* BCSR */
    struct lcl_spmat *tr;       /* A^T in the same format, built on the first LCL_TRANS product
                                   (CSC on OpenCL: a CSR on the device only, lcl__csc_cl_transpose) */
    int nparts;                 /* OpenCL */
    lcl__spdev *part;
    lcl__halo *halo;            /* OpenCL, split: the resident copy, built by lcl_vec_create_like */
    lcl_spmat_opts asked;       /* opts as given to lcl_spmat_create (format may be AUTO) */
    /* CPU products (>>spmv-cpu), private to the host kernels */
    int nsplit;                 /* parts the product is cut into (threads at create; 1 serial) */
    int64_t *split;             /* nsplit+1 boundaries in rows (SELL: slices, BCSR: block rows),
                                   balanced by the work of each part (nnz + rows) */
    int64_t *cptr;              /* HYB: rows+1 offsets of each row's entries in crow/ccol/cval */
    int prefetch;               /* CSR: columns scattered beyond the cache, prefetch x ahead */
    int npanel;                 /* CSR: column panels (x split so each part stays in cache); 0 = none */
    int64_t *pptr;              /* npanel > 1: npanel x (rows+1) row pointers; idx/val then hold
                                   panel 0's entries of every row, then panel 1's, ... (ptr stays
                                   the whole rows' pointers: lengths and the work split) */
};
struct lcl_vec {
    lcl_dtype dtype;
    int64_t n;
    void *host;                 /* CPU backends */
#ifndef LINALG_CL_NO_OPENCL
    int dev;
    cl_mem buf;
    cl_context cl;              /* buf's: another context's vector is refused */
    int nparts;                 /* partitioned (lcl_vec_create_like): parts in vp, buf NULL, dev -1 */
    lcl__vpart *vp;
#endif
    lcl_backend backend;        /* the context's backend at create */
};

/* Host storage of every format (built from validated CSR) and its way back to CSR: what both
   backends build from (the OpenCL parts are uploaded from it). */
#include <time.h>
#ifndef LCL__SPMV_PAR_MIN
#define LCL__SPMV_PAR_MIN 16384 /* slots below which a product runs on one thread */
#endif
#define LCL__SPMV_MAXPARTS 256
#ifndef LCL__PF_DIST
#define LCL__PF_DIST 64         /* CSR: entries ahead whose x is prefetched; idx is padded by this */
#endif
#define LCL__SPMV_BLK 256       /* rows per accumulator block (ELL, HYB, DIA) */
#define LCL__SELL_MAXC 256
#define LCL__BCSR_MAXB 64

LCL__PRIVATE int lcl__fmt_padded(lcl_format f) {
    return f == LCL_FMT_ELL || f == LCL_FMT_SELL || f == LCL_FMT_HYB || f == LCL_FMT_DIA || f == LCL_FMT_BCSR || f == LCL_FMT_DENSE;
}
LCL__PRIVATE double lcl__wtime(void) {
#ifdef _OPENMP
    return omp_get_wtime();
#else
    return (double)clock() / CLOCKS_PER_SEC;   /* serial: CPU time is wall time */
#endif
}
LCL__PRIVATE int lcl__ctx_threads(const lcl_context *ctx) {
#ifdef _OPENMP
    if (ctx && ctx->backend == LCL_BACKEND_OPENMP) {
        int t = ctx->num_threads > 0 ? ctx->num_threads : omp_get_max_threads();
        return t < 1 ? 1 : t > LCL__SPMV_MAXPARTS ? LCL__SPMV_MAXPARTS : t;
    }
#else
    (void)ctx;
#endif
    return 1;
}

/* The padding guard: slots <= max_fill * max(nnz, 1) + rows (an empty matrix may still be
   stored when max_fill says so); slots < 0 means the count overflowed int64. */
LCL__PRIVATE lcl_status lcl__fill_guard(lcl_context *ctx, lcl_format f, const char *what, int64_t slots, int64_t nnz,
                                        int64_t rows, double max_fill) {
    double limit = max_fill * (double)(nnz > 0 ? nnz : 1) + (double)rows;
    if (slots >= 0 && (double)slots <= limit) return LCL_OK;
    if (slots < 0)
        return lcl__fail(ctx, LCL_ERR_FILL, "%s: %s would store more than 2^63 slots for %lld nonzeros (max_fill %g)",
                         lcl_format_name(f), what, (long long)nnz, max_fill);
    return lcl__fail(ctx, LCL_ERR_FILL, "%s: %s would store %lld slots for %lld nonzeros (%.2f per nonzero); max_fill %g allows %.0f",
                     lcl_format_name(f), what, (long long)slots, (long long)nnz, nnz ? (double)slots / (double)nnz : 0.0,
                     max_fill, limit);
}

/* transpose a valid CSR (also CSR <-> CSC): counting sort by column, O(nnz + rows + cols) */
LCL__PRIVATE lcl_status lcl__csr_transpose(lcl_context *ctx, const lcl_csr *a, lcl_csr *t) {
    size_t es = lcl__dsize(a->dtype);
    int64_t i, k;
    lcl_status st = LCL_OK;
    memset(t, 0, sizeof *t);
    t->ptr = (int64_t *)lcl__alloc(ctx, "transpose row pointers", (size_t)a->cols + 1, sizeof(int64_t), &st);
    t->col = t->ptr ? (int32_t *)lcl__alloc(ctx, "transpose indices", (size_t)a->nnz, sizeof(int32_t), &st) : NULL;
    t->val = t->col ? lcl__alloc(ctx, "transpose values", (size_t)a->nnz, es, &st) : NULL;
    if (!t->val) { lcl_csr_free(t); return st; }
    t->dtype = a->dtype;
    t->rows = a->cols;
    t->cols = a->rows;
    t->nnz = a->nnz;
    memset(t->ptr, 0, ((size_t)a->cols + 1) * sizeof(int64_t));
    for (k = 0; k < a->nnz; k++) t->ptr[a->col[k] + 1]++;
    for (i = 0; i < a->cols; i++) t->ptr[i + 1] += t->ptr[i];
    for (i = 0; i < a->rows; i++)     /* rows in order: each column's entries come out sorted */
        for (k = a->ptr[i]; k < a->ptr[i + 1]; k++) {
            int64_t d = t->ptr[a->col[k]]++;
            t->col[d] = (int32_t)i;
            memcpy((char *)t->val + (size_t)d * es, (const char *)a->val + (size_t)k * es, es);
        }
    for (i = a->cols; i > 0; i--) t->ptr[i] = t->ptr[i - 1];
    t->ptr[0] = 0;
    return LCL_OK;
}

LCL__PRIVATE void lcl__spmat_free_host(lcl_spmat *A) {
#define LCL__FREE_NULL(p) (LCL_FREE(p), (p) = NULL)
    LCL__FREE_NULL(A->ptr); LCL__FREE_NULL(A->idx); LCL__FREE_NULL(A->val); LCL__FREE_NULL(A->row);
    LCL__FREE_NULL(A->crow); LCL__FREE_NULL(A->ccol); LCL__FREE_NULL(A->cval); LCL__FREE_NULL(A->perm);
    LCL__FREE_NULL(A->swidth); LCL__FREE_NULL(A->off); LCL__FREE_NULL(A->split); LCL__FREE_NULL(A->cptr);
    LCL__FREE_NULL(A->pptr);
#undef LCL__FREE_NULL
    A->npanel = 0;
}

/* ---- building: A's sizes, dtype and resolved opts are set; M is valid CSR ---- */
typedef struct lcl__lenrow { int64_t len; int32_t row; } lcl__lenrow;
LCL__PRIVATE int lcl__lenrow_cmp(const void *a, const void *b) {
    const lcl__lenrow *x = (const lcl__lenrow *)a, *y = (const lcl__lenrow *)b;
    if (x->len != y->len) return x->len > y->len ? -1 : 1;     /* longest first */
    return x->row < y->row ? -1 : x->row > y->row;
}
LCL__PRIVATE int lcl__i32_cmp(const void *a, const void *b) {
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return x < y ? -1 : x > y;
}

/* HYB width from the row-length histogram (Bell & Garland): the largest K such that at least a
   third of the rows have K or more entries, so the ELL part is at least a third full. */
LCL__PRIVATE lcl_status lcl__hyb_width(lcl_context *ctx, const lcl_csr *M, int64_t maxlen, int64_t *K) {
    int64_t *h, i, L, atleast = 0;
    lcl_status st = LCL_OK;
    *K = 0;
    if (M->rows == 0 || maxlen == 0) return LCL_OK;
    h = (int64_t *)lcl__alloc(ctx, "HYB histogram", (size_t)maxlen + 1, sizeof(int64_t), &st);
    if (!h) return st;
    memset(h, 0, ((size_t)maxlen + 1) * sizeof(int64_t));
    for (i = 0; i < M->rows; i++) h[M->ptr[i + 1] - M->ptr[i]]++;
    for (L = maxlen; L >= 1; L--) {
        atleast += h[L];
        if (3 * atleast >= M->rows) { *K = L; break; }
    }
    LCL_FREE(h);
    return LCL_OK;
}

/* gnnz: the nonzeros the guard allows padding for (A^T: those of A, whose stored zeros may be gone) */
LCL__PRIVATE lcl_status lcl__build_host(lcl_context *ctx, lcl_spmat *A, const lcl_csr *M, int64_t gnnz) {
    size_t es = lcl__dsize(A->dtype);
    int64_t i, k, maxlen = 0, rows = A->rows, cols = A->cols, nnz = A->nnz;
    double mf = A->opts.max_fill;
    lcl_status st = LCL_OK;
    for (i = 0; i < rows; i++) maxlen = LCL__MAX(maxlen, M->ptr[i + 1] - M->ptr[i]);
    switch (A->format) {
    case LCL_FMT_CSR:
    case LCL_FMT_COO:
        A->ptr = A->format == LCL_FMT_CSR ? (int64_t *)lcl__alloc(ctx, "CSR row pointers", (size_t)rows + 1, sizeof(int64_t), &st)
                                          : (int64_t *)NULL;
        A->row = A->format == LCL_FMT_COO ? (int32_t *)lcl__alloc(ctx, "COO rows", (size_t)nnz, sizeof(int32_t), &st) : NULL;
        if (!A->ptr && !A->row) return st;
        /* CSR: the prefetching kernel reads the index LCL__PF_DIST entries ahead; column 0 there */
        A->idx = (int32_t *)lcl__alloc(ctx, "column indices", (size_t)nnz + (A->ptr ? LCL__PF_DIST : 0), sizeof(int32_t), &st);
        A->val = A->idx ? lcl__alloc(ctx, "values", (size_t)nnz, es, &st) : NULL;
        if (!A->val) return st;
        if (A->ptr) memset(A->idx + nnz, 0, LCL__PF_DIST * sizeof(int32_t));
        if (A->ptr) memcpy(A->ptr, M->ptr, ((size_t)rows + 1) * sizeof(int64_t));
        if (A->row) for (i = 0; i < rows; i++) for (k = M->ptr[i]; k < M->ptr[i + 1]; k++) A->row[k] = (int32_t)i;
        if (nnz) memcpy(A->idx, M->col, (size_t)nnz * sizeof(int32_t));   /* an empty CSR may have NULL arrays */
        if (nnz) memcpy(A->val, M->val, (size_t)nnz * es);
        A->stored = nnz;
        return LCL_OK;
    case LCL_FMT_CSC: {
        lcl_csr T;
        if ((st = lcl__csr_transpose(ctx, M, &T)) != LCL_OK) return st;
        A->ptr = T.ptr;
        A->idx = T.col;
        A->val = T.val;
        A->stored = nnz;
        return LCL_OK;
    }
    case LCL_FMT_ELL:
    case LCL_FMT_HYB: {
        int64_t K = maxlen, slots, ld = lcl__round_up(rows, LCL__ALIGN_ROWS), n;
        if (A->format == LCL_FMT_HYB) {
            if (A->opts.hyb_width > 0) K = LCL__MIN((int64_t)A->opts.hyb_width, maxlen);
            else if ((st = lcl__hyb_width(ctx, M, maxlen, &K)) != LCL_OK) return st;
        }
        if (!lcl__mul_i64(K, rows, &slots)) slots = -1;
        if ((st = lcl__fill_guard(ctx, A->format, A->format == LCL_FMT_HYB ? "the ELL part" : "rows padded to the longest",
                                  slots, gnnz, rows, mf)) != LCL_OK) return st;
        if (!lcl__mul_i64(K, ld, &n)) return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s: %lld x %lld slots overflow", lcl_format_name(A->format), (long long)K, (long long)ld);
        A->idx = (int32_t *)lcl__alloc(ctx, "ELL indices", (size_t)n, sizeof(int32_t), &st);
        A->val = A->idx ? lcl__alloc(ctx, "ELL values", (size_t)n, es, &st) : NULL;
        if (!A->val) return st;
        for (k = 0; k < n; k++) A->idx[k] = -1;
        memset(A->val, 0, (size_t)n * es);
        A->ld = ld;
        A->width = (int32_t)K;
        A->stored = slots;
        for (i = 0; i < rows; i++)
            for (k = M->ptr[i]; k < M->ptr[i + 1] && k - M->ptr[i] < K; k++) {
                int64_t s = (k - M->ptr[i]) * ld + i;
                A->idx[s] = M->col[k];
                memcpy((char *)A->val + (size_t)s * es, (const char *)M->val + (size_t)k * es, es);
            }
        if (A->format == LCL_FMT_HYB) {
            int64_t nc = 0, c = 0;
            for (i = 0; i < rows; i++) nc += LCL__MAX((int64_t)0, M->ptr[i + 1] - M->ptr[i] - K);
            A->cptr = (int64_t *)lcl__alloc(ctx, "HYB row offsets", (size_t)rows + 1, sizeof(int64_t), &st);
            A->crow = A->cptr ? (int32_t *)lcl__alloc(ctx, "HYB COO rows", (size_t)nc, sizeof(int32_t), &st) : NULL;
            A->ccol = A->crow ? (int32_t *)lcl__alloc(ctx, "HYB COO columns", (size_t)nc, sizeof(int32_t), &st) : NULL;
            A->cval = A->ccol ? lcl__alloc(ctx, "HYB COO values", (size_t)nc, es, &st) : NULL;
            if (!A->cval) return st;
            for (i = 0; i < rows; i++) {
                A->cptr[i] = c;
                for (k = M->ptr[i] + K; k < M->ptr[i + 1]; k++, c++) {
                    A->crow[c] = (int32_t)i;
                    A->ccol[c] = M->col[k];
                    memcpy((char *)A->cval + (size_t)c * es, (const char *)M->val + (size_t)k * es, es);
                }
            }
            A->cptr[rows] = c;
            A->ncoo = nc;
            A->stored = slots + nc;
        }
        return LCL_OK;
    }
    case LCL_FMT_SELL: {
        int64_t C = A->opts.sell_c, sigma = A->opts.sell_sigma, ns = (rows + C - 1) / C, s, w0, slots = 0, total = 0, p;
        lcl__lenrow *tmp;
        A->perm = (int32_t *)lcl__alloc(ctx, "SELL permutation", (size_t)rows, sizeof(int32_t), &st);
        A->swidth = A->perm ? (int32_t *)lcl__alloc(ctx, "SELL slice widths", (size_t)ns, sizeof(int32_t), &st) : NULL;
        tmp = A->swidth ? (lcl__lenrow *)lcl__alloc(ctx, "SELL sort window", (size_t)LCL__MIN(sigma, rows), sizeof(lcl__lenrow), &st) : NULL;
        if (!tmp) return st;
        for (w0 = 0; w0 < rows; w0 += sigma) {      /* sort by length within windows of sigma rows */
            int64_t w1 = LCL__MIN(rows, w0 + sigma);
            for (i = w0; i < w1; i++) { tmp[i - w0].len = M->ptr[i + 1] - M->ptr[i]; tmp[i - w0].row = (int32_t)i; }
            qsort(tmp, (size_t)(w1 - w0), sizeof *tmp, lcl__lenrow_cmp);
            for (i = w0; i < w1; i++) A->perm[i] = tmp[i - w0].row;
        }
        LCL_FREE(tmp);
        for (s = 0; s < ns; s++) {
            int64_t w = 0, lanes = LCL__MIN(C, rows - s * C);
            for (p = s * C; p < s * C + lanes; p++) w = LCL__MAX(w, M->ptr[A->perm[p] + 1] - M->ptr[A->perm[p]]);
            A->swidth[s] = (int32_t)w;
            slots += w * lanes;         /* <= maxlen * (rows + C) < 2^63: int32 sizes */
            total += w * C;
        }
        if ((st = lcl__fill_guard(ctx, A->format, "slices padded to their longest row", slots, gnnz, rows, mf)) != LCL_OK) return st;
        A->ptr = (int64_t *)lcl__alloc(ctx, "SELL slice offsets", (size_t)ns + 1, sizeof(int64_t), &st);
        A->idx = A->ptr ? (int32_t *)lcl__alloc(ctx, "SELL indices", (size_t)total, sizeof(int32_t), &st) : NULL;
        A->val = A->idx ? lcl__alloc(ctx, "SELL values", (size_t)total, es, &st) : NULL;
        if (!A->val) return st;
        for (k = 0; k < total; k++) A->idx[k] = -1;
        memset(A->val, 0, (size_t)total * es);
        A->ptr[0] = 0;
        for (s = 0; s < ns; s++) {
            A->ptr[s + 1] = A->ptr[s] + (int64_t)A->swidth[s] * C;
            for (p = s * C; p < LCL__MIN(rows, s * C + C); p++) {
                int64_t r = A->perm[p];
                for (k = M->ptr[r]; k < M->ptr[r + 1]; k++) {
                    int64_t at = A->ptr[s] + (k - M->ptr[r]) * C + (p - s * C);
                    A->idx[at] = M->col[k];
                    memcpy((char *)A->val + (size_t)at * es, (const char *)M->val + (size_t)k * es, es);
                }
            }
        }
        A->C = (int32_t)C;
        A->sigma = (int32_t)sigma;
        A->nslices = (int32_t)ns;
        A->stored = slots;
        return LCL_OK;
    }
    case LCL_FMT_DIA: {
        int64_t nd = 0, span = rows + cols, d, slots, ld = lcl__round_up(rows, LCL__ALIGN_ROWS), n;
        int32_t *slot = (int32_t *)lcl__alloc(ctx, "DIA offsets map", (size_t)(span > 0 ? span : 1), sizeof(int32_t), &st);
        if (!slot) return st;
        /* offset o = col - row in [-(rows-1), cols-1], stored at o + rows */
        for (d = 0; d < span; d++) slot[d] = -1;
        for (i = 0; i < rows; i++)
            for (k = M->ptr[i]; k < M->ptr[i + 1]; k++)
                if (slot[M->col[k] - i + rows] < 0) { slot[M->col[k] - i + rows] = 0; nd++; }
        if (!lcl__mul_i64(nd, rows, &slots)) slots = -1;
        if ((st = lcl__fill_guard(ctx, A->format, "the occupied diagonals", slots, gnnz, rows, mf)) != LCL_OK) { LCL_FREE(slot); return st; }
        if (!lcl__mul_i64(nd, ld, &n)) { LCL_FREE(slot); return lcl__fail(ctx, LCL_ERR_OVERFLOW, "dia: %lld diagonals overflow", (long long)nd); }
        A->off = (int32_t *)lcl__alloc(ctx, "DIA offsets", (size_t)nd, sizeof(int32_t), &st);
        A->val = A->off ? lcl__alloc(ctx, "DIA values", (size_t)n, es, &st) : NULL;
        if (!A->val) { LCL_FREE(slot); return st; }
        memset(A->val, 0, (size_t)n * es);
        for (d = 0, nd = 0; d < span; d++)
            if (slot[d] == 0) { A->off[nd] = (int32_t)(d - rows); slot[d] = (int32_t)nd++; }
        for (i = 0; i < rows; i++)
            for (k = M->ptr[i]; k < M->ptr[i + 1]; k++) {
                int64_t at = (int64_t)slot[M->col[k] - i + rows] * ld + i;
                memcpy((char *)A->val + (size_t)at * es, (const char *)M->val + (size_t)k * es, es);
            }
        LCL_FREE(slot);
        A->ndiag = (int32_t)nd;
        A->ld = ld;
        A->stored = slots;
        return LCL_OK;
    }
    case LCL_FMT_BCSR: {
        int64_t br = A->opts.block_r, bc = A->opts.block_c, brows = (rows + br - 1) / br, bcols = (cols + bc - 1) / bc;
        int64_t bi, nb = 0, cells = 0, n, b;
        int64_t *mark = (int64_t *)lcl__alloc(ctx, "BCSR block marks", (size_t)bcols, sizeof(int64_t), &st);
        if (!mark) return st;
        for (b = 0; b < bcols; b++) mark[b] = -1;
        for (bi = 0; bi < brows; bi++)
            for (i = bi * br; i < LCL__MIN(rows, bi * br + br); i++)
                for (k = M->ptr[i]; k < M->ptr[i + 1]; k++) {
                    int64_t bj = M->col[k] / bc;
                    if (mark[bj] != bi) {
                        mark[bj] = bi;
                        nb++;
                        cells += LCL__MIN(br, rows - bi * br) * LCL__MIN(bc, cols - bj * bc);   /* cells inside the matrix */
                    }
                }
        if ((st = lcl__fill_guard(ctx, A->format, "its blocks", cells, gnnz, rows, mf)) != LCL_OK) { LCL_FREE(mark); return st; }
        if (!lcl__mul_i64(nb, br * bc, &n)) { LCL_FREE(mark); return lcl__fail(ctx, LCL_ERR_OVERFLOW, "bcsr: %lld blocks overflow", (long long)nb); }
        A->ptr = (int64_t *)lcl__alloc(ctx, "BCSR block row pointers", (size_t)brows + 1, sizeof(int64_t), &st);
        A->idx = A->ptr ? (int32_t *)lcl__alloc(ctx, "BCSR block columns", (size_t)nb, sizeof(int32_t), &st) : NULL;
        A->val = A->idx ? lcl__alloc(ctx, "BCSR values", (size_t)n, es, &st) : NULL;
        if (!A->val) { LCL_FREE(mark); return st; }
        memset(A->val, 0, (size_t)n * es);
        for (b = 0; b < bcols; b++) mark[b] = -1;
        A->ptr[0] = 0;
        for (bi = 0, nb = 0; bi < brows; bi++) {
            int64_t b0 = nb, i1 = LCL__MIN(rows, bi * br + br);
            for (i = bi * br; i < i1; i++)
                for (k = M->ptr[i]; k < M->ptr[i + 1]; k++)
                    if (mark[M->col[k] / bc] != -2 - bi) { mark[M->col[k] / bc] = -2 - bi; A->idx[nb++] = (int32_t)(M->col[k] / bc); }
            qsort(A->idx + b0, (size_t)(nb - b0), sizeof(int32_t), lcl__i32_cmp);
            for (b = b0; b < nb; b++) mark[A->idx[b]] = b;      /* block column -> block slot */
            for (i = bi * br; i < i1; i++)
                for (k = M->ptr[i]; k < M->ptr[i + 1]; k++) {
                    int64_t at = mark[M->col[k] / bc] * br * bc + (i - bi * br) * bc + M->col[k] % bc;
                    memcpy((char *)A->val + (size_t)at * es, (const char *)M->val + (size_t)k * es, es);
                }
            A->ptr[bi + 1] = nb;
        }
        LCL_FREE(mark);
        A->br = (int32_t)br;
        A->bc = (int32_t)bc;
        A->stored = cells;
        return LCL_OK;
    }
    case LCL_FMT_DENSE: {
        int64_t slots;
        if (!lcl__mul_i64(rows, cols, &slots)) slots = -1;
        if ((st = lcl__fill_guard(ctx, A->format, "rows x cols", slots, gnnz, rows, mf)) != LCL_OK) return st;
        A->val = lcl__alloc(ctx, "dense values", (size_t)slots, es, &st);
        if (!A->val) return st;
        memset(A->val, 0, (size_t)slots * es);
        for (i = 0; i < rows; i++)
            for (k = M->ptr[i]; k < M->ptr[i + 1]; k++)
                memcpy((char *)A->val + (size_t)(i * cols + M->col[k]) * es, (const char *)M->val + (size_t)k * es, es);
        A->ld = cols;
        A->stored = slots;
        return LCL_OK;
    }
    default:
        return lcl__fail(ctx, LCL_ERR_INTERNAL, "no host builder for format %d", (int)A->format);
    }
}

/* work of units [0, u): the split balances it */
LCL__PRIVATE int64_t lcl__work(const void *a, int64_t u) {
    const lcl_spmat *A = (const lcl_spmat *)a;
    switch (A->format) {
    case LCL_FMT_CSR: return A->ptr[u] + u;
    case LCL_FMT_CSC: return A->ptr[u] + u;     /* columns */
    case LCL_FMT_SELL: return A->ptr[u] + u;    /* slices */
    case LCL_FMT_BCSR: return A->ptr[u] * A->br * A->bc + u;
    case LCL_FMT_HYB: return A->cptr[u] + u * ((int64_t)A->width + 1);
    case LCL_FMT_COO: {     /* entries of rows < u: lower bound in the sorted rows */
        int64_t lo = 0, hi = A->nnz;
        while (lo < hi) { int64_t m = lo + (hi - lo) / 2; if (A->row[m] < u) lo = m + 1; else hi = m; }
        return lo + u;
    }
    default: return u;      /* ELL, DIA, dense: equal work per row */
    }
}
LCL__PRIVATE int64_t lcl__units(const lcl_spmat *A) {
    return A->format == LCL_FMT_SELL ? A->nslices : A->format == LCL_FMT_BCSR ? (A->rows + A->br - 1) / A->br
         : A->format == LCL_FMT_CSC ? A->cols : A->rows;
}
LCL__PRIVATE lcl_status lcl__make_split(lcl_context *ctx, lcl_spmat *A, int parts) {
    lcl_status st = LCL_OK;
    A->split = (int64_t *)lcl__alloc(ctx, "work split", (size_t)parts + 1, sizeof(int64_t), &st);
    if (!A->split) return st;
    A->nsplit = parts;
    lcl__balance(lcl__units(A), parts, 1, lcl__work, A, A->split);
    return LCL_OK;
}

/* entries of row i of a padded format (not CSR/CSC/COO) in column order: count, and write them
   when c is not NULL. inv: SELL's inverse permutation. Stored zeros of DIA/BCSR/dense are padding
   there: those formats do not keep explicit zeros. */
LCL__PRIVATE int64_t lcl__row_entries(const lcl_spmat *A, int64_t i, const int32_t *inv, int32_t *c, void *v) {
    int64_t n = 0, k, d;
    size_t es = lcl__dsize(A->dtype);
#define LCL__PUT(col, at) do { if (c) { c[n] = (int32_t)(col); memcpy((char *)v + (size_t)n * es, (const char *)A->val + (size_t)(at) * es, es); } n++; } while (0)
    switch (A->format) {
    case LCL_FMT_ELL:
    case LCL_FMT_HYB:
        for (k = 0; k < A->width; k++)
            if (A->idx[k * A->ld + i] >= 0) LCL__PUT(A->idx[k * A->ld + i], k * A->ld + i);
        if (A->format == LCL_FMT_HYB)
            for (k = A->cptr[i]; k < A->cptr[i + 1]; k++) {
                if (c) { c[n] = A->ccol[k]; memcpy((char *)v + (size_t)n * es, (const char *)A->cval + (size_t)k * es, es); }
                n++;
            }
        break;
    case LCL_FMT_SELL: {
        int64_t p = inv[i], s = p / A->C, r = p % A->C;
        for (k = 0; k < A->swidth[s]; k++) {
            int64_t at = A->ptr[s] + k * A->C + r;
            if (A->idx[at] >= 0) LCL__PUT(A->idx[at], at);
        }
        break;
    }
    case LCL_FMT_DIA:
        for (d = 0; d < A->ndiag; d++) {
            int64_t j = i + A->off[d];
            if (j >= 0 && j < A->cols && lcl__val(A->val, A->dtype, d * A->ld + i) != 0) LCL__PUT(j, d * A->ld + i);
        }
        break;
    case LCL_FMT_BCSR: {
        int64_t bi = i / A->br, r = i % A->br, b, q;
        for (b = A->ptr[bi]; b < A->ptr[bi + 1]; b++)
            for (q = 0; q < A->bc && (int64_t)A->idx[b] * A->bc + q < A->cols; q++) {
                int64_t at = (b * A->br + r) * A->bc + q;
                if (lcl__val(A->val, A->dtype, at) != 0) LCL__PUT((int64_t)A->idx[b] * A->bc + q, at);
            }
        break;
    }
    case LCL_FMT_DENSE:
        for (k = 0; k < A->cols; k++)
            if (lcl__val(A->val, A->dtype, i * A->cols + k) != 0) LCL__PUT(k, i * A->cols + k);
        break;
    default: break;
    }
#undef LCL__PUT
    return n;
}

LCL__PRIVATE lcl_status lcl__host_to_csr(lcl_context *ctx, const lcl_spmat *A, lcl_csr *out) {
    size_t es = lcl__dsize(A->dtype);
    int64_t i, nnz = 0;
    int32_t *inv = NULL;
    lcl_status st = LCL_OK;
    memset(out, 0, sizeof *out);
    if (A->format == LCL_FMT_CSC) {     /* CSC arrays are the CSR of A^T */
        lcl_csr t;
        t.dtype = A->dtype; t.rows = A->cols; t.cols = A->rows; t.nnz = A->nnz;
        t.ptr = A->ptr; t.col = A->idx; t.val = A->val;
        return lcl__csr_transpose(ctx, &t, out);
    }
    out->ptr = (int64_t *)lcl__alloc(ctx, "CSR row pointers", (size_t)A->rows + 1, sizeof(int64_t), &st);
    if (!out->ptr) return st;
    if (A->format == LCL_FMT_SELL) {
        inv = (int32_t *)lcl__alloc(ctx, "SELL inverse permutation", (size_t)A->rows, sizeof(int32_t), &st);
        if (!inv) { lcl_csr_free(out); return st; }
        for (i = 0; i < A->rows; i++) inv[A->perm[i]] = (int32_t)i;
    }
    out->ptr[0] = 0;
    if (A->format == LCL_FMT_CSR) memcpy(out->ptr, A->ptr, ((size_t)A->rows + 1) * sizeof(int64_t));
    else if (A->format == LCL_FMT_COO) {
        memset(out->ptr, 0, ((size_t)A->rows + 1) * sizeof(int64_t));
        for (i = 0; i < A->nnz; i++) out->ptr[A->row[i] + 1]++;
        for (i = 0; i < A->rows; i++) out->ptr[i + 1] += out->ptr[i];
    } else
        for (i = 0; i < A->rows; i++) out->ptr[i + 1] = (nnz += lcl__row_entries(A, i, inv, NULL, NULL));
    nnz = out->ptr[A->rows];
    out->col = (int32_t *)lcl__alloc(ctx, "CSR columns", (size_t)nnz, sizeof(int32_t), &st);
    out->val = out->col ? lcl__alloc(ctx, "CSR values", (size_t)nnz, es, &st) : NULL;
    if (!out->val) { LCL_FREE(inv); lcl_csr_free(out); return st; }
    if (A->format == LCL_FMT_CSR && A->npanel > 1) {   /* row i: its segment of each panel, in order */
        int64_t q = 0, p;
        for (i = 0; i < A->rows; i++)
            for (p = 0; p < A->npanel; p++) {
                const int64_t *pp = A->pptr + p * (A->rows + 1);
                size_t m = (size_t)(pp[i + 1] - pp[i]);
                memcpy(out->col + q, A->idx + pp[i], m * sizeof(int32_t));
                memcpy((char *)out->val + (size_t)q * es, (const char *)A->val + (size_t)pp[i] * es, m * es);
                q += (int64_t)m;
            }
    } else if (A->format == LCL_FMT_CSR || A->format == LCL_FMT_COO) {
        memcpy(out->col, A->idx, (size_t)nnz * sizeof(int32_t));
        memcpy(out->val, A->val, (size_t)nnz * es);
    } else
        for (i = 0; i < A->rows; i++)
            lcl__row_entries(A, i, inv, out->col + out->ptr[i], (char *)out->val + (size_t)out->ptr[i] * es);
    LCL_FREE(inv);
    out->dtype = A->dtype;
    out->rows = A->rows;
    out->cols = A->cols;
    out->nnz = nnz;
    return LCL_OK;
}

/* >>spmv-cpu ----------------------------------------------------------------------------------- */
/* The host products y = alpha*A*x + beta*y, serial or OpenMP, float and double (sums in the matrix dtype).
   beta == 0 never reads y, alpha == 0 never reads A or x. The OpenMP work split is fixed at create:
   A->split cuts the rows (SELL slices, BCSR block rows) into parts of equal nnz + rows; threads
   take whole parts, so no row is written by two threads (CSC scatters with atomics instead).
   CSR has two kernels: scalar (a part's rows one by one) and merge (merge-path over rows + nnz:
   equal work per part even when one row holds most of the matrix; split rows are finished with
   a carry per part). Inner loops keep four partial sums (CSR rows eight): ILP without -ffast-math.
   Scalar CSR with scattered columns (lcl__csr_scattered) prefetches x ahead of the gathers, and
   past LCL__PANEL_X of x also stores its entries in column panels (lcl__csr_panels): locality
   kept inside the matrix, the product's API and results unchanged (sums in another order).
   DIA runs its interior rows (every diagonal inside the matrix) in registers (lcl__dia_rows), the
   edge rows through the clipped block loop (lcl__spmv_blocks). */
/* ---- host products, written once per type (S = d: double, s: float) ---- */
#define LCL__YOUT(yi, s) ((yi) = beta == 0 ? alpha * (s) : alpha * (s) + beta * (yi))
/* a zero that DIA, BCSR or dense stores is padding, not an entry: it adds nothing, also against an
   Inf or NaN in x (0 * Inf would put NaN in a row that has no entry in that column) */
#define LCL__MULNZ(a, b) ((a) != 0 ? (a) * (b) : 0)
#if defined(__GNUC__) || defined(__clang__)
#define LCL__PREFETCH(p) __builtin_prefetch(p)
#else
#define LCL__PREFETCH(p) ((void)0)
#endif
/* CSR rows [i0, i1): eight partial sums, and a row's last 0..7 entries in steps of 4, 2, 1 that
   go to distinct sums, so a 7-entry stencil row is 7 independent products and no loop exit to
   mispredict. PF(k) prefetches x of the entry LCL__PF_DIST ahead of k, for every k (scattered
   columns only: there a gather that misses the cache costs more than the rest of the product). */
#define LCL__CSR_ROWS(S, T, NAME, PF) \
LCL__PRIVATE LCL__KATTR void NAME(const int64_t *LCL__RESTRICT ptr, const int32_t *LCL__RESTRICT c, const T *LCL__RESTRICT v, \
                                  const T *LCL__RESTRICT x, T alpha, T beta, T *LCL__RESTRICT y, int64_t i0, int64_t i1) { \
    int64_t i, k = ptr[i0]; \
    for (i = i0; i < i1; i++) { \
        T s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, s5 = 0, s6 = 0, s7 = 0, s; \
        int64_t e = ptr[i + 1]; \
        for (; k + 8 <= e; k += 8) { \
            PF(k); PF(k + 1); PF(k + 2); PF(k + 3); PF(k + 4); PF(k + 5); PF(k + 6); PF(k + 7); \
            s0 += v[k] * x[c[k]]; s1 += v[k + 1] * x[c[k + 1]]; s2 += v[k + 2] * x[c[k + 2]]; s3 += v[k + 3] * x[c[k + 3]]; \
            s4 += v[k + 4] * x[c[k + 4]]; s5 += v[k + 5] * x[c[k + 5]]; s6 += v[k + 6] * x[c[k + 6]]; s7 += v[k + 7] * x[c[k + 7]]; \
        } \
        if (k + 4 <= e) { PF(k); PF(k + 1); PF(k + 2); PF(k + 3); s4 += v[k] * x[c[k]]; s5 += v[k + 1] * x[c[k + 1]]; s6 += v[k + 2] * x[c[k + 2]]; s7 += v[k + 3] * x[c[k + 3]]; k += 4; } \
        if (k + 2 <= e) { PF(k); PF(k + 1); s0 += v[k] * x[c[k]]; s1 += v[k + 1] * x[c[k + 1]]; k += 2; } \
        if (k < e) { PF(k); s2 += v[k] * x[c[k]]; k++; } \
        s = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7)); \
        LCL__YOUT(y[i], s); \
    } \
}
#define LCL__PF_NONE(k) ((void)0)
#define LCL__PF_X(k) LCL__PREFETCH(x + c[(k) + LCL__PF_DIST])
LCL__CSR_ROWS(d, double, lcl__csr_rows_d, LCL__PF_NONE)
LCL__CSR_ROWS(s, float, lcl__csr_rows_s, LCL__PF_NONE)
LCL__CSR_ROWS(d, double, lcl__csr_rows_pf_d, LCL__PF_X)
LCL__CSR_ROWS(s, float, lcl__csr_rows_pf_s, LCL__PF_X)
/* DIA rows [i0, i1) where every diagonal lies inside the matrix (no bounds per entry): a register
   block of rows at a time, summed over the diagonals in their order (so each row's sum is the
   scalar loop's), unit-stride loads of values and x. The scalar block loop of lcl__spmv_part keeps
   the edge rows. The hot loop multiplies the stored zeros too: only a NaN in a sum can tell that
   one met an Inf or NaN of x, and those rows are summed again without them (lcl__dia_row_nz). */
#define LCL__DIA_ROW_NZ(S, T) \
LCL__PRIVATE T lcl__dia_row_nz_##S(const T *val, int64_t ld, const int32_t *off, int nd, const T *x, int64_t i) { \
    T s = 0; \
    int k; \
    for (k = 0; k < nd; k++) s += LCL__MULNZ(val[k * ld + i], x[i + off[k]]); \
    return s; \
}
LCL__DIA_ROW_NZ(d, double)
LCL__DIA_ROW_NZ(s, float)
#if LCL__VEXT
#define LCL__DIA_ROWS(S, T, IT) \
LCL__PRIVATE LCL__KATTR void lcl__dia_rows_##S(const T *LCL__RESTRICT val, int64_t ld, const int32_t *off, int nd, const T *LCL__RESTRICT x, \
                                               T alpha, T beta, T *LCL__RESTRICT y, int64_t i0, int64_t i1) { \
    typedef T V __attribute__((vector_size(LCL__VB))); \
    typedef IT VI __attribute__((vector_size(LCL__VB))); \
    enum { L = LCL__VB / sizeof(T) }; \
    int64_t i = i0; \
    int k; \
    for (; i + 2 * L <= i1; i += 2 * L) { \
        V s0 = {0}, s1 = {0}; \
        VI nan; \
        IT any[L], n = 0; \
        for (k = 0; k < nd; k++) { \
            const T *v = val + k * ld + i, *xk = x + i + off[k]; \
            V a0, a1, b0, b1; \
            memcpy(&a0, v, sizeof a0); memcpy(&a1, v + L, sizeof a1); \
            memcpy(&b0, xk, sizeof b0); memcpy(&b1, xk + L, sizeof b1); \
            s0 += a0 * b0; s1 += a1 * b1; \
        } \
        nan = (VI)(s0 != s0) | (VI)(s1 != s1); \
        memcpy(any, &nan, sizeof any); \
        for (k = 0; k < L; k++) n |= any[k]; \
        if (n) { \
            T t[2 * L]; \
            for (k = 0; k < 2 * L; k++) t[k] = lcl__dia_row_nz_##S(val, ld, off, nd, x, i + k); \
            memcpy(&s0, t, sizeof s0); memcpy(&s1, t + L, sizeof s1); \
        } \
        if (beta == 0) { s0 *= alpha; s1 *= alpha; } \
        else { \
            V y0, y1; \
            memcpy(&y0, y + i, sizeof y0); memcpy(&y1, y + i + L, sizeof y1); \
            s0 = alpha * s0 + beta * y0; s1 = alpha * s1 + beta * y1; \
        } \
        memcpy(y + i, &s0, sizeof s0); memcpy(y + i + L, &s1, sizeof s1); \
    } \
    for (; i < i1; i++) { \
        T s = lcl__dia_row_nz_##S(val, ld, off, nd, x, i); \
        LCL__YOUT(y[i], s); \
    } \
}
#else
#define LCL__DIA_ROWS(S, T, IT) \
LCL__PRIVATE void lcl__dia_rows_##S(const T *LCL__RESTRICT val, int64_t ld, const int32_t *off, int nd, const T *LCL__RESTRICT x, \
                                    T alpha, T beta, T *LCL__RESTRICT y, int64_t i0, int64_t i1) { \
    int64_t i; \
    int k; \
    for (i = i0; i < i1; i++) { \
        T s = 0; \
        for (k = 0; k < nd; k++) s += val[k * ld + i] * x[i + off[k]]; \
        if (s != s) s = lcl__dia_row_nz_##S(val, ld, off, nd, x, i); \
        LCL__YOUT(y[i], s); \
    } \
}
#endif
LCL__DIA_ROWS(d, double, int64_t)
LCL__DIA_ROWS(s, float, int32_t)
/* SELL slices of C = one AVX-512 vector (16 floats, 8 doubles): each slot column of a slice is a
   load of indices and values and a gather of x masked by the padding (column -1), summed in one
   register; no branch depends on a row's length, so the gathers of many rows stay in flight. */
#if defined(__AVX512F__) && defined(__AVX512VL__) && (defined(__GNUC__) || defined(__clang__)) && !defined(LCL_NO_AVX512)
#include <immintrin.h>
#define LCL__SELL_VEC 1
/* S, T; L lanes; VT, IT, MT: the value, index and mask vector types and their intrinsics */
#define LCL__SELL_VEC_DEF(S, T, L, VT, IT, MT, LOADI, CMPGE, ZEROI, ZERO, LOADV, GATHER, FMA, STORE) \
LCL__PRIVATE void lcl__sell_vec_##S(const lcl_spmat *A, T alpha, const T *LCL__RESTRICT x, T beta, T *LCL__RESTRICT y, int64_t s0, int64_t s1) { \
    int64_t s, k, r; \
    for (s = s0; s < s1; s++) { \
        const int32_t *ci = A->idx + A->ptr[s]; \
        const T *vi = (const T *)A->val + A->ptr[s]; \
        int64_t lanes = LCL__MIN(L, A->rows - s * L); \
        VT acc = ZERO(); \
        T t[L]; \
        for (k = 0; k < A->swidth[s]; k++, ci += L, vi += L) { \
            IT c = LOADI((const void *)ci); \
            MT m = CMPGE(c, ZEROI()); \
            acc = FMA(LOADV(vi), GATHER(ZERO(), m, c, x, (int)sizeof(T)), acc); \
        } \
        STORE(t, acc); \
        for (r = 0; r < lanes; r++) LCL__YOUT(y[A->perm[s * L + r]], t[r]); \
    } \
}
#define LCL__LOAD256I(p) _mm256_loadu_si256((const __m256i *)(p))
LCL__SELL_VEC_DEF(s, float, 16, __m512, __m512i, __mmask16, _mm512_loadu_si512, _mm512_cmpge_epi32_mask, _mm512_setzero_si512,
                  _mm512_setzero_ps, _mm512_loadu_ps, _mm512_mask_i32gather_ps, _mm512_fmadd_ps, _mm512_storeu_ps)
LCL__SELL_VEC_DEF(d, double, 8, __m512d, __m256i, __mmask8, LCL__LOAD256I, _mm256_cmpge_epi32_mask, _mm256_setzero_si256,
                  _mm512_setzero_pd, _mm512_loadu_pd, _mm512_mask_i32gather_pd, _mm512_fmadd_pd, _mm512_storeu_pd)
#else
#define LCL__SELL_VEC 0
#endif
#ifndef LCL__SELL_SIGMA_CPU
#define LCL__SELL_SIGMA_CPU 65536   /* auto's SELL sort window: its y (256-512 KB) stays in L2 */
#endif
#if LCL__SELL_VEC
#define LCL__SELL_VEC_CALL(S) lcl__sell_vec_##S(A, alpha, x, beta, y, u0, u1)
#else
#define LCL__SELL_VEC_CALL(S) ((void)0)
#endif
#define LCL__DEF_SPMV(S, T) \
LCL__PRIVATE T lcl__sdot_##S(const T *LCL__RESTRICT v, const int32_t *LCL__RESTRICT c, const T *LCL__RESTRICT x, int64_t k, int64_t k1) { \
    T s0 = 0, s1 = 0, s2 = 0, s3 = 0; \
    for (; k + 4 <= k1; k += 4) { \
        s0 += v[k] * x[c[k]]; s1 += v[k + 1] * x[c[k + 1]]; s2 += v[k + 2] * x[c[k + 2]]; s3 += v[k + 3] * x[c[k + 3]]; \
    } \
    for (; k < k1; k++) s0 += v[k] * x[c[k]]; \
    return (s0 + s1) + (s2 + s3); \
} \
LCL__PRIVATE T lcl__ddot_##S(const T *LCL__RESTRICT v, const T *LCL__RESTRICT x, int64_t n) { \
    T s0 = 0, s1 = 0, s2 = 0, s3 = 0; \
    int64_t k = 0; \
    for (; k + 4 <= n; k += 4) { s0 += v[k] * x[k]; s1 += v[k + 1] * x[k + 1]; s2 += v[k + 2] * x[k + 2]; s3 += v[k + 3] * x[k + 3]; } \
    for (; k < n; k++) s0 += v[k] * x[k]; \
    s0 = (s0 + s1) + (s2 + s3); \
    if (s0 != s0) /* a stored zero met an Inf or NaN of x, or an entry met a NaN: without the zeros */ \
        for (s0 = 0, k = 0; k < n; k++) s0 += LCL__MULNZ(v[k], x[k]); \
    return s0; \
} \
/* ELL, HYB and DIA's edge rows [u0, u1): blocks of rows summed in a small array (DIA: each \
   diagonal clipped to the matrix) */ \
LCL__PRIVATE void lcl__spmv_blocks_##S(const lcl_spmat *A, T alpha, const T *LCL__RESTRICT x, T beta, T *LCL__RESTRICT y, \
                                       int64_t u0, int64_t u1) { \
    const T *val = (const T *)A->val; \
    int64_t i, k, b0; \
    for (b0 = u0; b0 < u1; b0 += LCL__SPMV_BLK) { \
        T acc[LCL__SPMV_BLK]; \
        int64_t n = LCL__MIN((int64_t)LCL__SPMV_BLK, u1 - b0); \
        for (i = 0; i < n; i++) acc[i] = 0; \
        if (A->format == LCL_FMT_DIA) { \
            for (k = 0; k < A->ndiag; k++) { \
                int64_t o = A->off[k], lo = LCL__MAX(b0, -o), hi = LCL__MIN(b0 + n, A->cols - o); \
                const T *vd = val + k * A->ld; \
                for (i = lo; i < hi; i++) acc[i - b0] += LCL__MULNZ(vd[i], x[i + o]); \
            } \
        } else { \
            for (k = 0; k < A->width; k++) { \
                const int32_t *ci = A->idx + k * A->ld + b0; \
                const T *vi = val + k * A->ld + b0; \
                for (i = 0; i < n; i++) if (ci[i] >= 0) acc[i] += vi[i] * x[ci[i]]; \
            } \
            if (A->format == LCL_FMT_HYB) \
                for (i = 0; i < n; i++) acc[i] += lcl__sdot_##S((const T *)A->cval, A->ccol, x, A->cptr[b0 + i], A->cptr[b0 + i + 1]); \
        } \
        for (i = 0; i < n; i++) LCL__YOUT(y[b0 + i], acc[i]); \
    } \
} \
/* units [u0, u1) of A (rows; SELL slices; BCSR block rows; CSC columns, accumulating into y) */ \
LCL__PRIVATE void lcl__spmv_part_##S(const lcl_spmat *A, T alpha, const T *LCL__RESTRICT x, T beta, T *LCL__RESTRICT y, \
                                     int64_t u0, int64_t u1, int atomic) { \
    const T *val = (const T *)A->val; \
    int64_t i, k; \
    switch (A->format) { \
    case LCL_FMT_CSR: \
        if (u0 >= u1) break; \
        if (A->npanel > 1) { /* panel by panel over the same rows: y += the next panel's part */ \
            int p; \
            for (p = 0; p < A->npanel; p++) \
                lcl__csr_rows_pf_##S(A->pptr + (int64_t)p * (A->rows + 1), A->idx, val, x, alpha, p ? (T)1 : beta, y, u0, u1); \
        } else if (A->prefetch) lcl__csr_rows_pf_##S(A->ptr, A->idx, val, x, alpha, beta, y, u0, u1); \
        else lcl__csr_rows_##S(A->ptr, A->idx, val, x, alpha, beta, y, u0, u1); \
        break; \
    case LCL_FMT_COO: { \
        int64_t lo = 0, hi = A->nnz; \
        while (lo < hi) { int64_t m = lo + (hi - lo) / 2; if (A->row[m] < u0) lo = m + 1; else hi = m; } \
        for (i = u0, k = lo; i < u1; i++) { \
            int64_t e = k; \
            while (e < A->nnz && A->row[e] == i) e++; \
            { T s = lcl__sdot_##S(val, A->idx, x, k, e); LCL__YOUT(y[i], s); } \
            k = e; \
        } \
        break; \
    } \
    case LCL_FMT_CSC: /* y already scaled by beta */ \
        for (i = u0; i < u1; i++) { \
            T xj = alpha * x[i]; \
            if (atomic) { \
                for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) { \
                    T t = val[k] * xj; \
                    LCL__OMP(omp atomic) \
                    y[A->idx[k]] += t; \
                } \
            } else \
                for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) y[A->idx[k]] += val[k] * xj; \
        } \
        break; \
    case LCL_FMT_DIA: { /* interior rows [ia, ib) vectorized, the edges below */ \
        int64_t ia = 0, ib = LCL__MIN(A->rows, A->cols); \
        for (k = 0; k < A->ndiag; k++) { ia = LCL__MAX(ia, -(int64_t)A->off[k]); ib = LCL__MIN(ib, A->cols - A->off[k]); } \
        ia = LCL__MIN(LCL__MAX(ia, u0), u1); ib = LCL__MAX(LCL__MIN(ib, u1), ia); \
        lcl__dia_rows_##S(val, A->ld, A->off, A->ndiag, x, alpha, beta, y, ia, ib); \
        if (ia > u0) lcl__spmv_blocks_##S(A, alpha, x, beta, y, u0, ia); \
        if (u1 > ib) lcl__spmv_blocks_##S(A, alpha, x, beta, y, ib, u1); \
        break; \
    } \
    case LCL_FMT_ELL: \
    case LCL_FMT_HYB: \
        lcl__spmv_blocks_##S(A, alpha, x, beta, y, u0, u1); \
        break; \
    case LCL_FMT_SELL: { \
        int64_t C = A->C, s, r; \
        if (LCL__SELL_VEC && C == (int64_t)(64 / sizeof(T))) { LCL__SELL_VEC_CALL(S); break; } \
        for (s = u0; s < u1; s++) { \
            T acc[LCL__SELL_MAXC]; \
            const int32_t *ci = A->idx + A->ptr[s]; \
            const T *vi = val + A->ptr[s]; \
            int64_t lanes = LCL__MIN(C, A->rows - s * C); \
            for (r = 0; r < C; r++) acc[r] = 0; \
            for (k = 0; k < A->swidth[s]; k++, ci += C, vi += C) \
                for (r = 0; r < C; r++) if (ci[r] >= 0) acc[r] += vi[r] * x[ci[r]]; \
            for (r = 0; r < lanes; r++) LCL__YOUT(y[A->perm[s * C + r]], acc[r]); \
        } \
        break; \
    } \
    case LCL_FMT_BCSR: { \
        int64_t br = A->br, bc = A->bc, bi, b, r, q; \
        for (bi = u0; bi < u1; bi++) { \
            T acc[LCL__BCSR_MAXB]; \
            int64_t nr = LCL__MIN(br, A->rows - bi * br); \
            for (r = 0; r < br; r++) acc[r] = 0; \
            for (b = A->ptr[bi]; b < A->ptr[bi + 1]; b++) { \
                int64_t c0 = (int64_t)A->idx[b] * bc, nc = LCL__MIN(bc, A->cols - c0); \
                const T *vb = val + b * br * bc, *xb = x + c0; \
                for (r = 0; r < nr; r++) { T s = 0; for (q = 0; q < nc; q++) s += vb[r * bc + q] * xb[q]; acc[r] += s; } \
            } \
            for (r = 0; r < nr; r++) \
                if (acc[r] != acc[r]) /* again without the block's zeros, as lcl__dia_row_nz for DIA */ \
                    for (acc[r] = 0, b = A->ptr[bi]; b < A->ptr[bi + 1]; b++) { \
                        int64_t c0 = (int64_t)A->idx[b] * bc, nc = LCL__MIN(bc, A->cols - c0); \
                        for (q = 0; q < nc; q++) acc[r] += LCL__MULNZ(val[(b * br + r) * bc + q], x[c0 + q]); \
                    } \
            for (r = 0; r < nr; r++) LCL__YOUT(y[bi * br + r], acc[r]); \
        } \
        break; \
    } \
    case LCL_FMT_DENSE: \
        for (i = u0; i < u1; i++) { T s = lcl__ddot_##S(val + i * A->cols, x, A->cols); LCL__YOUT(y[i], s); } \
        break; \
    default: break; \
    } \
} \
/* merge-path part p of np over the rows + nnz of a CSR: rows it ends are written, the row it \
   stops inside is returned as a carry (crow < 0: none) */ \
LCL__PRIVATE void lcl__csr_merge_##S(const lcl_spmat *A, T alpha, const T *x, T beta, T *y, int p, int np, int64_t *crow, T *cval) { \
    const int64_t *ptr = A->ptr; \
    int64_t tot = A->rows + A->nnz, c[2][2], e, i, k; \
    for (e = 0; e < 2; e++) { \
        int64_t d = (int64_t)((double)tot * (double)(p + e) / (double)np), lo = LCL__MAX((int64_t)0, d - A->nnz), hi = LCL__MIN(d, A->rows); \
        if (p + e == np) d = tot, lo = hi = A->rows; \
        while (lo < hi) { int64_t m = lo + (hi - lo) / 2; if (ptr[m + 1] <= d - m - 1) lo = m + 1; else hi = m; } \
        c[e][0] = lo; c[e][1] = d - lo; \
    } \
    for (i = c[0][0], k = c[0][1]; i < c[1][0]; i++) { \
        T s = lcl__sdot_##S((const T *)A->val, A->idx, x, k, ptr[i + 1]); \
        LCL__YOUT(y[i], s); \
        k = ptr[i + 1]; \
    } \
    *crow = i < A->rows ? i : -1; \
    *cval = i < A->rows ? lcl__sdot_##S((const T *)A->val, A->idx, x, k, c[1][1]) : (T)0; \
} \
LCL__PRIVATE void lcl__spmv_host_##S(const lcl_spmat *A, int nt, double alpha_, const void *xv, double beta_, void *yv) { \
    const T *x = (const T *)xv; \
    T *y = (T *)yv, alpha = (T)alpha_, beta = (T)beta_; \
    int np = A->nsplit > 0 ? A->nsplit : 1; \
    if (alpha == 0 || A->format == LCL_FMT_CSC) { /* y = beta*y; CSC then scatters into it */ \
        int64_t n = A->rows, i; \
        int par = nt > 1 && n > LCL__SPMV_PAR_MIN; \
        (void)par; \
        LCL__OMP(omp parallel for num_threads(nt) if (par)) \
        for (i = 0; i < n; i++) y[i] = beta == 0 ? (T)0 : beta * y[i]; \
        if (alpha == 0) return; \
    } \
    if (A->format == LCL_FMT_CSR && A->kernel == LCL_KERNEL_MERGE) { \
        int64_t crow[LCL__SPMV_MAXPARTS]; \
        T cval[LCL__SPMV_MAXPARTS]; \
        int p; \
        LCL__OMP(omp parallel num_threads(nt) if (nt > 1)) \
        { \
            int t = 0, tn = 1, q; \
            LCL__OMP_TID(t, tn); \
            for (q = t; q < np; q += tn) lcl__csr_merge_##S(A, alpha, x, beta, y, q, np, &crow[q], &cval[q]); \
        } \
        for (p = 0; p < np; p++) if (crow[p] >= 0) y[crow[p]] += alpha * cval[p]; \
        return; \
    } \
    if (np <= 1 || !A->split) { lcl__spmv_part_##S(A, alpha, x, beta, y, 0, lcl__units(A), 0); return; } \
    if (nt <= 1) { /* the same parts, one after another */ \
        int q; \
        for (q = 0; q < np; q++) lcl__spmv_part_##S(A, alpha, x, beta, y, A->split[q], A->split[q + 1], 0); \
        return; \
    } \
    LCL__OMP(omp parallel num_threads(nt)) \
    { \
        int t = 0, tn = 1, q; \
        LCL__OMP_TID(t, tn); \
        for (q = t; q < np; q += tn) lcl__spmv_part_##S(A, alpha, x, beta, y, A->split[q], A->split[q + 1], tn > 1); \
    } \
}
#ifdef _OPENMP
#define LCL__OMP_TID(t, n) ((t) = omp_get_thread_num(), (n) = omp_get_num_threads())
#else
#define LCL__OMP_TID(t, n) ((void)(t), (void)(n))
#endif
LCL__DEF_SPMV(d, double)
LCL__DEF_SPMV(s, float)

/* threads for one product: the context's, when the matrix is big enough to share */
LCL__PRIVATE void lcl__spmv_host(const lcl_context *ctx, const lcl_spmat *A, double alpha, const void *x, double beta, void *y) {
    int nt = lcl__ctx_threads(ctx);
    if (A->stored + A->rows < LCL__SPMV_PAR_MIN) nt = 1;
    if (A->dtype == LCL_F32) lcl__spmv_host_s(A, nt, alpha, x, beta, y);
    else lcl__spmv_host_d(A, nt, alpha, x, beta, y);
}

/* >>spmv-opencl -------------------------------------------------------------------------------- */
#ifndef LINALG_CL_NO_OPENCL
/* The OpenCL side of lcl_spmat / lcl_vec, called by >>spmv-api when the context's backend is
   OpenCL. A->part[p] holds rows [r0, r1) on one device (rows split by nnz when opts.device is -1;
   CSC: rows of the CSR of A, see lcl__spmat_upload_csc).
   Transposed products are plain products with A->tr, so these only compute y = alpha*A*x + beta*y. */
struct lcl__spdev {
    int dev;                    /* index into ctx->dev */
    int64_t r0, r1;
    int n;                      /* r1 - r0 */
    lcl_spmv_kernel kernel;     /* CSR: resolved for this part */
    int V;                      /* CSR vector: lanes per row */
    int ni[4];                  /* per format, see lcl__spmat_upload */
    cl_mem b[8];                /* per format, see lcl__spmat_upload */
    cl_mem carry, crow;         /* CSR adaptive / COO / HYB carries */
    cl_mem x, y, ximg;          /* host-array products: x (all columns), y (the part's rows), x as an image */
};

/* a partitioned vector's part (see the resident split, below) */
struct lcl__vpart {
    int dev;
    int64_t r0, r1, cap;        /* owned rows [r0, r1), cap values: owned then ghost room */
    cl_mem buf;
    cl_context cl;
};

/* kernel names, double and float (the table keeps the pointers: literals) */
enum { LCL__K_SCALAR, LCL__K_VEC2, LCL__K_VEC4, LCL__K_VEC8, LCL__K_VEC16, LCL__K_VEC32, LCL__K_ADAPTIVE, LCL__K_LONG,
       LCL__K_SCALE, LCL__K_COO, LCL__K_COOFIX, LCL__K_ELL, LCL__K_ELLIMG, LCL__K_SELL, LCL__K_DIA, LCL__K_BCSR, LCL__K_DENSE, LCL__K_COLS, LCL__K_ADDP };
static const char *const lcl__spk[][2] = {
    {"lcl_spmv_csr_scalar_d", "lcl_spmv_csr_scalar_f"}, {"lcl_spmv_csr_vec2_d", "lcl_spmv_csr_vec2_f"},
    {"lcl_spmv_csr_vec4_d", "lcl_spmv_csr_vec4_f"}, {"lcl_spmv_csr_vec8_d", "lcl_spmv_csr_vec8_f"},
    {"lcl_spmv_csr_vec16_d", "lcl_spmv_csr_vec16_f"}, {"lcl_spmv_csr_vec32_d", "lcl_spmv_csr_vec32_f"},
    {"lcl_spmv_csr_adaptive_d", "lcl_spmv_csr_adaptive_f"}, {"lcl_spmv_csr_long_d", "lcl_spmv_csr_long_f"},
    {"lcl_spmv_scale_d", "lcl_spmv_scale_f"}, {"lcl_spmv_coo_d", "lcl_spmv_coo_f"}, {"lcl_spmv_coo_fix_d", "lcl_spmv_coo_fix_f"},
    {"lcl_spmv_ell_d", "lcl_spmv_ell_f"}, {"lcl_spmv_ell_img_d", "lcl_spmv_ell_img_f"}, {"lcl_spmv_sell_d", "lcl_spmv_sell_f"},
    {"lcl_spmv_dia_d", "lcl_spmv_dia_f"}, {"lcl_spmv_bcsr_d", "lcl_spmv_bcsr_f"}, {"lcl_spmv_dense_d", "lcl_spmv_dense_f"},
    {"lcl_spmv_csr_cols_d", "lcl_spmv_csr_cols_f"}, {"lcl_spmv_add_parts_d", "lcl_spmv_add_parts_f"}};
#define LCL__SP_TILES 8          /* COO: LCL_WG-entry tiles per work-group */

LCL__PRIVATE lcl_status lcl__vec_cl_copy(lcl_context *ctx, const lcl_vec *v, const void *src, void *dst);

LCL__PRIVATE void lcl__spdev_release(lcl__spdev *P) {
    int i;
    cl_mem *m[6];
    for (i = 0; i < (int)(sizeof P->b / sizeof P->b[0]); i++) if (P->b[i]) LCL__CL->clReleaseMemObject(P->b[i]);
    m[0] = &P->carry; m[1] = &P->crow; m[2] = &P->ximg; m[3] = &P->x; m[4] = &P->y; m[5] = NULL;
    for (i = 0; m[i]; i++) if (*m[i]) LCL__CL->clReleaseMemObject(*m[i]);
    memset(P->b, 0, sizeof P->b);
    P->carry = P->crow = P->ximg = P->x = P->y = NULL;
}
LCL__PRIVATE void lcl__spmat_release(lcl_spmat *A) {
    int p;
    if (!A || !A->part) return;
    for (p = 0; p < A->nparts; p++) lcl__spdev_release(&A->part[p]);
    LCL_FREE(A->part);
    A->part = NULL;
    A->nparts = 0;
}

/* a device copy of bytes of host memory (blocking write on the transfer queue): read-only, or
   read-write (_rw) */
LCL__PRIVATE lcl_status lcl__sp_put_as(lcl_context *ctx, lcl__device *d, cl_mem *out, const void *host, size_t bytes, cl_mem_flags fl) {
    cl_int e;
    lcl_status st = lcl__buffer(ctx, d, bytes, fl, out);
    if (st != LCL_OK || bytes == 0) return st;
    e = LCL__CL->clEnqueueWriteBuffer(d->queue[1], *out, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, "clEnqueueWriteBuffer", d->info.name);
}
LCL__PRIVATE lcl_status lcl__sp_put(lcl_context *ctx, lcl__device *d, cl_mem *out, const void *host, size_t bytes) {
    return lcl__sp_put_as(ctx, d, out, host, bytes, CL_MEM_READ_ONLY);
}
LCL__PRIVATE lcl_status lcl__sp_put_rw(lcl_context *ctx, lcl__device *d, cl_mem *out, const void *host, size_t bytes) {
    return lcl__sp_put_as(ctx, d, out, host, bytes, CL_MEM_READ_WRITE);
}
/* int64 offsets [a, a+n] rebased to int32 from base */
LCL__PRIVATE lcl_status lcl__sp_put_off(lcl_context *ctx, lcl__device *d, cl_mem *out, const int64_t *p, int64_t n, int64_t base) {
    lcl_status st = LCL_OK;
    int32_t *t = (int32_t *)lcl__alloc(ctx, "part offsets", (size_t)n + 1, sizeof(int32_t), &st);
    int64_t i;
    if (!t) return st;
    for (i = 0; i <= n; i++) t[i] = (int32_t)(p[i] - base);
    st = lcl__sp_put(ctx, d, out, t, ((size_t)n + 1) * sizeof(int32_t));
    LCL_FREE(t);
    return st;
}
LCL__PRIVATE int64_t lcl__sp_lower(const int32_t *a, int64_t n, int64_t v) {   /* first k with a[k] >= v */
    int64_t lo = 0, hi = n;
    while (lo < hi) { int64_t m = lo + (hi - lo) / 2; if (a[m] < v) lo = m + 1; else hi = m; }
    return lo;
}
/* rows of a part begin at multiples of this (SELL sorts within sigma windows, BCSR blocks rows) */
LCL__PRIVATE int64_t lcl__sp_gran(const lcl_spmat *A) {
    if (A->format == LCL_FMT_SELL) return A->sigma % A->C == 0 ? A->sigma : (int64_t)A->sigma * A->C;
    if (A->format == LCL_FMT_BCSR) return A->br;
    return 1;
}
/* work of rows [0, r), r a multiple of lcl__sp_gran or rows: stored slots plus rows */
LCL__PRIVATE int64_t lcl__sp_work(const void *a, int64_t r) {
    const lcl_spmat *A = (const lcl_spmat *)a;
    switch (A->format) {
    case LCL_FMT_CSR: return A->ptr[r] + r;
    case LCL_FMT_COO: return lcl__sp_lower(A->row, A->nnz, r) + r;
    case LCL_FMT_HYB: return r * (A->width + 1) + lcl__sp_lower(A->crow, A->ncoo, r);
    case LCL_FMT_SELL: return A->ptr[(r + A->C - 1) / A->C] + r;
    case LCL_FMT_BCSR: return A->ptr[(r + A->br - 1) / A->br] * A->br * A->bc + r;
    case LCL_FMT_DENSE: return r * (A->cols + 1);
    case LCL_FMT_DIA: return r * (A->ndiag + 1);
    default: return r * (A->width + 1);
    }
}

/* The CSR kernel for LCL_KERNEL_AUTO (and LCL_KERNEL_IMAGE, which only ELL has), per part, from
   the part's row lengths and its device:
     CPU devices: scalar (a work-item streams its rows through the cache; lanes would only add
                  reductions);
     GPUs, accelerators: merge (adaptive row blocks) when rows are heavy-tailed: coefficient of
                  variation of the row length (std/mean) > 1.5, or the longest row > 32 x mean + 256
                  (one lane group would serialize it); else vector when the mean row length is
                  >= 16; else scalar (short rows waste lanes: BENCHMARKS.md).
   The thresholds are the device's lcl__tuning (spmv_*).
   Vector's V (explicit or auto): the largest power of two <= 1.25 x mean, in 2..32 and <= LCL_WG. */
LCL__PRIVATE void lcl__sp_csr_kernel(const lcl_spmat *A, const lcl__device *d, lcl__spdev *P) {
    int64_t i, mx = 0;
    double mean = 0, var = 0, n = (double)P->n;
    int V = 2;
    for (i = P->r0; i < P->r1; i++) {
        int64_t l = A->ptr[i + 1] - A->ptr[i];
        mean += (double)l;
        if (l > mx) mx = l;
    }
    mean = n > 0 ? mean / n : 0;
    for (i = P->r0; i < P->r1; i++) {
        double t = (double)(A->ptr[i + 1] - A->ptr[i]) - mean;
        var += t * t;
    }
    var = n > 0 ? var / n : 0;
    while (V < 32 && (double)(2 * V) <= 1.25 * mean && (size_t)(2 * V) <= lcl__wg(d)) V *= 2;
    P->V = V;
    P->kernel = A->kernel;
    if (P->kernel == LCL_KERNEL_AUTO || P->kernel == LCL_KERNEL_IMAGE) {
        if (d->tune.spmv_csr_scalar) P->kernel = LCL_KERNEL_SCALAR;
        else if (mean > 0 && (sqrt(var) > d->tune.spmv_merge_cv * mean || (double)mx > 32 * mean + 256)) P->kernel = LCL_KERNEL_MERGE;
        else if (mean >= d->tune.spmv_vector_min) P->kernel = LCL_KERNEL_VECTOR;
        else P->kernel = LCL_KERNEL_SCALAR;
    }
}

/* Column parts for CSR adaptive (lcl_spmv_csr_cols in kernels/sparse.cl): how many for x of A's
   columns on device d (1: none), at most LCL__SP_XPARTS, and only where the kernel's indices fit */
#define LCL__SP_XPARTS 8         /* each part but the first keeps a vector of row sums */
LCL__PRIVATE int lcl__sp_xparts(const lcl_spmat *A, const lcl__device *d, int64_t n) {
    int64_t kb = d->tune.spmv_xpart_kb, xb = A->cols * (int64_t)lcl__dsize(A->dtype), np;
    if (kb <= 0 || xb <= kb * 1024) return 1;
    np = LCL__MIN((xb + kb * 1024 - 1) / (kb * 1024), LCL__MIN((int64_t)LCL__SP_XPARTS, A->cols));
    if (np * n > INT32_MAX) return 1;   /* q's indices */
    return (int)np;
}
/* CSR adaptive row blocks of a part (local rows, local offsets), see lcl_spmv_csr_adaptive in
   kernels/sparse.cl: blk gets 4 ints per block, lng 3 per split row. With column parts (parts > 1,
   lcl_spmv_csr_cols) a block's share in each part, not its whole, is what local memory holds. */
LCL__PRIVATE lcl_status lcl__sp_blocks(lcl_context *ctx, const lcl_spmat *A, const lcl__spdev *P, const lcl__tuning *t, int parts,
                                       int32_t **blk, int *nblk, int32_t **lng, int *nlong) {
    const int64_t *p = A->ptr + P->r0, wg = t->spmv_wg, lds = wg * t->spmv_lds_per_wg, split = wg * t->spmv_split_per_wg;
    int64_t r = 0, n = P->n, cap = 16, lcap = 4, nb = 0, nl = 0;
    lcl_status st = LCL_OK;
    int32_t *b = (int32_t *)lcl__alloc(ctx, "CSR row blocks", (size_t)cap * 4, sizeof(int32_t), &st), *l;
    if (!b) return st;
    l = (int32_t *)lcl__alloc(ctx, "CSR long rows", (size_t)lcap * 3, sizeof(int32_t), &st);
    if (!l) { LCL_FREE(b); return st; }
    while (r < n) {
        int64_t len = p[r + 1] - p[r], k, r1 = r;
        int64_t need = len > split ? (len + split - 1) / split : 1;
        if (nb + need > cap) {
            int32_t *t;
            while (nb + need > cap) cap *= 2;
            t = (int32_t *)LCL_REALLOC(b, (size_t)cap * 4 * sizeof(int32_t));
            if (!t) { st = lcl__oom(ctx, "CSR row blocks", (size_t)cap * 16); break; }
            b = t;
        }
        if (len > split) {                              /* chunks to carry[], summed by csr_long */
            if (nl == lcap) {
                int32_t *t = (int32_t *)LCL_REALLOC(l, (size_t)lcap * 2 * 3 * sizeof(int32_t));
                if (!t) { st = lcl__oom(ctx, "CSR long rows", (size_t)lcap * 24); break; }
                l = t;
                lcap *= 2;
            }
            l[3 * nl] = (int32_t)r; l[3 * nl + 1] = (int32_t)nb; l[3 * nl + 2] = (int32_t)need;
            nl++;
            for (k = 0; k < need; k++, nb++) {
                b[4 * nb] = b[4 * nb + 1] = (int32_t)r;
                b[4 * nb + 2] = (int32_t)(p[r] - p[0] + k * split);
                b[4 * nb + 3] = (int32_t)(k == need - 1 ? p[r + 1] - p[0] : p[r] - p[0] + (k + 1) * split);
            }
            r++;
            continue;
        }
        if (parts > 1) {                                /* rows while each part's share fits */
            int64_t cnt[LCL__SP_XPARTS], c2[LCL__SP_XPARTS], pw = (A->cols + parts - 1) / parts, fits = 1;
            memset(cnt, 0, sizeof cnt);
            while (r1 < n && r1 - r < wg && fits) {
                memcpy(c2, cnt, sizeof c2);
                for (k = p[r1]; k < p[r1 + 1]; k++) fits &= ++c2[A->idx[k] / pw] <= lds;
                if (fits) { memcpy(cnt, c2, sizeof cnt); r1++; }
            }
            if (r1 == r) r1 = r + 1;                    /* a part over lds: the work-group reduces the row */
        } else if (len > lds) r1 = r + 1;               /* one long row: the work-group reduces it */
        else
            while (r1 < n && r1 - r < wg && p[r1 + 1] - p[r] <= lds) r1++;
        b[4 * nb] = (int32_t)r; b[4 * nb + 1] = (int32_t)r1;
        b[4 * nb + 2] = (int32_t)(p[r] - p[0]); b[4 * nb + 3] = (int32_t)(p[r1] - p[0]);
        nb++;
        r = r1;
    }
    if (st != LCL_OK) { LCL_FREE(b); LCL_FREE(l); return st; }
    *blk = b; *nblk = (int)nb; *lng = l; *nlong = (int)nl;
    return LCL_OK;
}

/* A part's CSR for lcl_spmv_csr_cols: each row block's entries grouped by column part, rows in
   order within a part (b1 idx, b2 val in that order), b5 the parts' starts per block, b6 the rows'
   starts per part, b7 the later parts' row sums (z: parts - 1 vectors, zero) */
LCL__PRIVATE lcl_status lcl__sp_cols_upload(lcl_context *ctx, const lcl_spmat *A, lcl__spdev *P, const int32_t *blk, int nblk, int parts) {
    lcl__device *d = &ctx->dev[P->dev];
    size_t es = lcl__dsize(A->dtype);
    const int64_t *p = A->ptr + P->r0;
    int64_t a = p[0], nz = p[P->n] - a, pw = (A->cols + parts - 1) / parts, n = P->n, g, r, k, h, pos[LCL__SP_XPARTS];
    const int32_t *ci = A->idx + a;
    const char *cv = (const char *)A->val + (size_t)a * es;
    lcl_status st = LCL_OK;
    int32_t *idx = NULL, *bo = NULL, *q = NULL;
    char *val = NULL;
    if (!(idx = (int32_t *)lcl__alloc(ctx, "column parts' indices", (size_t)nz + 1, sizeof(int32_t), &st)) ||
        !(val = (char *)lcl__alloc(ctx, "column parts' values", (size_t)nz + 1, es, &st)) ||
        !(bo = (int32_t *)lcl__alloc(ctx, "column parts' starts", (size_t)nblk * (size_t)(parts + 1), sizeof(int32_t), &st)) ||
        !(q = (int32_t *)lcl__alloc(ctx, "column parts' rows", (size_t)(n * parts) + 1, sizeof(int32_t), &st)))
        goto done;
    memset(q, 0, ((size_t)(n * parts) + 1) * sizeof(int32_t));
    for (g = 0; g < nblk; g++) {
        int64_t r0 = blk[4 * g], r1 = blk[4 * g + 1], k0 = blk[4 * g + 2], k1 = blk[4 * g + 3], c = k0;
        for (h = 0; h < parts; h++) pos[h] = 0;
        for (k = k0; k < k1; k++) pos[ci[k] / pw]++;
        for (h = 0; h < parts; h++) { int64_t t = pos[h]; bo[g * (parts + 1) + h] = (int32_t)c; pos[h] = c; c += t; }
        bo[g * (parts + 1) + parts] = (int32_t)k1;
        /* row by row; a chunk of a long row (r1 == r0) as one segment, with no row starts */
        for (r = r0; r < LCL__MAX(r1, r0 + 1); r++) {
            int64_t e0 = r1 == r0 ? k0 : p[r] - a, e1 = r1 == r0 ? k1 : p[r + 1] - a;
            if (r1 != r0) for (h = 0; h < parts; h++) q[h * n + r] = (int32_t)pos[h];
            for (k = e0; k < e1; k++) {
                int64_t t = pos[ci[k] / pw]++;
                idx[t] = ci[k];
                if (es == sizeof(double)) ((double *)val)[t] = ((const double *)cv)[k];
                else ((float *)val)[t] = ((const float *)cv)[k];
            }
        }
    }
    if ((st = lcl__sp_put(ctx, d, &P->b[1], idx, (size_t)nz * sizeof(int32_t))) != LCL_OK) goto done;
    if ((st = lcl__sp_put(ctx, d, &P->b[2], val, (size_t)nz * es)) != LCL_OK) goto done;
    if ((st = lcl__sp_put(ctx, d, &P->b[5], bo, (size_t)nblk * (size_t)(parts + 1) * sizeof(int32_t))) != LCL_OK) goto done;
    if ((st = lcl__sp_put(ctx, d, &P->b[6], q, (size_t)(n * parts) * sizeof(int32_t))) != LCL_OK) goto done;
    LCL_FREE(val);   /* now z's zeros */
    if (!(val = (char *)lcl__alloc(ctx, "column parts' sums", (size_t)n * (size_t)(parts - 1) + 1, es, &st))) goto done;
    memset(val, 0, ((size_t)n * (size_t)(parts - 1) + 1) * es);
    if ((st = lcl__sp_put_rw(ctx, d, &P->b[7], val, (size_t)n * (size_t)(parts - 1) * es)) != LCL_OK) goto done;
    P->ni[2] = parts;
done:
    LCL_FREE(idx);
    LCL_FREE(val);
    LCL_FREE(bo);
    LCL_FREE(q);
    return st;
}

/* One part's device arrays. Buffers per format (ni = sizes):
     CSR      b0 ptr (int32, local), b1 idx, b2 val; merge: b3 blocks, b4 long rows, carry;
              ni = {blocks, long rows, column parts}; with column parts (ni[2] > 1) idx and val
              grouped by part within each block, b5-b7 (lcl__sp_cols_upload)
     COO      b0 row (local), b1 col, b2 val, crow/carry per work-group; ni = {nnz, groups}
     ELL      b1 idx, b2 val; ni = {width, ld, texels per x value of the image kernel}
     HYB      ELL part as ELL, b3 row (local), b4 col, b5 val of the COO rest; ni = {width, ld, ncoo, groups}
     SELL     b0 slice offsets, b3 slice widths, b4 perm (local), b1 idx, b2 val; ni = {C}
     DIA      b0 offsets, b2 val (ld = ni[1]); ni = {ndiag, ld}
     BCSR     b0 block-row offsets, b1 block columns, b2 blocks; ni = {br, bc}
     DENSE    b2 val (the part's rows) */
LCL__PRIVATE lcl_status lcl__sp_upload_part(lcl_context *ctx, const lcl_spmat *A, lcl__spdev *P) {
    lcl__device *d = &ctx->dev[P->dev];
    size_t es = lcl__dsize(A->dtype), wg = lcl__wg(d);
    int64_t r0 = P->r0, r1 = P->r1, n = P->n, i, k;
    lcl_status st = LCL_OK;
    void *tmp = NULL;
    int32_t *ti = NULL;
    const char *dn = d->info.name;
    switch (A->format) {
    case LCL_FMT_CSR: {
        int64_t a = A->ptr[r0], nz = A->ptr[r1] - a;
        if (nz > INT32_MAX) return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "a part of %lld nonzeros on device '%s' exceeds int32 offsets; split the matrix across more devices", (long long)nz, dn);
        int parts = 1;
        lcl__sp_csr_kernel(A, d, P);
        if ((st = lcl__sp_put_off(ctx, d, &P->b[0], A->ptr + r0, n, a)) != LCL_OK) return st;
        if (P->kernel == LCL_KERNEL_MERGE) {
            int32_t *blk = NULL, *lng = NULL;
            parts = lcl__sp_xparts(A, d, n);
            if ((st = lcl__sp_blocks(ctx, A, P, &d->tune, parts, &blk, &P->ni[0], &lng, &P->ni[1])) != LCL_OK) return st;
            if (parts > 1 && (int64_t)(parts + 1) * P->ni[0] > INT32_MAX) {   /* bo's indices: without parts */
                LCL_FREE(blk);
                LCL_FREE(lng);
                parts = 1;
                if ((st = lcl__sp_blocks(ctx, A, P, &d->tune, parts, &blk, &P->ni[0], &lng, &P->ni[1])) != LCL_OK) return st;
            }
            st = lcl__sp_put(ctx, d, &P->b[3], blk, (size_t)P->ni[0] * 4 * sizeof(int32_t));
            if (st == LCL_OK) st = lcl__sp_put(ctx, d, &P->b[4], lng, (size_t)P->ni[1] * 3 * sizeof(int32_t));
            if (st == LCL_OK) st = lcl__buffer(ctx, d, (size_t)P->ni[0] * (size_t)parts * es, CL_MEM_READ_WRITE, &P->carry);
            if (st == LCL_OK && parts > 1) st = lcl__sp_cols_upload(ctx, A, P, blk, P->ni[0], parts);
            LCL_FREE(blk);
            LCL_FREE(lng);
            if (st != LCL_OK || parts > 1) return st;
        }
        if ((st = lcl__sp_put(ctx, d, &P->b[1], A->idx + a, (size_t)nz * sizeof(int32_t))) != LCL_OK) return st;
        return lcl__sp_put(ctx, d, &P->b[2], (const char *)A->val + (size_t)a * es, (size_t)nz * es);
    }
    case LCL_FMT_COO: case LCL_FMT_HYB: {
        const int32_t *row = A->format == LCL_FMT_COO ? A->row : A->crow, *col = A->format == LCL_FMT_COO ? A->idx : A->ccol;
        const void *val = A->format == LCL_FMT_COO ? A->val : A->cval;
        int64_t cnt = A->format == LCL_FMT_COO ? A->nnz : A->ncoo, a = lcl__sp_lower(row, cnt, r0), e = lcl__sp_lower(row, cnt, r1);
        int j = A->format == LCL_FMT_COO ? 0 : 3, ci = A->format == LCL_FMT_COO ? 0 : 2;
        if (e - a > INT32_MAX - (int64_t)wg * LCL__SP_TILES) return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "a part of %lld entries on device '%s' exceeds int32 indexing", (long long)(e - a), dn);
        P->ni[ci] = (int)(e - a);
        P->ni[ci + 1] = (int)((e - a + (int64_t)wg * LCL__SP_TILES - 1) / ((int64_t)wg * LCL__SP_TILES));
        if (!(ti = (int32_t *)lcl__alloc(ctx, "part rows", (size_t)(e - a), sizeof(int32_t), &st))) return st;
        for (k = a; k < e; k++) ti[k - a] = row[k] - (int32_t)r0;
        st = lcl__sp_put(ctx, d, &P->b[j], ti, (size_t)(e - a) * sizeof(int32_t));
        LCL_FREE(ti);
        if (st == LCL_OK) st = lcl__sp_put(ctx, d, &P->b[j + 1], col + a, (size_t)(e - a) * sizeof(int32_t));
        if (st == LCL_OK) st = lcl__sp_put(ctx, d, &P->b[j + 2], (const char *)val + (size_t)a * es, (size_t)(e - a) * es);
        if (st == LCL_OK) st = lcl__buffer(ctx, d, (size_t)P->ni[ci + 1] * sizeof(int32_t), CL_MEM_READ_WRITE, &P->crow);
        if (st == LCL_OK) st = lcl__buffer(ctx, d, (size_t)P->ni[ci + 1] * es, CL_MEM_READ_WRITE, &P->carry);
        if (st != LCL_OK || A->format == LCL_FMT_COO) return st;
    }   /* HYB: and its ELL part */
    /* fall through */
    case LCL_FMT_ELL: case LCL_FMT_DIA: {
        int whole = r0 == 0 && r1 == A->rows, j;
        int64_t w = A->format == LCL_FMT_DIA ? A->ndiag : A->width, ld = whole ? A->ld : lcl__round_up(n, LCL__ALIGN_ROWS);
        if (w * ld > INT32_MAX) return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "a part of %lld slots on device '%s' exceeds int32 indexing", (long long)(w * ld), dn);
        P->ni[0] = (int)w;
        P->ni[1] = (int)ld;
        if (A->format == LCL_FMT_DIA) {
            if ((st = lcl__sp_put(ctx, d, &P->b[0], A->off, (size_t)w * sizeof(int32_t))) != LCL_OK) return st;
        } else if (whole) {
            if ((st = lcl__sp_put(ctx, d, &P->b[1], A->idx, (size_t)(w * ld) * sizeof(int32_t))) != LCL_OK) return st;
        } else {
            if (!(ti = (int32_t *)lcl__alloc(ctx, "part slots", (size_t)(w * ld), sizeof(int32_t), &st))) return st;
            for (j = 0; j < w; j++)
                for (i = 0; i < ld; i++) ti[j * ld + i] = i < n ? A->idx[j * A->ld + r0 + i] : -1;
            st = lcl__sp_put(ctx, d, &P->b[1], ti, (size_t)(w * ld) * sizeof(int32_t));
            LCL_FREE(ti);
            if (st != LCL_OK) return st;
        }
        if (whole) return lcl__sp_put(ctx, d, &P->b[2], A->val, (size_t)(w * ld) * es);
        if (!(tmp = lcl__alloc(ctx, "part slots", (size_t)(w * ld), es, &st))) return st;
        memset(tmp, 0, (size_t)(w * ld) * es);
        for (j = 0; j < w; j++) memcpy((char *)tmp + (size_t)(j * ld) * es, (const char *)A->val + (size_t)(j * A->ld + r0) * es, (size_t)n * es);
        st = lcl__sp_put(ctx, d, &P->b[2], tmp, (size_t)(w * ld) * es);
        LCL_FREE(tmp);
        return st;
    }
    case LCL_FMT_SELL: {
        int64_t s0 = r0 / A->C, s1 = (r1 + A->C - 1) / A->C, a = A->ptr[s0], nz = A->ptr[s1] - a;
        if (nz > INT32_MAX) return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "a part of %lld slots on device '%s' exceeds int32 indexing", (long long)nz, dn);
        P->ni[0] = A->C;
        if ((st = lcl__sp_put_off(ctx, d, &P->b[0], A->ptr + s0, s1 - s0, a)) != LCL_OK) return st;
        if ((st = lcl__sp_put(ctx, d, &P->b[3], A->swidth + s0, (size_t)(s1 - s0) * sizeof(int32_t))) != LCL_OK) return st;
        if (!(ti = (int32_t *)lcl__alloc(ctx, "part permutation", (size_t)n, sizeof(int32_t), &st))) return st;
        for (i = 0; i < n; i++) ti[i] = A->perm[r0 + i] - (int32_t)r0;
        st = lcl__sp_put(ctx, d, &P->b[4], ti, (size_t)n * sizeof(int32_t));
        LCL_FREE(ti);
        if (st == LCL_OK) st = lcl__sp_put(ctx, d, &P->b[1], A->idx + a, (size_t)nz * sizeof(int32_t));
        if (st == LCL_OK) st = lcl__sp_put(ctx, d, &P->b[2], (const char *)A->val + (size_t)a * es, (size_t)nz * es);
        return st;
    }
    case LCL_FMT_BCSR: {
        int64_t b0 = r0 / A->br, b1 = (r1 + A->br - 1) / A->br, a = A->ptr[b0], nb = A->ptr[b1] - a, bs = (int64_t)A->br * A->bc;
        if (nb * bs > INT32_MAX) return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "a part of %lld block slots on device '%s' exceeds int32 indexing", (long long)(nb * bs), dn);
        P->ni[0] = A->br;
        P->ni[1] = A->bc;
        if ((st = lcl__sp_put_off(ctx, d, &P->b[0], A->ptr + b0, b1 - b0, a)) != LCL_OK) return st;
        if ((st = lcl__sp_put(ctx, d, &P->b[1], A->idx + a, (size_t)nb * sizeof(int32_t))) != LCL_OK) return st;
        return lcl__sp_put(ctx, d, &P->b[2], (const char *)A->val + (size_t)(a * bs) * es, (size_t)(nb * bs) * es);
    }
    case LCL_FMT_DENSE:
        return lcl__sp_put(ctx, d, &P->b[2], (const char *)A->val + (size_t)(r0 * A->cols) * es, (size_t)(n * A->cols) * es);
    default:
        return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "format '%s' has no OpenCL SpMV kernel", lcl_format_name(A->format));
    }
}

/* x of cols elements as an image1d_buffer over buf (ELL image kernel); *texels: per value (1, or 2
   for double on devices without CL_RG uint texels) */
LCL__PRIVATE lcl_status lcl__sp_image(lcl_context *ctx, lcl__device *d, lcl_dtype dt, cl_mem buf, int64_t cols, cl_mem *out, int *texels) {
    cl_bool img = CL_FALSE;
    size_t maxw = 0;
    cl_image_format fmt;
    cl_image_desc desc;
    cl_int e;
    *out = NULL;
    if (LCL__CL->clGetDeviceInfo(d->id, CL_DEVICE_IMAGE_SUPPORT, sizeof img, &img, NULL) != CL_SUCCESS || !img)
        return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "the ELL image kernel needs image support, which device '%s' lacks; use LCL_KERNEL_AUTO", d->info.name);
    if (LCL__CL->clGetDeviceInfo(d->id, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, sizeof maxw, &maxw, NULL) != CL_SUCCESS) maxw = 0;
    if ((uint64_t)cols > (uint64_t)maxw)
        return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "x of %lld elements exceeds the image buffer limit (%.0f texels) of device '%s'; use LCL_KERNEL_AUTO",
                         (long long)cols, (double)maxw, d->info.name);
    memset(&fmt, 0, sizeof fmt);
    memset(&desc, 0, sizeof desc);
    fmt.image_channel_order = dt == LCL_F32 ? CL_R : CL_RG;
    fmt.image_channel_data_type = dt == LCL_F32 ? CL_FLOAT : CL_UNSIGNED_INT32;
    desc.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER;
    desc.image_width = (size_t)cols;
    desc.buffer = buf;
    *out = LCL__CL->clCreateImage(d->cl, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &e);
    if (texels) *texels = 1;
    if (!*out && dt == LCL_F64 && texels && (uint64_t)cols * 2 <= (uint64_t)maxw &&
        (e == CL_IMAGE_FORMAT_NOT_SUPPORTED || e == CL_INVALID_OPERATION || e == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)) {
        /* no two-channel texels for buffers (PoCL): a double is then two CL_R uint texels */
        fmt.image_channel_order = CL_R;
        desc.image_width = (size_t)cols * 2;
        *out = LCL__CL->clCreateImage(d->cl, CL_MEM_READ_ONLY, &fmt, &desc, NULL, &e);
        *texels = 2;
    }
    if (!*out) {
        if (e == CL_IMAGE_FORMAT_NOT_SUPPORTED || e == CL_INVALID_OPERATION)
            return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "device '%s' cannot read x as an image (%s); use LCL_KERNEL_AUTO", d->info.name, lcl__cl_errname(e));
        return lcl__clfail(ctx, e, "clCreateImage", d->info.name);
    }
    return LCL_OK;
}

LCL__PRIVATE lcl_status lcl__spmat_upload(lcl_context *ctx, lcl_spmat *A) {
    int nd, p, first, devs[64];
    int64_t bounds[65];
    lcl_status st = LCL_OK;
    if (!ctx || ctx->ndev < 1) return lcl__fail(ctx, LCL_ERR_BACKEND_UNAVAILABLE, "OpenCL SpMV needs an OpenCL context");
    if (A->opts.device < -1 || A->opts.device >= ctx->ndev)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "opts.device %d out of range: the context has %d OpenCL device(s) (-1 = all)", A->opts.device, ctx->ndev);
    if (A->rows > INT32_MAX || A->cols > INT32_MAX)
        return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "OpenCL SpMV takes at most %d rows and columns", INT32_MAX);
    nd = A->opts.device < 0 ? (ctx->ndev < 64 ? ctx->ndev : 64) : 1;
    first = A->opts.device < 0 ? 0 : A->opts.device;
    for (p = 0; p < nd; p++) devs[p] = first + p;
    for (p = 0; p < nd; p++) {
        lcl_status s2;
        lcl__program *pr;
        if ((s2 = lcl__program_of(ctx, &ctx->dev[devs[p]], A->dtype, "lcl_spmv_csr_scalar_d", &pr)) != LCL_OK) return s2;   /* NO_FP64, build errors: early */
    }
    /* rows split by work (stored slots + rows), part boundaries at multiples of gran */
    lcl__balance(A->rows, nd, lcl__sp_gran(A), lcl__sp_work, A, bounds);
    A->part = (lcl__spdev *)lcl__alloc(ctx, "matrix parts", (size_t)nd, sizeof(lcl__spdev), &st);
    if (!A->part) return st;
    memset(A->part, 0, (size_t)nd * sizeof(lcl__spdev));
    A->nparts = 0;
    if (A->format == LCL_FMT_CSR) { if (A->kernel == LCL_KERNEL_IMAGE) A->kernel = LCL_KERNEL_AUTO; }   /* resolved per part */
    else if (!(A->format == LCL_FMT_ELL && A->kernel == LCL_KERNEL_IMAGE)) A->kernel = LCL_KERNEL_SCALAR;   /* the format's one kernel */
    for (p = 0; p < nd && st == LCL_OK; p++) {
        lcl__spdev *P = &A->part[A->nparts];
        lcl__device *d = &ctx->dev[devs[p]];
        size_t es = lcl__dsize(A->dtype);
        if (bounds[p + 1] <= bounds[p] && !(nd == 1 && A->rows == 0)) continue;   /* a device with no rows holds no part */
        P->dev = devs[p];
        P->r0 = bounds[p];
        P->r1 = bounds[p + 1];
        P->n = (int)(P->r1 - P->r0);
        A->nparts++;
        st = lcl__sp_upload_part(ctx, A, P);
        if (st == LCL_OK) st = lcl__buffer(ctx, d, (size_t)A->cols * es, CL_MEM_READ_ONLY, &P->x);
        if (st == LCL_OK) st = lcl__buffer(ctx, d, (size_t)P->n * es, CL_MEM_READ_WRITE, &P->y);
        if (st == LCL_OK && A->kernel == LCL_KERNEL_IMAGE && A->cols > 0) st = lcl__sp_image(ctx, d, A->dtype, P->x, A->cols, &P->ximg, &P->ni[2]);
    }
    if (st != LCL_OK) { lcl__spmat_release(A); return st; }
    if (A->format == LCL_FMT_CSR && A->nparts > 0) A->kernel = A->part[0].kernel;   /* what the first part runs */
    else if (A->kernel == LCL_KERNEL_AUTO) A->kernel = LCL_KERNEL_SCALAR;
    return LCL_OK;
}

/* CSC on OpenCL, without atomics. A^T x gathers along the CSC arrays (the CSR of A^T): the CSR
   kernels run on them as they are (lcl__csc_cl_transpose). A x would scatter: float atomics are
   much slower than stores on NVIDIA, a CAS-loop scatter slower than the CSR kernel on PoCL
   (BENCHMARKS.md), and a segmented sum needs the entries sorted by row. So the device keeps the
   CSR the matrix was built from -- a transpose of the CSC arrays that costs nothing here (on the
   host it costs ~10 products) -- with rows split by nnz over devices as CSR's: a column split
   would leave each device a whole partial y to scatter and the host nd of them to add. */
LCL__PRIVATE lcl_status lcl__spmat_upload_csc(lcl_context *ctx, lcl_spmat *A, const lcl_csr *M) {
    lcl_spmat v = *A;
    lcl_status st;
    v.format = LCL_FMT_CSR;
    v.ptr = M->ptr;
    v.idx = M->col;
    v.val = M->val;
    st = lcl__spmat_upload(ctx, &v);
    A->part = v.part;           /* NULL after a failure */
    A->nparts = v.nparts;
    A->kernel = v.kernel;
    return st;
}
/* A^T of a CSC matrix: the CSC arrays uploaded as a CSR (columns of A split by nnz over devices);
   it borrows them for the upload and keeps no host copy. */
LCL__PRIVATE lcl_status lcl__csc_cl_transpose(lcl_context *ctx, lcl_spmat *A) {
    lcl_spmat *T = (lcl_spmat *)LCL_MALLOC(sizeof *T);
    lcl_status st;
    if (!T) return lcl__oom(ctx, "lcl_spmat", sizeof *T);
    memset(T, 0, sizeof *T);
    T->format = LCL_FMT_CSR;
    T->dtype = A->dtype;
    T->backend = A->backend;
    T->rows = A->cols;
    T->cols = A->rows;
    T->nnz = T->stored = A->nnz;
    T->opts = A->opts;
    T->opts.format = LCL_FMT_CSR;
    T->kernel = A->opts.kernel;
    T->ptr = A->ptr;
    T->idx = A->idx;
    T->val = A->val;
    st = lcl__spmat_upload(ctx, T);
    T->ptr = NULL;
    T->idx = NULL;
    T->val = NULL;
    if (st != LCL_OK) { lcl_spmat_free(T); return st; }
    snprintf(T->reason, sizeof T->reason, "transpose: the CSC arrays as CSR");
    A->tr = T;
    return LCL_OK;
}

/* enqueue part P's product on q: y (the part's rows) = alpha*A_P*x + beta*y */
LCL__PRIVATE lcl_status lcl__sp_run(lcl_context *ctx, const lcl_spmat *A, const lcl__spdev *P, cl_mem x, cl_mem ximg, cl_mem y,
                                    double alpha, double beta, cl_command_queue q) {
    lcl__device *d = &ctx->dev[P->dev];
    int f = A->dtype == LCL_F32, n = P->n, launches = 0, i, cols = (int)A->cols;
    size_t wg = lcl__wg(d), lws = (size_t)d->tune.spmv_wg, gws[3];
    float af = (float)alpha, bf = (float)beta;
    const void *pa = f ? (const void *)&af : (const void *)&alpha, *pb = f ? (const void *)&bf : (const void *)&beta;
    size_t rs = f ? sizeof(float) : sizeof(double), ms = sizeof(cl_mem);
    cl_kernel k[3];
    int kid[3];
    cl_int e = CL_SUCCESS;
    lcl_status st;
    if (n == 0) return LCL_OK;
    switch (A->format == LCL_FMT_CSC ? LCL_FMT_CSR : A->format) {   /* CSC parts hold the CSR of A */
    case LCL_FMT_CSR:
        if (P->kernel == LCL_KERNEL_MERGE) {
            kid[0] = LCL__K_ADAPTIVE; gws[0] = (size_t)P->ni[0] * lws;
            kid[1] = LCL__K_LONG; gws[1] = (size_t)lcl__round_up(P->ni[1], (int64_t)wg);
            launches = P->ni[1] > 0 ? 2 : 1;
            if (P->ni[2] > 1) {   /* column parts: the parts' sums added, then the long rows */
                kid[0] = LCL__K_COLS; gws[0] = (size_t)P->ni[0] * (size_t)P->ni[2] * lws;
                kid[2] = kid[1]; gws[2] = gws[1];
                kid[1] = LCL__K_ADDP; gws[1] = (size_t)lcl__round_up(n, (int64_t)wg);
                launches++;
            }
        } else if (P->kernel == LCL_KERNEL_VECTOR) {
            int v = P->V, j = LCL__K_VEC2;
            while (v > 2) { v >>= 1; j++; }
            kid[0] = j; gws[0] = (size_t)lcl__round_up((int64_t)n * P->V, (int64_t)wg); launches = 1;
        } else { kid[0] = LCL__K_SCALAR; gws[0] = (size_t)lcl__round_up(n, (int64_t)wg); launches = 1; }
        break;
    case LCL_FMT_COO: case LCL_FMT_HYB: {   /* y scaled (COO) or the ELL part's (HYB), then the COO tiles */
        int c = A->format == LCL_FMT_COO ? 1 : 3, s = A->format == LCL_FMT_COO && beta == 1.0;   /* y = 1*y: no pass over y */
        kid[0] = A->format == LCL_FMT_COO ? LCL__K_SCALE : LCL__K_ELL; gws[0] = (size_t)lcl__round_up(n, (int64_t)wg);
        kid[1 - s] = LCL__K_COO; gws[1 - s] = (size_t)P->ni[c] * wg;
        kid[2 - s] = LCL__K_COOFIX; gws[2 - s] = (size_t)lcl__round_up(P->ni[c], (int64_t)wg);
        launches = (P->ni[c] > 0 ? 3 : 1) - s;
        break;
    }
    case LCL_FMT_ELL:
        kid[0] = ximg ? LCL__K_ELLIMG : LCL__K_ELL; gws[0] = (size_t)lcl__round_up(n, (int64_t)wg); launches = 1;
        break;
    case LCL_FMT_SELL: kid[0] = LCL__K_SELL; gws[0] = (size_t)lcl__round_up(n, (int64_t)wg); launches = 1; break;
    case LCL_FMT_DIA: kid[0] = LCL__K_DIA; gws[0] = (size_t)lcl__round_up(n, (int64_t)wg); launches = 1; break;
    case LCL_FMT_BCSR: kid[0] = LCL__K_BCSR; gws[0] = (size_t)lcl__round_up(n, (int64_t)wg); launches = 1; break;
    case LCL_FMT_DENSE: kid[0] = LCL__K_DENSE; gws[0] = (size_t)n * wg; launches = 1; break;
    default: return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "format '%s' has no OpenCL SpMV kernel", lcl_format_name(A->format));
    }
    for (i = 0; i < launches; i++)
        if ((st = lcl__kernel(ctx, d, A->dtype, lcl__spk[kid[i]][f], &k[i])) != LCL_OK) return st;
    for (i = 0; i < launches && e == CL_SUCCESS; i++) {
        cl_kernel K = k[i];
        switch (kid[i]) {
        case LCL__K_SCALAR: case LCL__K_VEC2: case LCL__K_VEC4: case LCL__K_VEC8: case LCL__K_VEC16: case LCL__K_VEC32:
            e = lcl__argv(K, 8, LCL__A(n), LCL__A(P->b[0]), LCL__A(P->b[1]), LCL__A(P->b[2]), LCL__A(x), rs, pa, rs, pb, LCL__A(y));
            break;
        case LCL__K_ADAPTIVE:
            e = lcl__argv(K, 9, LCL__A(P->b[3]), LCL__A(P->b[0]), LCL__A(P->b[1]), LCL__A(P->b[2]), LCL__A(x), rs, pa, rs, pb, LCL__A(y), LCL__A(P->carry));
            break;
        case LCL__K_COLS:
            e = lcl__argv(K, 14, LCL__A(P->ni[0]), LCL__A(P->ni[2]), LCL__A(n), LCL__A(P->b[3]), LCL__A(P->b[5]), LCL__A(P->b[6]), LCL__A(P->b[1]),
                          LCL__A(P->b[2]), LCL__A(x), rs, pa, rs, pb, LCL__A(y), LCL__A(P->carry), LCL__A(P->b[7]));
            break;
        case LCL__K_ADDP: e = lcl__argv(K, 5, LCL__A(n), LCL__A(P->ni[2]), rs, pa, LCL__A(P->b[7]), LCL__A(y)); break;
        case LCL__K_LONG: {
            int parts = P->ni[2] > 1 ? P->ni[2] : 1;
            e = lcl__argv(K, 7, LCL__A(P->ni[1]), LCL__A(parts), LCL__A(P->b[4]), LCL__A(P->carry), rs, pa, rs, pb, LCL__A(y));
            break;
        }
        case LCL__K_SCALE: e = lcl__argv(K, 3, LCL__A(n), rs, pb, LCL__A(y)); break;
        case LCL__K_COO: {
            int tiles = LCL__SP_TILES, j = A->format == LCL_FMT_COO ? 0 : 3, c = A->format == LCL_FMT_COO ? 0 : 2;
            e = lcl__argv(K, 10, LCL__A(P->ni[c]), LCL__A(tiles), LCL__A(P->b[j]), LCL__A(P->b[j + 1]), LCL__A(P->b[j + 2]), LCL__A(x), rs, pa,
                          LCL__A(y), LCL__A(P->crow), LCL__A(P->carry));
            break;
        }
        case LCL__K_COOFIX:
            e = lcl__argv(K, 4, LCL__A(P->ni[A->format == LCL_FMT_COO ? 1 : 3]), LCL__A(P->crow), LCL__A(P->carry), LCL__A(y));
            break;
        case LCL__K_ELL: case LCL__K_ELLIMG:
            e = lcl__argv(K, kid[i] == LCL__K_ELLIMG ? 10 : 9, LCL__A(n), LCL__A(P->ni[0]), LCL__A(P->ni[1]), LCL__A(P->b[1]), LCL__A(P->b[2]),
                          ms, kid[i] == LCL__K_ELLIMG ? (const void *)&ximg : (const void *)&x, rs, pa, rs, pb, LCL__A(y), LCL__A(P->ni[2]));
            break;
        case LCL__K_SELL:
            e = lcl__argv(K, 11, LCL__A(n), LCL__A(P->ni[0]), LCL__A(P->b[0]), LCL__A(P->b[3]), LCL__A(P->b[4]), LCL__A(P->b[1]), LCL__A(P->b[2]),
                          LCL__A(x), rs, pa, rs, pb, LCL__A(y));
            break;
        case LCL__K_DIA: {
            int r0 = (int)P->r0;
            e = lcl__argv(K, 11, LCL__A(n), LCL__A(r0), LCL__A(cols), LCL__A(P->ni[0]), LCL__A(P->ni[1]), LCL__A(P->b[0]), LCL__A(P->b[2]),
                          LCL__A(x), rs, pa, rs, pb, LCL__A(y));
            break;
        }
        case LCL__K_BCSR:
            e = lcl__argv(K, 11, LCL__A(n), LCL__A(P->ni[0]), LCL__A(P->ni[1]), LCL__A(cols), LCL__A(P->b[0]), LCL__A(P->b[1]), LCL__A(P->b[2]),
                          LCL__A(x), rs, pa, rs, pb, LCL__A(y));
            break;
        case LCL__K_DENSE: e = lcl__argv(K, 6, LCL__A(cols), LCL__A(P->b[2]), LCL__A(x), rs, pa, rs, pb, LCL__A(y)); break;
        default: break;
        }
        if (e != CL_SUCCESS) {
            char what[96];
            snprintf(what, sizeof what, "clSetKernelArg(%s)", lcl__spk[kid[i]][f]);
            return lcl__clfail(ctx, e, what, d->info.name);
        }
        if (gws[i] == 0) continue;
        e = LCL__CL->clEnqueueNDRangeKernel(q, K, 1, NULL, &gws[i], kid[i] == LCL__K_ADAPTIVE || kid[i] == LCL__K_COLS ? &lws : &wg, 0, NULL, NULL);
        if (e != CL_SUCCESS) {
            char what[96];
            snprintf(what, sizeof what, "clEnqueueNDRangeKernel(%s)", lcl__spk[kid[i]][f]);
            return lcl__clfail(ctx, e, what, d->info.name);
        }
    }
    return LCL_OK;
}

/* y = alpha*A*x + beta*y on host arrays: per part, x (and y's rows when beta != 0) go out on the
   transfer queue, the kernels wait for them on the compute queue, y's rows come back; every
   device is enqueued before any is waited for, so devices overlap. */
LCL__PRIVATE lcl_status lcl__spmv_cl(lcl_context *ctx, double alpha, lcl_spmat *A, const void *x, double beta, void *y) {
    size_t es = lcl__dsize(A->dtype);
    lcl_status st = LCL_OK;
    int p, started = 0;
    cl_int e = CL_SUCCESS;
    for (p = 0; p < A->nparts && st == LCL_OK; p++) {
        lcl__spdev *P = &A->part[p];
        lcl__device *d = &ctx->dev[P->dev];
        cl_event ev = NULL;
        started = p + 1;
        if (P->n == 0) continue;
        if (A->cols > 0) e = LCL__CL->clEnqueueWriteBuffer(d->queue[1], P->x, CL_FALSE, 0, (size_t)A->cols * es, x, 0, NULL, beta == 0.0 ? &ev : NULL);
        if (e != CL_SUCCESS) { st = lcl__clfail(ctx, e, "clEnqueueWriteBuffer", d->info.name); break; }
        if (beta != 0.0) {
            e = LCL__CL->clEnqueueWriteBuffer(d->queue[1], P->y, CL_FALSE, 0, (size_t)P->n * es, (const char *)y + (size_t)P->r0 * es, 0, NULL, &ev);
            if (e != CL_SUCCESS) { st = lcl__clfail(ctx, e, "clEnqueueWriteBuffer", d->info.name); break; }
        }
        if (ev) {
            e = LCL__CL->clEnqueueBarrierWithWaitList(d->queue[0], 1, &ev, NULL);
            LCL__CL->clReleaseEvent(ev);
            if (e != CL_SUCCESS) { st = lcl__clfail(ctx, e, "clEnqueueBarrierWithWaitList", d->info.name); break; }
        }
        if ((st = lcl__sp_run(ctx, A, P, P->x, P->ximg, P->y, alpha, beta, d->queue[0])) != LCL_OK) break;
        e = LCL__CL->clEnqueueReadBuffer(d->queue[0], P->y, CL_FALSE, 0, (size_t)P->n * es, (char *)y + (size_t)P->r0 * es, 0, NULL, NULL);
        if (e != CL_SUCCESS) { st = lcl__clfail(ctx, e, "clEnqueueReadBuffer", d->info.name); break; }
        LCL__CL->clFlush(d->queue[1]);
        LCL__CL->clFlush(d->queue[0]);
    }
    /* wait for everything enqueued, also after a failure (the reads write into y, x is read) */
    for (p = 0; p < started; p++) {
        lcl__device *d = &ctx->dev[A->part[p].dev];
        cl_int e1 = LCL__CL->clFinish(d->queue[1]), e0 = LCL__CL->clFinish(d->queue[0]);
        if (st == LCL_OK && e1 != CL_SUCCESS) st = lcl__clfail(ctx, e1, "clFinish", d->info.name);
        if (st == LCL_OK && e0 != CL_SUCCESS) st = lcl__clfail(ctx, e0, "clFinish", d->info.name);
    }
    return st;
}

LCL__PRIVATE lcl_status lcl__sp_run_buf(lcl_context *ctx, const lcl_spmat *A, cl_mem x, cl_mem y, double alpha, double beta);
LCL__PRIVATE lcl_status lcl__vec_cl_axpby(lcl_context *ctx, double alpha, const lcl_vec *x, double beta, lcl_vec *y);   /* alpha 0: y = beta y */
LCL__PRIVATE lcl_status lcl__spmv_cl_vec(lcl_context *ctx, double alpha, lcl_spmat *A, const lcl_vec *x, double beta, lcl_vec *y) {
    lcl__spdev *P;
    if (A->nparts > 1)
        return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "the matrix is split across %d devices: create x and y with lcl_vec_create_like(A) "
                         "(or use lcl_spmv with host arrays for a matrix split across devices)", A->nparts);
    if (x->dtype != A->dtype || y->dtype != A->dtype)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv_vec: vectors are %s/%s, the matrix %s", x->dtype == LCL_F32 ? "float" : "double",
                         y->dtype == LCL_F32 ? "float" : "double", A->dtype == LCL_F32 ? "float" : "double");
    if (x->n != A->cols || y->n != A->rows)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "lcl_spmv_vec: x has %lld elements and y %lld, the matrix is %lld x %lld", (long long)x->n,
                         (long long)y->n, (long long)A->rows, (long long)A->cols);
    if (x == y) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv_vec: x and y are the same vector");
    if (A->nparts == 0 || A->part[0].n == 0) return LCL_OK;
    P = &A->part[0];
    if (x->dev != P->dev || y->dev != P->dev)
        return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "lcl_spmv_vec: the vectors live on device %d, the matrix on device %d", x->dev, P->dev);
    if (P->dev >= ctx->ndev || x->cl != ctx->dev[P->dev].cl || y->cl != x->cl)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv_vec: the vectors were created with another context: use vectors of this context");
    return alpha == 0 ? lcl__vec_cl_axpby(ctx, 0.0, y, beta, y) : lcl__sp_run_buf(ctx, A, x->buf, y->buf, alpha, beta);
}
/* y = alpha*A*x + beta*y, A on one device (one part), x and y its buffers; queued on its compute queue */
LCL__PRIVATE lcl_status lcl__sp_run_buf(lcl_context *ctx, const lcl_spmat *A, cl_mem x, cl_mem y, double alpha, double beta) {
    const lcl__spdev *P = &A->part[0];
    lcl__device *d = &ctx->dev[P->dev];
    cl_mem img = NULL;
    int texels = 1;
    lcl_status st;
    if (P->ximg && (st = lcl__sp_image(ctx, d, A->dtype, x, A->cols, &img, &texels)) != LCL_OK) return st;   /* same texels as at upload */
    st = lcl__sp_run(ctx, A, P, x, img, y, alpha, beta, d->queue[0]);
    if (st == LCL_OK) LCL__CL->clFlush(d->queue[0]);
    if (img) {
        if (st == LCL_OK) LCL__CL->clFinish(d->queue[0]);   /* the image must outlive the kernel */
        LCL__CL->clReleaseMemObject(img);
    }
    return st;
}

/* Device vectors live on device 0 and use its compute queue, so they are ordered with products. */
LCL__PRIVATE lcl_status lcl__vec_cl_create(lcl_context *ctx, lcl_vec *v, int dev, const void *init) {
    lcl__device *d;
    size_t bytes = (size_t)v->n * lcl__dsize(v->dtype);
    lcl_status st;
    v->dev = dev;
    v->buf = NULL;
    if (!ctx || ctx->ndev < 1) return lcl__fail(ctx, LCL_ERR_BACKEND_UNAVAILABLE, "OpenCL vectors need an OpenCL context");
    d = &ctx->dev[dev];
    v->cl = d->cl;
    if ((st = lcl__buffer(ctx, d, bytes, CL_MEM_READ_WRITE, &v->buf)) != LCL_OK) return st;
    if (init) st = lcl__vec_cl_copy(ctx, v, init, NULL);
    else if (bytes) {
        void *z = lcl__alloc(ctx, "zero vector", bytes, 1, &st);
        if (z) {
            memset(z, 0, bytes);
            st = lcl__vec_cl_copy(ctx, v, z, NULL);
            LCL_FREE(z);
        }
    }
    if (st != LCL_OK) { LCL__CL->clReleaseMemObject(v->buf); v->buf = NULL; }
    return st;
}
LCL__PRIVATE lcl_status lcl__vec_parts_copy(lcl_context *ctx, const lcl_vec *v, const void *src, void *dst);
/* the whole vector from host memory src, or (src NULL) to dst; blocking */
LCL__PRIVATE lcl_status lcl__vec_cl_copy(lcl_context *ctx, const lcl_vec *v, const void *src, void *dst) {
    lcl__device *d;
    size_t bytes = (size_t)v->n * lcl__dsize(v->dtype);
    cl_int e;
    if (v->nparts) return lcl__vec_parts_copy(ctx, v, src, dst);
    d = &ctx->dev[v->dev];
    if (!bytes) return LCL_OK;
    e = src ? LCL__CL->clEnqueueWriteBuffer(d->queue[0], v->buf, CL_TRUE, 0, bytes, src, 0, NULL, NULL)
            : LCL__CL->clEnqueueReadBuffer(d->queue[0], v->buf, CL_TRUE, 0, bytes, dst, 0, NULL, NULL);
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, src ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer", d->info.name);
}
LCL__PRIVATE void lcl__vec_cl_free(lcl_vec *v) {
    int p;
    if (v && v->buf) LCL__CL->clReleaseMemObject(v->buf);
    if (v) v->buf = NULL;
    if (!v || !v->vp) return;
    for (p = 0; p < v->nparts; p++) if (v->vp[p].buf) LCL__CL->clReleaseMemObject(v->vp[p].buf);
    LCL_FREE(v->vp);
    v->vp = NULL;
    v->nparts = 0;
}

/* ---- the resident split (lcl_vec_create_like, >>api): part p of lcl_rowpart's cut on device p
   holds its local matrix and its x with the ghosts after the owned values, so the local product
   needs x_local only. A product: every part gathers what the others need into sbuf (a kernel) and
   reads it into pinned staging (CL_MEM_ALLOC_HOST_PTR, mapped once); a receiver's write of its
   ghosts waits on a user event of its own context that the read's completion callback sets (events
   cannot cross contexts: a context per device, shared_context -1) or, where the two devices share
   a context (the default), on the read itself, then its product runs; nothing waits on the host.
   The staging is reused, so the next product first waits for the last one's writes (long done in
   a solver, whose dot products wait anyway). */
typedef struct lcl__hpart {
    int dev;
    int64_t r0, r1, nloc, nghost, nsend;
    lcl_spmat *M, *G;           /* the local rows on dev: their owned columns (nloc x nloc, NULL when
                                   nloc = 0) and their ghost columns (COO, nloc x (nloc + nghost), NULL
                                   when none), so the owned part runs while the halo moves */
    int64_t *send_off, *recv_off;   /* lcl_rowpart's plan */
    int32_t *ghost;             /* nghost global columns (a vector made from init gets its ghosts too) */
    cl_mem sidx, sbuf, pin;     /* send indices, gathered values, pinned staging */
    void *host;                 /* pin, mapped */
    cl_command_queue q, q0;     /* where pin was mapped (unmapped there at release); the compute queue */
    cl_event rd;                /* the last product's read of sbuf into host */
} lcl__hpart;
struct lcl__halo {
    int nparts;
    int64_t entries;            /* values sent per product, all parts together */
    lcl__hpart *p;
    cl_event *pend;             /* the last product's ghost writes (they read the staging) */
    int npend;
};

/* wait for the last product's exchange (one event at a time: they belong to several contexts);
   events released */
LCL__PRIVATE cl_int lcl__halo_quiet(lcl__halo *H) {
    cl_int e = CL_SUCCESS, e1;
    int i;
    for (i = 0; i < H->npend; i++) {
        if ((e1 = LCL__CL->clWaitForEvents(1, &H->pend[i])) != CL_SUCCESS && e == CL_SUCCESS) e = e1;
        LCL__CL->clReleaseEvent(H->pend[i]);
    }
    H->npend = 0;
    for (i = 0; i < H->nparts; i++)
        if (H->p[i].rd) { LCL__CL->clReleaseEvent(H->p[i].rd); H->p[i].rd = NULL; }
    return e;
}
LCL__PRIVATE void lcl__halo_free(lcl__halo *H) {
    int p;
    if (!H) return;
    if (H->p) {     /* the last writes from the staging end on the receivers' compute queues (or
                       on their events); where neither can be waited for, the staging is left
                       mapped rather than freed under a copy */
        int done = 1;
        for (p = 0; p < H->nparts; p++) if (H->p[p].q && LCL__CL->clFinish(H->p[p].q) != CL_SUCCESS) done = 0;
        for (p = 0; p < H->nparts; p++) if (H->p[p].q0 && LCL__CL->clFinish(H->p[p].q0) != CL_SUCCESS) done = 0;
        for (p = 0; p < H->npend && !done; p++) if (LCL__CL->clWaitForEvents(1, &H->pend[p]) != CL_SUCCESS) break;
        if (!done && p == H->npend) done = 1;
        for (p = 0; p < H->nparts && !done; p++) H->p[p].host = NULL, H->p[p].pin = NULL;
        for (p = 0; p < H->npend; p++) LCL__CL->clReleaseEvent(H->pend[p]);
        for (p = 0; p < H->nparts; p++) if (H->p[p].rd) LCL__CL->clReleaseEvent(H->p[p].rd);
        for (p = 0; p < H->nparts; p++) {
            lcl__hpart *h = &H->p[p];
            if (h->host) { LCL__CL->clEnqueueUnmapMemObject(h->q, h->pin, h->host, 0, NULL, NULL); LCL__CL->clFinish(h->q); }
            if (h->pin) LCL__CL->clReleaseMemObject(h->pin);
            if (h->sbuf) LCL__CL->clReleaseMemObject(h->sbuf);
            if (h->sidx) LCL__CL->clReleaseMemObject(h->sidx);
            lcl_spmat_free(h->M);
            lcl_spmat_free(h->G);
            LCL_FREE(h->send_off);
            LCL_FREE(h->recv_off);
            LCL_FREE(h->ghost);
        }
    }
    LCL_FREE(H->p);
    LCL_FREE(H->pend);
    LCL_FREE(H);
}
LCL__PRIVATE int64_t lcl__halo_entries(const lcl_spmat *A) { return A->halo ? A->halo->entries : 0; }

/* the local rows (owned columns first, then ghosts, each ascending) cut into h->M, the owned columns
   in the asked options o, and h->G, the ghost columns, in COO (a padded format would pad the rows
   without ghosts, and a CSR kernel would still pass over every row of y: 1.16x -> 1.39x on two H100s) */
LCL__PRIVATE lcl_status lcl__halo_blocks(lcl_context *ctx, const lcl_csr *L, const lcl_spmat_opts *o, lcl__hpart *h) {
    size_t es = lcl__dsize(L->dtype);
    lcl_csr B[2];
    lcl_spmat_opts og = *o;
    int64_t i, k, n[2] = {0, 0};
    int b;
    lcl_status st = LCL_OK;
    memset(B, 0, sizeof B);
    for (b = 0; b < 2; b++) {
        B[b].dtype = L->dtype;
        B[b].rows = h->nloc;
        B[b].cols = b ? h->nloc + h->nghost : h->nloc;
        B[b].ptr = (int64_t *)lcl__alloc(ctx, "local block rows", (size_t)h->nloc + 1, sizeof(int64_t), &st);
        B[b].col = (int32_t *)lcl__alloc(ctx, "local block columns", (size_t)L->nnz, sizeof(int32_t), &st);
        B[b].val = lcl__alloc(ctx, "local block values", (size_t)L->nnz, es, &st);
    }
    if (st == LCL_OK) {
        B[0].ptr[0] = B[1].ptr[0] = 0;
        for (i = 0; i < h->nloc; i++) {
            for (k = L->ptr[i]; k < L->ptr[i + 1]; k++) {
                b = L->col[k] >= h->nloc;
                B[b].col[n[b]] = L->col[k];
                memcpy((char *)B[b].val + (size_t)n[b] * es, (const char *)L->val + (size_t)k * es, es);
                n[b]++;
            }
            B[0].ptr[i + 1] = n[0];
            B[1].ptr[i + 1] = n[1];
        }
        B[0].nnz = n[0];
        B[1].nnz = n[1];
        og.format = LCL_FMT_COO;    /* work in the ghost entries only (beta 1 skips the scaling) */
        og.kernel = LCL_KERNEL_AUTO;
        og.trial = 0;
        st = lcl_spmat_create(ctx, &B[0], o, &h->M);
        if (st == LCL_OK && n[1] > 0) st = lcl_spmat_create(ctx, &B[1], &og, &h->G);
    }
    for (b = 0; b < 2; b++) { LCL_FREE(B[b].ptr); LCL_FREE(B[b].col); LCL_FREE(B[b].val); }
    return st;
}
/* part p's device arrays: the local matrix (A's asked options on device p), the send plan, staging */
LCL__PRIVATE lcl_status lcl__halo_part(lcl_context *ctx, lcl_spmat *A, const lcl_csr *C, int nd, int p, lcl__hpart *h) {
    lcl__device *d = &ctx->dev[p];
    size_t es = lcl__dsize(A->dtype);
    lcl_spmat_opts o = A->asked;
    lcl_rowpart R;
    cl_int e = CL_SUCCESS;
    lcl_status st = lcl_rowpart_create(ctx, C, nd, p, &R);
    if (st != LCL_OK) return st;
    h->dev = p;
    h->r0 = R.r0; h->r1 = R.r1; h->nloc = R.nloc; h->nghost = R.nghost; h->nsend = R.send_off[nd];
    h->send_off = R.send_off; h->recv_off = R.recv_off; h->ghost = R.ghost;
    R.send_off = R.recv_off = NULL;     /* kept */
    R.ghost = NULL;
    h->q = d->queue[1];
    h->q0 = d->queue[0];
    o.device = p;
    if (h->nloc > 0) st = lcl__halo_blocks(ctx, &R.local, &o, h);
    if (st == LCL_OK && h->nsend > 0) {
        st = lcl__sp_put(ctx, d, &h->sidx, R.send_idx, (size_t)h->nsend * sizeof(int32_t));
        if (st == LCL_OK) st = lcl__buffer(ctx, d, (size_t)h->nsend * es, CL_MEM_READ_WRITE, &h->sbuf);
        if (st == LCL_OK) st = lcl__buffer(ctx, d, (size_t)h->nsend * es, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, &h->pin);
        if (st == LCL_OK) {
            h->host = LCL__CL->clEnqueueMapBuffer(h->q, h->pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, (size_t)h->nsend * es, 0, NULL, NULL, &e);
            if (!h->host) st = lcl__clfail(ctx, e, "clEnqueueMapBuffer", d->info.name);
        }
    }
    lcl_rowpart_free(&R);
    return st;
}
LCL__PRIVATE lcl_status lcl__halo_build(lcl_context *ctx, lcl_spmat *A) {
    int nd = ctx->ndev < 64 ? ctx->ndev : 64, p;
    lcl_csr C;
    lcl__halo *H;
    lcl_status st;
    if (nd > A->rows) nd = (int)A->rows;
    if ((st = lcl__host_to_csr(ctx, A, &C)) != LCL_OK) return st;
    H = (lcl__halo *)lcl__alloc(ctx, "resident split", 1, sizeof *H, &st);
    if (H) {
        memset(H, 0, sizeof *H);
        H->p = (lcl__hpart *)lcl__alloc(ctx, "resident parts", (size_t)nd, sizeof *H->p, &st);
        if (H->p) memset(H->p, 0, (size_t)nd * sizeof *H->p);
        H->pend = H->p ? (cl_event *)lcl__alloc(ctx, "halo events", (size_t)nd * (size_t)nd, sizeof(cl_event), &st) : NULL;
    }
    if (H && H->pend) {
        H->nparts = nd;
        for (p = 0; p < nd && st == LCL_OK; p++) {
            st = lcl__halo_part(ctx, A, &C, nd, p, &H->p[p]);
            H->entries += H->p[p].nsend;
        }
    }
    lcl_csr_free(&C);
    if (st != LCL_OK) { lcl__halo_free(H); return st; }
    A->halo = H;
    {   /* the parts' own formats, after the reason (as room allows) */
        size_t at = strlen(A->reason);
        for (p = 0; p < nd && at + 1 < sizeof A->reason; p++) {
            const lcl_spmat *M = H->p[p].M;
            int w = snprintf(A->reason + at, sizeof A->reason - at, "%s%s%s", p ? ", " : at ? "; resident parts: " : "resident parts: ",
                             M ? lcl_format_name(M->format) : "empty", H->p[p].G ? "+coo" : "");
            if (w < 0) break;
            at += (size_t)w;
        }
    }
    return LCL_OK;
}

/* v's parts are H's rows on H's devices of ctx, with room for H's ghosts when ghosts is set */
LCL__PRIVATE int lcl__halo_fits(lcl_context *ctx, const lcl__halo *H, const lcl_vec *v, int ghosts) {
    int p;
    if (v->nparts != H->nparts) return 0;
    for (p = 0; p < H->nparts; p++) {
        const lcl__vpart *w = &v->vp[p];
        const lcl__hpart *h = &H->p[p];
        if (w->dev != h->dev || w->r0 != h->r0 || w->r1 != h->r1 || w->cl != ctx->dev[h->dev].cl) return 0;
        if (ghosts && w->cap < h->nloc + h->nghost) return 0;
    }
    return 1;
}

LCL__PRIVATE lcl_status lcl__vec_parts_create(lcl_context *ctx, lcl_vec *v, const lcl__halo *H, const void *init) {
    size_t es = lcl__dsize(v->dtype);
    int64_t mx = 1;
    int p;
    lcl_status st = LCL_OK;
    char *tmp;
    v->dev = -1;
    v->buf = NULL;
    v->vp = (lcl__vpart *)lcl__alloc(ctx, "vector parts", (size_t)H->nparts, sizeof(lcl__vpart), &st);
    if (!v->vp) return st;
    memset(v->vp, 0, (size_t)H->nparts * sizeof(lcl__vpart));
    v->nparts = H->nparts;
    for (p = 0; p < H->nparts; p++) mx = LCL__MAX(mx, H->p[p].nloc + H->p[p].nghost);
    if (!(tmp = (char *)lcl__alloc(ctx, "vector staging", (size_t)mx, es, &st))) { lcl__vec_cl_free(v); return st; }
    for (p = 0; p < H->nparts && st == LCL_OK; p++) {
        lcl__vpart *w = &v->vp[p];
        lcl__device *d = &ctx->dev[H->p[p].dev];
        size_t bytes;
        cl_int e;
        w->dev = H->p[p].dev; w->r0 = H->p[p].r0; w->r1 = H->p[p].r1; w->cap = H->p[p].nloc + H->p[p].nghost;
        w->cl = d->cl;
        bytes = (size_t)w->cap * es;
        if ((st = lcl__buffer(ctx, d, bytes, CL_MEM_READ_WRITE, &w->buf)) != LCL_OK || bytes == 0) continue;
        memset(tmp, 0, bytes);      /* the ghosts too: defined until the first product fills them */
        if (init) {
            int64_t k, nl = H->p[p].nloc;
            memcpy(tmp, (const char *)init + (size_t)w->r0 * es, (size_t)nl * es);
            for (k = 0; k < H->p[p].nghost; k++) memcpy(tmp + (size_t)(nl + k) * es, (const char *)init + (size_t)H->p[p].ghost[k] * es, es);
        }
        e = LCL__CL->clEnqueueWriteBuffer(d->queue[0], w->buf, CL_TRUE, 0, bytes, tmp, 0, NULL, NULL);
        if (e != CL_SUCCESS) st = lcl__clfail(ctx, e, "clEnqueueWriteBuffer", d->info.name);
    }
    LCL_FREE(tmp);
    if (st != LCL_OK) lcl__vec_cl_free(v);
    return st;
}
/* a partitioned vector's owned values from src, or (src NULL) to dst; blocking */
LCL__PRIVATE lcl_status lcl__vec_parts_copy(lcl_context *ctx, const lcl_vec *v, const void *src, void *dst) {
    size_t es = lcl__dsize(v->dtype);
    int p;
    for (p = 0; p < v->nparts; p++) {
        const lcl__vpart *w = &v->vp[p];
        lcl__device *d = &ctx->dev[w->dev];
        size_t bytes = (size_t)(w->r1 - w->r0) * es, off = (size_t)w->r0 * es;
        cl_int e;
        if (!bytes) continue;
        e = src ? LCL__CL->clEnqueueWriteBuffer(d->queue[0], w->buf, CL_TRUE, 0, bytes, (const char *)src + off, 0, NULL, NULL)
                : LCL__CL->clEnqueueReadBuffer(d->queue[0], w->buf, CL_TRUE, 0, bytes, (char *)dst + off, 0, NULL, NULL);
        if (e != CL_SUCCESS) return lcl__clfail(ctx, e, src ? "clEnqueueWriteBuffer" : "clEnqueueReadBuffer", d->info.name);
    }
    return LCL_OK;
}

/* a read finished (or failed): the receiver's user event follows, and the callback's reference goes */
static void CL_CALLBACK lcl__halo_done(cl_event ev, cl_int status, void *u) {
    (void)ev;
    LCL__CL->clSetUserEventStatus((cl_event)u, status < 0 ? status : CL_COMPLETE);
    LCL__CL->clReleaseEvent((cl_event)u);
}
/* part p's gather of the values the others need (compute queue, event *g) */
LCL__PRIVATE lcl_status lcl__halo_gather(lcl_context *ctx, lcl_dtype dt, lcl__hpart *h, cl_mem x, cl_event *g) {
    lcl__device *d = &ctx->dev[h->dev];
    size_t wg = lcl__wg(d), gws = (size_t)lcl__round_up(h->nsend, (int64_t)wg);
    int n = (int)h->nsend;
    cl_kernel k;
    cl_int e;
    lcl_status st = lcl__kernel(ctx, d, dt, dt == LCL_F32 ? "lcl_gather_f" : "lcl_gather_d", &k);
    if (st != LCL_OK) return st;
    e = lcl__argv(k, 4, LCL__A(n), LCL__A(h->sidx), LCL__A(x), LCL__A(h->sbuf));
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_gather)", d->info.name);
    e = LCL__CL->clEnqueueNDRangeKernel(d->queue[0], k, 1, NULL, &gws, &wg, 0, NULL, g);
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, "clEnqueueNDRangeKernel(lcl_gather)", d->info.name);
}
/* ... read into its staging on the transfer queue once gathered (event h->rd), while the owned
   columns' product runs */
LCL__PRIVATE lcl_status lcl__halo_send(lcl_context *ctx, lcl_dtype dt, lcl__hpart *h, cl_event g) {
    lcl__device *d = &ctx->dev[h->dev];
    cl_int e = LCL__CL->clEnqueueReadBuffer(d->queue[1], h->sbuf, CL_FALSE, 0, (size_t)h->nsend * lcl__dsize(dt), h->host, 1, &g, &h->rd);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueReadBuffer", d->info.name);
    LCL__CL->clFlush(d->queue[1]);
    return LCL_OK;
}
/* receiver q's ghosts from sender p, written on q's transfer queue once p's read has completed and
   q's compute queue has passed mk (the last product's ghost block read these ghosts). One shared
   cl_context: the write waits on the read itself; else on a user event its callback sets. */
LCL__PRIVATE lcl_status lcl__halo_recv(lcl_context *ctx, lcl__halo *H, size_t es, int q, int p, cl_mem x, cl_event mk) {
    lcl__hpart *hq = &H->p[q], *hp = &H->p[p];
    lcl__device *d = &ctx->dev[hq->dev];
    int64_t cnt = hq->recv_off[p + 1] - hq->recv_off[p];
    cl_int e;
    cl_event w[2], u = NULL;
    if (d->cl != ctx->dev[hp->dev].cl) {
        if (!(u = LCL__CL->clCreateUserEvent(d->cl, &e))) return lcl__clfail(ctx, e, "clCreateUserEvent", d->info.name);
        LCL__CL->clRetainEvent(u);          /* the callback's reference */
        e = LCL__CL->clSetEventCallback(hp->rd, CL_COMPLETE, lcl__halo_done, u);
        if (e != CL_SUCCESS) {
            LCL__CL->clReleaseEvent(u);
            LCL__CL->clReleaseEvent(u);
            return lcl__clfail(ctx, e, "clSetEventCallback", d->info.name);
        }
    }
    w[0] = u ? u : hp->rd;
    w[1] = mk;
    e = LCL__CL->clEnqueueWriteBuffer(d->queue[1], x, CL_FALSE, (size_t)(hq->nloc + hq->recv_off[p]) * es, (size_t)cnt * es,
                                      (const char *)hp->host + (size_t)hp->send_off[q] * es, 2, w, &H->pend[H->npend]);
    if (u) LCL__CL->clReleaseEvent(u);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueWriteBuffer", d->info.name);
    H->npend++;
    return LCL_OK;
}
/* y = alpha*A*x + beta*y on partitioned vectors (checked by the caller). Per device: a marker (the
   last product done with the ghosts), the gather and the owned columns' product (compute queue);
   then per device the gather's read to the staging (transfer queue), the ghost writes (transfer
   queue, after the marker and their sender's read), then the ghost columns' product (beta 1) after
   them. The owned products go first: on two H100s (trace_dense spmv) the host's enqueues of the
   markers, gathers and reads of both devices had delayed the first one by 45 us, all the
   exchange cost (the ghosts were written 0.3 ms before it ended). */
LCL__PRIVATE lcl_status lcl__halo_spmv(lcl_context *ctx, lcl_spmat *A, double alpha, const lcl_vec *x, double beta, lcl_vec *y) {
    lcl__halo *H = A->halo;
    size_t es = lcl__dsize(A->dtype);
    lcl_status st = LCL_OK;
    int p, q, skip = ctx->dev[H->p[0].dev].tune.halo_skip;
    cl_event mk[64], g[64];
    cl_int e = lcl__halo_quiet(H);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clWaitForEvents", ctx->dev[H->p[0].dev].info.name);
    memset(mk, 0, sizeof mk);
    memset(g, 0, sizeof g);
    for (q = 0; q < H->nparts && st == LCL_OK; q++) {
        lcl__device *d = &ctx->dev[H->p[q].dev];
        if (!skip && H->p[q].G && (e = LCL__CL->clEnqueueMarkerWithWaitList(d->queue[0], 0, NULL, &mk[q])) != CL_SUCCESS)
            st = lcl__clfail(ctx, e, "clEnqueueMarkerWithWaitList", d->info.name);
        if (st == LCL_OK && !skip && H->p[q].nsend > 0) st = lcl__halo_gather(ctx, A->dtype, &H->p[q], x->vp[q].buf, &g[q]);
        if (st == LCL_OK && H->p[q].M) st = lcl__sp_run_buf(ctx, H->p[q].M, x->vp[q].buf, y->vp[q].buf, alpha, beta);
        LCL__CL->clFlush(d->queue[0]);
    }
    for (p = 0; p < H->nparts && st == LCL_OK; p++)
        if (g[p]) st = lcl__halo_send(ctx, A->dtype, &H->p[p], g[p]);
    for (p = 0; p < H->nparts; p++) if (g[p]) LCL__CL->clReleaseEvent(g[p]);
    for (q = 0; q < H->nparts && st == LCL_OK; q++) {
        lcl__hpart *h = &H->p[q];
        lcl__device *d = &ctx->dev[h->dev];
        int first = H->npend;
        if (!h->G) continue;
        for (p = 0; p < H->nparts && st == LCL_OK && !skip; p++)
            if (p != q && h->recv_off[p + 1] > h->recv_off[p]) st = lcl__halo_recv(ctx, H, es, q, p, x->vp[q].buf, mk[q]);
        if (st == LCL_OK && H->npend > first) {
            LCL__CL->clFlush(d->queue[1]);
            e = LCL__CL->clEnqueueBarrierWithWaitList(d->queue[0], (cl_uint)(H->npend - first), H->pend + first, NULL);
            if (e != CL_SUCCESS) st = lcl__clfail(ctx, e, "clEnqueueBarrierWithWaitList", d->info.name);
        }
        if (st == LCL_OK) st = lcl__sp_run_buf(ctx, h->G, x->vp[q].buf, y->vp[q].buf, alpha, 1.0);
    }
    for (q = 0; q < H->nparts; q++) if (mk[q]) LCL__CL->clReleaseEvent(mk[q]);
    if (st != LCL_OK) {     /* what was queued finishes (every callback that was set fires) */
        for (p = 0; p < H->nparts; p++) {
            LCL__CL->clFinish(ctx->dev[H->p[p].dev].queue[1]);
            LCL__CL->clFinish(ctx->dev[H->p[p].dev].queue[0]);
        }
        lcl__halo_quiet(H);
    }
    return st;
}

/* ---- vector operations on a device vector or a partitioned one, part by part */
typedef struct lcl__vview { int dev; cl_mem buf; int64_t r0, n; cl_context cl; } lcl__vview;
LCL__PRIVATE int lcl__vec_views(const lcl_vec *v, lcl__vview *w) {  /* w: 64 entries */
    int p, k = 0;
    if (!v->nparts) {
        if (v->n == 0) return 0;
        w[0].dev = v->dev; w[0].buf = v->buf; w[0].r0 = 0; w[0].n = v->n; w[0].cl = v->cl;
        return 1;
    }
    for (p = 0; p < v->nparts; p++)
        if (v->vp[p].r1 > v->vp[p].r0) {
            w[k].dev = v->vp[p].dev; w[k].buf = v->vp[p].buf; w[k].r0 = v->vp[p].r0; w[k].n = v->vp[p].r1 - v->vp[p].r0; w[k].cl = v->vp[p].cl;
            k++;
        }
    return k;
}
/* the views of x and y, which must match one another and belong to ctx: their count, or -1 (reported) */
LCL__PRIVATE int lcl__vec_pair(lcl_context *ctx, const char *fn, const lcl_vec *x, const lcl_vec *y, lcl__vview *wx, lcl__vview *wy) {
    int nx = lcl__vec_views(x, wx), ny = lcl__vec_views(y, wy), i, same = nx == ny;
    for (i = 0; i < nx && same; i++) same = wx[i].dev == wy[i].dev && wx[i].r0 == wy[i].r0 && wx[i].n == wy[i].n;
    if (!same) {
        lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: x and y are laid out differently (%s over %d device(s), %s over %d): make both with "
                  "lcl_vec_create_like of the same matrix, or both with lcl_vec_create", fn, x->nparts ? "partitioned" : "whole", nx,
                  y->nparts ? "partitioned" : "whole", ny);
        return -1;
    }
    for (i = 0; i < nx; i++)   /* dev alone: devices may share one cl_context; cl alone: contexts may hold alike devices */
        if (wx[i].dev >= ctx->ndev || wx[i].cl != ctx->dev[wx[i].dev].cl || wy[i].cl != wx[i].cl) {
            lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the vectors were created with another context: use vectors of this context", fn);
            return -1;
        }
    return nx;
}
LCL__PRIVATE lcl_status lcl__vec_cl_axpby(lcl_context *ctx, double alpha, const lcl_vec *x, double beta, lcl_vec *y) {
    lcl__vview wx[64], wy[64];
    int nv = lcl__vec_pair(ctx, "lcl_vec_axpby", x, y, wx, wy), i, f = x->dtype == LCL_F32;
    float af = (float)alpha, bf = (float)beta;
    const void *pa = f ? (const void *)&af : (const void *)&alpha, *pb = f ? (const void *)&bf : (const void *)&beta;
    size_t rs = f ? sizeof(float) : sizeof(double);
    if (nv < 0) return lcl_last_status(ctx);
    for (i = 0; i < nv; i++) {
        lcl__device *d = &ctx->dev[wx[i].dev];
        size_t wg = lcl__wg(d), gws = (size_t)lcl__round_up(wx[i].n, (int64_t)wg);
        cl_long n = (cl_long)wx[i].n;
        cl_kernel k;
        cl_int e;
        lcl_status st = lcl__kernel(ctx, d, x->dtype, f ? "lcl_axpby_f" : "lcl_axpby_d", &k);
        if (st != LCL_OK) return st;
        e = lcl__argv(k, 5, LCL__A(n), rs, pa, LCL__A(wx[i].buf), rs, pb, LCL__A(wy[i].buf));
        if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_axpby)", d->info.name);
        e = LCL__CL->clEnqueueNDRangeKernel(d->queue[0], k, 1, NULL, &gws, &wg, 0, NULL, NULL);
        if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueNDRangeKernel(lcl_axpby)", d->info.name);
        LCL__CL->clFlush(d->queue[0]);
    }
    return LCL_OK;
}
#define LCL__DOT_GROUPS 1024    /* work-groups of a dot product: enough to fill a GPU, few to add on the host */
LCL__PRIVATE lcl_status lcl__vec_cl_dot(lcl_context *ctx, const lcl_vec *x, const lcl_vec *y, double *out) {
    lcl__vview wx[64], wy[64];
    cl_mem part[64];
    cl_event rd[64];
    int nv = lcl__vec_pair(ctx, "lcl_vec_dot", x, y, wx, wy), i, started = 0, f = x->dtype == LCL_F32, lost = 0;
    size_t es = lcl__dsize(x->dtype), off = 0, ng[64];
    lcl_status st = LCL_OK;
    char *sums = NULL;
    *out = 0;
    if (nv < 0) return lcl_last_status(ctx);
    if (nv == 0) return LCL_OK;
    if (!(sums = (char *)lcl__alloc(ctx, "partial sums", (size_t)nv * LCL__DOT_GROUPS, es, &st))) return st;
    for (i = 0; i < nv && st == LCL_OK; i++) {
        lcl__device *d = &ctx->dev[wx[i].dev];
        size_t wg = lcl__wg(d), gws;
        cl_long n = (cl_long)wx[i].n;
        cl_kernel k;
        cl_int e;
        ng[i] = (size_t)LCL__MIN((wx[i].n + (int64_t)wg - 1) / (int64_t)wg, LCL__DOT_GROUPS);
        gws = ng[i] * wg;
        if ((st = lcl__kernel(ctx, d, x->dtype, f ? "lcl_dot_f" : "lcl_dot_d", &k)) != LCL_OK) break;
        if ((st = lcl__buffer(ctx, d, ng[i] * es, CL_MEM_READ_WRITE, &part[i])) != LCL_OK) break;
        rd[i] = NULL;
        started = i + 1;
        e = lcl__argv(k, 4, LCL__A(n), LCL__A(wx[i].buf), LCL__A(wy[i].buf), LCL__A(part[i]));
        if (e != CL_SUCCESS) { st = lcl__clfail(ctx, e, "clSetKernelArg(lcl_dot)", d->info.name); break; }
        e = LCL__CL->clEnqueueNDRangeKernel(d->queue[0], k, 1, NULL, &gws, &wg, 0, NULL, NULL);
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueReadBuffer(d->queue[0], part[i], CL_FALSE, 0, ng[i] * es, sums + off * es, 0, NULL, &rd[i]);
        if (e != CL_SUCCESS) { st = lcl__clfail(ctx, e, "clEnqueue(lcl_dot)", d->info.name); break; }
        LCL__CL->clFlush(d->queue[0]);
        off += ng[i];
    }
    for (i = 0; i < started; i++) {    /* also after a failure: the reads write into sums */
        cl_int e = LCL__CL->clFinish(ctx->dev[wx[i].dev].queue[0]);
        if (e != CL_SUCCESS && rd[i] && LCL__CL->clWaitForEvents(1, &rd[i]) != CL_SUCCESS) lost = 1;
        if (st == LCL_OK && e != CL_SUCCESS) st = lcl__clfail(ctx, e, "clFinish", ctx->dev[wx[i].dev].info.name);
        if (rd[i]) LCL__CL->clReleaseEvent(rd[i]);
        LCL__CL->clReleaseMemObject(part[i]);
    }
    if (lost) return st;    /* a read may still write into sums: left allocated, not freed under it */
    if (st == LCL_OK) {
        size_t j;
        double s = 0;
        for (j = 0; j < off; j++) s += f ? (double)((const float *)sums)[j] : ((const double *)sums)[j];
        *out = s;
    }
    LCL_FREE(sums);
    return st;
}
#endif

/* >>spmv-api ----------------------------------------------------------------------------------- */
LCL_API lcl_status lcl_finish(lcl_context *ctx) {
    if (!ctx) return LCL_ERR_INVALID_ARGUMENT;
#ifndef LINALG_CL_NO_OPENCL
    {
        int i, q;
        for (i = 0; i < ctx->ndev; i++)
            for (q = 0; q < 2; q++) {
                cl_int e = ctx->dev[i].queue[q] ? LCL__CL->clFinish(ctx->dev[i].queue[q]) : CL_SUCCESS;
                if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clFinish", ctx->dev[i].info.name);
            }
    }
#endif
    return LCL_OK;
}
static const char *const lcl__format_names[LCL_FMT_COUNT_] = {"auto", "coo", "csr", "csc", "ell", "sell", "hyb", "dia", "bcsr", "dense"};
static const char *const lcl__kernel_names[LCL_KERNEL_COUNT_] = {"auto", "scalar", "vector", "merge", "image"};
LCL_API const char *lcl_format_name(lcl_format f) { return (int)f >= 0 && f < LCL_FMT_COUNT_ ? lcl__format_names[f] : "unknown"; }
LCL_API const char *lcl_spmv_kernel_name(lcl_spmv_kernel k) { return (int)k >= 0 && k < LCL_KERNEL_COUNT_ ? lcl__kernel_names[k] : "unknown"; }
LCL_API int lcl_format_parse(const char *name, lcl_format *out) {
    int i;
    if (!name || !out) return 0;
    for (i = 0; i < LCL_FMT_COUNT_; i++)
        if (lcl__strieq(name, lcl__format_names[i])) { *out = (lcl_format)i; return 1; }
    if (lcl__strieq(name, "cds")) { *out = LCL_FMT_DIA; return 1; }   /* DIA's other name */
    return 0;
}
LCL_API int lcl_spmv_kernel_parse(const char *name, lcl_spmv_kernel *out) {
    int i;
    if (!name || !out) return 0;
    for (i = 0; i < LCL_KERNEL_COUNT_; i++)
        if (lcl__strieq(name, lcl__kernel_names[i])) { *out = (lcl_spmv_kernel)i; return 1; }
    return 0;
}

/* Validation of a CSR pattern (sizes, row pointers, sorted unique columns in range); the values
   and dtype are not looked at. */
LCL__PRIVATE lcl_status lcl__csr_check_pattern(lcl_context *ctx, const lcl_csr *M, const char *fn) {
    int64_t i, k;
    if (!M) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL matrix", fn);
    if (M->rows < 0 || M->cols < 0 || M->rows > INT32_MAX || M->cols > INT32_MAX || M->nnz < 0)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: bad CSR sizes %lldx%lld, %lld entries (each dimension 0..2^31-1)", fn,
                         (long long)M->rows, (long long)M->cols, (long long)M->nnz);
    if (!M->ptr || (M->nnz > 0 && !M->col)) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL CSR arrays", fn);
    if (M->ptr[0] != 0 || M->ptr[M->rows] != M->nnz)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: row pointers must run from 0 to nnz = %lld (ptr[0] = %lld, ptr[%lld] = %lld)", fn,
                         (long long)M->nnz, (long long)M->ptr[0], (long long)M->rows, (long long)M->ptr[M->rows]);
    for (i = 0; i < M->rows; i++) {
        if (M->ptr[i + 1] < M->ptr[i] || M->ptr[i + 1] > M->nnz)
            return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: row pointer %lld = %lld decreases or passes nnz = %lld", fn,
                             (long long)(i + 1), (long long)M->ptr[i + 1], (long long)M->nnz);
        for (k = M->ptr[i]; k < M->ptr[i + 1]; k++) {
            if (M->col[k] < 0 || M->col[k] >= M->cols)
                return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: row %lld: column %d outside 0..%lld", fn, (long long)i, (int)M->col[k],
                                 (long long)M->cols - 1);
            if (k > M->ptr[i] && M->col[k] <= M->col[k - 1])
                return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: row %lld: column %d after %d: %s (canonical CSR: sorted, no duplicates; "
                                 "lcl_spmat_from_coo sorts and sums)", fn, (long long)i, (int)M->col[k], (int)M->col[k - 1],
                                 M->col[k] == M->col[k - 1] ? "duplicate entry" : "columns not sorted");
        }
    }
    return LCL_OK;
}

/* Full validation of an input CSR: what a kernel must be able to trust. */
LCL__PRIVATE lcl_status lcl__csr_check(lcl_context *ctx, const lcl_csr *M, const char *fn) {
    int64_t k;
    lcl_status st;
    if (!M) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL matrix", fn);
    if (M->dtype != LCL_F32 && M->dtype != LCL_F64) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown dtype %d", fn, (int)M->dtype);
    if (M->nnz > 0 && !M->val) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL CSR arrays", fn);
    if ((st = lcl__csr_check_pattern(ctx, M, fn)) != LCL_OK) return st;
    for (k = 0; k < M->nnz; k++) {
        double v = lcl__val(M->val, M->dtype, k);
        if (v - v != 0) {
            int64_t i = 0;
            while (M->ptr[i + 1] <= k) i++;
            return lcl__fail(ctx, LCL_ERR_NAN, "%s: entry (%lld,%d) is %s", fn, (long long)i, (int)M->col[k], v != v ? "NaN" : "Inf");
        }
    }
    return LCL_OK;
}

/* SELL-C-sigma defaults: the device's tuning on OpenCL, else the CPU backends' (a cache line of
   rows, sorted within 64) */
LCL__PRIVATE void lcl__sell_defaults(const lcl_context *ctx, int device, int *c, int *sigma) {
    *c = 8;
    *sigma = 64;
#ifndef LINALG_CL_NO_OPENCL
    if (ctx && ctx->backend == LCL_BACKEND_OPENCL && ctx->ndev > 0) {
        const lcl__tuning *t = &ctx->dev[device >= 0 && device < ctx->ndev ? device : 0].tune;
        *c = t->spmv_sell_c;
        *sigma = t->spmv_sell_sigma;
    }
#else
    (void)ctx;
    (void)device;
#endif
}

LCL__PRIVATE int lcl__ctx_gpu(const lcl_context *ctx, int device) {
#ifndef LINALG_CL_NO_OPENCL
    if (ctx && ctx->backend == LCL_BACKEND_OPENCL && ctx->ndev > 0)
        return ctx->dev[device >= 0 && device < ctx->ndev ? device : 0].info.type == LCL_DEVICE_GPU;
#else
    (void)ctx;
#endif
    (void)device;
    return 0;
}

/* options with the defaults filled in; the format may stay AUTO */
LCL__PRIVATE lcl_status lcl__opts_resolve(lcl_context *ctx, const lcl_spmat_opts *o, lcl_spmat_opts *r) {
    int c, sigma;
    if (o) *r = *o;
    else memset(r, 0, sizeof *r);
    if ((int)r->format < 0 || r->format >= LCL_FMT_COUNT_)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmat_create: unknown format %d", (int)r->format);
    if ((int)r->kernel < 0 || r->kernel >= LCL_KERNEL_COUNT_)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmat_create: unknown kernel %d", (int)r->kernel);
    if (!(r->max_fill >= 0)) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmat_create: max_fill %g (0 = default 3, else > 0)", r->max_fill);
    if (r->sell_c < 0 || r->sell_c > LCL__SELL_MAXC || r->sell_sigma < 0)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmat_create: SELL C = %d (1..%d), sigma = %d (>= 1)", r->sell_c, LCL__SELL_MAXC, r->sell_sigma);
    if (r->block_r < 0 || r->block_c < 0 || r->block_r > LCL__BCSR_MAXB || r->block_c > LCL__BCSR_MAXB)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmat_create: BCSR block %d x %d (each 1..%d)", r->block_r, r->block_c, LCL__BCSR_MAXB);
    if (r->hyb_width < 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmat_create: negative hyb_width %d", r->hyb_width);
    lcl__sell_defaults(ctx, r->device, &c, &sigma);
    if (r->max_fill == 0) r->max_fill = 3.0;
    if (r->sell_c == 0) r->sell_c = c;
    if (r->sell_sigma == 0) r->sell_sigma = sigma;
    if (r->block_r == 0) r->block_r = 4;
    if (r->block_c == 0) r->block_c = 4;
    /* hyb_width stays as given: 0 lets A^T pick its own from its histogram */
    return LCL_OK;
}

/* CSR on the CPU: prefetch x when it is larger than a core's L2 and most columns lie far from
   the diagonal, so consecutive rows share no x lines (a random graph; not a stencil or band) */
#ifndef LCL__PF_XMIN
#define LCL__PF_XMIN (1 << 20)  /* bytes of x below which the cache holds it anyway */
#endif
LCL__PRIVATE int lcl__csr_scattered(const lcl_csr *M) {
    int64_t i, k, far = 0, es = (int64_t)lcl__dsize(M->dtype), near = 262144 / es;
    if (M->cols * es < LCL__PF_XMIN || M->rows == 0) return 0;
    for (i = 0; i < M->rows; i++) {
        int64_t d = (int64_t)((double)i * (double)M->cols / (double)M->rows);
        for (k = M->ptr[i]; k < M->ptr[i + 1]; k++) far += M->col[k] - d > near || d - M->col[k] > near;
    }
    return 4 * far > M->nnz;
}

/* CSR with scattered columns whose x outgrows LCL__PANEL_X: split the columns into npanel equal
   ranges and store the entries panel by panel (each row's columns are sorted, so its entries in a
   panel are a contiguous run). The product then sweeps the rows once per panel, gathering from a
   part of x that the last-level cache holds while the values stream past. Costs npanel x (rows+1)
   row pointers and one more pass over y per extra panel; measured in BENCHMARKS.md. */
#ifndef LCL__PANEL_X
#define LCL__PANEL_X (16 << 20) /* bytes of x per panel: half an L3 of 32 MB (8 MiB: 1.4x slower on
                                   the 2M power-law matrix on Zen 5, BENCHMARKS.md) */
#endif
LCL__PRIVATE lcl_status lcl__csr_panels(lcl_context *ctx, lcl_spmat *A, int np) {
    size_t es = lcl__dsize(A->dtype);
    int64_t rows = A->rows, w = (A->cols + np - 1) / np, i, k, p, q = 0;
    int64_t *pp;
    int32_t *idx;
    void *val;
    lcl_status st = LCL_OK;
    if (np < 2 || A->nnz == 0 || A->npanel > 1) return LCL_OK;
    if (!lcl__mul_i64((int64_t)np, rows + 1, &k)) return lcl__fail(ctx, LCL_ERR_OVERFLOW, "csr: %d panel pointer arrays overflow", np);
    pp = (int64_t *)lcl__alloc(ctx, "CSR panel row pointers", (size_t)k, sizeof(int64_t), &st);
    idx = pp ? (int32_t *)lcl__alloc(ctx, "CSR panel indices", (size_t)A->nnz + LCL__PF_DIST, sizeof(int32_t), &st) : NULL;
    val = idx ? lcl__alloc(ctx, "CSR panel values", (size_t)A->nnz, es, &st) : NULL;
    if (!val) { LCL_FREE(pp); LCL_FREE(idx); return st; }
    /* pp[p][i+1] = entries of row i in panel p; the running sum in panel-major order makes
       pp[p][i] where row i's run in panel p starts */
    for (p = 0; p < np; p++) pp[p * (rows + 1)] = 0;
    for (i = 0; i < rows; i++) {
        for (p = 0; p < np; p++) pp[p * (rows + 1) + i + 1] = 0;
        for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) pp[A->idx[k] / w * (rows + 1) + i + 1]++;
    }
    for (p = 0; p < np; p++)
        for (i = 0; i <= rows; i++) { q += pp[p * (rows + 1) + i]; pp[p * (rows + 1) + i] = q; }
    for (i = 0; i < rows; i++)      /* the scatter advances each start to its run's end ... */
        for (k = A->ptr[i]; k < A->ptr[i + 1]; k++) {
            int64_t *at = pp + A->idx[k] / w * (rows + 1) + i;
            idx[*at] = A->idx[k];
            memcpy((char *)val + (size_t)*at * es, (const char *)A->val + (size_t)k * es, es);
            ++*at;
        }
    for (p = np - 1; p >= 0; p--) {     /* ... the next row's start: shift back by one */
        int64_t *pr = pp + p * (rows + 1);
        for (i = rows; i > 0; i--) pr[i] = pr[i - 1];
        pr[0] = p ? pp[(p - 1) * (rows + 1) + rows] : 0;
    }
    memset(idx + A->nnz, 0, LCL__PF_DIST * sizeof(int32_t));
    LCL_FREE(A->idx);
    LCL_FREE(A->val);
    A->idx = idx;
    A->val = val;
    A->pptr = pp;
    A->npanel = np;
    return LCL_OK;
}

/* Build A in r->format (not AUTO) on backend b: host arrays, then the CPU work split or the
   device upload. CPU kernels: CSR scalar or merge (AUTO: merge when one row outweighs half a
   thread's part), other formats scalar. OpenCL resolves its own kernel in lcl__spmat_upload. */
LCL__PRIVATE lcl_status lcl__spmat_build(lcl_context *ctx, const lcl_csr *M, const lcl_spmat_opts *r, lcl_backend b,
                                         lcl_spmv_kernel k, int64_t gnnz, lcl_spmat **out) {
    lcl_status st;
    int nt = b == LCL_BACKEND_OPENCL ? 1 : lcl__ctx_threads(ctx);
    lcl_spmat *A = (lcl_spmat *)LCL_MALLOC(sizeof *A);
    *out = NULL;
    if (!A) return lcl__oom(ctx, "lcl_spmat", sizeof *A);
    memset(A, 0, sizeof *A);
    A->format = r->format;
    A->dtype = M->dtype;
    A->backend = b;
    A->rows = M->rows;
    A->cols = M->cols;
    A->nnz = M->nnz;
    A->opts = *r;
    A->opts.kernel = k;
    if (b != LCL_BACKEND_OPENCL) {
        if (A->format != LCL_FMT_CSR) k = LCL_KERNEL_SCALAR;
        else if (k == LCL_KERNEL_AUTO) {
            int64_t i, mx = 0;
            for (i = 0; i < M->rows; i++) mx = LCL__MAX(mx, M->ptr[i + 1] - M->ptr[i]);
            k = nt > 1 && (double)mx * 2.0 * nt > (double)(M->nnz + M->rows) ? LCL_KERNEL_MERGE : LCL_KERNEL_SCALAR;
        } else if (k != LCL_KERNEL_MERGE) k = LCL_KERNEL_SCALAR;
    }
    A->kernel = k;
    A->prefetch = b != LCL_BACKEND_OPENCL && A->format == LCL_FMT_CSR && lcl__csr_scattered(M);
    st = lcl__build_host(ctx, A, M, LCL__MAX(gnnz, M->nnz));
    if (st == LCL_OK && A->prefetch && k == LCL_KERNEL_SCALAR) {
        double xb = (double)A->cols * (double)lcl__dsize(A->dtype);
        int np = (int)LCL__MIN(64.0, ceil(xb / (double)LCL__PANEL_X));
        st = lcl__csr_panels(ctx, A, np);
    }
    if (st == LCL_OK && b != LCL_BACKEND_OPENCL) st = lcl__make_split(ctx, A, nt);
#ifndef LINALG_CL_NO_OPENCL
    if (st == LCL_OK && b == LCL_BACKEND_OPENCL) st = A->format == LCL_FMT_CSC ? lcl__spmat_upload_csc(ctx, A, M) : lcl__spmat_upload(ctx, A);
#endif
    if (st != LCL_OK) { lcl_spmat_free(A); return st; }
    *out = A;
    return LCL_OK;
}

/* one product, no checks (A on its backend) */
LCL__PRIVATE lcl_status lcl__spmv_run(lcl_context *ctx, lcl_spmat *A, double alpha, const void *x, double beta, void *y) {
#ifndef LINALG_CL_NO_OPENCL
    if (A->backend == LCL_BACKEND_OPENCL) return lcl__spmv_cl(ctx, alpha, A, x, beta, y);
#endif
    lcl__spmv_host(ctx, A, alpha, x, beta, y);
    return LCL_OK;
}

/* LCL_FMT_AUTO: the rule.
   Row statistics of the CSR: mean m and standard deviation s of the row length (cv = s/m), the
   longest row mx, and -- for regular rows (cv <= 0.5, mx <= 64) -- the occupied diagonals nd.
   ELL fill = mx*rows/nnz, DIA fill = nd*rows/nnz (slots stored per nonzero).
   CPU backends, and OpenCL CPU devices (bound by bytes per nonzero; CSR reads value + index, and a
   padded format reads as much plus its padding, gathering no better than CSR does):
     DIA         nd <= 64 and DIA fill <= 1.1 (a banded stencil: no indices, contiguous x)
     SELL        CPU backends built for AVX-512, columns scattered beyond the cache
                 (lcl__csr_scattered): C = one vector (16 floats, 8 doubles), sigma
                 LCL__SELL_SIGMA_CPU; masked gathers, no branch per row (1.5x CSR on the
                 2M power-law matrix, BENCHMARKS.md)
     CSR         otherwise; kernel merge when one row outweighs half a thread's share
                 (2 * threads * mx > nnz + rows), else scalar (parts are balanced by nnz already)
   OpenCL GPUs (coalescing decides):
     DIA         as above
     CSR merge   heavy-tailed rows: cv > 1 or mx > 32 m + 64
     CSR vector  long rows, m >= 24: a group of lanes per row
     ELL         regular rows, ELL fill <= 1.2: one row per lane, column-major, coalesced
     SELL        the rest: padding only within slices of 32 similar rows
   opts.trial: every candidate is built and timed (a warm-up, then the best of 3 products) and the
   fastest is kept; the reason lists the times.
   CSC is never a candidate: on the CPU backends its A x scatters, on OpenCL it runs the CSR
   kernels on the same CSR (never faster than CSR, and A^T x costs the same device memory). */
typedef struct lcl__rstat { double mean, sd, cv; int64_t max, ndiag; } lcl__rstat;
LCL__PRIVATE lcl_status lcl__row_stats(lcl_context *ctx, const lcl_csr *M, lcl__rstat *s) {
    int64_t i, k;
    double ss = 0;
    lcl_status st = LCL_OK;
    memset(s, 0, sizeof *s);
    s->ndiag = -1;
    if (M->rows == 0) return LCL_OK;
    s->mean = (double)M->nnz / (double)M->rows;
    for (i = 0; i < M->rows; i++) {
        int64_t l = M->ptr[i + 1] - M->ptr[i];
        s->max = LCL__MAX(s->max, l);
        ss += ((double)l - s->mean) * ((double)l - s->mean);
    }
    s->sd = sqrt(ss / (double)M->rows);
    s->cv = s->mean > 0 ? s->sd / s->mean : 0;
    if (s->cv <= 0.5 && s->max <= 64 && M->nnz > 0) {
        unsigned char *seen = (unsigned char *)lcl__alloc(ctx, "diagonal marks", (size_t)(M->rows + M->cols), 1, &st);
        if (!seen) return st;
        memset(seen, 0, (size_t)(M->rows + M->cols));
        s->ndiag = 0;
        for (i = 0; i < M->rows; i++)
            for (k = M->ptr[i]; k < M->ptr[i + 1]; k++)
                if (!seen[M->col[k] - i + M->rows]) { seen[M->col[k] - i + M->rows] = 1; s->ndiag++; }
        LCL_FREE(seen);
    }
    return LCL_OK;
}

LCL__PRIVATE lcl_status lcl__spmat_trial(lcl_context *ctx, const lcl_csr *M, const lcl_spmat_opts *r, lcl_backend b, int gpu,
                                         const char *stats, lcl_spmat **out) {
    static const struct { lcl_format f; lcl_spmv_kernel k; int gpu_only; } cand[] = {
        {LCL_FMT_CSR, LCL_KERNEL_SCALAR, 0}, {LCL_FMT_CSR, LCL_KERNEL_MERGE, 0}, {LCL_FMT_CSR, LCL_KERNEL_VECTOR, 1},
        {LCL_FMT_ELL, LCL_KERNEL_AUTO, 0}, {LCL_FMT_SELL, LCL_KERNEL_AUTO, 0}, {LCL_FMT_HYB, LCL_KERNEL_AUTO, 0},
        {LCL_FMT_DIA, LCL_KERNEL_AUTO, 0}};
    size_t es = lcl__dsize(M->dtype), c;
    lcl_status st = LCL_OK;
    lcl_spmat *best = NULL;
    double tbest = 0;
    char list[96];
    int used = 0;
    void *x = lcl__alloc(ctx, "trial x", (size_t)M->cols, es, &st);
    void *y = x ? lcl__alloc(ctx, "trial y", (size_t)M->rows, es, &st) : NULL;
    *out = NULL;
    list[0] = 0;
    if (!y) { LCL_FREE(x); return st; }
    for (c = 0; c < (size_t)M->cols; c++) lcl__setval(x, M->dtype, (int64_t)c, 1.0 + (double)(c % 7) * 0.125);
    for (c = 0; c < sizeof cand / sizeof cand[0]; c++) {
        lcl_spmat_opts o = *r;
        lcl_spmat *A = NULL;
        double t = 1e300;
        int rep;
        if (cand[c].gpu_only && !gpu) continue;
        o.format = cand[c].f;
        st = lcl__spmat_build(ctx, M, &o, b, cand[c].k, 0, &A);
        if (st == LCL_ERR_FILL) { lcl_clear_error(ctx); st = LCL_OK; continue; }     /* too much padding: not a candidate */
        if (st != LCL_OK) break;
        if (b != LCL_BACKEND_OPENCL && A->format == LCL_FMT_CSR && cand[c].k != A->kernel) { lcl_spmat_free(A); continue; }   /* CSR vector = scalar here */
        for (rep = 0; rep < 4 && st == LCL_OK; rep++) {
            double t0 = lcl__wtime();
            st = lcl__spmv_run(ctx, A, 1.0, x, 0.0, y);
            if (rep > 0 && lcl__wtime() - t0 < t) t = lcl__wtime() - t0;    /* rep 0 warms up */
        }
        if (st != LCL_OK) { lcl_spmat_free(A); break; }
        used += snprintf(list + used, sizeof list - (size_t)used, "%s%s%s%s %.3g", used ? ", " : "", lcl_format_name(A->format),
                         A->format == LCL_FMT_CSR ? "/" : "", A->format == LCL_FMT_CSR ? lcl_spmv_kernel_name(A->kernel) : "", t * 1e3);
        if (used >= (int)sizeof list) used = (int)sizeof list - 1;
        if (!best || t < tbest) { lcl_spmat_free(best); best = A; tbest = t; }
        else lcl_spmat_free(A);
    }
    LCL_FREE(x);
    LCL_FREE(y);
    if (st != LCL_OK) { lcl_spmat_free(best); return st; }
    if (!best) return lcl__fail(ctx, LCL_ERR_INTERNAL, "lcl_spmat_create: no trial candidate could be built");
    snprintf(best->reason, sizeof best->reason, "%s; trial ms: %s", stats, list);
    *out = best;
    return LCL_OK;
}

LCL__PRIVATE lcl_status lcl__spmat_auto(lcl_context *ctx, const lcl_csr *M, const lcl_spmat_opts *r, lcl_backend b, lcl_spmat **out) {
    lcl__rstat s;
    lcl_spmat_opts o = *r;
    lcl_spmv_kernel k = r->kernel;
    char stats[80];
    const char *why;
    double ellfill, diafill;
    int gpu = lcl__ctx_gpu(ctx, r->device);
    lcl_status st = lcl__row_stats(ctx, M, &s);
    if (st != LCL_OK) return st;
    ellfill = M->nnz ? (double)s.max * (double)M->rows / (double)M->nnz : 1.0;
    diafill = M->nnz && s.ndiag > 0 ? (double)s.ndiag * (double)M->rows / (double)M->nnz : 1e9;
    if (s.ndiag >= 0) snprintf(stats, sizeof stats, "rows %.1f +- %.1f, max %lld, %lld diagonals", s.mean, s.sd, (long long)s.max, (long long)s.ndiag);
    else snprintf(stats, sizeof stats, "rows %.1f +- %.1f, max %lld", s.mean, s.sd, (long long)s.max);
    if (r->trial) return lcl__spmat_trial(ctx, M, r, b, gpu, stats, out);
    if (s.ndiag >= 1 && s.ndiag <= 64 && diafill <= 1.1) { o.format = LCL_FMT_DIA; why = "DIA fill"; }
    else if (b != LCL_BACKEND_OPENCL && LCL__SELL_VEC && lcl__csr_scattered(M)) {
        /* columns scattered beyond the cache: SELL with one AVX-512 vector per slice (lcl__sell_vec),
           rows sorted by length within LCL__SELL_SIGMA_CPU, so little padding and no branch per row */
        o.format = LCL_FMT_SELL;
        o.sell_c = (int)(64 / lcl__dsize(M->dtype));
        o.sell_sigma = LCL__SELL_SIGMA_CPU;
        why = "scattered columns, SELL for AVX-512 gathers";
    }
    else if (!gpu) { o.format = LCL_FMT_CSR; why = "CSR on a CPU"; }
    else if (s.cv > 1 || (double)s.max > 32 * s.mean + 64) { o.format = LCL_FMT_CSR; k = LCL_KERNEL_MERGE; why = "heavy tail"; }
    else if (s.mean >= 24) { o.format = LCL_FMT_CSR; k = LCL_KERNEL_VECTOR; why = "long rows"; }
    else if (ellfill <= 1.2) { o.format = LCL_FMT_ELL; why = "ELL fill"; }
    else { o.format = LCL_FMT_SELL; why = "irregular rows, SELL"; }
    st = lcl__spmat_build(ctx, M, &o, b, k, 0, out);
    if (st == LCL_ERR_FILL) {   /* not expected from the rule; CSR always fits */
        lcl_clear_error(ctx);
        o.format = LCL_FMT_CSR;
        why = "padded format refused, CSR";
        st = lcl__spmat_build(ctx, M, &o, b, LCL_KERNEL_AUTO, 0, out);
    }
    if (st != LCL_OK) return st;
    if (o.format == LCL_FMT_DIA) snprintf((*out)->reason, sizeof (*out)->reason, "%s: %s %.2f -> dia", stats, why, diafill);
    else if (o.format == LCL_FMT_ELL) snprintf((*out)->reason, sizeof (*out)->reason, "%s: %s %.2f -> ell", stats, why, ellfill);
    else snprintf((*out)->reason, sizeof (*out)->reason, "%s: %s -> %s/%s", stats, why, lcl_format_name((*out)->format),
                  lcl_spmv_kernel_name((*out)->kernel));
    return LCL_OK;
}

LCL_API lcl_status lcl_spmat_create(lcl_context *ctx, const lcl_csr *M, const lcl_spmat_opts *o, lcl_spmat **out) {
    lcl_spmat_opts r;
    lcl_backend b = ctx ? ctx->backend : LCL_BACKEND_SERIAL;
    lcl_status st;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmat_create: NULL output");
    *out = NULL;
    if ((st = lcl__csr_check(ctx, M, "lcl_spmat_create")) != LCL_OK) return st;
    if ((st = lcl__opts_resolve(ctx, o, &r)) != LCL_OK) return st;
    st = r.format == LCL_FMT_AUTO ? lcl__spmat_auto(ctx, M, &r, b, out) : lcl__spmat_build(ctx, M, &r, b, r.kernel, 0, out);
    if (st == LCL_OK) {
        if (o) (*out)->asked = *o;      /* the resident copy's parts choose as this call did */
        else memset(&(*out)->asked, 0, sizeof (*out)->asked);
    }
    return st;
}
LCL_API lcl_status lcl_spmat_from_coo(lcl_context *ctx, const lcl_coo *A, const lcl_spmat_opts *o, lcl_spmat **out) {
    lcl_csr C;
    lcl_status st;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmat_from_coo: NULL output");
    *out = NULL;
    if ((st = lcl_csr_from_coo(ctx, A, &C)) != LCL_OK) return st;   /* a canonical copy: sorted, duplicates summed */
    st = lcl_spmat_create(ctx, &C, o, out);
    lcl_csr_free(&C);
    return st;
}
LCL_API void lcl_spmat_free(lcl_spmat *A) {
    if (!A) return;
    lcl_spmat_free(A->tr);
#ifndef LINALG_CL_NO_OPENCL
    lcl__halo_free(A->halo);
    lcl__spmat_release(A);
#endif
    lcl__spmat_free_host(A);
    LCL_FREE(A);
}
LCL_API lcl_status lcl_spmat_describe(const lcl_spmat *A, lcl_spmat_info *out) {
    double es, xy, m = 0;
    if (!A || !out) return LCL_ERR_INVALID_ARGUMENT;
    memset(out, 0, sizeof *out);
    es = (double)lcl__dsize(A->dtype);
    xy = ((double)A->rows + (double)A->cols) * es;
    switch (A->format) {
    case LCL_FMT_CSR: m = (double)A->nnz * (es + 4) + ((double)A->rows + 1) * 8; break;
    case LCL_FMT_CSC: /* OpenCL's A x reads the CSR kept on the device */
        m = (double)A->nnz * (es + 4) + ((double)(A->backend == LCL_BACKEND_OPENCL ? A->rows : A->cols) + 1) * 8;
        break;
    case LCL_FMT_COO: m = (double)A->nnz * (es + 8); break;
    case LCL_FMT_ELL: m = (double)A->stored * (es + 4); break;
    case LCL_FMT_SELL: m = (double)A->stored * (es + 4) + (double)A->nslices * 12 + (double)A->rows * 4; break;
    case LCL_FMT_HYB: m = (double)(A->stored - A->ncoo) * (es + 4) + (double)A->ncoo * (es + 8); break;
    case LCL_FMT_DIA: m = (double)A->stored * es + (double)A->ndiag * 4; break;
    case LCL_FMT_BCSR: {
        double nb = A->ptr ? (double)A->ptr[(A->rows + A->br - 1) / A->br] : 0;
        m = nb * ((double)A->br * A->bc * es + 4) + ((double)(A->rows + A->br - 1) / A->br + 1) * 8;
        break;
    }
    default: m = (double)A->stored * es; break;
    }
    out->format = A->format;
    out->kernel = A->kernel;
    out->dtype = A->dtype;
    out->rows = A->rows;
    out->cols = A->cols;
    out->nnz = A->nnz;
    out->stored = A->stored;
    out->bytes = m + xy;
    out->devices = A->nparts;
    memcpy(out->reason, A->reason, sizeof out->reason);
#ifndef LINALG_CL_NO_OPENCL
    out->halo = lcl__halo_entries(A);
#endif
    return LCL_OK;
}
LCL_API lcl_status lcl_spmat_to_csr(lcl_context *ctx, const lcl_spmat *A, lcl_csr *out) {
    if (!A || !out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmat_to_csr: NULL argument");
    return lcl__host_to_csr(ctx, A, out);
}

/* CPU objects run on either CPU backend only when the context is NULL (serially). */
LCL__PRIVATE lcl_status lcl__backend_check(lcl_context *ctx, lcl_backend have, const char *fn, const char *what) {
    lcl_backend cb = ctx ? ctx->backend : LCL_BACKEND_SERIAL;
    if (cb == have || (!ctx && have != LCL_BACKEND_OPENCL)) return LCL_OK;
    return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the %s was created with a %s context, this context is %s: "
                     "use a context of the same backend", fn, what, lcl_backend_name(have), lcl_backend_name(cb));
}
/* A^T in A's format and options, built once from A's own arrays */
LCL__PRIVATE lcl_status lcl__spmat_transpose(lcl_context *ctx, lcl_spmat *A) {
    lcl_csr C, T;
    lcl_status st;
#ifndef LINALG_CL_NO_OPENCL
    if (A->format == LCL_FMT_CSC && A->backend == LCL_BACKEND_OPENCL) return lcl__csc_cl_transpose(ctx, A);
#endif
    if ((st = lcl__host_to_csr(ctx, A, &C)) != LCL_OK) return st;
    st = lcl__csr_transpose(ctx, &C, &T);
    lcl_csr_free(&C);
    if (st != LCL_OK) return st;
    st = lcl__spmat_build(ctx, &T, &A->opts, A->backend, A->opts.kernel, A->nnz, &A->tr);
    lcl_csr_free(&T);
    if (st == LCL_OK) snprintf(A->tr->reason, sizeof A->tr->reason, "transpose, as %s", lcl_format_name(A->format));
    return st;
}
LCL__PRIVATE void lcl__scale_host(lcl_dtype dt, int64_t n, double beta, void *y) {
    int64_t i;
    for (i = 0; i < n; i++)
        if (dt == LCL_F32) ((float *)y)[i] = beta == 0 ? 0.0f : (float)beta * ((float *)y)[i];
        else ((double *)y)[i] = beta == 0 ? 0.0 : beta * ((double *)y)[i];
}
/* alpha and beta finite, and in float's range for a float matrix: a non-finite alpha has no one
   answer (Inf * the 0 of an empty row is NaN where the row-sum formats scale the sum, beta y where
   CSC and COO scatter alpha a_ij x_j) */
LCL__PRIVATE lcl_status lcl__spmv_scalars(lcl_context *ctx, const char *fn, lcl_dtype dt, double alpha, double beta) {
    int b;
    for (b = 0; b < 2; b++) {
        double v = b ? beta : alpha;
        if (v != v || v - v != 0)
            return lcl__fail(ctx, LCL_ERR_NAN, "%s: %s is %s; alpha and beta must be finite", fn, b ? "beta" : "alpha", v != v ? "NaN" : "Inf");
        if (dt == LCL_F32 && fabs(v) > FLT_MAX)
            return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s: %s = %g is beyond the range of float, the matrix's precision", fn, b ? "beta" : "alpha", v);
    }
    return LCL_OK;
}
LCL_API lcl_status lcl_spmv(lcl_context *ctx, lcl_trans trans, double alpha, lcl_spmat *A, const void *x, double beta, void *y) {
    int64_t nin, nout;
    lcl_status st;
    if (!A) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv: NULL matrix");
    if (trans != LCL_NO_TRANS && trans != LCL_TRANS) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv: unknown trans %d", (int)trans);
    if ((st = lcl__spmv_scalars(ctx, "lcl_spmv", A->dtype, alpha, beta)) != LCL_OK) return st;
    if ((st = lcl__backend_check(ctx, A->backend, "lcl_spmv", "matrix")) != LCL_OK) return st;
    nin = trans ? A->rows : A->cols;
    nout = trans ? A->cols : A->rows;
    if ((!x && nin > 0) || (!y && nout > 0))
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv: NULL %s (length %lld)", !y && nout > 0 ? "y" : "x",
                         (long long)(!y && nout > 0 ? nout : nin));
    if (nin > 0 && nout > 0) {   /* y is written while x is read: the same memory would be read after it changed */
        const size_t es = lcl__dsize(A->dtype);
        const char *xb = (const char *)x, *yb = (const char *)y;
        if (xb < yb + (size_t)nout * es && yb < xb + (size_t)nin * es)
            return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv: x and y overlap (y = op(A) x needs them apart)");
    }
    if (alpha == 0) { lcl__scale_host(A->dtype, nout, beta, y); return LCL_OK; }
    if (trans && !A->tr && (st = lcl__spmat_transpose(ctx, A)) != LCL_OK) return st;
    return lcl__spmv_run(ctx, trans ? A->tr : A, alpha, x, beta, y);
}

LCL_API lcl_status lcl_vec_create(lcl_context *ctx, lcl_dtype dt, int64_t n, const void *init, lcl_vec **out) {
    lcl_vec *v;
    lcl_status st = LCL_OK;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_vec_create: NULL output");
    *out = NULL;
    if (dt != LCL_F32 && dt != LCL_F64) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_vec_create: unknown dtype %d", (int)dt);
    if (n < 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_vec_create: negative length %lld", (long long)n);
    v = (lcl_vec *)LCL_MALLOC(sizeof *v);
    if (!v) return lcl__oom(ctx, "lcl_vec", sizeof *v);
    memset(v, 0, sizeof *v);
    v->dtype = dt;
    v->n = n;
    v->backend = ctx ? ctx->backend : LCL_BACKEND_SERIAL;
#ifndef LINALG_CL_NO_OPENCL
    if (v->backend == LCL_BACKEND_OPENCL) {
        if ((st = lcl__vec_cl_create(ctx, v, 0, init)) != LCL_OK) { LCL_FREE(v); return st; }
        *out = v;
        return LCL_OK;
    }
#endif
    v->host = lcl__alloc(ctx, "vector", (size_t)n, lcl__dsize(dt), &st);
    if (!v->host) { LCL_FREE(v); return st; }
    if (init) memcpy(v->host, init, (size_t)n * lcl__dsize(dt));
    else memset(v->host, 0, (size_t)n * lcl__dsize(dt));
    *out = v;
    return LCL_OK;
}
/* lcl_vec_write (from src) and lcl_vec_read (src NULL, to dst): the whole vector */
LCL__PRIVATE lcl_status lcl__vec_xfer(lcl_context *ctx, const lcl_vec *v, const void *src, void *dst, const char *fn) {
    lcl_status st;
    if (!v || (!src && !dst && v->n > 0)) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL argument", fn);
    if ((st = lcl__backend_check(ctx, v->backend, fn, "vector")) != LCL_OK) return st;
#ifndef LINALG_CL_NO_OPENCL
    if (v->backend == LCL_BACKEND_OPENCL) return lcl__vec_cl_copy(ctx, v, src, dst);
#endif
    if (v->n > 0) {
        size_t bytes = (size_t)v->n * lcl__dsize(v->dtype);
        if (src) memcpy(v->host, src, bytes);
        else if (dst) memcpy(dst, v->host, bytes);     /* (checked above; some fortified gcc builds warn without it) */
    }
    return LCL_OK;
}
LCL_API lcl_status lcl_vec_write(lcl_context *ctx, lcl_vec *v, const void *src) { return lcl__vec_xfer(ctx, v, src, NULL, "lcl_vec_write"); }
LCL_API lcl_status lcl_vec_read(lcl_context *ctx, const lcl_vec *v, void *dst) { return lcl__vec_xfer(ctx, v, NULL, dst, "lcl_vec_read"); }
LCL_API void lcl_vec_free(lcl_vec *v) {
    if (!v) return;
#ifndef LINALG_CL_NO_OPENCL
    if (v->backend == LCL_BACKEND_OPENCL) lcl__vec_cl_free(v);
#endif
    LCL_FREE(v->host);
    LCL_FREE(v);
}
LCL_API lcl_status lcl_spmv_vec(lcl_context *ctx, lcl_trans trans, double alpha, lcl_spmat *A, const lcl_vec *x, double beta, lcl_vec *y) {
    int64_t nin, nout;
    lcl_status st;
    if (!A || !x || !y) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv_vec: NULL %s", !A ? "matrix" : !x ? "x" : "y");
    if (trans != LCL_NO_TRANS && trans != LCL_TRANS) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv_vec: unknown trans %d", (int)trans);
    if ((st = lcl__spmv_scalars(ctx, "lcl_spmv_vec", A->dtype, alpha, beta)) != LCL_OK) return st;
    if ((st = lcl__backend_check(ctx, A->backend, "lcl_spmv_vec", "matrix")) != LCL_OK) return st;
    if ((st = lcl__backend_check(ctx, x->backend, "lcl_spmv_vec", "vector x")) != LCL_OK) return st;
    if ((st = lcl__backend_check(ctx, y->backend, "lcl_spmv_vec", "vector y")) != LCL_OK) return st;
    if (x->dtype != A->dtype || y->dtype != A->dtype)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv_vec: the matrix is %s, x is %s, y is %s", A->dtype == LCL_F32 ? "float" : "double",
                         x->dtype == LCL_F32 ? "float" : "double", y->dtype == LCL_F32 ? "float" : "double");
    nin = trans ? A->rows : A->cols;
    nout = trans ? A->cols : A->rows;
    if (x->n != nin || y->n != nout)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "lcl_spmv_vec: %s of a %lldx%lld matrix needs x of %lld and y of %lld, got %lld and %lld",
                         trans ? "A^T x" : "A x", (long long)A->rows, (long long)A->cols, (long long)nin, (long long)nout,
                         (long long)x->n, (long long)y->n);
    if (x == y && nin + nout > 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv_vec: x and y are the same vector");
#ifndef LINALG_CL_NO_OPENCL
    if (A->backend == LCL_BACKEND_OPENCL && (x->nparts || y->nparts)) {
        if (trans) return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "lcl_spmv_vec: A^T x on vectors partitioned over devices: use lcl_spmv with host arrays");
        if (!A->halo && A->opts.device < 0 && A->rows == A->cols && A->rows > 1 && ctx->ndev > 1 && (st = lcl__halo_build(ctx, A)) != LCL_OK)
            return st;
        if (!A->halo || !lcl__halo_fits(ctx, A->halo, x, 1) || !lcl__halo_fits(ctx, A->halo, y, 0))
            return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_spmv_vec: %s is partitioned otherwise than the matrix's rows%s: make x and y "
                             "with lcl_vec_create_like(A)", !A->halo || !lcl__halo_fits(ctx, A->halo, x, 1) ? "x" : "y",
                             A->halo ? "" : " (which are not split over devices)");
        return alpha == 0 ? lcl__vec_cl_axpby(ctx, 0.0, y, beta, y) : lcl__halo_spmv(ctx, A, alpha, x, beta, y);
    }
    if (A->backend == LCL_BACKEND_OPENCL) {
        if (trans && !A->tr && (st = lcl__spmat_transpose(ctx, A)) != LCL_OK) return st;
        return lcl__spmv_cl_vec(ctx, alpha, trans ? A->tr : A, x, beta, y);
    }
#endif
    return lcl_spmv(ctx, trans, alpha, A, x->host, beta, y->host);
}

LCL_API lcl_status lcl_vec_create_like(lcl_context *ctx, lcl_spmat *A, const void *init, lcl_vec **out) {
    static const char fn[] = "lcl_vec_create_like";
    lcl_status st;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL output", fn);
    *out = NULL;
    if (!A) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL matrix", fn);
    if ((st = lcl__backend_check(ctx, A->backend, fn, "matrix")) != LCL_OK) return st;
#ifndef LINALG_CL_NO_OPENCL
    if (A->backend == LCL_BACKEND_OPENCL) {
        lcl_vec *v;
        int split = A->opts.device < 0 && ctx->ndev > 1 && A->rows > 1;
        if (split && A->rows != A->cols)
            return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "%s: the %lldx%lld matrix is split over devices with x whole on each; partitioned "
                             "vectors need a square one (x is cut as the rows): use lcl_spmv with host arrays", fn, (long long)A->rows,
                             (long long)A->cols);
        if (split && !A->halo && (st = lcl__halo_build(ctx, A)) != LCL_OK) return st;
        if (!(v = (lcl_vec *)LCL_MALLOC(sizeof *v))) return lcl__oom(ctx, "lcl_vec", sizeof *v);
        memset(v, 0, sizeof *v);
        v->dtype = A->dtype;
        v->n = A->cols;
        v->backend = A->backend;
        st = split ? lcl__vec_parts_create(ctx, v, A->halo, init) : lcl__vec_cl_create(ctx, v, A->opts.device > 0 ? A->opts.device : 0, init);
        if (st != LCL_OK) { LCL_FREE(v); return st; }
        *out = v;
        return LCL_OK;
    }
#endif
    return lcl_vec_create(ctx, A->dtype, A->cols, init, out);
}
/* the checks lcl_vec_axpby and lcl_vec_dot share */
LCL__PRIVATE lcl_status lcl__vec_pair_check(lcl_context *ctx, const char *fn, const lcl_vec *x, const lcl_vec *y) {
    lcl_status st;
    if (!x || !y) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL %s", fn, !x ? "x" : "y");
    if ((st = lcl__backend_check(ctx, x->backend, fn, "vector x")) != LCL_OK) return st;
    if ((st = lcl__backend_check(ctx, y->backend, fn, "vector y")) != LCL_OK) return st;
    if (x->dtype != y->dtype)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: x is %s, y is %s", fn, x->dtype == LCL_F32 ? "float" : "double",
                         y->dtype == LCL_F32 ? "float" : "double");
    if (x->n != y->n) return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: x has %lld elements, y %lld", fn, (long long)x->n, (long long)y->n);
    return LCL_OK;
}
LCL_API lcl_status lcl_vec_axpby(lcl_context *ctx, double alpha, const lcl_vec *x, double beta, lcl_vec *y) {
    int64_t i;
    lcl_status st = lcl__vec_pair_check(ctx, "lcl_vec_axpby", x, y);
    if (st != LCL_OK) return st;
#ifndef LINALG_CL_NO_OPENCL
    if (x->backend == LCL_BACKEND_OPENCL) return lcl__vec_cl_axpby(ctx, alpha, x, beta, y);
#endif
    for (i = 0; i < x->n; i++) {
        double t = (alpha == 0 ? 0.0 : alpha * lcl__val(x->host, x->dtype, i)) + (beta == 0 ? 0.0 : beta * lcl__val(y->host, y->dtype, i));
        lcl__setval(y->host, y->dtype, i, t);
    }
    return LCL_OK;
}
LCL_API lcl_status lcl_vec_dot(lcl_context *ctx, const lcl_vec *x, const lcl_vec *y, double *out) {
    int64_t i;
    double s = 0;
    lcl_status st = lcl__vec_pair_check(ctx, "lcl_vec_dot", x, y);
    if (st != LCL_OK) return st;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_vec_dot: NULL output");
#ifndef LINALG_CL_NO_OPENCL
    if (x->backend == LCL_BACKEND_OPENCL) return lcl__vec_cl_dot(ctx, x, y, out);
#endif
    for (i = 0; i < x->n; i++) s += lcl__val(x->host, x->dtype, i) * lcl__val(y->host, y->dtype, i);
    *out = s;
    return LCL_OK;
}

/* >>rowpart ------------------------------------------------------------------------------------ */
/* lcl_rowpart (see >>api). The parts are contiguous row ranges, so ghosts numbered by ascending
   global column come grouped by owner part, and a row's columns in global order are
   [below r0 | owned | from r1 on]: the local row is that rotated, owned first, with no sort. */
LCL__PRIVATE int64_t lcl__csr_work(const void *a, int64_t r) {     /* nnz + rows: CSR's lcl__sp_work */
    return ((const lcl_csr *)a)->ptr[r] + r;
}
LCL__PRIVATE lcl_status lcl__rowpart_check(lcl_context *ctx, const lcl_csr *A, int nparts, const char *fn) {
    lcl_status st;
    if (nparts < 1) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: %d parts: at least 1", fn, nparts);
    if ((st = lcl__csr_check(ctx, A, fn)) != LCL_OK) return st;
    if (A->rows != A->cols)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: the matrix is %lldx%lld: a row partition needs a square one (x is cut as the rows)", fn,
                         (long long)A->rows, (long long)A->cols);
    if (nparts > A->rows)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: %d parts of a %lld-row matrix: at most one part per row", fn, nparts, (long long)A->rows);
    return LCL_OK;
}
LCL_API lcl_status lcl_rowpart_bounds(lcl_context *ctx, const lcl_csr *A, int nparts, int64_t *bounds) {
    lcl_status st = lcl__rowpart_check(ctx, A, nparts, "lcl_rowpart_bounds");
    if (st != LCL_OK) return st;
    if (!bounds) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_rowpart_bounds: NULL bounds (nparts + 1 entries)");
    lcl__balance(A->rows, nparts, 1, lcl__csr_work, A, bounds);
    return LCL_OK;
}
LCL_API void lcl_rowpart_free(lcl_rowpart *P) {
    if (!P) return;
    lcl_csr_free(&P->local);
    LCL_FREE(P->ghost); LCL_FREE(P->recv_off); LCL_FREE(P->send_off); LCL_FREE(P->send_idx);
    memset(P, 0, sizeof *P);
}
/* the local rows: owned columns renumbered from r0, ghosts through map (global -> local index) */
LCL__PRIVATE void lcl__rowpart_rows(const lcl_csr *A, lcl_rowpart *P, const int32_t *map) {
    size_t es = lcl__dsize(A->dtype);
    int64_t i, k, o = 0, r0 = P->r0, r1 = P->r1;
    P->local.ptr[0] = 0;
    for (i = r0; i < r1; i++) {
        int64_t b = A->ptr[i], e = A->ptr[i + 1], lo = b, hi, s;
        while (lo < e && A->col[lo] < r0) lo++;
        for (hi = lo; hi < e && A->col[hi] < r1; hi++) {}
        for (s = 0; s < 3; s++) {       /* owned [lo, hi), below [b, lo), above [hi, e) */
            int64_t f = s == 0 ? lo : s == 1 ? b : hi, t = s == 0 ? hi : s == 1 ? lo : e;
            for (k = f; k < t; k++, o++) P->local.col[o] = s == 0 ? (int32_t)(A->col[k] - r0) : map[A->col[k]];
            if (t > f) memcpy((char *)P->local.val + (size_t)(o - (t - f)) * es, (const char *)A->val + (size_t)f * es, (size_t)(t - f) * es);
        }
        P->local.ptr[i - r0 + 1] = o;
    }
}
/* what each other part q needs of this part's x: the owned columns q's rows use, counted (fill 0)
   or listed ascending (fill 1); stamp (nloc entries) remembers the last part that used a column */
LCL__PRIVATE void lcl__rowpart_sends(const lcl_csr *A, lcl_rowpart *P, const int64_t *bounds, int32_t *stamp, int fill) {
    int64_t k, j, r0 = P->r0, r1 = P->r1, n = 0;
    int q;
    for (j = 0; j < P->nloc; j++) stamp[j] = -1;
    for (q = 0; q < P->nparts; q++) {
        int64_t c = 0;
        if (q != P->part)
            for (k = A->ptr[bounds[q]]; k < A->ptr[bounds[q + 1]]; k++)
                if (A->col[k] >= r0 && A->col[k] < r1 && stamp[A->col[k] - r0] != q) { stamp[A->col[k] - r0] = q; c++; }
        if (fill && c > 0)
            for (j = 0; j < P->nloc; j++) if (stamp[j] == q) P->send_idx[n++] = (int32_t)j;
        if (!fill) P->send_off[q + 1] = P->send_off[q] + c;
    }
}
LCL_API lcl_status lcl_rowpart_create(lcl_context *ctx, const lcl_csr *A, int nparts, int part, lcl_rowpart *out) {
    static const char fn[] = "lcl_rowpart_create";
    lcl_rowpart P;
    int64_t *bounds = NULL, c, nz;
    int32_t *map = NULL;
    lcl_status st;
    int q;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL output", fn);
    memset(out, 0, sizeof *out);
    if ((st = lcl__rowpart_check(ctx, A, nparts, fn)) != LCL_OK) return st;
    if (part < 0 || part >= nparts) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: part %d outside 0..%d", fn, part, nparts - 1);
    memset(&P, 0, sizeof P);
    P.nparts = nparts;
    P.part = part;
    P.n = A->rows;
    if (!(bounds = (int64_t *)lcl__alloc(ctx, "part bounds", (size_t)nparts + 1, sizeof(int64_t), &st))) return st;
    lcl__balance(A->rows, nparts, 1, lcl__csr_work, A, bounds);
    P.r0 = bounds[part];
    P.r1 = bounds[part + 1];
    P.nloc = P.r1 - P.r0;
    nz = A->ptr[P.r1] - A->ptr[P.r0];
    map = (int32_t *)lcl__alloc(ctx, "ghost map", (size_t)A->cols, sizeof(int32_t), &st);
    P.recv_off = (int64_t *)lcl__alloc(ctx, "receive offsets", (size_t)nparts + 1, sizeof(int64_t), &st);
    P.send_off = (int64_t *)lcl__alloc(ctx, "send offsets", (size_t)nparts + 1, sizeof(int64_t), &st);
    P.local.ptr = (int64_t *)lcl__alloc(ctx, "local row pointers", (size_t)P.nloc + 1, sizeof(int64_t), &st);
    P.local.col = (int32_t *)lcl__alloc(ctx, "local columns", (size_t)nz, sizeof(int32_t), &st);
    P.local.val = lcl__alloc(ctx, "local values", (size_t)nz, lcl__dsize(A->dtype), &st);
    if (!map || !P.recv_off || !P.send_off || !P.local.ptr || !P.local.col || !P.local.val) goto done;
    /* ghosts: mark the outside columns the rows use (0), then number them ascending */
    for (c = 0; c < A->cols; c++) map[c] = -1;
    for (c = A->ptr[P.r0]; c < A->ptr[P.r1]; c++)
        if (A->col[c] < P.r0 || A->col[c] >= P.r1) map[A->col[c]] = 0;
    for (c = 0; c < A->cols; c++)
        if (map[c] == 0) P.nghost++;
    if (!(P.ghost = (int32_t *)lcl__alloc(ctx, "ghost columns", (size_t)P.nghost, sizeof(int32_t), &st))) goto done;
    P.recv_off[0] = 0;
    for (q = 0, c = 0; q < nparts; q++) {       /* c: ghosts numbered so far */
        int64_t g;
        for (g = bounds[q]; g < bounds[q + 1]; g++)
            if (map[g] == 0) { P.ghost[c] = (int32_t)g; map[g] = (int32_t)(P.nloc + c); c++; }
        P.recv_off[q + 1] = c;
    }
    P.local.dtype = A->dtype;
    P.local.rows = P.nloc;
    P.local.cols = P.nloc + P.nghost;
    P.local.nnz = nz;
    lcl__rowpart_rows(A, &P, map);
    /* sends: count per destination, then list (map's first nloc entries serve as the stamps) */
    P.send_off[0] = 0;
    lcl__rowpart_sends(A, &P, bounds, map, 0);
    if (!(P.send_idx = (int32_t *)lcl__alloc(ctx, "send indices", (size_t)P.send_off[nparts], sizeof(int32_t), &st))) goto done;
    lcl__rowpart_sends(A, &P, bounds, map, 1);
    st = LCL_OK;
done:
    LCL_FREE(bounds);
    LCL_FREE(map);
    if (st != LCL_OK) lcl_rowpart_free(&P);
    else *out = P;
    return st;
}

/* >>mpi ---------------------------------------------------------------------------------------- */
/* The MPI helpers (see >>api), compiled only with LINALG_CL_MPI. */
#ifdef LINALG_CL_MPI
LCL__PRIVATE lcl_status lcl__mpi_fail(lcl_context *ctx, int e, const char *call, const char *fn) {
    char msg[MPI_MAX_ERROR_STRING + 1];
    int len = 0;
    if (MPI_Error_string(e, msg, &len) != MPI_SUCCESS) len = 0;
    msg[len] = 0;
    return lcl__fail(ctx, LCL_ERR_INTERNAL, "%s: %s failed: %s", fn, call, len ? msg : "unknown MPI error");
}
LCL__PRIVATE lcl_status lcl__mpi_rank(lcl_context *ctx, MPI_Comm comm, int nparts, int part, const char *fn) {
    int size = 0, rank = 0, e;
    if ((e = MPI_Comm_size(comm, &size)) != MPI_SUCCESS) return lcl__mpi_fail(ctx, e, "MPI_Comm_size", fn);
    if ((e = MPI_Comm_rank(comm, &rank)) != MPI_SUCCESS) return lcl__mpi_fail(ctx, e, "MPI_Comm_rank", fn);
    if (size != nparts || rank != part)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: this is rank %d of %d, the plan is part %d of %d (part p runs on rank p)", fn, rank,
                         size, part, nparts);
    return LCL_OK;
}
LCL_API lcl_status lcl_mpi_halo(lcl_context *ctx, MPI_Comm comm, const lcl_rowpart *P, lcl_dtype dtype, void *x) {
    static const char fn[] = "lcl_mpi_halo";
    MPI_Datatype t;
    MPI_Request *req = NULL;
    char *buf = NULL, *xc = (char *)x;
    size_t es;
    int64_t k;
    int q, nreq = 0, e = MPI_SUCCESS;
    const char *call = NULL;
    lcl_status st;
    if (!P || !x || !P->recv_off || !P->send_off) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL plan or x", fn);
    if (dtype != LCL_F32 && dtype != LCL_F64) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown dtype %d", fn, (int)dtype);
    if ((st = lcl__mpi_rank(ctx, comm, P->nparts, P->part, fn)) != LCL_OK) return st;
    es = lcl__dsize(dtype);
    t = dtype == LCL_F32 ? MPI_FLOAT : MPI_DOUBLE;
    req = (MPI_Request *)lcl__alloc(ctx, "MPI requests", 2 * (size_t)P->nparts, sizeof(MPI_Request), &st);
    buf = (char *)lcl__alloc(ctx, "halo send buffer", (size_t)P->send_off[P->nparts], es, &st);
    if (!req || !buf) goto out;
    for (k = 0; k < P->send_off[P->nparts]; k++) memcpy(buf + (size_t)k * es, xc + (size_t)P->send_idx[k] * es, es);
    for (q = 0; q < P->nparts && e == MPI_SUCCESS; q++) {     /* receives first: the sends find them posted */
        int64_t c = P->recv_off[q + 1] - P->recv_off[q];
        char *at = xc + (size_t)(P->nloc + P->recv_off[q]) * es;
        if (c > 0 && (e = MPI_Irecv(at, (int)c, t, q, LCL_MPI_TAG, comm, &req[nreq])) == MPI_SUCCESS) nreq++;
        if (e != MPI_SUCCESS) call = "MPI_Irecv";
    }
    for (q = 0; q < P->nparts && e == MPI_SUCCESS; q++) {
        int64_t c = P->send_off[q + 1] - P->send_off[q];
        if (c > 0 && (e = MPI_Isend(buf + (size_t)P->send_off[q] * es, (int)c, t, q, LCL_MPI_TAG, comm, &req[nreq])) == MPI_SUCCESS) nreq++;
        if (e != MPI_SUCCESS) call = "MPI_Isend";
    }
    {   /* what was posted completes before the buffers go, even after a failure */
        int w = MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
        if (e == MPI_SUCCESS && w != MPI_SUCCESS) { e = w; call = "MPI_Waitall"; }
    }
    if (e != MPI_SUCCESS) st = lcl__mpi_fail(ctx, e, call, fn);
out:
    LCL_FREE(req);
    LCL_FREE(buf);
    return st;
}
LCL_API lcl_status lcl_mpi_dot(lcl_context *ctx, MPI_Comm comm, lcl_dtype dtype, int64_t n, const void *x, const void *y,
                               double *out) {
    double s = 0;
    int64_t k;
    int e;
    if (!out || n < 0 || (n > 0 && (!x || !y)) || (dtype != LCL_F32 && dtype != LCL_F64))
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_mpi_dot: NULL argument, negative length or unknown dtype");
    if (dtype == LCL_F32) for (k = 0; k < n; k++) s += (double)((const float *)x)[k] * (double)((const float *)y)[k];
    else for (k = 0; k < n; k++) s += ((const double *)x)[k] * ((const double *)y)[k];
    if ((e = MPI_Allreduce(&s, out, 1, MPI_DOUBLE, MPI_SUM, comm)) != MPI_SUCCESS) return lcl__mpi_fail(ctx, e, "MPI_Allreduce", "lcl_mpi_dot");
    return LCL_OK;
}
#endif /* LINALG_CL_MPI */

/* >>mmio --------------------------------------------------------------------------------------- */
/* Text source: a file read in large blocks, or caller memory. Lines are [b, e) ranges, so NUL
   bytes and missing final newlines need no special case. */
typedef struct lcl__src {
    FILE *f;
    const char *name;           /* for messages */
    const char *buf;
    char *own;
    size_t len, pos, cap;
    int eof, ioerr, err;        /* err: errno of a read error (EISDIR: a directory) */
    int64_t line;               /* number of the line last returned */
    uint64_t size, consumed;    /* size 0 = unknown */
} lcl__src;

LCL__PRIVATE int lcl__src_line(lcl__src *s, const char **b, const char **e) {
    for (;;) {
        const char *nl = s->pos < s->len ? (const char *)memchr(s->buf + s->pos, '\n', s->len - s->pos) : NULL;
        if (nl || (s->eof && s->pos < s->len)) {
            const char *start = s->buf + s->pos, *end = nl ? nl : s->buf + s->len;
            size_t used = (size_t)(end - start) + (nl ? 1 : 0);
            s->pos += used;
            s->consumed += used;
            if (end > start && end[-1] == '\r') end--;
            s->line++;
            *b = start;
            *e = end;
            return 1;
        }
        if (s->eof || !s->f) { s->eof = 1; return 0; }
        /* refill: keep the partial line, grow when one line fills the buffer */
        if (s->pos > 0) {
            memmove(s->own, s->own + s->pos, s->len - s->pos);
            s->len -= s->pos;
            s->pos = 0;
        }
        if (s->len == s->cap) {
            size_t nc = s->cap * 2;
            char *nb = (char *)LCL_REALLOC(s->own, nc);
            if (!nb) { s->ioerr = 2; s->eof = 1; return 0; }
            s->own = nb;
            s->cap = nc;
        }
        s->buf = s->own;
        {
            size_t got = fread(s->own + s->len, 1, s->cap - s->len, s->f);
            s->len += got;
            if (got == 0) {
                if (ferror(s->f)) s->ioerr = 1, s->err = errno;
                s->eof = 1;
            }
        }
    }
}
LCL__PRIVATE int lcl__isws(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
LCL__PRIVATE const char *lcl__skipws(const char *p, const char *e) { while (p < e && lcl__isws((unsigned char)*p)) p++; return p; }
LCL__PRIVATE int lcl__blank_or_comment(const char *b, const char *e) { b = lcl__skipws(b, e); return b == e || *b == '%'; }

/* 0 ok, 1 not an integer, 2 out of int64 range */
LCL__PRIVATE int lcl__parse_i64(const char **pp, const char *e, int64_t *out) {
    const char *p = *pp;
    int neg = 0;
    uint64_t v = 0;
    if (p < e && (*p == '+' || *p == '-')) neg = *p++ == '-';
    if (p == e || *p < '0' || *p > '9') return 1;
    while (p < e && *p >= '0' && *p <= '9') {
        unsigned d = (unsigned)(*p++ - '0');
        if (v > (UINT64_MAX - d) / 10) { while (p < e && *p >= '0' && *p <= '9') p++; *pp = p; return 2; }
        v = v * 10 + d;
    }
    if (p < e && !lcl__isws((unsigned char)*p)) return 1;
    if (v > (uint64_t)INT64_MAX + (neg ? 1u : 0u)) { *pp = p; return 2; }
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    *pp = p;
    return 0;
}

/* Decimal to double. Exact fast path (Clinger: <= 19 digits, mantissa < 2^53, |exp| <= 22),
   else the C library's strtod on a copy with the locale's decimal point, so the result is always
   correctly rounded whatever setlocale() the application made. 0 ok, 1 not a number. */
LCL__PRIVATE int lcl__parse_f64(const char **pp, const char *e, double *out) {
    static const double p10[23] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                   1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = *pp, *start = p;
    int neg = 0, any = 0, trunc = 0, nd = 0;
    uint64_t mant = 0;
    int64_t ex = 0;
    if (p < e && (*p == '+' || *p == '-')) neg = *p++ == '-';
    if (p < e && (lcl__lower((unsigned char)*p) == 'n' || lcl__lower((unsigned char)*p) == 'i')) {
        static const char *const words[3] = {"nan", "infinity", "inf"};
        int w;
        for (w = 0; w < 3; w++) {
            size_t L = strlen(words[w]), i;
            if ((size_t)(e - p) < L) continue;
            for (i = 0; i < L && lcl__lower((unsigned char)p[i]) == words[w][i]; i++) {}
            if (i == L && (p + L == e || lcl__isws((unsigned char)p[L]))) {
                *out = w == 0 ? NAN : (neg ? -HUGE_VAL : HUGE_VAL);
                *pp = p + L;
                return 0;
            }
        }
        return 1;
    }
    while (p < e && *p >= '0' && *p <= '9') {
        unsigned d = (unsigned)(*p++ - '0');
        any = 1;
        if (mant || d) {
            if (nd < 19) { mant = mant * 10 + d; nd++; }
            else { ex++; if (d) trunc = 1; }
        }
    }
    if (p < e && *p == '.') {
        p++;
        while (p < e && *p >= '0' && *p <= '9') {
            unsigned d = (unsigned)(*p++ - '0');
            any = 1;
            if (mant || d) {
                if (nd < 19) { mant = mant * 10 + d; nd++; ex--; }
                else if (d) trunc = 1;
            } else ex--;
        }
    }
    if (!any) return 1;
    if (p < e && (*p == 'e' || *p == 'E')) {
        int eneg = 0;
        int64_t ev = 0;
        p++;
        if (p < e && (*p == '+' || *p == '-')) eneg = *p++ == '-';
        if (p == e || *p < '0' || *p > '9') return 1;
        while (p < e && *p >= '0' && *p <= '9') { if (ev < 100000) ev = ev * 10 + (*p - '0'); p++; }
        ex += eneg ? -ev : ev;
    }
    if (p < e && !lcl__isws((unsigned char)*p)) return 1;
    *pp = p;
    if (mant == 0) { *out = neg ? -0.0 : 0.0; return 0; }
    if (!trunc && mant <= ((uint64_t)1 << 53) && ex >= -22 && ex <= 22) {
        double v = (double)mant;
        v = ex < 0 ? v / p10[-ex] : v * p10[ex];
        *out = neg ? -v : v;
        return 0;
    }
    {
        char tmp[512], *buf = tmp;
        size_t n = (size_t)(p - start), i, j = 0, dl;
        const char *dp;
        if (!trunc) {   /* every digit is in mant: mant e ex is the exact value, in any token length */
            snprintf(tmp, sizeof tmp, "%s%llue%lld", neg ? "-" : "", (unsigned long long)mant, (long long)ex);
            *out = strtod(tmp, NULL);
            return 0;
        }
        dp = localeconv()->decimal_point;   /* (only a copy of the token needs the locale's point) */
        if (!dp || !dp[0]) dp = ".";
        dl = strlen(dp);
        if (n + dl >= sizeof tmp && !(buf = (char *)LCL_MALLOC(n + dl + 1))) return 1;   /* a token of 512 characters and more */
        for (i = 0; i < n; i++) {
            if (start[i] == '.') { memcpy(buf + j, dp, dl); j += dl; }
            else buf[j++] = start[i];
        }
        buf[j] = 0;
        *out = strtod(buf, NULL);
        if (buf != tmp) LCL_FREE(buf);
        return 0;
    }
}

LCL_API int lcl_format_double(char *buf, size_t cap, double v) {
    char tmp[64];
    int prec, n = 0;
    if (!buf || cap == 0) return -1;
    if (v != v) n = snprintf(tmp, sizeof tmp, "nan");
    else if (v == HUGE_VAL || v == -HUGE_VAL) n = snprintf(tmp, sizeof tmp, "%sinf", v < 0 ? "-" : "");
    else if (v == 0) n = snprintf(tmp, sizeof tmp, "%s", signbit(v) ? "-0" : "0");
    else {
        const char *dp = localeconv()->decimal_point;
        /* %.15g that reads back is already shortest for normal numbers; subnormals have fewer
           significant bits, so they search from 1 digit */
        for (prec = fabs(v) < DBL_MIN ? 1 : 15; prec <= 17; prec++) {
            const char *q;
            double back = 0;
            char *c;
            n = snprintf(tmp, sizeof tmp, "%.*g", prec, v);
            if (dp && dp[0] && (dp[0] != '.' || dp[1])) {   /* a locale's "," back to "." */
                c = strstr(tmp, dp);
                if (c) {
                    size_t dl = strlen(dp);
                    *c = '.';
                    memmove(c + 1, c + dl, strlen(c + dl) + 1);
                    n = (int)strlen(tmp);
                }
            }
            q = tmp;
            if (prec == 17 || (lcl__parse_f64(&q, tmp + n, &back) == 0 && back == v)) break;
        }
    }
    if (n < 0 || (size_t)n >= cap) { buf[0] = 0; return -1; }
    memcpy(buf, tmp, (size_t)n + 1);
    return n;
}

static const char *const lcl__mm_formats[2] = {"coordinate", "array"};
static const char *const lcl__mm_fields[4] = {"real", "integer", "pattern", "complex"};
static const char *const lcl__mm_syms[4] = {"general", "symmetric", "skew-symmetric", "hermitian"};

/* the next token of [*p, e) into out (lowercased, truncated) */
LCL__PRIVATE int lcl__word(const char **p, const char *e, char *out, size_t cap) {
    size_t n = 0;
    const char *q = lcl__skipws(*p, e);
    if (q == e) return 0;
    while (q < e && !lcl__isws((unsigned char)*q)) {
        if (n + 1 < cap) out[n++] = (char)lcl__lower((unsigned char)*q);
        q++;
    }
    out[n] = 0;
    *p = q;
    return 1;
}

LCL__PRIVATE lcl_status lcl__mm_header(lcl_context *ctx, lcl__src *s, lcl_mm_info *info) {
    const char *b, *e, *p;
    char w[5][64];
    int i, k;
    int64_t sz[3];
    memset(info, 0, sizeof *info);
    if (!lcl__src_line(s, &b, &e)) {
        if (s->ioerr) return lcl__fail(ctx, LCL_ERR_IO, "%s: read error: %s", s->name, s->err ? strerror(s->err) : "out of memory");
        return lcl__fail(ctx, LCL_ERR_PARSE, "%s:1: empty file: no %%%%MatrixMarket banner", s->name);
    }
    p = b;
    if (e - b >= 3 && !memcmp(b, "\xef\xbb\xbf", 3)) p += 3;   /* a UTF-8 byte order mark, as some editors save */
    for (i = 0; i < 5 && lcl__word(&p, e, w[i], sizeof w[i]); i++) {}
    if (i == 0 || strcmp(w[0], "%%matrixmarket") != 0)
        return lcl__fail(ctx, LCL_ERR_PARSE, "%s:1: not a Matrix Market file: the banner must start with %%%%MatrixMarket%s", s->name,
                         e - b >= 2 && (unsigned char)b[0] == 0x1f && (unsigned char)b[1] == 0x8b ? " (this is gzip data: gunzip it first)" : "");
    if (i < 5 || lcl__skipws(p, e) != e)
        return lcl__fail(ctx, LCL_ERR_PARSE, "%s:1: banner needs 4 words after %%%%MatrixMarket: matrix FORMAT FIELD SYMMETRY", s->name);
    if (strcmp(w[1], "matrix") != 0)
        return lcl__fail(ctx, LCL_ERR_PARSE, "%s:1: banner object '%s' is not 'matrix'", s->name, w[1]);
    for (k = 0; k < 2 && strcmp(w[2], lcl__mm_formats[k]); k++) {}
    if (k == 2) return lcl__fail(ctx, LCL_ERR_PARSE, "%s:1: banner format '%s' is not coordinate or array", s->name, w[2]);
    info->format = (lcl_mm_format)k;
    for (k = 0; k < 4 && strcmp(w[3], lcl__mm_fields[k]); k++) {}
    if (k == 4 && strcmp(w[3], "double") == 0) k = 0;
    if (k == 4) return lcl__fail(ctx, LCL_ERR_PARSE, "%s:1: banner field '%s' is not real, integer, pattern or complex", s->name, w[3]);
    info->field = (lcl_mm_field)k;
    for (k = 0; k < 4 && strcmp(w[4], lcl__mm_syms[k]); k++) {}
    if (k == 4) return lcl__fail(ctx, LCL_ERR_PARSE, "%s:1: banner symmetry '%s' is not general, symmetric, skew-symmetric or hermitian", s->name, w[4]);
    info->symmetry = (lcl_mm_symmetry)k;
    if (info->field == LCL_MM_COMPLEX) return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "%s:1: complex matrices are not supported", s->name);
    if (info->symmetry == LCL_MM_HERMITIAN) return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "%s:1: hermitian symmetry is not supported (real matrices only)", s->name);
    if (info->field == LCL_MM_PATTERN && info->format == LCL_MM_ARRAY)
        return lcl__fail(ctx, LCL_ERR_PARSE, "%s:1: 'pattern' is not allowed with 'array'", s->name);
    if (info->field == LCL_MM_PATTERN && info->symmetry == LCL_MM_SKEW_SYMMETRIC)
        return lcl__fail(ctx, LCL_ERR_PARSE, "%s:1: 'pattern' is not allowed with 'skew-symmetric'", s->name);
    do {
        if (!lcl__src_line(s, &b, &e)) {
            if (s->ioerr) return lcl__fail(ctx, LCL_ERR_IO, "%s: read error: %s", s->name, s->err ? strerror(s->err) : "out of memory");
            return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: missing size line", s->name, (long long)s->line + 1);
        }
    } while (lcl__blank_or_comment(b, e));
    p = b;
    k = info->format == LCL_MM_COORDINATE ? 3 : 2;
    for (i = 0; i < k; i++) {
        int r;
        p = lcl__skipws(p, e);
        r = lcl__parse_i64(&p, e, &sz[i]);
        if (r == 2) return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s:%lld: size line: number too large", s->name, (long long)s->line);
        if (r) return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: size line must be '%s'", s->name, (long long)s->line,
                                k == 3 ? "ROWS COLS ENTRIES" : "ROWS COLS");
        if (sz[i] < 0) return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: size line: negative size %lld", s->name, (long long)s->line, (long long)sz[i]);
    }
    if (lcl__skipws(p, e) != e)
        return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: size line has extra text: expected '%s'", s->name, (long long)s->line,
                         k == 3 ? "ROWS COLS ENTRIES" : "ROWS COLS");
    if (sz[0] > INT32_MAX || sz[1] > INT32_MAX)
        return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s:%lld: size %lldx%lld exceeds 2^31-1 rows or columns", s->name, (long long)s->line,
                         (long long)sz[0], (long long)sz[1]);
    info->rows = sz[0];
    info->cols = sz[1];
    if (info->symmetry != LCL_MM_GENERAL && sz[0] != sz[1])
        return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: a %s matrix must be square, got %lldx%lld", s->name, (long long)s->line,
                         lcl__mm_syms[info->symmetry], (long long)sz[0], (long long)sz[1]);
    if (info->format == LCL_MM_COORDINATE) info->entries = sz[2];
    else if (info->symmetry == LCL_MM_GENERAL) {
        if (!lcl__mul_i64(sz[0], sz[1], &info->entries))
            return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s:%lld: %lldx%lld entries overflow", s->name, (long long)s->line, (long long)sz[0], (long long)sz[1]);
    } else {
        int64_t n = sz[0];
        info->entries = info->symmetry == LCL_MM_SYMMETRIC ? n * (n + 1) / 2 : (n > 0 ? n * (n - 1) / 2 : 0);
    }
    return LCL_OK;
}

LCL__PRIVATE lcl_status lcl__src_open(lcl_context *ctx, lcl__src *s, const char *path) {
    memset(s, 0, sizeof *s);
    s->name = path;
    if (!path) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "NULL path");
    s->f = fopen(path, "rb");
    if (!s->f) return lcl__fail(ctx, LCL_ERR_IO, "%s: cannot open: %s", path, strerror(errno));
    if (fseek(s->f, 0, SEEK_END) == 0) {
        long sz = ftell(s->f);
        if (sz > 0) s->size = (uint64_t)sz;
        rewind(s->f);
    }
    s->cap = (size_t)1 << 22;
    s->own = (char *)LCL_MALLOC(s->cap);
    if (!s->own) { fclose(s->f); s->f = NULL; return lcl__oom(ctx, "read buffer", s->cap); }
    s->buf = s->own;
    return LCL_OK;
}
LCL__PRIVATE void lcl__src_close(lcl__src *s) {
    if (s->f) fclose(s->f);
    LCL_FREE(s->own);
    memset(s, 0, sizeof *s);
}

/* Parse the entries after the header into a COO (always) or a dense matrix (when den != NULL). */
LCL__PRIVATE lcl_status lcl__mm_body(lcl_context *ctx, lcl__src *s, const lcl_mm_info *info, lcl_dtype dt, int flags,
                                     lcl_coo *coo, lcl_dense *den) {
    const char *b, *e, *p;
    int64_t count = 0, i = 0, j = 0, ai = info->symmetry == LCL_MM_SKEW_SYMMETRIC ? 1 : 0, aj = 0;
    int dry = 0;    /* parse on without storing: the file cannot hold what it declares */
    int64_t ovf = -1;   /* dense: first line whose duplicate sum left the finite range */
    int expand = (flags & LCL_MM_EXPAND) && info->symmetry != LCL_MM_GENERAL;
    int coord = info->format == LCL_MM_COORDINATE;
    int sym = info->symmetry;
    double v = 1.0;
    lcl_status st = LCL_OK;
    if (!den) {
        /* capacity: never more than the bytes left can hold, so a huge declared count with few
           lines allocates little (each entry takes at least 4 bytes coordinate, 2 array) */
        int64_t want = info->entries, room;
        if (s->size) {
            room = (int64_t)((s->size - s->consumed) / (coord ? 4 : 2) + 1);
        } else if (!s->f) {
            room = (int64_t)((s->len - s->pos) / (coord ? 4 : 2) + 1);
        } else room = 1 << 20;
        if (want > room) want = room;
        if (expand && want <= INT64_MAX / 2) want *= 2;
        if ((st = lcl_coo_alloc(ctx, coo, dt, info->rows, info->cols, want)) != LCL_OK) return st;
    } else {
        /* an array file too short for its declared size fails at its end, without the allocation */
        if (info->format == LCL_MM_ARRAY && s->size && (uint64_t)info->entries > (s->size - s->consumed) / 2 + 1) dry = 1;
        else if ((st = lcl_dense_alloc(ctx, den, dt, den->layout, info->rows, info->cols)) != LCL_OK) return st;
    }
    while (lcl__src_line(s, &b, &e)) {
        if (lcl__blank_or_comment(b, e)) continue;
        if (count == info->entries)
            return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: more entries than the %lld declared on the size line", s->name,
                             (long long)s->line, (long long)info->entries);
        p = lcl__skipws(b, e);
        if (coord) {
            int r = lcl__parse_i64(&p, e, &i);
            if (r == 0) { p = lcl__skipws(p, e); r = lcl__parse_i64(&p, e, &j); }
            if (r == 2) return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: index out of range (too large)", s->name, (long long)s->line);
            if (r) return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: expected 'ROW COL%s' with integer indices", s->name,
                                    (long long)s->line, info->field == LCL_MM_PATTERN ? "" : " VALUE");
            if (i < 1 || i > info->rows)
                return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: row index %lld out of range 1..%lld", s->name, (long long)s->line,
                                 (long long)i, (long long)info->rows);
            if (j < 1 || j > info->cols)
                return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: column index %lld out of range 1..%lld", s->name, (long long)s->line,
                                 (long long)j, (long long)info->cols);
            i--, j--;
            if (sym == LCL_MM_SYMMETRIC && i < j)
                return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: entry (%lld,%lld) in the upper triangle of a symmetric file (only the lower is stored)",
                                 s->name, (long long)s->line, (long long)i + 1, (long long)j + 1);
            if (sym == LCL_MM_SKEW_SYMMETRIC && i <= j)
                return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: entry (%lld,%lld) %s of a skew-symmetric file (only the strict lower triangle is stored)",
                                 s->name, (long long)s->line, (long long)i + 1, (long long)j + 1, i == j ? "on the diagonal" : "in the upper triangle");
        } else {
            i = ai;
            j = aj;
        }
        p = lcl__skipws(p, e);
        if (info->field == LCL_MM_PATTERN) {
            v = 1.0;
            if (p != e) return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: unexpected text after the indices of a pattern entry", s->name, (long long)s->line);
        } else {
            if (p == e) return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: missing value", s->name, (long long)s->line);
            if (info->field == LCL_MM_INTEGER) {
                int64_t iv;
                int r = lcl__parse_i64(&p, e, &iv);
                if (r == 2) return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s:%lld: integer value out of 64-bit range", s->name, (long long)s->line);
                if (r) return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: value is not an integer (the field is 'integer')", s->name, (long long)s->line);
                v = (double)iv;
            } else {
                const char *t0 = p, *d0 = p + (*p == '+' || *p == '-');
                if (lcl__parse_f64(&p, e, &v))
                    return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: value is not a number", s->name, (long long)s->line);
                if (v - v != 0 && v == v && (*d0 == '.' || (*d0 >= '0' && *d0 <= '9')))   /* digits, not "inf": overflowed */
                    return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s:%lld: value %.*s exceeds double precision range", s->name, (long long)s->line,
                                     (int)LCL__MIN(p - t0, 40), t0);
            }
            if (lcl__skipws(p, e) != e)
                return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: unexpected extra text after the value", s->name, (long long)s->line);
            if (!(v - v == 0)) return lcl__fail(ctx, LCL_ERR_NAN, "%s:%lld: value is NaN or Inf (not accepted)", s->name, (long long)s->line);
            if (dt == LCL_F32 && fabs(v) > FLT_MAX)
                return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s:%lld: value %g exceeds single precision range", s->name, (long long)s->line, v);
        }
        if (!coord) {
            /* column-major walk of the stored part */
            ai++;
            if (ai >= info->rows) { aj++; ai = sym == LCL_MM_GENERAL ? 0 : sym == LCL_MM_SYMMETRIC ? aj : aj + 1; }
        }
        count++;
        if (den) {
            /* array entries are assigned (keeps -0); coordinate duplicates are summed */
            size_t o = lcl__dense_off(den, i, j);
            double w = sym == LCL_MM_SKEW_SYMMETRIC ? -v : v;
            if (dry) continue;
            if (dt == LCL_F32) ((float *)den->data)[o] = coord ? ((float *)den->data)[o] + (float)v : (float)v;
            else ((double *)den->data)[o] = coord ? ((double *)den->data)[o] + v : v;
            if (ovf < 0 && !(lcl_dense_get(den, i, j) - lcl_dense_get(den, i, j) == 0)) ovf = s->line;
            if (expand && i != j) {
                o = lcl__dense_off(den, j, i);
                if (dt == LCL_F32) ((float *)den->data)[o] = coord ? ((float *)den->data)[o] + (float)w : (float)w;
                else ((double *)den->data)[o] = coord ? ((double *)den->data)[o] + w : w;
            }
        } else {
            if (coo->nnz + 2 > coo->cap && (st = lcl__coo_reserve(ctx, coo, coo->nnz + 2)) != LCL_OK) return st;
            coo->row[coo->nnz] = (int32_t)i;
            coo->col[coo->nnz] = (int32_t)j;
            if (dt == LCL_F32) ((float *)coo->val)[coo->nnz] = (float)v;
            else ((double *)coo->val)[coo->nnz] = v;
            coo->nnz++;
            if (expand && i != j) {
                coo->row[coo->nnz] = (int32_t)j;
                coo->col[coo->nnz] = (int32_t)i;
                v = sym == LCL_MM_SKEW_SYMMETRIC ? -v : v;
                if (dt == LCL_F32) ((float *)coo->val)[coo->nnz] = (float)v;
                else ((double *)coo->val)[coo->nnz] = v;
                coo->nnz++;
            }
        }
    }
    if (s->ioerr == 1) return lcl__fail(ctx, LCL_ERR_IO, "%s:%lld: read error: %s", s->name, (long long)s->line + 1, strerror(s->err));
    if (s->ioerr == 2) return lcl__oom(ctx, "a line longer than memory allows", s->cap * 2);
    if (count < info->entries)
        return lcl__fail(ctx, LCL_ERR_PARSE, "%s:%lld: expected %lld entries, found %lld (file truncated?)", s->name,
                         (long long)s->line + 1, (long long)info->entries, (long long)count);
    /* finite entries whose duplicates sum to Inf or NaN: refused as the entries themselves would be */
    if (den && ovf >= 0)
        return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s:%lld: duplicate entries sum beyond the %s precision range", s->name,
                         (long long)ovf, dt == LCL_F32 ? "single" : "double");
    if (den) return LCL_OK;
    if ((st = lcl_coo_canonicalize(ctx, coo)) != LCL_OK) return st;
    for (count = 0; count < coo->nnz; count++) {
        v = lcl__val(coo->val, dt, count);
        if (!(v - v == 0))
            return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s: duplicate entries at (%lld,%lld) sum beyond the %s precision range",
                             s->name, (long long)coo->row[count] + 1, (long long)coo->col[count] + 1, dt == LCL_F32 ? "single" : "double");
    }
    return LCL_OK;
}

LCL__PRIVATE lcl_status lcl__mm_read(lcl_context *ctx, lcl__src *s, lcl_dtype dt, int flags, lcl_coo *coo, lcl_dense *den,
                                     lcl_mm_info *info_out) {
    lcl_mm_info info;
    lcl_status st;
    if (dt != LCL_F32 && dt != LCL_F64) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "unknown dtype %d", (int)dt);
    if (flags & ~LCL_MM_EXPAND) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "unknown Matrix Market flags 0x%x", (unsigned)flags);
    st = lcl__mm_header(ctx, s, &info);
    if (st == LCL_OK) st = lcl__mm_body(ctx, s, &info, dt, flags, coo, den);
    if (st != LCL_OK) {
        if (den) lcl_dense_free(den);
        else lcl_coo_free(coo);
    }
    if (info_out) *info_out = info;
    return st;
}

LCL_API lcl_status lcl_mm_read(lcl_context *ctx, const char *path, lcl_dtype dt, int flags, lcl_coo *out, lcl_mm_info *info) {
    lcl__src s;
    lcl_status st;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_mm_read: NULL output");
    memset(out, 0, sizeof *out);
    if ((st = lcl__src_open(ctx, &s, path)) != LCL_OK) return st;
    st = lcl__mm_read(ctx, &s, dt, flags, out, NULL, info);
    lcl__src_close(&s);
    return st;
}
LCL_API lcl_status lcl_mm_read_mem(lcl_context *ctx, const char *text, size_t len, lcl_dtype dt, int flags, lcl_coo *out,
                                   lcl_mm_info *info) {
    lcl__src s;
    if (!out || (!text && len)) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_mm_read_mem: NULL argument");
    memset(out, 0, sizeof *out);
    memset(&s, 0, sizeof s);
    s.name = "<memory>";
    s.buf = text ? text : "";
    s.len = len;
    s.eof = 1;
    return lcl__mm_read(ctx, &s, dt, flags, out, NULL, info);
}
LCL_API lcl_status lcl_mm_read_dense(lcl_context *ctx, const char *path, lcl_dtype dt, lcl_layout layout, int flags,
                                     lcl_dense *out, lcl_mm_info *info) {
    lcl__src s;
    lcl_status st;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_mm_read_dense: NULL output");
    memset(out, 0, sizeof *out);
    if (layout != LCL_ROW_MAJOR && layout != LCL_COL_MAJOR) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_mm_read_dense: unknown layout");
    out->layout = layout;
    if ((st = lcl__src_open(ctx, &s, path)) != LCL_OK) return st;
    st = lcl__mm_read(ctx, &s, dt, flags, NULL, out, info);
    lcl__src_close(&s);
    return st;
}
LCL_API lcl_status lcl_mm_read_info(lcl_context *ctx, const char *path, lcl_mm_info *info) {
    lcl__src s;
    lcl_status st;
    if (!info) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_mm_read_info: NULL info");
    if ((st = lcl__src_open(ctx, &s, path)) != LCL_OK) return st;
    st = lcl__mm_header(ctx, &s, info);
    lcl__src_close(&s);
    return st;
}

/* writer */
struct lcl_mm_writer {
    lcl_context *ctx;
    FILE *f;
    char *path;
    int was;                    /* the path before open (lcl__path_kind): what a failed write may undo */
    lcl_mm_format format;
    lcl_mm_symmetry symmetry;
    int64_t rows, cols, entries, count, ai, aj;
    lcl_status st;
};

/* 0: nothing there; 1: a regular file (or a link to one); 2: anything else (a device, a pipe) */
LCL__PRIVATE int lcl__path_kind(const char *path) {
    struct stat sb;
    if (stat(path, &sb) != 0) return 0;
#ifdef S_ISREG
    return S_ISREG(sb.st_mode) ? 1 : 2;
#else   /* MSVC */
    return (sb.st_mode & _S_IFMT) == _S_IFREG ? 1 : 2;
#endif
}
LCL__PRIVATE char *lcl__utoa(char *p, uint64_t v) {
    char t[24];
    int n = 0;
    do { t[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    while (n) *p++ = t[--n];
    return p;
}

LCL_API lcl_status lcl_mm_writer_open(lcl_context *ctx, const char *path, lcl_mm_format format, lcl_mm_symmetry symmetry,
                                      int64_t rows, int64_t cols, int64_t entries, const char *comment, lcl_mm_writer **out) {
    lcl_mm_writer *w;
    if (!out || !path) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_mm_writer_open: NULL argument");
    *out = NULL;
    if ((int)format < 0 || (int)format > 1 || (int)symmetry < 0 || (int)symmetry > 2)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_mm_writer_open: unsupported format or symmetry");
    if (rows < 0 || cols < 0 || entries < 0 || rows > INT32_MAX || cols > INT32_MAX)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_mm_writer_open: bad sizes %lldx%lld, %lld entries", (long long)rows,
                         (long long)cols, (long long)entries);
    if (symmetry != LCL_MM_GENERAL && rows != cols)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "lcl_mm_writer_open: a %s matrix must be square", lcl__mm_syms[symmetry]);
    if (format == LCL_MM_ARRAY) {
        int64_t n = rows, want;
        if (symmetry == LCL_MM_GENERAL) { if (!lcl__mul_i64(rows, cols, &want)) want = -1; }
        else want = symmetry == LCL_MM_SYMMETRIC ? n * (n + 1) / 2 : (n ? n * (n - 1) / 2 : 0);
        if (entries != want) return lcl__fail(ctx, LCL_ERR_DIMENSION, "lcl_mm_writer_open: an array file of this shape has %lld entries, not %lld", (long long)want, (long long)entries);
    }
    w = (lcl_mm_writer *)LCL_MALLOC(sizeof *w);
    if (!w) return lcl__oom(ctx, "writer", sizeof *w);
    memset(w, 0, sizeof *w);
    w->ctx = ctx;
    w->path = lcl__strdup(path);
    if (!w->path) { LCL_FREE(w); return lcl__oom(ctx, "path", strlen(path)); }
    w->was = lcl__path_kind(path);
    w->f = fopen(path, "wb");
    if (!w->f) {
        lcl_status st = lcl__fail(ctx, LCL_ERR_IO, "%s: cannot create: %s", path, strerror(errno));
        LCL_FREE(w->path);
        LCL_FREE(w);
        return st;
    }
    setvbuf(w->f, NULL, _IOFBF, (size_t)1 << 20);
    w->format = format;
    w->symmetry = symmetry;
    w->rows = rows;
    w->cols = cols;
    w->entries = entries;
    w->ai = symmetry == LCL_MM_SKEW_SYMMETRIC ? 1 : 0;
    fprintf(w->f, "%%%%MatrixMarket matrix %s real %s\n", lcl__mm_formats[format], lcl__mm_syms[symmetry]);
    if (comment) {
        const char *c = comment;
        while (*c) {
            const char *nl = strchr(c, '\n');
            size_t n = nl ? (size_t)(nl - c) : strlen(c);
            fprintf(w->f, "%% %.*s\n", (int)n, c);
            c += n + (nl ? 1 : 0);
        }
    }
    if (format == LCL_MM_COORDINATE) fprintf(w->f, "%lld %lld %lld\n", (long long)rows, (long long)cols, (long long)entries);
    else fprintf(w->f, "%lld %lld\n", (long long)rows, (long long)cols);
    *out = w;
    return LCL_OK;
}

LCL_API lcl_status lcl_mm_writer_put(lcl_mm_writer *w, int64_t i, int64_t j, double v) {
    char line[96], *p = line;
    int n;
    if (!w) return LCL_ERR_INVALID_ARGUMENT;
    if (w->st != LCL_OK) return w->st;
    if (w->count >= w->entries)
        return w->st = lcl__fail(w->ctx, LCL_ERR_DIMENSION, "%s: more entries than the %lld declared", w->path, (long long)w->entries);
    if (!(v - v == 0)) return w->st = lcl__fail(w->ctx, LCL_ERR_NAN, "%s: entry %lld is NaN or Inf", w->path, (long long)w->count + 1);
    if (w->format == LCL_MM_COORDINATE) {
        if (i < 0 || j < 0 || i >= w->rows || j >= w->cols)
            return w->st = lcl__fail(w->ctx, LCL_ERR_DIMENSION, "%s: entry (%lld,%lld) outside the %lldx%lld matrix", w->path,
                                     (long long)i, (long long)j, (long long)w->rows, (long long)w->cols);
        if ((w->symmetry == LCL_MM_SYMMETRIC && i < j) || (w->symmetry == LCL_MM_SKEW_SYMMETRIC && i <= j))
            return w->st = lcl__fail(w->ctx, LCL_ERR_DIMENSION, "%s: entry (%lld,%lld) is not in the stored lower triangle", w->path,
                                     (long long)i, (long long)j);
        p = lcl__utoa(p, (uint64_t)i + 1);
        *p++ = ' ';
        p = lcl__utoa(p, (uint64_t)j + 1);
        *p++ = ' ';
    } else {
        if (i != w->ai || j != w->aj)
            return w->st = lcl__fail(w->ctx, LCL_ERR_DIMENSION, "%s: array entries go in column-major order: expected (%lld,%lld), got (%lld,%lld)",
                                     w->path, (long long)w->ai, (long long)w->aj, (long long)i, (long long)j);
        w->ai++;
        if (w->ai >= w->rows) {
            w->aj++;
            w->ai = w->symmetry == LCL_MM_GENERAL ? 0 : w->symmetry == LCL_MM_SYMMETRIC ? w->aj : w->aj + 1;
        }
    }
    n = lcl_format_double(p, sizeof line - (size_t)(p - line) - 1, v);
    p += n;
    *p++ = '\n';
    if (fwrite(line, 1, (size_t)(p - line), w->f) != (size_t)(p - line))
        return w->st = lcl__fail(w->ctx, LCL_ERR_IO, "%s: write failed: %s", w->path, strerror(errno));
    w->count++;
    return LCL_OK;
}

LCL_API lcl_status lcl_mm_writer_close(lcl_mm_writer *w) {
    lcl_status st;
    int bad;
    if (!w) return LCL_ERR_INVALID_ARGUMENT;
    st = w->st;
    bad = fclose(w->f) != 0;
    if (st == LCL_OK && bad) st = lcl__fail(w->ctx, LCL_ERR_IO, "%s: write failed: %s", w->path, strerror(errno));
    if (st == LCL_OK && w->count != w->entries)
        st = lcl__fail(w->ctx, LCL_ERR_DIMENSION, "%s: closed after %lld of the %lld declared entries", w->path, (long long)w->count,
                       (long long)w->entries);
    if (st != LCL_OK) {   /* never leave a file that lies about its size; never remove what was not ours (a
                             device, a link to one: /dev/full, or a link to a file) */
        if (w->was == 0 && lcl__path_kind(w->path) == 1) remove(w->path);
        else if (w->was == 1) {
            FILE *e = fopen(w->path, "wb");   /* the file the open truncated: left empty */
            if (e) fclose(e);
        }
    }
    LCL_FREE(w->path);
    LCL_FREE(w);
    return st;
}

/* What lcl_mm_write stores of a symmetric or skew matrix, entry by entry (how[k]: 0 not, 1 as it is,
   2 mirrored to the lower triangle): each off-diagonal pair (i,j), (j,i) from the triangle that
   holds it, the lower where both do, and then only if they agree (their sums: duplicates add) */
LCL__PRIVATE lcl_status lcl__mm_sym_plan(lcl_context *ctx, const lcl_coo *m, lcl_mm_symmetry sym, unsigned char **how_out,
                                         int64_t *count) {
    const double sign = sym == LCL_MM_SKEW_SYMMETRIC ? -1.0 : 1.0;
    int64_t n = m->nnz, k, g, h;
    lcl_status st = LCL_OK;
    lcl__key *keys;
    unsigned char *how;
    *how_out = NULL;
    *count = 0;
    if (m->rows != m->cols)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "lcl_mm_write: a %s matrix must be square, got %lldx%lld",
                         sym == LCL_MM_SYMMETRIC ? "symmetric" : "skew-symmetric", (long long)m->rows, (long long)m->cols);
    keys = (lcl__key *)lcl__alloc(ctx, "lcl_mm_write: symmetry check", (size_t)(n ? n : 1), sizeof *keys, &st);
    how = keys ? (unsigned char *)lcl__alloc(ctx, "lcl_mm_write: symmetry check", (size_t)(n ? n : 1), 1, &st) : NULL;
    if (!how) { LCL_FREE(keys); return st; }
    for (k = 0; k < n; k++) {
        const int32_t r = m->row[k], c = m->col[k];
        const uint32_t lo = (uint32_t)(r < c ? r : c), hi = (uint32_t)(r < c ? c : r);
        keys[k].key = ((uint64_t)hi << 32) | lo;   /* (row, col) of its lower-triangle place */
        keys[k].at = k;
    }
    qsort(keys, (size_t)n, sizeof *keys, lcl__key_cmp);
    for (g = 0; g < n && st == LCL_OK; g = h) {
        double lower = 0, upper = 0;
        int nl = 0, nu = 0;
        for (h = g; h < n && keys[h].key == keys[g].key; h++) {
            int64_t e = keys[h].at;
            double v = lcl__val(m->val, m->dtype, e);
            if (!(v - v == 0)) {
                st = lcl__fail(ctx, LCL_ERR_NAN, "lcl_mm_write: entry (%d,%d) is NaN or Inf", m->row[e], m->col[e]);
                break;
            }
            if (m->row[e] >= m->col[e]) { lower += v; nl++; } else { upper += v; nu++; }
        }
        if (st != LCL_OK) break;
        {
            const lcl__key *f = &keys[g];
            const int r = (int)(f->key >> 32), c = (int)(f->key & 0xffffffffu);
            if (r == c && sym == LCL_MM_SKEW_SYMMETRIC && lower != 0)
                st = lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_mm_write: not skew-symmetric: diagonal entry (%d,%d) = %.17g", r, c, lower);
            else if (nl && nu && lower != sign * upper)
                st = lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_mm_write: not %s: entry (%d,%d) = %.17g but (%d,%d) = %.17g",
                               sym == LCL_MM_SYMMETRIC ? "symmetric" : "skew-symmetric", r, c, lower, c, r, upper);
        }
        for (k = g; k < h; k++) {
            int64_t e = keys[k].at;
            int diag = m->row[e] == m->col[e];
            how[e] = (unsigned char)(diag ? sym == LCL_MM_SYMMETRIC : m->row[e] > m->col[e] ? 1 : nl ? 0 : 2);
            *count += how[e] != 0;
        }
    }
    LCL_FREE(keys);
    if (st != LCL_OK) { LCL_FREE(how); *count = 0; return st; }
    *how_out = how;
    return LCL_OK;
}

LCL_API lcl_status lcl_mm_write(lcl_context *ctx, const char *path, const lcl_coo *m, lcl_mm_symmetry symmetry) {
    lcl_mm_writer *w;
    unsigned char *how = NULL;
    int64_t k, n = m ? m->nnz : 0;
    lcl_status st = lcl__coo_check(ctx, m, "lcl_mm_write");
    if (st != LCL_OK) return st;
    if (symmetry == LCL_MM_HERMITIAN) return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "lcl_mm_write: hermitian is not supported");
    if ((symmetry == LCL_MM_SYMMETRIC || symmetry == LCL_MM_SKEW_SYMMETRIC) &&
        (st = lcl__mm_sym_plan(ctx, m, symmetry, &how, &n)) != LCL_OK)
        return st;
    if ((st = lcl_mm_writer_open(ctx, path, LCL_MM_COORDINATE, symmetry, m->rows, m->cols, n, NULL, &w)) != LCL_OK) {
        LCL_FREE(how);
        return st;
    }
    for (k = 0; k < m->nnz && st == LCL_OK; k++) {
        double v = lcl__val(m->val, m->dtype, k);
        if (!how || how[k] == 1) st = lcl_mm_writer_put(w, m->row[k], m->col[k], v);
        else if (how[k] == 2) st = lcl_mm_writer_put(w, m->col[k], m->row[k], symmetry == LCL_MM_SKEW_SYMMETRIC ? -v : v);
    }
    LCL_FREE(how);
    {
        lcl_status st2 = lcl_mm_writer_close(w);
        return st != LCL_OK ? st : st2;
    }
}

LCL_API lcl_status lcl_mm_write_dense(lcl_context *ctx, const char *path, const lcl_dense *m) {
    lcl_mm_writer *w;
    int64_t i, j;
    lcl_status st;
    if ((st = lcl__dense_arg(ctx, "lcl_mm_write_dense", "m", m)) != LCL_OK) return st;
    if ((st = lcl_mm_writer_open(ctx, path, LCL_MM_ARRAY, LCL_MM_GENERAL, m->rows, m->cols, m->rows * m->cols, NULL, &w)) != LCL_OK)
        return st;
    for (j = 0; j < m->cols && st == LCL_OK; j++)
        for (i = 0; i < m->rows && st == LCL_OK; i++) st = lcl_mm_writer_put(w, i, j, lcl_dense_get(m, i, j));
    {
        lcl_status st2 = lcl_mm_writer_close(w);
        return st != LCL_OK ? st : st2;
    }
}

/* >>klu-analyze --------------------------------------------------------------------------------- */
/* The symbolic analysis of lcl_klu_analyze, shared with >>klu-numeric. The factored matrix is
   B = A(P, Q): B(i, j) = A(P[i], Q[j]). B is block upper triangular: its diagonal blocks are rows
   and columns R[b] .. R[b+1]-1, b < nblocks, and nothing of B lies below them. Within each block
   the fill-reducing ordering is already applied (P and Q include it); the numeric phase adds only
   row interchanges inside a block. */
struct lcl_klu_symbolic {
    int64_t n, nnz;             /* of A */
    int32_t *P, *Q;             /* n each */
    int32_t *R;                 /* nblocks + 1 */
    int64_t nblocks, max_block, structural_rank, nnz_offdiag;
    double est_lnz, est_unz;    /* fill estimates from the ordering (0 when it gives none) */
    lcl_klu_opts opts;          /* as resolved (perm not kept) */
    uint64_t pattern_hash;      /* of A's ptr and col arrays: factor and refactor check it */
};
/* the hash of A's pattern that analyze stores and factor and refactor compare: sums of each index
   times an odd weight of its position (a changed, moved or swapped index changes them), one
   multiply per index, so refactor's check costs a fraction of the pass over the values (FNV,
   byte by byte, cost more than the refactor of a small matrix) */
LCL__PRIVATE uint64_t lcl__klu_pattern_hash(const lcl_csr *A) {
    uint64_t h1 = (uint64_t)A->rows, h2 = (uint64_t)A->nnz, h;
    int64_t i;
    for (i = 0; i <= A->rows; i++) h1 += ((uint64_t)A->ptr[i] + 1) * ((uint64_t)i * 0xD6E8FEB86659FD93u | 1);
    for (i = 0; i < A->nnz; i++) h2 += ((uint64_t)(uint32_t)A->col[i] + 1) * ((uint64_t)i * 0x9E3779B97F4A7C15u | 1);
    h = h1 ^ (h2 * 0xBF58476D1CE4E5B9u);
    h ^= h >> 31;
    h *= 0x94D049BB133111EBu;
    return h ^ (h >> 29);
}

LCL_API void lcl_klu_symbolic_free(lcl_klu_symbolic *S) {
    if (!S) return;
    LCL_FREE(S->P);
    LCL_FREE(S->Q);
    LCL_FREE(S->R);
    LCL_FREE(S);
}

/* Maximum transversal. A greedy pass first: rows by increasing length, each taking its unmatched
   column of fewest entries. Then push-relabel (FIFO, with global relabelling): psi[j] is a lower
   bound on the alternating distance from column j to a free column (psi >= n: none); an
   unmatched row takes its column of least psi, displacing that column's row, which becomes
   unmatched in turn, and the column's psi rises to one more than the row's next best. A breadth
   first search from the free columns (over cp/ci, the pattern by columns) makes psi exact again
   every n pushes. Augmenting-path searches, one per unmatched row or in Hopcroft-Karp phases,
   cost O(nnz) each on circuit matrices (the greedy's mistakes sit behind long chains); pushes
   walk those chains one step each. Rows of the n x n pattern (ap, ai); on return rowof[j] is
   the row matched to column j, or -1. Returns the number of matched columns. Work: 5n int32
   and n + 1 int64, cp (n + 1), ci (nnz). */
LCL__PRIVATE int64_t lcl__klu_transversal(int32_t n, const int64_t *ap, const int32_t *ai, int32_t *rowof, int32_t *w32,
                                          int64_t *w64, int64_t *cp, int32_t *ci) {
    int32_t *matchr = w32, *psi = w32 + n, *que = w32 + 2 * (size_t)n, *byl = w32 + 3 * (size_t)n, *cdeg = w32 + 4 * (size_t)n;
    int32_t i, k, j, head = 0, tail = 0, cnt = 0;
    int64_t *pos = w64, rank = 0, p, pushes = 0;
    for (i = 0; i < n; i++) { rowof[i] = -1; matchr[i] = -1; cdeg[i] = 0; pos[i] = 0; }
    for (p = 0; p < ap[n]; p++) cdeg[ai[p]]++;
    cp[0] = 0;
    for (j = 0; j < n; j++) cp[j + 1] = cp[j] + cdeg[j];
    for (i = 0; i < n; i++)
        for (p = ap[i]; p < ap[i + 1]; p++) ci[cp[ai[p]] + pos[ai[p]]++] = i;
    /* rows by length (counting sort, lengths clamped to n - 1) */
    for (i = 0; i < n; i++) pos[i] = 0;
    for (i = 0; i < n; i++) pos[ap[i + 1] - ap[i] < n ? ap[i + 1] - ap[i] : n - 1]++;
    for (i = 0, p = 0; i < n; i++) { int64_t c = pos[i]; pos[i] = p; p += c; }
    for (i = 0; i < n; i++) byl[pos[ap[i + 1] - ap[i] < n ? ap[i + 1] - ap[i] : n - 1]++] = i;
    for (k = 0; k < n; k++) {
        int32_t best = -1;
        i = byl[k];
        for (p = ap[i]; p < ap[i + 1]; p++)
            if (rowof[ai[p]] < 0 && (best < 0 || cdeg[ai[p]] < cdeg[best])) best = ai[p];
        if (best >= 0) { rowof[best] = i; matchr[i] = best; rank++; }
    }
    for (i = 0; i < n; i++)
        if (matchr[i] < 0) { que[tail] = i; tail = tail + 1 == n ? 0 : tail + 1; cnt++; }
    while (cnt > 0) {
        int32_t r, j1 = -1, p1 = INT32_MAX, p2 = INT32_MAX, old;
        if (pushes == 0) {   /* global relabel: breadth first from the free columns */
            int32_t h = 0, t = 0, *bq = byl;
            for (j = 0; j < n; j++) {
                psi[j] = rowof[j] < 0 ? 0 : n;
                if (rowof[j] < 0) bq[t++] = j;
            }
            while (h < t) {
                int32_t c = bq[h++];
                for (p = cp[c]; p < cp[c + 1]; p++) {
                    int32_t c2 = matchr[ci[p]];
                    if (c2 >= 0 && psi[c2] == n) { psi[c2] = psi[c] + 1; bq[t++] = c2; }
                }
            }
        }
        r = que[head];
        head = head + 1 == n ? 0 : head + 1;
        cnt--;
        for (p = ap[r]; p < ap[r + 1]; p++) {
            int32_t v = psi[ai[p]];
            if (v < p1) { p2 = p1; p1 = v; j1 = ai[p]; }
            else if (v < p2) p2 = v;
        }
        if (p1 >= n) continue;   /* no free column reachable: stays unmatched */
        old = rowof[j1];
        rowof[j1] = r;
        matchr[r] = j1;
        psi[j1] = p2 >= n ? n : p2 + 1;
        if (++pushes == n) pushes = 0;
        if (old >= 0) {
            matchr[old] = -1;
            que[tail] = old;
            tail = tail + 1 == n ? 0 : tail + 1;
            cnt++;
        } else {
            rank++;
        }
    }
    return rank;
}

/* Strongly connected components of the graph j -> ai[ap[rowof[j]] ..] (Tarjan, iterative). comp[j]
   = the component, numbered so that every edge goes from a component to one of the same or a
   larger number. Returns the number of components. Work: 3n int32 + n int64. */
LCL__PRIVATE int32_t lcl__klu_scc(int32_t n, const int64_t *ap, const int32_t *ai, const int32_t *rowof, int32_t *comp,
                                  int32_t *w32, int64_t *pos) {
    int32_t *index = w32, *low = w32 + n, *stk = w32 + 2 * (size_t)n, *cs = comp;
    int32_t cnt = 0, ncomp = 0, sp = 0, root, j;
    /* cs (the call stack) shares comp: a node's comp entry is written only after it left cs */
    for (j = 0; j < n; j++) index[j] = -1;
    for (root = 0; root < n; root++) {
        int32_t top = 0;
        if (index[root] >= 0) continue;
        index[root] = low[root] = cnt++;
        stk[sp++] = root;
        pos[root] = ap[rowof[root]];
        cs[0] = root;
        while (top >= 0) {
            int32_t v = cs[top], r = rowof[v];
            if (pos[v] < ap[r + 1]) {
                int32_t w = ai[pos[v]++];
                if (index[w] < 0) {
                    index[w] = low[w] = cnt++;
                    stk[sp++] = w;
                    pos[w] = ap[rowof[w]];
                    cs[++top] = w;
                } else if (low[w] >= 0 && index[w] < low[v]) {
                    low[v] = index[w];
                }
            } else {
                top--;
                if (top >= 0 && low[v] < low[cs[top]]) low[cs[top]] = low[v];
                if (low[v] == index[v]) {
                    int32_t x;
                    do { x = stk[--sp]; low[x] = -1 - ncomp; } while (x != v);   /* done: off the stack */
                    ncomp++;
                }
            }
        }
    }
    /* Tarjan finishes a component after every component it reaches: reverse that order */
    for (j = 0; j < n; j++) comp[j] = ncomp - 1 - (-1 - low[j]);
    return ncomp;
}

/* Approximate minimum degree on a quotient graph (Amestoy, Davis and Duff's method, written here):
   variables 0..n-1 and, for the column ordering, initial elements n..n+ne-1 (the rows of the block,
   each the clique of its columns). Lists live in iw (capacity *cap, grown when compaction is not
   enough): list x is iw[pe[x] .. pe[x]+len[x]-1], a variable's first elen[x] entries elements.
   Eliminating a pivot turns it into an element whose list is the union of its elements' lists
   (which it absorbs) and its variables; the neighbours' degrees become the approximate external
   degree bound; elements whose variables all lie in the new one are absorbed as well; variables
   with identical lists merge (supervariables, found by hashing); a variable left adjacent only to
   the new element is eliminated with it. Variables of very high degree (symmetric case) are
   ordered last. order[k] = the variable eliminated k-th. */
enum { LCL__MD_VAR, LCL__MD_ELEMENT, LCL__MD_DEAD, LCL__MD_DENSE };

typedef struct lcl__md {
    int32_t n, ne, *iw, *len, *elen, *nv, *deg, *head, *nxt, *prv, *hh, *hn, *hv, *first, *mn, *mt;
    int64_t *pe, *w, cap, pfree;
    unsigned char *st;
    double lnz;                 /* nnz of the Cholesky factor below the diagonal (exact without dense variables) */
    int32_t ndense;
} lcl__md;

LCL__PRIVATE void lcl__md_unlink(lcl__md *m, int32_t i) {
    if (m->prv[i] >= 0) m->nxt[m->prv[i]] = m->nxt[i];
    else m->head[m->deg[i]] = m->nxt[i];
    if (m->nxt[i] >= 0) m->prv[m->nxt[i]] = m->prv[i];
}
/* the live variables of iw[q .. q2) join the new element at iw[*top ..]: flagged by nv < 0 and
   taken off the degree lists; returns their weight */
LCL__PRIVATE int32_t lcl__md_take(lcl__md *m, int64_t q, int64_t q2, int64_t *top) {
    int32_t w = 0;
    for (; q < q2; q++) {
        int32_t v = m->iw[q];
        if (m->st[v] != LCL__MD_VAR || m->nv[v] <= 0) continue;
        w += m->nv[v];
        m->nv[v] = -m->nv[v];
        m->iw[(*top)++] = v;
        lcl__md_unlink(m, v);
    }
    return w;
}
LCL__PRIVATE void lcl__md_link(lcl__md *m, int32_t i) {
    int32_t h = m->head[m->deg[i]];
    m->nxt[i] = h;
    m->prv[i] = -1;
    if (h >= 0) m->prv[h] = i;
    m->head[m->deg[i]] = i;
}
/* member list of x (itself and the variables merged into it) appended to y's */
LCL__PRIVATE void lcl__md_join(lcl__md *m, int32_t y, int32_t x) {
    m->mn[m->mt[y]] = x;
    m->mt[y] = m->mt[x];
}
/* slide the live lists to the front of iw (each list's first entry saved, a marker in its place) */
LCL__PRIVATE void lcl__md_compact(lcl__md *m) {
    int64_t p = 0, dst = 0, N = (int64_t)m->n + m->ne, x;
    for (x = 0; x < N; x++)
        if ((m->st[x] == LCL__MD_VAR || m->st[x] == LCL__MD_ELEMENT) && m->len[x] > 0) {
            m->first[x] = m->iw[m->pe[x]];
            m->iw[m->pe[x]] = (int32_t)(-1 - x);
        }
    while (p < m->pfree) {
        int32_t v = m->iw[p];
        if (v < 0) {
            int32_t y = -1 - v, l = m->len[y], t;
            m->iw[dst] = m->first[y];
            for (t = 1; t < l; t++) m->iw[dst + t] = m->iw[p + t];
            m->pe[y] = dst;
            dst += l;
            p += l;
        } else {
            p++;
        }
    }
    m->pfree = dst;
}

LCL__PRIVATE lcl_status lcl__klu_mindeg(lcl_context *ctx, lcl__md *m, int32_t *order) {
    int32_t n = m->n, N = n + m->ne, i, me, mindeg = 0, nel = 0, ndense = 0, nact, k = 0;
    int32_t *iw;
    int64_t wflg = 2, p;
    double thr = 10.0 * sqrt((double)n);
    if (thr < 16) thr = 16;
    for (i = 0; i < n; i++) m->head[i] = m->hh[i] = -1;
    for (i = 0; i < N; i++) {
        m->w[i] = 1;
        m->nv[i] = 1;
        m->st[i] = i < n ? LCL__MD_VAR : LCL__MD_ELEMENT;
        m->deg[i] = m->len[i];
    }
    for (i = 0; i < n; i++) {
        m->mn[i] = -1;
        m->mt[i] = i;
        if (m->ne) {
            int64_t d = 0;
            for (p = m->pe[i]; p < m->pe[i] + m->len[i]; p++) d += m->len[m->iw[p]] - 1;
            m->deg[i] = (int32_t)(d < n - 1 ? d : n - 1);
        } else if (m->len[i] > thr) {
            m->st[i] = LCL__MD_DENSE;
            m->nv[i] = 0;
            ndense++;
            continue;
        }
        lcl__md_link(m, i);
    }
    nact = n - ndense;
    while (nel < nact) {
        int32_t elenme, nvpiv, degme = 0, kk;
        int64_t pme1, pme2, maxwe = 0;
        while (m->head[mindeg] < 0) mindeg++;
        me = m->head[mindeg];
        lcl__md_unlink(m, me);
        elenme = m->elen[me];
        nvpiv = m->nv[me];
        nel += nvpiv;
        if (elenme > 0) {   /* the new element goes at the end of iw: make room */
            int64_t need = m->len[me] - elenme;
            for (p = m->pe[me]; p < m->pe[me] + elenme; p++)
                if (m->st[m->iw[p]] == LCL__MD_ELEMENT) need += m->len[m->iw[p]];
            if (m->pfree + need > m->cap) lcl__md_compact(m);
            if (m->pfree + need > m->cap) {
                int64_t nc = m->cap * 2 > m->pfree + need ? m->cap * 2 : m->pfree + need;
                int32_t *niw = (int32_t *)LCL_REALLOC(m->iw, (size_t)nc * sizeof(int32_t));
                if (!niw) return lcl__oom(ctx, "lcl_klu_analyze ordering workspace", (size_t)nc * sizeof(int32_t));
                m->iw = niw;
                m->cap = nc;
            }
        }
        iw = m->iw;
        m->nv[me] = -nvpiv;
        /* the new element Lme: me's variables and its elements' (absorbed), each flagged by nv < 0;
           built in place over me's list when me has no elements, else at the end of iw */
        pme1 = pme2 = elenme == 0 ? m->pe[me] : m->pfree;
        for (kk = 0; kk <= elenme; kk++) {
            int32_t e = me;
            int64_t q, q2;
            if (kk < elenme) {
                e = iw[m->pe[me] + kk];
                if (m->st[e] != LCL__MD_ELEMENT) continue;
                q = m->pe[e];
                q2 = q + m->len[e];
            } else {
                q = m->pe[me] + elenme;
                q2 = m->pe[me] + m->len[me];
            }
            degme += lcl__md_take(m, q, q2, &pme2);
            if (e != me) { m->st[e] = LCL__MD_DEAD; m->w[e] = 0; }
        }
        if (elenme > 0) m->pfree = pme2;
        /* w[e] - wflg = |Le \ Lme| for every element e next to Lme */
        for (p = pme1; p < pme2; p++) {
            int32_t v = iw[p], nvi = -m->nv[v];
            int64_t q;
            for (q = m->pe[v]; q < m->pe[v] + m->elen[v]; q++) {
                int32_t e = iw[q];
                if (m->w[e] >= wflg) m->w[e] -= nvi;
                else if (m->w[e] != 0) m->w[e] = m->deg[e] + wflg - nvi;
            }
        }
        /* degree bounds, pruning, absorption, mass elimination, hashes */
        for (p = pme1; p < pme2; p++) {
            int32_t v = iw[p], oldlen = m->len[v];
            int64_t p1 = m->pe[v], p2 = p1 + m->elen[v], p3, pn = p1, q, dg = 0;
            uint64_t hash = 0;
            for (q = p1; q < p2; q++) {
                int32_t e = iw[q];
                int64_t we;
                if (m->w[e] == 0) continue;
                we = m->w[e] - wflg;
                if (we > 0) {
                    dg += we;
                    iw[pn++] = e;
                    hash += (uint64_t)e;
                    if (we > maxwe) maxwe = we;
                } else {   /* every variable of e is in Lme: absorbed */
                    m->st[e] = LCL__MD_DEAD;
                    m->w[e] = 0;
                }
            }
            m->elen[v] = (int32_t)(pn - p1) + 1;
            p3 = pn;
            for (q = p2; q < p1 + oldlen; q++) {
                int32_t x = iw[q];
                if (m->st[x] != LCL__MD_VAR || m->nv[x] <= 0) continue;
                dg += m->nv[x];
                iw[pn++] = x;
                hash += (uint64_t)x;
            }
            if (m->elen[v] == 1 && p3 == pn) {   /* adjacent to me only: eliminated with it */
                int32_t nvi = -m->nv[v];
                degme -= nvi;
                nvpiv += nvi;
                nel += nvi;
                m->nv[v] = 0;
                m->st[v] = LCL__MD_DEAD;
                lcl__md_join(m, me, v);
                continue;
            }
            if (dg < m->deg[v]) m->deg[v] = (int32_t)dg;
            /* me to the front: one entry (me as a variable, or an absorbed element) was pruned */
            LCL_ASSERT(pn - p1 < oldlen);
            iw[pn] = iw[p3];
            iw[p3] = iw[p1];
            iw[p1] = me;
            m->len[v] = (int32_t)(pn - p1 + 1);
            m->hv[v] = (int32_t)(hash % (uint64_t)n);
        }
        m->deg[me] = degme;
        wflg += maxwe + 1;
        /* supervariables: variables of Lme with equal hashes and identical lists merge */
        for (p = pme1; p < pme2; p++) {
            int32_t v = iw[p], h;
            if (m->nv[v] >= 0) continue;
            h = m->hv[v];
            m->hn[v] = m->hh[h];
            m->hh[h] = v;
        }
        for (p = pme1; p < pme2; p++) {
            int32_t v = iw[p], a, h;
            if (m->nv[v] >= 0 || m->hh[h = m->hv[v]] < 0) continue;
            a = m->hh[h];
            m->hh[h] = -1;
            for (; a >= 0; a = m->hn[a]) {
                int32_t b, prevb = a, nb;
                int64_t q;
                for (q = m->pe[a] + 1; q < m->pe[a] + m->len[a]; q++) m->w[iw[q]] = wflg;
                for (b = m->hn[a]; b >= 0; b = nb) {
                    int same = m->len[b] == m->len[a] && m->elen[b] == m->elen[a];
                    nb = m->hn[b];
                    for (q = m->pe[b] + 1; same && q < m->pe[b] + m->len[b]; q++) same = m->w[iw[q]] == wflg;
                    if (same) {
                        m->nv[a] += m->nv[b];
                        m->nv[b] = 0;
                        m->st[b] = LCL__MD_DEAD;
                        lcl__md_join(m, a, b);
                        m->hn[prevb] = nb;
                    } else {
                        prevb = b;
                    }
                }
                wflg++;
            }
        }
        /* final degrees; Lme keeps its principal variables */
        {
            int64_t pn = pme1;
            for (p = pme1; p < pme2; p++) {
                int32_t v = iw[p], nvi, d, lim;
                if (m->nv[v] >= 0) continue;
                nvi = -m->nv[v];
                d = m->deg[v] + degme - nvi;
                lim = nact - nel - nvi;
                if (d > lim) d = lim;
                if (d < 0) d = 0;
                m->nv[v] = nvi;
                m->deg[v] = d;
                lcl__md_link(m, v);
                if (d < mindeg) mindeg = d;
                iw[pn++] = v;
            }
            m->nv[me] = nvpiv;
            m->st[me] = pn > pme1 ? LCL__MD_ELEMENT : LCL__MD_DEAD;
            m->pe[me] = pme1;
            m->len[me] = (int32_t)(pn - pme1);
            m->elen[me] = 0;
            m->w[me] = 1;
            if (elenme > 0) m->pfree = pn;
        }
        for (i = me; i >= 0; i = m->mn[i]) order[k++] = i;
        m->lnz += (double)nvpiv * degme + (double)nvpiv * (nvpiv - 1) / 2;
        if (wflg > INT64_MAX / 4) {   /* keep the marks small */
            for (i = 0; i < N; i++)
                if (m->w[i] != 0) m->w[i] = 1;
            wflg = 2;
        }
    }
    for (i = 0; i < n; i++)
        if (m->st[i] == LCL__MD_DENSE) order[k++] = i;
    m->ndense = ndense;
    LCL_ASSERT(k == n);
    return LCL_OK;
}

/* nnz of the Cholesky factor (below the diagonal) of the symmetric pattern (sp, si: no diagonal)
   ordered by perm: elimination tree, then each row's subtree walked once. -1 when the count
   passes limit. Work: 4n int32. */
LCL__PRIVATE double lcl__klu_symcount(int32_t n, const int64_t *sp, const int32_t *si, const int32_t *perm, int32_t *w,
                                      double limit) {
    int32_t *pinv = w, *parent = w + n, *anc = w + 2 * (size_t)n, *mark = w + 3 * (size_t)n, k;
    int64_t p;
    double cnt = 0;
    for (k = 0; k < n; k++) pinv[perm[k]] = k;
    for (k = 0; k < n; k++) {
        int32_t old = perm[k];
        parent[k] = anc[k] = -1;
        for (p = sp[old]; p < sp[old + 1]; p++) {
            int32_t r = pinv[si[p]];
            while (r >= 0 && r < k) {
                int32_t t = anc[r];
                anc[r] = k;
                if (t < 0) parent[r] = k;
                r = t;
            }
        }
    }
    for (k = 0; k < n; k++) {
        int32_t old = perm[k];
        mark[k] = k;
        for (p = sp[old]; p < sp[old + 1]; p++) {
            int32_t j = pinv[si[p]];
            if (j > k) continue;
            for (; mark[j] != k; j = parent[j]) { mark[j] = k; cnt++; }
        }
        if (cnt > limit) return -1;
    }
    return cnt;
}

/* One diagonal block: its pattern (block rows rows[t], columns mapped by loc) as the symmetric
   graph of Bk + Bk^T, ordered by the chosen method; nodes[] is reordered in place. Adds the
   block's factor estimate to *lnz (-1 once the count passes 1e9 where the elimination tree has to
   be walked: no estimate rather than minutes spent on one). */
LCL__PRIVATE lcl_status lcl__klu_order_block(lcl_context *ctx, lcl_klu_ordering ord, int32_t nk, int32_t *nodes, const int32_t *rows,
                                             const int64_t *ap, const int32_t *ai, const int32_t *blockof, const int32_t *loc,
                                             int32_t b, double *lnz) {
    lcl_status st = LCL_OK;
    int64_t nz = 0, p, q, cap;
    int32_t t, *cnt = NULL, *si = NULL, *perm = NULL, *w = NULL;
    int64_t *sp = NULL;
    lcl__md m;
    double c;
    memset(&m, 0, sizeof m);
    for (t = 0; t < nk; t++)
        for (p = ap[rows[t]]; p < ap[rows[t] + 1]; p++) nz += blockof[ai[p]] == b;
    sp = (int64_t *)lcl__alloc(ctx, "lcl_klu_analyze block pattern", (size_t)nk + 1, sizeof(int64_t), &st);
    si = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze block pattern", (size_t)(2 * nz + 1), sizeof(int32_t), &st);
    w = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze block workspace", (size_t)nk * 4 + 1, sizeof(int32_t), &st);
    perm = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze block ordering", (size_t)nk, sizeof(int32_t), &st);
    if (st != LCL_OK) goto done;
    /* Bk + Bk^T without the diagonal, duplicates dropped */
    cnt = w;
    for (t = 0; t < nk; t++) cnt[t] = 0;
    for (t = 0; t < nk; t++)
        for (p = ap[rows[t]]; p < ap[rows[t] + 1]; p++)
            if (blockof[ai[p]] == b && loc[ai[p]] != t) { cnt[t]++; cnt[loc[ai[p]]]++; }
    sp[0] = 0;
    for (t = 0; t < nk; t++) sp[t + 1] = sp[t] + cnt[t];
    for (t = 0; t < nk; t++) cnt[t] = 0;
    for (t = 0; t < nk; t++)
        for (p = ap[rows[t]]; p < ap[rows[t] + 1]; p++) {
            int32_t u;
            if (blockof[ai[p]] != b || (u = loc[ai[p]]) == t) continue;
            si[sp[t] + cnt[t]++] = u;
            si[sp[u] + cnt[u]++] = t;
        }
    {
        int32_t *mk = w + nk;
        int64_t o = 0;
        for (t = 0; t < nk; t++) mk[t] = -1;
        for (t = 0; t < nk; t++) {
            int64_t s = o;
            for (p = sp[t]; p < sp[t + 1]; p++)
                if (mk[si[p]] != t) { mk[si[p]] = t; si[o++] = si[p]; }
            sp[t] = s;
        }
        sp[nk] = o;
    }
    for (t = 0; t < nk; t++) perm[t] = t;
    if ((ord == LCL_KLU_AMD || ord == LCL_KLU_COLAMD) && nk > 3) {
        int32_t ne = ord == LCL_KLU_COLAMD ? nk : 0, N = nk + ne;
        cap = (ord == LCL_KLU_COLAMD ? 2 * nz : sp[nk]) * 6 / 5 + 2 * (int64_t)N + 16;
        m.n = nk;
        m.ne = ne;
        m.cap = cap;
        m.iw = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze ordering workspace", (size_t)cap, sizeof(int32_t), &st);
        m.pe = (int64_t *)lcl__alloc(ctx, "lcl_klu_analyze ordering workspace", (size_t)N, sizeof(int64_t), &st);
        m.w = (int64_t *)lcl__alloc(ctx, "lcl_klu_analyze ordering workspace", (size_t)N, sizeof(int64_t), &st);
        m.len = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze ordering workspace", (size_t)N * 6 + (size_t)nk * 7, sizeof(int32_t), &st);
        m.st = (unsigned char *)lcl__alloc(ctx, "lcl_klu_analyze ordering workspace", (size_t)N, 1, &st);
        if (st != LCL_OK) goto done;
        {   /* one block carved up: 6 arrays over all nodes, 7 over the variables */
            int32_t **part[13], *base = m.len;
            part[0] = &m.len; part[1] = &m.elen; part[2] = &m.nv; part[3] = &m.deg; part[4] = &m.first; part[5] = &m.hn;
            part[6] = &m.hv; part[7] = &m.head; part[8] = &m.nxt; part[9] = &m.prv; part[10] = &m.hh; part[11] = &m.mn;
            part[12] = &m.mt;
            for (t = 0; t < 13; t++) {
                *part[t] = base;
                base += t < 6 ? N : nk;
            }
        }
        if (ne == 0) {
            for (t = 0; t < nk; t++) {
                m.pe[t] = sp[t];
                m.len[t] = (int32_t)(sp[t + 1] - sp[t]);
                m.elen[t] = 0;
            }
            for (p = 0; p < sp[nk]; p++) m.iw[p] = si[p];
            m.pfree = sp[nk];
        } else {
            /* the column intersection graph, held implicitly: element nk+t = row t of Bk,
               variable u = column u with the rows holding it (very long rows left out) */
            double thr = 10.0 * sqrt((double)nk);
            int32_t *cc = m.first;
            if (thr < 16) thr = 16;
            for (t = 0; t < nk; t++) cc[t] = 0;
            for (t = 0; t < nk; t++) {
                int32_t l = 0;
                for (p = ap[rows[t]]; p < ap[rows[t] + 1]; p++) l += blockof[ai[p]] == b;
                m.len[nk + t] = l > thr ? 0 : l;
                if (l > thr) continue;
                for (p = ap[rows[t]]; p < ap[rows[t] + 1]; p++)
                    if (blockof[ai[p]] == b) cc[loc[ai[p]]]++;
            }
            q = 0;
            for (t = 0; t < nk; t++) { m.pe[t] = q; m.len[t] = m.elen[t] = 0; q += cc[t]; }
            for (t = 0; t < nk; t++) {
                m.pe[nk + t] = q;
                m.elen[nk + t] = 0;
                if (m.len[nk + t] == 0) continue;
                m.len[nk + t] = 0;
                for (p = ap[rows[t]]; p < ap[rows[t] + 1]; p++) {
                    int32_t u;
                    if (blockof[ai[p]] != b) continue;
                    u = loc[ai[p]];
                    m.iw[q + m.len[nk + t]++] = u;
                    m.iw[m.pe[u] + m.len[u]++] = nk + t;
                }
                q += m.len[nk + t];
            }
            for (t = 0; t < nk; t++) m.elen[t] = m.len[t];
            m.pfree = q;
        }
        if ((st = lcl__klu_mindeg(ctx, &m, perm)) != LCL_OK) goto done;
        {
            int32_t *tmp = w;
            for (t = 0; t < nk; t++) tmp[t] = nodes[perm[t]];
            for (t = 0; t < nk; t++) nodes[t] = tmp[t];
        }
    }
    /* minimum degree on Bk + Bk^T counts its factor as it goes; else the elimination tree */
    if (m.iw && ord == LCL_KLU_AMD && m.ndense == 0) c = m.lnz;
    else c = *lnz < 0 ? -1 : lcl__klu_symcount(nk, sp, si, perm, w, 1e9 - *lnz);
    *lnz = c < 0 || *lnz < 0 ? -1 : *lnz + c;
done:
    LCL_FREE(m.iw);
    LCL_FREE(m.pe);
    LCL_FREE(m.w);
    LCL_FREE(m.len);
    LCL_FREE(m.st);
    LCL_FREE(sp);
    LCL_FREE(si);
    LCL_FREE(w);
    LCL_FREE(perm);
    return st;
}

LCL_API lcl_status lcl_klu_analyze(lcl_context *ctx, const lcl_csr *A, const lcl_klu_opts *o, lcl_klu_symbolic **out,
                                   lcl_klu_info *info) {
    static const char *fn = "lcl_klu_analyze";
    lcl_klu_opts op;
    lcl_klu_symbolic *S = NULL;
    lcl_status st = LCL_OK;
    const int64_t *ap;
    const int32_t *ai;
    int64_t *ap2 = NULL, *w64 = NULL, *ctp = NULL, rank, p, offd = 0;
    int32_t *ai2 = NULL, *w32 = NULL, *cti = NULL, *rowof, *blockof, *loc, *nodes, *rows, *pinv = NULL, n, i, b, nb;
    double lnz = 0;
    if (info) {
        memset(info, 0, sizeof *info);
        info->singular_col = -1;
    }
    if (out) *out = NULL;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL output pointer", fn);
    if (!A) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL matrix", fn);
    if (A->rows != A->cols)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: matrix must be square, got %lldx%lld", fn, (long long)A->rows, (long long)A->cols);
    if (A->rows == 0) return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: empty 0x0 matrix", fn);
    if ((st = lcl__csr_check_pattern(ctx, A, fn)) != LCL_OK) return st;
    n = (int32_t)A->rows;
    if (info) { info->n = n; info->nnz = A->nnz; }
    memset(&op, 0, sizeof op);
    if (o) op = *o;
    if ((int)op.ordering < (int)LCL_KLU_AMD || (int)op.ordering > (int)LCL_KLU_USER)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown ordering %d", fn, (int)op.ordering);
    if ((int)op.scale < (int)LCL_KLU_SCALE_DEFAULT || (int)op.scale > (int)LCL_KLU_SCALE_MAX)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown scaling %d", fn, (int)op.scale);
    if (!(op.tol >= 0 && op.tol <= 1))
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: pivot tolerance %g outside [0, 1] (0 = the default 0.001)", fn, op.tol);
    if (!(op.growth_limit >= 0) || op.growth_limit - op.growth_limit != 0)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: growth limit %g must be finite and >= 0 (0 = the default 1e8)", fn,
                         op.growth_limit);
    if (op.dense != op.dense)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: opts.dense is NaN (a fraction of the rows: 0 = 0.8, negative = never)", fn);
    if (op.ordering == LCL_KLU_USER) {
        if (!op.perm) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: ordering LCL_KLU_USER needs opts.perm", fn);
        pinv = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze inverse permutation", (size_t)n, sizeof(int32_t), &st);
        if (st != LCL_OK) return st;
        for (i = 0; i < n; i++) pinv[i] = -1;
        for (i = 0; i < n; i++) {
            int32_t v = op.perm[i];
            if (v < 0 || v >= n || pinv[v] >= 0) {
                st = lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: opts.perm is not a permutation of 0..%d: perm[%d] = %d %s", fn, (int)n - 1,
                               (int)i, (int)v, v < 0 || v >= n ? "out of range" : "repeated");
                goto done;
            }
            pinv[v] = i;
        }
    }
    if (op.tol == 0) op.tol = 0.001;
    if (op.scale == LCL_KLU_SCALE_DEFAULT) op.scale = LCL_KLU_SCALE_MAX;
    if (op.growth_limit == 0) op.growth_limit = 1e8;
    op.perm = NULL;
    if (op.ordering == LCL_KLU_COLAMD && n > INT32_MAX / 2)
        return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "%s: the column ordering handles n up to 2^30, got %d", fn, (int)n);
    /* the user's permutation is applied first: the pattern A(perm, perm) */
    ap = A->ptr;
    ai = A->col;
    if (pinv) {
        ap2 = (int64_t *)lcl__alloc(ctx, "lcl_klu_analyze permuted pattern", (size_t)n + 1, sizeof(int64_t), &st);
        ai2 = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze permuted pattern", (size_t)A->nnz + 1, sizeof(int32_t), &st);
        if (st != LCL_OK) goto done;
        ap2[0] = 0;
        for (i = 0; i < n; i++) {
            int32_t r = o->perm[i];
            ap2[i + 1] = ap2[i] + (A->ptr[r + 1] - A->ptr[r]);
            for (p = A->ptr[r]; p < A->ptr[r + 1]; p++) ai2[ap2[i] + (p - A->ptr[r])] = pinv[A->col[p]];
        }
        ap = ap2;
        ai = ai2;
    }
    w32 = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze workspace", (size_t)n, 10 * sizeof(int32_t), &st);
    w64 = (int64_t *)lcl__alloc(ctx, "lcl_klu_analyze workspace", (size_t)n, sizeof(int64_t), &st);
    S = (lcl_klu_symbolic *)lcl__alloc(ctx, "lcl_klu_analyze symbolic", 1, sizeof *S, &st);
    if (S) memset(S, 0, sizeof *S);
    if (st != LCL_OK) goto done;
    rowof = w32 + 5 * (size_t)n;
    blockof = w32 + 6 * (size_t)n;
    loc = w32 + 7 * (size_t)n;
    nodes = w32 + 8 * (size_t)n;
    rows = w32 + 9 * (size_t)n;
    /* maximum transversal: rowof[j] is the row placed at column j's diagonal */
    ctp = (int64_t *)lcl__alloc(ctx, "lcl_klu_analyze pattern by columns", (size_t)n + 1, sizeof(int64_t), &st);
    cti = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze pattern by columns", (size_t)A->nnz + 1, sizeof(int32_t), &st);
    if (st != LCL_OK) goto done;
    rank = lcl__klu_transversal(n, ap, ai, rowof, w32, w64, ctp, cti);
    LCL_FREE(ctp);
    LCL_FREE(cti);
    ctp = NULL;
    cti = NULL;
    if (info) info->structural_rank = rank;
    if (rank < n) {
        st = lcl__fail(ctx, LCL_ERR_SINGULAR, "%s: structurally singular: structural rank %lld of %d", fn, (long long)rank, (int)n);
        goto done;
    }
    S->R = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze blocks", (size_t)n + 1, sizeof(int32_t), &st);
    S->P = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze P", (size_t)n, sizeof(int32_t), &st);
    S->Q = (int32_t *)lcl__alloc(ctx, "lcl_klu_analyze Q", (size_t)n, sizeof(int32_t), &st);
    if (st != LCL_OK) goto done;
    if (op.no_btf) {
        for (i = 0; i < n; i++) { rowof[i] = i; blockof[i] = 0; }
        nb = 1;
    } else {
        /* block upper triangular form: the strongly connected components of A(rowof, :) */
        nb = lcl__klu_scc(n, ap, ai, rowof, blockof, w32, w64);
    }
    /* blocks in order, nodes ascending inside each (the natural or the user's order) */
    for (b = 0; b <= nb; b++) S->R[b] = 0;
    for (i = 0; i < n; i++) S->R[blockof[i] + 1]++;
    for (b = 0; b < nb; b++) S->R[b + 1] += S->R[b];
    {
        int32_t *fill = w32;
        for (b = 0; b < nb; b++) fill[b] = S->R[b];
        for (i = 0; i < n; i++) {
            loc[i] = fill[blockof[i]] - S->R[blockof[i]];
            nodes[fill[blockof[i]]++] = i;
        }
    }
    S->max_block = 0;
    for (b = 0; b < nb; b++) {
        int32_t nk = S->R[b + 1] - S->R[b], t, *nd = nodes + S->R[b];
        if (nk > S->max_block) S->max_block = nk;
        for (t = 0; t < nk; t++) rows[S->R[b] + t] = rowof[nd[t]];
        if (nk == 1) continue;
        if ((st = lcl__klu_order_block(ctx, op.ordering, nk, nd, rows + S->R[b], ap, ai, blockof, loc, b, &lnz)) != LCL_OK) goto done;
    }
    for (i = 0; i < n; i++) {
        int32_t r = rowof[i];
        for (p = ap[r]; p < ap[r + 1]; p++) offd += blockof[ai[p]] != blockof[i];
    }
    for (i = 0; i < n; i++) {
        int32_t node = nodes[i], r = rowof[node];
        S->Q[i] = pinv ? o->perm[node] : node;
        S->P[i] = pinv ? o->perm[r] : r;
    }
    S->n = n;
    S->nnz = A->nnz;
    S->nblocks = nb;
    S->structural_rank = rank;
    S->nnz_offdiag = offd;
    S->est_lnz = S->est_unz = lnz < 0 ? 0 : lnz + n;
    S->opts = op;
    S->pattern_hash = lcl__klu_pattern_hash(A);
    if (info) {
        info->blocks = nb;
        info->max_block = S->max_block;
        info->nnz_offdiag = offd;
    }
    *out = S;
    S = NULL;
done:
    lcl_klu_symbolic_free(S);
    LCL_FREE(pinv);
    LCL_FREE(ap2);
    LCL_FREE(ai2);
    LCL_FREE(w32);
    LCL_FREE(w64);
    LCL_FREE(ctp);
    LCL_FREE(cti);
    return st;
}

/* >>klu-numeric --------------------------------------------------------------------------------- */
/* lcl_klu_factor / refactor / solve / tsolve. Indices: B = A(P, Q) of the symbolic, scaled by rows
   (B(i, j) = A(P[i], Q[j]) / Rs[P[i]]). Pivoting inside a diagonal block reorders its rows: B's row
   piv[k] is pivotal in column k, so the factored matrix is M = B(piv, :), with M_bb = L_b U_b for
   each diagonal block b and M's entries above the blocks (F) used by the solves only. Every row
   index stored (L, U, C) is a pivoted index k. Layout, all column-compressed over the n columns:
   C holds B whole (Cp, Ci, Cx), each column's entries above its block first (Cp[j] .. Cd[j]-1: F)
   then those in the block (Cd[j] .. Cp[j+1]-1); amap sends A's entries there, so refactor gathers
   new values without searching. L: strictly lower part, unit diagonal implicit; U: strictly upper
   part in the topological order of its column's reach (the order refactor replays), diagonal in
   Ud. A X = B then reads: w = (B / Rs)(prow) with prow[k] = P[piv[k]]; for blocks last to first,
   w_b = U_b \ (L_b \ w_b) and w_earlier -= F(:, b) w_b; X(Q) = w. The transposed solve runs the
   same pieces transposed, blocks first to last. The numeric object holds the work vectors (X, n
   values per thread of the factoring context): refactor and the solves allocate nothing, and two
   calls on one object must not overlap. OpenMP: refactor runs the columns level by level (see
   lcl__klu_schedule), the solves split the right-hand sides among threads; each column's
   arithmetic is the serial one, so the results are bitwise the serial ones. On an OpenCL context
   the factors may also live on its first device (cl, >>klu-opencl). */
typedef struct lcl__klu_cl lcl__klu_cl;
#define LCL__FAILED_MAX 160   /* a numeric object's record of its last failed refactor (KLU, block KLU) */
struct lcl_klu_numeric {
    lcl_dtype dtype;
    int64_t n, nnz;
    int64_t *Lp, *Up;           /* n + 1 each */
    int32_t *Li, *Ui;
    void *Lx, *Ux, *Ud;         /* values in dtype; Ud: the pivots */
    int64_t lcap, ucap;         /* allocated entries of L and U (grown by factor only) */
    int32_t *piv, *pinv, *prow; /* n each: B row pivotal in column k, its inverse, A row of k */
    int64_t *Cp, *Cd;           /* n + 1, n */
    int32_t *Ci;
    void *Cx;
    int64_t *amap;              /* nnz: A's entry p (CSR order) is Cx[amap[p]] */
    double *Rs;                 /* n row scale factors of A, NULL without scaling */
    void *X;                    /* nth * n values: thread t's work vector is X + t n */
    int nth;                    /* threads the work vectors and the schedule were made for */
    int64_t nchunk;             /* OpenMP refactor schedule (nth > 1), see lcl__klu_schedule: */
    int64_t *chunkp;            /* nchunk + 1: chunk c is sched[chunkp[c] .. chunkp[c+1]-1] */
    int32_t *sched;             /* the columns outside the dense tails, level by level */
    unsigned *done;             /* n: column j is refactored when done[j] == epoch */
    unsigned epoch;             /* of the last OpenMP refactor */
    int64_t pwork;              /* work (entries touched) in the schedule's wide levels */
    double tol, growth_limit;
    lcl_klu_scaling scale;
    uint64_t pattern_hash;      /* of the symbolic it was factored with: refactor and the solves check it */
    int64_t *tail;              /* nblocks: block b's dense tail is columns tail[b] .. R[b+1]-1 (none:
                                   tail[b] = R[b+1]); see lcl__klu_tail */
    double dense;               /* opts.dense as resolved (0: no dense tails) */
    void *D;                    /* the largest tail's t x t dense matrix, its pivots, the dense LU's */
    int32_t *dpiv;              /* workspace for dnt threads: kept for refactor, which allocates nothing */
    int64_t dt_max;
    lcl__ws dws;
    int dnt;
    double growth, rcond;       /* of the last factor or refactor */
    char failed[LCL__FAILED_MAX];   /* "": the factors are usable; else why the last refactor left none */
    int64_t offpiv;             /* columns whose pivot row is not the diagonal one (fixed by factor) */
    int refine, refine_opt;     /* refinement steps of the solves (0: none), opts.refine */
    void *rb, *rr;              /* nth * n values each: a right-hand side and its residual, for refinement */
    double *racc;               /* nth * n: the residual, summed in double (thread t's at t n, as X) */
    lcl__klu_cl *cl;            /* OpenCL: the factors on a device (>>klu-opencl), or NULL */
};
/* the device copy's hooks (>>klu-opencl; stubs without OpenCL) */
LCL__PRIVATE void lcl__klu_cl_free(lcl__klu_cl *D);
LCL__PRIVATE lcl_status lcl__klu_cl_factored(lcl_context *ctx, const lcl_klu_symbolic *S, lcl_klu_numeric *N);
LCL__PRIVATE int lcl__klu_cl_refactor(lcl_context *ctx, const lcl_klu_symbolic *S, lcl_klu_numeric *N, double *flops, int *unstable,
                                      int64_t *bad, lcl_status *st);
LCL__PRIVATE int lcl__klu_cl_stats(const lcl_klu_numeric *N, double *growth, double *rcond);
LCL__PRIVATE int lcl__klu_cl_solve(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_klu_numeric *N, int64_t nrhs, void *B,
                                   int64_t ldb, int trans, lcl_status *st);
typedef struct lcl__klu_work {
    int32_t *flag, *stack, *list, *trow, *tmap;
    int64_t *pos;
    double flops;
    int64_t offpiv;
} lcl__klu_work;
/* a refactor's running results: flops, a pivot failing the threshold test, and lcl__klu_stats's
   minimum of max |B(:, j)| / max |U(:, j)|, min and max |U_jj|, gathered column by column while
   the values are hot (refactor makes no second pass); min and max are exact, so any order of the
   columns (OpenMP) gives the serial values */
typedef struct lcl__klu_acc {
    double flops, growth, dmin, dmax;
    int unstable;
} lcl__klu_acc;
LCL__PRIVATE void lcl__klu_acc_init(lcl__klu_acc *a) {
    a->flops = 0; a->growth = 1; a->dmin = HUGE_VAL; a->dmax = 0; a->unstable = 0;
}
/* column j's share of the statistics: am = max |B(:, j) in its block|, um = max |U(:, j)| off the
   diagonal, d = |U_jj| */
LCL__PRIVATE void lcl__klu_acc_col(lcl__klu_acc *a, double am, double um, double d) {
    um = LCL__MAX(um, d);
    if (um > 0 && am < um) a->growth = LCL__MIN(a->growth, am / um);   /* else am / um >= 1 >= growth */
    a->dmin = LCL__MIN(a->dmin, d);
    a->dmax = LCL__MAX(a->dmax, d);
}

/* L (which 0) or U (1) to hold at least need entries: doubling, so factor reallocates O(log) times */
LCL__PRIVATE int lcl__klu_grow(lcl_klu_numeric *N, int which, int64_t need, size_t es) {
    int64_t cap = LCL__MAX(which ? N->ucap : N->lcap, 16);
    int32_t **pi = which ? &N->Ui : &N->Li, *ni;
    void **px = which ? &N->Ux : &N->Lx, *nx;
    while (cap < need) cap *= 2;
    if ((uint64_t)cap > (uint64_t)((size_t)-1 / 8)) return 0;
    if (!(ni = (int32_t *)LCL_REALLOC(*pi, (size_t)cap * sizeof(int32_t)))) return 0;
    *pi = ni;
    if (!(nx = LCL_REALLOC(*px, (size_t)cap * es))) return 0;
    *px = nx;
    if (which) N->ucap = cap; else N->lcap = cap;
    return 1;
}
/* until every column that column j of refactor reads is done (flag, then flush: its values);
   a long wait yields the core: on a loaded machine the thread waited for may need it */
LCL__PRIVATE void lcl__klu_wait(const lcl_klu_numeric *N, int64_t j, unsigned ep) {
    int64_t e;
    for (e = N->Up[j]; e < N->Up[j + 1]; e++) {
        unsigned v;
        int spin = 0;
        for (;;) {
            LCL__OMP(omp atomic read)
            v = N->done[N->Ui[e]];
            if (v == ep) break;
            if (++spin > 2000) LCL__YIELD();
        }
    }
    LCL__OMP(omp flush)
}
/* A block's columns from where one column of L fills opts.dense of the rows below it go to a dense
   LU; below this many columns the sparse loop is as fast */
#define LCL__KLU_TAIL_MIN 32
/* room for a t x t dense tail: the matrix, its pivots and the dense LU's workspace */
LCL__PRIVATE int lcl__klu_dense_room(lcl_context *ctx, lcl_klu_numeric *N, int64_t t) {
    const lcl__dops *op = lcl__dops_for(N->dtype);
    void *d;
    int32_t *pv;
    if (t <= N->dt_max) return 1;
    if ((uint64_t)t > (uint64_t)(((size_t)-1 / 2) / op->es / (size_t)t)) return 0;
    if (!(d = LCL_REALLOC(N->D, (size_t)(t * t) * op->es))) return 0;
    N->D = d;
    if (!(pv = (int32_t *)LCL_REALLOC(N->dpiv, (size_t)t * sizeof(int32_t)))) return 0;
    N->dpiv = pv;
    lcl__ws_free(&N->dws);
    if (lcl__ws_alloc(ctx, "lcl_klu_factor", op, N->dnt, t, lcl__round_up(t, op->mr) * lcl__block(op, NULL, t), &N->dws) != LCL_OK)
        return 0;
    N->dt_max = t;
    return 1;
}
/* LU of the t x t tail in N->D: with partial pivoting (N->dpiv) in factor, without in refactor
   (the pivot order is fixed). Returns the 1-based column of the first zero pivot, or 0. */
LCL__PRIVATE int64_t lcl__klu_dense_lu(lcl_klu_numeric *N, int64_t t, int pivot) {
    const lcl__dops *op = lcl__dops_for(N->dtype);
    int nt = t >= 256 ? N->dnt : 1;   /* below, a parallel region costs more than it saves */
    lcl__fact f;
    if (!pivot) return lcl__lu_nopiv(op, &N->dws, nt, t, (char *)N->D, t);
    f.chol = f.upper = 0;
    f.ipiv = N->dpiv;
    return lcl__blocked(op, &N->dws, nt, &f, t, (char *)N->D, t, lcl__block(op, NULL, t));
}
#define LCL__DEF_KLU(S, T) \
/* Row scale factors (Rs, when scaling) and the values of B = A(P, Q) / Rs into Cx through amap. \
   Returns -1, or the first entry of A (CSR position) that is NaN or Inf. */ \
LCL__PRIVATE int64_t lcl__klu_gather_##S(const lcl_csr *A, lcl_klu_numeric *N) { \
    const T *a = (const T *)A->val; \
    const int64_t *ptr = A->ptr, *amap = N->amap; \
    T *cx = (T *)N->Cx; \
    double *Rs = N->Rs; \
    int sum = N->scale == LCL_KLU_SCALE_SUM; \
    int64_t i, p; \
    for (i = 0; i < A->rows; i++) { \
        int64_t p0 = ptr[i], p1 = ptr[i + 1]; \
        double s = 0, z = 0;   /* z: the row's sum of |entries|, not finite if one is not (or on overflow) */ \
        T r = 1; \
        if (sum) { \
            for (p = p0; p < p1; p++) s += fabs((double)a[p]); \
            z = s; \
        } else \
            for (p = p0; p < p1; p++) { \
                double v = fabs((double)a[p]); \
                s = LCL__MAX(s, v); \
                z += v; \
            } \
        if (!(z - z == 0)) \
            for (p = p0; p < p1; p++) \
                if (!(a[p] - a[p] == 0)) return p; \
        if (Rs) { Rs[i] = s > 0 ? s : 1; r = (T)(1 / Rs[i]); } \
        for (p = p0; p < p1; p++) cx[amap[p]] = a[p] * r; \
    } \
    return -1; \
} \
/* Column j of the left-looking LU up to its pivot choice: the reach of B(:, j) in the graph of \
   L (iterative depth-first search, rows in reverse postorder, i.e. topological, into \
   list[top .. n-1]), then x = L \ B(:, j) over it: pivotal rows give U(:, j) (appended at \
   *unz, room checked by the caller), the others stay in X. Returns top. */ \
LCL__PRIVATE int64_t lcl__klu_col_##S(lcl_klu_numeric *N, lcl__klu_work *w, int64_t j, int64_t *unz) { \
    int64_t n = N->n, top = n, p, q, u = *unz; \
    const int32_t *pinv = N->pinv, *Li = N->Li; \
    int32_t *flag = w->flag, *stk = w->stack, *list = w->list, *Ui = N->Ui; \
    int64_t *pos = w->pos; \
    const T *cx = (const T *)N->Cx, *Lx = (const T *)N->Lx; \
    T *X = (T *)N->X, *Ux = (T *)N->Ux; \
    for (p = N->Cd[j]; p < N->Cp[j + 1]; p++) { \
        int64_t sp = 0; \
        if (flag[N->Ci[p]] == j) continue; \
        stk[0] = N->Ci[p]; \
        while (sp >= 0) { \
            int32_t i = stk[sp], k = pinv[i]; \
            if (flag[i] != j) { flag[i] = (int32_t)j; pos[sp] = k >= 0 ? N->Lp[k] : 0; } \
            if (k >= 0) { \
                int64_t e = N->Lp[k + 1]; \
                for (q = pos[sp]; q < e && flag[Li[q]] == j; q++) {} \
                if (q < e) { pos[sp] = q + 1; stk[++sp] = Li[q]; continue; } \
            } \
            sp--; \
            list[--top] = i; \
        } \
    } \
    for (p = N->Cd[j]; p < N->Cp[j + 1]; p++) X[N->Ci[p]] = cx[p]; \
    for (q = top; q < n; q++) { \
        int32_t i = list[q], k = pinv[i]; \
        T xk; \
        if (k < 0) continue; \
        xk = X[i]; \
        X[i] = 0; \
        Ui[u] = k; \
        Ux[u++] = xk; \
        if (xk != 0) { \
            for (p = N->Lp[k]; p < N->Lp[k + 1]; p++) X[Li[p]] -= Lx[p] * xk; \
            w->flops += 2.0 * (double)(N->Lp[k + 1] - N->Lp[k]); \
        } \
    } \
    *unz = u; \
    return top; \
} \
/* The dense tail of block b from column j0 on, in factor: the Schur complement of the block's \
   columns before j0 (each tail column's sparse solve, its non-pivotal rows into a dense column \
   of D, the t x t matrix of the t rows not yet pivotal), a dense LU with partial pivoting, and its \
   L and U stored back as sparse columns with every entry: U(:, j) keeps its sparse part (rows \
   < j0) first, then rows j0 .. j-1 ascending; L(:, j) is rows j+1 .. k2-1 ascending, the layout \
   lcl__klu_retail relies on. Returns as lcl__klu_lu. */ \
LCL__PRIVATE int lcl__klu_tail_##S(lcl_context *ctx, const lcl_klu_symbolic *Sy, lcl_klu_numeric *N, lcl__klu_work *w, \
                                   int64_t b, int64_t j0, int64_t *lnz, int64_t *unz, int64_t *bad) { \
    int64_t k1 = Sy->R[b], k2 = Sy->R[b + 1], t = k2 - j0, i, j, c, r, q, info; \
    int32_t *trow = w->trow, *tmap = w->tmap, *perm = w->stack; \
    T *D, *X = (T *)N->X; \
    if (!lcl__klu_dense_room(ctx, N, t)) return 2; \
    D = (T *)N->D; \
    for (i = k1, c = 0; i < k2; i++) \
        if (N->pinv[i] < 0) { tmap[i] = (int32_t)c; trow[c++] = (int32_t)i; } \
    memset(D, 0, (size_t)(t * t) * sizeof(T)); \
    for (j = j0; j < k2; j++) { \
        int64_t top; \
        c = j - j0; \
        if (*unz + (j0 - k1) + c > N->ucap && !lcl__klu_grow(N, 1, *unz + (j0 - k1) + c, sizeof(T))) return 2; \
        top = lcl__klu_col_##S(N, w, j, unz); \
        for (q = top; q < N->n; q++) { \
            i = w->list[q]; \
            if (N->pinv[i] < 0) { D[tmap[i] + c * t] = X[i]; X[i] = 0; } \
        } \
        *unz += c; \
        N->Up[j + 1] = *unz; \
        N->Lp[j + 1] = *lnz + (c + 1) * (t - 1) - c * (c + 1) / 2; \
    } \
    if (*lnz + t * (t - 1) / 2 > N->lcap && !lcl__klu_grow(N, 0, *lnz + t * (t - 1) / 2, sizeof(T))) return 2; \
    info = lcl__klu_dense_lu(N, t, 1); \
    if (info) { *bad = j0 + info - 1; return 1; } \
    for (c = 0; c < t; c++) perm[c] = (int32_t)c; \
    for (c = 0; c < t; c++) { int32_t x = perm[c]; perm[c] = perm[N->dpiv[c]]; perm[N->dpiv[c]] = x; } \
    for (c = 0; c < t; c++) { \
        i = trow[perm[c]]; \
        N->piv[j0 + c] = (int32_t)i; \
        N->pinv[i] = (int32_t)(j0 + c); \
        if (i != j0 + c) w->offpiv++; \
    } \
    for (c = 0; c < t; c++) { \
        int64_t e = N->Up[j0 + c + 1] - c, l = N->Lp[j0 + c]; \
        for (r = 0; r < c; r++) { N->Ui[e + r] = (int32_t)(j0 + r); ((T *)N->Ux)[e + r] = D[r + c * t]; } \
        ((T *)N->Ud)[j0 + c] = D[c + c * t]; \
        for (r = c + 1; r < t; r++, l++) { N->Li[l] = N->piv[j0 + r]; ((T *)N->Lx)[l] = D[r + c * t]; } \
    } \
    *lnz = N->Lp[k2]; \
    w->flops += 2.0 / 3.0 * (double)t * (double)t * (double)t; \
    N->tail[b] = j0; \
    return 0; \
} \
/* Gilbert-Peierls left-looking LU of every diagonal block of B, with threshold partial pivoting; \
   a block's columns switch to its dense tail once a column of L fills N->dense of the rows below \
   it. During a block, L's row indices are rows of B (not yet all pivotal); at the block's end they \
   become pivoted indices. U(:, j) is kept in the topological order of the reach, the order in \
   which refactor replays the updates. Returns 0, 1 (zero pivot: column *bad) or 2 (no memory). */ \
LCL__PRIVATE int lcl__klu_lu_##S(lcl_context *ctx, const lcl_klu_symbolic *Sy, lcl_klu_numeric *N, lcl__klu_work *w, \
                                 int64_t *bad) { \
    int64_t n = N->n, b, j, p, q, lnz = 0, unz = 0; \
    int32_t *pinv = N->pinv, *flag = w->flag, *list = w->list; \
    const T *cx = (const T *)N->Cx; \
    T *X = (T *)N->X; \
    for (j = 0; j < n; j++) { pinv[j] = -1; flag[j] = -1; X[j] = 0; } \
    N->Lp[0] = N->Up[0] = 0; \
    for (b = 0; b < Sy->nblocks; b++) { \
        int64_t k1 = Sy->R[b], k2 = Sy->R[b + 1]; \
        for (j = k1; j < k2; j++) { \
            int64_t top, prow = -1; \
            double mx = -1, dg = -1; \
            T *Lx, pv; \
            int32_t *Li; \
            if (k2 - k1 == 1) {   /* 1x1 block: its only possible entry is B(j, j) */ \
                pv = N->Cd[j] < N->Cp[j + 1] ? cx[N->Cd[j]] : 0; \
                if (pv == 0) { *bad = j; return 1; } \
                ((T *)N->Ud)[j] = pv; \
                N->piv[j] = pinv[j] = (int32_t)j; \
                N->Lp[j + 1] = lnz; \
                N->Up[j + 1] = unz; \
                continue; \
            } \
            if (lnz + (k2 - j) > N->lcap && !lcl__klu_grow(N, 0, lnz + (k2 - j), sizeof(T))) return 2; \
            if (unz + (j - k1) > N->ucap && !lcl__klu_grow(N, 1, unz + (j - k1), sizeof(T))) return 2; \
            top = lcl__klu_col_##S(N, w, j, &unz); \
            Li = N->Li; \
            Lx = (T *)N->Lx; \
            /* threshold partial pivoting: the diagonal row unless it is below tol * the largest */ \
            for (q = top; q < n; q++) { \
                int32_t i = list[q]; \
                double v; \
                if (pinv[i] >= 0) continue; \
                v = LCL__ABS((double)X[i]); \
                if (v > mx) { mx = v; prow = i; } \
                if (i == j) dg = v; \
            } \
            if (mx <= 0) { \
                for (q = top; q < n; q++) X[list[q]] = 0; \
                *bad = j; \
                return 1; \
            } \
            if (dg >= 0 && dg >= N->tol * mx) prow = j; \
            if (prow != j) w->offpiv++; \
            pv = X[prow]; \
            X[prow] = 0; \
            ((T *)N->Ud)[j] = pv; \
            N->piv[j] = (int32_t)prow; \
            pinv[prow] = (int32_t)j; \
            for (q = top; q < n; q++) { \
                int32_t i = list[q]; \
                if (pinv[i] >= 0) continue; \
                Li[lnz] = i; \
                Lx[lnz++] = X[i] / pv; \
                X[i] = 0; \
            } \
            w->flops += (double)(lnz - N->Lp[j]); \
            N->Lp[j + 1] = lnz; \
            N->Up[j + 1] = unz; \
            if (k2 - j - 1 >= LCL__KLU_TAIL_MIN && N->dense > 0 && \
                (double)(lnz - N->Lp[j]) >= N->dense * (double)(k2 - j - 1)) { \
                int r = lcl__klu_tail_##S(ctx, Sy, N, w, b, j + 1, &lnz, &unz, bad); \
                if (r) return r; \
                break; \
            } \
        } \
        for (p = N->Lp[k1]; p < N->Lp[k2]; p++) N->Li[p] = pinv[N->Li[p]]; \
    } \
    return 0; \
} \
/* column j's max |B(:, j) in its block| and max |U(:, j)| off the diagonal (entries Up[j] .. \
   e1-1; the rest are added by the caller), from the stored values, for lcl__klu_acc_col */ \
LCL__PRIVATE double lcl__klu_colmax_##S(const lcl_klu_numeric *N, int64_t j, int64_t e1, double *am) { \
    const T *cx = (const T *)N->Cx, *Ux = (const T *)N->Ux; \
    double a = 0, u = 0; \
    int64_t p; \
    for (p = N->Cd[j]; p < N->Cp[j + 1]; p++) a = LCL__MAX(a, LCL__ABS((double)cx[p])); \
    for (p = N->Up[j]; p < e1; p++) u = LCL__MAX(u, LCL__ABS((double)Ux[p])); \
    *am = a; \
    return u; \
} \
/* Refactor of columns j, j + 1, ... (before j1) while they have no update and no L (1x1 blocks, \
   mostly): B(:, j)'s only entry in its block is the pivot (am = um = d: growth unchanged). Returns \
   the first column it leaves to lcl__klu_recol: with an update or L, a zero pivot, or j1. Apart \
   from recol, and over runs of such columns, as a circuit matrix has thousands of them. */ \
LCL__PRIVATE int64_t lcl__klu_re1_##S(lcl_klu_numeric *N, int64_t j, int64_t j1, lcl__klu_acc *acc) { \
    const int64_t *Lp = N->Lp, *Up = N->Up, *Cp = N->Cp, *Cd = N->Cd; \
    const T *cx = (const T *)N->Cx; \
    T *Ud = (T *)N->Ud; \
    double dmin, dmax; \
    if (j >= j1 || Lp[j] != Lp[j + 1] || Up[j] != Up[j + 1]) return j; \
    dmin = acc->dmin; \
    dmax = acc->dmax; \
    for (; j < j1; j++) { \
        T pv; \
        double d; \
        if (Lp[j] != Lp[j + 1] || Up[j] != Up[j + 1] || Cd[j] == Cp[j + 1] || (pv = cx[Cd[j]]) == 0) break; \
        Ud[j] = pv; \
        d = fabs((double)pv); \
        dmin = LCL__MIN(dmin, d); \
        dmax = LCL__MAX(dmax, d); \
    } \
    acc->dmin = dmin; \
    acc->dmax = dmax; \
    return j; \
} \
/* Column j of refactor through the work vector X (zero on entry and on return): X = B(:, j) in \
   its block, the updates of U(:, j)'s entries in order (their values into Ux), the pivot, L(:, j). \
   The serial and the OpenMP refactor both run this, so their results are bitwise equal. Returns 1 \
   on a zero pivot. Column c >= 0 of a dense tail (lcl__klu_retail): only the sparse part, U's \
   entries up to Up[j + 1] - c, the tail's rows left in X. */ \
LCL__PRIVATE int lcl__klu_recol_##S(lcl_klu_numeric *N, int64_t j, T *X, lcl__klu_acc *acc, int64_t c) { \
    const T *cx = (const T *)N->Cx; \
    const int32_t *Li = N->Li, *Ci = N->Ci, *Ui = N->Ui; \
    const int64_t *Lp = N->Lp; \
    T *Lx = (T *)N->Lx, *Ux = (T *)N->Ux, pv; \
    int64_t p, e, fl = 0, p0 = Lp[j], p1 = Lp[j + 1], e0 = N->Up[j], e1 = N->Up[j + 1] - LCL__MAX(c, 0); \
    double am = 0, um = 0, mx, d; \
    for (p = N->Cd[j]; p < N->Cp[j + 1]; p++) { \
        T v = cx[p]; \
        X[Ci[p]] = v; \
        am = LCL__MAX(am, fabs((double)v)); \
    } \
    for (e = e0; e < e1; e++) { \
        int32_t k = Ui[e]; \
        T xk = X[k]; \
        X[k] = 0; \
        Ux[e] = xk; \
        um = LCL__MAX(um, fabs((double)xk)); \
        if (xk != 0) { \
            int64_t q1 = Lp[k + 1]; \
            for (p = Lp[k]; p < q1; p++) X[Li[p]] -= Lx[p] * xk; \
            fl += q1 - Lp[k]; \
        } \
    } \
    if (c >= 0) { acc->flops += 2.0 * (double)fl; return 0; } \
    pv = X[j]; \
    X[j] = 0; \
    if (pv == 0) { \
        for (p = p0; p < p1; p++) X[Li[p]] = 0; \
        return 1; \
    } \
    d = mx = LCL__ABS((double)pv); \
    for (p = p0; p < p1; p++) { \
        T v = X[Li[p]]; \
        mx = LCL__MAX(mx, fabs((double)v)); \
        Lx[p] = v / pv; \
        X[Li[p]] = 0; \
    } \
    if (d < N->tol * mx) acc->unstable = 1; \
    ((T *)N->Ud)[j] = pv; \
    lcl__klu_acc_col(acc, am, um, d); \
    acc->flops += 2.0 * (double)fl; \
    acc->flops += (double)(p1 - p0); \
    return 0; \
} \
/* Refactor of block b's dense tail (columns j0 = tail[b] .. k2-1, layout of lcl__klu_tail), after \
   the block's other columns: each tail column's sparse part into U and its rows j0 .. k2-1 into \
   D, a dense LU of D without pivoting (the factor's order), D back into L and U. Returns 0, or 1 \
   with *bad = the column of a zero pivot; acc->unstable when an L entry exceeds 1 / tol. */ \
LCL__PRIVATE int lcl__klu_retail_##S(const lcl_klu_symbolic *Sy, lcl_klu_numeric *N, int64_t b, lcl__klu_acc *acc, int64_t *bad) { \
    int64_t j0 = N->tail[b], k2 = Sy->R[b + 1], t = k2 - j0, j, c, r, info; \
    T *X = (T *)N->X, *Lx = (T *)N->Lx, *Ux = (T *)N->Ux, *D = (T *)N->D; \
    double lim = 1 / N->tol; \
    /* the solves leave values in X; the sparse loop never reads a row before writing it (a row's \
       first entry in L + U is an entry of B), but the gather below reads every tail row */ \
    for (r = j0; r < k2; r++) X[r] = 0; \
    for (j = j0; j < k2; j++) { \
        T *dc = D + (j - j0) * t; \
        c = j - j0; \
        lcl__klu_recol_##S(N, j, X, acc, c); \
        for (r = 0; r < t; r++) { dc[r] = X[j0 + r]; X[j0 + r] = 0; } \
    } \
    info = lcl__klu_dense_lu(N, t, 0); \
    if (info) { *bad = j0 + info - 1; return 1; } \
    for (c = 0; c < t; c++) { \
        const T *dc = D + c * t; \
        T *ux = Ux + N->Up[j0 + c + 1] - c, *lx = Lx + N->Lp[j0 + c] - (c + 1); \
        double am, um = lcl__klu_colmax_##S(N, j0 + c, N->Up[j0 + c + 1] - c, &am); \
        for (r = 0; r < c; r++) { ux[r] = dc[r]; um = LCL__MAX(um, LCL__ABS((double)dc[r])); } \
        ((T *)N->Ud)[j0 + c] = dc[c]; \
        lcl__klu_acc_col(acc, am, um, LCL__ABS((double)dc[c])); \
        for (r = c + 1; r < t; r++) { \
            lx[r] = dc[r]; \
            if (LCL__ABS((double)dc[r]) > lim) acc->unstable = 1; \
        } \
    } \
    acc->flops += 2.0 / 3.0 * (double)t * (double)t * (double)t; \
    return 0; \
} \
/* The same factorization with the patterns and pivots fixed (Ci already pivoted): no search, no \
   allocation. Returns 0, or 1 with *bad = the column of a zero pivot; acc->unstable set when a \
   pivot fails the threshold test against its column. */ \
LCL__PRIVATE int lcl__klu_relu_##S(const lcl_klu_symbolic *Sy, lcl_klu_numeric *N, lcl__klu_acc *acc, int64_t *bad) { \
    int64_t b, j = 0, j1; \
    for (b = 0; b <= Sy->nblocks; b++) { \
        if (b < Sy->nblocks && N->tail[b] == Sy->R[b + 1]) continue;   /* no dense tail: joins the run */ \
        j1 = b < Sy->nblocks ? N->tail[b] : N->n; \
        while (j < j1) {   /* the columns of the blocks since the last tail, up to block b's tail */ \
            j = lcl__klu_re1_##S(N, j, j1, acc); \
            if (j < j1 && lcl__klu_recol_##S(N, j, (T *)N->X, acc, -1)) { *bad = j; return 1; } \
            j++; \
        } \
        if (b < Sy->nblocks) { \
            if (lcl__klu_retail_##S(Sy, N, b, acc, bad)) return 1; \
            j = Sy->R[b + 1]; \
        } \
    } \
    return 0; \
} \
/* relu on nt threads along N's schedule, without barriers: threads take the chunks in order \
   (a topological order), and a column waits until the columns it reads are done, so a thread \
   that the shared machine preempts holds up only what depends on its chunk. The dense tails \
   follow, one after another from this thread (retail may have its own team). The zero pivot \
   reported is the first the serial order meets: every column before it got its serial values. */ \
LCL__PRIVATE int lcl__klu_relu_omp_##S(const lcl_klu_symbolic *Sy, lcl_klu_numeric *N, int nt, lcl__klu_acc *acc, \
                                       int64_t *bad) { \
    int64_t b, first = N->n, next = 0; \
    double fl = acc->flops, g = acc->growth, dmin = acc->dmin, dmax = acc->dmax; \
    int un = acc->unstable; \
    unsigned ep = ++N->epoch; \
    (void)nt; \
    if (ep == 0) { memset(N->done, 0, (size_t)N->n * sizeof(unsigned)); ep = N->epoch = 1; } \
    LCL__OMP(omp parallel num_threads(nt) reduction(+ : fl) reduction(| : un) reduction(min : first, g, dmin) \
             reduction(max : dmax)) \
    { \
        int t = 0, tn = 1; \
        lcl__klu_acc a; \
        T *X; \
        lcl__klu_acc_init(&a); \
        LCL__OMP_TID(t, tn); \
        (void)tn; \
        X = (T *)N->X + (size_t)t * (size_t)N->n; \
        memset(X, 0, (size_t)N->n * sizeof(T));   /* the solves leave values; relu's argument that \
                                                     a row is written before read needs one thread */ \
        for (;;) { \
            int64_t c, q; \
            LCL__OMP(omp atomic capture) \
            c = next++; \
            if (c >= N->nchunk) break; \
            for (q = N->chunkp[c]; q < N->chunkp[c + 1]; q++) { \
                int64_t j = N->sched[q]; \
                lcl__klu_wait(N, j, ep); \
                if (lcl__klu_re1_##S(N, j, j + 1, &a) == j && lcl__klu_recol_##S(N, j, X, &a, -1)) first = LCL__MIN(first, j); \
                LCL__OMP(omp flush) \
                LCL__OMP(omp atomic write) \
                N->done[j] = ep; \
            } \
        } \
        /* this thread's share (without OpenMP, the whole) into the reductions */ \
        fl += a.flops; \
        un |= a.unstable; \
        g = LCL__MIN(g, a.growth); \
        dmin = LCL__MIN(dmin, a.dmin); \
        dmax = LCL__MAX(dmax, a.dmax); \
    } \
    acc->flops = fl; acc->unstable = un; acc->growth = g; acc->dmin = dmin; acc->dmax = dmax; \
    for (b = 0; b < Sy->nblocks && first >= N->tail[b]; b++) \
        if (N->tail[b] < Sy->R[b + 1] && lcl__klu_retail_##S(Sy, N, b, acc, &first)) break; \
    if (first < N->n) { *bad = first; return 1; } \
    return 0; \
} \
/* the statistics of factor's values (lcl__klu_acc): refactor gathers them as it goes */ \
LCL__PRIVATE void lcl__klu_stats_##S(const lcl_klu_numeric *N, lcl__klu_acc *acc) { \
    int64_t j; \
    for (j = 0; j < N->n; j++) { \
        double am, um = lcl__klu_colmax_##S(N, j, N->Up[j + 1], &am); \
        lcl__klu_acc_col(acc, am, um, LCL__ABS((double)((const T *)N->Ud)[j])); \
    } \
} \
/* A X = B (trans 0) or A^T X = B, one column at a time through the work vector wv (see the \
   section comment) */ \
LCL__PRIVATE void lcl__klu_solve_##S(const lcl_klu_symbolic *Sy, const lcl_klu_numeric *N, int64_t nrhs, void *Bv, \
                                     int64_t ldb, int trans, void *wv) { \
    const T *cx = (const T *)N->Cx, *Lx = (const T *)N->Lx, *Ux = (const T *)N->Ux, *Ud = (const T *)N->Ud; \
    const int32_t *Li = N->Li, *Ui = N->Ui, *Ci = N->Ci, *prow = N->prow, *Q = Sy->Q; \
    const int64_t *Lp = N->Lp, *Up = N->Up, *Cp = N->Cp, *Cd = N->Cd; \
    int64_t n = N->n, c, b, j, p; \
    T *w = (T *)wv; \
    for (c = 0; c < nrhs; c++) { \
        T *x = (T *)Bv + c * ldb; \
        if (!trans) { \
            for (j = 0; j < n; j++) w[j] = N->Rs ? x[prow[j]] / (T)N->Rs[prow[j]] : x[prow[j]]; \
            for (b = Sy->nblocks - 1; b >= 0; b--) { \
                int64_t k1 = Sy->R[b], k2 = Sy->R[b + 1]; \
                for (j = k1; j < k2; j++) { \
                    T xj = w[j]; \
                    if (xj != 0) \
                        for (p = Lp[j]; p < Lp[j + 1]; p++) w[Li[p]] -= Lx[p] * xj; \
                } \
                for (j = k2 - 1; j >= k1; j--) { \
                    T xj = w[j] /= Ud[j]; \
                    if (xj != 0) \
                        for (p = Up[j]; p < Up[j + 1]; p++) w[Ui[p]] -= Ux[p] * xj; \
                } \
                for (j = k1; j < k2; j++) { \
                    T xj = w[j]; \
                    if (xj != 0) \
                        for (p = Cp[j]; p < Cd[j]; p++) w[Ci[p]] -= cx[p] * xj; \
                } \
            } \
            for (j = 0; j < n; j++) x[Q[j]] = w[j]; \
        } else { \
            for (j = 0; j < n; j++) w[j] = x[Q[j]]; \
            for (b = 0; b < Sy->nblocks; b++) { \
                int64_t k1 = Sy->R[b], k2 = Sy->R[b + 1]; \
                for (j = k1; j < k2; j++) { \
                    T s = w[j]; \
                    for (p = Cp[j]; p < Cd[j]; p++) s -= cx[p] * w[Ci[p]]; \
                    for (p = Up[j]; p < Up[j + 1]; p++) s -= Ux[p] * w[Ui[p]]; \
                    w[j] = s / Ud[j]; \
                } \
                for (j = k2 - 1; j >= k1; j--) { \
                    T s = w[j]; \
                    for (p = Lp[j]; p < Lp[j + 1]; p++) s -= Lx[p] * w[Li[p]]; \
                    w[j] = s; \
                } \
            } \
            for (j = 0; j < n; j++) x[prow[j]] = N->Rs ? w[j] / (T)N->Rs[prow[j]] : w[j]; \
        } \
    } \
}
/* Iterative refinement of a solved column x of A X = B or A^T X = B by thread t (b saved in its
   part of N->rb): r = b - op(A) x from B's entries (A(prow[k], Q[j]) = B(k, j) Rs[prow[k]]),
   summed in double, then x += op(A) \ r; up to N->refine steps, fewer once the residual stops
   halving. */
#define LCL__DEF_KLU_REFINE(S, T) \
LCL__PRIVATE void lcl__klu_refine_##S(const lcl_klu_symbolic *Sy, const lcl_klu_numeric *N, T *x, int trans, int t) { \
    int64_t n = N->n, i, j, p; \
    size_t off = (size_t)t * (size_t)n; \
    const T *cx = (const T *)N->Cx, *b = (const T *)N->rb + off; \
    const int32_t *Ci = N->Ci, *prow = N->prow, *Q = Sy->Q; \
    T *r = (T *)N->rr + off; \
    double *acc = N->racc + off, prev = 0; \
    int step; \
    for (step = 0; step < N->refine; step++) { \
        double rn = 0; \
        if (!trans) { \
            for (i = 0; i < n; i++) acc[i] = (double)b[i]; \
            for (j = 0; j < n; j++) { \
                double xj = (double)x[Q[j]]; \
                if (xj != 0) \
                    for (p = N->Cp[j]; p < N->Cp[j + 1]; p++) { \
                        int32_t a = prow[Ci[p]]; \
                        acc[a] -= (double)cx[p] * (N->Rs ? N->Rs[a] : 1.0) * xj; \
                    } \
            } \
        } else \
            for (j = 0; j < n; j++) { \
                double sum = (double)b[Q[j]]; \
                for (p = N->Cp[j]; p < N->Cp[j + 1]; p++) { \
                    int32_t a = prow[Ci[p]]; \
                    sum -= (double)cx[p] * (N->Rs ? N->Rs[a] : 1.0) * (double)x[a]; \
                } \
                acc[Q[j]] = sum; \
            } \
        for (i = 0; i < n; i++) { r[i] = (T)acc[i]; rn = LCL__MAX(rn, LCL__ABS(acc[i])); } \
        if (rn == 0 || (step > 0 && rn > prev / 2)) break; \
        prev = rn; \
        lcl__klu_solve_##S(Sy, N, 1, r, n, trans, (T *)N->X + off); \
        for (i = 0; i < n; i++) x[i] += r[i]; \
    } \
}
LCL__DEF_KLU(d, double)
LCL__DEF_KLU(s, float)
LCL__DEF_KLU_REFINE(d, double)
LCL__DEF_KLU_REFINE(s, float)

/* the numeric object's statistics and refinement steps after a factor (acc NULL) or a refactor on
   the host (its acc) or the device: reciprocal pivot growth (min over columns of max |B(:, j) in
   its block| / max |U(:, j)|) and min |U_jj| / max |U_jj| */
LCL__PRIVATE void lcl__klu_after(lcl_klu_numeric *N, lcl__klu_acc *acc) {
    lcl__klu_acc a;
    if (!lcl__klu_cl_stats(N, &N->growth, &N->rcond)) {   /* else refactored on the device */
        if (!acc) {
            lcl__klu_acc_init(&a);
            if (N->dtype == LCL_F32) lcl__klu_stats_s(N, &a);
            else lcl__klu_stats_d(N, &a);
            acc = &a;
        }
        N->growth = acc->growth;
        N->rcond = acc->dmax > 0 ? acc->dmin / acc->dmax : 0;
    }
    N->refine = N->refine_opt < 0 ? 0 : N->refine_opt > 0 ? N->refine_opt : N->growth < 1e-3 ? 2 : 0;
}

/* Levels of the refactor's column DAG, for the parallel backends: column j reads every column k
   of U(:, j)'s pattern (k < j, same block), so level[j] = 1 + max level[k], 0 when U(:, j) is
   empty (every 1x1 block; independent blocks interleave). Columns of one level are independent.
   On return cols holds the columns level by level (ascending within one), lp[l] .. lp[l+1]-1
   those of level l, lev[j] the level of column j; returns the number of levels. lp needs n + 1
   entries, cols and lev n. */
LCL__PRIVATE int64_t lcl__klu_levels(const lcl_klu_numeric *N, int32_t *lev, int64_t *lp, int32_t *cols) {
    int64_t n = N->n, j, e, nl = 0;
    for (j = 0; j < n; j++) {
        int32_t l = 0;
        for (e = N->Up[j]; e < N->Up[j + 1]; e++) l = LCL__MAX(l, lev[N->Ui[e]] + 1);
        lev[j] = l;
        nl = LCL__MAX(nl, (int64_t)l + 1);
    }
    for (j = 0; j <= nl; j++) lp[j] = 0;
    for (j = 0; j < n; j++) lp[lev[j] + 1]++;
    for (j = 0; j < nl; j++) lp[j + 1] += lp[j];
    for (j = 0; j < n; j++) cols[lp[lev[j]]++] = (int32_t)j;
    for (j = nl; j > 0; j--) lp[j] = lp[j - 1];
    lp[0] = 0;
    return nl;
}

/* The OpenMP refactor's schedule: the levels without the dense tails' columns, as chunks taken in
   order. A level of at least minwork (entries touched) and minwidth columns is split into
   LCL__KLU_CHUNKS chunks a thread of even work; every run of consecutive smaller levels is one
   chunk, run by one thread in order (a level order is a topological order): most levels of
   circuit matrices are narrow, and a column handed to another thread each time would wait for
   the previous one. Less than minpar work in wide levels: no schedule (nchunk 0), as the threads'
   start and waits would cost more than they save. Factor passes LCL__KLU_WIDE, 2 columns per
   thread and LCL__KLU_PAR. */
#define LCL__KLU_WIDE 4096
#define LCL__KLU_CHUNKS 4
#define LCL__KLU_PAR ((int64_t)1 << 21)   /* entries touched: about 2 ms of one core's work */
LCL__PRIVATE lcl_status lcl__klu_schedule(lcl_context *ctx, const lcl_klu_symbolic *Sy, lcl_klu_numeric *N, int64_t minwork,
                                          int64_t minwidth, int64_t minpar) {
    int64_t n = N->n, nl, l, j, e, m = 0, b, nch = (int64_t)LCL__KLU_CHUNKS * N->nth, narrow = 0, wide = 0;
    int32_t *lev;
    int64_t *lp, *wc;
    lcl_status st = LCL_OK;
    lev = (int32_t *)lcl__alloc(ctx, "KLU levels", (size_t)n, sizeof(int32_t), &st);
    lp = (int64_t *)lcl__alloc(ctx, "KLU levels", (size_t)n + 1, sizeof(int64_t), &st);
    wc = (int64_t *)lcl__alloc(ctx, "KLU levels", (size_t)n + 1, sizeof(int64_t), &st);
    if (!lev || !lp || !wc || !(N->sched = (int32_t *)lcl__alloc(ctx, "KLU schedule", (size_t)n, sizeof(int32_t), &st)) ||
        !(N->chunkp = (int64_t *)lcl__alloc(ctx, "KLU schedule", (size_t)n + 1, sizeof(int64_t), &st)) ||
        !(N->done = (unsigned *)lcl__alloc(ctx, "KLU schedule", (size_t)n, sizeof(unsigned), &st))) {
        LCL_FREE(lev); LCL_FREE(lp); LCL_FREE(wc);
        return st;
    }
    memset(N->done, 0, (size_t)n * sizeof(unsigned));
    N->epoch = 0;
    nl = lcl__klu_levels(N, lev, lp, N->sched);
    for (b = 0; b < Sy->nblocks; b++)   /* tail columns out: lev = -1 */
        for (j = N->tail[b]; j < Sy->R[b + 1]; j++) lev[j] = -1;
    N->nchunk = 0;
    wc[0] = 0;   /* prefix sums of the work along sched */
    for (l = 0; l < nl; l++) {
        int64_t m0 = m, q, c;
        for (q = lp[l]; q < lp[l + 1]; q++) {
            int64_t w;
            j = N->sched[q];
            if (lev[j] < 0) continue;
            w = 2 + N->Cp[j + 1] - N->Cd[j] + 2 * (N->Lp[j + 1] - N->Lp[j]);
            for (e = N->Up[j]; e < N->Up[j + 1]; e++) w += 1 + N->Lp[N->Ui[e] + 1] - N->Lp[N->Ui[e]];
            N->sched[m] = (int32_t)j;
            wc[m + 1] = wc[m] + w;
            m++;
        }
        if (m == m0) continue;
        if (m - m0 < minwidth || wc[m] - wc[m0] < minwork) {   /* narrow: joins the open narrow chunk */
            if (!narrow) N->chunkp[N->nchunk++] = m0;
            narrow = 1;
            continue;
        }
        narrow = 0;
        wide += wc[m] - wc[m0];
        for (c = 0, q = m0; c < LCL__MIN(nch, m - m0); c++) {   /* chunk c from the first position reaching c/nch of the work */
            int64_t target = wc[m0] + (wc[m] - wc[m0]) / nch * c + (wc[m] - wc[m0]) % nch * c / nch;
            while (q < m && wc[q] < target) q++;
            if (c == 0 || (q < m && q > N->chunkp[N->nchunk - 1])) N->chunkp[N->nchunk++] = q;
        }
    }
    N->chunkp[N->nchunk] = m;
    if (wide < minpar) N->nchunk = 0;   /* refactor stays serial */
    N->pwork = wide;
    LCL_FREE(lev);
    LCL_FREE(lp);
    LCL_FREE(wc);
    return LCL_OK;
}

LCL_API void lcl_klu_numeric_free(lcl_klu_numeric *N) {
    if (!N) return;
    LCL_FREE(N->Lp); LCL_FREE(N->Up); LCL_FREE(N->Li); LCL_FREE(N->Ui);
    LCL_FREE(N->Lx); LCL_FREE(N->Ux); LCL_FREE(N->Ud);
    LCL_FREE(N->piv); LCL_FREE(N->pinv); LCL_FREE(N->prow);
    LCL_FREE(N->Cp); LCL_FREE(N->Cd); LCL_FREE(N->Ci); LCL_FREE(N->Cx); LCL_FREE(N->amap);
    LCL_FREE(N->Rs); LCL_FREE(N->X); LCL_FREE(N->tail); LCL_FREE(N->D); LCL_FREE(N->dpiv);
    LCL_FREE(N->rb); LCL_FREE(N->rr); LCL_FREE(N->racc);
    LCL_FREE(N->chunkp); LCL_FREE(N->sched); LCL_FREE(N->done);
    lcl__ws_free(&N->dws);
    lcl__klu_cl_free(N->cl);
    LCL_FREE(N);
}

/* arguments and pattern of factor and refactor */
LCL__PRIVATE lcl_status lcl__klu_check(lcl_context *ctx, const char *fn, const lcl_klu_symbolic *S, const lcl_csr *A) {
    if (!S || !A) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL %s", fn, S ? "matrix" : "symbolic");
    if (S->n < 1) return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: empty matrix", fn);
    if (A->dtype != LCL_F64 && A->dtype != LCL_F32)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown dtype %d", fn, (int)A->dtype);
    if (A->rows != A->cols || A->rows != S->n)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: A is %lld x %lld, the symbolic analysis is of order %lld", fn,
                         (long long)A->rows, (long long)A->cols, (long long)S->n);
    if (A->nnz != S->nnz || !A->ptr || (A->nnz && (!A->col || !A->val)) || lcl__klu_pattern_hash(A) != S->pattern_hash)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: A's pattern is not the one lcl_klu_analyze saw", fn);
    return LCL_OK;
}
/* values of B from A (scaling, NaN check) */
LCL__PRIVATE lcl_status lcl__klu_values(lcl_context *ctx, const char *fn, const lcl_csr *A, lcl_klu_numeric *N) {
    int64_t bad = A->dtype == LCL_F32 ? lcl__klu_gather_s(A, N) : lcl__klu_gather_d(A, N), i = 0;
    double v;
    if (bad < 0) return LCL_OK;
    while (A->ptr[i + 1] <= bad) i++;
    v = A->dtype == LCL_F32 ? (double)((const float *)A->val)[bad] : ((const double *)A->val)[bad];
    return lcl__fail(ctx, LCL_ERR_NAN, "%s: A(%lld,%d) is %s (0-based); the factorization needs finite values", fn,
                     (long long)i, (int)A->col[bad], v != v ? "NaN" : "Inf");
}
LCL__PRIVATE lcl_status lcl__klu_singular(lcl_context *ctx, const char *fn, const lcl_klu_symbolic *S, int64_t j,
                                          lcl_klu_info *info) {
    if (info) info->singular_col = S->Q[j];
    return lcl__fail(ctx, LCL_ERR_SINGULAR, "%s: zero pivot in column %lld of A (0-based): the matrix is singular", fn,
                     (long long)S->Q[j]);
}
/* KLU's and block KLU's numeric objects keep why their last refactor failed (failed[], "" when
   it did not): the factors are then part old, part new, and the solves refuse them */
LCL__PRIVATE void lcl__refactor_failed(lcl_context *ctx, lcl_status st, char *failed) {
    snprintf(failed, LCL__FAILED_MAX, "%.150s", ctx ? lcl_last_error(ctx) : lcl_status_string(st));
}
LCL__PRIVATE lcl_status lcl__no_factors(lcl_context *ctx, const char *fn, const char *failed) {
    return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: no factors to solve with: the last refactor failed (%s); refactor with "
                     "other values, or factor again", fn, failed);
}
LCL__PRIVATE void lcl__klu_info_fill(const lcl_klu_symbolic *S, const lcl_klu_numeric *N, double flops,
                                     lcl_klu_info *info) {
    info->n = S->n; info->nnz = S->nnz; info->blocks = S->nblocks; info->max_block = S->max_block;
    info->structural_rank = S->structural_rank; info->nnz_offdiag = S->nnz_offdiag;
    info->nnz_l = N->Lp[N->n] + N->n;
    info->nnz_u = N->Up[N->n] + N->n;
    info->flops = flops;
    info->singular_col = -1;
    info->growth = N->growth;
    info->rcond = N->rcond;
}

/* B = A(P, Q) as CSC (rows ascending, so each column's entries above its block come first) and
   the map from A's entries; LCL_ERR_INVALID_ARGUMENT when S is not a valid block triangular form */
LCL__PRIVATE lcl_status lcl__klu_pattern(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_csr *A,
                                         lcl_klu_numeric *N, int32_t *qinv) {
    int64_t n = S->n, i, j, p, b;
    int64_t *next = N->Cd;
    for (j = 0; j < n; j++) qinv[j] = -1;
    for (j = 0; j < n; j++) {
        if (S->Q[j] < 0 || S->Q[j] >= n || qinv[S->Q[j]] >= 0 || S->P[j] < 0 || S->P[j] >= n || N->pinv[S->P[j]] >= 0)
            return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_klu_factor: the symbolic's P or Q is not a permutation");
        qinv[S->Q[j]] = (int32_t)j;
        N->pinv[S->P[j]] = 1;
    }
    if (S->nblocks < 1 || S->R[0] != 0 || S->R[S->nblocks] != n)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_klu_factor: the symbolic's blocks do not cover 0..n-1");
    for (j = 0; j <= n; j++) N->Cp[j] = 0;
    for (p = 0; p < A->nnz; p++) N->Cp[qinv[A->col[p]] + 1]++;
    for (j = 0; j < n; j++) { N->Cp[j + 1] += N->Cp[j]; next[j] = N->Cp[j]; }
    for (i = 0; i < n; i++) {
        int64_t r = S->P[i];
        for (p = A->ptr[r]; p < A->ptr[r + 1]; p++) {
            int64_t q = next[qinv[A->col[p]]]++;
            N->Ci[q] = (int32_t)i;
            N->amap[p] = q;
        }
    }
    for (b = 0; b < S->nblocks; b++) {
        if (S->R[b + 1] <= S->R[b])
            return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_klu_factor: the symbolic's block %lld is empty", (long long)b);
        for (j = S->R[b]; j < S->R[b + 1]; j++) {
            for (p = N->Cp[j]; p < N->Cp[j + 1] && N->Ci[p] < S->R[b]; p++) {}
            N->Cd[j] = p;
            if (N->Cp[j + 1] > N->Cp[j] && N->Ci[N->Cp[j + 1] - 1] >= S->R[b + 1])
                return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "lcl_klu_factor: A(P, Q) has entries below diagonal block %lld",
                                 (long long)b);
        }
    }
    return LCL_OK;
}

LCL_API lcl_status lcl_klu_factor(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_csr *A, lcl_klu_numeric **out,
                                  lcl_klu_info *info) {
    const char *fn = "lcl_klu_factor";
    lcl_klu_numeric *N;
    lcl__klu_work w;
    lcl_status st = LCL_OK;
    size_t es;
    int64_t n, j, bad = -1;
    int r;
    if (out) *out = NULL;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL output", fn);
    if ((st = lcl__klu_check(ctx, fn, S, A)) != LCL_OK) return st;
    n = S->n;
    es = lcl__dsize(A->dtype);
    if (!(N = (lcl_klu_numeric *)lcl__alloc(ctx, "KLU numeric", 1, sizeof *N, &st))) return st;
    memset(N, 0, sizeof *N);
    memset(&w, 0, sizeof w);
    N->dtype = A->dtype;
    N->n = n;
    N->nnz = A->nnz;
    N->pattern_hash = S->pattern_hash;
    N->tol = S->opts.tol > 0 && S->opts.tol <= 1 ? S->opts.tol : 0.001;
    N->growth_limit = S->opts.growth_limit > 0 ? S->opts.growth_limit : 1e8;
    N->scale = S->opts.scale == LCL_KLU_SCALE_DEFAULT ? LCL_KLU_SCALE_MAX : S->opts.scale;
    N->nth = lcl__ctx_threads(ctx);
    if (!(N->Lp = (int64_t *)lcl__alloc(ctx, "KLU L pointers", (size_t)n + 1, sizeof(int64_t), &st)) ||
        !(N->Up = (int64_t *)lcl__alloc(ctx, "KLU U pointers", (size_t)n + 1, sizeof(int64_t), &st)) ||
        !(N->Ud = lcl__alloc(ctx, "KLU pivots", (size_t)n, es, &st)) ||
        !(N->piv = (int32_t *)lcl__alloc(ctx, "KLU pivot rows", (size_t)n, sizeof(int32_t), &st)) ||
        !(N->pinv = (int32_t *)lcl__alloc(ctx, "KLU pivot rows", (size_t)n, sizeof(int32_t), &st)) ||
        !(N->prow = (int32_t *)lcl__alloc(ctx, "KLU pivot rows", (size_t)n, sizeof(int32_t), &st)) ||
        !(N->Cp = (int64_t *)lcl__alloc(ctx, "KLU B pointers", (size_t)n + 1, sizeof(int64_t), &st)) ||
        !(N->Cd = (int64_t *)lcl__alloc(ctx, "KLU B pointers", (size_t)n, sizeof(int64_t), &st)) ||
        !(N->Ci = (int32_t *)lcl__alloc(ctx, "KLU B rows", (size_t)A->nnz, sizeof(int32_t), &st)) ||
        !(N->Cx = lcl__alloc(ctx, "KLU B values", (size_t)A->nnz, es, &st)) ||
        !(N->amap = (int64_t *)lcl__alloc(ctx, "KLU entry map", (size_t)A->nnz, sizeof(int64_t), &st)) ||
        (N->scale != LCL_KLU_SCALE_NONE && !(N->Rs = (double *)lcl__alloc(ctx, "KLU row scale", (size_t)n, sizeof(double), &st))) ||
        !(N->X = lcl__alloc(ctx, "KLU work vectors", (size_t)n * (size_t)N->nth, es, &st)) ||
        !(N->tail = (int64_t *)lcl__alloc(ctx, "KLU block tails", (size_t)S->nblocks, sizeof(int64_t), &st)) ||
        !(N->rb = lcl__alloc(ctx, "KLU refinement vectors", (size_t)n * (size_t)N->nth, es, &st)) ||
        !(N->rr = lcl__alloc(ctx, "KLU refinement vectors", (size_t)n * (size_t)N->nth, es, &st)) ||
        !(N->racc = (double *)lcl__alloc(ctx, "KLU refinement vectors", (size_t)n * (size_t)N->nth, sizeof(double), &st)) ||
        !(w.flag = (int32_t *)lcl__alloc(ctx, "KLU work", (size_t)n, sizeof(int32_t), &st)) ||
        !(w.stack = (int32_t *)lcl__alloc(ctx, "KLU work", (size_t)n, sizeof(int32_t), &st)) ||
        !(w.list = (int32_t *)lcl__alloc(ctx, "KLU work", (size_t)n, sizeof(int32_t), &st)) ||
        !(w.pos = (int64_t *)lcl__alloc(ctx, "KLU work", (size_t)n, sizeof(int64_t), &st)) ||
        !(w.trow = (int32_t *)lcl__alloc(ctx, "KLU work", (size_t)n, sizeof(int32_t), &st)) ||
        !(w.tmap = (int32_t *)lcl__alloc(ctx, "KLU work", (size_t)n, sizeof(int32_t), &st)))
        goto fail;
    for (j = 0; j < n; j++) N->pinv[j] = -1;
    for (j = 0; j < S->nblocks; j++) N->tail[j] = S->R[j + 1];
    N->dense = S->opts.dense < 0 ? 0 : S->opts.dense > 0 ? S->opts.dense : 0.8;
    N->dnt = lcl__dense_threads(ctx, LCL__KLU_TAIL_MIN * 4);
    N->refine_opt = S->opts.refine;
    if ((st = lcl__klu_pattern(ctx, S, A, N, w.flag)) != LCL_OK || (st = lcl__klu_values(ctx, fn, A, N)) != LCL_OK) goto fail;
    {   /* first capacity: the ordering's estimates, else twice the blocks' entries */
        double el = S->est_lnz > 0 ? S->est_lnz : (double)(A->nnz - S->nnz_offdiag) + (double)n;
        double eu = S->est_unz > 0 ? S->est_unz : el;
        if (!lcl__klu_grow(N, 0, (int64_t)LCL__MIN(el, 1e15), es) || !lcl__klu_grow(N, 1, (int64_t)LCL__MIN(eu, 1e15), es)) {
            st = lcl__oom(ctx, "KLU factors", (size_t)(el + eu) * (es + 4));
            goto fail;
        }
    }
    r = A->dtype == LCL_F32 ? lcl__klu_lu_s(ctx, S, N, &w, &bad) : lcl__klu_lu_d(ctx, S, N, &w, &bad);
    if (r == 1) { st = lcl__klu_singular(ctx, fn, S, bad, info); goto fail; }
    if (r == 2) {
        st = lcl__oom(ctx, "KLU factors", (size_t)(N->lcap + N->ucap) * (es + 4));
        goto fail;
    }
    for (j = 0; j < A->nnz; j++) N->Ci[j] = N->pinv[N->Ci[j]];
    for (j = 0; j < n; j++) N->prow[j] = S->P[N->piv[j]];
    if (N->nth > 1 && (st = lcl__klu_schedule(ctx, S, N, LCL__KLU_WIDE, 2 * N->nth, LCL__KLU_PAR)) != LCL_OK) goto fail;
    N->offpiv = w.offpiv;
    lcl__klu_after(N, NULL);
    if ((st = lcl__klu_cl_factored(ctx, S, N)) != LCL_OK) goto fail;
    if (info) {
        lcl__klu_info_fill(S, N, w.flops, info);
        info->off_diag_pivots = w.offpiv;
        info->refactor_unstable = 0;
    }
    *out = N;
    N = NULL;
fail:
    LCL_FREE(w.flag); LCL_FREE(w.stack); LCL_FREE(w.list); LCL_FREE(w.pos); LCL_FREE(w.trow); LCL_FREE(w.tmap);
    lcl_klu_numeric_free(N);
    return st;
}

LCL_API lcl_status lcl_klu_refactor(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_csr *A, lcl_klu_numeric *N,
                                    lcl_klu_info *info) {
    const char *fn = "lcl_klu_refactor";
    lcl_status st;
    lcl__klu_acc acc;
    int64_t bad = -1;
    int r, nt;
    if (!N) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL numeric", fn);
    if ((st = lcl__klu_check(ctx, fn, S, A)) != LCL_OK) return st;
    if (A->dtype != N->dtype || S->pattern_hash != N->pattern_hash || S->n != N->n)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: A's %s not the factors'", fn,
                         A->dtype != N->dtype ? "dtype is" : "pattern or symbolic analysis is");
    if ((st = lcl__klu_values(ctx, fn, A, N)) != LCL_OK) return st;
    lcl__klu_acc_init(&acc);
    r = -1;   /* without a device copy or an OpenCL context the device has nothing to do (nor mark stale) */
    if (N->cl || (ctx && ctx->backend == LCL_BACKEND_OPENCL)) r = lcl__klu_cl_refactor(ctx, S, N, &acc.flops, &acc.unstable, &bad, &st);
    if (r < 0) {
        nt = LCL__MIN(lcl__ctx_threads(ctx), N->nth);
        if (nt > 1 && N->nchunk > 0)
            r = N->dtype == LCL_F32 ? lcl__klu_relu_omp_s(S, N, nt, &acc, &bad) : lcl__klu_relu_omp_d(S, N, nt, &acc, &bad);
        else
            r = N->dtype == LCL_F32 ? lcl__klu_relu_s(S, N, &acc, &bad) : lcl__klu_relu_d(S, N, &acc, &bad);
    }
    if (r) {   /* the factors are part old, part new: the solves refuse them until a refactor succeeds */
        if (r == 1) st = lcl__klu_singular(ctx, fn, S, bad, info);
        if (info) info->rcond = 0;
        lcl__refactor_failed(ctx, st, N->failed);
        return st;
    }
    N->failed[0] = 0;
    lcl__klu_after(N, &acc);
    if (info) {
        lcl__klu_info_fill(S, N, acc.flops, info);
        info->off_diag_pivots = N->offpiv;
        info->refactor_unstable = acc.unstable || info->growth < 1 / N->growth_limit;
    }
    return LCL_OK;
}

/* thread t's share of the solves, through its own work vectors; each column refined when N->refine */
LCL__PRIVATE void lcl__klu_solve_cols(const lcl_klu_symbolic *S, const lcl_klu_numeric *N, int64_t nrhs, void *B, int64_t ldb,
                                      int trans, int t) {
    size_t es = lcl__dsize(N->dtype), off = (size_t)t * (size_t)N->n * es;
    void *w = (char *)N->X + off;
    int64_t c;
    if (!N->refine) {
        if (N->dtype == LCL_F32) lcl__klu_solve_s(S, N, nrhs, B, ldb, trans, w);
        else lcl__klu_solve_d(S, N, nrhs, B, ldb, trans, w);
        return;
    }
    for (c = 0; c < nrhs; c++) {   /* column by column: each keeps its right-hand side for the residual */
        char *x = (char *)B + (size_t)(c * ldb) * es;
        memcpy((char *)N->rb + off, x, (size_t)N->n * es);
        if (N->dtype == LCL_F32) {
            lcl__klu_solve_s(S, N, 1, x, ldb, trans, w);
            lcl__klu_refine_s(S, N, (float *)x, trans, t);
        } else {
            lcl__klu_solve_d(S, N, 1, x, ldb, trans, w);
            lcl__klu_refine_d(S, N, (double *)x, trans, t);
        }
    }
}
LCL__PRIVATE lcl_status lcl__klu_solve(lcl_context *ctx, const char *fn, const lcl_klu_symbolic *S, const lcl_klu_numeric *N,
                                       int64_t nrhs, void *B, int64_t ldb, int trans) {
    lcl_status st = LCL_OK;
    int nt;
    if (!S || !N || (!B && nrhs > 0)) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL argument", fn);
    if (nrhs < 0 || ldb < N->n || ldb < 1)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: nrhs %lld, ldb %lld (need nrhs >= 0, ldb >= n = %lld)", fn,
                         (long long)nrhs, (long long)ldb, (long long)N->n);
    if (S->n != N->n || S->pattern_hash != N->pattern_hash)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the symbolic analysis is not the factors'", fn);
    if (N->failed[0]) return lcl__no_factors(ctx, fn, N->failed);
    if (nrhs == 0) return LCL_OK;
    if (lcl__klu_cl_solve(ctx, S, N, nrhs, B, ldb, trans, &st)) return st;
    nt = (int)LCL__MIN((int64_t)LCL__MIN(lcl__ctx_threads(ctx), N->nth), nrhs);
    if (nt < 2) {
        lcl__klu_solve_cols(S, N, nrhs, B, ldb, trans, 0);
        return LCL_OK;
    }
    LCL__OMP(omp parallel num_threads(nt))
    {   /* the right-hand sides split evenly, thread t with its own work vectors */
        int t = 0, tn = 1;
        int64_t c0, c1;
        LCL__OMP_TID(t, tn);
        c0 = nrhs * t / tn;
        c1 = nrhs * (t + 1) / tn;
        lcl__klu_solve_cols(S, N, c1 - c0, (char *)B + (size_t)(c0 * ldb) * lcl__dsize(N->dtype), ldb, trans, t);
    }
    return LCL_OK;
}
LCL_API lcl_status lcl_klu_solve(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_klu_numeric *N, int64_t nrhs,
                                 void *B, int64_t ldb) {
    return lcl__klu_solve(ctx, "lcl_klu_solve", S, N, nrhs, B, ldb, 0);
}
LCL_API lcl_status lcl_klu_tsolve(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_klu_numeric *N, int64_t nrhs,
                                  void *B, int64_t ldb) {
    return lcl__klu_solve(ctx, "lcl_klu_tsolve", S, N, nrhs, B, ldb, 1);
}

/* >>klu-opencl ---------------------------------------------------------------------------------- */
/* The sparse LU's factors on the context's first OpenCL device (kernels/klu.cl). The copy is made
   by factor when the context refactors or solves there (tune.klu_refactor, klu_solve_min), else
   by the first lcl_klu_solve_vec; its structure and the levels of its three DAGs (refactor's
   columns, both solves' 2n nodes) are computed once, with it. A refactor runs on the device
   (values gathered and scaled on the host as ever, then uploaded; L, U, Ud computed there, the
   host's copies left stale) or on the host, which marks the device's values stale: the next device
   solve uploads them. Host-array solves run on the host (the device's newer values fetched once)
   unless nnz(L+U) reaches tune.klu_solve_min (0, never, by default). Device indices are int32. */
#ifndef LINALG_CL_NO_OPENCL
enum {  /* the copy's buffers: column-compressed L, U, B as on the host; row-compressed copies of
           L, U and F (the blocks above the diagonal) for A x = b, with their values' positions */
    LCL__KB_LP, LCL__KB_LI, LCL__KB_LX, LCL__KB_UP, LCL__KB_UI, LCL__KB_UX, LCL__KB_UD, LCL__KB_CP, LCL__KB_CD, LCL__KB_CI,
    LCL__KB_CX, LCL__KB_PROW, LCL__KB_Q, LCL__KB_RS,
    LCL__KB_LRP, LCL__KB_LRI, LCL__KB_LRM, LCL__KB_LRX, LCL__KB_URP, LCL__KB_URI, LCL__KB_URM, LCL__KB_URX,
    LCL__KB_FRP, LCL__KB_FRI, LCL__KB_FRM, LCL__KB_FRX,
    LCL__KB_CB, LCL__KB_RCOLS, LCL__KB_NODES0, LCL__KB_NODES1, LCL__KB_SLP0, LCL__KB_SLP1, LCL__KB_Z, LCL__KB_B, LCL__KB_W, LCL__KB_FLAGS, LCL__KB_STAT,
    LCL__KB_COUNT
};
struct lcl__klu_cl {
    cl_context cl;              /* of ctx->dev[0] when made: another context's solve is refused */
    cl_mem m[LCL__KB_COUNT];
    int dev_stale;              /* the host's values are newer (host refactor): upload before a solve */
    int host_stale;             /* the device's are newer (device refactor): fetched for host-array solves */
    int rows_stale;             /* the row-compressed copies are older than L, U, B */
    int64_t nnz[3];             /* of L, U, F */
    int ld, slots;              /* refactor scratch: slots of ld values (the largest block) */
    int32_t nrl, *rlp, *rwg;    /* refactor levels: offsets into RCOLS (nrl + 1), work-group size of each */
    int32_t nsl[2], *slp[2], *sv[2];   /* solve levels per trans: offsets into NODES (nsl + 1), lanes per node */
    double flops;               /* of a device refactor: every update counted */
    double growth, rcond;       /* of the last device refactor (stats downloaded) */
    void *hs;                   /* 2n values: those downloads */
};
/* entries b[j] .. e[j]-1 (indices i) of column or row j of a compressed pattern */
typedef struct lcl__klu_set { const int64_t *b, *e; const int32_t *i; } lcl__klu_set;

LCL__PRIVATE void lcl__klu_cl_free(lcl__klu_cl *D) {
    int i;
    if (!D) return;
    for (i = 0; i < LCL__KB_COUNT; i++) if (D->m[i]) LCL__CL->clReleaseMemObject(D->m[i]);
    for (i = 0; i < 2; i++) { LCL_FREE(D->slp[i]); LCL_FREE(D->sv[i]); }
    LCL_FREE(D->rlp); LCL_FREE(D->rwg); LCL_FREE(D->hs);
    LCL_FREE(D);
}
/* the device ctx computes on, when it can hold N's dtype */
LCL__PRIVATE lcl__device *lcl__klu_cl_dev(lcl_context *ctx, const lcl_klu_numeric *N) {
    if (!ctx || ctx->backend != LCL_BACKEND_OPENCL || ctx->ndev < 1) return NULL;
    if (N->dtype == LCL_F64 && !ctx->dev[0].info.fp64) return NULL;
    return &ctx->dev[0];
}
/* buffer m (made when absent) = bytes of host (none when NULL), in order on the compute queue */
LCL__PRIVATE lcl_status lcl__klu_put(lcl_context *ctx, lcl__device *d, cl_mem *m, const void *host, size_t bytes) {
    lcl_status st;
    cl_int e;
    if (!*m && (st = lcl__buffer(ctx, d, bytes, CL_MEM_READ_WRITE, m)) != LCL_OK) return st;
    if (!host || !bytes) return LCL_OK;
    e = LCL__CL->clEnqueueWriteBuffer(d->queue[0], *m, CL_TRUE, 0, bytes, host, 0, NULL, NULL);
    return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, "clEnqueueWriteBuffer", d->info.name);
}
/* the same for cnt int64 values as int32, through tmp */
LCL__PRIVATE lcl_status lcl__klu_put32(lcl_context *ctx, lcl__device *d, cl_mem *m, const int64_t *v, int64_t cnt, int32_t *tmp) {
    int64_t i;
    for (i = 0; i < cnt; i++) tmp[i] = (int32_t)v[i];
    return lcl__klu_put(ctx, d, m, tmp, (size_t)cnt * sizeof(int32_t));
}
/* The row-compressed copy of n x n pattern a (rows a.i): rp (n + 1), ci (the column of each
   entry, ascending within a row), map (its position in a); next: n scratch */
LCL__PRIVATE void lcl__klu_rows(int64_t n, lcl__klu_set a, int64_t *rp, int32_t *ci, int32_t *map, int64_t *next) {
    int64_t j, p;
    for (j = 0; j <= n; j++) rp[j] = 0;
    for (j = 0; j < n; j++) for (p = a.b[j]; p < a.e[j]; p++) rp[a.i[p] + 1]++;
    for (j = 0; j < n; j++) { rp[j + 1] += rp[j]; next[j] = rp[j]; }
    for (j = 0; j < n; j++)
        for (p = a.b[j]; p < a.e[j]; p++) {
            int64_t q = next[a.i[p]]++;
            ci[q] = (int32_t)j;
            map[q] = (int32_t)p;
        }
}
/* Levels of the solve DAG of klu.cl (trans 0: sets a, b, c = F's, L's, U's rows; 1: F's, U's,
   L's columns), one pass in a topological order: blocks last to first (trans: first to last),
   in a block the first-half nodes ascending, then the second-half ones descending; a node's level
   is 1 + the largest it reads. A block's last column is one fused node (2n + j, level in lev[n +
   j]): one level less per block, the chains of 1 x 1 blocks of circuit matrices halved. Then the
   scheduled nodes level by level into nodes (2n at most), offsets into *lp (nl + 1) and lanes per
   node (a power of two near the level's mean row length, at most lanes) into *lv, both allocated
   here. Returns nl, or -1 (*st) without memory. */
LCL__PRIVATE int32_t lcl__klu_solve_levels(lcl_context *ctx, const lcl_klu_symbolic *S, int trans, const lcl__klu_set *set, int lanes,
                                           int32_t *lev, int32_t *nodes, int32_t **lp, int32_t **lv, lcl_status *st) {
    int64_t n = S->n, b, j, p, i;
    int32_t nl = 0, l;
    for (b = 0; b < S->nblocks; b++) {
        int64_t bb = trans ? b : S->nblocks - 1 - b, k1 = S->R[bb], k2 = S->R[bb + 1];
        for (j = k1; j < k2; j++) {
            l = 0;
            for (p = set[0].b[j]; p < set[0].e[j]; p++) l = LCL__MAX(l, lev[n + set[0].i[p]] + 1);
            for (p = set[1].b[j]; p < set[1].e[j]; p++) l = LCL__MAX(l, lev[set[1].i[p]] + 1);
            lev[j] = j == k2 - 1 ? -1 : l;
            if (j == k2 - 1) { lev[n + j] = l; nl = LCL__MAX(nl, l + 1); }
        }
        for (j = k2 - 2; j >= k1; j--) {
            l = lev[j] + 1;
            for (p = set[2].b[j]; p < set[2].e[j]; p++) l = LCL__MAX(l, lev[n + set[2].i[p]] + 1);
            lev[n + j] = l;
            nl = LCL__MAX(nl, l + 1);
        }
    }
    *lp = (int32_t *)lcl__alloc(ctx, "KLU solve levels", (size_t)nl + 1, sizeof(int32_t), st);
    *lv = (int32_t *)lcl__alloc(ctx, "KLU solve levels", (size_t)nl + 1, sizeof(int32_t), st);
    if (!*lp || !*lv) return -1;
    for (l = 0; l <= nl; l++) (*lp)[l] = (*lv)[l] = 0;
    for (i = 0; i < 2 * n; i++) {   /* count the nodes and entries of each level */
        int64_t e = i < n ? set[0].e[i] - set[0].b[i] + set[1].e[i] - set[1].b[i] : set[2].e[i - n] - set[2].b[i - n];
        if (i < n && lev[i] < 0) continue;
        if (i >= n && lev[i - n] < 0) e = set[0].e[i - n] - set[0].b[i - n] + set[1].e[i - n] - set[1].b[i - n];
        (*lp)[lev[i] + 1]++;
        (*lv)[lev[i]] += (int32_t)e;
    }
    for (l = 0; l < nl; l++) {
        int32_t cnt = (*lp)[l + 1], v = 1;
        while (2 * v <= lanes && (int64_t)2 * v * cnt <= (*lv)[l]) v *= 2;
        (*lv)[l] = v;
        (*lp)[l + 1] += (*lp)[l];
    }
    for (i = 0; i < 2 * n; i++)
        if (i >= n || lev[i] >= 0) nodes[(*lp)[lev[i]]++] = (int32_t)(i >= n && lev[i - n] < 0 ? i + n : i);
    for (l = nl; l > 0; l--) (*lp)[l] = (*lp)[l - 1];
    (*lp)[0] = 0;
    return nl;
}

/* The copy of N's structure on device d (values: dev_stale, uploaded by lcl__klu_cl_sync) */
LCL__PRIVATE lcl_status lcl__klu_cl_make(lcl_context *ctx, lcl__device *d, const lcl_klu_symbolic *S, lcl_klu_numeric *N) {
    const int64_t n = N->n, *Lp = N->Lp, *Up = N->Up;
    const size_t es = lcl__dsize(N->dtype), i4 = sizeof(int32_t);
    lcl__klu_cl *D;
    lcl_status st = LCL_OK;
    int64_t *rp[3] = {NULL, NULL, NULL}, *next = NULL, *lp64 = NULL, j, b, e;
    int32_t *ci[3] = {NULL, NULL, NULL}, *map[3] = {NULL, NULL, NULL}, *lev = NULL, *nodes = NULL, *t32 = NULL, *cols = NULL, k;
    lcl__klu_set cs[3], rs[3];
    int t;
    if (n > 0x3fffffff || N->Cp[n] > 0x7fffffff || Lp[n] > 0x7fffffff || Up[n] > 0x7fffffff)
        return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "the sparse LU's factors on the device: n %lld, nnz(L) %lld, nnz(U) %lld, nnz(A) %lld "
                         "exceed the device code's 32-bit indices", (long long)n, (long long)Lp[n], (long long)Up[n], (long long)N->Cp[n]);
    if (!(D = (lcl__klu_cl *)lcl__alloc(ctx, "KLU device copy", 1, sizeof *D, &st))) return st;
    memset(D, 0, sizeof *D);
    D->cl = d->cl;
    D->dev_stale = D->rows_stale = 1;
    cs[0].b = N->Cp; cs[0].e = N->Cd; cs[0].i = N->Ci;     /* F's columns */
    cs[1].b = Up; cs[1].e = Up + 1; cs[1].i = N->Ui;
    cs[2].b = Lp; cs[2].e = Lp + 1; cs[2].i = N->Li;
    for (t = 0; t < 3; t++) {   /* row copies of F, L, U (rs[0..2]: trans 0's sets a, b, c) */
        int64_t m = t == 0 ? N->Cp[n] : t == 1 ? Lp[n] : Up[n];
        lcl__klu_set src = t == 0 ? cs[0] : t == 1 ? cs[2] : cs[1];
        D->nnz[t] = m;
        if (!(rp[t] = (int64_t *)lcl__alloc(ctx, "KLU row copies", (size_t)n + 1, sizeof(int64_t), &st)) ||
            !(ci[t] = (int32_t *)lcl__alloc(ctx, "KLU row copies", (size_t)m + 1, i4, &st)) ||
            !(map[t] = (int32_t *)lcl__alloc(ctx, "KLU row copies", (size_t)m + 1, i4, &st)) ||
            (!next && !(next = (int64_t *)lcl__alloc(ctx, "KLU work", (size_t)n + 1, sizeof(int64_t), &st))))
            goto done;
        lcl__klu_rows(n, src, rp[t], ci[t], map[t], next);
        rs[t].b = rp[t]; rs[t].e = rp[t] + 1; rs[t].i = ci[t];
    }
    D->nnz[0] = rp[0][n];   /* F: only the entries above the blocks */
    if (!(lev = (int32_t *)lcl__alloc(ctx, "KLU levels", 2 * (size_t)n, i4, &st)) ||
        !(nodes = (int32_t *)lcl__alloc(ctx, "KLU levels", 2 * (size_t)n, i4, &st)) ||
        !(t32 = (int32_t *)lcl__alloc(ctx, "KLU work", 2 * (size_t)n + 1, i4, &st)) ||
        !(lp64 = (int64_t *)lcl__alloc(ctx, "KLU levels", (size_t)n + 1, sizeof(int64_t), &st)) ||
        !(cols = (int32_t *)lcl__alloc(ctx, "KLU levels", (size_t)n, i4, &st)) ||
        !(D->hs = lcl__alloc(ctx, "KLU statistics", 2 * (size_t)n, es, &st)))
        goto done;
    /* structure: B, L, U as on the host, the permutations, the row copies */
    if ((st = lcl__klu_put32(ctx, d, &D->m[LCL__KB_CP], N->Cp, n + 1, t32)) != LCL_OK ||
        (st = lcl__klu_put32(ctx, d, &D->m[LCL__KB_CD], N->Cd, n, t32)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_CI], N->Ci, (size_t)N->Cp[n] * i4)) != LCL_OK ||
        (st = lcl__klu_put32(ctx, d, &D->m[LCL__KB_LP], Lp, n + 1, t32)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_LI], N->Li, (size_t)Lp[n] * i4)) != LCL_OK ||
        (st = lcl__klu_put32(ctx, d, &D->m[LCL__KB_UP], Up, n + 1, t32)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_UI], N->Ui, (size_t)Up[n] * i4)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_PROW], N->prow, (size_t)n * i4)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_Q], S->Q, (size_t)n * i4)) != LCL_OK)
        goto done;
    for (t = 0; t < 3; t++) {
        static const int kb[3] = {LCL__KB_FRP, LCL__KB_LRP, LCL__KB_URP};   /* then RI, RM, RX */
        if ((st = lcl__klu_put32(ctx, d, &D->m[kb[t]], rp[t], n + 1, t32)) != LCL_OK ||
            (st = lcl__klu_put(ctx, d, &D->m[kb[t] + 1], ci[t], (size_t)D->nnz[t] * i4)) != LCL_OK ||
            (st = lcl__klu_put(ctx, d, &D->m[kb[t] + 2], map[t], (size_t)D->nnz[t] * i4)) != LCL_OK ||
            (st = lcl__klu_put(ctx, d, &D->m[kb[t] + 3], NULL, (size_t)D->nnz[t] * es)) != LCL_OK)
            goto done;
    }
    /* values (written by lcl__klu_cl_sync or the refactor) and work */
    if ((st = lcl__klu_put(ctx, d, &D->m[LCL__KB_LX], NULL, (size_t)Lp[n] * es)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_UX], NULL, (size_t)Up[n] * es)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_UD], NULL, (size_t)n * es)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_CX], NULL, (size_t)N->Cp[n] * es)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_RS], NULL, (size_t)n * es)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_Z], NULL, 2 * (size_t)n * es)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_B], NULL, (size_t)n * es)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_FLAGS], NULL, 2 * i4)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_STAT], NULL, (size_t)n * es)) != LCL_OK)
        goto done;
    /* the solves' levels (lev: every node is written before it is read) */
    for (t = 0; t < 2; t++) {
        lcl__klu_set sets[3];
        sets[0] = t ? cs[0] : rs[0];
        sets[1] = t ? cs[1] : rs[1];
        sets[2] = t ? cs[2] : rs[2];
        if ((D->nsl[t] = lcl__klu_solve_levels(ctx, S, t, sets, (int)LCL__MIN((size_t)d->tune.klu_lanes_max, lcl__wg(d)), lev, nodes, &D->slp[t], &D->sv[t], &st)) < 0 ||
            (st = lcl__klu_put(ctx, d, &D->m[t ? LCL__KB_NODES1 : LCL__KB_NODES0], nodes, (size_t)D->slp[t][D->nsl[t]] * i4)) != LCL_OK ||
            (st = lcl__klu_put(ctx, d, &D->m[t ? LCL__KB_SLP1 : LCL__KB_SLP0], D->slp[t], ((size_t)D->nsl[t] + 1) * i4)) != LCL_OK)
            goto done;
    }
    /* the refactor's levels, each level's work-group (a power of two covering its longest loop:
       an L column read or written, B's column), the flops of one refactor, the block starts and
       the scratch: one slot of the largest block per work-group, several per compute unit */
    D->nrl = (int32_t)lcl__klu_levels(N, lev, lp64, cols);
    if (!(D->rlp = (int32_t *)lcl__alloc(ctx, "KLU levels", (size_t)D->nrl + 1, i4, &st)) ||
        !(D->rwg = (int32_t *)lcl__alloc(ctx, "KLU levels", (size_t)D->nrl + 1, i4, &st)))
        goto done;
    for (k = 0; k <= D->nrl; k++) D->rlp[k] = (int32_t)lp64[k];
    for (k = 0; k < D->nrl; k++) {
        int64_t m = 1, q;
        for (q = lp64[k]; q < lp64[k + 1]; q++) {
            j = cols[q];
            m = LCL__MAX(m, LCL__MAX(Lp[j + 1] - Lp[j], N->Cp[j + 1] - N->Cd[j]));
            D->flops += (double)(Lp[j + 1] - Lp[j]);
            for (e = Up[j]; e < Up[j + 1]; e++) {
                m = LCL__MAX(m, Lp[N->Ui[e] + 1] - Lp[N->Ui[e]]);
                D->flops += 2.0 * (double)(Lp[N->Ui[e] + 1] - Lp[N->Ui[e]]);
            }
        }
        for (D->rwg[k] = 1; D->rwg[k] < m && D->rwg[k] < d->tune.klu_wg_max; D->rwg[k] *= 2) {}
    }
    if ((st = lcl__klu_put(ctx, d, &D->m[LCL__KB_RCOLS], cols, (size_t)n * i4)) != LCL_OK) goto done;
    for (b = 0; b < S->nblocks; b++) {
        for (j = S->R[b]; j < S->R[b + 1]; j++) t32[j] = S->R[b];
        D->ld = LCL__MAX(D->ld, S->R[b + 1] - S->R[b]);
    }
    if ((st = lcl__klu_put(ctx, d, &D->m[LCL__KB_CB], t32, (size_t)n * i4)) != LCL_OK) goto done;
    {
        uint64_t room = LCL__MIN(d->info.max_alloc, d->info.global_mem / 8) / ((uint64_t)D->ld * es);
        D->slots = (int)LCL__MIN((uint64_t)LCL__MAX(d->info.compute_units, 1) * (d->info.type == LCL_DEVICE_GPU ? 16 : 4), room);
        if (D->slots < 1) {
            st = lcl__fail(ctx, LCL_ERR_DEVICE_MEMORY, "the sparse LU's refactor scratch (a block of %d) does not fit device '%s'", D->ld,
                           d->info.name);
            goto done;
        }
    }
    {   /* the scratch starts zero (the kernel leaves it so) */
        size_t bytes = (size_t)D->slots * (size_t)D->ld * es;
        void *z = lcl__alloc(ctx, "KLU scratch", bytes, 1, &st);
        if (!z) goto done;
        memset(z, 0, bytes);
        st = lcl__klu_put(ctx, d, &D->m[LCL__KB_W], z, bytes);
        LCL_FREE(z);
    }
done:
    for (t = 0; t < 3; t++) { LCL_FREE(rp[t]); LCL_FREE(ci[t]); LCL_FREE(map[t]); }
    LCL_FREE(next); LCL_FREE(lev); LCL_FREE(nodes); LCL_FREE(t32); LCL_FREE(lp64); LCL_FREE(cols);
    if (st == LCL_OK) N->cl = D;
    else lcl__klu_cl_free(D);
    return st;
}

/* N's copy on ctx's device (made when absent): NULL (*st set) when ctx does not compute on an
   OpenCL device for N's dtype, or the copy belongs to another context */
LCL__PRIVATE lcl__klu_cl *lcl__klu_cl_get(lcl_context *ctx, const char *fn, const lcl_klu_symbolic *S, lcl_klu_numeric *N, lcl__device **dp,
                                          lcl_status *st) {
    lcl__device *d = lcl__klu_cl_dev(ctx, N);
    *dp = d;
    if (!d) {
        *st = ctx && ctx->backend == LCL_BACKEND_OPENCL && ctx->ndev > 0
            ? lcl__fail(ctx, LCL_ERR_NO_FP64, "%s: device '%s' has no double precision (fp64): factor in single precision", fn, ctx->dev[0].info.name)
            : lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the context does not compute on an OpenCL device", fn);
        return NULL;
    }
    if (N->cl && N->cl->cl != d->cl) {
        *st = lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the factors' device copy belongs to another context: use that context, or "
                        "lcl_klu_factor with this one", fn);
        return NULL;
    }
    if (!N->cl && (*st = lcl__klu_cl_make(ctx, d, S, N)) != LCL_OK) return NULL;
    *st = LCL_OK;
    return N->cl;
}

/* Cx and the row scales in pivoted order ((T)Rs[prow[j]], through N->X) to the device */
LCL__PRIVATE lcl_status lcl__klu_cl_put_b(lcl_context *ctx, lcl__device *d, lcl_klu_numeric *N) {
    lcl__klu_cl *D = N->cl;
    size_t es = lcl__dsize(N->dtype);
    int64_t j;
    lcl_status st = lcl__klu_put(ctx, d, &D->m[LCL__KB_CX], N->Cx, (size_t)N->Cp[N->n] * es);
    if (st != LCL_OK || !N->Rs) return st;
    for (j = 0; j < N->n; j++) {
        if (N->dtype == LCL_F32) ((float *)N->X)[j] = (float)N->Rs[N->prow[j]];
        else ((double *)N->X)[j] = N->Rs[N->prow[j]];
    }
    return lcl__klu_put(ctx, d, &D->m[LCL__KB_RS], N->X, (size_t)N->n * es);
}
/* the host's values to the device when newer */
LCL__PRIVATE lcl_status lcl__klu_cl_sync(lcl_context *ctx, lcl__device *d, lcl_klu_numeric *N) {
    lcl__klu_cl *D = N->cl;
    size_t es = lcl__dsize(N->dtype);
    lcl_status st;
    if (!D->dev_stale) return LCL_OK;
    if ((st = lcl__klu_put(ctx, d, &D->m[LCL__KB_LX], N->Lx, (size_t)N->Lp[N->n] * es)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_UX], N->Ux, (size_t)N->Up[N->n] * es)) != LCL_OK ||
        (st = lcl__klu_put(ctx, d, &D->m[LCL__KB_UD], N->Ud, (size_t)N->n * es)) != LCL_OK ||
        (st = lcl__klu_cl_put_b(ctx, d, N)) != LCL_OK)
        return st;
    D->dev_stale = 0;
    D->rows_stale = 1;
    return LCL_OK;
}

/* one 1-D launch of k over global work-items in groups of local */
LCL__PRIVATE lcl_status lcl__klu_launch(lcl_context *ctx, lcl__device *d, cl_kernel k, size_t global, size_t local, const char *what) {
    cl_int e;
    global = (global + local - 1) / local * local;
    e = LCL__CL->clEnqueueNDRangeKernel(d->queue[0], k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (e == CL_SUCCESS) return LCL_OK;
    {
        char w[96];
        snprintf(w, sizeof w, "clEnqueueNDRangeKernel(%s)", what);
        return lcl__clfail(ctx, e, w, d->info.name);
    }
}
#define LCL__KLU_K(name) (N->dtype == LCL_F32 ? name "_f" : name "_d")

/* A x = b (trans 0) or A^T x = b on the device, b a device buffer of n values, in place; queued */
LCL__PRIVATE lcl_status lcl__klu_cl_run(lcl_context *ctx, lcl__device *d, const lcl_klu_symbolic *S, lcl_klu_numeric *N, cl_mem b,
                                        int trans) {
    lcl__klu_cl *D = N->cl;
    cl_kernel kg, kin, kout, ks, kv, kr;
    cl_mem *m = D->m;
    cl_int e = CL_SUCCESS, n = (cl_int)N->n, zero = 0, one = 1, tr = trans, rs_in = !trans && N->Rs, rs_out = trans && N->Rs;
    size_t wg = lcl__wg(d), rw = LCL__MIN(wg, (size_t)d->tune.klu_run_wg);
    lcl_status st;
    int32_t l;
    (void)S;
    if ((st = lcl__klu_cl_sync(ctx, d, N)) != LCL_OK || (st = lcl__kernel(ctx, d, N->dtype, LCL__KLU_K("lcl_klu_gather"), &kg)) != LCL_OK ||
        (st = lcl__kernel(ctx, d, N->dtype, LCL__KLU_K("lcl_klu_perm_in"), &kin)) != LCL_OK ||
        (st = lcl__kernel(ctx, d, N->dtype, LCL__KLU_K("lcl_klu_perm_out"), &kout)) != LCL_OK ||
        (st = lcl__kernel(ctx, d, N->dtype, LCL__KLU_K("lcl_klu_solve_level"), &ks)) != LCL_OK ||
        (st = lcl__kernel(ctx, d, N->dtype, LCL__KLU_K("lcl_klu_solve_level_vec"), &kv)) != LCL_OK ||
        (st = lcl__kernel(ctx, d, N->dtype, LCL__KLU_K("lcl_klu_solve_run"), &kr)) != LCL_OK)
        return st;
    if (!trans && D->rows_stale) {   /* the row copies' values: F's from B's, L's, U's */
        static const int src[3] = {LCL__KB_CX, LCL__KB_LX, LCL__KB_UX}, kb[3] = {LCL__KB_FRP, LCL__KB_LRP, LCL__KB_URP};
        int t;
        for (t = 0; t < 3; t++) {
            cl_int cnt = (cl_int)D->nnz[t];
            if (!cnt) continue;
            if ((e = lcl__argv(kg, 4, LCL__A(cnt), LCL__A(m[kb[t] + 2]), LCL__A(m[src[t]]), LCL__A(m[kb[t] + 3]))) != CL_SUCCESS)
                return lcl__clfail(ctx, e, "clSetKernelArg(lcl_klu_gather)", d->info.name);
            if ((st = lcl__klu_launch(ctx, d, kg, (size_t)cnt, wg, "lcl_klu_gather")) != LCL_OK) return st;
        }
        D->rows_stale = 0;
    }
    /* w = b permuted (and scaled); the levels; x = w back */
    e = lcl__argv(kin, 6, LCL__A(n), LCL__A(m[trans ? LCL__KB_Q : LCL__KB_PROW]), LCL__A(m[LCL__KB_RS]), LCL__A(rs_in),
                  LCL__A(b), LCL__A(m[LCL__KB_Z]));
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_klu_perm_in)", d->info.name);
    if ((st = lcl__klu_launch(ctx, d, kin, (size_t)n, wg, "lcl_klu_perm_in")) != LCL_OK) return st;
    {
        cl_kernel kk[3];
        int q;
        kk[0] = ks; kk[1] = kv; kk[2] = kr;
        for (q = 0; q < 3 && e == CL_SUCCESS; q++) {
            cl_kernel k = kk[q];
            if (trans)
                e = lcl__argv(k, 18, LCL__A(n), LCL__A(zero), LCL__A(zero), LCL__A(m[LCL__KB_NODES1]), LCL__A(m[LCL__KB_CP]),
                              LCL__A(m[LCL__KB_CD]), LCL__A(zero), LCL__A(m[LCL__KB_CI]), LCL__A(m[LCL__KB_CX]), LCL__A(m[LCL__KB_UP]),
                              LCL__A(m[LCL__KB_UI]), LCL__A(m[LCL__KB_UX]), LCL__A(m[LCL__KB_LP]), LCL__A(m[LCL__KB_LI]),
                              LCL__A(m[LCL__KB_LX]), LCL__A(m[LCL__KB_UD]), LCL__A(tr), LCL__A(m[LCL__KB_Z]));
            else
                e = lcl__argv(k, 18, LCL__A(n), LCL__A(zero), LCL__A(zero), LCL__A(m[LCL__KB_NODES0]), LCL__A(m[LCL__KB_FRP]),
                              LCL__A(m[LCL__KB_FRP]), LCL__A(one), LCL__A(m[LCL__KB_FRI]), LCL__A(m[LCL__KB_FRX]), LCL__A(m[LCL__KB_LRP]),
                              LCL__A(m[LCL__KB_LRI]), LCL__A(m[LCL__KB_LRX]), LCL__A(m[LCL__KB_URP]), LCL__A(m[LCL__KB_URI]),
                              LCL__A(m[LCL__KB_URX]), LCL__A(m[LCL__KB_UD]), LCL__A(tr), LCL__A(m[LCL__KB_Z]));
        }
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(kr, 18, sizeof(cl_mem), &m[trans ? LCL__KB_SLP1 : LCL__KB_SLP0]);
        if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_klu_solve_level)", d->info.name);
    }
    for (l = 0; l < D->nsl[trans]; l++) {
        cl_int off = D->slp[trans][l], cnt = D->slp[trans][l + 1] - off, v = D->sv[trans][l], l1 = l + 1;
        cl_kernel k = v > 1 ? kv : ks;
        /* consecutive narrow levels: one work-group of rw, a barrier between them */
        while (l1 < D->nsl[trans] && (size_t)cnt <= rw && (size_t)(D->slp[trans][l1 + 1] - D->slp[trans][l1]) <= rw) l1++;
        if (l1 > l + 1) {
            cl_int l0 = l;
            if ((e = lcl__argv(kr, 3, LCL__A(n), LCL__A(l0), LCL__A(l1))) != CL_SUCCESS)
                return lcl__clfail(ctx, e, "clSetKernelArg(lcl_klu_solve_run)", d->info.name);
            if ((st = lcl__klu_launch(ctx, d, kr, rw, rw, "lcl_klu_solve_run")) != LCL_OK) return st;
            l = l1 - 1;
            continue;
        }
        e = lcl__argv(k, 3, LCL__A(n), LCL__A(off), LCL__A(cnt));
        if (e == CL_SUCCESS && v > 1) e = LCL__CL->clSetKernelArg(k, 18, sizeof v, &v);
        if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_klu_solve_level)", d->info.name);
        if ((st = lcl__klu_launch(ctx, d, k, (size_t)cnt * (size_t)v, wg, "lcl_klu_solve_level")) != LCL_OK) return st;
    }
    e = lcl__argv(kout, 6, LCL__A(n), LCL__A(m[trans ? LCL__KB_PROW : LCL__KB_Q]), LCL__A(m[LCL__KB_RS]), LCL__A(rs_out),
                  LCL__A(m[LCL__KB_Z]), LCL__A(b));
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, "clSetKernelArg(lcl_klu_perm_out)", d->info.name);
    return lcl__klu_launch(ctx, d, kout, (size_t)n, wg, "lcl_klu_perm_out");
}

LCL__PRIVATE lcl_status lcl__klu_cl_factored(lcl_context *ctx, const lcl_klu_symbolic *S, lcl_klu_numeric *N) {
    lcl__device *d = lcl__klu_cl_dev(ctx, N);
    lcl_status st;
    if (!d || !(d->tune.klu_refactor || (d->tune.klu_solve_min > 0 && N->Lp[N->n] + N->Up[N->n] >= d->tune.klu_solve_min))) return LCL_OK;
    if (!lcl__klu_cl_get(ctx, "lcl_klu_factor", S, N, &d, &st)) return st;
    return lcl__klu_cl_sync(ctx, d, N);
}

LCL__PRIVATE int lcl__klu_cl_refactor(lcl_context *ctx, const lcl_klu_symbolic *S, lcl_klu_numeric *N, double *flops, int *unstable,
                                      int64_t *bad, lcl_status *st) {
    const char *fn = "lcl_klu_refactor";
    lcl__device *d = lcl__klu_cl_dev(ctx, N);
    lcl__klu_cl *D;
    cl_kernel k;
    cl_mem *m;
    cl_int e = CL_SUCCESS, flags[2] = {0x7fffffff, 0}, off0 = 0, ws = 1, ld;
    size_t es = lcl__dsize(N->dtype);
    float tolf = (float)N->tol;
    int64_t b, j;
    int32_t l;
    int tails = 0;
    for (b = 0; b < S->nblocks; b++) tails |= N->tail[b] < S->R[b + 1];
    /* dense tails are refactored on the host (lcl__klu_retail), the new values uploaded later */
    if (!d || !d->tune.klu_refactor || tails || (N->cl && N->cl->cl != d->cl)) {
        if (N->cl) { N->cl->dev_stale = 1; N->cl->host_stale = 0; }
        return -1;
    }
    if (!(D = lcl__klu_cl_get(ctx, fn, S, N, &d, st))) return 2;
    m = D->m;
    ld = D->ld;
    if ((*st = lcl__kernel(ctx, d, N->dtype, LCL__KLU_K("lcl_klu_refactor_level"), &k)) != LCL_OK ||
        (*st = lcl__klu_cl_put_b(ctx, d, N)) != LCL_OK || (*st = lcl__klu_put(ctx, d, &m[LCL__KB_FLAGS], flags, sizeof flags)) != LCL_OK)
        return 2;
    /* from here the device's values are the newest, whatever happens */
    D->dev_stale = 0;
    D->host_stale = D->rows_stale = 1;
    e = lcl__argv(k, 17, LCL__A(off0), LCL__A(off0), LCL__A(m[LCL__KB_RCOLS]), LCL__A(m[LCL__KB_CB]), LCL__A(m[LCL__KB_CP]),
                  LCL__A(m[LCL__KB_CD]), LCL__A(m[LCL__KB_CI]), LCL__A(m[LCL__KB_CX]), LCL__A(m[LCL__KB_LP]), LCL__A(m[LCL__KB_LI]),
                  LCL__A(m[LCL__KB_LX]), LCL__A(m[LCL__KB_UP]), LCL__A(m[LCL__KB_UI]), LCL__A(m[LCL__KB_UX]), LCL__A(m[LCL__KB_UD]),
                  LCL__A(ld), LCL__A(m[LCL__KB_W]));
    if (e == CL_SUCCESS)
        e = N->dtype == LCL_F32 ? LCL__CL->clSetKernelArg(k, 17, sizeof tolf, &tolf) : LCL__CL->clSetKernelArg(k, 17, sizeof N->tol, &N->tol);
    if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(k, 18, sizeof(cl_mem), &m[LCL__KB_FLAGS]);
    if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(k, 19, sizeof(cl_mem), &m[LCL__KB_STAT]);
    if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(k, 20, sizeof ws, &ws);
    if (e != CL_SUCCESS) { *st = lcl__clfail(ctx, e, "clSetKernelArg(lcl_klu_refactor_level)", d->info.name); return 2; }
    for (l = 0; l < D->nrl; l++) {
        cl_int off = D->rlp[l], cnt = D->rlp[l + 1] - off;
        size_t ls = (size_t)D->rwg[l], groups = (size_t)LCL__MIN(cnt, D->slots);
        if ((e = lcl__argv(k, 2, LCL__A(off), LCL__A(cnt))) != CL_SUCCESS) {
            *st = lcl__clfail(ctx, e, "clSetKernelArg(lcl_klu_refactor_level)", d->info.name);
            return 2;
        }
        if ((*st = lcl__klu_launch(ctx, d, k, groups * ls, ls, "lcl_klu_refactor_level")) != LCL_OK) return 2;
    }
    e = LCL__CL->clEnqueueReadBuffer(d->queue[0], m[LCL__KB_FLAGS], CL_TRUE, 0, sizeof flags, flags, 0, NULL, NULL);
    if (e == CL_SUCCESS && flags[0] == 0x7fffffff) {   /* growth and rcond: lcl__klu_after, refinement */
        e = LCL__CL->clEnqueueReadBuffer(d->queue[0], m[LCL__KB_STAT], CL_FALSE, 0, (size_t)N->n * es, D->hs, 0, NULL, NULL);
        if (e == CL_SUCCESS)
            e = LCL__CL->clEnqueueReadBuffer(d->queue[0], m[LCL__KB_UD], CL_TRUE, 0, (size_t)N->n * es, (char *)D->hs + (size_t)N->n * es, 0,
                                             NULL, NULL);
        if (e == CL_SUCCESS) {   /* as lcl__klu_stats */
            double g = 1, dmin = 0, dmax = 0;
            for (j = 0; j < N->n; j++) {
                double s = N->dtype == LCL_F32 ? (double)((float *)D->hs)[j] : ((double *)D->hs)[j];
                double u = LCL__ABS(N->dtype == LCL_F32 ? (double)((float *)D->hs)[N->n + j] : ((double *)D->hs)[N->n + j]);
                g = LCL__MIN(g, s);
                dmin = j == 0 ? u : LCL__MIN(dmin, u);
                dmax = LCL__MAX(dmax, u);
            }
            D->growth = g;
            D->rcond = dmax > 0 ? dmin / dmax : 0;
        }
    }
    if (e != CL_SUCCESS) { *st = lcl__clfail(ctx, e, "clEnqueueReadBuffer", d->info.name); return 2; }
    *flops += D->flops;
    *unstable = flags[1] != 0;
    if (flags[0] == 0x7fffffff) return 0;
    *bad = flags[0];
    return 1;
}

LCL__PRIVATE int lcl__klu_cl_stats(const lcl_klu_numeric *N, double *growth, double *rcond) {
    if (!N->cl || !N->cl->host_stale) return 0;
    *growth = N->cl->growth;
    *rcond = N->cl->rcond;
    return 1;
}

LCL__PRIVATE int lcl__klu_cl_solve(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_klu_numeric *Nc, int64_t nrhs, void *B,
                                   int64_t ldb, int trans, lcl_status *st) {
    const char *fn = trans ? "lcl_klu_tsolve" : "lcl_klu_solve";
    lcl_klu_numeric *N = (lcl_klu_numeric *)Nc;   /* the device copy is the object's cache: made or refreshed here */
    lcl__device *d = lcl__klu_cl_dev(ctx, N);
    lcl__klu_cl *D = N->cl;
    size_t bytes = (size_t)N->n * lcl__dsize(N->dtype);
    int64_t c;
    cl_int e;
    if (!(D && D->host_stale) && !(d && !N->refine && d->tune.klu_solve_min > 0 && N->Lp[N->n] + N->Up[N->n] >= d->tune.klu_solve_min))
        return 0;
    if (!(D = lcl__klu_cl_get(ctx, fn, S, N, &d, st))) {
        if (N->cl && N->cl->host_stale)
            *st = lcl__fail(ctx, *st, "%s (the factors were last refactored on an OpenCL device: solve with that context)", lcl_last_error(ctx));
        return 1;
    }
    if (N->refine || !(d->tune.klu_solve_min > 0 && N->Lp[N->n] + N->Up[N->n] >= d->tune.klu_solve_min)) {
        /* the host solves (refinement, or faster there): the device's values come over once */
        e = LCL__CL->clEnqueueReadBuffer(d->queue[0], D->m[LCL__KB_LX], CL_FALSE, 0, (size_t)N->Lp[N->n] * lcl__dsize(N->dtype), N->Lx, 0,
                                         NULL, NULL);
        if (e == CL_SUCCESS)
            e = LCL__CL->clEnqueueReadBuffer(d->queue[0], D->m[LCL__KB_UX], CL_FALSE, 0, (size_t)N->Up[N->n] * lcl__dsize(N->dtype), N->Ux, 0,
                                             NULL, NULL);
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueReadBuffer(d->queue[0], D->m[LCL__KB_UD], CL_TRUE, 0, bytes, N->Ud, 0, NULL, NULL);
        if (e != CL_SUCCESS) {
            LCL__CL->clFinish(d->queue[0]);
            *st = lcl__clfail(ctx, e, "clEnqueueReadBuffer", d->info.name);
            return 1;
        }
        D->host_stale = 0;
        return 0;
    }
    for (c = 0; c < nrhs && *st == LCL_OK; c++) {
        char *x = (char *)B + (size_t)(c * ldb) * lcl__dsize(N->dtype);
        e = LCL__CL->clEnqueueWriteBuffer(d->queue[0], D->m[LCL__KB_B], CL_FALSE, 0, bytes, x, 0, NULL, NULL);
        if (e != CL_SUCCESS) { *st = lcl__clfail(ctx, e, "clEnqueueWriteBuffer", d->info.name); break; }
        if ((*st = lcl__klu_cl_run(ctx, d, S, N, D->m[LCL__KB_B], trans)) != LCL_OK) break;
        e = LCL__CL->clEnqueueReadBuffer(d->queue[0], D->m[LCL__KB_B], CL_TRUE, 0, bytes, x, 0, NULL, NULL);
        if (e != CL_SUCCESS) *st = lcl__clfail(ctx, e, "clEnqueueReadBuffer", d->info.name);
    }
    if (*st != LCL_OK) LCL__CL->clFinish(d->queue[0]);   /* B is being read or written */
    return 1;
}
#else
LCL__PRIVATE void lcl__klu_cl_free(lcl__klu_cl *D) { (void)D; }
LCL__PRIVATE lcl_status lcl__klu_cl_factored(lcl_context *ctx, const lcl_klu_symbolic *S, lcl_klu_numeric *N) {
    (void)ctx; (void)S; (void)N;
    return LCL_OK;
}
LCL__PRIVATE int lcl__klu_cl_refactor(lcl_context *ctx, const lcl_klu_symbolic *S, lcl_klu_numeric *N, double *flops, int *unstable,
                                      int64_t *bad, lcl_status *st) {
    (void)ctx; (void)S; (void)N; (void)flops; (void)unstable; (void)bad; (void)st;
    return -1;
}
LCL__PRIVATE int lcl__klu_cl_stats(const lcl_klu_numeric *N, double *growth, double *rcond) {
    (void)N; (void)growth; (void)rcond;
    return 0;
}
LCL__PRIVATE int lcl__klu_cl_solve(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_klu_numeric *N, int64_t nrhs, void *B,
                                   int64_t ldb, int trans, lcl_status *st) {
    (void)ctx; (void)S; (void)N; (void)nrhs; (void)B; (void)ldb; (void)trans; (void)st;
    return 0;
}
#endif

LCL_API lcl_status lcl_klu_solve_vec(lcl_context *ctx, const lcl_klu_symbolic *S, const lcl_klu_numeric *N, lcl_trans trans, lcl_vec *b) {
    const char *fn = "lcl_klu_solve_vec";
    lcl_status st;
    if (!S || !N || !b) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL %s", fn, !S ? "symbolic" : !N ? "numeric" : "vector");
    if (trans != LCL_NO_TRANS && trans != LCL_TRANS) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown trans %d", fn, (int)trans);
    if (S->n != N->n || S->pattern_hash != N->pattern_hash)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the symbolic analysis is not the factors'", fn);
    if (N->failed[0]) return lcl__no_factors(ctx, fn, N->failed);
    if ((st = lcl__backend_check(ctx, b->backend, fn, "vector")) != LCL_OK) return st;
    if (b->dtype != N->dtype)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: b is %s, the factors are %s", fn, b->dtype == LCL_F32 ? "float" : "double",
                         N->dtype == LCL_F32 ? "float" : "double");
    if (b->n != N->n)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: b has %lld elements, the matrix is of order %lld", fn, (long long)b->n, (long long)N->n);
#ifndef LINALG_CL_NO_OPENCL
    if (b->backend == LCL_BACKEND_OPENCL) {
        lcl__device *d;
        lcl_klu_numeric *Nm = (lcl_klu_numeric *)N;   /* the device copy is the object's cache */
        if (!lcl__klu_cl_get(ctx, fn, S, Nm, &d, &st)) return st;
        if (b->nparts) return lcl__fail(ctx, LCL_ERR_UNSUPPORTED, "%s: b is partitioned over devices (lcl_vec_create_like); the factors "
                                        "live on device 0: use a vector of lcl_vec_create", fn);
        if (b->dev != 0 || b->cl != d->cl)
            return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: b was created with another context: use vectors of this context", fn);
        if ((st = lcl__klu_cl_run(ctx, d, S, Nm, b->buf, trans)) == LCL_OK) LCL__CL->clFlush(d->queue[0]);
        return st;
    }
#endif
    return lcl__klu_solve(ctx, fn, S, N, 1, b->host, N->n, trans);
}
#undef LCL__KLU_K

/* >>bklu ----------------------------------------------------------------------------------------- */
/* The block-aware sparse LU on the host (serial, OpenMP) and its driver. J is the block pattern as
   a scalar CSR (block rows), valued by one representative per block (its Frobenius norm / M,
   signed by its trace: J (x) B then gives J times a constant, so J's pivot order is the one KLU
   would pick for J). The scalar factors kn of J give everything structural: P, Q, BTF R, the
   pivoted row order, row scaling, and the patterns of L and U (dense tails off), U's columns in
   the topological order of their reach. Block column k's slots (M x M row-major blocks, X) are
   colp[k] .. colp[k+1]-1: its U blocks in kn's U order, the pivot block (L_kk U_kk, LAPACK style,
   row interchanges ipiv + k m), then its L blocks in kn's L order. With P_k the pivot block's
   interchanges, the factorization is: for j < k with U(j,k) != 0, in U's order,
       U(j,k) = L_jj^-1 P_j X_j,  X_i -= L(i,j) U(j,k) for each L block (i,j)
   then P_k X_k = L_kk U_kk and L(i,k) = X_i U_kk^-1. The blocks above the BTF diagonal blocks (F,
   per column fp, fi) are used by the solve only. */
struct lcl_bklu_symbolic {
    int64_t n, m, nnzb;
    int by_row;
    lcl_bklu_opts opts;
    lcl_klu_symbolic *ks;       /* of J's pattern */
    int64_t *jp;                /* n + 1: J's CSR pointers */
    int32_t *ji;                /* nnzb: J's CSR columns */
    int64_t *jblk;              /* nnzb: J's entry p is A's block jblk[p] */
    uint64_t hash;              /* of A's block pattern */
};
typedef struct lcl__bklu_cl lcl__bklu_cl;
struct lcl_bklu_numeric {
    lcl_dtype dtype;
    char failed[LCL__FAILED_MAX];   /* "": the factors are usable; else why the last refactor left none */
    int64_t n, m, mm;           /* mm = m * m */
    uint64_t hash;
    int nopivot;
    lcl_klu_numeric *kn;        /* J's scalar factors (structure only is used) */
    int64_t *colp;              /* n + 1: column k's slots */
    int64_t *ucnt;              /* n: column k's U blocks (its pivot block is slot colp[k] + ucnt[k]) */
    int64_t nslot;
    void *X;                    /* nslot * mm values */
    int64_t *fp;                /* n + 1: column k's F blocks fp[k] .. fp[k+1]-1 */
    int32_t *fi;                /* their pivoted block rows */
    void *F;
    int64_t *amap;              /* A's block e: slot amap[e] >= 0, or F block -1 - amap[e] */
    int32_t *ipiv;              /* n * m */
    int64_t nlev;
    int64_t *levp;              /* nlev + 1 */
    int32_t *levc;              /* n: the columns level by level */
    int32_t *slotrow;           /* nslot: the pivoted block row of each slot */
    int nth;
    lcl__ws *ws;                /* nth + 1: one per thread (its own getrf panel), then the team's */
    void *scr;                  /* (nth + 1) * mm: column-major copy of a pivot block */
    int64_t *pos;               /* nth * n: row -> slot of the column a thread works on, -1 */
    double flops;
    int64_t bad_k, bad_i;       /* the first singular pivot block and its row, -1 */
    lcl__bklu_cl *cl;           /* OpenCL: the device state (>>bklu-opencl), or NULL */
    double memfrac;             /* OpenCL, no opts.mem_limit: the share of each device's memory planned for (0: 0.9;
                                   lowered after a device refused memory within it) */
    int memplan;                /* the last run's plan found too little memory (a retry with less cannot help) */
};
/* the device path's hooks (>>bklu-opencl; stubs without OpenCL). run returns 1 when it factored
   (st then says how), 0 when the host should. */
LCL__PRIVATE void lcl__bklu_cl_free(lcl__bklu_cl *D);
LCL__PRIVATE int lcl__bklu_cl_run(lcl_context *ctx, const char *fn, const lcl_bklu_symbolic *S, lcl_bklu_numeric *N, const lcl_bmat *A,
                                  lcl_bklu_info *info, lcl_status *st);
LCL__PRIVATE lcl_status lcl__bklu_cl_fetch(lcl_context *ctx, lcl_bklu_numeric *N);
/* the block solve on the devices that hold the factors (W: the permuted, scaled right-hand sides,
   nm x nrhs); *done 0 when the host must solve (a factor evicted, or a device could not start) */
LCL__PRIVATE lcl_status lcl__bklu_cl_solve(lcl_context *ctx, const lcl_bklu_symbolic *S, const lcl_bklu_numeric *N, int64_t nrhs, void *W,
                                           int *done);

LCL__PRIVATE uint64_t lcl__bklu_hash(const lcl_bmat *A) {
    uint64_t h = (uint64_t)A->n * 0x9E3779B97F4A7C15u ^ (uint64_t)A->m * 0xBF58476D1CE4E5B9u ^ (uint64_t)A->by_row;
    int64_t i;
    for (i = 0; i <= A->n; i++) h += ((uint64_t)A->ptr[i] + 1) * ((uint64_t)i * 0xD6E8FEB86659FD93u | 1);
    for (i = 0; i < A->nnzb; i++) h += ((uint64_t)(uint32_t)A->idx[i] + 1) * ((uint64_t)i * 0x94D049BB133111EBu | 1);
    h ^= h >> 31;
    h *= 0x94D049BB133111EBu;
    return h ^ (h >> 29);
}
LCL__PRIVATE lcl_status lcl__bklu_check(lcl_context *ctx, const char *fn, const lcl_bmat *A) {
    int64_t i, p, mm;
    size_t bytes;
    if (!A) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL matrix", fn);
    if (A->dtype != LCL_F64 && A->dtype != LCL_F32) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: unknown dtype %d", fn, (int)A->dtype);
    if (A->n < 1 || A->m < 1)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: empty matrix (%lld block columns of size %lld)", fn, (long long)A->n, (long long)A->m);
    if (A->nnzb < 0) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: nnzb %lld < 0", fn, (long long)A->nnzb);
    if (A->n > INT32_MAX || !lcl__mul_i64(A->m, A->m, &mm) || !lcl__mul_i64(A->n, A->m, &p) || p > INT32_MAX ||
        !lcl__mul_size((size_t)A->nnzb, (size_t)mm, &bytes) || !lcl__mul_size(bytes, lcl__dsize(A->dtype), &bytes))
        return lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s: %lld block columns of size %lld overflow the index types", fn, (long long)A->n,
                         (long long)A->m);
    if (!A->ptr || (A->nnzb > 0 && (!A->idx || !A->val)))
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL block arrays", fn);
    if (A->ptr[0] != 0 || A->ptr[A->n] != A->nnzb)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: ptr[0] = %lld and ptr[n] = %lld, expected 0 and nnzb = %lld", fn, (long long)A->ptr[0],
                         (long long)A->ptr[A->n], (long long)A->nnzb);
    for (i = 0; i < A->n; i++) {
        if (A->ptr[i + 1] < A->ptr[i]) return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: ptr decreases at %lld", fn, (long long)i + 1);
        for (p = A->ptr[i]; p < A->ptr[i + 1]; p++) {
            if (A->idx[p] < 0 || A->idx[p] >= A->n)
                return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: block index %d out of range [0, %lld) at entry %lld", fn, (int)A->idx[p],
                                 (long long)A->n, (long long)p);
            if (p > A->ptr[i] && A->idx[p] <= A->idx[p - 1])
                return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: block indices of %s %lld are not sorted and unique", fn,
                                 A->by_row ? "row" : "column", (long long)i);
        }
    }
    return LCL_OK;
}

/* the segment of ptr[0..n] that holds entry e: the last i with ptr[i] <= e (so e < ptr[i+1]) */
LCL__PRIVATE int64_t lcl__bklu_seg(const int64_t *ptr, int64_t n, int64_t e) {
    int64_t lo = 0, hi = n;
    while (hi - lo > 1) {
        int64_t mid = (lo + hi) / 2;
        if (ptr[mid] <= e) lo = mid; else hi = mid;
    }
    return lo;
}
/* A's block e: its block row */
LCL__PRIVATE int64_t lcl__bklu_arow(const lcl_bmat *A, int64_t e) {
    return A->by_row ? lcl__bklu_seg(A->ptr, A->n, e) : A->idx[e];
}
/* A's block e holds NaN or Inf: the error, naming it */
LCL__PRIVATE lcl_status lcl__bklu_nan(lcl_context *ctx, const char *fn, const lcl_bmat *A, int64_t e) {
    int64_t s = lcl__bklu_seg(A->ptr, A->n, e);
    return lcl__fail(ctx, LCL_ERR_NAN, "%s: block (%lld, %lld) (block row, column; 0-based) holds NaN or Inf", fn,
                     (long long)(A->by_row ? s : A->idx[e]), (long long)(A->by_row ? A->idx[e] : s));
}

LCL_API void lcl_bklu_symbolic_free(lcl_bklu_symbolic *S) {
    if (!S) return;
    lcl_klu_symbolic_free(S->ks);
    LCL_FREE(S->jp);
    LCL_FREE(S->ji);
    LCL_FREE(S->jblk);
    LCL_FREE(S);
}
LCL_API void lcl_bklu_numeric_free(lcl_bklu_numeric *N) {
    int t;
    if (!N) return;
    lcl__bklu_cl_free(N->cl);
    lcl_klu_numeric_free(N->kn);
    LCL_FREE(N->colp); LCL_FREE(N->ucnt); LCL_FREE(N->X); LCL_FREE(N->fp); LCL_FREE(N->fi); LCL_FREE(N->F);
    LCL_FREE(N->amap); LCL_FREE(N->ipiv); LCL_FREE(N->levp); LCL_FREE(N->levc); LCL_FREE(N->slotrow);
    if (N->ws)
        for (t = 0; t <= N->nth; t++) lcl__ws_free(&N->ws[t]);
    LCL_FREE(N->ws); LCL_FREE(N->scr); LCL_FREE(N->pos);
    LCL_FREE(N);
}

/* J's CSR pattern from A's (by_row: A's own arrays; by columns: transposed), jblk mapping back */
LCL_API lcl_status lcl_bklu_analyze(lcl_context *ctx, const lcl_bmat *A, const lcl_bklu_opts *o, lcl_bklu_symbolic **out,
                                    lcl_bklu_info *info) {
    const char *fn = "lcl_bklu_analyze";
    lcl_bklu_symbolic *S = NULL;
    lcl_klu_info ki;
    lcl_csr J;
    lcl_status st;
    int64_t n, i, p;
    if (out) *out = NULL;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL output", fn);
    if ((st = lcl__bklu_check(ctx, fn, A)) != LCL_OK) return st;
    if (o && (o->devices < 0 || o->mem_limit < 0 || (int)o->schedule < 0 || o->schedule > LCL_BKLU_DYNAMIC))
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: opts: devices %d, mem_limit %lld, schedule %d out of range", fn, o->devices,
                         (long long)o->mem_limit, (int)o->schedule);
    n = A->n;
    if (!(S = (lcl_bklu_symbolic *)lcl__alloc(ctx, "block LU symbolic", 1, sizeof *S, &st))) return st;
    memset(S, 0, sizeof *S);
    S->n = n;
    S->m = A->m;
    S->nnzb = A->nnzb;
    S->by_row = A->by_row;
    if (o) S->opts = *o;        /* opts.klu.perm (LCL_KLU_USER) is read by the analysis, not kept */
    S->opts.klu.dense = -1;     /* the block structure needs L and U sparse throughout */
    /* partial pivoting on the blocks' norms by default: KLU's threshold (prefer the diagonal
       down to 0.001 of the column's largest) lets whole blocks grow by 1000 per step */
    if (!(S->opts.klu.tol > 0)) S->opts.klu.tol = 1.0;
    S->hash = lcl__bklu_hash(A);
    if (!(S->jp = (int64_t *)lcl__alloc(ctx, "block LU pattern", (size_t)n + 1, sizeof(int64_t), &st)) ||
        !(S->ji = (int32_t *)lcl__alloc(ctx, "block LU pattern", (size_t)A->nnzb + 1, sizeof(int32_t), &st)) ||
        !(S->jblk = (int64_t *)lcl__alloc(ctx, "block LU pattern", (size_t)A->nnzb + 1, sizeof(int64_t), &st)))
        goto fail;
    if (A->by_row) {
        for (i = 0; i <= n; i++) S->jp[i] = A->ptr[i];
        for (p = 0; p < A->nnzb; p++) {
            S->ji[p] = A->idx[p];
            S->jblk[p] = p;
        }
    } else {
        for (i = 0; i <= n; i++) S->jp[i] = 0;
        for (p = 0; p < A->nnzb; p++) S->jp[A->idx[p] + 1]++;
        for (i = 0; i < n; i++) S->jp[i + 1] += S->jp[i];
        for (i = 0; i < n; i++)       /* columns in order: each row's columns come out sorted */
            for (p = A->ptr[i]; p < A->ptr[i + 1]; p++) {
                int64_t q = S->jp[A->idx[p]]++;
                S->ji[q] = (int32_t)i;
                S->jblk[q] = p;
            }
        for (i = n; i > 0; i--) S->jp[i] = S->jp[i - 1];
        S->jp[0] = 0;
    }
    J.dtype = LCL_F64;
    J.rows = J.cols = n;
    J.nnz = A->nnzb;
    J.ptr = S->jp;
    J.col = S->ji;
    J.val = NULL;
    memset(&ki, 0, sizeof ki);
    st = lcl_klu_analyze(ctx, &J, &S->opts.klu, &S->ks, &ki);
    S->opts.klu.perm = NULL;
    if (st != LCL_OK) {
        if (info) info->blocks = 0;
        goto fail;
    }
    if (info) {
        memset(info, 0, sizeof *info);
        info->n = n;
        info->m = A->m;
        info->nnzb = A->nnzb;
        info->blocks = ki.blocks;
        info->singular_col = info->singular_row = info->singular_index = -1;
    }
    *out = S;
    return LCL_OK;
fail:
    lcl_bklu_symbolic_free(S);
    return st;
}

/* J's values: each block's representative (see >>bklu); NaN or Inf is reported by block */
LCL__PRIVATE lcl_status lcl__bklu_rep(lcl_context *ctx, const char *fn, const lcl_bklu_symbolic *S, const lcl_bmat *A, double *jv) {
    int64_t p, q, m = A->m, mm = m * m;
    for (p = 0; p < A->nnzb; p++) {
        int64_t e = S->jblk[p];
        double f = 0, tr = 0, s = 0;
        if (A->dtype == LCL_F32) {
            const float *b = (const float *)A->val + e * mm;
            for (q = 0; q < mm; q++) f += (double)b[q] * b[q];
            f = sqrt(f);
            for (q = 0; q < m; q++) tr += b[q * m + q];
        } else {    /* the squares scaled by the largest entry: 1e200 or 1e-170 neither overflow nor vanish */
            const double *b = (const double *)A->val + e * mm;
            for (q = 0; q < mm; q++) s = fabs(b[q]) > s ? fabs(b[q]) : s;
            if (!(s > 0 && s <= DBL_MAX)) s = 1;   /* zero, or Inf: f says so below */
            for (q = 0; q < mm; q++) f += (b[q] / s) * (b[q] / s);
            f = s * sqrt(f);
            for (q = 0; q < m; q++) tr += b[q * m + q];
        }
        if (f != f || f > DBL_MAX || tr != tr) return lcl__bklu_nan(ctx, fn, A, e);
        f /= (double)m;
        jv[p] = tr < 0 ? -f : f;
    }
    return LCL_OK;
}

/* levels of the column DAG: level(k) = 1 + the largest level of the columns j with U(j,k) != 0 */
LCL__PRIVATE lcl_status lcl__bklu_levels(lcl_context *ctx, lcl_bklu_numeric *N) {
    const lcl_klu_numeric *kn = N->kn;
    int64_t n = N->n, k, p, L = 0;
    int32_t *lev;
    lcl_status st = LCL_OK;
    if (!(lev = (int32_t *)lcl__alloc(ctx, "block LU levels", (size_t)n, sizeof(int32_t), &st))) return st;
    for (k = 0; k < n; k++) {
        int32_t l = 0;
        for (p = kn->Up[k]; p < kn->Up[k + 1]; p++) l = LCL__MAX(l, lev[kn->Ui[p]] + 1);
        lev[k] = l;
        L = LCL__MAX(L, (int64_t)l + 1);
    }
    N->nlev = L;
    if (!(N->levp = (int64_t *)lcl__alloc(ctx, "block LU levels", (size_t)L + 1, sizeof(int64_t), &st)) ||
        !(N->levc = (int32_t *)lcl__alloc(ctx, "block LU levels", (size_t)n, sizeof(int32_t), &st))) {
        LCL_FREE(lev);
        return st;
    }
    for (k = 0; k <= L; k++) N->levp[k] = 0;
    for (k = 0; k < n; k++) N->levp[lev[k] + 1]++;
    for (k = 0; k < L; k++) N->levp[k + 1] += N->levp[k];
    for (k = 0; k < n; k++) N->levc[N->levp[lev[k]]++] = (int32_t)k;
    for (k = L; k > 0; k--) N->levp[k] = N->levp[k - 1];
    N->levp[0] = 0;
    LCL_FREE(lev);
    return LCL_OK;
}

/* the block structure from J's scalar factors: slots, F blocks, A's blocks' destinations */
LCL__PRIVATE lcl_status lcl__bklu_structure(lcl_context *ctx, const lcl_bklu_symbolic *S, lcl_bklu_numeric *N) {
    const lcl_klu_numeric *kn = N->kn;
    int64_t n = N->n, k, p, c, s, nf = 0, *cslot = NULL, *pos = N->pos;
    size_t bytes;
    lcl_status st = LCL_OK;
    if (!(N->colp = (int64_t *)lcl__alloc(ctx, "block LU structure", (size_t)n + 1, sizeof(int64_t), &st)) ||
        !(N->ucnt = (int64_t *)lcl__alloc(ctx, "block LU structure", (size_t)n, sizeof(int64_t), &st)) ||
        !(N->fp = (int64_t *)lcl__alloc(ctx, "block LU structure", (size_t)n + 1, sizeof(int64_t), &st)))
        return st;
    N->colp[0] = N->fp[0] = 0;
    for (k = 0; k < n; k++) {
        N->ucnt[k] = kn->Up[k + 1] - kn->Up[k];
        N->colp[k + 1] = N->colp[k] + N->ucnt[k] + 1 + (kn->Lp[k + 1] - kn->Lp[k]);
        nf += kn->Cd[k] - kn->Cp[k];
        N->fp[k + 1] = nf;
    }
    N->nslot = N->colp[n];
    if (!lcl__mul_size((size_t)N->nslot, (size_t)N->mm, &bytes) || !lcl__mul_size(bytes, lcl__dsize(N->dtype), &bytes))
        return lcl__fail(ctx, LCL_ERR_OVERFLOW, "block LU: %lld blocks of L and U overflow size_t", (long long)N->nslot);
    if (!(N->X = lcl__alloc(ctx, "block LU factors", bytes, 1, &st)) ||
        !(N->F = lcl__alloc(ctx, "block LU off-diagonal blocks", (size_t)(nf ? nf : 1) * (size_t)N->mm, lcl__dsize(N->dtype), &st)) ||
        !(N->fi = (int32_t *)lcl__alloc(ctx, "block LU structure", (size_t)(nf ? nf : 1), sizeof(int32_t), &st)) ||
        !(N->amap = (int64_t *)lcl__alloc(ctx, "block LU structure", (size_t)S->nnzb + 1, sizeof(int64_t), &st)) ||
        !(N->slotrow = (int32_t *)lcl__alloc(ctx, "block LU structure", (size_t)N->nslot, sizeof(int32_t), &st)) ||
        !(cslot = (int64_t *)lcl__alloc(ctx, "block LU structure", (size_t)kn->nnz + 1, sizeof(int64_t), &st)))
        goto done;
    for (k = 0; k < n; k++) pos[k] = -1;
    for (k = 0; k < n; k++) {
        s = N->colp[k];
        for (p = kn->Up[k]; p < kn->Up[k + 1]; p++, s++) pos[kn->Ui[p]] = s, N->slotrow[s] = kn->Ui[p];
        pos[k] = s;
        N->slotrow[s++] = (int32_t)k;
        for (p = kn->Lp[k]; p < kn->Lp[k + 1]; p++, s++) pos[kn->Li[p]] = s, N->slotrow[s] = kn->Li[p];
        for (c = kn->Cp[k]; c < kn->Cd[k]; c++) {
            int64_t f = N->fp[k] + (c - kn->Cp[k]);
            N->fi[f] = kn->Ci[c];
            cslot[c] = -1 - f;
        }
        for (c = kn->Cd[k]; c < kn->Cp[k + 1]; c++) {
            if (pos[kn->Ci[c]] < 0) {
                st = lcl__fail(ctx, LCL_ERR_INTERNAL, "block LU: entry of J outside the pattern of L+U (column %lld)", (long long)k);
                goto done;
            }
            cslot[c] = pos[kn->Ci[c]];
        }
        for (p = kn->Up[k]; p < kn->Up[k + 1]; p++) pos[kn->Ui[p]] = -1;
        for (p = kn->Lp[k]; p < kn->Lp[k + 1]; p++) pos[kn->Li[p]] = -1;
        pos[k] = -1;
    }
    for (p = 0; p < S->nnzb; p++) N->amap[S->jblk[p]] = cslot[kn->amap[p]];
done:
    LCL_FREE(cslot);
    return st;
}

/* A's blocks, scaled by their rows, into the slots (zeroed first) and F; scopy: entries q0 .. q1 - 1
   of block e alone (1 where one is NaN or Inf); gather: every block from e0 on (F's alone unless
   xs), the first bad block or -1 */
#define LCL__DEF_BKLU(S, T) \
LCL__PRIVATE int lcl__bklu_scopy_##S(const lcl_bmat *A, lcl_bklu_numeric *N, int64_t e, int64_t q0, int64_t q1) { \
    const T *src = (const T *)A->val + e * N->mm; \
    int64_t a = N->amap[e], q; \
    T *dst = a >= 0 ? (T *)N->X + a * N->mm : (T *)N->F + (-1 - a) * N->mm; \
    double r = N->kn->Rs ? 1.0 / N->kn->Rs[lcl__bklu_arow(A, e)] : 1.0; \
    for (q = q0; q < q1; q++) dst[q] = (T)(src[q] * r); \
    for (q = q0; q < q1; q++) \
        if (!(src[q] - src[q] == 0)) return 1; \
    return 0; \
} \
LCL__PRIVATE int64_t lcl__bklu_gather_##S(const lcl_bmat *A, lcl_bklu_numeric *N, int xs, int nt, int64_t e0) { \
    int64_t e, bad = INT64_MAX; \
    (void)nt; \
    if (xs) memset(N->X, 0, (size_t)N->nslot * (size_t)N->mm * sizeof(T)); \
    /* by the team: the blocks off the diagonal of the block triangular form alone are gigabytes at M = 512 */ \
    LCL__OMP(omp parallel for num_threads(nt) schedule(dynamic, 4) reduction(min : bad)) \
    for (e = e0; e < A->nnzb; e++) \
        if ((xs || N->amap[e] < 0) && lcl__bklu_scopy_##S(A, N, e, 0, N->mm)) bad = LCL__MIN(bad, e); \
    return bad == INT64_MAX ? -1 : bad; \
}
LCL__DEF_BKLU(d, double)
LCL__DEF_BKLU(s, float)
#undef LCL__DEF_BKLU

/* the pivot block at slot s of column k: P_k D = L U in place (row-major, through a column-major
   copy for the blocked LU). Returns the 1-based singular row, or 0. */
LCL__PRIVATE int64_t lcl__bklu_pivot(const lcl_bklu_numeric *N, const lcl__dops *op, const lcl__ws *ws, int nt, void *scr, int64_t k,
                                     char *D) {
    int64_t m = N->m, i, j, bad;
    size_t es = op->es;
    int32_t *ipiv = N->ipiv + k * m;
    if (N->nopivot)
        for (i = 0; i < m; i++) ipiv[i] = (int32_t)i;
    for (j = 0; j < m; j++)     /* scr(i, j) = D(i, j): column-major copy */
        for (i = 0; i < m; i++) memcpy((char *)scr + (size_t)(i + j * m) * es, D + (size_t)(i * m + j) * es, es);
    if (N->nopivot) bad = lcl__lu_nopiv(op, ws, nt, m, (char *)scr, m);
    else {
        lcl__fact f;
        f.chol = f.upper = 0;
        f.ipiv = ipiv;
        bad = lcl__blocked(op, ws, nt, &f, m, (char *)scr, m, lcl__block(op, NULL, m));
    }
    for (j = 0; j < m; j++)
        for (i = 0; i < m; i++) memcpy(D + (size_t)(i * m + j) * es, (char *)scr + (size_t)(i + j * m) * es, es);
    return bad;
}

/* Block column k (see >>bklu), by nt threads of the team (nt > 1: called outside a parallel
   region, the blocks of one step split among them) or by thread t alone (nt == 1). Returns the
   1-based singular row of the pivot block, or 0. */
LCL__PRIVATE int64_t lcl__bklu_col(lcl_bklu_numeric *N, const lcl__dops *op, int t, int nt, int64_t k, double *flops) {
    int64_t m = N->m, mm = N->mm, s0 = N->colp[k], nu = N->ucnt[k], s, u, bad;
    size_t es = op->es, bs = (size_t)mm * es;
    char *X = (char *)N->X, *D = X + (size_t)(s0 + nu) * bs;
    const lcl__ws *ws = &N->ws[nt > 1 ? N->nth : t];
    int64_t *pos = N->pos + (int64_t)(nt > 1 ? 0 : t) * N->n;
    double m3 = (double)m * (double)m * (double)m, f = 0;
    for (s = s0; s < N->colp[k + 1]; s++) pos[N->slotrow[s]] = s;
    for (u = 0; u < nu; u++) {
        int64_t j = N->slotrow[s0 + u], lj = N->colp[j] + N->ucnt[j] + 1, nl = N->colp[j + 1] - lj;
        char *U = X + (size_t)(s0 + u) * bs, *Ljj = X + (size_t)(lj - 1) * bs;
        int q;
        if (!N->nopivot) op->laswp(m, U, m, 1, 0, m, N->ipiv + j * m, 0, 1);
        (void)q;
        /* U(j,k) = L_jj^-1 P_j X_j, its columns split among the threads */
        LCL__OMP(omp parallel for num_threads(nt) schedule(static, 1) if (nt > 1))
        for (q = 0; q < nt; q++) {
            int64_t c0 = m * q / nt, c1 = m * (q + 1) / nt;
            lcl__trsm(op, ws, &ws->t[q], 1, 1, m, c1 - c0, Ljj, m, 1, U + (size_t)c0 * es, m, 1);
        }
        {
            int64_t e;
            LCL__OMP(omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1 && nl > 1))
            for (e = 0; e < nl; e++) {
                int tid = 0;
#ifdef _OPENMP
                if (nt > 1) tid = omp_get_thread_num();
#endif
                lcl__gemm(op, ws, &ws->t[tid], m, m, m, -1.0, X + (size_t)(lj + e) * bs, m, 1, U, m, 1,
                          X + (size_t)pos[N->slotrow[lj + e]] * bs, m, 1, 0, 0);
            }
        }
        f += m3 * (1 + 2 * (double)nl);
    }
    bad = lcl__bklu_pivot(N, op, ws, nt, (char *)N->scr + (size_t)(nt > 1 ? N->nth : t) * bs, k, D);
    f += 2.0 / 3.0 * m3;
    if (!bad) {
        int64_t l0 = s0 + nu + 1, nl = N->colp[k + 1] - l0, e;
        /* L(i,k) U_kk = X_i: U_kk^T L(i,k)^T = X_i^T, U_kk^T lower through strides */
        LCL__OMP(omp parallel for num_threads(nt) schedule(dynamic, 1) if (nt > 1 && nl > 1))
        for (e = 0; e < nl; e++) {
            int tid = 0;
#ifdef _OPENMP
            if (nt > 1) tid = omp_get_thread_num();
#endif
            lcl__trsm(op, ws, &ws->t[tid], 1, 0, m, m, D, 1, m, X + (size_t)(l0 + e) * bs, 1, m);
        }
        f += m3 * (double)nl;
    }
    for (s = s0; s < N->colp[k + 1]; s++) pos[N->slotrow[s]] = -1;
    *flops += f;
    return bad;
}

/* Column k's flops (as lcl__bklu_col counts them, the pivot block's LU as m^3) */
LCL__PRIVATE double lcl__bklu_work(const lcl_bklu_numeric *N, int64_t k) {
    int64_t u, w = 1 + (N->colp[k + 1] - N->colp[k] - N->ucnt[k] - 1);
    for (u = 0; u < N->ucnt[k]; u++) {
        int64_t j = N->slotrow[N->colp[k] + u];
        w += 1 + 2 * (N->colp[j + 1] - N->colp[j] - N->ucnt[j] - 1);
    }
    return (double)w * (double)N->m * (double)N->m * (double)N->m;
}
/* a narrow level's column is split among the threads from this many flops: below, its parallel
   regions (two per U block, each waking the team) cost more than its blocks */
#ifndef LCL__BKLU_SPLIT_FLOPS
#define LCL__BKLU_SPLIT_FLOPS 1e6
#endif
/* the numeric phase on the host: level by level; a level of at least half as many columns as
   threads runs its columns on the threads, a narrower one each column on all of them (when it
   has the work for them) */
LCL__PRIVATE void lcl__bklu_host(lcl_bklu_numeric *N, int nth) {   /* nth <= N->nth: its work arrays */
    const lcl__dops *op = lcl__dops_for(N->dtype);
    int64_t l, first = -1, first_i = 0;
    double flops = 0;
    for (l = 0; l < N->nlev && first < 0; l++) {
        int64_t c0 = N->levp[l], cnt = N->levp[l + 1] - c0, c;
        if (nth > 1 && cnt >= LCL__MAX(2, nth / 2)) {
            LCL__OMP(omp parallel for num_threads(nth) schedule(dynamic, 1) reduction(+ : flops))
            for (c = 0; c < cnt; c++) {
                int t = 0;
                int64_t k = N->levc[c0 + c], bad;
#ifdef _OPENMP
                t = omp_get_thread_num();
#endif
                bad = lcl__bklu_col(N, op, t, 1, k, &flops);
                if (bad) {
                    LCL__OMP(omp critical(lcl__bklu_bad))
                    if (first < 0 || k < first) first = k, first_i = bad - 1;
                }
            }
        } else {
            for (c = 0; c < cnt && first < 0; c++) {
                int64_t k = N->levc[c0 + c];
                int64_t bad = lcl__bklu_col(N, op, 0, lcl__bklu_work(N, k) >= LCL__BKLU_SPLIT_FLOPS ? nth : 1, k, &flops);
                if (bad) first = k, first_i = bad - 1;
            }
        }
    }
    N->flops = flops;
    N->bad_k = first;
    N->bad_i = first_i;
}

LCL__PRIVATE lcl_status lcl__bklu_matches(lcl_context *ctx, const char *fn, const lcl_bklu_symbolic *S, const lcl_bmat *A) {
    lcl_status st;
    if (!S) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL symbolic", fn);
    if ((st = lcl__bklu_check(ctx, fn, A)) != LCL_OK) return st;
    if (A->n != S->n || A->m != S->m)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: A has %lld block columns of size %lld, the analysis saw %lld of size %lld", fn,
                         (long long)A->n, (long long)A->m, (long long)S->n, (long long)S->m);
    if (A->nnzb != S->nnzb || A->by_row != S->by_row || lcl__bklu_hash(A) != S->hash)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: A's block pattern is not the one lcl_bklu_analyze saw", fn);
    return LCL_OK;
}

/* host threads: the context's, or OpenMP's where auto found only CPU OpenCL devices (as dense) */
LCL__PRIVATE int lcl__bklu_threads(const lcl_context *ctx) {
#ifdef _OPENMP
    if (ctx && ctx->dense_cpu) {
        int t = ctx->num_threads > 0 ? ctx->num_threads : omp_get_max_threads();
        return t < 1 ? 1 : t;
    }
#endif
    return lcl__ctx_threads(ctx);
}

/* the device path's host copies (A's blocks into the ring, the off-diagonal blocks): the
   context's threads, else OpenMP's; one thread's memcpy, not the bus, limits them */
LCL__PRIVATE int lcl__bklu_team(const lcl_context *ctx) {
#ifdef _OPENMP
    int t = ctx && ctx->num_threads > 0 ? ctx->num_threads : omp_get_max_threads();
    return t < 1 ? 1 : t;
#else
    (void)ctx;
    return 1;
#endif
}

LCL__PRIVATE void lcl__bklu_info(const lcl_bklu_symbolic *S, const lcl_bklu_numeric *N, lcl_bklu_info *info) {
    int64_t k, nu = 0;
    if (!info) return;
    for (k = 0; k < N->n; k++) nu += N->ucnt[k] + 1;
    info->n = N->n;
    info->m = N->m;
    info->nnzb = S->nnzb;
    info->blocks = S->ks->nblocks;
    info->nnzb_u = nu;
    info->nnzb_l = N->nslot - nu;
    info->levels = N->nlev;
    info->flops = N->flops;
    if (!N->cl) info->devices = 0, info->transfers = info->evictions = 0;
    info->singular_col = info->singular_row = info->singular_index = -1;
}

/* values in, numeric phase (device or host), a singular pivot block reported */
LCL__PRIVATE lcl_status lcl__bklu_run(lcl_context *ctx, const char *fn, const lcl_bklu_symbolic *S, const lcl_bmat *A,
                                      lcl_bklu_numeric *N, lcl_bklu_info *info) {
    lcl_status st = LCL_OK;
    /* the device path reads A's blocks itself (and checks them there), and copies F (the solve's)
       on the host between its launches */
    int dev = ctx && ctx->backend == LCL_BACKEND_OPENCL && ctx->ndev > 0 && !ctx->dense_cpu, nt = lcl__bklu_threads(ctx);
    int64_t bad = dev ? -1 : A->dtype == LCL_F32 ? lcl__bklu_gather_s(A, N, 1, nt, 0) : lcl__bklu_gather_d(A, N, 1, nt, 0);
    if (info) lcl__bklu_info(S, N, info);
    if (bad >= 0) return lcl__bklu_nan(ctx, fn, A, bad);
    N->bad_k = -1;
    for (;;) {
        double f = N->memfrac > 0 ? N->memfrac : 0.9;
        N->memplan = 0;
        if (!lcl__bklu_cl_run(ctx, fn, S, N, A, info, &st)) {
            lcl__bklu_host(N, LCL__MIN(nt, N->nth));   /* a refactor's context may have more threads, or fewer */
            break;
        }
        if (st == LCL_OK) break;
        /* a device refused memory within the plan (a driver that allocates at first use: NVIDIA's,
           gen:circuit:3000 at M = 512 on one H200, planned at 90%): again, planning for three
           quarters as much, down to 30% (opts.mem_limit: the caller's cap stands) */
        if (st != LCL_ERR_DEVICE_MEMORY || N->memplan || S->opts.mem_limit > 0 || 0.75 * f < 0.3) return st;
        N->memfrac = 0.75 * f;
        lcl__log(ctx, LCL_LOG_WARN, "%s: %s; again, planning for %.0f%% of each device's memory", fn, lcl_last_error(ctx), 100 * N->memfrac);
        lcl_clear_error(ctx);
    }
    if (info) lcl__bklu_info(S, N, info);
    if (N->bad_k >= 0) {
        int64_t col = S->ks->Q[N->bad_k], row = N->kn->prow[N->bad_k];
        if (info) info->singular_col = col, info->singular_row = row, info->singular_index = N->bad_i;
        return lcl__fail(ctx, LCL_ERR_SINGULAR, "%s: the pivot block of block column %lld (block row %lld; 0-based) is singular at its row %lld",
                         fn, (long long)col, (long long)row, (long long)N->bad_i);
    }
    return LCL_OK;
}

LCL_API lcl_status lcl_bklu_factor(lcl_context *ctx, const lcl_bklu_symbolic *S, const lcl_bmat *A, lcl_bklu_numeric **out,
                                   lcl_bklu_info *info) {
    const char *fn = "lcl_bklu_factor";
    lcl_bklu_numeric *N = NULL;
    lcl_klu_info ki;
    lcl_csr J;
    double *jv = NULL;
    const lcl__dops *op;
    lcl_status st;
    int t;
    if (out) *out = NULL;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL output", fn);
    if ((st = lcl__bklu_matches(ctx, fn, S, A)) != LCL_OK) return st;
    if (info) {
        memset(info, 0, sizeof *info);
        info->singular_col = info->singular_row = info->singular_index = -1;
    }
    op = lcl__dops_for(A->dtype);
    if (!(N = (lcl_bklu_numeric *)lcl__alloc(ctx, "block LU numeric", 1, sizeof *N, &st))) return st;
    memset(N, 0, sizeof *N);
    N->dtype = A->dtype;
    N->n = S->n;
    N->m = S->m;
    N->mm = S->m * S->m;
    N->hash = S->hash;
    N->nopivot = S->opts.nopivot != 0;
    N->nth = lcl__bklu_threads(ctx);
    if (!(jv = (double *)lcl__alloc(ctx, "block LU representatives", (size_t)S->nnzb + 1, sizeof(double), &st))) goto fail;
    if ((st = lcl__bklu_rep(ctx, fn, S, A, jv)) != LCL_OK) goto fail;
    J.dtype = LCL_F64;
    J.rows = J.cols = S->n;
    J.nnz = S->nnzb;
    J.ptr = S->jp;
    J.col = S->ji;
    J.val = jv;
    memset(&ki, 0, sizeof ki);
    ki.singular_col = -1;
    if ((st = lcl_klu_factor(NULL, S->ks, &J, &N->kn, &ki)) != LCL_OK) {
        if (st == LCL_ERR_SINGULAR) {
            if (info) info->singular_col = ki.singular_col;
            st = lcl__fail(ctx, st, "%s: the matrix of the blocks' representatives (Frobenius norm / M, signed by the trace) is singular in "
                           "block column %lld: no block pivot order", fn, (long long)ki.singular_col);
        } else st = lcl__fail(ctx, st, "%s: the scalar factorization of the block pattern failed (%s)", fn, lcl_status_string(st));
        goto fail;
    }
    if (!(N->pos = (int64_t *)lcl__alloc(ctx, "block LU work", (size_t)N->n * (size_t)N->nth, sizeof(int64_t), &st))) goto fail;
    for (t = 0; t < N->nth; t++) {
        int64_t i;
        for (i = 0; i < N->n; i++) N->pos[(int64_t)t * N->n + i] = -1;
    }
    if ((st = lcl__bklu_structure(ctx, S, N)) != LCL_OK || (st = lcl__bklu_levels(ctx, N)) != LCL_OK) goto fail;
    if (!(N->ipiv = (int32_t *)lcl__alloc(ctx, "block LU pivots", (size_t)N->n * (size_t)N->m, sizeof(int32_t), &st)) ||
        !(N->scr = lcl__alloc(ctx, "block LU work", (size_t)(N->nth + 1) * (size_t)N->mm, op->es, &st)) ||
        !(N->ws = (lcl__ws *)lcl__alloc(ctx, "block LU work", (size_t)N->nth + 1, sizeof(lcl__ws), &st)))
        goto fail;
    memset(N->ws, 0, ((size_t)N->nth + 1) * sizeof(lcl__ws));
    for (t = 0; t <= N->nth; t++) {
        int nt = t < N->nth ? 1 : N->nth;
        if ((st = lcl__ws_alloc(ctx, fn, op, nt, N->m, lcl__round_up(N->m, op->mr) * lcl__block(op, NULL, N->m), &N->ws[t])) != LCL_OK)
            goto fail;
    }
    if ((st = lcl__bklu_run(ctx, fn, S, A, N, info)) != LCL_OK) goto fail;
    LCL_FREE(jv);
    *out = N;
    return LCL_OK;
fail:
    LCL_FREE(jv);
    lcl_bklu_numeric_free(N);
    return st;
}

LCL_API lcl_status lcl_bklu_refactor(lcl_context *ctx, const lcl_bklu_symbolic *S, const lcl_bmat *A, lcl_bklu_numeric *N,
                                     lcl_bklu_info *info) {
    const char *fn = "lcl_bklu_refactor";
    lcl_status st;
    if (!N) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL numeric", fn);
    if ((st = lcl__bklu_matches(ctx, fn, S, A)) != LCL_OK) return st;
    if (A->dtype != N->dtype || N->hash != S->hash)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the numeric object was factored from another pattern or dtype", fn);
    /* values are overwritten as they are checked, and the factors in place: a failure leaves none */
    if ((st = lcl__bklu_run(ctx, fn, S, A, N, info)) != LCL_OK) lcl__refactor_failed(ctx, st, N->failed);
    else N->failed[0] = 0;
    return st;
}

/* forward and back substitution with W = the right-hand sides, permuted and scaled */
LCL_API lcl_status lcl_bklu_solve(lcl_context *ctx, const lcl_bklu_symbolic *S, const lcl_bklu_numeric *N, int64_t nrhs,
                                  void *B, int64_t ldb) {
    const char *fn = "lcl_bklu_solve";
    int dev = 0;
    const lcl__dops *op;
    const lcl_klu_numeric *kn;
    const lcl__ws *ws;
    int64_t n, m, nm, k, b, s, f, r, c;
    size_t es, bs;
    char *W, *X;
    lcl_status st = LCL_OK;
    if (!S || !N) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL %s", fn, S ? "numeric" : "symbolic");
    if (N->hash != S->hash) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: the numeric object is not of this symbolic", fn);
    if (N->failed[0]) return lcl__no_factors(ctx, fn, N->failed);
    n = N->n;
    m = N->m;
    nm = n * m;
    if (nrhs < 0 || (nrhs > 0 && !B) || ldb < nm)
        return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: nrhs %lld, B %s, ldb %lld (needs >= %lld)", fn, (long long)nrhs, B ? "set" : "NULL",
                         (long long)ldb, (long long)nm);
    if (nrhs == 0) return LCL_OK;
    op = lcl__dops_for(N->dtype);
    es = op->es;
    bs = (size_t)N->mm * es;
    kn = N->kn;
    ws = &N->ws[0];
    X = (char *)N->X;
    if (!(W = (char *)lcl__alloc(ctx, "block LU solve work", (size_t)nm * (size_t)nrhs, es, &st))) return st;
    for (c = 0; c < nrhs; c++)
        for (k = 0; k < n; k++) {
            int64_t ar = kn->prow[k];
            double sc = kn->Rs ? 1.0 / kn->Rs[ar] : 1.0;
            for (r = 0; r < m; r++) {
                size_t src = (size_t)(c * ldb + ar * m + r), dst = (size_t)(c * nm + k * m + r);
                if (N->dtype == LCL_F32) ((float *)W)[dst] = (float)(((const float *)B)[src] * sc);
                else ((double *)W)[dst] = ((const double *)B)[src] * sc;
            }
        }
    /* factors left on the devices: solved there when each column's are on its owner, else the
       host's copy, fetched once (the object is their cache) */
    if ((st = lcl__bklu_cl_solve(ctx, S, N, nrhs, W, &dev)) != LCL_OK || (!dev && (st = lcl__bklu_cl_fetch(ctx, (lcl_bklu_numeric *)N)) != LCL_OK)) {
        LCL_FREE(W);
        return st;
    }
#define LCL__BW(k) (W + (size_t)(k) * (size_t)m * es)
    for (b = dev ? -1 : S->ks->nblocks - 1; b >= 0; b--) {
        int64_t k0 = S->ks->R[b], k1 = S->ks->R[b + 1];
        for (k = k0; k < k1; k++) {     /* forward: w_k = L_kk^-1 P_k w_k, then into the rows below */
            int64_t d = N->colp[k] + N->ucnt[k];
            if (!N->nopivot) op->laswp(nrhs, LCL__BW(k), 1, nm, 0, m, N->ipiv + k * m, 0, 1);
            lcl__trsm(op, ws, &ws->t[0], 1, 1, m, nrhs, X + (size_t)d * bs, m, 1, LCL__BW(k), 1, nm);
            for (s = d + 1; s < N->colp[k + 1]; s++)
                lcl__gemm(op, ws, &ws->t[0], m, nrhs, m, -1.0, X + (size_t)s * bs, m, 1, LCL__BW(k), 1, nm, LCL__BW(N->slotrow[s]), 1, nm,
                          0, 0);
        }
        for (k = k1 - 1; k >= k0; k--) {    /* back: w_k = U_kk^-1 w_k, then into the rows above */
            int64_t d = N->colp[k] + N->ucnt[k];
            lcl__trsm(op, ws, &ws->t[0], 0, 0, m, nrhs, X + (size_t)d * bs, m, 1, LCL__BW(k), 1, nm);
            for (s = N->colp[k]; s < d; s++)
                lcl__gemm(op, ws, &ws->t[0], m, nrhs, m, -1.0, X + (size_t)s * bs, m, 1, LCL__BW(k), 1, nm, LCL__BW(N->slotrow[s]), 1, nm,
                          0, 0);
        }
        for (k = k0; k < k1; k++)
            for (f = N->fp[k]; f < N->fp[k + 1]; f++)
                lcl__gemm(op, ws, &ws->t[0], m, nrhs, m, -1.0, (char *)N->F + (size_t)f * bs, m, 1, LCL__BW(k), 1, nm, LCL__BW(N->fi[f]), 1,
                          nm, 0, 0);
    }
#undef LCL__BW
    for (c = 0; c < nrhs; c++)
        for (k = 0; k < n; k++) {
            int64_t ac = S->ks->Q[k];
            memcpy((char *)B + (size_t)(c * ldb + ac * m) * es, W + (size_t)(c * nm + k * m) * es, (size_t)m * es);
        }
    LCL_FREE(W);
    return LCL_OK;
}

LCL_API lcl_status lcl_bmat_mv(const lcl_bmat *A, const void *x, void *y) {
    int64_t i, p, r, c, m, mm;
    if (!A || !x || !y || !A->ptr || (A->nnzb && (!A->idx || !A->val)) || A->n < 0 || A->m < 1 ||
        (A->dtype != LCL_F64 && A->dtype != LCL_F32))
        return LCL_ERR_INVALID_ARGUMENT;
    m = A->m;
    mm = m * m;
    memset(y, 0, (size_t)(A->n * m) * lcl__dsize(A->dtype));
    for (i = 0; i < A->n; i++)
        for (p = A->ptr[i]; p < A->ptr[i + 1]; p++) {
            int64_t br = A->by_row ? i : A->idx[p], bc = A->by_row ? A->idx[p] : i;
            if (br < 0 || br >= A->n || bc < 0 || bc >= A->n) return LCL_ERR_DIMENSION;
            for (r = 0; r < m; r++) {
                double acc = 0;
                if (A->dtype == LCL_F32) {
                    const float *a = (const float *)A->val + p * mm + r * m, *xv = (const float *)x + bc * m;
                    for (c = 0; c < m; c++) acc += (double)a[c] * xv[c];
                    ((float *)y)[br * m + r] += (float)acc;
                } else {
                    const double *a = (const double *)A->val + p * mm + r * m, *xv = (const double *)x + bc * m;
                    for (c = 0; c < m; c++) acc += a[c] * xv[c];
                    ((double *)y)[br * m + r] += acc;
                }
            }
        }
    return LCL_OK;
}

LCL_API lcl_status lcl_bmat_from_csr(lcl_context *ctx, const lcl_csr *A, int64_t m, lcl_bmat *out) {
    static const char *fn = "lcl_bmat_from_csr";
    int64_t nb, I, r, k, nnzb = 0, *mark = NULL, mm;
    size_t es;
    lcl_status st;
    if (!out) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: NULL destination", fn);
    memset(out, 0, sizeof *out);
    if ((st = lcl__csr_check(ctx, A, fn)) != LCL_OK) return st;
    if (m < 1 || m > 65536) return lcl__fail(ctx, LCL_ERR_INVALID_ARGUMENT, "%s: block size %lld outside 1..65536", fn, (long long)m);
    if (A->rows != A->cols) return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: A is %lld x %lld, not square", fn, (long long)A->rows, (long long)A->cols);
    if (A->rows % m)
        return lcl__fail(ctx, LCL_ERR_DIMENSION, "%s: the order %lld is not a multiple of the block size %lld", fn, (long long)A->rows, (long long)m);
    nb = A->rows / m, mm = m * m, es = lcl__dsize(A->dtype);
    /* mark[J]: the last block row that met block column J, then (second pass) J's place in it */
    if (!(mark = (int64_t *)lcl__alloc(ctx, "block marks", (size_t)nb + 1, sizeof(int64_t), &st)) ||
        !(out->ptr = (int64_t *)lcl__alloc(ctx, "block row pointers", (size_t)nb + 1, sizeof(int64_t), &st)))
        goto fail;
    for (I = 0; I < nb; I++) mark[I] = -1;
    for (I = 0; I < nb; I++) {
        out->ptr[I] = nnzb;
        for (r = I * m; r < (I + 1) * m; r++)
            for (k = A->ptr[r]; k < A->ptr[r + 1]; k++)
                if (mark[A->col[k] / m] != I) mark[A->col[k] / m] = I, nnzb++;
    }
    out->ptr[nb] = nnzb;
    if (nnzb > 0 && (uint64_t)nnzb > (uint64_t)SIZE_MAX / es / (uint64_t)mm) {
        st = lcl__fail(ctx, LCL_ERR_OVERFLOW, "%s: %lld blocks of %lld x %lld overflow size_t", fn, (long long)nnzb, (long long)m, (long long)m);
        goto fail;
    }
    if (!(out->idx = (int32_t *)lcl__alloc(ctx, "block columns", (size_t)nnzb + 1, sizeof(int32_t), &st)) ||
        !(out->val = lcl__alloc(ctx, "block values", (size_t)nnzb * (size_t)mm + 1, es, &st)))
        goto fail;
    memset(out->val, 0, ((size_t)nnzb * (size_t)mm + 1) * es);
    for (I = 0; I < nb; I++) mark[I] = -1;
    for (I = 0; I < nb; I++) {
        int64_t p0 = out->ptr[I], n = 0, q;
        int32_t *cols = out->idx + p0;
        for (r = I * m; r < (I + 1) * m; r++)
            for (k = A->ptr[r]; k < A->ptr[r + 1]; k++)
                if (mark[A->col[k] / m] < p0) mark[A->col[k] / m] = p0, cols[n++] = (int32_t)(A->col[k] / m);
        qsort(cols, (size_t)n, sizeof *cols, lcl__i32_cmp);
        for (q = 0; q < n; q++) mark[cols[q]] = p0 + q;     /* (>= p0: this block row's) */
        for (r = I * m; r < (I + 1) * m; r++)
            for (k = A->ptr[r]; k < A->ptr[r + 1]; k++) {
                size_t at = (size_t)mark[A->col[k] / m] * (size_t)mm + (size_t)((r - I * m) * m + A->col[k] % m);
                if (A->dtype == LCL_F32) ((float *)out->val)[at] = ((const float *)A->val)[k];
                else ((double *)out->val)[at] = ((const double *)A->val)[k];
            }
    }
    LCL_FREE(mark);
    out->n = nb, out->m = m, out->nnzb = nnzb, out->dtype = A->dtype, out->by_row = 1;
    return LCL_OK;
fail:
    LCL_FREE(mark);
    lcl_bmat_free(out);
    return st;
}
LCL_API void lcl_bmat_free(lcl_bmat *B) {
    if (!B) return;
    LCL_FREE(B->ptr);
    LCL_FREE(B->idx);
    LCL_FREE(B->val);
    memset(B, 0, sizeof *B);
}

#ifdef LINALG_CL_NO_OPENCL
LCL__PRIVATE void lcl__bklu_cl_free(lcl__bklu_cl *D) { (void)D; }
LCL__PRIVATE int lcl__bklu_cl_run(lcl_context *ctx, const char *fn, const lcl_bklu_symbolic *S, lcl_bklu_numeric *N, const lcl_bmat *A,
                                  lcl_bklu_info *info, lcl_status *st) {
    (void)ctx; (void)fn; (void)S; (void)N; (void)A; (void)info; (void)st;
    return 0;
}
LCL__PRIVATE lcl_status lcl__bklu_cl_fetch(lcl_context *ctx, lcl_bklu_numeric *N) {
    (void)ctx; (void)N;
    return LCL_OK;
}
LCL__PRIVATE lcl_status lcl__bklu_cl_solve(lcl_context *ctx, const lcl_bklu_symbolic *S, const lcl_bklu_numeric *N, int64_t nrhs, void *W,
                                           int *done) {
    (void)ctx; (void)S; (void)N; (void)nrhs; (void)W;
    *done = 0;
    return LCL_OK;
}
#else
/* >>bklu-opencl ---------------------------------------------------------------------------------- */
/* The block LU on the context's devices (kernels/bklu.cl). Each device holds M x M frames in up to
   four arena buffers; a slot of the factors (>>bklu) lives in a frame while a device needs it.
   Columns run level by level of the column DAG; each level's columns are split among the devices
   (opts.schedule) and, per device, batched: one launch per step of all its columns (zero, A's
   blocks scaled, for each U position t the permuted copy + L_jj^-1 GEMM + the updates of every
   L block of j, the pivot LU, the inverses of L_kk and U_kk, L(i,k) = X_i U_kk^-1 by GEMM). A
   host sync ends each level: columns another device needs are read back then, and written to
   that device before its first use. Resident mode (all slots fit the frames): nothing else
   moves: a solve runs on that device (lcl__bklu_cl_solve), or, with the factors on several, fetches
   the host's copy once. Otherwise every column
   is read back after its level; its U and pivot frames are freed then, and its L frames after
   their last use on that device (zero-column-transfer eviction); when frames still run out,
   resident L parts are dropped by Belady's rule (the one used again farthest ahead) and written
   again when needed; a level whose working set is larger runs in chunks of columns. */
#define LCL__BKLU_ARENAS 4
#ifndef LCL__BKLU_RING_MB    /* the pinned ring A's blocks pass through, per device (at most) */
#define LCL__BKLU_RING_MB 1024
#endif
#ifndef LCL__BKLU_DEVTHREADS    /* benchmarks: 1 = a host thread per device with the ring too */
#define LCL__BKLU_DEVTHREADS 0
#endif
/* a benchmark's hook after each phase of a level (LCL_BKLU_TIMING(queue, phase), defined before
   the implementation is included): 0 lists, 1 values in, 2 updates, 3 pivot LU, 4 inverses, 5 L;
   host side of each level, queue NULL: 6 start, 7 launched, 8 staged (one host thread), 9 synced;
   and of the whole run: 10 device path entered, 11 levels start, 17 F copied by the slices, 12
   levels done, 15 F's rest copied, 16 pivots read back, 13 run done;
   14 on the eager queue: the rounds the level's end waits for (q2ev1) are done */
#ifdef LCL_BKLU_TIMING
#define LCL__BKLU_MARK(q, ph) LCL_BKLU_TIMING(q, ph)
#else
#define LCL__BKLU_MARK(q, ph) ((void)0)
#endif
/* one level's lists (host and device) and its work frames held until it is done; with the host a
   level ahead (lcl__bklu_dev.ahead) two sets alternate, the running level's and the next's */
typedef struct lcl__bklu_lset {
    cl_mem list, sval;
    size_t listcap;
    int32_t *hl;                /* host lists of the level (kept until it is done: non-blocking writes) */
    double *hs;                 /* scale factors, parallel to hl */
    int64_t hlcap;
    int32_t *defer;             /* resident: work frames of the level, freed once it is done */
    int64_t ndefer;
    int64_t lev;                /* the level they belong to, -2 none */
} lcl__bklu_lset;
typedef struct lcl__bklu_chunk {
    int64_t *uo, *uc, *wo, *wc;     /* per U step t: permuted copies / L_jj^-1 GEMMs at uo (uc), updates at wo (wc) */
    int64_t cap;
} lcl__bklu_chunk;
typedef struct lcl__bklu_dev {
    lcl__device *d;
    cl_context clc;             /* d's context when made (what a refactor's reuse checks) */
    cl_mem arena[LCL__BKLU_ARENAS];
    int fpa;                    /* frames per arena */
    int64_t nframes, nfree;
    int32_t *freel;             /* free frames (a stack) */
    int32_t *fslot;             /* nslot: frame of each slot here, -1 */
    int32_t *finv;              /* 2n: frames of L_kk^-1 (2k) and U_kk^-1 (2k+1), -1 */
    unsigned char *has;         /* n: column's L part (L frames, L_kk^-1, pivots) here */
    int64_t *usep;              /* n + 1: levels that use column j here, usel[usep[j] ..], ascending */
    int32_t *usel;
    int64_t *usecur;            /* n: the next of them not passed */
    cl_mem perm, ipiv, bad, flag;
    lcl__bklu_lset cur, spare;  /* the level being listed (and launched); ahead: the one before it, still running */
    int ahead;                  /* resident, tune.bklu_ahead, frames for two levels' work: lcl__bklu_apart runs a level ahead */
    int tc;                     /* the GEMMs on FP64 tensor cores (NVIDIA, double, M >= 128) */
    unsigned char *staged;      /* n: column's frames taken and A's blocks written ahead (resident); 2: in a
                                   batch of later columns (eager) not known to have arrived */
    int32_t *ecol, *ebat;       /* eager, those batches: their columns in order, each column's batch */
    int64_t *eend, ehead, enb;  /* batch b's columns end at ecol[eend[b]]; the oldest not arrived, the count */
    int64_t enext;              /* tune.bklu_stage_kb: the next position of the level order to stage from */
    double *ebytes, einfl;      /* ... each batch's bytes, and those not known to have arrived */
    cl_event *eev;              /* each batch's marker on the transfer queue, until it has arrived */
    int eager;                  /* resident and tune.bklu_eager: U steps run ahead of their column's level */
    unsigned char *prep;        /* n: column's frames zeroed and A's blocks scaled (eager: before its level) */
    int32_t *ustep;             /* n: U steps of the column already run (eager: before its level) */
    int64_t *ux;                /* 3n: one chunk's U-step columns, first step, step count */
    int32_t *xq;                /* n: columns imported for eager U steps only (has 2 until then) */
    cl_event stage_ev;          /* those writes, on the transfer queue, or NULL */
    cl_command_queue q2;        /* eager (tune.bklu_eager_queue): the later columns' U steps, beside the level's
                                   chain on queue 0, which waits for them (q2ev) at the level's end; or NULL */
    cl_event q2ev;
    cl_event q2ev1;             /* tune.bklu_eager_end: the marker after the next level's columns' rounds, or NULL */
    cl_event hold;              /* tune.bklu_eager_hold: the user event the last level's rounds wait for, or NULL */
    int q2open;                 /* tune.bklu_eager_end: q2 holds rounds past the last marker queue 0 waited for */
    cl_command_queue lq;        /* lcl__bklu_launch's queue (NULL: queue 0) */
    int efree;                  /* compute units q2's tensor-core GEMMs leave to the chain (tune.bklu_eager_free) */
    int64_t epace;              /* tune.bklu_eager_pace: a level's budget of early U steps for columns past the next
                                   level, in L blocks of the dependencies (0: no limit) */
    int32_t *pend;              /* streaming: columns being read back (their frames freed once read) */
    int64_t npend;
    int64_t nhl;                /* entries in cur.hl */
    /* the device's own scratch: with several devices each has a host thread (resident mode) */
    int32_t *pin, stamp, *tmpf, *cols;
    int team;                   /* threads for its ring copies (0: the context's; lcl__bklu_apart_dev) */
    int64_t *pos;               /* n: row -> slot of the column being listed, -1 */
    lcl__bklu_chunk ch;
    int64_t transfers, evictions;
    lcl_status st;
    /* pinned host memory (mapped CL_MEM_ALLOC_HOST_PTR buffers; NULL: pageable fallback): a ring
       that A's blocks pass through to the transfer queue (DMA, not the driver's pageable copy), in
       two halves, each reused once its writes are done (ringev); and the exchange area, where
       columns other devices need are read back to */
    cl_mem ring, xbuf, pvbuf;
    char *ringp, *xptr, *pvptr;  /* pvptr: pvsz bytes where the pivots, permutations and singular flags are read
                                    back after the levels (pageable: 4-8 ms a refactor, H100, M = 256) */
    size_t pvsz;
    int64_t *bq;                /* the ring's batch: (block of A, frame) pairs of one stage */
    size_t xsz;
    size_t ringsz, ringpos;
    int ringhalf;
    cl_event ringev[2];
    int direct;                 /* A's blocks written straight from the caller's pinned memory (lcl_host_alloc) */
} lcl__bklu_dev;
struct lcl__bklu_cl {
    int nd;
    int hostthreads;            /* the last run's levels: host threads, one a device (0: one thread) */
    lcl__bklu_dev *dv;
    int32_t *owner;             /* n: device that computed column k */
    unsigned char *onhost;      /* n: column k's slots and pivots are in the host's X and ipiv */
    int resident;
    int stale;                  /* some columns are only on their device */
    int64_t transfers, evictions;
    unsigned char *aslot;       /* nslot: the slot receives a block of A (not zeroed) */
    int64_t *acp;               /* n + 1: A's blocks of column k that go to slots */
    int64_t *ace;
    int32_t *hperm;             /* n * m: pivots as permutations (host copy) */
    int64_t *xoff;              /* n: offset of column k's pivot and L blocks in its owner's exchange area, -1 */
    unsigned char *inx;         /* n: those are there (read back after k's level) */
    int shared;                 /* the devices share one cl_context: exchange areas are pinned for all */
    cl_event *xev;              /* n (exchanges a level ahead, tune.bklu_xahead): column k's read-back into its
                                   owner's exchange area done, once launched; NULL: the host waits each level */
    int64_t nxev;
    unsigned char *xdone;       /* n: xev[k] seen complete */
#if defined(_OPENMP) && !defined(_WIN32)
    pthread_mutex_t xlock;      /* xev, xdone, inx, xfail and xgo, while host threads (xlocked) share them */
#endif
    int xlocked, xfail, xgo;    /* xfail: a host thread's device failed (the others stop waiting for it);
                                   xgo: every thread made, they may start (or, with xfail, give up) */
    int32_t *slev;              /* n (eager): the level whose look-ahead stages column k's A */
    int64_t svmoves;            /* the last device solve: W's moves between devices */
    int64_t fe, fq, fbad;       /* F's copy: next block of A and its next entry; the first bad block, -1 */
};
/* a refactor keeps the last run's device memory where the new run wants the same size (creating
   and pinning it again took a third of a refactor on two H100s): *dst takes *src (and its mapping) */
LCL__PRIVATE int lcl__bklu_keep(cl_mem *dst, char **dptr, cl_mem *src, char **sptr, int same) {
    if (!*src || !same) return 0;
    *dst = *src, *src = NULL;
    if (dptr) *dptr = *sptr, *sptr = NULL;
    return 1;
}
/* v's arena buffers released (unused arenas alias the first) */
LCL__PRIVATE void lcl__bklu_arenas_free(lcl__bklu_dev *v) {
    int a;
    for (a = 0; a < LCL__BKLU_ARENAS; a++)
        if (v->arena[a] && (a == 0 || v->arena[a] != v->arena[0])) LCL__CL->clReleaseMemObject(v->arena[a]);
    for (a = 0; a < LCL__BKLU_ARENAS; a++) v->arena[a] = NULL;
}
/* the read-backs' events released (lcl__bklu_xev) */
LCL__PRIVATE void lcl__bklu_xev_free(lcl__bklu_cl *D) {
    int64_t k;
    for (k = 0; k < D->nxev; k++)
        if (D->xev[k]) LCL__CL->clReleaseEvent(D->xev[k]), D->xev[k] = NULL;
}
/* the exchanges' shared state locked, where a host thread per device shares it */
LCL__PRIVATE void lcl__bklu_xlock(lcl__bklu_cl *D, int on) {
#if defined(_OPENMP) && !defined(_WIN32)
    if (D->xlocked) (void)(on ? pthread_mutex_lock(&D->xlock) : pthread_mutex_unlock(&D->xlock));
#else
    (void)D, (void)on;
#endif
}
/* column k read back into its owner's exchange area by now (exchanges by events) */
LCL__PRIVATE int lcl__bklu_xdone(lcl__bklu_cl *D, int64_t k) {
    cl_int s = CL_QUEUED;
    int r;
    if (!D->xev) return 0;
    lcl__bklu_xlock(D, 1);
    if (D->xev[k] && !D->xdone[k] && LCL__CL->clGetEventInfo(D->xev[k], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL) == CL_SUCCESS &&
        s == CL_COMPLETE)
        D->xdone[k] = 1;
    r = D->xdone[k];
    lcl__bklu_xlock(D, 0);
    return r;
}
/* tune.bklu_eager_hold: the rounds a user event holds let go (it completes and is released) */
LCL__PRIVATE void lcl__bklu_let_go(cl_event *h) {
    if (*h) LCL__CL->clSetUserEventStatus(*h, CL_COMPLETE), LCL__CL->clReleaseEvent(*h), *h = NULL;
}
LCL__PRIVATE void lcl__bklu_cl_free(lcl__bklu_cl *D) {
    int i, a;
    if (!D) return;
    for (i = 0; i < D->nd; i++) {
        lcl__bklu_dev *v = &D->dv[i];
        lcl__bklu_arenas_free(v);
        if (v->perm) LCL__CL->clReleaseMemObject(v->perm);
        if (v->ipiv) LCL__CL->clReleaseMemObject(v->ipiv);
        if (v->bad) LCL__CL->clReleaseMemObject(v->bad);
        if (v->flag) LCL__CL->clReleaseMemObject(v->flag);
        for (a = 0; a < 2; a++) {
            lcl__bklu_lset *t = a ? &v->spare : &v->cur;
            if (t->list) LCL__CL->clReleaseMemObject(t->list);
            if (t->sval) LCL__CL->clReleaseMemObject(t->sval);
            LCL_FREE(t->hl); LCL_FREE(t->hs); LCL_FREE(t->defer);
        }
        LCL_FREE(v->freel); LCL_FREE(v->fslot); LCL_FREE(v->finv); LCL_FREE(v->has);
        LCL_FREE(v->usep); LCL_FREE(v->usel); LCL_FREE(v->usecur); LCL_FREE(v->pend);
        LCL_FREE(v->staged); LCL_FREE(v->prep); LCL_FREE(v->ustep); LCL_FREE(v->ux); LCL_FREE(v->xq);
        LCL_FREE(v->pin); LCL_FREE(v->tmpf); LCL_FREE(v->cols); LCL_FREE(v->pos); LCL_FREE(v->bq);
        LCL_FREE(v->ch.uo); LCL_FREE(v->ch.uc); LCL_FREE(v->ch.wo); LCL_FREE(v->ch.wc);
        if (v->stage_ev) LCL__CL->clReleaseEvent(v->stage_ev);
        if (v->q2ev) LCL__CL->clReleaseEvent(v->q2ev);
        if (v->q2ev1) LCL__CL->clReleaseEvent(v->q2ev1);
        lcl__bklu_let_go(&v->hold);
        if (v->q2) LCL__CL->clFinish(v->q2), LCL__CL->clReleaseCommandQueue(v->q2);
        if (v->eev)
            for (a = (int)v->ehead; a < (int)v->enb; a++)
                if (v->eev[a]) LCL__CL->clReleaseEvent(v->eev[a]);
        LCL_FREE(v->ecol); LCL_FREE(v->ebat); LCL_FREE(v->eend); LCL_FREE(v->eev); LCL_FREE(v->ebytes);
        for (a = 0; a < 2; a++)
            if (v->ringev[a]) LCL__CL->clReleaseEvent(v->ringev[a]);
        lcl__unpin(v->d, v->ring, v->ringp);
        lcl__unpin(v->d, v->xbuf, v->xptr);
        lcl__unpin(v->d, v->pvbuf, v->pvptr);
    }
    LCL_FREE(D->dv); LCL_FREE(D->owner); LCL_FREE(D->onhost); LCL_FREE(D->aslot); LCL_FREE(D->acp); LCL_FREE(D->ace); LCL_FREE(D->hperm);
    lcl__bklu_xev_free(D);
    LCL_FREE(D->xoff); LCL_FREE(D->inx); LCL_FREE(D->slev); LCL_FREE(D->xev); LCL_FREE(D->xdone);
    LCL_FREE(D);
}

/* frames: bytes of each block and the count a device gets */
LCL__PRIVATE size_t lcl__bklu_fbytes(const lcl_bklu_numeric *N) { return (size_t)N->mm * lcl__dsize(N->dtype); }

LCL__PRIVATE int lcl__bklu_push(lcl__bklu_dev *v, int32_t x, double s) {
    if (v->nhl == v->cur.hlcap) {
        int64_t cap = v->cur.hlcap ? 2 * v->cur.hlcap : 4096;
        int32_t *nl = (int32_t *)LCL_REALLOC(v->cur.hl, (size_t)cap * sizeof(int32_t));
        double *ns;
        if (!nl) return 0;
        v->cur.hl = nl;
        if (!(ns = (double *)LCL_REALLOC(v->cur.hs, (size_t)cap * sizeof(double)))) return 0;
        v->cur.hs = ns;
        v->cur.hlcap = cap;
    }
    v->cur.hs[v->nhl] = s;
    v->cur.hl[v->nhl++] = x;
    return 1;
}
LCL__PRIVATE int32_t lcl__bklu_take(lcl__bklu_dev *v) { LCL_ASSERT(v->nfree > 0); return v->nfree ? v->freel[--v->nfree] : -1; }
LCL__PRIVATE void lcl__bklu_give(lcl__bklu_dev *v, int32_t *f) {
    if (*f >= 0) v->freel[v->nfree++] = *f;
    *f = -1;
}
/* drop column j's L part from device v (its frames back to the free list) */
LCL__PRIVATE void lcl__bklu_drop(const lcl_bklu_numeric *N, lcl__bklu_dev *v, int64_t j) {
    int64_t s;
    for (s = N->colp[j] + N->ucnt[j] + 1; s < N->colp[j + 1]; s++) lcl__bklu_give(v, &v->fslot[s]);
    lcl__bklu_give(v, &v->finv[2 * j]);
    v->has[j] = 0;
}
/* next level at or after l that uses column j on v (INT64_MAX: none) */
LCL__PRIVATE int64_t lcl__bklu_next(lcl__bklu_dev *v, int64_t j, int64_t l) {
    while (v->usecur[j] < v->usep[j + 1] && v->usel[v->usecur[j]] < l) v->usecur[j]++;
    return v->usecur[j] < v->usep[j + 1] ? v->usel[v->usecur[j]] : INT64_MAX;
}
/* streaming: wait for v's read-backs; the columns are then on the host, their U and pivot frames free */
LCL__PRIVATE cl_int lcl__bklu_settle(const lcl_bklu_numeric *N, lcl__bklu_cl *D, lcl__bklu_dev *v) {
    cl_int e;
    int64_t i, s;
    if (!v->npend) return CL_SUCCESS;
    if ((e = LCL__CL->clFinish(v->d->queue[0])) != CL_SUCCESS) return e;
    for (i = 0; i < v->npend; i++) {
        int64_t k = v->pend[i];
        D->onhost[k] = 1;
        for (s = N->colp[k]; s <= N->colp[k] + N->ucnt[k]; s++) lcl__bklu_give(v, &v->fslot[s]);
        lcl__bklu_give(v, &v->finv[2 * k + 1]);
    }
    v->npend = 0;
    return CL_SUCCESS;
}
/* need frames on v: evict (Belady) L parts that are on the host and not pinned (used by the chunk
   being built: pin[j] == stamp). Returns 0 when it cannot. */
LCL__PRIVATE int lcl__bklu_room(const lcl_bklu_numeric *N, lcl__bklu_cl *D, lcl__bklu_dev *v, int64_t need, int64_t l,
                                const int32_t *pin, int32_t stamp) {
    while (v->nfree < need) {
        int64_t j, best = -1, bd = -1;
        if (v->npend) {
            if (lcl__bklu_settle(N, D, v) != CL_SUCCESS) return 0;
            continue;
        }
        for (j = 0; j < N->n; j++)
            if (v->has[j] && D->onhost[j] && pin[j] != stamp) {
                int64_t nx = lcl__bklu_next(v, j, l);
                if (nx > bd) bd = nx, best = j;
            }
        if (best < 0) return 0;
        lcl__bklu_drop(N, v, best);
        if (bd != INT64_MAX) v->evictions++;
    }
    return 1;
}

/* bytes of column k in its owner's exchange area: its pivot and L blocks, then its pivots (pinned
   too, so an import that waits for them by event reads them when they are there) */
LCL__PRIVATE size_t lcl__bklu_xcol(const lcl_bklu_numeric *N, int64_t k) {
    return (size_t)(N->colp[k + 1] - N->colp[k] - N->ucnt[k]) * lcl__bklu_fbytes(N) + (((size_t)N->m * sizeof(int32_t) + 63) & ~(size_t)63);
}
/* the host copy of slot s of column j, for a device that imports it: its owner's exchange area
   (the L blocks; in the pivot block's place L_jj^-1, which the importer would rebuild from it, the
   same bits: lcl__bklu_share) or the host factors */
LCL__PRIVATE const char *lcl__bklu_hsrc(const lcl_bklu_numeric *N, const lcl__bklu_cl *D, int64_t j, int64_t s) {
    size_t fb = lcl__bklu_fbytes(N);
    if (D->inx && D->inx[j]) return D->dv[D->owner[j]].xptr + D->xoff[j] + (size_t)(s - N->colp[j] - N->ucnt[j]) * fb;
    return (const char *)N->X + (size_t)s * fb;
}
/* write one block from host memory src into frame f of v, on queue q (with a shared cl_context,
   from the producer's exchange area, pinned for every device; else pageable memory: pinning a copy
   in the consumer's context measured slower on two H200s, BENCHMARKS.md) */
LCL__PRIVATE cl_int lcl__bklu_put(lcl__bklu_dev *v, cl_command_queue q, int32_t f, const char *src, size_t fb) {
    return LCL__CL->clEnqueueWriteBuffer(q, v->arena[f / v->fpa], CL_FALSE, (size_t)(f % v->fpa) * fb, fb, src, 0, NULL, NULL);
}
/* write column j's L part from the host to v (frames taken by the caller's room check) */
LCL__PRIVATE cl_int lcl__bklu_import(const lcl_bklu_numeric *N, lcl__bklu_cl *D, lcl__bklu_dev *v, int64_t j) {
    size_t fb = lcl__bklu_fbytes(N);
    int64_t s, m = N->m;
    cl_int e = CL_SUCCESS;
    cl_command_queue q = v->d->queue[0];
    /* a level ahead: once its owner has read it back (another device's event: one cl_context) */
    if (D->xev && D->xev[j] && (e = LCL__CL->clEnqueueBarrierWithWaitList(q, 1, &D->xev[j], NULL)) != CL_SUCCESS) return e;
    for (s = N->colp[j] + N->ucnt[j] + 1; s < N->colp[j + 1] && e == CL_SUCCESS; s++) {
        int32_t f = lcl__bklu_take(v);
        v->fslot[s] = f;
        e = lcl__bklu_put(v, q, f, lcl__bklu_hsrc(N, D, j, s), fb);
        v->transfers++;
    }
    if (e == CL_SUCCESS) {
        int32_t f = lcl__bklu_take(v);
        v->finv[2 * j] = f;
        /* L_kk^-1 is not kept on the host: rebuilt from the pivot block below */
        (void)f;
    }
    if (e == CL_SUCCESS)
        e = LCL__CL->clEnqueueWriteBuffer(q, v->perm, CL_FALSE, (size_t)(j * m) * sizeof(int32_t), (size_t)m * sizeof(int32_t),
                                          D->inx && D->inx[j] ? lcl__bklu_hsrc(N, D, j, N->colp[j + 1]) : (const char *)(D->hperm + j * m), 0,
                                          NULL, NULL);
    v->has[j] = 1;
    return e;
}

/* columns' devices, level by level: static (linear chunks, the thesis), affinity (subtrees kept
   on a device, >>bklu-affinity), dynamic (largest first to the device with the least work, a
   dependency elsewhere costing a transfer) */
/* the L blocks (and pivots) of column k's dependencies that device d lacks: what it would import */
LCL__PRIVATE double lcl__bklu_lacks(const lcl_bklu_numeric *N, int nd, const unsigned char *has, int64_t k, int d) {
    int64_t p, s0 = N->colp[k];
    double w = 0;
    for (p = 0; p < N->ucnt[k]; p++) {
        int64_t j = N->slotrow[s0 + p];
        if (!has[j * nd + d]) w += (double)(N->colp[j + 1] - N->colp[j] - N->ucnt[j]);
    }
    return w;
}
/* >>bklu-affinity: one level's columns cols[0..cnt) by dependency affinity. Each column goes first
   to the device of its index range (n / nd columns each: in the ordering, a range holds whole
   subtrees, or whole diagonal blocks of the BTF, whose dependencies stay on the device); then,
   from each device holding more than LCL__BKLU_SLACK times the level's even share of work,
   columns move, those whose move costs the fewest imports per unit of work first (the
   dependencies the other device lacks, and the column's own L part, which its dependents will
   want), each to the device lacking least of it that it does not overload. has (n x nd): the
   column is on the device, computed or imported. gen:circuit:1000 on two devices imports
   no column at all with a slack of 1.5 (1,936 blocks with the static split); two H100s, M = 512,
   slack 1.125 / 1.25 / 1.5: 642 / 620 / 603 ms against 689 ms static (BENCHMARKS.md) */
LCL__PRIVATE void lcl__bklu_affine(const lcl_bklu_numeric *N, int nd, int32_t *owner, const double *cost, double *load, const int32_t *cols,
                                   int64_t cnt, unsigned char *has, lcl__key *order, double slack, const int64_t *bound) {
    int64_t c, p;
    double tot = 0, cap;
    int d;
    for (c = 0; c < cnt; c++) {
        int64_t k = cols[c];
        for (d = 0; d < nd - 1 && k >= bound[d + 1]; d++) {}
        owner[k] = (int32_t)d;
        load[owner[k]] += cost[k];
        tot += cost[k];
    }
    cap = tot / nd * slack;
    for (d = 0; d < nd && load[d] <= cap; d++) {}
    if (d == nd) goto done;
    /* each column's cost of a move: what the cheapest other device lacks of its dependencies, less
       what its own lacks, plus its L part (its dependents will want it), per unit of work; the
       moves in that order (O(cnt log cnt): a level may hold tens of thousands of columns) */
    for (c = 0; c < cnt; c++) {
        int64_t k = cols[c];
        double here = lcl__bklu_lacks(N, nd, has, k, owner[k]), best = -1, pen;
        uint64_t u;
        for (d = 0; d < nd; d++)
            if (d != owner[k]) {
                double w = lcl__bklu_lacks(N, nd, has, k, d);
                if (best < 0 || w < best) best = w;
            }
        pen = (best - here + (double)(N->colp[k + 1] - N->colp[k] - N->ucnt[k])) / cost[k];
        memcpy(&u, &pen, sizeof u);
        order[c].key = u >> 63 ? ~u : u | ((uint64_t)1 << 63);    /* ascending as the doubles */
        order[c].at = c;
    }
    qsort(order, (size_t)cnt, sizeof *order, lcl__key_cmp);
    for (c = 0; c < cnt; c++) {
        int64_t k = cols[order[c].at];
        int o = owner[k], to = -1;
        double bw = 0;
        if (load[o] <= cap) continue;
        for (d = 0; d < nd; d++) {     /* the device lacking least of k's dependencies, of those it would not overload */
            double w;
            if (d == o || load[d] + cost[k] >= load[o]) continue;
            w = lcl__bklu_lacks(N, nd, has, k, d);
            if (to < 0 || w < bw || (w == bw && load[d] < load[to])) bw = w, to = d;
        }
        if (to < 0) continue;
        owner[k] = to;
        load[o] -= cost[k];
        load[to] += cost[k];
    }
done:
    for (c = 0; c < cnt; c++) {
        int64_t k = cols[c], s0 = N->colp[k];
        has[k * nd + owner[k]] = 1;
        for (p = 0; p < N->ucnt[k]; p++) has[N->slotrow[s0 + p] * nd + owner[k]] = 1;
    }
}
/* the work of each column, in M^3 flops (the LU, the L blocks, the updates from its dependencies) */
LCL__PRIVATE void lcl__bklu_costs(const lcl_bklu_numeric *N, double *cost) {
    int64_t k, p;
    for (k = 0; k < N->n; k++) {
        double c = 2.0 / 3.0 + (double)(N->colp[k + 1] - N->colp[k] - N->ucnt[k] - 1);
        for (p = 0; p < N->ucnt[k]; p++) {
            int64_t j = N->slotrow[N->colp[k] + p];
            c += 1 + 2 * (double)(N->colp[j + 1] - N->colp[j] - N->ucnt[j] - 1);
        }
        cost[k] = c;
    }
}
/* affinity's index ranges: bound[0..nd], device d starting at column bound[d]. Each boundary near
   an even share of all the work (lcl__bklu_costs), within window (tune.bklu_window) of it, where the fewest
   L blocks would cross it (column j crosses b when j < b <= its last dependent): in the ordering
   a subtree or a diagonal block of the BTF is a range, so a cut at its edge imports nothing.
   Without memory for the count, the even share alone. (gen:circuit:1000, two devices: the
   column split held 61% of the work on one, imports none; cut at even work 50.3%, 316 L
   blocks; this 51.9%, none) */
LCL__PRIVATE void lcl__bklu_ranges(const lcl_bklu_numeric *N, int nd, const double *cost, double window, int64_t *bound) {
    int64_t n = N->n, k, p, b, *last = (int64_t *)LCL_MALLOC((size_t)(2 * n + 1) * sizeof(int64_t)), *cross = last ? last + n : NULL;
    double all = 0, run, lo, hi;
    int c;
    for (k = 0; k < n; k++) all += cost[k];
    if (last) {
        for (k = 0; k < n; k++) last[k] = k;
        for (k = 0; k < n; k++)
            for (p = 0; p < N->ucnt[k]; p++) last[N->slotrow[N->colp[k] + p]] = k;   /* k ascending: the last stays */
        for (b = 0; b <= n; b++) cross[b] = 0;
        for (k = 0; k < n; k++)
            if (last[k] > k) {
                int64_t w = N->colp[k + 1] - N->colp[k] - N->ucnt[k];
                cross[k + 1] += w;
                if (last[k] + 1 <= n) cross[last[k] + 1] -= w;
            }
        for (b = 1; b <= n; b++) cross[b] += cross[b - 1];
    }
    bound[0] = 0;
    for (c = 1, k = 0, run = 0; c < nd; c++) {     /* run: the work before column k */
        double even = all * c / nd, r, bd = 0;
        int64_t best = -1;
        lo = even - window * all, hi = even + window * all;
        for (; k < n && run + cost[k] <= lo; k++) run += cost[k];
        for (b = k, r = run; b <= n && r <= hi; r += b < n ? cost[b] : 0, b++) {
            double off = r > even ? r - even : even - r;
            if (b <= bound[c - 1] || r < lo) continue;
            if (best < 0 || (cross && cross[b] != cross[best] ? cross[b] < cross[best] : off < bd)) best = b, bd = off;
        }
        bound[c] = best < 0 ? LCL__MAX(bound[c - 1], k) : best;
    }
    bound[nd] = n;
    LCL_FREE(last);
}

/* owner[k] for every column (nd devices); load: nd, tmp: n scratch. Without memory for affinity's
   table, the static split */
LCL__PRIVATE void lcl__bklu_assign(const lcl_bklu_numeric *N, lcl_bklu_schedule sch, int nd, int32_t *owner, const double *cost, double *load,
                                   int32_t *tmp, double slack, double window) {
    int64_t l, c, p;
    unsigned char *has = sch == LCL_BKLU_AFFINITY && nd > 1 ? (unsigned char *)LCL_MALLOC((size_t)N->n * (size_t)nd + 1) : NULL;
    lcl__key *order = has ? (lcl__key *)LCL_MALLOC((size_t)N->n * sizeof(lcl__key) + 1) : NULL;
    int64_t *bound = order ? (int64_t *)LCL_MALLOC((size_t)(nd + 1) * sizeof(int64_t)) : NULL;
    if (bound) memset(has, 0, (size_t)N->n * (size_t)nd);
    else if (sch == LCL_BKLU_AFFINITY) sch = LCL_BKLU_STATIC;
    if (bound) lcl__bklu_ranges(N, nd, cost, window, bound);
    for (l = 0; l < N->nlev; l++) {
        int64_t c0 = N->levp[l], cnt = N->levp[l + 1] - c0;
        int d;
        for (d = 0; d < nd; d++) load[d] = 0;
        if (nd == 1) {
            for (c = 0; c < cnt; c++) owner[N->levc[c0 + c]] = 0;
            continue;
        }
        if (sch == LCL_BKLU_STATIC) {
            for (c = 0; c < cnt; c++) owner[N->levc[c0 + c]] = (int32_t)(c * nd / cnt);
            continue;
        }
        for (c = 0; c < cnt; c++) tmp[c] = N->levc[c0 + c];
        if (sch == LCL_BKLU_AFFINITY) {
            lcl__bklu_affine(N, nd, owner, cost, load, tmp, cnt, has, order, slack, bound);
            continue;
        }
        for (c = 1; c < cnt; c++) {     /* dynamic: largest first (insertion sort: levels are short or uniform) */
            int32_t x = tmp[c];
            int64_t q = c;
            while (q > 0 && cost[tmp[q - 1]] < cost[x]) { tmp[q] = tmp[q - 1]; q--; }
            tmp[q] = x;
        }
        for (c = 0; c < cnt; c++) {
            int64_t k = tmp[c], s0 = N->colp[k];
            double best = 0;
            int bd = -1;
            for (d = 0; d < nd; d++) {
                double away = 0, sc;
                for (p = 0; p < N->ucnt[k]; p++) {
                    int64_t j = N->slotrow[s0 + p];
                    if (owner[j] != d) away += (double)(N->colp[j + 1] - N->colp[j] - N->ucnt[j]);
                }
                sc = -(load[d] + cost[k] + 0.25 * away);
                if (bd < 0 || sc > best) best = sc, bd = d;
            }
            owner[k] = bd;
            load[bd] += cost[k];
        }
    }
    LCL_FREE(has);
    LCL_FREE(order);
    LCL_FREE(bound);
}

/* upload the level's lists: blocking (the previous chunk must finish before its frames are reused
   anyway, and the host lists are rebuilt next), or, a level ahead (wait 0: hl and hs then stay as
   they are until the level is done), not */
LCL__PRIVATE lcl_status lcl__bklu_lists(lcl_context *ctx, const lcl_bklu_numeric *N, lcl__bklu_dev *v, int wait) {
    lcl__device *d = v->d;
    size_t es = lcl__dsize(N->dtype);
    cl_int e = CL_SUCCESS;
    lcl_status st = LCL_OK;
    int64_t i;
    if (!v->nhl) return LCL_OK;
    if ((size_t)v->nhl > v->cur.listcap) {
        size_t cap = (size_t)v->nhl * 2;
        if (v->cur.list) LCL__CL->clReleaseMemObject(v->cur.list);
        if (v->cur.sval) LCL__CL->clReleaseMemObject(v->cur.sval);
        v->cur.list = v->cur.sval = NULL;
        v->cur.listcap = 0;
        if ((st = lcl__buffer(ctx, d, cap * sizeof(int32_t), CL_MEM_READ_ONLY, &v->cur.list)) != LCL_OK ||
            (st = lcl__buffer(ctx, d, cap * es, CL_MEM_READ_ONLY, &v->cur.sval)) != LCL_OK)
            return st;
        v->cur.listcap = cap;
    }
    if (N->dtype == LCL_F32)    /* the scale factors in the matrix dtype, in place of the doubles' first half */
        for (i = 0; i < v->nhl; i++) ((float *)v->cur.hs)[i] = (float)v->cur.hs[i];
    LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], v->cur.list, wait ? CL_TRUE : CL_FALSE, 0, (size_t)v->nhl * sizeof(int32_t), v->cur.hl, 0, NULL,
                                             NULL),
               "clEnqueueWriteBuffer(lcl_bklu lists)");
    LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], v->cur.sval, wait ? CL_TRUE : CL_FALSE, 0, (size_t)v->nhl * es, v->cur.hs, 0, NULL, NULL),
               "clEnqueueWriteBuffer(lcl_bklu scales)");
done:
    return st;
}

/* the pivot LU (lcl_bklu_lu*) of cnt blocks, list from lo, with kernel k at wg work-items a block: one
   launch, or with ku (lcl_bklu_lu_upd) panel by panel, each followed by the rest's update on many
   work-groups (the one work-group's update was most of a block's time). *where: 0 the first launch
   failed, 1 a later panel, 2 an update */
LCL__PRIVATE cl_int lcl__bklu_lu_go(const lcl_bklu_numeric *N, lcl__bklu_dev *v, cl_kernel k, size_t wg, int lo, int64_t cnt, cl_kernel ku,
                                    int *where) {
    cl_command_queue q = v->d->queue[0];
    cl_mem *a = v->arena;
    int m = (int)N->m, fpa = v->fpa, nop = N->nopivot, kp = ku ? 0 : -1, kb = v->d->tune.bklu_lr_nb;
    size_t g = (size_t)cnt * wg, gu[3], lu[3] = {16, 16, 1};
    cl_int e = lcl__argv(k, 13, LCL__A(a[0]), LCL__A(a[1]), LCL__A(a[2]), LCL__A(a[3]), LCL__A(fpa), LCL__A(m), LCL__A(v->cur.list), LCL__A(lo),
                         LCL__A(v->ipiv), LCL__A(v->perm), LCL__A(v->bad), LCL__A(nop), LCL__A(kp));
    *where = 0;
    if (e == CL_SUCCESS && ku)
        e = lcl__argv(ku, 8, LCL__A(a[0]), LCL__A(a[1]), LCL__A(a[2]), LCL__A(a[3]), LCL__A(fpa), LCL__A(m), LCL__A(v->cur.list), LCL__A(lo));
    if (e != CL_SUCCESS || !ku) return e == CL_SUCCESS ? LCL__CL->clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &wg, 0, NULL, NULL) : e;
    for (kp = 0; kp < m; kp += kb) {
        int rest = m - kp - kb, tiles = (rest + 63) / 64, tail = -kp - 2;
        if (kp && m - kp <= v->d->tune.bklu_lu_tail) {   /* the last rows' panels in one launch, its update inside */
            e = LCL__CL->clSetKernelArg(k, 12, sizeof(int), &tail);
            return e == CL_SUCCESS ? LCL__CL->clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &wg, 0, NULL, NULL) : e;
        }
        e = kp ? LCL__CL->clSetKernelArg(k, 12, sizeof(int), &kp) : CL_SUCCESS;
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(q, k, 1, NULL, &g, &wg, 0, NULL, NULL);
        if (e != CL_SUCCESS || rest <= 0) return e;
        *where = 2;
        gu[0] = gu[1] = (size_t)tiles * 16;
        gu[2] = (size_t)cnt;
        e = LCL__CL->clSetKernelArg(ku, 8, sizeof(int), &kp);
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(ku, 9, sizeof(int), &kb);
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(q, ku, 3, NULL, gu, lu, 0, NULL, NULL);
        if (e != CL_SUCCESS) return e;
        *where = 1;
    }
    return CL_SUCCESS;
}
/* one launch of kernel name over cnt items of the list at lo (kind: 0 gemm, 1 elementwise, 2 lu,
   3 trtri with which in {0} or {0,1}) */
LCL__PRIVATE lcl_status lcl__bklu_launch(lcl_context *ctx, const lcl_bklu_numeric *N, lcl__bklu_dev *v, const char *name, int kind,
                                         int64_t lo, int64_t cnt, double alpha, double keep, int which) {
    lcl__device *d = v->d;
    cl_kernel k;
    cl_int e = CL_SUCCESS;
    lcl_status st;
    int m = (int)N->m, fpa = v->fpa, lo32 = (int)lo, where = 0;
    size_t es = lcl__dsize(N->dtype), g[3], l[3];
    float af = (float)alpha, kf = (float)keep;
    cl_mem *a = v->arena;
    if (cnt <= 0) return LCL_OK;
    if (kind == 0 && v->tc) {
        if ((st = lcl__kernel_get(ctx, d, N->dtype, "lcl_bklu_gemm_tc_d", 1, &k)) != LCL_OK) return st;
        if (!k) v->tc = 0;
    }
    if (kind == 0 && !v->tc && m <= 32) name = N->dtype == LCL_F32 ? "lcl_bklu_gemm_small_f" : "lcl_bklu_gemm_small_d";
    if ((kind != 0 || !v->tc) && (st = lcl__kernel(ctx, d, N->dtype, name, &k)) != LCL_OK) return st;
    if (kind == 2) {    /* one work-group per block, as large as helps: a row per item up to 1024 rows */
        size_t want = 64, cap = LCL__MIN((size_t)d->tune.bklu_lu_wg, d->info.max_work_group), kw = 0, sz = m <= 512 ? 512 : 1024;
        cl_kernel ks = NULL, ku = NULL;
        while (want < (size_t)(m * m / 8) && want < cap) want *= 2;
        if (LCL__CL->clGetKernelWorkGroupInfo(k, d->id, CL_KERNEL_WORK_GROUP_SIZE, sizeof kw, &kw, NULL) == CL_SUCCESS && kw > 0)
            while (want > kw && want > 1) want /= 2;
        while (want > cap) want /= 2;
        /* above 256 rows, a kernel compiled for its size, so that a row per item fits the registers.
           NVIDIA's OpenCL says 256 (CL_KERNEL_WORK_GROUP_SIZE) for every kernel on an H100, yet
           runs these at their size, and the other at 512 (not 1024): the size is tried, and where
           the launch fails, the other kernel runs at its stated limit */
        if (m > 256 && m <= 1024 && sz <= cap &&
            (st = lcl__kernel_get(ctx, d, N->dtype, sz == 512 ? (N->dtype == LCL_F32 ? "lcl_bklu_lu512_f" : "lcl_bklu_lu512_d")
                                                             : (N->dtype == LCL_F32 ? "lcl_bklu_lu1024_f" : "lcl_bklu_lu1024_d"), 1, &ks)) != LCL_OK)
            return st;
        if (d->tune.bklu_lu_split > 0 && m >= d->tune.bklu_lu_split &&
            (st = lcl__kernel(ctx, d, N->dtype, N->dtype == LCL_F32 ? "lcl_bklu_lu_upd_f" : "lcl_bklu_lu_upd_d", &ku)) != LCL_OK)
            return st;
        if (ks) {
            e = lcl__bklu_lu_go(N, v, ks, sz, lo32, cnt, ku, &where);
            if (e == CL_SUCCESS) return LCL_OK;
            if (where || (e != CL_OUT_OF_RESOURCES && e != CL_INVALID_WORK_GROUP_SIZE))
                return lcl__clfail(ctx, e, where == 2 ? "lcl_bklu_lu_upd" : name, d->info.name);
        }
        e = lcl__bklu_lu_go(N, v, k, want, lo32, cnt, ku, &where);
        return e == CL_SUCCESS ? LCL_OK : lcl__clfail(ctx, e, where == 2 ? "lcl_bklu_lu_upd" : name, d->info.name);
    }
    e = lcl__argv(k, 8, LCL__A(a[0]), LCL__A(a[1]), LCL__A(a[2]), LCL__A(a[3]), LCL__A(fpa), LCL__A(m), LCL__A(v->cur.list), LCL__A(lo32));
    if (e == CL_SUCCESS && kind == 0) {
        e = LCL__CL->clSetKernelArg(k, 8, es, N->dtype == LCL_F32 ? (const void *)&af : (const void *)&alpha);
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(k, 9, es, N->dtype == LCL_F32 ? (const void *)&kf : (const void *)&keep);
    }
    if (e == CL_SUCCESS && kind == 1 && strstr(name, "scale")) {
        e = LCL__CL->clSetKernelArg(k, 8, sizeof(cl_mem), &v->cur.sval);
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(k, 9, sizeof(cl_mem), &v->flag);
    }
    if (e == CL_SUCCESS && kind == 1 && strstr(name, "permcopy")) e = LCL__CL->clSetKernelArg(k, 8, sizeof(cl_mem), &v->perm);
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, name, d->info.name);
    if (kind == 0 && v->tc) {   /* FP64 tensor cores (NVIDIA): the dense GEMM's tiles, one row of groups per item */
        size_t bm = (size_t)(32 * d->tune.tc_wm), bn = (size_t)(64 * d->tune.tc_wn), tiles = (((size_t)m + bm - 1) / bm) * (((size_t)m + bn - 1) / bn);
        int n32 = (int)cnt;
        l[0] = (size_t)(32 * d->tune.tc_wm * d->tune.tc_wn); l[1] = 1;
        g[0] = tiles * l[0]; g[1] = (size_t)cnt;
        /* the eager queue's rows of groups loop over its items, one group a compute unit (their
           registers), so tune.bklu_eager_free units stay free for the level's pivot LUs */
        if (v->lq && v->lq == v->q2 && v->efree > 0) {
            size_t cu = (size_t)d->info.compute_units, fr = (size_t)v->efree, rows = cu > fr ? (cu - fr) / tiles : 0;
            g[1] = LCL__MAX(1, LCL__MIN((size_t)cnt, rows));
        }
        e = LCL__CL->clSetKernelArg(k, 10, sizeof n32, &n32);
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(v->lq ? v->lq : d->queue[0], k, 2, NULL, g, l, 0, NULL, NULL);
    } else if (kind == 0 && m <= 32) {
        l[0] = 64; l[1] = 1;
        g[0] = (size_t)lcl__round_up((int64_t)m * m, 64); g[1] = (size_t)cnt;
        e = LCL__CL->clEnqueueNDRangeKernel(v->lq ? v->lq : d->queue[0], k, 2, NULL, g, l, 0, NULL, NULL);
    } else if (kind == 0) {
        size_t tiles = (size_t)((m + 63) / 64);
        l[0] = l[1] = 16; l[2] = 1;
        g[0] = g[1] = tiles * 16; g[2] = (size_t)cnt;
        e = LCL__CL->clEnqueueNDRangeKernel(v->lq ? v->lq : d->queue[0], k, 3, NULL, g, l, 0, NULL, NULL);
    } else if (kind == 1) {
        size_t mm = (size_t)N->mm, per = mm < 4096 ? lcl__round_up((int64_t)mm, 64) : 4096;
        l[0] = 64; l[1] = 1;
        g[0] = per; g[1] = (size_t)cnt;
        e = LCL__CL->clEnqueueNDRangeKernel(v->lq ? v->lq : d->queue[0], k, 2, NULL, g, l, 0, NULL, NULL);
    } else {   /* the inverses: tune.bklu_tri_p items a column */
        g[0] = (size_t)lcl__round_up(m, 64) * (size_t)d->tune.bklu_tri_p; g[1] = (size_t)which; g[2] = (size_t)cnt;
        l[0] = (size_t)(64 * d->tune.bklu_tri_p); l[1] = l[2] = 1;
        e = LCL__CL->clEnqueueNDRangeKernel(v->lq ? v->lq : d->queue[0], k, 3, NULL, g, l, 0, NULL, NULL);
    }
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, name, d->info.name);
    (void)es;
    return LCL_OK;
}

/* the frames of device v: resident need, or the budget; arenas of at most max_alloc each */
LCL__PRIVATE lcl_status lcl__bklu_dev_open(lcl_context *ctx, const char *fn, const lcl_bklu_symbolic *S, lcl_bklu_numeric *N,
                                           lcl__bklu_dev *v, lcl__bklu_dev *old, int64_t need_res, int64_t extra, int64_t need_min, int *resident) {
    lcl__device *d = v->d;
    size_t fb = lcl__bklu_fbytes(N), aux = (size_t)N->n * (size_t)N->m * 8 + (size_t)N->n * 4 + ((size_t)1 << 16);
    double budget = S->opts.mem_limit > 0 ? (double)S->opts.mem_limit : (N->memfrac > 0 ? N->memfrac : 0.9) * (double)d->info.global_mem;
    int64_t fit = budget > (double)aux ? (int64_t)((budget - (double)aux) / (double)fb) : 0, per, want, got = 0, i;
    lcl_status st = LCL_OK;
    int a;
    per = (int64_t)(LCL__MIN(d->info.max_alloc, (uint64_t)INT32_MAX * fb) / fb);
    fit = LCL__MIN(fit, per * LCL__BKLU_ARENAS);
    if (fit < need_min) {
        N->memplan = 1;     /* (less memory cannot help: lcl__bklu_run) */
        return lcl__fail(ctx, LCL_ERR_DEVICE_MEMORY,
                         "%s: device '%s' has room for %lld blocks of %lld x %lld (memory limit %.0f bytes), the largest column needs %lld "
                         "even with replacement", fn, d->info.name, (long long)fit, (long long)N->m, (long long)N->m, budget, (long long)need_min);
    }
    if (*resident && need_res > fit) *resident = 0;
    want = *resident ? need_res : fit;
    v->ahead = *resident && extra > 0 && need_res + extra <= fit;     /* frames for a second level's work */
    if (v->ahead) want += extra;
    v->fpa = (int)LCL__MIN(per, want);
    if (old && old->arena[0] && old->fpa == v->fpa && old->nframes == want) {
        for (a = 0; a < LCL__BKLU_ARENAS; a++) v->arena[a] = old->arena[a], old->arena[a] = NULL;
        got = want;
    } else {
        if (old) lcl__bklu_arenas_free(old);   /* released first: the device may not hold both */
        for (a = 0; a < LCL__BKLU_ARENAS && got < want; a++) {
            int64_t cnt = LCL__MIN((int64_t)v->fpa, want - got);
            if ((st = lcl__buffer(ctx, d, (size_t)cnt * fb, CL_MEM_READ_WRITE, &v->arena[a])) != LCL_OK) return st;
            got += cnt;
        }
        for (; a < LCL__BKLU_ARENAS; a++) v->arena[a] = v->arena[0];   /* unused kernel arguments */
    }
    v->nframes = got;
    if (!(v->freel = (int32_t *)lcl__alloc(ctx, "block LU device frames", (size_t)got, sizeof(int32_t), &st))) return st;
    for (i = 0; i < got; i++) v->freel[i] = (int32_t)(got - 1 - i);
    v->nfree = got;
    if (old) {          /* same N: same sizes */
        lcl__bklu_keep(&v->perm, NULL, &old->perm, NULL, 1);
        lcl__bklu_keep(&v->ipiv, NULL, &old->ipiv, NULL, 1);
        lcl__bklu_keep(&v->bad, NULL, &old->bad, NULL, 1);
        lcl__bklu_keep(&v->flag, NULL, &old->flag, NULL, 1);
        if (lcl__bklu_keep(&v->cur.list, NULL, &old->cur.list, NULL, old->cur.sval != NULL))
            lcl__bklu_keep(&v->cur.sval, NULL, &old->cur.sval, NULL, 1), v->cur.listcap = old->cur.listcap;
    }
    if ((!v->perm && (st = lcl__buffer(ctx, d, (size_t)N->n * (size_t)N->m * sizeof(int32_t), CL_MEM_READ_WRITE, &v->perm)) != LCL_OK) ||
        (!v->ipiv && (st = lcl__buffer(ctx, d, (size_t)N->n * (size_t)N->m * sizeof(int32_t), CL_MEM_READ_WRITE, &v->ipiv)) != LCL_OK) ||
        (!v->bad && (st = lcl__buffer(ctx, d, (size_t)N->n * sizeof(int32_t), CL_MEM_READ_WRITE, &v->bad)) != LCL_OK) ||
        (!v->flag && (st = lcl__buffer(ctx, d, sizeof(int32_t), CL_MEM_READ_WRITE, &v->flag)) != LCL_OK))
        return st;
    {
        cl_int e = CL_SUCCESS, z = 0;
        LCL__CLCHK(LCL__CL->clEnqueueWriteBuffer(d->queue[0], v->flag, CL_TRUE, 0, sizeof z, &z, 0, NULL, NULL), "clEnqueueWriteBuffer");
    done:
        return st;
    }
}

/* read column k's slots and pivots from v into the host's X, ipiv, hperm (non-blocking) */
LCL__PRIVATE cl_int lcl__bklu_export(lcl_bklu_numeric *N, lcl__bklu_cl *D, lcl__bklu_dev *v, int64_t k) {
    size_t fb = lcl__bklu_fbytes(N), ib = (size_t)N->m * sizeof(int32_t);
    cl_command_queue q = v->d->queue[0];
    int64_t s;
    cl_int e = CL_SUCCESS;
    for (s = N->colp[k]; s < N->colp[k + 1] && e == CL_SUCCESS; s++) {
        int32_t f = v->fslot[s];
        e = LCL__CL->clEnqueueReadBuffer(q, v->arena[f / v->fpa], CL_FALSE, (size_t)(f % v->fpa) * fb, fb, (char *)N->X + (size_t)s * fb, 0,
                                         NULL, NULL);
        v->transfers++;
    }
    if (e == CL_SUCCESS) e = LCL__CL->clEnqueueReadBuffer(q, v->ipiv, CL_FALSE, (size_t)k * ib, ib, N->ipiv + k * N->m, 0, NULL, NULL);
    if (e == CL_SUCCESS) e = LCL__CL->clEnqueueReadBuffer(q, v->perm, CL_FALSE, (size_t)k * ib, ib, D->hperm + k * N->m, 0, NULL, NULL);
    return e;
}

/* column k's L_kk^-1 and L blocks and its pivots, for the devices that use k after its level: into
   v's exchange area when it has one (the host factors then stay stale: the first solve reads them;
   an importer takes the inverse as is, where from the pivot block it ran a trtri of its own:
   gen:circuit:3000 on two H200s, 151 trtri launches against 70 on one), else the whole column into
   the host factors (non-blocking) */
LCL__PRIVATE cl_int lcl__bklu_share(lcl_bklu_numeric *N, lcl__bklu_cl *D, lcl__bklu_dev *v, int64_t k) {
    size_t fb = lcl__bklu_fbytes(N), ib = (size_t)N->m * sizeof(int32_t);
    cl_command_queue q = v->d->queue[0];
    int64_t s, p = N->colp[k] + N->ucnt[k];
    cl_int e = CL_SUCCESS;
    if (!v->xptr || D->xoff[k] < 0) return lcl__bklu_export(N, D, v, k);
    for (s = p; s < N->colp[k + 1] && e == CL_SUCCESS; s++) {
        int32_t f = s == p ? v->finv[2 * k] : v->fslot[s];     /* L_kk^-1 for the pivot block (lcl__bklu_hsrc) */
        e = LCL__CL->clEnqueueReadBuffer(q, v->arena[f / v->fpa], CL_FALSE, (size_t)(f % v->fpa) * fb, fb, v->xptr + D->xoff[k] + (size_t)(s - p) * fb,
                                         0, NULL, NULL);
        v->transfers++;
    }
    if (e == CL_SUCCESS)
        e = LCL__CL->clEnqueueReadBuffer(q, v->perm, CL_FALSE, (size_t)k * ib, ib, v->xptr + D->xoff[k] + (size_t)(N->colp[k + 1] - p) * fb, 0, NULL,
                                         NULL);
    if (e == CL_SUCCESS) e = LCL__CL->clEnqueueReadBuffer(q, v->perm, CL_FALSE, (size_t)k * ib, ib, D->hperm + k * N->m, 0, NULL, NULL);
    return e;
}

/* every queue of D's devices done, before host memory they write into is freed (a failed
   clFinish is retried: the devices may still be writing) */
LCL__PRIVATE void lcl__bklu_drain(lcl__bklu_cl *D) {
    int i, q, r;
    for (i = 0; i < D->nd; i++)
        for (q = 0; q < 2 && D->dv[i].d; q++)
            for (r = 0; r < 3 && LCL__CL->clFinish(D->dv[i].d->queue[q]) != CL_SUCCESS; r++) {}
}

/* the host copy of everything (the first solve after a resident factorization) */
LCL__PRIVATE lcl_status lcl__bklu_cl_fetch(lcl_context *ctx, lcl_bklu_numeric *N) {
    lcl__bklu_cl *D = N->cl;
    cl_int e = CL_SUCCESS;
    lcl_status st = LCL_OK;
    lcl__device *d = NULL;
    int64_t k;
    int i;
    if (!D || !D->stale) return LCL_OK;
    for (k = 0; k < N->n && e == CL_SUCCESS; k++)
        if (!D->onhost[k]) e = lcl__bklu_export(N, D, &D->dv[D->owner[k]], k), d = D->dv[D->owner[k]].d;
    for (i = 0; i < D->nd && e == CL_SUCCESS; i++) e = LCL__CL->clFinish(D->dv[i].d->queue[0]), d = D->dv[i].d;
    if (e != CL_SUCCESS) {
        lcl__bklu_drain(D);
        return lcl__clfail(ctx, e, "lcl_bklu_solve: reading the factors (clEnqueueReadBuffer, clFinish)", d ? d->info.name : NULL);
    }
    for (k = 0; k < N->n; k++) D->onhost[k] = 1;
    D->stale = 0;
    return st;
}

/* The block solve on the devices that hold the factors (each column on the device that computed
   it, nothing evicted): per block column two launches forward on its owner (T = L_kk^-1 P w_k,
   then w_k = T and the column's L blocks into the rows below) and two back (U_kk^-1, the U blocks
   into the rows above); after each block of the block triangular form, its off-diagonal blocks
   (F, uploaded per solve: the refactor changes them) on the device that holds W. W is on one
   device at a time: it moves, whole, through the host where the next column's owner differs
   (affinity keeps runs of columns on a device, so few moves). Reading the factors back to solve
   on the host took 16-22 s (10 GB, M = 512, one H200) and 40 s from two H100s (23 GB). The host
   solves instead (*done 0) when a factor is not on its owner or a buffer cannot be had. */
#define LCL__SV_COPY (-2147483647 - 1)
typedef struct {
    cl_mem w, t, l, f;      /* W, T (m x nrhs), the lists, F */
    cl_kernel kd, ku;
    int used;
} lcl__bklu_svd;
LCL__PRIVATE lcl_status lcl__bklu_cl_solve(lcl_context *ctx, const lcl_bklu_symbolic *S, const lcl_bklu_numeric *N, int64_t nrhs, void *W,
                                           int *done) {
    lcl__bklu_cl *D = N->cl;
    lcl__bklu_svd *sd = NULL;
    lcl_status st = LCL_OK;
    const char *kdn = N->dtype == LCL_F32 ? "lcl_bklu_sv_diag_f" : "lcl_bklu_sv_diag_d";
    const char *kun = N->dtype == LCL_F32 ? "lcl_bklu_sv_upd_f" : "lcl_bklu_sv_upd_d";
    int64_t n = N->n, m = N->m, nm = n * m, nslot, nf, k, s, f, b, at = 0, *lp = NULL, moves = 0;
    int32_t *list = NULL;   /* one for every device: a column's entries name its owner's frames */
    size_t es = lcl__dsize(N->dtype), wb = (size_t)nm * (size_t)nrhs * es, fbs = (size_t)m * (size_t)m * es, wg, g[3], l[3];
    cl_long ld = (cl_long)nm;
    cl_int e = CL_SUCCESS;
    int mi = (int)m, nr = (int)nrhs, zero = 0, one = 1, usep = !N->nopivot, i, cur = -1, fail = -1;
    *done = 0;
    if (!D || !D->stale || n < 1 || nrhs > INT_MAX) return LCL_OK;
    nslot = N->colp[n];
    nf = N->fp ? N->fp[n] : 0;
    for (k = 0; k < n; k++) {       /* every factor on its owner */
        const lcl__bklu_dev *v;
        if (D->owner[k] < 0 || D->owner[k] >= D->nd) return LCL_OK;
        v = &D->dv[D->owner[k]];
        if (v->finv[2 * k] < 0 || v->finv[2 * k + 1] < 0) return LCL_OK;
        for (s = N->colp[k]; s < N->colp[k + 1]; s++) if (v->fslot[s] < 0) return LCL_OK;
    }
    if (2 * (nslot + 2 * n + nf) > INT_MAX) return LCL_OK;
    sd = (lcl__bklu_svd *)LCL_MALLOC((size_t)D->nd * sizeof *sd);
    lp = (int64_t *)LCL_MALLOC((size_t)(3 * n + 1) * sizeof(int64_t));
    list = (int32_t *)LCL_MALLOC((size_t)(2 * (nslot + 2 * n + nf) + 2) * sizeof(int32_t));
    if (!sd || !lp || !list) {
        LCL_FREE(sd); LCL_FREE(lp); LCL_FREE(list);
        return lcl__oom(ctx, "block LU solve lists", (size_t)(2 * (nslot + 2 * n + nf) + 2) * sizeof(int32_t));
    }
    memset(sd, 0, (size_t)D->nd * sizeof *sd);
    for (k = 0; k < n; k++) sd[D->owner[k]].used = 1;
    for (i = 0; i < D->nd; i++) {
        lcl__device *d = D->dv[i].d;
        if (!sd[i].used) continue;
        if (wb > d->info.max_alloc || (size_t)LCL__MAX(nf, 1) * fbs > d->info.max_alloc) goto host;
    }
    for (k = 0; k < n; k++) {
        int64_t dg = N->colp[k] + N->ucnt[k];
        const int32_t *fs = D->dv[D->owner[k]].fslot;
        lp[3 * k] = at;                 /* forward: the copy, then the L blocks */
        list[at++] = LCL__SV_COPY; list[at++] = (int32_t)k;
        for (s = dg + 1; s < N->colp[k + 1]; s++) { list[at++] = fs[s]; list[at++] = N->slotrow[s]; }
        lp[3 * k + 1] = at;             /* back: the copy, then the U blocks */
        list[at++] = LCL__SV_COPY; list[at++] = (int32_t)k;
        for (s = N->colp[k]; s < dg; s++) { list[at++] = fs[s]; list[at++] = N->slotrow[s]; }
        lp[3 * k + 2] = at;             /* the off-diagonal blocks of the block triangular form */
        for (f = N->fp ? N->fp[k] : 0; f < (N->fp ? N->fp[k + 1] : 0); f++) { list[at++] = (int32_t)(-1 - f); list[at++] = N->fi[f]; }
    }
    lp[3 * n] = at;
    for (i = 0; i < D->nd; i++) {
        lcl__bklu_dev *v = &D->dv[i];
        lcl__device *d = v->d;
        if (!sd[i].used) continue;
        if ((st = lcl__kernel(ctx, d, N->dtype, kdn, &sd[i].kd)) != LCL_OK || (st = lcl__kernel(ctx, d, N->dtype, kun, &sd[i].ku)) != LCL_OK)
            goto host;
#define LCL__SVBUF(b, bytes) ((b) = LCL__CL->clCreateBuffer(d->cl, CL_MEM_READ_WRITE, (bytes), NULL, &e)) != NULL
        if (!(LCL__SVBUF(sd[i].w, wb) && LCL__SVBUF(sd[i].t, (size_t)m * (size_t)nrhs * es) &&
              LCL__SVBUF(sd[i].l, (size_t)LCL__MAX(at, 1) * sizeof(int32_t)) && LCL__SVBUF(sd[i].f, (size_t)LCL__MAX(nf, 1) * fbs)))
            goto host;
#undef LCL__SVBUF
    }
    *done = 1;      /* from here on, a failure is the solve's */
    wg = 0;
    for (i = 0; i < D->nd && e == CL_SUCCESS; i++) {
        lcl__bklu_dev *v = &D->dv[i];
        lcl__device *d = v->d;
        cl_kernel kd = sd[i].kd, ku = sd[i].ku;
        if (!sd[i].used) continue;
        fail = i;
        e = LCL__CL->clFinish(d->queue[1]);
        if (e == CL_SUCCESS && at)
            e = LCL__CL->clEnqueueWriteBuffer(d->queue[0], sd[i].l, CL_TRUE, 0, (size_t)at * sizeof(int32_t), list, 0, NULL, NULL);
        if (e == CL_SUCCESS && nf) e = LCL__CL->clEnqueueWriteBuffer(d->queue[0], sd[i].f, CL_TRUE, 0, (size_t)nf * fbs, N->F, 0, NULL, NULL);
        if (e == CL_SUCCESS)
            e = lcl__argv(kd, 6, LCL__A(v->arena[0]), LCL__A(v->arena[1]), LCL__A(v->arena[2]), LCL__A(v->arena[3]), LCL__A(v->fpa), LCL__A(mi));
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(kd, 9, sizeof(cl_mem), &v->perm);
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(kd, 10, sizeof(cl_mem), &sd[i].w);
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(kd, 11, sizeof ld, &ld);
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(kd, 12, sizeof nr, &nr);
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(kd, 13, sizeof(cl_mem), &sd[i].t);
        if (e == CL_SUCCESS)
            e = lcl__argv(ku, 7, LCL__A(v->arena[0]), LCL__A(v->arena[1]), LCL__A(v->arena[2]), LCL__A(v->arena[3]), LCL__A(v->fpa), LCL__A(mi),
                          LCL__A(sd[i].l));
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(ku, 8, sizeof(cl_mem), &sd[i].f);
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(ku, 9, sizeof(cl_mem), &sd[i].w);
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(ku, 10, sizeof ld, &ld);
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(ku, 11, sizeof nr, &nr);
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(ku, 12, sizeof(cl_mem), &sd[i].t);
        if (!wg || lcl__wg(d) < wg) wg = lcl__wg(d);
    }
    g[0] = (size_t)lcl__round_up(m, (int64_t)wg); g[1] = (size_t)nrhs; l[0] = wg; l[1] = l[2] = 1;
    /* W to the device of column kk (blocking both ways: the host's W is the only copy between) */
#define LCL__SVTO(kk) do { int o_ = D->owner[kk]; \
        if (e == CL_SUCCESS && o_ != cur) { \
            if (cur >= 0) { \
                fail = cur; \
                e = LCL__CL->clEnqueueReadBuffer(D->dv[cur].d->queue[0], sd[cur].w, CL_TRUE, 0, wb, W, 0, NULL, NULL); \
                moves++; } \
            fail = o_; \
            if (e == CL_SUCCESS) e = LCL__CL->clEnqueueWriteBuffer(D->dv[o_].d->queue[0], sd[o_].w, CL_TRUE, 0, wb, W, 0, NULL, NULL); \
            cur = o_; } } while (0)
#define LCL__SVDIAG(frame, kk, up) do { int fr_ = (frame), k_ = (int)(kk), u_ = (up); cl_kernel kd_ = sd[cur].kd; \
        e = LCL__CL->clSetKernelArg(kd_, 6, sizeof fr_, &fr_); \
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(kd_, 7, sizeof k_, &k_); \
        if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(kd_, 8, sizeof u_, &u_); \
        if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(D->dv[cur].d->queue[0], kd_, 2, NULL, g, l, 0, NULL, NULL); } while (0)
#define LCL__SVUPD(lo, hi, fw, kk) do { int lo_ = (int)(lo), fw_ = (fw), k_ = (int)(kk); cl_kernel ku_ = sd[cur].ku; \
        g[2] = (size_t)(((hi) - (lo)) / 2); \
        if (g[2] > 0) { \
            e = LCL__CL->clSetKernelArg(ku_, 7, sizeof lo_, &lo_); \
            if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(ku_, 13, sizeof fw_, &fw_); \
            if (e == CL_SUCCESS) e = LCL__CL->clSetKernelArg(ku_, 14, sizeof k_, &k_); \
            if (e == CL_SUCCESS) e = LCL__CL->clEnqueueNDRangeKernel(D->dv[cur].d->queue[0], ku_, 3, NULL, g, l, 0, NULL, NULL); } } while (0)
    for (b = S->ks->nblocks - 1; b >= 0 && e == CL_SUCCESS; b--) {
        int64_t k0 = S->ks->R[b], k1 = S->ks->R[b + 1];
        for (k = k0; k < k1 && e == CL_SUCCESS; k++) {
            LCL__SVTO(k);
            if (e == CL_SUCCESS) LCL__SVDIAG(D->dv[cur].finv[2 * k], k, usep);
            if (e == CL_SUCCESS) LCL__SVUPD(lp[3 * k], lp[3 * k + 1], zero, k);
        }
        for (k = k1 - 1; k >= k0 && e == CL_SUCCESS; k--) {
            LCL__SVTO(k);
            if (e == CL_SUCCESS) LCL__SVDIAG(D->dv[cur].finv[2 * k + 1], k, zero);
            if (e == CL_SUCCESS) LCL__SVUPD(lp[3 * k + 1], lp[3 * k + 2], zero, k);
        }
        for (k = k0; k < k1 && e == CL_SUCCESS; k++) LCL__SVUPD(lp[3 * k + 2], lp[3 * k + 3], one, k);
    }
#undef LCL__SVTO
#undef LCL__SVDIAG
#undef LCL__SVUPD
    if (e == CL_SUCCESS && cur >= 0) {
        fail = cur;
        e = LCL__CL->clEnqueueReadBuffer(D->dv[cur].d->queue[0], sd[cur].w, CL_TRUE, 0, wb, W, 0, NULL, NULL);
    }
    if (e != CL_SUCCESS)
        for (i = 0; i < D->nd; i++) if (sd[i].used) LCL__CL->clFinish(D->dv[i].d->queue[0]);
    D->svmoves = moves;
host:
    for (i = 0; i < D->nd; i++) {
        if (sd[i].w) LCL__CL->clReleaseMemObject(sd[i].w);
        if (sd[i].t) LCL__CL->clReleaseMemObject(sd[i].t);
        if (sd[i].l) LCL__CL->clReleaseMemObject(sd[i].l);
        if (sd[i].f) LCL__CL->clReleaseMemObject(sd[i].f);
    }
    LCL_FREE(sd);
    LCL_FREE(lp);
    LCL_FREE(list);
    if (*done && e != CL_SUCCESS)
        return lcl__clfail(ctx, e, "lcl_bklu_solve: the solve on the device", fail >= 0 ? D->dv[fail].d->info.name : "?");
    if (st != LCL_OK) *done = 1;
    return st;
}

/* one column with its dependencies' L parts brought in one at a time: the fallback when even a
   single column and all of them do not fit (memory far below the factors') */
LCL__PRIVATE lcl_status lcl__bklu_stepwise(lcl_context *ctx, const char *fn, const lcl_bklu_numeric *N, const lcl_bmat *A, lcl__bklu_cl *D,
                                           lcl__bklu_dev *v, int64_t k, int64_t l) {
    lcl__device *d = v->d;
    size_t fb = lcl__bklu_fbytes(N);
    const lcl_klu_numeric *kn = N->kn;
    const char *kgemm = N->dtype == LCL_F32 ? "lcl_bklu_gemm_f" : "lcl_bklu_gemm_d";
    const char *kcopy = N->dtype == LCL_F32 ? "lcl_bklu_permcopy_f" : "lcl_bklu_permcopy_d";
    const char *ktri = N->dtype == LCL_F32 ? "lcl_bklu_trtri_f" : "lcl_bklu_trtri_d";
    int64_t m = N->m, s0 = N->colp[k], nu = N->ucnt[k], nl = N->colp[k + 1] - s0 - nu - 1, base = (N->colp[k + 1] - s0) + 3 + nl;
    int64_t dep = 0, t, s, q, q0, ntmp = 0, *pos = v->pos;
    int32_t *pin = v->pin, *tmpf = v->tmpf, st_ = ++v->stamp, ut;
    cl_int e = CL_SUCCESS;
    lcl_status st;
    for (t = 0; t < nu; t++) {
        int64_t j = N->slotrow[s0 + t];
        dep = LCL__MAX(dep, N->colp[j + 1] - N->colp[j] - N->ucnt[j] + 1);
    }
    pin[k] = st_;
    if (!lcl__bklu_room(N, D, v, base + dep, l, pin, st_))
        return lcl__fail(ctx, LCL_ERR_DEVICE_MEMORY, "%s: device '%s': block column %lld needs %lld blocks of %lld x %lld at least, %lld are free "
                         "after every possible replacement (opts.mem_limit)", fn, d->info.name, (long long)k, (long long)(base + dep),
                         (long long)m, (long long)m, (long long)v->nfree);
#define LCL__PUSH(x, sc) do { if (!lcl__bklu_push(v, (int32_t)(x), (sc))) return lcl__oom(ctx, "block LU lists", (size_t)v->cur.hlcap * 12); } while (0)
    v->nhl = 0;
    for (s = s0; s < N->colp[k + 1]; s++) {
        v->fslot[s] = lcl__bklu_take(v);
        if (!D->aslot[s]) LCL__PUSH(v->fslot[s], 0);
    }
    v->finv[2 * k] = lcl__bklu_take(v);
    v->finv[2 * k + 1] = lcl__bklu_take(v);
    ut = tmpf[ntmp++] = lcl__bklu_take(v);
    for (s = 0; s < nl; s++) tmpf[ntmp++] = lcl__bklu_take(v);   /* L's work blocks, before any import */
    q0 = v->nhl;
    for (q = D->acp[k]; q < D->acp[k + 1]; q++) {
        int64_t ea = D->ace[q];
        LCL__PUSH(v->fslot[N->amap[ea]], kn->Rs ? 1.0 / kn->Rs[lcl__bklu_arow(A, ea)] : 1.0);
    }
    if ((st = lcl__bklu_lists(ctx, N, v, 1)) != LCL_OK ||
        (st = lcl__bklu_launch(ctx, N, v, N->dtype == LCL_F32 ? "lcl_bklu_zero_f" : "lcl_bklu_zero_d", 1, 0, q0, 0, 0, 0)) != LCL_OK)
        return st;
    for (q = D->acp[k]; q < D->acp[k + 1]; q++) {
        int64_t ea = D->ace[q];
        int32_t f = v->fslot[N->amap[ea]];
        if ((e = LCL__CL->clEnqueueWriteBuffer(d->queue[0], v->arena[f / v->fpa], CL_FALSE, (size_t)(f % v->fpa) * fb, fb,
                                               (const char *)A->val + (size_t)ea * fb, 0, NULL, NULL)) != CL_SUCCESS)
            goto clfail;
        v->transfers++;
    }
    if ((st = lcl__bklu_launch(ctx, N, v, N->dtype == LCL_F32 ? "lcl_bklu_scale_f" : "lcl_bklu_scale_d", 1, q0, v->nhl - q0, 0, 0, 0)) != LCL_OK)
        return st;
    for (t = 0; t < nu; t++) {
        int64_t j = N->slotrow[s0 + t], lj = N->colp[j] + N->ucnt[j] + 1, ni = 0, o;
        int32_t st2 = ++v->stamp, df = -1;
        pin[k] = pin[j] = st2;
        v->nhl = 0;
        if (!v->has[j]) {
            if (!lcl__bklu_room(N, D, v, N->colp[j + 1] - lj + 2, l, pin, st2))
                return lcl__fail(ctx, LCL_ERR_INTERNAL, "%s: block LU frames miscounted", fn);
            if ((e = lcl__bklu_import(N, D, v, j)) != CL_SUCCESS) goto clfail;
            df = lcl__bklu_take(v);
            if ((e = lcl__bklu_put(v, d->queue[0], df, lcl__bklu_hsrc(N, D, j, lj - 1), fb)) != CL_SUCCESS)
                goto clfail;
            v->transfers++;
            LCL__PUSH(df, 0); LCL__PUSH(v->finv[2 * j], 0); LCL__PUSH(v->finv[2 * j], 0);
            ni = 1;
        }
        o = v->nhl;
        LCL__PUSH(v->fslot[s0 + t], 0); LCL__PUSH(ut, 0); LCL__PUSH(N->nopivot ? -1 : j * m, 0);
        LCL__PUSH(v->finv[2 * j], 0); LCL__PUSH(ut, 0); LCL__PUSH(v->fslot[s0 + t], 0);
        for (s = s0; s < N->colp[k + 1]; s++) pos[N->slotrow[s]] = s;
        for (q = lj; q < N->colp[j + 1]; q++) {
            LCL__PUSH(v->fslot[q], 0); LCL__PUSH(v->fslot[s0 + t], 0); LCL__PUSH(v->fslot[pos[N->slotrow[q]]], 0);
        }
        for (s = s0; s < N->colp[k + 1]; s++) pos[N->slotrow[s]] = -1;
        if ((st = lcl__bklu_lists(ctx, N, v, 1)) != LCL_OK || (st = lcl__bklu_launch(ctx, N, v, ktri, 3, 0, ni, 0, 0, 1)) != LCL_OK ||
            (st = lcl__bklu_launch(ctx, N, v, kcopy, 1, o, 1, 0, 0, 0)) != LCL_OK ||
            (st = lcl__bklu_launch(ctx, N, v, kgemm, 0, o + 3, 1, 1.0, 0.0, 0)) != LCL_OK ||
            (st = lcl__bklu_launch(ctx, N, v, kgemm, 0, o + 6, N->colp[j + 1] - lj, -1.0, 1.0, 0)) != LCL_OK)
            return st;
        lcl__bklu_give(v, &df);
    }
    v->nhl = 0;
    LCL__PUSH(v->fslot[s0 + nu], 0); LCL__PUSH(k * m, 0); LCL__PUSH(k, 0);
    LCL__PUSH(v->fslot[s0 + nu], 0); LCL__PUSH(v->finv[2 * k], 0); LCL__PUSH(v->finv[2 * k + 1], 0);
    for (s = s0 + nu + 1; s < N->colp[k + 1]; s++) {
        LCL__PUSH(v->fslot[s], 0); LCL__PUSH(tmpf[1 + s - (s0 + nu + 1)], 0); LCL__PUSH(-1, 0);
    }
    for (s = s0 + nu + 1; s < N->colp[k + 1]; s++) {
        LCL__PUSH(tmpf[1 + s - (s0 + nu + 1)], 0); LCL__PUSH(v->finv[2 * k + 1], 0); LCL__PUSH(v->fslot[s], 0);
    }
#undef LCL__PUSH
    if ((st = lcl__bklu_lists(ctx, N, v, 1)) != LCL_OK ||
        (st = lcl__bklu_launch(ctx, N, v, N->dtype == LCL_F32 ? "lcl_bklu_lu_f" : "lcl_bklu_lu_d", 2, 0, 1, 0, 0, 0)) != LCL_OK ||
        (st = lcl__bklu_launch(ctx, N, v, ktri, 3, 3, 1, 0, 0, 2)) != LCL_OK || (st = lcl__bklu_launch(ctx, N, v, kcopy, 1, 6, nl, 0, 0, 0)) != LCL_OK ||
        (st = lcl__bklu_launch(ctx, N, v, kgemm, 0, 6 + 3 * nl, nl, 1.0, 0.0, 0)) != LCL_OK)
        return st;
    v->has[k] = 1;
    while (ntmp > 0) lcl__bklu_give(v, &tmpf[--ntmp]);
    if (!D->resident) {
        if ((e = lcl__bklu_export((lcl_bklu_numeric *)N, D, v, k)) != CL_SUCCESS) goto clfail;
        v->pend[v->npend++] = (int32_t)k;
    }
    return LCL_OK;
clfail:
    return lcl__clfail(ctx, e, "clEnqueueWriteBuffer(lcl_bklu)", d->info.name);
}

/* resident mode: the frames of the columns cols[0..cnt) taken and A's blocks written on the
   transfer queue, so that the writes of one level overlap the arithmetic of the level before */
LCL__PRIVATE lcl_status lcl__bklu_stage(lcl_context *ctx, const lcl_bklu_numeric *N, const lcl_bmat *A, lcl__bklu_cl *D, lcl__bklu_dev *v,
                                        const int32_t *cols, int64_t cnt, int batch) {
    lcl__device *d = v->d;
    size_t fb = lcl__bklu_fbytes(N);
    int64_t c, s, q, nq = 0, b = 0;
    double by = 0;  /* A's bytes (a batch's, for the window) */
    cl_int e = CL_SUCCESS;
    const char *what = "clEnqueueWriteBuffer(lcl_bklu, transfer queue)";
    for (c = 0; c < cnt; c++) {
        int64_t k = cols[c], r;
        by += (double)(D->acp[k + 1] - D->acp[k]) * (double)fb;
        /* A's blocks' frames first, in A's order: on a fresh free list they follow each other, and
           one write takes a column's run of blocks (fewer commands for the host to enqueue) */
        for (s = N->colp[k]; s < N->colp[k + 1]; s++) v->fslot[s] = -1;
        for (q = D->acp[k]; q < D->acp[k + 1]; q++) v->fslot[N->amap[D->ace[q]]] = lcl__bklu_take(v);
        for (s = N->colp[k]; s < N->colp[k + 1]; s++)
            if (v->fslot[s] < 0) v->fslot[s] = lcl__bklu_take(v);
        v->finv[2 * k] = lcl__bklu_take(v);
        v->finv[2 * k + 1] = lcl__bklu_take(v);
        for (q = D->acp[k]; q < D->acp[k + 1]; q = r) {
            int64_t ea = D->ace[q];
            int32_t f = v->fslot[N->amap[ea]];
            r = q + 1;
            if (v->ringp) {
                v->bq[2 * nq] = ea, v->bq[2 * nq + 1] = f, nq++;
                continue;
            }
            while (r < D->acp[k + 1] && D->ace[r] == ea + (r - q) && v->fslot[N->amap[D->ace[r]]] == f + (r - q) && (f + (r - q)) % v->fpa)
                r++;    /* the run: next in A and in the same arena */
            if (e == CL_SUCCESS)
                e = LCL__CL->clEnqueueWriteBuffer(d->queue[1], v->arena[f / v->fpa], CL_FALSE, (size_t)(f % v->fpa) * fb, (size_t)(r - q) * fb,
                                                  (const char *)A->val + (size_t)ea * fb, 0, NULL, NULL);
            v->transfers += r - q;
            d->seen.direct_blocks += v->direct * (r - q);
        }
        v->staged[k] = batch ? 2 : 1;
        if (batch) v->ebat[k] = (int32_t)v->enb, v->ecol[v->enb ? v->eend[v->enb - 1] + c : c] = (int32_t)k;
    }
    /* through the ring: a batch fills what is left of the current half (copied by the context's
       threads: one thread's memcpy, not the bus, limits the upload), then its DMA writes; a half
       is reused once the writes from it are done */
    while (e == CL_SUCCESS && b < nq) {
        size_t half = v->ringsz / 2, room = (size_t)(v->ringhalf + 1) * half - v->ringpos;
        int64_t nb = LCL__MIN(nq - b, (int64_t)(room / fb)), t, u;
        char *base = v->ringp + v->ringpos;
        if (nb == 0) {
            if (v->ringev[v->ringhalf]) LCL__CL->clReleaseEvent(v->ringev[v->ringhalf]);
            v->ringev[v->ringhalf] = NULL;
            if ((e = LCL__CL->clEnqueueMarkerWithWaitList(d->queue[1], 0, NULL, &v->ringev[v->ringhalf])) != CL_SUCCESS) {
                what = "clEnqueueMarkerWithWaitList(lcl_bklu, staging ring)";
                break;
            }
            LCL__CL->clFlush(d->queue[1]);
            v->ringhalf ^= 1;
            v->ringpos = (size_t)v->ringhalf * half;
            if (v->ringev[v->ringhalf] && (e = LCL__CL->clWaitForEvents(1, &v->ringev[v->ringhalf])) != CL_SUCCESS) what = "clWaitForEvents(lcl_bklu, staging ring)";
            continue;
        }
        {
            int nt = v->team > 0 ? v->team : lcl__bklu_team(ctx);
            (void)nt;     /* without OpenMP */
            LCL__OMP(omp parallel for num_threads(nt) schedule(static) if (nb > 1 && nt > 1))
            for (t = 0; t < nb; t++) memcpy(base + (size_t)t * fb, (const char *)A->val + (size_t)v->bq[2 * (b + t)] * fb, fb);
        }
        for (t = 0; t < nb && e == CL_SUCCESS; t = u) {   /* one write a run of frames, as from pinned A */
            int64_t f = v->bq[2 * (b + t) + 1];
            u = t + 1;
            while (u < nb && v->bq[2 * (b + u) + 1] == f + (u - t) && (f + (u - t)) % v->fpa) u++;
            e = LCL__CL->clEnqueueWriteBuffer(d->queue[1], v->arena[f / v->fpa], CL_FALSE, (size_t)(f % v->fpa) * fb, (size_t)(u - t) * fb,
                                              base + (size_t)t * fb, 0, NULL, NULL);
            v->transfers += u - t;
        }
        v->ringpos += (size_t)nb * fb;
        b += nb;
    }
    if (batch) {    /* a batch of later columns: its own marker, read by lcl__bklu_arrived */
        v->ebytes[v->enb] = by, v->einfl += by;
        v->eend[v->enb] = (v->enb ? v->eend[v->enb - 1] : 0) + cnt;
        v->eev[v->enb] = NULL;
        if (e != CL_SUCCESS) return lcl__clfail(ctx, e, what, d->info.name);
        if ((e = LCL__CL->clEnqueueMarkerWithWaitList(d->queue[1], 0, NULL, &v->eev[v->enb++])) != CL_SUCCESS)
            return lcl__clfail(ctx, e, "clEnqueueMarkerWithWaitList(lcl_bklu, transfer queue)", d->info.name);
        if ((e = LCL__CL->clFlush(d->queue[1])) != CL_SUCCESS) return lcl__clfail(ctx, e, "clFlush(lcl_bklu)", d->info.name);
        return LCL_OK;
    }
    if (v->stage_ev) LCL__CL->clReleaseEvent(v->stage_ev);
    v->stage_ev = NULL;
    if (e != CL_SUCCESS) return lcl__clfail(ctx, e, what, d->info.name);
    if ((e = LCL__CL->clEnqueueMarkerWithWaitList(d->queue[1], 0, NULL, &v->stage_ev)) != CL_SUCCESS)
        return lcl__clfail(ctx, e, "clEnqueueMarkerWithWaitList(lcl_bklu, transfer queue)", d->info.name);
    if ((e = LCL__CL->clFlush(d->queue[1])) != CL_SUCCESS) return lcl__clfail(ctx, e, "clFlush(lcl_bklu)", d->info.name);
    return LCL_OK;
}

/* eager, batches of later columns' A (lcl__bklu_stage, batch): those done, oldest first (one
   transfer queue, in order), have arrived and their columns may run early U steps with no wait */
LCL__PRIVATE void lcl__bklu_arrived(lcl__bklu_dev *v) {
    while (v->ehead < v->enb) {
        cl_int s = CL_QUEUED;
        int64_t c;
        if (LCL__CL->clGetEventInfo(v->eev[v->ehead], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL) != CL_SUCCESS || s != CL_COMPLETE)
            return;     /* running, or failed: its columns' own levels wait for it, and see the error */
        for (c = v->ehead ? v->eend[v->ehead - 1] : 0; c < v->eend[v->ehead]; c++)
            if (v->staged[v->ecol[c]] == 2) v->staged[v->ecol[c]] = 1;
        v->einfl -= v->ebytes[v->ehead];
        LCL__CL->clReleaseEvent(v->eev[v->ehead]);
        v->eev[v->ehead++] = NULL;
    }
}

/* tune.bklu_stage_kb: device i's later columns' A staged in level order (a batch per level, or per
   quarter window) while less than the window is on its way; called at each level and while the
   host waits. The driver holds the host in an enqueue far ahead of the copies (call 10) */
LCL__PRIVATE lcl_status lcl__bklu_topup(lcl_context *ctx, const lcl_bklu_numeric *N, const lcl_bmat *A, lcl__bklu_cl *D, lcl__bklu_dev *v,
                                        int i) {
    size_t fb = lcl__bklu_fbytes(N);
    double win = (double)v->d->tune.bklu_stage_kb * 1024.0;
    lcl_status st;
    if (win < 0) {   /* a twentieth of all of A (every device's), 16 MB to 1 GB */
        win = (double)D->acp[N->n] * (double)fb / 20.0;
        win = win < 16.0 * (1 << 20) ? 16.0 * (1 << 20) : win > 1024.0 * (1 << 20) ? 1024.0 * (1 << 20) : win;
    }
    if (!v->eev || win <= 0) return LCL_OK;
    lcl__bklu_arrived(v);
    while (v->enext < N->levp[N->nlev] && v->einfl < win) {
        int64_t cnt = 0, l = lcl__bklu_seg(N->levp, N->nlev, v->enext);
        double by = 0;
        for (; v->enext < N->levp[l + 1] && by < win / 4; v->enext++) {
            int64_t k = N->levc[v->enext];
            if (D->owner[k] != i || v->staged[k]) continue;
            v->cols[cnt++] = (int32_t)k;
            by += (double)(D->acp[k + 1] - D->acp[k]) * (double)fb;
        }
        if (cnt && (st = lcl__bklu_stage(ctx, N, A, D, v, v->cols, cnt, 1)) != LCL_OK) return st;
    }
    return LCL_OK;
}

/* U-step round t of the chunk's lists (ch): the U blocks copied in their dependency's row order,
   times L_jj^-1, then the column's lower slots updated */
LCL__PRIVATE lcl_status lcl__bklu_round(lcl_context *ctx, const lcl_bklu_numeric *N, lcl__bklu_dev *v, int64_t t) {
    const lcl__bklu_chunk *ch = &v->ch;
    int f32 = N->dtype == LCL_F32;
    lcl_status st;
    if ((st = lcl__bklu_launch(ctx, N, v, f32 ? "lcl_bklu_permcopy_f" : "lcl_bklu_permcopy_d", 1, ch->uo[t], ch->uc[t], 0, 0, 0)) != LCL_OK ||
        (st = lcl__bklu_launch(ctx, N, v, f32 ? "lcl_bklu_gemm_f" : "lcl_bklu_gemm_d", 0, ch->uo[t] + 3 * ch->uc[t], ch->uc[t], 1.0, 0.0, 0)) !=
            LCL_OK)
        return st;
    return lcl__bklu_launch(ctx, N, v, f32 ? "lcl_bklu_gemm_f" : "lcl_bklu_gemm_d", 0, ch->wo[t], ch->wc[t], -1.0, 1.0, 0);
}

/* *ev (released first) becomes a marker after all that the eager queue q holds so far */
LCL__PRIVATE cl_int lcl__bklu_q2mark(cl_command_queue q, cl_event *ev) {
    if (*ev) LCL__CL->clReleaseEvent(*ev);
    *ev = NULL;
    return LCL__CL->clEnqueueMarkerWithWaitList(q, 0, NULL, ev);
}

/* the columns cols[0..cnt) of one level on device v, in chunks whose frames fit */
LCL__PRIVATE lcl_status lcl__bklu_level(lcl_context *ctx, const char *fn, const lcl_bklu_numeric *N, const lcl_bmat *A, lcl__bklu_cl *D,
                                        lcl__bklu_dev *v, const int32_t *cols, int64_t cnt, int64_t l) {
    lcl__device *d = v->d;
    size_t fb = lcl__bklu_fbytes(N);
    const lcl_klu_numeric *kn = N->kn;
    int64_t i0 = 0, m = N->m;
    int32_t *pin = v->pin, *tmpf = v->tmpf;
    lcl__bklu_chunk *ch = &v->ch;
    cl_int e = CL_SUCCESS;
    lcl_status st = LCL_OK;
    while (i0 < cnt) {
        int64_t i1 = i0, need = 0, ni = 0, nz, na, nt0, nlt = 0, maxu = 0, c, s, t, p, o_it, o_z, o_a, o_lu, o_tr, o_lc, o_lg, ntmp = 0;
        int64_t x, nx = 0, *ux = v->ux, nown, gx[3], gm[2] = {0, 0}, g, rt, nxq = 0, r1 = 0;
        int split, early;
        int32_t st_ = ++v->stamp;
        /* which columns: as many as fit, at least one */
        while (i1 < cnt) {
            int64_t k = cols[i1], r = (v->staged[k] ? 1 : (N->colp[k + 1] - N->colp[k]) + 3) + (N->colp[k + 1] - N->colp[k] - N->ucnt[k] - 1);
            for (p = 0; p < N->ucnt[k]; p++) {
                int64_t j = N->slotrow[N->colp[k] + p];
                if (!v->has[j] && pin[j] != st_) r += N->colp[j + 1] - N->colp[j] - N->ucnt[j] + 1;
                pin[j] = st_;
            }
            pin[k] = st_;
            if (!lcl__bklu_room(N, D, v, need + r, l, pin, st_)) break;
            need += r;
            i1++;
        }
        if (i1 == i0) {     /* not even one column with all its dependencies: one at a time */
            if ((st = lcl__bklu_stepwise(ctx, fn, N, A, D, v, cols[i0], l)) != LCL_OK) return st;
            i0++;
            continue;
        }
        /* the columns of the U steps (ux: column, first step, steps): the chunk's, from the steps
           they ran ahead; eager (one chunk for the level), with them every later column here whose
           next U steps depend only on columns done (a column's first U rows are old: the levels
           would hold them back), a work frame each while frames are left */
        for (c = i0; c < i1; c++, nx++) {
            ux[3 * nx] = cols[c], ux[3 * nx + 1] = v->ustep[cols[c]], ux[3 * nx + 2] = N->ucnt[cols[c]] - v->ustep[cols[c]];
            maxu = LCL__MAX(maxu, ux[3 * nx + 2]);
        }
        nown = nx, gm[0] = maxu;
        if (v->eager && i0 == 0 && i1 == cnt) {
            int64_t q, room = v->nfree - need - 1, spent = 0;
            int paced = 0;
            if (v->eev) lcl__bklu_arrived(v);
            for (q = N->levp[l + 1]; q < N->levp[N->nlev] && room > 0 && !paced; q++) {
                int64_t k = N->levc[q], s0 = v->ustep[k], u = s0;
                const int far = l + 2 <= N->nlev && q >= N->levp[l + 2];
                if (D->owner[k] != (int32_t)(v - D->dv) || v->staged[k] != 1) continue;
                while (u < N->ucnt[k]) {
                    int64_t j = N->slotrow[N->colp[k] + u], w = N->colp[j + 1] - N->colp[j] - N->ucnt[j] + 1;
                    /* tune.bklu_eager_pace: columns past the next level within the level's budget (the
                       next level's own, first in this order, always); the rest of the steps wait for
                       a later level, in order, where they are ready all the same */
                    if (far && v->epace > 0 && spent + w > v->epace) {
                        paced = 1;
                        d->seen.eager_paced++;
                        break;
                    }
                    /* with exchanges, a column another device has read back by now comes in for
                       these steps (else a device's share of the top levels, whose dependencies
                       are on both, ran no U step early: gen:circuit:3000 on two H200s) */
                    if (!v->has[j] && (!lcl__bklu_xdone(D, j) || w >= room)) break;
                    if (!v->has[j]) v->has[j] = 2, room -= w, v->xq[nxq++] = (int32_t)j, d->seen.eager_imports++;
                    spent += w;
                    u++;
                }
                if (u == s0) continue;
                ux[3 * nx] = k, ux[3 * nx + 1] = s0, ux[3 * nx + 2] = u - s0, nx++, room--;
                maxu = LCL__MAX(maxu, u - s0);
                gm[1] = LCL__MAX(gm[1], u - s0);
                if (l + 2 <= N->nlev && q < N->levp[l + 2]) r1 = LCL__MAX(r1, u - s0);   /* a column of the next level */
            }
            d->seen.eager_cols += nx - nown;
        }
        /* the U steps in rounds, step t of each column a round: with a second queue (q2) the
           chunk's own columns' rounds, then the later columns' (on q2); else all in one set */
        split = v->q2 && nx > nown;
        /* tune.bklu_eager_end: the level's end waits on q2 only up to the next level's columns'
           rounds (q2ev1, a marker after them, or before this level's rounds where it has none),
           so the later columns' rounds run on beside the next level; the host retires a level
           once q2's marker after it is done too (lcl__bklu_step), so its frames and lists outlive
           them */
        early = v->q2 && v->ahead && d->tune.bklu_eager_end;
        gx[0] = 0, gx[1] = split ? nown : nx, gx[2] = nx;
        if (!split) gm[0] = maxu, gm[1] = 0;
        if (gm[0] + gm[1] + 1 > ch->cap) {
            int64_t cap = 2 * (gm[0] + gm[1] + 1);
            LCL_FREE(ch->uo); LCL_FREE(ch->uc); LCL_FREE(ch->wo); LCL_FREE(ch->wc);
            ch->uo = (int64_t *)LCL_MALLOC((size_t)cap * sizeof(int64_t));
            ch->uc = (int64_t *)LCL_MALLOC((size_t)cap * sizeof(int64_t));
            ch->wo = (int64_t *)LCL_MALLOC((size_t)cap * sizeof(int64_t));
            ch->wc = (int64_t *)LCL_MALLOC((size_t)cap * sizeof(int64_t));
            if (!ch->uo || !ch->uc || !ch->wo || !ch->wc) { ch->cap = 0; return lcl__oom(ctx, "block LU schedule", (size_t)cap * 32); }
            ch->cap = cap;
        }
        v->nhl = 0;
#define LCL__PUSH(x, sc) do { if (!lcl__bklu_push(v, (int32_t)(x), (sc))) return lcl__oom(ctx, "block LU lists", (size_t)v->cur.hlcap * 12); } while (0)
        /* imports: the L parts of dependencies computed elsewhere (or dropped), L_jj^-1 rebuilt here */
        o_it = v->nhl;
        for (c = i0; c <= i1; c++) {   /* the chunk's dependencies, then the eager steps' (xq) */
            int64_t k = c < i1 ? cols[c] : -1, np = c < i1 ? N->ucnt[k] : nxq;
            for (p = 0; p < np; p++) {
                int64_t j = c < i1 ? N->slotrow[N->colp[k] + p] : v->xq[p];
                int32_t df;
                if (v->has[j] == 1) continue;
                if ((e = lcl__bklu_import(N, D, v, j)) != CL_SUCCESS) goto clfail;
                if (D->inx && D->inx[j]) {  /* from an exchange area: its owner's L_jj^-1 itself */
                    if ((e = lcl__bklu_put(v, d->queue[0], v->finv[2 * j], lcl__bklu_hsrc(N, D, j, N->colp[j] + N->ucnt[j]), fb)) != CL_SUCCESS)
                        goto clfail;
                    v->transfers++;
                    continue;
                }
                df = lcl__bklu_take(v);
                tmpf[ntmp++] = df;
                e = lcl__bklu_put(v, d->queue[0], df, lcl__bklu_hsrc(N, D, j, N->colp[j] + N->ucnt[j]), fb);
                if (e != CL_SUCCESS) goto clfail;
                v->transfers++;
                LCL__PUSH(df, 0); LCL__PUSH(v->finv[2 * j], 0); LCL__PUSH(v->finv[2 * j], 0);
                ni++;
            }
        }
        /* frames of the chunk's columns; zero all, A's blocks written and scaled */
        o_z = v->nhl;
        for (x = 0; x < nx; x++) {
            int64_t k = ux[3 * x];
            if (v->prep[k]) continue;   /* eager: done when its first steps ran */
            for (s = N->colp[k]; s < N->colp[k + 1]; s++) {
                if (!v->staged[k]) v->fslot[s] = lcl__bklu_take(v);
                if (!D->aslot[s]) LCL__PUSH(v->fslot[s], 0);
            }
            if (!v->staged[k]) {
                v->finv[2 * k] = lcl__bklu_take(v);
                v->finv[2 * k + 1] = lcl__bklu_take(v);
            }
        }
        nz = v->nhl - o_z;
        o_a = v->nhl;
        for (x = 0; x < nx; x++) {
            int64_t k = ux[3 * x], q;
            if (v->prep[k]) continue;
            for (q = D->acp[k]; q < D->acp[k + 1]; q++) {
                int64_t ea = D->ace[q], ar = lcl__bklu_arow(A, ea);
                int32_t f = v->fslot[N->amap[ea]];
                LCL__PUSH(f, kn->Rs ? 1.0 / kn->Rs[ar] : 1.0);
            }
        }
        na = v->nhl - o_a;
        for (x = 0; x < nx; x++) v->prep[ux[3 * x]] = 1;
        /* U steps: step t of every column in ux that has one (its U block ux[1] + t; one column's
           updates a launch each, so no two items of a launch write the same block) */
        nt0 = ntmp;
        for (x = 0; x < nx; x++) tmpf[ntmp++] = lcl__bklu_take(v);   /* one work block per column */
        for (g = 0, rt = 0; g < 2; rt += gm[g], g++)
            for (t = 0; t < gm[g]; t++) {
                ch->uo[rt + t] = v->nhl;
                for (x = gx[g]; x < gx[g + 1]; x++) {
                    int64_t k = ux[3 * x], u = N->colp[k] + ux[3 * x + 1] + t;
                    if (t >= ux[3 * x + 2]) continue;
                    LCL__PUSH(v->fslot[u], 0);
                    LCL__PUSH(tmpf[nt0 + x], 0);
                    LCL__PUSH(N->nopivot ? -1 : N->slotrow[u] * m, 0);
                }
                ch->uc[rt + t] = (v->nhl - ch->uo[rt + t]) / 3;
                for (x = gx[g]; x < gx[g + 1]; x++) {
                    int64_t u = N->colp[ux[3 * x]] + ux[3 * x + 1] + t;
                    if (t >= ux[3 * x + 2]) continue;
                    LCL__PUSH(v->finv[2 * N->slotrow[u]], 0);
                    LCL__PUSH(tmpf[nt0 + x], 0);
                    LCL__PUSH(v->fslot[u], 0);
                }
                ch->wo[rt + t] = v->nhl;
                for (x = gx[g]; x < gx[g + 1]; x++) {
                    int64_t k = ux[3 * x], u = N->colp[k] + ux[3 * x + 1] + t, j, lj, q, *pos = v->pos;
                    if (t >= ux[3 * x + 2]) continue;
                    j = N->slotrow[u];
                    lj = N->colp[j] + N->ucnt[j] + 1;
                    for (s = N->colp[k]; s < N->colp[k + 1]; s++) pos[N->slotrow[s]] = s;
                    for (q = lj; q < N->colp[j + 1]; q++) {
                        LCL__PUSH(v->fslot[q], 0);
                        LCL__PUSH(v->fslot[u], 0);
                        LCL__PUSH(v->fslot[pos[N->slotrow[q]]], 0);
                    }
                    for (s = N->colp[k]; s < N->colp[k + 1]; s++) pos[N->slotrow[s]] = -1;
                }
                ch->wc[rt + t] = (v->nhl - ch->wo[rt + t]) / 3;
            }
        for (x = 0; x < nx; x++) v->ustep[ux[3 * x]] += (int32_t)ux[3 * x + 2];
        /* pivot LU and the inverses */
        o_lu = v->nhl;
        for (c = i0; c < i1; c++) {
            int64_t k = cols[c];
            LCL__PUSH(v->fslot[N->colp[k] + N->ucnt[k]], 0); LCL__PUSH(k * m, 0); LCL__PUSH(k, 0);
        }
        o_tr = v->nhl;
        for (c = i0; c < i1; c++) {
            int64_t k = cols[c];
            LCL__PUSH(v->fslot[N->colp[k] + N->ucnt[k]], 0); LCL__PUSH(v->finv[2 * k], 0); LCL__PUSH(v->finv[2 * k + 1], 0);
        }
        /* L(i,k) = X_i U_kk^-1: copy to a work block, GEMM back */
        o_lc = v->nhl;
        for (c = i0; c < i1; c++) {
            int64_t k = cols[c];
            for (s = N->colp[k] + N->ucnt[k] + 1; s < N->colp[k + 1]; s++) {
                int32_t tf = lcl__bklu_take(v);
                tmpf[ntmp++] = tf;
                LCL__PUSH(v->fslot[s], 0); LCL__PUSH(tf, 0); LCL__PUSH(-1, 0);
                nlt++;
            }
        }
        o_lg = v->nhl;
        {
            int64_t q = 0;
            for (c = i0; c < i1; c++) {
                int64_t k = cols[c];
                for (s = N->colp[k] + N->ucnt[k] + 1; s < N->colp[k + 1]; s++, q++) {
                    LCL__PUSH(v->cur.hl[o_lc + 3 * q + 1], 0); LCL__PUSH(v->finv[2 * k + 1], 0); LCL__PUSH(v->fslot[s], 0);
                }
            }
        }
#undef LCL__PUSH
        if ((st = lcl__bklu_lists(ctx, N, v, !(v->ahead && i0 == 0 && i1 == cnt))) != LCL_OK) return st;
        LCL__BKLU_MARK(d->queue[0], 0);
        /* the launches, in this order on the device's queue */
        if ((st = lcl__bklu_launch(ctx, N, v, N->dtype == LCL_F32 ? "lcl_bklu_trtri_f" : "lcl_bklu_trtri_d", 3, o_it, ni, 0, 0, 1)) != LCL_OK ||
            (st = lcl__bklu_launch(ctx, N, v, N->dtype == LCL_F32 ? "lcl_bklu_zero_f" : "lcl_bklu_zero_d", 1, o_z, nz, 0, 0, 0)) != LCL_OK)
            return st;
        for (c = i0; c < i1; c++) {
            int64_t k = cols[c], q;
            if (v->staged[k]) continue;
            for (q = D->acp[k]; q < D->acp[k + 1]; q++) {
                int64_t ea = D->ace[q];
                int32_t f = v->fslot[N->amap[ea]];
                e = LCL__CL->clEnqueueWriteBuffer(d->queue[0], v->arena[f / v->fpa], CL_FALSE, (size_t)(f % v->fpa) * fb, fb,
                                                  (const char *)A->val + (size_t)ea * fb, 0, NULL, NULL);
                if (e != CL_SUCCESS) goto clfail;
                v->transfers++;
            }
        }
        {   /* the staged writes first: the last stage, and the newest batch holding a column of this chunk
               not known to have arrived */
            cl_event wl[2];
            cl_uint nw = 0;
            int64_t b = -1;
            for (c = i0; c < i1; c++)
                if (v->staged[cols[c]] == 2) b = LCL__MAX(b, (int64_t)v->ebat[cols[c]]), v->staged[cols[c]] = 1;
            if (v->stage_ev) wl[nw++] = v->stage_ev;
            if (b >= 0) wl[nw++] = v->eev[b];
            if (nw && (e = LCL__CL->clEnqueueBarrierWithWaitList(d->queue[0], nw, wl, NULL)) != CL_SUCCESS) goto clfail;
            if (v->stage_ev) LCL__CL->clReleaseEvent(v->stage_ev);
            v->stage_ev = NULL;
        }
        if ((st = lcl__bklu_launch(ctx, N, v, N->dtype == LCL_F32 ? "lcl_bklu_scale_f" : "lcl_bklu_scale_d", 1, o_a, na, 0, 0, 0)) != LCL_OK)
            return st;
        if (split) {    /* the later columns' rounds on q2, once this chunk's values are in (a marker here) */
            cl_event m0 = NULL;
            const char *what = "clEnqueueBarrierWithWaitList(lcl_bklu, eager queue)";
            cl_event w2[2];
            e = LCL__CL->clEnqueueMarkerWithWaitList(d->queue[0], 0, NULL, &m0);
            w2[0] = m0;
            if (e == CL_SUCCESS && d->tune.bklu_eager_hold && v->ahead && !v->hold && !(v->hold = LCL__CL->clCreateUserEvent(d->cl, &e)) &&
                e == CL_SUCCESS)
                e = CL_OUT_OF_HOST_MEMORY;
            w2[1] = v->hold;
            if (e == CL_SUCCESS) e = LCL__CL->clEnqueueBarrierWithWaitList(v->q2, v->hold ? 2 : 1, w2, NULL);
            if (m0) LCL__CL->clReleaseEvent(m0);
            v->lq = v->q2;
            if (v->q2ev1) LCL__CL->clReleaseEvent(v->q2ev1);
            v->q2ev1 = NULL;
            if (early && !r1 && e == CL_SUCCESS) {
                e = lcl__bklu_q2mark(v->q2, &v->q2ev1);
                LCL__BKLU_MARK(v->q2, 14);
            }
            for (t = gm[0]; t < gm[0] + gm[1] && e == CL_SUCCESS; t++, d->seen.eager_rounds++) {
                if ((st = lcl__bklu_round(ctx, N, v, t)) != LCL_OK) {
                    v->lq = NULL;
                    return st;
                }
                if (early && r1 && t == gm[0] + r1 - 1) {
                    e = lcl__bklu_q2mark(v->q2, &v->q2ev1);
                    LCL__BKLU_MARK(v->q2, 14);
                }
            }
            v->lq = NULL;
            if (e == CL_SUCCESS) e = lcl__bklu_q2mark(v->q2, &v->q2ev);
            if (e == CL_SUCCESS) e = LCL__CL->clFlush(v->q2);
            if (e != CL_SUCCESS) return lcl__clfail(ctx, e, what, d->info.name);
        }
        LCL__BKLU_MARK(d->queue[0], 1);
        for (t = 0; t < gm[0]; t++)
            if ((st = lcl__bklu_round(ctx, N, v, t)) != LCL_OK) return st;
        LCL__BKLU_MARK(d->queue[0], 2);
        if ((st = lcl__bklu_launch(ctx, N, v, N->dtype == LCL_F32 ? "lcl_bklu_lu_f" : "lcl_bklu_lu_d", 2, o_lu, i1 - i0, 0, 0, 0)) != LCL_OK)
            return st;
        LCL__BKLU_MARK(d->queue[0], 3);
        if ((st = lcl__bklu_launch(ctx, N, v, N->dtype == LCL_F32 ? "lcl_bklu_trtri_f" : "lcl_bklu_trtri_d", 3, o_tr, i1 - i0, 0, 0, 2)) != LCL_OK)
            return st;
        LCL__BKLU_MARK(d->queue[0], 4);
        if ((st = lcl__bklu_launch(ctx, N, v, N->dtype == LCL_F32 ? "lcl_bklu_permcopy_f" : "lcl_bklu_permcopy_d", 1, o_lc, nlt, 0, 0, 0)) != LCL_OK ||
            (st = lcl__bklu_launch(ctx, N, v, N->dtype == LCL_F32 ? "lcl_bklu_gemm_f" : "lcl_bklu_gemm_d", 0, o_lg, nlt, 1.0, 0.0, 0)) != LCL_OK)
            return st;
        LCL__BKLU_MARK(d->queue[0], 5);
        /* the level ends when q2's rounds do too: its frames are freed, the next level's own U steps
           go on from where they stopped */
        if (early && !split && v->q2open) {  /* rounds of earlier levels may still run: all that q2 has */
            if ((e = lcl__bklu_q2mark(v->q2, &v->q2ev1)) != CL_SUCCESS || (e = LCL__CL->clFlush(v->q2)) != CL_SUCCESS)
                return lcl__clfail(ctx, e, "clEnqueueMarkerWithWaitList(lcl_bklu, eager queue)", d->info.name);
            LCL__BKLU_MARK(v->q2, 14);
        }
        if ((split || (early && v->q2open)) &&
            (e = LCL__CL->clEnqueueBarrierWithWaitList(d->queue[0], 1, early ? &v->q2ev1 : &v->q2ev, NULL)) != CL_SUCCESS)
            return lcl__clfail(ctx, e, "clEnqueueBarrierWithWaitList(lcl_bklu)", d->info.name);
        if (early) v->q2open = split && gm[1] > r1;   /* (the rounds after q2ev1) */
        if (split && early && gm[1] > r1) d->seen.eager_early_ends++;
        LCL__CL->clFlush(d->queue[0]);
        for (c = i0; c < i1; c++) v->has[cols[c]] = 1;
        /* resident: the next level's blocks are staged while this one runs, so its work frames
           stay taken until it is done */
        if (D->resident) while (ntmp > 0) v->cur.defer[v->cur.ndefer++] = tmpf[--ntmp];
        else while (ntmp > 0) lcl__bklu_give(v, &tmpf[--ntmp]);
        if (!D->resident)   /* streaming: read back now, frames freed once read (lcl__bklu_settle) */
            for (c = i0; c < i1; c++) {
                if ((e = lcl__bklu_export((lcl_bklu_numeric *)N, D, v, cols[c])) != CL_SUCCESS) goto clfail;
                v->pend[v->npend++] = cols[c];
            }
        i0 = i1;
    }
    return LCL_OK;
clfail:
    return lcl__clfail(ctx, e, "clEnqueueWriteBuffer(lcl_bklu)", d->info.name);
}

/* eager U steps on device d of nd, blocks of m (tune.bklu_eager, bklu_eager_m) */
LCL__PRIVATE int lcl__bklu_eager(const lcl__device *d, int nd, int64_t m) {
    if (nd > 1 && d->tune.bklu_eager_m > 0 && m >= d->tune.bklu_eager_m) return 0;
    return d->tune.bklu_eager > 0 || (d->tune.bklu_eager < 0 && nd > 1);
}
/* ahead: level l takes the other set of lists and work frames, that of level l - 2 (done) */
LCL__PRIVATE void lcl__bklu_swap(lcl__bklu_dev *v, int64_t l) {
    lcl__bklu_lset t = v->spare;
    LCL_ASSERT(t.ndefer == 0);
    v->spare = v->cur;
    v->cur = t;
    v->cur.lev = l;
}
/* level l done on v (ahead: the one of the two in flight that finished): its work frames free */
LCL__PRIVATE void lcl__bklu_retire(lcl__bklu_dev *v, int64_t l) {
    if (v->cur.lev == l)
        while (v->cur.ndefer > 0) lcl__bklu_give(v, &v->cur.defer[--v->cur.ndefer]);
    if (v->spare.lev == l)
        while (v->spare.ndefer > 0) lcl__bklu_give(v, &v->spare.defer[--v->spare.ndefer]);
}

/* device v's part of level l (index i of the context's devices): its columns launched (part & 1),
   the next level's A staged and the columns other devices need read back (part & 2, resident) */
LCL__PRIVATE lcl_status lcl__bklu_go(lcl_context *ctx, const char *fn, lcl_bklu_numeric *N, const lcl_bmat *A, lcl__bklu_cl *D,
                                     lcl__bklu_dev *v, int i, int64_t l, const unsigned char *needx, int part) {
    int64_t cnt = 0, p, ls = l + 1;
    lcl_status st;
    cl_int e;
    if (l >= 0 && (part & 1)) {
        for (p = N->levp[l]; p < N->levp[l + 1]; p++)
            if (D->owner[N->levc[p]] == i) v->cols[cnt++] = N->levc[p];
        if (cnt && v->ahead) lcl__bklu_swap(v, l);
        else if (cnt) v->cur.lev = l;
        if (cnt && (st = lcl__bklu_level(ctx, fn, N, A, D, v, v->cols, cnt, l)) != LCL_OK) return st;
    }
    if (!(part & 2)) return LCL_OK;
    if (D->resident && ls < N->nlev) {   /* eager: every later column whose first U step may run at ls */
        int64_t q;
        int win = v->eev && v->d->tune.bklu_stage_kb != 0;   /* else lcl__bklu_topup */
        /* level ls's own columns, which it waits for; the later ones apart (eev), used once arrived,
           a batch per level, nearest first: a level waits for its own batch, not for all of A */
        for (q = ls; q < (v->eager && !win ? N->nlev : ls + 1); q++) {
            cnt = 0;
            for (p = N->levp[q]; p < N->levp[q + 1]; p++) {
                int64_t k = N->levc[p];
                if (D->owner[k] == i && !v->staged[k] && (!v->eager || D->slev[k] <= ls)) v->cols[cnt++] = (int32_t)k;
            }
            if (cnt && (st = lcl__bklu_stage(ctx, N, A, D, v, v->cols, cnt, q > ls && v->eev)) != LCL_OK) return st;
        }
        if (win && (st = lcl__bklu_topup(ctx, N, A, D, v, i)) != LCL_OK) return st;
    }
    if (D->resident && l >= 0) {
        cl_event xe = NULL;
        cnt = 0;
        for (p = N->levp[l]; p < N->levp[l + 1]; p++) {
            int64_t k = N->levc[p];
            if (!needx[k] || D->owner[k] != i) continue;
            if ((e = lcl__bklu_share(N, D, v, k)) != CL_SUCCESS) return lcl__clfail(ctx, e, "clEnqueueReadBuffer(lcl_bklu)", v->d->info.name);
            cnt++;
        }
        /* a level ahead with exchanges: the read-backs' event, which the importers wait for; the
           columns' source is the exchange area from now on (lcl__bklu_hsrc) */
        if (cnt && D->xev) {
            if ((e = LCL__CL->clEnqueueMarkerWithWaitList(v->d->queue[0], 0, NULL, &xe)) != CL_SUCCESS)
                return lcl__clfail(ctx, e, "clEnqueueMarkerWithWaitList(lcl_bklu)", v->d->info.name);
            lcl__bklu_xlock(D, 1);
            for (p = N->levp[l]; p < N->levp[l + 1]; p++) {
                int64_t k = N->levc[p];
                if (!needx[k] || D->owner[k] != i) continue;
                LCL__CL->clRetainEvent(xe);
                D->xev[k] = xe;
                D->inx[k] = 1;
            }
            lcl__bklu_xlock(D, 0);
            LCL__CL->clReleaseEvent(xe);
        }
    }
    return LCL_OK;
}
/* the end of v's level: its queue done, read-backs settled, the level's work frames free */
LCL__PRIVATE lcl_status lcl__bklu_done(lcl_context *ctx, lcl_bklu_numeric *N, lcl__bklu_cl *D, lcl__bklu_dev *v) {
    cl_int e;
    if ((e = LCL__CL->clFinish(v->d->queue[0])) != CL_SUCCESS || (e = lcl__bklu_settle(N, D, v)) != CL_SUCCESS)
        return lcl__clfail(ctx, e, "clFinish(lcl_bklu)", v->d->info.name);
    while (v->cur.ndefer > 0) lcl__bklu_give(v, &v->cur.defer[--v->cur.ndefer]);
    return LCL_OK;
}

/* resident, with no column wanted by another device (affinity's split of gen:circuit:1000, say)
   or every such column exchanged by events (D->xev): each device runs its own levels. The host
   launches a device's next level, and stages the one after, as soon as its last is done (its
   marker's status) and the columns it imports are read back or on their way (lcl__bklu_ready),
   instead of waiting for every device at every level: a level's work is not even between the
   devices, and the slower one changes */
/* a device's levels in flight (lcl__bklu_apart): the last launched, up to two launched and not
   retired (ahead; else one) with their markers, oldest first */
typedef struct lcl__bklu_flight {
    int64_t lv, lq[2];
    cl_event ev[2], ev2[2];     /* each level's markers: queue 0's; q2's (tune.bklu_eager_end), or NULL */
    int nin;
} lcl__bklu_flight;
/* with exchanges (D->xev): every column that device i imports for its part of level l read back
   by its owner, or at least launched so (the owner may be behind: it then launches first) */
LCL__PRIVATE int lcl__bklu_ready(const lcl_bklu_numeric *N, lcl__bklu_cl *D, int i, int64_t l) {
    int64_t p, q;
    int r = 1;
    if (!D->xev || l < 0) return 1;     /* (level -1: A staged, nothing launched) */
    lcl__bklu_xlock(D, 1);
    for (p = N->levp[l]; p < N->levp[l + 1] && r; p++) {
        int64_t k = N->levc[p];
        if (D->owner[k] != i) continue;
        for (q = 0; q < N->ucnt[k] && r; q++) {
            int64_t j = N->slotrow[N->colp[k] + q];
            if (D->owner[j] != i && !D->dv[i].has[j] && !D->xev[j]) r = 0;
        }
    }
    lcl__bklu_xlock(D, 0);
    return r;
}
/* one step of device i's levels: its next level launched while fewer than the depth run and its
   imports are on their way (*what 1), else its oldest retired once its marker says done (*what
   2), else nothing (0) */
LCL__PRIVATE lcl_status lcl__bklu_step(lcl_context *ctx, const char *fn, lcl_bklu_numeric *N, const lcl_bmat *A, lcl__bklu_cl *D, int i,
                                       const unsigned char *needx, lcl__bklu_flight *r, int *what) {
    lcl__bklu_dev *v = &D->dv[i];
    cl_int e, s = CL_COMPLETE;
    lcl_status st = LCL_OK;
    int can = r->lv < N->nlev - 1 && r->nin < (v->ahead ? 2 : 1), rd = can && lcl__bklu_ready(N, D, i, r->lv + 1);
    *what = 0;
    if (can && !rd)   /* (tests: the next level waits for another device, which may wait for this one's rounds) */
        lcl__bklu_let_go(&v->hold);
    if (rd) {
        cl_event held = v->hold;
        *what = 1;
        r->lv++;
        v->d->seen.ahead_levels += r->nin > 0;
        v->hold = NULL;
        st = lcl__bklu_go(ctx, fn, N, A, D, v, i, r->lv, needx, 3);
        lcl__bklu_let_go(&held);   /* (tests: once the next level is launched) */
        if (st != LCL_OK) return st;
        if ((e = LCL__CL->clEnqueueMarkerWithWaitList(v->d->queue[0], 0, NULL, &r->ev[r->nin])) != CL_SUCCESS ||
            (e = LCL__CL->clFlush(v->d->queue[0])) != CL_SUCCESS)   /* (a marker made is released by lcl__bklu_flight_end) */
            return lcl__clfail(ctx, e, "clEnqueueMarkerWithWaitList(lcl_bklu)", v->d->info.name);
        /* the level's end may not have waited for all of q2's rounds: the level is done when they
           are (flushed: the host polls it, and queue 0 may wait for q2's markers before it) */
        if (v->q2 && v->ahead && v->d->tune.bklu_eager_end &&
            ((e = lcl__bklu_q2mark(v->q2, &r->ev2[r->nin])) != CL_SUCCESS || (e = LCL__CL->clFlush(v->q2)) != CL_SUCCESS))
            return lcl__clfail(ctx, e, "clEnqueueMarkerWithWaitList(lcl_bklu, eager queue)", v->d->info.name);
        r->lq[r->nin++] = r->lv;
        return LCL_OK;
    }
    if (r->nin == 0) return LCL_OK;
    if ((e = LCL__CL->clGetEventInfo(r->ev[0], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s, &s, NULL)) != CL_SUCCESS)
        return lcl__clfail(ctx, e, "clGetEventInfo(lcl_bklu)", v->d->info.name);
    if (s >= CL_COMPLETE && r->ev2[0]) {
        cl_int s2 = CL_COMPLETE;
        if ((e = LCL__CL->clGetEventInfo(r->ev2[0], CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof s2, &s2, NULL)) != CL_SUCCESS)
            return lcl__clfail(ctx, e, "clGetEventInfo(lcl_bklu)", v->d->info.name);
        if (s2 > CL_COMPLETE || s2 < 0) s = s2;
    }
    if (s > CL_COMPLETE) return LCL_OK;
    *what = 2;
    LCL__CL->clReleaseEvent(r->ev[0]);
    if (r->ev2[0]) LCL__CL->clReleaseEvent(r->ev2[0]);
    r->ev[0] = r->ev[1], r->ev[1] = NULL;
    r->ev2[0] = r->ev2[1], r->ev2[1] = NULL;
    r->nin--;
    if (s < 0) return lcl__clfail(ctx, s, "lcl_bklu: a level's commands", v->d->info.name);   /* (the marker inherits a command's failure) */
    if (!v->ahead) st = lcl__bklu_done(ctx, N, D, v);
    else if ((e = lcl__bklu_settle(N, D, v)) != CL_SUCCESS) st = lcl__clfail(ctx, e, "lcl_bklu: reading back", v->d->info.name);
    else lcl__bklu_retire(v, r->lq[0]);
    r->lq[0] = r->lq[1];
    return st;
}
/* the markers still held, waited for and released (v's hold let go first) */
LCL__PRIVATE void lcl__bklu_flight_end(lcl__bklu_flight *r, lcl__bklu_dev *v) {
    int q;
    lcl__bklu_let_go(&v->hold);
    for (q = 0; q < 2; q++) {
        if (r->ev[q]) LCL__CL->clWaitForEvents(1, &r->ev[q]), LCL__CL->clReleaseEvent(r->ev[q]), r->ev[q] = NULL;
        if (r->ev2[q]) LCL__CL->clWaitForEvents(1, &r->ev2[q]), LCL__CL->clReleaseEvent(r->ev2[q]), r->ev2[q] = NULL;
    }
}
/* F (A's blocks off the diagonal of the block triangular form, the solve's) is copied by the host
   while it has nothing to launch, tune.bklu_fslice entries at a time, the rest after the levels */
LCL__PRIVATE int lcl__bklu_scopy(const lcl_bmat *A, lcl_bklu_numeric *N, int64_t e, int64_t q0, int64_t q1) {
    return A->dtype == LCL_F32 ? lcl__bklu_scopy_s(A, N, e, q0, q1) : lcl__bklu_scopy_d(A, N, e, q0, q1);
}
LCL__PRIVATE void lcl__bklu_fslice(const lcl_bmat *A, lcl_bklu_numeric *N, lcl__bklu_cl *D) {
    int64_t left = D->dv[0].d->tune.bklu_fslice, e0 = D->fe;
    while (left > 0 && D->fe < A->nnzb) {
        int64_t q1 = LCL__MIN(N->mm, D->fq + left);
        if (N->amap[D->fe] >= 0) { D->fe++; continue; }
        if (lcl__bklu_scopy(A, N, D->fe, D->fq, q1) && D->fbad < 0) D->fbad = D->fe;
        left -= q1 - D->fq;
        D->fq = q1;
        if (D->fq == N->mm) D->fe++, D->fq = 0;
    }
    if (e0 < A->nnzb && D->fe == A->nnzb) LCL__BKLU_MARK(NULL, 17);
}
/* the rest, by the team; the first bad block, or -1 */
LCL__PRIVATE int64_t lcl__bklu_frest(lcl_context *ctx, const lcl_bmat *A, lcl_bklu_numeric *N, lcl__bklu_cl *D) {
    int64_t bad;
    int nt = lcl__bklu_team(ctx);
    if (D->fq > 0) {   /* the block begun, from where it was */
        if (lcl__bklu_scopy(A, N, D->fe, D->fq, N->mm) && D->fbad < 0) D->fbad = D->fe;
        D->fe++, D->fq = 0;
    }
    bad = D->fe >= A->nnzb ? -1 : A->dtype == LCL_F32 ? lcl__bklu_gather_s(A, N, 0, nt, D->fe) : lcl__bklu_gather_d(A, N, 0, nt, D->fe);
    D->fe = A->nnzb;
    return D->fbad >= 0 ? D->fbad : bad;
}

#if defined(_OPENMP) && !defined(_WIN32)
typedef struct lcl__bklu_apart_job {
    lcl_context *ctx;
    const char *fn;
    lcl_bklu_numeric *N;
    const lcl_bmat *A;
    lcl__bklu_cl *D;
    const unsigned char *needx;
    int i;
} lcl__bklu_apart_job;
/* device j->i's levels on a host thread of its own (tune.bklu_host_threads): the steps
   lcl__bklu_apart takes for it, more of its A staged while it waits, so that neither another
   device's staging nor its launches hold this one up (one thread serving them by turns left a
   device idle 3.6 ms while it launched the other's level, two H200s, M = 256). An error ends this
   device's run only: the others have nothing to wait for from it. */
LCL__PRIVATE void *lcl__bklu_apart_dev(void *arg) {
    lcl__bklu_apart_job *j = (lcl__bklu_apart_job *)arg;
    lcl__bklu_flight r = {-2, {0, 0}, {NULL, NULL}, {NULL, NULL}, 0};
    lcl_status st = LCL_OK;
    int stop = 0, go = 0;
    while (!go) {   /* the gate: every thread made, or none runs */
        lcl__bklu_xlock(j->D, 1);
        go = j->D->xgo, stop = j->D->xfail;
        lcl__bklu_xlock(j->D, 0);
        if (!go) LCL__YIELD();
    }
    while (st == LCL_OK && !stop && (r.lv < j->N->nlev - 1 || r.nin > 0)) {
        int what;
        if ((st = lcl__bklu_step(j->ctx, j->fn, j->N, j->A, j->D, j->i, j->needx, &r, &what)) == LCL_OK && !what) {
            st = lcl__bklu_topup(j->ctx, j->N, j->A, j->D, &j->D->dv[j->i], j->i);
            if (j->i == 0) lcl__bklu_fslice(j->A, j->N, j->D);   /* the caller's thread */
            LCL__YIELD();
            lcl__bklu_xlock(j->D, 1);
            stop = j->D->xfail;     /* (then what it waits for may never come) */
            lcl__bklu_xlock(j->D, 0);
        }
    }
    LCL__CL->clFlush(j->D->dv[j->i].d->queue[0]);
    if (st != LCL_OK) {
        lcl__bklu_xlock(j->D, 1);
        j->D->xfail = 1;
        lcl__bklu_xlock(j->D, 0);
    }
    lcl__bklu_flight_end(&r, &j->D->dv[j->i]);
    j->D->dv[j->i].st = st;
    return NULL;
}
#endif
/* every device on its own thread; 0 (nothing run) without OpenMP, on Windows (no threads here
   yet) or without memory for the jobs: the caller then serves the devices from one thread */
LCL__PRIVATE int lcl__bklu_apart_threads(lcl_context *ctx, const char *fn, lcl_bklu_numeric *N, const lcl_bmat *A, lcl__bklu_cl *D,
                                         const unsigned char *needx, lcl_status *stp) {
#if defined(_OPENMP) && !defined(_WIN32)
    int nd = D->nd, i, made = 0, team = lcl__bklu_team(ctx) / nd;
    pthread_t *th = (pthread_t *)LCL_MALLOC((size_t)nd * sizeof(pthread_t));
    lcl__bklu_apart_job *jb = (lcl__bklu_apart_job *)LCL_MALLOC((size_t)nd * sizeof(lcl__bklu_apart_job));
    *stp = LCL_OK;
    if (!th || !jb) {
        LCL_FREE(th);
        LCL_FREE(jb);
        return 0;
    }
    if (pthread_mutex_init(&D->xlock, NULL) != 0) {   /* the gate, and which columns are read back */
        LCL_FREE(th);
        LCL_FREE(jb);
        return 0;
    }
    D->xlocked = 1;
    D->xfail = D->xgo = 0;
    for (i = 0; i < nd; i++) {
        jb[i].ctx = ctx, jb[i].fn = fn, jb[i].N = N, jb[i].A = A, jb[i].D = D, jb[i].needx = needx, jb[i].i = i;
        D->dv[i].team = team < 1 ? 1 : team;    /* the copies of all devices at once share the team */
        D->dv[i].st = LCL_OK;
    }
    /* device 0 on this thread, the rest on new ones (a pthread's OpenMP regions get their own
       teams); when a thread did not start, none runs (a device may wait for another's columns):
       the caller's one thread then serves them all */
    for (i = 1; i < nd && pthread_create(&th[i], NULL, lcl__bklu_apart_dev, &jb[i]) == 0; i++) made++;
    lcl__bklu_xlock(D, 1);
    D->xgo = 1, D->xfail = made < nd - 1;
    lcl__bklu_xlock(D, 0);
    if (made == nd - 1) lcl__bklu_apart_dev(&jb[0]);
    for (i = 1; i <= made; i++) pthread_join(th[i], NULL);
    if (D->xlocked) pthread_mutex_destroy(&D->xlock);
    D->xlocked = 0;
    for (i = 0; i < nd; i++) D->dv[i].team = 0;
    LCL_FREE(th);
    LCL_FREE(jb);
    if (made < nd - 1) return 0;
    for (i = 0; i < nd; i++)
        if (D->dv[i].st != LCL_OK) {
            *stp = D->dv[i].st;
            break;
        }
    D->hostthreads = 1;
    return 1;
#else
    (void)ctx, (void)fn, (void)N, (void)A, (void)D, (void)needx, (void)stp;
    return 0;
#endif
}

LCL__PRIVATE lcl_status lcl__bklu_apart(lcl_context *ctx, const char *fn, lcl_bklu_numeric *N, const lcl_bmat *A, lcl__bklu_cl *D,
                                        const unsigned char *needx) {
    int nd = D->nd, i, left = nd;
    lcl__bklu_flight *r;
    lcl_status st = LCL_OK;
    D->hostthreads = 0;
    if (nd > 1 && D->dv[0].d->tune.bklu_host_threads && lcl__bklu_apart_threads(ctx, fn, N, A, D, needx, &st)) return st;
    if (!(r = (lcl__bklu_flight *)LCL_MALLOC((size_t)nd * sizeof *r))) return lcl__oom(ctx, "block LU schedule", (size_t)nd * sizeof *r);
    for (i = 0; i < nd; i++) r[i].lv = -2, r[i].nin = 0, r[i].ev[0] = r[i].ev[1] = r[i].ev2[0] = r[i].ev2[1] = NULL;
    while (left > 0 && st == LCL_OK) {
        int moved = 0;
        /* one step a device a pass, so that the devices take turns (with ahead the host stays a
           level ahead however fast the device) */
        for (i = 0; i < nd && st == LCL_OK; i++) {
            int what;
            st = lcl__bklu_step(ctx, fn, N, A, D, i, needx, &r[i], &what);
            moved |= what == 1;
            if (st == LCL_OK && what == 2 && r[i].lv == N->nlev - 1 && r[i].nin == 0) left--;
        }
        if (!moved && st == LCL_OK) {  /* the host idle: more of A on its way, a slice of F */
            for (i = 0; i < nd && st == LCL_OK; i++) st = lcl__bklu_topup(ctx, N, A, D, &D->dv[i], i);
            lcl__bklu_fslice(A, N, D);
            LCL__YIELD();
        }
    }
    for (i = 0; i < nd; i++) LCL__CL->clFlush(D->dv[i].d->queue[0]);  /* on an error: what another device's queue waits for */
    for (i = 0; i < nd; i++) lcl__bklu_flight_end(&r[i], &D->dv[i]), D->dv[i].st = st;
    LCL_FREE(r);
    return st;
}

LCL__PRIVATE int lcl__bklu_cl_run(lcl_context *ctx, const char *fn, const lcl_bklu_symbolic *S, lcl_bklu_numeric *N, const lcl_bmat *A,
                                  lcl_bklu_info *info, lcl_status *stp) {
    lcl__bklu_cl *D = NULL, *old = NULL;
    int32_t *levof = NULL, *cols = NULL, *badk = NULL, *piv2 = NULL;
    double *cost = NULL, *load = NULL;
    unsigned char *needx = NULL;
    int64_t n = N->n, m = N->m, k, p, l, e64, maxframes = 0, fbad;
    lcl_status st = LCL_OK;
    cl_int e = CL_SUCCESS;
    lcl__device *d = NULL;
    int nd, i, resident = 1;
    (void)info;
    if (!ctx || ctx->backend != LCL_BACKEND_OPENCL || ctx->ndev < 1 || ctx->dense_cpu) return 0;
    LCL__BKLU_MARK(NULL, 10);
    nd = S->opts.devices > 0 ? LCL__MIN(S->opts.devices, ctx->ndev) : ctx->ndev;
    for (i = 0; i < nd; i++)
        if (N->dtype == LCL_F64 && !ctx->dev[i].info.fp64) {
            *stp = lcl__fail(ctx, LCL_ERR_NO_FP64, "%s: device '%s' has no double precision", fn, ctx->dev[i].info.name);
            return 1;
        }
    old = N->cl;     /* kept until the new state has taken what it can reuse */
    N->cl = NULL;
    if (old && old->nd != nd) lcl__bklu_cl_free(old), old = NULL;
    for (i = 0; old && i < nd; i++)
        if (old->dv[i].d != &ctx->dev[i] || old->dv[i].clc != ctx->dev[i].cl) lcl__bklu_cl_free(old), old = NULL;
#define LCL__BA(ptr, cnt, T) ((ptr) = (T *)lcl__alloc(ctx, "block LU device state", (size_t)(cnt), sizeof(T), &st))
    if (!LCL__BA(D, 1, lcl__bklu_cl)) goto out;
    memset(D, 0, sizeof *D);
    N->cl = D;
    if (!LCL__BA(D->dv, nd, lcl__bklu_dev)) goto out;
    memset(D->dv, 0, (size_t)nd * sizeof *D->dv);
    D->nd = nd;
    D->fbad = -1;
    if (!LCL__BA(D->owner, n, int32_t) || !LCL__BA(D->onhost, n, unsigned char) || !LCL__BA(D->hperm, n * m, int32_t) ||
        !LCL__BA(D->acp, n + 1, int64_t) || !LCL__BA(D->ace, A->nnzb + 1, int64_t) ||
        !LCL__BA(levof, n, int32_t) || !LCL__BA(cols, n, int32_t) || !LCL__BA(cost, n, double) || !LCL__BA(load, nd, double) ||
        !LCL__BA(needx, n, unsigned char) || !LCL__BA(badk, n, int32_t))
        goto out;
    memset(D->onhost, 0, (size_t)n);
    memset(needx, 0, (size_t)n);
    /* A's blocks by the pivoted column of their slot */
    for (k = 0; k <= n; k++) D->acp[k] = 0;
    for (e64 = 0; e64 < A->nnzb; e64++)
        if (N->amap[e64] >= 0) D->acp[lcl__bklu_seg(N->colp, n, N->amap[e64]) + 1]++;
    for (k = 0; k < n; k++) D->acp[k + 1] += D->acp[k];
    if (!LCL__BA(D->aslot, N->nslot + 1, unsigned char)) goto out;
    memset(D->aslot, 0, (size_t)N->nslot);
    for (e64 = 0; e64 < A->nnzb; e64++)
        if (N->amap[e64] >= 0) D->aslot[N->amap[e64]] = 1;
    for (k = 0; k < n; k++) cols[k] = (int32_t)D->acp[k];
    for (e64 = 0; e64 < A->nnzb; e64++)
        if (N->amap[e64] >= 0) D->ace[cols[lcl__bklu_seg(N->colp, n, N->amap[e64])]++] = e64;
    /* levels, costs (in M^3 flops), owners */
    for (l = 0; l < N->nlev; l++)
        for (p = N->levp[l]; p < N->levp[l + 1]; p++) levof[N->levc[p]] = (int32_t)l;
    lcl__bklu_costs(N, cost);
    lcl__bklu_assign(N, S->opts.schedule == LCL_BKLU_SCHEDULE_DEFAULT ? LCL_BKLU_AFFINITY : S->opts.schedule, nd, D->owner, cost, load, cols,
                     ctx->dev[0].tune.bklu_slack / 100.0, ctx->dev[0].tune.bklu_window / 100.0);
    for (k = 0; k < n; k++)
        for (p = 0; p < N->ucnt[k]; p++) {
            int64_t j = N->slotrow[N->colp[k] + p];
            if (D->owner[j] != D->owner[k]) needx[j] = 1;
        }
    /* per device: uses, frames */
    for (i = 0; i < nd; i++) {
        lcl__bklu_dev *v = &D->dv[i];
        int64_t own = 0, slots = 0, imp = 0, tmax = 0, need_min = 0, s;
        v->d = &ctx->dev[i];
        if (!LCL__BA(v->fslot, N->nslot, int32_t) || !LCL__BA(v->finv, 2 * n, int32_t) || !LCL__BA(v->has, n, unsigned char) ||
            !LCL__BA(v->usep, n + 1, int64_t) || !LCL__BA(v->usecur, n, int64_t) || !LCL__BA(v->pend, n, int32_t) ||
            !LCL__BA(v->staged, n, unsigned char) || !LCL__BA(v->prep, n, unsigned char) || !LCL__BA(v->ustep, n, int32_t) ||
            !LCL__BA(v->ux, 3 * n, int64_t) || !LCL__BA(v->xq, n, int32_t))
            goto out;
        for (s = 0; s < N->nslot; s++) v->fslot[s] = -1;
        for (k = 0; k < 2 * n; k++) v->finv[k] = -1;
        memset(v->has, 0, (size_t)n);
        memset(v->staged, 0, (size_t)n);
        memset(v->prep, 0, (size_t)n);
        memset(v->ustep, 0, (size_t)n * sizeof(int32_t));
        for (k = 0; k <= n; k++) v->usep[k] = 0;
        for (k = 0; k < n; k++)
            if (D->owner[k] == i)
                for (p = 0; p < N->ucnt[k]; p++) v->usep[N->slotrow[N->colp[k] + p] + 1]++;
        for (k = 0; k < n; k++) v->usep[k + 1] += v->usep[k];
        if (!LCL__BA(v->usel, v->usep[n] + 1, int32_t)) goto out;
        for (k = 0; k < n; k++) v->usecur[k] = v->usep[k];
        for (l = 0; l < N->nlev; l++)
            for (p = N->levp[l]; p < N->levp[l + 1]; p++) {
                int64_t q, kk = N->levc[p];
                if (D->owner[kk] != i) continue;
                for (q = 0; q < N->ucnt[kk]; q++) {
                    int64_t j = N->slotrow[N->colp[kk] + q];
                    v->usel[v->usecur[j]++] = (int32_t)l;
                }
            }
        for (k = 0; k < n; k++) v->usecur[k] = v->usep[k];
        for (k = 0; k < n; k++) {
            int64_t nl = N->colp[k + 1] - N->colp[k] - N->ucnt[k] - 1, r = (N->colp[k + 1] - N->colp[k]) + 3 + nl;
            if (D->owner[k] == i) own++, slots += N->colp[k + 1] - N->colp[k];
            else if (v->usep[k + 1] > v->usep[k]) imp += nl + 2;
            {
                int64_t dep = 0;   /* the stepwise minimum: one dependency at a time */
                for (p = 0; p < N->ucnt[k]; p++) {
                    int64_t j = N->slotrow[N->colp[k] + p];
                    dep = LCL__MAX(dep, N->colp[j + 1] - N->colp[j] - N->ucnt[j] + 1);
                }
                need_min = LCL__MAX(need_min, r + dep);
            }
        }
        for (l = 0; l < N->nlev; l++) {
            int64_t t = 0;
            for (p = N->levp[l]; p < N->levp[l + 1]; p++) {
                int64_t kk = N->levc[p];
                if (D->owner[kk] == i) t += 1 + (N->colp[kk + 1] - N->colp[kk] - N->ucnt[kk] - 1);
            }
            tmax = LCL__MAX(tmax, t);
        }
        v->clc = v->d->cl;
        if ((st = lcl__bklu_dev_open(ctx, fn, S, N, v, old ? &old->dv[i] : NULL, slots + 2 * own + imp + tmax + n +
                                      (lcl__bklu_eager(v->d, nd, m) ? own : 0), v->d->tune.bklu_ahead ? tmax : 0, need_min, &resident)) != LCL_OK)
            goto out;
        v->tc = N->dtype == LCL_F64 && v->d->tune.tc && m >= 128;
        if (!LCL__BA(v->cur.defer, v->nframes + 1, int32_t) || !LCL__BA(v->spare.defer, v->nframes + 1, int32_t)) goto out;
        v->cur.lev = v->spare.lev = -2;
        maxframes = LCL__MAX(maxframes, v->nframes);
    }
    D->resident = resident;
    for (i = 0; i < nd; i++) {
        lcl__bklu_dev *v = &D->dv[i];
        v->eager = resident && lcl__bklu_eager(v->d, nd, m);
        v->epace = 0;
        if (v->eager && v->d->tune.bklu_eager_pace > 0 && N->nlev > 0) {   /* the device's U-step work a level, times P% */
            double wsum = 0;
            for (k = 0; k < n; k++)
                if (D->owner[k] == i)
                    for (p = 0; p < N->ucnt[k]; p++) {
                        int64_t j = N->slotrow[N->colp[k] + p];
                        wsum += (double)(N->colp[j + 1] - N->colp[j] - N->ucnt[j] + 1);
                    }
            v->epace = LCL__MAX(1, (int64_t)(wsum * v->d->tune.bklu_eager_pace / (100.0 * (double)N->nlev)));
        }
        v->efree = v->d->tune.bklu_eager_free >= 0 ? v->d->tune.bklu_eager_free : nd > 1 ? (int)(v->d->info.compute_units * 3 / 20) : 0;
        /* its second queue, kept from the last run (NULL where not made: one queue does it all) */
        if (!v->eager || !v->d->tune.bklu_eager_queue || v->d->queue[1] == v->d->queue[0]) continue;
        if (old && old->dv[i].q2) v->q2 = old->dv[i].q2, old->dv[i].q2 = NULL;
        else {
            cl_int qe;
            if (v->d->tune.bklu_eager_prio && LCL__CL->clCreateCommandQueueWithProperties && lcl__cl_has_ext(v->d->id, "cl_khr_priority_hints")) {
                /* the chain is the critical path; these rounds can wait (not timed yet: off) */
                static const cl_bitfield low[] = {0x1096 /* CL_QUEUE_PRIORITY_KHR */, 1 << 2 /* ..._LOW_KHR */, 0};
                if ((v->q2 = LCL__CL->clCreateCommandQueueWithProperties(v->d->cl, v->d->id, low, &qe)) != NULL) v->d->seen.low_queues++;
            }
            if (!v->q2) v->q2 = LCL__CL->clCreateCommandQueue(v->d->cl, v->d->id, 0, &qe);
        }
    }
    for (i = 0; i < nd && !D->dv[i].eager; i++) {}
    if (i < nd) {   /* eager: A goes up a level before the column's first U step can run, not all first */
        if (!LCL__BA(D->slev, n, int32_t)) goto out;
        for (i = 0; i < nd; i++) {
            lcl__bklu_dev *v = &D->dv[i];
            if (!v->eager || !v->d->tune.bklu_eager_arrived) continue;
            if (!LCL__BA(v->ecol, n, int32_t) || !LCL__BA(v->ebat, n, int32_t) || !LCL__BA(v->eend, n + 1, int64_t) ||
                !LCL__BA(v->eev, n + 1, cl_event) || !LCL__BA(v->ebytes, n + 1, double))   /* at least a column a batch */
                goto out;
            v->ehead = v->enb = v->enext = 0;
            v->einfl = 0;
        }
        for (l = 0; l < N->nlev; l++)
            for (p = N->levp[l]; p < N->levp[l + 1]; p++) D->slev[N->levc[p]] = (int32_t)l;
        for (p = N->levp[N->nlev] - 1; p >= 0; p--) {    /* from the last level: slev[j] still j's level */
            k = N->levc[p];
            if (N->ucnt[k] > 0) D->slev[k] = (int32_t)LCL__MIN(D->slev[k], D->slev[N->slotrow[N->colp[k]]] + 1);
        }
    }
    for (i = 1; i < nd && ctx->dev[i].cl == ctx->dev[0].cl; i++) {}
    D->shared = nd > 1 && i == nd;
    /* each device's scratch, its ring for A's blocks (resident), its exchange area (resident, for
       the columns other devices use: at most 8 GB of pinned memory a device, else pageable) */
    if (!LCL__BA(D->xoff, n, int64_t) || !LCL__BA(D->inx, n, unsigned char)) goto out;
    memset(D->inx, 0, (size_t)n);
    for (k = 0; k < n; k++) D->xoff[k] = -1;
    for (i = 0; i < nd; i++) {
        lcl__bklu_dev *v = &D->dv[i];
        size_t fb = lcl__bklu_fbytes(N), abytes = 0, xbytes = 0;
        if (!LCL__BA(v->pin, n, int32_t) || !LCL__BA(v->tmpf, maxframes + 1, int32_t) || !LCL__BA(v->cols, n, int32_t) ||
            !LCL__BA(v->pos, n, int64_t))
            goto out;
        for (k = 0; k < n; k++) v->pin[k] = 0, v->pos[k] = -1;
        v->pvsz = (size_t)(2 * n * m + n) * sizeof(int32_t);
        if (!(old && lcl__bklu_keep(&v->pvbuf, &v->pvptr, &old->dv[i].pvbuf, &old->dv[i].pvptr, old->dv[i].pvsz == v->pvsz)))
            (void)lcl__pinned(v->d, v->pvsz, &v->pvbuf, &v->pvptr);   /* failing, it leaves both NULL: pageable */
        if (!resident) continue;
#ifdef LCL_BKLU_PAGEABLE    /* benchmarks only: the driver's pageable copies, for comparison */
        continue;
#endif
        for (k = 0; k < n; k++)
            if (D->owner[k] == i) {
                abytes += (size_t)(D->acp[k + 1] - D->acp[k]) * fb;
                if (needx[k]) xbytes += lcl__bklu_xcol(N, k);
            }
        v->ringsz = LCL__MAX(2 * fb, LCL__MIN(abytes, (size_t)LCL__BKLU_RING_MB << 20));
        /* A in the context's pinned memory (lcl_host_alloc): its blocks go up straight from it */
        if (lcl__host_pinned(ctx, A->val, (size_t)A->nnzb * fb)) abytes = 0, v->ringsz = 0, v->direct = 1;
        if (abytes && !LCL__BA(v->bq, 2 * (abytes / fb) + 2, int64_t)) goto out;
        if (abytes && !(old && lcl__bklu_keep(&v->ring, &v->ringp, &old->dv[i].ring, &old->dv[i].ringp, old->dv[i].ringsz == v->ringsz)) &&
            !lcl__pinned(v->d, v->ringsz, &v->ring, &v->ringp))
            v->ringsz = 0;
        v->xsz = xbytes;
        if (D->shared && xbytes && xbytes <= ((size_t)8 << 30) &&
            ((old && lcl__bklu_keep(&v->xbuf, &v->xptr, &old->dv[i].xbuf, &old->dv[i].xptr, old->dv[i].xsz == xbytes)) ||
             lcl__pinned(v->d, xbytes, &v->xbuf, &v->xptr))) {
            size_t off = 0;
            for (k = 0; k < n; k++)
                if (D->owner[k] == i && needx[k]) D->xoff[k] = (int64_t)off, off += lcl__bklu_xcol(N, k);
        }
    }
    lcl__bklu_cl_free(old);     /* what the new state did not take */
    old = NULL;
    LCL__BKLU_MARK(NULL, 11);
    /* level by level; with several devices in resident mode, one host thread per device (the
       writes of A and the exchanges of one device then overlap another's). Resident: A's blocks of
       level l + 1 go up on the transfer queue while level l computes, level l's work frames stay
       taken meanwhile, and the columns another device needs are read back after their level. */
    for (k = 0; k < n && !needx[k]; k++) {}
    /* exchanges, all through pinned exchange areas of one cl_context: imports wait for their
       read-back by event, so the devices still run at their own pace (gen:circuit:3000 on two H200s,
       M = 256: each level waited for by the host on both, 2-10 ms idle a level) */
    if (resident && k < n && D->shared && ctx->dev[0].tune.bklu_xahead) {
        int64_t q;
        for (q = 0; q < n && (!needx[q] || (D->xoff[q] >= 0 && D->dv[D->owner[q]].xptr)); q++) {}
        if (q == n) {
            if (!LCL__BA(D->xev, n, cl_event) || !LCL__BA(D->xdone, n, unsigned char)) goto out;
            memset(D->xev, 0, (size_t)n * sizeof(cl_event));
            memset(D->xdone, 0, (size_t)n);
            D->nxev = n;
        }
    }
    l = -1;
    for (i = 0; i < nd; i++) D->dv[i].ahead = D->dv[i].ahead && resident && (k == n || D->xev);
    if (resident && (k == n || D->xev)) {     /* each device at its own pace (a level ahead where frames allow) */
        st = lcl__bklu_apart(ctx, fn, N, A, D, needx);
        lcl__bklu_xev_free(D);
        if (st != LCL_OK) goto out;
        l = N->nlev;
    }
    for (; l < N->nlev; l++) {
        /* the ring's copies take the context's threads; without a ring, a thread per device */
        int nt = resident && (!D->dv[0].ringp || LCL__BKLU_DEVTHREADS) ? nd : 1;
        LCL__BKLU_MARK(NULL, 6);
        if (nt > 1) {
            LCL__OMP(omp parallel for num_threads(nt) schedule(static, 1))
            for (i = 0; i < nd; i++) {
                lcl__bklu_dev *v = &D->dv[i];
                v->st = lcl__bklu_go(ctx, fn, N, A, D, v, i, l, needx, 3);
                if (v->st == LCL_OK) v->st = lcl__bklu_done(ctx, N, D, v);
            }
        } else {    /* every device's level launched before the host's copies for the next */
            for (i = 0; i < nd; i++) D->dv[i].st = LCL_OK;
            for (i = 0; i < nd && D->dv[nd - 1].st == LCL_OK; i++)
                if ((D->dv[i].st = lcl__bklu_go(ctx, fn, N, A, D, &D->dv[i], i, l, needx, 1)) != LCL_OK) D->dv[nd - 1].st = D->dv[i].st;
            LCL__BKLU_MARK(NULL, 7);
            for (i = 0; i < nd && D->dv[nd - 1].st == LCL_OK; i++)
                if ((D->dv[i].st = lcl__bklu_go(ctx, fn, N, A, D, &D->dv[i], i, l, needx, 2)) != LCL_OK) D->dv[nd - 1].st = D->dv[i].st;
            LCL__BKLU_MARK(NULL, 8);
            for (i = 0; i < nd && D->dv[nd - 1].st == LCL_OK; i++)
                if ((D->dv[i].st = lcl__bklu_done(ctx, N, D, &D->dv[i])) != LCL_OK) D->dv[nd - 1].st = D->dv[i].st;
        }
        LCL__BKLU_MARK(NULL, 9);
        for (i = 0; i < nd; i++)
            if ((st = D->dv[i].st) != LCL_OK) goto out;
        if (l < 0) continue;
        if (resident)
            for (p = N->levp[l]; p < N->levp[l + 1]; p++) {
                k = N->levc[p];
                if (needx[k]) {
                    if (D->xoff[k] >= 0 && D->dv[D->owner[k]].xptr) D->inx[k] = 1;
                    else D->onhost[k] = 1;
                }
            }
        if (!resident)          /* zero-column-transfer eviction: L parts past their last use */
            for (i = 0; i < nd; i++) {
                lcl__bklu_dev *v = &D->dv[i];
                for (k = 0; k < n; k++)
                    if (v->has[k] && D->onhost[k] && lcl__bklu_next(v, k, l + 1) == INT64_MAX) lcl__bklu_drop(N, v, k);
            }
    }
    LCL__BKLU_MARK(NULL, 12);
    fbad = lcl__bklu_frest(ctx, A, N, D);
    LCL__BKLU_MARK(NULL, 15);
    /* pivots of every column, singular blocks, non-finite input: whole arrays read from each
       device (a read per column cost tens of microseconds each), each column's taken from its owner */
    for (i = 0; i < nd && D->dv[i].pvptr; i++) {}
    if (i < nd && !LCL__BA(piv2, 2 * n * m + n, int32_t)) goto out;
    for (i = 0; i < nd; i++) {
        cl_int fl = 0;
        size_t ib = (size_t)(n * m) * sizeof(int32_t);
        int32_t *pv = D->dv[i].pvptr ? (int32_t *)D->dv[i].pvptr : piv2;
        d = D->dv[i].d;
        if ((e = LCL__CL->clEnqueueReadBuffer(d->queue[0], D->dv[i].ipiv, CL_FALSE, 0, ib, pv, 0, NULL, NULL)) != CL_SUCCESS ||
            (e = LCL__CL->clEnqueueReadBuffer(d->queue[0], D->dv[i].perm, CL_FALSE, 0, ib, pv + n * m, 0, NULL, NULL)) != CL_SUCCESS ||
            (e = LCL__CL->clEnqueueReadBuffer(d->queue[0], D->dv[i].bad, CL_FALSE, 0, (size_t)n * sizeof(int32_t), pv + 2 * n * m, 0, NULL, NULL)) !=
                CL_SUCCESS ||
            (e = LCL__CL->clEnqueueReadBuffer(d->queue[0], D->dv[i].flag, CL_TRUE, 0, sizeof fl, &fl, 0, NULL, NULL)) != CL_SUCCESS)
            goto clfail;
        for (k = 0; k < n; k++)
            if (D->owner[k] == i) {
                if (!D->onhost[k]) {
                    memcpy(N->ipiv + k * m, pv + k * m, (size_t)m * sizeof(int32_t));
                    memcpy(D->hperm + k * m, pv + n * m + k * m, (size_t)m * sizeof(int32_t));
                }
                badk[k] = pv[2 * n * m + k];
            }
        if (fl) {
            int64_t q, mm = N->mm;
            for (e64 = 0; e64 < A->nnzb; e64++)
                for (q = 0; q < mm; q++) {
                    double x = A->dtype == LCL_F32 ? (double)((const float *)A->val)[e64 * mm + q] : ((const double *)A->val)[e64 * mm + q];
                    if (!(x - x == 0)) {
                        st = lcl__bklu_nan(ctx, fn, A, e64);
                        goto out;
                    }
                }
            st = lcl__fail(ctx, LCL_ERR_NAN, "%s: a block of A holds NaN or Inf", fn);
            goto out;
        }
    }
    LCL__BKLU_MARK(NULL, 16);
    if (fbad >= 0) {
        st = lcl__bklu_nan(ctx, fn, A, fbad);
        goto out;
    }
    N->bad_k = -1;
    for (k = 0; k < n; k++)
        if (badk[k]) { N->bad_k = k; N->bad_i = badk[k] - 1; break; }
    D->stale = 0;
    for (k = 0; k < n; k++)
        if (!D->onhost[k]) D->stale = 1;
    N->flops = 0;
    for (k = 0; k < n; k++) N->flops += cost[k] * (double)m * (double)m * (double)m;
    for (i = 0; i < nd; i++) D->transfers += D->dv[i].transfers, D->evictions += D->dv[i].evictions;
    if (info) {
        info->devices = nd;
        info->transfers = D->transfers;
        info->evictions = D->evictions;
    }
    goto out;
clfail:
    st = lcl__clfail(ctx, e, fn, d ? d->info.name : NULL);
out:
#undef LCL__BA
    if (st != LCL_OK && D) {
        lcl__bklu_drain(D);
        lcl__bklu_cl_free(D);
        N->cl = NULL;
    }
    lcl__bklu_cl_free(old);
    LCL_FREE(piv2);
    LCL__BKLU_MARK(NULL, 13);
    LCL_FREE(levof); LCL_FREE(cols); LCL_FREE(badk); LCL_FREE(cost); LCL_FREE(load); LCL_FREE(needx);
    *stp = st;
    return 1;
}
#endif

#ifdef __cplusplus
}
#endif
#endif /* LINALG_CL_IMPLEMENTATION_INCLUDED */
#endif /* LINALG_CL_IMPLEMENTATION */
/* LINALG_CL_IMPLEMENTATION_DONE */

/*
MIT License. Copyright (c) 2026 the linalg_cl authors.
Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute,
sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions: The above copyright notice and this
permission notice shall be included in all copies or substantial portions of the Software.
THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED.
*/
