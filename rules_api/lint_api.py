"""``POST /v1/lint``: the instruction linter over HTTP (see docs/plugins/… and core/lint.py)."""

from __future__ import annotations

from functools import partial
from typing import Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from zerolayer.core.lint import Sampling, lint
from zerolayer.rules_api.api_errors import ApiError
from zerolayer.rules_api.service import AnswerService, EngineBusy, OverBudget


class LintBody(BaseModel):
    """A prompt to lint, with the sampling parameters it would be sent with."""

    model_config = ConfigDict(strict=True)

    prompt: str = Field(description="the prompt: instruction, with or without its payload")
    payload: str | None = Field(None, description="the payload, when given apart")
    temperature: float | None = Field(0.0, description="null: not sent (the API default)")
    top_p: float | None = None


def lint_router(service: AnswerService) -> APIRouter:
    """The linter route; none (404) when the service's engine cannot explain plans (a test
    double)."""
    router = APIRouter(tags=["lint"])
    engine = service.engine
    if not all(hasattr(engine, a) for a in ("explain", "run", "registry")):
        return router

    @router.post("/v1/lint", summary="Would this prompt be answered deterministically?")
    async def lint_prompt(body: LintBody) -> dict[str, Any]:
        sampling = Sampling(temperature=body.temperature, top_p=body.top_p)
        run = partial(lint, engine, body.prompt, payload=body.payload, sampling=sampling)
        try:
            report = await service.in_budget("linting the prompt", run)
        except OverBudget as exc:
            raise ApiError(400, str(exc), code=exc.code) from None
        except EngineBusy as exc:
            raise service.busy(exc) from None
        return report.to_dict()

    return router
