/* The second layer: the kernels, each one propagator over the domains as words, and the
   Python type of a Kernel (propagators.c). */
#ifndef LAZYFUN_KERNELS_PROPAGATORS_H
#define LAZYFUN_KERNELS_PROPAGATORS_H

#include "domains.h"

/* lazyfun.csp.propagation._kernels.Kernel: called with the list of domains, a kernel
   narrows them in place and returns the decisions narrowed, or None when its constraint
   fails. */
INTERNAL extern PyTypeObject KernelType;

/* A Kernel of `kind` with room for `size` literals or terms, over no decision yet; NULL,
   with an exception set, when memory ran out. */
INTERNAL Kernel *kernel_new(enum kind kind, Py_ssize_t size);

/* One run of kernel k: how many decisions it narrowed (written to out, which has room for
   most(k)), FAILED or ERROR. */
INTERNAL Py_ssize_t kernel_run(Kernel *k, PyObject *doms, Py_ssize_t *out);

#endif
