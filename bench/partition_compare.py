#!/usr/bin/env python3
"""Edge cut and imbalance of our METIS and spectral partitioners beside gpmetis on the same
input (the METIS file placement-cli exports), all measured by placement-cli's spec-section-8
metrics. Needs gpmetis: scripts/install-deps --bench.

  python3 bench/partition_compare.py [--sizes 1000,10000,50000] [--parts 2,4,8]
"""
import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def cli(tool, *args):
    out = subprocess.run([tool, *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="1000,10000,50000")
    ap.add_argument("--parts", default="2,4,8")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/app/cli/placement-cli"))
    args = ap.parse_args()
    gpmetis = shutil.which("gpmetis")
    tmp = tempfile.mkdtemp(prefix="ps-part-")
    print("| graph | k | metis cut / imbalance / s | spectral cut / imbalance / s | gpmetis cut / imbalance / s |")
    print("|---|---|---|---|---|")
    for size in args.sizes.split(","):
        graph = os.path.join(tmp, f"lr{size}.graph.json")
        subprocess.run([args.cli, "generate", "layered-random", "--set", f"nodes={size}", "--set",
                        "out_degree=2", "--out", graph], check=True, capture_output=True)
        metis_file = os.path.join(tmp, f"lr{size}.graph")
        subprocess.run([args.cli, "convert", graph, metis_file], check=True, capture_output=True)
        for k in args.parts.split(","):
            cells = []
            for model in ("metis", "spectral"):
                r = cli(args.cli, "partition", graph, "--k", k, "--model", model, "--out",
                        os.path.join(tmp, "p.partition.json"))
                cells.append(f"{r['edge_cut']:.4g} / {r['imbalance']:.3f} / {r['wall_s']:.2f}")
            if gpmetis:
                t0 = time.time()
                subprocess.run([gpmetis, metis_file, k], check=True, capture_output=True)
                wall = time.time() - t0
                m = cli(args.cli, "metrics", graph, f"{metis_file}.part.{k}")  # gpmetis's own file
                cells.append(f"{m['edge_cut']:.4g} / {m['imbalance']:.3f} / {wall:.2f}")
            else:
                cells.append("gpmetis not installed")
            print(f"| layered-random {size} | {k} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
