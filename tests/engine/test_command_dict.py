"""A command as stored: its fields by name and its type, as ``dataclasses.asdict`` gives them, for
every command with every kind of value its fields take; and read back to the same command."""

from __future__ import annotations

import json
from dataclasses import asdict, fields

import pytest

from engine.commands import COMMANDS, command_from_dict, command_to_dict

SAMPLES = {"str": "player-2", "float": 12.5, "int": 3, "int | None": 4, "str | None": "elf", "bool": True,
           "tuple[str, ...]": ("elf", "dwarf")}


@pytest.mark.parametrize("kind", sorted(COMMANDS))
def test_every_command_is_stored_as_asdict_stores_it_and_read_back_whole(kind: str) -> None:
    cls = COMMANDS[kind]
    values = {}
    for f in fields(cls):
        assert str(f.type) in SAMPLES, f"{kind}.{f.name}: a field of type {f.type} this test does not know"
        values[f.name] = SAMPLES[str(f.type)]
    cmd = cls(**values)
    expected = asdict(cmd)
    expected["type"] = cmd.name
    data = command_to_dict(cmd)
    assert json.dumps(data) == json.dumps(expected)           # the same text, key for key, in order
    assert command_from_dict(json.loads(json.dumps(data))) == cmd
