/* batch_type.c: _core.Batch, N classic games stepped together in C with the GIL
 * released (stratego.VecEnv wraps it): the classic game's table for the one batch type
 * (batch_glue.h) and its own methods (sample_worlds, deploying, game, pop_records). */
#include "binding.h"
#include <limits.h>

#include <stdlib.h>
#include <string.h>

#include "batch_glue.h"
#include "stratego/batch.h"
#include "stratego/bots/bot.h"
#include "stratego/game.h"
#include "engine/mask_bits.h"
#include "stratego/moves.h"
#include "stratego/observe.h"
#include "stratego/observe_full.h"
#include "stratego/observe_player.h"
#include "stratego/record.h"
#include "stratego/rules.h"
#include "stratego/sample.h"
#include "stratego/save.h"

/* __init__'s keywords in order, each once: (enum name, keyword, kind, required,
 * attribute the read-only message names; batch_glue.h). OPTION places a setting of
 * BATCH_OPTIONS (stratego/batch.h), whose keyword is its field's name (KW_<field>), and
 * whose default, range and refusal come from there. */
#define OPTION(X, field) X(field, #field, GLUE_OPTION, 0, NULL)
#define CLASSIC_KEYWORDS(X)                                        \
    X(NUM_ENVS, "num_envs", GLUE_OPTION, 1, NULL)                  \
    X(NUM_THREADS, "num_threads", GLUE_THREADS, 1, NULL)           \
    X(RULES, "rules", GLUE_OPTION, 1, NULL)                        \
    GLUE_OUTPUT_KEYWORDS(X)                                        \
    X(OBS, "obs", GLUE_ARRAY, 0, NULL)                             \
    X(FINAL_OBS, "final_obs", GLUE_ARRAY, 0, NULL)                 \
    X(FULL_OBS, "full_obs", GLUE_CHOSEN, 0, NULL)                  \
    OPTION(X, obs_views)                                           \
    X(HISTORY_K, "history_k", GLUE_OPTION, 0, NULL)                \
    X(PROBABILITIES, "probabilities", GLUE_OPTION, 0, NULL)        \
    X(AS_FLOAT, "as_float", GLUE_OPTION, 0, NULL)                  \
    OPTION(X, write_mask)                                          \
    X(SETUPS, "setups", GLUE_OPTION, 0, NULL)                      \
    OPTION(X, final_views)                                         \
    OPTION(X, autoreset)                                           \
    OPTION(X, opponent)                                            \
    OPTION(X, learner_mode)                                        \
    X(BELIEF, "belief", GLUE_ARRAY, 0, NULL)                       \
    X(FINAL_BELIEF, "final_belief", GLUE_ARRAY, 0, NULL)           \
    X(OBS_CODES, "obs_codes", GLUE_OPTION, 0, NULL)                \
    OPTION(X, mask_bits)                                           \
    OPTION(X, full_codes)                                          \
    OPTION(X, game_offset)                                         \
    OPTION(X, record_capacity)                                     \
    X(DEPLOY, "deploy", GLUE_OPTION, 0, NULL)

enum { CLASSIC_KEYWORDS(GLUE_KEYWORD_ENUM) KW_NB };
static const GlueKeyword KEYWORDS[KW_NB] = {CLASSIC_KEYWORDS(GLUE_KEYWORD_ROW)};
_Static_assert(KW_FINAL_OBS == KW_OBS + 1, "obs, final_obs (glue_outputs_point)");

/* game_offset goes through parse_int_in's long: 64 bits on the platforms we build for. */
_Static_assert(BATCH_MAX_GAME_OFFSET <= LONG_MAX, "game_offset fits a long");

/* A setting of BATCH_OPTIONS: its default when not given, else a truth value (a flag) or
 * an integer in [lo, hi]. 0, or -1 with an exception naming it. */
static int parse_option(PyObject *obj, const char *name, int kind, long fallback, long lo, long hi,
                        const char *expected, long *out) {
    if (obj == NULL) {
        *out = fallback;
        return 0;
    }
    if (kind == BATCH_OPTION_INT) return parse_int_in(obj, name, lo, hi, expected, out);
    int truth = PyObject_IsTrue(obj);
    *out = truth;
    return truth < 0 ? -1 : 0;
}

static int classic_parse(void *cv, PyObject *const *v, PyObject **keep) {
    BatchConfig *bc = cv;
    long n, history_k = 4, value;
    int deploy = 0;
    PyObject *setups = v[KW_SETUPS] != NULL ? v[KW_SETUPS] : Py_None;
    int probabilities = glue_flag(v[KW_PROBABILITIES], 0), as_float = glue_flag(v[KW_AS_FLOAT], 0);
    int obs_codes = glue_flag(v[KW_OBS_CODES], 0);
    if (probabilities < 0 || as_float < 0 || obs_codes < 0) return -1;
#define PARSE_OPTION(field, type, kind, fallback, lo, hi, expected)                                    \
    if (parse_option(v[KW_##field], #field, kind, (long)(fallback), (long)(lo), (long)(hi), expected, \
                     &value) < 0)                                                                      \
        return -1;                                                                                     \
    bc->field = (type)value;
    BATCH_OPTIONS(PARSE_OPTION)
#undef PARSE_OPTION
    if (parse_num_envs(v[KW_NUM_ENVS], &n) < 0 || rules_from_dict(v[KW_RULES], &bc->rules) < 0 ||
        deploy_sides_parse(v[KW_DEPLOY] != NULL ? v[KW_DEPLOY] : Py_None, &bc->rules, &deploy) < 0)
        return -1;
    if (v[KW_HISTORY_K] != NULL && parse_history_k(v[KW_HISTORY_K], &history_k) < 0) return -1;
    if (obs_spec_parse(history_k, probabilities, as_float, obs_codes, &bc->rules, &bc->obs_spec) < 0) return -1;
    /* The games read the setup table for as long as they live: a private copy, so that
     * no later write to the caller's array (or its base) can change what was checked. */
    if (setups != Py_None && PyArray_Check(setups) && PyArray_TYPE((PyArrayObject *)setups) == NPY_UINT8) {
        *keep = PyArray_NewCopy((PyArrayObject *)setups, NPY_CORDER);
        if (*keep == NULL) return -1;
        /* The table is read with the GIL released: nothing may write it again. */
        PyArray_CLEARFLAGS((PyArrayObject *)*keep, NPY_ARRAY_WRITEABLE);
        setups = *keep;
    } else if (setups != Py_None) {
        *keep = Py_NewRef(setups);
    }
    if (setup_table_parse(setups, &bc->rules, &bc->setups) < 0) return -1;
    bc->setups.deploy = deploy;
    if (bc->final_views == 0) bc->final_views = bc->obs_views;
    if ((bc->final_views > 0) != (bc->obs_views > 0)) {
        PyErr_Format(PyExc_ValueError, "final_views must be 1 or 2 with observations (0: as "
                     "obs_views), 0 without; got %d with obs_views %d", bc->final_views, bc->obs_views);
        return -1;
    }
    bc->num_envs = (int)n;
    bc->full_obs = glue_given(v[KW_FULL_OBS]);
    return 0;
}

/* The outputs (batch_shape's sizes); one view's shape comes from its spec: (C, 10, 10)
 * planes or (L,) codes; then (n, ...) or (n, 2, ...) for both players' views. */
static int classic_layout(const void *cv, PyObject *const *v, GlueLayout *l) {
    const BatchConfig *bc = cv;
    int beliefs = bc->obs_views > 0 && bc->obs_spec.codes && bc->obs_spec.probabilities;
    if (v != NULL && bc->obs_views == 0 && (glue_given(v[KW_OBS]) || glue_given(v[KW_FINAL_OBS]))) {
        PyErr_SetString(PyExc_ValueError, "obs and final_obs need obs_views 1 or 2");
        return -1;
    }
    if (v != NULL && !beliefs && (glue_given(v[KW_BELIEF]) || glue_given(v[KW_FINAL_BELIEF]))) {
        PyErr_SetString(PyExc_ValueError, "belief and final_belief go with observation codes and probabilities");
        return -1;
    }
    VecShape shape = batch_shape(bc);
    glue_layout_outputs(l, KW_MASK, &shape, bc->mask_bits ? NPY_UINT8 : NPY_BOOL);
    l->num_actions = rules_num_actions(&bc->rules);
    int64_t view[OBS_DIMS_MAX], belief[OBS_DIMS_MAX], full[OBS_DIMS_MAX];
    int view_ndim = observe_spec_shape(&bc->obs_spec, view), belief_ndim = observe_belief_shape(belief);
    npy_intp lead[2] = {bc->num_envs, 2};
    if (bc->obs_views > 0) {
        int obs_type = bc->obs_spec.as_float ? NPY_FLOAT32 : NPY_UINT8;
        glue_layout_add(l, KW_OBS, obs_type, lead, bc->obs_views, view, view_ndim);
        glue_layout_add(l, KW_FINAL_OBS, obs_type, lead, bc->final_views, view, view_ndim);
    }
    if (bc->full_obs) glue_layout_add(l, KW_FULL_OBS, NPY_UINT8, lead, 1, full, observe_full_shape(bc->full_codes, full));
    /* Beliefs beside the codes: float32 (n, [2,] 12, 10, 10). */
    if (beliefs) {
        glue_layout_add(l, KW_BELIEF, NPY_FLOAT32, lead, bc->obs_views, belief, belief_ndim);
        glue_layout_add(l, KW_FINAL_BELIEF, NPY_FLOAT32, lead, bc->final_views, belief, belief_ndim);
    }
    size_t per_game = batch_game_bytes(bc) + (bc->record_capacity ? record_game_bytes(bc->record_capacity) : 0);
    l->held_bytes = (size_t)bc->num_envs * per_game;
    return 0;
}

static int classic_init(void *b, const void *cv, void *const *data) {
    BatchOutputs outputs = {.full_obs = data[KW_FULL_OBS], .belief = data[KW_BELIEF], .final_belief = data[KW_FINAL_BELIEF]};
    glue_outputs_point(&outputs.vec, data, KW_MASK, KW_OBS);
    return batch_init(b, cv, &outputs);
}

static void classic_free(void *bv) {
    Batch *b = bv;
    batch_free(b);
    /* The setup table is the glue's keep, released after this. */
    b->setups.letters = NULL;
    b->setups.n = 0;
}

static void classic_reset_some(void *b, const uint8_t *mask, int reseed, uint64_t seed, int threads) {
    batch_reset_some(b, mask, reseed, seed, threads);
}

static int64_t classic_find_refused(void *b, const int64_t *a, int mode, int *illegal, int *code, int threads) {
    int64_t bad = batch_find_out_of_range(b, a);
    *illegal = 0;
    if (bad >= 0 || mode != ILLEGAL_RAISE) return bad;
    *illegal = 1;
    return batch_find_illegal(b, a, code, threads);
}

static void classic_illegal_reason(const void *b, int64_t i, int64_t a, int code, char *why, size_t len) {
    STRATEGO_UNUSED(b);
    STRATEGO_UNUSED(i);
    STRATEGO_UNUSED(a);
    snprintf(why, len, "%s", moves_illegal_reason(code));
}

static int classic_step(void *b, const int64_t *a, int mode, int threads) { return batch_step(b, a, mode, threads); }

static void classic_step_refused(const void *b) {
    PyErr_Format(PyExc_MemoryError, "no memory to queue %lld finished game record(s); nothing was played "
                 "and they are kept: call pop_records() to free the queue, then step again",
                 (long long)((const Batch *)b)->rec.uncollected);
}

static void classic_sample(void *b, int64_t *out, int threads) { batch_sample_actions(b, out, threads); }

static int classic_over(const void *b, int64_t i) { return game_is_over(&((const Batch *)b)->states[i]); }

static PyObject *classic_stats(const void *b) {
    const BatchStats *st = &((const Batch *)b)->stats;
    return Py_BuildValue("{sLsLsLsLsLsLsK}", "games_finished", (long long)st->games_finished, "red_wins",
                         (long long)st->red_wins, "blue_wins", (long long)st->blue_wins, "draws",
                         (long long)st->draws, "cap_draws", (long long)st->cap_draws, "plies_of_finished",
                         (long long)st->plies_of_finished, "checksum", (unsigned long long)st->checksum);
}

static size_t classic_save_bytes(const void *b) { return save_batch_bytes(b); }
static void classic_save_write(const void *b, uint8_t *out) { save_batch_write(b, out); }
static int classic_save_check(const void *b, const uint8_t *d, size_t len, char *err, size_t err_len) {
    return save_batch_check(b, d, len, err, err_len);
}
static void classic_save_read(void *b, const uint8_t *d) { save_batch_read(b, d); }
static void classic_write_outputs(void *b, int threads) { batch_write_outputs(b, threads); }

/* Finished games waiting to be handed out (record.h); 0 when not recording. */
static int64_t records_waiting(const Batch *b) { return b->recording ? recorder_waiting(&b->rec) : 0; }

/* save() and restore() hold the games in progress, not finished games waiting to be
 * handed out: with any waiting, both refuse (docs/recording.md). */
static int classic_save_refused(const void *b, const char *what) {
    int64_t waiting = records_waiting(b);
    if (waiting == 0) return 0;
    PyErr_Format(PyExc_ValueError, "cannot %s: %lld finished game(s) wait to be handed out; call pop_records() "
                 "first (a save holds the games in progress, not the finished ones)", what, (long long)waiting);
    return -1;
}

static int classic_bot_kind(PyObject *name) {
    int kind;
    return parse_bot(name, &kind) < 0 ? -1 : kind;
}

static void classic_bot_actions(void *b, int kind, const uint8_t *games, int64_t *out, int threads) {
    batch_bot_actions(b, kind, games, out, threads);
}

/* deploying(out): out[i] = whether game i is in its deployment phase (PHASE_DEPLOY:
 * its player to move places a piece), into a bool array (N,): info["deploying"]. */
static PyObject *Classic_deploying(PyObject *self, PyObject *out) {
    Batch *b = glue_batch(self);
    if (glue_idle(self) < 0) return NULL;
    if (check_out_array(out, "the array of deploying games", NPY_BOOL, b->num_envs, 0) < 0) return NULL;
    uint8_t *deploying = PyArray_DATA((PyArrayObject *)out);
    for (int i = 0; i < b->num_envs; i++) deploying[i] = b->states[i].phase == PHASE_DEPLOY;
    Py_RETURN_NONE;
}

/* sample_worlds(players, k, seed, out, failed, skip=False): k worlds of every game for
 * players[i] (None: the player to move) as game saves into out (N, k, save bytes) uint8,
 * drawn without the GIL (sample_games_worlds); failed marks the games that cannot be
 * sampled, and unless skip, ValueError names the first of them. */
static PyObject *Classic_sample_worlds(PyObject *self, PyObject *args) {
    Batch *b = glue_batch(self);
    PyObject *players_obj, *k_obj, *seed_obj, *out, *failed_obj;
    int skip = 0;
    long k;
    uint64_t seed;
    const int64_t *players = NULL;
    if (!PyArg_ParseTuple(args, "OOOOO|p", &players_obj, &k_obj, &seed_obj, &out, &failed_obj, &skip)) return NULL;
    if (parse_int_in(k_obj, "k", 1, SAMPLE_WORLDS_MAX, NULL, &k) < 0 || parse_seed(seed_obj, &seed) < 0 ||
        glue_idle(self) < 0)
        return NULL;
    npy_intp n = b->num_envs, shape[3] = {n, k, (npy_intp)save_game_bytes()};
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
    if (glue_enter(self) < 0) return NULL;
    uint8_t *failed = PyArray_DATA((PyArrayObject *)failed_obj), *worlds = PyArray_DATA((PyArrayObject *)out);
    Py_BEGIN_ALLOW_THREADS
    sample_games_worlds(b->states, n, &b->rules, players, (int)k, seed, worlds, failed,
                        glue_threads(self));
    Py_END_ALLOW_THREADS
    glue_leave(self);
    for (npy_intp i = 0; i < n && !skip; i++) {
        if (!failed[i]) continue;
        char err[160];
        SampleSource src;
        GameState base;
        int player = players ? (int)players[i] : b->states[i].to_move;
        sample_game_prepare(&b->states[i], &b->rules, player, &src, &base, err, sizeof(err));
        PyErr_Format(PyExc_ValueError, "cannot sample worlds of game %zd: %s (skip=True samples the others)",
                     (Py_ssize_t)i, err);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* pop_records(): record_binding.c builds the columns. */
static PyObject *Classic_pop_records(PyObject *self, PyObject *unused) {
    Batch *b = glue_batch(self);
    STRATEGO_UNUSED(unused);
    if (glue_idle(self) < 0) return NULL;
    if (!b->recording) {
        PyErr_SetString(PyExc_ValueError, "this env does not record its games: make it with record=True");
        return NULL;
    }
    return records_pop(&b->rec);
}

/* game(i) -> a GameState copy of game i (for inspection and rendering). */
static PyObject *Classic_game(PyObject *self, PyObject *index_obj) {
    Batch *b = glue_batch(self);
    /* The index first: its __index__ may close or step this batch. */
    Py_ssize_t i = PyNumber_AsSsize_t(index_obj, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (glue_idle(self) < 0) return NULL;
    if (i < 0 || i >= b->num_envs) {
        PyErr_Format(PyExc_IndexError, "game index %zd out of range [0, %d)", i,
                     b->num_envs);
        return NULL;
    }
    GameStateObject *g = PyObject_New(GameStateObject, &GameStateType);
    if (g == NULL) return NULL;
    g->state = b->states[i];
    g->rules = b->rules;
    g->bot_rng = b->sample_rng[i]; /* game i's own stream, as bot_actions() draws on */
    g->ready = 1;
    return (PyObject *)g;
}

static PyObject *Classic_get_records_waiting(PyObject *self, void *closure) {
    Batch *b = glue_batch(self);
    STRATEGO_UNUSED(closure);
    return PyLong_FromLongLong((long long)records_waiting(b));
}

static PyObject *Classic_get_record_capacity(PyObject *self, void *closure) {
    Batch *b = glue_batch(self);
    STRATEGO_UNUSED(closure);
    return PyLong_FromUnsignedLong(b->recording ? b->rec.capacity : 0);
}


static const PyMethodDef CLASSIC_METHODS[] = {
    {"sample_worlds", (PyCFunction)Classic_sample_worlds, METH_VARARGS,
     "sample_worlds(players, k, seed, out, failed): k worlds of each game as game saves into out."},
    {"deploying", (PyCFunction)Classic_deploying, METH_O,
     "deploying(out): whether each game is in its deployment phase, into a bool array."},
    {"game", (PyCFunction)Classic_game, METH_O, "game(i): a GameState copy of game i."},
    {"pop_records", (PyCFunction)Classic_pop_records, METH_NOARGS,
     "pop_records() -> the games finished since the last call, as a dict of arrays (record=True)."},
    {NULL, NULL, 0, NULL},
};

static const PyGetSetDef CLASSIC_GETSET[] = {
    {"records_waiting", (getter)Classic_get_records_waiting, NULL,
     "Finished games recorded and not yet handed out by pop_records() (0 when not recording).", NULL},
    {"record_capacity", (getter)Classic_get_record_capacity, NULL, "Actions a game's record holds (0: not recording).",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static const GlueGame CLASSIC = {
    .name = "Batch",
    .keywords = KEYWORDS,
    .num_keywords = KW_NB,
    .batch_size = sizeof(Batch),
    .config_size = sizeof(BatchConfig),
    .parse = classic_parse,
    .layout = classic_layout,
    .init = classic_init,
    .free = classic_free,
    .reset_some = classic_reset_some,
    .illegal_loses = 1,
    .find_refused = classic_find_refused,
    .illegal_reason = classic_illegal_reason,
    .step = classic_step,
    .step_refused = classic_step_refused,
    .sample = classic_sample,
    .over = classic_over,
    .stats = classic_stats,
    .save_bytes = classic_save_bytes,
    .save_write = classic_save_write,
    .save_check = classic_save_check,
    .save_read = classic_save_read,
    .write_outputs = classic_write_outputs,
    .save_refused = classic_save_refused,
    .bot_kind = classic_bot_kind,
    .bot_actions = classic_bot_actions,
    .methods = CLASSIC_METHODS,
    .getset = CLASSIC_GETSET,
};

static GlueType BATCH_TYPE;

int batch_binding_add(PyObject *m) {
    if (glue_type_ready(&BATCH_TYPE, &CLASSIC, "stratego._core.Batch",
                        "N games stepped together in C (use stratego.VecEnv).") < 0)
        return -1;
    return PyModule_AddType(m, &BATCH_TYPE.type);
}
