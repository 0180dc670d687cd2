/* A fold's states as one object (see states.h). */
#include "states.h"

#include <string.h>

PyObject *
new_states(PyObject *folder, const Spec *spec, int tabled)
{
    States *states = PyObject_GC_New(States, &StatesType);
    if (states == NULL) {
        return NULL;
    }
    states->folder = Py_NewRef(folder);
    states->spec = *spec;
    states->dict = NULL;
    memset(&states->table, 0, sizeof(Table));
    if (tabled ? table_init(&states->table, spec->n) < 0 : (states->dict = PyDict_New()) == NULL) {
        Py_DECREF(states);
        return NULL;
    }
    PyObject_GC_Track(states);
    return (PyObject *)states;
}

int
table_key(const States *states, PyObject *k, PyObject **values, long long *key)
{
    if (states->dict != NULL || !PyLong_CheckExact(k)) {
        return 0;
    }
    int overflow;
    *key = PyLong_AsLongLongAndOverflow(k, &overflow);
    if (overflow || (*key == -1 && PyErr_Occurred())) {
        return overflow ? 0 : -1;
    }
    for (Py_ssize_t i = 0; i < states->spec.n; i++) {
        if (states->spec.ops[i] == FOLD_SUM && !PyFloat_CheckExact(values[i])) {
            return 0;
        }
    }
    return 1;
}

int
table_fold(States *states, PyObject *k, PyObject **values)
{
    const Spec *spec = &states->spec;
    Table *table = &states->table;
    long long key;
    int holds = table_key(states, k, values, &key);
    if (holds <= 0) {
        return holds;
    }
    double s, t;
    Cell *cells = table_find(table, key);
    int known = cells != NULL;
    for (Py_ssize_t i = 0; known && i < spec->n; i++) {
        if (spec->ops[i] == FOLD_SUM
            && two_sums(cells[i].a.hi, cells[i].lo, PyFloat_AS_DOUBLE(values[i]), &s, &t) != 0.0) {
            return 0;
        }
    }
    if (!known && (cells = table_add(table, key)) == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < spec->n; i++) {
        if (spec->ops[i] == FOLD_COUNT) {
            cells[i].a.count = known ? cells[i].a.count + 1 : 1;
        } else if (known) {
            two_sums(cells[i].a.hi, cells[i].lo, PyFloat_AS_DOUBLE(values[i]), &s, &t);
            cells[i].a.hi = s;
            cells[i].lo = t;
        } else {
            cells[i].a.hi = PyFloat_AS_DOUBLE(values[i]);
            cells[i].lo = 0.0;
        }
    }
    return known ? 2 : 1;
}

int
to_dict(States *states)
{
    states->dict = table_dict(&states->spec, &states->table);
    if (states->dict == NULL) {
        return -1;
    }
    table_free(&states->table);
    return 0;
}

static Py_ssize_t
States_len(States *self)
{
    return self->dict != NULL ? PyDict_Size(self->dict) : self->table.used;
}

/* states[k]: k's state, an Accs (made from the table's cells while it holds them). */
static PyObject *
States_item(States *self, PyObject *k)
{
    if (self->dict != NULL) {
        return PyObject_GetItem(self->dict, k);
    }
    int overflow = 1;
    long long key = PyLong_Check(k) ? PyLong_AsLongLongAndOverflow(k, &overflow) : 0;
    if (!overflow && key == -1 && PyErr_Occurred()) {
        return NULL;
    }
    const Cell *cells = overflow ? NULL : table_find(&self->table, key);
    if (cells == NULL) {
        PyErr_SetObject(PyExc_KeyError, k);
        return NULL;
    }
    return (PyObject *)table_accs(&self->spec, cells);
}

/* states.list(k): k's state as the Python loop keeps it, a list of each reduction's. */
static PyObject *
States_list(States *self, PyObject *k)
{
    PyObject *accs = States_item(self, k);
    if (accs == NULL) {
        return NULL;
    }
    PyObject *list = Py_IS_TYPE(accs, self->spec.type) && Py_SIZE(accs) == self->spec.n
                         ? accs_list(&self->spec, (Accs *)accs)
                         : NULL;
    if (list == NULL && !PyErr_Occurred()) {
        PyErr_SetString(PyExc_SystemError, "a key's state is not this fold's");
    }
    Py_DECREF(accs);
    return list;
}

/* states.ended(names, ends): each key's values, in order (accs_values), and the states
 * emptied, each let go as its values are made. */
static PyObject *
States_ended(States *self, PyObject *const *args, Py_ssize_t nargs)
{
    const Spec *spec = &self->spec;
    if (nargs != 2 || !PyTuple_Check(args[0]) || PyTuple_GET_SIZE(args[0]) != spec->n
        || !PyTuple_Check(args[1]) || PyTuple_GET_SIZE(args[1]) != spec->n) {
        PyErr_SetString(PyExc_TypeError, "States.ended takes a name and an end a reduction");
        return NULL;
    }
    if (self->dict == NULL) {
        PyObject *made = table_values(spec, &self->table, args[0]);
        table_free(&self->table);
        return made != NULL && table_init(&self->table, spec->n) < 0 ? NULL : made;
    }
    PyObject *keys = PyDict_Keys(self->dict), *made = PyDict_New();
    for (Py_ssize_t j = 0; keys != NULL && made != NULL && j < PyList_GET_SIZE(keys); j++) {
        PyObject *k = PyList_GET_ITEM(keys, j);
        PyObject *accs = Py_XNewRef(PyDict_GetItemWithError(self->dict, k)), *values = NULL;
        if (accs != NULL && PyDict_DelItem(self->dict, k) == 0) {
            values = Py_IS_TYPE(accs, self->spec.type) && Py_SIZE(accs) == spec->n
                         ? accs_values(spec, (Accs *)accs, args[0], args[1])
                         : NULL;
        }
        if (values == NULL || PyDict_SetItem(made, k, values) < 0) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_SystemError, "a key's state is not this fold's");
            }
            Py_CLEAR(made);
        }
        Py_XDECREF(values);
        Py_XDECREF(accs);
    }
    Py_XDECREF(keys);
    return made;
}

/* states.__sizeof__(): its own bytes, its table's, and its dict's (not its states'). */
static PyObject *
States_sizeof(States *self, PyObject *Py_UNUSED(ignored))
{
    Py_ssize_t size = (Py_ssize_t)sizeof(States) + table_bytes(&self->table);
    if (self->dict != NULL) {
        PyObject *inner = PyObject_CallMethod(self->dict, "__sizeof__", NULL);
        if (inner == NULL) {
            return NULL;
        }
        size += PyLong_AsSsize_t(inner);
        Py_DECREF(inner);
    }
    return PyErr_Occurred() ? NULL : PyLong_FromSsize_t(size);
}

static int
States_traverse(States *self, visitproc visit, void *arg)
{
    Py_VISIT(self->folder);
    Py_VISIT(self->dict);
    return 0;
}

static int
States_clear(States *self)
{
    Py_CLEAR(self->folder);
    Py_CLEAR(self->dict);
    return 0;
}

static void
States_dealloc(States *self)
{
    PyObject_GC_UnTrack(self);
    States_clear(self);
    table_free(&self->table);
    PyObject_GC_Del(self);
}

static PyMappingMethods States_mapping = {
    .mp_length = (lenfunc)States_len,
    .mp_subscript = (binaryfunc)States_item,
};

static PyMethodDef States_methods[] = {
    {"list", (PyCFunction)States_list, METH_O,
     PyDoc_STR("list(k): k's state as the Python loop keeps it.")},
    {"ended", (PyCFunction)(void (*)(void))States_ended, METH_FASTCALL,
     PyDoc_STR("ended(names, ends): each key's values, in order; the states emptied.")},
    {"__sizeof__", (PyCFunction)States_sizeof, METH_NOARGS,
     PyDoc_STR("Its bytes, its table's and its dict's.")},
    {NULL, NULL, 0, NULL},
};

PyTypeObject StatesType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.States",
    .tp_doc = PyDoc_STR("A Folder's states: integer keys' in a table, others' in a dict."),
    .tp_basicsize = sizeof(States),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)States_traverse,
    .tp_clear = (inquiry)States_clear,
    .tp_dealloc = (destructor)States_dealloc,
    .tp_as_mapping = &States_mapping,
    .tp_methods = States_methods,
};

