#include "game.h"

#include <stdlib.h>

#include "combat.h"
#include "moves.h"
#include "repetition.h"
#include "setup.h"

void game_end(GameState *s, int winner, EndReason reason) {
    s->done = 1;
    s->winner = (uint8_t)winner;
    s->end_reason = (uint8_t)reason;
}

/* The end-of-game rules that depend on the position, checked after every move and at
 * the start (see game.h for the rules and their order). */
static void game_judge(GameState *s, const Rules *r) {
    int mover = 1 - s->to_move;
    if (s->movable[RED] == 0 || s->movable[BLUE] == 0) {
        int winner = s->movable[RED] ? RED : s->movable[BLUE] ? BLUE : NO_WINNER;
        game_end(s, winner, END_NO_MOVABLE_PIECES);
        return;
    }
    if (!moves_any_legal(s, r, s->to_move)) {
        if (moves_any_legal(s, r, mover)) {
            game_end(s, mover, END_NO_LEGAL_MOVE);
        } else {
            game_end(s, NO_WINNER, END_NEITHER_CAN_MOVE);
        }
        return;
    }
    if (r->max_plies && s->ply >= r->max_plies) {
        game_end(s, NO_WINNER, END_MAX_PLIES);
    } else if (r->max_plies_without_attack && s->plies_since_attack >= r->max_plies_without_attack) {
        game_end(s, NO_WINNER, END_MAX_PLIES_WITHOUT_ATTACK);
    }
}

void game_judge_start(GameState *s, const Rules *r) {
    if (!s->done) game_judge(s, r);
}

void game_reset_random(GameState *s, const Rules *r) {
    uint64_t rng = s->rng;
    /* A setup that leaves red without any move would end the game at ply 0; such
     * setups are astronomically rare and are drawn again rather than played. */
    for (int attempt = 0; attempt < 1000; attempt++) {
        board_clear(s);
        setup_random(s, r, RED, &rng);
        setup_random(s, r, BLUE, &rng);
        s->rng = rng;
        game_judge_start(s, r);
        if (!s->done) return;
    }
}

void game_apply_move(GameState *s, const Rules *r, int from, int to) {
    int id = s->board[from] - 1;
    int player = piece_owner(id);
    int attack = s->board[to] != CELL_EMPTY;
    int flag_captured = 0;

    repetition_record(s, id, from, to);
    HistoryEntry *h = &s->history[s->ply % HISTORY_NB];
    h->from = (uint8_t)from;
    h->to = (uint8_t)to;
    h->player = (uint8_t)player;
    h->attack = (uint8_t)attack;

    /* What the opponent learns from the move itself: it moved, so it is neither a Bomb
     * nor the Flag; a move of more than one square shows a Scout. */
    s->piece_flags[id] |= PIECE_MOVED;
    int dist = abs(sq_row(to) - sq_row(from)) + abs(sq_col(to) - sq_col(from));
    if (dist > 1) s->piece_flags[id] |= PIECE_SCOUTED;

    if (!attack) {
        s->board[from] = CELL_EMPTY;
        s->board[to] = (uint8_t)(1 + id);
        s->piece_sq[id] = (uint8_t)to;
        s->plies_since_attack++;
    } else {
        int def = s->board[to] - 1;
        /* An attack shows both ranks (rulebook "Attack"). */
        s->piece_flags[id] |= PIECE_REVEALED;
        s->piece_flags[def] |= PIECE_REVEALED;
        flag_captured = s->piece_type[def] == FLAG;
        switch (combat_resolve(s->piece_type[id], s->piece_type[def])) {
        case COMBAT_ATTACKER_WINS:
            board_remove(s, def);
            s->board[from] = CELL_EMPTY;
            s->board[to] = (uint8_t)(1 + id);
            s->piece_sq[id] = (uint8_t)to;
            break;
        case COMBAT_DEFENDER_WINS:
            board_remove(s, id);
            break;
        case COMBAT_BOTH_DIE:
            board_remove(s, id);
            board_remove(s, def);
            break;
        }
        s->plies_since_attack = 0;
    }
    s->ply++;
    s->to_move = (uint8_t)(1 - player);

    if (flag_captured) {
        game_end(s, player, END_FLAG_CAPTURED);
    } else {
        game_judge(s, r);
    }
}

uint64_t game_perft(const GameState *s, const Rules *r, int depth) {
    if (depth == 0) return 1;
    if (s->done) return 0;
    uint16_t actions[ACTION_NB];
    int n = moves_list(s, r, s->to_move, actions);
    if (depth == 1) return (uint64_t)n;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        GameState child = *s;
        int from, to;
        action_decode(s->to_move, actions[i], &from, &to);
        game_apply_move(&child, r, from, to);
        total += game_perft(&child, r, depth - 1);
    }
    return total;
}
