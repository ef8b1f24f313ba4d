/* test_tool.c -- the lcl command as a user runs it: exit codes, JSON, gen, stat, demo, and the
   compile matrix (tests/compile_matrix.sh). */
#define _POSIX_C_SOURCE 200809L
#include "lt.h"
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define LCL_BIN "build/lcl"

/* runs a shell command, captures stdout into out (may be NULL), returns the exit code */
static int sh(const char *cmd, char *out, size_t cap) {
    FILE *p = popen(cmd, "r");
    size_t n = 0;
    int rc;
    if (!p) return -1;
    if (out) {
        size_t got;
        while (n + 1 < cap && (got = fread(out + n, 1, cap - 1 - n, p)) > 0) n += got;
        out[n] = 0;
    }
    { char sink[4096]; while (fread(sink, 1, sizeof sink, p) > 0) {} }
    rc = pclose(p);
    return rc == -1 ? -1 : WEXITSTATUS(rc);
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

static void test_tool_usage_errors(void) {
    char out[4096];
    CHECK(sh(LCL_BIN " 2>/dev/null", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " --help", out, sizeof out) == 0 && strstr(out, "usage: lcl") != NULL);
    CHECK(sh(LCL_BIN " frobnicate 2>/dev/null", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " info --bogus 2>/dev/null", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " info --backend cuda 2>/dev/null", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " info --precision quad 2>/dev/null", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " gen --seed 2>/dev/null", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " gen poisson2d 4 --seed -3 -o build/x.mtx 2>/dev/null", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " gen poisson2d 4 2>/dev/null", NULL, 0) == 2);            /* no -o */
    CHECK(sh(LCL_BIN " gen nosuchkind 4 -o build/x.mtx 2>/dev/null", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " gen poisson2d abc -o build/x.mtx 2>/dev/null", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " stat 2>/dev/null", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " stat /nonexistent.mtx 2>/dev/null", NULL, 0) == 2);
    CHECK(sh(LCL_BIN " stat tests/data/bad/complex.mtx 2>/dev/null", NULL, 0) == 2);
    /* the message format */
    CHECK(sh(LCL_BIN " stat /nonexistent.mtx 2>&1 >/dev/null", out, sizeof out) == 2 && !strncmp(out, "lcl: error: ", 12));
}

static void test_tool_backend_unavailable(void) {
    CHECK(sh("LCL_OPENCL_LIBRARY=/nonexistent " LCL_BIN " demo --backend opencl >/dev/null 2>&1", NULL, 0) == 3);
    CHECK(sh(LCL_BIN " demo --device no-such-device-xyz >/dev/null 2>&1", NULL, 0) == 3);
    /* auto on a machine without OpenCL still works, on the CPU */
    CHECK(sh("LCL_OPENCL_LIBRARY=/nonexistent " LCL_BIN " demo >/dev/null 2>&1", NULL, 0) == 0);
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
    CHECK(sh("LCL_OPENCL_LIBRARY=/nonexistent " LCL_BIN " info --json", out, sizeof out) == 0);
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
    /* a shared real matrix: west0067 is 67x67 with 294 entries, unsymmetric */
    {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, LCL_BIN " stat %s/matrices/west0067.mtx --json", lt_shared);
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
        char cmd[1024];
        snprintf(cmd, sizeof cmd, LCL_BIN " gen hb %s/matrices/west0067.mtx 3 -o build/t_hb.mtx && " LCL_BIN " stat build/t_hb.mtx --json", lt_shared);
        CHECK(sh(cmd, out, sizeof out) == 0);
        CHECK(json_num(out, "rows", &v) && v == 67 * 3);
        CHECK(json_num(out, "nnz", &v) && v == 294 * 9);
    }
    CHECK(sh(LCL_BIN " stat build/t_p3.mtx --json", out, sizeof out) == 0);
    CHECK(json_num(out, "nnz", &v) && v == 7 * 125 - 6 * 25);
    CHECK(sh(LCL_BIN " gen poisson2d 4 -o /nonexistent-dir/x.mtx 2>/dev/null", NULL, 0) == 2);
    CHECK(sh("rm -f build/t_*.mtx", NULL, 0) == 0);
}

static void test_tool_demo(void) {
    char out[16384];
    CHECK(sh(LCL_BIN " demo 2>&1", out, sizeof out) == 0);
    CHECK(strstr(out, "WRONG") == NULL);
    CHECK(strstr(out, "serial  double exact") != NULL);
    CHECK(strstr(out, "openmp  single exact") != NULL);
}

static void test_compile_matrix(void) {
    /* every compiler x standard x {OpenCL, no OpenCL} x {OpenMP, none} builds warning-free and runs */
    const char *skip = getenv("LT_SKIP_COMPILE_MATRIX");
    if (skip && skip[0] == '1') { lt_skip("LT_SKIP_COMPILE_MATRIX=1"); return; }
    CHECK(sh("sh tests/compile_matrix.sh >&2", NULL, 0) == 0);
}

void lt_suite_tool(void) {
    LT_RUN(test_tool_usage_errors);
    LT_RUN(test_tool_backend_unavailable);
    LT_RUN(test_tool_info_json);
    LT_RUN(test_tool_gen_stat);
    LT_RUN(test_tool_demo);
    LT_RUN(test_compile_matrix);
}
