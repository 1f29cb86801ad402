#include "core/io/FileBytes.h"

#include "core/InputError.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace ps {

namespace {
// Decompressing more than this is treated as a gzip bomb rather than an input.
constexpr size_t kMaxDecompressedBytes = size_t(4) << 30;

std::string systemError(const std::string &what, const std::string &path)
{
    return path + ": " + what + ": " + std::strerror(errno);
}
} // namespace

bool endsWith(std::string_view s, std::string_view suffix)
{
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::string baseName(const std::string &path)
{
    size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool isGzip(std::string_view data)
{
    return data.size() >= 2 && static_cast<unsigned char>(data[0]) == 0x1f &&
           static_cast<unsigned char>(data[1]) == 0x8b;
}

std::string readFileBytes(const std::string &path)
{
    struct stat st;
    if (::stat(path.c_str(), &st) != 0)
        throw InputError(systemError("cannot open", path));
    if (S_ISDIR(st.st_mode))
        throw InputError(path + ": is a folder, not a file");
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw InputError(systemError("cannot open", path));
    std::string data;
    if (S_ISREG(st.st_mode))
        data.reserve(static_cast<size_t>(st.st_size)); // the real size, not a declared one
    data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad())
        throw InputError(systemError("read error", path));
    return isGzip(data) ? gunzip(data, path) : data;
}

std::string gunzip(std::string_view data, const std::string &source)
{
    z_stream zs{};
    if (inflateInit2(&zs, 15 + 16) != Z_OK)
        throw InputError(source + ": cannot start gzip decompression");
    std::string out;
    char buffer[1 << 16];
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    auto fail = [&](const std::string &why) {
        const size_t at = data.size() - zs.avail_in;
        inflateEnd(&zs);
        throw InputError(source + ": corrupt or truncated gzip stream (" + why + " at byte " + std::to_string(at) +
                         " of " + std::to_string(data.size()) + " bytes)");
    };
    for (;;) {
        zs.next_out = reinterpret_cast<Bytef *>(buffer);
        zs.avail_out = sizeof buffer;
        int rc = inflate(&zs, Z_NO_FLUSH);
        out.append(buffer, sizeof buffer - zs.avail_out);
        if (out.size() > kMaxDecompressedBytes) {
            inflateEnd(&zs);
            throw InputError(source + ": decompresses to more than 4 GiB; refusing to read it");
        }
        if (rc == Z_STREAM_END) {
            // Concatenated members are allowed, and so is zero padding after the last one.
            std::string_view rest(reinterpret_cast<const char *>(zs.next_in), zs.avail_in);
            if (rest.find_first_not_of('\0') == std::string_view::npos)
                break;
            if (!isGzip(rest))
                fail("unexpected bytes after the end of the stream");
            inflateReset(&zs);
            continue;
        }
        if (rc == Z_OK)
            continue;
        if (rc == Z_BUF_ERROR && zs.avail_in == 0)
            fail("unexpected end of data");
        fail(zs.msg ? zs.msg : "inflate error " + std::to_string(rc));
    }
    inflateEnd(&zs);
    return out;
}

std::string gzip(std::string_view data)
{
    z_stream zs{};
    if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        throw std::runtime_error("cannot start gzip compression");
    std::string out;
    out.resize(deflateBound(&zs, static_cast<uLong>(data.size())) + 32);
    zs.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(data.data()));
    zs.avail_in = static_cast<uInt>(data.size());
    zs.next_out = reinterpret_cast<Bytef *>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    int rc = deflate(&zs, Z_FINISH);
    deflateEnd(&zs);
    if (rc != Z_STREAM_END)
        throw std::runtime_error("gzip compression failed");
    out.resize(zs.total_out);
    return out;
}

void requireWritable(const std::string &path)
{
    std::string probe = path + ".tmp-XXXXXX";
    const int fd = ::mkstemp(probe.data());
    if (fd < 0)
        throw InputError(systemError("cannot write", path));
    ::close(fd);
    ::unlink(probe.c_str());
}

void writeFileAtomic(const std::string &path, std::string_view data)
{
    std::string compressed;
    if (endsWith(path, ".gz")) {
        compressed = gzip(data);
        data = compressed;
    }
    std::string tmp = path + ".tmp-XXXXXX";
    int fd = ::mkstemp(tmp.data());
    if (fd < 0)
        throw InputError(systemError("cannot write", path));
    auto fail = [&](const char *what) {
        std::string message = systemError(what, path);
        ::close(fd);
        ::unlink(tmp.c_str());
        throw InputError(message);
    };
    const char *p = data.data();
    size_t left = data.size();
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            fail("cannot write");
        }
        p += n;
        left -= static_cast<size_t>(n);
    }
    if (::fchmod(fd, 0644) != 0 || ::fsync(fd) != 0)
        fail("cannot write");
    if (::close(fd) != 0) {
        ::unlink(tmp.c_str());
        throw InputError(systemError("cannot write", path));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        std::string message = systemError("cannot replace", path);
        ::unlink(tmp.c_str());
        throw InputError(message);
    }
}

} // namespace ps
