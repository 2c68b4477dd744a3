/*
 * A preload for experiments on glibc malloc's share of a decode, run by hand
 * (benches/scripts/vary.sh builds and uses it; nothing in the benchmarks needs it):
 *
 *   cc -O2 -shared -fPIC -o malloc-exp.so benches/scripts/malloc-exp.c -ldl
 *   MALLOC_SIZES=FILE LD_PRELOAD=./malloc-exp.so otlp-profile ...
 *       writes to FILE how many malloc calls asked for each size (one line "SIZE COUNT"
 *       per size up to 4096, then "big", "realloc" and "calloc" counts), so that two runs
 *       of different iteration counts give the requests of one decode
 *   MALLOC_POOL_FROM=BYTES LD_PRELOAD=./malloc-exp.so otlp-profile ...
 *       serves every malloc and realloc of BYTES or more from a private arena (one LIFO
 *       free list per power of two), so glibc never sees a large-bin request (a request of
 *       about 1 KiB or more, which first merges every chunk in its fast bins:
 *       malloc_consolidate); everything smaller still goes to glibc
 *
 * Not thread-safe: the drivers it is for decode on one thread.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *(*next_malloc)(size_t);
static void (*next_free)(void *);
static void *(*next_realloc)(void *, size_t);
static void *(*next_calloc)(size_t, size_t);
static int ready;
static const char *sizes_file;
static size_t pool_from = SIZE_MAX;

/* dlsym itself may call calloc before `init` has the real one: a static block. */
static char early[4096];
static int early_used;

static unsigned long by_size[4097], big, reallocs, callocs;

/* The arena: bump-allocated blocks of 2^b bytes, a 16-byte header holding b. */
#define ARENA_BYTES (512ul << 20)
static char arena[ARENA_BYTES] __attribute__((aligned(64)));
static size_t arena_used;
static void *free_list[64];

static void init(void)
{
    next_malloc = dlsym(RTLD_NEXT, "malloc");
    next_free = dlsym(RTLD_NEXT, "free");
    next_realloc = dlsym(RTLD_NEXT, "realloc");
    next_calloc = dlsym(RTLD_NEXT, "calloc");
    sizes_file = getenv("MALLOC_SIZES");
    const char *from = getenv("MALLOC_POOL_FROM");
    if (from)
        pool_from = strtoul(from, NULL, 10);
    ready = 1;
}

static int in_arena(const void *p)
{
    return (const char *)p >= arena && (const char *)p < arena + ARENA_BYTES;
}

static void *pool_get(size_t n)
{
    int b = 4;
    while (((size_t)1 << b) < n + 16)
        b++;
    char *h = free_list[b];
    if (h) {
        free_list[b] = *(void **)h;
    } else {
        if (arena_used + ((size_t)1 << b) > ARENA_BYTES)
            return next_malloc(n);
        h = arena + arena_used;
        arena_used += (size_t)1 << b;
    }
    *(size_t *)h = (size_t)b;
    return h + 16;
}

static size_t pool_room(const void *p)
{
    return ((size_t)1 << *(const size_t *)((const char *)p - 16)) - 16;
}

void *malloc(size_t n)
{
    if (!ready)
        init();
    if (sizes_file) {
        if (n <= 4096)
            by_size[n]++;
        else
            big++;
    }
    if (n >= pool_from)
        return pool_get(n);
    return next_malloc(n);
}

void free(void *p)
{
    if (!p || p == (void *)early)
        return;
    if (!ready)
        init();
    if (in_arena(p)) {
        char *h = (char *)p - 16;
        size_t b = *(size_t *)h;
        *(void **)h = free_list[b];
        free_list[b] = h;
        return;
    }
    next_free(p);
}

void *realloc(void *p, size_t n)
{
    if (!ready)
        init();
    if (sizes_file)
        reallocs++;
    if (!p)
        return n >= pool_from ? pool_get(n) : next_malloc(n);
    if (in_arena(p)) {
        size_t room = pool_room(p);
        if (n <= room)
            return p;
        void *q = n >= pool_from ? pool_get(n) : next_malloc(n);
        memcpy(q, p, room);
        free(p);
        return q;
    }
    if (n >= pool_from) {
        void *q = pool_get(n);
        size_t old = malloc_usable_size(p);
        memcpy(q, p, old < n ? old : n);
        next_free(p);
        return q;
    }
    return next_realloc(p, n);
}

void *calloc(size_t a, size_t b)
{
    if (!next_calloc) {
        if (early_used)
            return NULL;
        early_used = 1;
        return early;
    }
    if (sizes_file)
        callocs++;
    return next_calloc(a, b);
}

__attribute__((destructor)) static void dump(void)
{
    if (!sizes_file)
        return;
    FILE *f = fopen(sizes_file, "w");
    if (!f)
        return;
    for (int i = 0; i <= 4096; i++)
        if (by_size[i])
            fprintf(f, "%d %lu\n", i, by_size[i]);
    fprintf(f, "big %lu\nrealloc %lu\ncalloc %lu\n", big, reallocs, callocs);
    fclose(f);
}
