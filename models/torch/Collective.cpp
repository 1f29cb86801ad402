// Data-parallel collectives over c10d: TCPStore rendezvous, a join handshake of our own (world
// size and fingerprint), Gloo all-reduce and broadcast. See Collective.h.
#include "models/torch/Collective.h"

#include "core/InputError.h"
#include "core/family/Stopwatch.h"

#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>
#if defined(C10_USE_GLOG) && __has_include(<glog/logging.h>)
#include <glog/logging.h>
#define PS_QUIET_GLOG 1
#endif
#ifdef PS_WITH_GLOO
#define USE_C10D_GLOO 1
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#endif

#include <sstream>
#include <stdexcept>
#include <thread>

namespace ps::learn {

std::string firstLine(const std::exception &e)
{
    const auto *c10 = dynamic_cast<const c10::Error *>(&e);
    std::string text = c10 ? c10->what_without_backtrace() : e.what();
    text.erase(0, text.find_first_not_of(" \n")); // LibTorch's JIT starts its messages with a newline
    const size_t nl = text.find('\n');
    return nl == std::string::npos ? text : text.substr(0, nl);
}

std::vector<uint8_t> storeValue(const std::string &text)
{
    return {text.begin(), text.end()};
}

std::string storeText(const std::vector<uint8_t> &value)
{
    return {value.begin(), value.end()};
}

void quietDistributedLogging()
{
#ifdef PS_QUIET_GLOG
    FLAGS_minloglevel = google::GLOG_FATAL;
#endif
}

namespace {

enum { kSum, kMax, kBroadcast, kBarrier };

std::string joinKey(int rank)
{
    return "ps/join/" + std::to_string(rank);
}

// "key=value" lines to a map-like list, in order.
std::vector<std::pair<std::string, std::string>> lines(const std::string &fingerprint)
{
    std::vector<std::pair<std::string, std::string>> out;
    std::istringstream in(fingerprint);
    for (std::string line; std::getline(in, line);) {
        const size_t eq = line.find('=');
        out.emplace_back(line.substr(0, eq), eq == std::string::npos ? "" : line.substr(eq + 1));
    }
    return out;
}

// Empty when b agrees with a; else names the first key that differs.
std::string firstDifference(const std::string &a, const std::string &b, int rankB)
{
    const auto la = lines(a), lb = lines(b);
    for (size_t i = 0; i < std::max(la.size(), lb.size()); ++i) {
        const std::string key = i < la.size() ? la[i].first : lb[i].first;
        const std::string va = i < la.size() ? la[i].second : "(none)";
        const std::string vb = i < lb.size() && lb[i].first == key ? lb[i].second : "(none)";
        if (va != vb)
            return "rank " + std::to_string(rankB) + " differs from rank 0 in " + key + ": " + vb + " against " + va;
    }
    return {};
}

bool loopback(const std::string &host)
{
    return host == "127.0.0.1" || host == "localhost" || host == "::1";
}

} // namespace

#ifdef PS_WITH_GLOO
struct Collective::Group
{
    c10::intrusive_ptr<c10d::Store> store;
    c10::intrusive_ptr<c10d::ProcessGroupGloo> gloo;

    explicit Group(const Distribution &d)
    {
        quietDistributedLogging();
        const std::string where = d.masterHost + ":" + std::to_string(d.masterPort);
        const auto timeout = std::chrono::milliseconds(static_cast<long long>(d.timeoutS * 1000));
        const std::string me = "rank " + std::to_string(d.rank);

        c10d::TCPStoreOptions options;
        options.port = static_cast<uint16_t>(d.masterPort);
        options.isServer = d.leader();
        options.waitWorkers = false;
        options.timeout = timeout;
        try {
            store = c10::make_intrusive<c10d::TCPStore>(d.masterHost, options);
        } catch (const std::exception &e) {
            if (d.leader())
                throw InputError("rank 0 could not open the rendezvous on " + where + " (" + firstLine(e) +
                                 "); is the port in use? Choose another with --master HOST:PORT");
            throw InputError(me + " could not reach the master at " + where + " within " + messageNumber(d.timeoutS) +
                             " s (" + firstLine(e) + "); is rank 0 running, and is the address right?");
        }

        // Join: every rank states its world size and fingerprint; rank 0 compares and answers.
        const std::string mine = "world_size=" + std::to_string(d.worldSize) + "\n" + d.fingerprint;
        try {
            store->set(joinKey(d.rank), storeValue(mine));
            if (d.leader()) {
                std::vector<std::string> keys;
                for (int r = 1; r < d.worldSize; ++r)
                    keys.push_back(joinKey(r));
                std::string verdict;
                try {
                    store->wait(keys, timeout);
                } catch (const std::exception &) {
                    std::string joined = "0";
                    for (int r = 1; r < d.worldSize; ++r)
                        if (store->check({joinKey(r)}))
                            joined += ", " + std::to_string(r);
                    verdict = "only ranks " + joined + " of " + std::to_string(d.worldSize) + " joined within " +
                              messageNumber(d.timeoutS) + " s; check --world-size and that every rank was started";
                }
                for (int r = 1; r < d.worldSize && verdict.empty(); ++r)
                    verdict = firstDifference(mine, storeText(store->get(joinKey(r))), r);
                store->set("ps/verdict", storeValue(verdict.empty() ? "ok " + std::to_string(d.worldSize) : verdict));
                // Keep the rendezvous up until every rank has read the verdict (a refused rank
                // then hears why, rather than that the connection was reset).
                const auto until =
                    std::chrono::steady_clock::now() + std::min(timeout, std::chrono::milliseconds(5000));
                while (store->add("ps/read", 0) < d.worldSize - 1 && std::chrono::steady_clock::now() < until)
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));
                if (!verdict.empty())
                    throw InputError(verdict);
            } else {
                store->wait({"ps/verdict"}, timeout);
                const std::string verdict = storeText(store->get("ps/verdict"));
                store->add("ps/read", 1);
                if (verdict.rfind("ok ", 0) != 0)
                    throw InputError(verdict);
                if (verdict != "ok " + std::to_string(d.worldSize))
                    throw InputError(me + " says the world has " + std::to_string(d.worldSize) +
                                     " processes; rank 0 says " + verdict.substr(3));
            }
        } catch (const InputError &) {
            throw;
        } catch (const std::exception &e) {
            throw InputError(me + " could not join the group at " + where + " within " + messageNumber(d.timeoutS) +
                             " s (" + firstLine(e) + "); check --world-size and that every rank was started");
        }

        try {
            auto opts = c10d::ProcessGroupGloo::Options::create(timeout);
            opts->devices.push_back(loopback(d.masterHost)
                                        ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                                        : c10d::ProcessGroupGloo::createDefaultDevice());
            auto prefixed = c10::make_intrusive<c10d::PrefixStore>("gloo", store);
            gloo = c10::make_intrusive<c10d::ProcessGroupGloo>(prefixed, d.rank, d.worldSize, opts);
        } catch (const std::exception &e) {
            throw InputError(me + " could not connect to the other ranks (" + firstLine(e) + ")");
        }
    }

    void allreduce(std::vector<torch::Tensor> &t, bool max)
    {
        c10d::AllreduceOptions o;
        o.reduceOp = max ? c10d::ReduceOp::MAX : c10d::ReduceOp::SUM;
        gloo->allreduce(t, o)->wait();
    }
    void broadcast(std::vector<torch::Tensor> &t, int root)
    {
        c10d::BroadcastOptions o;
        o.rootRank = root;
        gloo->broadcast(t, o)->wait();
    }
    void barrier() { gloo->barrier()->wait(); }
};
#else
struct Collective::Group
{
    explicit Group(const Distribution &)
    {
        throw InputError("this build trains in one process only: it was built without Gloo's headers (libgloo-dev)");
    }
    void allreduce(std::vector<torch::Tensor> &, bool) {}
    void broadcast(std::vector<torch::Tensor> &, int) {}
    void barrier() {}
};
#endif

Collective::Collective(const Distribution &distribution) : m_distribution(distribution)
{
    const Distribution &d = m_distribution;
    if (d.worldSize < 1 || d.worldSize > 4096)
        throw InputError("world size " + std::to_string(d.worldSize) + " is out of range (1 to 4096)");
    if (d.rank < 0 || d.rank >= d.worldSize)
        throw InputError("rank " + std::to_string(d.rank) + " is outside a world of " + std::to_string(d.worldSize) +
                         " processes (ranks 0 to " + std::to_string(d.worldSize - 1) + ")");
    if (!d.distributed())
        return;
    if (d.masterPort < 1 || d.masterPort > 65535)
        throw InputError("master port " + std::to_string(d.masterPort) + " is out of range (1 to 65535)");
    m_group = std::make_unique<Group>(d);
}

Collective::~Collective() = default;

void Collective::fail(const std::string &during, const std::exception &e) const
{
    throw LostRank("rank " + std::to_string(rank()) + " lost contact with the other ranks during " + during +
                   " (a rank stopped or the network failed): " + firstLine(e));
}

void Collective::collective(const std::string &during, std::vector<torch::Tensor> &t, int kind, int root)
{
    const auto t0 = std::chrono::steady_clock::now();
    try {
        if (kind == kBarrier)
            m_group->barrier();
        else if (kind == kBroadcast)
            m_group->broadcast(t, root);
        else
            m_group->allreduce(t, kind == kMax);
    } catch (const std::exception &e) {
        fail(during, e);
    }
    m_seconds += secondsSince(t0);
    ++m_calls;
    for (const torch::Tensor &x : t)
        m_bytes += static_cast<long long>(x.numel() * x.element_size());
}

std::string Collective::note() const
{
    char text[200];
    std::snprintf(text, sizeof text,
                  "data-parallel over %d processes (rank %d): %lld collectives, %.3f s in them, %.1f KB sent", size(),
                  rank(), m_calls, m_seconds, static_cast<double>(m_bytes) / 1024);
    return text;
}

bool Collective::any(bool flag)
{
    if (!m_group)
        return flag;
    std::vector<torch::Tensor> t{torch::full({1}, flag ? 1.0f : 0.0f)};
    collective("a step", t, kMax);
    return t[0].item<float>() > 0;
}

std::vector<double> Collective::sum(std::vector<double> values)
{
    if (!m_group || values.empty())
        return values;
    std::vector<torch::Tensor> t{torch::tensor(values, torch::kFloat64)};
    collective("a step", t, kSum);
    const double *p = t[0].data_ptr<double>();
    return {p, p + values.size()};
}

std::vector<double> Collective::perRank(double mine)
{
    std::vector<double> all(static_cast<size_t>(size()), 0.0);
    all[static_cast<size_t>(rank())] = mine;
    return sum(std::move(all));
}

void Collective::sumGradients(const std::vector<torch::Tensor> &parameters)
{
    if (!m_group)
        return;
    std::vector<torch::Tensor> flat;
    for (const torch::Tensor &p : parameters)
        flat.push_back(p.grad().defined() ? p.grad().reshape({-1}) : torch::zeros({p.numel()}, p.options()));
    std::vector<torch::Tensor> t{torch::cat(flat).to(torch::kCPU).contiguous()};
    collective("the gradient all-reduce", t, kSum);
    int64_t at = 0;
    for (const torch::Tensor &p : parameters) {
        const torch::Tensor g = t[0].slice(0, at, at + p.numel()).view(p.sizes()).to(p.device());
        at += p.numel();
        if (p.grad().defined())
            p.mutable_grad().copy_(g);
        else
            p.mutable_grad() = g.clone();
    }
}

void Collective::shareParameters(const std::vector<torch::Tensor> &parameters)
{
    if (!m_group || parameters.empty())
        return;
    torch::NoGradGuard noGrad;
    std::vector<torch::Tensor> flat;
    for (const torch::Tensor &p : parameters)
        flat.push_back(p.detach().reshape({-1}).to(torch::kCPU));
    std::vector<torch::Tensor> t{torch::cat(flat).contiguous()};
    collective("the parameter broadcast", t, kBroadcast, 0);
    int64_t at = 0;
    for (const torch::Tensor &p : parameters) {
        p.copy_(t[0].slice(0, at, at + p.numel()).view(p.sizes()));
        at += p.numel();
    }
}

std::vector<int> Collective::bestOf(double key, const std::vector<int> &devices)
{
    if (!m_group)
        return devices;
    const std::vector<double> keys = perRank(key);
    const int winner = static_cast<int>(std::min_element(keys.begin(), keys.end()) - keys.begin());
    std::vector<torch::Tensor> t{torch::tensor(std::vector<int64_t>(devices.begin(), devices.end()), torch::kInt64)};
    collective("sharing the best placement", t, kBroadcast, winner);
    const int64_t *p = t[0].data_ptr<int64_t>();
    return {p, p + devices.size()};
}

void Collective::barrier()
{
    if (!m_group)
        return;
    std::vector<torch::Tensor> none;
    collective("the final barrier", none, kBarrier);
}

at::Generator sampleGenerator(uint64_t seed, long long step, long long sample)
{
    // splitmix64 over the three numbers: nearby steps and samples give unrelated streams.
    auto mix = [](uint64_t x) {
        x += 0x9e3779b97f4a7c15ULL;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
        return x ^ (x >> 31);
    };
    const uint64_t s = mix(mix(mix(seed) ^ static_cast<uint64_t>(step)) ^ static_cast<uint64_t>(sample));
    return at::detail::createCPUGenerator(s);
}

} // namespace ps::learn
