/* test_mpi.c -- the LINALG_CL_MPI section over real ranks (make check-mpi runs it with mpirun -np
   2 and 3): lcl_mpi_halo on unsymmetric matrices, some with empty parts, in both precisions (each
   ghost must arrive as its owner's value; then local * x_local must be this rank's rows of A x),
   lcl_mpi_dot against the sum of every rank's values, and the error paths (a plan of another
   size or part, NULL, bad dtype, negative length). Prints "N passed, M failed" and exits 1 on a
   failure on any rank. */
#define _POSIX_C_SOURCE 200809L
#define LINALG_CL_MPI
#define LINALG_CL_IMPLEMENTATION
#include "../../linalg_cl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, nranks, fails, checks;
#define CHECK(c) do { checks++; if (!(c)) { fails++; fprintf(stderr, "rank %d: %s:%d: CHECK(%s) failed\n", rank, __FILE__, __LINE__, #c); } } while (0)

/* kind 0: random unsymmetric with empty rows; kind 1: row 0 dense, diagonal elsewhere (empty parts);
   values small integers, exact in float */
static void make(lcl_context *ctx, int64_t n, int kind, lcl_dtype dt, lcl_csr *A) {
    lcl_coo C;
    int64_t i, j;
    uint64_t s = 12345;
    CHECK(lcl_coo_alloc(ctx, &C, dt, n, n, 0) == LCL_OK);
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            if (kind == 0 ? (i % 4 != 1 && (s >> 60) == 0) : (i == 0 || i == j))
                CHECK(lcl_coo_push(ctx, &C, i, j, (double)((int)(s >> 33) % 7 - 3)) == LCL_OK);
        }
    CHECK(lcl_csr_from_coo(ctx, &C, A) == LCL_OK);
    lcl_coo_free(&C);
}

static void halo_products(lcl_context *ctx, int64_t n, int kind, lcl_dtype dt) {
    size_t es = dt == LCL_F32 ? sizeof(float) : sizeof(double);
    lcl_csr A;
    lcl_rowpart P;
    lcl_spmat *M = NULL;
    int64_t k, i;
    char *x, *y;
    int bad = 0;
    if (n < nranks) return;     /* more parts than rows: refused (tests/test_rowpart.c) */
    make(ctx, n, kind, dt, &A);
    CHECK(lcl_rowpart_create(ctx, &A, nranks, rank, &P) == LCL_OK);
    x = (char *)malloc((size_t)(P.nloc + P.nghost + 1) * es);
    y = (char *)malloc((size_t)(P.nloc + 1) * es);
    if (!x || !y) { fails++; return; }
    for (k = 0; k < P.nloc + P.nghost; k++) {      /* x_g = g % 13 - 6 on the owner, garbage in the ghosts */
        double v = k < P.nloc ? (double)((P.r0 + k) % 13 - 6) : 1e30;
        if (dt == LCL_F32) ((float *)x)[k] = (float)v; else ((double *)x)[k] = v;
    }
    CHECK(lcl_mpi_halo(ctx, MPI_COMM_WORLD, &P, dt, x) == LCL_OK);
    for (k = 0; k < P.nghost; k++) {
        double got = dt == LCL_F32 ? (double)((float *)x)[P.nloc + k] : ((double *)x)[P.nloc + k];
        bad += got != (double)(P.ghost[k] % 13 - 6);
    }
    CHECK(lcl_spmat_create(ctx, &P.local, NULL, &M) == LCL_OK);
    if (M) CHECK(lcl_spmv(ctx, LCL_NO_TRANS, 1.0, M, x, 0.0, y) == LCL_OK);
    for (i = P.r0; M && i < P.r1; i++) {
        double s = 0, got = dt == LCL_F32 ? (double)((float *)y)[i - P.r0] : ((double *)y)[i - P.r0];
        for (k = A.ptr[i]; k < A.ptr[i + 1]; k++)
            s += (dt == LCL_F32 ? (double)((float *)A.val)[k] : ((double *)A.val)[k]) * (double)(A.col[k] % 13 - 6);
        bad += got != s;
    }
    if (bad) fprintf(stderr, "rank %d: n=%lld kind %d %s: %d wrong ghosts or rows\n", rank, (long long)n, kind, dt == LCL_F32 ? "float" : "double", bad);
    CHECK(bad == 0);
    lcl_spmat_free(M);
    lcl_rowpart_free(&P);
    lcl_csr_free(&A);
    free(x); free(y);
}

static void errors(lcl_context *ctx) {
    lcl_csr A;
    lcl_rowpart P, Q;
    double x[64] = {0}, d = 0;
    float f[4] = {1, 2, 3, 4};
    if (nranks + 1 > 8) return;
    make(ctx, 8, 0, LCL_F64, &A);
    CHECK(lcl_rowpart_create(ctx, &A, nranks, rank, &P) == LCL_OK);
    CHECK(lcl_mpi_halo(ctx, MPI_COMM_WORLD, NULL, LCL_F64, x) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(lcl_mpi_halo(ctx, MPI_COMM_WORLD, &P, LCL_F64, NULL) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(lcl_mpi_halo(ctx, MPI_COMM_WORLD, &P, (lcl_dtype)7, x) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "unknown dtype 7") != NULL);
    /* a plan of one part more than ranks; another rank's part */
    CHECK(lcl_rowpart_create(ctx, &A, nranks + 1, 0, &Q) == LCL_OK);
    CHECK(lcl_mpi_halo(ctx, MPI_COMM_WORLD, &Q, LCL_F64, x) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(lcl_last_error(ctx), "the plan is part 0 of") != NULL);
    lcl_rowpart_free(&Q);
    if (nranks > 1) {
        CHECK(lcl_rowpart_create(ctx, &A, nranks, (rank + 1) % nranks, &Q) == LCL_OK);
        CHECK(lcl_mpi_halo(ctx, MPI_COMM_WORLD, &Q, LCL_F64, x) == LCL_ERR_INVALID_ARGUMENT);
        lcl_rowpart_free(&Q);
    }
    /* the dot: every rank's 4 values, n < 0, NULL, bad dtype, no context */
    CHECK(lcl_mpi_dot(ctx, MPI_COMM_WORLD, LCL_F32, 4, f, f, &d) == LCL_OK && d == 30.0 * nranks);
    CHECK(lcl_mpi_dot(ctx, MPI_COMM_WORLD, LCL_F64, 0, NULL, NULL, &d) == LCL_OK && d == 0);
    CHECK(lcl_mpi_dot(ctx, MPI_COMM_WORLD, LCL_F64, -1, x, x, &d) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(lcl_mpi_dot(ctx, MPI_COMM_WORLD, LCL_F64, 4, x, NULL, &d) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(lcl_mpi_dot(ctx, MPI_COMM_WORLD, LCL_F64, 4, x, x, NULL) == LCL_ERR_INVALID_ARGUMENT);
    CHECK(lcl_mpi_dot(NULL, MPI_COMM_WORLD, (lcl_dtype)3, 4, x, x, &d) == LCL_ERR_INVALID_ARGUMENT);
    lcl_rowpart_free(&P);
    lcl_csr_free(&A);
}

int main(int argc, char **argv) {
    lcl_context_desc desc;
    lcl_context *ctx = NULL;
    int all = 0, d;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nranks);
    memset(&desc, 0, sizeof desc);
    desc.backend = LCL_BACKEND_SERIAL;
    CHECK(lcl_context_create(&desc, &ctx) == LCL_OK);
    for (d = 0; d < 2; d++) {
        lcl_dtype dt = d ? LCL_F32 : LCL_F64;
        halo_products(ctx, 3, 0, dt);
        halo_products(ctx, 17, 0, dt);
        halo_products(ctx, 61, 0, dt);
        halo_products(ctx, 9, 1, dt);       /* rank 0 takes row 0's work: middle parts empty */
    }
    errors(ctx);
    lcl_context_destroy(ctx);
    MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) printf("test_mpi: %d ranks: %d checks on rank 0, %d failed on all ranks\n", nranks, checks, all);
    MPI_Finalize();
    return all ? 1 : 0;
}
