#!/usr/bin/env python3
"""Local search's move kinds (single nodes, blocks, scopes) at an equal budget of simulator evaluations.

Runs `START+local-search` on the cases where the steering tables left room (RNN LMs, MoE, GNMT,
Inception-V3; the start is the family that did best there), once per setting of the move
hyperparameters and per seed, each with the same E simulator runs, and prints makespan / lower
bound (geomean over the seeds) per case and over all. A setting is comma-separated `key=value`
pairs of local-search parameters, e.g. `block_share=0,scope_share=0` (single-node moves and swaps
only) or `scope_share=0` (no scope moves). `--all-cases` runs the steering matrix's 36 cases
instead (bench/steer_compare.py's graphs x the four presets), and `--start F` starts every case
from family F (e.g. `best-fast`, whose runners-up local search races by default). Each setting
after the first is also compared with the first run for run (the geomean of the paired ratios).

    python3 bench/local_search_blocks.py [--evaluations 10000] [--seeds 1,2,3] [--jobs 2] \
        block_share=0 block_share=0.3,block_size=64 ''
    python3 bench/local_search_blocks.py --all-cases --start best-fast race_starts=1 ''
"""
import argparse
import concurrent.futures as cf
import json
import math
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = [("rnnlm", "4gpu", "human"), ("rnnlm", "hetero-edge", "human"), ("rnnlm", "8gpu-2node", "heft-c"),
         ("rnnlm-8", "8gpu-2node", "human"), ("rnnlm-8", "4gpu", "human"), ("moe", "8gpu-2node", "human"),
         ("moe", "4gpu", "human"), ("gnmt", "4gpu", "human"), ("gnmt", "8gpu-2node", "heft-c"),
         ("inception-v3", "4gpu", "cpop"), ("inception-v3", "hetero-edge", "cpop"), ("rnnlm", "2gpu", "m-etf-c")]
ALL_GRAPHS = ["inception-v3", "resnet-50", "vgg-16", "transformer", "rnnlm", "rnnlm-8", "gnmt", "moe",
              "layered-random"]
ALL_CLUSTERS = ["2gpu", "4gpu", "8gpu-2node", "hetero-edge"]


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def run(cli, graph, cluster, start, setting, seed, evaluations):
    args = [cli, "place", graph, cluster, "--model", start + "+local-search", "--evaluations", str(evaluations),
            "--param", "evaluations=%d" % evaluations, "--seed", str(seed), "--out", os.devnull]
    for kv in filter(None, setting.split(",")):
        args += ["--param", kv]
    p = subprocess.run(args, capture_output=True, text=True)
    lines = [l for l in p.stdout.splitlines() if l.startswith("{")]
    if p.returncode != 0 or not lines:
        raise RuntimeError(" ".join(args[1:6]) + ": " + (p.stderr.strip().splitlines() or ["failed"])[-1])
    return json.loads(lines[-1])["ratio"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/app/cli/placement-cli"))
    ap.add_argument("--evaluations", type=int, default=10000)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--all-cases", action="store_true", help="the steering matrix's 36 cases")
    ap.add_argument("--start", help="the family every case starts from (default: each case's own)")
    ap.add_argument("settings", nargs="*", default=["block_share=0", ""])
    a = ap.parse_args()
    seeds = [int(s) for s in a.seeds.split(",")]
    cases = [(g, c, "human") for g in ALL_GRAPHS for c in ALL_CLUSTERS] if a.all_cases else CASES
    if a.start:
        cases = [(g, c, a.start) for g, c, _ in cases]
    clusters = os.path.join(ROOT, "resources", "clusters")
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(a.jobs) as pool:
        graphs = {}
        for name in sorted({c[0] for c in cases}):
            graphs[name] = os.path.join(tmp, name + ".graph.json")
            sets = ["--set", "layers=8"] if name == "rnnlm-8" else []
            subprocess.run([a.cli, "generate", name.split("-8")[0], *sets, "--out", graphs[name]], check=True,
                           capture_output=True)
        futures = {(case, st, s): pool.submit(run, a.cli, graphs[case[0]],
                                              os.path.join(clusters, case[1] + ".cluster.json"), case[2], st, s,
                                              a.evaluations)
                   for case in cases for st in a.settings for s in seeds}
        labels = [st or "(defaults)" for st in a.settings]
        print("| graph | cluster | start | " + " | ".join(labels) + " |")
        print("|---|---|---|" + "---|" * len(labels))
        totals = {st: [] for st in a.settings}
        for case in cases:
            cells = []
            for st in a.settings:
                ratios = [futures[(case, st, s)].result() for s in seeds]
                totals[st] += ratios
                cells.append("%.3f" % geomean(ratios))
            print("| %s | %s | %s | " % case + " | ".join(cells) + " |", flush=True)
        print("| geomean | | | " + " | ".join("**%.3f**" % geomean(totals[st]) for st in a.settings) + " |")
        first = a.settings[0]
        for st in a.settings[1:]:
            paired = [x / y for x, y in zip(totals[st], totals[first])]
            print("\n%s against %s, run for run: %.4f over %d runs (better in %d, worse in %d; worst %.3f, best %.3f)"
                  % (st or "(defaults)", first or "(defaults)", geomean(paired), len(paired),
                     sum(r < 0.9995 for r in paired), sum(r > 1.0005 for r in paired), max(paired), min(paired)))


if __name__ == "__main__":
    main()
