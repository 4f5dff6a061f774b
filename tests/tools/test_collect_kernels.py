#!/usr/bin/env python3
"""Tests of tools/collect-kernels.py that need no GPU and no PyTorch.

Run from the repository root:

    python3 tests/tools/test_collect_kernels.py
    python3 tests/tools/test_collect_kernels.py --repo /path/to/repo   (or REPO_ROOT=...)

Every run of the script here puts a stand-in `torch` package first on
PYTHONPATH whose import fails loudly, so a mode that must not import torch
(--dry-run, --from-timings, input errors) fails the test if it does.

The expected profile tests/data/kernels/collected-fixture.kernels.json is the
script's output for the fixture timings; after a change to the script that
changes it on purpose, regenerate it with

    python3 tests/tools/test_collect_kernels.py --regenerate

(which runs the command in FIXTURE_COMMAND below) and review the diff.
"""

import importlib.util
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

REPO = None          # set in main()
GPU_NAME = "NVIDIA H100 80GB HBM3"
FIXTURE_DATE = "2026-01-15"
H100_BF16 = 989.4e12
H100_FP8 = 1978.9e12
H100_HBM = 3.35e12


def path(*parts):
    return os.path.join(REPO, *parts)


def fixture_command(out):
    return ["--catalog", path("resources", "catalog.json"), "--part", "gpu.h100-sxm",
            "--from-timings", path("tests", "data", "kernels", "fixture-timings.json"),
            "--gpu-name", GPU_NAME, "--date", FIXTURE_DATE, "--out", out]


_STUBS = {}


def torch_stub(kind):
    """A directory holding a `torch` package whose import fails: 'forbidden'
    raises RuntimeError (nothing in the script catches it), 'missing' raises
    ImportError (as when torch is not installed)."""
    if kind not in _STUBS:
        d = tempfile.mkdtemp(prefix="ck-torch-{}-".format(kind))
        os.mkdir(os.path.join(d, "torch"))
        with open(os.path.join(d, "torch", "__init__.py"), "w") as f:
            if kind == "forbidden":
                f.write("raise RuntimeError('collect-kernels imported torch in a mode that must not')\n")
            else:
                f.write("raise ImportError('No module named torch (test stand-in)')\n")
        _STUBS[kind] = d
    return _STUBS[kind]


def run_script(args, stub="forbidden", env_extra=None):
    env = dict(os.environ)
    for k in ("WORLD_SIZE", "RANK", "LOCAL_RANK", "LOCAL_WORLD_SIZE"):
        env.pop(k, None)
    env["PYTHONPATH"] = torch_stub(stub) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    if env_extra:
        env.update(env_extra)
    return subprocess.run([sys.executable, path("tools", "collect-kernels.py")] + list(args),
                          cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=120)


def load_module():
    spec = importlib.util.spec_from_file_location("collect_kernels", path("tools", "collect-kernels.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def parse_plan_grids(stdout):
    """{table label: {axis: [values]}} from the --dry-run output."""
    grids, current = {}, None
    for line in stdout.splitlines():
        if line and not line.startswith(" ") and " measurements" in line and ":" in line:
            current = line.split(":")[0]
            grids[current] = {}
        elif current and line.startswith("  ") and " = [" in line:
            name, values = line.strip().split(" = ", 1)
            grids[current][name] = json.loads(values)
        elif not line.strip():
            current = None
    return grids


def fixture_records():
    with open(path("tests", "data", "kernels", "fixture-timings.json")) as f:
        return json.load(f)


def find_seconds(records, **match):
    hits = [r["seconds"] for r in records if all(r.get(k) == v for k, v in match.items())]
    assert len(hits) == 1, (match, hits)
    return hits[0]


class Case(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="ck-test-")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def tmpfile(self, name, content=None):
        p = os.path.join(self.tmp, name)
        if content is not None:
            with open(p, "w") as f:
                f.write(content if isinstance(content, str) else json.dumps(content))
        return p

    def assertOk(self, result):
        self.assertEqual(result.returncode, 0, "stdout:\n{}\nstderr:\n{}".format(result.stdout, result.stderr))

    def convert(self, timings_path, *extra):
        out = self.tmpfile("out.kernels.json")
        result = run_script(["--catalog", path("resources", "catalog.json"), "--part", "gpu.h100-sxm",
                             "--from-timings", timings_path, "--gpu-name", GPU_NAME, "--date", FIXTURE_DATE,
                             "--out", out] + list(extra))
        self.assertOk(result)
        with open(out) as f:
            return json.load(f), result


class DryRun(Case):
    def test_lists_the_shapes_gemms_within_its_grids(self):
        out = self.tmpfile("never.kernels.json")
        shapes_file = path("tests", "data", "kernels", "fixture-shapes.json")
        result = run_script(["--dry-run", "--catalog", path("resources", "catalog.json"),
                             "--part", "gpu.h100-sxm", "--shapes", shapes_file, "--out", out])
        self.assertOk(result)
        self.assertFalse(os.path.exists(out), "--dry-run wrote the output")
        grids = parse_plan_grids(result.stdout)
        self.assertIn("gemm bf16", grids)
        with open(shapes_file) as f:
            shapes = json.load(f)
        for g in shapes["gemm"]:
            for axis in ("m", "n", "k"):
                self.assertIn(g[axis], grids["gemm bf16"][axis], "{} {} {}".format(g["name"], g["pass"], axis))
            self.assertRegex(result.stdout, r"{} \({}, bf16\): m {}, n {}, k {}: on the grid".format(
                g["name"], g["pass"], g["m"], g["n"], g["k"]))
        for a in shapes["attention"]:
            for table in ("attention forward", "attention backward"):
                self.assertIn(a["head_dim"], grids[table]["head_dim"])
                self.assertIn(a["seq"], grids[table]["seq"])
        for label, axes in grids.items():
            for name, values in axes.items():
                self.assertEqual(values, sorted(set(values)), "{} {} not ascending".format(label, name))
                self.assertTrue(all(v > 0 for v in values))
                self.assertLessEqual(len(values), 12, "{} {} over --max-grid".format(label, name))
        self.assertRegex(result.stdout, r"Total: \d+ measurements in \d+ tables, about \d+ s")
        self.assertIn("collectives: not measured (one process)", result.stdout)
        self.assertIn(704643072, grids["ops swiglu_forward"]["bytes"])

    def test_default_grids_without_shapes(self):
        result = run_script(["--dry-run", "--catalog", path("resources", "catalog.json"), "--part", "gpu.h100-sxm"])
        self.assertOk(result)
        grids = parse_plan_grids(result.stdout)
        for table in ("gemm bf16", "gemm fp8", "attention forward", "attention backward", "memory",
                      "ops rmsnorm_forward", "ops adamw_step", "ops_compiled rmsnorm_backward"):
            self.assertIn(table, grids)
        self.assertEqual(grids["memory"]["bytes"], [10 ** e for e in range(4, 10)])

    def test_collectives_planned_under_torchrun(self):
        result = run_script(["--dry-run", "--catalog", path("resources", "catalog.json"), "--part", "gpu.h100-sxm",
                             "--shapes", path("tests", "data", "kernels", "fixture-shapes.json"),
                             "--tables", "collectives"],
                            env_extra={"WORLD_SIZE": "8", "RANK": "0", "LOCAL_RANK": "0", "LOCAL_WORLD_SIZE": "8"})
        self.assertOk(result)
        grids = parse_plan_grids(result.stdout)
        for op in ("all_reduce", "all_gather", "reduce_scatter", "all_to_all"):
            self.assertEqual(grids["collectives " + op]["gpus"], [8])
            self.assertEqual(grids["collectives " + op]["bytes"][0], 1024)
            self.assertEqual(grids["collectives " + op]["bytes"][-1], 2 ** 30)
        self.assertIn(268435456, grids["collectives all_reduce"]["bytes"])

    def test_max_grid_keeps_the_requested_values(self):
        result = run_script(["--dry-run", "--catalog", path("resources", "catalog.json"), "--part", "gpu.h100-sxm",
                             "--shapes", path("tests", "data", "kernels", "fixture-shapes.json"),
                             "--max-grid", "3", "--tables", "gemm"])
        self.assertOk(result)
        grids = parse_plan_grids(result.stdout)
        self.assertEqual(grids["gemm bf16"]["m"], [4096, 8192, 14336])
        self.assertEqual(len(grids["gemm bf16"]["n"]), 3)
        self.assertIn(28672, grids["gemm bf16"]["n"])

    def test_time_budget_trims_and_says_so(self):
        result = run_script(["--dry-run", "--catalog", path("resources", "catalog.json"), "--part", "gpu.h100-sxm",
                             "--shapes", path("tests", "data", "kernels", "fixture-shapes.json"),
                             "--time-budget-s", "150"])
        self.assertOk(result)
        self.assertIn("Trimmed to fit --time-budget-s 150", result.stdout)
        self.assertRegex(result.stdout, r"\(default value, about \d+ s\)")
        total = float(result.stdout.split("Total:")[1].split("about ")[1].split(" s")[0])
        self.assertLessEqual(total, 150)
        # default-only values go before any requested one
        grids = parse_plan_grids(result.stdout)
        with open(path("tests", "data", "kernels", "fixture-shapes.json")) as f:
            shapes = json.load(f)
        self.assertNotIn("(requested value", result.stdout)
        for g in shapes["gemm"]:
            for axis in ("m", "n", "k"):
                self.assertIn(g[axis], grids["gemm bf16"][axis])


class FromTimings(Case):
    def test_reproduces_the_fixture_profile_byte_for_byte(self):
        out = self.tmpfile("fixture.kernels.json")
        result = run_script(fixture_command(out))
        self.assertOk(result)
        with open(out, "rb") as f:
            got = f.read()
        with open(path("tests", "data", "kernels", "collected-fixture.kernels.json"), "rb") as f:
            want = f.read()
        self.assertEqual(got.decode(), want.decode(),
                         "regenerate with: python3 tests/tools/test_collect_kernels.py --regenerate")
        # the same on stdout, and again (deterministic)
        stdout = run_script(fixture_command("-"))
        self.assertOk(stdout)
        self.assertEqual(stdout.stdout.encode(), want)

    def test_hand_computed_cells(self):
        profile, _ = self.convert(path("tests", "data", "kernels", "fixture-timings.json"))
        recs = fixture_records()

        def close(got, want):
            self.assertTrue(math.isclose(got, want, rel_tol=1e-4), "{} != {}".format(got, want))

        g = profile["gemm"]["bf16"]
        t = find_seconds(recs, table="gemm", precision="bf16", m=4096, n=4096, k=4096)
        cell = g["efficiency"][g["m"].index(4096)][g["n"].index(4096)][g["k"].index(4096)]
        close(cell, 2 * 4096 * 4096 * 4096 / (t * 989.4e12))
        t = find_seconds(recs, table="gemm", precision="bf16", m=16, n=14336, k=4096)
        close(g["efficiency"][g["m"].index(16)][g["n"].index(14336)][g["k"].index(4096)],
              2 * 16 * 14336 * 4096 / (t * H100_BF16))
        f8 = profile["gemm"]["fp8"]
        t = find_seconds(recs, table="gemm", precision="fp8", m=8192, n=4096, k=14336)
        close(f8["efficiency"][f8["m"].index(8192)][0][f8["k"].index(14336)], 2 * 8192 * 4096 * 14336 / (t * H100_FP8))

        a = profile["attention"]["forward"]
        t = find_seconds(recs, table="attention_forward", head_dim=128, seq=8192)
        close(a["efficiency"][a["head_dim"].index(128)][a["seq"].index(8192)], 2 * 4 * 16 * 8192 ** 2 * 128 / (t * H100_BF16))
        a = profile["attention"]["backward"]
        t = find_seconds(recs, table="attention_backward", head_dim=64, seq=2048)
        close(a["efficiency"][a["head_dim"].index(64)][a["seq"].index(2048)], 5 * 8 * 16 * 2048 ** 2 * 64 / (t * H100_BF16))

        d = profile["decode_attention"]["bf16"]
        t = find_seconds(recs, table="decode_attention", batch=16, context=32768)
        close(d["hbm_efficiency"][d["batch"].index(16)][d["context"].index(32768)],
              2 * 16 * 8 * 32768 * 128 * 2 / (t * H100_HBM))

        c = profile["collectives"]["all_reduce"]
        t = find_seconds(recs, table="collective", op="all_reduce", gpus=8, bytes=268435456)
        close(c["bus_gb_per_s"][c["gpus"].index(8)][c["bytes"].index(268435456)], 268435456 / t * 2 * 7 / 8 / 1e9)
        c = profile["collectives"]["all_gather"]
        t = find_seconds(recs, table="collective", op="all_gather", gpus=8, bytes=1048576)
        close(c["bus_gb_per_s"][0][c["bytes"].index(1048576)], 1048576 / t * 7 / 8 / 1e9)

        m = profile["memory"]
        t = find_seconds(recs, table="memory", bytes=1000000000)
        close(m["hbm_efficiency"][m["bytes"].index(1000000000)], 1e9 / (t * H100_HBM))
        o = profile["ops"]["rmsnorm_forward"]
        t = find_seconds(recs, table="op", op="rmsnorm_forward", compiled=False, bytes=134225920)
        close(o["hbm_efficiency"][o["bytes"].index(134225920)], 134225920 / (t * H100_HBM))
        o = profile["ops_compiled"]["swiglu_forward"]
        t = find_seconds(recs, table="op", op="swiglu_forward", compiled=True, bytes=67092480)
        close(o["hbm_efficiency"][o["bytes"].index(67092480)], 67092480 / (t * H100_HBM))

    def test_the_profile_keeps_the_format_rules(self):
        with open(path("tests", "data", "kernels", "collected-fixture.kernels.json")) as f:
            p = json.load(f)
        self.assertEqual(list(p)[:11], ["format", "format_version", "gpu", "parts", "source", "data_version",
                                        "license", "date", "peaks_tflops", "hbm_tb_per_s", "scaleup_gb_per_s"])
        self.assertEqual(p["format"], "cluster-studio.kernels")
        self.assertEqual(p["format_version"], 1)
        self.assertEqual(p["gpu"], GPU_NAME)
        self.assertEqual(p["parts"], ["gpu.h100-sxm"])
        self.assertEqual(p["license"], "measured by the user; no third-party data")
        self.assertEqual(p["date"], FIXTURE_DATE)
        self.assertEqual(p["peaks_tflops"], {"bf16": 989.4, "fp8": 1978.9})
        self.assertEqual(p["hbm_tb_per_s"], 3.35)
        self.assertTrue(p["source"].startswith("measured with tools/collect-kernels.py"))
        for key in ("gemm", "attention", "decode_attention", "collectives", "memory", "ops", "ops_compiled"):
            self.assertIn(key, p, "the fixture covers every table kind")

        def check_grid(label, values):
            self.assertTrue(2 <= len(values) <= 4 or label.endswith("gpus") or label.endswith(" n"), label)
            self.assertEqual(values, sorted(set(values)), label)
            self.assertTrue(all(isinstance(v, int) and v > 0 for v in values), label)

        def check_values(label, nested, shape, upper):
            if not shape:
                self.assertIsInstance(nested, float, label)
                self.assertTrue(math.isfinite(nested) and 0 < nested <= upper, "{}: {}".format(label, nested))
                return
            self.assertEqual(len(nested), shape[0], label)
            for x in nested:
                check_values(label, x, shape[1:], upper)

        def check_table(label, table, axes, value):
            for a in axes:
                check_grid("{} {}".format(label, a), table[a])
            self.assertEqual(list(table), axes + [value], label)
            upper = math.inf if value == "bus_gb_per_s" else 1.5
            check_values(label, table[value], [len(table[a]) for a in axes], upper)

        for prec, t in p["gemm"].items():
            check_table("gemm " + prec, t, ["m", "n", "k"], "efficiency")
        for pas, t in p["attention"].items():
            check_table("attention " + pas, t, ["head_dim", "seq"], "efficiency")
        for prec, t in p["decode_attention"].items():
            check_table("decode " + prec, t, ["batch", "context"], "hbm_efficiency")
        for op, t in p["collectives"].items():
            self.assertIn(op, ("all_reduce", "all_gather", "reduce_scatter", "all_to_all"))
            check_table("collectives " + op, t, ["gpus", "bytes"], "bus_gb_per_s")
        check_table("memory", p["memory"], ["bytes"], "hbm_efficiency")
        for kind in ("ops", "ops_compiled"):
            for op, t in p[kind].items():
                check_table("{} {}".format(kind, op), t, ["bytes"], "hbm_efficiency")

    def test_peak_overrides_rescale(self):
        profile, _ = self.convert(path("tests", "data", "kernels", "fixture-timings.json"),
                                  "--peak-bf16-tflops", "1000", "--hbm-tb-per-s", "4")
        self.assertEqual(profile["peaks_tflops"]["bf16"], 1000.0)
        self.assertEqual(profile["hbm_tb_per_s"], 4.0)
        t = find_seconds(fixture_records(), table="gemm", precision="bf16", m=4096, n=4096, k=4096)
        g = profile["gemm"]["bf16"]
        got = g["efficiency"][g["m"].index(4096)][g["n"].index(4096)][g["k"].index(4096)]
        self.assertTrue(math.isclose(got, 2 * 4096 ** 3 / (t * 1000e12), rel_tol=1e-4))

    def convert_saved(self, doc, *extra):
        """The profile --from-timings makes of a saved timings document."""
        timings = self.tmpfile("saved.timings.json", doc)
        out = self.tmpfile("h200.kernels.json")
        result = run_script(["--catalog", path("resources", "catalog.json"), "--from-timings", timings, "--out", out]
                            + list(extra))
        self.assertOk(result)
        with open(out) as f:
            return json.load(f)

    def test_saved_timings_carry_their_metadata(self):
        doc = {"format": "cluster-studio.kernel-timings", "format_version": 1, "gpu": "NVIDIA H200",
               "part": "gpu.h200-sxm", "host": "node17", "driver": "550.54.15", "driver_source": "nvidia-smi",
               "cuda": "12.4", "torch": "2.5.1", "date": "2026-02-03",
               "timings": [r for r in fixture_records() if r["table"] in ("gemm", "memory")]}
        p = self.convert_saved(doc)
        self.assertEqual(p["gpu"], "NVIDIA H200")
        self.assertEqual(p["parts"], ["gpu.h200-sxm"])
        self.assertEqual(p["date"], "2026-02-03")
        self.assertEqual(p["source"], "measured with tools/collect-kernels.py on node17; driver 550.54.15 "
                                      "(nvidia-smi), CUDA 12.4, torch 2.5.1")
        self.assertEqual(p["data_version"], "torch 2.5.1, CUDA 12.4, driver 550.54.15")
        self.assertNotIn("attention", p)
        self.assertNotIn("scaleup_gb_per_s", p)

    def test_scaleup_follows_hbm_with_collectives(self):
        with open(path("tests", "data", "kernels", "collected-fixture.kernels.json")) as f:
            text = f.read()
        p = json.loads(text)
        self.assertIn("collectives", p)
        keys = list(p)
        self.assertEqual(keys.index("scaleup_gb_per_s"), keys.index("hbm_tb_per_s") + 1)
        self.assertEqual(p["scaleup_gb_per_s"], 900, "H100 SXM's catalog scaleup_gb_per_s")
        self.assertIn('  "hbm_tb_per_s": 3.35,\n  "scaleup_gb_per_s": 900,\n', text)

    def test_scaleup_override(self):
        profile, _ = self.convert(path("tests", "data", "kernels", "fixture-timings.json"),
                                  "--scaleup-gb-per-s", "1800")
        self.assertEqual(profile["scaleup_gb_per_s"], 1800)
        keys = list(profile)
        self.assertEqual(keys.index("scaleup_gb_per_s"), keys.index("hbm_tb_per_s") + 1)

    def test_no_scaleup_without_collectives(self):
        recs = [r for r in fixture_records() if r["table"] != "collective"]
        profile, _ = self.convert(self.tmpfile("no-collectives.json", recs))
        self.assertNotIn("collectives", profile)
        self.assertNotIn("scaleup_gb_per_s", profile)
        # also when given on the command line
        profile, _ = self.convert(self.tmpfile("no-collectives.json", recs), "--scaleup-gb-per-s", "1800")
        self.assertNotIn("scaleup_gb_per_s", profile)

    def test_saved_timings_carry_the_scaleup(self):
        doc = {"format": "cluster-studio.kernel-timings", "format_version": 1, "gpu": "NVIDIA H200",
               "part": "gpu.h200-sxm", "date": "2026-02-03", "peaks_tflops": {"bf16": 989.4, "fp8": 1978.9},
               "hbm_tb_per_s": 4.8, "scaleup_gb_per_s": 1234,
               "timings": [r for r in fixture_records() if r["table"] in ("collective", "memory")]}
        p = self.convert_saved(doc)
        self.assertEqual(p["scaleup_gb_per_s"], 1234, "what the timings recorded, over the catalog's 900")
        p = self.convert_saved(doc, "--scaleup-gb-per-s", "1000")
        self.assertEqual(p["scaleup_gb_per_s"], 1000, "the flag over what the timings recorded")
        # the timings document keeps the figure among its metadata
        ck = load_module()
        meta = {"part": "gpu.h100-sxm", "peaks_tflops": {"bf16": 989.4}, "hbm_tb_per_s": 3.35,
                "scaleup_gb_per_s": 900, "date": "2026-02-03"}
        records, _ = ck.parse_timings(fixture_records(), "fixture")
        saved = json.loads(ck.dump_timings(ck.timings_document(records, meta)))
        self.assertEqual(list(saved)[list(saved).index("hbm_tb_per_s") + 1], "scaleup_gb_per_s")
        self.assertEqual(saved["scaleup_gb_per_s"], 900)

    def test_a_cell_not_measured_is_filled_and_said(self):
        recs = [r for r in fixture_records()
                if not (r["table"] == "gemm" and r["precision"] == "bf16" and (r["m"], r["n"], r["k"]) == (8192, 14336, 14336))]
        profile, result = self.convert(self.tmpfile("partial.json", recs))
        g = profile["gemm"]["bf16"]
        self.assertEqual(g["m"], [16, 4096, 8192])
        self.assertIn("gemm bf16: 1 of 12 cells filled from the nearest measured cell", profile["source"])
        self.assertIn("filled from the nearest measured cell", result.stderr)
        filled = g["efficiency"][2][1][1]
        self.assertIn(filled, (g["efficiency"][2][0][1], g["efficiency"][2][1][0], g["efficiency"][1][1][1]))

    def test_duplicate_records_take_the_median(self):
        recs = [r for r in fixture_records() if r["table"] == "memory"]
        recs += [dict(recs[-1], seconds=recs[-1]["seconds"] * 2), dict(recs[-1], seconds=recs[-1]["seconds"] * 3)]
        profile, _ = self.convert(self.tmpfile("dups.json", recs))
        t = recs[-3]["seconds"] * 2
        self.assertTrue(math.isclose(profile["memory"]["hbm_efficiency"][-1], 1e9 / (t * H100_HBM), rel_tol=1e-4))


class BadInput(Case):
    """Each exits 1 with a message naming the file and JSON path, and writes nothing."""

    def expect_error(self, args, message, stub="forbidden"):
        out = self.tmpfile("should-not-exist.kernels.json")
        saved = self.tmpfile("should-not-exist.timings.json")
        result = run_script(list(args) + ["--out", out, "--save-timings", saved], stub=stub)
        self.assertEqual(result.returncode, 1, "stdout:\n{}\nstderr:\n{}".format(result.stdout, result.stderr))
        self.assertIn(message, result.stderr)
        self.assertIn("error:", result.stderr)
        self.assertNotIn("Traceback", result.stderr)
        self.assertEqual(result.stdout, "")
        self.assertFalse(os.path.exists(out))
        self.assertFalse(os.path.exists(saved))
        return result

    def shapes(self, mutate):
        with open(path("tests", "data", "kernels", "fixture-shapes.json")) as f:
            data = json.load(f)
        mutate(data)
        return self.tmpfile("shapes.json", data)

    def measure_args(self, shapes_file):
        return ["--catalog", path("resources", "catalog.json"), "--part", "gpu.h100-sxm", "--shapes", shapes_file]

    def timings_args(self, timings_file):
        return ["--catalog", path("resources", "catalog.json"), "--part", "gpu.h100-sxm",
                "--from-timings", timings_file, "--gpu-name", GPU_NAME]

    def test_shapes_not_json(self):
        f = self.tmpfile("shapes.json", '{"format": "cluster-studio.kernel-shapes", "gemm": [}')
        self.expect_error(self.measure_args(f), "shapes.json: not valid JSON")

    def test_shapes_missing_a_field(self):
        f = self.shapes(lambda d: d["gemm"][3].pop("m"))
        self.expect_error(self.measure_args(f), "shapes.json: /gemm/3/m: missing; expected a positive integer")

    def test_shapes_field_not_a_positive_integer(self):
        f = self.shapes(lambda d: d["gemm"][2].update(k=0))
        self.expect_error(self.measure_args(f), "shapes.json: /gemm/2/k: expected a positive integer, got 0")
        f = self.shapes(lambda d: d["gemm"][0].update(n="4096"))
        self.expect_error(self.measure_args(f), "shapes.json: /gemm/0/n: expected a positive integer")
        f = self.shapes(lambda d: d["attention"][0].update(seq=8192.5))
        self.expect_error(self.measure_args(f), "shapes.json: /attention/0/seq: expected a positive integer")
        f = self.shapes(lambda d: d["memory"][1].update(bytes=-1))
        self.expect_error(self.measure_args(f), "shapes.json: /memory/1/bytes: expected a positive number")
        f = self.shapes(lambda d: d["collectives"][0].pop("gpus"))
        self.expect_error(self.measure_args(f), "shapes.json: /collectives/0/gpus: missing")

    def test_shapes_of_another_format(self):
        f = self.shapes(lambda d: d.update(format="cluster-studio.kernels"))
        self.expect_error(self.measure_args(f), "shapes.json: /format: expected \"cluster-studio.kernel-shapes\"")
        f = self.shapes(lambda d: d.update(gemm={"m": 1}))
        self.expect_error(self.measure_args(f), "shapes.json: /gemm: expected a list")

    def test_shapes_file_missing(self):
        self.expect_error(self.measure_args(os.path.join(self.tmp, "nonesuch.json")), "nonesuch.json: cannot read")

    def test_unknown_part(self):
        args = ["--catalog", path("resources", "catalog.json"), "--part", "gpu.nonesuch",
                "--shapes", path("tests", "data", "kernels", "fixture-shapes.json")]
        r = self.expect_error(args, "catalog.json: no part \"gpu.nonesuch\" in the catalog")
        self.assertIn("gpu.h100-sxm", r.stderr)
        self.expect_error(["--catalog", path("resources", "catalog.json"), "--part", "gpu.nonesuch", "--dry-run"],
                          "no part \"gpu.nonesuch\"")
        self.expect_error(["--catalog", path("resources", "catalog.json"), "--part", "gpu.nonesuch",
                           "--from-timings", path("tests", "data", "kernels", "fixture-timings.json"),
                           "--gpu-name", GPU_NAME], "no part \"gpu.nonesuch\"")

    def test_negative_or_zero_time(self):
        for bad in (-0.001, 0, "fast", None):
            recs = fixture_records()
            recs[3]["seconds"] = bad
            f = self.tmpfile("timings.json", recs)
            self.expect_error(self.timings_args(f), "timings.json: /3/seconds: expected a positive number of seconds")
        recs = fixture_records()
        del recs[5]["seconds"]
        f = self.tmpfile("timings.json", recs)
        self.expect_error(self.timings_args(f), "timings.json: /5/seconds: missing")

    def test_timings_not_json_or_malformed(self):
        f = self.tmpfile("timings.json", "[{\"table\": \"gemm\",")
        self.expect_error(self.timings_args(f), "timings.json: not valid JSON")
        recs = fixture_records()
        recs[0]["table"] = "gemv"
        f = self.tmpfile("timings.json", recs)
        self.expect_error(self.timings_args(f), "timings.json: /0/table: expected one of")
        recs = fixture_records()
        del recs[1]["k"]
        f = self.tmpfile("timings.json", recs)
        self.expect_error(self.timings_args(f), "timings.json: /1/k: missing; expected a positive integer")
        f = self.tmpfile("timings.json", [])
        self.expect_error(self.timings_args(f), "timings.json: /: no timing records")

    def test_impossible_efficiency(self):
        recs = fixture_records()
        recs[5]["seconds"] = 1e-9
        f = self.tmpfile("timings.json", recs)
        self.expect_error(self.timings_args(f), "timings.json: /5/seconds: efficiency of gemm bf16")

    def catalog_without_scaleup(self):
        with open(path("resources", "catalog.json")) as f:
            data = json.load(f)
        for part in data["parts"]:
            if part.get("id") == "gpu.h100-sxm":
                del part["figures"]["scaleup_gb_per_s"]
        return self.tmpfile("catalog.json", data)

    def test_collectives_without_a_scaleup_figure(self):
        catalog = self.catalog_without_scaleup()
        fixture = path("tests", "data", "kernels", "fixture-timings.json")
        self.expect_error(["--catalog", catalog, "--part", "gpu.h100-sxm", "--from-timings", fixture,
                           "--gpu-name", GPU_NAME],
                          "part \"gpu.h100-sxm\" has no scaleup_gb_per_s figure")
        # measuring under torchrun: refused before anything is measured
        out = self.tmpfile("should-not-exist.kernels.json")
        result = run_script(["--catalog", catalog, "--part", "gpu.h100-sxm", "--tables", "collectives",
                             "--shapes", path("tests", "data", "kernels", "fixture-shapes.json"), "--out", out],
                            env_extra={"WORLD_SIZE": "8", "RANK": "0", "LOCAL_RANK": "0", "LOCAL_WORLD_SIZE": "8"})
        self.assertEqual(result.returncode, 1, result.stderr)
        self.assertIn("has no scaleup_gb_per_s figure", result.stderr)
        self.assertIn("give --scaleup-gb-per-s", result.stderr)
        self.assertFalse(os.path.exists(out))
        # the flag supplies it; without collectives none is needed
        out = self.tmpfile("ok.kernels.json")
        result = run_script(["--catalog", catalog, "--part", "gpu.h100-sxm", "--from-timings", fixture,
                             "--gpu-name", GPU_NAME, "--scaleup-gb-per-s", "900", "--out", out])
        self.assertOk(result)
        recs = [r for r in fixture_records() if r["table"] != "collective"]
        result = run_script(["--catalog", catalog, "--part", "gpu.h100-sxm", "--gpu-name", GPU_NAME,
                             "--from-timings", self.tmpfile("no-collectives.json", recs), "--out", out])
        self.assertOk(result)

    def test_from_timings_needs_a_gpu_name(self):
        args = self.timings_args(path("tests", "data", "kernels", "fixture-timings.json"))[:-2]
        self.expect_error(args, "give --gpu-name")

    def test_measuring_without_torch(self):
        self.expect_error(self.measure_args(path("tests", "data", "kernels", "fixture-shapes.json")),
                          "PyTorch is not installed here", stub="missing")


class Grids(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.ck = load_module()

    def test_cap_keeps_requested_then_nearest_defaults(self):
        cap = self.ck.cap_grid
        self.assertEqual(cap([1, 16, 128, 1024], [], 12), [1, 16, 128, 1024])
        self.assertEqual(cap([1, 16, 128, 1024, 4096, 16384], [8192, 4096], 4), [1024, 4096, 8192, 16384])
        self.assertEqual(cap([1, 16, 128, 1024, 4096, 16384], [100], 2), [100, 128])
        # more requested values than the cap: spread in log space, both ends kept
        self.assertEqual(cap([], [1, 2, 4, 8, 16, 32, 64], 3), [1, 8, 64])
        # no requested values: the defaults spread in log space
        self.assertEqual(cap([1, 10, 100, 1000, 10000], [], 3), [1, 100, 10000])

    def test_op_sizes_round_trip(self):
        for op in self.ck.OPS:
            for target in (2 ** 24, 134217728, 10 ** 9):
                rows = self.ck.op_rows(op, target)
                nbytes = self.ck.op_bytes(op, rows)
                per_row, fixed = self.ck.OP_SPECS[op]
                self.assertEqual((nbytes - fixed) // per_row, rows)
                self.assertLessEqual(abs(nbytes - target), per_row)

    def test_collective_bus_factors(self):
        self.assertEqual(self.ck.collective_factor("all_reduce", 8), 2 * 7 / 8)
        for op in ("all_gather", "reduce_scatter", "all_to_all"):
            self.assertEqual(self.ck.collective_factor(op, 4), 3 / 4)
        self.assertEqual(self.ck.collective_bytes(1024, 8), 1024)
        self.assertEqual(self.ck.collective_bytes(1000, 6), 996)


def main():
    global REPO
    argv = sys.argv[1:]
    repo = os.environ.get("REPO_ROOT")
    regenerate = False
    rest = []
    i = 0
    while i < len(argv):
        if argv[i] == "--repo" and i + 1 < len(argv):
            repo = argv[i + 1]
            i += 2
            continue
        if argv[i].startswith("--repo="):
            repo = argv[i].split("=", 1)[1]
        elif argv[i] == "--regenerate":
            regenerate = True
        else:
            rest.append(argv[i])
        i += 1
    if not repo:
        here = os.path.dirname(os.path.abspath(__file__))
        repo = os.path.normpath(os.path.join(here, "..", ".."))
        if not os.path.exists(os.path.join(repo, "tools", "collect-kernels.py")):
            repo = os.getcwd()
    REPO = os.path.abspath(repo)
    if not os.path.exists(path("tools", "collect-kernels.py")):
        sys.exit("test_collect_kernels: no tools/collect-kernels.py under {} (give --repo DIR)".format(REPO))
    try:
        if regenerate:
            out = path("tests", "data", "kernels", "collected-fixture.kernels.json")
            result = run_script(fixture_command(out))
            sys.stderr.write(result.stderr)
            return result.returncode
        program = unittest.main(argv=[sys.argv[0]] + rest, exit=False, verbosity=2)
        return 0 if program.result.wasSuccessful() else 1
    finally:
        for d in _STUBS.values():
            shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
