"""Player tokens and the name a player has until someone names them: made here, and only here.

A token is ``player-1`` … ``player-6``; the default name of ``player-3`` is "Player 3". Code that
shows names asks ``default_token`` which token a default name belongs to (a lookup, not a parse),
and words it in its own language from the token's ``token_number``.
"""

from __future__ import annotations

from engine.state import PLAYER_TOKENS


def token_number(token: str) -> int:
    """The number on a player token: 3 for ``player-3``. Raises ValueError for anything else."""
    if token not in PLAYER_TOKENS:
        raise ValueError(f"{token!r} is not a player token (player-1 … player-{len(PLAYER_TOKENS)})")
    return PLAYER_TOKENS.index(token) + 1


def default_name(token: str) -> str:
    """The name of a player nobody has named (English; the screen words it from the token)."""
    return f"Player {token_number(token)}"


DEFAULT_NAMES = {default_name(token): token for token in PLAYER_TOKENS}


def default_token(name: str) -> str | None:
    """The token whose default name ``name`` is, or None: a name someone chose."""
    return DEFAULT_NAMES.get(name)


def is_default_name(token: str, name: str) -> bool:
    """Whether ``name`` is the name ``token`` has when nobody named it."""
    return token in PLAYER_TOKENS and name == default_name(token)
