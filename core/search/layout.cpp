#include "core/search/layout.h"

#include "core/text.h"

namespace studio {

const char* recomputeName(Recompute r)
{
    switch (r) {
    case Recompute::None: return "none";
    case Recompute::Selective: return "selective";
    case Recompute::Full: return "full";
    }
    return "selective";
}

namespace {

Recompute recomputeOf(const std::string& name)
{
    return name == "none" ? Recompute::None : name == "full" ? Recompute::Full : Recompute::Selective;
}

}  // namespace

Layout layoutOf(const WorkloadShape& s)
{
    Layout l;
    l.tp = s.tp;
    l.pp = s.pp;
    l.dp = s.dp;
    l.cp = s.cp;
    l.ep = s.ep;
    l.microBatch = s.microBatch;
    l.interleave = s.interleave;
    l.zero = s.zero;
    l.recompute = recomputeOf(s.recompute);
    l.sequenceParallel = s.sequenceParallel;
    l.globalBatch = s.globalBatch;
    return l;
}

void applyLayout(Workload& w, const Layout& l)
{
    auto& p = w.parallelism;
    p.tp = l.tp;
    p.pp = l.pp;
    p.dp = l.dp;
    p.cp = l.cp;
    p.ep = l.ep;
    p.interleave = l.interleave;
    p.zero = l.zero;
    p.recompute = recomputeName(l.recompute);
    p.sequence_parallel = l.sequenceParallel;
    w.training.micro_batch = l.microBatch;
    w.training.global_batch = l.globalBatch;
}

void shapeLayout(WorkloadShape& s, const Layout& l)
{
    s.tp = l.tp;
    s.pp = l.pp;
    s.dp = l.dp;
    s.cp = l.cp;
    s.ep = l.ep;
    s.microBatch = l.microBatch;
    s.interleave = l.interleave;
    s.zero = l.zero;
    s.recompute = recomputeName(l.recompute);
    s.fullRecompute = l.recompute == Recompute::Full;
    s.selectiveRecompute = l.recompute == Recompute::Selective;
    s.sequenceParallel = l.sequenceParallel && l.tp > 1;
    s.globalBatch = l.globalBatch;
    deriveLayout(s);
}

std::string describeLayout(const Layout& l)
{
    std::string s = "tp " + formatCount(l.tp) + " · pp " + formatCount(l.pp);
    if (l.interleave > 1)
        s += " · v " + formatCount(l.interleave);
    if (l.cp > 1)
        s += " · cp " + formatCount(l.cp);
    if (l.ep > 1)
        s += " · ep " + formatCount(l.ep);
    s += " · dp " + formatCount(l.dp) + " · mb " + formatCount(l.microBatch) + " · ZeRO-" + formatCount(l.zero) +
        " · " + recomputeName(l.recompute);
    if (l.sequenceParallel)
        s += " · SP";
    return s;
}

std::string describeChange(const Layout& a, const Layout& b)
{
    std::string s;
    auto field = [&](const char* name, const std::string& from, const std::string& to) {
        if (from != to)
            s += (s.empty() ? "" : ", ") + std::string(name) + " " + from + " → " + to;
    };
    auto count = [&](const char* name, std::int64_t from, std::int64_t to) {
        field(name, formatCount(from), formatCount(to));
    };
    count("tp", a.tp, b.tp);
    count("pp", a.pp, b.pp);
    count("interleave", a.interleave, b.interleave);
    count("cp", a.cp, b.cp);
    count("ep", a.ep, b.ep);
    count("dp", a.dp, b.dp);
    count("micro-batch", a.microBatch, b.microBatch);
    count("ZeRO", a.zero, b.zero);
    field("recompute", recomputeName(a.recompute), recomputeName(b.recompute));
    // Sequence parallelism is a choice only where both have tensor parallelism.
    if (a.tp > 1 && b.tp > 1)
        field("SP", a.sequenceParallel ? "on" : "off", b.sequenceParallel ? "on" : "off");
    count("batch", a.globalBatch, b.globalBatch);
    return s;
}

Json layoutJson(const Layout& l)
{
    return {{"tp", l.tp},
            {"pp", l.pp},
            {"dp", l.dp},
            {"cp", l.cp},
            {"ep", l.ep},
            {"micro_batch", l.microBatch},
            {"interleave", l.interleave},
            {"zero", l.zero},
            {"recompute", recomputeName(l.recompute)},
            {"sequence_parallel", l.sequenceParallel}};
}

}  // namespace studio
