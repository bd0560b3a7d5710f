/* tiny_binding.c: the test game of tiny_game.h as a Python extension, `_tiny` (built by
 * tests/test_second_game.py, never installed). What a second game's binding costs on
 * the seam: its settings and methods; the array checks, guards, outputs and the copy of
 * the actions are vec_binding.h's, the loops vec.h's. tests/tiny_env.py wraps it in
 * stratego.vec_shell.VecShell, as VecEnv wraps _core.Batch.
 */
#define BINDING_IMPORTS_NUMPY
#include "python/vec_binding.h"

#include "tiny_game.h"

typedef struct {
    PyObject_HEAD
    TinyBatch batch;
    PyObject *outputs[VEC_OUT_NB];
    PyObject *obs[2]; /* obs, final_obs, or NULL */
    int num_threads;
    VecGuard guard;
} TinyObject;

static const char *const OBS_NAMES[2] = {"obs", "final_obs"};

static void Tiny_release(TinyObject *self) {
    tiny_batch_free(&self->batch);
    for (int k = 0; k < VEC_OUT_NB; k++) Py_CLEAR(self->outputs[k]);
    for (int k = 0; k < 2; k++) Py_CLEAR(self->obs[k]);
    self->guard.closed = 1;
}

static void Tiny_dealloc(TinyObject *self) {
    Tiny_release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Tiny_ready(const TinyObject *self) { return self->batch.states != NULL; }

static int Tiny_writeable(TinyObject *self) {
    if (vec_arrays_writeable(self->outputs, VEC_OUT_NAMES, VEC_OUT_NB) < 0) return -1;
    return vec_arrays_writeable(self->obs, OBS_NAMES, 2);
}

/* Batch(num_envs, num_threads, mask, rewards, reward, terminated, truncated, to_play,
 *       final_winner, final_reason, final_plies, obs=None, final_obs=None, autoreset=0,
 *       max_plies=50) */
static int Tiny_init(TinyObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"num_envs", "num_threads", "mask", "rewards", "reward", "terminated", "truncated",
                             "to_play", "final_winner", "final_reason", "final_plies", "obs", "final_obs",
                             "autoreset", "max_plies", NULL};
    Py_ssize_t n;
    int threads, autoreset = AUTORESET_SAME_STEP, max_plies = 50;
    PyObject *outs[VEC_OUT_NB], *obs = Py_None, *final_obs = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "niOOOOOOOOO|OOii", kwlist, &n, &threads, &outs[0], &outs[1],
                                     &outs[2], &outs[3], &outs[4], &outs[5], &outs[6], &outs[7], &outs[8], &obs,
                                     &final_obs, &autoreset, &max_plies))
        return -1;
    if (self->batch.states != NULL || self->guard.closed) {
        PyErr_SetString(PyExc_RuntimeError, "Batch.__init__ may be called only once");
        return -1;
    }
    if (n < 1 || n > (1 << 20) || threads < 1 || threads > 64 || autoreset < AUTORESET_SAME_STEP ||
        autoreset > AUTORESET_DISABLED || max_plies < 0) {
        PyErr_SetString(PyExc_ValueError, "num_envs in [1, 2^20], num_threads in [1, 64], autoreset 0-2, max_plies >= 0");
        return -1;
    }
    int views = obs != Py_None;
    VecShape shape = tiny_shape((int)n, views);
    int64_t dims[1] = {TINY_OBS_BYTES};
    npy_intp lead[1] = {n};
    if (vec_outputs_check(outs, &shape, NPY_BOOL) < 0) return -1;
    if (views && (check_obs_array(obs, "obs", NPY_UINT8, lead, 1, dims, 1) < 0 ||
                  check_obs_array(final_obs, "final_obs", NPY_UINT8, lead, 1, dims, 1) < 0))
        return -1;
    if (!views && final_obs != Py_None) {
        PyErr_SetString(PyExc_ValueError, "final_obs goes with obs");
        return -1;
    }
    VecOutputs out = {0};
    vec_outputs_point(&out, outs);
    out.obs = views ? PyArray_DATA((PyArrayObject *)obs) : NULL;
    out.final_obs = views ? PyArray_DATA((PyArrayObject *)final_obs) : NULL;
    if (tiny_batch_init(&self->batch, (int)n, (TinyRules){(uint32_t)max_plies}, views, autoreset, &out) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < VEC_OUT_NB; k++) {
        Py_INCREF(outs[k]);
        self->outputs[k] = outs[k];
    }
    if (views) {
        Py_INCREF(obs);
        Py_INCREF(final_obs);
        self->obs[0] = obs;
        self->obs[1] = final_obs;
    }
    self->num_threads = threads;
    tiny_batch_reset_some(&self->batch, NULL, 1, 0, threads);
    return 0;
}

static PyObject *Tiny_reset(TinyObject *self, PyObject *seed_obj) {
    unsigned long long seed = PyLong_AsUnsignedLongLong(seed_obj);
    if (seed == (unsigned long long)-1 && PyErr_Occurred()) return NULL;
    if (Tiny_writeable(self) < 0 || vec_guard_enter(&self->guard, Tiny_ready(self)) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    tiny_batch_reset_some(&self->batch, NULL, 1, seed, self->num_threads);
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    Py_RETURN_NONE;
}

/* reset_some(mask, seed): seed None lets the streams go on. */
static PyObject *Tiny_reset_some(TinyObject *self, PyObject *args) {
    PyObject *mask, *seed_obj;
    unsigned long long seed = 0;
    if (!PyArg_ParseTuple(args, "OO", &mask, &seed_obj)) return NULL;
    int reseed = seed_obj != Py_None;
    if (reseed && (seed = PyLong_AsUnsignedLongLong(seed_obj)) == (unsigned long long)-1 && PyErr_Occurred())
        return NULL;
    if (vec_guard_idle(&self->guard, Tiny_ready(self)) < 0 || Tiny_writeable(self) < 0) return NULL;
    if (check_out_array(mask, "reset_mask", NPY_BOOL, self->batch.num_envs, 0) < 0) return NULL;
    if (vec_guard_enter(&self->guard, 1) < 0) return NULL;
    const uint8_t *m = PyArray_DATA((PyArrayObject *)mask);
    Py_BEGIN_ALLOW_THREADS
    tiny_batch_reset_some(&self->batch, m, reseed, seed, self->num_threads);
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    Py_RETURN_NONE;
}

static PyObject *Tiny_step(TinyObject *self, PyObject *args) {
    PyObject *actions_obj, *result = NULL;
    PyArrayObject *actions = NULL;
    int mode, from_unsigned = 0, entered = 0;
    if (!PyArg_ParseTuple(args, "Oi", &actions_obj, &mode)) goto done;
    actions = vec_actions_copy(actions_obj, &from_unsigned);
    if (actions == NULL) goto done;
    if (vec_guard_idle(&self->guard, Tiny_ready(self)) < 0 || Tiny_writeable(self) < 0) goto done;
    if (vec_actions_check_shape(actions, self->batch.num_envs) < 0) goto done;
    const int64_t *a = PyArray_DATA(actions);
    /* A game that is over ignores its action, whatever it is. */
    for (int64_t i = 0; i < self->batch.num_envs; i++) {
        if (self->batch.states[i].done) continue;
        if (a[i] < 0 || a[i] >= TINY_ACTIONS) {
            vec_actions_out_of_range(a, i, from_unsigned, TINY_ACTIONS);
            goto done;
        }
        if (mode == ILLEGAL_RAISE && !tiny_legal(&self->batch.states[i], a[i])) {
            PyErr_Format(PyExc_ValueError, "illegal action %lld in game %lld", (long long)a[i], (long long)i);
            goto done;
        }
    }
    if (vec_guard_enter(&self->guard, 1) < 0) goto done;
    entered = 1;
    Py_BEGIN_ALLOW_THREADS
    tiny_batch_step(&self->batch, a, mode, self->num_threads);
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    if (entered) vec_guard_leave(&self->guard);
    Py_XDECREF(actions);
    return result;
}

/* sample_actions(out): a uniformly random set entry of each game's mask row, from its
 * own stream; -1 where none. */
static PyObject *Tiny_sample_actions(TinyObject *self, PyObject *out) {
    if (vec_guard_idle(&self->guard, Tiny_ready(self)) < 0) return NULL;
    if (check_out_array(out, "out", NPY_INT64, self->batch.num_envs, 0) < 0) return NULL;
    int64_t *a = PyArray_DATA((PyArrayObject *)out);
    TinyBatch *b = &self->batch;
    for (int64_t i = 0; i < b->num_envs; i++)
        a[i] = vec_mask_sample(b->out.mask + i * TINY_ACTIONS, TINY_ACTIONS, &b->sample_rng[i]);
    Py_RETURN_NONE;
}

/* games_over(out): out[i] = whether game i has ended and not started again (the game's
 * own over hook), so the shell reads the engine's answer, as VecEnv does. */
static PyObject *Tiny_games_over(TinyObject *self, PyObject *out) {
    if (vec_guard_idle(&self->guard, Tiny_ready(self)) < 0) return NULL;
    if (check_out_array(out, "the array of finished games", NPY_BOOL, self->batch.num_envs, 0) < 0) return NULL;
    uint8_t *over = PyArray_DATA((PyArrayObject *)out);
    for (int64_t i = 0; i < self->batch.num_envs; i++) over[i] = (uint8_t)tiny_hook_over(&self->batch, i);
    Py_RETURN_NONE;
}

static PyObject *Tiny_stats(TinyObject *self, PyObject *unused) {
    (void)unused;
    if (vec_guard_idle(&self->guard, Tiny_ready(self)) < 0) return NULL;
    const VecTally *t = &self->batch.stats;
    return Py_BuildValue("{sLs(LLL)sLsLsK}", "games_finished", (long long)t->finished, "wins", (long long)t->wins[0],
                         (long long)t->wins[1], (long long)t->wins[2], "draws", (long long)t->draws, "cap_draws",
                         (long long)t->marked, "checksum", (unsigned long long)t->checksum);
}

static PyObject *Tiny_save(TinyObject *self, PyObject *unused) {
    (void)unused;
    if (vec_guard_idle(&self->guard, Tiny_ready(self)) < 0) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)tiny_save_bytes(&self->batch));
    if (out == NULL) return NULL;
    tiny_save_write(&self->batch, (uint8_t *)PyBytes_AS_STRING(out));
    return out;
}

static PyObject *Tiny_restore(TinyObject *self, PyObject *data) {
    char err[200];
    if (!PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "saved state must be bytes, got %s", Py_TYPE(data)->tp_name);
        return NULL;
    }
    if (Tiny_writeable(self) < 0 || vec_guard_enter(&self->guard, Tiny_ready(self)) < 0) return NULL;
    const uint8_t *buf = (const uint8_t *)PyBytes_AS_STRING(data);
    size_t len = (size_t)PyBytes_GET_SIZE(data);
    int bad = tiny_save_check(&self->batch, buf, len, err, sizeof(err)) < 0;
    if (!bad) {
        tiny_save_read(&self->batch, buf);
        tiny_batch_write_outputs(&self->batch, self->num_threads);
    }
    vec_guard_leave(&self->guard);
    if (bad) {
        PyErr_Format(PyExc_ValueError, "cannot load this saved state: %s", err);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* claim() / release(): VecShell's hold on the env across one Python-level call
 * (vec_binding.h). */
static PyObject *Tiny_claim(TinyObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_claim(&self->guard, Tiny_ready(self)) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Tiny_end_claim(TinyObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_release(&self->guard) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Tiny_close(TinyObject *self, PyObject *unused) {
    (void)unused;
    if (vec_guard_close(&self->guard) < 0) return NULL;
    Tiny_release(self);
    Py_RETURN_NONE;
}

static PyObject *Tiny_get_closed(TinyObject *self, void *closure) {
    (void)closure;
    return PyBool_FromLong(self->guard.closed);
}

static PyObject *Tiny_get_num_threads(TinyObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLong(self->num_threads);
}

static PyGetSetDef Tiny_getset[] = {
    {"closed", (getter)Tiny_get_closed, NULL, "Whether close() was called.", NULL},
    {"num_threads", (getter)Tiny_get_num_threads, NULL, "Threads of the pool.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Tiny_methods[] = {
    {"reset", (PyCFunction)Tiny_reset, METH_O, NULL},
    {"reset_some", (PyCFunction)Tiny_reset_some, METH_VARARGS, NULL},
    {"step", (PyCFunction)Tiny_step, METH_VARARGS, NULL},
    {"sample_actions", (PyCFunction)Tiny_sample_actions, METH_O, NULL},
    {"games_over", (PyCFunction)Tiny_games_over, METH_O, NULL},
    {"stats", (PyCFunction)Tiny_stats, METH_NOARGS, NULL},
    {"save", (PyCFunction)Tiny_save, METH_NOARGS, NULL},
    {"restore", (PyCFunction)Tiny_restore, METH_O, NULL},
    {"claim", (PyCFunction)Tiny_claim, METH_NOARGS,
     "claim(): refuses every other thread's call until release() (VecShell holds it across a call)."},
    {"release", (PyCFunction)Tiny_end_claim, METH_NOARGS, "release(): ends this thread's claim()."},
    {"close", (PyCFunction)Tiny_close, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject TinyType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "_tiny.Batch",
    .tp_basicsize = sizeof(TinyObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "N games of the test game stepped together (tests/tiny_env.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Tiny_init,
    .tp_dealloc = (destructor)Tiny_dealloc,
    .tp_methods = Tiny_methods,
    .tp_getset = Tiny_getset,
};

static int tiny_exec(PyObject *m) {
    if (PyType_Ready(&TinyType) < 0) return -1;
    if (PyModule_AddObjectRef(m, "Batch", (PyObject *)&TinyType) < 0) return -1;
    if (PyModule_AddIntConstant(m, "NUM_ACTIONS", TINY_ACTIONS) < 0 ||
        PyModule_AddIntConstant(m, "NUM_PLAYERS", TINY_SEATS) < 0 ||
        PyModule_AddIntConstant(m, "OBS_BYTES", TINY_OBS_BYTES) < 0 ||
        PyModule_AddIntConstant(m, "CELLS", TINY_CELLS) < 0)
        return -1;
    return 0;
}

static PyModuleDef_Slot tiny_slots[] = {{Py_mod_exec, tiny_exec}, {0, NULL}};

static struct PyModuleDef tiny_module = {
    PyModuleDef_HEAD_INIT, .m_name = "_tiny", .m_doc = "The test game on the batch seam.", .m_size = 0,
    .m_slots = tiny_slots,
};

PyMODINIT_FUNC PyInit__tiny(void) {
    import_array();
    return PyModuleDef_Init(&tiny_module);
}
