"""Caches that cannot lie (gate/cache).

What the gate remembers is keyed by the gate's own identity (the hash of its binaries) and
checked on every read: an entry written by a modified gate is never trusted by the real one,
and an entry that is corrupt, from a newer gate or not what its name says fails the run closed,
with one line naming it, instead of passing.
"""

import json
import pathlib
import subprocess

import pytest

from conftest import ROOT
from edits import RULES_BREAKING
from gate import commit, findings, gate, out_dir, output
from test_schema_changes import apply

TIGHTENED = RULES_BREAKING[0]
FOUND = {("VALIDATE_MAX_LEN_TIGHTENED", "acme.person.v1.Person.name", "refused")}


@pytest.fixture(scope="module")
def blind_gate(tmp_path_factory) -> pathlib.Path:
    """A gate built from modified code that never reports a breaking change: what a pull request
    that edits the gate could run once, to leave a "no findings" verdict behind."""
    work = tmp_path_factory.mktemp("blind")
    source = ROOT / "gate/bufcli/buf.go"
    text = source.read_text()
    anchor = "func (b Buf) Breaking(ctx context.Context, head, against, config string, paths []string) ([]Violation, error) {\n"
    assert text.count(anchor) == 1
    (work / "buf.go").write_text(text.replace(anchor, anchor + "\treturn nil, nil // sees nothing\n"))
    (work / "overlay.json").write_text(json.dumps({"Replace": {str(source): str(work / "buf.go")}}))
    binary = work / "gate"
    built = subprocess.run(["bash", "-c", f'source scripts/lib.sh && cd gate && go build -trimpath -overlay "{work}/overlay.json" -o "{binary}" ./cmd/gate'],
                           cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    return binary


def run_binary(repo: pathlib.Path, binary: pathlib.Path, cache: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", f'source scripts/lib.sh && exec "{binary}" check --schema-only'], cwd=repo,
                          capture_output=True, text=True, timeout=600,
                          env={**_env(), "GATE_CACHE": str(cache), "GATE_OUT": str(out_dir(repo))})


def _env():
    import os
    return {k: v for k, v in os.environ.items() if k not in ("BASE_REF", "GATE_OUT", "GATE_CACHE")}


def comparisons(cache: pathlib.Path) -> set[pathlib.Path]:
    return set((cache / "comparison").glob("*[0-9a-f]")) if (cache / "comparison").exists() else set()


def test_an_entry_written_by_a_modified_gate_is_not_trusted_by_the_real_one(clone, blind_gate, tmp_path):
    apply(clone, TIGHTENED)
    commit(clone, TIGHTENED.id)
    cache = tmp_path / "cache"
    blind = run_binary(clone, blind_gate, cache)
    assert blind.returncode == 0, output(blind)  # the modified gate passes the change …
    assert findings(clone) == set()
    written_by_blind = comparisons(cache)
    assert len(written_by_blind) == 1  # … and remembers "no findings"

    real = gate(clone, GATE_CACHE=str(cache))
    assert real.returncode != 0, output(real)  # the real gate compares again, and refuses
    assert findings(clone) == FOUND
    assert "1 comparisons: 1 compared now" in output(real)
    [real_entry] = comparisons(cache) - written_by_blind

    # Even under the real gate's key, the blind gate's entry is refused: its header names
    # another gate. The run fails closed, with one line naming the entry.
    real_entry.write_bytes(next(iter(written_by_blind)).read_bytes())
    forged = gate(clone, GATE_CACHE=str(cache))
    assert forged.returncode != 0
    errors = [l for l in output(forged).splitlines() if l.startswith("error:")]
    assert len(errors) == 1 and str(real_entry) in errors[0] and "was written by another gate" in errors[0], output(forged)
    # The entry is gone: the next run compares again and finds the change.
    again = gate(clone, GATE_CACHE=str(cache))
    assert again.returncode != 0 and findings(clone) == FOUND and "1 compared now" in output(again), output(again)


@pytest.mark.parametrize("spoil, says", [
    (lambda head, payload: head + b"\n" + payload.replace(b"[", b"[{}, ", 1), "is corrupt (its payload does not match its hash)"),
    (lambda head, payload: head.replace(b'"format":1', b'"format":2') + b"\n" + payload, "comes from a newer gate (format 2; this gate reads format 1)"),
    (lambda head, payload: b"not a cache entry", "has no header"),
], ids=["corrupt", "newer-gate", "garbage"])
def test_a_bad_cache_entry_fails_closed_naming_it(clone, tmp_path, spoil, says):
    apply(clone, TIGHTENED)
    commit(clone, TIGHTENED.id)
    cache = tmp_path / "cache"
    assert gate(clone, GATE_CACHE=str(cache)).returncode != 0
    [entry] = comparisons(cache)
    head, _, payload = entry.read_bytes().partition(b"\n")
    entry.write_bytes(spoil(head, payload))
    result = gate(clone, GATE_CACHE=str(cache))
    assert result.returncode != 0
    errors = [l for l in output(result).splitlines() if l.startswith("error:")]
    assert len(errors) == 1 and str(entry) in errors[0] and says in errors[0], output(result)
    assert not entry.exists()
