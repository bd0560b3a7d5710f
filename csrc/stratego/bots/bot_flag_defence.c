/* bot_flag_defence.c: the heuristic bot's reading of its Flag's four lines (bot_heuristic.h):
 * which opponent pieces could take the Flag next move, which squares block them, and the
 * chance that the opponent's reply takes it, the opponent choosing uniformly among its
 * moves (exact against the random bot). Like the rest of the bot it reads the view only.
 */
#include "bot_heuristic.h"

#include "stratego/square_geometry.h"

/* 1 if an opponent piece on this cell may be a Scout (a line attack from afar). */
static inline int may_be_scout(uint8_t cell) {
    return (cell & VIEW_OPP_UNKNOWN) || cell == (VIEW_OPP_KNOWN | SCOUT);
}

/* 1 if an opponent piece on this cell may move at all. */
static inline int may_move(uint8_t cell) {
    return (cell & VIEW_OPP_UNKNOWN) || ((cell & VIEW_OPP_KNOWN) && piece_type_is_movable(cell_type(cell)));
}

/* The Flag's guard: threats, blocking squares and the squares next to it, and its
 * lines where a move can change what reaches it: up to the first piece, where an
 * opponent piece is that piece or the next one along. */
void eval_flag(Eval *e, int flag) {
    const PlayerView *v = e->v;
    for (int d = 0; d < DIR_NB; d++) {
        Bits open_line = 0, first = 0;
        for (int k = 1, sq = flag + DIR_STEP[d]; k <= RAY_LEN[flag][d]; k++, sq += DIR_STEP[d]) {
            uint8_t cell = v->cell[sq];
            if (k == 1) e->guard |= sq_bit(sq);
            if (cell == VIEW_EMPTY) {
                if (!first) open_line |= sq_bit(sq);
                continue;
            }
            if (cell == VIEW_LAKE) break;
            if (first) {
                /* An own piece first: it alone blocks what comes next. */
                if (is_opp(cell) && may_be_scout(cell)) e->rays |= first | open_line;
                break;
            }
            if (is_opp(cell)) {
                e->rays |= open_line | sq_bit(sq);
                if (k == 1 ? may_move(cell) : may_be_scout(cell)) {
                    e->threats |= sq_bit(sq);
                    if (k == 1) e->intruders |= sq_bit(sq);
                    e->blocks |= open_line;
                }
                break;
            }
            first = sq_bit(sq);
        }
    }
}

/* The chance that the opponent piece in `cell` (on square sq) can take a Flag: from next
 * to it any piece that moves can, from farther along an open line only a Scout. */
static float flag_hit_chance(Eval *e, uint8_t cell, int sq, int next_to) {
    if (cell & VIEW_OPP_KNOWN) {
        int t = cell_type(cell);
        return next_to ? (float)piece_type_is_movable(t) : (float)(t == SCOUT);
    }
    eval_beliefs(e);
    int moved = (e->v->flags[sq] & PIECE_MOVED) != 0;
    if (next_to) return moved ? 1.0f : 1.0f - e->p_unmoved[BOMB] - e->p_unmoved[FLAG];
    return moved ? e->p_moved[SCOUT] : e->p_unmoved[SCOUT];
}

/* The expected number of opponent moves that take one of our Flags, with square
 * `from` emptied and square `to` holding `to_cell` (from = to = -1: the view as is).
 * Each such piece has one move onto the Flag. */
float flag_exposure(Eval *e, int from, int to, uint8_t to_cell) {
    float sum = 0.0f;
    for (int f = 0; f < e->nflags; f++) {
        int flag = e->flag_sq[f];
        for (int d = 0; d < DIR_NB; d++) {
            for (int k = 1, sq = flag + DIR_STEP[d]; k <= RAY_LEN[flag][d]; k++, sq += DIR_STEP[d]) {
                uint8_t cell = sq == from ? VIEW_EMPTY : sq == to ? to_cell : e->v->cell[sq];
                if (cell == VIEW_EMPTY) continue;
                if (is_opp(cell)) sum += flag_hit_chance(e, cell, sq, k == 1);
                break;
            }
        }
    }
    return sum;
}

/* The Flag's exposure before our move and the opponent's moves, estimated as one per
 * open neighbour of a piece that may move, weighted by that chance (a Scout's longer
 * moves are left out). Computed only when a move touches a line of the Flag. */
void flag_lookahead_init(Eval *e) {
    const ViewSets *s = &e->s;
    e->exposure = flag_exposure(e, -1, -1, 0);
    eval_beliefs(e);
    Bits free = bits_board() & ~s->lakes & ~s->opp;
    Bits sure = s->opp_known | s->opp_moved, movers = s->opp & ~s->opp_fixed;
    float p_unmoved = 1.0f - e->p_unmoved[BOMB] - e->p_unmoved[FLAG];
    float moves = 0.0f;
    /* By direction: the pieces that have an open square that way. */
    for (int d = 0; d < DIR_NB; d++) {
        Bits can = movers & bits_from_dir(free, d);
        moves += (float)bits_count(can & sure) + p_unmoved * (float)bits_count(can & ~sure);
    }
    e->opp_moves = moves < 1.0f ? 1.0f : moves;
}
