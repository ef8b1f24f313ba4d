/* impl.c -- the linalg_cl implementation for the fuzz harnesses fuzz_mm and fuzz_sparse
   (fuzz_args takes it from tools/lcl/impl.c instead). Serial backend only: no OpenCL loader, no
   OpenMP, so every run is fast and deterministic. */
#ifndef LINALG_CL_NO_OPENCL
#define LINALG_CL_NO_OPENCL
#endif
#define LINALG_CL_IMPLEMENTATION
#include "fuzz.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* what both harnesses share: one serial context and up to two per-process temporary files,
   removed (and the context destroyed) at exit */
static const char *fuzz_who;
static lcl_context *fuzz_ctx;
static char fuzz_in[256], fuzz_out[256];
static void fuzz_cleanup(void) {
    if (fuzz_in[0]) remove(fuzz_in);
    if (fuzz_out[0]) remove(fuzz_out);
    lcl_context_destroy(fuzz_ctx);
}
lcl_context *lcl_fuzz_setup(const char *who, char *in, char *out, size_t cap) {
    lcl_context_desc d;
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    d.ignore_env = 1;
    fuzz_who = who;
    if (lcl_context_create(&d, &fuzz_ctx) != LCL_OK) {
        fprintf(stderr, "%s: cannot create a serial context\n", who);
        abort();
    }
    if (in) snprintf(in, cap, "/tmp/lcl_%s_%ld_in.mtx", who, (long)getpid());
    if (out) snprintf(out, cap, "/tmp/lcl_%s_%ld_out.mtx", who, (long)getpid());
    snprintf(fuzz_in, sizeof fuzz_in, "%s", in ? in : "");
    snprintf(fuzz_out, sizeof fuzz_out, "%s", out ? out : "");
    atexit(fuzz_cleanup);
    return fuzz_ctx;
}
void lcl_fuzz_fail(const char *file, int line, const char *what) {
    fprintf(stderr, "%s: check failed at %s:%d: %s\n  last error: %s\n", fuzz_who, file, line, what, lcl_last_error(fuzz_ctx));
    abort();
}
