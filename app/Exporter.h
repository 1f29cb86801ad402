#pragma once
// Everything File ▸ Export writes: the placement (JSON, CSV, DOT coloured by device), the graph
// and the cluster as JSON, the
// timeline (CSV), framework device annotations (a PyTorch device_map by module path; a
// TensorFlow "/device:GPU:N" per node), and any widget as PNG or SVG. All written atomically;
// errors are InputErrors naming the file.
#include <QString>

class QWidget;

namespace ps {

class Document;

void exportPlacementJson(const QString &path, const Document &document);
void exportPlacementCsv(const QString &path, const Document &document);
void exportPlacementDot(const QString &path, const Document &document);
void exportGraphJson(const QString &path, const Document &document);   // an imported model, for the CLI
void exportClusterJson(const QString &path, const Document &document); // with the edits made in the app
void exportTimelineCsv(const QString &path, const Document &document);
void exportTorchDeviceMap(const QString &path, const Document &document);
// What the device_map, which places whole modules, changes from the placement: how many ops move
// and its makespan beside the placement's (and ops that break a constraint there), or that it
// changes nothing.
QString torchDeviceMapNote(const Document &document);
void exportTensorFlowDevices(const QString &path, const Document &document);
void exportWidgetImage(const QString &path, QWidget *widget); // .png or .svg by name

// `path` with `extension` (".placement.json") added when its name ends neither with it nor with
// its last part (".json"): a name typed without one was written as it stood, a file that nothing
// recognised when opened. An empty path stays empty (the dialog was cancelled).
QString withExtension(const QString &path, const QString &extension);

// The framework name of each device, numbered within its kind: "cuda:N", "cpu", "npu:N", "xla:N"
// for a TPU (PyTorch); "/device:GPU:N", "/device:CPU:N", "/device:NPU:N" (TensorFlow).
QString torchDeviceName(const Document &document, int device);
QString tensorFlowDeviceName(const Document &document, int device);

} // namespace ps
