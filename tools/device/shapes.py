#!/usr/bin/env python3
"""The kernel shapes of the Hopper training runs docs/validation.md checks.

Each training run of tests/data/published/runs.json on an H100 design, built
as the validation builds it (its base design with the run's workload, resized
to its GPUs), put through `cluster-studio kernel-shapes`; the shapes of all
of them in one file, each listed once, for tools/device/measure.sh to measure
on a lent GPU machine (which has the collector's PyTorch but not the studio).

    python3 tools/device/shapes.py --studio build/app/cluster-studio \\
        > tools/device/hopper-check-runs.shapes.json

Exit status: 0, or 1 with the run and the studio's message on stderr.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

HOPPER_DESIGNS = {"llama3-h100.cluster.json"}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--studio", required=True, help="the cluster-studio executable")
    p.add_argument("--repo", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    args = p.parse_args()
    published = os.path.join(args.repo, "tests", "data", "published")
    with open(os.path.join(published, "runs.json")) as f:
        runs = json.load(f)["runs"]
    merged = {"format": "cluster-studio.kernel-shapes", "format_version": 1, "designs": [], "gpu_part": None,
              "precision": None, "gemm": [], "attention": [], "memory": [], "collectives": []}
    seen = {key: set() for key in ("gemm", "attention", "memory", "collectives")}
    for run in runs:
        if run["design"] not in HOPPER_DESIGNS or "training" not in run.get("workload", {}):
            continue
        with open(os.path.join(published, run["design"])) as f:
            design = json.load(f)
        design["workload"] = run["workload"]
        with tempfile.NamedTemporaryFile("w", suffix=".cluster.json", delete=False) as tmp:
            json.dump(design, tmp)
        try:
            out = subprocess.run([args.studio, "kernel-shapes", tmp.name, "--gpus", str(run["gpus"])],
                                 capture_output=True, text=True)
        finally:
            os.unlink(tmp.name)
        if out.returncode != 0:
            sys.stderr.write("{}: {}".format(run["id"], out.stderr))
            return 1
        shapes = json.loads(out.stdout)
        merged["designs"].append(run["id"])
        merged["gpu_part"] = shapes["gpu_part"]
        # The collector measures every precision the GEMMs name; the file's
        # own is the first run's.
        merged["precision"] = merged["precision"] or shapes["precision"]
        for key in seen:
            for item in shapes.get(key, []):
                text = json.dumps(item, sort_keys=True)
                if text not in seen[key]:
                    seen[key].add(text)
                    merged[key].append(item)
    json.dump(merged, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
