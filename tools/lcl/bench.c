/* bench.c -- lcl bench dense (LU / Cholesky GF/s per size, backend and algorithm) and lcl bench
   spmv (M nnz/s per matrix, backend and format, auto against the best format): a Markdown table
   on stdout (or JSON lines), progress on stderr, optionally CSV and an SVG chart. The matrix
   lists and labels here serve bench klu (klu.c) too. */
#include "lcl.h"
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BENCH_UNBLOCKED_MAX 2048                /* unblocked algorithms stop here unless --force */

/* every backend compiled in, or the one --backend / --device / --split asks for: the count */
static int default_backends(const opts *o, lcl_backend *want) {
    int nb = 0;
    if (o->backend_set || o->device || o->split) want[nb++] = o->backend_set ? o->backend : LCL_BACKEND_OPENCL;
    else {
        want[nb++] = LCL_BACKEND_SERIAL;
        if (lcl_backend_compiled(LCL_BACKEND_OPENMP)) want[nb++] = LCL_BACKEND_OPENMP;
        if (lcl_backend_compiled(LCL_BACKEND_OPENCL)) want[nb++] = LCL_BACKEND_OPENCL;
    }
    return nb;
}

/* A context per backend of want[], programs built where the suite's work (dense: lcl_dense_backend)
   runs on OpenCL, before anything is measured. A backend the user asked for that fails ends the
   run (-> its exit code); the defaults that fail are skipped (ctxs[b] NULL), with a note. */
static int open_contexts(const opts *o, const lcl_backend *want, int nb, int asked, int dense, lcl_context **ctxs) {
    int b, code;
    for (b = 0; b < nb; b++) {
        lcl_context_desc d;
        lcl_status st;
        memset(&d, 0, sizeof d);
        d.backend = want[b];
        d.device = o->device;
        d.log = asked ? log_stderr : NULL;
        st = lcl_context_create(&d, &ctxs[b]);
        if (st == LCL_OK && (dense ? lcl_dense_backend(ctxs[b]) : lcl_context_backend(ctxs[b])) == LCL_BACKEND_OPENCL)
            st = lcl_context_prepare(ctxs[b], o->dtype);
        if (st == LCL_OK && o->split && (code = split_check(ctxs[b])) >= 0) return code;
        if (st != LCL_OK) {
            if (asked) return fail(exit_code(st), "%s", lcl_last_error(ctxs[b]));
            fprintf(stderr, "bench: %s skipped: %s\n", lcl_backend_name(want[b]), lcl_last_error(ctxs[b]));
            lcl_context_destroy(ctxs[b]);
            ctxs[b] = NULL;
        }
    }
    return -1;
}

/* ---- bench dense ---- */
int check_bench_dense(const opts *o) {
    int algs[MAX_ALGS], na, k;
    if (arrlen(o->pos) != 1)
        return fail(EXIT_USAGE, "bench dense takes no MATRIX (it generates its own, --sizes), got '%s'", o->pos[1]);
    if (!o->op) return fail(EXIT_USAGE, "bench dense needs --op lu|cholesky");
    na = o->algorithms ? parse_algs(o->algorithms, algs, MAX_ALGS) : 0;
    for (k = 0; k < na; k++)
        if (!alg_fits(method_parse(o->op), algs[k]))
            return fail(EXIT_USAGE, "--algorithms: %s is for --op cholesky (lu: auto, blocked, unblocked, crout)", alg_names[algs[k]]);
    return -1;
}

typedef struct bench_row {
    int64_t n;
    char backend[16], device[128], msg[256];
    int alg;
    double t_median, t_min, gflops, residual;
    lcl_status st;
    int ok;
} bench_row;

/* warm-up + reps factorizations of a fresh copy (only the factorization is timed), then one solve
   against b = A x*, checked on the host in double. host -1: the copy is a device matrix (lcl_dmat);
   -2: a device matrix split over the devices (lcl_dmat_upload_split, solved where it lies); else
   host arrays with opts.device = host - 1 (0: device 0, -1: split),
   transfers timed. */
static void bench_one(lcl_context *ctx, int chol, int alg, long block, long reps, int host, const dense_system *c, bench_row *row) {
    lcl_dmat *M = NULL, *MB = NULL;
    lcl_dense_opts dopt;
    lcl_dense Bx, F;
    int64_t n = c->A.rows, info = 0;
    double *times = (double *)malloc((size_t)reps * sizeof *times);
    int32_t *ipiv = (int32_t *)malloc((size_t)(n + 1) * sizeof *ipiv);
    lcl_status st = LCL_OK;
    long r;
    memset(&dopt, 0, sizeof dopt);
    memset(&Bx, 0, sizeof Bx);
    memset(&F, 0, sizeof F);
    dopt.alg = (lcl_dense_alg)alg;
    dopt.block = (int)block;
    dopt.device = host > 0 ? host - 1 : 0;
    row->residual = HUGE_VAL;
    if (!times || !ipiv) { st = LCL_ERR_OUT_OF_MEMORY; snprintf(row->msg, sizeof row->msg, "out of memory"); goto done; }
    if (host >= 0 && (st = lcl_dense_alloc(ctx, &F, c->Aw.dtype, LCL_COL_MAJOR, n, n)) != LCL_OK) goto fail;
    for (r = 0; r <= reps; r++) {
        double t0;
        lcl_dmat_free(M);
        M = NULL;
        if (host >= 0) memcpy(F.data, c->Aw.data, (size_t)(n * n) * (c->Aw.dtype == LCL_F64 ? sizeof(double) : sizeof(float)));
        else if ((st = host == -2 ? lcl_dmat_upload_split(ctx, &c->Aw, (int)block, &M) : lcl_dmat_upload(ctx, &c->Aw, &M)) != LCL_OK) break;
        t0 = now_s();
        if (host >= 0) st = chol ? lcl_potrf(ctx, LCL_LOWER, &F, &info, &dopt) : lcl_getrf(ctx, &F, ipiv, &info, &dopt);
        else st = chol ? lcl_dmat_potrf(ctx, LCL_LOWER, M, &info, &dopt) : lcl_dmat_getrf(ctx, M, ipiv, &info, &dopt);
        if (r > 0) times[r - 1] = now_s() - t0;
        if (st != LCL_OK) break;
    }
    if (st == LCL_OK && host >= 0) st = lcl_dmat_upload(ctx, &F, &M);   /* the factors, solved as below */
    if (st == LCL_OK) {
        row->t_median = median(times, reps);     /* sorts times */
        row->t_min = times[0];
        row->gflops = row->t_median > 0 ? (chol ? 1.0 / 3.0 : 2.0 / 3.0) * (double)n * (double)n * (double)n / row->t_median * 1e-9 : 0;
        if ((st = lcl_dmat_upload(ctx, &c->Bw, &MB)) == LCL_OK &&
            (st = chol ? lcl_dmat_potrs(ctx, LCL_LOWER, M, MB) : lcl_dmat_getrs(ctx, LCL_NO_TRANS, M, ipiv, MB)) == LCL_OK &&
            (st = lcl_dense_alloc(ctx, &Bx, c->Bw.dtype, LCL_COL_MAJOR, n, 1)) == LCL_OK &&
            (st = lcl_dmat_download(ctx, MB, &Bx)) == LCL_OK) {
            dense_to_array(&Bx, c->x);
            row->residual = backward_error(&c->A, c->normA, c->x, c->b, c->work);
        }
    }
fail:
    if (st != LCL_OK) snprintf(row->msg, sizeof row->msg, "%s", lcl_last_error(ctx));
done:
    row->st = st;
    row->ok = st == LCL_OK && row->residual <= (c->Aw.dtype == LCL_F64 ? 1e-12 : 1e-4);
    lcl_dense_free(&Bx);
    lcl_dense_free(&F);
    lcl_dmat_free(M);
    lcl_dmat_free(MB);
    free(times);
    free(ipiv);
}

/* GF/s against n, one line per backend, algorithm and device; failed runs are left out */
static int write_svg_dense(const char *path, const bench_row *rows, int nrows, const char *title) {
    char **label = (char **)calloc((size_t)nrows + 1, sizeof *label), (*lbuf)[200] = (char (*)[200])calloc((size_t)nrows + 1, 200);
    int64_t *x = (int64_t *)calloc((size_t)nrows + 1, sizeof *x);
    double *y = (double *)calloc((size_t)nrows + 1, sizeof *y);
    int i, ok = label && lbuf && x && y;
    for (i = 0; ok && i < nrows; i++) {
        const bench_row *r = &rows[i];
        if (strcmp(r->device, "cpu")) snprintf(lbuf[i], sizeof lbuf[i], "%s %s (%s)", r->backend, alg_names[r->alg], r->device);
        else snprintf(lbuf[i], sizeof lbuf[i], "%s %s", r->backend, alg_names[r->alg]);
        label[i] = lbuf[i];
        x[i] = r->n;
        y[i] = r->st == LCL_OK ? r->gflops : -1;
    }
    ok = ok && write_svg_lines(path, title, "matrix size n", "GF/s", label, x, y, nrows);
    free(label);
    free(lbuf);
    free(x);
    free(y);
    return ok;
}

/* algorithm alg runs at size n: unblocked ones stop at BENCH_UNBLOCKED_MAX unless --force */
static int alg_runs(const opts *o, int alg, int64_t n) { return !alg_unblocked(alg) || n <= BENCH_UNBLOCKED_MAX || o->force; }

/* lcl bench dense --op lu|cholesky --sizes N,... [--backend B] [--algorithms A,...] [--reps N]
   [--block N] [--force] [--split] [--csv F] [--svg F] */
int cmd_bench_dense(const opts *o) {
    int64_t sizes[MAX_SIZES];
    int algs[MAX_ALGS], nsizes, nalgs, chol = method_parse(o->op) == 1, code = -1, nb = 0, b, a, s, i, failures = 0;
    long reps = o->reps > 0 ? o->reps : 3;
    lcl_context *gctx = NULL, *ctxs[3] = {NULL, NULL, NULL};
    lcl_backend want[3];
    char devs[3][128];
    const char *kname = chol ? "Cholesky (potrf)" : "LU (getrf)", *prec = o->dtype == LCL_F64 ? "double" : "single";
    bench_row *rows = NULL;
    lcl_context_desc d;
    char title[256];
    if (o->resident && !o->split) return fail(EXIT_USAGE, "bench dense: --resident goes with --split (device matrices split over the devices)");
    nsizes = parse_sizes(o->sizes ? o->sizes : "256,512,1024", sizes, MAX_SIZES);
    if (o->algorithms) nalgs = parse_algs(o->algorithms, algs, MAX_ALGS);
    else { algs[0] = LCL_ALG_BLOCKED; nalgs = 1; }
    for (s = 0; s < nsizes; s++)
        if ((double)sizes[s] * (double)sizes[s] * 8.0 > DENSE_MAX_BYTES) {
            char what[64];
            snprintf(what, sizeof what, "bench dense --sizes %lld", (long long)sizes[s]);
            return too_big(what, (double)sizes[s]);
        }
    for (s = 0, i = 0; s < nsizes; s++)   /* i: configurations that run */
        for (a = 0; a < nalgs; a++) i += alg_runs(o, algs[a], sizes[s]);
    if (!i)
        return fail(EXIT_USAGE, "bench dense: nothing to measure: unblocked algorithms stop at n = %d (--force runs them)",
                    BENCH_UNBLOCKED_MAX);
    nb = default_backends(o, want);
    if ((code = open_contexts(o, want, nb, o->backend_set || o->device || o->split, 1, ctxs)) >= 0) goto done;
    for (b = 0; b < nb; b++)
        if (ctxs[b]) dense_device_name(ctxs[b], 0, devs[b], sizeof devs[b]);
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    lcl_context_create(&d, &gctx);
    snprintf(title, sizeof title, "Dense %s, %s precision", kname, prec);
    for (s = 0; s < nsizes; s++) {
        dense_system c;
        int64_t n = sizes[s];
        int runs = 0;
        for (a = 0; a < nalgs; a++) runs += alg_runs(o, algs[a], n);
        if (!runs) {
            fprintf(stderr, "bench: n = %lld skipped: unblocked algorithms stop at n = %d (--force runs them)\n", (long long)n,
                    BENCH_UNBLOCKED_MAX);
            continue;
        }
        fprintf(stderr, "bench: n = %lld: generating %s:%lld (seed %llu)\n", (long long)n, chol ? "dense-spd" : "dense-random",
                (long long)n, (unsigned long long)o->seed);
        if ((code = dense_system_make(gctx, chol, n, o->seed, o->dtype, &c)) >= 0) goto done;
        for (b = 0; b < nb; b++) {
            if (!ctxs[b]) continue;
            for (a = 0; a < nalgs * (o->split ? 2 : 1); a++) {
                bench_row r;
                /* --split: device 0, then all of them, on host arrays (--resident: device matrices) */
                int host = o->split ? (o->resident ? -1 - a % 2 : 1 - a % 2) : -1;
                int alg = algs[o->split ? a / 2 : a];
                if (!alg_runs(o, alg, n)) {
                    fprintf(stderr, "bench: n = %lld %s %s skipped: unblocked algorithms stop at n = %d (--force runs them)\n",
                            (long long)n, lcl_backend_name(lcl_dense_backend(ctxs[b])), alg_names[alg], BENCH_UNBLOCKED_MAX);
                    continue;
                }
                memset(&r, 0, sizeof r);
                r.n = n;
                r.alg = alg;
                snprintf(r.backend, sizeof r.backend, "%s", lcl_backend_name(lcl_dense_backend(ctxs[b])));
                if (host == 0 || host == -2) dense_device_name(ctxs[b], 1, r.device, sizeof r.device);
                else {
                    memcpy(r.device, devs[b], sizeof r.device);     /* both 128 bytes, NUL-terminated */
                    r.device[sizeof r.device - 1] = 0;
                }
                bench_one(ctxs[b], chol, alg, o->block, reps, host, &c, &r);
                if (!r.ok) failures++;
                if (r.st == LCL_OK)
                    fprintf(stderr, "bench: n = %lld %s %s: median %.6f s, %.3f GF/s, residual %.2e%s\n", (long long)n, r.backend,
                            alg_names[r.alg], r.t_median, r.gflops, r.residual, r.ok ? "" : " FAIL");
                else
                    fprintf(stderr, "bench: n = %lld %s %s: FAIL: %s\n", (long long)n, r.backend, alg_names[r.alg], r.msg);
                if (o->json) {
                    printf("{\"op\":\"bench\",\"suite\":\"dense\",\"method\":\"%s\",\"n\":%lld,\"backend\":\"%s\",\"device\":",
                           chol ? "cholesky" : "lu", (long long)n, r.backend);
                    lclg_json_str(stdout, r.device);
                    printf(",\"algorithm\":\"%s\",\"block\":%ld,\"precision\":\"%s\",\"reps\":%ld,\"t_median\":", alg_names[r.alg],
                           o->block, prec, reps);
                    json_double(stdout, r.t_median, r.st == LCL_OK);
                    printf(",\"t_min\":");
                    json_double(stdout, r.t_min, r.st == LCL_OK);
                    printf(",\"gflops\":");
                    json_double(stdout, r.gflops, r.st == LCL_OK);
                    printf(",\"residual\":");
                    json_double(stdout, r.residual, r.st == LCL_OK);
                    printf(",\"status\":");
                    lclg_json_str(stdout, lcl_status_string(r.st));
                    printf(",\"check\":\"%s\"}\n", r.ok ? "ok" : "FAIL");
                    fflush(stdout);
                }
                arrput(rows, r);
            }
        }
        dense_system_free(&c);
    }
    if (!o->json) {
        printf("Dense %s, %s precision: median of %ld runs after one warm-up (factorization only, fresh copy each run), "
               "GF/s = %s n^3 / time, residual = |b - Ax| / (|A| |x| + |b|) of one solve (FAIL above %g), seed %llu.\n\n",
               kname, prec, reps, chol ? "1/3" : "2/3", o->dtype == LCL_F64 ? 1e-12 : 1e-4, (unsigned long long)o->seed);
        if (o->split && o->resident)
            printf("--split --resident: device matrices, factorization only: lcl_dmat_upload on device 0, then lcl_dmat_upload_split "
                   "over all %d devices.\n\n", lcl_context_num_devices(ctxs[0]));
        else if (o->split)
            printf("--split: host arrays (lcl_getrf / lcl_potrf), upload and download timed, on device 0 alone (opts.device 0) and "
                   "split over all %d devices (opts.device -1).\n\n", lcl_context_num_devices(ctxs[0]));
        printf("| n | backend | device | algorithm | block | median (s) | min (s) | GF/s | residual | check |\n");
        printf("|---:|---|---|---|---:|---:|---:|---:|---:|---|\n");
        for (i = 0; i < (int)arrlen(rows); i++) {
            const bench_row *r = &rows[i];
            char blk[16];
            if (o->block) snprintf(blk, sizeof blk, "%ld", o->block);
            else snprintf(blk, sizeof blk, "%s", alg_unblocked(r->alg) ? "-" : "auto");
            printf("| %lld | %s | %s | %s | %s | ", (long long)r->n, r->backend, r->device, alg_names[r->alg], blk);
            if (r->st == LCL_OK) printf("%.6f | %.6f | %.3f | %.2e | %s |\n", r->t_median, r->t_min, r->gflops, r->residual, r->ok ? "ok" : "FAIL");
            else printf("- | - | - | - | FAIL (%s) |\n", lcl_status_string(r->st));
        }
    }
    if (o->csv) {
        FILE *f = fopen(o->csv, "w");
        if (!f) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
        fprintf(f, "method,n,backend,device,algorithm,block,precision,reps,t_median_s,t_min_s,gflops,residual,status,check\n");
        for (i = 0; i < (int)arrlen(rows); i++) {
            const bench_row *r = &rows[i];
            fprintf(f, "%s,%lld,%s,", chol ? "cholesky" : "lu", (long long)r->n, r->backend);
            csv_field(f, r->device);
            fprintf(f, ",%s,%ld,%s,%ld,", alg_names[r->alg], o->block, prec, reps);
            if (r->st == LCL_OK) fprintf(f, "%.9g,%.9g,%.6g,%.6g,", r->t_median, r->t_min, r->gflops, r->residual);
            else fprintf(f, ",,,,");
            csv_field(f, lcl_status_string(r->st));
            fprintf(f, ",%s\n", r->ok ? "ok" : "FAIL");
        }
        if (fclose(f) != 0) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
    }
    if (o->svg && !write_svg_dense(o->svg, rows, (int)arrlen(rows), title)) {
        code = fail(EXIT_USAGE, "cannot write %s: %s", o->svg, strerror(errno));
        goto done;
    }
    code = failures ? EXIT_NUMERIC : EXIT_OK;
done:
    arrfree(rows);
    for (b = 0; b < nb; b++) lcl_context_destroy(ctxs[b]);
    lcl_context_destroy(gctx);
    return code;
}

/* ---- bench spmv ---- */
int check_bench_spmv(const opts *o) {
    if (o->backends && (o->backend_set || o->device))
        return fail(EXIT_USAGE, "bench spmv: give --backends or --backend/--device, not both");
    return -1;
}

typedef struct spmv_dims { int64_t rows, cols, nnz; } spmv_dims;
typedef struct spmv_row {
    int mi, b;                  /* matrix and backend slots */
    lcl_format want;            /* the format asked; LCL_FMT_AUTO: the auto column */
    spmv_run run;
    double ratio;               /* auto: M nnz/s over the best format's; 0 when unknown */
    int note;                   /* footnote number, 0 = none */
} spmv_row;

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* every *.mtx of dir, sorted, appended to list (stb_ds, malloc'd strings): 0 when dir cannot be read */
int mtx_files(const char *dir, char ***list) {
    DIR *d;
    struct dirent *e;
    size_t first = (size_t)arrlen(*list);
    if ((d = opendir(dir)) == NULL) return 0;
    while ((e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        char *path;
        if (n < 5 || strcmp(e->d_name + n - 4, ".mtx") || e->d_name[0] == '.') continue;
        if (!(path = (char *)malloc(strlen(dir) + n + 2))) continue;
        sprintf(path, "%s/%s", dir, e->d_name);
        arrput(*list, path);
    }
    closedir(d);
    qsort(*list + first, (size_t)arrlen(*list) - first, sizeof(char *), cmp_str);
    return 1;
}
void add_string(char ***list, const char *s) {
    char *p = (char *)malloc(strlen(s) + 1);
    if (p) { strcpy(p, s); arrput(*list, p); }
}
void free_strings(char ***list) {
    int i;
    for (i = 0; i < (int)arrlen(*list); i++) free((*list)[i]);
    arrfree(*list);
}

/* every *.mtx in $LCL_SHARED/matrices (../shared/matrices), sorted, then the two generated ones */
static void spmv_default_matrices(char ***list) {
    const char *shared = getenv("LCL_SHARED");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/matrices", shared && shared[0] ? shared : "../shared");
    if (!mtx_files(dir, list)) fprintf(stderr, "bench: %s: %s (no shared matrices; set LCL_SHARED)\n", dir, strerror(errno));
    add_string(list, "gen:poisson3d:60");
    add_string(list, "gen:powerlaw:200000:16");
}
/* west0067 for ../shared/matrices/west0067.mtx, the spec itself for gen: */
void matrix_label(const char *src, char *buf, size_t cap) {
    const char *base = strncmp(src, "gen:", 4) ? strrchr(src, '/') : NULL;
    size_t n;
    base = base ? base + 1 : src;
    n = strlen(base);
    if (strncmp(src, "gen:", 4) && n > 4 && !strcmp(base + n - 4, ".mtx")) n -= 4;
    if (n >= cap) n = cap - 1;
    memcpy(buf, base, n);
    buf[n] = 0;
}
static void mnnz_cell(char *buf, size_t cap, double v) {
    if (v >= 100) snprintf(buf, cap, "%.0f", v);
    else if (v >= 10) snprintf(buf, cap, "%.1f", v);
    else snprintf(buf, cap, "%.3g", v);
}
/* LCL_ERR_FILL (the format refuses the matrix: too much padding) and LCL_ERR_UNSUPPORTED (a
   device limit, e.g. a part beyond int32 indexing or the ELL image kernel without images) are
   documented outcomes: shown with their reason, not failures */
static int spmv_refused(const spmv_run *r) { return r->st == LCL_ERR_FILL || r->st == LCL_ERR_UNSUPPORTED; }


/* lcl bench spmv [MATRIX...] [--formats F,...|all] [--backends B,...] [--reps N] [--csv F] [--svg F] */
int cmd_bench_spmv(const opts *o) {
    lcl_format fmts[MAX_FORMATS];
    lcl_backend want[MAX_BACKENDS];
    lcl_context *gctx = NULL, *ctxs[MAX_BACKENDS] = {NULL, NULL, NULL, NULL};
    char devs[MAX_BACKENDS][128], **mats = NULL, **labels = NULL;
    spmv_dims *dims = NULL;
    long reps = o->reps > 0 ? o->reps : SPMV_REPS;
    int nf, nb = 0, b, f, m, i, code = -1, failures = 0, nnotes = 0;
    spmv_row *rows = NULL;
    lcl_context_desc d;
    nf = parse_formats(o->formats ? o->formats : "all", fmts, MAX_FORMATS);
    nb = o->backends ? parse_backends(o->backends, want, MAX_BACKENDS) : default_backends(o, want);
    if ((code = open_contexts(o, want, nb, o->backends || o->backend_set || o->device, 0, ctxs)) >= 0) goto done;
    for (b = 0; b < nb; b++)
        if (ctxs[b]) spmv_device_name(ctxs[b], devs[b], sizeof devs[b]);
    for (i = 1; i < (int)arrlen(o->pos); i++) add_string(&mats, o->pos[i]);
    if (arrlen(o->pos) < 2) spmv_default_matrices(&mats);
    memset(&d, 0, sizeof d);
    d.backend = LCL_BACKEND_SERIAL;
    lcl_context_create(&d, &gctx);
    for (m = 0; m < (int)arrlen(mats); m++) {
        lcl_coo A;
        spmv_ref ref;
        double *x0;
        void *y;
        char label[256], *lab;
        spmv_dims dim;
        int64_t k;
        if ((code = spmv_load(gctx, mats[m], o->seed, o->dtype, &A)) >= 0) goto done;
        code = -1;
        matrix_label(mats[m], label, sizeof label);
        if ((lab = (char *)malloc(strlen(label) + 1)) != NULL) strcpy(lab, label);
        arrput(labels, lab);
        dim.rows = A.rows;
        dim.cols = A.cols;
        dim.nnz = A.nnz;
        arrput(dims, dim);
        x0 = (double *)malloc((size_t)(A.cols + 1) * sizeof *x0);
        y = malloc((size_t)(A.rows + 1) * sizeof(double));
        for (k = 0; x0 && k < A.cols; k++) x0[k] = urand_sym(o->seed, (uint64_t)k);
        if (!x0 || !y || !lab || spmv_ref_make(&A, 0, x0, &ref) != LCL_OK) {
            free(x0);
            free(y);
            lcl_coo_free(&A);
            code = fail(EXIT_NUMERIC, "out of memory");
            goto done;
        }
        free(x0);
        fprintf(stderr, "bench: %s: %lld x %lld, %lld nonzeros\n", label, (long long)A.rows, (long long)A.cols, (long long)A.nnz);
        for (b = 0; b < nb; b++) {
            int best = -1;
            if (!ctxs[b]) continue;
            for (f = 0; f <= nf; f++) {
                spmv_row r;
                lcl_spmat_opts so;
                const char *bname = lcl_backend_name(lcl_context_backend(ctxs[b]));
                memset(&r, 0, sizeof r);
                memset(&so, 0, sizeof so);
                r.mi = m;
                r.b = b;
                r.want = so.format = f < nf ? fmts[f] : LCL_FMT_AUTO;
                so.max_fill = o->max_fill;
                spmv_measure(ctxs[b], &A, &so, 0, reps, &ref, y, &r.run);
                if (r.want != LCL_FMT_AUTO && r.run.ok && (best < 0 || spmv_mnnz(&r.run) > spmv_mnnz(&rows[best].run)))
                    best = (int)arrlen(rows);
                if (r.want == LCL_FMT_AUTO && r.run.ok && best >= 0) r.ratio = spmv_mnnz(&r.run) / spmv_mnnz(&rows[best].run);
                if (!r.run.ok && !spmv_refused(&r.run)) failures++;
                if (r.run.st == LCL_OK)
                    fprintf(stderr, "bench: %s %s %s -> %s/%s: %.1f M nnz/s, %.2f GB/s, rel_err %.1e%s\n", label, bname,
                            lcl_format_name(r.want), lcl_format_name(r.run.info.format), lcl_spmv_kernel_name(r.run.info.kernel),
                            spmv_mnnz(&r.run), spmv_gbps(&r.run), r.run.rel_err, r.run.ok ? "" : " WRONG");
                else
                    fprintf(stderr, "bench: %s %s %s: %s: %s\n", label, bname, lcl_format_name(r.want),
                            spmv_refused(&r.run) ? "refused" : "FAIL", r.run.msg);
                if (!r.run.ok) {   /* a footnote, shared by every row with the same format and message */
                    for (i = 0; i < (int)arrlen(rows); i++)
                        if (rows[i].note && rows[i].want == r.want && rows[i].run.st == r.run.st && !strcmp(rows[i].run.msg, r.run.msg)) break;
                    r.note = i < (int)arrlen(rows) ? rows[i].note : ++nnotes;
                }
                if (o->json) {
                    printf("{\"op\":\"bench\",\"suite\":\"spmv\",\"matrix\":");
                    lclg_json_str(stdout, label);
                    printf(",\"rows\":%lld,\"cols\":%lld,\"nnz\":%lld,\"backend\":\"%s\",\"device\":", (long long)A.rows, (long long)A.cols,
                           (long long)A.nnz, bname);
                    lclg_json_str(stdout, devs[b]);
                    printf(",\"precision\":\"%s\",\"reps\":%ld,\"requested\":\"%s\",\"format\":\"%s\",\"kernel\":\"%s\",\"seconds\":",
                           prec_name(o->dtype), reps, lcl_format_name(r.want),
                           r.run.st == LCL_OK ? lcl_format_name(r.run.info.format) : lcl_format_name(r.want),
                           r.run.st == LCL_OK ? lcl_spmv_kernel_name(r.run.info.kernel) : "");
                    json_double(stdout, r.run.seconds, r.run.st == LCL_OK);
                    printf(",\"mnnz_per_s\":");
                    json_double(stdout, spmv_mnnz(&r.run), r.run.st == LCL_OK);
                    printf(",\"gflops\":");
                    json_double(stdout, 2e-3 * spmv_mnnz(&r.run), r.run.st == LCL_OK);
                    printf(",\"gbps\":");
                    json_double(stdout, spmv_gbps(&r.run), r.run.st == LCL_OK);
                    printf(",\"rel_err\":");
                    json_double(stdout, r.run.rel_err, r.run.st == LCL_OK);
                    if (r.want == LCL_FMT_AUTO) {
                        printf(",\"ratio_to_best\":");
                        json_double(stdout, r.ratio, r.ratio > 0);
                        printf(",\"reason\":");
                        lclg_json_str(stdout, r.run.info.reason);
                    }
                    printf(",\"status\":");
                    lclg_json_str(stdout, lcl_status_string(r.run.st));
                    printf(",\"check\":\"%s\"}\n", r.run.ok ? "ok" : spmv_refused(&r.run) ? "refused" : "FAIL");
                    fflush(stdout);
                }
                arrput(rows, r);
            }
        }
        free(y);
        spmv_ref_free(&ref);
        lcl_coo_free(&A);
    }
    if (!o->json) {
        int shown = 0, within = 0;
        double logsum = 0, worst = 0;
        int worst_row = -1;
        printf("SpMV y = A x, %s precision: M nnz/s = nonzeros / median time of %ld products after one warm-up, every product "
               "checked against the tool's own serial double CSR product; seed %llu. auto: the format/kernel it chose, its speed "
               "over the best format measured.\n\n", prec_name(o->dtype), reps, (unsigned long long)o->seed);
        printf("| matrix | rows | cols | nnz | backend |");
        for (f = 0; f < nf; f++) printf(" %s |", lcl_format_name(fmts[f]));
        printf(" auto |\n|---|---:|---:|---:|---|");
        for (f = 0; f < nf; f++) printf("---:|");
        printf("---|\n");
        for (i = 0; i < (int)arrlen(rows); i += nf + 1) {
            const spmv_row *g = &rows[i], *a = &rows[i + nf];
            int best = -1;
            for (f = 0; f < nf; f++)
                if (g[f].run.ok && (best < 0 || spmv_mnnz(&g[f].run) > spmv_mnnz(&g[best].run))) best = f;
            printf("| %s | %lld | %lld | %lld | %s%s%s%s |", labels[g->mi], (long long)dims[g->mi].rows, (long long)dims[g->mi].cols,
                   (long long)dims[g->mi].nnz, lcl_backend_name(lcl_context_backend(ctxs[g->b])), devs[g->b][0] ? " (" : "", devs[g->b],
                   devs[g->b][0] ? ")" : "");
            for (f = 0; f <= nf; f++) {
                const spmv_row *r = &g[f];
                char cell[64];
                if (r->run.st == LCL_OK) mnnz_cell(cell, sizeof cell, spmv_mnnz(&r->run));
                if (f == nf) {
                    printf(" %s/%s", r->run.st == LCL_OK ? lcl_format_name(r->run.info.format) : "-",
                           r->run.st == LCL_OK ? lcl_spmv_kernel_name(r->run.info.kernel) : "-");
                    if (r->run.ok && best >= 0) {
                        printf(" %.2fx", r->ratio);
                        if (r->run.info.format == g[best].run.info.format) printf(" (best)");
                        else printf(" of %s", lcl_format_name(g[best].run.info.format));
                    }
                    if (r->note) printf(" [%d]", r->note);
                    printf(" |\n");
                } else if (r->run.ok) printf(f == best ? " **%s** |" : " %s |", cell);
                else if (r->run.st == LCL_OK) printf(" WRONG [%d] |", r->note);
                else printf(" - [%d] |", r->note);
            }
            if (a->run.ok && a->ratio > 0) {
                shown++;
                within += a->ratio >= 0.9;
                logsum += log(a->ratio);
                if (worst_row < 0 || a->ratio < worst) { worst = a->ratio; worst_row = i; }
            }
        }
        if (nnotes) printf("\n");
        for (i = 0; i < (int)arrlen(rows); i++) {   /* each footnote once, at its first row */
            const spmv_row *r = &rows[i];
            int k;
            for (k = 0; k < i && !(rows[k].note == r->note); k++) {}
            if (!r->note || k < i) continue;
            printf("[%d] ", r->note);
            if (strncmp(r->run.msg, lcl_format_name(r->want), strlen(lcl_format_name(r->want)))) printf("%s: ", lcl_format_name(r->want));
            if (r->run.st == LCL_OK) printf("wrong result on %s: rel_err %.2e above the bound\n", labels[r->mi], r->run.rel_err);
            else if (strcmp(r->run.msg, lcl_status_string(r->run.st))) printf("%s (%s)\n", r->run.msg, lcl_status_string(r->run.st));
            else printf("%s\n", r->run.msg);
        }
        if (shown) {
            const spmv_row *w = &rows[worst_row];
            printf("\nauto against the best format measured: within 10%% on %d of %d (matrix, backend) pairs, geometric mean %.2fx; "
                   "worst %.2fx (%s, %s: auto chose %s).\n", within, shown, exp(logsum / shown), worst, labels[w->mi],
                   lcl_backend_name(lcl_context_backend(ctxs[w->b])), lcl_format_name(w[nf].run.info.format));
        }
    }
    if (o->csv) {
        FILE *fo = fopen(o->csv, "w");
        if (!fo) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
        fprintf(fo, "matrix,rows,cols,nnz,backend,device,precision,reps,requested,format,kernel,seconds,mnnz_per_s,gflops,gbps,rel_err,"
                    "ratio_to_best,status,check,message\n");
        for (i = 0; i < (int)arrlen(rows); i++) {
            const spmv_row *r = &rows[i];
            int okst = r->run.st == LCL_OK;
            csv_field(fo, labels[r->mi]);
            fprintf(fo, ",%lld,%lld,%lld,%s,", (long long)dims[r->mi].rows, (long long)dims[r->mi].cols, (long long)dims[r->mi].nnz,
                    lcl_backend_name(lcl_context_backend(ctxs[r->b])));
            csv_field(fo, devs[r->b]);
            fprintf(fo, ",%s,%ld,%s,%s,%s,", prec_name(o->dtype), reps, lcl_format_name(r->want),
                    okst ? lcl_format_name(r->run.info.format) : "", okst ? lcl_spmv_kernel_name(r->run.info.kernel) : "");
            if (okst) fprintf(fo, "%.9g,%.6g,%.6g,%.6g,%.3g,", r->run.seconds, spmv_mnnz(&r->run), 2e-3 * spmv_mnnz(&r->run),
                              spmv_gbps(&r->run), r->run.rel_err);
            else fprintf(fo, ",,,,,");
            if (r->ratio > 0) fprintf(fo, "%.4f", r->ratio);
            fputc(',', fo);
            csv_field(fo, lcl_status_string(r->run.st));
            fprintf(fo, ",%s,", r->run.ok ? "ok" : spmv_refused(&r->run) ? "refused" : "FAIL");
            csv_field(fo, r->run.st == LCL_OK ? (r->want == LCL_FMT_AUTO ? r->run.info.reason : "") : r->run.msg);
            fputc('\n', fo);
        }
        if (fclose(fo) != 0) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->csv, strerror(errno)); goto done; }
    }
    if (o->svg) {
        int ng = nf + 1 > 0 ? (int)arrlen(rows) / (nf + 1) : 0, okw;
        char **gl = (char **)calloc((size_t)ng + 1, sizeof(char *)), **sl = (char **)calloc((size_t)nf + 2, sizeof(char *));
        char (*gbuf)[200] = (char (*)[200])calloc((size_t)ng + 1, sizeof *gbuf);
        double *val = (double *)calloc((size_t)(ng * (nf + 1)) + 1, sizeof(double));
        char title[256];
        if (!gl || !sl || !gbuf || !val) okw = 0;
        else {
            for (i = 0; i < ng; i++) {
                const spmv_row *g = &rows[i * (nf + 1)];
                snprintf(gbuf[i], sizeof gbuf[i], "%s %s", labels[g->mi], lcl_backend_name(lcl_context_backend(ctxs[g->b])));
                gl[i] = gbuf[i];
                for (f = 0; f <= nf; f++) val[i * (nf + 1) + f] = g[f].run.ok ? spmv_mnnz(&g[f].run) : 0;
            }
            for (f = 0; f < nf; f++) sl[f] = (char *)lcl_format_name(fmts[f]);
            sl[nf] = (char *)"auto";
            snprintf(title, sizeof title, "SpMV, %s precision: M nnz/s per matrix, backend and format", prec_name(o->dtype));
            okw = write_svg_bars(o->svg, title, "M nnz/s", gl, ng, sl, nf + 1, val);
        }
        free(gl);
        free(sl);
        free(gbuf);
        free(val);
        if (!okw) { code = fail(EXIT_USAGE, "cannot write %s: %s", o->svg, strerror(errno)); goto done; }
    }
    code = failures ? EXIT_NUMERIC : EXIT_OK;
done:
    arrfree(rows);
    free_strings(&mats);
    free_strings(&labels);
    arrfree(dims);
    for (b = 0; b < nb; b++) lcl_context_destroy(ctxs[b]);
    lcl_context_destroy(gctx);
    return code;
}
