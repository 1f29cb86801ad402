// Fuzzes the steering readers: the first byte picks a steering log, a candidate task (what a
// worker is sent) with a result for it, or a feedback file. What is read is written again, and
// that text must read back, to the same text.
#include "core/InputError.h"
#include "core/steering/SteeringLog.h"

#include <cstddef>
#include <cstdint>
#include <functional>

namespace {

// `read` of the input, written: what `again` (reading that text and writing it) must give back.
void sameAfterWriting(const std::function<std::string()> &read,
                      const std::function<std::string(const std::string &)> &again)
{
    std::string once;
    try {
        once = read();
    } catch (const ps::InputError &) {
        return; // refused with a message: fine
    }
    try {
        if (again(once) != once)
            __builtin_trap();
    } catch (...) { // what we wrote does not read back
        __builtin_trap();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const std::string text(reinterpret_cast<const char *>(data) + 1, size - 1);
    switch (data[0] % 3) {
    case 0:
        sameAfterWriting([&] { return ps::steeringLogJson(ps::parseSteeringLog(text, "fuzz")); },
                         [](const std::string &log) { return ps::steeringLogJson(ps::parseSteeringLog(log, "fuzz")); });
        break;
    case 1: { // a task, then (after a line break) a result for it
        const size_t cut = text.find('\n');
        sameAfterWriting([&] { return ps::candidateTaskJson(ps::candidateFromTask(text.substr(0, cut))); },
                         [](const std::string &task) { return ps::candidateTaskJson(ps::candidateFromTask(task)); });
        if (cut == std::string::npos)
            break;
        auto result = [](const std::string &task, const std::string &resultText) {
            ps::Candidate c = ps::candidateFromTask(task);
            ps::readCandidateResult(resultText, c);
            return ps::candidateResultJson(c);
        };
        sameAfterWriting([&] { return result(text.substr(0, cut), text.substr(cut + 1)); },
                         [&](const std::string &written) { return result(text.substr(0, cut), written); });
        break;
    }
    default: try { ps::parseFeedback(text, "fuzz");
        } catch (const ps::InputError &) {}
    }
    return 0;
}
