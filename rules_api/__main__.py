"""``python -m zerolayer.rules_api [--host H] [--port P] [--workers N]``: run the service."""

from zerolayer.rules_api.server import main

main()
