/* bot.c: the castle bots' choices (castle_bot.h), from a seat's view and legal list only.
 *
 * The heuristic scores every legal action and plays the best, a small random jitter
 * breaking ties between quiet moves:
 *  - an attack is worth what it removes less what it loses: exactly when the target's
 *    rank is known (a known stronger target is never attacked while any other action
 *    exists), in expectation over the ranks the seat has not seen otherwise (the A3
 *    counts less the removed and the known pieces of that seat);
 *  - beating a carrier is worth more (the flag changes hands, 1.11), most of all when
 *    it carries the bot's own flag;
 *  - a carrier of its own flag walks toward the turret (distance by steps over the
 *    board, pieces ignored) and crowns whenever it can (1.13); a lone own flag draws the
 *    nearest pieces to it; other pieces stay near the carrier, out of its way (the nodes
 *    of its shortest ways to the turret, the next few steps), and head for rival carriers;
 *  - a move onto a node next to a rival piece that would beat the mover is penalised
 *    by the chance of that (known rank: 0 or 1; unknown: the counts above);
 *  - a shot is an attack that costs the cannon; dropping the own flag never happens
 *    while another action exists; take: the own flag first, then a rival's (it stops
 *    that rival crowning), never a partner's; recruit: the highest rank.
 */
#include <string.h>

#include "castle_bot.h"
#include "engine/rng.h"

/* The wall (castle_bot.h): from here on this file cannot name the game's state nor derive a
 * rank from a piece's slot; everything it knows comes through the CastleView. */
#pragma GCC poison CastleState CASTLE_SLOT_RANK castle_rank castle_known castle_view_build

static const char *const NAMES[CASTLE_BOT_KIND_NB] = {"random", "heuristic"};

const char *castle_bot_name(int kind) { return kind >= 0 && kind < CASTLE_BOT_KIND_NB ? NAMES[kind] : NULL; }

int castle_bot_kind_from_name(const char *name) {
    for (int k = 0; k < CASTLE_BOT_KIND_NB; k++)
        if (strcmp(name, NAMES[k]) == 0) return k;
    return -1;
}

/* What removing a piece of each rank is worth (rough material, in Scouts): the Spy and
 * the Cannons above their rank for what they alone can do (1.9, 1.10). */
static const float VALUE[CASTLE_RANK_MAX + 1] = {0.0f, 2.0f, 2.5f, 1.5f, 2.0f, 2.5f, 3.5f, 4.5f, 6.0f, 8.0f};
enum { FAR = 255 };
#define NEVER (-1.0e6f)                /* a known losing attack, dropping the own flag */
#define CROWN 1.0e6f                   /* carrying the own flag onto the turret wins */
static const float OWN_FLAG_BACK = 30.0f;   /* beating the carrier of the own flag */
static const float RIVAL_CARRIER = 6.0f;    /* beating a rival carrier (its flag changes hands) */
static const float SURE_WIN = 2.0f;         /* a known weaker piece taken: no risk at all */
static const float CARRIER_STEP = 3.0f;     /* the own flag one step nearer the turret */
static const float FETCH_STEP = 1.5f;       /* a piece one step nearer the lone own flag */
static const float HUNT_STEP = 0.4f;        /* a piece one step nearer a rival carrier */
static const float ESCORT_STEP = 0.3f;      /* a piece one step nearer the own carrier */
static const float GUARD = 3.0f;            /* beating a rival next to the own carrier */
static const float UNBLOCK = 1.5f;          /* an own piece leaving the carrier's way */
enum { ROUTE_NEAR = 4 };                    /* how far ahead of the carrier its way is kept clear */
static const float JITTER = 0.25f;          /* random tie-break between quiet moves */

/* The outcome of attacker rank a on defender rank d (1.6, 1.9): 1 win, 0 tie, -1 loss. */
static int fight(int a, int d) {
    if (a == 2 && d == 9) return 1; /* the Spy attacking the Marshal */
    return a > d ? 1 : a == d ? 0 : -1;
}

/* Steps from every node to `target` over the board's nodes (pieces ignored). */
static void distances(const CastleGeometry *g, int target, uint8_t dist[CASTLE_NODES_MAX]) {
    uint8_t queue[CASTLE_NODES_MAX];
    memset(dist, FAR, CASTLE_NODES_MAX);
    if (target == CASTLE_NONE) return;
    int head = 0, tail = 0;
    dist[target] = 0;
    queue[tail++] = (uint8_t)target;
    while (head < tail) {
        int u = queue[head++];
        for (int j = 0; j < g->degree[u]; j++) {
            int w = g->neighbour[u][j];
            if (dist[w] == FAR) {
                dist[w] = (uint8_t)(dist[u] + 1);
                queue[tail++] = (uint8_t)w;
            }
        }
    }
}

static int rivals(const CastleView *v, int a, int b) {
    return a != b && !(v->mode == CASTLE_TEAMS4 && (a & 1) == (b & 1));
}

/* Expected value for the attacker of rank a of attacking the piece on `node` (removed
 * value gained minus lost), with the chance it wins in *p_win. */
static float attack_value(const CastleView *v, int a, int node, float *p_win) {
    int d = v->rank[node], owner = v->owner[node];
    if (d) {
        int r = fight(a, d);
        *p_win = r > 0 ? 1.0f : 0.0f;
        return r > 0 ? VALUE[d] + SURE_WIN : r == 0 ? VALUE[d] - VALUE[a] : NEVER;
    }
    float total = v->unknown_total[owner], ev = 0.0f, win = 0.0f;
    if (total == 0) { /* cannot happen in a consistent view: every piece is somebody's */
        *p_win = 0.0f;
        return 0.0f;
    }
    for (int r = 1; r <= CASTLE_RANK_MAX; r++) {
        if (!v->unknown[owner][r]) continue;
        float p = v->unknown[owner][r] / total;
        int o = fight(a, r);
        ev += p * (o > 0 ? VALUE[r] : o == 0 ? VALUE[r] - VALUE[a] : -VALUE[a]);
        if (o > 0) win += p;
    }
    *p_win = win;
    return ev;
}

/* The chance that a piece of rank a standing on t is beaten by a rival neighbour's
 * attack next turn (the likeliest such neighbour's). Cannons never attack by moving. */
static float danger(const CastleView *v, int a, int t, int from) {
    const CastleGeometry *g = v->g;
    float worst = 0.0f;
    for (int j = 0; j < g->degree[t]; j++) {
        int u = g->neighbour[t][j], owner = v->owner[u];
        if (u == from || owner == CASTLE_NONE || !rivals(v, v->seat, owner)) continue;
        float p = 0.0f;
        if (v->rank[u]) {
            p = v->rank[u] != 1 && fight(v->rank[u], a) >= 0 ? 1.0f : 0.0f;
        } else if (v->unknown_total[owner]) {
            for (int r = 2; r <= CASTLE_RANK_MAX; r++)
                if (fight(r, a) >= 0) p += v->unknown[owner][r];
            p /= v->unknown_total[owner];
        }
        if (p > worst) worst = p;
    }
    return worst;
}

/* Distance tables the move scores read, built once a decision. */
typedef struct {
    uint8_t turret[CASTLE_NODES_MAX];  /* to the turret */
    uint8_t fetch[CASTLE_NODES_MAX];   /* to the own flag when it lies alone */
    uint8_t escort[CASTLE_NODES_MAX];  /* to the own flag's carrier when it is the seat's */
    uint8_t hunt[CASTLE_NODES_MAX];    /* to the nearest rival carrier */
    uint8_t route[CASTLE_NODES_MAX];   /* on a shortest way of the own carrier to the turret, near it */
} Plans;

static void plans_build(const CastleView *v, Plans *p) {
    const CastleGeometry *g = v->g;
    int me = v->seat, flag = v->flag_node[me];
    distances(g, g->turret, p->turret);
    distances(g, v->flag_lone[me] ? flag : CASTLE_NONE, p->fetch);
    distances(g, !v->flag_lone[me] && v->owner[flag] == me ? flag : CASTLE_NONE, p->escort);
    memset(p->route, 0, sizeof(p->route));
    if (p->escort[flag] == 0)
        for (int node = 0; node < g->nodes; node++)
            p->route[node] = node != flag && p->escort[node] <= ROUTE_NEAR &&
                             p->escort[node] + p->turret[node] == p->turret[flag];
    memset(p->hunt, FAR, sizeof(p->hunt));
    uint8_t d[CASTLE_NODES_MAX];
    for (int node = 0; node < g->nodes; node++) {
        if (v->carry[node] == CASTLE_NONE || !rivals(v, me, v->owner[node])) continue;
        distances(g, node, d);
        for (int k = 0; k < g->nodes; k++)
            if (d[k] < p->hunt[k]) p->hunt[k] = d[k];
    }
}

/* Steps gained toward a target (positive: nearer), 0 when the target is nowhere. */
static float closer(const uint8_t *dist, int f, int t) {
    if (dist[f] == FAR || dist[t] == FAR) return 0.0f;
    return (float)dist[f] - (float)dist[t];
}

static float score_move(const CastleView *v, const Plans *p, const CastleAction *act) {
    int me = v->seat, f = act->from, t = act->to, a = v->rank[f];
    int carried = v->carry[f];
    float score = 0.0f, p_win = 1.0f;
    if (act->kind == CASTLE_ACT_DROP) {
        /* A8: leaving a flag behind; the own flag never while anything else is legal. */
        if (carried == me) return NEVER;
        carried = CASTLE_NONE;
        score -= 1.0f;
    }
    if (act->kind == CASTLE_ACT_SHOT) {
        /* 1.10: both pieces leave the board; the cannon's value is the price. */
        int d = v->rank[t], owner = v->owner[t];
        float gain = 0.0f;
        if (d) {
            gain = VALUE[d];
        } else if (v->unknown_total[owner]) {
            for (int r = 1; r <= CASTLE_RANK_MAX; r++) gain += v->unknown[owner][r] * VALUE[r];
            gain /= v->unknown_total[owner];
        }
        if (v->carry[t] == me) gain += OWN_FLAG_BACK;
        else if (v->carry[t] != CASTLE_NONE) gain += RIVAL_CARRIER;
        return gain - VALUE[1] - (carried == me ? OWN_FLAG_BACK : 0.0f);
    }
    /* 1.13: the own flag carried onto the turret wins at once. */
    if (t == v->g->turret && carried == me && v->owner[t] == CASTLE_NONE) return CROWN;
    if (v->owner[t] != CASTLE_NONE) {
        score += attack_value(v, a, t, &p_win);
        if (score <= NEVER) return NEVER;
        if (v->carry[t] == me) score += p_win * OWN_FLAG_BACK;
        else if (v->carry[t] != CASTLE_NONE) score += p_win * RIVAL_CARRIER;
        if (t == v->g->turret && carried == me) score += p_win * CROWN;
    }
    /* Where the piece ends (if it wins or moves): the plans, and the risk there beside
     * the risk of staying (a threatened carrier gains nothing by standing still). */
    float risk = p_win * danger(v, a, t, f) - danger(v, a, f, f);
    if (carried == me) {
        score += CARRIER_STEP * closer(p->turret, f, t);
        /* A carrier that loses its attack leaves the flag by the rival (1.11). */
        score -= (1.0f - p_win) * OWN_FLAG_BACK * 0.5f;
        score -= risk * (VALUE[a] + OWN_FLAG_BACK * 0.5f);
    } else {
        score += FETCH_STEP * closer(p->fetch, f, t);
        if (p->escort[f] <= 4 || p->escort[t] <= 4) score += ESCORT_STEP * closer(p->escort, f, t);
        if (a >= 5) score += HUNT_STEP * closer(p->hunt, f, t);
        /* Out of the carrier's way: own pieces leave the nodes it is to pass next. */
        score += UNBLOCK * ((float)p->route[f] - (float)p->route[t]);
        /* Guarding: a rival next to the own carrier is the first to remove. */
        if (v->owner[t] != CASTLE_NONE && p->escort[t] == 1) score += GUARD * p_win;
        score -= risk * VALUE[a] * 0.8f;
    }
    return score;
}

static float score_take(const CastleView *v, int flag_seat) {
    if (flag_seat == v->seat) return 100.0f;             /* needed to crown (1.13) */
    if (rivals(v, v->seat, flag_seat)) return 5.0f;      /* stops that rival crowning */
    return -1.0f;                                        /* a partner needs its own */
}

int castle_bot_choose(int kind, const CastleView *v, const CastleSettings *cfg, const int16_t *legal, int n,
                      uint64_t *rng) {
    (void)cfg;
    if (n <= 0) return -1;
    if (kind != CASTLE_BOT_HEURISTIC) return legal[rng_below(rng, (uint32_t)n)];
    const CastleGeometry *g = v->g;
    Plans plans;
    int planned = 0, best = legal[0];
    float best_score = -3.0e38f;
    for (int i = 0; i < n; i++) {
        const CastleAction *act = &g->action[legal[i]];
        float score;
        switch (act->kind) {
        case CASTLE_ACT_MOVE:
        case CASTLE_ACT_DROP:
        case CASTLE_ACT_SHOT:
            if (!planned) {
                plans_build(v, &plans);
                planned = 1;
            }
            score = score_move(v, &plans, act);
            break;
        case CASTLE_ACT_TAKE: score = score_take(v, act->to); break;
        case CASTLE_ACT_RECRUIT: score = (float)act->to; break; /* A9: the strongest back */
        default: score = 0.0f; break;                            /* leave, recruit none */
        }
        /* Jitter: uniform in [0, JITTER), from the stream, for every action (the stream
         * advances by n draws a decision whatever the scores). */
        score += JITTER * (float)(rng_next(rng) >> 40) / (float)(1u << 24);
        if (score > best_score) {
            best_score = score;
            best = legal[i];
        }
    }
    return best;
}
