/* vec_binding.h: the game-agnostic half of an env's Python type, as vec.h is of its C
 * batch: the NumPy API table, the complete check of an array the env writes in place,
 * the guards of an object whose calls release the GIL (busy, closed, never initialised,
 * re-entered), the nine output arrays of every batch, and the private copy of the
 * actions a step plays. The one batch type of every game (batch_glue.h) is built on
 * it; a game's binding (batch_type.c, castle_batch.c, the test game's
 * tests/c/tiny_binding.c) adds its settings, observations and methods there.
 *
 * The NumPy API table lives in vec_binding.c (it defines BINDING_IMPORTS_NUMPY); a
 * module's init fills it with vec_binding_import_numpy().
 */
#ifndef STRATEGO_VEC_BINDING_H
#define STRATEGO_VEC_BINDING_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
/* One NumPy API table for all the files of a module. */
#define PY_ARRAY_UNIQUE_SYMBOL stratego_ARRAY_API
#ifndef BINDING_IMPORTS_NUMPY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "engine/vec.h"

/* Fills the module's NumPy API table (once, in the module's init). 0, or -1 with an
 * exception. */
int vec_binding_import_numpy(void);

/* Checks an output array completely: ndarray, dtype, C-contiguous, aligned, writeable,
 * and exactly `shape`. 0, or -1 with an exception naming `name`. */
int check_array_shape(PyObject *obj, const char *name, int typenum, int ndim, const npy_intp *shape);

/* Shorthand for (n,) and (n, d1) arrays (d1 0: one dimension). */
int check_out_array(PyObject *obj, const char *name, int typenum, npy_intp n, npy_intp d1);

/* Checks an array of observations: the leading dimensions `lead` (e.g. num_envs, and 2
 * for both players' views), then one observation's shape `dims` as its spec gives it,
 * so no caller spells a board size. */
int check_obs_array(PyObject *obj, const char *name, int typenum, const npy_intp *lead, int nlead,
                    const int64_t *dims, int ndims);

/* Life cycle of an env object: made by __new__ (not ready: refuses every call), then
 * __init__ once, then close() (closed). A call that releases the GIL marks it busy. A
 * Python-level call that writes the env's buffers over several binding calls (VecShell's
 * step, reset, load_state) claims it first, so that another thread's call is refused
 * before it writes anything those calls share, and releases it at the end.
 *
 * fork(): the child has only the thread that forked. An env that another thread was
 * inside (busy or claimed) is interrupted there: its games may be half-played. The
 * guard knows it by the fork generation it was entered in (a pthread_atfork child
 * handler counts forks and notes the thread that forked), not by the thread id alone,
 * which a thread the child starts may share with the gone one: such an env may be
 * closed from any thread of the child, and every other call says why it is refused,
 * never "another thread" or "re-entrant", which it is not. */
typedef struct {
    int busy;                 /* set while a call runs without the GIL */
    int claimed;              /* set between claim() and release() */
    unsigned long owner;      /* the thread that set busy or claimed */
    unsigned long generation; /* the fork generation it did so in (vec_binding.c) */
    int closed;
} VecGuard;

/* 0 if the env may be read now: ready (initialised), open, not inside a call that
 * released the GIL, and not claimed by another thread. -1 with an exception otherwise.
 * Call it after every argument is converted, since a conversion can close or step the
 * env. */
int vec_guard_idle(const VecGuard *g, int ready);

/* vec_guard_idle, then marks the env busy for a call that releases the GIL. */
int vec_guard_enter(VecGuard *g, int ready);

static inline void vec_guard_leave(VecGuard *g) { g->busy = 0; }

/* vec_guard_idle, then claims the env for the calling thread until vec_guard_release;
 * -1 with an exception if it is already this thread's (a re-entrant call). */
int vec_guard_claim(VecGuard *g, int ready);

/* Ends this thread's claim. -1 with an exception if it holds none. */
int vec_guard_release(VecGuard *g);

/* Marks the env closed, or -1 with an exception while a call is inside it (one that a
 * fork interrupted does not count: its thread is not in this process). */
int vec_guard_close(VecGuard *g);

/* The arrays every batch writes (vec.h's VecOutputs but obs and final_obs), in the order
 * of their keywords (batch_glue.h's GLUE_OUTPUT_KEYWORDS). */
enum {
    VEC_OUT_MASK, VEC_OUT_REWARDS, VEC_OUT_REWARD, VEC_OUT_TERMINATED, VEC_OUT_TRUNCATED, VEC_OUT_TO_PLAY,
    VEC_OUT_FINAL_WINNER, VEC_OUT_FINAL_REASON, VEC_OUT_FINAL_PLIES, VEC_OUT_NB
};

/* 0 if every array (NULL ones skipped) is still writeable: the caller owns them and may
 * have set writeable=False since __init__; otherwise -1 with an exception naming it
 * (names[k]). */
int vec_arrays_writeable(PyObject *const *arrays, const char *const *names, int n);

/* The actions of a step as a private int64 copy, made before the env is checked (the
 * actions are checked, the GIL released, then they are played, and neither the caller
 * nor a subclass hook may change them in between). *from_unsigned: the caller's array
 * was unsigned (values past INT64_MAX wrapped in the cast). NULL with an exception if
 * obj is not an integer array. */
PyArrayObject *vec_actions_copy(PyObject *obj, int *from_unsigned);

/* 0 if the actions have shape (n,), else -1 with an exception. */
int vec_actions_check_shape(PyArrayObject *actions, npy_intp n);

/* Sets the exception for action a[bad] out of [0, num_actions). */
void vec_actions_out_of_range(const int64_t *a, int64_t bad, int from_unsigned, int num_actions);

/* Arguments every game's binding converts (vec_binding.c). An integer (int or __index__,
 * not a bool) in [lo, hi]; `expected` says what is wanted (NULL: "an int in [lo, hi]").
 * 0, or -1 with TypeError or ValueError naming `name`. */
int parse_int_in(PyObject *obj, const char *name, long lo, long hi, const char *expected, long *out);
/* The one seed rule of every game: an integer in [0, 2**64), never wrapped. */
int parse_seed(PyObject *obj, uint64_t *out);
/* reset_some(reset_mask, seed)'s arguments, as every batch takes them: seed None lets the
 * games' streams go on (*reseed 0), an int seeds them again. The mask is only borrowed
 * here: the caller checks it (check_out_array, bool, num_envs) after its state checks,
 * as checking it runs no Python code. */
int parse_reset_some(PyObject *args, PyObject **mask, int *reseed, uint64_t *seed);

/* Adds the module attribute `attr`, the tuple of the names name_of(0..n-1): a C table's
 * names. 0, or -1 with an exception. */
int add_names(PyObject *m, const char *attr, const char *(*name_of)(int), int n);

#endif
