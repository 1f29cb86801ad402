#!/usr/bin/env python3
"""The partitions of one partitioner (metis unless --model says) that differ between two builds of
placement-cli, over the example and the built-in graphs at k = 2, 3, 4, 8, 16 and 32 (seed 1,
default tolerance 1.03): imbalance, edge cut and wall time, before and after. docs/performance.md,
"METIS over its tolerance with every part used", "Spectral's parts over the tolerance".

  python3 bench/partition_tolerance_cmp.py OLD_CLI [NEW_CLI] [--model spectral]
"""
import argparse
import json
import os
import subprocess
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


def partition(cli, graph, k, out, model):
    r = subprocess.run([cli, "partition", graph, "--k", str(k), "--model", model, "--out", out],
                       capture_output=True, text=True)
    return json.loads(r.stdout.splitlines()[-1]) if r.returncode == 0 else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new", nargs="?", default=os.path.join(ROOT, "build/app/cli/placement-cli"))
    ap.add_argument("--model", default="metis")
    args = ap.parse_args()
    old, new = args.old, args.new
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
                a, b = partition(old, path, k, out, args.model), partition(new, path, k, out, args.model)
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
