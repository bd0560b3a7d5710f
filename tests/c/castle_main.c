/* castle_main.c: the castle core (csrc/castle/) without Python, for tests/test_castle_core.py
 * (built with ASan and UBSan where the compiler has them). Random games of every mode and
 * of settings that switch each choice; after every decision the state passes
 * castle_state_check, the list, byte mask, packed mask, check and "any move" agree, every
 * seat's flag is somewhere, 20 pieces a seat are on the board or removed, sliders stay in
 * 0..5, and a move-phase position's text board reads back to the same text. The same
 * seed plays the same games. Prints one line per run and "ok".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "castle/castle.h"
#include "engine/rng.h"

static int failures;

#define CHECK(cond, ...)                                                                              \
    do {                                                                                              \
        if (!(cond)) {                                                                                \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                               \
            printf(__VA_ARGS__);                                                                      \
            printf("\n");                                                                             \
            if (++failures > 20) exit(1);                                                             \
        }                                                                                             \
    } while (0)

static uint64_t hash_state(const CastleState *s, uint64_t h) {
    const uint8_t *p = (const uint8_t *)s;
    for (size_t k = 0; k < sizeof(*s); k++) h = (h ^ p[k]) * 0x100000001B3ull;
    return h;
}

/* The invariants of one position (docs/castle.md): what castle_state_check does not
 * already say about a game in play. */
static void check_position(const CastleState *s, const CastleSettings *cfg) {
    const CastleGeometry *g = castle_geometry(s->mode);
    char err[256];
    CHECK(castle_state_check(s, cfg, err, sizeof(err)) == 0, "%s", err);
    for (int p = 0; p < s->seats; p++) {
        int on_board = 0, off = 0;
        for (int k = 0; k < CASTLE_PIECES; k++) on_board += s->node[p * CASTLE_PIECES + k] != CASTLE_NONE;
        for (int r = 1; r <= CASTLE_RANK_MAX; r++) off += s->removed[p][r];
        CHECK(on_board + off == CASTLE_PIECES, "seat %d: %d on the board + %d removed", p, on_board, off);
        CHECK(s->slider[p] <= 5, "slider %d", s->slider[p]);
        CHECK(s->flag_node[p] < g->nodes, "flag of %d nowhere", p);
    }
    /* The recruitment space of every seat starts empty and holds only what moved or was recruited there. */
    uint8_t mask[CASTLE_ACTIONS_MAX];
    int16_t list[CASTLE_ACTIONS_MAX];
    castle_legal_mask(s, cfg, mask);
    int n = castle_legal_list(s, cfg, list), count = 0;
    for (int a = 0; a < g->actions; a++) count += mask[a];
    CHECK(n == count, "list %d, mask %d", n, count);
    uint8_t bits[CASTLE_ACTIONS_MAX / 8];
    memset(bits, 0xAA, sizeof(bits));
    castle_legal_bits(s, cfg, bits);
    for (int a = 0; a < g->actions; a++) CHECK(((bits[a >> 3] >> (a & 7)) & 1) == mask[a], "bit %d differs", a);
    for (int a = g->actions; a < 8 * ((g->actions + 7) / 8); a++) CHECK(!((bits[a >> 3] >> (a & 7)) & 1), "bit %d past", a);
    for (int k = 1; k < n; k++) CHECK(list[k - 1] < list[k], "list not ascending");
    CHECK(s->done || n > 0, "a running game without a legal action");
    for (int k = 0; k < n; k++) CHECK(castle_check(s, cfg, list[k], err, sizeof(err)) == 0, "listed but refused: %s", err);
    if (!s->done && s->phase == CASTLE_PHASE_MOVE) {
        CHECK(castle_has_move(s, cfg, s->to_move), "to move without a move");
        for (int a = 0; a < g->actions; a += 7)
            if (!mask[a]) CHECK(castle_check(s, cfg, a, err, sizeof(err)) < 0 && err[0], "unlisted %d accepted", a);
    }
}

static void check_text_round_trip(const CastleState *s, const CastleSettings *cfg) {
    static char text[CASTLE_TEXT_MAX], again[CASTLE_TEXT_MAX];
    char err[256];
    CastleState back;
    castle_to_text(s, -1, text, sizeof(text));
    memset(&back, 0, sizeof(back));
    CHECK(castle_from_text(&back, cfg, text, err, sizeof(err)) == 0, "text does not read back: %s\n%s", err, text);
    castle_to_text(&back, -1, again, sizeof(again));
    CHECK(strcmp(text, again) == 0, "text round trip differs:\n%s\n---\n%s", text, again);
}

/* Random games; returns a hash of every state on the way (determinism). */
static uint64_t run(const char *label, CastleSettings cfg, int games, uint64_t seed) {
    CastleState s;
    int16_t list[CASTLE_ACTIONS_MAX];
    long plies = 0;
    int ends[CASTLE_END_NB] = {0}, kinds[CASTLE_ACT_NB] = {0};
    uint64_t h = 1469598103934665603ull, pick = rng_seed_stream(seed, 99, 1);
    for (int game = 0; game < games; game++) {
        memset(&s, 0, sizeof(s));
        s.rng = rng_seed_stream(seed, (uint64_t)game, 0);
        castle_reset(&s, &cfg);
        check_position(&s, &cfg);
        while (!s.done) {
            int n = castle_legal_list(&s, &cfg, list);
            if (n == 0) break;
            int a = list[rng_below(&pick, (uint32_t)n)];
            kinds[castle_geometry(s.mode)->action[a].kind]++;
            castle_apply(&s, &cfg, a);
            plies++;
            check_position(&s, &cfg);
            if (!s.done && s.phase == CASTLE_PHASE_MOVE && plies % 97 == 0) check_text_round_trip(&s, &cfg);
            h = hash_state(&s, h);
        }
        ends[s.end_reason]++;
    }
    printf("%s: %d games, %ld plies, turret %d stuck %d cap %d; moves %d drops %d shots %d takes %d leaves %d recruits %d "
           "declines %d\n",
           label, games, plies, ends[CASTLE_END_TURRET], ends[CASTLE_END_STUCK], ends[CASTLE_END_CAP],
           kinds[CASTLE_ACT_MOVE], kinds[CASTLE_ACT_DROP], kinds[CASTLE_ACT_SHOT], kinds[CASTLE_ACT_TAKE],
           kinds[CASTLE_ACT_LEAVE], kinds[CASTLE_ACT_RECRUIT], kinds[CASTLE_ACT_NO_RECRUIT]);
    return h;
}

int main(int argc, char **argv) {
    int games = argc > 1 ? atoi(argv[1]) : 6;
    castle_init();
    printf("state bytes %zu\n", sizeof(CastleState));
    for (int mode = 0; mode < CASTLE_MODE_NB; mode++) {
        CastleSettings cfg = castle_settings_default();
        cfg.mode = mode;
        cfg.max_plies = 1500;
        char label[64];
        snprintf(label, sizeof(label), "%s", castle_mode_name(mode));
        uint64_t h1 = run(label, cfg, games, 11);
        uint64_t h2 = run(label, cfg, games, 11);
        CHECK(h1 == h2, "%s: the same seed gave different games", label);
        /* Every switch away from its default. */
        cfg.cannon_over_lakes = 0;
        cfg.flag_recruit_owner = 1;
        cfg.scout_line_attack = 0;
        cfg.recruit_public = 0;
        cfg.back_and_forth = 1;
        cfg.abandon = 0;
        cfg.first_seat = 1;
        snprintf(label, sizeof(label), "%s-switched", castle_mode_name(mode));
        run(label, cfg, games, 12);
    }
    printf(failures ? "FAILED\n" : "ok\n");
    return failures != 0;
}
