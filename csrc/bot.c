#include "bot.h"

#include <stddef.h>
#include <string.h>

#include "action.h"
#include "combat.h"
#include "rng.h"
#include "squareset.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

static const char *const BOT_NAMES[BOT_KIND_NB] = {"random", "heuristic"};

const char *bot_name(int kind) { return kind >= 0 && kind < BOT_KIND_NB ? BOT_NAMES[kind] : NULL; }

int bot_kind_from_name(const char *name) {
    for (int k = 0; k < BOT_KIND_NB; k++) {
        if (strcmp(name, BOT_NAMES[k]) == 0) return k;
    }
    return -1;
}

/* ---------------------------------------------------------------- the heuristic bot
 *
 * One ply of look-ahead on expected material, no search: every legal action gets a
 * score and the best is played.
 *  - An attack scores its expected gain: the values of the pieces each outcome removes
 *    (combat_resolve, so every variant's combat rule counts), over the defender's type
 *    when known, else over the types an unidentified piece can still be (the view's
 *    counts; a piece that moved is no Bomb or Flag). Taking the Flag is worth far more
 *    than any piece, so once few unmoved pieces are left any attacker goes for them,
 *    and cheap pieces (Miners, Scouts) probe unmoved ones early: losing them costs
 *    little, and a Miner beats a Bomb.
 *  - A move to an empty square scores the danger it escapes minus the danger it walks
 *    into (opponent pieces next to the square that would beat the mover, known or by
 *    the same expected counts), plus a step towards the nearest opponent piece it may
 *    want to fight (distance maps over the board, lakes excluded).
 *  - The Flag is guarded: an opponent piece that could take the player's Flag next
 *    move (next to it, or on an open line to it and possibly a Scout) is worth a lot to
 *    take, squares that block such a line are worth moving to, and pieces next to the
 *    Flag are loath to leave it. Against a random player this is what keeps the win
 *    rate high: a random Scout that finds an open line to the Flag would end the game.
 *  - The opponent's piece that has just moved is answered first (taken if the attack is
 *    expected to win).
 *  - Rescues (variants with the rescue rule) bring back the most valuable piece.
 * A small random term from the stream breaks ties and varies otherwise equal plays, so
 * two heuristic bots do not repeat one game.
 */

/* What removing a piece of each type is worth (rough material values, in Scouts). */
static const float VALUE[PIECE_TYPE_NB] = {
    [BOMB] = 0.6f,     [SPY] = 2.5f,     [SCOUT] = 1.0f,   [MINER] = 2.0f,
    [SERGEANT] = 1.5f, [LIEUTENANT] = 2.0f, [CAPTAIN] = 2.6f, [MAJOR] = 3.4f,
    [COLONEL] = 4.6f,  [GENERAL] = 6.5f,  [MARSHAL] = 8.5f, [FLAG] = 40.0f,
};

/* Weights of the terms, tuned against the random bot in classic on seeds 100-199
 * (benchmarks/bots.py; the figures quoted in docs/agents.md come from other seeds). */
static const float DANGER_WEIGHT = 0.5f;    /* how likely a neighbour attacks (of 1) */
static const float APPROACH_WEIGHT = 0.12f; /* per square closer to a target */
static const float PROBE_BONUS = 0.25f;     /* what identifying a piece is worth */
static const float FLAG_DEFENCE = 12.0f;    /* taking a piece that could take the Flag */
static const float FLAG_NEAR = 3.0f;        /* taking a piece two steps from the Flag */
static const float FLAG_ZONE = 1.5f;        /* taking a piece three steps from the Flag */
static const float INTERCEPT = 8.0f;        /* stepping next to a piece that could take the Flag */
static const float INTERCEPT_NEAR = 2.0f;   /* stepping next to one two steps from the Flag */
static const float BLOCK_BONUS = 4.0f;      /* standing between the Flag and a Scout */
static const float BLOCK_APPROACH = 3.0f;   /* stepping next to such a square */
static const float GUARD_LEAVE = 0.5f;      /* leaving the Flag's side */
static const float GUARD_FILL = 0.5f;       /* closing an open side of the Flag */
static const float ANSWER_BONUS = 1.0f;     /* taking the piece that has just moved */
static const float NOISE = 0.05f;           /* tie breaking, at most */
/* The look-ahead's price of the chance that the opponent's reply takes the Flag, with
 * the opponent choosing uniformly among its moves (exact against the random bot). */
static const float FLAG_LOSS = 1500.0f;

enum { DIST_FAR = 30 };

typedef struct {
    const PlayerView *v;
    const Rules *r;
    /* The chance that an unidentified opponent piece is of each type, if it moved and
     * if it did not. */
    float p_moved[PIECE_TYPE_NB], p_unmoved[PIECE_TYPE_NB];
    /* Per own type, computed when first needed (bit set in `have`): the expected gain
     * of attacking an unidentified piece, the chance that attack removes it, and the
     * chance that an unidentified piece attacking ours removes ours. */
    uint32_t have;
    float gain_moved[PIECE_TYPE_NB], gain_unmoved[PIECE_TYPE_NB];
    float kill_moved[PIECE_TYPE_NB], kill_unmoved[PIECE_TYPE_NB];
    float loss_moved[PIECE_TYPE_NB], loss_unmoved[PIECE_TYPE_NB];
    /* Steps to the nearest opponent piece: any (for probers), and pieces that moved or
     * are known to move (for fighters; the first map when there are none). */
    uint8_t dist_any[SQ_NB], dist_movers[SQ_NB];
    Bits threats;   /* opponent pieces that could take the Flag next move */
    Bits near_flag; /* opponent pieces two steps from the Flag */
    Bits far_flag;  /* opponent pieces three steps from the Flag */
    Bits blocks;    /* empty squares on an open line from the Flag to a possible Scout */
    Bits guard;     /* squares next to the Flag */
    Bits block_near; /* squares next to a blocking square */
    Bits opp_near;  /* squares next to an opponent piece: the only ones in danger */
    int danger_from;      /* the square whose danger is cached, or -1 */
    float danger_from_value;
    int answer;     /* square of the opponent piece that has just moved, or -1 */
    /* The look-ahead on the Flag: own Flags, the squares on their four lines up to the
     * edge or a lake (only a move touching them changes the Flag's exposure), the
     * exposure before our move, and the opponent's estimated number of moves. */
    int nflags;
    int flag_sq[4];
    Bits rays;
    float exposure;  /* these two are 0 until a move first needs them */
    float opp_moves;
} Eval;

static inline int is_opp(uint8_t cell) { return (cell & (VIEW_OPP_KNOWN | VIEW_OPP_UNKNOWN)) != 0; }
static inline int is_own(uint8_t cell) { return (cell & VIEW_OWN) != 0; }
static inline int cell_type(uint8_t cell) { return cell & VIEW_TYPE_MASK; }

/* What attacker `a` of ours gains by attacking a defender of type `d`. */
static inline float attack_gain(int a, int d, const Rules *r) {
    switch (combat_resolve(a, d, r)) {
    case COMBAT_ATTACKER_WINS:
        return VALUE[d];
    case COMBAT_DEFENDER_WINS:
        return -VALUE[a];
    default:
        return VALUE[d] - VALUE[a];
    }
}

/* The type distributions of unidentified opponent pieces. Bombs and the Flag never
 * move, so they are among the unmoved ones; the movable types unidentified are spread
 * over the moved and the unmoved pieces alike. Under silent defense the counts include
 * captured pieces never identified: the chances are then approximate. */
static void eval_beliefs(Eval *e) {
    const PlayerView *v = e->v;
    float movable = 0.0f;
    for (int t = SPY; t <= MARSHAL; t++) movable += v->opp_unknown[t];
    float unmoved = v->opp_unknown_unmoved;
    float p_bomb = unmoved > 0 ? v->opp_unknown[BOMB] / unmoved : 0.0f;
    float p_flag = unmoved > 0 ? v->opp_unknown[FLAG] / unmoved : 0.0f;
    if (p_bomb + p_flag > 1.0f) {
        float scale = 1.0f / (p_bomb + p_flag);
        p_bomb *= scale;
        p_flag *= scale;
    }
    float rest = 1.0f - p_bomb - p_flag;
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        float share = movable > 0 && piece_type_is_movable(t) ? v->opp_unknown[t] / movable : 0.0f;
        e->p_moved[t] = share;
        e->p_unmoved[t] = rest * share;
    }
    e->p_unmoved[BOMB] = p_bomb;
    e->p_unmoved[FLAG] = p_flag;
}

/* Fills the lazily computed expectations of own type a. */
static void eval_type(Eval *e, int a) {
    if (e->have & (1u << a)) return;
    e->have |= 1u << a;
    float gm = 0, gu = 0, km = 0, ku = 0, lm = 0, lu = 0;
    for (int d = 0; d < PIECE_TYPE_NB; d++) {
        float pm = e->p_moved[d], pu = e->p_unmoved[d];
        if (pm == 0.0f && pu == 0.0f) continue;
        float g = attack_gain(a, d, e->r);
        int kill = combat_resolve(a, d, e->r) != COMBAT_DEFENDER_WINS;
        gm += pm * g;
        gu += pu * g;
        km += kill ? pm : 0.0f;
        ku += kill ? pu : 0.0f;
        /* Their piece of type d attacking ours (only movable types attack). */
        if (piece_type_is_movable(d) && combat_resolve(d, a, e->r) != COMBAT_DEFENDER_WINS) {
            lm += pm;
            lu += pu;
        }
    }
    e->gain_moved[a] = gm;
    e->gain_unmoved[a] = gu;
    e->kill_moved[a] = km;
    e->kill_unmoved[a] = ku;
    e->loss_moved[a] = lm;
    e->loss_unmoved[a] = lu;
}

/* Column c of the board as a set. */
#define COLUMN_BITS(c)                                                                          \
    ((Bits)1 << (c) | (Bits)1 << (10 + (c)) | (Bits)1 << (20 + (c)) | (Bits)1 << (30 + (c)) |     \
     (Bits)1 << (40 + (c)) | (Bits)1 << (50 + (c)) | (Bits)1 << (60 + (c)) | (Bits)1 << (70 + (c)) | \
     (Bits)1 << (80 + (c)) | (Bits)1 << (90 + (c)))

/* Row r of the board as a set. */
#define ROW_BITS(r) ((Bits)0x3FF << (BOARD_SIZE * (r)))

/* The squares one step from the squares of b, on the board (lakes are the caller's);
 * b itself only where two of its squares are neighbours. */
static inline Bits bits_dilate(Bits b) {
    const Bits left_edge = COLUMN_BITS(0), right_edge = COLUMN_BITS(BOARD_SIZE - 1);
    return (((b & ~right_edge) << 1) | ((b & ~left_edge) >> 1) | (b << BOARD_SIZE) | (b >> BOARD_SIZE)) &
           bits_board();
}

/* The squares whose byte (one of 100, cell[] or flags[] of a view) masked by `mask`
 * equals `value`. 16 squares at a time where SSE2 is (the last load reads past the 100
 * bytes into the view's next field, and those bits are dropped). */
static inline Bits cells_masked(const uint8_t *bytes, uint8_t mask, uint8_t value) {
    Bits out = 0;
#ifdef __SSE2__
    const __m128i m = _mm_set1_epi8((char)mask), want = _mm_set1_epi8((char)value);
    for (int k = 0; k < 7; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(bytes + 16 * k));
        unsigned hits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(x, m), want));
        out |= (Bits)hits << (16 * k);
    }
#else
    for (int sq = 0; sq < SQ_NB; sq++) {
        if ((bytes[sq] & mask) == value) out |= bit_of(sq);
    }
#endif
    return out & bits_board();
}

static inline Bits cells_equal(const uint8_t *bytes, uint8_t value) { return cells_masked(bytes, 0xFF, value); }

_Static_assert(offsetof(PlayerView, flags) + 7 * 16 <= sizeof(PlayerView), "cells_masked reads 112 bytes of flags");

/* dist[sq] for the squares of `wanted`: steps from sq to the nearest square of `from`
 * over squares that are not lakes (pieces do not block: they move), DIST_FAR beyond
 * the reach; other squares may hold anything. The search stops once every wanted
 * square is reached. */
static void eval_distances(Bits from, Bits open, Bits wanted, uint8_t *dist) {
    memset(dist, DIST_FAR, SQ_NB);
    Bits reached = from, frontier = from;
    for (int d = 0; frontier && d < DIST_FAR; d++) {
        Bits fill = frontier & wanted;
        /* The two halves apart: a 64-bit count of trailing zeros per square. */
        for (uint64_t lo = (uint64_t)fill; lo; lo &= lo - 1) dist[__builtin_ctzll(lo)] = (uint8_t)d;
        for (uint64_t hi = (uint64_t)(fill >> 64); hi; hi &= hi - 1) dist[64 + __builtin_ctzll(hi)] = (uint8_t)d;
        if (!(wanted & ~reached)) break;
        frontier = bits_dilate(frontier) & open & ~reached;
        reached |= frontier;
    }
}

/* 1 if an opponent piece on this cell may be a Scout (a line attack from afar). */
static inline int may_be_scout(uint8_t cell) {
    return (cell & VIEW_OPP_UNKNOWN) || cell == (VIEW_OPP_KNOWN | SCOUT);
}

/* 1 if an opponent piece on this cell may move at all. */
static inline int may_move(uint8_t cell) {
    return (cell & VIEW_OPP_UNKNOWN) || ((cell & VIEW_OPP_KNOWN) && piece_type_is_movable(cell_type(cell)));
}


/* The Flag's guard: threats, blocking squares and the squares next to it. */
static void eval_flag(Eval *e, int flag) {
    const PlayerView *v = e->v;
    int fr = flag / BOARD_SIZE, fc = flag % BOARD_SIZE;
    for (int d = 0; d < DIR_NB; d++) {
        Bits open_line = 0;
        for (int k = 1;; k++) {
            int row = fr + k * DIR_ROW[d], col = fc + k * DIR_COL[d];
            if (row < 0 || row >= BOARD_SIZE || col < 0 || col >= BOARD_SIZE) break;
            int sq = row * BOARD_SIZE + col;
            uint8_t cell = v->cell[sq];
            if (k == 1) e->guard |= bit_of(sq);
            if (cell == VIEW_EMPTY) {
                open_line |= bit_of(sq);
                continue;
            }
            if (is_opp(cell) && (k == 1 ? may_move(cell) : may_be_scout(cell))) {
                e->threats |= bit_of(sq);
                e->blocks |= open_line;
            }
            break;
        }
    }
}

/* The chance that the opponent piece in `cell` (on square sq) can take a Flag: from next
 * to it any piece that moves can, from farther along an open line only a Scout. */
static float flag_hit_chance(const Eval *e, uint8_t cell, int sq, int next_to) {
    if (cell & VIEW_OPP_KNOWN) {
        int t = cell_type(cell);
        return next_to ? (float)piece_type_is_movable(t) : (float)(t == SCOUT);
    }
    int moved = (e->v->flags[sq] & PIECE_MOVED) != 0;
    if (next_to) return moved ? 1.0f : 1.0f - e->p_unmoved[BOMB] - e->p_unmoved[FLAG];
    return moved ? e->p_moved[SCOUT] : e->p_unmoved[SCOUT];
}

/* The expected number of opponent moves that take one of our Flags, with square
 * `from` emptied and square `to` holding `to_cell` (from = to = -1: the view as is).
 * Each such piece has one move onto the Flag. */
static float flag_exposure(const Eval *e, int from, int to, uint8_t to_cell) {
    float sum = 0.0f;
    for (int f = 0; f < e->nflags; f++) {
        int fr = e->flag_sq[f] / BOARD_SIZE, fc = e->flag_sq[f] % BOARD_SIZE;
        for (int d = 0; d < DIR_NB; d++) {
            for (int k = 1;; k++) {
                int row = fr + k * DIR_ROW[d], col = fc + k * DIR_COL[d];
                if (row < 0 || row >= BOARD_SIZE || col < 0 || col >= BOARD_SIZE) break;
                int sq = row * BOARD_SIZE + col;
                uint8_t cell = sq == from ? VIEW_EMPTY : sq == to ? to_cell : e->v->cell[sq];
                if (cell == VIEW_EMPTY) continue;
                if (is_opp(cell)) sum += flag_hit_chance(e, cell, sq, k == 1);
                break;
            }
        }
    }
    return sum;
}

/* The squares on the four lines from sq up to the edge or a lake. */
static Bits flag_rays(const PlayerView *v, int sq) {
    Bits out = 0;
    int fr = sq / BOARD_SIZE, fc = sq % BOARD_SIZE;
    for (int d = 0; d < DIR_NB; d++) {
        for (int k = 1;; k++) {
            int row = fr + k * DIR_ROW[d], col = fc + k * DIR_COL[d];
            if (row < 0 || row >= BOARD_SIZE || col < 0 || col >= BOARD_SIZE) break;
            int s = row * BOARD_SIZE + col;
            if (v->cell[s] == VIEW_LAKE) break;
            out |= bit_of(s);
        }
    }
    return out;
}

/* The Flag's exposure before our move and the opponent's moves, estimated as one per
 * open neighbour of a piece that may move, weighted by that chance (a Scout's longer
 * moves are left out). Computed only when a move touches a line of the Flag. */
static void flag_lookahead_init(Eval *e) {
    const PlayerView *v = e->v;
    e->exposure = flag_exposure(e, -1, -1, 0);
    Bits lakes = cells_equal(v->cell, VIEW_LAKE);
    Bits opp = ~cells_masked(v->cell, VIEW_OPP_KNOWN | VIEW_OPP_UNKNOWN, 0) & bits_board() & ~lakes;
    Bits free = bits_board() & ~lakes & ~opp;
    float moves = 0.0f, p_unmoved = 1.0f - e->p_unmoved[BOMB] - e->p_unmoved[FLAG];
    for (Bits o = opp; o; o &= o - 1) {
        int sq = bits_lowest(o);
        uint8_t cell = v->cell[sq];
        if (!may_move(cell)) continue;
        Bits to = bits_dilate(bit_of(sq)) & free;
        int n = 0;
        for (; to; to &= to - 1) n++;
        float p = (cell & VIEW_OPP_KNOWN) || (v->flags[sq] & PIECE_MOVED) ? 1.0f : p_unmoved;
        moves += p * (float)n;
    }
    e->opp_moves = moves < 1.0f ? 1.0f : moves;
}

static void eval_init(Eval *e, const PlayerView *v, const Rules *r) {
    e->v = v;
    e->r = r;
    e->have = 0;
    e->threats = e->near_flag = e->far_flag = e->blocks = e->guard = 0;
    e->danger_from = -1;
    eval_beliefs(e);
    Bits lakes = cells_equal(v->cell, VIEW_LAKE), open = bits_board() & ~lakes;
    Bits opp = open & ~cells_masked(v->cell, VIEW_OPP_KNOWN | VIEW_OPP_UNKNOWN, 0);
    Bits known = cells_masked(v->cell, VIEW_OPP_KNOWN, VIEW_OPP_KNOWN);
    Bits fixed = cells_equal(v->cell, VIEW_OPP_KNOWN | BOMB) | cells_equal(v->cell, VIEW_OPP_KNOWN | FLAG);
    Bits moved = cells_masked(v->flags, PIECE_MOVED, PIECE_MOVED);
    Bits movers = opp & (moved | (known & ~fixed));
    Bits flags = cells_equal(v->cell, VIEW_OWN | FLAG);
    e->nflags = 0;
    e->rays = 0;
    for (Bits f = flags; f; f &= f - 1) {
        int sq = bits_lowest(f);
        eval_flag(e, sq);
        if (e->nflags < 4) {
            e->flag_sq[e->nflags++] = sq;
            e->rays |= flag_rays(v, sq);
        }
    }
    e->opp_moves = 0.0f; /* computed with the exposure when a move first needs them */
    /* Opponent pieces two steps from the Flag (a random walker's next step in). */
    Bits ring2 = bits_dilate(e->guard) & open;
    e->near_flag = ring2 & opp & ~e->threats;
    e->far_flag = bits_dilate(ring2) & open & opp & ~e->near_flag & ~e->threats;
    e->block_near = bits_dilate(e->blocks);
    e->opp_near = bits_dilate(opp);
    /* The squares a move of ours can start from or reach: own pieces, two steps around
     * them (Captains may move two), and the lines of own Scouts. */
    Bits own = cells_masked(v->cell, VIEW_OWN, VIEW_OWN), near = own | bits_dilate(own);
    Bits wanted = near | bits_dilate(near);
    for (Bits sc = cells_equal(v->cell, VIEW_OWN | SCOUT); sc; sc &= sc - 1) {
        int sq = bits_lowest(sc);
        wanted |= ROW_BITS(sq / BOARD_SIZE) | COLUMN_BITS(sq % BOARD_SIZE);
    }
    wanted &= open;
    eval_distances(opp, open, wanted, e->dist_any);
    if (movers) {
        eval_distances(movers, open, wanted, e->dist_movers);
    } else {
        memcpy(e->dist_movers, e->dist_any, SQ_NB);
    }
    /* The latest ply is the opponent's unless a rescue phase follows our own move. */
    const ViewMove *m = &v->last[0];
    e->answer = m->valid && is_opp(v->cell[m->to]) ? m->to : -1;
}

/* The danger to our piece of type a standing on sq: the chance-weighted loss from the
 * most dangerous opponent neighbour. */
static float eval_danger(Eval *e, int sq, int a) {
    const PlayerView *v = e->v;
    if (!(e->opp_near & bit_of(sq))) return 0.0f;
    int row = sq / BOARD_SIZE, col = sq % BOARD_SIZE;
    float worst = 0.0f;
    for (int d = 0; d < DIR_NB; d++) {
        int nr = row + DIR_ROW[d], nc = col + DIR_COL[d];
        if (nr < 0 || nr >= BOARD_SIZE || nc < 0 || nc >= BOARD_SIZE) continue;
        int n = nr * BOARD_SIZE + nc;
        uint8_t cell = v->cell[n];
        float p;
        if (cell & VIEW_OPP_KNOWN) {
            int t = cell_type(cell);
            p = piece_type_is_movable(t) && combat_resolve(t, a, e->r) != COMBAT_DEFENDER_WINS ? 1.0f : 0.0f;
        } else if (cell & VIEW_OPP_UNKNOWN) {
            eval_type(e, a);
            p = (v->flags[n] & PIECE_MOVED) ? e->loss_moved[a] : e->loss_unmoved[a];
        } else {
            continue;
        }
        if (p > worst) worst = p;
    }
    return worst * VALUE[a];
}

/* The chance that our piece of type a attacking the opponent piece on sq removes it. */
static float eval_kill(Eval *e, int a, int sq) {
    uint8_t cell = e->v->cell[sq];
    if (cell & VIEW_OPP_KNOWN) return combat_resolve(a, cell_type(cell), e->r) != COMBAT_DEFENDER_WINS;
    eval_type(e, a);
    return (e->v->flags[sq] & PIECE_MOVED) ? e->kill_moved[a] : e->kill_unmoved[a];
}

/* What stepping onto empty square sq is worth against the pieces that threaten the
 * Flag: a piece next to such a piece can take it next move. */
static float eval_intercept(Eval *e, int sq, int a) {
    Bits around = bits_dilate(bit_of(sq));
    Bits hit = around & e->threats, near = around & e->near_flag;
    float score = 0.0f;
    for (; hit; hit &= hit - 1) score += INTERCEPT * eval_kill(e, a, bits_lowest(hit));
    for (; near; near &= near - 1) score += INTERCEPT_NEAR * eval_kill(e, a, bits_lowest(near));
    return score;
}

/* The score of moving our piece from `from` to `to`. */
static float eval_move(Eval *e, int from, int to) {
    const PlayerView *v = e->v;
    int a = cell_type(v->cell[from]);
    uint8_t target = v->cell[to];
    Bits to_bit = bit_of(to);
    float score;
    if (is_opp(target)) {
        float kill;
        if (target & VIEW_OPP_KNOWN) {
            int d = cell_type(target);
            score = attack_gain(a, d, e->r);
            kill = combat_resolve(a, d, e->r) != COMBAT_DEFENDER_WINS;
        } else {
            eval_type(e, a);
            int moved = (v->flags[to] & PIECE_MOVED) != 0;
            score = (moved ? e->gain_moved[a] : e->gain_unmoved[a]) + PROBE_BONUS;
            kill = moved ? e->kill_moved[a] : e->kill_unmoved[a];
        }
        if (e->threats & to_bit) score += FLAG_DEFENCE * kill;
        if (e->near_flag & to_bit) score += FLAG_NEAR * kill;
        if (e->far_flag & to_bit) score += FLAG_ZONE * kill;
        if (to == e->answer) score += ANSWER_BONUS * kill;
    } else {
        /* Actions come sorted by their from square: its danger is computed once. */
        if (e->danger_from != from) {
            e->danger_from = from;
            e->danger_from_value = eval_danger(e, from, a);
        }
        score = DANGER_WEIGHT * (e->danger_from_value - eval_danger(e, to, a));
        /* Miners and Scouts look for unmoved pieces to probe; the others for movers. */
        const uint8_t *dist = a == MINER || a == SCOUT ? e->dist_any : e->dist_movers;
        int closer = (int)dist[from] - (int)dist[to];
        if (closer > 3) closer = 3;
        score += APPROACH_WEIGHT * (float)closer;
        if (e->blocks & to_bit) score += BLOCK_BONUS;
        if (e->threats | e->near_flag) score += eval_intercept(e, to, a);
        if (e->block_near & to_bit) score += BLOCK_APPROACH;
        if (e->guard & to_bit) score += GUARD_FILL;
    }
    if (e->guard & bit_of(from)) score -= GUARD_LEAVE;
    if ((bit_of(from) | to_bit) & e->rays) {
        if (e->opp_moves == 0.0f) flag_lookahead_init(e);
        /* After an attack the square holds ours if it wins, else still theirs. */
        float after;
        if (is_opp(target)) {
            float kill = eval_kill(e, a, to);
            after = kill * flag_exposure(e, from, to, v->cell[from]) + (1.0f - kill) * flag_exposure(e, from, to, target);
        } else {
            after = flag_exposure(e, from, to, v->cell[from]);
        }
        score -= FLAG_LOSS * (after - e->exposure) / e->opp_moves;
    }
    return score;
}

/* The score of returning a captured piece of `type` to frame square sq. */
static float eval_rescue(Eval *e, int type, int sq) {
    return VALUE[type] - DANGER_WEIGHT * eval_danger(e, sq, type);
}

static int heuristic_choose(const PlayerView *v, const Rules *r, const uint16_t *legal, int n, uint64_t *rng) {
    Eval e;
    eval_init(&e, v, r);
    /* One draw from the stream seeds a cheap generator for the tie-breaking noise. */
    uint64_t noise = rng_next(rng);
    int best = legal[0];
    float best_score = -1e30f;
    for (int i = 0; i < n; i++) {
        int action = legal[i], a, b;
        float score;
        /* The view is in the player's frame, where red's decoding is the identity. */
        switch (action_decode(RED, action, &a, &b)) {
        case ACTION_MOVE:
            score = eval_move(&e, a, b);
            break;
        case ACTION_RESCUE:
            score = eval_rescue(&e, a, b);
            break;
        default:
            score = 0.0f;
            break;
        }
        noise = noise * 6364136223846793005ull + 1442695040888963407ull;
        score += NOISE * (float)(noise >> 40) * (1.0f / 16777216.0f);
        if (score > best_score) {
            best_score = score;
            best = action;
        }
    }
    return best;
}

int bot_choose(int kind, const PlayerView *v, const Rules *r, const uint16_t *legal, int n, uint64_t *rng) {
    if (n <= 0) return -1;
    if (kind == BOT_HEURISTIC) return heuristic_choose(v, r, legal, n, rng);
    return legal[rng_below(rng, (uint32_t)n)];
}
