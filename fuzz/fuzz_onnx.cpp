// Fuzzes the ONNX importer (the streamed protobuf filter, the model parser, shape inference and
// the op rules) through a file, since it reads files by path. Every rejection must be an
// InputError; anything else, or a sanitizer report, is a finding.
#include "core/InputError.h"
#include "core/io/OnnxImport.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const std::string path = "/tmp/ps-fuzz-onnx-" + std::to_string(getpid()) + ".onnx";
    FILE *f = std::fopen(path.c_str(), "wb");
    if (!f)
        return 0;
    std::fwrite(data, 1, size, f);
    std::fclose(f);
    std::vector<std::string> warnings;
    try {
        ps::importOnnx(path, {}, warnings);
    } catch (const ps::InputError &) {}
    return 0;
}
