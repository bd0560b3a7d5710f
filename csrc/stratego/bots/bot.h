/* bot.h: opponents written in C, each choosing one action from what its player may
 * know.
 *
 * A bot reads a PlayerView (view.h: the same leak-free view as the observations) and
 * the list of its player's legal actions, never a game: this header, bot.c and bot_heuristic.c know
 * GameState only as an incomplete type, so a bot that read a hidden rank would not
 * compile. The legal actions are public to their player (they follow from its own
 * pieces, the occupied squares and its own past moves).
 *
 * Bots (bot_name gives the names Python uses):
 *  - BOT_RANDOM: a uniformly random legal action, legal[rng_below(n)]. With the list in
 *    increasing action order this is the action the batch's random sampler
 *    (batch_sample_actions) draws from the same stream state.
 *  - BOT_HEURISTIC: scores the moves that matter from the view and plays the best
 *    one, drawing among the quiet ones, ties broken by the stream (bot_heuristic.c says how).
 *    It needs no legal list: bot_heuristic_propose picks a move the view shows to be
 *    possible, and the caller checks it against the rules (bot_game_action).
 *  - BOT_PIMC: perfect-information Monte Carlo (bot_pimc.c): it samples worlds the
 *    player cannot tell from the game (sample.h, which reads only the player's view),
 *    plays every legal action in each, follows it with a short heuristic playout, and
 *    plays the action with the best mean evaluation. It needs the game to build the
 *    worlds from, so it lives on the bridge side (bot_game_action); bot_choose, which
 *    has only a view, plays the heuristic's choice for it.
 *
 * Determinism: a bot's choice is a function of (view, rules, legal actions, stream
 * state), and it advances only the stream it is given.
 */
#ifndef STRATEGO_BOT_H
#define STRATEGO_BOT_H

#include <stdint.h>

#include "stratego/rules.h"
#include "stratego/view.h"

typedef enum { BOT_RANDOM = 0, BOT_HEURISTIC = 1, BOT_PIMC = 2, BOT_KIND_NB = 3 } BotKind;

/* What removing a piece of each type is worth (rough material values, in Scouts): the
 * heuristic's expected gains and the PIMC bot's evaluation of a truncated playout. */
extern const float BOT_PIECE_VALUE[PIECE_TYPE_NB];

/* Plies of history the bots read from the view: build it with
 * view_build_recent(s, player, BOT_VIEW_PLIES, &view) (the heuristic looks at the
 * opponent's latest move). */
enum { BOT_VIEW_PLIES = 1 };

/* The name of a bot kind ("random", "heuristic"), or NULL for a value out of range. */
const char *bot_name(int kind);

/* The kind named `name`, or -1 if no bot has that name. */
int bot_kind_from_name(const char *name);

/* The action bot `kind` plays: one of legal[0..n), the legal actions of the view's
 * player in increasing order (moves_list_ordered); -1 when n is 0. The view is the
 * player's own (view_build_recent with at least BOT_VIEW_PLIES plies). */
int bot_choose(int kind, const PlayerView *v, const Rules *r, const uint16_t *legal, int n, uint64_t *rng);

/* The heuristic's move from the view alone: a one-square step the view shows to be
 * possible (an own piece that moves, onto an empty or an opponent's square) or a
 * Scout's attack along an open line, as an action of the view's player; -1 if it has
 * no such move. Whether the rules forbid it (the two-square rule, the chasing rule)
 * only the game can say: the caller checks it and, on a refusal, asks bot_choose with
 * the legal list, which plays the same way among the legal actions. Not for a rescue phase. Saves the ~3,000 instructions of
 * the legal list on almost every decision. */
/* The heuristic's choice among the n legal actions (bot_choose with BOT_HEURISTIC). */
int bot_heuristic_choose(const PlayerView *v, const Rules *r, const uint16_t *legal, int n, uint64_t *rng);

int bot_heuristic_propose(const PlayerView *v, const Rules *r, uint64_t *rng);

/* Only declared here (view.h): the bots cannot look inside a game. */
struct GameState;

/* The PIMC bot's settings (bot_pimc.c): worlds sampled a decision, and plies of each
 * heuristic playout before the evaluation. */
enum { PIMC_WORLDS = 8, PIMC_PLAYOUT_PLIES = 16 };

/* The PIMC bot's action for the player to move in s, in the move or rescue phase
 * (bot_game_action's BOT_PIMC). */
int bot_pimc_action(const struct GameState *s, const Rules *r, uint64_t *rng);

/* The action a bot that decides from the view (random, heuristic) plays for the player
 * to move in s (bot_game.c builds that player's view and legal actions, then calls
 * bot_choose), and every bot's placement while deploying; -1 if the game is over or has
 * no legal action. */
int bot_game_view_action(int kind, const struct GameState *s, const Rules *r, uint64_t *rng);

/* The action bot `kind` plays for the player to move in s (bot_action.c: PIMC's from
 * its worlds, the others' through bot_game_view_action); -1 if the game is over or has
 * no legal action. */
int bot_game_action(int kind, const struct GameState *s, const Rules *r, uint64_t *rng);

#endif
