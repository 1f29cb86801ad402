#pragma once
// Errors at a boundary (a file, a command-line argument, a user edit) carry a message a person
// can act on: which file, where in it, what is wrong.
#include <cstdio>
#include <stdexcept>
#include <string>

namespace ps {

class InputError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// A run that its surroundings ended (a rank of a data-parallel run was lost): the message says
// what happened and what was kept.
class RunAborted : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

// Prefixes an InputError's message with a location ("file.json: /nodes/3: ...").
[[noreturn]] inline void rethrowWithContext(const InputError &error, const std::string &where)
{
    throw InputError(where + ": " + error.what());
}

// A number as messages print it: up to 10 significant digits, no trailing zeros ("1000000000",
// "0.25", "1e-06").
inline std::string messageNumber(double value)
{
    char text[32];
    std::snprintf(text, sizeof text, "%.10g", value);
    return text;
}

} // namespace ps
