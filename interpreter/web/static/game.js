// A game page's view: what arrives over the connection (static/connection.js: the view's escaped HTML, put
// together from its parts) handed to the drawing (static/scene.js: board, cards, clicks on them, pan and zoom,
// gliding), and hot-seat's "pass the device" screen. Nothing from the game is inserted as markup here.
import { answer, heldSeats } from "./connection.js";
import { render as draw } from "./scene.js";

const main = document.getElementById("view");
const pass = document.getElementById("pass");
let current = null;      // the view on screen
let shownSeat;           // whose view is on screen
let waiting = null;      // a view held back behind the "pass the device" screen

document.addEventListener("rules:view", (event) => show(event.detail));

function show(m) {
  if (heldSeats().length > 1 && shownSeat !== undefined && m.seat !== shownSeat && m.deciding) {
    // hot-seat: the next person's view waits until they have the device
    waiting = m;
    main.hidden = true;
    main.replaceChildren();  // the previous seat's view leaves the page, not only the screen
    document.getElementById("pass-text").textContent = main.dataset.pass.replace("{player}", m.player);
    document.getElementById("pass-ready").textContent = main.dataset.ready.replace("{player}", m.player);
    pass.hidden = false;
    return;
  }
  render(m);
}

document.getElementById("pass-ready").addEventListener("click", () => {
  pass.hidden = true;
  main.hidden = false;
  if (waiting) render(waiting);
  waiting = null;
});

function render(m) {
  current = m;
  shownSeat = m.seat;
  // The seat's tools and the chat sit in the view's side panel and leave the document for a moment while the
  // view is replaced: whoever was typing a message (or had a button focused there) keeps their place.
  const focused = document.activeElement;
  const kept = focused && focused.closest && focused.closest("#side-extra") ? focused : null;
  const range = kept && typeof kept.selectionStart === "number" ? [kept.selectionStart, kept.selectionEnd] : null;
  draw(main, m, { answer: choose, buttons: {} });  // the seat's other tools are static/tools.js's
  if (kept && kept.isConnected && document.activeElement !== kept) {
    kept.focus({ preventScroll: true });
    if (range) kept.setSelectionRange(range[0], range[1]);
  }
}

function choose(option) {
  if (!current || current.decision === null) return;
  for (const b of main.querySelectorAll("button.opt")) b.disabled = true;
  return answer(current.seat, current.decision, option);
}
