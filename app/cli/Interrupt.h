#pragma once
// Ctrl-C (SIGINT) or SIGTERM while a command runs a model (place, partition, train, steer): the
// first asks the run to stop and hand back the best it has, which the command writes as it would
// have at the end (the exit status is then 130); a second ends the process at once. Where SIGINT
// is ignored (a shell's background job), it stays ignored.
#include <atomic>

namespace ps::cli {

// Clears the flag and installs the handlers; the flag to give a RunControl as its cancel flag.
const std::atomic<bool> *watchInterrupts();
// Whether an interrupt came since watchInterrupts().
bool interrupted();

} // namespace ps::cli
