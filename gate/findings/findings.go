// Package findings is the gate's result: every breaking finding of a change against the base
// and every release, each pinned to the element it concerns and judged (refused, accepted by an
// exception, or waived by a release that accepted it), written once as a versioned JSON document
// that everything else reads — the report, the pull-request comment, `make release` and the
// CHANGELOG.
package findings

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/acme/contracts/gate/bufcli"
	"github.com/acme/contracts/gate/exceptions"
	"github.com/acme/contracts/gate/image"
	"github.com/acme/contracts/gate/releases"
	"github.com/acme/contracts/gate/rulediff"
)

// Verdicts.
const (
	Refused  = "refused"
	Accepted = "accepted"
	Waived   = "waived"
)

// Sources: which checker found it.
const (
	SourceBuf      = "buf"
	SourceValidate = "validate"
	// SourceGate: the gate itself (an edit of buf.yaml); its File is the repository's path.
	SourceGate = "gate"
)

// BaseSide names the base in a finding's Breaks.
const BaseSide = "base"

// Finding is one breaking change (a rule on an element), with every side it breaks.
type Finding struct {
	Rule    string `json:"rule"`
	Element string `json:"element"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
	Source  string `json:"source"`
	// Breaks lists the sides it breaks: "base" and release tags, newest first.
	Breaks []string `json:"breaks"`
	// Verdict is refused, accepted (by Exception) or waived (by the release WaivedBy).
	Verdict   string            `json:"verdict"`
	Exception *exceptions.Entry `json:"exception,omitempty"`
	WaivedBy  string            `json:"waived_by,omitempty"`
	// RefusedFor lists the sides for which it is refused.
	RefusedFor []string `json:"refused_for,omitempty"`
	// Holder is, for a deletion, what buf pointed at (the message a field was deleted from),
	// where Element names what was deleted.
	Holder string `json:"holder,omitempty"`
}

// Pin turns buf's violation into a finding pinned to its element: the innermost declaration at
// its position in the head, or in the base for what the change deleted (or the file itself). A
// deletion buf reports at what held the deleted element is pinned to that element, read from
// the base (see deleted).
func Pin(v bufcli.Violation, head, base *image.Image) Finding {
	f := Finding{Rule: v.Type, File: v.Path, Line: v.StartLine, Column: v.StartColumn, Message: v.Message, Source: SourceBuf}
	if rulediff.IsRuleID(v.Type) {
		f.Source = SourceValidate
	}
	for _, im := range []*image.Image{head, base} {
		if im != nil && f.Element == "" {
			f.Element = im.Index().At(v.Path, v.StartLine, v.StartColumn)
		}
	}
	if f.Element == "" && v.Path == "" {
		// A deleted file has no position: buf names it in the message.
		if m := quotedProto.FindStringSubmatch(v.Message); m != nil {
			f.File, f.Element = m[1], m[1]
		}
	}
	if f.Element == "" {
		f.Element = v.Path
	}
	if name := deleted(v, f.Element, base); name != "" {
		f.Holder, f.Element = f.Element, name
	}
	return f
}

var quotedProto = regexp.MustCompile(`"([^"]+\.proto)"`)

// WaivedBy is the release newer than tag that accepted this finding ("" when none did). A tag
// made before deletions were pinned to what they deleted names the holder instead ("Accepted-
// Break: FIELD_NO_DELETE acme.person.v1.Person"); it still waives, against the releases before
// it, every deletion under that holder by that rule — the one it was written for among them. A
// later deletion passes nothing by it: it also breaks the base, which is never waived.
func WaivedBy(h releases.History, tag string, f Finding) string {
	if by := h.WaivedBy(tag, releases.Break{Rule: f.Rule, Element: f.Element}); by != "" || f.Holder == "" {
		return by
	}
	return h.WaivedBy(tag, releases.Break{Rule: f.Rule, Element: f.Holder})
}

// Key identifies a finding across sides: one rule on one element.
func (f Finding) Key() string { return f.Rule + " " + f.Element }

// Location is file:line:column, as buf prints it.
func (f Finding) Location() string {
	return f.File + ":" + strconv.Itoa(f.Line) + ":" + strconv.Itoa(f.Column)
}

// VerdictText says the verdict in words.
func (f Finding) VerdictText() string {
	switch f.Verdict {
	case Accepted:
		return "accepted by exception until " + f.Exception.Until + ": " + f.Exception.Reason + " (" + f.Exception.Review + ")"
	case Waived:
		return "waived: " + f.WaivedBy + " accepted this break"
	}
	var releases []string
	for _, s := range f.RefusedFor {
		if s != BaseSide {
			releases = append(releases, s)
		}
	}
	if len(releases) == len(f.RefusedFor) && len(releases) > 0 {
		return "refused: it breaks the clients of " + strings.Join(releases, ", ")
	}
	return "refused"
}

// BreaksText names the sides it breaks.
func (f Finding) BreaksText(baseName string) string {
	parts := make([]string, len(f.Breaks))
	for i, s := range f.Breaks {
		parts[i] = s
		if s == BaseSide {
			parts[i] = "the base " + baseName
		}
	}
	return strings.Join(parts, ", ")
}
