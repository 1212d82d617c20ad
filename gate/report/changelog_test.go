package report_test

import (
	"strings"
	"testing"

	"github.com/acme/contracts/gate/exceptions"
	"github.com/acme/contracts/gate/findings"
	"github.com/acme/contracts/gate/report"
)

func TestTheChangelogNamesEveryReleaseABreakBreaks(t *testing.T) {
	doc := &findings.Document{
		Version: &findings.Version{Bump: "additions", Added: []string{"acme.person.v1.Person.age_text"}, Removed: []string{}},
		Findings: []findings.Finding{
			// Only an earlier release sees this break: the latest release already lacked field 3.
			{Rule: "FIELD_SAME_TYPE", Element: "acme.person.v1.Person.age_text", Message: "changed type", Breaks: []string{"v0.2.0", "v0.1.0"}, Verdict: findings.Refused},
			{Rule: "VALIDATE_MAX_LEN_TIGHTENED", Element: "acme.person.v1.Person.name", Message: "tightened", Breaks: []string{"base", "v0.2.0"}, Verdict: findings.Accepted,
				Exception: &exceptions.Entry{Reason: "clients truncate"}},
			{Rule: "FIELD_NO_DELETE", Element: "acme.person.v1.Person", Message: "deleted", Breaks: []string{"v0.1.0"}, Verdict: findings.Waived, WaivedBy: "v0.3.0"},
		},
	}
	got := report.Changelog(doc, report.Release{Tag: "v0.4.0", Previous: "v0.3.0", Date: "2026-11-25", Kind: "breaking", Reason: "reuse agreed"})
	for _, want := range []string{
		"## v0.4.0 — 2026-11-25",
		"Breaking changes since v0.3.0, released with a reason: reuse agreed",
		"### Added\n\n- `acme.person.v1.Person.age_text`",
		"- `FIELD_SAME_TYPE` `acme.person.v1.Person.age_text` (breaks the clients of v0.2.0, v0.1.0): changed type",
		"- `VALIDATE_MAX_LEN_TIGHTENED` `acme.person.v1.Person.name` (breaks the clients of v0.3.0, v0.2.0): tightened (accepted by exception: clients truncate)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "FIELD_NO_DELETE") {
		t.Errorf("a break an earlier release accepted is listed again:\n%s", got)
	}
}

func TestTheFirstReleaseHasNoFindings(t *testing.T) {
	got := report.Changelog(nil, report.Release{Tag: "v0.1.0", Date: "2026-11-25", Kind: "first"})
	if got != "## v0.1.0 — 2026-11-25\n\nThe first release.\n" {
		t.Errorf("%q", got)
	}
}
