/* square_geometry.c: the tables of square_geometry.h. */
#include "square_geometry.h"

#define SQ1(k) ((Bits)1 << (k))
#define SQ10(k) SQ1(k), SQ1(k + 1), SQ1(k + 2), SQ1(k + 3), SQ1(k + 4), SQ1(k + 5), SQ1(k + 6), SQ1(k + 7), SQ1(k + 8), SQ1(k + 9)
const Bits SQ_BIT[SQ_NB] = {SQ10(0), SQ10(10), SQ10(20), SQ10(30), SQ10(40), SQ10(50), SQ10(60), SQ10(70), SQ10(80), SQ10(90)};
#undef SQ10
#undef SQ1
_Static_assert(SQ_NB == 100, "SQ_BIT lists 100 squares");

Bits NEIGHBOURS[SQ_NB];
uint8_t RAY_LEN[SQ_NB][DIR_NB];

void square_geometry_init(void) {
    for (int sq = 0; sq < SQ_NB; sq++) {
        NEIGHBOURS[sq] = bits_dilate(sq_bit(sq));
        int row = sq / BOARD_SIZE, col = sq % BOARD_SIZE;
        for (int d = 0; d < DIR_NB; d++) {
            int k = 0;
            for (int r = row + DIR_ROW[d], c = col + DIR_COL[d]; r >= 0 && r < BOARD_SIZE && c >= 0 && c < BOARD_SIZE;
                 r += DIR_ROW[d], c += DIR_COL[d])
                k++;
            RAY_LEN[sq][d] = (uint8_t)k;
        }
    }
}
