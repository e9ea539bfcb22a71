// A game page's drawing: the view the server rendered (escaped HTML, in parts: interpreter/web/live.py) put on
// the page, the options' buttons, clicks on the map's areas and on components, and hot-seat's "pass the
// device" screen. The transport is static/connection.js; nothing from the game is inserted as markup here
// except the server's escaped HTML.
import { answer, heldSeats } from "./connection.js";

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
  main.innerHTML = m.html;  // the server's escaped HTML
  main.dataset.version = m.version;
  main.dataset.seat = m.seat === null ? "" : m.seat;
}

// Clicks are read where they land in the view, whichever parts were replaced since.
main.addEventListener("click", (event) => {
  const button = event.target.closest("button.opt");
  if (button) return choose(Number(button.dataset.option));
  const area = event.target.closest("g.area.chosen");
  if (area) return pick("areas", area.dataset.area, area.querySelector(".aname").textContent);
  const item = event.target.closest(".item.pickable");
  if (item) return pick("refs", item.dataset.ref, item.firstChild ? item.firstChild.textContent : "");
  if (event.target.closest(".show-all")) filter(null);
});

main.addEventListener("keydown", (event) => {
  const area = event.target.closest("g.area.chosen");
  if (area && event.key === "Enter") area.dispatchEvent(new MouseEvent("click", { bubbles: true }));
});

function filter(keep) {
  const box = main.querySelector(".filter");
  for (const b of main.querySelectorAll("button.opt")) b.parentElement.hidden = keep !== null && !keep.includes(b);
  if (box) box.hidden = keep === null;
}

// A click on an area of the map (or a component): the one option naming it is chosen; several are listed.
function pick(kind, ref, name) {
  const named = [...main.querySelectorAll("button.opt")].filter((b) => b.dataset[kind].split(" ").includes(ref));
  if (named.length === 1) return choose(Number(named[0].dataset.option));
  if (named.length > 1) {
    filter(named);
    main.querySelector(".filter-text").textContent = main.dataset.optionsHere.replace("{area}", name);
  }
}

function choose(option) {
  if (!current || current.decision === null) return;
  for (const b of main.querySelectorAll("button.opt")) b.disabled = true;
  return answer(current.seat, current.decision, option);
}
