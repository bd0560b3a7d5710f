/* bot_heuristic.h: the heuristic bot's evaluation state, shared by its files only
 * (bot_heuristic.c scores the moves, bot_odds.c what an attack is worth,
 * bot_flag_defence.c reads the Flag's lines); the bot's entry points are in bot.h. Like
 * them it sees the view (view.h), never the game state.
 */
#ifndef STRATEGO_BOT_HEURISTIC_H
#define STRATEGO_BOT_HEURISTIC_H

#include <stdint.h>

#include "stratego/rules.h"
#include "stratego/squareset.h"
#include "stratego/types.h"
#include "stratego/view.h"

/* The view as square sets (bit sq for square sq of the player's frame). */
typedef struct {
    Bits empty, lakes;
    Bits own, own_mobile;  /* own pieces; those that move (no Bomb, no Flag) */
    Bits own_fixed;        /* own Bombs and Flags */
    Bits own_flags;
    Bits own_probers;      /* own Miners and Scouts */
    Bits own_scouts;
    Bits opp, opp_known, opp_moved;
    Bits opp_fixed;        /* known Bombs and Flags */
} ViewSets;

/* For each setting of the two rules combat_resolve reads (aggressor_wins,
 * one_time_bombs: index aggressor_wins + 2 * one_time_bombs) and each pair of types:
 * what our attacker a gains on defender d, 1 if that attack removes d, and 1 if their
 * d attacking our a removes a (only movable types attack). Filled once from
 * combat_resolve: the expectations below sum over every type, and a lookup beats the
 * branches. */
typedef struct CombatTable {
    float gain[PIECE_TYPE_NB][PIECE_TYPE_NB];
    float kill[PIECE_TYPE_NB][PIECE_TYPE_NB];
    float loss[PIECE_TYPE_NB][PIECE_TYPE_NB];
} CombatTable;

/* r's table, filled once (bot_odds.c). */
const CombatTable *combat_table(const Rules *r);

typedef struct {
    const PlayerView *v;
    const Rules *r;
    const CombatTable *combat; /* r's outcomes (combat_table) */
    /* NULL: every move the view shows is legal (the caller checks the one chosen);
     * else a bit per action, the legal ones. */
    const uint64_t *legal;
    ViewSets s;
    /* The chance that an unidentified opponent piece is of each type, if it moved and
     * if it did not; computed when first needed (have_beliefs). */
    int have_beliefs;
    float p_moved[PIECE_TYPE_NB], p_unmoved[PIECE_TYPE_NB];
    /* Per own type, computed when first needed (bit set in `have`): the expected gain
     * of attacking an unidentified piece, the chance that attack removes it, and the
     * chance that an unidentified piece attacking ours removes ours. */
    uint32_t have;
    float gain_moved[PIECE_TYPE_NB], gain_unmoved[PIECE_TYPE_NB];
    float kill_moved[PIECE_TYPE_NB], kill_unmoved[PIECE_TYPE_NB];
    float loss_moved[PIECE_TYPE_NB], loss_unmoved[PIECE_TYPE_NB];
    Bits threats;   /* opponent pieces that could take the Flag next move */
    Bits intruders; /* those next to it */
    Bits near_flag; /* opponent pieces two steps from the Flag */
    Bits far_flag;  /* opponent pieces three steps from the Flag */
    Bits blocks;    /* empty squares on an open line from the Flag to a possible Scout */
    Bits guard;     /* squares next to the Flag */
    Bits block_near; /* squares next to a blocking square */
    Bits intercept;  /* squares next to a threat or a piece two steps from the Flag */
    Bits flag_zone;  /* threats | near_flag | far_flag */
    Bits flag_marks; /* blocks | block_near | guard | intercept: squares a step onto scores */
    Bits opp_movable; /* opponent pieces that may move (not known Bombs or Flags) */
    Bits opp_near;  /* squares next to one: the only ones in danger */
    /* The danger to each own piece where it stands (eval_danger of its square and
     * type), computed when first needed: a piece's steps in several directions share it. */
    Bits danger_have;
    float danger_at[SQ_NB];
    int answer;     /* square of the opponent piece that has just moved, or -1 */
    float late_attack; /* added to every attack's score (LATE_ATTACK near the cap, else 0) */
    /* The look-ahead on the Flag: own Flags, the squares on their four lines up to the
     * edge or a lake (only a move touching them changes the Flag's exposure), the
     * exposure before our move, and the opponent's estimated number of moves. */
    int nflags;
    int flag_sq[4];
    Bits rays;
    float exposure;  /* these two are 0 until a move first needs them */
    float opp_moves;
    /* The best move so far and the tie-breaking noise's generator. */
    float best_score;
    int best_from, best_to;
    uint64_t noise;
} Eval;

static inline int is_opp(uint8_t cell) { return (cell & (VIEW_OPP_KNOWN | VIEW_OPP_UNKNOWN)) != 0; }
static inline int cell_type(uint8_t cell) { return cell & VIEW_TYPE_MASK; }

/* Fills e's beliefs (eval_beliefs) and the expectations of own type a (eval_type);
 * bot_odds.c. */
void eval_beliefs_fill(Eval *e);
void eval_type_fill(Eval *e, int a);

/* The type distributions of unidentified opponent pieces (p_moved, p_unmoved), computed
 * when first needed. */
static inline void eval_beliefs(Eval *e) {
    if (!e->have_beliefs) eval_beliefs_fill(e);
}

/* The expectations of own type a against an unidentified piece (gain_*, kill_*,
 * loss_*), computed when first needed. */
static inline void eval_type(Eval *e, int a) {
    if (!(e->have & (1u << a))) eval_type_fill(e, a);
}

/* The Flag's defence (bot_flag_defence.c). */
/* The Flag's guard: threats, blocking squares and the squares next to it, and its
 * lines where a move can change what reaches it: up to the first piece, where an
 * opponent piece is that piece or the next one along. */
void eval_flag(Eval *e, int flag);
/* The expected number of opponent moves that take one of our Flags, with square
 * `from` emptied and square `to` holding `to_cell` (from = to = -1: the view as is). */
float flag_exposure(Eval *e, int from, int to, uint8_t to_cell);
/* Fills e->exposure (the view as is) and e->opp_moves (the opponent's moves, estimated). */
void flag_lookahead_init(Eval *e);

#endif
