// The castle game's board, drawn from a frame (castle.viewer.frame_of): shared by the
// castle viewer's page (castle_viewer.html, where it says __CASTLE_BOARD__) and `stratego
// serve`'s page (stratego/web), so both draw the same board.
const CastleBoard = (function () {
  "use strict";
  const COLUMNS = "ABCDEFGHIJKLMNO", COLS = 15;

  // Where cell (r, c) is drawn: a seat's view turns the board so its zone is at the
  // bottom (north half a turn, east a quarter clockwise, west a quarter anticlockwise).
  function place(v, ROWS, r, c) {
    if (v === "n") return [ROWS - 1 - r, COLS - 1 - c];
    if (v === "e") return [c, ROWS - 1 - r];
    if (v === "w") return [COLS - 1 - c, r];
    return [r, c];
  }

  // The start zones (the 7x3 blocks of docs/castle.md), for the cells' tint.
  function zone(r, c) {
    if (r <= 2 && c >= 4 && c <= 10) return "n";
    if (r >= 12 && c >= 4 && c <= 10) return "s";
    if (r >= 4 && r <= 10 && c >= 12) return "e";
    if (r >= 4 && r <= 10 && c <= 2) return "w";
    return null;
  }

  function el(text, cls, tag) {
    const d = document.createElement(tag || "div");
    d.className = cls;
    d.textContent = text;
    return d;
  }

  function flagMark(owner, abandoned) {
    return el("\u2691" + (abandoned ? "!" : ""), "flag " + owner, "span");
  }

  // A piece token: seat letter (upper case: every seat knows the rank), rank or "?",
  // then the letter of a carried flag.
  function pieceEl(token) {
    const owner = token[0].toLowerCase(), rank = token[1], carried = token.slice(2);
    const p = el(rank, "piece " + owner);
    if (rank === "?") p.classList.add("unknown");
    if (token[0] !== owner) p.classList.add("public");
    if (carried) p.appendChild(flagMark(carried, false));
    return p;
  }

  // Fills `board` with the cells of `frame` (castle.viewer.frame_of) as `view` ("full" or
  // a seat letter) sees it; `seats` tints the zones in play, `ROWS` is the board's height.
  // `extra` (node -> class), when given, adds the caller's classes (stratego serve's targets).
  function draw(board, frame, view, seats, ROWS, extra) {
    const grid = frame.grid.map(row => row.split(" "));
    const marks = {};
    if (frame.last) {
      marks[frame.last[0]] = "last";
      marks[frame.last[1]] = frame.last[2] === "-" ? "last" : "attack";
    }
    const lone = {};
    for (const [owner, node, abandoned] of frame.lone) (lone[node] = lone[node] || []).push([owner, abandoned]);
    const turned = view === "e" || view === "w";
    board.style.gridTemplateColumns = "repeat(" + (turned ? ROWS : COLS) + ", 36px)";
    board.replaceChildren();
    let ringDrawn = false;
    for (let r = 0; r < grid.length; r++) {
      for (let c = 0; c < COLS; c++) {
        const kind = grid[r][c];
        if (kind === "-") continue;
        const name = COLUMNS[c] + String(r + 1);
        const node = kind === "O" ? "ring" : kind === "T" ? "turret" : kind === "~" ? "" : name;
        const token = kind === "O" ? frame.ring : kind === "T" ? frame.turret : kind;
        let cls = "cell " + (kind === "~" ? "lake" : kind === "O" ? "ring" : kind === "T" ? "turret" : "space");
        const z = zone(r, c);
        if (z && kind === "." && seats.includes(z)) cls += " zone-" + z;
        const d = el("", cls);
        const [gr, gc] = place(view, ROWS, r, c);
        d.style.gridRow = String(gr + 1);
        d.style.gridColumn = String(gc + 1);
        d.title = kind === "O" ? "ring (" + name + ")" : node || name;
        d.dataset.cell = name;
        if (node) { d.dataset.node = node; d.dataset.token = token; }
        if (marks[node]) d.classList.add(marks[node]);
        if (extra && node && extra[node]) d.classList.add(...extra[node].split(" "));
        if (kind === "O" && token !== ".") d.classList.add("held-" + token[0].toLowerCase());
        // The ring is one node over eight cells: its piece and lone flags are drawn once.
        const first = kind !== "O" || !ringDrawn;
        if (kind === "O") ringDrawn = true;
        if (first && token !== "." && token !== "~") d.appendChild(pieceEl(token));
        if (first) for (const [owner, abandoned] of lone[node] || []) d.appendChild(flagMark(owner, abandoned));
        board.appendChild(d);
      }
    }
  }

  return {COLUMNS: COLUMNS, draw: draw, place: place};
})();
