#!/bin/bash
# One factorization under several panel widths (LCL_DENSE_NB) and trailing-update caps
# (LCL_UPD_GROUPS), ROUNDS times over, each setting a separate `lcl bench dense` run.
#   CAPS="104 108 112 116 120" NBS=896 bash bench/gpu/sweep.sh
# Environment: OP (default cholesky), PRECISION (default double), SIZES (default 16384), REPS
# (default 5), ROUNDS (default 1), CAPS and NBS (space-separated; "default" leaves the variable
# unset; both default to "default"), DEVICE, OUT. Log: $OUT/sweep.log.
. "$(dirname "$0")/setup.sh"
OP=${OP:-cholesky}
PRECISION=${PRECISION:-double}
SIZES=${SIZES:-16384}
REPS=${REPS:-5}
ROUNDS=${ROUNDS:-1}
CAPS=${CAPS:-default}
NBS=${NBS:-default}
gpu_build build/lcl
for r in $(seq "$ROUNDS"); do
    for nb in $NBS; do
        for cap in $CAPS; do
            set -- env
            [ "$nb" = default ] || set -- "$@" LCL_DENSE_NB="$nb"
            [ "$cap" = default ] || set -- "$@" LCL_UPD_GROUPS="$cap"
            echo "round $r: NB $nb, cap $cap" | tee -a "$OUTDIR/sweep.log"
            logged sweep "$@" build/lcl bench dense --backend opencl --device "$DEVICE" --op "$OP" --sizes "$SIZES" \
                --reps "$REPS" --precision "$PRECISION"
        done
    done
done
