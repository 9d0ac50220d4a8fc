"""What plugins contribute, collected and checked once at start-up.

The registry calls each plugin's register hooks with a callback that checks every item and
records which plugin gave it. A duplicate op name, a fragment that defines another plugin's
rule, or an item of the wrong type stops start-up with a ``StartupError`` that names the
plugins involved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from importlib.resources import files
from typing import Any

import pluggy

from zerolayer.core.errors import StartupError
from zerolayer.core.fallback import BackendSpec
from zerolayer.core.ops import OpSpec
from zerolayer.core.plan import Directive

ClauseBuilder = Callable[[list[Any]], Any]


@dataclass(frozen=True)
class GrammarFragment:
    """A plugin's part of the instruction grammar.

    ``text`` is Lark grammar text. Every rule and terminal it defines must start with
    ``namespace`` followed by ``_`` (or ``__`` for terminals written in upper case:
    ``JY_YAML``); it adds instruction clauses with ``%extend clause: ns_convert | ...``.
    ``transforms`` maps rule names to functions that receive the rule's children (tokens
    and already transformed sub-rules) and return a value; for clause rules that value is a
    list of directives (``Step``, ``Option`` and ``Source``). ``finish``, when given, sees
    the whole directive list of an instruction once parsing is done, for phrases whose
    meaning depends on what came before them ("… answer with the name only").
    """

    namespace: str
    text: str
    transforms: Mapping[str, ClauseBuilder] = field(default_factory=dict)
    plugin: str = ""
    finish: Callable[[list[Directive]], list[Directive]] | None = None


@dataclass(frozen=True)
class Lexicon:
    """A plugin's words for frame recognition (core/frames.py, docs/recognition.md).

    ``aliases`` maps other spellings of a format to its name (``"yml": "yaml"``);
    ``nouns`` are benign nouns that name the payload or the answer in this family ("query",
    "script", 脚本); ``targets`` maps words that name a target format by themselves to it
    (``"render": "html"``); ``phrases`` are the names of options that hold words of other
    classes ("JSDoc comments", "GitHub-flavored Markdown"): the frame reader takes each as one
    word of an option island, which the grammar must then read. Words are matched in lower
    case; a Chinese word as written.
    """

    aliases: Mapping[str, str] = field(default_factory=dict)
    nouns: frozenset[str] = frozenset()
    targets: Mapping[str, str] = field(default_factory=dict)
    phrases: frozenset[str] = frozenset()
    plugin: str = ""


@dataclass(frozen=True)
class Example:
    """A worked example: an instruction, its payload and the exact expected answer.

    Every registered example is executed by the test suite; the neural intent router uses
    the instructions to recognise paraphrases.
    """

    instruction: str
    payload: str
    expected: str
    lang: str = "en"
    plugin: str = ""


def grammar_text(filename: str, package: str = "zerolayer.grammars") -> str:
    """The text of the grammar file ``filename`` shipped in ``package``.

    The default package holds the built-in families' fragments; a plugin passes its own package
    name (``grammar_text("csv.lark", "zerolayer_csv")``).
    """
    return files(package).joinpath(filename).read_text(encoding="utf-8")


def register_each(register: Callable[[Any], None], items: Iterable[Any]) -> None:
    """Hand every item (``OpSpec``, ``Example`` …) to a register hook's callback, in order."""
    for item in items:
        register(item)


@dataclass
class PluginInfo:
    name: str
    version: str
    ops: list[str] = field(default_factory=list)
    grammar: list[str] = field(default_factory=list)
    examples: int = 0
    backends: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "version": self.version,
            "ops": self.ops,
            "grammar": self.grammar,
            "examples": self.examples,
            "backends": self.backends,
        }


@dataclass
class Registry:
    """Every op, grammar fragment and example, keyed and checked."""

    ops: dict[str, OpSpec] = field(default_factory=dict)
    fragments: list[GrammarFragment] = field(default_factory=list)
    examples: list[Example] = field(default_factory=list)
    backends: dict[str, BackendSpec] = field(default_factory=dict)
    plugins: dict[str, PluginInfo] = field(default_factory=dict)
    lexicons: list[Lexicon] = field(default_factory=list)

    def op(self, name: str) -> OpSpec:
        return self.ops[name]

    def add_op(self, spec: OpSpec, plugin: str) -> None:
        if not isinstance(spec, OpSpec):
            raise StartupError(
                f"plugin {plugin!r} registered {type(spec).__name__} through register_ops; "
                "register OpSpec objects"
            )
        if spec.name in self.ops:
            other = self.ops[spec.name].plugin
            raise StartupError(
                f"duplicate op name {spec.name!r}: registered by plugin {other!r} and by "
                f"plugin {plugin!r}",
                hint="op names are global; prefix a plugin's ops with its family (csv.parse)",
            )
        spec = _with_plugin(spec, plugin)
        self.ops[spec.name] = spec
        self.plugins[plugin].ops.append(spec.name)

    def add_fragment(self, fragment: GrammarFragment, plugin: str) -> None:
        if not isinstance(fragment, GrammarFragment):
            raise StartupError(
                f"plugin {plugin!r} registered {type(fragment).__name__} through "
                "register_grammar; register GrammarFragment objects"
            )
        for other in self.fragments:
            if other.namespace == fragment.namespace:
                raise StartupError(
                    f"duplicate grammar namespace {fragment.namespace!r}: used by plugin "
                    f"{other.plugin!r} and by plugin {plugin!r}"
                )
        fragment = replace(fragment, plugin=plugin)
        self.fragments.append(fragment)
        self.plugins[plugin].grammar.append(fragment.namespace)

    def add_example(self, example: Example, plugin: str) -> None:
        if not isinstance(example, Example):
            raise StartupError(
                f"plugin {plugin!r} registered {type(example).__name__} through "
                "register_examples; register Example objects"
            )
        self.examples.append(replace(example, plugin=plugin))
        self.plugins[plugin].examples += 1

    def add_backend(self, spec: BackendSpec, plugin: str) -> None:
        if not isinstance(spec, BackendSpec):
            raise StartupError(
                f"plugin {plugin!r} registered {type(spec).__name__} through "
                "register_backends; register BackendSpec objects"
            )
        if not spec.name.isidentifier() or not callable(spec.factory):
            raise StartupError(
                f"plugin {plugin!r} registered a backend named {spec.name!r}: a backend needs "
                "an identifier for a name and a callable factory"
            )
        if spec.name in self.backends:
            other = self.backends[spec.name].plugin
            raise StartupError(
                f"duplicate backend name {spec.name!r}: registered by plugin {other!r} and by "
                f"plugin {plugin!r}"
            )
        self.backends[spec.name] = replace(spec, plugin=plugin)
        self.plugins[plugin].backends.append(spec.name)

    def add_lexicon(self, lexicon: Lexicon, plugin: str) -> None:
        if not isinstance(lexicon, Lexicon):
            raise StartupError(
                f"plugin {plugin!r} registered {type(lexicon).__name__} through "
                "register_lexicon; register Lexicon objects"
            )
        words = [
            *lexicon.aliases,
            *lexicon.aliases.values(),
            *lexicon.nouns,
            *lexicon.targets,
            *lexicon.phrases,
        ]
        if not all(isinstance(w, str) and w.strip() == w and w for w in words):
            raise StartupError(
                f"plugin {plugin!r} registered a Lexicon with an empty or padded word; "
                "give each word as it is written"
            )
        self.lexicons.append(replace(lexicon, plugin=plugin))

    def overlay(self, ops: Iterable[OpSpec]) -> Registry:
        """A registry of this one's contents with ``ops`` laid over it (one rule's ops, with
        its compiled assets bound in, over the built-in ones); this registry is unchanged.
        Each spec keeps the owner it names in ``plugin``; a name that is taken already is a
        ``StartupError``: an overlay never replaces an op."""
        added: dict[str, OpSpec] = {}
        for spec in ops:
            if not isinstance(spec, OpSpec):
                raise StartupError(f"an overlay got {type(spec).__name__}; give OpSpec objects")
            if spec.name in self.ops or spec.name in added:
                owner = self.ops[spec.name].plugin if spec.name in self.ops else spec.plugin
                raise StartupError(
                    f"duplicate op name {spec.name!r}: registered by {owner!r} and laid over "
                    f"it by {spec.plugin!r}",
                    hint="rename the plugin's op: this name belongs to another family",
                )
            added[spec.name] = spec
        return Registry(
            {**self.ops, **added},
            self.fragments,
            self.examples,
            self.backends,
            self.plugins,
            self.lexicons,
        )

    def implicit_ops(self, from_type: str, to_type: str) -> list[OpSpec]:
        """Ops the planner may insert to turn ``from_type`` into ``to_type``."""
        return [
            s
            for s in self.ops.values()
            if s.implicit and s.input_type == from_type and s.output_type == to_type
        ]

    def param_orders(self) -> dict[str, tuple[str, ...]]:
        return {name: spec.param_names for name, spec in self.ops.items()}


def _with_plugin(spec: OpSpec, plugin: str) -> OpSpec:
    return replace(spec, plugin=plugin)


def build_registry(pm: pluggy.PluginManager, versions: Mapping[str, str]) -> Registry:
    """Call every plugin's register hooks, one plugin at a time, and check what they give."""
    registry = Registry()
    for name, plugin in pm.list_name_plugin():
        if plugin is None:
            continue
        registry.plugins[name] = PluginInfo(name, versions.get(name, "unknown"))
    hooks: Iterable[tuple[str, Callable[[Any, str], None]]] = (
        ("register_ops", registry.add_op),
        ("register_grammar", registry.add_fragment),
        ("register_examples", registry.add_example),
        ("register_backends", registry.add_backend),
        ("register_lexicon", registry.add_lexicon),
    )
    for hook_name, add in hooks:
        hook = getattr(pm.hook, hook_name)
        for impl in hook.get_hookimpls():
            plugin_name = pm.get_name(impl.plugin) or repr(impl.plugin)

            def register(item: Directive | Any, _add=add, _plugin=plugin_name) -> None:
                _add(item, _plugin)

            try:
                impl.function(register=register)
            except StartupError:
                raise
            except Exception as exc:
                raise StartupError(
                    f"plugin {plugin_name!r} failed in {hook_name}: {type(exc).__name__}: {exc}"
                ) from exc
    return registry
