/* fuzz_state.c: libFuzzer target over board_validate, the gate of every state read
 * from outside (Game pickles / GameState.from_bytes, VecEnv.load_state).
 *
 * Input: sizeof(GameState) bytes taken as a state, then one byte for the two-square
 * limit, one of variant switches (as fuzz_engine.c), then 3 bytes a ply (op, u16 pick
 * among the legal actions).
 * A state board_validate accepts must be safe for all game code: its tables agree, and
 * the views, observations, move generation and play from it keep every invariant of
 * invariants.h, as they do for states reached by play.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "invariants.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static uint8_t mask[ACTION_MAX];
    static uint16_t list[ACTION_MAX];
    if (size < sizeof(GameState)) return 0;
    stratego_init();
    GameState s;
    memcpy(&s, data, sizeof(s));
    size_t pos = sizeof(GameState);
    Rules r;
    rules_default(&r);
    if (pos < size) r.two_square_limit = data[pos++] % 8;
    if (pos < size) fuzz_set_switches(&r, data[pos++]);
    char err[200];
    memset(err, 0x55, sizeof(err));
    if (game_validate(&s, &r, err, sizeof(err)) < 0) {
        check_err_message(err, sizeof(err));
        return 0;
    }
    /* What GameState.from_bytes does next: a position the rules end at once is ended
     * (finding F4: restores used to leave such games unplayable but live). */
    game_judge_start(&s, &r);
    check_state_tables(&s, 1);
    check_views(&s, &r, 0);
    if (s.done) return 0; /* a finished game is only shown, never played on */
    FUZZ_CHECK(s.movable[RED] > 0 && s.movable[BLUE] > 0);
    FUZZ_CHECK(s.phase == PHASE_RESCUE || moves_any_legal(&s, &r, s.to_move));
    check_moves(&s, &r, mask, 1);
    check_perft2(&s, &r);
    for (int ply = 0; !s.done && pos + 3 <= size; ply++, pos += 3) {
        int n = moves_list(&s, &r, list);
        if (n == 0) break;
        int action = list[(data[pos + 1] | data[pos + 2] << 8) % n];
        FUZZ_CHECK(moves_check_action(&s, &r, action) == 0);
        game_apply_action(&s, &r, action);
        check_state_tables(&s, 1);
        check_game_status(&s, &r);
        check_moves(&s, &r, mask, (data[pos] & 4) || ply % 8 == 7);
        if ((data[pos] & 2) || ply % 16 == 15) check_views(&s, &r, data[pos]);
    }
    check_views(&s, &r, 1);
    return 0;
}
