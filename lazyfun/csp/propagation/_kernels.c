/* The constraint solver's commonest propagators, and its propagation loop, in C.

   A domain is a bit set over its decision's offset, held in a Python list of ints (see
   lazyfun/csp/propagation/propagators.py).  A Kernel is one propagator: called with the
   list, it narrows domains in place and returns the decisions it narrowed (a tuple), or
   None when its constraint cannot hold, exactly as the Python closure it stands for
   (lazyfun.csp.propagation.nonlinear and .filters hold the readable forms, with the same
   answers, in the same order).  A kernel is built only over decisions whose first domain
   fits in WIDTH bits, so each domain is one machine word.

   A Loop is Propagators._propagate: two first-in first-out queues (the cheap propagators,
   then the costly ones), the watch lists, the marks of what is queued; it calls a Kernel
   directly and any other propagator through Python. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>

#define WIDTH 62
#define FAILED (-1)
#define ERROR (-2)

enum kind { CLAUSE, REIFIED_CLAUSE, REIFIED_SHIFT, REIFIED_UNARY, LINEAR };

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    enum kind kind;
    Py_ssize_t size;     /* literals, or terms */
    Py_ssize_t reach;    /* the largest decision + 1 */
    Py_ssize_t *at;      /* the literals' or terms' decisions */
    uint64_t *bit;       /* a clause's wanted bits */
    int64_t *scale;      /* a linear term's coefficient, its sign in rising */
    char *rising;
    Py_ssize_t truth, x, y;
    uint64_t when;       /* reified clause: when; shift: equal; unary: meets */
    int64_t shift;       /* shift: y's bits moved onto x's; linear: the constant part */
    int equal;           /* linear: == rather than <= */
} Kernel;

static PyTypeObject KernelType;

/* ---- domains as words ---------------------------------------------------------- */

static inline int get(PyObject *doms, Py_ssize_t i, uint64_t *out) {
    PyObject *item = PyList_GET_ITEM(doms, i);
    uint64_t bits = PyLong_AsUnsignedLongLong(item);
    if (bits >> WIDTH) { /* (uint64_t)-1 on an error, or wider than the kernel was built for */
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "decision %zd: a domain wider than %d bits", i, WIDTH);
        return -1;
    }
    *out = bits;
    return 0;
}

static inline int put(PyObject *doms, Py_ssize_t i, uint64_t bits) {
    PyObject *value = PyLong_FromUnsignedLongLong(bits);
    if (value == NULL)
        return -1;
    PyObject *old = PyList_GET_ITEM(doms, i);
    PyList_SET_ITEM(doms, i, value);
    Py_DECREF(old);
    return 0;
}

static inline int single(uint64_t bits) { return !(bits & (bits - 1)); }

static inline uint64_t moved(uint64_t bits, int64_t by) {
    if (by >= 0)
        return by >= 64 ? 0 : bits << by;
    return by <= -64 ? 0 : bits >> -by;
}

static inline int64_t lowest(uint64_t bits) { return __builtin_ctzll(bits); }
static inline int64_t highest(uint64_t bits) { return 63 - __builtin_clzll(bits); }

#define GET(i, var) do { if (get(doms, (i), &(var)) < 0) return ERROR; } while (0)
#define PUT(i, var) do { if (put(doms, (i), (var)) < 0) return ERROR; } while (0)

/* ---- the kernels: each returns how many decisions it narrowed (written to out), FAILED
   or ERROR ---------------------------------------------------------------------------- */

/* At least one literal holds; with all but one false, that one is set. */
static Py_ssize_t clause(Kernel *k, PyObject *doms, Py_ssize_t *out) {
    Py_ssize_t last = -1;
    uint64_t want = 0;
    for (Py_ssize_t n = 0; n < k->size; n++) {
        uint64_t bits;
        GET(k->at[n], bits);
        uint64_t bit = k->bit[n];
        if (bits == bit)
            return 0;
        if (bits & bit) {
            if (last >= 0)
                return 0;
            last = k->at[n];
            want = bit;
        }
    }
    if (last < 0)
        return FAILED;
    PUT(last, want);
    out[0] = last;
    return 1;
}

/* truth is `when` exactly when some literal holds. */
static Py_ssize_t reified_clause(Kernel *k, PyObject *doms, Py_ssize_t *out) {
    uint64_t bits, other = k->when ^ 3;
    GET(k->truth, bits);
    if (bits == k->when)
        return clause(k, doms, out);
    if (bits == other) {
        Py_ssize_t changed = 0;
        for (Py_ssize_t n = 0; n < k->size; n++) {
            uint64_t held, bit = k->bit[n];
            GET(k->at[n], held);
            if (held == bit)
                return FAILED;
            if (held & bit) {
                PUT(k->at[n], held ^ bit);
                out[changed++] = k->at[n];
            }
        }
        return changed;
    }
    int open = 0;
    for (Py_ssize_t n = 0; n < k->size; n++) {
        uint64_t held, bit = k->bit[n];
        GET(k->at[n], held);
        if (held == bit) {
            PUT(k->truth, k->when);
            out[0] = k->truth;
            return 1;
        }
        if (held & bit)
            open = 1;
    }
    if (open)
        return 0;
    PUT(k->truth, other);
    out[0] = k->truth;
    return 1;
}

/* truth is `equal` exactly when x == y + k: y's bits moved by `shift` onto x's. */
static Py_ssize_t reified_shift(Kernel *k, PyObject *doms, Py_ssize_t *out) {
    uint64_t state, bx, by, equal = k->when, differ = k->when ^ 3;
    GET(k->truth, state);
    GET(k->x, bx);
    GET(k->y, by);
    if (state == equal) {
        uint64_t nx = bx & moved(by, k->shift);
        uint64_t ny = by & moved(nx, -k->shift);
        if (!nx || !ny)
            return FAILED;
        Py_ssize_t changed = 0;
        if (nx != bx) {
            PUT(k->x, nx);
            out[changed++] = k->x;
        }
        if (ny != by) {
            PUT(k->y, ny);
            out[changed++] = k->y;
        }
        return changed;
    }
    if (state == differ) {
        if (single(by)) {
            uint64_t nx = bx & ~moved(by, k->shift);
            if (!nx)
                return FAILED;
            if (nx == bx)
                return 0;
            PUT(k->x, nx);
            out[0] = k->x;
            return 1;
        }
        if (single(bx)) {
            uint64_t ny = by & ~moved(bx, -k->shift);
            if (!ny)
                return FAILED;
            if (ny == by)
                return 0;
            PUT(k->y, ny);
            out[0] = k->y;
            return 1;
        }
        return 0;
    }
    if (!(bx & moved(by, k->shift))) {
        PUT(k->truth, differ);
        out[0] = k->truth;
        return 1;
    }
    if (single(bx) && single(by)) {
        PUT(k->truth, equal);
        out[0] = k->truth;
        return 1;
    }
    return 0;
}

/* truth is 1 exactly when x takes one of the values of the bit set `meets`. */
static Py_ssize_t reified_unary(Kernel *k, PyObject *doms, Py_ssize_t *out) {
    uint64_t bits, held, meets = k->when;
    GET(k->truth, bits);
    GET(k->x, held);
    if (bits == 2 || bits == 1) {
        uint64_t kept = bits == 2 ? held & meets : held & ~meets;
        if (!kept)
            return FAILED;
        if (kept == held)
            return 0;
        PUT(k->x, kept);
        out[0] = k->x;
        return 1;
    }
    if (!(held & meets)) {
        PUT(k->truth, 1);
        out[0] = k->truth;
        return 1;
    }
    if (!(held & ~meets)) {
        PUT(k->truth, 2);
        out[0] = k->truth;
        return 1;
    }
    return 0;
}

/* sum(a * x) + k <= 0 (or == 0): each term's range cut to what the others' extremes
   leave it, once (the loop runs it again while it narrows). */
static Py_ssize_t linear(Kernel *k, PyObject *doms, Py_ssize_t *out) {
    int64_t low = k->shift, high = k->shift, widest = 0;
    for (Py_ssize_t n = 0; n < k->size; n++) {
        uint64_t bits;
        GET(k->at[n], bits);
        int64_t lo = lowest(bits), hi = highest(bits), size = k->scale[n];
        if (k->rising[n]) {
            low += size * lo;
            high += size * hi;
        } else {
            low -= size * hi;
            high -= size * lo;
        }
        int64_t span = (hi - lo) * size;
        if (span > widest)
            widest = span;
    }
    if (low > 0 || (k->equal && high < 0))
        return FAILED;
    if (widest <= -low && (!k->equal || widest <= high))
        return 0;
    Py_ssize_t changed = 0;
    for (Py_ssize_t n = 0; n < k->size; n++) {
        uint64_t bits, was;
        GET(k->at[n], was);
        bits = was;
        int64_t lo = lowest(bits), hi = highest(bits), size = k->scale[n], new_lo, new_hi;
        if (k->rising[n]) {
            new_lo = k->equal ? hi - high / size : lo;
            new_hi = lo + -low / size;
        } else {
            new_lo = hi - -low / size;
            new_hi = k->equal ? lo + high / size : hi;
        }
        if (new_lo > lo)
            bits = bits >> new_lo << new_lo;
        if (new_hi < hi)
            bits &= ((uint64_t)1 << (new_hi + 1)) - 1;
        if (bits != was) {
            if (!bits)
                return FAILED;
            PUT(k->at[n], bits);
            out[changed++] = k->at[n];
        }
    }
    return changed;
}

static Py_ssize_t run(Kernel *k, PyObject *doms, Py_ssize_t *out) {
    switch (k->kind) {
    case CLAUSE:
        return clause(k, doms, out);
    case REIFIED_CLAUSE:
        return reified_clause(k, doms, out);
    case REIFIED_SHIFT:
        return reified_shift(k, doms, out);
    case REIFIED_UNARY:
        return reified_unary(k, doms, out);
    default:
        return linear(k, doms, out);
    }
}

/* The most decisions one run of the kernel can narrow. */
static Py_ssize_t most(Kernel *k) { return k->size > 2 ? k->size : 2; }

static int reachable(PyObject *doms, Py_ssize_t reach) {
    if (!PyList_CheckExact(doms)) {
        PyErr_Format(PyExc_TypeError, "the domains must be a list, not %.100s",
                     Py_TYPE(doms)->tp_name);
        return -1;
    }
    if (PyList_GET_SIZE(doms) < reach) {
        PyErr_Format(PyExc_IndexError, "%zd domains, the propagator reads decision %zd",
                     PyList_GET_SIZE(doms), reach - 1);
        return -1;
    }
    return 0;
}

/* kernel(doms): the decisions narrowed, as a tuple, or None when the constraint fails. */
static PyObject *kernel_call(PyObject *self, PyObject *const *args, size_t nargsf,
                             PyObject *kwnames) {
    Kernel *k = (Kernel *)self;
    if (PyVectorcall_NARGS(nargsf) != 1 || (kwnames && PyTuple_GET_SIZE(kwnames))) {
        PyErr_SetString(PyExc_TypeError, "a propagator takes the list of domains, alone");
        return NULL;
    }
    PyObject *doms = args[0];
    if (reachable(doms, k->reach) < 0)
        return NULL;
    Py_ssize_t out[2];
    Py_ssize_t *changes = most(k) > 2 ? PyMem_Malloc(most(k) * sizeof(Py_ssize_t)) : out;
    if (changes == NULL)
        return PyErr_NoMemory();
    Py_ssize_t count = run(k, doms, changes);
    PyObject *result;
    if (count == ERROR)
        result = NULL;
    else if (count == FAILED)
        result = Py_NewRef(Py_None);
    else {
        result = PyTuple_New(count);
        for (Py_ssize_t n = 0; result != NULL && n < count; n++) {
            PyObject *i = PyLong_FromSsize_t(changes[n]);
            if (i == NULL)
                Py_CLEAR(result);
            else
                PyTuple_SET_ITEM(result, n, i);
        }
    }
    if (changes != out)
        PyMem_Free(changes);
    return result;
}

static void kernel_dealloc(PyObject *self) {
    Kernel *k = (Kernel *)self;
    PyMem_Free(k->at);
    PyMem_Free(k->bit);
    PyMem_Free(k->scale);
    PyMem_Free(k->rising);
    Py_TYPE(self)->tp_free(self);
}

static const char *KIND_NAMES[] = {"clause", "reified_clause", "reified_shift",
                                   "reified_unary", "linear"};

static PyObject *kernel_repr(PyObject *self) {
    Kernel *k = (Kernel *)self;
    return PyUnicode_FromFormat("<lazyfun C kernel %s over %zd decisions>", KIND_NAMES[k->kind],
                                k->reach);
}

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.csp.propagation._kernels.Kernel",
    .tp_doc = "One propagator in C: called with the list of domains, it narrows them in "
              "place and returns the decisions narrowed, or None when its constraint fails.",
    .tp_basicsize = sizeof(Kernel),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_vectorcall_offset = offsetof(Kernel, vectorcall),
    .tp_call = PyVectorcall_Call,
    .tp_dealloc = kernel_dealloc,
    .tp_repr = kernel_repr,
};

/* ---- building kernels ------------------------------------------------------------- */

static Kernel *new_kernel(enum kind kind, Py_ssize_t size) {
    Kernel *k = PyObject_New(Kernel, &KernelType);
    if (k == NULL)
        return NULL;
    k->vectorcall = kernel_call;
    k->kind = kind;
    k->size = size;
    k->reach = 0;
    k->at = PyMem_Calloc(size ? size : 1, sizeof(Py_ssize_t));
    k->bit = PyMem_Calloc(size ? size : 1, sizeof(uint64_t));
    k->scale = NULL;
    k->rising = NULL;
    k->truth = k->x = k->y = 0;
    k->when = 0;
    k->shift = 0;
    k->equal = 0;
    if (k->at == NULL || k->bit == NULL) {
        Py_DECREF(k);
        PyErr_NoMemory();
        return NULL;
    }
    return k;
}

static int decision(Kernel *k, Py_ssize_t i) {
    if (i < 0) {
        PyErr_Format(PyExc_ValueError, "decision %zd: decisions are counted from 0", i);
        return -1;
    }
    if (i + 1 > k->reach)
        k->reach = i + 1;
    return 0;
}

static int bit_of(PyObject *value, uint64_t *out) {
    uint64_t bits = PyLong_AsUnsignedLongLong(value);
    if (bits >> WIDTH) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_OverflowError, "a bit set wider than %d bits", WIDTH);
        return -1;
    }
    *out = bits;
    return 0;
}

/* The literals (decision, bit) of a clause, into k. */
static int literals(Kernel *k, PyObject *items) {
    for (Py_ssize_t n = 0; n < k->size; n++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(items, n);
        Py_ssize_t i;
        uint64_t bit;
        if (!PyArg_ParseTuple(pair, "nK", &i, &bit))
            return -1;
        if (bit != 1 && bit != 2) {
            PyErr_SetString(PyExc_ValueError, "a literal's bit is 0b01 (0) or 0b10 (1)");
            return -1;
        }
        if (decision(k, i) < 0)
            return -1;
        k->at[n] = i;
        k->bit[n] = bit;
    }
    return 0;
}

static PyObject *make_clause(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *items;
    if (!PyArg_ParseTuple(args, "O", &items))
        return NULL;
    PyObject *seq = PySequence_Fast(items, "the literals must be a sequence");
    if (seq == NULL)
        return NULL;
    Kernel *k = new_kernel(CLAUSE, PySequence_Fast_GET_SIZE(seq));
    if (k != NULL && literals(k, seq) < 0)
        Py_CLEAR(k);
    Py_DECREF(seq);
    return (PyObject *)k;
}

static PyObject *make_reified_clause(PyObject *module, PyObject *args) {
    (void)module;
    Py_ssize_t truth;
    unsigned long long when;
    PyObject *items;
    if (!PyArg_ParseTuple(args, "nKO", &truth, &when, &items))
        return NULL;
    if (when != 1 && when != 2) {
        PyErr_SetString(PyExc_ValueError, "when is 0b01 (0) or 0b10 (1)");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(items, "the literals must be a sequence");
    if (seq == NULL)
        return NULL;
    Kernel *k = new_kernel(REIFIED_CLAUSE, PySequence_Fast_GET_SIZE(seq));
    if (k != NULL && (literals(k, seq) < 0 || decision(k, truth) < 0))
        Py_CLEAR(k);
    Py_DECREF(seq);
    if (k != NULL) {
        k->truth = truth;
        k->when = when;
    }
    return (PyObject *)k;
}

static PyObject *make_reified_shift(PyObject *module, PyObject *args) {
    (void)module;
    Py_ssize_t truth, x, y;
    long long shift;
    unsigned long long equal;
    if (!PyArg_ParseTuple(args, "nnnLK", &truth, &x, &y, &shift, &equal))
        return NULL;
    if (equal != 1 && equal != 2) {
        PyErr_SetString(PyExc_ValueError, "equal is 0b01 (0) or 0b10 (1)");
        return NULL;
    }
    Kernel *k = new_kernel(REIFIED_SHIFT, 0);
    if (k == NULL)
        return NULL;
    if (decision(k, truth) < 0 || decision(k, x) < 0 || decision(k, y) < 0) {
        Py_DECREF(k);
        return NULL;
    }
    k->truth = truth;
    k->x = x;
    k->y = y;
    k->shift = shift;
    k->when = equal;
    return (PyObject *)k;
}

static PyObject *make_reified_unary(PyObject *module, PyObject *args) {
    (void)module;
    Py_ssize_t truth, x;
    PyObject *meets;
    if (!PyArg_ParseTuple(args, "nnO!", &truth, &x, &PyLong_Type, &meets))
        return NULL;
    Kernel *k = new_kernel(REIFIED_UNARY, 0);
    if (k == NULL)
        return NULL;
    if (decision(k, truth) < 0 || decision(k, x) < 0 || bit_of(meets, &k->when) < 0) {
        Py_DECREF(k);
        return NULL;
    }
    k->truth = truth;
    k->x = x;
    return (PyObject *)k;
}

/* The terms (decision, coefficient, offset) and the constant: the sums it can reach must
   stay within 62 bits, else OverflowError (the Python closure then runs). */
static PyObject *make_linear(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *items, *constant_obj;
    int equal;
    if (!PyArg_ParseTuple(args, "OOp", &items, &constant_obj, &equal))
        return NULL;
    PyObject *seq = PySequence_Fast(items, "the terms must be a sequence");
    if (seq == NULL)
        return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(seq);
    Kernel *k = new_kernel(LINEAR, size);
    if (k == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    k->equal = equal;
    k->scale = PyMem_Calloc(size ? size : 1, sizeof(int64_t));
    k->rising = PyMem_Calloc(size ? size : 1, 1);
    /* base = constant + sum(a * offset), and the reach of the sums, in 128 bits: each
       below 2^61, so that the sums, their negations and the spans fit in 64 */
    __int128 base = 0, reach = 0;
    const __int128 limit = (__int128)1 << 61;
    if (k->scale == NULL || k->rising == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    long long constant = PyLong_AsLongLong(constant_obj);
    if (constant == -1 && PyErr_Occurred())
        goto fail;
    base = constant;
    for (Py_ssize_t n = 0; n < size; n++) {
        Py_ssize_t i;
        long long a, offset;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, n), "nLL", &i, &a, &offset))
            goto fail;
        if (a == 0) {
            PyErr_SetString(PyExc_ValueError, "a linear term's coefficient is not 0");
            goto fail;
        }
        if (decision(k, i) < 0)
            goto fail;
        __int128 size_n = a > 0 ? (__int128)a : -(__int128)a;
        if (size_n >= limit) {
            PyErr_SetString(PyExc_OverflowError, "a coefficient wider than the kernel's sums");
            goto fail;
        }
        k->at[n] = i;
        k->scale[n] = (int64_t)size_n;
        k->rising[n] = a > 0;
        base += (__int128)a * offset;
        reach += size_n * 64;
        if (base >= limit || base <= -limit || reach >= limit) {
            PyErr_SetString(PyExc_OverflowError, "sums wider than the kernel's 61 bits");
            goto fail;
        }
    }
    k->shift = (int64_t)base;
    Py_DECREF(seq);
    return (PyObject *)k;
fail:
    Py_DECREF(seq);
    Py_DECREF(k);
    return NULL;
}

/* ---- the loop ----------------------------------------------------------------------- */

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

/* The propagators to a fixpoint from the seeds and the watchers of `touched`. */
static PyObject *fixpoint(Loop *loop, PyObject *doms, PyObject *touched_obj,
                          PyObject *seeds_obj) {
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
        Kernel *kernel = loop->kernels[k];
        Py_ssize_t count;
        if (kernel != NULL) {
            count = run(kernel, doms, loop->changes);
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

/* run(doms, touched, seeds): True, or False when a propagator fails (its index in
   `failed`); `runs` counts the propagators run. */
static PyObject *loop_run(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    Loop *loop = (Loop *)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "run(doms, touched, seeds)");
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
    PyObject *result = fixpoint(loop, args[0], args[1], args[2]);
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
     "run(doms, touched, seeds): the propagators to a fixpoint, starting from the seeds "
     "and the watchers of the decisions touched; False when one fails."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef loop_getset[] = {
    {"runs", loop_get_runs, NULL, "propagator runs in the last run()", NULL},
    {"failed", loop_get_failed, NULL, "the propagator that failed the last run(), or -1", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject LoopType = {
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

/* ---- the module ----------------------------------------------------------------------- */

static PyMethodDef methods[] = {
    {"clause", make_clause, METH_VARARGS,
     "clause(literals): at least one literal (decision, bit) holds."},
    {"reified_clause", make_reified_clause, METH_VARARGS,
     "reified_clause(truth, when, literals): truth is `when` exactly when a literal holds."},
    {"reified_shift", make_reified_shift, METH_VARARGS,
     "reified_shift(truth, x, y, shift, equal): truth is `equal` exactly when x's bits meet "
     "y's moved by shift."},
    {"reified_unary", make_reified_unary, METH_VARARGS,
     "reified_unary(truth, x, meets): truth is 1 exactly when x takes a value of meets."},
    {"linear", make_linear, METH_VARARGS,
     "linear(terms, constant, equal): sum(a * x) + constant <= 0 (== 0 when equal) by "
     "bounds; terms are (decision, coefficient, offset)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "lazyfun.csp.propagation._kernels",
    .m_doc = "The constraint solver's commonest propagators and its propagation loop, in C "
             "(see lazyfun.csp.propagation.kernels).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__kernels(void) {
    if (PyType_Ready(&KernelType) < 0 || PyType_Ready(&LoopType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    if (PyModule_AddIntConstant(m, "WIDTH", WIDTH) < 0 ||
        PyModule_AddObjectRef(m, "Kernel", (PyObject *)&KernelType) < 0 ||
        PyModule_AddObjectRef(m, "Loop", (PyObject *)&LoopType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
