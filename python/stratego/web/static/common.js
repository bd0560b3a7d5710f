// What both pages of `stratego serve` share (play.js, castle.js): the requests to the
// server, one at a time, and a small DOM helper.
"use strict";
const Serve = (function () {
  function el(text, cls, tag) {
    const d = document.createElement(tag || "div");
    if (cls) d.className = cls;
    d.textContent = text;
    return d;
  }

  async function api(method, path, body) {
    const options = {method: method, headers: {}};
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  // Requests one at a time (body[data-busy] while one is on its way); an answer's state
  // goes to take(state), an error's message to #error.
  let busy = false;
  async function send(method, path, body, take) {
    if (busy) return null;
    busy = true;
    document.body.dataset.busy = "1";
    document.getElementById("error").textContent = "";
    try {
      const data = await api(method, path, body);
      if (data.state) take(data.state);
      return data;
    } catch (err) {
      document.getElementById("error").textContent = err.message;
      return null;
    } finally {
      busy = false;
      document.body.dataset.busy = "";
    }
  }

  // The moves a page keeps: the server sends those after the first `since` of them.
  function merge(moves, state) {
    return moves.slice(0, state.move_count - state.moves.length).concat(state.moves);
  }

  // Fills a <select> with `values`, `chosen` selected.
  function fillSelect(id, values, chosen) {
    const select = document.getElementById(id);
    select.replaceChildren();
    values.forEach(v => {
      const o = el(v, "", "option");
      o.value = v;
      if (v === chosen) o.selected = true;
      select.appendChild(o);
    });
  }

  // The record's and the viewer's links, shown once the game is over.
  function endLinks(gameId, over) {
    for (const [id, path] of [["download", "record"], ["open-viewer", "viewer"]]) {
      const link = document.getElementById(id);
      link.hidden = !over;
      link.href = over ? "/api/games/" + gameId + "/" + path : "";
    }
    document.getElementById("download").setAttribute("download", "stratego-game.jsonl");
  }

  return {el: el, api: api, send: send, busy: () => busy, merge: merge, fillSelect: fillSelect, endLinks: endLinks};
})();
