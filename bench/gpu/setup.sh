#!/bin/bash
# Sourced by the other bench/gpu scripts (run from the repository root): registers NVIDIA's OpenCL
# driver, builds what a script needs, and gives it a log folder and the CuPy references.
# A fresh GPU machine may come with every device-tool call, so every script starts here.
#   bash bench/gpu/setup.sh [make targets...]   the same, alone (default: build/lcl)
#
# Environment (all optional):
#   OUT     where the logs go (the device tool's $OUT; default build/bench-gpu)
#   DEVICE  OpenCL device spec for our runs (default gpu; e.g. cpu to try a script on PoCL)
#   REF     0: skip the CuPy references (cuSOLVER, cuSPARSE, cuBLAS), e.g. where CuPy is absent
set -o pipefail
[ -f linalg_cl.h ] && [ -f Makefile ] || { echo "bench/gpu: run from the repository root" >&2; exit 2; }

OUTDIR=${OUT:-build/bench-gpu}
DEVICE=${DEVICE:-gpu}
REF=${REF:-1}
mkdir -p "$OUTDIR" build

# NVIDIA's ICD is installed but not registered on the GPU machine (../shared/GPU-MACHINE.md)
if [ -e /usr/lib/libnvidia-opencl.so.1 ] && [ -w /etc/OpenCL/vendors ] && [ ! -e /etc/OpenCL/vendors/nvidia.icd ]; then
    echo /usr/lib/libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
fi
# stb_ds.h is not installed there: bench/gpu/prepare.sh brings it in the carried .gpu/
if [ -f .gpu/stb_ds.h ]; then STB_INCLUDE=.gpu; else STB_INCLUDE=${STB_INCLUDE:-/usr/include/stb}; fi
export STB_INCLUDE

# gpu_build TARGET...: make the targets quietly (the first build on a fresh machine takes a minute)
gpu_build() {
    make -s "$@" STB_INCLUDE="$STB_INCLUDE" || { echo "bench/gpu: make $* failed" >&2; exit 1; }
}

# logged LOG CMD...: print the command, run it, append both to $OUTDIR/LOG.log
logged() {
    local log="$OUTDIR/$1.log"
    shift
    echo "+ $*" | tee -a "$log"
    "$@" 2>&1 | tee -a "$log"
}

# anchors LOG: cuSOLVER getrf/potrf (n = 1024 to 32768, double and single), device copy bandwidth and
# cuSPARSE CSR SpMV (Poisson 160^3, power-law 4M) through CuPy, in the same command as ours
anchors() {
    local a=
    [ "$REF" = 0 ] && { echo "bench/gpu: REF=0, CuPy references skipped" | tee -a "$OUTDIR/$1.log"; return 0; }
    for f in .gpu/gpu_anchors.py ../shared/tools/gpu_anchors.py; do [ -f "$f" ] && { a=$f; break; }; done
    [ -n "$a" ] || { echo "bench/gpu: gpu_anchors.py not found (run bench/gpu/prepare.sh here, carry .gpu)" >&2; exit 2; }
    logged "$1" env PYTHONUNBUFFERED=1 python3 "$a"
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    [ $# -gt 0 ] || set -- build/lcl
    gpu_build "$@"
    echo "built $* (STB_INCLUDE=$STB_INCLUDE); logs in $OUTDIR"
fi
