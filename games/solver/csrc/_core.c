/* The solver's compiled core: the per-position work of the depth-first search in C.
 *
 * Two functions of the Python search are replaced here, each returning exactly what
 * the Python one returns (the same Move objects, in the same order), so every search
 * visits the same positions node for node (tests/solver/test_core.py):
 *
 *   Legal.legal(game)   games.solver.movegen's generator (single-card variants);
 *   Order.ordered(game, moves, last, noise)   games.solver.heuristics.Knowledge.ordered,
 *       with the restarts' noise drawn from the caller's random.Random in the same
 *       order (one noise.random() per scored move), so restarts keep their order;
 *   Key.column(game, i), Key.whole(game, s)   games.solver.key's table key parts, the
 *       same Python hashes of the same objects (one table of proofs for both cores).
 *
 * The tables come from the Python side (games/solver/core.py), read from the engine's
 * rules: no rule is restated here. set_fault() breaks the core on purpose, for the test
 * that shows the equality tests can fail.
 */
/* games.engine.notation's move kinds, the waste's pile index, the tables' sizes and the
 * readers both halves share come from the search loop's header */
#include "search.h"

#define MAXPILES 64

static PyObject *s_piles, *s_found, *s_stock, *s_redeals_left, *s_down, *s_random;
/* 0: none; 1: Legal drops its last move; 2: Order swaps its first two children;
 * 3: Key hashes a column's first byte wrong (1-3 break the search loop of search_*.c alike);
 * the loop alone: 4 draws one card too many, 5 puts no move to sleep, 6 calls nothing dead */
int core_fault = 0;

static inline long small(PyObject *o) { return PyLong_AsLong(o); }

/* ------------------------------------------------------------------ Legal */

typedef struct {
    PyObject_HEAD
    int npiles;
    unsigned char table[NCARDS * NCARDS];
    unsigned char to_space[NCARDS];
    int nhomes[NCARDS];
    int home_k[NCARDS][MAXF];
    int home_below[NCARDS][MAXF];
    PyObject *found_move; /* found_move[src][k] */
    PyObject *col_move;   /* col_move[src][d] */
    PyObject *draw_move, *redeal_move;
} LegalObject;

static int legal_init(LegalObject *self, PyObject *args, PyObject *kw) {
    int npiles;
    Py_buffer table, space;
    PyObject *homes, *fm, *cm, *dm, *rm;
    if (!PyArg_ParseTuple(args, "iy*y*OO!O!OO", &npiles, &table, &space, &homes, &PyList_Type,
                          &fm, &PyList_Type, &cm, &dm, &rm))
        return -1;
    int bad = npiles < 1 || npiles > MAXPILES || table.len != NCARDS * NCARDS
              || space.len != NCARDS;
    if (!bad) {
        self->npiles = npiles;
        memcpy(self->table, table.buf, NCARDS * NCARDS);
        memcpy(self->to_space, space.buf, NCARDS);
    }
    PyBuffer_Release(&table);
    PyBuffer_Release(&space);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "bad table sizes");
        return -1;
    }
    if (read_pairs(homes, self->nhomes, self->home_k, self->home_below, 1) < 0) return -1;
    Py_INCREF(fm);
    Py_INCREF(cm);
    Py_INCREF(dm);
    Py_INCREF(rm);
    Py_XSETREF(self->found_move, fm);
    Py_XSETREF(self->col_move, cm);
    Py_XSETREF(self->draw_move, dm);
    Py_XSETREF(self->redeal_move, rm);
    return 0;
}

static void legal_dealloc(LegalObject *self) {
    Py_XDECREF(self->found_move);
    Py_XDECREF(self->col_move);
    Py_XDECREF(self->draw_move);
    Py_XDECREF(self->redeal_move);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* the list games.solver.movegen's legal(game) returns, move for move */
static PyObject *legal_legal(LegalObject *self, PyObject *g) {
    PyObject *piles = NULL, *found = NULL, *stock = NULL, *redeals = NULL, *result = NULL;
    piles = PyObject_GetAttr(g, s_piles);
    found = piles ? PyObject_GetAttr(g, s_found) : NULL;
    stock = found ? PyObject_GetAttr(g, s_stock) : NULL;
    if (!stock) goto done;
    if (!PyList_Check(piles) || !PyList_Check(found) || !PyList_Check(stock)) {
        PyErr_SetString(PyExc_TypeError, "piles, found and stock must be lists");
        goto done;
    }
    Py_ssize_t npiles = PyList_GET_SIZE(piles);
    if (npiles > MAXPILES || npiles < self->npiles) {
        PyErr_SetString(PyExc_ValueError, "the game has another number of piles");
        goto done;
    }
    result = PyList_New(0);
    if (!result) goto done;
    if (PyList_GET_SIZE(stock)) {
        if (PyList_Append(result, self->draw_move) < 0) goto fail;
    } else {
        redeals = PyObject_GetAttr(g, s_redeals_left);
        if (!redeals) goto fail;
        int more = PyObject_IsTrue(redeals);
        if (more < 0) goto fail;
        if (more && PyList_GET_SIZE(PyList_GET_ITEM(piles, 0))
            && PyList_Append(result, self->redeal_move) < 0)
            goto fail;
    }
    int tops[MAXPILES];
    int empties = 0;
    for (int d = 1; d < self->npiles; d++) {
        PyObject *p = PyList_GET_ITEM(piles, d);
        Py_ssize_t n = PyList_GET_SIZE(p);
        if (n) {
            long top = small(PyList_GET_ITEM(p, n - 1));
            if (top < 0 || top >= NCARDS) goto badcard;
            tops[d] = (int)top;
        } else {
            tops[d] = -1;
            empties = 1;
        }
    }
    Py_ssize_t nfound = PyList_GET_SIZE(found);
    for (Py_ssize_t src = 0; src < npiles; src++) {
        PyObject *pile = PyList_GET_ITEM(piles, src);
        Py_ssize_t n = PyList_GET_SIZE(pile);
        if (!n) continue;
        long card = small(PyList_GET_ITEM(pile, n - 1));
        if (card < 0 || card >= NCARDS) goto badcard;
        PyObject *fm = PyList_GET_ITEM(self->found_move, src);
        for (int j = 0; j < self->nhomes[card]; j++) {
            int k = self->home_k[card][j];
            if (k >= nfound) continue;
            if (small(PyList_GET_ITEM(found, k)) == self->home_below[card][j]
                && PyList_Append(result, PyList_GET_ITEM(fm, k)) < 0)
                goto fail;
        }
        int space_ok = empties && self->to_space[card] && (src == 0 || n > 1);
        PyObject *cm = PyList_GET_ITEM(self->col_move, src);
        for (int d = 1; d < self->npiles; d++) {
            int ok = tops[d] >= 0 ? self->table[(tops[d] << 6) | card] : space_ok;
            if (ok && PyList_Append(result, PyList_GET_ITEM(cm, d)) < 0) goto fail;
        }
    }
    if (PyErr_Occurred()) goto fail;
    if (core_fault == 1 && PyList_GET_SIZE(result)
        && PyList_SetSlice(result, PyList_GET_SIZE(result) - 1, PyList_GET_SIZE(result), NULL)
               < 0)
        goto fail;
    goto done;
badcard:
    PyErr_SetString(PyExc_ValueError, "a card out of range");
fail:
    Py_CLEAR(result);
done:
    Py_XDECREF(piles);
    Py_XDECREF(found);
    Py_XDECREF(stock);
    Py_XDECREF(redeals);
    return result;
}

static PyMethodDef legal_methods[] = {
    {"legal", (PyCFunction)legal_legal, METH_O, "The legal moves of a game, movegen's order."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject LegalType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.solver._core.Legal",
    .tp_basicsize = sizeof(LegalObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Legal(npiles, table, to_space, homes, found_move, col_move, draw, redeal)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)legal_init,
    .tp_dealloc = (destructor)legal_dealloc,
    .tp_methods = legal_methods,
};

/* ------------------------------------------------------------------ Order */

typedef struct {
    PyObject_HEAD
    unsigned char table[NCARDS * NCARDS];
    int nhomes[NCARDS];
    int home_k[NCARDS][MAXF];
    int home_below[NCARDS][MAXF];
    int nsafe[NCARDS];
    int safe_k[NCARDS][MAXF];
    int safe_rank[NCARDS][MAXF];
    int never_safe, waste_unsafe_on_redeal;
    double noise;
    PyObject *next_safe_home;
} OrderObject;

static int order_init(OrderObject *self, PyObject *args, PyObject *kw) {
    Py_buffer table;
    PyObject *homes, *safe, *nsh;
    int never, waste_unsafe;
    double noise;
    if (!PyArg_ParseTuple(args, "y*OOppdO", &table, &homes, &safe, &never, &waste_unsafe,
                          &noise, &nsh))
        return -1;
    int bad = table.len != NCARDS * NCARDS;
    if (!bad) memcpy(self->table, table.buf, NCARDS * NCARDS);
    PyBuffer_Release(&table);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "bad table size");
        return -1;
    }
    if (read_pairs(homes, self->nhomes, self->home_k, self->home_below, 1) < 0) return -1;
    if (read_pairs(safe, self->nsafe, self->safe_k, self->safe_rank, 1) < 0) return -1;
    self->never_safe = never;
    self->waste_unsafe_on_redeal = waste_unsafe;
    self->noise = noise;
    Py_INCREF(nsh);
    Py_XSETREF(self->next_safe_home, nsh);
    return 0;
}

static void order_dealloc(OrderObject *self) {
    Py_XDECREF(self->next_safe_home);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static long found_at(PyObject *found, int k) {
    if (k >= PyList_GET_SIZE(found)) {
        PyErr_SetString(PyExc_IndexError, "no such foundation");
        return -1;
    }
    return small(PyList_GET_ITEM(found, k));
}

/* Knowledge.is_safe_home: -1 on error */
static int is_safe_home(OrderObject *self, PyObject *g, PyObject *found, long card, long src) {
    if (self->never_safe) return 0;
    if (src == WASTE && self->waste_unsafe_on_redeal) {
        PyObject *r = PyObject_GetAttr(g, s_redeals_left);
        if (!r) return -1;
        int more = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (more) return more < 0 ? -1 : 0;
    }
    for (int j = 0; j < self->nsafe[card]; j++) {
        long f = found_at(found, self->safe_k[card][j]);
        if (f == -1 && PyErr_Occurred()) return -1;
        if (f < self->safe_rank[card][j]) return 0;
    }
    return 1;
}

static int can_go_home(OrderObject *self, PyObject *found, long card) {
    for (int j = 0; j < self->nhomes[card]; j++) {
        long f = found_at(found, self->home_k[card][j]);
        if (f == -1 && PyErr_Occurred()) return -1;
        if (f == self->home_below[card][j]) return 1;
    }
    return 0;
}

static long top_of(PyObject *pile, Py_ssize_t at) {
    long c = small(PyList_GET_ITEM(pile, at));
    if ((c < 0 || c >= NCARDS) && !PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "a card out of range");
    return c;
}

/* Knowledge.ordered(game, moves, last, noise): the kept moves, best first */
static PyObject *order_ordered(OrderObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "ordered(game, moves, last, noise=None)");
        return NULL;
    }
    PyObject *g = args[0], *moves = args[1], *last = args[2];
    PyObject *noise = nargs == 4 ? args[3] : Py_None;
    if (!PyList_Check(moves)) {
        PyErr_SetString(PyExc_TypeError, "moves must be a list");
        return NULL;
    }
    PyObject *piles = NULL, *found = NULL, *down = NULL, *jitter = NULL, *result = NULL;
    Ranked stack[128], *scored = stack;
    Py_ssize_t nmoves = PyList_GET_SIZE(moves);
    int n = 0;
    if (nmoves > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "too many moves");
        return NULL;
    }
    if (nmoves > 128) {
        scored = PyMem_Malloc(sizeof(Ranked) * (size_t)nmoves);
        if (!scored) return PyErr_NoMemory();
    }
    piles = PyObject_GetAttr(g, s_piles);
    found = piles ? PyObject_GetAttr(g, s_found) : NULL;
    down = found ? PyObject_GetAttr(g, s_down) : NULL;
    if (!down) goto done;
    if (!PyList_Check(piles) || !PyList_Check(found) || !PyList_Check(down)) {
        PyErr_SetString(PyExc_TypeError, "piles, found and down must be lists");
        goto done;
    }
    Py_ssize_t npiles = PyList_GET_SIZE(piles), first_empty = 0;
    for (Py_ssize_t i = 1; i < npiles; i++) {
        if (!PyList_GET_SIZE(PyList_GET_ITEM(piles, i))) {
            first_empty = i;
            break;
        }
    }
    long again_src = -1, again_count = -1;
    if (last != Py_None && small(PyTuple_GET_ITEM(last, 0)) == TO_COLUMN) {
        again_src = small(PyTuple_GET_ITEM(last, 2));
        again_count = small(PyTuple_GET_ITEM(last, 3));
    }
    for (Py_ssize_t j = 0; j < nmoves; j++) {
        PyObject *m = PyList_GET_ITEM(moves, j);
        if (!PyTuple_Check(m) || PyTuple_GET_SIZE(m) != 4) {
            PyErr_SetString(PyExc_TypeError, "a move is a 4-tuple");
            goto done;
        }
        long kind = small(PyTuple_GET_ITEM(m, 0)), src = small(PyTuple_GET_ITEM(m, 1));
        long dst = small(PyTuple_GET_ITEM(m, 2)), count = small(PyTuple_GET_ITEM(m, 3));
        if (PyErr_Occurred()) goto done;
        long s;
        if (kind == TO_FOUNDATION) {
            if (src < 0 || src >= npiles) goto badpile;
            PyObject *pile = PyList_GET_ITEM(piles, src);
            Py_ssize_t len = PyList_GET_SIZE(pile);
            if (!len) goto badpile;
            long card = top_of(pile, len - 1);
            if (PyErr_Occurred()) goto done;
            int safe = is_safe_home(self, g, found, card, src);
            if (safe < 0) goto done;
            if (safe) {
                /* alone, and the engine's next one: [next_safe_home(game) or m] */
                PyObject *next = PyObject_CallOneArg(self->next_safe_home, g);
                if (!next) goto done;
                int truth = PyObject_IsTrue(next);
                if (truth < 0) {
                    Py_DECREF(next);
                    goto done;
                }
                result = PyList_New(1);
                if (!result) {
                    Py_DECREF(next);
                    goto done;
                }
                if (!truth) {
                    Py_DECREF(next);
                    next = Py_NewRef(m);
                }
                PyList_SET_ITEM(result, 0, next);
                goto done;
            }
            s = 1000;
        } else if (kind == DRAW) {
            s = 60;
        } else if (kind != TO_COLUMN) {
            s = 0;
        } else {
            if (src < 0 || src >= npiles || dst < 0 || dst >= npiles) goto badpile;
            PyObject *target = PyList_GET_ITEM(piles, dst);
            Py_ssize_t tlen = PyList_GET_SIZE(target);
            if (!tlen && dst != first_empty) continue;
            if (src == again_src && count == again_count) continue;
            PyObject *pile = PyList_GET_ITEM(piles, src);
            Py_ssize_t rest = src == WASTE ? 0 : PyList_GET_SIZE(pile) - count;
            long below = 0, linked = 0, d = 0;
            int home = 0;
            if (src != WASTE && rest != 0) {
                if (rest < 0 || count < 1) goto badpile;
                below = top_of(pile, rest - 1);
                long above = top_of(pile, rest);
                if (PyErr_Occurred()) goto done;
                home = can_go_home(self, found, below);
                if (home < 0) goto done;
                d = src < PyList_GET_SIZE(down) ? small(PyList_GET_ITEM(down, src)) : 0;
                linked = self->table[(below << 6) | above];
            }
            s = column_move_score(src == WASTE, (int)tlen, (int)rest, home, (int)d, (int)linked,
                                  (int)below);
        }
        scored[n].score = (double)s;
        scored[n].at = (int)j;
        n++;
    }
    if (noise != Py_None) {
        jitter = PyObject_GetAttr(noise, s_random);
        if (!jitter || ranked_jitter(scored, n, jitter, self->noise) < 0) goto done;
    }
    ranked_sort(scored, n);
    result = PyList_New(n);
    if (!result) goto done;
    for (int j = 0; j < n; j++)
        PyList_SET_ITEM(result, j, Py_NewRef(PyList_GET_ITEM(moves, scored[j].at)));
    goto done;
badpile:
    PyErr_SetString(PyExc_ValueError, "a move names a pile the game lacks");
done:
    if (PyErr_Occurred()) Py_CLEAR(result);
    if (scored != stack) PyMem_Free(scored);
    Py_XDECREF(piles);
    Py_XDECREF(found);
    Py_XDECREF(down);
    Py_XDECREF(jitter);
    return result;
}

static PyMethodDef order_methods[] = {
    {"ordered", (PyCFunction)(void (*)(void))order_ordered, METH_FASTCALL,
     "Knowledge.ordered(game, moves, last, noise), computed in C."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject OrderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.solver._core.Order",
    .tp_basicsize = sizeof(OrderObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Order(table, home_from, safe_if, never_safe, waste_unsafe, noise, next_safe)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)order_init,
    .tp_dealloc = (destructor)order_dealloc,
    .tp_methods = order_methods,
};

/* ------------------------------------------------------------------ Key */

/* games.solver.key's column and whole hashes of the table key, Python's own hashes of the
 * same objects (hash of the column's bytes, hash of the tuple), so a table of proofs filled
 * on one core is read by the other. */

typedef struct {
    PyObject_HEAD
    int face_down, redeals;
} KeyObject;

static int key_init(KeyObject *self, PyObject *args, PyObject *kw) {
    return PyArg_ParseTuple(args, "pp", &self->face_down, &self->redeals) ? 0 : -1;
}

/* column(game, i): hash(bytes((down[i], *piles[i]))) or hash(bytes(piles[i])) */
static PyObject *key_column(KeyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "column(game, i)");
        return NULL;
    }
    Py_ssize_t i = PyLong_AsSsize_t(args[1]);
    if (i == -1 && PyErr_Occurred()) return NULL;
    PyObject *piles = PyObject_GetAttr(args[0], s_piles), *down = NULL, *result = NULL;
    if (!piles) return NULL;
    unsigned char stack[256], *buf = stack;
    if (!PyList_Check(piles) || i < 0 || i >= PyList_GET_SIZE(piles)) {
        PyErr_SetString(PyExc_IndexError, "no such pile");
        goto done;
    }
    PyObject *pile = PyList_GET_ITEM(piles, i);
    if (!PyList_Check(pile)) {
        PyErr_SetString(PyExc_TypeError, "a pile is a list");
        goto done;
    }
    Py_ssize_t n = PyList_GET_SIZE(pile), at = 0;
    if ((size_t)n + 1 > sizeof(stack)) {
        buf = PyMem_Malloc((size_t)n + 1);
        if (!buf) {
            PyErr_NoMemory();
            goto done;
        }
    }
    if (self->face_down) {
        down = PyObject_GetAttr(args[0], s_down);
        if (!down) goto done;
        PyObject *d = PySequence_GetItem(down, i);
        if (!d) goto done;
        long v = PyLong_AsLong(d);
        Py_DECREF(d);
        if (v < 0 || v > 255) goto range;
        buf[at++] = (unsigned char)v;
    }
    for (Py_ssize_t j = 0; j < n; j++) {
        long v = PyLong_AsLong(PyList_GET_ITEM(pile, j));
        if (v < 0 || v > 255) goto range;
        buf[at++] = (unsigned char)v;
    }
    if (core_fault == 3 && at) buf[0] ^= 1;
    result = PyLong_FromSsize_t(HASH_BYTES(buf, at));
    goto done;
range:
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bytes must be in range(0, 256)");
done:
    if (buf != stack) PyMem_Free(buf);
    Py_DECREF(piles);
    Py_XDECREF(down);
    return result;
}

/* whole(game, s): hash(((redeals_left, *stock) or len(stock), tuple(waste), s)) */
static PyObject *key_whole(KeyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "whole(game, s)");
        return NULL;
    }
    PyObject *g = args[0], *piles = NULL, *stock = NULL, *first = NULL, *waste = NULL;
    PyObject *all = NULL, *result = NULL;
    piles = PyObject_GetAttr(g, s_piles);
    stock = piles ? PyObject_GetAttr(g, s_stock) : NULL;
    if (!stock) goto done;
    if (!PyList_Check(piles) || !PyList_GET_SIZE(piles) || !PyList_Check(stock)) {
        PyErr_SetString(PyExc_TypeError, "piles and stock must be lists");
        goto done;
    }
    if (self->redeals) {
        PyObject *left = PyObject_GetAttr(g, s_redeals_left);
        if (!left) goto done;
        Py_ssize_t n = PyList_GET_SIZE(stock);
        first = PyTuple_New(n + 1);
        if (!first) {
            Py_DECREF(left);
            goto done;
        }
        PyTuple_SET_ITEM(first, 0, left);
        for (Py_ssize_t j = 0; j < n; j++)
            PyTuple_SET_ITEM(first, j + 1, Py_NewRef(PyList_GET_ITEM(stock, j)));
    } else {
        first = PyLong_FromSsize_t(PyList_GET_SIZE(stock));
        if (!first) goto done;
    }
    waste = PySequence_Tuple(PyList_GET_ITEM(piles, 0));
    if (!waste) goto done;
    all = PyTuple_Pack(3, first, waste, args[1]);
    if (!all) goto done;
    Py_hash_t h = PyObject_Hash(all);
    if (h == -1 && PyErr_Occurred()) goto done;
    result = PyLong_FromSsize_t(h);
done:
    Py_XDECREF(piles);
    Py_XDECREF(stock);
    Py_XDECREF(first);
    Py_XDECREF(waste);
    Py_XDECREF(all);
    return result;
}

static PyMethodDef key_methods[] = {
    {"column", (PyCFunction)(void (*)(void))key_column, METH_FASTCALL,
     "The hash of column i, as games.solver.key computes it."},
    {"whole", (PyCFunction)(void (*)(void))key_whole, METH_FASTCALL,
     "The table key of a game whose columns' hashes sum to s."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KeyType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "games.solver._core.Key",
    .tp_basicsize = sizeof(KeyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Key(face_down, redeals)",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)key_init,
    .tp_methods = key_methods,
};

/* ------------------------------------------------------------------ module */

static PyObject *set_fault(PyObject *mod, PyObject *arg) {
    long f = PyLong_AsLong(arg);
    if (f == -1 && PyErr_Occurred()) return NULL;
    core_fault = (int)f;
    Py_RETURN_NONE;
}

static PyMethodDef core_methods[] = {
    {"set_fault", set_fault, METH_O,
     "Break the core on purpose (tests only): 0 none, 1 drop a legal move, 2 swap two, "
     "3 hash a column wrong; the search loop alone: 4 draw one card too many, 5 put no "
     "move to sleep, 6 call nothing dead."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_core", "The solver's compiled core (games/solver/core.py).", -1,
    core_methods,
};

PyMODINIT_FUNC PyInit__core(void) {
    if (PyType_Ready(&LegalType) < 0 || PyType_Ready(&OrderType) < 0 || PyType_Ready(&KeyType) < 0
        || PyType_Ready(&SearchType) < 0)
        return NULL;
    s_piles = PyUnicode_InternFromString("piles");
    s_found = PyUnicode_InternFromString("found");
    s_stock = PyUnicode_InternFromString("stock");
    s_redeals_left = PyUnicode_InternFromString("redeals_left");
    s_down = PyUnicode_InternFromString("down");
    s_random = PyUnicode_InternFromString("random");
    if (!s_piles || !s_found || !s_stock || !s_redeals_left || !s_down || !s_random)
        return NULL;
    PyObject *m = PyModule_Create(&core_module);
    if (!m) return NULL;
    Py_INCREF(&LegalType);
    Py_INCREF(&OrderType);
    Py_INCREF(&KeyType);
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Legal", (PyObject *)&LegalType) < 0
        || PyModule_AddObject(m, "Order", (PyObject *)&OrderType) < 0
        || PyModule_AddObject(m, "Key", (PyObject *)&KeyType) < 0
        || PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
