"""The web pages' own words (buttons, headings, notices) in every language the engine speaks. A game's words
come from its content and the engine's from interpreter.present.phrases; these belong to no game."""
from __future__ import annotations

WEB: dict[str, dict[str, str]] = {
    "lobby": {"en": "Games", "ru": "Игры"},
    "lobby intro": {"en": "Choose a game, its players and who sits at each seat: a person or a bot.",
                    "ru": "Выберите игру, число игроков и кто сидит на каждом месте: человек или бот."},
    "players": {"en": "Players", "ru": "Игроки"},
    "language": {"en": "Language", "ru": "Язык"},
    "variants": {"en": "Variants", "ru": "Варианты"},
    "seat": {"en": "Seat {n}", "ru": "Место {n}"},
    "person": {"en": "a person", "ru": "человек"},
    "random": {"en": "random bot", "ru": "случайный бот"},
    "ismcts": {"en": "ISMCTS bot", "ru": "бот ISMCTS"},
    "hotseat": {"en": "all persons play on this device (hot-seat)", "ru": "все люди играют на этом устройстве"},
    "seed": {"en": "Seed (blank: random)", "ru": "Зерно (пусто: случайное)"},
    "start": {"en": "Start the game", "ru": "Начать игру"},
    "games running": {"en": "Games on this server", "ru": "Игры на этом сервере"},
    "playing": {"en": "in play", "ru": "идёт"},
    "finished": {"en": "over", "ru": "окончена"},
    "error": {"en": "stopped on an error", "ru": "остановлена ошибкой"},
    "watch": {"en": "watch", "ru": "смотреть"},
    "links": {"en": "Seat links", "ru": "Ссылки на места"},
    "links intro": {"en": "Give each person their seat's link; it holds the seat's secret. Anyone with the "
                          "spectator link sees only what is public.",
                    "ru": "Дайте каждому игроку ссылку его места: в ней секрет этого места. По ссылке зрителя "
                          "видно только открытое."},
    "seat link": {"en": "{player}: {kind}", "ru": "{player}: {kind}"},
    "hot link": {"en": "Play every person's seat on this device", "ru": "Играть за всех людей на этом устройстве"},
    "spectator": {"en": "Spectator", "ru": "Зритель"},
    "you are": {"en": "You play {player}", "ru": "Вы играете: {player}"},
    "watching": {"en": "You are watching: only what is public shows", "ru": "Вы зритель: видно только открытое"},
    "waiting for": {"en": "Waiting for {player}", "ru": "Ждём: {player}"},
    "your turn": {"en": "Your decision", "ru": "Ваше решение"},
    "secretly": {"en": "(secret: the others learn it later)", "ru": "(тайно: остальные узнают позже)"},
    "game over": {"en": "The game is over. Winners: {winners}", "ru": "Игра окончена. Победители: {winners}"},
    "scores": {"en": "Scores: {scores}", "ru": "Очки: {scores}"},
    "game error": {"en": "The game stopped on an error in its rules: {message}",
                   "ru": "Игра остановлена ошибкой в правилах: {message}"},
    "log": {"en": "What happened (newest first)", "ru": "Что произошло (новое сверху)"},
    "new": {"en": "since your last decision", "ru": "после вашего решения"},
    "table": {"en": "The table", "ru": "Стол"},
    "board": {"en": "The board", "ru": "Поле"},
    "undo": {"en": "Undo my last decision", "ru": "Отменить моё последнее решение"},
    "download": {"en": "Download the game log", "ru": "Скачать журнал игры"},
    "to bot": {"en": "Let a bot play my seat", "ru": "Отдать моё место боту"},
    "to person": {"en": "Take my seat back", "ru": "Вернуть себе место"},
    "bot plays": {"en": "A bot plays this seat now.", "ru": "Сейчас за это место играет бот."},
    "pass to": {"en": "Pass the device to {player}", "ru": "Передайте устройство: {player}"},
    "ready": {"en": "I am {player}: show my seat", "ru": "Я — {player}: показать моё место"},
    "options here": {"en": "Options for {area}:", "ru": "Варианты для «{area}»:"},
    "all options": {"en": "show every option", "ru": "показать все варианты"},
    "click map": {"en": "Highlighted areas of the board can be clicked.", "ru": "Выделенные области поля можно нажать."},
    "area controlled": {"en": "{area}: {player}", "ru": "{area}: {player}"},
    "game key": {"en": "game", "ru": "игра"},
    "unknown link": {"en": "This link holds no seat of this game: you see what a spectator sees.",
                     "ru": "Эта ссылка не даёт места в этой игре: вы видите то же, что зритель."},
    "refused": {"en": "Not accepted: {reason}", "ru": "Не принято: {reason}"},
    "connecting": {"en": "Connecting…", "ru": "Соединение…"},
    "failed games": {"en": "Games that could not be resumed", "ru": "Игры, которые не удалось продолжить"},
    "no log yet": {"en": "The log of an unfinished game is for a game of one person (or hot-seat); it is "
                         "everyone's when the game ends.",
                   "ru": "Журнал неоконченной игры доступен в игре одного человека (или за одним устройством); "
                         "после конца игры — всем."},
}


def web_say(lang: str, key: str, **values) -> str:
    entry = WEB[key]
    return entry.get(lang, entry["en"]).format(**values)

