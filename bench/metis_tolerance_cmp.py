#!/usr/bin/env python3
"""The METIS partitions that differ between two builds of placement-cli, over the example and the
built-in graphs at k = 2, 3, 4, 8, 16 and 32 (seed 1, default tolerance 1.03): imbalance, edge cut
and wall time, before and after. docs/performance.md, "METIS over its tolerance with every part
used".

  python3 bench/metis_tolerance_cmp.py OLD_CLI [NEW_CLI]
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAPHS = [
    ("example", None),
    ("layered-random", []),
    ("rnnlm", []),
    ("rnnlm layers=8", ["--set", "layers=8", "--set", "steps=30"]),
    ("gnmt", []),
    ("moe", []),
    ("inception-v3", []),
    ("resnet-50", []),
    ("vgg-16", []),
    ("transformer", []),
]


def partition(cli, graph, k, out):
    r = subprocess.run([cli, "partition", graph, "--k", str(k), "--model", "metis", "--out", out],
                       capture_output=True, text=True)
    return json.loads(r.stdout.splitlines()[-1]) if r.returncode == 0 else None


def main():
    old = sys.argv[1]
    new = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "build/app/cli/placement-cli")
    changed = total = 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "p.json")
        for name, settings in GRAPHS:
            if settings is None:
                path = os.path.join(ROOT, "resources/examples/inception_block.graph.json")
            else:
                path = os.path.join(tmp, name.replace(" ", "_").replace("=", "") + ".graph.json")
                subprocess.run([new, "generate", name.split()[0], *settings, "--out", path], check=True,
                               capture_output=True)
            for k in (2, 3, 4, 8, 16, 32):
                a, b = partition(old, path, k, out), partition(new, path, k, out)
                if a is None or b is None:
                    continue  # more parts than ops
                total += 1
                if (a["edge_cut"], a["imbalance"]) != (b["edge_cut"], b["imbalance"]):
                    changed += 1
                    print(f"| {name} | {k} | {a['imbalance']:.3f} -> {b['imbalance']:.3f} | "
                          f"{a['edge_cut']:.3g} -> {b['edge_cut']:.3g} | {a['wall_s']:.3f} -> {b['wall_s']:.3f} |")
    print(f"{changed} of {total} partitions changed")


if __name__ == "__main__":
    main()
