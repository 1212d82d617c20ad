"""drift.py — the drift gate's comparison, regenerating only what changed.

gen/ must be exactly what `buf generate` makes of proto/. Regenerating the whole tree on every
run costs about 10 s on 1,000 files, almost all of it spent on packages nobody touched. So the
tree is split into units and each unit's output is remembered under a key of everything that
can change it; a unit whose key was seen before is not regenerated, its remembered output is
what gen/ must hold.

- A unit is a set of proto packages (directories) whose generated files share an output
  folder: a directory's TS and Python output sits beside its proto path, its Java output in its
  java_package's folder, so two directories with one java_package are one unit. The imported
  files that are not ours (buf/validate, well-known types) are one more unit.
- A unit's key is a hash of its files and of every file they import, transitively (ours by
  content, the others by descriptor), and of the generator: buf.gen.yaml, buf.yaml, the pinned
  versions (versions.env, package-lock.json, the Python tools' requirements), the Python
  adapter and this file.
- The units not seen before are regenerated together, by one `buf generate --path …` into a
  scratch folder (every plugin runs once, as in `make gen`); every file it writes is assigned
  to the unit owning its folder and remembered under that unit's key.
- gen/'s output folders (the plugins' `out`, files git does not ignore) must then hold exactly
  the union of every unit's files: a file that differs, is missing, or belongs to no unit
  (hand-made, or left from a deleted package) is drift.

Whenever an assumption fails — a plugin writes a file outside the folders its unit owns, two
units claim one file with different content, or a regenerated file disagrees with a unit's
remembered output — the cache is not trusted: the whole tree is regenerated and compared, as
if nothing were remembered. What the cache holds was only ever written from a regeneration,
and it is trusted as a build cache is: whoever can write .tmp/cache can make this gate pass, so
CI restores only caches its own runs of this repository saved (pull-request.yml).

The SDKs' manifests (pom.xml, package.json, pyproject.toml) are not buf's output;
check-drift.sh checks them against versions.env, the table `make gen` writes them from.

usage: drift.py --image IMAGE [--cache DIR]   (run from the repository root)
exit: 0 gen/ is exact, 1 drift (the files are listed), 2 the comparison itself failed
"""

import argparse
import hashlib
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import yaml
from google.protobuf import descriptor_pb2

ROOT = pathlib.Path.cwd()
# Everything besides the protos that decides what generation writes.
GENERATOR = ["buf.gen.yaml", "buf.yaml", "versions.env", "package-lock.json",
             "scripts/setup/requirements-tools.txt", "scripts/gate/protoc-gen-python-grpcio",
             "scripts/gate/protoc-gen-python-grpcio.py", "scripts/gate/drift.py"]


class Untrusted(Exception):
    """The cache cannot be used for this run; the reason is the message."""


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def plugins(template: dict) -> list[tuple[str, str]]:
    """(out, layout) per plugin: where a file's code goes (folder() says how)."""
    out = []
    for plugin in template["plugins"]:
        name = os.path.basename(str(plugin.get("protoc_builtin") or plugin.get("local") or plugin.get("remote") or ""))
        layout = "java" if "java" in name else "python" if "python" in name or name == "pyi" else "proto"
        out.append((plugin["out"], layout))
    return out


def folder(file: descriptor_pb2.FileDescriptorProto, layout: str) -> str:
    """The folder a file's generated code lands in. Java: its java_package's (or package's).
    Python: its module path — protoc turns every '.' of the file's path into a folder and '-'
    into '_' (googleapis' google/cloud/run/v2/k8s.min.proto is k8s/min_pb2.py). Others: beside
    the proto's own path."""
    if layout == "java":
        return (file.options.java_package or file.package).replace(".", "/")
    if layout == "python":
        return os.path.dirname(file.name.removesuffix(".proto").replace("-", "_").replace(".", "/"))
    return os.path.dirname(file.name)


class Plan:
    """The units of one tree, their keys and the output folders each owns."""

    def __init__(self, image: descriptor_pb2.FileDescriptorSet, template: dict):
        source = pathlib.Path(template["inputs"][0]["directory"])
        self.outs = plugins(template)
        self.files = {f.name: f for f in image.file}
        self.local = {n for n in self.files if (ROOT / source / n).is_file()}
        content = {n: sha((ROOT / source / n).read_bytes()) if n in self.local
                   else sha(self.files[n].SerializeToString(deterministic=True)) for n in self.files}
        generator = sha(b"".join(sha((ROOT / p).read_bytes()).encode() for p in GENERATOR if (ROOT / p).exists()))

        # Directories joined when their output lands in one folder (union-find).
        parent: dict[str, str] = {}

        def find(x: str) -> str:
            while parent.setdefault(x, x) != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        def group(name: str) -> str:
            return "dir:" + os.path.dirname(name) if name in self.local else "imports"

        self.owner_of_folder: dict[tuple[str, str], str] = {}
        for name, file in self.files.items():
            for out, layout in self.outs:
                key = (out, folder(file, layout))
                if key in self.owner_of_folder:
                    parent[find(group(name))] = find(self.owner_of_folder[key])
                else:
                    self.owner_of_folder[key] = group(name)
                    find(group(name))
        self.owner_of_folder = {k: find(v) for k, v in self.owner_of_folder.items()}
        self.members: dict[str, list[str]] = {}
        for name in sorted(self.files):
            self.members.setdefault(find(group(name)), []).append(name)

        closure: dict[str, set[str]] = {}

        def imports(name: str) -> set[str]:
            if name not in closure:
                closure[name] = {name}
                for dep in self.files[name].dependency:
                    closure[name] |= imports(dep)
            return closure[name]

        self.keys = {}
        for unit, names in self.members.items():
            needed = set().union(*(imports(n) for n in names))
            text = "\n".join([generator, *(f"{n} {content[n]}" for n in sorted(needed))])
            self.keys[unit] = sha(f"{text}\n{unit}".encode())

    def name(self, unit: str) -> str:
        return ", ".join(sorted(g.removeprefix("dir:") if g != "imports" else "(imported files)" for g in self.groups(unit)))

    def groups(self, unit: str) -> set[str]:
        return {"dir:" + os.path.dirname(n) if n in self.local else "imports" for n in self.members[unit]}

    def owner(self, path: str) -> str | None:
        """The unit whose folder holds a generated file (path relative to the root)."""
        for out, _ in self.outs:
            if path.startswith(out + "/"):
                unit = self.owner_of_folder.get((out, os.path.dirname(path[len(out) + 1:])))
                if unit:
                    return unit
        return None


def generate(image: str, scratch: pathlib.Path, paths: list[str]) -> dict[str, str]:
    """Runs buf generate for the given proto paths (all when empty) into scratch; {path: hash}
    with paths as they would be under the root."""
    command = ["buf", "generate", image, "--template", "buf.gen.yaml", "-o", str(scratch)]
    for path in paths:
        command += ["--path", path]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        sys.stderr.write(done.stderr)
        raise SystemExit(f"drift gate: buf generate failed (exit {done.returncode})")
    written = {}
    for dirpath, _, names in os.walk(scratch):
        for n in names:
            full = pathlib.Path(dirpath) / n
            written[full.relative_to(scratch).as_posix()] = sha(full.read_bytes())
    return written


def committed(outs: list[str]) -> dict[str, str]:
    """gen/'s output folders as they are now: every file git does not ignore."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--", *outs],
                            check=True, capture_output=True).stdout.decode().split("\0")
    found = {}
    for path in sorted(set(filter(None, listed))):
        full = ROOT / path
        if full.is_file():  # a tracked file deleted from disk is simply missing
            found[path] = sha(full.read_bytes())
    return found


def expected_output(plan: Plan, image: str, cache: pathlib.Path, scratch: pathlib.Path) -> tuple[dict[str, str], list[str]]:
    """What gen/ must hold, and the units regenerated to know it. Raises Untrusted."""
    remembered: dict[str, dict[str, str]] = {}
    for unit, key in plan.keys.items():
        entry = cache / f"{key}.json"
        if entry.is_file():
            remembered[unit] = json.loads(entry.read_text())
            entry.touch()  # used now: what CI forgets is what went unused (pull-request.yml)
    missing = [u for u in plan.keys if u not in remembered]
    if missing:
        everything = len(missing) == len(plan.keys) or any(not plan.groups(u) - {"imports"} for u in missing)
        paths = [] if everything else sorted({os.path.dirname(n) for u in missing for n in plan.members[u] if n in plan.local})
        fresh: dict[str, dict[str, str]] = {}
        for path, digest in generate(image, scratch, paths).items():
            unit = plan.owner(path)
            if unit is None:
                raise Untrusted(f"{path} was generated outside every unit's folders")
            fresh.setdefault(unit, {})[path] = digest
        for unit, files in fresh.items():
            if unit in remembered and any(remembered[unit].get(p) != d for p, d in files.items()):
                raise Untrusted(f"the remembered output of {plan.name(unit)} disagrees with a regeneration")
        for unit in (plan.keys if everything else missing):
            remembered[unit] = fresh.get(unit, {})
            cache.mkdir(parents=True, exist_ok=True)
            part = cache / f"{plan.keys[unit]}.{os.getpid()}.part"
            part.write_text(json.dumps(remembered[unit], sort_keys=True))
            part.replace(cache / f"{plan.keys[unit]}.json")
        missing = list(plan.keys) if everything else missing
    expected: dict[str, str] = {}
    for unit, files in remembered.items():
        for path, digest in files.items():
            if expected.setdefault(path, digest) != digest:
                raise Untrusted(f"two units disagree on {path}")
    return expected, missing


def main() -> int:
    parser = argparse.ArgumentParser(prog="drift.py")
    parser.add_argument("--image", required=True, help="the working tree's image (buf build proto -o)")
    parser.add_argument("--cache", default=".tmp/cache/drift", help="where each unit's output is remembered")
    args = parser.parse_args()
    started = time.monotonic()
    template = yaml.safe_load((ROOT / "buf.gen.yaml").read_text())
    image = descriptor_pb2.FileDescriptorSet.FromString(pathlib.Path(args.image).read_bytes())
    plan = Plan(image, template)
    outs = sorted({out for out, _ in plan.outs})
    with tempfile.TemporaryDirectory() as tmp:
        try:
            expected, regenerated = expected_output(plan, args.image, pathlib.Path(args.cache), pathlib.Path(tmp))
            how = (f"{len(plan.keys)} units, {len(plan.keys) - len(regenerated)} from the cache, regenerated "
                   f"{len(regenerated)}" + (f": {'; '.join(plan.name(u) for u in sorted(regenerated))}" if 0 < len(regenerated) <= 5 else ""))
        except Untrusted as why:
            print(f"drift gate: the cache is not used this time ({why}); regenerating everything", file=sys.stderr)
            expected = generate(args.image, pathlib.Path(tmp) / "all", [])
            how = "whole tree regenerated"
    actual = committed(outs)
    problems = []
    for path in sorted(set(expected) | set(actual)):
        if path not in actual:
            problems.append(f"  {path}  (missing: generation writes it)")
        elif path not in expected:
            problems.append(f"  {path}  (generation does not write it: stale or hand-made)")
        elif expected[path] != actual[path]:
            problems.append(f"  {path}  (differs from what generation writes)")
    seconds = time.monotonic() - started
    if problems:
        print("drift gate: gen/ is not what proto/ generates (run 'make gen' and commit the result):", file=sys.stderr)
        print("\n".join(problems), file=sys.stderr)
        print(f"drift gate: {len(problems)} files; {how} ({seconds:.1f} s)", file=sys.stderr)
        return 1
    print(f"drift gate: gen/ is exactly what proto/ generates ({len(actual)} files; {how}; {seconds:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
