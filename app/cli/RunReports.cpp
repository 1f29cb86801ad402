#include "app/cli/RunReports.h"

#include "app/cli/CliArgs.h"
#include "app/cli/Interrupt.h"
#include "core/InputError.h"
#include "core/io/FileBytes.h"
#include "core/io/JsonText.h"
#include "core/io/PlacementJson.h"
#include "core/placement/Placement.h"
#include "core/sim/PartitionMetrics.h"

#include <cmath>
#include <cstdio>

namespace ps::cli {

using Json = nlohmann::ordered_json;

RunControl controlFromArgs(const CliArgs &args)
{
    RunControl control;
    control.cancel = watchInterrupts(); // Ctrl-C stops the run with the best it has
    control.seed = args.seed();
    if (auto limit = args.real("time-limit")) {
        if (*limit <= 0)
            throw InputError("--time-limit needs a positive number of seconds");
        control.budget.timeLimitS = *limit;
    }
    return control;
}

Json writePlacementResult(const PlacerResult &r, const Graph &graph, const Cluster &cluster, const std::string &outPath)
{
    Json metrics{{"makespan_s", r.makespan},
                 {"lower_bound_s", r.lowerBound},
                 {"ratio", r.lowerBound > 0 ? r.makespan / r.lowerBound : 1.0},
                 {"feasible", r.feasible},
                 {"violations", r.violations},
                 {"score", r.score},
                 {"moved_bytes", r.terms.movedBytes},
                 {"peak_memory_share", r.terms.peakMemoryShare},
                 {"imbalance_s", r.terms.imbalance},
                 {"wall_s", r.wallS},
                 {"evaluations", r.evaluations},
                 {"seed", r.seed}};
    writePlacementJson(outPath, toDoc(r.placement, graph, cluster), jsonText(metrics));
    Json report = metrics;
    report["notes"] = r.notes;
    report["out"] = outPath;
    return report;
}

Json writePartitionResult(const Partition &p, const Graph &graph, double wallS, const std::string &outPath)
{
    writePartitionJson(outPath, toDoc(p, graph));
    const PartitionMetrics m = partitionMetrics(graph, p.parts(), p.k());
    return Json{{"edge_cut", m.edgeCut},
                {"imbalance", m.imbalance},
                {"normalized_cut", m.normalizedCut},
                {"parts_used", p.partsUsed()},
                {"wall_s", wallS},
                {"notes", p.notes},
                {"out", outPath}};
}

std::string progressMessage(const Progress &p)
{
    if (p.iteration < 0)
        return p.message;
    char buf[200];
    int n = std::snprintf(buf, sizeof buf, "it %d", p.iteration + 1);
    if (std::isfinite(p.sampleMean))
        n += std::snprintf(buf + n, sizeof buf - n, "  sampled %.4g ms (best %.4g)", p.sampleMean * 1e3,
                           p.sampleBest * 1e3);
    if (std::isfinite(p.bestMakespan))
        n += std::snprintf(buf + n, sizeof buf - n, "  best %.4g ms", p.bestMakespan * 1e3);
    if (std::isfinite(p.loss))
        n += std::snprintf(buf + n, sizeof buf - n, "  loss %.4g", p.loss);
    if (std::isfinite(p.entropy))
        std::snprintf(buf + n, sizeof buf - n, "  H %.3g", p.entropy);
    return buf;
}

void ConvergenceCurve::add(const Progress &p)
{
    if (p.iteration >= 0)
        m_rows.push_back(p);
}

void ConvergenceCurve::write(const std::string &path) const
{
    std::string text = "iteration,wall_s,evaluations,sample_mean_s,sample_best_s,best_feasible_s,loss,entropy,"
                       "best_found_at,improvements\n";
    auto number = [](double x) {
        if (!std::isfinite(x))
            return std::string();
        char buf[40];
        std::snprintf(buf, sizeof buf, "%.9g", x);
        return std::string(buf);
    };
    for (const Progress &p : m_rows) {
        text += std::to_string(p.iteration) + "," + number(p.wallS) + "," + std::to_string(p.evaluations) + "," +
                number(p.sampleMean) + "," + number(p.sampleBest) + "," + number(p.bestMakespan) + "," +
                number(p.loss) + "," + number(p.entropy) + "," +
                (p.bestFoundAt >= 0 ? std::to_string(p.bestFoundAt) : std::string()) + ",";
        // "run:makespan" for each improvement of the row's iteration, ';' between them.
        for (size_t i = 0; i < p.improvements.size(); ++i)
            text += (i ? ";" : "") + std::to_string(p.improvements[i].first) + ":" + number(p.improvements[i].second);
        text += "\n";
    }
    writeFileAtomic(path, text);
}

} // namespace ps::cli
