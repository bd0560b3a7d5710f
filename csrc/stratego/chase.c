#include "chase.h"

#include <string.h>

/* Bit i set for each piece of the opponent of `player` (ids first + i) that stands next
 * to `sq` and is in `among` (all ones: any such piece). */
static uint64_t chase_neighbours(const GameState *s, int player, int sq, uint64_t among) {
    uint64_t found = 0;
    int opponent_first = (1 - player) * MAX_PIECES;
    for (int d = 0; d < 4; d++) {
        int row = sq_row(sq) + DIR_ROW[d], col = sq_col(sq) + DIR_COL[d];
        if (row < 0 || row >= BOARD_SIZE || col < 0 || col >= BOARD_SIZE) continue;
        uint8_t cell = s->board[row * BOARD_SIZE + col];
        if (cell == CELL_EMPTY || cell == CELL_LAKE || piece_owner(cell - 1) == player) continue;
        uint64_t bit = 1ull << (cell - 1 - opponent_first);
        found |= bit & among;
    }
    return found;
}

int chase_forbids(const GameState *s, int id, int from, int to) {
    const Chase *c = &s->chase;
    int player = piece_owner(id);
    if (!c->active || c->chaser != player) return 0;
    /* Only a chasing move: one that threatens a piece that evaded in this chase. */
    if (!chase_neighbours(s, player, to, c->evaders)) return 0;
    /* Going back to the square it came from is allowed (ISF 11.2). */
    if (id == c->last_piece && to == c->last_from) return 0;
    int type = s->piece_type[id];
    uint64_t after = s->hash ^ board_zobrist(player, type, from) ^ board_zobrist(player, type, to);
    for (int k = 0; k < c->count; k++) {
        if (c->positions[k] == after) return 1;
    }
    return 0;
}

void chase_reset(GameState *s) { memset(&s->chase, 0, sizeof(s->chase)); }

/* Adds the position now on the board to the chase. The no-attack cap keeps a chase
 * within CHASE_POSITIONS (types.h); the test only guards the array against a state
 * whose counters disagree with its rules. */
static void chase_remember(Chase *c, uint64_t hash) {
    if (c->count < CHASE_POSITIONS) c->positions[c->count++] = hash;
}

void chase_record(GameState *s, int id, int from, int to, int attack) {
    Chase *c = &s->chase;
    int player = piece_owner(id), opponent = 1 - player;
    if (attack) {
        chase_reset(s);
        return;
    }
    uint64_t bit = 1ull << (id - player * MAX_PIECES);
    /* The opponent's latest move was the ply before this one: did it threaten the piece
     * that now moves away? */
    int evades = (c->threatened[opponent] & bit) != 0;
    /* What this move threatens: the possible first threat of a chase. */
    uint64_t threatens = chase_neighbours(s, player, to, ~0ull);
    if (c->active && c->chaser == opponent) {
        /* The chased side: an evasion keeps the chase going, and the piece stays chased. */
        if (evades) {
            c->evaders |= bit;
        } else {
            c->active = 0;
        }
    } else if (c->active) {
        /* The chaser: a chasing move threatens a piece that evaded in this chase. */
        if (threatens & c->evaders) {
            chase_remember(c, s->hash);
            c->last_piece = (uint8_t)id;
            c->last_from = (uint8_t)from;
        } else {
            c->active = 0;
        }
    }
    if (!c->active && evades) {
        /* The opponent's threat is evaded: a chase starts, with that threat as its first
         * move and the position after it as its first position. */
        c->active = 1;
        c->chaser = (uint8_t)opponent;
        c->evaders = bit;
        c->count = 0;
        chase_remember(c, c->threat_hash[opponent]);
        c->last_piece = c->threat_piece[opponent];
        c->last_from = c->threat_from[opponent];
    }
    c->threatened[player] = threatens;
    c->threat_hash[player] = s->hash;
    c->threat_piece[player] = (uint8_t)id;
    c->threat_from[player] = (uint8_t)from;
}
