#!/bin/bash
# Where a host-array factorization's time goes on one device: upload, getrf and download of an
# n x n double matrix (both layouts), against plain blocking clEnqueueWrite/ReadBuffer of the same
# bytes (bench/gpu/xfer.c).
#   bash bench/gpu/xfer.sh
# Environment: N (default 16384), REPS (default 3), DEVICE, OUT. Log: $OUT/xfer.log.
. "$(dirname "$0")/setup.sh"
N=${N:-16384}
REPS=${REPS:-3}
${CC:-cc} -std=c99 -Wall -Wextra -pedantic -O2 -fopenmp -I. -I"$STB_INCLUDE" -o build/xfer bench/gpu/xfer.c -ldl -lpthread -lm \
    || { echo "bench/gpu: building build/xfer failed" >&2; exit 1; }
logged xfer build/xfer "$DEVICE" "$N" "$REPS"
