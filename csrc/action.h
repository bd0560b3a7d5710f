/* action.h: encoding and decoding actions (the layout is in types.h). Apart from
 * moves.h, which needs the game state, so that code that must not see a game (bots:
 * bot.h) can still read its actions. */
#ifndef STRATEGO_ACTION_H
#define STRATEGO_ACTION_H

#include "types.h"

/* What an action asks for. */
typedef enum { ACTION_MOVE = 0, ACTION_RESCUE = 1, ACTION_DECLINE = 2 } ActionKind;

/* Action of moving from `from` to `to` (absolute squares) for `player`: a line move,
 * or a diagonal step to a neighbouring square; -1 otherwise. */
int action_encode(int player, int from, int to);

/* Action returning a captured piece of `type` to `sq` (absolute) for `player`; -1 if
 * sq is not in the player's half. */
int action_encode_rescue(int player, int type, int sq);

/* Decodes 0 <= action < ACTION_MAX for `player`: a move gives (from, to), a rescue
 * (type, sq), absolute squares. */
ActionKind action_decode(int player, int action, int *a, int *b);

#endif
