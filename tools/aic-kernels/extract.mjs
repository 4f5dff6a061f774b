#!/usr/bin/env node
// SPDX-License-Identifier: Apache-2.0
//
// Development-time extractor: NVIDIA AIConfigurator's measured kernel tables
// (Parquet, github.com/ai-dynamo/aiconfigurator, Apache-2.0) -> Cluster Studio
// kernel profiles (docs/kernel-profiles.md, "format": "cluster-studio.kernels").
//
//   node tools/aic-kernels/extract.mjs AIC_REPO_GIT_DIR OUT_DIR [--date YYYY-MM-DD] [--catalog FILE]
//
// AIC_REPO_GIT_DIR is a git directory (bare or not) of the AIConfigurator
// repository; every file is read from its HEAD with `git show HEAD:path`, so
// no work tree is needed. One JSON per GPU is written to OUT_DIR. Nothing in
// the studio reads Parquet at run time.
//
// What the AIConfigurator columns mean (read from AIC's collectors and
// loaders at commit 095f58a5, 2026-08-21; paths relative to the AIC repo):
//
//  * latency is milliseconds in every table: the collectors log
//    benchmark_with_power(...)["latency_ms"] (collector/trtllm/collect_gemm.py,
//    collect_attn.py) and nccl-tests' time column converted "us to ms"
//    (collector/network/collect_nccl.py).
//  * gemm_perf: m = rows of the activation (tokens), n = output features,
//    k = input features (x is [m, k], the weight [n, k]; collect_gemm.py).
//    gemm_dtype bfloat16 | fp8 (per-tensor scale) | fp8_block (1x128 / 128x128
//    block scales) | nvfp4 | int8_wo/int4_wo/sq (weight-only, skipped here).
//  * context_attention_perf: prefill of isl tokens per sequence, step = 0,
//    batch_size sequences; num_heads / num_key_value_heads are the heads ON
//    ONE GPU (the collector runs tp_size = 1; AIC's models query it with
//    num_heads // tp_size, sdk/models/gpt.py). AIC's own SOL counts
//    2*b*s^2*n*h*2/2 FLOPs for the causal case
//    (aic-core/rust/aiconfigurator-core/src/perf_database/attention.rs,
//    context_attention_sol), the same 2*b*heads*s^2*d used below.
//  * generation_attention_perf: one decode step of batch_size sequences,
//    each with input_len tokens already cached; the collector logs
//    isl = 1 and step = input_len (collector/{trtllm,vllm,sglang}/collect_attn.py),
//    and AIC keys the table on kv_seq_tokens = isl + step (attention.rs:
//    "generation attention: (num_heads, kv_seq_tokens, batch_size) where
//    kv_seq_tokens = isl + step"). The steps stored are 2^j - 1, so
//    isl + step = 2^j: the cached tokens plus the new token, i.e. the number
//    of K/V positions the kernel attends over. We use that as "context" and
//    count KV bytes read = batch * context * 2 (K and V) * num_kv_heads *
//    head_dim * bytes_per_element. (AIC's own decode SOL uses s - 1 =
//    isl + step - 1, the cached part only; the difference is one token,
//    1/context: 0.05% at context 2048.)
//  * nccl_perf: message_size is ELEMENTS of the whole nccl-tests buffer:
//    collect_nccl.py runs `<op>_perf -b size -e size -t num_gpus -d half`
//    with size in bytes (nccl-tests' size column: the total buffer, e.g. the
//    gathered output for all_gather) and logs message_size = size //
//    bytes_per_element (2 for half, 1 for int8). AIC's SOL agrees:
//    all_reduce time = 2 * bytes_per_elem * message_size * (n-1)/n / bw
//    (rust operators/communication.rs). So bytes = message_size * 2 for half.
//    latency is nccl-tests' out-of-place time (column 5) in ms. One process
//    with num_gpus threads on one node: the scale-up (NVLink) tier.
//
// Versions: for each table the newest version folder of the preferred
// backend (trtllm, then vllm, then sglang) that either holds the Parquet file
// or names it in reuse.yaml ("table: X, from_version: V": follow to V),
// ordered the way AIC's get_latest_database_version orders them
// (aic-core/src/aiconfigurator_core/sdk/perf_database.py).

import { parquetReadObjects } from 'hyparquet'
import { compressors } from 'hyparquet-compressors'
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const DATA_ROOT = 'aic-core/src/aiconfigurator_core/systems/data'
const SIZE_LIMIT = 250 * 1024
// n/k values kept when a profile would exceed SIZE_LIMIT: powers of two and
// multiples of 1024 (which include 5120, 6144, 7168, 10240, 12288).
const keepThinned = (v) => (v & (v - 1)) === 0 || v % 1024 === 0

const SYSTEMS = [
  { system: 'a100_sxm', parts: ['gpu.a100-sxm-80gb'], file: 'a100-sxm-80gb.json' },
  { system: 'h100_sxm', parts: ['gpu.h100-sxm'], file: 'h100-sxm.json' },
  { system: 'h200_sxm', parts: ['gpu.h200-sxm'], file: 'h200-sxm.json' },
  { system: 'b200_sxm', parts: ['gpu.b200'], file: 'b200.json' },
  { system: 'gb200', parts: ['gpu.gb200'], file: 'gb200.json' },
]
const BACKENDS = ['trtllm', 'vllm', 'sglang']
const FRAMEWORK_NAMES = { trtllm: 'TensorRT-LLM', vllm: 'vLLM', sglang: 'SGLang', nccl: 'NCCL' }
// AIC gemm_dtype -> profile precision key and the catalog peak it is a share
// of. The profile's peaks_tflops names a peak for every GEMM key it holds
// (fp8_block's is the catalog's fp8_tflops), as the studio's reader requires.
// Other gemm_dtypes (weight-only int8_wo/int4_wo, sq, w4a8, ...) are not
// extracted; the format has no key for them.
const GEMM_PRECISIONS = [
  { dtype: 'bfloat16', key: 'bf16', peak: 'bf16' },
  { dtype: 'fp8', key: 'fp8', peak: 'fp8' },
  { dtype: 'fp8_block', key: 'fp8_block', peak: 'fp8' },
  { dtype: 'nvfp4', key: 'fp4', peak: 'fp4' },
]
// A table whose power-of-two-m grid misses more than this share is skipped.
const MAX_MISSING_SHARE = 0.25
const NCCL_OPS = [
  ['all_reduce', 'all_reduce', (n) => (2 * (n - 1)) / n],
  ['all_gather', 'all_gather', (n) => (n - 1) / n],
  ['reduce_scatter', 'reduce_scatter', (n) => (n - 1) / n],
  ['alltoall', 'all_to_all', (n) => (n - 1) / n],
]
const DECODE_TARGET = { heads: 32, kv: 8, head_dim: 128 }

// ---------------------------------------------------------------- arguments
function usage(msg) {
  if (msg) process.stderr.write(`extract.mjs: ${msg}\n`)
  process.stderr.write('usage: node tools/aic-kernels/extract.mjs AIC_REPO_GIT_DIR OUT_DIR [--date YYYY-MM-DD] [--catalog FILE]\n')
  process.exit(2)
}
const argv = process.argv.slice(2)
const positional = []
let dateArg = null
let catalogArg = null
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--date') dateArg = argv[++i]
  else if (argv[i] === '--catalog') catalogArg = argv[++i]
  else if (argv[i].startsWith('--')) usage(`unknown option ${argv[i]}`)
  else positional.push(argv[i])
}
if (positional.length !== 2) usage()
const [gitDir, outDir] = positional
const date = dateArg ?? new Date().toISOString().slice(0, 10)
if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) usage(`bad --date ${date}`)
const here = path.dirname(fileURLToPath(import.meta.url))
const catalogPath = catalogArg ?? path.join(here, '..', '..', 'resources', 'catalog.json')

const log = (s) => process.stderr.write(s + '\n')

// ---------------------------------------------------------------- git access
function git(...args) {
  return execFileSync('git', ['-C', gitDir, ...args], { maxBuffer: 1 << 30 })
}
const commit = git('rev-parse', 'HEAD').toString().trim()
const commitDate = git('show', '-s', '--format=%cI', 'HEAD').toString().trim()
const allFiles = new Set(
  git('ls-tree', '-r', '--name-only', 'HEAD', '--', DATA_ROOT + '/').toString().split('\n').filter(Boolean),
)
const readText = (p) => git('show', `HEAD:${p}`).toString()
async function readParquet(p) {
  const buf = git('show', `HEAD:${p}`)
  const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)
  const rows = await parquetReadObjects({ file, compressors })
  for (const r of rows) for (const k in r) if (typeof r[k] === 'bigint') r[k] = Number(r[k])
  return rows
}

// ---------------------------------------------------------------- versions
// Port of AIC's get_latest_database_version ordering:
// (major, minor, patch, is_stable, rc_num, trailing number).
function versionKey(v) {
  const s = v.toLowerCase()
  const pre = () => {
    const rc = /rc(\d+)/.exec(s)
    if (rc) return [0, +rc[1]]
    return s.includes('rc') ? [0, 0] : [1, 0]
  }
  const suffix = (start) => {
    const m = /(\d+)(?!.*\d)/.exec(s.slice(start))
    return m ? +m[1] : 0
  }
  let m = /(\d+)\.(\d+)\.(\d+)/.exec(s)
  if (m) return [+m[1], +m[2], +m[3], ...pre(), suffix(m.index + m[0].length)]
  m = /v?(\d+)\.(\d+)/.exec(s)
  if (m) return [+m[1], +m[2], 0, ...pre(), suffix(m.index + m[0].length)]
  const nums = (s.match(/\d+/g) || []).slice(0, 3).map(Number)
  while (nums.length < 3) nums.push(0)
  return nums.length ? [...nums, 0, 0, 0] : [0, 0, 0, -1, 0, 0]
}
function cmpVersion(a, b) {
  const ka = versionKey(a), kb = versionKey(b)
  for (let i = 0; i < Math.max(ka.length, kb.length); i++) {
    const d = (ka[i] ?? 0) - (kb[i] ?? 0)
    if (d) return d
  }
  return 0
}
function versionsOf(system, family, backend) {
  const prefix = `${DATA_ROOT}/${system}/${family}/${backend}/`
  const vs = new Set()
  for (const f of allFiles) if (f.startsWith(prefix)) vs.add(f.slice(prefix.length).split('/')[0])
  return [...vs].sort(cmpVersion).reverse()
}
// Minimal reader for reuse.yaml: list of {table, from_version}.
function parseReuse(text) {
  const out = []
  let cur = null
  for (const line of text.split('\n')) {
    let m
    if ((m = /^\s*-\s*table:\s*(\S+)/.exec(line))) out.push((cur = { table: m[1] }))
    else if (cur && (m = /^\s*from_version:\s*['"]?([^'"\s]+)/.exec(line))) cur.from_version = m[1]
  }
  return out
}
function metaStatus(dir, table) {
  const p = `${dir}/collection_meta.yaml`
  if (!allFiles.has(p)) return null
  const t = readText(p)
  const i = t.indexOf(`  ${table}:`)
  if (i < 0) return null
  const m = /status:\s*(\S+)/.exec(t.slice(i))
  return m ? m[1] : null
}
// Resolve the file that serves `table` for (system, family, backend).
function resolveTable(system, family, backend, table) {
  for (const version of versionsOf(system, family, backend)) {
    let v = version
    const chain = []
    for (let hops = 0; hops < 8; hops++) {
      const dir = `${DATA_ROOT}/${system}/${family}/${backend}/${v}`
      const file = `${dir}/${table}.parquet`
      if (allFiles.has(file)) {
        return { backend, version: v, requested: version, chain, file, status: metaStatus(dir, table) }
      }
      const reuse = `${dir}/reuse.yaml`
      if (!allFiles.has(reuse)) break
      const entry = parseReuse(readText(reuse)).find((e) => e.table === table)
      if (!entry || !entry.from_version) break
      chain.push(`${v} -> ${entry.from_version} (reuse.yaml)`)
      v = entry.from_version
    }
  }
  return null
}
// One resolution per backend that has the table, in order of preference.
function candidates(system, family, table, backends = BACKENDS) {
  return backends.map((b) => resolveTable(system, family, b, table)).filter(Boolean)
}
// A share of a dense peak or of the HBM bandwidth above this, at a measured
// point, is physically impossible: the table does not measure what its
// columns say, and the next backend is used instead.
const PLAUSIBLE_MAX = 1.0
const maxOf = (xs) => xs.flat(Infinity).reduce((a, x) => (x !== null && x > a ? x : a), 0)

// ---------------------------------------------------------------- helpers
const sig4 = (x) => Number(x.toPrecision(4))
const asc = (a, b) => a - b
const uniq = (xs) => [...new Set(xs)].sort(asc)
const isPow2 = (v) => Number.isInteger(v) && v > 0 && (v & (v - 1)) === 0
function median(xs) {
  const s = [...xs].sort(asc)
  const n = s.length
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2
}
// Index of the nearest present value (log distance; ties go to the smaller).
function nearestIndex(values, i, present) {
  let best = -1, bestD = Infinity
  for (let j = 0; j < values.length; j++) {
    if (!present(j)) continue
    const d = Math.abs(Math.log(values[j]) - Math.log(values[i]))
    if (d < bestD - 1e-12) { best = j; bestD = d }
  }
  return best
}
// First-wins de-duplication (as AIC's loaders), preferring the plain
// torch_flow kernel source where a row exists under several sources.
function firstWins(rows, keyOf) {
  const rank = (r) => (r.kernel_source === undefined || r.kernel_source === 'torch_flow' ? 0 : 1)
  const sorted = rows.map((r, i) => [r, i]).sort((a, b) => rank(a[0]) - rank(b[0]) || a[1] - b[1])
  const m = new Map()
  for (const [r] of sorted) {
    const k = keyOf(r)
    if (!m.has(k)) m.set(k, r)
  }
  return m
}
const describe = (r) =>
  `${r.backend} ${r.version}${r.chain.length ? ` (AIC's newest ${r.backend} folder, ${r.requested}, declares it in reuse.yaml${r.chain.length > 1 ? `: ${r.chain.join(', ')}` : ''})` : ''}` +
  `${r.status && r.status !== 'complete' ? ` [collection_meta status: ${r.status}]` : ''}: ${r.file}`

// ---------------------------------------------------------------- gemm
function buildGemm(rows, peaks, ctx, thin) {
  const out = {}
  for (const p of GEMM_PRECISIONS) {
    const rs = rows.filter((r) => r.gemm_dtype === p.dtype)
    if (!rs.length) continue
    const peak = peaks[p.peak]
    if (!peak) {
      log(`  ${ctx}: gemm ${p.dtype}: ${rs.length} rows but the catalog part has no ${p.peak}_tflops; skipped`)
      continue
    }
    const byKey = firstWins(rs, (r) => `${r.m},${r.n},${r.k}`)
    const ms = uniq(rs.map((r) => r.m)).filter(isPow2)
    let ns = uniq(rs.map((r) => r.n))
    let ks = uniq(rs.map((r) => r.k))
    if (thin) { ns = ns.filter(keepThinned); ks = ks.filter(keepThinned) }
    const eff = ms.map(() => ns.map(() => ks.map(() => null)))
    let missing = 0
    for (let a = 0; a < ms.length; a++)
      for (let b = 0; b < ns.length; b++)
        for (let c = 0; c < ks.length; c++) {
          const r = byKey.get(`${ms[a]},${ns[b]},${ks[c]}`)
          if (!r || !(r.latency > 0)) { missing++; continue }
          eff[a][b][c] = (2 * ms[a] * ns[b] * ks[c]) / (r.latency * 1e-3 * peak * 1e12)
        }
    const cells = ms.length * ns.length * ks.length
    const maxMeasured = maxOf(eff)
    if (ms.length < 2 || missing > MAX_MISSING_SHARE * cells) {
      log(`  ${ctx}: gemm ${p.dtype}: ${missing} of ${cells} grid cells missing; too sparse, skipped`)
      continue
    }
    // Fill 1: nearest present m (log space), same n and k.
    let filledM = 0, filledNK = 0
    const measured = eff.map((x) => x.map((y) => y.slice()))
    for (let b = 0; b < ns.length; b++)
      for (let c = 0; c < ks.length; c++)
        for (let a = 0; a < ms.length; a++) {
          if (eff[a][b][c] !== null) continue
          const j = nearestIndex(ms, a, (j) => measured[j][b][c] !== null)
          if (j >= 0) { eff[a][b][c] = measured[j][b][c]; filledM++ }
        }
    // Fill 2: an (n, k) pair measured at no m at all: nearest present
    // (n, k) at the same m (sum of log distances; ties to the smaller).
    for (let a = 0; a < ms.length; a++)
      for (let b = 0; b < ns.length; b++)
        for (let c = 0; c < ks.length; c++) {
          if (eff[a][b][c] !== null) continue
          let best = null, bestD = Infinity
          for (let b2 = 0; b2 < ns.length; b2++)
            for (let c2 = 0; c2 < ks.length; c2++) {
              if (measured[a][b2][c2] === null) continue
              const d = Math.abs(Math.log(ns[b2] / ns[b])) + Math.abs(Math.log(ks[c2] / ks[c]))
              if (d < bestD - 1e-12) { bestD = d; best = measured[a][b2][c2] }
            }
          eff[a][b][c] = best
          filledNK++
        }
    if (filledM || filledNK)
      log(`  ${ctx}: gemm ${p.dtype}: filled ${filledM} cell(s) from the nearest m, ${filledNK} from the nearest (n,k) (of ${cells})`)
    out[p.key] = {
      m: ms, n: ns, k: ks,
      efficiency: eff.map((x) => x.map((y) => y.map(sig4))),
    }
    out[p.key]._note = { dtype: p.dtype, peak: p.peak, filledM, filledNK, cells, maxMeasured }
  }
  return out
}

// ---------------------------------------------------------------- activation scale
// computescale_perf: the dynamic per-tensor scale of an fp8 GEMM's 16-bit
// input (TRT-LLM's FP8QDQ path: amax over the m x k activation), which the
// fp8 gemm_perf rows include (collect_gemm.py: the weights carry no
// input_scale). As a memory-bound kernel: 2*m*k bytes read / (latency x HBM).
function buildActivationScale(rows, hbm, ctx) {
  const rs = rows.filter((r) => r.quant_dtype === 'fp8' && r.latency > 0)
  if (!rs.length) return null
  const byKey = firstWins(rs, (r) => `${r.m},${r.k}`)
  const ms = uniq(rs.map((r) => r.m)).filter(isPow2)
  const ks = uniq(rs.map((r) => r.k))
  const eff = ms.map((m) => ks.map((k) => {
    const r = byKey.get(`${m},${k}`)
    return r ? (2 * m * k) / (r.latency * 1e-3 * hbm * 1e12) : null
  }))
  let filled = 0
  const measured = eff.map((x) => x.slice())
  for (let b = 0; b < ks.length; b++)
    for (let a = 0; a < ms.length; a++) {
      if (eff[a][b] !== null) continue
      const j = nearestIndex(ms, a, (j) => measured[j][b] !== null)
      if (j < 0) { log(`  ${ctx}: activation scale: k ${ks[b]} measured at no m; skipped`); return null }
      eff[a][b] = measured[j][b]
      filled++
    }
  return { m: ms, k: ks, hbm_efficiency: eff.map((x) => x.map(sig4)), _note: { filled, cells: ms.length * ks.length, maxMeasured: maxOf(measured) } }
}

// ---------------------------------------------------------------- attention
const isBf16 = (v) => v === 'bfloat16' || v === 'bf16'
const dense = (r) => (r.window_size ?? 0) === 0 && (r.beam_width ?? 1) === 1

function buildAttentionForward(rows, peakBf16, ctx) {
  const rs = rows.filter((r) => isBf16(r.attn_dtype) && isBf16(r.kv_cache_dtype) && dense(r) && (r.step ?? 0) === 0 && r.latency > 0)
  if (!rs.length) return null
  const uniqRows = [...firstWins(rs, (r) => [r.batch_size, r.isl, r.num_heads, r.num_key_value_heads, r.head_dim].join(',')).values()]
  const hds = uniq(uniqRows.map((r) => r.head_dim))
  const seqs = uniq(uniqRows.map((r) => r.isl))
  const groups = new Map()
  for (const r of uniqRows) {
    const k = `${r.head_dim},${r.isl}`
    if (!groups.has(k)) groups.set(k, [])
    groups.get(k).push(r)
  }
  const eff = hds.map((d) =>
    seqs.map((s) => {
      const g = groups.get(`${d},${s}`)
      if (!g) return null
      let use = g.filter((r) => r.batch_size * r.num_heads >= 64)
      if (!use.length) {
        const mx = Math.max(...g.map((r) => r.batch_size * r.num_heads))
        use = g.filter((r) => r.batch_size * r.num_heads === mx)
      }
      return median(use.map((r) => (2 * r.batch_size * r.num_heads * s * s * d) / (r.latency * 1e-3 * peakBf16 * 1e12)))
    }),
  )
  const maxMeasured = maxOf(eff)
  let filled = 0
  for (let a = 0; a < hds.length; a++) {
    const measured = eff[a].slice()
    for (let b = 0; b < seqs.length; b++) {
      if (eff[a][b] !== null) continue
      const j = nearestIndex(seqs, b, (j) => measured[j] !== null)
      eff[a][b] = measured[j]
      filled++
    }
  }
  if (filled) log(`  ${ctx}: attention forward: filled ${filled} (head_dim, seq) cell(s) from the nearest seq`)
  return { head_dim: hds, seq: seqs, efficiency: eff.map((x) => x.map(sig4)), _note: { rows: uniqRows.length, filled, maxMeasured } }
}

function buildDecode(rows, hbmTBps, ctx) {
  const out = {}
  const notes = {}
  for (const [dtype, key, bpe] of [['bfloat16', 'bf16', 2], ['fp8', 'fp8', 1]]) {
    const rs = rows.filter((r) => r.kv_cache_dtype === dtype && dense(r) && r.latency > 0)
    if (!rs.length) continue
    // Configuration closest to Llama-like GQA 32 / 8 / 128.
    const cfgs = new Map()
    for (const r of rs) {
      const k = `${r.num_heads},${r.num_key_value_heads},${r.head_dim}`
      cfgs.set(k, (cfgs.get(k) || 0) + 1)
    }
    const L = (x, y) => Math.abs(Math.log2(x / y))
    let best = null
    for (const [k, count] of cfgs) {
      const [h, kv, d] = k.split(',').map(Number)
      const score = 4 * L(d, DECODE_TARGET.head_dim) + L(h, DECODE_TARGET.heads) + L(kv, DECODE_TARGET.kv)
      if (!best || score < best.score - 1e-12 || (Math.abs(score - best.score) < 1e-12 && count > best.count))
        best = { h, kv, d, score, count }
    }
    const sel = rs.filter((r) => r.num_heads === best.h && r.num_key_value_heads === best.kv && r.head_dim === best.d)
    const byKey = firstWins(sel, (r) => `${r.batch_size},${r.isl + r.step}`)
    const batches = uniq(sel.map((r) => r.batch_size))
    const contexts = uniq(sel.map((r) => r.isl + r.step))
    const eff = batches.map((b) =>
      contexts.map((c) => {
        const r = byKey.get(`${b},${c}`)
        if (!r) return null
        const bytes = b * c * 2 * best.kv * best.d * bpe
        return bytes / (r.latency * 1e-3 * hbmTBps * 1e12)
      }),
    )
    const cells = batches.length * contexts.length
    const maxMeasured = maxOf(eff)
    let filledB = 0, filledC = 0
    const measured = eff.map((x) => x.slice())
    for (let c = 0; c < contexts.length; c++)
      for (let b = 0; b < batches.length; b++) {
        if (eff[b][c] !== null) continue
        const j = nearestIndex(batches, b, (j) => measured[j][c] !== null)
        if (j >= 0) { eff[b][c] = measured[j][c]; filledB++ }
      }
    for (let b = 0; b < batches.length; b++) {
      const row = eff[b].slice()
      for (let c = 0; c < contexts.length; c++) {
        if (eff[b][c] !== null) continue
        eff[b][c] = row[nearestIndex(contexts, c, (j) => row[j] !== null)]
        filledC++
      }
    }
    if (filledB || filledC)
      log(`  ${ctx}: decode ${dtype}: ${best.h}/${best.kv}/${best.d}: filled ${filledB} cell(s) from the nearest batch, ${filledC} from the nearest context (of ${cells})`)
    out[key] = { batch: batches, context: contexts, hbm_efficiency: eff.map((x) => x.map(sig4)) }
    notes[key] = { heads: best.h, kv: best.kv, head_dim: best.d, filled: filledB + filledC, cells, maxMeasured }
  }
  return { decode: out, notes }
}

// ---------------------------------------------------------------- collectives
function buildCollectives(rows, ctx) {
  const out = {}
  const rs = rows.filter((r) => r.nccl_dtype === 'half' && r.latency > 0)
  for (const [aicOp, key, factor] of NCCL_OPS) {
    const op = rs.filter((r) => r.op_name === aicOp)
    if (!op.length) { log(`  ${ctx}: nccl ${aicOp}: no half rows`); continue }
    const byKey = firstWins(op, (r) => `${r.num_gpus},${r.message_size}`)
    const gpus = uniq(op.map((r) => r.num_gpus))
    let sizes = uniq(op.map((r) => r.message_size))
    const all = sizes.length
    sizes = sizes.filter((s) => gpus.every((g) => byKey.has(`${g},${s}`)))
    if (sizes.length < all) log(`  ${ctx}: nccl ${aicOp}: kept ${sizes.length} of ${all} message sizes (common to every gpu count)`)
    out[key] = {
      gpus,
      bytes: sizes.map((s) => s * 2),
      bus_gb_per_s: gpus.map((g) =>
        sizes.map((s) => {
          const bytes = s * 2
          const algbw = bytes / (byKey.get(`${g},${s}`).latency * 1e-3)
          return sig4((algbw * factor(g)) / 1e9)
        }),
      ),
    }
  }
  return out
}

// custom_allreduce_perf: the all-reduce a serving engine runs for tensor
// parallelism inside a node (TensorRT-LLM's AllReduce op with its AUTO
// strategy, vLLM's and SGLang's custom kernels), timed under CUDA graphs
// (collector/network/slurm/collect_allreduce.py: message_size is the bf16
// elements of the input). vLLM's table holds eager rows too; the graph ones
// are what its decode runs.
function buildEngineAllReduce(rows, ctx) {
  const rs = rows.filter((r) => r.latency > 0 && (r.allreduce_dtype ?? 'bfloat16') === 'bfloat16' &&
    !String(r.kernel_source ?? '').endsWith('_eager'))
  if (!rs.length) return null
  const byKey = firstWins(rs, (r) => `${r.num_gpus},${r.message_size}`)
  const gpus = uniq(rs.map((r) => r.num_gpus))
  let sizes = uniq(rs.map((r) => r.message_size))
  const all = sizes.length
  sizes = sizes.filter((s) => gpus.every((g) => byKey.has(`${g},${s}`)))
  if (sizes.length < all) log(`  ${ctx}: engine all_reduce: kept ${sizes.length} of ${all} message sizes (common to every gpu count)`)
  if (!sizes.length) return null
  return {
    gpus,
    bytes: sizes.map((s) => s * 2),
    bus_gb_per_s: gpus.map((g) => sizes.map((s) => sig4((((s * 2) / (byKey.get(`${g},${s}`).latency * 1e-3)) * (2 * (g - 1)) / g) / 1e9))),
  }
}

// ---------------------------------------------------------------- output
function checkProfile(p, file) {
  const errs = []
  const ascending = (xs, what) => {
    if (!Array.isArray(xs) || !xs.length) errs.push(`${what}: empty`)
    for (let i = 0; i < xs.length; i++) {
      if (!(Number.isFinite(xs[i]) && xs[i] > 0)) errs.push(`${what}[${i}] not positive`)
      if (i && !(xs[i] > xs[i - 1])) errs.push(`${what} not strictly ascending at ${i}`)
    }
  }
  const values = (v, what, lo, hi, dims) => {
    const walk = (x, d, pathStr) => {
      if (d === dims.length) {
        if (!(Number.isFinite(x) && x > lo && x <= hi)) errs.push(`${what}${pathStr} = ${x} outside (${lo}, ${hi}]`)
        return
      }
      if (!Array.isArray(x) || x.length !== dims[d]) { errs.push(`${what}${pathStr}: wrong length`); return }
      x.forEach((y, i) => walk(y, d + 1, `${pathStr}[${i}]`))
    }
    walk(v, 0, '')
  }
  for (const [k, g] of Object.entries(p.gemm || {})) {
    if (!(p.peaks_tflops[k] > 0)) errs.push(`gemm.${k}: no peaks_tflops.${k}`)
    ascending(g.m, `gemm.${k}.m`); ascending(g.n, `gemm.${k}.n`); ascending(g.k, `gemm.${k}.k`)
    values(g.efficiency, `gemm.${k}.efficiency`, 0, 1.5, [g.m.length, g.n.length, g.k.length])
  }
  for (const [k, g] of Object.entries(p.activation_scale || {})) {
    if (!p.gemm?.[k]) errs.push(`activation_scale.${k}: no gemm.${k}`)
    ascending(g.m, `activation_scale.${k}.m`); ascending(g.k, `activation_scale.${k}.k`)
    values(g.hbm_efficiency, `activation_scale.${k}.hbm_efficiency`, 0, 1.5, [g.m.length, g.k.length])
  }
  if (p.attention?.forward) {
    const a = p.attention.forward
    ascending(a.head_dim, 'attention.forward.head_dim'); ascending(a.seq, 'attention.forward.seq')
    values(a.efficiency, 'attention.forward.efficiency', 0, 1.5, [a.head_dim.length, a.seq.length])
  }
  for (const [k, d] of Object.entries(p.decode_attention || {})) {
    ascending(d.batch, `decode_attention.${k}.batch`); ascending(d.context, `decode_attention.${k}.context`)
    values(d.hbm_efficiency, `decode_attention.${k}.hbm_efficiency`, 0, 1.5, [d.batch.length, d.context.length])
  }
  for (const [k, c] of Object.entries(p.collectives || {})) {
    ascending(c.gpus, `collectives.${k}.gpus`); ascending(c.bytes, `collectives.${k}.bytes`)
    values(c.bus_gb_per_s, `collectives.${k}.bus_gb_per_s`, 0, Infinity, [c.gpus.length, c.bytes.length])
  }
  if (errs.length) {
    for (const e of errs.slice(0, 20)) log(`  ${file}: ${e}`)
    throw new Error(`${file}: ${errs.length} format error(s)`)
  }
}

// Objects one key a line; an array of numbers on one line; a 2-D array one
// row a line; a 3-D array (GEMM [m][n][k]) one m-slab, [n][k], a line.
const depth = (v) => (Array.isArray(v) ? 1 + Math.max(0, ...v.map(depth)) : 0)
function serialize(v, indent = '') {
  const inner = indent + '  '
  if (Array.isArray(v)) {
    const d = depth(v)
    if (d <= 1 && !v.some((x) => x && typeof x === 'object')) return JSON.stringify(v)
    if (d === 3) return '[\n' + v.map((x) => inner + JSON.stringify(x)).join(',\n') + '\n' + indent + ']'
    return '[\n' + v.map((x) => inner + serialize(x, inner)).join(',\n') + '\n' + indent + ']'
  }
  if (v && typeof v === 'object') {
    const ks = Object.keys(v)
    if (!ks.length) return '{}'
    return '{\n' + ks.map((k) => `${inner}${JSON.stringify(k)}: ${serialize(v[k], inner)}`).join(',\n') + '\n' + indent + '}'
  }
  return JSON.stringify(v)
}
function stripNotes(v) {
  if (Array.isArray(v)) return v.map(stripNotes)
  if (v && typeof v === 'object') {
    const o = {}
    for (const [k, x] of Object.entries(v)) if (k !== '_note') o[k] = stripNotes(x)
    return o
  }
  return v
}

// ---------------------------------------------------------------- main
const catalog = JSON.parse(fs.readFileSync(catalogPath, 'utf8'))
const partById = new Map(catalog.parts.map((p) => [p.id, p]))
fs.mkdirSync(outDir, { recursive: true })
log(`AIConfigurator ${commit} (${commitDate})`)

const fig = (part, k) => part.figures?.[k]?.value

for (const sys of SYSTEMS) {
  const part = partById.get(sys.parts[0])
  if (!part || part.kind !== 'accelerator') throw new Error(`catalog has no accelerator ${sys.parts[0]}`)
  const peaks = {}
  for (const [k, f] of [['bf16', 'bf16_tflops'], ['fp8', 'fp8_tflops'], ['fp4', 'fp4_tflops']]) {
    const v = fig(part, f)
    if (v) peaks[k] = v
  }
  const hbm = fig(part, 'hbm_tb_per_s')
  // Collectives are read as a share of the link they were measured on.
  const scaleup = fig(part, 'scaleup_gb_per_s')
  const ctx = sys.system
  log(`${ctx} -> ${sys.file}`)
  const srcLines = []
  const versionBits = new Map() // framework version -> tables
  const noteVersion = (r, what, rows) => {
    const fw = FRAMEWORK_NAMES[r.backend] ?? r.backend
    const fileVersions = [...new Set(rows.map((x) => x.version).filter(Boolean))]
    let label = `${fw} ${r.version}`
    if (fileVersions.length && !(fileVersions.length === 1 && fileVersions[0] === r.version))
      label += ` (rows say ${fileVersions.join(', ')})`
    if (!versionBits.has(label)) versionBits.set(label, [])
    versionBits.get(label).push(what)
  }
  const devices = new Set()

  const rejected = []
  const implausible = (what, r, max) => {
    log(`  ${ctx}: ${what} from ${r.backend} ${r.version}: a measured point reaches ${max.toPrecision(4)} of the catalog peak or HBM bandwidth (> ${PLAUSIBLE_MAX}); not used`)
    rejected.push(`${what}: ${r.backend} ${r.version} (${r.file}) not used, a measured point reaches ${max.toPrecision(3)} of the catalog peak or HBM bandwidth`)
  }

  // GEMM
  let gemm = {}
  let gemmRows = null
  let gemmPlausible = false
  for (const gr of candidates(sys.system, 'gemm', 'gemm_perf')) {
    const rows = await readParquet(gr.file)
    const g = buildGemm(rows, peaks, ctx, false)
    const max = Math.max(0, ...Object.values(g).map((x) => x._note.maxMeasured))
    if (max > PLAUSIBLE_MAX) { implausible('GEMM', gr, max); continue }
    gemm = g
    gemmRows = rows
    rows.forEach((r) => devices.add(r.device))
    srcLines.push({ gemm: `GEMM from ${describe(gr)}`, resolved: gr })
    noteVersion(gr, 'GEMM', rows)
    gemmPlausible = true
    break
  }
  if (!gemmPlausible) log(`  ${ctx}: no usable gemm_perf table`)

  // The fp8 GEMM table's dynamic activation scale, from the same framework
  // version as the GEMMs (it is what those rows include).
  let activationScale = null
  const gemmSource = srcLines.find((l) => typeof l !== 'string')
  if (gemm.fp8 && gemmSource) {
    const gr = gemmSource.resolved
    const file = `${DATA_ROOT}/${sys.system}/quantize/${gr.backend}/${gr.version}/computescale_perf.parquet`
    if (allFiles.has(file)) {
      const rows = await readParquet(file)
      activationScale = buildActivationScale(rows, hbm, ctx)
      if (activationScale && activationScale._note.maxMeasured > PLAUSIBLE_MAX) {
        log(`  ${ctx}: ${file}: implausible; not used`)
        activationScale = null
      }
      if (activationScale) {
        srcLines.push(
          `activation_scale.fp8 from ${gr.backend} ${gr.version}: ${file} (compute_scale, the dynamic per-tensor scale the fp8 GEMM rows include): ` +
            `2*m*k bytes / (latency x hbm_tb_per_s); m = the powers of two in the table; ${activationScale._note.filled} of ${activationScale._note.cells} cells filled from the nearest m`,
        )
        noteVersion(gr, 'activation scale', rows)
      }
    } else log(`  ${ctx}: no ${file}`)
  }

  // Attention (prefill)
  let forward = null
  for (const cr of candidates(sys.system, 'attention', 'context_attention_perf')) {
    const rows = await readParquet(cr.file)
    const f = buildAttentionForward(rows, peaks.bf16, ctx)
    if (!f) { log(`  ${ctx}: ${cr.file}: no dense bf16 rows`); continue }
    if (f._note.maxMeasured > PLAUSIBLE_MAX) { implausible('attention forward', cr, f._note.maxMeasured); continue }
    forward = f
    rows.forEach((r) => devices.add(r.device))
    srcLines.push(
      `attention.forward from ${describe(cr)}: attn_dtype and kv_cache_dtype bfloat16, window_size 0, beam_width 1; ` +
        `per (head_dim, isl) the median of 2*batch*num_heads*isl^2*head_dim / (latency x bf16 peak) over the rows with batch_size*num_heads >= 64 ` +
        `(all num_heads / num_key_value_heads configurations; where none, the rows with the largest batch_size*num_heads); ` +
        `${f._note.filled} of ${f.head_dim.length * f.seq.length} (head_dim, seq) cells filled from the nearest seq`,
    )
    noteVersion(cr, 'attention', rows)
    break
  }
  if (!forward) log(`  ${ctx}: no usable context_attention_perf table`)

  // Attention (decode)
  let decode = {}
  for (const dr of candidates(sys.system, 'attention', 'generation_attention_perf')) {
    const rows = await readParquet(dr.file)
    const { decode: d, notes } = buildDecode(rows, hbm, ctx)
    if (!Object.keys(d).length) { log(`  ${ctx}: ${dr.file}: no dense rows`); continue }
    const max = Math.max(...Object.values(notes).map((n) => n.maxMeasured))
    if (max > PLAUSIBLE_MAX) { implausible('decode attention', dr, max); continue }
    decode = d
    rows.forEach((r) => devices.add(r.device))
    const cfg = Object.entries(notes)
      .map(([k, n]) => `${k} KV: num_heads ${n.heads}, num_key_value_heads ${n.kv}, head_dim ${n.head_dim}`)
      .join('; ')
    srcLines.push(
      `decode_attention from ${describe(dr)}: window_size 0, the configuration nearest Llama-like 32/8/128 (${cfg}); ` +
        `context = isl + step (the cached tokens plus the new one, AIC's kv_seq_tokens); ` +
        `KV bytes read = batch * context * 2 * num_key_value_heads * head_dim * (2 bf16, 1 fp8), over latency x hbm_tb_per_s; ` +
        `cells filled from the nearest batch (or context): ${Object.entries(notes).map(([k, n]) => `${k} ${n.filled} of ${n.cells}`).join(', ')}`,
    )
    noteVersion(dr, 'decode attention', rows)
    break
  }
  if (!Object.keys(decode).length) log(`  ${ctx}: no usable generation_attention_perf table`)

  // Collectives
  let collectives = {}
  const nr = resolveTable(sys.system, 'comm', 'nccl', 'nccl_perf')
  if (nr) {
    const rows = await readParquet(nr.file)
    collectives = buildCollectives(rows, ctx)
    const g = [...new Set(rows.map((r) => r.num_gpus))].sort(asc)
    srcLines.push(
      `collectives from ${describe(nr)} (nccl-tests, one node, nccl_dtype half, num_gpus ${g.join('/')}): ` +
        `bytes = message_size (elements of the whole nccl-tests buffer) x 2; busbw = bytes / latency x 2(n-1)/n (all_reduce) or (n-1)/n (all_gather, reduce_scatter, alltoall -> all_to_all)`,
    )
    noteVersion(nr, 'collectives', rows)
  } else log(`  ${ctx}: no nccl_perf table`)

  // The engines' own all-reduce (serving's TP), TensorRT-LLM's first.
  if (Object.keys(collectives).length) {
    let engine = null
    for (const er of candidates(sys.system, 'comm', 'custom_allreduce_perf')) {
      const rows = await readParquet(er.file)
      engine = buildEngineAllReduce(rows, ctx)
      if (!engine) continue
      collectives.engine_all_reduce = engine
      srcLines.push(
        `collectives.engine_all_reduce from ${describe(er)} (the serving engine's own all-reduce for TP in a node, under CUDA graphs; ` +
          `gpus ${engine.gpus.join('/')}): bytes = message_size (bf16 elements) x 2; busbw = bytes / latency x 2(n-1)/n`,
      )
      noteVersion(er, 'engine all-reduce', rows)
      break
    }
    if (!engine) log(`  ${ctx}: no custom_allreduce_perf table`)
  }

  const gpuName = gemmRows?.[0]?.device ?? [...devices][0]
  if (devices.size > 1) log(`  ${ctx}: device names differ between tables: ${[...devices].join(' | ')}`)

  const make = (gemmObj, thinned) => {
    const source =
      `NVIDIA AIConfigurator (github.com/ai-dynamo/aiconfigurator) commit ${commit} (${commitDate}), ` +
      `system ${sys.system}, files under ${DATA_ROOT}/. ` +
      srcLines
        .map((l) =>
          typeof l === 'string'
            ? l
            : `${l.gemm} (grid cells filled, not measured: ${Object.entries(gemmObj)
                .map(([k, x]) => `${k} ${x._note.filledM + x._note.filledNK} of ${x._note.cells}`)
                .join(', ')})`,
        )
        .join('. ') +
      (rejected.length ? `. Passed over as physically impossible: ${rejected.join('; ')}` : '') +
      `. GEMM efficiency = 2*m*n*k / (latency x peak), peak the catalog dense peak of the precision (fp8_block vs fp8, nvfp4 as "fp4" vs fp4); ` +
      `m = the powers of two in the table; missing cells filled from the nearest measured m (log space), an (n,k) pair measured at no m from the nearest measured (n,k)` +
      (thinned ? `; n and k thinned to powers of two and multiples of 1024 to keep the file small` : '') +
      `. Values rounded to 4 significant digits. Extracted by tools/aic-kernels/extract.mjs.`
    const profile = {
      format: 'cluster-studio.kernels',
      format_version: 1,
      gpu: gpuName,
      parts: sys.parts,
      source,
      data_version: [...versionBits].map(([label, what]) => `${label} (${what.join(', ')})`).join('; '),
      license:
        'Apache-2.0. Derived from NVIDIA AIConfigurator (Copyright NVIDIA CORPORATION & AFFILIATES), measured kernel tables converted to shares of peak; see github.com/ai-dynamo/aiconfigurator LICENSE',
      date,
      // bf16 always (attention is a share of it), then one peak per GEMM key.
      peaks_tflops: Object.fromEntries([
        ['bf16', peaks.bf16],
        ...GEMM_PRECISIONS.filter((g) => gemmObj[g.key] && g.key !== 'bf16').map((g) => [g.key, peaks[g.peak]]),
      ]),
      hbm_tb_per_s: hbm,
    }
    if (Object.keys(gemmObj).length) profile.gemm = gemmObj
    if (activationScale) profile.activation_scale = { fp8: activationScale }
    if (forward) profile.attention = { forward }
    if (Object.keys(decode).length) profile.decode_attention = decode
    if (Object.keys(collectives).length) {
      profile.scaleup_gb_per_s = scaleup
      profile.collectives = collectives
    }
    return stripNotes(profile)
  }

  let profile = make(gemm, false)
  let text = serialize(profile) + '\n'
  if (text.length > SIZE_LIMIT && gemmRows) {
    log(`  ${ctx}: ${text.length} bytes > ${SIZE_LIMIT}: thinning GEMM n/k to powers of two and multiples of 1024`)
    gemm = buildGemm(gemmRows, peaks, ctx, true)
    profile = make(gemm, true)
    text = serialize(profile) + '\n'
  }
  checkProfile(profile, sys.file)
  JSON.parse(text)
  fs.writeFileSync(path.join(outDir, sys.file), text)
  log(`  wrote ${path.join(outDir, sys.file)} (${text.length} bytes)`)
}
