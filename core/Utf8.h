#pragma once
// UTF-8 checks for text read from formats that do not promise it (DOT, CSV, model files): the JSON
// this program writes must be text its readers (and nlohmann's) accept again.
#include <string>
#include <string_view>

namespace ps {

// The offset of the first byte that is not part of a well-formed UTF-8 sequence (overlong forms,
// surrogates and code points past U+10FFFF are not), or std::string_view::npos.
size_t firstInvalidUtf8(std::string_view text);

// `text` with each byte outside a well-formed UTF-8 sequence read as a Latin-1 character (as
// Graphviz reads such DOT input), or, with `allLatin1`, with every byte read so.
std::string latin1AsUtf8(std::string_view text, bool allLatin1 = false);

// `text` with each byte outside a well-formed UTF-8 sequence replaced by U+FFFD.
std::string replaceInvalidUtf8(std::string_view text);

// For messages: a byte as 0xHH.
std::string hexByte(char byte);

// For messages: `text` with each byte outside a well-formed sequence shown as \xHH.
std::string printableUtf8(std::string_view text);

} // namespace ps
