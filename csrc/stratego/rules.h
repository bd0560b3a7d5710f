/* rules.h: the settings of one variant. Plain data, shared read-only by every game of
 * a batch; the Python layer fills it from a file in configs/ and rules_validate()
 * checks it before any game uses it. */
#ifndef STRATEGO_RULES_H
#define STRATEGO_RULES_H

#include <stddef.h>
#include <stdint.h>

#include "types.h"

/* The rule settings (docs/rules.md, "Settings and variants"), one line each:
 * X(name, C type, min, max, default, moves, doc). This list is the only place a setting is
 * spelled out; everything else derives from it: the fields
 * of Rules, rules_default(), the range checks of rules_validate(), the binding's parser
 * and _core.RULE_SETTINGS (which stratego.variants reads), the fuzzers' setters and the
 * names a save uses when the rules differ. A setting with the range 0..1 is a switch: a
 * variant file may leave it out (then it has its default). Adding a setting is one line
 * here and the rule that reads it (docs/architecture.md, "How to extend"). The order is
 * the struct's memory layout (saves hold Rules as bytes: a new setting goes last and
 * bumps SAVE_VERSION). deploy is a uint16_t switch so that Rules stays free of padding
 * (an odd uint8_t would leave a byte after it).
 *
 * The `moves` column says what a setting does to the moves of the move phase, which
 * otherwise follow from the board alone: BOARD nothing; FORBID it forbids some of them
 * (its move_rule_<name>_forbids is part of move_forbidden(), the one predicate the walk
 * and the legality check ask); ADD it adds moves (the walk generates them). A setting
 * marked FORBID or ADD has a move_rule_<name>_reach (move_rules.h) naming the pieces it
 * touches now, which the square-set fast path leaves to the walk: the column, not a
 * list of its own, is what turns the fast path off. */
#define RULE_SETTINGS(X)                                                                        \
    X(setup_rows, uint8_t, 1, 4, 4, BOARD, "depth of each side's setup zone in rows from its back row")  \
    X(two_square_limit, uint8_t, 0, 255, 3, FORBID,                                                     \
      "the two-square rule: crossings in a row of one square boundary by a piece, 0 = off (ISF 3, Gravon 5)") \
    X(max_plies, uint16_t, 0, 65535, 2000, BOARD, "total-ply cap (a draw), 0 = none")                  \
    X(max_plies_without_attack, uint16_t, 0, 65535, 200, BOARD,                                        \
      "cap on plies in a row without an attack (a draw), 0 = none")                             \
    X(aggressor_wins, uint8_t, 0, 1, 0, BOARD, "equal ranks: the attacker wins")                       \
    X(silent_defense, uint8_t, 0, 1, 0, BOARD, "an attack shows only the attacker (a Scout's shows both)") \
    X(rescue, uint8_t, 0, 1, 0, BOARD, "reaching the opponent's back row returns a captured piece")    \
    X(one_time_bombs, uint8_t, 0, 1, 0, BOARD, "a Bomb that kills an attacker is removed too")         \
    X(captain_two_squares, uint8_t, 0, 1, 0, ADD, "Captains move up to two squares, turning after the first") \
    X(chasing_rule, uint8_t, 0, 1, 0, FORBID, "ISF art. 11, the more-squares rule (chase.h)")            \
    X(deploy, uint16_t, 0, 1, 0, BOARD,                                                                 \
      "the action space holds placements: players may deploy their own pieces before the first move (setup='agent')")

typedef struct {
    /* How many pieces of each type a side sets up (ISF/Gravon: 40 pieces). */
    uint8_t piece_counts[PIECE_TYPE_NB];
#define RULES_FIELD(name, type, lo, hi, def, moves, doc) type name;
    RULE_SETTINGS(RULES_FIELD)
#undef RULES_FIELD
} Rules;

/* Each setting's range and default fit its type. */
#define RULES_FITS(name, type, lo, hi, def, moves, doc)                                                \
    _Static_assert((lo) >= 0 && (lo) <= (def) && (def) <= (hi) && (hi) <= (type) ~(type)0,     \
                   #name ": 0 <= min <= default <= max <= the type's max");
RULE_SETTINGS(RULES_FITS)
#undef RULES_FITS

/* No padding: a save holds Rules as bytes, and compares them field by field. */
#define RULES_SIZE(name, type, lo, hi, def, moves, doc) +sizeof(type)
_Static_assert(sizeof(Rules) == PIECE_TYPE_NB RULE_SETTINGS(RULES_SIZE), "Rules has no padding");
#undef RULES_SIZE

/* The settings by index, in the list's order. */
typedef enum {
#define RULES_INDEX(name, type, lo, hi, def, moves, doc) RULE_##name,
    RULE_SETTINGS(RULES_INDEX)
#undef RULES_INDEX
    RULE_SETTING_NB
} RuleSettingIndex;

/* The values of the list's `moves` column, in the order of RULE_MOVES_NAMES. */
typedef enum { RULE_MOVES_BOARD, RULE_MOVES_FORBID, RULE_MOVES_ADD, RULE_MOVES_NB } RuleMoves;

/* The column's values as words ("board", "forbid", "add"), as _core.RULE_SETTINGS gives them. */
extern const char *const RULE_MOVES_NAMES[RULE_MOVES_NB];

/* What the list says of one setting, for the code that handles every setting alike. */
typedef struct {
    const char *name;
    const char *type; /* the C type, "uint8_t" or "uint16_t" */
    long min, max, def;
    RuleMoves moves;
    const char *doc;
} RuleSetting;

extern const RuleSetting RULE_SETTING_TABLE[RULE_SETTING_NB];

/* Setting k of r, and setting it (v in the setting's type; rules_validate checks the range). */
long rules_get(const Rules *r, int k);
void rules_set(Rules *r, int k, long v);

/* Size of the variant's action space (see types.h: a prefix of the fixed layout). With
 * deploy the prefix reaches through the rescue block, whose actions are the placements. */
static inline int rules_num_actions(const Rules *r) {
    return r->rescue ? ACTION_MAX : r->deploy ? RESCUE_DECLINE : r->captain_two_squares ? RESCUE_ACTION_BASE : LINE_ACTION_NB;
}

/* 1 if frame square h (the player's own frame, row 0 its back row) is in the setup zone:
 * the setup_rows rows nearest the back row (docs/rules.md). */
static inline int rules_in_setup_zone(const Rules *r, int h) { return h >= 0 && h < r->setup_rows * BOARD_SIZE; }

/* The ISF/Gravon classic rules. */
void rules_default(Rules *r);

/* 0 if the rules can be played; otherwise -1 with a message in err. */
int rules_validate(const Rules *r, char *err, size_t err_len);

/* Pieces a side sets up under these rules. */
int rules_piece_total(const Rules *r);

/* Bombs and flags never move (rulebook, "Movement"). */
static inline int piece_type_is_movable(int type) { return type != BOMB && type != FLAG; }

#endif
