"""The castle game's board as an RGB image (H x W x 3 uint8): `Game.rgb`, and the
PettingZoo env's render_mode="rgb_array".

Drawn with NumPy (stratego.viewing.raster's canvas and font) from the text board a perspective
sees (`Game.to_text(seat)`, read by notation.parse_text), in the viewer's colours
(COLORS): the grid with north at the top, lakes, the ring and the turret, each
piece in its seat's colour with its rank ("?" unknown: translucent; a rank every seat
knows: a white frame), a carried flag as a small square of its owner's colour in the
piece's corner. A seat's picture holds only what that seat knows.
"""
from __future__ import annotations

import numpy as np

from stratego.viewing.raster import BACKGROUND, Canvas

from .notation import COLUMNS, parse_text

#: Seat colours (n, e, s, w), and the board's, as the viewer's page and this picture draw them.
COLORS = {"n": "#c0392b", "e": "#2163a8", "s": "#1e8449", "w": "#b9770e", "light": "#e8dcb5",
          "lake": "#7fb3d5", "ring": "#b8a07a", "turret": "#8d6e4a", "last": "#f4d03f", "attack": "#e67e22"}

CELL = 30  # pixels a cell
MARGIN = 18  # room for the coordinates
LABEL = "#555555"


def text_rgb(text: str) -> np.ndarray:
    """The picture of a text board (docs/castle.md "Text board")."""
    parts = parse_text(text)
    grid = parts["grid"]
    rows, cols = len(grid), len(grid[0])
    canvas = Canvas(rows * CELL + 2 * MARGIN, cols * CELL + 2 * MARGIN, BACKGROUND)
    for r, line in enumerate(grid):
        for c, kind in enumerate(line):
            if kind == "-":  # off the board
                continue
            x, y = MARGIN + c * CELL, MARGIN + r * CELL
            token = parts["ring"] if kind == "O" else parts["turret"] if kind == "T" else kind
            fill = {"~": "lake", "O": "ring", "T": "turret"}.get(kind, "light")
            canvas.rect(x, y, CELL - 1, CELL - 1, COLORS[fill])
            if token not in (".", "~"):
                _piece(canvas, token, x, y)
    for c in range(cols):
        for cy in (MARGIN // 2, rows * CELL + MARGIN + MARGIN // 2):
            canvas.text(MARGIN + c * CELL + CELL // 2, cy, COLUMNS[c], LABEL)
    for r in range(rows):
        for cx in (MARGIN // 2 + 1, cols * CELL + MARGIN + MARGIN // 2):
            canvas.text(cx, MARGIN + r * CELL + CELL // 2, str(r + 1), LABEL)
    return canvas.pixels


def _piece(canvas: Canvas, token: str, x: int, y: int) -> None:
    """A piece token: seat letter (upper case: every seat knows the rank), rank or "?",
    then the letter of a flag it carries."""
    owner, rank, carried = token[0].lower(), token[1], token[2:]
    canvas.rect(x + 2, y + 2, CELL - 5, CELL - 5, COLORS[owner], radius=5, opacity=0.6 if rank == "?" else 1.0)
    if token[0] != owner:
        canvas.frame(x + 2, y + 2, CELL - 5, CELL - 5, "#ffffff", 2)
    canvas.text(x + CELL // 2, y + CELL // 2, rank, "#ffffff", scale=2)
    if carried:
        canvas.rect(x + CELL - 10, y + 1, 8, 8, COLORS[carried.lower()])
        canvas.frame(x + CELL - 10, y + 1, 8, 8, "#ffffff", 1)
