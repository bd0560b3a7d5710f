"""Boards as RGB images (H x W x 3 uint8) for videos and `render_mode="rgb_array"`.

The SVG board (stratego.viewing.svg) drawn with NumPy alone: the same colours, squares, margins,
pieces, marks and labels, rasterized here so that the envs render pictures with the core
install (NumPy and Gymnasium only, no image library). Text is a 5 x 7 pixel font of the
few characters a board shows. A player's picture comes from that player's tokens
(render.board_tokens of its view), so it shows no piece the player has not identified.
"""
from __future__ import annotations

import numpy as np

from ..notation import COLUMNS
from .render import board_order
from .svg import COLORS, MARGIN, SQUARE, last_move_marks, token_parts

#: The SVG's page colour around the board.
BACKGROUND = "#fbf6e9"

# 5 x 7 glyphs, one string a row ("#" lit): the ranks, "?", the column letters, and what
# the castle game's boards add (seat letters are drawn as colours, not text).
_FONT_ROWS = {
    "0": (".###.", "#...#", "#..##", "#.#.#", "##..#", "#...#", ".###."),
    "1": ("..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "2": (".###.", "#...#", "....#", "...#.", "..#..", ".#...", "#####"),
    "3": ("#####", "...#.", "..#..", "...#.", "....#", "#...#", ".###."),
    "4": ("...#.", "..##.", ".#.#.", "#..#.", "#####", "...#.", "...#."),
    "5": ("#####", "#....", "####.", "....#", "....#", "#...#", ".###."),
    "6": ("..##.", ".#...", "#....", "####.", "#...#", "#...#", ".###."),
    "7": ("#####", "....#", "...#.", "..#..", ".#...", ".#...", ".#..."),
    "8": (".###.", "#...#", "#...#", ".###.", "#...#", "#...#", ".###."),
    "9": (".###.", "#...#", "#...#", ".####", "....#", "...#.", ".##.."),
    "?": (".###.", "#...#", "....#", "...#.", "..#..", ".....", "..#.."),
    "A": (".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "B": ("####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."),
    "C": (".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."),
    "D": ("####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."),
    "E": ("#####", "#....", "#....", "####.", "#....", "#....", "#####"),
    "F": ("#####", "#....", "#....", "####.", "#....", "#....", "#...."),
    "G": (".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".####"),
    "H": ("#...#", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"),
    "I": (".###.", "..#..", "..#..", "..#..", "..#..", "..#..", ".###."),
    "J": ("..###", "...#.", "...#.", "...#.", "...#.", "#..#.", ".##.."),
    "K": ("#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"),
    "L": ("#....", "#....", "#....", "#....", "#....", "#....", "#####"),
    "M": ("#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"),
    "N": ("#...#", "#...#", "##..#", "#.#.#", "#..##", "#...#", "#...#"),
    "O": (".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."),
    "S": (".####", "#....", "#....", ".###.", "....#", "....#", "####."),
}
FONT = {ch: np.array([[c == "#" for c in row] for row in rows]) for ch, rows in _FONT_ROWS.items()}


def rgb(color: str) -> np.ndarray:
    """"#rrggbb" as a uint8 (3,) array."""
    return np.array([int(color[i:i + 2], 16) for i in (1, 3, 5)], np.uint8)


class Canvas:
    """An H x W x 3 uint8 picture with the few shapes the boards need; shapes are clipped
    to the picture."""

    def __init__(self, height: int, width: int, color: str):
        self.pixels = np.empty((height, width, 3), np.uint8)
        self.pixels[:] = rgb(color)

    def rect(self, x: int, y: int, w: int, h: int, color: str, *, radius: int = 0, opacity: float = 1.0) -> None:
        """A filled rectangle, corners rounded by `radius`, over what is there with
        `opacity` (as SVG's fill-opacity)."""
        ys, xs = np.mgrid[0:h, 0:w]
        inside = np.ones((h, w), bool)
        if radius:
            # Outside a corner's quarter circle: the distance to its centre exceeds radius.
            cx = np.clip(xs, radius, w - 1 - radius)
            cy = np.clip(ys, radius, h - 1 - radius)
            inside = (xs - cx) ** 2 + (ys - cy) ** 2 <= radius ** 2
        self._paint(x, y, inside, color, opacity)

    def frame(self, x: int, y: int, w: int, h: int, color: str, width: int) -> None:
        """The outline of a rectangle, `width` pixels inward."""
        ring = np.ones((h, w), bool)
        ring[width:h - width, width:w - width] = False
        self._paint(x, y, ring, color)

    def circle(self, cx: int, cy: int, r: int, color: str) -> None:
        ys, xs = np.mgrid[-r:r + 1, -r:r + 1]
        self._paint(cx - r, cy - r, xs ** 2 + ys ** 2 <= r * r, color)

    def text(self, cx: int, cy: int, text: str, color: str, scale: int = 1) -> None:
        """`text` centred on (cx, cy), each glyph 5 x 7 pixels times `scale`, one
        `scale` apart; a character without a glyph is a ValueError."""
        missing = sorted(set(text) - set(FONT))
        if missing:
            raise ValueError(f"no glyph for {missing} in {text!r}")
        glyphs = [np.kron(FONT[ch], np.ones((scale, scale), bool)) for ch in text]
        gap = np.zeros((7 * scale, scale), bool)
        mask = np.hstack([part for g in glyphs for part in (g, gap)][:-1])
        self._paint(cx - mask.shape[1] // 2, cy - mask.shape[0] // 2, mask, color)

    def _paint(self, x: int, y: int, mask: np.ndarray, color: str, opacity: float = 1.0) -> None:
        height, width = self.pixels.shape[:2]
        x0, y0 = max(x, 0), max(y, 0)
        x1, y1 = min(x + mask.shape[1], width), min(y + mask.shape[0], height)
        if x0 >= x1 or y0 >= y1:
            return
        mask = mask[y0 - y:y1 - y, x0 - x:x1 - x]
        region = self.pixels[y0:y1, x0:x1]
        if opacity >= 1.0:
            region[mask] = rgb(color)
        else:
            blended = opacity * rgb(color).astype(np.float32) + (1 - opacity) * region[mask].astype(np.float32)
            region[mask] = np.rint(blended).astype(np.uint8)


def board_rgb(tokens: list[str], perspective: int | None = None, *,
              last_move: tuple[int, int, bool] | None = None) -> np.ndarray:
    """The picture svg.board_svg draws for the same arguments, as an RGB array of
    (10 * SQUARE + 2 * MARGIN) pixels a side (436 x 436 x 3 uint8)."""
    if len(tokens) != 100:
        raise ValueError(f"a board has 100 tokens, got {len(tokens)}")
    rows, cols = board_order(perspective)
    size = 10 * SQUARE + 2 * MARGIN
    canvas = Canvas(size, size, BACKGROUND)
    marks = last_move_marks(last_move)
    for y, r in enumerate(rows):
        for x, c in enumerate(cols):
            sq = r * 10 + c
            _square(canvas, sq, tokens[sq], MARGIN + x * SQUARE, MARGIN + y * SQUARE, marks.get(sq))
    half = SQUARE // 2
    for i, c in enumerate(cols):  # column letters above and below
        for cy in (MARGIN // 2, size - MARGIN // 2):
            canvas.text(MARGIN + i * SQUARE + half, cy, COLUMNS[c], COLORS["label"])
    for i, r in enumerate(rows):  # row numbers left and right
        for cx in (MARGIN // 2, size - MARGIN // 2):
            canvas.text(cx, MARGIN + i * SQUARE + half, str(r + 1), COLORS["label"])
    return canvas.pixels


def _square(canvas: Canvas, sq: int, token: str, x: int, y: int, mark: str | None) -> None:
    owner, shown, moved = token_parts(token)
    dark = (sq // 10 + sq % 10) % 2
    canvas.rect(x, y, SQUARE, SQUARE, COLORS["lake"] if token == "~~" else COLORS["dark" if dark else "light"])
    if owner is not None:
        canvas.rect(x + 3, y + 3, SQUARE - 6, SQUARE - 6, COLORS[owner], radius=5,
                    opacity=0.55 if shown == "?" else 1.0)
        canvas.text(x + SQUARE // 2, y + SQUARE // 2, shown, COLORS["text"], scale=2)
        if moved:  # an unidentified piece that has moved: neither bomb nor flag
            canvas.circle(x + SQUARE - 9, y + 9, 3, COLORS["text"])
    if mark is not None:
        canvas.frame(x + 1, y + 1, SQUARE - 2, SQUARE - 2, mark, 3)
