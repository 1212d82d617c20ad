package findings_test

import (
	"testing"
	"time"

	"github.com/acme/contracts/gate/exceptions"
	"github.com/acme/contracts/gate/findings"
	"github.com/acme/contracts/gate/gitrepo"
	"github.com/acme/contracts/gate/releases"
)

var today = time.Date(2026, 11, 25, 0, 0, 0, 0, time.UTC)

func f(rule, element string) findings.Finding {
	return findings.Finding{Rule: rule, Element: element, File: "a.proto", Line: 1}
}

// history: v0.3.0 accepted FIELD_NO_DELETE on Person; v0.2.0 and v0.1.0 accepted nothing.
var history = releases.Parse([]gitrepo.Tag{
	{Name: "v0.3.0", Commit: "c3", Message: "Release v0.3.0\n\nAccepted-Break: FIELD_NO_DELETE acme.person.v1.Person\n"},
	{Name: "v0.2.0", Commit: "c2", Message: "Release v0.2.0\n"},
	{Name: "v0.1.0", Commit: "c1", Message: "Release v0.1.0\n"},
})

func TestJudge(t *testing.T) {
	file := exceptions.Parse("x.yaml", []byte(`exceptions:
  - element: acme.person.v1.Person.name
    rule: VALIDATE_MAX_LEN_TIGHTENED
    reason: clients truncate
    expires: 2027-01-01
    review: https://example.invalid/1
`), exceptions.Known{})
	for _, c := range []struct {
		name        string
		sides       []findings.Side
		verdict     string
		breaks      []string
		refusedFor  []string
		waivedBy    string
		exceptionOK bool
	}{
		{"a break of the base is refused", []findings.Side{{Name: "base", Findings: []findings.Finding{f("FIELD_SAME_TYPE", "acme.person.v1.Person.age")}}},
			findings.Refused, []string{"base"}, []string{"base"}, "", false},
		{"an exception accepts its element and rule", []findings.Side{{Name: "base", Findings: []findings.Finding{f("VALIDATE_MAX_LEN_TIGHTENED", "acme.person.v1.Person.name")}}},
			findings.Accepted, []string{"base"}, nil, "", true},
		{"one finding against several sides is one finding", []findings.Side{
			{Name: "base", Findings: []findings.Finding{f("FIELD_SAME_TYPE", "acme.person.v1.Person.age")}},
			{Name: "v0.2.0", Findings: []findings.Finding{f("FIELD_SAME_TYPE", "acme.person.v1.Person.age")}}},
			findings.Refused, []string{"base", "v0.2.0"}, []string{"base", "v0.2.0"}, "", false},
		{"a break a newer release accepted is waived", []findings.Side{{Name: "v0.2.0", Findings: []findings.Finding{f("FIELD_NO_DELETE", "acme.person.v1.Person")}}},
			findings.Waived, []string{"v0.2.0"}, nil, "v0.3.0", false},
		{"the accepting release does not waive a break of itself", []findings.Side{{Name: "v0.3.0", Findings: []findings.Finding{f("FIELD_NO_DELETE", "acme.person.v1.Person")}}},
			findings.Refused, []string{"v0.3.0"}, []string{"v0.3.0"}, "", false},
		{"an accepted break waives nothing else", []findings.Side{{Name: "v0.1.0", Findings: []findings.Finding{f("FIELD_SAME_TYPE", "acme.person.v1.Person.nickname")}}},
			findings.Refused, []string{"v0.1.0"}, []string{"v0.1.0"}, "", false},
		{"a waiver never covers the base", []findings.Side{{Name: "base", Findings: []findings.Finding{f("FIELD_NO_DELETE", "acme.person.v1.Person")}}},
			findings.Refused, []string{"base"}, []string{"base"}, "", false},
		// v0.3.0's line names the message, as tags did before deletions were pinned to what they
		// deleted: it still waives the deletion it was written for, never against the base.
		{"a tag that names the holder waives the deletion under it", []findings.Side{{Name: "v0.2.0", Findings: []findings.Finding{deletion("acme.person.v1.Person.nickname", "acme.person.v1.Person")}}},
			findings.Waived, []string{"v0.2.0"}, nil, "v0.3.0", false},
		{"nor does a tag that names the holder", []findings.Side{{Name: "base", Findings: []findings.Finding{deletion("acme.person.v1.Person.age", "acme.person.v1.Person")}}},
			findings.Refused, []string{"base"}, []string{"base"}, "", false},
		{"a tag that names another holder waives nothing", []findings.Side{{Name: "v0.2.0", Findings: []findings.Finding{deletion("acme.person.v1.Address.city", "acme.person.v1.Address")}}},
			findings.Refused, []string{"v0.2.0"}, []string{"v0.2.0"}, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, used := findings.Judge(c.sides, file, history, today)
			if len(got) != 1 {
				t.Fatalf("%d findings", len(got))
			}
			g := got[0]
			if g.Verdict != c.verdict || !equal(g.Breaks, c.breaks) || !equal(g.RefusedFor, c.refusedFor) || g.WaivedBy != c.waivedBy {
				t.Errorf("got %s breaks %v refused for %v waived by %q", g.Verdict, g.Breaks, g.RefusedFor, g.WaivedBy)
			}
			if (g.Exception != nil) != c.exceptionOK || used[1] != c.exceptionOK {
				t.Errorf("exception %v, used %v", g.Exception, used)
			}
		})
	}
}

func deletion(element, holder string) findings.Finding {
	d := f("FIELD_NO_DELETE", element)
	d.Holder = holder
	return d
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAcceptedBreakLinesRoundTrip(t *testing.T) {
	lines := releases.Lines([]releases.Break{{Rule: "FIELD_NO_DELETE", Element: "acme.person.v1.Person"}, {Rule: "FIELD_NO_DELETE", Element: "acme.person.v1.Person"},
		{Rule: "VALIDATE_MAX_LEN_TIGHTENED", Element: "acme.person.v1.Person.name"}})
	want := "Accepted-Break: FIELD_NO_DELETE acme.person.v1.Person\nAccepted-Break: VALIDATE_MAX_LEN_TIGHTENED acme.person.v1.Person.name"
	if lines != want {
		t.Fatalf("lines %q", lines)
	}
	back := releases.Parse([]gitrepo.Tag{{Name: "v1.0.0", Message: "Release\n\n" + lines + "\n"}})
	if len(back[0].Accepted) != 2 || back[0].Accepted[1].Element != "acme.person.v1.Person.name" {
		t.Fatalf("read back %+v", back)
	}
}

func TestTheDocumentRefusesAnotherVersion(t *testing.T) {
	dir := t.TempDir()
	d := &findings.Document{Gate: "x"}
	if err := d.Write(dir + "/f.json"); err != nil {
		t.Fatal(err)
	}
	if _, err := findings.Read(dir + "/f.json"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ text, says string }{
		{`{"schema":"acme.gate.findings/v2"}`, "from another gate"},
		{`{"schema":"something else"}`, "is not a findings document"},
		{`not json`, "is not JSON"},
	} {
		path := dir + "/bad.json"
		writeFile(t, path, c.text)
		if _, err := findings.Read(path); err == nil || !contains(err.Error(), c.says) {
			t.Errorf("%s: %v", c.text, err)
		}
	}
}
