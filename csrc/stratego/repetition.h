/* repetition.h: the two-square rule.
 *
 * ISF: a piece may not move more than N times non-stop between the same two squares
 * (N = 3; Gravon's server used 5). "Non-stop" means consecutive moves of the same
 * player with the same piece; attacks count like moves. For Scouts the rule is read
 * as crossing the same square boundary, and this engine uses that reading for every
 * piece (a one-square move crosses exactly one boundary, so for other pieces it is
 * the plain "same two squares" rule):
 *
 *   A move crosses the boundaries between the cells it passes, along its row or
 *   column. A player's run is the longest tail of their own moves, all by one piece,
 *   along one line, such that some boundary is crossed by every move of the run.
 *   A move that would make a run of more than N moves is illegal.
 *
 * A Captain's turning move (Ultimate Lightning) lies on no line; its run is the moves
 * between the same two squares.
 *
 * The run is the longest such tail, not the run that the latest move opened: after
 * B4-B3, B3-B5, B5-B4, B4-B5 the last three moves all cross the boundary B4|B5, so the
 * run is 3 although B5-B4 shares no boundary with the first two moves together. The
 * state keeps, per player, the piece, the line and for each boundary of that line how
 * many of the latest moves in a row crossed it; a tail has a common boundary exactly
 * when some boundary's count covers it, so the run is the largest count. A move is
 * checked in O(its boundaries), at most 9.
 */
#ifndef STRATEGO_REPETITION_H
#define STRATEGO_REPETITION_H

#include "board.h"

/* 1 if piece `id` moving from `from` to `to` (absolute squares on one line) would be
 * the (limit + 1)-th move of its owner's run. limit 0 means no rule. */
int repetition_forbids(const GameState *s, int limit, int id, int from, int to);

/* Records the move in its owner's run. */
void repetition_record(GameState *s, int id, int from, int to);

#endif
