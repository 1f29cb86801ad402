#include "core/io/FileKind.h"
#include "core/partitioners/Partitioner.h"
#include "core/placers/PlacerRegistry.h"
#include "models/Learners.h"
#include "models/ModelImporters.h"
#include "models/torch/TorchScriptImport.h"

namespace ps {

void installModelImporters()
{
    setTorchScriptImporter(&importTorchScript);
    PartitionerRegistry::addFamily(makeGapPartitioner());
    PlacerRegistry::addFamily(makeRlSeq2SeqPlacer());
    PlacerRegistry::addFamily(makeGdpPlacer());
    PlacerRegistry::addFamily(makeGiphPlacer());
    // gap as a placer too, as metis and spectral are: the Models dock, `place` and steering run it.
    PlacerRegistry::addFamily(makePartitionPlacer(
        "gap", "GAP (Nazi et al. 2019) partition, GraphSAGE + softmax partition module trained on the expected "
               "normalized cut and balance, part i on device i"));
}

} // namespace ps
