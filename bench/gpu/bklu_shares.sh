#!/bin/bash
# The block LU's two-GPU refactor against its devices' shares run alone (BENCHMARKS.md, thirty-second
# session): the shares (SPLITOUT: the BTF blocks each device owns, in the run's order) written by the
# two-device split, then, untraced, medians of REPS refactors:
#   the whole on one GPU and on two (S2 as measured);
#   each share alone on one GPU (whole / larger share: S2 if the GPUs ran as two one-GPU runs);
#   both shares at once, each in its own process on its own GPU (two GPUs, nothing shared in-process):
#   whether the loss comes from driving both GPUs from one process.
# On one GPU only the first two kinds run.  BASES (default gen:circuit:2000), MS (default 256 512),
# REPS (5), TWO (default: 1 where two GPUs are found); GPUS, EFREE: device indices and free units
# (a try on PoCL: POCL_DEVICES="pthread pthread" GPUS="0 1" EFREE=0 MS=8 REPS=2 DEVICE=cpu).
source bench/gpu/setup.sh
gpu_build build/trace_dense build/lcl
export LCL_CACHE_DIR=${LCL_CACHE_DIR:-/tmp/lc}
BASES=${BASES:-gen:circuit:2000}
MS=${MS:-256 512}
REPS=${REPS:-5}
gpus=${GPUS:-$(build/lcl info | awk '/^device [0-9]+:/{d=$2; sub(":","",d)} /type +gpu/{print d}')}
set -- $gpus
g0=${1:-}; g1=${2:-}
[ -n "$g0" ] || { echo "bench/gpu/bklu_shares.sh: no GPU" >&2; exit 1; }
TWO=${TWO:-$([ -n "$g1" ] && echo 1 || echo 0)}
# the units two devices' eager GEMMs leave free (tune.bklu_eager_free's default with several devices)
efree=${EFREE:-$(build/lcl info | awk '/type +gpu/{g=1} g && /compute/{print int($2 * 3 / 20); exit}')}
efree=${efree:-0}
log=shares
times() { grep -o "untraced refactor [0-9]*: [0-9.]*" | awk '{print $4}' | sort -n | awk '{a[NR]=$1} END {printf "median %s [%s-%s]", a[int((NR+1)/2)], a[1], a[NR]}'; }
for base in $BASES; do
    pre=$OUTDIR/share_$(echo "$base" | tr ':/.' '___')_
    # the split is the pattern's: two devices of any kind (PoCL's CPU device twice where one GPU)
    if [ "$TWO" = 1 ]; then SPLITOUT=$pre NOTRACE=1 build/trace_dense bklu "$g0,$g1" "$base" 8 2 | grep SPLITOUT | tee -a "$OUTDIR/$log.log"
    else POCL_DEVICES="pthread pthread" SPLITOUT=$pre NOTRACE=1 build/trace_dense bklu Portable "$base" 8 2 | grep SPLITOUT | tee -a "$OUTDIR/$log.log"; fi
    for m in $MS; do
        w1=$(NOTRACE=$REPS build/trace_dense bklu "$g0" "$base" "$m" 1 | times)
        echo "$base M $m: the whole on one GPU: $w1" | tee -a "$OUTDIR/$log.log"
        for s in 0 1; do
            r=$(ORDERING=natural LCL_BKLU_EAGER_FREE=$efree NOTRACE=$REPS build/trace_dense bklu "$g0" "${pre}$s.mtx" "$m" 1 | times)
            echo "$base M $m: share $s alone on one GPU: $r" | tee -a "$OUTDIR/$log.log"
        done
        [ "$TWO" = 1 ] || continue
        w2=$(NOTRACE=$REPS build/trace_dense bklu "$g0,$g1" "$base" "$m" 2 | times)
        echo "$base M $m: the whole on two GPUs: $w2" | tee -a "$OUTDIR/$log.log"
        # both shares at once, a process each on its own GPU, their refactors started together
        bar=$(mktemp -d)
        TRACE_BARRIER=$bar:2 ORDERING=natural LCL_BKLU_EAGER_FREE=$efree NOTRACE=$REPS build/trace_dense bklu "$g0" "${pre}0.mtx" "$m" 1 > "$OUTDIR/sh0.txt" 2>&1 &
        TRACE_BARRIER=$bar:2 ORDERING=natural LCL_BKLU_EAGER_FREE=$efree NOTRACE=$REPS build/trace_dense bklu "$g1" "${pre}1.mtx" "$m" 1 > "$OUTDIR/sh1.txt" 2>&1 &
        wait
        rm -rf "$bar"
        for s in 0 1; do echo "$base M $m: share $s at once with the other, own process and GPU: $(times < "$OUTDIR/sh$s.txt")" | tee -a "$OUTDIR/$log.log"; done
    done
done
