/* rules.h: the settings of one variant. Plain data, shared read-only by every game of
 * a batch; the Python layer fills it from a file in configs/ and rules_validate()
 * checks it before any game uses it. */
#ifndef STRATEGO_RULES_H
#define STRATEGO_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "types.h"

typedef struct {
    /* How many pieces of each type a side sets up (ISF/Gravon: 40 pieces). */
    uint8_t piece_counts[PIECE_TYPE_NB];
    /* Depth of each side's setup zone in rows from its back row (classic: 4). */
    uint8_t setup_rows;
    /* Two-square rule: a piece may not cross the same square boundary more than this
     * many times in a row (ISF: 3; Gravon's server: 5). 0 switches the rule off. */
    uint8_t two_square_limit;
    /* Draw caps, 0 = none: total plies, and plies without any attack. */
    uint16_t max_plies;
    uint16_t max_plies_without_attack;
    /* Variant switches (docs/rules.md "Seed tournament rules", "Other variants"), 0 or 1. */
    uint8_t aggressor_wins;      /* equal ranks: the attacker wins */
    uint8_t silent_defense;      /* an attack shows only the attacker (a Scout's shows both) */
    uint8_t rescue;              /* reaching the opponent's back row returns a captured piece */
    uint8_t one_time_bombs;      /* a Bomb that kills an attacker is removed too */
    uint8_t captain_two_squares; /* Captains move up to two squares, turning after the first */
    uint8_t chasing_rule;        /* ISF art. 11, the more-squares rule (chase.h) */
} Rules;

/* Size of the variant's action space (see types.h: a prefix of the fixed layout). */
static inline int rules_num_actions(const Rules *r) {
    return r->rescue ? ACTION_MAX : r->captain_two_squares ? RESCUE_ACTION_BASE : LINE_ACTION_NB;
}

/* The ISF/Gravon classic rules. */
void rules_default(Rules *r);

/* 0 if the rules can be played; otherwise -1 with a message in err. */
int rules_validate(const Rules *r, char *err, size_t err_len);

/* Pieces a side sets up under these rules. */
int rules_piece_total(const Rules *r);

/* Bombs and flags never move (rulebook, "Movement"). */
static inline int piece_type_is_movable(int type) { return type != BOMB && type != FLAG; }

#endif
