/* geometry.c: the castle boards as data. The drawings of CASTLE.md A1 (4 players) and
 * A2 (3 players) are the string tables below; every table of CastleGeometry (nodes,
 * neighbours, lines, zones, recruitment and flag start spaces, shots, the flat action
 * layout) is built from them once (castle_init). docs/castle.md states the numbering.
 */
#include <string.h>

#include "castle.h"

/* A1, one character a cell: ' ' off board, '.' space, '~' lake, '+' a space next to the
 * castle, 'O' ring cell, 'T' turret, n/e/s/w a zone space, R recruitment space, F flag
 * start space (the zone of R and F is the nearest zone letter's). */
static const char *const BOARD_A1[CASTLE_ROWS_MAX] = {
    "    nnnFnnn    ", "    nnnRnnn    ", "    nnnnnnn    ", "   .........   ", "www...~~~...eee",
    "www...+++...eee", "www.~+OOO+~.eee", "FRw.~+OTO+~.eRF", "www.~+OOO+~.eee", "www...+++...eee",
    "www...~~~...eee", "   .........   ", "    sssssss    ", "    sssRsss    ", "    sssFsss    ",
};

/* A2: A1 without rows 13-15, and G10-I10 made lake, so 9 spaces touch the ring. */
static const char *const BOARD_A2[12] = {
    "    nnnFnnn    ", "    nnnRnnn    ", "    nnnnnnn    ", "   .........   ", "www...~~~...eee",
    "www...+++...eee", "www.~+OOO+~.eee", "FRw.~+OTO+~.eRF", "www.~+OOO+~.eee", "www...~~~...eee",
    "www...~~~...eee", "   .........   ",
};

/* Directions N E S W as (row, column) steps. */
static const int DIR_ROW[4] = {-1, 0, 1, 0}, DIR_COL[4] = {0, 1, 0, -1};

static CastleGeometry GEOMETRY[2]; /* A1 (ffa4, teams4), A2 (ffa3) */
static int GEOMETRY_READY;

/* The seat of a zone letter in a mode: compass order n e s w; 3p has no s and w is seat 2. */
static int zone_seat(char zone, int three) {
    switch (zone) {
    case 'n': return 0;
    case 'e': return 1;
    case 's': return three ? -1 : 2;
    case 'w': return three ? 2 : 3;
    default: return -1;
    }
}

static int cell_at(const CastleGeometry *g, int row, int col) {
    if (row < 0 || row >= g->rows || col < 0 || col >= CASTLE_COLS) return -1;
    return row * CASTLE_COLS + col;
}

static void add_neighbour(CastleGeometry *g, int a, int b) {
    for (int k = 0; k < g->degree[a]; k++)
        if (g->neighbour[a][k] == b) return;
    g->neighbour[a][g->degree[a]++] = (uint8_t)b;
}

static void sort_bytes(uint8_t *v, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
            uint8_t t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
}

/* The flat action layout (docs/castle.md "Actions"): MOVE, DROP, SHOT, TAKE, LEAVE,
 * RECRUIT, NO_RECRUIT blocks, each by `from` node. */
static void build_actions(CastleGeometry *g) {
    int n = 0;
    memset(g->move_index, 0xFF, sizeof(g->move_index));
    memset(g->drop_index, 0xFF, sizeof(g->drop_index));
    memset(g->shot_index, 0xFF, sizeof(g->shot_index));
    /* MOVE: every node a step, a line (1.8) or a Captain's two steps (1.7) reaches. */
    g->move_base = n;
    for (int f = 0; f < g->nodes; f++) {
        uint8_t reach[CASTLE_NODES_MAX] = {0};
        for (int k = 0; k < g->degree[f]; k++) {
            int m = g->neighbour[f][k];
            reach[m] = 1;
            for (int j = 0; j < g->degree[m]; j++) reach[g->neighbour[m][j]] = 1;
        }
        if (f < g->spaces)
            for (int d = 0; d < 4; d++)
                for (int k = 0; k < g->line_len[f][d]; k++) reach[g->line[f][d][k]] = 1;
        reach[f] = 0;
        for (int t = 0; t < g->nodes; t++)
            if (reach[t]) {
                g->move_index[f][t] = (int16_t)n;
                g->action[n++] = (CastleAction){CASTLE_ACT_MOVE, (uint8_t)f, (uint8_t)t, {0, 0}, 0, 0};
            }
    }
    /* DROP: a carrier's step (A8). */
    g->drop_base = n;
    for (int f = 0; f < g->nodes; f++)
        for (int k = 0; k < g->degree[f]; k++) {
            g->drop_index[f][k] = (int16_t)n;
            g->action[n++] = (CastleAction){CASTLE_ACT_DROP, (uint8_t)f, g->neighbour[f][k], {0, 0}, 0, 0};
        }
    /* SHOT (1.10, A7): from a space, exactly 3 cells on; the 2 cells between on the board
     * and not castle; the target a space or a ring cell (the turret's line crosses the
     * ring). Shots over lakes are in the layout; the setting masks them. */
    g->shot_base = n;
    for (int f = 0; f < g->spaces; f++) {
        int row = g->node_cell[f] / CASTLE_COLS, col = g->node_cell[f] % CASTLE_COLS;
        for (int d = 0; d < 4; d++) {
            int c1 = cell_at(g, row + DIR_ROW[d], col + DIR_COL[d]);
            int c2 = cell_at(g, row + 2 * DIR_ROW[d], col + 2 * DIR_COL[d]);
            int c3 = cell_at(g, row + 3 * DIR_ROW[d], col + 3 * DIR_COL[d]);
            if (c1 < 0 || c2 < 0 || c3 < 0) continue;
            char k1 = g->cell_kind[c1], k2 = g->cell_kind[c2], k3 = g->cell_kind[c3];
            if ((k1 != '.' && k1 != '~') || (k2 != '.' && k2 != '~') || (k3 != '.' && k3 != 'O')) continue;
            g->shot_index[f][d] = (int16_t)n;
            g->action[n++] = (CastleAction){CASTLE_ACT_SHOT, (uint8_t)f, g->cell_node[c3], {(uint8_t)c1, (uint8_t)c2},
                                            (uint8_t)(k1 == '~' || k2 == '~'), (uint8_t)d};
        }
    }
    g->take_base = n;
    for (int p = 0; p < g->seats; p++)
        g->action[n++] = (CastleAction){CASTLE_ACT_TAKE, CASTLE_NONE, (uint8_t)p, {0, 0}, 0, 0};
    g->leave_action = n;
    g->action[n++] = (CastleAction){CASTLE_ACT_LEAVE, CASTLE_NONE, CASTLE_NONE, {0, 0}, 0, 0};
    g->recruit_base = n;
    for (int r = 1; r <= CASTLE_RANK_MAX; r++)
        g->action[n++] = (CastleAction){CASTLE_ACT_RECRUIT, CASTLE_NONE, (uint8_t)r, {0, 0}, 0, 0};
    g->no_recruit_action = n;
    g->action[n++] = (CastleAction){CASTLE_ACT_NO_RECRUIT, CASTLE_NONE, CASTLE_NONE, {0, 0}, 0, 0};
    g->actions = n;
}

static void build(CastleGeometry *g, const char *const *drawing, int rows, int mode) {
    int three = mode == CASTLE_FFA3;
    memset(g, 0, sizeof(*g));
    g->mode = mode;
    g->seats = three ? 3 : 4;
    g->rows = rows;
    memset(g->cell_node, CASTLE_NONE, sizeof(g->cell_node));
    memset(g->node_cell, CASTLE_NONE, sizeof(g->node_cell));
    memset(g->zone, CASTLE_NONE, sizeof(g->zone));
    memset(g->cell_kind, ' ', sizeof(g->cell_kind));
    /* Nodes: the spaces in row-major order, then the ring, then the turret (docs/castle.md). */
    int spaces = 0;
    for (int c = 0; c < rows * CASTLE_COLS; c++) {
        char ch = drawing[c / CASTLE_COLS][c % CASTLE_COLS];
        g->cell_kind[c] = ch == '~' || ch == 'O' || ch == 'T' || ch == ' ' ? ch : '.';
        if (g->cell_kind[c] == '.') {
            g->cell_node[c] = (uint8_t)spaces;
            g->node_cell[spaces++] = (uint8_t)c;
        }
    }
    g->spaces = spaces;
    g->ring = spaces;
    g->turret = spaces + 1;
    g->nodes = spaces + 2;
    for (int c = 0; c < rows * CASTLE_COLS; c++) {
        if (g->cell_kind[c] == 'O') g->cell_node[c] = (uint8_t)g->ring;
        if (g->cell_kind[c] == 'T') {
            g->cell_node[c] = (uint8_t)g->turret;
            g->node_cell[g->turret] = (uint8_t)c;
        }
    }
    /* Zones, recruitment (R) and flag start (F) spaces: a zone's letter is the one of its
     * row or column neighbours (R and F sit inside their zone). */
    int zone_count[CASTLE_SEATS_MAX] = {0};
    for (int f = 0; f < spaces; f++) {
        int c = g->node_cell[f], row = c / CASTLE_COLS, col = c % CASTLE_COLS;
        char ch = drawing[row][col];
        if (ch == 'R' || ch == 'F') {
            /* The zone of R/F: the zone letter beside it (north and south zones in the row,
             * east and west in the column). */
            int r2 = row, c2 = col + 1;
            if (col <= 2 || col >= 12) {
                r2 = row + 1;
                c2 = col;
            }
            ch = drawing[r2][c2];
            int seat = zone_seat(ch, three);
            if (drawing[row][col] == 'R') g->recruit_node[seat] = (uint8_t)f;
            else g->flag_node[seat] = (uint8_t)f;
            g->zone[f] = (uint8_t)seat;
            if (drawing[row][col] == 'F') g->zone_nodes[seat][zone_count[seat]++] = (uint8_t)f;
            continue;
        }
        int seat = zone_seat(ch, three);
        if (seat >= 0) {
            g->zone[f] = (uint8_t)seat;
            g->zone_nodes[seat][zone_count[seat]++] = (uint8_t)f;
        }
    }
    /* Neighbours (1.5, A4): orthogonal between nodes; a ring cell stands for the ring; the
     * turret touches only the ring. */
    for (int f = 0; f < spaces; f++) {
        int c = g->node_cell[f], row = c / CASTLE_COLS, col = c % CASTLE_COLS;
        for (int d = 0; d < 4; d++) {
            int c2 = cell_at(g, row + DIR_ROW[d], col + DIR_COL[d]);
            if (c2 < 0 || g->cell_node[c2] == CASTLE_NONE || g->cell_kind[c2] == 'T') continue;
            add_neighbour(g, f, g->cell_node[c2]);
            add_neighbour(g, g->cell_node[c2], f);
        }
        /* Lines (1.8, A5): ordinary spaces only, up to the edge, a lake or the castle. */
        for (int d = 0; d < 4; d++) {
            int r = row, cc = col, n = 0;
            for (;;) {
                r += DIR_ROW[d];
                cc += DIR_COL[d];
                int c2 = cell_at(g, r, cc);
                if (c2 < 0 || g->cell_kind[c2] != '.') break;
                g->line[f][d][n++] = g->cell_node[c2];
            }
            g->line_len[f][d] = (uint8_t)n;
        }
    }
    add_neighbour(g, g->ring, g->turret);
    add_neighbour(g, g->turret, g->ring);
    for (int f = 0; f < g->nodes; f++) sort_bytes(g->neighbour[f], g->degree[f]);
    build_actions(g);
}

void castle_init(void) {
    if (GEOMETRY_READY) return;
    build(&GEOMETRY[0], BOARD_A1, 15, CASTLE_FFA4);
    build(&GEOMETRY[1], BOARD_A2, 12, CASTLE_FFA3);
    GEOMETRY_READY = 1;
}

const CastleGeometry *castle_geometry(int mode) {
    castle_init();
    return &GEOMETRY[mode == CASTLE_FFA3];
}

/* ------------------------------------------------------------------ names */

char castle_seat_letter(int mode, int seat) {
    static const char FOUR[] = "nesw", THREE[] = "new";
    if (seat < 0 || seat >= (mode == CASTLE_FFA3 ? 3 : 4)) return '?';
    return mode == CASTLE_FFA3 ? THREE[seat] : FOUR[seat];
}

int castle_seat_from_letter(int mode, char letter) {
    int seats = mode == CASTLE_FFA3 ? 3 : 4;
    for (int p = 0; p < seats; p++)
        if (castle_seat_letter(mode, p) == letter) return p;
    return -1;
}

void castle_node_name(const CastleGeometry *g, int node, char out[8]) {
    if (node == g->ring) strcpy(out, "ring");
    else if (node == g->turret) strcpy(out, "turret");
    else if (node < 0 || node >= g->spaces) strcpy(out, "?");
    else {
        int c = g->node_cell[node];
        int row = c / CASTLE_COLS + 1, col = c % CASTLE_COLS;
        out[0] = (char)('A' + col);
        if (row >= 10) {
            out[1] = '1';
            out[2] = (char)('0' + row - 10);
            out[3] = 0;
        } else {
            out[1] = (char)('0' + row);
            out[2] = 0;
        }
    }
}

int castle_node_parse(const CastleGeometry *g, const char *text, size_t len) {
    if (len == 4 && memcmp(text, "ring", 4) == 0) return g->ring;
    if (len == 6 && memcmp(text, "turret", 6) == 0) return g->turret;
    if (len < 2 || len > 3 || text[0] < 'A' || text[0] > 'O') return -1;
    int row = 0;
    for (size_t k = 1; k < len; k++) {
        if (text[k] < '0' || text[k] > '9') return -1;
        row = row * 10 + (text[k] - '0');
    }
    if (text[1] == '0' || row < 1 || row > g->rows) return -1;
    int c = (row - 1) * CASTLE_COLS + (text[0] - 'A');
    return g->cell_kind[c] == '.' ? g->cell_node[c] : -1;
}
