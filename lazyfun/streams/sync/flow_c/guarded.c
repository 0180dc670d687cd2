/* Guarded: a Stream's catch, the exceptions of recovery.errors recovered (see steps.h). */
#include "steps.h"

typedef struct {
    PyObject_HEAD
    PyObject *source;   /* an iterator; NULL once it ended or the step stopped */
    PyObject *recovery;
    PyObject *errors;   /* recovery.errors, read once */
    PyObject *dropped;
    int running;
} Guarded;

/* The raised exception, taken out of the error indicator, traceback attached. */
static PyObject *
take_raised(void)
{
#if PY_VERSION_HEX >= 0x030C0000
    return PyErr_GetRaisedException();
#else
    PyObject *type, *value, *traceback;
    PyErr_Fetch(&type, &value, &traceback);
    PyErr_NormalizeException(&type, &value, &traceback);
    if (traceback != NULL) {
        PyException_SetTraceback(value, traceback);
    }
    Py_XDECREF(type);
    Py_XDECREF(traceback);
    return value;
#endif
}

/* Raise error again (taking its reference), as take_raised took it. */
static void
give_back(PyObject *error)
{
#if PY_VERSION_HEX >= 0x030C0000
    PyErr_SetRaisedException(error);
#else
    PyErr_Restore(Py_NewRef(Py_TYPE(error)), error, PyException_GetTraceback(error));
#endif
}

static PyObject *
Guarded_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"source", "recovery", "dropped", NULL};
    PyObject *source, *recovery, *dropped;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO:Guarded", names, &source, &recovery,
                                     &dropped)) {
        return NULL;
    }
    PyObject *errors = PyObject_GetAttrString(recovery, "errors");
    if (errors == NULL) {
        return NULL;
    }
    PyObject *items = PyObject_GetIter(source);
    if (items == NULL) {
        Py_DECREF(errors);
        return NULL;
    }
    Guarded *self = (Guarded *)type->tp_alloc(type, 0);
    if (self == NULL) {
        Py_DECREF(errors);
        Py_DECREF(items);
        return NULL;
    }
    self->source = items;
    self->errors = errors;
    self->recovery = Py_NewRef(recovery);
    self->dropped = Py_NewRef(dropped);
    return (PyObject *)self;
}

static int
Guarded_traverse(Guarded *self, visitproc visit, void *arg)
{
    Py_VISIT(self->source);
    Py_VISIT(self->recovery);
    Py_VISIT(self->errors);
    Py_VISIT(self->dropped);
    return 0;
}

static int
Guarded_clear(Guarded *self)
{
    Py_CLEAR(self->source);
    Py_CLEAR(self->recovery);
    Py_CLEAR(self->errors);
    Py_CLEAR(self->dropped);
    return 0;
}

static void
Guarded_dealloc(Guarded *self)
{
    PyObject_GC_UnTrack(self);
    Guarded_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* recovery.recover(error), called as inside the `except` that caught it (an exception
 * it raises has error as its context); NULL if it raised. */
static PyObject *
recover(Guarded *self, PyObject *error)
{
    PyObject *handled = PyErr_GetHandledException();
    PyErr_SetHandledException(error);
    PyObject *item = PyObject_CallMethod(self->recovery, "recover", "O", error);
    PyErr_SetHandledException(handled);
    Py_XDECREF(handled);
    return item;
}

/* Whether recovery.stopped; -1 on an error. */
static int
stopped(Guarded *self)
{
    PyObject *flag = PyObject_GetAttrString(self->recovery, "stopped");
    if (flag == NULL) {
        return -1;
    }
    int result = PyObject_IsTrue(flag);
    Py_DECREF(flag);
    return result;
}

static PyObject *
Guarded_next_running(Guarded *self)
{
    while (self->source != NULL) {
        PyObject *item = Py_TYPE(self->source)->tp_iternext(self->source);
        if (item != NULL) {
            return item;
        }
        if (ended()) {
            Py_CLEAR(self->source);
            return NULL;
        }
        if (!PyErr_ExceptionMatches(self->errors)) {
            return NULL;
        }
        PyObject *error = take_raised();
        item = recover(self, error);
        Py_DECREF(error);
        PyObject *raised = item == NULL ? take_raised() : NULL;
        int stop = stopped(self);
        if (stop != 0) {
            Py_CLEAR(self->source);
        }
        if (raised != NULL) {
            if (stop < 0) {
                PyErr_Clear();
            }
            give_back(raised);
            return NULL;
        }
        if (stop < 0) {
            Py_DECREF(item);
            return NULL;
        }
        if (item != self->dropped) {
            return item;
        }
        Py_DECREF(item);
    }
    return NULL;
}

PyObject *
guarded_source(PyObject *guarded)
{
    return ((Guarded *)guarded)->source;
}

static PyObject *
Guarded_next(Guarded *self)
{
    if (enter(&self->running) < 0) {
        return NULL;
    }
    PyObject *item = Guarded_next_running(self);
    self->running = 0;
    return item;
}

PyTypeObject GuardedType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.Guarded",
    .tp_doc = PyDoc_STR("The items of a source, its exceptions of recovery.errors recovered."),
    .tp_basicsize = sizeof(Guarded),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Guarded_new,
    .tp_traverse = (traverseproc)Guarded_traverse,
    .tp_clear = (inquiry)Guarded_clear,
    .tp_dealloc = (destructor)Guarded_dealloc,
    .tp_iter = PyObject_SelfIter,
    .tp_iternext = (iternextfunc)Guarded_next,
};
