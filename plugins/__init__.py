"""Built-in transformer plugins, registered exactly like third-party ones."""

DEFAULT_PLUGINS: tuple[str, ...] = (
    "zerolayer.plugins.json_yaml",
    "zerolayer.plugins.markdown_html",
    "zerolayer.plugins.context",
    "zerolayer.plugins.sql_pandas",
    "zerolayer.plugins.py_ts",
)
