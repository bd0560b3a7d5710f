#include "repetition.h"

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

/* Whether the move continues the run: same piece, same line, and a boundary that all
 * moves of the run crossed is crossed again. */
static int streak_continues(const Streak *st, int id, Crossing c) {
    if (c.axis == 2) return st->piece == id && st->axis == 2 && st->lo == c.lo && st->hi == c.hi;
    return st->piece == id && st->axis == c.axis && st->line == c.line && c.lo <= st->hi &&
           st->lo <= c.hi;
}

int repetition_forbids(const GameState *s, int limit, int id, int from, int to) {
    if (limit == 0) return 0;
    const Streak *st = &s->streak[piece_owner(id)];
    if (st->count < limit) return 0;
    return streak_continues(st, id, crossing_of(from, to));
}

void repetition_record(GameState *s, int id, int from, int to) {
    Streak *st = &s->streak[piece_owner(id)];
    Crossing c = crossing_of(from, to);
    if (streak_continues(st, id, c)) {
        if (c.lo > st->lo) st->lo = (uint8_t)c.lo;
        if (c.hi < st->hi) st->hi = (uint8_t)c.hi;
        if (st->count < 255) st->count++;
    } else {
        st->piece = (uint8_t)id;
        st->axis = (uint8_t)c.axis;
        st->line = (uint8_t)c.line;
        st->lo = (uint8_t)c.lo;
        st->hi = (uint8_t)c.hi;
        st->count = 1;
    }
}
