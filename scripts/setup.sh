#!/usr/bin/env bash
# Shared set-up for the two README commands: installs the Debian 12 packages
# that are missing, then configures (once, or again when CI needs warnings as
# errors) and builds the Release tree in build/: the targets named as
# arguments (run-studio.sh: the studio alone, so the first window does not
# wait for the test suite), or everything. Re-running is cheap: nothing is
# reinstalled and Ninja rebuilds only what changed.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${CLUSTER_STUDIO_BUILD_DIR:-$repo/build}

packages=(
  cmake ninja-build g++            # toolchain
  qt6-base-dev qt6-svg-dev libgl-dev  # Qt 6.4 Widgets/Gui/PrintSupport/Svg/Test
  libqcustomplot-dev               # plots (QCustomPlot 2.1, Qt 6 build)
  nlohmann-json3-dev               # every file format
  fonts-dejavu-core                # text in offscreen rendering (tests, screenshots)
  poppler-utils                    # pdftotext/pdftoppm: report tests and review
  python3                          # tools/collect-kernels.py, tested without a GPU
)

# shellcheck source=scripts/install-packages.sh
. "$repo/scripts/install-packages.sh"
install_missing "${packages[@]}"

# CI (CI=true) builds with warnings as errors. A tree configured without it
# is reconfigured once; otherwise a configured tree keeps its cache, so
# re-runs skip CMake and a developer's own options stay.
cmake_args=(-DCMAKE_BUILD_TYPE=Release)
reconfigure=false
[ -f "$build_dir/build.ninja" ] || reconfigure=true
if [ "${CI:-}" = "true" ]; then
  cmake_args+=(-DSTUDIO_WARNINGS_AS_ERRORS=ON)
  grep -qx 'STUDIO_WARNINGS_AS_ERRORS:BOOL=ON' "$build_dir/CMakeCache.txt" 2>/dev/null || reconfigure=true
fi
if [ "$reconfigure" = true ]; then
  cmake -S "$repo" -B "$build_dir" -G Ninja "${cmake_args[@]}"
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build_dir" --parallel "$(nproc)" "${targets[@]}"
