/* record_binding.c: the recorded games a Batch hands out (Batch.pop_records), as NumPy
 * columns; the records themselves are csrc/stratego/record.c's. */
#include "binding.h"

#include <string.h>

#include "stratego/record.h"

/* The columns pop_records() hands out, in this order. */
enum { REC_GAME, REC_FIELD, REC_TO_MOVE, REC_WINNER, REC_REASON, REC_PLIES, REC_COUNT, REC_OFFSETS, REC_ACTIONS,
       REC_COLUMN_NB };
static const char *const REC_COLUMN_NAMES[REC_COLUMN_NB] = {"game", "field", "to_move", "winner", "reason",
                                                            "plies", "count", "offsets", "actions"};

/* Batch.pop_records() -> the games finished since the last call, in the order they finished
 * (by step, then game index), as a dict of arrays (k games): game int64 (the slot),
 * field (k, 100) uint8 letters, to_move int8, winner int8 (-1 a draw), reason uint8,
 * plies int32, count int64 (actions played), offsets int64 (k + 1), actions uint16 (the
 * kept actions of game j are actions[offsets[j]:offsets[j + 1]]; fewer than count[j]
 * only for an incomplete record, record.h). The queue is emptied. */
PyObject *records_pop(Recorder *rec) {
    PyObject *cols[REC_COLUMN_NB] = {NULL}, *result = NULL;
    /* Games kept on their sheets after the queue could not grow: queued now, or, if it
     * still cannot grow, handed out at a later call (what is queued goes out now). */
    if (rec->uncollected > 0 && recorder_collect(rec) < 0 && rec->queue.entries == 0) return PyErr_NoMemory();
    npy_intp k = (npy_intp)rec->queue.entries, total = 0;
    for (size_t at = 0; at < rec->queue.len;) {
        RecordEntry e;
        memcpy(&e, rec->queue.data + at, sizeof(e));
        total += (npy_intp)record_kept(rec, &e.sheet);
        at += record_entry_bytes(rec, e.sheet.count);
    }
    npy_intp field_dims[2] = {k, SQ_NB}, k1 = k + 1;
    cols[REC_GAME] = PyArray_SimpleNew(1, &k, NPY_INT64);
    cols[REC_FIELD] = PyArray_SimpleNew(2, field_dims, NPY_UINT8);
    cols[REC_TO_MOVE] = PyArray_SimpleNew(1, &k, NPY_INT8);
    cols[REC_WINNER] = PyArray_SimpleNew(1, &k, NPY_INT8);
    cols[REC_REASON] = PyArray_SimpleNew(1, &k, NPY_UINT8);
    cols[REC_PLIES] = PyArray_SimpleNew(1, &k, NPY_INT32);
    cols[REC_COUNT] = PyArray_SimpleNew(1, &k, NPY_INT64);
    cols[REC_OFFSETS] = PyArray_SimpleNew(1, &k1, NPY_INT64);
    cols[REC_ACTIONS] = PyArray_SimpleNew(1, &total, NPY_UINT16);
    for (int c = 0; c < REC_COLUMN_NB; c++) {
        if (cols[c] == NULL) goto done;
    }
    int64_t *game = PyArray_DATA((PyArrayObject *)cols[REC_GAME]);
    uint8_t *field = PyArray_DATA((PyArrayObject *)cols[REC_FIELD]);
    int8_t *to_move = PyArray_DATA((PyArrayObject *)cols[REC_TO_MOVE]);
    int8_t *winner = PyArray_DATA((PyArrayObject *)cols[REC_WINNER]);
    uint8_t *reason = PyArray_DATA((PyArrayObject *)cols[REC_REASON]);
    int32_t *plies = PyArray_DATA((PyArrayObject *)cols[REC_PLIES]);
    int64_t *count = PyArray_DATA((PyArrayObject *)cols[REC_COUNT]);
    int64_t *offsets = PyArray_DATA((PyArrayObject *)cols[REC_OFFSETS]);
    uint16_t *actions = PyArray_DATA((PyArrayObject *)cols[REC_ACTIONS]);
    size_t at = 0;
    offsets[0] = 0;
    for (npy_intp j = 0; j < k; j++) {
        RecordEntry e;
        memcpy(&e, rec->queue.data + at, sizeof(e));
        uint32_t kept = record_kept(rec, &e.sheet);
        game[j] = e.game;
        memcpy(field + (size_t)j * SQ_NB, e.sheet.field, SQ_NB);
        to_move[j] = (int8_t)e.sheet.to_move;
        winner[j] = e.sheet.winner;
        reason[j] = e.sheet.reason;
        plies[j] = (int32_t)e.sheet.plies;
        count[j] = e.sheet.count;
        memcpy(actions + offsets[j], rec->queue.data + at + sizeof(e), (size_t)kept * sizeof(uint16_t));
        offsets[j + 1] = offsets[j] + kept;
        at += record_entry_bytes(rec, e.sheet.count);
    }
    result = PyDict_New();
    if (result == NULL) goto done;
    for (int c = 0; c < REC_COLUMN_NB; c++) {
        if (PyDict_SetItemString(result, REC_COLUMN_NAMES[c], cols[c]) < 0) {
            Py_CLEAR(result);
            goto done;
        }
    }
    /* Handed out: only now is the queue emptied, so a failure above loses nothing. */
    recorder_clear_queue(rec);
done:
    for (int c = 0; c < REC_COLUMN_NB; c++) Py_XDECREF(cols[c]);
    return result;
}
