"""Looking for a word in a page the way a reader would, not as any substring.

A bare substring test of a short name such as "ada" against a whole page also matches the
page's tokens and ids (a CSRF token, an invite token, a game id: "...-bada-..."), so a
test asserting that a name is *not* on a page fails by luck now and then.
"""

from __future__ import annotations

import re


def mentions(html: str | bytes, word: str) -> bool:
    """Whether ``word`` is in ``html`` as a word of its own: anywhere (text, a link, an
    attribute), but not inside a longer run of letters, digits, ``_`` and ``-``, which is
    what tokens and ids are made of.

    >>> mentions('<a href="/players/ada/">ada</a>', "ada"), mentions("ada's board", "ada")
    (True, True)
    >>> mentions('<a href="/games/0c1e-bada-4f/">x</a><input value="xAdaQada9">', "ada")
    False
    """
    text = html.decode() if isinstance(html, bytes) else html
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None
