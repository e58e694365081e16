/* The move list and the move order of the compiled search (search.h). */

#include "search.h"

/* ------------------------------------------------------------ the move list and order */

/* movegen's legal(game), in the engine's order; returns the count */
int legal(SearchObject *s, Mv *out) {
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

/* Knowledge.ordered(game, moves, last, noise) into out; the count, -1 on a Python error */
int ordered(SearchObject *s, const Mv *moves, int nmoves, const Mv *last, Mv *out) {
    Ranked scored[MAXP * (MAXP + MAXF) + 2];
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
            int rest = m.src == WASTE ? 0 : s->len[m.src] - m.count;
            int below = 0, linked = 0, home = 0;
            if (m.src != WASTE && rest > 0) {
                below = s->pile[m.src][rest - 1];
                linked = s->table[(below << 6) | s->pile[m.src][rest]];
                home = can_go_home(s, below);
            }
            sc = column_move_score(m.src == WASTE, tlen, rest, home, s->down[m.src], linked, below);
        }
        scored[n].score = (double)sc;
        scored[n].at = j;
        n++;
    }
    if (s->jitter && ranked_jitter(scored, n, s->jitter, s->noise_scale) < 0) return -1;
    ranked_sort(scored, n);
    for (int j = 0; j < n; j++) out[j] = moves[scored[j].at];
    return n;
}
