/* bot_heuristic.c: the heuristic bot (bot.h), behind the same information wall as every
 * bot: it includes view.h and action.h, never board.h or moves.h. */
#include "bot.h"

#include <stddef.h>
#include <string.h>

#include "stratego/action.h"
#include "bot_heuristic.h"
#include "engine/rng.h"
#include "stratego/square_geometry.h"
#include "stratego/squareset.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* ---------------------------------------------------------------- the heuristic bot
 *
 * One ply of look-ahead on expected material, no search, and no loop over every legal
 * action: the view is turned into square sets (squareset.h) once, and only the moves
 * that matter are scored one by one; the many quiet moves that do not are drawn at
 * random among those that bring a piece closer to its targets.
 *  - Attacks (every own piece next to an opponent piece) score their expected gain: the
 *    values of the pieces each outcome removes (combat_resolve, so every variant's
 *    combat rule counts), over the defender's type when known, else over the types an
 *    unidentified piece can still be (the view's counts; a piece that moved is no Bomb
 *    or Flag). Taking the Flag is worth far more than any piece, so once few unmoved
 *    pieces are left any attacker goes for them, and cheap pieces (Miners, Scouts) probe
 *    unmoved ones early: losing them costs little, and a Miner beats a Bomb.
 *  - The Flag is guarded: an opponent piece that could take the player's Flag next
 *    move (next to it, or on an open line to it and possibly a Scout) is worth a lot to
 *    take, as are pieces a few steps from it; squares that block such a line, squares
 *    next to such pieces and the Flag's open neighbours are worth moving to, and
 *    pieces next to the Flag are loath to leave it. Against a random player this is
 *    what keeps the win rate high: a random piece that wanders onto the Flag ends the
 *    game. A piece next to the Flag is fought whatever the odds (while the fight can
 *    take it), and the own pieces within a few steps of it come for it (eval_rush).
 *    (Walking the nearest pieces to the Flag's open sides from afar lost more games on
 *    seeds 100-102 than it saved: it pulls them out of play.)
 *  - A move that touches one of the Flag's lines is priced by the chance that the
 *    opponent's reply takes the Flag, the opponent choosing uniformly among its moves.
 *  - Pieces next to an opponent piece that may move weigh the danger they escape
 *    against the danger they walk into.
 *  - Every other move is a quiet step: one is drawn among the steps that bring a piece
 *    closer to the nearest opponent piece it may want to fight (any for Miners and
 *    Scouts, pieces that moved for the others; breadth-first over square sets, lakes
 *    excluded), away from danger and the Flag's lines; failing those, any step.
 *  - Scouts also attack from afar, along an open line onto the first piece: a cheap
 *    probe of unmoved pieces deep in the opponent's side, where the Flag is (on seeds
 *    100-109, 92.1% won with random setups instead of 90.9%, the wins 27 plies sooner
 *    at the median: fewer plies for a random walker to reach our Flag); and a Scout
 *    flies to a square with an open line onto an unmoved piece, to attack it next
 *    (92.5% instead of 91.9% over seeds 100-119).
 *  - The opponent's piece that has just moved is answered first (taken if the attack is
 *    expected to win). Rescues (variants with the rescue rule) bring back the most
 *    valuable piece.
 *  - The searches go round the player's own Bombs and Flag as round the lakes (they never
 *    move), and within LATE_PLIES of the cap of plies without an attack every attack is
 *    worth LATE_ATTACK more: the draw at the cap wins nothing (on seeds 100-109 and
 *    110-119, 20,000 games each: random setups +0.4-0.5 points, human +0.4-0.5, draws
 *    with human setups 117 -> 14).
 * A small random term from the stream breaks ties and varies otherwise equal plays, so
 * two heuristic bots do not repeat one game.
 */

/* Weights of the terms, tuned against the random bot in classic on seeds 100-199
 * (benchmarks/bots.py; the figures quoted in docs/agents.md come from other seeds). */
/* How likely a neighbour attacks (of 1): a random one picks one of its moves, about one
 * in twenty, and fleeing costs moves. On seeds 100-109: 0.5 won 92.6%, 0.2 92.8%, 0.2
 * with the rush and the fights for the Flag below 93.0%; 0.05 ended games 20 plies
 * sooner at the median and won 92.6%. */
static const float DANGER_WEIGHT = 0.2f;
static const float APPROACH_WEIGHT = 0.12f; /* a quiet step closer to a target */
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
static const float SIGHT_BONUS = 1.0f;      /* a Scout flying to a line onto an unmoved piece */
static const float THREAT_BONUS = 10.0f;    /* fighting a piece that could take the Flag, whatever the odds */
static const float RUSH = 20.0f;            /* a step towards a piece next to the Flag, times the chance to take it */
static const float NOISE = 0.05f;           /* tie breaking, at most */
static const float LATE_ATTACK = 5.0f;       /* any attack, LATE_PLIES before the cap of plies without one */
/* The look-ahead's price of the chance that the opponent's reply takes the Flag, with
 * the opponent choosing uniformly among its moves (exact against the random bot). */
static const float FLAG_LOSS = 1500.0f;

/* How far the search for targets looks (eval_downhill), and how many quiet steps a draw
 * picks among at most. */
enum { APPROACH_DEPTH = 5, MAX_QUIET = 128 };
/* How far own pieces come for an opponent piece next to the Flag (eval_rush). */
enum { RUSH_DEPTH = 6 };
/* How many plies before the cap of plies without an attack (a draw) attacks get
 * LATE_ATTACK. */
enum { LATE_PLIES = 40 };

/* The view as square sets, from one pass over its bytes: 16 squares at a time where
 * SSE2 is (the last loads read past the 100 bytes of cell[] into flags[], and of
 * flags[] into the next fields; those bits are dropped). */
static void view_sets(const PlayerView *v, ViewSets *s) {
    uint64_t own[2] = {0, 0}, opp[2] = {0, 0}, known[2] = {0, 0}, empty[2] = {0, 0}, own_fixed[2] = {0, 0};
    uint64_t probers[2] = {0, 0}, scouts[2] = {0, 0}, opp_fixed[2] = {0, 0}, moved[2] = {0, 0}, flags[2] = {0, 0};
#ifdef __SSE2__
    /* Blocks 0..3 fill the low word, 4..6 the high one: constant shifts once unrolled. */
#pragma GCC unroll 7
    for (int k = 0; k < 7; k++) {
        __m128i x = _mm_loadu_si128((const __m128i *)(v->cell + 16 * k));
        __m128i f = _mm_loadu_si128((const __m128i *)(v->flags + 16 * k));
        int w = k >= 4, at = 16 * (k & 3);
#define SET_BITS(set, vec) set[w] |= (uint64_t)(unsigned)_mm_movemask_epi8(vec) << at
#define EQ(c) _mm_cmpeq_epi8(x, _mm_set1_epi8((char)(c)))
        /* Each code's bit moved to a byte's top bit: VIEW_OWN is bit 5, VIEW_OPP_KNOWN
         * bit 6, VIEW_OPP_UNKNOWN bit 7; PIECE_MOVED is bit 0 of the flags. */
        __m128i known_top = _mm_slli_epi16(x, 1);
        SET_BITS(own, _mm_slli_epi16(x, 2));
        SET_BITS(known, known_top);
        SET_BITS(opp, _mm_or_si128(known_top, x));
        SET_BITS(moved, _mm_slli_epi16(f, 7));
        SET_BITS(empty, EQ(VIEW_EMPTY));
        __m128i flag = EQ(VIEW_OWN | FLAG);
        SET_BITS(flags, flag);
        SET_BITS(own_fixed, _mm_or_si128(flag, EQ(VIEW_OWN | BOMB)));
        __m128i scout = EQ(VIEW_OWN | SCOUT);
        SET_BITS(scouts, scout);
        SET_BITS(probers, _mm_or_si128(scout, EQ(VIEW_OWN | MINER)));
        SET_BITS(opp_fixed, _mm_or_si128(EQ(VIEW_OPP_KNOWN | FLAG), EQ(VIEW_OPP_KNOWN | BOMB)));
#undef EQ
#undef SET_BITS
    }
    _Static_assert(PIECE_MOVED == 1 && VIEW_OWN == 0x20 && VIEW_OPP_KNOWN == 0x40 && VIEW_OPP_UNKNOWN == 0x80,
                   "view_sets moves these bits to the top of a byte");
#else
    for (int sq = 0; sq < SQ_NB; sq++) {
        uint8_t c = v->cell[sq];
        int w = sq >= 64;
        uint64_t b = 1ull << (sq & 63);
        if (c & VIEW_OWN) own[w] |= b;
        if (c & VIEW_OPP_KNOWN) known[w] |= b;
        if (c & (VIEW_OPP_KNOWN | VIEW_OPP_UNKNOWN)) opp[w] |= b;
        if (v->flags[sq] & PIECE_MOVED) moved[w] |= b;
        if (c == VIEW_EMPTY) empty[w] |= b;
        if (c == (VIEW_OWN | FLAG) || c == (VIEW_OWN | BOMB)) own_fixed[w] |= b;
        if (c == (VIEW_OWN | FLAG)) flags[w] |= b;
        if (c == (VIEW_OWN | SCOUT)) scouts[w] |= b;
        if (c == (VIEW_OWN | SCOUT) || c == (VIEW_OWN | MINER)) probers[w] |= b;
        if (c == (VIEW_OPP_KNOWN | FLAG) || c == (VIEW_OPP_KNOWN | BOMB)) opp_fixed[w] |= b;
    }
#endif
#define LOAD(set) (((Bits)set[0] | (Bits)set[1] << 64) & board)
    Bits board = bits_board();
    s->empty = LOAD(empty);
    s->own = LOAD(own);
    s->opp = LOAD(opp);
    s->lakes = board & ~s->empty & ~s->own & ~s->opp;
    s->own_fixed = LOAD(own_fixed);
    s->own_flags = LOAD(flags);
    s->own_mobile = s->own & ~s->own_fixed;
    s->own_probers = LOAD(probers);
    s->own_scouts = LOAD(scouts);
    s->opp_known = LOAD(known);
    s->opp_moved = LOAD(moved) & s->opp;
    s->opp_fixed = LOAD(opp_fixed);
#undef LOAD
}
_Static_assert(offsetof(PlayerView, flags) + 7 * 16 <= sizeof(PlayerView), "view_sets reads 112 bytes of flags");

/* Breadth-first over the squares of `open` from `targets`, `depth` steps deep: down[d]
 * gets the squares of `wanted` whose neighbour in direction d is one step nearer to a
 * target, and the squares of `wanted` farther away go up, towards the opponent's side,
 * where every target starts. It stops early once every square of `wanted` is reached. */
static void eval_downhill(Bits targets, Bits open, Bits wanted, int depth, Bits down[DIR_NB]) {
    Bits reached = targets, frontier = targets;
    Bits d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (int k = 0; k < depth && (wanted & ~reached); k++) {
        Bits n0 = bits_from_dir(frontier, 0), n1 = bits_from_dir(frontier, 1);
        Bits n2 = bits_from_dir(frontier, 2), n3 = bits_from_dir(frontier, 3);
        Bits next = (n0 | n1 | n2 | n3) & open & ~reached;
        /* Only the squares of wanted are read: most layers hold none. */
        Bits here = next & wanted;
        if (here) {
            d0 |= here & n0;
            d1 |= here & n1;
            d2 |= here & n2;
            d3 |= here & n3;
        }
        reached |= next;
        frontier = next;
    }
    _Static_assert(DIR_UP == 0, "d0 is up");
    down[0] = d0 | (wanted & ~reached);
    down[1] = d1;
    down[2] = d2;
    down[3] = d3;
}

static void eval_init(Eval *e, const PlayerView *v, const Rules *r, const uint64_t *legal, uint64_t *rng) {
    e->v = v;
    e->r = r;
    e->combat = combat_table(r);
    e->danger_have = 0;
    e->legal = legal;
    e->have = 0;
    e->have_beliefs = 0;
    view_sets(v, &e->s);
    const ViewSets *s = &e->s;
    e->threats = e->near_flag = e->far_flag = e->blocks = e->guard = e->rays = e->intruders = 0;
    Bits open = bits_board() & ~s->lakes;
    e->nflags = 0;
    for (Bits f = s->own_flags; f; f &= f - 1) {
        int sq = bits_lowest(f);
        eval_flag(e, sq);
        if (e->nflags < 4) e->flag_sq[e->nflags++] = sq;
    }
    e->exposure = e->opp_moves = 0.0f; /* computed when a move first needs them */
    /* Opponent pieces two steps from the Flag (a random walker's next step in). */
    Bits ring2 = bits_dilate(e->guard) & open;
    e->near_flag = ring2 & s->opp & ~e->threats;
    e->far_flag = bits_dilate(ring2) & open & s->opp & ~e->near_flag & ~e->threats;
    e->block_near = bits_dilate(e->blocks);
    e->intercept = bits_dilate(e->threats | e->near_flag);
    e->flag_zone = e->threats | e->near_flag | e->far_flag;
    e->flag_marks = e->blocks | e->block_near | e->guard | e->intercept;
    e->opp_movable = s->opp & ~s->opp_fixed;
    e->opp_near = bits_dilate(e->opp_movable);
    /* The latest ply is the opponent's unless a rescue phase follows our own move. */
    const ViewMove *m = &v->last[0];
    e->answer = m->valid && is_opp(v->cell[m->to]) ? m->to : -1;
    /* Near the cap of plies without an attack, any attack beats the draw the cap brings
     * (a draw wins nothing): on seeds 100-109 with human setups 117 of 20,000 games were
     * drawn there, the bot's pieces wandering beside Bombs it had no reason to attack. */
    uint32_t cap = r->max_plies_without_attack;
    e->late_attack = cap && v->plies_since_attack + LATE_PLIES >= cap ? LATE_ATTACK : 0.0f;
    e->best_score = -1e30f;
    e->best_from = e->best_to = -1;
    /* One draw from the stream seeds a cheap generator for the tie-breaking noise. */
    e->noise = rng_next(rng);
}

/* The danger to our piece of type a from the opponent pieces in `near` (not empty),
 * its neighbours: the chance-weighted loss from the most dangerous one. */
static __attribute__((noinline)) float eval_danger_from(Eval *e, Bits near, int a) {
    const PlayerView *v = e->v;
    float worst = 0.0f;
    do {
        int n = bits_lowest(near);
        uint8_t cell = v->cell[n];
        float p;
        if (cell & VIEW_OPP_KNOWN) {
            p = e->combat->loss[a][cell_type(cell)];
        } else {
            eval_type(e, a);
            p = (v->flags[n] & PIECE_MOVED) ? e->loss_moved[a] : e->loss_unmoved[a];
        }
        if (p > worst) worst = p;
    } while ((near &= near - 1) != 0);
    return worst * BOT_PIECE_VALUE[a];
}

/* The danger to our piece of type a standing on sq (0 with no opponent piece next to
 * it that may move, the common case, decided inline). */
static inline float eval_danger(Eval *e, int sq, int a) {
    Bits near = NEIGHBOURS[sq] & e->opp_movable;
    return near ? eval_danger_from(e, near, a) : 0.0f;
}

/* eval_danger of the own piece on sq, where it stands. */
static float eval_danger_here(Eval *e, int sq, int a) {
    Bits b = sq_bit(sq);
    if (!(e->danger_have & b)) {
        e->danger_have |= b;
        e->danger_at[sq] = eval_danger(e, sq, a);
    }
    return e->danger_at[sq];
}

/* The chance that our piece of type a attacking the opponent piece on sq removes it. */
static float eval_kill(Eval *e, int a, int sq) {
    uint8_t cell = e->v->cell[sq];
    if (cell & VIEW_OPP_KNOWN) return e->combat->kill[a][cell_type(cell)];
    eval_type(e, a);
    return (e->v->flags[sq] & PIECE_MOVED) ? e->kill_moved[a] : e->kill_unmoved[a];
}

/* What stepping onto empty square sq is worth against the pieces that threaten the
 * Flag: a piece next to such a piece can take it next move. */
static float eval_intercept(Eval *e, int sq, int a) {
    Bits around = NEIGHBOURS[sq];
    Bits hit = around & e->threats, near = around & e->near_flag;
    float score = 0.0f;
    for (; hit; hit &= hit - 1) score += INTERCEPT * eval_kill(e, a, bits_lowest(hit));
    for (; near; near &= near - 1) score += INTERCEPT_NEAR * eval_kill(e, a, bits_lowest(near));
    return score;
}

/* The score of moving our piece from `from` to `to`; `approach` is what a quiet move's
 * step towards a target is worth. Inlined where the bot scores most of its moves
 * (eval_steps); eval_move elsewhere. */
static inline __attribute__((always_inline)) float eval_move_inline(Eval *e, int from, int to, float approach) {
    const PlayerView *v = e->v;
    int a = cell_type(v->cell[from]);
    uint8_t target = v->cell[to];
    Bits to_bit = sq_bit(to);
    float score;
    if (is_opp(target)) {
        float kill;
        if (target & VIEW_OPP_KNOWN) {
            int d = cell_type(target);
            score = e->combat->gain[a][d];
            kill = e->combat->kill[a][d];
        } else {
            eval_type(e, a);
            int moved = (v->flags[to] & PIECE_MOVED) != 0;
            score = (moved ? e->gain_moved[a] : e->gain_unmoved[a]) + PROBE_BONUS;
            kill = moved ? e->kill_moved[a] : e->kill_unmoved[a];
        }
        if (e->flag_zone & to_bit) {
            /* One that can still take it is fought whatever the odds: a random piece
             * next to the Flag takes it in a few plies, and the fight at least names it
             * for the pieces that come (eval_rush). */
            if (e->threats & to_bit && kill > 0.0f) score += FLAG_DEFENCE * kill + THREAT_BONUS;
            if (e->near_flag & to_bit) score += FLAG_NEAR * kill;
            if (e->far_flag & to_bit) score += FLAG_ZONE * kill;
        }
        if (to == e->answer) score += ANSWER_BONUS * kill;
        score += e->late_attack;
    } else {
        score = approach + DANGER_WEIGHT * (eval_danger_here(e, from, a) - eval_danger(e, to, a));
        /* Most steps touch none of the Flag's squares: one test for them all. */
        if (e->flag_marks & to_bit) {
            if (e->blocks & to_bit) score += BLOCK_BONUS;
            if (e->intercept & to_bit) score += eval_intercept(e, to, a);
            if (e->block_near & to_bit) score += BLOCK_APPROACH;
            if (e->guard & to_bit) score += GUARD_FILL;
        }
    }
    Bits from_bit = sq_bit(from);
    if (e->guard & from_bit) score -= GUARD_LEAVE;
    if ((from_bit | to_bit) & e->rays) {
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

static __attribute__((noinline)) float eval_move(Eval *e, int from, int to, float approach) {
    return eval_move_inline(e, from, to, approach);
}

/* 1 if moving from `from` to `to` is among the legal actions (always, when the caller
 * checks the move chosen instead). */
static inline int eval_legal(const Eval *e, int from, int to) {
    if (!e->legal) return 1;
    /* The view is in the player's frame, where red's encoding is the identity. */
    int a = action_encode(RED, from, to);
    return a >= 0 && ((e->legal[a >> 6] >> (a & 63)) & 1);
}

/* Weighs one candidate move against the best so far, with a little noise. */
static inline void eval_offer(Eval *e, int from, int to, float score) {
    e->noise = e->noise * 6364136223846793005ull + 1442695040888963407ull;
    score += NOISE * (float)(e->noise >> 40) * (1.0f / 16777216.0f);
    if (score > e->best_score && eval_legal(e, from, to)) {
        e->best_score = score;
        e->best_from = from;
        e->best_to = to;
    }
}

/* Scores the one-square moves of the pieces of from[d] in each direction d; a quiet
 * step of a piece in closer[d] is worth APPROACH_WEIGHT. */
static void eval_steps(Eval *e, const Bits from[DIR_NB], const Bits closer[DIR_NB]) {
    for (int d = 0; d < DIR_NB; d++) {
        for (Bits b = from[d]; b; b &= b - 1) {
            int sq = bits_lowest(b), to = sq + DIR_STEP[d];
            eval_offer(e, sq, to, eval_move_inline(e, sq, to, closer[d] & sq_bit(sq) ? APPROACH_WEIGHT : 0.0f));
        }
    }
}

/* One of 0..n-1 at random, from the tie-breaking noise's generator. */
static inline int eval_draw(Eval *e, int n) {
    e->noise = e->noise * 6364136223846793005ull + 1442695040888963407ull;
    return (int)(((e->noise >> 32) * (uint64_t)n) >> 32);
}

/* Draws one of the one-square moves of from[d] (legal ones, when the list is given)
 * and offers it with its score; 0 if there was none. */
static int eval_draw_step(Eval *e, const Bits from[DIR_NB], float approach) {
    int n = 0, sq = -1, d = 0;
    if (!e->legal) {
        /* Every step is legal (the caller checks the one chosen): count them and pick
         * the k-th, in the order the list below would hold them, without the list. */
        int count[DIR_NB];
        for (d = 0; d < DIR_NB; d++) n += count[d] = bits_count(from[d]);
        if (n == 0) return 0;
        int k = eval_draw(e, n < MAX_QUIET ? n : MAX_QUIET);
        for (d = 0; k >= count[d]; d++) k -= count[d];
        Bits b = from[d];
        for (; k > 0; k--) b &= b - 1;
        sq = bits_lowest(b);
    } else {
        uint8_t from_sq[MAX_QUIET], dir[MAX_QUIET];
        for (int t = 0; t < DIR_NB; t++) {
            for (Bits b = from[t]; b && n < MAX_QUIET; b &= b - 1) {
                int at = bits_lowest(b);
                if (!eval_legal(e, at, at + DIR_STEP[t])) continue;
                from_sq[n] = (uint8_t)at;
                dir[n++] = (uint8_t)t;
            }
        }
        if (n == 0) return 0;
        int k = eval_draw(e, n);
        sq = from_sq[k];
        d = dir[k];
    }
    eval_offer(e, sq, sq + DIR_STEP[d], eval_move(e, sq, sq + DIR_STEP[d], approach));
    return 1;
}

/* The Scout whose line in direction d reaches `to` over empty squares, two or more away. */
static inline int scout_origin(Bits scouts, int to, int d) {
    int from = to - 2 * DIR_STEP[d];
    while (!(scouts & sq_bit(from))) from -= DIR_STEP[d];
    return from;
}

/* Scouts' moves from afar: attacks along an open line onto the first piece, an
 * opponent's (the attacks of one square are among the steps), and a flight of two
 * squares or more to where a line opens onto an unmoved piece. The lines slide as square sets, a
 * step at a time for all Scouts at once (one square per Scout a ply would cost more
 * than the rest of the decision); only a line that ends on an opponent piece is walked
 * back to its Scout. */
static void eval_scout_lines(Eval *e) {
    const ViewSets *s = &e->s;
    Bits scouts = s->own_scouts;
    if (!scouts) return;
    Bits reach[DIR_NB], reach_any = 0;
    for (int d = 0; d < DIR_NB; d++) {
        /* bits_from_dir(b, d ^ 1): the squares one step from b in direction d. */
        Bits line = bits_from_dir(scouts, d ^ 1) & s->empty, hits = 0;
        reach[d] = 0; /* two squares or more away: a step is a quiet step */
        while (line) {
            Bits next = bits_from_dir(line, d ^ 1);
            hits |= next & s->opp;
            line = next & s->empty;
            reach[d] |= line;
        }
        reach_any |= reach[d];
        for (; hits; hits &= hits - 1) {
            int to = bits_lowest(hits), from = scout_origin(scouts, to, d);
            eval_offer(e, from, to, eval_move(e, from, to, 0.0f));
        }
    }
    if (!reach_any) return;
    /* The empty squares with an open line onto an unmoved unidentified piece. */
    Bits sight = 0, unmoved = s->opp & ~s->opp_known & ~s->opp_moved;
    for (int d = 0; d < DIR_NB; d++) {
        for (Bits l = bits_from_dir(unmoved, d) & s->empty; l; l = bits_from_dir(l, d) & s->empty) sight |= l;
    }
    /* A Scout's flight to a square that sees an unmoved piece (to attack it next move),
     * one drawn at random among them like the quiet steps. */
    uint8_t to_sq[64], dir[64];
    int n = 0;
    for (int d = 0; d < DIR_NB; d++) {
        for (Bits b = reach[d] & sight; b && n < 64; b &= b - 1) {
            to_sq[n] = (uint8_t)bits_lowest(b);
            dir[n++] = (uint8_t)d;
        }
    }
    if (!n) return;
    int k = eval_draw(e, n);
    int from = scout_origin(scouts, to_sq[k], dir[k]);
    eval_offer(e, from, to_sq[k], eval_move(e, from, to_sq[k], SIGHT_BONUS));
}

/* An opponent piece next to the Flag takes it with about one chance in the opponent's
 * number of moves each ply, and a random one stays there for several plies: the own
 * pieces within RUSH_DEPTH steps of it (pieces do not block the way, as in the
 * approach), but not next to it (they attack it), step towards it, each by the chance
 * that it takes the piece. */
static void eval_rush(Eval *e, Bits open) {
    const ViewSets *s = &e->s;
    int target = bits_lowest(e->intruders);
    Bits zone = e->intruders;
    for (int k = 0; k < RUSH_DEPTH; k++) zone |= bits_dilate(zone) & open;
    Bits coming = s->own_mobile & zone & ~bits_dilate(e->intruders), down[DIR_NB];
    if (!coming) return;
    /* Every piece in the zone is reached: none is sent up as a far one. */
    eval_downhill(e->intruders, open, coming, RUSH_DEPTH, down);
    for (int d = 0; d < DIR_NB; d++) {
        for (Bits b = coming & down[d] & bits_from_dir(s->empty, d); b; b &= b - 1) {
            int sq = bits_lowest(b), to = sq + DIR_STEP[d];
            float kill = eval_kill(e, cell_type(e->v->cell[sq]), target);
            eval_offer(e, sq, to, eval_move(e, sq, to, 0.0f) + RUSH * kill);
        }
    }
}

/* The heuristic's move as (from, to) in e->best_from/best_to, or best_from -1 if the
 * player has no piece that can step. */
static void heuristic_search(Eval *e) {
    const ViewSets *s = &e->s;
    /* Own Bombs and Flags never move: walls for the searches, like the lakes (a path
     * through them led pieces to a wall, and kept them from the pocket in front of a
     * Flag walled by a Bomb, which is reached round through the opponent's side). */
    Bits open = bits_board() & ~s->lakes & ~s->own_fixed, mobile = s->own_mobile;
    /* Steps towards the targets: Miners and Scouts any opponent piece (unmoved ones are
     * what they probe), the others pieces that move (the first set when none do). */
    Bits movers = s->opp & (s->opp_moved | (s->opp_known & ~s->opp_fixed));
    Bits fighters = mobile & ~s->own_probers, probers = mobile & s->own_probers;
    Bits down_any[DIR_NB], down_movers[DIR_NB], closer[DIR_NB];
    /* Pieces do not block the way (they move). Pieces farther than APPROACH_DEPTH step
     * up, towards the opponent's side, where every target starts: searching the whole
     * board cost more than the rest of the decision. */
    eval_downhill(s->opp, open, movers ? probers : mobile, APPROACH_DEPTH, down_any);
    if (movers) {
        eval_downhill(movers, open, fighters, APPROACH_DEPTH, down_movers);
    } else {
        for (int d = 0; d < DIR_NB; d++) down_movers[d] = down_any[d];
    }
    /* Scored one by one: attacks; steps of pieces in danger, next to the Flag or on its
     * lines; steps onto squares that guard the Flag. */
    Bits special_to = e->flag_marks & s->empty;
    Bits special_from = mobile & (e->opp_near | e->guard | e->rays);
    Bits attack[DIR_NB], special[DIR_NB], quiet[DIR_NB];
    for (int d = 0; d < DIR_NB; d++) {
        Bits to_empty = bits_from_dir(s->empty, d);
        closer[d] = (fighters & down_movers[d]) | (probers & down_any[d]);
        attack[d] = mobile & bits_from_dir(s->opp, d);
        special[d] = mobile & to_empty & (special_from | bits_from_dir(special_to | e->rays | e->opp_near, d));
        quiet[d] = mobile & to_empty & closer[d] & ~special[d];
    }
    Bits none[DIR_NB] = {0, 0, 0, 0};
    eval_steps(e, attack, none);
    eval_scout_lines(e);
    eval_steps(e, special, closer);
    if (e->intruders) eval_rush(e, open);
    /* The quiet steps score alike: one drawn at random stands for them all. */
    if (!eval_draw_step(e, quiet, APPROACH_WEIGHT) && e->best_from < 0) {
        for (int d = 0; d < DIR_NB; d++) quiet[d] = mobile & bits_from_dir(s->empty, d);
        eval_draw_step(e, quiet, 0.0f);
    }
}

/* The score of returning a captured piece of `type` to frame square sq. */
static float eval_rescue(Eval *e, int type, int sq) {
    return BOT_PIECE_VALUE[type] - DANGER_WEIGHT * eval_danger(e, sq, type);
}

int bot_heuristic_choose(const PlayerView *v, const Rules *r, const uint16_t *legal, int n, uint64_t *rng) {
    uint64_t bits[(ACTION_MAX + 63) / 64];
    memset(bits, 0, sizeof(bits));
    for (int i = 0; i < n; i++) bits[legal[i] >> 6] |= 1ull << (legal[i] & 63);
    Eval e;
    eval_init(&e, v, r, bits, rng);
    if (legal[0] >= RESCUE_ACTION_BASE) {
        /* A rescue phase: the most valuable piece back, where it is safest. */
        int best = legal[n - 1];
        float best_score = 0.0f;
        for (int i = 0; i < n; i++) {
            int type, sq;
            if (action_decode(RED, legal[i], &type, &sq) != ACTION_RESCUE) continue;
            float score = eval_rescue(&e, type, sq);
            if (score > best_score) {
                best_score = score;
                best = legal[i];
            }
        }
        return best;
    }
    heuristic_search(&e);
    /* No step among the legal actions (a Captain's two-square moves or a Scout's long
     * ones are all that is left): any legal action. */
    if (e.best_from < 0) return legal[rng_below(rng, (uint32_t)n)];
    return action_encode(RED, e.best_from, e.best_to);
}

int bot_heuristic_propose(const PlayerView *v, const Rules *r, uint64_t *rng) {
    Eval e;
    eval_init(&e, v, r, NULL, rng);
    heuristic_search(&e);
    return e.best_from < 0 ? -1 : action_encode(RED, e.best_from, e.best_to);
}

