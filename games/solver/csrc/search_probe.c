/* The dead-position probe of the compiled search: deadlock.py's highest-reach home rule
 * (search.h). */

#include "search.h"

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

int probe(SearchObject *s, Map *memo, int64_t layout) {
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
