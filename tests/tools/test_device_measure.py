#!/usr/bin/env python3
"""Tests of the prepared device run (tools/device/) that need no GPU.

    python3 tests/tools/test_device_measure.py --studio build/app/cluster-studio --repo .

- tools/device/hopper-check-runs.shapes.json is what tools/device/shapes.py
  makes of today's runs.json and today's `kernel-shapes`: a change to either
  that would leave the device measuring yesterday's shapes fails here
  (regenerate it with the command in shapes.py).
- `measure.sh --dry-run` plans within its budget and measures every Hopper
  check run's precisions and the training-only tables (backward GEMMs,
  attention backward, the norms and the optimizer step).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import unittest

STUDIO = REPO = None


class DeviceMeasure(unittest.TestCase):
    def test_shapes_file_is_current(self):
        made = subprocess.run([sys.executable, os.path.join(REPO, "tools", "device", "shapes.py"), "--studio", STUDIO,
                               "--repo", REPO], capture_output=True, text=True)
        self.assertEqual(made.returncode, 0, made.stderr)
        with open(os.path.join(REPO, "tools", "device", "hopper-check-runs.shapes.json")) as f:
            committed = json.load(f)
        self.assertEqual(json.loads(made.stdout), committed,
                         "tools/device/hopper-check-runs.shapes.json is stale: regenerate it (tools/device/shapes.py)")
        # Every Hopper training run, checks and calibration alike.
        self.assertIn("F1 MPT-7B, FSDP, 8 H100", committed["designs"])
        self.assertIn("L1 Llama 3 405B, 8,192 GPUs", committed["designs"])
        self.assertFalse(any("A100" in d or "B200" in d for d in committed["designs"]))
        passes = {g["pass"] for g in committed["gemm"]}
        self.assertEqual(passes, {"forward", "backward data", "backward weight"})
        self.assertEqual({g["precision"] for g in committed["gemm"]}, {"bf16", "fp8"})

    def test_dry_run_fits_its_budget(self):
        env = dict(os.environ, BUDGET_S="300")
        plan = subprocess.run(["bash", os.path.join(REPO, "tools", "device", "measure.sh"), "--dry-run"],
                              capture_output=True, text=True, env=env)
        self.assertEqual(plan.returncode, 0, plan.stderr)
        total = re.search(r"Total: [\d,]+ measurements in \d+ tables, about ([\d.]+) s .*\(budget 300 s\)",
                          plan.stdout)
        self.assertTrue(total, plan.stdout[-2000:])
        self.assertLessEqual(float(total.group(1)), 300)
        for table in ("gemm bf16", "gemm fp8", "attention backward", "ops rmsnorm_backward", "ops adamw_step"):
            self.assertIn(table, plan.stdout)
        # The shapes name the H100 part; the plan says it measures another.
        self.assertIn("the shapes are for gpu.h100-sxm, the profile is for gpu.h200-sxm", plan.stderr)

    def test_a_run_without_out_changes_nothing(self):
        env = {k: v for k, v in os.environ.items() if k != "OUT"}
        run = subprocess.run(["bash", os.path.join(REPO, "tools", "device", "measure.sh")], capture_output=True,
                             text=True, env=env)
        self.assertNotEqual(run.returncode, 0)
        self.assertIn("set OUT to the folder the files go to", run.stderr)


def main():
    global STUDIO, REPO
    p = argparse.ArgumentParser()
    p.add_argument("--studio", required=True)
    p.add_argument("--repo", default=os.path.join(os.path.dirname(__file__), "..", ".."))
    args, rest = p.parse_known_args()
    STUDIO, REPO = os.path.abspath(args.studio), os.path.abspath(args.repo)
    unittest.main(argv=[sys.argv[0]] + rest)


if __name__ == "__main__":
    main()
