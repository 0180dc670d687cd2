/* The kernels, each a propagator over the domains as words; a Kernel called from Python
   with the list of domains; a Kernel made, for module.c to fill in. */
#include "propagators.h"

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

/* ---- an element's index, a domain wider than a word: its bytes in k->wide ---------- */

/* Decision i's domain into k->wide; -1 (an exception set) when it is not a number of at
   most k->bytes bytes, its first domain's width. */
static int get_wide(Kernel *k, PyObject *doms, Py_ssize_t i) {
    PyObject *item = PyList_GET_ITEM(doms, i);
    int overflow = 0; /* -1: below a long long's least */
    long long small = PyLong_Check(item) ? PyLong_AsLongLongAndOverflow(item, &overflow) : -1;
    if (overflow < 0 || (!overflow && small < 0)) {
        PyErr_Format(PyExc_ValueError, "decision %zd: a domain is a number of 0 or more", i);
        return -1;
    }
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(item, k->wide, k->bytes,
                                           Py_ASNATIVEBYTES_LITTLE_ENDIAN |
                                               Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    if (need < 0)
        return -1;
    if (need <= k->bytes)
        return 0;
#else
    if (_PyLong_AsByteArray((PyLongObject *)item, k->wide, (size_t)k->bytes, 1, 0) == 0)
        return 0;
    if (!PyErr_ExceptionMatches(PyExc_OverflowError))
        return -1;
    PyErr_Clear();
#endif
    PyErr_Format(PyExc_ValueError, "decision %zd: a domain wider than its first (%zd bytes)", i,
                 k->bytes);
    return -1;
}

/* k->wide back as decision i's domain. */
static int put_wide(Kernel *k, PyObject *doms, Py_ssize_t i) {
#if PY_VERSION_HEX >= 0x030D0000
    return replace(doms, i,
                   PyLong_FromUnsignedNativeBytes(k->wide, k->bytes,
                                                  Py_ASNATIVEBYTES_LITTLE_ENDIAN));
#else
    return replace(doms, i, _PyLong_FromByteArray(k->wide, (size_t)k->bytes, 1, 0));
#endif
}

/* Word w of k->wide, and word w written. */
static inline uint64_t load(const unsigned char *bytes, Py_ssize_t w) {
    uint64_t word = 0;
    for (int b = 7; b >= 0; b--)
        word = word << 8 | bytes[8 * w + b];
    return word;
}

static inline void store(unsigned char *bytes, Py_ssize_t w, uint64_t word) {
    for (int b = 0; b < 8; b++, word >>= 8)
        bytes[8 * w + b] = (unsigned char)word;
}

/* result == items[index] (x the result, y the index): the index keeps the items that can
   still equal the result, the result the values they can take; once one item is left, it
   narrows to the result.  An item's bits move onto the result's by its scale (a number's
   scale is its value's bit in the result's). */
static Py_ssize_t element(Kernel *k, PyObject *doms, Py_ssize_t *out) {
    uint64_t res, support = 0;
    GET(k->x, res);
    if (get_wide(k, doms, k->y) < 0)
        return ERROR;
    Py_ssize_t left = 0, first = -1, changed = 0;
    int narrowed = 0;
    for (Py_ssize_t w = 0; w < k->bytes / 8; w++) {
        uint64_t word = load(k->wide, w), kept = 0;
        for (uint64_t rest = word; rest; rest &= rest - 1) {
            int64_t b = lowest(rest), n = k->shift + 64 * w + b, move;
            if (n < 0 || n >= k->size)
                continue;
            uint64_t bits, hit;
            move = k->scale[n];
            if (k->at[n] >= 0) {
                GET(k->at[n], bits);
                hit = moved(bits, move) & res;
            } else {
                hit = moved(1, move) & res; /* 0 for a number below the result's offset */
            }
            if (hit) {
                kept |= (uint64_t)1 << b;
                support |= hit;
                first = left++ ? first : n;
            }
        }
        if (kept != word) {
            store(k->wide, w, kept);
            narrowed = 1;
        }
    }
    if (!left)
        return FAILED;
    if (narrowed) {
        if (put_wide(k, doms, k->y) < 0)
            return ERROR;
        out[changed++] = k->y;
    }
    if (support != res) {
        PUT(k->x, support);
        out[changed++] = k->x;
    }
    if (left == 1 && k->at[first] >= 0) {
        uint64_t bits;
        Py_ssize_t j = k->at[first];
        GET(j, bits); /* read again: the item may be the result, just narrowed */
        uint64_t kept = bits & moved(support, -k->scale[first]);
        if (!kept)
            return FAILED;
        if (kept != bits) {
            PUT(j, kept);
            out[changed++] = j;
        }
    }
    return changed;
}

Py_ssize_t kernel_run(Kernel *k, PyObject *doms, Py_ssize_t *out) {
    switch (k->kind) {
    case CLAUSE:
        return clause(k, doms, out);
    case REIFIED_CLAUSE:
        return reified_clause(k, doms, out);
    case REIFIED_SHIFT:
        return reified_shift(k, doms, out);
    case REIFIED_UNARY:
        return reified_unary(k, doms, out);
    case ELEMENT:
        return element(k, doms, out);
    default:
        return linear(k, doms, out);
    }
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
    Py_ssize_t count = kernel_run(k, doms, changes);
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
    PyMem_Free(k->wide);
    Py_TYPE(self)->tp_free(self);
}

static const char *KIND_NAMES[] = {"clause", "reified_clause", "reified_shift",
                                   "reified_unary", "linear", "element"};

static PyObject *kernel_repr(PyObject *self) {
    Kernel *k = (Kernel *)self;
    return PyUnicode_FromFormat("<lazyfun C kernel %s over %zd decisions>", KIND_NAMES[k->kind],
                                k->reach);
}

PyTypeObject KernelType = {
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

Kernel *kernel_new(enum kind kind, Py_ssize_t size) {
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
    k->wide = NULL;
    k->bytes = 0;
    if (k->at == NULL || k->bit == NULL) {
        Py_DECREF(k);
        PyErr_NoMemory();
        return NULL;
    }
    return k;
}
