/* fuzz_engine.c: libFuzzer target over the whole core (rules, board, moves, game,
 * views, observations, perft, batch). Any input is valid: bytes past the end read as 0.
 *
 * Input layout:
 *   byte 0   mode bits: 0 position from a field (else random setups), 1 to_move of a
 *            field, 2 fuzzed rules (else rules_default), 3 raw field letters (lakes not
 *            forced, so board_from_field must refuse most), 4 run a batch first,
 *            5 check the views after every ply (else every 16th and at the end),
 *            6 variant switches on the default rules
 *   rules    (bit 2) 12 piece counts (% 6, flag % 3), then the settings of rules.h
 *            that are no switch, in its order (fuzz_setting): setup_rows (% 6),
 *            two_square_limit, max_plies (u16), max_plies_without_attack (u16)
 *   variant  (bit 2 or bit 6) one byte of switches, bit i the i-th of rules.h
 *            (fuzz_set_switches): aggressor_wins, silent_defense, rescue,
 *            one_time_bombs, captain_two_squares, chasing_rule (bits 0-5);
 *            inputs that rules_validate refuses end here
 *   batch    (bit 4) shape (bit 0 3 games, bits 1-2 views % 3, bit 3 full view,
 *            bit 4 second run without mask), obs spec, seed (u64), steps, then per step a
 *            selector byte and the actions (see fuzz_batch)
 *   position (bit 0) 100 bytes mapped onto field letters, else a u64 seed
 *   plies    3 bytes each: op, u16 action. op bit 0: take the (action % n)-th legal
 *            action, else action % rules_num_actions whatever its legality (played
 *            only when moves_check_action passes it). op bit 1: check the views after
 *            this ply; bit 2: check every action of the variant against the mask.
 * Every state reached is checked by invariants.h; a violation abort()s.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "stratego/batch.h"
#include "invariants.h"
#include "engine/rng.h"

typedef struct {
    const uint8_t *data;
    size_t size, pos;
} Bytes;

static uint8_t take8(Bytes *b) { return b->pos < b->size ? b->data[b->pos++] : 0; }
static uint16_t take16(Bytes *b) {
    uint16_t lo = take8(b);
    return (uint16_t)(lo | (uint16_t)(take8(b) << 8));
}
static uint64_t take64(Bytes *b) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)take8(b) << (8 * i);
    return v;
}

enum {
    MODE_FIELD = 1 << 0,
    MODE_BLUE_FIRST = 1 << 1,
    MODE_RULES = 1 << 2,
    MODE_RAW_FIELD = 1 << 3,
    MODE_BATCH = 1 << 4,
    MODE_VIEWS_EVERY_PLY = 1 << 5,
    MODE_VARIANT = 1 << 6,
};

/* A fuzzed value of the non-switch setting k. Long caps would let one input run for
 * minutes and limits above a few never matter, so those three are held small (with a
 * rare large limit and rare 0 caps); any other setting (setup_rows, and any added to
 * rules.h) takes one byte, two for a uint16_t, over [min - 1, max + 1] within its type,
 * so that rules_validate sees both edges. */
static long fuzz_setting(Bytes *in, int k) {
    const RuleSetting *rs = &RULE_SETTING_TABLE[k];
    switch (k) {
    case RULE_two_square_limit: {
        uint8_t limit = take8(in);
        return limit < 0xF8 ? limit % 8 : limit;
    }
    case RULE_max_plies: {
        uint16_t cap = take16(in);
        return cap & 0x8000 ? 0 : cap % 400;
    }
    case RULE_max_plies_without_attack: {
        uint16_t quiet = take16(in);
        return quiet & 0x8000 ? 0 : quiet % 200;
    }
    default: {
        int wide = strcmp(rs->type, "uint16_t") == 0;
        long type_max = wide ? 0xFFFF : 0xFF;
        long lo = rs->min > 0 ? rs->min - 1 : rs->min, hi = rs->max < type_max ? rs->max + 1 : rs->max;
        long raw = wide ? take16(in) : take8(in);
        return lo + raw % (hi - lo + 1);
    }
    }
}

/* Piece counts, then every setting that is no switch in the list's order (rules.h). */
static void read_rules(Bytes *in, Rules *r) {
    memset(r, 0, sizeof(*r));
    for (int t = 0; t < PIECE_TYPE_NB; t++) r->piece_counts[t] = (uint8_t)(take8(in) % (t == FLAG ? 3 : 6));
    for (int k = 0; k < RULE_SETTING_NB; k++) {
        if (RULE_SETTING_TABLE[k].min == 0 && RULE_SETTING_TABLE[k].max == 1) continue;
        rules_set(r, k, fuzz_setting(in, k));
    }
}

static void read_variant(Bytes *in, Rules *r) { fuzz_set_switches(r, take8(in)); }

/* ------------------------------------------------------------------------- batch */

typedef struct {
    Batch b;
    BatchOutputs out;
    int64_t *actions;
    size_t obs_bytes;
} FuzzBatch;

static void fuzz_batch_free(FuzzBatch *fb) {
    batch_free(&fb->b);
    batch_outputs_free(&fb->out);
    free(fb->actions);
    memset(fb, 0, sizeof(*fb));
}

/* Outputs of exactly the sizes batch.h documents, each its own allocation
 * (batch_outputs_alloc), so that ASan sees any write past a row. */
static void fuzz_batch_alloc(FuzzBatch *fb, const Rules *r, int n, int views, ObsSpec spec, int full,
                             int write_mask) {
    memset(fb, 0, sizeof(*fb));
    BatchConfig c;
    batch_config_default(&c, n);
    c.write_mask = write_mask;
    c.rules = *r;
    c.obs_spec = spec;
    c.obs_views = c.final_views = views;
    c.full_obs = full;
    fb->obs_bytes = observe_bytes(&spec);
    fb->actions = malloc((size_t)n * sizeof(int64_t));
    FUZZ_CHECK(fb->actions != NULL && batch_outputs_alloc(&c, &fb->out) == 0 && batch_init(&fb->b, &c, &fb->out) == 0);
}

/* What the caller reads for game i agrees with game i's state. */
static void check_batch_turn(const FuzzBatch *fb, int64_t i, int check_planes) {
    static uint8_t mask[ACTION_MAX], obs[OBS_MAX_BYTES], full[FULL_OBS_CHANNELS * SQ_NB];
    const Batch *b = &fb->b;
    const GameState *s = &b->states[i];
    size_t nb = (size_t)rules_num_actions(&b->rules);
    check_state_tables(s, 1);
    check_game_status(s, &b->rules);
    /* Auto-reset: a game is never left finished. */
    FUZZ_CHECK(!s->done);
    if (b->write_mask) {
        moves_legal_mask(s, &b->rules, mask);
        FUZZ_CHECK(memcmp(mask, b->out.mask + (size_t)i * nb, nb) == 0);
    }
    FUZZ_CHECK(b->out.to_play[i] == s->to_move);
    if (b->obs_views) {
        const uint8_t *row = b->out.obs + (size_t)i * (size_t)b->obs_views * fb->obs_bytes;
        for (int k = 0; k < b->obs_views; k++) {
            PlayerView v;
            view_build(s, b->obs_views == 1 ? s->to_move : k, &v);
            observe_partial(&v, &b->obs_spec, obs);
            FUZZ_CHECK(memcmp(obs, row + (size_t)k * fb->obs_bytes, fb->obs_bytes) == 0);
            if (check_planes) check_observation(&v, &b->obs_spec, obs);
        }
    }
    if (b->full_obs) {
        observe_full(s, s->to_move, full);
        FUZZ_CHECK(memcmp(full, b->full_obs + i * FULL_OBS_CHANNELS * SQ_NB, sizeof(full)) == 0);
    }
}

/* The per-step results of game i after a step in which `actor` played. */
static void check_batch_results(const Batch *b, int64_t i, int actor) {
    uint8_t reason = b->out.final_reason[i];
    const float *rew = b->out.rewards + 2 * i;
    /* Every end is a termination, the caps included (batch.h). */
    FUZZ_CHECK(b->out.terminated[i] <= 1 && b->out.truncated[i] == 0);
    FUZZ_CHECK(b->out.reward[i] == rew[actor]);
    if (!b->out.terminated[i] && !b->out.truncated[i]) {
        FUZZ_CHECK(reason == END_NONE && b->out.final_winner[i] == -1 && b->out.final_plies[i] == 0);
        FUZZ_CHECK(rew[0] == 0.0f && rew[1] == 0.0f);
        return;
    }
    FUZZ_CHECK(reason != END_NONE && reason < END_REASON_NB);
    FUZZ_CHECK(b->out.final_plies[i] >= 0);
    int8_t w = b->out.final_winner[i];
    FUZZ_CHECK(w >= -1 && w <= 1);
    if (w < 0) {
        FUZZ_CHECK(rew[0] == 0.0f && rew[1] == 0.0f);
    } else {
        FUZZ_CHECK(rew[w] == 1.0f && rew[1 - w] == -1.0f);
    }
    if (reason == END_ILLEGAL_ACTION) FUZZ_CHECK(w == 1 - actor);
    if (game_is_cap(reason)) FUZZ_CHECK(w == -1);
}

/* Runs one batch over the step bytes from `in`; writes the final states into `out`
 * (for the determinism check). */
static void fuzz_batch_run(Bytes in, const Rules *r, int n, int views, ObsSpec spec, int full, uint64_t seed,
                           int steps, int threads, int write_mask, int narrow, GameState *out,
                           BatchStats *stats) {
    FuzzBatch fb;
    fuzz_batch_alloc(&fb, r, n, views, spec, full, write_mask);
    Batch *b = &fb.b;
    int nb = rules_num_actions(r);
    batch_reset(b, seed, threads);
    for (int64_t i = 0; i < n; i++) {
        FUZZ_CHECK(b->out.terminated[i] == 0 && b->out.truncated[i] == 0 && b->out.final_winner[i] == -1);
        check_batch_turn(&fb, i, 1);
    }
    for (int t = 0; t < steps; t++) {
        uint8_t sel = take8(&in);
        if (sel & 1) {
            /* Random legal actions, optionally from a narrowed mask. */
            if (sel & 2) {
                for (int64_t i = 0; i < n; i++) {
                    uint8_t keep = take8(&in);
                    uint8_t *row = b->out.mask + i * nb;
                    if (!narrow) continue;
                    for (int a = 0; a < nb; a++) row[a] &= (uint8_t)(((a * 37 + keep) & 7) == 0);
                }
            }
            batch_sample_actions(b, fb.actions, threads);
            for (int64_t i = 0; i < n; i++) {
                int64_t a = fb.actions[i];
                const GameState *s = &b->states[i];
                if (write_mask) {
                    const uint8_t *row = b->out.mask + i * nb;
                    int any = 0;
                    for (int k = 0; k < nb; k++) any |= row[k];
                    if (any) FUZZ_CHECK(a >= 0 && a < nb && row[a] == 1);
                    else FUZZ_CHECK(a == -1);
                } else {
                    /* Without a mask the sampler draws from the legal moves themselves. */
                    FUZZ_CHECK(a >= 0 && a < nb);
                    FUZZ_CHECK(moves_check_action(s, r, (int)a) == 0);
                }
                if (a < 0) fb.actions[i] = 0; /* in range for the step; ILLEGAL_LOSES judges it */
            }
        } else {
            for (int64_t i = 0; i < n; i++) fb.actions[i] = take16(&in) % nb;
        }
        FUZZ_CHECK(batch_find_out_of_range(b, fb.actions) == -1);
        /* batch_find_illegal names the first game whose action moves_check refuses. */
        int64_t expect = -1;
        int expect_code = 0;
        for (int64_t i = 0; i < n && expect < 0; i++) {
            int code = moves_check_action(&b->states[i], r, (int)fb.actions[i]);
            if (code != 0) {
                expect = i;
                expect_code = code;
            }
        }
        int code = 0;
        FUZZ_CHECK(batch_find_illegal(b, fb.actions, &code, 1 + (int)(expect & 1)) == expect);
        if (expect >= 0) FUZZ_CHECK(code == expect_code);
        int8_t actor[3];
        for (int64_t i = 0; i < n; i++) actor[i] = (int8_t)b->states[i].to_move;
        BatchStats before = b->stats;
        batch_step(b, fb.actions, ILLEGAL_LOSES, threads);
        int64_t finished = 0;
        for (int64_t i = 0; i < n; i++) {
            check_batch_results(b, i, actor[i]);
            /* The planes' values every 8th step (the bytes match a fresh encoding always). */
            check_batch_turn(&fb, i, t % 8 == 7);
            finished += b->out.terminated[i] || b->out.truncated[i];
        }
        const BatchStats *st = &b->stats;
        FUZZ_CHECK(st->games_finished - before.games_finished == finished);
        FUZZ_CHECK(st->games_finished == st->red_wins + st->blue_wins + st->draws);
        FUZZ_CHECK(st->cap_draws <= st->draws);
    }
    memcpy(out, b->states, (size_t)n * sizeof(GameState));
    *stats = b->stats;
    fuzz_batch_free(&fb);
}

static void fuzz_batch(Bytes *in, const Rules *r) {
    uint8_t shape = take8(in);
    int n = 2 + (shape & 1);
    int views = ((shape >> 1) & 3) % 3;
    int full = (shape >> 3) & 1;
    uint8_t spec_byte = take8(in);
    ObsSpec spec = {(uint8_t)(spec_byte % (HISTORY_NB + 1)), 0, (uint8_t)((spec_byte >> 6) & 1), r->max_plies,
                    r->max_plies_without_attack};
    spec.probabilities = spec.as_float && (spec_byte >> 7);
    uint64_t seed = take64(in);
    int steps = take8(in) % 48;
    /* Shape bit 4: the second run leaves the mask unwritten (write_mask 0), whose
     * sampler must pick the same actions from the legal moves; narrowing the mask is
     * then off in both runs. */
    int second_writes_mask = !((shape >> 4) & 1);
    /* The step bytes: read by the first run, read again by the second. */
    Bytes steps_in = *in;
    GameState first[3], second[3];
    BatchStats first_stats, second_stats;
    fuzz_batch_run(steps_in, r, n, views, spec, full, seed, steps, 1, 1, second_writes_mask, first, &first_stats);
    /* Same seed and actions with two threads: bit-identical games (batch.h). */
    int threads = 2;
    fuzz_batch_run(steps_in, r, n, views, spec, full, seed, steps, threads, second_writes_mask, second_writes_mask,
                   second, &second_stats);
    FUZZ_CHECK(memcmp(first, second, (size_t)n * sizeof(GameState)) == 0);
    FUZZ_CHECK(memcmp(&first_stats, &second_stats, sizeof(BatchStats)) == 0);
    /* Advance the caller's cursor past what the steps read (a third, cheap pass). */
    for (int t = 0; t < steps; t++) {
        uint8_t sel = take8(in);
        if (sel & 1) {
            if (sel & 2) for (int i = 0; i < n; i++) take8(in);
        } else {
            for (int i = 0; i < n; i++) take16(in);
        }
    }
}

/* ---------------------------------------------------------------------- one game */

static const char FIELD_LETTERS[] = "A_BCDEFGHIJKLMNOPQRSTUVWXY";

/* Reads a position; 0 if the game can be played, -1 if the field was refused. */
static int read_position(Bytes *in, uint8_t mode, const Rules *r, GameState *s) {
    if (!(mode & MODE_FIELD)) {
        memset(s, 0, sizeof(*s));
        s->rng = take64(in);
        game_reset_random(s, r);
        check_state_tables(s, 1);
        /* A fresh random game either goes on or (after 1000 tries) was judged over. */
        return 0;
    }
    char field[SQ_NB];
    for (int sq = 0; sq < SQ_NB; sq++) {
        uint8_t byte = take8(in);
        if (mode & MODE_RAW_FIELD) field[sq] = FIELD_LETTERS[byte % 26];
        else if (sq_is_lake(sq)) field[sq] = '_';
        else field[sq] = byte < 128 ? 'A' : FIELD_LETTERS[2 + byte % 24];
    }
    char err[200];
    memset(err, 0x55, sizeof(err));
    if (board_from_field(s, field, SQ_NB, err, sizeof(err)) < 0) {
        check_err_message(err, sizeof(err));
        return -1;
    }
    char back[SQ_NB];
    board_to_field(s, back);
    FUZZ_CHECK(memcmp(back, field, SQ_NB) == 0);
    check_state_tables(s, 1);
    s->to_move = (mode & MODE_BLUE_FIRST) ? BLUE : RED;
    game_judge_start(s, r);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static uint8_t mask[ACTION_MAX];
    static uint16_t list[ACTION_MAX];
    Bytes in = {data, size, 0};
    stratego_init();
    uint8_t mode = take8(&in);
    Rules r;
    char err[200];
    if (mode & MODE_RULES) {
        read_rules(&in, &r);
    } else {
        rules_default(&r);
    }
    if (mode & (MODE_RULES | MODE_VARIANT)) read_variant(&in, &r);
    int nb = rules_num_actions(&r);
    memset(err, 0x55, sizeof(err));
    if (rules_validate(&r, err, sizeof(err)) < 0) {
        check_err_message(err, sizeof(err));
        return 0;
    }
    FUZZ_CHECK(rules_piece_total(&r) <= r.setup_rows * BOARD_SIZE);
    if (mode & MODE_BATCH) fuzz_batch(&in, &r);

    GameState s;
    if (read_position(&in, mode, &r, &s) < 0) return 0;
    check_game_status(&s, &r);
    check_moves(&s, &r, mask, 1);
    check_views(&s, &r, mode);
    check_perft2(&s, &r);

    for (int ply = 0; !s.done && in.pos < in.size; ply++) {
        uint8_t op = take8(&in);
        uint16_t pick = take16(&in);
        int action;
        if (op & 1) {
            int n = moves_list(&s, &r, list);
            FUZZ_CHECK(n > 0);
            action = list[pick % n];
        } else {
            action = pick % nb;
        }
        int code = moves_check_action(&s, &r, action);
        FUZZ_CHECK((code == 0) == (mask[action] == 1));
        if (code != 0) continue;
        GameState before = s;
        int x, y;
        ActionKind kind = action_decode(s.to_move, action, &x, &y);
        int attack = kind == ACTION_MOVE && s.board[y] != CELL_EMPTY;
        game_apply_action(&s, &r, action);
        if (kind == ACTION_MOVE) {
            FUZZ_CHECK(s.ply == before.ply + 1);
            /* The turn passes, unless the move opened a rescue phase for the mover. */
            FUZZ_CHECK(s.to_move == (s.phase == PHASE_RESCUE ? before.to_move : 1 - before.to_move));
            const HistoryEntry *h = &s.history[before.ply % HISTORY_NB];
            FUZZ_CHECK(h->from == x && h->to == y && h->player == before.to_move && h->attack == attack);
            if (!attack) FUZZ_CHECK(s.board[y] != CELL_EMPTY && s.board[x] == CELL_EMPTY);
        } else {
            /* A rescue or its decline ends the turn without a ply of its own. */
            FUZZ_CHECK(before.phase == PHASE_RESCUE && s.phase == PHASE_MOVE);
            FUZZ_CHECK(s.ply == before.ply && s.to_move == 1 - before.to_move);
            if (kind == ACTION_RESCUE) {
                FUZZ_CHECK(s.rescues[before.to_move] == before.rescues[before.to_move] + 1);
                FUZZ_CHECK(s.on_board[before.to_move][x] == before.on_board[before.to_move][x] + 1);
            }
        }
        check_state_tables(&s, 1);
        check_game_status(&s, &r);
        /* The whole action space every 8th ply or on demand; the views likewise. */
        check_moves(&s, &r, mask, (op & 4) || ply % 8 == 7);
        if ((mode & MODE_VIEWS_EVERY_PLY) || (op & 2) || ply % 16 == 15) check_views(&s, &r, op);
    }
    check_views(&s, &r, (uint8_t)s.ply);
    check_perft2(&s, &r);
    return 0;
}
