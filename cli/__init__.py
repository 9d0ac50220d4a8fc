"""The ``zerolayer`` command line and the developer tools it drives.

This package sits above the engine (``zerolayer.core``) and the HTTP service
(``zerolayer.rules_api``): it imports both, and neither imports it. ``main`` builds the parser
from the command modules listed in ``main.COMMANDS``; each module has a ``register(sub)``
function that adds its subcommand. The tools behind the commands live here too: the bench
(``bench``, ``bench_checks``) and the plugin package template (``plugin_template``).
"""
