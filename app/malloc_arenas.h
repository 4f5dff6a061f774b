#pragma once

namespace studio {

// Caps glibc's malloc at two arenas for the process. Call first thing in
// main(), before any thread starts.
//
// Why: every background run (layout search, scale sweep, sensitivity) is
// a thread of its own, and glibc gives threads arenas of their own, up to
// eight per core, each keeping the memory its thread freed. The scripted
// session (tests/session, docs/reliability.md) grew from 230 MB resident
// to 570 MB in ten minutes with 65-75 MB in use all along; with two arenas
// it stayed near 200 MB over six (docs/reliability.md has a longer run,
// which still rose). Elsewhere than glibc this does nothing.
void limitMallocArenas();

}  // namespace studio
