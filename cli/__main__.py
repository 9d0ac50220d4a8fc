"""``python -m zerolayer.cli``: the ``zerolayer`` command."""

from zerolayer.cli.main import main

raise SystemExit(main())
