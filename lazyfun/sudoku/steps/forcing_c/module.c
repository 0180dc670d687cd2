/* The Python glue of lazyfun.sudoku.steps._forcing, the top layer: the grid read and
 * checked from Python's sequences, each search run without the GIL, its answer built as
 * Python's tuples; the module's functions and constants (state.h says what each unit
 * does). */
#include "state.h"
#include "rules.h"
#include "nested.h"
#include "search.h"

/* Reads a sequence of ints into out (at most room); the count, or -1 with an error set. */
static int
read_ints(PyObject *sequence, int *out, int room, const char *what)
{
    PyObject *fast = PySequence_Fast(sequence, what);
    if (!fast) {
        return -1;
    }
    Py_ssize_t size = PySequence_Fast_GET_SIZE(fast);
    if (size > room) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: more than %d", what, room);
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long value = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (value == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)value;
    }
    Py_DECREF(fast);
    return (int)size;
}

/* Each cell's units in Sudoku Explainer's order, into s; 0, or -1 with an error set. */
static int
read_houses(Search *s, PyObject *houses)
{
    PyObject *fast = PySequence_Fast(houses, "houses");
    if (!fast) {
        return -1;
    }
    if (PySequence_Fast_GET_SIZE(fast) != s->cells) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "houses: one list of units a cell");
        return -1;
    }
    for (int c = 0; c < s->cells; c++) {
        int got = read_ints(PySequence_Fast_GET_ITEM(fast, c), s->houses[c], MAX_HOUSES,
                            "a cell's houses");
        if (got < 0) {
            Py_DECREF(fast);
            return -1;
        }
        for (int i = 0; i < got; i++) {
            if (s->houses[c][i] < 0 || s->houses[c][i] >= s->unit_count) {
                Py_DECREF(fast);
                PyErr_Format(PyExc_ValueError, "cell %d's houses name a unit that is not", c);
                return -1;
            }
        }
        s->house_count[c] = got;
    }
    Py_DECREF(fast);
    return 0;
}

/* The grid's candidates and units, and (unless houses is NULL) each cell's houses. */
static int
read_search(Search *s, PyObject *cands, PyObject *units, PyObject *houses)
{
    int values[MAX_CELLS];
    s->cells = read_ints(cands, values, MAX_CELLS, "cands");
    if (s->cells < 0) {
        return -1;
    }
    for (int c = 0; c < s->cells; c++) {
        if (values[c] < 0 || values[c] >= 1 << s->n) {
            PyErr_Format(PyExc_ValueError, "cell %d: candidates %d are not of %d values",
                         c, values[c], s->n);
            return -1;
        }
        s->cands[c] = (unsigned)values[c];
    }
    s->nodes = 2 * s->cells * s->n;
    PyObject *fast = PySequence_Fast(units, "units");
    if (!fast) {
        return -1;
    }
    s->unit_count = (int)PySequence_Fast_GET_SIZE(fast);
    s->unit_start = PyMem_Calloc((size_t)s->unit_count + 1, sizeof(int));
    s->unit_len = PyMem_Calloc((size_t)s->unit_count + 1, sizeof(int));
    s->unit_cells = PyMem_Calloc((size_t)s->unit_count * MAX_CELLS + 1, sizeof(int));
    if (!s->unit_start || !s->unit_len || !s->unit_cells) {
        Py_DECREF(fast);
        PyErr_NoMemory();
        return -1;
    }
    for (int u = 0; u < s->unit_count; u++) {
        s->unit_start[u] = u * MAX_CELLS;
        int got = read_ints(PySequence_Fast_GET_ITEM(fast, u), s->unit_cells + u * MAX_CELLS,
                            MAX_CELLS, "a unit");
        if (got < 0) {
            Py_DECREF(fast);
            return -1;
        }
        for (int i = 0; i < got; i++) {
            if (s->unit_cells[u * MAX_CELLS + i] < 0
                || s->unit_cells[u * MAX_CELLS + i] >= s->cells) {
                Py_DECREF(fast);
                PyErr_Format(PyExc_ValueError, "unit %d names a cell off the grid", u);
                return -1;
            }
        }
        s->unit_len[u] = got;
    }
    Py_DECREF(fast);
    return houses ? read_houses(s, houses) : 0;
}

static void
free_search(Search *s)
{
    free_nested(s);
    if (s->followed) {
        for (int i = 0; i < s->nodes; i++) {
            free_branch(s->followed[i]);
        }
        PyMem_Free(s->followed);
    }
    PyMem_Free(s->unit_start);
    PyMem_Free(s->unit_len);
    PyMem_Free(s->unit_cells);
    PyMem_Free(s);
}

/* A search of n values over the grid given, read (the followed branches not yet
 * allocated); NULL with an error set. */
static Search *
new_search(int n, PyObject *cands, PyObject *units, PyObject *houses)
{
    if (n < 1 || n > MAX_N) {
        PyErr_Format(PyExc_ValueError, "n = %d: the engine takes 1 to %d values", n, MAX_N);
        return NULL;
    }
    Search *s = PyMem_Calloc(1, sizeof(Search));
    if (!s) {
        PyErr_NoMemory();
        return NULL;
    }
    s->n = n;
    if (read_search(s, cands, units, houses) < 0) {
        free_search(s);
        return NULL;
    }
    return s;
}

/* The placed values, which turn on the inner rules (+): the grid must be the classic
 * one's rows, columns and boxes of n cells; 0, or -1 with an error set. */
static int
read_plus(Search *s, PyObject *values)
{
    int n = s->n, got = read_ints(values, s->values, MAX_CELLS, "values");
    if (got < 0) {
        return -1;
    }
    if (got != s->cells || s->unit_count < 3 * n || !s->dynamic) {
        PyErr_SetString(PyExc_ValueError,
                        "values (+): one a cell, a dynamic search, rows, columns and boxes");
        return -1;
    }
    for (int u = 0; u < 3 * n; u++) {
        if (s->unit_len[u] != n) {
            PyErr_Format(PyExc_ValueError, "unit %d: (+) reads units of %d cells", u, n);
            return -1;
        }
        for (int i = 0; i < n; i++) {
            int c = s->unit_cells[s->unit_start[u] + i];
            s->unit_mask[u][c >> 6] |= (uint64_t)1 << (c & 63);
        }
    }
    for (int c = 0; c < s->cells; c++) {
        if (s->values[c] < 0 || s->values[c] > n) {
            PyErr_Format(PyExc_ValueError, "cell %d: value %d is not of %d", c, s->values[c], n);
            return -1;
        }
    }
    s->plus = 1;
    return 0;
}

static PyObject *
search(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"cands", "n", "units", "houses", "base", "dynamic", "y", "kinds",
                            "values", "level", NULL};
    PyObject *cands, *units, *houses, *values = Py_None;
    int n, dynamic, y, kinds, level = 1;
    double base;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiOOdppi|Oi:search", names, &cands, &n,
                                     &units, &houses, &base, &dynamic, &y, &kinds, &values,
                                     &level)) {
        return NULL;
    }
    if (level < 1 || level > 3 || (level > 1 && values == Py_None)) {
        PyErr_Format(PyExc_ValueError,
                     "level %d: 1 (+), 2 (+ forcing chains) or 3 (+ multiple forcing chains), "
                     "the last two with values",
                     level);
        return NULL;
    }
    Search *s = new_search(n, cands, units, houses);
    if (!s) {
        return NULL;
    }
    s->base = base;
    s->dynamic = dynamic;
    s->y = y;
    s->kinds = kinds;
    s->level = level;
    if (values != Py_None && read_plus(s, values) < 0) {
        free_search(s);
        return NULL;
    }
    if (level > 1 && s->unit_count != 3 * n) {
        PyErr_Format(PyExc_ValueError, "level %d reads the classic grid's %d units, not %d",
                     level, 3 * n, s->unit_count);
        free_search(s);
        return NULL;
    }
    s->followed = PyMem_Calloc((size_t)s->nodes + 1, sizeof(Branch *));
    if (!s->followed) {
        free_search(s);
        return PyErr_NoMemory();
    }
    int least = dynamic ? 2 : 3, failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int cell = 0; cell < s->cells && !failed; cell++) {
        if (popcount(s->cands[cell]) >= least) {
            failed = search_cell(s, cell) < 0;
        }
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        free_search(s);
        return PyErr_NoMemory();
    }
    PyObject *out = s->have ? Py_BuildValue("(iii)", s->kind, s->complexity, s->node)
                            : Py_NewRef(Py_None);
    free_search(s);
    return out;
}

static PyObject *
chains(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"cands", "n", "units", "houses", NULL};
    PyObject *cands, *units, *houses;
    int n;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiOO:chains", names, &cands, &n, &units,
                                     &houses)) {
        return NULL;
    }
    Search *s = new_search(n, cands, units, houses);
    if (!s) {
        return NULL;
    }
    Chains *g = PyMem_Calloc(1, sizeof(Chains));
    if (!g) {
        free_search(s);
        return PyErr_NoMemory();
    }
    g->n = n;
    g->cells = s->cells;
    g->nodes = s->nodes;
    memcpy(g->cands, s->cands, sizeof g->cands);
    int failed = chain_links(g, s) < 0;
    free_search(s);
    if (failed) {
        PyMem_Free(g);
        PyErr_SetString(PyExc_ValueError, "a candidate has more links than the engine holds");
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    failed = chain_search(g) < 0;
    Py_END_ALLOW_THREADS
    if (failed) {
        free_chains(g);
        return PyErr_NoMemory();
    }
    PyObject *out = Py_None;
    if (g->have) {
        PyObject *nodes = PyTuple_New(g->length);
        for (int i = 0; nodes && i < g->length; i++) {
            PyObject *node = PyLong_FromLong(g->best[i]);
            if (!node) {
                Py_CLEAR(nodes);
                break;
            }
            PyTuple_SET_ITEM(nodes, i, node);
        }
        out = nodes ? Py_BuildValue("(iN)", g->kind, nodes) : NULL;
    }
    else {
        Py_INCREF(out);
    }
    free_chains(g);
    return out;
}

/* Each cell's peers (the cells sharing a unit with it, itself left out), into peers. */
static void
read_peers(const Search *s, Cells *peers)
{
    for (int u = 0; u < s->unit_count; u++) {
        Cells unit = {{0, 0}};
        for (int i = 0; i < s->unit_len[u]; i++) {
            put_cell(&unit, s->unit_cells[s->unit_start[u] + i]);
        }
        for (int i = 0; i < s->unit_len[u]; i++) {
            Cells *p = &peers[s->unit_cells[s->unit_start[u] + i]];
            p->w[0] |= unit.w[0];
            p->w[1] |= unit.w[1];
        }
    }
    for (int c = 0; c < s->cells; c++) {
        peers[c].w[c >> 6] &= ~((uint64_t)1 << (c & 63));
    }
}

static PyObject *
wing_out(const Wings *g, int key)
{
    if (!g->have[key]) {
        return Py_NewRef(Py_None);
    }
    const Wing *w = &g->best[key];
    PyObject *cells = PyTuple_New(w->size), *gone = PyTuple_New(w->gone_count);
    for (int i = 0; cells && gone && i < w->size; i++) {
        PyTuple_SET_ITEM(cells, i, PyLong_FromLong(w->cells[i]));
    }
    for (int i = 0; cells && gone && i < w->gone_count; i++) {
        PyTuple_SET_ITEM(gone, i,
                         Py_BuildValue("(ii)", w->gone[i] / g->n, w->gone[i] % g->n + 1));
    }
    if (!cells || !gone || PyErr_Occurred()) {
        Py_XDECREF(cells);
        Py_XDECREF(gone);
        return NULL;
    }
    return Py_BuildValue("(iNN)", w->tenths, cells, gone);
}

static PyObject *
wings(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"cands", "n", "units", "size", NULL};
    PyObject *cands, *units;
    int n, size;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiOi:wings", names, &cands, &n, &units,
                                     &size)) {
        return NULL;
    }
    if (size < 3 || size > MAX_WING) {
        PyErr_Format(PyExc_ValueError, "size = %d: the wings' sets are of 3 to %d cells", size,
                     MAX_WING);
        return NULL;
    }
    Search *s = new_search(n, cands, units, NULL);
    if (!s) {
        return NULL;
    }
    Wings *g = PyMem_Calloc(1, sizeof(Wings));
    if (!g) {
        free_search(s);
        return PyErr_NoMemory();
    }
    g->n = n;
    g->cells = s->cells;
    g->size = size;
    memcpy(g->cands, s->cands, sizeof g->cands);
    read_peers(s, g->peers);
    int failed;
    Py_BEGIN_ALLOW_THREADS
    failed = find_wings(g, s) < 0;
    Py_END_ALLOW_THREADS
    free_search(s);
    PyObject *out = NULL;
    if (failed) {
        PyErr_NoMemory();
    }
    else {
        PyObject *any = wing_out(g, ANY), *other = any ? wing_out(g, NOT_THREE) : NULL;
        PyObject *three = other ? wing_out(g, THREE) : NULL;
        out = three ? Py_BuildValue("(NNN)", any, other, three) : NULL;
        if (!three) {
            Py_XDECREF(any);
            Py_XDECREF(other);
        }
    }
    PyMem_RawFree(g->found);
    PyMem_Free(g);
    return out;
}

static PyObject *
aligned(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"cands", "n", "units", "size", NULL};
    PyObject *cands, *units;
    int n, size;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiOi:aligned", names, &cands, &n, &units,
                                     &size)) {
        return NULL;
    }
    if (size < 2 || size > 3) {
        PyErr_Format(PyExc_ValueError, "size = %d: aligned exclusion takes 2 or 3 cells", size);
        return NULL;
    }
    Search *s = new_search(n, cands, units, NULL);
    if (!s) {
        return NULL;
    }
    Aligned *a = PyMem_Calloc(1, sizeof(Aligned));
    if (!a) {
        free_search(s);
        return PyErr_NoMemory();
    }
    a->n = n;
    a->cells = s->cells;
    memcpy(a->cands, s->cands, sizeof a->cands);
    read_peers(s, a->peers);
    free_search(s);
    int found;
    Py_BEGIN_ALLOW_THREADS
    found = aligned_search(a, size);
    Py_END_ALLOW_THREADS
    if (!found) {
        PyMem_Free(a);
        return Py_NewRef(Py_None);
    }
    PyObject *cells = PyTuple_New(a->size + a->excluder_count), *gone = PyList_New(0);
    for (int i = 0; cells && i < a->size + a->excluder_count; i++) {
        int c = i < a->size ? a->base[i] : a->excluders[i - a->size];
        PyTuple_SET_ITEM(cells, i, PyLong_FromLong(c));
    }
    for (int i = 0; gone && i < a->size; i++) {
        for (int v = 1; v <= n; v++) {
            if (a->gone[i] >> (v - 1) & 1) {
                PyObject *pair = Py_BuildValue("(ii)", a->base[i], v);
                if (!pair || PyList_Append(gone, pair) < 0) {
                    Py_XDECREF(pair);
                    Py_CLEAR(gone);
                    break;
                }
                Py_DECREF(pair);
            }
        }
    }
    PyObject *out = cells && gone ? Py_BuildValue("(OO)", cells, gone) : NULL;
    Py_XDECREF(cells);
    Py_XDECREF(gone);
    PyMem_Free(a);
    return out;
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))search, METH_VARARGS | METH_KEYWORDS,
     "search(cands, n, units, houses, base, dynamic, y, kinds) -> (kind, complexity, node) "
     "or None: the easiest forcing chain of the kinds asked for."},
    {"chains", (PyCFunction)(void (*)(void))chains, METH_VARARGS | METH_KEYWORDS,
     "chains(cands, n, units, houses) -> (kind, nodes) or None: the easiest cycle or "
     "forcing chain of Sudoku Explainer's first chaining rule."},
    {"wings", (PyCFunction)(void (*)(void))wings, METH_VARARGS | METH_KEYWORDS,
     "wings(cands, n, units, size) -> (any, not three, three): Sudoku Explainer's first wing "
     "of size + 1 cells, and the first whose biggest cell holds other than / three values; "
     "each (tenths, cells, eliminations) or None."},
    {"aligned", (PyCFunction)(void (*)(void))aligned, METH_VARARGS | METH_KEYWORDS,
     "aligned(cands, n, units, size) -> (cells, eliminations) or None: Sudoku Explainer's "
     "first aligned exclusion of size (2 or 3) cells; cells: the bases, then the excluders."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_forcing",
    "Sudoku Explainer's forcing chains from many starts in C (see forcing.py).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC
PyInit__forcing(void)
{
    PyObject *m = PyModule_Create(&module);
    if (!m) {
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "CONTRADICTION", CONTRADICTION) < 0
        || PyModule_AddIntConstant(m, "DOUBLE", DOUBLE) < 0
        || PyModule_AddIntConstant(m, "CELL", CELL) < 0
        || PyModule_AddIntConstant(m, "REGION", REGION) < 0
        || PyModule_AddIntConstant(m, "NISHIO", NISHIO) < 0
        || PyModule_AddIntConstant(m, "MAX_N", MAX_N) < 0
        || PyModule_AddIntConstant(m, "MAX_HOUSES", MAX_HOUSES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
