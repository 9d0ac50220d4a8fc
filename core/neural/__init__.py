"""Neural fallback backends: a local torch model, OpenAI-compatible upstreams, Anthropic.

Every backend implements ``zerolayer.core.fallback.FallbackBackend`` and is offered by the
built-in plugin in ``plugin.py`` through the ``register_backends`` hook; ``config.py`` picks
one from ``ZEROLAYER_FALLBACK`` (``local``, ``local:PATH``, ``upstream:URL``, ``anthropic``).
Nothing here imports torch or httpx until a backend is built.
"""
