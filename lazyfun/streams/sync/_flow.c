/* The hot steps of a Stream as C iterators: the fast engine beside the readable Python
 * forms of lazyfun/streams/sync/steps.py (take, catch and throttle's stretches), with the
 * same behaviour; lazyfun/streams/sync/flow.py chooses between them.
 *
 * Guarded(source, recovery, dropped): the items of source; an exception of
 * recovery.errors is handed to recovery.recover(error), whose result is yielded in its
 * place, or nothing when it is `dropped`; once recovery.stopped, the iterator ends.
 * Any other exception passes on unchanged and the next read goes on.
 *
 * Counted(source, n, on_last=None, refill=None): at most n items of source, counting
 * only items: an exception passes on uncounted and the next read goes on.  on_last()
 * is called once the nth item is read, before it is returned; then, given refill,
 * the next read first asks refill() for the next allowance (at least 1) and goes on,
 * which is a throttle: refill waits until more may come.  `left` is how many more
 * may come before that.
 *
 * Tally(source, lists=False, hold=None): the items of source, unchanged, counted for
 * a Stream's explain: `items` and `errors` that passed, the `seconds` spent in the
 * source's next (a monotonic clock), and `held`: the longest item when `lists`, and
 * the most hold() said (an int, or None for nothing to say) after an item.
 *
 * Calls(f): f, each call counted in `made` (under the GIL, so from any thread).
 *
 * FlatMapped(source, f): the items of iter(f(x)) for each item x of source.  An
 * exception from source, from f or from iter passes on at its place and the next read
 * goes on with the next x; one from an inner iterator passes on too, and the next read
 * reads that iterator on (a generator that raised has ended; an iterator object may go
 * on).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#ifdef _WIN32
#include <windows.h>
#else
#include <time.h>
#endif

typedef struct {
    PyObject_HEAD
    PyObject *source;   /* an iterator; NULL once it ended or the step stopped */
    PyObject *recovery;
    PyObject *errors;   /* recovery.errors, read once */
    PyObject *dropped;
    int running;
} Guarded;

typedef struct {
    PyObject_HEAD
    PyObject *source;   /* an iterator; NULL once it ended */
    PyObject *on_last;  /* NULL for none */
    PyObject *refill;   /* NULL for none */
    Py_ssize_t left;
    int running;
} Counted;

typedef struct {
    PyObject_HEAD
    PyObject *source;   /* an iterator; NULL once it ended */
    PyObject *f;
    PyObject *inner;    /* the iterator of f(x) being read; NULL between two */
    int running;
} FlatMapped;

typedef struct {
    PyObject_HEAD
    PyObject *source;   /* an iterator; NULL once it ended */
    PyObject *hold;     /* NULL for none */
    Py_ssize_t items, errors, held;
    double seconds;
    int lists;
    int running;
} Tally;

static int
enter(int *running)
{
    if (*running) {
        PyErr_SetString(PyExc_ValueError, "iterator already executing");
        return -1;
    }
    *running = 1;
    return 0;
}

/* After the source's tp_iternext gave NULL: 1 if it ended (StopIteration cleared),
 * 0 if an error is set. */
static int
ended(void)
{
    if (!PyErr_Occurred()) {
        return 1;
    }
    if (PyErr_ExceptionMatches(PyExc_StopIteration)) {
        PyErr_Clear();
        return 1;
    }
    return 0;
}

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

/* ---- Guarded ---------------------------------------------------------------- */

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

static PyTypeObject GuardedType = {
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

/* ---- Counted ---------------------------------------------------------------- */

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

static PyTypeObject CountedType = {
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

/* ---- Tally ------------------------------------------------------------------ */

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

static PyTypeObject TallyType = {
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

static PyTypeObject CallsType = {
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

/* ---- FlatMapped ------------------------------------------------------------- */

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

static PyTypeObject FlatMappedType = {
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

/* ---- the module --------------------------------------------------------------- */

static int
flow_exec(PyObject *module)
{
    if (PyType_Ready(&GuardedType) < 0 || PyType_Ready(&CountedType) < 0
        || PyType_Ready(&TallyType) < 0 || PyType_Ready(&CallsType) < 0
        || PyType_Ready(&FlatMappedType) < 0) {
        return -1;
    }
    if (PyModule_AddObjectRef(module, "Guarded", (PyObject *)&GuardedType) < 0
        || PyModule_AddObjectRef(module, "Tally", (PyObject *)&TallyType) < 0
        || PyModule_AddObjectRef(module, "Calls", (PyObject *)&CallsType) < 0
        || PyModule_AddObjectRef(module, "FlatMapped", (PyObject *)&FlatMappedType) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "Counted", (PyObject *)&CountedType);
}

static PyModuleDef_Slot flow_slots[] = {
    {Py_mod_exec, flow_exec},
    {0, NULL},
};

static struct PyModuleDef flow_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "lazyfun.streams.sync._flow",
    .m_doc = PyDoc_STR("The hot steps of a Stream as C iterators (see lazyfun.streams.sync.flow)."),
    .m_size = 0,
    .m_slots = flow_slots,
};

PyMODINIT_FUNC
PyInit__flow(void)
{
    return PyModuleDef_Init(&flow_module);
}
