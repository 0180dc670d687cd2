/* Beside the steps of steps.h, the windows on event time:
 *
 * TimeField(name, parse), timefield.c: an item's time read by a field's name
 * (item[name], else the attribute): a string is an ISO-8601 time, read in C as seconds
 * since 1970 (UTC; no offset is UTC) for its common shape
 * YYYY-MM-DDTHH:MM:SS[.fff|.ffffff][Z|+HH:MM], else by parse(text); any other value as
 * it is.
 *
 * Windowed(what, on, by, late, folder, size, every, lateness, check,
 * late_error, values, window, ready, heappush, heappop, counts), windowed.c: the
 * core of lazyfun.streams.windows.EventTime for tumbling and sliding windows of numbers
 * whose named reductions a Folder folds (by: a key function, or a field's name read
 * inline, as the Folder reads one): add(item), pull(iterator), finish(), close(),
 * the closed windows in `ready`; each window's state the Folder's {None: Accs}, or,
 * given counts (the names, when every reduction is a count), its count, kept here. */
#ifndef LAZYFUN_FLOW_WINDOWED_H
#define LAZYFUN_FLOW_WINDOWED_H

#include "base.h"

INTERNAL extern PyTypeObject TimeFieldType;
INTERNAL extern PyTypeObject WindowedType;

/* A TimeField's call: the time of item (a new reference), or NULL with the error set. */
INTERNAL PyObject *time_of(PyObject *field, PyObject *item);

#endif
