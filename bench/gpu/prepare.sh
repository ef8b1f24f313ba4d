#!/bin/bash
# Run HERE, in the repository root, before a device-tool run: fills the git-ignored .gpu/ with what
# the GPU machine lacks (stb_ds.h) and the shared CuPy reference script. Name .gpu in the run's carry.
# SHARED: the shared folder (default ../shared); STB: where stb_ds.h is (default /usr/include/stb).
set -eu
SHARED=${SHARED:-../shared}
STB=${STB:-/usr/include/stb}
mkdir -p .gpu
install -m 0644 "$STB/stb_ds.h" .gpu/
install -m 0644 "$SHARED/tools/gpu_anchors.py" .gpu/
ls -l .gpu
