#pragma once
// Whole-file reading with transparent gzip (recognised by its magic bytes, not its name) and
// atomic writing (temp file in the same folder, fsync, rename), gzip-compressed for "*.gz".
#include <string>
#include <string_view>

namespace ps {

// Returns the file's bytes, decompressed when they start with the gzip magic 1f 8b.
// Throws InputError naming the file when it cannot be read or the gzip stream is corrupt.
std::string readFileBytes(const std::string &path);
std::string gunzip(std::string_view data, const std::string &source);
std::string gzip(std::string_view data);
bool isGzip(std::string_view data);

// Writes atomically: readers see either the old file or the whole new one.
void writeFileAtomic(const std::string &path, std::string_view data);
// Throws the InputError writeFileAtomic would when path's folder takes no new file (missing,
// read-only): a command checks its outputs before a long run rather than lose the run's result.
void requireWritable(const std::string &path);
bool endsWith(std::string_view s, std::string_view suffix);
// The file name without folders, for messages.
std::string baseName(const std::string &path);

} // namespace ps
