#include "rules.h"

#include <stdio.h>
#include <string.h>

/* ISF / Gravon counts, Bomb..Flag in Gravon letter order (docs/rules.md "Classic board
 * and pieces", piece table). */
static const uint8_t ISF_COUNTS[PIECE_TYPE_NB] = {6, 1, 8, 5, 4, 4, 4, 3, 2, 1, 1, 1};

const char *const PIECE_TYPE_NAMES[PIECE_TYPE_NB] = {
    "bomb", "spy", "scout", "miner", "sergeant", "lieutenant",
    "captain", "major", "colonel", "general", "marshal", "flag",
};

const char *const RULE_MOVES_NAMES[RULE_MOVES_NB] = {"board", "forbid", "add"};

const RuleSetting RULE_SETTING_TABLE[RULE_SETTING_NB] = {
#define RULES_ROW(name, type, lo, hi, def, moves, doc) {#name, #type, lo, hi, def, RULE_MOVES_##moves, doc},
    RULE_SETTINGS(RULES_ROW)
#undef RULES_ROW
};

long rules_get(const Rules *r, int k) {
    switch (k) {
#define RULES_GET(name, type, lo, hi, def, moves, doc) case RULE_##name: return r->name;
        RULE_SETTINGS(RULES_GET)
#undef RULES_GET
    }
    return -1;
}

void rules_set(Rules *r, int k, long v) {
    switch (k) {
#define RULES_SET(name, type, lo, hi, def, moves, doc) case RULE_##name: r->name = (type)v; break;
        RULE_SETTINGS(RULES_SET)
#undef RULES_SET
    }
}

void rules_default(Rules *r) {
    memset(r, 0, sizeof(*r));
    memcpy(r->piece_counts, ISF_COUNTS, sizeof(ISF_COUNTS));
    for (int k = 0; k < RULE_SETTING_NB; k++) rules_set(r, k, RULE_SETTING_TABLE[k].def);
}

int rules_piece_total(const Rules *r) {
    int total = 0;
    for (int t = 0; t < PIECE_TYPE_NB; t++) total += r->piece_counts[t];
    return total;
}

int rules_validate(const Rules *r, char *err, size_t err_len) {
    for (int k = 0; k < RULE_SETTING_NB; k++) {
        const RuleSetting *rs = &RULE_SETTING_TABLE[k];
        long v = rules_get(r, k);
        if (v < rs->min || v > rs->max) {
            snprintf(err, err_len, "%s must be between %ld and %ld, got %ld", rs->name, rs->min, rs->max, v);
            return -1;
        }
    }
    if (r->piece_counts[FLAG] != 1) {
        snprintf(err, err_len, "each side needs exactly 1 flag, got %d", r->piece_counts[FLAG]);
        return -1;
    }
    int total = rules_piece_total(r);
    int zone = r->setup_rows * BOARD_SIZE;
    if (total > zone) {
        snprintf(err, err_len, "%d pieces do not fit in a setup zone of %d squares", total, zone);
        return -1;
    }
    int movable = total - r->piece_counts[BOMB] - r->piece_counts[FLAG];
    if (movable < 1) {
        snprintf(err, err_len, "each side needs at least one movable piece, got %d", movable);
        return -1;
    }
    /* A chase keeps every position since its first threat (chase.h); positions can
     * recur only between attacks, so the no-attack cap bounds what it keeps. */
    if (r->chasing_rule && (r->max_plies_without_attack < 1 || r->max_plies_without_attack > 2 * CHASE_POSITIONS)) {
        snprintf(err, err_len,
                 "the chasing rule needs max_plies_without_attack between 1 and %d (it bounds the positions a "
                 "chase keeps), got %d",
                 2 * CHASE_POSITIONS, r->max_plies_without_attack);
        return -1;
    }
    return 0;
}
