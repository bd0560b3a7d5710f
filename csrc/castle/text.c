/* text.c: the text board (docs/castle.md "Text board"): writing it, and reading it back
 * with errors that name the line and cell. The notation of one action is notation.c's. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "castle.h"

/* ------------------------------------------------------------------ writing a board */

/* The cells no piece stands on in the grid, their tokens and what they are. */
typedef struct {
    char kind;
    const char *token, *what;
} FixedCell;

static const FixedCell FIXED_CELLS[] = {
    {' ', "-", "off the board"},
    {'~', "~", "a lake"},
    {'O', "O", "a ring cell (its piece goes on the ring: line)"},
    {'T', "T", "the turret (its piece goes on the turret: line)"},
};

static const FixedCell *fixed_cell(char kind) {
    for (size_t k = 0; k < sizeof(FIXED_CELLS) / sizeof(FIXED_CELLS[0]); k++)
        if (FIXED_CELLS[k].kind == kind) return &FIXED_CELLS[k];
    return NULL;
}

typedef struct {
    char *out;
    size_t len, cap;
} Buf;

static void put(Buf *b, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    if (b->len < b->cap) {
        int n = vsnprintf(b->out + b->len, b->cap - b->len, fmt, ap);
        if (n > 0) b->len = b->len + (size_t)n < b->cap ? b->len + (size_t)n : b->cap - 1;
    }
    va_end(ap);
}

/* A piece's token: seat letter (upper case when every seat knows the rank), rank or ?
 * (unknown to the viewer), the letter of a carried flag. */
static void piece_token(const CastleState *s, int viewer, int slot, char out[8]) {
    int seat = castle_seat_of(slot), k = 0;
    char letter = castle_seat_letter(s->mode, seat);
    int all = (1 << s->seats) - 1;
    out[k++] = (char)((s->known[slot] & all) == all ? toupper(letter) : letter);
    out[k++] = viewer < 0 || castle_known(s, viewer, slot) ? (char)('0' + castle_rank(slot)) : '?';
    if (s->carry[slot] != CASTLE_NONE) out[k++] = castle_seat_letter(s->mode, s->carry[slot]);
    out[k] = 0;
}

int castle_to_text(const CastleState *s, int viewer, char *out, size_t out_len) {
    const CastleGeometry *g = castle_geometry(s->mode);
    Buf b = {out, 0, out_len};
    char tok[8], name[8];
    out[0] = 0;
    put(&b, "mode: %s\nto_move: %c\nphase: %s\nply: %u\nsliders:", castle_mode_name(s->mode),
        castle_seat_letter(s->mode, s->to_move), castle_phase_name(s->phase), (unsigned)s->ply);
    for (int p = 0; p < s->seats; p++) put(&b, " %c=%d", castle_seat_letter(s->mode, p), s->slider[p]);
    put(&b, "\nremoved:");
    for (int p = 0; p < s->seats; p++) {
        put(&b, " %c=", castle_seat_letter(s->mode, p));
        int first = 1;
        for (int r = CASTLE_RANK_MAX; r >= 1; r--)
            for (int k = 0; k < s->removed[p][r]; k++) {
                put(&b, first ? "%d" : ",%d", r);
                first = 0;
            }
    }
    put(&b, "\nlone:");
    for (int q = 0; q < s->seats; q++)
        if (s->flag_carrier[q] == CASTLE_NONE && s->flag_node[q] != CASTLE_NONE) {
            castle_node_name(g, s->flag_node[q], name);
            put(&b, " %c@%s%s", castle_seat_letter(s->mode, q), name, s->flag_abandoned[q] ? "!" : "");
        }
    for (int k = 0; k < 2; k++) {
        int node = k ? g->turret : g->ring, slot = s->board[node];
        if (slot != CASTLE_NONE) piece_token(s, viewer, slot, tok);
        put(&b, "\n%s: %s", k ? "turret" : "ring", slot == CASTLE_NONE ? "." : tok);
    }
    int any_repeat = 0;
    for (int p = 0; p < s->seats; p++)
        if (s->rep_count[p] && s->rep_slot[p] != CASTLE_NONE) {
            char a[8], c[8];
            int here = s->node[s->rep_slot[p]], other = here == s->rep_a[p] ? s->rep_b[p] : s->rep_a[p];
            castle_node_name(g, here, a);
            castle_node_name(g, other, c);
            put(&b, "%s %c=%s:%s:%d", any_repeat ? "" : "\nrepeat:", castle_seat_letter(s->mode, p), a, c, s->rep_count[p]);
            any_repeat = 1;
        }
    if (s->done) {
        if (s->winner == CASTLE_NONE) put(&b, "\nresult: draw (%s)", castle_end_name(s->end_reason));
        else {
            put(&b, "\nresult:");
            for (int p = 0; p < s->seats; p++)
                if (castle_seat_won(s, p)) put(&b, " %c", castle_seat_letter(s->mode, p));
            put(&b, " %s (%s)", s->mode == CASTLE_TEAMS4 ? "win" : "wins", castle_end_name(s->end_reason));
        }
    }
    put(&b, "\n   ");
    for (int c = 0; c < CASTLE_COLS; c++) put(&b, c + 1 < CASTLE_COLS ? " %-3c" : " %c", 'A' + c);
    for (int row = 0; row < g->rows; row++) {
        put(&b, "\n%2d ", row + 1);
        for (int c = 0; c < CASTLE_COLS; c++) {
            int cell = row * CASTLE_COLS + c;
            const FixedCell *fixed = fixed_cell(g->cell_kind[cell]);
            const char *t = fixed ? fixed->token : ".";
            if (!fixed && s->board[g->cell_node[cell]] != CASTLE_NONE) {
                piece_token(s, viewer, s->board[g->cell_node[cell]], tok);
                t = tok;
            }
            put(&b, c + 1 < CASTLE_COLS ? " %-3s" : " %s", t);
        }
    }
    put(&b, "\n");
    return (int)b.len;
}

/* ------------------------------------------------------------------ reading a board */

typedef struct {
    CastleState *s;
    const CastleGeometry *g;
    int line;
    char *err;
    size_t err_len;
} Reader;

static int fail(Reader *r, const char *fmt, ...) {
    va_list ap;
    int n = snprintf(r->err, r->err_len, "line %d: ", r->line);
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < r->err_len) vsnprintf(r->err + n, r->err_len - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

/* Places the piece a token names on `node`; where names the cell for errors. */
static int read_piece(Reader *r, const char *tok, int node, const char *where) {
    CastleState *s = r->s;
    size_t len = strlen(tok);
    int seat = len >= 2 ? castle_seat_from_letter(s->mode, (char)tolower((unsigned char)tok[0])) : -1;
    if (seat < 0 || len > 3 || tok[1] < '1' || tok[1] > '9') {
        if (len >= 2 && tok[1] == '?') return fail(r, "%s: %s: a full board needs every rank (no ?)", where, tok);
        return fail(r, "%s: cannot read %s: expected ., a seat letter (%s) with a rank 1..9 and maybe a flag letter, "
                       "like n9 or E5w",
                    where, tok, s->mode == CASTLE_FFA3 ? "n e w" : "n e s w");
    }
    int rank = tok[1] - '0';
    int slot = seat * CASTLE_PIECES;
    while (slot < (seat + 1) * CASTLE_PIECES && (castle_rank(slot) != rank || s->node[slot] != CASTLE_NONE)) slot++;
    if (slot == (seat + 1) * CASTLE_PIECES)
        return fail(r, "%s: %s: %c has only %d piece(s) of rank %d (A3)", where, tok, tok[0], CASTLE_RANK_COUNT[rank], rank);
    s->board[node] = (uint8_t)slot;
    s->node[slot] = (uint8_t)node;
    if (isupper((unsigned char)tok[0])) s->known[slot] = (uint8_t)((1u << s->seats) - 1);
    if (len == 3) {
        int flag = castle_seat_from_letter(s->mode, tok[2]);
        if (flag < 0) return fail(r, "%s: %s: %c is not a seat's flag", where, tok, tok[2]);
        if (s->flag_node[flag] != CASTLE_NONE) return fail(r, "%s: %s: the flag of %c is already placed", where, tok, tok[2]);
        s->carry[slot] = (uint8_t)flag;
        s->flag_carrier[flag] = (uint8_t)slot;
        s->flag_node[flag] = (uint8_t)node;
    }
    return 0;
}

/* Splits `line` at whitespace into at most max tokens (each < 64 chars); -1 if one is longer. */
static int split(const char *line, char tok[][64], int max) {
    int n = 0;
    while (*line) {
        while (*line == ' ' || *line == '\t' || *line == '\r') line++;
        if (!*line) break;
        size_t k = 0;
        while (line[k] && line[k] != ' ' && line[k] != '\t' && line[k] != '\r') k++;
        if (k >= 64 || n == max) return -1;
        memcpy(tok[n], line, k);
        tok[n][k] = 0;
        n++;
        line += k;
    }
    return n;
}

/* `n=0 e=3`: a value per seat letter. */
static int read_seat_values(Reader *r, const char *key, const char *value, char vals[][64], int max, int *seen) {
    char tok[8][64];
    int n = split(value, tok, 8);
    if (n < 0) return fail(r, "%s: too many or too long entries", key);
    for (int k = 0; k < n && k < max; k++) {
        int seat = tok[k][1] == '=' ? castle_seat_from_letter(r->s->mode, tok[k][0]) : -1;
        if (seat < 0) return fail(r, "%s: cannot read %s: expected <seat letter>=<value>", key, tok[k]);
        strcpy(vals[seat], tok[k] + 2);
        seen[seat] = 1;
    }
    return 0;
}

static int read_header(Reader *r, const CastleSettings *cfg, const char *key, const char *value, int *to_move,
                       int removed_given[][CASTLE_RANK_MAX + 1], int *removed_seen) {
    CastleState *s = r->s;
    const CastleGeometry *g = r->g;
    char tok[8][64];
    if (strcmp(key, "mode") == 0) {
        if (strcmp(value, castle_mode_name(cfg->mode)) != 0)
            return fail(r, "mode %s, but the settings' mode is %s", value, castle_mode_name(cfg->mode));
    } else if (strcmp(key, "to_move") == 0) {
        *to_move = strlen(value) == 1 ? castle_seat_from_letter(s->mode, value[0]) : -1;
        if (*to_move < 0) return fail(r, "to_move: expected a seat letter, got %s", value);
    } else if (strcmp(key, "phase") == 0) {
        if (strcmp(value, "move") != 0) return fail(r, "phase: a text board starts in the move phase, got %s", value);
    } else if (strcmp(key, "ply") == 0) {
        char *end;
        unsigned long long v = strtoull(value, &end, 10);
        if (!isdigit((unsigned char)*value) || *end || v > UINT32_MAX)
            return fail(r, "ply: expected a number 0..%u, got %s", (unsigned)UINT32_MAX, value);
        if (cfg->max_plies && v >= (unsigned long long)cfg->max_plies)
            return fail(r, "ply: %s is at or past the settings' max_plies %d", value, (int)cfg->max_plies);
        s->ply = (uint32_t)v;
    } else if (strcmp(key, "sliders") == 0) {
        char vals[4][64];
        int seen[4] = {0};
        if (read_seat_values(r, key, value, vals, 4, seen) < 0) return -1;
        for (int p = 0; p < s->seats; p++)
            if (seen[p]) {
                if (strlen(vals[p]) != 1 || vals[p][0] < '0' || vals[p][0] > '5')
                    return fail(r, "sliders: %c=%s: a slider is 0..5 between turns", castle_seat_letter(s->mode, p), vals[p]);
                s->slider[p] = (uint8_t)(vals[p][0] - '0');
            }
    } else if (strcmp(key, "removed") == 0) {
        char vals[4][64];
        int seen[4] = {0};
        *removed_seen = 1;
        if (read_seat_values(r, key, value, vals, 4, seen) < 0) return -1;
        for (int p = 0; p < s->seats; p++)
            for (const char *c = vals[p]; seen[p] && *c; c++) {
                if (*c == ',') continue;
                if (*c < '1' || *c > '9') return fail(r, "removed: %s: expected ranks 1..9 separated by commas", vals[p]);
                removed_given[p][*c - '0']++;
            }
    } else if (strcmp(key, "lone") == 0) {
        int n = split(value, tok, 8);
        if (n < 0) return fail(r, "lone: too many or too long entries");
        for (int k = 0; k < n; k++) {
            size_t len = strlen(tok[k]);
            int abandoned = len > 0 && tok[k][len - 1] == '!';
            int flag = tok[k][1] == '@' ? castle_seat_from_letter(s->mode, tok[k][0]) : -1;
            int node = flag >= 0 ? castle_node_parse(g, tok[k] + 2, len - 2 - (size_t)abandoned) : -1;
            if (flag < 0 || node < 0) return fail(r, "lone: cannot read %s: expected <seat>@<node>, ! if abandoned", tok[k]);
            if (s->flag_node[flag] != CASTLE_NONE) return fail(r, "lone: the flag of %c is already placed", tok[k][0]);
            s->flag_node[flag] = (uint8_t)node;
            s->flag_abandoned[flag] = (uint8_t)abandoned;
        }
    } else if (strcmp(key, "ring") == 0 || strcmp(key, "turret") == 0) {
        if (strcmp(value, ".") != 0) return read_piece(r, value, key[0] == 'r' ? g->ring : g->turret, key);
    } else if (strcmp(key, "repeat") == 0) {
        int n = split(value, tok, 4);
        if (n < 0) return fail(r, "repeat: too many or too long entries");
        for (int k = 0; k < n; k++) {
            char a[8] = {0}, c[8] = {0};
            int count = 0, seat = tok[k][1] == '=' ? castle_seat_from_letter(s->mode, tok[k][0]) : -1;
            if (seat < 0 || sscanf(tok[k] + 2, "%7[^:]:%7[^:]:%d", a, c, &count) != 3 || count < 1 || count > cfg->back_and_forth)
                return fail(r, "repeat: cannot read %s: expected <seat>=<node>:<node>:<count 1..%d (back_and_forth)>",
                            tok[k], (int)cfg->back_and_forth);
            int here = castle_node_parse(g, a, strlen(a)), other = castle_node_parse(g, c, strlen(c));
            if (here < 0 || other < 0 || s->board[here] == CASTLE_NONE || castle_seat_of(s->board[here]) != seat)
                return fail(r, "repeat: %s: the first node must hold a piece of %c (give ring/turret lines first)", tok[k],
                            tok[k][0]);
            s->rep_slot[seat] = s->board[here];
            s->rep_a[seat] = (uint8_t)here;
            s->rep_b[seat] = (uint8_t)other;
            s->rep_count[seat] = (uint8_t)count;
        }
    } else if (strcmp(key, "result") == 0) {
        /* to_text writes it for a game over; a board read back is a game in play, and a
         * result it would not keep must not pass as read. */
        return fail(r, "result: %s: from_text reads a game in play; expected no result line", value);
    } else {
        return fail(r, "unknown header %s (expected mode, to_move, phase, ply, sliders, removed, lone, ring, turret, repeat)", key);
    }
    return 0;
}

/* The header keys a text board may give, each at most once. */
static const char *const HEADER_KEYS[] = {"mode",  "to_move", "phase",  "ply",    "sliders",
                                          "removed", "lone",  "ring",   "turret", "repeat"};
#define HEADER_KEY_NB ((int)(sizeof(HEADER_KEYS) / sizeof(HEADER_KEYS[0])))

/* Notes the line of header `key`; a second one fails naming both lines (the later would
 * otherwise win silently). 0 or -1. */
static int header_once(Reader *r, const char *key, int lines[HEADER_KEY_NB]) {
    for (int k = 0; k < HEADER_KEY_NB; k++)
        if (strcmp(key, HEADER_KEYS[k]) == 0) {
            if (lines[k]) return fail(r, "%s: given twice (first on line %d); expected each header once", key, lines[k]);
            lines[k] = r->line;
        }
    return 0;
}

int castle_from_text(CastleState *s, const CastleSettings *cfg, const char *text, char *err, size_t err_len) {
    Reader r = {s, castle_geometry(cfg->mode), 0, err, err_len};
    const CastleGeometry *g = r.g;
    int to_move = cfg->first_seat, rows_seen[CASTLE_ROWS_MAX] = {0}, removed_seen = 0;
    int removed_given[CASTLE_SEATS_MAX][CASTLE_RANK_MAX + 1] = {{0}};
    char repeat[128] = {0}; /* read after the grid and the castle: it names pieces */
    int repeat_line = 0, header_lines[HEADER_KEY_NB] = {0};
    castle_clear(s, cfg);
    const char *p = text;
    while (*p) {
        char line[512];
        size_t n = strcspn(p, "\n");
        r.line++;
        if (n >= sizeof(line)) return fail(&r, "line too long");
        memcpy(line, p, n);
        line[n] = 0;
        p += n + (p[n] == '\n');
        char tok[17][64];
        int count = split(line, tok, 17);
        if (count == 0) continue;
        char *colon = strchr(line, ':');
        if (colon && !isdigit((unsigned char)tok[0][0])) {
            *colon = 0;
            char key[32], *value = colon + 1;
            if (sscanf(line, " %31s", key) != 1) return fail(&r, "a header line needs a key before :");
            while (*value == ' ' || *value == '\t') value++;
            size_t vl = strlen(value);
            while (vl && (value[vl - 1] == ' ' || value[vl - 1] == '\r' || value[vl - 1] == '\t')) value[--vl] = 0;
            if (header_once(&r, key, header_lines) < 0) return -1;
            if (strcmp(key, "repeat") == 0) {
                if (vl >= sizeof(repeat)) return fail(&r, "repeat: too long");
                strcpy(repeat, value);
                repeat_line = r.line;
                continue;
            }
            if (read_header(&r, cfg, key, value, &to_move, removed_given, &removed_seen) < 0) return -1;
            continue;
        }
        if (count < 0) return fail(&r, "a token is too long, or more than 15 cells");
        if (strcmp(tok[0], "A") == 0) continue; /* the column letters */
        char *end;
        long row = strtol(tok[0], &end, 10);
        if (*end || row < 1 || row > g->rows || strlen(tok[0]) > 2)
            return fail(&r, "expected a header (key: value) or a row 1..%d of the grid, got %s", g->rows, tok[0]);
        if (rows_seen[row - 1]) return fail(&r, "row %ld given twice", row);
        rows_seen[row - 1] = 1;
        if (count != 16) return fail(&r, "row %ld has %d cells, expected 15 (A..O; - off the board)", row, count - 1);
        for (int c = 0; c < CASTLE_COLS; c++) {
            int cell = (int)(row - 1) * CASTLE_COLS + c;
            char where[64];
            const char *t = tok[c + 1];
            const FixedCell *fixed = fixed_cell(g->cell_kind[cell]);
            snprintf(where, sizeof(where), "%c%ld", 'A' + c, row);
            if (fixed) {
                if (strcmp(t, fixed->token) != 0)
                    return fail(&r, "%s is %s, so its cell must read %s, got %s", where, fixed->what, fixed->token, t);
                continue;
            }
            if (strcmp(t, ".") == 0) continue;
            if (read_piece(&r, t, g->cell_node[cell], where) < 0) return -1;
        }
    }
    r.line = 0;
    for (int row = 0; row < g->rows; row++)
        if (!rows_seen[row]) {
            snprintf(err, err_len, "the grid lacks row %d (every row 1..%d is needed)", row + 1, g->rows);
            return -1;
        }
    if (repeat[0]) {
        r.line = repeat_line;
        if (read_header(&r, cfg, "repeat", repeat, &to_move, removed_given, &removed_seen) < 0) return -1;
    }
    /* Pieces never leave the board but by removal: the missing ones are the removed piles. */
    for (int slot = 0; slot < s->seats * CASTLE_PIECES; slot++)
        if (s->node[slot] == CASTLE_NONE) {
            s->removed[castle_seat_of(slot)][castle_rank(slot)]++;
            s->known[slot] = (uint8_t)((1u << s->seats) - 1);
        }
    for (int q = 0; q < s->seats; q++) {
        int same = 1;
        for (int rank = 1; rank <= CASTLE_RANK_MAX; rank++) same &= removed_given[q][rank] == s->removed[q][rank];
        if (removed_seen && !same) {
            snprintf(err, err_len, "removed: %c's pile does not match the pieces missing from the board",
                     castle_seat_letter(s->mode, q));
            return -1;
        }
        if (s->flag_node[q] == CASTLE_NONE) {
            snprintf(err, err_len, "the flag of %c is nowhere: put it on a piece (like n5%c) or on the lone: line",
                     castle_seat_letter(s->mode, q), castle_seat_letter(s->mode, q));
            return -1;
        }
    }
    CastleSettings start = *cfg;
    start.first_seat = to_move;
    castle_start(s, &start);
    /* What the lines could not check one by one (a repeat that is no move of its piece). */
    if (castle_state_check(s, cfg, err, err_len) < 0) return -1;
    return 0;
}
