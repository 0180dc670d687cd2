/* The module lazyfun.sinks._arrow: a batch of records' columns as Arrow buffers, the fast
 * engine beside lazyfun.sinks.parquet's lists a column handed to pyarrow.array.
 *
 * columns(records, kind, names): records is a list whose items are all of the class kind
 * itself, either dicts with exactly the keys names, or objects whose fields names are
 * slots (a msgspec Struct's, a slotted dataclass's: read by offset, no code runs).  Gives
 * a list with an entry a name: the column as (code, nulls, validity, offsets, data), the
 * buffers of the Arrow array pyarrow.array infers from the same values, or None where
 * this engine does not build that column (the caller hands pyarrow.array its values).
 * The whole answer is None where a record is not such (the caller's checks find why).
 *
 * A column is built when its values are None or each of one of these types itself (no
 * subclass; code: Arrow type): int in 64 bits ("i": int64), float ("f": double, NaN a
 * value as pyarrow keeps it), bool ("b": bool), str ("s": string, its UTF-8 under 2 GiB),
 * bytes ("y": binary, likewise), with at least one value not None.  validity is the bitmap
 * of the values not None (None when all are), offsets the string's or binary's int32
 * ends, data the values (a null's slot zero). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

typedef struct {
    char code;               /* the Arrow type, as above; 0 before a value is seen */
    PyTypeObject *type;      /* the Python type of the column's values */
    Py_ssize_t nulls;
    PyObject *validity;      /* bytes, made at the first None */
    PyObject *data;          /* bytes, made at the first value (fixed width) */
} Column;

/* The slots of kind's fields names, by offset; 0 where one is no slot. */
static int
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

/* Each record's values into values[f * n + i] (borrowed); 0 where a record is not
 * of kind, a dict's keys are not names, or a slot is empty. */
static int
gathered(PyObject *records, PyTypeObject *kind, PyObject *names, PyObject **values)
{
    Py_ssize_t n = PyList_GET_SIZE(records), count = PyTuple_GET_SIZE(names);
    if (kind == &PyDict_Type) {
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *record = PyList_GET_ITEM(records, i);
            if (!Py_IS_TYPE(record, kind) || PyDict_GET_SIZE(record) != count) {
                return 0;
            }
            for (Py_ssize_t f = 0; f < count; f++) {
                PyObject *value = PyDict_GetItemWithError(record, PyTuple_GET_ITEM(names, f));
                if (value == NULL) {
                    return PyErr_Occurred() ? -1 : 0;
                }
                values[f * n + i] = value;
            }
        }
        return 1;
    }
    Py_ssize_t *offsets = PyMem_Malloc((size_t)(count + 1) * sizeof(Py_ssize_t));
    if (offsets == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int found = slot_offsets(kind, names, offsets);
    for (Py_ssize_t i = 0; found && i < n; i++) {
        PyObject *record = PyList_GET_ITEM(records, i);
        found = Py_IS_TYPE(record, kind);
        for (Py_ssize_t f = 0; found && f < count; f++) {
            PyObject *value = *(PyObject **)((char *)record + offsets[f]);
            found = value != NULL;
            values[f * n + i] = value;
        }
    }
    PyMem_Free(offsets);
    return found;
}

static char
code_of(PyObject *value)
{
    PyTypeObject *type = Py_TYPE(value);
    return type == &PyLong_Type ? 'i' : type == &PyFloat_Type ? 'f' : type == &PyBool_Type ? 'b'
         : type == &PyUnicode_Type ? 's' : type == &PyBytes_Type ? 'y' : 0;
}

/* The column's code and type from its first value not None; 0 where there is none or
 * it is of no type built here. */
static int
typed(Column *column, PyObject **values, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (values[i] != Py_None) {
            column->code = code_of(values[i]);
            column->type = Py_TYPE(values[i]);
            return column->code != 0;
        }
    }
    return 0;
}

/* The bitmap of the values not None, made at the first None; -1 on no memory. */
static int
validity(Column *column, PyObject **values, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++) {
        if (values[i] != Py_None) {
            continue;
        }
        if (column->validity == NULL) {
            column->validity = PyBytes_FromStringAndSize(NULL, (n + 7) / 8);
            if (column->validity == NULL) {
                return -1;
            }
            memset(PyBytes_AS_STRING(column->validity), 0xff, (size_t)(n + 7) / 8);
        }
        PyBytes_AS_STRING(column->validity)[i / 8] &= (char)~(1 << (i % 8));
        column->nulls++;
    }
    return 0;
}

/* The data of a fixed-width column (int64, double, bool); 0 where a value is of
 * another type or an int past 64 bits, -1 on an error. */
static int
fixed(Column *column, PyObject **values, Py_ssize_t n)
{
    Py_ssize_t size = column->code == 'b' ? (n + 7) / 8 : n * 8;
    column->data = PyBytes_FromStringAndSize(NULL, size);
    if (column->data == NULL) {
        return -1;
    }
    char *data = PyBytes_AS_STRING(column->data);
    memset(data, 0, (size_t)size);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = values[i];
        if (value == Py_None) {
            continue;
        }
        if (Py_TYPE(value) != column->type) {
            return 0;
        }
        if (column->code == 'i') {
            int overflow;
            long long got = PyLong_AsLongLongAndOverflow(value, &overflow);
            if (overflow) {
                return 0;
            }
            int64_t as64 = (int64_t)got;
            memcpy(data + i * 8, &as64, 8);
        }
        else if (column->code == 'f') {
            double got = PyFloat_AS_DOUBLE(value);
            memcpy(data + i * 8, &got, 8);
        }
        else if (value == Py_True) {
            data[i / 8] |= (char)(1 << (i % 8));
        }
    }
    return 1;
}

/* The UTF-8 (or bytes) of a value of a string or binary column; NULL where a str has
 * none (a lone surrogate: the error cleared). */
static const char *
text_of(PyObject *value, char code, Py_ssize_t *size)
{
    if (code == 'y') {
        *size = PyBytes_GET_SIZE(value);
        return PyBytes_AS_STRING(value);
    }
    const char *text = PyUnicode_AsUTF8AndSize(value, size);
    if (text == NULL) {
        PyErr_Clear();
    }
    return text;
}

/* The offsets and data of a string or binary column; 0 where a value is of another
 * type, a str has no UTF-8 or the data reaches 2 GiB, -1 on no memory. */
static int
variable(Column *column, PyObject **values, Py_ssize_t n, PyObject **ends)
{
    int64_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *value = values[i];
        if (value == Py_None) {
            continue;
        }
        Py_ssize_t size;
        if (Py_TYPE(value) != column->type || text_of(value, column->code, &size) == NULL) {
            return 0;
        }
        total += size;
        if (total > INT32_MAX) {
            return 0;
        }
    }
    *ends = PyBytes_FromStringAndSize(NULL, (n + 1) * 4);
    column->data = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)total);
    if (*ends == NULL || column->data == NULL) {
        return -1;
    }
    char *data = PyBytes_AS_STRING(column->data), *at = PyBytes_AS_STRING(*ends);
    int32_t end = 0;
    memcpy(at, &end, 4);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (values[i] != Py_None) {
            Py_ssize_t size;
            const char *text = text_of(values[i], column->code, &size);
            memcpy(data + end, text, (size_t)size);
            end += (int32_t)size;
        }
        memcpy(at + (i + 1) * 4, &end, 4);
    }
    return 1;
}

/* The column of values as its entry of the answer: the tuple, or None. */
static PyObject *
column_entry(PyObject **values, Py_ssize_t n)
{
    Column column = {0, NULL, 0, NULL, NULL};
    PyObject *ends = NULL, *entry = NULL;
    int built = typed(&column, values, n);
    if (built && validity(&column, values, n) < 0) {
        built = -1;
    }
    if (built > 0) {
        built = column.code == 's' || column.code == 'y'
              ? variable(&column, values, n, &ends) : fixed(&column, values, n);
    }
    if (built > 0) {
        char code[2] = {column.code, 0};
        entry = Py_BuildValue("(snOOO)", code, column.nulls,
                              column.validity ? column.validity : Py_None,
                              ends ? ends : Py_None, column.data);
    }
    else if (built == 0) {
        entry = Py_NewRef(Py_None);
    }
    Py_XDECREF(column.validity);
    Py_XDECREF(column.data);
    Py_XDECREF(ends);
    return entry;
}

static PyObject *
columns(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyList_CheckExact(args[0]) || !PyType_Check(args[1])
        || !PyTuple_CheckExact(args[2])) {
        PyErr_SetString(PyExc_TypeError, "columns(records: list, kind: type, names: tuple)");
        return NULL;
    }
    PyObject *records = args[0], *names = args[2];
    Py_ssize_t n = PyList_GET_SIZE(records), count = PyTuple_GET_SIZE(names);
    for (Py_ssize_t f = 0; f < count; f++) {
        if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(names, f))) {
            PyErr_SetString(PyExc_TypeError, "columns: each name a str");
            return NULL;
        }
    }
    PyObject **values = PyMem_Malloc((size_t)(n * count + 1) * sizeof(PyObject *));
    if (values == NULL) {
        return PyErr_NoMemory();
    }
    PyObject *answer = NULL;
    int found = gathered(records, (PyTypeObject *)args[1], names, values);
    if (found == 0) {
        answer = Py_NewRef(Py_None);
    }
    else if (found > 0 && (answer = PyList_New(count)) != NULL) {
        for (Py_ssize_t f = 0; f < count; f++) {
            PyObject *entry = column_entry(values + f * n, n);
            if (entry == NULL) {
                Py_CLEAR(answer);
                break;
            }
            PyList_SET_ITEM(answer, f, entry);
        }
    }
    PyMem_Free(values);
    return answer;
}

static PyMethodDef arrow_methods[] = {
    {"columns", (PyCFunction)(void (*)(void))columns, METH_FASTCALL,
     PyDoc_STR("columns(records, kind, names): each field's column as Arrow buffers "
               "(code, nulls, validity, offsets, data), or None (see columns.c).")},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef arrow_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "lazyfun.sinks._arrow",
    .m_doc = PyDoc_STR("A batch of records' columns as Arrow buffers (see lazyfun.sinks.parquet)."),
    .m_size = 0,
    .m_methods = arrow_methods,
};

PyMODINIT_FUNC
PyInit__arrow(void)
{
    return PyModule_Create(&arrow_module);
}
