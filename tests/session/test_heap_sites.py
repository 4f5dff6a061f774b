#!/usr/bin/env python3
"""heap_sites and its diff, on a short soak_session.

The preload must see nearly all of the heap glibc counts as in use at each
sample at rest (else a growth could hide outside it), never more than glibc
(whose count includes each block's header and rounding), and the diff of
the first and last counts must name the studio's own functions.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--soak", required=True)
    parser.add_argument("--preload", required=True)
    parser.add_argument("--repo", required=True)
    args = parser.parse_args()
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, LD_PRELOAD=args.preload, SOAK_HEAP_SITES=folder, QT_QPA_PLATFORM="offscreen")
        run = subprocess.run([args.soak, "--seconds", "15", "--seed", "7"], env=env, capture_output=True, text=True)
        if run.returncode != 0:
            print(run.stderr[-3000:])
            return f"soak_session under the preload exited {run.returncode}"
        samples = re.findall(r"^(\d+) s: .* at rest (\d+) MB", run.stderr, re.M)
        if len(samples) < 2:
            return f"expected at least 2 samples, soak_session printed {len(samples)}:\n{run.stderr[-2000:]}"
        files = []
        for seconds, rest_mb in samples:
            path = os.path.join(folder, f"sites-{seconds}.txt")
            if not os.path.exists(path):
                failures.append(f"no count written for the sample at {seconds} s")
                continue
            files.append(path)
            with open(path) as f:
                counted_mb = int(f.readline().split()[1]) / (1024 * 1024)
            # glibc's figure is rounded to a MB in the line.
            ratio = counted_mb / (int(rest_mb) + 0.5)
            print(f"{seconds} s: glibc {rest_mb} MB at rest, counted by call stack {counted_mb:.1f} MB")
            if not 0.75 <= ratio <= 1.02:
                failures.append(f"at {seconds} s the count by call stack ({counted_mb:.1f} MB) is not within "
                                f"75-102% of glibc's heap at rest ({rest_mb} MB)")
        if len(files) >= 2:
            diff = subprocess.run([sys.executable, os.path.join(args.repo, "scripts/heap-sites-diff.py"), files[0],
                                   files[-1], "--top", "15"], capture_output=True, text=True)
            print(diff.stdout[:3000])
            if diff.returncode != 0:
                failures.append(f"heap-sites-diff.py exited {diff.returncode}: {diff.stderr}")
            elif "| change MB | blocks | where |" not in diff.stdout or "studio::" not in diff.stdout:
                failures.append("the diff has no table naming the studio's functions")
    return "\n".join(failures) or 0


if __name__ == "__main__":
    sys.exit(main())
