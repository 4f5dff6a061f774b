#!/usr/bin/env bash
# README command 1: install what is missing, build, start the studio on the
# default preset (or on the files given as arguments).
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$repo/scripts/setup.sh" cluster-studio
build_dir=${CLUSTER_STUDIO_BUILD_DIR:-$repo/build}
if [ $# -eq 0 ]; then set -- "$repo/presets/dgx-h100-superpod-4su.cluster.json"; fi
exec "$build_dir/app/cluster-studio" "$@"
