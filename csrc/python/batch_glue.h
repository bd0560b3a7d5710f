/* batch_glue.h: the one Python batch type of every game (_core.Batch, _core.CastleBatch,
 * the test game's _tiny.Batch), written once, as PufferLib's env_binding.h is for its
 * envs: a game brings its functions in a GlueGame table, the glue does the rest.
 *
 * What the glue owns: __init__'s argument parsing (the game's keyword table), the
 * complete check of every array the batch writes against the layout the game answers
 * for its configuration, the life cycle and guards (vec_binding.h: busy, claimed,
 * closed, fork), the private copy of a step's actions and its refusals, the GIL
 * released around every loop, the methods every batch has (reset, reset_some, step,
 * sample_actions, games_over, stats, save, restore, claim, release, close, and
 * bot_actions for a game with bots), the attributes closed and num_threads, and the
 * classmethod layout(), which tells Python every output array's name, shape, dtype and
 * bytes for a configuration, so Python allocates them and counts memory from C's answer.
 *
 * What a game brings (docs/architecture.md "How to add a game"): its keywords, a
 * parser of its options, its layout, init/free, and its batch's functions (C core);
 * its own methods and attributes are appended to the common ones.
 */
#ifndef STRATEGO_BATCH_GLUE_H
#define STRATEGO_BATCH_GLUE_H

#include <stddef.h>

#include "engine/pool.h"
#include "vec_binding.h"

enum {
    GLUE_KEYWORDS_MAX = 40, /* __init__'s keywords of a game */
    GLUE_ARRAYS_MAX = 16,   /* output arrays of one layout */
    GLUE_NDIM_MAX = 5,      /* dimensions of one output array */
    GLUE_METHODS_MAX = 32,  /* common and game methods together */
    GLUE_GETSET_MAX = 8,
};

/* What an __init__ keyword is: an option of the game; an output array the batch writes
 * (its options decide whether; not taken by layout()); an optional array written exactly
 * when the caller gives it (layout() takes a bool under its name: Batch's full_obs); or
 * num_threads (the glue's own, not taken by layout()). */
enum { GLUE_OPTION, GLUE_ARRAY, GLUE_CHOSEN, GLUE_THREADS };

/* Whether an array keyword was given: an array (or, for GLUE_CHOSEN under layout(), True);
 * absent, None and False are not. */
static inline int glue_given(PyObject *obj) { return obj != NULL && obj != Py_None && obj != Py_False; }

/* A truth-valued option of values[] (PyArg's "p"): `fallback` when absent, else the
 * object's truth. 0/1, or -1 with an exception. */
static inline int glue_flag(PyObject *obj, int fallback) { return obj == NULL ? fallback : PyObject_IsTrue(obj); }

/* The most threads a batch takes (the Python layer resolves 0 first): the pool's own limit,
 * so the number is written once (csrc/engine/pool.h). */
enum { GLUE_MAX_THREADS = POOL_MAX_THREADS };

typedef struct {
    const char *name;
    int kind;              /* GLUE_OPTION, GLUE_ARRAY, GLUE_CHOSEN or GLUE_THREADS */
    int required;          /* a required positional argument (the required ones come first) */
    const char *attribute; /* an array's name in "was made read-only" messages; NULL: name */
} GlueKeyword;

/* A game lists its keywords once, as an X-macro of rows (id, keyword, kind, required,
 * attribute); these make its enum (KW_<id>) and its table from it:
 *   enum { GAME_KEYWORDS(GLUE_KEYWORD_ENUM) KW_NB };
 *   static const GlueKeyword KEYWORDS[KW_NB] = {GAME_KEYWORDS(GLUE_KEYWORD_ROW)};  */
#define GLUE_KEYWORD_ENUM(id, name, kind, required, attribute) KW_##id,
#define GLUE_KEYWORD_ROW(id, name, kind, required, attribute) {name, kind, required, attribute},

/* The nine arrays every batch writes, in VEC_OUT order (vec_binding.h), as keyword rows:
 * a game's list names them with GLUE_OUTPUT_KEYWORDS(X) where they go. In messages the
 * mask is VecShell's attribute, action_mask. */
#define GLUE_OUTPUT_KEYWORDS(X)                            \
    X(MASK, "mask", GLUE_ARRAY, 1, "action_mask")          \
    X(REWARDS, "rewards", GLUE_ARRAY, 1, NULL)             \
    X(REWARD, "reward", GLUE_ARRAY, 1, NULL)               \
    X(TERMINATED, "terminated", GLUE_ARRAY, 1, NULL)       \
    X(TRUNCATED, "truncated", GLUE_ARRAY, 1, NULL)         \
    X(TO_PLAY, "to_play", GLUE_ARRAY, 1, NULL)             \
    X(FINAL_WINNER, "final_winner", GLUE_ARRAY, 1, NULL)   \
    X(FINAL_REASON, "final_reason", GLUE_ARRAY, 1, NULL)   \
    X(FINAL_PLIES, "final_plies", GLUE_ARRAY, 1, NULL)

/* One output array of a batch: the keyword it is passed by, its dtype and shape. */
typedef struct {
    int keyword;
    int typenum; /* NPY_* */
    int ndim;
    npy_intp shape[GLUE_NDIM_MAX];
} GlueArray;

/* Every array a batch of one configuration writes, and the memory it holds itself
 * (states, streams, records: what the memory check adds to the arrays). */
typedef struct {
    int n;
    GlueArray arrays[GLUE_ARRAYS_MAX];
    size_t held_bytes;
    int num_envs, num_actions; /* the games, and the range of an action */
} GlueLayout;

/* Adds an array of shape lead (nlead dimensions) + dims (ndims), as an observation's
 * spec gives them. */
void glue_layout_add(GlueLayout *l, int keyword, int typenum, const npy_intp *lead, int nlead, const int64_t *dims,
                     int ndims);

/* Adds the nine arrays every batch writes (vec_binding.h's VEC_OUT_*, vec.h's VecOutputs
 * but obs), passed by keywords first .. first + 8 in VEC_OUT order: the mask of
 * mask_type (bool, or uint8 packed) and the sizes of shape; sets l->num_envs. */
void glue_layout_outputs(GlueLayout *l, int first, const VecShape *shape, int mask_type);

/* Points out at the nine arrays of data (by keyword, from KW_MASK = first), and obs and
 * final_obs at data[obs] and data[obs + 1] (NULL when not written). */
void glue_outputs_point(VecOutputs *out, void *const *data, int first, int obs);

/* stats() of a batch on vec.h's tally: {games_finished, wins (a tuple by seat), draws,
 * cap_draws (VecTally.marked), plies, checksum}. A new dict, or NULL with an exception. */
PyObject *glue_tally_stats(const VecTally *t, int seats);

/* The game's table. Every function receives its own batch (`b`, batch_size bytes) or
 * configuration (`c`, config_size bytes); the optional ones may be NULL. */
typedef struct {
    const char *name; /* the type's name in messages ("Batch") */
    const GlueKeyword *keywords;
    int num_keywords;
    size_t batch_size, config_size;

    /* Converts the options into c: values[k] is keyword k's object or NULL when not given
     * (arrays: NULL under layout()). Runs before any state is checked (a conversion can
     * run Python code). May set *keep to a new reference the batch holds while it lives
     * (a private copy the games read). 0, or -1 with an exception. */
    int (*parse)(void *c, PyObject *const *values, PyObject **keep);
    /* The arrays of c, and checks that the arrays given (values; NULL under layout())
     * are those c writes. 0, or -1 with an exception. */
    int (*layout)(const void *c, PyObject *const *values, GlueLayout *l);
    /* Makes b from c, writing into data[k] (keyword k's array, NULL if none). 0, or -1
     * when memory runs out (b then holds nothing). */
    int (*init)(void *b, const void *c, void *const *data);
    void (*free)(void *b); /* safe on a zeroed batch and twice */

    /* Resets the games where mask is set; mask NULL: every game, and the stats with them
     * (reset(), reseeded). */
    void (*reset_some)(void *b, const uint8_t *mask, int reseed, uint64_t seed, int threads);
    /* ILLEGAL_LOSES accepted by step (else only ILLEGAL_RAISE). */
    int illegal_loses;
    /* Whether game i has ended and waits (games_over(); a step ignores its action), and
     * whether action a (in range) is legal in game i. */
    int (*over)(const void *b, int64_t i);
    int (*legal)(const void *b, int64_t i, int64_t a);
    /* Optional, for a game that checks a step's actions on its threads: the first game
     * whose action a step refuses, or -1: *illegal 0 when the action is out of range,
     * else 1 and *code the game's reason. Runs without the GIL. NULL: the glue asks over
     * and legal of each game in turn. Not const: a search on the pool records its pace
     * in the batch (pool.h's PoolPaces). */
    int64_t (*find_refused)(void *b, const int64_t *a, int mode, int *illegal, int *code, int threads);
    /* Optional: why action a of game i is illegal, into why. */
    void (*illegal_reason)(const void *b, int64_t i, int64_t a, int code, char *why, size_t len);
    /* Plays; -1 if it refused (nothing played): then step_refused (required then) sets
     * the exception. */
    int (*step)(void *b, const int64_t *a, int mode, int threads);
    void (*step_refused)(const void *b);
    void (*sample)(void *b, int64_t *out, int threads);
    PyObject *(*stats)(const void *b); /* a new dict, or NULL with an exception */

    size_t (*save_bytes)(const void *b);
    void (*save_write)(const void *b, uint8_t *out);
    int (*save_check)(const void *b, const uint8_t *data, size_t len, char *err, size_t err_len);
    void (*save_read)(void *b, const uint8_t *data);
    void (*write_outputs)(void *b, int threads);
    /* Optional: -1 with an exception if the batch cannot `what` ("save", "load a save") now. */
    int (*save_refused)(const void *b, const char *what);

    /* Optional (bot_actions): a bot's kind from its name (-1 with an exception), and the
     * action the bot plays in each game `games` marks (NULL: every game; -1 elsewhere). */
    int (*bot_kind)(PyObject *name);
    void (*bot_actions)(void *b, int kind, const uint8_t *games, int64_t *out, int threads);

    const PyMethodDef *methods; /* the game's own, NULL-terminated, or NULL */
    const PyGetSetDef *getset;
} GlueGame;

/* A game's Python type: the type object and its table (the glue finds the table from
 * an object's type), with room for the merged methods. */
typedef struct {
    PyTypeObject type;
    const GlueGame *game;
    PyMethodDef methods[GLUE_METHODS_MAX];
    PyGetSetDef getset[GLUE_GETSET_MAX];
} GlueType;

/* An instance: the life cycle of vec_binding.h (ready after __init__, closed after
 * close()), the caller's arrays kept alive by keyword, and the game's batch. */
typedef struct {
    PyObject_HEAD
    const GlueGame *game;
    PyObject *arrays[GLUE_KEYWORDS_MAX];
    PyObject *keep;
    int num_envs, num_actions; /* the layout's */
    int num_threads;
    int ready;
    VecGuard guard;
    _Alignas(max_align_t) unsigned char batch[];
} GlueBatch;

/* Fills t from game (tp_name `qualname`, tp_doc `doc`) and readies it; then the caller
 * adds it to its module. 0, or -1 with an exception. */
int glue_type_ready(GlueType *t, const GlueGame *game, const char *qualname, const char *doc);

/* For a game's own methods: its batch, the guards (vec_binding.h), the thread count. */
static inline void *glue_batch(PyObject *self) { return ((GlueBatch *)self)->batch; }
static inline int glue_threads(PyObject *self) { return ((GlueBatch *)self)->num_threads; }
int glue_idle(PyObject *self);  /* vec_guard_idle */
int glue_enter(PyObject *self); /* vec_guard_enter */
void glue_leave(PyObject *self);
/* glue_idle, then out must be an int64 (or `typenum`) array of one entry a game. */
int glue_idle_out(PyObject *self, PyObject *out, const char *name, int typenum);

#endif
