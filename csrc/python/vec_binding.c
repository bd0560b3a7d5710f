/* vec_binding.c: the game-agnostic half of an env's Python type (vec_binding.h). It
 * holds the module's NumPy API table (the bottom of the binding: every file that uses
 * NumPy uses this one, so the table's home adds no call upward). */
#define BINDING_IMPORTS_NUMPY
#include "vec_binding.h"

#include <pthread.h>
#include <string.h>

int vec_binding_import_numpy(void) { return PyArray_ImportNumPyAPI(); }

static const char *dtype_name(int typenum) {
    switch (typenum) {
    case NPY_BOOL: return "bool";
    case NPY_FLOAT32: return "float32";
    case NPY_INT8: return "int8";
    case NPY_UINT8: return "uint8";
    case NPY_INT32: return "int32";
    case NPY_INT64: return "int64";
    default: return "?";
    }
}

/* Checks an output array completely: ndarray, dtype, C-contiguous, aligned, writeable,
 * and exactly `shape`. 0, or -1 with an exception naming `name`. */
int check_array_shape(PyObject *obj, const char *name, int typenum, int ndim,
                             const npy_intp *shape) {
    char want[96] = "(", got[96] = "(";
    for (int d = 0; d < ndim; d++) {
        size_t w = strlen(want);
        snprintf(want + w, sizeof(want) - w, d + 1 < ndim ? "%zd, " : ndim == 1 ? "%zd,)" : "%zd)",
                 (Py_ssize_t)shape[d]);
    }
    if (!PyArray_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be a numpy.ndarray of dtype %s and shape %s, got %s",
                     name, dtype_name(typenum), want, Py_TYPE(obj)->tp_name);
        return -1;
    }
    PyArrayObject *a = (PyArrayObject *)obj;
    if (PyArray_TYPE(a) != typenum) {
        PyErr_Format(PyExc_TypeError, "%s must have dtype %s, got %R", name, dtype_name(typenum),
                     (PyObject *)PyArray_DESCR(a));
        return -1;
    }
    int same = PyArray_NDIM(a) == ndim;
    for (int d = 0; same && d < ndim; d++) same = PyArray_DIM(a, d) == shape[d];
    if (!same) {
        for (int d = 0; d < PyArray_NDIM(a) && d < 8; d++) {
            size_t w = strlen(got);
            snprintf(got + w, sizeof(got) - w, "%zd%s", (Py_ssize_t)PyArray_DIM(a, d),
                     d + 1 < PyArray_NDIM(a) ? ", " : ")");
        }
        if (PyArray_NDIM(a) == 0) strcpy(got, "()");
        PyErr_Format(PyExc_ValueError, "%s must have shape %s, got %s", name, want, got);
        return -1;
    }
    if (!PyArray_IS_C_CONTIGUOUS(a) || !PyArray_ISALIGNED(a)) {
        PyErr_Format(PyExc_ValueError, "%s must be C-contiguous, aligned and writeable", name);
        return -1;
    }
    if (!PyArray_ISWRITEABLE(a)) {
        PyErr_Format(PyExc_ValueError, "%s was made read-only (writeable=False), but it is "
                     "written in place; copy what you keep instead", name);
        return -1;
    }
    return 0;
}

/* Shorthand for (n,) and (n, d1) arrays. */
int check_out_array(PyObject *obj, const char *name, int typenum, npy_intp n, npy_intp d1) {
    npy_intp shape[2] = {n, d1};
    return check_array_shape(obj, name, typenum, d1 > 0 ? 2 : 1, shape);
}

/* Checks an array of observations: the leading dimensions `lead` (e.g. num_envs, and 2
 * for both players' views), then one observation's shape `dims` as its spec gives it
 * (observe_player.h), so no caller spells a board size. */
int check_obs_array(PyObject *obj, const char *name, int typenum, const npy_intp *lead, int nlead,
                    const int64_t *dims, int ndims) {
    npy_intp shape[NPY_MAXDIMS];
    for (int k = 0; k < nlead; k++) shape[k] = lead[k];
    for (int k = 0; k < ndims; k++) shape[nlead + k] = (npy_intp)dims[k];
    return check_array_shape(obj, name, typenum, nlead + ndims, shape);
}

/* fork()s this process has been through, counted in the child (pthread_atfork): a guard
 * entered in an earlier generation was entered by a thread of the parent. Written only
 * by the child's one thread, in fork(), before any Python code runs there. */
static unsigned long fork_generation;
/* The thread that made the last fork (the child's one thread then), and the generation
 * since which every fork was made by it: a guard that thread entered in that generation
 * or later is its own call, going on. Any other thread of the parent is gone from the
 * child, and a thread the child starts may be given a gone thread's id (glibc reuses
 * its stack, and the id is the stack's address): the id alone cannot tell them apart. */
static unsigned long fork_thread, fork_chain_start;
static pthread_once_t fork_counter_once = PTHREAD_ONCE_INIT;

static void fork_count_in_child(void) {
    unsigned long me = PyThread_get_thread_ident();
    if (fork_generation == 0 || me != fork_thread) fork_chain_start = fork_generation;
    fork_thread = me;
    fork_generation++;
}

static void fork_counter_install(void) { pthread_atfork(NULL, NULL, fork_count_in_child); }

/* The fork generation now; the first call installs the counter, before any guard can
 * have recorded a generation. */
static unsigned long guard_generation(void) {
    pthread_once(&fork_counter_once, fork_counter_install);
    return fork_generation;
}

/* 1 if a thread was inside the env (busy or claimed) when this process was forked from
 * its parent and is not here: the env stays where it stopped. (If the thread that
 * forked was inside, and made every fork since, it is the child's own: its call goes
 * on.) */
static int guard_interrupted(const VecGuard *g) {
    if (!(g->busy || g->claimed) || g->generation == guard_generation()) return 0;
    return !(g->owner == fork_thread && g->generation >= fork_chain_start);
}

int vec_guard_idle(const VecGuard *g, int ready) {
    if (g->closed) {
        PyErr_SetString(PyExc_RuntimeError, "the environment is closed");
        return -1;
    }
    if (!ready) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this Batch was never initialised (make environments with stratego.VecEnv)");
        return -1;
    }
    if (guard_interrupted(g)) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this process was fork()ed while a thread of its parent was inside a call of "
                        "this environment, so its games may be half-played: close() it and make a new one "
                        "in this process");
        return -1;
    }
    unsigned long me = PyThread_get_thread_ident();
    if (g->busy && g->owner == me) {
        PyErr_SetString(PyExc_RuntimeError,
                        "re-entrant call: this thread is already inside a call of this "
                        "environment (step, reset, sample_actions or load_state)");
        return -1;
    }
    if ((g->busy || g->claimed) && g->owner != me) {
        PyErr_SetString(PyExc_RuntimeError,
                        "the environment is being used by another thread; step it from one "
                        "thread at a time");
        return -1;
    }
    return 0;
}

int vec_guard_enter(VecGuard *g, int ready) {
    if (vec_guard_idle(g, ready) < 0) return -1;
    g->busy = 1;
    if (!g->claimed) {
        g->owner = PyThread_get_thread_ident();
        g->generation = guard_generation();
    }
    return 0;
}

int vec_guard_claim(VecGuard *g, int ready) {
    if (vec_guard_idle(g, ready) < 0) return -1;
    if (g->claimed) {
        PyErr_SetString(PyExc_RuntimeError,
                        "re-entrant call: this thread is already inside a call of this "
                        "environment (step, reset or load_state)");
        return -1;
    }
    g->claimed = 1;
    g->owner = PyThread_get_thread_ident();
    g->generation = guard_generation();
    return 0;
}

int vec_guard_release(VecGuard *g) {
    if (!g->claimed || g->busy || g->owner != PyThread_get_thread_ident() || guard_interrupted(g)) {
        PyErr_SetString(PyExc_RuntimeError, "release() without this thread's claim() of the environment");
        return -1;
    }
    g->claimed = 0;
    return 0;
}

int vec_guard_close(VecGuard *g) {
    if ((g->busy || g->claimed) && !guard_interrupted(g)) {
        PyErr_SetString(PyExc_RuntimeError,
                        g->owner == PyThread_get_thread_ident()
                            ? "cannot close from inside a call of this environment (re-entrant close)"
                            : "cannot close while another thread steps");
        return -1;
    }
    g->busy = g->claimed = 0;
    g->closed = 1;
    return 0;
}

int vec_arrays_writeable(PyObject *const *arrays, const char *const *names, int n) {
    for (int k = 0; k < n; k++) {
        if (arrays[k] == NULL || PyArray_ISWRITEABLE((PyArrayObject *)arrays[k])) continue;
        PyErr_Format(PyExc_ValueError,
                     "%s was made read-only (writeable=False), but the environment writes it "
                     "in place at every reset and step; copy what you keep instead",
                     names[k]);
        return -1;
    }
    return 0;
}

PyArrayObject *vec_actions_copy(PyObject *obj, int *from_unsigned) {
    if (!PyArray_Check(obj) || !PyArray_ISINTEGER((PyArrayObject *)obj)) {
        PyErr_Format(PyExc_TypeError, "actions must be a numpy array of integers, got %s",
                     PyArray_Check(obj) ? "a non-integer array" : Py_TYPE(obj)->tp_name);
        return NULL;
    }
    *from_unsigned = PyArray_ISUNSIGNED((PyArrayObject *)obj);
    /* Always a private int64 base-class copy (8 bytes a game). */
    return (PyArrayObject *)PyArray_FROMANY(obj, NPY_INT64, 0, 0,
                                            NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST | NPY_ARRAY_ENSURECOPY |
                                                NPY_ARRAY_ENSUREARRAY);
}

int vec_actions_check_shape(PyArrayObject *actions, npy_intp n) {
    if (PyArray_NDIM(actions) == 1 && PyArray_DIM(actions, 0) == n) return 0;
    PyErr_Format(PyExc_ValueError, "actions must have shape (%zd,), one per game; got ndim %d with %zd entries",
                 (Py_ssize_t)n, PyArray_NDIM(actions), (Py_ssize_t)PyArray_SIZE(actions));
    return -1;
}

void vec_actions_out_of_range(const int64_t *a, int64_t bad, int from_unsigned, int num_actions) {
    /* An unsigned array's values past INT64_MAX wrapped in the cast: show them as given. */
    if (from_unsigned) {
        PyErr_Format(PyExc_ValueError, "action %llu of game %lld is out of range [0, %d)", (unsigned long long)a[bad],
                     (long long)bad, num_actions);
    } else {
        PyErr_Format(PyExc_ValueError, "action %lld of game %lld is out of range [0, %d)", (long long)a[bad],
                     (long long)bad, num_actions);
    }
}

/* Converts an integer argument: an int or any object with __index__ (numpy.int64...),
 * not a bool, to a long in [lo, hi]. `expected` says what is wanted ("0 (red) or 1
 * (blue)"); NULL means "an int in [lo, hi]". 0, or -1 with TypeError (not an integer) or
 * ValueError (out of range, however large) naming `name`. */
int parse_int_in(PyObject *obj, const char *name, long lo, long hi, const char *expected,
                        long *out) {
    int result = -1, overflow = 0;
    char range[96];
    PyObject *index = NULL, *text = NULL;
    if (expected == NULL) {
        snprintf(range, sizeof(range), "an int in [%ld, %ld]", lo, hi);
        expected = range;
    }
    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be %s, got %s", name, expected, Py_TYPE(obj)->tp_name);
        goto done;
    }
    index = PyNumber_Index(obj);
    if (index == NULL) goto done;
    long v = PyLong_AsLongAndOverflow(index, &overflow);
    if (v == -1 && PyErr_Occurred()) goto done;
    if (overflow || v < lo || v > hi) {
        /* str() of a huge int can itself fail (the digit limit): then say so instead. */
        const char *shown = NULL;
        text = PyObject_Str(index);
        if (text != NULL) shown = PyUnicode_AsUTF8(text);
        if (shown == NULL) {
            PyErr_Clear();
            shown = "an int too large to print";
        }
        PyErr_Format(PyExc_ValueError, "%s must be %s, got %s", name, expected, shown);
        goto done;
    }
    *out = v;
    result = 0;
done:
    Py_XDECREF(index);
    Py_XDECREF(text);
    return result;
}

/* The one seed rule of both games (docs/api.md "Seeds"): an integer (int, NumPy's, any
 * __index__; not a bool) in [0, 2**64), the engine's 64-bit seed as it is. Anything else
 * is refused, never wrapped: seed 2**64 would otherwise play seed 0's games. */
int parse_seed(PyObject *obj, uint64_t *out) {
    int result = -1;
    PyObject *index = NULL;
    if (PyBool_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "seed must be an int in [0, 2**64), got %s", Py_TYPE(obj)->tp_name);
        goto done;
    }
    index = PyNumber_Index(obj);
    if (index == NULL) goto done;
    unsigned long long v = PyLong_AsUnsignedLongLong(index);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) goto done;
        PyErr_Clear();
        /* A huge int may be too long to print (the digit limit): then say so instead. */
        PyObject *text = PyObject_Str(index);
        const char *shown = text != NULL ? PyUnicode_AsUTF8(text) : NULL;
        if (shown == NULL) PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "seed must be an int in [0, 2**64), got %s",
                     shown != NULL ? shown : "an int too large to print");
        Py_XDECREF(text);
        goto done;
    }
    *out = (uint64_t)v;
    result = 0;
done:
    Py_XDECREF(index);
    return result;
}

int parse_reset_some(PyObject *args, PyObject **mask, int *reseed, uint64_t *seed) {
    PyObject *seed_obj;
    if (!PyArg_ParseTuple(args, "OO", mask, &seed_obj)) return -1;
    *reseed = seed_obj != Py_None;
    *seed = 0;
    return *reseed ? parse_seed(seed_obj, seed) : 0;
}

/* Adds the module attribute `attr`: the tuple of name_of(0), ..., name_of(n - 1), a C
 * table's names (module.c's, castle_game.c's). 0, or -1 with an exception. */
int add_names(PyObject *m, const char *attr, const char *(*name_of)(int), int n) {
    PyObject *names = NULL;
    int result = -1;
    names = PyTuple_New(n);
    if (names == NULL) goto done;
    for (int k = 0; k < n; k++) {
        PyObject *s = PyUnicode_FromString(name_of(k));
        if (s == NULL) goto done;
        PyTuple_SET_ITEM(names, k, s);
    }
    if (PyModule_AddObjectRef(m, attr, names) < 0) goto done;
    result = 0;
done:
    Py_XDECREF(names); /* AddObjectRef took its own reference */
    return result;
}
