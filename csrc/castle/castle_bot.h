/* castle_bot.h: castle bots, each choosing one action from what its seat may know.
 *
 * A bot reads a CastleView (what one seat may know, A12: positions, flags and carriers,
 * sliders and removed piles, its own ranks and the ranks fights, shots and public
 * recruitments showed) and the seat's legal actions, never the game. castle_view_build
 * (bot_view.c) is the only bot code that reads a CastleState; bot.c poisons the state's
 * name and the slot-to-rank table after its includes, so a bot that read a hidden rank
 * would not compile. The legal actions are public to their seat (they follow from its
 * own pieces, the occupied nodes, its own back-and-forth count and the settings).
 *
 * Bots (castle_bot_name gives the names Python uses):
 *  - CASTLE_BOT_RANDOM: legal[rng_below(n)], a uniformly random legal action.
 *  - CASTLE_BOT_HEURISTIC: scores every legal action from the view (bot.c says how):
 *    never attacks a piece it knows to be stronger while it has another action, takes
 *    known weaker pieces, carries its own flag toward the turret, fetches it when it
 *    lies alone, attacks carriers, keeps pieces near its carrier; ties broken by the
 *    stream.
 * Determinism: a choice is a function of (view, settings, legal actions, stream state);
 * a bot advances only the stream it is given.
 */
#ifndef CASTLE_BOT_H
#define CASTLE_BOT_H

#include <stdint.h>

#include "castle.h"

typedef enum { CASTLE_BOT_RANDOM = 0, CASTLE_BOT_HEURISTIC = 1, CASTLE_BOT_KIND_NB } CastleBotKind;

/* One seat's knowledge of a game (A12). Pieces are listed by node with their seat and,
 * only when the viewer knows it, their rank: no piece identity (a slot number would
 * tell its rank, castle.h's CASTLE_SLOT_RANK). */
typedef struct {
    const CastleGeometry *g;
    uint8_t mode, seats, seat, phase; /* seat: the viewer, who is to decide */
    uint8_t take_node;                /* TAKE phase: where the moved piece stands */
    uint8_t owner[CASTLE_NODES_MAX];  /* seat of the piece on a node, or CASTLE_NONE */
    uint8_t rank[CASTLE_NODES_MAX];   /* its rank if the viewer knows it, else 0 */
    uint8_t carry[CASTLE_NODES_MAX];  /* seat whose flag it carries, or CASTLE_NONE */
    uint8_t flag_node[CASTLE_SEATS_MAX], flag_lone[CASTLE_SEATS_MAX], flag_abandoned[CASTLE_SEATS_MAX];
    uint8_t slider[CASTLE_SEATS_MAX];
    uint8_t removed[CASTLE_SEATS_MAX][CASTLE_RANK_MAX + 1]; /* public piles, by rank */
    /* Pieces on the board whose rank the viewer does not know, by seat and rank: A3's
     * counts less the removed and the known ones (public facts and the viewer's own). */
    uint8_t unknown[CASTLE_SEATS_MAX][CASTLE_RANK_MAX + 1];
    uint8_t unknown_total[CASTLE_SEATS_MAX];
} CastleView;

/* The view of `seat` (bot_view.c). */
void castle_view_build(const CastleState *s, int seat, CastleView *v);

/* The name of a bot kind ("random", "heuristic"), or NULL out of range; the kind named
 * `name`, or -1. */
const char *castle_bot_name(int kind);
int castle_bot_kind_from_name(const char *name);

/* The action bot `kind` plays: one of legal[0..n), the seat's legal actions in
 * ascending order (castle_legal_list); -1 when n is 0. */
int castle_bot_choose(int kind, const CastleView *v, const CastleSettings *cfg, const int16_t *legal, int n,
                      uint64_t *rng);

/* The bridge for callers that hold a game (the binding, a batch): the view of the seat
 * to decide, its legal list, castle_bot_choose. -1 once the game is over. */
int castle_bot_action(const CastleState *s, const CastleSettings *cfg, int kind, uint64_t *rng);

#endif
