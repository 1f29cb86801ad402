// placement-cli place / models: run a placement family (or a composition "a+b") and list the
// families with their hyperparameters.
#include "app/cli/CliCommands.h"

#include "app/cli/CliLoad.h"
#include "app/cli/ProgressBar.h"
#include "app/cli/RunReports.h"
#include "core/InputError.h"
#include "core/io/FileKind.h"
#include "core/io/JsonText.h"
#include "core/io/PlacementJson.h"
#include "core/partitioners/Partitioner.h"
#include "core/placement/Constraints.h"
#include "core/placers/PlacerRegistry.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <ostream>

namespace ps::cli {

namespace {

using Json = nlohmann::ordered_json;

Json paramJson(const HyperParam &h)
{
    Json j{{"name", h.name}, {"type", hyperParamTypeName(h.type)}, {"description", h.description}};
    if (h.type == HyperParam::Type::Choice) {
        j["choices"] = h.choices;
        j["default"] = h.choices.at(static_cast<size_t>(h.defaultValue));
    } else if (h.type == HyperParam::Type::Bool) {
        j["default"] = h.defaultValue != 0;
    } else if (h.type == HyperParam::Type::Text) {
        j["default"] = h.defaultText;
    } else if (h.type == HyperParam::Type::Int) {
        j["min"] = static_cast<long long>(h.min);
        j["max"] = static_cast<long long>(h.max);
        j["default"] = static_cast<long long>(h.defaultValue);
    } else {
        j["min"] = h.min;
        j["max"] = h.max;
        j["default"] = h.defaultValue;
    }
    static const char *const tuning[] = {"fixed", "linear", "log"};
    j["tuning"] = tuning[static_cast<int>(h.tuning)];
    return j;
}

} // namespace

int modelsCommand(const CliArgs &args, std::ostream &out, std::ostream &)
{
    if (!args.positionals().empty())
        throw InputError("models takes no arguments");
    Json list = Json::array();
    auto add = [&](const FamilyInfo &info, const char *kind, bool refines) {
        Json params = Json::array();
        for (const HyperParam &h : info.params)
            params.push_back(paramJson(h));
        list.push_back({{"name", info.name},
                        {"kind", kind},
                        {"refines", refines},
                        {"description", info.description},
                        {"params", params}});
    };
    for (const Placer *p : PlacerRegistry::builtin().all())
        add(p->info(), "placer", p->refines());
    for (const Partitioner *p : PartitionerRegistry::builtin().all())
        add(p->info(), "partitioner", false);
    out << jsonText(list, 2) << "\n";
    return 0;
}

int placeCommand(const CliArgs &args, std::ostream &out, std::ostream &err)
{
    if (args.positionals().size() != 2)
        throw InputError("place needs GRAPH CLUSTER");
    const auto model = args.value("model");
    if (!model)
        throw InputError("place needs --model NAME (see 'placement-cli models')");
    const auto outPath = args.value("out");
    if (!outPath)
        throw InputError("place needs --out FILE.placement.json");
    requireWritableOutputs(args, {"out"});
    const Graph graph = requireGraph(args.positionals()[0], args, err);
    const Cluster cluster = requireCluster(args.positionals()[1]);
    Constraints constraints = Constraints::fromGraph(graph, cluster);
    if (auto pins = args.value("pins"))
        applyPins(*pins, graph, cluster, constraints);
    warnWhenNothingFits(graph, cluster, constraints, err);

    RunControl control = controlFromArgs(args);
    ProgressBar bar(err, *model);
    control.progress = [&bar](const Progress &p) { bar.update(p.fraction, progressMessage(p)); };
    std::vector<std::string> params = args.values("param");
    if (auto checkpoint = args.value("checkpoint")) {
        // Zero-shot: the trained policy places the graph without further training, unless
        // --param iterations=N asks for fine-tuning.
        params.insert(params.begin(), "checkpoint=" + *checkpoint);
        params.insert(params.begin(), "iterations=0");
    }
    if (auto e = args.integer("evaluations")) {
        if (*e < 1)
            throw InputError("--evaluations needs a positive number of simulator runs");
        control.budget.maxEvaluations = *e;
        // A budget smaller than the run's fixed costs could not be kept (gdp spent 3 of 1).
        const std::string first = compositionStages(*model).front();
        if (const Placer *p = PlacerRegistry::builtin().find(first); p && *e < p->info().fewestEvaluations)
            throw InputError("--evaluations " + std::to_string(*e) + " is fewer than any run of " + first +
                             " costs: at least " + std::to_string(p->info().fewestEvaluations) +
                             " simulator runs (its fixed costs, such as a warm start, a start or a first layout, "
                             "and the judgement of its result)");
    }
    const Objective objective = Objective::parse(args.value("objective").value_or(""));
    std::optional<Placement> start;
    if (auto startPath = args.value("start")) {
        // Refused before the file is read and said to be taken (its note came before the refusal).
        checkPlacerSpec(PlacerRegistry::builtin(), *model, params, true);
        start = requirePlacement(*startPath, graph, cluster, err);
    }
    const PlacementProblem problem{graph, cluster, constraints, objective};
    const PlacerResult r =
        runPlacer(PlacerRegistry::builtin(), *model, problem, params, control, start ? &*start : nullptr);
    bar.finish();
    const Json report = writePlacementResult(r, graph, cluster, *outPath);
    out << jsonText(report) << "\n";
    return 0;
}

} // namespace ps::cli
