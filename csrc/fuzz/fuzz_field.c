/* fuzz_field.c: libFuzzer target over board_from_field / board_to_field.
 *
 * The input, whole and as it is (any length, any bytes), is given to board_from_field:
 * it must either refuse it with a terminated message, or accept it, and then
 * board_to_field must print exactly the input back and the state must be consistent.
 * The same is done for the first 100 bytes mapped onto the field letters (so that most
 * fields get past the letter check), and for the raw input with a tiny error buffer (a
 * message longer than the buffer must be cut, not overflow it: the buffer is malloc'd
 * at its exact size so ASan sees a write past it).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "invariants.h"

static const char FIELD_LETTERS[] = "A_BCDEFGHIJKLMNOPQRSTUVWXY";

static void check_field(const char *field, size_t len, size_t err_len) {
    GameState s;
    char *err = malloc(err_len);
    char *copy = malloc(len ? len : 1);
    FUZZ_CHECK(err != NULL && copy != NULL);
    /* An exact-size copy: a read past `len` is an ASan report. */
    memcpy(copy, field, len);
    memset(err, 0x55, err_len);
    if (board_from_field(&s, copy, len, err, err_len) < 0) {
        check_err_message(err, err_len);
    } else {
        char back[SQ_NB];
        FUZZ_CHECK(len == SQ_NB);
        board_to_field(&s, back);
        FUZZ_CHECK(memcmp(back, field, SQ_NB) == 0);
        check_state_tables(&s, 1);
        FUZZ_CHECK(s.to_move == RED && !s.done && s.ply == 0 && s.winner == NO_WINNER);
        for (int p = 0; p < PLAYER_NB; p++) {
            int pieces = 0;
            for (int t = 0; t < PIECE_TYPE_NB; t++) pieces += s.on_board[p][t];
            FUZZ_CHECK(pieces == s.placed[p] && pieces <= MAX_PIECES);
        }
    }
    free(copy);
    free(err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    stratego_init();
    check_field((const char *)data, size, 200);
    check_field((const char *)data, size, 1 + (size ? data[0] % 16 : 0));
    if (size >= 1) {
        /* Byte 0 picks: bit 0 keep lakes right, bit 1 mostly empty squares. */
        char field[SQ_NB];
        uint8_t mode = data[0];
        for (int sq = 0; sq < SQ_NB; sq++) {
            uint8_t byte = 1 + (size_t)sq < size ? data[1 + sq] : 0;
            if ((mode & 1) && sq_is_lake(sq)) field[sq] = '_';
            else if ((mode & 2) && byte < 128) field[sq] = 'A';
            else field[sq] = FIELD_LETTERS[byte % 26];
        }
        check_field(field, SQ_NB, 200);
    }
    return 0;
}
