#pragma once

namespace studio {

// Background work (an analysis run, an autosave's write) at nice 10: it
// gets about a tenth of a core the GUI thread also wants, so an edit
// repaints as fast as with nothing else going, yet it still gets its share
// beside other programs. (Qt's priorities do nothing for Linux's default
// scheduler, except IdlePriority, SCHED_IDLE, which would starve the work
// behind a compile.) On Linux the nice value is per thread: call it on the
// thread to lower.
void lowerThisThreadsPriority();

}  // namespace studio
