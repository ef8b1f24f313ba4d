# The timing of the CuPy reference scripts (cusolver.py, cusparse.py, gemm_ref.py): the median of
# `reps` CUDA-event timings of fn(), in seconds, after `warm` untimed calls.
import numpy as np
import cupy as cp


def bench(fn, reps, warm=2):
    for _ in range(warm):
        fn()
    cp.cuda.Device().synchronize()
    ts = []
    for _ in range(reps):
        s, e = cp.cuda.Event(), cp.cuda.Event()
        s.record()
        fn()
        e.record()
        e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e) / 1e3)
    return float(np.median(ts))
