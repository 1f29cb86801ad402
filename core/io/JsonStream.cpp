#include "core/io/JsonStream.h"

#include "core/InputError.h"
#include "core/Utf8.h"
#include "core/graph/GraphBuilder.h"
#include "core/io/JsonError.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <unordered_set>

namespace ps::jsonio {

namespace {

constexpr size_t kMaxDepth = 200;

class StreamHandler : public nlohmann::json_sax<Json>
{
public:
    StreamHandler(const std::vector<StreamedMember> &streamed, const ElementHandler &onElement, JsonDocument &doc)
        : m_streamedNames(streamed), m_onElement(onElement), m_doc(doc)
    {}

    std::string syntaxError;

    bool null() override { return value(Json()); }
    bool boolean(bool v) override { return value(Json(v)); }
    bool number_integer(number_integer_t v) override { return value(Json(v)); }
    bool number_unsigned(number_unsigned_t v) override { return value(Json(v)); }
    bool number_float(number_float_t v, const string_t &) override { return value(Json(v)); }
    bool string(string_t &v) override { return value(Json(std::move(v))); }
    bool binary(binary_t &) override { return value(Json()); }

    bool start_object(std::size_t) override { return open(Json::object()); }
    bool start_array(std::size_t) override { return open(Json::array()); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t &k) override
    {
        if (m_streaming && m_depth == 2) {
            if (!m_streamKeys.insert(k).second)
                return duplicate(k);
        } else if (m_stack.back()->contains(k) || (m_depth == 1 && m_doc.streamed.count(k))) {
            return duplicate(k);
        }
        m_keys[m_depth] = std::move(k);
        return true;
    }

    bool parse_error(std::size_t, const std::string &, const nlohmann::detail::exception &ex) override
    {
        syntaxError = jsonErrorText(ex);
        return false;
    }

private:
    bool duplicate(const std::string &k)
    {
        syntaxError = "key '" + k + "' appears twice in one object";
        return false;
    }

    // Where a value at the current depth goes.
    bool value(Json v)
    {
        if (m_streaming && m_depth == 2) {
            emit(v);
            return true;
        }
        place(std::move(v));
        return true;
    }

    Json *place(Json v)
    {
        if (m_depth == 0) {
            m_doc.top = std::move(v);
            return &m_doc.top;
        }
        Json *parent = m_stack.back();
        if (parent->is_object())
            return &((*parent)[m_keys[m_depth]] = std::move(v));
        parent->push_back(std::move(v));
        return &parent->back();
    }

    bool open(Json container)
    {
        if (m_depth >= kMaxDepth) {
            syntaxError = "JSON nested more than " + std::to_string(kMaxDepth) + " levels deep";
            return false;
        }
        if (m_depth == 1 && isStreamed(m_keys[1], container.is_array())) {
            // The streamed container itself is not stored; its children are emitted.
            m_streaming = true;
            m_streamMember = m_keys[1];
            m_streamIndex = 0;
            m_streamKeys.clear();
            m_streamIsObject = container.is_object();
            m_doc.streamed.insert(m_streamMember);
            m_stack.push_back(nullptr);
        } else if (m_streaming && m_depth == 2) {
            m_element = std::move(container);
            m_stack.push_back(&m_element);
        } else {
            m_stack.push_back(place(std::move(container)));
        }
        ++m_depth;
        if (m_keys.size() <= m_depth)
            m_keys.resize(m_depth + 1);
        return true;
    }

    bool close()
    {
        --m_depth;
        m_stack.pop_back();
        if (m_streaming && m_depth == 2)
            emit(m_element);
        else if (m_streaming && m_depth == 1)
            m_streaming = false;
        return true;
    }

    bool isStreamed(const std::string &member, bool isArray) const
    {
        for (const StreamedMember &m : m_streamedNames)
            if (m.name == member && m.isArray == isArray)
                return true;
        return false;
    }

    void emit(Json &v)
    {
        const size_t index = m_streamIndex++;
        if (!m_doc.deferredError.empty())
            return; // after the first error only the syntax is checked
        const std::string key = m_streamIsObject ? m_keys[2] : std::string();
        try {
            m_onElement(m_streamMember, index, key, v);
        } catch (const InputError &e) {
            std::string where = "/" + pointerToken(m_streamMember) + "/" +
                                (m_streamIsObject ? pointerToken(key) : std::to_string(index));
            m_doc.deferredError = where + ": " + e.what();
        }
        v = Json();
    }

    const std::vector<StreamedMember> &m_streamedNames;
    const ElementHandler &m_onElement;
    JsonDocument &m_doc;
    std::vector<Json *> m_stack;
    std::vector<std::string> m_keys = std::vector<std::string>(3);
    size_t m_depth = 0;
    bool m_streaming = false;
    bool m_streamIsObject = false;
    std::string m_streamMember;
    size_t m_streamIndex = 0;
    std::unordered_set<std::string> m_streamKeys;
    Json m_element;
};

} // namespace

JsonDocument parseJsonStream(std::string_view text, const std::string &source,
                             const std::vector<StreamedMember> &streamedMembers, const ElementHandler &onElement)
{
    JsonDocument doc;
    StreamHandler handler(streamedMembers, onElement, doc);
    bool ok = Json::sax_parse(text.begin(), text.end(), &handler);
    if (!ok || !handler.syntaxError.empty())
        throw InputError(source + ": " + (handler.syntaxError.empty() ? "invalid JSON" : handler.syntaxError));
    if (!doc.deferredError.empty())
        doc.deferredError = source + ": " + doc.deferredError;
    return doc;
}

std::string pointerToken(const std::string &key)
{
    std::string out;
    for (char c : key) {
        if (c == '~')
            out += "~0";
        else if (c == '/')
            out += "~1";
        else
            out += c;
    }
    return out;
}

void checkFormat(const Json &top, const std::string &format, const std::string &source)
{
    if (!top.is_object() || !top.contains("format") || top["format"] != format)
        throw InputError(source + ": expected format '" + format + "'");
    const Json *version = top.contains("version") ? &top["version"] : nullptr;
    if (!version || !version->is_number_integer() || version->get<long long>() != 1)
        throw InputError(source + ": unsupported version " + (version ? version->dump() : "(none)") +
                         " (this program reads version 1)");
}

void UnknownKeys::check(const Json &object, std::initializer_list<std::string_view> known, const std::string &kind)
{
    if (!object.is_object())
        return;
    for (auto it = object.begin(); it != object.end(); ++it)
        if (!it->is_null() && std::find(known.begin(), known.end(), std::string_view(it.key())) == known.end())
            ++m_count[{kind, it.key()}];
}

std::string UnknownKeys::warning() const
{
    std::vector<std::pair<long long, const std::pair<std::string, std::string> *>> byCount;
    for (const auto &[where, n] : m_count)
        byCount.emplace_back(n, &where);
    std::stable_sort(byCount.begin(), byCount.end(), [](const auto &a, const auto &b) { return a.first > b.first; });
    std::string out = "keys this reader does not know were ignored: ";
    constexpr size_t kShown = 4;
    for (size_t i = 0; i < byCount.size() && i < kShown; ++i) {
        const auto &[n, where] = byCount[i];
        out += (i ? ", '" : "'") + where->second + "' " +
               (where->first.empty() ? std::string("at the top level")
                                     : "on " + std::to_string(n) + " " + where->first + (n == 1 ? "" : "s"));
    }
    if (byCount.size() > kShown)
        out += " and " + std::to_string(byCount.size() - kShown) + " more";
    return out;
}

bool has(const Json &object, const char *key)
{
    auto it = object.find(key);
    return it != object.end() && !it->is_null();
}

double numberValue(const Json &value, const std::string &what)
{
    if (!value.is_number() || value.is_boolean())
        throw InputError(what + " must be a finite number");
    return GraphBuilder::checkedNumber(value.get<double>(), what);
}

std::optional<double> optionalNumber(const Json &object, const char *key)
{
    if (!has(object, key))
        return std::nullopt;
    return numberValue(object[key], std::string("'") + key + "'");
}

double number(const Json &object, const char *key, double fallback)
{
    return optionalNumber(object, key).value_or(fallback);
}

double requiredNumber(const Json &object, const char *key)
{
    if (!has(object, key))
        throw InputError(std::string("missing required number '") + key + "'");
    return numberValue(object[key], std::string("'") + key + "'");
}

std::string requiredString(const Json &object, const char *key, const std::string &what)
{
    if (!has(object, key) || !object[key].is_string())
        throw InputError(what);
    return object[key].get<std::string>();
}

const Json &requiredObject(const Json &value, const std::string &what)
{
    if (!value.is_object())
        throw InputError(what + " must be a JSON object");
    return value;
}

void appendString(std::string &out, std::string_view s)
{
    // Bytes that are not UTF-8 (a Latin-1 file name in a run's parameters) become U+FFFD, as
    // jsonText writes them: raw, they made a file that no JSON reader accepts.
    if (firstInvalidUtf8(s) != std::string_view::npos) {
        appendString(out, replaceInvalidUtf8(s));
        return;
    }
    static const char *hex = "0123456789abcdef";
    out += '"';
    for (char ch : s) {
        unsigned char c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20) {
                out += "\\u00";
                out += hex[c >> 4];
                out += hex[c & 15];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
}

void appendNumber(std::string &out, double value)
{
    if (!std::isfinite(value))
        throw std::invalid_argument("cannot write a non-finite number to JSON");
    char buffer[64];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

} // namespace ps::jsonio
