// Package releases is the release history the gate compares every change with: the release
// tags (v*), newest first, and the breaks each release accepted with a reason. `make release`
// records each accepted break as an "Accepted-Break: RULE ELEMENT" line of its tag's message
// (Lines writes them, Parse reads them); a finding against an earlier release is then waived
// when a newer release accepted exactly that rule on exactly that element — the same break
// seen again from further back — and nothing else is.
package releases

import (
	"sort"
	"strings"

	"github.com/acme/contracts/gate/gitrepo"
)

// Pattern selects the release tags.
const Pattern = "v[0-9]*"

const trailer = "Accepted-Break: "

// Break is one accepted break: a rule on an element.
type Break struct {
	Rule    string `json:"rule"`
	Element string `json:"element"`
}

// Release is one release tag.
type Release struct {
	Tag      string  `json:"tag"`
	Commit   string  `json:"commit"`
	Accepted []Break `json:"accepted_breaks,omitempty"`
}

// History is every release, newest first.
type History []Release

// Parse reads the releases from their tags (newest first, as gitrepo.Tags lists them).
func Parse(tags []gitrepo.Tag) History {
	out := make(History, 0, len(tags))
	for _, t := range tags {
		r := Release{Tag: t.Name, Commit: t.Commit}
		for _, line := range strings.Split(t.Message, "\n") {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), trailer); ok {
				rule, element, _ := strings.Cut(strings.TrimSpace(rest), " ")
				if rule != "" && element != "" {
					r.Accepted = append(r.Accepted, Break{Rule: rule, Element: strings.TrimSpace(element)})
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// WaivedBy is the release newer than the given one that accepted this break ("" when none did).
func (h History) WaivedBy(tag string, b Break) string {
	for _, r := range h {
		if r.Tag == tag {
			return ""
		}
		for _, a := range r.Accepted {
			if a == b {
				return r.Tag
			}
		}
	}
	return ""
}

// Lines are the tag message lines that record accepted breaks, one per break, sorted.
func Lines(breaks []Break) string {
	seen := map[Break]bool{}
	var lines []string
	for _, b := range breaks {
		if !seen[b] {
			seen[b] = true
			lines = append(lines, trailer+b.Rule+" "+b.Element)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
