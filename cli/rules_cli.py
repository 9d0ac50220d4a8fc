"""``zerolayer rules …`` (over the HTTP API) and ``zerolayer keys …`` (on the database).

    zerolayer keys create --tenant acme --roles author,reviewer [--db URL]
    zerolayer keys list [--tenant acme] [--db URL]    (ids, tenants, roles: never secrets)
    zerolayer keys revoke KEY_OR_ID [--db URL]        (refused at once on every worker)
    zerolayer rules validate FILE          zerolayer rules push FILE [--freeze]
    zerolayer rules test NAME [VERSION]    zerolayer rules submit NAME VERSION
    zerolayer rules approve NAME VERSION   zerolayer rules activate NAME VERSION [--rollback]
    zerolayer rules list                   zerolayer rules log [NAME]

The rules commands talk to ``--url`` (``ZEROLAYER_URL``, default http://127.0.0.1:8000) with
``--key`` (``ZEROLAYER_API_KEY``). Nothing here imports the web stack or SQLAlchemy until a
command runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from zerolayer.cli.common import EXIT_BAD_INPUT, EXIT_ERROR, EXIT_OK


def _http_client(url: str) -> Any:
    import httpx

    return httpx.Client(base_url=url.rstrip("/"), timeout=60.0)


class _Api:
    client_factory = staticmethod(_http_client)  # tests put an in-process client here

    def __init__(self, url: str, key: str) -> None:
        self.client = self.client_factory(url)
        self.key = key

    def call(
        self, method: str, path: str, *, etag: str | None = None, **kwargs: Any
    ) -> tuple[int, dict[str, Any], dict[str, str]]:
        headers = {"x-api-key": self.key, **kwargs.pop("headers", {})}
        if etag:
            headers["If-Match"] = etag
        r = self.client.request(method, path, headers=headers, **kwargs)
        try:
            body = r.json()
        except ValueError:
            body = {"code": "not_json", "message": r.text, "errors": []}
        return r.status_code, body, dict(r.headers)

    def etag(self, name: str) -> str:
        status, body, headers = self.call("GET", f"/v1/zero-rules/{name}")
        if status != 200:
            raise _Failed(status, body)
        return headers.get("etag", "")


class _Failed(Exception):
    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("message", ""))
        self.status, self.body = status, body


def _print_error(status: int, body: dict[str, Any]) -> None:
    print(f"error {status} {body.get('code', '')}: {body.get('message', '')}", file=sys.stderr)
    for err in body.get("errors", []):
        where = err.get("location", "")
        if err.get("line") is not None:
            where += f" (line {err['line']}, column {err['column']})"
        print(f"  {where}: {err.get('message', '')}", file=sys.stderr)


def _document(path: str) -> tuple[str, str]:
    text = Path(path).read_text(encoding="utf-8")
    ctype = "application/json" if path.endswith(".json") else "application/yaml"
    return text, ctype


def _name_of(text: str, ctype: str) -> str:
    from zerolayer.rules_api.rules.document import load_document

    data = load_document(text, "json" if ctype.endswith("json") else "yaml").data
    return str(data.get("name", ""))


def _run(args: argparse.Namespace) -> int:
    api = _Api(args.url, args.key or "")
    try:
        status, body = _dispatch(api, args)
    except _Failed as exc:
        status, body = exc.status, exc.body
    if status >= 400:
        _print_error(status, body)
        return EXIT_BAD_INPUT if status in (400, 404, 409, 412, 413, 422, 428) else EXIT_ERROR
    print(json.dumps(body, ensure_ascii=False, indent=2))
    return EXIT_OK


def _dispatch(api: _Api, args: argparse.Namespace) -> tuple[int, dict[str, Any]]:
    cmd = args.rules_command
    if cmd == "validate":
        text, ctype = _document(args.file)
        status, body, _ = api.call(
            "POST", "/v1/zero-rules/validate", content=text, headers={"content-type": ctype}
        )
        return status, body
    if cmd == "push":
        text, ctype = _document(args.file)
        name = _name_of(text, ctype)
        status, body, headers = api.call("GET", f"/v1/zero-rules/{name}")
        if status == 404:
            status, body, headers = api.call(
                "POST", "/v1/zero-rules", content=text, headers={"content-type": ctype}
            )
        elif status == 200:
            status, body, headers = api.call(
                "PUT",
                f"/v1/zero-rules/{name}/draft",
                etag=headers.get("etag"),
                content=text,
                headers={"content-type": ctype},
            )
        if status < 300 and args.freeze:
            status, body, _ = api.call(
                "POST", f"/v1/zero-rules/{name}/versions", etag=headers.get("etag")
            )
        return status, body
    if cmd == "test":
        number = args.version
        if number is None:
            status, body, _ = api.call("GET", f"/v1/zero-rules/{args.name}")
            if status != 200 or not body.get("versions"):
                return (status, body) if status != 200 else (404, {"message": "no versions"})
            number = body["versions"][-1]["number"]
        status, body, _ = api.call("POST", f"/v1/zero-rules/{args.name}/versions/{number}/test")
        return status, body
    if cmd == "submit":
        status, body, _ = api.call(
            "POST",
            f"/v1/zero-rules/{args.name}/versions/{args.version}/submit",
            etag=api.etag(args.name),
        )
        return status, body
    if cmd == "approve":
        status, version, _ = api.call("GET", f"/v1/zero-rules/{args.name}/versions/{args.version}")
        if status != 200:
            return status, version
        status, body, _ = api.call(
            "POST",
            f"/v1/zero-rules/{args.name}/versions/{args.version}/approve",
            etag=api.etag(args.name),
            json={"content_hash": version["content_hash"]},
        )
        return status, body
    if cmd == "activate":
        action = "rollback" if args.rollback else "activate"
        status, body, _ = api.call(
            "POST",
            f"/v1/zero-rules/{args.name}/{action}",
            etag=api.etag(args.name),
            json={"version": args.version},
        )
        return status, body
    if cmd == "list":
        status, body, _ = api.call("GET", "/v1/zero-rules")
        return status, body
    path = f"/v1/zero-rules/{args.name}/audit" if args.name else "/v1/audit"
    status, body, _ = api.call("GET", path)
    return status, body


def cmd_rules(args: argparse.Namespace) -> int:
    try:
        import httpx  # noqa: F401
    except ImportError:
        print("zerolayer rules needs httpx: pip install 'zerolayer[server]'", file=sys.stderr)
        return EXIT_ERROR
    try:
        return _run(args)
    except OSError as exc:
        print(f"zerolayer rules: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as exc:  # httpx transport errors
        if type(exc).__module__.startswith("httpx"):
            print(f"zerolayer rules: cannot reach {args.url}: {exc}", file=sys.stderr)
            return EXIT_ERROR
        raise


def _key_store(args: argparse.Namespace) -> Any:
    """The store named by ``--db`` (default ZEROLAYER_DB_URL or SQLite); None, reported,
    without the server extra."""
    try:
        from zerolayer.rules_api.rules.store import RuleStore, default_db_url
    except ImportError as exc:
        print(f"zerolayer keys needs the server extra ({exc.name} is missing)", file=sys.stderr)
        return None
    return RuleStore(args.db or default_db_url())


def cmd_keys_create(args: argparse.Namespace) -> int:
    from zerolayer.rules_api.rules.keys import create_key

    store = _key_store(args)
    if store is None:
        return EXIT_ERROR
    try:
        roles = [r.strip() for r in args.roles.split(",")]
        key = create_key(store, args.tenant, roles, args.name, actor="cli")
    except ValueError as exc:
        print(f"zerolayer keys: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    finally:
        store.close()
    print(key)
    return EXIT_OK


def cmd_keys_list(args: argparse.Namespace) -> int:
    from zerolayer.rules_api.rules.keys import key_view

    store = _key_store(args)
    if store is None:
        return EXIT_ERROR
    try:
        keys = [key_view(row) for row in store.list_keys(args.tenant)]
    finally:
        store.close()
    print(json.dumps({"keys": keys}, ensure_ascii=False, indent=2))
    return EXIT_OK


def cmd_keys_revoke(args: argparse.Namespace) -> int:
    from zerolayer.rules_api.rules.errors import RulesError
    from zerolayer.rules_api.rules.keys import key_id_of, key_view

    key_id = key_id_of(args.key)
    if key_id is None:
        print("zerolayer keys: give a key (zlk_…) or its 12-character id", file=sys.stderr)
        return EXIT_BAD_INPUT
    store = _key_store(args)
    if store is None:
        return EXIT_ERROR
    try:
        row = store.revoke_key(key_id, actor="cli")
    except RulesError as exc:
        print(f"zerolayer keys: {exc.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    finally:
        store.close()
    print(json.dumps(key_view(row), ensure_ascii=False, indent=2))
    return EXIT_OK


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    rules = sub.add_parser("rules", help="author, review and publish tenant rules over the API")
    rules.add_argument("--url", default=os.environ.get("ZEROLAYER_URL", "http://127.0.0.1:8000"))
    rules.add_argument("--key", default=os.environ.get("ZEROLAYER_API_KEY"))
    rsub = rules.add_subparsers(dest="rules_command", required=True)
    p = rsub.add_parser("validate", help="compile a rule document (nothing is stored)")
    p.add_argument("file")
    p = rsub.add_parser("push", help="create the rule or replace its draft")
    p.add_argument("file")
    p.add_argument("--freeze", action="store_true", help="then freeze the draft into a version")
    p = rsub.add_parser("test", help="run a version's examples (the latest by default)")
    p.add_argument("name")
    p.add_argument("version", nargs="?", type=int)
    for name, text in (("submit", "ask for review"), ("approve", "approve (its content hash)")):
        p = rsub.add_parser(name, help=text)
        p.add_argument("name")
        p.add_argument("version", type=int)
    p = rsub.add_parser("activate", help="activate an approved version")
    p.add_argument("name")
    p.add_argument("version", type=int)
    p.add_argument("--rollback", action="store_true", help="roll back to an earlier version")
    rsub.add_parser("list", help="the tenant's rules")
    p = rsub.add_parser("log", help="the audit log (of one rule, or the tenant)")
    p.add_argument("name", nargs="?")
    rules.set_defaults(func=cmd_rules)

    keys = sub.add_parser("keys", help="API keys of the rules service")
    ksub = keys.add_subparsers(dest="keys_command", required=True)
    create = ksub.add_parser("create", help="create a key and print it (shown once)")
    create.add_argument("--tenant", required=True, help="tenant name, or * for every tenant")
    create.add_argument("--roles", required=True, help="author,reviewer,publisher,auditor,admin")
    create.add_argument("--name", default="", help="a label for the key")
    create.add_argument("--db", help="database URL (default ZEROLAYER_DB_URL or SQLite)")
    create.set_defaults(func=cmd_keys_create)
    listing = ksub.add_parser("list", help="list keys: ids, tenants, roles (never secrets)")
    listing.add_argument("--tenant", help="only this tenant's keys")
    listing.add_argument("--db", help="database URL (default ZEROLAYER_DB_URL or SQLite)")
    listing.set_defaults(func=cmd_keys_list)
    revoke = ksub.add_parser("revoke", help="revoke a key: refused at once by every worker")
    revoke.add_argument("key", help="the key (zlk_…) or its id")
    revoke.add_argument("--db", help="database URL (default ZEROLAYER_DB_URL or SQLite)")
    revoke.set_defaults(func=cmd_keys_revoke)
