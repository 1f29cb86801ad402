#!/usr/bin/env python3
"""The learned families against the classical ones, through placement-cli (CPU).

Partitioning: GAP (trained on each graph itself, then also zero-shot from a checkpoint trained on
the other graphs) against METIS: edge cut, imbalance and wall time.
Placement: rl-seq2seq, gdp and giph (each with the same time limit) against human, heft, heft-c.

    python3 bench/learners_compare.py [--time-limit 30] [--cli build/app/cli/placement-cli]
"""
import argparse
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cli, *args):
    out = subprocess.run([cli, *args], check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def generate(cli, tmp, name, sets):
    path = os.path.join(tmp, name.replace(" ", "_") + ".graph.json")
    spec = name.split()[0]
    args = ["generate", spec, "--out", path]
    for s in sets:
        args += ["--set", s]
    subprocess.run([cli, *args], check=True, capture_output=True)
    return path


def partitions(cli, tmp, graphs):
    print("| graph | k | METIS cut | METIS imbalance | METIS s | GAP cut | GAP imbalance | GAP s (training) "
          "| GAP zero-shot cut | zero-shot imbalance | zero-shot s (inference) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for k in (2, 4, 8):
        for name, path in graphs.items():
            metis = run(cli, "partition", path, "--k", str(k), "--model", "metis", "--out", os.path.join(tmp, "m.partition.json"))
            gap = run(cli, "partition", path, "--k", str(k), "--model", "gap", "--param", "iterations=300",
                      "--out", os.path.join(tmp, "g.partition.json"))
            others = ",".join(p for n, p in graphs.items() if n != name)
            ckpt = os.path.join(tmp, f"gap{k}.ckpt")
            run(cli, "train", "--model", "gap", others.split(",")[0], "--k", str(k), "--graphs", others,
                "--iterations", "300", "--checkpoint", ckpt, "--out", os.path.join(tmp, "t.partition.json"))
            zs = run(cli, "partition", path, "--k", str(k), "--model", "gap", "--param", "iterations=0",
                     "--param", "checkpoint=" + ckpt, "--out", os.path.join(tmp, "z.partition.json"))
            print(f"| {name} | {k} | {metis['edge_cut']:.4g} | {metis['imbalance']:.3f} | {metis['wall_s']:.3f} "
                  f"| {gap['edge_cut']:.4g} | {gap['imbalance']:.3f} | {gap['wall_s']:.2f} "
                  f"| {zs['edge_cut']:.4g} | {zs['imbalance']:.3f} | {zs['wall_s']:.3f} |", flush=True)


def placements(cli, tmp, graphs, cluster, limit):
    models = ["human", "heft", "heft-c", "rl-seq2seq", "gdp", "giph"]
    print("| graph | " + " | ".join(models) + " |")
    print("|---|" + "---|" * len(models))
    for name, path in graphs.items():
        cells = []
        for m in models:
            args = ["place", path, cluster, "--model", m, "--out", os.path.join(tmp, "p.placement.json")]
            if m in ("rl-seq2seq", "gdp", "giph"):
                args += ["--time-limit", str(limit), "--param", "iterations=1000000"]
            r = run(cli, *args)
            cells.append(f"{r['ratio']:.3f} / {r['wall_s']:.1f}s" + ("" if r["feasible"] else " (infeasible)"))
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/app/cli/placement-cli"))
    ap.add_argument("--time-limit", type=float, default=30)
    ap.add_argument("--skip-partitions", action="store_true")
    ap.add_argument("--skip-placements", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if not a.skip_partitions:
            graphs = {n: generate(a.cli, tmp, n, s) for n, s in {
                "inception-v3": [], "resnet-50": [], "transformer": ["layers=2"],
                "rnnlm": [], "layered-random": ["nodes=2000"]}.items()}
            partitions(a.cli, tmp, graphs)
        if not a.skip_placements:
            graphs = {n: generate(a.cli, tmp, n, s) for n, s in {
                "inception-v3 batch 32": ["batch=32"], "rnnlm": [],
                "transformer": ["layers=2", "source_length=64", "target_length=64"]}.items()}
            placements(a.cli, tmp, graphs, os.path.join(ROOT, "resources/clusters/4gpu.cluster.json"), a.time_limit)


if __name__ == "__main__":
    main()
