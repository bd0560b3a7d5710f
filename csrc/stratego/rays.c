/* rays.c: the ray and neighbour tables (rays.h). */
#include "rays.h"

#include "action.h"
#include "board.h"

uint8_t rays_len[SQ_NB][DIR_NB];
uint8_t rays_sq[SQ_NB][DIR_NB][BOARD_SIZE - 1];
uint16_t rays_action[PLAYER_NB][SQ_NB][DIR_NB][BOARD_SIZE - 1];
uint8_t rays_nbr_len[SQ_NB];
uint8_t rays_nbr_sq[SQ_NB][DIR_NB];
uint16_t rays_nbr_action[PLAYER_NB][SQ_NB][DIR_NB];

static int rays_ready;

void rays_init(void) {
    if (rays_ready) return;
    for (int sq = 0; sq < SQ_NB; sq++) {
        for (int d = 0; d < DIR_NB; d++) {
            int n = 0, row = sq_row(sq), col = sq_col(sq);
            for (;;) {
                row += DIR_ROW[d];
                col += DIR_COL[d];
                if (row < 0 || row >= BOARD_SIZE || col < 0 || col >= BOARD_SIZE) break;
                int t = row * BOARD_SIZE + col;
                if (sq_is_lake(t)) break;
                rays_sq[sq][d][n] = (uint8_t)t;
                for (int p = 0; p < PLAYER_NB; p++) {
                    rays_action[p][sq][d][n] = (uint16_t)action_encode(p, sq, t);
                }
                n++;
            }
            rays_len[sq][d] = (uint8_t)n;
            if (n > 0) {
                int k = rays_nbr_len[sq]++;
                rays_nbr_sq[sq][k] = rays_sq[sq][d][0];
                for (int p = 0; p < PLAYER_NB; p++) rays_nbr_action[p][sq][k] = rays_action[p][sq][d][0];
            }
        }
    }
    rays_ready = 1;
}
