/* The walk of the compiled search: its frames, the sleep set, Tarjan's bookkeeping, the
 * loop and run() (search.py Search._loop, _entering, _leaving; search.h). */

#include "search.h"
#include <time.h>

/* the process's monotonic clock, for handing the GIL over (the caller's clock may count
 * CPU time, which a thread that waits for the GIL does not advance) */
static double monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* how long the loop holds the GIL between hand-overs: twice the interpreter's switch
 * interval. A thread that wants the GIL asks for it only after waiting one whole interval
 * without being woken, and each release wakes it, so releasing more often than that
 * starves it: it wakes, loses the race for the lock, and starts its wait again. */
static double yield_gap(void) {
    double gap = 0.01;
    PyObject *sys_interval = PySys_GetObject("getswitchinterval"); /* borrowed */
    if (sys_interval) {
        PyObject *r = PyObject_CallNoArgs(sys_interval);
        if (r) {
            double v = PyFloat_AsDouble(r);
            if (v > 0) gap = 2 * v;
            Py_DECREF(r);
        }
        PyErr_Clear();
    }
    return gap;
}

/* ------------------------------------------------------------ the walk */

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
void restore(SearchObject *s) {
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

/* Search._loop: 0 lost, 1 a win (*out), BUDGET, ERROR.
 *
 * One function, past the brief's length, on purpose: it is the hot path, run once a node
 * (millions a second). A node's move, its undo detail, the running sum of column hashes,
 * the columns it touched and their old hashes live in registers from the apply to the
 * revert; split into steps they would be passed and written back through pointers at
 * every node, and each early exit (the clock, a signal, a win, an error) must take the
 * move back before it breaks, which a helper could only signal back here anyway. */
static int loop(SearchObject *s, __int128 total, long long max_nodes, double deadline,
                PyObject *clock, PyObject **out) {
    long long nodes = 0;
    int rc = 0;
    double gap = yield_gap();
    double yield_at = monotonic() + gap;
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
            if (!(nodes % YIELD_EVERY) && monotonic() >= yield_at) {
                /* let the process's other threads run (a server's event loop, a pool's
                 * watcher) as the Python loop's switch interval did, and take a pending
                 * signal (Ctrl-C) as an error */
                Py_BEGIN_ALLOW_THREADS
                Py_END_ALLOW_THREADS
                yield_at = monotonic() + gap;
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
PyObject *search_run(SearchObject *s, PyObject *args) {
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
