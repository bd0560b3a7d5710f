/* bot_odds.c: what the heuristic bot's attacks are worth (bot_heuristic.h): the outcome
 * of every pair of types under each combat rule, the chance that an unidentified
 * opponent piece is of each type, and the expectations of each own type against one. */
#include <pthread.h>
#include <string.h>

#include "bot.h"
#include "bot_heuristic.h"
#include "stratego/combat.h"

#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* What each type is worth to the bots (bot.h): the gain of an attack is told in them. */
const float BOT_PIECE_VALUE[PIECE_TYPE_NB] = {
    [BOMB] = 0.6f,     [SPY] = 2.5f,     [SCOUT] = 1.0f,   [MINER] = 2.0f,
    [SERGEANT] = 1.5f, [LIEUTENANT] = 2.0f, [CAPTAIN] = 2.6f, [MAJOR] = 3.4f,
    [COLONEL] = 4.6f,  [GENERAL] = 6.5f,  [MARSHAL] = 8.5f, [FLAG] = 40.0f,
};

static CombatTable COMBAT[4];
static pthread_once_t combat_once = PTHREAD_ONCE_INIT;

static inline float attack_gain(int a, int d, const Rules *r);

static void combat_table_fill(void) {
    for (int k = 0; k < 4; k++) {
        Rules r;
        memset(&r, 0, sizeof(r));
        r.aggressor_wins = (uint8_t)(k & 1);
        r.one_time_bombs = (uint8_t)(k >> 1);
        for (int a = 0; a < PIECE_TYPE_NB; a++) {
            for (int d = 0; d < PIECE_TYPE_NB; d++) {
                COMBAT[k].gain[a][d] = attack_gain(a, d, &r);
                COMBAT[k].kill[a][d] = combat_resolve(a, d, &r) != COMBAT_DEFENDER_WINS;
                COMBAT[k].loss[a][d] = piece_type_is_movable(d) && combat_resolve(d, a, &r) != COMBAT_DEFENDER_WINS;
            }
        }
    }
}

const CombatTable *combat_table(const Rules *r) {
    pthread_once(&combat_once, combat_table_fill);
    return &COMBAT[(r->aggressor_wins != 0) + 2 * (r->one_time_bombs != 0)];
}

/* What attacker `a` of ours gains by attacking a defender of type `d`. */
static inline float attack_gain(int a, int d, const Rules *r) {
    switch (combat_resolve(a, d, r)) {
    case COMBAT_ATTACKER_WINS:
        return BOT_PIECE_VALUE[d];
    case COMBAT_DEFENDER_WINS:
        return -BOT_PIECE_VALUE[a];
    default:
        return BOT_PIECE_VALUE[d] - BOT_PIECE_VALUE[a];
    }
}

/* Bombs and the Flag never move, so they are among the unmoved ones; the movable types unidentified are spread
 * over the moved and the unmoved pieces alike. Under silent defense the counts include
 * captured pieces never identified: the chances are then approximate. */
void eval_beliefs_fill(Eval *e) {
    e->have_beliefs = 1;
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

/* The sum of x[t] * y[t] over the 12 piece types, in four lanes (t = j, j + 4, j + 8
 * in lane j) added pairwise at the end: the order SSE2 adds them in, so that both
 * builds give the same floats (and the same moves). */
_Static_assert(PIECE_TYPE_NB == 12, "dot12 sums three blocks of four types");
#ifdef __SSE2__
static inline float dot12(const float *x, const float *y) {
    __m128 acc = _mm_mul_ps(_mm_loadu_ps(x), _mm_loadu_ps(y));
    acc = _mm_add_ps(acc, _mm_mul_ps(_mm_loadu_ps(x + 4), _mm_loadu_ps(y + 4)));
    acc = _mm_add_ps(acc, _mm_mul_ps(_mm_loadu_ps(x + 8), _mm_loadu_ps(y + 8)));
    /* (lane 0 + lane 2) + (lane 1 + lane 3). */
    __m128 half = _mm_add_ps(acc, _mm_movehl_ps(acc, acc));
    return _mm_cvtss_f32(_mm_add_ss(half, _mm_shuffle_ps(half, half, 1)));
}
#else
static inline float dot12(const float *x, const float *y) {
    float acc[4];
    for (int j = 0; j < 4; j++) {
        acc[j] = x[j] * y[j];
        acc[j] += x[j + 4] * y[j + 4];
        acc[j] += x[j + 8] * y[j + 8];
    }
    return (acc[0] + acc[2]) + (acc[1] + acc[3]);
}
#endif

void eval_type_fill(Eval *e, int a) {
    e->have |= 1u << a;
    eval_beliefs(e);
    const CombatTable *c = e->combat;
    e->gain_moved[a] = dot12(e->p_moved, c->gain[a]);
    e->gain_unmoved[a] = dot12(e->p_unmoved, c->gain[a]);
    e->kill_moved[a] = dot12(e->p_moved, c->kill[a]);
    e->kill_unmoved[a] = dot12(e->p_unmoved, c->kill[a]);
    e->loss_moved[a] = dot12(e->p_moved, c->loss[a]);
    e->loss_unmoved[a] = dot12(e->p_unmoved, c->loss[a]);
}
