#!/usr/bin/env bash
# The one prepared run for a lent GPU machine (issue 35): the collector
# measures, on the Hopper GPU it finds, the kernels of the Hopper training
# runs docs/validation.md checks (tools/device/hopper-check-runs.shapes.json)
# within BUDGET_S seconds (default 300: a machine's start, this and a rerun
# fit the 15 minutes a session is lent), and leaves in $OUT the profile, the
# raw timings, its log and nvidia-smi's report. Through the device tool, from
# the repository root:
#
#     run(command="bash tools/device/measure.sh", timeout_s=480)
#
# `bash tools/device/measure.sh --dry-run` prints the same plan here, with no
# GPU and no PyTorch (PART picks the GPU; default gpu.h200-sxm).
set -uo pipefail
cd "$(dirname "$0")/../.."
shapes=tools/device/hopper-check-runs.shapes.json
budget="${BUDGET_S:-300}"
plan=(python3 tools/collect-kernels.py --catalog resources/catalog.json --shapes "$shapes"
      --time-budget-s "$budget")

if [ "${1:-}" = "--dry-run" ]; then
    exec "${plan[@]}" --part "${PART:-gpu.h200-sxm}" --dry-run
fi

out="${OUT:?set OUT to the folder the files go to}"
mkdir -p "$out"
nvidia-smi >"$out/nvidia-smi.txt" 2>&1
name=$(python3 -c 'import torch; print(torch.cuda.get_device_name())') || exit 1
case "$name" in
    *H200*) part=gpu.h200-sxm ;;
    *H100*) part=gpu.h100-sxm ;;
    *) echo "measure.sh: no catalog part for the GPU '$name'" >&2; exit 1 ;;
esac
PYTHONUNBUFFERED=1 "${plan[@]}" --part "$part" --save-timings "$out/timings.json" \
    --out "$out/$part.kernels.json" 2>&1 | tee "$out/log.txt"
