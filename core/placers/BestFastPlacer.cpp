// The best of the fast placers, as a family of its own: the start a graph opens with and the
// learners' warm start, so that `best-fast+local-search` is the classical pipeline a learner
// composition is measured against.
#include "core/placers/PlacerRegistry.h"

namespace ps {

namespace {

class BestFastPlacer : public Placer
{
public:
    FamilyInfo info() const override
    {
        FamilyInfo i{"best-fast",
                     "runs the fast placers (m-etf, human, m-etf-c, cpop, heft, heft-c, m-topo, single) and keeps "
                     "the placement that scores best by simulation",
                     {}};
        i.portfolio = true;
        i.fewestEvaluations = 2; // m-etf's judgement and its own
        return i;
    }

    PlacerOutput place(const PlacementProblem &problem, const ParamValues &, const RunControl &control,
                       const Placement *) const override
    {
        std::vector<PlacerResult> others;
        PlacerResult best = bestFastPlacement(problem, control, &others);
        PlacerOutput out;
        // The runners-up, for a search that races its starts (best-fast+local-search).
        out.alternatives = distinctStarts(best, others, best.placement.devices());
        out.notes.push_back("best of the fast placers: " + best.spec);
        out.notes.insert(out.notes.end(), best.notes.begin(), best.notes.end());
        out.evaluations = best.evaluations;
        out.placement = std::move(best.placement);
        return out;
    }
};

} // namespace

std::unique_ptr<Placer> makeBestFastPlacer()
{
    return std::make_unique<BestFastPlacer>();
}

} // namespace ps
