"""Grammar-constrained decoding for SQUALL.

:class:`SquallLogitsProcessor` uses the grammar's prefix checker
(:class:`cnl.dialects.squall.prefix.SquallPrefixChecker`, shared with completion as a person
types) at each decoding step: of the top-k tokens only those keeping the output a viable
prefix survive, and end-of-sequence survives only when the text parses completely.
"""
from __future__ import annotations

import math

from cnl.dialects.squall.prefix import KnownLabels, SquallPrefixChecker
from cnl.kg.limits import check_deadline


def _ends_sentence(text: str) -> bool:
    """True when ``text`` ends with the query's end mark: "?" or "!", or a "." that does not
    follow a digit ("greater than 3." may still become "3.5")."""
    stripped = text.rstrip()
    if stripped.endswith(("?", "!")):
        return True
    return stripped.endswith(".") and not stripped[-2:-1].isdigit()


class SquallLogitsProcessor:
    """A transformers LogitsProcessor keeping generation inside the SQUALL grammar."""

    def __init__(self, tokenizer, prompt_length: int, checker: SquallPrefixChecker | None = None,
                 top_k: int = 30, wider_k: int = 300, enough: int | None = None,
                 max_new_tokens: int | None = None, num_beams: int = 1, reserve: int = 8,
                 row_checkers=None):
        """``row_checkers``: one checker per input of the batch (its beams share it), when the
        inputs allow different property labels; default: ``checker`` for all."""
        self.tokenizer = tokenizer
        self.prompt_length = prompt_length
        self.checker = checker or SquallPrefixChecker()
        self.row_checkers = row_checkers
        self.top_k = top_k
        self.wider_k = wider_k
        # Greedy search needs only the best viable token; beam search a few per beam.
        self.enough = enough
        self.eos_ids = {tokenizer.eos_token_id}
        # In the last `reserve` steps only tokens that complete the query are taken, so a
        # query is closed before max_new_tokens cuts it; the latest complete text of each
        # input is kept as a fallback for outputs that still end unfinished.
        self.max_new_tokens = max_new_tokens
        self.num_beams = num_beams
        self.reserve = reserve
        self.last_complete: dict[int, str] = {}
        self._pieces: dict[int, str] = {}
        self.calls = 0

    def _piece(self, token_id: int) -> str:
        piece = self._pieces.get(token_id)
        if piece is None:
            piece = self._pieces[token_id] = self.tokenizer.decode([token_id])
        return piece

    def __call__(self, input_ids, scores):
        import torch

        check_deadline()  # once per generated token: a request's deadline stops its decoding
        self.calls += 1
        out = torch.full_like(scores, -math.inf)
        for row in range(input_ids.shape[0]):
            if self.row_checkers is not None:
                self.checker = self.row_checkers[row // self.num_beams]
            generated = input_ids[row, self.prompt_length:].tolist()
            text = self.tokenizer.decode(generated, skip_special_tokens=True)
            if generated and generated[-1] in self.eos_ids:
                out[row, list(self.eos_ids)] = 0.0  # finished beam: padding continues
                continue
            if text.strip() and self.checker.is_complete(text):
                self.last_complete[row // self.num_beams] = text
                if _ends_sentence(text):
                    # a query is one sentence: after its end mark only EOS (not blanks forever)
                    out[row, list(self.eos_ids)] = 0.0
                    continue
            closing = (self.max_new_tokens is not None
                       and len(generated) >= self.max_new_tokens - self.reserve)
            allowed = self._closing(text, scores[row]) if closing else []
            if not allowed:
                allowed = self._allowed(text, scores[row], self.top_k)
            if not allowed:
                allowed = self._allowed(text, scores[row], self.wider_k)
            if not allowed:
                # the model's likely tokens are all dead ends ("does [X] have" wants "-<P>"):
                # the best viable token of the whole vocabulary (rare, so the scan is affordable)
                allowed = self._allowed(text, scores[row], scores.shape[-1], enough=1)
            if not allowed:
                # nothing viable in sight: stop rather than write text that cannot parse
                allowed = list(self.eos_ids)
            idx = torch.tensor(allowed, device=scores.device)
            out[row, idx] = scores[row, idx]
        return out

    def _closing(self, text: str, row_scores) -> list[int]:
        """Tokens (of the wider top-k) after which the text parses, EOS when it already does."""
        if text.strip() and self.checker.is_complete(text):
            return list(self.eos_ids)
        out = []
        for token_id in row_scores.topk(min(self.wider_k, row_scores.shape[-1])).indices.tolist():
            if token_id in self.eos_ids:
                continue
            piece = self._piece(token_id)
            if piece and "\ufffd" not in piece and self.checker.is_complete(text + piece):
                out.append(token_id)
                if len(out) >= (self.enough or 1):
                    break
        return out

    def _allowed(self, text: str, row_scores, k: int, enough: int | None = None) -> list[int]:
        enough = enough or self.enough
        top = row_scores.topk(min(k, row_scores.shape[-1])).indices.tolist()
        allowed = []
        complete = None
        for token_id in top:
            if token_id in self.eos_ids:
                if complete is None:
                    complete = bool(text.strip()) and self.checker.is_complete(text)
                if complete:
                    allowed.append(token_id)
                    if enough and len(allowed) >= enough:
                        break
                continue
            piece = self._piece(token_id)
            if not piece or "\ufffd" in piece:
                continue
            candidate = text + piece
            if not text and not piece.strip():
                continue  # no leading blanks
            if self.checker.is_viable(candidate):
                allowed.append(token_id)
            if enough and len(allowed) >= enough:
                break
        return allowed


__all__ = ["KnownLabels", "SquallPrefixChecker", "SquallLogitsProcessor"]
