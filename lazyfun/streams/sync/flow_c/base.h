/* The hot steps of a Stream as C iterators, lazyfun.streams.sync._flow: the fast engine
 * beside the readable Python forms of lazyfun/streams/sync/steps.py (take, catch and
 * throttle's stretches, flatmap), with the same behaviour;
 * lazyfun/streams/sync/flow.py chooses between them.
 *
 * The engine is in layers, each file calling only those below it, each layer's
 * header declaring what it offers to those above:
 *
 *   base.h                what every iterator shares: one read at a time, the end of
 *                         a source told from its error (this header);
 *   accs.h   accs.c      a keyed fold's states: Accs, a key's own, and Table, integer
 *                         keys' inline;
 *   states.h states.c    States, a fold's states as one object, in a Table while it
 *                         can hold them, else a dict of Accs;
 *   steps.h  guarded.c    Guarded, catch's recovery;
 *            counted.c    Counted, take and throttle's stretches;
 *            tally.c      Tally and Calls, what a Stream's explain counts;
 *            flatmapped.c FlatMapped, flatmap;
 *            folded.c     Folder, the loop of aggregate's named reductions;
 *            runs.c       Runs, a source's records handed on from lists;
 *            probe.c      Probe, a hash join's pairs;
 *            order.c      by_fields, fields_of and holds, a sort's run by its key's
 *                         fields and the check for its spill;
 *            spill.c      pack and unpack, a spilled frame of Structs written and read;
 *            module.c     the module: its types made ready and added, its entry point.
 *
 * What one file calls in another is declared in its layer's header: this layer's
 * as inline functions, the iterator types hidden outside the extension (INTERNAL). */
#ifndef LAZYFUN_FLOW_BASE_H
#define LAZYFUN_FLOW_BASE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

#define INTERNAL __attribute__((visibility("hidden")))

/* Mark an iterator's read begun (*running); -1, with a ValueError, if one is under way. */
static inline int
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
static inline int
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

/* Where a class's field of a name is a slot (a msgspec Struct's, a slotted class's):
 * the class, as its version tag was (any change to the class changes it, and a class
 * made later at the same address has another), the name (the same object, held here so
 * that no other str takes its address), and the slot's offset.  A few a file, by class
 * and name; under the GIL. */
typedef struct {
    PyTypeObject *type;
    unsigned int version;
    PyObject *name;  /* a strong reference */
    Py_ssize_t offset;
} SlotSeen;

#define SLOTS_SEEN 64
static SlotSeen slots_seen[SLOTS_SEEN];

static inline SlotSeen *
slot_seen(PyTypeObject *type, PyObject *name)
{
    return &slots_seen[(((uintptr_t)type >> 4) ^ ((uintptr_t)name >> 4)) % SLOTS_SEEN];
}

/* getattr(item, name) where the class is unchanged since its slot of that name was
 * seen: the slot read (what the member descriptor gives), NULL (no error) else. */
static inline PyObject *
seen_slot(PyObject *item, PyObject *name)
{
    PyTypeObject *type = Py_TYPE(item);
    SlotSeen *seen = slot_seen(type, name);
    if (seen->type != type || seen->name != name || seen->version != type->tp_version_tag
        || !PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)) {
        return NULL;
    }
    return *(PyObject **)((char *)item + seen->offset);  /* NULL: unset, getattr says so */
}

/* getattr(item, name), its slot noted where it is one (see seen_slot). */
static inline PyObject *
read_attribute(PyObject *item, PyObject *name)
{
    PyObject *value = seen_slot(item, name);
    if (value != NULL) {
        return Py_NewRef(value);
    }
    PyTypeObject *type = Py_TYPE(item);
    PyObject *found = type->tp_getattro == PyObject_GenericGetAttr
                    ? _PyType_Lookup(type, name) : NULL;
    if (found != NULL && Py_IS_TYPE(found, &PyMemberDescr_Type)
        && PyObject_TypeCheck(item, PyDescr_TYPE(found))
        && PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)) {
        PyMemberDef *member = ((PyMemberDescrObject *)found)->d_member;
        if (member->type == T_OBJECT_EX || member->type == T_OBJECT) {
            SlotSeen *seen = slot_seen(type, name);
            Py_XSETREF(seen->name, Py_NewRef(name));
            seen->type = type;
            seen->version = type->tp_version_tag;
            seen->offset = member->offset;
        }
    }
    return PyObject_GetAttr(item, name);
}

/* item[name], or, where item is no mapping (a TypeError), getattr(item, name): as
 * lazyfun.streams.fields.field reads; getattr(item, name) only for a name of a str
 * subclass (lazyfun.streams.fields.Attribute: operator.attrgetter's name). */
static inline PyObject *
read_field(PyObject *item, PyObject *name)
{
    if (!PyUnicode_CheckExact(name)) {
        return read_attribute(item, name);
    }
    PyMappingMethods *mapping = Py_TYPE(item)->tp_as_mapping;
    if (mapping == NULL || mapping->mp_subscript == NULL) {
        return read_attribute(item, name);  /* item[name] would be a TypeError */
    }
    PyObject *value = PyObject_GetItem(item, name);
    if (value == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        value = PyObject_GetAttr(item, name);
    }
    return value;
}

/* Whether path is a field's path: a tuple of names (str) and places (int), at least one. */
static inline int
is_path(PyObject *path)
{
    if (!PyTuple_CheckExact(path) || PyTuple_GET_SIZE(path) == 0) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(path); i++) {
        PyObject *step = PyTuple_GET_ITEM(path, i);
        if (!PyUnicode_Check(step) && !PyLong_CheckExact(step)) {
            return 0;
        }
    }
    return 1;
}

/* The value at path (is_path's) of item, a step at a time: item[place] for a place (a
 * tuple's read at once), read_field for a name; as lazyfun.streams.fields.field reads. */
static inline PyObject *
read_path(PyObject *item, PyObject *path)
{
    PyObject *value = Py_NewRef(item);
    for (Py_ssize_t i = 0; value != NULL && i < PyTuple_GET_SIZE(path); i++) {
        PyObject *step = PyTuple_GET_ITEM(path, i);
        PyObject *next;
        if (PyUnicode_Check(step)) {
            next = read_field(value, step);
        }
        else {
            Py_ssize_t at = PyTuple_CheckExact(value) ? PyLong_AsSsize_t(step) : -1;
            if (at >= 0 && at < PyTuple_GET_SIZE(value)) {
                next = Py_NewRef(PyTuple_GET_ITEM(value, at));
            }
            else {
                PyErr_Clear();  /* a place past a Py_ssize_t: item[step] says what is wrong */
                next = PyObject_GetItem(value, step);
            }
        }
        Py_DECREF(value);
        value = next;
    }
    return value;
}

/* What `read` reads of item: a field by its name, a field's path, or read(item). */
static inline PyObject *
read_by(PyObject *item, PyObject *read)
{
    if (PyUnicode_Check(read)) {
        return read_field(item, read);
    }
    if (PyTuple_CheckExact(read)) {
        return read_path(item, read);
    }
    return PyObject_CallOneArg(read, item);
}

/* item's field `name` where reading it runs no code: a slot of its class (a msgspec
 * Struct's field, a slotted dataclass's) that the generic getattr reads; NULL else.
 * Borrowed. */
static inline PyObject *
seen_field(PyObject *item, PyObject *name)
{
    PyTypeObject *type = Py_TYPE(item);
    if (type->tp_getattro != PyObject_GenericGetAttr) {
        return NULL;
    }
    PyObject *found = _PyType_Lookup(type, name);
    if (found == NULL || !Py_IS_TYPE(found, &PyMemberDescr_Type) ||
        !PyObject_TypeCheck(item, PyDescr_TYPE(found))) {
        return NULL;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)found)->d_member;
    if (member->type != T_OBJECT_EX && member->type != T_OBJECT) {
        return NULL;
    }
    return *(PyObject **)((char *)item + member->offset);
}

/* The offsets of kind's slots names, into offsets; 0 where one is no slot seen_field
 * reads (holds, fields_of and pack read a Struct's fields by them). */
static inline int
slot_offsets(PyTypeObject *kind, PyObject *names, Py_ssize_t *offsets)
{
    if (kind->tp_getattro != PyObject_GenericGetAttr) {
        return 0;
    }
    for (Py_ssize_t f = 0; f < PyTuple_GET_SIZE(names); f++) {
        PyObject *found = _PyType_Lookup(kind, PyTuple_GET_ITEM(names, f));
        if (found == NULL || !Py_IS_TYPE(found, &PyMemberDescr_Type)
            || !PyType_IsSubtype(kind, PyDescr_TYPE(found))) {
            return 0;
        }
        PyMemberDef *member = ((PyMemberDescrObject *)found)->d_member;
        if (member->type != T_OBJECT_EX && member->type != T_OBJECT) {
            return 0;
        }
        offsets[f] = member->offset;
    }
    return 1;
}

/* Whether value's type is one of the tuple types itself (no subclass). */
static inline int
allowed_type(PyObject *types, PyObject *value)
{
    for (Py_ssize_t t = 0; t < PyTuple_GET_SIZE(types); t++) {
        if ((PyObject *)Py_TYPE(value) == PyTuple_GET_ITEM(types, t)) {
            return 1;
        }
    }
    return 0;
}

/* Whether the arguments are those of holds and pack, named name: (items: list, kind:
 * type, names: tuple, allowed: a tuple a name, each a tuple of types); 0, or -1 with a
 * TypeError. */
static inline int
frame_arguments(const char *name, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || !PyList_CheckExact(args[0]) || !PyType_Check(args[1])
        || !PyTuple_CheckExact(args[2]) || !PyTuple_CheckExact(args[3])
        || PyTuple_GET_SIZE(args[2]) != PyTuple_GET_SIZE(args[3])) {
        PyErr_Format(PyExc_TypeError,
                     "%s(items: list, kind: type, names: tuple, allowed: tuple)", name);
        return -1;
    }
    for (Py_ssize_t f = 0; f < PyTuple_GET_SIZE(args[3]); f++) {
        if (!PyTuple_CheckExact(PyTuple_GET_ITEM(args[3], f))) {
            PyErr_Format(PyExc_TypeError, "%s: each field's allowed types a tuple", name);
            return -1;
        }
    }
    return 0;
}

/* Whether every item is of kind itself, its slot names[f] (at offsets[f], which this
 * fills) holding a value of a type of allowed[f] itself; each value into values (a row
 * of names an item), where values is not NULL.  The items are read one after another
 * with nothing waiting on a read: in a sorted run they lie far apart, and their misses
 * of the cache overlap. */
static inline int
held_values(PyObject *items, PyTypeObject *kind, PyObject *names, PyObject *allowed,
            Py_ssize_t *offsets, PyObject **values)
{
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    int held = slot_offsets(kind, names, offsets);
    for (Py_ssize_t i = 0; held && i < PyList_GET_SIZE(items); i++) {
        PyObject *item = PyList_GET_ITEM(items, i);
        held = Py_TYPE(item) == kind;
        for (Py_ssize_t f = 0; held && f < count; f++) {
            PyObject *value = *(PyObject **)((char *)item + offsets[f]);
            held = value != NULL && allowed_type(PyTuple_GET_ITEM(allowed, f), value);
            if (values != NULL) {
                values[i * count + f] = value;
            }
        }
    }
    return held;
}

/* The keys a fold saw last, by their own objects: a source decodes each record's str
 * key afresh ("view" after "view"), and a dict finds a key equal to one of these by
 * its kept hash and by identity, where a new str is hashed and compared.  Strong
 * references (str keys: no cycle), let go by known_keys_clear. */
#define KEYS_KNOWN 8
typedef struct {
    PyObject *keys[KEYS_KNOWN];
    int next;
} KnownKeys;

/* key, or the key kept that equals it (a str of the same kind, length and code points:
 * the same hash, equal), the reference given up for the one returned; a str key not
 * kept yet is kept, in place of the oldest. */
static inline PyObject *
known_key(KnownKeys *known, PyObject *key)
{
    if (!PyUnicode_CheckExact(key)) {
        return key;
    }
    Py_ssize_t length = PyUnicode_GET_LENGTH(key);
    int kind = PyUnicode_KIND(key);
    for (int i = 0; i < KEYS_KNOWN; i++) {
        PyObject *seen = known->keys[i];
        if (seen == key) {
            return key;
        }
        if (seen != NULL && PyUnicode_GET_LENGTH(seen) == length && PyUnicode_KIND(seen) == kind
            && memcmp(PyUnicode_DATA(seen), PyUnicode_DATA(key), (size_t)length * (size_t)kind)
                   == 0) {
            Py_DECREF(key);
            return Py_NewRef(seen);
        }
    }
    Py_XSETREF(known->keys[known->next], Py_NewRef(key));
    known->next = (known->next + 1) % KEYS_KNOWN;
    return key;
}

static inline void
known_keys_clear(KnownKeys *known)
{
    for (int i = 0; i < KEYS_KNOWN; i++) {
        Py_CLEAR(known->keys[i]);
    }
}

#endif
