/* combat.h: who survives an attack (rulebook "Attack"; docs/rules.md "Movement and
 * combat"). The game-level effects (flag capture ends the game, reveals) are game.c's. */
#ifndef STRATEGO_COMBAT_H
#define STRATEGO_COMBAT_H

#include "rules.h"
#include "types.h"

typedef enum {
    COMBAT_ATTACKER_WINS = 0, /* the defender is removed, the attacker takes its square */
    COMBAT_DEFENDER_WINS = 1, /* the attacker is removed, the defender stays */
    COMBAT_BOTH_DIE = 2,      /* equal ranks: both are removed */
} CombatOutcome;

static inline CombatOutcome combat_resolve(int attacker, int defender, const Rules *r) {
    /* Attacking the flag captures it. */
    if (defender == FLAG) return COMBAT_ATTACKER_WINS;
    /* Only a Miner defuses a Bomb; any other attacker dies and the bomb stays, except
     * that one-time bombs (Ultimate Lightning) go with it. */
    if (defender == BOMB) {
        if (attacker == MINER) return COMBAT_ATTACKER_WINS;
        return r->one_time_bombs ? COMBAT_BOTH_DIE : COMBAT_DEFENDER_WINS;
    }
    /* The Spy wins only when it attacks the Marshal. */
    if (attacker == SPY && defender == MARSHAL) return COMBAT_ATTACKER_WINS;
    /* Equal ranks both go, unless the aggressor has the advantage. */
    if (attacker == defender) return r->aggressor_wins ? COMBAT_ATTACKER_WINS : COMBAT_BOTH_DIE;
    /* Otherwise the higher rank wins (the type value is the rank). */
    return attacker > defender ? COMBAT_ATTACKER_WINS : COMBAT_DEFENDER_WINS;
}

#endif
