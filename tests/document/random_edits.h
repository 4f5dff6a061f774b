#pragma once
// Random edits of every kind the studio makes, through the one edit path,
// with values at and past the edges the file allows: shared by the tests
// that check every edit saves a file that opens and that any history undoes
// and redoes exactly.
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "core/design/fabric_plan.h"
#include "core/format/design_reader.h"
#include "widgets/document/design_document.h"
#include "widgets/document/design_editor.h"

namespace studio::test {

class RandomEdits {
public:
    RandomEdits(DesignDocument& doc, unsigned seed) : doc_(doc), editor_(&doc), rng_(seed) {}

    // Every kind next() makes; those that can break a file (all but
    // "remove" and "collapse") are refused now and then.
    static const std::vector<std::string>& kinds()
    {
        static const std::vector<std::string> all{"add part",  "connect",  "remove",  "count", "move",
                                                  "place",     "collapse", "align",   "paste", "fabric",
                                                  "component", "link",     "settings"};
        return all;
    }

    // One edit of a random kind (named in `kind`), or nothing when that kind
    // has nothing to act on. `maxItems` (components and links) keeps a long
    // run from growing without end: past it, the kinds that add (a part, a
    // link, a paste, a fabric) give way to removing.
    std::optional<EditResult> next(std::string* kind, std::size_t maxItems = SIZE_MAX)
    {
        int which = pick(13);
        const std::size_t items = doc_.design().components.size() + doc_.design().links.size();
        if (items > maxItems && (which == 0 || which == 1 || which == 8 || which == 9))
            which = 2;
        *kind = kinds()[std::size_t(which)];
        switch (which) {
        case 0:
            return editor_.addPart(kParts[pick(8)], pick(2) ? any() : std::string(),
                                   {kFar[pick(10)] / (pick(3) ? 1e5 : 1), kFar[pick(10)] / (pick(3) ? 1e5 : 1)});
        case 1: return editor_.connect(any(), any());
        case 2: return editor_.remove({any()}, {}, "remove");
        case 3: return editor_.setCount(any(), kCounts[pick(7)]);
        case 4: return editor_.moveBy({any(), any()}, {kFar[pick(10)], kFar[pick(10)]}, pick(2));
        case 5: return editor_.place({{any(), pick(3) ? any() : std::string(), {kFar[pick(10)], 40}}});
        case 6: return editor_.toggleCollapsed({any()});
        case 7: {
            std::vector<SizedItem> items;
            for (int i = 0; i < 2 + pick(3); ++i)
                items.push_back({any(), {double(10 + pick(300)), double(10 + pick(300))}});
            return pick(2) ? editor_.align(items, Alignment(pick(6)))
                           : editor_.distribute(items, Distribution(pick(2)));
        }
        case 8: {
            Fragment f;
            for (const auto& c : doc_.design().components)
                if (pick(4) == 0)
                    f.components.push_back(c);
            f.links = doc_.design().links;
            return editor_.paste(f, pick(2) ? any() : std::string(), "paste");
        }
        case 9: {
            // Pasted nodes keep their links: a frontend fabric still finds
            // nodes to wire.
            FabricOptions options;
            options.role = pick(2) ? "compute" : "frontend";
            FabricPlan plan = planFabric(doc_.design(), doc_.catalog(), pick(2) ? any() : std::string(), options);
            return editor_.addFabric(plan, {kFar[pick(10)], 0});
        }
        case 10: {
            const Component* c = doc_.design().component(any());
            if (!c)
                return std::nullopt;
            Component next = *c;
            next.name = pick(2) ? "renamed \xe2\x9c\x93" : "";
            next.props["tdp_w"] = kFar[pick(10)];
            if (pick(3) == 0)
                next.size = Extent{kFar[pick(10)], 100};
            return editor_.changeComponents({next}, "inspector");
        }
        case 11: {
            if (doc_.design().links.empty())
                return std::nullopt;
            Link l = doc_.design().links[std::size_t(pick(int(doc_.design().links.size())))];
            l.count = kCounts[pick(7)];
            if (pick(4) == 0)
                l.part = kParts[pick(8)];
            return editor_.changeLinks({l}, "inspector");
        }
        default: {
            // One field at a time, as the inspector and the workload dock
            // change them.
            DesignSettings s = DesignSettings::of(doc_.design());
            switch (pick(6)) {
            case 0: s.facility.pue = 0.5 + pick(50) / 10.0; break;
            case 1: s.workload.parallelism.tp = 1 << pick(5); break;
            case 2: s.workload.parallelism.zero = pick(5); break;
            case 3: s.workload.model.heads = 1 + pick(64); break;
            case 4: s.operations.checkpoint.interval_min = kFar[pick(10)]; break;
            case 5: s.name = pick(2) ? "d" : ""; break;
            }
            return editor_.changeSettings(s, "settings");
        }
        }
    }

    int pick(int n) { return int(rng_() % unsigned(n)); }

private:
    std::string any()
    {
        const auto& cs = doc_.design().components;
        return cs.empty() ? std::string() : cs[std::size_t(pick(int(cs.size())))].id;
    }

    // Values at and past the edges the file allows.
    static constexpr double kFar[] = {0, 35, -80, 9.999e6, 1e7, 1.5e7, -1e7, -2e7, 1e18, -1e300};
    static constexpr std::int64_t kCounts[] = {1, 2, 64, 0, -3, kMaxCount, kMaxCount + 1};
    static constexpr const char* kParts[] = {"rack.air-42u",          "node.dgx-h100",   "group.pod",
                                             "storage.pfs-appliance", "fabric.fat-tree", "switch.qm9700",
                                             "nic.connectx-7",        "gpu.h100-sxm"};

    DesignDocument& doc_;
    DesignEditor editor_;
    std::mt19937 rng_;
};

}  // namespace studio::test
