/* binding.c: the CPython extension `stratego._core`. It converts and checks, and holds
 * no rule: every decision about the game is made by the C core it calls. The only file
 * that includes Python.h or NumPy.
 *
 * Style: every call that can fail is checked; functions have one exit (locals start
 * NULL, failures `goto done`, cleanup at the end); messages name the argument and say
 * what was expected and what came.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>

#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "board.h"
#include "bot.h"
#include "game.h"
#include "init.h"
#include "mask_bits.h"
#include "moves.h"
#include "observe.h"
#include "observe_codes.h"
#include "observe_full.h"
#include "pool.h"
#include "rng.h"
#include "rules.h"
#include "save.h"
#include "view.h"

static const char *const END_REASON_NAMES[END_REASON_NB] = {
    "", "flag_captured", "no_movable_pieces", "no_legal_move", "neither_can_move",
    "max_plies", "max_plies_without_attack", "illegal_action",
};

/* ------------------------------------------------------------------ helpers */

/* Converts an integer argument: an int or any object with __index__ (numpy.int64...),
 * not a bool, to a long in [lo, hi]. `expected` says what is wanted ("0 (red) or 1
 * (blue)"); NULL means "an int in [lo, hi]". 0, or -1 with TypeError (not an integer) or
 * ValueError (out of range, however large) naming `name`. */
static int parse_int_in(PyObject *obj, const char *name, long lo, long hi, const char *expected,
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

/* Reads an int setting of the rules dict, in [lo, hi]. 0 or -1 with an exception. */
static int dict_get_int(PyObject *dict, const char *key, long lo, long hi, long *out) {
    char name[64];
    PyObject *value = PyDict_GetItemString(dict, key); /* borrowed */
    if (value == NULL) {
        PyErr_Format(PyExc_KeyError, "rules need the setting '%s'", key);
        return -1;
    }
    snprintf(name, sizeof(name), "rule setting '%s'", key);
    return parse_int_in(value, name, lo, hi, NULL, out);
}

/* Fills Rules from a dict {piece_counts: 12 ints, setup_rows, two_square_limit,
 * max_plies, max_plies_without_attack}. 0, or -1 with an exception. */
static int rules_from_dict(PyObject *dict, Rules *r) {
    int result = -1;
    PyObject *seq = NULL;
    long v;
    char err[200];
    if (!PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError, "rules must be a dict, got %s", Py_TYPE(dict)->tp_name);
        goto done;
    }
    rules_default(r);
    PyObject *counts = PyDict_GetItemString(dict, "piece_counts");
    if (counts == NULL) {
        PyErr_SetString(PyExc_KeyError, "rules need the setting 'piece_counts'");
        goto done;
    }
    seq = PySequence_Fast(counts, "piece_counts must be a sequence of 12 ints");
    if (seq == NULL) goto done;
    if (PySequence_Fast_GET_SIZE(seq) != PIECE_TYPE_NB) {
        PyErr_Format(PyExc_ValueError, "piece_counts must have 12 entries (bomb..flag), got %zd",
                     PySequence_Fast_GET_SIZE(seq));
        goto done;
    }
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        char name[32];
        long c;
        snprintf(name, sizeof(name), "piece_counts[%d]", t);
        if (parse_int_in(PySequence_Fast_GET_ITEM(seq, t), name, 0, MAX_PIECES, NULL, &c) < 0)
            goto done;
        r->piece_counts[t] = (uint8_t)c;
    }
    if (dict_get_int(dict, "setup_rows", 1, 4, &v) < 0) goto done;
    r->setup_rows = (uint8_t)v;
    if (dict_get_int(dict, "two_square_limit", 0, 255, &v) < 0) goto done;
    r->two_square_limit = (uint8_t)v;
    if (dict_get_int(dict, "max_plies", 0, 65535, &v) < 0) goto done;
    r->max_plies = (uint16_t)v;
    if (dict_get_int(dict, "max_plies_without_attack", 0, 65535, &v) < 0) goto done;
    r->max_plies_without_attack = (uint16_t)v;
    {
        static const char *const FLAGS[] = {"aggressor_wins", "silent_defense", "rescue",
                                            "one_time_bombs", "captain_two_squares", "chasing_rule"};
        uint8_t *fields[] = {&r->aggressor_wins, &r->silent_defense, &r->rescue,
                             &r->one_time_bombs, &r->captain_two_squares, &r->chasing_rule};
        for (size_t k = 0; k < sizeof(FLAGS) / sizeof(FLAGS[0]); k++) {
            if (dict_get_int(dict, FLAGS[k], 0, 1, &v) < 0) goto done;
            *fields[k] = (uint8_t)v;
        }
    }
    if (rules_validate(r, err, sizeof(err)) < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        goto done;
    }
    result = 0;
done:
    Py_XDECREF(seq);
    return result;
}

static int parse_player(PyObject *obj, const char *name, int *out) {
    long v;
    if (parse_int_in(obj, name, 0, 1, "0 (red) or 1 (blue)", &v) < 0) return -1;
    *out = (int)v;
    return 0;
}

static int parse_square(PyObject *obj, const char *name, int *out) {
    long v;
    if (parse_int_in(obj, name, 0, SQ_NB - 1, "a square index in [0, 99]", &v) < 0) return -1;
    *out = (int)v;
    return 0;
}

static int parse_seed(PyObject *obj, uint64_t *out) {
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "seed must be an int, got %s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    /* Any Python int: its value modulo 2^64 (negative seeds included). */
    unsigned long long v = PyLong_AsUnsignedLongLongMask(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    *out = (uint64_t)v;
    return 0;
}

/* A bot's name (bot.h) to its kind; a ValueError listing the bots otherwise. */
static int parse_bot(PyObject *obj, int *out) {
    const char *name = PyUnicode_Check(obj) ? PyUnicode_AsUTF8(obj) : NULL;
    if (name == NULL && PyErr_Occurred()) return -1;
    int kind = name ? bot_kind_from_name(name) : -1;
    if (kind < 0) {
        char known[128] = "";
        for (int k = 0; k < BOT_KIND_NB; k++) {
            strncat(known, k ? ", '" : "'", sizeof(known) - strlen(known) - 1);
            strncat(known, bot_name(k), sizeof(known) - strlen(known) - 1);
            strncat(known, "'", sizeof(known) - strlen(known) - 1);
        }
        if (PyUnicode_Check(obj)) {
            PyErr_Format(PyExc_ValueError, "unknown bot %R; the bots are %s", obj, known);
        } else {
            PyErr_Format(PyExc_TypeError, "a bot is named by a str (%s), got %s", known, Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    *out = kind;
    return 0;
}

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
static int check_array_shape(PyObject *obj, const char *name, int typenum, int ndim,
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
static int check_out_array(PyObject *obj, const char *name, int typenum, npy_intp n, npy_intp d1) {
    npy_intp shape[2] = {n, d1};
    return check_array_shape(obj, name, typenum, d1 > 0 ? 2 : 1, shape);
}

/* The one conversion of history_k, so Game, VecEnv and channel_names raise the same
 * exception for the same fault (TypeError: not an integer; ValueError: out of range). */
static int parse_history_k(PyObject *obj, long *out) {
    return parse_int_in(obj, "history_k", 0, HISTORY_NB, NULL, out);
}

/* Reads the observation settings (history_k from parse_history_k); the caps come from
 * the rules. codes: the compact observation (uint8 only; beliefs beside it). */
static int obs_spec_parse(long history_k, int probabilities, int as_float, int codes, const Rules *r,
                          ObsSpec *spec) {
    if (codes && as_float) {
        PyErr_SetString(PyExc_ValueError, "observation codes are uint8; expand them to float32 instead");
        return -1;
    }
    /* With codes the beliefs are their own float32 block. */
    if (probabilities && !as_float && !codes) {
        PyErr_SetString(PyExc_ValueError, "belief planes need obs_dtype float32");
        return -1;
    }
    spec->history_k = (uint8_t)history_k;
    spec->probabilities = (uint8_t)(probabilities != 0);
    spec->as_float = (uint8_t)(as_float != 0);
    spec->max_plies = r->max_plies;
    spec->max_plies_without_attack = r->max_plies_without_attack;
    return 0;
}

/* Reads an optional setup table: None, or a C-contiguous uint8 array (K, 40) of letters
 * 'A'..'M' whose rows each hold exactly the rules' pieces. 0, or -1 with an exception. */
static int setup_table_parse(PyObject *obj, const Rules *r, SetupTable *table) {
    table->letters = NULL;
    table->n = 0;
    if (obj == Py_None) return 0;
    if (!PyArray_Check(obj) || PyArray_TYPE((PyArrayObject *)obj) != NPY_UINT8 ||
        PyArray_NDIM((PyArrayObject *)obj) != 2 || PyArray_DIM((PyArrayObject *)obj, 1) != MAX_PIECES ||
        PyArray_DIM((PyArrayObject *)obj, 0) < 1 || PyArray_DIM((PyArrayObject *)obj, 0) > INT32_MAX ||
        !PyArray_IS_C_CONTIGUOUS((PyArrayObject *)obj) || !PyArray_ISALIGNED((PyArrayObject *)obj)) {
        PyErr_SetString(PyExc_ValueError,
                        "setups must be a C-contiguous uint8 array of shape (K, 40), K >= 1");
        return -1;
    }
    const uint8_t *letters = PyArray_DATA((PyArrayObject *)obj);
    npy_intp k = PyArray_DIM((PyArrayObject *)obj, 0);
    for (npy_intp row = 0; row < k; row++) {
        int counts[PIECE_TYPE_NB] = {0};
        for (int i = 0; i < MAX_PIECES; i++) {
            uint8_t c = letters[row * MAX_PIECES + i];
            if (c == 'A') continue;
            if (c < 'B' || c > 'M') {
                PyErr_Format(PyExc_ValueError, "setup %zd: letter %d is %d, expected 'A'..'M'",
                             (Py_ssize_t)row, i, c);
                return -1;
            }
            counts[c - 'B']++;
        }
        for (int t = 0; t < PIECE_TYPE_NB; t++) {
            if (counts[t] != r->piece_counts[t]) {
                PyErr_Format(PyExc_ValueError,
                             "setup %zd has %d pieces of type %d, the variant %d", (Py_ssize_t)row,
                             counts[t], t, r->piece_counts[t]);
                return -1;
            }
        }
    }
    table->letters = letters;
    table->n = (int)k;
    return 0;
}

/* ------------------------------------------------------------------ GameState */

typedef struct {
    PyObject_HEAD
    GameState state;
    Rules rules;
    /* The stream bot_action() draws on: seeded with the game (bot_seed_stream), so a
     * game's bot moves follow from its seed. */
    uint64_t bot_rng;
    int ready; /* 1 once state and rules are valid: __new__ alone leaves zeros, not rules */
} GameStateObject;

/* The bots' stream of a game made from `seed`: stream 1 of game 0, the stream of
 * game 0 of a batch reset with the same seed (batch_reset), whose setups this game
 * shares. */
static uint64_t bot_seed_stream(uint64_t seed) { return rng_seed_stream(seed, 0, 1); }

/* __init__(rules): an empty board under the rules. The rules are read into a local and
 * stored only once valid, so a refused re-init keeps the old, valid state. */
static int GameState_init(GameStateObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"rules", NULL};
    PyObject *rules_obj = NULL;
    Rules rules;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O", kwlist, &rules_obj)) return -1;
    if (rules_from_dict(rules_obj, &rules) < 0) return -1;
    self->rules = rules;
    board_clear(&self->state);
    self->bot_rng = bot_seed_stream(0);
    self->ready = 1;
    return 0;
}

/* 0 if the object holds a valid game; -1 with an exception for one made by __new__ alone. */
static int GameState_check_ready(GameStateObject *self) {
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this GameState was never initialised (make games with stratego.Game)");
        return -1;
    }
    return 0;
}

/* reset(seed, setups=None): a new game, random setups or rows of the setup table. */
static PyObject *GameState_reset(GameStateObject *self, PyObject *args) {
    PyObject *seed_obj, *setups_obj = Py_None;
    uint64_t seed;
    SetupTable table;
    if (!PyArg_ParseTuple(args, "O|O", &seed_obj, &setups_obj)) return NULL;
    if (parse_seed(seed_obj, &seed) < 0 || GameState_check_ready(self) < 0) return NULL;
    if (setup_table_parse(setups_obj, &self->rules, &table) < 0) return NULL;
    self->state.rng = rng_seed_stream(seed, 0, 0);
    self->bot_rng = bot_seed_stream(seed);
    game_reset(&self->state, &self->rules, &table);
    Py_RETURN_NONE;
}

static PyObject *GameState_set_field(GameStateObject *self, PyObject *args) {
    PyObject *field_obj = NULL, *to_move_obj = NULL;
    int to_move;
    char err[200];
    if (!PyArg_ParseTuple(args, "UO", &field_obj, &to_move_obj)) return NULL;
    if (parse_player(to_move_obj, "to_move", &to_move) < 0 || GameState_check_ready(self) < 0)
        return NULL;
    Py_ssize_t len;
    if (!PyUnicode_IS_ASCII(field_obj)) {
        PyErr_Format(PyExc_ValueError, "bad field: a field has 100 ASCII letters (A, _, B-Y), got %zd characters "
                     "with non-ASCII ones", PyUnicode_GET_LENGTH(field_obj));
        return NULL;
    }
    const char *field = PyUnicode_AsUTF8AndSize(field_obj, &len);
    if (field == NULL) return NULL;
    GameState fresh;
    if (board_from_field(&fresh, field, (size_t)len, err, sizeof(err)) < 0) {
        PyErr_Format(PyExc_ValueError, "bad field: %s", err);
        return NULL;
    }
    fresh.to_move = (uint8_t)to_move;
    fresh.rng = self->state.rng;
    game_judge_start(&fresh, &self->rules);
    self->state = fresh;
    Py_RETURN_NONE;
}

static PyObject *GameState_field(GameStateObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (GameState_check_ready(self) < 0) return NULL;
    char out[SQ_NB];
    board_to_field(&self->state, out);
    return PyUnicode_FromStringAndSize(out, SQ_NB);
}

static PyObject *GameState_legal_actions(GameStateObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (GameState_check_ready(self) < 0) return NULL;
    PyObject *list = NULL, *result = NULL;
    uint16_t actions[ACTION_MAX];
    int n = self->state.done ? 0 : moves_list(&self->state, &self->rules, actions);
    list = PyList_New(n);
    if (list == NULL) goto done;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(actions[i]);
        if (v == NULL) goto done;
        PyList_SET_ITEM(list, i, v);
    }
    result = list;
    list = NULL;
done:
    Py_XDECREF(list);
    return result;
}

/* action_mask(out): the legal-action mask of the player to move into out, a bool array
 * of the variant's action count, or a uint8 array of MASK_BITS_BYTES for the packed
 * mask (all clear once the game is over). The same code as VecEnv's mask, so tests can
 * hold it against legal_actions(). */
static PyObject *GameState_action_mask(GameStateObject *self, PyObject *out) {
    if (GameState_check_ready(self) < 0) return NULL;
    int n = rules_num_actions(&self->rules);
    int packed = PyArray_Check(out) && PyArray_TYPE((PyArrayObject *)out) == NPY_UINT8;
    npy_intp shape[1] = {packed ? MASK_BITS_BYTES(n) : n};
    if (check_array_shape(out, "out", packed ? NPY_UINT8 : NPY_BOOL, 1, shape) < 0) return NULL;
    uint8_t *mask = PyArray_DATA((PyArrayObject *)out);
    if (self->state.done) {
        memset(mask, 0, (size_t)shape[0]);
    } else if (packed) {
        mask_bits_legal(&self->state, &self->rules, mask);
    } else {
        moves_legal_mask(&self->state, &self->rules, mask);
    }
    Py_RETURN_NONE;
}

/* The legality code of a move between two squares now (phase and variant included). */
static int move_code(GameStateObject *self, int from, int to) {
    int action = action_encode(self->state.to_move, from, to);
    if (action < 0) return moves_check(&self->state, &self->rules, self->state.to_move, from, to);
    return moves_check_action(&self->state, &self->rules, action);
}

/* check_move(from, to) -> None if legal, else the reason as a str. */
static PyObject *GameState_check_move(GameStateObject *self, PyObject *args) {
    PyObject *from_obj, *to_obj;
    int from, to;
    if (!PyArg_ParseTuple(args, "OO", &from_obj, &to_obj)) return NULL;
    if (parse_square(from_obj, "from", &from) < 0 || parse_square(to_obj, "to", &to) < 0 ||
        GameState_check_ready(self) < 0)
        return NULL;
    if (self->state.done) return PyUnicode_FromString("the game is over");
    int code = move_code(self, from, to);
    if (code == 0) Py_RETURN_NONE;
    return PyUnicode_FromString(moves_illegal_reason(code));
}

/* An action of any kind, in [0, ACTION_MAX). */
static int parse_action(PyObject *obj, int *out) {
    long v;
    char expected[48];
    snprintf(expected, sizeof(expected), "an int in [0, %d)", ACTION_MAX); /* as step() says it */
    if (parse_int_in(obj, "action", 0, ACTION_MAX - 1, expected, &v) < 0) return -1;
    *out = (int)v;
    return 0;
}

static PyObject *GameState_check_action(GameStateObject *self, PyObject *action_obj) {
    int action;
    if (parse_action(action_obj, &action) < 0 || GameState_check_ready(self) < 0) return NULL;
    int code = moves_check_action(&self->state, &self->rules, action);
    if (code == 0) Py_RETURN_NONE;
    return PyUnicode_FromString(moves_illegal_reason(code));
}

static PyObject *GameState_play_action(GameStateObject *self, PyObject *action_obj) {
    int action;
    if (parse_action(action_obj, &action) < 0 || GameState_check_ready(self) < 0) return NULL;
    int code = moves_check_action(&self->state, &self->rules, action);
    if (code != 0) {
        PyErr_SetString(PyExc_ValueError, moves_illegal_reason(code));
        return NULL;
    }
    game_apply_action(&self->state, &self->rules, action);
    Py_RETURN_NONE;
}

static PyObject *GameState_play_move(GameStateObject *self, PyObject *args) {
    PyObject *from_obj, *to_obj;
    int from, to;
    if (!PyArg_ParseTuple(args, "OO", &from_obj, &to_obj)) return NULL;
    if (parse_square(from_obj, "from", &from) < 0 || parse_square(to_obj, "to", &to) < 0 ||
        GameState_check_ready(self) < 0)
        return NULL;
    if (self->state.done) {
        PyErr_SetString(PyExc_ValueError, "the game is over");
        return NULL;
    }
    int code = move_code(self, from, to);
    if (code != 0) {
        PyErr_SetString(PyExc_ValueError, moves_illegal_reason(code));
        return NULL;
    }
    game_apply_move(&self->state, &self->rules, from, to);
    Py_RETURN_NONE;
}

/* status() -> (to_move, done, winner or -1, end reason name, ply, plies_since_attack,
 * rescue pending, rescues made by red, by blue) */
static PyObject *GameState_status(GameStateObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (GameState_check_ready(self) < 0) return NULL;
    const GameState *s = &self->state;
    return Py_BuildValue("(iOisIIOii)", s->to_move, s->done ? Py_True : Py_False,
                         s->winner == NO_WINNER ? -1 : s->winner, END_REASON_NAMES[s->end_reason],
                         (unsigned int)s->ply, (unsigned int)s->plies_since_attack,
                         s->phase == PHASE_RESCUE ? Py_True : Py_False, s->rescues[RED],
                         s->rescues[BLUE]);
}

/* captured(player) -> tuple of the types of the player's captured pieces */
static PyObject *GameState_captured(GameStateObject *self, PyObject *player_obj) {
    int player;
    PyObject *list = NULL, *result = NULL;
    if (parse_player(player_obj, "player", &player) < 0 || GameState_check_ready(self) < 0)
        return NULL;
    const GameState *s = &self->state;
    list = PyList_New(0);
    if (list == NULL) goto done;
    for (int id = player * MAX_PIECES; id < player * MAX_PIECES + s->placed[player]; id++) {
        if (s->piece_sq[id] != SQ_NONE) continue;
        PyObject *t = PyLong_FromLong(s->piece_type[id]);
        if (t == NULL || PyList_Append(list, t) < 0) {
            Py_XDECREF(t);
            goto done;
        }
        Py_DECREF(t);
    }
    result = PyList_AsTuple(list);
done:
    Py_XDECREF(list);
    return result;
}

/* view_cells(player) -> bytes of 2 per square, in absolute square order: the view code
 * (view.h: empty, lake, own | type, identified opponent | type, unknown opponent) and the
 * public flags, exactly what the player's observation is made from. */
static PyObject *GameState_view_cells(GameStateObject *self, PyObject *player_obj) {
    int player;
    char out[2 * SQ_NB];
    PlayerView view;
    if (parse_player(player_obj, "perspective", &player) < 0 || GameState_check_ready(self) < 0)
        return NULL;
    view_build(&self->state, player, &view);
    for (int sq = 0; sq < SQ_NB; sq++) {
        out[2 * sq] = (char)view.cell[sq_to_frame(sq, player)];
        out[2 * sq + 1] = (char)view.flags[sq_to_frame(sq, player)];
    }
    return PyBytes_FromStringAndSize(out, sizeof(out));
}

/* cells() -> bytes of 3 per square: owner (0 red, 1 blue, 2 empty, 3 lake), type, flags.
 * For display and tests; it shows everything, and the renderer decides what to hide. */
static PyObject *GameState_cells(GameStateObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (GameState_check_ready(self) < 0) return NULL;
    char out[3 * SQ_NB];
    const GameState *s = &self->state;
    for (int sq = 0; sq < SQ_NB; sq++) {
        uint8_t cell = s->board[sq];
        if (cell == CELL_EMPTY || cell == CELL_LAKE) {
            out[3 * sq] = cell == CELL_EMPTY ? 2 : 3;
            out[3 * sq + 1] = out[3 * sq + 2] = 0;
        } else {
            out[3 * sq] = (char)piece_owner(cell - 1);
            out[3 * sq + 1] = (char)s->piece_type[cell - 1];
            out[3 * sq + 2] = (char)s->piece_flags[cell - 1];
        }
    }
    return PyBytes_FromStringAndSize(out, sizeof(out));
}

static PyObject *GameState_perft(GameStateObject *self, PyObject *depth_obj) {
    long depth;
    if (parse_int_in(depth_obj, "perft depth", 0, 6, NULL, &depth) < 0 ||
        GameState_check_ready(self) < 0)
        return NULL;
    uint64_t n;
    /* Copies: another thread may play on this game while the GIL is released. */
    GameState state = self->state;
    Rules rules = self->rules;
    Py_BEGIN_ALLOW_THREADS
    n = game_perft(&state, &rules, (int)depth);
    Py_END_ALLOW_THREADS
    return PyLong_FromUnsignedLongLong(n);
}

/* observe(player, out, history_k, probabilities, codes=False, belief=None): writes the
 * player's partial view into out, a (C, 10, 10) uint8 or float32 array (float32 for the
 * belief planes); with codes, the codes into a (CODES_BYTES,) uint8 array and, with
 * probabilities, the belief planes into belief, (12, 10, 10) float32. */
static PyObject *GameState_observe(GameStateObject *self, PyObject *args) {
    PyObject *player_obj, *out, *history_obj, *belief = Py_None;
    int player, probabilities, codes = 0;
    long history_k;
    ObsSpec spec;
    if (!PyArg_ParseTuple(args, "OOOp|pO", &player_obj, &out, &history_obj, &probabilities, &codes, &belief))
        return NULL;
    if (parse_player(player_obj, "player", &player) < 0 || parse_history_k(history_obj, &history_k) < 0)
        return NULL;
    int as_float = !codes && PyArray_Check(out) && PyArray_TYPE((PyArrayObject *)out) == NPY_FLOAT32;
    if (obs_spec_parse(history_k, probabilities, as_float, codes, &self->rules, &spec) < 0 ||
        GameState_check_ready(self) < 0)
        return NULL;
    if (codes) {
        npy_intp shape[1] = {(npy_intp)CODES_BYTES(spec.history_k)};
        npy_intp belief_shape[3] = {PIECE_TYPE_NB, BOARD_SIZE, BOARD_SIZE};
        if (check_array_shape(out, "out", NPY_UINT8, 1, shape) < 0) return NULL;
        if (probabilities && check_array_shape(belief, "belief", NPY_FLOAT32, 3, belief_shape) < 0) return NULL;
    } else {
        npy_intp shape[3] = {observe_channels(&spec), BOARD_SIZE, BOARD_SIZE};
        if (check_array_shape(out, "out", as_float ? NPY_FLOAT32 : NPY_UINT8, 3, shape) < 0) return NULL;
    }
    PlayerView view;
    view_build_recent(&self->state, player, spec.history_k, &view);
    if (!codes) {
        observe_partial(&view, &spec, PyArray_DATA((PyArrayObject *)out));
    } else {
        observe_codes(&view, &spec, PyArray_DATA((PyArrayObject *)out));
        if (probabilities) observe_belief_planes(&view, PyArray_DATA((PyArrayObject *)belief));
    }
    Py_RETURN_NONE;
}

/* observe_full(player, out, codes=False): the full-information view, (30, 10, 10) uint8,
 * or with codes its (100,) uint8 square codes. */
static PyObject *GameState_observe_full(GameStateObject *self, PyObject *args) {
    PyObject *player_obj, *out;
    int player, codes = 0;
    if (!PyArg_ParseTuple(args, "OO|p", &player_obj, &out, &codes)) return NULL;
    if (parse_player(player_obj, "player", &player) < 0 || GameState_check_ready(self) < 0)
        return NULL;
    npy_intp shape[3] = {FULL_OBS_CHANNELS, BOARD_SIZE, BOARD_SIZE};
    npy_intp code_shape[1] = {SQ_NB};
    if (codes ? check_array_shape(out, "out", NPY_UINT8, 1, code_shape) < 0
              : check_array_shape(out, "out", NPY_UINT8, 3, shape) < 0)
        return NULL;
    if (codes) observe_full_codes(&self->state, player, PyArray_DATA((PyArrayObject *)out));
    else observe_full(&self->state, player, PyArray_DATA((PyArrayObject *)out));
    Py_RETURN_NONE;
}

static PyObject *GameState_copy(GameStateObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (GameState_check_ready(self) < 0) return NULL;
    GameStateObject *other = PyObject_New(GameStateObject, Py_TYPE(self));
    if (other == NULL) return NULL;
    other->state = self->state;
    other->rules = self->rules;
    other->bot_rng = self->bot_rng;
    other->ready = 1;
    return (PyObject *)other;
}

/* to_bytes() -> a save of this game (save.h: header naming the format and rules, then
 * the state and the bot stream). */
static PyObject *GameState_to_bytes(GameStateObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (GameState_check_ready(self) < 0) return NULL;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)save_game_bytes());
    if (out == NULL) return NULL;
    save_game_write(&self->state, &self->rules, self->bot_rng, (uint8_t *)PyBytes_AS_STRING(out));
    return out;
}

/* from_bytes(data): replaces the state with a game save made under these rules, after
 * checking it completely (save_game_read); nothing changes if it is refused. */
static PyObject *GameState_from_bytes(GameStateObject *self, PyObject *data) {
    char err[300];
    if (!PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "a saved game must be bytes, got %s", Py_TYPE(data)->tp_name);
        return NULL;
    }
    if (GameState_check_ready(self) < 0) return NULL;
    if (save_game_read(&self->state, &self->bot_rng, &self->rules, (const uint8_t *)PyBytes_AS_STRING(data),
                       (size_t)PyBytes_GET_SIZE(data), err, sizeof(err)) < 0) {
        PyErr_Format(PyExc_ValueError, "cannot load this saved game: %s", err);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* bot_action(name) -> the action that bot plays for the player to move (-1 when the
 * game is over), drawn on the game's bot stream. */
static PyObject *GameState_bot_action(GameStateObject *self, PyObject *name) {
    int kind;
    if (parse_bot(name, &kind) < 0 || GameState_check_ready(self) < 0) return NULL;
    return PyLong_FromLong(bot_game_action(kind, &self->state, &self->rules, &self->bot_rng));
}

/* seed_bot(seed): restarts the bot stream as a game made from `seed` has it. */
static PyObject *GameState_seed_bot(GameStateObject *self, PyObject *seed_obj) {
    uint64_t seed;
    if (parse_seed(seed_obj, &seed) < 0 || GameState_check_ready(self) < 0) return NULL;
    self->bot_rng = bot_seed_stream(seed);
    Py_RETURN_NONE;
}

/* bot_stream() -> the bot stream's state; set_bot_stream(state) restores it (pickling). */
static PyObject *GameState_bot_stream(GameStateObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (GameState_check_ready(self) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(self->bot_rng);
}

static PyObject *GameState_set_bot_stream(GameStateObject *self, PyObject *state_obj) {
    uint64_t state;
    if (parse_seed(state_obj, &state) < 0 || GameState_check_ready(self) < 0) return NULL;
    self->bot_rng = state;
    Py_RETURN_NONE;
}

static PyMethodDef GameState_methods[] = {
    {"to_bytes", (PyCFunction)GameState_to_bytes, METH_NOARGS, "The state as bytes."},
    {"bot_action", (PyCFunction)GameState_bot_action, METH_O,
     "bot_action(name): the action bot `name` plays for the player to move, -1 when over."},
    {"seed_bot", (PyCFunction)GameState_seed_bot, METH_O, "seed_bot(seed): restarts the bot stream."},
    {"bot_stream", (PyCFunction)GameState_bot_stream, METH_NOARGS, "The bot stream's state."},
    {"set_bot_stream", (PyCFunction)GameState_set_bot_stream, METH_O, "Restores bot_stream()."},
    {"from_bytes", (PyCFunction)GameState_from_bytes, METH_O, "Restores a state from to_bytes()."},
    {"reset", (PyCFunction)GameState_reset, METH_VARARGS,
     "reset(seed, setups=None): a new game from seed, random setups or rows of setups."},
    {"set_field", (PyCFunction)GameState_set_field, METH_VARARGS,
     "set_field(field, to_move): the position of a 100-letter Gravon field."},
    {"field", (PyCFunction)GameState_field, METH_NOARGS, "The board as 100 Gravon letters."},
    {"legal_actions", (PyCFunction)GameState_legal_actions, METH_NOARGS,
     "Legal actions of the player to move (its frame); [] once the game is over."},
    {"action_mask", (PyCFunction)GameState_action_mask, METH_O,
     "action_mask(out): the legal-action mask of the player to move into out (bool)."},
    {"check_move", (PyCFunction)GameState_check_move, METH_VARARGS,
     "check_move(from, to): None if legal, else why not."},
    {"play_move", (PyCFunction)GameState_play_move, METH_VARARGS,
     "play_move(from, to): plays a legal move; ValueError otherwise."},
    {"status", (PyCFunction)GameState_status, METH_NOARGS,
     "(to_move, done, winner, end_reason, ply, plies_since_attack, rescue_pending, rescues_red, rescues_blue)"},
    {"check_action", (PyCFunction)GameState_check_action, METH_O,
     "check_action(action): None if legal now, else why not."},
    {"play_action", (PyCFunction)GameState_play_action, METH_O,
     "play_action(action): plays a legal action of any kind; ValueError otherwise."},
    {"captured", (PyCFunction)GameState_captured, METH_O, "captured(player): types of its captured pieces."},
    {"cells", (PyCFunction)GameState_cells, METH_NOARGS, "3 bytes a square: owner, type, flags."},
    {"view_cells", (PyCFunction)GameState_view_cells, METH_O,
     "view_cells(player): 2 bytes a square: the player's view code and the public flags."},
    {"perft", (PyCFunction)GameState_perft, METH_O, "perft(depth): move sequences of depth plies."},
    {"copy", (PyCFunction)GameState_copy, METH_NOARGS, "An independent copy."},
    {"observe", (PyCFunction)GameState_observe, METH_VARARGS,
     "observe(player, out, history_k, probabilities, codes=False, belief=None): the player's partial view into out."},
    {"observe_full", (PyCFunction)GameState_observe_full, METH_VARARGS,
     "observe_full(player, out, codes=False): the full-information view into out (30, 10, 10) uint8, or its (100,) codes."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GameStateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "stratego._core.GameState",
    .tp_basicsize = sizeof(GameStateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One game's state and rules (use stratego.Game).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)GameState_init,
    .tp_methods = GameState_methods,
};

/* ------------------------------------------------------------------ Batch */

enum { OUT_MASK, OUT_REWARDS, OUT_REWARD, OUT_TERMINATED, OUT_TRUNCATED, OUT_TO_PLAY, OUT_FINAL_WINNER,
       OUT_FINAL_REASON, OUT_FINAL_PLIES, OUT_NB };
enum { OBS_ARRAY_NB = 5 }; /* obs, final_obs, full_obs, belief, final_belief: optional */
static const char *const OUT_NAMES[OUT_NB] = {"mask", "rewards", "reward", "terminated", "truncated",
                                              "to_play", "final_winner", "final_reason", "final_plies"};
static const char *const OBS_ARRAY_NAMES[OBS_ARRAY_NB] = {"obs", "final_obs", "full_obs", "belief", "final_belief"};

/* Life cycle: made by __new__ (batch.states NULL, closed 0: refuses every call), then
 * __init__ once, then close() (closed 1). */
typedef struct {
    PyObject_HEAD
    Batch batch;
    PyObject *outputs[OUT_NB]; /* the caller's arrays, kept alive while we write them */
    PyObject *obs_arrays[OBS_ARRAY_NB];
    PyObject *setups; /* a private, read-only copy of the setup table the games draw from, or NULL */
    int num_threads;
    int busy; /* set while a call runs without the GIL: a second caller gets an error */
    unsigned long busy_thread; /* the thread inside that call, to tell re-entry from a race */
    int closed;
} BatchObject;

static void Batch_release(BatchObject *self) {
    free(self->batch.states);
    free(self->batch.sample_rng);
    free(self->batch.versus);
    self->batch.states = NULL;
    self->batch.sample_rng = NULL;
    self->batch.versus = NULL;
    for (int k = 0; k < OUT_NB; k++) Py_CLEAR(self->outputs[k]);
    for (int k = 0; k < OBS_ARRAY_NB; k++) Py_CLEAR(self->obs_arrays[k]);
    Py_CLEAR(self->setups);
    self->batch.setups.letters = NULL;
    self->batch.setups.n = 0;
    self->closed = 1;
}

static void Batch_dealloc(BatchObject *self) {
    Batch_release(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Limits of a Batch, exported to Python (MAX_ENVS, MAX_THREADS) for its own checks. */
enum { BATCH_MAX_ENVS = 1 << 26, BATCH_MAX_THREADS = 4096 };

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

/* __init__: every argument is converted and checked first (a conversion can run Python
 * code, even code that calls __init__ again), then the object is filled, once. */
static int Batch_init(BatchObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"num_envs", "num_threads", "rules", "mask", "rewards", "reward",
                             "terminated", "truncated", "to_play", "final_winner", "final_reason",
                             "final_plies", "obs", "final_obs", "full_obs", "obs_views",
                             "history_k", "probabilities", "as_float", "write_mask", "setups",
                             "final_views", "autoreset", "opponent", "learner_mode", "belief", "final_belief",
                             "obs_codes", "mask_bits", "full_codes", NULL};
    static const int types[OUT_NB] = {NPY_BOOL, NPY_FLOAT32, NPY_FLOAT32, NPY_BOOL, NPY_BOOL,
                                      NPY_INT8, NPY_INT8, NPY_UINT8, NPY_INT32};
    npy_intp widths[OUT_NB] = {0, 2, 0, 0, 0, 0, 0, 0, 0};
    Py_ssize_t n;
    PyObject *threads_obj, *rules_obj, *outs[OUT_NB];
    PyObject *obs[OBS_ARRAY_NB] = {Py_None, Py_None, Py_None, Py_None, Py_None};
    PyObject *views_obj = NULL, *history_obj = NULL, *setups_obj = Py_None;
    int probabilities = 0, as_float = 0, write_mask = 1, result = -1;
    int obs_codes = 0, mask_bits = 0, full_codes = 0;
    long obs_views = 0, history_k = 4, opponent = -1, learner_mode = LEARNER_RED;
    PyObject *opponent_obj = NULL, *learner_obj = NULL;
    PyObject *final_views_obj = NULL, *autoreset_obj = NULL;
    long final_views = 0, autoreset = AUTORESET_SAME_STEP;
    SetupTable table;
    Rules rules;
    ObsSpec spec;
    int threads;
    GameState *states = NULL;
    uint64_t *sample_rng = NULL;
    VersusSlot *versus = NULL;
    PyObject *setups_copy = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nOOOOOOOOOOO|OOOOOpppOOOOOOOppp", kwlist, &n, &threads_obj,
                                     &rules_obj, &outs[0], &outs[1], &outs[2], &outs[3],
                                     &outs[4], &outs[5], &outs[6], &outs[7], &outs[8], &obs[0],
                                     &obs[1], &obs[2], &views_obj, &history_obj, &probabilities,
                                     &as_float, &write_mask, &setups_obj, &final_views_obj, &autoreset_obj,
                                     &opponent_obj, &learner_obj, &obs[3], &obs[4], &obs_codes, &mask_bits,
                                     &full_codes))
        goto done;
    if (opponent_obj != NULL &&
        parse_int_in(opponent_obj, "opponent", -1, BOT_KIND_NB - 1, "-1 (none) or a bot kind", &opponent) < 0)
        goto done;
    if (learner_obj != NULL &&
        parse_int_in(learner_obj, "learner_mode", 0, LEARNER_MODE_NB - 1, NULL, &learner_mode) < 0)
        goto done;
    if (parse_num_threads(threads_obj, &threads) < 0 || rules_from_dict(rules_obj, &rules) < 0)
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
    if (self->batch.states != NULL || self->closed) {
        PyErr_SetString(PyExc_RuntimeError, "Batch.__init__ may be called only once");
        goto done;
    }
    if (n < 1 || n > BATCH_MAX_ENVS) {
        PyErr_Format(PyExc_ValueError, "num_envs must be in [1, %d], got %zd", BATCH_MAX_ENVS, n);
        goto done;
    }
    widths[OUT_MASK] = mask_bits ? MASK_BITS_BYTES(rules_num_actions(&rules)) : rules_num_actions(&rules);
    if (setup_table_parse(setups_obj, &rules, &table) < 0) goto done;
    for (int k = 0; k < OUT_NB; k++) {
        int type = k == OUT_MASK && mask_bits ? NPY_UINT8 : types[k];
        if (check_out_array(outs[k], OUT_NAMES[k], type, n, widths[k]) < 0) goto done;
    }
    if (final_views == 0) final_views = obs_views;
    if ((final_views > 0) != (obs_views > 0)) {
        PyErr_Format(PyExc_ValueError, "final_views must be 1 or 2 with observations (0: as "
                     "obs_views), 0 without; got %ld with obs_views %ld", final_views, obs_views);
        goto done;
    }
    if (obs_views > 0 && obs_codes) {
        /* (n, L) codes, or (n, 2, L); beliefs (n, [2,] 12, 10, 10) float32; final_obs and
         * final_belief with final_views views a game */
        npy_intp shape[3] = {n, 2, (npy_intp)CODES_BYTES(spec.history_k)};
        npy_intp one_view[2] = {n, shape[2]};
        npy_intp belief_shape[5] = {n, 2, PIECE_TYPE_NB, BOARD_SIZE, BOARD_SIZE};
        npy_intp one_belief[4] = {n, PIECE_TYPE_NB, BOARD_SIZE, BOARD_SIZE};
        if (check_array_shape(obs[0], "obs", NPY_UINT8, obs_views == 2 ? 3 : 2,
                              obs_views == 2 ? shape : one_view) < 0 ||
            check_array_shape(obs[1], "final_obs", NPY_UINT8, final_views == 2 ? 3 : 2,
                              final_views == 2 ? shape : one_view) < 0)
            goto done;
        if (probabilities &&
            (check_array_shape(obs[3], "belief", NPY_FLOAT32, obs_views == 2 ? 5 : 4,
                               obs_views == 2 ? belief_shape : one_belief) < 0 ||
             check_array_shape(obs[4], "final_belief", NPY_FLOAT32, final_views == 2 ? 5 : 4,
                               final_views == 2 ? belief_shape : one_belief) < 0))
            goto done;
    } else if (obs_views > 0) {
        /* (n, C, 10, 10), or (n, 2, C, 10, 10) for both players' views */
        npy_intp shape[5] = {n, 2, observe_channels(&spec), BOARD_SIZE, BOARD_SIZE};
        npy_intp one_view[4] = {n, observe_channels(&spec), BOARD_SIZE, BOARD_SIZE};
        int obs_type = as_float ? NPY_FLOAT32 : NPY_UINT8;
        if (check_array_shape(obs[0], "obs", obs_type, obs_views == 2 ? 5 : 4,
                              obs_views == 2 ? shape : one_view) < 0 ||
            check_array_shape(obs[1], "final_obs", obs_type, final_views == 2 ? 5 : 4,
                              final_views == 2 ? shape : one_view) < 0)
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
        npy_intp shape[4] = {n, FULL_OBS_CHANNELS, BOARD_SIZE, BOARD_SIZE};
        npy_intp code_shape[2] = {n, SQ_NB};
        if (full_codes ? check_array_shape(obs[2], "full_obs", NPY_UINT8, 2, code_shape) < 0
                       : check_array_shape(obs[2], "full_obs", NPY_UINT8, 4, shape) < 0)
            goto done;
    }
    states = malloc((size_t)n * sizeof(GameState));
    sample_rng = malloc((size_t)n * sizeof(uint64_t));
    versus = opponent >= 0 ? calloc((size_t)n, sizeof(VersusSlot)) : NULL;
    if (states == NULL || sample_rng == NULL || (opponent >= 0 && versus == NULL)) {
        PyErr_Format(PyExc_MemoryError, "cannot allocate %zd games", n);
        goto done;
    }
    self->batch.states = states;
    self->batch.sample_rng = sample_rng;
    self->batch.versus = versus;
    states = NULL;
    sample_rng = NULL;
    versus = NULL;
    self->batch.opponent = (int)opponent;
    self->batch.learner_mode = (int)learner_mode;
    self->batch.num_envs = (int)n;
    self->batch.rules = rules;
    self->batch.obs_spec = spec;
    self->batch.obs_views = (int)obs_views;
    self->batch.obs_codes = obs_codes;
    self->batch.full_codes = full_codes;
    self->batch.final_views = (int)final_views;
    self->batch.autoreset = (int)autoreset;
    self->batch.write_mask = write_mask;
    self->batch.mask_bits = mask_bits;
    self->batch.setups = table;
    if (setups_obj != Py_None) {
        Py_INCREF(setups_obj);
        self->setups = setups_obj;
    }
    /* The table is read with the GIL released: nothing may write it again. */
    if (setups_copy != NULL) PyArray_CLEARFLAGS((PyArrayObject *)setups_copy, NPY_ARRAY_WRITEABLE);
    for (int k = 0; k < OUT_NB; k++) {
        Py_INCREF(outs[k]);
        self->outputs[k] = outs[k];
    }
    for (int k = 0; k < OBS_ARRAY_NB; k++) {
        if (obs[k] == Py_None) continue;
        Py_INCREF(obs[k]);
        self->obs_arrays[k] = obs[k];
    }
    self->batch.mask = PyArray_DATA((PyArrayObject *)outs[OUT_MASK]);
    self->batch.rewards = PyArray_DATA((PyArrayObject *)outs[OUT_REWARDS]);
    self->batch.reward = PyArray_DATA((PyArrayObject *)outs[OUT_REWARD]);
    self->batch.terminated = PyArray_DATA((PyArrayObject *)outs[OUT_TERMINATED]);
    self->batch.truncated = PyArray_DATA((PyArrayObject *)outs[OUT_TRUNCATED]);
    self->batch.to_play = PyArray_DATA((PyArrayObject *)outs[OUT_TO_PLAY]);
    self->batch.final_winner = PyArray_DATA((PyArrayObject *)outs[OUT_FINAL_WINNER]);
    self->batch.final_reason = PyArray_DATA((PyArrayObject *)outs[OUT_FINAL_REASON]);
    self->batch.final_plies = PyArray_DATA((PyArrayObject *)outs[OUT_FINAL_PLIES]);
    self->batch.obs = self->obs_arrays[0] ? PyArray_DATA((PyArrayObject *)self->obs_arrays[0]) : NULL;
    self->batch.final_obs = self->obs_arrays[1] ? PyArray_DATA((PyArrayObject *)self->obs_arrays[1]) : NULL;
    self->batch.full_obs = self->obs_arrays[2] ? PyArray_DATA((PyArrayObject *)self->obs_arrays[2]) : NULL;
    self->batch.belief = self->obs_arrays[3] ? PyArray_DATA((PyArrayObject *)self->obs_arrays[3]) : NULL;
    self->batch.final_belief = self->obs_arrays[4] ? PyArray_DATA((PyArrayObject *)self->obs_arrays[4]) : NULL;
    self->num_threads = threads;
    /* Games start from seed 0 until reset() is called with another. */
    batch_reset(&self->batch, 0, threads);
    result = 0;
done:
    free(states);
    free(sample_rng);
    free(versus);
    Py_XDECREF(setups_copy);
    return result;
}

/* 0 if the batch may be read now: initialised, open, and not inside a call that released
 * the GIL (that call is changing the games). -1 with an exception otherwise. Called
 * after every argument is converted, since a conversion can close or step the batch. */
static int Batch_check_idle(BatchObject *self) {
    if (self->closed) {
        PyErr_SetString(PyExc_RuntimeError, "the environment is closed");
        return -1;
    }
    if (self->batch.states == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "this Batch was never initialised (make environments with stratego.VecEnv)");
        return -1;
    }
    if (self->busy && self->busy_thread == PyThread_get_thread_ident()) {
        PyErr_SetString(PyExc_RuntimeError,
                        "re-entrant call: this thread is already inside a call of this "
                        "environment (step, reset, sample_actions or load_state)");
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        "the environment is being used by another thread; step it from one "
                        "thread at a time");
        return -1;
    }
    return 0;
}

/* Guards a call that runs without the GIL. 0, or -1 with an exception. */
static int Batch_enter(BatchObject *self) {
    if (Batch_check_idle(self) < 0) return -1;
    self->busy = 1;
    self->busy_thread = PyThread_get_thread_ident();
    return 0;
}

/* 0 if every array the batch writes is still writeable: the caller owns them and may
 * have set writeable=False since __init__; then nothing is written and -1 is returned
 * with an exception naming the array. */
static int Batch_check_outputs(BatchObject *self) {
    for (int k = 0; k < OUT_NB + OBS_ARRAY_NB; k++) {
        PyObject *a = k < OUT_NB ? self->outputs[k] : self->obs_arrays[k - OUT_NB];
        if (a == NULL || PyArray_ISWRITEABLE((PyArrayObject *)a)) continue;
        PyErr_Format(PyExc_ValueError,
                     "%s was made read-only (writeable=False), but the environment writes it "
                     "in place at every reset and step; copy what you keep instead",
                     k == OUT_MASK ? "action_mask" : k < OUT_NB ? OUT_NAMES[k] : OBS_ARRAY_NAMES[k - OUT_NB]);
        return -1;
    }
    return 0;
}

static PyObject *Batch_reset(BatchObject *self, PyObject *seed_obj) {
    uint64_t seed;
    if (parse_seed(seed_obj, &seed) < 0) return NULL;
    if (Batch_check_idle(self) < 0 || Batch_check_outputs(self) < 0) return NULL;
    self->busy = 1;
    self->busy_thread = PyThread_get_thread_ident();
    Py_BEGIN_ALLOW_THREADS
    batch_reset(&self->batch, seed, self->num_threads);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    Py_RETURN_NONE;
}

/* reset_some(reset_mask, seed): starts anew the games where reset_mask (bool, shape
 * (num_envs,)) is True; seed None lets their streams go on, an int seeds them again. */
static PyObject *Batch_reset_some(BatchObject *self, PyObject *args) {
    PyObject *mask_obj, *seed_obj;
    uint64_t seed = 0;
    if (!PyArg_ParseTuple(args, "OO", &mask_obj, &seed_obj)) return NULL;
    int reseed = seed_obj != Py_None;
    if (reseed && parse_seed(seed_obj, &seed) < 0) return NULL;
    /* Converted: now the state, then the mask (checking it runs no Python code). */
    if (Batch_check_idle(self) < 0 || Batch_check_outputs(self) < 0) return NULL;
    if (check_array_shape(mask_obj, "reset_mask", NPY_BOOL, 1,
                          (npy_intp[1]){self->batch.num_envs}) < 0)
        return NULL;
    self->busy = 1;
    self->busy_thread = PyThread_get_thread_ident();
    const uint8_t *mask = PyArray_DATA((PyArrayObject *)mask_obj);
    Py_BEGIN_ALLOW_THREADS
    batch_reset_some(&self->batch, mask, reseed, seed, self->num_threads);
    Py_END_ALLOW_THREADS
    self->busy = 0;
    Py_RETURN_NONE;
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
    if (!PyArray_Check(actions_obj) || !PyArray_ISINTEGER((PyArrayObject *)actions_obj)) {
        PyErr_Format(PyExc_TypeError, "actions must be a numpy array of integers, got %s",
                     PyArray_Check(actions_obj) ? "a non-integer array"
                                                : Py_TYPE(actions_obj)->tp_name);
        goto done;
    }
    from_unsigned = PyArray_ISUNSIGNED((PyArrayObject *)actions_obj);
    /* Always a private int64 base-class copy (8 bytes a game), made before the batch is
     * checked: the actions are checked, the GIL is released, then they are played, and
     * neither the caller nor a subclass hook may change them in between. */
    actions = (PyArrayObject *)PyArray_FROMANY(actions_obj, NPY_INT64, 0, 0,
                                               NPY_ARRAY_IN_ARRAY | NPY_ARRAY_FORCECAST |
                                                   NPY_ARRAY_ENSURECOPY | NPY_ARRAY_ENSUREARRAY);
    if (actions == NULL) goto done;
    /* Converted: now the batch's state, then the values. */
    if (Batch_check_idle(self) < 0 || Batch_check_outputs(self) < 0) goto done;
    if (PyArray_NDIM(actions) != 1 || PyArray_DIM(actions, 0) != self->batch.num_envs) {
        PyErr_Format(PyExc_ValueError, "actions must have shape (%d,), one per game; got ndim %d "
                     "with %zd entries", self->batch.num_envs, PyArray_NDIM(actions),
                     (Py_ssize_t)PyArray_SIZE(actions));
        goto done;
    }
    const int64_t *a = PyArray_DATA(actions);
    int64_t bad = batch_find_out_of_range(&self->batch, a);
    if (bad >= 0) {
        /* An unsigned array's values past INT64_MAX wrapped in the cast: show them as given. */
        if (from_unsigned) {
            PyErr_Format(PyExc_ValueError, "action %llu of game %lld is out of range [0, %d)",
                         (unsigned long long)a[bad], (long long)bad, rules_num_actions(&self->batch.rules));
        } else {
            PyErr_Format(PyExc_ValueError, "action %lld of game %lld is out of range [0, %d)",
                         (long long)a[bad], (long long)bad, rules_num_actions(&self->batch.rules));
        }
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
    Py_BEGIN_ALLOW_THREADS
    batch_step(&self->batch, a, (int)mode, self->num_threads);
    Py_END_ALLOW_THREADS
    result = Py_None;
    Py_INCREF(result);
done:
    if (entered) self->busy = 0;
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
    self->busy = 0;
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
    self->busy = 0;
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
    if (Batch_check_idle(self) < 0) return NULL;
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
    if (Batch_check_outputs(self) < 0 || Batch_enter(self) < 0) return NULL;
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
    self->busy = 0;
    if (bad) {
        PyErr_Format(PyExc_ValueError, "cannot load this saved state: %s", err);
        return NULL;
    }
    Py_RETURN_NONE;
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

static PyObject *Batch_close(BatchObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError,
                        self->busy_thread == PyThread_get_thread_ident()
                            ? "cannot close from inside a call of this environment (re-entrant close)"
                            : "cannot close while another thread steps");
        return NULL;
    }
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
    if (parse_num_threads(value, &threads) < 0) return -1;
    self->num_threads = threads;
    return 0;
}

static PyObject *Batch_get_closed(BatchObject *self, void *closure) {
    STRATEGO_UNUSED(closure);
    return PyBool_FromLong(self->closed);
}

static PyGetSetDef Batch_getset[] = {
    {"num_threads", (getter)Batch_get_num_threads, (setter)Batch_set_num_threads,
     "Threads (the engine's pool, csrc/pool.h) used by reset, step, sample_actions and bot_actions.", NULL},
    {"closed", (getter)Batch_get_closed, NULL, "Whether close() was called.", NULL},
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
    {"bot_actions", (PyCFunction)Batch_bot_actions, METH_VARARGS,
     "bot_actions(name, out): the action bot `name` plays in each game, into out."},
    {"stats", (PyCFunction)Batch_stats, METH_NOARGS, "Counters of finished games since reset."},
    {"game", (PyCFunction)Batch_game, METH_O, "game(i): a GameState copy of game i."},
    {"save", (PyCFunction)Batch_save, METH_NOARGS, "Every game, random stream and counter as bytes."},
    {"restore", (PyCFunction)Batch_restore, METH_O, "restore(data): the batch as save() left it."},
    {"close", (PyCFunction)Batch_close, METH_NOARGS, "Frees the games; a second close is safe."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject BatchType = {
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

/* ------------------------------------------------------------------ module */

static PyObject *core_action_encode(PyObject *mod, PyObject *args) {
    STRATEGO_UNUSED(mod);
    PyObject *p_obj, *f_obj, *t_obj;
    int player, from, to;
    if (!PyArg_ParseTuple(args, "OOO", &p_obj, &f_obj, &t_obj)) return NULL;
    if (parse_player(p_obj, "player", &player) < 0 || parse_square(f_obj, "from", &from) < 0 ||
        parse_square(t_obj, "to", &to) < 0)
        return NULL;
    return PyLong_FromLong(action_encode(player, from, to));
}

static PyObject *core_action_encode_rescue(PyObject *mod, PyObject *args) {
    STRATEGO_UNUSED(mod);
    PyObject *p_obj, *t_obj, *sq_obj;
    int player, sq;
    if (!PyArg_ParseTuple(args, "OOO", &p_obj, &t_obj, &sq_obj)) return NULL;
    if (parse_player(p_obj, "player", &player) < 0 || parse_square(sq_obj, "square", &sq) < 0) return NULL;
    long type;
    if (parse_int_in(t_obj, "piece type", 0, PIECE_TYPE_NB - 1, NULL, &type) < 0) return NULL;
    return PyLong_FromLong(action_encode_rescue(player, (int)type, sq));
}

/* action_decode(player, action) -> ("move", from, to) | ("rescue", type, square) |
 * ("decline", 0, 0), absolute squares. */
static PyObject *core_action_decode(PyObject *mod, PyObject *args) {
    STRATEGO_UNUSED(mod);
    static const char *const KINDS[] = {"move", "rescue", "decline"};
    PyObject *p_obj, *a_obj;
    int player, action, a, b;
    if (!PyArg_ParseTuple(args, "OO", &p_obj, &a_obj)) return NULL;
    if (parse_player(p_obj, "player", &player) < 0 || parse_action(a_obj, &action) < 0) return NULL;
    ActionKind kind = action_decode(player, action, &a, &b);
    return Py_BuildValue("(sii)", KINDS[kind], a, b);
}

/* num_actions(rules) -> size of the variant's action space */
static PyObject *core_num_actions(PyObject *mod, PyObject *rules_obj) {
    STRATEGO_UNUSED(mod);
    Rules rules;
    if (rules_from_dict(rules_obj, &rules) < 0) return NULL;
    return PyLong_FromLong(rules_num_actions(&rules));
}

/* Channel names, one row of NAME_LEN bytes each; at most NAMES_MAX of them. */
enum { NAME_LEN = 64, NAMES_MAX = OBS_HISTORY + 3 * HISTORY_NB + 3 * PIECE_TYPE_NB + 2 };
_Static_assert(FULL_OBS_CHANNELS <= NAMES_MAX, "the full view's names fit");

/* A tuple of the first n names. */
static PyObject *names_tuple(char (*names)[NAME_LEN], int n) {
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) return NULL;
    for (int c = 0; c < n; c++) {
        PyObject *name = PyUnicode_FromString(names[c]);
        if (name == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, c, name);
    }
    return tuple;
}

/* channel_names(history_k, probabilities) -> tuple of the partial view's channel names */
static PyObject *core_channel_names(PyObject *mod, PyObject *args) {
    STRATEGO_UNUSED(mod);
    PyObject *history_obj;
    int probabilities;
    long history_k;
    ObsSpec spec;
    Rules rules;
    char names[NAMES_MAX][NAME_LEN];
    if (!PyArg_ParseTuple(args, "Op", &history_obj, &probabilities)) return NULL;
    if (parse_history_k(history_obj, &history_k) < 0) return NULL;
    rules_default(&rules);
    if (obs_spec_parse(history_k, probabilities, 1, 0, &rules, &spec) < 0) return NULL;
    int c_nb = observe_channels(&spec);
    for (int c = 0; c < c_nb; c++) observe_channel_name(&spec, c, names[c], NAME_LEN);
    return names_tuple(names, c_nb);
}

/* full_channel_names() -> names of the full-information view's channels */
static PyObject *core_full_channel_names(PyObject *mod, PyObject *unused) {
    STRATEGO_UNUSED(mod);
    STRATEGO_UNUSED(unused);
    char names[NAMES_MAX][NAME_LEN];
    for (int c = 0; c < FULL_OBS_CHANNELS; c++) observe_full_channel_name(c, names[c], NAME_LEN);
    return names_tuple(names, FULL_OBS_CHANNELS);
}

/* A copy of a C code table (rows x cols bytes) as a read-only (rows, cols) uint8 array. */
static PyObject *table_array(const uint8_t *table, npy_intp rows, npy_intp cols) {
    npy_intp dims[2] = {rows, cols};
    PyObject *arr = PyArray_SimpleNew(2, dims, NPY_UINT8);
    if (arr == NULL) return NULL;
    memcpy(PyArray_DATA((PyArrayObject *)arr), table, (size_t)(rows * cols));
    PyArray_CLEARFLAGS((PyArrayObject *)arr, NPY_ARRAY_WRITEABLE);
    return arr;
}

/* codes_table() -> (CODE_NB, board channels) uint8: the planes of each square code. */
static PyObject *core_codes_table(PyObject *mod, PyObject *unused) {
    STRATEGO_UNUSED(mod);
    STRATEGO_UNUSED(unused);
    return table_array(observe_codes_table(), CODE_NB, OBS_HISTORY);
}

/* full_codes_table() -> (FULL_CODE_NB, 30) uint8: the full view's planes of each code. */
static PyObject *core_full_codes_table(PyObject *mod, PyObject *unused) {
    STRATEGO_UNUSED(mod);
    STRATEGO_UNUSED(unused);
    return table_array(observe_full_codes_table(), FULL_CODE_NB, FULL_OBS_CHANNELS);
}

static PyObject *core_pool_workers(PyObject *mod, PyObject *unused) {
    STRATEGO_UNUSED(mod);
    STRATEGO_UNUSED(unused);
    return PyLong_FromLong(pool_workers());
}

static PyMethodDef core_methods[] = {
    {"full_channel_names", core_full_channel_names, METH_NOARGS,
     "full_channel_names() -> names of the full-information view's channels."},
    {"channel_names", core_channel_names, METH_VARARGS,
     "channel_names(history_k, probabilities) -> names of the observation channels."},
    {"action_encode", core_action_encode, METH_VARARGS,
     "action_encode(player, from, to) -> action, or -1 if not on a common line."},
    {"action_decode", core_action_decode, METH_VARARGS,
     "action_decode(player, action) -> (kind, a, b): ('move', from, to), ('rescue', type, square), ('decline', 0, 0)."},
    {"action_encode_rescue", core_action_encode_rescue, METH_VARARGS,
     "action_encode_rescue(player, type, square) -> action, or -1 if the square is not in the player's half."},
    {"num_actions", core_num_actions, METH_O, "num_actions(rules) -> size of the variant's action space."},
    {"codes_table", core_codes_table, METH_NOARGS,
     "codes_table() -> (CODE_NB, board channels) uint8: the board planes of each square code."},
    {"full_codes_table", core_full_codes_table, METH_NOARGS,
     "full_codes_table() -> (FULL_CODE_NB, 30) uint8: the full view's planes of each square code."},
    {"pool_workers", core_pool_workers, METH_NOARGS,
     "pool_workers() -> worker threads started in this process (0 in a fresh fork()ed child)."},
    {NULL, NULL, 0, NULL},
};

static int core_exec(PyObject *m) {
    PyObject *names = NULL;
    int result = -1;
    if (PyArray_ImportNumPyAPI() < 0) goto done;
    stratego_init();
    if (PyType_Ready(&GameStateType) < 0 || PyType_Ready(&BatchType) < 0) goto done;
    if (PyModule_AddType(m, &GameStateType) < 0 || PyModule_AddType(m, &BatchType) < 0) goto done;
    names = PyTuple_New(END_REASON_NB);
    if (names == NULL) goto done;
    for (int k = 0; k < END_REASON_NB; k++) {
        PyObject *s = PyUnicode_FromString(k == 0 ? "none" : END_REASON_NAMES[k]);
        if (s == NULL) goto done;
        PyTuple_SET_ITEM(names, k, s);
    }
    if (PyModule_AddObjectRef(m, "END_REASONS", names) < 0) goto done;
    Py_CLEAR(names);
    names = PyTuple_New(BOT_KIND_NB);
    if (names == NULL) goto done;
    for (int k = 0; k < BOT_KIND_NB; k++) {
        PyObject *s = PyUnicode_FromString(bot_name(k));
        if (s == NULL) goto done;
        PyTuple_SET_ITEM(names, k, s);
    }
    if (PyModule_AddObjectRef(m, "BOT_NAMES", names) < 0) goto done;
    if (PyModule_AddIntConstant(m, "LINE_ACTION_NB", LINE_ACTION_NB) < 0 ||
        PyModule_AddIntConstant(m, "ACTION_MAX", ACTION_MAX) < 0 ||
        PyModule_AddIntConstant(m, "DIAG_ACTION_BASE", DIAG_ACTION_BASE) < 0 ||
        PyModule_AddIntConstant(m, "RESCUE_ACTION_BASE", RESCUE_ACTION_BASE) < 0 ||
        PyModule_AddIntConstant(m, "RESCUE_DECLINE", RESCUE_DECLINE) < 0 ||
        PyModule_AddIntConstant(m, "SQ_NB", SQ_NB) < 0 ||
        PyModule_AddIntConstant(m, "MAX_ENVS", BATCH_MAX_ENVS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_THREADS", BATCH_MAX_THREADS) < 0 ||
        PyModule_AddIntConstant(m, "SAVE_VERSION", SAVE_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "SAVE_HEADER_BYTES", (long)sizeof(SaveHeader)) < 0 ||
        PyModule_AddIntConstant(m, "STATE_BYTES", (long)sizeof(GameState)) < 0 ||
        PyModule_AddIntConstant(m, "OBSERVATION_VERSION", OBSERVATION_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "FULL_OBS_CHANNELS", FULL_OBS_CHANNELS) < 0 ||
        PyModule_AddIntConstant(m, "CODE_NB", CODE_NB) < 0 ||
        PyModule_AddIntConstant(m, "FULL_CODE_NB", FULL_CODE_NB) < 0 ||
        PyModule_AddIntConstant(m, "CODES_COUNTS", CODES_COUNTS) < 0 ||
        PyModule_AddIntConstant(m, "CODES_PROGRESS", CODES_PROGRESS) < 0 ||
        PyModule_AddIntConstant(m, "CODES_HISTORY", CODES_HISTORY) < 0 ||
        PyModule_AddIntConstant(m, "CODES_NO_MOVE", CODES_NO_MOVE) < 0 ||
        PyModule_AddIntConstant(m, "OBS_BOARD_CHANNELS", OBS_HISTORY) < 0 ||
        PyModule_AddIntConstant(m, "HISTORY_NB", HISTORY_NB) < 0 ||
        PyModule_AddIntConstant(m, "VIEW_OWN", VIEW_OWN) < 0 ||
        PyModule_AddIntConstant(m, "VIEW_OPP_KNOWN", VIEW_OPP_KNOWN) < 0 ||
        PyModule_AddIntConstant(m, "VIEW_OPP_UNKNOWN", VIEW_OPP_UNKNOWN) < 0 ||
        PyModule_AddIntConstant(m, "VIEW_LAKE", VIEW_LAKE) < 0 ||
        PyModule_AddIntConstant(m, "ILLEGAL_RAISE", ILLEGAL_RAISE) < 0 ||
        PyModule_AddIntConstant(m, "ILLEGAL_LOSES", ILLEGAL_LOSES) < 0 ||
        PyModule_AddIntConstant(m, "AUTORESET_SAME_STEP", AUTORESET_SAME_STEP) < 0 ||
        PyModule_AddIntConstant(m, "AUTORESET_NEXT_STEP", AUTORESET_NEXT_STEP) < 0 ||
        PyModule_AddIntConstant(m, "AUTORESET_DISABLED", AUTORESET_DISABLED) < 0)
        goto done;
    result = 0;
done:
    Py_XDECREF(names);
    return result;
}

static PyModuleDef_Slot core_slots[] = {
    {Py_mod_exec, core_exec},
    {0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "stratego._core",
    .m_doc = "C core of the stratego package: rules, batch stepping.",
    .m_size = 0,
    .m_methods = core_methods,
    .m_slots = core_slots,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModuleDef_Init(&core_module); }
