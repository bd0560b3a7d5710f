  // viewer_controls.js, put in by viewing/viewer.py and castle/viewer.py where their page says
  // __CONTROLS__: stepping through the frames and choosing the view, shared by both pages.
  // The page defines before it: data, views, view, ply, plies, slider, moves, the
  // element helper el(text, cls, tag), LABELS (view -> button label), VIEW_KEYS (key ->
  // view) and drawFrame() (the board, the side panel and the status of the current frame).
  function drawMoves() {
    moves.replaceChildren();
    data.frames[view].slice(1).forEach((frame, i) => {
      const li = el(frame.move, frame.mover, "li");
      li.dataset.ply = i + 1;
      li.addEventListener("click", () => go(i + 1));
      moves.appendChild(li);
    });
  }

  function draw() {
    drawFrame();
    slider.value = ply;
    for (const li of moves.children) {
      const current = Number(li.dataset.ply) === ply;
      li.classList.toggle("current", current);
      if (current) li.scrollIntoView({block: "nearest"});
    }
    for (const b of document.querySelectorAll("#perspectives button")) b.disabled = b.dataset.view === view;
    document.body.dataset.view = view;
    document.body.dataset.ply = ply;
  }

  function go(p) { ply = Math.max(0, Math.min(plies, p)); draw(); }
  function setView(v) { if (views.includes(v)) { view = v; drawMoves(); draw(); } }

  document.getElementById("first").addEventListener("click", () => go(0));
  document.getElementById("prev").addEventListener("click", () => go(ply - 1));
  document.getElementById("next").addEventListener("click", () => go(ply + 1));
  document.getElementById("last").addEventListener("click", () => go(plies));
  slider.addEventListener("input", () => go(Number(slider.value)));
  const span = document.getElementById("perspectives");
  // A page written for one side or seat holds that view only: a label, not a choice.
  if (views.length === 1) span.textContent = LABELS[view];
  for (const v of views.length > 1 ? views : []) {
    const b = document.createElement("button");
    b.textContent = LABELS[v];
    b.dataset.view = v;
    b.id = "view-" + v;
    b.addEventListener("click", () => setView(v));
    span.appendChild(b);
  }
  document.addEventListener("keydown", (e) => {
    const keys = {ArrowRight: 1, ArrowLeft: -1, PageDown: 10, PageUp: -10};
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (e.key in keys) go(ply + keys[e.key]);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(plies);
    else if (key in VIEW_KEYS) setView(VIEW_KEYS[key]);
    else return;
    e.preventDefault();
  });
  drawMoves();
  draw();
