#include "board.h"

#include <stdio.h>
#include <string.h>

int sq_is_lake(int sq) {
    int row = sq_row(sq), col = sq_col(sq);
    return (row == 4 || row == 5) && (col == 2 || col == 3 || col == 6 || col == 7);
}

void board_clear(GameState *s) {
    memset(s, 0, sizeof(*s));
    for (int sq = 0; sq < SQ_NB; sq++) s->board[sq] = sq_is_lake(sq) ? CELL_LAKE : CELL_EMPTY;
    memset(s->piece_sq, SQ_NONE, sizeof(s->piece_sq));
    for (int p = 0; p < PLAYER_NB; p++) s->streak[p].piece = SQ_NONE;
    s->winner = NO_WINNER;
}

int board_place(GameState *s, int player, int type, int sq) {
    if (s->board[sq] != CELL_EMPTY) return -1;
    if (s->placed[player] >= MAX_PIECES) return -1;
    int id = player * MAX_PIECES + s->placed[player]++;
    s->piece_type[id] = (uint8_t)type;
    s->piece_sq[id] = (uint8_t)sq;
    s->board[sq] = (uint8_t)(1 + id);
    s->on_board[player][type]++;
    if (type != BOMB && type != FLAG) s->movable[player]++;
    return id;
}

void board_remove(GameState *s, int id) {
    int sq = s->piece_sq[id];
    int player = piece_owner(id), type = s->piece_type[id];
    s->board[sq] = CELL_EMPTY;
    s->piece_sq[id] = SQ_NONE;
    s->on_board[player][type]--;
    if (type != BOMB && type != FLAG) s->movable[player]--;
}

int board_from_field(GameState *s, const char *field, size_t len, char *err, size_t err_len) {
    static const char COLS[] = "ABCDEFGHIK";
    if (len != SQ_NB) {
        snprintf(err, err_len, "a field has 100 letters, got %zu", len);
        return -1;
    }
    board_clear(s);
    for (int sq = 0; sq < SQ_NB; sq++) {
        char c = field[sq];
        int lake = sq_is_lake(sq);
        char name[4];
        snprintf(name, sizeof(name), "%c%c", COLS[sq_col(sq)], "123456789:"[sq_row(sq)]);
        if (lake != (c == '_')) {
            snprintf(err, err_len, "square %s (letter %d) must be %s, got '%c'", name, sq + 1,
                     lake ? "a lake '_'" : "a piece or 'A'", c);
            return -1;
        }
        if (c == '_' || c == 'A') continue;
        if (c < 'B' || c > 'Y') {
            snprintf(err, err_len, "square %s (letter %d) has '%c', expected A, _, B-Y", name,
                     sq + 1, c);
            return -1;
        }
        int player = c <= 'M' ? RED : BLUE;
        int type = c - (player == RED ? 'B' : 'N');
        if (board_place(s, player, type, sq) < 0) {
            snprintf(err, err_len, "more than %d pieces for %s", MAX_PIECES,
                     player == RED ? "red" : "blue");
            return -1;
        }
    }
    return 0;
}

void board_to_field(const GameState *s, char *out) {
    for (int sq = 0; sq < SQ_NB; sq++) {
        uint8_t cell = s->board[sq];
        if (cell == CELL_LAKE) {
            out[sq] = '_';
        } else if (cell == CELL_EMPTY) {
            out[sq] = 'A';
        } else {
            int id = cell - 1;
            out[sq] = (char)((piece_owner(id) == RED ? 'B' : 'N') + s->piece_type[id]);
        }
    }
}
