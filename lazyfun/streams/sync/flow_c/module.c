/* The module lazyfun.streams.sync._flow: the iterator types of steps.h made ready and
 * added, by_fields, fields_of and holds (order.c), pack and unpack (spill.c), and its
 * entry point. */
#include "states.h"
#include "steps.h"
#include "windowed.h"

static int
flow_exec(PyObject *module)
{
    if (PyType_Ready(&GuardedType) < 0 || PyType_Ready(&CountedType) < 0
        || PyType_Ready(&TallyType) < 0 || PyType_Ready(&CallsType) < 0
        || PyType_Ready(&FlatMappedType) < 0 || PyType_Ready(&FolderType) < 0 || PyType_Ready(&AccsType) < 0
        || PyType_Ready(&StatesType) < 0
        || PyType_Ready(&RunsType) < 0 || PyType_Ready(&ProbeType) < 0
        || PyType_Ready(&TimeFieldType) < 0
        || PyType_Ready(&WindowedType) < 0) {
        return -1;
    }
    if (PyModule_AddObjectRef(module, "Guarded", (PyObject *)&GuardedType) < 0
        || PyModule_AddObjectRef(module, "Tally", (PyObject *)&TallyType) < 0
        || PyModule_AddObjectRef(module, "Calls", (PyObject *)&CallsType) < 0
        || PyModule_AddObjectRef(module, "FlatMapped", (PyObject *)&FlatMappedType) < 0
        || PyModule_AddObjectRef(module, "Folder", (PyObject *)&FolderType) < 0
        || PyModule_AddObjectRef(module, "Accs", (PyObject *)&AccsType) < 0
        || PyModule_AddObjectRef(module, "States", (PyObject *)&StatesType) < 0
        || PyModule_AddObjectRef(module, "Runs", (PyObject *)&RunsType) < 0
        || PyModule_AddObjectRef(module, "Probe", (PyObject *)&ProbeType) < 0
        || PyModule_AddObjectRef(module, "TimeField", (PyObject *)&TimeFieldType) < 0
        || PyModule_AddObjectRef(module, "Windowed", (PyObject *)&WindowedType) < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(module, "Counted", (PyObject *)&CountedType);
}

static PyMethodDef flow_methods[] = {
    {"by_fields", (PyCFunction)(void (*)(void))by_fields, METH_FASTCALL,
     PyDoc_STR("by_fields(items, fields, reverse, ends=None): items sorted stably by the tuples "
               "of their fields (given ends, their runs merged), or None where a field is not "
               "of one kind (see order.c).")},
    {"fields_of", (PyCFunction)(void (*)(void))fields_of, METH_FASTCALL,
     PyDoc_STR("fields_of(items, names): a list a name of the items' values of that slot, or "
               "None where the items are not all of one class with such slots (see order.c).")},
    {"holds", (PyCFunction)(void (*)(void))holds, METH_FASTCALL,
     PyDoc_STR("holds(items, kind, names, allowed): whether every item is a kind itself whose "
               "slot names[f] holds a value of a type of allowed[f] itself (see order.c).")},
    {"pack", (PyCFunction)(void (*)(void))pack, METH_FASTCALL,
     PyDoc_STR("pack(items, kind, names, allowed): a spilled frame's bytes, written where holds "
               "would be true, else None (see spill.c).")},
    {"unpack", (PyCFunction)(void (*)(void))unpack, METH_FASTCALL,
     PyDoc_STR("unpack(payload, kind, names): the items of a frame pack wrote (see spill.c).")},
    {NULL, NULL, 0, NULL},
};

static PyModuleDef_Slot flow_slots[] = {
    {Py_mod_exec, flow_exec},
    {0, NULL},
};

static struct PyModuleDef flow_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "lazyfun.streams.sync._flow",
    .m_doc = PyDoc_STR("The hot steps of a Stream as C iterators (see lazyfun.streams.sync.flow)."),
    .m_size = 0,
    .m_methods = flow_methods,
    .m_slots = flow_slots,
};

PyMODINIT_FUNC
PyInit__flow(void)
{
    return PyModuleDef_Init(&flow_module);
}
