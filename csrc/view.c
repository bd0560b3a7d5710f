#include "view.h"

#include <string.h>

#include "board.h"

void view_build(const GameState *s, int player, PlayerView *v) {
    /* What the observer sees on a cell, by board cell value (0 empty, 1 + id, lake):
     * filled per piece below, so the square loop needs no branches. */
    uint8_t code_of[256], flags_of[256];
    memset(v, 0, sizeof(*v));
    code_of[CELL_EMPTY] = VIEW_EMPTY;
    flags_of[CELL_EMPTY] = 0;
    code_of[CELL_LAKE] = VIEW_LAKE;
    flags_of[CELL_LAKE] = 0;
    int opp = 1 - player;
    memcpy(v->own_on_board, s->on_board[player], PIECE_TYPE_NB);
    int first = player * MAX_PIECES;
    for (int id = first; id < first + s->placed[player]; id++) {
        code_of[1 + id] = (uint8_t)(VIEW_OWN | s->piece_type[id]);
        flags_of[1 + id] = s->piece_flags[id];
    }
    /* The opponent's piece set is public (the variant's counts); of a captured piece the
     * observer knows the type only if it was ever shown. Only these sums of types are
     * read here, never the type of a particular unidentified piece. */
    first = opp * MAX_PIECES;
    for (int id = first; id < first + s->placed[opp]; id++) {
        uint8_t flags = s->piece_flags[id];
        int type = s->piece_type[id];
        int on_board = s->piece_sq[id] != SQ_NONE;
        int revealed = (flags & PIECE_REVEALED) != 0;
        /* A move longer than any other piece can make shows a Scout (rulebook "Movement"). */
        int scouted = !revealed && (flags & PIECE_SCOUTED);
        int known = revealed | scouted;
        int known_type = revealed ? type : SCOUT;
        int unknown = !known, captured = !on_board, moved = (flags & PIECE_MOVED) != 0;
        /* Not known to be captured; and of those, not identified (a known piece's type
         * is its true type: only Scouts are ever shown as Scouts). */
        v->opp_on_board[type] += (uint8_t)(on_board | unknown);
        v->opp_unknown[type] += (uint8_t)unknown;
        v->opp_unknown_moved += (uint8_t)(on_board & unknown & moved);
        v->opp_unknown_unmoved += (uint8_t)(on_board & unknown & !moved);
        v->opp_captured_unknown_moved += (uint8_t)(captured & unknown & moved);
        v->opp_captured_unknown_unmoved += (uint8_t)(captured & unknown & !moved);
        /* The type stays in the state: an unidentified piece's code says only that. */
        code_of[1 + id] = known ? (uint8_t)(VIEW_OPP_KNOWN | known_type) : VIEW_OPP_UNKNOWN;
        flags_of[1 + id] = flags;
    }
    int base = player == BLUE ? SQ_NB - 1 : 0, step = player == BLUE ? -1 : 1;
    for (int sq = 0; sq < SQ_NB; sq++) {
        uint8_t cell = s->board[sq];
        v->cell[base + step * sq] = code_of[cell];
        v->flags[base + step * sq] = flags_of[cell];
    }
    int remembered = s->ply < HISTORY_NB ? (int)s->ply : HISTORY_NB;
    for (int k = 0; k < remembered; k++) {
        const HistoryEntry *h = &s->history[(s->ply - 1 - k) % HISTORY_NB];
        v->last[k].from = (uint8_t)sq_to_frame(h->from, player);
        v->last[k].to = (uint8_t)sq_to_frame(h->to, player);
        v->last[k].attack = h->attack;
        v->last[k].valid = 1;
    }
    v->ply = s->ply;
    v->plies_since_attack = s->plies_since_attack;
}
