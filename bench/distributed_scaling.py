#!/usr/bin/env python3
"""Data-parallel training across local processes: the same seed and global batch with 1, 2 and 4
processes (placement-cli train --launch N). Prints, per process count, the wall time, seconds per
iteration after the first, the share of rank 0's time spent in collectives, the largest relative
difference of the loss curve from one process's, and the time until the best feasible makespan
reached one process's final best.

usage: bench/distributed_scaling.py [--model gdp] [--graph gnmt] [--cluster 4gpu] [--iterations 8]
                                    [--samples 8] [--processes 1,2,4]
"""
import argparse
import csv
import json
import os
import re
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "build", "app", "cli", "placement-cli")


def curve(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="gdp")
    ap.add_argument("--graph", default="gnmt")
    ap.add_argument("--cluster", default="4gpu")
    ap.add_argument("--iterations", type=int, default=8)
    ap.add_argument("--samples", type=int, default=8)
    ap.add_argument("--processes", default="1,2,4")
    ap.add_argument("--k", type=int, default=4, help="gap: parts")
    ap.add_argument("--graphs-per-step", type=int, default=None,
                    help="graphs in a step: the graph, then rnnlm with 2, 3, ... layers (gap: 4; others: 1)")
    a = ap.parse_args()
    if a.graphs_per_step is None:
        a.graphs_per_step = 4 if a.model == "gap" else 1
    tmp = tempfile.mkdtemp()
    graph = os.path.join(tmp, a.graph + ".graph.json")
    subprocess.run([CLI, "generate", a.graph, "--out", graph], check=True, stdout=subprocess.DEVNULL)
    cluster = os.path.join(ROOT, "resources", "clusters", a.cluster + ".cluster.json")
    extra = []
    for i in range(1, a.graphs_per_step):
        g = os.path.join(tmp, f"rnnlm{i}.graph.json")
        subprocess.run([CLI, "generate", "rnnlm", "--set", f"layers={i + 1}", "--out", g], check=True,
                       stdout=subprocess.DEVNULL)
        extra.append(g)
    rows, base = [], None
    for n in [int(x) for x in a.processes.split(",")]:
        out_csv = os.path.join(tmp, f"curve{n}.csv")
        if a.model == "gap":
            cmd = [CLI, "train", "--model", "gap", graph, "--k", str(a.k), "--graphs", ",".join(extra), "--param",
                   f"graphs_per_step={a.graphs_per_step}", "--out", os.path.join(tmp, "p.partition.json")]
        else:
            cmd = [CLI, "train", "--model", a.model, graph, cluster, "--param", f"samples={a.samples}",
                   "--out", os.path.join(tmp, "p.placement.json")]
            if extra:
                cmd += ["--graphs", ",".join(extra), "--param", f"graphs_per_step={a.graphs_per_step}"]
        cmd += ["--iterations", str(a.iterations), "--seed", "1", "--curve", out_csv]
        if n > 1:
            cmd += ["--launch", str(n)]
        r = subprocess.run(cmd, check=True, capture_output=True, text=True)
        report = json.loads(r.stdout.strip().splitlines()[-1])
        c = curve(out_csv)
        walls = [float(x["wall_s"]) for x in c]
        per_it = (walls[-1] - walls[0]) / max(1, len(walls) - 1)
        coll = 0.0
        for note in report.get("notes", []):
            m = re.search(r"([0-9.]+) s in them", note)
            if m:
                coll = float(m.group(1))
        losses = [float(x["loss"]) for x in c]
        best = [float(x["best_feasible_s"] or "inf") for x in c]
        if base is None:
            base = {"loss": losses, "best": best[-1]}
        diff = max(abs(x - y) / max(1.0, abs(y)) for x, y in zip(losses, base["loss"]))
        reach = next((w for w, b in zip(walls, best) if b <= base["best"] * (1 + 1e-12)), None)
        wall = report.get("wall_s", walls[-1])
        rows.append((n, wall, per_it, coll / wall, diff, reach, report.get("evaluations", 0)))
    what = (f"{a.graph} and rnnlm with 2..{a.graphs_per_step} layers, {a.graphs_per_step} graphs a step"
            if a.graphs_per_step > 1 else a.graph)
    what += f", k={a.k}" if a.model == "gap" else f" x {a.cluster}, {a.samples} samples a graph"
    print(f"{a.model}: {what}, {a.iterations} iterations, seed 1\n")
    print("| processes | wall s | s / iteration | rank 0 in collectives | max loss difference vs 1 | "
          "s to 1-process best | simulator runs |")
    print("|---|---|---|---|---|---|---|")
    for n, wall, per_it, share, diff, reach, ev in rows:
        print(f"| {n} | {wall:.2f} | {per_it:.3f} | {100 * share:.0f}% | {diff:.1e} | "
              f"{'-' if reach is None else f'{reach:.2f}'} | {ev} |")


if __name__ == "__main__":
    main()
