/* bench_mmio.c -- Matrix Market read speed (MB/s of text), against a plain fscanf reader in the
   same run. Usage: bench_mmio [SPEC...]  (default: two generated matrices written to build/). */
#include "bench_common.h"
#define LINALG_CL_IMPLEMENTATION
#include "../linalg_cl.h"
#include "lcl_gen.h"
#include <sys/stat.h>

/* the reference: what a user writes in ten lines with fscanf (no checks beyond the count) */
static int64_t read_fscanf(const char *path) {
    FILE *f = fopen(path, "r");
    char line[1024];
    long long r, c, n, i, a, b;
    double v;
    int64_t got = 0;
    if (!f) return -1;
    do { if (!fgets(line, sizeof line, f)) { fclose(f); return -1; } } while (line[0] == '%');
    if (sscanf(line, "%lld %lld %lld", &r, &c, &n) != 3) { fclose(f); return -1; }
    for (i = 0; i < n; i++) {
        if (fscanf(f, "%lld %lld %lf", &a, &b, &v) != 3) break;
        got++;
    }
    fclose(f);
    return got;
}

int main(int argc, char **argv) {
    const char *defaults[2] = {"poisson3d:100", "powerlaw:1000000:8"};
    const char **specs = argc > 1 ? (const char **)(argv + 1) : defaults;
    int nspecs = argc > 1 ? argc - 1 : 2, s, r;
    lcl_context *ctx = NULL;
    char err[512];
    lcl_context_create(NULL, &ctx);
    printf("| matrix | file MB | nnz | lcl_mm_read MB/s | fscanf MB/s | ratio |\n|---|---|---|---|---|---|\n");
    for (s = 0; s < nspecs; s++) {
        char path[512];
        struct stat stt;
        double t_l[3], t_f[3], mb, ml, mf;
        lcl_coo A;
        int64_t nnz = 0;
        snprintf(path, sizeof path, "build/bench_%s.mtx", specs[s]);
        for (r = 0; path[r]; r++) if (path[r] == ':') path[r] = '_';
        if (stat(path, &stt) != 0) {
            fprintf(stderr, "generating %s ...\n", path);
            if (lclg_gen_file(ctx, specs[s], 1, path, err, sizeof err) != LCL_OK) { fprintf(stderr, "%s\n", err); return 1; }
            stat(path, &stt);
        }
        mb = (double)stt.st_size / 1e6;
        for (r = 0; r < 3; r++) {
            double t0 = now();
            if (lcl_mm_read(ctx, path, LCL_F64, 0, &A, NULL) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); return 1; }
            t_l[r] = now() - t0;
            nnz = A.nnz;
            lcl_coo_free(&A);
            t0 = now();
            if (read_fscanf(path) <= 0) { fprintf(stderr, "fscanf reader failed on %s\n", path); return 1; }
            t_f[r] = now() - t0;
        }
        ml = median(t_l, 3);
        mf = median(t_f, 3);
        printf("| %s | %.1f | %lld | %.0f | %.0f | %.2fx |\n", specs[s], mb, (long long)nnz, mb / ml, mb / mf, mf / ml);
        fflush(stdout);
    }
    lcl_context_destroy(ctx);
    return 0;
}
