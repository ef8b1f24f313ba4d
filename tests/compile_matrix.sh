#!/bin/sh
# Compile matrix: {gcc, clang} x {c99, c++17} x {OpenCL, LINALG_CL_NO_OPENCL} x {-fopenmp, none},
# and {gcc, clang} x {c11, c++11} with OpenCL and OpenMP both on or both off (the other two
# corners add nothing the c99 and c++17 rows do not build: CI's time), plus LINALG_CL_LINK_OPENCL
# and LINALG_CL_MPI (with mpicc); each warning-free (-Werror) and each binary runs.
# Three rows build at -O1: the warnings that need the optimizer's flow analysis (maybe-
# uninitialized, array bounds) come only there; they are the same code in every language, so
# c99 with OpenCL and OpenMP (gcc, clang: all of the code but the #else branches) and c99 with
# neither (gcc: those branches) see it all. The other rows build at -O0: what they add is the
# front end's (C++'s casts, narrowing, keywords; a macro's presence), which -O0 reports too, in a
# third of the time or less (CI runs on 2 cores).
# NO_OPENCL builds see a CL/cl.h that #errors, proving no OpenCL header is needed.
set -u
out=build/compile-matrix
mkdir -p $out
rm -f $out/*.result $out/*.log   # a previous run's rows are not this one's
LCL_CACHE_DIR=${LCL_CACHE_DIR:-$PWD/build/cache}; export LCL_CACHE_DIR
WARN="-Wall -Wextra -pedantic -Werror"
jobs=""
n=0
one() {  # name cc std lang flags...
    name=$1 cc=$2 std=$3 lang=$4; shift 4
    xl=""; [ "$lang" = cxx ] && xl="-x c++"
    case $name in gcc-c99-cl-omp|clang-c99-cl-omp|gcc-c99-nocl-noomp) opt=-O1 ;; *) opt=-O0 ;; esac
    if $cc $xl -std=$std $WARN $opt "$@" -o $out/$name tests/compile/impl.c tests/compile/use.c ${XLIBS:-} -ldl -lpthread -lm > $out/$name.log 2>&1 \
       && $out/$name >> $out/$name.log 2>&1; then
        echo "ok   $name"
    else
        echo "FAIL $name"; sed 's/^/     /' $out/$name.log | head -20; return 1
    fi
}
for cc in gcc clang; do
  if ! command -v $cc >/dev/null; then echo "FAIL $cc not installed"; exit 1; fi
  for std in c99 c11 c++11 c++17; do
    case $std in c++*) lang=cxx; comp=$( [ $cc = gcc ] && echo g++ || echo clang++ ) ;; *) lang=c; comp=$cc ;; esac
    for ocl in cl nocl; do
      for omp in omp noomp; do
        f=""; [ $ocl = nocl ] && f="-DLINALG_CL_NO_OPENCL -Itests/compile/poison"; [ $omp = omp ] && f="$f -fopenmp"
        name=$cc-$std-$ocl-$omp
        case $std-$ocl-$omp in c11-cl-noomp|c11-nocl-omp|c++11-cl-noomp|c++11-nocl-omp) continue ;; esac
        ( one $name $comp $std $lang $f > $out/$name.result; ) &
        jobs="$jobs $!"; n=$((n+1))
        if [ $((n % 4)) -eq 0 ]; then wait; fi
      done
    done
  done
done
( XLIBS=-lOpenCL one gcc-c99-linked gcc c99 c -DLINALG_CL_LINK_OPENCL > $out/gcc-c99-linked.result ) &
wait
# the optional MPI section (LINALG_CL_MPI), when MPI's compiler wrappers are there; C++ without
# OpenMPI's deprecated C++ bindings, whose header is not warning-free
if command -v mpicc >/dev/null && command -v mpicxx >/dev/null; then
  ( OMPI_CC=gcc one mpi-gcc-c99 mpicc c99 c -DLINALG_CL_MPI -fopenmp > $out/mpi-gcc-c99.result ) &
  ( OMPI_CC=clang one mpi-clang-c11 mpicc c11 c -DLINALG_CL_MPI > $out/mpi-clang-c11.result ) &
  ( OMPI_CXX=g++ one mpi-g++-c++17 mpicxx c++17 cxx -DLINALG_CL_MPI -DOMPI_SKIP_MPICXX > $out/mpi-g++-c++17.result ) &
  wait
else
  echo "(no mpicc/mpicxx: the LINALG_CL_MPI builds are skipped)"
fi
cat $out/*.result
fails=$(grep -c '^FAIL' $out/*.result | awk -F: '{s+=$2} END {print s}')
total=$(ls $out/*.result | wc -l)
echo "compile matrix: $((total - fails)) of $total built warning-free and ran"
[ "$fails" -eq 0 ]
