/* squareset.h: sets of squares as 128-bit words, bit sq for square sq (bits 100..127
 * stay clear), so move generation shifts all pieces of a kind at once instead of
 * walking them one by one.
 *
 * The state stores a set as two 64-bit halves (SquareSet), so GameState keeps 8-byte
 * alignment and its byte layout does not depend on the compiler's 128-bit type; the
 * arithmetic loads them into an unsigned __int128 (Bits), which gcc and clang provide
 * on every 64-bit target.
 */
#ifndef STRATEGO_SQUARESET_H
#define STRATEGO_SQUARESET_H

#include <stdint.h>

#include "engine/popcount.h"
#include "types.h"

#ifndef __SIZEOF_INT128__
#error "stratego needs a compiler with unsigned __int128 (gcc or clang on a 64-bit target)"
#endif

typedef unsigned __int128 Bits;

typedef struct {
    uint64_t lo; /* squares 0..63 */
    uint64_t hi; /* squares 64..99 */
} SquareSet;

static inline Bits bits_load(SquareSet s) { return (Bits)s.lo | (Bits)s.hi << 64; }

static inline SquareSet bits_store(Bits b) {
    SquareSet s = {(uint64_t)b, (uint64_t)(b >> 64)};
    return s;
}

static inline Bits bit_of(int sq) { return (Bits)1 << sq; }

/* Lowest set square; b must not be empty. */
static inline int bits_lowest(Bits b) {
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

/* Highest set square; b must not be empty. */
static inline int bits_highest(Bits b) {
    uint64_t hi = (uint64_t)(b >> 64);
    return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll((uint64_t)b);
}

/* The 100 squares of the board. */
static inline Bits bits_board(void) { return ((Bits)1 << SQ_NB) - 1; }

/* The ten squares of column c, as a constant expression. */
#define BITS_COLUMN(c)                                                                             \
    ((Bits)1 << (c) | (Bits)1 << (10 + (c)) | (Bits)1 << (20 + (c)) | (Bits)1 << (30 + (c)) |     \
     (Bits)1 << (40 + (c)) | (Bits)1 << (50 + (c)) | (Bits)1 << (60 + (c)) | (Bits)1 << (70 + (c)) | \
     (Bits)1 << (80 + (c)) | (Bits)1 << (90 + (c)))

/* The squares of b moved one step in direction d (DIR_UP: towards blue's back row);
 * squares that would leave the board are dropped, so squares 100..127 stay clear. */
static inline Bits bits_step(Bits b, int d) {
    switch (d) {
    case DIR_UP:
        return (b << BOARD_SIZE) & bits_board();
    case DIR_DOWN:
        return b >> BOARD_SIZE;
    case DIR_LEFT:
        return (b & ~BITS_COLUMN(0)) >> 1;
    default:
        return (b & ~BITS_COLUMN(BOARD_SIZE - 1)) << 1;
    }
}

/* Number of squares in b. */
static inline int bits_count(Bits b) { return word_count((uint64_t)b) + word_count((uint64_t)(b >> 64)); }

/* The squares whose neighbour in direction d is in b: moving them by d lands in b
 * (directions come in opposite pairs, d ^ 1). */
static inline Bits bits_from_dir(Bits b, int d) { return bits_step(b, d ^ 1); }

/* The squares one step from the squares of b, on the board (lakes are the caller's);
 * b itself only where two of its squares are neighbours. */
static inline Bits bits_dilate(Bits b) {
    return bits_from_dir(b, DIR_UP) | bits_from_dir(b, DIR_DOWN) | bits_from_dir(b, DIR_LEFT) |
           bits_from_dir(b, DIR_RIGHT);
}

#endif
