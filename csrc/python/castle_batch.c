/* castle_batch.c: _core.CastleBatch, N castle games stepped together (csrc/castle/
 * castle_vec.h), and the observation's tables for Python. stratego.castle.VecEnv wraps
 * it on stratego.vec_shell.VecShell. It converts and checks; the array checks, guards
 * and outputs are vec_binding.h's, the loops vec.h's, every rule the core's.
 */
#include "castle_binding.h"

#include <string.h>

#include "castle/castle_observe.h"
#include "castle/castle_vec.h"
#include "castle/castle_bot.h"
#include "castle/castle_vec_bot.h"
#include "castle/castle_view.h"

typedef struct {
    PyObject_HEAD
    CastleBatch batch;
    PyObject *outputs[VEC_OUT_NB];
    PyObject *obs[2]; /* obs, final_obs, or NULL */
    int num_threads;
    VecGuard guard;
} CastleBatchObject;

static const char *const OBS_NAMES[2] = {"obs", "final_obs"};

static void CastleBatch_release(CastleBatchObject *self) {
    castle_batch_free(&self->batch);
    for (int k = 0; k < VEC_OUT_NB; k++) Py_CLEAR(self->outputs[k]);
    for (int k = 0; k < 2; k++) Py_CLEAR(self->obs[k]);
    self->guard.closed = 1;
}

static void CastleBatch_dealloc(CastleBatchObject *self) {
    CastleBatch_release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int batch_ready(const CastleBatchObject *self) { return self->batch.states != NULL; }

static int batch_writeable(CastleBatchObject *self) {
    if (vec_arrays_writeable(self->outputs, VEC_OUT_NAMES, VEC_OUT_NB) < 0) return -1;
    return vec_arrays_writeable(self->obs, OBS_NAMES, 2);
}

static int check_threads(long threads) {
    if (threads < 1 || threads > BATCH_MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "num_threads must be in [1, %d], got %ld", BATCH_MAX_THREADS, threads);
        return -1;
    }
    return 0;
}

/* CastleBatch(num_envs, num_threads, mask, rewards, reward, terminated, truncated, to_play,
 *             final_winner, final_reason, final_plies, settings, obs=None, final_obs=None,
 *             obs_format=0, mask_bits=0, autoreset=0)
 * obs_format: 0 none, 1 planes (C, 15, 15), 2 codes (CASTLE_CODES_BYTES,), both uint8. */
static int CastleBatch_init(CastleBatchObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"num_envs", "num_threads", "mask", "rewards", "reward", "terminated", "truncated",
                             "to_play", "final_winner", "final_reason", "final_plies", "settings", "obs",
                             "final_obs", "obs_format", "mask_bits", "autoreset", NULL};
    Py_ssize_t n;
    int threads, obs_format = CASTLE_OBS_FORMAT_NONE, mask_bits = 0, autoreset = AUTORESET_SAME_STEP;
    PyObject *outs[VEC_OUT_NB], *settings_obj, *obs = Py_None, *final_obs = Py_None;
    CastleSettings cfg;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "niOOOOOOOOOO|OOipi", kwlist, &n, &threads, &outs[0], &outs[1],
                                     &outs[2], &outs[3], &outs[4], &outs[5], &outs[6], &outs[7], &outs[8],
                                     &settings_obj, &obs, &final_obs, &obs_format, &mask_bits, &autoreset))
        return -1;
    if (castle_settings_parse(settings_obj, &cfg) < 0) return -1;
    if (self->batch.states != NULL || self->guard.closed) {
        PyErr_SetString(PyExc_RuntimeError, "CastleBatch.__init__ may be called only once");
        return -1;
    }
    if (n < 1 || n > BATCH_MAX_ENVS) {
        PyErr_Format(PyExc_ValueError, "num_envs must be in [1, %d], got %zd", BATCH_MAX_ENVS, n);
        return -1;
    }
    if (check_threads(threads) < 0) return -1;
    if (obs_format < CASTLE_OBS_FORMAT_NONE || obs_format > CASTLE_OBS_FORMAT_CODES) {
        PyErr_Format(PyExc_ValueError, "obs_format must be 0 (none), 1 (planes) or 2 (codes), got %d", obs_format);
        return -1;
    }
    if (autoreset < AUTORESET_SAME_STEP || autoreset > AUTORESET_DISABLED) {
        PyErr_Format(PyExc_ValueError, "autoreset must be 0, 1 or 2 (AUTORESET_*), got %d", autoreset);
        return -1;
    }
    int views = obs_format != CASTLE_OBS_FORMAT_NONE;
    if (views != (obs != Py_None) || views != (final_obs != Py_None)) {
        PyErr_SetString(PyExc_ValueError, "obs and final_obs are given exactly when obs_format is not 0");
        return -1;
    }
    VecShape shape = castle_batch_shape((int)n, &cfg, obs_format, mask_bits);
    if (vec_outputs_check(outs, &shape, mask_bits ? NPY_UINT8 : NPY_BOOL) < 0) return -1;
    if (views) {
        int64_t planes[3] = {CASTLE_OBS_CHANNELS, CASTLE_OBS_SIDE, CASTLE_OBS_SIDE}, codes[1] = {CASTLE_CODES_BYTES};
        const int64_t *dims = obs_format == CASTLE_OBS_FORMAT_PLANES ? planes : codes;
        int ndims = obs_format == CASTLE_OBS_FORMAT_PLANES ? 3 : 1;
        npy_intp lead[1] = {n};
        if (check_obs_array(obs, "obs", NPY_UINT8, lead, 1, dims, ndims) < 0 ||
            check_obs_array(final_obs, "final_obs", NPY_UINT8, lead, 1, dims, ndims) < 0)
            return -1;
    }
    VecOutputs out = {0};
    vec_outputs_point(&out, outs);
    out.obs = views ? PyArray_DATA((PyArrayObject *)obs) : NULL;
    out.final_obs = views ? PyArray_DATA((PyArrayObject *)final_obs) : NULL;
    if (castle_batch_init(&self->batch, (int)n, &cfg, obs_format, mask_bits, autoreset, &out) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < VEC_OUT_NB; k++) self->outputs[k] = Py_NewRef(outs[k]);
    if (views) {
        self->obs[0] = Py_NewRef(obs);
        self->obs[1] = Py_NewRef(final_obs);
    }
    self->num_threads = threads;
    Py_BEGIN_ALLOW_THREADS
    castle_batch_reset_some(&self->batch, NULL, 1, 0, threads);
    Py_END_ALLOW_THREADS
    return 0;
}

static PyObject *CastleBatch_reset(CastleBatchObject *self, PyObject *seed_obj) {
    uint64_t seed;
    if (parse_seed(seed_obj, &seed) < 0) return NULL;
    if (batch_writeable(self) < 0 || vec_guard_enter(&self->guard, batch_ready(self)) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    castle_batch_reset_some(&self->batch, NULL, 1, seed, self->num_threads);
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    Py_RETURN_NONE;
}

/* reset_some(mask, seed): seed None lets the streams go on. */
static PyObject *CastleBatch_reset_some(CastleBatchObject *self, PyObject *args) {
    PyObject *mask;
    int reseed;
    uint64_t seed;
    if (parse_reset_some(args, &mask, &reseed, &seed) < 0) return NULL;
    if (vec_guard_idle(&self->guard, batch_ready(self)) < 0 || batch_writeable(self) < 0) return NULL;
    if (check_out_array(mask, "reset_mask", NPY_BOOL, self->batch.num_envs, 0) < 0) return NULL;
    if (vec_guard_enter(&self->guard, 1) < 0) return NULL;
    const uint8_t *m = PyArray_DATA((PyArrayObject *)mask);
    Py_BEGIN_ALLOW_THREADS
    castle_batch_reset_some(&self->batch, m, reseed, seed, self->num_threads);
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    Py_RETURN_NONE;
}

/* step(actions, illegal_mode=ILLEGAL_RAISE): one legal action per running game; a game
 * that is over ignores its action. An action out of range or illegal raises ValueError
 * naming the game, and nothing is played (the castle game has no rule for an illegal
 * action, so ILLEGAL_RAISE is the only mode). */
static PyObject *CastleBatch_step(CastleBatchObject *self, PyObject *args) {
    PyObject *result = NULL, *actions_obj;
    PyArrayObject *actions = NULL;
    int from_unsigned = 0, entered = 0, mode = ILLEGAL_RAISE;
    if (!PyArg_ParseTuple(args, "O|i", &actions_obj, &mode)) goto done;
    if (mode != ILLEGAL_RAISE) {
        PyErr_Format(PyExc_ValueError, "the castle batch raises on illegal actions (ILLEGAL_RAISE), got mode %d", mode);
        goto done;
    }
    actions = vec_actions_copy(actions_obj, &from_unsigned);
    if (actions == NULL) goto done;
    if (vec_guard_idle(&self->guard, batch_ready(self)) < 0 || batch_writeable(self) < 0) goto done;
    if (vec_actions_check_shape(actions, self->batch.num_envs) < 0) goto done;
    const int64_t *a = PyArray_DATA(actions);
    const CastleBatch *b = &self->batch;
    for (int64_t i = 0; i < b->num_envs; i++) {
        if (b->states[i].done) continue;
        if (a[i] < 0 || a[i] >= b->actions) {
            vec_actions_out_of_range(a, i, from_unsigned, b->actions);
            goto done;
        }
        if (!castle_batch_legal(b, i, a[i])) {
            char why[200];
            castle_check(&b->states[i], &b->cfg, (int)a[i], why, sizeof(why));
            PyErr_Format(PyExc_ValueError, "illegal action %lld in game %lld: %s", (long long)a[i], (long long)i, why);
            goto done;
        }
    }
    if (vec_guard_enter(&self->guard, 1) < 0) goto done;
    entered = 1;
    Py_BEGIN_ALLOW_THREADS
    castle_batch_step(&self->batch, a, self->num_threads);
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    if (entered) vec_guard_leave(&self->guard);
    Py_XDECREF(actions);
    return result;
}

/* sample_actions(out): the random agent (castle_batch_sample). */
static PyObject *CastleBatch_sample_actions(CastleBatchObject *self, PyObject *out) {
    if (vec_guard_idle(&self->guard, batch_ready(self)) < 0) return NULL;
    if (check_out_array(out, "out", NPY_INT64, self->batch.num_envs, 0) < 0) return NULL;
    if (vec_guard_enter(&self->guard, 1) < 0) return NULL;
    int64_t *a = PyArray_DATA((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
    castle_batch_sample(&self->batch, a, self->num_threads);
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    Py_RETURN_NONE;
}

/* bot_actions(name, out): each game's action by the castle bot `name` (castle_bot.h),
 * from its seat's view, on the game's sampler stream; -1 for a game over. */
static PyObject *CastleBatch_bot_actions(CastleBatchObject *self, PyObject *args) {
    const char *name;
    PyObject *out;
    if (!PyArg_ParseTuple(args, "sO", &name, &out)) return NULL;
    int kind = castle_bot_kind_from_name(name);
    if (kind < 0) {
        PyErr_Format(PyExc_ValueError, "unknown castle bot %R; expected 'random' or 'heuristic'", PyTuple_GET_ITEM(args, 0));
        return NULL;
    }
    if (vec_guard_idle(&self->guard, batch_ready(self)) < 0) return NULL;
    if (check_out_array(out, "out", NPY_INT64, self->batch.num_envs, 0) < 0) return NULL;
    if (vec_guard_enter(&self->guard, 1) < 0) return NULL;
    int64_t *a = PyArray_DATA((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
    castle_batch_bot_actions(&self->batch, kind, a, self->num_threads);
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    Py_RETURN_NONE;
}

static PyObject *CastleBatch_games_over(CastleBatchObject *self, PyObject *out) {
    if (vec_guard_idle(&self->guard, batch_ready(self)) < 0) return NULL;
    if (check_out_array(out, "the array of finished games", NPY_BOOL, self->batch.num_envs, 0) < 0) return NULL;
    uint8_t *over = PyArray_DATA((PyArrayObject *)out);
    for (int64_t i = 0; i < self->batch.num_envs; i++) over[i] = self->batch.states[i].done;
    Py_RETURN_NONE;
}

/* game_state(i) -> (settings tuple, state bytes): game i as CastleGame.from_state takes it. */
static PyObject *CastleBatch_game_state(CastleBatchObject *self, PyObject *arg) {
    Py_ssize_t i = PyNumber_AsSsize_t(arg, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (vec_guard_idle(&self->guard, batch_ready(self)) < 0) return NULL;
    if (i < 0 || i >= self->batch.num_envs) {
        PyErr_Format(PyExc_IndexError, "game index must be in [0, %d), got %zd", self->batch.num_envs, i);
        return NULL;
    }
    PyObject *settings = castle_settings_build(&self->batch.cfg);
    if (settings == NULL) return NULL;
    return Py_BuildValue("(Ny#)", settings, (const char *)&self->batch.states[i], (Py_ssize_t)sizeof(CastleState));
}

static PyObject *CastleBatch_stats(CastleBatchObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_idle(&self->guard, batch_ready(self)) < 0) return NULL;
    const VecTally *t = &self->batch.stats;
    PyObject *wins = PyTuple_New(self->batch.seats);
    if (wins == NULL) return NULL;
    for (int p = 0; p < self->batch.seats; p++) {
        PyObject *v = PyLong_FromLongLong(t->wins[p]);
        if (v == NULL) {
            Py_DECREF(wins);
            return NULL;
        }
        PyTuple_SET_ITEM(wins, p, v);
    }
    return Py_BuildValue("{sLsNsLsLsLsK}", "games_finished", (long long)t->finished, "wins", wins, "draws",
                         (long long)t->draws, "cap_draws", (long long)t->marked, "plies", (long long)t->plies,
                         "checksum", (unsigned long long)t->checksum);
}

static PyObject *CastleBatch_save(CastleBatchObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_idle(&self->guard, batch_ready(self)) < 0) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)castle_save_bytes(&self->batch));
    if (out == NULL) return NULL;
    castle_save_write(&self->batch, (uint8_t *)PyBytes_AS_STRING(out));
    return out;
}

static PyObject *CastleBatch_restore(CastleBatchObject *self, PyObject *data) {
    char err[240];
    if (!PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "saved state must be bytes, got %s", Py_TYPE(data)->tp_name);
        return NULL;
    }
    if (batch_writeable(self) < 0 || vec_guard_enter(&self->guard, batch_ready(self)) < 0) return NULL;
    const uint8_t *buf = (const uint8_t *)PyBytes_AS_STRING(data);
    size_t len = (size_t)PyBytes_GET_SIZE(data);
    int bad = castle_save_check(&self->batch, buf, len, err, sizeof(err)) < 0;
    if (!bad) {
        castle_save_read(&self->batch, buf);
        Py_BEGIN_ALLOW_THREADS
        castle_batch_write_outputs(&self->batch, self->num_threads);
        Py_END_ALLOW_THREADS
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
static PyObject *CastleBatch_claim(CastleBatchObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_claim(&self->guard, batch_ready(self)) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *CastleBatch_end_claim(CastleBatchObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_release(&self->guard) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *CastleBatch_close(CastleBatchObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_close(&self->guard) < 0) return NULL;
    CastleBatch_release(self);
    Py_RETURN_NONE;
}

static PyObject *CastleBatch_get_closed(CastleBatchObject *self, void *Py_UNUSED(closure)) {
    return PyBool_FromLong(self->guard.closed);
}

static PyObject *CastleBatch_get_num_threads(CastleBatchObject *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLong(self->num_threads);
}

static int CastleBatch_set_num_threads(CastleBatchObject *self, PyObject *value, void *Py_UNUSED(closure)) {
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "num_threads cannot be deleted");
        return -1;
    }
    if (!PyLong_Check(value) || PyBool_Check(value)) {
        PyErr_Format(PyExc_TypeError, "num_threads must be an int, got %s", Py_TYPE(value)->tp_name);
        return -1;
    }
    long threads = PyLong_AsLong(value);
    if (threads == -1 && PyErr_Occurred()) return -1;
    if (check_threads(threads) < 0 || vec_guard_idle(&self->guard, batch_ready(self)) < 0) return -1;
    self->num_threads = (int)threads;
    return 0;
}

static PyGetSetDef CastleBatch_getset[] = {
    {"closed", (getter)CastleBatch_get_closed, NULL, "Whether close() was called.", NULL},
    {"num_threads", (getter)CastleBatch_get_num_threads, (setter)CastleBatch_set_num_threads, "Threads of the pool.",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef CastleBatch_methods[] = {
    {"reset", (PyCFunction)CastleBatch_reset, METH_O, "reset(seed): every game anew from (seed, i)."},
    {"reset_some", (PyCFunction)CastleBatch_reset_some, METH_VARARGS, "reset_some(mask, seed or None)."},
    {"step", (PyCFunction)CastleBatch_step, METH_VARARGS, "step(actions): one legal action a running game."},
    {"sample_actions", (PyCFunction)CastleBatch_sample_actions, METH_O, "sample_actions(out): the random agent."},
    {"bot_actions", (PyCFunction)CastleBatch_bot_actions, METH_VARARGS, "bot_actions(name, out): the castle bots."},
    {"games_over", (PyCFunction)CastleBatch_games_over, METH_O, "games_over(out): games ended, not restarted."},
    {"game_state", (PyCFunction)CastleBatch_game_state, METH_O, "game_state(i) -> (settings, state bytes)."},
    {"stats", (PyCFunction)CastleBatch_stats, METH_NOARGS, "stats() -> counters since the last reset."},
    {"save", (PyCFunction)CastleBatch_save, METH_NOARGS, "save() -> bytes (the batch, exactly)."},
    {"restore", (PyCFunction)CastleBatch_restore, METH_O, "restore(bytes): a save of this batch's shape."},
    {"claim", (PyCFunction)CastleBatch_claim, METH_NOARGS,
     "claim(): refuses every other thread's call until release() (VecShell holds it across a call)."},
    {"release", (PyCFunction)CastleBatch_end_claim, METH_NOARGS, "release(): ends this thread's claim()."},
    {"close", (PyCFunction)CastleBatch_close, METH_NOARGS, "close(): frees the games."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CastleBatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "stratego._core.CastleBatch",
    .tp_basicsize = sizeof(CastleBatchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "N castle games stepped together (use stratego.castle.VecEnv).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)CastleBatch_init,
    .tp_dealloc = (destructor)CastleBatch_dealloc,
    .tp_methods = CastleBatch_methods,
    .tp_getset = CastleBatch_getset,
};

/* castle_obs_tables() -> dict: what stratego.castle.observation's expander needs: the
 * planes of each cell code, the static frames (zones, recruitment spaces) by `missing`,
 * the ring's cells and the layout offsets. */
static PyObject *core_castle_obs_tables(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(unused)) {
    PyObject *cell = NULL, *zone = NULL, *recruit = NULL, *ring = NULL, *names = NULL, *out = NULL;
    const CastleObsFrame *frames = castle_obs_frames();
    cell = PyBytes_FromStringAndSize((const char *)CASTLE_CELL_PLANES, sizeof(CASTLE_CELL_PLANES));
    zone = PyBytes_FromStringAndSize(NULL, 4 * CASTLE_OBS_CELLS);
    recruit = PyBytes_FromStringAndSize(NULL, 4 * CASTLE_OBS_CELLS);
    ring = PyBytes_FromStringAndSize((const char *)CASTLE_RING_CELLS, sizeof(CASTLE_RING_CELLS));
    names = PyTuple_New(CASTLE_OBS_CHANNELS);
    if (cell == NULL || zone == NULL || recruit == NULL || ring == NULL || names == NULL) goto done;
    for (int m = 0; m < 4; m++) {
        memcpy(PyBytes_AS_STRING(zone) + m * CASTLE_OBS_CELLS, frames[m].zone, CASTLE_OBS_CELLS);
        memcpy(PyBytes_AS_STRING(recruit) + m * CASTLE_OBS_CELLS, frames[m].recruit, CASTLE_OBS_CELLS);
    }
    for (int k = 0; k < CASTLE_OBS_CHANNELS; k++) {
        PyObject *s = PyUnicode_FromString(CASTLE_OBS_CHANNEL_NAMES[k]);
        if (s == NULL) goto done;
        PyTuple_SET_ITEM(names, k, s);
    }
    out = Py_BuildValue(
        "{sOsOsOsOsOsisisisisisisisisisisisisisisisi}", "cell_planes", cell, "zone", zone, "recruit", recruit,
        "ring_cells", ring, "channels", names, "side", CASTLE_OBS_SIDE, "codes_bytes", CASTLE_CODES_BYTES,
        "version", CASTLE_OBS_VERSION, "turret_cell", CASTLE_TURRET_CELL, "missing", CASTLE_CODE_MISSING,
        "teams", CASTLE_CODE_TEAMS, "phase", CASTLE_CODE_PHASE, "to_move", CASTLE_CODE_TO_MOVE, "mover",
        CASTLE_CODE_MOVER, "take", CASTLE_CODE_TAKE, "progress", CASTLE_CODE_PROGRESS, "flag_pos",
        CASTLE_CODE_FLAG_POS, "flag_state", CASTLE_CODE_FLAG_STATE, "slider", CASTLE_CODE_SLIDER, "removed",
        CASTLE_CODE_REMOVED, "pos_ring", CASTLE_POS_RING);
done:
    Py_XDECREF(cell);
    Py_XDECREF(zone);
    Py_XDECREF(recruit);
    Py_XDECREF(ring);
    Py_XDECREF(names);
    return out;
}

static PyMethodDef CASTLE_BATCH_FUNCTIONS[] = {
    {"castle_obs_tables", core_castle_obs_tables, METH_NOARGS, "castle_obs_tables() -> the observation's tables."},
    {NULL, NULL, 0, NULL},
};

int castle_batch_binding_add(PyObject *m) {
    castle_view_init();
    if (PyType_Ready(&CastleBatchType) < 0 || PyModule_AddType(m, &CastleBatchType) < 0) return -1;
    if (PyModule_AddFunctions(m, CASTLE_BATCH_FUNCTIONS) < 0) return -1;
    if (PyModule_AddIntConstant(m, "CASTLE_OBS_CHANNELS", CASTLE_OBS_CHANNELS) < 0 ||
        PyModule_AddIntConstant(m, "CASTLE_CODES_BYTES", CASTLE_CODES_BYTES) < 0 ||
        PyModule_AddIntConstant(m, "CASTLE_OBS_SIDE", CASTLE_OBS_SIDE) < 0 ||
        PyModule_AddIntConstant(m, "CASTLE_OBS_VERSION", CASTLE_OBS_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "CASTLE_SAVE_VERSION", CASTLE_SAVE_VERSION) < 0)
        return -1;
    return 0;
}
