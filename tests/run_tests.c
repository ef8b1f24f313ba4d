/* run_tests.c -- the test runner: every suite, one process; subprocess checks re-run this binary
   with --child NAME. Last line: "N passed, N failed, N skipped". LT_FILTER=substr picks tests. */
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include "lt.h"
#include <stdlib.h>

int lt_checks_failed;
const char *lt_shared = "../shared";
const char *lt_self = "build/run_tests";
static int passed, failed, skipped;
static char failed_names[4096];

int lt_selected(const char *name) {
    const char *f = getenv("LT_FILTER");
    return !f || !f[0] || strstr(name, f) != NULL;
}
void lt_skip(const char *why) { lt_checks_failed = -1000000; fprintf(stderr, "  skipped: %s\n", why); }
void lt_run(const char *name, void (*fn)(void)) {
    if (!lt_selected(name)) return;
    lt_checks_failed = 0;
    fprintf(stderr, "%s\n", name);
    fn();
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
int lt_child(const char *name);

int main(int argc, char **argv) {
    const char *sh = getenv("LCL_SHARED");
    if (sh && sh[0]) lt_shared = sh;
    lt_self = argv[0];
    if (argc >= 3 && !strcmp(argv[1], "--child")) return lt_child(argv[2]);
    lt_suite_core();
    lt_suite_mm();
    lt_suite_gen();
    lt_suite_tool();
    if (failed) fprintf(stderr, "failed:%s\n", failed_names);
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    return failed ? 1 : 0;
}
