"""The JSON/YAML readers and writers the JSON/YAML ops call: one import point.

All functions are pure. Readers raise :class:`~zerolayer.core.errors.PayloadError` with a
1-based line and column for malformed text and :class:`~zerolayer.core.errors.Unsupported`
for well-formed input with no exact JSON-compatible value; writers produce text that reads
back to exactly the given value, which :func:`verify_yaml` / :func:`verify_json` check.
"""

from __future__ import annotations

from zerolayer.core.errors import PayloadError, line_col
from zerolayer.plugins.json_yaml.json_read import parse_json
from zerolayer.plugins.json_yaml.json_write import emit_json
from zerolayer.plugins.json_yaml.verify import verify_json, verify_yaml
from zerolayer.plugins.json_yaml.yaml_read import parse_yaml, parse_yaml_documents
from zerolayer.plugins.json_yaml.yaml_write import emit_yaml

__all__ = [
    "decode_payload",
    "emit_json",
    "emit_yaml",
    "parse_json",
    "parse_yaml",
    "parse_yaml_documents",
    "verify_json",
    "verify_yaml",
]


def decode_payload(data: bytes, fmt: str = "JSON") -> str:
    """Decode UTF-8 ``data`` (a leading BOM is kept for the reader to handle).

    Raises :class:`PayloadError` at the line and column of the first byte that is not
    valid UTF-8 (UTF-16 and Latin-1 payloads are rejected, as RFC 8259 requires UTF-8).
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        good = data[: exc.start].decode("utf-8")
        line, column = line_col(good, len(good))
        text = good + data[exc.start :].decode("utf-8", errors="replace")
        raise PayloadError(
            f"byte 0x{data[exc.start]:02X} is not valid UTF-8 ({exc.reason})",
            fmt=fmt,
            text=text,
            line=line,
            column=column,
        ) from None
