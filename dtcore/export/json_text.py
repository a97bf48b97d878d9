"""JSON text indented by one space, byte for byte what ``json.dumps(value, ensure_ascii=False,
indent=1, allow_nan=False)`` writes, a few times faster on a model's long arrays.

With an indent, Python's ``json`` leaves its C encoder and walks every value through nested
generators. Here a list whose items are all of one plain type (``int``, ``float`` or ``str``: a
model's tree arrays and label lists) is one ``join`` over the items' C-level texts; anything
else goes item by item, with the same texts: ``int.__repr__``, ``float.__repr__``, ``json``'s
own C string escaper. Measured: a 24 000-node CART model 0.70 → 0.43–0.54 s; ``dtcore train``
of ID3 on 10⁵ labels × 2 rows (a 100 001-node model, every test with 10⁵ branches) 9.4 → 5.6 s.
Dict keys must be strings (``json`` would turn numbers into keys; a model has none)."""

from __future__ import annotations

import math
from json.encoder import encode_basestring  # the C escaper when built (ensure_ascii=False)


def dumps_indented(value: object) -> str:
    """``json.dumps(value, ensure_ascii=False, indent=1, allow_nan=False)``: dicts with string
    keys, lists and tuples, strings, numbers, booleans and None (ValueError for a float that is
    not finite, TypeError for anything else, as ``json`` raises)."""
    out: list[str] = []
    _write(value, "\n", out)
    return "".join(out)


def _scalar(value: object) -> str | None:
    """The text of a value that is not a container (None: it is one)."""
    if isinstance(value, str):
        return encode_basestring(value)
    if value is None:
        return "null"
    if value is True:  # before int: a bool is one
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"Out of range float values are not JSON compliant: {value!r}")
        return float.__repr__(value)
    if isinstance(value, (list, tuple, dict)):
        return None
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _plain_items(items: list | tuple) -> list[str] | None:
    """The items' texts in one pass when they are all of one plain type, else None."""
    kinds = set(map(type, items))
    if len(kinds) != 1:
        return None
    kind = kinds.pop()
    if kind is int:
        return list(map(int.__repr__, items))
    if kind is str:
        return list(map(encode_basestring, items))
    if kind is float:
        if not all(map(math.isfinite, items)):
            return None  # the item by item path names the value
        return list(map(float.__repr__, items))
    return None


def _write(value: object, newline: str, out: list[str]) -> None:
    """Append ``value``'s text; ``newline`` is the line break and indentation of its own level."""
    text = _scalar(value)
    if text is not None:
        out.append(text)
        return
    inner = newline + " "
    if isinstance(value, dict):
        if not value:
            out.append("{}")
            return
        sep = "{" + inner
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"keys must be str here, not {type(key).__name__}")
            text = _scalar(item)
            if text is None:  # a container: its own lines
                out.append(sep + encode_basestring(key) + ": ")
                _write(item, inner, out)
            else:
                out.append(sep + encode_basestring(key) + ": " + text)
            sep = "," + inner
        out.append(newline + "}")
        return
    assert isinstance(value, (list, tuple))  # what _scalar leaves
    items = value
    if not items:
        out.append("[]")
        return
    plain = _plain_items(items)
    if plain is not None:
        out.append("[" + inner + ("," + inner).join(plain) + newline + "]")
        return
    sep = "[" + inner
    for item in items:
        out.append(sep)
        _write(item, inner, out)
        sep = "," + inner
    out.append(newline + "]")
