#include "core/metrics/metrics_text.h"

#include <algorithm>
#include <vector>

#include "core/text.h"

namespace studio {
namespace {

using Json = nlohmann::ordered_json;

std::string scalarText(const Json& v)
{
    if (v.is_number_integer() || v.is_number_unsigned())
        return formatCount(v.get<std::int64_t>());
    if (v.is_number_float())
        return formatValue(v.get<double>(), 4);
    if (v.is_string())
        return v.get<std::string>().empty() ? "-" : v.get<std::string>();
    if (v.is_boolean())
        return v.get<bool>() ? "yes" : "no";
    if (v.is_null())
        return "-";
    if (v.is_array()) {
        std::string s;
        for (const auto& e : v)
            s += (s.empty() ? "" : ", ") + scalarText(e);
        return s.empty() ? "-" : s;
    }
    return v.dump();
}

bool isScalarish(const Json& v)
{
    if (v.is_array())
        return std::all_of(v.begin(), v.end(), [](const Json& e) { return !e.is_structured(); });
    return !v.is_object();
}

bool isTable(const Json& v)
{
    return v.is_array() && !v.empty() && std::all_of(v.begin(), v.end(), [](const Json& e) { return e.is_object(); });
}

// Scalars of an object (nested objects flattened as a.b) as key/value rows.
// A figure the metrics leave null says why in short ("not runnable"), from
// the reason `unavailable` holds for its dotted key (section.key).
void collectRows(const Json& obj, const std::string& section, const std::string& prefix, const Json& unavailable,
                 std::vector<std::pair<std::string, std::string>>& rows,
                 std::vector<std::pair<std::string, const Json*>>& tables)
{
    for (auto it = obj.begin(); it != obj.end(); ++it) {
        const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
        const std::string dotted = section + "." + key;
        if (it->is_object())
            collectRows(*it, section, key, unavailable, rows, tables);
        else if (isTable(*it))
            tables.emplace_back(key, &*it);
        else if (it->is_null() && unavailable.contains(dotted))
            rows.emplace_back(
                key,
                unavailable[dotted].get<std::string>().substr(0, unavailable[dotted].get<std::string>().find(':')));
        else if (isScalarish(*it))
            rows.emplace_back(key, scalarText(*it));
    }
}

void renderTable(const std::string& title, const Json& rowsJson, std::string& out)
{
    std::vector<std::string> columns;
    for (const auto& row : rowsJson)
        for (auto it = row.begin(); it != row.end(); ++it)
            if (!it->is_structured() || isScalarish(*it))
                if (std::find(columns.begin(), columns.end(), it.key()) == columns.end())
                    columns.push_back(it.key());
    std::vector<std::vector<std::string>> cells;
    for (const auto& row : rowsJson) {
        std::vector<std::string> line;
        for (const auto& c : columns)
            line.push_back(row.contains(c) ? scalarText(row[c]) : "-");
        cells.push_back(std::move(line));
    }
    // Numbers right-aligned, text left-aligned, as in a spreadsheet.
    std::vector<std::size_t> text;
    for (std::size_t c = 0; c < columns.size(); ++c)
        if (!std::all_of(rowsJson.begin(), rowsJson.end(),
                         [&](const Json& r) { return !r.contains(columns[c]) || r[columns[c]].is_number(); }))
            text.push_back(c);
    if (!title.empty())
        out += "  " + title + ":\n";
    cells.insert(cells.begin(), columns);
    out += alignedColumns(cells, text, {0}, "    ");
}

}  // namespace

std::string metricsText(const Json& metrics)
{
    std::string out;
    for (auto it = metrics.begin(); it != metrics.end(); ++it) {
        // Formulas and sources are in the JSON output, too long for tables;
        // each unavailable figure's reason is in its section.
        if (it.key() == "explain" || it.key() == "unavailable")
            continue;
        if (!out.empty())
            out += "\n";
        out += it.key() + "\n";
        std::vector<std::pair<std::string, std::string>> rows;
        std::vector<std::pair<std::string, const Json*>> tables;
        if (it->is_object())
            collectRows(*it, it.key(), "", metrics.contains("unavailable") ? metrics["unavailable"] : Json::object(),
                        rows, tables);
        else if (isTable(*it))
            tables.emplace_back("", &*it);  // the section heading names it
        else if (it->is_array() && it->empty())
            rows.emplace_back("(none)", "");
        else
            rows.emplace_back(it.key(), scalarText(*it));
        std::vector<std::vector<std::string>> pairs;
        for (const auto& [k, v] : rows)
            pairs.push_back({k, v});
        out += alignedColumns(pairs, {0, 1}, {}, "  ");
        for (const auto& [title, table] : tables)
            renderTable(title, *table, out);
    }
    return out;
}

}  // namespace studio
