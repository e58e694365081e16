"""Every string a player reads is marked for translation, so the next language is a
catalog and a glossary, nothing more: each template under templates/ and each module
under static/js is read, what is marked is taken out, and any English left fails here.

Templates: comments, ``{% translate %}`` / ``{% blocktranslate %}`` blocks, ``{{ }}``,
``{% %}``, scripts, styles, ``<pre>`` and ``<code>`` (notation: ``t3-f1``, ``FT1-N-...``) are
dropped, then the tags; what remains, and the visible attributes (aria-label, title,
placeholder, alt), must hold no word. JavaScript: comments, ``t("...")`` and
``tn("...", "...")`` are dropped; a literal that looks like words a person reads (two
words, or one capitalised word ending a sentence) must be on the allow-list of CSS
classes, key names and log text.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = sorted(p for p in (ROOT / "templates").rglob("*") if p.is_file())
SCRIPTS = sorted((ROOT / "static" / "js").rglob("*.js"))
WORDS = re.compile(r"[A-Za-z][A-Za-z'’-]+(?:\s+[A-Za-z][A-Za-z'’-]*)*")
# Names and codes that are the same in every language.
TEMPLATE_ALLOWED = {"Forty Thieves", "UTC"}
# Not read by players: CSS classes and styles, key names (KeyboardEvent.key), console text.
SCRIPT_ALLOWED = {
    "3px dashed #e0a800",
    "3px solid #e0a800",
    "ft-card ft-card--back",
    "muted analysis__cost",
    "Arrow",
    "Escape",
    "Enter",
    "board refresh failed",
    "no clipboard",
    "KeyboardInput.${name} is implemented by Input",  # a programming mistake's Error
}


def template_words(text: str) -> list[str]:
    """The words of a template a reader would see that no translate tag covers."""
    text = re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", " ", text, flags=re.S)
    text = re.sub(r"{#.*?#}", " ", text, flags=re.S)
    text = re.sub(r"{%\s*blocktranslate\b.*?{%\s*endblocktranslate\s*%}", " ", text, flags=re.S)
    text = re.sub(r"{%\s*translate\s+(\"[^\"]*\"|'[^']*').*?%}", " ", text, flags=re.S)
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = re.sub(r"<(script|style|pre|code)\b.*?</\1>", " ", text, flags=re.S)
    attributes = re.findall(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"', text)
    text = " ".join([text, *attributes])
    text = re.sub(r"{{.*?}}|{%.*?%}", " ", text, flags=re.S)
    text = re.sub(r"<[^>]*>", " ", text, flags=re.S)
    text = re.sub(r"&\w+;", " ", text)
    for name in TEMPLATE_ALLOWED:
        text = text.replace(name, " ")
    return [" ".join(w.split()) for w in WORDS.findall(text)]


def script_words(text: str) -> list[str]:
    """The string literals of a module that read as words and are not inside t()."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"(^|\s)//.*$", " ", text, flags=re.M)
    text = re.sub(r'\bt\(\s*"(?:[^"\\]|\\.)*"', "t(", text)
    # tn("one", "many", n): both forms are the catalog's.
    text = re.sub(r'\btn\(\s*"(?:[^"\\]|\\.)*",\s*"(?:[^"\\]|\\.)*"', "tn(", text)
    found = []
    literal = r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`'
    for match in re.finditer(literal, text):
        value = next(g for g in match.groups() if g is not None)
        bare = re.sub(r"\$\{[^}]*\}", " ", value)
        if re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", bare) or re.fullmatch(
            r"[A-Z][a-z]+[.!…]?", bare
        ):
            found.append(value)
    return [w for w in found if w not in SCRIPT_ALLOWED]


def test_it_reads_every_template_and_script() -> None:
    assert len(TEMPLATES) > 40 and any(p.name == "base.html" for p in TEMPLATES)
    assert len(SCRIPTS) > 10 and any(p.name == "reminders.js" for p in SCRIPTS)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_template_string_is_marked_for_translation(path: Path) -> None:
    left = template_words(path.read_text(encoding="utf-8"))
    assert not left, f"{path.name}: English not inside {{% translate %}}: {left}"


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_script_string_is_marked_for_translation(path: Path) -> None:
    left = script_words(path.read_text(encoding="utf-8"))
    assert not left, f'{path.name}: strings not inside t("..."): {left}'


def test_the_checks_catch_unmarked_text() -> None:
    """The scanners themselves: an unmarked sentence, label or JS message is found."""
    assert "Play the deal" in template_words("<p>Play the deal</p>")
    assert "Copy it" in template_words('<a title="Copy it" href="/">{{ n }}</a>')
    assert template_words('<p>{% translate "Play the deal" %} {{ name }}</p>') == []
    assert template_words("{% blocktranslate %}Hi {{ n }}{% endblocktranslate %}") == []
    assert template_words("<code>t3-f1</code> <title>Forty Thieves</title>") == []
    assert script_words('el.textContent = "You won!";') == ["You won!"]
    assert script_words('el.textContent = "Copied.";') == ["Copied."]
    assert script_words('el.textContent = t("You won!");') == []
    assert script_words('el.className = "ft-card ft-card--back";') == []
