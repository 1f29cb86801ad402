#include "app/cli/CliArgs.h"

#include "core/InputError.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace ps::cli {

CliArgs CliArgs::parse(const std::vector<std::string> &args, const std::set<std::string> &valued,
                       const std::set<std::string> &flags)
{
    CliArgs result;
    bool onlyPositionals = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string &arg = args[i];
        if (onlyPositionals || arg.size() < 3 || arg.compare(0, 2, "--") != 0) {
            if (arg == "--") {
                onlyPositionals = true;
                continue;
            }
            if (!onlyPositionals && arg.size() > 1 && arg[0] == '-')
                throw InputError("unknown option '" + arg + "' (try --help)");
            result.m_positionals.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2), value;
        bool inlineValue = false;
        if (size_t eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name.resize(eq);
            inlineValue = true;
        }
        if (flags.count(name)) {
            if (inlineValue)
                throw InputError("option --" + name + " takes no value");
            result.m_flags.insert(name);
        } else if (valued.count(name)) {
            if (!inlineValue) {
                if (i + 1 >= args.size())
                    throw InputError("option --" + name + " needs a value");
                value = args[++i];
            }
            result.m_values.emplace(name, value);
        } else {
            throw InputError("unknown option '--" + name + "' (try --help)");
        }
    }
    return result;
}

std::vector<std::string> CliArgs::toArgs(const std::set<std::string> &drop) const
{
    std::vector<std::string> out;
    for (const auto &[name, value] : m_values)
        if (!drop.count(name))
            out.push_back("--" + name + "=" + value);
    for (const std::string &f : m_flags)
        if (!drop.count(f))
            out.push_back("--" + f);
    out.push_back("--");
    out.insert(out.end(), m_positionals.begin(), m_positionals.end());
    return out;
}

std::optional<std::string> CliArgs::value(const std::string &name) const
{
    auto range = m_values.equal_range(name);
    if (range.first == range.second)
        return std::nullopt;
    return std::prev(range.second)->second; // the last one wins
}

std::vector<std::string> CliArgs::list(const std::string &name) const
{
    std::vector<std::string> items;
    const std::string text = value(name).value_or("");
    for (size_t start = 0; start <= text.size();) {
        const size_t comma = std::min(text.find(',', start), text.size());
        if (comma > start)
            items.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return items;
}

std::vector<std::string> CliArgs::values(const std::string &name) const
{
    std::vector<std::string> out;
    for (auto [it, end] = m_values.equal_range(name); it != end; ++it)
        out.push_back(it->second);
    return out;
}

std::optional<long long> CliArgs::integer(const std::string &name) const
{
    auto text = value(name);
    if (!text)
        return std::nullopt;
    errno = 0;
    char *end = nullptr;
    long long v = std::strtoll(text->c_str(), &end, 10);
    if (text->empty() || *end != '\0' || errno == ERANGE)
        throw InputError("--" + name + " needs an integer, not '" + *text + "'");
    return v;
}

uint64_t CliArgs::seed() const
{
    const long long s = integer("seed").value_or(1);
    if (s < 0)
        throw InputError("--seed needs a whole number >= 0, not '" + *value("seed") + "'");
    return static_cast<uint64_t>(s);
}

std::optional<double> CliArgs::real(const std::string &name) const
{
    auto text = value(name);
    if (!text)
        return std::nullopt;
    char *end = nullptr;
    double v = std::strtod(text->c_str(), &end);
    if (text->empty() || *end != '\0' || !std::isfinite(v))
        throw InputError("--" + name + " needs a number, not '" + *text + "'");
    return v;
}

} // namespace ps::cli
