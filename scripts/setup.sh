#!/usr/bin/env bash
# Shared set-up for the two README commands: installs the Debian 12 packages
# that are missing, then configures (once) and builds the Release tree in
# build/. Re-running is cheap: nothing is reinstalled and Ninja rebuilds only
# what changed.
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
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  if [ "$(id -u)" -eq 0 ]; then sudo_cmd=(); else sudo_cmd=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  # A fresh machine may have empty package lists: update only when needed.
  if ! "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"; then
    "${sudo_cmd[@]}" apt-get update
    "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
  fi
fi

if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S "$repo" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build "$build_dir" --parallel "$(nproc)"
