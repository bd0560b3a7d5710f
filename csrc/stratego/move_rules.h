/* move_rules.h: the rule settings that change the moves of the move phase beyond what
 * the board allows (RULE_SETTINGS' `moves` column, rules.h), each decided in one place.
 *
 * A setting marked FORBID brings two functions named after it: move_rule_<name>_reach,
 * the pieces of a player it can touch now, and move_rule_<name>_forbids, whether it
 * forbids one move (and why). A setting marked ADD brings its reach only (the walk
 * generates the moves it adds). From the column derive:
 *   - move_forbidden(), the one predicate of "a rule forbids this move", which the walk
 *     (walk.c) and the legality check (moves_check.c) both ask;
 *   - move_forbidden_reach(), the pieces move_forbidden can refuse now, so that the walk
 *     checks only those moves;
 *   - move_rules_reach(), the pieces any such setting touches now, which the square-set
 *     fast path (moves_fast.c) leaves to the walk, or all of them (then it is off).
 * A new setting that restricts moves is its line in RULE_SETTINGS marked FORBID and its
 * two functions here; nothing else names it. */
#ifndef STRATEGO_MOVE_RULES_H
#define STRATEGO_MOVE_RULES_H

#include "board.h"
#include "chase.h"
#include "moves_check.h"
#include "repetition.h"
#include "rules.h"

/* A reach: -1 no piece, a piece id that one piece, MOVE_RULES_ALL every piece of the
 * player. */
#define MOVE_RULES_ALL (PLAYER_NB * MAX_PIECES)

/* The two-square rule (ISF 3, repetition.h): it can stop only the piece whose run
 * reached the limit. */
static inline int move_rule_two_square_limit_reach(const GameState *s, const Rules *r, int player) {
    const Streak *st = &s->streak[player];
    return r->two_square_limit && st->run >= r->two_square_limit ? st->piece : -1;
}

static inline IllegalReason move_rule_two_square_limit_forbids(const GameState *s, const Rules *r, int id, int from,
                                                               int to) {
    return move_rule_two_square_limit_reach(s, r, piece_owner(id)) == id &&
                   repetition_forbids(s, r->two_square_limit, id, from, to)
               ? ILLEGAL_REPETITION
               : MOVE_LEGAL;
}

/* The chasing rule (ISF 11, chase.h): while the player chases, any of its pieces'
 * moves to an empty square. */
static inline int move_rule_chasing_rule_reach(const GameState *s, const Rules *r, int player) {
    return r->chasing_rule && s->chase.active && s->chase.chaser == player ? MOVE_RULES_ALL : -1;
}

static inline IllegalReason move_rule_chasing_rule_forbids(const GameState *s, const Rules *r, int id, int from,
                                                           int to) {
    return move_rule_chasing_rule_reach(s, r, piece_owner(id)) >= 0 && s->board[to] == CELL_EMPTY &&
                   chase_forbids(s, id, from, to)
               ? ILLEGAL_CHASE
               : MOVE_LEGAL;
}

/* Captains that move two squares (Ultimate Lightning, walk_captain_targets): moves the
 * square sets do not generate, for every Captain while the setting is on. */
static inline int move_rule_captain_two_squares_reach(const GameState *s, const Rules *r, int player) {
    (void)s;
    (void)player;
    return r->captain_two_squares ? MOVE_RULES_ALL : -1;
}

/* The reach of two rules together: a piece both name stays one piece; two pieces are
 * more than a reach of one piece holds, so every piece. */
static inline int move_rules_join(int a, int b) { return a < 0 ? b : b < 0 || a == b ? a : MOVE_RULES_ALL; }

/* What a column value contributes to the reach of the forbidding settings (FORBID) and
 * of all that touch moves (FORBID, ADD); and to move_forbidden (FORBID). */
#define MOVE_RULES_FORBID_REACH_BOARD(name)
#define MOVE_RULES_FORBID_REACH_ADD(name)
#define MOVE_RULES_FORBID_REACH_FORBID(name) reach = move_rules_join(reach, move_rule_##name##_reach(s, r, player));
#define MOVE_RULES_REACH_BOARD(name)
#define MOVE_RULES_REACH_ADD(name) reach = move_rules_join(reach, move_rule_##name##_reach(s, r, player));
#define MOVE_RULES_REACH_FORBID(name) reach = move_rules_join(reach, move_rule_##name##_reach(s, r, player));
#define MOVE_RULES_FORBIDS_BOARD(name)
#define MOVE_RULES_FORBIDS_ADD(name)
#define MOVE_RULES_FORBIDS_FORBID(name)                                                      \
    {                                                                                        \
        IllegalReason why = move_rule_##name##_forbids(s, r, id, from, to);                  \
        if (why != MOVE_LEGAL) return why;                                                   \
    }
#define MOVE_RULES_FORBID_REACH_ROW(name, type, lo, hi, def, moves, doc) MOVE_RULES_FORBID_REACH_##moves(name)
#define MOVE_RULES_REACH_ROW(name, type, lo, hi, def, moves, doc) MOVE_RULES_REACH_##moves(name)
#define MOVE_RULES_FORBIDS_ROW(name, type, lo, hi, def, moves, doc) MOVE_RULES_FORBIDS_##moves(name)

/* The pieces of `player` that move_forbidden may refuse a move of now (a reach). */
static inline int move_forbidden_reach(const GameState *s, const Rules *r, int player) {
    int reach = -1;
    RULE_SETTINGS(MOVE_RULES_FORBID_REACH_ROW)
    return reach;
}

/* The pieces of `player` whose moves some setting of the column changes now (a reach):
 * the pieces the board alone does not decide. */
static inline int move_rules_reach(const GameState *s, const Rules *r, int player) {
    int reach = -1;
    RULE_SETTINGS(MOVE_RULES_REACH_ROW)
    return reach;
}

/* MOVE_LEGAL, or why a setting forbids piece `id`'s move from `from` to `to`, a move
 * the board allows (on its line or a Captain's two squares, onto an empty square or an
 * enemy). The settings are asked in the list's order; the first that forbids answers. */
static inline IllegalReason move_forbidden(const GameState *s, const Rules *r, int id, int from, int to) {
    RULE_SETTINGS(MOVE_RULES_FORBIDS_ROW)
    return MOVE_LEGAL;
}

#undef MOVE_RULES_FORBID_REACH_ROW
#undef MOVE_RULES_REACH_ROW
#undef MOVE_RULES_FORBIDS_ROW
#undef MOVE_RULES_FORBID_REACH_BOARD
#undef MOVE_RULES_FORBID_REACH_ADD
#undef MOVE_RULES_FORBID_REACH_FORBID
#undef MOVE_RULES_REACH_BOARD
#undef MOVE_RULES_REACH_ADD
#undef MOVE_RULES_REACH_FORBID
#undef MOVE_RULES_FORBIDS_BOARD
#undef MOVE_RULES_FORBIDS_ADD
#undef MOVE_RULES_FORBIDS_FORBID

#endif
