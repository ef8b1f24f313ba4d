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
            hb:BASE.mtx:M       every entry a_ij of BASE becomes the M x M block a_ij * B
        The same spec and seed give the same matrix, and gen_file the same bytes.
        gen_file streams the output: it never holds the matrix (hb holds BASE).

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
/* Matrix Market file: dense kinds as `array` (column-major), the others as `coordinate`. */
lcl_status lclg_gen_file(lcl_context *ctx, const char *spec, uint64_t seed, const char *path,
                         char *err, size_t errlen);
/* "gen:SPEC" -> lclg_gen_coo, anything else -> lcl_mm_read(..., LCL_MM_EXPAND, ...). */
lcl_status lclg_load(lcl_context *ctx, const char *path_or_gen, uint64_t seed, lcl_dtype dtype,
                     lcl_coo *out, char *err, size_t errlen);
/* 1 for dense-random / dense-spd (with or without the "gen:" prefix), else 0. */
int lclg_is_dense_kind(const char *spec);

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
