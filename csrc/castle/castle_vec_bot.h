/* castle_vec_bot.h: the castle bots (castle_bot.h) over a batch of games (castle_vec.h). */
#ifndef CASTLE_VEC_BOT_H
#define CASTLE_VEC_BOT_H

#include <stdint.h>

#include "castle_vec.h"

/* out[i]: the action bot `kind` plays in game i for its seat to decide, from that seat's
 * view, drawing on game i's sampler stream (the random agent's, castle_batch_sample: so
 * CASTLE_BOT_RANDOM gives what castle_batch_sample would have); -1 for a game that is
 * over. Each game on its own stream: the same for any thread count. With `games` (one
 * byte a game, or NULL for all), only the games it marks: the others get -1 and their
 * streams are not drawn on (batch_bot_actions' rule, csrc/stratego/batch.h). */
void castle_batch_bot_actions(CastleBatch *b, int kind, const uint8_t *games, int64_t *out, int threads);

#endif
