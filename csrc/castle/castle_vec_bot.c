/* castle_vec_bot.c: the castle bots over a batch (castle_vec_bot.h). */
#include "castle_vec_bot.h"

#include "castle_bot.h"
#include "engine/pool.h"

typedef struct {
    CastleBatch *b;
    int kind;
    const uint8_t *games;
    int64_t *out;
} BotJob;

static void bot_task(void *ctx, int64_t begin, int64_t end) {
    BotJob *job = ctx;
    CastleBatch *b = job->b;
    for (int64_t i = begin; i < end; i++)
        job->out[i] = job->games != NULL && !job->games[i]
                          ? -1
                          : castle_bot_action(&b->states[i], &b->cfg, job->kind, &b->sample_rng[i]);
}

void castle_batch_bot_actions(CastleBatch *b, int kind, const uint8_t *games, int64_t *out, int threads) {
    BotJob job = {b, kind, games, out};
    pool_run(&b->paces, threads, b->num_envs, bot_task, &job);
}
