#include "core/catalog/software_profile.h"

#include <algorithm>
#include <charconv>
#include <set>

#include "core/json/json_pointer.h"
#include "core/json/json_reader.h"
#include "core/text.h"

namespace studio {

std::string constraintError(const std::string& axis, const std::vector<std::string>& values)
{
    if (std::find(kConstrainedAxes.begin(), kConstrainedAxes.end(), std::string_view(axis)) == kConstrainedAxes.end())
        return "no layout axis '" + axis +
            "' to constrain (axes: tp, pp, dp, cp, ep, micro_batch, interleave, zero, recompute, sequence_parallel)";
    if (values.empty())
        return axis + ": no value allowed";
    for (const std::string& v : values) {
        bool ok = false;
        if (axis == "recompute")
            ok = v == "none" || v == "selective" || v == "full";
        else if (axis == "sequence_parallel")
            ok = v == "true" || v == "false";
        else {
            std::int64_t n = 0;
            const auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
            ok = ec == std::errc() && end == v.data() + v.size() && (axis == "zero" ? n >= 0 && n <= 3 : n >= 1) &&
                std::to_string(n) == v;
        }
        if (!ok)
            return axis + "=" + v + ": expected " +
                (axis == "recompute"               ? std::string("none, selective or full")
                     : axis == "sequence_parallel" ? std::string("true or false")
                     : axis == "zero"              ? std::string("a ZeRO stage, 0 to 3")
                                                   : std::string("a whole number of at least 1"));
    }
    return "";
}

AllowedValues intersectAllowed(const AllowedValues& a, const AllowedValues& b)
{
    AllowedValues out = a;
    for (const auto& axis : b) {
        const std::vector<std::string>& values = axis.second;
        const auto it = out.find(axis.first);
        if (it == out.end()) {
            out[axis.first] = values;
            continue;
        }
        // (A structured binding captured by a lambda needs clang 16; the fuzz tree builds with 14.)
        std::erase_if(it->second,
                      [&](const std::string& v) { return std::find(values.begin(), values.end(), v) == values.end(); });
    }
    return out;
}

std::string describeAllowed(const AllowedValues& allowed)
{
    std::string out;
    for (const auto& [axis, values] : allowed) {
        std::string list;
        for (const std::string& v : values)
            list += (list.empty() ? "" : ", ") + v;
        out += (out.empty() ? "" : "; ") + axis + " " + list;
    }
    return out;
}

void readSoftwareProfiles(JsonReader& r, const nlohmann::ordered_json& array, const std::string& ptr,
                          std::vector<SoftwareProfile>& out,
                          const std::function<const std::string*(std::string_view key)>& source)
{
    if (!r.isArray(array, ptr))
        return;
    std::set<std::string, std::less<>> seen;
    for (std::size_t i = 0; i < array.size(); ++i) {
        const std::string pptr = pointerAppend(ptr, i);
        const auto& pj = array[i];
        if (!r.isObject(pj, pptr))
            continue;
        SoftwareProfile p;
        const auto id = r.string(pj, pptr, "id", true);
        const auto name = r.string(pj, pptr, "name", true);
        const auto sourceKey = r.string(pj, pptr, "source", true);
        p.note = r.string(pj, pptr, "note", false, true).value_or("");
        nlohmann::ordered_json ignored;
        r.keepUnknown(pj, pptr, {"id", "name", "source", "note", "allowed"}, ignored);
        bool ok = id && name && sourceKey;
        if (id && !seen.insert(*id).second) {
            r.error(pointerAppend(pptr, "id"), "duplicate software profile " + inQuotes(*id));
            ok = false;
        }
        if (sourceKey) {
            if (const std::string* text = source(*sourceKey)) {
                p.source = *text;
            } else {
                r.error(pointerAppend(pptr, "source"),
                        "source " + inQuotes(*sourceKey) + " is not in the catalog's sources table");
                ok = false;
            }
        }
        if (const auto a = pj.find("allowed"); a != pj.end() && r.isObject(*a, pointerAppend(pptr, "allowed"))) {
            for (auto axis = a->begin(); axis != a->end(); ++axis) {
                const std::string aptr = pointerAppend(pointerAppend(pptr, "allowed"), axis.key());
                if (!r.isArray(*axis, aptr)) {
                    ok = false;
                    continue;
                }
                std::vector<std::string> values;
                for (const auto& v : *axis)
                    values.push_back(v.is_string() ? v.get<std::string>() : v.dump());
                if (const std::string why = constraintError(axis.key(), values); !why.empty()) {
                    r.error(aptr, why);
                    ok = false;
                }
                p.allowed[axis.key()] = std::move(values);
            }
        }
        if (!ok)
            continue;
        p.id = *id;
        p.name = *name;
        p.sourceKey = *sourceKey;
        p.json = pj;
        out.push_back(std::move(p));
    }
}

}  // namespace studio
