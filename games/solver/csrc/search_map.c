/* A hash map of int64 keys (linear probing): the walk's index of open positions and the
 * probe's memo of layouts (search.h). */

#include "search.h"

int map_init(Map *m, size_t cap) {
    m->keys = PyMem_Calloc(cap, sizeof(int64_t));
    m->vals = PyMem_Calloc(cap, sizeof(int64_t));
    m->used = PyMem_Calloc(cap, 1);
    m->cap = cap;
    m->count = 0;
    if (!m->keys || !m->vals || !m->used) return -1;
    return 0;
}

void map_free(Map *m) {
    PyMem_Free(m->keys);
    PyMem_Free(m->vals);
    PyMem_Free(m->used);
    m->keys = m->vals = NULL;
    m->used = NULL;
    m->cap = m->count = 0;
}

static int map_grow(Map *m) {
    Map bigger;
    if (map_init(&bigger, m->cap * 2) < 0) {
        map_free(&bigger);
        return -1;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (m->used[i]) map_put(&bigger, m->keys[i], m->vals[i]);
    map_free(m);
    *m = bigger;
    return 0;
}

int map_put(Map *m, int64_t k, int64_t v) {
    if (2 * (m->count + 1) > m->cap && map_grow(m) < 0) return -1;
    size_t i = map_slot(m, k);
    while (m->used[i]) {
        if (m->keys[i] == k) {
            m->vals[i] = v;
            return 0;
        }
        i = (i + 1) & (m->cap - 1);
    }
    m->used[i] = 1;
    m->keys[i] = k;
    m->vals[i] = v;
    m->count++;
    return 0;
}

/* linear probing's deletion by backward shift (no tombstones) */
void map_del(Map *m, int64_t k) {
    size_t mask = m->cap - 1, i = map_slot(m, k);
    while (m->used[i] && m->keys[i] != k) i = (i + 1) & mask;
    if (!m->used[i]) return;
    size_t j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (!m->used[j]) break;
        size_t home = map_slot(m, m->keys[j]);
        /* may the entry at j move to the hole at i? (its home is not in (i, j]) */
        if ((j > i && (home <= i || home > j)) || (j < i && (home <= i && home > j))) {
            m->keys[i] = m->keys[j];
            m->vals[i] = m->vals[j];
            i = j;
        }
    }
    m->used[i] = 0;
    m->count--;
}

void map_clear(Map *m) {
    memset(m->used, 0, m->cap);
    m->count = 0;
}
