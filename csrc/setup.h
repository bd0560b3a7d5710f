/* setup.h: starting positions. */
#ifndef STRATEGO_SETUP_H
#define STRATEGO_SETUP_H

#include "board.h"
#include "rules.h"

/* Places `player`'s pieces (rules' counts) on uniformly random squares of its setup
 * zone: the `setup_rows` rows nearest its back row. Every such setup is legal. */
void setup_random(GameState *s, const Rules *r, int player, uint64_t *rng);

#endif
