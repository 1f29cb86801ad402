#!/usr/bin/env python3
"""What continuing a learned policy is worth: gdp with N1 simulator runs (saving its policy), then N2
more from its placement, once with a fresh policy and once continuing the saved one, beside one run
of N1 + N2. Makespan / lower bound per case and seed (docs/performance.md, "Steering: learned arms
continue their policy").

    python3 bench/learner_continuation.py [--cases moe:4gpu,rnnlm-8:8gpu-2node] [--seeds 1,2,3]
                                          [--first 1700] [--more 2200] [--model gdp]
"""
import argparse
import os
import subprocess
import tempfile

from steer_compare import run as run_cli

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(ROOT, "build/app/cli/placement-cli"))
    ap.add_argument("--cases", default="moe:4gpu,rnnlm-8:8gpu-2node,moe:hetero-edge,gnmt:8gpu-2node,inception-v3:4gpu")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--first", type=int, default=1700)
    ap.add_argument("--more", type=int, default=2200)
    ap.add_argument("--model", default="gdp")
    a = ap.parse_args()

    def run(*args):
        return run_cli(a.cli, *args)["ratio"]

    print("| graph | cluster | seed | first %d | + %d, fresh policy | + %d, continued policy | one run of %d |" % (
        a.first, a.more, a.more, a.first + a.more))
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for case in a.cases.split(","):
            g, c = case.split(":")
            gp = os.path.join(tmp, g + ".graph.json")
            if not os.path.exists(gp):
                sets = ["--set", "layers=8"] if g == "rnnlm-8" else []
                subprocess.run([a.cli, "generate", g.split("-8")[0], *sets, "--out", gp], check=True,
                               capture_output=True)
            cp = os.path.join(ROOT, "resources/clusters", c + ".cluster.json")
            for s in (int(x) for x in a.seeds.split(",")):
                tag = os.path.join(tmp, "%s-%s-%d" % (g, c, s))
                place = ["place", gp, cp, "--model", a.model]
                first = run(*place, "--evaluations", str(a.first), "--param", "save_checkpoint=" + tag + ".ckpt",
                            "--seed", str(s), "--out", tag + "-a.json")
                more = place + ["--evaluations", str(a.more), "--start", tag + "-a.json", "--seed", str(s + 10)]
                fresh = run(*more, "--out", tag + "-b.json")
                continued = run(*more, "--param", "checkpoint=" + tag + ".ckpt", "--out", tag + "-c.json")
                one = run(*place, "--evaluations", str(a.first + a.more), "--seed", str(s), "--out", tag + "-d.json")
                print("| %s | %s | %d | %.4f | %.4f | %.4f | %.4f |" % (g, c, s, first, fresh, continued, one),
                      flush=True)


if __name__ == "__main__":
    main()
