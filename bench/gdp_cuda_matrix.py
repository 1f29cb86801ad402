#!/usr/bin/env python3
"""gdp on CUDA against gdp on the CPU: the same machine, the same wall time, the same seeds.

Every case of the learners' matrix (bench/learners_matrix.py: the built-in graphs x the four
cluster presets) trains `placement-cli train --model gdp` for --time-limit seconds (warm start
included) twice: with `--param device=cpu` and with `--param device=cuda`. --jobs runs go at a
time, half of them CUDA runs (they share the one GPU), each held to --threads LibTorch threads
(the simulator runs on the run's own thread), so keep --jobs x --threads within the cores. Then
gdp's training speed on each device at 1k, 11.6k and 58k ops (bench/learner_speed.py's graphs on
8gpu-2node, --speed-time-limit seconds each), in the same pool.

Reports makespan / lower bound, iterations and simulator runs of every run; the geomean CUDA/CPU
ratio of the makespans (paired by case and seed) and of the iterations.

    python3 bench/gdp_cuda_matrix.py --cli build-cuda/app/cli/placement-cli [--time-limit 60]
        [--jobs 8] [--threads 2] [--seeds 1] [--graphs a,b] [--clusters c,d] [--sizes 1k,10k,58k]
"""
import argparse
import math
import os
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

from learner_speed import make_graph, speed_row
from learners_matrix import CLUSTERS, GRAPHS, ROOT

DEVICES = ["cpu", "cuda"]


def geomean(pairs):
    return math.exp(sum(math.log(x / y) for x, y in pairs) / len(pairs)) if pairs else float("nan")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--jobs", type=int, default=8)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--graphs", default=",".join(GRAPHS))
    ap.add_argument("--clusters", default=",".join(CLUSTERS))
    ap.add_argument("--sizes", default="1k,10k,58k", help="speed rows; empty for none")
    ap.add_argument("--speed-time-limit", type=float, default=30)
    a = ap.parse_args()
    graphs, clusters, seeds = a.graphs.split(","), a.clusters.split(","), a.seeds.split(",")
    speed_cluster = os.path.join(ROOT, "resources/clusters/8gpu-2node.cluster.json")
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(a.jobs) as pool:
        def submit(graph, cluster, device, seed, seconds=a.time_limit):
            params = ["--iterations", "1000000", "--seed", seed, "--param", "device=" + device, "--param",
                      "threads=%d" % a.threads]
            return pool.submit(speed_row, a.cli, graph, [cluster], "gdp", seconds, params, tmp)

        runs = {}
        for g in graphs:
            path = os.path.join(tmp, g + ".graph.json")
            subprocess.run([a.cli, "generate", g, "--out", path], check=True, capture_output=True)
            for c in clusters:
                for s in seeds:
                    for d in DEVICES:
                        runs[(g, c, s, d)] = submit(path, os.path.join(ROOT, "resources/clusters", c + ".cluster.json"),
                                                    d, s)
        speeds = {}
        for size in filter(None, a.sizes.split(",")):
            name, path, ops = make_graph(a.cli, size, tmp)
            for d in DEVICES:
                speeds[(name, ops, d)] = submit(path, speed_cluster, d, seeds[0], a.speed_time_limit)

        print("| graph | cluster | seed | cpu: ratio | cuda: ratio | cpu: iterations | cuda: iterations |"
              " cpu: simulator runs | cuda: simulator runs |")
        print("|---|---|---|---|---|---|---|---|---|")
        ratios, iterations = [], []
        for g in graphs:
            for c in clusters:
                for s in seeds:
                    rows = [runs[(g, c, s, d)].result() for d in DEVICES]
                    if any("error" in r for r in rows):
                        print(f"| {g} | {c} | {s} | " + " | ".join(r.get("error", "ok")[-80:] for r in rows) + " |")
                        continue
                    res = [r["result"] for r in rows]
                    cells = [f"{x['ratio']:.3f}" + ("" if x["feasible"] else " (inf.)") for x in res]
                    print(f"| {g} | {c} | {s} | {cells[0]} | {cells[1]} | {rows[0]['iterations']} | "
                          f"{rows[1]['iterations']} | {rows[0]['runs']} | {rows[1]['runs']} |", flush=True)
                    if all(x["feasible"] for x in res):
                        ratios.append((res[1]["ratio"], res[0]["ratio"]))
                    if rows[0]["iterations"] and rows[1]["iterations"]:
                        iterations.append((rows[1]["iterations"], rows[0]["iterations"]))
        better = sum(x < y * (1 - 1e-9) for x, y in ratios)
        worse = sum(x > y * (1 + 1e-9) for x, y in ratios)
        print(f"\ncuda/cpu, {len(ratios)} runs: makespan geomean {geomean(ratios):.3f} (cuda better in {better}, "
              f"worse in {worse}); iterations geomean {geomean(iterations):.2f}x")

        print(f"\n| graph | ops | device | iterations in {a.speed_time_limit:g} s | iterations/s (steady) |"
              " first iteration ends (s) | simulator runs |")
        print("|---|---|---|---|---|---|---|")
        for (name, ops, d), f in speeds.items():
            r = f.result()
            if "error" in r:
                print(f"| {name} | {ops} | {d} | failed: {r['error'][-80:]} |")
                continue
            print(f"| {name} | {ops} | {d} | {r['iterations']} | {r['steady']:.3g} | {r['first']} | {r['runs']} |",
                  flush=True)


if __name__ == "__main__":
    main()
