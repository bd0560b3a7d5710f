// The classic game's board, drawn from 100 view tokens (render's: "." empty, "~~" lake,
// owner + rank, "?" unknown, "?m" unknown and moved): shared by the viewer's page
// (viewer.html, where it says __STRATEGO_BOARD__) and `stratego serve`'s page
// (stratego/web), so both draw the same board.
const StrategoBoard = (function () {
  "use strict";
  const COLUMNS = "ABCDEFGHIK";

  // As render.square_name: the row number in full ("A10", where Gravon writes "A:").
  function squareName(sq) { return COLUMNS[sq % 10] + String(Math.floor(sq / 10) + 1); }

  function el(text, cls) {
    const d = document.createElement("div");
    d.className = cls;
    d.textContent = text;
    return d;
  }

  // Draws into `board` the rows and columns in the order given (render.board_order),
  // labels on every side, the last move marked ([from, to, attack] or null); `decorate`,
  // if given, is called with each square's element and index before it is added.
  function draw(board, tokens, rows, cols, last, decorate) {
    const marks = {};
    if (last) { marks[last[0]] = "last"; marks[last[1]] = last[2] ? "attack" : "last"; }
    board.replaceChildren();
    const letters = () => {
      board.appendChild(el("", "label"));
      cols.forEach(c => board.appendChild(el(COLUMNS[c], "label")));
      board.appendChild(el("", "label"));
    };
    letters();
    for (const r of rows) {
      board.appendChild(el(String(r + 1), "label"));
      for (const c of cols) {
        const sq = r * 10 + c, token = tokens[sq];
        const d = el("", "sq " + (token === "~~" ? "lake" : (r + c) % 2 ? "dark" : "light"));
        d.dataset.square = squareName(sq);
        d.dataset.token = token;
        if (marks[sq]) d.classList.add(marks[sq]);
        if (token !== "." && token !== "~~") {
          const owner = token[0], rest = token.slice(1);
          const p = el(rest === "?m" ? "?" : rest, "piece " + owner);
          if (rest[0] === "?") p.classList.add("unknown");
          if (rest === "?m") p.classList.add("moved");
          d.appendChild(p);
        }
        if (decorate) decorate(d, sq);
        board.appendChild(d);
      }
      board.appendChild(el(String(r + 1), "label"));
    }
    letters();
  }

  return {COLUMNS: COLUMNS, squareName: squareName, draw: draw};
})();
