/* The Python face of the 9x9 engine: lazyfun.sudoku.solving._nine.  What comes from
 * Python is checked here, so the engine can assume it. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

#include "nine.h"

static PyObject *Conflict; /* two givens clash: the caller names them */
static PyObject *DIGITS[10]; /* the ints 0..9 */

/* The 81 values (0..9) of the sequence `arg` into `cells`; -1 with an exception set. */
static int read_cells(PyObject *arg, uint8_t *cells)
{
    PyObject *seq = PySequence_Fast(arg, "cells: expected a sequence of 81 ints");
    if (!seq)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != 81) {
        PyErr_Format(PyExc_ValueError, "cells: expected 81 values, got %zd",
                     PySequence_Fast_GET_SIZE(seq));
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t i = 0; i < 81; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (item == DIGITS[0]) { /* a blank, most cells: no conversion */
            cells[i] = 0;
            continue;
        }
        long v = PyLong_AsLong(item);
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (v < 0 || v > 9) {
            PyErr_Format(PyExc_ValueError, "cells: item %zd is %ld, outside 0..9", i, v);
            Py_DECREF(seq);
            return -1;
        }
        cells[i] = (uint8_t)v;
    }
    Py_DECREF(seq);
    return 0;
}

/* The cells of the grid parse_line made last, and their values: the search of that grid
 * (a user's loop: solve(parse(line))) takes them as they are.  The tuple is held, so no
 * other can be at its address. */
static PyObject *last_read;
static uint8_t last_values[81];

/* The 81 values of `arg` into `cells`, and its (cell, value) pairs into `ruled_out`
 * (729 flags; untouched without pairs); -1 with an exception set. */
static int read_puzzle(PyObject *arg, PyObject *pairs, uint8_t *cells, uint8_t *ruled_out)
{
    if (arg == last_read)
        memcpy(cells, last_values, 81);
    else if (read_cells(arg, cells) < 0)
        return -1;
    if (!pairs)
        return 0;
    memset(ruled_out, 0, 729);
    PyObject *iter = PyObject_GetIter(pairs), *pair;
    if (!iter)
        return -1;
    while ((pair = PyIter_Next(iter))) {
        int cell, value;
        int ok =
            PyArg_ParseTuple(pair, "ii;ruled_out: expected (cell, value) pairs", &cell, &value);
        Py_DECREF(pair);
        if (!ok)
            break;
        if (cell < 0 || cell > 80 || value < 1 || value > 9) {
            PyErr_Format(PyExc_ValueError, "ruled_out: (%d, %d) is no cell 0..80 and value 1..9",
                         cell, value);
            break;
        }
        ruled_out[cell * 9 + value - 1] = 1;
    }
    Py_DECREF(iter);
    return PyErr_Occurred() ? -1 : 0;
}

/* A started board, or -1 with an exception set (Conflict when two givens clash). */
static int start_from(PyObject *cells_arg, PyObject *pairs, Board *board)
{
    uint8_t cells[81], ruled_out[729];
    if (read_puzzle(cells_arg, pairs, cells, ruled_out) < 0)
        return -1;
    if (nine_start(board, cells, pairs ? ruled_out : NULL) != NINE_OK) {
        PyErr_SetString(Conflict, "two givens share a unit and a value");
        return -1;
    }
    return 0;
}

/* 81 values (0..9) as a tuple of ints. */
static PyObject *cells_tuple(const uint8_t *values)
{
    PyObject *out = PyTuple_New(81);
    if (!out)
        return NULL;
    for (int c = 0; c < 81; c++)
        PyTuple_SET_ITEM(out, c, Py_NewRef(DIGITS[values[c]]));
    return out;
}

static PyObject *values_tuple(const Board *board)
{
    uint8_t values[81];
    nine_values(board, values);
    return cells_tuple(values);
}

/* The engine's reader of a plain line: its 81 characters' values into `cells` (a digit
 * 1-9 a given, '.' or '0' a blank).  -1 when every character is one of those, else the
 * index of the first that is not. */
static Py_ssize_t plain_cells(const char *text, uint8_t *cells)
{
    for (Py_ssize_t i = 0; i < 81; i++) {
        unsigned char ch = (unsigned char)text[i];
        unsigned value = (unsigned)ch - '0';
        if (value > 9) {
            if (ch != '.')
                return i;
            value = 0;
        }
        cells[i] = (uint8_t)value;
    }
    return -1;
}

/* A search that gives its solutions one at a time, with a generator's methods: close()
 * (and exhaustion) frees the search and the puzzle, after which next and send raise
 * StopIteration; throw(e) closes it and raises e; send(None) is next, and send(v)
 * before the first solution is a TypeError, as for a generator just started. */
typedef struct {
    PyObject_HEAD Search *search; /* NULL once closed or exhausted */
    PyObject *like; /* the puzzle's Grid: each solution is one of its type and symbols */
    int started; /* a solution has been asked for */
} SolutionsObject;

static PyObject *CELLS, *BOX, *SYMBOLS, *THREE; /* interned names, and the int 3 */

/* Where a Grid's type keeps its three fields: their slots, noted the first time a grid
 * of it is made or read, and noted again when the type changes (its version tag, never
 * given to another type), so a grid is made and read without looking its names up. */
static struct {
    PyTypeObject *type;
    unsigned int version;
    Py_ssize_t cells, box, symbols;
} slots;

/* The offset of the slot that holds `name` in objects of `type`, as the generic getattr
 * finds it (a member of the type or of a base, as flow_c/base.h's slot_offsets reads
 * one); -1 when it is not one. */
static Py_ssize_t slot_offset(PyTypeObject *type, PyObject *name)
{
    if (type->tp_getattro != PyObject_GenericGetAttr)
        return -1;
    PyObject *found = _PyType_Lookup(type, name);
    if (!found || !Py_IS_TYPE(found, &PyMemberDescr_Type) ||
        !PyType_IsSubtype(type, PyDescr_TYPE(found)))
        return -1;
    PyMemberDef *member = ((PyMemberDescrObject *)found)->d_member;
    return member->type == T_OBJECT_EX || member->type == T_OBJECT ? member->offset : -1;
}

/* Whether the fields of objects of `type` are slots, noted in `slots`. */
static int grid_slots(PyTypeObject *type)
{
    if (slots.type == type && slots.version == type->tp_version_tag &&
        PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG))
        return 1;
    Py_ssize_t cells = slot_offset(type, CELLS), box = slot_offset(type, BOX),
               symbols = slot_offset(type, SYMBOLS);
    if (cells < 0 || box < 0 || symbols < 0 ||
        !PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG))
        return 0;
    slots.type = type;
    slots.version = type->tp_version_tag;
    slots.cells = cells;
    slots.box = box;
    slots.symbols = symbols;
    return 1;
}

#define SLOT(object, offset) (*(PyObject **)((char *)(object) + (offset)))

/* grid.cells, a new reference: from its slot where it is one. */
static PyObject *cells_of(PyObject *grid)
{
    if (grid_slots(Py_TYPE(grid)) && SLOT(grid, slots.cells))
        return Py_NewRef(SLOT(grid, slots.cells));
    return PyObject_GetAttr(grid, CELLS);
}

/* A solution as a grid like `like` (a lazyfun Grid), made as unpickling makes one: its
 * three fields set without running the checks of its constructor again (into its slots
 * where they are, else by the generic setattr).  Takes `values`. */
static PyObject *grid_like(PyObject *like, PyObject *values)
{
    PyTypeObject *type = Py_TYPE(like);
    if (grid_slots(type) && SLOT(like, slots.symbols)) {
        PyObject *grid = type->tp_alloc(type, 0);
        if (!grid) {
            Py_DECREF(values);
            return NULL;
        }
        SLOT(grid, slots.cells) = values;
        SLOT(grid, slots.box) = Py_NewRef(THREE);
        SLOT(grid, slots.symbols) = Py_NewRef(SLOT(like, slots.symbols));
        return grid;
    }
    PyObject *symbols = PyObject_GetAttr(like, SYMBOLS);
    PyObject *grid = symbols ? type->tp_alloc(type, 0) : NULL;
    if (!grid || PyObject_GenericSetAttr(grid, CELLS, values) < 0 ||
        PyObject_GenericSetAttr(grid, BOX, THREE) < 0 ||
        PyObject_GenericSetAttr(grid, SYMBOLS, symbols) < 0)
        Py_CLEAR(grid);
    Py_XDECREF(symbols);
    Py_DECREF(values);
    return grid;
}

/* parse_line(text, like): the Grid of a plain 81-character line (1-9 givens, '.' or
 * '0' blanks), of the type and symbols of `like`; None for any other text, which the
 * caller reads the long way (and which names what is wrong with it). */
static PyObject *parse_line(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "parse_line expected 2 arguments, got %zd", nargs);
        return NULL;
    }
    PyObject *text = args[0];
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "text: expected str, got %s", Py_TYPE(text)->tp_name);
        return NULL;
    }
    uint8_t cells[81];
    if (PyUnicode_GET_LENGTH(text) != 81 || !PyUnicode_IS_ASCII(text) ||
        plain_cells((const char *)PyUnicode_DATA(text), cells) >= 0)
        Py_RETURN_NONE;
    PyObject *values = cells_tuple(cells);
    if (!values)
        return NULL;
    Py_XSETREF(last_read, Py_NewRef(values));
    memcpy(last_values, cells, 81);
    return grid_like(args[1], values);
}

/* A search's memory: the one given back last, kept for the next search (the GIL guards
 * it), else a new one.  NULL with MemoryError set. */
static Search *spare;

static Search *search_taken(void)
{
    Search *search = spare;
    spare = NULL;
    if (!search && !(search = PyMem_Malloc(sizeof(Search))))
        PyErr_NoMemory();
    return search;
}

static void search_given_back(Search *search)
{
    if (!spare)
        spare = search;
    else
        PyMem_Free(search);
}

/* The search of `grid`'s solutions (`pairs`: the (cell, value) pairs ruled out, or
 * NULL), waiting before its first; NULL with Conflict set when two givens clash. */
static PyObject *solutions_of(PyTypeObject *type, PyObject *grid, PyObject *pairs)
{
    PyObject *cells = cells_of(grid);
    if (!cells)
        return NULL;
    Board root;
    int started = start_from(cells, pairs, &root);
    Py_DECREF(cells);
    if (started < 0)
        return NULL;
    SolutionsObject *self = (SolutionsObject *)type->tp_alloc(type, 0);
    if (!self)
        return NULL;
    if (!(self->search = search_taken())) {
        Py_DECREF(self);
        return NULL;
    }
    self->like = Py_NewRef(grid);
    nine_search_init(self->search, &root, 0x1ff);
    return (PyObject *)self;
}

static PyObject *Solutions_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"grid", "ruled_out", NULL};
    PyObject *grid, *pairs = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:Solutions", keywords, &grid, &pairs))
        return NULL;
    return solutions_of(type, grid, pairs == Py_None ? NULL : pairs);
}

/* The search's memory and the puzzle, given back: the stream is over. */
static void Solutions_release(SolutionsObject *self)
{
    if (self->search)
        search_given_back(self->search);
    self->search = NULL;
    Py_CLEAR(self->like);
}

static void Solutions_dealloc(SolutionsObject *self)
{
    Solutions_release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *Solutions_next(SolutionsObject *self)
{
    if (!self->search)
        return NULL; /* StopIteration: closed or exhausted */
    self->started = 1;
    if (!nine_next(self->search)) {
        Solutions_release(self);
        return NULL;
    }
    PyObject *values = values_tuple(nine_top(self->search));
    return values ? grid_like(self->like, values) : NULL;
}

static PyObject *Solutions_send(SolutionsObject *self, PyObject *value)
{
    if (value != Py_None && self->search && !self->started) {
        PyErr_SetString(PyExc_TypeError,
                        "can't send non-None value to a just-started generator");
        return NULL;
    }
    PyObject *solution = Solutions_next(self);
    if (!solution && !PyErr_Occurred())
        PyErr_SetNone(PyExc_StopIteration);
    return solution;
}

static PyObject *Solutions_close(SolutionsObject *self, PyObject *Py_UNUSED(ignored))
{
    Solutions_release(self);
    Py_RETURN_NONE;
}

/* The exception throw(type[, value[, traceback]]) raises, made as a generator makes it:
 * an instance as it is, a class called with the value (a tuple: its arguments). */
static PyObject *thrown(PyObject *type, PyObject *value)
{
    if (PyExceptionInstance_Check(type)) {
        if (value != Py_None) {
            PyErr_SetString(PyExc_TypeError, "instance exception may not have a separate value");
            return NULL;
        }
        return Py_NewRef(type);
    }
    if (!PyExceptionClass_Check(type)) {
        PyErr_Format(PyExc_TypeError,
                     "exceptions must be classes or instances deriving from BaseException, "
                     "not %s",
                     Py_TYPE(type)->tp_name);
        return NULL;
    }
    int given = value == Py_None ? 0 : PyObject_IsInstance(value, type);
    if (given < 0)
        return NULL;
    PyObject *error = given                 ? Py_NewRef(value)
                      : value == Py_None    ? PyObject_CallNoArgs(type)
                      : PyTuple_Check(value) ? PyObject_Call(type, value, NULL)
                                             : PyObject_CallOneArg(type, value);
    if (error && !PyExceptionInstance_Check(error)) {
        PyErr_Format(PyExc_TypeError, "calling %R should have returned an instance of "
                     "BaseException, not %s", type, Py_TYPE(error)->tp_name);
        Py_CLEAR(error);
    }
    return error;
}

static PyObject *Solutions_throw(SolutionsObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs < 1 || nargs > 3) {
        PyErr_Format(PyExc_TypeError, "throw expected 1 to 3 arguments, got %zd", nargs);
        return NULL;
    }
    PyObject *traceback = nargs > 2 ? args[2] : Py_None;
    if (traceback != Py_None && !PyTraceBack_Check(traceback)) {
        PyErr_SetString(PyExc_TypeError, "throw() third argument must be a traceback object");
        return NULL;
    }
    PyObject *error = thrown(args[0], nargs > 1 ? args[1] : Py_None);
    if (!error)
        return NULL;
    Solutions_release(self); /* raised where the search waits, it ends the search */
    if (traceback != Py_None && PyException_SetTraceback(error, traceback) < 0) {
        Py_DECREF(error);
        return NULL;
    }
    PyErr_SetObject((PyObject *)Py_TYPE(error), error);
    Py_DECREF(error);
    return NULL;
}

static PyMethodDef Solutions_methods[] = {
    {"send", (PyCFunction)Solutions_send, METH_O,
     "send($self, value, /)\n--\n\nThe next solution, as next() gives it (the value is not "
     "used: a generator's send)."},
    {"throw", (PyCFunction)(void (*)(void))Solutions_throw, METH_FASTCALL,
     "throw($self, typ, val=None, tb=None, /)\n--\n\nEnd the search and raise the exception "
     "(a generator's throw, where the search waits)."},
    {"close", (PyCFunction)Solutions_close, METH_NOARGS,
     "close($self, /)\n--\n\nEnd the search and free it: next() then raises StopIteration "
     "(a generator's close)."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SolutionsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "lazyfun.sudoku.solving._nine.Solutions",
    .tp_doc = PyDoc_STR("Solutions(grid, ruled_out=None)\n--\n\n"
                        "The solutions of a 9x9 Grid (ruled_out: (cell, value) pairs excluded), "
                        "one at a time, each a Grid of its type and symbols; the search waits in "
                        "C between them.  Raises Conflict when two givens clash.  A generator's "
                        "methods: send, throw, close."),
    .tp_basicsize = sizeof(SolutionsObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = Solutions_new,
    .tp_dealloc = (destructor)Solutions_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Solutions_next,
    .tp_methods = Solutions_methods,
};

/* Up to `limit` solutions counted (limit < 0: all); the first's values into `first`
 * when it is not NULL.  -1 with an exception set when interrupted. */
static long long count_from(Search *search, long long limit, uint8_t *first, int check_signals)
{
    long long found = 0;
    while ((limit < 0 || found < limit) && nine_next(search)) {
        if (!found && first)
            nine_values(nine_top(search), first);
        found++;
        if (check_signals && !(found & 0xfff) && PyErr_CheckSignals() < 0)
            return -1;
    }
    return found;
}

/* How many solutions the puzzle of `cells` has (`pairs` ruled out, or NULL), up to
 * `limit` (-1: all); NULL with an exception set (Conflict when two givens clash). */
static PyObject *counted(PyObject *cells, PyObject *pairs, long long limit)
{
    Board root;
    if (start_from(cells, pairs, &root) < 0)
        return NULL;
    Search *search = search_taken();
    if (!search)
        return NULL;
    nine_search_init(search, &root, 0x1ff);
    long long found = count_from(search, limit, NULL, 1);
    search_given_back(search);
    return found < 0 ? NULL : PyLong_FromLongLong(found);
}

static PyObject *count(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"cells", "limit", "ruled_out", NULL};
    PyObject *cells, *pairs = NULL;
    long long limit = -1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|LO:count", keywords, &cells, &limit, &pairs))
        return NULL;
    return counted(cells, pairs == Py_None ? NULL : pairs, limit);
}

/* solutions(grid): Solutions(grid), the call a loop over puzzles makes, without the
 * parsing of keywords. */
static PyObject *solutions(PyObject *Py_UNUSED(module), PyObject *grid)
{
    return solutions_of(&SolutionsType, grid, NULL);
}

/* count_grid(grid, limit): count(grid.cells, limit), the limit None (all) or 0 and up. */
static PyObject *count_grid(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "count_grid expected 2 arguments, got %zd", nargs);
        return NULL;
    }
    long long limit = -1;
    if (args[1] != Py_None) {
        limit = PyLong_AsLongLong(args[1]);
        if (limit == -1 && PyErr_Occurred())
            return NULL;
        if (limit < 0)
            return PyErr_Format(PyExc_ValueError, "limit must be None or 0 and up, got %lld",
                                limit);
    }
    PyObject *cells = cells_of(args[0]);
    if (!cells)
        return NULL;
    PyObject *found = counted(cells, NULL, limit);
    Py_DECREF(cells);
    return found;
}

/* One line of solve_lines: 81 characters (1-9 givens; '.' or '0' blank) or 729 (a
 * pencil mark each cell and value: its digit, or '.' or '0' ruled out). */
static int read_line(PyObject *line, Py_ssize_t index, uint8_t *cells, uint8_t *ruled_out)
{
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(line, &size);
    if (!text)
        return -1;
    if (size != 81 && size != 729) {
        PyErr_Format(PyExc_ValueError, "line %zd: expected 81 or 729 characters, got %zd",
                     index + 1, size);
        return -1;
    }
    Py_ssize_t bad = -1;
    if (size == 81)
        bad = plain_cells(text, cells);
    else {
        memset(cells, 0, 81);
        for (Py_ssize_t i = 0; i < size && bad < 0; i++) {
            char ch = text[i];
            if (ch == '.' || ch == '0')
                ruled_out[i] = 1;
            else if (ch == (char)('1' + i % 9))
                ruled_out[i] = 0;
            else
                bad = i;
        }
    }
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError, "line %zd, column %zd: unexpected %c", index + 1, bad + 1,
                     (int)(unsigned char)text[bad]);
        return -1;
    }
    return size == 729;
}

static PyObject *solution_text(const uint8_t *values)
{
    char text[81];
    for (int c = 0; c < 81; c++)
        text[c] = (char)('0' + values[c]);
    return PyUnicode_FromStringAndSize(text, 81);
}

static PyObject *solve_lines(PyObject *Py_UNUSED(module), PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"lines", "limit", NULL};
    PyObject *lines;
    long long limit = 1;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|L:solve_lines", keywords, &lines, &limit))
        return NULL;
    if (limit < 1)
        return PyErr_Format(PyExc_ValueError, "limit: expected 1 or more, got %lld", limit);
    PyObject *seq = PySequence_Fast(lines, "lines: expected a sequence of str");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *out = PyList_New(n);
    Search *search = out ? search_taken() : NULL;
    if (!search)
        goto fail;
    for (Py_ssize_t i = 0; i < n; i++) {
        uint8_t cells[81], ruled_out[729], first[81];
        int marked = read_line(PySequence_Fast_GET_ITEM(seq, i), i, cells, ruled_out);
        if (marked < 0)
            goto fail;
        Board root;
        long long found = -1;
        if (nine_start(&root, cells, marked ? ruled_out : NULL) == NINE_OK) {
            nine_search_init(search, &root, 0x1ff);
            Py_BEGIN_ALLOW_THREADS
            found = count_from(search, limit, first, 0);
            Py_END_ALLOW_THREADS
        }
        PyObject *solution = found > 0 ? solution_text(first) : Py_NewRef(Py_None);
        PyObject *answer = solution ? Py_BuildValue("(LN)", found, solution) : NULL;
        if (!answer)
            goto fail;
        PyList_SET_ITEM(out, i, answer);
    }
    search_given_back(search);
    Py_DECREF(seq);
    return out;
fail:
    if (!PyErr_Occurred())
        PyErr_NoMemory();
    if (search)
        search_given_back(search);
    Py_DECREF(seq);
    Py_XDECREF(out);
    return NULL;
}

static PyMethodDef module_methods[] = {
    {"parse_line", (PyCFunction)(void (*)(void))parse_line, METH_FASTCALL,
     "parse_line($module, text, like, /)\n--\n\n"
     "The Grid of a plain 81-character line (1-9 givens, '.' or '0' blanks), of the type "
     "and symbols of like; None for any other text."},
    {"count", (PyCFunction)(void (*)(void))count, METH_VARARGS | METH_KEYWORDS,
     "count(cells, limit=-1, ruled_out=None)\n--\n\n"
     "How many solutions a 9x9 puzzle has, stopping at limit (-1: none).  Raises Conflict "
     "when two givens clash."},
    {"solutions", solutions, METH_O,
     "solutions($module, grid, /)\n--\n\n"
     "Solutions(grid): the solutions of a 9x9 Grid, one at a time.  Raises Conflict when "
     "two givens clash."},
    {"count_grid", (PyCFunction)(void (*)(void))count_grid, METH_FASTCALL,
     "count_grid($module, grid, limit, /)\n--\n\n"
     "count(grid.cells, limit): how many solutions a 9x9 Grid has, stopping at limit (None: "
     "none, else 0 and up).  Raises Conflict when two givens clash."},
    {"solve_lines", (PyCFunction)(void (*)(void))solve_lines, METH_VARARGS | METH_KEYWORDS,
     "solve_lines(lines, limit=1)\n--\n\n"
     "For each line (81 characters, or 729 pencil marks): (count up to limit, the first "
     "solution's 81 digits or None); the count is -1 when two givens clash."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef nine_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "lazyfun.sudoku.solving._nine",
    .m_doc = "The 9x9 Sudoku engine in C: see lazyfun.sudoku.solving.nine.",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__nine(void)
{
    nine_init_tables();
    if (PyType_Ready(&SolutionsType) < 0)
        return NULL;
    PyObject *module = PyModule_Create(&nine_module);
    if (!module)
        return NULL;
    CELLS = PyUnicode_InternFromString("cells");
    BOX = PyUnicode_InternFromString("box");
    SYMBOLS = PyUnicode_InternFromString("symbols");
    THREE = PyLong_FromLong(3);
    int digits_made = 1;
    for (int d = 0; d < 10; d++) {
        DIGITS[d] = PyLong_FromLong(d);
        digits_made &= DIGITS[d] != NULL;
    }
    if (!CELLS || !BOX || !SYMBOLS || !THREE || !digits_made) {
        Py_DECREF(module);
        return NULL;
    }
    Conflict = PyErr_NewExceptionWithDoc("lazyfun.sudoku.solving._nine.Conflict",
                                         "Two givens share a unit and a value.",
                                         PyExc_ValueError, NULL);
    if (!Conflict || PyModule_AddObjectRef(module, "Conflict", Conflict) < 0 ||
        PyModule_AddObjectRef(module, "Solutions", (PyObject *)&SolutionsType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
