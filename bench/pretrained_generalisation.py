#!/usr/bin/env python3
"""The shipped policies (resources/pretrained, scripts/pretrain) on graphs outside their corpus.

gdp: for each held-out graph and cluster, the pretrained policy zero-shot (`--param
checkpoint=pretrained --param iterations=0`), the best fast placement it starts from
(`--model human` ... the `bestFastPlacement` set is what gdp's warm start runs; reported
through gdp itself with iterations=0 and no checkpoint, which places by its untrained prior,
i.e. the start), and gdp trained on that graph alone for --time-limit seconds (warm start
included). Cells: makespan / lower bound, wall seconds.

gap: the pretrained partitioner zero-shot against METIS at k = 4 and imbalance 1.05: edge cut,
imbalance and wall time (cells: cut / imbalance / s); beside it METIS's partition and an untrained
network's, each given the same rebalancing and refinement.

    python3 bench/pretrained_generalisation.py [--time-limit 60] [--clusters 4gpu,8gpu-2node] [--seeds 1]
        [--skip-gdp] [--skip-trained] [--checkpoint pretrained|FILE] [--search SECONDS]

--search S replaces the gdp table by an ablation of S seconds each: gdp sampling and re-anchoring
with its learning switched off (lr=1e-6, one PPO epoch), from the stored policy and from the
untrained prior, against gdp trained for the same S seconds. It says how much of what a few
seconds find is the stored policy's and how much is the search around the start.
"""
import argparse
import json
import os
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLI = os.path.join(ROOT, "build", "app", "cli", "placement-cli")

# Sizes and lengths the corpus never has (scripts/pretrain's CORPUS).
GDP_GRAPHS = [
    ("transformer", {}),                      # 6+6 layers, d_model 512, 128 tokens
    ("rnnlm", {"steps": 50}),                 # 2 layers, 50 steps
    ("rnnlm", {"layers": 8, "steps": 30}),
    ("moe", {"steps": 20, "experts": 32}),
    ("inception-v3", {"batch": 32}),
]
GAP_GRAPHS = [("inception-v3", {}), ("resnet-50", {}), ("rnnlm", {"layers": 8, "steps": 30})]


def cli(*args):
    p = subprocess.run([CLI, *args], capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("failed: %s\n%s" % (" ".join(args), p.stderr))
    return json.loads(p.stdout.strip().splitlines()[-1])


def generate(tmp, name, sets):
    label = name + "".join(" %s=%s" % kv for kv in sets.items())
    path = os.path.join(tmp, label.replace(" ", "_").replace("=", "") + ".graph.json")
    args = ["generate", name, "--out", path]
    for k, v in sets.items():
        args += ["--set", "%s=%s" % (k, v)]
    subprocess.run([CLI, *args], check=True, stdout=subprocess.DEVNULL)
    return label, path


def search_ablation(a, tmp, out):
    frozen = ["--param", "lr=1e-6", "--param", "ppo_epochs=1"]
    variants = [("stored policy, frozen", ["--param", "checkpoint=" + a.checkpoint] + frozen),
                ("untrained prior, frozen", frozen), ("trained", [])]
    print("| graph | cluster | " + " | ".join("%s, seeds %s" % (v, a.seeds) for v, _ in variants) + " |")
    print("|---|---|" + "---|" * len(variants))
    for name, sets in GDP_GRAPHS:
        label, graph = generate(tmp, name, sets)
        for cluster in a.clusters.split(","):
            c = os.path.join(ROOT, "resources", "clusters", cluster + ".cluster.json")
            cells = []
            for _, extra in variants:
                ratios = [cli("place", graph, c, "--model", "gdp", "--seed", seed, "--out", out, "--time-limit",
                              str(a.search), *extra)["ratio"] for seed in a.seeds.split(",")]
                cells.append(" ".join("%.3f" % r for r in ratios))
            print("| %s | %s | %s |" % (label, cluster, " | ".join(cells)), flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--time-limit", type=float, default=60)
    ap.add_argument("--clusters", default="4gpu,8gpu-2node")
    ap.add_argument("--skip-gdp", action="store_true")
    ap.add_argument("--checkpoint", default="pretrained", help="gdp's stored policy: pretrained or a file")
    ap.add_argument("--skip-trained", action="store_true", help="gdp zero-shot only (no 60 s training)")
    ap.add_argument("--seeds", default="1")
    ap.add_argument("--search", type=float, help="seconds of the frozen-search ablation (instead of the gdp table)")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out.json")
        if a.search:
            search_ablation(a, tmp, out)
        elif not a.skip_gdp:
            print("| graph | cluster | seed | start (best fast) | gdp pretrained, zero-shot | gdp trained %g s on the graph |"
                  " zero-shot / trained |" % a.time_limit)
            print("|---|---|---|---|---|---|---|")
            for name, sets in GDP_GRAPHS:
                label, graph = generate(tmp, name, sets)
                for cluster in a.clusters.split(","):
                    c = os.path.join(ROOT, "resources", "clusters", cluster + ".cluster.json")
                    for seed in a.seeds.split(","):
                        base = [graph, c, "--model", "gdp", "--seed", seed, "--out", out]
                        start = cli("place", *base, "--param", "iterations=0")
                        zero = cli("place", *base, "--param", "checkpoint=" + a.checkpoint, "--param", "iterations=0")
                        if a.skip_trained:
                            print("| %s | %s | %s | %.4f | %.4f / %.1f s | - | - |" % (
                                label, cluster, seed, start["ratio"], zero["ratio"], zero["wall_s"]), flush=True)
                            continue
                        trained = cli("place", *base, "--time-limit", str(a.time_limit))
                        print("| %s | %s | %s | %.4f | %.4f / %.1f s | %.4f / %.1f s | %.3f |" % (
                            label, cluster, seed, start["ratio"], zero["ratio"], zero["wall_s"], trained["ratio"],
                            trained["wall_s"], zero["makespan_s"] / trained["makespan_s"]), flush=True)
        print()
        # Two controls: the same rebalancing and refinement from an untrained network's argmax (no
        # checkpoint), which says how much of the refined cut is the policy's, and from METIS's
        # partition (metis refine=true), the strongest reference at hand.
        print("| graph | k | METIS | METIS + refinement | gap pretrained, argmax + rebalance |"
              " gap pretrained, + refinement (default) | gap untrained, + refinement |"
              " cut ratio to METIS (rebalanced, refined, untrained refined) | refined gap / refined METIS |")
        print("|---|---|---|---|---|---|---|---|---|")
        for name, sets in GAP_GRAPHS:
            label, graph = generate(tmp, name, sets)
            base = ["partition", graph, "--k", "4", "--imbalance", "1.05", "--out", out]
            metis = cli(*base, "--model", "metis")
            metis_refined = cli(*base, "--model", "metis", "--param", "refine=true")
            gap = {}
            for refine in ("false", "true"):
                gap[refine] = cli(*base, "--model", "gap", "--param", "checkpoint=pretrained", "--param",
                                  "iterations=0", "--param", "refine=" + refine)
            untrained = cli(*base, "--model", "gap", "--param", "iterations=0")
            cell = lambda r: "%.4g / %.3f / %.3f" % (r["edge_cut"], r["imbalance"], r["wall_s"])  # noqa: E731
            ratio = lambda r: r["edge_cut"] / max(metis["edge_cut"], 1e-300)  # noqa: E731
            print("| %s | 4 | %s | %s | %s | %s | %s | %.2f, %.2f, %.2f | %.2f |" % (
                label, cell(metis), cell(metis_refined), cell(gap["false"]), cell(gap["true"]), cell(untrained),
                ratio(gap["false"]), ratio(gap["true"]), ratio(untrained),
                gap["true"]["edge_cut"] / max(metis_refined["edge_cut"], 1e-300)), flush=True)


if __name__ == "__main__":
    main()
