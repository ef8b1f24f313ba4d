/* impl.c -- the linalg_cl implementation for the fuzz harnesses fuzz_mm and fuzz_sparse
   (fuzz_args takes it from tools/lcl.c instead). Serial backend only: no OpenCL loader, no
   OpenMP, so every run is fast and deterministic. */
#ifndef LINALG_CL_NO_OPENCL
#define LINALG_CL_NO_OPENCL
#endif
#define LINALG_CL_IMPLEMENTATION
#include "../../linalg_cl.h"
