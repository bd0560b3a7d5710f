"""SVG boards for people: Game.svg and notebooks' _repr_svg_.

The picture is drawn from render.board_tokens, the same tokens the text board shows: a
player's picture comes from that player's view only (GameState.view_cells), so it holds
no piece the player has not identified, not even in the SVG's text.
"""
from __future__ import annotations

from html import escape

from ..notation import COLUMNS
from ..notation import square_name
from .render import board_order

#: Colours of the board and the pieces; the HTML viewer (stratego.viewing.viewer) uses the same.
COLORS = {
    "light": "#e9d8a6", "dark": "#dcc78e", "lake": "#7fb3d5", "r": "#c0392b", "b": "#2e5fa8",
    "text": "#ffffff", "label": "#555555", "last": "#f1c40f", "attack": "#ff6f00",
}
SQUARE = 40  # pixels a square
MARGIN = 18  # room for the coordinates


def token_parts(token: str) -> tuple[str | None, str, bool]:
    """(owner "r"/"b" or None, what the piece shows, moved-and-unidentified) of a token of
    render.board_tokens: ("b", "?", True) for "b?m", (None, "~~", False) for a lake."""
    if token in (".", "~~"):
        return None, token, False
    owner, rest = token[0], token[1:]
    if rest == "?m":
        return owner, "?", True
    return owner, rest, False


def last_move_marks(last_move: tuple[int, int, bool] | None) -> dict[int, str]:
    """The squares the last move marks and their colours (the SVG's and the RGB
    picture's): both squares, the target in the attack colour if it was an attack."""
    if last_move is None:
        return {}
    src, dst, attack = last_move
    return {src: COLORS["last"], dst: COLORS["attack"] if attack else COLORS["last"]}


def board_svg(tokens: list[str], perspective: int | None = None, *,
              last_move: tuple[int, int, bool] | None = None, title: str | None = None) -> str:
    """An SVG picture of a board given as 100 tokens (render.board_tokens), seen from
    `perspective` (None or 0: red at the bottom; 1: blue at the bottom). `last_move`
    (from, to, attack) marks the latest move, the target ringed in orange for an attack.
    Each square is a <g> with data-square (notation.square_name) and data-token."""
    if len(tokens) != 100:
        raise ValueError(f"a board has 100 tokens, got {len(tokens)}")
    rows, cols = board_order(perspective)
    size = 10 * SQUARE + 2 * MARGIN
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
           f'viewBox="0 0 {size} {size}" font-family="sans-serif">']
    if title:
        out.append(f"<title>{escape(title)}</title>")
    out.append(f'<rect width="{size}" height="{size}" fill="#fbf6e9"/>')
    marks = last_move_marks(last_move)
    for y, r in enumerate(rows):
        for x, c in enumerate(cols):
            sq = r * 10 + c
            out.append(_square(sq, tokens[sq], MARGIN + x * SQUARE, MARGIN + y * SQUARE, marks.get(sq)))
    half = SQUARE // 2
    for i, c in enumerate(cols):  # column letters above and below
        x = MARGIN + i * SQUARE + half
        for y in (MARGIN - 5, size - 5):
            out.append(f'<text x="{x}" y="{y}" font-size="11" text-anchor="middle" fill="{COLORS["label"]}">{COLUMNS[c]}</text>')
    for i, r in enumerate(rows):  # row numbers left and right
        y = MARGIN + i * SQUARE + half + 4
        for x in (MARGIN // 2, size - MARGIN // 2):
            out.append(f'<text x="{x}" y="{y}" font-size="11" text-anchor="middle" fill="{COLORS["label"]}">{r + 1}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _square(sq: int, token: str, x: int, y: int, mark: str | None) -> str:
    owner, shown, moved = token_parts(token)
    dark = (sq // 10 + sq % 10) % 2
    fill = COLORS["lake"] if token == "~~" else COLORS["dark" if dark else "light"]
    parts = [f'<g data-square="{square_name(sq)}" data-token="{token}">',
             f'<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>']
    if owner is not None:
        unknown = shown == "?"
        parts.append(f'<rect x="{x + 3}" y="{y + 3}" width="{SQUARE - 6}" height="{SQUARE - 6}" rx="5" '
                     f'fill="{COLORS[owner]}" fill-opacity="{0.55 if unknown else 1}"/>')
        parts.append(f'<text x="{x + SQUARE // 2}" y="{y + SQUARE // 2 + 5}" font-size="15" font-weight="bold" '
                     f'text-anchor="middle" fill="{COLORS["text"]}">{escape(shown)}</text>')
        if moved:  # an unidentified piece that has moved: neither bomb nor flag
            parts.append(f'<circle cx="{x + SQUARE - 9}" cy="{y + 9}" r="3" fill="{COLORS["text"]}"/>')
    if mark is not None:
        parts.append(f'<rect x="{x + 1.5}" y="{y + 1.5}" width="{SQUARE - 3}" height="{SQUARE - 3}" '
                     f'fill="none" stroke="{mark}" stroke-width="3"/>')
    parts.append("</g>")
    return "".join(parts)
