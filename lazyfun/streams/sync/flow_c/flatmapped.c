/* FlatMapped: a Stream's flatmap, the items of iter(f(x)) for each x (see steps.h). */
#include "steps.h"

typedef struct {
    PyObject_HEAD
    PyObject *source;   /* an iterator; NULL once it ended */
    PyObject *f;
    PyObject *inner;    /* the iterator of f(x) being read; NULL between two */
    int running;
} FlatMapped;

static PyObject *
FlatMapped_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"source", "f", NULL};
    PyObject *source, *f;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:FlatMapped", names, &source, &f)) {
        return NULL;
    }
    if (!PyCallable_Check(f)) {
        PyErr_Format(PyExc_TypeError, "FlatMapped needs a function, got %s",
                     Py_TYPE(f)->tp_name);
        return NULL;
    }
    PyObject *items = PyObject_GetIter(source);
    if (items == NULL) {
        return NULL;
    }
    FlatMapped *self = (FlatMapped *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(items);
        return NULL;
    }
    self->source = items;
    self->f = Py_NewRef(f);
    self->inner = NULL;
    return (PyObject *)self;
}

static int
FlatMapped_traverse(FlatMapped *self, visitproc visit, void *arg)
{
    Py_VISIT(self->source);
    Py_VISIT(self->f);
    Py_VISIT(self->inner);
    return 0;
}

static int
FlatMapped_clear(FlatMapped *self)
{
    Py_CLEAR(self->source);
    Py_CLEAR(self->f);
    Py_CLEAR(self->inner);
    return 0;
}

static void
FlatMapped_dealloc(FlatMapped *self)
{
    PyObject_GC_UnTrack(self);
    FlatMapped_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
FlatMapped_next_running(FlatMapped *self)
{
    for (;;) {
        if (self->inner != NULL) {
            PyObject *item = Py_TYPE(self->inner)->tp_iternext(self->inner);
            if (item != NULL) {
                return item;
            }
            if (!ended()) {
                return NULL;  /* the inner iterator's error, at its place: read on next */
            }
            Py_CLEAR(self->inner);
        }
        if (self->source == NULL) {
            return NULL;
        }
        PyObject *x = Py_TYPE(self->source)->tp_iternext(self->source);
        if (x == NULL) {
            if (ended()) {
                Py_CLEAR(self->source);
            }
            return NULL;  /* the end, or the source's error at its place */
        }
        PyObject *made = PyObject_CallOneArg(self->f, x);
        Py_DECREF(x);
        if (made == NULL) {
            return NULL;
        }
        PyObject *inner = PyObject_GetIter(made);
        Py_DECREF(made);
        if (inner == NULL) {
            return NULL;
        }
        if (Py_TYPE(inner)->tp_iternext == NULL) {
            PyErr_Format(PyExc_TypeError, "iter() returned non-iterator of type '%.100s'",
                         Py_TYPE(inner)->tp_name);
            Py_DECREF(inner);
            return NULL;
        }
        self->inner = inner;
    }
}

static PyObject *
FlatMapped_next(FlatMapped *self)
{
    if (enter(&self->running) < 0) {
        return NULL;
    }
    PyObject *item = FlatMapped_next_running(self);
    self->running = 0;
    return item;
}

PyTypeObject FlatMappedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.FlatMapped",
    .tp_doc = PyDoc_STR("The items of iter(f(x)) for each item x of a source."),
    .tp_basicsize = sizeof(FlatMapped),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = FlatMapped_new,
    .tp_traverse = (traverseproc)FlatMapped_traverse,
    .tp_clear = (inquiry)FlatMapped_clear,
    .tp_dealloc = (destructor)FlatMapped_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)FlatMapped_next,
};
