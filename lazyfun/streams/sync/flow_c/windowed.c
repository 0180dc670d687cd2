/* Windowed: the C form of lazyfun.streams.windows.EventTime for tumbling and sliding
 * windows of numbers with named reductions (see windowed.h).  Step for step as the
 * Python, which stays the reference: a law (tests/test_windows_c.py) holds the two to
 * the same windows. */
#include "windowed.h"

#include <math.h>
#include <structmember.h>

/* An open window is a tuple (key, start, end, args), args the Folder's call
 * (one, state, None): one the list the item is folded from, state the window's
 * {None: Accs}; or, when every reduction is a count, a list [n] of its items counted
 * here, with no Folder.  The heap's entries are (end, seq, window), in a list kept by
 * heapq. */
enum { W_KEY, W_START, W_END, W_ARGS };

typedef struct {
    PyObject_HEAD
    PyObject *what, *on, *by, *late, *folder, *size, *every, *lateness;
    PyObject *check;       /* EventTime._origin(t, position): a time not int nor float */
    PyObject *late_error;  /* LateItem */
    PyObject *values;      /* values(state): a closed window's values by name */
    PyObject *window;      /* Window */
    PyObject *ready;       /* the deque of closed windows */
    PyObject *heappush, *heappop;
    PyObject *counts;      /* the names, when every reduction is a count; else NULL */
    PyObject *one;         /* [item]: the Folder's items */
    PyObject *recent;      /* tumbling: a key's last window */
    PyObject *opened;      /* (key, start): window */
    PyObject *heap;
    PyObject *latest, *watermark;  /* NULL before the first item */
    Py_ssize_t position;
    long long seq;
    int tumbling;
    KnownKeys known;       /* the str keys seen last */
} Windowed;

/* item into window: its values folded into the window's state, or counted. */
static int
fold(Windowed *self, PyObject *window, PyObject *item)
{
    if (self->counts != NULL) {
        PyObject *cell = PyTuple_GET_ITEM(window, W_ARGS);
        PyObject *n = PyList_GET_ITEM(cell, 0);
        PyObject *more = PyLong_FromLongLong(PyLong_AsLongLong(n) + 1);
        if (more == NULL) {
            return -1;
        }
        PyList_SET_ITEM(cell, 0, more);
        Py_DECREF(n);
        return 0;
    }
    Py_INCREF(item);
    PyObject *gone = PyList_GET_ITEM(self->one, 0);
    PyList_SET_ITEM(self->one, 0, item);
    Py_DECREF(gone);
    PyObject *done = PyObject_Call(self->folder, PyTuple_GET_ITEM(window, W_ARGS), NULL);
    gone = PyList_GET_ITEM(self->one, 0);
    PyList_SET_ITEM(self->one, 0, Py_NewRef(Py_None));  /* the item not kept alive */
    Py_DECREF(gone);
    Py_XDECREF(done);
    return done == NULL ? -1 : 0;
}

/* A late item to late(item), or a LateItem at its place. */
static int
take_late(Windowed *self, PyObject *item, PyObject *t, Py_ssize_t position)
{
    if (self->late != NULL) {
        PyObject *said = PyObject_CallOneArg(self->late, item);
        Py_XDECREF(said);
        return said == NULL ? -1 : 0;
    }
    PyObject *error = PyObject_CallFunction(self->late_error, "OOnOO", self->what, item,
                                            position, t, self->watermark);
    if (error != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(error), error);
        Py_DECREF(error);
    }
    return -1;
}

/* A new window of key from start, item folded in; opened, on the heap (and the key's
 * recent one when tumbling) only once the fold succeeded. */
static int
open_window(Windowed *self, PyObject *item, PyObject *key, PyObject *start, PyObject *at)
{
    PyObject *state = PyDict_New(), *end = PyNumber_Add(start, self->size), *args = NULL;
    PyObject *window = NULL, *seq = NULL, *entry = NULL;
    int done = -1;
    if (state == NULL || end == NULL) {
        goto out;
    }
    args = self->counts != NULL ? Py_BuildValue("[i]", 0)
                                : PyTuple_Pack(3, self->one, state, Py_None);
    window = args == NULL ? NULL : PyTuple_Pack(4, key, start, end, args);
    if (window == NULL || fold(self, window, item) < 0) {
        goto out;
    }
    seq = PyLong_FromLongLong(self->seq);
    entry = seq == NULL ? NULL : PyTuple_Pack(3, end, seq, window);
    if (entry == NULL) {
        goto out;
    }
    self->seq++;
    if (PyDict_SetItem(self->opened, at, window) < 0) {
        goto out;
    }
    PyObject *pushed = PyObject_CallFunctionObjArgs(self->heappush, self->heap, entry, NULL);
    if (pushed == NULL) {
        goto out;
    }
    Py_DECREF(pushed);
    done = self->tumbling ? PyDict_SetItem(self->recent, key, window) : 0;
out:
    Py_XDECREF(state);
    Py_XDECREF(end);
    Py_XDECREF(args);
    Py_XDECREF(window);
    Py_XDECREF(seq);
    Py_XDECREF(entry);
    return done;
}

/* A float, or an int a double holds exactly, as that double: 1; else 0. */
static int
exact_double(PyObject *number, double *value)
{
    if (PyFloat_CheckExact(number)) {
        *value = PyFloat_AS_DOUBLE(number);
        return 1;
    }
    if (!PyLong_CheckExact(number)) {
        return 0;
    }
    int overflow;
    long long whole = PyLong_AsLongLongAndOverflow(number, &overflow);
    if (overflow || whole > (1LL << 53) || whole < -(1LL << 53)) {
        return 0;
    }
    *value = (double)whole;
    return 1;
}

/* a < b (op Py_LT) or a <= b (Py_LE), as Python compares them: on doubles where both
 * are exactly doubles (an int against a float makes no float of the int), else by
 * Python's comparison.  1, 0, or -1 with an error. */
static int
below(PyObject *a, PyObject *b, int op)
{
    double x, y;
    if (exact_double(a, &x) && exact_double(b, &y)) {
        return op == Py_LT ? x < y : x <= y;
    }
    return PyObject_RichCompareBool(a, b, op);
}

/* start <= t < end of window: 1, 0, or -1 with an error. */
static int
holds(PyObject *window, PyObject *t)
{
    int after = below(PyTuple_GET_ITEM(window, W_START), t, Py_LE);
    if (after <= 0) {
        return after;
    }
    return below(t, PyTuple_GET_ITEM(window, W_END), Py_LT);
}

/* int(a // b), as Python reads it (NULL with its error). */
static PyObject *
whole_quotient(PyObject *a, PyObject *b)
{
    PyObject *q = PyNumber_FloorDivide(a, b);
    PyObject *k = q == NULL ? NULL : PyNumber_Long(q);
    Py_XDECREF(q);
    return k;
}

/* The starts of the windows holding t, earliest first: lazyfun.streams.windows.Fixed's
 * starts(t, 0), step for step on the number protocol (the same operators, so the same
 * numbers, types and errors), with no call into Python. */
static PyObject *
starts_of(Windowed *self, PyObject *t)
{
    PyObject *zero = PyLong_FromLong(0), *one = PyLong_FromLong(1); /* the origin of numbers */
    PyObject *since = zero == NULL || one == NULL ? NULL : PyNumber_Subtract(t, zero);
    PyObject *last = since == NULL ? NULL : whole_quotient(since, self->every);
    PyObject *back = last == NULL ? NULL : PyNumber_Subtract(since, self->size);
    PyObject *before = back == NULL ? NULL : whole_quotient(back, self->every);
    PyObject *k = before == NULL ? NULL : PyNumber_Add(before, one);
    PyObject *starts = k == NULL ? NULL : PyList_New(0);
    int lower = starts == NULL ? -1 : PyObject_RichCompareBool(last, k, Py_LT);
    if (lower > 0) { /* first = min(k, last) */
        Py_SETREF(k, Py_NewRef(last));
    }
    int more = lower < 0 ? -1 : PyObject_RichCompareBool(k, last, Py_LE);
    while (more > 0) {
        PyObject *step = PyNumber_Multiply(k, self->every);
        PyObject *start = step == NULL ? NULL : PyNumber_Add(zero, step);
        more = start == NULL || PyList_Append(starts, start) < 0 ? -1 : 1;
        Py_XDECREF(start);
        Py_XDECREF(step);
        if (more > 0) {
            Py_SETREF(k, PyNumber_Add(k, one));
            more = k == NULL ? -1 : PyObject_RichCompareBool(k, last, Py_LE);
        }
    }
    if (more < 0) {
        Py_CLEAR(starts);
    }
    Py_XDECREF(k);
    Py_XDECREF(before);
    Py_XDECREF(back);
    Py_XDECREF(last);
    Py_XDECREF(since);
    Py_XDECREF(one);
    Py_XDECREF(zero);
    return starts;
}

/* A tumbling or sliding window's item: late if its first window has closed. */
static int
place(Windowed *self, PyObject *item, PyObject *t, PyObject *key, Py_ssize_t position)
{
    PyObject *starts = starts_of(self, t);
    if (starts == NULL) {
        return -1;
    }
    if (PyList_GET_SIZE(starts) == 0) {
        PyErr_SetString(PyExc_SystemError, "a time in no window");
        Py_DECREF(starts);
        return -1;
    }
    int done = 0;
    if (self->watermark != NULL) {
        PyObject *end = PyNumber_Add(PyList_GET_ITEM(starts, 0), self->size);
        int closed = end == NULL ? -1 : below(end, self->watermark, Py_LE);
        Py_XDECREF(end);
        if (closed != 0) {
            Py_DECREF(starts);
            return closed < 0 ? -1 : take_late(self, item, t, position);
        }
    }
    for (Py_ssize_t i = 0; done == 0 && i < PyList_GET_SIZE(starts); i++) {
        PyObject *start = PyList_GET_ITEM(starts, i);
        PyObject *at = PyTuple_Pack(2, key, start);
        PyObject *window = at == NULL ? NULL : PyDict_GetItemWithError(self->opened, at);
        if (at == NULL || (window == NULL && PyErr_Occurred())) {
            done = -1;
        } else if (window != NULL) {
            Py_INCREF(window);
            done = fold(self, window, item);
            Py_DECREF(window);
        } else {
            done = open_window(self, item, key, start, at);
        }
        Py_XDECREF(at);
    }
    Py_DECREF(starts);
    return done;
}

/* Close the window of a heap entry and hand it on. */
static int
emit(Windowed *self, PyObject *entry)
{
    if (!PyTuple_Check(entry) || PyTuple_GET_SIZE(entry) != 3) {
        PyErr_SetString(PyExc_SystemError, "a window's heap entry is not (end, seq, window)");
        return -1;
    }
    PyObject *window = PyTuple_GET_ITEM(entry, 2);
    PyObject *key = PyTuple_GET_ITEM(window, W_KEY), *start = PyTuple_GET_ITEM(window, W_START);
    PyObject *at = PyTuple_Pack(2, key, start);
    if (at == NULL || PyDict_DelItem(self->opened, at) < 0) {
        Py_XDECREF(at);
        return -1;
    }
    Py_DECREF(at);
    PyObject *recent = PyDict_GetItemWithError(self->recent, key);
    if ((recent == NULL && PyErr_Occurred())
        || (recent == window && PyDict_DelItem(self->recent, key) < 0)) {
        return -1;
    }
    PyObject *args = PyTuple_GET_ITEM(window, W_ARGS);
    PyObject *values = self->counts != NULL ? PyDict_New()
                                            : PyObject_CallOneArg(self->values,
                                                                  PyTuple_GET_ITEM(args, 1));
    for (Py_ssize_t i = 0; self->counts != NULL && values != NULL
                           && i < PyTuple_GET_SIZE(self->counts); i++) {
        if (PyDict_SetItem(values, PyTuple_GET_ITEM(self->counts, i), PyList_GET_ITEM(args, 0))
            < 0) {
            Py_CLEAR(values);
        }
    }
    if (values == NULL) {
        return -1;
    }
    PyObject *items = PyTuple_New(0);
    PyObject *made = items == NULL ? NULL
                                   : PyObject_CallFunctionObjArgs(self->window, key, start,
                                                                  PyTuple_GET_ITEM(entry, 0),
                                                                  items, values, NULL);
    Py_XDECREF(items);
    Py_DECREF(values);
    if (made == NULL) {
        return -1;
    }
    PyObject *appended = PyObject_CallMethod(self->ready, "append", "O", made);
    Py_DECREF(made);
    Py_XDECREF(appended);
    return appended == NULL ? -1 : 0;
}

/* Close every window that ends by mark (NULL: all), in order of end. */
static int
close_by(Windowed *self, PyObject *mark)
{
    while (PyList_GET_SIZE(self->heap) > 0) {
        if (mark != NULL) {
            PyObject *top = PyList_GET_ITEM(self->heap, 0);
            int due = below(PyTuple_GET_ITEM(top, 0), mark, Py_LE);
            if (due <= 0) {
                return due;
            }
        }
        PyObject *entry = PyObject_CallOneArg(self->heappop, self->heap);
        int done = entry == NULL ? -1 : emit(self, entry);
        Py_XDECREF(entry);
        if (done < 0) {
            return -1;
        }
    }
    return 0;
}

/* The item's key and windows: the fold or the late item; an error changes nothing. */
static int
placed(Windowed *self, PyObject *item, PyObject *t, Py_ssize_t position)
{
    PyObject *key = self->by == NULL            ? Py_NewRef(Py_None)
                    : PyUnicode_Check(self->by) ? read_field(item, self->by)
                                                : PyObject_CallOneArg(self->by, item);
    if (key == NULL) {
        return -1;
    }
    key = known_key(&self->known, key);
    PyObject *window = NULL;
    int done = 0;
    if (self->tumbling) {
        window = PyDict_GetItemWithError(self->recent, key);
        if (window == NULL && PyErr_Occurred()) {
            done = -1;
        }
    }
    Py_XINCREF(window);
    int inside = window == NULL || done < 0 ? 0 : holds(window, t);
    if (inside < 0) {
        done = -1;
    } else if (inside) {
        done = fold(self, window, item);
    } else if (done == 0) {
        done = place(self, item, t, key, position);
    }
    Py_XDECREF(window);
    Py_DECREF(key);
    return done;
}

/* 0 while the core holds its state; -1, with a ValueError, once the collector cleared
 * it (a call from a finalizer in the cycle it was in). */
static int
alive(Windowed *self)
{
    if (self->heap == NULL) {
        PyErr_SetString(PyExc_ValueError, "Windowed: cleared");
        return -1;
    }
    return 0;
}

/* add(item): as EventTime.add. */
static int
add_one(Windowed *self, PyObject *item)
{
    Py_ssize_t position = self->position++;
    PyObject *t = Py_IS_TYPE(self->on, &TimeFieldType) ? time_of(self->on, item)
                                                        : PyObject_CallOneArg(self->on, item);
    if (t == NULL) {
        return -1;
    }
    int plain = PyLong_CheckExact(t) || (PyFloat_CheckExact(t) && !isnan(PyFloat_AS_DOUBLE(t)));
    if (!plain) {  /* the Python check: refused, or an int or float of a subclass */
        PyObject *origin = PyObject_CallFunction(self->check, "On", t, position);
        if (origin == NULL) {
            Py_DECREF(t);
            return -1;
        }
        Py_DECREF(origin);
    }
    int later = 1;
    if (placed(self, item, t, position) < 0
        || (self->latest != NULL
            && (later = below(self->latest, t, Py_LT)) < 0)) {
        Py_DECREF(t);
        return -1;
    }
    if (!later) {
        Py_DECREF(t);
        return 0;
    }
    Py_XSETREF(self->latest, t);  /* its own windows end after t: they stay open */
    PyObject *mark = PyNumber_Subtract(t, self->lateness);
    if (mark == NULL) {
        return -1;
    }
    Py_XSETREF(self->watermark, mark);
    return close_by(self, mark);
}

static PyObject *
Windowed_add(Windowed *self, PyObject *item)
{
    if (alive(self) < 0 || add_one(self, item) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* pull(source): items of source added until a window is ready (False) or the source
 * ends (True); an error of the source or of an item passes on, and the next pull goes
 * on with the next. */
static PyObject *
Windowed_pull(Windowed *self, PyObject *source)
{
    if (alive(self) < 0) {
        return NULL;
    }
    iternextfunc next = Py_TYPE(source)->tp_iternext;
    if (next == NULL) {
        PyErr_SetString(PyExc_TypeError, "Windowed.pull reads an iterator");
        return NULL;
    }
    for (;;) {
        PyObject *item = next(source);
        if (item == NULL) {
            if (ended()) {
                Py_RETURN_TRUE;
            }
            return NULL;
        }
        int done = add_one(self, item);
        Py_DECREF(item);
        if (done < 0) {
            return NULL;
        }
        Py_ssize_t ready = PyObject_Length(self->ready);
        if (ready < 0) {
            return NULL;
        }
        if (ready > 0) {
            Py_RETURN_FALSE;
        }
    }
}

static PyObject *
Windowed_finish(Windowed *self, PyObject *Py_UNUSED(ignored))
{
    if (alive(self) < 0 || close_by(self, NULL) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
Windowed_close(Windowed *self, PyObject *Py_UNUSED(ignored))
{
    if (alive(self) < 0) {
        return NULL;
    }
    PyDict_Clear(self->recent);
    PyDict_Clear(self->opened);
    if (PyList_SetSlice(self->heap, 0, PyList_GET_SIZE(self->heap), NULL) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
Windowed_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"what",   "on",         "by",     "late",   "folder",
                            "size",   "every",      "lateness", "check",
                            "late_error", "values", "window", "ready",  "heappush",
                            "heappop", "counts", NULL};
    PyObject *a[16];
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "UOOOOOOOOOOOOOOO:Windowed", names, &a[0],
                                     &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7], &a[8],
                                     &a[9], &a[10], &a[11], &a[12], &a[13], &a[14], &a[15])) {
        return NULL;
    }
    if (a[15] != Py_None && !PyTuple_Check(a[15])) {
        PyErr_SetString(PyExc_TypeError, "Windowed's counts are a tuple of names or None");
        return NULL;
    }
    int called[] = {0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1};
    for (int i = 0; i < 15; i++) {
        if (called[i] && !PyCallable_Check(a[i])) {
            PyErr_Format(PyExc_TypeError, "Windowed's %s must be a function", names[i]);
            return NULL;
        }
    }
    if ((a[2] != Py_None && !PyCallable_Check(a[2]) && !PyUnicode_Check(a[2]))
        || (a[3] != Py_None && !PyCallable_Check(a[3]))) {
        PyErr_SetString(PyExc_TypeError,
                        "Windowed's by is a function, a field's name or None, its late a "
                        "function or None");
        return NULL;
    }
    Windowed *self = (Windowed *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->what = Py_NewRef(a[0]);
    self->on = Py_NewRef(a[1]);
    self->by = a[2] == Py_None ? NULL : Py_NewRef(a[2]);
    self->late = a[3] == Py_None ? NULL : Py_NewRef(a[3]);
    self->folder = Py_NewRef(a[4]);
    self->size = Py_NewRef(a[5]);
    self->every = Py_NewRef(a[6]);
    self->lateness = Py_NewRef(a[7]);
    self->check = Py_NewRef(a[8]);
    self->late_error = Py_NewRef(a[9]);
    self->values = Py_NewRef(a[10]);
    self->window = Py_NewRef(a[11]);
    self->ready = Py_NewRef(a[12]);
    self->heappush = Py_NewRef(a[13]);
    self->heappop = Py_NewRef(a[14]);
    self->counts = a[15] == Py_None ? NULL : Py_NewRef(a[15]);
    self->tumbling = PyObject_RichCompareBool(a[5], a[6], Py_EQ);
    self->one = PyList_New(1);
    self->recent = PyDict_New();
    self->opened = PyDict_New();
    self->heap = PyList_New(0);
    if (self->tumbling < 0 || self->one == NULL || self->recent == NULL || self->opened == NULL
        || self->heap == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    PyList_SET_ITEM(self->one, 0, Py_NewRef(Py_None));
    return (PyObject *)self;
}

#define WINDOWED_FIELDS(V)                                                                    \
    V(what) V(on) V(by) V(late) V(folder) V(size) V(every) V(lateness) V(check)     \
    V(late_error) V(values) V(window) V(ready) V(heappush) V(heappop) V(counts) V(one)        \
    V(recent) V(opened) V(heap) V(latest) V(watermark)

static int
Windowed_traverse(Windowed *self, visitproc visit, void *arg)
{
#define VISIT(f) Py_VISIT(self->f);
    WINDOWED_FIELDS(VISIT)
#undef VISIT
    return 0;
}

static int
Windowed_clear(Windowed *self)
{
#define CLEAR(f) Py_CLEAR(self->f);
    WINDOWED_FIELDS(CLEAR)
#undef CLEAR
    known_keys_clear(&self->known);
    return 0;
}

static void
Windowed_dealloc(Windowed *self)
{
    PyObject_GC_UnTrack(self);
    Windowed_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
Windowed_held(Windowed *Py_UNUSED(self), void *Py_UNUSED(closure))
{
    return PyLong_FromLong(0);  /* folded windows hold no items */
}

static PyObject *
Windowed_open(Windowed *self, void *Py_UNUSED(closure))
{
    return PyLong_FromSsize_t(self->opened == NULL ? 0 : PyDict_GET_SIZE(self->opened));
}

static PyObject *
Windowed_mark(Windowed *self, void *closure)
{
    PyObject *value = closure == NULL ? self->latest : self->watermark;
    return Py_NewRef(value == NULL ? Py_None : value);
}

static PyGetSetDef Windowed_getset[] = {
    {"held", (getter)Windowed_held, NULL, PyDoc_STR("The items the open windows hold: none."),
     NULL},
    {"open", (getter)Windowed_open, NULL, PyDoc_STR("How many windows are open."), NULL},
    {"latest", (getter)Windowed_mark, NULL, PyDoc_STR("The latest time seen, or None."), NULL},
    {"watermark", (getter)Windowed_mark, NULL, PyDoc_STR("The watermark, or None."), "w"},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef Windowed_members[] = {
    {"what", T_OBJECT, offsetof(Windowed, what), READONLY, PyDoc_STR("The step's name.")},
    {"ready", T_OBJECT, offsetof(Windowed, ready), READONLY,
     PyDoc_STR("The closed windows, in order of end.")},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef Windowed_methods[] = {
    {"add", (PyCFunction)Windowed_add, METH_O, PyDoc_STR("Place an item in its windows.")},
    {"pull", (PyCFunction)Windowed_pull, METH_O,
     PyDoc_STR("Add items of an iterator until a window is ready (False) or it ends (True).")},
    {"finish", (PyCFunction)Windowed_finish, METH_NOARGS,
     PyDoc_STR("The source has ended: every open window closes, in order of end.")},
    {"close", (PyCFunction)Windowed_close, METH_NOARGS,
     PyDoc_STR("Let go of the open windows.")},
    {NULL, NULL, 0, NULL},
};

PyTypeObject WindowedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.Windowed",
    .tp_doc = PyDoc_STR("Tumbling and sliding windows of numbers, folded: EventTime in C."),
    .tp_basicsize = sizeof(Windowed),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Windowed_new,
    .tp_traverse = (traverseproc)Windowed_traverse,
    .tp_clear = (inquiry)Windowed_clear,
    .tp_dealloc = (destructor)Windowed_dealloc,
    .tp_methods = Windowed_methods,
    .tp_members = Windowed_members,
    .tp_getset = Windowed_getset,
};
