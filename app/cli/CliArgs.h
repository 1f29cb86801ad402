#pragma once
// A small command-line parser: positionals, "--name value" / "--name=value" options that may
// repeat, and boolean flags; anything undeclared is an InputError.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ps::cli {

class CliArgs
{
public:
    // valued: options that take a value; flags: options that do not.
    static CliArgs parse(const std::vector<std::string> &args, const std::set<std::string> &valued,
                         const std::set<std::string> &flags);

    const std::vector<std::string> &positionals() const { return m_positionals; }
    bool flag(const std::string &name) const { return m_flags.count(name) > 0; }
    std::optional<std::string> value(const std::string &name) const;
    std::vector<std::string> values(const std::string &name) const;
    // Every valued option given, as name and value, in name order.
    const std::multimap<std::string, std::string> &options() const { return m_values; }
    // --name A,B,C: its items, empty ones left out (none when not given).
    std::vector<std::string> list(const std::string &name) const;

    // Typed values with a message naming the option when the text is not a number.
    std::optional<long long> integer(const std::string &name) const;
    std::optional<double> real(const std::string &name) const;
    // --seed: a whole number >= 0 (1 when not given).
    uint64_t seed() const;
    // The arguments again (positionals after "--"), without the options named in `drop`: to start
    // the same command in another process.
    std::vector<std::string> toArgs(const std::set<std::string> &drop) const;

private:
    std::vector<std::string> m_positionals;
    std::multimap<std::string, std::string> m_values;
    std::set<std::string> m_flags;
};

} // namespace ps::cli
