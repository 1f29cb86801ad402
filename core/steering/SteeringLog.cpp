#include "core/steering/SteeringLog.h"
#include "core/io/JsonSplice.h"

#include "core/Fnv1a.h"
#include "core/InputError.h"
#include "core/cluster/Cluster.h"
#include "core/graph/Graph.h"
#include "core/io/FileBytes.h"
#include "core/io/JsonError.h"
#include "core/io/JsonText.h"
#include "core/io/OrderedObject.h"
#include "core/steering/SteeringSession.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <limits>

namespace ps {

using Json = nlohmann::ordered_json;

namespace {

Json termsJson(const ObjectiveTerms &t)
{
    return Json{{"makespan_s", t.makespan},
                {"overflow_factor", t.overflowFactor},
                {"communication_s", t.communication},
                {"moved_bytes", t.movedBytes},
                {"peak_memory_share", t.peakMemoryShare},
                {"imbalance_s", t.imbalance},
                {"preference_penalty", t.preferencePenalty},
                {"important_path_s", t.importantPath},
                {"bound_s", t.bound},
                {"feasible", t.feasible}};
}

ObjectiveTerms termsFrom(const Json &j)
{
    ObjectiveTerms t;
    t.makespan = j.at("makespan_s").get<double>();
    t.overflowFactor = j.at("overflow_factor").get<double>();
    t.communication = j.at("communication_s").get<double>();
    t.movedBytes = j.at("moved_bytes").get<double>();
    t.peakMemoryShare = j.at("peak_memory_share").get<double>();
    t.imbalance = j.at("imbalance_s").get<double>();
    t.preferencePenalty = j.at("preference_penalty").get<double>();
    t.importantPath = j.value("important_path_s", 0.0); // absent in logs before the term existed
    t.bound = j.at("bound_s").get<double>();
    t.feasible = j.at("feasible").get<bool>();
    return t;
}

std::string hexHash(uint64_t h)
{
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

const char *verdictName(Candidate::Verdict v)
{
    return v == Candidate::Verdict::Accepted ? "accepted" : v == Candidate::Verdict::Rejected ? "rejected" : "";
}

// Feedback with nodes and devices by name, candidates by id as text.
FeedbackText feedbackText(const SteeringFeedback &f, int round, const Graph &g, const Cluster &c)
{
    FeedbackText t;
    t.round = round;
    if (f.setWeights)
        t.objective = f.weights.weightsText();
    auto pairs = [&](const std::vector<std::pair<int, int>> &list,
                     std::vector<std::pair<std::string, std::string>> &out) {
        for (const auto &[v, d] : list)
            out.emplace_back(g.id(v), d >= 0 ? c.device(d).name : std::string());
    };
    pairs(f.pins, t.pins);
    pairs(f.prefer, t.prefer);
    auto nodes = [&](const std::vector<int> &list) {
        std::vector<std::string> ids;
        for (int v : list)
            ids.push_back(g.id(v));
        return ids;
    };
    for (const auto &group : f.together)
        t.together.push_back(nodes(group));
    t.important = nodes(f.important);
    t.unimportant = nodes(f.unimportant);
    t.dropTogether = f.dropTogether;
    t.familyWeights = f.familyWeights;
    auto ids = [](const std::vector<int> &list) {
        std::vector<std::string> out;
        for (int id : list)
            out.push_back(std::to_string(id));
        return out;
    };
    t.accept = ids(f.accept);
    t.reject = ids(f.reject);
    t.clearVerdict = ids(f.clearVerdict);
    return t;
}

Json feedbackJson(const FeedbackText &t)
{
    Json j{{"round", t.round}};
    if (!t.objective.empty())
        j["objective"] = t.objective;
    auto pairs = [](const std::vector<std::pair<std::string, std::string>> &list) {
        OrderedMembers o; // node ids are distinct: linear, where a keyed insert searched them all
        o.reserve(list.size());
        for (const auto &[id, name] : list)
            o.emplace_back(id, name);
        return orderedObject(std::move(o));
    };
    auto list = [&](const char *key, const auto &values) { // written only when there are some
        if (!values.empty())
            j[key] = values;
    };
    if (!t.pins.empty())
        j["pins"] = pairs(t.pins);
    if (!t.prefer.empty())
        j["prefer"] = pairs(t.prefer);
    list("together", t.together);
    list("important", t.important);
    list("unimportant", t.unimportant);
    if (t.dropTogether > 0)
        j["drop_together"] = t.dropTogether;
    if (!t.familyWeights.empty()) {
        Json w = Json::object();
        for (const auto &[name, weight] : t.familyWeights)
            w[name] = weight;
        j["family_weights"] = w;
    }
    list("accept", t.accept);
    list("reject", t.reject);
    list("clear_verdict", t.clearVerdict);
    return j;
}

// The feedback entries of `round` (rounds past the last: the pending ones), in order.
Json feedbackList(const std::vector<FeedbackText> &all, int round, bool pending)
{
    Json a = Json::array();
    for (const FeedbackText &t : all)
        if (pending ? t.round >= round : t.round == round)
            a.push_back(feedbackJson(t));
    return a;
}

// A whole number from `least` to the largest int (a larger one was read wrapped around).
bool isCount(const Json &v, uint64_t least)
{
    return v.is_number_unsigned() && v.get<uint64_t>() >= least &&
           v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int>::max());
}

FeedbackText feedbackFrom(const Json &j, const std::string &where)
{
    if (!j.is_object())
        throw InputError(where + ": each feedback entry must be a JSON object");
    FeedbackText f;
    static const char *const known[] = {"round",          "objective", "pins",        "prefer",
                                        "together",       "important", "unimportant", "drop_together",
                                        "family_weights", "accept",    "reject",      "clear_verdict"};
    for (const auto &item : j.items())
        if (std::find(std::begin(known), std::end(known), item.key()) == std::end(known))
            throw InputError(where + ": unknown feedback key '" + item.key() +
                             "' (known: round, objective, pins, prefer, together, important, unimportant, "
                             "drop_together, family_weights, accept, reject, clear_verdict)");
    if (!j.contains("round") || !isCount(j["round"], 1))
        throw InputError(where + ": feedback needs \"round\": N (the round it precedes, from 1)");
    f.round = j["round"].get<int>();
    if (j.contains("objective")) {
        if (!j["objective"].is_string())
            throw InputError(where + ": \"objective\" must be a string such as \"makespan=1,bytes=0.2\"");
        f.objective = j["objective"].get<std::string>();
    }
    auto pairs = [&](const char *key, std::vector<std::pair<std::string, std::string>> &out) {
        if (!j.contains(key))
            return;
        if (!j[key].is_object())
            throw InputError(where + ": \"" + key + "\" must map node ids to device names");
        for (const auto &item : j[key].items()) {
            if (!item.value().is_string())
                throw InputError(where + ": \"" + key + "\" of '" + item.key() + "' must be a device name");
            out.emplace_back(item.key(), item.value().get<std::string>());
        }
    };
    pairs("pins", f.pins);
    pairs("prefer", f.prefer);
    auto strings = [&](const Json &a, const std::string &what) {
        if (!a.is_array())
            throw InputError(where + ": " + what + " must be an array of strings");
        std::vector<std::string> out;
        for (const Json &s : a) {
            if (!s.is_string())
                throw InputError(where + ": " + what + " must be an array of strings");
            out.push_back(s.get<std::string>());
        }
        return out;
    };
    if (j.contains("together")) {
        if (!j["together"].is_array())
            throw InputError(where + ": \"together\" must be an array of arrays of node ids");
        for (const Json &group : j["together"])
            f.together.push_back(strings(group, "each \"together\" group"));
    }
    if (j.contains("important"))
        f.important = strings(j["important"], "\"important\"");
    if (j.contains("unimportant"))
        f.unimportant = strings(j["unimportant"], "\"unimportant\"");
    if (j.contains("drop_together")) {
        if (!isCount(j["drop_together"], 0))
            throw InputError(where + ": \"drop_together\" must be a count >= 0");
        f.dropTogether = j["drop_together"].get<int>();
    }
    // Candidates by id (a number, or its digits in a string) or "best".
    auto candidates = [&](const std::string &key) {
        std::vector<std::string> out;
        if (j[key].is_array())
            for (const Json &c : j[key])
                if (c.is_string() || c.is_number_unsigned())
                    out.push_back(c.is_string() ? c.get<std::string>() : c.dump());
        if (!j[key].is_array() || out.size() != j[key].size())
            throw InputError(where + ": \"" + key + "\" must be an array of candidate ids or \"best\"");
        return out;
    };
    if (j.contains("clear_verdict"))
        f.clearVerdict = candidates("clear_verdict");
    if (j.contains("family_weights")) {
        if (!j["family_weights"].is_object())
            throw InputError(where + ": \"family_weights\" must map family names to numbers");
        for (const auto &item : j["family_weights"].items()) {
            if (!item.value().is_number())
                throw InputError(where + ": the weight of '" + item.key() + "' must be a number");
            f.familyWeights.emplace_back(item.key(), item.value().get<double>());
        }
    }
    if (j.contains("accept"))
        f.accept = candidates("accept");
    if (j.contains("reject"))
        f.reject = candidates("reject");
    return f;
}

Json parseJson(const std::string &text, const std::string &source)
{
    try {
        return Json::parse(text);
    } catch (const Json::exception &e) {
        throw InputError(source + ": not valid JSON (" + jsonErrorText(e) + ")");
    }
}

} // namespace

std::vector<FeedbackText> readFeedbackFile(const std::string &path)
{
    return parseFeedback(readFileBytes(path), path);
}

std::vector<FeedbackText> parseFeedback(const std::string &text, const std::string &path)
{
    const Json j = parseJson(text, path);
    const Json &list = j.is_object() && j.contains("feedback") ? j["feedback"] : j;
    if (!list.is_array())
        throw InputError(path + ": a feedback file is a JSON array of {\"round\": N, ...} objects");
    std::vector<FeedbackText> out;
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string where = path + " entry " + std::to_string(i + 1);
        out.push_back(feedbackFrom(list[i], where));
        try { // weights as --objective takes them (a log's may weigh nothing: it was written before the rule)
            if (!out.back().objective.empty())
                Objective::parse(out.back().objective);
        } catch (const InputError &e) {
            rethrowWithContext(e, where);
        }
    }
    return out;
}

SteeringFeedback resolveFeedback(const FeedbackText &t, const Graph &graph, const Cluster &cluster,
                                 const SteeringSession &session, const std::string &source)
{
    SteeringFeedback f;
    auto node = [&](const std::string &id) {
        const int v = graph.findNode(id);
        if (v < 0)
            throw InputError(source + ": feedback names unknown node '" + id + "'");
        return v;
    };
    auto device = [&](const std::string &name) {
        if (name.empty())
            return -1;
        const int d = cluster.findDevice(name);
        if (d < 0)
            throw InputError(source + ": feedback names unknown device '" + name + "'");
        return d;
    };
    if (!t.objective.empty()) {
        f.setWeights = true;
        f.weights = Objective::parse(t.objective, true); // (a log from before the rule must load)
    }
    for (const auto &[id, name] : t.pins) {
        const int v = node(id); // the node's error first, then the device's
        f.pins.emplace_back(v, device(name));
    }
    for (const auto &[id, name] : t.prefer) {
        const int v = node(id);
        f.prefer.emplace_back(v, device(name));
    }
    for (const auto &group : t.together) {
        std::vector<int> nodes;
        for (const std::string &id : group)
            nodes.push_back(node(id));
        f.together.push_back(nodes);
    }
    for (const std::string &id : t.important)
        f.important.push_back(node(id));
    for (const std::string &id : t.unimportant)
        f.unimportant.push_back(node(id));
    f.dropTogether = t.dropTogether;
    f.familyWeights = t.familyWeights;
    auto candidate = [&](const std::string &text) {
        if (text == "best") {
            const std::vector<int> ranked = session.ranking();
            if (ranked.empty())
                throw InputError(source + ": feedback names the best candidate before there is one");
            return ranked.front();
        }
        try {
            size_t used = 0;
            const int id = std::stoi(text, &used);
            if (used == text.size())
                return id;
        } catch (const std::exception &) {}
        throw InputError(source + ": candidate '" + text + "' must be an id or \"best\"");
    };
    for (const std::string &id : t.accept)
        f.accept.push_back(candidate(id));
    for (const std::string &id : t.reject)
        f.reject.push_back(candidate(id));
    for (const std::string &id : t.clearVerdict)
        f.clearVerdict.push_back(candidate(id));
    return f;
}

std::string graphContentHash(const Graph &graph)
{
    Fnv1a h;
    auto text = [&](const std::string &s) { h.add(s.c_str(), s.size() + 1); }; // with its '\0': "ab","c" != "a","bc"
    auto number = [&](double x) { h.add(&x, sizeof x); };
    for (int v = 0; v < graph.nodeCount(); ++v) {
        text(graph.id(v));
        text(graph.op(v));
        for (double x : {graph.flops(v), graph.outBytes(v), graph.paramBytes(v), graph.memBytes(v)})
            number(x);
        for (const auto &o : graph.computeOverrides(v)) {
            text(graph.deviceTypeNames()[static_cast<size_t>(o.deviceType)]);
            number(o.seconds);
        }
        const auto succ = graph.successors(v);
        const auto succBytes = graph.successorBytes(v);
        for (size_t i = 0; i < succ.size(); ++i) {
            h.add(&succ[i], sizeof(int));
            number(succBytes[i]);
        }
    }
    return h.hex();
}

SteeringLogDoc steeringLogDoc(const SteeringSession &session, const Graph &graph, const Cluster &cluster,
                              const EnsembleResult *ensemble, const std::string &policyDir)
{
    SteeringLogDoc d;
    d.graphName = graph.name();
    d.graphHash = session.graphHash();
    d.clusterName = cluster.name();
    d.settings = session.settings();
    d.objective = session.objective().weightsText();
    d.policyDir = policyDir;
    d.evaluations = session.evaluationsSpent();
    d.deviceNames = cluster.deviceNames();
    for (const RoundRecord &r : session.rounds()) {
        for (const SteeringFeedback &f : r.feedback)
            d.feedback.push_back(feedbackText(f, r.round, graph, cluster));
        d.roundCandidates.push_back(r.candidates);
        d.roundBudgets.push_back(r.budget);
        d.roundLeft.push_back(r.left);
        d.roundEvaluations.push_back(r.evaluations);
    }
    const int next = static_cast<int>(session.rounds().size()) + 1;
    for (const SteeringFeedback &f : session.pendingFeedback())
        d.feedback.push_back(feedbackText(f, next, graph, cluster));
    d.candidates = session.candidates();
    for (const Candidate &c : d.candidates)
        d.agreement.push_back(c.error.empty() ? session.agreement(c.devices) : 0.0);
    d.ranking = session.ranking();
    if (ensemble) {
        d.haveEnsemble = true;
        d.ensemble = *ensemble;
    }
    return d;
}

std::string steeringLogJson(const SteeringLogDoc &d)
{
    JsonSplice splice; // placements on one line each
    const SteeringSettings &s = d.settings;
    Json j{{"format", "steering-log"}, {"version", 1}, {"graph", d.graphName}, {"cluster", d.clusterName}};
    if (!d.graphHash.empty())
        j["graph_hash"] = d.graphHash;
    j["settings"] = Json{{"seed", s.seed},
                         {"per_round", s.perRound},
                         {"round_evaluations", s.roundEvaluations},
                         {"families", s.families},
                         {"threads", s.threads},
                         {"searches", s.searches},
                         {"exact_budget", s.exactBudget},
                         {"guided", s.sampling == Sampling::Guided},
                         {"random_search", s.sampling == Sampling::RandomSearch},
                         {"exploration", s.exploration}};
    j["objective"] = d.objective;
    if (!d.policyDir.empty())
        j["policy_dir"] = d.policyDir;
    j["evaluations"] = d.evaluations;
    j["devices"] = d.deviceNames;
    Json rounds = Json::array();
    const int count = static_cast<int>(d.roundBudgets.size());
    for (int r = 0; r < count; ++r)
        rounds.push_back({{"round", r + 1},
                          {"feedback", feedbackList(d.feedback, r + 1, false)},
                          {"candidates", d.roundCandidates[r]},
                          {"budget", d.roundBudgets[r]},
                          {"left", d.roundLeft[r]},
                          {"evaluations", d.roundEvaluations[r]}});
    j["rounds"] = rounds;
    j["pending"] = feedbackList(d.feedback, count + 1, true);
    Json candidates = Json::array();
    for (size_t i = 0; i < d.candidates.size(); ++i) {
        const Candidate &c = d.candidates[i];
        Json cj{{"id", c.id},         {"round", c.round}, {"arm", c.arm},   {"spec", c.spec},
                {"params", c.params}, {"x", c.x},         {"seed", c.seed}, {"refines", c.refines}};
        if (c.partner >= 0) {
            cj["partner"] = c.partner;
            cj["recombine_evaluations"] = c.recombineEvaluations;
        }
        if (c.budget > 0)
            cj["budget"] = c.budget;
        if (!c.error.empty()) {
            cj["error"] = c.error;
        } else {
            cj["hash"] = hexHash(c.hash);
            cj["duplicate_of"] = c.duplicateOf;
            cj["score"] = c.score;
            cj["agreement"] = i < d.agreement.size() ? d.agreement[i] : 1.0;
            cj["terms"] = termsJson(c.terms);
            cj["evaluations"] = c.evaluations;
            cj["wall_s"] = c.wallS;
            if (c.continued)
                cj["continued_policy"] = true;
            if (!c.notes.empty())
                cj["notes"] = c.notes;
            cj["verdict"] = verdictName(c.verdict);
            cj["placement"] = splice.hold(Json(c.devices).dump());
        }
        candidates.push_back(cj);
    }
    j["candidates"] = candidates;
    j["ranking"] = d.ranking;
    if (d.haveEnsemble) {
        const EnsembleResult &e = d.ensemble;
        j["ensemble"] = Json{{"members", e.members},
                             {"score", e.score},
                             {"terms", termsJson(e.terms)},
                             {"budget", e.budget},
                             {"evaluations", e.evaluations},
                             {"unanimous_share", e.agreementWithMembers},
                             {"placement", splice.hold(Json(e.devices).dump())}};
    }
    return splice.fill(jsonText(j, 1)) + "\n";
}

std::string steeringLogJson(const SteeringSession &session, const Graph &graph, const Cluster &cluster,
                            const EnsembleResult *ensemble, const std::string &policyDir)
{
    return steeringLogJson(steeringLogDoc(session, graph, cluster, ensemble, policyDir));
}

void writeSteeringLog(const std::string &path, const SteeringSession &session, const Graph &graph,
                      const Cluster &cluster, const EnsembleResult *ensemble)
{
    writeFileAtomic(path, steeringLogJson(session, graph, cluster, ensemble));
}

SteeringLogDoc parseSteeringLog(const std::string &text, const std::string &source)
{
    const Json j = parseJson(text, source);
    if (!j.is_object() || j.value("format", Json()) != "steering-log") // any type: a message, not a throw
        throw InputError(source + ": not a steering log (\"format\": \"steering-log\")");
    SteeringLogDoc doc;
    try {
        doc.graphName = j.value("graph", "");
        doc.graphHash = j.value("graph_hash", "");
        doc.clusterName = j.value("cluster", "");
        doc.policyDir = j.value("policy_dir", "");
        const Json &s = j.at("settings");
        doc.settings.seed = s.at("seed").get<uint64_t>();
        doc.settings.perRound = s.at("per_round").get<int>();
        doc.settings.roundEvaluations = s.at("round_evaluations").get<long long>();
        doc.settings.families = s.at("families").get<std::vector<std::string>>();
        doc.settings.threads = s.at("threads").get<int>();
        // Older logs: a round held a search per thread.
        doc.settings.searches = s.value("searches", doc.settings.threads);
        doc.settings.exactBudget = s.value("exact_budget", false);
        // "random_search" is absent from older logs.
        doc.settings.sampling = s.at("guided").get<bool>()        ? Sampling::Guided
                                : s.value("random_search", false) ? Sampling::RandomSearch
                                                                  : Sampling::Uniform;
        doc.settings.exploration = s.at("exploration").get<double>();
        doc.objective = j.at("objective").get<std::string>();
        doc.deviceNames = j.at("devices").get<std::vector<std::string>>();
        for (const Json &r : j.at("rounds")) {
            for (const Json &f : r.at("feedback"))
                doc.feedback.push_back(feedbackFrom(f, source));
            doc.roundCandidates.push_back(r.at("candidates").get<std::vector<int>>());
            doc.roundBudgets.push_back(r.at("budget").get<long long>());
            doc.roundLeft.push_back(r.value("left", -1LL)); // logs before it: open-ended
            doc.roundEvaluations.push_back(r.value("evaluations", 0LL));
        }
        doc.evaluations = j.value("evaluations", 0LL);
        if (j.contains("pending"))
            for (const Json &f : j["pending"])
                doc.feedback.push_back(feedbackFrom(f, source));
        for (const Json &cj : j.at("candidates")) {
            Candidate c;
            double agreement = 0;
            c.id = cj.at("id").get<int>();
            c.round = cj.at("round").get<int>();
            c.arm = cj.at("arm").get<std::string>();
            c.spec = cj.at("spec").get<std::string>();
            c.params = cj.at("params").get<std::vector<std::string>>();
            c.x = cj.at("x").get<std::vector<double>>();
            c.seed = cj.at("seed").get<uint64_t>();
            c.refines = cj.at("refines").get<int>();
            c.partner = cj.value("partner", -1);
            c.recombineEvaluations = cj.value("recombine_evaluations", 0LL);
            c.budget = cj.value("budget", 0LL);
            if (cj.contains("error")) {
                c.error = cj["error"].get<std::string>();
            } else {
                c.hash = std::stoull(cj.at("hash").get<std::string>(), nullptr, 16);
                c.duplicateOf = cj.at("duplicate_of").get<int>();
                c.score = cj.at("score").get<double>();
                c.terms = termsFrom(cj.at("terms"));
                c.evaluations = cj.at("evaluations").get<long long>();
                c.wallS = cj.at("wall_s").get<double>();
                c.continued = cj.value("continued_policy", false);
                c.notes = cj.value("notes", std::vector<std::string>{});
                agreement = cj.value("agreement", 1.0);
                const std::string v = cj.at("verdict").get<std::string>();
                c.verdict = v == "accepted"   ? Candidate::Verdict::Accepted
                            : v == "rejected" ? Candidate::Verdict::Rejected
                                              : Candidate::Verdict::None;
                c.devices = cj.at("placement").get<std::vector<int>>();
            }
            doc.candidates.push_back(std::move(c));
            doc.agreement.push_back(agreement);
        }
        if (j.contains("ranking"))
            doc.ranking = j["ranking"].get<std::vector<int>>();
        if (j.contains("ensemble")) {
            const Json &e = j["ensemble"];
            doc.haveEnsemble = true;
            doc.ensemble.members = e.at("members").get<std::vector<int>>();
            doc.ensemble.score = e.at("score").get<double>();
            doc.ensemble.terms = termsFrom(e.at("terms"));
            doc.ensemble.evaluations = e.at("evaluations").get<long long>();
            doc.ensemble.budget = e.at("budget").get<long long>();
            doc.ensemble.devices = e.at("placement").get<std::vector<int>>();
            doc.ensemble.agreementWithMembers = e.value("unanimous_share", 0.0);
        }
    } catch (const Json::exception &e) {
        throw InputError(source + ": malformed steering log (" + jsonErrorText(e) + ")");
    } catch (const std::logic_error &e) {
        throw InputError(source + ": malformed steering log (" + jsonErrorText(e) + ")");
    }
    return doc;
}

SteeringLogDoc readSteeringLog(const std::string &path)
{
    return parseSteeringLog(readFileBytes(path), path);
}

std::string candidateTaskJson(const Candidate &c)
{
    return jsonText(Json{{"arm", c.arm},
                         {"spec", c.spec},
                         {"params", c.params},
                         {"seed", c.seed},
                         {"refines", c.refines},
                         {"partner", c.partner},
                         {"recombine_evaluations", c.recombineEvaluations},
                         {"budget", c.budget}});
}

Candidate candidateFromTask(const std::string &text)
{
    const Json j = parseJson(text, "a steering task");
    Candidate c;
    try {
        c.spec = j.at("spec").get<std::string>();
        c.arm = j.value("arm", c.spec);
        c.params = j.at("params").get<std::vector<std::string>>();
        c.seed = j.at("seed").get<uint64_t>();
        c.refines = j.at("refines").get<int>();
        c.partner = j.value("partner", -1);
        c.recombineEvaluations = j.value("recombine_evaluations", 0LL);
        c.budget = j.value("budget", 0LL);
    } catch (const Json::exception &e) {
        throw InputError("malformed steering task (" + jsonErrorText(e) + ")");
    }
    return c;
}

std::string candidateResultJson(const Candidate &c)
{
    if (!c.error.empty())
        return jsonText(Json{{"error", c.error}});
    return jsonText(Json{{"placement", c.devices},
                         {"terms", termsJson(c.terms)},
                         {"score", c.score},
                         {"evaluations", c.evaluations},
                         {"wall_s", c.wallS},
                         {"continued_policy", c.continued},
                         {"notes", c.notes}});
}

void readCandidateResult(const std::string &text, Candidate &c)
{
    const Json j = parseJson(text, "a steering result");
    try {
        if (j.contains("error")) {
            c.error = j["error"].get<std::string>();
            return;
        }
        c.devices = j.at("placement").get<std::vector<int>>();
        c.terms = termsFrom(j.at("terms"));
        c.score = j.at("score").get<double>();
        c.evaluations = j.at("evaluations").get<long long>();
        c.wallS = j.at("wall_s").get<double>();
        c.continued = j.value("continued_policy", false);
        c.notes = j.value("notes", std::vector<std::string>{});
    } catch (const Json::exception &e) {
        throw InputError("malformed steering result (" + jsonErrorText(e) + ")");
    }
}

} // namespace ps
