/* bot_action.c: the action of any bot for a game (bot.h's bot_game_action). Above both
 * bridges, so that they call each other in one direction only: the PIMC bot
 * (bot_pimc.c) plays the view bots (bot_game.c) in its worlds. */
#include "bot.h"

#include "stratego/board.h"

int bot_game_action(int kind, const GameState *s, const Rules *r, uint64_t *rng) {
    /* A finished game and the deployment are the view bridge's for every bot. */
    if (kind == BOT_PIMC && !s->done && s->phase != PHASE_DEPLOY) return bot_pimc_action(s, r, rng);
    return bot_game_view_action(kind, s, r, rng);
}
