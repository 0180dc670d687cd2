/* Runs: a source's records handed on from lists decoded ahead (see steps.h); the base of
 * lazyfun.io.sources.Jsonl, so that a record read costs no Python call. */
#include "steps.h"

#include <structmember.h>

typedef struct {
    PyObject_HEAD
    PyObject *run;      /* the list being handed on, or NULL */
    Py_ssize_t given;   /* how many of run were handed on */
} Runs;

static PyObject *
Runs_next(Runs *self)
{
    for (;;) {
        PyObject *run = self->run;
        if (run != NULL && self->given < PyList_GET_SIZE(run)) {
            return Py_NewRef(PyList_GET_ITEM(run, self->given++));
        }
        /* the subclass's _refill() sets the next run, or raises (at the end, StopIteration) */
        PyObject *done = PyObject_CallMethod((PyObject *)self, "_refill", NULL);
        if (done == NULL) {
            return NULL;
        }
        Py_DECREF(done);
    }
}

PyObject *
runs_ahead(PyObject *runs, Py_ssize_t ahead)
{
    Runs *self = (Runs *)runs;
    if (self->run == NULL || ahead < 0 || ahead >= PyList_GET_SIZE(self->run) - self->given) {
        return NULL;
    }
    return PyList_GET_ITEM(self->run, self->given + ahead);
}

static PyObject *
Runs_get_run(Runs *self, void *Py_UNUSED(closure))
{
    return Py_NewRef(self->run == NULL ? Py_None : self->run);
}

static int
Runs_set_run(Runs *self, PyObject *value, void *Py_UNUSED(closure))
{
    if (value != NULL && value != Py_None && !PyList_CheckExact(value)) {
        PyErr_SetString(PyExc_TypeError, "a run is a list, or None");
        return -1;
    }
    PyObject *old = self->run;
    self->run = value == NULL || value == Py_None ? NULL : Py_NewRef(value);
    self->given = 0;
    Py_XDECREF(old);
    return 0;
}

static int
Runs_traverse(Runs *self, visitproc visit, void *arg)
{
    Py_VISIT(self->run);
    return 0;
}

static int
Runs_clear(Runs *self)
{
    Py_CLEAR(self->run);
    return 0;
}

static void
Runs_dealloc(Runs *self)
{
    PyObject_GC_UnTrack(self);
    Runs_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyGetSetDef Runs_getset[] = {
    {"run", (getter)Runs_get_run, (setter)Runs_set_run,
     PyDoc_STR("The list being handed on (None: none); setting it starts it over."), NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef Runs_members[] = {
    {"given", T_PYSSIZET, offsetof(Runs, given), READONLY,
     PyDoc_STR("How many items of run were handed on.")},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject RunsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.Runs",
    .tp_doc = PyDoc_STR("Records handed on from the lists a subclass's _refill() sets."),
    .tp_basicsize = sizeof(Runs),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_BASETYPE,
    .tp_new = PyType_GenericNew,
    .tp_traverse = (traverseproc)Runs_traverse,
    .tp_clear = (inquiry)Runs_clear,
    .tp_dealloc = (destructor)Runs_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Runs_next,
    .tp_getset = Runs_getset,
    .tp_members = Runs_members,
};
