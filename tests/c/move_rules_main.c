/* move_rules_main.c: RULE_SETTINGS' `moves` column against the moves themselves
 * (tests/test_move_rules.py runs it).
 *
 * For each setting alone (every setting the column marks switched off but the one
 * tried), random games of ten pieces a side; at each position of the move phase:
 *   - the fast path (moves_fast_mask, moves_fast_bits) gives the walk's mask wherever it
 *     decides, and steps aside whole exactly when the column's settings reach every
 *     piece (move_rules_reach);
 *   - the check of each action (moves_check_action) agrees with the walk's mask, so the
 *     walk and the check share the rules' verdicts (move_forbidden);
 *   - whether the setting changes the moves: the walk's mask under the rules with the
 *     setting and without it (a marked setting off, an unmarked one at its default).
 * One line a setting: name, column, positions, positions where a marked setting
 * reached a piece (the fast path left it to the walk), positions where the fast path
 * was off, positions where the setting changed the moves. Exits 1 on a disagreement. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/rng.h"
#include "stratego/game.h"
#include "stratego/init.h"
#include "stratego/move_rules.h"
#include "stratego/moves.h"
#include "stratego/moves_fast.h"
#include "stratego/walk.h"

/* Ten pieces a side (the duel variant's, a Captain for a Miner): a setup zone of one row holds them, so every
 * setting's range can be tried; few pieces repeat positions, so chases happen. */
static void duel_counts(Rules *r) {
    memset(r->piece_counts, 0, sizeof(r->piece_counts));
    r->piece_counts[FLAG] = 1;
    r->piece_counts[BOMB] = 2;
    r->piece_counts[MARSHAL] = 1;
    r->piece_counts[GENERAL] = 1;
    r->piece_counts[MINER] = 1;
    r->piece_counts[CAPTAIN] = 1;
    r->piece_counts[SCOUT] = 2;
    r->piece_counts[SPY] = 1;
}

/* The classic rules on ten pieces with every setting of the column off. */
static void rules_plain(Rules *r) {
    rules_default(r);
    duel_counts(r);
    for (int k = 0; k < RULE_SETTING_NB; k++) {
        if (RULE_SETTING_TABLE[k].moves != RULE_MOVES_BOARD) rules_set(r, k, RULE_SETTING_TABLE[k].min);
    }
}

/* A value of setting k other than the plain rules' that the rules accept: a marked
 * setting on (its default, or its max where the default is off); an unmarked one off
 * its default. -1 if none is accepted. */
static long value_tried(int k, Rules *r) {
    const RuleSetting *rs = &RULE_SETTING_TABLE[k];
    long base = rules_get(r, k);
    long tries[4] = {rs->def, rs->max, rs->min, rs->min + 1};
    char err[256];
    for (int t = 0; t < 4; t++) {
        if (tries[t] == base || tries[t] < rs->min || tries[t] > rs->max) continue;
        Rules probe = *r;
        rules_set(&probe, k, tries[t]);
        if (rules_validate(&probe, err, sizeof err) == 0) return tries[t];
    }
    return -1;
}

static int failures;

#define EXPECT(cond, ...)                                   \
    do {                                                    \
        if (!(cond)) {                                      \
            if (failures++ < 20) {                          \
                fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
                fprintf(stderr, __VA_ARGS__);               \
                fputc('\n', stderr);                        \
            }                                               \
        }                                                   \
    } while (0)

int main(int argc, char **argv) {
    int games = argc > 1 ? atoi(argv[1]) : 300;
    stratego_init();
    static uint8_t walk_on[ACTION_MAX], walk_off[ACTION_MAX], fast[ACTION_MAX], legal[ACTION_MAX];
    static uint8_t bits[ACTION_MAX / 8 + 1];
    static uint16_t legal_pick[ACTION_MAX];
    for (int k = 0; k < RULE_SETTING_NB; k++) {
        const RuleSetting *rs = &RULE_SETTING_TABLE[k];
        Rules off, on;
        rules_plain(&off);
        long v = value_tried(k, &off);
        EXPECT(v >= 0, "%s: no value the rules accept", rs->name);
        if (v < 0) continue;
        on = off;
        rules_set(&on, k, v);
        long positions = 0, reached = 0, fast_off = 0, changed = 0;
        int n_actions = rules_num_actions(&on);
        for (int g = 0; g < games; g++) {
            GameState s;
            memset(&s, 0, sizeof s);
            s.rng = rng_seed_stream(27, (uint64_t)g, (uint64_t)k);
            game_reset_random(&s, &on);
            uint64_t rng = rng_seed_stream(27, (uint64_t)g, 100 + (uint64_t)k);
            while (!game_is_over(&s)) {
                memset(legal, 0, sizeof legal);
                int n_legal = game_legal_mask(&s, &on, legal, 0);
                if (s.phase == PHASE_MOVE) {
                    int player = s.to_move;
                    positions++;
                    memset(walk_on, 0, sizeof walk_on);
                    memset(walk_off, 0, sizeof walk_off);
                    int n_walk = walk_mask(&s, &on, player, walk_on);
                    walk_mask(&s, &off, player, walk_off);
                    changed += memcmp(walk_on, walk_off, (size_t)n_actions) != 0;
                    EXPECT(n_walk == n_legal && memcmp(walk_on, legal, (size_t)n_actions) == 0,
                           "%s game %d ply %d: the legal mask is not the walk's", rs->name, g, s.ply);
                    int reach = move_rules_reach(&s, &on, player);
                    reached += reach >= 0;
                    int n_fast = moves_fast_mask(&s, &on, fast);
                    int n_bits = moves_fast_bits(&s, &on, bits);
                    fast_off += n_fast < 0;
                    EXPECT((n_fast < 0) == (reach == MOVE_RULES_ALL) && (n_bits < 0) == (n_fast < 0),
                           "%s game %d ply %d: the fast path is %s while the settings reach %d", rs->name, g,
                           s.ply, n_fast < 0 ? "off" : "on", reach);
                    if (n_fast >= 0) {
                        EXPECT(n_fast == n_walk && memcmp(fast, walk_on, (size_t)n_actions) == 0,
                               "%s game %d ply %d: fast mask differs from the walk's", rs->name, g, s.ply);
                        int same = n_bits == n_walk;
                        for (int a = 0; a < n_actions; a++) same &= ((bits[a >> 3] >> (a & 7)) & 1) == walk_on[a];
                        EXPECT(same, "%s game %d ply %d: fast bits differ from the walk's", rs->name, g, s.ply);
                    }
                    for (int a = 0; a < n_actions; a++) {
                        int ok = moves_check_action(&s, &on, a) == MOVE_LEGAL;
                        EXPECT(ok == walk_on[a], "%s game %d ply %d: action %d checks %s, the walk says %d",
                               rs->name, g, s.ply, a, moves_illegal_reason(moves_check_action(&s, &on, a)),
                               walk_on[a]);
                    }
                }
                if (n_legal <= 0) break;
                /* While a chase goes on, mostly its moves: the chaser's moves next to an
                 * evader, the chased side's evaders moving on, so that chases run long
                 * enough to come back to a position (random play alone rarely does). */
                if (s.phase == PHASE_MOVE && s.chase.active && rng_below(&rng, 10) < 9) {
                    int chaser = s.to_move == s.chase.chaser, n = 0;
                    for (int a = 0; a < n_actions; a++) {
                        int from, to;
                        if (!legal[a] || action_decode(s.to_move, a, &from, &to) != ACTION_MOVE) continue;
                        if (s.board[to] != CELL_EMPTY) continue;
                        int ok = 0;
                        if (chaser) {
                            for (int d = 0; d < DIR_NB && !ok; d++) {
                                int r0 = sq_row(to) + DIR_ROW[d], c0 = sq_col(to) + DIR_COL[d];
                                if (r0 < 0 || r0 >= BOARD_SIZE || c0 < 0 || c0 >= BOARD_SIZE) continue;
                                int cell = s.board[r0 * BOARD_SIZE + c0];
                                int first = (1 - s.to_move) * MAX_PIECES;
                                ok = cell != CELL_EMPTY && cell != CELL_LAKE && cell - 1 >= first &&
                                     cell - 1 < first + MAX_PIECES && ((s.chase.evaders >> (cell - 1 - first)) & 1);
                            }
                        } else {
                            int id = s.board[from] - 1 - s.to_move * MAX_PIECES;
                            ok = (s.chase.evaders >> id) & 1;
                        }
                        if (ok) legal_pick[n++] = (uint16_t)a;
                    }
                    if (n) {
                        game_apply_action(&s, &on, legal_pick[rng_below(&rng, (uint32_t)n)]);
                        continue;
                    }
                }
                int pick = (int)rng_below(&rng, (uint32_t)n_legal), action = -1;
                for (int a = 0; a < n_actions && action < 0; a++) {
                    if (legal[a] && pick-- == 0) action = a;
                }
                game_apply_action(&s, &on, action);
            }
        }
        printf("%s %s positions=%ld reached=%ld fast_off=%ld changed=%ld\n", rs->name, RULE_MOVES_NAMES[rs->moves],
               positions, reached, fast_off, changed);
    }
    printf(failures ? "FAILED %d\n" : "ok\n", failures);
    return failures ? 1 : 0;
}
