#pragma once
// What the app needs to start local helper processes: the command-line program, and a free
// loopback port for their rendezvous.
#include <QString>

namespace ps {

// placement-cli: $PLACEMENT_CLI, beside the app (installed), in the build tree's cli/ folder, or
// on the PATH; empty when none is found.
QString cliProgram();
// A TCP port on 127.0.0.1 that nobody listens on now.
int freeLoopbackPort();

} // namespace ps
