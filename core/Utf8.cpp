#include "core/Utf8.h"

#include <cstdio>

namespace ps {

namespace {

// The length of the well-formed UTF-8 sequence at text[pos], or 0 if there is none.
size_t sequenceAt(std::string_view text, size_t pos)
{
    const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(pos);
    if (lead < 0x80)
        return 1;
    size_t length = 0;
    unsigned char low = 0x80, high = 0xBF; // the bounds of the second byte
    if (lead >= 0xC2 && lead <= 0xDF)
        length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        low = lead == 0xE0 ? 0xA0 : 0x80;  // no overlong forms
        high = lead == 0xED ? 0x9F : 0xBF; // no surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        low = lead == 0xF0 ? 0x90 : 0x80;
        high = lead == 0xF4 ? 0x8F : 0xBF; // nothing past U+10FFFF
    } else
        return 0;
    if (pos + length > text.size() || byte(pos + 1) < low || byte(pos + 1) > high)
        return 0;
    for (size_t i = 2; i < length; ++i)
        if (byte(pos + i) < 0x80 || byte(pos + i) > 0xBF)
            return 0;
    return length;
}

} // namespace

size_t firstInvalidUtf8(std::string_view text)
{
    for (size_t pos = 0; pos < text.size();) {
        const size_t length = sequenceAt(text, pos);
        if (length == 0)
            return pos;
        pos += length;
    }
    return std::string_view::npos;
}

namespace {

// `text` with its well-formed sequences kept and each other byte written by `other`.
template <class Other>
std::string rewriteInvalid(std::string_view text, bool allInvalid, Other other)
{
    std::string out;
    out.reserve(text.size());
    for (size_t pos = 0; pos < text.size();) {
        const size_t length = allInvalid ? 0 : sequenceAt(text, pos);
        if (length > 0) {
            out.append(text, pos, length);
            pos += length;
        } else {
            other(out, static_cast<unsigned char>(text[pos++]));
        }
    }
    return out;
}

} // namespace

std::string latin1AsUtf8(std::string_view text, bool allLatin1)
{
    return rewriteInvalid(text, allLatin1, [](std::string &out, unsigned char c) {
        if (c < 0x80) {
            out += static_cast<char>(c);
            return;
        }
        out += static_cast<char>(0xC0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3F));
    });
}

std::string replaceInvalidUtf8(std::string_view text)
{
    return rewriteInvalid(text, false, [](std::string &out, unsigned char) { out += "\xEF\xBF\xBD"; });
}

std::string hexByte(char byte)
{
    char text[8];
    std::snprintf(text, sizeof text, "0x%02X", static_cast<unsigned char>(byte));
    return text;
}

std::string printableUtf8(std::string_view text)
{
    return rewriteInvalid(
        text, false, [](std::string &out, unsigned char c) { out += "\\x" + hexByte(static_cast<char>(c)).substr(2); });
}

} // namespace ps
