"""What an action is: a JSON object with a ``type``, checked against the fields its game declares.

Every action is checked and copied by :func:`normalise_action` before a game applies it, so that what
is stored and replayed is exactly what was applied; refusals say in words what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import IllegalAction

Action = dict[str, Any]
View = dict[str, Any]


def require_action(action: Any) -> str:
    """The action's ``type``, or :class:`IllegalAction` if it is not an action at all."""
    if not isinstance(action, Mapping):
        raise IllegalAction(f"an action must be a JSON object with a 'type', not {action!r}")
    kind = action.get("type")
    if not isinstance(kind, str):
        raise IllegalAction(f"an action needs a 'type' naming what to do, got {dict(action)!r}")
    return kind


ACTION_TEXT_MAX = 64  # characters of a text field of an action
ACTION_LIST_MAX = 64  # items of a list field of an action
ACTION_KEYS_MAX = 16  # fields of an action a game declares no fields for
_KINDS: dict[str, Any] = {"int": int, "bool": bool, "str": str}


def normalise_action(fields: Mapping[str, Mapping[str, str]] | None, action: Any,
                     lenient: bool = False) -> Action:
    """``action`` checked against ``fields`` (a game's ``action_fields``) and copied: its type
    and its declared fields only. ``lenient``: unknown fields are left out rather than refused
    (actions stored before the check existed). Without ``fields``, any field goes whose value is
    flat JSON: a whole number, true/false, null, a short text, or a short list of those::

        normalise_action({"skip": {}}, {"type": "skip"})  # {"type": "skip"}
        normalise_action({"skip": {}}, {"type": "skip", "pad": 1})  # IllegalAction: takes no 'pad'
    """
    kind = require_action(action)
    if len(kind) > ACTION_TEXT_MAX:
        raise IllegalAction(f"an action type has at most {ACTION_TEXT_MAX} characters")
    if fields is None:
        return _flat_action(action, lenient)
    declared = fields.get(kind)
    if declared is None:
        raise IllegalAction(f"unknown action type {kind!r}: the actions are {', '.join(fields)}")
    extra = [key for key in action if key != "type" and key not in declared]
    if extra and not lenient:
        shown = ", ".join(repr(key[:ACTION_TEXT_MAX]) for key in extra[:3])
        raise IllegalAction(f"a {kind!r} action takes no {shown}"
                            f" (its fields: {', '.join(declared) or 'none but its type'})")
    out: Action = {"type": kind}
    for name, spec in declared.items():
        value = action.get(name)
        if value is None:
            if not spec.endswith("?"):
                raise IllegalAction(f"a {kind!r} action needs {name!r} ({_kind_words(spec)})")
            if name in action:
                out[name] = None
            continue
        if not _is_kind(value, spec.rstrip("?")):
            raise IllegalAction(f"{kind!r} needs {name!r} to be {_kind_words(spec)}, not"
                                f" {_shown(value)}")
        out[name] = list(value) if isinstance(value, list) else value
    return out


def _is_kind(value: Any, kind: str) -> bool:
    if kind in ("ints", "strs"):
        item = _KINDS[kind[:-1]]
        return (isinstance(value, list) and len(value) <= ACTION_LIST_MAX
                and all(type(v) is item and _short(v) for v in value))
    return type(value) is _KINDS[kind] and _short(value)


def _short(value: Any) -> bool:
    return not isinstance(value, str) or len(value) <= ACTION_TEXT_MAX


def _kind_words(spec: str) -> str:
    words = {"int": "a whole number", "bool": "true or false", "str": f"a text of at most {ACTION_TEXT_MAX}"
             " characters", "ints": f"a list of at most {ACTION_LIST_MAX} whole numbers",
             "strs": f"a list of at most {ACTION_LIST_MAX} texts"}[spec.rstrip("?")]
    return words + (", or nothing" if spec.endswith("?") else "")


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= ACTION_TEXT_MAX else text[:ACTION_TEXT_MAX] + "..."


def _flat_action(action: Mapping[str, Any], lenient: bool) -> Action:
    if len(action) > ACTION_KEYS_MAX and not lenient:
        raise IllegalAction(f"an action has at most {ACTION_KEYS_MAX} fields, not {len(action)}")
    out: Action = {}
    for key, value in action.items():
        if not isinstance(key, str) or len(key) > ACTION_TEXT_MAX:
            if lenient:
                continue
            raise IllegalAction(f"an action's field names have at most {ACTION_TEXT_MAX} characters")
        if not (_is_flat(value) or isinstance(value, list) and len(value) <= ACTION_LIST_MAX
                and all(map(_is_flat, value))):
            if lenient:
                continue
            raise IllegalAction(f"the field {key[:ACTION_TEXT_MAX]!r} holds {_shown(value)}: an action's fields"
                                " are whole numbers, true/false, short texts or short lists of those")
        out[key] = list(value) if isinstance(value, list) else value
    return out


def _is_flat(value: Any) -> bool:
    return value is None or any(_is_kind(value, kind) for kind in ("int", "bool", "str"))


def require_int(action: Mapping[str, Any], key: str) -> int:
    """The integer field ``key`` of ``action``, or :class:`IllegalAction` naming the field."""
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(f"{action.get('type', 'the')} action needs a whole number {key!r}, got {value!r}")
    return value
