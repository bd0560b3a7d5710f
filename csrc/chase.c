#include "chase.h"

static int sq_adjacent(int a, int b) {
    int dr = sq_row(a) - sq_row(b), dc = sq_col(a) - sq_col(b);
    return dr * dr + dc * dc == 1;
}

int chase_forbids(const GameState *s, int id, int from, int to) {
    const Chase *c = &s->chase;
    if (!c->active || c->chaser != piece_owner(id)) return 0;
    int chased_sq = s->piece_sq[c->chased];
    if (chased_sq == SQ_NONE || !sq_adjacent(to, chased_sq)) return 0;
    /* Going back to the square it came from is allowed. */
    if (id == c->last_piece && to == c->last_from) return 0;
    int player = piece_owner(id), type = s->piece_type[id];
    uint64_t after = s->hash ^ board_zobrist(player, type, from) ^ board_zobrist(player, type, to);
    int stored = c->count < CHASE_POSITIONS ? c->count : CHASE_POSITIONS;
    for (int k = 0; k < stored; k++) {
        if (c->positions[k] == after) return 1;
    }
    return 0;
}

void chase_record(GameState *s, int id, int from, int to, int attack, int last_moved) {
    Chase *c = &s->chase;
    int player = piece_owner(id);
    if (c->active && player != c->chaser) {
        /* The chased side: fleeing with the chased piece keeps the chase going. */
        if (id != c->chased || attack) c->active = 0;
        return;
    }
    /* The chaser's side (or no chase yet): is this a chasing move? */
    int target = last_moved == SQ_NONE ? SQ_NONE : s->piece_sq[last_moved];
    int chasing = !attack && target != SQ_NONE && sq_adjacent(to, target) &&
                  piece_owner(last_moved) != player;
    if (!chasing) {
        c->active = 0;
        return;
    }
    if (!c->active || c->chased != last_moved) {
        c->active = 1;
        c->chaser = (uint8_t)player;
        c->chased = (uint8_t)last_moved;
        c->count = 0;
    }
    /* A ring: count runs CHASE_POSITIONS..2*CHASE_POSITIONS-1 once full. */
    c->positions[c->count % CHASE_POSITIONS] = s->hash;
    c->count = (uint8_t)(c->count + 1 >= 2 * CHASE_POSITIONS ? CHASE_POSITIONS : c->count + 1);
    c->last_piece = (uint8_t)id;
    c->last_from = (uint8_t)from;
}
