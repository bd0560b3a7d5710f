/* record.h: the moves of every game of a batch, kept while it plays, and the finished
 * games handed out as records (VecEnv(record=True), docs/recording.md).
 *
 * A game's record is its start (the field in Gravon letters and the side to move) and
 * every action played in it, in the acting player's frame, as the batch played them:
 * the learner's and, against a bot, the bot's replies; rescues and declined rescues are
 * actions too. An action is a small int (< ACTION_MAX), kept as a uint16_t: two bytes a
 * ply. Replaying the actions from the start field through the rules gives the game again.
 *
 * Memory is allocated once, by recorder_init, except for the queue of finished games,
 * which grows (doubling) only while finished games wait to be handed out. A step writes
 * each game's action into a small stage of RECORD_STAGE actions a game, one cache line,
 * the stages of all games side by side; a full stage goes to the game's sheet. Written
 * straight to the sheets, which lie a page or more apart, every action of every game
 * missed the TLB: the step loop (batch_step_games) went from 6% to 15% of the bare
 * step's perf samples at 4096 games, 1 thread (stratego_main bench 4096 800 1 0 0 1);
 * with the stage it stays at 9-10% with records or without, and the step runs 0.9%
 * more instructions (cachegrind). Each game has
 * two sheets of `capacity` actions: the game in progress writes one; when it ends, the
 * sheets swap (no copy), so that under SAME_STEP the next game starts at once on the
 * other sheet while the finished one waits for the end of the step. Then, with one
 * thread and in game order, recorder_collect appends the finished sheets to the queue:
 * the order of records (by step, then by game index) does not depend on the threads.
 *
 * Bound. A game's sheet holds `capacity` actions. Under a ply cap (max_plies) a game
 * has at most max_plies moves, and under the rescue rule at most one rescue or decline
 * after each move, so record_capacity_bound() is an exact bound and no record of such a
 * variant can outgrow it. A variant without max_plies has no bound: the caller chooses
 * the capacity, and a game that plays more actions goes on unchanged, but its record
 * is marked incomplete (count above capacity: the actions past it are not kept); it is
 * handed out so marked, never silently cut.
 *
 * Plain C, no Python: the binding turns the queue into arrays (batch_type.c).
 */
#ifndef STRATEGO_RECORD_H
#define STRATEGO_RECORD_H

#include <stddef.h>
#include <stdint.h>

#include "board.h"
#include "rules.h"

/* Range of a game's capacity in actions: 2^20 actions are 2 MB a sheet. */
enum { RECORD_CAPACITY_MIN = 1, RECORD_CAPACITY_MAX = 1 << 20 };
/* Actions a game gathers in its stage before they go to its sheet: 64 bytes. */
enum { RECORD_STAGE = 32 };

/* One game's record: its start, and once over its result. */
typedef struct {
    uint32_t count;  /* actions played (above the capacity the record is incomplete); for
                      * the game in progress Recorder.count[i] counts, this is set when it
                      * ends (and in a save) */
    uint32_t plies;  /* once finished: the game's length in plies */
    int8_t winner;   /* once finished: RED, BLUE, or -1 a draw */
    uint8_t reason;  /* once finished: its EndReason */
    uint8_t to_move; /* the side to move at the start */
    uint8_t reserved; /* zero: sheets are saved as bytes */
    char field[SQ_NB]; /* the start field, Gravon letters */
} RecordSheet;

_Static_assert(sizeof(RecordSheet) == 112, "RecordSheet layout: saves and the queue hold it as bytes");

/* A finished game in the queue: which game slot played it, its sheet, then
 * min(count, capacity) actions (uint16_t), padded to 8 bytes. */
typedef struct {
    int64_t game;
    RecordSheet sheet;
} RecordEntry;

/* Finished games not handed out yet. */
typedef struct {
    uint8_t *data;
    size_t len, cap;  /* bytes used, allocated */
    int64_t entries;
} RecordQueue;

typedef struct {
    int num_games;
    uint32_t capacity;   /* actions a sheet holds */
    RecordSheet *sheets; /* [num_games][2] */
    uint16_t *actions;   /* [num_games][2][capacity] */
    uint8_t *current;    /* [num_games]: the sheet game i writes now (0 or 1) */
    uint32_t *count;     /* [num_games]: actions of game i's game in progress */
    uint16_t *stage;     /* [num_games][RECORD_STAGE]: its latest actions, those of positions
                          * RECORD_STAGE * (count / RECORD_STAGE) .. count - 1 not yet on
                          * its sheet */
    uint8_t *finished;   /* [num_games]: 1 while the other sheet holds a game that ended
                          * in this step, not yet in the queue */
    int64_t uncollected; /* how many finished[] are set after a failed collect */
    RecordQueue queue;
} Recorder;

/* The exact bound on the actions of one game under r, or 0 when r has none (no
 * max_plies): max_plies moves, and under the rescue rule a rescue or a decline after
 * each. */
uint32_t record_capacity_bound(const Rules *r);

/* Allocates the sheets of n games of `capacity` actions each (queue empty). 0, or -1
 * when memory runs out (nothing left allocated). */
int recorder_init(Recorder *rec, int n, uint32_t capacity);

/* Frees everything; safe on a cleared or failed recorder, and twice. */
void recorder_free(Recorder *rec);

/* Bytes recorder_init allocates a game (its two sheets and their actions). */
size_t record_game_bytes(uint32_t capacity);

/* Starts game i's record from its start position s (field, side to move). */
void recorder_begin(Recorder *rec, int64_t i, const GameState *s);

/* Adds the action just played in game i. On the hot path: one store and a count. */
void recorder_flush(Recorder *rec, int64_t i, uint32_t begin, uint32_t end);

static inline void recorder_push(Recorder *rec, int64_t i, int action) {
    uint32_t n = rec->count[i];
    rec->stage[(size_t)i * RECORD_STAGE + n % RECORD_STAGE] = (uint16_t)action;
    rec->count[i] = ++n;
    if (n % RECORD_STAGE == 0) recorder_flush(rec, i, n - RECORD_STAGE, n);
}

/* The record of game i's game in progress: its sheet, count brought up to date, and its
 * `capacity` actions, staged ones included, into actions (for a save). */
RecordSheet recorder_current(const Recorder *rec, int64_t i, uint16_t *actions);

/* Game i has just ended (s is over): its result goes on its sheet, the sheets swap, and
 * the finished one waits for recorder_collect. */
void recorder_finish(Recorder *rec, int64_t i, const GameState *s);

/* Appends the games finished since the last collect to the queue, in game order. 0, or
 * -1 if the queue cannot grow (memory): the finished sheets stay as they are, marked,
 * and a later call appends them. Call it before a game can finish again (each step). */
int recorder_collect(Recorder *rec);

/* Bytes of one queue entry with `count` actions kept (header, actions, padding). */
size_t record_entry_bytes(const Recorder *rec, uint32_t count);

/* Restores game i's game in progress from a save (what recorder_current gave). */
void recorder_set_current(Recorder *rec, int64_t i, const RecordSheet *sheet, const uint16_t *actions);

/* The actions a sheet keeps: min(count, capacity). */
static inline uint32_t record_kept(const Recorder *rec, const RecordSheet *sheet) {
    return sheet->count < rec->capacity ? sheet->count : rec->capacity;
}

/* Finished games that wait to be handed out: queued, or kept on their sheets after the
 * queue could not grow. */
static inline int64_t recorder_waiting(const Recorder *rec) { return rec->queue.entries + rec->uncollected; }

/* Empties the queue (its memory is kept for the next games). */
void recorder_clear_queue(Recorder *rec);

/* Replays `count` actions from a sheet's start under r into *out, each checked legal
 * first: 0, or -1 with the first bad start or action in err. What a save's check uses
 * to hold the records of games in progress to the games. */
int record_replay(const RecordSheet *sheet, const uint16_t *actions, uint32_t count, const Rules *r,
                  GameState *out, char *err, size_t err_len);

#endif
