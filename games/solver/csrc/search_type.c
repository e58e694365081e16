/* The compiled search's Python type: construction from the engine's tables, and the
 * methods the tests read (search.h). */

#include "search.h"

/* ------------------------------------------------------------ construction */

/* each card's (foundation, rank) pairs, from a list of 64 sequences of 2-tuples: the
 * move generator (_core.c) reads a negative foundation as none (found_at refuses it), the
 * search refuses one */
HIDDEN int read_pairs(PyObject *homes, int *n, int (*ks)[MAXF], int (*vals)[MAXF],
                      int negative_is_none) {
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
            if (ks[c][j] < 0 && negative_is_none) ks[c][j] = MAXF;
            else if (ks[c][j] < 0 || ks[c][j] >= MAXF) {
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

/* the build table and the cards a space takes, copied out of their buffers (released) */
static int take_tables(SearchObject *s, Py_buffer *table, Py_buffer *space) {
    int bad = table->len != NCARDS * NCARDS || space->len != NCARDS;
    if (!bad) {
        memcpy(s->table, table->buf, NCARDS * NCARDS);
        memcpy(s->to_space, space->buf, NCARDS);
    }
    PyBuffer_Release(table);
    PyBuffer_Release(space);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "bad table sizes");
        return -1;
    }
    return 0;
}

/* the engine's tables of the foundations: which take a card, when a card is safe home,
 * each foundation's suit, each suit's foundations; then each card's targets */
static int read_foundations(SearchObject *s, PyObject *homes, PyObject *safe, PyObject *fsuit,
                            PyObject *suits) {
    if (read_pairs(homes, s->nhomes, s->home_k, s->home_below, 0) < 0) return -1;
    if (read_pairs(safe, s->nsafe, s->safe_k, s->safe_rank, 0) < 0) return -1;
    if (read_ints(fsuit, s->fsuit, MAXF, 4, "foundation suits") != s->nfound) {
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
        s->nsuit[suit] = read_ints(ks, s->suit_k[suit], MAXF, s->nfound, "foundations");
        Py_DECREF(ks);
        if (s->nsuit[suit] < 0) return -1;
    }
    for (int c = 0; c < NCARDS; c++) { /* the cards c may go onto (deadlock.py's targets) */
        s->targets[c] = 0;
        for (int o = 4; o < 4 * (KING + 1); o++)
            if (s->table[(o << 6) | c]) s->targets[c] |= 1ULL << o;
    }
    return 0;
}

/* the lost table and the caller's random.Random (None: no noise), held */
static int take_objects(SearchObject *s, PyObject *lost, PyObject *noise) {
    Py_INCREF(lost);
    Py_XSETREF(s->lost, lost);
    Py_CLEAR(s->jitter);
    if (noise != Py_None) {
        s->jitter = PyObject_GetAttrString(noise, "random");
        if (!s->jitter) return -1;
    }
    Py_INCREF(noise);
    Py_XSETREF(s->noise, noise);
    return 0;
}

/* the walk's arrays and maps, on the first init only (a second init keeps them) */
static int alloc_walk(SearchObject *s) {
    if (s->frames) return 0;
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
    if (take_tables(s, &table, &space) < 0) return -1;
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
    if (read_foundations(s, homes, safe, fsuit, suits) < 0) return -1;
    if (load_state(s, piles, down, found, stock, redeals_left) < 0) return -1;
    if (take_objects(s, lost, noise) < 0) return -1;
    if (alloc_walk(s) < 0) return -1;
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
