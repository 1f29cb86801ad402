#pragma once
// A registry of model families of one kind (placers or partitioners), found by name.
#include "core/InputError.h"

#include <memory>
#include <string>
#include <vector>

namespace ps {

template <typename Family>
class FamilyRegistry
{
public:
    void add(std::unique_ptr<Family> family) { m_families.push_back(std::move(family)); }

    const Family *find(const std::string &name) const
    {
        for (const auto &f : m_families)
            if (f->info().name == name)
                return f.get();
        return nullptr;
    }

    std::vector<const Family *> all() const
    {
        std::vector<const Family *> out;
        for (const auto &f : m_families)
            out.push_back(f.get());
        return out;
    }

    // The family, or an InputError "unknown <what> 'name' (known: a, b, ...)".
    const Family &require(const std::string &name, const char *what) const
    {
        if (const Family *f = find(name))
            return *f;
        std::string known;
        for (const auto &f : m_families)
            known += (known.empty() ? "" : ", ") + f->info().name;
        throw InputError(std::string("unknown ") + what + " '" + name + "' (known: " + known + ")");
    }

private:
    std::vector<std::unique_ptr<Family>> m_families;
};

} // namespace ps
