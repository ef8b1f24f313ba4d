#!/bin/sh
# The ways an outside project takes linalg_cl, each built and run (make check-install):
#   CMake add_subdirectory, CMake FetchContent (from this working tree, no network),
#   make install PREFIX=tmp then pkg-config, and find_package(linalg_cl CONFIG) of that install;
#   then a DESTDIR install and make uninstall. Needs cmake and pkg-config (make deps-test).
set -eu
cd "$(dirname "$0")/../.."
repo=$(pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lcl-consumer.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
CC=${CC:-cc}
MAKE=${MAKE:-make}
version=$(awk '/^#define LCL_VERSION_(MAJOR|MINOR) /{v = v (v == "" ? "" : ".") $3} END{print v}' linalg_cl.h)

# cmake_consumer NAME -D...: configure, build and run tests/consumer
cmake_consumer() {
    name=$1; shift
    echo "--- $name"
    if ! { cmake -S tests/consumer -B "$tmp/$name" -DCMAKE_C_COMPILER="$CC" "$@" &&
           cmake --build "$tmp/$name"; } > "$tmp/$name.log" 2>&1; then
        cat "$tmp/$name.log"; exit 1
    fi
    "$tmp/$name/consumer"
}

cmake_consumer add_subdirectory -DLINALG_CL_CONSUMER_MODE=subdir
cmake_consumer FetchContent -DLINALG_CL_CONSUMER_MODE=fetch \
    -DFETCHCONTENT_SOURCE_DIR_LINALG_CL="$repo" -DFETCHCONTENT_FULLY_DISCONNECTED=ON

echo "--- make install PREFIX=$tmp/prefix"
$MAKE --no-print-directory install PREFIX="$tmp/prefix" > "$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
export PKG_CONFIG_PATH
flags=$(pkg-config --cflags --libs linalg_cl)
echo "--- pkg-config: $CC -std=c99 main.c $flags"
# shellcheck disable=SC2086  # the flags are words
$CC -std=c99 -Wall -Wextra -pedantic -o "$tmp/consumer-pc" tests/consumer/main.c $flags
"$tmp/consumer-pc"
cmake_consumer find_package -DLINALG_CL_CONSUMER_MODE=package -DCMAKE_PREFIX_PATH="$tmp/prefix" \
    -DLINALG_CL_FIND_VERSION="$version"
"$tmp/prefix/bin/lcl" --help > /dev/null

echo "--- make install DESTDIR, make uninstall"
$MAKE --no-print-directory install PREFIX=/opt/lcl DESTDIR="$tmp/stage" > "$tmp/stage.log" 2>&1 || { cat "$tmp/stage.log"; exit 1; }
grep -qx 'prefix=/opt/lcl' "$tmp/stage/opt/lcl/lib/pkgconfig/linalg_cl.pc"
test -f "$tmp/stage/opt/lcl/include/kernels_embedded.h"
$MAKE --no-print-directory uninstall PREFIX="$tmp/prefix" > /dev/null
left=$(find "$tmp/prefix" -type f)
[ -z "$left" ] || { echo "make uninstall left: $left"; exit 1; }
echo "check-install: ok"
