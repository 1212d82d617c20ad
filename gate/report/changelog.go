package report

import (
	"fmt"
	"strings"

	"github.com/acme/contracts/gate/findings"
)

// Release is what a CHANGELOG section needs besides the findings.
type Release struct {
	Tag, Previous, Date string
	// Kind is first, breaking, additions or patch.
	Kind   string
	Reason string
	// OldClients lists, as Markdown lines, the cases in which clients of earlier releases fail.
	OldClients string
}

// Breaks are a release's breaking findings: every finding no earlier release accepted, against
// the latest release and against each earlier one. An edit of buf.yaml is none: it breaks no
// client (it is judged, by its own exception, before it reaches the base).
func Breaks(d *findings.Document) []findings.Finding {
	var out []findings.Finding
	for _, f := range d.Findings {
		if f.Verdict != findings.Waived && f.Source != findings.SourceGate {
			out = append(out, f)
		}
	}
	return out
}

// Changelog is a release's CHANGELOG section: what it added and removed, and every break with
// the releases whose clients it breaks and, when accepted, why.
func Changelog(d *findings.Document, r Release) string {
	what := map[string]string{
		"first":     "The first release.",
		"breaking":  fmt.Sprintf("Breaking changes since %s, released with a reason: %s", r.Previous, r.Reason),
		"additions": fmt.Sprintf("Additions since %s; nothing breaks.", r.Previous),
		"patch":     fmt.Sprintf("Comments or options changed since %s; nothing else.", r.Previous),
	}[r.Kind]
	out := []string{fmt.Sprintf("## %s — %s", r.Tag, r.Date), "", what, ""}
	if d != nil && d.Version != nil && r.Kind != "first" {
		if len(d.Version.Added) > 0 {
			out = append(out, "### Added", "")
			for _, n := range d.Version.Added {
				out = append(out, "- `"+n+"`")
			}
			out = append(out, "")
		}
		if len(d.Version.Removed) > 0 {
			out = append(out, "### Removed", "")
			for _, n := range d.Version.Removed {
				out = append(out, "- `"+n+"`")
			}
			out = append(out, "")
		}
	}
	if d != nil && r.Kind != "first" {
		if breaks := Breaks(d); len(breaks) > 0 {
			out = append(out, "### Breaking", "")
			for _, f := range breaks {
				var sides []string
				for _, s := range f.Breaks {
					if s == findings.BaseSide {
						s = r.Previous
					}
					if !contains(sides, s) {
						sides = append(sides, s)
					}
				}
				line := fmt.Sprintf("- `%s` `%s` (breaks the clients of %s): %s", f.Rule, f.Element, strings.Join(sides, ", "), f.Message)
				if f.Verdict == findings.Accepted {
					line += " (accepted by exception: " + f.Exception.Reason + ")"
				}
				out = append(out, line)
			}
			out = append(out, "")
		}
	}
	if strings.TrimSpace(r.OldClients) != "" {
		out = append(out, "### Clients of earlier releases that fail against this one", "", strings.TrimSpace(r.OldClients), "")
	}
	return strings.Join(out, "\n")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
