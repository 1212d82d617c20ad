"""compare.py — the working tree's image against other images (the merge base, every release):
buf breaking with the root buf.yaml's rules and the validation-rule diff (validation-diff.mjs),
each comparison on the files that can hold its findings, remembered. The buf comparisons run
side by side, one per core; every rule diff runs in one node process beside them.

    compare.py --head IMAGE --out DIR --against NAME IMAGE CHANGED [--against …]

CHANGED says which .proto files differ between that side and the working tree: ALL (compare the
whole tree: a file was deleted, or nothing is known), NONE, or a comma-separated list (paths
under proto/). For each NAME it writes DIR/NAME.buf.jsonl and DIR/NAME.rules.jsonl, the
findings of each tool, one JSON object per line.

Which files are compared: buf's FILE rules judge file by file, so a file that did not change
has no finding of its own — unless a name it uses now resolves to another type: a message added
to an imported file can shadow the one a field meant. So the changed files are compared with
every file that imports one of them (directly, or through a public import). The rule diff only
looks at the changed files' messages (a rule can only change where it is written); whether a
message is sent by clients or servers is still read from the whole images.

A comparison's findings are remembered under a hash of both images, the files compared and
every tool and configuration involved (.tmp/cache/comparisons): a second run of the gate on the
same tree compares nothing again.
"""

import argparse
import concurrent.futures
import hashlib
import os
import pathlib
import shutil
import subprocess
import sys

from google.protobuf import descriptor_pb2

# What else decides a comparison's findings.
TOOLS = ["buf.yaml", "versions.env", "package-lock.json", "scripts/gate/validation-diff.mjs", "scripts/gate/compare.py"]


def digest(path: pathlib.Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def affected(head: descriptor_pb2.FileDescriptorSet, changed: set[str]) -> list[str]:
    """The changed files that still exist, and every file that sees one of them through its
    imports (direct, or a public import chain)."""
    files = {f.name: f for f in head.file}
    visible: dict[str, set[str]] = {}

    def exported(name: str) -> set[str]:  # a file and what it re-exports by public import
        f = files.get(name)
        out = {name}
        if f is not None:
            for i in f.public_dependency:
                out |= exported(f.dependency[i])
        return out

    for name, f in files.items():
        visible[name] = set().union(*(exported(d) for d in f.dependency)) if f.dependency else set()
    return sorted(n for n in files if n in changed or visible[n] & changed)


def run(command: list[str], out: pathlib.Path, what: str) -> None:
    """Runs one tool; its findings (stdout) into out. Exit 100 means findings, as buf's."""
    with out.open("w") as sink:
        done = subprocess.run(command, stdout=sink, stderr=subprocess.PIPE, text=True)
    if done.returncode not in (0, 100):
        sys.stderr.write(done.stderr)
        raise SystemExit(f"compare: {what} failed (exit {done.returncode})")


def main() -> int:
    parser = argparse.ArgumentParser(prog="compare.py")
    parser.add_argument("--head", required=True, type=pathlib.Path)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    parser.add_argument("--cache", default=".tmp/cache/comparisons", type=pathlib.Path)
    parser.add_argument("--against", nargs=3, action="append", default=[], metavar=("NAME", "IMAGE", "CHANGED"))
    args = parser.parse_args()
    head_set: list[descriptor_pb2.FileDescriptorSet] = []  # read when a comparison must run

    def head() -> descriptor_pb2.FileDescriptorSet:
        if not head_set:
            head_set.append(descriptor_pb2.FileDescriptorSet.FromString(args.head.read_bytes()))
        return head_set[0]
    tools = hashlib.sha256("".join(digest(pathlib.Path(p)) for p in TOOLS if os.path.exists(p)).encode())
    tools.update(digest(args.head).encode())
    args.out.mkdir(parents=True, exist_ok=True)
    args.cache.mkdir(parents=True, exist_ok=True)

    def outputs(name: str) -> tuple[pathlib.Path, pathlib.Path]:
        return args.out / f"{name}.buf.jsonl", args.out / f"{name}.rules.jsonl"

    def key_of(image: str, changed: str) -> str:
        key = tools.copy()  # the files compared follow from the head image and CHANGED
        key.update(f"{digest(pathlib.Path(image))} {changed}".encode())
        return key.hexdigest()

    # What is already known: nothing changed, or the same comparison was made before.
    done, todo = [], []
    for name, image, changed in args.against:
        buf_out, rules_out = outputs(name)
        remembered = args.cache / key_of(image, changed)
        if changed == "NONE":
            buf_out.write_text("")
            rules_out.write_text("")
            done.append("nothing")
        elif (remembered / "rules.jsonl").is_file():
            shutil.copyfile(remembered / "buf.jsonl", buf_out)
            shutil.copyfile(remembered / "rules.jsonl", rules_out)
            remembered.touch()  # used now: what CI forgets is what went unused (pull-request.yml)
            done.append("remembered")
        else:
            todo.append((name, image, changed))

    def buf_breaking(name: str, image: str, changed: str) -> None:
        buf_out = outputs(name)[0]
        paths = [] if changed == "ALL" else affected(head(), set(changed.split(",")))
        if paths:  # a file the other side lacks is new: it has nothing to break, and buf refuses the path
            there = {f.name for f in descriptor_pb2.FileDescriptorSet.FromString(pathlib.Path(image).read_bytes()).file}
            paths = [p for p in paths if p in there]
        if changed != "ALL" and not paths:
            buf_out.write_text("")
            return
        run(["buf", "breaking", str(args.head), "--against", image, "--exclude-imports", "--config", "buf.yaml",
             "--error-format=json", *(a for p in paths for a in ("--path", p))], buf_out, f"buf breaking against {name}")

    if todo:
        # Every rule diff in one node process (the head read once), beside the buf comparisons.
        batch = args.out / "rules.batch"
        batch.write_text("".join(f"{image}\t{'-' if changed == 'ALL' else changed}\t{outputs(name)[1]}\n"
                                 for name, image, changed in todo))
        rules = subprocess.Popen(["node", "scripts/gate/validation-diff.mjs", "--head", str(args.head), "--batch", str(batch)],
                                 stderr=subprocess.PIPE, text=True)
        head()  # read before the threads need it
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            list(pool.map(lambda a: buf_breaking(*a), todo))
        _, errors = rules.communicate()
        if rules.returncode != 0:
            sys.stderr.write(errors)
            raise SystemExit(f"compare: the rule diff failed (exit {rules.returncode})")
        for name, image, changed in todo:
            key = key_of(image, changed)
            part = args.cache / f"{key}.{os.getpid()}.{name}.part"
            part.mkdir()
            for out, kept in zip(outputs(name), ("buf.jsonl", "rules.jsonl")):
                shutil.copyfile(out, part / kept)
            try:
                part.rename(args.cache / key)  # whole or not at all; another run may have got there first
            except OSError:
                shutil.rmtree(part)
            done.append("compared")
    kinds = {"nothing": "nothing changed since", "remembered": "remembered from an earlier run", "compared": "compared now"}
    counts = {label: sum(how.startswith(kind) for how in done) for kind, label in kinds.items()}
    print(f"compare: {len(done)} comparisons: " + ", ".join(f"{n} {label}" for label, n in counts.items() if n), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
