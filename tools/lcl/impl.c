/* impl.c -- the one translation unit of the tool that holds the library's implementation and
   stb_ds's (the other files see declarations only). */
#define _POSIX_C_SOURCE 200809L
#define LINALG_CL_IMPLEMENTATION
#include "../../linalg_cl.h"
#define STB_DS_IMPLEMENTATION
#include <stb_ds.h>
