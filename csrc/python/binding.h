/* binding.h: what the files of the CPython extension `stratego._core` share. These
 * files (csrc/python/) are the only ones that include Python.h or NumPy: they convert and
 * check, and hold no rule; every decision about the game is made by the C core.
 *
 *   args.c        converting and checking arguments and arrays
 *   game_type.c   _core.GameState, one game
 *   batch_type.c  _core.Batch, N games stepped together
 *   module.c      the module: its functions, constants and types
 *   vec_binding.c what any game's binding shares (vec_binding.h)
 *
 * Style: every call that can fail is checked; functions have one exit (locals start
 * NULL, failures `goto done`, cleanup at the end); messages name the argument and say
 * what was expected and what came. Every entry point converts all its arguments first
 * (a conversion can run Python code), then checks state, then acts.
 */
#ifndef STRATEGO_BINDING_H
#define STRATEGO_BINDING_H

/* Python, NumPy (one API table for all the files; module.c imports it), the array
 * checks, guards and outputs every game's binding shares. */
#include "vec_binding.h"

#include "batch.h"
#include "rules.h"
#include "setup.h"
#include "types.h"

/* Names of the end reasons, index = EndReason ("" for none). */
extern const char *const END_REASON_NAMES[END_REASON_NB];

typedef struct {
    PyObject_HEAD
    GameState state;
    Rules rules;
    /* The stream bot_action() draws on: seeded with the game (bot_seed_stream), so a
     * game's bot moves follow from its seed. */
    uint64_t bot_rng;
    int ready; /* 1 once state and rules are valid: __new__ alone leaves zeros, not rules */
} GameStateObject;

/* Limits of a Batch, exported to Python (MAX_ENVS, MAX_THREADS) for its own checks. */
enum { BATCH_MAX_ENVS = 1 << 26, BATCH_MAX_THREADS = 4096 };

extern PyTypeObject GameStateType;
extern PyTypeObject BatchType;

/* args.c */
int obs_spec_parse(long history_k, int probabilities, int as_float, int codes, const Rules *r, ObsSpec *spec);
int parse_action(PyObject *obj, int *out);
int parse_bot(PyObject *obj, int *out);
int parse_history_k(PyObject *obj, long *out);
int parse_int_in(PyObject *obj, const char *name, long lo, long hi, const char *expected, long *out);
int parse_player(PyObject *obj, const char *name, int *out);
int parse_seed(PyObject *obj, uint64_t *out);
int parse_square(PyObject *obj, const char *name, int *out);
int rules_from_dict(PyObject *dict, Rules *r);
int setup_table_parse(PyObject *obj, const Rules *r, SetupTable *table);

#endif
