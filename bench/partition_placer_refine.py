#!/usr/bin/env python3
"""The partition placers (metis, spectral) with and without the cut refinement (`refine=true`: the
partition refined under the devices' FLOP shares, kept only if it simulates better).

For each built-in graph and cluster preset, `placement-cli place G C --model F [--param refine=true]`
(seed 1); cells are makespan / lower bound; the last lines give the geomean ratio refined/plain.

    python3 bench/partition_placer_refine.py [--clusters 2gpu,4gpu,8gpu-2node,hetero-edge]
"""
import argparse
import json
import math
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "build", "app", "cli", "placement-cli")
GRAPHS = [("rnnlm", {}), ("rnnlm", {"layers": 8, "steps": 30}), ("gnmt", {}), ("moe", {}), ("inception-v3", {}),
          ("resnet-50", {}), ("transformer", {})]


def place(graph, cluster, family, extra):
    with tempfile.TemporaryDirectory() as tmp:
        p = subprocess.run([CLI, "place", graph, cluster, "--model", family, "--seed", "1", "--out",
                            os.path.join(tmp, "p.json"), *extra], capture_output=True, text=True, check=True)
    return json.loads(p.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clusters", default="2gpu,4gpu,8gpu-2node,hetero-edge")
    a = ap.parse_args()
    ratios = {"metis": [], "spectral": []}
    print("| graph | cluster | metis | metis refine=true | spectral | spectral refine=true |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for name, sets in GRAPHS:
            label = name + "".join(" %s=%s" % kv for kv in sets.items())
            path = os.path.join(tmp, label.replace(" ", "_").replace("=", "") + ".graph.json")
            args = [CLI, "generate", name, "--out", path]
            for k, v in sets.items():
                args += ["--set", "%s=%s" % (k, v)]
            subprocess.run(args, check=True, stdout=subprocess.DEVNULL)
            for cluster in a.clusters.split(","):
                c = os.path.join(ROOT, "resources", "clusters", cluster + ".cluster.json")
                cells = []
                for family in ("metis", "spectral"):
                    plain = place(path, c, family, [])
                    refined = place(path, c, family, ["--param", "refine=true"])
                    ratios[family].append(refined["makespan_s"] / plain["makespan_s"])
                    cells += ["%.3f" % plain["ratio"], "%.3f / %.2f s" % (refined["ratio"], refined["wall_s"])]
                print("| %s | %s | %s |" % (label, cluster, " | ".join(cells)), flush=True)
    every = ratios["metis"] + ratios["spectral"]
    geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))  # noqa: E731
    print()
    print("refined / plain makespan, geomean: metis %.3f, spectral %.3f, both %.3f; better in %d of %d, worse in %d"
          % (geo(ratios["metis"]), geo(ratios["spectral"]), geo(every), sum(r < 0.999 for r in every), len(every),
             sum(r > 1.001 for r in every)))


if __name__ == "__main__":
    main()
