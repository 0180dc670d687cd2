/* pack and unpack, a sort's spilled frame of Structs of plain fields in a format of its
 * own: the fast engine beside lazyfun.streams.frames.Plain's msgpack by msgspec, which
 * writes each item as a map of its field names (and checks it first with holds).
 *
 * pack(items, kind, names, allowed): the frame's bytes, checked as it is written: every
 * item of the class kind itself, its slot names[f] holding a value whose type is one of
 * the tuple allowed[f] itself; None where one is not (the caller pickles the frame), an
 * int does not fit in 64 bits, a str has no UTF-8 (a lone surrogate) or a str or bytes
 * is 4 GiB long.  The bytes: MAGIC, the count of items (8 bytes), then each item's
 * fields in the order of names, each a tag and its payload: NONE, FALSE, TRUE; INT and 8 bytes; FLOAT and 8 bytes (the
 * double's bits); TEXT or BLOB, 4 bytes of length and the UTF-8 or the bytes (numbers
 * little-endian).
 *
 * unpack(payload, kind, names): the items pack wrote, each made by calling kind with
 * its fields by name (as msgspec's decoding, a Struct's __post_init__ runs). */
#include <stdint.h>
#include <string.h>

#include "steps.h"

#define MAGIC 0xc1  /* a byte msgpack never writes: a frame told from msgspec's at once */

enum tag { NONE = 'n', FALSE = 'f', TRUE = 't', INT = 'i', FLOAT = 'd', TEXT = 's', BLOB = 'b' };

typedef struct {
    PyObject *bytes;  /* the frame so far, a bytes object grown as it fills */
    Py_ssize_t used;
} Out;

/* Room for size more bytes at the end of out; NULL on no memory. */
static char *
room(Out *out, Py_ssize_t size)
{
    Py_ssize_t had = PyBytes_GET_SIZE(out->bytes);
    if (out->used + size > had) {
        Py_ssize_t want = had * 2 > out->used + size ? had * 2 : out->used + size;
        if (_PyBytes_Resize(&out->bytes, want) < 0) {
            return NULL;
        }
    }
    char *at = PyBytes_AS_STRING(out->bytes) + out->used;
    out->used += size;
    return at;
}

/* A value written; 0 where it cannot be (no error set), -1 on no memory. */
static int
put_value(Out *out, PyObject *value)
{
    char *at;
    Py_ssize_t size = 0;
    const char *data = NULL;
    char tag;
    if (value == Py_None || value == Py_False || value == Py_True) {
        tag = value == Py_None ? NONE : value == Py_False ? FALSE : TRUE;
        size = -1;
    }
    else if (PyLong_CheckExact(value)) {
        int overflow;
        int64_t number = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow) {
            return 0;
        }
        if ((at = room(out, 9)) == NULL) {
            return -1;
        }
        at[0] = INT;
        memcpy(at + 1, &number, 8);
        return 1;
    }
    else if (PyFloat_CheckExact(value)) {
        double number = PyFloat_AS_DOUBLE(value);
        if ((at = room(out, 9)) == NULL) {
            return -1;
        }
        at[0] = FLOAT;
        memcpy(at + 1, &number, 8);
        return 1;
    }
    else if (PyUnicode_CheckExact(value)) {
        tag = TEXT;
        data = PyUnicode_AsUTF8AndSize(value, &size);
        if (data == NULL) {
            PyErr_Clear();
            return 0;
        }
    }
    else if (PyBytes_CheckExact(value)) {
        tag = BLOB;
        data = PyBytes_AS_STRING(value);
        size = PyBytes_GET_SIZE(value);
    }
    else {
        return 0;
    }
    if (size < 0) {
        if ((at = room(out, 1)) == NULL) {
            return -1;
        }
        at[0] = tag;
        return 1;
    }
    if ((uint64_t)size > UINT32_MAX) {
        return 0;
    }
    if ((at = room(out, 5 + size)) == NULL) {
        return -1;
    }
    uint32_t length = (uint32_t)size;
    at[0] = tag;
    memcpy(at + 1, &length, 4);
    memcpy(at + 5, data, (size_t)size);
    return 1;
}

INTERNAL PyObject *
pack(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (frame_arguments("pack", args, nargs) < 0) {
        return NULL;
    }
    PyObject *items = args[0], *names = args[2], *allowed = args[3];
    PyTypeObject *kind = (PyTypeObject *)args[1];
    Py_ssize_t count = PyTuple_GET_SIZE(names), n = PyList_GET_SIZE(items);
    Py_ssize_t *offsets = PyMem_Malloc((size_t)(count + 1) * sizeof(Py_ssize_t));
    PyObject **values = PyMem_Malloc((size_t)(n * count + 1) * sizeof(PyObject *));
    Out out = {PyBytes_FromStringAndSize(NULL, 9 + n * (count * 9 + 16)), 0};
    if (offsets == NULL || values == NULL || out.bytes == NULL) {
        PyMem_Free(offsets);
        PyMem_Free(values);
        Py_XDECREF(out.bytes);
        return PyErr_NoMemory();
    }
    /* First each item's values, checked (held_values), then written, in the cache by
     * then: half the time of one pass doing both. */
    int written = held_values(items, kind, names, allowed, offsets, values);
    if (written) {  /* within the size made */
        uint64_t items_count = (uint64_t)n;
        char *head = room(&out, 9);
        head[0] = (char)MAGIC;
        memcpy(head + 1, &items_count, 8);
    }
    for (Py_ssize_t i = 0; written == 1 && i < n * count; i++) {
        written = put_value(&out, values[i]);
    }
    PyMem_Free(offsets);
    PyMem_Free(values);
    if (written == 1 && _PyBytes_Resize(&out.bytes, out.used) == 0) {
        return out.bytes;
    }
    Py_XDECREF(out.bytes);
    return written < 0 || PyErr_Occurred() ? NULL : Py_NewRef(Py_None);
}

/* The next value of the payload from *at (below end), moved past it; NULL with an
 * error where the payload is not one pack wrote. */
static PyObject *
get_value(const char **at, const char *end)
{
    if (*at >= end) {
        goto broken;
    }
    char tag = *(*at)++;
    if (tag == NONE || tag == FALSE || tag == TRUE) {
        return Py_NewRef(tag == NONE ? Py_None : tag == FALSE ? Py_False : Py_True);
    }
    if (tag == INT || tag == FLOAT) {
        if (end - *at < 8) {
            goto broken;
        }
        char bits[8];
        memcpy(bits, *at, 8);
        *at += 8;
        if (tag == INT) {
            int64_t number;
            memcpy(&number, bits, 8);
            return PyLong_FromLongLong(number);
        }
        double number;
        memcpy(&number, bits, 8);
        return PyFloat_FromDouble(number);
    }
    if ((tag == TEXT || tag == BLOB) && end - *at >= 4) {
        uint32_t length;
        memcpy(&length, *at, 4);
        *at += 4;
        if ((uint64_t)(end - *at) < length) {
            goto broken;
        }
        const char *data = *at;
        *at += length;
        return tag == TEXT ? PyUnicode_DecodeUTF8(data, (Py_ssize_t)length, "strict")
                           : PyBytes_FromStringAndSize(data, (Py_ssize_t)length);
    }
broken:
    PyErr_SetString(PyExc_ValueError, "unpack: not a frame pack wrote");
    return NULL;
}

INTERNAL PyObject *
unpack(PyObject *Py_UNUSED(module), PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyBytes_CheckExact(args[0]) || !PyCallable_Check(args[1])
        || !PyTuple_CheckExact(args[2])) {
        PyErr_SetString(PyExc_TypeError, "unpack(payload: bytes, kind: type, names: tuple)");
        return NULL;
    }
    PyObject *kind = args[1], *names = args[2];
    const char *at = PyBytes_AS_STRING(args[0]), *end = at + PyBytes_GET_SIZE(args[0]);
    uint64_t left;
    if (end - at < 9 || (unsigned char)*at != MAGIC) {
        PyErr_SetString(PyExc_ValueError, "unpack: not a frame pack wrote");
        return NULL;
    }
    memcpy(&left, at + 1, 8);
    at += 9;
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    PyObject **values = PyMem_Calloc((size_t)count + 1, sizeof(PyObject *));
    PyObject *items = PyList_New(0);
    if (values == NULL || items == NULL) {
        PyMem_Free(values);
        Py_XDECREF(items);
        return PyErr_NoMemory();
    }
    for (; items != NULL && left > 0; left--) {
        Py_ssize_t f = 0;
        for (; f < count && (values[f] = get_value(&at, end)) != NULL; f++) {
        }
        PyObject *item = f == count ? PyObject_Vectorcall(kind, values, 0, names) : NULL;
        for (Py_ssize_t g = 0; g < f; g++) {
            Py_CLEAR(values[g]);
        }
        if (item == NULL || PyList_Append(items, item) < 0) {
            Py_CLEAR(items);
        }
        Py_XDECREF(item);
    }
    PyMem_Free(values);
    if (items != NULL && at != end) {  /* bytes past the items it counted */
        PyErr_SetString(PyExc_ValueError, "unpack: not a frame pack wrote");
        Py_CLEAR(items);
    }
    return items;
}
