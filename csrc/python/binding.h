/* binding.h: what the files of the CPython extension `stratego._core` share. These
 * files (csrc/python/) are the only ones that include Python.h or NumPy: they convert and
 * check, and hold no rule; every decision about the game is made by the C core.
 *
 *   args.c        converting and checking arguments and arrays
 *   game_type.c   _core.GameState, one game
 *   batch_glue.c  the one batch type of every game (batch_glue.h)
 *   batch_type.c  _core.Batch, N classic games stepped together (the classic table)
 *   module.c      the module: its functions, constants and types
 *   vec_binding.c what any game's binding shares (vec_binding.h)
 *   record_binding.c  the recorded games a Batch hands out (pop_records)
 *
 * Style: every call that can fail is checked; messages name the argument and say what
 * was expected and what came. Every entry point converts all its arguments first (a
 * conversion can run Python code), then checks state, then acts.
 *
 * Exits, one rule: a function that can fail while it holds something to give back (a
 * new reference, memory, a Batch's busy flag) has one exit: those locals start NULL (or
 * 0), every failure does `goto done`, and the code after `done:` releases them all, on
 * success as on failure. A function whose failures all come before it takes anything
 * (a parser that writes through an out pointer, a method that checks its arguments and
 * then acts) returns NULL or -1 where it fails: there is nothing to release, and a
 * `goto done` would only hide that. So an early return after an acquisition is a bug.
 */
#ifndef STRATEGO_BINDING_H
#define STRATEGO_BINDING_H

/* Python, NumPy (one API table for all the files; module.c imports it), the array
 * checks, guards and outputs every game's binding shares. */
#include "batch_glue.h"
#include "vec_binding.h"

#include "stratego/batch.h"
#include "stratego/rules.h"
#include "stratego/setup.h"
#include "stratego/types.h"

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
enum { BATCH_MAX_ENVS = 1 << 26, BATCH_MAX_THREADS = GLUE_MAX_THREADS };

/* Worlds one call may ask for, per game (sample_worlds). */
enum { SAMPLE_WORLDS_MAX = 1 << 16 };

/* GameState.cells(): the owner byte of a square without a piece (0 red, 1 blue else). */
enum { CELLS_EMPTY = PLAYER_NB, CELLS_LAKE = PLAYER_NB + 1 };

extern PyTypeObject GameStateType;

/* args.c */
int deploy_sides_parse(PyObject *obj, const Rules *r, int *out);
int obs_spec_parse(long history_k, int probabilities, int as_float, int codes, const Rules *r, ObsSpec *spec);
int parse_action(PyObject *obj, int *out);
int parse_bot(PyObject *obj, int *out);
int parse_field(PyObject *obj, const char *prefix, const char **field, Py_ssize_t *len);
int parse_history_k(PyObject *obj, long *out);
int parse_num_envs(PyObject *obj, long *out);
int parse_player(PyObject *obj, const char *name, int *out);
int parse_square(PyObject *obj, const char *name, int *out);
int rules_from_dict(PyObject *dict, Rules *r);
int setup_table_parse(PyObject *obj, const Rules *r, SetupTable *table);

/* record_binding.c: the games queued in rec as a dict of NumPy columns (Batch.pop_records
 * documents them); the queue is emptied only on success. A new reference, or NULL with an
 * exception. */
PyObject *records_pop(Recorder *rec);

/* batch_type.c: adds the classic batch (Batch, batch_glue.h). */
int batch_binding_add(PyObject *m);
/* castle_game.c: adds the castle game's type, functions and constants to the module. */
int castle_binding_add(PyObject *m);
/* castle_batch.c: adds the castle batch (CastleBatch) and the observation's tables. */
int castle_batch_binding_add(PyObject *m);

#endif
