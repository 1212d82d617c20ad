package exceptions_test

import (
	"strings"
	"testing"
	"time"

	"github.com/acme/contracts/gate/exceptions"
)

var today = time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC)

var known = exceptions.Known{
	Rule:    func(r string) bool { return r == "FIELD_SAME_TYPE" || r == "VALIDATE_MAX_LEN_TIGHTENED" },
	Element: func(e string) bool { return strings.HasPrefix(e, "acme.person.v1.") },
}

const good = `exceptions:
  - element: acme.person.v1.Person.name
    rule: VALIDATE_MAX_LEN_TIGHTENED
    reason: every client truncates names to 100 characters
    expires: 2027-03-31
    review: https://github.com/acme/contracts/pull/123
`

func TestMatch(t *testing.T) {
	f := exceptions.Parse("x.yaml", []byte(good), known)
	if len(f.Problems) > 0 {
		t.Fatal(f.Problems)
	}
	for _, c := range []struct {
		name          string
		element, rule string
		when          time.Time
		match         bool
	}{
		{"the entry's element and rule", "acme.person.v1.Person.name", "VALIDATE_MAX_LEN_TIGHTENED", today, true},
		{"another rule on the element", "acme.person.v1.Person.name", "FIELD_SAME_TYPE", today, false},
		{"the rule on another element", "acme.person.v1.Person.age", "VALIDATE_MAX_LEN_TIGHTENED", today, false},
		{"on its last day", "acme.person.v1.Person.name", "VALIDATE_MAX_LEN_TIGHTENED", time.Date(2027, 3, 31, 23, 59, 0, 0, time.UTC), true},
		{"the day after it expired", "acme.person.v1.Person.name", "VALIDATE_MAX_LEN_TIGHTENED", time.Date(2027, 4, 1, 0, 0, 0, 0, time.UTC), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := f.Match(c.element, c.rule, c.when) != nil; got != c.match {
				t.Errorf("match = %v, want %v", got, c.match)
			}
		})
	}
}

func TestAudit(t *testing.T) {
	f := exceptions.Parse("x.yaml", []byte(good), known)
	for _, c := range []struct {
		name string
		used bool
		when time.Time
		want string
	}{
		{"used and unexpired", true, today, ""},
		{"unused", false, today, "x.yaml: entry 1 (acme.person.v1.Person.name, VALIDATE_MAX_LEN_TIGHTENED) matches no finding any more: delete it"},
		{"expired", true, time.Date(2027, 4, 2, 0, 0, 0, 0, time.UTC), "x.yaml: entry 1 (acme.person.v1.Person.name, VALIDATE_MAX_LEN_TIGHTENED) expired on 2027-03-31: renew it with a new review, or make the change safe"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := strings.Join(f.Audit(map[int]bool{1: c.used}, c.when), "\n")
			if got != c.want {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
}

func TestMalformedFilesFailClosed(t *testing.T) {
	entry := func(replace, with string) string { return strings.Replace(good, replace, with, 1) }
	for _, c := range []struct{ name, text, says string }{
		{"not YAML", "exceptions: [", "x.yaml: not YAML: "},
		{"a list at the top", "- a\n", "must be a mapping with one key, exceptions"},
		{"an unknown top-level key", good + "owners: [me]\n", `x.yaml: unknown key "owners"`},
		{"an entry that is not a mapping", "exceptions:\n  - just text\n", "x.yaml: entry 1: must be a mapping of element, expires, reason, review, rule"},
		{"missing keys", "exceptions:\n  - element: acme.person.v1.Person.name\n", "entry 1 (acme.person.v1.Person.name, ?): missing expires, reason, review, rule"},
		{"an unknown key", entry("    review:", "    approved_by: me\n    review:"), "unknown approved_by"},
		{"a date that is not a date", entry("2027-03-31", "next spring"), `expires must be a date (YYYY-MM-DD), not "next spring"`},
		{"an unknown rule", entry("VALIDATE_MAX_LEN_TIGHTENED", "FIELD_SAME_TYPO"), `unknown rule "FIELD_SAME_TYPO"`},
		{"an element that does not exist", entry("acme.person.v1.Person.name", "acme.auth.v1.Nope"), `no element "acme.auth.v1.Nope"`},
		{"no review link", entry("https://github.com/acme/contracts/pull/123", "in chat"), "needs a reason and a review link"},
		{"a value that is a list", entry("reason: every client truncates names to 100 characters", "reason: [a, b]"), "reason must be a single value"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := exceptions.Parse("x.yaml", []byte(c.text), known)
			if len(f.Entries) != 0 {
				t.Errorf("an entry was accepted: %+v", f.Entries)
			}
			if len(f.Problems) != 1 || !strings.Contains(f.Problems[0], c.says) || strings.Contains(f.Problems[0], "\n") {
				t.Errorf("problems %q, want one line with %q", f.Problems, c.says)
			}
		})
	}
}

func TestAnEmptyFileAcceptsNothing(t *testing.T) {
	for _, text := range []string{"", "exceptions: []\n", "exceptions:\n", "# only a comment\n"} {
		f := exceptions.Parse("x.yaml", []byte(text), known)
		if len(f.Problems) != 0 || len(f.Entries) != 0 {
			t.Errorf("%q: problems %v, entries %v", text, f.Problems, f.Entries)
		}
	}
}

func TestEdits(t *testing.T) {
	before := exceptions.Parse("x.yaml", []byte(good), exceptions.Known{})
	after := exceptions.Parse("x.yaml", []byte(strings.Replace(good, "2027-03-31", "2027-06-30", 1)), exceptions.Known{})
	got := exceptions.Edits(before, after)
	want := []string{
		"+ acme.person.v1.Person.name VALIDATE_MAX_LEN_TIGHTENED (until 2027-06-30): every client truncates names to 100 characters",
		"- acme.person.v1.Person.name VALIDATE_MAX_LEN_TIGHTENED (until 2027-03-31): every client truncates names to 100 characters",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("edits %q", got)
	}
	if len(exceptions.Edits(before, before)) != 0 {
		t.Error("an unchanged file has edits")
	}
}
