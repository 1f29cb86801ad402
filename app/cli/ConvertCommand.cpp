// placement-cli convert IN OUT: between formats of the same kind, chosen by file name.
#include "app/cli/CliCommands.h"
#include "app/cli/CliLoad.h"

#include "core/InputError.h"
#include "core/io/ClusterJson.h"
#include "core/io/FileKind.h"
#include "core/io/MetisFormat.h"
#include "core/io/PlacementCsv.h"
#include "core/io/PlacementJson.h"

#include <ostream>

namespace ps::cli {

namespace {

// What to run instead where a graph and a placement file were swapped: a placement is drawn on
// its graph (the graph converted, with --placement), and written as CSV from the placement itself.
std::string swappedKindsHint(FileKind in, FileKind out, const std::string &inPath, const std::string &outPath,
                             const CliArgs &args)
{
    if (in == FileKind::Placement && out == FileKind::Graph)
        return "; to draw a placement, convert its graph: placement-cli convert GRAPH " + outPath +
               " --cluster CLUSTER --placement " + inPath;
    if (in == FileKind::Graph && out == FileKind::Placement)
        return "; to write a placement in another format, convert the placement file: placement-cli convert " +
               args.value("placement").value_or("P.placement.json") + " " + outPath;
    return {};
}

} // namespace

int convertCommand(const CliArgs &args, std::ostream &out, std::ostream &err)
{
    if (args.positionals().size() != 2)
        throw InputError("convert needs IN and OUT");
    const std::string &inPath = args.positionals()[0], &outPath = args.positionals()[1];
    LoadedFile in = loadReporting(inPath, loadOptions(args), err);
    const FileFormat outFormat = formatFromName(outPath);
    const FileKind inKind = kindOf(in.format), outKind = kindOf(outFormat);
    if (inKind != outKind)
        throw InputError("cannot convert a " + std::string(kindName(inKind)) + " (" + inPath + ") into a " +
                         kindName(outKind) + " file (" + outPath + ")" +
                         swappedKindsHint(inKind, outKind, inPath, outPath, args));
    switch (outFormat) {
    case FileFormat::GraphJson:
    case FileFormat::Dot: {
        std::optional<Cluster> cluster;
        std::optional<Placement> placement;
        if (auto c = args.value("cluster"))
            cluster = loadFile(*c).cluster;
        if (auto p = args.value("placement")) {
            if (!cluster)
                throw InputError("--placement needs --cluster to name the devices");
            LoadedFile placementFile = loadFile(*p);
            if (!placementFile.placement)
                throw InputError(*p + ": not a placement file");
            try {
                placement = resolvePlacement(*placementFile.placement, *in.graph, *cluster);
            } catch (const InputError &e) {
                rethrowWithContext(e, *p);
            }
        }
        saveGraph(outPath, *in.graph, cluster ? &*cluster : nullptr, placement ? &*placement : nullptr);
        break;
    }
    case FileFormat::Metis: writeMetis(outPath, *in.graph, args.flag("metis-memory")); break;
    case FileFormat::ClusterJson: writeClusterJson(outPath, *in.cluster); break;
    case FileFormat::PlacementJson: writePlacementJson(outPath, *in.placement); break;
    case FileFormat::PlacementCsv: writePlacementCsv(outPath, *in.placement); break;
    case FileFormat::PartitionJson:
    case FileFormat::MetisPartition: {
        // A METIS partition names no node: the graph it was made from says which node each line is.
        if (in.format == outFormat) {
            if (outFormat == FileFormat::PartitionJson)
                writePartitionJson(outPath, *in.partition);
            else // (another K in the name is refused)
                writeMetisPartition(outPath, Partition(static_cast<int>(in.partition->k),
                                                       {in.partition->inOrder.begin(), in.partition->inOrder.end()}));
            break;
        }
        const auto graphPath = args.value("graph");
        if (!graphPath)
            throw InputError("a METIS partition names no node: convert " + inPath + " to " + outPath +
                             " with --graph G, the graph it partitions");
        const Graph graph = requireGraph(*graphPath, args, err);
        Partition partition;
        try { // the file read above, not read again
            partition = resolvePartition(*in.partition, graph);
        } catch (const InputError &e) {
            rethrowWithContext(e, inPath);
        }
        if (outFormat == FileFormat::PartitionJson)
            writePartitionJson(outPath, toDoc(partition, graph));
        else
            writeMetisPartition(outPath, partition);
        break;
    }
    case FileFormat::Onnx:
    case FileFormat::TorchScript:
        throw InputError(outPath + ": ONNX and TorchScript files are read, not written (write .graph.json, .dot "
                                   "or a METIS .graph)");
    }
    out << "wrote " << outPath << "\n";
    return 0;
}

} // namespace ps::cli
