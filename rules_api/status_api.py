"""GET /v1/beta/status: the block syntax versions the service reads (see core/blocks/syntax.py)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from zerolayer.core.blocks import syntax


class SyntaxVersionInfo(BaseModel):
    """One block syntax version."""

    version: str = Field(examples=["v2"])
    status: Literal["current", "deprecated", "supported"]
    deprecation_date: str | None = Field(
        description="ISO date since which the version is deprecated; null if it is not"
    )
    sunset_date: str | None = Field(
        description="ISO date after which requests declaring it are refused; null: not scheduled"
    )
    blocks: list[str] = Field(description="the block forms the version reads")


class SyntaxInfo(BaseModel):
    """The block syntax versions and how a request names one."""

    header: str = Field(description="the request header naming the version")
    current: str
    default: str = Field(description="how a request without the header is read")
    versions: list[SyntaxVersionInfo]


class BetaStatus(BaseModel):
    """GET /v1/beta/status."""

    syntax: SyntaxInfo


def status_router() -> APIRouter:
    """The beta status route."""
    router = APIRouter(tags=["service"])

    @router.get(
        "/v1/beta/status",
        summary="Supported block syntax versions, their deprecation dates and the current one",
        response_model=BetaStatus,
    )
    async def beta_status() -> BetaStatus:
        return BetaStatus.model_validate({"syntax": syntax.status()})

    return router
