// The seats this browser has opened, remembered in its localStorage by game (nothing on the server names a
// person): a game page adds its seats, the links page of a new game its every seat's link; the lobby lists
// them with how each stands now, which it asks the server for with those seats' tokens and no others.
const KEY = "rules.games";
const MAX_GAMES = 60;

function load() {
  try {
    const stored = JSON.parse(localStorage.getItem(KEY) || "{}");
    return stored && typeof stored === "object" ? stored : {};
  } catch (err) {
    return {};
  }
}

function save(games) {
  const kept = Object.entries(games).sort((a, b) => b[1].at - a[1].at).slice(0, MAX_GAMES);
  localStorage.setItem(KEY, JSON.stringify(Object.fromEntries(kept)));
}

const TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

// A page opened with these seats' tokens (`all`: the links page's every seat, in seat order).
export function remember(gid, name, lang, opened, all = null) {
  const games = load();
  const game = games[gid] || { tokens: [], all: [] };
  for (const t of opened) if (TOKEN.test(t) && !game.tokens.includes(t)) game.tokens.push(t);
  if (all) game.all = all.filter((t) => TOKEN.test(t));
  Object.assign(game, { name, lang, at: Date.now() });
  games[gid] = game;
  save(games);
}

export function forget(gid) {
  const games = load();
  delete games[gid];
  save(games);
}

// The lobby's list: each seat this browser opened, its state asked of the server.
export async function list(section) {
  const lang = section.dataset.lang;
  const games = load();
  const asked = [];
  for (const [gid, game] of Object.entries(games)) for (const t of game.tokens) asked.push([gid, t]);
  const ul = document.getElementById("your-list");
  let answers = [];
  if (asked.length) {
    const res = await fetch("/api/mine", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ seats: asked, lang }),
    });
    if (res.ok) answers = (await res.json()).games;
  }
  answers.sort((a, b) => (b.turn - a.turn) || (games[b.game].at - games[a.game].at));
  ul.replaceChildren();
  for (const a of answers) {
    const [gid, token] = asked[a.i];
    const li = document.createElement("li");
    li.className = a.turn ? "yours-turn" : "";
    li.dataset.game = gid;
    const link = document.createElement("a");
    link.className = "your-seat";
    link.href = `/g/${gid}?lang=${lang}#${token}`;
    link.textContent = `${a.name} · ${a.player}`;
    const state = document.createElement("span");
    state.className = "your-state";
    state.textContent = a.state;
    li.append(link, " — ", state);
    const game = games[gid];
    if (game.all && game.all.length) {
      const all = document.createElement("a");
      all.href = `/g/${gid}/links?lang=${lang}#${game.all.join(".")}`;
      all.textContent = section.dataset.allLinks;
      li.append(" · ", all);
    }
    const drop = document.createElement("button");
    drop.type = "button";
    drop.textContent = section.dataset.forget;
    drop.addEventListener("click", () => { forget(gid); list(section); });
    li.append(" ", drop);
    ul.append(li);
  }
  document.getElementById("your-none").hidden = answers.length > 0;
}
