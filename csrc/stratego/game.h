/* game.h: playing a move and deciding when and how a game ends. Every outcome of the
 * engine is decided here, once:
 *
 *  - The flag is captured: the capturer wins (END_FLAG_CAPTURED).
 *  - After any move, a side with no piece left that could move loses at once, even
 *    when it made that move (Gravon ends the game there; docs/rules.md "End of game"); if
 *    both sides are left so, a draw (END_NO_MOVABLE_PIECES).
 *  - The player to move has no legal move (blocked, or only moves the two-square rule
 *    forbids): that player loses (END_NO_LEGAL_MOVE), or, if the other player could
 *    not move either, a draw (END_NEITHER_CAN_MOVE).
 *  - Caps: max_plies played, or max_plies_without_attack plies in a row without an
 *    attack: a draw, and like every end here a termination (rules of the game). The rules above take precedence when
 *    both happen on the same ply.
 *  - END_ILLEGAL_ACTION: only when the caller makes an illegal action lose (a batch's
 *    ILLEGAL_LOSES, StrategoEnv's illegal_action="lose"): game_forfeit.
 *  - END_RESIGNED, END_AGREED_DRAW, END_TIMEOUT: only when the players say so
 *    (game_concede): a resignation or a loss on time is the named player's loss, on
 *    either player's turn; an agreed draw has no winner.
 *
 * Under the rescue rule a turn whose move reaches the opponent's back row goes on with
 * a rescue phase (PHASE_RESCUE, same player to move): the ply is counted with the move,
 * and the end-of-game rules are checked when the rescue (or its decline) ends the turn.
 */
#ifndef STRATEGO_GAME_H
#define STRATEGO_GAME_H

#include "board.h"
#include "rules.h"

/* Where setups come from: a table to draw from (n rows of 40 letters, setup_from_letters;
 * n = 0 random setups), and the sides that deploy their own pieces instead (bit p for
 * player p; only under rules with deploy). */
typedef struct {
    const uint8_t *letters;
    int n;
    int deploy;
} SetupTable;

/* A new game drawn from s->rng (kept): random setups for both sides, or, with a table
 * (n > 0), one row of it for each side. Setups in which red could not move at all are
 * drawn again.
 *
 * Deployment (table->deploy, rules' deploy): the sides named there start with an empty
 * zone and every piece of the rules in hand; the others take their setup as above
 * (drawn again while that side alone has no legal move). The game starts in
 * PHASE_DEPLOY: the deploying sides place one piece a turn, alternately, red first, a
 * side that has placed everything being skipped (so with one deploying side it places
 * every piece in a row). Placements are not plies: ply, the caps' counters, the
 * two-square rule and the history start at the first move. When the last piece is
 * placed red is to move and the position is judged as any other: a side that deployed
 * itself into a position without a legal move loses (END_NO_LEGAL_MOVE), unlike random
 * and human setups, which are never handed out so. */
void game_reset(GameState *s, const Rules *r, const SetupTable *table);

/* Under PHASE_DEPLOY: the player to move places a piece of `type` from its hand on the
 * empty square `sq` of its setup zone (legal: check with moves_check_place), then the
 * next deploying side is to move, or the play starts. */
void game_apply_place(GameState *s, const Rules *r, int type, int sq);

/* game_reset without a table. */
void game_reset_random(GameState *s, const Rules *r);

/* 0 if s is a state these rules can play on: board_validate's checks, and what only
 * the rules decide (a rescue phase exists only under the rescue rule, for a piece that
 * stands on the opponent's back row). Otherwise -1 with the problem in err. */
int game_validate(const GameState *s, const Rules *r, char *err, size_t err_len);

/* The player (RED or BLUE) with no Flag on the board in a game in play, although the
 * rules give each side Flags; -1 if none. No game reaches that (taking a Flag ends it)
 * and played on it could never be won by capture: a position from a field with it is
 * refused unless asked for (a study position). While deploying, the Flag may still be
 * in hand. */
int game_side_without_flag(const GameState *s, const Rules *r);

/* Decides whether a position just set up is already over (no movable piece, no legal
 * move for the player to move). */
void game_judge_start(GameState *s, const Rules *r);

/* The position of a Gravon field (board_from_field) with `to_move` to play: where a
 * record or Game.from_field starts. Under the deploy rule a field on which a side has
 * fewer pieces than the set is a position of the deployment phase, the missing pieces
 * in hand (checked as game_validate checks a save's): a record of a game that ended
 * while deploying starts there (docs/deployment.md). Otherwise judged as a start
 * (game_judge_start). 0, or -1 with the problem in err. */
int game_from_field(GameState *s, const Rules *r, const char *field, size_t len, int to_move, char *err,
                    size_t err_len);

/* Plays a legal move of the player to move (absolute squares; check it first with
 * moves_check): combat, reveals, the two-square run, history, and the end of game. */
void game_apply_move(GameState *s, const Rules *r, int from, int to);

/* Under the rescue rule: returns a captured piece of `type` to `sq` (legal: check with
 * moves_check_rescue), which ends the turn. */
void game_apply_rescue(GameState *s, const Rules *r, int type, int sq);

/* Plays any legal action of the player to move (check with moves_check_action): a
 * move, a rescue or its decline, or under PHASE_DEPLOY a placement. */
void game_apply_action(GameState *s, const Rules *r, int action);

/* game_apply_action that also leaves the legal mask of the player to move in `mask`
 * (game_legal_mask's format, packed or not) where the end of the turn asks whether that
 * player can move: the mask's count answers it, so a batch that writes the mask after
 * each action does not find the moves twice (moves_any_legal, then the mask). Returns 1
 * if the mask now holds the legal mask of the game as it stands, 0 if not (the game
 * ended, a rescue or the deployment goes on, the first ending rule decided it): then the
 * caller writes it, and `mask` may hold anything meanwhile. */
int game_apply_action_mask(GameState *s, const Rules *r, int action, uint8_t *mask, int packed);

/* Names of the end reasons, index = EndReason ("none" for END_NONE): status(),
 * _core.END_REASONS, info["final_info"]["reason"] through it. */
extern const char *const END_REASON_NAMES[END_REASON_NB];

/* Whether the game has ended: the one answer every caller reads (the binding, the
 * batch, Python through status() and Batch.games_over()). A finished game has no legal
 * action, so the three questions below answer for it too. */
static inline int game_is_over(const GameState *s) { return s->done; }

/* The legal actions of the player to move (moves_list); none once the game is over. */
int game_legal_actions(const GameState *s, const Rules *r, uint16_t *actions);

/* The legal mask of the player to move: rules_num_actions(r) bytes, or packed
 * (mask_bits.h, MASK_BITS_BYTES of them); all clear once the game is over. Returns the
 * number of legal actions. */
int game_legal_mask(const GameState *s, const Rules *r, uint8_t *mask, int packed);

/* 0 if the player to move may move from `from` to `to` now, else the code whose text
 * moves_illegal_reason() gives: "the game is over" first, then the phase and the variant
 * for a pair on a common line (an action), the squares otherwise. */
int game_check_move(const GameState *s, const Rules *r, int from, int to);

/* 0 if the player to move may place a piece of `type` on `sq` (absolute) now, else the
 * code of moves_illegal_reason(): "the game is over" first, then moves_check_place. */
int game_check_place(const GameState *s, const Rules *r, int type, int sq);

/* The player to move sent an illegal action under a batch's ILLEGAL_LOSES: that player
 * loses (END_ILLEGAL_ACTION). */
void game_forfeit(GameState *s);

/* Ends an unfinished game by the players' decision: `reason` END_RESIGNED or
 * END_TIMEOUT (`player` loses) or END_AGREED_DRAW (`player` is ignored). Returns 0, or
 * -1 for any other reason or a finished game, changing nothing. */
int game_concede(GameState *s, EndReason reason, int player);

/* Ends the game: `winner` is RED, BLUE or NO_WINNER. */
void game_end(GameState *s, int winner, EndReason reason);

/* The caps: a draw by a rule of the game like any other end (a terminal state, not a
 * truncation: nothing outside the game cut it short). */
static inline int game_is_cap(int reason) {
    return reason == END_MAX_PLIES || reason == END_MAX_PLIES_WITHOUT_ATTACK;
}

/* Number of move sequences of exactly `depth` plies from this position (perft). */
uint64_t game_perft(const GameState *s, const Rules *r, int depth);

#endif
