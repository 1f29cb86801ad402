#!/usr/bin/env python3
"""Training speed of each learned family on graphs of about 1k, 10k and 58k ops.

Graphs: layered-random (1,000 nodes), GNMT at its defaults (11,569 ops) and GNMT with 250 steps
each way (57,969 ops), on 8gpu-2node (gap: k = 8). Each family trains for --time-limit seconds
(`placement-cli train --curve`, defaults otherwise, warm start included in the time); reported:
iterations completed, iterations per second after the first iteration (steady state), the
seconds until the first iteration ended (warm start + preparation + one step), and simulator
runs. A family that ends no iteration within the limit shows 0.

    python3 bench/learner_speed.py [--time-limit 30] [--families rl-seq2seq,gdp,giph,gap] [--sizes 1k,10k,58k]
"""
import argparse
import csv
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "build", "app", "cli", "placement-cli")
GRAPHS = {
    "1k": ("layered-random", {"nodes": 1000}),
    "10k": ("gnmt", {}),
    "58k": ("gnmt", {"source_steps": 250, "target_steps": 250}),
}


def make_graph(cli, size, tmp):
    """Generates the graph of `size` (a key of GRAPHS) in tmp: (generator name, path, ops)."""
    name, sets = GRAPHS[size]
    graph = os.path.join(tmp, size + ".graph.json")
    args = [cli, "generate", name, "--out", graph]
    for k, v in sets.items():
        args += ["--set", "%s=%s" % (k, v)]
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
    ops = json.loads(subprocess.run([cli, "info", graph], capture_output=True, text=True).stdout)["nodes"]
    return name, graph, ops


def speed_row(cli, graph, target, family, time_limit, params, tmp):
    """One `train --curve` run of `family` for `time_limit` seconds: iterations completed, iterations
    per second after the first, the seconds until the first ended ("-" if none) and simulator runs;
    or {"error": ...}. `params` are extra arguments (e.g. ["--param", "device=cuda"])."""
    fd, curve = tempfile.mkstemp(suffix=".csv", dir=tmp)
    os.close(fd)
    out = curve[:-4] + ".placement.json"
    p = subprocess.run([cli, "train", "--model", family, graph, *target, "--time-limit", str(time_limit),
                        "--curve", curve, "--out", out, *params], capture_output=True, text=True)
    if p.returncode != 0:
        return {"error": p.stderr.strip()[-200:]}
    rows = list(csv.DictReader(open(curve))) if os.path.getsize(curve) else []
    walls = [float(r["wall_s"]) for r in rows]
    steady = (len(walls) - 1) / (walls[-1] - walls[0]) if len(walls) > 1 and walls[-1] > walls[0] else 0
    return {"iterations": len(rows), "steady": steady, "first": "%.1f" % walls[0] if walls else "-",
            "runs": rows[-1]["evaluations"] if rows else "0", "result": json.loads(p.stdout.strip().splitlines()[-1])}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", type=float, default=30)
    ap.add_argument("--families", default="rl-seq2seq,gdp,giph,gap")
    ap.add_argument("--sizes", default="1k,10k,58k")
    ap.add_argument("--cli", default=CLI, help="the placement-cli to time (a copy, so that a build meanwhile does "
                    "not swap it)")
    a = ap.parse_args()
    cluster = os.path.join(ROOT, "resources", "clusters", "8gpu-2node.cluster.json")
    print("| graph | ops | family | iterations in %g s | iterations/s (steady) | first iteration ends (s) |"
          " simulator runs |" % a.time_limit)
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for size in a.sizes.split(","):
            name, graph, ops = make_graph(a.cli, size, tmp)
            for family in a.families.split(","):
                target = ["--k", "8"] if family == "gap" else [cluster]
                row = speed_row(a.cli, graph, target, family, a.time_limit, [], tmp)
                if "error" in row:
                    print("| %s | %d | %s | failed: %s |" % (name, ops, family, row["error"]))
                    continue
                print("| %s | %d | %s | %d | %.3g | %s | %s |" % (name, ops, family, row["iterations"], row["steady"],
                                                                  row["first"], row["runs"]), flush=True)


if __name__ == "__main__":
    main()
