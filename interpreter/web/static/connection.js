// A game page's connection to the server: the websocket (interpreter/web/live.py) and the JSON calls.
// It holds the seats whose secret tokens are in the address's #fragment and tells the page's other modules
// what arrives, as events on `document`:
//   rules:held  {seats}        the seat of each token (null: not a seat of this game)
//   rules:view  {... , html, parts}  the view: its HTML whole again from its parts (interpreter/web/live.py)
//   rules:chat  {lines}        chat messages not shown yet
// While the socket is down a banner says so; a choice made then is kept and sent once the connection is back
// if the game still asks it, else the banner says it was dropped.
const main = document.getElementById("view");
const banner = document.getElementById("connection");
const noticeBox = document.getElementById("notice");
export const gid = main.dataset.game;
export const lang = main.dataset.lang;
export const tokens = location.hash.slice(1).split(".").filter(Boolean);

let seats = [];        // seats[i]: the seat of tokens[i]
let socket = null;
let open = false;
let parts = [];        // the view's parts as this page has them
let delay = 500;       // ms before trying to connect again (doubling up to 4 s)
let queued = null;     // a choice made while disconnected: {seat, decision, option}
let latest = null;     // the last view received

function emit(type, detail) {
  document.dispatchEvent(new CustomEvent(`rules:${type}`, { detail }));
}

export function notice(text) {
  noticeBox.textContent = text;
}

function showBanner(key) {
  if (key === null) {
    banner.hidden = true;
    banner.textContent = "";
    return;
  }
  banner.textContent = banner.dataset[key];
  banner.hidden = false;
}

export function tokenOf(seat) {
  const i = seats.indexOf(seat);
  return i >= 0 ? tokens[i] : null;
}

export function heldSeats() {
  return seats.filter((s) => s !== null);
}

export function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${proto}//${location.host}/ws/${gid}`);
  socket = ws;
  ws.onopen = () => {
    ws.send(JSON.stringify({ tokens, lang }));
  };
  ws.onmessage = (event) => {
    const m = JSON.parse(event.data);
    if (m.type === "held") {
      seats = m.seats;
      open = true;
      delay = 500;
      parts = [];  // a new socket sends every part again
      emit("held", { seats });
    } else if (m.type === "notice") {
      notice(main.dataset.unknown);
    } else if (m.type === "view") {
      parts = m.parts.map((p) => (typeof p === "number" ? parts[p] : p));  // a number: a part of the last view
      m.parts = parts;
      m.html = parts.join("");
      latest = m;
      if (queued) resend(m); else if (!banner.hidden && banner.textContent === banner.dataset.lost) showBanner(null);
      emit("view", m);
    } else if (m.type === "chat") {
      emit("chat", m);
    }
  };
  ws.onclose = (event) => {
    if (socket !== ws) return;
    open = false;
    if (event.code >= 4000) return;  // refused for good (no such game): nothing to retry
    showBanner(queued ? "notSent" : "lost");
    setTimeout(connect, delay);
    delay = Math.min(delay * 2, 4000);
  };
}

// The choice kept while disconnected, now that the game is shown again: sent if it is still asked.
function resend(m) {
  const q = queued;
  queued = null;
  if (m.seat === q.seat && m.decision === q.decision && m.options.includes(q.option)) {
    showBanner("sentLate");
    setTimeout(() => { if (banner.textContent === banner.dataset.sentLate) showBanner(null); }, 4000);
    answer(q.seat, q.decision, q.option);
  } else {
    showBanner("dropped");
    setTimeout(() => { if (banner.textContent === banner.dataset.dropped) showBanner(null); }, 8000);
  }
}

export async function post(what, body, seat) {
  const res = await fetch(`/api/g/${gid}/${what}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ token: tokenOf(seat === undefined ? (latest ? latest.seat : null) : seat), ...body }),
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

// A person's answer: sent now, or kept until the connection is back.
export async function answer(seat, decision, option) {
  if (!open) {
    queued = { seat, decision, option };
    showBanner("notSent");
    return null;
  }
  try {
    return await post("answer", { decision, option }, seat);
  } catch (err) {  // the server went away between the click and the request
    queued = { seat, decision, option };
    showBanner("notSent");
    return null;
  }
}

export function currentView() {
  return latest;
}
