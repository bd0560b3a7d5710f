#include "batch.h"

#include <stdatomic.h>
#include <string.h>

#include "bot.h"
#include "game.h"
#include "mask_bits.h"
#include "moves.h"
#include "observe_codes.h"
#include "observe_full.h"
#include "pool.h"
#include "view.h"
#include "rng.h"

size_t batch_obs_bytes(const Batch *b) {
    return b->obs_codes ? CODES_BYTES(b->obs_spec.history_k) : observe_bytes(&b->obs_spec);
}

int batch_mask_bytes(const Batch *b) {
    int n = rules_num_actions(&b->rules);
    return b->mask_bits ? MASK_BITS_BYTES(n) : n;
}

/* Writes player p's view v of game i into its row of `dst` (b->obs with b->obs_views, or
 * b->final_obs with b->final_views: `views` a game), and with codes and beliefs the
 * belief planes into `belief`'s row. */
static void batch_write_view(const Batch *b, int64_t i, int p, int views, const PlayerView *v, uint8_t *dst,
                             float *belief) {
    size_t row = (size_t)i * (size_t)views + (size_t)p;
    if (!b->obs_codes) {
        observe_partial(v, &b->obs_spec, dst + row * observe_bytes(&b->obs_spec));
        return;
    }
    observe_codes(v, &b->obs_spec, dst + row * CODES_BYTES(b->obs_spec.history_k));
    if (b->obs_spec.probabilities) observe_belief_planes(v, belief + row * PIECE_TYPE_NB * SQ_NB);
}

/* Writes game i's observation(s) into its row of `dst` (b->obs with b->obs_views, or
 * b->final_obs with b->final_views), and with codes and beliefs the belief planes into
 * `belief`: `views` 1 the view of `player`, 2 red's and blue's. */
static void batch_write_obs(const Batch *b, int64_t i, uint8_t *dst, float *belief, int views, int player) {
    size_t bytes = batch_obs_bytes(b);
    uint8_t *row = dst + (size_t)i * (size_t)views * bytes;
    const GameState *s = &b->states[i];
    /* Rows of a large batch have left the caches since the last step: fetch this one
     * while the view is built. Measured with one thread: steps/s +35% at 4096 games
     * (28 MB of rows), +5% at 1024 (7 MB), no change at 768, -4% at 256 and 512, whose rows
     * stay cached and the prefetches only cost instructions. */
    enum { PREFETCH_MIN_BYTES = 6 << 20 };
    if (!b->obs_codes && (size_t)b->num_envs * (size_t)views * bytes >= PREFETCH_MIN_BYTES)
        observe_prefetch(&b->obs_spec, row, views);
    /* Only the plies the encoder shows. */
    int plies = b->obs_spec.history_k;
    PlayerView view;
    if (views == 1) {
        view_build_recent(s, player, plies, &view);
        batch_write_view(b, i, 0, 1, &view, dst, belief);
    } else {
        for (int p = 0; p < PLAYER_NB; p++) {
            view_build_recent(s, p, plies, &view);
            batch_write_view(b, i, p, 2, &view, dst, belief);
        }
    }
}

/* Writes what the caller reads for game i after a reset or a step: the view of the
 * player to move, or the learner's in the learner-vs-opponent mode (also while a
 * finished game waits under NEXT_STEP or DISABLED, whoever would move). */
static void batch_write_turn(Batch *b, int64_t i) {
    const GameState *s = &b->states[i];
    int viewer = b->versus ? b->versus[i].learner : s->to_move;
    if (b->write_mask) {
        uint8_t *row = b->mask + i * batch_mask_bytes(b);
        game_legal_mask(s, &b->rules, row, b->mask_bits); /* all clear for a game left over */
    }
    b->to_play[i] = (int8_t)viewer;
    if (b->obs_views) batch_write_obs(b, i, b->obs, b->belief, b->obs_views, viewer);
    if (b->full_obs) {
        if (b->full_codes) observe_full_codes(s, viewer, b->full_obs + i * SQ_NB);
        else observe_full(s, viewer, b->full_obs + i * FULL_OBS_CHANNELS * SQ_NB);
    }
}

/* Clears game i's per-step results (no reward, nothing finished). */
static void batch_clear_results(Batch *b, int64_t i) {
    b->rewards[2 * i] = b->rewards[2 * i + 1] = b->reward[i] = 0.0f;
    b->terminated[i] = b->truncated[i] = 0;
    b->final_winner[i] = -1;
    b->final_reason[i] = END_NONE;
    b->final_plies[i] = 0;
}

/* Learner vs opponent: the opponent plays, from its own view, until the learner is to
 * move or the game is over (a turn with a rescue is two actions of one player). */
static void versus_reply(const Batch *b, GameState *s, VersusSlot *v) {
    while (!s->done && s->to_move != v->learner) {
        int action = bot_game_action(b->opponent, s, &b->rules, &v->rng);
        if (action < 0) break; /* a game not over always has a legal action (game.h) */
        game_apply_action(s, &b->rules, action);
    }
}

/* Starts game i's next episode in the learner-vs-opponent mode: the learner's colour
 * (fixed, drawn from the opponent's stream, or the other colour than last episode's),
 * new setups, and the opponent's opening plies when it moves first. Setups in which
 * those plies end the game are drawn again (as game_reset redraws setups where red
 * cannot move): no episode is handed out that ends before the learner's first move.
 * This leaves out, e.g., a Flag that red's first move takes; the setups a learner
 * sees are those of the two-player batch, conditioned on surviving the opening. */
static void versus_start(Batch *b, int64_t i, int first_episode) {
    GameState *s = &b->states[i];
    VersusSlot *v = &b->versus[i];
    switch (b->learner_mode) {
    case LEARNER_RANDOM:
        v->learner = (int8_t)rng_below(&v->rng, 2);
        break;
    case LEARNER_ALTERNATE:
        /* Even slots start red, odd ones blue, so both colours are played equally. */
        v->learner = (int8_t)(first_episode ? (int)(i % 2) : 1 - v->learner);
        break;
    default:
        v->learner = (int8_t)b->learner_mode;
        break;
    }
    for (int attempt = 0; attempt < 1000; attempt++) {
        game_reset(s, &b->rules, &b->setups);
        versus_reply(b, s, v);
        if (!s->done) return;
    }
}

/* Seeds game i's streams from (seed, i): setups, the sampler, the opponent. */
static void batch_seed_game(Batch *b, int64_t i, uint64_t seed) {
    b->states[i].rng = rng_seed_stream(seed, (uint64_t)i, 0);
    b->sample_rng[i] = rng_seed_stream(seed, (uint64_t)i, 1);
    if (b->versus) {
        memset(&b->versus[i], 0, sizeof(VersusSlot));
        b->versus[i].rng = rng_seed_stream(seed, (uint64_t)i, 2);
    }
}

/* Starts game i's next game (episode, against the opponent) from its streams. */
static void batch_start_game(Batch *b, int64_t i, int first_episode) {
    if (b->versus) {
        versus_start(b, i, first_episode);
    } else {
        game_reset(&b->states[i], &b->rules, &b->setups);
    }
}

typedef struct {
    Batch *b;
    const uint8_t *reset_mask; /* NULL: every game */
    int reseed;
    uint64_t seed;
} ResetJob;

static void batch_reset_games(void *ctx, int64_t begin, int64_t end) {
    const ResetJob *job = ctx;
    Batch *b = job->b;
    for (int64_t i = begin; i < end; i++) {
        if (job->reset_mask != NULL && !job->reset_mask[i]) continue;
        if (job->reseed) batch_seed_game(b, i, job->seed);
        batch_start_game(b, i, job->reseed);
        batch_clear_results(b, i);
        batch_write_turn(b, i);
    }
}

void batch_reset(Batch *b, uint64_t seed, int num_threads) {
    memset(&b->stats, 0, sizeof(b->stats));
    ResetJob job = {.b = b, .reset_mask = NULL, .reseed = 1, .seed = seed};
    pool_run(num_threads, b->num_envs, batch_reset_games, &job);
}

void batch_reset_some(Batch *b, const uint8_t *reset_mask, int reseed, uint64_t seed, int num_threads) {
    ResetJob job = {.b = b, .reset_mask = reset_mask, .reseed = reseed, .seed = seed};
    pool_run(num_threads, b->num_envs, batch_reset_games, &job);
}

static void batch_write_games(void *ctx, int64_t begin, int64_t end) {
    Batch *b = ctx;
    for (int64_t i = begin; i < end; i++) {
        batch_clear_results(b, i);
        batch_write_turn(b, i);
    }
}

void batch_write_outputs(Batch *b, int num_threads) {
    pool_run(num_threads, b->num_envs, batch_write_games, b);
}

int64_t batch_find_out_of_range(const Batch *b, const int64_t *actions) {
    int64_t num_actions = rules_num_actions(&b->rules);
    for (int64_t i = 0; i < b->num_envs; i++) {
        if (b->states[i].done) continue;
        if (actions[i] < 0 || actions[i] >= num_actions) return i;
    }
    return -1;
}

/* Asks the caches for a game's state, which a step touches in a dozen places across the
 * whole struct: fetched one game ahead, it arrives while the current game is stepped
 * (measured, 4096 games, 1 thread: +13% steps/s with the default observation). */
static inline void state_prefetch(const GameState *s) {
    for (size_t at = 0; at < sizeof(GameState); at += 64) __builtin_prefetch((const char *)s + at);
}

typedef struct {
    const Batch *b;
    const int64_t *actions;
    _Atomic int64_t first; /* smallest illegal game found so far, num_envs if none */
} FindJob;

static void batch_find_in(void *ctx, int64_t begin, int64_t end) {
    FindJob *job = ctx;
    const Batch *b = job->b;
    int64_t n = b->num_envs;
    for (int64_t i = begin; i < end; i++) {
        if (i + 1 < n) state_prefetch(&b->states[i + 1]);
        /* A game that is over (NEXT_STEP, DISABLED) ignores its action. */
        if (b->states[i].done || moves_check_action(&b->states[i], &b->rules, (int)job->actions[i]) == 0)
            continue;
        /* The first illegal game of this chunk; lower the shared minimum to it. */
        int64_t seen = atomic_load(&job->first);
        while (i < seen && !atomic_compare_exchange_weak(&job->first, &seen, i)) {
        }
        return;
    }
}

int64_t batch_find_illegal(const Batch *b, const int64_t *actions, int *code, int num_threads) {
    /* In parallel (it runs before every step in the default mode, so a serial scan would
     * bound the thread scaling); the first illegal game is the smallest index found. */
    FindJob job = {b, actions, b->num_envs};
    pool_run(num_threads, b->num_envs, batch_find_in, &job);
    int64_t first = atomic_load(&job.first);
    if (first == b->num_envs) return -1;
    *code = moves_check_action(&b->states[first], &b->rules, (int)actions[first]);
    return first;
}

/* A hash of one finished game, summed over games so that the total does not depend on
 * the order in which threads finish them. */
static uint64_t game_result_hash(int64_t index, const GameState *s) {
    uint64_t h = (uint64_t)index * 0x9E3779B97F4A7C15ull ^ ((uint64_t)s->ply << 16) ^
                 ((uint64_t)s->winner << 8) ^ s->end_reason;
    return rng_next(&h);
}

typedef struct {
    Batch *b;
    const int64_t *actions;
    int illegal_mode;
    /* Sums over the finished games, added chunk by chunk: addition commutes, so the
     * totals do not depend on which thread ran which chunk. */
    _Atomic int64_t finished, red, blue, draws, caps, plies;
    _Atomic uint64_t checksum;
} StepJob;

static void batch_step_games(void *ctx, int64_t begin, int64_t end) {
    StepJob *job = ctx;
    Batch *b = job->b;
    const Rules *r = &b->rules;
    int64_t n = b->num_envs;
    int64_t finished = 0, red = 0, blue = 0, draws = 0, caps = 0, plies = 0;
    uint64_t checksum = 0;
    for (int64_t i = begin; i < end; i++) {
        GameState *s = &b->states[i];
        if (i + 1 < n) state_prefetch(s + 1);
        /* A game over since an earlier step (never under SAME_STEP): its action is
         * ignored; NEXT_STEP starts its next game (episode) now, DISABLED waits for a
         * reset. */
        if (s->done) {
            if (b->autoreset != AUTORESET_NEXT_STEP) {
                batch_clear_results(b, i);
                continue;
            }
            batch_start_game(b, i, 0);
            batch_clear_results(b, i);
            batch_write_turn(b, i);
            continue;
        }
        int player = s->to_move; /* the learner, in the learner-vs-opponent mode */
        int action = (int)job->actions[i];
        if (job->illegal_mode == ILLEGAL_LOSES && moves_check_action(s, r, action) != 0) {
            game_forfeit(s);
        } else {
            game_apply_action(s, r, action);
        }
        if (b->versus) versus_reply(b, s, &b->versus[i]);
        float *rew = b->rewards + 2 * i;
        batch_clear_results(b, i);
        if (s->done) {
            /* Every end is a rule of the game, the caps included (a draw): terminated,
             * never truncated, which is left to limits outside the game. */
            b->terminated[i] = 1;
            b->final_reason[i] = s->end_reason;
            b->final_plies[i] = s->ply;
            if (s->winner != NO_WINNER) {
                b->final_winner[i] = (int8_t)s->winner;
                rew[s->winner] = 1.0f;
                rew[1 - s->winner] = -1.0f;
            }
            finished++;
            red += s->winner == RED;
            blue += s->winner == BLUE;
            draws += s->winner == NO_WINNER;
            caps += game_is_cap(s->end_reason);
            plies += s->ply;
            checksum += game_result_hash(i, s);
            if (b->autoreset == AUTORESET_SAME_STEP) {
                /* The learner's last view, whoever ended the game; in the two-player
                 * batch the view of the player who would move next (or both). */
                if (b->obs_views)
                    batch_write_obs(b, i, b->final_obs, b->final_belief, b->final_views,
                                    b->versus ? player : s->to_move);
                batch_start_game(b, i, 0);
            }
        }
        b->reward[i] = rew[player];
        batch_write_turn(b, i);
    }
    if (finished == 0) return;
    atomic_fetch_add(&job->finished, finished);
    atomic_fetch_add(&job->red, red);
    atomic_fetch_add(&job->blue, blue);
    atomic_fetch_add(&job->draws, draws);
    atomic_fetch_add(&job->caps, caps);
    atomic_fetch_add(&job->plies, plies);
    atomic_fetch_add(&job->checksum, checksum);
}

void batch_step(Batch *b, const int64_t *actions, int illegal_mode, int num_threads) {
    StepJob job = {.b = b, .actions = actions, .illegal_mode = illegal_mode};
    pool_run(num_threads, b->num_envs, batch_step_games, &job);
    b->stats.games_finished += atomic_load(&job.finished);
    b->stats.red_wins += atomic_load(&job.red);
    b->stats.blue_wins += atomic_load(&job.blue);
    b->stats.draws += atomic_load(&job.draws);
    b->stats.cap_draws += atomic_load(&job.caps);
    b->stats.plies_of_finished += atomic_load(&job.plies);
    b->stats.checksum += atomic_load(&job.checksum);
}

/* Set (non-zero) entries of a byte mask. numpy's bool is one byte and any non-zero
 * byte reads as True (a mask written through a uint8 view may hold 255 or 2), so a
 * block counts bytes that are not zero, not their sum. 16 bytes at a time with SSE2
 * where the compiler has it (x86-64 always does): min(byte, 1), then the sum of
 * absolute differences; 8 at a time elsewhere: each non-zero byte becomes 1, then a
 * multiply gathers the byte sum of a word. */
#ifdef __SSE2__
#include <emmintrin.h>
enum { MASK_BLOCK = 16 };
static inline int block_ones(const uint8_t *m) {
    __m128i bits = _mm_min_epu8(_mm_loadu_si128((const __m128i *)m), _mm_set1_epi8(1));
    __m128i sums = _mm_sad_epu8(bits, _mm_setzero_si128());
    return _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums));
}
#else
enum { MASK_BLOCK = 8 };
static inline int block_ones(const uint8_t *m) {
    uint64_t word;
    memcpy(&word, m, 8);
    /* Per byte: the high bit set iff the byte is non-zero, without carries between bytes. */
    uint64_t low7 = (word & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full;
    uint64_t ones = ((low7 | word) & 0x8080808080808080ull) >> 7;
    return (int)((ones * 0x0101010101010101ull) >> 56);
}
#endif

/* Ones in mask[0..n), with the ones of each 64-byte group kept in groups[], so that
 * finding the k-th one afterwards reads at most one group of the mask again. */
enum { MASK_GROUP = 64, MASK_GROUPS_MAX = (ACTION_MAX + MASK_GROUP - 1) / MASK_GROUP };

static int mask_count(const uint8_t *mask, int n, uint16_t *groups) {
    int total = 0, a = 0, g = 0;
    for (; a + MASK_GROUP <= n; a += MASK_GROUP, g++) {
        int ones = 0;
        for (int b = 0; b < MASK_GROUP; b += MASK_BLOCK) ones += block_ones(mask + a + b);
        groups[g] = (uint16_t)ones;
        total += ones;
    }
    for (; a < n; a++) total += mask[a] != 0;
    return total;
}

/* The k-th (0-based) set entry, k below the count mask_count() gave with groups. */
static int mask_select(const uint8_t *mask, int n, const uint16_t *groups, int k) {
    int a = 0;
    for (int g = 0; a + MASK_GROUP <= n; a += MASK_GROUP, g++) {
        if (k < groups[g]) break;
        k -= groups[g];
    }
    for (; a + MASK_BLOCK <= n; a += MASK_BLOCK) {
        int ones = block_ones(mask + a);
        if (k < ones) break;
        k -= ones;
    }
    for (; a < n; a++) {
        if (mask[a] && k-- == 0) return a;
    }
    return -1;
}

typedef struct {
    Batch *b;
    int64_t *actions;
} SampleJob;

static void batch_sample_games(void *ctx, int64_t begin, int64_t end) {
    const SampleJob *job = ctx;
    Batch *b = job->b;
    int64_t *actions = job->actions;
    int num_actions = rules_num_actions(&b->rules);
    for (int64_t i = begin; i < end; i++) {
        if (!b->write_mask) {
            uint16_t legal[ACTION_MAX];
            /* In action order, as the mask would give them, so both paths play the same
             * games. */
            int count = moves_list_ordered(&b->states[i], &b->rules, legal);
            actions[i] = count > 0 ? legal[rng_below(&b->sample_rng[i], (uint32_t)count)] : -1;
            continue;
        }
        /* Uniform over the set entries of the mask as it stands: the engine's legal mask,
         * or a narrower one the caller wrote into it. A row with none gives -1. Packed or
         * not, the k-th set entry in action order: the same games either way. */
        if (b->mask_bits) {
            const uint8_t *bits = b->mask + i * MASK_BITS_BYTES(num_actions);
            int count = mask_bits_count(bits, num_actions);
            actions[i] = count > 0 ? mask_bits_select(bits, num_actions, (int)rng_below(&b->sample_rng[i], (uint32_t)count))
                                   : -1;
            continue;
        }
        const uint8_t *mask = b->mask + i * num_actions;
        uint16_t groups[MASK_GROUPS_MAX];
        int count = mask_count(mask, num_actions, groups);
        actions[i] = count > 0 ? mask_select(mask, num_actions, groups,
                                             (int)rng_below(&b->sample_rng[i], (uint32_t)count))
                               : -1;
    }
}

void batch_sample_actions(Batch *b, int64_t *actions, int num_threads) {
    SampleJob job = {b, actions};
    pool_run(num_threads, b->num_envs, batch_sample_games, &job);
}

typedef struct {
    Batch *b;
    int kind;
    int64_t *actions;
} BotJob;

static void batch_bot_games(void *ctx, int64_t begin, int64_t end) {
    const BotJob *job = ctx;
    Batch *b = job->b;
    for (int64_t i = begin; i < end; i++) {
        if (i + 1 < b->num_envs) state_prefetch(&b->states[i + 1]);
        job->actions[i] = bot_game_action(job->kind, &b->states[i], &b->rules, &b->sample_rng[i]);
    }
}

void batch_bot_actions(Batch *b, int kind, int64_t *actions, int num_threads) {
    BotJob job = {b, kind, actions};
    pool_run(num_threads, b->num_envs, batch_bot_games, &job);
}
