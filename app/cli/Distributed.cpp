#include "app/cli/Distributed.h"

#include "core/InputError.h"

#include <arpa/inet.h>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <fcntl.h>
#include <netinet/in.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <tuple>
#include <unistd.h>

extern char **environ;

namespace ps::cli {

namespace {

std::optional<std::string> env(const char *name)
{
    const char *v = std::getenv(name);
    return v && *v ? std::optional<std::string>(v) : std::nullopt;
}

long long integerOf(const std::string &text, const std::string &what)
{
    char *end = nullptr;
    errno = 0;
    const long long v = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno != 0)
        throw InputError(what + " needs a whole number, not '" + text + "'");
    return v;
}

} // namespace

int freeLoopbackPort()
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr *>(&addr), &len) != 0) {
        if (fd >= 0)
            ::close(fd);
        throw InputError("--launch: no free TCP port on 127.0.0.1");
    }
    ::close(fd);
    return ntohs(addr.sin_port);
}

std::pair<std::string, int> hostPort(const std::string &text, const std::string &option)
{
    const size_t colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0)
        throw InputError(option + " needs HOST:PORT, not '" + text + "'");
    const long long port = integerOf(text.substr(colon + 1), option + "'s port");
    if (port < 1 || port > 65535)
        throw InputError(option + "'s port must be from 1 to 65535, not " + std::to_string(port));
    return {text.substr(0, colon), static_cast<int>(port)};
}

Distribution distributionFromArgs(const CliArgs &args, const std::string &fingerprint)
{
    Distribution d;
    d.fingerprint = fingerprint;
    if (auto t = args.real("dist-timeout")) {
        if (*t <= 0)
            throw InputError("--dist-timeout needs a positive number of seconds");
        d.timeoutS = *t;
    }
    if (auto n = args.integer("launch")) {
        if (*n < 1 || *n > 64)
            throw InputError("--launch needs 1 to 64 local processes");
        if (args.value("world-size") || args.value("rank") || args.value("master"))
            throw InputError("--launch starts its own ranks; leave out --world-size, --rank and --master");
        d.worldSize = static_cast<int>(*n);
        d.masterPort = d.worldSize > 1 ? freeLoopbackPort() : d.masterPort;
        return d;
    }
    auto pick = [&](const char *option, const char *variable) -> std::optional<std::string> {
        if (auto v = args.value(option))
            return v;
        return env(variable);
    };
    if (auto w = pick("world-size", "WORLD_SIZE"))
        d.worldSize = static_cast<int>(integerOf(*w, "--world-size (WORLD_SIZE)"));
    if (auto r = pick("rank", "RANK"))
        d.rank = static_cast<int>(integerOf(*r, "--rank (RANK)"));
    if (d.worldSize < 1 || d.worldSize > 4096)
        throw InputError("--world-size must be from 1 to 4096, not " + std::to_string(d.worldSize));
    if (d.rank < 0 || d.rank >= d.worldSize)
        throw InputError("--rank " + std::to_string(d.rank) + " is outside a world of " + std::to_string(d.worldSize) +
                         " (ranks 0 to " + std::to_string(d.worldSize - 1) + ")");
    if (auto m = args.value("master")) {
        std::tie(d.masterHost, d.masterPort) = hostPort(*m, "--master");
    } else {
        if (auto host = env("MASTER_ADDR"))
            d.masterHost = *host;
        if (auto port = env("MASTER_PORT"))
            d.masterPort = static_cast<int>(integerOf(*port, "MASTER_PORT"));
    }
    if (d.masterPort < 1 || d.masterPort > 65535)
        throw InputError("the master's port must be from 1 to 65535, not " + std::to_string(d.masterPort));
    return d;
}

std::vector<std::vector<std::string>> rankCommands(const std::string &command, const CliArgs &args,
                                                   const Distribution &rank0, const std::vector<std::string> &extra)
{
    const std::vector<std::string> common = args.toArgs({"launch", "world-size", "rank", "master"});
    std::vector<std::vector<std::string>> out;
    for (int r = 1; r < rank0.worldSize; ++r) {
        std::vector<std::string> argv{command, "--world-size=" + std::to_string(rank0.worldSize),
                                      "--rank=" + std::to_string(r),
                                      "--master=127.0.0.1:" + std::to_string(rank0.masterPort)};
        argv.insert(argv.end(), extra.begin(), extra.end());
        argv.insert(argv.end(), common.begin(), common.end());
        out.push_back(std::move(argv));
    }
    return out;
}

LocalWorkers::LocalWorkers(const std::vector<std::vector<std::string>> &commands)
{
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    for (const std::vector<std::string> &command : commands) {
        std::vector<std::string> argv{"placement-cli"};
        argv.insert(argv.end(), command.begin(), command.end());
        std::vector<char *> raw;
        for (std::string &a : argv)
            raw.push_back(a.data());
        raw.push_back(nullptr);
        pid_t pid = 0;
        if (posix_spawn(&pid, "/proc/self/exe", &actions, nullptr, raw.data(), environ) != 0) {
            posix_spawn_file_actions_destroy(&actions);
            throw InputError("--launch: could not start local process " + std::to_string(m_pids.size() + 1));
        }
        m_pids.push_back(pid);
    }
    posix_spawn_file_actions_destroy(&actions);
}

LocalWorkers::~LocalWorkers()
{
    for (pid_t pid : m_pids) {
        ::kill(pid, SIGTERM);
        ::waitpid(pid, nullptr, 0);
    }
}

std::string LocalWorkers::join(double graceS)
{
    using Clock = std::chrono::steady_clock;
    const Clock::time_point deadline =
        std::isfinite(graceS) ? Clock::now() + std::chrono::milliseconds(static_cast<long long>(graceS * 1000))
                              : Clock::time_point::max();
    std::string failed;
    for (size_t i = 0; i < m_pids.size(); ++i) {
        int status = 0;
        bool stopped = false; // by us, after the grace: not a failure
        while (::waitpid(m_pids[i], &status, WNOHANG) == 0) {
            if (Clock::now() >= deadline) {
                ::kill(m_pids[i], SIGTERM);
                ::waitpid(m_pids[i], &status, 0);
                stopped = true;
                break;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
        if (failed.empty() && !stopped && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
            failed = "local process " + std::to_string(i + 1) + " ended with " +
                     (WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                        : "signal " + std::to_string(WTERMSIG(status)));
    }
    m_pids.clear();
    return failed;
}

} // namespace ps::cli
