/* test_klu_analyze.c -- lcl_klu_analyze (>>klu-analyze): P and Q are permutations, B = A(P, Q) is
   block upper triangular with zero-free diagonal blocks, each block irreducible (brute-force
   reachability on small random matrices), the structural rank against a simple augmenting-path
   matching, fill of AMD and the column ordering against natural by an independent symbolic LU
   (2-D / 3-D Poisson, the shipped real matrices), the user's order kept inside blocks, gen:circuit
   splitting into many blocks, every error (structurally singular with the rank, non-square,
   empty, bad options and permutations, non-canonical CSR), allocation failures.

   As test_klu.c: #included by tests/run_tests.c after the implementation, empty alone. */
#ifndef LINALG_CL_IMPLEMENTATION_INCLUDED
typedef int lt_klu_analyze_compiled_in_run_tests;
#else
#include "../tools/lcl_gen.h"

static uint64_t ka_rs = 0x2545F4914F6CDD1DULL;
static uint32_t ka_rnd(uint32_t n) { ka_rs ^= ka_rs >> 12; ka_rs ^= ka_rs << 25; ka_rs ^= ka_rs >> 27; return (uint32_t)(((ka_rs * 2685821657736338717ULL) >> 33) % n); }

/* canonical CSR from (i, j) pairs (values 1) */
static int ka_csr(lcl_context *ctx, int64_t rows, int64_t cols, int64_t nz, const int32_t *ri, const int32_t *cj, lcl_csr *A) {
    lcl_coo C;
    int64_t k;
    int ok = lcl_coo_alloc(ctx, &C, LCL_F64, rows, cols, nz + 1) == LCL_OK;
    for (k = 0; ok && k < nz; k++) ok = lcl_coo_push(ctx, &C, ri[k], cj[k], 1.0) == LCL_OK;
    ok = ok && lcl_coo_canonicalize(ctx, &C) == LCL_OK && lcl_csr_from_coo(ctx, &C, A) == LCL_OK;
    lcl_coo_free(&C);
    return ok;
}

/* n x n, a hidden random permutation (full structural rank) unless singular, plus extras */
static int ka_random(lcl_context *ctx, int32_t n, int extra, int full, lcl_csr *A) {
    int32_t *ri = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n + extra + 1)), *cj = (int32_t *)malloc(sizeof(int32_t) * (size_t)(n + extra + 1));
    int32_t i, k = 0, ok;
    for (i = 0; i < n; i++) ri[i] = i;
    for (i = n - 1; i > 0; i--) { int32_t j = (int32_t)ka_rnd((uint32_t)i + 1), t = ri[i]; ri[i] = ri[j]; ri[j] = t; }
    if (full)
        for (i = 0; i < n; i++) { cj[k] = i; ri[k] = ri[i]; k++; }
    for (i = 0; i < extra; i++) { ri[k] = (int32_t)ka_rnd((uint32_t)n); cj[k] = (int32_t)ka_rnd((uint32_t)n); k++; }
    ok = ka_csr(ctx, n, n, k, ri, cj, A);
    free(ri);
    free(cj);
    return ok;
}

static int ka_has(const lcl_csr *A, int32_t i, int32_t j) {
    int64_t lo = A->ptr[i], hi = A->ptr[i + 1];
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (A->col[mid] == j) return 1;
        if (A->col[mid] < j) lo = mid + 1; else hi = mid;
    }
    return 0;
}

/* structural rank by simple recursive augmenting paths (small n only) */
static int ka_aug(const lcl_csr *A, int32_t i, int32_t *mc, char *seen) {
    int64_t p;
    for (p = A->ptr[i]; p < A->ptr[i + 1]; p++) {
        int32_t j = A->col[p];
        if (seen[j]) continue;
        seen[j] = 1;
        if (mc[j] < 0 || ka_aug(A, mc[j], mc, seen)) { mc[j] = i; return 1; }
    }
    return 0;
}
static int64_t ka_rank(const lcl_csr *A) {
    int32_t n = (int32_t)A->rows, i, *mc = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    char *seen = (char *)malloc((size_t)n);
    int64_t r = 0;
    for (i = 0; i < n; i++) mc[i] = -1;
    for (i = 0; i < n; i++) { memset(seen, 0, (size_t)n); r += ka_aug(A, i, mc, seen); }
    free(mc);
    free(seen);
    return r;
}

/* The symbolic result against A: permutations, block triangular, zero-free diagonal, offdiag count;
   irreducible blocks by reachability when small. Returns the block of each position (malloc). */
static int32_t *ka_check(const lcl_csr *A, const lcl_klu_symbolic *S) {
    int32_t n = (int32_t)A->rows, i, k, b, *ip = (int32_t *)malloc(sizeof(int32_t) * (size_t)n), *iq = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    int32_t *blk = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    int64_t p, offd = 0, bad = 0;
    int perm_ok = 1;
    CHECK(S->n == n && S->nnz == A->nnz && S->R[0] == 0 && S->R[S->nblocks] == n);
    for (i = 0; i < n; i++) ip[i] = iq[i] = -1;
    for (k = 0; k < n; k++) {
        if (S->P[k] < 0 || S->P[k] >= n || ip[S->P[k]] >= 0 || S->Q[k] < 0 || S->Q[k] >= n || iq[S->Q[k]] >= 0) { perm_ok = 0; break; }
        ip[S->P[k]] = k;
        iq[S->Q[k]] = k;
    }
    CHECK(perm_ok);
    if (!perm_ok) { free(ip); free(iq); free(blk); return NULL; }
    for (b = 0; b < S->nblocks; b++) {
        CHECK(S->R[b + 1] > S->R[b]);
        for (k = S->R[b]; k < S->R[b + 1]; k++) blk[k] = b;
        if (S->R[b + 1] - S->R[b] > S->max_block) CHECK(0);
    }
    for (i = 0; i < n; i++)
        for (p = A->ptr[i]; p < A->ptr[i + 1]; p++) {
            int32_t bi = blk[ip[i]], bj = blk[iq[A->col[p]]];
            bad += bi > bj;
            offd += bi < bj;
        }
    CHECK_MSG(bad == 0, "%lld entries below the diagonal blocks", (long long)bad);
    CHECK(offd == S->nnz_offdiag);
    for (k = 0, bad = 0; k < n; k++) bad += !ka_has(A, S->P[k], S->Q[k]);
    if (!S->opts.no_btf) CHECK_MSG(bad == 0, "%lld zeros on the diagonal of B", (long long)bad);
    if (n <= 80 && !S->opts.no_btf) {   /* each block strongly connected: every node reaches the block's first */
        char *reach = (char *)malloc((size_t)n);
        int32_t *q = (int32_t *)malloc(sizeof(int32_t) * (size_t)n), h, t, s;
        for (s = 0; s < n; s++) {
            memset(reach, 0, (size_t)n);
            reach[s] = 1;
            q[0] = s;
            for (h = 0, t = 1; h < t; h++)
                for (p = A->ptr[S->P[q[h]]]; p < A->ptr[S->P[q[h]] + 1]; p++) {
                    int32_t l = iq[A->col[p]];
                    if (!reach[l]) { reach[l] = 1; q[t++] = l; }
                }
            for (k = S->R[blk[s]]; k < S->R[blk[s] + 1]; k++) CHECK_MSG(reach[k], "block %d: %d does not reach %d", blk[s], s, k);
        }
        free(reach);
        free(q);
    }
    free(ip);
    free(iq);
    return blk;
}

/* nnz(L) + nnz(U) (both diagonals counted once each: L's unit diagonal and U's) of the diagonal
   blocks of B, eliminated with diagonal pivots: row i of the factors is A's row i merged with
   the U rows of the columns before i it holds, in order. */
static double ka_lu_fill(const lcl_csr *A, const lcl_klu_symbolic *S) {
    int32_t n = (int32_t)A->rows, b, k, *iq = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
    double total = 0;
    for (k = 0; k < n; k++) iq[S->Q[k]] = k;
    for (b = 0; b < S->nblocks; b++) {
        int32_t r0 = S->R[b], nk = S->R[b + 1] - r0, i, j;
        char *row = (char *)calloc((size_t)nk, 1);
        int64_t *up = (int64_t *)malloc(sizeof(int64_t) * (size_t)(nk + 1)), cap = 16 * (int64_t)nk + 16, nu = 0, p;
        int32_t *ui = (int32_t *)malloc(sizeof(int32_t) * (size_t)cap);
        for (i = 0; i < nk; i++) {
            int32_t r = S->P[r0 + i];
            for (p = A->ptr[r]; p < A->ptr[r + 1]; p++) {
                int32_t c = iq[A->col[p]] - r0;
                if (c >= 0 && c < nk) row[c] = 1;
            }
            row[i] = 1;
            for (j = 0; j < i; j++)
                if (row[j]) {
                    total++;     /* L(i, j) */
                    for (p = up[j]; p < up[j + 1]; p++) row[ui[p]] = 1;
                }
            up[i] = nu;
            for (j = i; j < nk; j++)
                if (row[j]) {
                    if (j > i) {
                        if (nu == cap) { cap *= 2; ui = (int32_t *)realloc(ui, sizeof(int32_t) * (size_t)cap); }
                        ui[nu++] = j;
                    }
                    total++;
                }
            up[i + 1] = nu;
            memset(row, 0, (size_t)nk);
        }
        total += nk;   /* L's unit diagonal */
        free(row);
        free(up);
        free(ui);
    }
    free(iq);
    return total;
}

static int ka_symmetric(const lcl_csr *A) {
    int32_t i;
    int64_t p;
    for (i = 0; i < A->rows; i++)
        for (p = A->ptr[i]; p < A->ptr[i + 1]; p++)
            if (!ka_has(A, A->col[p], i)) return 0;
    return 1;
}

static lcl_context *ka_ctx(void) { return lt_context(LCL_BACKEND_SERIAL, NULL, NULL, NULL, 0); }

static void test_klu_analyze_random(void) {
    lcl_context *ctx = ka_ctx();
    static const int32_t sizes[] = {1, 2, 3, 5, 17, 40, 80};
    int si, rep, o, nbtf = 0;
    if (!ctx) { CHECK(ctx != NULL); return; }
    for (si = 0; si < (int)(sizeof sizes / sizeof sizes[0]); si++)
        for (rep = 0; rep < 12; rep++) {
            int32_t n = sizes[si];
            lcl_csr A;
            int full = rep % 4 != 3;
            memset(&A, 0, sizeof A);
            if (!ka_random(ctx, n, (int)(n * (rep % 3)) / 2 + rep % 2, full, &A)) { CHECK(0); continue; }
            for (o = 0; o < 5; o++) {
                lcl_klu_opts op;
                lcl_klu_symbolic *S = NULL;
                lcl_klu_info info;
                lcl_status st;
                int64_t rank = ka_rank(&A);
                memset(&op, 0, sizeof op);
                op.ordering = o < 3 ? (lcl_klu_ordering)o : LCL_KLU_AMD;
                op.no_btf = o == 3;
                st = lcl_klu_analyze(ctx, &A, o == 4 ? NULL : &op, &S, &info);
                CHECK(info.structural_rank == rank && info.n == n && info.nnz == A.nnz);
                if (rank < n) {
                    char want[64];
                    CHECK_STATUS(ctx, st, LCL_ERR_SINGULAR);
                    CHECK(S == NULL);
                    snprintf(want, sizeof want, "structural rank %lld of %d", (long long)rank, (int)n);
                    CHECK_MSG(strstr(lcl_last_error(ctx), want) != NULL, "%s", lcl_last_error(ctx));
                    continue;
                }
                CHECK_OK(ctx, st);
                if (!S) continue;
                free(ka_check(&A, S));
                CHECK(info.blocks == S->nblocks && info.max_block == S->max_block && info.nnz_offdiag == S->nnz_offdiag);
                CHECK(info.singular_col == -1 && info.nnz_l == 0 && info.nnz_u == 0);
                CHECK(S->opts.tol == 0.001 && S->opts.scale == LCL_KLU_SCALE_MAX && S->opts.growth_limit == 1e8 && S->opts.perm == NULL);
                if (op.no_btf) CHECK(S->nblocks == 1 && S->nnz_offdiag == 0);
                /* the estimate is the Cholesky count of Bk + Bk^T: never below the LU fill */
                CHECK(S->est_lnz + S->est_unz >= ka_lu_fill(&A, S) - 1e-9);
                if (S->nblocks > 1) nbtf++;
                lcl_klu_symbolic_free(S);
            }
            lcl_csr_free(&A);
        }
    CHECK(nbtf > 20);
    lcl_context_destroy(ctx);
}

/* fill of one ordering; -1 on failure */
static double ka_fill(lcl_context *ctx, const lcl_csr *A, lcl_klu_ordering ord, double *est) {
    lcl_klu_opts op;
    lcl_klu_symbolic *S = NULL;
    double f = -1;
    int32_t *blk;
    memset(&op, 0, sizeof op);
    op.ordering = ord;
    CHECK_OK(ctx, lcl_klu_analyze(ctx, A, &op, &S, NULL));
    if (!S) return -1;
    blk = ka_check(A, S);
    if (blk) f = ka_lu_fill(A, S);
    if (est) *est = S->est_lnz + S->est_unz;
    CHECK(S->est_lnz + S->est_unz >= f - 1e-9);
    free(blk);
    lcl_klu_symbolic_free(S);
    return f;
}

static int ka_load(lcl_context *ctx, const char *spec, lcl_csr *A) {
    lcl_coo C;
    char err[256];
    int ok;
    memset(A, 0, sizeof *A);
    if (lclg_load(ctx, spec, 1, LCL_F64, &C, err, sizeof err) != LCL_OK) { CHECK_MSG(0, "%s: %s", spec, err); return 0; }
    ok = lcl_csr_from_coo(ctx, &C, A) == LCL_OK;
    lcl_coo_free(&C);
    CHECK(ok);
    return ok;
}

static void test_klu_analyze_fill(void) {
    static const char *const gens[] = {"gen:poisson2d:30", "gen:poisson3d:10"};
    static char names[64][LT_NAME_MAX];
    lcl_context *ctx = ka_ctx();
    int g, i, nm;
    double tot_nat = 0, tot_amd = 0, tot_col = 0, tot_unsym = 0;
    if (!ctx) { CHECK(ctx != NULL); return; }
    for (g = 0; g < 2; g++) {
        lcl_csr A;
        double nat, amd, col, est;
        if (!ka_load(ctx, gens[g], &A)) continue;
        nat = ka_fill(ctx, &A, LCL_KLU_NATURAL, NULL);
        amd = ka_fill(ctx, &A, LCL_KLU_AMD, &est);
        col = ka_fill(ctx, &A, LCL_KLU_COLAMD, NULL);
        fprintf(stderr, "  %s: nnz(L+U) natural %.0f, amd %.0f (estimate %.0f), colamd %.0f\n", gens[g], nat, amd, est, col);
        CHECK(amd > 0 && amd < 0.6 * nat);
        CHECK(col > 0 && col < 0.8 * nat);
        CHECK(est == amd);   /* symmetric pattern: the Cholesky count is the LU fill */
        lcl_csr_free(&A);
    }
    nm = lt_matrix_list(names, 64);
    for (i = 0; i < nm; i++) {
        char path[1200];
        lcl_csr A;
        lcl_coo C;
        double nat, amd, col;
        lcl_status st;
        lt_matrix_path(path, sizeof path, names[i]);
        if (lcl_mm_read(ctx, path, LCL_F64, LCL_MM_EXPAND, &C, NULL) != LCL_OK) { CHECK_MSG(0, "%s: %s", path, lcl_last_error(ctx)); continue; }
        if (C.rows != C.cols || C.rows > 3000) { lcl_coo_free(&C); continue; }
        st = lcl_csr_from_coo(ctx, &C, &A);
        lcl_coo_free(&C);
        if (st != LCL_OK) { CHECK(0); continue; }
        if (ka_rank(&A) < A.rows) {   /* structurally singular: not for this test */
            lcl_csr_free(&A);
            continue;
        }
        nat = ka_fill(ctx, &A, LCL_KLU_NATURAL, NULL);
        amd = ka_fill(ctx, &A, LCL_KLU_AMD, NULL);
        col = ka_fill(ctx, &A, LCL_KLU_COLAMD, NULL);
        fprintf(stderr, "  %s: n %lld, nnz %lld, nnz(L+U) natural %.0f, amd %.0f, colamd %.0f\n", names[i], (long long)A.rows,
                (long long)A.nnz, nat, amd, col);
        CHECK_MSG(amd <= 1.1 * nat, "%s: amd %.0f, natural %.0f", names[i], amd, nat);
        tot_nat += nat;
        tot_amd += amd;
        if (!ka_symmetric(&A)) {   /* the column ordering is for unsymmetric patterns */
            CHECK_MSG(col <= 1.1 * nat, "%s: colamd %.0f, natural %.0f", names[i], col, nat);
            tot_col += col;
            tot_unsym += nat;
        }
        lcl_csr_free(&A);
    }
    fprintf(stderr, "  real matrices: nnz(L+U) natural %.0f, amd %.0f; unsymmetric ones: natural %.0f, colamd %.0f\n", tot_nat, tot_amd,
            tot_unsym, tot_col);
    CHECK(tot_amd < 0.7 * tot_nat);
    CHECK(tot_col < 0.8 * tot_unsym);
    lcl_context_destroy(ctx);
}

static void test_klu_analyze_circuit(void) {
    static const char *const gens[] = {"gen:circuit:1000", "gen:circuit:100000"};
    lcl_context *ctx = ka_ctx();
    int g;
    if (!ctx) { CHECK(ctx != NULL); return; }
    for (g = 0; g < 2; g++) {
        lcl_csr A;
        lcl_klu_symbolic *S = NULL;
        lcl_klu_info info;
        int32_t *blk;
        int64_t b, ones = 0;
        if (!ka_load(ctx, gens[g], &A)) continue;
        CHECK_OK(ctx, lcl_klu_analyze(ctx, &A, NULL, &S, &info));
        if (!S) { lcl_csr_free(&A); continue; }
        blk = ka_check(&A, S);
        for (b = 0; b < S->nblocks; b++) ones += S->R[b + 1] - S->R[b] == 1;
        fprintf(stderr, "  %s: %lld blocks (%lld of size 1), largest %lld, %lld entries off the diagonal blocks, est nnz(L) %.0f\n",
                gens[g], (long long)info.blocks, (long long)ones, (long long)info.max_block, (long long)info.nnz_offdiag, S->est_lnz);
        CHECK(info.blocks >= 16 && ones > 0 && info.max_block < A.rows / 4 && info.nnz_offdiag > 0);
        if (A.rows <= 1000) {
            lcl_klu_symbolic *N = NULL;
            lcl_klu_opts op;
            double amd = ka_lu_fill(&A, S), nat;
            memset(&op, 0, sizeof op);
            op.ordering = LCL_KLU_NATURAL;
            CHECK_OK(ctx, lcl_klu_analyze(ctx, &A, &op, &N, NULL));
            nat = N ? ka_lu_fill(&A, N) : 0;
            fprintf(stderr, "  %s: nnz(L+U) amd %.0f, natural %.0f\n", gens[g], amd, nat);
            CHECK(amd < nat);
            lcl_klu_symbolic_free(N);
        }
        free(blk);
        lcl_klu_symbolic_free(S);
        lcl_csr_free(&A);
    }
    lcl_context_destroy(ctx);
}

/* LCL_KLU_USER: the BTF of A(perm, perm), the user's order kept inside each block */
static void test_klu_analyze_user(void) {
    lcl_context *ctx = ka_ctx();
    int rep;
    if (!ctx) { CHECK(ctx != NULL); return; }
    for (rep = 0; rep < 6; rep++) {
        int32_t n = 30 + rep * 7, i, k, *perm = (int32_t *)malloc(sizeof(int32_t) * (size_t)n), *pos = (int32_t *)malloc(sizeof(int32_t) * (size_t)n);
        lcl_csr A;
        lcl_klu_opts op;
        lcl_klu_symbolic *S = NULL;
        if (!ka_random(ctx, n, n / 2, 1, &A)) { CHECK(0); free(perm); free(pos); continue; }
        for (i = 0; i < n; i++) perm[i] = i;
        for (i = n - 1; i > 0; i--) { int32_t j = (int32_t)ka_rnd((uint32_t)i + 1), t = perm[i]; perm[i] = perm[j]; perm[j] = t; }
        for (i = 0; i < n; i++) pos[perm[i]] = i;
        memset(&op, 0, sizeof op);
        op.ordering = LCL_KLU_USER;
        op.perm = perm;
        op.no_btf = rep == 5;
        CHECK_OK(ctx, lcl_klu_analyze(ctx, &A, &op, &S, NULL));
        if (S) {
            free(ka_check(&A, S));
            CHECK(S->opts.perm == NULL && S->opts.ordering == LCL_KLU_USER);
            for (k = 0; k < S->nblocks; k++)
                for (i = S->R[k] + 1; i < S->R[k + 1]; i++) CHECK(pos[S->Q[i]] > pos[S->Q[i - 1]]);
            if (op.no_btf)
                for (i = 0; i < n; i++) CHECK(S->P[i] == perm[i] && S->Q[i] == perm[i]);
        }
        lcl_klu_symbolic_free(S);
        lcl_csr_free(&A);
        free(perm);
        free(pos);
    }
    lcl_context_destroy(ctx);
}

static void test_klu_analyze_errors(void) {
    lcl_context *ctx = ka_ctx();
    lcl_csr A, R;
    lcl_klu_opts op;
    lcl_klu_symbolic *S = (lcl_klu_symbolic *)&op;
    lcl_klu_info info;
    /* 5x5, column 2 empty: structural rank 4 */
    static const int32_t ri[] = {0, 0, 1, 2, 3, 4, 4}, cj[] = {0, 1, 1, 3, 3, 4, 0};
    int32_t perm[5] = {4, 3, 2, 1, 0};
    int64_t saved;
    if (!ctx) { CHECK(ctx != NULL); return; }
    if (!ka_csr(ctx, 5, 5, 7, ri, cj, &A) || !ka_random(ctx, 5, 3, 1, &R)) { CHECK(0); lcl_context_destroy(ctx); return; }
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &A, NULL, &S, &info), LCL_ERR_SINGULAR);
    CHECK(S == NULL && info.structural_rank < 5 && info.n == 5);
    CHECK_MSG(strstr(lcl_last_error(ctx), "structural rank 3 of 5") != NULL || strstr(lcl_last_error(ctx), "structural rank 4 of 5") != NULL,
              "%s", lcl_last_error(ctx));
    CHECK(info.structural_rank == ka_rank(&A));
    CHECK_STATUS(NULL, lcl_klu_analyze(NULL, &A, NULL, &S, NULL), LCL_ERR_SINGULAR);   /* no context: status only */
    /* non-square, empty */
    R.cols = 6;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, NULL, &S, &info), LCL_ERR_DIMENSION);
    CHECK(strstr(lcl_last_error(ctx), "square") != NULL);
    R.cols = 5;
    {
        lcl_csr E;
        int64_t zero = 0;
        memset(&E, 0, sizeof E);
        E.dtype = LCL_F64;
        E.ptr = &zero;
        CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &E, NULL, &S, &info), LCL_ERR_DIMENSION);
        CHECK(strstr(lcl_last_error(ctx), "empty") != NULL);
    }
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, NULL, NULL, &S, &info), LCL_ERR_INVALID_ARGUMENT);
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, NULL, NULL, &info), LCL_ERR_INVALID_ARGUMENT);
    /* not canonical: a row's columns swapped; a column out of range */
    if (R.ptr[1] - R.ptr[0] >= 2 || R.ptr[2] - R.ptr[1] >= 2) {
        int64_t r0 = R.ptr[1] - R.ptr[0] >= 2 ? R.ptr[0] : R.ptr[1];
        int32_t t = R.col[r0];
        R.col[r0] = R.col[r0 + 1];
        R.col[r0 + 1] = t;
        CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, NULL, &S, &info), LCL_ERR_INVALID_ARGUMENT);
        CHECK(strstr(lcl_last_error(ctx), "sorted") != NULL);
        R.col[r0 + 1] = R.col[r0];
        R.col[r0] = t;
    }
    saved = R.col[0];
    R.col[0] = 9;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, NULL, &S, &info), LCL_ERR_DIMENSION);
    R.col[0] = (int32_t)saved;
    /* values are not looked at: NaN and NULL values pass */
    ((double *)R.val)[0] = NAN;
    CHECK_OK(ctx, lcl_klu_analyze(ctx, &R, NULL, &S, &info));
    lcl_klu_symbolic_free(S);
    /* options */
    memset(&op, 0, sizeof op);
    op.ordering = (lcl_klu_ordering)7;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info), LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "ordering") != NULL);
    op.ordering = LCL_KLU_AMD;
    op.scale = (lcl_klu_scaling)9;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info), LCL_ERR_INVALID_ARGUMENT);
    op.scale = LCL_KLU_SCALE_SUM;
    op.tol = 1.5;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info), LCL_ERR_INVALID_ARGUMENT);
    op.tol = -0.1;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info), LCL_ERR_INVALID_ARGUMENT);
    op.tol = NAN;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info), LCL_ERR_INVALID_ARGUMENT);
    op.tol = 0.5;
    op.growth_limit = -1;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info), LCL_ERR_INVALID_ARGUMENT);
    op.growth_limit = 0;
    op.dense = NAN;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info), LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "opts.dense is NaN") != NULL);
    op.dense = 0;
    CHECK_OK(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info));
    if (S) CHECK(S->opts.tol == 0.5 && S->opts.scale == LCL_KLU_SCALE_SUM);
    lcl_klu_symbolic_free(S);
    op.ordering = LCL_KLU_USER;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info), LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "perm") != NULL);
    op.perm = perm;
    perm[1] = 4;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info), LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "not a permutation") != NULL);
    perm[1] = 5;
    CHECK_STATUS(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info), LCL_ERR_INVALID_ARGUMENT);
    perm[1] = 3;
    CHECK_OK(ctx, lcl_klu_analyze(ctx, &R, &op, &S, &info));
    lcl_klu_symbolic_free(S);
    lcl_klu_symbolic_free(NULL);
    lcl_csr_free(&A);
    lcl_csr_free(&R);
    lcl_context_destroy(ctx);
}

/* every allocation of analyze failing in turn: out of memory, nothing leaked */
static void test_klu_analyze_nomem(void) {
    lcl_context *ctx = ka_ctx();
    lcl_csr A;
    int o;
    if (!ctx) { CHECK(ctx != NULL); return; }
    if (!ka_load(ctx, "gen:circuit:300", &A)) { lcl_context_destroy(ctx); return; }
    for (o = 0; o < 4; o++) {
        lcl_klu_opts op;
        int32_t *perm = (int32_t *)malloc(sizeof(int32_t) * (size_t)A.rows);
        long k, before = lt_alloc_outstanding();
        int64_t i;
        memset(&op, 0, sizeof op);
        op.ordering = (lcl_klu_ordering)o;
        for (i = 0; i < A.rows; i++) perm[i] = (int32_t)(A.rows - 1 - i);
        op.perm = perm;
        for (k = 1; k < 10000; k++) {
            lcl_klu_symbolic *S = NULL;
            lcl_status st;
            lt_alloc_fail_at(k);
            st = lcl_klu_analyze(ctx, &A, &op, &S, NULL);
            lt_alloc_fail_at(0);
            if (st == LCL_OK) { lcl_klu_symbolic_free(S); break; }
            CHECK_STATUS(ctx, st, LCL_ERR_OUT_OF_MEMORY);
            CHECK(S == NULL && lt_alloc_outstanding() == before);
        }
        CHECK(k > 5 && k < 10000);
        free(perm);
    }
    lcl_csr_free(&A);
    lcl_context_destroy(ctx);
}

void lt_suite_klu_analyze(void) {
    LT_RUN(test_klu_analyze_random);
    LT_RUN(test_klu_analyze_fill);
    LT_RUN(test_klu_analyze_circuit);
    LT_RUN(test_klu_analyze_user);
    LT_RUN(test_klu_analyze_errors);
    LT_RUN(test_klu_analyze_nomem);
}
#endif
