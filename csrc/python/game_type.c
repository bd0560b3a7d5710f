/* game_type.c: _core.GameState, one game (stratego.Game wraps it). */
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
#include "engine/rng.h"
#include "stratego/rules.h"
#include "stratego/sample.h"
#include "stratego/save.h"
#include "stratego/view.h"

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

/* reset(seed, setups=None, deploy=0): a new game, random setups or rows of the setup
 * table; the sides in deploy (bit 0 red, bit 1 blue) place their own pieces instead. */
static PyObject *GameState_reset(GameStateObject *self, PyObject *args) {
    PyObject *seed_obj, *setups_obj = Py_None, *deploy_obj = Py_None;
    uint64_t seed;
    SetupTable table;
    int deploy;
    if (!PyArg_ParseTuple(args, "O|OO", &seed_obj, &setups_obj, &deploy_obj)) return NULL;
    if (parse_seed(seed_obj, &seed) < 0 || deploy_sides_parse(deploy_obj, &self->rules, &deploy) < 0 ||
        GameState_check_ready(self) < 0)
        return NULL;
    if (setup_table_parse(setups_obj, &self->rules, &table) < 0) return NULL;
    table.deploy = deploy;
    self->state.rng = rng_seed_stream(seed, 0, 0);
    self->bot_rng = bot_seed_stream(seed);
    game_reset(&self->state, &self->rules, &table);
    Py_RETURN_NONE;
}

static PyObject *GameState_set_field(GameStateObject *self, PyObject *args) {
    PyObject *field_obj = NULL, *to_move_obj = NULL, *result = NULL;
    int to_move, allow_flagless = 0, flagless;
    char err[200];
    const char *field;
    Py_ssize_t len;
    GameState fresh;
    if (!PyArg_ParseTuple(args, "UO|p", &field_obj, &to_move_obj, &allow_flagless)) goto done;
    if (parse_player(to_move_obj, "to_move", &to_move) < 0 || GameState_check_ready(self) < 0) goto done;
    if (parse_field(field_obj, "bad field: ", &field, &len) < 0) goto done;
    if (game_from_field(&fresh, &self->rules, field, (size_t)len, to_move, err, sizeof(err)) < 0) {
        PyErr_Format(PyExc_ValueError, "bad field: %s", err);
        goto done;
    }
    flagless = allow_flagless ? -1 : game_side_without_flag(&fresh, &self->rules);
    if (flagless >= 0) {
        PyErr_Format(PyExc_ValueError, "bad field: %s has no Flag (letter %c), but the rules give each side %d "
                     "(a study position without one: allow_flagless=True)",
                     flagless == RED ? "red" : "blue", flagless == RED ? 'M' : 'Y', self->rules.piece_counts[FLAG]);
        goto done;
    }
    /* Only a field that passed every check replaces the game (a refused call changes
     * nothing); the bot stream goes on. */
    fresh.rng = self->state.rng;
    self->state = fresh;
    result = Py_NewRef(Py_None);
done:
    return result;
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
    int n = game_legal_actions(&self->state, &self->rules, actions);
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
    game_legal_mask(&self->state, &self->rules, PyArray_DATA((PyArrayObject *)out), packed);
    Py_RETURN_NONE;
}

/* check_move(from, to) -> None if legal, else the reason as a str. */
static PyObject *GameState_check_move(GameStateObject *self, PyObject *args) {
    PyObject *from_obj, *to_obj;
    int from, to;
    if (!PyArg_ParseTuple(args, "OO", &from_obj, &to_obj)) return NULL;
    if (parse_square(from_obj, "from", &from) < 0 || parse_square(to_obj, "to", &to) < 0 ||
        GameState_check_ready(self) < 0)
        return NULL;
    int code = game_check_move(&self->state, &self->rules, from, to);
    if (code == 0) Py_RETURN_NONE;
    return PyUnicode_FromString(moves_illegal_reason(code));
}

/* check_place(type, sq) -> None if the player to move may place a piece of `type` on
 * square `sq` now (deployment), else the reason as a str. */
static PyObject *GameState_check_place(GameStateObject *self, PyObject *args) {
    PyObject *type_obj, *sq_obj;
    long type;
    int sq;
    if (!PyArg_ParseTuple(args, "OO", &type_obj, &sq_obj)) return NULL;
    if (parse_int_in(type_obj, "type", 0, PIECE_TYPE_NB - 1, NULL, &type) < 0 || parse_square(sq_obj, "sq", &sq) < 0 ||
        GameState_check_ready(self) < 0)
        return NULL;
    int code = game_check_place(&self->state, &self->rules, (int)type, sq);
    if (code == 0) Py_RETURN_NONE;
    return PyUnicode_FromString(moves_illegal_reason(code));
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

/* play_or_forfeit(action) -> True if played. Any int is taken: an illegal one (out of
 * range too) ends the game with the mover's loss (game_forfeit) and returns False, the
 * rule a batch's ILLEGAL_LOSES applies, for StrategoEnv's illegal_action="lose".
 * TypeError for a non-int, ValueError once the game is over. */
static PyObject *GameState_play_or_forfeit(GameStateObject *self, PyObject *action_obj) {
    if (GameState_check_ready(self) < 0) return NULL;
    if (PyBool_Check(action_obj) || !PyIndex_Check(action_obj)) {
        PyErr_Format(PyExc_TypeError, "action must be an int, got %s", Py_TYPE(action_obj)->tp_name);
        return NULL;
    }
    PyObject *index = PyNumber_Index(action_obj);
    if (index == NULL) return NULL;
    int overflow = 0;
    long long action = PyLong_AsLongLongAndOverflow(index, &overflow);
    Py_DECREF(index);
    if (action == -1 && PyErr_Occurred()) return NULL;
    if (game_is_over(&self->state)) {
        PyErr_SetString(PyExc_ValueError, "the game is over");
        return NULL;
    }
    if (overflow != 0 || action < 0 || action >= ACTION_MAX ||
        moves_check_action(&self->state, &self->rules, (int)action) != 0) {
        game_forfeit(&self->state);
        Py_RETURN_FALSE;
    }
    game_apply_action(&self->state, &self->rules, (int)action);
    Py_RETURN_TRUE;
}

/* concede(reason, player): ends the game by the players' decision (game_concede):
 * reason "resigned" or "timeout" (`player` loses) or "agreed_draw". ValueError for
 * another reason or a finished game. */
static PyObject *GameState_concede(GameStateObject *self, PyObject *args) {
    const char *name;
    PyObject *player_obj;
    int player, reason = END_NONE;
    if (!PyArg_ParseTuple(args, "sO", &name, &player_obj)) return NULL;
    if (parse_player(player_obj, "player", &player) < 0 || GameState_check_ready(self) < 0) return NULL;
    for (int k = END_NONE + 1; k < END_REASON_NB; k++) {
        if (strcmp(name, END_REASON_NAMES[k]) == 0) reason = k;
    }
    if (game_is_over(&self->state)) {
        PyErr_SetString(PyExc_ValueError, "the game is over");
        return NULL;
    }
    if (game_concede(&self->state, (EndReason)reason, player) < 0) {
        PyErr_Format(PyExc_ValueError, "%s is not an ending the players decide; expected %s, %s or %s",
                     name, END_REASON_NAMES[END_RESIGNED], END_REASON_NAMES[END_AGREED_DRAW],
                     END_REASON_NAMES[END_TIMEOUT]);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *GameState_play_move(GameStateObject *self, PyObject *args) {
    PyObject *from_obj, *to_obj;
    int from, to;
    if (!PyArg_ParseTuple(args, "OO", &from_obj, &to_obj)) return NULL;
    if (parse_square(from_obj, "from", &from) < 0 || parse_square(to_obj, "to", &to) < 0 ||
        GameState_check_ready(self) < 0)
        return NULL;
    int code = game_check_move(&self->state, &self->rules, from, to);
    if (code != 0) {
        PyErr_SetString(PyExc_ValueError, moves_illegal_reason(code));
        return NULL;
    }
    game_apply_move(&self->state, &self->rules, from, to);
    Py_RETURN_NONE;
}

/* status() -> (to_move, done, winner or -1, end reason name or None, ply, plies_since_attack,
 * rescue pending, rescues made by red, by blue, deploying) */
static PyObject *GameState_status(GameStateObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (GameState_check_ready(self) < 0) return NULL;
    const GameState *s = &self->state;
    /* The reason's name, or None while the game goes on. */
    return Py_BuildValue("(iOizIIOiiO)", s->to_move, s->done ? Py_True : Py_False,
                         s->winner == NO_WINNER ? -1 : s->winner,
                         s->end_reason == END_NONE ? NULL : END_REASON_NAMES[s->end_reason],
                         (unsigned int)s->ply, (unsigned int)s->plies_since_attack,
                         s->phase == PHASE_RESCUE ? Py_True : Py_False, s->rescues[RED],
                         s->rescues[BLUE], s->phase == PHASE_DEPLOY ? Py_True : Py_False);
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

/* cells() -> bytes of 3 per square: owner (0 red, 1 blue, CELLS_EMPTY, CELLS_LAKE), type, flags.
 * For display and tests; it shows everything, and the renderer decides what to hide. */
static PyObject *GameState_cells(GameStateObject *self, PyObject *unused) {
    STRATEGO_UNUSED(unused);
    if (GameState_check_ready(self) < 0) return NULL;
    char out[3 * SQ_NB];
    const GameState *s = &self->state;
    for (int sq = 0; sq < SQ_NB; sq++) {
        uint8_t cell = s->board[sq];
        if (cell == CELL_EMPTY || cell == CELL_LAKE) {
            out[3 * sq] = cell == CELL_EMPTY ? CELLS_EMPTY : CELLS_LAKE;
            out[3 * sq + 1] = out[3 * sq + 2] = 0;
        } else {
            out[3 * sq] = (char)piece_owner(cell - 1);
            out[3 * sq + 1] = (char)s->piece_type[cell - 1];
            out[3 * sq + 2] = (char)s->piece_flags[cell - 1];
        }
    }
    return PyBytes_FromStringAndSize(out, sizeof(out));
}

/* piece_types(player) -> bytes: the type of each of the player's pieces in id order, on
 * the board or captured. Ids follow the order the pieces were placed in (a field's in
 * increasing squares), so a world (sample_worlds) names the types it gave to the pieces
 * of the start position: stratego.integrations.openspiel rebuilds a world's setups from it. */
static PyObject *GameState_piece_types(GameStateObject *self, PyObject *player_obj) {
    int player;
    if (parse_player(player_obj, "player", &player) < 0 || GameState_check_ready(self) < 0) return NULL;
    const GameState *s = &self->state;
    return PyBytes_FromStringAndSize((const char *)&s->piece_type[player * MAX_PIECES], s->placed[player]);
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
    /* The shapes come from the spec (observe_player.h): (C, 10, 10) or (L,). */
    int64_t dims[OBS_DIMS_MAX], belief_dims[OBS_DIMS_MAX];
    int ndim = observe_spec_shape(&spec, dims), belief_ndim = observe_belief_shape(belief_dims);
    if (check_obs_array(out, "out", as_float ? NPY_FLOAT32 : NPY_UINT8, NULL, 0, dims, ndim) < 0) return NULL;
    int beliefs = codes && probabilities;
    if (beliefs && check_obs_array(belief, "belief", NPY_FLOAT32, NULL, 0, belief_dims, belief_ndim) < 0) return NULL;
    observe_player(&self->state, player, &spec, PyArray_DATA((PyArrayObject *)out),
                   beliefs ? PyArray_DATA((PyArrayObject *)belief) : NULL);
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
    int64_t dims[OBS_DIMS_MAX];
    int ndim = observe_full_shape(codes, dims);
    if (check_obs_array(out, "out", NPY_UINT8, NULL, 0, dims, ndim) < 0) return NULL;
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

/* sample_worlds(player, k, seed) -> k new GameStates: worlds `player` cannot tell from
 * this game, drawn uniformly on sample_stream(seed, 0) (sample.h); each world's bot
 * stream is drawn next on the same stream. ValueError for a game that cannot be sampled. */
static PyObject *GameState_sample_worlds(GameStateObject *self, PyObject *args) {
    PyObject *player_obj, *k_obj, *seed_obj, *list = NULL, *result = NULL;
    int player;
    long k;
    uint64_t seed;
    char err[160];
    SampleSource src;
    GameState base;
    if (!PyArg_ParseTuple(args, "OOO", &player_obj, &k_obj, &seed_obj)) return NULL;
    if (parse_player(player_obj, "player", &player) < 0 ||
        parse_int_in(k_obj, "k", 1, SAMPLE_WORLDS_MAX, NULL, &k) < 0 || parse_seed(seed_obj, &seed) < 0 ||
        GameState_check_ready(self) < 0)
        return NULL;
    if (sample_game_prepare(&self->state, &self->rules, player, &src, &base, err, sizeof(err)) < 0) {
        PyErr_Format(PyExc_ValueError, "cannot sample worlds: %s", err);
        return NULL;
    }
    list = PyList_New(k);
    if (list == NULL) goto done;
    uint64_t rng = sample_stream(seed, 0);
    for (long j = 0; j < k; j++) {
        GameStateObject *world = PyObject_New(GameStateObject, Py_TYPE(self));
        if (world == NULL) goto done;
        sample_game_world(&src, &rng, &world->state);
        world->rules = self->rules;
        world->bot_rng = rng_next(&rng);
        world->ready = 1;
        PyList_SET_ITEM(list, j, (PyObject *)world);
    }
    result = list;
    list = NULL;
done:
    Py_XDECREF(list);
    return result;
}

static PyMethodDef GameState_methods[] = {
    {"sample_worlds", (PyCFunction)GameState_sample_worlds, METH_VARARGS,
     "sample_worlds(player, k, seed): k worlds the player cannot tell from this game (new GameStates)."},
    {"to_bytes", (PyCFunction)GameState_to_bytes, METH_NOARGS, "The state as bytes."},
    {"bot_action", (PyCFunction)GameState_bot_action, METH_O,
     "bot_action(name): the action bot `name` plays for the player to move, -1 when over."},
    {"seed_bot", (PyCFunction)GameState_seed_bot, METH_O, "seed_bot(seed): restarts the bot stream."},
    {"bot_stream", (PyCFunction)GameState_bot_stream, METH_NOARGS, "The bot stream's state."},
    {"set_bot_stream", (PyCFunction)GameState_set_bot_stream, METH_O, "Restores bot_stream()."},
    {"from_bytes", (PyCFunction)GameState_from_bytes, METH_O, "Restores a state from to_bytes()."},
    {"reset", (PyCFunction)GameState_reset, METH_VARARGS,
     "reset(seed, setups=None, deploy=0): a new game from seed, random setups or rows of setups; "
     "the sides in deploy (bit 0 red, bit 1 blue) place their own pieces."},
    {"set_field", (PyCFunction)GameState_set_field, METH_VARARGS,
     "set_field(field, to_move, allow_flagless=False): the position of a 100-letter Gravon field; "
     "ValueError for a side without a Flag where the rules have Flags, unless allowed."},
    {"field", (PyCFunction)GameState_field, METH_NOARGS, "The board as 100 Gravon letters."},
    {"legal_actions", (PyCFunction)GameState_legal_actions, METH_NOARGS,
     "Legal actions of the player to move (its frame); [] once the game is over."},
    {"action_mask", (PyCFunction)GameState_action_mask, METH_O,
     "action_mask(out): the legal-action mask of the player to move into out (bool)."},
    {"check_move", (PyCFunction)GameState_check_move, METH_VARARGS,
     "check_move(from, to): None if legal, else why not."},
    {"check_place", (PyCFunction)GameState_check_place, METH_VARARGS,
     "check_place(type, sq): None if the player to move may place a piece of type on sq now, else why not."},
    {"play_move", (PyCFunction)GameState_play_move, METH_VARARGS,
     "play_move(from, to): plays a legal move; ValueError otherwise."},
    {"status", (PyCFunction)GameState_status, METH_NOARGS,
     "(to_move, done, winner, end_reason, ply, plies_since_attack, rescue_pending, rescues_red, rescues_blue)"},
    {"check_action", (PyCFunction)GameState_check_action, METH_O,
     "check_action(action): None if legal now, else why not."},
    {"play_action", (PyCFunction)GameState_play_action, METH_O,
     "play_action(action): plays a legal action of any kind; ValueError otherwise."},
    {"play_or_forfeit", (PyCFunction)GameState_play_or_forfeit, METH_O,
     "play_or_forfeit(action) -> True if played; an illegal action loses the game (False)."},
    {"concede", (PyCFunction)GameState_concede, METH_VARARGS,
     "concede(reason, player): ends the game: 'resigned' or 'timeout' (player loses), 'agreed_draw'."},
    {"captured", (PyCFunction)GameState_captured, METH_O, "captured(player): types of its captured pieces."},
    {"cells", (PyCFunction)GameState_cells, METH_NOARGS, "3 bytes a square: owner, type, flags."},
    {"piece_types", (PyCFunction)GameState_piece_types, METH_O,
     "piece_types(player): the type of each of the player's pieces, in id (placing) order."},
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

PyTypeObject GameStateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "stratego._core.GameState",
    .tp_basicsize = sizeof(GameStateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One game's state and rules (use stratego.Game).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)GameState_init,
    .tp_methods = GameState_methods,
};
