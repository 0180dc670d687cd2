/* The module's entry points: the kernels built from Python's arguments (checked here,
   so the kernels can assume them), and the module, with its types Kernel and Loop. */
#include "loop.h"
#include "propagators.h"

/* ---- building kernels ------------------------------------------------------------- */

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
    Kernel *k = kernel_new(CLAUSE, PySequence_Fast_GET_SIZE(seq));
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
    Kernel *k = kernel_new(REIFIED_CLAUSE, PySequence_Fast_GET_SIZE(seq));
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
    Kernel *k = kernel_new(REIFIED_SHIFT, 0);
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
    Kernel *k = kernel_new(REIFIED_UNARY, 0);
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

/* A Kernel of `kind` with room for the items of the sequence `items` (`error` says what
   they must be) and a scale each, *seq the items read (a reference the caller drops);
   NULL, with an exception set, when they are not a sequence or memory ran out. */
static Kernel *kernel_over(enum kind kind, PyObject *items, const char *error, PyObject **seq) {
    *seq = PySequence_Fast(items, error);
    if (*seq == NULL)
        return NULL;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(*seq);
    Kernel *k = kernel_new(kind, size);
    if (k != NULL) {
        k->scale = PyMem_Calloc(size ? size : 1, sizeof(int64_t));
        if (k->scale == NULL) {
            Py_CLEAR(k);
            PyErr_NoMemory();
        }
    }
    if (k == NULL)
        Py_CLEAR(*seq);
    return k;
}

/* The terms (decision, coefficient, offset) and the constant: the sums it can reach must
   stay within 62 bits, else OverflowError (the Python closure then runs). */
static PyObject *make_linear(PyObject *module, PyObject *args) {
    (void)module;
    PyObject *items, *constant_obj;
    int equal;
    if (!PyArg_ParseTuple(args, "OOp", &items, &constant_obj, &equal))
        return NULL;
    PyObject *seq;
    Kernel *k = kernel_over(LINEAR, items, "the terms must be a sequence", &seq);
    if (k == NULL)
        return NULL;
    Py_ssize_t size = k->size;
    k->equal = equal;
    k->rising = PyMem_Calloc(size ? size : 1, 1);
    /* base = constant + sum(a * offset), and the reach of the sums, in 128 bits: each
       below 2^61, so that the sums, their negations and the spans fit in 64 */
    __int128 base = 0, reach = 0;
    const __int128 limit = (__int128)1 << 61;
    if (k->rising == NULL) {
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

/* result == items[index]: the items (decision, move), a number's decision -1 and its
   move its value's bit in the result's; the index's bit 0 stands for item `base`, its
   first domain is `width` bits wide (the index alone may be wider than a word). */
static PyObject *make_element(PyObject *module, PyObject *args) {
    (void)module;
    Py_ssize_t result, index, width;
    long long base;
    PyObject *items;
    if (!PyArg_ParseTuple(args, "nnLnO", &result, &index, &base, &width, &items))
        return NULL;
    if (width < 0) {
        PyErr_SetString(PyExc_ValueError, "an index's width is 0 or more");
        return NULL;
    }
    PyObject *seq;
    Kernel *k = kernel_over(ELEMENT, items, "the items must be a sequence", &seq);
    if (k == NULL)
        return NULL;
    Py_ssize_t size = k->size;
    k->x = result;
    k->y = index;
    k->shift = base;
    k->bytes = 8 * (width / 64 + 1); /* room for width bits */
    k->wide = PyMem_Calloc(k->bytes, 1);
    if (k->wide == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    if (decision(k, result) < 0 || decision(k, index) < 0)
        goto fail;
    for (Py_ssize_t n = 0; n < size; n++) {
        Py_ssize_t j;
        long long move;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, n), "nL", &j, &move))
            goto fail;
        if (j == index) {
            PyErr_SetString(PyExc_ValueError, "an item is the index: the Python filter holds it");
            goto fail;
        }
        if (j >= 0 && decision(k, j) < 0)
            goto fail;
        k->at[n] = j < 0 ? -1 : j;
        k->scale[n] = move;
    }
    Py_DECREF(seq);
    return (PyObject *)k;
fail:
    Py_DECREF(seq);
    Py_DECREF(k);
    return NULL;
}

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
    {"element", make_element, METH_VARARGS,
     "element(result, index, base, width, items): result == items[index] over items "
     "(decision, move), a number's decision -1; index bit 0 is item base, width bits wide."},
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
