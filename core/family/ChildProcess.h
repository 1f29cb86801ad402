#pragma once
// Runs a computation that cannot be interrupted (a library call such as METIS's) in a forked child
// process, so that a time limit or a cancel can stop it: the parent polls `stop` while it waits
// and kills the child when it turns true. Linux (POSIX fork); the child never returns into the
// caller's code: it writes its result to a pipe and ends with _exit.
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <vector>

namespace ps {

// No child could be started (no pipe, or fork refused: memory, process limits).
class ChildProcessUnavailable : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// work()'s result, or nullopt when stop() turned true first (polled every few milliseconds).
// A std::exception thrown by work() in the child is thrown again here as std::runtime_error with
// its message; a child that dies (a signal, an exit without a result) throws std::runtime_error;
// one that cannot be started throws ChildProcessUnavailable.
std::optional<std::vector<int32_t>> runInChildProcess(const std::function<std::vector<int32_t>()> &work,
                                                      const std::function<bool()> &stop);

} // namespace ps
