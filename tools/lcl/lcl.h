/* lcl.h -- the lcl tool's own declarations, shared by the files of tools/lcl/ and nothing else:
   the parsed command line, the option and command tables, and the helpers the commands share.

   Exit codes: 0 success, 1 numerical failure or out of memory, 2 bad input or usage, 3 backend/device
   unavailable.
   Results go to stdout (--json: exactly one JSON object per result); errors to stderr as
   "lcl: error: ...". The tool uses the library's public API only. */
#ifndef LCL_TOOL_PRIVATE_H_INCLUDED
#define LCL_TOOL_PRIVATE_H_INCLUDED
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L     /* clock_gettime, setenv */
#endif
#include "../../linalg_cl.h"
#include "../lcl_gen.h"
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <stb_ds.h>

enum { EXIT_OK = 0, EXIT_NUMERIC = 1, EXIT_USAGE = 2, EXIT_BACKEND = 3 };

/* The command line after the command word; what was not given is NULL / 0. Option values are
   checked while parsing (options.c), so a command finds only valid ones. */
typedef struct opts {
    lcl_backend backend;
    int backend_set;
    const char *device;
    lcl_dtype dtype;
    int json;
    uint64_t seed;
    const char *out;
    char **pos;             /* stb_ds array of positional arguments */
    uint64_t given;         /* bit i: option i of the option table was given */
    /* solve and bench dense */
    const char *rhs, *method, *algorithm, *op, *sizes, *algorithms, *csv, *svg;
    long block, reps;
    int force;
    int split;              /* dense: opts.device = -1, the factorization split over the devices; spmv: rows split */
    int resident;           /* bench dense --split: device matrices (lcl_dmat_upload_split), not host arrays */
    /* spmv and bench spmv */
    const char *format, *kernel, *x, *formats, *backends;
    int trans;
    /* solve --method klu and bench klu */
    const char *ordering, *scale;
    double tol;             /* 0: the library's default */
    long refactor;
    int refine;             /* opts.refine of the sparse LU (0 auto, -1 off) */
    double dense;           /* opts.dense of the sparse LU (0: the library's default) */
    int vec;                /* solve --method klu: lcl_klu_solve_vec */
    /* solve --method bklu and bench bklu (--block is M there) */
    const char *blocks;     /* bench bklu: M,M,... */
    const char *schedule;   /* static|affinity|dynamic|default */
    int64_t mem_limit;      /* bytes, 0: the library's default */
    int nopivot;
    int pageable;           /* A's values malloc'd, not in the context's pinned memory */
    long as_blocks;         /* solve --method bklu: MATRIX itself cut into M x M blocks (0: J (x) B with --block) */
    /* solve, every method */
    double max_residual;    /* a residual above it exits 1 (0: the square root of the precision's epsilon) */
    double max_fill;        /* spmv: the padded formats' guard, slots per nonzero (0: the library's 3) */
} opts;

/* ---- main.c: the commands -------------------------------------------------------------------- */
enum {                      /* one bit per command: which options apply where */
    CMD_INFO = 1 << 0, CMD_GEN = 1 << 1, CMD_STAT = 1 << 2, CMD_SOLVE = 1 << 3, CMD_SPMV = 1 << 4,
    CMD_BENCH_DENSE = 1 << 5, CMD_BENCH_SPMV = 1 << 6, CMD_TUNE = 1 << 7, CMD_DEMO = 1 << 8,
    CMD_SOLVE_KLU = 1 << 9, CMD_BENCH_KLU = 1 << 10, CMD_SOLVE_BKLU = 1 << 11, CMD_BENCH_BKLU = 1 << 12,
    CMD_ALL = (1 << 13) - 1
};
typedef struct lcl_command {
    const char *word;       /* argv[1] */
    const char *suite;      /* the first positional argument that selects it ("dense"), or NULL */
    const char *method;     /* the --method value that selects it ("klu"), or NULL: any other */
    const char *args;       /* its positional arguments, for the help */
    const char *summary;    /* for the help; '\n' starts an indented line */
    unsigned bit;
    int (*check)(const opts *o);   /* arguments and combinations, before anything runs: -1 or the exit code */
    int (*run)(const opts *o);
} lcl_command;
extern const lcl_command lcl_commands[];
extern const int lcl_ncommands;
const char *command_name(const lcl_command *c, char *buf, size_t cap);   /* "bench dense", "solve --method klu" */

/* ---- options.c: the option table --------------------------------------------------------------- */
typedef struct lcl_option {
    const char *name;       /* "--backend", "-o" */
    const char *arg;        /* its value as the help shows it; NULL: a flag (an int set to 1) */
    size_t off;             /* offsetof(opts, the field it sets) */
    /* checks val and stores it (1), or refuses it (0); NULL: the field is the string itself */
    int (*set)(opts *o, void *field, const char *val);
    const char *bad;        /* the usage error when set refuses: a format for val */
    unsigned cmds;          /* the commands that take it (CMD_ bits) */
    const char *help;       /* '\n' starts an indented line */
} lcl_option;
/* argv after the command word into o (zeroed, seed 1 by the caller): -1 to go on, else the exit code */
int parse_opts(int argc, char **argv, opts *o);
/* an option given that command bits `cmds` do not take: the usage error (code 2), else -1 */
int check_options(const char *cmd, unsigned cmds, const opts *o);
void print_usage(FILE *f);
int print_command_usage(FILE *f, const char *word);

#define MAX_SIZES 64
#define MAX_ALGS 16
#define MAX_FORMATS 16
#define MAX_BACKENDS 4
/* comma-separated lists, as the options take them: the count, 0 when malformed (out may be NULL) */
int parse_sizes(const char *s, int64_t *out, int cap);          /* "256,512,1024": sizes in [1, 2^31-1] */
int parse_algs(const char *s, int *out, int cap);               /* "blocked,crout" */
int parse_formats(const char *s, lcl_format *out, int cap);     /* "csr,ell" or "all" (auto is its own column) */
int parse_backends(const char *s, lcl_backend *out, int cap);   /* "serial,openmp" */

/* ---- context.c: errors and contexts ------------------------------------------------------------ */
extern int quiet_errors;    /* lcl_tool_parse_only: validate without printing */
int fail(int code, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
int exit_code(lcl_status st);
void log_stderr(void *user, lcl_log_level level, const char *msg);
int make_context(const opts *o, lcl_context **ctx);            /* -1, else the exit code (printed) */
int split_check(lcl_context *ctx);                             /* --split: -1, else the exit code */
void dense_device_name(lcl_context *ctx, int split, char *buf, size_t cap);  /* where dense work runs */
void spmv_device_name(lcl_context *ctx, char *buf, size_t cap);  /* the OpenCL device, "" on the CPU backends */
const char *device_type_name(lcl_device_type t);
const char *prec_name(lcl_dtype dt);
/* a matrix read in double, to be worked in dt: -1 when its values fit dt, else the exit code after
   naming the first that does not (single precision would hold it as Inf) */
int fits_coo(const char *src, lcl_dtype dt, const lcl_coo *A);
int fits_dense(const char *src, lcl_dtype dt, const lcl_dense *A);

/* ---- report.c: output and timing --------------------------------------------------------------- */
void json_double(FILE *f, double v, int valid);                /* null when !valid or not finite */
void csv_field(FILE *f, const char *s);
/* GF/s-style line chart: point i of series label[i] at (x[i], y[i]); y[i] <= 0 points are left out */
int write_svg_lines(const char *path, const char *title, const char *xlabel, const char *ylabel, char **label,
                    const int64_t *x, const double *y, int npts);
/* grouped bars: ngroups groups of nser bars, val[g * nser + s] (<= 0: none) */
int write_svg_bars(const char *path, const char *title, const char *ylabel, char **groups, int ngroups, char **series,
                   int nser, const double *val);
double now_s(void);
double median(double *t, long n);                              /* sorts t */
double amax(double m, double v);                               /* NaN wins */

/* ---- dense.c: dense matrices for solve, bench dense and the demo ------------------------------ */
#define DENSE_MAX_BYTES (8.0 * 1073741824.0)    /* refuse matrices whose dense double form is larger */
extern const char *const alg_names[5];
int alg_parse(const char *s);                   /* lcl_dense_alg, -1 when unknown */
int method_parse(const char *s);                /* 0 lu, 1 cholesky, -1 */
int alg_fits(int chol, int alg);
int alg_unblocked(int alg);
double urand_sym(uint64_t seed, uint64_t i);    /* uniform in [-1,1), the same for the same (seed, i) */
void matvec64(const lcl_dense *A, const double *x, double *y);
double inf_norm64(const lcl_dense *A, double *rowsum);
double backward_error(const lcl_dense *A, double normA, const double *x, const double *b, double *work);
/* the same from ax = A x computed elsewhere (n entries) */
double backward_error_ax(const double *ax, double normA, const double *x, const double *b, int64_t n);
double forward_error(const double *x, const double *xs, int64_t n);
lcl_status dense_from_array(lcl_context *ctx, const double *v, int64_t n, int64_t k, lcl_dtype dt, lcl_dense *out);
void dense_to_array(const lcl_dense *m, double *v);
lcl_status dense_convert(lcl_context *ctx, const lcl_dense *src, lcl_dtype dt, lcl_dense *out);
int too_big(const char *src, double n);         /* the usage error for a dense matrix over the limit */
int load_square(lcl_context *ctx, const char *src, uint64_t seed, lcl_dense *A);   /* -1, else the exit code */
int64_t count_nonzeros(const lcl_dense *A);
typedef struct dense_system {   /* one test system: A in double and in the working precision, b = A x* */
    lcl_dense A, Aw, Bw;        /* Bw: b in the working precision */
    double normA, *xs, *b, *x, *work;   /* x: room for a solution; work: n doubles */
} dense_system;
/* dense-random:n (LU: diagonally dominant) or dense-spd:n (Cholesky), x* from urand_sym(seed, i):
   -1, else the exit code (printed) */
int dense_system_make(lcl_context *gctx, int chol, int64_t n, uint64_t seed, lcl_dtype dt, dense_system *c);
void dense_system_free(dense_system *c);

/* ---- spmv.c: SpMV measured and checked, for spmv, bench spmv and the demo ------------------------ */
#define SPMV_REPS 20
/* The tool's own check, independent of the library's SpMV: y_ref = op(A) x from the COO as a
   serial CSR product (row by row; --trans scatters), accumulated in long double where wider. */
typedef struct spmv_ref {
    int64_t n_in, n_out;        /* lengths of x and y */
    double *x;                  /* x as the library sees it (rounded to float in single precision) */
    void *xw;                   /* the same x in the working precision, what lcl_spmv reads */
    double *y;
    double scale;               /* max_i sum_j |a_ij| |x_j| over the checked rows, the denominator of rel_err */
    double tol;                 /* rel_err above this is a wrong result */
    unsigned char *over;        /* NULL, or 1 for each row whose sum_j |a_ij| |x_j| is beyond the working
                                   precision's range: any value there is right (Inf, or NaN from Inf - Inf) */
    int64_t n_over;             /* how many */
} spmv_ref;
typedef struct spmv_run {
    lcl_status st;
    char msg[512];              /* the library's message when st != LCL_OK */
    lcl_spmat_info info;        /* format and kernel as chosen */
    double seconds;             /* median of the timed products */
    double rel_err;             /* the largest over every product */
    int ok;                     /* st == LCL_OK and every product within ref->tol */
    int resident;               /* split over devices with partitioned x and y (lcl_vec_create_like) */
} spmv_run;
lcl_status spmv_ref_make(const lcl_coo *A, int trans, const double *x0, spmv_ref *r);
void spmv_ref_free(spmv_ref *r);
void spmv_measure(lcl_context *ctx, const lcl_coo *A, const lcl_spmat_opts *so, int trans, long reps, const spmv_ref *ref,
                  void *y, spmv_run *r);
double spmv_mnnz(const spmv_run *r);            /* M nonzeros per second, 0 when it failed */
double spmv_gbps(const spmv_run *r);
int spmv_load(lcl_context *ctx, const char *src, uint64_t seed, lcl_dtype dt, lcl_coo *A);   /* -1, else the exit code */

/* ---- bench.c: matrix lists for the benchmarks ---------------------------------------------------- */
int mtx_files(const char *dir, char ***list);   /* every *.mtx of dir, sorted, appended (malloc'd): 0 when unreadable */
void add_string(char ***list, const char *s);   /* a malloc'd copy appended */
void free_strings(char ***list);                /* the strings and the array */
void matrix_label(const char *src, char *buf, size_t cap);     /* west0067 for dir/west0067.mtx; gen: specs as they are */

/* ---- klu.c: sparse direct LU (solve --method klu, bench klu) ------------------------------------- */
#define KLU_PERTURB 1e-3        /* refactor values: a_ij (1 + KLU_PERTURB u), u uniform in [-1, 1) */
int klu_ordering_parse(const char *s);          /* lcl_klu_ordering of amd|colamd|natural, -1 */
int klu_scale_parse(const char *s);             /* lcl_klu_scaling of none|sum|max, -1 */
void klu_opts_from(const opts *o, lcl_klu_opts *ko);   /* --ordering, --scale, --tol, --refine, --dense */
const char *klu_ordering_name(const lcl_klu_opts *ko);
const char *klu_scale_name(const lcl_klu_opts *ko);
/* The vectors of one test system A x = b, for solve --method klu|bklu and their benchmarks */
typedef struct sys_vecs {
    int64_t n;
    lcl_dtype dt;               /* of bw */
    double *xs, *b, *x, *ax;    /* n each: x* = urand_sym(seed, i), b = A x*, x, A x (the caller's products) */
    void *bw;                   /* b in the working precision, solved in place */
} sys_vecs;
int sys_vecs_alloc(sys_vecs *v, int64_t n, lcl_dtype dt, uint64_t seed);   /* x* set; 0 when out of memory (v freed) */
void sys_vecs_free(sys_vecs *v);
void sys_vecs_load(sys_vecs *v);                /* bw = b */
void sys_vecs_take(sys_vecs *v);                /* x = bw */
int sys_vecs_write_x(lcl_context *ctx, const sys_vecs *v, const char *path);   /* x as a Matrix Market array: -1, else the exit code */
void sys_vecs_report(double residual, double ferr, const char *path);         /* the text report's check lines */
int residual_exit(const opts *o, double residual);   /* -1, or EXIT_NUMERIC with a message: above --max-residual */

/* ---- klu.c: helpers the block LU's checks share ---------------------------------------------------- */
int load_square_coo(lcl_context *ctx, const char *src, uint64_t seed, lcl_coo *coo);   /* MATRIX in double, square: -1, else the exit code */
void csr_matvec64(const lcl_csr *A, const double *x, double *y);   /* y = A x, A double, accumulated in long double */
double csr_norm_inf64(const lcl_csr *A);                           /* the largest row sum of |A|, A double */

/* ---- bklu.c: block sparse LU (solve --method bklu, bench bklu) ------------------------------------ */
int bklu_schedule_parse(const char *s);         /* lcl_bklu_schedule of default|static|affinity|dynamic, -1 */
int parse_bytes(const char *s, int64_t *out);   /* "512M", "1.5G", "4096": bytes >= 1 (K/M/G/T: powers of 1024) */

/* ---- the commands: check (before anything runs) and run ------------------------------------------ */
int check_gen(const opts *o);
int check_stat(const opts *o);
int check_solve(const opts *o);
int check_spmv(const opts *o);
int check_bench_dense(const opts *o);
int check_bench_spmv(const opts *o);
int check_tune(const opts *o);
int check_no_args(const opts *o);   /* info, demo */
int check_bench_klu(const opts *o);
int check_solve_bklu(const opts *o);
int check_bench_bklu(const opts *o);
int cmd_info(const opts *o);
int cmd_gen(const opts *o);
int cmd_stat(const opts *o);
int cmd_solve(const opts *o);
int cmd_spmv(const opts *o);
int cmd_bench_dense(const opts *o);
int cmd_bench_spmv(const opts *o);
int cmd_tune(const opts *o);
int cmd_solve_klu(const opts *o);
int cmd_bench_klu(const opts *o);
int cmd_solve_bklu(const opts *o);
int cmd_bench_bklu(const opts *o);
int cmd_demo(const opts *o);

#endif
