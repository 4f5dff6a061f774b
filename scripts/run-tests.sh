#!/usr/bin/env bash
# README command 2: install what is missing, build, run the whole test suite
# offscreen (no display needed). Exits non-zero on any failure.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$repo/scripts/setup.sh"
build_dir=${CLUSTER_STUDIO_BUILD_DIR:-$repo/build}
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" "$@"
