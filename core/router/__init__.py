"""The neural intent router: paraphrases the grammar misses, proposed as canonical instructions.

``router.py`` ranks the examples of every plugin (and a tenant's active rules) by similarity,
``evidence.py`` and ``slots.py`` check that a proposal says what the request says, and
``config.py`` builds the router from ``ZEROLAYER_ROUTER``. Only ``config.load_router`` imports
torch (through ``zerolayer.core.neural.embedder``).
"""
