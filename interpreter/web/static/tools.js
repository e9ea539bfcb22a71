// What a seat may do besides answering, as the view allows it now (`actions`): undo and hand-over, each
// after a confirmation on the page; take the seat back; download the log; a rematch, and this seat's own
// link to it once made; this seat's link, to copy. The language links keep the page's seats.
import { gid, lang, post, tokens } from "./connection.js";

const tools = document.getElementById("tools");
const box = document.getElementById("confirm");
const rematchLink = document.getElementById("rematch-link");
const myLink = document.getElementById("my-link");
let asking = null;  // the confirmation on screen: its resolve function

for (const a of document.querySelectorAll("a.lang")) a.href = `?lang=${encodeURIComponent(a.textContent.trim())}${location.hash}`;

if (tokens.length) {
  myLink.value = `${location.origin}/g/${gid}?lang=${lang}${location.hash}`;
  tools.querySelector(".mylink").hidden = false;
}

document.getElementById("copy-link").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(myLink.value);
  } catch (err) {  // no clipboard here (a page not served over https, off this machine): the text is selected
    myLink.select();
    return;
  }
  const done = document.getElementById("copied");
  done.hidden = false;
  setTimeout(() => { done.hidden = true; }, 2000);
});

function confirmFirst(button) {
  if (asking) asking(false);
  box.dataset.for = button.id;
  document.getElementById("confirm-text").textContent = button.dataset.confirm;
  box.hidden = false;
  document.getElementById("confirm-no").focus();
  return new Promise((resolve) => {
    asking = (yes) => { box.hidden = true; asking = null; resolve(yes); };
  });
}
document.getElementById("confirm-yes").addEventListener("click", () => asking && asking(true));
document.getElementById("confirm-no").addEventListener("click", () => asking && asking(false));

function bind(id, fn) {
  document.getElementById(id).addEventListener("click", fn);
}
bind("undo", async (e) => { if (await confirmFirst(e.currentTarget)) post("undo", {}); });
bind("to-bot", async (e) => { if (await confirmFirst(e.currentTarget)) post("seat", { kind: "random" }); });
bind("to-person", () => post("seat", { kind: "person" }));
bind("rematch", () => post("rematch", {}));
bind("download", download);

// Kept by reference: the tools sit in the view's side panel (scene.js moves them there), out of the document
// while a hot-seat device is passed on.
const buttons = [["undo", "undo"], ["to-bot", "to_bot"], ["to-person", "to_person"], ["download", "download"], ["rematch", "rematch"]]
  .map(([id, key]) => [document.getElementById(id), key]);

document.addEventListener("rules:view", (event) => {
  const m = event.detail;
  const can = m.actions;
  for (const [button, key] of buttons) button.hidden = !can[key];
  tools.querySelector(".nolog").hidden = can.download;
  if (asking && (box.dataset.for === "undo" ? !can.undo : !can.to_bot)) asking(false);  // no longer offered
  if (m.rematch) {
    rematchLink.href = m.rematch;
    rematchLink.textContent = m.seat === null ? rematchLink.dataset.watch : rematchLink.dataset.seat;
    rematchLink.hidden = false;
  }
});

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
