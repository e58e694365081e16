/* The solver's compiled search loop: games.solver.search.Search for the single-card
 * variants, whole, in C (issue 41, round two of the core).
 *
 * The state lives in C arrays (the piles, the face-down counts, the foundations, the stock,
 * the redeals left), moves are applied and taken back in place, and the move list, the move
 * order, the table key, the dead-position probe, the one-step sleep set and Tarjan's
 * bookkeeping are the Python search's, step for step, so one call runs a whole search (or
 * one turn of a resumable one) and visits the same positions, node for node, in the same
 * order, as the Python loop (tests/solver/test_core.py, test_search_core.py):
 *
 *   the move list      games/solver/movegen.py (the engine's order: moves.legal)
 *   the move order     games/solver/heuristics.py Knowledge.ordered (the noise of the
 *                      restarts drawn from the caller's random.Random, one draw a move)
 *   the key            games/solver/key.py's table key: Python's own hashes (SipHash of a
 *                      column's bytes, the tuple hash, the int hash modulo 2**61 - 1),
 *                      computed without building the objects, so the table of proofs (a
 *                      Python set, read and filled here) is one table for both loops
 *   the probe          games/solver/deadlock.py (the highest-reach home rule)
 *   the sleep set      games/solver/sleep.py
 *   the loop           games/solver/search.py Search._loop, _entering, _leaving
 *
 * No rule is restated: the build table, which foundations take which card, which cards may
 * fill a space and which are safe to send home are the engine's tables, passed from Python
 * (games/solver/core.py). set_fault (in _core.c) breaks this loop on purpose too: 1 drops
 * the last legal move, 2 swaps the first two children, 3 hashes a column's first byte
 * wrong (as they break the step functions of _core.c), 4 draws one card too many, 5 puts
 * no move to sleep, 6 never calls a position dead.
 *
 * The loop is in five files of one job each, sharing this header (the state, the keys and
 * apply/revert, which the loop runs at every node, are static inline here so the split
 * costs the hot path no call):
 *
 *   search_map.c     the hash map of keys (the walk's index, the probe's memo)
 *   search_moves.c   the move list and the move order
 *   search_probe.c   the dead-position probe
 *   search_walk.c    the walk: its frames, the sleep set, Tarjan's bookkeeping, the loop
 *   search_type.c    the Python-facing type: construction and what the tests read
 */
#ifndef FT_SEARCH_H
#define FT_SEARCH_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define DRAW 0
#define REDEAL 1
#define TO_COLUMN 2
#define TO_FOUNDATION 3
#define WASTE 0
#define KING 13
#define NCARDS 64
#define MAXF 16
#define MAXP 32
#define MAXCARDS 256
#define OPEN 0
#define DRAW_ONLY 1
#define DEAD 2
#define CLOCK_EVERY 128
#define YIELD_EVERY (CLOCK_EVERY * 8)
#define STOCK_BIT (1ULL << 40)
#define FOUNDATION_BIT 41
#define EVERYTHING (~0ULL)
#define MAXKIDS (MAXP * (MAXP + MAXF) + 2)
#define BUDGET 2
#define ERROR (-1)

extern int core_fault;

/* The move ordering of Knowledge.ordered (games/solver/knowledge.py), shared by the
 * Python-facing Order (_core.c) and the C loop (search_moves.c), which read a position
 * differently (Python lists there, arrays here) and score and sort it the same way. */

/* A move to a column: from the waste onto a card (200) or into a space (40); else the
 * last card of its column (300), the card it uncovers can go home (400), its move ends a
 * column's face-down run (250), it breaks a built pair (-50), or by the rank it uncovers;
 * into a space, 150 less. `rest` is what stays below the moved card; `home`, `linked` and
 * `below` (the card uncovered) matter only when rest > 0. */
static inline int column_move_score(int from_waste, int target_len, int rest, int home,
                                    int down, int linked, int below) {
    if (from_waste) return target_len ? 200 : 40;
    int sc;
    if (rest == 0)
        sc = 300;
    else if (home)
        sc = 400;
    else if (down && rest == down)
        sc = 250;
    else if (linked)
        sc = -50;
    else
        sc = 100 + 5 * (KING - (below >> 2));
    return target_len ? sc : sc - 150;
}

/* A scored move: `at` is its place in the caller's list of moves. */
typedef struct {
    double score;
    int at;
} Ranked;

/* Each score plus scale * jitter() (a bound random.random); -1 on a Python error. */
static inline int ranked_jitter(Ranked *r, int n, PyObject *jitter, double scale) {
    for (int j = 0; j < n; j++) {
        PyObject *x = PyObject_CallNoArgs(jitter);
        if (!x) return -1;
        double v = PyFloat_AsDouble(x);
        Py_DECREF(x);
        if (v == -1.0 && PyErr_Occurred()) return -1;
        r[j].score = r[j].score + scale * v;
    }
    return 0;
}

/* Best first, ties in the moves' order: Python's stable sort(reverse=True). The broken
 * core of the property tests (core_fault 2) swaps the first two. */
static inline void ranked_sort(Ranked *r, int n) {
    for (int j = 1; j < n; j++) {
        Ranked x = r[j];
        int i = j;
        while (i > 0 && r[i - 1].score < x.score) {
            r[i] = r[i - 1];
            i--;
        }
        r[i] = x;
    }
    if (core_fault == 2 && n > 1) {
        Ranked x = r[0];
        r[0] = r[1];
        r[1] = x;
    }
}

#if PY_VERSION_HEX >= 0x030E0000
#define HASH_BYTES(buf, n) Py_HashBuffer((buf), (n))
#else
#define HASH_BYTES(buf, n) _Py_HashBytes((buf), (n))
#endif
/* the functions the files share stay out of the module's exported symbols */
#define HIDDEN __attribute__((visibility("hidden")))

/* ------------------------------------------------------------ Python's hashes */

#define XXPRIME_1 11400714785074694791ULL
#define XXPRIME_2 14029467366897019727ULL
#define XXPRIME_5 2870177450012600261ULL
#define XXROTATE(x) ((x << 31) | (x >> 33))
#define MODULUS ((((__int128)1) << 61) - 1)

typedef unsigned long long u64;

static inline u64 lane_step(u64 acc, u64 lane) {
    acc += lane * XXPRIME_2;
    acc = XXROTATE(acc);
    return acc * XXPRIME_1;
}

/* the tuple hash of CPython 3.8+ (Objects/tupleobject.c), after n items folded into acc */
static inline Py_hash_t lane_end(u64 acc, Py_ssize_t n) {
    acc += (u64)n ^ (XXPRIME_5 ^ 3527539UL);
    if (acc == (u64)-1) return 1546275796;
    return (Py_hash_t)acc;
}

/* hash(int(v)): |v| modulo 2**61 - 1, with v's sign; -1 becomes -2 */
static inline Py_hash_t int_hash(__int128 v) {
    int neg = v < 0;
    unsigned __int128 u = neg ? (unsigned __int128)(-v) : (unsigned __int128)v;
    Py_hash_t h = (Py_hash_t)(u % (unsigned __int128)MODULUS);
    if (neg) h = -h;
    return h == -1 ? -2 : h;
}

/* ------------------------------------------------------------ a hash map of keys */

typedef struct {
    int64_t *keys, *vals;
    unsigned char *used;
    size_t cap, count;
} Map;

HIDDEN int map_init(Map *m, size_t cap);
HIDDEN void map_free(Map *m);
HIDDEN int map_put(Map *m, int64_t k, int64_t v);
HIDDEN void map_del(Map *m, int64_t k);
HIDDEN void map_clear(Map *m);

static inline size_t map_slot(const Map *m, int64_t k) {
    return (size_t)(((u64)k * 0x9E3779B97F4A7C15ULL) >> 7) & (m->cap - 1);
}

/* the value of k, or -1 */
static inline int64_t map_get(const Map *m, int64_t k) {
    size_t i = map_slot(m, k);
    while (m->used[i]) {
        if (m->keys[i] == k) return m->vals[i];
        i = (i + 1) & (m->cap - 1);
    }
    return -1;
}

/* ------------------------------------------------------------ the search object */

typedef struct {
    unsigned char kind, src, dst, count;
} Mv;

typedef struct {
    int kids, nkids, next; /* the children: kids[0 .. nkids) of the arena, the next to try */
    int64_t key, index, low;
    Mv move;               /* the move that led here, and its undo detail */
    int detail, root;
    int ncols, cols[2];
    __int128 before;       /* the parent's sum of column hashes */
    Py_hash_t h0, h1;      /* the parent's hashes of those columns */
} Frame;

typedef struct {
    PyObject_HEAD
    /* the rules, read from the engine's tables */
    int npiles, nfound, deck, draw, face_down, redeals, waste_unsafe_on_redeal;
    int cuts, lone_draws, sleeping, resumable;
    Py_ssize_t table_limit; /* search.py's TABLE_LIMIT */
    double noise_scale;
    unsigned char table[NCARDS * NCARDS], to_space[NCARDS];
    int nhomes[NCARDS], home_k[NCARDS][MAXF], home_below[NCARDS][MAXF];
    int nsafe[NCARDS], safe_k[NCARDS][MAXF], safe_rank[NCARDS][MAXF];
    int fsuit[MAXF], nsuit[4], suit_k[4][MAXF];
    u64 targets[NCARDS]; /* the cards each card may go onto, as bits */
    /* the state */
    unsigned char pile[MAXP][MAXCARDS];
    int len[MAXP], down[MAXP], found[MAXF];
    unsigned char stock[MAXCARDS];
    int nstock, redeals_left, home;
    u64 wacc[MAXCARDS + 1]; /* the waste's tuple hash, folded over its first k cards */
    Py_hash_t hashes[MAXP];
    /* the walk */
    Frame *frames;
    int nframes, capframes;
    Mv *arena;
    int64_t *tried;
    int narena, caparena;
    int64_t *pending;
    int npending, cappending;
    int64_t counter;
    Map index, layouts;
    int paused;
    PyObject *lost, *noise, *jitter;
    long long nodes, asleep, waits;
} SearchObject;

/* ------------------------------------------------------------ apply and revert */

static inline void waste_fold(SearchObject *s, int from) {
    for (int k = from; k < s->len[WASTE]; k++)
        s->wacc[k + 1] = lane_step(s->wacc[k], s->pile[WASTE][k]);
}

/* moves.apply for a single-card move (the generator's moves are legal): the undo detail */
static inline int apply(SearchObject *s, Mv m) {
    int src = m.src;
    if (m.kind == DRAW) {
        int n = s->draw < s->nstock ? s->draw : s->nstock;
        if (core_fault == 4 && n < s->nstock) n++;
        int w = s->len[WASTE];
        for (int j = 0; j < n; j++) s->pile[WASTE][s->len[WASTE]++] = s->stock[--s->nstock];
        waste_fold(s, w);
        return n;
    }
    if (m.kind == REDEAL) {
        int n = s->len[WASTE];
        for (int j = 0; j < n; j++) s->stock[j] = s->pile[WASTE][n - 1 - j];
        s->nstock = n;
        s->len[WASTE] = 0;
        s->redeals_left--;
        return 0;
    }
    unsigned char card = s->pile[src][--s->len[src]];
    if (m.kind == TO_FOUNDATION) {
        s->found[m.dst]++;
        s->home++;
    } else {
        s->pile[m.dst][s->len[m.dst]++] = card;
        if (m.dst == WASTE) waste_fold(s, s->len[WASTE] - 1);
    }
    if (s->down[src] && s->len[src] == s->down[src]) {
        s->down[src]--;
        return 1;
    }
    return 0;
}

static inline void revert(SearchObject *s, Mv m, int detail) {
    if (m.kind == DRAW) {
        for (int j = 0; j < detail; j++) s->stock[s->nstock++] = s->pile[WASTE][--s->len[WASTE]];
        return;
    }
    if (m.kind == REDEAL) {
        int n = s->nstock;
        for (int j = 0; j < n; j++) s->pile[WASTE][j] = s->stock[n - 1 - j];
        s->len[WASTE] = n;
        s->nstock = 0;
        s->redeals_left++;
        waste_fold(s, 0);
        return;
    }
    if (detail) s->down[m.src]++;
    if (m.kind == TO_FOUNDATION) {
        int rank = s->found[m.dst]--;
        s->home--;
        s->pile[m.src][s->len[m.src]++] = (unsigned char)((rank << 2) | s->fsuit[m.dst]);
    } else {
        s->pile[m.src][s->len[m.src]++] = s->pile[m.dst][--s->len[m.dst]];
    }
    if (m.src == WASTE) waste_fold(s, s->len[WASTE] - 1);
}

/* ------------------------------------------------------------ the key */

static inline Py_hash_t column_hash(SearchObject *s, int i) {
    unsigned char buf[MAXCARDS + 1];
    int at = 0;
    if (s->face_down) buf[at++] = (unsigned char)s->down[i];
    memcpy(buf + at, s->pile[i], (size_t)s->len[i]);
    at += s->len[i];
    if (core_fault == 3 && at) buf[0] ^= 1;
    return HASH_BYTES(buf, at);
}

/* key.py's whole(game, total): hash((len(stock) or (redeals_left, *stock), waste, total)) */
static inline int64_t whole_key(SearchObject *s, __int128 total) {
    u64 first;
    if (s->redeals) {
        u64 acc = lane_step(XXPRIME_5, (u64)s->redeals_left);
        for (int j = 0; j < s->nstock; j++) acc = lane_step(acc, s->stock[j]);
        first = (u64)lane_end(acc, s->nstock + 1);
    } else {
        first = (u64)s->nstock;
    }
    u64 acc = lane_step(XXPRIME_5, first);
    acc = lane_step(acc, (u64)lane_end(s->wacc[s->len[WASTE]], s->len[WASTE]));
    acc = lane_step(acc, (u64)int_hash(total));
    return (int64_t)lane_end(acc, 3);
}

/* the probe's layout: hash((total, *found)) */
static inline int64_t layout_key(SearchObject *s, __int128 total) {
    u64 acc = lane_step(XXPRIME_5, (u64)int_hash(total));
    for (int k = 0; k < s->nfound; k++) acc = lane_step(acc, (u64)s->found[k]);
    return (int64_t)lane_end(acc, s->nfound + 1);
}

static inline __int128 all_hashes(SearchObject *s) {
    __int128 total = 0;
    s->hashes[0] = 0;
    for (int i = 1; i < s->npiles; i++) total += (s->hashes[i] = column_hash(s, i));
    return total;
}

/* ------------------------------------------------------------ the walk's small steps */

static inline u64 touches(Mv m) {
    if (m.kind == DRAW) return STOCK_BIT | 1;
    if (m.count != 1) return EVERYTHING;
    if (m.kind == TO_COLUMN) return (1ULL << m.src) | (1ULL << m.dst);
    if (m.kind == TO_FOUNDATION) return (1ULL << m.src) | (1ULL << (FOUNDATION_BIT + m.dst));
    return EVERYTHING;
}

static inline int same(Mv a, Mv b) {
    return a.kind == b.kind && a.src == b.src && a.dst == b.dst && a.count == b.count;
}

/* the lost table (a Python set of ints): 1, 0 or -1 on error */
static inline int is_lost(SearchObject *s, int64_t k) {
    PyObject *o = PyLong_FromLongLong(k);
    if (!o) return -1;
    int r = PySet_Contains(s->lost, o);
    Py_DECREF(o);
    return r;
}

static inline int add_lost(SearchObject *s, int64_t k) {
    PyObject *o = PyLong_FromLongLong(k);
    if (!o) return -1;
    int r = PySet_Add(s->lost, o);
    Py_DECREF(o);
    return r;
}

/* ------------------------------------------------------------ shared between the files */

/* search_moves.c */
HIDDEN int legal(SearchObject *s, Mv *out);
HIDDEN int ordered(SearchObject *s, const Mv *moves, int nmoves, const Mv *last, Mv *out);
/* search_probe.c */
HIDDEN int probe(SearchObject *s, Map *memo, int64_t layout);
/* search_walk.c */
HIDDEN void restore(SearchObject *s);
HIDDEN PyObject *search_run(SearchObject *s, PyObject *args);
/* search_type.c (read_pairs: _core.c's move generator reads the same tables) */
HIDDEN int read_pairs(PyObject *homes, int *n, int (*ks)[MAXF], int (*vals)[MAXF],
                      int negative_is_none);
extern PyTypeObject SearchType;

static inline PyObject *move_tuple(Mv m) {
    return Py_BuildValue("(iiii)", m.kind, m.src, m.dst, m.count);
}

#endif
