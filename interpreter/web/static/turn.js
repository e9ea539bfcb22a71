// Telling a person it is their turn: the tab's title and icon change, an optional sound, and a browser
// notification when the tab is hidden (asked for with the browser's permission). The choices are remembered
// by this browser (localStorage), for every game.
const tools = document.getElementById("tools");
const favicon = document.getElementById("favicon");
const sound = document.getElementById("sound");
const notify = document.getElementById("notify");
const SOUND = "rules.sound";
const NOTIFY = "rules.notify";
let turn = false;

sound.checked = localStorage.getItem(SOUND) === "1";
notify.checked = localStorage.getItem(NOTIFY) === "1" && "Notification" in window && Notification.permission === "granted";
sound.addEventListener("change", () => localStorage.setItem(SOUND, sound.checked ? "1" : "0"));
notify.addEventListener("change", async () => {
  if (notify.checked && "Notification" in window && Notification.permission !== "granted") {
    notify.checked = (await Notification.requestPermission()) === "granted";
  }
  localStorage.setItem(NOTIFY, notify.checked ? "1" : "0");
});

document.addEventListener("rules:held", (event) => {
  tools.querySelector(".signals").hidden = !event.detail.seats.some((s) => s !== null);
});

document.addEventListener("rules:view", (event) => {
  const m = event.detail;
  const now = Boolean(m.deciding);
  document.title = now ? tools.dataset.titleTurn.replace("{name}", m.name) : m.name;
  favicon.href = now ? "/static/turn.svg" : "/static/icon.svg";
  if (now && !turn) began(m);
  turn = now;
});

function began(m) {
  if (sound.checked) beep();
  if (notify.checked && document.hidden && "Notification" in window && Notification.permission === "granted") {
    const n = new Notification(tools.dataset.notifyTurn.replace("{name}", m.name), { tag: `rules-${m.version}` });
    n.onclick = () => { window.focus(); n.close(); };
  }
}

function beep() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
    tone.onended = () => audio.close();
  } catch (err) { /* no sound on this browser */ }
}
