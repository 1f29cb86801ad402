#include "app/cli/Interrupt.h"

#include <csignal>
#include <cstring>
#include <unistd.h>

namespace ps::cli {

namespace {

std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");

extern "C" void onInterrupt(int signal)
{
    g_interrupted.store(true);
    std::signal(signal, SIG_DFL); // a second one ends the process
    const char message[] = "\ninterrupted: stopping and writing the best found so far (again to quit at once)\n";
    [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, message, sizeof message - 1);
}

} // namespace

const std::atomic<bool> *watchInterrupts()
{
    g_interrupted.store(false);
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    // Where SIGINT is ignored (a shell's background job), Ctrl-C is not meant for this process.
    struct sigaction before;
    if (sigaction(SIGINT, nullptr, &before) == 0 && before.sa_handler != SIG_IGN)
        sigaction(SIGINT, &action, nullptr);
    sigaction(SIGTERM, &action, nullptr);
    return &g_interrupted;
}

bool interrupted()
{
    return g_interrupted.load();
}

} // namespace ps::cli
