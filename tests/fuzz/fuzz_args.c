/* fuzz_args.c -- libFuzzer harness for the lcl tool's argument parser.

   The input is split on NUL bytes into at most 64 argument strings (argv[0] = "lcl"), and
   lcl_tool_parse_only parses the options, the command word and its positional arguments without
   running anything. It must return 0 or 2, agree with an independent model of the core command
   line wherever the arguments stay inside it, and free all it allocated (LeakSanitizer).
   The parse is run twice: the result must not depend on state left by the first run.
   Built with the files of tools/lcl/ (-DLCL_TOOL_NO_MAIN), whose impl.c provides the library implementation. */
#include "../../tools/lcl_tool.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXARGS 64

static int ieq(const char *a, const char *b) {
    for (; *a && *b; a++, b++) {
        int x = (*a >= 'A' && *a <= 'Z') ? *a + 32 : *a, y = (*b >= 'A' && *b <= 'Z') ? *b + 32 : *b;
        if (x != y) return 0;
    }
    return *a == *b;
}

/* An independent model of the core command line (README, lcl --help): the commands info, gen,
   stat, demo, help, --version and the options every command takes. It gives the exit code a
   usage check must give, or -1 when the arguments leave the core (another command, or an option
   the model does not know before any error): commands and options are added over time, and there
   only 0/2, repeatability and leaks are checked. --seed takes a decimal number below 2^64. */
static int model(int argc, char **argv) {
    const char *cmd;
    int i, npos = 0, has_out = 0;
    size_t speclen = 0;
    if (argc < 2) return 2;
    cmd = argv[1];
    if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help") || !strcmp(cmd, "help") || !strcmp(cmd, "--version")) return 0;
    for (i = 2; i < argc; i++) {
        const char *a = argv[i], *v;
        if (!strcmp(a, "--backend") || !strcmp(a, "--device") || !strcmp(a, "--precision") || !strcmp(a, "--seed") ||
            !strcmp(a, "-o")) {
            if (i + 1 >= argc) return 2;
            v = argv[++i];
            if (!strcmp(a, "--backend") && !ieq(v, "serial") && !ieq(v, "openmp") && !ieq(v, "opencl") && !ieq(v, "auto"))
                return 2;
            if (!strcmp(a, "--precision") && strcmp(v, "double") && strcmp(v, "f64") && strcmp(v, "single") &&
                strcmp(v, "float") && strcmp(v, "f32"))
                return 2;
            if (!strcmp(a, "--seed")) {
                const char *p = v;
                uint64_t s = 0;
                if (!*p) return 2;
                for (; *p; p++) {
                    if (*p < '0' || *p > '9') return 2;
                    if (s > (UINT64_MAX - (uint64_t)(*p - '0')) / 10) return 2;
                    s = s * 10 + (uint64_t)(*p - '0');
                }
            }
            if (!strcmp(a, "-o")) has_out = 1;
        } else if (!strcmp(a, "--json")) {
        } else if (a[0] == '-' && a[1]) {
            return -1;                  /* an unknown option, or one outside the core */
        } else {
            speclen += strlen(a) + (npos ? 1 : 0);
            npos++;
        }
    }
    if (!strcmp(cmd, "info") || !strcmp(cmd, "demo")) return 0;
    if (!strcmp(cmd, "gen")) return npos >= 1 && has_out && speclen + 2 <= 4096 ? 0 : 2;
    if (!strcmp(cmd, "stat")) return npos >= 1 ? 0 : 2;
    return -1;                          /* another command */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char *buf, *argv[MAXARGS + 2];
    int argc = 0, code, again, want;
    size_t k, start = 0;
    buf = (char *)malloc(size + 1);
    if (!buf) return 0;
    if (size) memcpy(buf, data, size);
    buf[size] = 0;
    argv[argc++] = (char *)"lcl";
    for (k = 0; k <= size && argc < MAXARGS + 1; k++) {
        if (k == size || buf[k] == 0) {
            if (k == size && k == start && size > 0) break;    /* a trailing NUL ends the list */
            argv[argc++] = buf + start;
            start = k + 1;
        }
    }
    argv[argc] = NULL;
    if (size == 0) argc = 1;                                    /* empty input: no arguments */
    code = lcl_tool_parse_only(argc, argv);
    if (code != 0 && code != 2) {
        fprintf(stderr, "fuzz_args: lcl_tool_parse_only returned %d\n", code);
        abort();
    }
    want = model(argc, argv);
    if (want >= 0 && code != want) {
        int k2;
        fprintf(stderr, "fuzz_args: lcl_tool_parse_only returned %d, the model %d for:", code, want);
        for (k2 = 1; k2 < argc; k2++) fprintf(stderr, " '%s'", argv[k2]);
        fprintf(stderr, "\n");
        abort();
    }
    again = lcl_tool_parse_only(argc, argv);
    if (again != code) {
        fprintf(stderr, "fuzz_args: lcl_tool_parse_only not repeatable: %d then %d\n", code, again);
        abort();
    }
    free(buf);
    return 0;
}
