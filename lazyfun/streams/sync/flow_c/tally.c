/* Tally and Calls: the items of a step and the calls of its function, counted for a
 * Stream's explain (see steps.h). */
#include "steps.h"

#include <structmember.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

/* ---- Tally ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    PyObject *source;   /* an iterator; NULL once it ended */
    PyObject *hold;     /* NULL for none */
    Py_ssize_t items, errors, held;
    double seconds;
    int lists;
    int running;
} Tally;

/* Seconds on a monotonic clock. */
static double
monotonic(void)
{
#ifdef _WIN32
    LARGE_INTEGER count, frequency;
    QueryPerformanceCounter(&count);
    QueryPerformanceFrequency(&frequency);
    return (double)count.QuadPart / (double)frequency.QuadPart;
#else
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
#endif
}

static PyObject *
Tally_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"source", "lists", "hold", NULL};
    PyObject *source, *hold = Py_None;
    int lists = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|pO:Tally", names, &source, &lists,
                                     &hold)) {
        return NULL;
    }
    PyObject *items = PyObject_GetIter(source);
    if (items == NULL) {
        return NULL;
    }
    Tally *self = (Tally *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(items);
        return NULL;
    }
    self->source = items;
    self->hold = hold == Py_None ? NULL : Py_NewRef(hold);
    self->lists = lists;
    return (PyObject *)self;
}

static int
Tally_traverse(Tally *self, visitproc visit, void *arg)
{
    Py_VISIT(self->source);
    Py_VISIT(self->hold);
    return 0;
}

static int
Tally_clear(Tally *self)
{
    Py_CLEAR(self->source);
    Py_CLEAR(self->hold);
    return 0;
}

static void
Tally_dealloc(Tally *self)
{
    PyObject_GC_UnTrack(self);
    Tally_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* held = max(held, n) for what hold() says now; -1 on its error. */
static int
sampled(Tally *self)
{
    PyObject *now = PyObject_CallNoArgs(self->hold);
    if (now == NULL) {
        return -1;
    }
    if (now != Py_None) {
        Py_ssize_t n = PyNumber_AsSsize_t(now, PyExc_OverflowError);
        if (n == -1 && PyErr_Occurred()) {
            Py_DECREF(now);
            return -1;
        }
        if (n > self->held) {
            self->held = n;
        }
    }
    Py_DECREF(now);
    return 0;
}

static PyObject *
Tally_next_running(Tally *self)
{
    double start = monotonic();
    PyObject *item = Py_TYPE(self->source)->tp_iternext(self->source);
    self->seconds += monotonic() - start;
    if (item == NULL) {
        if (ended()) {
            Py_CLEAR(self->source);
        } else {
            self->errors++;
        }
        return NULL;
    }
    self->items++;
    if (self->lists) {
        Py_ssize_t n = PyObject_Length(item);
        if (n < 0) {
            PyErr_Clear();  /* an item without a length is not a list */
        } else if (n > self->held) {
            self->held = n;
        }
    }
    if (self->hold != NULL && sampled(self) < 0) {
        Py_DECREF(item);
        return NULL;
    }
    return item;
}

PyObject *
tally_source(PyObject *tally)
{
    return ((Tally *)tally)->source;
}

static PyObject *
Tally_next(Tally *self)
{
    if (self->source == NULL) {
        return NULL;
    }
    if (enter(&self->running) < 0) {
        return NULL;
    }
    PyObject *item = Tally_next_running(self);
    self->running = 0;
    return item;
}

static PyMemberDef Tally_members[] = {
    {"items", T_PYSSIZET, offsetof(Tally, items), READONLY,
     PyDoc_STR("How many items passed.")},
    {"errors", T_PYSSIZET, offsetof(Tally, errors), READONLY,
     PyDoc_STR("How many exceptions (not the end) passed.")},
    {"held", T_PYSSIZET, offsetof(Tally, held), READONLY,
     PyDoc_STR("The longest list that passed (with lists), or the most hold() said.")},
    {"seconds", T_DOUBLE, offsetof(Tally, seconds), READONLY,
     PyDoc_STR("The seconds spent in the source's next, on a monotonic clock.")},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject TallyType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.Tally",
    .tp_doc = PyDoc_STR("The items of a source, unchanged, counted and timed."),
    .tp_basicsize = sizeof(Tally),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Tally_new,
    .tp_traverse = (traverseproc)Tally_traverse,
    .tp_clear = (inquiry)Tally_clear,
    .tp_dealloc = (destructor)Tally_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Tally_next,
    .tp_members = Tally_members,
};

/* ---- Calls ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    PyObject *f;
    Py_ssize_t made;
    vectorcallfunc vectorcall;
} Calls;

static PyObject *
Calls_call(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Calls *self = (Calls *)callable;
    self->made++;
    return PyObject_Vectorcall(self->f, args, nargsf, kwnames);
}

static PyObject *
Calls_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"f", NULL};
    PyObject *f;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:Calls", names, &f)) {
        return NULL;
    }
    if (!PyCallable_Check(f)) {
        PyErr_Format(PyExc_TypeError, "Calls needs a function, got %s", Py_TYPE(f)->tp_name);
        return NULL;
    }
    Calls *self = (Calls *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->f = Py_NewRef(f);
    self->vectorcall = Calls_call;
    return (PyObject *)self;
}

static int
Calls_traverse(Calls *self, visitproc visit, void *arg)
{
    Py_VISIT(self->f);
    return 0;
}

static int
Calls_clear(Calls *self)
{
    Py_CLEAR(self->f);
    return 0;
}

static void
Calls_dealloc(Calls *self)
{
    PyObject_GC_UnTrack(self);
    Calls_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef Calls_members[] = {
    {"made", T_PYSSIZET, offsetof(Calls, made), READONLY,
     PyDoc_STR("How many calls were made.")},
    {"f", T_OBJECT, offsetof(Calls, f), READONLY, PyDoc_STR("The function called.")},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject CallsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.Calls",
    .tp_doc = PyDoc_STR("A function, each call counted."),
    .tp_basicsize = sizeof(Calls),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Calls, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_new = Calls_new,
    .tp_traverse = (traverseproc)Calls_traverse,
    .tp_clear = (inquiry)Calls_clear,
    .tp_dealloc = (destructor)Calls_dealloc,
    .tp_members = Calls_members,
};
