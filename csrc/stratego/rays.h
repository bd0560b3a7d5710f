/* rays.h: the lines a piece moves along, built once from the board's shape (lakes never
 * move, so they are fixed). The generic walk (walk.c) and the legality checks
 * (moves_check.c) read them; the square-set fast path (moves_fast.c) has its own sets.
 *
 * rays_sq[sq][dir] lists the squares reached from sq going in dir, nearest first,
 * stopping at the board's edge or a lake; rays_action[player][sq][dir][i] is that
 * player's action for the move to the i-th of them. The nbr_ tables are the same for
 * one-square moves: the neighbours of sq that are on the board and no lake.
 */
#ifndef STRATEGO_RAYS_H
#define STRATEGO_RAYS_H

#include <stdint.h>

#include "types.h"

/* Shared by the core's files only: hidden, so that in the extension (position-independent
 * code) the hot loops read them directly rather than through the global offset table. */
#define RAYS_TABLE extern __attribute__((visibility("hidden")))

RAYS_TABLE uint8_t rays_len[SQ_NB][DIR_NB];
RAYS_TABLE uint8_t rays_sq[SQ_NB][DIR_NB][BOARD_SIZE - 1];
RAYS_TABLE uint16_t rays_action[PLAYER_NB][SQ_NB][DIR_NB][BOARD_SIZE - 1];
RAYS_TABLE uint8_t rays_nbr_len[SQ_NB];
RAYS_TABLE uint8_t rays_nbr_sq[SQ_NB][DIR_NB];
RAYS_TABLE uint16_t rays_nbr_action[PLAYER_NB][SQ_NB][DIR_NB];

/* Builds the tables. Idempotent; moves_init calls it before any thread moves. */
void rays_init(void);

#endif
