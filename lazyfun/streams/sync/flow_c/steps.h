/* The second layer: the iterator types, one a step (guarded.c, counted.c, tally.c,
 * flatmapped.c), each over the shared reads of base.h; module.c adds them to the module.
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
 * Folder(by, by_name, reads, ops, starts, steps, spill, exact): a keyed fold's loop over
 * its named reductions (lazyfun.streams.verbs), called as folder(items, state, grown);
 * each key's state an Accs (a count and a sum of floats held as C numbers), whose
 * list() is the state as the Python loop keeps it.
 *
 * Runs(): a base for a source's iterator: next() hands on the items of the list `run`
 * in order (`given` of them so far), and when it is spent calls self._refill(), which
 * sets the next run or raises (an error at its place, or StopIteration at the end);
 * setting `run` starts `given` over.
 *
 * Seen ahead: runs_ahead(runs, k) is the item a Runs will give k reads after its next
 * (0: the next), where its run holds it, else NULL; guarded_source(guarded) and
 * tally_source(tally) are the iterators a Guarded and a Tally read (NULL once they
 * ended), whose items they give on unchanged (a Guarded but for an exception).  All
 * borrowed, and none runs any code: a look that changes nothing, for a prefetch.
 *
 * Probe(source, key, name, first, index, more, matching, check, missing, left): a hash
 * join's pairs, (item, row) for each item of source and each row of its key (the key
 * read from the field `name`, or key(item) where name is None): the first row from
 * index (int keys in its range) or first, the later ones from more; an item of no
 * rows is checked by check(k, item number) unless its key's type is in `matching`,
 * and paired with None when `left`.  An exception from source (no item counted), from
 * the key or from check passes on at its place and the next read goes on.
 *
 * by_fields(items, fields, reverse, ends=None) (order.c): a sort's run in the order of
 * its key's fields (a list of values a field, each of one type), a new list (given ends,
 * the runs items holds merged: a merge's block); None where a field's values are not of
 * one kind it sorts.  fields_of(items, names): those lists read from the items' slots.
 * holds(items, kind, names, allowed): whether every item is a kind itself whose slot
 * names[f] holds a value of a type of allowed[f] itself.  pack(items, kind, names, allowed) and
 * unpack(payload, kind, names) (spill.c): a spilled frame of such items, written as
 * holds checks it, and read back.
 *
 * FlatMapped(source, f): the items of iter(f(x)) for each item x of source.  An
 * exception from source, from f or from iter passes on at its place and the next read
 * goes on with the next x; one from an inner iterator passes on too, and the next read
 * reads that iterator on (a generator that raised has ended; an iterator object may go
 * on). */
#ifndef LAZYFUN_FLOW_STEPS_H
#define LAZYFUN_FLOW_STEPS_H

#include "base.h"

INTERNAL extern PyTypeObject GuardedType;
INTERNAL extern PyTypeObject CountedType;
INTERNAL extern PyTypeObject TallyType;
INTERNAL extern PyTypeObject CallsType;
INTERNAL extern PyTypeObject FlatMappedType;
INTERNAL extern PyTypeObject FolderType;
INTERNAL extern PyTypeObject AccsType;
INTERNAL extern PyTypeObject RunsType;
INTERNAL extern PyTypeObject ProbeType;

INTERNAL PyObject *by_fields(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *holds(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *fields_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *pack(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
INTERNAL PyObject *unpack(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

INTERNAL PyObject *runs_ahead(PyObject *runs, Py_ssize_t ahead);
INTERNAL PyObject *guarded_source(PyObject *guarded);
INTERNAL PyObject *tally_source(PyObject *tally);

#endif
