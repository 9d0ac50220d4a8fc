"""The OpenAI Chat Completions API: POST /v1/chat/completions (with streaming), GET /v1/models.

Streams are ``chat.completion.chunk`` events ending with ``data: [DONE]``; with
``stream_options.include_usage`` a last chunk with empty ``choices`` carries the usage.
GET /v1/models answers in Anthropic's shape when the request carries ``anthropic-version``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from functools import partial
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from zerolayer.core.fallback import ChoiceDelta
from zerolayer.core.messages import Route
from zerolayer.core.neural.transport import DRAIN_CHUNKS, DRAIN_S
from zerolayer.core.neural.upstream import EventRelay
from zerolayer.rules_api.answers import (
    OPENAI_FINISH,
    Finish,
    answer_deltas,
    broken,
    call_fallback,
    fallback_completion,
    open_fallback_stream,
    record,
    shape_deterministic,
)
from zerolayer.rules_api.anthropic_api import (
    SSE_HEADERS,
    SyntaxHeader,
    answer,
    disabled,
    syntax_version,
)
from zerolayer.rules_api.api_errors import OPENAI_OF_KIND, UnencodableText, invalid_text
from zerolayer.rules_api.encoding import SafeJSONResponse as JSONResponse
from zerolayer.rules_api.encoding import dump_json
from zerolayer.rules_api.fast_path import CREATED, ID, Template, slot_values
from zerolayer.rules_api.schemas import ChatCompletionRequest
from zerolayer.rules_api.service import AnswerService, Decision, StreamStart, input_tokens
from zerolayer.rules_api.streaming import EventStreamResponse, RelayResponse
from zerolayer.rules_api.translate import Prepared, from_openai
from zerolayer.rules_api.usage import count_tokens

log = logging.getLogger("zerolayer.rules_api")

API = "openai"
CREATED_AT = "2025-01-01T00:00:00Z"


def choice_texts(text: str, finish: Finish, n: int) -> list[tuple[str, str]]:
    """(text, stop reason) of each choice: those the backend generated, else ``n`` times
    the one answer (deterministic, or greedy: the answer ``n`` runs give)."""
    if finish.choices:
        return [(text, finish.stop_reason), *finish.choices]
    return [(text, finish.stop_reason)] * n


def completion_body(
    prepared: Prepared, cid: str, created: int, text: str, finish: Finish, n: int
) -> dict[str, Any]:
    """A complete ``chat.completion`` object (``n`` choices)."""
    return {
        "id": cid,
        "object": "chat.completion",
        "created": created,
        "model": prepared.model,
        "choices": [
            {
                "index": i,
                "message": {"role": "assistant", "content": t, "refusal": None},
                "logprobs": None,
                "finish_reason": OPENAI_FINISH.get(reason, "stop"),
            }
            for i, (t, reason) in enumerate(choice_texts(text, finish, n))
        ],
        "usage": usage(finish, n),
        "system_fingerprint": None,
    }


def completion_template(prepared: Prepared, text: str, finish: Finish, n: int) -> Template:
    """``completion_body`` as bytes with the id and ``created`` left as slots."""
    rest = completion_body(prepared, "", 0, text, finish, n)
    for name in ("id", "object", "created"):
        del rest[name]
    return Template(
        (
            b'{"id": "chatcmpl-',
            b'", "object": "chat.completion", "created": ',
            b", " + dump_json(rest)[1:],
        ),
        (ID, CREATED),
    )


def usage(finish: Finish, n: int = 1) -> dict[str, int]:
    """OpenAI usage: the backend's own count of what it generated, or for a deterministic
    answer its count times the ``n`` identical choices."""
    out = finish.output_tokens * n if finish.per_choice else finish.output_tokens
    return {
        "prompt_tokens": finish.input_tokens,
        "completion_tokens": out,
        "total_tokens": finish.input_tokens + out,
    }


def chunk(cid: str, created: int, model: str, choices: list[dict[str, Any]], **extra: Any) -> bytes:
    """One ``chat.completion.chunk`` server-sent event."""
    data = {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": created,
        "model": model,
        "system_fingerprint": None,
        "choices": choices,
        **extra,
    }
    return b"data: " + dump_json(data) + b"\n\n"


async def chunk_stream(
    prepared: Prepared,
    cid: str,
    created: int,
    n: int,
    include_usage: bool,
    deltas: AsyncIterator[str | ChoiceDelta | Finish],
    replicate: bool = True,
) -> AsyncIterator[bytes]:
    """The chunk sequence of a streamed chat completion, ``[DONE]`` last; a stream that
    breaks ends with an error chunk (which the SDKs raise) before ``[DONE]``.

    ``replicate``: each text delta is every choice's (one answer for all ``n``); else text
    deltas are choice 0's and ``ChoiceDelta`` items the others'."""
    model = prepared.model
    first = {"role": "assistant", "content": "", "refusal": None}
    yield chunk(cid, created, model, [_choice(i, first) for i in range(n)])
    copies = range(n) if replicate else range(1)
    async for item in deltas:
        if isinstance(item, ChoiceDelta):
            yield chunk(cid, created, model, [_choice(item.index, {"content": item.text})])
            continue
        if isinstance(item, str):
            yield chunk(cid, created, model, [_choice(i, {"content": item}) for i in copies])
            continue
        if item.error is not None:
            yield error_chunk(item.error, item.error_kind)
            break
        ends = [(i, OPENAI_FINISH.get(r, "stop")) for i, (_, r) in
                enumerate(choice_texts("", item, n))]  # fmt: skip
        yield chunk(cid, created, model, [_choice(i, {}, reason) for i, reason in ends])
        if include_usage:
            yield chunk(cid, created, model, [], usage=usage(item, n))
    yield b"data: [DONE]\n\n"


def error_chunk(message: str, kind: str) -> bytes:
    """The error chunk that ends a broken stream (the SDKs raise it)."""
    otype, code = OPENAI_OF_KIND.get(kind, ("server_error", None))
    error = {"message": message, "type": otype, "param": None, "code": code}
    return b"data: " + dump_json({"error": error}) + b"\n\n"


async def relayed_stream(
    service: AnswerService,
    prepared: Prepared,
    decision: Decision,
    started: float,
    relay: EventRelay,
    first: bytes,
    chunks: AsyncIterator[bytes],
    ids: tuple[str, int],
) -> AsyncIterator[tuple[bytes, bool]]:
    """An OpenAI-compatible upstream's stream passed on as its bytes (``EventRelay``), then
    ``[DONE]``: a usage chunk of zerolayer's own count before it only when the client asked
    for usage and the upstream gave none; a stream that breaks ends with the error chunk,
    as ``chunk_stream``'s. Items are (bytes, last): the last piece carries the end of the
    answer with it (a stream whose upstream answer came in one read is one piece). The
    upstream's body is read to its end after that, and the request's metrics recorded."""
    failed, spent = True, 0
    try:
        pending = first  # made and not yet given
        try:
            if not relay.done:
                if pending:
                    yield pending, False
                    pending = b""
                async for piece in chunks:
                    out = relay.feed(piece)
                    if relay.done:
                        pending = out
                        break
                    if out:
                        yield out, False
                else:
                    pending = relay.feed(b"")
                    relay.check_end()
        except Exception as exc:
            log.error("fallback stream failed: %r", exc)
            message = f"the neural fallback failed while streaming: {broken(exc)}"
            error = error_chunk(message, getattr(exc, "kind", "api_error"))
            await chunks.aclose()
            yield pending + error + b"data: [DONE]\n\n", True
            return
        end = b"data: [DONE]\n\n"
        if relay.usage is not None:
            spent = int(relay.usage.get("completion_tokens") or 0)
        else:
            spent = sum(count_tokens(text) for text in relay.texts().values())
            if relay.include_usage:
                prompt = input_tokens(prepared.request)
                own = {"prompt_tokens": prompt, "completion_tokens": spent,
                       "total_tokens": prompt + spent}  # fmt: skip
                end = chunk(*ids, prepared.model, [], usage=own) + end
        failed = False
        yield pending + end, True
        await drain(chunks)  # the body's end: the connection goes back to the pool
    finally:
        await chunks.aclose()  # a no-op once read to the end
        record(service, API, decision, started, failed=failed, model_tokens=spent)


async def drain(chunks: AsyncIterator[bytes]) -> None:
    """Read ``chunks`` on to their end: at most ``DRAIN_CHUNKS`` pieces for ``DRAIN_S``
    seconds (an asyncio timeout: half the CPU of an anyio cancel scope)."""
    timeout = asyncio.timeout(DRAIN_S)
    try:
        async with timeout:
            for _ in range(DRAIN_CHUNKS):
                if await anext(chunks, None) is None:
                    return
    except TimeoutError:
        if not timeout.expired():
            raise


def _choice(index: int, delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    return {"index": index, "delta": delta, "logprobs": None, "finish_reason": finish}


def model_list(model_id: str, anthropic: bool) -> dict[str, Any]:
    """The one model zerolayer names (any model id is accepted in requests)."""
    if anthropic:
        entry = {
            "type": "model",
            "id": model_id,
            "display_name": model_id,
            "created_at": CREATED_AT,
        }
        return {"data": [entry], "has_more": False, "first_id": model_id, "last_id": model_id}
    return {
        "object": "list",
        "data": [{"id": model_id, "object": "model", "created": 0, "owned_by": "zerolayer"}],
    }


async def answer_chat_completion(
    service: AnswerService, body: ChatCompletionRequest, request: Request, syntax: str | None
) -> Response:
    """The answer to POST /v1/chat/completions (the route's, and the lean path's)."""
    version = syntax_version(syntax)
    try:
        return await _create_chat_completion(service, body, request, version)
    except UnencodableText as exc:  # a field of the request holds a lone surrogate
        raise invalid_text(exc, body) from None


async def _create_chat_completion(
    service: AnswerService, body: ChatCompletionRequest, request: Request, version: str | None
) -> Response:
    prepared = from_openai(body, disabled=disabled(request), syntax=version)
    decision, started = await answer(service, prepared, API)
    headers = service.headers(decision)
    ids = slot_values()
    cid = "chatcmpl-" + ids[ID].decode()
    created = int(ids[CREATED])
    start: StreamStart | None = None
    if decision.route is Route.FALLBACK:
        if prepared.stream:
            include = bool(body.stream_options and body.stream_options.include_usage)
            relay = EventRelay(prepared.model, include)
            opened = await call_fallback(
                partial(service.aopen_relay, relay=relay), service, API, prepared, decision,
                started,
            )  # fmt: skip
            if opened is not None:
                stream = relayed_stream(service, prepared, decision, started, relay,
                                        *opened, (cid, created))  # fmt: skip
                return RelayResponse(stream, {**headers, **SSE_HEADERS}, watch=True)
            start = await open_fallback_stream(service, API, prepared, decision, started)
        else:
            text, finish = await fallback_completion(service, API, prepared, decision, started)
            payload = completion_body(prepared, cid, created, text, finish, body.n or 1)
            return JSONResponse(payload, headers=headers)
    if prepared.stream:
        include = bool(body.stream_options and body.stream_options.include_usage)
        deltas = answer_deltas(service, API, prepared, decision, start, started)
        return EventStreamResponse(
            chunk_stream(
                prepared,
                cid,
                created,
                body.n or 1,
                include,
                deltas,
                replicate=start is None or start.replicate,
            ),
            headers={**headers, **SSE_HEADERS},
        )
    shaped, finish = shape_deterministic(prepared, decision)
    recorder = record(
        service, API, decision, started, failed=False, saved_tokens=finish.output_tokens
    )
    template = completion_template(prepared, shaped.text, finish, body.n or 1)
    if decision.cache_hit and service.fast is not None:
        service.fast.remember(
            request.scope, template, headers, request_id=False, recorder=recorder,
            saved_tokens=finish.output_tokens,
        )  # fmt: skip
    return Response(template.render(ids), media_type="application/json", headers=headers)


def openai_router(service: AnswerService) -> APIRouter:
    """The routes of the OpenAI Chat Completions API and the model list."""
    router = APIRouter(tags=["openai"])

    @router.post("/v1/chat/completions", summary="Create a chat completion (OpenAI)")
    async def create_chat_completion(
        body: ChatCompletionRequest, request: Request, syntax: SyntaxHeader = None
    ) -> Response:
        return await answer_chat_completion(service, body, request, syntax)

    @router.get("/v1/models", summary="List models (OpenAI shape; Anthropic shape on request)")
    async def list_models(request: Request) -> dict[str, Any]:
        return model_list(service.settings.model_id, "anthropic-version" in request.headers)

    @router.get("/v1/models/{model_id}", summary="Retrieve a model (any id is accepted)")
    async def get_model(model_id: str, request: Request) -> dict[str, Any]:
        if "anthropic-version" in request.headers:
            return {"type": "model", "id": model_id, "display_name": model_id,
                    "created_at": CREATED_AT}  # fmt: skip
        return {"id": model_id, "object": "model", "created": 0, "owned_by": "zerolayer"}

    return router
