#!/usr/bin/env python3
"""Measure a GPU's kernel efficiencies and write a Cluster Studio kernel profile.

The profile is the JSON described in docs/kernel-profiles.md
("format": "cluster-studio.kernels", version 1): GEMMs by shape and precision,
causal fused attention forward and backward by head size and sequence length,
decode attention (optional), collectives by message size (under torchrun),
a generic memory-bound curve and named memory-bound ops, eager and under
torch.compile. The studio reads it with `--kernels FILE` or File > Kernel
Profile.

Usage, on the machine with the GPU (PyTorch with CUDA installed):

    cluster-studio kernel-shapes design.cluster.json > shapes.json
    python3 tools/collect-kernels.py --catalog resources/catalog.json \\
        --part gpu.h100-sxm --shapes shapes.json --out my-h100.kernels.json

Collectives are measured only when the script runs under torchrun with more
than one process (NCCL); rank 0 measures everything else and writes the file:

    torchrun --nproc-per-node 8 tools/collect-kernels.py \\
        --part gpu.h100-sxm --shapes shapes.json --out my-h100.kernels.json

Modes that need no GPU and no PyTorch:

    --dry-run                 print the plan: every table, every grid, how many
                              measurements and a rough time estimate
    --from-timings FILE       build the profile from recorded timings (what
                              --save-timings wrote, or a JSON list of records
                              such as {"table": "gemm", "precision": "bf16",
                              "m": 4096, "n": 4096, "k": 4096, "seconds": 1.9e-4});
                              a bare list needs --gpu-name (and --date for a
                              reproducible file)

--save-timings FILE writes {"format": "cluster-studio.kernel-timings",
"format_version": 1, "gpu", "part", "host", "driver", "cuda", "torch", "date",
"peaks_tflops", "hbm_tb_per_s", "scaleup_gb_per_s", "timings": [records]};
--from-timings on it rebuilds the same profile byte for byte (flags override
what it recorded).

A profile with collectives also carries "scaleup_gb_per_s", the scale-up link
of the GPU they were measured on, both directions, GB/s (the studio reads the
bus bandwidths as shares of one direction of it): --scaleup-gb-per-s, else
what a timings file recorded, else the catalog part's scaleup_gb_per_s figure.

Timing records (one per measurement; the measuring path records these and
converts them with the same code as --from-timings):

    {"table": "gemm", "precision": "bf16", "m", "n", "k", "seconds"}
    {"table": "attention_forward" | "attention_backward",
     "head_dim", "seq", "batch", "heads", "seconds"}
    {"table": "decode_attention", "precision": "bf16", "batch", "context",
     "kv_heads": 8, "head_dim": 128, "seconds"}
    {"table": "collective", "op": "all_reduce" | "all_gather" |
     "reduce_scatter" | "all_to_all", "gpus", "bytes", "seconds"}
    {"table": "op", "op": "rmsnorm_forward", "compiled": false, "bytes", "seconds"}
    {"table": "memory", "bytes", "seconds"}

Timing files from several runs (say torchrun with 2, 4 and 8 processes) can be
concatenated into one list and converted together: the grids are the union of
the measured values, and a cell no run measured is filled from the nearest
measured cell (in log space), which the profile's "source" says.

How each table is measured (CUDA events, warm-up, median of --reps, the L2
cache flushed by writing a 256 MiB buffer before each repetition of a kernel
whose working set is under 256 MiB):

  gemm            torch.mm of [m,k] x [k,n] into a preallocated [m,n] output,
                  bf16 (fp16 likewise; tf32: fp32 with TF32 matmuls
                  allowed); fp8 through torch._scaled_mm (e4m3,
                  per-tensor scales, bf16 output, n and k padded to multiples
                  of 16 as FP8 kernels require, FLOPs counted unpadded).
                  efficiency = 2 m n k / (seconds x dense peak).
  attention       torch.nn.functional.scaled_dot_product_attention, causal,
                  bf16, [batch, 16 heads, seq, head_dim] with batch =
                  max(4, 16384 / seq) (batch x heads >= 64, >= 16k tokens).
                  Forward FLOPs 2 b h s^2 d (the causal half), backward
                  5 b h s^2 d (2.5x: FlashAttention-2 recomputes the scores);
                  the backward is timed alone (the forward runs untimed first).
  decode          one new token per sequence against a bf16 KV cache of
                  `context` tokens, GQA 32 heads / 8 KV heads / head_dim 128
                  (the 4 query heads of a KV head as 4 query rows, so the
                  cache is read once). hbm_efficiency = KV bytes
                  (2 x batch x 8 x context x 128 x 2) / (seconds x HBM TB/s).
  collectives     all_reduce, all_gather_into_tensor, reduce_scatter_tensor,
                  all_to_all_single on bf16 buffers; bytes = the whole
                  buffer (nccl-tests' size); algbw = bytes / seconds, busbw =
                  algbw x 2(n-1)/n (all_reduce) or x (n-1)/n (the others); the
                  slowest rank's median.
  memory          x.clone() of a bf16 tensor: bytes = read + written.
  ops             bytes = the least the op must read + write (T rows);
                  hbm_efficiency = bytes / (seconds x HBM bandwidth):
    rmsnorm_forward        x [T,4096] bf16 and weight: reads x, w; writes y:
                           4*4096*T + 2*4096
    rmsnorm_backward       reads x, dy, w; writes dx, dw: 6*4096*T + 4*4096
    layernorm_forward      reads x, w, b; writes y: 4*4096*T + 4*4096
    layernorm_backward     reads x, dy, w; writes dx, dw, db: 6*4096*T + 6*4096
    swiglu_forward         silu(a) * b, a and b [T,8192]: reads a, b; writes y:
                           6*8192*T
    swiglu_backward        reads a, b, dy; writes da, db: 10*8192*T
    gelu_forward           gelu(x, tanh), x [T,8192]: reads x; writes y: 4*8192*T
    gelu_backward          reads x, dy; writes dx: 6*8192*T
    rotary_forward         rotate-half RoPE, x [T,32,128], cos and sin
                           [T,1,128]: reads x, cos, sin; writes y:
                           4*4096*T + 4*128*T
    rotary_backward        reads dy, cos, sin; writes dx: 4*4096*T + 4*128*T
    cross_entropy_forward  bf16 logits [T,128256], int64 targets, mean loss:
                           reads logits, targets; writes the loss:
                           2*128256*T + 8*T + 2
    cross_entropy_backward reads logits, targets, the loss's gradient; writes
                           dlogits: 4*128256*T + 8*T + 2
    adamw_step             a flat fp32 parameter of N elements: reads p, g, m,
                           v (16N), writes p, m, v (12N): 28N
  ops_compiled    the same ops, each wrapped in torch.compile(dynamic=False)
                  (dynamo reset per size); the compiled adamw_step is the
                  default (foreach) AdamW step compiled by Inductor, the eager
                  one torch.optim.AdamW(fused=True).

Grids: every axis is the union of the shapes file's values and a small default
set, capped at --max-grid points (requested values kept first, then the
default values nearest to them in log space); then --time-budget-s trims the
grids (default-only values first, the costliest first) until the estimate
fits, and says what it trimmed. Cells that cannot be measured (out of memory,
an unsupported shape) are filled from the nearest measured cell.

Exit status: 0 on success, 1 on an error (the message names the file and the
JSON path; nothing is written), 2 on a command-line usage error.
"""

import argparse
import datetime
import itertools
import json
import math
import os
import socket
import statistics
import subprocess
import sys
import time

PROFILE_FORMAT = "cluster-studio.kernels"
SHAPES_FORMAT = "cluster-studio.kernel-shapes"
TIMINGS_FORMAT = "cluster-studio.kernel-timings"
LICENSE = "measured by the user; no third-party data"
SCRIPT = "tools/collect-kernels.py"

DEFAULT_CATALOG = os.path.normpath(os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "resources", "catalog.json"))

TABLE_KINDS = ["gemm", "attention", "decode_attention", "collectives", "memory",
               "ops", "ops_compiled"]
DEFAULT_TABLE_KINDS = ["gemm", "attention", "collectives", "memory", "ops",
                       "ops_compiled"]

COLLECTIVES = ["all_reduce", "all_gather", "reduce_scatter", "all_to_all"]
COLLECTIVE_ALIASES = {
    "allreduce": "all_reduce", "all_gather_into_tensor": "all_gather",
    "allgather": "all_gather", "reduce_scatter_tensor": "reduce_scatter",
    "reducescatter": "reduce_scatter", "all_to_all_single": "all_to_all",
    "alltoall": "all_to_all",
}

# Named memory-bound ops: bytes(T) = per_row * T + fixed, the least the op
# must read + write (T rows: tokens, or elements for adamw_step).
HIDDEN = 4096          # norms
FFN = 8192             # swiglu, gelu
ROPE_HEADS, ROPE_DIM = 32, 128
VOCAB = 128256         # cross entropy (Llama 3's vocabulary)
OP_SPECS = {
    "rmsnorm_forward": (4 * HIDDEN, 2 * HIDDEN),
    "rmsnorm_backward": (6 * HIDDEN, 4 * HIDDEN),
    "layernorm_forward": (4 * HIDDEN, 4 * HIDDEN),
    "layernorm_backward": (6 * HIDDEN, 6 * HIDDEN),
    "swiglu_forward": (6 * FFN, 0),
    "swiglu_backward": (10 * FFN, 0),
    "gelu_forward": (4 * FFN, 0),
    "gelu_backward": (6 * FFN, 0),
    "rotary_forward": (4 * ROPE_HEADS * ROPE_DIM + 4 * ROPE_DIM, 0),
    "rotary_backward": (4 * ROPE_HEADS * ROPE_DIM + 4 * ROPE_DIM, 0),
    "cross_entropy_forward": (2 * VOCAB + 8, 2),
    "cross_entropy_backward": (4 * VOCAB + 8, 2),
    "adamw_step": (28, 0),
}
OPS = list(OP_SPECS)

GEMM_PRECISIONS = {"bf16": 2, "fp16": 2, "fp8": 1, "tf32": 4}     # input bytes per element
KV_BYTES = {"bf16": 2, "fp16": 2, "fp8": 1}

DEFAULT_GRIDS = {
    "gemm": {"m": [1, 16, 128, 1024, 4096, 16384],
             "n": [1024, 4096, 16384],
             "k": [1024, 4096, 16384]},
    "attention": {"head_dim": [64, 128], "seq": [1024, 4096, 16384]},
    "decode_attention": {"batch": [1, 8, 64], "context": [1024, 8192, 65536]},
    "collectives": [2 ** e for e in range(10, 31, 2)],
    "memory": [10 ** e for e in range(4, 10)],
    "ops": [2 ** 24, 2 ** 26, 2 ** 28, 2 ** 30],
}

ATTENTION_HEADS = 16
DECODE_HEADS, DECODE_KV_HEADS, DECODE_HEAD_DIM = 32, 8, 128

FLUSH_BYTES = 256 << 20
STARTUP_S = 20.0            # importing torch, CUDA context, cuBLAS/cuDNN set-up
FIRST_COMPILE_S = 20.0      # Inductor's first compile in a process
COMPILE_S = 6.0             # each further torch.compile of one op at one size
SETUP_S = 0.05              # per measurement: allocation, cuBLAS heuristics, Python
REP_OVERHEAD_S = 20e-6      # per call: events and launch
POINT_SECONDS = 1.0         # the repetitions of one point stop near this
WARMUP_SECONDS = 0.25       # and its warm-up near this
MAX_EFFICIENCY = 1.5


class UserError(Exception):
    """A bad input: reported on stderr, exit status 1, nothing written."""


def log(message):
    print("collect-kernels: " + message, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- JSON input

def json_path(parts):
    return "/" + "/".join(str(p) for p in parts)


def read_json(filename, what):
    try:
        with open(filename, "r", encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise UserError("{}: cannot read {}: {}".format(filename, what, e.strerror or e))
    except UnicodeDecodeError as e:
        raise UserError("{}: not valid JSON: not UTF-8 text ({})".format(filename, e.reason))
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except ValueError as e:
        raise UserError("{}: not valid JSON: {}".format(filename, e))


def _reject_constant(name):
    raise ValueError("{} is not a JSON number".format(name))


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _as_positive_int(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, int) and v > 0:
        return v
    if isinstance(v, float) and math.isfinite(v) and v > 0 and v.is_integer():
        return int(v)
    return None


class Reader:
    """Typed field access with errors that name the file and the JSON path."""

    def __init__(self, filename):
        self.filename = filename

    def fail(self, path, message):
        raise UserError("{}: {}: {}".format(self.filename, json_path(path), message))

    def obj(self, value, path):
        if not isinstance(value, dict):
            self.fail(path, "expected an object")
        return value

    def list(self, obj, key, path, required=False):
        if key not in obj:
            if required:
                self.fail(path + [key], "missing; expected a list")
            return []
        value = obj[key]
        if not isinstance(value, list):
            self.fail(path + [key], "expected a list")
        return value

    def pos_int(self, obj, key, path, default=None):
        if key not in obj:
            if default is not None:
                return default
            self.fail(path + [key], "missing; expected a positive integer")
        v = _as_positive_int(obj[key])
        if v is None:
            self.fail(path + [key], "expected a positive integer, got {}".format(_show(obj[key])))
        return v

    def pos_number(self, obj, key, path, what="a positive number"):
        if key not in obj:
            self.fail(path + [key], "missing; expected {}".format(what))
        v = obj[key]
        if not _is_number(v) or v <= 0:
            self.fail(path + [key], "expected {}, got {}".format(what, _show(v)))
        return float(v)

    def string(self, obj, key, path, default=None):
        if key not in obj:
            if default is not None:
                return default
            self.fail(path + [key], "missing; expected a string")
        v = obj[key]
        if not isinstance(v, str) or not v:
            self.fail(path + [key], "expected a non-empty string, got {}".format(_show(v)))
        return v

    def boolean(self, obj, key, path, default):
        if key not in obj:
            return default
        v = obj[key]
        if not isinstance(v, bool):
            self.fail(path + [key], "expected true or false, got {}".format(_show(v)))
        return v


def _show(v):
    text = json.dumps(v)
    return text if len(text) <= 40 else text[:37] + "..."


# ------------------------------------------------------------- shapes file

def load_shapes(filename):
    data = read_json(filename, "the shapes file")
    r = Reader(filename)
    r.obj(data, [])
    fmt = data.get("format")
    if fmt != SHAPES_FORMAT:
        r.fail(["format"], "expected \"{}\", got {}".format(SHAPES_FORMAT, _show(fmt)))
    version = data.get("format_version")
    if _as_positive_int(version) != 1:
        r.fail(["format_version"], "expected 1, got {}".format(_show(version)))
    shapes = {
        "file": filename,
        "design": r.string(data, "design", [], default="-"),
        "gpu_part": data.get("gpu_part") if isinstance(data.get("gpu_part"), str) else None,
        "precision": r.string(data, "precision", [], default="bf16"),
        "gemm": [], "attention": [], "memory": [], "collectives": [],
    }
    for i, g in enumerate(r.list(data, "gemm", [])):
        p = ["gemm", i]
        r.obj(g, p)
        shapes["gemm"].append({
            "name": r.string(g, "name", p, default="GEMM {}".format(i)),
            "pass": r.string(g, "pass", p, default="forward"),
            "m": r.pos_int(g, "m", p), "n": r.pos_int(g, "n", p), "k": r.pos_int(g, "k", p),
            "precision": r.string(g, "precision", p, default=shapes["precision"]),
        })
    for i, a in enumerate(r.list(data, "attention", [])):
        p = ["attention", i]
        r.obj(a, p)
        shapes["attention"].append({
            "pass": r.string(a, "pass", p, default="forward"),
            "batch": r.pos_int(a, "batch", p, default=1),
            "heads": r.pos_int(a, "heads", p, default=ATTENTION_HEADS),
            "kv_heads": r.pos_int(a, "kv_heads", p, default=1),
            "head_dim": r.pos_int(a, "head_dim", p),
            "seq": r.pos_int(a, "seq", p),
            "causal": r.boolean(a, "causal", p, True),
        })
    for i, m in enumerate(r.list(data, "memory", [])):
        p = ["memory", i]
        r.obj(m, p)
        shapes["memory"].append({
            "op": r.string(m, "op", p),
            "bytes": int(round(r.pos_number(m, "bytes", p))),
        })
    for i, c in enumerate(r.list(data, "collectives", [])):
        p = ["collectives", i]
        r.obj(c, p)
        op = r.string(c, "op", p)
        op = COLLECTIVE_ALIASES.get(op, op)
        if op not in COLLECTIVES:
            r.fail(p + ["op"], "expected one of {}, got {}".format(", ".join(COLLECTIVES), _show(c["op"])))
        shapes["collectives"].append({
            "op": op, "gpus": r.pos_int(c, "gpus", p),
            "bytes": int(round(r.pos_number(c, "bytes", p))),
        })
    return shapes


# ------------------------------------------------------------------ catalog

def load_part(catalog_file, part_id):
    data = read_json(catalog_file, "the catalog")
    parts = data.get("parts") if isinstance(data, dict) else None
    if not isinstance(parts, list):
        raise UserError("{}: /parts: expected a list of parts".format(catalog_file))
    for part in parts:
        if isinstance(part, dict) and part.get("id") == part_id:
            if part.get("kind") != "accelerator":
                raise UserError("{}: part \"{}\" is a {}, not a GPU".format(
                    catalog_file, part_id, part.get("kind")))
            return part
    gpus = sorted(p.get("id") for p in parts
                  if isinstance(p, dict) and p.get("kind") == "accelerator" and isinstance(p.get("id"), str))
    raise UserError("{}: no part \"{}\" in the catalog (GPU parts: {})".format(
        catalog_file, part_id, ", ".join(gpus)))


def part_figure(part, name):
    fig = part.get("figures", {}).get(name)
    if isinstance(fig, dict) and _is_number(fig.get("value")) and fig["value"] > 0:
        return float(fig["value"])
    return None


def resolve_peaks(part, args, meta):
    """Dense peaks (TFLOP/s by precision) and HBM TB/s: the command line, then
    what a timings file recorded, then the catalog part."""
    recorded = meta.get("peaks_tflops") if isinstance(meta.get("peaks_tflops"), dict) else {}
    peaks = {}
    for prec in sorted(set(GEMM_PRECISIONS) | set(k for k in recorded if isinstance(k, str))):
        override = {"bf16": args.peak_bf16_tflops, "fp8": args.peak_fp8_tflops}.get(prec)
        if override is not None:
            peaks[prec] = override
        elif _is_number(recorded.get(prec)) and recorded[prec] > 0:
            peaks[prec] = float(recorded[prec])
        else:
            value = part_figure(part, prec + "_tflops")
            if value is not None:
                peaks[prec] = value
    if "bf16" not in peaks:
        raise UserError("part \"{}\" has no bf16_tflops figure; give --peak-bf16-tflops".format(part["id"]))
    hbm = args.hbm_tb_per_s
    if hbm is None and _is_number(meta.get("hbm_tb_per_s")) and meta["hbm_tb_per_s"] > 0:
        hbm = float(meta["hbm_tb_per_s"])
    if hbm is None:
        hbm = part_figure(part, "hbm_tb_per_s")
    if hbm is None:
        raise UserError("part \"{}\" has no hbm_tb_per_s figure; give --hbm-tb-per-s".format(part["id"]))
    return peaks, hbm


def resolve_scaleup(part, args, meta):
    """The scale-up link, both directions, GB/s: the command line, then what a
    timings file recorded, then the catalog part; None when none has it (only
    an error when the profile has collectives)."""
    value = args.scaleup_gb_per_s
    if value is None and _is_number(meta.get("scaleup_gb_per_s")) and meta["scaleup_gb_per_s"] > 0:
        value = float(meta["scaleup_gb_per_s"])
    if value is None:
        value = part_figure(part, "scaleup_gb_per_s")
    if value is not None and float(value).is_integer():
        value = int(value)
    return value


def missing_scaleup(part_id):
    return UserError("part \"{}\" has no scaleup_gb_per_s figure, which a profile with collectives needs; "
                     "give --scaleup-gb-per-s".format(part_id))


# ------------------------------------------------------------------- grids

def _log_spread(values, count):
    """count of the values, spread evenly in log space, both ends kept."""
    values = sorted(set(values))
    if len(values) <= count:
        return values
    keep = [values[0], values[-1]]
    rest = values[1:-1]
    while len(keep) < count:
        best = max(rest, key=lambda v: (min(abs(math.log(v / k)) for k in keep), -v))
        keep.append(best)
        rest.remove(best)
    return sorted(keep)


def cap_grid(defaults, requested, cap):
    """The union of the default and requested values, at most `cap` of them:
    the requested values first (spread in log space when there are more than
    `cap`), then the default values nearest (in log space) to a requested one."""
    requested = sorted(set(requested))
    values = sorted(set(defaults) | set(requested))
    if len(values) <= cap:
        return values
    if not requested:
        return _log_spread(values, cap)
    if len(requested) >= cap:
        return _log_spread(requested, cap)
    req = set(requested)
    others = [v for v in values if v not in req]
    others.sort(key=lambda v: (min(abs(math.log(v / r)) for r in requested), v))
    return sorted(requested + others[:cap - len(requested)])


def op_bytes(op, rows):
    per_row, fixed = OP_SPECS[op]
    return per_row * rows + fixed


def op_rows(op, target_bytes):
    per_row, fixed = OP_SPECS[op]
    return max(1, int(round((target_bytes - fixed) / per_row)))


def memory_elements(target_bytes):
    return max(1, int(round(target_bytes / 4.0)))      # bf16 clone: 2 read + 2 written


def attention_batch(seq):
    return max(4, -(-16384 // seq))


def collective_factor(op, gpus):
    return 2.0 * (gpus - 1) / gpus if op == "all_reduce" else (gpus - 1) / float(gpus)


# -------------------------------------------------------------------- plan

class Table:
    """One table of the profile to measure: named axes (each a grid) and a
    cost model for the time each measurement takes."""

    def __init__(self, kind, sub, axes, requested, cost, fits=None):
        self.kind = kind            # one of TABLE_KINDS
        self.sub = sub              # precision, pass or op
        self.axes = axes            # [(name, [values])]
        self.requested = requested  # {name: set of requested values}
        self.cost = cost            # point dict -> seconds
        self.fits = fits or (lambda point: True)

    @property
    def label(self):
        return self.kind if self.sub is None else "{} {}".format(self.kind, self.sub)

    def points(self):
        names = [a[0] for a in self.axes]
        for combo in itertools.product(*[a[1] for a in self.axes]):
            yield dict(zip(names, combo))

    def count(self):
        n = 1
        for _, values in self.axes:
            n *= len(values)
        return n

    def measured_points(self):
        return [p for p in self.points() if self.fits(p)]

    def estimate(self):
        return sum(self.cost(p) for p in self.points() if self.fits(p))


class Estimator:
    """Rough seconds per measurement, from roofline guesses; the measuring
    path uses the same rep counts from the first call's real time."""

    def __init__(self, peaks, hbm_tb_per_s, busbw_gb_per_s, reps, warmup):
        self.peaks = {p: v * 1e12 for p, v in peaks.items()}
        self.bw = hbm_tb_per_s * 1e12
        self.busbw = busbw_gb_per_s * 1e9
        self.reps = reps
        self.warmup = warmup

    def counts(self, t):
        t = max(t, 1e-7)
        reps = min(self.reps, max(3, int(POINT_SECONDS / t)))
        warm = min(self.warmup, max(1, int(WARMUP_SECONDS / t)))
        return max(1, reps), warm

    def point(self, t, alloc, flush, prepare_t=0.0, compile_s=0.0):
        reps, warm = self.counts(t)
        per_call = t + prepare_t + REP_OVERHEAD_S
        flush_s = FLUSH_BYTES / (0.8 * self.bw) if flush else 0.0
        return compile_s + SETUP_S + alloc / (0.3 * self.bw) + (1 + warm + reps) * per_call + reps * flush_s

    def gemm_time(self, prec, m, n, k):
        e = GEMM_PRECISIONS[prec]
        traffic = e * (m * k + k * n) + max(e, 2) * m * n
        return max(2.0 * m * n * k / (0.7 * self.peaks[prec]), traffic / (0.7 * self.bw), 5e-6)

    def attention_time(self, backward, d, s):
        b = attention_batch(s)
        flops = (5.0 if backward else 2.0) * b * ATTENTION_HEADS * s * s * d
        return max(flops / ((0.35 if backward else 0.45) * self.peaks["bf16"]), 10e-6)

    def collective_time(self, op, gpus, nbytes):
        return 20e-6 + nbytes * collective_factor(op, gpus) / self.busbw

    def collective_inner(self, t):
        return max(1, min(50, int(math.ceil(1e-3 / t))))


def gemm_alloc(prec, m, n, k):
    e = GEMM_PRECISIONS[prec]
    extra = 2 * max(m * k, k * n) if e == 1 else 0          # the bf16 source of an fp8 cast
    return e * (m * k + k * n) + max(e, 2) * m * n + extra


def attention_alloc(backward, d, s):
    one = attention_batch(s) * ATTENTION_HEADS * s * d * 2
    return one * (9 if backward else 4)


def decode_kv_bytes(batch, context, kv_heads=DECODE_KV_HEADS, head_dim=DECODE_HEAD_DIM, elem=2):
    return 2 * batch * kv_heads * context * head_dim * elem


def make_plan(args, shapes, part, peaks, hbm, world, local_world):
    """The tables to measure, their grids and notes; trims to the time budget."""
    notes = []
    kinds = list(DEFAULT_TABLE_KINDS)
    if args.tables:
        kinds = []
        for name in args.tables.split(","):
            name = name.strip()
            if name == "attention_forward" or name == "attention_backward":
                name = "attention"
            if name not in TABLE_KINDS:
                raise UserError("--tables: unknown table \"{}\" (tables: {})".format(name, ", ".join(TABLE_KINDS)))
            if name not in kinds:
                kinds.append(name)
    if args.decode and "decode_attention" not in kinds:
        kinds.append("decode_attention")

    busbw = (part_figure(part, "scaleup_gb_per_s") or 200.0) / 2 * 0.8
    est = Estimator(peaks, hbm, busbw, args.reps, args.warmup)
    mem_gb = part_figure(part, "hbm_gb") or 80.0
    mem_limit = mem_gb * 1e9 * 0.85 - FLUSH_BYTES
    cap = args.max_grid
    shapes = shapes or {"gemm": [], "attention": [], "memory": [], "collectives": [], "precision": "bf16"}
    tables = []

    # GEMM precisions
    if args.precisions:
        precs = []
        for p in args.precisions.split(","):
            p = p.strip()
            if p not in GEMM_PRECISIONS:
                raise UserError("--precisions: unknown precision \"{}\" (measurable: {})".format(
                    p, ", ".join(sorted(GEMM_PRECISIONS))))
            if p not in precs:
                precs.append(p)
    elif args.shapes:
        precs = ["bf16"] + sorted(set(g["precision"] for g in shapes["gemm"]) - {"bf16"})
    else:
        precs = ["bf16", "fp8"]
    if "gemm" in kinds:
        for prec in precs:
            if prec not in GEMM_PRECISIONS:
                notes.append("gemm {}: not measured: this script measures {} GEMMs".format(
                    prec, ", ".join(sorted(GEMM_PRECISIONS))))
                continue
            if prec not in peaks:
                notes.append("gemm {0}: not measured: part {1} has no {0}_tflops figure{2}".format(
                    prec, part["id"], " (give --peak-fp8-tflops)" if prec == "fp8" else ""))
                continue
            axes, requested = [], {}
            for axis in ("m", "n", "k"):
                req = [g[axis] for g in shapes["gemm"]]
                axes.append((axis, cap_grid(DEFAULT_GRIDS["gemm"][axis], req, cap)))
                requested[axis] = set(req)

            def gemm_cost(p, prec=prec):
                t = est.gemm_time(prec, p["m"], p["n"], p["k"])
                alloc = gemm_alloc(prec, p["m"], p["n"], p["k"])
                return est.point(t, alloc, alloc < FLUSH_BYTES)

            def gemm_fits(p, prec=prec):
                return gemm_alloc(prec, p["m"], p["n"], p["k"]) <= mem_limit
            tables.append(Table("gemm", prec, axes, requested, gemm_cost, gemm_fits))

    if "attention" in kinds:
        req_d = [a["head_dim"] for a in shapes["attention"]]
        req_s = [a["seq"] for a in shapes["attention"]]
        for pass_ in ("forward", "backward"):
            backward = pass_ == "backward"
            axes = [("head_dim", cap_grid(DEFAULT_GRIDS["attention"]["head_dim"], req_d, cap)),
                    ("seq", cap_grid(DEFAULT_GRIDS["attention"]["seq"], req_s, cap))]

            def attn_cost(p, backward=backward):
                t = est.attention_time(backward, p["head_dim"], p["seq"])
                prep = est.attention_time(False, p["head_dim"], p["seq"]) if backward else 0.0
                alloc = attention_alloc(backward, p["head_dim"], p["seq"])
                return est.point(t, alloc, alloc < FLUSH_BYTES, prepare_t=prep)

            def attn_fits(p, backward=backward):
                return attention_alloc(backward, p["head_dim"], p["seq"]) <= mem_limit
            tables.append(Table("attention", pass_, axes, {"head_dim": set(req_d), "seq": set(req_s)},
                                attn_cost, attn_fits))

    if "decode_attention" in kinds:
        axes = [("batch", list(DEFAULT_GRIDS["decode_attention"]["batch"][:cap])),
                ("context", list(DEFAULT_GRIDS["decode_attention"]["context"][:cap]))]

        def decode_cost(p):
            kv = decode_kv_bytes(p["batch"], p["context"])
            return est.point(kv / (0.6 * est.bw) + 8e-6, kv, kv < FLUSH_BYTES)

        def decode_fits(p):
            return decode_kv_bytes(p["batch"], p["context"]) <= mem_limit
        tables.append(Table("decode_attention", "bf16", axes, {"batch": set(), "context": set()},
                            decode_cost, decode_fits))

    if "collectives" in kinds:
        wanted = sorted(set(c["gpus"] for c in shapes["collectives"]))
        if world > 1:
            if local_world and local_world < world:
                notes.append("collectives: {} processes over {} nodes: measured across nodes, "
                             "not within one scale-up domain".format(world, -(-world // local_world)))
            other = [g for g in wanted if g != world]
            if other:
                notes.append("collectives: the shapes ask for {} GPUs too; run again under torchrun "
                             "with those counts and convert the saved timings together".format(
                                 ", ".join(str(g) for g in other)))
            for op in COLLECTIVES:
                req = [c["bytes"] for c in shapes["collectives"] if c["op"] == op]
                sizes = sorted(set(collective_bytes(b, world) for b in
                                   cap_grid(DEFAULT_GRIDS["collectives"], req, cap)))

                def coll_cost(p, op=op):
                    t = est.collective_time(op, p["gpus"], p["bytes"])
                    reps, warm = est.counts(t)
                    return SETUP_S + (warm + reps * est.collective_inner(t)) * t
                tables.append(Table("collectives", op, [("gpus", [world]), ("bytes", sizes)],
                                    {"gpus": {world}, "bytes": set(collective_bytes(b, world) for b in req)},
                                    coll_cost))
        else:
            hint = " ".join(str(g) for g in wanted) if wanted else "8"
            notes.append("collectives: not measured (one process); run under torchrun "
                         "--nproc-per-node {} for them".format(hint.split()[-1]))

    unknown_memory = []
    op_requests = {op: [] for op in OPS}
    for m in shapes["memory"]:
        if m["op"] in op_requests:
            op_requests[m["op"]].append(m["bytes"])
        else:
            unknown_memory.append(m)
    for m in unknown_memory:
        if m["op"] not in ("memory", "copy"):
            notes.append("memory op \"{}\" is not one this script measures by name; its {} bytes "
                         "join the generic memory curve".format(m["op"], m["bytes"]))

    if "memory" in kinds:
        req = [4 * memory_elements(m["bytes"]) for m in unknown_memory]
        defaults = [4 * memory_elements(b) for b in DEFAULT_GRIDS["memory"]]

        def memory_cost(p):
            b = p["bytes"]
            return est.point(b / (0.7 * est.bw) + 4e-6, b / 2, b < FLUSH_BYTES)
        tables.append(Table("memory", None, [("bytes", cap_grid(defaults, req, cap))],
                            {"bytes": set(req)}, memory_cost, lambda p: p["bytes"] <= mem_limit))

    for kind in ("ops", "ops_compiled"):
        if kind not in kinds:
            continue
        compiled = kind == "ops_compiled"
        for op in OPS:
            req = [op_bytes(op, op_rows(op, b)) for b in op_requests[op]]
            defaults = [op_bytes(op, op_rows(op, b)) for b in DEFAULT_GRIDS["ops"]]

            def op_cost(p, op=op, compiled=compiled):
                b = p["bytes"]
                t = b / (0.5 * est.bw) + 10e-6
                backward = op.endswith("_backward")
                return est.point(t, 2 * b, b < FLUSH_BYTES, prepare_t=t if backward else 0.0,
                                 compile_s=COMPILE_S if compiled else 0.0)
            tables.append(Table(kind, op, [("bytes", cap_grid(defaults, req, cap))], {"bytes": set(req)},
                                op_cost, lambda p: 3 * p["bytes"] <= mem_limit))

    plan = {"tables": tables, "notes": notes, "trimmed": [], "estimator": est,
            "mem_limit": mem_limit, "precisions": precs, "kinds": kinds}
    plan["trimmed"] = trim_to_budget(plan, args.time_budget_s)
    return plan


def collective_bytes(nbytes, world):
    """The buffer size actually used: bf16 elements, a multiple of the world size."""
    elems = max(world, (nbytes // 2) // world * world)
    return 2 * elems


def plan_total(plan):
    total = STARTUP_S + sum(t.estimate() for t in plan["tables"])
    if any(t.kind == "ops_compiled" for t in plan["tables"]):
        total += FIRST_COMPILE_S
    return total


def trim_to_budget(plan, budget):
    """Make the estimate fit the budget: drop grid values only in the default
    set, the costliest first; then whole ops_compiled tables (their cost is
    mostly compiling); then requested values. Every axis keeps two points, and
    values cheaper than half a percent of the budget stay (they save nothing)."""
    trimmed = []
    if budget <= 0:
        return trimmed
    floor = 0.005 * budget
    for phase in ("default", "compiled", "requested"):
        while plan_total(plan) > budget:
            if phase == "compiled":
                compiled = [t for t in plan["tables"] if t.kind == "ops_compiled"]
                if not compiled:
                    break
                table = max(compiled, key=lambda t: t.estimate())
                plan["tables"].remove(table)
                trimmed.append("{}: not measured (about {:.0f} s)".format(table.label, table.estimate()))
                continue
            best = None
            for table in plan["tables"]:
                costs = [dict() for _ in table.axes]
                for p in table.points():
                    if not table.fits(p):
                        continue
                    c = table.cost(p)
                    for i, (name, _) in enumerate(table.axes):
                        costs[i][p[name]] = costs[i].get(p[name], 0.0) + c
                for i, (name, values) in enumerate(table.axes):
                    if len(values) <= 2:
                        continue
                    for v in values:
                        if (v in table.requested[name]) != (phase == "requested"):
                            continue
                        c = costs[i].get(v, 0.0)
                        if c >= floor and (best is None or c > best[0]):
                            best = (c, table, i, v)
            if best is None:
                break
            cost, table, i, v = best
            name, values = table.axes[i]
            table.axes[i] = (name, [x for x in values if x != v])
            trimmed.append("{} {} {} ({} value, about {:.0f} s)".format(
                table.label, name, v, "requested" if phase == "requested" else "default", cost))
    return trimmed


def format_seconds(s):
    if s < 120:
        return "{:.0f} s".format(s)
    return "{:.0f} s ({:.1f} min)".format(s, s / 60)


def _count(items, noun):
    return "{} {}{}".format(len(items), noun, "" if len(items) == 1 else "s")


def print_plan(plan, args, shapes, part, peaks, hbm, out):
    w = out.write
    peak_text = ", ".join("{} {:g}".format(p, peaks[p]) for p in sorted(peaks))
    w("Plan for {} ({}): dense peaks {} TFLOP/s; HBM {:g} TB/s\n".format(
        part["id"], part.get("name", part["id"]), peak_text, hbm))
    if shapes:
        w("Shapes: {} (design {}): {}, {}, {}, {}\n".format(
            shapes["file"], shapes["design"], _count(shapes["gemm"], "GEMM"),
            _count(shapes["attention"], "attention shape"), _count(shapes["memory"], "memory op"),
            _count(shapes["collectives"], "collective")))
    else:
        w("Shapes: none (--shapes not given): the default grids\n")
    w("Timing: median of {} repetitions after {} warm-up calls (fewer for long kernels: about {:g} s "
      "of repetitions per point, at least 3); grids capped at {} points per axis\n\n".format(
          args.reps, args.warmup, POINT_SECONDS, args.max_grid))
    total_points = 0
    for table in plan["tables"]:
        dims = " x ".join("{} {}".format(len(v), n) for n, v in table.axes)
        pts = table.measured_points()
        total_points += len(pts)
        w("{}: {} = {} measurements, about {}\n".format(table.label, dims, len(pts),
                                                         format_seconds(table.estimate())))
        for name, values in table.axes:
            w("  {} = [{}]\n".format(name, ", ".join(str(v) for v in values)))
        skipped = table.count() - len(pts)
        if skipped:
            w("  {} points need more than {:.0f} GB of GPU memory: not measured, filled from the "
              "nearest measured point\n".format(skipped, plan["mem_limit"] / 1e9))
    if shapes and shapes["gemm"]:
        w("\nRequested GEMMs:\n")
        grids = {t.sub: dict(t.axes) for t in plan["tables"] if t.kind == "gemm"}
        for g in shapes["gemm"]:
            grid = grids.get(g["precision"]) or grids.get("bf16")
            if grid is None:
                status = "no GEMM table measured"
            else:
                off = [a for a in ("m", "n", "k") if g[a] not in grid[a]]
                status = "on the grid" if not off else "interpolated in " + ", ".join(off)
                if g["precision"] not in grids:
                    status += " (of the bf16 table: {} not measured)".format(g["precision"])
            w("  {} ({}, {}): m {}, n {}, k {}: {}\n".format(
                g["name"], g["pass"], g["precision"], g["m"], g["n"], g["k"], status))
    if plan["notes"]:
        w("\nNotes:\n")
        for note in plan["notes"]:
            w("  " + note + "\n")
    if plan["trimmed"]:
        w("\nTrimmed to fit --time-budget-s {:g}:\n".format(args.time_budget_s))
        for t in plan["trimmed"]:
            w("  " + t + "\n")
    total = plan_total(plan)
    budget = ""
    if args.time_budget_s > 0:
        budget = " (budget {:g} s{})".format(
            args.time_budget_s, "; over it even trimmed: raise --time-budget-s or pick --tables"
            if total > args.time_budget_s else "")
    w("\nTotal: {} measurements in {} tables, about {}{}\n".format(
        total_points, len(plan["tables"]), format_seconds(total), budget))


# --------------------------------------------------------------- timings

TABLE_NAMES = ["gemm", "attention_forward", "attention_backward", "decode_attention",
               "collective", "op", "memory"]


def parse_timings(data, filename):
    """Validate timing records; returns (records, metadata)."""
    r = Reader(filename)
    meta = {}
    base = []
    if isinstance(data, dict):
        if data.get("format") != TIMINGS_FORMAT:
            r.fail(["format"], "expected \"{}\" (or give a JSON list of timing records)".format(TIMINGS_FORMAT))
        if _as_positive_int(data.get("format_version")) != 1:
            r.fail(["format_version"], "expected 1, got {}".format(_show(data.get("format_version"))))
        meta = data
        items = r.list(data, "timings", [], required=True)
        base = ["timings"]
    elif isinstance(data, list):
        items = data
    else:
        r.fail([], "expected a list of timing records")
    records = []
    for i, rec in enumerate(items):
        p = base + [i]
        r.obj(rec, p)
        table = rec.get("table")
        if table not in TABLE_NAMES:
            r.fail(p + ["table"], "expected one of {}, got {}".format(", ".join(TABLE_NAMES), _show(table)))
        if "seconds" not in rec:
            r.fail(p + ["seconds"], "missing; expected a positive number of seconds")
        s = rec["seconds"]
        if not _is_number(s) or s <= 0:
            r.fail(p + ["seconds"], "expected a positive number of seconds, got {}".format(_show(s)))
        out = {"table": table, "seconds": float(s), "path": p}
        if table == "gemm":
            out["precision"] = r.string(rec, "precision", p, default="bf16")
            for a in ("m", "n", "k"):
                out[a] = r.pos_int(rec, a, p)
        elif table in ("attention_forward", "attention_backward"):
            for a in ("head_dim", "seq", "batch", "heads"):
                out[a] = r.pos_int(rec, a, p)
        elif table == "decode_attention":
            out["precision"] = r.string(rec, "precision", p, default="bf16")
            if out["precision"] not in KV_BYTES:
                r.fail(p + ["precision"], "expected one of {}, got {}".format(
                    ", ".join(sorted(KV_BYTES)), _show(out["precision"])))
            out["batch"] = r.pos_int(rec, "batch", p)
            out["context"] = r.pos_int(rec, "context", p)
            out["kv_heads"] = r.pos_int(rec, "kv_heads", p, default=DECODE_KV_HEADS)
            out["head_dim"] = r.pos_int(rec, "head_dim", p, default=DECODE_HEAD_DIM)
        elif table == "collective":
            op = r.string(rec, "op", p)
            op = COLLECTIVE_ALIASES.get(op, op)
            if op not in COLLECTIVES:
                r.fail(p + ["op"], "expected one of {}, got {}".format(", ".join(COLLECTIVES), _show(rec["op"])))
            out["op"] = op
            out["gpus"] = r.pos_int(rec, "gpus", p)
            if out["gpus"] < 2:
                r.fail(p + ["gpus"], "expected at least 2 GPUs, got {}".format(out["gpus"]))
            out["bytes"] = r.pos_int(rec, "bytes", p)
        elif table == "op":
            op = r.string(rec, "op", p)
            if op not in OP_SPECS:
                r.fail(p + ["op"], "expected one of {}, got {}".format(", ".join(OPS), _show(op)))
            out["op"] = op
            out["compiled"] = r.boolean(rec, "compiled", p, False)
            out["bytes"] = r.pos_int(rec, "bytes", p)
        else:
            out["bytes"] = r.pos_int(rec, "bytes", p)
        records.append(out)
    if not records:
        r.fail(base or [], "no timing records")
    return records, meta


def record_to_json(rec):
    """A record as --save-timings writes it (a fixed key order)."""
    order = ["table", "op", "compiled", "precision", "m", "n", "k", "head_dim", "seq", "batch", "heads",
             "context", "kv_heads", "gpus", "bytes", "seconds"]
    return {k: rec[k] for k in order if k in rec}


# ------------------------------------------------------------- conversion

def _sig(x, digits=5):
    return float("{:.{}g}".format(x, digits))


def _grid_table(cells):
    """cells: {coordinate tuple: [values]} -> (axes, nested medians, filled count).
    A cell nobody measured takes the nearest measured cell's value (log space)."""
    ndim = len(next(iter(cells)))
    axes = [sorted(set(c[i] for c in cells)) for i in range(ndim)]
    medians = {c: statistics.median(v) for c, v in cells.items()}
    measured = sorted(medians)
    filled = [0]

    def value(coord):
        if coord in medians:
            return medians[coord]
        filled[0] += 1
        best = min(measured, key=lambda c: sum((math.log(a) - math.log(b)) ** 2 for a, b in zip(c, coord)))
        return medians[best]

    def build(level, prefix):
        if level == ndim:
            return _sig(value(tuple(prefix)))
        return [build(level + 1, prefix + [v]) for v in axes[level]]
    nested = build(0, [])
    return axes, nested, filled[0]


def record_value(rec, peaks, hbm, r):
    """(table key, grid coordinate, value, what it is) of one timing record:
    the one conversion from seconds, for --from-timings and measuring alike."""
    t, s = rec["table"], rec["seconds"]
    if t == "gemm":
        prec = rec["precision"]
        if prec not in peaks:
            r.fail(rec["path"] + ["precision"], "no dense {0} peak for a {0} GEMM: the part has no "
                   "{0}_tflops figure{1}".format(prec, " (give --peak-fp8-tflops)" if prec == "fp8" else ""))
        eff = 2.0 * rec["m"] * rec["n"] * rec["k"] / (s * peaks[prec] * 1e12)
        return (("gemm", prec), (rec["m"], rec["n"], rec["k"]), eff,
                "efficiency of gemm {} m={} n={} k={}".format(prec, rec["m"], rec["n"], rec["k"]))
    if t in ("attention_forward", "attention_backward"):
        factor = 2.0 if t == "attention_forward" else 5.0          # causal FLOPs; backward 2.5x forward
        flops = factor * rec["batch"] * rec["heads"] * rec["seq"] ** 2 * rec["head_dim"]
        return (("attention", t.split("_")[1]), (rec["head_dim"], rec["seq"]), flops / (s * peaks["bf16"] * 1e12),
                "efficiency of {} head_dim={} seq={}".format(t, rec["head_dim"], rec["seq"]))
    if t == "decode_attention":
        kv = decode_kv_bytes(rec["batch"], rec["context"], rec["kv_heads"], rec["head_dim"], KV_BYTES[rec["precision"]])
        return (("decode_attention", rec["precision"]), (rec["batch"], rec["context"]), kv / (s * hbm * 1e12),
                "efficiency of decode attention batch={} context={}".format(rec["batch"], rec["context"]))
    if t == "collective":
        busbw = rec["bytes"] / s * collective_factor(rec["op"], rec["gpus"]) / 1e9
        return (("collectives", rec["op"]), (rec["gpus"], rec["bytes"]), busbw,
                "bus bandwidth of {} over {} GPUs".format(rec["op"], rec["gpus"]))
    if t == "op":
        kind = "ops_compiled" if rec["compiled"] else "ops"
        return ((kind, rec["op"]), (rec["bytes"],), rec["bytes"] / (s * hbm * 1e12),
                "efficiency of {} {} bytes={}".format(kind, rec["op"], rec["bytes"]))
    return (("memory", None), (rec["bytes"],), rec["bytes"] / (s * hbm * 1e12),
            "efficiency of memory bytes={}".format(rec["bytes"]))


def implausible(value, what):
    return what.startswith("efficiency") and value > MAX_EFFICIENCY


def build_profile(records, filename, peaks, hbm, parts, gpu, source, data_version, date, scaleup=None):
    """Timing records -> the profile (an ordered dict) and notes on filled cells.
    scaleup (GB/s, both directions) is written when there are collectives, and
    required then."""
    r = Reader(filename)
    if scaleup is None and any(rec["table"] == "collective" for rec in records):
        raise missing_scaleup(parts[0] if parts else "?")
    groups = {}
    for rec in records:
        key, coord, value, what = record_value(rec, peaks, hbm, r)
        if not math.isfinite(value) or value <= 0:
            r.fail(rec["path"] + ["seconds"], "{} is not a positive finite number".format(what))
        if implausible(value, what):
            r.fail(rec["path"] + ["seconds"], "{} = {:.3g} is above {:g}: the time is too short for the "
                   "peak (check the timing, or the peak / bandwidth given)".format(what, value, MAX_EFFICIENCY))
        groups.setdefault(key, {}).setdefault(coord, []).append(value)

    fill_notes = []

    def table(key, names, value_name):
        axes, nested, filled = _grid_table(groups[key])
        if filled:
            total = 1
            for a in axes:
                total *= len(a)
            fill_notes.append("{} {}: {} of {} cells filled from the nearest measured cell".format(
                key[0], key[1], filled, total) if key[1] else
                "{}: {} of {} cells filled from the nearest measured cell".format(key[0], filled, total))
        out = {}
        for n, a in zip(names, axes):
            out[n] = a
        out[value_name] = nested
        return out

    profile = {
        "format": PROFILE_FORMAT,
        "format_version": 1,
        "gpu": gpu,
        "parts": parts,
        "source": None,
        "data_version": data_version,
        "license": LICENSE,
        "date": date,
        "peaks_tflops": {},
        "hbm_tb_per_s": hbm,
    }
    if any(k[0] == "collectives" for k in groups):
        profile["scaleup_gb_per_s"] = scaleup
    used_precs = set(k[1] for k in groups if k[0] == "gemm")
    for prec in sorted(peaks):
        if prec in ("bf16", "fp8") or prec in used_precs:
            profile["peaks_tflops"][prec] = peaks[prec]

    gemm = {prec: table(("gemm", prec), ["m", "n", "k"], "efficiency") for prec in sorted(used_precs)}
    if gemm:
        profile["gemm"] = gemm
    attention = {p: table(("attention", p), ["head_dim", "seq"], "efficiency")
                 for p in ("forward", "backward") if ("attention", p) in groups}
    if attention:
        profile["attention"] = attention
    decode = {p: table(("decode_attention", p), ["batch", "context"], "hbm_efficiency")
              for p in sorted(k[1] for k in groups if k[0] == "decode_attention")}
    if decode:
        profile["decode_attention"] = decode
    coll = {op: table(("collectives", op), ["gpus", "bytes"], "bus_gb_per_s")
            for op in COLLECTIVES if ("collectives", op) in groups}
    if coll:
        profile["collectives"] = coll
    if ("memory", None) in groups:
        profile["memory"] = table(("memory", None), ["bytes"], "hbm_efficiency")
    for kind in ("ops", "ops_compiled"):
        ops = {op: table((kind, op), ["bytes"], "hbm_efficiency") for op in OPS if (kind, op) in groups}
        if ops:
            profile[kind] = ops
    if fill_notes:
        source += "; " + "; ".join(fill_notes)
    profile["source"] = source
    return profile, fill_notes


# ---------------------------------------------------------------- output

def dumps(value, indent=0):
    """Deterministic JSON: the given key order, 2-space indents, arrays of
    numbers on one line, floats in Python's shortest round-trip form."""
    pad = "  " * indent
    inner = "  " * (indent + 1)
    if isinstance(value, dict):
        if not value:
            return "{}"
        if all(_scalar(v) for v in value.values()) and len(value) <= 4 and indent > 0:
            return "{" + ", ".join(json.dumps(k) + ": " + dumps(v) for k, v in value.items()) + "}"
        items = [inner + json.dumps(k) + ": " + dumps(v, indent + 1) for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list):
        if all(_scalar(v) for v in value):
            return "[" + ", ".join(dumps(v) for v in value) + "]"
        return "[\n" + ",\n".join(inner + dumps(v, indent + 1) for v in value) + "\n" + pad + "]"
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("non-finite number in the output")
        return repr(value)
    return json.dumps(value)


def _scalar(v):
    return not isinstance(v, (dict, list))


def write_text(path, text):
    """Write atomically (a temporary file, then a rename); '-' is stdout."""
    if path is None or path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    directory = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(directory, ".{}.{}.tmp".format(os.path.basename(path), os.getpid()))
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise UserError("{}: cannot write: {}".format(path, e.strerror or e))


def dump_timings(doc):
    """The timings document: its metadata, then one record a line."""
    head = {k: v for k, v in doc.items() if k != "timings"}
    text = dumps(head)[:-2] + ",\n  \"timings\": [\n"
    text += ",\n".join("    " + json.dumps(r) for r in doc["timings"])
    return text + "\n  ]\n}\n"


def timings_document(records, meta):
    doc = {"format": TIMINGS_FORMAT, "format_version": 1}
    for key in ("gpu", "part", "host", "driver", "driver_source", "cuda", "torch", "date",
                "peaks_tflops", "hbm_tb_per_s", "scaleup_gb_per_s"):
        if meta.get(key) is not None:
            doc[key] = meta[key]
    doc["timings"] = [record_to_json(r) for r in records]
    return doc


def measured_source(meta):
    return "measured with {} on {}; driver {} ({}), CUDA {}, torch {}".format(
        SCRIPT, meta.get("host", "an unnamed host"), meta.get("driver", "unknown"),
        meta.get("driver_source", "unknown"), meta.get("cuda", "unknown"), meta.get("torch", "unknown"))


def measured_data_version(meta):
    return "torch {}, CUDA {}, driver {}".format(
        meta.get("torch", "unknown"), meta.get("cuda", "unknown"), meta.get("driver", "unknown"))


def today():
    return datetime.datetime.now(datetime.timezone.utc).date().isoformat()


# ------------------------------------------------------------- measuring

class GpuTimer:
    """CUDA-event timing: a probe call (lazy set-up, compiles), warm-up, then
    the median of the repetitions, each after an optional untimed prepare()
    and L2 flush."""

    def __init__(self, torch, est):
        self.torch = torch
        self.est = est
        self.flush_buffer = torch.empty(FLUSH_BYTES, dtype=torch.uint8, device="cuda")

    def _timed(self, fn, state):
        torch = self.torch
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        fn(state)
        end.record()
        return start, end

    def run(self, fn, flush, prepare=None):
        torch = self.torch
        fn(prepare() if prepare else None)               # first call: set-up, autotuning, compiling
        torch.cuda.synchronize()
        state = prepare() if prepare else None
        if flush:
            self.flush_buffer.fill_(1)
        s, e = self._timed(fn, state)
        torch.cuda.synchronize()
        reps, warm = self.est.counts(s.elapsed_time(e) * 1e-3)
        for _ in range(warm):
            fn(prepare() if prepare else None)
        torch.cuda.synchronize()
        pairs = []
        for _ in range(reps):
            state = prepare() if prepare else None
            if flush:
                self.flush_buffer.fill_(1)
            pairs.append(self._timed(fn, state))
            state = None
        torch.cuda.synchronize()
        return statistics.median(s.elapsed_time(e) * 1e-3 for s, e in pairs)


def driver_version(torch):
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True,
                             timeout=30)
        lines = [l.strip() for l in out.stdout.splitlines() if l.strip()]
        if out.returncode == 0 and lines:
            return lines[0], "nvidia-smi"
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        v = torch._C._cuda_getDriverVersion()
        return "CUDA driver API {}.{}".format(v // 1000, (v % 1000) // 10), "torch.cuda"
    except Exception:                                     # noqa: BLE001 (any failure: unknown)
        return "unknown", "not found"


def scaled_mm(torch, a, b, scale):
    out = torch._scaled_mm(a, b, scale_a=scale, scale_b=scale, out_dtype=torch.bfloat16)
    return out[0] if isinstance(out, tuple) else out        # torch < 2.4 returned (out, amax)


def fp8_available(torch):
    if not (hasattr(torch, "_scaled_mm") and hasattr(torch, "float8_e4m3fn")):
        return "this torch has no torch._scaled_mm / float8_e4m3fn"
    if torch.cuda.get_device_capability() < (8, 9):
        return "the GPU has no FP8 tensor cores (compute capability below 8.9)"
    try:
        a = torch.zeros(16, 16, device="cuda", dtype=torch.bfloat16).to(torch.float8_e4m3fn)
        b = torch.zeros(16, 16, device="cuda", dtype=torch.bfloat16).to(torch.float8_e4m3fn).t()
        scaled_mm(torch, a, b, torch.ones((), device="cuda", dtype=torch.float32))
        torch.cuda.synchronize()
    except Exception as e:                                 # noqa: BLE001
        return "torch._scaled_mm failed: {}".format(str(e).splitlines()[0] if str(e) else type(e).__name__)
    return None


def _pad16(x):
    return -(-x // 16) * 16


class Kernels:
    """Builders: each returns (fn(state), prepare or None, flush) for one point."""

    def __init__(self, torch):
        self.torch = torch
        self.F = torch.nn.functional

    def gemm(self, prec, m, n, k):
        torch = self.torch
        if prec in ("bf16", "fp16", "tf32"):
            dt = {"bf16": torch.bfloat16, "fp16": torch.float16, "tf32": torch.float32}[prec]
            torch.backends.cuda.matmul.allow_tf32 = prec == "tf32"
            a = torch.randn(m, k, device="cuda", dtype=dt)
            b = torch.randn(k, n, device="cuda", dtype=dt)
            c = torch.empty(m, n, device="cuda", dtype=dt)
            return (lambda _: torch.mm(a, b, out=c)), None
        f8 = torch.float8_e4m3fn
        n16, k16 = _pad16(n), _pad16(k)
        scale = torch.ones((), device="cuda", dtype=torch.float32)
        b = torch.randn(n16, k16, device="cuda", dtype=torch.bfloat16).to(f8).t()     # column-major [k, n]

        def make(rows):
            a = torch.randn(rows, k16, device="cuda", dtype=torch.bfloat16).to(f8)
            fn = lambda _: scaled_mm(torch, a, b, scale)      # noqa: E731
            fn(None)
            return fn
        try:
            return make(m), None
        except RuntimeError as e:
            if m % 16 == 0 or "out of memory" in str(e).lower():
                raise
            return make(_pad16(m)), None                    # some versions want m % 16 == 0 too

    def attention(self, backward, head_dim, seq):
        torch, F = self.torch, self.F
        shape = (attention_batch(seq), ATTENTION_HEADS, seq, head_dim)
        q, k, v = (torch.randn(shape, device="cuda", dtype=torch.bfloat16, requires_grad=backward)
                   for _ in range(3))
        if not backward:
            def fwd(_):
                with torch.no_grad():
                    return F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return fwd, None
        dout = torch.randn(shape, device="cuda", dtype=torch.bfloat16)
        prepare = lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True)   # noqa: E731
        return (lambda out: torch.autograd.grad(out, (q, k, v), dout)), prepare

    def decode(self, batch, context):
        torch, F = self.torch, self.F
        group = DECODE_HEADS // DECODE_KV_HEADS
        q = torch.randn(batch, DECODE_KV_HEADS, group, DECODE_HEAD_DIM, device="cuda", dtype=torch.bfloat16)
        kc = torch.randn(batch, DECODE_KV_HEADS, context, DECODE_HEAD_DIM, device="cuda", dtype=torch.bfloat16)
        vc = torch.randn(batch, DECODE_KV_HEADS, context, DECODE_HEAD_DIM, device="cuda", dtype=torch.bfloat16)

        def fn(_):
            with torch.no_grad():
                return F.scaled_dot_product_attention(q, kc, vc)
        return fn, None

    def memory(self, nbytes):
        torch = self.torch
        x = torch.randn(nbytes // 4, device="cuda", dtype=torch.bfloat16)
        return (lambda _: x.clone()), None

    def _op_function(self, family):
        torch, F = self.torch, self.F
        if family == "rmsnorm":
            if hasattr(F, "rms_norm"):
                return lambda x, w: F.rms_norm(x, (HIDDEN,), w, eps=1e-6)

            def rms(x, w):
                xf = x.float()
                return (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + 1e-6)).type_as(x) * w
            return rms
        if family == "layernorm":
            return lambda x, w, b: F.layer_norm(x, (HIDDEN,), w, b)
        if family == "swiglu":
            return lambda a, b: F.silu(a) * b
        if family == "gelu":
            return lambda x: F.gelu(x, approximate="tanh")
        if family == "rotary":
            def rope(x, cos, sin):
                x1, x2 = x.chunk(2, dim=-1)
                return x * cos + torch.cat((-x2, x1), dim=-1) * sin
            return rope
        if family == "cross_entropy":
            return lambda logits, target: F.cross_entropy(logits, target)
        raise ValueError(family)

    def _op_inputs(self, family, rows, backward):
        """(inputs, the indices of those that take gradients)"""
        torch = self.torch
        bf = dict(device="cuda", dtype=torch.bfloat16)
        if family == "rmsnorm":
            return [torch.randn(rows, HIDDEN, **bf), torch.randn(HIDDEN, **bf)], [0, 1]
        if family == "layernorm":
            return [torch.randn(rows, HIDDEN, **bf), torch.randn(HIDDEN, **bf), torch.randn(HIDDEN, **bf)], [0, 1, 2]
        if family == "swiglu":
            return [torch.randn(rows, FFN, **bf), torch.randn(rows, FFN, **bf)], [0, 1]
        if family == "gelu":
            return [torch.randn(rows, FFN, **bf)], [0]
        if family == "rotary":
            return [torch.randn(rows, ROPE_HEADS, ROPE_DIM, **bf), torch.randn(rows, 1, ROPE_DIM, **bf),
                    torch.randn(rows, 1, ROPE_DIM, **bf)], [0]
        if family == "cross_entropy":
            return [torch.randn(rows, VOCAB, **bf),
                    torch.randint(0, VOCAB, (rows,), device="cuda", dtype=torch.int64)], [0]
        raise ValueError(family)

    def op(self, op, nbytes, compiled):
        torch = self.torch
        per_row, fixed = OP_SPECS[op]
        rows = (nbytes - fixed) // per_row
        if compiled:
            import torch._dynamo                            # not always loaded by `import torch`
            torch._dynamo.reset()                           # a fresh cache: no recompile limit, no dynamic shapes
        if op == "adamw_step":
            p = torch.nn.Parameter(torch.randn(rows, device="cuda", dtype=torch.float32))
            p.grad = torch.randn_like(p)
            if not compiled:
                opt = torch.optim.AdamW([p], lr=1e-6, fused=True)
                return (lambda _: opt.step()), None
            opt = torch.optim.AdamW([p], lr=1e-6)

            def step():
                opt.step()
            compiled_step = torch.compile(step)
            return (lambda _: compiled_step()), None
        family, pass_ = op.rsplit("_", 1)
        f = self._op_function(family)
        if compiled:
            f = torch.compile(f, dynamic=False)
        inputs, grad_idx = self._op_inputs(family, rows, pass_ == "backward")
        if pass_ == "forward":
            def fwd(_):
                with torch.no_grad():
                    return f(*inputs)
            return fwd, None
        for i in grad_idx:
            inputs[i].requires_grad_(True)
        wrt = [inputs[i] for i in grad_idx]
        probe = f(*inputs)
        dy = torch.ones_like(probe) if probe.dim() == 0 else torch.randn_like(probe)
        del probe
        return (lambda y: torch.autograd.grad(y, wrt, dy)), (lambda: f(*inputs))


def measure(plan, args, meta, world, rank, local_rank):
    """Run the plan on this GPU; returns the timing records (None on ranks > 0)."""
    try:
        import torch
    except ImportError:
        raise UserError("PyTorch is not installed here; measuring needs torch with CUDA "
                        "(--dry-run and --from-timings do not)")
    if not torch.cuda.is_available():
        raise UserError("torch sees no CUDA device; measuring needs one (--dry-run and --from-timings do not)")
    torch.cuda.set_device(local_rank)
    lead = rank == 0
    driver, driver_source = driver_version(torch)
    meta.update({
        "gpu": torch.cuda.get_device_name(),
        "host": socket.gethostname(),
        "driver": driver, "driver_source": driver_source,
        "cuda": torch.version.cuda or ("ROCm " + str(getattr(torch.version, "hip", None) or "unknown")),
        "torch": torch.__version__.split("+")[0],
    })
    if lead:
        log("{} on {}: torch {}, CUDA {}, driver {}".format(meta["gpu"], meta["host"], meta["torch"],
                                                           meta["cuda"], driver))
    est = plan["estimator"]
    timer = GpuTimer(torch, est)
    kernels = Kernels(torch)
    records = []
    started = time.monotonic()
    mem_limit = min(plan["mem_limit"], torch.cuda.mem_get_info()[1] * 0.85 - FLUSH_BYTES)

    coll_tables = [t for t in plan["tables"] if t.kind == "collectives"]
    if world > 1:
        if coll_tables:
            import torch.distributed as dist
            dist.init_process_group(backend="nccl")
            try:
                measure_collectives(torch, dist, coll_tables, est, world, lead, records)
                dist.barrier()
            finally:
                dist.destroy_process_group()
        if not lead:
            return None

    tables = [t for t in plan["tables"] if t.kind != "collectives"]
    total = sum(len(t.measured_points()) for t in tables)
    done = 0
    budget = args.time_budget_s
    stopped = False
    fp8_skip = None
    if any(t.kind == "gemm" and t.sub == "fp8" for t in tables):
        fp8_skip = fp8_available(torch)
        if fp8_skip:
            log("warning: fp8 GEMMs skipped: " + fp8_skip)
    for table in tables:
        if table.kind == "gemm" and table.sub == "fp8" and fp8_skip:
            continue
        for point in table.points():
            if stopped:
                break
            if not table.fits(point):
                continue
            done += 1
            elapsed = time.monotonic() - started
            if budget > 0 and elapsed > 1.25 * budget:
                log("warning: {:.0f} s elapsed, past the --time-budget-s {:g} by a quarter: stopping; "
                    "cells not measured are filled from the nearest measured ones".format(elapsed, budget))
                stopped = True
                break
            desc = " ".join("{}={}".format(k, v) for k, v in point.items())
            try:
                rec = measure_point(torch, kernels, timer, table, point, mem_limit)
            except Exception as e:                          # noqa: BLE001: OOM, unsupported shape: skip the cell
                first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
                log("[{}/{}] {} {}: skipped: {}".format(done, total, table.label, desc, first[:200]))
                rec = None
            finally:
                if table.kind.startswith("ops") or table.kind == "attention" or done % 8 == 0:
                    torch.cuda.empty_cache()
            if rec is None:
                continue
            records.append(rec)
            log("[{}/{}] {} {}: {:.4g} ms, {} ({:.0f} s elapsed)".format(
                done, total, table.label, desc, rec["seconds"] * 1e3, describe(rec, plan), time.monotonic() - started))
    return records


def describe(rec, plan):
    """A progress line's figure: the share of peak or bandwidth."""
    est = plan["estimator"]
    s = rec["seconds"]
    t = rec["table"]
    if t == "gemm":
        return "{:.1%} of the {} peak".format(2.0 * rec["m"] * rec["n"] * rec["k"] / (s * est.peaks[rec["precision"]]),
                                              rec["precision"])
    if t.startswith("attention"):
        f = 2.0 if t == "attention_forward" else 5.0
        return "{:.1%} of the bf16 peak".format(
            f * rec["batch"] * rec["heads"] * rec["seq"] ** 2 * rec["head_dim"] / (s * est.peaks["bf16"]))
    if t == "decode_attention":
        return "{:.1%} of HBM".format(decode_kv_bytes(rec["batch"], rec["context"]) / (s * est.bw))
    return "{:.1%} of HBM".format(rec["bytes"] / (s * est.bw))


def measure_point(torch, kernels, timer, table, p, mem_limit):
    kind = table.kind
    if kind == "gemm":
        if gemm_alloc(table.sub, p["m"], p["n"], p["k"]) > mem_limit:
            raise RuntimeError("needs more GPU memory than this GPU has")
        fn, prepare = kernels.gemm(table.sub, p["m"], p["n"], p["k"])
        flush = gemm_alloc(table.sub, p["m"], p["n"], p["k"]) < FLUSH_BYTES
        rec = {"table": "gemm", "precision": table.sub, "m": p["m"], "n": p["n"], "k": p["k"]}
    elif kind == "attention":
        backward = table.sub == "backward"
        fn, prepare = kernels.attention(backward, p["head_dim"], p["seq"])
        flush = attention_alloc(backward, p["head_dim"], p["seq"]) < FLUSH_BYTES
        rec = {"table": "attention_" + table.sub, "head_dim": p["head_dim"], "seq": p["seq"],
               "batch": attention_batch(p["seq"]), "heads": ATTENTION_HEADS}
    elif kind == "decode_attention":
        fn, prepare = kernels.decode(p["batch"], p["context"])
        flush = decode_kv_bytes(p["batch"], p["context"]) < FLUSH_BYTES
        rec = {"table": "decode_attention", "precision": "bf16", "batch": p["batch"], "context": p["context"],
               "kv_heads": DECODE_KV_HEADS, "head_dim": DECODE_HEAD_DIM}
    elif kind == "memory":
        fn, prepare = kernels.memory(p["bytes"])
        flush = p["bytes"] < FLUSH_BYTES
        rec = {"table": "memory", "bytes": p["bytes"]}
    else:
        compiled = kind == "ops_compiled"
        fn, prepare = kernels.op(table.sub, p["bytes"], compiled)
        flush = p["bytes"] < FLUSH_BYTES
        rec = {"table": "op", "op": table.sub, "compiled": compiled, "bytes": p["bytes"]}
    rec["seconds"] = timer.run(fn, flush, prepare)
    del fn, prepare
    return rec


def measure_collectives(torch, dist, tables, est, world, lead, records):
    """Every rank runs the same sequence (counts come from the deterministic
    estimate, never from local timings, so no rank waits on another)."""
    bf = dict(device="cuda", dtype=torch.bfloat16)
    for table in tables:
        op = table.sub
        for p in table.points():
            nbytes = p["bytes"]
            elems = nbytes // 2
            shard = elems // world
            if op == "all_reduce":
                buf = torch.zeros(elems, **bf)
                fn = lambda: dist.all_reduce(buf)                              # noqa: E731
            elif op == "all_gather":
                inp, out = torch.zeros(shard, **bf), torch.zeros(elems, **bf)
                fn = lambda: dist.all_gather_into_tensor(out, inp)             # noqa: E731
            elif op == "reduce_scatter":
                inp, out = torch.zeros(elems, **bf), torch.zeros(shard, **bf)
                fn = lambda: dist.reduce_scatter_tensor(out, inp)              # noqa: E731
            else:
                inp, out = torch.zeros(elems, **bf), torch.zeros(elems, **bf)
                fn = lambda: dist.all_to_all_single(out, inp)                  # noqa: E731
            t_est = est.collective_time(op, world, nbytes)
            reps, warm = est.counts(t_est)
            inner = est.collective_inner(t_est)
            for _ in range(max(warm, 2)):
                fn()
            torch.cuda.synchronize()
            dist.barrier()
            times = []
            for _ in range(reps):
                start = torch.cuda.Event(enable_timing=True)
                end = torch.cuda.Event(enable_timing=True)
                start.record()
                for _ in range(inner):
                    fn()
                end.record()
                end.synchronize()
                times.append(start.elapsed_time(end) * 1e-3 / inner)
            worst = torch.tensor([statistics.median(times)], device="cuda", dtype=torch.float64)
            dist.all_reduce(worst, op=dist.ReduceOp.MAX)
            seconds = float(worst.item())
            if lead:
                rec = {"table": "collective", "op": op, "gpus": world, "bytes": nbytes, "seconds": seconds}
                records.append(rec)
                log("{} {} GPUs {} bytes: {:.4g} us, bus {:.1f} GB/s".format(
                    op, world, nbytes, seconds * 1e6, nbytes / seconds * collective_factor(op, world) / 1e9))
            del fn
        torch.cuda.empty_cache()


# -------------------------------------------------------------------- main

def positive(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("expected a positive number, got {!r}".format(text))
    if not math.isfinite(v) or v <= 0:
        raise argparse.ArgumentTypeError("expected a positive number, got {!r}".format(text))
    return v


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="collect-kernels.py",
        description="Measure kernel efficiencies on this GPU and write a Cluster Studio kernel profile "
                    "(docs/kernel-profiles.md). See the script's docstring for what each table measures.",
        epilog="Example: cluster-studio kernel-shapes design.cluster.json > shapes.json; "
               "python3 tools/collect-kernels.py --catalog resources/catalog.json --part gpu.h100-sxm "
               "--shapes shapes.json --out my-h100.kernels.json")
    p.add_argument("--catalog", default=DEFAULT_CATALOG, help="the parts catalog (default: %(default)s)")
    p.add_argument("--part", help="the catalog GPU part measured, e.g. gpu.h100-sxm (default: the shapes "
                                  "file's gpu_part, or what a timings file recorded)")
    p.add_argument("--shapes", metavar="FILE", help="what `cluster-studio kernel-shapes DESIGN` printed")
    p.add_argument("--out", metavar="FILE", help="the profile to write (default: stdout)")
    p.add_argument("--dry-run", action="store_true", help="print the plan and exit; needs no GPU or torch")
    p.add_argument("--from-timings", metavar="FILE", help="build the profile from recorded timings")
    p.add_argument("--save-timings", metavar="FILE", help="also write the measured timings")
    p.add_argument("--gpu-name", help="the profile's \"gpu\" (default: torch.cuda.get_device_name(), or "
                                      "what the timings file recorded)")
    p.add_argument("--date", help="the profile's date, YYYY-MM-DD (default: today, UTC)")
    p.add_argument("--data-version", help="the profile's data_version (default: torch, CUDA and driver versions)")
    p.add_argument("--peak-bf16-tflops", type=positive, help="dense bf16 peak (default: the part's bf16_tflops)")
    p.add_argument("--peak-fp8-tflops", type=positive, help="dense fp8 peak (default: the part's fp8_tflops)")
    p.add_argument("--hbm-tb-per-s", type=positive, help="HBM bandwidth (default: the part's hbm_tb_per_s)")
    p.add_argument("--scaleup-gb-per-s", type=positive,
                   help="the scale-up link, both directions, GB/s, written with collectives (default: the "
                        "part's scaleup_gb_per_s)")
    p.add_argument("--precisions", help="GEMM precisions to measure, comma-separated: bf16, fp16, fp8, tf32 "
                                        "(default: bf16 and those the shapes ask for; bf16,fp8 without shapes)")
    p.add_argument("--tables", help="tables to measure, comma-separated, of: " + ", ".join(TABLE_KINDS) +
                                    " (default: all but decode_attention)")
    p.add_argument("--decode", action="store_true", help="also measure decode attention")
    p.add_argument("--max-grid", type=int, default=12, metavar="N", help="points per grid axis (default 12)")
    p.add_argument("--reps", type=int, default=20, help="timed repetitions per point (default 20)")
    p.add_argument("--warmup", type=int, default=5, help="warm-up calls per point (default 5)")
    p.add_argument("--time-budget-s", type=float, default=600.0,
                   help="trim the grids so the run takes about this long; 0: no limit (default 600)")
    args = p.parse_args(argv)
    if args.max_grid < 2:
        p.error("--max-grid must be at least 2")
    if args.reps < 1:
        p.error("--reps must be at least 1")
    if args.warmup < 0:
        p.error("--warmup must not be negative")
    if not math.isfinite(args.time_budget_s) or args.time_budget_s < 0:
        p.error("--time-budget-s must be 0 or a positive number of seconds")
    if args.dry_run and args.from_timings:
        p.error("--dry-run and --from-timings do not go together")
    if args.date is not None:
        try:
            datetime.date.fromisoformat(args.date)
            if len(args.date) != 10:
                raise ValueError
        except ValueError:
            p.error("--date must be YYYY-MM-DD, got {!r}".format(args.date))
    return args


def run(args):
    if args.from_timings:
        data = read_json(args.from_timings, "the timings")
        records, meta = parse_timings(data, args.from_timings)
        part_id = args.part or (meta.get("part") if isinstance(meta.get("part"), str) else None)
        if not part_id:
            raise UserError("give --part (a catalog GPU part, e.g. gpu.h100-sxm): the peaks come from it")
        part = load_part(args.catalog, part_id)
        peaks, hbm = resolve_peaks(part, args, meta)
        scaleup = resolve_scaleup(part, args, meta)
        gpu = args.gpu_name or (meta.get("gpu") if isinstance(meta.get("gpu"), str) else None)
        if not gpu:
            raise UserError("give --gpu-name (the device the timings were measured on, as "
                            "torch.cuda.get_device_name() names it)")
        if meta.get("host"):
            source = measured_source(meta)
        else:
            source = "measured with {}; timings read from {}".format(SCRIPT, os.path.basename(args.from_timings))
        data_version = args.data_version or (measured_data_version(meta) if meta.get("torch") else
                                             "torch, CUDA and driver versions not recorded")
        date = args.date or (meta["date"] if isinstance(meta.get("date"), str) else today())
        profile, notes = build_profile(records, args.from_timings, peaks, hbm, [part_id], gpu, source,
                                       data_version, date, scaleup)
        return write_profile(args, profile, notes)

    shapes = load_shapes(args.shapes) if args.shapes else None
    part_id = args.part or (shapes["gpu_part"] if shapes else None)
    if not part_id:
        raise UserError("give --part (a catalog GPU part, e.g. gpu.h100-sxm)")
    part = load_part(args.catalog, part_id)
    if shapes and shapes["gpu_part"] and shapes["gpu_part"] != part_id:
        log("warning: the shapes are for {}, the profile is for {}".format(shapes["gpu_part"], part_id))
    peaks, hbm = resolve_peaks(part, args, {})
    world = int(os.environ.get("WORLD_SIZE", "1") or 1)
    rank = int(os.environ.get("RANK", "0") or 0)
    local_rank = int(os.environ.get("LOCAL_RANK", "0") or 0)
    local_world = int(os.environ.get("LOCAL_WORLD_SIZE", "0") or 0)
    plan = make_plan(args, shapes, part, peaks, hbm, world, local_world)
    if args.dry_run:
        print_plan(plan, args, shapes, part, peaks, hbm, sys.stdout)
        return 0

    scaleup = resolve_scaleup(part, args, {})
    if scaleup is None and any(t.kind == "collectives" for t in plan["tables"]):
        raise missing_scaleup(part_id)
    if rank == 0:
        print_plan(plan, args, shapes, part, peaks, hbm, sys.stderr)
        sys.stderr.flush()
    meta = {"part": part_id, "peaks_tflops": dict(peaks), "hbm_tb_per_s": hbm, "scaleup_gb_per_s": scaleup,
            "date": args.date or today()}
    records = measure(plan, args, meta, world, rank, local_rank)
    if records is None:
        return 0
    if not records:
        raise UserError("nothing was measured")
    if args.save_timings:
        write_text(args.save_timings, dump_timings(timings_document(records, meta)))
        log("wrote the timings to {}".format(args.save_timings))
    checked, _ = parse_timings(timings_document(records, meta), "measured timings")
    kept = []
    for rec in checked:
        _, _, value, what = record_value(rec, peaks, hbm, Reader("measured timings"))
        if implausible(value, what):
            log("warning: dropped {} = {:.3g} (above {:g}: a cache effect, or the part's peak is not this "
                "GPU's): left out of the profile".format(what, value, MAX_EFFICIENCY))
        else:
            kept.append(rec)
    if not kept:
        raise UserError("no measurement gave a plausible efficiency (all above {:g} of the peaks); check "
                        "--part or the --peak-* figures".format(MAX_EFFICIENCY))
    checked = kept
    gpu = args.gpu_name or meta["gpu"]
    try:
        profile, notes = build_profile(checked, "measured timings", peaks, hbm, [part_id], gpu,
                                       measured_source(meta), args.data_version or measured_data_version(meta),
                                       meta["date"], scaleup)
    except UserError:
        if not args.save_timings:
            rescue = (args.out if args.out and args.out != "-" else "collect-kernels") + ".timings.json"
            write_text(rescue, dump_timings(timings_document(records, meta)))
            log("the timings are saved in {}: convert them with --from-timings once fixed".format(rescue))
        raise
    return write_profile(args, profile, notes)


def write_profile(args, profile, notes):
    """Writes the profile to --out (stdout for -), saying what it noticed."""
    for n in notes:
        log("warning: " + n)
    write_text(args.out, dumps(profile) + "\n")
    if args.out and args.out != "-":
        log("wrote {}".format(args.out))
    return 0


def main(argv=None):
    args = parse_args(argv)
    try:
        return run(args)
    except UserError as e:
        print("collect-kernels.py: error: {}".format(e), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
