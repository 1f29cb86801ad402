#pragma once
// Data-parallel runs from the command line: which rank this process is (--world-size, --rank,
// --master HOST:PORT, or the usual WORLD_SIZE, RANK, MASTER_ADDR, MASTER_PORT), what every rank
// must agree on (the fingerprint), and --launch N, which starts ranks 1..N-1 as local processes.
#include "app/cli/CliArgs.h"
#include "core/family/ModelFamily.h"

#include <string>
#include <sys/types.h>
#include <vector>

namespace ps::cli {

// The options a distributed command declares.
inline const std::set<std::string> &distributedOptions()
{
    static const std::set<std::string> names{"world-size", "rank", "master", "launch", "dist-timeout"};
    return names;
}

// The rank of this process (a world of 1 when nothing is given). With --launch N: rank 0 of N on
// a free loopback port. Bad values are InputErrors naming the option.
Distribution distributionFromArgs(const CliArgs &args, const std::string &fingerprint);

// "key=value" lines: each file's name and a hash of its bytes, then the given pairs.
std::string fingerprintOf(const std::vector<std::pair<std::string, std::string>> &files,
                          const std::vector<std::pair<std::string, std::string>> &values);

// Ranks 1..N-1 of a --launch run, started as children of this process with the same command and
// arguments (and `extra` ones); their standard output is discarded (rank 0 reports), their
// errors are shown.
class LocalWorkers
{
public:
    LocalWorkers(const std::string &command, const CliArgs &args, const Distribution &rank0,
                 const std::vector<std::string> &extra = {});
    ~LocalWorkers(); // stops workers not yet joined (rank 0 failed)
    LocalWorkers(const LocalWorkers &) = delete;
    LocalWorkers &operator=(const LocalWorkers &) = delete;
    // Waits for every worker; the message of the first that failed, or empty.
    std::string join();

private:
    std::vector<pid_t> m_pids;
};

} // namespace ps::cli
