/* bot.c: the bots' names and the choice among legal actions by kind; the random bot is
 * one line here, the heuristic is bot_heuristic.c. */
#include "bot.h"

#include <string.h>

#include "engine/rng.h"

static const char *const BOT_NAMES[BOT_KIND_NB] = {"random", "heuristic", "pimc"};

const char *bot_name(int kind) { return kind >= 0 && kind < BOT_KIND_NB ? BOT_NAMES[kind] : NULL; }

int bot_kind_from_name(const char *name) {
    for (int k = 0; k < BOT_KIND_NB; k++) {
        if (strcmp(name, BOT_NAMES[k]) == 0) return k;
    }
    return -1;
}

int bot_choose(int kind, const PlayerView *v, const Rules *r, const uint16_t *legal, int n, uint64_t *rng) {
    if (n <= 0) return -1;
    /* PIMC needs the game (bot_game_action); from a view alone it plays as the heuristic. */
    if (kind == BOT_HEURISTIC || kind == BOT_PIMC) return bot_heuristic_choose(v, r, legal, n, rng);
    return legal[rng_below(rng, (uint32_t)n)];
}
