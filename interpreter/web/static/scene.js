// The drawing of a seat's view (the transport is game.js's): puts the server's escaped HTML of the view on the
// page, keeps the board's static layer and the frame's side panel in it, routes clicks on the board, cards and
// options to answers, pans and zooms the board, and lets components that moved glide to their new places.
// Nothing from the game is inserted as markup here: the HTML comes from the server, already escaped. Events are
// read where they land (one listener each on the view), so whatever part of the view is replaced, they work.

const keep = document.getElementById("board-keep");
const staticBoard = keep ? keep.querySelector("svg.board-static") : null;
const sideExtra = document.getElementById("side-extra");
const view = { scale: 1, x: 0, y: 0 };  // the board's pan and zoom, kept from one view to the next
let logOpen = false;
let dragged = false;     // a drag that panned the board is not a click on it
let installed = null;    // the view element whose events are read

export function render(main, m, act) {
  install(main, act);
  const before = positions(main);
  const log = main.querySelector("#log");
  if (log) logOpen = log.open;
  main.innerHTML = m.html;  // the server's escaped HTML
  main.dataset.version = m.version;
  main.dataset.seat = m.seat === null ? "" : m.seat;
  settle(main);
  glide(main, before);
}

// After the view (or a part of it) changed: the static board back under the reader's layer, the frame's side
// panel back in the side, the log as the reader left it, the board's pan and zoom as they were.
export function settle(main) {
  const pan = main.querySelector(".board-pan");
  if (pan && staticBoard && staticBoard.parentElement !== pan) pan.prepend(staticBoard);
  const side = main.querySelector("#side");
  if (side && sideExtra && sideExtra.parentElement !== side) side.insertBefore(sideExtra, side.querySelector("#log"));
  const log = main.querySelector("#log");
  if (log && logOpen) log.open = true;
  const stage = main.querySelector(".board-stage");
  if (stage) apply(stage);
}

// ------------------------------------------------------------------ choosing
function install(main, act) {
  if (installed === main) return;
  installed = main;
  main.addEventListener("click", (event) => {
    const t = event.target;
    if (t.closest(".zoom")) return zoomButton(main, t.closest("button"));
    if (dragged) return;
    const option = t.closest("button.opt");
    if (option) return act.answer(Number(option.dataset.option));
    const area = t.closest("use.chosen");
    if (area) return pick(main, act, "areas", area.dataset.area, area.getAttribute("aria-label") || "");
    const card = t.closest(".card.pickable, .pc.pickable");
    if (card) return pick(main, act, "refs", card.dataset.ref, nameOf(card));
    if (t.closest(".show-all")) return filter(main, null);
    for (const [selector, fn] of Object.entries(act.buttons)) if (t.closest(selector)) return fn();
  });
  main.addEventListener("submit", (event) => {  // a number in a range: its index is the number less the lowest
    const form = event.target.closest("form.number");
    if (!form) return;
    event.preventDefault();
    if (form.reportValidity()) act.answer(Number(form.elements.n.value) - Number(form.dataset.low));
  });
  main.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" && event.key !== " ") return;
    const t = event.target.closest("use.chosen, .card.pickable, .pc.pickable");
    if (!t) return;
    event.preventDefault();
    if (t.matches("use.chosen")) pick(main, act, "areas", t.dataset.area, t.getAttribute("aria-label") || "");
    else pick(main, act, "refs", t.dataset.ref, nameOf(t));
  });
  panZoom(main);
}

function nameOf(el) {
  const title = el.querySelector(".ctitle, title");
  return title ? title.textContent : "";
}

function filter(main, keep) {
  const box = main.querySelector(".filter");
  for (const b of main.querySelectorAll("button.opt")) b.parentElement.hidden = keep !== null && !keep.includes(b);
  if (box) box.hidden = keep === null;
}

// A click on an area of the map or on a component: the one option naming it is chosen; several are listed.
function pick(main, act, kind, ref, name) {
  const named = [...main.querySelectorAll("button.opt")].filter((b) => b.dataset[kind].split(" ").includes(ref));
  if (named.length === 1) return act.answer(Number(named[0].dataset.option));
  if (named.length > 1) {
    filter(main, named);
    main.querySelector(".filter-text").textContent = main.dataset.optionsHere.replace("{area}", name);
    named[0].focus();
  }
}

// ------------------------------------------------------------------ pan and zoom
function apply(stage) {
  const pan = stage.querySelector(".board-pan");
  clamp(stage);
  if (pan) pan.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
}

function zoomAt(stage, factor, cx, cy) {
  const scale = Math.min(6, Math.max(1, view.scale * factor));
  const k = scale / view.scale;
  view.x = cx - (cx - view.x) * k;
  view.y = cy - (cy - view.y) * k;
  view.scale = scale;
  apply(stage);
}

function clamp(stage) {
  const w = stage.clientWidth, h = stage.clientHeight;
  view.x = Math.min(0, Math.max(w - w * view.scale, view.x));
  view.y = Math.min(0, Math.max(h - h * view.scale, view.y));
}

function zoomButton(main, button) {
  const stage = main.querySelector(".board-stage");
  if (!stage || !button) return;
  const cx = stage.clientWidth / 2, cy = stage.clientHeight / 2;
  if (button.classList.contains("zin")) zoomAt(stage, 1.5, cx, cy);
  else if (button.classList.contains("zout")) zoomAt(stage, 1 / 1.5, cx, cy);
  else { view.scale = 1; view.x = 0; view.y = 0; apply(stage); }
}

function panZoom(main) {
  const stageOf = (e) => e.target.closest && e.target.closest(".board-stage");
  main.addEventListener("wheel", (e) => {
    const stage = stageOf(e);
    if (!stage || (!e.ctrlKey && view.scale === 1 && e.deltaY > 0)) return;  // the page scrolls on until zoomed
    e.preventDefault();
    const r = stage.getBoundingClientRect();
    zoomAt(stage, e.deltaY < 0 ? 1.2 : 1 / 1.2, e.clientX - r.left, e.clientY - r.top);
  }, { passive: false });
  const pointers = new Map();
  let start = null;
  main.addEventListener("pointerdown", (e) => {
    const stage = stageOf(e);
    if (!stage || e.target.closest(".zoom")) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    start = { stage, x: view.x, y: view.y, scale: view.scale, px: e.clientX, py: e.clientY, dist: spread(pointers) };
    dragged = false;
  });
  main.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId) || !start) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    const stage = start.stage;
    if (pointers.size === 2 && start.dist) {  // a pinch
      const r = stage.getBoundingClientRect();
      const [a, b] = [...pointers.values()];
      zoomAt(stage, (spread(pointers) / start.dist) * start.scale / view.scale, (a[0] + b[0]) / 2 - r.left, (a[1] + b[1]) / 2 - r.top);
      dragged = true;
      return;
    }
    const dx = e.clientX - start.px, dy = e.clientY - start.py;
    if (Math.abs(dx) + Math.abs(dy) > 6 && view.scale > 1) {
      dragged = true;
      view.x = start.x + dx;
      view.y = start.y + dy;
      apply(stage);
    }
  });
  const end = (e) => {
    pointers.delete(e.pointerId);
    if (pointers.size === 0) { start = null; setTimeout(() => { dragged = false; }, 0); }
    else if (start) start = { ...start, dist: spread(pointers), scale: view.scale };
  };
  main.addEventListener("pointerup", end);
  main.addEventListener("pointercancel", end);
}

function spread(pointers) {
  if (pointers.size < 2) return 0;
  const [a, b] = [...pointers.values()];
  return Math.hypot(a[0] - b[0], a[1] - b[1]);
}

// ------------------------------------------------------------------ gliding
// Where each drawn component was (by its id): board tokens in the board's coordinates, cards on the page.
export function positions(main) {
  const out = { pieces: new Map(), cards: new Map() };
  for (const p of main.querySelectorAll(".pc[data-ref]")) out.pieces.set(p.dataset.ref, at(p));
  for (const c of main.querySelectorAll(".card[data-ref]")) out.cards.set(c.dataset.ref, [place(c), c.getBoundingClientRect()]);
  return out;
}

// Which zone (of which player) a card lies in.
function place(card) {
  const zone = card.closest(".zone");
  const player = card.closest("[data-seat]");
  return `${zone ? zone.dataset.zone : ""}@${player ? player.dataset.seat : ""}`;
}

// A board token's place: its translate(x y), in the board's coordinates.
function at(piece) {
  const m = piece.transform.baseVal.consolidate();
  return m ? [m.matrix.e, m.matrix.f] : [0, 0];
}

export function glide(main, before) {
  if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  for (const p of main.querySelectorAll(".pc[data-ref]")) {
    const old = before.pieces.get(p.dataset.ref);
    if (!old) continue;
    const now = at(p);
    const dx = old[0] - now[0], dy = old[1] - now[1];
    if (dx || dy) {
      p.querySelector(".pcin").animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
        { duration: 450, easing: "ease-out" });
    }
  }
  for (const c of main.querySelectorAll(".card[data-ref]")) {
    const was = before.cards.get(c.dataset.ref);
    if (!was || was[0] === place(c)) continue;  // a card glides when it changes zone, not when the page reflows
    const old = was[1];
    const now = c.getBoundingClientRect();
    const dx = old.left - now.left, dy = old.top - now.top;
    if (Math.abs(dx) + Math.abs(dy) > 2) {
      c.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }], { duration: 350, easing: "ease-out" });
    }
  }
}
