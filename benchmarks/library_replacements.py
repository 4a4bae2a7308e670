#!/usr/bin/env python3
"""Measure schemalint's hand-written $ref resolution, JSON pointers, JSONC reading and glob
against libraries: same outputs on ../shared, and CPU time (process_time, best of 3)."""
import contextlib
import glob as stdglob
import os
import subprocess
import sys
import time
from pathlib import Path

import json5
import jsonpointer
import orjson
import pyjson5
from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012, specification_with
from wcmatch import glob as wglob

from schemalint.api import load
from schemalint.loaders.files.documents import is_jsonc_file, strip_jsonc
from schemalint.loaders.files.sources import safe_glob
from schemalint.model import escape_token, split_pointer
from schemalint.schema.index import index_schema
from schemalint.schema.walk import resolve_local_ref

SHARED = Path(os.environ.get("SCHEMALINT_SHARED", Path(__file__).resolve().parents[2] / "shared"))


def best(fn, n=3):
    out = None
    t = []
    for _ in range(n):
        s = time.process_time()
        out = fn()
        t.append(time.process_time() - s)
    return out, min(t)


tools = load([str(SHARED / "corpus")]).tools
pairs = []
for t in tools:
    if not isinstance(t.advertised, dict):
        continue
    for node in index_schema(t.advertised).refs:
        pairs.append((t.advertised, node.schema["$ref"]))
print("corpus tools", len(tools), "string $refs", len(pairs))

# 1. $ref resolution: ours vs referencing (Registry + resolver of the tool's schema as 2020-12)

def ours():
    return [resolve_local_ref(root, ref)[:2] for root, ref in pairs]


def lib():
    out = []
    cache = {}
    for root, ref in pairs:
        r = cache.get(id(root))
        if r is None:
            declared = root.get("$schema")
            spec = specification_with(declared, default=DRAFT202012) if isinstance(declared, str) else DRAFT202012
            resource = spec.create_resource(root)
            r = cache[id(root)] = Registry().with_resource("urn:tool", resource).resolver("urn:tool")
        if not ref.startswith("#"):
            out.append((False, None))
            continue
        try:
            out.append((True, r.lookup(ref).contents))
        except (Unresolvable, Exception):
            out.append((False, None))
    return out


a, ta = best(ours)
b, tb = best(lib)
same = sum(1 for x, y in zip(a, b, strict=True) if x[0] == y[0] and (not x[0] or x[1] is y[1] or x[1] == y[1]))
diff = [(pairs[i][1], a[i][0], b[i][0]) for i in range(len(a))
        if not (a[i][0] == b[i][0] and (not a[i][0] or a[i][1] == b[i][1]))]
print(f"$ref: same {same}/{len(a)}; ours {ta*1000:.1f} ms, referencing {tb*1000:.1f} ms ({tb/ta:.1f}x); "
      f"differing: {diff[:5]}")

# 2. JSON pointers: split and escape, ours vs jsonpointer
ptrs = [ref[1:] for _, ref in pairs if ref.startswith("#/")]
ptrs += [n.pointer for t in tools[:3000] if isinstance(t.advertised, dict) for n in index_schema(t.advertised).nodes]
print("pointers", len(ptrs))
a, ta = best(lambda: [split_pointer(p) for p in ptrs])
b, tb = best(lambda: [jsonpointer.JsonPointer(p).parts for p in ptrs])
print(f"pointer split: same {sum(x == y for x, y in zip(a, b, strict=True))}/{len(a)}; ours {ta*1000:.1f} ms, "
      f"jsonpointer {tb*1000:.1f} ms ({tb/ta:.1f}x)")
toks = [tok for p in a for tok in p]
a2, ta = best(lambda: [escape_token(t) for t in toks])
b2, tb = best(lambda: [jsonpointer.escape(t) for t in toks])
print(f"token escape: same {sum(x == y for x, y in zip(a2, b2, strict=True))}/{len(a2)}; ours {ta*1000:.1f} ms, "
      f"jsonpointer {tb*1000:.1f} ms ({tb/ta:.1f}x)")

# 3. JSONC: ours (strip, then the JSON parser) vs json5 and pyjson5 (parse)
files = [p for p in SHARED.rglob("*.json*") if p.is_file() and is_jsonc_file(str(p))]
texts = []
for p in files:
    with contextlib.suppress(Exception):
        texts.append((p, p.read_text(encoding="utf-8")))
print("JSONC files", len(texts), "with comments/trailing commas", sum(strip_jsonc(t) is not None for _, t in texts))


def ours_jsonc():
    out = []
    for _, t in texts:
        s = strip_jsonc(t)
        try:
            out.append(orjson.loads(s if s is not None else t))
        except Exception:
            out.append("ERR")
    return out


def lib_jsonc(mod):
    def run():
        out = []
        for _, t in texts:
            try:
                out.append(mod.loads(t))
            except Exception:
                out.append("ERR")
        return out
    return run


a, ta = best(ours_jsonc)
for name, mod in (("json5", json5), ("pyjson5", pyjson5)):
    b, tb = best(lib_jsonc(mod), n=1 if name == "json5" else 3)
    same = sum(x == y for x, y in zip(a, b, strict=True))
    diffs = [str(texts[i][0].relative_to(SHARED)) for i in range(len(a)) if a[i] != b[i]][:3]
    print(f"JSONC vs {name}: same value {same}/{len(a)}; ours {ta*1000:.1f} ms, {name} {tb*1000:.1f} ms "
          f"({tb/ta:.1f}x); differing e.g. {diffs}")

# 4. glob: ours (safe_glob) vs glob.glob(recursive=True) and wcmatch.glob
os.chdir(SHARED)
patterns = ["repos/**/*.json", "corpus/**/*.json", "repos/*/tools*.json", "**/*.snap", "repos/**/package.json"]
for pat in patterns:
    a, ta = best(lambda pat=pat: sorted(safe_glob(pat)), n=1)
    b, tb = best(lambda pat=pat: sorted(stdglob.glob(pat, recursive=True)), n=1)
    c, tc = best(lambda pat=pat: sorted(wglob.glob(pat, flags=wglob.GLOBSTAR | wglob.FOLLOW)), n=1)
    print(f"glob {pat}: ours {len(a)} in {ta*1000:.0f} ms; glob.glob {len(b)} (same={a == b}) {tb*1000:.0f} ms; "
          f"wcmatch {len(c)} (same={a == c}) {tc*1000:.0f} ms")

# 5. a symbolic-link loop (two links back up): each glob in a child process, 300 s at most
LOOP = r'''
import os, sys, tempfile, time
d = tempfile.mkdtemp(); os.makedirs(f"{d}/a/b"); open(f"{d}/a/b/t.json", "w").write("{}")
os.symlink("..", f"{d}/a/b/up"); os.symlink("../..", f"{d}/a/b/up2"); os.chdir(d)
which = sys.argv[1]
if which == "ours":
    from schemalint.loaders.files.sources import safe_glob as g; out = g("**/*.json")
elif which == "glob.glob":
    import glob; out = glob.glob("**/*.json", recursive=True)
else:
    from wcmatch import glob as w; out = w.glob("**/*.json", flags=w.GLOBSTAR | w.FOLLOW)
print(len(out))
'''
for which in ("ours", "glob.glob", "wcmatch-FOLLOW"):
    started = time.monotonic()
    try:
        proc = subprocess.run([sys.executable, "-c", LOOP, which], capture_output=True, text=True, timeout=300)
        print(f"loop {which}: {proc.stdout.strip()} paths in {time.monotonic() - started:.1f} s")
    except subprocess.TimeoutExpired:
        print(f"loop {which}: not finished in 300 s")
