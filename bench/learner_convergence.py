#!/usr/bin/env python3
"""Convergence: simulator evaluations gdp needs to reach rl-seq2seq's final quality.

For each case both families train for --time-limit seconds (`placement-cli train --curve`,
seed 1). rl-seq2seq's final best feasible makespan is the target; reported are the evaluations
after which rl-seq2seq first reached it, those after which gdp first did (or "never"), and their
ratio (GDP's paper reports 15x fewer for gdp). Two starts: the defaults (both warm-started from
the best fast placer, whose simulator runs count) and the papers' (warm_start=none: random
initial policies).

    python3 bench/learner_convergence.py [--time-limit 30] [--graphs rnnlm,moe,inception-v3,transformer] [--clusters 4gpu,8gpu-2node]
"""
import argparse
import csv
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "build", "app", "cli", "placement-cli")


def curve(graph, cluster, family, seconds, extra, tmp):
    path = os.path.join(tmp, family + ".csv")
    subprocess.run([CLI, "train", "--model", family, graph, cluster, "--time-limit", str(seconds), "--curve", path,
                    "--seed", "1", "--out", os.path.join(tmp, "out.json"), *extra], check=True,
                   capture_output=True)
    rows = [(int(r["evaluations"]), float(r["best_feasible_s"])) for r in csv.DictReader(open(path))
            if r["best_feasible_s"]]
    return rows


def first_at(rows, target):
    for evaluations, best in rows:
        if best <= target * (1 + 1e-9):
            return evaluations
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", type=float, default=30)
    ap.add_argument("--graphs", default="rnnlm,moe,inception-v3,transformer")
    ap.add_argument("--clusters", default="4gpu,8gpu-2node")
    a = ap.parse_args()
    print("| graph | cluster | start | rl-seq2seq final (ms) | rl-seq2seq evaluations to it | gdp evaluations to it |"
          " ratio | gdp final (ms) |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for g in a.graphs.split(","):
            graph = os.path.join(tmp, g + ".graph.json")
            subprocess.run([CLI, "generate", g, "--out", graph], check=True, stdout=subprocess.DEVNULL)
            for c in a.clusters.split(","):
                cluster = os.path.join(ROOT, "resources", "clusters", c + ".cluster.json")
                for start, extra in (("defaults", []), ("warm_start=none", ["--param", "warm_start=none"])):
                    rl = curve(graph, cluster, "rl-seq2seq", a.time_limit, extra, tmp)
                    gdp = curve(graph, cluster, "gdp", a.time_limit, extra, tmp)
                    if not rl or not gdp:
                        print("| %s | %s | %s | no feasible placement |" % (g, c, start))
                        continue
                    target = rl[-1][1]
                    rl_at, gdp_at = first_at(rl, target), first_at(gdp, target)
                    ratio = "%.1fx" % (rl_at / gdp_at) if gdp_at else "-"
                    print("| %s | %s | %s | %.3f | %d | %s | %s | %.3f |" % (
                        g, c, start, target * 1e3, rl_at, gdp_at if gdp_at else "never", ratio, gdp[-1][1] * 1e3),
                        flush=True)


if __name__ == "__main__":
    main()
