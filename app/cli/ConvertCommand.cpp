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
                         kindName(outKind) + " file (" + outPath + ")");
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
    case FileFormat::PartitionJson: writePartitionJson(outPath, *in.partition); break;
    case FileFormat::Onnx:
    case FileFormat::TorchScript:
        throw InputError(outPath + ": ONNX and TorchScript files are read, not written (write .graph.json, .dot "
                                   "or a METIS .graph)");
    }
    out << "wrote " << outPath << "\n";
    return 0;
}

} // namespace ps::cli
