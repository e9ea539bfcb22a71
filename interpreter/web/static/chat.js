// The game's chat: messages arrive over the websocket (rules:chat) and are shown as text (textContent: a
// message is never markup); a seat's page writes, a spectator's reads.
import { heldSeats, post } from "./connection.js";

const list = document.getElementById("chat-lines");
const form = document.getElementById("chat-form");
const input = document.getElementById("chat-text");
const readOnly = document.getElementById("chat-read-only");
const shown = new Set();  // message numbers on the page (a reconnected socket sends them all again)

document.addEventListener("rules:held", () => {
  const seat = heldSeats().length > 0;
  form.hidden = !seat;
  readOnly.hidden = seat;
});

document.addEventListener("rules:chat", (event) => {
  for (const line of event.detail.lines) {
    if (shown.has(line.n)) continue;
    shown.add(line.n);
    const li = document.createElement("li");
    li.dataset.seat = line.seat;
    const who = document.createElement("b");
    who.textContent = line.player;
    const when = document.createElement("time");
    const at = new Date(line.at * 1000);
    when.dateTime = at.toISOString();
    when.textContent = at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    li.append(when, " ", who, ": ", line.text);
    list.append(li);
  }
  list.scrollTop = list.scrollHeight;
});

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const text = input.value.trim();
  if (!text) return;
  const seats = heldSeats();
  try {
    const res = await post("chat", { text }, seats[0]);
    if (res.ok) input.value = "";
  } catch (err) { /* the connection's banner says the server is away */ }
});
