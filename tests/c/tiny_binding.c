/* tiny_binding.c: the test game of tiny_game.h as a Python extension, `_tiny` (built by
 * tests/test_second_game.py, never installed). What a game's binding costs: its keywords,
 * options, layout and the table of its functions; the type, checks, guards and methods
 * are the glue's (csrc/python/batch_glue.h). tests/tiny_env.py wraps it in VecShell. */
#include "python/batch_glue.h"
#include "tiny_game.h"

#define TINY_KEYWORDS(X)                                                                                   \
    X(NUM_ENVS, "num_envs", GLUE_OPTION, 1, NULL) X(NUM_THREADS, "num_threads", GLUE_THREADS, 1, NULL)     \
    GLUE_OUTPUT_KEYWORDS(X) X(OBS, "obs", GLUE_CHOSEN, 0, NULL) X(FINAL_OBS, "final_obs", GLUE_ARRAY, 0, NULL) \
    X(AUTORESET, "autoreset", GLUE_OPTION, 0, NULL) X(MAX_PLIES, "max_plies", GLUE_OPTION, 0, NULL)
enum { TINY_KEYWORDS(GLUE_KEYWORD_ENUM) KW_NB };
static const GlueKeyword KEYWORDS[KW_NB] = {TINY_KEYWORDS(GLUE_KEYWORD_ROW)};

typedef struct { long num_envs, autoreset, max_plies; int views; } TinyConfig;

static int parse(void *cv, PyObject *const *v, PyObject **keep) {
    TinyConfig *c = cv;
    (void)keep; /* the games read no Python object */
    *c = (TinyConfig){.autoreset = AUTORESET_SAME_STEP, .max_plies = 50};
    c->views = glue_given(v[KW_OBS]);
    if (parse_int_in(v[KW_NUM_ENVS], "num_envs", 1, 1 << 20, NULL, &c->num_envs) < 0) return -1;
    if (v[KW_AUTORESET] && parse_int_in(v[KW_AUTORESET], "autoreset", 0, AUTORESET_DISABLED, NULL, &c->autoreset) < 0)
        return -1;
    return v[KW_MAX_PLIES] ? parse_int_in(v[KW_MAX_PLIES], "max_plies", 0, INT32_MAX, NULL, &c->max_plies) : 0;
}

/* final_obs without obs is refused by the glue: this layout does not write it. */
static int layout(const void *cv, PyObject *const *v, GlueLayout *l) {
    const TinyConfig *c = cv;
    (void)v;
    int64_t dims[1] = {TINY_OBS_BYTES};
    npy_intp lead[1] = {c->num_envs};
    VecShape shape = tiny_shape((int)c->num_envs, c->views);
    glue_layout_outputs(l, KW_MASK, &shape, NPY_BOOL);
    l->num_actions = TINY_ACTIONS;
    for (int k = KW_OBS; c->views && k <= KW_FINAL_OBS; k++)
        glue_layout_add(l, k, NPY_UINT8, lead, 1, dims, 1);
    l->held_bytes = (size_t)c->num_envs * (sizeof(TinyState) + sizeof(uint64_t));
    return 0;
}

static int init(void *b, const void *cv, void *const *data) {
    const TinyConfig *c = cv;
    VecOutputs out;
    glue_outputs_point(&out, data, KW_MASK, KW_OBS);
    return tiny_batch_init(b, (int)c->num_envs, (TinyRules){(uint32_t)c->max_plies}, c->views, (int)c->autoreset, &out);
}

/* A uniformly random set entry of each game's mask row, from its own stream; -1 where none. */
static void sample(void *bv, int64_t *out, int threads) {
    TinyBatch *b = bv;
    (void)threads; /* a plain loop: the test game needs no pool here */
    for (int64_t i = 0; i < b->num_envs; i++)
        out[i] = vec_mask_sample(b->out.mask + i * TINY_ACTIONS, TINY_ACTIONS, &b->sample_rng[i]);
}

/* The core's functions, on the glue's untyped batch. */
static void batch_free(void *b) { tiny_batch_free(b); }
static void reset_some(void *b, const uint8_t *m, int r, uint64_t s, int t) { tiny_batch_reset_some(b, m, r, s, t); }
static int step(void *b, const int64_t *a, int mode, int threads) { return tiny_batch_step(b, a, mode, threads), 0; }
static int legal(const void *b, int64_t i, int64_t a) { return tiny_legal(&((const TinyBatch *)b)->states[i], a); }
static PyObject *stats(const void *b) { return glue_tally_stats(&((const TinyBatch *)b)->stats, TINY_SEATS); }
static size_t save_bytes(const void *b) { return tiny_save_bytes(b); }
static void save_write(const void *b, uint8_t *out) { tiny_save_write(b, out); }
static int save_check(const void *b, const uint8_t *d, size_t n, char *e, size_t l) {
    return tiny_save_check(b, d, n, e, l);
}
static void save_read(void *b, const uint8_t *d) { tiny_save_read(b, d); }
static void write_outputs(void *b, int threads) { tiny_batch_write_outputs(b, threads); }

static const GlueGame TINY = {
    .name = "Batch", .keywords = KEYWORDS, .num_keywords = KW_NB, .batch_size = sizeof(TinyBatch),
    .config_size = sizeof(TinyConfig), .parse = parse, .layout = layout, .init = init, .free = batch_free,
    .reset_some = reset_some, .illegal_loses = 1,
    .over = tiny_hook_over, .legal = legal, .step = step, .sample = sample, .stats = stats,
    .save_bytes = save_bytes, .save_write = save_write, .save_check = save_check, .save_read = save_read,
    .write_outputs = write_outputs};
static GlueType TINY_TYPE;

static int tiny_exec(PyObject *m) {
    if (glue_type_ready(&TINY_TYPE, &TINY, "_tiny.Batch", "The test game's batch (tests/tiny_env.py).") < 0 ||
        PyModule_AddObjectRef(m, "Batch", (PyObject *)&TINY_TYPE) < 0 ||
        PyModule_AddIntConstant(m, "NUM_ACTIONS", TINY_ACTIONS) < 0 || PyModule_AddIntConstant(m, "CELLS", TINY_CELLS) < 0 ||
        PyModule_AddIntConstant(m, "NUM_PLAYERS", TINY_SEATS) < 0)
        return -1;
    return PyModule_AddIntConstant(m, "OBS_BYTES", TINY_OBS_BYTES);
}

static PyModuleDef_Slot tiny_slots[] = {{Py_mod_exec, tiny_exec}, {0, NULL}};
static struct PyModuleDef tiny_module = {PyModuleDef_HEAD_INIT, .m_name = "_tiny", .m_slots = tiny_slots};

PyMODINIT_FUNC PyInit__tiny(void) { return vec_binding_import_numpy() < 0 ? NULL : PyModuleDef_Init(&tiny_module); }
