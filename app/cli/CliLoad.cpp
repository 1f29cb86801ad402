#include "app/cli/CliLoad.h"

#include "core/InputError.h"
#include "core/io/FileKind.h"

namespace ps::cli {

namespace {

LoadedFile requireKind(const std::string &path, FileKind kind)
{
    LoadedFile file = loadFile(path);
    if (kindOf(file.format) != kind)
        throw InputError(path + ": expected a " + kindName(kind) + " file, found a " +
                         kindName(kindOf(file.format)));
    return file;
}

} // namespace

Graph requireGraph(const std::string &path) { return std::move(*requireKind(path, FileKind::Graph).graph); }

Cluster requireCluster(const std::string &path)
{
    return std::move(*requireKind(path, FileKind::Cluster).cluster);
}

Placement requirePlacement(const std::string &path, const Graph &graph, const Cluster &cluster)
{
    LoadedFile file = requireKind(path, FileKind::Placement);
    try {
        return resolvePlacement(*file.placement, graph, cluster);
    } catch (const InputError &e) {
        rethrowWithContext(e, path);
    }
}

Partition requirePartition(const std::string &path, const Graph &graph)
{
    LoadedFile file = requireKind(path, FileKind::Partition);
    try {
        return resolvePartition(*file.partition, graph);
    } catch (const InputError &e) {
        rethrowWithContext(e, path);
    }
}

} // namespace ps::cli
