#include "repetition.h"

#include <stddef.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

typedef struct {
    int axis, line, lo, hi;
} Crossing;

/* The boundaries a move crosses: along a row, boundary c lies between columns c and
 * c+1; along a column, boundary r between rows r and r+1. A Captain's turning move
 * (a variant) crosses no line: it is axis 2, identified by its two squares, so only
 * moves between the same two squares continue its run. */
static Crossing crossing_of(int from, int to) {
    Crossing c;
    int fr = sq_row(from), fc = sq_col(from), tr = sq_row(to), tc = sq_col(to);
    if (fr != tr && fc != tc) {
        c.axis = 2;
        c.line = 0;
        c.lo = from < to ? from : to;
        c.hi = from < to ? to : from;
        return c;
    }
    if (fr == tr) {
        c.axis = 0;
        c.line = fr;
        c.lo = fc < tc ? fc : tc;
        c.hi = (fc < tc ? tc : fc) - 1;
    } else {
        c.axis = 1;
        c.line = fc;
        c.lo = fr < tr ? fr : tr;
        c.hi = (fr < tr ? tr : fr) - 1;
    }
    return c;
}

/* Whether the move goes on the streak's line: same piece and line, or for a turning
 * move the same two squares. Another move starts the counts afresh. */
static int streak_same_line(const Streak *st, int id, Crossing c) {
    if (st->piece != id || st->axis != c.axis) return 0;
    if (c.axis == 2) return st->line == c.lo && st->other == c.hi;
    return st->line == c.line;
}

int repetition_forbids(const GameState *s, int limit, int id, int from, int to) {
    if (limit == 0) return 0;
    const Streak *st = &s->streak[piece_owner(id)];
    if (st->run < limit) return 0;
    Crossing c = crossing_of(from, to);
    if (!streak_same_line(st, id, c)) return 0;
    if (c.axis == 2) return st->crossed[0] >= limit;
    /* The run with this move is one more than the longest count among the boundaries
     * it crosses. */
    for (int b = c.lo; b <= c.hi; b++) {
        if (st->crossed[b] >= limit) return 1;
    }
    return 0;
}

void repetition_record(GameState *s, int id, int from, int to) {
    Streak *st = &s->streak[piece_owner(id)];
    Crossing c = crossing_of(from, to);
    int same = streak_same_line(st, id, c);
    if (!same) {
        st->piece = (uint8_t)id;
        st->axis = (uint8_t)c.axis;
        st->line = (uint8_t)(c.axis == 2 ? c.lo : c.line);
        st->other = (uint8_t)(c.axis == 2 ? c.hi : 0);
    }
    int run = 0;
    if (c.axis == 2) {
        if (!same) memset(st->crossed, 0, sizeof(st->crossed));
        if (st->crossed[0] < 255) st->crossed[0]++;
        run = st->crossed[0];
    } else {
        /* A boundary the move crosses extends its count; any other boundary's tail of
         * crossings is broken by this move. */
#ifdef __SSE2__
        /* The nine counts in one register: a saturating add and a mask, then the largest
         * (the loop below, with its branches, was a quarter of playing a move). Read from
         * the Streak's start (16 bytes: it and 2 of what follows in the state) and
         * shifted down to the counts, not copied through a buffer, whose wider load after
         * narrower stores stalled; a new run starts from zeros without reading. */
        _Static_assert(sizeof(Streak) == 14 && offsetof(Streak, crossed) == 5, "the counts are lanes 5-13 of the load");
        _Static_assert(offsetof(GameState, streak) + sizeof(s->streak) + 2 <= sizeof(GameState),
                       "16 bytes from the last Streak stay within the state");
        __m128i x = _mm_setzero_si128();
        if (same) x = _mm_srli_si128(_mm_loadu_si128((const __m128i *)(const void *)st), 5);
        __m128i lane = _mm_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        __m128i in = _mm_and_si128(_mm_cmpgt_epi8(lane, _mm_set1_epi8((char)(c.lo - 1))),
                                   _mm_cmpgt_epi8(_mm_set1_epi8((char)(c.hi + 1)), lane));
        x = _mm_and_si128(_mm_adds_epu8(x, _mm_set1_epi8(1)), in);
        /* The nine counts back: eight, then the ninth. */
        _mm_storel_epi64((__m128i *)(void *)st->crossed, x);
        st->crossed[8] = (uint8_t)_mm_extract_epi16(x, 4);
        x = _mm_max_epu8(x, _mm_srli_si128(x, 8));
        x = _mm_max_epu8(x, _mm_srli_si128(x, 4));
        x = _mm_max_epu8(x, _mm_srli_si128(x, 2));
        x = _mm_max_epu8(x, _mm_srli_si128(x, 1));
        run = _mm_cvtsi128_si32(x) & 0xFF;
#else
        if (!same) memset(st->crossed, 0, sizeof(st->crossed));
        for (int b = 0; b < BOARD_SIZE - 1; b++) {
            int crossed = b >= c.lo && b <= c.hi;
            st->crossed[b] = (uint8_t)(crossed ? (st->crossed[b] < 255 ? st->crossed[b] + 1 : 255) : 0);
            if (st->crossed[b] > run) run = st->crossed[b];
        }
#endif
    }
    st->run = (uint8_t)run;
}
