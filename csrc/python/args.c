/* args.c: converting and checking the arguments and arrays of every entry point. */
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
#include "engine/pool.h"
#include "engine/rng.h"
#include "stratego/rules.h"
#include "stratego/save.h"
#include "stratego/view.h"

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

/* ValueError for a key of a rules dict that is neither piece_counts nor a setting of
 * RULE_SETTINGS: it names the key and the nearest known names (difflib, as
 * stratego.variants.unknown_name does), then all of them. Always -1. */
static int rules_unknown_key(PyObject *key) {
    PyObject *known = NULL, *difflib = NULL, *near = NULL, *sep = NULL, *shown = NULL;
    known = PyList_New(0);
    if (known == NULL) goto done;
    /* -1: piece_counts, then the settings in the list's order. */
    for (int k = -1; k < RULE_SETTING_NB; k++) {
        PyObject *name = PyUnicode_FromString(k < 0 ? "piece_counts" : RULE_SETTING_TABLE[k].name);
        int failed = name == NULL || PyList_Append(known, name) < 0;
        Py_XDECREF(name);
        if (failed) goto done;
    }
    if (PyUnicode_Check(key)) {
        difflib = PyImport_ImportModule("difflib");
        if (difflib == NULL) goto done;
        near = PyObject_CallMethod(difflib, "get_close_matches", "OO", key, known);
        if (near == NULL) goto done;
    }
    sep = PyUnicode_FromString(", ");
    if (sep == NULL) goto done;
    shown = PyUnicode_Join(sep, known);
    if (shown == NULL) goto done;
    if (near != NULL && PyList_Check(near) && PyList_GET_SIZE(near) > 0) {
        /* The names near it as repr's joined by " or ", as unknown_name writes them. */
        Py_ssize_t n = PyList_GET_SIZE(near);
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *text = PyObject_Repr(PyList_GET_ITEM(near, i));
            if (text == NULL) goto done;
            if (PyList_SetItem(near, i, text) < 0) goto done; /* steals text, drops the name */
        }
        Py_SETREF(sep, PyUnicode_FromString(" or "));
        if (sep == NULL) goto done;
        PyObject *hint = PyUnicode_Join(sep, near);
        if (hint == NULL) goto done;
        PyErr_Format(PyExc_ValueError, "unknown rule setting %.60R (did you mean %U?); expected one of %U",
                     key, hint, shown);
        Py_DECREF(hint);
    } else {
        PyErr_Format(PyExc_ValueError, "unknown rule setting %.60R; expected one of %U", key, shown);
    }
done:
    Py_XDECREF(known);
    Py_XDECREF(difflib);
    Py_XDECREF(near);
    Py_XDECREF(sep);
    Py_XDECREF(shown);
    return -1;
}

/* Fills Rules from a dict {piece_counts: 12 ints, and every setting of RULE_SETTINGS
 * (rules.h)}, and nothing else: a misspelt setting would otherwise leave the one meant at
 * its default. 0, or -1 with an exception. */
int rules_from_dict(PyObject *dict, Rules *r) {
    int result = -1;
    PyObject *seq = NULL, *key, *value;
    Py_ssize_t pos = 0;
    long v;
    char err[200];
    if (!PyDict_Check(dict)) {
        PyErr_Format(PyExc_TypeError, "rules must be a dict, got %s", Py_TYPE(dict)->tp_name);
        goto done;
    }
    while (PyDict_Next(dict, &pos, &key, &value)) {
        const char *name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (name == NULL && PyErr_Occurred()) goto done;
        int found = name != NULL && strcmp(name, "piece_counts") == 0;
        for (int k = 0; name != NULL && !found && k < RULE_SETTING_NB; k++)
            found = strcmp(name, RULE_SETTING_TABLE[k].name) == 0;
        if (!found) {
            rules_unknown_key(key);
            goto done;
        }
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
    /* Every setting of the list in rules.h, with its range; each one must be given. */
    for (int k = 0; k < RULE_SETTING_NB; k++) {
        const RuleSetting *rs = &RULE_SETTING_TABLE[k];
        if (dict_get_int(dict, rs->name, rs->min, rs->max, &v) < 0) goto done;
        rules_set(r, k, v);
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

/* The number of games of a Batch, for Batch() and VecEnv (before it allocates). */
int parse_num_envs(PyObject *obj, long *out) {
    return parse_int_in(obj, "num_envs", 1, BATCH_MAX_ENVS, NULL, out);
}

int parse_player(PyObject *obj, const char *name, int *out) {
    long v;
    if (parse_int_in(obj, name, 0, 1, "0 (red) or 1 (blue)", &v) < 0) return -1;
    *out = (int)v;
    return 0;
}

/* A Gravon field's text: a str of ASCII letters (the engine's reader, board_from_field,
 * checks their number and meaning). `prefix` begins the message of a refusal. */
int parse_field(PyObject *obj, const char *prefix, const char **field, Py_ssize_t *len) {
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%sa field must be a str of 100 letters, got %s", prefix, Py_TYPE(obj)->tp_name);
        return -1;
    }
    if (!PyUnicode_IS_ASCII(obj)) {
        PyErr_Format(PyExc_ValueError, "%sa field has 100 ASCII letters (A, _, B-Y), got %zd characters "
                     "with non-ASCII ones", prefix, PyUnicode_GET_LENGTH(obj));
        return -1;
    }
    *field = PyUnicode_AsUTF8AndSize(obj, len);
    return *field == NULL ? -1 : 0;
}

int parse_square(PyObject *obj, const char *name, int *out) {
    long v;
    if (parse_int_in(obj, name, 0, SQ_NB - 1, "a square index in [0, 99]", &v) < 0) return -1;
    *out = (int)v;
    return 0;
}

/* A bot's name (bot.h) to its kind; a ValueError listing the bots otherwise. */
int parse_bot(PyObject *obj, int *out) {
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

/* The one conversion of history_k, so Game, VecEnv and channel_names raise the same
 * exception for the same fault (TypeError: not an integer; ValueError: out of range). */
int parse_history_k(PyObject *obj, long *out) {
    return parse_int_in(obj, "history_k", 0, HISTORY_NB, NULL, out);
}

/* Reads the observation settings (history_k from parse_history_k); the caps come from
 * the rules. codes: the compact observation (uint8 only; beliefs beside it). */
int obs_spec_parse(long history_k, int probabilities, int as_float, int codes, const Rules *r,
                          ObsSpec *spec) {
    if (codes && as_float) {
        PyErr_SetString(PyExc_ValueError,
                        "obs_format='codes' is uint8; expand_observation(codes, dtype='float32') gives float planes");
        return -1;
    }
    /* With codes the beliefs are their own float32 block. */
    if (probabilities && !as_float && !codes) {
        PyErr_SetString(PyExc_ValueError, "belief planes need float32 observations (VecEnv: obs_dtype='float32'; Game.observe: dtype='float32')");
        return -1;
    }
    spec->history_k = (uint8_t)history_k;
    spec->probabilities = (uint8_t)(probabilities != 0);
    spec->as_float = (uint8_t)(as_float != 0);
    spec->codes = (uint8_t)(codes != 0);
    spec->max_plies = r->max_plies;
    spec->max_plies_without_attack = r->max_plies_without_attack;
    spec->deploy = r->deploy;
    memcpy(spec->piece_counts, r->piece_counts, PIECE_TYPE_NB);
    return 0;
}

/* Reads the sides that deploy their own pieces: None or 0..3 (bit 0 red, bit 1 blue);
 * any side needs rules with deploy, whose action space holds the placements. */
int deploy_sides_parse(PyObject *obj, const Rules *r, int *out) {
    long v = 0;
    *out = 0;
    if (obj == NULL || obj == Py_None) return 0;
    if (parse_int_in(obj, "deploy", 0, 3, "0 (none), 1 (red), 2 (blue) or 3 (both)", &v) < 0) return -1;
    if (v && !r->deploy) {
        PyErr_SetString(PyExc_ValueError, "deploying sides need rules with deploy=1 (setup='agent'), whose action "
                                          "space holds the placements");
        return -1;
    }
    *out = (int)v;
    return 0;
}

/* Reads an optional setup table: None, or a C-contiguous uint8 array (K, 40) of letters
 * 'A'..'M' whose rows each hold exactly the rules' pieces. 0, or -1 with an exception. */
int setup_table_parse(PyObject *obj, const Rules *r, SetupTable *table) {
    table->letters = NULL;
    table->n = 0;
    table->deploy = 0;
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
    SetupFault fault;
    switch (setup_table_check(letters, k, r, &fault)) {
    case SETUP_BAD_LETTER:
        PyErr_Format(PyExc_ValueError, "setup %zd: letter %d is %d, expected 'A'..'M'", (Py_ssize_t)fault.row,
                     fault.index, fault.letter);
        return -1;
    case SETUP_OUT_OF_ZONE:
        PyErr_Format(PyExc_ValueError, "setup %zd: letter %d ('%c') stands outside the setup zone of %d rows",
                     (Py_ssize_t)fault.row, fault.index, fault.letter, (int)r->setup_rows);
        return -1;
    case SETUP_BAD_COUNT:
        PyErr_Format(PyExc_ValueError, "setup %zd has %d pieces of type %d, the variant %d",
                     (Py_ssize_t)fault.row, fault.count, fault.type, r->piece_counts[fault.type]);
        return -1;
    case SETUP_TABLE_OK:
        break;
    }
    table->letters = letters;
    table->n = (int)k;
    return 0;
}

/* An action of any kind, in [0, ACTION_MAX). */
int parse_action(PyObject *obj, int *out) {
    long v;
    char expected[48];
    snprintf(expected, sizeof(expected), "an int in [0, %d)", ACTION_MAX); /* as step() says it */
    if (parse_int_in(obj, "action", 0, ACTION_MAX - 1, expected, &v) < 0) return -1;
    *out = (int)v;
    return 0;
}
