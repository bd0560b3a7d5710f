/* batch_glue.c: the one Python batch type of every game (batch_glue.h). */
#include "batch_glue.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const GlueGame *game_of(PyObject *self) { return ((GlueBatch *)self)->game; }

void glue_layout_add(GlueLayout *l, int keyword, int typenum, const npy_intp *lead, int nlead, const int64_t *dims,
                     int ndims) {
    /* More than the layout holds is the game's bug: counted, not written (glue_layout_of). */
    if (l->n >= GLUE_ARRAYS_MAX || nlead + ndims > GLUE_NDIM_MAX) {
        l->n = GLUE_ARRAYS_MAX + 1;
        return;
    }
    GlueArray *a = &l->arrays[l->n++];
    a->keyword = keyword;
    a->typenum = typenum;
    a->ndim = nlead + ndims;
    for (int k = 0; k < nlead; k++) a->shape[k] = lead[k];
    for (int k = 0; k < ndims; k++) a->shape[nlead + k] = (npy_intp)dims[k];
}

void glue_layout_outputs(GlueLayout *l, int first, const VecShape *shape, int mask_type) {
    static const int types[VEC_OUT_NB] = {NPY_BOOL, NPY_FLOAT32, NPY_FLOAT32, NPY_BOOL, NPY_BOOL,
                                          NPY_INT8, NPY_INT8,    NPY_UINT8,   NPY_INT32};
    npy_intp lead[1] = {shape->num_envs};
    l->num_envs = shape->num_envs;
    for (int k = 0; k < VEC_OUT_NB; k++) {
        int64_t width = k == VEC_OUT_MASK ? (int64_t)shape->mask_bytes : k == VEC_OUT_REWARDS ? shape->num_players : 0;
        glue_layout_add(l, first + k, k == VEC_OUT_MASK ? mask_type : types[k], lead, 1, &width, width > 0);
    }
}

void glue_outputs_point(VecOutputs *out, void *const *data, int first, int obs) {
    *out = (VecOutputs){data[first], data[first + 1], data[first + 2], data[first + 3], data[first + 4],
                        data[first + 5], data[first + 6], data[first + 7], data[first + 8], data[obs], data[obs + 1]};
    _Static_assert(VEC_OUT_NB == 9, "VecOutputs: the nine, then obs and final_obs");
}

/* The Python layer resolves num_threads 0 (stratego.default_num_threads: affinity, cgroup
 * quota, OMP_NUM_THREADS); the core takes a count. */
static int parse_num_threads(PyObject *obj, int *out) {
    long v;
    char expected[96];
    snprintf(expected, sizeof expected, "an int in [0, %d] (0: VecEnv uses stratego.default_num_threads())",
             GLUE_MAX_THREADS);
    if (parse_int_in(obj, "num_threads", 1, GLUE_MAX_THREADS, expected, &v) < 0)
        return -1;
    *out = (int)v;
    return 0;
}

/* Splits __init__'s (or layout()'s) arguments by the game's keywords into values:
 * arrays and num_threads are taken only when `with_arrays`. 0, or -1 with an exception
 * (PyArg's own: a missing, unknown or repeated argument). */
static int parse_keywords(const GlueGame *g, PyObject *args, PyObject *kwds, int with_arrays, PyObject **values) {
    char *kwlist[GLUE_KEYWORDS_MAX + 1], format[GLUE_KEYWORDS_MAX + 2];
    PyObject **slots[GLUE_KEYWORDS_MAX];
    int n = 0, f = 0, optional = 0;
    for (int k = 0; k < g->num_keywords; k++) {
        values[k] = NULL;
        int kind = g->keywords[k].kind;
        if (!with_arrays && kind != GLUE_OPTION && kind != GLUE_CHOSEN) continue;
        if (!g->keywords[k].required && !optional) {
            format[f++] = '|';
            optional = 1;
        }
        format[f++] = 'O';
        kwlist[n] = (char *)g->keywords[k].name;
        slots[n++] = &values[k];
    }
    format[f] = '\0';
    kwlist[n] = NULL;
    /* One call for any count: the slots padded to the most a game has. */
    PyObject *got[GLUE_KEYWORDS_MAX] = {0};
    _Static_assert(GLUE_KEYWORDS_MAX == 40, "the call below passes 40 slots");
#define S(i) &got[i]
    if (!PyArg_ParseTupleAndKeywords(args, kwds, format, kwlist, S(0), S(1), S(2), S(3), S(4), S(5), S(6), S(7), S(8),
                                     S(9), S(10), S(11), S(12), S(13), S(14), S(15), S(16), S(17), S(18), S(19), S(20),
                                     S(21), S(22), S(23), S(24), S(25), S(26), S(27), S(28), S(29), S(30), S(31),
                                     S(32), S(33), S(34), S(35), S(36), S(37), S(38), S(39)))
        return -1;
#undef S
    for (int k = 0; k < n; k++) *slots[k] = got[k];
    return 0;
}

/* The arrays of the layout as Python sees them: {name: (shape, dtype, nbytes)} in
 * __init__'s order, and the bytes the batch holds itself. */
static PyObject *layout_to_python(const GlueGame *g, const GlueLayout *l) {
    PyObject *arrays = PyDict_New(), *result = NULL;
    if (arrays == NULL) goto done;
    for (int k = 0; k < l->n; k++) {
        const GlueArray *a = &l->arrays[k];
        PyArray_Descr *descr = PyArray_DescrFromType(a->typenum);
        PyObject *shape = PyTuple_New(a->ndim), *entry = NULL;
        Py_ssize_t bytes = descr != NULL ? (Py_ssize_t)PyDataType_ELSIZE(descr) : 0;
        int bad = descr == NULL || shape == NULL;
        for (int d = 0; !bad && d < a->ndim; d++) {
            PyObject *v = PyLong_FromSsize_t(a->shape[d]);
            bad = v == NULL;
            if (!bad) PyTuple_SET_ITEM(shape, d, v);
            bytes *= a->shape[d];
        }
        if (!bad) entry = Py_BuildValue("(OOn)", shape, (PyObject *)descr, bytes);
        Py_XDECREF(descr);
        Py_XDECREF(shape);
        if (entry == NULL || PyDict_SetItemString(arrays, g->keywords[a->keyword].name, entry) < 0) {
            Py_XDECREF(entry);
            goto done;
        }
        Py_DECREF(entry);
    }
    result = Py_BuildValue("{sOsn}", "arrays", arrays, "held_bytes", (Py_ssize_t)l->held_bytes);
done:
    Py_XDECREF(arrays);
    return result;
}

/* The game's layout of config (values: the arrays given, or NULL). 0, or -1 with an
 * exception. */
static int glue_layout_of(const GlueGame *g, const void *config, PyObject *const *values, GlueLayout *l) {
    if (g->layout(config, values, l) < 0) return -1;
    if (l->n > GLUE_ARRAYS_MAX) {
        PyErr_Format(PyExc_SystemError, "a %s writes more arrays or dimensions than batch_glue.h holds", g->name);
        return -1;
    }
    return 0;
}

/* layout(**options): what a batch of these options writes (batch_glue.h). */
static PyObject *Glue_layout(PyObject *cls, PyObject *args, PyObject *kwds) {
    const GlueGame *g = ((GlueType *)cls)->game;
    PyObject *values[GLUE_KEYWORDS_MAX], *keep = NULL, *result = NULL;
    GlueLayout layout = {0};
    void *config = calloc(1, g->config_size);
    if (config == NULL) return PyErr_NoMemory();
    if (parse_keywords(g, args, kwds, 0, values) < 0 || g->parse(config, values, &keep) < 0 ||
        glue_layout_of(g, config, NULL, &layout) < 0)
        goto done;
    result = layout_to_python(g, &layout);
done:
    Py_XDECREF(keep);
    free(config);
    return result;
}

/* __init__: every argument is converted and checked first (a conversion can run Python
 * code, even code that calls __init__ again), then the object is filled, once. */
static int Glue_init(PyObject *self, PyObject *args, PyObject *kwds) {
    GlueBatch *o = (GlueBatch *)self;
    const GlueGame *g = o->game;
    PyObject *values[GLUE_KEYWORDS_MAX], *keep = NULL;
    void *data[GLUE_KEYWORDS_MAX] = {0};
    int threads = 0, result = -1;
    GlueLayout layout = {0};
    void *config = calloc(1, g->config_size);
    if (config == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    if (parse_keywords(g, args, kwds, 1, values) < 0 || g->parse(config, values, &keep) < 0) goto done;
    for (int k = 0; k < g->num_keywords; k++)
        if (g->keywords[k].kind == GLUE_THREADS && parse_num_threads(values[k], &threads) < 0) goto done;
    /* Converted: from here on no Python code runs until the object is filled. */
    if (o->ready || o->guard.closed) {
        PyErr_Format(PyExc_RuntimeError, "%s.__init__ may be called only once", g->name);
        goto done;
    }
    if (glue_layout_of(g, config, values, &layout) < 0) goto done;
    for (int k = 0; k < layout.n; k++) {
        const GlueArray *a = &layout.arrays[k];
        PyObject *obj = values[a->keyword] != NULL ? values[a->keyword] : Py_None;
        if (check_array_shape(obj, g->keywords[a->keyword].name, a->typenum, a->ndim, a->shape) < 0) goto done;
        data[a->keyword] = PyArray_DATA((PyArrayObject *)obj);
    }
    /* An array given that this configuration does not write is refused (a game's layout
     * says why first, when it knows). */
    for (int k = 0; k < g->num_keywords; k++) {
        int kind = g->keywords[k].kind;
        if ((kind != GLUE_ARRAY && kind != GLUE_CHOSEN) || values[k] == NULL || values[k] == Py_None || data[k] != NULL)
            continue;
        PyErr_Format(PyExc_ValueError, "%s is not written by a %s of these options: pass None", g->keywords[k].name,
                     g->name);
        goto done;
    }
    if (g->init(o->batch, config, data) < 0) {
        PyErr_Format(PyExc_MemoryError, "cannot allocate %d games", layout.num_envs);
        goto done;
    }
    for (int k = 0; k < g->num_keywords; k++)
        if (data[k] != NULL) o->arrays[k] = Py_NewRef(values[k]);
    o->keep = keep;
    keep = NULL;
    o->num_envs = layout.num_envs;
    o->num_actions = layout.num_actions;
    o->num_threads = threads;
    o->ready = 1;
    /* Games start from seed 0 until reset() is called with another; busy meanwhile, as
     * any call that releases the GIL (another thread may find the object ready). */
    if (glue_enter(self) < 0) goto done;
    Py_BEGIN_ALLOW_THREADS
    g->reset_some(o->batch, NULL, 1, 0, threads);
    Py_END_ALLOW_THREADS
    glue_leave(self);
    result = 0;
done:
    Py_XDECREF(keep);
    free(config);
    return result;
}

static void Glue_release(GlueBatch *o) {
    if (o->ready) o->game->free(o->batch);
    o->ready = 0;
    for (int k = 0; k < GLUE_KEYWORDS_MAX; k++) Py_CLEAR(o->arrays[k]);
    Py_CLEAR(o->keep);
    o->guard.closed = 1;
}

static void Glue_dealloc(PyObject *self) {
    Glue_release((GlueBatch *)self);
    Py_TYPE(self)->tp_free(self);
}

static PyObject *Glue_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    PyObject *self = PyType_GenericNew(type, args, kwds);
    if (self != NULL) ((GlueBatch *)self)->game = ((GlueType *)type)->game;
    return self;
}

int glue_idle(PyObject *self) { return vec_guard_idle(&((GlueBatch *)self)->guard, ((GlueBatch *)self)->ready); }

int glue_enter(PyObject *self) { return vec_guard_enter(&((GlueBatch *)self)->guard, ((GlueBatch *)self)->ready); }

void glue_leave(PyObject *self) { vec_guard_leave(&((GlueBatch *)self)->guard); }

int glue_idle_out(PyObject *self, PyObject *out, const char *name, int typenum) {
    if (glue_idle(self) < 0) return -1;
    return check_out_array(out, name, typenum, ((GlueBatch *)self)->num_envs, 0);
}

/* 0 if every array the batch writes is still writeable: the caller owns them and may
 * have set writeable=False since __init__; otherwise -1 with an exception naming it. */
static int Glue_check_writeable(PyObject *self) {
    GlueBatch *o = (GlueBatch *)self;
    const GlueGame *g = o->game;
    for (int k = 0; k < g->num_keywords; k++) {
        const char *name = g->keywords[k].attribute ? g->keywords[k].attribute : g->keywords[k].name;
        if (vec_arrays_writeable(&o->arrays[k], &name, 1) < 0) return -1;
    }
    return 0;
}

static PyObject *Glue_reset(PyObject *self, PyObject *seed_obj) {
    uint64_t seed;
    if (parse_seed(seed_obj, &seed) < 0) return NULL;
    if (glue_idle(self) < 0 || Glue_check_writeable(self) < 0 || glue_enter(self) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    game_of(self)->reset_some(glue_batch(self), NULL, 1, seed, glue_threads(self));
    Py_END_ALLOW_THREADS
    glue_leave(self);
    Py_RETURN_NONE;
}

/* reset_some(reset_mask, seed): starts anew the games where reset_mask (bool, shape
 * (num_envs,)) is True; seed None lets their streams go on, an int seeds them again. */
static PyObject *Glue_reset_some(PyObject *self, PyObject *args) {
    PyObject *mask_obj;
    int reseed;
    uint64_t seed;
    if (parse_reset_some(args, &mask_obj, &reseed, &seed) < 0) return NULL;
    /* Converted: now the state, then the mask (checking it runs no Python code). */
    if (glue_idle(self) < 0 || Glue_check_writeable(self) < 0) return NULL;
    if (glue_idle_out(self, mask_obj, "reset_mask", NPY_BOOL) < 0 || glue_enter(self) < 0) return NULL;
    const uint8_t *mask = PyArray_DATA((PyArrayObject *)mask_obj);
    Py_BEGIN_ALLOW_THREADS
    game_of(self)->reset_some(glue_batch(self), mask, reseed, seed, glue_threads(self));
    Py_END_ALLOW_THREADS
    glue_leave(self);
    Py_RETURN_NONE;
}

/* The first game of n whose action a step refuses (GlueGame.find_refused), by the game's
 * own search or by asking each game: a game over ignores its action, whatever it is. */
static int64_t find_refused(const GlueGame *g, void *b, const int64_t *a, int n, int num_actions, int mode,
                            int *illegal, int *code, int threads) {
    if (g->find_refused != NULL) return g->find_refused(b, a, mode, illegal, code, threads);
    *code = 0;
    for (int64_t i = 0; i < n; i++) {
        if (g->over(b, i)) continue;
        *illegal = a[i] >= 0 && a[i] < num_actions;
        if (!*illegal || (mode == ILLEGAL_RAISE && !g->legal(b, i, a[i]))) return i;
    }
    return -1;
}

/* step(actions, illegal_mode=ILLEGAL_RAISE): actions an integer array of shape
 * (num_envs,). A refused action raises ValueError naming the game, and nothing is
 * played. */
static PyObject *Glue_step(PyObject *self, PyObject *args) {
    const GlueGame *g = game_of(self);
    PyObject *actions_obj, *mode_obj = NULL, *result = NULL;
    PyArrayObject *actions = NULL;
    long mode = ILLEGAL_RAISE;
    int entered = 0, from_unsigned = 0, illegal = 0, code = 0;
    if (!PyArg_ParseTuple(args, "O|O", &actions_obj, &mode_obj)) goto done;
    if (mode_obj != NULL && parse_int_in(mode_obj, "illegal_mode", ILLEGAL_RAISE, ILLEGAL_LOSES, "0 or 1", &mode) < 0)
        goto done;
    if (mode != ILLEGAL_RAISE && !g->illegal_loses) {
        PyErr_Format(PyExc_ValueError, "a %s raises on illegal actions (ILLEGAL_RAISE), got mode %ld", g->name, mode);
        goto done;
    }
    /* A private copy, made before the batch is checked (vec_actions_copy). */
    actions = vec_actions_copy(actions_obj, &from_unsigned);
    if (actions == NULL) goto done;
    /* Converted: now the batch's state, then the values. */
    if (glue_idle(self) < 0 || Glue_check_writeable(self) < 0) goto done;
    void *b = glue_batch(self);
    if (vec_actions_check_shape(actions, ((GlueBatch *)self)->num_envs) < 0 || glue_enter(self) < 0) goto done;
    entered = 1;
    const int64_t *a = PyArray_DATA(actions);
    int64_t bad;
    Py_BEGIN_ALLOW_THREADS
    bad = find_refused(g, b, a, ((GlueBatch *)self)->num_envs, ((GlueBatch *)self)->num_actions, (int)mode,
                       &illegal, &code, glue_threads(self));
    Py_END_ALLOW_THREADS
    if (bad >= 0 && !illegal) {
        vec_actions_out_of_range(a, bad, from_unsigned, ((GlueBatch *)self)->num_actions);
        goto done;
    }
    if (bad >= 0 && g->illegal_reason == NULL) {
        PyErr_Format(PyExc_ValueError, "illegal action %lld in game %lld", (long long)a[bad], (long long)bad);
        goto done;
    }
    if (bad >= 0) {
        char why[240];
        g->illegal_reason(b, bad, a[bad], code, why, sizeof(why));
        PyErr_Format(PyExc_ValueError, "illegal action %lld in game %lld: %s", (long long)a[bad], (long long)bad, why);
        goto done;
    }
    int refused;
    Py_BEGIN_ALLOW_THREADS
    refused = g->step(b, a, (int)mode, glue_threads(self)) < 0;
    Py_END_ALLOW_THREADS
    if (refused) {
        if (g->step_refused != NULL) g->step_refused(b);
        else PyErr_Format(PyExc_RuntimeError, "the %s refused the step; nothing was played", g->name);
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    if (entered) glue_leave(self);
    Py_XDECREF(actions);
    return result;
}

/* sample_actions(out): a uniformly random legal action per game into out (int64), from
 * each game's own stream. */
static PyObject *Glue_sample_actions(PyObject *self, PyObject *out) {
    if (glue_idle_out(self, out, "the array of sampled actions", NPY_INT64) < 0 || glue_enter(self) < 0) return NULL;
    int64_t *a = PyArray_DATA((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
    game_of(self)->sample(glue_batch(self), a, glue_threads(self));
    Py_END_ALLOW_THREADS
    glue_leave(self);
    Py_RETURN_NONE;
}

/* bot_actions(name, out, games=None): the action bot `name` plays in each game into out;
 * with games (bool, shape (num_envs,)), only in those (-1 in the others, whose streams
 * are not drawn on). */
static PyObject *Glue_bot_actions(PyObject *self, PyObject *args) {
    PyObject *name, *out, *games_obj = Py_None;
    if (!PyArg_ParseTuple(args, "OO|O", &name, &out, &games_obj)) return NULL;
    int kind = game_of(self)->bot_kind(name);
    if (kind < 0) return NULL;
    if (glue_idle_out(self, out, "the array of bot actions", NPY_INT64) < 0) return NULL;
    if (games_obj != Py_None && glue_idle_out(self, games_obj, "games", NPY_BOOL) < 0) return NULL;
    if (glue_enter(self) < 0) return NULL;
    int64_t *a = PyArray_DATA((PyArrayObject *)out);
    const uint8_t *games = games_obj == Py_None ? NULL : PyArray_DATA((PyArrayObject *)games_obj);
    Py_BEGIN_ALLOW_THREADS
    game_of(self)->bot_actions(glue_batch(self), kind, games, a, glue_threads(self));
    Py_END_ALLOW_THREADS
    glue_leave(self);
    Py_RETURN_NONE;
}

/* games_over(out): out[i] = whether game i has ended and not started again (NEXT_STEP
 * until the next step, DISABLED until a reset; never under SAME_STEP), into a bool
 * array (N,), so Python reads the engine's answer instead of re-deriving it. */
static PyObject *Glue_games_over(PyObject *self, PyObject *out) {
    if (glue_idle_out(self, out, "the array of finished games", NPY_BOOL) < 0) return NULL;
    uint8_t *over = PyArray_DATA((PyArrayObject *)out);
    for (int64_t i = 0; i < ((GlueBatch *)self)->num_envs; i++) over[i] = (uint8_t)game_of(self)->over(glue_batch(self), i);
    Py_RETURN_NONE;
}

static PyObject *Glue_stats(PyObject *self, PyObject *Py_UNUSED(unused)) {
    if (glue_idle(self) < 0) return NULL;
    return game_of(self)->stats(glue_batch(self));
}

/* save() -> the batch exactly (games, streams, counters), in the game's save format. */
static PyObject *Glue_save(PyObject *self, PyObject *Py_UNUSED(unused)) {
    const GlueGame *g = game_of(self);
    if (glue_idle(self) < 0) return NULL;
    void *b = glue_batch(self);
    if (g->save_refused != NULL && g->save_refused(b, "save") < 0) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)g->save_bytes(b));
    if (out == NULL) return NULL;
    g->save_write(b, (uint8_t *)PyBytes_AS_STRING(out));
    return out;
}

/* restore(data): the batch from save(), checked completely first (nothing changes if it
 * is refused); the outputs are written again from the restored games. */
static PyObject *Glue_restore(PyObject *self, PyObject *data) {
    const GlueGame *g = game_of(self);
    char err[300];
    int bad;
    if (!PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "saved state must be bytes, got %s", Py_TYPE(data)->tp_name);
        return NULL;
    }
    if (glue_idle(self) < 0) return NULL;
    void *b = glue_batch(self);
    if ((g->save_refused != NULL && g->save_refused(b, "load a save") < 0) || Glue_check_writeable(self) < 0 ||
        glue_enter(self) < 0)
        return NULL;
    /* bytes are immutable and we hold a reference: safe to read without the GIL. */
    const uint8_t *buf = (const uint8_t *)PyBytes_AS_STRING(data);
    size_t len = (size_t)PyBytes_GET_SIZE(data);
    int threads = glue_threads(self);
    Py_BEGIN_ALLOW_THREADS
    bad = g->save_check(b, buf, len, err, sizeof(err)) < 0;
    if (!bad) {
        g->save_read(b, buf);
        g->write_outputs(b, threads);
    }
    Py_END_ALLOW_THREADS
    glue_leave(self);
    if (bad) {
        PyErr_Format(PyExc_ValueError, "cannot load this saved state: %s", err);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* claim() / release(): VecShell's hold on the env across one Python-level call
 * (vec_binding.h). */
static PyObject *Glue_claim(PyObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_claim(&((GlueBatch *)self)->guard, ((GlueBatch *)self)->ready) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Glue_end_claim(PyObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_release(&((GlueBatch *)self)->guard) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Glue_close(PyObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_close(&((GlueBatch *)self)->guard) < 0) return NULL;
    Glue_release((GlueBatch *)self);
    Py_RETURN_NONE;
}

static PyObject *Glue_get_closed(PyObject *self, void *Py_UNUSED(closure)) {
    return PyBool_FromLong(((GlueBatch *)self)->guard.closed);
}

static PyObject *Glue_get_num_threads(PyObject *self, void *Py_UNUSED(closure)) {
    return PyLong_FromLong(glue_threads(self));
}

static int Glue_set_num_threads(PyObject *self, PyObject *value, void *Py_UNUSED(closure)) {
    int threads;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "num_threads cannot be deleted");
        return -1;
    }
    /* Checked as every other call is: a closed env, or one another thread is inside, is
     * not changed. */
    if (parse_num_threads(value, &threads) < 0 || glue_idle(self) < 0) return -1;
    ((GlueBatch *)self)->num_threads = threads;
    return 0;
}

PyObject *glue_tally_stats(const VecTally *t, int seats) {
    PyObject *wins = PyTuple_New(seats);
    if (wins == NULL) return NULL;
    for (int p = 0; p < seats; p++) {
        PyObject *w = PyLong_FromLongLong(t->wins[p]);
        if (w == NULL) {
            Py_DECREF(wins);
            return NULL;
        }
        PyTuple_SET_ITEM(wins, p, w);
    }
    return Py_BuildValue("{sLsNsLsLsLsK}", "games_finished", (long long)t->finished, "wins", wins, "draws",
                         (long long)t->draws, "cap_draws", (long long)t->marked, "plies", (long long)t->plies,
                         "checksum", (unsigned long long)t->checksum);
}

static const PyMethodDef COMMON_METHODS[] = {
    {"layout", (PyCFunction)(void (*)(void))Glue_layout, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "layout(**options) -> {'arrays': {name: (shape, dtype, nbytes)}, 'held_bytes': n}: every array a batch of "
     "these options writes (the keywords __init__ takes but the arrays and num_threads), and the memory it holds."},
    {"reset", (PyCFunction)Glue_reset, METH_O, "reset(seed): every game anew."},
    {"reset_some", (PyCFunction)Glue_reset_some, METH_VARARGS,
     "reset_some(reset_mask, seed): the games where reset_mask is True anew (seed None: their streams go on)."},
    {"step", (PyCFunction)Glue_step, METH_VARARGS, "step(actions, illegal_mode=ILLEGAL_RAISE)."},
    {"sample_actions", (PyCFunction)Glue_sample_actions, METH_O,
     "sample_actions(out): a uniformly random legal action per game into out (int64)."},
    {"games_over", (PyCFunction)Glue_games_over, METH_O,
     "games_over(out): whether each game has ended and waits (NEXT_STEP, DISABLED), into a bool array."},
    {"stats", (PyCFunction)Glue_stats, METH_NOARGS, "Counters of finished games since reset."},
    {"save", (PyCFunction)Glue_save, METH_NOARGS, "save() -> bytes: every game, random stream and counter."},
    {"restore", (PyCFunction)Glue_restore, METH_O, "restore(data): the batch as save() left it."},
    {"claim", (PyCFunction)Glue_claim, METH_NOARGS,
     "claim(): refuses every other thread's call until release() (VecShell holds it across a call)."},
    {"release", (PyCFunction)Glue_end_claim, METH_NOARGS, "release(): ends this thread's claim()."},
    {"close", (PyCFunction)Glue_close, METH_NOARGS, "Frees the games; a second close is safe."},
};

static const PyMethodDef BOT_METHOD = {"bot_actions", (PyCFunction)Glue_bot_actions, METH_VARARGS,
                                       "bot_actions(name, out, games=None): the action bot `name` plays in each game (or in those games marks; "
                                       "-1 in the others), into out."};

static const PyGetSetDef COMMON_GETSET[] = {
    {"closed", Glue_get_closed, NULL, "Whether close() was called.", NULL},
    {"num_threads", Glue_get_num_threads, Glue_set_num_threads,
     "Threads (the engine's pool, csrc/engine/pool.h) used by reset, step, sample_actions and bot_actions.", NULL},
};

int glue_type_ready(GlueType *t, const GlueGame *game, const char *qualname, const char *doc) {
    int m = 0, s = 0, common = (int)(sizeof(COMMON_METHODS) / sizeof(COMMON_METHODS[0]));
    if (game->num_keywords > GLUE_KEYWORDS_MAX) goto too_many;
    /* A table without a function the glue calls unasked is the game's bug: said at import. */
    if (!game->parse || !game->layout || !game->init || !game->free || !game->reset_some || !game->over ||
        !(game->legal || game->find_refused) || !game->step || !game->sample || !game->stats || !game->save_bytes ||
        !game->save_write || !game->save_check || !game->save_read || !game->write_outputs ||
        !game->bot_kind != !game->bot_actions) {
        PyErr_Format(PyExc_SystemError, "%s: its GlueGame table lacks a function (batch_glue.h)", qualname);
        return -1;
    }
    for (int k = 0; k < common; k++) t->methods[m++] = COMMON_METHODS[k];
    if (game->bot_actions != NULL) t->methods[m++] = BOT_METHOD;
    for (const PyMethodDef *d = game->methods; d != NULL && d->ml_name != NULL; d++) {
        if (m + 1 >= GLUE_METHODS_MAX) goto too_many;
        t->methods[m++] = *d;
    }
    for (int k = 0; k < (int)(sizeof(COMMON_GETSET) / sizeof(COMMON_GETSET[0])); k++) t->getset[s++] = COMMON_GETSET[k];
    for (const PyGetSetDef *d = game->getset; d != NULL && d->name != NULL; d++) {
        if (s + 1 >= GLUE_GETSET_MAX) goto too_many;
        t->getset[s++] = *d;
    }
    t->methods[m] = (PyMethodDef){NULL, NULL, 0, NULL};
    t->getset[s] = (PyGetSetDef){NULL, NULL, NULL, NULL, NULL};
    t->game = game;
    t->type = (PyTypeObject){
        PyVarObject_HEAD_INIT(NULL, 0).tp_name = qualname,
        .tp_basicsize = (Py_ssize_t)(offsetof(GlueBatch, batch) + game->batch_size),
        .tp_flags = Py_TPFLAGS_DEFAULT,
        .tp_doc = doc,
        .tp_new = Glue_new,
        .tp_init = Glue_init,
        .tp_dealloc = Glue_dealloc,
        .tp_methods = t->methods,
        .tp_getset = t->getset,
    };
    return PyType_Ready(&t->type);
too_many:
    PyErr_Format(PyExc_SystemError, "%s has more keywords, methods or attributes than batch_glue.h holds", qualname);
    return -1;
}
