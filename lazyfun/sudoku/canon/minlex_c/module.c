/* The Python face of the minlex engine: lazyfun.sudoku.canon._minlex.  What comes from
 * Python is checked here, so the search can assume it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "minlex.h"

/* The most states one row of the search may keep before it hands the grid back (None):
 * 2^20 states are 32 MB; no 17-clue puzzle nor full grid comes near. */
#define BOUND ((size_t)1 << 20)

static PyObject *Conflict; /* two givens share a unit: the caller names them */

/* The canonical form of `cells` into `out`: 1 found, 0 too big for the bound, -1 with an
 * exception set. */
static int canonical(const uint8_t *cells, uint8_t *out, size_t bound)
{
    Canon canon;
    int status = minlex_begin(&canon, cells, bound);
    if (status == MINLEX_OK)
        status = minlex_run(&canon, out);
    minlex_end(&canon);
    if (status == MINLEX_CONFLICT) {
        PyErr_SetString(Conflict, "givens conflict: two givens share a unit and a value");
        return -1;
    }
    if (status == MINLEX_NO_MEMORY) {
        PyErr_NoMemory();
        return -1;
    }
    return status == MINLEX_OK;
}

/* The 81 values of the sequence `arg` into `cells`; -1 with an exception set. */
static int read_cells(PyObject *arg, uint8_t *cells)
{
    PyObject *seq = PySequence_Fast(arg, "cells: expected a sequence of 81 ints");
    if (!seq)
        return -1;
    int status = 0;
    if (PySequence_Fast_GET_SIZE(seq) != 81) {
        PyErr_Format(PyExc_ValueError, "cells: expected 81 values, got %zd",
                     PySequence_Fast_GET_SIZE(seq));
        status = -1;
    }
    for (Py_ssize_t i = 0; status == 0 && i < 81; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (v == -1 && PyErr_Occurred())
            status = -1;
        else if (v < 0 || v > 9) {
            PyErr_Format(PyExc_ValueError, "cells: item %zd is %ld, outside 0..9", i, v);
            status = -1;
        } else
            cells[i] = (uint8_t)v;
    }
    Py_DECREF(seq);
    return status;
}

static PyObject *minlex(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *arg;
    Py_ssize_t bound = (Py_ssize_t)BOUND;
    if (!PyArg_ParseTuple(args, "O|n:minlex", &arg, &bound))
        return NULL;
    if (bound < 1) {
        PyErr_Format(PyExc_ValueError, "bound: expected at least 1 state, got %zd", bound);
        return NULL;
    }
    uint8_t cells[81], out[81];
    if (read_cells(arg, cells) < 0)
        return NULL;
    int found = canonical(cells, out, (size_t)bound);
    if (found < 0)
        return NULL;
    if (!found)
        Py_RETURN_NONE;
    PyObject *tuple = PyTuple_New(81);
    if (!tuple)
        return NULL;
    for (int i = 0; i < 81; i++)
        PyTuple_SET_ITEM(tuple, i, PyLong_FromLong(out[i]));
    return tuple;
}

/* One line of 81 characters into `cells` ('0' or '.' blank); -1 with an exception set. */
static int read_line(PyObject *line, Py_ssize_t at, uint8_t *cells)
{
    if (!PyUnicode_Check(line)) {
        PyErr_Format(PyExc_TypeError, "line %zd: expected a str", at + 1);
        return -1;
    }
    Py_ssize_t size = PyUnicode_GET_LENGTH(line);
    int kind = PyUnicode_KIND(line);
    const void *text = PyUnicode_DATA(line);
    while (size > 0 && (PyUnicode_READ(kind, text, size - 1) == '\n' ||
                        PyUnicode_READ(kind, text, size - 1) == '\r'))
        size--;
    if (size != 81) {
        PyErr_Format(PyExc_ValueError, "line %zd: expected 81 characters, got %zd", at + 1,
                     size);
        return -1;
    }
    for (int i = 0; i < 81; i++) {
        Py_UCS4 ch = PyUnicode_READ(kind, text, i);
        if (ch != '.' && (ch < '0' || ch > '9')) {
            PyErr_Format(PyExc_ValueError, "line %zd, column %d: '%c' is not a digit or '.'",
                         at + 1, i + 1, (int)ch);
            return -1;
        }
        cells[i] = ch == '.' ? 0 : (uint8_t)(ch - '0');
    }
    return 0;
}

static PyObject *minlex_lines(PyObject *self, PyObject *arg)
{
    (void)self;
    PyObject *seq = PySequence_Fast(arg, "lines: expected a sequence of str");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *forms = PyList_New(n);
    for (Py_ssize_t i = 0; forms && i < n; i++) {
        uint8_t cells[81], out[81];
        char text[81];
        int found = read_line(PySequence_Fast_GET_ITEM(seq, i), i, cells);
        if (found == 0)
            found = canonical(cells, out, BOUND);
        if (found < 0) {
            if (PyErr_ExceptionMatches(Conflict))
                PyErr_Format(Conflict, "line %zd: givens conflict", i + 1);
            Py_CLEAR(forms);
            break;
        }
        PyObject *form = Py_None;
        Py_INCREF(form);
        if (found) {
            for (int j = 0; j < 81; j++)
                text[j] = (char)('0' + out[j]);
            Py_DECREF(form);
            form = PyUnicode_FromStringAndSize(text, 81);
            if (!form) {
                Py_CLEAR(forms);
                break;
            }
        }
        PyList_SET_ITEM(forms, i, form);
    }
    Py_DECREF(seq);
    return forms;
}

static PyMethodDef methods[] = {
    {"minlex", minlex, METH_VARARGS,
     "minlex(cells, bound=1048576, /) -> tuple | None\n--\n\nThe minlex form of 81 values "
     "(0 blank), or None when a row of the search would keep more than `bound` states (the "
     "caller falls back).  Raises Conflict when two givens share a unit."},
    {"minlex_lines", minlex_lines, METH_O,
     "minlex_lines(lines) -> list\n--\n\nThe minlex form of each line of 81 characters "
     "('0' or '.' blank) as 81 digits, None where the search would outgrow its bound."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef minlex_module = {
    PyModuleDef_HEAD_INIT,
    "lazyfun.sudoku.canon._minlex",
    "The minlex engine in C (see lazyfun.sudoku.canon).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC PyInit__minlex(void)
{
    PyObject *module = PyModule_Create(&minlex_module);
    if (!module)
        return NULL;
    Conflict = PyErr_NewExceptionWithDoc("lazyfun.sudoku.canon._minlex.Conflict",
                                         "Two givens share a unit and a value.",
                                         PyExc_ValueError, NULL);
    if (!Conflict || PyModule_AddObjectRef(module, "Conflict", Conflict) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
