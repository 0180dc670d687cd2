/* TimeField: an item's time read by a field's name, an ISO-8601 string as seconds since
 * 1970 (see windowed.h), as lazyfun.streams.windows.TimeField reads it with
 * iso_seconds, which stays the reference: a law (tests/test_windows_c.py) holds the two
 * to the same values and errors. */
#include "windowed.h"

#include <string.h>
#include <structmember.h>

/* The date of the time read last (its YYYY-MM-DD) and its days since 1970: times in
 * order of arrival share their date, read once. */
typedef struct {
    char date[10];
    long long days;
    int known;
} LastDate;

typedef struct {
    PyObject_HEAD
    PyObject *name;   /* the field's name */
    PyObject *parse;  /* the Python reading of a string the fast one leaves */
    vectorcallfunc vectorcall;
    LastDate last;
} TimeField;

/* The n digits at s as a number, or -1 if one is not a digit. */
static int
digits(const char *s, int n)
{
    int value = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return -1;
        }
        value = value * 10 + (s[i] - '0');
    }
    return value;
}

/* Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian). */
static long long
days_from_civil(long long y, int m, int d)
{
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int
month_days(int y, int m)
{
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return days[m - 1] + (m == 2 && leap);
}

/* The seconds since 1970 (UTC) of the common ISO-8601 shape
 * YYYY-MM-DDTHH:MM:SS[.fff|.ffffff][Z|+HH:MM|-HH:MM] (no offset: UTC), as
 * datetime.fromisoformat(text).timestamp() gives them (the exact microseconds over a
 * million, one rounding); 0 with *seconds set, or -1 for any other text (the Python
 * reading decides). */
static int
iso_seconds(const char *s, Py_ssize_t n, double *seconds, LastDate *last)
{
    if (n < 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':') {
        return -1;
    }
    if (!last->known || memcmp(last->date, s, 10) != 0) {
        int y = digits(s, 4), mo = digits(s + 5, 2), d = digits(s + 8, 2);
        if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > month_days(y, mo)) {
            return -1;
        }
        memcpy(last->date, s, 10);
        last->days = days_from_civil(y, mo, d);
        last->known = 1;
    }
    int h = digits(s + 11, 2), mi = digits(s + 14, 2), se = digits(s + 17, 2);
    if (h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) {
        return -1;
    }
    Py_ssize_t at = 19;
    long long micro = 0;
    if (at < n && s[at] == '.') {
        Py_ssize_t end = at + 1;
        while (end < n && s[end] >= '0' && s[end] <= '9') {
            end++;
        }
        Py_ssize_t width = end - at - 1;
        if (width != 3 && width != 6) {
            return -1;
        }
        micro = digits(s + at + 1, (int)width) * (width == 3 ? 1000LL : 1LL);
        at = end;
    }
    long long offset = 0;
    if (at < n && s[at] == 'Z') {
        at++;
    } else if (at < n && (s[at] == '+' || s[at] == '-')) {
        if (n - at != 6 || s[at + 3] != ':') {
            return -1;
        }
        int oh = digits(s + at + 1, 2), om = digits(s + at + 4, 2);
        if (oh < 0 || oh > 23 || om < 0 || om > 59) {
            return -1;
        }
        offset = (s[at] == '-' ? -1 : 1) * (oh * 3600LL + om * 60LL);
        at = n;
    }
    if (at != n) {
        return -1;
    }
    long long whole = last->days * 86400LL + h * 3600LL + mi * 60LL + se - offset;
    if (whole > 9000000000LL || whole < -9000000000LL) {  /* past 2^53 microseconds */
        return -1;
    }
    *seconds = (double)(whole * 1000000LL + micro) / 1e6;
    return 0;
}

/* time_field(item): the item's field; a string read as an ISO-8601 time, fast for the
 * common shape, else by the Python parse. */
PyObject *
time_of(PyObject *field, PyObject *item)
{
    TimeField *self = (TimeField *)field;
    PyObject *value = read_field(item, self->name);
    if (value == NULL || !PyUnicode_Check(value)) {
        return value;
    }
    Py_ssize_t n;
    const char *text = PyUnicode_AsUTF8AndSize(value, &n);
    double seconds;
    if (text != NULL && iso_seconds(text, n, &seconds, &self->last) == 0) {
        Py_DECREF(value);
        return PyFloat_FromDouble(seconds);
    }
    PyErr_Clear();  /* a string UTF-8 cannot hold: the Python parse says why */
    PyObject *parsed = PyObject_CallOneArg(self->parse, value);
    Py_DECREF(value);
    return parsed;
}

static PyObject *
TimeField_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (PyVectorcall_NARGS(nargsf) != 1 || kwnames != NULL) {
        PyErr_SetString(PyExc_TypeError, "TimeField takes one item");
        return NULL;
    }
    return time_of(self, args[0]);
}

static PyObject *
TimeField_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"name", "parse", NULL};
    PyObject *name, *parse;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "UO:TimeField", names, &name, &parse)) {
        return NULL;
    }
    if (!PyCallable_Check(parse)) {
        PyErr_SetString(PyExc_TypeError, "TimeField's parse must be a function");
        return NULL;
    }
    TimeField *self = (TimeField *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->name = Py_NewRef(name);
    self->parse = Py_NewRef(parse);
    self->vectorcall = TimeField_vectorcall;
    return (PyObject *)self;
}

static int
TimeField_traverse(TimeField *self, visitproc visit, void *arg)
{
    Py_VISIT(self->name);
    Py_VISIT(self->parse);
    return 0;
}

static int
TimeField_clear(TimeField *self)
{
    Py_CLEAR(self->name);
    Py_CLEAR(self->parse);
    return 0;
}

static void
TimeField_dealloc(TimeField *self)
{
    PyObject_GC_UnTrack(self);
    TimeField_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyMemberDef TimeField_members[] = {
    {"name", T_OBJECT, offsetof(TimeField, name), READONLY, PyDoc_STR("The field's name.")},
    {"parse", T_OBJECT, offsetof(TimeField, parse), READONLY,
     PyDoc_STR("The Python reading of a string.")},
    {NULL, 0, 0, 0, NULL},
};

PyTypeObject TimeFieldType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "lazyfun.streams.sync._flow.TimeField",
    .tp_doc = PyDoc_STR("An item's time read by a field's name, an ISO string as seconds."),
    .tp_basicsize = sizeof(TimeField),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = TimeField_new,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(TimeField, vectorcall),
    .tp_traverse = (traverseproc)TimeField_traverse,
    .tp_clear = (inquiry)TimeField_clear,
    .tp_dealloc = (destructor)TimeField_dealloc,
    .tp_members = TimeField_members,
};

