"""The Anthropic Messages API: POST /v1/messages (with streaming), /v1/messages/count_tokens.

Answers have Anthropic's shapes; streams follow Anthropic's event sequence: message_start,
content_block_start, ping, content_block_delta (text_delta) …, content_block_stop,
message_delta (stop_reason, usage), message_stop.

The caller's API key (``x-api-key``, else ``Authorization: Bearer``) is made known to the
Anthropic pass-through backend for the request (``caller_api_key``), so a request that falls
back reaches Anthropic with the caller's own key. A zerolayer key (``zlk_…``, a tenant's key
for the rules service) is never forwarded: the backend then uses its configured key.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Request
from fastapi.responses import Response

from zerolayer.core.blocks.syntax import SyntaxVersionError, check_version, supported
from zerolayer.core.fallback import ChoiceDelta
from zerolayer.core.messages import Route
from zerolayer.core.neural.anthropic import caller_api_key
from zerolayer.core.neural.transport import adrain
from zerolayer.core.neural.upstream import StreamReader, read_items
from zerolayer.rules_api.answers import (
    Finish,
    answer_deltas,
    broken,
    call_fallback,
    completion_finish,
    fallback_completion,
    open_fallback_stream,
    record,
    shape_deterministic,
)
from zerolayer.rules_api.api_errors import ApiError, UnencodableText, invalid_text
from zerolayer.rules_api.credentials import upstream_key
from zerolayer.rules_api.encoding import SafeJSONResponse as JSONResponse
from zerolayer.rules_api.encoding import dump_json, dump_str, dump_value
from zerolayer.rules_api.fast_path import ID, Template, new_hex, slot_values
from zerolayer.rules_api.headers import CONTROL, SYNTAX
from zerolayer.rules_api.schemas import CountTokensRequest, MessagesRequest
from zerolayer.rules_api.service import AnswerService, Decision, StreamStart, input_tokens
from zerolayer.rules_api.streaming import EventStreamResponse, RelayResponse
from zerolayer.rules_api.translate import Prepared, from_anthropic

log = logging.getLogger("zerolayer.rules_api")

API = "anthropic"
SSE_HEADERS = {"cache-control": "no-cache"}


def disabled(request: Request) -> bool:
    """True when the request header ``x-zero-layer: disable`` asks for the neural fallback."""
    return request.headers.get(CONTROL, "").strip().lower() == "disable"


SyntaxHeader = Annotated[
    str | None,
    Header(
        alias=SYNTAX,
        description=(
            "The block syntax version the request is written for: "
            f"{supported()}. Without it, v1 blocks are read and rewritten as v2 blocks "
            "(with a deprecation warning); with v2, v1 markers are text. docs/instructions.md"
        ),
    ),
]


def syntax_version(value: str | None) -> str | None:
    """The declared block syntax version (``None``: none); ApiError 400 naming the supported
    versions when it is unknown."""
    try:
        return check_version(value)
    except SyntaxVersionError as exc:
        raise ApiError(400, str(exc)) from None


def forwarded_key(request: Request) -> str | None:
    """The caller's key to forward upstream: the first presented key (``x-api-key``, else a
    bearer token) that is not a zerolayer key, which belongs to this service and must not
    leave it; None when there is none."""
    return upstream_key(request.headers)


def message_body(prepared: Prepared, msg_id: str, text: str, finish: Finish) -> dict[str, Any]:
    """A complete Anthropic ``message`` object."""
    return {
        "id": msg_id,
        "type": "message",
        "role": "assistant",
        "model": prepared.model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": finish.stop_reason,
        "stop_sequence": finish.stop_sequence,
        "usage": usage(finish.input_tokens, finish.output_tokens),
    }


def message_template(prepared: Prepared, text: str, finish: Finish) -> Template:
    """``message_body`` as bytes with the id left as a slot: ``{"id": "msg_<ID>", …}``."""
    rest = message_body(prepared, "", text, finish)
    del rest["id"]
    return Template((b'{"id": "msg_', b'", ' + dump_json(rest)[1:]), (ID,))


def usage(inp: int, out: int) -> dict[str, int]:
    """Anthropic usage (zerolayer does no prompt caching: those counts are 0)."""
    return {
        "input_tokens": inp,
        "output_tokens": out,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0,
    }


def sse(event: str, data: dict[str, Any]) -> bytes:
    """One server-sent event as Anthropic writes them."""
    return b"event: " + event.encode() + b"\ndata: " + dump_json(data) + b"\n\n"


# The events an answer's text comes between, as ``sse`` writes them, around their values
# (``dump_value`` of each: every other string of them is ASCII, so that a value's JSON is
# the same alone as in its event, ASCII escapes included). ``tests/http`` checks them
# against ``sse`` of the events' objects.
START = (
    b'event: message_start\ndata: {"type": "message_start", "message": {"id": ',
    b', "type": "message", "role": "assistant", "model": ',
    b', "content": [], "stop_reason": null, "stop_sequence": null, "usage": {"input_tokens": ',
    b', "output_tokens": 1, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}}}'
    b'\n\nevent: content_block_start\ndata: {"type": "content_block_start", "index": 0, '
    b'"content_block": {"type": "text", "text": ""}}\n\nevent: ping\ndata: {"type": "ping"}\n\n',
)
DELTA = (
    b'event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, '
    b'"delta": {"type": "text_delta", "text": ',
    b"}}\n\n",
)
FINISH = (
    b'event: content_block_stop\ndata: {"type": "content_block_stop", "index": 0}\n\n'
    b'event: message_delta\ndata: {"type": "message_delta", "delta": {"stop_reason": ',
    b', "stop_sequence": ',
    b'}, "usage": {"input_tokens": ',
    b', "output_tokens": ',
    b'}}\n\nevent: message_stop\ndata: {"type": "message_stop"}\n\n',
)


def filled(parts: tuple[bytes, ...], values: tuple[Any, ...]) -> bytes:
    """The parts of a template with the JSON of a value between each two."""
    out = [parts[0]]
    for value, part in zip(values, parts[1:], strict=True):
        out += (dump_value(value), part)
    return b"".join(out)


def start_events(prepared: Prepared, msg_id: str) -> bytes:
    """The events before the answer's text: ``message_start`` (its ``input_tokens``
    zerolayer's count: it is sent before the model has answered), ``content_block_start``,
    ``ping``."""
    return filled(START, (msg_id, prepared.model, input_tokens(prepared.request)))


def delta_events(items: list[str | ChoiceDelta]) -> list[bytes]:
    """The ``content_block_delta`` events of text deltas (a ``ChoiceDelta``, a further
    choice's text, is not the Messages answer's)."""
    head, tail = DELTA
    return [head + dump_str(item) + tail for item in items if type(item) is str and item]


def finish_events(finish: Finish) -> bytes:
    """The events after the answer's text: ``content_block_stop``, ``message_delta`` (the
    stop reason and the final usage, the upstream's ``input_tokens`` included: the SDKs take
    it as the message's), ``message_stop``."""
    values = (finish.stop_reason, finish.stop_sequence, finish.input_tokens, finish.output_tokens)
    return filled(FINISH, values)


def error_event(message: str, kind: str) -> bytes:
    """The ``error`` event that ends a broken stream."""
    return sse("error", {"type": "error", "error": {"type": kind, "message": message}})


async def event_stream(
    prepared: Prepared, msg_id: str, deltas: AsyncIterator[str | ChoiceDelta | Finish]
) -> AsyncIterator[bytes]:
    """Anthropic's streaming event sequence around the answer's text deltas (``answer_deltas``:
    a deterministic answer, or a fallback's stream read item by item)."""
    yield start_events(prepared, msg_id)
    async for item in deltas:
        if isinstance(item, ChoiceDelta):  # a Messages request asks for one answer
            continue
        if isinstance(item, str):
            yield DELTA[0] + dump_str(item) + DELTA[1]
            continue
        if item.error is not None:
            yield error_event(item.error, item.error_kind)
            return
        yield finish_events(item)


async def read_stream(
    service: AnswerService,
    prepared: Prepared,
    decision: Decision,
    started: float,
    msg_id: str,
    reader: StreamReader,
    first: list[str | ChoiceDelta],
    chunks: AsyncIterator[bytes],
) -> AsyncGenerator[tuple[bytes, bool], None]:
    """``event_stream`` of an OpenAI-compatible upstream's stream, made a read at a time:
    the events of every event of a read (``StreamReader``) translated in one pass and sent
    as one piece, ``(bytes, last)`` for ``RelayResponse``; the same bytes, the same end
    (after ``[DONE]``, the body's end is read before the finish), the same error event where
    the stream breaks, the same metrics as ``answer_deltas``."""
    failed, spent = True, 0
    try:
        out = [start_events(prepared, msg_id), *delta_events(first)]
        try:
            while not (reader.done or reader.ended):
                if out:
                    yield b"".join(out), False
                    out = []
                out += delta_events(await read_items(reader, chunks))
            if reader.done:
                await adrain(chunks)
            finish = completion_finish(prepared, reader.completion())
        except Exception as exc:  # the backend broke mid-stream: end with an error event
            log.error("fallback stream failed: %r", exc)
            message = f"the neural fallback failed while streaming: {broken(exc)}"
            out.append(error_event(message, getattr(exc, "kind", "api_error")))
            yield b"".join(out), True
            return
        out.append(finish_events(finish))
        failed, spent = False, finish.output_tokens
        yield b"".join(out), True
    finally:
        await chunks.aclose()  # a no-op once read to the end
        record(service, API, decision, started, failed=failed, model_tokens=spent)


async def answer(
    service: AnswerService, prepared: Prepared, api: str = API
) -> tuple[Decision, float]:
    """Decide a request and fit its answer to ``max_tokens`` (``AnswerService.fit``); an
    engine ERROR is recorded and raised as its 400 answer."""
    started = time.perf_counter()
    decision = service.fit(prepared, await service.decide_async(prepared))
    if decision.route is Route.ERROR:
        record(service, api, decision, started, failed=True)
        raise service.engine_error(decision)
    return decision, started


async def answer_message(
    service: AnswerService, body: MessagesRequest, request: Request, syntax: str | None
) -> Response:
    """The answer to POST /v1/messages (the route's, and the lean path's)."""
    version = syntax_version(syntax)
    token = caller_api_key.set(forwarded_key(request))
    try:
        return await _create_message(service, body, request, version)
    except UnencodableText as exc:  # a field of the request holds a lone surrogate
        raise invalid_text(exc, body) from None
    finally:  # a stream's fallback has sent its upstream request before this returns
        caller_api_key.reset(token)


async def _create_message(
    service: AnswerService, body: MessagesRequest, request: Request, version: str | None
) -> Response:
    prepared = from_anthropic(body, disabled=disabled(request), syntax=version)
    decision, started = await answer(service, prepared)
    answer_headers = service.headers(decision)
    headers = {**answer_headers, "request-id": "req_" + new_hex().decode()}
    ids = slot_values()
    msg_id = "msg_" + ids[ID].decode()
    start: StreamStart | None = None
    if decision.route is Route.FALLBACK:
        if prepared.stream:
            opened = await call_fallback(
                service.aopen_reader, service, API, prepared, decision, started
            )
            if opened is not None:
                stream = read_stream(service, prepared, decision, started, msg_id, *opened)
                return RelayResponse(stream, {**headers, **SSE_HEADERS}, watch=True)
            start = await open_fallback_stream(service, API, prepared, decision, started)
        else:
            text, finish = await fallback_completion(service, API, prepared, decision, started)
            return JSONResponse(message_body(prepared, msg_id, text, finish), headers=headers)
    if prepared.stream:
        deltas = answer_deltas(service, API, prepared, decision, start, started)
        return EventStreamResponse(
            event_stream(prepared, msg_id, deltas),
            headers={**headers, **SSE_HEADERS},
        )
    shaped, finish = shape_deterministic(prepared, decision)
    recorder = record(
        service, API, decision, started, failed=False, saved_tokens=finish.output_tokens
    )
    template = message_template(prepared, shaped.text, finish)
    if decision.cache_hit and service.fast is not None:
        service.fast.remember(
            request.scope, template, answer_headers, request_id=True, recorder=recorder,
            saved_tokens=finish.output_tokens,
        )  # fmt: skip
    return Response(template.render(ids), media_type="application/json", headers=headers)


def anthropic_router(service: AnswerService) -> APIRouter:
    """The routes of the Anthropic Messages API."""
    router = APIRouter(tags=["anthropic"])

    @router.post("/v1/messages", summary="Create a message (Anthropic Messages API)")
    async def create_message(
        body: MessagesRequest, request: Request, syntax: SyntaxHeader = None
    ) -> Response:
        return await answer_message(service, body, request, syntax)

    @router.post("/v1/messages/count_tokens", summary="Count input tokens (Anthropic)")
    async def count_message_tokens(body: CountTokensRequest) -> dict[str, int]:
        as_messages = MessagesRequest(
            model=body.model, max_tokens=1, messages=body.messages, system=body.system
        )
        return {"input_tokens": input_tokens(from_anthropic(as_messages).request)}

    return router
