#!/usr/bin/env python3
"""Convergence: simulator evaluations gdp needs to reach rl-seq2seq's final quality.

For each case both families train for --time-limit seconds (`placement-cli train --curve`,
seeds from --seeds). rl-seq2seq's final best feasible makespan is the target; reported are the evaluations
after which rl-seq2seq first reached it, those after which gdp first did (or "never"), and their
ratio (GDP's paper reports 15x fewer for gdp). Evaluations count every simulator run from the
start of the run, the warm start's included, up to the one that found the placement. Two starts:
the defaults (both warm-started from the best fast placer, whose simulator runs count) and the
papers' (warm_start=none: random initial policies).

    python3 bench/learner_convergence.py [--cli PATH] [--time-limit 30] [--graphs rnnlm,moe,inception-v3,transformer]
        [--clusters 4gpu,8gpu-2node] [--seeds 1,2,3] [--starts defaults,warm_start=none]
"""
import argparse
import csv
import json
import math
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "build", "app", "cli", "placement-cli")


def curve(graph, cluster, family, seconds, seed, extra, tmp):
    path = os.path.join(tmp, family + ".csv")
    subprocess.run([CLI, "train", "--model", family, graph, cluster, "--time-limit", str(seconds), "--curve", path,
                    "--seed", str(seed), "--out", os.path.join(tmp, "out.json"), *extra], check=True,
                   capture_output=True)
    # Every improvement of the best, (the run that found it, its makespan): the curve's rows come
    # once an iteration, and a family that samples more a step would otherwise be charged its
    # whole batch.
    return improvements(path)


def improvements(path, with_wall=False):
    """A `--curve` file's improvements of the best: (run, makespan), or (run, makespan, wall_s of
    the iteration it came in)."""
    rows = []
    for r in csv.DictReader(open(path)):
        for item in filter(None, (r.get("improvements") or "").split(";")):
            run, makespan = item.split(":")
            rows.append((int(run), float(makespan), float(r["wall_s"])) if with_wall else (int(run), float(makespan)))
    return rows


def start_makespan(graph, cluster, tmp):
    """The defaults' warm start (the best fast placement): both families start there."""
    p = subprocess.run([CLI, "place", graph, cluster, "--model", "best-fast", "--out", os.path.join(tmp, "s.json")],
                       check=True, capture_output=True, text=True)
    return json.loads(p.stdout.strip().splitlines()[-1])["makespan_s"]


def first_at(rows, target):
    for evaluations, best in rows:
        if best <= target * (1 + 1e-9):
            return evaluations
    return None


def main():
    global CLI
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=CLI, help="a copy of placement-cli, so that a build meanwhile does not swap it")
    ap.add_argument("--time-limit", type=float, default=30)
    ap.add_argument("--graphs", default="rnnlm,moe,inception-v3,transformer")
    ap.add_argument("--clusters", default="4gpu,8gpu-2node")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--starts", default="defaults,warm_start=none")
    a = ap.parse_args()
    CLI = a.cli
    starts = {"defaults": [], "warm_start=none": ["--param", "warm_start=none"]}
    print("| graph | cluster | start | seed | rl-seq2seq final (ms) | rl-seq2seq evaluations to it |"
          " gdp evaluations to it | ratio | gdp final (ms) |")
    print("|---|---|---|---|---|---|---|---|---|")
    summary = []
    with tempfile.TemporaryDirectory() as tmp:
        for g in a.graphs.split(","):
            graph = os.path.join(tmp, g + ".graph.json")
            subprocess.run([CLI, "generate", g, "--out", graph], check=True, stdout=subprocess.DEVNULL)
            for c in a.clusters.split(","):
                cluster = os.path.join(ROOT, "resources", "clusters", c + ".cluster.json")
                start_s = start_makespan(graph, cluster, tmp)
                for start in a.starts.split(","):
                    for seed in [int(x) for x in a.seeds.split(",")]:
                        rl = curve(graph, cluster, "rl-seq2seq", a.time_limit, seed, starts[start], tmp)
                        gdp = curve(graph, cluster, "gdp", a.time_limit, seed, starts[start], tmp)
                        if not rl or not gdp:
                            print("| %s | %s | %s | %d | no feasible placement |" % (g, c, start, seed))
                            continue
                        target = rl[-1][1]
                        rl_at, gdp_at = first_at(rl, target), first_at(gdp, target)
                        ratio = "%.1fx" % (rl_at / gdp_at) if gdp_at else "-"
                        print("| %s | %s | %s | %d | %.3f | %d | %s | %s | %.3f |" % (
                            g, c, start, seed, target * 1e3, rl_at, gdp_at if gdp_at else "never", ratio,
                            gdp[-1][1] * 1e3), flush=True)
                        # A run where rl-seq2seq ended at the warm start leaves no gap to close.
                        if start != "defaults" or target < start_s * (1 - 1e-9):
                            summary.append((start, rl_at / gdp_at if gdp_at else 0.0))
    for start in a.starts.split(","):
        ratios = [r for s, r in summary if s == start]
        reached = [r for r in ratios if r > 0]
        geomean = math.exp(sum(map(math.log, reached)) / len(reached)) if reached else float("nan")
        print("%s: %d runs with a gap to close (defaults: rl-seq2seq ended below the warm start); gdp >= 5x fewer in %d,"
              " >= 1x in %d (never reached: %d); geomean ratio where reached %.2fx" % (
                  start, len(ratios), sum(r >= 5 for r in ratios), sum(r >= 1 for r in ratios),
                  sum(r == 0 for r in ratios), geomean))


if __name__ == "__main__":
    main()
