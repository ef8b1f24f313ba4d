/* use.c -- a second translation unit that only includes the header, as a user's other files do. */
#include "../../linalg_cl.h"
#include <stdio.h>
#include <string.h>

int main(void) {
    static const char mm[] = "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 2\n2 1 -1\n2 2 4\n";
    lcl_context *ctx = NULL;
    lcl_coo a;
    double x[3] = {1, 2, 3}, y[3] = {1, 1, 1};
    int fails = 0;
    if (lcl_context_create(NULL, &ctx) != LCL_OK) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); fails++; }
    if (lcl_mm_read_mem(ctx, mm, sizeof mm - 1, LCL_F64, 0, &a, NULL) != LCL_OK || a.nnz != 3) fails++;
    lcl_coo_free(&a);
    if (lcl_axpy(ctx, LCL_F64, 3, 2.0, x, y) != LCL_OK || y[2] != 7.0) { fprintf(stderr, "%s\n", lcl_last_error(ctx)); fails++; }
#ifdef LINALG_CL_MPI
    {   /* the MPI section links (not run: no MPI_Init here) */
        lcl_status (*volatile halo)(lcl_context *, MPI_Comm, const lcl_rowpart *, lcl_dtype, void *) = lcl_mpi_halo;
        if (!halo) fails++;
    }
#endif
    printf("%s backend, %d device(s)\n", lcl_backend_name(lcl_context_backend(ctx)), lcl_context_num_devices(ctx));
    lcl_context_destroy(ctx);
    return fails;
}
