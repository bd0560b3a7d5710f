/* batch_type.c: _core.Batch, N games stepped together in C with the GIL released
 * (stratego.VecEnv wraps it). */
#include "binding.h"
#include <limits.h>

#include <stdlib.h>
#include <string.h>

#include "stratego/batch.h"
#include "stratego/board.h"
#include "stratego/bots/bot.h"
#include "stratego/game.h"
#include "stratego/init.h"
#include "engine/mask_bits.h"
#include "stratego/moves.h"
#include "stratego/observe.h"
#include "stratego/observe_codes.h"
#include "stratego/observe_full.h"
#include "stratego/observe_player.h"
#include "engine/pool.h"
#include "stratego/record.h"
#include "engine/rng.h"
#include "stratego/rules.h"
#include "stratego/sample.h"
#include "stratego/save.h"
#include "stratego/view.h"

enum { OBS_ARRAY_NB = 5 }; /* obs, final_obs, full_obs, belief, final_belief: optional */
/* The names read-only outputs are called by in messages: VecEnv's attribute names. */
static const char *const OUT_ATTRIBUTE_NAMES[VEC_OUT_NB] = {"action_mask", "rewards", "reward", "terminated",
                                                            "truncated", "to_play", "final_winner",
                                                            "final_reason", "final_plies"};
static const char *const OBS_ARRAY_NAMES[OBS_ARRAY_NB] = {"obs", "final_obs", "full_obs", "belief", "final_belief"};

/* Life cycle (vec_binding.h): made by __new__ (batch.states NULL: refuses every call),
 * then __init__ once, then close(). */
typedef struct {
    PyObject_HEAD
    Batch batch;
    PyObject *outputs[VEC_OUT_NB]; /* the caller's arrays, kept alive while we write them */
    PyObject *obs_arrays[OBS_ARRAY_NB];
    PyObject *setups; /* a private, read-only copy of the setup table the games draw from, or NULL */
    int num_threads;
    VecGuard guard;
} BatchObject;

static void Batch_release(BatchObject *self) {
    batch_free(&self->batch);
    for (int k = 0; k < VEC_OUT_NB; k++) Py_CLEAR(self->outputs[k]);
    for (int k = 0; k < OBS_ARRAY_NB; k++) Py_CLEAR(self->obs_arrays[k]);
    Py_CLEAR(self->setups);
    self->batch.setups.letters = NULL;
    self->batch.setups.n = 0;
    self->guard.closed = 1;
}

static void Batch_dealloc(BatchObject *self) {
    Batch_release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}


/* The Python layer resolves num_threads 0 (stratego.default_num_threads: affinity, cgroup
 * quota, OMP_NUM_THREADS); the core takes a count. */
static int parse_num_threads(PyObject *obj, int *out) {
    long v;
    if (parse_int_in(obj, "num_threads", 1, BATCH_MAX_THREADS, "an int in [0, 4096] (0: VecEnv uses stratego.default_num_threads())",
                     &v) < 0)
        return -1;
    *out = (int)v;
    return 0;
}

/* game_offset goes through parse_int_in's long: 64 bits on the platforms we build for. */
_Static_assert(BATCH_MAX_GAME_OFFSET <= LONG_MAX, "game_offset fits a long");

/* __init__: every argument is converted and checked first (a conversion can run Python
 * code, even code that calls __init__ again), then the object is filled, once. */
static int Batch_init(BatchObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"num_envs", "num_threads", "rules", "mask", "rewards", "reward",
                             "terminated", "truncated", "to_play", "final_winner", "final_reason",
                             "final_plies", "obs", "final_obs", "full_obs", "obs_views",
                             "history_k", "probabilities", "as_float", "write_mask", "setups",
                             "final_views", "autoreset", "opponent", "learner_mode", "belief", "final_belief",
                             "obs_codes", "mask_bits", "full_codes", "game_offset", "record_capacity", "deploy",
                             NULL};
    long n;
    PyObject *n_obj, *threads_obj, *rules_obj, *outs[VEC_OUT_NB];
    PyObject *obs[OBS_ARRAY_NB] = {Py_None, Py_None, Py_None, Py_None, Py_None};
    PyObject *views_obj = NULL, *history_obj = NULL, *setups_obj = Py_None;
    int probabilities = 0, as_float = 0, write_mask = 1, result = -1;
    int obs_codes = 0, mask_bits = 0, full_codes = 0;
    long obs_views = 0, history_k = 4, opponent = -1, learner_mode = LEARNER_RED;
    PyObject *opponent_obj = NULL, *learner_obj = NULL;
    PyObject *final_views_obj = NULL, *autoreset_obj = NULL, *offset_obj = NULL, *record_obj = NULL;
    long record_capacity = 0;
    long final_views = 0, autoreset = AUTORESET_SAME_STEP;
    long game_offset = 0;
    SetupTable table;
    Rules rules;
    ObsSpec spec;
    int threads;
    PyObject *setups_copy = NULL, *deploy_obj = Py_None;
    int deploy = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOOOOOOOOOO|OOOOOpppOOOOOOOpppOOO", kwlist, &n_obj, &threads_obj,
                                     &rules_obj, &outs[0], &outs[1], &outs[2], &outs[3],
                                     &outs[4], &outs[5], &outs[6], &outs[7], &outs[8], &obs[0],
                                     &obs[1], &obs[2], &views_obj, &history_obj, &probabilities,
                                     &as_float, &write_mask, &setups_obj, &final_views_obj, &autoreset_obj,
                                     &opponent_obj, &learner_obj, &obs[3], &obs[4], &obs_codes, &mask_bits,
                                     &full_codes, &offset_obj, &record_obj, &deploy_obj))
        goto done;
    if (record_obj != NULL &&
        parse_int_in(record_obj, "record_capacity", 0, RECORD_CAPACITY_MAX, "0 (no records) or actions a game",
                     &record_capacity) < 0)
        goto done;
    if (opponent_obj != NULL &&
        parse_int_in(opponent_obj, "opponent", -1, BOT_KIND_NB - 1, "-1 (none) or a bot kind", &opponent) < 0)
        goto done;
    if (learner_obj != NULL &&
        parse_int_in(learner_obj, "learner_mode", 0, LEARNER_MODE_NB - 1, NULL, &learner_mode) < 0)
        goto done;
    if (parse_num_envs(n_obj, &n) < 0 || parse_num_threads(threads_obj, &threads) < 0 ||
        rules_from_dict(rules_obj, &rules) < 0 || deploy_sides_parse(deploy_obj, &rules, &deploy) < 0)
        goto done;
    if (views_obj != NULL && parse_int_in(views_obj, "obs_views", 0, 2, "0, 1 or 2", &obs_views) < 0)
        goto done;
    if (history_obj != NULL && parse_history_k(history_obj, &history_k) < 0) goto done;
    if (final_views_obj != NULL &&
        parse_int_in(final_views_obj, "final_views", 0, 2, "0 (as obs_views), 1 or 2", &final_views) < 0)
        goto done;
    if (autoreset_obj != NULL &&
        parse_int_in(autoreset_obj, "autoreset", AUTORESET_SAME_STEP, AUTORESET_DISABLED,
                     "0 (same step), 1 (next step) or 2 (disabled)", &autoreset) < 0)
        goto done;
    if (offset_obj != NULL &&
        parse_int_in(offset_obj, "game_offset", 0, (long)BATCH_MAX_GAME_OFFSET,
                     "an int in [0, 2**48] (the run-wide index of the batch's game 0)", &game_offset) < 0)
        goto done;
    if (obs_spec_parse(history_k, probabilities, as_float, obs_codes, &rules, &spec) < 0) goto done;
    /* The games read the setup table for as long as they live: a private copy, so that
     * no later write to the caller's array (or its base) can change what was checked. */
    if (setups_obj != Py_None && PyArray_Check(setups_obj) &&
        PyArray_TYPE((PyArrayObject *)setups_obj) == NPY_UINT8) {
        setups_copy = PyArray_NewCopy((PyArrayObject *)setups_obj, NPY_CORDER);
        if (setups_copy == NULL) goto done;
        setups_obj = setups_copy;
    }
    /* Converted: from here on no Python code runs until the object is filled. */
    if (self->batch.states != NULL || self->guard.closed) {
        PyErr_SetString(PyExc_RuntimeError, "Batch.__init__ may be called only once");
        goto done;
    }
    if (setup_table_parse(setups_obj, &rules, &table) < 0) goto done;
    table.deploy = deploy;
    int num_actions = rules_num_actions(&rules);
    VecShape out_shape = {.num_envs = (int)n, .num_players = PLAYER_NB,
                          .mask_bytes = (size_t)(mask_bits ? MASK_BITS_BYTES(num_actions) : num_actions)};
    if (vec_outputs_check(outs, &out_shape, mask_bits ? NPY_UINT8 : NPY_BOOL) < 0) goto done;
    if (final_views == 0) final_views = obs_views;
    if ((final_views > 0) != (obs_views > 0)) {
        PyErr_Format(PyExc_ValueError, "final_views must be 1 or 2 with observations (0: as "
                     "obs_views), 0 without; got %ld with obs_views %ld", final_views, obs_views);
        goto done;
    }
    /* One view's shape comes from its spec: (C, 10, 10) planes or (L,) codes; then
     * (n, ...) or (n, 2, ...) for both players' views, and final_obs with final_views. */
    int64_t view_dims[OBS_DIMS_MAX], belief_dims[OBS_DIMS_MAX];
    int view_ndim = observe_spec_shape(&spec, view_dims), belief_ndim = observe_belief_shape(belief_dims);
    npy_intp lead[2] = {n, 2};
    if (obs_views > 0) {
        int obs_type = as_float ? NPY_FLOAT32 : NPY_UINT8;
        if (check_obs_array(obs[0], "obs", obs_type, lead, (int)obs_views, view_dims, view_ndim) < 0 ||
            check_obs_array(obs[1], "final_obs", obs_type, lead, (int)final_views, view_dims, view_ndim) < 0)
            goto done;
        /* Beliefs beside the codes: float32 (n, [2,] 12, 10, 10). */
        if (obs_codes && probabilities &&
            (check_obs_array(obs[3], "belief", NPY_FLOAT32, lead, (int)obs_views, belief_dims, belief_ndim) < 0 ||
             check_obs_array(obs[4], "final_belief", NPY_FLOAT32, lead, (int)final_views, belief_dims, belief_ndim) < 0))
            goto done;
    } else if (obs[0] != Py_None || obs[1] != Py_None) {
        PyErr_SetString(PyExc_ValueError, "obs and final_obs need obs_views 1 or 2");
        goto done;
    }
    if ((obs[3] != Py_None || obs[4] != Py_None) && !(obs_views > 0 && obs_codes && probabilities)) {
        PyErr_SetString(PyExc_ValueError, "belief and final_belief go with observation codes and probabilities");
        goto done;
    }
    if (obs[2] != Py_None) {
        int64_t full_dims[OBS_DIMS_MAX];
        int full_ndim = observe_full_shape(full_codes, full_dims);
        if (check_obs_array(obs[2], "full_obs", NPY_UINT8, lead, 1, full_dims, full_ndim) < 0) goto done;
    }
    BatchConfig config = {
        .num_envs = (int)n,
        .rules = rules,
        .setups = table,
        .write_mask = write_mask,
        .mask_bits = mask_bits,
        .obs_spec = spec,
        .obs_views = (int)obs_views,
        .final_views = (int)final_views,
        .full_obs = obs[2] != Py_None,
        .full_codes = full_codes,
        .autoreset = (int)autoreset,
        .opponent = (int)opponent,
        .learner_mode = (int)learner_mode,
        .game_offset = (int64_t)game_offset,
        .record_capacity = (uint32_t)record_capacity,
    };
    BatchOutputs outputs = {
        .vec = {
            .obs = obs[0] != Py_None ? PyArray_DATA((PyArrayObject *)obs[0]) : NULL,
            .final_obs = obs[1] != Py_None ? PyArray_DATA((PyArrayObject *)obs[1]) : NULL,
        },
        .full_obs = obs[2] != Py_None ? PyArray_DATA((PyArrayObject *)obs[2]) : NULL,
        .belief = obs[3] != Py_None ? PyArray_DATA((PyArrayObject *)obs[3]) : NULL,
        .final_belief = obs[4] != Py_None ? PyArray_DATA((PyArrayObject *)obs[4]) : NULL,
    };
    vec_outputs_point(&outputs.vec, outs);
    if (batch_init(&self->batch, &config, &outputs) < 0) {
        PyErr_Format(PyExc_MemoryError, "cannot allocate %ld games", n);
        goto done;
    }
    if (setups_obj != Py_None) {
        Py_INCREF(setups_obj);
        self->setups = setups_obj;
    }
    /* The table is read with the GIL released: nothing may write it again. */
    if (setups_copy != NULL) PyArray_CLEARFLAGS((PyArrayObject *)setups_copy, NPY_ARRAY_WRITEABLE);
    for (int k = 0; k < VEC_OUT_NB; k++) {
        Py_INCREF(outs[k]);
        self->outputs[k] = outs[k];
    }
    for (int k = 0; k < OBS_ARRAY_NB; k++) {
        if (obs[k] == Py_None) continue;
        Py_INCREF(obs[k]);
        self->obs_arrays[k] = obs[k];
    }
    self->num_threads = threads;
    /* Games start from seed 0 until reset() is called with another. */
    batch_reset(&self->batch, 0, threads);
    result = 0;
done:
    Py_XDECREF(setups_copy);
    return result;
}

/* 0 if the batch may be read now (vec_guard_idle): initialised, open, not inside a call
 * that released the GIL. -1 with an exception otherwise. */
static int Batch_check_idle(BatchObject *self) { return vec_guard_idle(&self->guard, self->batch.states != NULL); }

/* Guards a call that runs without the GIL. 0, or -1 with an exception. */
static int Batch_enter(BatchObject *self) { return vec_guard_enter(&self->guard, self->batch.states != NULL); }

/* 0 if every array the batch writes is still writeable: the caller owns them and may
 * have set writeable=False since __init__; then nothing is written and -1 is returned
 * with an exception naming the array. */
static int Batch_check_outputs(BatchObject *self) {
    if (vec_arrays_writeable(self->outputs, OUT_ATTRIBUTE_NAMES, VEC_OUT_NB) < 0) return -1;
    return vec_arrays_writeable(self->obs_arrays, OBS_ARRAY_NAMES, OBS_ARRAY_NB);
}

static PyObject *Batch_reset(BatchObject *self, PyObject *seed_obj) {
    uint64_t seed;
    if (parse_seed(seed_obj, &seed) < 0) return NULL;
    if (Batch_check_idle(self) < 0 || Batch_check_outputs(self) < 0 || Batch_enter(self) < 0) return NULL;
    Py_BEGIN_ALLOW_THREADS
    batch_reset(&self->batch, seed, self->num_threads);
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    Py_RETURN_NONE;
}

/* reset_some(reset_mask, seed): starts anew the games where reset_mask (bool, shape
 * (num_envs,)) is True; seed None lets their streams go on, an int seeds them again. */
static PyObject *Batch_reset_some(BatchObject *self, PyObject *args) {
    PyObject *mask_obj;
    int reseed;
    uint64_t seed;
    if (parse_reset_some(args, &mask_obj, &reseed, &seed) < 0) return NULL;
    /* Converted: now the state, then the mask (checking it runs no Python code). */
    if (Batch_check_idle(self) < 0 || Batch_check_outputs(self) < 0) return NULL;
    if (check_out_array(mask_obj, "reset_mask", NPY_BOOL, self->batch.num_envs, 0) < 0) return NULL;
    if (Batch_enter(self) < 0) return NULL;
    const uint8_t *mask = PyArray_DATA((PyArrayObject *)mask_obj);
    Py_BEGIN_ALLOW_THREADS
    batch_reset_some(&self->batch, mask, reseed, seed, self->num_threads);
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    Py_RETURN_NONE;
}

/* Finished games waiting to be handed out (record.h); 0 when not recording. */
static int64_t Batch_records_waiting(const BatchObject *self) {
    return self->batch.recording ? recorder_waiting(&self->batch.rec) : 0;
}

/* save() and restore() hold the games in progress, not finished games waiting to be
 * handed out: with any waiting, both refuse (docs/recording.md). 0, or -1 with an
 * exception. */
static int Batch_check_no_records_waiting(BatchObject *self, const char *what) {
    int64_t waiting = Batch_records_waiting(self);
    if (waiting == 0) return 0;
    PyErr_Format(PyExc_ValueError, "cannot %s: %lld finished game(s) wait to be handed out; call pop_records() "
                 "first (a save holds the games in progress, not the finished ones)", what, (long long)waiting);
    return -1;
}

/* step(actions, illegal_mode): actions an integer array of shape (num_envs,). */
static PyObject *Batch_step(BatchObject *self, PyObject *args) {
    PyObject *actions_obj, *mode_obj, *result = NULL;
    PyArrayObject *actions = NULL;
    long mode;
    int entered = 0, from_unsigned = 0;
    if (!PyArg_ParseTuple(args, "OO", &actions_obj, &mode_obj)) goto done;
    if (parse_int_in(mode_obj, "illegal_mode", ILLEGAL_RAISE, ILLEGAL_LOSES, "0 or 1", &mode) < 0)
        goto done;
    /* A private copy, made before the batch is checked (vec_actions_copy). */
    actions = vec_actions_copy(actions_obj, &from_unsigned);
    if (actions == NULL) goto done;
    /* Converted: now the batch's state, then the values. */
    if (Batch_check_idle(self) < 0 || Batch_check_outputs(self) < 0) goto done;
    if (vec_actions_check_shape(actions, self->batch.num_envs) < 0) goto done;
    const int64_t *a = PyArray_DATA(actions);
    int64_t bad = batch_find_out_of_range(&self->batch, a);
    if (bad >= 0) {
        vec_actions_out_of_range(a, bad, from_unsigned, rules_num_actions(&self->batch.rules));
        goto done;
    }
    if (Batch_enter(self) < 0) goto done;
    entered = 1;
    if (mode == ILLEGAL_RAISE) {
        int code = 0;
        Py_BEGIN_ALLOW_THREADS
        bad = batch_find_illegal(&self->batch, a, &code, self->num_threads);
        Py_END_ALLOW_THREADS
        if (bad >= 0) {
            PyErr_Format(PyExc_ValueError, "illegal action %lld in game %lld: %s",
                         (long long)a[bad], (long long)bad, moves_illegal_reason(code));
            goto done;
        }
    }
    int refused;
    Py_BEGIN_ALLOW_THREADS
    refused = batch_step(&self->batch, a, (int)mode, self->num_threads) < 0;
    Py_END_ALLOW_THREADS
    if (refused) {
        PyErr_Format(PyExc_MemoryError, "no memory to queue %lld finished game record(s); nothing was played "
                     "and they are kept: call pop_records() to free the queue, then step again",
                     (long long)self->batch.rec.uncollected);
        goto done;
    }
    result = Py_None;
    Py_INCREF(result);
done:
    if (entered) vec_guard_leave(&self->guard);
    Py_XDECREF(actions);
    return result;
}

static PyObject *Batch_sample_actions(BatchObject *self, PyObject *out) {
    if (Batch_check_idle(self) < 0) return NULL;
    if (check_out_array(out, "the array of sampled actions", NPY_INT64, self->batch.num_envs, 0) < 0)
        return NULL;
    if (Batch_enter(self) < 0) return NULL;
    int64_t *a = PyArray_DATA((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
    batch_sample_actions(&self->batch, a, self->num_threads);
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    Py_RETURN_NONE;
}

/* games_over(out): out[i] = whether game i has ended and not started again (game_is_over:
 * NEXT_STEP until the next step, DISABLED until a reset; never under SAME_STEP), into a
 * bool array (N,), so Python reads the engine's answer instead of re-deriving it. */
static PyObject *Batch_games_over(BatchObject *self, PyObject *out) {
    if (Batch_check_idle(self) < 0) return NULL;
    if (check_out_array(out, "the array of finished games", NPY_BOOL, self->batch.num_envs, 0) < 0)
        return NULL;
    uint8_t *over = PyArray_DATA((PyArrayObject *)out);
    for (int i = 0; i < self->batch.num_envs; i++) over[i] = (uint8_t)game_is_over(&self->batch.states[i]);
    Py_RETURN_NONE;
}

/* deploying(out): out[i] = whether game i is in its deployment phase (PHASE_DEPLOY:
 * its player to move places a piece), into a bool array (N,): info["deploying"]. */
static PyObject *Batch_deploying(BatchObject *self, PyObject *out) {
    if (Batch_check_idle(self) < 0) return NULL;
    if (check_out_array(out, "the array of deploying games", NPY_BOOL, self->batch.num_envs, 0) < 0) return NULL;
    uint8_t *deploying = PyArray_DATA((PyArrayObject *)out);
    for (int i = 0; i < self->batch.num_envs; i++) deploying[i] = self->batch.states[i].phase == PHASE_DEPLOY;
    Py_RETURN_NONE;
}

/* bot_actions(name, out): the action bot `name` plays in each game into out. */
static PyObject *Batch_bot_actions(BatchObject *self, PyObject *args) {
    PyObject *name_obj, *out;
    int kind;
    if (!PyArg_ParseTuple(args, "OO", &name_obj, &out)) return NULL;
    if (parse_bot(name_obj, &kind) < 0 || Batch_check_idle(self) < 0) return NULL;
    if (check_out_array(out, "the array of bot actions", NPY_INT64, self->batch.num_envs, 0) < 0)
        return NULL;
    if (Batch_enter(self) < 0) return NULL;
    int64_t *a = PyArray_DATA((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
    batch_bot_actions(&self->batch, kind, a, self->num_threads);
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    Py_RETURN_NONE;
}

/* sample_worlds(players, k, seed, out, failed, skip=False): k worlds of every game for
 * players[i] (None: the player to move) as game saves into out (N, k, save bytes) uint8,
 * drawn without the GIL (sample_games_worlds); failed marks the games that cannot be
 * sampled, and unless skip, ValueError names the first of them. */
static PyObject *Batch_sample_worlds(BatchObject *self, PyObject *args) {
    PyObject *players_obj, *k_obj, *seed_obj, *out, *failed_obj;
    int skip = 0;
    long k;
    uint64_t seed;
    const int64_t *players = NULL;
    if (!PyArg_ParseTuple(args, "OOOOO|p", &players_obj, &k_obj, &seed_obj, &out, &failed_obj, &skip)) return NULL;
    if (parse_int_in(k_obj, "k", 1, SAMPLE_WORLDS_MAX, NULL, &k) < 0 || parse_seed(seed_obj, &seed) < 0 ||
        Batch_check_idle(self) < 0)
        return NULL;
    npy_intp n = self->batch.num_envs, shape[3] = {n, k, (npy_intp)save_game_bytes()};
    if (check_array_shape(out, "out", NPY_UINT8, 3, shape) < 0 ||
        check_out_array(failed_obj, "failed", NPY_UINT8, n, 0) < 0)
        return NULL;
    if (players_obj != Py_None) {
        if (check_out_array(players_obj, "players", NPY_INT64, n, 0) < 0) return NULL;
        players = PyArray_DATA((PyArrayObject *)players_obj);
        for (npy_intp i = 0; i < n; i++) {
            if (players[i] != RED && players[i] != BLUE) {
                PyErr_Format(PyExc_ValueError, "players[%zd] must be 0 (red) or 1 (blue), got %lld", (Py_ssize_t)i,
                             (long long)players[i]);
                return NULL;
            }
        }
    }
    if (Batch_enter(self) < 0) return NULL;
    uint8_t *failed = PyArray_DATA((PyArrayObject *)failed_obj), *worlds = PyArray_DATA((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
    sample_games_worlds(self->batch.states, n, &self->batch.rules, players, (int)k, seed, worlds, failed,
                        self->num_threads);
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    for (npy_intp i = 0; i < n && !skip; i++) {
        if (!failed[i]) continue;
        char err[160];
        SampleSource src;
        GameState base;
        int player = players ? (int)players[i] : self->batch.states[i].to_move;
        sample_game_prepare(&self->batch.states[i], &self->batch.rules, player, &src, &base, err, sizeof(err));
        PyErr_Format(PyExc_ValueError, "cannot sample worlds of game %zd: %s (skip=True samples the others)",
                     (Py_ssize_t)i, err);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *Batch_stats(BatchObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (Batch_check_idle(self) < 0) return NULL;
    const BatchStats *st = &self->batch.stats;
    return Py_BuildValue("{sLsLsLsLsLsLsK}", "games_finished", (long long)st->games_finished,
                         "red_wins", (long long)st->red_wins, "blue_wins",
                         (long long)st->blue_wins, "draws", (long long)st->draws, "cap_draws",
                         (long long)st->cap_draws, "plies_of_finished",
                         (long long)st->plies_of_finished, "checksum",
                         (unsigned long long)st->checksum);
}

/* save() -> every game, sampler stream and counter as a batch save (save.h). */
static PyObject *Batch_save(BatchObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (Batch_check_idle(self) < 0 || Batch_check_no_records_waiting(self, "save") < 0) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)save_batch_bytes(&self->batch));
    if (out == NULL) return NULL;
    save_batch_write(&self->batch, (uint8_t *)PyBytes_AS_STRING(out));
    return out;
}

/* restore(data): every game, stream and counter from save(), checked completely first
 * (nothing changes if it is refused); the outputs (mask, observations, player to move)
 * are written again from the restored games. */
static PyObject *Batch_restore(BatchObject *self, PyObject *data) {
    char err[300];
    int bad;
    if (!PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "saved state must be bytes, got %s", Py_TYPE(data)->tp_name);
        return NULL;
    }
    if (Batch_check_idle(self) < 0 || Batch_check_no_records_waiting(self, "load a save") < 0 ||
        Batch_check_outputs(self) < 0 || Batch_enter(self) < 0)
        return NULL;
    /* bytes are immutable and we hold a reference: safe to read without the GIL. */
    const uint8_t *buf = (const uint8_t *)PyBytes_AS_STRING(data);
    size_t len = (size_t)PyBytes_GET_SIZE(data);
    Batch *b = &self->batch;
    Py_BEGIN_ALLOW_THREADS
    bad = save_batch_check(b, buf, len, err, sizeof(err)) < 0;
    if (!bad) {
        save_batch_read(b, buf);
        batch_write_outputs(b, self->num_threads);
    }
    Py_END_ALLOW_THREADS
    vec_guard_leave(&self->guard);
    if (bad) {
        PyErr_Format(PyExc_ValueError, "cannot load this saved state: %s", err);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* pop_records(): record_binding.c builds the columns. */
static PyObject *Batch_pop_records(BatchObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (Batch_check_idle(self) < 0) return NULL;
    if (!self->batch.recording) {
        PyErr_SetString(PyExc_ValueError, "this env does not record its games: make it with record=True");
        return NULL;
    }
    return records_pop(&self->batch.rec);
}

/* game(i) -> a GameState copy of game i (for inspection and rendering). */
static PyObject *Batch_game(BatchObject *self, PyObject *index_obj) {
    /* The index first: its __index__ may close or step this batch. */
    Py_ssize_t i = PyNumber_AsSsize_t(index_obj, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (Batch_check_idle(self) < 0) return NULL;
    if (i < 0 || i >= self->batch.num_envs) {
        PyErr_Format(PyExc_IndexError, "game index %zd out of range [0, %d)", i,
                     self->batch.num_envs);
        return NULL;
    }
    GameStateObject *g = PyObject_New(GameStateObject, &GameStateType);
    if (g == NULL) return NULL;
    g->state = self->batch.states[i];
    g->rules = self->batch.rules;
    g->bot_rng = self->batch.sample_rng[i]; /* game i's own stream, as bot_actions() draws on */
    g->ready = 1;
    return (PyObject *)g;
}

/* claim() / release(): VecShell's hold on the env across one Python-level call
 * (vec_binding.h). */
static PyObject *Batch_claim(BatchObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_claim(&self->guard, self->batch.states != NULL) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Batch_end_claim(BatchObject *self, PyObject *Py_UNUSED(unused)) {
    if (vec_guard_release(&self->guard) < 0) return NULL;
    Py_RETURN_NONE;
}

static PyObject *Batch_close(BatchObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (vec_guard_close(&self->guard) < 0) return NULL;
    Batch_release(self);
    Py_RETURN_NONE;
}

static PyObject *Batch_get_num_threads(BatchObject *self, void *closure) {
    STRATEGO_UNUSED(closure);
    return PyLong_FromLong(self->num_threads);
}

static int Batch_set_num_threads(BatchObject *self, PyObject *value, void *closure) {
    STRATEGO_UNUSED(closure);
    int threads;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "num_threads cannot be deleted");
        return -1;
    }
    /* Checked as every other call is (the castle batch's setter too): a closed env, or
     * one another thread is inside, is not changed. */
    if (parse_num_threads(value, &threads) < 0 || Batch_check_idle(self) < 0) return -1;
    self->num_threads = threads;
    return 0;
}

static PyObject *Batch_get_records_waiting(BatchObject *self, void *closure) {
    STRATEGO_UNUSED(closure);
    return PyLong_FromLongLong((long long)Batch_records_waiting(self));
}

static PyObject *Batch_get_record_capacity(BatchObject *self, void *closure) {
    STRATEGO_UNUSED(closure);
    return PyLong_FromUnsignedLong(self->batch.recording ? self->batch.rec.capacity : 0);
}

static PyObject *Batch_get_closed(BatchObject *self, void *closure) {
    STRATEGO_UNUSED(closure);
    return PyBool_FromLong(self->guard.closed);
}

static PyGetSetDef Batch_getset[] = {
    {"num_threads", (getter)Batch_get_num_threads, (setter)Batch_set_num_threads,
     "Threads (the engine's pool, csrc/engine/pool.h) used by reset, step, sample_actions and bot_actions.", NULL},
    {"closed", (getter)Batch_get_closed, NULL, "Whether close() was called.", NULL},
    {"records_waiting", (getter)Batch_get_records_waiting, NULL,
     "Finished games recorded and not yet handed out by pop_records() (0 when not recording).", NULL},
    {"record_capacity", (getter)Batch_get_record_capacity, NULL,
     "Actions a game's record holds (0: not recording).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Batch_methods[] = {
    {"reset", (PyCFunction)Batch_reset, METH_O, "reset(seed): every game anew."},
    {"reset_some", (PyCFunction)Batch_reset_some, METH_VARARGS,
     "reset_some(reset_mask, seed): the games where reset_mask is True anew (seed None: "
     "their streams go on)."},
    {"step", (PyCFunction)Batch_step, METH_VARARGS, "step(actions, illegal_mode)."},
    {"sample_actions", (PyCFunction)Batch_sample_actions, METH_O,
     "sample_actions(out): a uniformly random legal action per game into out (int64)."},
    {"sample_worlds", (PyCFunction)Batch_sample_worlds, METH_VARARGS,
     "sample_worlds(players, k, seed, out, failed): k worlds of each game as game saves into out."},
    {"bot_actions", (PyCFunction)Batch_bot_actions, METH_VARARGS,
     "bot_actions(name, out): the action bot `name` plays in each game, into out."},
    {"games_over", (PyCFunction)Batch_games_over, METH_O,
     "games_over(out): whether each game has ended and waits (NEXT_STEP, DISABLED), into a bool array."},
    {"deploying", (PyCFunction)Batch_deploying, METH_O,
     "deploying(out): whether each game is in its deployment phase, into a bool array."},
    {"stats", (PyCFunction)Batch_stats, METH_NOARGS, "Counters of finished games since reset."},
    {"game", (PyCFunction)Batch_game, METH_O, "game(i): a GameState copy of game i."},
    {"save", (PyCFunction)Batch_save, METH_NOARGS, "Every game, random stream and counter as bytes."},
    {"restore", (PyCFunction)Batch_restore, METH_O, "restore(data): the batch as save() left it."},
    {"pop_records", (PyCFunction)Batch_pop_records, METH_NOARGS,
     "pop_records() -> the games finished since the last call, as a dict of arrays (record=True)."},
    {"claim", (PyCFunction)Batch_claim, METH_NOARGS,
     "claim(): refuses every other thread's call until release() (VecShell holds it across a call)."},
    {"release", (PyCFunction)Batch_end_claim, METH_NOARGS, "release(): ends this thread's claim()."},
    {"close", (PyCFunction)Batch_close, METH_NOARGS, "Frees the games; a second close is safe."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject BatchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "stratego._core.Batch",
    .tp_basicsize = sizeof(BatchObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "N games stepped together in C (use stratego.VecEnv).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Batch_init,
    .tp_dealloc = (destructor)Batch_dealloc,
    .tp_methods = Batch_methods,
    .tp_getset = Batch_getset,
};
