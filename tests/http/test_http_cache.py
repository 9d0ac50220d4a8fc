"""The response cache: byte-bounded LRU, Redis store against a real redis-server, sharing."""

from __future__ import annotations

import httpx
import pytest

from zerolayer.rules_api import ServiceSettings
from zerolayer.rules_api.cache import (
    CachedAnswer,
    MemoryCache,
    NullCache,
    RedisCache,
    build_cache,
    entry_size,
)
from zerolayer.rules_api.testing import anthropic_body

pytestmark = pytest.mark.slow  # live servers, subprocesses or many generated requests


def test_entry_size_counts_utf8_bytes() -> None:
    answer = CachedAnswer("é中", "p")
    assert entry_size("k", answer) == 1 + 2 + 3 + 1 + 64


def test_memory_cache_evicts_least_recently_used_within_byte_budget() -> None:
    one = CachedAnswer("x" * 100)
    size = entry_size("a", one)
    cache = MemoryCache(max_bytes=size * 3)
    for key in "abc":
        cache.put(key, one)
    assert cache.get("a") == one  # a is now most recently used
    cache.put("d", one)  # over budget: b (least recently used) goes
    assert cache.get("b") is None
    assert {k for k in "acd" if cache.get(k)} == set("acd")
    assert cache.bytes_used == size * 3 <= cache.max_bytes


def test_memory_cache_refuses_entries_larger_than_budget() -> None:
    cache = MemoryCache(max_bytes=100)
    cache.put("k", CachedAnswer("y" * 200))
    assert cache.get("k") is None
    assert cache.bytes_used == 0


def test_memory_cache_replacing_a_key_keeps_the_byte_count_exact() -> None:
    cache = MemoryCache(max_bytes=10_000)
    cache.put("k", CachedAnswer("short"))
    cache.put("k", CachedAnswer("a much longer output"))
    assert len(cache) == 1
    assert cache.bytes_used == entry_size("k", CachedAnswer("a much longer output"))


def test_build_cache_follows_settings(redis_url: str) -> None:
    assert isinstance(build_cache(ServiceSettings()), MemoryCache)
    assert isinstance(build_cache(ServiceSettings(cache_max_bytes=0)), NullCache)
    assert isinstance(build_cache(ServiceSettings(redis_url=redis_url)), RedisCache)


def test_redis_cache_round_trip(redis_url: str) -> None:
    cache = RedisCache(redis_url, prefix="test:rt:")
    answer = CachedAnswer("name: 中文\n", "json.parse | yaml.emit()")
    assert cache.get("k1") is None
    cache.put("k1", answer)
    assert cache.get("k1") == answer
    assert cache.stats()["ok"] is True


def test_redis_cache_ttl_is_set(redis_url: str) -> None:
    import redis

    cache = RedisCache(redis_url, ttl_s=60, prefix="test:ttl:")
    cache.put("k", CachedAnswer("v"))
    ttl = redis.Redis.from_url(redis_url).ttl("test:ttl:k")
    assert 0 < ttl <= 60


def test_redis_cache_ignores_foreign_values(redis_url: str) -> None:
    import redis

    redis.Redis.from_url(redis_url).set("test:foreign:k", b"not json")
    assert RedisCache(redis_url, prefix="test:foreign:").get("k") is None


def test_redis_down_is_a_miss_not_a_failure() -> None:
    cache = RedisCache("redis://127.0.0.1:1/0", timeout_s=0.2, retry_s=0)
    cache.put("k", CachedAnswer("v"))
    assert cache.get("k") is None
    assert cache.errors == {"get": 1, "put": 1}
    assert cache.stats()["ok"] is False


def test_after_a_redis_error_redis_is_left_alone_for_a_while() -> None:
    cache = RedisCache("redis://127.0.0.1:1/0", timeout_s=0.2, retry_s=60)
    cache.put("k", CachedAnswer("v"))
    assert not cache.up
    for _ in range(5):
        assert cache.get("k") is None
    assert cache.errors == {"get": 0, "put": 1}  # asked once, not on every request


def test_the_near_tier_answers_while_redis_is_down() -> None:
    cache = RedisCache("redis://127.0.0.1:1/0", timeout_s=0.2, near_max_bytes=1 << 20)
    cache.put("k", CachedAnswer("v", "plan"))
    assert cache.get("k") == CachedAnswer("v", "plan")
    assert cache.stats()["near"]["entries"] == 1


def test_a_redis_hit_is_kept_in_the_near_tier(redis_url: str) -> None:
    writer = RedisCache(redis_url, prefix="test:near:")
    writer.put("k", CachedAnswer("from another worker"))
    reader = RedisCache(redis_url, prefix="test:near:", near_max_bytes=1 << 20)
    assert reader.get("k") == CachedAnswer("from another worker")
    assert reader.near is not None and reader.near.get("k") == CachedAnswer("from another worker")


def test_two_workers_share_answers_through_redis(make_live, redis_url: str) -> None:
    settings = ServiceSettings(redis_url=redis_url)
    first, second = make_live(settings=settings), make_live(settings=settings)
    body = anthropic_body("ECHO-UPPER: shared between workers")
    miss = httpx.post(first.url + "/v1/messages", json=body)
    hit = httpx.post(second.url + "/v1/messages", json=body)
    assert miss.headers["x-zero-layer-cache-hit"] == "false"
    assert hit.headers["x-zero-layer-cache-hit"] == "true"
    assert hit.json()["content"][0]["text"] == "SHARED BETWEEN WORKERS"
    assert hit.headers["x-zero-layer-plan"] == miss.headers["x-zero-layer-plan"]
    assert (first.engine.runs, second.engine.runs) == (1, 0)


@pytest.mark.parametrize("route_text", ["BAD: {", "open question", "CRASH: x"])
def test_only_deterministic_answers_are_cached(make_live, route_text: str) -> None:
    cache = MemoryCache(1 << 20)
    server = make_live(cache=cache)
    httpx.post(server.url + "/v1/messages", json=anthropic_body(route_text))
    assert len(cache) == 0


def test_cached_answer_is_still_fitted_to_max_tokens(make_live) -> None:
    server = make_live()
    full = httpx.post(server.url + "/v1/messages", json=anthropic_body("ECHO-UPPER: a b c d"))
    short = httpx.post(
        server.url + "/v1/messages", json=anthropic_body("ECHO-UPPER: a b c d", max_tokens=2)
    )
    assert full.json()["content"][0]["text"] == "A B C D"
    assert server.engine.runs == 1  # the second answer came from the cache, then was fitted
    assert short.status_code == 400  # never a cut answer; no fallback is configured here
    assert "raise max_tokens to at least 4" in short.json()["error"]["message"]
