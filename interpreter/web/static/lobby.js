// The lobby: each game's form shows as many seat choices as the players chosen.
for (const form of document.querySelectorAll("section.newgame form")) {
  const players = form.querySelector("select.players");
  const update = () => {
    for (const seat of form.querySelectorAll("label.seat")) seat.hidden = Number(seat.dataset.seat) >= Number(players.value);
  };
  players.addEventListener("change", update);
  update();
}
