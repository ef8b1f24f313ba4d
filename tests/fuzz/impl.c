/* impl.c -- the linalg_cl implementation for the fuzz harnesses fuzz_mm and fuzz_sparse
   (fuzz_args takes it from tools/lcl/impl.c instead). Serial backend only: no OpenCL loader, no
   OpenMP, so every run is fast and deterministic. */
#ifndef LINALG_CL_NO_OPENCL
#define LINALG_CL_NO_OPENCL
#endif
#define LINALG_CL_IMPLEMENTATION
#include "../../linalg_cl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the serial context both harnesses run in; `who` names the harness in the message */
lcl_context *lcl_fuzz_context(const char *who) {
    lcl_context_desc d;
    lcl_context *ctx = NULL;
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    d.ignore_env = 1;
    if (lcl_context_create(&d, &ctx) != LCL_OK) {
        fprintf(stderr, "%s: cannot create a serial context\n", who);
        abort();
    }
    return ctx;
}
