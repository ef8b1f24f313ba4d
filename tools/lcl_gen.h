/* lcl_gen.h -- matrix generators and matrix statistics for the lcl tool, tests and benchmarks.

    GENERATORS
        A spec is what follows "gen:" in a pseudo-path, fields separated by ':'.
            dense-random:N      N x N, entries uniform in [-1,1], diagonal N (strictly dominant)
            dense-spd:N         symmetric, off-diagonal uniform in [-1,1], diagonal N (SPD)
            poisson2d:M         5-point Laplacian on an M x M grid (n = M^2)
            poisson3d:M         7-point Laplacian on an M x M x M grid (n = M^3)
            powerlaw:N:AVG      heavy-tailed row lengths (tail exponent 2) with mean about AVG (less
                                when AVG is near N: lengths are clamped to N), diagonal = row length
            circuit:N           unsymmetric MNA-style circuit matrix, many BTF blocks, permuted
            hb:BASE:M           every entry a_ij of BASE becomes the M x M block a_ij * B (J (x) B), with
                                B = M*I + uniform[-0.5,0.5] off the diagonal (the same B for every
                                block). BASE is a Matrix Market file or itself a generator spec with
                                its "gen:" (hb:gen:circuit:2000:64); M is the last field, so a path
                                may hold ':' of its own.
        The same spec and seed give the same matrix, and gen_file the same bytes.
        gen_file streams the output: it never holds the matrix (hb holds BASE).

    BLOCK FORM (lclg_hb_*)
        hb as an lcl_bmat (block compressed columns, row-major blocks) generated straight into the
        block arrays, never the expanded COO: the same values as the scalar hb, bit for bit, so a
        scalar solver on gen:hb cross-checks a block solver on the block form.

    ERRORS
        Every function takes `char *err, size_t errlen` last (err may be NULL) and writes a one-line
        message there when it fails: its own (a bad spec) or the context's (a failed library call).
*/
#ifndef LCL_GEN_H_INCLUDED
#define LCL_GEN_H_INCLUDED
#include <stdio.h>
#include <stdint.h>
#include "../linalg_cl.h"

#ifdef __cplusplus
extern "C" {
#endif

/* In memory, canonical (sorted by row then column, no duplicates). */
lcl_status lclg_gen_coo(lcl_context *ctx, const char *spec, uint64_t seed, lcl_dtype dtype,
                        lcl_coo *out, char *err, size_t errlen);
/* A dense kind (dense-random:N, dense-spd:N) straight into a column-major double lcl_dense: the
   same values as lclg_gen_coo's, without the COO (n^2 entries, sorted). */
lcl_status lclg_gen_dense(lcl_context *ctx, const char *spec, uint64_t seed, lcl_dense *out, char *err, size_t errlen);
/* Matrix Market file: dense kinds as `array` (column-major), the others as `coordinate`. */
lcl_status lclg_gen_file(lcl_context *ctx, const char *spec, uint64_t seed, const char *path,
                         char *err, size_t errlen);
/* "gen:SPEC" -> lclg_gen_coo, anything else -> lcl_mm_read(..., LCL_MM_EXPAND, ...). */
lcl_status lclg_load(lcl_context *ctx, const char *path_or_gen, uint64_t seed, lcl_dtype dtype,
                     lcl_coo *out, char *err, size_t errlen);
/* 1 for dense-random / dense-spd (with or without the "gen:" prefix), else 0. */
int lclg_is_dense_kind(const char *spec);

/* hb in block form: J (BASE) and B, enough to make the block matrix, refill its values and
   multiply by it without it. */
typedef struct lclg_hb {
    lcl_coo base;               /* J: canonical, double */
    int64_t m;                  /* M */
    double *B;                  /* M x M, row-major */
    int64_t *colptr;            /* n + 1: J's columns, the lcl_bmat's ptr */
    int64_t *entry;             /* nnz: block e of the lcl_bmat (column order) is base entry entry[e] */
    int64_t *rowptr;            /* n + 1: J's rows in base (row-major) */
} lclg_hb;
/* spec "hb:BASE:M" or "gen:hb:BASE:M": 1 when of kind hb, with *m = M (0 when M is malformed) */
int lclg_hb_spec(const char *spec, int64_t *m);
/* from an hb spec, or from BASE (a file or gen:SPEC) and M; BASE must be square */
lcl_status lclg_hb_open_spec(lcl_context *ctx, const char *spec, uint64_t seed, lclg_hb *h, char *err, size_t errlen);
lcl_status lclg_hb_open(lcl_context *ctx, const char *base, int64_t m, uint64_t seed, lclg_hb *h, char *err, size_t errlen);
void lclg_hb_free(lclg_hb *h);
/* the block matrix (malloc'd arrays; lclg_bmat_free), values as lclg_hb_fill with scale NULL */
lcl_status lclg_hb_bmat(const lclg_hb *h, lcl_dtype dtype, lcl_bmat *out, char *err, size_t errlen);
/* A's values again (A from lclg_hb_bmat): block e = (a_e * scale[e]) * B, scale NULL: a_e * B.
   OpenMP threads when compiled with it. */
void lclg_hb_fill(const lclg_hb *h, lcl_bmat *A, const double *scale);
void lclg_bmat_free(lcl_bmat *A);
/* lclg_hb_open_spec + lclg_hb_bmat */
lcl_status lclg_gen_bmat(lcl_context *ctx, const char *spec, uint64_t seed, lcl_dtype dtype, lcl_bmat *out,
                         char *err, size_t errlen);
/* y = (J (x) B) x in double from J and B (n*M values each; x and y distinct): B x_j per block
   column, then J's rows. LCL_ERR_OUT_OF_MEMORY for its n*M work array. */
lcl_status lclg_hb_mv(const lclg_hb *h, const double *x, double *y);
/* |J (x) B|_inf = |J|_inf |B|_inf */
double lclg_hb_norm_inf(const lclg_hb *h);

typedef struct lclg_stats {
    int64_t rows, cols, nnz;
    int64_t row_min, row_max; double row_mean;
    int64_t hist[40]; int nhist;   /* row-length histogram: bucket 0 = empty rows, bucket k (k>=1) = lengths in [2^(k-1), 2^k) */
    int64_t bandwidth;             /* max |i-j| over entries */
    int pattern_symmetric;         /* 1 if square and every off-diagonal (i,j) has (j,i) */
    double pattern_symmetry;       /* fraction of off-diagonal entries whose mirror exists (1 if none) */
    int64_t diag_missing;          /* square: rows with no stored diagonal (else over min(rows, cols)) */
    int64_t rows_diag_dominant;    /* rows with |a_ii| >= sum_{j!=i} |a_ij| */
    int64_t rows_strictly_dominant;/* rows with |a_ii| > sum */
    int diagonally_dominant;       /* 1 if every row is (weakly) dominant and at least one strictly */
} lclg_stats;

/* Input must be canonical COO (as lcl_mm_read and lcl_coo_canonicalize leave it). */
lcl_status lclg_stat(const lcl_coo *canonical, lclg_stats *s, char *err, size_t errlen);
/* json: one JSON object on one line; else a readable multi-line report with a histogram.
   name may be NULL. */
void lclg_stats_print(FILE *f, const char *name, const lclg_stats *s, int json);
/* s as a JSON string, quoted and escaped. */
void lclg_json_str(FILE *f, const char *s);

#ifdef __cplusplus
}
#endif
#endif /* LCL_GEN_H_INCLUDED */
