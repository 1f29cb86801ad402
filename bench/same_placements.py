#!/usr/bin/env python3
"""Checks that two builds of placement-cli place alike: runs `place` with each on every case and
compares the `assignment` arrays (a refactoring or a speed-up must not change a placement).

  python3 bench/same_placements.py OLD_CLI NEW_CLI --models heft,heft-c,cpop
        [--graphs DIR] [--clusters 2gpu,4gpu,8gpu-2node,hetero-edge] [--extra G:C,G:C]

The cases are every built-in graph written to DIR (`generate NAME --out DIR/NAME.graph.json`
when missing) on every preset, plus the GRAPH:CLUSTER file pairs of --extra.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAPHS = ["inception-v3", "resnet-50", "vgg-16", "transformer", "rnnlm", "rnnlm8", "gnmt", "moe",
          "layered-random"]
GENERATE = {"rnnlm8": ["rnnlm", "--set", "layers=8"]}


def assignment(cli, graph, cluster, model, out):
    subprocess.run([cli, "place", graph, cluster, "--model", model, "--out", out], check=True,
                   capture_output=True, text=True)
    with open(out) as f:
        return json.load(f)["assignment"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--models", required=True)
    ap.add_argument("--graphs", default=os.path.join(tempfile.gettempdir(), "ps-builtin-graphs"))
    ap.add_argument("--clusters", default="2gpu,4gpu,8gpu-2node,hetero-edge")
    ap.add_argument("--extra", default="")
    args = ap.parse_args()
    os.makedirs(args.graphs, exist_ok=True)
    cases = []
    for name in GRAPHS:
        path = os.path.join(args.graphs, name + ".graph.json")
        if not os.path.exists(path):
            subprocess.run([args.new, "generate", *GENERATE.get(name, [name]), "--out", path], check=True,
                           capture_output=True)
        for c in args.clusters.split(","):
            cases.append((path, os.path.join(ROOT, "resources/clusters", c + ".cluster.json")))
    cases += [tuple(pair.split(":", 1)) for pair in args.extra.split(",") if pair]
    out = os.path.join(tempfile.mkdtemp(prefix="ps-same-"), "p.placement.json")
    differ = 0
    for graph, cluster in cases:
        for model in args.models.split(","):
            same = assignment(args.old, graph, cluster, model, out) == assignment(args.new, graph, cluster, model, out)
            differ += not same
            if not same:
                print(f"differ: {model} on {os.path.basename(graph)} x {os.path.basename(cluster)}")
    print(f"{len(cases) * len(args.models.split(','))} runs, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
