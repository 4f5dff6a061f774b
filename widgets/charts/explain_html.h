#pragma once
// The tooltip every number in the panels carries: its value, the formula it
// comes from, and each input with its value, unit and source (the core's
// Explanation), as rich text.
#include <QString>

#include <string>

namespace studio {

struct Explanation;

QString explainHtml(const QString& title, const QString& value, const Explanation* explanation);
// A value and unit as the panels print them (core/text.h decides).
QString quantity(double value, const std::string& unit);
// A fraction as a percentage ("39.0%"), and kW as "20.4 kW" or "1.47 MW".
QString percent(double fraction);
QString power(double kw);
// Dollars for people (formatUsd): "$2.39", "$65.6M".
QString usd(double v);
// What stands where a figure the model cannot give would be: the reason's
// first words ("not runnable", "never completes"); "" when `why` is "".
QString unavailableLabel(const std::string& why);

}  // namespace studio
