/* moves_check.h: whether one move, rescue or action is legal now, and if not, why. The
 * mask and the list (moves.h) agree with these checks on every action (a fuzz invariant,
 * csrc/fuzz/invariants.h); these give the reason, which the binding shows to a user.
 *
 * The reasons, each with its text: one table, here. MOVE_LEGAL (0) is no reason. */
#ifndef STRATEGO_MOVES_CHECK_H
#define STRATEGO_MOVES_CHECK_H

#include "board.h"
#include "rules.h"

#define ILLEGAL_REASONS(X)                                                                                  \
    X(MOVE_LEGAL, "legal")                                                                                  \
    X(ILLEGAL_NOT_ON_LINE, "pieces move along a row or a column, not diagonally or in place")               \
    X(ILLEGAL_NO_OWN_PIECE, "there is no piece of the player to move on the source square")                 \
    X(ILLEGAL_IMMOBILE, "bombs and the flag never move")                                                    \
    X(ILLEGAL_TOO_FAR, "only a scout moves more than one square")                                           \
    X(ILLEGAL_BLOCKED, "a scout cannot pass a piece or a lake")                                             \
    X(ILLEGAL_OWN_TARGET, "the target square holds an own piece")                                           \
    X(ILLEGAL_LAKE, "no piece may enter a lake")                                                            \
    X(ILLEGAL_REPETITION, "the two-square rule forbids this move")                                          \
    X(ILLEGAL_OFF_BOARD, "the square is off the board")                                                     \
    X(ILLEGAL_CHASE, "the chasing rule forbids recreating a position of this chase")                        \
    X(ILLEGAL_NOT_IN_VARIANT, "this action does not exist in this variant")                                 \
    X(ILLEGAL_RESCUE_PENDING, "a rescue is pending: return a captured piece or decline")                    \
    X(ILLEGAL_NO_RESCUE_PENDING, "no rescue is pending")                                                    \
    X(ILLEGAL_RESCUE_NO_PIECE, "no captured piece of that type can be rescued")                             \
    X(ILLEGAL_RESCUE_SQUARE, "a rescued piece goes on an empty square of the own half")                     \
    X(ILLEGAL_GAME_OVER, "the game is over")                                                                \
    X(ILLEGAL_CAPTAIN_BLOCKED, "a Captain's two-square move needs an empty square on the way")             \
    X(ILLEGAL_DEPLOYING, "the players are deploying: place a piece from the hand on an empty square of the own setup zone") \
    X(ILLEGAL_NOT_DEPLOYING, "placements are made only while deploying, before the first move")            \
    X(ILLEGAL_PLACE_NOT_IN_HAND, "no piece of that type is left in hand to place")                          \
    X(ILLEGAL_PLACE_OUTSIDE_ZONE, "a piece is placed in the own setup zone (the rows nearest the own back row)") \
    X(ILLEGAL_PLACE_OCCUPIED, "the square already holds a piece")

typedef enum {
#define ILLEGAL_REASON_ENUM(name, text) name,
    ILLEGAL_REASONS(ILLEGAL_REASON_ENUM)
#undef ILLEGAL_REASON_ENUM
    ILLEGAL_REASON_NB
} IllegalReason;

/* The text of a reason; "unknown reason" outside the enum. */
const char *moves_illegal_reason(int reason);

/* MOVE_LEGAL if moving from `from` to `to` is legal for `player` in the move phase;
 * otherwise why not. */
IllegalReason moves_check(const GameState *s, const Rules *r, int player, int from, int to);

/* MOVE_LEGAL if returning a captured piece of `type` to `sq` is legal now (rescue phase). */
IllegalReason moves_check_rescue(const GameState *s, int type, int sq);

/* MOVE_LEGAL if placing a piece of `type` from the hand of the player to move on `sq`
 * (absolute) is legal now (deployment phase, game.h). */
IllegalReason moves_check_place(const GameState *s, const Rules *r, int type, int sq);

/* MOVE_LEGAL if `action` is legal for the player to move now (phase, variant and game
 * state included); otherwise why not. */
IllegalReason moves_check_action(const GameState *s, const Rules *r, int action);

#endif
