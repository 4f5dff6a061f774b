#pragma once
// How the studio benchmarks measure what a user waits for: percentiles of
// repeated trials, the process's resident memory and age, and the event
// loop run until an edit is painted. Shared by bench_studio (the presets)
// and bench_huge (a design of tens of thousands of items).
#include <QAbstractEventDispatcher>
#include <QCoreApplication>
#include <QFile>
#include <QList>

#include <algorithm>
#include <ctime>
#include <unistd.h>
#include <vector>

namespace studio::bench {

struct Stats {
    double p50 = 0, p95 = 0, max = 0;
};

inline Stats stats(std::vector<double> ms)
{
    if (ms.empty())
        return {};
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms[std::min(ms.size() - 1, ms.size() * 95 / 100)], ms.back()};
}

// Seconds since this process started (its start time in /proc, against the
// boot clock the kernel measures it with).
inline double secondsSinceProcessStart()
{
    QFile stat("/proc/self/stat");
    if (!stat.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray text = stat.readAll();
    const QList<QByteArray> fields = text.mid(text.lastIndexOf(')') + 2).split(' ');
    const double startTicks = fields.value(19).toDouble();  // field 22 of stat, counted after the name
    timespec now{};
    clock_gettime(CLOCK_BOOTTIME, &now);
    return double(now.tv_sec) + double(now.tv_nsec) / 1e9 - startTicks / double(sysconf(_SC_CLK_TCK));
}

// A field of /proc/self/status in MB: "VmRSS:" (resident now), "VmHWM:"
// (the peak).
inline double residentMb(const char* field)
{
    QFile status("/proc/self/status");
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith(field))
            return line.mid(int(qstrlen(field))).trimmed().split(' ').front().toDouble() / 1024;
    return -1;
}

// Until the edit has been recomputed, the visible panels redrawn and every
// region the edit dirtied painted: the event loop runs until it is idle (the
// recompute and the link routing are posted calls, the paints update
// requests). What the user waits for.
//
// Objects deleted with deleteLater() are deleted too, as the studio's event
// loop deletes them once the event that asked returns. A benchmark or a
// session drives the window from main(), outside any event loop, where Qt
// keeps them until one runs: a dock's layout animation, a closed compare
// view, a finished run's thread would pile up for the whole run (about
// 400 objects in two minutes of the scripted session) and count as the
// studio's memory.
inline void untilRepainted()
{
    QAbstractEventDispatcher* loop = QCoreApplication::eventDispatcher();
    for (int pass = 0; pass < 100; ++pass) {
        QCoreApplication::sendPostedEvents();
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
        if (!loop->processEvents(QEventLoop::AllEvents) && pass > 2)
            break;
    }
}

}  // namespace studio::bench
