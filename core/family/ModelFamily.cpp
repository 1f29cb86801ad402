#include "core/family/ModelFamily.h"

#include "core/InputError.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

namespace ps {

std::string hyperParamTypeName(HyperParam::Type type)
{
    switch (type) {
    case HyperParam::Type::Int: return "int";
    case HyperParam::Type::Real: return "real";
    case HyperParam::Type::Bool: return "bool";
    case HyperParam::Type::Choice: return "choice";
    case HyperParam::Type::Text: return "text";
    }
    return "?";
}

ParamValues ParamValues::defaults(const std::vector<HyperParam> &declared)
{
    ParamValues p;
    p.m_declared = declared;
    for (const HyperParam &h : declared) {
        p.m_values[h.name] = h.defaultValue;
        if (h.type == HyperParam::Type::Text)
            p.m_texts[h.name] = h.defaultText;
    }
    return p;
}

ParamValues ParamValues::parse(const std::vector<HyperParam> &declared, const std::vector<std::string> &assignments)
{
    ParamValues p = defaults(declared);
    for (const std::string &a : assignments) {
        const size_t eq = a.find('=');
        if (eq == std::string::npos)
            throw InputError("parameter '" + a + "' must be key=value");
        const std::string key = a.substr(0, eq), text = a.substr(eq + 1);
        auto it = std::find_if(declared.begin(), declared.end(), [&](const HyperParam &h) { return h.name == key; });
        if (it == declared.end()) {
            std::string known;
            for (const HyperParam &h : declared)
                known += (known.empty() ? "" : ", ") + h.name;
            throw InputError("unknown parameter '" + key + "' (known: " + (known.empty() ? "none" : known) + ")");
        }
        const HyperParam &h = *it;
        double value = 0;
        if (h.type == HyperParam::Type::Text) {
            p.m_texts[key] = text;
            continue;
        }
        if (h.type == HyperParam::Type::Choice) {
            auto c = std::find(h.choices.begin(), h.choices.end(), text);
            if (c == h.choices.end())
                throw InputError("parameter '" + key + "' must be one of its choices, not '" + text + "'");
            value = static_cast<double>(c - h.choices.begin());
        } else if (h.type == HyperParam::Type::Bool) {
            if (text == "true" || text == "1")
                value = 1;
            else if (text != "false" && text != "0")
                throw InputError("parameter '" + key + "' must be true or false");
        } else {
            char *end = nullptr;
            value = std::strtod(text.c_str(), &end);
            if (text.empty() || *end != '\0' || !std::isfinite(value))
                throw InputError("parameter '" + key + "' needs a number, not '" + text + "'");
            if (h.type == HyperParam::Type::Int && value != std::floor(value))
                throw InputError("parameter '" + key + "' needs a whole number");
            if (value < h.min || value > h.max)
                throw InputError("parameter '" + key + "' must lie in [" + messageNumber(h.min) + ", " +
                                 messageNumber(h.max) + "], not " + text);
        }
        p.m_values[key] = value;
    }
    for (const std::string &a : assignments)
        p.m_given.insert(a.substr(0, a.find('=')));
    return p;
}

bool ParamValues::given(const std::string &name) const
{
    find(name);
    return m_given.count(name) > 0;
}

const HyperParam &ParamValues::find(const std::string &name) const
{
    for (const HyperParam &h : m_declared)
        if (h.name == name)
            return h;
    throw std::logic_error("undeclared hyperparameter '" + name + "'");
}

double ParamValues::number(const std::string &name) const
{
    find(name);
    return m_values.at(name);
}

const std::string &ParamValues::text(const std::string &name) const
{
    find(name);
    return m_texts.at(name);
}

bool RunControl::waitWhilePaused() const
{
    while (pause && pause->load(std::memory_order_relaxed)) {
        if (cancelled())
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return !cancelled();
}

const std::string &ParamValues::choice(const std::string &name) const
{
    const HyperParam &h = find(name);
    return h.choices.at(static_cast<size_t>(m_values.at(name)));
}

bool savesAPolicy(const std::vector<std::string> &params)
{
    const std::string key = "save_checkpoint=";
    return std::any_of(params.begin(), params.end(),
                       [&](const std::string &p) { return p.rfind(key, 0) == 0 && p.size() > key.size(); });
}

} // namespace ps
