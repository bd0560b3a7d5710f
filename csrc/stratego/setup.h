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

/* The first fault of a table of setups: the row, and either the place of a letter
 * outside 'A'..'M' (SETUP_BAD_LETTER), the place of a piece outside the rules' setup
 * zone (SETUP_OUT_OF_ZONE: a letter other than 'A' in the first 4 - setup_rows rows,
 * those nearest the middle), or a piece type whose count differs from the rules'
 * (SETUP_BAD_COUNT). */
typedef enum { SETUP_TABLE_OK = 0, SETUP_BAD_LETTER, SETUP_OUT_OF_ZONE, SETUP_BAD_COUNT } SetupTableCheck;
typedef struct {
    int64_t row;
    int index, letter; /* SETUP_BAD_LETTER, SETUP_OUT_OF_ZONE */
    int type, count;   /* SETUP_BAD_COUNT */
} SetupFault;

/* Checks that each of the k rows of 40 letters (setup_from_letters' layout) holds
 * exactly the rules' pieces, inside the rules' setup zone, so that every game can be
 * set up from any row. */
SetupTableCheck setup_table_check(const uint8_t *letters, int64_t k, const Rules *r, SetupFault *fault);

#endif
