#!/usr/bin/env python3
"""Runs every placement family on generated graphs and cluster presets through placement-cli
and prints a markdown table of makespan / lower bound and wall time (docs/performance.md).

  python3 bench/placer_table.py [--graphs "layered-random:nodes=1000,ccr=1;rnnlm:layers=4"]
                                [--models heft,m-etf,...] [--clusters 4gpu,...]
                                [--time-limit 10] [--cli build/app/cli/placement-cli]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLUSTERS = ["2gpu", "4gpu", "8gpu-2node", "hetero-edge"]
MODELS = ["single", "round-robin", "human", "m-topo", "heft", "heft-c", "cpop", "m-etf", "m-etf-c",
          "m-sct", "metis", "spectral", "human+local-search", "heft+local-search", "m-etf-c+local-search"]


def run(cli, *args):
    out = subprocess.run([cli, *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip())
    return json.loads(out.stdout.splitlines()[-1]) if out.stdout.strip().startswith("{") else out.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--graphs", default=";".join(
        f"layered-random:nodes={n},out_degree=2,ccr=1" for n in (1000, 10000, 50000)))
    ap.add_argument("--models", default=",".join(MODELS))
    ap.add_argument("--clusters", default=",".join(CLUSTERS))
    ap.add_argument("--time-limit", default="10")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/app/cli/placement-cli"))
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="ps-bench-")
    models = args.models.split(",")
    print("| graph | cluster | " + " | ".join(models) + " |")
    print("|---|---|" + "---|" * len(models))
    summary = {}
    for number, spec in enumerate(args.graphs.split(";")):
        name, _, settings = spec.partition(":")
        graph = os.path.join(tmp, f"g{number}.graph.json")
        sets = [x for item in settings.split(",") if item for x in ("--set", item)]
        info = run(args.cli, "generate", name, *sets, "--out", graph)
        label = f"{name} {settings} ({info.split('(')[1].split(' nodes')[0]} nodes)"
        for cluster in args.clusters.split(","):
            cpath = os.path.join(ROOT, "resources/clusters", cluster + ".cluster.json")
            cells = []
            for model in models:
                try:
                    r = run(args.cli, "place", graph, cpath, "--model", model, "--time-limit", args.time_limit,
                            "--param", "evaluations=1000000", "--out", os.path.join(tmp, "p.placement.json")) \
                        if "local-search" in model else \
                        run(args.cli, "place", graph, cpath, "--model", model, "--out",
                            os.path.join(tmp, "p.placement.json"))
                    mark = "" if r["feasible"] else " (infeasible)"
                    cells.append(f"{r['ratio']:.3f} / {r['wall_s']:.2f}s{mark}")
                    summary.setdefault(model, []).append(r["ratio"] if r["feasible"] else None)
                except RuntimeError as e:
                    cells.append("error: " + str(e)[:40])
                print(f"  done {spec} {cluster} {model}", file=sys.stderr)
            print(f"| {label} | {cluster} | " + " | ".join(cells) + " |", flush=True)
    print_summary(models, summary)


def print_summary(models, summary):
    """Mean and worst ratio over the feasible results, and each model's mean gain over HEFT
    and over human on the runs where both were feasible."""
    print()
    print("| model | feasible runs | mean makespan/bound | worst | mean gain over heft | mean gain over human |")
    print("|---|---|---|---|---|---|")
    for model in models:
        ratios = summary.get(model, [])
        ok = [r for r in ratios if r is not None]
        if not ok:
            continue
        gains = []
        for base in ("heft", "human"):
            pairs = [(b, r) for b, r in zip(summary.get(base, []), ratios) if b is not None and r is not None]
            gains.append(f"{100 * sum(1 - r / b for b, r in pairs) / len(pairs):+.1f}%" if pairs else "-")
        print(f"| {model} | {len(ok)}/{len(ratios)} | {sum(ok) / len(ok):.3f} | {max(ok):.3f} | {gains[0]} | {gains[1]} |")


if __name__ == "__main__":
    main()
