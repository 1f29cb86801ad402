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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", type=float, default=30)
    ap.add_argument("--families", default="rl-seq2seq,gdp,giph,gap")
    ap.add_argument("--sizes", default="1k,10k,58k")
    a = ap.parse_args()
    cluster = os.path.join(ROOT, "resources", "clusters", "8gpu-2node.cluster.json")
    print("| graph | ops | family | iterations in %g s | iterations/s (steady) | first iteration ends (s) |"
          " simulator runs |" % a.time_limit)
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for size in a.sizes.split(","):
            name, sets = GRAPHS[size]
            graph = os.path.join(tmp, size + ".graph.json")
            args = [CLI, "generate", name, "--out", graph]
            for k, v in sets.items():
                args += ["--set", "%s=%s" % (k, v)]
            subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
            ops = json.loads(subprocess.run([CLI, "info", graph], capture_output=True, text=True).stdout)["nodes"]
            for family in a.families.split(","):
                curve = os.path.join(tmp, "curve.csv")
                target = ["--k", "8"] if family == "gap" else [cluster]
                p = subprocess.run([CLI, "train", "--model", family, graph, *target, "--time-limit",
                                    str(a.time_limit), "--curve", curve, "--out", os.path.join(tmp, "out.json")],
                                   capture_output=True, text=True)
                if p.returncode != 0:
                    print("| %s | %d | %s | failed: %s |" % (name, ops, family, p.stderr.strip()[-200:]))
                    continue
                rows = list(csv.DictReader(open(curve))) if os.path.exists(curve) else []
                walls = [float(r["wall_s"]) for r in rows]
                steady = (len(walls) - 1) / (walls[-1] - walls[0]) if len(walls) > 1 and walls[-1] > walls[0] else 0
                runs = rows[-1]["evaluations"] if rows else "0"
                print("| %s | %d | %s | %d | %.3g | %s | %s |" % (name, ops, family, len(rows), steady,
                                                                  "%.1f" % walls[0] if walls else "-", runs),
                      flush=True)
                os.remove(curve) if os.path.exists(curve) else None


if __name__ == "__main__":
    main()
