/* castle.c: the settings, the pieces, and the start of a game (empty board, setups,
 * who moves first). */
#include <stdio.h>
#include <string.h>

#include "castle.h"
#include "engine/rng.h"

/* The state is plain data copied per game (batches, clone, pickle, saves): small and
 * fixed, its size stated in docs/castle.md (a change there is a change here). */
_Static_assert(sizeof(CastleState) == 488, "CastleState changed size: update docs/castle.md, batches and saves");
_Static_assert(CASTLE_NODES_MAX < CASTLE_NONE && CASTLE_SLOTS < CASTLE_NONE, "bytes hold nodes and slots");

/* A3: a seat's 20 pieces, slot k's rank. */
const uint8_t CASTLE_SLOT_RANK[CASTLE_PIECES] = {9, 8, 7, 7, 6, 6, 6, 5, 5, 5, 4, 4, 4, 3, 3, 3, 3, 2, 1, 1};
const uint8_t CASTLE_RANK_COUNT[CASTLE_RANK_MAX + 1] = {0, 2, 1, 4, 3, 3, 3, 2, 1, 1};

const CastleSettingInfo CASTLE_SETTING_INFO[CASTLE_SETTING_NB] = {
#define CASTLE_SETTING_ROW(name, lo, hi, def, doc) {#name, doc, lo, hi, def},
    CASTLE_SETTINGS(CASTLE_SETTING_ROW)
#undef CASTLE_SETTING_ROW
};

CastleSettings castle_settings_default(void) {
    CastleSettings cfg = {
#define CASTLE_SETTING_DEFAULT(name, lo, hi, def, doc) .name = def,
        CASTLE_SETTINGS(CASTLE_SETTING_DEFAULT)
#undef CASTLE_SETTING_DEFAULT
    };
    return cfg;
}

int castle_settings_check(const CastleSettings *cfg, char *err, size_t err_len) {
#define CASTLE_SETTING_CHECK(name, lo, hi, def, doc)                                                   \
    if (cfg->name < (lo) || cfg->name > (hi)) {                                                        \
        snprintf(err, err_len, "%s must be in [%d, %d], got %d", #name, (int)(lo), (int)(hi), (int)cfg->name); \
        return -1;                                                                                     \
    }
    CASTLE_SETTINGS(CASTLE_SETTING_CHECK)
#undef CASTLE_SETTING_CHECK
    int seats = cfg->mode == CASTLE_FFA3 ? 3 : 4;
    if (cfg->first_seat >= seats) {
        snprintf(err, err_len, "first_seat must be below the %d seats of %s, got %d", seats,
                 castle_mode_name(cfg->mode), (int)cfg->first_seat);
        return -1;
    }
    return 0;
}

const char *castle_mode_name(int mode) {
    static const char *const NAMES[CASTLE_MODE_NB] = {"ffa4", "teams4", "ffa3"};
    return mode >= 0 && mode < CASTLE_MODE_NB ? NAMES[mode] : "?";
}

const char *castle_end_name(int reason) {
    static const char *const NAMES[CASTLE_END_NB] = {"none", "turret", "stuck", "cap"};
    return reason >= 0 && reason < CASTLE_END_NB ? NAMES[reason] : "?";
}

const char *castle_phase_name(int phase) {
    static const char *const NAMES[CASTLE_PHASE_NB] = {"move", "take", "recruit"};
    return phase >= 0 && phase < CASTLE_PHASE_NB ? NAMES[phase] : "?";
}

void castle_clear(CastleState *s, const CastleSettings *cfg) {
    uint64_t rng = s->rng;
    memset(s, 0, sizeof(*s));
    s->rng = rng;
    memset(s->board, CASTLE_NONE, sizeof(s->board));
    memset(s->node, CASTLE_NONE, sizeof(s->node));
    memset(s->carry, CASTLE_NONE, sizeof(s->carry));
    memset(s->flag_node, CASTLE_NONE, sizeof(s->flag_node));
    memset(s->flag_carrier, CASTLE_NONE, sizeof(s->flag_carrier));
    memset(s->rep_slot, CASTLE_NONE, sizeof(s->rep_slot));
    s->mode = (uint8_t)cfg->mode;
    s->seats = (uint8_t)(cfg->mode == CASTLE_FFA3 ? 3 : 4);
    s->phase = CASTLE_PHASE_MOVE;
    s->to_move = s->mover = (uint8_t)cfg->first_seat;
    s->take_node = s->chance_seat = s->winner = CASTLE_NONE;
    /* A12: a seat knows its own ranks. */
    for (int slot = 0; slot < CASTLE_SLOTS; slot++) s->known[slot] = (uint8_t)(1u << castle_seat_of(slot));
}

/* Puts `slot` on `node` (empty); the flag start space gives it its seat's flag (1.3). */
static void place(CastleState *s, const CastleGeometry *g, int slot, int node) {
    int seat = castle_seat_of(slot);
    s->board[node] = (uint8_t)slot;
    s->node[slot] = (uint8_t)node;
    if (node == g->flag_node[seat]) {
        s->carry[slot] = (uint8_t)seat;
        s->flag_node[seat] = (uint8_t)node;
        s->flag_carrier[seat] = (uint8_t)slot;
        s->flag_abandoned[seat] = 0;
    }
}

int castle_setup_seat(CastleState *s, int seat, const uint8_t ranks[CASTLE_PIECES], char *err, size_t err_len) {
    const CastleGeometry *g = castle_geometry(s->mode);
    int count[CASTLE_RANK_MAX + 1] = {0};
    if (seat < 0 || seat >= s->seats) {
        snprintf(err, err_len, "seat must be in [0, %d), got %d", s->seats, seat);
        return -1;
    }
    for (int k = 0; k < CASTLE_PIECES; k++) {
        if (ranks[k] < 1 || ranks[k] > CASTLE_RANK_MAX) {
            snprintf(err, err_len, "setup rank %d at position %d is not a rank 1..9", ranks[k], k);
            return -1;
        }
        count[ranks[k]]++;
    }
    for (int r = 1; r <= CASTLE_RANK_MAX; r++)
        if (count[r] != CASTLE_RANK_COUNT[r]) {
            snprintf(err, err_len, "a setup holds %d piece(s) of rank %d, A3 gives %d", count[r], r, CASTLE_RANK_COUNT[r]);
            return -1;
        }
    for (int k = 0; k < CASTLE_PIECES; k++)
        if (s->board[g->zone_nodes[seat][k]] != CASTLE_NONE) {
            snprintf(err, err_len, "seat %d's zone is not empty", seat);
            return -1;
        }
    /* Slot k of a seat has rank CASTLE_SLOT_RANK[k]: the first unused slot of each rank. */
    int used[CASTLE_PIECES] = {0};
    for (int k = 0; k < CASTLE_PIECES; k++) {
        int j = 0;
        while (used[j] || CASTLE_SLOT_RANK[j] != ranks[k]) j++;
        used[j] = 1;
        place(s, g, seat * CASTLE_PIECES + j, g->zone_nodes[seat][k]);
    }
    return 0;
}

void castle_setup_random(CastleState *s, int seat) {
    /* 1.3: the pieces anywhere in the zone (the recruitment space stays empty), a uniform
     * shuffle from the game's own stream. */
    const CastleGeometry *g = castle_geometry(s->mode);
    uint8_t order[CASTLE_PIECES];
    for (int k = 0; k < CASTLE_PIECES; k++) order[k] = (uint8_t)k;
    for (int k = CASTLE_PIECES - 1; k > 0; k--) {
        int j = (int)rng_below(&s->rng, (uint32_t)k + 1);
        uint8_t t = order[k];
        order[k] = order[j];
        order[j] = t;
    }
    for (int k = 0; k < CASTLE_PIECES; k++) place(s, g, seat * CASTLE_PIECES + order[k], g->zone_nodes[seat][k]);
}

/* Every field against every other (docs/castle.md): what a state from outside (a pickle,
 * a save) must pass before a rule reads it. */
int castle_state_check(const CastleState *s, const CastleSettings *cfg, char *err, size_t err_len) {
#define BAD(...)                                                                                        \
    do {                                                                                                \
        snprintf(err, err_len, "bad castle state: " __VA_ARGS__);                                       \
        return -1;                                                                                      \
    } while (0)
    if (s->mode != cfg->mode) BAD("mode %d, the settings' %d", s->mode, (int)cfg->mode);
    const CastleGeometry *g = castle_geometry(s->mode);
    int seats = g->seats, slots = seats * CASTLE_PIECES;
    if (s->seats != seats) BAD("%d seats in mode %s", s->seats, castle_mode_name(s->mode));
    if (s->phase >= CASTLE_PHASE_NB || s->to_move >= seats || s->mover >= seats) BAD("phase or seat out of range");
    if (s->done > 1 || (s->done && (s->end_reason == CASTLE_END_NONE || s->end_reason >= CASTLE_END_NB)) ||
        (!s->done && s->end_reason != CASTLE_END_NONE) || (s->winner != CASTLE_NONE && s->winner >= seats))
        BAD("end fields disagree");
    for (int n = 0; n < CASTLE_NODES_MAX; n++) {
        int slot = s->board[n];
        if (slot == CASTLE_NONE) continue;
        if (n >= g->nodes || slot >= slots || s->node[slot] != n) BAD("node %d and its piece disagree", n);
    }
    int missing[CASTLE_SEATS_MAX][CASTLE_RANK_MAX + 1] = {{0}};
    for (int slot = 0; slot < CASTLE_SLOTS; slot++) {
        int node = s->node[slot], flag = s->carry[slot];
        if (slot >= slots) {
            if (node != CASTLE_NONE || flag != CASTLE_NONE) BAD("slot %d is not in play", slot);
            continue;
        }
        if (!castle_known(s, castle_seat_of(slot), slot) || (s->known[slot] >> seats)) BAD("knowledge of slot %d", slot);
        if (node == CASTLE_NONE) {
            missing[castle_seat_of(slot)][castle_rank(slot)]++;
            if (flag != CASTLE_NONE) BAD("a removed piece carries a flag");
            continue;
        }
        if (node >= g->nodes || s->board[node] != slot) BAD("slot %d and its node disagree", slot);
        if (flag != CASTLE_NONE && (flag >= seats || s->flag_carrier[flag] != slot)) BAD("slot %d's flag", slot);
    }
    for (int q = 0; q < CASTLE_SEATS_MAX; q++) {
        if (q >= seats) continue;
        for (int r = 1; r <= CASTLE_RANK_MAX; r++)
            if (missing[q][r] != s->removed[q][r]) BAD("seat %d's removed pile", q);
        if (s->slider[q] > 5) BAD("seat %d's slider %d", q, s->slider[q]);
        if (s->flag_node[q] >= g->nodes || s->flag_abandoned[q] > 1) BAD("seat %d's flag", q);
        int c = s->flag_carrier[q];
        if (c != CASTLE_NONE && (c >= slots || s->carry[c] != q || s->node[c] != s->flag_node[q] || s->flag_abandoned[q]))
            BAD("seat %d's flag and its carrier disagree", q);
        /* A10's count: the seat's last moved piece stands on one end of a move it can make,
         * counted 1..back_and_forth times; none after a shot or its removal. */
        int r = s->rep_slot[q], a = s->rep_a[q], b = s->rep_b[q];
        if (r == CASTLE_NONE) {
            if (s->rep_count[q]) BAD("seat %d's back-and-forth count without a piece", q);
            continue;
        }
        if (castle_seat_of(r) != q || r >= slots || s->node[r] == CASTLE_NONE || a >= g->nodes || b >= g->nodes ||
            a == b || (s->node[r] != a && s->node[r] != b) || g->move_index[a][b] < 0)
            BAD("seat %d's back-and-forth piece or nodes", q);
        int adjacent = 0;
        for (int k = 0; k < g->degree[a]; k++) adjacent |= g->neighbour[a][k] == b;
        if (!adjacent && castle_rank(r) != CASTLE_SCOUT && castle_rank(r) != CASTLE_CAPTAIN)
            BAD("seat %d's back-and-forth nodes are no move of its piece", q);
        if (s->rep_count[q] < 1 || s->rep_count[q] > cfg->back_and_forth)
            BAD("seat %d's back-and-forth count %d is not in [1, %d]", q, s->rep_count[q], (int)cfg->back_and_forth);
    }
    if (!s->done && cfg->max_plies && s->ply >= (uint32_t)cfg->max_plies) BAD("ply %u at or past the cap", (unsigned)s->ply);
    if (!s->done && s->phase == CASTLE_PHASE_MOVE && s->to_move != s->mover) BAD("the mover is not to move");
    if (!s->done && s->phase == CASTLE_PHASE_TAKE &&
        (s->to_move != s->mover || s->take_node >= g->nodes || s->board[s->take_node] == CASTLE_NONE ||
         castle_seat_of(s->board[s->take_node]) != s->to_move || s->carry[s->board[s->take_node]] != CASTLE_NONE))
        BAD("the take decision has no piece free to carry");
    if (s->chance_seat != CASTLE_NONE && s->chance_seat >= seats) BAD("chance seat");
    if (!s->done && s->phase == CASTLE_PHASE_RECRUIT &&
        (s->chance_seat != s->to_move || s->board[g->recruit_node[s->to_move]] != CASTLE_NONE))
        BAD("the recruit decision's seat or space");
    return 0;
#undef BAD
}
