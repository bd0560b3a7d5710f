/* castle_batch.c: _core.CastleBatch, N castle games stepped together (csrc/castle/
 * castle_vec.h): the castle game's table for the one batch type (batch_glue.h), its own
 * method game_state, and the observation's tables for Python. stratego.castle.VecEnv
 * wraps it on stratego.vec_shell.VecShell.
 */
#include "castle_binding.h"

#include <string.h>

#include "castle/castle_observe.h"
#include "castle/castle_vec.h"
#include "castle/castle_bot.h"
#include "castle/castle_vec_bot.h"
#include "castle/castle_view.h"

/* CastleBatch(num_envs, num_threads, mask, rewards, reward, terminated, truncated, to_play,
 *             final_winner, final_reason, final_plies, settings, obs=None, final_obs=None,
 *             obs_format=0, mask_bits=0, autoreset=0)
 * obs_format: 0 none, 1 planes (C, 15, 15), 2 codes (CASTLE_CODES_BYTES,), both uint8. */
#define CASTLE_KEYWORDS(X)                               \
    X(NUM_ENVS, "num_envs", GLUE_OPTION, 1, NULL)        \
    X(NUM_THREADS, "num_threads", GLUE_THREADS, 1, NULL) \
    GLUE_OUTPUT_KEYWORDS(X)                              \
    X(SETTINGS, "settings", GLUE_OPTION, 1, NULL)        \
    X(OBS, "obs", GLUE_ARRAY, 0, NULL)                   \
    X(FINAL_OBS, "final_obs", GLUE_ARRAY, 0, NULL)       \
    X(OBS_FORMAT, "obs_format", GLUE_OPTION, 0, NULL)    \
    X(MASK_BITS, "mask_bits", GLUE_OPTION, 0, NULL)      \
    X(AUTORESET, "autoreset", GLUE_OPTION, 0, NULL)

enum { CASTLE_KEYWORDS(GLUE_KEYWORD_ENUM) KW_NB };
static const GlueKeyword KEYWORDS[KW_NB] = {CASTLE_KEYWORDS(GLUE_KEYWORD_ROW)};
_Static_assert(KW_FINAL_OBS == KW_OBS + 1, "obs, final_obs (glue_outputs_point)");

typedef struct {
    int num_envs, obs_format, mask_bits, autoreset;
    CastleSettings cfg;
} CastleConfig;

static int glue_castle_parse(void *cv, PyObject *const *v, PyObject **keep) {
    CastleConfig *c = cv;
    long n, obs_format = CASTLE_OBS_FORMAT_NONE, autoreset = AUTORESET_SAME_STEP;
    int mask_bits = glue_flag(v[KW_MASK_BITS], 0);
    (void)keep;
    if (mask_bits < 0 || castle_settings_parse(v[KW_SETTINGS], &c->cfg) < 0 ||
        parse_int_in(v[KW_NUM_ENVS], "num_envs", 1, BATCH_MAX_ENVS, NULL, &n) < 0)
        return -1;
    if (v[KW_OBS_FORMAT] != NULL && parse_int_in(v[KW_OBS_FORMAT], "obs_format", CASTLE_OBS_FORMAT_NONE,
                                                 CASTLE_OBS_FORMAT_CODES, "0 (none), 1 (planes) or 2 (codes)",
                                                 &obs_format) < 0)
        return -1;
    if (v[KW_AUTORESET] != NULL && parse_int_in(v[KW_AUTORESET], "autoreset", AUTORESET_SAME_STEP, AUTORESET_DISABLED,
                                                "0, 1 or 2 (AUTORESET_*)", &autoreset) < 0)
        return -1;
    c->num_envs = (int)n;
    c->obs_format = (int)obs_format;
    c->mask_bits = mask_bits;
    c->autoreset = (int)autoreset;
    return 0;
}

static int glue_castle_layout(const void *cv, PyObject *const *v, GlueLayout *l) {
    const CastleConfig *c = cv;
    int views = c->obs_format != CASTLE_OBS_FORMAT_NONE;
    if (v != NULL && (views != (v[KW_OBS] != NULL && v[KW_OBS] != Py_None) ||
                      views != (v[KW_FINAL_OBS] != NULL && v[KW_FINAL_OBS] != Py_None))) {
        PyErr_SetString(PyExc_ValueError, "obs and final_obs are given exactly when obs_format is not 0");
        return -1;
    }
    VecShape shape = castle_batch_shape(c->num_envs, &c->cfg, c->obs_format, c->mask_bits);
    glue_layout_outputs(l, KW_MASK, &shape, c->mask_bits ? NPY_UINT8 : NPY_BOOL);
    l->num_actions = castle_geometry(c->cfg.mode)->actions;
    if (views) {
        int64_t planes[3] = {CASTLE_OBS_CHANNELS, CASTLE_OBS_SIDE, CASTLE_OBS_SIDE}, codes[1] = {CASTLE_CODES_BYTES};
        int is_planes = c->obs_format == CASTLE_OBS_FORMAT_PLANES;
        npy_intp lead[1] = {c->num_envs};
        glue_layout_add(l, KW_OBS, NPY_UINT8, lead, 1, is_planes ? planes : codes, is_planes ? 3 : 1);
        glue_layout_add(l, KW_FINAL_OBS, NPY_UINT8, lead, 1, is_planes ? planes : codes, is_planes ? 3 : 1);
    }
    l->held_bytes = (size_t)c->num_envs * castle_batch_game_bytes(&c->cfg);
    return 0;
}

static int glue_castle_init(void *b, const void *cv, void *const *data) {
    const CastleConfig *c = cv;
    VecOutputs out;
    glue_outputs_point(&out, data, KW_MASK, KW_OBS);
    return castle_batch_init(b, c->num_envs, &c->cfg, c->obs_format, c->mask_bits, c->autoreset, &out);
}

static void glue_castle_free(void *b) { castle_batch_free(b); }

static void glue_castle_reset_some(void *b, const uint8_t *mask, int reseed, uint64_t seed, int threads) {
    castle_batch_reset_some(b, mask, reseed, seed, threads);
}

static int glue_castle_over(const void *b, int64_t i) { return ((const CastleBatch *)b)->states[i].done; }

/* The castle game has no rule for an illegal action: every step checks them (ILLEGAL_RAISE only). */
static int glue_castle_legal(const void *b, int64_t i, int64_t a) { return castle_batch_legal(b, i, a); }

static void glue_castle_illegal_reason(const void *bv, int64_t i, int64_t a, int code, char *why, size_t len) {
    const CastleBatch *b = bv;
    (void)code;
    castle_check(&b->states[i], &b->cfg, (int)a, why, len);
}

static int glue_castle_step(void *b, const int64_t *a, int mode, int threads) {
    (void)mode;
    castle_batch_step(b, a, threads);
    return 0;
}

static void glue_castle_sample(void *b, int64_t *out, int threads) { castle_batch_sample(b, out, threads); }

static PyObject *glue_castle_stats(const void *bv) {
    const CastleBatch *b = bv;
    return glue_tally_stats(&b->stats, b->seats);
}

static size_t glue_castle_save_bytes(const void *b) { return castle_save_bytes(b); }
static void glue_castle_save_write(const void *b, uint8_t *out) { castle_save_write(b, out); }
static int glue_castle_save_check(const void *b, const uint8_t *d, size_t len, char *err, size_t err_len) {
    return castle_save_check(b, d, len, err, err_len);
}
static void glue_castle_save_read(void *b, const uint8_t *d) { castle_save_read(b, d); }
static void glue_castle_write_outputs(void *b, int threads) { castle_batch_write_outputs(b, threads); }

static int glue_castle_bot_kind(PyObject *name) {
    const char *text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
    if (text == NULL && PyErr_Occurred()) return -1;
    int kind = text != NULL ? castle_bot_kind_from_name(text) : -1;
    if (kind >= 0) return kind;
    if (text != NULL) PyErr_Format(PyExc_ValueError, "unknown castle bot %R; expected 'random' or 'heuristic'", name);
    else PyErr_Format(PyExc_TypeError, "a castle bot is named by a str ('random' or 'heuristic'), got %s",
                      Py_TYPE(name)->tp_name);
    return -1;
}

static void glue_castle_bot_actions(void *b, int kind, const uint8_t *games, int64_t *out, int threads) {
    castle_batch_bot_actions(b, kind, games, out, threads);
}

/* game_state(i) -> (settings tuple, state bytes): game i as CastleGame.from_state takes it. */
static PyObject *CastleBatch_game_state(PyObject *self, PyObject *arg) {
    Py_ssize_t i = PyNumber_AsSsize_t(arg, PyExc_IndexError);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (glue_idle(self) < 0) return NULL;
    const CastleBatch *b = glue_batch(self);
    if (i < 0 || i >= b->num_envs) {
        PyErr_Format(PyExc_IndexError, "game index must be in [0, %d), got %zd", b->num_envs, i);
        return NULL;
    }
    PyObject *settings = castle_settings_build(&b->cfg);
    if (settings == NULL) return NULL;
    return Py_BuildValue("(Ny#)", settings, (const char *)&b->states[i], (Py_ssize_t)sizeof(CastleState));
}

static const PyMethodDef CASTLE_METHODS[] = {
    {"game_state", CastleBatch_game_state, METH_O, "game_state(i) -> (settings, state bytes)."},
    {NULL, NULL, 0, NULL},
};

static const GlueGame CASTLE = {
    .name = "CastleBatch",
    .keywords = KEYWORDS,
    .num_keywords = KW_NB,
    .batch_size = sizeof(CastleBatch),
    .config_size = sizeof(CastleConfig),
    .parse = glue_castle_parse,
    .layout = glue_castle_layout,
    .init = glue_castle_init,
    .free = glue_castle_free,
    .reset_some = glue_castle_reset_some,
    .over = glue_castle_over,
    .legal = glue_castle_legal,
    .illegal_reason = glue_castle_illegal_reason,
    .step = glue_castle_step,
    .sample = glue_castle_sample,
    .stats = glue_castle_stats,
    .save_bytes = glue_castle_save_bytes,
    .save_write = glue_castle_save_write,
    .save_check = glue_castle_save_check,
    .save_read = glue_castle_save_read,
    .write_outputs = glue_castle_write_outputs,
    .bot_kind = glue_castle_bot_kind,
    .bot_actions = glue_castle_bot_actions,
    .methods = CASTLE_METHODS,
};

static GlueType CASTLE_BATCH_TYPE;

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
    if (glue_type_ready(&CASTLE_BATCH_TYPE, &CASTLE, "stratego._core.CastleBatch",
                        "N castle games stepped together (use stratego.castle.VecEnv).") < 0 ||
        PyModule_AddType(m, &CASTLE_BATCH_TYPE.type) < 0)
        return -1;
    if (PyModule_AddFunctions(m, CASTLE_BATCH_FUNCTIONS) < 0) return -1;
    if (PyModule_AddIntConstant(m, "CASTLE_OBS_CHANNELS", CASTLE_OBS_CHANNELS) < 0 ||
        PyModule_AddIntConstant(m, "CASTLE_CODES_BYTES", CASTLE_CODES_BYTES) < 0 ||
        PyModule_AddIntConstant(m, "CASTLE_OBS_SIDE", CASTLE_OBS_SIDE) < 0 ||
        PyModule_AddIntConstant(m, "CASTLE_OBS_VERSION", CASTLE_OBS_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "CASTLE_SAVE_VERSION", CASTLE_SAVE_VERSION) < 0)
        return -1;
    return 0;
}
