/* main.c: the engine without Python, for gdb, sanitizers, valgrind and profilers.
 *
 *   stratego_main bench [num_envs] [steps] [threads] [obs 0|1|2] [digest 0|1] [record 0|1]
 *                                                                random games, timed; digest
 *                                                                also hashes every step's mask
 *                                                                and observations (slow: tests);
 *                                                                obs 2: codes + packed mask;
 *                                                                record 1: records every game
 *                                                                (record.h), the queue emptied
 *                                                                each step
 *   stratego_main records [num_envs] [steps] [threads]           every finished game's record
 *                                                                replayed and its result checked
 *   stratego_main perft FIELD TO_MOVE DEPTH                      move-sequence count
 *   stratego_main play [seed]                                    one random game, printed
 *   stratego_main saves [num_envs] [steps]                       save/load round trip
 *   stratego_main sample [games] [plies] [worlds]                hidden-state worlds a second
 *                                                                at `plies` plies of random games
 *
 * Build: make -C csrc (see csrc/Makefile; SANITIZE=1 for ASan+UBSan).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "stratego/batch.h"
#include "stratego/game.h"
#include "stratego/init.h"
#include "stratego/moves.h"
#include "stratego/observe.h"
#include "stratego/record.h"
#include "engine/rng.h"
#include "stratego/sample.h"
#include "stratego/save.h"

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* FNV-1a over a buffer: a digest of what the engine wrote, to compare builds (SIMD and
 * portable code paths must write the same bytes). */
static uint64_t digest_bytes(uint64_t h, const void *data, size_t len) {
    const uint8_t *p = data;
    for (size_t i = 0; i < len; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

/* A classic batch of n games with its own outputs (observations if with_obs; 2: codes
 * and the packed mask). 0, or -1 when memory runs out (bench_free frees what there is). */
typedef struct {
    Batch batch;
    BatchOutputs out;
} Bench;

static int bench_alloc(Bench *bench, int n, int with_obs, int record) {
    BatchConfig c;
    batch_config_default(&c, n);
    c.record_capacity = record ? record_capacity_bound(&c.rules) : 0;
    c.obs_views = c.final_views = with_obs ? 1 : 0;
    c.obs_spec.codes = (uint8_t)(with_obs == 2);
    c.mask_bits = with_obs == 2;
    memset(bench, 0, sizeof(*bench));
    if (batch_outputs_alloc(&c, &bench->out) < 0 || batch_init(&bench->batch, &c, &bench->out) < 0) {
        fprintf(stderr, "out of memory\n");
        return -1;
    }
    return 0;
}

static void bench_free(Bench *bench) {
    batch_free(&bench->batch);
    batch_outputs_free(&bench->out);
}

static int run_bench(int n, int steps, int threads, int with_obs, int digest, int record) {
    Bench bench;
    Batch *b = &bench.batch;
    int64_t *actions = malloc((size_t)n * sizeof(int64_t));
    int result = 1;
    if (bench_alloc(&bench, n, with_obs, record) < 0 || actions == NULL) goto done;
    batch_reset(b, 0, threads);
    uint64_t h = 0xcbf29ce484222325ULL;
    size_t mask_bytes = (size_t)n * (size_t)batch_mask_bytes(b);
    size_t obs_bytes = batch_obs_bytes(b);
    double start = now_seconds();
    for (int t = 0; t < steps; t++) {
        batch_sample_actions(b, actions, threads);
        batch_step(b, actions, ILLEGAL_RAISE, threads);
        if (record) recorder_clear_queue(&b->rec); /* handed out: the binding's copy left out */
        if (digest) {
            h = digest_bytes(h, b->out.mask, mask_bytes);
            if (with_obs) {
                h = digest_bytes(h, b->out.obs, (size_t)n * obs_bytes);
                h = digest_bytes(h, b->out.final_obs, (size_t)n * obs_bytes);
            }
        }
    }
    double secs = now_seconds() - start;
    if (digest) printf("digest %016llx\n", (unsigned long long)h);
    printf("%d games x %d steps, %d thread(s), obs %s%s: %.0f steps/s, %lld games finished, "
           "checksum %016llx\n",
           n, steps, threads, with_obs == 2 ? "codes+bits" : with_obs ? "on" : "off", record ? ", recorded" : "",
           (double)n * steps / secs,
           (long long)b->stats.games_finished, (unsigned long long)b->stats.checksum);
    result = 0;
done:
    bench_free(&bench);
    free(actions);
    return result;
}

/* Saves a batch after `steps` steps, loads the save into a second batch, then plays both
 * `steps` more steps: the same checksum and states, or exit 1. Then a corrupted copy and
 * one of other rules must be refused. Runs the save format under gdb and sanitizers. */
static int run_saves(int n, int steps) {
    Bench bench_a, bench_b;
    Batch *a = &bench_a.batch, *b = &bench_b.batch;
    int64_t *actions = malloc((size_t)n * sizeof(int64_t));
    uint8_t *blob = NULL;
    char err[300];
    int result = 1;
    memset(&bench_b, 0, sizeof(bench_b)); /* bench_free(&bench_b) is safe even when a's allocation fails */
    if (bench_alloc(&bench_a, n, 1, 0) < 0 || bench_alloc(&bench_b, n, 1, 0) < 0 || actions == NULL) goto done;
    batch_reset(a, 7, 1);
    batch_reset(b, 8, 1);
    for (int t = 0; t < steps; t++) {
        batch_sample_actions(a, actions, 1);
        batch_step(a, actions, ILLEGAL_RAISE, 1);
    }
    size_t len = save_batch_bytes(a);
    blob = malloc(len);
    if (blob == NULL) goto done;
    save_batch_write(a, blob);
    if (save_batch_check(b, blob, len, err, sizeof(err)) < 0) {
        fprintf(stderr, "saves: a fresh save was refused: %s\n", err);
        goto done;
    }
    save_batch_read(b, blob);
    batch_write_outputs(b, 1);
    for (int t = 0; t < steps; t++) {
        batch_sample_actions(a, actions, 1);
        batch_step(a, actions, ILLEGAL_RAISE, 1);
        batch_sample_actions(b, actions, 1);
        batch_step(b, actions, ILLEGAL_RAISE, 1);
    }
    if (a->stats.checksum != b->stats.checksum ||
        memcmp(a->states, b->states, (size_t)n * sizeof(GameState)) != 0) {
        fprintf(stderr, "saves: the loaded batch diverged\n");
        goto done;
    }
    /* The first board square of the last game: board and piece table must agree. */
    size_t last_board = len - (size_t)n * sizeof(uint64_t) - sizeof(GameState) + offsetof(GameState, board);
    blob[last_board] ^= 0x5a;
    int corrupt_refused = save_batch_check(b, blob, len, err, sizeof(err)) < 0;
    blob[last_board] ^= 0x5a;
    b->rules.two_square_limit = 5;
    int rules_refused = save_batch_check(b, blob, len, err, sizeof(err)) < 0;
    b->rules.two_square_limit = a->rules.two_square_limit;
    printf("saves: %zu bytes for %d games (header %zu, format version %d); loaded and replayed "
           "%d steps identically, checksum %016llx; %s; other rules refused: %s\n",
           len, n, sizeof(SaveHeader), SAVE_VERSION, steps, (unsigned long long)a->stats.checksum,
           corrupt_refused ? "a corrupted board refused" : "a corrupted board NOT refused",
           rules_refused ? err : "NO");
    result = corrupt_refused && rules_refused ? 0 : 1;
done:
    bench_free(&bench_a);
    bench_free(&bench_b);
    free(actions);
    free(blob);
    return result;
}

static int run_perft(const char *field, int to_move, int depth) {
    GameState s;
    Rules r;
    char err[200];
    rules_default(&r);
    if (board_from_field(&s, field, strlen(field), err, sizeof(err)) < 0) {
        fprintf(stderr, "bad field: %s\n", err);
        return 1;
    }
    s.to_move = (uint8_t)(to_move != 0);
    game_judge_start(&s, &r);
    printf("%llu\n", (unsigned long long)game_perft(&s, &r, depth));
    return 0;
}

static int run_play(uint64_t seed) {
    GameState s;
    Rules r;
    uint16_t legal[ACTION_MAX];
    uint64_t pick = rng_seed_stream(seed, 0, 1);
    char field[SQ_NB + 1] = {0};
    rules_default(&r);
    s.rng = rng_seed_stream(seed, 0, 0);
    game_reset_random(&s, &r);
    board_to_field(&s, field);
    printf("start %s\n", field);
    while (!s.done) {
        int n = moves_list(&s, &r, legal);
        int from, to, action = legal[rng_below(&pick, (uint32_t)n)];
        action_decode(s.to_move, action, &from, &to);
        printf("%u %c%c-%c%c\n", s.ply + 1, "ABCDEFGHIK"[from % 10], "123456789:"[from / 10],
               "ABCDEFGHIK"[to % 10], "123456789:"[to / 10]);
        game_apply_action(&s, &r, action);
    }
    printf("end reason %d winner %d after %u plies\n", s.end_reason, s.winner, s.ply);
    return 0;
}

/* Worlds a second on one core (sample.h): `games` random games played to `plies` plies
 * (a game that ends first is drawn again, at most SAMPLE_ATTEMPTS times), `worlds`
 * worlds of each for the player to move. The checksum folds every world's hash: the
 * same for every build that samples the same worlds. */
enum { SAMPLE_ATTEMPTS = 1000 };

static int run_sample(int games, int plies, int worlds) {
    Rules r;
    rules_default(&r);
    uint16_t legal[ACTION_MAX];
    uint64_t checksum = 0, drawn = 0;
    double seconds = 0, cpu = 0;
    /* Every game ends by the ply cap: none would stand unfinished at `plies`. */
    if (r.max_plies && plies >= r.max_plies) {
        fprintf(stderr, "plies must be below the ply cap %u (a game there is over), got %d\n", r.max_plies, plies);
        return 2;
    }
    for (int g = 0; g < games; g++) {
        GameState s;
        for (uint64_t attempt = 0;; attempt++) {
            if (attempt == SAMPLE_ATTEMPTS) {
                fprintf(stderr, "game %d: %d random games all ended before ply %d\n", g, SAMPLE_ATTEMPTS, plies);
                return 2;
            }
            uint64_t pick = rng_seed_stream((uint64_t)g, attempt, 1);
            s.rng = rng_seed_stream((uint64_t)g, attempt, 0);
            game_reset_random(&s, &r);
            while (!s.done && s.ply < (uint32_t)plies) {
                int n = moves_list(&s, &r, legal);
                game_apply_action(&s, &r, legal[rng_below(&pick, (uint32_t)n)]);
            }
            if (!s.done) break;
        }
        SampleSource src;
        GameState base;
        char err[160];
        if (sample_game_prepare(&s, &r, s.to_move, &src, &base, err, sizeof(err)) < 0) {
            fprintf(stderr, "game %d: %s\n", g, err);
            return 1;
        }
        uint64_t rng = sample_stream(0, (uint64_t)g);
        GameState world;
        double t0 = now_seconds(), c0 = cpu_seconds();
        for (int w = 0; w < worlds; w++) {
            sample_game_world(&src, &rng, &world);
            checksum = checksum * 31 + world.hash;
        }
        seconds += now_seconds() - t0;
        cpu += cpu_seconds() - c0;
        drawn += (uint64_t)worlds;
    }
    /* Per CPU second too: on a shared machine the wall clock counts other work. */
    printf("%d games at ply %d x %d worlds: %.0f worlds/s on one core (%.0f per CPU second), checksum %016llx\n",
           games, plies, worlds, (double)drawn / seconds, (double)drawn / cpu, (unsigned long long)checksum);
    return 0;
}

/* Plays a recording batch of n games and replays every finished game's record from its
 * start (record_replay: each action checked legal), which must end as the batch's game
 * did: over, with its winner, reason and length. Exit 1 at the first that does not. */
static int run_records(int n, int steps, int threads) {
    Bench bench;
    Batch *b = &bench.batch;
    int64_t *actions = malloc((size_t)n * sizeof(int64_t));
    int result = 1;
    long long checked = 0;
    char err[200];
    if (bench_alloc(&bench, n, 0, 1) < 0 || actions == NULL) goto done;
    batch_reset(b, 0, threads);
    for (int t = 0; t < steps; t++) {
        batch_sample_actions(b, actions, threads);
        batch_step(b, actions, ILLEGAL_RAISE, threads);
        const RecordQueue *q = &b->rec.queue;
        for (size_t at = 0; at < q->len; ) {
            RecordEntry e;
            memcpy(&e, q->data + at, sizeof(e));
            uint32_t kept = record_kept(&b->rec, &e.sheet);
            GameState s;
            /* The actions follow the entry, 8-byte aligned (record.h). */
            const uint16_t *moves = (const uint16_t *)(const void *)(q->data + at + sizeof(e));
            int bad = record_replay(&e.sheet, moves, kept, &b->rules, &s, err, sizeof(err));
            int winner = s.winner == NO_WINNER ? -1 : s.winner;
            if (bad || kept != e.sheet.count || !s.done || s.ply != e.sheet.plies || winner != e.sheet.winner ||
                s.end_reason != e.sheet.reason) {
                fprintf(stderr, "step %d, game %lld: the record does not replay to its result%s%s\n", t,
                        (long long)e.game, bad ? ": " : "", bad ? err : "");
                goto done;
            }
            checked++;
            at += record_entry_bytes(&b->rec, e.sheet.count);
        }
        recorder_clear_queue(&b->rec);
    }
    printf("%lld records replayed to their results (%d games x %d steps, %d thread(s))\n", checked, n, steps,
           threads);
    result = checked > 0 ? 0 : 1;
done:
    bench_free(&bench);
    free(actions);
    return result;
}

int main(int argc, char **argv) {
    stratego_init();
    if (argc >= 2 && strcmp(argv[1], "bench") == 0) {
        int n = argc > 2 ? atoi(argv[2]) : 4096, steps = argc > 3 ? atoi(argv[3]) : 500;
        int threads = argc > 4 ? atoi(argv[4]) : 1, obs = argc > 5 ? atoi(argv[5]) : 1;
        int digest = argc > 6 ? atoi(argv[6]) : 0, record = argc > 7 ? atoi(argv[7]) : 0;
        if (n < 1 || steps < 1 || threads < 1 || obs < 0 || obs > 2) {
            fprintf(stderr, "num_envs, steps and threads must be >= 1, obs 0 (none), 1 (planes) or 2 (codes + packed mask)\n");
            return 2;
        }
        return run_bench(n, steps, threads, obs, digest, record);
    }
    if (argc == 5 && strcmp(argv[1], "perft") == 0) {
        int depth = atoi(argv[4]);
        if (depth < 0 || depth > 8) {
            fprintf(stderr, "perft depth must be in [0, 8]\n");
            return 2;
        }
        return run_perft(argv[2], atoi(argv[3]), depth);
    }
    if (argc >= 2 && strcmp(argv[1], "saves") == 0) {
        int n = argc > 2 ? atoi(argv[2]) : 64, steps = argc > 3 ? atoi(argv[3]) : 300;
        if (n < 1 || steps < 1) {
            fprintf(stderr, "num_envs and steps must be >= 1\n");
            return 2;
        }
        return run_saves(n, steps);
    }
    if (argc >= 2 && strcmp(argv[1], "sample") == 0) {
        int games = argc > 2 ? atoi(argv[2]) : 64, plies = argc > 3 ? atoi(argv[3]) : 100;
        int worlds = argc > 4 ? atoi(argv[4]) : 10000;
        if (games < 1 || plies < 0 || worlds < 1) {
            fprintf(stderr, "games and worlds must be >= 1, plies >= 0\n");
            return 2;
        }
        return run_sample(games, plies, worlds);
    }
    if (argc >= 2 && strcmp(argv[1], "records") == 0) {
        int n = argc > 2 ? atoi(argv[2]) : 256, steps = argc > 3 ? atoi(argv[3]) : 1000;
        int threads = argc > 4 ? atoi(argv[4]) : 1;
        if (n < 1 || steps < 1 || threads < 1) {
            fprintf(stderr, "num_envs, steps and threads must be >= 1\n");
            return 2;
        }
        return run_records(n, steps, threads);
    }
    if (argc >= 2 && strcmp(argv[1], "play") == 0) {
        return run_play(argc > 2 ? strtoull(argv[2], NULL, 10) : 0);
    }
    fprintf(stderr, "usage: %s bench [num_envs steps threads obs digest record] | perft FIELD TO_MOVE DEPTH | "
            "play [seed] | saves [num_envs steps] | records [num_envs steps threads] | sample [games plies worlds]\n",
            argv[0]);
    return 2;
}
