#pragma once
// Internal to core/io: a streaming JSON reader on nlohmann's SAX interface. The top-level object
// is kept as a DOM except for the members named as streamed (e.g. "nodes", "edges"): their
// elements are handed to a callback one by one as they complete, so a 200,000-node graph never
// exists as one DOM. Duplicate keys are errors in every object, streamed ones included.
#include <nlohmann/json.hpp>

#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace ps::jsonio {

using Json = nlohmann::json;

// member: the top-level key; index: position of the element; key: its key for an object member
// ("" for array elements). Throwing InputError defers the error (see JsonDocument).
using ElementHandler =
    std::function<void(const std::string &member, size_t index, const std::string &key, Json &value)>;

struct JsonDocument
{
    Json top;                       // the top level, without the streamed members' contents
    std::set<std::string> streamed; // streamed members that were present as array/object
    std::string deferredError;      // first error a handler threw, with its JSON pointer
};

// A top-level member whose elements are streamed; one of the other JSON type stays in the DOM,
// where the caller reports it.
struct StreamedMember
{
    std::string name;
    bool isArray; // else an object
};

// Throws InputError "source: parse error at line L, column C: ..." for invalid JSON.
// Element errors are deferred so that a wrong "format" is reported before them.
JsonDocument parseJsonStream(std::string_view text, const std::string &source,
                             const std::vector<StreamedMember> &streamedMembers, const ElementHandler &onElement);

// Escapes a JSON pointer token ("~" -> "~0", "/" -> "~1").
std::string pointerToken(const std::string &key);

// Checks "format" and "version" of a parsed top level (throws InputError naming the source).
void checkFormat(const Json &top, const std::string &format, const std::string &source);

// Field access with the spec's rules: null counts as absent; numbers are finite and >= 0;
// booleans are not numbers. `what` names the field in messages.
bool has(const Json &object, const char *key);
double number(const Json &object, const char *key, double fallback);
double requiredNumber(const Json &object, const char *key);
std::optional<double> optionalNumber(const Json &object, const char *key);
double numberValue(const Json &value, const std::string &what);
std::string requiredString(const Json &object, const char *key, const std::string &what);
const Json &requiredObject(const Json &value, const std::string &what);

// Keys a reader does not know, tallied by the kind of object they stood in ("node", "edge"; "" for
// the top level). The spec ignores them (forward compatibility); a reader says which it ignored (a
// graph written with "inputs" on its nodes loaded without edges, and without a word).
class UnknownKeys
{
public:
    void check(const Json &object, std::initializer_list<std::string_view> known, const std::string &kind);
    bool empty() const { return m_count.empty(); }
    // "keys this reader does not know were ignored: 'inputs' on 5 nodes, 'shape' on 1 node, 'author'
    // at the top level" (the first four, then how many more).
    std::string warning() const;

private:
    std::map<std::pair<std::string, std::string>, long long> m_count; // (kind, key)
};

// Writing helpers: shortest round-trip numbers, escaped strings.
void appendString(std::string &out, std::string_view s);
void appendNumber(std::string &out, double value);

} // namespace ps::jsonio
