/* square_geometry.h: the board's squares one at a time, beside the sets of squareset.h:
 * a square's bit from a table, the squares next to each square, and how far each square
 * is from the edge in each direction. For code that mixes sets with single squares (the
 * heuristic bot): the tables replace a variable 128-bit shift or a dilate per square.
 */
#ifndef STRATEGO_SQUARE_GEOMETRY_H
#define STRATEGO_SQUARE_GEOMETRY_H

#include <stdint.h>

#include "squareset.h"
#include "types.h"

/* Shared by the core's files only: hidden, so that in the extension (position-independent
 * code) the hot loops read them directly rather than through the global offset table. */
#define SQUARE_GEOMETRY_TABLE extern __attribute__((visibility("hidden")))

/* bit_of(sq) from a table: a 128-bit one shifted by a variable count is a branch-free
 * sequence of about seven instructions, a load from the table one or two, and the
 * heuristic bot asks for single squares some sixty times a decision. */
SQUARE_GEOMETRY_TABLE const Bits SQ_BIT[SQ_NB];
static inline Bits sq_bit(int sq) { return SQ_BIT[sq]; }

/* The squares next to each square (lakes included: they hold no piece). */
SQUARE_GEOMETRY_TABLE Bits NEIGHBOURS[SQ_NB];
/* The number of squares from each square to the edge in each direction: a line is
 * walked square by square without a bounds test. */
SQUARE_GEOMETRY_TABLE uint8_t RAY_LEN[SQ_NB][DIR_NB];

/* Fills NEIGHBOURS and RAY_LEN (SQ_BIT is constant). Idempotent; stratego_init (init.h)
 * calls it with the engine's other tables, before any thread reads them. */
void square_geometry_init(void);

#endif
