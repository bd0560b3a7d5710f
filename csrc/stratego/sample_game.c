/* sample_game.c: the one bridge from a game to the sampler (sample.h). It builds the
 * player's view, lets sample.c plan and draw from that alone, and writes each draw into
 * a copy of the game: piece ids come from the board (which square holds which piece is
 * public) and the public flags (which captured piece moved), never from a hidden type. */
#include "sample.h"

#include <stdio.h>
#include <string.h>

#include "board.h"
#include "squareset.h"
#include "engine/pool.h"
#include "engine/rng.h"
#include "save.h"

/* The piece ids of the plan's captured slots: the opponent's captured pieces the
 * player never identified, by id within each kind (unmoved, narrowed, moved). */
static int captured_slot_ids(const GameState *s, int opp, const SamplePlan *plan, uint8_t *slot_id) {
    int next[3] = {plan->board_slots, plan->board_slots + plan->captured_unmoved,
                   plan->board_slots + plan->captured_unmoved + plan->captured_narrowed};
    int end[3] = {next[1], next[2], plan->slots};
    int first = opp * MAX_PIECES, last = first + s->placed[opp];
    for (int id = first; id < last; id++) {
        uint8_t f = s->piece_flags[id];
        if (s->piece_sq[id] != SQ_NONE || (f & PIECE_IDENTIFIED)) continue;
        int kind = f & PIECE_SCOUT_OR_CAPTAIN ? 1 : f & PIECE_MOVED ? 2 : 0;
        if (next[kind] >= end[kind]) return -1;
        slot_id[next[kind]++] = (uint8_t)id;
    }
    return next[0] == end[0] && next[1] == end[1] && next[2] == end[2] ? 0 : -1;
}

/* Walks the game back from now through its kept plies (HistoryEntry), as far as the
 * oldest position the chasing rule holds, and records each wanted past position as the
 * hash of the pieces of known type plus the squares of the board slots. Wanted: the
 * positions with `plies` plies played, plies[i] for past[i]. A past that the kept plies
 * do not reach, or that they do not explain (a state loaded from elsewhere), gets
 * plies[i] = -1. No attack lies in between: every attack ends a chase and its threats. */
static void chase_pasts(const GameState *s, const SampleSource *src, int *plies, int n, SamplePast *past) {
    uint8_t board[SQ_NB], slot_of[PIECE_ID_NB], slot_sq[MAX_PIECES];
    memcpy(board, s->board, sizeof(board));
    memset(slot_of, 0xFF, sizeof(slot_of));
    uint64_t known = s->hash;
    for (int i = 0; i < src->plan.board_slots; i++) {
        int id = src->slot_id[i], sq = s->piece_sq[id];
        slot_of[id] = (uint8_t)i;
        slot_sq[i] = (uint8_t)sq;
        /* Take the slot out of the hash: what is left depends on known types only. */
        known ^= board_zobrist(piece_owner(id), s->piece_type[id], sq);
    }
    int oldest = (int)s->ply > HISTORY_NB ? (int)s->ply - HISTORY_NB : 0;
    for (int at = (int)s->ply;; at--) {
        for (int i = 0; i < n; i++) {
            if (plies[i] != at) continue;
            past[i].known_hash = known;
            memcpy(past[i].slot_sq, slot_sq, sizeof(slot_sq));
            plies[i] = -2; /* done */
        }
        if (at <= oldest) break;
        const HistoryEntry *h = &s->history[(at - 1) % HISTORY_NB];
        int cell = board[h->to];
        if (h->attack || h->from >= SQ_NB || h->to >= SQ_NB || cell == CELL_EMPTY || cell == CELL_LAKE ||
            board[h->from] != CELL_EMPTY || piece_owner(cell - 1) != h->player)
            break;
        int id = cell - 1;
        board[h->from] = (uint8_t)cell;
        board[h->to] = CELL_EMPTY;
        if (slot_of[id] != 0xFF) {
            slot_sq[slot_of[id]] = h->from;
        } else {
            int owner = piece_owner(id), type = s->piece_type[id];
            known ^= board_zobrist(owner, type, h->to) ^ board_zobrist(owner, type, h->from);
        }
    }
    for (int i = 0; i < n; i++) plies[i] = plies[i] == -2 ? 0 : -1;
}

/* The past positions the chasing rule compares with (chase.h): the chase's positions,
 * the latest one after its chaser's latest move and each one before two plies earlier,
 * and each player's latest threat (the position after that player's latest move). Only
 * the chase positions within the kept plies are rebuilt; older ones are dropped. */
static void chase_prepare(const GameState *s, SampleSource *src) {
    const Chase *c = &s->chase;
    int plies[SAMPLE_PAST_NB], n = SAMPLE_PAST_NB;
    for (int i = 0; i < n; i++) plies[i] = -1;
    int latest_mover = s->ply > 0 ? s->history[(s->ply - 1) % HISTORY_NB].player : -1;
    int kept = 0;
    if (c->active && c->count > 0) {
        int last = (int)s->ply - (latest_mover == c->chaser ? 0 : 1);
        kept = c->count < SAMPLE_CHASE_KEPT ? c->count : SAMPLE_CHASE_KEPT;
        for (int k = 0; k < kept; k++) plies[k] = last - 2 * (kept - 1 - k);
    }
    for (int p = 0; p < PLAYER_NB; p++) {
        if (c->threat_hash[p] == 0) continue;
        plies[SAMPLE_CHASE_KEPT + p] = (int)s->ply - (latest_mover == p ? 0 : 1);
    }
    chase_pasts(s, src, plies, n, src->past);
    /* The chase keeps its latest positions that could be rebuilt, in order. */
    int first = 0;
    while (first < kept && plies[first] < 0) first++;
    int rebuilt = 0;
    for (int k = first; k < kept && plies[k] == 0; k++) src->past[rebuilt++] = src->past[k];
    src->chase_kept = (uint8_t)rebuilt;
    for (int p = 0; p < PLAYER_NB; p++) src->threat_kept[p] = plies[SAMPLE_CHASE_KEPT + p] == 0;
}

/* The base of the worlds: s without the slots' types. Each board slot's share of the
 * hash, the counts and the square sets comes out; every slot's type becomes a Bomb, a
 * placeholder that each world overwrites. */
static void base_prepare(const GameState *s, SampleSource *src) {
    GameState *b = src->base;
    *b = *s;
    int opp = 1 - src->player;
    Bits scouts = bits_load(b->scouts[opp]), fixed = bits_load(b->fixed[opp]);
    for (int i = 0; i < src->plan.slots; i++) {
        int id = src->slot_id[i], t = s->piece_type[id];
        b->piece_type[id] = BOMB;
        if (i >= src->plan.board_slots) continue;
        int sq = src->slot_sq[i];
        b->hash ^= board_zobrist(opp, t, sq);
        b->on_board[opp][t]--;
        b->movable[opp] = (uint8_t)(b->movable[opp] - piece_type_is_movable(t));
        scouts &= ~bit_of(sq);
        fixed &= ~bit_of(sq);
    }
    b->scouts[opp] = bits_store(scouts);
    b->fixed[opp] = bits_store(fixed);
    /* No stream of the true game: each world gets its own. */
    b->rng = 0;
}

int sample_game_prepare(const GameState *s, const Rules *r, int player, SampleSource *src, GameState *base,
                        char *err, size_t err_len) {
    if (s->done) {
        snprintf(err, err_len, "the game is over: there is no hidden state left to sample");
        return -1;
    }
    if (s->phase == PHASE_RESCUE && s->to_move != player) {
        snprintf(err, err_len, "the opponent is in a rescue phase: sample for the player to move (%d)", s->to_move);
        return -1;
    }
    PlayerView view;
    view_build_recent(s, player, 0, &view);
    src->base = base;
    src->player = player;
    if (sample_plan_build(&view, &src->plan) < 0 ||
        captured_slot_ids(s, 1 - player, &src->plan, src->slot_id) < 0) {
        snprintf(err, err_len, "no assignment of the unseen types agrees with player %d's view", player);
        return -1;
    }
    for (int i = 0; i < src->plan.board_slots; i++) {
        src->slot_sq[i] = (uint8_t)sq_to_frame(src->plan.sq[i], player);
        src->slot_id[i] = (uint8_t)(s->board[src->slot_sq[i]] - 1);
    }
    src->chase_kept = 0;
    src->threat_kept[0] = src->threat_kept[1] = 0;
    src->chasing = r->chasing_rule;
    if (src->chasing) chase_prepare(s, src);
    base_prepare(s, src);
    return 0;
}

/* The hash of a rebuilt past position under the world's types. */
static uint64_t past_hash(const SamplePast *past, int opp, int board_slots, const uint8_t *types) {
    uint64_t h = past->known_hash;
    for (int i = 0; i < board_slots; i++) h ^= board_zobrist(opp, types[i], past->slot_sq[i]);
    return h;
}

void sample_game_world(const SampleSource *src, uint64_t *rng, GameState *world) {
    const SamplePlan *plan = &src->plan;
    uint8_t types[MAX_PIECES];
    sample_plan_draw(plan, rng, types);
    *world = *src->base;
    int opp = 1 - src->player;
    /* The board slots' share of what the base left out, for the drawn types. */
    uint64_t hash = world->hash;
    Bits scouts = bits_load(world->scouts[opp]), fixed = bits_load(world->fixed[opp]);
    int movable = world->movable[opp];
    for (int i = 0; i < plan->board_slots; i++) {
        int t = types[i], sq = src->slot_sq[i];
        world->piece_type[src->slot_id[i]] = (uint8_t)t;
        hash ^= board_zobrist(opp, t, sq);
        world->on_board[opp][t]++;
        movable += piece_type_is_movable(t);
        scouts |= bit_of(sq) & -(Bits)(t == SCOUT);
        fixed |= bit_of(sq) & -(Bits)!piece_type_is_movable(t);
    }
    for (int i = plan->board_slots; i < plan->slots; i++) world->piece_type[src->slot_id[i]] = types[i];
    world->hash = hash;
    world->movable[opp] = (uint8_t)movable;
    world->scouts[opp] = bits_store(scouts);
    world->fixed[opp] = bits_store(fixed);
    world->rng = rng_next(rng);
    /* Without the chasing rule the chase stays empty (game.c records none). */
    if (!src->chasing) return;
    Chase *c = &world->chase;
    /* Positions of the chase (and none left over from an earlier one: they would carry
     * the true types), the two latest threats, all under the world's types. */
    memset(c->positions, 0, sizeof(c->positions));
    c->count = c->active ? src->chase_kept : 0;
    for (int k = 0; k < c->count; k++) c->positions[k] = past_hash(&src->past[k], opp, plan->board_slots, types);
    for (int p = 0; p < PLAYER_NB; p++) {
        c->threat_hash[p] = src->threat_kept[p]
                                ? past_hash(&src->past[SAMPLE_CHASE_KEPT + p], opp, plan->board_slots, types)
                                : 0;
    }
}

typedef struct {
    const GameState *states;
    const Rules *r;
    const int64_t *players;
    int k;
    uint64_t seed;
    uint8_t *out;
    uint8_t *failed;
} SampleJob;

static void sample_games_range(void *ctx, int64_t begin, int64_t end) {
    const SampleJob *job = ctx;
    size_t bytes = save_game_bytes();
    char err[160];
    for (int64_t i = begin; i < end; i++) {
        const GameState *s = &job->states[i];
        SampleSource src;
        GameState base;
        int player = job->players ? (int)job->players[i] : s->to_move;
        job->failed[i] = sample_game_prepare(s, job->r, player, &src, &base, err, sizeof(err)) < 0;
        if (job->failed[i]) continue;
        uint64_t rng = sample_stream(job->seed, (uint64_t)i);
        for (int j = 0; j < job->k; j++) {
            GameState world;
            sample_game_world(&src, &rng, &world);
            save_game_write(&world, job->r, rng_next(&rng), job->out + ((size_t)i * (size_t)job->k + (size_t)j) * bytes);
        }
    }
}

void sample_games_worlds(const GameState *states, int64_t n, const Rules *r, const int64_t *players, int k,
                         uint64_t seed, uint8_t *out, uint8_t *failed, int num_threads) {
    SampleJob job = {states, r, players, k, seed, out, failed};
    /* A loop run once, not judged (pool.h): the batch's paces are not at hand here. */
    pool_run(NULL, num_threads, n, sample_games_range, &job);
}
