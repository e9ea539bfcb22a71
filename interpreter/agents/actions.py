"""A game's fixed action space: stable action ids computed from its content, with legal-action masks.

An option's label is the engine's stable text for it (`Decision.labels`): an option name and the
components, players, zones, numbers and words it names, e.g. `give order_3 winterfell`,
`footman_2`, `P3`, `done`. Every word a label can hold gets one id, computed from the game's content:

    0 `<end>` · every component id (sorted) · P1..Pn · the numbers 0..255 and every number the rule text
    writes · `?1`..`?64` (components the decider cannot see, in the order the options name them) ·
    every identifier the compiled rule text holds (menu option names, zone names, words a choice offers)

So an id means the same word in every state: `footman_2` is always the same id, `give` too. An option
that is one word (most choices: a component, a player, a number, `done`, a menu option naming nothing)
is chosen by that word's id. After the words come **whole options**: every option of a menu that names
only components and players (`play_unit orc_1 castle_3`, `support P2`), enumerated from the rule text
(each option's name times every component or seat each of its bindings may hold, an option with at most
`WHOLE_PER_OPTION` of them): such an option is chosen by its own id, in one step, and that id means
that option in every state. The other options of several words (one naming a number, a list, or more
than the cap allows) are chosen word by word: the name, then each thing it names; after each word, only
the words that continue a legal option are legal, a word that leaves a single option completes it, and
`<end>` ends an option that is also the beginning of a longer one. `Picker` keeps the words picked so
far (observed as part of the pending decision). An option naming a component its decider cannot see
(`?k`) goes word by word too. Option indices stay available (`actions="indices"` in the adapters).

A component the decider cannot see never reads as its id: it reads `?k`, the k-th such component in
the order the options name them, so no action reveals what is hidden.
"""
from __future__ import annotations

import ast
import re
from operator import itemgetter

from dsl import ast as dsl_ast
from dsl.diagnostics import Diagnostic, DiagnosticError
from interpreter.codegen.library import MenuChoice
from interpreter.core.decisions import label_of, player_label
from interpreter.core.state import Entity
from interpreter.present.views import can_see, sees_into

END = "<end>"
NUMBERS = 256
HIDDEN_SLOTS = 64
WHOLE_PER_OPTION = 20_000  # an option with more combinations of what it names than this goes word by word
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_FIRST = itemgetter(0)


class ActionSpace:
    """The words of one game's labels, each with its stable id (see the module's doc)."""

    def __init__(self, game, players: int, whole: bool = True):
        content = game.content
        words, numbers = game.derived.get("action_words") or _content_words(game)
        game.derived["action_words"] = (words, numbers)
        ids = sorted(content.entity_ids)
        # seats up to the most the game allows, so that an id means the same at every player count
        seats = [player_label(p) for p in range(max(players, content.manifest["players"]["max"]))]
        hidden = [f"?{k}" for k in range(1, HIDDEN_SLOTS + 1)]
        fixed = [END, *ids, *seats, *(str(n) for n in sorted(numbers)), *hidden, "yes", "no", "none", "done", "of"]
        taken = set(fixed)
        self.words: list[str] = fixed + sorted(w for w in words if w not in taken)
        self.ids: dict[str, int] = {w: i for i, w in enumerate(self.words)}
        self.components = set(ids)
        self.word_count = len(self.words)  # ids below this are words; from it on, whole options
        # whole options: their words (as ids) -> (their id,), and each id's words
        shapes = game.derived.get("option_shapes")
        if shapes is None:
            shapes = game.derived["option_shapes"] = option_shapes(content)
        self.whole: dict[tuple, tuple] = {}
        self.wholes: list[tuple] = []
        for name, domains in (shapes if whole else ()):  # whole=False: words alone (`actions="words"`)
            for row in _combinations(self.ids[name], domains, [self.ids[c] for c in ids],
                                     [self.ids[s] for s in seats]):
                if row not in self.whole:
                    self.whole[row] = (self.word_count + len(self.wholes),)
                    self.wholes.append(row)
        self.size = self.word_count + len(self.wholes)
        # the most actions one decision can take: the words of its longest label, and `<end>`
        self.most_words = 1 + (game.derived.get("most_words") or game.derived.setdefault("most_words", most_words(content)))
        self._plain: dict = {}  # label naming no component -> its word ids (the same in every state)
        self._split: dict = {}  # a picked option's label -> (word id, component id or None) per word (`picked`)

    def word(self, action: int) -> str:
        """An action's words: a word, or a whole option's label."""
        if action < self.word_count:
            return self.words[action]
        return " ".join(self.words[i] for i in self.wholes[action - self.word_count])

    def tokens(self, state, decision, player: int) -> list[tuple]:
        """Each option's label as a tuple of word ids, read as `player` may (hidden components as `?k`)."""
        hidden: dict = {}
        out = []
        ids, entities, components, plain, whole = self.ids, state.entities, self.components, self._plain, self.whole
        word: dict = {}  # component named by a menu option -> its word id as `player` reads it
        sees: dict = {}  # zone -> does `player` see every face-up component lying there (`_sees`)
        one = not decision.players  # a component as an option is labelled by its id alone (`label_of`)
        # the menu option read last and what its options need (`_shape`): a menu lists the options of one menu
        # option together, so that is worked out once per run of them, not once per option
        last = head = None
        for k, value in enumerate(decision.values):
            kind = type(value)
            if kind is MenuChoice and one:  # its words straight from its name and bindings
                option, bound = value.option, value.bound
                if option is not last:
                    last = option
                    head, first, second = _shape(option, ids)
                if head is not None:  # most: a name and one or two components
                    # (a component's word noted once per decision: options name the same few over and over; a value
                    # that is no component, `_word` says so, and one that cannot be a key, the general path below)
                    try:
                        v = bound[first]
                        w = word.get(v)
                        if w is None:
                            w = _word(v, player, sees, hidden, ids, components, word)
                        if w is not None:
                            if second is None:
                                row = (head, w)
                                out.append(whole.get(row, row))
                                continue
                            v = bound[second]
                            w2 = word.get(v)
                            if w2 is None:
                                w2 = _word(v, player, sees, hidden, ids, components, word)
                            if w2 is not None:
                                row = (head, w, w2)
                                out.append(whole.get(row, row))
                                continue
                    except TypeError:  # a list or a map, which cannot be a key
                        pass
                if not option[1]:
                    found = plain.get(option[0])
                    if found is not None:
                        out.append(found)
                        continue
                else:
                    words = [option[0]]
                    for i, j in enumerate(option[1]):
                        v = bound[j]
                        if i in option[2]:
                            words.extend(player_label(v).split(" "))
                        elif type(v) is Entity:
                            words.append(v.id)
                        else:
                            words.extend(label_of(v).split(" "))
                    out.append(self._row(words, entities, player, hidden))
                    continue
            elif one and kind is Entity and value.id in components:  # most options: no label needed
                w = _as_read(value, player, sees, hidden)
                if w in ids:  # (past `?64` the general path below says so)
                    out.append((ids[w],))
                    continue
            label = decision.label(k)
            found = plain.get(label)
            if found is not None:
                out.append(found)
                continue
            if label in components and can_see(entities[label], player):  # a component it sees: its id
                out.append((ids[label],))
                continue
            out.append(self._row(label.split(" "), entities, player, hidden))
            if not any(w in components for w in label.split(" ")):
                plain[label] = out[-1]
        return out

    def picked(self, labels: list, state, player: int) -> list[int]:
        """The word ids of the options picked so far (their labels: a multi-pick's), a component `player` cannot
        see left out; each label split into words once."""
        out = []
        split, ids, components = self._split, self.ids, self.components
        for label in labels:
            words = split.get(label)
            if words is None:
                if len(split) >= 50_000:
                    split.clear()
                words = split[label] = tuple((ids[w], w if w in components else None) for w in label.split(" ") if w in ids)
            for i, eid in words:
                if eid is None or can_see(state.entities[eid], player):
                    out.append(i)
        return out

    def _row(self, words: list, entities, player: int, hidden: dict) -> tuple:
        """An option's words as ids, a component `player` cannot see as the next `?k`; a whole option as its id."""
        row = []
        ids, components = self.ids, self.components
        for w in words:
            if w in components and not can_see(entities[w], player):
                w = hidden.setdefault(w, f"?{len(hidden) + 1}")
            i = ids.get(w)
            if i is None:
                raise DiagnosticError([Diagnostic(
                    "RUN-ERROR", f"an option reads '{w}', a word the game's action space does not hold",
                    hint="use the option indices (actions='indices') for this game")])
            row.append(i)
        row = tuple(row)
        return self.whole.get(row, row) if len(row) > 1 else row


def _shape(option: tuple, ids: dict) -> tuple:
    """What `tokens` needs of a menu option naming one or two components (most do): its name's id, where the first
    and the second it shows are bound (the second None for one); (None, None, None) for any other."""
    head, shown = ids.get(option[0]), option[1]
    if head is None or option[2] or not 0 < len(shown) <= 2:
        return None, None, None
    return head, shown[0], shown[1] if len(shown) == 2 else None


def _word(v, player: int, sees: dict, hidden: dict, ids: dict, components: set, word: dict) -> int | None:
    """The word id of a component an option names, as `player` reads it (a hidden one as the next `?k`), noted
    in `word`; None for a value that is not a component of the game, or past `?64` (the general path says so)."""
    if type(v) is not Entity or v.id not in components:
        return None
    w = ids.get(_as_read(v, player, sees, hidden))
    if w is not None:
        word[v] = w
    return w


def _as_read(e: Entity, player: int, sees: dict, hidden: dict) -> str:
    """A component's word as `player` reads it: its id where it sees it, else the next `?k` of this decision."""
    return e.id if _sees(e, player, sees) else hidden.setdefault(e.id, f"?{len(hidden) + 1}")


def _sees(e: Entity, player: int, sees: dict) -> bool:
    """`can_see(e, player)`, with what `player` sees of a zone noted in `sees` (`_sees_all`) for the next component
    lying face up there: the options of a decision name components of the same few zones."""
    if e.seen_by is None and not e.face_down:
        seen = sees.get(e.zone, 0)
        if seen == 0:
            seen = sees[e.zone] = _sees_all(e.zone, player)
        if seen is not None:
            return seen
    return can_see(e, player)


def _sees_all(zone, player: int):
    """Whether `player` sees every component lying face up, shown to nobody, in `zone` (`views.sees_into`):
    True or False where that holds for the whole zone, None where it hangs on the component (its top)."""
    if zone is None:
        return False
    if sees_into(zone, player):
        return True
    return None if zone.items and sees_into(zone, player, zone.items[0]) else False  # (None: its top alone)


def option_shapes(content) -> list:
    """Per menu option of the rule text that names only components and players: its name and, per word it
    names, "component" or "player" (an option naming a number, a text or a list has no whole id)."""
    out = []
    seen = set()
    for module in content.modules:
        for node in _walk(module):
            if not isinstance(node, dsl_ast.Option) or not node.params or not _WORD.match(node.name):
                continue
            types = {b.var: b.coll.type for b in node.bindings}
            domains = []
            for name in node.params:
                t = types.get(name)
                domains.append("player" if t == "list[player]" else "component" if t in ("zone", "list[entity]") else None)
            shape = (node.name, tuple(domains))
            if None not in domains and shape not in seen:
                seen.add(shape)
                out.append(shape)
    return out


def most_words(content) -> int:
    """The most words an option's label can hold, from the rule text (`label_of`): a component, player, number
    or word is one, a zone at most three (`hand of P2`), a list or a value of unknown type at most one per
    component and three more; a menu option its name and what it shows."""
    n = len(content.entity_ids) + 3

    def words(t) -> int:  # an element of a collection of type t
        if t == "zone":
            return 1
        if isinstance(t, str) and t.startswith("list[") and t.endswith("]"):
            element = t[5:-1]
            return 3 if element == "zone" else n if element == "any" or element.startswith("list[") else 1
        return n

    most = 3  # the engine's own question (which ability resolves first) names one ability
    for module in content.modules:
        for node in _walk(module):
            if isinstance(node, dsl_ast.Option):
                types = {b.var: b.coll.type for b in node.bindings}
                most = max(most, 1 + sum(words(types.get(p)) for p in node.params))
            elif isinstance(node, (dsl_ast.Choose, dsl_ast.ChooseOrder)):
                most = max(most, words(node.coll.type))
    return most


def _walk(node):
    yield node
    for child in dsl_ast.children(node):
        yield from _walk(child)


def _combinations(head: int, domains: tuple, components: list, seats: list):
    """Every row of word ids of an option: its name, then each combination of what it names (none past the cap)."""
    size = 1
    for d in domains:
        size *= len(components) if d == "component" else len(seats)
    if size > WHOLE_PER_OPTION:
        return
    rows = [(head,)]
    for d in domains:
        rows = [r + (w,) for r in rows for w in (components if d == "component" else seats)]
    yield from rows


def _content_words(game) -> tuple:
    """The identifiers and numbers the compiled rule text holds, and the menu options' names."""
    words: set = set()
    numbers: set = set(range(NUMBERS))
    for text, _ in game.sources.values():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Constant):
                v = node.value
                if isinstance(v, str) and _WORD.match(v):
                    words.add(v)
                elif isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10_000:
                    numbers.add(v)
    for value in game.namespace.values():  # menu tables: (name, shown bindings, players) per option
        if isinstance(value, tuple):
            for entry in value:
                if isinstance(entry, tuple) and entry and isinstance(entry[0], str) and _WORD.match(entry[0]):
                    words.add(entry[0])
    return frozenset(words), frozenset(numbers)


class Picker:
    """The words picked so far towards one option of the pending decision (see the module's doc)."""

    def __init__(self, tokens: list[tuple]):
        self.tokens = tokens  # never changed: copies share it
        self.prefix: tuple = ()
        self.answers = 0  # answers given in the game when these were the options (the adapter's check)
        self._legal: tuple = (None, [], set())  # (prefix, its legal words sorted, as a set): read twice a step
        # each option one action of its own (most decisions: no two options alike, none of several words): then
        # an action picks its option at once (`pick`); None until the first words are read
        self._one: bool | None = None

    def copy(self) -> "Picker":
        new = Picker(self.tokens)
        new.prefix, new.answers, new._legal, new._one = self.prefix, self.answers, self._legal, self._one
        return new

    def _candidates(self) -> list[int]:
        n, p = len(self.prefix), self.prefix
        return [i for i, t in enumerate(self.tokens) if t[:n] == p]

    def legal(self) -> list[int]:
        """The word ids that continue a legal option (sorted); `<end>` (0) where an option is complete."""
        return self._words()[1][:]

    def legal_view(self) -> list[int]:
        """`legal` without the copy, for a caller that only reads it."""
        return self._words()[1]

    def allows(self, action: int) -> bool:
        return action in self._words()[2]

    def _words(self) -> tuple:
        prefix = self.prefix
        if self._legal[0] != prefix:  # the prefix is set from outside too (a clone's): checked, not trusted
            tokens = self.tokens
            if not prefix:  # the first word (every option has one)
                out = set(map(_FIRST, tokens))  # (no comprehension: a call of its own, an iteration per option)
                if self._one is None:
                    self._one = len(out) == len(tokens) == sum(map(len, tokens))
            else:
                n = len(prefix)
                out = set()
                for i in self._candidates():
                    t = tokens[i]
                    out.add(t[n] if len(t) > n else 0)
            self._legal = (prefix, sorted(out), out)  # (never changed after: a copy shares them)
        return self._legal

    def pick(self, action: int) -> int | None:
        """Take one word; returns the index of the option it completes, or None while more words are needed."""
        if not self.allows(action):
            raise ValueError(f"action {action} does not continue a legal option")
        if self._one and not self.prefix and action:  # the option that is this one action (`allows` read the first words)
            self.prefix = (action,)
            return self.tokens.index(self.prefix)
        if action != 0:
            self.prefix += (action,)
        n = len(self.prefix)
        while True:
            cands = self._candidates()
            complete = [i for i in cands if len(self.tokens[i]) == n]
            if complete and (action == 0 or len(cands) == 1):
                return complete[0]
            following = {self.tokens[i][n] for i in cands if len(self.tokens[i]) > n}
            if complete or len(following) != 1:
                return None
            self.prefix += (following.pop(),)  # a word that is forced: taken at once
            n += 1
            action = -1
