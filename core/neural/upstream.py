"""An OpenAI-compatible upstream (vLLM, TGI, Ollama, llama.cpp server, another zerolayer).

``ZEROLAYER_FALLBACK=upstream:http://host:port/v1`` posts to ``{base}/chat/completions``;
``ZEROLAYER_UPSTREAM_MODEL`` names the model (default ``default``) and
``ZEROLAYER_UPSTREAM_API_KEY`` is sent as a bearer token when set. Timeouts, retries and the
breaker come from ``ZEROLAYER_UPSTREAM_*`` (see ``transport.TransportSettings``).

The request's sampling parameters (``temperature``, ``top_p``, ``n``, ``seed``, penalties,
``logit_bias``, ``top_k`` …) are sent as the client sent them; the upstream's usage, its
choices and its finish reasons come back unchanged. A stream must end with a finish reason or
``[DONE]``: one that ends without (cut off), carries an error, or is not an event stream
raises ``UpstreamError``, which the HTTP service turns into the API's error event.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from json.decoder import scanstring
from typing import Any

from zerolayer.core.fallback import Choice, ChoiceDelta, Completion, StopReason
from zerolayer.core.messages import EngineRequest
from zerolayer.core.neural.prompt import chat_messages
from zerolayer.core.neural.transport import (
    DONE,
    HttpBackend,
    TransportSettings,
    UpstreamError,
    adrain,
    checked_base_url,
    settings_from_env,
)

# ``json.loads`` of a str without leading or trailing whitespace, without the checks and
# the calls around its scanner: the value at 0 and where it ends (StopIteration: none)
_SCAN = json.JSONDecoder().scan_once
_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace
FINISH: dict[str | None, StopReason] = {"length": "max_tokens", "stop": "end_turn"}


def chat_body(
    request: EngineRequest, model: str, max_tokens: int, stop: Sequence[str], stream: bool
) -> dict[str, Any]:
    """The Chat Completions body of a request (its sampling parameters as they were sent)."""
    body: dict[str, Any] = {
        "model": model,
        "messages": chat_messages(request),
        "max_tokens": max_tokens,
        "stream": stream,
    }
    if request.temperature is not None:
        body["temperature"] = request.temperature
    if request.top_p is not None:
        body["top_p"] = request.top_p
    for name, value in request.sampling:
        body[name] = value
    if stop:
        body["stop"] = list(stop)
    if stream:
        body["stream_options"] = {"include_usage": True}
    return body


def stop_info(text: str, finish: str | None, stop: Sequence[str]) -> tuple[StopReason, str | None]:
    """Anthropic-style stop reason of an OpenAI finish (``stop`` does not say which
    sequence matched, so it reads as ``end_turn``)."""
    return FINISH.get(finish, "end_turn"), None


def stream_error(data: dict[str, Any]) -> UpstreamError:
    """The error an upstream put in its stream (``{"error": {...}}``)."""
    error = data.get("error")
    message = error.get("message") if isinstance(error, dict) else error
    return UpstreamError(f"the upstream stream failed: {message or error}")


def completion_of(answer: Any, stop: Sequence[str]) -> Completion:
    """The ``Completion`` of a whole Chat Completions answer (every choice, its usage)."""
    try:
        choices = sorted(answer["choices"], key=lambda c: int(c.get("index") or 0))
        texts = [(c["message"].get("content") or "", c.get("finish_reason")) for c in choices]
        text, finish = texts[0]
        usage = answer.get("usage") or {}
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
        raise UpstreamError("the upstream answer has no choices[0].message") from exc
    reason, seq = stop_info(text, finish, stop)
    return Completion(
        text,
        stop_reason=reason,
        stop_sequence=seq,
        input_tokens=int(usage.get("prompt_tokens") or 0),
        output_tokens=int(usage.get("completion_tokens") or 0),
        choices=tuple(Choice(t, stop_info(t, f, stop)[0]) for t, f in texts[1:]),
    )


class ChunkReader:
    """The text deltas of a Chat Completions event stream, and its ``Completion`` at the end."""

    def __init__(self, stop: Sequence[str]) -> None:
        self.stop = stop
        self.texts: dict[int, list[str]] = {}
        self.finishes: dict[int, str | None] = {}
        self.usage: dict[str, Any] = {}
        self.done = False

    def feed(self, data: Any) -> list[str | ChoiceDelta]:
        """The deltas of one event's data."""
        if data is DONE:
            self.done = True
            return []
        if not isinstance(data, dict):
            return []
        if data.get("error"):
            raise stream_error(data)
        self.usage = data.get("usage") or self.usage
        out: list[str | ChoiceDelta] = []
        for choice in data.get("choices") or []:
            index = int(choice.get("index") or 0)
            delta = (choice.get("delta") or {}).get("content")
            if delta:
                self.texts.setdefault(index, []).append(delta)
                out.append(delta if index == 0 else ChoiceDelta(index, delta))
            if choice.get("finish_reason"):
                self.finishes[index] = choice["finish_reason"]
        return out

    def completion(self) -> Completion:
        """The ``Completion``; UpstreamError when the stream ended before it finished."""
        if not self.done and not self.finishes:
            raise UpstreamError(
                "the upstream stream ended before it finished (no finish_reason, no [DONE])"
            )
        text = "".join(self.texts.get(0, ()))
        reason, seq = stop_info(text, self.finishes.get(0), self.stop)
        others = sorted(i for i in {*self.texts, *self.finishes} if i > 0)
        return Completion(
            text,
            stop_reason=reason,
            stop_sequence=seq,
            input_tokens=int(self.usage.get("prompt_tokens") or 0),
            output_tokens=int(self.usage.get("completion_tokens") or 0),
            choices=tuple(
                Choice("".join(self.texts.get(i, ())), FINISH.get(self.finishes.get(i), "end_turn"))
                for i in others
            ),
        )


SHAPES_LEARNED = 3  # shapes a stream's reader learns at most (each costs a decode)
PROBE = '"\\u0000zl"'  # a JSON string put in a shape's place of the text, to check it
PROBED = "\x00zl"


class Shape:
    """The bytes of a text delta event around its text, learned from one event of a stream:
    an event of the same bytes but for another JSON string in that place is the same event
    with that text (JSON is read token by token: a string token in the place of another
    leaves every other value where it was), so that its text is all that is decoded.

    Learned only from an event of one choice whose ``delta.content`` is a string, without an
    error, and only where putting another string in the text's place (``PROBE``) decodes
    to that string as ``choices[0].delta.content``: the place is the token that value is
    read from, the last of duplicate keys included."""

    __slots__ = ("cut", "finish", "index", "prefix", "suffix", "usage")

    def __init__(self, prefix: str, suffix: str, event: dict[str, Any]) -> None:
        self.prefix, self.suffix = prefix, suffix
        self.cut = len(suffix)
        choice = event["choices"][0]
        self.index = int(choice.get("index") or 0)  # as ChunkReader.feed reads them
        self.finish = choice.get("finish_reason")
        self.usage = event.get("usage")

    @classmethod
    def of(cls, payload: str, event: Any) -> Shape | None:
        """The shape of a decoded event's data, or None when it has none."""
        if not isinstance(event, dict) or event.get("error"):
            return None
        choices = event.get("choices")
        if not isinstance(choices, list) or len(choices) != 1 or not isinstance(choices[0], dict):
            return None
        delta = choices[0].get("delta")
        if not isinstance(delta, dict) or not isinstance(delta.get("content"), str):
            return None
        at = payload.rfind('"content"')
        if at < 0:
            return None
        at = _SPACE.match(payload, at + 9).end()
        if payload[at : at + 1] != ":":
            return None
        at = _SPACE.match(payload, at + 1).end()
        if payload[at : at + 1] != '"':
            return None
        try:
            text, end = scanstring(payload, at + 1)
            probe = payload[:at] + PROBE + payload[end:]
            probed, probe_end = _SCAN(probe, 0)
            if text != delta["content"] or probe_end != len(probe):
                return None
            if probed["choices"][0]["delta"]["content"] != PROBED:
                return None
        except (ValueError, StopIteration, LookupError, TypeError):
            return None
        return cls(payload[:at], payload[end:], event)

    def text_of(self, payload: str) -> str | None:
        """The text of an event of this shape; None for another event."""
        start = len(self.prefix)
        if (
            len(payload) < start + 2 + self.cut
            or payload[start] != '"'
            or not payload.startswith(self.prefix)
            or not payload.endswith(self.suffix)
        ):
            return None
        try:
            text, end = scanstring(payload, start + 1)
        except ValueError:
            return None
        return text if end == len(payload) - self.cut else None

    def feed(self, reader: ChunkReader, text: str) -> list[str | ChoiceDelta]:
        """``reader.feed`` of the event of this shape with ``text``."""
        if self.usage:
            reader.usage = self.usage
        out: list[str | ChoiceDelta] = []
        index = self.index
        if text:
            reader.texts.setdefault(index, []).append(text)
            out.append(text if index == 0 else ChoiceDelta(index, text))
        if self.finish:
            reader.finishes[index] = self.finish
        return out


class StreamReader:
    """An upstream's Chat Completions event stream read a read at a time: ``feed`` takes the
    body as it comes off the network and gives the items (text deltas, ``ChoiceDelta``) of
    every event the piece completes, in one pass, as ``UpstreamBackend.astream`` gives them
    one by one (``EventParser`` for the lines, then ``ChunkReader``): the lines of a piece
    split as ``EventParser.feed_bytes`` splits them (a line cut between pieces kept for the
    next), each ``data:`` line's data decoded as ``EventParser.feed`` decodes it (its errors
    in its words), without a generator or a call per line; event names, which ``astream``
    does not use, are not kept.

    What ``astream`` stops at, it stops at: ``[DONE]`` (``done``; what follows is not read),
    the body's end (``feed(b"")``: ``ended``), and an error, bad data or an error event, where
    it stands in the stream: when items came before it in the same piece, ``feed`` gives
    those and the next call raises it (every call after an error raises it again), so the
    items and the error are the same however the upstream's bytes were split into reads.
    ``completion`` is ``ChunkReader``'s, once the stream is done or ended."""

    def __init__(self, source: str, stop: Sequence[str]) -> None:
        self.source = source
        self.reader = ChunkReader(stop)
        self.rest = b""
        self.ended = False
        self.error: Exception | None = None
        self.shape: Shape | None = None
        self.learning = SHAPES_LEARNED

    @property
    def done(self) -> bool:
        """True once ``[DONE]`` was read."""
        return self.reader.done

    def feed(self, chunk: bytes) -> list[str | ChoiceDelta]:
        """The items of the events ``chunk`` completes (``b""``: the body ended)."""
        if self.error is not None:
            raise self.error
        data = self.rest + chunk if self.rest else chunk
        lines = data.splitlines(keepends=True)
        if chunk and lines and lines[-1][-1:] not in (b"\n", b"\r"):
            self.rest = lines.pop()
        else:
            self.rest = b""
        if not chunk:
            self.ended = True
        out: list[str | ChoiceDelta] = []
        reader = self.reader
        try:
            for line in lines:
                if not line.startswith(b"data:"):
                    continue
                payload = line[5:].decode("utf-8", "replace").strip()
                if payload == "[DONE]":
                    reader.feed(DONE)
                    break
                shape = self.shape
                if shape is not None and (text := shape.text_of(payload)) is not None:
                    out += shape.feed(reader, text)
                    continue
                try:
                    event, end = _SCAN(payload, 0)
                    if end != len(payload):
                        raise ValueError("extra data")
                except (ValueError, StopIteration) as exc:
                    raise UpstreamError(
                        f"the event stream of {self.source} has bad data: {payload[:80]}"
                    ) from exc
                out += reader.feed(event)
                if self.learning and (learned := Shape.of(payload, event)) is not None:
                    self.shape, self.learning = learned, self.learning - 1
        except Exception as exc:  # bad data, an error event: raised where it stands
            self.error = exc
            if not out:
                raise
        return out

    def completion(self) -> Completion:
        """The stream's ``Completion`` (``ChunkReader.completion``); the stream's error when
        it broke, UpstreamError when it ended before it finished."""
        if self.error is not None:
            raise self.error
        return self.reader.completion()


async def read_items(reader: StreamReader, chunks: AsyncIterator[bytes]) -> list[str | ChoiceDelta]:
    """The items of the next read of ``chunks`` (at the body's end, of ``feed(b"")``)."""
    piece = await anext(chunks, None)
    while piece == b"":
        piece = await anext(chunks, None)
    return reader.feed(b"" if piece is None else piece)


async def first_items(
    reader: StreamReader, chunks: AsyncIterator[bytes]
) -> list[str | ChoiceDelta]:
    """The items of the reads of ``chunks`` up to the first that gives any, as ``astream``'s
    first item comes: a stream that finishes without any is read to its end (after
    ``[DONE]``, its body's end: ``adrain``) and its completion checked, so that a stream
    that breaks before its first item raises here (before the client's answer starts)."""
    while True:
        items = await read_items(reader, chunks)
        if items:
            return items
        if reader.done:
            await adrain(chunks)
        if reader.done or reader.ended:
            reader.completion()
            return []


USAGE = re.compile(rb'"usage"\s*:\s*\{')
FINISHED = re.compile(rb'"finish_reason"\s*:\s*"')
MODEL = re.compile(rb'"model"\s*:\s*"(?:[^"\\]|\\.)*"')


# Where an event may say something the relay needs: the end, an error, the usage.
MARKS = (re.compile(re.escape(b"[DONE]")), re.compile(re.escape(b'"error"')), USAGE)
MAX_MARKS = 16  # more marks in one piece than this: every line is looked at


def _marked_lines(data: bytes, lines: list[bytes | None]) -> list[int]:
    """The indices (in order) of the lines of ``data`` (``lines``: its split at line breaks)
    that hold a mark: the only lines ``EventRelay.feed`` must look at, found by scanning the
    bytes once per mark instead of looking at every line. All of them when there are many
    marks (finding the line of each costs a scan of its own)."""
    spots = [m.start() for mark in MARKS for m in mark.finditer(data)]
    if len(spots) > MAX_MARKS:
        return list(range(len(lines)))
    return sorted({data.count(b"\n", 0, spot) for spot in spots})


def _data_line_matches(pattern: re.Pattern[bytes], data: bytes) -> bool:
    """True when ``pattern`` matches inside a ``data:`` line of ``data``."""
    for found in pattern.finditer(data):
        start = data.rfind(b"\n", 0, found.start()) + 1
        if data.startswith(b"data:", start):
            return True
    return False


def _data_of(pieces: list[bytes]) -> list[bytes]:
    """The data of every ``data:`` line of ``pieces``, in order (stripped)."""
    return [line[5:].strip() for piece in pieces for line in piece.split(b"\n")
            if line.startswith(b"data:")]  # fmt: skip


class EventRelay:
    """An upstream's Chat Completions event stream passed on as its bytes, for a client of
    the same API: only the lines that must change are touched, and only the events that
    can say something the relay needs are decoded.

    ``feed`` takes the body as it comes and gives back the bytes to send: every complete
    line as it came, except ``"model"`` (set to the name the client asked for), ``[DONE]``
    (the relay's caller sends its own, after a usage chunk of its own where the upstream
    gave none), and the usage chunk the client did not ask for (zerolayer always asks the
    upstream for usage). An event is decoded only when it may carry an error or the usage
    (the quoted key ``"error"`` or ``"usage": {`` in its bytes: a quote inside a JSON
    string is escaped, so text that merely mentions them does not match); an error event
    raises ``UpstreamError``, as ``ChunkReader`` does, where it stands in the stream: when
    events came before it in the same piece, ``feed`` gives those and the next call raises
    (the answer is the same however the upstream's bytes were split into reads); every
    call after an error raises it again."""

    def __init__(self, model: str, include_usage: bool) -> None:
        # a template for MODEL.sub: a backslash of the JSON string is doubled
        self.named = b'"model": ' + json.dumps(model, ensure_ascii=False).encode()
        self.model = self.named.replace(b"\\", b"\\\\")
        self.include_usage = include_usage
        self.rest = b""
        self.done = False
        self.finished = False
        self.usage: dict[str, Any] | None = None
        self.skip_blank = False
        self._fed: list[bytes] = []  # the lines read, decoded only if no usage comes
        self.error: UpstreamError | None = None  # the stream's error, once met

    def feed(self, chunk: bytes) -> bytes:
        """The bytes to send for ``chunk`` (``b""``: the body ended)."""
        if self.error is not None:
            raise self.error
        data = self.rest + chunk if self.rest else chunk
        if chunk:
            cut = data.rfind(b"\n") + 1
            data, self.rest = data[:cut], data[cut:]
        else:
            self.rest = b""
        if not data:
            return b""
        if b"\r" in data:
            data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        if self.skip_blank and data.startswith(b"\n"):
            data = data[1:]  # the blank line that ended an event dropped in the last piece
        self.skip_blank = False
        lines: list[bytes | None] = list(data.split(b"\n"))
        read = len(lines)  # the lines read: all, or those up to and with an error event
        dropped = False
        gone: list[int] = []  # the dropped lines
        try:
            for i in _marked_lines(data, lines):
                line = lines[i]
                if line is None or not line.startswith(b"data:"):
                    continue
                payload = line[5:].strip()
                if payload == b"[DONE]":
                    self.done = dropped = True
                    lines[i] = None
                    gone.append(i)
                    continue
                may_matter = b'"error"' in payload or USAGE.search(payload)
                try:
                    if may_matter and self._decoded(payload) and not self.include_usage:
                        lines[i], dropped = None, True
                        gone.append(i)
                except UpstreamError as exc:
                    self.error = exc  # every later call raises it too
                    read = i + 1
                    if not any(line and line.startswith(b"data:") for line in lines[:i]):
                        raise
                    lines, dropped = [*lines[:i], b""], True
                    break
        finally:
            self._read(data, read)
        if dropped:
            data = self._joined(lines, gone)
        return self._renamed(data)

    def _renamed(self, data: bytes) -> bytes:
        """``MODEL.sub(self.model, data)``: by a plain replace when every ``"model"`` key of
        ``data`` is followed by the same bytes (an upstream names one model), which then are
        exactly what the pattern matches at each of them."""
        first = MODEL.search(data)
        if first is None:
            return data
        found = first.group()
        if found.count(b'"model"') == 1 and data.count(found) == data.count(b'"model"'):
            return data.replace(found, self.named)
        return MODEL.sub(self.model, data)

    def _read(self, data: bytes, read: int) -> None:
        """Note the first ``read`` lines of ``data`` as read: their events' data (decoded
        only if no usage comes), and whether one of them finished a choice (an error event
        among them is the last, and does not count)."""
        if read <= data.count(b"\n"):
            data = b"\n".join(data.split(b"\n")[:read])
        self._fed.append(data)
        if not self.finished:
            checked = data if self.error is None else data[: data.rfind(b"\n") + 1]
            self.finished = _data_line_matches(FINISHED, checked)

    def _joined(self, lines: list[bytes | None], gone: list[int]) -> bytes:
        """The lines kept: all but the dropped ones (``gone``, in order, None in ``lines``)
        and the blank line that ended the event of each run of them, which may be in the
        next piece (``skip_blank``). The last item is what follows the last line break:
        never a blank line. Only the dropped lines are looked at; the kept ones are copied
        in slices."""
        last = len(lines) - 1
        removed: list[int] = []
        skip = False
        for k, i in enumerate(gone):
            removed.append(i)
            after = i + 1
            if k + 1 < len(gone) and gone[k + 1] == after:
                continue  # a run of dropped lines: the blank line after the run goes
            if after < last and lines[after] == b"":
                removed.append(after)
                skip = False
            else:
                skip = after > last or (after == last and lines[last] == b"")
        self.skip_blank = skip
        kept: list[bytes | None] = []
        start = 0
        for i in removed:
            kept += lines[start:i]
            start = i + 1
        kept += lines[start:]
        return b"\n".join(kept)  # type: ignore[arg-type]

    def _decoded(self, payload: bytes) -> bool:
        """Read an event that may hold an error or the usage; True for a usage-only chunk."""
        try:
            event = json.loads(payload)
        except ValueError as exc:
            raise UpstreamError(
                f"the upstream's event stream has bad data: {payload[:80]!r}"
            ) from exc
        if not isinstance(event, dict):
            return False
        if event.get("error"):
            raise stream_error(event)
        if isinstance(event.get("usage"), dict):
            self.usage = event["usage"]
            return not event.get("choices")
        return False

    def check_end(self) -> None:
        """UpstreamError when the stream ended before it finished (as ``ChunkReader``)."""
        if not self.done and not self.finished:
            raise UpstreamError(
                "the upstream stream ended before it finished (no finish_reason, no [DONE])"
            )

    def texts(self) -> dict[int, str]:
        """Each choice's text, decoded from every event (only where the usage is missing)."""
        reader = ChunkReader(())
        for payload in _data_of(self._fed):
            if payload != b"[DONE]":
                try:
                    reader.feed(json.loads(payload))
                except (ValueError, UpstreamError):
                    continue
        return {i: "".join(parts) for i, parts in reader.texts.items()}


class UpstreamBackend(HttpBackend):
    """A ``FallbackBackend`` that forwards to an OpenAI-compatible server."""

    name = "upstream"
    generates_choices = True  # ``n`` is forwarded: the upstream generates every choice

    def __init__(
        self,
        base_url: str,
        *,
        model: str = "default",
        api_key: str | None = None,
        settings: TransportSettings | None = None,
    ) -> None:
        super().__init__(base_url, model=model, api_key=api_key, settings=settings)

    @classmethod
    def from_spec(cls, argument: str, env: Mapping[str, str] | None = None) -> UpstreamBackend:
        """The backend of ``ZEROLAYER_FALLBACK=upstream:URL``."""
        env = os.environ if env is None else env
        url = checked_base_url(
            argument, "upstream", hint="ZEROLAYER_FALLBACK=upstream:http://127.0.0.1:8001/v1"
        )
        return cls(
            url,
            model=env.get("ZEROLAYER_UPSTREAM_MODEL") or "default",
            api_key=env.get("ZEROLAYER_UPSTREAM_API_KEY") or None,
            settings=settings_from_env(env, "ZEROLAYER_UPSTREAM", "upstream"),
        )

    def check_options(self, request: EngineRequest) -> None:
        """Every sampling parameter is forwarded: the upstream says what it cannot honour."""

    def _headers(self) -> dict[str, str]:
        return {"authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def generate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        """The whole answer of the upstream."""
        body = chat_body(request, self.model, max_tokens, stop, stream=False)
        return completion_of(
            self.transport.post_json("/chat/completions", body, self._headers()), stop
        )

    async def agenerate(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Completion:
        """``generate`` on the event loop."""
        body = chat_body(request, self.model, max_tokens, stop, stream=False)
        answer = await self.transport.apost_json("/chat/completions", body, self._headers())
        return completion_of(answer, stop)

    def stream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> Iterator[str | ChoiceDelta | Completion]:
        """Text deltas of the upstream's event stream, then the ``Completion``."""
        body = chat_body(request, self.model, max_tokens, stop, stream=True)
        reader = ChunkReader(stop)
        for _, data in self.transport.post_events("/chat/completions", body, self._headers()):
            yield from reader.feed(data)
        yield reader.completion()

    def stream_reader(self, stop: Sequence[str] = ()) -> StreamReader:
        """A reader of the event stream ``arelay`` gives (``astream``'s items, a read at a
        time)."""
        return StreamReader(self.transport.base_url, stop)

    def arelay(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> AsyncIterator[bytes]:
        """The upstream's event stream, unparsed (``EventRelay`` reads what it needs)."""
        body = chat_body(request, self.model, max_tokens, stop, stream=True)
        return self.transport.apost_stream("/chat/completions", body, self._headers())

    async def astream(
        self, request: EngineRequest, *, max_tokens: int, stop: Sequence[str] = ()
    ) -> AsyncIterator[str | ChoiceDelta | Completion]:
        """``stream`` on the event loop."""
        body = chat_body(request, self.model, max_tokens, stop, stream=True)
        reader = ChunkReader(stop)
        events = self.transport.apost_events("/chat/completions", body, self._headers())
        async for _, data in events:
            for item in reader.feed(data):
                yield item
        yield reader.completion()
