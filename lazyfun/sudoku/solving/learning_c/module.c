/* The Python type around the engine: lazyfun.sudoku.solving._learning.Learner.  What
 * comes from Python is checked here, so the engine can assume it; the engine
 * runs with the GIL released. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "learner.h"
#include "unique9.h"

typedef struct {
    PyObject_HEAD Learner *engine;
    int busy; /* run() is under way (the GIL is released while it searches) */
} LearnerObject;

static void Learner_dealloc(LearnerObject *self)
{
    learner_free(self->engine);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The ints of a sequence, each checked to lie in [low, high]; NULL with an exception set. */
static int *read_ints(PyObject *arg, Py_ssize_t count, long low, long high, const char *what)
{
    PyObject *seq = PySequence_Fast(arg, what);
    if (!seq)
        return NULL;
    if (PySequence_Fast_GET_SIZE(seq) != count) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values, got %zd", what, count,
                     PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return NULL;
    }
    int *out = PyMem_Malloc((size_t)(count ? count : 1) * sizeof(int));
    if (!out) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred())
            goto fail;
        if (v < low || v > high) {
            PyErr_Format(PyExc_ValueError, "%s: item %zd is %ld, outside %ld..%ld", what, i, v,
                         low, high);
            goto fail;
        }
        out[i] = (int)v;
    }
    Py_DECREF(seq);
    return out;
fail:
    Py_DECREF(seq);
    PyMem_Free(out);
    return NULL;
}

/* Each cell once in each kind of unit (rows, columns, boxes): what the engine assumes. */
static int check_units(const int *unit_cells, int n)
{
    int cells = n * n;
    char *seen = PyMem_Calloc((size_t)3 * cells, 1);
    if (!seen) {
        PyErr_NoMemory();
        return -1;
    }
    for (int u = 0; u < 3 * n; u++)
        for (int i = 0; i < n; i++) {
            int c = unit_cells[u * n + i], kind = u / n;
            if (seen[kind * cells + c]++) {
                PyErr_Format(PyExc_ValueError,
                             "units: cell %d is twice in the %s", c,
                             kind == 0 ? "rows" : kind == 1 ? "columns" : "boxes");
                PyMem_Free(seen);
                return -1;
            }
        }
    PyMem_Free(seen);
    return 0;
}

/* The setup's arrays, read from Python; 0, or -1 with an exception set. */
static int read_setup(LearnerSetup *setup, PyObject *cells, PyObject *units, PyObject *peers,
                      PyObject *ruled)
{
    int n = setup->box * setup->box, ncells = n * n;
    setup->npeers = 3 * (n - 1) - 2 * (setup->box - 1);
    setup->givens = read_ints(cells, ncells, 0, n, "cells (0 blank, else 1..n)");
    setup->unit_cells = setup->givens ? read_ints(units, 3 * n * n, 0, ncells - 1, "units") : NULL;
    setup->peers =
        setup->unit_cells
            ? read_ints(peers, (Py_ssize_t)ncells * setup->npeers, 0, ncells - 1, "peers")
            : NULL;
    if (!setup->peers || check_units(setup->unit_cells, n) < 0)
        return -1;
    if (!ruled || ruled == Py_None)
        return 0;
    PyObject *seq = PySequence_Fast(ruled, "ruled_out must be a sequence of (cell, value) pairs");
    if (!seq)
        return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    int *pairs = PyMem_Malloc((size_t)(2 * k + 1) * sizeof(int));
    if (!pairs) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    setup->ruled_out = pairs;
    for (Py_ssize_t i = 0; i < k; i++) {
        int c, v;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "ii", &c, &v)) {
            Py_DECREF(seq);
            return -1;
        }
        if (c < 0 || c >= ncells || v < 1 || v > n) {
            PyErr_Format(PyExc_ValueError,
                         "ruled_out (%d, %d): cells are 0 to %d and values 1 to %d", c, v,
                         ncells - 1, n);
            Py_DECREF(seq);
            return -1;
        }
        pairs[2 * i] = c;
        pairs[2 * i + 1] = v;
        setup->nruled++;
    }
    Py_DECREF(seq);
    return 0;
}

static void free_setup(LearnerSetup *setup)
{
    PyMem_Free((void *)setup->givens);
    PyMem_Free((void *)setup->unit_cells);
    PyMem_Free((void *)setup->peers);
    PyMem_Free((void *)setup->ruled_out);
}

static int Learner_init(LearnerObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"box",          "cells", "units", "peers",
                             "restart_base", "seed",  "ruled_out", NULL};
    PyObject *cells, *units, *peers, *ruled = NULL;
    LearnerSetup setup = {.restart_base = 100};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOO|LKO", kwlist, &setup.box, &cells, &units,
                                     &peers, &setup.restart_base, &setup.seed, &ruled))
        return -1;
    if (self->engine) {
        PyErr_SetString(PyExc_RuntimeError, "Learner is already initialised");
        return -1;
    }
    if (setup.box < 2 || setup.box > 5) {
        PyErr_Format(PyExc_ValueError, "box must be 2..5, not %d", setup.box);
        return -1;
    }
    if (setup.restart_base < 1) {
        PyErr_SetString(PyExc_ValueError, "restart_base must be at least 1");
        return -1;
    }
    if (read_setup(&setup, cells, units, peers, ruled) < 0) {
        free_setup(&setup);
        return -1;
    }
    self->engine = learner_new(&setup);
    free_setup(&setup);
    if (!self->engine) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *Learner_run(LearnerObject *self, PyObject *args)
{
    long long budget = -1;
    learn_status r;
    if (!PyArg_ParseTuple(args, "|L", &budget))
        return NULL;
    if (!self->engine) {
        PyErr_SetString(PyExc_RuntimeError, "Learner is not initialised");
        return NULL;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "Learner.run() is already running in another thread");
        return NULL;
    }
    self->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    r = learner_run(self->engine, budget);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    if (r == LEARN_NOMEM)
        return PyErr_NoMemory();
    return PyLong_FromLong(r);
}

static PyObject *Learner_solution(LearnerObject *self, PyObject *Py_UNUSED(ignored))
{
    const Learner *s = self->engine;
    if (!s || s->phase != PHASE_FOUND) {
        PyErr_SetString(PyExc_RuntimeError, "no solution: run() has not just returned 1");
        return NULL;
    }
    PyObject *t = PyTuple_New(s->cells);
    if (!t)
        return NULL;
    for (int c = 0; c < s->cells; c++) {
        PyObject *v = PyLong_FromLong(s->solution[c]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, c, v);
    }
    return t;
}

static PyObject *Learner_stats(LearnerObject *self, PyObject *Py_UNUSED(ignored))
{
    const Learner *s = self->engine;
    if (!s) {
        PyErr_SetString(PyExc_RuntimeError, "Learner is not initialised");
        return NULL;
    }
    return Py_BuildValue("{s:L,s:L,s:L,s:L,s:n,s:L}", "conflicts", s->conflicts, "decisions",
                         s->decisions, "propagations", s->propagations, "restarts", s->restarts,
                         "learnts", (Py_ssize_t)s->learnts.n, "learnt_literals", s->learnt_lits);
}

static PyMethodDef Learner_methods[] = {
    {"run", (PyCFunction)(void (*)(void))Learner_run, METH_VARARGS,
     "run(budget=-1) -> 1 (a solution: see solution()), 0 (no solution left) or -1 (budget of "
     "conflicts spent; call again to go on)."},
    {"solution", (PyCFunction)(void (*)(void))Learner_solution, METH_NOARGS,
     "The solution run() just found: the cells in reading order, values from 1."},
    {"stats", (PyCFunction)(void (*)(void))Learner_stats, METH_NOARGS,
     "Counters so far: conflicts, decisions, propagations, restarts, learnts."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject LearnerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "lazyfun.sudoku.solving._learning.Learner",
    .tp_basicsize = sizeof(LearnerObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Learner(box, cells, units, peers, restart_base=100, seed=0, ruled_out=None):"
              " clause learning over one Sudoku puzzle.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Learner_init,
    .tp_dealloc = (destructor)Learner_dealloc,
    .tp_methods = Learner_methods,
};

/* 81 small ints as a tuple (PyLong_FromLong of 0..9 never fails: they are cached). */
static PyObject *grid_tuple(const uint8_t cells[U9_CELLS])
{
    PyObject *t = PyTuple_New(U9_CELLS);
    for (int c = 0; t && c < U9_CELLS; c++)
        PyTuple_SET_ITEM(t, c, PyLong_FromLong(cells[c]));
    return t;
}

/* The orbits, flat, with where each starts (one more entry: the end); each cell 0..80 at
 * most once.  0, or -1 with an exception set. */
static int read_orbits(PyObject *arg, int **cells, int **starts, int *count)
{
    PyObject *seq = PySequence_Fast(arg, "orbits must be a sequence of sequences of cells");
    if (!seq)
        return -1;
    Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
    char seen[U9_CELLS] = {0};
    *cells = PyMem_Malloc(U9_CELLS * sizeof(int));
    *starts = PyMem_Malloc((size_t)(k + 1) * sizeof(int));
    if (!*cells || !*starts) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    int at = 0;
    for (Py_ssize_t i = 0; i < k; i++) {
        PyObject *orbit = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, i),
                                          "each orbit must be a sequence of cells");
        if (!orbit) {
            Py_DECREF(seq);
            return -1;
        }
        (*starts)[i] = at;
        for (Py_ssize_t j = 0; j < PySequence_Fast_GET_SIZE(orbit); j++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(orbit, j));
            if (c == -1 && PyErr_Occurred())
                goto fail;
            if (c < 0 || c >= U9_CELLS || seen[c]) {
                PyErr_Format(PyExc_ValueError,
                             "orbits: cell %ld is outside 0..80 or in two orbits", c);
                goto fail;
            }
            seen[c] = 1;
            (*cells)[at++] = (int)c;
        }
        Py_DECREF(orbit);
        continue;
    fail:
        Py_DECREF(orbit);
        Py_DECREF(seq);
        return -1;
    }
    (*starts)[k] = at;
    *count = (int)k;
    Py_DECREF(seq);
    return 0;
}

static PyObject *minimise_9x9(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"solution", "orbits", "minimal", NULL};
    PyObject *grid, *orbits, *result = NULL;
    int minimal = 1, count = 0, *cells = NULL, *starts = NULL;
    uint8_t solution[U9_CELLS], out[U9_CELLS];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OO|p", kwlist, &grid, &orbits, &minimal))
        return NULL;
    int *values = read_ints(grid, U9_CELLS, 1, 9, "solution (81 values 1..9)");
    if (!values)
        return NULL;
    for (int c = 0; c < U9_CELLS; c++)
        solution[c] = (uint8_t)values[c];
    PyMem_Free(values);
    if (!valid9(solution)) {
        PyErr_SetString(PyExc_ValueError, "solution: not a valid 9x9 grid");
        return NULL;
    }
    if (read_orbits(orbits, &cells, &starts, &count) == 0) {
        Py_BEGIN_ALLOW_THREADS
        minimise9(solution, cells, starts, count, minimal, out);
        Py_END_ALLOW_THREADS
        result = grid_tuple(out);
    }
    PyMem_Free(cells);
    PyMem_Free(starts);
    return result;
}

static PyObject *complete_9x9(PyObject *Py_UNUSED(module), PyObject *arg)
{
    uint8_t cells[U9_CELLS], out[U9_CELLS];
    int *values = read_ints(arg, U9_CELLS, 0, 9, "cells (81 values, 0 blank, else 1..9)");
    if (!values)
        return NULL;
    for (int c = 0; c < U9_CELLS; c++)
        cells[c] = (uint8_t)values[c];
    PyMem_Free(values);
    if (!consistent9(cells)) {
        PyErr_SetString(PyExc_ValueError, "cells: two givens share a unit and a value");
        return NULL;
    }
    if (!complete9(cells, out))
        Py_RETURN_NONE;
    return grid_tuple(out);
}

static PyMethodDef module_methods[] = {
    {"complete_9x9", (PyCFunction)(void (*)(void))complete_9x9, METH_O,
     "complete_9x9(cells) -> the first solution the depth-first engine finds for the 9x9 "
     "puzzle, or None when its search would meet a failure on the way (then ask the engine)."},
    {"minimise_9x9", (PyCFunction)(void (*)(void))minimise_9x9, METH_VARARGS | METH_KEYWORDS,
     "minimise_9x9(solution, orbits, minimal=True) -> the puzzle: the full 9x9 grid's cells "
     "blanked orbit by orbit, in the order given, each blank kept if the puzzle stays unique "
     "(without minimal, stopping at the first orbit that has to stay)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef learning_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "lazyfun.sudoku.solving._learning",
    .m_doc = "The learning engine for large Sudoku boards (see lazyfun.sudoku.solving.learning).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__learning(void)
{
    if (PyType_Ready(&LearnerType) < 0)
        return NULL;
    unique9_init();
    PyObject *m = PyModule_Create(&learning_module);
    if (!m)
        return NULL;
    Py_INCREF(&LearnerType);
    if (PyModule_AddObject(m, "Learner", (PyObject *)&LearnerType) < 0) {
        Py_DECREF(&LearnerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
