// A new game's links page. Shown after "Start the game" it holds every seat's secret: it remembers them in
// this browser (the lobby's "your games") and puts them in its own address's #fragment, so that Back or a
// reload (a GET of /g/<id>/links, which the server answers without secrets) shows the same links again.
import { remember } from "./yourgames.js";

const box = document.getElementById("links");
const { game, lang, name } = box.dataset;
let all;
if (box.dataset.secrets) {
  all = box.dataset.all.split(".");
  history.replaceState(null, "", `/g/${game}/links?lang=${lang}#${all.join(".")}`);
} else {
  all = location.hash.slice(1).split(".").filter(Boolean);
  const persons = [];
  for (const a of box.querySelectorAll("a.seat-link")) {
    const token = all[Number(a.dataset.seat)];
    if (!token) continue;
    a.href = `/g/${game}?lang=${lang}#${token}`;
    if (a.dataset.kind === "person") persons.push(token);
  }
  const hot = box.querySelector("a.hot-link");
  if (hot && persons.length) hot.href = `/g/${game}?lang=${lang}#${persons.join(".")}`;
}
if (all.length) remember(game, name, lang, [], all);
