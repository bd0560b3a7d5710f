/* notation.c: the notation of actions (docs/castle.md "Notation"): an action's name and
 * the action a name gives. Below the rules that explain a refused action with it
 * (moves.c) and the text board (text.c), so that they call it and it calls neither. */
#include <stdio.h>
#include <string.h>

#include "castle.h"

void castle_action_name(const CastleState *s, int action, char out[24]) {
    const CastleGeometry *g = castle_geometry(s->mode);
    if (action < 0 || action >= g->actions) {
        snprintf(out, 24, "?");
        return;
    }
    const CastleAction *a = &g->action[action];
    char from[8], to[8];
    switch (a->kind) {
    case CASTLE_ACT_MOVE:
    case CASTLE_ACT_DROP:
    case CASTLE_ACT_SHOT:
        castle_node_name(g, a->from, from);
        castle_node_name(g, a->to, to);
        if (a->kind == CASTLE_ACT_SHOT) snprintf(out, 24, "%s*%s", from, to);
        else if (a->kind == CASTLE_ACT_DROP) snprintf(out, 24, "%s-%s drop", from, to);
        else snprintf(out, 24, "%s%c%s", from, s->board[a->to] == CASTLE_NONE ? '-' : 'x', to);
        break;
    case CASTLE_ACT_TAKE: snprintf(out, 24, "take %c", castle_seat_letter(s->mode, a->to)); break;
    case CASTLE_ACT_LEAVE: snprintf(out, 24, "leave"); break;
    case CASTLE_ACT_RECRUIT: snprintf(out, 24, "recruit %d", a->to); break;
    default: snprintf(out, 24, "recruit none"); break;
    }
}

int castle_action_parse(const CastleState *s, const char *text, char *err, size_t err_len) {
    const CastleGeometry *g = castle_geometry(s->mode);
    size_t len = strlen(text);
    if (strcmp(text, "leave") == 0) return g->leave_action;
    if (strcmp(text, "recruit none") == 0) return g->no_recruit_action;
    if (len == 6 && strncmp(text, "take ", 5) == 0) {
        int seat = castle_seat_from_letter(s->mode, text[5]);
        if (seat >= 0) return g->take_base + seat;
    }
    if (len == 9 && strncmp(text, "recruit ", 8) == 0 && text[8] >= '1' && text[8] <= '9')
        return g->recruit_base + text[8] - '1';
    if (strncmp(text, "take ", 5) == 0) {
        snprintf(err, err_len, "%s: expected take and a seat letter (%s)", text, s->mode == CASTLE_FFA3 ? "n e w" : "n e s w");
        return -1;
    }
    if (strncmp(text, "recruit ", 8) == 0) {
        snprintf(err, err_len, "%s: expected recruit and a rank 1..9, or recruit none", text);
        return -1;
    }
    /* FROM-TO, FROMxTO, FROM-TO drop, FROM*TO. */
    int drop = len > 5 && strcmp(text + len - 5, " drop") == 0;
    size_t body = drop ? len - 5 : len;
    /* Node names hold no '-', '*' or 'x' (columns A..O, ring, turret). */
    size_t cut = strcspn(text, "-*x");
    if (cut == 0 || cut >= body - 1) {
        snprintf(err, err_len,
                 "cannot read %s: expected a move like D4-D8, D4xD5, F8-F9 drop, D8*ring, take e, leave, recruit 7 "
                 "or recruit none",
                 text);
        return -1;
    }
    int from = castle_node_parse(g, text, cut), to = castle_node_parse(g, text + cut + 1, body - cut - 1);
    if (from < 0 || to < 0) {
        snprintf(err, err_len, "%s: %.*s is not a node of the %s board (A1..O15 spaces, ring, turret)", text,
                 (int)(from < 0 ? cut : body - cut - 1), from < 0 ? text : text + cut + 1,
                 s->mode == CASTLE_FFA3 ? "3-player" : "4-player");
        return -1;
    }
    char sep = text[cut];
    int action = -1;
    if (sep == '*') {
        if (drop) action = -1;
        else
            for (int d = 0; d < 4; d++)
                if (g->shot_index[from][d] >= 0 && g->action[g->shot_index[from][d]].to == to) action = g->shot_index[from][d];
    } else if (drop) {
        if (sep == '-')
            for (int k = 0; k < g->degree[from]; k++)
                if (g->neighbour[from][k] == to) action = g->drop_index[from][k];
    } else {
        action = g->move_index[from][to];
    }
    if (action < 0) snprintf(err, err_len, "%s: no such move on this board, whatever the position", text);
    return action;
}
