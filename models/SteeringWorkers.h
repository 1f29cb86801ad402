#pragma once
// Steering rounds spread over worker processes through torch.distributed's c10d store (a
// TCPStore kept by the steer process). The steer process publishes the graph and cluster once,
// then each round's session state and candidates; workers claim candidates one at a time, run
// them as the steer process would, and send the results back. The steer process claims
// candidates too, unless it only coordinates. A worker whose heartbeat stops loses only the
// candidates it had claimed: the steer process runs them itself. The results are those of one
// process with the same seed.
#include <memory>
#include <string>

namespace ps {

class CandidateRunner;
class Cluster;
class Graph;
class PlacerRegistry;

struct WorkerOptions
{
    std::string host = "127.0.0.1";
    int port = 29500;
    double timeoutS = 60;         // joining the store
    double heartbeatTimeoutS = 5; // a worker silent this long is taken for lost
    int waitFor = 0;              // the steer process waits (up to timeoutS) until this many have joined
    // The steer process only hands out candidates and collects them; it runs one itself only when
    // its worker was lost, or when every worker has been silent for heartbeatTimeoutS.
    bool coordinateOnly = false;
    // Fault injection for tests: a worker exits without answering after claiming this many
    // candidates (0: never). Read from PS_STEER_WORKER_DIE_AFTER by runSteeringWorker's caller.
    int dieAfter = 0;
    // Fault injection for tests: a worker waits this long (ms) between claiming a candidate and
    // naming itself its owner, as a loaded machine may. Read from PS_STEER_WORKER_CLAIM_PAUSE_MS.
    int claimPauseMs = 0;
};

// Opens the store on host:port (InputError when the port is taken), publishes the graph and
// cluster, and waits for options.waitFor workers (InputError naming how many joined). Its
// summary(): {"workers": [{"worker": "steer" or N, "candidates": C, "evaluations": E, "busy_s":
// S}, ...], "requeued": R}.
std::unique_ptr<CandidateRunner> makeWorkerRunner(const WorkerOptions &options, const Graph &graph,
                                                  const Cluster &cluster);

// A worker: joins the store on host:port (InputError when it cannot within timeoutS), loads the
// graph and cluster once, and runs candidates until the steer process ends. Returns how many it ran.
int runSteeringWorker(const WorkerOptions &options, const PlacerRegistry &registry);

} // namespace ps
