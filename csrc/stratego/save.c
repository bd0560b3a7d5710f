/* save.c: saves of a batch and of one game (format and version scheme: save.h). */
#include "save.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "game.h"
#include "record.h"

static const char SAVE_MAGIC[8] = {'S', 'T', 'R', 'A', 'T', 'E', 'G', 'O'};

_Static_assert(sizeof(SaveHeader) % 8 == 0, "the payload after the header stays 8-byte aligned");
/* The layout of format version 4: the frame is its first five fields. */
_Static_assert(offsetof(SaveHeader, rules_bytes) == 24 && offsetof(SaveHeader, setup_digest) == 40,
               "the header keeps its layout");

static void piece_counts_text(const Rules *r, char *out, size_t len) {
    size_t used = 0;
    out[0] = '\0';
    for (int t = 0; t < PIECE_TYPE_NB && used < len; t++) {
        int w = snprintf(out + used, len - used, t ? ",%d" : "%d", r->piece_counts[t]);
        if (w < 0) break;
        used += (size_t)w;
    }
}

/* 0 if the save's rules are `ours`; otherwise -1 naming the first setting that differs. */
static int rules_match(const Rules *saved, const Rules *ours, char *err, size_t err_len) {
    if (memcmp(saved->piece_counts, ours->piece_counts, sizeof(ours->piece_counts)) != 0) {
        char a[64], b[64];
        piece_counts_text(saved, a, sizeof(a));
        piece_counts_text(ours, b, sizeof(b));
        snprintf(err, err_len, "the piece sets differ: the save has piece_counts %s (bomb..flag), "
                 "this one %s", a, b);
        return -1;
    }
    /* By the names the Python layer and variant files use, so a mismatch names the setting. */
    for (int k = 0; k < RULE_SETTING_NB; k++) {
        long a = rules_get(saved, k), b = rules_get(ours, k);
        if (a != b) {
            snprintf(err, err_len, "the rules differ: the save has %s %ld, this one %ld",
                     RULE_SETTING_TABLE[k].name, a, b);
            return -1;
        }
    }
    return 0; /* Rules has no padding (rules.h): equal fields are equal bytes */
}

uint64_t save_setups_digest(const SetupTable *table) {
    if (table == NULL || table->n <= 0) return 0;
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a, 64 bits */
    size_t n = (size_t)table->n * MAX_PIECES;
    for (size_t i = 0; i < n; i++) {
        h ^= table->letters[i];
        h *= 0x100000001b3ull;
    }
    return h | 1; /* never 0, which means random setups */
}

/* The learner-vs-bot setting of a batch as one word (0: two players), so that a save
 * loads only where the same bot and colour rule play. */
static uint32_t save_versus_word(const Batch *b) {
    return b->versus ? 1u + (uint32_t)b->opponent + ((uint32_t)b->learner_mode << 8) : 0u;
}

static void header_fill(SaveHeader *h, SaveKind kind, uint32_t num_games, const Rules *r,
                        const SetupTable *setups, uint32_t versus, uint32_t record_capacity,
                        int64_t game_offset) {
    memset(h, 0, sizeof(*h)); /* padding included: equal saves are equal bytes */
    vec_save_frame_fill(&h->frame, SAVE_MAGIC, SAVE_VERSION, kind, sizeof(GameState));
    h->rules_bytes = sizeof(Rules);
    h->stats_bytes = sizeof(BatchStats);
    h->num_games = num_games;
    h->setup_rows = setups != NULL && setups->n > 0 ? (uint32_t)setups->n : 0;
    h->setup_digest = save_setups_digest(setups);
    h->versus = versus;
    h->game_offset = (uint64_t)game_offset;
    h->record_capacity = record_capacity;
    h->deploy = setups != NULL ? (uint32_t)setups->deploy : 0;
    h->rules = *r;
}

static void setups_text(uint32_t rows, uint64_t digest, char *out, size_t len) {
    if (rows == 0) {
        snprintf(out, len, "random setups");
    } else {
        snprintf(out, len, "a table of %u setups (digest %016llx)", rows, (unsigned long long)digest);
    }
}

/* 0 if data starts with a header of `kind` that matches this build, these rules and
 * setups and num_games; -1 with the problem in err otherwise. */
static int header_check(const uint8_t *data, size_t len, SaveKind kind, uint32_t num_games,
                        const Rules *r, const SetupTable *setups, uint32_t versus,
                        uint32_t record_capacity, int64_t game_offset, char *err, size_t err_len) {
    SaveHeader h, ours;
    header_fill(&ours, kind, num_games, r, setups, versus, record_capacity, game_offset);
    if (vec_save_frame_check(data, len, sizeof(h), &ours.frame, "stratego",
                             kind == SAVE_KIND_GAME ? "one game (Game)" : "a batch (VecEnv)", err, err_len) < 0)
        return -1;
    memcpy(&h, data, sizeof(h));
    if (h.frame.state_bytes != ours.frame.state_bytes || h.rules_bytes != ours.rules_bytes ||
        h.stats_bytes != ours.stats_bytes) {
        snprintf(err, err_len, "the save is of another engine build: game states of %u bytes, "
                 "rules of %u, counters of %u; this build has %u, %u, %u", h.frame.state_bytes,
                 h.rules_bytes, h.stats_bytes, ours.frame.state_bytes, ours.rules_bytes, ours.stats_bytes);
        return -1;
    }
    if (rules_match(&h.rules, r, err, err_len) < 0) return -1;
    if (h.setup_rows != ours.setup_rows || h.setup_digest != ours.setup_digest) {
        char a[80], b[80];
        setups_text(h.setup_rows, h.setup_digest, a, sizeof(a));
        setups_text(ours.setup_rows, ours.setup_digest, b, sizeof(b));
        snprintf(err, err_len, "the setups differ: the save's games draw from %s, this one's from %s",
                 a, b);
        return -1;
    }
    if (h.deploy != ours.deploy) {
        snprintf(err, err_len, "the setups differ: the save's games deploy sides %u (bit 0 red, bit 1 blue; "
                 "setup=\"agent\"), this one's %u", h.deploy, ours.deploy);
        return -1;
    }
    if (h.versus != ours.versus) {
        snprintf(err, err_len, "the save was made with another opponent or learner_color setting "
                 "(%s, this one %s)", h.versus ? "a learner against a bot" : "two players",
                 ours.versus ? "a learner against a bot" : "two players");
        return -1;
    }
    if (h.record_capacity != ours.record_capacity) {
        if (h.record_capacity == 0 || ours.record_capacity == 0) {
            snprintf(err, err_len, "the save was made %s recording, this env %s (record=True keeps the "
                     "games in progress whole: both or neither)", h.record_capacity ? "with" : "without",
                     ours.record_capacity ? "records its games" : "does not record");
        } else {
            snprintf(err, err_len, "the save records %u actions a game, this env %u (record_plies)",
                     h.record_capacity, ours.record_capacity);
        }
        return -1;
    }
    if (h.num_games != num_games) {
        snprintf(err, err_len, "the save has %u games, this one %u", h.num_games, num_games);
        return -1;
    }
    /* Reseeding and the checksum use the run-wide game index (batch.h): a slice's games
     * load only into the same slice. */
    if (h.game_offset != ours.game_offset) {
        snprintf(err, err_len, "the save's games start at game_offset %llu, this one's at %llu",
                 (unsigned long long)h.game_offset, (unsigned long long)ours.game_offset);
        return -1;
    }
    return 0;
}

/* 0 if each side of s holds exactly the rules' piece set (captured pieces included; in
 * hand while deploying): true
 * of every game a batch plays, since it sets them up itself and a rescue returns a
 * captured piece rather than adding one. Catches a payload of another variant behind a
 * copied header. -1 with the problem in err otherwise. */
static int game_has_piece_set(const GameState *s, const Rules *r, char *err, size_t err_len) {
    for (int p = 0; p < PLAYER_NB; p++) {
        int counts[PIECE_TYPE_NB] = {0};
        for (int id = p * MAX_PIECES; id < p * MAX_PIECES + s->placed[p]; id++) {
            if (s->piece_type[id] < PIECE_TYPE_NB) counts[s->piece_type[id]]++;
        }
        for (int t = 0; t < PIECE_TYPE_NB; t++) {
            /* While deploying the rest of the set is in hand (game_validate holds the
             * board to the set's counts). */
            if (counts[t] != r->piece_counts[t] && !(s->phase == PHASE_DEPLOY && counts[t] < r->piece_counts[t])) {
                snprintf(err, err_len, "%s has %d pieces of type %d, the rules' piece set %d",
                         p == RED ? "red" : "blue", counts[t], t, r->piece_counts[t]);
                return -1;
            }
        }
    }
    return 0;
}

/* The record capacity a batch's header names: 0 when it does not record. */
static uint32_t save_record_capacity(const Batch *b) { return b->recording ? b->rec.capacity : 0; }

/* Bytes of the records of the games in progress: a sheet and capacity actions a game. */
static size_t save_records_bytes(const Batch *b) {
    return b->recording ? (size_t)b->num_envs * (sizeof(RecordSheet) + (size_t)b->rec.capacity * sizeof(uint16_t))
                        : 0;
}

/* 0 if the saved record of game i (sheet, its actions) is the record of the saved game
 * s: an empty sheet for a finished game that waits for its reset (its record was handed
 * out when it ended), otherwise a start and actions that replay to s's position (or,
 * past the capacity, at least that many actions). -1 with the problem in err. */
static int record_check(const Batch *b, const GameState *s, const RecordSheet *sheet, const uint16_t *actions,
                        char *err, size_t err_len) {
    if (s->done) {
        if (sheet->count != 0) {
            snprintf(err, err_len, "a finished game has a record in progress");
            return -1;
        }
        return 0;
    }
    if (sheet->winner != -1 || sheet->reason != END_NONE || sheet->plies != 0 || sheet->reserved != 0) {
        snprintf(err, err_len, "the record of a game in progress has a result");
        return -1;
    }
    if (s->phase == PHASE_DEPLOY) {
        /* Placements are not recorded: the record of a game in its deployment is its
         * position and no action, rebuilt from the game on load (save_batch_read), so
         * that a save written before the record followed the placements loads too. */
        if (sheet->count != 0) {
            snprintf(err, err_len, "the record of a game in its deployment has %u actions", sheet->count);
            return -1;
        }
        return 0;
    }
    if (sheet->count > b->rec.capacity) return 0; /* incomplete (record.h): nothing to replay */
    GameState replayed;
    if (record_replay(sheet, actions, sheet->count, &b->rules, &replayed, err, err_len) < 0) return -1;
    char a[SQ_NB], c[SQ_NB];
    board_to_field(s, a);
    board_to_field(&replayed, c);
    if (memcmp(a, c, SQ_NB) != 0 || replayed.to_move != s->to_move || replayed.ply != s->ply ||
        replayed.phase != s->phase || replayed.done) {
        snprintf(err, err_len, "its record does not replay to the game (%u actions)", sheet->count);
        return -1;
    }
    return 0;
}

size_t save_batch_bytes(const Batch *b) {
    return sizeof(SaveHeader) + sizeof(BatchStats) +
           (size_t)b->num_envs * (sizeof(GameState) + sizeof(uint64_t) + (b->versus ? sizeof(VersusSlot) : 0)) +
           save_records_bytes(b);
}

void save_batch_write(const Batch *b, uint8_t *out) {
    SaveHeader h;
    header_fill(&h, SAVE_KIND_BATCH, (uint32_t)b->num_envs, &b->rules, &b->setups, save_versus_word(b),
                save_record_capacity(b), b->game_offset);
    memcpy(out, &h, sizeof(h));
    out += sizeof(h);
    memcpy(out, &b->stats, sizeof(b->stats));
    out += sizeof(b->stats);
    memcpy(out, b->states, (size_t)b->num_envs * sizeof(GameState));
    out += (size_t)b->num_envs * sizeof(GameState);
    memcpy(out, b->sample_rng, (size_t)b->num_envs * sizeof(uint64_t));
    out += (size_t)b->num_envs * sizeof(uint64_t);
    if (b->versus) {
        memcpy(out, b->versus, (size_t)b->num_envs * sizeof(VersusSlot));
        out += (size_t)b->num_envs * sizeof(VersusSlot);
    }
    if (!b->recording) return;
    const Recorder *rec = &b->rec;
    size_t row = (size_t)rec->capacity * sizeof(uint16_t);
    /* The sheets, then the rows of actions: each game's in one pass, the row straight
     * into place (out keeps 2-byte alignment: save.h). */
    uint8_t *rows = out + (size_t)b->num_envs * sizeof(RecordSheet);
    for (int64_t i = 0; i < b->num_envs; i++) {
        RecordSheet sheet = recorder_current(rec, i, (uint16_t *)(void *)(rows + (size_t)i * row));
        memcpy(out + (size_t)i * sizeof(sheet), &sheet, sizeof(sheet));
    }
}

int save_batch_check(const Batch *b, const uint8_t *data, size_t len, char *err, size_t err_len) {
    char why[200];
    if (header_check(data, len, SAVE_KIND_BATCH, (uint32_t)b->num_envs, &b->rules, &b->setups,
                     save_versus_word(b), save_record_capacity(b), b->game_offset, err, err_len) < 0)
        return -1;
    if (len != save_batch_bytes(b)) {
        snprintf(err, err_len, "a save of %d games has %zu bytes, got %zu", b->num_envs,
                 save_batch_bytes(b), len);
        return -1;
    }
    const uint8_t *states = data + sizeof(SaveHeader) + sizeof(BatchStats);
    const uint8_t *slots = states + (size_t)b->num_envs * (sizeof(GameState) + sizeof(uint64_t));
    for (int i = 0; i < b->num_envs && b->versus; i++) {
        VersusSlot slot;
        uint8_t to_move;
        memcpy(&slot, slots + (size_t)i * sizeof(slot), sizeof(slot));
        memcpy(&to_move, states + (size_t)i * sizeof(GameState) + offsetof(GameState, to_move), 1);
        /* Between steps the learner is always the player to move, unless its game is
         * over and waits for its reset (NEXT_STEP, DISABLED). */
        uint8_t done;
        memcpy(&done, states + (size_t)i * sizeof(GameState) + offsetof(GameState, done), 1);
        if ((slot.learner != RED && slot.learner != BLUE) || (!done && to_move != slot.learner)) {
            snprintf(err, err_len, "game %d is corrupt: the learner is not to move", i);
            return -1;
        }
    }
    for (int i = 0; i < b->num_envs; i++) {
        GameState s;
        memcpy(&s, states + (size_t)i * sizeof(GameState), sizeof(s));
        if (game_validate(&s, &b->rules, why, sizeof(why)) < 0 ||
            game_has_piece_set(&s, &b->rules, why, sizeof(why)) < 0) {
            snprintf(err, err_len, "game %d is corrupt: %s", i, why);
            return -1;
        }
        /* Under SAME_STEP a batch never holds a finished game (it resets them at once),
         * so a save with one, or with a game the rules end at once, was not written by a
         * batch. Under NEXT_STEP and DISABLED finished games wait for their reset: theirs
         * must be an end the engine writes. */
        if (s.done) {
            int known = s.end_reason > END_NONE && s.end_reason < END_REASON_NB &&
                        (s.winner == RED || s.winner == BLUE || s.winner == NO_WINNER);
            if (b->autoreset == AUTORESET_SAME_STEP || !known) {
                snprintf(err, err_len, "game %d is corrupt: a finished game%s", i,
                         known ? " (this env resets them at once)" : "");
                return -1;
            }
            continue;
        }
        game_judge_start(&s, &b->rules);
        if (s.done) {
            snprintf(err, err_len, "game %d is corrupt: a finished game", i);
            return -1;
        }
    }
    if (!b->recording) return 0;
    const uint8_t *sheets = slots + (b->versus ? (size_t)b->num_envs * sizeof(VersusSlot) : 0);
    const uint8_t *rows = sheets + (size_t)b->num_envs * sizeof(RecordSheet);
    size_t row = (size_t)b->rec.capacity * sizeof(uint16_t);
    for (int i = 0; i < b->num_envs; i++) {
        GameState s;
        RecordSheet sheet;
        memcpy(&s, states + (size_t)i * sizeof(GameState), sizeof(s));
        memcpy(&sheet, sheets + (size_t)i * sizeof(sheet), sizeof(sheet));
        /* The actions are read in place: the payload after the header keeps 2-byte
         * alignment (the header is a multiple of 8, every block before a multiple of 2). */
        if (record_check(b, &s, &sheet, (const uint16_t *)(rows + (size_t)i * row), why, sizeof(why)) < 0) {
            snprintf(err, err_len, "game %d is corrupt: %s", i, why);
            return -1;
        }
    }
    return 0;
}

void save_batch_read(Batch *b, const uint8_t *data) {
    data += sizeof(SaveHeader);
    memcpy(&b->stats, data, sizeof(b->stats));
    data += sizeof(b->stats);
    memcpy(b->states, data, (size_t)b->num_envs * sizeof(GameState));
    data += (size_t)b->num_envs * sizeof(GameState);
    memcpy(b->sample_rng, data, (size_t)b->num_envs * sizeof(uint64_t));
    data += (size_t)b->num_envs * sizeof(uint64_t);
    if (b->versus) {
        memcpy(b->versus, data, (size_t)b->num_envs * sizeof(VersusSlot));
        data += (size_t)b->num_envs * sizeof(VersusSlot);
    }
    if (!b->recording) return;
    /* Each game's record goes to its current sheet; nothing is waiting (the caller
     * refuses a load while finished games wait to be handed out). */
    Recorder *rec = &b->rec;
    size_t row = (size_t)rec->capacity * sizeof(uint16_t);
    const uint8_t *rows = data + (size_t)b->num_envs * sizeof(RecordSheet);
    for (int64_t i = 0; i < b->num_envs; i++) {
        RecordSheet sheet;
        memcpy(&sheet, data + (size_t)i * sizeof(sheet), sizeof(sheet));
        recorder_set_current(rec, i, &sheet, (const uint16_t *)(const void *)(rows + (size_t)i * row));
        if (b->states[i].phase == PHASE_DEPLOY && !b->states[i].done) recorder_begin(rec, i, &b->states[i]);
    }
}

size_t save_game_bytes(void) { return sizeof(SaveHeader) + sizeof(GameState) + sizeof(uint64_t); }

void save_game_write(const GameState *s, const Rules *r, uint64_t bot_stream, uint8_t *out) {
    SaveHeader h;
    header_fill(&h, SAVE_KIND_GAME, 1, r, NULL, 0, 0, 0);
    memcpy(out, &h, sizeof(h));
    memcpy(out + sizeof(h), s, sizeof(*s));
    memcpy(out + sizeof(h) + sizeof(*s), &bot_stream, sizeof(bot_stream));
}

int save_game_read(GameState *s, uint64_t *bot_stream, const Rules *r, const uint8_t *data,
                   size_t len, char *err, size_t err_len) {
    char why[200];
    GameState fresh;
    if (header_check(data, len, SAVE_KIND_GAME, 1, r, NULL, 0, 0, 0, err, err_len) < 0) return -1;
    if (len != save_game_bytes()) {
        snprintf(err, err_len, "a save of one game has %zu bytes, got %zu", save_game_bytes(), len);
        return -1;
    }
    memcpy(&fresh, data + sizeof(SaveHeader), sizeof(fresh));
    if (game_validate(&fresh, r, why, sizeof(why)) < 0) {
        snprintf(err, err_len, "the game is corrupt: %s", why);
        return -1;
    }
    /* A position that is over by the rules (no move left) ends now, as a new one does. */
    game_judge_start(&fresh, r);
    *s = fresh;
    memcpy(bot_stream, data + sizeof(SaveHeader) + sizeof(GameState), sizeof(*bot_stream));
    return 0;
}
