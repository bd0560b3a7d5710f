#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chase.h"
#include "combat.h"
#include "moves.h"
#include "repetition.h"
#include "engine/mask_bits.h"
#include "engine/rng.h"
#include "setup.h"

void game_end(GameState *s, int winner, EndReason reason) {
    s->done = 1;
    s->winner = (uint8_t)winner;
    s->end_reason = (uint8_t)reason;
}

const char *const END_REASON_NAMES[END_REASON_NB] = {
    [END_NONE] = "none",
    [END_FLAG_CAPTURED] = "flag_captured",
    [END_NO_MOVABLE_PIECES] = "no_movable_pieces",
    [END_NO_LEGAL_MOVE] = "no_legal_move",
    [END_NEITHER_CAN_MOVE] = "neither_can_move",
    [END_MAX_PLIES] = "max_plies",
    [END_MAX_PLIES_WITHOUT_ATTACK] = "max_plies_without_attack",
    [END_ILLEGAL_ACTION] = "illegal_action",
    [END_RESIGNED] = "resigned",
    [END_AGREED_DRAW] = "agreed_draw",
    [END_TIMEOUT] = "timeout",
};

void game_forfeit(GameState *s) { game_end(s, 1 - s->to_move, END_ILLEGAL_ACTION); }

int game_concede(GameState *s, EndReason reason, int player) {
    if (game_is_over(s)) return -1;
    switch (reason) {
    case END_RESIGNED:
    case END_TIMEOUT:
        if (player != RED && player != BLUE) return -1;
        game_end(s, 1 - player, reason);
        return 0;
    case END_AGREED_DRAW:
        game_end(s, NO_WINNER, reason);
        return 0;
    default:
        return -1;
    }
}

int game_legal_actions(const GameState *s, const Rules *r, uint16_t *actions) {
    return game_is_over(s) ? 0 : moves_list(s, r, actions);
}

int game_legal_mask(const GameState *s, const Rules *r, uint8_t *mask, int packed) {
    if (game_is_over(s)) {
        int n = rules_num_actions(r);
        memset(mask, 0, (size_t)(packed ? MASK_BITS_BYTES(n) : n));
        return 0;
    }
    return packed ? moves_legal_bits(s, r, mask) : moves_legal_mask(s, r, mask);
}

int game_check_move(const GameState *s, const Rules *r, int from, int to) {
    if (!game_is_over(s) && s->phase == PHASE_DEPLOY) return ILLEGAL_DEPLOYING;
    int action = action_encode(s->to_move, from, to);
    if (action < 0 && !game_is_over(s)) return moves_check(s, r, s->to_move, from, to);
    /* An action's check starts with the end of the game: once it is over, any action
     * (0 for a pair on no common line) gives "the game is over". */
    return moves_check_action(s, r, action < 0 ? 0 : action);
}

int game_check_place(const GameState *s, const Rules *r, int type, int sq) {
    return game_is_over(s) ? ILLEGAL_GAME_OVER : moves_check_place(s, r, type, sq);
}

/* Where the judge may write the legal mask of the player to move (game_legal_mask's
 * format) when it asks whether that player can move: the batch's row, which the count
 * of that mask answers (game_apply_action_mask). NULL: moves_any_legal answers. */
typedef struct {
    uint8_t *mask;
    int packed;
    int written;
} JudgeMask;

/* The end-of-game rules that depend on the position, checked after every move and at
 * the start (see game.h for the rules and their order). */
static void game_judge(GameState *s, const Rules *r, JudgeMask *out) {
    int mover = 1 - s->to_move;
    if (s->movable[RED] == 0 || s->movable[BLUE] == 0) {
        int winner = s->movable[RED] ? RED : s->movable[BLUE] ? BLUE : NO_WINNER;
        game_end(s, winner, END_NO_MOVABLE_PIECES);
        return;
    }
    int can_move;
    if (out != NULL) {
        can_move = game_legal_mask(s, r, out->mask, out->packed) > 0;
        out->written = 1;
    } else {
        can_move = moves_any_legal(s, r, s->to_move);
    }
    if (!can_move) {
        if (moves_any_legal(s, r, mover)) {
            game_end(s, mover, END_NO_LEGAL_MOVE);
        } else {
            game_end(s, NO_WINNER, END_NEITHER_CAN_MOVE);
        }
        return;
    }
    if (r->max_plies && s->ply >= r->max_plies) {
        game_end(s, NO_WINNER, END_MAX_PLIES);
    } else if (r->max_plies_without_attack && s->plies_since_attack >= r->max_plies_without_attack) {
        game_end(s, NO_WINNER, END_MAX_PLIES_WITHOUT_ATTACK);
    }
}

void game_judge_start(GameState *s, const Rules *r) {
    /* A pending rescue is part of a turn: the turn's end judges the game; a deployment
     * is judged when its last piece is placed. */
    if (!s->done && s->phase == PHASE_MOVE) game_judge(s, r, NULL);
}

int game_side_without_flag(const GameState *s, const Rules *r) {
    if (s->phase == PHASE_DEPLOY || r->piece_counts[FLAG] == 0) return -1;
    for (int p = 0; p < PLAYER_NB; p++) {
        if (s->on_board[p][FLAG] == 0) return p;
    }
    return -1;
}

int game_from_field(GameState *s, const Rules *r, const char *field, size_t len, int to_move, char *err,
                    size_t err_len) {
    if (board_from_field(s, field, len, err, err_len) < 0) return -1;
    s->to_move = (uint8_t)to_move;
    int total = rules_piece_total(r);
    if (r->deploy && (s->placed[RED] < total || s->placed[BLUE] < total)) {
        s->phase = PHASE_DEPLOY;
        return game_validate(s, r, err, err_len);
    }
    game_judge_start(s, r);
    return 0;
}

int game_validate(const GameState *s, const Rules *r, char *err, size_t err_len) {
    if (board_validate(s, err, err_len) < 0) return -1;
    if (s->phase == PHASE_DEPLOY) {
        /* Before play: no move made, no piece captured, every piece in its owner's zone
         * and no more of a type than the rules have, and a piece in hand for the side to
         * deploy. */
        int bad = !r->deploy || s->ply != 0 || s->plies_since_attack != 0;
        for (int p = 0; p < PLAYER_NB && !bad; p++) {
            int first = p * MAX_PIECES;
            for (int id = first; id < first + s->placed[p]; id++) {
                if (s->piece_sq[id] == SQ_NONE || s->piece_flags[id] != 0 ||
                    !rules_in_setup_zone(r, sq_to_frame(s->piece_sq[id], p)))
                    bad = 1;
            }
            for (int t = 0; t < PIECE_TYPE_NB; t++) bad |= s->on_board[p][t] > r->piece_counts[t];
        }
        if (bad || moves_hand_total(s, r, s->to_move) <= 0) {
            snprintf(err, err_len, "a deployment phase needs the deploy rule, no ply played, pieces only in their "
                                   "owners' setup zones within the rules' counts, and pieces in hand for the player to move");
            return -1;
        }
        /* Placements alternate, red first (apply_place): while both sides hold pieces
         * both deploy from an empty board, so red has placed as many as blue when red is
         * to move and one more when blue is. Any other count is no deployment's. */
        int lead = s->placed[RED] - s->placed[BLUE];
        if (moves_hand_total(s, r, RED) > 0 && moves_hand_total(s, r, BLUE) > 0 && lead != (s->to_move == BLUE)) {
            snprintf(err, err_len, "placements alternate, red first: with both sides deploying, %s to move needs "
                                   "%s, got %d red and %d blue pieces placed", s->to_move == RED ? "red" : "blue",
                     s->to_move == RED ? "as many red pieces placed as blue" : "one more red piece placed than blue",
                     s->placed[RED], s->placed[BLUE]);
            return -1;
        }
    }
    if (s->phase == PHASE_RESCUE) {
        int sq = s->piece_sq[s->rescuer];
        if (!r->rescue || sq == SQ_NONE || s->piece_type[s->rescuer] == SCOUT ||
            sq_row(sq_to_frame(sq, s->to_move)) != BOARD_SIZE - 1) {
            snprintf(err, err_len, "a rescue phase needs the rescue rule and a rescuer on the opponent's back row");
            return -1;
        }
    }
    return 0;
}

/* The setup of a side that does not deploy, while the other does: from the table or
 * random, drawn again while that side alone has no legal move (the "never hand out"
 * rule of game_reset, for the one side it can judge before the other has placed). */
static void game_setup_side(GameState *s, const Rules *r, const SetupTable *table, int player, uint64_t *rng) {
    GameState empty = *s;
    for (int attempt = 0; attempt < 1000; attempt++) {
        *s = empty;
        if (table != NULL && table->n > 0) {
            uint32_t row = rng_below(rng, (uint32_t)table->n);
            setup_from_letters(s, player, table->letters + (size_t)row * MAX_PIECES);
        } else {
            setup_random(s, r, player, rng);
        }
        if (moves_any_legal(s, r, player)) return;
    }
}

/* A game whose `deploy` sides (bits) place their own pieces: the others set up, then
 * PHASE_DEPLOY with the first deploying side, red first, to move. */
static void game_reset_deploy(GameState *s, const Rules *r, const SetupTable *table, int deploy) {
    uint64_t rng = s->rng;
    board_clear(s);
    for (int p = 0; p < PLAYER_NB; p++) {
        if (!(deploy >> p & 1)) game_setup_side(s, r, table, p, &rng);
    }
    s->rng = rng;
    s->phase = PHASE_DEPLOY;
    s->to_move = (uint8_t)(deploy & 1 ? RED : BLUE);
}

static void apply_place(GameState *s, const Rules *r, int type, int sq, JudgeMask *out) {
    int player = s->to_move;
    board_place(s, player, type, sq);
    /* Alternately, red first; a side with nothing left in hand is skipped (game.h). */
    if (moves_hand_total(s, r, 1 - player) > 0) {
        s->to_move = (uint8_t)(1 - player);
    } else if (moves_hand_total(s, r, player) == 0) {
        s->phase = PHASE_MOVE;
        s->to_move = RED;
        game_judge(s, r, out);
    }
}

void game_apply_place(GameState *s, const Rules *r, int type, int sq) { apply_place(s, r, type, sq, NULL); }

void game_reset(GameState *s, const Rules *r, const SetupTable *table) {
    if (r->deploy && table != NULL && table->deploy) {
        game_reset_deploy(s, r, table, table->deploy);
        return;
    }
    uint64_t rng = s->rng;
    /* A setup that leaves red without any move would end the game at ply 0; such
     * setups are astronomically rare and are drawn again rather than played. */
    for (int attempt = 0; attempt < 1000; attempt++) {
        board_clear(s);
        if (table != NULL && table->n > 0) {
            for (int p = 0; p < PLAYER_NB; p++) {
                uint32_t row = rng_below(&rng, (uint32_t)table->n);
                setup_from_letters(s, p, table->letters + (size_t)row * MAX_PIECES);
            }
        } else {
            setup_random(s, r, RED, &rng);
            setup_random(s, r, BLUE, &rng);
        }
        s->rng = rng;
        game_judge_start(s, r);
        if (!s->done) return;
    }
}

void game_reset_random(GameState *s, const Rules *r) { game_reset(s, r, NULL); }

/* 1 if `player` has a piece of `type` in the game (on the board or captured): the
 * piece set is public, so the opponent knows it too. */
static int game_side_has(const GameState *s, int player, int type) {
    int first = player * MAX_PIECES, last = first + s->placed[player];
    for (int id = first; id < last; id++) {
        if (s->piece_type[id] == type) return 1;
    }
    return 0;
}

/* What the opponent learns of the moving piece from the move itself (rulebook
 * "Movement"; docs/rules.md "Other variants"): it moved, so it is neither a Bomb nor the
 * Flag; a straight move longer than any other piece can make shows a Scout (more than
 * one square; more than two where Captains move two); where Captains move two squares,
 * a diagonal move shows a Captain, and a straight two-square move a Scout or a Captain,
 * narrowed to one type when the side has no piece of the other (its piece set is
 * public; whether a piece of it was captured is not, under silent defense). */
static uint8_t game_move_shows(const GameState *s, const Rules *r, int player, int from, int to) {
    if (!r->captain_two_squares) {
        /* Every move is straight here: a one-square move is 1 (along a row) or 10 (along
         * a column) squares apart, a longer one neither. */
        int apart = abs(to - from);
        return (uint8_t)(PIECE_MOVED | (apart != 1 && apart != BOARD_SIZE ? PIECE_SCOUTED : 0));
    }
    int dr = abs(sq_row(to) - sq_row(from)), dc = abs(sq_col(to) - sq_col(from));
    int straight = dr == 0 || dc == 0, dist = dr + dc;
    if (!straight) return PIECE_MOVED | PIECE_CAPTAIN_SHOWN;
    if (dist > 2) return PIECE_MOVED | PIECE_SCOUTED;
    if (dist < 2) return PIECE_MOVED;
    if (!game_side_has(s, player, CAPTAIN)) return PIECE_MOVED | PIECE_SCOUTED;
    if (!game_side_has(s, player, SCOUT)) return PIECE_MOVED | PIECE_CAPTAIN_SHOWN;
    return PIECE_MOVED | PIECE_SCOUT_OR_CAPTAIN;
}

/* Rescue rule: a move onto the opponent's back row may return a captured piece, if the
 * mover is no Scout, has rescues left, did not make the first rescue with this piece,
 * and has a captured piece that may come back (no Bomb). */
static int game_rescue_opens(const GameState *s, int id) {
    int player = piece_owner(id), sq = s->piece_sq[id];
    if (sq == SQ_NONE || s->piece_type[id] == SCOUT) return 0;
    if (sq_row(sq_to_frame(sq, player)) != BOARD_SIZE - 1) return 0;
    if (s->rescues[player] >= RESCUE_LIMIT || s->first_rescuer[player] == id) return 0;
    for (int type = SPY; type <= MARSHAL; type++) {
        if (moves_captured_piece(s, player, type) >= 0) return 1;
    }
    return 0;
}

/* Hands the turn to the other player and decides whether the game goes on. */
static void game_end_turn(GameState *s, const Rules *r, JudgeMask *out) {
    s->phase = PHASE_MOVE;
    s->rescuer = SQ_NONE;
    s->to_move = (uint8_t)(1 - s->to_move);
    game_judge(s, r, out);
}

static void apply_move(GameState *s, const Rules *r, int from, int to, JudgeMask *out) {
    int id = s->board[from] - 1;
    int player = piece_owner(id);
    int attack = s->board[to] != CELL_EMPTY;
    int flag_captured = 0;

    repetition_record(s, id, from, to);
    /* One 4-byte store rather than four. */
    s->history[s->ply % HISTORY_NB] = (HistoryEntry){(uint8_t)from, (uint8_t)to, (uint8_t)player, (uint8_t)attack};

    s->piece_flags[id] |= game_move_shows(s, r, player, from, to);

    if (!attack) {
        board_move(s, id, to);
        s->plies_since_attack++;
    } else {
        int def = s->board[to] - 1;
        /* An attack shows both ranks (rulebook "Attack"); under silent defense only the
         * attacker's, unless a Scout attacks (tournament rule "Silent defense"). */
        s->piece_flags[id] |= PIECE_REVEALED;
        if (!r->silent_defense || s->piece_type[id] == SCOUT) s->piece_flags[def] |= PIECE_REVEALED;
        flag_captured = s->piece_type[def] == FLAG;
        switch (combat_resolve(s->piece_type[id], s->piece_type[def], r)) {
        case COMBAT_ATTACKER_WINS:
            board_remove(s, def);
            board_move(s, id, to);
            break;
        case COMBAT_DEFENDER_WINS:
            board_remove(s, id);
            break;
        case COMBAT_BOTH_DIE:
            board_remove(s, id);
            board_remove(s, def);
            break;
        }
        s->plies_since_attack = 0;
    }
    if (r->chasing_rule) chase_record(s, id, from, to, attack);
    s->ply++;

    if (flag_captured) {
        s->to_move = (uint8_t)(1 - player);
        game_end(s, player, END_FLAG_CAPTURED);
        return;
    }
    /* A side left without movable pieces ends the game before any rescue. */
    if (r->rescue && s->movable[RED] && s->movable[BLUE] && game_rescue_opens(s, id)) {
        s->phase = PHASE_RESCUE;
        s->rescuer = (uint8_t)id;
        return;
    }
    game_end_turn(s, r, out);
}

void game_apply_move(GameState *s, const Rules *r, int from, int to) { apply_move(s, r, from, to, NULL); }

static void apply_rescue(GameState *s, const Rules *r, int type, int sq, JudgeMask *out) {
    int player = s->to_move;
    int id = moves_captured_piece(s, player, type);
    board_return(s, id, sq);
    /* The opponent sees a piece come back: no Bomb or Flag. Whether its type is known
     * stays as it was (shown in its fight, or kept by its owner under silent defense). */
    s->piece_flags[id] |= PIECE_MOVED;
    s->rescues[player]++;
    if (s->first_rescuer[player] == SQ_NONE) s->first_rescuer[player] = s->rescuer;
    /* The pieces changed: no earlier position of a chase can come back (chase.h). */
    if (r->chasing_rule) chase_reset(s);
    game_end_turn(s, r, out);
}

void game_apply_rescue(GameState *s, const Rules *r, int type, int sq) { apply_rescue(s, r, type, sq, NULL); }

static inline __attribute__((always_inline)) void apply_action(GameState *s, const Rules *r, int action,
                                                               JudgeMask *out) {
    int a, b;
    switch (action_decode(s->to_move, action, &a, &b)) {
    case ACTION_MOVE:
        apply_move(s, r, a, b, out);
        break;
    case ACTION_RESCUE:
        /* The rescue block is the placements while the players deploy (types.h). */
        if (s->phase == PHASE_DEPLOY) {
            apply_place(s, r, a, b, out);
        } else {
            apply_rescue(s, r, a, b, out);
        }
        break;
    case ACTION_DECLINE:
        game_end_turn(s, r, out);
        break;
    }
}

void game_apply_action(GameState *s, const Rules *r, int action) { apply_action(s, r, action, NULL); }

int game_apply_action_mask(GameState *s, const Rules *r, int action, uint8_t *mask, int packed) {
    JudgeMask out = {mask, packed, 0};
    apply_action(s, r, action, &out);
    return out.written && !game_is_over(s);
}

uint64_t game_perft(const GameState *s, const Rules *r, int depth) {
    if (depth == 0) return 1;
    if (s->done) return 0;
    uint16_t actions[ACTION_MAX];
    int n = moves_list(s, r, actions);
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        GameState child = *s;
        game_apply_action(&child, r, actions[i]);
        total += game_perft(&child, r, depth - 1);
    }
    return total;
}
