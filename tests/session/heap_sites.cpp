// The heap in use by allocating call stack, for a long session: preloaded
// into soak_session (LD_PRELOAD), it counts every live block under the
// stack that allocated it, and heap_sites_dump() writes the count at that
// moment. soak_session calls it at each sample at rest (SOAK_HEAP_SITES), so
// two files of one run diff into what grew between them
// (scripts/heap-sites-diff.py; docs/reliability.md).
//
// Why not heaptrack: it records every allocation to a file, so the one-hour
// session it takes to see a slow rise is 2.5 hours under it and another to
// read; this keeps only the live count, at half the session's pace.
//
// Everything it keeps is in memory mapped at start, never the heap it
// counts: the allocations it makes itself (the unwinder's first load, the
// dump's stdio) pass through uncounted.
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

extern "C" {
void* __libc_malloc(size_t);
void __libc_free(void*);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
}

namespace {

constexpr int kFrames = 14;  // enough to reach the studio's own code from Qt's
constexpr int kSkip = 2;     // this file's two frames
constexpr uint32_t kSites = 1u << 20;
constexpr uint32_t kBlocks = 1u << 25;  // live blocks at once: about 150,000 at rest, a few times that busy

struct Site {
    uint64_t hash;
    int64_t bytes, count;
    int frames;
    void* pc[kFrames];
};
struct Block {
    uintptr_t address;
    uint32_t site, size;
};

Site* sites;
Block* blocks;
pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
thread_local bool inside;  // this thread is in here: what it allocates is not counted

template <typename T>
T* mapped(std::size_t n)
{
    void* p = mmap(nullptr, sizeof(T) * n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? nullptr : static_cast<T*>(p);
}

bool ready()
{
    if (!sites) {
        sites = mapped<Site>(kSites);
        blocks = mapped<Block>(kBlocks);
    }
    return sites && blocks;
}

uint32_t slotOf(uintptr_t address)
{
    return uint32_t((address >> 4) * 0x9E3779B97F4A7C15ull >> 39) & (kBlocks - 1);
}

// Under the lock. A full table would loop: a site or block beyond the
// sizes above is not counted.
uint32_t siteOf(void* const* pc, int frames)
{
    uint64_t hash = 1469598103934665603ull;
    for (int i = 0; i < frames; ++i)
        hash = (hash ^ uintptr_t(pc[i])) * 1099511628211ull;
    hash = hash ? hash : 1;
    for (uint32_t i = uint32_t(hash) & (kSites - 1), probes = 0; probes < kSites;
         i = (i + 1) & (kSites - 1), ++probes) {
        if (sites[i].hash == hash)
            return i;
        if (!sites[i].hash) {
            sites[i].hash = hash;
            sites[i].frames = frames;
            std::memcpy(sites[i].pc, pc, sizeof(void*) * frames);
            return i;
        }
    }
    return kSites;
}

// Not inlined: the frames skipped are this and the allocator's.
__attribute__((noinline)) void count(void* p, std::size_t size)
{
    if (!p || inside)
        return;
    inside = true;
    void* pc[kFrames + kSkip];
    const int frames = std::max(0, backtrace(pc, kFrames + kSkip) - kSkip);
    pthread_mutex_lock(&lock);
    if (ready()) {
        const uint32_t s = siteOf(pc + kSkip, frames);
        uint32_t i = slotOf(uintptr_t(p)), probes = 0;
        while (blocks[i].address && probes++ < kBlocks)
            i = (i + 1) & (kBlocks - 1);
        if (s < kSites && !blocks[i].address) {
            sites[s].bytes += int64_t(size);
            ++sites[s].count;
            blocks[i] = {uintptr_t(p), s, uint32_t(std::min<std::size_t>(size, UINT32_MAX))};
        }
    }
    pthread_mutex_unlock(&lock);
    inside = false;
}

void uncount(void* p)
{
    if (!p)
        return;
    pthread_mutex_lock(&lock);
    if (blocks) {
        uint32_t i = slotOf(uintptr_t(p));
        while (blocks[i].address && blocks[i].address != uintptr_t(p))
            i = (i + 1) & (kBlocks - 1);
        if (blocks[i].address) {
            sites[blocks[i].site].bytes -= blocks[i].size;
            --sites[blocks[i].site].count;
            // Linear probing's deletion: later blocks of the run move back
            // into the hole unless their own slot lies after it.
            for (uint32_t hole = i, j = i;;) {
                blocks[hole].address = 0;
                for (;;) {
                    j = (j + 1) & (kBlocks - 1);
                    if (!blocks[j].address)
                        goto done;
                    const uint32_t home = slotOf(blocks[j].address);
                    if (hole <= j ? (hole < home && home <= j) : (hole < home || home <= j))
                        continue;
                    break;
                }
                blocks[hole] = blocks[j];
                hole = j;
            }
        }
    }
done:
    pthread_mutex_unlock(&lock);
}

}  // namespace

extern "C" {

void* malloc(size_t n) noexcept
{
    void* p = __libc_malloc(n);
    count(p, n);
    return p;
}

void free(void* p) noexcept
{
    uncount(p);
    __libc_free(p);
}

void* calloc(size_t n, size_t size) noexcept
{
    void* p = __libc_calloc(n, size);
    count(p, n * size);
    return p;
}

void* realloc(void* old, size_t n) noexcept
{
    uncount(old);
    void* p = __libc_realloc(old, n);
    count(p ? p : (n ? old : nullptr), p ? n : 0);  // a failed realloc leaves the old block (its size now unknown)
    return p;
}

void* memalign(size_t alignment, size_t n) noexcept
{
    void* p = __libc_memalign(alignment, n);
    count(p, n);
    return p;
}

void* aligned_alloc(size_t alignment, size_t n) noexcept
{
    return memalign(alignment, n);
}

int posix_memalign(void** out, size_t alignment, size_t n) noexcept
{
    void* p = memalign(alignment, n);
    if (!p)
        return ENOMEM;
    *out = p;
    return 0;
}

void* valloc(size_t n) noexcept
{
    return memalign(4096, n);
}

// Every site holding blocks, largest first: a line "site HASH BYTES COUNT",
// then (for the 3,000 largest) its frames as "MODULE+OFFSET SYMBOL".
__attribute__((visibility("default"))) void heap_sites_dump(const char* path)
{
    inside = true;
    static Site* copy = mapped<Site>(kSites);
    std::size_t n = 0;
    int64_t total = 0;
    pthread_mutex_lock(&lock);
    for (uint32_t i = 0; sites && copy && i < kSites; ++i)
        if (sites[i].hash && sites[i].count != 0) {
            copy[n++] = sites[i];
            total += sites[i].bytes;
        }
    pthread_mutex_unlock(&lock);
    std::sort(copy, copy + n, [](const Site& a, const Site& b) { return a.bytes > b.bytes; });
    if (FILE* f = std::fopen(path, "w")) {
        std::fprintf(f, "total %lld sites %zu\n", static_cast<long long>(total), n);
        for (std::size_t s = 0; s < n; ++s) {
            std::fprintf(f, "site %016llx %lld %lld\n", static_cast<unsigned long long>(copy[s].hash),
                         static_cast<long long>(copy[s].bytes), static_cast<long long>(copy[s].count));
            for (int k = 0; s < 3000 && k < copy[s].frames; ++k) {
                Dl_info where;
                if (dladdr(copy[s].pc[k], &where) && where.dli_fname)
                    std::fprintf(f, "  %s+0x%lx %s\n", where.dli_fname,
                                 static_cast<unsigned long>(static_cast<char*>(copy[s].pc[k]) -
                                                            static_cast<char*>(where.dli_fbase)),
                                 where.dli_sname ? where.dli_sname : "?");
                else
                    std::fprintf(f, "  %p ?\n", copy[s].pc[k]);
            }
        }
        std::fclose(f);
    }
    inside = false;
}

}  // extern "C"
