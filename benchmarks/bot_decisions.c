/* bot_decisions.c: the bots' decisions alone, without Python, for profilers and for
 * callgrind's instruction counts (robust on a shared machine, where timings are not).
 *
 *   cc -O3 -g -std=c11 -pthread -Icsrc benchmarks/bot_decisions.c $(ls csrc/*.c | grep -v main.c) \
 *      -o benchmarks/bot_decisions
 *   benchmarks/bot_decisions [games] [rounds] [bot name: only this bot]
 *   valgrind --tool=callgrind --toggle-collect=decide benchmarks/bot_decisions 512 1 heuristic
 *       (instructions per decision: the Ir collected over the decisions printed)
 *
 * It plays `games` classic games with random setups by random moves to plies spread
 * over 0..239 (the opening and the middle game, where most decisions fall), then asks
 * each bot `rounds` times for every position still on, and prints decisions per second
 * and a checksum of the actions chosen (a change of the heuristic's play shows there).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stratego/board.h"
#include "stratego/bots/bot.h"
#include "stratego/game.h"
#include "stratego/init.h"
#include "engine/rng.h"

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Every decision of bot `kind` on the positions, `rounds` times; a checksum of them.
 * Apart, so that callgrind can count its instructions alone (--toggle-collect=decide). */
__attribute__((noinline)) static uint64_t decide(int kind, const GameState *states, int n, int rounds,
                                                 const Rules *rules) {
    uint64_t checksum = 0;
    for (int round = 0; round < rounds; round++) {
        for (int g = 0; g < n; g++) {
            uint64_t rng = rng_seed_stream(2, (uint64_t)g, (uint64_t)round);
            int action = bot_game_action(kind, &states[g], rules, &rng);
            checksum = (checksum ^ (uint64_t)(action + 1)) * 0x100000001b3ULL;
        }
    }
    return checksum;
}

int main(int argc, char **argv) {
    int games = argc > 1 ? atoi(argv[1]) : 2048, rounds = argc > 2 ? atoi(argv[2]) : 20;
    int only = argc > 3 ? bot_kind_from_name(argv[3]) : -1;
    if (games <= 0 || rounds <= 0 || (argc > 3 && only < 0)) {
        fprintf(stderr, "usage: %s [games > 0] [rounds > 0] [random|heuristic|pimc]\n", argv[0]);
        return 2;
    }
    stratego_init();
    Rules rules;
    rules_default(&rules);
    GameState *states = malloc((size_t)games * sizeof(GameState));
    if (!states) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    int live = 0;
    for (int g = 0; g < games; g++) {
        GameState *s = &states[live];
        s->rng = rng_seed_stream(1, (uint64_t)g, 0);
        game_reset_random(s, &rules);
        uint64_t rng = rng_seed_stream(1, (uint64_t)g, 1);
        int plies = (int)(g % 240);
        for (int p = 0; p < plies && !s->done; p++) {
            game_apply_action(s, &rules, bot_game_action(BOT_RANDOM, s, &rules, &rng));
        }
        if (!s->done) live++;
    }
    for (int kind = 0; kind < BOT_KIND_NB; kind++) {
        if (only >= 0 && kind != only) continue;
        /* The PIMC bot searches (milliseconds a decision): only when asked by name. */
        if (only < 0 && kind == BOT_PIMC) continue;
        double t0 = now_seconds();
        uint64_t checksum = decide(kind, states, live, rounds, &rules);
        double secs = now_seconds() - t0;
        printf("%-10s %8.3f M decisions/s (%d positions x %d rounds), checksum %016llx\n", bot_name(kind),
               (double)live * rounds / secs / 1e6, live, rounds, (unsigned long long)checksum);
    }
    free(states);
    return 0;
}
