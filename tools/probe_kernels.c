/* probe_kernels.c -- which kernel of kernels/dense.cl makes an OpenCL compiler abort (PoCL 5 did):
   each one is built alone in a child process, and its binary asked for (PoCL then compiles the
   work-group functions). Run from the repository root: cc -I. tools/probe_kernels.c -ldl -lpthread -lm */
#define _POSIX_C_SOURCE 200809L
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>
static char src[1 << 20];
static const char *names[] = {"lcl_gemm", "lcl_laswp", "lcl_transpose", "lcl_nonfinite", "lcl_panel_step",
  "lcl_trtri_lower", "lcl_trsm_llu", "lcl_trsm_rlt", "lcl_potf2_local", "lcl_trsm_left"};
#define NK (int)(sizeof names / sizeof names[0])
/* [start, end) of kernel i in s */
static void span(const char *s, const char *name, size_t *a, size_t *b) {
  char pat[96]; const char *p, *k, *q; int depth = 0;
  snprintf(pat, sizeof pat, "void SFX(%s)(", name);
  p = strstr(s, pat);
  for (k = p; k > s && strncmp(k, "__kernel", 8); k--) {}
  q = strchr(p, '{');
  for (; *q; q++) { if (*q == '{') depth++; if (*q == '}' && --depth == 0) { q++; break; } }
  *a = (size_t)(k - s); *b = (size_t)(q - s);
}
int main(void) {
  FILE *f = fopen("kernels/dense.cl", "rb"); size_t n = fread(src, 1, sizeof src - 1, f); fclose(f); src[n] = 0;
  int i, j, dt;
  for (dt = 0; dt < 2; dt++)
  for (i = 0; i < NK; i++) {
    pid_t p = fork();
    if (p == 0) {
      static char s2[1 << 20]; size_t a[NK], b[NK];
      strcpy(s2, src);
      for (j = 0; j < NK; j++) span(src, names[j], &a[j], &b[j]);
      for (j = 0; j < NK; j++) if (j != i) memset(s2 + a[j], ' ', b[j] - a[j]);
      lcl_context *ctx; lcl_context_desc d; memset(&d, 0, sizeof d); d.backend = LCL_BACKEND_OPENCL; d.device = "cpu"; d.ignore_env = 1;
      if (lcl_context_create(&d, &ctx)) { printf("ctx: %s\n", lcl_last_error(ctx)); _exit(3); }
      lcl__device *dv = &ctx->dev[0]; cl_int e; const char *sp = s2; char opts[512]; size_t bs = 0;
      lcl__build_options(ctx, dv, dt ? LCL_F32 : LCL_F64, opts, sizeof opts);
      cl_program pr = LCL__CL->clCreateProgramWithSource(dv->cl, 1, &sp, NULL, &e);
      e = LCL__CL->clBuildProgram(pr, 1, &dv->id, opts, NULL, NULL);
      if (e) { printf("build %d\n", e); _exit(4); }
      LCL__CL->clGetProgramInfo(pr, CL_PROGRAM_BINARY_SIZES, sizeof bs, &bs, NULL);
      { unsigned char *bin = malloc(bs), *bins[1] = {bin}; LCL__CL->clGetProgramInfo(pr, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL); }
      _exit(0);
    }
    int stt; waitpid(p, &stt, 0);
    printf("%s_%s: %s\n", names[i], dt ? "f" : "d", WIFSIGNALED(stt) ? "CRASH" : WEXITSTATUS(stt) ? "error" : "ok");
    fflush(stdout);
  }
  return 0;
}
