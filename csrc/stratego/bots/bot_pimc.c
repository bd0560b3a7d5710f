/* bot_pimc.c: the perfect-information Monte Carlo bot (bot.h, BOT_PIMC).
 *
 * A decision: draw PIMC_WORLDS worlds the player to move cannot tell from the game
 * (sample.h: from its view alone, uniformly), play each legal action in each world,
 * follow it with PIMC_PLAYOUT_PLIES plies of the heuristic bot for both sides, and
 * score the end: +1 a win, -1 a loss, 0 a draw, else the material balance in [-1, 1]
 * (BOT_PIECE_VALUE, own minus the opponent's over their sum). The action with the best
 * mean over the worlds is played (drawn among equals). Every world
 * faces the same actions: the legal actions are public to their player.
 *
 * Like bot_game.c this is a bridge: it reads the true game only through the sampler
 * (which builds the player's view) and the legal actions; the worlds hold no hidden
 * type of the game (sample_game.c). A position the sampler refuses, or a rescue phase,
 * is played by the heuristic.
 */
#include "bot.h"

#include "stratego/board.h"
#include "stratego/game.h"
#include "stratego/moves.h"
#include "engine/rng.h"
#include "stratego/sample.h"

/* How much better (in mean evaluation, of 2) an action must do than the heuristic's. */
static const float PIMC_MARGIN = 0.1f;

/* The end of a playout for `player`: the result, or the material balance. */
static float pimc_evaluate(const GameState *s, int player) {
    if (s->done) return s->winner == player ? 1.0f : s->winner == NO_WINNER ? 0.0f : -1.0f;
    float own = 0.0f, opp = 0.0f;
    for (int t = 0; t < PIECE_TYPE_NB; t++) {
        if (t == FLAG) continue;
        own += BOT_PIECE_VALUE[t] * (float)s->on_board[player][t];
        opp += BOT_PIECE_VALUE[t] * (float)s->on_board[1 - player][t];
    }
    return own + opp > 0.0f ? (own - opp) / (own + opp) : 0.0f;
}

int bot_pimc_action(const GameState *s, const Rules *r, uint64_t *rng) {
    uint16_t legal[ACTION_MAX];
    float score[ACTION_MAX];
    SampleSource src;
    GameState base;
    char err[160];
    int n = moves_list_ordered(s, r, legal), player = s->to_move;
    if (n <= 1) return n == 1 ? legal[0] : -1;
    if (s->phase != PHASE_MOVE || sample_game_prepare(s, r, player, &src, &base, err, sizeof(err)) < 0)
        return bot_game_view_action(BOT_HEURISTIC, s, r, rng);
    /* The heuristic's move is the default; the worlds overrule it only by a margin. */
    int prior = bot_game_view_action(BOT_HEURISTIC, s, r, rng), prior_i = 0;
    for (int i = 0; i < n; i++) {
        score[i] = 0.0f;
        if (legal[i] == prior) prior_i = i;
    }
    for (int w = 0; w < PIMC_WORLDS; w++) {
        GameState world;
        sample_game_world(&src, rng, &world);
        /* Common random numbers: every action's playout in this world draws on the same
         * stream, so the actions differ by what they do, not by the playouts' luck. */
        uint64_t playout_stream = rng_next(rng);
        for (int i = 0; i < n; i++) {
            GameState child = world;
            uint64_t playout_rng = playout_stream;
            game_apply_action(&child, r, legal[i]);
            for (int ply = 0; ply < PIMC_PLAYOUT_PLIES && !child.done; ply++)
                game_apply_action(&child, r, bot_game_view_action(BOT_HEURISTIC, &child, r, &playout_rng));
            score[i] += pimc_evaluate(&child, player);
        }
    }
    /* The best mean, drawn among equals (quiet moves often tie). */
    int best = 0, ties = 1;
    for (int i = 1; i < n; i++) {
        if (score[i] > score[best]) {
            best = i;
            ties = 1;
        } else if (score[i] == score[best] && rng_below(rng, (uint32_t)++ties) == 0) {
            best = i;
        }
    }
    if (score[best] - score[prior_i] < PIMC_MARGIN * PIMC_WORLDS) return prior;
    return legal[best];
}
