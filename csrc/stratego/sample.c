/* sample.c: the plan of a view and the uniform draw of its hidden types (sample.h says
 * why the draw is exact). Behind the information wall: it reads a PlayerView only. */
#include "sample.h"

#include <string.h>

#include "engine/rng.h"

int sample_plan_build(const PlayerView *v, SamplePlan *plan) {
    memset(plan, 0, sizeof(*plan));
    int board_narrowed = 0;
    for (int sq = 0; sq < SQ_NB; sq++) {
        if (v->cell[sq] != VIEW_OPP_UNKNOWN) continue;
        int slot = plan->board_slots++;
        plan->sq[slot] = (uint8_t)sq;
        uint8_t f = v->flags[sq];
        if (f & PIECE_SCOUT_OR_CAPTAIN) {
            plan->narrowed[plan->narrowed_n++] = (uint8_t)slot;
            board_narrowed++;
        } else if (f & PIECE_MOVED) {
            plan->moved[plan->moved_n++] = (uint8_t)slot;
        } else {
            plan->unmoved[plan->unmoved_n++] = (uint8_t)slot;
        }
    }
    plan->unmoved_board = plan->unmoved_n;
    /* The captured unseen pieces are counts in the view (which of them is which is not
     * known, only how many moved and how many of those a move narrowed). */
    int narrowed_all = (int)v->opp_scout_or_captain, captured_moved = v->opp_captured_unknown_moved;
    int captured_narrowed = narrowed_all - board_narrowed;
    if (captured_narrowed < 0 || captured_narrowed > captured_moved) return -1;
    plan->captured_unmoved = v->opp_captured_unknown_unmoved;
    plan->captured_narrowed = (uint8_t)captured_narrowed;
    plan->captured_moved = (uint8_t)(captured_moved - captured_narrowed);
    int slot = plan->board_slots;
    if (slot + plan->captured_unmoved + captured_moved > MAX_PIECES) return -1;
    for (int i = 0; i < plan->captured_unmoved; i++) plan->unmoved[plan->unmoved_n++] = (uint8_t)slot++;
    for (int i = 0; i < plan->captured_narrowed; i++) plan->narrowed[plan->narrowed_n++] = (uint8_t)slot++;
    for (int i = 0; i < plan->captured_moved; i++) plan->moved[plan->moved_n++] = (uint8_t)slot++;
    plan->slots = (uint8_t)slot;
    /* The deck of movable types: the unseen Scouts and Captains first (the narrowed
     * slots draw from them alone), then the others. */
    int total = 0;
    for (int t = 0; t < PIECE_TYPE_NB; t++) total += v->opp_unknown[t];
    if (total != slot) return -1;
    plan->flags = v->opp_unknown[FLAG];
    plan->bombs = v->opp_unknown[BOMB];
    int m = 0;
    for (int i = 0; i < v->opp_unknown[SCOUT]; i++) plan->deck[m++] = SCOUT;
    for (int i = 0; i < v->opp_unknown[CAPTAIN]; i++) plan->deck[m++] = CAPTAIN;
    plan->pair = (uint8_t)m;
    for (int t = SPY; t <= MARSHAL; t++) {
        if (t == SCOUT || t == CAPTAIN) continue;
        for (int i = 0; i < v->opp_unknown[t]; i++) plan->deck[m++] = (uint8_t)t;
    }
    plan->movable = (uint8_t)m;
    /* Room for every constraint: the Flags among the unmoved board pieces, the Bombs
     * among the unmoved pieces left, the narrowed among the Scouts and Captains. */
    if (plan->flags > plan->unmoved_board || plan->flags + plan->bombs > plan->unmoved_n ||
        plan->narrowed_n > plan->pair)
        return -1;
    return 0;
}

/* Position i.. of a list of n, one drawn uniformly from the n - i not yet drawn. */
static inline void draw_into(uint8_t *list, int i, int n, uint64_t *rng) {
    int j = i + (int)rng_below(rng, (uint32_t)(n - i));
    uint8_t x = list[i];
    list[i] = list[j];
    list[j] = x;
}

void sample_plan_draw(const SamplePlan *plan, uint64_t *rng, uint8_t *types) {
    uint8_t unmoved[MAX_PIECES], deck[MAX_PIECES];
    memcpy(unmoved, plan->unmoved, sizeof(unmoved));
    memcpy(deck, plan->deck, sizeof(deck));
    int i = 0;
    /* The Flags: a uniform subset of the unmoved pieces on the board. */
    for (; i < plan->flags; i++) {
        draw_into(unmoved, i, plan->unmoved_board, rng);
        types[unmoved[i]] = FLAG;
    }
    /* The Bombs: a uniform subset of the unmoved pieces left, board or captured. */
    for (; i < plan->flags + plan->bombs; i++) {
        draw_into(unmoved, i, plan->unmoved_n, rng);
        types[unmoved[i]] = BOMB;
    }
    /* The narrowed pieces: Scouts and Captains drawn without replacement. */
    int d = 0;
    for (; d < plan->narrowed_n; d++) {
        draw_into(deck, d, plan->pair, rng);
        types[plan->narrowed[d]] = deck[d];
    }
    /* Every other piece: the movable types left, shuffled onto them. */
    for (; i < plan->unmoved_n; i++, d++) {
        draw_into(deck, d, plan->movable, rng);
        types[unmoved[i]] = deck[d];
    }
    for (int k = 0; k < plan->moved_n; k++, d++) {
        draw_into(deck, d, plan->movable, rng);
        types[plan->moved[k]] = deck[d];
    }
}

uint64_t sample_stream(uint64_t seed, uint64_t index) { return rng_seed_stream(seed, index, 3); }
