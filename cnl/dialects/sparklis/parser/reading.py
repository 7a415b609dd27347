"""What one parse reads with: the notation ``<...>`` terms are read in, and the lexicons of
property labels and entity labels that tell bare labels apart. Set by
:func:`~cnl.dialects.sparklis.parser.driver.parse_sparklis` for the duration of one parse and read
by the lexer and the term readers inside Lark's callbacks (context variables, so that parses in
several threads never mix).

Separate because the lexer and the term readers both need them, and neither owns them."""
from __future__ import annotations

import contextvars

current_notation: contextvars.ContextVar[str] = contextvars.ContextVar("sparklis_notation", default="ecai")
# Property label (lower case) -> PID or None, for the bare-label style: "has as a genre romance film".
current_properties: contextvars.ContextVar[dict] = contextvars.ContextVar("sparklis_properties", default={})
# Known entity labels (lower case), to split "Chris Farley and Matthew Perry" into two values.
current_entities: contextvars.ContextVar[frozenset] = contextvars.ContextVar("sparklis_entities", default=frozenset())
