/* The propagation loop.  A Loop is Propagators._propagate: two first-in first-out queues
   (the cheap propagators, then the costly ones), the watch lists, the marks of what is
   queued; it calls a Kernel directly and any other propagator through Python. */
#include "loop.h"

typedef struct {
    PyObject_HEAD
    Py_ssize_t n, decisions;
    PyObject **props;        /* the propagators (strong references) */
    Kernel **kernels;        /* each one's Kernel, or NULL: called through Python */
    unsigned char *again;    /* not its own fixpoint: queued again by its own changes */
    unsigned char *slow;     /* costly: waits in the second queue */
    unsigned char *queued;   /* all 0 between runs */
    Py_ssize_t *first, *watch; /* the watch lists: watch[first[i] .. first[i + 1]] */
    Py_ssize_t *fast, *late; /* the two queues, rings of n places */
    Py_ssize_t *changes;     /* what one kernel narrowed */
    Py_ssize_t runs, failed;
    int busy;                /* in run(): a propagator may not run the loop again */
} Loop;

static int loop_clear(PyObject *self);

static void loop_free(Loop *loop) {
    loop_clear((PyObject *)loop);
    PyMem_Free(loop->props);
    PyMem_Free(loop->kernels);
    PyMem_Free(loop->again);
    PyMem_Free(loop->slow);
    PyMem_Free(loop->queued);
    PyMem_Free(loop->first);
    PyMem_Free(loop->watch);
    PyMem_Free(loop->fast);
    PyMem_Free(loop->late);
    PyMem_Free(loop->changes);
    loop->props = NULL;
    loop->kernels = NULL;
    loop->again = loop->slow = loop->queued = NULL;
    loop->first = loop->watch = loop->fast = loop->late = loop->changes = NULL;
    loop->n = 0;
}

static int loop_traverse(PyObject *self, visitproc visit, void *arg) {
    Loop *loop = (Loop *)self;
    if (loop->props != NULL)
        for (Py_ssize_t k = 0; k < loop->n; k++)
            Py_VISIT(loop->props[k]);
    return 0;
}

static int loop_clear(PyObject *self) {
    Loop *loop = (Loop *)self;
    if (loop->props != NULL)
        for (Py_ssize_t k = 0; k < loop->n; k++)
            Py_CLEAR(loop->props[k]);
    return 0;
}

static void loop_dealloc(PyObject *self) {
    PyObject_GC_UnTrack(self);
    loop_free((Loop *)self);
    Py_TYPE(self)->tp_free(self);
}

static int flags(PyObject *items, Py_ssize_t n, unsigned char *out, const char *what) {
    PyObject *seq = PySequence_Fast(items, what);
    if (seq == NULL)
        return -1;
    if (PySequence_Fast_GET_SIZE(seq) != n) {
        PyErr_Format(PyExc_ValueError, "%s: %zd flags for %zd propagators", what,
                     PySequence_Fast_GET_SIZE(seq), n);
        Py_DECREF(seq);
        return -1;
    }
    for (Py_ssize_t k = 0; k < n; k++) {
        int truth = PyObject_IsTrue(PySequence_Fast_GET_ITEM(seq, k));
        if (truth < 0) {
            Py_DECREF(seq);
            return -1;
        }
        out[k] = (unsigned char)truth;
    }
    Py_DECREF(seq);
    return 0;
}

/* Loop(propagators, watchers, idempotent, slow) */
static int loop_init(PyObject *self, PyObject *args, PyObject *kwargs) {
    Loop *loop = (Loop *)self;
    static char *names[] = {"propagators", "watchers", "idempotent", "slow", NULL};
    PyObject *props_obj, *watchers_obj, *idem_obj, *slow_obj;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOO", names, &props_obj, &watchers_obj,
                                     &idem_obj, &slow_obj))
        return -1;
    loop_free(loop);
    PyObject *props = PySequence_Fast(props_obj, "the propagators must be a sequence");
    if (props == NULL)
        return -1;
    PyObject *watchers = PySequence_Fast(watchers_obj, "the watch lists must be a sequence");
    if (watchers == NULL) {
        Py_DECREF(props);
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(props);
    Py_ssize_t decisions = PySequence_Fast_GET_SIZE(watchers);
    Py_ssize_t places = n ? n : 1, most_changes = 2, watched = 0;
    int status = -1;
    loop->props = PyMem_Calloc(places, sizeof(PyObject *));
    loop->kernels = PyMem_Calloc(places, sizeof(Kernel *));
    loop->again = PyMem_Calloc(places, 1);
    loop->slow = PyMem_Calloc(places, 1);
    loop->queued = PyMem_Calloc(places, 1);
    loop->fast = PyMem_Calloc(places, sizeof(Py_ssize_t));
    loop->late = PyMem_Calloc(places, sizeof(Py_ssize_t));
    loop->first = PyMem_Calloc(decisions + 1, sizeof(Py_ssize_t));
    if (!loop->props || !loop->kernels || !loop->again || !loop->slow || !loop->queued ||
        !loop->fast || !loop->late || !loop->first) {
        PyErr_NoMemory();
        goto done;
    }
    loop->n = n;
    loop->decisions = decisions;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *prop = PySequence_Fast_GET_ITEM(props, k);
        if (!PyCallable_Check(prop)) {
            PyErr_Format(PyExc_TypeError, "propagator %zd is not callable", k);
            goto done;
        }
        loop->props[k] = Py_NewRef(prop);
        if (Py_IS_TYPE(prop, &KernelType)) {
            Kernel *kernel = (Kernel *)prop;
            loop->kernels[k] = kernel;
            if (kernel->reach > decisions) {
                PyErr_Format(PyExc_ValueError, "propagator %zd reads decision %zd of %zd", k,
                             kernel->reach - 1, decisions);
                goto done;
            }
            if (most(kernel) > most_changes)
                most_changes = most(kernel);
        }
    }
    if (flags(idem_obj, n, loop->again, "idempotent") < 0 ||
        flags(slow_obj, n, loop->slow, "slow") < 0)
        goto done;
    for (Py_ssize_t k = 0; k < n; k++)
        loop->again[k] = !loop->again[k];
    /* the watch lists, flattened */
    for (Py_ssize_t i = 0; i < decisions; i++) {
        Py_ssize_t size = PyObject_Length(PySequence_Fast_GET_ITEM(watchers, i));
        if (size < 0)
            goto done;
        watched += size;
        loop->first[i + 1] = watched;
    }
    loop->watch = PyMem_Calloc(watched ? watched : 1, sizeof(Py_ssize_t));
    loop->changes = PyMem_Calloc(most_changes, sizeof(Py_ssize_t));
    if (!loop->watch || !loop->changes) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < decisions; i++) {
        PyObject *list = PySequence_Fast(PySequence_Fast_GET_ITEM(watchers, i),
                                         "a watch list must be a sequence");
        if (list == NULL)
            goto done;
        Py_ssize_t size = PySequence_Fast_GET_SIZE(list);
        if (size != loop->first[i + 1] - loop->first[i]) {
            Py_DECREF(list);
            PyErr_SetString(PyExc_ValueError, "a watch list changed while it was read");
            goto done;
        }
        for (Py_ssize_t w = 0; w < size; w++) {
            Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(list, w));
            if (k == -1 && PyErr_Occurred()) {
                Py_DECREF(list);
                goto done;
            }
            if (k < 0 || k >= n) {
                Py_DECREF(list);
                PyErr_Format(PyExc_ValueError, "decision %zd watches propagator %zd of %zd", i,
                             k, n);
                goto done;
            }
            loop->watch[loop->first[i] + w] = k;
        }
        Py_DECREF(list);
    }
    status = 0;
done:
    if (status < 0)
        loop_free(loop);
    Py_DECREF(props);
    Py_DECREF(watchers);
    return status;
}

/* The ring queues: at most n places, since a propagator is queued at most once. */
typedef struct {
    Py_ssize_t *ring, head, count, size;
} Queue;

static inline void push(Queue *q, Py_ssize_t k) {
    Py_ssize_t at = q->head + q->count;
    q->ring[at >= q->size ? at - q->size : at] = k;
    q->count++;
}

static inline Py_ssize_t pop(Queue *q) {
    Py_ssize_t k = q->ring[q->head];
    q->head = q->head + 1 == q->size ? 0 : q->head + 1;
    q->count--;
    return k;
}

static inline void enqueue(Loop *loop, Queue *fast, Queue *late, Py_ssize_t k) {
    loop->queued[k] = 1;
    push(loop->slow[k] ? late : fast, k);
}

/* Whatever is still queued, back at rest for the next run. */
static void settle(Loop *loop, Queue *fast, Queue *late) {
    while (fast->count)
        loop->queued[pop(fast)] = 0;
    while (late->count)
        loop->queued[pop(late)] = 0;
}

/* Queue the watchers of decision i, but not k itself unless `again`. */
static inline int wake(Loop *loop, Queue *fast, Queue *late, Py_ssize_t i, Py_ssize_t k,
                       int again) {
    if (i < 0 || i >= loop->decisions) {
        PyErr_Format(PyExc_IndexError, "propagator %zd narrowed decision %zd of %zd", k, i,
                     loop->decisions);
        return -1;
    }
    for (Py_ssize_t w = loop->first[i]; w < loop->first[i + 1]; w++) {
        Py_ssize_t other = loop->watch[w];
        if (!loop->queued[other] && (other != k || again))
            enqueue(loop, fast, late, other);
    }
    return 0;
}

/* A Python propagator's run: how many decisions it narrowed, each woken; FAILED; ERROR. */
static Py_ssize_t call(Loop *loop, Queue *fast, Queue *late, Py_ssize_t k, PyObject *doms) {
    PyObject *result = PyObject_CallOneArg(loop->props[k], doms);
    if (result == NULL)
        return ERROR;
    if (PyList_GET_SIZE(doms) < loop->decisions) { /* the kernels read them unchecked */
        Py_DECREF(result);
        PyErr_Format(PyExc_RuntimeError, "propagator %zd left %zd domains of %zd", k,
                     PyList_GET_SIZE(doms), loop->decisions);
        return ERROR;
    }
    if (result == Py_None) {
        Py_DECREF(result);
        return FAILED;
    }
    PyObject *seq = PySequence_Fast(result, "a propagator returns a sequence of decisions");
    Py_DECREF(result);
    if (seq == NULL)
        return ERROR;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(seq);
    for (Py_ssize_t n = 0; n < size; n++) {
        Py_ssize_t i = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(seq, n));
        if ((i == -1 && PyErr_Occurred()) || wake(loop, fast, late, i, k, loop->again[k]) < 0) {
            Py_DECREF(seq);
            return ERROR;
        }
    }
    Py_DECREF(seq);
    return size;
}

/* Every INTERRUPT_EVERY propagator runs of one fixpoint (kernels.INTERRUPT_EVERY), the
   signals are handled and `check` called (None: not): either may raise, which ends the run
   as a propagator's error does.  A propagation that creeps (bounds moved one value a run
   round a cycle over wide domains) would otherwise hold the search past its limits. */
#define INTERRUPT_EVERY 256

static int interrupted(PyObject *check) {
    if (PyErr_CheckSignals() < 0)
        return 1;
    if (check == Py_None)
        return 0;
    PyObject *result = PyObject_CallNoArgs(check);
    if (result == NULL)
        return 1;
    Py_DECREF(result);
    return 0;
}

/* The propagators to a fixpoint from the seeds and the watchers of `touched`. */
static PyObject *fixpoint(Loop *loop, PyObject *doms, PyObject *touched_obj,
                          PyObject *seeds_obj, PyObject *check) {
    Queue fast = {loop->fast, 0, 0, loop->n ? loop->n : 1};
    Queue late = {loop->late, 0, 0, loop->n ? loop->n : 1};
    loop->runs = 0;
    loop->failed = -1;
    PyObject *seeds = PySequence_Fast(seeds_obj, "the seeds must be a sequence");
    if (seeds == NULL)
        return NULL;
    for (Py_ssize_t s = 0; s < PySequence_Fast_GET_SIZE(seeds); s++) {
        Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(seeds, s));
        if (k == -1 && PyErr_Occurred())
            goto error_seeds;
        if (k < 0 || k >= loop->n) {
            PyErr_Format(PyExc_IndexError, "seed %zd of %zd propagators", k, loop->n);
            goto error_seeds;
        }
        if (!loop->queued[k]) {
            loop->queued[k] = 1;
            push(&fast, k);
        }
    }
    Py_DECREF(seeds);
    PyObject *touched = PySequence_Fast(touched_obj, "the decisions touched must be a sequence");
    if (touched == NULL)
        goto error;
    for (Py_ssize_t t = 0; t < PySequence_Fast_GET_SIZE(touched); t++) {
        Py_ssize_t i = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(touched, t));
        if ((i == -1 && PyErr_Occurred()) || wake(loop, &fast, &late, i, -1, 1) < 0) {
            Py_DECREF(touched);
            goto error;
        }
    }
    Py_DECREF(touched);
    for (;;) {
        Py_ssize_t k;
        if (fast.count)
            k = pop(&fast);
        else if (late.count)
            k = pop(&late);
        else
            break;
        loop->queued[k] = 0;
        loop->runs++;
        if (loop->runs % INTERRUPT_EVERY == 0 && interrupted(check))
            goto error;
        Kernel *kernel = loop->kernels[k];
        Py_ssize_t count;
        if (kernel != NULL) {
            count = kernel_run(kernel, doms, loop->changes);
            for (Py_ssize_t c = 0; c < count; c++)
                if (wake(loop, &fast, &late, loop->changes[c], k, loop->again[k]) < 0)
                    goto error;
        } else {
            count = call(loop, &fast, &late, k, doms);
        }
        if (count == ERROR)
            goto error;
        if (count == FAILED) {
            settle(loop, &fast, &late);
            loop->failed = k;
            Py_RETURN_FALSE;
        }
    }
    Py_RETURN_TRUE;
error_seeds:
    Py_DECREF(seeds);
error:
    settle(loop, &fast, &late);
    return NULL;
}

/* run(doms, touched, seeds, check=None): True, or False when a propagator fails (its
   index in `failed`); `runs` counts the propagators run. */
static PyObject *loop_run(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Loop *loop = (Loop *)self;
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "run(doms, touched, seeds, check=None)");
        return NULL;
    }
    if (loop->props == NULL) {
        PyErr_SetString(PyExc_ValueError, "the loop was not built");
        return NULL;
    }
    if (reachable(args[0], loop->decisions) < 0)
        return NULL;
    if (loop->busy) {
        PyErr_SetString(PyExc_RuntimeError, "a propagator ran the loop that runs it");
        return NULL;
    }
    loop->busy = 1;
    PyObject *result = fixpoint(loop, args[0], args[1], args[2], nargs == 4 ? args[3] : Py_None);
    loop->busy = 0;
    return result;
}

static PyObject *loop_get_runs(PyObject *self, void *closure) {
    (void)closure;
    return PyLong_FromSsize_t(((Loop *)self)->runs);
}

static PyObject *loop_get_failed(PyObject *self, void *closure) {
    (void)closure;
    return PyLong_FromSsize_t(((Loop *)self)->failed);
}

static PyMethodDef loop_methods[] = {
    {"run", (PyCFunction)(void (*)(void))loop_run, METH_FASTCALL,
     "run(doms, touched, seeds, check=None): the propagators to a fixpoint, starting from "
     "the seeds and the watchers of the decisions touched; False when one fails.  Every "
     "256 runs the signals are handled and check() called: either may raise, which "
     "ends the run."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef loop_getset[] = {
    {"runs", loop_get_runs, NULL, "propagator runs in the last run()", NULL},
    {"failed", loop_get_failed, NULL, "the propagator that failed the last run(), or -1", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject LoopType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.csp.propagation._kernels.Loop",
    .tp_doc = "Loop(propagators, watchers, idempotent, slow): the propagation loop in C.",
    .tp_basicsize = sizeof(Loop),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_init = loop_init,
    .tp_dealloc = loop_dealloc,
    .tp_traverse = loop_traverse,
    .tp_clear = loop_clear,
    .tp_methods = loop_methods,
    .tp_getset = loop_getset,
};
