/* The constraint solver's commonest propagators, and its propagation loop, in C: its first
   layer, a Kernel's data and the domains read and written as machine words.

   A domain is a bit set over its decision's offset, held in a Python list of ints (see
   lazyfun/csp/propagation/propagators.py).  A Kernel is one propagator: called with the
   list, it narrows domains in place and returns the decisions it narrowed (a tuple), or
   None when its constraint cannot hold, exactly as the Python closure it stands for
   (lazyfun.csp.propagation.nonlinear and .filters hold the readable forms, with the same
   answers, in the same order).  A kernel is built only over decisions whose first domain
   fits in WIDTH bits, so each domain is one machine word.

   The engine is four layers, each file calling only those below it, each layer's header
   declaring what it offers to those above:

     domains.h       a Kernel's data, and the domains as words (this header);
     propagators.c   the kernels, a Kernel called from Python, a Kernel made
                     (propagators.h);
     loop.c          the propagation loop, Loop (loop.h);
     module.c        the module's entry points: the kernels built from Python's
                     arguments, and the module itself.

   What one file calls in another is hidden outside the extension (INTERNAL), so
   link-time optimisation may inline it, as it did when the engine was one file. */
#ifndef LAZYFUN_KERNELS_DOMAINS_H
#define LAZYFUN_KERNELS_DOMAINS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>

#define INTERNAL __attribute__((visibility("hidden")))

#define WIDTH 62
#define FAILED (-1)
#define ERROR (-2)

enum kind { CLAUSE, REIFIED_CLAUSE, REIFIED_SHIFT, REIFIED_UNARY, LINEAR, ELEMENT };

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    enum kind kind;
    Py_ssize_t size;     /* literals, or terms */
    Py_ssize_t reach;    /* the largest decision + 1 */
    Py_ssize_t *at;      /* the literals', terms' or items' decisions (-1: a number) */
    uint64_t *bit;       /* a clause's wanted bits */
    int64_t *scale;      /* a linear term's coefficient, its sign in rising; an item's move
                            onto the result's bits */
    char *rising;
    Py_ssize_t truth, x, y; /* element: x the result, y the index */
    uint64_t when;       /* reified clause: when; shift: equal; unary: meets */
    int64_t shift;       /* shift: y's bits moved onto x's; linear: the constant part;
                            element: the item the index's bit 0 stands for */
    int equal;           /* linear: == rather than <= */
    unsigned char *wide; /* element: room for the index's domain, little-endian bytes */
    Py_ssize_t bytes;    /* element: how many (its first domain's) */
} Kernel;

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

/* `value` (a new reference, or NULL on an error) as decision i's domain. */
static inline int replace(PyObject *doms, Py_ssize_t i, PyObject *value) {
    if (value == NULL)
        return -1;
    PyObject *old = PyList_GET_ITEM(doms, i);
    PyList_SET_ITEM(doms, i, value);
    Py_DECREF(old);
    return 0;
}

static inline int put(PyObject *doms, Py_ssize_t i, uint64_t bits) {
    return replace(doms, i, PyLong_FromUnsignedLongLong(bits));
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

/* The most decisions one run of the kernel can narrow. */
static inline Py_ssize_t most(Kernel *k) {
    if (k->kind == ELEMENT)
        return 3;
    return k->size > 2 ? k->size : 2;
}

/* Whether doms is a list of at least `reach` domains (else -1, with an exception set). */
static inline int reachable(PyObject *doms, Py_ssize_t reach) {
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

#endif
