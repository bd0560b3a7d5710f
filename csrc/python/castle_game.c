/* castle_game.c: _core.CastleGame, one game of the castle game (csrc/castle/), and the
 * module's castle tables (settings, geometry, names). stratego.castle.Game wraps it.
 * It converts and checks; every rule is the core's.
 */
#include "binding.h"

#include <string.h>

#include "castle/castle_bot.h"
#include "castle/castle.h"
#include "castle_binding.h"
#include "castle/castle_view.h"
#include "engine/rng.h"

typedef struct {
    PyObject_HEAD
    CastleState state;
    CastleSettings settings;
    int ready;
} CastleGameObject;

static PyTypeObject CastleGameType;

/* Settings from a tuple of ints in CASTLE_SETTINGS order; 0, or -1 with ValueError /
 * TypeError naming the setting. */
static int settings_from_tuple(PyObject *obj, CastleSettings *cfg) {
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != CASTLE_SETTING_NB) {
        PyErr_Format(PyExc_TypeError, "settings must be a tuple of %d ints (CASTLE_SETTINGS order)", CASTLE_SETTING_NB);
        return -1;
    }
    int32_t values[CASTLE_SETTING_NB];
    for (int k = 0; k < CASTLE_SETTING_NB; k++) {
        PyObject *item = PyTuple_GET_ITEM(obj, k);
        if (!PyLong_Check(item) || PyBool_Check(item)) {
            PyErr_Format(PyExc_TypeError, "setting %s must be an int, got %.50s", CASTLE_SETTING_INFO[k].name,
                         Py_TYPE(item)->tp_name);
            return -1;
        }
        int overflow = 0;
        long v = PyLong_AsLongAndOverflow(item, &overflow);
        if (v == -1 && PyErr_Occurred()) return -1;
        if (overflow || v < CASTLE_SETTING_INFO[k].lo || v > CASTLE_SETTING_INFO[k].hi) {
            PyErr_Format(PyExc_ValueError, "%s must be in [%d, %d]", CASTLE_SETTING_INFO[k].name,
                         (int)CASTLE_SETTING_INFO[k].lo, (int)CASTLE_SETTING_INFO[k].hi);
            return -1;
        }
        values[k] = (int32_t)v;
    }
    memcpy(cfg, values, sizeof(values));
    char err[160];
    if (castle_settings_check(cfg, err, sizeof(err)) < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        return -1;
    }
    return 0;
}
_Static_assert(sizeof(CastleSettings) == CASTLE_SETTING_NB * sizeof(int32_t), "settings are int32 fields only");

/* A tuple of n ints. */
static PyObject *int_tuple(const long *values, int n) {
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int k = 0; k < n; k++) {
        PyObject *v = PyLong_FromLong(values[k]);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, v);
    }
    return t;
}

static PyObject *settings_tuple(const CastleSettings *cfg) {
    int32_t fields[CASTLE_SETTING_NB];
    long values[CASTLE_SETTING_NB];
    memcpy(fields, cfg, sizeof(fields));
    for (int k = 0; k < CASTLE_SETTING_NB; k++) values[k] = fields[k];
    return int_tuple(values, CASTLE_SETTING_NB);
}

int castle_settings_parse(PyObject *obj, CastleSettings *cfg) { return settings_from_tuple(obj, cfg); }

PyObject *castle_settings_build(const CastleSettings *cfg) { return settings_tuple(cfg); }

static int ready(CastleGameObject *self) {
    if (!self->ready) {
        PyErr_SetString(PyExc_RuntimeError, "this CastleGame was never initialised (make games with stratego.castle.Game)");
        return -1;
    }
    return 0;
}

/* Reads setups (None, or a tuple with an entry a seat: None for a random setup, or a
 * sequence of 20 ranks for the zone's spaces in node order) into ranks/given. */
static int setups_arg(PyObject *obj, int seats, uint8_t ranks[][CASTLE_PIECES], int *given) {
    if (obj == Py_None) return 0;
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != seats) {
        PyErr_Format(PyExc_TypeError, "setups must be None or a tuple of %d entries (None or 20 ranks)", seats);
        return -1;
    }
    for (int p = 0; p < seats; p++) {
        PyObject *entry = PyTuple_GET_ITEM(obj, p);
        if (entry == Py_None) continue;
        PyObject *seq = PySequence_Fast(entry, "a setup must be a sequence of 20 ranks");
        if (seq == NULL) return -1;
        int bad = PySequence_Fast_GET_SIZE(seq) != CASTLE_PIECES;
        if (bad) PyErr_Format(PyExc_ValueError, "seat %d's setup has %zd ranks, expected 20", p, PySequence_Fast_GET_SIZE(seq));
        for (int k = 0; !bad && k < CASTLE_PIECES; k++) {
            PyObject *item = PySequence_Fast_GET_ITEM(seq, k);
            long r = PyLong_Check(item) && !PyBool_Check(item) ? PyLong_AsLong(item) : -1;
            if (r < 1 || r > CASTLE_RANK_MAX) {
                PyErr_Clear();
                PyErr_Format(PyExc_ValueError, "seat %d's setup: entry %d must be a rank 1..9", p, k);
                bad = 1;
            } else {
                ranks[p][k] = (uint8_t)r;
            }
        }
        Py_DECREF(seq);
        if (bad) return -1;
        given[p] = 1;
    }
    return 0;
}

/* __init__(settings, seed, setups=None): a new game; the seats without a given setup draw
 * a random one from the seed's stream. */
static int CastleGame_init(CastleGameObject *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"settings", "seed", "setups", NULL};
    PyObject *settings_obj, *seed_obj = NULL, *setups_obj = Py_None;
    uint64_t seed = 0;
    CastleSettings cfg;
    CastleState state;
    uint8_t ranks[CASTLE_SEATS_MAX][CASTLE_PIECES];
    int given[CASTLE_SEATS_MAX] = {0};
    char err[160];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OO", kwlist, &settings_obj, &seed_obj, &setups_obj)) return -1;
    if (seed_obj != NULL && parse_seed(seed_obj, &seed) < 0) return -1;
    if (settings_from_tuple(settings_obj, &cfg) < 0) return -1;
    int seats = cfg.mode == CASTLE_FFA3 ? 3 : 4;
    if (setups_arg(setups_obj, seats, ranks, given) < 0) return -1;
    memset(&state, 0, sizeof(state));
    state.rng = rng_seed_stream(seed, 0, 0);
    castle_clear(&state, &cfg);
    for (int p = 0; p < seats; p++) {
        if (!given[p]) castle_setup_random(&state, p);
        else if (castle_setup_seat(&state, p, ranks[p], err, sizeof(err)) < 0) {
            PyErr_Format(PyExc_ValueError, "seat %d's setup: %s", p, err);
            return -1;
        }
    }
    castle_start(&state, &cfg);
    self->settings = cfg;
    self->state = state;
    self->ready = 1;
    return 0;
}

/* A new game object holding a copy of state and cfg (checked by the caller). */
static PyObject *game_new(PyTypeObject *type, const CastleState *state, const CastleSettings *cfg) {
    CastleGameObject *obj = (CastleGameObject *)PyType_GenericNew(type, NULL, NULL);
    if (obj == NULL) return NULL;
    obj->state = *state;
    obj->settings = *cfg;
    obj->ready = 1;
    return (PyObject *)obj;
}

static PyObject *CastleGame_from_text(PyObject *cls, PyObject *args) {
    PyObject *settings_obj;
    const char *text;
    CastleSettings cfg;
    CastleState state;
    char err[256];
    if (!PyArg_ParseTuple(args, "Os", &settings_obj, &text)) return NULL;
    if (settings_from_tuple(settings_obj, &cfg) < 0) return NULL;
    memset(&state, 0, sizeof(state));
    if (castle_from_text(&state, &cfg, text, err, sizeof(err)) < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    return game_new((PyTypeObject *)cls, &state, &cfg);
}

/* from_state(settings, state_bytes): a game from state() (pickle), checked field by field. */
static PyObject *CastleGame_from_state(PyObject *cls, PyObject *args) {
    PyObject *settings_obj;
    Py_buffer buf;
    CastleSettings cfg;
    CastleState state;
    char err[160];
    if (!PyArg_ParseTuple(args, "Oy*", &settings_obj, &buf)) return NULL;
    int bad = settings_from_tuple(settings_obj, &cfg) < 0;
    if (!bad && buf.len != (Py_ssize_t)sizeof(state)) {
        PyErr_Format(PyExc_ValueError, "a castle state is %d bytes, got %zd", (int)sizeof(state), buf.len);
        bad = 1;
    }
    if (!bad) memcpy(&state, buf.buf, sizeof(state));
    PyBuffer_Release(&buf);
    if (bad) return NULL;
    if (castle_state_check(&state, &cfg, err, sizeof(err)) < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    return game_new((PyTypeObject *)cls, &state, &cfg);
}

static PyObject *CastleGame_state(CastleGameObject *self, PyObject *Py_UNUSED(ignored)) {
    if (ready(self) < 0) return NULL;
    return PyBytes_FromStringAndSize((const char *)&self->state, sizeof(self->state));
}

static PyObject *CastleGame_settings(CastleGameObject *self, PyObject *Py_UNUSED(ignored)) {
    if (ready(self) < 0) return NULL;
    return settings_tuple(&self->settings);
}

static PyObject *CastleGame_clone(CastleGameObject *self, PyObject *Py_UNUSED(ignored)) {
    if (ready(self) < 0) return NULL;
    return game_new(Py_TYPE(self), &self->state, &self->settings);
}

/* legal_actions() -> a tuple of the legal actions, ascending. */
static PyObject *CastleGame_legal_actions(CastleGameObject *self, PyObject *Py_UNUSED(ignored)) {
    if (ready(self) < 0) return NULL;
    int16_t list[CASTLE_ACTIONS_MAX];
    long values[CASTLE_ACTIONS_MAX];
    int n = castle_legal_list(&self->state, &self->settings, list);
    for (int k = 0; k < n; k++) values[k] = list[k];
    return int_tuple(values, n);
}

/* legal_mask() -> bytes of num_actions entries, 1 legal. */
static PyObject *CastleGame_legal_mask(CastleGameObject *self, PyObject *Py_UNUSED(ignored)) {
    if (ready(self) < 0) return NULL;
    uint8_t mask[CASTLE_ACTIONS_MAX];
    castle_legal_mask(&self->state, &self->settings, mask);
    return PyBytes_FromStringAndSize((const char *)mask, castle_geometry(self->state.mode)->actions);
}

/* An action number from a Python int; -1 with an exception (TypeError, or ValueError out of range). */
static int action_arg(CastleGameObject *self, PyObject *obj) {
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "an action must be an int, got %.50s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    int overflow = 0, n = castle_geometry(self->state.mode)->actions;
    long a = PyLong_AsLongAndOverflow(obj, &overflow);
    if (a == -1 && PyErr_Occurred()) return -1;
    if (overflow || a < 0 || a >= n) {
        PyErr_Format(PyExc_ValueError, "action must be in [0, %d), got %S", n, obj);
        return -1;
    }
    return (int)a;
}

/* check(action) -> None if legal now, else why not (a str). */
static PyObject *CastleGame_check(CastleGameObject *self, PyObject *arg) {
    if (ready(self) < 0) return NULL;
    int a = action_arg(self, arg);
    if (a < 0) return NULL;
    char err[256];
    if (castle_check(&self->state, &self->settings, a, err, sizeof(err)) == 0) Py_RETURN_NONE;
    return PyUnicode_FromString(err);
}

/* apply(action): plays a legal action; ValueError saying why for any other. */
static PyObject *CastleGame_apply(CastleGameObject *self, PyObject *arg) {
    if (ready(self) < 0) return NULL;
    int a = action_arg(self, arg);
    if (a < 0) return NULL;
    char err[256];
    if (castle_check(&self->state, &self->settings, a, err, sizeof(err)) < 0) {
        PyErr_SetString(self->state.done ? PyExc_RuntimeError : PyExc_ValueError, err);
        return NULL;
    }
    castle_apply(&self->state, &self->settings, a);
    Py_RETURN_NONE;
}

static PyObject *CastleGame_action_name(CastleGameObject *self, PyObject *arg) {
    if (ready(self) < 0) return NULL;
    int a = action_arg(self, arg);
    if (a < 0) return NULL;
    char name[24];
    castle_action_name(&self->state, a, name);
    return PyUnicode_FromString(name);
}

static PyObject *CastleGame_parse(CastleGameObject *self, PyObject *arg) {
    if (ready(self) < 0) return NULL;
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "a move must be a str, got %.50s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    Py_ssize_t len = 0;
    const char *text = PyUnicode_AsUTF8AndSize(arg, &len);
    if (text == NULL) return NULL;
    if ((Py_ssize_t)strlen(text) != len) { /* C would read up to the NUL: "H3-H4\0x" as "H3-H4" */
        PyErr_Format(PyExc_ValueError, "a move may not hold a NUL character (at position %zd)", (Py_ssize_t)strlen(text));
        return NULL;
    }
    char err[256];
    int a = castle_action_parse(&self->state, text, err, sizeof(err));
    if (a < 0) {
        PyErr_SetString(PyExc_ValueError, err);
        return NULL;
    }
    return PyLong_FromLong(a);
}

/* to_text(viewer=-1) -> the text board, full (-1) or a seat's view. */
static PyObject *CastleGame_to_text(CastleGameObject *self, PyObject *args) {
    int viewer = -1;
    if (!PyArg_ParseTuple(args, "|i", &viewer)) return NULL;
    if (ready(self) < 0) return NULL;
    if (viewer < -1 || viewer >= self->state.seats) {
        PyErr_Format(PyExc_ValueError, "seat must be None or in [0, %d), got %d", self->state.seats, viewer);
        return NULL;
    }
    char text[CASTLE_TEXT_MAX];
    int n = castle_to_text(&self->state, viewer, text, sizeof(text));
    return PyUnicode_FromStringAndSize(text, n);
}

/* A node number from a Python int; -1 with ValueError. */
static int node_arg(CastleGameObject *self, int node) {
    int nodes = castle_geometry(self->state.mode)->nodes;
    if (node < 0 || node >= nodes) {
        PyErr_Format(PyExc_ValueError, "node must be in [0, %d), got %d", nodes, node);
        return -1;
    }
    return node;
}

/* piece(node) -> (seat, rank, carried flag's seat or None, slot) or None. */
static PyObject *CastleGame_piece(CastleGameObject *self, PyObject *args) {
    int node;
    if (!PyArg_ParseTuple(args, "i", &node)) return NULL;
    if (ready(self) < 0 || node_arg(self, node) < 0) return NULL;
    int slot = self->state.board[node];
    if (slot == CASTLE_NONE) Py_RETURN_NONE;
    int flag = self->state.carry[slot];
    if (flag == CASTLE_NONE) return Py_BuildValue("(iiOi)", castle_seat_of(slot), castle_rank(slot), Py_None, slot);
    return Py_BuildValue("(iiii)", castle_seat_of(slot), castle_rank(slot), flag, slot);
}

/* known(seat, node) -> whether seat knows the rank of the piece on node (False if none). */
static PyObject *CastleGame_known(CastleGameObject *self, PyObject *args) {
    int seat, node;
    if (!PyArg_ParseTuple(args, "ii", &seat, &node)) return NULL;
    if (ready(self) < 0 || node_arg(self, node) < 0) return NULL;
    if (seat < 0 || seat >= self->state.seats) {
        PyErr_Format(PyExc_ValueError, "seat must be in [0, %d), got %d", self->state.seats, seat);
        return NULL;
    }
    int slot = self->state.board[node];
    return PyBool_FromLong(slot != CASTLE_NONE && castle_known(&self->state, seat, slot));
}

/* bot_action(name, rng) -> (action, rng): the action bot `name` (csrc/castle/castle_bot.h)
 * plays for the seat to decide, from that seat's view, and the stream's next state;
 * action -1 once the game is over. */
static PyObject *CastleGame_bot_action(CastleGameObject *self, PyObject *args) {
    const char *name;
    unsigned long long stream;
    if (!PyArg_ParseTuple(args, "sK", &name, &stream)) return NULL;
    if (ready(self) < 0) return NULL;
    int kind = castle_bot_kind_from_name(name);
    if (kind < 0) {
        PyErr_Format(PyExc_ValueError, "unknown castle bot %R; expected 'random' or 'heuristic'", PyTuple_GET_ITEM(args, 0));
        return NULL;
    }
    uint64_t rng = (uint64_t)stream;
    int action = castle_bot_action(&self->state, &self->settings, kind, &rng);
    return Py_BuildValue("(iK)", action, (unsigned long long)rng);
}

/* observation(seat, planes) -> bytes: seat's view as codes, or expanded to planes
 * (csrc/castle/castle_observe.h); stratego.castle.Game.observation shapes it. */
static PyObject *CastleGame_observation(CastleGameObject *self, PyObject *args) {
    int seat, planes;
    if (!PyArg_ParseTuple(args, "ip", &seat, &planes)) return NULL;
    if (ready(self) < 0) return NULL;
    if (seat < 0 || seat >= self->state.seats) {
        PyErr_Format(PyExc_ValueError, "seat must be in [0, %d), got %d", self->state.seats, seat);
        return NULL;
    }
    uint8_t codes[CASTLE_CODES_BYTES];
    castle_view_codes(&self->state, &self->settings, seat, codes);
    if (!planes) return PyBytes_FromStringAndSize((const char *)codes, sizeof(codes));
    PyObject *out = PyBytes_FromStringAndSize(NULL, CASTLE_PLANES_BYTES);
    if (out != NULL) castle_obs_expand(codes, (uint8_t *)PyBytes_AS_STRING(out));
    return out;
}

/* info() -> a dict of the public fields. */
static PyObject *CastleGame_info(CastleGameObject *self, PyObject *Py_UNUSED(ignored)) {
    if (ready(self) < 0) return NULL;
    const CastleState *s = &self->state;
    PyObject *sliders = NULL, *removed = NULL, *flags = NULL, *out = NULL;
    sliders = PyTuple_New(s->seats);
    removed = PyTuple_New(s->seats);
    flags = PyTuple_New(s->seats);
    if (sliders == NULL || removed == NULL || flags == NULL) goto done;
    for (int p = 0; p < s->seats; p++) {
        PyObject *pile = PyList_New(0), *v;
        if (pile == NULL) goto done;
        PyTuple_SET_ITEM(removed, p, pile);
        for (int r = CASTLE_RANK_MAX; r >= 1; r--)
            for (int k = 0; k < s->removed[p][r]; k++) {
                v = PyLong_FromLong(r);
                if (v == NULL || PyList_Append(pile, v) < 0) {
                    Py_XDECREF(v);
                    goto done;
                }
                Py_DECREF(v);
            }
        v = PyLong_FromLong(s->slider[p]);
        if (v == NULL) goto done;
        PyTuple_SET_ITEM(sliders, p, v);
        int c = s->flag_carrier[p];
        v = c == CASTLE_NONE ? Py_BuildValue("(iOi)", s->flag_node[p], Py_None, s->flag_abandoned[p])
                             : Py_BuildValue("(iii)", s->flag_node[p], c, 0);
        if (v == NULL) goto done;
        PyTuple_SET_ITEM(flags, p, v);
    }
    out = Py_BuildValue("{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:I,s:I,s:O,s:O,s:O}", "mode", s->mode, "seats", s->seats,
                        "phase", s->phase, "to_move", s->to_move, "mover", s->mover, "done", s->done, "winner",
                        s->winner == CASTLE_NONE ? -1 : s->winner, "end_reason", s->end_reason, "ply", s->ply, "turn",
                        s->turn, "sliders", sliders, "removed", removed, "flags", flags);
done:
    Py_XDECREF(sliders);
    Py_XDECREF(removed);
    Py_XDECREF(flags);
    return out;
}

static PyMethodDef CastleGame_methods[] = {
    {"from_text", CastleGame_from_text, METH_VARARGS | METH_CLASS, "from_text(settings, text) -> a game (ValueError naming the line)."},
    {"from_state", CastleGame_from_state, METH_VARARGS | METH_CLASS, "from_state(settings, state bytes) -> a game (checked)."},
    {"state", (PyCFunction)CastleGame_state, METH_NOARGS, "state() -> the state's bytes (pickle)."},
    {"settings", (PyCFunction)CastleGame_settings, METH_NOARGS, "settings() -> the settings tuple."},
    {"clone", (PyCFunction)CastleGame_clone, METH_NOARGS, "clone() -> an independent copy."},
    {"legal_actions", (PyCFunction)CastleGame_legal_actions, METH_NOARGS, "legal_actions() -> a tuple of ascending ints."},
    {"legal_mask", (PyCFunction)CastleGame_legal_mask, METH_NOARGS, "legal_mask() -> bytes, 1 per legal action."},
    {"check", (PyCFunction)CastleGame_check, METH_O, "check(action) -> None if legal, else why not."},
    {"apply", (PyCFunction)CastleGame_apply, METH_O, "apply(action): plays it (ValueError if illegal)."},
    {"action_name", (PyCFunction)CastleGame_action_name, METH_O, "action_name(action) -> the notation now."},
    {"parse", (PyCFunction)CastleGame_parse, METH_O, "parse(move) -> the action a notation names."},
    {"to_text", (PyCFunction)CastleGame_to_text, METH_VARARGS, "to_text(viewer=-1) -> the text board."},
    {"piece", (PyCFunction)CastleGame_piece, METH_VARARGS, "piece(node) -> (seat, rank, flag or None, slot) or None."},
    {"known", (PyCFunction)CastleGame_known, METH_VARARGS, "known(seat, node) -> whether seat knows that rank."},
    {"info", (PyCFunction)CastleGame_info, METH_NOARGS, "info() -> the public fields as a dict."},
    {"bot_action", (PyCFunction)CastleGame_bot_action, METH_VARARGS, "bot_action(name, rng) -> (action, rng)."},
    {"observation", (PyCFunction)CastleGame_observation, METH_VARARGS, "observation(seat, planes) -> bytes."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject CastleGameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "stratego._core.CastleGame",
    .tp_basicsize = sizeof(CastleGameObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One castle game (use stratego.castle.Game).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)CastleGame_init,
    .tp_methods = CastleGame_methods,
};

/* castle_geometry(mode) -> dict of a board's tables (docs/castle.md). */
static PyObject *core_castle_geometry(PyObject *Py_UNUSED(module), PyObject *arg) {
    long mode = PyLong_AsLong(arg);
    if (mode == -1 && PyErr_Occurred()) return NULL;
    if (mode < 0 || mode >= CASTLE_MODE_NB) {
        PyErr_Format(PyExc_ValueError, "mode must be in [0, %d), got %ld", CASTLE_MODE_NB, mode);
        return NULL;
    }
    const CastleGeometry *g = castle_geometry((int)mode);
    PyObject *names = NULL, *neighbours = NULL, *zones = NULL, *actions = NULL, *cells = NULL, *lines = NULL;
    PyObject *setup_nodes = NULL;
    PyObject *out = NULL;
    names = PyTuple_New(g->nodes);
    neighbours = PyTuple_New(g->nodes);
    zones = PyTuple_New(g->nodes);
    lines = PyTuple_New(g->nodes);
    actions = PyTuple_New(g->actions);
    cells = PyTuple_New(g->rows);
    setup_nodes = PyTuple_New(g->seats);
    if (!names || !neighbours || !zones || !actions || !cells || !lines || !setup_nodes) goto done;
    for (int p = 0; p < g->seats; p++) {
        long nodes[CASTLE_PIECES];
        for (int k = 0; k < CASTLE_PIECES; k++) nodes[k] = g->zone_nodes[p][k];
        PyObject *v = int_tuple(nodes, CASTLE_PIECES);
        if (v == NULL) goto done;
        PyTuple_SET_ITEM(setup_nodes, p, v);
    }
    for (int n = 0; n < g->nodes; n++) {
        char name[8];
        castle_node_name(g, n, name);
        PyObject *v = PyUnicode_FromString(name);
        if (v == NULL) goto done;
        PyTuple_SET_ITEM(names, n, v);
        PyObject *nb = PyTuple_New(g->degree[n]);
        if (nb == NULL) goto done;
        PyTuple_SET_ITEM(neighbours, n, nb);
        for (int k = 0; k < g->degree[n]; k++) {
            v = PyLong_FromLong(g->neighbour[n][k]);
            if (v == NULL) goto done;
            PyTuple_SET_ITEM(nb, k, v);
        }
        v = g->zone[n] == CASTLE_NONE ? Py_NewRef(Py_None) : PyLong_FromLong(g->zone[n]);
        if (v == NULL) goto done;
        PyTuple_SET_ITEM(zones, n, v);
        PyObject *ln = PyTuple_New(4);
        if (ln == NULL) goto done;
        PyTuple_SET_ITEM(lines, n, ln);
        for (int d = 0; d < 4; d++) {
            PyObject *one = PyTuple_New(n < g->spaces ? g->line_len[n][d] : 0);
            if (one == NULL) goto done;
            PyTuple_SET_ITEM(ln, d, one);
            for (int k = 0; n < g->spaces && k < g->line_len[n][d]; k++) {
                v = PyLong_FromLong(g->line[n][d][k]);
                if (v == NULL) goto done;
                PyTuple_SET_ITEM(one, k, v);
            }
        }
    }
    for (int a = 0; a < g->actions; a++) {
        const CastleAction *ac = &g->action[a];
        PyObject *v = Py_BuildValue("(iii)", ac->kind, ac->from == CASTLE_NONE ? -1 : ac->from, ac->to == CASTLE_NONE ? -1 : ac->to);
        if (v == NULL) goto done;
        PyTuple_SET_ITEM(actions, a, v);
    }
    for (int r = 0; r < g->rows; r++) {
        PyObject *v = PyUnicode_FromStringAndSize(g->cell_kind + r * CASTLE_COLS, CASTLE_COLS);
        if (v == NULL) goto done;
        PyTuple_SET_ITEM(cells, r, v);
    }
    out = Py_BuildValue(
        "{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:O,s:O,s:O,s:O,s:O,s:O,s:O,s:(iiii),s:(iiii),s:{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}}",
        "mode", g->mode, "seats", g->seats, "rows", g->rows, "spaces", g->spaces, "ring", g->ring, "turret", g->turret,
        "nodes", g->nodes, "setup_nodes", setup_nodes, "node_names", names, "neighbours", neighbours, "zones", zones, "lines", lines, "actions",
        actions, "cells", cells, "recruit_nodes", g->recruit_node[0], g->recruit_node[1], g->recruit_node[2],
        g->seats > 3 ? g->recruit_node[3] : -1, "flag_nodes", g->flag_node[0], g->flag_node[1], g->flag_node[2],
        g->seats > 3 ? g->flag_node[3] : -1, "layout", "move", g->move_base, "drop", g->drop_base, "shot", g->shot_base,
        "take", g->take_base, "leave", g->leave_action, "recruit", g->recruit_base, "no_recruit", g->no_recruit_action,
        "actions", g->actions);
done:
    Py_XDECREF(names);
    Py_XDECREF(neighbours);
    Py_XDECREF(zones);
    Py_XDECREF(lines);
    Py_XDECREF(actions);
    Py_XDECREF(cells);
    Py_XDECREF(setup_nodes);
    return out;
}

static PyMethodDef CASTLE_FUNCTIONS[] = {
    {"castle_geometry", core_castle_geometry, METH_O, "castle_geometry(mode) -> the board's tables as a dict."},
    {NULL, NULL, 0, NULL},
};

static int add_steal(PyObject *m, const char *name, PyObject *value) {
    if (value == NULL) return -1;
    int r = PyModule_AddObjectRef(m, name, value);
    Py_DECREF(value);
    return r;
}

int castle_binding_add(PyObject *m) {
    castle_init();
    PyObject *settings = PyTuple_New(CASTLE_SETTING_NB);
    if (settings == NULL) return -1;
    for (int k = 0; k < CASTLE_SETTING_NB; k++) {
        const CastleSettingInfo *info = &CASTLE_SETTING_INFO[k];
        PyObject *row = Py_BuildValue("(siiis)", info->name, info->lo, info->hi, info->def, info->doc);
        if (row == NULL) {
            Py_DECREF(settings);
            return -1;
        }
        PyTuple_SET_ITEM(settings, k, row);
    }
    if (add_steal(m, "CASTLE_SETTINGS", settings) < 0) return -1;
    if (PyType_Ready(&CastleGameType) < 0 || PyModule_AddType(m, &CastleGameType) < 0) return -1;
    if (PyModule_AddFunctions(m, CASTLE_FUNCTIONS) < 0) return -1;
    if (add_names(m, "CASTLE_MODES", castle_mode_name, CASTLE_MODE_NB) < 0 ||
        add_names(m, "CASTLE_PHASES", castle_phase_name, CASTLE_PHASE_NB) < 0 ||
        add_names(m, "CASTLE_END_REASONS", castle_end_name, CASTLE_END_NB) < 0)
        return -1;
    if (PyModule_AddIntConstant(m, "CASTLE_STATE_BYTES", (long)sizeof(CastleState)) < 0 ||
        PyModule_AddIntConstant(m, "CASTLE_ACTIONS_MAX", CASTLE_ACTIONS_MAX) < 0)
        return -1;
    return 0;
}
