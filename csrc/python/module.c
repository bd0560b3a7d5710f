/* module.c: the module `stratego._core`: its functions, constants and types. */
#include "binding.h"

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
#include "stratego/save.h"
#include "stratego/view.h"

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

/* record_capacity_bound(rules) -> the most actions a game of these rules can have, 0 if
 * they have no bound (record.h) */
static PyObject *core_record_capacity_bound(PyObject *mod, PyObject *rules_obj) {
    STRATEGO_UNUSED(mod);
    Rules rules;
    if (rules_from_dict(rules_obj, &rules) < 0) return NULL;
    return PyLong_FromUnsignedLong(record_capacity_bound(&rules));
}

/* setup_zone(rules, player) -> the board squares of player's setup zone, increasing:
 * the squares rules_in_setup_zone() names in the player's frame (rules.h), so that Python
 * (the OpenSpiel game's chance nodes) reads the zone instead of deriving it. */
static PyObject *core_setup_zone(PyObject *mod, PyObject *args) {
    STRATEGO_UNUSED(mod);
    PyObject *rules_obj = NULL, *player_obj = NULL, *list = NULL, *result = NULL;
    Rules rules;
    int player;
    if (!PyArg_ParseTuple(args, "OO", &rules_obj, &player_obj)) goto done;
    if (rules_from_dict(rules_obj, &rules) < 0 || parse_player(player_obj, "player", &player) < 0) goto done;
    list = PyList_New(0);
    if (list == NULL) goto done;
    for (int sq = 0; sq < SQ_NB; sq++) {
        if (!rules_in_setup_zone(&rules, sq_to_frame(sq, player))) continue;
        PyObject *item = PyLong_FromLong(sq);
        int failed = item == NULL || PyList_Append(list, item) < 0;
        Py_XDECREF(item);
        if (failed) goto done;
    }
    result = PyList_AsTuple(list);
done:
    Py_XDECREF(list);
    return result;
}

/* check_field(field) -> None, or ValueError with board_from_field's message naming the
 * first bad square: a Gravon field's letters and lakes as the engine reads them (records
 * check theirs here rather than keep a second alphabet). */
static PyObject *core_check_field(PyObject *mod, PyObject *field_obj) {
    STRATEGO_UNUSED(mod);
    GameState scratch;
    char err[200];
    const char *field;
    Py_ssize_t len;
    if (parse_field(field_obj, "", &field, &len) < 0) return NULL;
    if (board_from_field(&scratch, field, (size_t)len, err, sizeof(err)) < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* record_game_bytes(capacity) -> the memory a recording batch holds a game */
static PyObject *core_record_game_bytes(PyObject *mod, PyObject *capacity_obj) {
    STRATEGO_UNUSED(mod);
    long capacity;
    if (parse_int_in(capacity_obj, "record_plies", RECORD_CAPACITY_MIN, RECORD_CAPACITY_MAX, NULL, &capacity) < 0)
        return NULL;
    return PyLong_FromSize_t(record_game_bytes((uint32_t)capacity));
}

/* Channel names, one row of NAME_LEN bytes each; at most NAMES_MAX of them. */
enum { NAME_LEN = 64, NAMES_MAX = OBS_HISTORY + 3 * HISTORY_NB + 4 * PIECE_TYPE_NB + 3 };
_Static_assert((int)FULL_OBS_CHANNELS <= (int)NAMES_MAX, "the full view's names fit");

/* A tuple of the first n names. */
static PyObject *names_tuple(char (*names)[NAME_LEN], int n) {
    PyObject *tuple = NULL, *result = NULL;
    tuple = PyTuple_New(n);
    if (tuple == NULL) goto done;
    for (int c = 0; c < n; c++) {
        PyObject *name = PyUnicode_FromString(names[c]);
        if (name == NULL) goto done;
        PyTuple_SET_ITEM(tuple, c, name);
    }
    result = tuple;
    tuple = NULL;
done:
    Py_XDECREF(tuple);
    return result;
}

/* channel_names(history_k, probabilities, as_float=True, codes=False, deploy=False) -> tuple of the
 * partial view's channel names, after the one check of these observation settings
 * (obs_spec_parse), which Game and VecEnv ask before they allocate anything. */
static PyObject *core_channel_names(PyObject *mod, PyObject *args) {
    STRATEGO_UNUSED(mod);
    PyObject *history_obj;
    int probabilities, as_float = 1, codes = 0, deploy = 0;
    long history_k;
    ObsSpec spec;
    Rules rules;
    char names[NAMES_MAX][NAME_LEN];
    if (!PyArg_ParseTuple(args, "Op|ppp", &history_obj, &probabilities, &as_float, &codes, &deploy)) return NULL;
    if (parse_history_k(history_obj, &history_k) < 0) return NULL;
    rules_default(&rules);
    rules.deploy = (uint8_t)deploy; /* the deployment planes (setup="agent") */
    if (obs_spec_parse(history_k, probabilities, as_float, codes, &rules, &spec) < 0) return NULL;
    int c_nb = observe_channels(&spec);
    for (int c = 0; c < c_nb; c++) observe_channel_name(&spec, c, names[c], NAME_LEN);
    return names_tuple(names, c_nb);
}

/* A shape of C int64s as a tuple of ints. */
static PyObject *shape_tuple(const int64_t *dims, int ndim) {
    PyObject *tuple = PyTuple_New(ndim);
    if (tuple == NULL) return NULL;
    for (int k = 0; k < ndim; k++) {
        PyObject *d = PyLong_FromLongLong(dims[k]);
        if (d == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, k, d);
    }
    return tuple;
}

/* observation_shape(history_k, probabilities, codes, belief_block=False, deploy=False) -> the shape of one
 * observation as its spec gives it (observe_player.h): (C, 10, 10) planes or (L,) codes;
 * belief_block: the belief planes beside the codes instead. */
static PyObject *core_observation_shape(PyObject *mod, PyObject *args) {
    STRATEGO_UNUSED(mod);
    PyObject *history_obj;
    int probabilities, codes, belief_block = 0, deploy = 0;
    long history_k;
    ObsSpec spec;
    Rules rules;
    int64_t dims[OBS_DIMS_MAX];
    if (!PyArg_ParseTuple(args, "Opp|pp", &history_obj, &probabilities, &codes, &belief_block, &deploy)) return NULL;
    if (parse_history_k(history_obj, &history_k) < 0) return NULL;
    rules_default(&rules);
    rules.deploy = (uint8_t)deploy;
    /* Planes with beliefs are float32; the dtype does not change the shape. */
    if (obs_spec_parse(history_k, probabilities, !codes, codes, &rules, &spec) < 0) return NULL;
    if (belief_block) return shape_tuple(dims, observe_belief_shape(dims));
    return shape_tuple(dims, observe_spec_shape(&spec, dims));
}

/* full_observation_shape(codes) -> (30, 10, 10), or (100,) with codes. */
static PyObject *core_full_observation_shape(PyObject *mod, PyObject *codes_obj) {
    STRATEGO_UNUSED(mod);
    int codes = PyObject_IsTrue(codes_obj);
    if (codes < 0) return NULL;
    int64_t dims[OBS_DIMS_MAX];
    return shape_tuple(dims, observe_full_shape(codes, dims));
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

static PyObject *core_pool_max_threads(PyObject *mod, PyObject *unused) {
    STRATEGO_UNUSED(mod);
    STRATEGO_UNUSED(unused);
    return PyLong_FromLong(pool_max_threads());
}

/* pool_loops() -> {"parallel": loops run with helpers, "alone": loops run on the caller
 * alone because the helpers had not paid (pool.h)}: how often the pool gave them up. */
static PyObject *core_pool_loops(PyObject *mod, PyObject *unused) {
    STRATEGO_UNUSED(mod);
    STRATEGO_UNUSED(unused);
    int64_t parallel, alone;
    pool_loops(&parallel, &alone);
    return Py_BuildValue("{sLsL}", "parallel", (long long)parallel, "alone", (long long)alone);
}

/* RULE_SETTINGS: a tuple of (name, C type, min, max, default, moves, doc), one per setting
 * of rules.h in its order (moves: the `moves` column, "board", "forbid" or "add");
 * stratego.variants reads it instead of a table of its own. */
static PyObject *rule_settings_tuple(void) {
    PyObject *all = PyTuple_New(RULE_SETTING_NB);
    if (all == NULL) return NULL;
    for (int k = 0; k < RULE_SETTING_NB; k++) {
        const RuleSetting *rs = &RULE_SETTING_TABLE[k];
        PyObject *row = Py_BuildValue("(sslllss)", rs->name, rs->type, rs->min, rs->max, rs->def,
                                      RULE_MOVES_NAMES[rs->moves], rs->doc);
        if (row == NULL) {
            Py_DECREF(all);
            return NULL;
        }
        PyTuple_SET_ITEM(all, k, row);
    }
    return all;
}

/* A tuple of n C strings. */
static PyObject *strings_tuple(const char *const *strings, int n) {
    PyObject *tuple = PyTuple_New(n);
    if (tuple == NULL) return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *s = PyUnicode_FromString(strings[k]);
        if (s == NULL) {
            Py_DECREF(tuple);
            return NULL;
        }
        PyTuple_SET_ITEM(tuple, k, s);
    }
    return tuple;
}

/* The lake squares (types.h), in increasing order. */
static PyObject *lake_squares_tuple(void) {
#define MODULE_LAKE_ITEM(sq) "i"
#define MODULE_LAKE_ARG(sq) , sq
    return Py_BuildValue("(" LAKE_SQUARES(MODULE_LAKE_ITEM) ")" LAKE_SQUARES(MODULE_LAKE_ARG));
#undef MODULE_LAKE_ITEM
#undef MODULE_LAKE_ARG
}

/* Names of the learner's colour modes (batch.h, LEARNER_*), index = mode. */
static const char *const LEARNER_MODE_NAMES[LEARNER_MODE_NB] = {
    [LEARNER_RED] = "red", [LEARNER_BLUE] = "blue", [LEARNER_RANDOM] = "random",
    [LEARNER_ALTERNATE] = "alternate",
};

/* check_num_envs(n) -> n as an int, checked as a Batch checks it (before VecEnv
 * allocates anything for that many games). */
static PyObject *core_check_num_envs(PyObject *mod, PyObject *obj) {
    STRATEGO_UNUSED(mod);
    long n;
    if (parse_num_envs(obj, &n) < 0) return NULL;
    return PyLong_FromLong(n);
}

/* check_seed(seed) -> seed as an int, by the rule every seed of both games follows
 * (parse_seed): stratego.common.seeding asks it, so Python holds no copy of the rule. */
static PyObject *core_check_seed(PyObject *mod, PyObject *obj) {
    STRATEGO_UNUSED(mod);
    uint64_t seed;
    if (parse_seed(obj, &seed) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(seed);
}

/* Adds a new reference `value` (NULL: an error is set) as `name`. 0 or -1. */
static int add_new(PyObject *m, const char *name, PyObject *value) {
    if (value == NULL) return -1;
    int result = PyModule_AddObjectRef(m, name, value);
    Py_DECREF(value);
    return result;
}

static PyMethodDef core_methods[] = {
    {"full_channel_names", core_full_channel_names, METH_NOARGS,
     "full_channel_names() -> names of the full-information view's channels."},
    {"channel_names", core_channel_names, METH_VARARGS,
     "channel_names(history_k, probabilities, as_float=True, codes=False, deploy=False) -> names of the observation channels; "
     "ValueError for settings that do not go together."},
    {"observation_shape", core_observation_shape, METH_VARARGS,
     "observation_shape(history_k, probabilities, codes, belief_block=False) -> shape of one observation "
     "(or of its belief block beside the codes)."},
    {"full_observation_shape", core_full_observation_shape, METH_O,
     "full_observation_shape(codes) -> shape of one full-information view."},
    {"action_encode", core_action_encode, METH_VARARGS,
     "action_encode(player, from, to) -> action, or -1 if not on a common line."},
    {"action_decode", core_action_decode, METH_VARARGS,
     "action_decode(player, action) -> (kind, a, b): ('move', from, to), ('rescue', type, square), ('decline', 0, 0)."},
    {"action_encode_rescue", core_action_encode_rescue, METH_VARARGS,
     "action_encode_rescue(player, type, square) -> action, or -1 if the square is not in the player's half."},
    {"num_actions", core_num_actions, METH_O, "num_actions(rules) -> size of the variant's action space."},
    {"record_capacity_bound", core_record_capacity_bound, METH_O,
     "record_capacity_bound(rules) -> the most actions a game can have (its record's exact bound), 0: none."},
    {"setup_zone", core_setup_zone, METH_VARARGS,
     "setup_zone(rules, player) -> the board squares of player's setup zone, in increasing order."},
    {"check_field", core_check_field, METH_O,
     "check_field(field) -> None; ValueError naming the first bad square of a Gravon field (letters, lakes)."},
    {"record_game_bytes", core_record_game_bytes, METH_O,
     "record_game_bytes(capacity) -> bytes a recording batch holds a game."},
    {"codes_table", core_codes_table, METH_NOARGS,
     "codes_table() -> (CODE_NB, board channels) uint8: the board planes of each square code."},
    {"full_codes_table", core_full_codes_table, METH_NOARGS,
     "full_codes_table() -> (FULL_CODE_NB, 30) uint8: the full view's planes of each square code."},
    {"check_seed", core_check_seed, METH_O,
     "check_seed(seed) -> seed: TypeError if not an int, ValueError outside [0, 2**64)."},
    {"check_num_envs", core_check_num_envs, METH_O,
     "check_num_envs(n) -> n: TypeError if not an int, ValueError outside [1, MAX_ENVS]."},
    {"pool_workers", core_pool_workers, METH_NOARGS,
     "pool_workers() -> worker threads running in this process (0 in a fresh fork()ed child; idle ones "
     "exit after STRATEGO_POOL_IDLE_MS, csrc/engine/pool.h)."},
    {"pool_max_threads", core_pool_max_threads, METH_NOARGS,
     "pool_max_threads() -> the most threads a loop runs on (POOL_THREADS_PER_CPU x the CPUs of this "
     "process's affinity, csrc/engine/pool.h); a larger num_threads is cut to it."},
    {"pool_loops", core_pool_loops, METH_NOARGS,
     "pool_loops() -> {'parallel': loops run with helper threads, 'alone': loops run on the caller alone "
     "because the helpers had not paid}."},
    {NULL, NULL, 0, NULL},
};

static int core_exec(PyObject *m) {
    int result = -1;
    if (vec_binding_import_numpy() < 0) goto done;
    stratego_init();
    if (PyType_Ready(&GameStateType) < 0 || PyModule_AddType(m, &GameStateType) < 0) goto done;
    if (batch_binding_add(m) < 0) goto done;
    /* The castle game (csrc/castle/, castle_game.c): its CastleGame type, tables and names. */
    if (castle_binding_add(m) < 0) goto done;
    if (castle_batch_binding_add(m) < 0) goto done;
    if (add_new(m, "END_REASONS", strings_tuple(END_REASON_NAMES, END_REASON_NB)) < 0 ||
        add_new(m, "LEARNER_COLORS", strings_tuple(LEARNER_MODE_NAMES, LEARNER_MODE_NB)) < 0 ||
        add_new(m, "LAKE_SQUARES", lake_squares_tuple()) < 0 ||
        add_names(m, "BOT_NAMES", bot_name, BOT_KIND_NB) < 0 ||
        /* Why an action is illegal, index = IllegalReason (moves_check.h; 0: legal). */
        add_names(m, "ILLEGAL_REASONS", moves_illegal_reason, ILLEGAL_REASON_NB) < 0 ||
        add_new(m, "RULE_SETTINGS", rule_settings_tuple()) < 0 ||
        add_new(m, "PIECE_NAMES", strings_tuple(PIECE_TYPE_NAMES, PIECE_TYPE_NB)) < 0)
        goto done;
    if (PyModule_AddIntConstant(m, "LINE_ACTION_NB", LINE_ACTION_NB) < 0 ||
        PyModule_AddIntConstant(m, "ACTION_MAX", ACTION_MAX) < 0 ||
        PyModule_AddIntConstant(m, "DIAG_ACTION_BASE", DIAG_ACTION_BASE) < 0 ||
        PyModule_AddIntConstant(m, "RESCUE_ACTION_BASE", RESCUE_ACTION_BASE) < 0 ||
        PyModule_AddIntConstant(m, "RESCUE_DECLINE", RESCUE_DECLINE) < 0 ||
        PyModule_AddIntConstant(m, "SQ_NB", SQ_NB) < 0 ||
        PyModule_AddIntConstant(m, "MAX_PIECES", MAX_PIECES) < 0 ||
        PyModule_AddIntConstant(m, "MAX_ENVS", BATCH_MAX_ENVS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_THREADS", BATCH_MAX_THREADS) < 0 ||
        PyModule_AddIntConstant(m, "MAX_GAME_OFFSET", (long)BATCH_MAX_GAME_OFFSET) < 0 ||
        PyModule_AddIntConstant(m, "SAVE_VERSION", SAVE_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "SAVE_HEADER_BYTES", (long)sizeof(SaveHeader)) < 0 ||
        PyModule_AddIntConstant(m, "STATE_BYTES", (long)sizeof(GameState)) < 0 ||
        PyModule_AddIntConstant(m, "GAME_SAVE_BYTES", (long)save_game_bytes()) < 0 ||
        PyModule_AddIntConstant(m, "SAMPLE_WORLDS_MAX", SAMPLE_WORLDS_MAX) < 0 ||
        PyModule_AddIntConstant(m, "RECORD_CAPACITY_MIN", RECORD_CAPACITY_MIN) < 0 ||
        PyModule_AddIntConstant(m, "RECORD_CAPACITY_MAX", RECORD_CAPACITY_MAX) < 0 ||
        PyModule_AddIntConstant(m, "RECORD_ENTRY_BYTES", (long)sizeof(RecordEntry)) < 0 ||
        PyModule_AddIntConstant(m, "CELLS_EMPTY", CELLS_EMPTY) < 0 ||
        PyModule_AddIntConstant(m, "CELLS_LAKE", CELLS_LAKE) < 0 ||
        PyModule_AddIntConstant(m, "PIECE_MOVED", PIECE_MOVED) < 0 ||
        PyModule_AddIntConstant(m, "VIEW_EMPTY", VIEW_EMPTY) < 0 ||
        PyModule_AddIntConstant(m, "VIEW_TYPE_MASK", VIEW_TYPE_MASK) < 0 ||
        PyModule_AddIntConstant(m, "OBSERVATION_VERSION", OBSERVATION_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "FULL_OBS_CHANNELS", FULL_OBS_CHANNELS) < 0 ||
        PyModule_AddIntConstant(m, "CODE_NB", CODE_NB) < 0 ||
        PyModule_AddIntConstant(m, "FULL_CODE_NB", FULL_CODE_NB) < 0 ||
        PyModule_AddIntConstant(m, "CODES_COUNTS", CODES_COUNTS) < 0 ||
        PyModule_AddIntConstant(m, "CODES_PROGRESS", CODES_PROGRESS) < 0 ||
        PyModule_AddIntConstant(m, "CODES_HISTORY", CODES_HISTORY) < 0 ||
        PyModule_AddIntConstant(m, "CODES_NO_MOVE", CODES_NO_MOVE) < 0 ||
        PyModule_AddIntConstant(m, "CODES_DEPLOY_NB", CODES_DEPLOY_NB) < 0 ||
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
