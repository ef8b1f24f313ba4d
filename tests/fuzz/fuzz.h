/* fuzz.h -- what the harnesses fuzz_mm and fuzz_sparse share; defined in impl.c */
#ifndef LCL_FUZZ_H
#define LCL_FUZZ_H
#include "../../linalg_cl.h"
#include <stddef.h>
/* one serial context; in and out (either may be NULL) get per-process temporary file names,
   /tmp/lcl_WHO_PID_in.mtx and _out.mtx; both files are removed and the context destroyed at exit */
lcl_context *lcl_fuzz_setup(const char *who, char *in, char *out, size_t cap);
/* a failed check: where, what and the context's last error, then abort */
void lcl_fuzz_fail(const char *file, int line, const char *what);
#define CHECK(c) do { if (!(c)) lcl_fuzz_fail(__FILE__, __LINE__, #c); } while (0)
#endif
