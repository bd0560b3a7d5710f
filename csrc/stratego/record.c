/* record.c: the moves of a batch's games and the queue of finished ones (record.h). */
#include "record.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "moves_check.h"
#include "types.h"

uint32_t record_capacity_bound(const Rules *r) {
    if (r->max_plies == 0) return 0;
    /* A move is a ply; under the rescue rule a move onto the back row may be followed by
     * a rescue or a decline of the same turn, which is no ply (game.h). */
    return (uint32_t)r->max_plies * (r->rescue ? 2u : 1u);
}

size_t record_game_bytes(uint32_t capacity) {
    /* + current, finished, count, stage */
    return 2 * (sizeof(RecordSheet) + (size_t)capacity * sizeof(uint16_t)) + 2 + sizeof(uint32_t) +
           RECORD_STAGE * sizeof(uint16_t);
}

int recorder_init(Recorder *rec, int n, uint32_t capacity) {
    memset(rec, 0, sizeof(*rec));
    rec->sheets = calloc((size_t)n * 2, sizeof(RecordSheet));
    rec->actions = malloc((size_t)n * 2 * capacity * sizeof(uint16_t));
    rec->current = calloc((size_t)n, 1);
    rec->finished = calloc((size_t)n, 1);
    rec->count = calloc((size_t)n, sizeof(uint32_t));
    rec->stage = calloc((size_t)n * RECORD_STAGE, sizeof(uint16_t));
    if (rec->sheets == NULL || rec->actions == NULL || rec->current == NULL || rec->finished == NULL ||
        rec->count == NULL || rec->stage == NULL) {
        recorder_free(rec);
        return -1;
    }
    rec->num_games = n;
    rec->capacity = capacity;
    return 0;
}

void recorder_free(Recorder *rec) {
    free(rec->sheets);
    free(rec->actions);
    free(rec->current);
    free(rec->finished);
    free(rec->count);
    free(rec->stage);
    free(rec->queue.data);
    memset(rec, 0, sizeof(*rec));
}

void recorder_begin(Recorder *rec, int64_t i, const GameState *s) {
    RecordSheet *sheet = &rec->sheets[2 * i + rec->current[i]];
    memset(sheet, 0, sizeof(*sheet));
    sheet->winner = -1;
    sheet->to_move = s->to_move;
    board_to_field(s, sheet->field);
    rec->count[i] = 0;
}

/* Game i's current sheet. */
static uint16_t *sheet_actions(const Recorder *rec, int64_t i, int sheet) {
    return &rec->actions[(size_t)(2 * i + sheet) * rec->capacity];
}

/* Copies the staged actions of positions [begin, end) (one stage's worth at most, from
 * the stage's first position) to game i's current sheet; those past the capacity are
 * not kept (record.h, "Bound"). */
void recorder_flush(Recorder *rec, int64_t i, uint32_t begin, uint32_t end) {
    if (end > rec->capacity) end = rec->capacity;
    if (begin >= end) return;
    memcpy(sheet_actions(rec, i, rec->current[i]) + begin, &rec->stage[(size_t)i * RECORD_STAGE],
           (size_t)(end - begin) * sizeof(uint16_t));
}

/* The first position of the stage of a game with n actions. */
static uint32_t stage_begin(uint32_t n) { return n - n % RECORD_STAGE; }

RecordSheet recorder_current(const Recorder *rec, int64_t i, uint16_t *actions) {
    RecordSheet sheet = rec->sheets[2 * i + rec->current[i]];
    uint32_t n = rec->count[i], begin = stage_begin(n), end = n < rec->capacity ? n : rec->capacity;
    sheet.count = n;
    /* The row past the game's actions is zeros, not what an earlier game on this sheet
     * left there: equal games give equal saves. */
    memcpy(actions, sheet_actions(rec, i, rec->current[i]), (size_t)end * sizeof(uint16_t));
    memset(actions + end, 0, (size_t)(rec->capacity - end) * sizeof(uint16_t));
    if (begin < end)
        memcpy(actions + begin, &rec->stage[(size_t)i * RECORD_STAGE], (size_t)(end - begin) * sizeof(uint16_t));
    return sheet;
}

void recorder_set_current(Recorder *rec, int64_t i, const RecordSheet *sheet, const uint16_t *actions) {
    uint32_t n = sheet->count, begin = stage_begin(n), end = n < rec->capacity ? n : rec->capacity;
    rec->sheets[2 * i + rec->current[i]] = *sheet;
    rec->count[i] = n;
    memcpy(sheet_actions(rec, i, rec->current[i]), actions, (size_t)rec->capacity * sizeof(uint16_t));
    if (begin < end)
        memcpy(&rec->stage[(size_t)i * RECORD_STAGE], actions + begin, (size_t)(end - begin) * sizeof(uint16_t));
}

void recorder_finish(Recorder *rec, int64_t i, const GameState *s) {
    RecordSheet *sheet = &rec->sheets[2 * i + rec->current[i]];
    uint32_t n = rec->count[i];
    recorder_flush(rec, i, stage_begin(n), n); /* the staged rest of the game */
    sheet->count = n;
    sheet->plies = s->ply;
    sheet->winner = (int8_t)(s->winner == NO_WINNER ? -1 : s->winner);
    sheet->reason = s->end_reason;
    /* One game ends at most once a step, and the step's collect empties the other sheet
     * first (batch_step), so it is free. */
    rec->current[i] ^= 1;
    rec->finished[i] = 1;
    /* Until its next game begins (NEXT_STEP, DISABLED), the game's current sheet is
     * empty rather than an older game's, in a save too. */
    RecordSheet *next = &rec->sheets[2 * i + rec->current[i]];
    memset(next, 0, sizeof(*next));
    next->winner = -1;
    rec->count[i] = 0;
}

size_t record_entry_bytes(const Recorder *rec, uint32_t count) {
    uint32_t kept = count < rec->capacity ? count : rec->capacity;
    size_t bytes = sizeof(RecordEntry) + (size_t)kept * sizeof(uint16_t);
    return (bytes + 7) & ~(size_t)7; /* the next entry stays 8-byte aligned */
}

/* Room for `more` bytes in the queue, doubling: 0, or -1 (memory), the queue unchanged. */
static int queue_reserve(RecordQueue *q, size_t more) {
    if (q->len + more <= q->cap) return 0;
    size_t cap = q->cap ? q->cap : 1 << 16;
    while (cap < q->len + more) cap *= 2;
    uint8_t *data = realloc(q->data, cap);
    if (data == NULL) return -1;
    q->data = data;
    q->cap = cap;
    return 0;
}

int recorder_collect(Recorder *rec) {
    RecordQueue *q = &rec->queue;
    for (int64_t i = 0; i < rec->num_games; i++) {
        if (!rec->finished[i]) continue;
        int done_sheet = rec->current[i] ^ 1;
        const RecordSheet *sheet = &rec->sheets[2 * i + done_sheet];
        uint32_t kept = record_kept(rec, sheet);
        size_t bytes = record_entry_bytes(rec, sheet->count);
        if (queue_reserve(q, bytes) < 0) {
            /* Nothing lost: this and the later finished sheets stay marked. */
            int64_t left = 0;
            for (int64_t j = i; j < rec->num_games; j++) left += rec->finished[j];
            rec->uncollected = left;
            return -1;
        }
        RecordEntry entry = {.game = i, .sheet = *sheet};
        uint8_t *at = q->data + q->len;
        memset(at, 0, bytes); /* the padding too: equal games give equal bytes */
        memcpy(at, &entry, sizeof(entry));
        memcpy(at + sizeof(entry), sheet_actions(rec, i, done_sheet), (size_t)kept * sizeof(uint16_t));
        q->len += bytes;
        q->entries++;
        rec->finished[i] = 0;
    }
    rec->uncollected = 0;
    return 0;
}

void recorder_clear_queue(Recorder *rec) {
    rec->queue.len = 0;
    rec->queue.entries = 0;
}

int record_replay(const RecordSheet *sheet, const uint16_t *actions, uint32_t count, const Rules *r,
                  GameState *out, char *err, size_t err_len) {
    char why[160];
    if (sheet->to_move > BLUE) {
        snprintf(err, err_len, "the record's side to move is %u, expected 0 or 1", sheet->to_move);
        return -1;
    }
    if (game_from_field(out, r, sheet->field, SQ_NB, sheet->to_move, why, sizeof(why)) < 0) {
        snprintf(err, err_len, "the record's start field is bad: %s", why);
        return -1;
    }
    for (uint32_t k = 0; k < count; k++) {
        int code = actions[k] < rules_num_actions(r) ? (int)moves_check_action(out, r, actions[k]) : -1;
        if (code != 0) {
            snprintf(err, err_len, "the record's action %u (%u) is %s%s", k, actions[k],
                     code < 0 ? "out of range" : "illegal: ", code < 0 ? "" : moves_illegal_reason(code));
            return -1;
        }
        game_apply_action(out, r, actions[k]);
    }
    return 0;
}
