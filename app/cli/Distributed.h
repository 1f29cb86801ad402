#pragma once
// Data-parallel runs from the command line: which rank this process is (--world-size, --rank,
// --master HOST:PORT, or the usual WORLD_SIZE, RANK, MASTER_ADDR, MASTER_PORT), what every rank
// must agree on (the fingerprint), and --launch N, which starts ranks 1..N-1 as local processes.
#include "app/cli/CliArgs.h"
#include "core/family/ModelFamily.h"

#include <limits>
#include <string>
#include <sys/types.h>
#include <vector>

namespace ps::cli {

// The argument lists of ranks 1..N-1 of a --launch training run: this command's arguments with
// their rank, the world size and the master, plus `extra`.
std::vector<std::vector<std::string>> rankCommands(const std::string &command, const CliArgs &args,
                                                   const Distribution &rank0, const std::vector<std::string> &extra);

// The options a distributed command declares.
inline const std::set<std::string> &distributedOptions()
{
    static const std::set<std::string> names{"world-size", "rank", "master", "launch", "dist-timeout"};
    return names;
}

// The rank of this process (a world of 1 when nothing is given). With --launch N: rank 0 of N on
// a free loopback port. Bad values are InputErrors naming the option.
Distribution distributionFromArgs(const CliArgs &args, const std::string &fingerprint);

// A TCP port on 127.0.0.1 that is free now.
int freeLoopbackPort();
// "HOST:PORT" (InputError naming the option when it is not).
std::pair<std::string, int> hostPort(const std::string &text, const std::string &option);

// Local processes of a --launch run (ranks 1..N-1 of a training run, or steering workers),
// started as children of this process: placement-cli with each argument list. Their standard
// output is discarded (this process reports), their errors are shown.
class LocalWorkers
{
public:
    explicit LocalWorkers(const std::vector<std::vector<std::string>> &commands);
    ~LocalWorkers(); // stops workers not yet joined (rank 0 failed)
    LocalWorkers(const LocalWorkers &) = delete;
    LocalWorkers &operator=(const LocalWorkers &) = delete;
    // Waits for every worker (at most graceS seconds, after which the rest are stopped, which is
    // not a failure); the message of the first that failed on its own, or empty.
    std::string join(double graceS = std::numeric_limits<double>::infinity());

private:
    std::vector<pid_t> m_pids;
};

} // namespace ps::cli
