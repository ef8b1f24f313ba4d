/* test_tool.c -- the lcl command as a user runs it: exit codes, JSON, gen, stat, demo, solve
   (dense and KLU), spmv, the benchmarks, the examples, and the compile matrix (tests/compile_matrix.sh). */
#define _POSIX_C_SOURCE 200809L
#include "lt.h"
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

#define LCL_BIN "build/lcl"

/* runs a shell command once, captures stdout into out (may be NULL), returns the exit code;
   LT_TRACE_SH set: each command and its seconds to stderr (which command of a test is slow) */
static int sh1(const char *cmd, char *out, size_t cap) {
    struct timespec t0, t1;
    FILE *p;
    size_t n = 0;
    int rc;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!(p = popen(cmd, "r"))) return -1;
    if (out) {
        size_t got;
        while (n + 1 < cap && (got = fread(out + n, 1, cap - 1 - n, p)) > 0) n += got;
        out[n] = 0;
    }
    { char sink[4096]; while (fread(sink, 1, sizeof sink, p) > 0) {} }
    rc = pclose(p);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (getenv("LT_TRACE_SH"))
        fprintf(stderr, "  [sh %.2f s, exit %d] %s\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec),
                rc == -1 ? -1 : WEXITSTATUS(rc), cmd);
    return rc == -1 ? -1 : WEXITSTATUS(rc);
}
/* PoCL's own abort in its kernel cache (lt_system_pocl says why) in file f or in out */
static int pocl_aborted(const char *f, const char *out) {
    return (out && strstr(out, LT_POCL_ABORT) != NULL) || lt_pocl_aborted(f, 0);
}
/* sh1, once more where PoCL itself aborted (two PoCL devices: about one run in 15 on Debian's
   3.1), seen in out or in the stderr a command ending in "2>/dev/null" would have dropped */
static int sh(const char *cmd, char *out, size_t cap) {
    static const char drop[] = " 2>/dev/null";
    char tmp[] = "/tmp/lt_sh_XXXXXX", *full = NULL;
    size_t len = strlen(cmd), dl = sizeof drop - 1, fcap = len + sizeof tmp + 8;
    int rc = -1, run, fd;
    if (len >= dl && !strcmp(cmd + len - dl, drop) && (fd = mkstemp(tmp)) >= 0) {
        close(fd);
        if ((full = (char *)malloc(fcap)) != NULL) snprintf(full, fcap, "%.*s 2>'%s'", (int)(len - dl), cmd, tmp);
        else unlink(tmp);
    }
    for (run = 0; run < LT_POCL_RUNS; run++) {
        rc = sh1(full ? full : cmd, out, cap);
        if (rc == 0 || !pocl_aborted(full ? tmp : NULL, out)) break;
        if (run + 1 < LT_POCL_RUNS) fprintf(stderr, "  (PoCL aborted in its own kernel cache, pocl_release_dlhandle_cache: the command runs again)\n");
    }
    if (full) unlink(tmp), free(full);
    return rc;
}

/* sh's second run: only where PoCL's own abort is what stopped the first (a stand-in script that
   fails its first run and counts its runs in a file): case 0 the message in the stderr that
   2>/dev/null drops, 1 another message (no second run), 2 the message in stdout (2>&1), 3 the
   message every run (LT_POCL_RUNS runs, then its failure) */
static void test_tool_sh_pocl_again(void) {
    static const char *const msg[4] = {"lcl: common.c:909: pocl_release_dlhandle_cache: Assertion failed", "another failure",
                                        "pocl_release_dlhandle_cache", "lcl: common.c:909: pocl_release_dlhandle_cache: Assertion failed"};
    const char *cnt = "build/t_sh_runs";
    char out[256], cmd[512];
    int k;
    for (k = 0; k < 4; k++) {
        int rc, runs = 0, c;
        FILE *f;
        remove(cnt);
        snprintf(cmd, sizeof cmd, "sh -c 'echo x >> %s; [ $(wc -l < %s) -ge %d ] && echo ok && exit 0; echo \"%s\" >&2; exit 134' %s", cnt, cnt,
                 k == 3 ? 99 : 2, msg[k], k == 2 ? "2>&1" : "2>/dev/null");
        rc = sh(cmd, out, sizeof out);
        if ((f = fopen(cnt, "r")) != NULL) {
            while ((c = fgetc(f)) != EOF) runs += c == '\n';
            fclose(f);
        }
        CHECK_MSG(k == 1 ? rc == 134 && runs == 1 : k == 3 ? rc == 134 && runs == LT_POCL_RUNS : rc == 0 && runs == 2 && strstr(out, "ok") != NULL,
                  "case %d: exit %d after %d runs, out %s", k, rc, runs, out);
    }
    remove(cnt);
}

/* "key":value from one JSON object line; a tiny reader good enough for our own output */
static int json_num(const char *js, const char *key, double *v) {
    char pat[128];
    const char *p;
    snprintf(pat, sizeof pat, "\"%s\":", key);
    p = strstr(js, pat);
    if (!p) return 0;
    p += strlen(pat);
    if (!strncmp(p, "true", 4)) { *v = 1; return 1; }
    if (!strncmp(p, "false", 5)) { *v = 0; return 1; }
    *v = strtod(p, NULL);
    return 1;
}

/* runs of the tool that must end with an exit status (stdout and stderr dropped) */
typedef struct { const char *cmd; int want; } exit_case;
#define NO_OPENCL "LCL_OPENCL_LIBRARY=/nonexistent " LCL_BIN
static void check_exits(const exit_case *c, int n) {
    int i;
    for (i = 0; i < n; i++) {
        char cmd[1024];
        int rc;
        snprintf(cmd, sizeof cmd, "%s 2>/dev/null", c[i].cmd);
        rc = sh(cmd, NULL, 0);
        CHECK_MSG(rc == c[i].want, "%s: exit %d, want %d", c[i].cmd, rc, c[i].want);
    }
}
#define CHECK_EXITS(table) check_exits(table, (int)(sizeof table / sizeof table[0]))

static void test_tool_usage_errors(void) {
    char out[4096];
    CHECK(sh(LCL_BIN " --help", out, sizeof out) == 0 && strstr(out, "usage: lcl") != NULL);
    /* lcl COMMAND --help: that command's usage and options, exit 0 (was "unknown option '--help'", 2) */
    CHECK_MSG(sh(LCL_BIN " solve --help", out, sizeof out) == 0 && strstr(out, "lcl solve --method klu") && strstr(out, "--rhs") &&
              !strstr(out, "lcl bench"), "%s", out);
    CHECK(sh(LCL_BIN " bench spmv gen:poisson2d:4 -h", out, sizeof out) == 0 && strstr(out, "lcl bench spmv") != NULL);
    CHECK(sh(LCL_BIN " frobnicate --help 2>&1", out, sizeof out) == 2 && strstr(out, "unknown command") != NULL);
    {
        static const exit_case usage[] = {
            {LCL_BIN, 2},
            {LCL_BIN " frobnicate", 2},
            {LCL_BIN " info --bogus", 2},
            {LCL_BIN " info --backend cuda", 2},
            {LCL_BIN " info --precision quad", 2},
            {LCL_BIN " tune extra", 2},
            {LCL_BIN " info extra junk", 2},          /* (was 0: info and demo took stray words) */
            {LCL_BIN " demo extra", 2},
            {LCL_BIN " stat gen:poisson2d:000000000000000000000000000000000000000000000000000000000000000003xyz", 2},   /* (was 9 x 9: cut at 63) */
            {LCL_BIN " tune --sizes 4", 2},
            {NO_OPENCL " tune", 3},
            {LCL_BIN " tune --backend serial", 2},     /* nothing to tune on the CPU backends */
            {LCL_BIN " stat gen:poisson2d:4 -o build/x.mtx", 2},   /* stat writes no file */
            {LCL_BIN " bench dense --sizes 8 -o build/x.mtx", 2},
            {LCL_BIN " bench klu gen:circuit:30 tests/data/matrices/ash219.mtx", 2},   /* refused before any timing */
            {LCL_BIN " gen --seed", 2},
            {LCL_BIN " gen poisson2d 4 --seed -3 -o build/x.mtx", 2},
            {LCL_BIN " gen poisson2d 4", 2}, /* no -o */
            {LCL_BIN " gen nosuchkind 4 -o build/x.mtx", 2},
            {LCL_BIN " gen poisson2d abc -o build/x.mtx", 2},
            {LCL_BIN " stat", 2},
            {LCL_BIN " stat /nonexistent.mtx", 2},
            {LCL_BIN " stat tests/data/bad/complex.mtx", 2},
            {LCL_BIN " bench dense --op lu --sizes 8 --resident", 2},   /* --resident goes with --split */
        };
        CHECK_EXITS(usage);
    }
    /* the message format */
    CHECK(sh(LCL_BIN " stat /nonexistent.mtx 2>&1 >/dev/null", out, sizeof out) == 2 && !strncmp(out, "lcl: error: ", 12));
}

static void test_tool_backend_unavailable(void) {
    CHECK(sh(NO_OPENCL " demo --backend opencl >/dev/null 2>&1", NULL, 0) == 3);
    CHECK(sh(LCL_BIN " demo --device no-such-device-xyz >/dev/null 2>&1", NULL, 0) == 3);
    /* auto on a machine without OpenCL still works, on the CPU */
    CHECK(sh(NO_OPENCL " demo >/dev/null 2>&1", NULL, 0) == 0);
}

static void test_tool_info_json(void) {
    char out[65536];
    double v;
    CHECK(sh(LCL_BIN " info --json", out, sizeof out) == 0);
    CHECK(!strncmp(out, "{\"backends\":[\"serial\",\"openmp\",\"opencl\"],\"devices\":[", 52));
    CHECK(strchr(out, '\n') == strrchr(out, '\n'));    /* exactly one line, one object */
    if (strstr(out, "\"index\":0")) {
        CHECK(strstr(out, "\"platform\":") && strstr(out, "\"name\":") && strstr(out, "\"type\":"));
        CHECK(json_num(out, "global_mem", &v) && v > 0);
        CHECK(strstr(out, "\"fp64\":true") || strstr(out, "\"fp64\":false"));
    }
    CHECK(sh(NO_OPENCL " info --json", out, sizeof out) == 0);
    CHECK(strstr(out, "\"devices\":[]") != NULL && strstr(out, "opencl_unavailable") != NULL);
    CHECK(sh(LCL_BIN " info", out, sizeof out) == 0 && strstr(out, "backends: serial openmp opencl") != NULL);
}

static void test_tool_gen_stat(void) {
    char out[8192];
    double v;
    /* poisson2d 10: n = 100, nnz = 5*100 - 4*10 = 460, bandwidth 10, symmetric pattern */
    CHECK(sh(LCL_BIN " gen poisson2d 10 -o build/t_p2.mtx", NULL, 0) == 0);
    CHECK(sh(LCL_BIN " stat build/t_p2.mtx --json", out, sizeof out) == 0);
    CHECK(json_num(out, "rows", &v) && v == 100);
    CHECK(json_num(out, "cols", &v) && v == 100);
    CHECK(json_num(out, "nnz", &v) && v == 460);
    CHECK(json_num(out, "row_min", &v) && v == 3);
    CHECK(json_num(out, "row_max", &v) && v == 5);
    CHECK(json_num(out, "row_mean", &v) && fabs(v - 4.6) < 1e-9);
    CHECK(json_num(out, "bandwidth", &v) && v == 10);
    CHECK(json_num(out, "pattern_symmetric", &v) && v == 1);
    /* pseudo-path gives the same statistics */
    {
        char out2[8192];
        CHECK(sh(LCL_BIN " stat gen:poisson2d:10 --json", out2, sizeof out2) == 0);
        CHECK(json_num(out2, "nnz", &v) && v == 460);
    }
    /* a real matrix: west0067 is 67x67 with 294 entries, unsymmetric */
    {
        char cmd[1024], west[512];
        lt_matrix_path(west, sizeof west, "west0067.mtx");
        snprintf(cmd, sizeof cmd, LCL_BIN " stat %s --json", west);
        CHECK(sh(cmd, out, sizeof out) == 0);
        CHECK(json_num(out, "rows", &v) && v == 67);
        CHECK(json_num(out, "nnz", &v) && v == 294);
        CHECK(json_num(out, "pattern_symmetric", &v) && v == 0);
    }
    /* reproducible: same seed, same bytes; another seed, other bytes */
    CHECK(sh(LCL_BIN " gen powerlaw 3000 8 --seed 7 -o build/t_pl1.mtx && " LCL_BIN " gen powerlaw 3000 8 --seed 7 -o build/t_pl2.mtx && cmp -s build/t_pl1.mtx build/t_pl2.mtx", NULL, 0) == 0);
    CHECK(sh(LCL_BIN " gen powerlaw 3000 8 --seed 8 -o build/t_pl2.mtx && cmp -s build/t_pl1.mtx build/t_pl2.mtx", NULL, 0) == 1);
    /* dense kinds are array files */
    CHECK(sh(LCL_BIN " gen dense-random 17 -o build/t_dr.mtx && head -1 build/t_dr.mtx", out, sizeof out) == 0);
    CHECK(strstr(out, "array") != NULL);
    CHECK(sh(LCL_BIN " stat build/t_dr.mtx --json", out, sizeof out) == 0);
    CHECK(json_num(out, "nnz", &v) && v == 17 * 17);
    CHECK(json_num(out, "diagonally_dominant", &v) && v == 1);
    /* every kind runs */
    CHECK(sh(LCL_BIN " gen dense-spd 9 -o build/t_ds.mtx", NULL, 0) == 0);
    CHECK(sh(LCL_BIN " gen poisson3d 5 -o build/t_p3.mtx", NULL, 0) == 0);
    CHECK(sh(LCL_BIN " gen circuit 300 -o build/t_c.mtx", NULL, 0) == 0);
    {
        char cmd[1024], west[512];
        lt_matrix_path(west, sizeof west, "west0067.mtx");
        snprintf(cmd, sizeof cmd, LCL_BIN " gen hb %s 3 -o build/t_hb.mtx && " LCL_BIN " stat build/t_hb.mtx --json", west);
        CHECK(sh(cmd, out, sizeof out) == 0);
        CHECK(json_num(out, "rows", &v) && v == 67 * 3);
        CHECK(json_num(out, "nnz", &v) && v == 294 * 9);
    }
    CHECK(sh(LCL_BIN " stat build/t_p3.mtx --json", out, sizeof out) == 0);
    CHECK(json_num(out, "nnz", &v) && v == 7 * 125 - 6 * 25);
    CHECK(sh(LCL_BIN " gen poisson2d 4 -o /nonexistent-dir/x.mtx 2>/dev/null", NULL, 0) == 2);
    {   /* empty rows, 7 x 4: rows 0, 2, 3, 5 empty; 4 and 6 below the last column; row 1 strictly dominant.
           Then 2e8 declared rows holding one entry: the empty rows are counted, not stored (16 GB at 2e9) */
        FILE *f = fopen("build/t_empty_rows.mtx", "w");
        CHECK(f != NULL);
        if (f) { fputs("%%MatrixMarket matrix coordinate real general\n7 4 4\n2 2 3\n2 1 -1\n5 3 1\n7 4 2\n", f); fclose(f); }
        CHECK(sh(LCL_BIN " stat build/t_empty_rows.mtx --json", out, sizeof out) == 0);
        CHECK_MSG(strstr(out, "\"row_min\":0,") && strstr(out, "\"row_max\":2,") && strstr(out, "\"bandwidth\":3,") &&
                  strstr(out, "\"row_hist\":[4,2,1]") && strstr(out, "\"diag_missing\":3,") && strstr(out, "\"rows_diag_dominant\":5,") &&
                  strstr(out, "\"rows_strictly_dominant\":1,"), "%s", out);
        f = fopen("build/t_tall.mtx", "w");
        CHECK(f != NULL);
        if (f) { fputs("%%MatrixMarket matrix coordinate real general\n200000000 200000000 1\n1 1 1.0\n", f); fclose(f); }
        CHECK(sh("ulimit -v 1000000 && " LCL_BIN " stat build/t_tall.mtx --json", out, sizeof out) == 0);
        CHECK_MSG(strstr(out, "\"row_hist\":[199999999,1]") && strstr(out, "\"diag_missing\":199999999,"), "%s", out);
    }
    CHECK(sh("rm -f build/t_*.mtx", NULL, 0) == 0);
}

/* the tour: every backend's y = 2x + y, the dense residuals, SpMV with auto's reasons */
static void test_tool_demo(void) {
    static const char *const dense_rows[2] = {"\n   dense-random:", "\n   dense-spd:"};
    char out[16384];
    const char *p;
    int i, reasons = 0;
    CHECK(sh(LCL_BIN " demo 2>&1", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "WRONG") == NULL && strstr(out, "every check ok") != NULL, "%s", out);
    CHECK_MSG(strstr(out, "serial ok, openmp ok") != NULL, "%s", out);
    for (i = 0; i < 2; i++) {   /* "   dense-random:N   gesv (LU)   time   GF/s   residual" */
        double col[3] = {-1, -1, -1};
        p = strstr(out, dense_rows[i]);
        CHECK_MSG(p != NULL, "no row %s in %s", dense_rows[i] + 1, out);
        if (!p) continue;
        p = strchr(p + 1, ')');     /* after "(LU)" / "(Cholesky)" */
        CHECK_MSG(p && sscanf(p + 1, "%lf %lf %lf", &col[0], &col[1], &col[2]) == 3, "%s", out);
        CHECK_MSG(col[0] > 0 && col[1] > 0 && col[2] >= 0 && col[2] <= 1e-12, "%s: time %g, GF/s %g, residual %g", dense_rows[i] + 1,
                  col[0], col[1], col[2]);
    }
    for (p = out; (p = strstr(p, "auto's reason: ")) != NULL; p++) reasons += p[15] != '\n' && p[15] != 0;
    CHECK_MSG(reasons == 2, "%s", out);
    CHECK(strstr(out, "gen:poisson3d:") != NULL && strstr(out, "gen:powerlaw:") != NULL && strstr(out, "lcl --help") != NULL);
}

/* ---- solve and bench dense ---- */
static int json_has(const char *js, const char *key, const char *raw) {   /* "key":raw, raw as written */
    char pat[256];
    snprintf(pat, sizeof pat, "\"%s\":%s", key, raw);
    return strstr(js, pat) != NULL;
}
static int one_line(const char *out) { return out[0] == '{' && strchr(out, '\n') == strrchr(out, '\n') && strchr(out, '\n'); }

/* runs `lcl solve ... --json`, checks the promised keys; residual and forward error (when
   fe_tol > 0) within bounds; returns the exit code */
static int solve_json(const char *args, const char *want_status, double res_tol, double fe_tol, double want_n) {
    static const char *const keys[] = {"op", "method", "backend", "device", "precision", "n", "nnz", "residual",
                                       "forward_error", "t_factor", "t_solve", "status"};
    char cmd[1024], out[4096], st[128];
    double v;
    int rc, k;
    snprintf(cmd, sizeof cmd, LCL_BIN " solve %s --json 2>/dev/null", args);
    rc = sh(cmd, out, sizeof out);
    CHECK_MSG(one_line(out), "%s: not one JSON line: %s", args, out);
    CHECK_MSG(!strncmp(out, "{\"op\":\"solve\",", 14), "%s: %s", args, out);
    for (k = 0; k < (int)(sizeof keys / sizeof keys[0]); k++) {
        char pat[64];
        snprintf(pat, sizeof pat, "\"%s\":", keys[k]);
        CHECK_MSG(strstr(out, pat) != NULL, "%s: no key %s in %s", args, keys[k], out);
    }
    snprintf(st, sizeof st, "\"%s\"", want_status);
    CHECK_MSG(json_has(out, "status", st), "%s: want status %s: %s", args, want_status, out);
    if (want_n >= 0) CHECK_MSG(json_num(out, "n", &v) && v == want_n, "%s: n: %s", args, out);
    if (res_tol > 0) CHECK_MSG(json_num(out, "residual", &v) && v >= 0 && v <= res_tol, "%s: residual > %g: %s", args, res_tol, out);
    if (fe_tol > 0) CHECK_MSG(json_num(out, "forward_error", &v) && v >= 0 && v <= fe_tol, "%s: forward error > %g: %s", args, fe_tol, out);
    CHECK_MSG(json_num(out, "t_factor", &v) && v >= 0, "%s: t_factor: %s", args, out);
    return rc;
}

static void test_tool_solve_gen(void) {
    static const int ns[3] = {1, 17, 200};
    static const char *const backends[2] = {"serial", "openmp"};
    static const struct { const char *kind, *method; } cases[3] = {
        {"dense-random", "lu"}, {"dense-spd", "lu"}, {"dense-spd", "cholesky"}};
    int i, b, p, c;
    for (i = 0; i < 3; i++)
        for (b = 0; b < 2; b++)
            for (p = 0; p < 2; p++)
                for (c = 0; c < 3; c++) {
                    char args[512], out[4096];
                    double v;
                    int rc;
                    snprintf(args, sizeof args, "gen:%s:%d --method %s --backend %s --precision %s", cases[c].kind, ns[i],
                             cases[c].method, backends[b], p ? "single" : "double");
                    rc = solve_json(args, "ok", p ? 1e-5 : 1e-14, p ? 1e-3 : 1e-10, ns[i]);
                    CHECK_MSG(rc == 0, "%s -> %d", args, rc);
                    snprintf(args, sizeof args, LCL_BIN " solve gen:%s:%d --method %s --backend %s --json", cases[c].kind, ns[i],
                             cases[c].method, backends[b]);
                    CHECK(sh(args, out, sizeof out) == 0 && json_num(out, "nnz", &v) && v == (double)ns[i] * ns[i]);
                    CHECK(json_has(out, "backend", b ? "\"openmp\"" : "\"serial\"") && json_has(out, "device", "\"cpu\""));
                }
    /* every algorithm of each method, and a block size that does not divide n */
    for (i = 1; i < 3; i++)
        for (b = 0; b < 2; b++) {
            static const char *const lu[4] = {"blocked", "unblocked", "crout", "auto"};
            static const char *const ch[5] = {"blocked", "unblocked", "crout", "banachiewicz", "auto"};
            for (c = 0; c < 9; c++) {
                char args[512];
                int chol = c >= 4, rc;
                snprintf(args, sizeof args, "gen:%s:%d --method %s --algorithm %s --backend %s%s", chol ? "dense-spd" : "dense-random",
                         ns[i], chol ? "cholesky" : "lu", chol ? ch[c - 4] : lu[c], backends[b], c == 0 || c == 4 ? " --block 7" : "");
                rc = solve_json(args, "ok", 1e-14, 1e-10, ns[i]);
                CHECK_MSG(rc == 0, "%s -> %d", args, rc);
            }
        }
    /* the text report */
    {
        char out[4096];
        CHECK(sh(LCL_BIN " solve gen:dense-spd:50 --method cholesky --backend serial", out, sizeof out) == 0);
        CHECK(strstr(out, "residual") != NULL && strstr(out, "status      ok") != NULL);
    }
}

static void test_tool_solve_rhs_roundtrip(void) {
    /* b (30 x 3) written here, x read back and checked against A independently */
    int p;
    for (p = 0; p < 2; p++) {
        lcl_dense B, X, A;
        lcl_mm_info info;
        int64_t i, j, k;
        double num = 0, an = 0, xn = 0, bn = 0;
        char cmd[512], out[4096];
        CHECK(sh(LCL_BIN " gen dense-random 30 --seed 5 -o build/t_sA.mtx", NULL, 0) == 0);
        CHECK_OK(NULL, lcl_dense_alloc(NULL, &B, LCL_F64, LCL_COL_MAJOR, 30, 3));
        for (j = 0; j < 3; j++)
            for (i = 0; i < 30; i++) lcl_dense_set(&B, i, j, sin((double)(i + 7 * j + 1)));
        CHECK_OK(NULL, lcl_mm_write_dense(NULL, "build/t_sB.mtx", &B));
        snprintf(cmd, sizeof cmd, LCL_BIN " solve build/t_sA.mtx --rhs build/t_sB.mtx --method lu --precision %s -o build/t_sX.mtx --json",
                 p ? "single" : "double");
        CHECK(sh(cmd, out, sizeof out) == 0);
        CHECK(json_has(out, "forward_error", "null") && json_has(out, "status", "\"ok\""));
        memset(&X, 0, sizeof X);
        memset(&A, 0, sizeof A);
        CHECK_OK(NULL, lcl_mm_read_dense(NULL, "build/t_sX.mtx", LCL_F64, LCL_COL_MAJOR, 0, &X, &info));
        CHECK(info.format == LCL_MM_ARRAY && X.rows == 30 && X.cols == 3);
        CHECK_OK(NULL, lcl_mm_read_dense(NULL, "build/t_sA.mtx", LCL_F64, LCL_COL_MAJOR, 0, &A, NULL));
        if (X.rows == 30 && X.cols == 3 && A.rows == 30) {
            for (j = 0; j < 3; j++)
                for (i = 0; i < 30; i++) {
                    double s = 0, row = 0;
                    for (k = 0; k < 30; k++) {
                        s += lcl_dense_get(&A, i, k) * lcl_dense_get(&X, k, j);
                        row += fabs(lcl_dense_get(&A, i, k));
                    }
                    num = fmax(num, fabs(s - lcl_dense_get(&B, i, j)));
                    an = fmax(an, row);
                    xn = fmax(xn, fabs(lcl_dense_get(&X, i, j)));
                    bn = fmax(bn, fabs(lcl_dense_get(&B, i, j)));
                }
            CHECK_MSG(num / (an * xn + bn) <= (p ? 1e-6 : 1e-15), "%s precision: |AX - B| / (|A||X| + |B|) = %g", p ? "single" : "double",
                      num / (an * xn + bn));
        }
        lcl_dense_free(&A);
        lcl_dense_free(&B);
        lcl_dense_free(&X);
    }
    /* a single column with Cholesky; an rhs of the wrong height is a usage error */
    CHECK(sh(LCL_BIN " gen dense-spd 12 -o build/t_sA.mtx && " LCL_BIN " gen dense-random 12 -o build/t_sS.mtx", NULL, 0) == 0);
    {
        lcl_dense b;
        CHECK_OK(NULL, lcl_dense_alloc(NULL, &b, LCL_F64, LCL_COL_MAJOR, 12, 1));
        lcl_dense_set(&b, 3, 0, 1.0);
        CHECK_OK(NULL, lcl_mm_write_dense(NULL, "build/t_sB.mtx", &b));
        lcl_dense_free(&b);
    }
    CHECK(solve_json("build/t_sA.mtx --rhs build/t_sB.mtx --method cholesky -o build/t_sX.mtx", "ok", 1e-14, 0, 12) == 0);
    CHECK(sh(LCL_BIN " solve build/t_sA.mtx --rhs build/t_sA.mtx --method lu 2>/dev/null", NULL, 0) == 0);   /* 12 right-hand sides */
    CHECK(sh(LCL_BIN " gen dense-random 13 -o build/t_sB.mtx", NULL, 0) == 0);
    CHECK(sh(LCL_BIN " solve build/t_sA.mtx --rhs build/t_sB.mtx --method lu >/dev/null 2>&1", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " solve build/t_sA.mtx --rhs /nonexistent.mtx --method lu >/dev/null 2>&1", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " solve build/t_sA.mtx --method lu -o /nonexistent-dir/x.mtx >/dev/null 2>&1", NULL, 0) == 2);
    CHECK(sh("rm -f build/t_s*.mtx", NULL, 0) == 0);
}

static void test_tool_solve_shared(void) {
    static const char *const files[2] = {"bcsstk01.mtx", "LF10.mtx"};
    static const int sizes[2] = {48, 18};
    int f, b;
    for (f = 0; f < 2; f++)
        for (b = 0; b < 2; b++) {
            char args[1024], path[512];
            lt_matrix_path(path, sizeof path, files[f]);
            snprintf(args, sizeof args, "%s --method cholesky --backend %s", path, b ? "openmp" : "serial");
            CHECK_MSG(solve_json(args, "ok", 1e-14, 0, sizes[f]) == 0, "%s", args);
            snprintf(args, sizeof args, "%s --method lu --backend %s", path, b ? "openmp" : "serial");
            CHECK_MSG(solve_json(args, "ok", 1e-14, 0, sizes[f]) == 0, "%s", args);
        }
}

static void test_tool_solve_failures(void) {
    char out[4096], cmd[1024], path[512];
    FILE *f;
    /* exactly singular: row 2 = 2 x row 1 (column-major array) */
    f = fopen("build/t_sing.mtx", "w");
    CHECK(f != NULL);
    if (f) { fputs("%%MatrixMarket matrix array real general\n3 3\n1\n2\n1\n2\n4\n1\n3\n6\n1\n", f); fclose(f); }
    CHECK(solve_json("build/t_sing.mtx --method lu --backend serial", "singular matrix", 0, 0, 3) == 1);
    /* a residual above --max-residual (default the square root of epsilon) exits 1 with the report
       and a message, whatever the method; 0 is refused, inf never trips */
    {
        static const char *const runs[] = {"gen:poisson2d:12 --method lu --backend serial",
                                           "gen:poisson2d:12 --method cholesky --precision single --json",
                                           "gen:circuit:200 --method klu", "gen:circuit:60 --method bklu --block 3 --backend serial --json"};
        int i;
        for (i = 0; i < 4; i++) {
            snprintf(cmd, sizeof cmd, LCL_BIN " solve %s --max-residual 1e-300 2>&1", runs[i]);
            CHECK_MSG(sh(cmd, out, sizeof out) == 1 && strstr(out, "residual") && strstr(out, "is above 1e-300 (--max-residual): the solution is inaccurate"),
                      "%s: %s", runs[i], out);
            snprintf(cmd, sizeof cmd, LCL_BIN " solve %s --max-residual inf >/dev/null 2>&1", runs[i]);
            CHECK_MSG(sh(cmd, NULL, 0) == 0, "%s --max-residual inf", runs[i]);
        }
        CHECK(sh(LCL_BIN " solve gen:circuit:20 --method klu --max-residual 0 2>&1", out, sizeof out) == 2 &&
              strstr(out, "--max-residual needs a positive number") != NULL);
        CHECK(sh(LCL_BIN " spmv gen:circuit:20 --max-residual 1 2>&1", out, sizeof out) == 2);
    }
    /* a finite value beyond float's range, worked in single precision: bad input, named (not an Inf
       the library refuses without saying where it came from); in double it is fine */
    f = fopen("build/t_f32over.mtx", "w");
    CHECK(f != NULL);
    if (f) { fputs("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1e39\n2 2 1\n", f); fclose(f); }
    {
        static const char *const runs[] = {"spmv", "solve --method lu", "solve --method klu", "solve --method bklu --as-blocks 1"};
        int i;
        for (i = 0; i < 4; i++) {
            snprintf(cmd, sizeof cmd, LCL_BIN " %s build/t_f32over.mtx --backend serial --precision single 2>&1", runs[i]);
            CHECK_MSG(sh(cmd, out, sizeof out) == 2 && strstr(out, "entry (1,1) = 1e+39 exceeds single precision range"), "%s: %s", runs[i], out);
        }
        CHECK(sh(LCL_BIN " spmv build/t_f32over.mtx --backend serial >/dev/null 2>&1", NULL, 0) == 0);
        /* bklu's default path: each block J(i,j) B, made in the generator, named there too */
        CHECK_MSG(sh(LCL_BIN " solve build/t_f32over.mtx --method bklu --block 3 --backend serial --precision single 2>&1", out, sizeof out) == 2 &&
                  strstr(out, "block (1,1) = 1e+39 B reaches") && strstr(out, "use --precision double"), "bklu --block 3: %s", out);
    }
    CHECK(solve_json("build/t_sing.mtx --method lu --backend openmp --precision single", "singular matrix", 0, 0, 3) == 1);
    CHECK(solve_json("build/t_sing.mtx --method lu --algorithm unblocked", "singular matrix", 0, 0, 3) == 1);
    CHECK(sh(LCL_BIN " solve build/t_sing.mtx --method lu --json 2>/dev/null", out, sizeof out) == 1);
    CHECK(json_has(out, "residual", "null") && json_has(out, "forward_error", "null"));
    CHECK(sh(LCL_BIN " solve build/t_sing.mtx --method lu 2>&1", out, sizeof out) == 1 && strstr(out, "lcl: error: ") != NULL);
    /* symmetric indefinite: not SPD */
    f = fopen("build/t_indef.mtx", "w");
    CHECK(f != NULL);
    if (f) { fputs("%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n1\n", f); fclose(f); }
    CHECK(solve_json("build/t_indef.mtx --method cholesky --backend serial", "matrix not positive definite", 0, 0, 2) == 1);
    CHECK(solve_json("build/t_indef.mtx --method cholesky --backend openmp --algorithm banachiewicz", "matrix not positive definite", 0, 0, 2) == 1);
    CHECK(solve_json("build/t_indef.mtx --method lu", "ok", 1e-14, 1e-12, 2) == 0);     /* LU does not mind */
    /* non-square */
    lt_matrix_path(path, sizeof path, "ash219.mtx");
    snprintf(cmd, sizeof cmd, LCL_BIN " solve %s --method lu 2>&1 >/dev/null", path);
    CHECK(sh(cmd, out, sizeof out) == 2 && strstr(out, "square") != NULL);
    /* usage */
    {
        static const exit_case usage[] = {
            {LCL_BIN " solve gen:dense-random:5 --method qr", 2},
            {LCL_BIN " solve gen:dense-random:5", 2}, /* no --method */
            {LCL_BIN " solve --method lu", 2}, /* no MATRIX */
            {LCL_BIN " solve gen:dense-random:5 gen:dense-random:6 --method lu", 2},
            {LCL_BIN " solve gen:dense-random:5 --method lu --algorithm fastest", 2},
            {LCL_BIN " solve gen:dense-random:5 --method lu --algorithm banachiewicz", 2},
            {LCL_BIN " solve gen:dense-random:5 --method lu --block 0", 2},
            {LCL_BIN " solve gen:dense-random:5 --method lu --sizes 5", 2}, /* a bench option */
            {LCL_BIN " stat gen:dense-random:5 --method lu", 2},
            {LCL_BIN " solve /nonexistent.mtx --method lu", 2},
            {LCL_BIN " solve gen:nosuchkind:5 --method lu", 2},
            {LCL_BIN " solve gen:dense-random:40000 --method lu", 2}, /* 11.9 GiB dense */
            {LCL_BIN " solve gen:poisson3d:40 --method lu", 2}, /* n = 64000 */
            {NO_OPENCL " solve gen:dense-random:5 --method lu --backend opencl", 3},
            {LCL_BIN " solve gen:dense-random:5 --method lu --device no-such-device-xyz", 3},
            /* --device wins over the environment's LCL_DEVICE (the library lets the variable win) */
            {"LCL_DEVICE=0 " LCL_BIN " solve gen:dense-random:5 --method lu --device no-such-device-xyz", 3},
        };
        CHECK_EXITS(usage);
    }
    /* a sparse generator kind goes through the dense path too */
    CHECK(solve_json("gen:poisson2d:6 --method cholesky", "ok", 1e-14, 1e-12, 36) == 0);
    CHECK(sh("rm -f build/t_sing.mtx build/t_indef.mtx", NULL, 0) == 0);
}

static int spmv_json(const char *args, const char *want_format, double tol, double rows, double cols, double nnz);

static void test_tool_solve_opencl(void) {
    char out[65536];
    int p;
    if (sh(LCL_BIN " info --json", out, sizeof out) != 0 || !strstr(out, "\"index\":0")) { lt_skip("no OpenCL device"); return; }
    for (p = 0; p < 2; p++) {
        char args[256];
        int rc;
        if (!p && !strstr(out, "\"fp64\":true")) continue;
        snprintf(args, sizeof args, "gen:dense-random:300 --method lu --backend opencl --precision %s", p ? "single" : "double");
        rc = solve_json(args, "ok", p ? 1e-5 : 1e-14, p ? 1e-3 : 1e-10, 300);
        CHECK_MSG(rc == 0, "%s -> %d", args, rc);
        snprintf(args, sizeof args, "gen:dense-spd:300 --method cholesky --backend opencl --precision %s", p ? "single" : "double");
        rc = solve_json(args, "ok", p ? 1e-5 : 1e-14, p ? 1e-3 : 1e-10, 300);
        CHECK_MSG(rc == 0, "%s -> %d", args, rc);
    }
    {   /* auto factors on the CPU backends when its OpenCL devices are CPUs; JSON says where */
        char js[4096];
        int gpu = strstr(out, "\"type\":\"gpu\"") != NULL;
        CHECK(sh(LCL_BIN " solve gen:dense-random:50 --method lu --json 2>/dev/null", js, sizeof js) == 0);
        CHECK_MSG(json_has(js, "backend", gpu ? "\"opencl\"" : "\"openmp\"") && (gpu || json_has(js, "device", "\"cpu\"")), "%s", js);
    }
    /* --split: every device of the context (opts.device = -1); two PoCL devices in the child */
    CHECK(sh(LCL_BIN " solve gen:dense-random:50 --method lu --split 2>/dev/null", NULL, 0) == 3);   /* one device */
    setenv("POCL_DEVICES", "pthread pthread", 1);
    CHECK(solve_json("gen:dense-random:150 --method lu --device 'Portable Computing Language' --split", "ok", 1e-14, 1e-10, 150) == 0);
    CHECK(solve_json("gen:dense-spd:150 --method cholesky --device 'Portable Computing Language' --split --block 16", "ok", 1e-14, 1e-10, 150) == 0);
    {
        char js[4096];
        CHECK(sh(LCL_BIN " solve gen:dense-spd:60 --method cholesky --device 'Portable Computing Language' --split --json 2>/dev/null", js, sizeof js) == 0);
        CHECK_MSG(json_has(js, "device", "\"2 devices, split\"") && json_has(js, "backend", "\"opencl\""), "%s", js);
        /* spmv --split: rows split by nnz over both devices, checked against the serial product */
        CHECK(spmv_json("gen:poisson3d:15 --format csr --backend opencl --device 'Portable Computing Language' --split", "csr", 1e-14, 3375, 3375,
                        7 * 3375 - 6 * 225) == 0);
        CHECK(sh(LCL_BIN " spmv gen:poisson3d:6 --device 'Portable Computing Language' --split --json 2>/dev/null", js, sizeof js) == 0);
        CHECK_MSG(json_has(js, "device", "\"2 devices, split\""), "%s", js);
    }
    unsetenv("POCL_DEVICES");
    CHECK(sh(LCL_BIN " spmv gen:poisson3d:6 --split 2>/dev/null", NULL, 0) == 3);   /* one device */
}

static int count_lines(const char *path, char *first, size_t cap) {
    FILE *f = fopen(path, "r");
    char line[4096];
    int n = 0;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        if (n == 0 && first) snprintf(first, cap, "%s", line);
        n++;
    }
    fclose(f);
    return n;
}

static void test_tool_bench_dense(void) {
    char out[16384], first[4096];
    const char *p;
    int rows = 0;
    CHECK(sh("rm -f build/t_b.csv build/t_b.svg", NULL, 0) == 0);
    CHECK(sh(LCL_BIN " bench dense --op lu --sizes 64,100 --backend serial --csv build/t_b.csv --svg build/t_b.svg 2>/dev/null", out, sizeof out) == 0);
    for (p = out; (p = strstr(p, "| serial | cpu | blocked | auto |")) != NULL; p++) rows++;
    CHECK_MSG(rows == 2 && strstr(out, "| FAIL") == NULL, "%s", out);
    CHECK(count_lines("build/t_b.csv", first, sizeof first) == 3 && !strncmp(first, "method,n,backend,device,algorithm", 33));
    CHECK(count_lines("build/t_b.svg", first, sizeof first) > 5 && !strncmp(first, "<svg", 4));
    CHECK(sh("grep -c '<polyline' build/t_b.svg", out, sizeof out) == 0 && atoi(out) == 1);
    CHECK(sh("tail -1 build/t_b.svg", out, sizeof out) == 0 && !strncmp(out, "</svg>", 6));
    /* JSON: one object per configuration; every Cholesky algorithm on both CPU backends */
    CHECK(sh(LCL_BIN " bench dense --op cholesky --sizes 40 --backend openmp --algorithms blocked,unblocked,crout,banachiewicz --reps 1 --json 2>/dev/null",
             out, sizeof out) == 0);
    rows = 0;
    for (p = out; (p = strstr(p, "{\"op\":\"bench\"")) != NULL; p++) rows++;
    CHECK_MSG(rows == 4, "%s", out);
    for (p = out, rows = 0; (p = strstr(p, "\"check\":\"ok\"")) != NULL; p++) rows++;
    CHECK_MSG(rows == 4, "%s", out);
    CHECK(sh(LCL_BIN " bench dense --op lu --sizes 50 --backend serial --precision single --block 16 --reps 2 2>/dev/null", out, sizeof out) == 0);
    CHECK(strstr(out, "| 50 | serial | cpu | blocked | 16 |") != NULL);
    /* usage */
    {
        static const exit_case usage[] = {
            {LCL_BIN " bench dense --sizes 64", 2}, /* no --op */
            {LCL_BIN " bench sparse --op lu", 2},
            {LCL_BIN " bench dense --op lu --algorithms banachiewicz", 2},
            {LCL_BIN " bench dense --op lu --sizes 64,,128", 2},
            {LCL_BIN " bench dense --op lu --sizes 0", 2},
            {LCL_BIN " bench dense --op lu --sizes 64 --reps 0", 2},
            {LCL_BIN " bench dense --op lu --sizes 40000", 2}, /* 11.9 GiB */
            {LCL_BIN " bench dense --op lu --sizes 64 --rhs x.mtx", 2},
            {NO_OPENCL " bench dense --op lu --sizes 8 --backend opencl", 3},
            /* --split: OpenCL only, and a context of at least two devices */
            {LCL_BIN " bench dense --op lu --sizes 8 --split --backend openmp", 2},
            {LCL_BIN " bench spmv --split", 2},
            {LCL_BIN " info --split", 2},
            {NO_OPENCL " bench dense --op lu --sizes 8 --split", 3},
        };
        CHECK_EXITS(usage);
    }
    if (sh(LCL_BIN " info --json", out, sizeof out) == 0 && strstr(out, "\"index\":0")) {
        CHECK(sh(LCL_BIN " bench dense --op lu --sizes 8 --split 2>&1", out, sizeof out) == 3 && strstr(out, "at least two OpenCL devices"));
        /* two PoCL devices: one row on device 0, one split, both checked */
        CHECK(sh("POCL_DEVICES='pthread pthread' " LCL_BIN " bench dense --op cholesky --sizes 100 --block 16 --device 'Portable Computing Language' --split --reps 1 --json 2>/dev/null",
                 out, sizeof out) == 0);
        for (p = out, rows = 0; (p = strstr(p, "\"check\":\"ok\"")) != NULL; p++) rows++;
        CHECK_MSG(rows == 2 && strstr(out, "\"device\":\"2 devices, split\""), "%s", out);
        CHECK(sh("POCL_DEVICES='pthread pthread' " LCL_BIN " bench dense --op lu --sizes 70 --device 'Portable Computing Language' --split --reps 1 2>/dev/null", out, sizeof out) == 0);
        CHECK_MSG(strstr(out, "--split: host arrays") && strstr(out, "| 70 | opencl | 2 devices, split | blocked | auto |"), "%s", out);
    }
    /* default backends: every one available (no OpenCL loader here: serial and openmp) */
    CHECK(sh(NO_OPENCL " bench dense --op lu --sizes 16 --reps 1 --json 2>/dev/null", out, sizeof out) == 0);
    CHECK(strstr(out, "\"backend\":\"serial\"") != NULL && strstr(out, "\"backend\":\"openmp\"") != NULL);
    CHECK(sh("rm -f build/t_b.csv build/t_b.svg", NULL, 0) == 0);
}

/* ---- spmv and bench spmv ---- */
/* runs `lcl spmv ARGS --json`: the exact key list, the shape, rel_err within tol; the exit code */
static int spmv_json(const char *args, const char *want_format, double tol, double rows, double cols, double nnz) {
    static const char *const keys[] = {"op", "format", "kernel", "backend", "device", "precision", "rows", "cols", "nnz",
                                       "seconds", "gflops", "gbps", "rel_err"};
    char cmd[1024], out[4096], pat[64];
    const char *p;
    double v;
    int rc, k;
    snprintf(cmd, sizeof cmd, LCL_BIN " spmv %s --json 2>/dev/null", args);
    rc = sh(cmd, out, sizeof out);
    if (rc != 0) return rc;
    CHECK_MSG(one_line(out), "%s: not one JSON line: %s", args, out);
    CHECK_MSG(!strncmp(out, "{\"op\":\"spmv\",\"format\":", 22), "%s: %s", args, out);
    for (k = 0, p = out; k < (int)(sizeof keys / sizeof keys[0]); k++) {   /* every key, in this order */
        const char *q;
        snprintf(pat, sizeof pat, "\"%s\":", keys[k]);
        q = strstr(p, pat);
        CHECK_MSG(q != NULL, "%s: no key %s (in order) in %s", args, keys[k], out);
        if (q) p = q;
    }
    if (want_format) {
        snprintf(pat, sizeof pat, "\"%s\"", want_format);
        CHECK_MSG(json_has(out, "format", pat), "%s: want format %s: %s", args, want_format, out);
    } else CHECK_MSG(strstr(out, "\"reason\":") != NULL && !json_has(out, "format", "\"auto\""), "%s: auto, no reason: %s", args, out);
    CHECK_MSG(json_num(out, "rows", &v) && v == rows, "%s: rows: %s", args, out);
    CHECK_MSG(json_num(out, "cols", &v) && v == cols, "%s: cols: %s", args, out);
    if (nnz >= 0) CHECK_MSG(json_num(out, "nnz", &v) && v == nnz, "%s: nnz: %s", args, out);
    CHECK_MSG(json_num(out, "rel_err", &v) && v >= 0 && v <= tol, "%s: rel_err > %g: %s", args, tol, out);
    CHECK_MSG(json_num(out, "seconds", &v) && v > 0, "%s: seconds: %s", args, out);
    CHECK_MSG(json_num(out, "gflops", &v) && v > 0 && json_num(out, "gbps", &v) && v > 0, "%s: rates: %s", args, out);
    CHECK_MSG(json_has(out, "device", "\"\"") || strstr(args, "opencl"), "%s: a CPU backend names no device: %s", args, out);
    return rc;
}

/* ---- solve --method klu and bench klu ---- */
/* `lcl solve ARGS --method METHOD --json`: one line, every key of keys; returns the exit code, out
   holds the line */
static int method_json(const char *method, const char *args, const char *const *keys, int nkeys, char *out, size_t cap) {
    char cmd[1024], head[64];
    int rc, k;
    snprintf(cmd, sizeof cmd, LCL_BIN " solve %s --method %s --json 2>/dev/null", args, method);
    rc = sh(cmd, out, cap);
    snprintf(head, sizeof head, "{\"op\":\"solve\",\"method\":\"%s\"", method);
    CHECK_MSG(one_line(out) && !strncmp(out, head, strlen(head)), "%s: %s", args, out);
    for (k = 0; k < nkeys; k++) {
        char pat[64];
        snprintf(pat, sizeof pat, "\"%s\":", keys[k]);
        CHECK_MSG(strstr(out, pat) != NULL, "%s: no key %s in %s", args, keys[k], out);
    }
    return rc;
}

/* `lcl solve ARGS --method klu --json`: the dense solve's keys and the KLU ones, residual within
   res_tol (when > 0); returns the exit code, out holds the line */
static int klu_json(const char *args, double res_tol, char *out, size_t cap) {
    static const char *const keys[] = {"op", "method", "backend", "device", "precision", "n", "nnz", "residual", "forward_error",
                                       "t_analyze", "t_factor", "t_refactor", "t_solve", "nnz_lu", "blocks", "rcond", "growth",
                                       "off_diag_pivots", "status"};
    double v;
    int rc = method_json("klu", args, keys, (int)(sizeof keys / sizeof keys[0]), out, cap);
    if (res_tol > 0) {
        CHECK_MSG(json_num(out, "residual", &v) && v >= 0 && v <= res_tol, "%s: residual > %g: %s", args, res_tol, out);
        CHECK_MSG(json_num(out, "nnz_lu", &v) && v >= 1 && json_num(out, "blocks", &v) && v >= 1, "%s: %s", args, out);
        CHECK_MSG(json_num(out, "t_factor", &v) && v >= 0 && json_num(out, "t_solve", &v) && v >= 0, "%s: %s", args, out);
        CHECK_MSG(json_has(out, "status", "\"ok\""), "%s: %s", args, out);
    }
    return rc;
}

static void test_tool_solve_klu(void) {
    char out[4096], args[1024], west[512], cmd[1024];
    double v;
    FILE *f;
    lt_matrix_path(west, sizeof west, "west0067.mtx");
    snprintf(args, sizeof args, "%s --backend serial", west);
    CHECK(klu_json(args, 1e-12, out, sizeof out) == 0);
    CHECK_MSG(json_num(out, "n", &v) && v == 67 && json_has(out, "t_refactor", "null"), "%s", out);
    /* gen:circuit with KLU's default threshold (0.001) grows to residuals near 1e-11 (SuiteSparse
       KLU's own too: BENCHMARKS.md) without refinement; the default refines, and partial pivoting
       meets the bound alone; --dense -1 is the sparse-only factorization */
    CHECK(klu_json("gen:circuit:2000 --backend openmp --tol 1 --refine -1", 1e-12, out, sizeof out) == 0);
    CHECK(klu_json("gen:circuit:2000 --backend openmp", 1e-12, out, sizeof out) == 0);
    CHECK(klu_json("gen:circuit:2000 --backend serial --refine -1 --dense -1", 1e-10, out, sizeof out) == 0);
    CHECK(klu_json("gen:circuit:2000 --backend serial --refine 3 --dense 0.1", 1e-12, out, sizeof out) == 0);
    CHECK(json_num(out, "n", &v) && v == 2000);
    /* K refactors of perturbed values, then A's own: the residual covers the refactored factors */
    CHECK(klu_json("gen:circuit:300 --backend serial --refactor 3 --ordering colamd --scale sum --tol 0.1", 1e-12, out, sizeof out) == 0);
    CHECK_MSG(json_num(out, "t_refactor", &v) && v >= 0 && json_has(out, "refactors", "3") && json_has(out, "ordering", "\"colamd\"") &&
              json_has(out, "scale", "\"sum\""), "%s", out);
    snprintf(args, sizeof args, "%s --backend serial --ordering natural --scale none --refactor 2", west);
    CHECK(klu_json(args, 1e-12, out, sizeof out) == 0);
    /* the text report */
    CHECK(sh(LCL_BIN " solve gen:circuit:50 --method klu --backend serial --refactor 2", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "refactor") != NULL && strstr(out, "residual") != NULL && strstr(out, "status      ok") != NULL, "%s", out);
    /* structurally singular: column 2 empty */
    f = fopen("build/t_klu_sing.mtx", "w");
    CHECK(f != NULL);
    if (f) { fputs("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n2 1 2.0\n3 3 1.0\n", f); fclose(f); }
    CHECK(klu_json("build/t_klu_sing.mtx --backend serial", 0, out, sizeof out) == 1);
    CHECK_MSG(json_has(out, "status", "\"singular matrix\"") && json_has(out, "residual", "null"), "%s", out);
    CHECK(sh(LCL_BIN " solve build/t_klu_sing.mtx --method klu --backend serial 2>&1 >/dev/null", out, sizeof out) == 1);
    CHECK_MSG(!strncmp(out, "lcl: error: ", 12) && strstr(out, "singular") != NULL, "%s", out);
    {
        static const exit_case usage[] = {
            {LCL_BIN " solve gen:circuit:20 --method klu --ordering metis", 2},
            {LCL_BIN " solve gen:circuit:20 --method klu --scale both", 2},
            {LCL_BIN " solve gen:circuit:20 --method klu --tol 0", 2},
            {LCL_BIN " solve gen:circuit:20 --method klu --tol 2", 2},
            {LCL_BIN " solve gen:circuit:20 --method klu --refactor 0", 2},
            {LCL_BIN " solve gen:circuit:20 --method klu --refine -2", 2},
            {LCL_BIN " solve gen:circuit:20 --method klu --refine x", 2},
            {LCL_BIN " solve gen:circuit:20 --method klu --dense 0", 2},
            {LCL_BIN " solve gen:circuit:20 --method klu --dense 1.5", 2},
            {LCL_BIN " solve gen:circuit:20 --method lu --dense 0.5", 2},
            {LCL_BIN " solve gen:circuit:20 --method klu --algorithm crout", 2},    /* dense options */
            {LCL_BIN " solve gen:circuit:20 --method klu --block 8", 2},
            {LCL_BIN " solve gen:circuit:20 --method lu --refactor 3", 2},         /* KLU options elsewhere */
            {LCL_BIN " solve gen:circuit:20 --method cholesky --ordering amd", 2},
            {LCL_BIN " spmv gen:circuit:20 --scale max", 2},
            {LCL_BIN " bench klu --refactor 2", 2},
            {LCL_BIN " bench klu gen:circuit:20 --precision single", 2},
            {LCL_BIN " solve /nonexistent.mtx --method klu", 2},
        };
        CHECK_EXITS(usage);
    }
    /* the misplaced-option message names where the option belongs */
    CHECK(sh(LCL_BIN " solve gen:circuit:20 --method lu --tol 0.01 2>&1 >/dev/null", out, sizeof out) == 2);
    CHECK_MSG(strstr(out, "option --tol does not apply to 'solve'") != NULL && strstr(out, "solve --method klu") != NULL, "%s", out);
    lt_matrix_path(west, sizeof west, "ash219.mtx");
    snprintf(cmd, sizeof cmd, LCL_BIN " solve %s --method klu 2>&1 >/dev/null", west);
    CHECK(sh(cmd, out, sizeof out) == 2 && strstr(out, "square") != NULL);
    CHECK(sh(LCL_BIN " --help", out, sizeof out) == 0 && strstr(out, "solve --method klu MATRIX") != NULL && strstr(out, "bench klu") != NULL);
    CHECK(sh("rm -f build/t_klu_sing.mtx", NULL, 0) == 0);
    /* --vec: lcl_klu_solve_vec, on the serial backend the host vector; --reps: the median */
    CHECK(klu_json("gen:circuit:300 --backend serial --tol 1 --vec --reps 3 --refactor 2", 1e-12, out, sizeof out) == 0);
    CHECK_MSG(json_has(out, "solve_vec", "true"), "%s", out);
    {
        static const exit_case usage[] = {{LCL_BIN " solve gen:dense-random:5 --method lu --vec", 2}};
        CHECK_EXITS(usage);
    }
    /* and on a device: the factors' copy, refactored there when LCL_KLU_REFACTOR=1 */
    if (sh(LCL_BIN " info --json", out, sizeof out) == 0 && strstr(out, "\"index\":0")) {
        CHECK(klu_json("gen:circuit:300 --backend opencl --tol 1 --vec --reps 2 --refactor 2", 1e-12, out, sizeof out) == 0);
        CHECK_MSG(json_has(out, "solve_vec", "true") && json_has(out, "backend", "\"opencl\""), "%s", out);
        setenv("LCL_KLU_REFACTOR", "1", 1);
        CHECK(klu_json("gen:circuit:300 --backend opencl --tol 1 --refactor 2", 1e-12, out, sizeof out) == 0);
        CHECK(klu_json("gen:circuit:300 --backend opencl --tol 1 --refactor 2 --vec --precision single", 1e-5, out, sizeof out) == 0);
        unsetenv("LCL_KLU_REFACTOR");
    }
}

static void test_tool_bench_klu(void) {
    char out[16384], first[4096], cmd[1024], west[512];
    CHECK(sh("rm -f build/t_bk.csv build/t_bk.svg", NULL, 0) == 0);
    lt_matrix_path(west, sizeof west, "west0067.mtx");
    snprintf(cmd, sizeof cmd, LCL_BIN " bench klu gen:circuit:200 %s --reps 2 --csv build/t_bk.csv --svg build/t_bk.svg 2>/dev/null", west);
    CHECK(sh(cmd, out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "| matrix | n | nnz | blocks | analyze | factor | refactor | solve | nnz(L+U) | residual |") != NULL, "%s", out);
    CHECK_MSG(strstr(out, "| gen:circuit:200 | 200 |") != NULL && strstr(out, "| west0067 | 67 | 294 |") != NULL, "%s", out);
    CHECK(count_lines("build/t_bk.csv", first, sizeof first) == 3 && !strncmp(first, "matrix,n,nnz,backend,reps,ordering,t_analyze,", 45));
    CHECK(sh("grep -c ',ok,' build/t_bk.csv", out, sizeof out) == 0 && atoi(out) == 2);
    CHECK(count_lines("build/t_bk.svg", first, sizeof first) > 5 && !strncmp(first, "<svg", 4));
    CHECK(sh(LCL_BIN " bench klu gen:circuit:100 --reps 1 --json 2>/dev/null", out, sizeof out) == 0);
    CHECK_MSG(one_line(out) && strstr(out, "\"suite\":\"klu\"") && strstr(out, "\"check\":\"ok\"") && strstr(out, "\"t_refactor\":"), "%s", out);
    /* the plain build says where the reference is */
    CHECK(sh(LCL_BIN " bench klu gen:circuit:50 --reps 1 2>&1 >/dev/null", out, sizeof out) == 0 && strstr(out, "make bench-klu") != NULL);
    CHECK(sh("rm -f build/t_bk.csv build/t_bk.svg", NULL, 0) == 0);
}

/* ---- solve --method bklu and bench bklu ---- */
/* `lcl solve ARGS --method bklu --json`: the KLU method's keys and the block ones, residual within
   res_tol (when > 0); returns the exit code, out holds the line */
static int bklu_json(const char *args, double res_tol, char *out, size_t cap) {
    static const char *const keys[] = {"op", "method", "ordering", "scale", "tol", "nopivot", "schedule", "mem_limit", "backend",
                                       "device", "devices", "precision", "n", "m", "n_blocks", "nnz", "nnzb", "residual",
                                       "forward_error", "t_analyze", "t_factor", "t_refactor", "refactors", "t_solve", "nnzb_lu",
                                       "nnzb_l", "nnzb_u", "blocks", "levels", "flops", "gflops", "gflops_refactor", "transfers",
                                       "evictions", "a_pinned", "status"};
    double v, l, u;
    int rc = method_json("bklu", args, keys, (int)(sizeof keys / sizeof keys[0]), out, cap);
    if (res_tol > 0) {
        CHECK_MSG(json_num(out, "residual", &v) && v >= 0 && v <= res_tol, "%s: residual > %g: %s", args, res_tol, out);
        CHECK_MSG(json_num(out, "forward_error", &v) && v >= 0 && v <= 1e4 * res_tol, "%s: %s", args, out);
        CHECK_MSG(json_num(out, "nnzb_lu", &v) && json_num(out, "nnzb_l", &l) && json_num(out, "nnzb_u", &u) && v == l + u &&
                  json_num(out, "n_blocks", &l) && u >= l && json_num(out, "blocks", &v) && v >= 1 && json_num(out, "levels", &v) && v >= 1,
                  "%s: %s", args, out);
        CHECK_MSG(json_num(out, "t_factor", &v) && v >= 0 && json_num(out, "t_solve", &v) && v >= 0 && json_num(out, "flops", &v) &&
                  v > 0, "%s: %s", args, out);
        CHECK_MSG(json_has(out, "status", "\"ok\""), "%s: %s", args, out);
    }
    return rc;
}

/* the largest |a_i - b_i| of two one-column Matrix Market arrays of n entries (-1: unreadable) */
static double mtx_maxdiff(const char *pa, const char *pb, int n) {
    lcl_dense A, B;
    double d = -1;
    int i;
    if (lcl_mm_read_dense(NULL, pa, LCL_F64, LCL_COL_MAJOR, 0, &A, NULL) != LCL_OK) return -1;
    if (lcl_mm_read_dense(NULL, pb, LCL_F64, LCL_COL_MAJOR, 0, &B, NULL) == LCL_OK) {
        if (A.rows == n && B.rows == n && A.cols == 1 && B.cols == 1)
            for (i = 0, d = 0; i < n; i++) d = fmax(d, fabs(((double *)A.data)[i] - ((double *)B.data)[i]));
        lcl_dense_free(&B);
    }
    lcl_dense_free(&A);
    return d;
}

static void test_tool_solve_bklu(void) {
    char out[4096], args[1024], west[512];
    double v;
    FILE *f;
    /* a base expanded by --block, and the same matrix as a gen:hb spec: the same answer */
    CHECK(bklu_json("gen:circuit:300 --block 16 --backend serial -o build/t_bklu_x1.mtx", 1e-12, out, sizeof out) == 0);
    CHECK_MSG(json_has(out, "n", "4800") && json_has(out, "m", "16") && json_has(out, "n_blocks", "300") && json_has(out, "devices", "0") &&
              json_has(out, "backend", "\"serial\"") && json_has(out, "t_refactor", "null") && json_has(out, "tol", "1") &&
              json_has(out, "a_pinned", "false"), "%s", out);
    CHECK(bklu_json("gen:hb:gen:circuit:300:16 --backend openmp -o build/t_bklu_x2.mtx", 1e-12, out, sizeof out) == 0);
    CHECK(bklu_json("gen:hb:gen:circuit:300:16 --block 16 --backend serial", 1e-12, out, sizeof out) == 0);
    /* the scalar KLU of the expanded matrix (the generator's scalar gen:hb) agrees with the block LU */
    CHECK(klu_json("gen:hb:gen:circuit:300:16 --backend serial -o build/t_bklu_x3.mtx", 1e-12, out, sizeof out) == 0);
    v = mtx_maxdiff("build/t_bklu_x1.mtx", "build/t_bklu_x3.mtx", 4800);
    CHECK_MSG(v >= 0 && v < 1e-10, "bklu vs klu: max |x_b - x_k| = %g", v);
    v = mtx_maxdiff("build/t_bklu_x1.mtx", "build/t_bklu_x2.mtx", 4800);
    CHECK_MSG(v >= 0 && v < 1e-12, "serial vs openmp: %g", v);
    /* a file base, odd M; refactors of perturbed values; every library option through */
    lt_matrix_path(west, sizeof west, "west0067.mtx");
    snprintf(args, sizeof args, "%s --block 5 --backend openmp --refactor 3 --reps 2", west);
    CHECK(bklu_json(args, 1e-12, out, sizeof out) == 0);
    CHECK_MSG(json_has(out, "n", "335") && json_has(out, "refactors", "3") && json_num(out, "t_refactor", &v) && v >= 0 &&
              json_num(out, "gflops_refactor", &v) && v > 0, "%s", out);
    CHECK(bklu_json("gen:circuit:200 --block 7 --backend serial --nopivot --schedule static --mem-limit 64M --ordering colamd "
                    "--scale sum --tol 0.5 --refactor 2", 1e-12, out, sizeof out) == 0);
    CHECK_MSG(json_has(out, "nopivot", "true") && json_has(out, "schedule", "\"static\"") && json_has(out, "mem_limit", "67108864") &&
              json_has(out, "ordering", "\"colamd\"") && json_has(out, "scale", "\"sum\"") && json_has(out, "tol", "0.5"), "%s", out);
    CHECK(bklu_json("gen:circuit:200 --block 7 --backend serial --schedule affinity --mem-limit 1.5G", 1e-12, out, sizeof out) == 0);
    CHECK_MSG(json_has(out, "schedule", "\"affinity\"") && json_has(out, "mem_limit", "1610612736"), "%s", out);
    CHECK(bklu_json("gen:circuit:200 --block 9 --backend openmp --precision single --refactor 2", 1e-5, out, sizeof out) == 0);
    CHECK(json_has(out, "precision", "\"single\""));
    /* --as-blocks: the expanded matrix written by 'lcl gen hb' and read back as blocks is the same
       system: the same solution as the block spec's; single precision; the order not a multiple of
       M, a singular pivot block, and the options it excludes */
    CHECK(sh(LCL_BIN " gen hb gen:circuit:300 16 -o build/t_bklu_hb.mtx >/dev/null 2>&1", NULL, 0) == 0);
    CHECK(bklu_json("build/t_bklu_hb.mtx --as-blocks 16 --backend openmp --refactor 2 -o build/t_bklu_x4.mtx", 1e-12, out, sizeof out) == 0);
    CHECK_MSG(json_has(out, "n", "4800") && json_has(out, "m", "16") && json_has(out, "n_blocks", "300") && json_has(out, "refactors", "2"),
              "%s", out);
    v = mtx_maxdiff("build/t_bklu_x1.mtx", "build/t_bklu_x4.mtx", 4800);
    CHECK_MSG(v >= 0 && v < 1e-12, "--as-blocks vs the block spec: max |x_a - x_b| = %g", v);
    CHECK(bklu_json("build/t_bklu_hb.mtx --as-blocks 16 --backend serial --precision single", 1e-5, out, sizeof out) == 0);
    CHECK(bklu_json("build/t_bklu_hb.mtx --as-blocks 8 --backend serial", 1e-12, out, sizeof out) == 0);   /* half blocks: 4 per block */
    CHECK_MSG(json_has(out, "n_blocks", "600") && json_has(out, "m", "8"), "%s", out);
    CHECK(sh(LCL_BIN " solve build/t_bklu_hb.mtx --method bklu --as-blocks 7 --backend serial 2>&1 >/dev/null", out, sizeof out) == 2);
    CHECK_MSG(strstr(out, "not a multiple of the block size 7") != NULL, "%s", out);
    f = fopen("build/t_bklu_sing3.mtx", "w");
    CHECK(f != NULL);
    if (f) { fputs("%%MatrixMarket matrix coordinate real general\n4 4 3\n1 1 1.0\n2 2 2.0\n4 4 3\n", f); fclose(f); }
    CHECK(sh(LCL_BIN " solve build/t_bklu_sing3.mtx --method bklu --as-blocks 2 --backend serial 2>&1 >/dev/null", out, sizeof out) == 1);
    CHECK_MSG(strstr(out, "pivot block of block column 1") != NULL && strstr(out, "singular") != NULL, "%s", out);
    CHECK(sh(LCL_BIN " solve build/t_bklu_hb.mtx --method bklu --as-blocks 16 --block 16 2>&1 >/dev/null", out, sizeof out) == 2);
    CHECK_MSG(strstr(out, "exclude each other") != NULL, "%s", out);
    CHECK(sh(LCL_BIN " solve gen:hb:gen:circuit:20:4 --method bklu --as-blocks 4 2>&1 >/dev/null", out, sizeof out) == 2);
    CHECK(sh(LCL_BIN " solve build/t_bklu_hb.mtx --method klu --as-blocks 4 2>&1 >/dev/null", out, sizeof out) == 2);
    CHECK(sh(LCL_BIN " solve build/t_bklu_hb.mtx --method bklu --as-blocks 0 2>&1 >/dev/null", out, sizeof out) == 2);
    /* the text report */
    CHECK(sh(LCL_BIN " solve gen:circuit:50 --method bklu --block 4 --backend serial --refactor 2", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "block columns of M = 4") && strstr(out, "refactor") && strstr(out, "residual") && strstr(out, "status      ok"),
              "%s", out);
    /* a structurally singular base (column 2 empty), and one whose blocks' representatives are singular */
    f = fopen("build/t_bklu_sing.mtx", "w");
    CHECK(f != NULL);
    if (f) { fputs("%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n2 1 2.0\n3 3 1.0\n", f); fclose(f); }
    CHECK(bklu_json("build/t_bklu_sing.mtx --block 3 --backend serial", 0, out, sizeof out) == 1);
    CHECK_MSG(json_has(out, "status", "\"singular matrix\"") && json_has(out, "residual", "null"), "%s", out);
    CHECK(sh(LCL_BIN " solve build/t_bklu_sing.mtx --method bklu --block 3 --backend serial 2>&1 >/dev/null", out, sizeof out) == 1);
    CHECK_MSG(!strncmp(out, "lcl: error: analyze: ", 21) && strstr(out, "singular") != NULL, "%s", out);
    f = fopen("build/t_bklu_sing2.mtx", "w");
    CHECK(f != NULL);
    if (f) { fputs("%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 1.0\n1 2 1.0\n2 1 1.0\n2 2 1.0\n", f); fclose(f); }
    CHECK(sh(LCL_BIN " solve build/t_bklu_sing2.mtx --method bklu --block 3 --backend serial 2>&1 >/dev/null", out, sizeof out) == 1);
    CHECK_MSG(!strncmp(out, "lcl: error: factor: ", 20) && strstr(out, "singular") != NULL, "%s", out);
    {
        static const exit_case usage[] = {
            {LCL_BIN " solve gen:circuit:20 --method bklu", 2},                 /* no M */
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 0", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 65537", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block x", 2},
            {LCL_BIN " solve gen:hb:gen:circuit:20:4 --method bklu --block 3", 2},   /* M mismatch */
            {LCL_BIN " solve gen:hb:gen:circuit:20:x --method bklu", 2},
            {LCL_BIN " solve gen:hb:gen:nosuch:20:4 --method bklu", 2},
            {LCL_BIN " solve /nonexistent.mtx --method bklu --block 2", 2},
            {LCL_BIN " solve gen:circuit:20 gen:circuit:30 --method bklu --block 2", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --schedule fastest", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --schedule", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --mem-limit 0", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --mem-limit -1G", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --mem-limit 12X", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --mem-limit 1.G", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --mem-limit 0x100", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --mem-limit 99999999999T", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --refactor 0", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --ordering metis", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --tol 0", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --scale both", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --reps 0", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --vec", 2},          /* KLU's and dense options */
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --dense 0.5", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --algorithm crout", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --blocks 4", 2},
            {LCL_BIN " solve gen:circuit:20 --method klu --nopivot", 2},                 /* bklu options elsewhere */
            {LCL_BIN " solve gen:circuit:20 --method lu --schedule static", 2},
            {LCL_BIN " spmv gen:circuit:20 --mem-limit 1G", 2},
            {LCL_BIN " solve gen:circuit:20 --method bklu --block 2 --device no-such-device-xyz", 3},
            {NO_OPENCL " solve gen:circuit:20 --method bklu --block 2 --backend opencl", 3},
            {NO_OPENCL " solve gen:circuit:20 --method bklu --block 2", 0},             /* auto: the CPU */
        };
        CHECK_EXITS(usage);
    }
    CHECK(sh(LCL_BIN " solve gen:hb:gen:circuit:20:4 --method bklu --block 3 2>&1 >/dev/null", out, sizeof out) == 2);
    CHECK_MSG(strstr(out, "--block 3 does not match M = 4") != NULL, "%s", out);
    CHECK(sh(LCL_BIN " solve gen:circuit:20 --method bklu 2>&1 >/dev/null", out, sizeof out) == 2 && strstr(out, "needs --block M") != NULL);
    {
        char help[32768];
        CHECK(sh(LCL_BIN " --help", help, sizeof help) == 0 && strstr(help, "solve --method bklu MATRIX --block M") &&
              strstr(help, "bench bklu") && strstr(help, "--mem-limit") && strstr(help, "gen:hb:BASE:M"));
    }
    CHECK(sh("rm -f build/t_bklu_sing.mtx build/t_bklu_sing2.mtx build/t_bklu_x1.mtx build/t_bklu_x2.mtx build/t_bklu_x3.mtx", NULL, 0) == 0);
    /* on OpenCL devices: every device of the context (--device all), two PoCL devices when PoCL is there */
    if (sh(LCL_BIN " info --json", out, sizeof out) == 0 && strstr(out, "\"index\":0")) {
        int pocl = strstr(out, "Portable Computing Language") != NULL;
        CHECK(bklu_json("gen:circuit:200 --block 8 --device all --refactor 2 -o build/t_bklu_p1.mtx", 1e-12, out, sizeof out) == 0);
        CHECK_MSG(json_has(out, "backend", "\"opencl\"") && json_num(out, "devices", &v) && v >= 0 && json_has(out, "a_pinned", "true"),
                  "%s", out);
        /* A's values malloc'd: the devices get them through the staging ring, the same answer bit for bit */
        CHECK(bklu_json("gen:circuit:200 --block 8 --device all --refactor 2 --pageable -o build/t_bklu_p2.mtx", 1e-12, out, sizeof out) ==
              0);
        CHECK_MSG(json_has(out, "a_pinned", "false"), "%s", out);
        v = mtx_maxdiff("build/t_bklu_p1.mtx", "build/t_bklu_p2.mtx", 1600);
        CHECK_MSG(v == 0, "pinned vs malloc'd A: max |x_1 - x_2| = %g", v);
        CHECK(sh("rm -f build/t_bklu_p1.mtx build/t_bklu_p2.mtx", NULL, 0) == 0);
        if (pocl) {
            CHECK(bklu_json("gen:circuit:200 --block 8 --device all --schedule static --mem-limit 1M --refactor 2 "
                            "--precision single", 1e-5, out, sizeof out) == 0);
            CHECK(sh("POCL_DEVICES='pthread pthread' " LCL_BIN " solve gen:circuit:200 --method bklu --block 8 --device 'Portable Computing Language' "
                     "--schedule dynamic --refactor 2 --json 2>/dev/null", out, sizeof out) == 0);
            CHECK_MSG(strstr(out, "\"device\":\"2 devices: ") != NULL && json_num(out, "residual", &v) && v <= 1e-12, "%s", out);
        }
    }
}

static void test_tool_bench_bklu(void) {
    char out[16384], first[8192];
    double v;
    CHECK(sh("rm -f build/t_bb.csv build/t_bb.svg", NULL, 0) == 0);
    CHECK(sh(LCL_BIN " bench bklu gen:circuit:100 --blocks 3,8 --reps 2 --backend serial --csv build/t_bb.csv --svg build/t_bb.svg "
             "2>/dev/null", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "| matrix | M | n | nnzb | nnzb(L+U) | levels | serial CPU | 1 device | 2 devices | all devices | S1 | S2 |") &&
              strstr(out, "| gen:circuit:100 | 3 | 100 |") && strstr(out, "| gen:circuit:100 | 8 | 100 |") && !strstr(out, "FAIL"),
              "%s", out);
    CHECK(count_lines("build/t_bb.csv", first, sizeof first) == 3 && !strncmp(first, "matrix,m,n_blocks,nnzb,nnzb_lu,levels,", 38) &&
          strstr(first, ",cpu_t_refactor,") && strstr(first, ",dev2_t_refactor,") && strstr(first, ",s1,s2,check,message"));
    CHECK(sh("grep -c ',ok,$' build/t_bb.csv", out, sizeof out) == 0 && atoi(out) == 2);
    CHECK(count_lines("build/t_bb.svg", first, sizeof first) > 5 && !strncmp(first, "<svg", 4));
    CHECK(sh(LCL_BIN " bench bklu gen:circuit:60 --blocks 4 --reps 1 --json 2>/dev/null", out, sizeof out) == 0);
    CHECK_MSG(one_line(out) && strstr(out, "\"suite\":\"bklu\"") && json_has(out, "m", "4") && json_has(out, "check", "\"ok\"") &&
              json_has(out, "cpu_check", "\"ok\"") && json_num(out, "cpu_t_refactor", &v) && v > 0 && json_num(out, "cpu_residual", &v) &&
              v <= 1e-10 && json_has(out, "cpu_backend", "\"openmp\"") && strstr(out, "\"a_pinned\":"), "%s", out);
    /* --as-blocks: matrices of one's own cut into blocks, one M; the same refactor counts as the spec */
    CHECK(sh(LCL_BIN " gen hb gen:circuit:60 4 -o build/t_bb_hb.mtx >/dev/null 2>&1", NULL, 0) == 0);
    CHECK(sh(LCL_BIN " bench bklu build/t_bb_hb.mtx gen:poisson2d:6 --as-blocks 4 --reps 1 --backend serial 2>/dev/null", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "each matrix cut into M x M blocks") && strstr(out, "| t_bb_hb | 4 | 60 | 240 |") && strstr(out, "| 4 | 9 |") &&
              !strstr(out, "FAIL"), "%s", out);
    CHECK(sh(LCL_BIN " bench bklu --as-blocks 4 2>/dev/null", out, sizeof out) == 2);
    CHECK(sh(LCL_BIN " bench bklu build/t_bb_hb.mtx --as-blocks 4 --blocks 4 2>/dev/null", out, sizeof out) == 2);
    CHECK(sh(LCL_BIN " bench bklu gen:hb:gen:circuit:20:4 --as-blocks 4 2>/dev/null", out, sizeof out) == 2);
    CHECK(sh(LCL_BIN " bench bklu build/t_bb_hb.mtx --as-blocks 7 --backend serial 2>&1 >/dev/null", out, sizeof out) == 2);
    CHECK_MSG(strstr(out, "not a multiple of the block size 7") != NULL, "%s", out);
    /* a base whose factorization fails: the row fails loudly, exit 1 */
    {
        FILE *f = fopen("build/t_bb_sing.mtx", "w");
        CHECK(f != NULL);
        if (f) { fputs("%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 1.0\n1 2 1.0\n2 1 1.0\n2 2 1.0\n", f); fclose(f); }
        CHECK(sh(LCL_BIN " bench bklu build/t_bb_sing.mtx --blocks 2 --reps 1 --backend serial 2>/dev/null", out, sizeof out) == 1);
        CHECK_MSG(strstr(out, "| FAIL |") && strstr(out, "- FAIL t_bb_sing M = 2, serial CPU: factor: "), "%s", out);
        CHECK(sh(LCL_BIN " bench bklu build/t_bb_sing.mtx --blocks 2 --reps 1 --backend serial 2>&1 >/dev/null", out, sizeof out) == 1);
        CHECK_MSG(strstr(out, "FAIL") && strstr(out, "1 row FAILED"), "%s", out);
    }
    {
        static const exit_case usage[] = {
            {LCL_BIN " bench bklu --blocks 0", 2},
            {LCL_BIN " bench bklu --blocks 65537", 2},
            {LCL_BIN " bench bklu --blocks 4,,8", 2},
            {LCL_BIN " bench bklu --blocks a", 2},
            {LCL_BIN " bench bklu --block 4", 2},
            {LCL_BIN " bench bklu --refactor 2", 2},
            {LCL_BIN " bench bklu --backend opencl", 2},
            {LCL_BIN " bench bklu --reps 0", 2},
            {LCL_BIN " bench bklu --schedule none", 2},
            {LCL_BIN " bench bklu --mem-limit 1Z", 2},
            {LCL_BIN " bench klu --blocks 4", 2},
            {LCL_BIN " bench bklu /nonexistent.mtx --blocks 2 --backend serial", 2},
            {LCL_BIN " bench bklu gen:circuit:20 --blocks 2 --device no-such-device-xyz", 3},
        };
        CHECK_EXITS(usage);
    }
    /* no OpenCL: the device columns are skipped, with a note */
    CHECK(sh(NO_OPENCL " bench bklu gen:circuit:40 --blocks 2 --reps 1 --backend serial 2>/dev/null", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "- device columns: no OpenCL device") && strstr(out, "| gen:circuit:40 | 2 | 40 |"), "%s", out);
    /* two PoCL devices (chosen by platform: a GPU beside them must not make it three): the
       2-device column and S2 */
    if (sh(LCL_BIN " info --json", out, sizeof out) == 0 && strstr(out, "Portable Computing Language")) {
        CHECK(sh("POCL_DEVICES='pthread pthread' " LCL_BIN " bench bklu gen:circuit:60 --blocks 4 --reps 1 --json --device 'Portable Computing Language' "
                 "2>/dev/null", out, sizeof out) == 0);
        CHECK_MSG(json_has(out, "dev1_check", "\"ok\"") && json_has(out, "dev2_check", "\"ok\"") && json_has(out, "all_check", "\"skipped\"") &&
                  json_num(out, "s1", &v) && v > 0 && json_num(out, "s2", &v) && v > 0 && json_num(out, "dev2_residual", &v) && v <= 1e-10,
                  "%s", out);
        CHECK(sh("POCL_DEVICES='pthread pthread pthread' " LCL_BIN " bench bklu gen:circuit:60 --blocks 4 --reps 1 --json --schedule static "
                 "--device 'Portable Computing Language' "
                 "--mem-limit 2M 2>/dev/null", out, sizeof out) == 0);
        CHECK_MSG(json_has(out, "all_check", "\"ok\"") && json_has(out, "schedule", "\"static\""), "%s", out);
    }
    CHECK(sh("rm -f build/t_bb.csv build/t_bb.svg build/t_bb_sing.mtx", NULL, 0) == 0);
}

/* vectors from files: a symmetric right-hand side file is expanded (its upper triangle was read as
   zeros: exit 0, the wrong b), a value beyond float's range in single precision is bad input
   named as the matrix's are (was "wrong result", exit 1), and rows of A x beyond the range are
   not a wrong result (Inf - Inf made rel_err NaN: exit 1) */
static void test_tool_vector_files(void) {
    char out[4096];
    FILE *f;
    f = fopen("build/t_vA.mtx", "w");
    if (f) { fputs("%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 2 1\n", f); fclose(f); }
    f = fopen("build/t_vB.mtx", "w");   /* [[1,2],[2,3]], lower triangle stored */
    if (f) { fputs("%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n", f); fclose(f); }
    f = fopen("build/t_vx.mtx", "w");
    if (f) { fputs("%%MatrixMarket matrix array real general\n2 1\n1e39\n1\n", f); fclose(f); }
    f = fopen("build/t_vO.mtx", "w");
    if (f) { fputs("%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1.5e308\n1 2 1.5e308\n2 2 1\n", f); fclose(f); }
    f = fopen("build/t_v1.mtx", "w");
    if (f) { fputs("%%MatrixMarket matrix array real general\n2 1\n1\n1\n", f); fclose(f); }
    CHECK(sh(LCL_BIN " solve build/t_vA.mtx --method lu --backend serial --rhs build/t_vB.mtx -o build/t_vX.mtx >/dev/null", NULL, 0) == 0);
    f = fopen("build/t_vX.mtx", "r");
    CHECK(f != NULL);
    if (f) {   /* A = I: x = b, column-major: 1 2 2 3 */
        size_t n = fread(out, 1, sizeof out - 1, f);
        out[n] = 0;
        fclose(f);
        CHECK_MSG(strstr(out, "2 2\n1\n2\n2\n3\n") != NULL, "x of a symmetric b:\n%s", out);
    }
    CHECK_MSG(sh(LCL_BIN " spmv build/t_vA.mtx --x build/t_vx.mtx --precision single --backend serial 2>&1", out, sizeof out) == 2 &&
              strstr(out, "exceeds single precision range") && strstr(out, "t_vx.mtx"), "%s", out);
    CHECK_MSG(sh(LCL_BIN " solve build/t_vA.mtx --method lu --rhs build/t_vx.mtx --precision single --backend serial 2>&1", out, sizeof out) == 2 &&
              strstr(out, "exceeds single precision range") && strstr(out, "t_vx.mtx"), "%s", out);
    CHECK_MSG(sh(LCL_BIN " spmv build/t_vO.mtx --x build/t_v1.mtx --backend serial 2>&1", out, sizeof out) == 0 &&
              strstr(out, "1 of y's 2 rows are beyond double precision's range") && strstr(out, ": ok"), "%s", out);
    CHECK_MSG(sh(LCL_BIN " spmv build/t_vO.mtx --x build/t_v1.mtx --backend serial --json", out, sizeof out) == 0 &&
              strstr(out, "\"rows_beyond_range\":1"), "%s", out);
}

static void test_tool_spmv_usage(void) {
    char out[4096];
    {
        static const exit_case usage[] = {
            {LCL_BIN " spmv", 2}, /* no MATRIX */
            {LCL_BIN " spmv gen:poisson2d:4 gen:poisson2d:5", 2},
            {LCL_BIN " spmv gen:poisson2d:4 --format csx", 2},
            {LCL_BIN " spmv gen:poisson2d:4 --kernel warp", 2},
            {LCL_BIN " spmv gen:poisson2d:4 --reps 0", 2},
            {LCL_BIN " spmv gen:poisson2d:4 --format", 2},
            {LCL_BIN " spmv gen:poisson2d:4 --formats csr", 2}, /* a bench option */
            {LCL_BIN " spmv gen:poisson2d:4 --method lu", 2},
            {LCL_BIN " stat gen:poisson2d:4 --format csr", 2},
            {LCL_BIN " solve gen:dense-random:4 --method lu --trans", 2},
            {LCL_BIN " bench spmv --op lu", 2},
            {LCL_BIN " bench spmv --formats auto", 2},
            {LCL_BIN " bench spmv --formats csr,,ell", 2},
            {LCL_BIN " bench spmv --backends cuda", 2},
            {LCL_BIN " bench spmv --backends serial --backend openmp", 2},
            {LCL_BIN " bench dense --op lu --formats csr", 2},
            {LCL_BIN " bench sparse", 2},
            {LCL_BIN " spmv /nonexistent.mtx", 2},
            {LCL_BIN " spmv gen:nosuchkind:4", 2},
            {LCL_BIN " spmv tests/data/bad/complex.mtx", 2},
            {NO_OPENCL " spmv gen:poisson2d:4 --backend opencl", 3},
            {NO_OPENCL " bench spmv gen:poisson2d:4 --backends serial,opencl", 3},
        };
        CHECK_EXITS(usage);
    }
    /* a padded format that would store too much: the library's message, a non-zero exit */
    CHECK(sh(LCL_BIN " spmv gen:poisson2d:30 --format dense --backend serial 2>&1 >/dev/null", out, sizeof out) == 2);
    CHECK_MSG(!strncmp(out, "lcl: error: ", 12) && strstr(out, "max_fill 3 allows") && strstr(out, "--max-fill R raises the limit"), "%s", out);
    /* --max-fill: 900 x 900 dense holds 810000 slots for 4380 nonzeros (185 per nonzero) */
    CHECK(sh(LCL_BIN " spmv gen:poisson2d:30 --format dense --backend serial --max-fill 180 >/dev/null 2>&1", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " spmv gen:poisson2d:30 --format dense --backend serial --max-fill 190 --reps 1 --json 2>/dev/null", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "\"format\":\"dense\"") != NULL, "%s", out);
    CHECK(sh(LCL_BIN " bench spmv gen:poisson2d:30 --formats dense --backends serial --max-fill 190 --reps 1 --json 2>/dev/null", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "\"check\":\"refused\"") == NULL && strstr(out, "\"check\":\"ok\"") != NULL, "%s", out);
    {
        static const exit_case bad[] = {
            {LCL_BIN " spmv gen:poisson2d:4 --max-fill 0.5", 2},
            {LCL_BIN " spmv gen:poisson2d:4 --max-fill nan", 2},
            {LCL_BIN " spmv gen:poisson2d:4 --max-fill inf", 2},
            {LCL_BIN " solve gen:poisson2d:4 --method klu --max-fill 4", 2},   /* spmv and bench spmv only */
        };
        CHECK_EXITS(bad);
    }
}

static void test_tool_spmv_json(void) {
    static const char *const fmts[9] = {"coo", "csr", "csc", "ell", "sell", "hyb", "dia", "bcsr", "dense"};
    static const char *const backends[2] = {"serial", "openmp"};
    char args[1024], ash[512];
    int f, b, p, t, rc;
    /* every format fits a small dense matrix; both CPU backends, both precisions */
    for (f = 0; f < 9; f++)
        for (b = 0; b < 2; b++)
            for (p = 0; p < 2; p++) {
                snprintf(args, sizeof args, "gen:dense-random:30 --format %s --backend %s --precision %s --reps 3", fmts[f], backends[b],
                         p ? "single" : "double");
                rc = spmv_json(args, fmts[f], p ? 1e-5 : 1e-14, 30, 30, 900);
                CHECK_MSG(rc == 0, "%s -> %d", args, rc);
            }
    /* a sparse matrix, the default format (auto: a reason) and a kernel of each kind */
    rc = spmv_json("gen:poisson2d:12 --backend serial", NULL, 1e-14, 144, 144, 5 * 144 - 4 * 12);
    CHECK_MSG(rc == 0, "auto -> %d", rc);
    rc = spmv_json("gen:powerlaw:3000:8 --backend openmp --format auto --precision single", NULL, 1e-5, 3000, 3000, -1);
    CHECK_MSG(rc == 0, "auto powerlaw -> %d", rc);
    {
        static const char *const kernels[4] = {"scalar", "vector", "merge", "auto"};
        int k;
        for (k = 0; k < 4; k++) {
            snprintf(args, sizeof args, "gen:powerlaw:3000:8 --backend openmp --format csr --kernel %s", kernels[k]);
            rc = spmv_json(args, "csr", 1e-14, 3000, 3000, -1);
            CHECK_MSG(rc == 0, "%s -> %d", args, rc);
        }
    }
    /* rectangular (ash219: 219 x 85), with and without --trans */
    lt_matrix_path(ash, sizeof ash, "ash219.mtx");
    for (f = 0; f < 6; f++)
        for (t = 0; t < 2; t++) {
            snprintf(args, sizeof args, "%s --format %s --backend %s%s", ash, fmts[f], backends[t], t ? " --trans" : "");
            rc = spmv_json(args, fmts[f], 1e-14, 219, 85, 438);
            CHECK_MSG(rc == 0, "%s -> %d", args, rc);
        }
    /* the text report */
    {
        char out[4096];
        CHECK(sh(LCL_BIN " spmv gen:poisson2d:10 --format ell --backend serial", out, sizeof out) == 0);
        CHECK_MSG(strstr(out, "format      ell") != NULL && strstr(out, "M nnz/s") != NULL && strstr(out, ": ok)") != NULL, "%s", out);
    }
}

/* y read back from -o, against A x computed here from the matrix file and x file */
static void test_tool_spmv_roundtrip(void) {
    int p, t;
    CHECK(sh(LCL_BIN " gen powerlaw 200 5 --seed 3 -o build/t_vA.mtx", NULL, 0) == 0);
    for (t = 0; t < 2; t++)
        for (p = 0; p < 2; p++) {
            lcl_coo A;
            lcl_dense X, Y;
            lcl_mm_info info;
            char cmd[512], out[4096];
            int64_t i, k;
            double d = 0, scale = 0, *ax;
            memset(&A, 0, sizeof A);
            memset(&X, 0, sizeof X);
            memset(&Y, 0, sizeof Y);
            CHECK_OK(NULL, lcl_dense_alloc(NULL, &X, LCL_F64, LCL_COL_MAJOR, 200, 1));
            for (i = 0; i < 200; i++) lcl_dense_set(&X, i, 0, p ? (double)(i % 7) - 3.0 : cos(0.1 * (double)i));
            CHECK_OK(NULL, lcl_mm_write_dense(NULL, "build/t_vX.mtx", &X));
            snprintf(cmd, sizeof cmd, LCL_BIN " spmv build/t_vA.mtx --x build/t_vX.mtx -o build/t_vY.mtx --format sell --backend openmp%s%s --json",
                     p ? " --precision single" : "", t ? " --trans" : "");
            CHECK_MSG(sh(cmd, out, sizeof out) == 0, "%s: %s", cmd, out);
            CHECK_OK(NULL, lcl_mm_read(NULL, "build/t_vA.mtx", LCL_F64, LCL_MM_EXPAND, &A, NULL));
            CHECK_OK(NULL, lcl_mm_read_dense(NULL, "build/t_vY.mtx", LCL_F64, LCL_COL_MAJOR, 0, &Y, &info));
            CHECK(info.format == LCL_MM_ARRAY && Y.rows == 200 && Y.cols == 1);
            ax = (double *)calloc(200, sizeof(double));
            if (ax && Y.rows == 200 && A.rows == 200) {
                double *abs_ = (double *)calloc(200, sizeof(double));
                for (k = 0; k < A.nnz && abs_; k++) {
                    double a = ((double *)A.val)[k];
                    int64_t o = t ? A.col[k] : A.row[k], in = t ? A.row[k] : A.col[k];
                    if (p) a = (float)a;            /* the single-precision matrix holds these */
                    ax[o] += a * lcl_dense_get(&X, in, 0);
                    abs_[o] += fabs(a * lcl_dense_get(&X, in, 0));
                }
                for (i = 0; i < 200 && abs_; i++) {
                    d = fmax(d, fabs(lcl_dense_get(&Y, i, 0) - ax[i]));
                    scale = fmax(scale, abs_[i]);
                }
                CHECK_MSG(d / scale <= (p ? 1e-5 : 1e-14), "%s: |y - A x| / scale = %g", cmd, d / scale);
                free(abs_);
            }
            free(ax);
            lcl_coo_free(&A);
            lcl_dense_free(&X);
            lcl_dense_free(&Y);
        }
    /* x of the wrong length: a clear error, exit 2; --trans wants the rows */
    {
        lcl_dense X;
        char out[4096], cmd[1024], ash[512];
        CHECK_OK(NULL, lcl_dense_alloc(NULL, &X, LCL_F64, LCL_COL_MAJOR, 85, 1));
        CHECK_OK(NULL, lcl_mm_write_dense(NULL, "build/t_vX.mtx", &X));
        lcl_dense_free(&X);
        CHECK(sh(LCL_BIN " spmv build/t_vA.mtx --x build/t_vX.mtx 2>&1 >/dev/null", out, sizeof out) == 2);
        /* the error line (a log line about a missing OpenCL loader may come first) */
        CHECK_MSG(strstr(out, "lcl: error: ") != NULL && strstr(strstr(out, "lcl: error: "), "200 entries") != NULL, "%s", out);
        lt_matrix_path(ash, sizeof ash, "ash219.mtx");
        snprintf(cmd, sizeof cmd, LCL_BIN " spmv %s --x build/t_vX.mtx --backend serial --json", ash);
        CHECK(sh(cmd, out, sizeof out) == 0);                                    /* 85 columns */
        snprintf(cmd, sizeof cmd, LCL_BIN " spmv %s --x build/t_vX.mtx --trans 2>&1 >/dev/null", ash);
        CHECK(sh(cmd, out, sizeof out) == 2 && strstr(out, "219 entries") != NULL);
        CHECK(sh(LCL_BIN " spmv build/t_vA.mtx --x /nonexistent.mtx 2>/dev/null", NULL, 0) == 2);
        CHECK(sh(LCL_BIN " spmv build/t_vA.mtx -o /nonexistent-dir/y.mtx 2>/dev/null", NULL, 0) == 2);
    }
    CHECK(sh("rm -f build/t_vA.mtx build/t_vX.mtx build/t_vY.mtx", NULL, 0) == 0);
}

static void test_tool_bench_spmv(void) {
    char out[65536], first[4096], cmd[1024], west[512];
    const char *p;
    int n;
    CHECK(sh("rm -f build/t_bs.csv build/t_bs.svg", NULL, 0) == 0);
    lt_matrix_path(west, sizeof west, "west0067.mtx");
    snprintf(cmd, sizeof cmd, LCL_BIN " bench spmv gen:poisson2d:10 %s --formats csr,ell,dense --backends serial "
             "--reps 2 --csv build/t_bs.csv --svg build/t_bs.svg 2>/dev/null", west);
    CHECK(sh(cmd, out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "| matrix | rows | cols | nnz | backend | csr | ell | dense | auto |") != NULL, "%s", out);
    CHECK_MSG(strstr(out, "| gen:poisson2d:10 | 100 | 100 | 460 | serial |") != NULL && strstr(out, "| west0067 | 67 | 67 |") != NULL, "%s", out);
    CHECK_MSG(strstr(out, "- [1]") != NULL && strstr(out, "\n[1] ") != NULL, "dense refuses poisson2d:10, with a footnote: %s", out);
    CHECK_MSG(strstr(out, "auto against the best format measured") != NULL, "%s", out);
    /* one CSV row per (matrix, backend, format), auto included */
    CHECK(count_lines("build/t_bs.csv", first, sizeof first) == 1 + 2 * 4 && !strncmp(first, "matrix,rows,cols,nnz,backend,device,precision", 45));
    CHECK(sh("grep -c ',refused,' build/t_bs.csv", out, sizeof out) == 0 && atoi(out) >= 1);
    CHECK(sh("grep -c ',auto,' build/t_bs.csv", out, sizeof out) == 0 && atoi(out) == 2);
    CHECK(sh("grep -c ',FAIL,' build/t_bs.csv", out, sizeof out) == 1);
    CHECK(count_lines("build/t_bs.svg", first, sizeof first) > 5 && !strncmp(first, "<svg", 4));
    CHECK(sh("tail -1 build/t_bs.svg", out, sizeof out) == 0 && !strncmp(out, "</svg>", 6));
    /* JSON: one object per measurement; every format on both CPU backends */
    CHECK(sh(LCL_BIN " bench spmv gen:dense-random:32 --backends serial,openmp --reps 1 --precision single --json 2>/dev/null", out, sizeof out) == 0);
    for (p = out, n = 0; (p = strstr(p, "{\"op\":\"bench\",\"suite\":\"spmv\"")) != NULL; p++) n++;
    CHECK_MSG(n == 2 * 10, "%s", out);
    for (p = out, n = 0; (p = strstr(p, "\"check\":\"ok\"")) != NULL; p++) n++;
    CHECK_MSG(n == 2 * 10, "%s", out);
    CHECK(sh("rm -f build/t_bs.csv build/t_bs.svg", NULL, 0) == 0);
}

/* -o, --csv and --svg are tried before any work: an unwritable path fails at once, nothing on
   stdout (the table came first, then the failure); the try leaves no file where none was and
   does not empty one that was; a value or format named twice in a list is refused */
static void test_tool_outputs_first(void) {
    char out[4096], first[256];
    static const exit_case usage[] = {
        {LCL_BIN " bench spmv gen:poisson2d:8 --formats csr,csr", 2},
        {LCL_BIN " bench spmv gen:poisson2d:8 --formats dia,cds", 2},   /* one format, two names */
        {LCL_BIN " bench spmv gen:poisson2d:8 --backends serial,openmp,serial", 2},
        {LCL_BIN " bench dense --op lu --sizes 8 --algorithms crout,blocked,crout", 2},
        {LCL_BIN " bench dense --op lu --sizes 4096 --algorithms unblocked", 2},   /* nothing to measure */
        {LCL_BIN " bench dense --op lu --sizes 3000,4096 --algorithms unblocked,crout", 2},
        /* numbers as the count options take them: no blank or '+' that strtod/strtol would skip */
        {LCL_BIN " solve gen:circuit:20 --method klu --refine ' 2'", 2},
        {LCL_BIN " solve gen:circuit:20 --method klu --refine +2", 2},
        {LCL_BIN " solve gen:circuit:20 --method klu --tol ' 0.5'", 2},
        {LCL_BIN " solve gen:circuit:20 --method klu --max-residual ' 1'", 2},
    };
    CHECK_EXITS(usage);
    CHECK(sh(LCL_BIN " solve gen:circuit:20 --method klu --refine -1 --tol 0.5 --max-residual 1e-6 >/dev/null 2>&1", NULL, 0) == 0);
    CHECK(sh(LCL_BIN " bench dense --op lu --sizes 4096 --algorithms unblocked 2>&1 >/dev/null", out, sizeof out) == 2 &&
          strstr(out, "nothing to measure") != NULL);
    CHECK(sh(LCL_BIN " bench spmv gen:poisson2d:8 --formats csr,ell --backends serial,openmp --reps 1 2>/dev/null", out, sizeof out) == 0);
    CHECK(sh("rm -f build/t_of.mtx build/t_of.csv && echo keep > build/t_of.txt", NULL, 0) == 0);
    CHECK(sh(LCL_BIN " bench spmv gen:poisson2d:8 --backends serial --reps 1 --csv /nonexistent-dir/r.csv 2>/dev/null", out, sizeof out) == 2);
    CHECK_MSG(out[0] == 0, "stdout before the failure: %s", out);
    CHECK(sh(LCL_BIN " bench dense --op lu --sizes 8 --backend serial --svg /nonexistent-dir/r.svg 2>&1 >/dev/null", out, sizeof out) == 2);
    CHECK_MSG(strstr(out, "cannot write /nonexistent-dir/r.svg (--svg)") != NULL && strstr(out, "bench: n = 8") == NULL, "%s", out);
    CHECK(sh(LCL_BIN " solve gen:poisson2d:8 --method klu --backend serial -o /nonexistent-dir/x.mtx 2>/dev/null", out, sizeof out) == 2 && out[0] == 0);
    /* writable: the try leaves nothing behind when the command fails later, keeps what was there */
    CHECK(sh(LCL_BIN " solve /nonexistent.mtx --method klu -o build/t_of.mtx 2>/dev/null", NULL, 0) == 2);
    CHECK(sh("test -e build/t_of.mtx", NULL, 0) != 0);
    CHECK(sh(LCL_BIN " bench spmv /nonexistent.mtx --csv build/t_of.txt 2>/dev/null", NULL, 0) == 2);
    CHECK(count_lines("build/t_of.txt", first, sizeof first) == 1 && !strcmp(first, "keep\n"));
    CHECK(sh(LCL_BIN " bench spmv gen:poisson2d:8 --backends serial --formats csr --reps 1 --csv build/t_of.csv 2>/dev/null", NULL, 0) == 0);
    CHECK(count_lines("build/t_of.csv", first, sizeof first) == 3);
    /* a FIFO is not opened by the try (it would end the reader's input before the real write):
       the reader gets the whole y */
    if (sh("rm -f build/t_of.fifo && mkfifo build/t_of.fifo", NULL, 0) == 0) {
        CHECK(sh("(cat build/t_of.fifo > build/t_of.mtx &) ; timeout 60 " LCL_BIN " spmv gen:poisson2d:4 --backend serial -o build/t_of.fifo "
                 ">/dev/null 2>&1; sleep 1; head -1 build/t_of.mtx; tail -n +3 build/t_of.mtx | wc -l", out, sizeof out) == 0);
        CHECK_MSG(!strncmp(out, "%%MatrixMarket", 14) && strstr(out, "\n16\n") != NULL, "%s", out);
        {   /* a reader still waiting (the write never came) gets its end of file */
            int fd = open("build/t_of.fifo", O_WRONLY | O_NONBLOCK);
            if (fd >= 0) close(fd);
        }
    }
    CHECK(sh(LCL_BIN " spmv gen:poisson2d:4 --backend serial -o build 2>&1", out, sizeof out) == 2 && strstr(out, "it is a directory"));
    CHECK(sh("rm -f build/t_of.mtx build/t_of.csv build/t_of.txt build/t_of.fifo", NULL, 0) == 0);
}

static void test_tool_spmv_opencl(void) {
    char out[65536], args[1280];
    int p, f, rc;
    static const char *const fmts[5] = {"csr", "ell", "sell", "coo", "csc"};   /* poisson3d: short rows, every one fits */
    if (sh(LCL_BIN " info --json", out, sizeof out) != 0 || !strstr(out, "\"index\":0")) { lt_skip("no OpenCL device"); return; }
    for (p = 0; p < 2; p++) {
        if (!p && !strstr(out, "\"fp64\":true")) continue;
        for (f = 0; f < 6; f++) {   /* and csc's A^T x */
            snprintf(args, sizeof args, "gen:poisson3d:15 --backend opencl --format %s --precision %s --reps 3%s", fmts[f < 5 ? f : 4],
                     p ? "single" : "double", f == 5 ? " --trans" : "");
            rc = spmv_json(args, fmts[f < 5 ? f : 4], p ? 1e-5 : 1e-14, 3375, 3375, 7 * 3375 - 6 * 225);
            CHECK_MSG(rc == 0, "%s -> %d", args, rc);
        }
        {   /* rectangular (ash219: 219 x 85): y on the device has the rows' length, not x's */
            char ash[1024];
            lt_matrix_path(ash, sizeof ash, "ash219.mtx");
            for (f = 0; f < 4; f++) {
                snprintf(args, sizeof args, "%s --backend opencl --format %s --precision %s%s", ash, f < 2 ? "csr" : "ell",
                         p ? "single" : "double", f % 2 ? " --trans" : "");
                rc = spmv_json(args, f < 2 ? "csr" : "ell", p ? 1e-5 : 1e-14, 219, 85, 438);
                CHECK_MSG(rc == 0, "%s -> %d", args, rc);
            }
        }
    }
}

static void test_example_spmv_formats(void) {
    char out[65536];
    CHECK(sh("build/spmv_formats 2>&1", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "all products ok") != NULL && strstr(out, "WRONG") == NULL, "%s", out);
    /* without OpenCL: the CPU backends only, still exit 0 */
    CHECK(sh("LCL_OPENCL_LIBRARY=/nonexistent build/spmv_formats 2>&1", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "opencl: skipped") != NULL && strstr(out, "all products ok") != NULL, "%s", out);
}

static void test_example_circuit_transient(void) {
    char out[16384];
    CHECK(sh("build/circuit_transient 2>&1", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "Newton converged at every step") != NULL && strstr(out, "refactors:") != NULL, "%s", out);
}

static void test_example_reaction_diffusion(void) {
    char out[16384], info[65536];
    CHECK(sh("build/reaction_diffusion 2>&1", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "all checks ok") != NULL && strstr(out, "1 factor, ") != NULL, "%s", out);
    CHECK(sh("build/reaction_diffusion serial 2>&1", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "all checks ok") != NULL && strstr(out, "on the host's cores") != NULL, "%s", out);
    CHECK(sh("build/reaction_diffusion bogus 2>&1", out, sizeof out) == 1);
    CHECK_MSG(strstr(out, "usage:") != NULL, "%s", out);
    /* the device path: the OpenCL backend asked for (auto factors on the host with a CPU device) */
    if (sh(LCL_BIN " info --json", info, sizeof info) != 0 || !strstr(info, "\"index\":0") || !strstr(info, "\"fp64\":true")) {
        lt_skip("no OpenCL device with double precision");
        return;
    }
    CHECK(sh("build/reaction_diffusion opencl 2>&1", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "all checks ok") != NULL && strstr(out, "OpenCL device(s)") != NULL, "%s", out);
}

static void test_example_dense_solve(void) {
    char out[16384];
    CHECK(sh("build/dense_solve 2>&1", out, sizeof out) == 0);
    CHECK_MSG(strstr(out, "all residuals ok") != NULL, "%s", out);
    CHECK_MSG(strstr(out, "kept on the devices") != NULL && (strstr(out, "device(s): max |x - 1|") || strstr(out, "skipped")), "%s", out);
}

static void test_compile_matrix(void) {
    /* gcc and clang, C and C++, with and without OpenCL and OpenMP: tests/compile_matrix.sh says which */
    const char *skip = getenv("LT_SKIP_COMPILE_MATRIX");
    if (skip && skip[0] == '1') { lt_skip("LT_SKIP_COMPILE_MATRIX=1"); return; }
    CHECK(sh("sh tests/compile_matrix.sh >&2", NULL, 0) == 0);
}

void lt_suite_tool(void) {
    LT_RUN(test_tool_sh_pocl_again);
    LT_RUN(test_tool_usage_errors);
    LT_RUN(test_tool_backend_unavailable);
    LT_RUN(test_tool_info_json);
    LT_RUN(test_tool_gen_stat);
    LT_RUN(test_tool_demo);
    LT_RUN(test_tool_solve_gen);
    LT_RUN(test_tool_solve_rhs_roundtrip);
    LT_RUN(test_tool_solve_shared);
    LT_RUN(test_tool_solve_failures);
    LT_RUN(test_tool_solve_opencl);
    LT_RUN(test_tool_bench_dense);
    LT_RUN(test_tool_solve_klu);
    LT_RUN(test_tool_bench_klu);
    LT_RUN(test_tool_solve_bklu);
    LT_RUN(test_tool_bench_bklu);
    LT_RUN(test_tool_spmv_usage);
    LT_RUN(test_tool_vector_files);
    LT_RUN(test_tool_spmv_json);
    LT_RUN(test_tool_spmv_roundtrip);
    LT_RUN(test_tool_bench_spmv);
    LT_RUN(test_tool_outputs_first);
    LT_RUN(test_tool_spmv_opencl);
    LT_RUN(test_example_dense_solve);
    LT_RUN(test_example_spmv_formats);
    LT_RUN(test_example_circuit_transient);
    LT_RUN(test_example_reaction_diffusion);
    LT_RUN(test_compile_matrix);
}
