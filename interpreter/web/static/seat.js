// A game page: its modules, and the seats it opened remembered in this browser (static/yourgames.js).
import { connect, gid, lang, tokens } from "./connection.js";
import "./game.js";
import "./turn.js";
import "./tools.js";
import "./chat.js";
import { remember } from "./yourgames.js";

let held = [];
document.addEventListener("rules:held", (event) => {
  held = tokens.filter((t, i) => event.detail.seats[i] !== null && event.detail.seats[i] !== undefined);
});
document.addEventListener("rules:view", (event) => {
  if (held.length) remember(gid, event.detail.name, lang, held);
  held = [];
});
connect();
