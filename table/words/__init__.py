"""Words: what the table says, in the players' language, to the screen and the phones alike.

Owns the gettext catalogs and their Babel toolchain (``catalogs``), plural forms, and turning the
engine's messages, cards and players into the words shown (``i18n``); and the command line's own
language (``user``: the user's locale, as gettext programs read it, apart from the screen's). It knows nothing of pygame or
of HTTP: the screen (``table.ui``) and the phones' pages (``table.web``) both import it.

May import: engine, cards, drivers, table.config, table.storage, table.session and table.control.
"""
