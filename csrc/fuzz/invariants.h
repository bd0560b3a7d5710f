/* invariants.h: checks the fuzz targets run on every state they reach. Each failed
 * check prints what failed and where, then abort()s, which libFuzzer and the replay
 * program (replay_main.c) both report as a crash.
 *
 * Header-only (static functions) so each target is one .c file plus the core sources.
 */
#ifndef STRATEGO_FUZZ_INVARIANTS_H
#define STRATEGO_FUZZ_INVARIANTS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stratego/board.h"
#include "stratego/game.h"
#include "stratego/init.h"
#include "stratego/moves.h"
#include "stratego/observe.h"
#include "stratego/observe_full.h"
#include "stratego/rules.h"
#include "stratego/view.h"

static inline void fuzz_fail(const char *what, const char *file, int line) {
    fprintf(stderr, "fuzz invariant violated: %s (%s:%d)\n", what, file, line);
    abort();
}

#define FUZZ_CHECK(cond)                                   \
    do {                                                   \
        if (!(cond)) fuzz_fail(#cond, __FILE__, __LINE__); \
    } while (0)

/* The fuzzers' setter of the switches (rules.h: the settings of range 0..1): bit i of
 * `bits` is the i-th switch in the list's order, so a switch added to the list is fuzzed
 * without a change here (the first six: aggressor_wins, silent_defense, rescue,
 * one_time_bombs, captain_two_squares, chasing_rule, as the corpora have them). */
static inline void fuzz_set_switches(Rules *r, unsigned bits) {
    int bit = 0;
    for (int k = 0; k < RULE_SETTING_NB; k++) {
        if (RULE_SETTING_TABLE[k].min != 0 || RULE_SETTING_TABLE[k].max != 1) continue;
        rules_set(r, k, (bits >> bit) & 1);
        bit++;
    }
}

/* An error message written by the engine: terminated inside its buffer, not empty. */
static inline void check_err_message(const char *err, size_t err_len) {
    FUZZ_CHECK(memchr(err, '\0', err_len) != NULL);
    FUZZ_CHECK(err_len == 1 || err[0] != '\0');
}

/* Board cells, piece table and counters agree; `strict_flags`: the public flags are
 * ones play can produce (only movable pieces move, only Scouts are "scouted"). */
static inline void check_state_tables(const GameState *s, int strict_flags) {
    uint8_t on_board[PLAYER_NB][PIECE_TYPE_NB] = {{0}};
    uint8_t movable[PLAYER_NB] = {0};
    FUZZ_CHECK(s->to_move < PLAYER_NB);
    FUZZ_CHECK(s->placed[RED] <= MAX_PIECES && s->placed[BLUE] <= MAX_PIECES);
    for (int sq = 0; sq < SQ_NB; sq++) {
        uint8_t cell = s->board[sq];
        FUZZ_CHECK((cell == CELL_LAKE) == (sq_is_lake(sq) != 0));
        if (cell == CELL_EMPTY || cell == CELL_LAKE) continue;
        FUZZ_CHECK(cell <= PIECE_ID_NB);
        int id = cell - 1, p = piece_owner(id);
        FUZZ_CHECK(id - p * MAX_PIECES < s->placed[p]);
        FUZZ_CHECK(s->piece_sq[id] == sq);
    }
    for (int id = 0; id < PIECE_ID_NB; id++) {
        int p = piece_owner(id);
        int sq = s->piece_sq[id];
        if (id - p * MAX_PIECES >= s->placed[p]) {
            FUZZ_CHECK(sq == SQ_NONE);
            continue;
        }
        int type = s->piece_type[id];
        uint8_t flags = s->piece_flags[id];
        FUZZ_CHECK(type < PIECE_TYPE_NB);
        FUZZ_CHECK((flags & ~PIECE_FLAGS_ALL) == 0);
        if (strict_flags) {
            if (flags & PIECE_MOVED) FUZZ_CHECK(piece_type_is_movable(type));
            if (flags & PIECE_SCOUTED) FUZZ_CHECK(type == SCOUT && (flags & PIECE_MOVED));
            if (flags & PIECE_CAPTAIN_SHOWN) FUZZ_CHECK(type == CAPTAIN && (flags & PIECE_MOVED));
            if (flags & PIECE_SCOUT_OR_CAPTAIN) FUZZ_CHECK((type == SCOUT || type == CAPTAIN) && (flags & PIECE_MOVED));
        }
        if (sq == SQ_NONE) continue;
        FUZZ_CHECK(sq < SQ_NB);
        FUZZ_CHECK(s->board[sq] == id + 1);
        on_board[p][type]++;
        if (piece_type_is_movable(type)) movable[p]++;
    }
    FUZZ_CHECK(memcmp(on_board, s->on_board, sizeof(on_board)) == 0);
    FUZZ_CHECK(memcmp(movable, s->movable, sizeof(movable)) == 0);
    /* The Zobrist hash is the XOR of the keys of the pieces on the board. */
    uint64_t hash = 0;
    for (int id = 0; id < PIECE_ID_NB; id++) {
        if (s->piece_sq[id] != SQ_NONE) hash ^= board_zobrist(piece_owner(id), s->piece_type[id], s->piece_sq[id]);
    }
    FUZZ_CHECK(hash == s->hash);
    /* The square sets the legal mask reads (squareset.h) equal a recount. */
    FUZZ_CHECK(board_sets_match(s));
    FUZZ_CHECK(s->phase <= PHASE_RESCUE);
    if (s->phase == PHASE_RESCUE) FUZZ_CHECK(s->rescuer < PIECE_ID_NB && piece_owner(s->rescuer) == s->to_move);
    FUZZ_CHECK(s->rescues[RED] <= RESCUE_LIMIT && s->rescues[BLUE] <= RESCUE_LIMIT);
}

/* The result fields of a game that play (not a restore) produced. */
static inline void check_game_status(const GameState *s, const Rules *r) {
    FUZZ_CHECK(s->done <= 1 && s->winner <= NO_WINNER && s->end_reason < END_REASON_NB);
    if (!s->done) {
        FUZZ_CHECK(s->winner == NO_WINNER && s->end_reason == END_NONE);
        /* game_judge ends a game as soon as one of these fails. */
        FUZZ_CHECK(s->movable[RED] > 0 && s->movable[BLUE] > 0);
        if (s->phase == PHASE_RESCUE) {
            /* Mid-turn: the judge runs when the rescue (or its decline) ends the turn. */
            FUZZ_CHECK(r->rescue);
            return;
        }
        FUZZ_CHECK(moves_any_legal(s, r, s->to_move));
        if (r->max_plies) FUZZ_CHECK(s->ply < r->max_plies);
        if (r->max_plies_without_attack) FUZZ_CHECK(s->plies_since_attack < r->max_plies_without_attack);
        return;
    }
    FUZZ_CHECK(s->phase == PHASE_MOVE);
    switch (s->end_reason) {
    case END_FLAG_CAPTURED:
        /* The capturer wins; the move passed the turn to the loser. */
        FUZZ_CHECK(s->winner != NO_WINNER && s->winner == 1 - s->to_move);
        break;
    case END_NO_MOVABLE_PIECES:
        FUZZ_CHECK(s->movable[RED] == 0 || s->movable[BLUE] == 0);
        if (s->winner == NO_WINNER) FUZZ_CHECK(s->movable[RED] == 0 && s->movable[BLUE] == 0);
        else FUZZ_CHECK(s->movable[s->winner] > 0 && s->movable[1 - s->winner] == 0);
        break;
    case END_NO_LEGAL_MOVE:
        FUZZ_CHECK(s->winner == 1 - s->to_move);
        FUZZ_CHECK(!moves_any_legal(s, r, s->to_move));
        break;
    case END_NEITHER_CAN_MOVE:
        FUZZ_CHECK(s->winner == NO_WINNER);
        FUZZ_CHECK(!moves_any_legal(s, r, RED) && !moves_any_legal(s, r, BLUE));
        break;
    case END_MAX_PLIES:
        FUZZ_CHECK(s->winner == NO_WINNER && r->max_plies && s->ply >= r->max_plies);
        break;
    case END_MAX_PLIES_WITHOUT_ATTACK:
        FUZZ_CHECK(s->winner == NO_WINNER && r->max_plies_without_attack &&
                   s->plies_since_attack >= r->max_plies_without_attack);
        break;
    default:
        /* END_ILLEGAL_ACTION only comes from a batch; END_NONE never with done. */
        fuzz_fail("end reason of a finished single game", __FILE__, __LINE__);
    }
}

/* Move generation, the legality checks and the mask agree; `sweep`: over the whole
 * action space of the variant (every action's moves_check_action against the mask),
 * else over the listed actions and the actions from the first listed move's square.
 * `mask` holds ACTION_MAX bytes; moves_legal_mask must write only the variant's
 * rules_num_actions(r) of them. Returns the number of legal actions. */
static inline int check_moves(const GameState *s, const Rules *r, uint8_t *mask, int sweep) {
    static uint16_t list[ACTION_MAX];
    int player = s->to_move, nb = rules_num_actions(r);
    FUZZ_CHECK(nb > 0 && nb <= ACTION_MAX);
    int n = moves_list(s, r, list);
    FUZZ_CHECK(n >= 0 && n <= nb);
    memset(mask + nb, 0x77, (size_t)(ACTION_MAX - nb));
    FUZZ_CHECK(moves_legal_mask(s, r, mask) == n);
    for (int a = nb; a < ACTION_MAX; a++) FUZZ_CHECK(mask[a] == 0x77);
    if (s->phase == PHASE_MOVE) FUZZ_CHECK(moves_any_legal(s, r, player) == (n > 0));
    else FUZZ_CHECK(n > 0 && mask[RESCUE_DECLINE] == 1); /* declining is always allowed */
    int ones = 0;
    for (int a = 0; a < nb; a++) {
        FUZZ_CHECK(mask[a] <= 1);
        ones += mask[a];
    }
    FUZZ_CHECK(ones == n);
    for (int i = 0; i < n; i++) {
        int a = list[i], x, y;
        FUZZ_CHECK(a < nb);
        FUZZ_CHECK(mask[a] == 1);
        if (!s->done) FUZZ_CHECK(moves_check_action(s, r, a) == 0);
        switch (action_decode(player, a, &x, &y)) {
        case ACTION_MOVE:
            FUZZ_CHECK(s->phase == PHASE_MOVE);
            FUZZ_CHECK(x >= 0 && x < SQ_NB && y >= 0 && y < SQ_NB);
            FUZZ_CHECK(action_encode(player, x, y) == a);
            FUZZ_CHECK(moves_check(s, r, player, x, y) == 0);
            break;
        case ACTION_RESCUE:
            FUZZ_CHECK(s->phase == PHASE_RESCUE && r->rescue);
            FUZZ_CHECK(x >= SPY && x <= MARSHAL && y >= 0 && y < SQ_NB && s->board[y] == CELL_EMPTY);
            FUZZ_CHECK(action_encode_rescue(player, x, y) == a);
            FUZZ_CHECK(moves_check_rescue(s, x, y) == 0);
            FUZZ_CHECK(moves_captured_piece(s, player, x) >= 0);
            break;
        case ACTION_DECLINE:
            FUZZ_CHECK(s->phase == PHASE_RESCUE && a == RESCUE_DECLINE);
            break;
        }
        /* Listed once: mark as we go, so a duplicate finds a 2. Restored below. */
        mask[a] = 2;
    }
    for (int i = 0; i < n; i++) mask[list[i]] = 1;
    if (!s->done) {
        int from_sq = n > 0 ? list[0] / TARGETS_PER_SQ : -1;
        for (int a = 0; a < nb; a++) {
            /* Without the sweep: the line actions of the first listed move's square. */
            if (!sweep && (a >= LINE_ACTION_NB || a / TARGETS_PER_SQ != from_sq)) continue;
            int code = moves_check_action(s, r, a);
            FUZZ_CHECK((code == 0) == (mask[a] == 1));
            FUZZ_CHECK(moves_illegal_reason(code) != NULL);
            int x, y;
            if (action_decode(player, a, &x, &y) == ACTION_MOVE && s->phase == PHASE_MOVE) {
                /* The square-based check agrees with the action-based one. */
                FUZZ_CHECK((moves_check(s, r, player, x, y) == 0) == (code == 0));
            }
        }
    }
    /* The opponent's moves, as if it were to move: each passes its own check. */
    GameState other = *s;
    other.to_move = (uint8_t)(1 - player);
    other.phase = PHASE_MOVE;
    other.rescuer = SQ_NONE;
    int m = moves_list(&other, r, list);
    FUZZ_CHECK(m >= 0 && m <= nb);
    FUZZ_CHECK(moves_any_legal(s, r, other.to_move) == (m > 0));
    for (int i = 0; i < m; i++) {
        int x, y;
        FUZZ_CHECK(list[i] < nb);
        FUZZ_CHECK(action_decode(other.to_move, list[i], &x, &y) == ACTION_MOVE);
        FUZZ_CHECK(moves_check(&other, r, other.to_move, x, y) == 0);
    }
    FUZZ_CHECK(game_perft(s, r, 1) == (s->done ? 0 : (uint64_t)n));
    return n;
}

/* perft(2) equals the sum of the children's move counts. */
static inline void check_perft2(const GameState *s, const Rules *r) {
    static uint16_t list[ACTION_MAX], child_list[ACTION_MAX];
    uint64_t expect = 0;
    if (!s->done) {
        int n = moves_list(s, r, list);
        for (int i = 0; i < n; i++) {
            GameState child = *s;
            FUZZ_CHECK(moves_check_action(&child, r, list[i]) == 0);
            game_apply_action(&child, r, list[i]);
            check_state_tables(&child, 1);
            check_game_status(&child, r);
            if (!child.done) expect += (uint64_t)moves_list(&child, r, child_list);
        }
    }
    FUZZ_CHECK(game_perft(s, r, 2) == expect);
}

/* One observation spec's planes for view v: 0/1 planes are 0/1, each square has exactly
 * one occupant plane, counts match, beliefs are distributions. `out` holds
 * observe_bytes(spec) bytes. */
static inline void check_observation(const PlayerView *v, const ObsSpec *spec, const void *out) {
    const uint8_t *u = out;
    const float *f = out;
    int channels = observe_channels(spec);
    int counts = OBS_HISTORY + 3 * spec->history_k;
    int progress = counts + 2 * PIECE_TYPE_NB;
    int belief = progress + 2;
    FUZZ_CHECK(channels == belief + (spec->probabilities ? PIECE_TYPE_NB : 0));
#define PLANE(c, sq) (spec->as_float ? f[(c) * SQ_NB + (sq)] : (float)u[(c) * SQ_NB + (sq)])
    for (int sq = 0; sq < SQ_NB; sq++) {
        int occupants = 0;
        for (int c = 0; c < counts; c++) {
            float x = PLANE(c, sq);
            FUZZ_CHECK(x == 0.0f || x == 1.0f);
            if (c < OBS_OWN_REVEALED || c == OBS_LAKE || c == OBS_EMPTY) occupants += x == 1.0f;
        }
        FUZZ_CHECK(occupants == 1);
        uint8_t cell = v->cell[sq];
        FUZZ_CHECK(PLANE(OBS_EMPTY, sq) == (cell == VIEW_EMPTY));
        FUZZ_CHECK(PLANE(OBS_LAKE, sq) == (cell == VIEW_LAKE));
        for (int t = 0; t < PIECE_TYPE_NB; t++) {
            FUZZ_CHECK(PLANE(counts + t, sq) == (float)v->own_on_board[t]);
            FUZZ_CHECK(PLANE(counts + PIECE_TYPE_NB + t, sq) == (float)v->opp_on_board[t]);
        }
        for (int c = progress; c < progress + 2; c++) {
            float x = PLANE(c, sq);
            FUZZ_CHECK(x == PLANE(c, 0));
            FUZZ_CHECK(x >= 0.0f && x <= (spec->as_float ? 1.0f : 255.0f));
        }
        if (!spec->probabilities) continue;
        FUZZ_CHECK(spec->as_float);
        float sum = 0.0f;
        for (int t = 0; t < PIECE_TYPE_NB; t++) {
            float p = f[(belief + t) * SQ_NB + sq];
            FUZZ_CHECK(p >= 0.0f && p <= 1.0f + 1e-6f);
            sum += p;
        }
        if (cell & VIEW_OPP_UNKNOWN) {
            FUZZ_CHECK(fabsf(sum - 1.0f) < 1e-4f);
            if (v->flags[sq] & PIECE_MOVED) {
                FUZZ_CHECK(f[(belief + BOMB) * SQ_NB + sq] == 0.0f);
                FUZZ_CHECK(f[(belief + FLAG) * SQ_NB + sq] == 0.0f);
            }
        } else if (cell & VIEW_OPP_KNOWN) {
            FUZZ_CHECK(sum == 1.0f && f[(belief + (cell & VIEW_TYPE_MASK)) * SQ_NB + sq] == 1.0f);
        } else {
            FUZZ_CHECK(sum == 0.0f);
        }
    }
#undef PLANE
}

/* The specs every view is encoded with: uint8 and float, short and full history, with
 * and without beliefs, with and without caps. `pick` varies the last one. */
enum { SPEC_NB = 4 };
static inline void observation_specs(const Rules *r, uint8_t pick, ObsSpec specs[SPEC_NB]) {
    specs[0] = (ObsSpec){0, 0, 0, 0, 0};
    specs[1] = (ObsSpec){4, 0, 0, r->max_plies, r->max_plies_without_attack};
    specs[2] = (ObsSpec){HISTORY_NB, 1, 1, r->max_plies, r->max_plies_without_attack};
    specs[3] = (ObsSpec){(uint8_t)(pick % (HISTORY_NB + 1)), (uint8_t)((pick >> 6) & 1), 1,
                         (uint16_t)(pick * 7u), (uint16_t)(pick * 3u)};
}

/* Largest observation of any spec: float32, full history, beliefs. */
enum { OBS_MAX_BYTES = (OBS_HISTORY + 3 * HISTORY_NB + 2 * PIECE_TYPE_NB + 2 + PIECE_TYPE_NB) * SQ_NB * 4 };

/* Both players' partial views under every spec, the full view, and the no-leak check:
 * swapping the types of two pieces the observer has not identified changes nothing
 * the observer gets. */
static inline void check_views(const GameState *s, const Rules *r, uint8_t pick) {
    static uint8_t out[OBS_MAX_BYTES], out2[OBS_MAX_BYTES], full[FULL_OBS_CHANNELS * SQ_NB];
    ObsSpec specs[SPEC_NB];
    observation_specs(r, pick, specs);
    for (int player = 0; player < PLAYER_NB; player++) {
        PlayerView v, v2;
        view_build(s, player, &v);
        int unknown = 0;
        for (int sq = 0; sq < SQ_NB; sq++) unknown += (v.cell[sq] & VIEW_OPP_UNKNOWN) != 0;
        FUZZ_CHECK(unknown == v.opp_unknown_moved + v.opp_unknown_unmoved);
        int unidentified = 0;
        for (int t = 0; t < PIECE_TYPE_NB; t++) {
            FUZZ_CHECK(v.opp_unknown[t] <= v.opp_on_board[t]);
            unidentified += v.opp_unknown[t];
        }
        /* opp_unknown counts the unidentified pieces on the board and captured ones. */
        FUZZ_CHECK(unidentified == unknown + v.opp_captured_unknown_moved + v.opp_captured_unknown_unmoved);
        for (int i = 0; i < SPEC_NB; i++) {
            size_t bytes = observe_bytes(&specs[i]);
            FUZZ_CHECK(bytes <= sizeof(out));
            observe_partial(&v, &specs[i], out);
            check_observation(&v, &specs[i], out);
        }
        /* No leak: swap the hidden types of two unidentified opponent pieces. */
        int a = -1, b = -1;
        int first = (1 - player) * MAX_PIECES;
        for (int k = 0; k < MAX_PIECES; k++) {
            int id = first + (k + pick) % MAX_PIECES;
            if (s->piece_sq[id] == SQ_NONE || (s->piece_flags[id] & PIECE_IDENTIFIED)) continue;
            if (a < 0) a = id;
            else if (s->piece_type[id] != s->piece_type[a]) { b = id; break; }
        }
        if (b >= 0) {
            GameState swapped = *s;
            uint8_t t = swapped.piece_type[a];
            swapped.piece_type[a] = swapped.piece_type[b];
            swapped.piece_type[b] = t;
            view_build(&swapped, player, &v2);
            FUZZ_CHECK(memcmp(&v, &v2, sizeof(v)) == 0);
            observe_partial(&v, &specs[2], out);
            observe_partial(&v2, &specs[2], out2);
            FUZZ_CHECK(memcmp(out, out2, observe_bytes(&specs[2])) == 0);
        }
        observe_full(s, player, full);
        for (int sq = 0; sq < SQ_NB; sq++) {
            int occupants = 0;
            for (int c = 0; c < FULL_OBS_CHANNELS; c++) {
                FUZZ_CHECK(full[c * SQ_NB + sq] <= 1);
                if (c < 24 || c >= 28) occupants += full[c * SQ_NB + sq];
            }
            FUZZ_CHECK(occupants == 1);
        }
    }
}

#endif
