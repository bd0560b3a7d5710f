/* view.h: what one player may know of a game, and nothing more.
 *
 * view_build() (and view_build_recent(), which keeps fewer plies, and view_build_lean(),
 * which leaves out the unidentified pieces' counts) is the only code that
 * turns a GameState into what the observation encoder reads: it copies the opponent's
 * piece types only where a fight revealed them (or a move showed a type: a long move a
 * Scout, a variant Captain's diagonal a Captain), in the
 * player's own frame (the board turned 180 degrees for blue). observe.c includes this
 * header and not board.h, so the partial observation cannot reach a hidden rank. The one
 * other gate is view_codes.c, which writes the compact codes of this view straight from
 * the game by the same rules (view_codes.h).
 */
#ifndef STRATEGO_VIEW_H
#define STRATEGO_VIEW_H

#include <stdint.h>

#include "types.h"

/* Only declared here: code that includes this header cannot look inside a game. */
struct GameState;

/* cell[] values in the view. Own and revealed pieces carry their type in the low bits. */
enum {
    VIEW_EMPTY = 0,
    VIEW_LAKE = 1,
    VIEW_OWN = 0x20,        /* | type */
    VIEW_OPP_KNOWN = 0x40,  /* | type: revealed in a fight, or shown by a move only it makes */
    VIEW_OPP_UNKNOWN = 0x80,
    VIEW_TYPE_MASK = 0x1F,
};

typedef struct {
    uint8_t from, to, attack, valid;
} ViewMove;

typedef struct {
    uint8_t cell[SQ_NB];   /* observer's frame */
    uint8_t flags[SQ_NB];  /* the public flags (PIECE_MOVED, ..., types.h) of the piece there */
    uint8_t own_on_board[PIECE_TYPE_NB];
    /* Opponent pieces of each type not known to be captured: the pieces on the board
     * when every capture shows the captured piece (classic), an upper bound under
     * silent defense, where a captured defender stays unknown. */
    uint8_t opp_on_board[PIECE_TYPE_NB];
    uint8_t opp_unknown[PIECE_TYPE_NB];   /* types not yet identified (board or captured) */
    uint8_t opp_unknown_moved;            /* unidentified opponent pieces on the board that moved */
    uint8_t opp_unknown_unmoved;
    uint8_t opp_captured_unknown_moved;   /* captured opponent pieces never identified */
    uint8_t opp_captured_unknown_unmoved;
    ViewMove last[HISTORY_NB];            /* last[0] is the latest ply, observer's frame */
    uint32_t ply;
    uint32_t plies_since_attack;
    /* Unidentified opponent pieces (on the board or captured unseen) whose two-square
     * straight move showed a Scout or a Captain (variants whose Captains move two). */
    uint32_t opp_scout_or_captain;
    /* 1 while the players deploy (PHASE_DEPLOY, game.h): a screen stands between the
     * halves, so the view holds none of the opponent's pieces (nor its counts). */
    uint32_t deploying;
} PlayerView;

/* Every byte is a field (no padding), and view_build writes every field: two views of
 * positions the player cannot tell apart compare equal with memcmp. */
_Static_assert(sizeof(PlayerView) == 2 * SQ_NB + 3 * PIECE_TYPE_NB + 4 + 4 * HISTORY_NB + 16,
               "PlayerView has no padding");

/* Chooses the AVX2 build of view_build_lean where the CPU has it (cpu.h). Idempotent;
 * stratego_init calls it. */
void view_init(void);

/* Fills v with what `player` knows of the game s. */
void view_build(const struct GameState *s, int player, PlayerView *v);

/* view_build with only the latest `plies` plies (0..HISTORY_NB) in last[], the rest
 * zero (valid 0): enough for an encoder whose history_k is at most `plies`, and cheaper
 * to build. */
void view_build_recent(const struct GameState *s, int player, int plies, PlayerView *v);

/* view_build_recent without what only the belief planes, the bots and the sampler read:
 * the counts of the opponent's unidentified pieces (opp_unknown, opp_unknown_moved and
 * _unmoved, opp_captured_unknown_moved and _unmoved, opp_scout_or_captain) are zero.
 * Every other field is view_build_recent's. The observation encoders but the belief
 * planes read none of them (observe_player). */
void view_build_lean(const struct GameState *s, int player, int plies, PlayerView *v);

#endif
