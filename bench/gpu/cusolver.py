# cuSOLVER getrf / potrf through CuPy at chosen sizes: the reference of bench/gpu/dense.sh's rows
# without the whole anchor sweep (../shared/tools/gpu_anchors.py, n = 1024 to 32768, both
# precisions, SpMV too). Same matrices and timing as the anchors: median of CUDA-event timings
# after a warm-up, the copy that restores A subtracted.
#   python3 bench/gpu/cusolver.py --sizes 4096,16384 [--precision double|single] [--reps 5]
import argparse
import numpy as np
import cupy as cp
from cupy_backends.cuda.libs import cusolver
from cupy.cuda import device as cdev
from cudatime import bench

p = argparse.ArgumentParser(description="cuSOLVER getrf/potrf TF/s at the given sizes")
p.add_argument("--sizes", default="4096,16384")
p.add_argument("--precision", default="double", choices=["double", "single"])
p.add_argument("--reps", type=int, default=5)
args = p.parse_args()


h = cdev.get_cusolver_handle()
if args.precision == "double":
    dt, getrf_b, getrf, potrf_b, potrf = (np.float64, cusolver.dgetrf_bufferSize, cusolver.dgetrf,
                                          cusolver.dpotrf_bufferSize, cusolver.dpotrf)
else:
    dt, getrf_b, getrf, potrf_b, potrf = (np.float32, cusolver.sgetrf_bufferSize, cusolver.sgetrf,
                                          cusolver.spotrf_bufferSize, cusolver.spotrf)
print("device:", cp.cuda.runtime.getDeviceProperties(0)["name"].decode())
for n in [int(s) for s in args.sizes.split(",")]:
    rs = cp.random.RandomState(1)
    A0 = rs.standard_normal((n, n), dtype=dt)
    A0 += n * cp.eye(n, dtype=dt)
    A = cp.empty_like(A0, order="F")
    ipiv = cp.empty(n, dtype=cp.int32)
    info = cp.empty(1, dtype=cp.int32)
    w = cp.empty(getrf_b(h, n, n, A.data.ptr, n), dtype=dt)

    def lu():
        A[...] = A0
        getrf(h, n, n, A.data.ptr, n, w.data.ptr, ipiv.data.ptr, info.data.ptr)

    tcopy = bench(lambda: A.__setitem__(Ellipsis, A0), args.reps)
    t = bench(lu, args.reps) - tcopy
    S = A0 @ A0.T if n <= 8192 else A0.T + A0 + 2 * n * cp.eye(n, dtype=dt)
    lw2 = potrf_b(h, 0, n, A.data.ptr, n)
    w2 = cp.empty(lw2, dtype=dt)

    def ch():
        A[...] = S
        potrf(h, 0, n, A.data.ptr, n, w2.data.ptr, lw2, info.data.ptr)

    t2 = bench(ch, args.reps) - tcopy
    print("cuSOLVER %s n = %d: getrf %.3f ms %.2f TF/s, potrf %.3f ms %.2f TF/s" %
          (args.precision, n, t * 1e3, 2 / 3 * n**3 / t / 1e12, t2 * 1e3, 1 / 3 * n**3 / t2 / 1e12), flush=True)
    del A0, A, S, w, w2
    cp.get_default_memory_pool().free_all_blocks()
