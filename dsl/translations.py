"""Every string a player reads, in every language a game declares (`languages: [en, ru]`).

Two places hold translations, by where the string is written:

- a string written in YAML (a record's `name` and `text`, the game's name, a variant's description)
  carries its languages inline: `name: {en: Elf archers, ru: Эльфы-лучники}`;
- a `log` or `ask` text of the rule text, and an identifier a player reads (a zone, a variable, a
  kind, an enum value, a number attribute, an option without `ask`), is translated in catalogue
  files, `lang/<language>.yaml`, listed under `files: translations`.

Rule text is written in the first language listed. A catalogue's message is keyed by the text as
written, and uses the same {placeholders}: the values are computed once, in the rule text's order,
and each language places them where its grammar wants them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from dsl import ast
from dsl.diagnostics import Diagnostic, Report, Span, did_you_mean
from dsl.limits import MAX_PLACEHOLDERS
from dsl.plurals import forms_of, plural, split as plural_split
from dsl.yaml_records import YamlDoc

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
LANGUAGE_NAMES = {"en": "English", "ru": "Russian", "uk": "Ukrainian", "de": "German", "fr": "French"}


def language_name(code: str) -> str:
    return f"{LANGUAGE_NAMES.get(code, code)} ({code})"


def humanize(name: str) -> str:
    """An identifier as words: `play_card` is `play card`."""
    return str(name).replace("_", " ").strip()


@dataclass(frozen=True)
class Localized:
    """A YAML string in each of its languages; reads as its first (the rule text's) language."""

    forms: tuple  # ((language, text), ...)

    def get(self, lang: str) -> str:
        for code, text in self.forms:
            if code == lang:
                return text
        return self.forms[0][1]

    def __str__(self) -> str:
        return self.forms[0][1]


def text_in(value, lang: str) -> str:
    """A YAML string (plain, or Localized) in `lang`."""
    return value.get(lang) if isinstance(value, Localized) else str(value)


@dataclass(frozen=True)
class Message:
    """A `log` or `ask` text in each language: per language, its pieces, plain strings and the
    indices of its values (in the order the rule text computes them), or (index, forms) for a value said
    in its plural forms (dsl.plurals)."""

    key: str
    forms: tuple  # ((language, (piece, ...)), ...): the rule text's language first

    def pieces(self, lang: str) -> tuple:
        for code, pieces in self.forms:
            if code == lang:
                return pieces
        return self.forms[0][1]


def _norm(placeholder: str) -> str:
    """A placeholder as it is matched between languages: its expression, without spaces or plural forms."""
    return "".join(plural_split(placeholder)[0].split())


def has_words(text: str) -> bool:
    """Whether a text says anything in a language, outside its {placeholders} or in their plural forms."""
    return any(ch.isalpha() for ch in _PLACEHOLDER.sub(lambda m: " ".join(plural_split(m.group(1))[1]), text))


def placeholders(text: str) -> list[str]:
    return [_norm(m.group(1)) for m in _PLACEHOLDER.finditer(text)]


def pieces_of(text: str, order: list[str]) -> tuple:
    """A translation as pieces: its plain strings, and for each {placeholder} the index of the rule
    text's value it shows (`order`: the rule text's placeholders, normalized)."""
    out: list = []
    pos = 0
    for m in _PLACEHOLDER.finditer(text):
        if m.start() > pos:
            out.append(text[pos:m.start()])
        index, forms = order.index(_norm(m.group(1))), plural_split(m.group(1))[1]
        out.append((index, forms) if forms else index)  # (index, forms): the value said in its plural forms
        pos = m.end()
    if pos < len(text):
        out.append(text[pos:])
    return tuple(out)


@dataclass
class Entry:
    text: str
    span: Span
    used: bool = False


@dataclass
class Translations:
    languages: tuple = ("en",)
    words: dict = field(default_factory=dict)  # language -> {identifier: Entry}
    messages: dict = field(default_factory=dict)  # language -> {rule text: Entry}
    files: dict = field(default_factory=dict)  # language -> the first catalogue file listed for it

    @property
    def source(self) -> str:
        return self.languages[0]

    def word(self, lang: str, identifier: str) -> str:
        entry = self.words.get(lang, {}).get(identifier)
        return entry.text if entry is not None else humanize(identifier)

    def message(self, node: ast.Str) -> Message:
        """The compiled form of a checked `log`/`ask` text (a missing translation reads as written)."""
        order = placeholders(node.text)
        own: list = []
        n = 0
        counted = dict(node.plurals)
        for part in node.parts:
            if isinstance(part, str):
                own.append(part)
            else:
                own.append((n, counted[n]) if n in counted else n)
                n += 1
        forms = [(self.source, tuple(own))]
        for lang in self.languages[1:]:
            entry = self.messages.get(lang, {}).get(node.text)
            if entry is not None and entry.text.count("{") <= MAX_PLACEHOLDERS and set(placeholders(entry.text)) == set(order):
                forms.append((lang, pieces_of(entry.text, order)))
        return Message(node.text, tuple(forms))


# ---------------------------------------------------------------- reading the catalogues
def read_catalogue(doc: YamlDoc, tr: Translations, report: Report) -> None:
    """One catalogue file, already checked against schemas/translation.schema.json."""
    data = doc.data if isinstance(doc.data, dict) else {}
    lang = data.get("language")
    if lang not in tr.languages:
        report.error("I18N-LANGUAGE", f"{doc.path} is a catalogue for '{lang}', which the game does not declare",
                     doc.span(("language",)), f"the game's languages: {', '.join(tr.languages)}")
        return
    if lang == tr.source and data.get("messages"):
        report.error("I18N-LANGUAGE", f"rule text is written in {language_name(lang)}: its messages need no catalogue",
                     doc.span(("messages",)), "an English catalogue may hold `words` only")
    tr.files.setdefault(lang, doc.path)
    for section, table in (("words", tr.words), ("messages", tr.messages)):
        have = table.setdefault(lang, {})
        for key, text in (data.get(section) or {}).items():
            span = doc.span((section, key))
            if key in have and have[key].text != text:
                report.error("I18N-DUP", f"'{key}' is translated twice, differently", span, f"the other is at {have[key].span}")
                continue
            have.setdefault(key, Entry(text, span))


# ---------------------------------------------------------------- checking them
def _check_plurals(text: str, lang: str, span: Span, what: str, report: Report) -> None:
    """Each {n|form|...} of a text in `lang` has one form per plural category of that language."""
    cats = forms_of(lang)
    for m in _PLACEHOLDER.finditer(text):
        expr, forms = plural_split(m.group(1))
        if forms and len(forms) != len(cats):
            report.error("I18N-PLURAL", f"{what}: {{{expr}|...}} has {plural('en', len(forms), ('# plural form', '# plural forms'))}; "
                         f"{language_name(lang)} has {len(cats)} ({', '.join(cats)})", span,
                         f"write one form per category, `#` for the number: {{{expr}|" + "|".join("# ..." for _ in cats) + "}")

def check_translations(tr: Translations, found: Scan, words_needed: dict, report: Report, optional=()) -> None:
    """Every message and word in every language after the first; placeholders that match. `optional`:
    identifiers a catalogue may give words for without having to (rule functions, which `rules explain
    --why` names)."""
    texts = [node for node in found.texts if _few_placeholders(node.text, node.span, "this text", report)]
    shown_literals = found.word_literals
    if len(tr.languages) > 1:
        for node in found.loose:
            report.diagnostics.append(_warning(
                "I18N-TEXT", f"\"{node.text}\" is not translated: it reads in {language_name(tr.source)} whatever the reader's language",
                node.span, "say it inside a `log` or `ask` text, or make it a value with a word (an enum value)"))
    for node in texts:
        _check_plurals(node.text, tr.source, node.span, "this text", report)
    for lang in tr.languages[1:]:
        where = tr.files.get(lang, f"lang/{lang}.yaml")
        messages = tr.messages.get(lang, {})
        missing: list = []
        for node in texts:
            entry = messages.get(node.text)
            if entry is None and not has_words(node.text):
                continue  # "{t.points}" or "{p}: {n}" reads the same in every language
            if entry is None:
                missing.append(node.text)
                report.error("I18N-MISSING", f"no {language_name(lang)} translation of \"{node.text}\"", node.span,
                             f"add it under `messages:` in {where}")
                continue
            entry.used = True
            if not _few_placeholders(entry.text, entry.span, f"the {language_name(lang)} text of \"{node.text}\"", report):
                continue
            _check_plurals(entry.text, lang, entry.span, f"the {language_name(lang)} text of \"{node.text}\"", report)
            want, got = set(placeholders(node.text)), set(placeholders(entry.text))
            if want != got:
                extra = sorted(got - want)
                lost = sorted(want - got)
                what = (f"{{{extra[0]}}} is not in the rule text" if extra else f"{{{lost[0]}}} of the rule text is missing")
                report.error("I18N-PLACEHOLDER", f"the {language_name(lang)} text of \"{node.text}\": {what}", entry.span,
                             "a translation uses exactly the rule text's {placeholders}, in any order")
        words = tr.words.get(lang, {})
        for name in optional:
            if name in words:
                words[name].used = True
        for literal in shown_literals:  # `"at_random"` offered beside components reads as a word too
            if literal in words:
                words[literal].used = True
        for identifier, span in words_needed.items():
            entry = words.get(identifier)
            if entry is None:
                report.error("I18N-MISSING", f"no {language_name(lang)} word for '{identifier}'", span,
                             f"add `{identifier}: ...` under `words:` in {where}")
            else:
                entry.used = True
        _unused(messages, missing, report)
        _unused(words, [w for w in words_needed if w not in words], report)
    source_words = tr.words.get(tr.source, {})
    for name in optional:
        if name in source_words:
            source_words[name].used = True
    _unused(source_words, [w for w in words_needed if w not in source_words], report, needed=set(words_needed))


def _few_placeholders(text: str, span: Span, what: str, report: Report) -> bool:
    """At most MAX_PLACEHOLDERS {placeholders}: each is a copy of a value's words in every line told."""
    count = text.count("{")
    if count <= MAX_PLACEHOLDERS:
        return True
    report.error("I18N-PLACEHOLDER", f"{what} has {count:,} {{placeholders}}, more than {MAX_PLACEHOLDERS}", span,
                 "a line shows a few values; repeat words, not values")
    return False


def _unused(entries: dict, missing: list, report: Report, needed: set | None = None) -> None:
    for key, entry in entries.items():
        if not entry.used and (needed is None or key not in needed):
            report.diagnostics.append(_warning("I18N-UNUSED", f"'{key}' is translated but nothing shows it", entry.span,
                                               did_you_mean(key, missing) or "remove it, or check its spelling"))


def _warning(code: str, message: str, span: Span, hint: str | None) -> Diagnostic:
    return Diagnostic(code, message, span, hint, severity="warning")


@dataclass
class Scan:
    """What of the rule text a player may read, found in one walk over its nodes."""

    texts: list = field(default_factory=list)  # every `log` and `ask` text (ast.Str)
    options: list = field(default_factory=list)  # menu options without `ask`, read by their name
    option_names: set = field(default_factory=set)  # the name of every menu option (the table's `steps` names them)
    word_literals: set = field(default_factory=set)  # `"at_random"`: a string that reads as a word when shown
    loose: list = field(default_factory=list)  # other strings with words in them: shown untranslated


_IDENTIFIER = re.compile(r"[a-z][a-z0-9_]*")


def scan(modules: list) -> Scan:
    out = Scan()
    strings = []
    stack = list(modules)  # without recursion: syntax trees may be deep
    containers, nodes = (list, tuple), (ast.Node, ast.Module)
    below = (list, tuple, ast.Node)
    push, pop = stack.append, stack.pop
    while stack:
        node = pop()
        if isinstance(node, containers):
            stack.extend(node)
            continue
        if not isinstance(node, nodes):
            continue
        if isinstance(node, ast.Log):
            out.texts.append(node.message)
        elif isinstance(getattr(node, "ask", None), ast.Str):
            out.texts.append(node.ask)
        if isinstance(node, ast.Option):
            out.option_names.add(node.name)
        if isinstance(node, ast.Option) and node.ask is None:
            out.options.append(node)
        elif isinstance(node, ast.Str):
            strings.append(node)
        for v in vars(node).values():  # a loop, not a generator: this walk is a good part of `rules validate`
            if isinstance(v, below) and v:
                push(v)
    told = {id(t) for t in out.texts}
    for node in strings:
        if _IDENTIFIER.fullmatch(node.text):
            out.word_literals.add(node.text)
        elif id(node) not in told and any(ch.islower() for ch in _PLACEHOLDER.sub("", node.text)):
            out.loose.append(node)
    return out


def player_texts(modules: list) -> list:
    """Every `log` and `ask` text of the rule text (what a player reads of it)."""
    return scan(modules).texts


# ---------------------------------------------------------------- strings written in YAML
def check_localized(value, span: Span, what: str, languages: tuple, report: Report) -> None:
    """A player-facing YAML string: in a game of several languages, a map with every one of them."""
    if len(languages) == 1 and isinstance(value, str):
        return
    if not isinstance(value, dict):
        report.error("I18N-MISSING", f"{what} must be given in every language of the game: {{{', '.join(f'{c}: ...' for c in languages)}}}",
                     span, "write it as a map, one entry per language")
        return
    for code in languages:
        if not isinstance(value.get(code), str) or not value.get(code).strip():
            report.error("I18N-MISSING", f"{what} has no {language_name(code)} form", span, f"add `{code}: ...`")
    for code in value:
        if code not in languages:
            report.error("I18N-LANGUAGE", f"{what} has a form in '{code}', which the game does not declare", span,
                         did_you_mean(str(code), languages) or f"the game's languages: {', '.join(languages)}")


def localized(value, languages: tuple):
    """What the runtime holds for a checked YAML string."""
    if isinstance(value, dict):
        first = [(c, str(value[c])) for c in languages if c in value]
        return Localized(tuple(first)) if first else str(next(iter(value.values()), ""))
    return value
