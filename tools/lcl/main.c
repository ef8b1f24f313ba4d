/* main.c -- lcl, the linalg_cl command-line tool: every operation on Matrix Market files.

   lcl info | gen KIND ARGS... -o FILE | stat MATRIX | solve MATRIX --method M | spmv MATRIX
   | bench dense --op M | bench spmv [MATRIX...] | bench klu [MATRIX...] | bench bklu [BASE...] | tune | demo
   (lcl --help for all)

   The command table below names each command, its help and its handlers; options.c's table
   says which options each takes. A command line is parsed and checked in full (options, the
   command word, its arguments) before anything runs. */
#include "lcl.h"
#include "../lcl_tool.h"
#include <string.h>
#include <errno.h>
#include <sys/stat.h>

const lcl_command lcl_commands[] = {
    {"info", NULL, NULL, "", "backends compiled in, every OpenCL platform and device", CMD_INFO, check_no_args, cmd_info},
    {"gen", NULL, NULL, "KIND ARGS... -o FILE.mtx",
     "generate a matrix (seeded, streamed):\n"
     "      dense-random N | dense-spd N | poisson2d M | poisson3d M\n"
     "      powerlaw N AVG | circuit N | hb BASE M (BASE: a file or gen:SPEC)", CMD_GEN, check_gen, cmd_gen},
    {"stat", NULL, NULL, "MATRIX...", "sizes, row lengths, bandwidth, symmetry, dominance", CMD_STAT, check_stat, cmd_stat},
    {"solve", NULL, NULL, "MATRIX --method lu|cholesky", "factor and solve A x = b: residual, forward error, times", CMD_SOLVE, check_solve,
     cmd_solve},
    {"solve", NULL, "klu", "MATRIX", "sparse direct LU (KLU class): analyze, factor, refactor, solve; residual, "
     "forward error, times, fill", CMD_SOLVE_KLU, check_solve, cmd_solve_klu},
    {"solve", NULL, "bklu", "MATRIX --block M", "block sparse LU of J (x) B (each nonzero of the base MATRIX a dense M x M block; "
     "or MATRIX = gen:hb:BASE:M; or, with --as-blocks M instead, MATRIX itself cut into M x M blocks): analyze, factor, refactor, "
     "solve on the CPU or OpenCL devices; residual, times, GF/s, block fill, devices, transfers", CMD_SOLVE_BKLU, check_solve_bklu,
     cmd_solve_bklu},
    {"spmv", NULL, NULL, "MATRIX", "y = A x in one storage format, timed and checked against the tool's own product: M nnz/s, "
     "GF/s, GB/s, rel_err", CMD_SPMV, check_spmv, cmd_spmv},
    {"bench", "dense", NULL, "--op lu|cholesky", "GF/s per size, backend and algorithm (every backend available unless --backend)",
     CMD_BENCH_DENSE, check_bench_dense, cmd_bench_dense},
    {"bench", "spmv", NULL, "[MATRIX...]", "M nnz/s per matrix, backend and format, and auto's choice against the best "
     "(default matrices: $LCL_SHARED/matrices/*.mtx, gen:poisson3d:60, gen:powerlaw:200000:16)",
     CMD_BENCH_SPMV, check_bench_spmv, cmd_bench_spmv},
    {"bench", "klu", NULL, "[MATRIX...]", "sparse LU analyze, factor, refactor, solve times and nnz(L+U) per matrix, next to "
     "SuiteSparse KLU's in the build of 'make bench-klu' (default matrices: gen:circuit:10000, gen:circuit:100000, the square "
     "real ones of tests/data/matrices)", CMD_BENCH_KLU, check_bench_klu, cmd_bench_klu},
    {"bench", "bklu", NULL, "[BASE...]", "block sparse LU refactor times per base and M (--blocks) on the OpenMP CPU, 1, 2 and all "
     "OpenCL devices; S1 = CPU / 2 devices, S2 = 1 / 2 devices; every run checked (default: gen:circuit:2000, --blocks 64,128,256; "
     "--as-blocks M: the matrices themselves cut into blocks)",
     CMD_BENCH_BKLU, check_bench_bklu, cmd_bench_bklu},
    {"tune", NULL, NULL, "", "measure GEMM tiles on an OpenCL device, print its tuning-table row", CMD_TUNE, check_tune, cmd_tune},
    {"demo", NULL, NULL, "", "a short tour on the best device found, with timings", CMD_DEMO, check_no_args, cmd_demo},
};
const int lcl_ncommands = (int)(sizeof lcl_commands / sizeof lcl_commands[0]);

int check_no_args(const opts *o) {
    return arrlen(o->pos) ? fail(EXIT_USAGE, "unexpected argument '%s': this command takes only options (lcl COMMAND --help)", o->pos[0]) : -1;
}

const char *command_name(const lcl_command *c, char *buf, size_t cap) {
    snprintf(buf, cap, "%s%s%s%s%s", c->word, c->suite ? " " : "", c->suite ? c->suite : "", c->method ? " --method " : "",
             c->method ? c->method : "");
    return buf;
}

/* 1 when a row of word cmd is selected by --method m ("solve" with "klu") */
static int method_row(const char *cmd, const char *m) {
    int c;
    for (c = 0; m && c < lcl_ncommands; c++)
        if (lcl_commands[c].method && !strcmp(lcl_commands[c].word, cmd) && !strcmp(lcl_commands[c].method, m)) return 1;
    return 0;
}

/* The command that cmd (and, for a suite, the first positional argument; for a method, --method)
   names, its options and arguments checked: -1 with *found set, else the exit code. */
static int find_command(const char *cmd, const opts *o, const lcl_command **found) {
    unsigned family = 0;
    char names[256] = "", usage[512] = "", name[64];
    size_t nl = 0, ul = 0;
    int c, code;
    *found = NULL;
    for (c = 0; c < lcl_ncommands; c++) {
        const lcl_command *k = &lcl_commands[c];
        if (strcmp(k->word, cmd) || (k->method ? !o->method || strcmp(o->method, k->method) : method_row(cmd, o->method))) continue;
        if (!k->suite || (arrlen(o->pos) >= 1 && !strcmp(o->pos[0], k->suite))) {
            *found = k;
            if ((code = check_options(command_name(k, name, sizeof name), k->bit, o)) >= 0) return code;
            return k->check ? k->check(o) : -1;
        }
        family |= k->bit;
        nl += (size_t)snprintf(names + nl, sizeof names - nl, "%s'%s'", nl ? " or " : "", k->suite);
        ul += (size_t)snprintf(usage + ul, sizeof usage - ul, "%slcl %s %s", ul ? " | " : "", command_name(k, name, sizeof name), k->args);
    }
    if (!family) return fail(EXIT_USAGE, "unknown command '%s' (lcl --help)", cmd);
    /* a family (bench) without its suite: the options must suit one of its members */
    if ((code = check_options(cmd, family, o)) >= 0) return code;
    return fail(EXIT_USAGE, "%s needs the suite %s: %s", cmd, names, usage);
}

/* -h, --help, help, --version: handled before any parsing */
static int is_help(const char *cmd) { return !strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help"); }
/* lcl COMMAND ... -h|--help: 1 when one of args is that */
static int asks_help(int argc, char **argv) {
    int i;
    for (i = 2; i < argc; i++)
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return 1;
    return 0;
}

/* -o, --csv and --svg are tried before any work, so a path that cannot be written fails at once,
   not after the benchmark or the factorization: opened to append (nothing truncated), and removed
   again where that created it. Only files: opening a FIFO would wait for, then end, its reader */
static int check_outputs(const opts *o) {
    const char *path[3], *name[3] = {"-o", "--csv", "--svg"};
    int i;
    path[0] = o->out; path[1] = o->csv; path[2] = o->svg;
    for (i = 0; i < 3; i++) {
        struct stat sb;
        FILE *f;
        int existed;
        if (!path[i]) continue;
        existed = stat(path[i], &sb) == 0;
        if (existed && S_ISDIR(sb.st_mode)) return fail(EXIT_USAGE, "cannot write %s (%s): it is a directory", path[i], name[i]);
        if (existed && !S_ISREG(sb.st_mode)) continue;   /* a device, FIFO or socket: the write itself tells */
        if (!(f = fopen(path[i], "a"))) return fail(EXIT_USAGE, "cannot write %s (%s): %s", path[i], name[i], strerror(errno));
        fclose(f);
        if (!existed) remove(path[i]);
    }
    return -1;
}

int lcl_tool_main(int argc, char **argv) {
    opts o;
    int code;
    const lcl_command *c = NULL;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    if (argc < 2) { print_usage(stderr); return EXIT_USAGE; }
    if (is_help(argv[1])) { print_usage(stdout); return EXIT_OK; }
    if (!strcmp(argv[1], "--version")) { printf("lcl %d.%d.%d\n", LCL_VERSION_MAJOR, LCL_VERSION_MINOR, LCL_VERSION_PATCH); return EXIT_OK; }
    if (asks_help(argc, argv))
        return print_command_usage(stdout, argv[1]) ? EXIT_OK : fail(EXIT_USAGE, "unknown command '%s' (lcl --help)", argv[1]);
    code = parse_opts(argc - 2, argv + 2, &o);
    if (code < 0) code = find_command(argv[1], &o, &c);
    /* a --device on the command line is more specific than the environment's LCL_DEVICE, which
       the library would let win (it overrides lcl_context_desc.device) */
    if (code < 0 && o.device) unsetenv("LCL_DEVICE");
    if (code < 0) code = check_outputs(&o);
    if (code < 0) code = c->run(&o);
    arrfree(o.pos);
    fflush(stdout);
    return code;
}

/* lcl_tool_main up to the point where a command would run: options, the command word and its
   positional arguments. Prints nothing, runs nothing, frees everything; returns the exit code
   the tool would give for a usage error (2), else 0. */
int lcl_tool_parse_only(int argc, char **argv) {
    opts o;
    int code;
    const lcl_command *c;
    if (argc < 2 || !argv || !argv[1]) return EXIT_USAGE;
    if (is_help(argv[1]) || !strcmp(argv[1], "--version")) return EXIT_OK;
    if (asks_help(argc, argv)) {   /* lcl COMMAND --help */
        for (code = 0; code < lcl_ncommands; code++)
            if (!strcmp(lcl_commands[code].word, argv[1])) return EXIT_OK;
        return EXIT_USAGE;
    }
    memset(&o, 0, sizeof o);
    o.seed = 1;
    quiet_errors = 1;
    code = parse_opts(argc - 2, argv + 2, &o);
    if (code < 0) code = find_command(argv[1], &o, &c);
    quiet_errors = 0;
    arrfree(o.pos);
    return code < 0 ? EXIT_OK : code;
}

#ifndef LCL_TOOL_NO_MAIN
int main(int argc, char **argv) { return lcl_tool_main(argc, argv); }
#endif
