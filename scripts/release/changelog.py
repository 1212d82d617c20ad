"""changelog.py SUMMARY.json TAG PREVIOUS KIND REASON [OLD_CLIENTS.md] — the CHANGELOG.md section
of a release, from the breaking check's summary of the descriptor diff (gate/breaking-report.py):
what was added and removed, every breaking finding with its rule, with the reason it was
accepted, and the cases in which clients of earlier releases fail against it (a list of
Markdown lines; only a breaking release can have any)."""

import datetime
import json
import sys

summary_path, tag, previous, kind, reason = sys.argv[1:6]
old_clients = open(sys.argv[6]).read().strip() if len(sys.argv) > 6 else ""
s = json.load(open(summary_path))
what = {
    "first": "The first release.",
    "breaking": f"Breaking changes since {previous}, released with a reason: {reason}",
    "additions": f"Additions since {previous}; nothing breaks.",
    "patch": f"Comments or options changed since {previous}; nothing else.",
}[kind]
out = [f"## {tag} — {datetime.date.today().isoformat()}", "", what, ""]
if s["added"]:
    out += ["### Added", ""] + [f"- `{name}`" for name in s["added"]] + [""]
if s["removed"]:
    out += ["### Removed", ""] + [f"- `{name}`" for name in s["removed"]] + [""]
if s["findings"]:
    out += ["### Breaking", ""] + [
        f"- `{f['rule']}` `{f['element']}`: {f['message']}" + (" (accepted by exception)" if f["accepted"] else "")
        for f in s["findings"]] + [""]
if old_clients:
    out += ["### Clients of earlier releases that fail against this one", "", old_clients, ""]
print("\n".join(out))
