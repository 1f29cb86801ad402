#include "app/cli/CliCommands.h"

#include "app/cli/Interrupt.h"
#include "core/InputError.h"
#include "models/ModelImporters.h"

#include <exception>
#include <iostream>
#include <new>
#include <string_view>

namespace ps::cli {

namespace {

constexpr const char *kModelFileHelp =
    "GRAPH may be a model file (.onnx, .pt) too: --batch N and --input-shape DIMS fix its shapes, as for info\n";

// The options of a command whose GRAPH may be a model file (.onnx, .pt), beside its own.
std::set<std::string> withModelOptions(std::set<std::string> valued)
{
    valued.insert({"batch", "input-shape"});
    return valued;
}

} // namespace

const std::vector<Command> &commands()
{
    static const std::vector<Command> list = {
        {"info",
         "FILE [--batch N] [--input-shape DIMS]...",
         "print a JSON summary of a graph (also .onnx, .pt), cluster, placement or partition file",
         {"batch", "input-shape"},
         {},
         infoCommand},
        {"validate",
         "FILE...",
         "check files, and check a graph against the cluster, placement or partition given with it (a\n"
         "      placement, or a partition as part i on device i, that breaks memory or pins there is said to\n"
         "      be infeasible)",
         {"batch", "input-shape"},
         {},
         validateCommand},
        {"convert",
         "IN OUT [--cluster C --placement P] [--graph G] [--metis-memory] [--batch N] [--input-shape DIMS]...",
         "convert between formats, chosen by extension (JSON, .gz, DOT, METIS, CSV; .onnx and .pt in); a METIS "
         "partition (.part.K) to or from partition JSON takes --graph G, the graph it partitions",
         {"cluster", "placement", "graph", "batch", "input-shape"},
         {"metis-memory"},
         convertCommand},
        {"simulate",
         "GRAPH CLUSTER PLACEMENT [--ops] [--repeat N]",
         "simulate a placement (spec section 5; a partition file places part i on device i); --repeat N also "
         "times N runs (sim_ms)",
         withModelOptions({"repeat"}),
         {"ops"},
         simulateCommand},
        {"bound", "GRAPH CLUSTER", "the makespan lower bound (spec section 7)", withModelOptions({}), {}, boundCommand},
        {"metrics",
         "GRAPH PARTITION",
         "edge cut, imbalance and normalized cut of a partition",
         withModelOptions({}),
         {},
         metricsCommand},
        {"models", "", "list the model families and their hyperparameters (JSON)", {}, {}, modelsCommand},
        {"place",
         "GRAPH CLUSTER --model NAME[+NAME...] [--param key=value]... [--seed N] "
         "[--time-limit S] [--evaluations E] [--objective W] [--pins FILE] [--checkpoint FILE] "
         "[--start P.placement.json] --out P.placement.json",
         "place a graph with a model family (gap too: its partition, part i on device i) or a composition "
         "such as heft+local-search; --checkpoint: a trained policy, zero-shot",
         withModelOptions({"model", "param", "seed", "time-limit", "evaluations", "objective", "pins", "checkpoint",
                           "start", "out"}),
         {},
         placeCommand},
        {"train",
         "--model NAME GRAPH CLUSTER [--graphs G1,G2...] [--iterations N] [--time-limit S] "
         "[--device auto|cpu|cuda] [--checkpoint OUT] [--curve CSV] [--pins FILE] [--param key=value]... --out P "
         "(gap: GRAPH --k K) [--launch N | --world-size N --rank R --master HOST:PORT] [--dist-timeout S]",
         "train a learned model (gap, rl-seq2seq, gdp, giph): progress line, convergence curve, checkpoint; "
         "data-parallel over N processes (torch.distributed, Gloo; or WORLD_SIZE, RANK, MASTER_ADDR, MASTER_PORT)",
         withModelOptions({"model", "graphs", "iterations", "time-limit", "device", "checkpoint", "curve", "param",
                           "seed", "k", "out", "pins", "launch", "world-size", "rank", "master", "dist-timeout"}),
         {},
         trainCommand},
        {"steer",
         "GRAPH CLUSTER [--rounds N] [--per-round K] [--evaluations E] [--objective makespan=1,bytes=0.2,"
         "memory=0,balance=0,preference=1,important=1] [--pins FILE] [--feedback FILE] [--families LIST] [--seed N] "
         "[--threads T] [--searches S] [--ensemble M] [--uniform | --random-search] [--replay LOG] [--out "
         "BEST.placement.json] [--log "
         "STEER.json] "
         "[--workers HOST:PORT [--min-workers N] | --launch N] [--worker-timeout S] [--coordinate-only]",
         "steer many model families at once: rounds of candidates (E simulator runs in all), feedback scripted "
         "from a file, an ensemble; --replay LOG reruns a log and checks it reproduces; --workers/--launch: "
         "candidates also run in worker processes (steer-worker), with the same results; --coordinate-only: "
         "only there (this process runs a candidate only when its worker is lost); --uniform: hyperparameters drawn "
         "uniformly instead of by the predictor (the tuned defaults still run first); --random-search: every "
         "candidate's drawn uniformly; --threads T: candidates at once (default: the machine's cores; the results "
         "are the same on any number), --searches S: local searches (and learned runs) a round holds at most "
         "(default T where --threads is given, else 1; the figures in docs/ are at 1)",
         withModelOptions({"rounds", "per-round", "evaluations", "objective", "pins", "feedback", "families", "seed",
                           "threads", "searches", "ensemble", "replay", "out", "log", "workers", "min-workers",
                           "launch", "worker-timeout"}),
         {"uniform", "random-search", "coordinate-only"},
         steerCommand},
        {"steer-worker",
         "--master HOST:PORT [--dist-timeout S]",
         "run steering candidates for `steer --workers HOST:PORT` until it ends (loads the graph once)",
         {"master", "dist-timeout"},
         {},
         steerWorkerCommand},
        {"rank",
         "STEER.json [--objective W] [--top N]",
         "re-rank a steering log under other objective weights, without simulating (0 simulations)",
         {"objective", "top"},
         {},
         rankCommand},
        {"partition",
         "GRAPH --k K --model NAME [--param key=value]... [--imbalance 1.03] [--seed N] [--time-limit S] "
         "--out P.partition.json",
         "partition a graph (metis, spectral, gap) and print edge cut, imbalance, normalized cut and notes",
         withModelOptions({"k", "model", "param", "imbalance", "seed", "time-limit", "out"}),
         {},
         partitionCommand},
        {"generate",
         "NAME [--set key=value]... [--seed N] --out FILE",
         "generate a built-in graph (" + generatorNames() + "; see docs/models.md for parameters)",
         {"set", "seed", "out"},
         {},
         generateCommand},
    };
    return list;
}

namespace {

void printHelp(std::ostream &out)
{
    out << "placement-cli " << PS_VERSION
        << " - place and partition neural-network graphs on device clusters\n\n"
           "usage: placement-cli COMMAND [ARGS]\n\ncommands:\n";
    for (const Command &c : commands())
        out << "  " << c.name << " " << c.usage << "\n      " << c.summary << "\n";
    out << "\n"
        << kModelFileHelp
        << "options: --help, --version\n"
           "exit status: 0 success, 2 invalid input (one line 'error: ...' on stderr), 3 a run ended by "
           "a lost rank (the same), 1 internal failure\n";
}

} // namespace

int run(const std::vector<std::string> &args, std::ostream &out, std::ostream &err)
{
    try {
        if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
            printHelp(out);
            return args.empty() ? 2 : 0;
        }
        if (args[0] == "--version") {
            out << "placement-cli " << PS_VERSION << "\n" << learnerRuntime() << "\n";
            return 0;
        }
        for (const Command &c : commands()) {
            if (args[0] != c.name)
                continue;
            std::vector<std::string> rest(args.begin() + 1, args.end());
            for (const std::string &a : rest)
                if (a == "--help" || a == "-h") {
                    out << "usage: placement-cli " << c.name << " " << c.usage << "\n" << c.summary << "\n";
                    if (c.valued.count("batch") && std::string_view(c.usage).find("--batch") == std::string_view::npos)
                        out << kModelFileHelp;
                    return 0;
                }
            const int status = c.run(CliArgs::parse(rest, c.valued, c.flags), out, err);
            if (interrupted()) {
                err << "interrupted: what was found before it stopped is written\n";
                return 130;
            }
            return status;
        }
        throw InputError("unknown command '" + args[0] + "' (try --help)");
    } catch (const InputError &e) {
        std::string message = e.what();
        for (char &c : message)
            if (c == '\n' || c == '\r')
                c = ' ';
        err << "error: " << message << "\n";
        return 2;
    } catch (const RunAborted &e) {
        err << "error: " << e.what() << "\n";
        return 3;
    } catch (const std::bad_alloc &) {
        err << "internal error: out of memory\n";
        return 1;
    } catch (const std::exception &e) {
        err << "internal error: " << e.what() << "\n";
        return 1;
    }
}

} // namespace ps::cli
