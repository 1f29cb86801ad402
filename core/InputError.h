#pragma once
// Errors at a boundary (a file, a command-line argument, a user edit) carry a message a person
// can act on: which file, where in it, what is wrong.
#include <stdexcept>
#include <string>

namespace ps {

class InputError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// Prefixes an InputError's message with a location ("file.json: /nodes/3: ...").
[[noreturn]] inline void rethrowWithContext(const InputError &error, const std::string &where)
{
    throw InputError(where + ": " + error.what());
}

} // namespace ps
