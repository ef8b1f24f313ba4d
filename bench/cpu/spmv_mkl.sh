#!/bin/bash
# spmv_mkl.sh -- issue 17's CPU SpMV bar: `build/lcl spmv MATRIX --backend openmp` (auto format)
# against Intel MKL's inspector-executor CSR (../shared/tools/mkl_spmv.c), alternately in one run:
# ROUNDS rounds (default 5) of {poisson3d:100, powerlaw:2000000:16} x {double, single}, ours then
# MKL, each started once a 1-s sample of /proc/stat shows the CPUs >= 95 % idle (up to 90 s; the
# busy % seen is printed). Prints one line per pair, then medians, [min-max] and MKL/ours.
#   MKL=/tmp/venv (pip install mkl mkl-include)  SHARED=../shared  THREADS=2  WORK=/tmp/spmv_mkl
set -e
cd "$(dirname "$0")/../.."
MKL=${MKL:-/tmp/venv}; SHARED=${SHARED:-../shared}; THREADS=${THREADS:-2}; WORK=${WORK:-/tmp/spmv_mkl}; R=${ROUNDS:-5}
export OMP_NUM_THREADS=$THREADS MKL_NUM_THREADS=$THREADS
mkdir -p "$WORK"
make -s build/lcl
rt=$(ls "$MKL"/lib/libmkl_rt.so* | head -1)   # PyPI ships libmkl_rt.so.N only
[ -x "$WORK/mkl_spmv" ] || cc -O2 "$SHARED/tools/mkl_spmv.c" -I"$MKL/include" "$rt" -Wl,-rpath,"$MKL/lib" -o "$WORK/mkl_spmv"
[ -f "$WORK/p.mtx" ] || build/lcl gen poisson3d 100 -o "$WORK/p.mtx"
[ -f "$WORK/pl.mtx" ] || build/lcl gen powerlaw 2000000 16 -o "$WORK/pl.mtx"
idle() {  # busy % of one 1-s sample, after waiting (<= 90 s) for one under 5 %
    python3 - <<'PY'
import time
def s():
    v = list(map(int, open('/proc/stat').readline().split()[1:])); return sum(v), v[3] + v[4]
t0 = time.time(); b = 100
while time.time() - t0 < 90:
    a = s(); time.sleep(1); c = s(); b = 100 * (1 - (c[1] - a[1]) / max(1, c[0] - a[0]))
    if b < 5: break
print("%.0f" % b)
PY
}
log="$WORK/log.txt"; : > "$log"
echo "# $(date -u +%FT%TZ) commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo +dirty), $THREADS threads, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
for r in $(seq 1 "$R"); do
  for m in p pl; do
    if [ $m = p ]; then spec=gen:poisson3d:100; else spec=gen:powerlaw:2000000:16; fi
    for prec in double single; do
      b1=$(idle)
      o=$(build/lcl spmv $spec --backend openmp --precision $prec --reps 20 --json)
      b2=$(idle)
      k=$("$WORK/mkl_spmv" "$WORK/$m.mtx" $prec 20)
      f=$(echo "$o" | grep -o '"format":"[a-z]*"' | cut -d'"' -f4)
      to=$(echo "$o" | grep -o '"seconds":[0-9.e+-]*' | cut -d: -f2)
      tk=$(echo "$k" | grep -o '"seconds":[0-9.e+-]*' | cut -d: -f2)
      ok=$(echo "$o" | grep -o '"rel_err":[0-9.e+-]*' | cut -d: -f2)
      echo "round $r $spec $prec ours($f) $to s (busy $b1 %, rel_err $ok)  mkl $tk s (busy $b2 %)  load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$log"
    done
  done
done
python3 - "$log" <<'PY'
import re, sys, statistics as st
d = {}
for l in open(sys.argv[1]):
    m = re.match(r'round \d+ (\S+) (\w+) ours\(\w+\) (\S+) s .*mkl (\S+) s', l)
    if m: d.setdefault((m.group(1), m.group(2)), []).append((float(m.group(3)) * 1e3, float(m.group(4)) * 1e3))
for (spec, prec), v in d.items():
    o = [a for a, b in v]; k = [b for a, b in v]
    print("%-24s %-6s ours %.3f ms [%.3f-%.3f]  MKL %.3f ms [%.3f-%.3f]  MKL/ours %.2f (n=%d)" % (spec, prec, st.median(o), min(o), max(o),
          st.median(k), min(k), max(k), st.median(k) / st.median(o), len(v)))
PY
