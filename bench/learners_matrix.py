#!/usr/bin/env python3
"""The learned placers against the classical baselines over graphs x clusters.

For every built-in graph (rnnlm, gnmt, inception-v3, transformer, moe at their defaults) and
every cluster preset (2gpu, 4gpu, 8gpu-2node, hetero-edge): human, heft and heft+local-search
(10 s), then rl-seq2seq, gdp and giph trained for --time-limit seconds each through
`placement-cli train --curve`. Reports makespan / lower bound, and for the learners the
simulator evaluations and wall time at which the best feasible makespan first came within 5%
of the run's final value. Prints a markdown table and, at the end, mean gains.

    python3 bench/learners_matrix.py [--time-limit 20]
"""
import argparse
import csv
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAPHS = ["rnnlm", "gnmt", "inception-v3", "transformer", "moe"]
CLUSTERS = ["2gpu", "4gpu", "8gpu-2node", "hetero-edge"]
CLASSIC = ["human", "heft", "heft+local-search"]
LEARNED = ["rl-seq2seq", "gdp", "giph"]


def run(cli, *args):
    p = subprocess.run([cli, *args], capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "failed"}
    return json.loads(p.stdout.strip().splitlines()[-1])


def within5(curve_path):
    rows = list(csv.DictReader(open(curve_path)))
    best = [float(r["best_feasible_s"]) for r in rows if r["best_feasible_s"]]
    if not best:
        return None, None
    final = best[-1]
    for r in rows:
        if r["best_feasible_s"] and float(r["best_feasible_s"]) <= 1.05 * final:
            return int(r["evaluations"]), float(r["wall_s"])
    return None, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/app/cli/placement-cli"))
    ap.add_argument("--time-limit", type=float, default=20)
    a = ap.parse_args()
    ratios = {}
    with tempfile.TemporaryDirectory() as tmp:
        print("| graph | cluster | " + " | ".join(CLASSIC + LEARNED) + " |")
        print("|---|---|" + "---|" * (len(CLASSIC) + len(LEARNED)))
        for g in GRAPHS:
            gpath = os.path.join(tmp, g + ".graph.json")
            subprocess.run([a.cli, "generate", g, "--out", gpath], check=True, capture_output=True)
            for c in CLUSTERS:
                cpath = os.path.join(ROOT, "resources/clusters", c + ".cluster.json")
                out = os.path.join(tmp, "p.placement.json")
                cells = []
                for m in CLASSIC:
                    args = ["place", gpath, cpath, "--model", m, "--out", out]
                    if "local-search" in m:
                        args += ["--time-limit", "10"]
                    r = run(a.cli, *args)
                    ok = "error" not in r
                    ratios[(g, c, m)] = r["ratio"] if ok and r["feasible"] else None
                    cells.append(f"{r['ratio']:.3f}" + ("" if r["feasible"] else " (inf.)") if ok else "error")
                for m in LEARNED:
                    curve = os.path.join(tmp, "curve.csv")
                    r = run(a.cli, "train", "--model", m, gpath, cpath, "--iterations", "1000000", "--time-limit",
                            str(a.time_limit), "--curve", curve, "--out", out)
                    if "error" in r:
                        cells.append("error: " + r["error"][:40])
                        ratios[(g, c, m)] = None
                        continue
                    ev, wall = within5(curve)
                    ratios[(g, c, m)] = r["ratio"] if r["feasible"] else None
                    cells.append(f"{r['ratio']:.3f}" + ("" if r["feasible"] else " (inf.)") +
                                 (f" · 5%: {ev} ev, {wall:.1f} s" if ev is not None else ""))
                print(f"| {g} | {c} | " + " | ".join(cells) + " |", flush=True)
    print()
    print("| model | mean gain over human | mean gain over heft | runs (both feasible) |")
    print("|---|---|---|---|")
    for m in CLASSIC + LEARNED:
        for base in ("human", "heft"):
            pass
        gains = {}
        for base in ("human", "heft"):
            pairs = [(ratios[(g, c, m)], ratios[(g, c, base)]) for g in GRAPHS for c in CLUSTERS
                     if ratios.get((g, c, m)) and ratios.get((g, c, base))]
            gains[base] = (sum(1 - x / y for x, y in pairs) / len(pairs) if pairs else float("nan"), len(pairs))
        print(f"| {m} | {gains['human'][0]:+.1%} | {gains['heft'][0]:+.1%} | {gains['heft'][1]} |")


if __name__ == "__main__":
    main()
