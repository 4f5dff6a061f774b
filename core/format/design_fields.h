#pragma once
// The scalar fields of each section of a design, each with the rule it must
// meet: key, required or not, type, range or allowed values. The reader reads
// files by these tables and the validator checks designs built in memory (the
// studio's edits, --set, tests) by the same tables with the same messages, so
// a design the studio holds always saves as a file that opens again.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/design/design.h"

namespace studio {

class JsonReader;

namespace fields {

template <typename S>
using Member =
    std::variant<std::string S::*, std::int64_t S::*, double S::*, bool S::*, std::optional<std::int64_t> S::*,
                 std::optional<double> S::*, std::optional<std::string> S::*, std::optional<bool> S::*>;

template <typename S>
struct Field {
    std::string_view key;
    Member<S> member;
    bool required = false;
    double min = 0, max = 0;  // numbers; whole numbers read with these as bounds
    bool minExclusive = false;
    std::vector<std::string_view> choices = {};  // strings: the allowed values, or any
    bool allowEmpty = false;                     // strings
    std::string_view fallback = {};              // a choice's default when left out (core/design/defaults.h)
};

template <typename S>
using Table = std::vector<Field<S>>;

const Table<Design>& designInfo();    // app_version, name, description
const Table<Component>& component();  // id, part, name, parent, count, collapsed
const Table<Point>& position();
const Table<Extent>& size();
const Table<Link>& link();
const Table<ModelSpec>& model();
const Table<TrainingSpec>& training();
const Table<ParallelismSpec>& parallelism();
const Table<DataSpec>& data();
const Table<Workload>& workloadInfo();  // kind
const Table<ServingSpec>& serving();
const Table<ServingWorkers>& servingWorkers();  // a disaggregated layout's prefill or decode workers
const Table<Facility>& facility();
const Table<FailureMttf>& failureMttf();
const Table<CheckpointSpec>& checkpoint();
const Table<Operations>& operations();  // maintenance_fraction, straggler_cv

// Reads each field of `obj` (at JSON pointer `ptr`) into `out`; problems go
// to the reader. A field that fails keeps the struct's default.
template <typename S>
void read(JsonReader& r, const nlohmann::ordered_json& obj, const std::string& ptr, S& out, const Table<S>& table);

// Checks each field of an in-memory `value` against the same rules, with the
// same messages and pointers the reader gives for a file.
template <typename S>
void check(JsonReader& r, const S& value, const std::string& ptr, const Table<S>& table);

// Writes each field of `value` into `obj` in the table's order, the writer's
// one list of a section's fields: an optional field when set, a plain one
// always (a string only when required or not empty, a flag only when set),
// whole numbers without ".0" (jsonNumber).
template <typename S>
void write(nlohmann::ordered_json& obj, const S& value, const Table<S>& table);

// A number as the files write it: whole numbers without ".0", so
// hand-written files and saved ones read the same.
nlohmann::ordered_json jsonNumber(double v);

// The table's keys, for keepUnknown; `more` are nested sections read by hand.
template <typename S>
std::vector<std::string_view> keys(const Table<S>& table, std::initializer_list<std::string_view> more = {});

// The range a numeric field of `table` takes (for editors that offer it).
template <typename S>
const Field<S>& find(const Table<S>& table, std::string_view key);

}  // namespace fields
}  // namespace studio
