// A game page: holds the seats whose secret tokens are in the address's #fragment (one seat, several on a
// hot-seat device, or none for a spectator), receives its view over a websocket and sends answers as JSON.
// Everything shown comes as HTML the server escaped; nothing from the game is inserted as markup here. The
// drawing (board, cards, clicks on them, pan and zoom, gliding) is scene.js's.
import { render as draw } from "./scene.js";

const main = document.getElementById("view");
const gid = main.dataset.game;
const lang = main.dataset.lang;
const tokens = location.hash.slice(1).split(".").filter(Boolean);
const noticeBox = document.getElementById("notice");
const pass = document.getElementById("pass");
let seats = [];          // seats[i]: the seat of tokens[i] (null: not a seat of this game)
let current = null;      // the view on screen
let shownSeat;           // whose view is on screen
let waiting = null;      // a view held back behind the "pass the device" screen

function tokenOf(seat) {
  const i = seats.indexOf(seat);
  return i >= 0 ? tokens[i] : null;
}

function notice(text) {
  noticeBox.textContent = text;
}

function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${gid}`);
  ws.onopen = () => ws.send(JSON.stringify({ tokens, lang }));
  ws.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "held") seats = m.seats;
    else if (m.type === "notice") notice(main.dataset.unknown);
    else if (m.type === "view") show(m);
  };
  ws.onclose = (event) => { if (event.code < 4000) setTimeout(connect, 1000); };
}

function show(m) {
  if (tokens.length > 1 && shownSeat !== undefined && m.seat !== shownSeat && m.deciding) {
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
  draw(main, m, {
    answer,
    buttons: {
      "#undo": () => post("undo", {}),
      "#to-bot": () => post("seat", { kind: "random" }),
      "#to-person": () => post("seat", { kind: "person" }),
      "#download": download,
    },
  });
}

async function post(what, body) {
  const seat = current ? current.seat : null;
  const res = await fetch(`/api/g/${gid}/${what}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: tokenOf(seat), ...body }),
  });
  if (!res.ok) {
    let reason = res.statusText;
    try { reason = (await res.json()).error; } catch (e) { /* not JSON */ }
    notice(main.dataset.refused.replace("{reason}", reason));
  } else {
    notice("");
  }
  return res;
}

function answer(option) {
  if (!current || current.decision === null) return;
  for (const b of main.querySelectorAll("button.opt")) b.disabled = true;
  return post("answer", { decision: current.decision, option });
}

async function download() {
  const res = await post("log", {});
  if (!res.ok) return;
  const name = (res.headers.get("Content-Disposition") || "").match(/filename="([^"]+)"/);
  const a = document.createElement("a");
  a.href = URL.createObjectURL(await res.blob());
  a.download = name ? name[1] : "game-log.json";
  document.body.appendChild(a);
  a.click();
  a.remove();
}

connect();
