#pragma once
// The layered random DAG generator of the HEFT paper (Topcuoglu et al. 2002), as used by GiPH:
// height sqrt(n)/alpha layers, edges from earlier layers only (most from the layer above), node
// costs spread by a heterogeneity factor and edge sizes set by the communication-to-computation
// ratio (CCR) on a reference device and link. Deterministic for a given seed on every platform.
#include "core/graph/Graph.h"

#include <cstdint>

namespace ps {

struct LayeredRandomParams
{
    int nodes = 1000;
    double alpha = 1.0;         // shape: < 1 tall and thin, > 1 short and wide
    double outDegree = 2.0;     // edges per node on average
    double ccr = 0.5;           // mean transfer time / mean compute time on the reference
    double heterogeneity = 0.5; // node flops uniform in mean * [1 - h, 1 + h]
    double meanFlops = 1e9;
    uint64_t seed = 1;
    // Reference used to turn CCR into bytes: a 14 TFLOP/s device and a 10 GB/s link.
    double referenceFlopsPerS = 1.4e13;
    double referenceBandwidth = 1e10;
};

// Throws InputError for parameters out of range (nodes 1..10,000,000, alpha > 0, ...).
Graph generateLayeredRandom(const LayeredRandomParams &params);

} // namespace ps
