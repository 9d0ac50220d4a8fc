"""The instruction linter: would a prompt be answered deterministically, and if not, why and
how to rewrite it.

``lint`` runs the prompt through the engine exactly as a request would go (sampling gate,
text gate, grammar, planner, and the payload when there is one) and reads the fallback
reason. Each suggestion names what to change: the sampling parameter to set, the vague word
to drop ("3点左右" → "3点"), the open question to split into its own request, or the closest
canonical phrasing among the registered examples. A suggestion that comes with a rewrite says
whether that rewrite is answered deterministically, and that verdict is the engine's own
answer to the rewrite, never a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from typing import Any, Protocol

from zerolayer.core.gate import OPEN_ENDED, VAGUE
from zerolayer.core.messages import EngineRequest, EngineResult, Message, Route
from zerolayer.core.normalise import normalise
from zerolayer.core.registry import Example
from zerolayer.core.segment import segment

MAX_STEPS = 6  # rewrites applied one after another (a prompt with several vague words)
CANONICAL_TRIES = 8  # closest examples tried as canonical phrasings
CANONICAL_OFFERS = 2
CANONICAL_MIN_SCORE = 0.8  # word overlap + character similarity, out of 2


class LintEngine(Protocol):
    """What the linter needs of an engine: ``run``, ``explain`` and the examples."""

    registry: Any

    def run(self, request: EngineRequest) -> EngineResult: ...

    def explain(self, request: EngineRequest) -> EngineResult: ...


@dataclass(frozen=True)
class Sampling:
    """The sampling parameters a prompt would be sent with."""

    temperature: float | None = 0.0
    top_p: float | None = None

    def to_dict(self) -> dict[str, float | None]:
        return {"temperature": self.temperature, "top_p": self.top_p}


@dataclass(frozen=True)
class Suggestion:
    """One change to make. ``rewrite`` (with ``sampling``) is the whole prompt after the
    change and every change before it; ``deterministic`` is the engine's verdict on it."""

    kind: str  # sampling | drop_vague | split_open | canonical | payload | explain
    message: str
    rewrite: str | None = None
    sampling: Sampling | None = None
    deterministic: bool | None = None
    split_off: str | None = None  # the part to ask separately (split_open)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "message": self.message,
            "rewrite": self.rewrite,
            "sampling": self.sampling.to_dict() if self.sampling else None,
            "deterministic": self.deterministic,
            "split_off": self.split_off,
        }


@dataclass(frozen=True)
class LintReport:
    """The verdict on a prompt and the suggestions that would make it deterministic."""

    prompt: str
    deterministic: bool
    route: str
    reason: str | None = None
    detail: str | None = None
    plan: str | None = None
    suggestions: tuple[Suggestion, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {
            "prompt": self.prompt,
            "deterministic": self.deterministic,
            "route": self.route,
            "reason": self.reason,
            "detail": self.detail,
            "plan": self.plan,
            "suggestions": [s.to_dict() for s in self.suggestions],
        }


def verdict(
    engine: LintEngine, prompt: str, payload: str | None, sampling: Sampling
) -> EngineResult:
    """How the engine answers ``prompt`` (with ``payload`` given apart, if any).

    A prompt with no payload is judged by its plan (``explain``): a linter is asked about
    instructions before any data is at hand.
    """
    request = EngineRequest(
        messages=(Message("user", prompt),),
        temperature=sampling.temperature,
        top_p=sampling.top_p,
        payloads=(payload,) if payload is not None else (),
    )
    result = engine.run(request)
    if result.route is Route.FALLBACK and result.reason == "segment.no_payload":
        result = engine.explain(request)
    return result


def is_deterministic(result: EngineResult) -> bool:
    """Whether the engine itself answers (an answer, or a payload error it reports)."""
    return result.route is not Route.FALLBACK


def lint(
    engine: LintEngine,
    prompt: str,
    *,
    payload: str | None = None,
    sampling: Sampling | None = None,
) -> LintReport:
    """Lint ``prompt``: the engine's verdict, and when it falls back, how to rewrite it."""
    sampling = sampling or Sampling()
    first = verdict(engine, prompt, payload, sampling)
    report = LintReport(
        prompt=prompt,
        deterministic=is_deterministic(first),
        route=first.route.value,
        reason=first.reason,
        detail=first.detail or (str(first.error) if first.error else None),
        plan=first.plan,
    )
    if report.deterministic:
        return report
    suggestions: list[Suggestion] = []
    text, current, result = prompt, sampling, first
    for _ in range(MAX_STEPS):
        step = _next_step(engine, text, payload, current, result)
        if step is None:
            break
        suggestions.append(step)
        if step.rewrite is None:
            break
        text, current = step.rewrite, step.sampling or current
        result = verdict(engine, text, payload, current)
        if is_deterministic(result):
            break
    return replace(report, suggestions=tuple(suggestions))


# ---------------------------------------------------------------- one step per reason


def _next_step(
    engine: LintEngine,
    text: str,
    payload: str | None,
    sampling: Sampling,
    result: EngineResult,
) -> Suggestion | None:
    reason = result.reason or ""
    if reason in ("gate.temperature", "gate.temperature_absent", "gate.top_p"):
        fixed = Sampling(temperature=0.0, top_p=None)
        return _checked(
            engine,
            Suggestion(
                "sampling",
                f"{result.detail}: send temperature 0 and leave top_p out (or 1)",
                rewrite=text,
                sampling=fixed,
            ),
            payload,
        )
    if reason == "gate.vague_quantifier":
        return _checked(engine, _drop_vague(text, result), payload, sampling)
    if reason == "gate.open_ended":
        return _checked(engine, _split_open(text), payload, sampling)
    if reason in ("parse.no_match", "plan.option_unused", "plan.empty", "plan.type_mismatch"):
        return _canonical(engine, text, payload, sampling, result)
    if reason == "payload.format_unstated":
        return Suggestion(
            "payload",
            f'{result.detail}; name the format in the instruction ("Convert this JSON …") '
            "or fence the payload with its language (```json)",
        )
    if reason in ("plan.ambiguous_input", "plan.payload_format"):
        return Suggestion(
            "payload", f'{result.detail} ("this JSON …", or a fenced block tagged ```json)'
        )
    if reason.startswith("segment."):
        return Suggestion(
            "payload",
            f"{result.detail}; send one payload, after a colon or in a fenced block",
        )
    if reason == "gate.disabled":
        return Suggestion("explain", "the request asks for the model (x-zero-layer: disable)")
    return Suggestion("explain", f"falls back ({reason}): {result.detail}")


def _checked(
    engine: LintEngine,
    suggestion: Suggestion | None,
    payload: str | None,
    sampling: Sampling | None = None,
) -> Suggestion | None:
    """The suggestion with the engine's verdict on its rewrite."""
    if suggestion is None or suggestion.rewrite is None:
        return suggestion
    used = suggestion.sampling or sampling or Sampling()
    answered = is_deterministic(verdict(engine, suggestion.rewrite, payload, used))
    return replace(suggestion, sampling=used, deterministic=answered)


# ---------------------------------------------------------------- vague words

_NUM = r"(?:\d|one|two|three|four|five|six|seven|eight|nine|ten)"
# (pattern, replacement): the vague word goes, the exact amount stays.
_VAGUE_FIXES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), r)
    for p, r in (
        (
            rf"(?<![A-Za-z])(?:about|around|approx\.?|approximately|roughly|circa|nearly|almost)"
            rf"\s+(?={_NUM})",
            "",
        ),
        (r"~\s*(?=\d)", ""),
        (r"(\d)\s*-?ish(?![A-Za-z])", r"\1"),
        (
            r"(?:more or less|give or take|or so|if possible|where possible|if you can)"
            r"(?![A-Za-z])",
            "",
        ),
        (r"(?<![A-Za-z])(?:roughly|approximately)\s+", ""),
        (r"左右|上下浮动", ""),
        (r"大概|大约|差不多|尽量|尽可能", ""),
        (r"约(?=\d)", ""),
    )
)


def _drop_vague(text: str, result: EngineResult) -> Suggestion:
    start, end = _instruction_span(text)
    head, body, tail = text[:start], text[start:end], text[end:]
    match = VAGUE.search(body)
    found = match.group(0).strip() if match else "the vague word"
    if match:
        before, rest = body[: match.start()], body[match.start() :]
        for pattern, replacement in _VAGUE_FIXES:
            if pattern.match(rest):
                fixed = before + pattern.sub(replacement, rest, count=1)
                fixed = re.sub(r"[ \t]{2,}", " ", fixed)
                fixed = re.sub(r"[ \t]+(?=[,，.。;；]|$)", "", fixed)
                fixed = re.sub(r"([,，])[,，]+", r"\1", fixed)
                return Suggestion(
                    "drop_vague",
                    f"drop the vague word ({found!r}) and state the exact amount",
                    rewrite=head + fixed + tail,
                )
    return Suggestion(
        "drop_vague",
        f"{found!r} is not an exact amount: say exactly how many (no rewrite can guess it)",
    )


# ---------------------------------------------------------------- open-ended asks

_CLAUSE = re.compile(
    r"(?<=[.;!?。；！？,，])\s*|\s+(?=(?:and|then|also|plus)\s)|(?=并且|然后|并|再|同时|顺便)",
    re.IGNORECASE,
)


def _split_open(text: str) -> Suggestion:
    start, end = _instruction_span(text)
    head, body, tail = text[:start], text[start:end], text[end:]
    clauses = [c for c in _CLAUSE.split(body) if c and c.strip()]
    kept = [c for c in clauses if not OPEN_ENDED.search(c)]
    dropped = [c.strip() for c in clauses if OPEN_ENDED.search(c)]
    match = OPEN_ENDED.search(body)
    found = match.group(0) if match else ""
    if not kept:
        return Suggestion(
            "split_open",
            f"the request is open-ended ({found!r}): a model must answer it",
        )
    rewritten = " ".join(c.strip() for c in kept)
    rewritten = re.sub(r"^(?:and|then|also|plus)\s+", "", rewritten, flags=re.IGNORECASE)
    rewritten = re.sub(r"[,，;；]\s*$", "", rewritten).strip()
    split_off = " ".join(dropped)
    split_off = re.sub(r"^(?:and|then|also|plus)\s+", "", split_off, flags=re.IGNORECASE)
    return Suggestion(
        "split_open",
        f"the open-ended part ({found!r}) needs a model: ask it in its own request",
        rewrite=head + rewritten + tail,
        split_off=split_off.strip(" ,，"),
    )


# ---------------------------------------------------------------- canonical phrasings


def _canonical(
    engine: LintEngine,
    text: str,
    payload: str | None,
    sampling: Sampling,
    result: EngineResult,
) -> Suggestion:
    start, end = _instruction_span(text)
    head, body, tail = text[:start], text[start:end], text[end:]
    offers: list[str] = []
    for example in closest_examples(engine.registry.examples, body)[:CANONICAL_TRIES]:
        if not _values(body) <= _values(example.instruction):
            continue  # the phrasing would drop a number or a quoted value: another request
        rewrite = head + example.instruction + tail
        if is_deterministic(verdict(engine, rewrite, payload, sampling)):
            offers.append(rewrite)
        if len(offers) == CANONICAL_OFFERS:
            break
    why = f"the grammar does not understand it ({result.detail})"
    if not offers:
        return Suggestion("canonical", f"{why}; no registered phrasing is close to it")
    phrasings = " or ".join(repr(o[start : len(o) - len(tail)]) for o in offers)
    return Suggestion(
        "canonical",
        f"{why}; the closest phrasings it understands: {phrasings} (check the meaning)",
        rewrite=offers[0],
        sampling=sampling,
        deterministic=True,
    )


def _values(instruction: str) -> set[str]:
    """The numbers and quoted values of an instruction: what a rewrite must keep."""
    text = normalise(instruction)
    return set(re.findall(r"\d+(?:\.\d+)?", text)) | set(re.findall(r"\"[^\"]*\"", text))


def similarity(instruction: str, other: str) -> float:
    """Word overlap (Jaccard) plus character similarity of two instructions: 0 to 2."""
    mine, theirs = normalise(instruction).lower(), normalise(other).lower()
    words = set(re.findall(r"[a-z0-9]+|[\u3400-\u9fff]", mine))
    their_words = set(re.findall(r"[a-z0-9]+|[\u3400-\u9fff]", theirs))
    overlap = len(words & their_words) / max(1, len(words | their_words))
    return overlap + SequenceMatcher(None, mine, theirs).ratio()


def closest_examples(examples: list[Example], instruction: str) -> list[Example]:
    """Registered examples close enough to ``instruction``, the most similar first."""
    unique = {e.instruction: e for e in examples}
    scored = [(similarity(instruction, i), e) for i, e in unique.items()]
    return [e for s, e in sorted(scored, key=lambda x: -x[0]) if s >= CANONICAL_MIN_SCORE]


# ---------------------------------------------------------------- where the instruction is


def _instruction_span(text: str) -> tuple[int, int]:
    """Where the instruction sits in the prompt (payloads excluded), as (start, end)."""
    for candidate in segment(text):
        if candidate.payloads:
            at = text.find(candidate.instruction)
            if at >= 0:
                return at, at + len(candidate.instruction)
    return 0, len(text)
