// The lobby: each game's form shows as many seat choices as the players chosen (the others are not sent),
// and "your games" lists the seats this browser opened (static/yourgames.js).
import { list } from "./yourgames.js";

for (const form of document.querySelectorAll("section.newgame form")) {
  const players = form.querySelector("select.players");
  const update = () => {
    for (const seat of form.querySelectorAll("label.seat")) {
      const off = Number(seat.dataset.seat) >= Number(players.value);
      seat.hidden = off;
      seat.querySelector("select").disabled = off;
    }
  };
  players.addEventListener("change", update);
  update();
}
list(document.getElementById("your-games"));
