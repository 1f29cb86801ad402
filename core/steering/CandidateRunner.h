#pragma once
// Where a steering round's candidates run. By default the session runs them on its own threads;
// a runner spreads them over worker processes instead (models/ has one on torch.distributed's
// c10d store). A worker rebuilds the session from its log (`state`, as steeringLogJson writes
// it: settings, candidates and feedback, so the same pins, preferences and weights) and runs each
// candidate as SteeringSession::runCandidate does, so the results are those of one process.
#include "core/family/ModelFamily.h"
#include "core/steering/SteeringTypes.h"

#include <functional>
#include <string>
#include <vector>

namespace ps {

class CandidateRunner
{
public:
    virtual ~CandidateRunner() = default;
    // Fills every candidate's result (or its error; "cancelled" when the control was cancelled
    // before it ran). `local` runs one candidate in this process (the runner's own share, and any
    // whose worker was lost) and reports it; `remote` reports one that a worker ran.
    virtual void run(std::vector<Candidate> &batch, const std::string &state,
                     const std::function<void(Candidate &)> &local,
                     const std::function<void(const Candidate &)> &remote, const RunControl &control) = 0;
    // What each process ran so far, as JSON text (empty object: nothing to say).
    virtual std::string summary() const { return "{}"; }
};

} // namespace ps
