/* impl.c -- the implementation translation unit of the compile matrix (built as C and C++). */
#define LINALG_CL_IMPLEMENTATION
#include "../../linalg_cl.h"
