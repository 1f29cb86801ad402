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
}

} // namespace ps
