#include "view.h"

#include <string.h>

#include "board.h"

void view_build(const GameState *s, int player, PlayerView *v) {
    memset(v, 0, sizeof(*v));
    int opp = 1 - player;
    memcpy(v->own_on_board, s->on_board[player], PIECE_TYPE_NB);
    /* The opponent's piece set is public (the variant's counts); of a captured piece the
     * observer knows the type only if it was ever shown. Only these sums of types are
     * read here, never the type of a particular unidentified piece. */
    int first = opp * MAX_PIECES, last = first + s->placed[opp];
    for (int id = first; id < last; id++) {
        v->opp_on_board[s->piece_type[id]]++;
        if (s->piece_sq[id] != SQ_NONE) continue;
        if (s->piece_flags[id] & (PIECE_REVEALED | PIECE_SCOUTED)) {
            v->opp_on_board[s->piece_type[id]]--;
        } else if (s->piece_flags[id] & PIECE_MOVED) {
            v->opp_captured_unknown_moved++;
        } else {
            v->opp_captured_unknown_unmoved++;
        }
    }
    memcpy(v->opp_unknown, v->opp_on_board, PIECE_TYPE_NB);
    for (int sq = 0; sq < SQ_NB; sq++) {
        int f = sq_to_frame(sq, player);
        uint8_t cell = s->board[sq];
        if (cell == CELL_EMPTY) continue;
        if (cell == CELL_LAKE) {
            v->cell[f] = VIEW_LAKE;
            continue;
        }
        int id = cell - 1;
        uint8_t flags = s->piece_flags[id];
        v->flags[f] = flags;
        if (piece_owner(id) == player) {
            v->cell[f] = (uint8_t)(VIEW_OWN | s->piece_type[id]);
        } else if (flags & PIECE_REVEALED) {
            v->cell[f] = (uint8_t)(VIEW_OPP_KNOWN | s->piece_type[id]);
            v->opp_unknown[s->piece_type[id]]--;
        } else if (flags & PIECE_SCOUTED) {
            /* A move of more than one square shows a Scout (rulebook "Movement"). */
            v->cell[f] = (uint8_t)(VIEW_OPP_KNOWN | SCOUT);
            v->opp_unknown[SCOUT]--;
        } else {
            /* The type stays in the state: the view keeps only that it is unknown. */
            v->cell[f] = VIEW_OPP_UNKNOWN;
            if (flags & PIECE_MOVED) v->opp_unknown_moved++;
            else v->opp_unknown_unmoved++;
        }
    }
    int known = s->ply < HISTORY_NB ? s->ply : HISTORY_NB;
    for (int k = 0; k < known; k++) {
        const HistoryEntry *h = &s->history[(s->ply - 1 - k) % HISTORY_NB];
        v->last[k].from = (uint8_t)sq_to_frame(h->from, player);
        v->last[k].to = (uint8_t)sq_to_frame(h->to, player);
        v->last[k].attack = h->attack;
        v->last[k].valid = 1;
    }
    v->ply = s->ply;
    v->plies_since_attack = s->plies_since_attack;
}
