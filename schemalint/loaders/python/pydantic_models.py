"""Recognizer for pydantic tools: ``BaseModel`` subclasses and functions with typed arguments.

For each tool it builds both contracts:

- ``Tool.advertised``: what pydantic shows a model, ``model_json_schema(mode="validation")``
  (or ``TypeAdapter(fn).json_schema()`` for a function), rendered as draft-07
  (:func:`schemalint.schema.draft7.to_draft7`).
- ``Tool.runtime``: what the validator really does. ``input``/``output`` are generated
  from pydantic's *core schema* (the structure the Rust validator runs) in validation
  and serialization mode by :class:`RuntimeJsonSchema`, which ignores every JSON-schema
  customisation hook: ``SkipJsonSchema``, ``WithJsonSchema``, ``Field(json_schema_extra=)``,
  ``model_config["json_schema_extra"]``, ``__get_pydantic_json_schema__``. So required
  sets and accepted keys (``validation_alias``/``alias``) are those of the core schema.
  ``validate`` calls ``Model.model_validate`` (for a function: the function's arguments
  validator only, never the function body). ``refused_when_omitted`` holds the instance
  paths (``*`` for any array item) the validator was seen to refuse when that one key
  was left out of an otherwise complete call (:func:`schemalint.probe.omission_probe`).

Origin: ``file`` is the source (``pkg.mod:Model``), ``pointer`` ``""``, ``format``
``"pydantic"``, ``line`` the line of the class/function definition, ``path`` the module's
file (``path_line`` = ``line``). ``raw["x-schemalint"]`` holds schemalint's own notes (``kind``,
``notes``); it is never rendered into a snapshot or compared (:mod:`schemalint.diff.render`).
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Mapping
from typing import Any

from schemalint.model import Contract, Origin, Tool

_JS_HOOK_KEYS = ("pydantic_js_updates", "pydantic_js_extra", "pydantic_js_functions",
                 "pydantic_js_annotation_functions")

LOAD_PROBE_SECONDS = 2.0
"""Time limit for the omission probes run while loading one tool."""


class ObjectProblem(Exception):
    """A recognised object that cannot become a tool (e.g. no JSON schema); becomes SL000."""


def _runtime_generator() -> type:
    from pydantic.json_schema import GenerateJsonSchema

    class RuntimeJsonSchema(GenerateJsonSchema):
        """JSON schema of the core schema alone: every JSON-schema customisation hook ignored.

        Where the core schema has no JSON schema (a ``PlainValidator`` without a type,
        a callable), the runtime side says ``{}`` (unknown) instead of failing.
        """

        def generate_inner(self, schema: Any) -> Any:
            metadata = schema.get("metadata") if isinstance(schema, dict) else None
            if isinstance(metadata, dict) and any(k in metadata for k in _JS_HOOK_KEYS):
                schema = {**schema, "metadata": {k: v for k, v in metadata.items() if k not in _JS_HOOK_KEYS}}
            return super().generate_inner(schema)

        def _update_class_schema(self, json_schema: Any, cls: Any, config: Any) -> None:
            config = {k: v for k, v in dict(config).items() if k != "json_schema_extra"}
            if getattr(cls, "__pydantic_root_model__", False):
                json_schema.setdefault("title", cls.__name__)
                return
            super()._update_class_schema(json_schema, cls, config)

        def handle_invalid_for_json_schema(self, schema: Any, error_info: str) -> Any:
            return {}

    return RuntimeJsonSchema


_RUNTIME_GENERATOR: type | None = None


def runtime_generator() -> type:
    """The :class:`RuntimeJsonSchema` generator class (built once, pydantic imported lazily)."""
    global _RUNTIME_GENERATOR
    if _RUNTIME_GENERATOR is None:
        _RUNTIME_GENERATOR = _runtime_generator()
    return _RUNTIME_GENERATOR


def defined_at(obj: Any) -> tuple[str | None, int | None]:
    """``(file, line)`` where ``obj`` (a class or function) is defined, as far as inspect knows
    (:func:`schemalint.loaders.python.framework_common.definition_site`: the ``def``/``class``
    line past any decorators, the file relative to the working directory when inside it)."""
    from schemalint.loaders.python.framework_common import definition_site

    return definition_site(obj)


def _own_doc(obj: Any) -> str | None:
    doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else getattr(obj, "__doc__", None)
    return inspect.cleandoc(doc) if isinstance(doc, str) and doc.strip() else None


def _schema(call: Callable[[], Any], what: str, where: str) -> Any:
    from schemalint.loaders.python.phases import phase
    from schemalint.schema.draft7 import to_draft7

    try:
        with phase("schema rendering"):
            return to_draft7(call()).schema
    except RecursionError:
        raise ObjectProblem(f"{what} cannot produce a JSON schema: it is nested too deeply{where}") from None
    except Exception as exc:
        raise ObjectProblem(
            f"{what} cannot produce a JSON schema: {type(exc).__name__}: {exc}{where}") from None


def _runtime_schema(call: Callable[[], Any], notes: list[str], mode: str) -> Any:
    from schemalint.loaders.python.phases import phase
    from schemalint.schema.draft7 import to_draft7

    try:
        with phase("schema rendering"):
            return to_draft7(call()).schema
    except Exception as exc:  # the runtime side stays unknown; rules then rely on probes
        notes.append(f"runtime {mode} schema unavailable: {type(exc).__name__}: {exc}")
        return None


def _build_tool(
    *,
    obj: Any,
    source: str,
    name: str,
    description: str | None,
    advertised: Any,
    runtime_input: Any,
    runtime_output: Any,
    validate: Callable[[Any], Any],
    kind: str,
    notes: list[str],
) -> Tool:
    from schemalint.loaders.python.phases import phase
    from schemalint.probe import load_share, load_spent, omission_probe

    file, line = defined_at(obj)
    refused: tuple[str, ...] = ()
    if isinstance(runtime_input, Mapping):
        with phase("probes"):
            share = load_share(LOAD_PROBE_SECONDS)
            result = omission_probe(runtime_input, validate, omit="all", time_limit=LOAD_PROBE_SECONDS,
                                    budget=share)
            load_spent(name, share, LOAD_PROBE_SECONDS, result)
        refused = tuple(sorted({r.instance_path for r in result.refusals
                                if r.kind == "omission" and r.instance_path is not None}))
        notes.extend(result.problems)
    raw = {
        "name": name,
        "description": description,
        "parameters": advertised,
        "x-schemalint": {"kind": kind, "notes": notes},
    }
    return Tool(
        name=name,
        description=description,
        advertised=advertised,
        origin=Origin(file=source, pointer="", format="pydantic", line=line, path=file,
                      path_line=line),
        schema_path="",
        runtime=Contract(input=runtime_input, output=runtime_output, validate=validate,
                         refused_when_omitted=refused),
        raw=raw,
    )


def model_tool(cls: Any, source: str) -> Tool:
    """The tool for a ``BaseModel`` subclass ``cls``; raises :class:`ObjectProblem` when it has
    no JSON schema (e.g. an undefined forward reference or an arbitrary type)."""
    file, line = defined_at(cls)
    where = f" (defined at {file}:{line})" if file else ""
    what = f"model {cls.__name__}"
    advertised = _schema(lambda: cls.model_json_schema(mode="validation"), what, where)
    gen = runtime_generator()
    notes: list[str] = []
    runtime_input = _runtime_schema(lambda: cls.model_json_schema(mode="validation", schema_generator=gen),
                                    notes, "input")
    runtime_output = _runtime_schema(
        lambda: cls.model_json_schema(mode="serialization", schema_generator=gen), notes, "output")
    title = advertised.get("title") if isinstance(advertised, Mapping) else None
    return _build_tool(
        obj=cls, source=source, name=title if isinstance(title, str) and title else cls.__name__,
        description=_own_doc(cls), advertised=advertised, runtime_input=runtime_input,
        runtime_output=runtime_output, validate=cls.model_validate, kind="model", notes=notes,
    )


def _arguments_validator(core: Any) -> Any:
    """A validator for the arguments schema inside a ``call`` core schema (body never run)."""
    from pydantic_core import SchemaValidator

    defs = None
    if core.get("type") == "definitions":
        defs, core = core.get("definitions"), core.get("schema")
    if not isinstance(core, Mapping) or core.get("type") != "call":
        kind = core.get("type") if isinstance(core, Mapping) else core
        raise ObjectProblem(f"unexpected core schema type {kind!r}")
    args_schema: Any = core["arguments_schema"]
    if defs:
        args_schema = {"type": "definitions", "schema": args_schema, "definitions": defs}
    return SchemaValidator(args_schema)


def function_tool(fn: Any, source: str) -> Tool:
    """The tool for a function whose arguments pydantic validates (plain or ``@validate_call``).

    Only the arguments are validated by ``Contract.validate``; the body never runs.
    Raises :class:`ObjectProblem` when pydantic cannot build a schema for the signature.
    """
    from pydantic import TypeAdapter
    from pydantic_core import ArgsKwargs

    raw_fn = getattr(fn, "raw_function", None) or fn
    name = getattr(raw_fn, "__name__", None) or type(raw_fn).__name__
    file, line = defined_at(raw_fn)
    where = f" (defined at {file}:{line})" if file else ""
    what = f"function {name}"
    try:
        adapter = TypeAdapter(raw_fn)
        validator = _arguments_validator(adapter.core_schema)
    except ObjectProblem as exc:
        raise ObjectProblem(f"{what}: {exc}{where}") from None
    except Exception as exc:
        raise ObjectProblem(f"{what}: pydantic cannot validate its arguments: "
                            f"{type(exc).__name__}: {exc}{where}") from None
    advertised = _schema(lambda: adapter.json_schema(mode="validation"), what, where)
    gen = runtime_generator()
    notes: list[str] = []
    runtime_input = _runtime_schema(lambda: adapter.json_schema(mode="validation", schema_generator=gen),
                                    notes, "input")

    def validate(arguments: Any) -> Any:
        if isinstance(arguments, Mapping):
            return validator.validate_python(ArgsKwargs((), dict(arguments)))
        return validator.validate_python(arguments)

    return _build_tool(
        obj=raw_fn, source=source, name=name, description=_own_doc(raw_fn), advertised=advertised,
        runtime_input=runtime_input, runtime_output=None, validate=validate, kind="function", notes=notes,
    )


def tools_from_object(obj: Any, source: str) -> list[Tool] | None:
    """Recognizer: a ``BaseModel`` subclass or a function -> one tool; anything else -> ``None``.

    Raises :class:`ObjectProblem` for a recognised object that cannot become a tool.
    A function is any plain/``@validate_call`` function or bound method; classes other
    than pydantic models are not recognised.
    """
    if inspect.isclass(obj):
        if "pydantic" not in sys.modules:
            return None
        from pydantic import BaseModel

        if issubclass(obj, BaseModel) and obj is not BaseModel:
            return [model_tool(obj, source)]
        return None
    if inspect.isfunction(obj) or inspect.ismethod(obj) or hasattr(obj, "raw_function"):
        return [function_tool(obj, source)]
    return None
