/* bot_game.c: the one bridge from a game to a bot that decides from the view (random,
 * heuristic). It builds what the player to move may know (its view and its legal
 * actions) and hands only that to bot_choose, which lives apart in bot.c where the game
 * state is an incomplete type. The PIMC bot, which plays these bots in its worlds, is
 * above it (bot_pimc.c), and bot_action.c over both. */
#include "bot.h"

#include "stratego/board.h"
#include "stratego/moves.h"
#include "engine/rng.h"

int bot_game_view_action(int kind, const GameState *s, const Rules *r, uint64_t *rng) {
    if (s->done) return -1;
    uint16_t legal[ACTION_MAX];
    /* Every bot deploys by random placement: a uniform pick among the legal placements
     * (issue 19; a human setup drawn at random is the setup source "human" instead). */
    if (s->phase == PHASE_DEPLOY) {
        int n = moves_list(s, r, legal);
        return legal[rng_below(rng, (uint32_t)n)];
    }
    PlayerView view;
    /* The random bot reads no view: not building it keeps it as fast as the sampler. */
    if (kind != BOT_RANDOM) view_build_recent(s, s->to_move, BOT_VIEW_PLIES, &view);
    if (kind == BOT_HEURISTIC && s->phase == PHASE_MOVE) {
        /* The move the view proposes is almost always legal; the legal list only when
         * the rules refuse it. The check reads the game, but legality is public to
         * the player (its own pieces and moves, the occupied squares). */
        int action = bot_heuristic_propose(&view, r, rng);
        if (action >= 0 && moves_check_action(s, r, action) == 0) return action;
    }
    int n = moves_list_ordered(s, r, legal);
    return bot_choose(kind, &view, r, legal, n, rng);
}
