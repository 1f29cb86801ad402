#!/usr/bin/env python3
"""GST (Graph Segment Training) in gdp: peak memory and placement quality against graph size.

GNMT at 20, 100 and 250 unrolled steps each way (4,609, 23,169 and 57,969 ops) on 8gpu-2node.
For gst=off and gst=on (gst_segment 4096, two segments per PPO epoch):
- peak resident memory of `placement-cli place --model gdp` over a fixed number of training
  iterations (--iterations, default 3; the whole process, LibTorch included), with its wall time;
- makespan / lower bound after --time-limit seconds (default 60, warm start included), seed 1.

    python3 bench/gst_memory.py [--steps 20,100,250] [--iterations 3] [--time-limit 60] [--cluster 8gpu-2node]
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "build", "app", "cli", "placement-cli")


def measured(args):
    """Runs the CLI; returns (its JSON report, peak RSS in MB, wall seconds)."""
    start = time.time()
    p = subprocess.Popen([CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        raise SystemExit("failed: %s" % " ".join(args))
    return json.loads(out.strip().splitlines()[-1]), usage.ru_maxrss / 1024, time.time() - start


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", default="20,100,250")
    ap.add_argument("--iterations", type=int, default=3)
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--cluster", default="8gpu-2node")
    a = ap.parse_args()
    cluster = os.path.join(ROOT, "resources", "clusters", a.cluster + ".cluster.json")
    print("| ops | gst | peak RSS, %d iterations (MB) | wall (s) | makespan / bound after %g s | iterations in %g s |"
          % (a.iterations, a.time_limit, a.time_limit))
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for steps in [int(s) for s in a.steps.split(",")]:
            graph = os.path.join(tmp, "gnmt%d.graph.json" % steps)
            subprocess.run([CLI, "generate", "gnmt", "--set", "source_steps=%d" % steps, "--set",
                            "target_steps=%d" % steps, "--out", graph], check=True, stdout=subprocess.DEVNULL)
            ops = json.loads(subprocess.run([CLI, "info", graph], capture_output=True, text=True).stdout)["nodes"]
            out = os.path.join(tmp, "p.json")
            for gst in ("off", "on"):
                common = [graph, cluster, "--model", "gdp", "--param", "gst=" + gst, "--seed", "1", "--out", out]
                _, rss, wall = measured(["place", *common, "--param", "iterations=%d" % a.iterations])
                curve = os.path.join(tmp, "curve.csv")
                timed, _, _ = measured(["train", *common, "--time-limit", str(a.time_limit), "--curve", curve])
                iterations = max(0, sum(1 for _ in open(curve)) - 1)
                print("| %d | %s | %.0f | %.1f | %.4f | %d |" % (ops, gst, rss, wall, timed["ratio"], iterations),
                      flush=True)


if __name__ == "__main__":
    main()
