"""Plural forms: one source for every language, the rule text's and the engine's own words alike.

A text says a number with its word in every form the language has, `{EXPR|FORM|FORM...}`, `#` standing for
the number: `"{p} draws {len(cards)|# card|# cards}"`, and in Russian `"{p} берёт {len(cards)|# карту|# карты|#
карт}"`. The forms are those of CLDR's plural rules for whole numbers, in their order: English `one`, `other`
(2 forms), Russian `one`, `few`, `many` (3 forms); a language not listed here has English's two.

The rules are a table of the languages the engine speaks rather than Babel's CLDR data: they are a few lines,
and loading Babel's data for a language costs about 0.3 s, more than `rules validate` takes in all
(tests/test_plurals.py checks the table against Babel's rules where Babel is installed).
"""
from __future__ import annotations

PLURAL_FORMS = {"en": ("one", "other"), "ru": ("one", "few", "many")}
_DEFAULT = ("one", "other")


def forms_of(lang: str) -> tuple:
    """The plural categories a text in `lang` writes a form for, in order."""
    return PLURAL_FORMS.get(lang, _DEFAULT)


def category(lang: str, n: int) -> str:
    """CLDR's plural category of the whole number n in `lang`."""
    n = abs(n)
    if lang == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def plural(lang: str, n, forms) -> str:
    """The form of `forms` (one per category of `lang`) that the number n takes, `#` written as n."""
    cats = forms_of(lang)
    cat = category(lang, n) if isinstance(n, int) and not isinstance(n, bool) else cats[-1]
    i = cats.index(cat) if cat in cats else len(cats) - 1
    form = forms[min(i, len(forms) - 1)]
    return form.replace("#", str(n))


def split(inner: str) -> tuple[str, tuple]:
    """A placeholder's inside as its expression and its plural forms: `len(c)|# card|# cards` is
    ("len(c)", ("# card", "# cards")); a placeholder without forms has none."""
    expr, bar, rest = inner.partition("|")
    return expr, tuple(rest.split("|")) if bar else ()
