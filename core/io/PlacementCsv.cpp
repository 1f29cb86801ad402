#include "core/io/PlacementCsv.h"

#include "core/InputError.h"
#include "core/Utf8.h"
#include "core/io/FileBytes.h"

#include <algorithm>
#include <unordered_set>

namespace ps {

namespace {

// Splits one record starting at pos; advances pos past its line end. Quoted fields may span lines.
std::vector<std::string> readRecord(std::string_view text, size_t &pos, size_t &lineNo, const std::string &source)
{
    std::vector<std::string> fields(1);
    bool quoted = false, wasQuoted = false;
    const size_t startLine = lineNo;
    while (pos < text.size()) {
        char c = text[pos++];
        if (quoted) {
            if (c == '"') {
                if (pos < text.size() && text[pos] == '"') {
                    fields.back() += '"';
                    ++pos;
                } else {
                    quoted = false;
                }
            } else {
                if (c == '\n')
                    ++lineNo;
                fields.back() += c;
            }
        } else if (c == '"' && fields.back().empty() && !wasQuoted) {
            quoted = wasQuoted = true;
        } else if (c == ',') {
            fields.emplace_back();
            wasQuoted = false;
        } else if (c == '\n') {
            ++lineNo;
            break;
        } else if (c == '\r') {
            continue;
        } else {
            if (wasQuoted)
                throw InputError(source + ":" + std::to_string(lineNo) + ": text after a closing quote");
            fields.back() += c;
        }
    }
    if (quoted)
        throw InputError(source + ":" + std::to_string(startLine) + ": unterminated quoted field");
    return fields;
}

void appendField(std::string &out, const std::string &field)
{
    if (field.find_first_of(",\"\n\r") == std::string::npos) {
        out += field;
        return;
    }
    out += '"';
    for (char c : field) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
}

} // namespace

PlacementDoc parsePlacementCsv(std::string_view text, const std::string &source)
{
    if (text.find('\0') != std::string_view::npos)
        throw InputError(source + ": binary data, not CSV text");
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3); // a BOM from spreadsheet programs
    if (const size_t bad = firstInvalidUtf8(text); bad != std::string_view::npos) {
        const auto line = std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(bad), '\n') + 1;
        throw InputError(source + ":" + std::to_string(line) + ": not UTF-8 text (byte " + hexByte(text[bad]) +
                         "); save the file as UTF-8");
    }
    size_t pos = 0, lineNo = 1;
    std::vector<std::string> header = readRecord(text, pos, lineNo, source);
    if (header.size() != 2 || header[0] != "node" || header[1] != "device")
        throw InputError(source + ":1: the first line must be the header 'node,device'");
    PlacementDoc doc;
    std::unordered_set<std::string> seen;
    while (pos < text.size()) {
        const size_t line = lineNo;
        std::vector<std::string> row = readRecord(text, pos, lineNo, source);
        if (row.size() == 1 && row[0].empty())
            continue; // blank line
        const std::string where = source + ":" + std::to_string(line);
        if (row.size() != 2)
            throw InputError(where + ": expected 2 fields 'node,device', found " + std::to_string(row.size()));
        if (row[0].empty() || row[1].empty())
            throw InputError(where + ": empty node or device name");
        if (!seen.insert(row[0]).second)
            throw InputError(where + ": node '" + row[0] + "' appears twice");
        doc.assignment.emplace_back(std::move(row[0]), std::move(row[1]));
    }
    return doc;
}

PlacementDoc readPlacementCsv(const std::string &path)
{
    return parsePlacementCsv(readFileBytes(path), path);
}

std::string placementToCsv(const PlacementDoc &doc)
{
    std::string out = "node,device\n";
    for (const auto &[node, device] : doc.assignment) {
        appendField(out, node);
        out += ',';
        appendField(out, device);
        out += '\n';
    }
    return out;
}

void writePlacementCsv(const std::string &path, const PlacementDoc &doc)
{
    writeFileAtomic(path, placementToCsv(doc));
}

} // namespace ps
