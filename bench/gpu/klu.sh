#!/bin/bash
# The sparse LU on one OpenCL device against the serial host code: first the KLU tests on the
# device (device solve and refactor against the host's, both precisions), then per matrix
# `lcl solve --method klu` (partial pivoting, --tol 1) with the refactor and the solve timed:
#   serial                  the host code (the baseline)
#   opencl                  the device's defaults: on a GPU the refactor runs there
#                           (tune.klu_refactor), and so the host-array solve (b up, x down)
#   opencl --vec            the same, the solve on a device vector (lcl_klu_solve_vec): no transfers
#   opencl LCL_KLU_REFACTOR=0   refactor on the host (values uploaded before the next device solve)
# t_refactor: median of REFACTORS refactors of perturbed values; t_solve: median of REPS solves after
# a warm-up. A matrix whose factors have a dense tail (the library's default, --dense 0.8) refactors
# on the host, tails and all, so its opencl rows time the host's refactor; DENSES' "-1" rows (no
# tails, sparse throughout) time the device's. gen:circuit:100000 with -1 factors for ~30 s on the
# host: the whole script may pass 600 s; split it (PRECISIONS=double, MATRICES=..., DENSES=-1).
#   bash bench/gpu/klu.sh
# Environment: MATRICES (default gen:circuit:10000 gen:circuit:100000, the square matrices of
# tests/data/matrices and ../shared/matrices), PRECISIONS (default "double single"), DENSES (default
# "default -1": --dense as given, default none), REFACTORS (default 3), REPS (default 10), TESTS=0 to
# skip the tests, DEVICE, OUT. Log: $OUT/klu.log.
. "$(dirname "$0")/setup.sh"
PRECISIONS=${PRECISIONS:-double single}
REFACTORS=${REFACTORS:-3}
DENSES=${DENSES:-default -1}
REPS=${REPS:-10}
if [ -z "${MATRICES:-}" ]; then
    MATRICES="gen:circuit:10000 gen:circuit:100000"
    for f in tests/data/matrices/*.mtx ../shared/matrices/*.mtx; do
        [ -f "$f" ] && head -1 "$f" | grep -qi 'matrix coordinate' && MATRICES="$MATRICES $f"
    done
fi
gpu_build build/lcl build/run_tests
export LCL_DEVICE=$DEVICE
[ "${TESTS:-1}" = 0 ] || logged klu env LT_FILTER=klu_opencl build/run_tests
for p in $PRECISIONS; do
    for m in $MATRICES; do
        for dn in $DENSES; do
            common=(solve "$m" --method klu --tol 1 --refactor "$REFACTORS" --reps "$REPS" --precision "$p" --json)
            [ "$dn" = default ] || common+=(--dense "$dn")
            logged klu build/lcl "${common[@]}" --backend serial
            logged klu build/lcl "${common[@]}" --device "$DEVICE"
            logged klu build/lcl "${common[@]}" --device "$DEVICE" --vec
            logged klu env LCL_KLU_REFACTOR=0 build/lcl "${common[@]}" --device "$DEVICE"
        done
    done
done
