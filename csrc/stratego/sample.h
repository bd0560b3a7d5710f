/* sample.h: worlds a player cannot tell from the true game, drawn uniformly.
 *
 * A world gives every opponent piece the player has not identified (on the board, and
 * under silent defense among the captured) a type, uniformly over all the assignments
 * that agree with the information listed below (not all the player saw: see "Not
 * used"), and is a full game that plays on from there.
 * The information is exactly what the belief planes use (observe.c,
 * observe_belief_planes), read from the same PlayerView:
 *
 *   - the piece set is public, so the unidentified pieces hold the types the view
 *     counts as unseen (opp_unknown);
 *   - a piece that moved is no Bomb or Flag (a rescued piece counts as moved);
 *   - a piece captured unseen is not the Flag (a captured Flag ends the game, and a
 *     finished game is refused);
 *   - a piece whose straight two-square move showed a Scout or a Captain (variants whose
 *     Captains move two) is one of those two.
 *
 * Not used, by either (documented in docs/sampling.md): fight outcomes under silent
 * defense (a piece that beat an own Sergeant is above it), that the opponent is still
 * able to move, and what the presence or absence of a rescue phase shows.
 *
 * Exactness. The assignments factor: the Flags go to unmoved pieces on the board, the
 * Bombs to the other unmoved pieces (board or captured), and the movable types to the
 * rest, with the narrowed pieces taking Scouts or Captains. The number of ways to
 * complete any choice of the Flags' places does not depend on which places (likewise
 * the Bombs'), and the movable types, a multiset dealt onto the remaining pieces, are
 * uniform over their arrangements once the narrowed pieces draw theirs from the
 * Scouts and Captains alone. So the draw is: a uniform subset of the unmoved board
 * pieces for the Flags, a uniform subset of the unmoved rest for the Bombs, the
 * narrowed pieces' types drawn without replacement from the unseen Scouts and
 * Captains, and a uniform shuffle of the movable types left onto the other pieces
 * (partial Fisher-Yates each). Every consistent assignment then has the same chance,
 *   1 / C(u, f) * 1 / C(u + uc - f, b) * prod_t(c_t!) / ((pair)_n (M - n)!)
 * (u unmoved board pieces, uc unmoved captured ones, f Flags, b Bombs, c_t the unseen
 * movable types, pair of them Scouts and Captains, n narrowed pieces, M movable types in
 * all, (x)_n the falling factorial), whatever the assignment: no rejection, no table, and
 * no malloc; rng_below's bias (below 2^-48) is the only departure from exact.
 *
 * The wall: sample_plan_build and sample_plan_draw read only a PlayerView (this file
 * and sample.c know GameState as an incomplete type, like the bots). The bridge,
 * sample_game.c, is the one place that turns slots into piece ids and writes worlds.
 */
#ifndef STRATEGO_SAMPLE_H
#define STRATEGO_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"
#include "view.h"

/* What one view leaves open: its slots (the unidentified opponent pieces) and the types
 * to deal onto them. Slots 0..board_slots-1 stand on the board (frame squares in sq[],
 * increasing); the captured ones follow, unmoved, then narrowed, then moved. */
typedef struct {
    uint8_t slots, board_slots;
    uint8_t captured_unmoved, captured_narrowed, captured_moved;
    uint8_t sq[MAX_PIECES];
    /* Slot lists by what a slot may hold: the unmoved ones (board first: the first
     * unmoved_board may hold the Flag), the narrowed (Scout or Captain), the other moved. */
    uint8_t unmoved[MAX_PIECES], narrowed[MAX_PIECES], moved[MAX_PIECES];
    uint8_t unmoved_board, unmoved_n, narrowed_n, moved_n;
    uint8_t flags, bombs; /* unseen Flags and Bombs */
    uint8_t pair;         /* unseen Scouts and Captains: deck[0..pair) */
    uint8_t movable;      /* unseen movable types: deck[0..movable) */
    uint8_t deck[MAX_PIECES];
} SamplePlan;

/* The plan of view v: 0, or -1 when no assignment agrees with v (a state that breaks
 * the rules' own invariants; never for a game these rules played, unless finished). */
int sample_plan_build(const PlayerView *v, SamplePlan *plan);

/* Draws one assignment uniformly: types[i] for slot i (plan->slots of them). */
void sample_plan_draw(const SamplePlan *plan, uint64_t *rng, uint8_t *types);

/* Chase positions a world can rebuild: those within the HISTORY_NB plies the state
 * keeps (one every other ply), and the two players' latest threats. */
enum { SAMPLE_CHASE_KEPT = HISTORY_NB / 2 + 1, SAMPLE_PAST_NB = SAMPLE_CHASE_KEPT + PLAYER_NB };

/* A past position of the game as a world rebuilds it: the hash of the pieces whose
 * type the player knows, and the square of each board slot then. */
typedef struct {
    uint64_t known_hash;
    uint8_t slot_sq[MAX_PIECES];
} SamplePast;

struct GameState;

/* Everything sample_game_world needs, prepared once a position (sample_game.c): the
 * game with the slots taken out (their types, their share of the hash, counts and square
 * sets), so that no hidden type of the true game reaches a world; the plan; each slot's
 * piece id and square; and the past positions the chasing rule compares with. */
typedef struct {
    struct GameState *base;     /* the caller's memory (sizeof(GameState), sample_game.c) */
    int player;
    SamplePlan plan;
    uint8_t slot_id[MAX_PIECES];
    uint8_t slot_sq[MAX_PIECES]; /* absolute square of each board slot */
    uint8_t chasing;            /* the rules' chasing rule: only then is there a chase to rebuild */
    uint8_t chase_kept;         /* chase positions rebuilt (the latest ones) */
    uint8_t threat_kept[PLAYER_NB];
    SamplePast past[SAMPLE_PAST_NB]; /* chase positions, then each player's threat */
} SampleSource;

/* Prepares drawing worlds of game s for `player` into src, whose base is written at
 * `base` (a GameState the caller owns, so that this header needs no board.h): 0, or -1
 * with the reason in err (the game is over; the opponent is in a rescue phase; no
 * assignment agrees with the view). */
int sample_game_prepare(const struct GameState *s, const Rules *r, int player, SampleSource *src,
                        struct GameState *base, char *err, size_t err_len);

/* Writes one world into *world: the game with the slots' types drawn on *rng, its hash,
 * counts and square sets recomputed, the chasing rule's positions rebuilt for its types
 * (those older than the kept plies dropped), and its own setup stream from *rng. */
void sample_game_world(const SampleSource *src, uint64_t *rng, struct GameState *world);

/* The stream worlds of game `index` draw on under `seed` (a batch's game i, a Game's 0). */
uint64_t sample_stream(uint64_t seed, uint64_t index);

/* k worlds of each of the n games states[0..n), for players[i] (or, with players NULL,
 * the player to move), drawn on sample_stream(seed, i): world j of game i is a game
 * save (save.h, save_game_bytes(), its bot stream drawn next) at
 * out + (i * k + j) * save_game_bytes(). failed[i] is 1 where game i cannot be sampled
 * (sample_game_prepare says why; its worlds are left as they were), else 0. On the
 * engine's pool with num_threads; the same bytes for any thread count. */
void sample_games_worlds(const struct GameState *states, int64_t n, const Rules *r, const int64_t *players, int k,
                         uint64_t seed, uint8_t *out, uint8_t *failed, int num_threads);

#endif
