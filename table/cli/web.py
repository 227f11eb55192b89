"""``munchkin-table web key [--rotate]``: the web view's key, shown or replaced."""

from __future__ import annotations

import argparse

from engine.errors import MunchkinError
from table.cli.common import Subparsers, config_of, with_config
from table.web import base_url, lan_address, read_key, rotate_key


def cmd_web_key(args: argparse.Namespace) -> int:

    config = config_of(args)
    web = config.web
    where = base_url(lan_address(web.bind), web.port, web.url)
    if web.key:
        if args.rotate:
            raise MunchkinError(f"{config.source}: the key is set there ([web] key); change it there, "
                                f"or empty it for a random one kept in the state directory")
        key = web.key
    elif args.rotate:
        key = rotate_key(config.state_dir)
        print("a new web key: pages opened with the old one get 403 now; a running table shows the new "
              "QR code within 10 seconds")
    else:
        key = read_key(config.state_dir)
        if not key:
            raise MunchkinError(f"no web key in {config.state_dir} yet: the table makes one when the web view "
                                f"starts, or run: munchkin-table web key --rotate")
    print(f"{where}?key={key}")
    return 0


def add_web(sub: Subparsers) -> None:
    p = sub.add_parser("web", help="the phones' web view: its key")
    family = p.add_subparsers(dest="web_command", required=True)
    key = with_config(family.add_parser("key", help="print the address with the key; --rotate makes a new key"))
    key.add_argument("--rotate", action="store_true", help="replace the key: every phone must scan the QR code again")
    key.set_defaults(func=cmd_web_key)
