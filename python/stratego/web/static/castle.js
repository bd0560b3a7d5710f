// The castle game's page of `stratego serve`: draws the seat's frame with the castle
// viewer's board (castle_board.js) and turns clicks into decisions. The server decides
// everything: legal decisions come from the engine's mask (state.legal: [from node, to
// node, notation], or [null, null, notation] for take, leave and recruitment).
"use strict";
(function () {
  const NAMES = {n: "North", e: "East", s: "South", w: "West"};
  const $ = id => document.getElementById(id);
  const el = Serve.el;
  const board = $("board");
  let gameId = null, state = null, moves = [], flipped = false, selected = null;
  let choices = null;  // decisions sharing the clicked move's nodes ("H1-H2", "H1-H2 drop"): buttons

  function send(method, path, body) { return Serve.send(method, path, body, take); }
  function since() { return "?since=" + moves.length; }

  let polling = null;
  function take(next) {
    state = next;
    moves = Serve.merge(moves, next);
    selected = null;
    choices = null;
    draw();
    // Another person's turn: ask again until it is this seat's, or the game is over.
    clearTimeout(polling);
    if (state.phase !== "over" && !state.your_turn) polling = setTimeout(poll, 800);
  }

  async function poll() {
    if (Serve.busy()) { polling = setTimeout(poll, 800); return; }
    try {
      take(await Serve.api("GET", "/api/games/" + gameId + since()));
    } catch (err) {
      $("error").textContent = err.message;
    }
  }

  const squareMoves = () => state.your_turn ? state.legal.filter(m => m[0] !== null) : [];

  function drawBoard() {
    if (!state) return;
    const extra = {};
    for (const m of squareMoves()) extra[m[0]] = "mine";
    if (selected !== null) {
      extra[selected] = "selected";
      for (const m of squareMoves()) if (m[0] === selected) extra[m[1]] = m[2].includes("*") ? "target shot" : "target";
    }
    // Your zone at the bottom (the viewer's seat view), or north at the top when flipped.
    const view = state.phase === "over" || flipped ? "full" : state.you;
    CastleBoard.draw(board, state.frame, view, state.seats, state.rows, extra);
  }

  function clickNode(node) {
    if (!state || !state.your_turn || Serve.busy() || !node) return;
    if (selected !== null) {
      const ms = squareMoves().filter(x => x[0] === selected && x[1] === node);
      if (ms.length === 1) { send("POST", "/api/games/" + gameId + "/move" + since(), {move: ms[0][2]}); return; }
      if (ms.length > 1) { choices = ms; drawDecisions(); return; }
    }
    selected = squareMoves().some(x => x[0] === node) && node !== selected ? node : null;
    choices = null;
    drawBoard();
    drawDecisions();
  }

  board.addEventListener("click", ev => {
    const cell = ev.target.closest(".cell");
    if (cell) clickNode(cell.dataset.node || null);
  });

  function drawDecisions() {
    const box = $("decisions");
    box.replaceChildren();
    const others = choices || (state && state.your_turn ? state.legal.filter(m => m[0] === null) : []);
    box.hidden = !others.length;
    for (const m of others) {
      const b = el(m[2], "", "button");
      b.type = "button";
      b.dataset.move = m[2];
      b.addEventListener("click", () => send("POST", "/api/games/" + gameId + "/move" + since(), {move: m[2]}));
      box.appendChild(b);
    }
  }

  function drawSide() {
    const table = $("seats");
    table.replaceChildren();
    if (!state) return;
    const frame = state.frame;
    const head = el("", "", "tr");
    for (const h of ["seat", "slider", "removed", "flag"]) head.appendChild(el(h, "", "th"));
    table.appendChild(head);
    for (const s of state.seats) {
      const tr = el("", "", "tr");
      tr.dataset.seat = s;
      const who = NAMES[s] + (s === state.you ? " (you)" : "") + (frame.to_move === s ? " \u25C0" : "");
      tr.appendChild(el(who, "seat " + s, "td"));
      tr.appendChild(el(String(frame.sliders[s]), "", "td"));
      const pile = frame.removed[s] || [];
      tr.appendChild(el(pile.length ? pile.join(" ") : "-", "removed", "td"));
      const lone = frame.lone.find(f => f[0] === s);
      tr.appendChild(el(lone ? "alone on " + lone[1] + (lone[2] ? " (left)" : "") : "carried", "", "td"));
      table.appendChild(tr);
    }
    const list = $("moves");
    list.replaceChildren();
    moves.forEach(m => list.appendChild(el(m.move, m.mover, "li")));
    list.scrollTop = list.scrollHeight;
  }

  function drawStatus() {
    const body = document.body;
    body.dataset.phase = state ? state.phase : "none";
    body.dataset.turn = state && state.your_turn ? "you" : "";
    if (!state) return;
    body.dataset.you = state.you;
    const over = state.phase === "over";
    let text = "You play " + NAMES[state.you] + " (" + state.mode + "): ";
    if (over) text = "Game over. " + state.result + ".";
    else if (state.your_turn) text += state.phase === "move" ? "your move." : "your decision (" + state.phase + ").";
    else text += NAMES[state.to_move] + (state.people.includes(state.to_move) ? " (a person)" : "") + " to " +
      state.phase + ".";
    $("status").textContent = text;
    $("result").textContent = over ? state.result : "";
    Serve.endLinks(gameId, over && state.record);
  }

  function draw() {
    drawBoard();
    drawDecisions();
    drawSide();
    drawStatus();
  }

  async function start(ev) {
    if (ev) ev.preventDefault();
    if (Serve.busy()) return;
    const people = [...document.querySelectorAll("#people input:checked")].map(i => i.value)
      .filter(v => v !== $("color").value);
    const body = {game: "castle", variant: $("variant").value, opponent: $("opponent").value,
                  color: $("color").value, people: people};
    const old = {gameId: gameId, moves: moves, state: state};
    moves = [];
    const data = await send("POST", "/api/games", body);
    if (data) {
      gameId = data.id;
      document.body.dataset.game = gameId;
      showInvites(data.invites || {});
    } else {
      gameId = old.gameId; moves = old.moves; state = old.state;
    }
  }

  // The links for the other people: each opens this page on that seat (its own id).
  function showInvites(invites) {
    const box = $("invites");
    box.replaceChildren();
    box.hidden = !Object.keys(invites).length;
    if (box.hidden) return;
    box.appendChild(el("Send each person the link of their seat: ", "", "span"));
    for (const [seat, id] of Object.entries(invites)) {
      const a = el(NAMES[seat], "invite", "a");
      a.href = "/castle#" + id;
      a.target = "_blank";
      a.dataset.seat = seat;
      box.appendChild(a);
      box.appendChild(el(" ", "", "span"));
    }
  }

  // A link of another person's seat (#invitation): join that seat, once; the seat's own
  // id then stands in the address (#seat=ID), so that reloading the tab finds it again.
  async function join(hash) {
    moves = [];
    try {
      let data;
      if (hash.startsWith("seat=")) {
        data = {id: hash.slice(5), state: await Serve.api("GET", "/api/games/" + hash.slice(5))};
      } else {
        data = await Serve.api("POST", "/api/games/" + hash + "/join");
        history.replaceState(null, "", "/castle#seat=" + data.id);
      }
      gameId = data.id;
      document.body.dataset.game = gameId;
      take(data.state);
    } catch (err) {
      $("error").textContent = err.message;
    }
  }

  $("new-game").addEventListener("submit", start);
  $("flip").addEventListener("click", () => { flipped = !flipped; drawBoard(); });
  Serve.api("GET", "/api/options").then(opts => {
    Serve.fillSelect("variant", opts.castle.variants, "ffa4");
    Serve.fillSelect("opponent", opts.castle.opponents, "heuristic");
    Serve.fillSelect("color", opts.castle.colors, "s");
    document.body.dataset.ready = "1";
    if (location.hash.length > 1) join(location.hash.slice(1));
  }).catch(err => { $("error").textContent = err.message; });
})();
