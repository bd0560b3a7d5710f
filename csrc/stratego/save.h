/* save.h: the byte format of saved games, one format for a batch and for one game.
 *
 * A save is a header, then a payload:
 *
 *   header   SaveHeader below: magic "STRATEGO", format version, kind (batch or game),
 *            a byte-order mark, sizeof(GameState), sizeof(Rules), sizeof(BatchStats),
 *            the number of games, where their setups come from (random, or a table
 *            named by its row count and a 64-bit digest of its letters) and the Rules
 *            the games are played under.
 *   payload  batch: BatchStats, then num_games GameStates, then num_games sampler
 *            streams (uint64_t each), then, in the learner-vs-bot mode, num_games
 *            VersusSlots, then, when the batch records its games (record.h), each
 *            game's current RecordSheet (num_games of them) and its actions
 *            (num_games x record_capacity uint16_t); game: one GameState, then its bot stream
 *            (uint64_t: the stream Game.bot_move draws on).
 *
 * Everything is in the writing machine's byte order and struct layout: a save moves
 * between processes and runs of one engine build, not between builds that changed the
 * layout or machines of the other byte order (both are detected and refused).
 *
 * A save names everything its games depend on, so loading it where any of that differs
 * is refused with a message naming the difference: rule settings and piece set, setup
 * source (a game that ends is replaced by one drawn from the same source), the number
 * of games, and every random stream the games draw on. Observation settings are not in it: observations are recomputed on load.
 *
 * Version scheme: ONE integer, SAVE_VERSION, for the whole format. Any change to what a
 * save holds or means (the header, Rules, GameState, e.g. a longer chase history,
 * BatchStats, the sampler streams) bumps it by one. The sizes in the header are a second
 * line of defence for a layout changed without a bump. A reader accepts only its own
 * version; a save of another version is refused with both numbers named.
 *
 *   version 1  header without kind, byte order or setup source (binding.c, batches only)
 *   version 2  batch and game saves (with the bot stream), setup source, byte-order mark
 *   version 3  the learner-vs-bot setting in the header (`versus`) and, for such a
 *              batch, each game's VersusSlot (bot stream, learner colour) after the
 *              sampler streams
 *   version 4  this layout: the record capacity in the header (0: not recording), and
 *              a recording batch's records of the games in progress after the rest, so
 *              that a game continued after a load is recorded whole. Finished games
 *              waiting to be handed out are not in a save: a batch holding any refuses
 *              to save or load (docs/recording.md). The batch's game_offset in the
 *              header (a slice of a run played apart, docs/distributed.md). The end
 *              reasons resigned, agreed draw and timeout (a game's end_reason 8-10,
 *              which a version 3 reader would refuse as a corrupt game). The deployment
 *              phase (docs/deployment.md): Rules' `deploy` switch, a game's phase 2
 *              (PHASE_DEPLOY), the deploying sides in the header (`deploy`)
 *
 * Plain C: no Python. The binding wraps these, and main.c round-trips a batch.
 */
#ifndef STRATEGO_SAVE_H
#define STRATEGO_SAVE_H

#include <stddef.h>
#include <stdint.h>

#include "batch.h"
#include "board.h"
#include "rules.h"
#include "engine/vec.h"

enum { SAVE_VERSION = 4 };

typedef enum { SAVE_KIND_BATCH = VEC_SAVE_BATCH, SAVE_KIND_GAME = VEC_SAVE_GAME } SaveKind;

typedef struct {
    /* The frame of every game's save (vec.h): magic "STRATEGO", SAVE_VERSION, SaveKind,
     * the byte-order mark, sizeof(GameState). */
    VecSaveFrame frame;
    uint32_t rules_bytes;   /* sizeof(Rules) */
    uint32_t stats_bytes;   /* sizeof(BatchStats) */
    uint32_t num_games;     /* 1 for a game */
    uint32_t setup_rows;    /* rows of the setup table the games draw from; 0: random setups */
    uint64_t setup_digest;  /* save_setups_digest of that table; 0 with random setups */
    uint32_t versus;        /* save_versus_word: the learner-vs-bot setting, 0 for none */
    uint32_t record_capacity; /* actions a game's record holds; 0: not recording */
    uint64_t game_offset;   /* the batch's game_offset (batch.h); 0 for a game */
    uint32_t deploy;        /* the sides that deploy their own pieces (SetupTable.deploy); 0: none */
    uint32_t reserved;      /* 0 */
    Rules rules;
} SaveHeader;

/* The bytes of a save of b. */
size_t save_batch_bytes(const Batch *b);

/* Writes b's save into out (save_batch_bytes(b) bytes). */
void save_batch_write(const Batch *b, uint8_t *out);

/* 0 if data (len bytes) is a save that loads into b: its header matches b (format, rules,
 * setup source, number of games), and every game in it is a valid game of these rules,
 * unfinished unless b keeps finished games (autoreset NEXT_STEP, DISABLED). Otherwise -1 with the first problem in err. Reads b, never changes it. */
int save_batch_check(const Batch *b, const uint8_t *data, size_t len, char *err, size_t err_len);

/* Loads a save that save_batch_check accepted: stats, games and sampler streams. The
 * caller writes the outputs afterwards (batch_write_outputs). */
void save_batch_read(Batch *b, const uint8_t *data);

/* The bytes of a save of one game. */
size_t save_game_bytes(void);

/* Writes the save of game s, played under r, with its bot stream, into out
 * (save_game_bytes() bytes). */
void save_game_write(const GameState *s, const Rules *r, uint64_t bot_stream, uint8_t *out);

/* Reads a game save made under the rules r into *s and *bot_stream: 0, or -1 with the
 * problem in err and both untouched. A position that is over by the rules ends now
 * (game_judge_start). */
int save_game_read(GameState *s, uint64_t *bot_stream, const Rules *r, const uint8_t *data,
                   size_t len, char *err, size_t err_len);

/* A 64-bit digest (FNV-1a) of a setup table's rows; 0 for random setups. */
uint64_t save_setups_digest(const SetupTable *table);

#endif
