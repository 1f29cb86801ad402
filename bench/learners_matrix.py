#!/usr/bin/env python3
"""The learned placers against the classical baselines over graphs x clusters.

For every built-in graph (rnnlm, gnmt, inception-v3, transformer, moe at their defaults) and
every cluster preset (2gpu, 4gpu, 8gpu-2node, hetero-edge): human, heft, heft-c, m-etf-c, and
heft-c+local-search with the same --time-limit as the learners (equal wall-clock budgets; local
search uses the whole time), then rl-seq2seq, gdp and giph trained for --time-limit seconds each
(warm starts included) through `placement-cli train --curve`. Reports makespan / lower bound, and for the learners the
simulator evaluations and wall time at which the best feasible makespan first came within 5%
of the run's final value. Prints a markdown table and, at the end, mean gains.

`best-fast` is that start alone (a learner must never return worse than it).
`best-fast+local-search` is local search from the learners' own warm start (the best of the fast
placers) with the whole time, racing the fast placers' distinct starts first as gdp does (its
default since the race moved there; `--param race_starts=1` for the control without it): the
control that says what a learner adds to its start.
`gdp+local-search` is gdp for half the time, then local search from its best for the rest (a
composition splits its budget among its stages); it runs through `place`, without a curve.

    python3 bench/learners_matrix.py [--time-limit 20] [--graphs a,b] [--clusters c,d] [--seeds 1,2,3]
                                     [--models heft-c+local-search,gdp,...] [--param KEY=VALUE ...]

With several seeds a cell lists one value per seed (the deterministic placers one), and the
geomeans pair each seeded run with the baseline's run of the same seed.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import tempfile

from learner_convergence import improvements

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAPHS = ["rnnlm", "gnmt", "inception-v3", "transformer", "moe"]
CLUSTERS = ["2gpu", "4gpu", "8gpu-2node", "hetero-edge"]
CLASSIC = ["human", "heft", "heft-c", "m-etf-c", "best-fast", "heft-c+local-search", "best-fast+local-search"]
LEARNED = ["rl-seq2seq", "gdp", "giph", "gdp+local-search"]


def run(cli, *args):
    p = subprocess.run([cli, *args], capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "failed"}
    return json.loads(p.stdout.strip().splitlines()[-1])


def within5(curve_path):
    """The simulator run that first found a placement within 5% of the run's final best, and the
    wall time of the iteration it came in."""
    rows = list(csv.DictReader(open(curve_path)))
    best = [float(r["best_feasible_s"]) for r in rows if r["best_feasible_s"]]
    if not best:
        return None, None
    final = best[-1]
    for run, makespan, wall in improvements(curve_path, with_wall=True):
        if makespan <= 1.05 * final:
            return run, wall
    return None, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/app/cli/placement-cli"))
    ap.add_argument("--time-limit", type=float, default=20)
    ap.add_argument("--graphs", default=",".join(GRAPHS))
    ap.add_argument("--clusters", default=",".join(CLUSTERS))
    ap.add_argument("--seeds", default="1", help="seeds for the seeded runs (local search, learners), e.g. 1,2,3")
    ap.add_argument("--models", default=",".join(CLASSIC + LEARNED), help="the columns, a subset of the default")
    ap.add_argument("--param", action="append", default=[],
                    help="KEY=VALUE passed to every learner run and every local-search run (a stage that does not "
                         "declare it is an error), e.g. restart_after=0 or race_starts=8; may repeat")
    a = ap.parse_args()
    graphs, clusters, seeds = a.graphs.split(","), a.clusters.split(","), a.seeds.split(",")
    models = a.models.split(",")
    param_args = [x for kv in a.param for x in ("--param", kv)]  # for every learner and local-search run
    classic = [m for m in CLASSIC if m in models]
    learned = [m for m in LEARNED if m in models]
    ratios = {}
    with tempfile.TemporaryDirectory() as tmp:
        print("| graph | cluster | " + " | ".join(classic + learned) + " |")
        print("|---|---|" + "---|" * (len(classic) + len(learned)))
        for g in graphs:
            gpath = os.path.join(tmp, g + ".graph.json")
            subprocess.run([a.cli, "generate", g, "--out", gpath], check=True, capture_output=True)
            for c in clusters:
                cpath = os.path.join(ROOT, "resources/clusters", c + ".cluster.json")
                out = os.path.join(tmp, "p.placement.json")
                cells = []
                for m in classic:
                    values = []
                    for seed in seeds if "local-search" in m else seeds[:1]:  # the others are deterministic
                        args = ["place", gpath, cpath, "--model", m, "--out", out, "--seed", seed]
                        if "local-search" in m:
                            args += ["--time-limit", str(a.time_limit), *param_args]
                        r = run(a.cli, *args)
                        ok = "error" not in r
                        for s in seeds if "local-search" not in m else [seed]:
                            ratios[(g, c, m, s)] = r["ratio"] if ok and r["feasible"] else None
                        values.append(f"{r['ratio']:.3f}" + ("" if r["feasible"] else " (inf.)") if ok else "error")
                    cells.append(" ".join(values))
                for m in learned:
                    values = []
                    for seed in seeds:
                        curve = os.path.join(tmp, "curve.csv")
                        if "+" in m:  # a composition: `place`, no curve
                            open(curve, "w").close()
                            r = run(a.cli, "place", gpath, cpath, "--model", m, "--time-limit", str(a.time_limit),
                                    "--out", out, "--seed", seed, *param_args)
                        else:
                            r = run(a.cli, "train", "--model", m, gpath, cpath, "--iterations", "1000000",
                                    "--time-limit", str(a.time_limit), "--curve", curve, "--out", out, "--seed", seed,
                                    *param_args)
                        if "error" in r:
                            values.append("error: " + r["error"][:40])
                            ratios[(g, c, m, seed)] = None
                            continue
                        ev, wall = within5(curve)
                        ratios[(g, c, m, seed)] = r["ratio"] if r["feasible"] else None
                        values.append(f"{r['ratio']:.3f}" + ("" if r["feasible"] else " (inf.)") +
                                      (f" · 5%: {ev} ev, {wall:.1f} s" if ev is not None and len(seeds) == 1 else ""))
                    cells.append(" ".join(values))
                print(f"| {g} | {c} | " + " | ".join(cells) + " |", flush=True)
    print()
    bases = [b for b in ("human", "heft", "best-fast", "heft-c+local-search", "best-fast+local-search") if b in models]
    print("| model | " + " | ".join(f"geomean ratio to {b}" for b in bases) + " | runs |" +
          (" worst ratio to best-fast |" if "best-fast" in bases else ""))
    print("|---|" + "---|" * (len(bases) + 1 + ("best-fast" in bases)))
    for m in classic + learned:
        cells, cases = [], 0
        for base in bases:
            pairs = [(ratios[(g, c, m, s)], ratios[(g, c, base, s)]) for g in graphs for c in clusters
                     for s in seeds if ratios.get((g, c, m, s)) and ratios.get((g, c, base, s))]
            geo = math.exp(sum(math.log(x / y) for x, y in pairs) / len(pairs)) if pairs else float("nan")
            cells.append(f"{geo:.3f}")
            cases = len(pairs)
            if base == "best-fast":  # a learner starts from it: never worse (up to rounding)
                worst = max((x / y for x, y in pairs), default=float("nan"))
        print(f"| {m} | " + " | ".join(cells) + f" | {cases} |" + (f" {worst:.3f} |" if "best-fast" in bases else ""))


if __name__ == "__main__":
    main()
