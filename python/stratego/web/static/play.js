// `stratego serve`'s page: asks the server (stratego/web/app.py) for each game's state and
// sends the person's moves. The server decides everything: legal targets come from the
// engine's mask (state.legal), the board from the person's own view; this script only
// draws them and turns clicks into requests.
"use strict";
(function () {
  const NAMES = {r: "Red", b: "Blue"};
  const $ = id => document.getElementById(id);
  const board = $("board");
  let gameId = null, state = null, moves = [], flipped = false;
  let selected = null;   // the square of the piece chosen to move
  let handRank = null;   // the rank chosen from the hand while placing

  const squareName = StrategoBoard.squareName;

  const el = Serve.el;
  function send(method, path, body) { return Serve.send(method, path, body, take); }

  function since() { return "?since=" + moves.length; }

  function take(next) {
    state = next;
    // The server sends the moves after those this page has (since=N).
    moves = Serve.merge(moves, next);
    selected = null;
    if (state.phase !== "deploy" || !(handRank in (state.hand || {}))) handRank = null;
    draw();
  }

  // Rows top to bottom and columns left to right (render.board_order): the person's own
  // back row at the bottom, unless the board is flipped.
  function order() {
    const up = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], down = up.slice().reverse();
    const blueBelow = (state && state.you === "b") !== flipped;
    return blueBelow ? [up, down] : [down, up];
  }

  function targetsOf(sq) { return state.legal.filter(m => m[0] === sq); }
  function placementsOf(rank) { return state.legal.filter(m => m[0] === rank); }

  function drawBoard() {
    const [rows, cols] = order();
    const tokens = state ? state.board : Array(100).fill(".");
    const hints = {};
    if (state && state.your_turn) {
      if (state.phase === "play" && selected !== null) targetsOf(selected).forEach(m => { hints[m[1]] = m[2]; });
      if (state.phase === "deploy" && handRank !== null) placementsOf(handRank).forEach(m => { hints[m[1]] = m[2]; });
    }
    const movable = new Set(state && state.your_turn && state.phase === "play" ? state.legal.map(m => m[0]) : []);
    StrategoBoard.draw(board, tokens, rows, cols, state && state.last, (d, sq) => {
      d.dataset.sq = String(sq);
      if (movable.has(sq)) d.classList.add("mine");
      if (sq === selected) d.classList.add("selected");
      if (hints[sq] !== undefined) {
        d.classList.add(state.phase === "deploy" ? "zone" : "target");
        d.dataset.move = hints[sq];
      }
      d.addEventListener("click", () => clickSquare(sq));
      d.addEventListener("dragover", ev => { if (state && state.phase === "deploy") ev.preventDefault(); });
      d.addEventListener("drop", ev => {
        ev.preventDefault();
        const rank = ev.dataTransfer.getData("text/plain");
        if (rank) { handRank = rank; clickSquare(sq); }
      });
    });
  }

  function clickSquare(sq) {
    if (!state || !state.your_turn || Serve.busy()) return;
    if (state.phase === "deploy") {
      if (handRank === null) return;
      const m = placementsOf(handRank).find(x => x[1] === sq);
      if (m) send("POST", "/api/games/" + gameId + "/move" + since(), {move: m[2]});
      return;
    }
    if (state.phase !== "play") return;
    if (selected !== null) {
      const m = targetsOf(selected).find(x => x[1] === sq);
      if (m) { send("POST", "/api/games/" + gameId + "/move" + since(), {move: m[2]}); return; }
    }
    selected = targetsOf(sq).length ? (sq === selected ? null : sq) : null;
    drawBoard();
  }

  function drawHand() {
    const hand = $("hand");
    hand.replaceChildren();
    const show = state && state.phase === "deploy";
    hand.hidden = !show;
    $("fill").hidden = !show;
    if (!show) return;
    for (const [rank, count] of Object.entries(state.hand || {})) {
      const p = el(rank, "hand-piece " + state.you);
      p.dataset.rank = rank;
      p.appendChild(el("×" + count, "count", "span"));
      if (rank === handRank) p.classList.add("chosen");
      p.draggable = true;
      p.addEventListener("dragstart", ev => ev.dataTransfer.setData("text/plain", rank));
      p.addEventListener("click", () => { handRank = rank === handRank ? null : rank; draw(); });
      hand.appendChild(p);
    }
  }

  function drawRescue() {
    const box = $("rescue");
    box.replaceChildren();
    const show = state && state.your_turn && state.phase === "rescue";
    box.hidden = !show;
    if (!show) return;
    box.appendChild(el("Rescue a piece: ", "", "span"));
    for (const m of state.legal) {
      const b = el(m[2], "", "button");
      b.type = "button";
      b.dataset.move = m[2];
      b.addEventListener("click", () => send("POST", "/api/games/" + gameId + "/move" + since(), {move: m[2]}));
      box.appendChild(b);
    }
  }

  function fightText(f, mover) {
    const them = {r: "b", b: "r"}[mover];
    const who = {attacker: NAMES[mover] + " won", defender: NAMES[them] + " won", both: "both pieces fell"}[f.winner];
    return NAMES[mover] + " " + f.attacker + " attacked " + NAMES[them] + " " + f.defender + ": " + who;
  }

  function drawSide() {
    const list = $("moves");
    list.replaceChildren();
    moves.forEach(m => {
      const li = el(m.move + (m.fight ? " (" + m.fight.attacker + " x " + m.fight.defender + ")" : ""), m.mover, "li");
      list.appendChild(li);
    });
    list.scrollTop = list.scrollHeight;
    for (const side of ["r", "b"]) {
      const box = $("captured-" + side);
      const lost = state && state.captured && state.captured[side];
      if (!lost) { box.textContent = ""; continue; }
      let text = NAMES[side] + " lost: " + (lost.ranks.length ? lost.ranks.join(" ") : "nothing");
      if (lost.unknown) text += (lost.ranks.length ? " and " : "") + lost.unknown + " unidentified";
      box.textContent = text;
    }
    $("rescues").textContent = state && state.rescues ? "Rescues: Red " + state.rescues[0] + ", Blue " + state.rescues[1] : "";
    const fight = [...moves].reverse().find(m => m.fight);
    const latest = moves.length ? moves[moves.length - 1] : null;
    $("fight").textContent = latest && latest.fight ? fightText(latest.fight, latest.mover) :
      fight ? "Last fight: " + fightText(fight.fight, fight.mover) : "";
  }

  function drawStatus() {
    const body = document.body;
    body.dataset.phase = state ? state.phase : "none";
    body.dataset.turn = state && state.your_turn ? "you" : "";
    body.dataset.flipped = flipped ? "1" : "";
    if (!state) return;
    body.dataset.you = state.you;
    const you = NAMES[state.you];
    let text;
    if (state.phase === "over") text = "Game over. " + state.result + ".";
    else if (state.phase === "deploy") text = "You play " + you + ": place your pieces in your zone.";
    else if (state.your_turn) text = "You play " + you + ": your move" + (state.phase === "rescue" ? " (a rescue)" : "") + ".";
    else text = "You play " + you + ": the " + state.opponent + " bot is thinking.";
    if (state.draw_offer) text += " The bot " + state.draw_offer + " your draw offer.";
    $("status").textContent = text;
    $("result").textContent = state.phase === "over" ? state.result : "";
    const over = state.phase === "over";
    $("resign").disabled = over;
    $("draw").disabled = over || state.phase === "deploy";
    Serve.endLinks(gameId, over && state.record);
  }

  function draw() {
    drawBoard();
    drawHand();
    drawRescue();
    drawSide();
    drawStatus();
  }

  async function start(ev) {
    if (ev) ev.preventDefault();
    const body = {variant: $("variant").value, opponent: $("opponent").value,
                  color: $("color").value, setup: $("setup").value};
    if (Serve.busy()) return;
    const old = {gameId: gameId, moves: moves, state: state};
    moves = [];
    const data = await send("POST", "/api/games", body);
    if (data) {
      gameId = data.id;
      document.body.dataset.game = gameId;
    } else {
      gameId = old.gameId; moves = old.moves; state = old.state;
    }
  }

  $("new-game").addEventListener("submit", start);
  $("flip").addEventListener("click", () => { flipped = !flipped; draw(); });
  $("resign").addEventListener("click", () => { if (gameId) send("POST", "/api/games/" + gameId + "/resign" + since()); });
  $("draw").addEventListener("click", () => { if (gameId) send("POST", "/api/games/" + gameId + "/draw" + since()); });
  $("fill").addEventListener("click", () => { if (gameId) send("POST", "/api/games/" + gameId + "/fill" + since()); });

  Serve.api("GET", "/api/options").then(opts => {
    Serve.fillSelect("variant", opts.variants, "classic");
    Serve.fillSelect("opponent", opts.opponents, "heuristic");
    Serve.fillSelect("color", opts.colors, "red");
    document.body.dataset.ready = "1";
  }).catch(err => { $("error").textContent = err.message; });
  draw();
})();
