/* Counted: a Stream's take, and with refill a throttle's stretches (see steps.h). */
#include "steps.h"

#include <structmember.h>

typedef struct {
    PyObject_HEAD
    PyObject *source;   /* an iterator; NULL once it ended */
    PyObject *on_last;  /* NULL for none */
    PyObject *refill;   /* NULL for none */
    Py_ssize_t left;
    int running;
} Counted;

static PyObject *
Counted_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"source", "n", "on_last", "refill", NULL};
    PyObject *source, *on_last = Py_None, *refill = Py_None;
    Py_ssize_t n;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "On|OO:Counted", names, &source, &n,
                                     &on_last, &refill)) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "Counted's n must be at least 0, got %zd", n);
        return NULL;
    }
    PyObject *items = PyObject_GetIter(source);
    if (items == NULL) {
        return NULL;
    }
    Counted *self = (Counted *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(items);
        return NULL;
    }
    self->source = items;
    self->left = n;
    self->on_last = on_last == Py_None ? NULL : Py_NewRef(on_last);
    self->refill = refill == Py_None ? NULL : Py_NewRef(refill);
    return (PyObject *)self;
}

static int
Counted_traverse(Counted *self, visitproc visit, void *arg)
{
    Py_VISIT(self->source);
    Py_VISIT(self->on_last);
    Py_VISIT(self->refill);
    return 0;
}

static int
Counted_clear(Counted *self)
{
    Py_CLEAR(self->source);
    Py_CLEAR(self->on_last);
    Py_CLEAR(self->refill);
    return 0;
}

static void
Counted_dealloc(Counted *self)
{
    PyObject_GC_UnTrack(self);
    Counted_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* left = refill(), at least 1; -1 on an error. */
static int
refilled(Counted *self)
{
    PyObject *allowance = PyObject_CallNoArgs(self->refill);
    if (allowance == NULL) {
        return -1;
    }
    Py_ssize_t n = PyNumber_AsSsize_t(allowance, PyExc_OverflowError);
    Py_DECREF(allowance);
    if (n == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (n < 1) {
        PyErr_Format(PyExc_ValueError, "Counted's refill must give at least 1, got %zd", n);
        return -1;
    }
    self->left = n;
    return 0;
}

static PyObject *
Counted_next_running(Counted *self)
{
    if (self->left <= 0 && (self->refill == NULL || refilled(self) < 0)) {
        return NULL;
    }
    PyObject *item = Py_TYPE(self->source)->tp_iternext(self->source);
    if (item == NULL) {
        if (ended()) {
            Py_CLEAR(self->source);
        }
        return NULL;
    }
    if (--self->left == 0 && self->on_last != NULL) {
        PyObject *done = PyObject_CallNoArgs(self->on_last);
        if (done == NULL) {
            Py_DECREF(item);
            return NULL;
        }
        Py_DECREF(done);
    }
    return item;
}

static PyObject *
Counted_next(Counted *self)
{
    if (self->source == NULL) {
        return NULL;
    }
    if (enter(&self->running) < 0) {
        return NULL;
    }
    PyObject *item = Counted_next_running(self);
    self->running = 0;
    return item;
}

static PyObject *
Counted_length_hint(Counted *self, PyObject *Py_UNUSED(ignored))
{
    return PyLong_FromSsize_t(self->source == NULL ? 0 : self->left);
}

static PyMethodDef Counted_methods[] = {
    {"__length_hint__", (PyCFunction)Counted_length_hint, METH_NOARGS,
     PyDoc_STR("How many more items may come: left, or 0 once the source ended.")},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef Counted_members[] = {
    {"left", T_PYSSIZET, offsetof(Counted, left), READONLY,
     PyDoc_STR("How many more items this passes before it ends or asks refill().")},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject CountedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.Counted",
    .tp_doc = PyDoc_STR("At most n items of a source; its exceptions pass on uncounted."),
    .tp_basicsize = sizeof(Counted),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Counted_new,
    .tp_traverse = (traverseproc)Counted_traverse,
    .tp_clear = (inquiry)Counted_clear,
    .tp_dealloc = (destructor)Counted_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Counted_next,
    .tp_methods = Counted_methods,
    .tp_members = Counted_members,
};
