# cuSPARSE CSR SpMV through CuPy on the matrices of bench/gpu/spmv.sh (the same recipes as
# ../shared/tools/gpu_anchors.py's sparse part, without its dense runs): 3-D Poisson 160^3 and a
# Pareto power-law matrix with 4M rows and mean 16. Median of 50 event timings. No options.
import numpy as np, cupy as cp, scipy.sparse as sp
import cupyx.scipy.sparse as csp
from cudatime import bench

def poisson3d(m):
    I = sp.identity(m); T = sp.diags([-1, 2, -1], [-1, 0, 1], shape=(m, m))
    return (sp.kron(sp.kron(T, I), I) + sp.kron(sp.kron(I, T), I) + sp.kron(sp.kron(I, I), T)).tocsr()

def powerlaw(n, avg):
    rng = np.random.default_rng(0)
    lens = np.minimum((rng.pareto(1.5, n) + 1) * avg / 3, n // 10).astype(np.int64)
    rows = np.repeat(np.arange(n), lens); cols = rng.integers(0, n, lens.sum())
    return sp.csr_matrix((rng.standard_normal(lens.sum()), (rows, cols)), shape=(n, n))

print("device:", cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
for name, M in [("poisson3d_160", poisson3d(160)), ("powerlaw_4M", powerlaw(4_000_000, 16))]:
    for dt in [np.float64, np.float32]:
        A = csp.csr_matrix(M.astype(dt)); x = cp.random.standard_normal(M.shape[1]).astype(dt)
        t = bench(lambda: A @ x, 50, 3)
        n, nnz = M.shape[0], A.nnz
        by = nnz * (np.dtype(dt).itemsize + 4) + (n + 1) * 4 + 2 * n * np.dtype(dt).itemsize
        print("cusparse %s %s n=%d nnz=%d t=%.4f ms %.0f GB/s %.1f GF/s" % (name, dt.__name__, n, nnz, t * 1e3, by / t / 1e9, 2 * nnz / t / 1e9), flush=True)
