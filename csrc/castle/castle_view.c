/* castle_view.c: a seat's view as codes (castle_view.h), and the frames of castle_observe.h. The only file of
 * the observation that reads a CastleState; ranks only through the known bits (castle_known, A12). */
#include "castle_view.h"

#include <string.h>

/* One board seen from one compass place: where each node lands in the frame, and the
 * cells' codes before any piece is drawn (off the board, lake, empty node). */
typedef struct {
    uint8_t node_pos[CASTLE_NODES_MAX]; /* frame cell, CASTLE_POS_RING for the ring */
    uint8_t base[CASTLE_OBS_CELLS];
} ViewFrame;

static ViewFrame VIEW_FRAMES[2][4]; /* [board: 0 A1, 1 A2][observer's compass place] */
static CastleObsFrame OBS_FRAMES[4]; /* [missing place] */
static int VIEW_READY;

/* Compass places N E S W = 0 1 2 3; 3-player seats are N, E, W. */
static inline int compass(int mode, int seat) { return mode == CASTLE_FFA3 && seat == 2 ? 3 : seat; }

int castle_view_place(int mode, int observer, int seat) { return (compass(mode, seat) - compass(mode, observer)) & 3; }

/* The frame cell of board cell (row, col) for an observer at compass place d: its zone
 * turned to the bottom (S as drawn, N 180 degrees, E clockwise, W anticlockwise). */
static int frame_cell(int d, int row, int col) {
    const int n = CASTLE_OBS_SIDE - 1;
    switch (d) {
    case 0: return (n - row) * CASTLE_OBS_SIDE + (n - col);
    case 1: return col * CASTLE_OBS_SIDE + (n - row);
    case 3: return (n - col) * CASTLE_OBS_SIDE + row;
    default: return row * CASTLE_OBS_SIDE + col;
    }
}

void castle_view_init(void) {
    if (VIEW_READY) return;
    castle_init();
    for (int b = 0; b < 2; b++) {
        const CastleGeometry *g = castle_geometry(b ? CASTLE_FFA3 : CASTLE_FFA4);
        for (int d = 0; d < 4; d++) {
            ViewFrame *f = &VIEW_FRAMES[b][d];
            memset(f->node_pos, CASTLE_POS_NONE, sizeof(f->node_pos));
            memset(f->base, CASTLE_CELL_OFF, sizeof(f->base));
            for (int c = 0; c < CASTLE_CELLS; c++) {
                char k = g->cell_kind[c];
                int fc = frame_cell(d, c / CASTLE_COLS, c % CASTLE_COLS);
                if (k == '~') f->base[fc] = CASTLE_CELL_LAKE;
                else if (k != ' ') f->base[fc] = CASTLE_CELL_EMPTY;
                if (k == '.' || k == 'T') f->node_pos[g->cell_node[c]] = (uint8_t)fc;
            }
            f->node_pos[g->ring] = CASTLE_POS_RING;
        }
    }
    /* The static planes: in 4p every observer sees the same frame (missing 0, as from
     * S); in 3p the absent south seat sits at place m, which fixes the observer's
     * compass place d = (2 - m) & 3. */
    for (int m = 0; m < 4; m++) {
        CastleObsFrame *o = &OBS_FRAMES[m];
        memset(o, CASTLE_NONE, sizeof(*o));
        int three = m != 0, d = three ? (2 - m) & 3 : 2, mode = three ? CASTLE_FFA3 : CASTLE_FFA4;
        const CastleGeometry *g = castle_geometry(mode);
        const ViewFrame *f = &VIEW_FRAMES[three][d];
        for (int node = 0; node < g->spaces; node++) {
            int pos = f->node_pos[node];
            if (g->zone[node] != CASTLE_NONE)
                o->zone[pos] = (uint8_t)((compass(mode, g->zone[node]) - d) & 3);
        }
        for (int seat = 0; seat < g->seats; seat++)
            o->recruit[f->node_pos[g->recruit_node[seat]]] = (uint8_t)((compass(mode, seat) - d) & 3);
    }
    VIEW_READY = 1;
}

/* Row-major cells of the ring (G7 H7 I7, G8 I8, G9 H9 I9): symmetric about the centre,
 * so the same in every frame. */
const uint8_t CASTLE_RING_CELLS[8] = {6 * 15 + 6, 6 * 15 + 7, 6 * 15 + 8, 7 * 15 + 6,
                                      7 * 15 + 8, 8 * 15 + 6, 8 * 15 + 7, 8 * 15 + 8};

const CastleObsFrame *castle_obs_frames(void) {
    castle_view_init();
    return OBS_FRAMES;
}

static inline void put(uint8_t *codes, int pos, uint8_t code) {
    if (pos == CASTLE_POS_RING) {
        for (int k = 0; k < 8; k++) codes[CASTLE_RING_CELLS[k]] = code;
    } else {
        codes[pos] = code;
    }
}

void castle_view_codes(const CastleState *s, const CastleSettings *cfg, int seat, uint8_t *codes) {
    int mode = s->mode, d = compass(mode, seat);
    const ViewFrame *f = &VIEW_FRAMES[mode == CASTLE_FFA3][d];
    const uint8_t all = (uint8_t)((1u << s->seats) - 1);
    int place_of[CASTLE_SEATS_MAX];
    for (int p = 0; p < s->seats; p++) place_of[p] = (compass(mode, p) - d) & 3;
    memcpy(codes, f->base, CASTLE_OBS_CELLS);
    for (int p = 0; p < s->seats; p++) {
        int q = place_of[p];
        const uint8_t *node = s->node + p * CASTLE_PIECES, *known = s->known + p * CASTLE_PIECES;
        if (q == 0) {
            for (int k = 0; k < CASTLE_PIECES; k++)
                if (node[k] != CASTLE_NONE)
                    put(codes, f->node_pos[node[k]],
                        (uint8_t)(CASTLE_CELL_OWN + 2 * (CASTLE_SLOT_RANK[k] - 1) + (known[k] == all)));
            continue;
        }
        /* A12: another seat's rank only once this seat knows it (castle_known's bit). */
        const uint8_t base = (uint8_t)(CASTLE_CELL_OTHER + 10 * (q - 1));
        for (int k = 0; k < CASTLE_PIECES; k++)
            if (node[k] != CASTLE_NONE)
                put(codes, f->node_pos[node[k]],
                    (uint8_t)(base + (CASTLE_SLOT_RANK[k] & -(int)((known[k] >> seat) & 1))));
    }
    uint8_t *v = codes + CASTLE_OBS_CELLS;
    memset(v, 0, CASTLE_CODES_BYTES - CASTLE_OBS_CELLS);
    codes[CASTLE_CODE_MISSING] = (uint8_t)(mode == CASTLE_FFA3 ? (2 - d) & 3 : 0);
    codes[CASTLE_CODE_TEAMS] = mode == CASTLE_TEAMS4;
    codes[CASTLE_CODE_PHASE] = s->phase;
    codes[CASTLE_CODE_TO_MOVE] = (uint8_t)place_of[s->to_move];
    codes[CASTLE_CODE_MOVER] = (uint8_t)place_of[s->mover];
    /* castle_state_check holds take_node to a node only while the game runs. */
    codes[CASTLE_CODE_TAKE] = s->phase == CASTLE_PHASE_TAKE && s->take_node < CASTLE_NODES_MAX ? f->node_pos[s->take_node]
                                                                                          : CASTLE_POS_NONE;
    codes[CASTLE_CODE_PROGRESS] =
        cfg->max_plies ? (uint8_t)((uint64_t)(s->ply < (uint32_t)cfg->max_plies ? s->ply : (uint32_t)cfg->max_plies) *
                                   255u / (uint32_t)cfg->max_plies)
                       : 0;
    for (int q = 0; q < 4; q++) codes[CASTLE_CODE_FLAG_POS + q] = CASTLE_POS_NONE;
    for (int p = 0; p < s->seats; p++) {
        int q = place_of[p];
        /* 1.11, A8: flags and carriers are public, and so is an abandoned mark. */
        if (s->flag_node[p] != CASTLE_NONE) {
            codes[CASTLE_CODE_FLAG_POS + q] = f->node_pos[s->flag_node[p]];
            codes[CASTLE_CODE_FLAG_STATE + q] = s->flag_carrier[p] != CASTLE_NONE ? CASTLE_FLAG_CARRIED
                                                : s->flag_abandoned[p]             ? CASTLE_FLAG_ABANDONED
                                                                                   : CASTLE_FLAG_LONE;
        }
        codes[CASTLE_CODE_SLIDER + q] = s->slider[p];
        /* 1.6: removed pieces may be inspected by all. */
        memcpy(codes + CASTLE_CODE_REMOVED + q * CASTLE_OBS_RANKS, &s->removed[p][1], CASTLE_OBS_RANKS);
    }
}
