#include "core/family/ChildProcess.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <poll.h>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace ps {

namespace {

constexpr int kPollMs = 5;

bool writeAll(int fd, const void *data, size_t bytes)
{
    const char *p = static_cast<const char *>(data);
    while (bytes > 0) {
        const ssize_t n = ::write(fd, p, bytes);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        bytes -= static_cast<size_t>(n);
    }
    return true;
}

// In the child: standard output to /dev/null (a library's chatter must not reach the CLI's JSON
// report), the work, its result as a count and the values (or -1, the length and an error
// message), then _exit: no destructor or atexit handler of the parent's runs here.
[[noreturn]] void runChild(int fd, const std::function<std::vector<int32_t>()> &work)
{
    const int null = ::open("/dev/null", O_WRONLY);
    if (null >= 0)
        ::dup2(null, STDOUT_FILENO);
    int status = 0;
    try {
        const std::vector<int32_t> result = work();
        const int64_t count = static_cast<int64_t>(result.size());
        if (!writeAll(fd, &count, sizeof count) || !writeAll(fd, result.data(), result.size() * sizeof(int32_t)))
            status = 2;
    } catch (const std::exception &e) {
        const int64_t failed = -1;
        const std::string what = e.what();
        const int64_t length = static_cast<int64_t>(what.size());
        writeAll(fd, &failed, sizeof failed);
        writeAll(fd, &length, sizeof length);
        writeAll(fd, what.data(), what.size());
        status = 1;
    } catch (...) {
        status = 3;
    }
    ::close(fd);
    ::_exit(status);
}

int waitFor(pid_t pid)
{
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    return status;
}

} // namespace

std::optional<std::vector<int32_t>> runInChildProcess(const std::function<std::vector<int32_t>()> &work,
                                                      const std::function<bool()> &stop)
{
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0)
        throw ChildProcessUnavailable(std::string("cannot make a pipe for a child process: ") + std::strerror(errno));
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int error = errno;
        ::close(fds[0]);
        ::close(fds[1]);
        throw ChildProcessUnavailable(std::string("cannot start a child process: ") + std::strerror(error));
    }
    if (pid == 0) {
        ::close(fds[0]);
        runChild(fds[1], work);
    }
    ::close(fds[1]);
    std::string bytes;
    char buffer[65536];
    pollfd readable{fds[0], POLLIN, 0};
    for (;;) {
        if (stop()) {
            ::kill(pid, SIGKILL);
            ::close(fds[0]);
            waitFor(pid);
            return std::nullopt;
        }
        const int ready = ::poll(&readable, 1, kPollMs);
        if (ready < 0 && errno != EINTR) {
            const int error = errno;
            ::kill(pid, SIGKILL);
            ::close(fds[0]);
            waitFor(pid);
            throw std::runtime_error(std::string("cannot wait for a child process: ") + std::strerror(error));
        }
        if (ready <= 0)
            continue;
        const ssize_t n = ::read(fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break; // end of the child's output (or an error reading it: judged below)
        bytes.append(buffer, static_cast<size_t>(n));
    }
    ::close(fds[0]);
    const int status = waitFor(pid);
    int64_t count = 0;
    if (bytes.size() >= sizeof count)
        std::memcpy(&count, bytes.data(), sizeof count);
    if (count == -1 && bytes.size() >= 2 * sizeof count) {
        int64_t length = 0;
        std::memcpy(&length, bytes.data() + sizeof count, sizeof length);
        throw std::runtime_error(bytes.substr(2 * sizeof count, static_cast<size_t>(std::max<int64_t>(0, length))));
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && count >= 0 &&
        bytes.size() == sizeof count + static_cast<size_t>(count) * sizeof(int32_t)) {
        std::vector<int32_t> result(static_cast<size_t>(count));
        std::memcpy(result.data(), bytes.data() + sizeof count, result.size() * sizeof(int32_t));
        return result;
    }
    if (WIFSIGNALED(status))
        throw std::runtime_error("a child process died of signal " + std::to_string(WTERMSIG(status)) + " (" +
                                 strsignal(WTERMSIG(status)) + ")");
    throw std::runtime_error("a child process ended without its result (exit status " +
                             std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) + ")");
}

} // namespace ps
