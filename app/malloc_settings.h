#pragma once

namespace studio {

// Sets glibc's malloc for a long session: two arenas, and blocks of 128 KiB
// and more mapped on their own. Call first thing in main(), before any
// thread starts. Elsewhere than glibc this does nothing.
//
// Why (docs/reliability.md, "A long session"): the scripted session's heap
// in use stayed flat (55-70 MB) while its resident memory rose without end
// (120 MB after a minute, 290 MB after two, 766 MB after 45 minutes), all
// of it memory malloc had been given back and kept:
// - Every background run (layout search, scale sweep, sensitivity) is a
//   thread of its own; glibc gives threads arenas of their own, up to eight
//   per core, each keeping what its thread freed.
// - glibc raises its mmap threshold each time a mapped block is freed, up
//   to 32 MB: after the first design file's text or plot buffer is freed,
//   blocks of megabytes (file texts, a drawn design's tables, paint
//   buffers) come from the arenas, and between the small blocks that
//   outlive them their space is kept, not returned. A fixed threshold
//   keeps them mapped and returned on free: the session then stays near
//   125 MB.
void setUpMalloc();

}  // namespace studio
