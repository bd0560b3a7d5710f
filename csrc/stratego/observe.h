/* observe.h: a player's partial view of a game as planes of 10x10, channels first, in
 * the player's own frame (the board turned 180 degrees for blue, so row 0 is always
 * the observer's back row). The encoder reads only a PlayerView (view.h): it cannot
 * see a hidden rank.
 *
 * Layout (OBSERVATION_VERSION 1), k = history_k:
 *   0..11   own_<type>            1 where an own piece of that type stands
 *   12..23  opp_<type>            1 where an opponent piece is known to be that type
 *   24      opp_unknown_moved     unidentified opponent piece that has moved
 *   25      opp_unknown_unmoved   unidentified opponent piece that never moved
 *   26      own_revealed          own piece whose type the opponent has seen
 *   27      own_moved             own piece that has moved
 *   28      lake
 *   29      empty
 *   30..    move_<i>_from, move_<i>_to, move_<i>_attack for i = 0..k-1, i = 0 the
 *           latest ply (either player's); attack marks the target square
 *   then    own_count_<type> (12), opp_count_<type> (12): pieces on the board, every
 *           cell holding the count (captures are public)
 *   then    ply_progress, no_attack_progress: plies / cap (float) or plies * 255 / cap
 *           (uint8), 0 when there is no cap
 *   then    (deploy only) hand_<type> (12): the observer's pieces of that type still to
 *           place while deploying (every cell holding the count, 0 in play), then
 *           deploying: 1 in every cell while the players deploy (game.h)
 *   then    (probabilities only) belief_<type> (12), float32: for each opponent piece
 *           the chance of each type under a uniform prior over the assignments that
 *           agree with what the observer saw (a piece that moved is no Bomb or Flag;
 *           one whose two-square straight move showed a Scout or a Captain, where
 *           Captains move two, is one of those two); one-hot for identified pieces
 *   An opponent piece is identified (opp_<type>, and own_revealed for the owner's
 *   pieces) by a fight or by a move only its type makes: a long straight move (a
 *   Scout), a Captain's diagonal move where Captains move two squares.
 */
#ifndef STRATEGO_OBSERVE_H
#define STRATEGO_OBSERVE_H

#include <stddef.h>
#include <stdint.h>

#include "view.h"

enum { OBSERVATION_VERSION = 1 };

enum {
    OBS_OWN = 0,
    OBS_OPP_KNOWN = OBS_OWN + PIECE_TYPE_NB,
    OBS_OPP_UNKNOWN_MOVED = OBS_OPP_KNOWN + PIECE_TYPE_NB,
    OBS_OPP_UNKNOWN_UNMOVED,
    OBS_OWN_REVEALED,
    OBS_OWN_MOVED,
    OBS_LAKE,
    OBS_EMPTY,
    OBS_HISTORY, /* 3 planes a remembered ply */
};

typedef struct {
    uint8_t history_k;     /* plies shown as planes, 0..HISTORY_NB */
    uint8_t probabilities; /* 1: append the 12 belief planes (float32 only) */
    uint8_t as_float;      /* 0: uint8 planes, 1: float32 */
    uint16_t max_plies;    /* caps, for the progress planes */
    uint16_t max_plies_without_attack;
    uint8_t codes;         /* 1: the compact codes of observe_codes.h instead of planes */
    /* 1 (rules with deploy, setup="agent"): the deployment planes after the progress
     * planes; piece_counts, the rules' piece set, gives the pieces in hand. */
    uint8_t deploy;
    uint8_t piece_counts[PIECE_TYPE_NB];
} ObsSpec;

/* Builds the encoder's tables. Idempotent; call once before any thread observes. */
void observe_init(void);

/* Number of channels under spec. */
int observe_channels(const ObsSpec *spec);

/* Bytes of one observation under spec. */
size_t observe_bytes(const ObsSpec *spec);

/* Name of channel c (for documentation and Python), into buf. */
void observe_channel_name(const ObsSpec *spec, int c, char *buf, size_t len);

/* Asks the caches for the `count` observations under spec at out, about to be written:
 * a hint, which writes nothing. Called before the view is built, the fetch from memory
 * overlaps that work instead of stalling the encoder's stores. */
void observe_prefetch(const ObsSpec *spec, const void *out, int count);

/* Writes the observation of view v into out (observe_bytes(spec) bytes). It reads
 * v->last[0..spec->history_k - 1]: build v with at least that many plies. */
void observe_partial(const PlayerView *v, const ObsSpec *spec, void *out);

/* The observer's pieces of each type still to place while deploying (0 in play): the
 * spec's piece set less the own pieces on the board (no capture before play). */
void observe_hand(const PlayerView *v, const ObsSpec *spec, uint8_t hand[PIECE_TYPE_NB]);

/* The 12 belief planes alone (float32, PIECE_TYPE_NB x 100), as observe_partial appends
 * them: the float block beside the compact codes (observe_codes.h). */
void observe_belief_planes(const PlayerView *v, float *out);

#endif
