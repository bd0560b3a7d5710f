/* action.h: encoding and decoding actions (the layout is in types.h). Apart from
 * moves.h, which needs the game state, so that code that must not see a game (bots:
 * bot.h) can still read its actions. */
#ifndef STRATEGO_ACTION_H
#define STRATEGO_ACTION_H

#include <stdint.h>

#include "types.h"

/* What an action asks for. */
typedef enum { ACTION_MOVE = 0, ACTION_RESCUE = 1, ACTION_DECLINE = 2 } ActionKind;

/* Action of moving from `from` to `to` (absolute squares) for `player`: a line move,
 * or a diagonal step to a neighbouring square; -1 otherwise. */
int action_encode(int player, int from, int to);

/* Action returning a captured piece of `type` to `sq` (absolute) for `player`; -1 if
 * sq is not in the player's half. */
int action_encode_rescue(int player, int type, int sq);

/* A line move in red's frame (types.h: from * 18 + k): its squares, direction and
 * length, so that decoding and checking the common action reads a table, not divisions. */
typedef struct {
    uint8_t from, to;
    uint8_t dir;  /* DIR_UP .. DIR_RIGHT, in red's frame (blue's is dir ^ 1, the board turned) */
    uint8_t dist; /* squares moved, 1 .. 9 */
} ActionLine;

extern ActionLine action_lines[LINE_ACTION_NB];

/* Builds action_lines. Idempotent; stratego_init calls it. */
void action_init(void);

/* Decodes the actions past the line moves (action_decode). */
ActionKind action_decode_other(int player, int action, int *a, int *b);

/* Decodes 0 <= action < ACTION_MAX for `player`: a move gives (from, to), a rescue
 * (type, sq), absolute squares. A line move, the common case, from the table. */
static inline ActionKind action_decode(int player, int action, int *a, int *b) {
    if (action < LINE_ACTION_NB) {
        ActionLine m = action_lines[action];
        *a = sq_to_frame(m.from, player);
        *b = sq_to_frame(m.to, player);
        return ACTION_MOVE;
    }
    return action_decode_other(player, action, a, b);
}

#endif
