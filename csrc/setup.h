/* setup.h: starting positions. */
#ifndef STRATEGO_SETUP_H
#define STRATEGO_SETUP_H

#include "board.h"
#include "rules.h"

/* Places `player`'s pieces (rules' counts) on uniformly random squares of its setup
 * zone: the `setup_rows` rows nearest its back row. Every such setup is legal. */
void setup_random(GameState *s, const Rules *r, int player, uint64_t *rng);

/* Places `player`'s pieces from 40 setup letters ('A' empty, 'B'..'M' a piece by
 * Gravon's red letters), listed from the row nearest the middle to the back row, ten a
 * row, columns as the player sees them (blue's are turned 180 degrees). This is the
 * layout of the human setups in shared/data/setups. Returns 0, or -1 if a letter is
 * bad or a square is taken. */
int setup_from_letters(GameState *s, int player, const uint8_t *letters);

#endif
