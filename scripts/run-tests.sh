#!/usr/bin/env bash
# README command 2: install what is missing, build, run the whole test suite
# offscreen (no display needed). Exits non-zero on any failure.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$repo/scripts/setup.sh"
build_dir=${CLUSTER_STUDIO_BUILD_DIR:-$repo/build}
export QT_QPA_PLATFORM=offscreen
ctest --test-dir "$build_dir" --output-on-failure --parallel "$(nproc)" "$@"

# CI also runs the suite under AddressSanitizer (with leak checks) and
# UBSan, in its own tree: about 20 minutes from scratch on 2 cores, against
# CI's 90, and it catches what the Release suite passes over.
if [ "${CI:-}" = "true" ]; then
  asan_dir=${build_dir%/}-asan
  if [ ! -f "$asan_dir/build.ninja" ] || ! grep -qx 'STUDIO_SANITIZE:BOOL=ON' "$asan_dir/CMakeCache.txt"; then
    cmake -S "$repo" -B "$asan_dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSTUDIO_SANITIZE=ON
  fi
  cmake --build "$asan_dir" --parallel "$(nproc)"
  ctest --test-dir "$asan_dir" --output-on-failure --parallel "$(nproc)" "$@"

  # Then a minute of libFuzzer per harness of the core (docs/reliability.md):
  # the clang tree and six minutes of fuzzing two at a time, about 10
  # minutes on 2 cores. Any crash, sanitizer report, hang, NaN in an output
  # or validate/metrics disagreement fails the run.
  "$repo/scripts/run-fuzz.sh" 60
fi
