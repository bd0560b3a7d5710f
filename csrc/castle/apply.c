/* apply.c: playing a decision: moves, fights, shots, flags, sliders and recruitment, the
 * turn passing clockwise, and every end of a game (decided here once: done, winner,
 * end_reason). */
#include <string.h>

#include "castle.h"

static inline uint8_t all_seats(const CastleState *s) { return (uint8_t)((1u << s->seats) - 1); }

/* Takes `slot` off the board: its rank goes to the public removed pile (1.6 "removed
 * pieces may be inspected"); a flag it carried lies alone where it stood (A8). */
static void remove_piece(CastleState *s, int slot) {
    int node = s->node[slot], seat = castle_seat_of(slot);
    int flag = s->carry[slot];
    if (flag != CASTLE_NONE) {
        s->flag_carrier[flag] = CASTLE_NONE;
        s->flag_node[flag] = (uint8_t)node;
        s->flag_abandoned[flag] = 0;
        s->carry[slot] = CASTLE_NONE;
    }
    s->board[node] = CASTLE_NONE;
    s->node[slot] = CASTLE_NONE;
    s->known[slot] = all_seats(s);
    s->removed[seat][castle_rank(slot)]++;
    /* A10: a removed piece's count is gone. */
    if (s->rep_slot[seat] == slot) {
        s->rep_slot[seat] = CASTLE_NONE;
        s->rep_count[seat] = 0;
    }
}

static void move_piece(CastleState *s, int slot, int to) {
    s->board[s->node[slot]] = CASTLE_NONE;
    s->board[to] = (uint8_t)slot;
    s->node[slot] = (uint8_t)to;
    if (s->carry[slot] != CASTLE_NONE) s->flag_node[s->carry[slot]] = (uint8_t)to;
}

/* A recruitment chance for `seat` (A9): the flag case overrides a slider's; a second of
 * the same kind changes nothing (one recruitment a turn). */
static void earn_chance(CastleState *s, int seat, int flag_case, uint8_t *flag_chance) {
    if (flag_case) {
        if (!*flag_chance) s->chance_seat = (uint8_t)seat;
        *flag_chance = 1;
    } else if (s->chance_seat == CASTLE_NONE) {
        s->chance_seat = (uint8_t)seat;
    }
}

/* 1.12, A9: the winner's slider goes up one; at 6 it returns to 0 with a chance. */
static void slider_step(CastleState *s, int seat, uint8_t *flag_chance) {
    if (++s->slider[seat] >= 6) {
        s->slider[seat] = 0;
        earn_chance(s, seat, 0, flag_chance);
    }
}

/* A9 case 2: taking a rival's flag gives the capturer (or, by setting, the flag's owner)
 * a chance. Own and partner flags give none. */
static void flag_taken(CastleState *s, const CastleSettings *cfg, int taker, int flag, uint8_t *flag_chance) {
    if (!castle_rivals(s, taker, flag)) return;
    earn_chance(s, cfg->flag_recruit_owner ? flag : taker, 1, flag_chance);
}

static void give_flag(CastleState *s, int slot, int flag) {
    s->carry[slot] = (uint8_t)flag;
    s->flag_carrier[flag] = (uint8_t)slot;
    s->flag_node[flag] = s->node[slot];
    s->flag_abandoned[flag] = 0;
}

static int lone_flag_at(const CastleState *s, int node) {
    for (int q = 0; q < s->seats; q++)
        if (s->flag_carrier[q] == CASTLE_NONE && s->flag_node[q] == node) return 1;
    return 0;
}

static void end_game(CastleState *s, int winner, int reason) {
    s->done = 1;
    s->winner = (uint8_t)winner;
    s->end_reason = (uint8_t)reason;
}

/* A11: the turn passes clockwise from `from` to the first seat with a legal move (from
 * itself last); nobody able to move is a draw. */
static void pass_turn(CastleState *s, const CastleSettings *cfg, int from) {
    s->phase = CASTLE_PHASE_MOVE;
    s->chance_seat = CASTLE_NONE;
    s->take_node = CASTLE_NONE;
    for (int k = 1; k <= s->seats; k++) {
        int p = (from + k) % s->seats;
        if (castle_has_move(s, cfg, p)) {
            s->to_move = s->mover = (uint8_t)p;
            return;
        }
    }
    end_game(s, CASTLE_NONE, CASTLE_END_STUCK);
}

void castle_start(CastleState *s, const CastleSettings *cfg) {
    /* The first seat moves unless it cannot (A11): then the next that can. */
    pass_turn(s, cfg, (cfg->first_seat + s->seats - 1) % s->seats);
}

/* Random setups, then the start of play; here rather than beside the setups (castle.c)
 * because starting is turn passing, so castle.c stays below the rules that call it. */
void castle_reset(CastleState *s, const CastleSettings *cfg) {
    castle_clear(s, cfg);
    for (int p = 0; p < s->seats; p++) castle_setup_random(s, p);
    castle_start(s, cfg);
}

/* The end of a turn: a usable recruitment chance asks its seat (A9), else play passes. */
static void finish_turn(CastleState *s, const CastleSettings *cfg) {
    int c = s->chance_seat;
    if (c != CASTLE_NONE) {
        const CastleGeometry *g = castle_geometry(s->mode);
        int pile = 0;
        for (int r = 1; r <= CASTLE_RANK_MAX; r++) pile += s->removed[c][r];
        /* 1.12: an occupied recruitment space, or nothing to recruit, loses the chance. */
        if (pile && s->board[g->recruit_node[c]] == CASTLE_NONE) {
            s->phase = CASTLE_PHASE_RECRUIT;
            s->to_move = (uint8_t)c;
            return;
        }
    }
    pass_turn(s, cfg, s->mover);
}

/* A10: the count of the seat's moves in a row of one piece between the same two nodes. */
static void count_repeat(CastleState *s, int seat, int slot, int f, int t) {
    if (s->rep_slot[seat] == slot && ((s->rep_a[seat] == f && s->rep_b[seat] == t) ||
                                      (s->rep_a[seat] == t && s->rep_b[seat] == f))) {
        if (s->rep_count[seat] < 255) s->rep_count[seat]++;
    } else {
        s->rep_slot[seat] = (uint8_t)slot;
        s->rep_a[seat] = (uint8_t)f;
        s->rep_b[seat] = (uint8_t)t;
        s->rep_count[seat] = 1;
    }
}

/* A MOVE or DROP: moving, fighting (1.6, A6), carrying (1.11, A8) and crowning (1.13). */
static void play_move(CastleState *s, const CastleSettings *cfg, const CastleGeometry *g, const CastleAction *a,
                      uint8_t *flag_chance) {
    int seat = s->to_move, slot = s->board[a->from], f = a->from, t = a->to;
    count_repeat(s, seat, slot, f, t);
    if (a->kind == CASTLE_ACT_DROP) {
        /* A8: the flag stays on the node left, marked as abandoned on purpose. */
        int flag = s->carry[slot];
        s->carry[slot] = CASTLE_NONE;
        s->flag_carrier[flag] = CASTLE_NONE;
        s->flag_node[flag] = (uint8_t)f;
        s->flag_abandoned[flag] = 1;
    }
    int defender = s->board[t];
    int alive = 1, carried_in = s->carry[slot];
    if (defender == CASTLE_NONE) {
        move_piece(s, slot, t);
    } else {
        /* 1.6, A6: both ranks are shown to every seat; the higher wins, equal ranks both
         * go; 1.9: a Spy attacking the Marshal wins. */
        int ar = castle_rank(slot), dr = castle_rank(defender), dseat = castle_seat_of(defender);
        s->known[slot] = s->known[defender] = all_seats(s);
        int wins = ar > dr || (ar == CASTLE_SPY && dr == CASTLE_MARSHAL);
        if (wins) {
            int flag = s->carry[defender];
            remove_piece(s, defender);
            move_piece(s, slot, t);
            /* A8: the winner takes the carrier's flag at once if it carries none. */
            if (flag != CASTLE_NONE && s->carry[slot] == CASTLE_NONE) {
                give_flag(s, slot, flag);
                flag_taken(s, cfg, seat, flag, flag_chance);
            }
            slider_step(s, seat, flag_chance);
        } else if (ar == dr) {
            /* A9: a tie moves no slider. */
            remove_piece(s, defender);
            remove_piece(s, slot);
            alive = 0;
        } else {
            remove_piece(s, slot);
            slider_step(s, dseat, flag_chance);
            alive = 0;
        }
    }
    if (!alive) return;
    /* 1.13, A4: carrying its own flag onto the turret wins at once; a flag won in the
     * fight on the turret was not carried onto it (docs/castle.md). */
    if (t == g->turret && carried_in == seat) {
        end_game(s, seat, CASTLE_END_TURRET);
        return;
    }
    /* A8: a piece carrying nothing that ends where lone flags lie may take one. */
    if (s->carry[slot] == CASTLE_NONE && lone_flag_at(s, t)) {
        s->phase = CASTLE_PHASE_TAKE;
        s->take_node = (uint8_t)t;
    }
}

void castle_apply(CastleState *s, const CastleSettings *cfg, int action) {
    const CastleGeometry *g = castle_geometry(s->mode);
    const CastleAction *a = &g->action[action];
    /* Whether this turn's chance is the flag case (one recruitment a turn, A9). It lives
     * in chance_seat's company only during a turn, so it is rebuilt from the phase. */
    uint8_t flag_chance = 0;
    s->last_action_kind = a->kind;
    s->ply++;
    switch (a->kind) {
    case CASTLE_ACT_MOVE:
    case CASTLE_ACT_DROP:
        s->turn++;
        s->chance_seat = CASTLE_NONE;
        play_move(s, cfg, g, a, &flag_chance);
        if (!s->done && s->phase != CASTLE_PHASE_TAKE) finish_turn(s, cfg);
        break;
    case CASTLE_ACT_SHOT: {
        /* 1.10, A7: target and cannon both go (shown, as removed pieces are); their flags
         * lie alone; the cannon's seat moves its slider; the shot resets A10's count. */
        int seat = s->to_move, cannon = s->board[a->from], target = s->board[a->to];
        s->turn++;
        s->chance_seat = CASTLE_NONE;
        remove_piece(s, target);
        remove_piece(s, cannon);
        s->rep_slot[seat] = CASTLE_NONE;
        s->rep_count[seat] = 0;
        slider_step(s, seat, &flag_chance);
        finish_turn(s, cfg);
        break;
    }
    case CASTLE_ACT_TAKE: {
        int seat = s->to_move, slot = s->board[s->take_node], flag = a->to;
        int abandoned = s->flag_abandoned[flag];
        /* A chance already earned this turn is the slider's: a flag case replaces it. */
        give_flag(s, slot, flag);
        /* 1.12, A9: picking up a rival flag abandoned on purpose is a capture. */
        if (abandoned) flag_taken(s, cfg, seat, flag, &flag_chance);
        finish_turn(s, cfg);
        break;
    }
    case CASTLE_ACT_LEAVE: finish_turn(s, cfg); break;
    case CASTLE_ACT_RECRUIT: {
        /* A9: a removed piece of that rank returns on the recruitment space; it is shown
         * to all (recruit_public) or known to its owner only. */
        int seat = s->to_move, rank = a->to;
        int slot = seat * CASTLE_PIECES;
        while (castle_rank(slot) != rank || s->node[slot] != CASTLE_NONE) slot++;
        int node = g->recruit_node[seat];
        s->board[node] = (uint8_t)slot;
        s->node[slot] = (uint8_t)node;
        s->removed[seat][rank]--;
        s->known[slot] = cfg->recruit_public ? all_seats(s) : (uint8_t)(1u << seat);
        pass_turn(s, cfg, s->mover);
        break;
    }
    case CASTLE_ACT_NO_RECRUIT: pass_turn(s, cfg, s->mover); break;
    }
    if (!s->done && cfg->max_plies && s->ply >= (uint32_t)cfg->max_plies) end_game(s, CASTLE_NONE, CASTLE_END_CAP);
}
