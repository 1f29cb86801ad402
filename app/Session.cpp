#include "app/Session.h"

#include "app/Document.h"
#include "core/InputError.h"
#include "core/io/ClusterJson.h"
#include "core/io/FileKind.h"
#include "core/io/GraphJson.h"
#include "core/io/JsonError.h"
#include "core/io/JsonSplice.h"
#include "core/io/JsonText.h"
#include "core/placement/Placement.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <nlohmann/json.hpp>

namespace ps {

namespace {
using Json = nlohmann::json;
constexpr const char *kFormat = "placement-studio-session";
constexpr int kVersion = 1;

bool isGraphJsonPath(const QString &path)
{
    return path.endsWith(".graph.json") || path.endsWith(".graph.json.gz");
}
} // namespace

SessionData sessionData(const Document &document, std::vector<SavedRun> runs,
                        std::shared_ptr<const SteeringLogDoc> steering)
{
    SessionData s;
    s.graph = document.graph();
    if (!s.graph)
        throw InputError("nothing to save (no graph is open)");
    s.graphPath = document.graphPath;
    s.cluster = document.cluster();
    s.clusterPath = document.clusterPath;
    s.placement = document.placement();
    s.pins = document.pins();
    s.producer = document.producer;
    s.runs = std::move(runs);
    s.steering = std::move(steering);
    return s;
}

void saveSession(const QString &path, const SessionData &s)
{
    if (!s.graph)
        throw InputError(path.toStdString() + ": nothing to save (no graph is open)");
    const Graph &g = *s.graph;
    Json j;
    j["format"] = kFormat;
    j["version"] = kVersion;
    // A graph JSON file is referenced; anything else (imported, generated) is embedded.
    if (isGraphJsonPath(s.graphPath) && QFile::exists(s.graphPath)) {
        j["graph_file"] = s.graphPath.toStdString();
        // Also from the session's folder: a project folder moved or shared still opens.
        j["graph_file_relative"] = QDir(QFileInfo(path).absolutePath())
                                       .relativeFilePath(QFileInfo(s.graphPath).absoluteFilePath())
                                       .toStdString();
    } else
        j["graph"] = Json::parse(graphToJson(g));
    if (s.cluster.deviceCount() > 0) {
        j["cluster"] = Json::parse(clusterToJson(s.cluster));
        j["cluster_file"] = s.clusterPath.toStdString();
        Json placement = Json::object(), pins = Json::object();
        for (int v = 0; v < g.nodeCount(); ++v) {
            placement[g.id(v)] = s.cluster.device(s.placement[v]).name;
            if (s.pins[v] >= 0)
                pins[g.id(v)] = s.cluster.device(s.pins[v]).name;
        }
        j["placement"] = placement;
        j["pins"] = pins;
        Json saved = Json::array();
        for (const SavedRun &r : s.runs) {
            if (static_cast<int>(r.placement.size()) != g.nodeCount())
                continue;
            Json devices = Json::array(); // by node index: compact, and the graph is in the session
            for (int d : r.placement)
                devices.push_back(s.cluster.device(d).name);
            saved.push_back({{"model", r.model.toStdString()},
                             {"makespan_s", r.makespan},
                             {"lower_bound_s", r.lowerBound},
                             {"feasible", r.feasible},
                             {"evaluations", r.evaluations},
                             {"wall_s", r.wallS},
                             {"notes", r.notes},
                             {"devices", devices}});
        }
        j["runs"] = saved;
    }
    j["producer"] = s.producer.toStdString();
    JsonSplice splice; // the steering log as it writes itself, not parsed and written again
    if (s.steering)
        j["steering"] = splice.hold(steeringLogJson(*s.steering));
    QSaveFile file(path);
    const std::string text = splice.fill(jsonText(j, 1));
    if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
        !file.commit())
        throw InputError(path.toStdString() + ": cannot write: " + file.errorString().toStdString());
}

SessionData loadSession(const QString &path)
{
    const std::string where = path.toStdString();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw InputError(where + ": cannot open: " + file.errorString().toStdString());
    const QByteArray bytes = file.readAll();
    Json j;
    try {
        j = Json::parse(bytes.constData(), bytes.constData() + bytes.size());
    } catch (const Json::parse_error &e) {
        throw InputError(where + ": not a session file (" + jsonErrorText(e) + ")");
    }
    if (!j.is_object() || j.value("format", Json()) != kFormat) // any type: a message, not a throw
        throw InputError(where + ": not a Placement Studio session (no \"format\": \"" + kFormat + "\")");
    if (const Json version = j.value("version", Json(kVersion)); version != kVersion)
        throw InputError(where + ": a session of version " + version.dump() + "; this Placement Studio reads version " +
                         std::to_string(kVersion) +
                         (version.is_number() && version > kVersion ? " (a newer one wrote it)" : ""));
    SessionData s;
    try {
        if (j.contains("graph_file")) {
            s.graphPath = QString::fromStdString(j["graph_file"].get<std::string>());
            const QString relative = QString::fromStdString(j.value("graph_file_relative", ""));
            const QString besideSession = QFileInfo(path).absoluteDir().filePath(relative);
            if (!QFile::exists(s.graphPath) && !relative.isEmpty() && QFile::exists(besideSession))
                s.graphPath = QFileInfo(besideSession).absoluteFilePath(); // the folder was moved
            if (!QFile::exists(s.graphPath))
                throw InputError(where + ": its graph file " + s.graphPath.toStdString() + " is gone" +
                                 (relative.isEmpty() ? "" : " (nor is it at " + besideSession.toStdString() + ")"));
            s.graph = std::make_shared<Graph>(loadGraph(s.graphPath.toStdString()));
        } else if (j.contains("graph")) {
            s.graph = std::make_shared<Graph>(parseGraphJson(j["graph"].dump(), where + " (embedded graph)"));
        } else {
            throw InputError(where + ": the session has no graph");
        }
        const Graph &g = *s.graph;
        if (j.contains("cluster")) {
            s.cluster = parseClusterJson(j["cluster"].dump(), where + " (embedded cluster)");
            s.clusterPath = QString::fromStdString(j.value("cluster_file", ""));
        }
        s.placement.assign(g.nodeCount(), 0);
        s.pins.assign(g.nodeCount(), -1);
        if (j.contains("placement") && s.cluster.deviceCount() > 0) {
            PlacementDoc doc;
            for (const auto &[node, device] : j["placement"].items())
                doc.assignment.emplace_back(node, device.get<std::string>());
            try {
                s.placement = resolvePlacement(doc, g, s.cluster).devices();
            } catch (const InputError &e) {
                rethrowWithContext(e, where + ": its placement");
            }
        }
        if (j.contains("pins"))
            for (const auto &[node, device] : j["pins"].items()) {
                const int v = g.findNode(node), d = s.cluster.findDevice(device.get<std::string>());
                if (v < 0 || d < 0)
                    throw InputError(where + ": pin of unknown node '" + node + "' or device");
                s.pins[v] = d;
            }
        s.producer = QString::fromStdString(j.value("producer", ""));
        for (const auto &r : j.value("runs", Json::array())) {
            SavedRun run;
            run.model = QString::fromStdString(r.at("model").get<std::string>());
            run.makespan = r.value("makespan_s", 0.0);
            run.lowerBound = r.value("lower_bound_s", 0.0);
            run.feasible = r.value("feasible", false);
            run.evaluations = r.value("evaluations", -1LL); // -1: a session from before they were kept
            run.wallS = r.value("wall_s", 0.0);
            run.notes = r.value("notes", std::vector<std::string>{});
            const auto &devices = r.at("devices");
            if (static_cast<int>(devices.size()) != g.nodeCount())
                throw InputError(where + ": a saved run of " + run.model.toStdString() + " does not cover the graph");
            for (const auto &name : devices) {
                const int d = s.cluster.findDevice(name.get<std::string>());
                if (d < 0)
                    throw InputError(where + ": a saved run names unknown device '" + name.get<std::string>() + "'");
                run.placement.push_back(d);
            }
            s.runs.push_back(std::move(run));
        }
        if (j.contains("steering")) {
            try { // a log this build cannot read costs the steering session, not the rest
                s.steering = std::make_shared<const SteeringLogDoc>(
                    parseSteeringLog(j["steering"].dump(), where + " (steering)"));
            } catch (const InputError &e) {
                s.steeringError = e.what();
            }
        }
    } catch (const Json::exception &e) {
        throw InputError(where + ": malformed session (" + jsonErrorText(e) + ")");
    }
    return s;
}

} // namespace ps
