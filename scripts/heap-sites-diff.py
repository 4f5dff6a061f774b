#!/usr/bin/env python3
"""What grew between two counts of the heap by call stack (heap_sites).

    heap-sites-diff.py EARLIER LATER [--top N] [--executable PATH]

EARLIER and LATER are files soak_session wrote at two samples of one run
(SOAK_HEAP_SITES; docs/reliability.md). Prints the change in live bytes and
blocks, grouped by the first frame in the studio's own executable (a
Qt-internal stack by its first frames past the allocator), then the largest
single stacks in full. Frames in the executable are named by addr2line,
the rest by their exported symbol (c++filt): both come with binutils. A
run started by a relative path names the executable as started: run this
from the same folder, or give --executable.
"""
import os
import argparse
import collections
import subprocess
import sys


def load(path):
    sites, current = {}, None
    with open(path) as f:
        header = f.readline().split()
        if len(header) < 2 or header[0] != "total":
            sys.exit(f"{path}: not a heap_sites count (its first line is not 'total ...')")
        for line in f:
            if line.startswith("site "):
                _, key, size, count = line.split()
                current = sites[key] = [int(size), int(count), []]
            elif line.startswith("  ") and current is not None:
                current[2].append(line.strip())
    return int(header[1]), sites


def module_offset(frame):
    where = frame.split()[0]
    module, _, offset = where.rpartition("+0x")
    return module, offset


def is_executable(module):
    return module and ".so" not in module.rsplit("/", 1)[-1]


class Names:
    """Frame text to a readable name, asking addr2line once per module."""

    def __init__(self, frames, executable=None):
        self.names = {}
        wanted = collections.defaultdict(set)
        for frame in frames:
            module, offset = module_offset(frame)
            if is_executable(module):
                wanted[module].add(offset)
        for module, offsets in wanted.items():
            offsets = sorted(offsets)
            path = executable or module
            if not os.path.exists(path):
                print(f"warning: {path} not found: its frames stay unnamed (--executable)", file=sys.stderr)
                continue
            out = subprocess.run(["addr2line", "-f", "-C", "-e", path] + ["0x" + o for o in offsets],
                                 capture_output=True, text=True).stdout.splitlines()
            for i, offset in enumerate(offsets):
                if 2 * i < len(out):
                    self.names[(module, offset)] = out[2 * i]
        symbols = sorted({f.split(maxsplit=1)[1] for f in frames if len(f.split(maxsplit=1)) > 1})
        plain = subprocess.run(["c++filt"], input="\n".join(symbols), capture_output=True, text=True).stdout
        self.symbols = dict(zip(symbols, plain.splitlines()))

    def __call__(self, frame):
        module, offset = module_offset(frame)
        if (module, offset) in self.names:
            return self.names[(module, offset)]
        parts = frame.split(maxsplit=1)
        symbol = self.symbols.get(parts[1], parts[1]) if len(parts) > 1 else "?"
        return f"{symbol} ({module.rsplit('/', 1)[-1]})"


def group_of(frames):
    for frame in frames:
        if is_executable(module_offset(frame)[0]):
            return (frame,)
    return tuple(frames[2:5])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("earlier")
    parser.add_argument("later")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--executable", help="the executable the run was of, if not where its frames say")
    args = parser.parse_args()
    total_a, a = load(args.earlier)
    total_b, b = load(args.later)
    frames = {key: v[2] for s in (a, b) for key, v in s.items() if v[2]}
    changes = []
    for key in set(a) | set(b):
        size_a, count_a, _ = a.get(key, (0, 0, []))
        size_b, count_b, _ = b.get(key, (0, 0, []))
        changes.append((size_b - size_a, count_b - count_a, key))
    changes.sort(reverse=True)
    groups, counts = collections.Counter(), collections.Counter()
    for size, count, key in changes:
        g = group_of(frames.get(key, []))
        groups[g] += size
        counts[g] += count
    name = Names({f for fs in frames.values() for f in fs}, args.executable)

    print(f"# heap by call stack: {args.earlier} -> {args.later}\n")
    print(f"live bytes {total_a / 1e6:.2f} MB -> {total_b / 1e6:.2f} MB ({(total_b - total_a) / 1e6:+.2f} MB)\n")
    print("| change MB | blocks | where |\n|---:|---:|---|")
    for g, size in groups.most_common(args.top):
        print(f"| {size / 1e6:+.3f} | {counts[g]:+d} | {' < '.join(name(f) for f in g) or '?'} |")
    print("\n## the largest single stacks\n")
    for size, count, key in changes[: min(args.top, 10)]:
        print(f"{size / 1e6:+.3f} MB, {count:+d} blocks:")
        for frame in frames.get(key, []):
            print(f"    {name(frame)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
