# Host<->device and device<->device copy bandwidth through CUDA (CuPy), the ceiling that OpenCL's
# transfers are measured against: pageable and pinned, each GPU alone and all at once, and peer
# copies between GPUs. Prints GB/s (median of 5). Run on the GPU machine; no options.
import threading, time, numpy as np, cupy as cp

def timeit(fn, reps=5):
    ts = []
    for _ in range(reps + 1):
        t0 = time.perf_counter(); fn(); t1 = time.perf_counter()
        ts.append(t1 - t0)
    return float(np.median(ts[1:]))

N = 1 << 30  # bytes per copy
ng = cp.cuda.runtime.getDeviceCount()
host = np.ones(N // 8)
pin_mem = cp.cuda.alloc_pinned_memory(N)
pin = np.frombuffer(pin_mem, dtype=np.float64, count=N // 8); pin[:] = 1
dev = []
for g in range(ng):
    with cp.cuda.Device(g):
        dev.append(cp.empty(N // 8))
def h2d(g, src):
    with cp.cuda.Device(g):
        dev[g].set(src); cp.cuda.Device(g).synchronize()
def d2h(g, dst):
    with cp.cuda.Device(g):
        dev[g].get(out=dst); cp.cuda.Device(g).synchronize()
for g in range(ng):
    for name, buf in (("pageable", host), ("pinned", pin)):
        print("gpu%d %-8s H2D %.1f GB/s  D2H %.1f GB/s" % (g, name, N / timeit(lambda: h2d(g, buf)) / 1e9,
              N / timeit(lambda: d2h(g, buf)) / 1e9), flush=True)
if ng > 1:
    pins = [pin] + [np.frombuffer(cp.cuda.alloc_pinned_memory(N), dtype=np.float64, count=N // 8) for _ in range(ng - 1)]
    hosts = [host] + [np.ones(N // 8) for _ in range(ng - 1)]
    for name, bufs in (("pageable", hosts), ("pinned", pins)):
        def both():
            th = [threading.Thread(target=h2d, args=(g, bufs[g])) for g in range(ng)]
            [t.start() for t in th]; [t.join() for t in th]
        print("all %d GPUs at once, %s H2D: %.1f GB/s in all" % (ng, name, ng * N / timeit(both) / 1e9), flush=True)
    for a in range(ng):
        for b in range(ng):
            if a != b:
                can = cp.cuda.runtime.deviceCanAccessPeer(a, b)
                def p2p():
                    with cp.cuda.Device(b):
                        cp.cuda.runtime.memcpyPeer(dev[b].data.ptr, b, dev[a].data.ptr, a, N)
                        cp.cuda.Device(b).synchronize()
                print("peer %d->%d (can access %d): %.1f GB/s" % (a, b, can, N / timeit(p2p) / 1e9), flush=True)
