#!/bin/bash
# A/B of kernel build options and library settings on `lcl bench dense`, with cuSOLVER in the same
# command: every variant, op and size is one bench run, ROUNDS times over, and a summary with
# each median's ratio to cuSOLVER (and to the first variant) is printed and kept in $OUT.
#   VARIANTS="base; LCL_BUILD_OPTIONS=-DPF_SLOTS=1; LCL_NO_FUSED_STEP=1" SIZES=4096 bash bench/gpu/ab.sh
# Environment: VARIANTS (';'-separated; each a list of VAR=value settings, or "base" for none),
# OPS (default "cholesky lu"), SIZES (default 4096,16384), PRECISION (default double), REPS
# (default 5), ROUNDS (default 1), TRACE=1 (also build/trace_dense per variant and size), DEVICE,
# REF (0: no cuSOLVER), OUT. Logs: $OUT/ab.log (every run), $OUT/ab-summary.txt.
. "$(dirname "$0")/setup.sh"
VARIANTS=${VARIANTS:-base}
OPS=${OPS:-cholesky lu}
SIZES=${SIZES:-4096,16384}
PRECISION=${PRECISION:-double}
REPS=${REPS:-5}
ROUNDS=${ROUNDS:-1}
SUM="$OUTDIR/ab-summary.txt"
gpu_build build/lcl
[ "${TRACE:-0}" = 0 ] || gpu_build build/trace_dense
: > "$SUM"
if [ "$REF" != 0 ]; then   # "cuSOLVER double n = 4096: getrf 13.5 ms ..., potrf 1.8 ms ..."
    logged ab python3 "$(dirname "$0")/cusolver.py" --sizes "$SIZES" --precision "$PRECISION"
    grep "^cuSOLVER" "$OUTDIR/ab.log" | awk '{gsub(":", "", $5); print "ref lu", $5, $7 / 1e3; print "ref cholesky", $5, $12 / 1e3}' >> "$SUM"
fi
IFS=';' read -ra VS <<< "$VARIANTS"
for r in $(seq "$ROUNDS"); do
    for v in "${VS[@]}"; do
        v=$(echo $v)   # trimmed
        set -- env
        [ "$v" = base ] || set -- env $v
        for op in $OPS; do
            echo "== round $r, variant '$v', $op" | tee -a "$OUTDIR/ab.log"
            "$@" build/lcl bench dense --backend opencl --device "$DEVICE" --op "$op" --sizes "$SIZES" --reps "$REPS" \
                --precision "$PRECISION" 2>&1 | tee -a "$OUTDIR/ab.log" |
                awk -v v="${v// /_}" -v op="$op" -F'|' '/^\| [0-9]/ { gsub(/ /, "", $2); gsub(/ /, "", $7); print "run", op, $2, $7, v }' >> "$SUM"
            if [ "${TRACE:-0}" != 0 ]; then
                for n in ${SIZES//,/ }; do logged ab "$@" build/trace_dense "$DEVICE" "$n" "$op"; done
            fi
        done
    done
done
# op, n, variant, median s, ratio to cuSOLVER (speed), ratio to the first variant's first round
awk '$1 == "ref" { ref[$2 " " $3] = $4 }
     $1 == "run" { k = $2 " " $3; if (!(k in first)) first[k] = $4
                   printf "%-9s %6s  %-40s %10.6f s  cuSOLVER %s  vs first %.3f\n", $2, $3, $5, $4,
                          (k in ref) ? sprintf("%.3f", ref[k] / $4) : "-", first[k] / $4 }' "$SUM" | tee "$OUTDIR/ab-summary.log"
