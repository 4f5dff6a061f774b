#!/usr/bin/env python3
"""Turn AIConfigurator's measured serving points into the studio's check set.

Reads aic-core/src/aiconfigurator_core/systems/silicon_sample.csv from a git
directory of github.com/ai-dynamo/aiconfigurator (Apache-2.0) and writes the
rows the studio's format represents as tests/data/published/aic-silicon-sample.json
(format "cluster-studio.serving-samples", read by core/metrics/validation_runs.cpp):
aggregated serving (one engine serving prefill and decode) of the dense
Llama 3.1 models on GPUs the studio has a base design for.

Left out, and why, is counted in the output's "left_out": mixture-of-experts
and MLA models (DeepSeek, Qwen3-MoE, gpt-oss, Kimi, MiniMax, GLM), Qwen3-32B
(its head size, 128, is not hidden / heads = 80: the format derives the head
size) - which holds every disaggregated row as well: the CSV has none of a
dense Llama - and systems without a base design here (B300, GB200, GB300).

Only the standard library: python3 silicon_sample.py /path/to/aiconfigurator/.git OUT.json
"""
import argparse
import collections
import csv
import io
import json
import subprocess
import sys

CSV_PATH = "aic-core/src/aiconfigurator_core/systems/silicon_sample.csv"

# The studio's base designs (tests/data/published/) per AIConfigurator system:
# one 8-GPU node of that GPU; a replica is tp GPUs of it.
SYSTEMS = {
    "h100_sxm": "llama3-h100.cluster.json",
    "h200_sxm": "hgx-h200.cluster.json",
    "b200_sxm": "dgx-b200.cluster.json",
}

# Shapes from the released config.json of each checkpoint (Llama 3 Herd,
# Table 3): the FP8 checkpoint has the 8B's shape.
LLAMA_31_8B = {"name": "Llama 3.1 8B", "layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
               "ffn_hidden": 14336, "ffn_type": "swiglu", "vocab": 128256, "seq_len": 131072}
LLAMA_31_70B = {"name": "Llama 3.1 70B", "layers": 80, "hidden": 8192, "heads": 64, "kv_heads": 8,
                "ffn_hidden": 28672, "ffn_type": "swiglu", "vocab": 128256, "seq_len": 131072}
MODELS = {
    "meta-llama/Llama-3.1-8B-Instruct": LLAMA_31_8B,
    "nvidia/Llama-3.1-8B-Instruct-FP8": LLAMA_31_8B,
    "meta-llama/Llama-3.1-70B": LLAMA_31_70B,
}

# The CSV's GEMM quantisation as the studio's weight precision. fp8_block
# (128 x 128 block scales, SGLang) runs on the FP8 tensor cores as per-tensor
# FP8 does; the studio's FP8 GEMM table is per-tensor.
PRECISIONS = {("", ""): "bf16", ("bf16", ""): "bf16", ("fp8", "fp8"): "fp8", ("fp8", "fp8_block"): "fp8",
              ("fp4", "nvfp4"): "fp4"}


def read_csv(git_dir):
    text = subprocess.run(["git", "--git-dir", git_dir, "show", "HEAD:" + CSV_PATH], check=True,
                          capture_output=True, text=True).stdout
    commit = subprocess.run(["git", "--git-dir", git_dir, "rev-parse", "HEAD"], check=True, capture_output=True,
                            text=True).stdout.strip()
    return list(csv.DictReader(io.StringIO(text))), commit


# Why each model outside MODELS is left out.
HEAD_SIZE = ("Qwen/Qwen3-32B", "nvidia/Qwen3-32B-NVFP4")


def why_left_out(row):
    if row["model_path"] in HEAD_SIZE:
        return "Qwen3-32B (head size 128, not hidden / heads = 80: the format derives the head size)"
    if row["model_path"] not in MODELS:
        return "mixture-of-experts and MLA models (DeepSeek, Qwen3 MoE, Qwen3.5, gpt-oss, Kimi, MiniMax, GLM)"
    # Every disaggregated row of the CSV is of a model above (checked in
    # docs/validation.md's disaggregated section); one of a dense Llama
    # would need its prefill and decode workers converted.
    if row["mode"] != "agg":
        return "disaggregated rows of a dense Llama (prefill and decode workers not converted yet)"
    if row["system"] not in SYSTEMS:
        return "no base design for " + row["system"]
    if (row["precision"], row["gemm_quant_mode"]) not in PRECISIONS:
        return "precision " + row["precision"] + "/" + row["gemm_quant_mode"]
    if int(row["pp_size"] or 1) != 1 or int(row["attention_dp_size"] or 1) != 1:
        return "pipeline or attention data parallelism"
    return None


def point(row):
    version = row["backend_version"] or source_version(row)
    return {
        "id": row["id"],
        "system": row["system"],
        "engine": row["backend"] + " " + (version or "(version not stated)"),
        "model": row["model_path"],
        "weight_precision": PRECISIONS[(row["precision"], row["gemm_quant_mode"])],
        "tp": int(row["tp_size"]),
        "prompt_tokens": int(row["isl"]),
        "output_tokens": int(row["osl"]),
        "concurrency": int(row["batch_size"]),
        "ttft_ms": round(float(row["silicon_ttft_ms"]), 3),
        "tpot_ms": round(float(row["silicon_tpot_ms"]), 4),
    }


def source_version(row):
    # The db-dump rows name the engine's container image in the source field.
    for part in row["silicon_data_source"].split(";"):
        part = part.strip()
        if ":" in part and "/" in part and not part.startswith("source_file"):
            return part.rsplit(":", 1)[1]
    return ""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("git_dir")
    ap.add_argument("out")
    args = ap.parse_args()
    rows, commit = read_csv(args.git_dir)
    points, left = [], collections.Counter()
    for row in rows:
        why = why_left_out(row)
        if why:
            left[why] += 1
            continue
        if not row["silicon_ttft_ms"] or not row["silicon_tpot_ms"]:
            left["no measured TTFT or TPOT"] += 1
            continue
        points.append(point(row))
    points.sort(key=lambda p: (p["system"], p["engine"], p["model"], p["weight_precision"], p["tp"],
                               p["prompt_tokens"], p["output_tokens"], p["concurrency"], p["id"]))
    doc = {
        "format": "cluster-studio.serving-samples",
        "version": 1,
        "about": "Measured serving points of NVIDIA AIConfigurator's silicon_sample.csv: aggregated serving, "
                 "closed loop at a fixed number of requests in flight (concurrency), TTFT and TPOT as "
                 "measured. Generated by tools/aic-kernels/silicon_sample.py; do not edit by hand. Checks only: "
                 "no factor is fit on them.",
        "source": "github.com/ai-dynamo/aiconfigurator " + CSV_PATH + " at commit " + commit,
        "license": "Apache-2.0 (AIConfigurator, Copyright (c) NVIDIA CORPORATION & AFFILIATES)",
        "kv_precision": "bf16",
        "kv_precision_why": "the CSV does not state the KV cache's precision; each engine's default keeps the "
                            "checkpoint's 16-bit KV cache unless told otherwise",
        "systems": SYSTEMS,
        "models": {k: MODELS[k] for k in sorted(MODELS)},
        "left_out": dict(sorted(left.items(), key=lambda kv: -kv[1])),
        "points": points,
    }
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    print(f"{len(points)} points, {sum(left.values())} left out", file=sys.stderr)


if __name__ == "__main__":
    main()
