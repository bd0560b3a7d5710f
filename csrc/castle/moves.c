/* moves.c: the legal actions of the seat to decide, as a mask, a list, "any?", and the
 * reason an action is not legal. One walk (legal_walk) decides every rule of movement;
 * the other functions read its answers. */
#include <stdio.h>
#include <string.h>

#include "castle.h"

/* A10: the piece's 6th (back_and_forth + 1-th) move in a row between the same two nodes. */
static inline int repeats_too_often(const CastleState *s, const CastleSettings *cfg, int seat, int slot, int f, int t) {
    return s->rep_slot[seat] == slot && s->rep_count[seat] >= cfg->back_and_forth &&
           ((s->rep_a[seat] == f && s->rep_b[seat] == t) || (s->rep_a[seat] == t && s->rep_b[seat] == f));
}

/* Whether a move ending on t may go there: t empty, or a rival's piece to attack. */
static inline int may_enter(const CastleState *s, int seat, int t) {
    int occ = s->board[t];
    return occ == CASTLE_NONE || castle_rivals(s, seat, castle_seat_of(occ));
}

/* Whether a cannon's shot (a SHOT action) is open now (1.10, A7): a rival piece on the
 * target, nothing on the cells between, lakes between only with cannon_over_lakes. */
static inline int shot_open(const CastleState *s, const CastleSettings *cfg, const CastleGeometry *g, int seat,
                            const CastleAction *a) {
    int occ = s->board[a->to];
    if (occ == CASTLE_NONE || !castle_rivals(s, seat, castle_seat_of(occ))) return 0;
    if (a->over_lake && !cfg->cannon_over_lakes) return 0;
    for (int k = 0; k < 2; k++) {
        int node = g->cell_node[a->between[k]];
        if (node != CASTLE_NONE && s->board[node] != CASTLE_NONE) return 0;
    }
    return 1;
}

/* Marks an action in a byte mask, or a packed one (bit a % 8 of byte a / 8). */
static inline void mark(uint8_t *out, int packed, int a) {
    if (packed) out[a >> 3] |= (uint8_t)(1u << (a & 7));
    else out[a] = 1;
}

/* Marks every legal MOVE-phase action of `seat` in out (bytes, or bits when packed);
 * with first_only it stops at the first one (out unused). Returns 1 if any is legal. */
static int legal_walk(const CastleState *s, const CastleSettings *cfg, int seat, uint8_t *out, int packed,
                      int first_only) {
    const CastleGeometry *g = castle_geometry(s->mode);
    int any = 0;
#define EMIT(a)                                                                                        \
    do {                                                                                               \
        any = 1;                                                                                       \
        if (first_only) return 1;                                                                      \
        mark(out, packed, a);                                                                          \
    } while (0)
    for (int k = 0; k < CASTLE_PIECES; k++) {
        int slot = seat * CASTLE_PIECES + k, f = s->node[slot];
        if (f == CASTLE_NONE) continue;
        int rank = CASTLE_SLOT_RANK[k], carrier = s->carry[slot] != CASTLE_NONE;
        /* Steps (1.5, A4): to an empty neighbour, or an attack on a rival's piece (1.6);
         * a cannon never attacks by moving (A6); a carrier may leave its flag (A8). */
        for (int j = 0; j < g->degree[f]; j++) {
            int t = g->neighbour[f][j], occ = s->board[t];
            if (repeats_too_often(s, cfg, seat, slot, f, t)) continue;
            if (occ == CASTLE_NONE) {
                EMIT(g->move_index[f][t]);
                if (carrier && cfg->abandon) EMIT(g->drop_index[f][j]);
            } else if (rank != CASTLE_CANNON && castle_rivals(s, seat, castle_seat_of(occ))) {
                EMIT(g->move_index[f][t]);
            }
        }
        /* Shots (1.10, A7), from a space only, a carrier's too (docs/castle.md). */
        if (rank == CASTLE_CANNON && f < g->spaces)
            for (int d = 0; d < 4; d++) {
                int a = g->shot_index[f][d];
                if (a >= 0 && shot_open(s, cfg, g, seat, &g->action[a])) EMIT(a);
            }
        /* A5: carriers move one space, whatever their rank. */
        if (carrier) continue;
        if (rank == CASTLE_SCOUT && f < g->spaces) {
            /* 1.8, A5: along a line of empty spaces; the first piece met may be attacked
             * at the end (scout_line_attack). The first cell is a step, done above. */
            for (int d = 0; d < 4; d++)
                for (int i = 0; i < g->line_len[f][d]; i++) {
                    int t = g->line[f][d][i], occ = s->board[t];
                    if (occ != CASTLE_NONE) {
                        if (i > 0 && cfg->scout_line_attack && castle_rivals(s, seat, castle_seat_of(occ)) &&
                            !repeats_too_often(s, cfg, seat, slot, f, t))
                            EMIT(g->move_index[f][t]);
                        break;
                    }
                    if (i > 0 && !repeats_too_often(s, cfg, seat, slot, f, t)) EMIT(g->move_index[f][t]);
                }
        } else if (rank == CASTLE_CAPTAIN) {
            /* 1.7, A5: a first step onto an empty node (the ring too), then a step onto an
             * empty node or an attack; an attack on the first step ends the move (above). */
            for (int j = 0; j < g->degree[f]; j++) {
                int m = g->neighbour[f][j];
                if (s->board[m] != CASTLE_NONE) continue;
                for (int i = 0; i < g->degree[m]; i++) {
                    int t = g->neighbour[m][i];
                    if (t != f && may_enter(s, seat, t) && !repeats_too_often(s, cfg, seat, slot, f, t))
                        EMIT(g->move_index[f][t]);
                }
            }
        }
    }
#undef EMIT
    return any;
}

int castle_has_move(const CastleState *s, const CastleSettings *cfg, int seat) {
    return legal_walk(s, cfg, seat, NULL, 0, 1);
}

/* The legal actions of the seat to decide into out (cleared first): bytes or bits. */
static void legal_write(const CastleState *s, const CastleSettings *cfg, uint8_t *out, int packed) {
    const CastleGeometry *g = castle_geometry(s->mode);
    memset(out, 0, packed ? (size_t)(g->actions + 7) / 8 : (size_t)g->actions);
    if (s->done) return;
    switch (s->phase) {
    case CASTLE_PHASE_MOVE: legal_walk(s, cfg, s->to_move, out, packed, 0); break;
    case CASTLE_PHASE_TAKE:
        /* A8: any lone flag where the moved piece stands, or none. */
        for (int q = 0; q < s->seats; q++)
            if (s->flag_carrier[q] == CASTLE_NONE && s->flag_node[q] == s->take_node) mark(out, packed, g->take_base + q);
        mark(out, packed, g->leave_action);
        break;
    case CASTLE_PHASE_RECRUIT:
        /* A9: any rank of the seat's removed pile, or none. */
        for (int r = 1; r <= CASTLE_RANK_MAX; r++)
            if (s->removed[s->to_move][r]) mark(out, packed, g->recruit_base + r - 1);
        mark(out, packed, g->no_recruit_action);
        break;
    }
}

void castle_legal_mask(const CastleState *s, const CastleSettings *cfg, uint8_t *mask) { legal_write(s, cfg, mask, 0); }

void castle_legal_bits(const CastleState *s, const CastleSettings *cfg, uint8_t *bits) { legal_write(s, cfg, bits, 1); }

int castle_legal_list(const CastleState *s, const CastleSettings *cfg, int16_t *out) {
    const CastleGeometry *g = castle_geometry(s->mode);
    uint8_t bits[CASTLE_ACTIONS_MAX / 8];
    int n = 0, words = (g->actions + 63) / 64;
    /* Whole 64-bit words: the bytes past the mask's own are zero. */
    memset(bits + (g->actions + 7) / 8, 0, (size_t)words * 8 - (size_t)(g->actions + 7) / 8);
    legal_write(s, cfg, bits, 1);
    for (int w = 0; w < words; w++) {
        uint64_t word;
        memcpy(&word, bits + 8 * w, 8);
        for (; word; word &= word - 1) out[n++] = (int16_t)(64 * w + __builtin_ctzll(word));
    }
    return n;
}

static const char *const RANK_NAMES[CASTLE_RANK_MAX + 1] = {"?",       "Cannon",     "Spy",   "Scout", "Sergeant",
                                                             "Lieutenant", "Captain", "Major", "General", "Marshal"};

/* Why a MOVE, DROP or SHOT that the walk refused is illegal, in words. */
static void move_reason(const CastleState *s, const CastleSettings *cfg, const CastleGeometry *g, const CastleAction *a,
                        char *err, size_t err_len, const char *name) {
    int seat = s->to_move, slot = s->board[a->from];
    char from[8], to[8];
    castle_node_name(g, a->from, from);
    castle_node_name(g, a->to, to);
    if (slot == CASTLE_NONE || castle_seat_of(slot) != seat) {
        snprintf(err, err_len, "%s: no piece of %c on %s", name, castle_seat_letter(s->mode, seat), from);
        return;
    }
    int rank = castle_rank(slot), occ = s->board[a->to];
    const char *what = RANK_NAMES[rank];
    int adjacent = 0;
    for (int j = 0; j < g->degree[a->from]; j++) adjacent |= g->neighbour[a->from][j] == a->to;
    if (a->kind == CASTLE_ACT_SHOT) {
        if (rank != CASTLE_CANNON) snprintf(err, err_len, "%s: only a cannon fires; %s holds a %s", name, from, what);
        else if (occ == CASTLE_NONE || !castle_rivals(s, seat, castle_seat_of(occ)))
            snprintf(err, err_len, "%s: a cannon fires only at a rival's piece (1.10)", name);
        else if (a->over_lake && !cfg->cannon_over_lakes)
            snprintf(err, err_len, "%s: shots may not pass over lakes in these settings (A7)", name);
        else snprintf(err, err_len, "%s: the two spaces the cannon fires over must be empty (1.10)", name);
        return;
    }
    if (a->kind == CASTLE_ACT_DROP) {
        if (!cfg->abandon) snprintf(err, err_len, "%s: leaving a flag behind is off in these settings (A8)", name);
        else if (s->carry[slot] == CASTLE_NONE) snprintf(err, err_len, "%s: the %s on %s carries no flag", name, what, from);
        else if (occ != CASTLE_NONE) snprintf(err, err_len, "%s: a carrier leaves its flag only moving to an empty node", name);
        else snprintf(err, err_len, "%s: the %s would move a 6th time in a row between %s and %s (A10)", name, what, from, to);
        return;
    }
    if (occ != CASTLE_NONE && !castle_rivals(s, seat, castle_seat_of(occ))) {
        snprintf(err, err_len, "%s: %s holds a piece of %s own side (A6: teammates are never targets)", name, to,
                 castle_seat_of(occ) == seat ? "your" : "your partner's,");
        return;
    }
    if (repeats_too_often(s, cfg, seat, slot, a->from, a->to)) {
        snprintf(err, err_len, "%s: the %s would move a 6th time in a row between %s and %s (A10, limit %d)", name, what,
                 from, to, (int)cfg->back_and_forth);
        return;
    }
    if (rank == CASTLE_CANNON && occ != CASTLE_NONE) {
        snprintf(err, err_len, "%s: a cannon never attacks by moving (A6)", name);
        return;
    }
    if (!adjacent && s->carry[slot] != CASTLE_NONE) {
        snprintf(err, err_len, "%s: the %s on %s carries a flag and moves one space (A5)", name, what, from);
        return;
    }
    if (!adjacent && rank == CASTLE_SCOUT) {
        snprintf(err, err_len, "%s: a Scout's line must be straight over empty spaces%s (1.8, A5)", name,
                 cfg->scout_line_attack ? "" : ", and these settings forbid attacking at its end");
        return;
    }
    if (!adjacent && rank == CASTLE_CAPTAIN) {
        snprintf(err, err_len, "%s: the Captain's first step must be onto an empty node (1.7)", name);
        return;
    }
    if (!adjacent) {
        snprintf(err, err_len, "%s: the %s on %s moves one space (1.5)", name, what, from);
        return;
    }
    snprintf(err, err_len, "%s: not a legal move for the %s on %s", name, what, from);
}

int castle_check(const CastleState *s, const CastleSettings *cfg, int action, char *err, size_t err_len) {
    const CastleGeometry *g = castle_geometry(s->mode);
    if (action < 0 || action >= g->actions) {
        snprintf(err, err_len, "action must be in [0, %d), got %d", g->actions, action);
        return -1;
    }
    if (s->done) {
        snprintf(err, err_len, "the game is over");
        return -1;
    }
    uint8_t mask[CASTLE_ACTIONS_MAX];
    castle_legal_mask(s, cfg, mask);
    if (mask[action]) return 0;
    char name[24];
    castle_action_name(s, action, name);
    const CastleAction *a = &g->action[action];
    int kind = a->kind;
    static const int PHASE_OF[CASTLE_ACT_NB] = {CASTLE_PHASE_MOVE,    CASTLE_PHASE_MOVE,    CASTLE_PHASE_MOVE,
                                                CASTLE_PHASE_TAKE,    CASTLE_PHASE_TAKE,    CASTLE_PHASE_RECRUIT,
                                                CASTLE_PHASE_RECRUIT};
    if (PHASE_OF[kind] != s->phase) {
        snprintf(err, err_len, "%s: %c must now decide %s", name, castle_seat_letter(s->mode, s->to_move),
                 s->phase == CASTLE_PHASE_MOVE   ? "a move"
                 : s->phase == CASTLE_PHASE_TAKE ? "take <seat> or leave"
                                                 : "recruit <rank> or recruit none");
        return -1;
    }
    if (kind == CASTLE_ACT_TAKE) snprintf(err, err_len, "%s: no lone flag of that seat lies here", name);
    else if (kind == CASTLE_ACT_RECRUIT) snprintf(err, err_len, "%s: no piece of that rank in the removed pile", name);
    else move_reason(s, cfg, g, a, err, err_len, name);
    return -1;
}
