// Package report renders the findings document for people: the lines `make check` prints, the
// Markdown of the pull-request comment and job summary, GitHub's annotations on the proto lines,
// and a release's CHANGELOG section. It reads only the document.
package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/acme/contracts/gate/findings"
)

// Marker starts the report; the pull-request comment is found again by it.
const Marker = "<!-- contracts-gate-report -->"

// BumpText says what a bump means for the SDKs' version (semver; while 0.x a break is a minor).
func BumpText(bump string) string {
	switch bump {
	case findings.BumpBreaking:
		return "breaking: the next major version (while 0.x: the next minor)"
	case findings.BumpAdditions:
		return "additions: the next minor version"
	case findings.BumpPatch:
		return "comments or options only: the next patch version"
	}
	return "no change to the contracts: no release"
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

// Bases says what the working tree was compared with.
func Bases(d *findings.Document) string {
	var parts []string
	if d.Base != nil {
		parts = append(parts, fmt.Sprintf("base %s (%s)", short(d.Base.Commit), d.Base.Why))
	} else {
		parts = append(parts, "no base (nothing to compare with yet)")
	}
	if len(d.Releases) == 0 {
		parts = append(parts, "no release yet")
	} else {
		var tags []string
		for _, r := range d.Releases {
			tags = append(tags, r.Tag)
		}
		parts = append(parts, fmt.Sprintf("%d releases (%s)", len(d.Releases), strings.Join(tags, ", ")))
	}
	return strings.Join(parts, "; ")
}

// Text is the report `make check` prints: one line per finding, the exceptions file's problems
// and edits, and a summary.
func Text(d *findings.Document) string {
	var out []string
	baseName := ""
	if d.Base != nil {
		baseName = short(d.Base.Commit)
	}
	for _, f := range d.Findings {
		out = append(out, fmt.Sprintf("%s:%s %s [%s] — breaks %s — %s", f.Location(), f.Rule, f.Message, f.Element, f.BreaksText(baseName), f.VerdictText()))
	}
	for _, p := range d.Exceptions.Problems {
		out = append(out, "exceptions file: "+p)
	}
	for _, e := range d.Exceptions.Edits {
		out = append(out, "exceptions file changed: "+e)
	}
	var buf, validate, config, accepted, refused, waived int
	for _, f := range d.Findings {
		switch f.Source {
		case findings.SourceValidate:
			validate++
		case findings.SourceGate:
			config++
		default:
			buf++
		}
		switch f.Verdict {
		case findings.Accepted:
			accepted++
		case findings.Refused:
			refused++
		case findings.Waived:
			waived++
		}
	}
	gate := ""
	if config > 0 {
		gate = fmt.Sprintf(", %d in buf.yaml's settings", config)
	}
	summary := fmt.Sprintf("breaking changes: %d found (%d by buf, %d in validation rules%s), %d accepted by exception, %d waived by a release, %d refused",
		len(d.Findings), buf, validate, gate, accepted, waived, refused)
	if d.Version != nil {
		summary += "; version: " + BumpText(d.Version.Bump)
	}
	return strings.Join(append(out, summary), "\n")
}

// Annotations are GitHub Actions' workflow commands: an error on each refused finding's line,
// a notice on each accepted one. protoRoot is the module's folder (buf reports module paths).
func Annotations(d *findings.Document, protoRoot string) string {
	var out []string
	for _, f := range d.Findings {
		file := protoRoot + "/" + f.File
		if f.Source == findings.SourceGate {
			file = f.File
		}
		switch f.Verdict {
		case findings.Refused:
			out = append(out, fmt.Sprintf("::error file=%s,line=%d,col=%d::%s: %s", file, f.Line, f.Column, f.Rule, f.Message))
		case findings.Accepted:
			out = append(out, fmt.Sprintf("::notice file=%s,line=%d,col=%d::%s accepted by exception: %s", file, f.Line, f.Column, f.Rule, f.Exception.Reason))
		}
	}
	return strings.Join(out, "\n")
}

// Markdown is the pull request's report: the verdict, the version the change implies, the
// findings by rule, what was refused, accepted or waived, the exceptions file, and each check.
func Markdown(d *findings.Document) string {
	refused := d.Refused()
	var accepted, waived []findings.Finding
	for _, f := range d.Findings {
		switch f.Verdict {
		case findings.Accepted:
			accepted = append(accepted, f)
		case findings.Waived:
			waived = append(waived, f)
		}
	}
	verdict := fmt.Sprintf("✅ none refused (%d accepted by exception)", len(accepted))
	if len(refused) > 0 || len(d.Exceptions.Problems) > 0 {
		verdict = fmt.Sprintf("❌ %d refused", len(refused))
		if len(d.Exceptions.Problems) > 0 {
			verdict += ", the exceptions file is wrong"
		}
	}
	out := []string{Marker, "## Contracts gate", "", "**Breaking changes:** " + verdict + "  "}
	if d.Version != nil {
		out = append(out, "**Version this change implies:** "+BumpText(d.Version.Bump)+"  ")
	}
	out = append(out, "**Compared with:** "+Bases(d), "")
	byRule := map[string]int{}
	for _, f := range d.Findings {
		byRule[f.Rule]++
	}
	if len(byRule) > 0 {
		rules := make([]string, 0, len(byRule))
		for r := range byRule {
			rules = append(rules, r)
		}
		sort.Strings(rules)
		out = append(out, "| rule | findings |", "|---|---:|")
		for _, r := range rules {
			out = append(out, fmt.Sprintf("| `%s` | %d |", r, byRule[r]))
		}
		out = append(out, "")
	}
	if len(refused) > 0 {
		out = append(out, "### Refused", "")
		for _, f := range refused {
			out = append(out, fmt.Sprintf("- `%s:%d` `%s` `%s` (breaks %s): %s", f.File, f.Line, f.Rule, f.Element, strings.Join(f.RefusedFor, ", "), f.Message))
		}
		out = append(out, "")
	}
	if len(accepted) > 0 {
		out = append(out, "### Accepted by exception", "")
		for _, f := range accepted {
			out = append(out, fmt.Sprintf("- `%s` `%s`: %s (until %s, %s)", f.Element, f.Rule, f.Exception.Reason, f.Exception.Until, f.Exception.Review))
		}
		out = append(out, "")
	}
	if len(waived) > 0 {
		out = append(out, "### Waived by a release that accepted them", "")
		for _, f := range waived {
			out = append(out, fmt.Sprintf("- `%s` `%s` (breaks %s): accepted by %s", f.Element, f.Rule, strings.Join(f.Breaks, ", "), f.WaivedBy))
		}
		out = append(out, "")
	}
	if len(d.Exceptions.Problems) > 0 {
		out = append(out, "### The exceptions file", "")
		for _, p := range d.Exceptions.Problems {
			out = append(out, "- "+p)
		}
		out = append(out, "")
	}
	if len(d.Exceptions.Edits) > 0 {
		out = append(out, "### Exceptions changed by this pull request", "", "```diff")
		out = append(out, d.Exceptions.Edits...)
		out = append(out, "```", "")
	}
	if len(d.Findings) == 0 && len(d.Exceptions.Problems) == 0 {
		out = append(out, "No breaking change: buf's FILE rules and the validation rules agree.", "")
	}
	if len(d.Checks) > 0 {
		out = append(out, "| check | result |", "|---|---|")
		for _, c := range d.Checks {
			result := "pass"
			if !c.OK {
				result = "**FAIL**"
			}
			if c.Detail != "" {
				result += " — " + c.Detail
			}
			out = append(out, fmt.Sprintf("| %s | %s |", c.Name, result))
		}
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}
