// Package exceptions reads the breaking changes a repository accepts on purpose
// (proto/breaking-exceptions.yaml): each entry names exactly one element and one rule, with a
// reason, an expiry date and the review that agreed. A finding is accepted only by an
// unexpired entry naming its element and its rule. The file is judged too, and fails closed:
// a malformed file or entry, an unknown key, a date that is not a date, an unknown rule or an
// element that does not exist is a problem (one line naming the entry); so are an expired entry
// and an entry that no finding uses any more, so the file cleans itself.
package exceptions

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Entry is one accepted break.
type Entry struct {
	Element string    `json:"element"`
	Rule    string    `json:"rule"`
	Reason  string    `json:"reason"`
	Expires time.Time `json:"-"`
	Review  string    `json:"review"`
	// Until is Expires as written (YYYY-MM-DD).
	Until string `json:"expires"`
	// N is the entry's position in the file, from 1.
	N int `json:"entry"`
}

func (e Entry) String() string { return fmt.Sprintf("entry %d (%s, %s)", e.N, e.Element, e.Rule) }

// File is the exceptions file: its valid entries, and one line per problem.
type File struct {
	Path     string
	Entries  []Entry
	Problems []string
	// parsed says the file itself could be read (entries may still be wrong).
	parsed bool
}

var entryKeys = []string{"element", "expires", "reason", "review", "rule"}

// Known says which rules and elements exist, to refuse an entry that names neither.
type Known struct {
	Rule    func(string) bool
	Element func(string) bool
}

// Load reads the file at path (a missing file has no entries).
func Load(path string, known Known) *File {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return &File{Path: path, parsed: true}
	}
	if err != nil {
		return &File{Path: path, Problems: []string{fmt.Sprintf("%s: cannot be read: %v", path, err)}}
	}
	return Parse(path, data, known)
}

// Parse reads an exceptions file from its bytes.
func Parse(path string, data []byte, known Known) *File {
	f := &File{Path: path}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		f.Problems = append(f.Problems, fmt.Sprintf("%s: not YAML: %s", path, firstLine(err.Error())))
		return f
	}
	if len(doc.Content) == 0 {
		f.parsed = true
		return f // an empty file accepts nothing
	}
	root := doc.Content[0]
	var list *yaml.Node
	if root.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value != "exceptions" {
				f.Problems = append(f.Problems, fmt.Sprintf("%s: unknown key %q (the file has one key, exceptions: a list of entries)", path, root.Content[i].Value))
				return f
			}
			list = root.Content[i+1]
		}
	}
	if root.Kind != yaml.MappingNode || (list != nil && list.Kind != yaml.SequenceNode && !(list.Kind == yaml.ScalarNode && list.Tag == "!!null")) {
		f.Problems = append(f.Problems, fmt.Sprintf("%s: must be a mapping with one key, exceptions: a list of entries", path))
		return f
	}
	f.parsed = true
	if list == nil || list.Kind != yaml.SequenceNode {
		return f
	}
	for i, node := range list.Content {
		if e, problem := entry(i+1, node, known); problem != "" {
			f.Problems = append(f.Problems, path+": "+problem)
		} else {
			f.Entries = append(f.Entries, e)
		}
	}
	return f
}

func entry(n int, node *yaml.Node, known Known) (Entry, string) {
	e := Entry{N: n}
	where := fmt.Sprintf("entry %d", n)
	if node.Kind != yaml.MappingNode {
		return e, where + ": must be a mapping of " + strings.Join(entryKeys, ", ")
	}
	values := map[string]string{}
	var unknown []string
	for i := 0; i+1 < len(node.Content); i += 2 {
		k, v := node.Content[i].Value, node.Content[i+1]
		if !contains(entryKeys, k) {
			unknown = append(unknown, k)
			continue
		}
		if v.Kind != yaml.ScalarNode {
			return e, fmt.Sprintf("%s: %s must be a single value", where, k)
		}
		values[k] = v.Value
	}
	e.Element, e.Rule, e.Reason, e.Review, e.Until = values["element"], values["rule"], values["reason"], values["review"], values["expires"]
	where = fmt.Sprintf("entry %d (%s, %s)", n, orUnknown(e.Element), orUnknown(e.Rule))
	var missing []string
	for _, k := range entryKeys {
		if _, ok := values[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 || len(unknown) > 0 {
		var parts []string
		if len(missing) > 0 {
			parts = append(parts, "missing "+strings.Join(missing, ", "))
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			parts = append(parts, "unknown "+strings.Join(unknown, ", "))
		}
		return e, where + ": " + strings.Join(parts, "; ")
	}
	expires, err := time.Parse("2006-01-02", e.Until)
	switch {
	case err != nil:
		return e, fmt.Sprintf("%s: expires must be a date (YYYY-MM-DD), not %q", where, e.Until)
	case known.Rule != nil && !known.Rule(e.Rule):
		return e, fmt.Sprintf("%s: unknown rule %q (a buf breaking rule, or a VALIDATE_… rule of the plugin)", where, e.Rule)
	case known.Element != nil && !known.Element(e.Element):
		return e, fmt.Sprintf("%s: no element %q in the contracts (a fully-qualified name, e.g. acme.person.v1.Person.name)", where, e.Element)
	case strings.TrimSpace(e.Reason) == "" || !strings.HasPrefix(e.Review, "https://"):
		return e, where + ": needs a reason and a review link (https://…)"
	}
	e.Expires = expires
	return e, ""
}

// Match is the unexpired entry that accepts a finding of rule on element (nil when none does).
func (f *File) Match(element, rule string, today time.Time) *Entry {
	for i := range f.Entries {
		e := &f.Entries[i]
		if e.Element == element && e.Rule == rule && !e.Expired(today) {
			return e
		}
	}
	return nil
}

// Expired says whether the entry's last day has passed.
func (e Entry) Expired(today time.Time) bool {
	return e.Expires.Before(day(today))
}

func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// Audit lists the problems of entries that are valid but wrong now: expired, or used by no
// finding (used holds the entries' N).
func (f *File) Audit(used map[int]bool, today time.Time) []string {
	var out []string
	for _, e := range f.Entries {
		switch {
		case e.Expired(today):
			out = append(out, fmt.Sprintf("%s: %s expired on %s: renew it with a new review, or make the change safe", f.Path, e, e.Until))
		case !used[e.N]:
			out = append(out, fmt.Sprintf("%s: %s matches no finding any more: delete it", f.Path, e))
		}
	}
	return out
}

// Edits lists the entries a change added to the file (+) or removed from it (-).
func Edits(before, after *File) []string {
	key := func(e Entry) string {
		return fmt.Sprintf("%s %s (until %s): %s", e.Element, e.Rule, e.Until, e.Reason)
	}
	in := func(f *File) map[string]bool {
		out := map[string]bool{}
		if f != nil {
			for _, e := range f.Entries {
				out[key(e)] = true
			}
		}
		return out
	}
	old, now := in(before), in(after)
	var out []string
	if after != nil {
		for _, e := range after.Entries {
			if !old[key(e)] {
				out = append(out, "+ "+key(e))
			}
		}
	}
	if before != nil {
		for _, e := range before.Entries {
			if !now[key(e)] {
				out = append(out, "- "+key(e))
			}
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
