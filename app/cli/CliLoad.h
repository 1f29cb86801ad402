#pragma once
// Loading the files a command needs, with errors that name the file and what was expected.
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/io/FileKind.h"
#include "core/placement/Constraints.h"
#include "core/placement/Partition.h"
#include "core/placement/Placement.h"

#include <initializer_list>
#include <string>

namespace ps::cli {

class CliArgs;

// --batch N and --input-shape 1x3x224x224 (repeated, one per model input), for model files.
LoadOptions loadOptions(const CliArgs &args);
// Loads any file and writes the importer's warnings to err as "warning: FILE: ...".
LoadedFile loadReporting(const std::string &path, const LoadOptions &options, std::ostream &err);

// A graph file, or a model file (.onnx, .pt) read with --batch and --input-shape (loadOptions);
// the importer's warnings go to err, as for info (a model read without them placed ops of unknown
// shape as 0 FLOPs and bytes, without a word).
Graph requireGraph(const std::string &path, const CliArgs &args, std::ostream &err);
Cluster requireCluster(const std::string &path);
// The placement a placement or partition file holds (a partition: part i on device i).
Placement placementIn(const LoadedFile &file, const Graph &graph, const Cluster &cluster);
// A placement file, or a partition file taken as one (part i on device i; a note to err says so).
Placement requirePlacement(const std::string &path, const Graph &graph, const Cluster &cluster, std::ostream &err);
// The node -> device pairs of a pins file (a placement file, JSON or CSV). InputError naming the
// form a pins file takes when it is something else.
std::vector<std::pair<std::string, std::string>> pinsIn(const std::string &path);
// Pins from a pins file: each node pinned to its device. InputError for unknown nodes and devices.
void applyPins(const std::string &path, const Graph &graph, const Cluster &cluster, Constraints &constraints);
// A warning to err when no placement on the cluster can hold the graph (and its pins) in memory:
// a run goes on, and what it writes will be infeasible.
void warnWhenNothingFits(const Graph &graph, const Cluster &cluster, const Constraints &constraints, std::ostream &err);
Partition requirePartition(const std::string &path, const Graph &graph);
// The files these options name are written at the end of the command: each must be writable
// before it starts (a 60 s run whose --out folder was missing lost its result), and none may be a
// file the command reads or another of them (`place G C --out G` replaced the graph with the
// placement; `steer --out F --log F` kept the log and lost the placement); --start P --out P refines P in
// place.
void requireWritableOutputs(const CliArgs &args, std::initializer_list<const char *> options);
// --k: parts from 1 to Partition::kMaxParts and no more than the graph's nodes (InputError naming
// `command` otherwise).
int requireParts(const CliArgs &args, const std::string &command, const Graph &graph);

} // namespace ps::cli
