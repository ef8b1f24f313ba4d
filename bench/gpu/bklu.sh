#!/bin/bash
# The block LU (lcl_bklu_*) on the GPU machine: correctness on small random block matrices (every
# device path: resident, streaming, capped), then bench/gpu/bklu_quick.c's timings of the numeric
# phase on OpenMP (all host cores) and 1, 2, all GPUs.
#   bash bench/gpu/bklu.sh        BASES (default gen:circuit:1000), MS (default 64,256,512),
#                                 RUNS (default omp,cl1,cl2), REPS (default 3)
. "$(dirname "$0")/setup.sh"
gpu_build build/lcl
CC=${CC:-gcc}
$CC -O2 -march=native -fopenmp -std=c99 -I. -o build/bklu_check bench/gpu/bklu_check.c -lm -ldl || exit 1
$CC -O3 -march=native -fopenmp -std=c99 -I. -I"$STB_INCLUDE" -o build/bklu_quick bench/gpu/bklu_quick.c tools/lcl_gen.c -lm -ldl || exit 1
if [ "${CHECK:-1}" = 1 ]; then
    for args in "50 4" "200 8" "300 17" "1 1" "2 3" "60 70" "40 200"; do
        logged bklu env DEVSPEC=gpu build/bklu_check $args 3
    done
    logged bklu env DEVSPEC=gpu MEMLIM=$((3000*8*8*8+2000000)) build/bklu_check 200 8 3
    logged bklu env DEVSPEC=gpu NOPIV=1 build/bklu_check 100 33 3
fi
for b in ${BASES:-gen:circuit:1000}; do
    logged bklu build/bklu_quick "$b" "${MS:-64,256,512}" "${REPS:-3}" "${RUNS:-omp,cl1,cl2}"
done
