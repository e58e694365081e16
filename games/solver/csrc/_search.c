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
 */
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
#define YIELD_EVERY (CLOCK_EVERY * 64)
#define STOCK_BIT (1ULL << 40)
#define FOUNDATION_BIT 41
#define EVERYTHING (~0ULL)

extern int core_fault;

#if PY_VERSION_HEX >= 0x030E0000
#define HASH_BYTES(buf, n) Py_HashBuffer((buf), (n))
#else
#define HASH_BYTES(buf, n) _Py_HashBytes((buf), (n))
#endif

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

static int map_init(Map *m, size_t cap) {
    m->keys = PyMem_Calloc(cap, sizeof(int64_t));
    m->vals = PyMem_Calloc(cap, sizeof(int64_t));
    m->used = PyMem_Calloc(cap, 1);
    m->cap = cap;
    m->count = 0;
    if (!m->keys || !m->vals || !m->used) return -1;
    return 0;
}

static void map_free(Map *m) {
    PyMem_Free(m->keys);
    PyMem_Free(m->vals);
    PyMem_Free(m->used);
    m->keys = m->vals = NULL;
    m->used = NULL;
    m->cap = m->count = 0;
}

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

static int map_put(Map *m, int64_t k, int64_t v);

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

static int map_put(Map *m, int64_t k, int64_t v) {
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
static void map_del(Map *m, int64_t k) {
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

static void map_clear(Map *m) {
    memset(m->used, 0, m->cap);
    m->count = 0;
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
static int apply(SearchObject *s, Mv m) {
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

static void revert(SearchObject *s, Mv m, int detail) {
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

static Py_hash_t column_hash(SearchObject *s, int i) {
    unsigned char buf[MAXCARDS + 1];
    int at = 0;
    if (s->face_down) buf[at++] = (unsigned char)s->down[i];
    memcpy(buf + at, s->pile[i], (size_t)s->len[i]);
    at += s->len[i];
    if (core_fault == 3 && at) buf[0] ^= 1;
    return HASH_BYTES(buf, at);
}

/* key.py's whole(game, total): hash((len(stock) or (redeals_left, *stock), waste, total)) */
static int64_t whole_key(SearchObject *s, __int128 total) {
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
static int64_t layout_key(SearchObject *s, __int128 total) {
    u64 acc = lane_step(XXPRIME_5, (u64)int_hash(total));
    for (int k = 0; k < s->nfound; k++) acc = lane_step(acc, (u64)s->found[k]);
    return (int64_t)lane_end(acc, s->nfound + 1);
}

static __int128 all_hashes(SearchObject *s) {
    __int128 total = 0;
    s->hashes[0] = 0;
    for (int i = 1; i < s->npiles; i++) total += (s->hashes[i] = column_hash(s, i));
    return total;
}

/* ------------------------------------------------------------ the move list and order */

/* movegen's legal(game), in the engine's order; returns the count */
static int legal(SearchObject *s, Mv *out) {
    int n = 0, empties = 0, tops[MAXP];
    if (s->nstock)
        out[n++] = (Mv){DRAW, 0, 0, 1};
    else if (s->redeals_left && s->len[WASTE])
        out[n++] = (Mv){REDEAL, 0, 0, 1};
    for (int d = 1; d < s->npiles; d++) {
        if (s->len[d]) {
            tops[d] = s->pile[d][s->len[d] - 1];
        } else {
            tops[d] = -1;
            empties = 1;
        }
    }
    for (int src = 0; src < s->npiles; src++) {
        int size = s->len[src];
        if (!size) continue;
        int card = s->pile[src][size - 1];
        for (int j = 0; j < s->nhomes[card]; j++) {
            int k = s->home_k[card][j];
            if (k < s->nfound && s->found[k] == s->home_below[card][j])
                out[n++] = (Mv){TO_FOUNDATION, (unsigned char)src, (unsigned char)k, 1};
        }
        int space_ok = empties && s->to_space[card] && (src == 0 || size > 1);
        for (int d = 1; d < s->npiles; d++) {
            int ok = tops[d] >= 0 ? s->table[(tops[d] << 6) | card] : space_ok;
            if (ok) out[n++] = (Mv){TO_COLUMN, (unsigned char)src, (unsigned char)d, 1};
        }
    }
    if (core_fault == 1 && n) n--;
    return n;
}

static int is_safe_home(SearchObject *s, int card, int src) {
    if (src == WASTE && s->waste_unsafe_on_redeal && s->redeals_left) return 0;
    for (int j = 0; j < s->nsafe[card]; j++)
        if (s->found[s->safe_k[card][j]] < s->safe_rank[card][j]) return 0;
    return 1;
}

static int can_go_home(SearchObject *s, int card) {
    for (int j = 0; j < s->nhomes[card]; j++)
        if (s->found[s->home_k[card][j]] == s->home_below[card][j]) return 1;
    return 0;
}

/* games.engine.safe.next_safe_home: 0 when there is none */
static int next_safe_home(SearchObject *s, Mv *out) {
    for (int src = 0; src < s->npiles; src++) {
        if (!s->len[src]) continue;
        int card = s->pile[src][s->len[src] - 1], rank = card >> 2, suit = card & 3;
        for (int j = 0; j < s->nsuit[suit]; j++) {
            int k = s->suit_k[suit][j];
            if (s->found[k] + 1 == rank && s->fsuit[k] == suit) {
                if (is_safe_home(s, card, src)) {
                    *out = (Mv){TO_FOUNDATION, (unsigned char)src, (unsigned char)k, 1};
                    return 1;
                }
                break;
            }
        }
    }
    return 0;
}

typedef struct {
    double score;
    Mv move;
} Scored;

/* Knowledge.ordered(game, moves, last, noise) into out; the count, -1 on a Python error */
static int ordered(SearchObject *s, const Mv *moves, int nmoves, const Mv *last, Mv *out) {
    Scored scored[MAXP * (MAXP + MAXF) + 2];
    int n = 0, first_empty = 0;
    for (int i = 1; i < s->npiles; i++)
        if (!s->len[i]) {
            first_empty = i;
            break;
        }
    int again_src = -1, again_count = -1;
    if (last && last->kind == TO_COLUMN) {
        again_src = last->dst;
        again_count = last->count;
    }
    for (int j = 0; j < nmoves; j++) {
        Mv m = moves[j];
        int sc;
        if (m.kind == TO_FOUNDATION) {
            if (is_safe_home(s, s->pile[m.src][s->len[m.src] - 1], m.src)) {
                if (!next_safe_home(s, out)) out[0] = m;
                return 1;
            }
            sc = 1000;
        } else if (m.kind == DRAW) {
            sc = 60;
        } else if (m.kind != TO_COLUMN) {
            sc = 0;
        } else {
            int tlen = s->len[m.dst];
            if (!tlen && m.dst != first_empty) continue;
            if (m.src == again_src && m.count == again_count) continue;
            if (m.src == WASTE) {
                sc = tlen ? 200 : 40;
            } else {
                int rest = s->len[m.src] - m.count;
                if (rest == 0) {
                    sc = 300;
                } else {
                    int below = s->pile[m.src][rest - 1], above = s->pile[m.src][rest];
                    int d = s->down[m.src];
                    if (can_go_home(s, below))
                        sc = 400;
                    else if (d && rest == d)
                        sc = 250;
                    else if (s->table[(below << 6) | above])
                        sc = -50;
                    else
                        sc = 100 + 5 * (KING - (below >> 2));
                }
                if (!tlen) sc -= 150;
            }
        }
        scored[n].score = (double)sc;
        scored[n].move = m;
        n++;
    }
    if (s->jitter) {
        for (int j = 0; j < n; j++) {
            PyObject *r = PyObject_CallNoArgs(s->jitter);
            if (!r) return -1;
            double x = PyFloat_AsDouble(r);
            Py_DECREF(r);
            if (x == -1.0 && PyErr_Occurred()) return -1;
            scored[j].score = scored[j].score + s->noise_scale * x;
        }
    }
    for (int j = 1; j < n; j++) { /* stable, best first: Python's sort(reverse=True) */
        Scored x = scored[j];
        int i = j;
        while (i > 0 && scored[i - 1].score < x.score) {
            scored[i] = scored[i - 1];
            i--;
        }
        scored[i] = x;
    }
    if (core_fault == 2 && n > 1) {
        Scored x = scored[0];
        scored[0] = scored[1];
        scored[1] = x;
    }
    for (int j = 0; j < n; j++) out[j] = scored[j].move;
    return n;
}

/* ------------------------------------------------------------ the probe (deadlock.py) */

typedef struct {
    u64 freed, exposed;
    int reach[4][MAXF];
    u64 home[4];
    int free[MAXP];
} ProbeState;

static inline int movable(SearchObject *s, ProbeState *p, int c) {
    if ((p->home[c & 3] >> (c >> 2)) & 1) return 1;
    return (p->exposed & s->targets[c]) != 0;
}

static inline u64 highest_mask(SearchObject *s, int suit, int *rs) {
    int top = 0;
    for (int f = 0; f < s->nsuit[suit]; f++)
        if (rs[f] > top) top = rs[f];
    return (4ULL << top) - 2;
}

static void grow(SearchObject *s, ProbeState *p, int c) {
    int suit = c & 3, r = c >> 2, climbed = 0;
    int *rs = p->reach[suit];
    for (int f = 0; f < s->nsuit[suit]; f++) {
        if (rs[f] + 1 == r) {
            int x = r;
            while (x < KING && ((p->freed >> (((x + 1) << 2) | suit)) & 1)) x++;
            rs[f] = x;
            climbed = 1;
        }
    }
    if (climbed) p->home[suit] = highest_mask(s, suit, rs);
}

static inline void set_free(SearchObject *s, ProbeState *p, int c) {
    if (!((p->freed >> c) & 1)) {
        p->freed |= 1ULL << c;
        grow(s, p, c);
    }
}

/* 0 once a whole column is free */
static int settle(SearchObject *s, ProbeState *p) {
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int ci = 1; ci < s->npiles; ci++) {
            unsigned char *col = s->pile[ci];
            int f = p->free[ci], size = s->len[ci];
            while (f < size && movable(s, p, col[size - 1 - f])) {
                set_free(s, p, col[size - 1 - f]);
                f++;
                if (f < size) p->exposed |= 1ULL << col[size - 1 - f];
                changed = 1;
            }
            if (f == size) return 0;
            p->free[ci] = f;
        }
    }
    return 1;
}

static int probe(SearchObject *s, Map *memo, int64_t layout) {
    if (memo && map_get(memo, layout) >= 0) return OPEN;
    ProbeState p;
    p.freed = p.exposed = 0;
    for (int ci = 1; ci < s->npiles; ci++) {
        if (!s->len[ci]) return OPEN;
        p.free[ci] = 0;
        p.exposed |= 1ULL << s->pile[ci][s->len[ci] - 1];
    }
    for (int suit = 0; suit < 4; suit++) {
        for (int f = 0; f < s->nsuit[suit]; f++) p.reach[suit][f] = s->found[s->suit_k[suit][f]];
        p.home[suit] = highest_mask(s, suit, p.reach[suit]);
    }
    if (!settle(s, &p)) {
        if (memo) map_put(memo, layout, 1);
        return OPEN;
    }
    int wn = s->len[WASTE];
    int draw_only = s->nstock && (!wn || !movable(s, &p, s->pile[WASTE][wn - 1]));
    unsigned char loose[2 * MAXCARDS], pile[MAXCARDS];
    int nloose = 0, npile = 0;
    for (int j = 0; j < s->nstock; j++) loose[nloose++] = s->stock[j];
    if (s->redeals_left) {
        for (int j = 0; j < wn; j++) loose[nloose++] = s->pile[WASTE][j];
    } else {
        memcpy(pile, s->pile[WASTE], (size_t)wn);
        npile = wn;
    }
    int changed = 1;
    while (changed) {
        changed = 0;
        while (npile && movable(s, &p, pile[npile - 1])) {
            int c = pile[--npile];
            set_free(s, &p, c);
            p.exposed |= 1ULL << c;
            changed = 1;
        }
        int rest = 0;
        for (int j = 0; j < nloose; j++) {
            int c = loose[j];
            if (movable(s, &p, c)) {
                set_free(s, &p, c);
                p.exposed |= 1ULL << c;
                changed = 1;
            } else {
                loose[rest++] = (unsigned char)c;
            }
        }
        nloose = rest;
        if (changed && !settle(s, &p)) return draw_only ? DRAW_ONLY : OPEN;
    }
    return core_fault == 6 ? OPEN : DEAD;
}

/* ------------------------------------------------------------ the walk */

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

#define MAXKIDS (MAXP * (MAXP + MAXF) + 2)

static int reserve(SearchObject *s) {
    if (s->nframes + 1 >= s->capframes) {
        int cap = s->capframes * 2;
        Frame *f = PyMem_Realloc(s->frames, sizeof(Frame) * (size_t)cap);
        if (!f) return -1;
        s->frames = f;
        s->capframes = cap;
    }
    if (s->narena + MAXKIDS >= s->caparena) {
        int cap = s->caparena * 2 + MAXKIDS;
        Mv *a = PyMem_Realloc(s->arena, sizeof(Mv) * (size_t)cap);
        if (!a) return -1;
        s->arena = a;
        int64_t *t = PyMem_Realloc(s->tried, sizeof(int64_t) * (size_t)cap);
        if (!t) return -1;
        s->tried = t;
        s->caparena = cap;
    }
    if (s->npending + 1 >= s->cappending) {
        int cap = s->cappending * 2;
        int64_t *p = PyMem_Realloc(s->pending, sizeof(int64_t) * (size_t)cap);
        if (!p) return -1;
        s->pending = p;
        s->cappending = cap;
    }
    return 0;
}

/* a new frame on top of the walk for key (its children still to fill in) */
static Frame *push_frame(SearchObject *s, int64_t key) {
    if (reserve(s) < 0) {
        PyErr_NoMemory();
        return NULL;
    }
    Frame *f = &s->frames[s->nframes++];
    memset(f, 0, sizeof(Frame));
    f->kids = s->narena;
    f->key = key;
    f->low = f->index = s->counter++;
    if (map_put(&s->index, key, f->index) < 0) {
        PyErr_NoMemory();
        return NULL;
    }
    s->pending[s->npending++] = key;
    return f;
}

/* Search._entering: enter the position the parent's i-th child led to; -1 on error */
static int enter(SearchObject *s, int pi, Mv move, int i, int verdict, int detail, int64_t key,
                 int ncols, const int *cols, __int128 before, Py_hash_t h0, Py_hash_t h1) {
    Frame *f = push_frame(s, key);
    if (!f) return -1;
    Frame *parent = &s->frames[pi];
    f->move = move;
    f->detail = detail;
    f->ncols = ncols;
    f->cols[0] = ncols > 0 ? cols[0] : 0;
    f->cols[1] = ncols > 1 ? cols[1] : 0;
    f->before = before;
    f->h0 = h0;
    f->h1 = h1;
    Mv *kids = s->arena + f->kids;
    if (verdict == DRAW_ONLY && s->lone_draws) {
        kids[0] = (Mv){DRAW, 0, 0, 1};
        f->nkids = 1;
        s->narena += 1;
        return 0;
    }
    Mv moves[MAXKIDS];
    int nmoves = legal(s, moves);
    if (move.kind == TO_COLUMN) {
        for (int j = 0; j < nmoves; j++) {
            if (moves[j].kind == TO_COLUMN && moves[j].src == move.dst
                && moves[j].count == move.count) {
                f->low = parent->index;
                break;
            }
        }
    }
    int n = ordered(s, moves, nmoves, &move, kids);
    if (n < 0) return -1;
    if (s->sleeping && i) {
        u64 bits = touches(move);
        Mv *tried = s->arena + parent->kids;
        int awake = 0;
        for (int j = 0; j < n; j++) {
            Mv m = kids[j];
            int t = -1;
            for (int q = 0; q <= i; q++)
                if (same(tried[q], m)) {
                    t = q;
                    break;
                }
            if (t < 0 || (touches(m) & bits) || core_fault == 5) {
                kids[awake++] = m;
                continue;
            }
            s->asleep++;
            int64_t kj = s->tried[parent->kids + t];
            int gone = is_lost(s, kj);
            if (gone < 0) return -1;
            if (!gone) {
                s->waits++;
                int64_t seen = map_get(&s->index, kj);
                if (seen < 0) seen = parent->index;
                if (seen < f->low) f->low = seen;
            }
        }
        n = awake;
    }
    f->nkids = n;
    s->narena += n;
    return 0;
}

/* Search._leaving: leave the top frame; the parent's sum of column hashes, via *total */
static int leave(SearchObject *s, __int128 *total) {
    Frame f = s->frames[--s->nframes];
    s->narena = f.kids;
    if (f.low == f.index) {
        int at = s->npending - 1;
        while (s->pending[at] != f.key) at--;
        for (int j = at; j < s->npending; j++) {
            map_del(&s->index, s->pending[j]);
            if (add_lost(s, s->pending[j]) < 0) return -1;
        }
        s->npending = at;
    } else if (s->nframes && f.low < s->frames[s->nframes - 1].low) {
        s->frames[s->nframes - 1].low = f.low;
    }
    if (f.root) return 0;
    revert(s, f.move, f.detail);
    if (f.ncols) {
        s->hashes[f.cols[0]] = f.h0;
        if (f.ncols > 1) s->hashes[f.cols[1]] = f.h1;
    }
    *total = f.before;
    return 0;
}

/* the walk dropped, the state back at its root */
static void restore(SearchObject *s) {
    while (s->nframes) {
        Frame *f = &s->frames[--s->nframes];
        if (!f->root) revert(s, f->move, f->detail);
    }
    s->narena = 0;
    s->npending = 0;
    s->counter = 0;
    map_clear(&s->index);
    s->paused = 0;
}

/* the caller's clock (search.py passes time.perf_counter as it is then, so a benchmark
 * that counts CPU time by replacing it is obeyed here too): -1.0 on a Python error */
static double now(PyObject *clock) {
    PyObject *r = PyObject_CallNoArgs(clock);
    if (!r) return -1.0;
    double t = PyFloat_AsDouble(r);
    Py_DECREF(r);
    return t;
}

static PyObject *move_tuple(Mv m) {
    return Py_BuildValue("(iiii)", m.kind, m.src, m.dst, m.count);
}

/* the winning line: the moves of the path, then the last; the state back at its root */
static PyObject *won(SearchObject *s, Mv last, int detail) {
    PyObject *line = PyList_New(0);
    if (!line) return NULL;
    for (int j = 0; j < s->nframes; j++) {
        if (s->frames[j].root) continue;
        PyObject *t = move_tuple(s->frames[j].move);
        if (!t || PyList_Append(line, t) < 0) {
            Py_XDECREF(t);
            Py_DECREF(line);
            return NULL;
        }
        Py_DECREF(t);
    }
    PyObject *t = move_tuple(last);
    if (!t || PyList_Append(line, t) < 0) {
        Py_XDECREF(t);
        Py_DECREF(line);
        return NULL;
    }
    Py_DECREF(t);
    revert(s, last, detail);
    restore(s);
    PyObject *r = Py_BuildValue("(sN)", "win", line);
    return r;
}

static PyObject *verdict(const char *v) { return Py_BuildValue("(s[])", v); }

#define BUDGET 2
#define ERROR (-1)

/* Search._begin: 0 the walk begun; else the verdict's return value in *out */
static int begin(SearchObject *s, __int128 total, PyObject **out) {
    if (s->home == s->deck) {
        *out = verdict("win");
        return 1;
    }
    int64_t root = whole_key(s, total);
    int gone = is_lost(s, root);
    if (gone) {
        *out = gone < 0 ? NULL : verdict("lost");
        return 1;
    }
    int first = s->cuts ? probe(s, NULL, 0) : OPEN;
    if (first == DEAD) {
        *out = add_lost(s, root) < 0 ? NULL : verdict("lost");
        return 1;
    }
    map_clear(&s->index);
    s->npending = 0;
    s->counter = 0;
    s->narena = 0;
    Frame *f = push_frame(s, root);
    if (!f) {
        *out = NULL;
        return 1;
    }
    f->root = 1;
    Mv *kids = s->arena + f->kids;
    if (first == DRAW_ONLY && s->lone_draws) {
        kids[0] = (Mv){DRAW, 0, 0, 1};
        f->nkids = 1;
    } else {
        Mv moves[MAXKIDS];
        int nmoves = legal(s, moves);
        f->nkids = ordered(s, moves, nmoves, NULL, kids);
        if (f->nkids < 0) {
            *out = NULL;
            return 1;
        }
    }
    s->narena += f->nkids;
    return 0;
}

/* The memory a search may hold. The Python loop empties the table and the probe's memo
 * only between searches (TABLE_LIMIT, search.py); this one searches some twenty times as
 * many positions a second, so a minute's proof would hold tens of millions of keys: past
 * LOST_LIMIT the table is emptied during the walk too. Forgetting proofs keeps the argument
 * (prove.py, "Turns": a key leaves the table only when it is lost, and every key added
 * after is proved from facts, never from the table's contents), it only costs positions
 * searched again; a sleeping move's position no longer in the table nor open then makes
 * the position depend on its parent, as the Python loop does. The tests' searches stay far
 * below it, so they compare node for node. */
#define LOST_LIMIT (4 * s->table_limit)

static void forget(SearchObject *s) {
    if (PySet_GET_SIZE(s->lost) > LOST_LIMIT) PySet_Clear(s->lost);
    if (s->layouts.count > (size_t)s->table_limit) map_clear(&s->layouts);
}

/* Search._loop: 0 lost, 1 a win (*out), BUDGET, ERROR */
static int loop(SearchObject *s, __int128 total, long long max_nodes, double deadline,
                PyObject *clock, PyObject **out) {
    long long nodes = 0;
    int rc = 0;
    while (s->nframes) {
        int fi = s->nframes - 1;
        Frame *frame = &s->frames[fi];
        int i = frame->next;
        if (i >= frame->nkids) {
            if (leave(s, &total) < 0) {
                rc = ERROR;
                break;
            }
            continue;
        }
        if (nodes == max_nodes) {
            rc = BUDGET;
            break;
        }
        frame->next = i + 1;
        Mv move = s->arena[frame->kids + i];
        int detail = apply(s, move);
        nodes++;
        if (!(nodes % CLOCK_EVERY)) {
            double t = now(clock);
            if (t == -1.0 && PyErr_Occurred()) {
                revert(s, move, detail);
                frame->next = i;
                rc = ERROR;
                break;
            }
            if (t > deadline) {
                revert(s, move, detail);
                frame->next = i;
                rc = BUDGET;
                break;
            }
            forget(s);
            if (!(nodes % YIELD_EVERY)) {
                /* a few milliseconds of search: let the process's other threads run (a
                 * server's event loop, a pool's watcher) as the Python loop's switch
                 * interval did, and take a pending signal (Ctrl-C) as an error */
                Py_BEGIN_ALLOW_THREADS
                Py_END_ALLOW_THREADS
                if (PyErr_CheckSignals() < 0) {
                    revert(s, move, detail);
                    frame->next = i;
                    rc = ERROR;
                    break;
                }
            }
        }
        if (s->home == s->deck) {
            *out = won(s, move, detail);
            rc = *out ? 1 : ERROR;
            break;
        }
        int cols[2], ncols = 0;
        if (move.kind == TO_COLUMN) {
            if (move.src != WASTE) cols[ncols++] = move.src;
            cols[ncols++] = move.dst;
        } else if (move.kind == TO_FOUNDATION && move.src != WASTE) {
            cols[ncols++] = move.src;
        }
        __int128 before = total;
        Py_hash_t h0 = 0, h1 = 0;
        if (ncols) {
            h0 = s->hashes[cols[0]];
            s->hashes[cols[0]] = column_hash(s, cols[0]);
            total += (__int128)s->hashes[cols[0]] - (__int128)h0;
            if (ncols > 1) {
                h1 = s->hashes[cols[1]];
                s->hashes[cols[1]] = column_hash(s, cols[1]);
                total += (__int128)s->hashes[cols[1]] - (__int128)h1;
            }
        }
        int64_t k = whole_key(s, total);
        if (s->sleeping) s->tried[frame->kids + i] = k;
        int gone = is_lost(s, k);
        if (gone < 0) {
            rc = ERROR;
            break;
        }
        if (!gone) {
            int64_t seen = map_get(&s->index, k);
            if (seen < 0) {
                int v = OPEN;
                if (s->cuts && (move.kind == DRAW || move.src == WASTE)) {
                    v = probe(s, &s->layouts, layout_key(s, total));
                }
                if (v != DEAD) {
                    if (enter(s, fi, move, i, v, detail, k, ncols, cols, before, h0, h1) < 0) {
                        rc = ERROR;
                        break;
                    }
                    continue;
                }
                if (add_lost(s, k) < 0) {
                    rc = ERROR;
                    break;
                }
            } else if (seen < frame->low) {
                frame->low = seen;
            }
        }
        revert(s, move, detail);
        total = before;
        if (ncols) {
            s->hashes[cols[0]] = h0;
            if (ncols > 1) s->hashes[cols[1]] = h1;
        }
    }
    s->nodes = nodes;
    return rc;
}

/* run(deadline, max_nodes, clock): ("win", [moves]), ("lost", []) or ("unknown", []) */
static PyObject *search_run(SearchObject *s, PyObject *args) {
    double deadline;
    long long max_nodes;
    PyObject *clock;
    if (!PyArg_ParseTuple(args, "dLO", &deadline, &max_nodes, &clock)) return NULL;
    if (s->layouts.count > (size_t)s->table_limit) map_clear(&s->layouts);
    s->nodes = 0;
    __int128 total = all_hashes(s);
    PyObject *out = NULL;
    if (s->paused) {
        s->paused = 0;
        int gone = is_lost(s, s->frames[0].key);
        if (gone < 0) return NULL;
        if (gone) { /* another search proved the root lost */
            restore(s);
            return verdict("lost");
        }
    } else if (begin(s, total, &out)) {
        return out;
    }
    int rc = loop(s, total, max_nodes, deadline, clock, &out);
    if (rc == ERROR) {
        restore(s);
        return NULL;
    }
    if (rc == 1) return out;
    if (rc == BUDGET) {
        if (s->resumable)
            s->paused = 1;
        else
            restore(s);
        return verdict("unknown");
    }
    restore(s);
    return verdict("lost");
}

/* ------------------------------------------------------------ construction */

static int read_pairs(PyObject *homes, int *n, int (*ks)[MAXF], int (*vals)[MAXF]) {
    if (!PyList_Check(homes) || PyList_GET_SIZE(homes) != NCARDS) {
        PyErr_SetString(PyExc_ValueError, "64 cards' (foundation, rank) pairs expected");
        return -1;
    }
    for (int c = 0; c < NCARDS; c++) {
        PyObject *pairs = PySequence_Fast(PyList_GET_ITEM(homes, c), "pairs");
        if (!pairs) return -1;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(pairs);
        if (m > MAXF) {
            Py_DECREF(pairs);
            PyErr_SetString(PyExc_ValueError, "too many foundations");
            return -1;
        }
        n[c] = (int)m;
        for (Py_ssize_t j = 0; j < m; j++) {
            PyObject *pair = PySequence_Fast_GET_ITEM(pairs, j);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
                Py_DECREF(pairs);
                PyErr_SetString(PyExc_ValueError, "a (foundation, rank) pair expected");
                return -1;
            }
            ks[c][j] = (int)PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
            vals[c][j] = (int)PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
            if (ks[c][j] < 0 || ks[c][j] >= MAXF) {
                Py_DECREF(pairs);
                PyErr_SetString(PyExc_ValueError, "no such foundation");
                return -1;
            }
        }
        Py_DECREF(pairs);
        if (PyErr_Occurred()) return -1;
    }
    return 0;
}

/* a list of small ints into out (at most cap, each in [0, limit)): the count or -1 */
static int read_ints(PyObject *list, int *out, int cap, int limit, const char *what) {
    PyObject *seq = PySequence_Fast(list, what);
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > cap) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "too many %s", what);
        return -1;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, j));
        if (v < 0 || v >= limit) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "%s out of range", what);
            return -1;
        }
        out[j] = (int)v;
    }
    Py_DECREF(seq);
    return (int)n;
}

/* load(piles, down, found, stock, redeals_left): the state of a GameState */
static int load_state(SearchObject *s, PyObject *piles, PyObject *down, PyObject *found,
                      PyObject *stock, int redeals_left) {
    int buf[MAXCARDS];
    if (!PyList_Check(piles) || PyList_GET_SIZE(piles) != s->npiles) {
        PyErr_SetString(PyExc_ValueError, "the game has another number of piles");
        return -1;
    }
    int cards = 0;
    for (int p = 0; p < s->npiles; p++) {
        int n = read_ints(PyList_GET_ITEM(piles, p), buf, MAXCARDS - 1, NCARDS, "cards");
        if (n < 0) return -1;
        for (int j = 0; j < n; j++) s->pile[p][j] = (unsigned char)buf[j];
        s->len[p] = n;
        cards += n;
    }
    int n = read_ints(down, buf, MAXP, MAXCARDS, "face-down counts");
    if (n < 0) return -1;
    if (n != s->npiles) {
        PyErr_SetString(PyExc_ValueError, "a face-down count a pile expected");
        return -1;
    }
    for (int p = 0; p < s->npiles; p++) s->down[p] = buf[p];
    n = read_ints(found, s->found, MAXF, KING + 1, "foundations");
    if (n < 0) return -1;
    if (n != s->nfound) {
        PyErr_SetString(PyExc_ValueError, "the game has another number of foundations");
        return -1;
    }
    n = read_ints(stock, buf, MAXCARDS, NCARDS, "stock cards");
    if (n < 0) return -1;
    for (int j = 0; j < n; j++) s->stock[j] = (unsigned char)buf[j];
    s->nstock = n;
    s->redeals_left = redeals_left;
    s->home = 0;
    for (int k = 0; k < s->nfound; k++) s->home += s->found[k];
    if (cards + n + s->home > MAXCARDS - 1) {
        PyErr_SetString(PyExc_ValueError, "too many cards");
        return -1;
    }
    s->wacc[0] = XXPRIME_5;
    waste_fold(s, 0);
    return 0;
}

static int search_init(SearchObject *s, PyObject *args, PyObject *kw) {
    /* (rules tuple, state tuple, options tuple, lost set, noise or None) */
    int npiles, nfound, deck, draw, face_down, redeals, waste_unsafe;
    double noise_scale;
    Py_buffer table, space;
    PyObject *homes, *safe, *fsuit, *suits;
    PyObject *piles, *down, *found, *stock, *lost, *noise;
    int redeals_left, cuts, lone, sleeping, resumable;
    if (!PyArg_ParseTuple(args, "(iiiippidy*y*OOOO)(OOOOi)(ppppn)O!O", &npiles, &nfound, &deck,
                          &draw, &face_down, &redeals, &waste_unsafe, &noise_scale, &table,
                          &space, &homes, &safe, &fsuit, &suits, &piles, &down, &found, &stock,
                          &redeals_left, &cuts, &lone, &sleeping, &resumable, &s->table_limit, &PySet_Type,
                          &lost, &noise))
        return -1;
    int bad = table.len != NCARDS * NCARDS || space.len != NCARDS;
    if (!bad) {
        memcpy(s->table, table.buf, NCARDS * NCARDS);
        memcpy(s->to_space, space.buf, NCARDS);
    }
    PyBuffer_Release(&table);
    PyBuffer_Release(&space);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "bad table sizes");
        return -1;
    }
    if (npiles < 2 || npiles > MAXP || nfound < 1 || nfound > MAXF || draw < 1) {
        PyErr_SetString(PyExc_ValueError, "a layout the compiled search cannot hold");
        return -1;
    }
    s->npiles = npiles;
    s->nfound = nfound;
    s->deck = deck;
    s->draw = draw;
    s->face_down = face_down;
    s->redeals = redeals;
    s->waste_unsafe_on_redeal = waste_unsafe;
    s->noise_scale = noise_scale;
    s->cuts = cuts;
    s->lone_draws = lone;
    s->sleeping = sleeping;
    s->resumable = resumable;
    if (read_pairs(homes, s->nhomes, s->home_k, s->home_below) < 0) return -1;
    if (read_pairs(safe, s->nsafe, s->safe_k, s->safe_rank) < 0) return -1;
    if (read_ints(fsuit, s->fsuit, MAXF, 4, "foundation suits") != nfound) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a suit a foundation expected");
        return -1;
    }
    if (!PySequence_Check(suits) || PySequence_Size(suits) != 4) {
        PyErr_SetString(PyExc_ValueError, "four suits' foundations expected");
        return -1;
    }
    for (int suit = 0; suit < 4; suit++) {
        PyObject *ks = PySequence_GetItem(suits, suit);
        if (!ks) return -1;
        s->nsuit[suit] = read_ints(ks, s->suit_k[suit], MAXF, nfound, "foundations");
        Py_DECREF(ks);
        if (s->nsuit[suit] < 0) return -1;
    }
    for (int c = 0; c < NCARDS; c++) { /* the cards c may go onto (deadlock.py's targets) */
        s->targets[c] = 0;
        for (int o = 4; o < 4 * (KING + 1); o++)
            if (s->table[(o << 6) | c]) s->targets[c] |= 1ULL << o;
    }
    if (load_state(s, piles, down, found, stock, redeals_left) < 0) return -1;
    Py_INCREF(lost);
    Py_XSETREF(s->lost, lost);
    Py_CLEAR(s->jitter);
    if (noise != Py_None) {
        s->jitter = PyObject_GetAttrString(noise, "random");
        if (!s->jitter) return -1;
    }
    Py_INCREF(noise);
    Py_XSETREF(s->noise, noise);
    if (!s->frames) {
        s->capframes = 256;
        s->caparena = 4096;
        s->cappending = 256;
        s->frames = PyMem_Malloc(sizeof(Frame) * (size_t)s->capframes);
        s->arena = PyMem_Malloc(sizeof(Mv) * (size_t)s->caparena);
        s->tried = PyMem_Malloc(sizeof(int64_t) * (size_t)s->caparena);
        s->pending = PyMem_Malloc(sizeof(int64_t) * (size_t)s->cappending);
        if (!s->frames || !s->arena || !s->tried || !s->pending || map_init(&s->index, 1024) < 0
            || map_init(&s->layouts, 1024) < 0) {
            PyErr_NoMemory();
            return -1;
        }
    }
    restore(s);
    return 0;
}

static void search_dealloc(SearchObject *s) {
    PyMem_Free(s->frames);
    PyMem_Free(s->arena);
    PyMem_Free(s->tried);
    PyMem_Free(s->pending);
    map_free(&s->index);
    map_free(&s->layouts);
    Py_XDECREF(s->lost);
    Py_XDECREF(s->noise);
    Py_XDECREF(s->jitter);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

/* ------------------------------------------------------------ what the tests read */

static PyObject *search_state(SearchObject *s, PyObject *unused) {
    PyObject *piles = PyList_New(s->npiles);
    if (!piles) return NULL;
    for (int p = 0; p < s->npiles; p++) {
        PyObject *pile = PyList_New(s->len[p]);
        if (!pile) {
            Py_DECREF(piles);
            return NULL;
        }
        for (int j = 0; j < s->len[p]; j++) PyList_SET_ITEM(pile, j, PyLong_FromLong(s->pile[p][j]));
        PyList_SET_ITEM(piles, p, pile);
    }
    PyObject *down = PyList_New(s->npiles), *found = PyList_New(s->nfound);
    PyObject *stock = PyList_New(s->nstock);
    if (!down || !found || !stock) {
        Py_DECREF(piles);
        Py_XDECREF(down);
        Py_XDECREF(found);
        Py_XDECREF(stock);
        return NULL;
    }
    for (int p = 0; p < s->npiles; p++) PyList_SET_ITEM(down, p, PyLong_FromLong(s->down[p]));
    for (int k = 0; k < s->nfound; k++) PyList_SET_ITEM(found, k, PyLong_FromLong(s->found[k]));
    for (int j = 0; j < s->nstock; j++) PyList_SET_ITEM(stock, j, PyLong_FromLong(s->stock[j]));
    return Py_BuildValue("(NNNNii)", piles, down, found, stock, s->redeals_left, s->home);
}

static PyObject *moves_list(const Mv *moves, int n) {
    PyObject *list = PyList_New(n);
    if (!list) return NULL;
    for (int j = 0; j < n; j++) {
        PyObject *t = move_tuple(moves[j]);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, j, t);
    }
    return list;
}

static int parse_move(PyObject *o, Mv *m) {
    int kind, src, dst, count;
    if (!PyArg_ParseTuple(o, "iiii", &kind, &src, &dst, &count)) return -1;
    *m = (Mv){(unsigned char)kind, (unsigned char)src, (unsigned char)dst, (unsigned char)count};
    return 0;
}

static int paused_refusal(SearchObject *s) {
    if (s->nframes) {
        PyErr_SetString(PyExc_RuntimeError, "the search holds a walk: its state is not free");
        return -1;
    }
    return 0;
}

/* legal(): the move list of the state; ordered(last): those the order keeps, in order */
static PyObject *search_legal(SearchObject *s, PyObject *unused) {
    Mv moves[MAXKIDS];
    return moves_list(moves, legal(s, moves));
}

static PyObject *search_ordered(SearchObject *s, PyObject *last) {
    Mv moves[MAXKIDS], out[MAXKIDS], m;
    int has = last != Py_None;
    if (has && parse_move(last, &m) < 0) return NULL;
    int n = ordered(s, moves, legal(s, moves), has ? &m : NULL, out);
    return n < 0 ? NULL : moves_list(out, n);
}

/* play(move): apply a move the generator lists; the undo detail */
static PyObject *search_play(SearchObject *s, PyObject *o) {
    Mv m, moves[MAXKIDS];
    if (paused_refusal(s) < 0 || parse_move(o, &m) < 0) return NULL;
    int n = legal(s, moves), ok = 0;
    for (int j = 0; j < n; j++) ok |= same(moves[j], m);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "not a move the generator lists here");
        return NULL;
    }
    return PyLong_FromLong(apply(s, m));
}

static PyObject *search_unplay(SearchObject *s, PyObject *args) {
    PyObject *o;
    int detail;
    Mv m;
    if (paused_refusal(s) < 0 || !PyArg_ParseTuple(args, "Oi", &o, &detail) || parse_move(o, &m) < 0)
        return NULL;
    revert(s, m, detail);
    Py_RETURN_NONE;
}

static PyObject *search_key(SearchObject *s, PyObject *unused) {
    return PyLong_FromLongLong(whole_key(s, all_hashes(s)));
}

static PyObject *search_probe(SearchObject *s, PyObject *unused) {
    return PyLong_FromLong(probe(s, NULL, 0));
}

static PyObject *search_get(SearchObject *s, void *what) {
    switch ((intptr_t)what) {
    case 0: return PyLong_FromLongLong(s->nodes);
    case 1: return PyLong_FromLongLong(s->asleep);
    case 2: return PyLong_FromLongLong(s->waits);
    default: return PyBool_FromLong(s->paused);
    }
}

static PyGetSetDef search_getset[] = {
    {"nodes", (getter)search_get, NULL, "nodes of the last run", (void *)0},
    {"asleep", (getter)search_get, NULL, "moves put to sleep, summed over the runs", (void *)1},
    {"waits", (getter)search_get, NULL, "of those, onto positions still open", (void *)2},
    {"paused", (getter)search_get, NULL, "whether a resumable search holds its place", (void *)3},
    {NULL},
};

static PyMethodDef search_methods[] = {
    {"run", (PyCFunction)search_run, METH_VARARGS, "run(deadline, max_nodes, clock): verdict, line"},
    {"state", (PyCFunction)search_state, METH_NOARGS, "(piles, down, found, stock, redeals, home)"},
    {"legal", (PyCFunction)search_legal, METH_NOARGS, "the legal moves, movegen's order"},
    {"ordered", (PyCFunction)search_ordered, METH_O, "the kept moves, the order's"},
    {"play", (PyCFunction)search_play, METH_O, "apply a listed move: its undo detail"},
    {"unplay", (PyCFunction)search_unplay, METH_VARARGS, "unplay(move, detail)"},
    {"key", (PyCFunction)search_key, METH_NOARGS, "the table key of the state"},
    {"probe", (PyCFunction)search_probe, METH_NOARGS, "the dead-position probe's verdict"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.solver._core.Search",
    .tp_basicsize = sizeof(SearchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(rules, state, options, lost, noise): the search loop in C",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)search_init,
    .tp_dealloc = (destructor)search_dealloc,
    .tp_methods = search_methods,
    .tp_getset = search_getset,
};
