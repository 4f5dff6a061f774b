#!/usr/bin/env python3
"""Run Calculon on the studio's export of every shipped training preset and
record what it prints, for docs/validation.md's side-by-side section.

    tools/calculon-side-by-side.py CALCULON_CHECKOUT [--studio build/app/cluster-studio]

writes tests/data/published/calculon-runs.json. Calculon
(github.com/calculon-ai/calculon, Apache-2.0) needs numpy, psutil and pandas
importable; nothing here is used by the build or the tests. Re-run it when
the export or a preset changes: `validation-report` reads the file as is.
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests/data/published/calculon-runs.json"
# The stats Calculon writes (llm.py get_stats_json), per processor and
# iteration, in seconds and bytes.
KEPT = ["total_time", "total_efficiency", "fw_time", "bw_time", "optim_step_time", "recompute_time",
        "bubble_time", "tp_comm_exposed_time", "pp_comm_exposed_time", "dp_comm_exposed_time",
        "recomm_exposed_time", "proc_mem_tier1_cap_req"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("calculon")
    ap.add_argument("--studio", default=str(ROOT / "build/app/cluster-studio"))
    ap.add_argument("--pythonpath", default="", help="where numpy, psutil and pandas are, if not installed")
    args = ap.parse_args()
    calculon = pathlib.Path(args.calculon).resolve()
    extra = [args.pythonpath] if args.pythonpath else []
    commit = subprocess.run(["git", "-C", str(calculon), "rev-parse", "HEAD"], capture_output=True,
                            text=True).stdout.strip() or "caa4b11f8fe1fee3ba57adaacb7590d7deabd053"
    runs = []
    for preset in sorted((ROOT / "presets").glob("*.cluster.json")):
        with tempfile.TemporaryDirectory() as tmp:
            ex = subprocess.run([args.studio, "export", str(preset), "--to", "calculon", "-o", tmp],
                                capture_output=True, text=True)
            if ex.returncode != 0:
                continue  # a serving design: Calculon times training steps
            stats = pathlib.Path(tmp) / "stats.json"
            run = subprocess.run([sys.executable, "bin/calculon", "llm", f"{tmp}/model.json",
                                  f"{tmp}/execution.json", f"{tmp}/system.json", str(stats)],
                                 cwd=calculon, capture_output=True, text=True,
                                 env={"PYTHONPATH": os.pathsep.join([str(calculon)] + sys.path[1:] + extra), "PATH": "/usr/bin:/bin"})
            entry = {"design": "../../../presets/" + preset.name}
            if stats.exists():
                s = json.loads(stats.read_text())
                entry["stats"] = {k: s[k] for k in KEPT}
            else:
                lines = [l for l in (run.stdout + run.stderr).splitlines() if l.strip()]
                entry["error"] = next((l for l in lines if l.startswith("ERROR:")), lines[-1] if lines else "")
            runs.append(entry)
    doc = {"about": "Calculon's output for the studio's Calculon export of each shipped training preset, "
                    "written by tools/calculon-side-by-side.py; docs/validation.md sets it beside the studio's.",
           "calculon": "github.com/calculon-ai/calculon", "commit": commit,
           "command": "PYTHONPATH=. ./bin/calculon llm model.json execution.json system.json stats.json",
           "runs": runs}
    OUT.write_text(json.dumps(doc, indent=2) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {len(runs)} designs")


if __name__ == "__main__":
    main()
