# cuBLAS on the shapes of tools/bench_gemm_cl.c, through CuPy: dgemm NN and NT, and dsyrk for the
# lower-triangle trailing update of Cholesky (C -= A A^T, lower only). TF/s counts 2 M N K flops for
# a GEMM and N^2 K for a lower update, as bench_gemm_cl does. Median of CUDA-event timings after a
# warm-up; each result spot-checked against a float64 product of a few rows on the host.
import argparse
import numpy as np
import cupy as cp
import cupy.cublas
from cudatime import bench

p = argparse.ArgumentParser(description="cuBLAS dgemm / dsyrk on bench_gemm_cl's shapes")
p.add_argument("--reps", type=int, default=10)
args = p.parse_args()


def check(c, a, b, lower):
    """rows 0, M/2 and M-1 of C = -A B^T (or -A B) against the host, relative to |A| |B|"""
    ha, hb, hc = cp.asnumpy(a), cp.asnumpy(b), cp.asnumpy(c)
    worst = 0.0
    for i in sorted({0, ha.shape[0] // 2, ha.shape[0] - 1}):
        ref = -(ha[i] @ hb)
        got = hc[i].copy()
        if lower:
            ref, got = ref[: i + 1], got[: i + 1]
        scale = np.abs(ha[i]) @ np.abs(hb)
        worst = max(worst, float(np.max(np.abs(got - ref) / scale[: ref.size])))
    return worst


print("device", cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
rs = cp.random.RandomState(1)
# M, N, K, B transposed, lower triangle of C only
for M, N, K, nt, lo in [(8192, 8192, 8192, 0, 0), (16384, 16384, 512, 1, 0), (15744, 15744, 640, 1, 0),
                        (15744, 15744, 640, 1, 1), (8192, 8192, 640, 1, 1)]:
    a = cp.asfortranarray(rs.uniform(-0.5, 0.5, (M, K)))
    b = a if lo else cp.asfortranarray(rs.uniform(-0.5, 0.5, (N, K) if nt else (K, N)))
    c = cp.zeros((M, N), order="F")
    if lo:
        def run():
            cupy.cublas.syrk("N", a, out=c, alpha=-1.0, beta=0.0, lower=True)
        name, flops = "dsyrk lower", float(N) * N * K
    else:
        def run():
            cupy.cublas.gemm("N", "T" if nt else "N", a, b, out=c, alpha=-1.0, beta=0.0)
        name, flops = "dgemm " + ("NT" if nt else "NN"), 2.0 * M * N * K
    t = bench(run, args.reps)
    run()
    err = check(c, a, b.T if nt else b, lo)   # C = -A op(B), op(B) = B^T when nt (B = A for dsyrk)
    print("M=%d N=%d K=%d %-12s %8.3f ms %7.2f TF/s  check %.1e" % (M, N, K, name, t * 1e3, flops / t / 1e12, err), flush=True)
    del a, b, c
    cp.get_default_memory_pool().free_all_blocks()
