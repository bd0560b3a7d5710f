/* bot_view.c: a seat's view of a castle game for the bots (castle_bot.h), and the bridge from a
 * game to a bot's choice. The only bot code that reads a CastleState: it copies what the
 * seat may know (A12) and nothing else. */
#include <string.h>

#include "castle_bot.h"

void castle_view_build(const CastleState *s, int seat, CastleView *v) {
    memset(v, 0, sizeof(*v));
    v->g = castle_geometry(s->mode);
    v->mode = s->mode;
    v->seats = s->seats;
    v->seat = (uint8_t)seat;
    v->phase = s->phase;
    v->take_node = s->take_node;
    memset(v->owner, CASTLE_NONE, sizeof(v->owner));
    memset(v->carry, CASTLE_NONE, sizeof(v->carry));
    for (int q = 0; q < s->seats; q++) {
        v->flag_node[q] = s->flag_node[q];
        v->flag_lone[q] = s->flag_carrier[q] == CASTLE_NONE;
        v->flag_abandoned[q] = s->flag_abandoned[q];
        v->slider[q] = s->slider[q];
        for (int r = 1; r <= CASTLE_RANK_MAX; r++) {
            v->removed[q][r] = s->removed[q][r];
            /* A3's count less the removed ones; the known ones are taken off below. */
            v->unknown[q][r] = (uint8_t)(CASTLE_RANK_COUNT[r] - s->removed[q][r]);
        }
    }
    for (int slot = 0; slot < s->seats * CASTLE_PIECES; slot++) {
        int node = s->node[slot];
        if (node == CASTLE_NONE) continue;
        int owner = castle_seat_of(slot);
        v->owner[node] = (uint8_t)owner;
        v->carry[node] = s->carry[slot];
        /* A12: the rank only if the seat knows it (its own pieces are always known). */
        if (castle_known(s, seat, slot)) {
            v->rank[node] = (uint8_t)castle_rank(slot);
            v->unknown[owner][castle_rank(slot)]--;
        }
    }
    for (int q = 0; q < s->seats; q++)
        for (int r = 1; r <= CASTLE_RANK_MAX; r++) v->unknown_total[q] += v->unknown[q][r];
}

int castle_bot_action(const CastleState *s, const CastleSettings *cfg, int kind, uint64_t *rng) {
    int16_t legal[CASTLE_ACTIONS_MAX];
    int n = castle_legal_list(s, cfg, legal);
    if (n == 0) return -1;
    CastleView v;
    castle_view_build(s, s->to_move, &v);
    return castle_bot_choose(kind, &v, cfg, legal, n, rng);
}
