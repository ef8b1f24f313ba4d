/* options.c -- the option table: one row per option says what it takes, where it is stored, which
   commands accept it and what the help says. The parser, the help text and the misplaced-option
   check all read this table; the value checks live here too, so usage errors come before
   anything runs. */
#include "lcl.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* "a,b,c": one(name) for each of at most cap (<= 16) comma-separated names (each under 16
   characters), the values into out (may be NULL); the count, or 0 when malformed or when a value
   comes twice (each would be measured twice, as a separate row) */
static int parse_names(const char *s, int cap, int (*one)(const char *name), int *out) {
    int n = 0, v, k, seen[16];
    for (;;) {
        char field[16];
        size_t len = strcspn(s, ",");
        if (len == 0 || len >= sizeof field || n >= cap || n >= 16) return 0;
        memcpy(field, s, len);
        field[len] = 0;
        if ((v = one(field)) < 0) return 0;
        for (k = 0; k < n; k++)
            if (seen[k] == v) return 0;
        if (out) out[n] = v;
        seen[n++] = v;
        if (!s[len]) return n;
        s += len + 1;
    }
}
static int one_format(const char *name) {
    lcl_format f;
    return lcl_format_parse(name, &f) && f != LCL_FMT_AUTO ? (int)f : -1;
}
static int one_backend(const char *name) {
    lcl_backend b;
    return lcl_backend_parse(name, &b) ? (int)b : -1;
}
int parse_algs(const char *s, int *out, int cap) { return parse_names(s, cap, alg_parse, out); }
/* through an int array: the enums' storage is the compiler's choice */
static int parse_enum_names(const char *s, int cap, int (*one)(const char *name), void *out, int is_format) {
    int v[16], n = parse_names(s, cap, one, v), k;
    for (k = 0; out && k < n; k++)
        if (is_format) ((lcl_format *)out)[k] = (lcl_format)v[k];
        else ((lcl_backend *)out)[k] = (lcl_backend)v[k];
    return n;
}
int parse_backends(const char *s, lcl_backend *out, int cap) { return parse_enum_names(s, cap, one_backend, out, 0); }
int parse_formats(const char *s, lcl_format *out, int cap) {
    int n = 0;
    if (!strcmp(s, "all")) {
        for (n = 0; n + 1 < LCL_FMT_COUNT_ && n < cap; n++)
            if (out) out[n] = (lcl_format)(n + 1);
        return n;
    }
    return parse_enum_names(s, cap, one_format, out, 1);
}
int parse_sizes(const char *s, int64_t *out, int cap) {
    int n = 0;
    for (;;) {
        int64_t v = 0;
        const char *p = s;
        for (; *p >= '0' && *p <= '9'; p++)
            if ((v = v * 10 + (*p - '0')) > 2147483647) return 0;
        if (p == s || v < 1 || (*p && *p != ',') || n >= cap) return 0;
        if (out) out[n] = v;
        n++;
        if (!*p) return n;
        s = p + 1;
    }
}
/* a decimal integer in [1, max], digits only */
static int parse_count(const char *s, long max, long *out) {
    long v = 0;
    if (!*s) return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return 0;
        v = v * 10 + (*s - '0');
        if (v > max) return 0;
    }
    if (v < 1) return 0;
    *out = v;
    return 1;
}

/* ---- setters: check the value, store it (1), or refuse it (0) ---- */
static int set_backend(opts *o, void *field, const char *v) {
    if (!lcl_backend_parse(v, (lcl_backend *)field)) return 0;
    o->backend_set = 1;
    return 1;
}
static int set_precision(opts *o, void *field, const char *v) {
    (void)o;
    if (!strcmp(v, "double") || !strcmp(v, "f64")) *(lcl_dtype *)field = LCL_F64;
    else if (!strcmp(v, "single") || !strcmp(v, "float") || !strcmp(v, "f32")) *(lcl_dtype *)field = LCL_F32;
    else return 0;
    return 1;
}
static int set_seed(opts *o, void *field, const char *v) {
    char *end;
    unsigned long long s;
    (void)o;
    errno = 0;
    s = strtoull(v, &end, 10);      /* digits only: strtoull would skip spaces, take '+' and wrap '-' */
    if (v[0] < '0' || v[0] > '9' || *end || errno == ERANGE) return 0;
    *(uint64_t *)field = (uint64_t)s;
    return 1;
}
static int set_block(opts *o, void *field, const char *v) { (void)o; return parse_count(v, 65536, (long *)field); }
static int set_reps(opts *o, void *field, const char *v) { (void)o; return parse_count(v, 10000, (long *)field); }
/* v, all of it, as a number (strtod's forms, inf among them) that is not out of range; no
   leading blank, which strtod would skip (as the count options refuse one) */
static int parse_real(const char *v, double *t) {
    char *end;
    if (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\v' || *v == '\f' || *v == '\r') return 0;
    errno = 0;
    *t = strtod(v, &end);
    return end != v && !*end && errno != ERANGE;
}
static int set_tol(opts *o, void *field, const char *v) {    /* a number in (0, 1] */
    double t;
    (void)o;
    if (!parse_real(v, &t) || !(t > 0 && t <= 1)) return 0;
    *(double *)field = t;
    return 1;
}
static int set_refine(opts *o, void *field, const char *v) {    /* -1 (off), 0 (auto) .. 100 */
    char *end;
    long k;
    (void)o;
    if (!(*v == '-' || (*v >= '0' && *v <= '9'))) return 0;   /* strtol would skip blanks and take '+' */
    errno = 0;
    k = strtol(v, &end, 10);
    if (end == v || *end || errno == ERANGE || k < -1 || k > 100) return 0;
    *(int *)field = (int)k;
    return 1;
}
static int set_dense(opts *o, void *field, const char *v) {     /* a fraction in (0, 1], or negative */
    double t;
    (void)o;
    if (!parse_real(v, &t) || !(t < 0 || (t > 0 && t <= 1))) return 0;
    *(double *)field = t;
    return 1;
}
static int set_max_residual(opts *o, void *field, const char *v) {    /* a positive number, or inf */
    double t;
    (void)o;
    if (!parse_real(v, &t) || !(t > 0)) return 0;
    *(double *)field = t;
    return 1;
}
static int set_max_fill(opts *o, void *field, const char *v) {    /* a finite number >= 1 */
    double t;
    (void)o;
    if (!parse_real(v, &t) || !(t >= 1 && t <= 1e300)) return 0;
    *(double *)field = t;
    return 1;
}
static int set_mem_limit(opts *o, void *field, const char *v) { (void)o; return parse_bytes(v, (int64_t *)field); }
/* --blocks: sizes from 1 to 65536, as --block */
static int block_list(const char *v) {
    int64_t m[MAX_SIZES];
    int n = parse_sizes(v, m, MAX_SIZES), k;
    for (k = 0; k < n; k++)
        if (m[k] > 65536) return 0;
    return n > 0;
}
static int known_format(const char *v) { lcl_format f; return lcl_format_parse(v, &f); }
static int known_kernel(const char *v) { lcl_spmv_kernel k; return lcl_spmv_kernel_parse(v, &k); }
/* a string option whose value must pass `valid` */
#define STRING_SETTER(name, valid)                                          \
    static int name(opts *o, void *field, const char *v) {                  \
        (void)o;                                                            \
        if (!(valid)) return 0;                                             \
        *(const char **)field = v;                                          \
        return 1;                                                           \
    }
STRING_SETTER(set_method, method_parse(v) >= 0 || !strcmp(v, "klu") || !strcmp(v, "bklu"))
STRING_SETTER(set_op, method_parse(v) >= 0)
STRING_SETTER(set_ordering, klu_ordering_parse(v) >= 0)
STRING_SETTER(set_scale, klu_scale_parse(v) >= 0)
STRING_SETTER(set_algorithm, alg_parse(v) >= 0)
STRING_SETTER(set_algorithms, parse_algs(v, NULL, MAX_ALGS) > 0)
STRING_SETTER(set_sizes, parse_sizes(v, NULL, MAX_SIZES) > 0)
STRING_SETTER(set_format, known_format(v))
STRING_SETTER(set_kernel, known_kernel(v))
STRING_SETTER(set_formats, parse_formats(v, NULL, MAX_FORMATS) > 0)
STRING_SETTER(set_backends, parse_backends(v, NULL, MAX_BACKENDS) > 0)
STRING_SETTER(set_schedule, bklu_schedule_parse(v) >= 0)
STRING_SETTER(set_blocks, block_list(v))

#define OFF(field) offsetof(opts, field)
#define DENSE_CMDS (CMD_SOLVE | CMD_BENCH_DENSE)
#define BENCH_CMDS (CMD_BENCH_DENSE | CMD_BENCH_SPMV | CMD_BENCH_KLU | CMD_BENCH_BKLU)
#define KLU_CMDS (CMD_SOLVE_KLU | CMD_BENCH_KLU)
#define BKLU_CMDS (CMD_SOLVE_BKLU | CMD_BENCH_BKLU)

/* The first rows are taken by every command; the help prints them first, unmarked. */
static const lcl_option options[] = {
    {"--backend", "serial|openmp|opencl|auto", OFF(backend), set_backend, "unknown backend '%s' (serial, openmp, opencl, auto)",
     CMD_ALL, "default auto; --device implies opencl"},
    {"--device", "SPEC", OFF(device), NULL, NULL, CMD_ALL, "index, list (0,1), gpu, cpu, all, or a name substring"},
    {"--precision", "double|single", OFF(dtype), set_precision, "unknown precision '%s' (double, single)", CMD_ALL, "default double"},
    {"--json", NULL, OFF(json), NULL, NULL, CMD_ALL, "one JSON object per result on stdout"},
    {"--seed", "N", OFF(seed), set_seed, "--seed needs a non-negative integer below 2^64, got '%s'", CMD_ALL,
     "generator seed (default 1)"},
    {"-o", "FILE", OFF(out), NULL, NULL, CMD_GEN | CMD_SOLVE | CMD_SOLVE_KLU | CMD_SOLVE_BKLU | CMD_SPMV,
     "output file: gen's matrix, solve's x, spmv's y"},
    {"--method", "lu|cholesky|klu|bklu", OFF(method), set_method, "unknown --method '%s' (lu, cholesky, klu, bklu)",
     CMD_SOLVE | CMD_SOLVE_KLU | CMD_SOLVE_BKLU, "the factorization (required); klu: sparse direct LU; bklu: block sparse LU"},
    {"--rhs", "B.mtx", OFF(rhs), NULL, NULL, CMD_SOLVE, "right-hand sides (default b = A x* for a random x*)"},
    {"--max-residual", "R", OFF(max_residual), set_max_residual, "--max-residual needs a positive number (or inf), got '%s'",
     CMD_SOLVE | CMD_SOLVE_KLU | CMD_SOLVE_BKLU,
     "exit 1 when |b - Ax| / (|A| |x| + |b|) is above R (default: the square root of the precision's epsilon, 1.5e-8 / 3.5e-4)"},
    {"--algorithm", "A", OFF(algorithm), set_algorithm,
     "unknown algorithm '%s' (auto, blocked, unblocked, crout, banachiewicz)", CMD_SOLVE,
     "auto|blocked|unblocked|crout|banachiewicz (Cholesky only)"},
    {"--op", "lu|cholesky", OFF(op), set_op, "unknown --op '%s' (lu, cholesky)", CMD_BENCH_DENSE,
     "the factorization timed (required)"},
    {"--sizes", "N,N,...", OFF(sizes), set_sizes,
     "--sizes needs a comma-separated list of at most 64 matrix sizes (1 to 2147483647), got '%s'", CMD_BENCH_DENSE,
     "matrix sizes (default 256,512,1024)"},
    {"--algorithms", "A,A,...", OFF(algorithms), set_algorithms,
     "--algorithms needs a comma-separated list of at most 16 of auto, blocked, unblocked, crout, banachiewicz, each once, "
     "got '%s'",
     CMD_BENCH_DENSE, "algorithms compared (default blocked; unblocked ones only to n = 2048)"},
    {"--block", "N", OFF(block), set_block, "--block needs a block size from 1 to 65536, got '%s'", DENSE_CMDS | CMD_SOLVE_BKLU,
     "dense: the blocking (default: tuned); bklu: M, each nonzero of the base MATRIX becomes a dense M x M block (J (x) B)"},
    {"--as-blocks", "M", OFF(as_blocks), set_block, "--as-blocks needs a block size from 1 to 65536, got '%s'",
     CMD_SOLVE_BKLU | CMD_BENCH_BKLU, "bklu: MATRIX itself cut into M x M blocks (its order a multiple of M; each block holding an "
     "entry stored dense), instead of J (x) B"},
    {"--blocks", "M,M,...", OFF(blocks), set_blocks,
     "--blocks needs a comma-separated list of at most 64 block sizes from 1 to 65536, got '%s'", CMD_BENCH_BKLU,
     "block sizes M, each base expanded by each (default 64,128,256)"},
    {"--force", NULL, OFF(force), NULL, NULL, CMD_BENCH_DENSE, "unblocked algorithms beyond n = 2048 too"},
    {"--split", NULL, OFF(split), NULL, NULL, DENSE_CMDS | CMD_SPMV,
     "the work over every device of --device: solve and bench dense split the factorization (opts.device = -1; bench "
     "dense times one device against all, host arrays, transfers included); spmv splits the rows by nnz"},
    {"--resident", NULL, OFF(resident), NULL, NULL, CMD_BENCH_DENSE,
     "with --split: time device matrices, factorization only (lcl_dmat_upload on device 0 against lcl_dmat_upload_split)"},
    {"--ordering", "amd|colamd|natural", OFF(ordering), set_ordering, "unknown --ordering '%s' (amd, colamd, natural)",
     KLU_CMDS | BKLU_CMDS, "fill-reducing ordering of each diagonal block (default amd)"},
    {"--tol", "T", OFF(tol), set_tol, "--tol needs a pivot threshold in (0, 1], got '%s'", KLU_CMDS | BKLU_CMDS,
     "partial pivoting threshold; the diagonal is kept while |a_jj| >= T * the column's largest (default 0.001; bklu: 1 on "
     "the blocks' norms)"},
    {"--scale", "none|sum|max", OFF(scale), set_scale, "unknown --scale '%s' (none, sum, max)", KLU_CMDS | BKLU_CMDS,
     "row scaling (default max)"},
    {"--refine", "K", OFF(refine), set_refine, "--refine needs -1 (off), 0 (auto) or a step count up to 100, got '%s'", KLU_CMDS,
     "iterative refinement steps of each solve (default 0: up to 2 when pivot growth lost digits)"},
    {"--dense", "F", OFF(dense), set_dense, "--dense needs a fraction in (0, 1] or a negative number (never), got '%s'", KLU_CMDS,
     "a block goes dense once a column of L fills F of the rows below it (default 0.8; negative: never)"},
    {"--refactor", "K", OFF(refactor), set_reps, "--refactor needs a count from 1 to 10000, got '%s'", CMD_SOLVE_KLU | CMD_SOLVE_BKLU,
     "K refactors with perturbed values (same pattern and pivots): t_refactor is their median"},
    {"--schedule", "static|affinity|dynamic", OFF(schedule), set_schedule,
     "unknown --schedule '%s' (static, affinity, dynamic, default)", BKLU_CMDS,
     "block columns over several OpenCL devices: static per level (the 2016 thesis), dependency affinity, or dynamic list "
     "scheduling (default: the library's, affinity)"},
    {"--mem-limit", "BYTES", OFF(mem_limit), set_mem_limit,
     "--mem-limit needs a byte count >= 1 with an optional K, M, G or T (powers of 1024), e.g. 512M or 1.5G, got '%s'", BKLU_CMDS,
     "device memory each OpenCL device may use (default 90% of it); factors beyond it are evicted and replaced"},
    {"--nopivot", NULL, OFF(nopivot), NULL, NULL, BKLU_CMDS, "no pivoting inside the pivot blocks (the 2016 thesis)"},
    {"--pageable", NULL, OFF(pageable), NULL, NULL, BKLU_CMDS,
     "A's values in malloc'd memory, not the context's pinned memory (lcl_host_alloc; the default on OpenCL)"},
    {"--vec", NULL, OFF(vec), NULL, NULL, CMD_SOLVE_KLU,
     "solve through a vector where the context computes (lcl_klu_solve_vec; on OpenCL the factors' device copy, "
     "no transfers timed)"},
    {"--format", "F", OFF(format), set_format, "unknown format '%s' (coo, csr, csc, ell, sell, hyb, dia, bcsr, dense, auto)",
     CMD_SPMV, "coo|csr|csc|ell|sell|hyb|dia|bcsr|dense|auto (default auto)"},
    {"--kernel", "K", OFF(kernel), set_kernel, "unknown kernel '%s' (scalar, vector, merge, image, auto)", CMD_SPMV,
     "scalar|vector|merge|image|auto (default auto)"},
    {"--max-fill", "R", OFF(max_fill), set_max_fill, "--max-fill needs a number >= 1 (slots per nonzero), got '%s'",
     CMD_SPMV | CMD_BENCH_SPMV,
     "slots per nonzero ELL, SELL, HYB, DIA, BCSR and dense may store, padding included (default 3); beyond it a format "
     "refuses the matrix"},
    {"--trans", NULL, OFF(trans), NULL, NULL, CMD_SPMV, "y = A^T x"},
    {"--x", "X.mtx", OFF(x), NULL, NULL, CMD_SPMV, "x (default random, --seed)"},
    {"--formats", "F,F,...|all", OFF(formats), set_formats,
     "--formats needs 'all' or a comma-separated list of coo, csr, csc, ell, sell, hyb, dia, bcsr, dense, each once (auto "
     "is always measured), got '%s'", CMD_BENCH_SPMV, "formats compared with auto (default all)"},
    {"--backends", "B,B,...", OFF(backends), set_backends,
     "--backends needs a comma-separated list of at most 4 of serial, openmp, opencl, auto, each once, got '%s'", CMD_BENCH_SPMV,
     "backends measured (default every one available)"},
    {"--reps", "N", OFF(reps), set_reps, "--reps needs a count from 1 to 10000, got '%s'",
     BENCH_CMDS | CMD_SPMV | CMD_SOLVE_KLU | CMD_SOLVE_BKLU,
     "timed runs (default 3 dense, 20 spmv, 5 klu, 3 bklu; solve --method klu|bklu: 1, no warm-up), after one warm-up"},
    {"--csv", "FILE", OFF(csv), NULL, NULL, BENCH_CMDS, "the results as CSV"},
    {"--svg", "FILE", OFF(svg), NULL, NULL, BENCH_CMDS, "the results as a chart"},
};
#define NOPTIONS ((int)(sizeof options / sizeof options[0]))
typedef char options_fit_in_given[NOPTIONS <= 64 ? 1 : -1];

static const lcl_option *find_option(const char *name) {
    int i;
    for (i = 0; i < NOPTIONS; i++)
        if (!strcmp(name, options[i].name)) return &options[i];
    return NULL;
}

int parse_opts(int argc, char **argv, opts *o) {
    int i;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *val = NULL;
        const lcl_option *opt = find_option(a);
        void *field;
        if (!opt) {
            if (a[0] == '-' && a[1] != 0) return fail(EXIT_USAGE, "unknown option '%s' (lcl --help)", a);
            arrput(o->pos, argv[i]);
            continue;
        }
        if (opt->arg) {
            if (i + 1 >= argc) return fail(EXIT_USAGE, "option %s needs a value", a);
            val = argv[++i];
        }
        field = (char *)o + opt->off;
        if (opt->set) {
            if (!opt->set(o, field, val)) return fail(EXIT_USAGE, opt->bad, val);
        } else if (opt->arg) {
            *(const char **)field = val;
        } else {
            *(int *)field = 1;
        }
        o->given |= (uint64_t)1 << (opt - options);
    }
    return -1;
}

/* "solve, spmv, bench dense": the commands of bits cmds */
static void command_list(unsigned cmds, char *buf, size_t cap) {
    int c;
    size_t len = 0;
    buf[0] = 0;
    for (c = 0; c < lcl_ncommands && len < cap; c++) {
        char name[64];
        if (!(lcl_commands[c].bit & cmds)) continue;
        len += (size_t)snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", command_name(&lcl_commands[c], name, sizeof name));
    }
}

int check_options(const char *cmd, unsigned cmds, const opts *o) {
    int i;
    for (i = 0; i < NOPTIONS; i++) {
        char where[256];
        if (!(o->given >> i & 1) || (options[i].cmds & cmds)) continue;
        command_list(options[i].cmds, where, sizeof where);
        return fail(EXIT_USAGE, "option %s does not apply to '%s': it is for %s (lcl --help)", options[i].name, cmd, where);
    }
    if (o->split && o->backend_set && o->backend != LCL_BACKEND_OPENCL)
        return fail(EXIT_USAGE, "--split divides the work among OpenCL devices: it needs --backend opencl, not %s",
                    lcl_backend_name(o->backend));
    return -1;
}

/* "  left", then text from column `col` wrapped at HELP_WIDTH; '\n' in text starts a line */
#define HELP_WIDTH 100
static void help_line(FILE *f, const char *left, const char *text, int col) {
    int n = fprintf(f, "  %s", left);
    if (n > col - 1) {
        fputc('\n', f);
        n = 0;
    }
    while (*text) {
        size_t len = strcspn(text, "\n"), cut = len;
        if (len > (size_t)(HELP_WIDTH - col)) {   /* break at the last space that fits */
            for (cut = (size_t)(HELP_WIDTH - col); cut > 0 && text[cut] != ' '; cut--) {}
            if (cut == 0) cut = len;
        }
        fprintf(f, "%*s%.*s\n", col - n, "", (int)cut, text);
        n = 0;
        text += cut;
        if (*text == ' ' || *text == '\n') text++;
    }
}

/* lcl WORD --help: WORD's rows of the command table and the options they take; 0 when no
   command is named WORD */
int print_command_usage(FILE *f, const char *word) {
    unsigned bits = 0;
    int c, i;
    for (c = 0; c < lcl_ncommands; c++) {
        char left[128], name[64];
        if (strcmp(lcl_commands[c].word, word)) continue;
        if (!bits) fputs("usage:\n", f);
        bits |= lcl_commands[c].bit;
        snprintf(left, sizeof left, "lcl %s%s%s", command_name(&lcl_commands[c], name, sizeof name), lcl_commands[c].args[0] ? " " : "",
                 lcl_commands[c].args);
        help_line(f, left, lcl_commands[c].summary, 32);
    }
    if (!bits) return 0;
    fputs("options:\n", f);
    for (i = 0; i < NOPTIONS; i++) {
        char left[128];
        if (!(options[i].cmds & bits)) continue;
        snprintf(left, sizeof left, "%s%s%s", options[i].name, options[i].arg ? " " : "", options[i].arg ? options[i].arg : "");
        help_line(f, left, options[i].help, 32);
    }
    fputs("exit: 0 ok, 1 numerical failure or out of memory, 2 bad input or usage, 3 backend or device unavailable\n", f);
    return 1;
}

void print_usage(FILE *f) {
    int c, i;
    fputs("usage: lcl COMMAND [ARGS] [OPTIONS]\ncommands:\n", f);
    for (c = 0; c < lcl_ncommands; c++) {
        char left[128], name[64];
        snprintf(left, sizeof left, "%s%s%s", command_name(&lcl_commands[c], name, sizeof name), lcl_commands[c].args[0] ? " " : "",
                 lcl_commands[c].args);
        help_line(f, left, lcl_commands[c].summary, 32);
    }
    fputs("MATRIX is a Matrix Market file or gen:KIND:ARG... (e.g. gen:poisson3d:100); gen:hb:BASE:M is J (x) B\n"
          "of a BASE that is a file or a gen: spec itself (gen:hb:gen:circuit:2000:64)\n"
          "options for every command:\n", f);
    for (i = 0; i < NOPTIONS; i++) {
        char left[128], text[512], where[256];
        if (i > 0 && options[i].cmds != CMD_ALL && options[i - 1].cmds == CMD_ALL) fputs("options of some commands:\n", f);
        snprintf(left, sizeof left, "%s%s%s", options[i].name, options[i].arg ? " " : "", options[i].arg ? options[i].arg : "");
        if (options[i].cmds == CMD_ALL) snprintf(text, sizeof text, "%s", options[i].help);
        else {
            command_list(options[i].cmds, where, sizeof where);
            snprintf(text, sizeof text, "%s: %s", where, options[i].help);
        }
        help_line(f, left, text, 32);
    }
    fputs("  -h, --help                    this text;  --version\n"
          "exit: 0 ok, 1 numerical failure or out of memory, 2 bad input or usage, 3 backend or device unavailable\n", f);
}
