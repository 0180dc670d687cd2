/* The third layer: the propagation loop, Loop (loop.c), which runs the kernels directly
   and any other propagator through Python. */
#ifndef LAZYFUN_KERNELS_LOOP_H
#define LAZYFUN_KERNELS_LOOP_H

#include "propagators.h"

/* lazyfun.csp.propagation._kernels.Loop(propagators, watchers, idempotent, slow). */
INTERNAL extern PyTypeObject LoopType;

#endif
