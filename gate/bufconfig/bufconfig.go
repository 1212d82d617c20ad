// Package bufconfig compares two versions of the buf.yaml that judges the contracts. That file
// says which files are the contracts (modules, excludes) and which changes break them (the
// breaking rules, their except and ignore lists, the check plugins): a change that edits it
// edits its own judge. The gate reports each changed setting as a finding of its own, which
// passes only with a reviewed exception naming that setting and its new value.
package bufconfig

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Rule is the findings' rule id.
const Rule = "BUF_CONFIG_CHANGED"

// File is the configuration compared, and the prefix of every element a finding names.
const File = "buf.yaml"

// Change is one setting that differs: its path in the file and its values, in YAML's flow style
// ("(none)" when absent).
type Change struct {
	Path, Before, After string
}

// Element names the change as exceptions name it: the setting and its new value, so that an
// exception accepts exactly this edit, not a later one of the same setting or of another.
func (c Change) Element() string { return File + ":" + c.Path + "=" + c.After }

// String is the change in words, for the report.
func (c Change) String() string { return c.Path + ": " + c.Before + " → " + c.After }

// IsElement says whether an exception's element names a change of the configuration.
func IsElement(name string) bool { return strings.HasPrefix(name, File+":") }

// Diff lists the settings that differ between two buf.yaml texts, ignoring comments, key order
// and layout; none when they configure the same. A text that is not YAML differs from any other
// text (buf itself refuses it; the gate must not read it as unchanged). An absent file is empty
// text.
func Diff(before, after []byte) []Change {
	var a, b any
	errA, errB := yaml.Unmarshal(before, &a), yaml.Unmarshal(after, &b)
	if errA != nil || errB != nil {
		if bytes.Equal(before, after) {
			return nil
		}
		return []Change{{Path: "(the whole file, not YAML on one side)", Before: digest(before), After: digest(after)}}
	}
	var out []Change
	diff("", a, b, &out)
	return out
}

// digest names a text that cannot be parsed by its hash.
func digest(text []byte) string {
	return fmt.Sprintf("sha256:%x", sha256.Sum256(text))[:19]
}

func diff(path string, a, b any, out *[]Change) {
	if reflect.DeepEqual(a, b) {
		return
	}
	// An absent mapping (a deleted file, a new section) is an empty one: each setting is named.
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if (aok || a == nil) && (bok || b == nil) {
		for _, k := range keysOf(am, bm) {
			diff(join(path, k), am[k], bm[k], out)
		}
		return
	}
	// Lists of modules are told apart by their path, so that one module's edit names that module.
	if al, bl, ok := modules(a, b); ok {
		for _, p := range keysOf(al, bl) {
			diff(fmt.Sprintf("%s[path: %s]", path, p), al[p], bl[p], out)
		}
		return
	}
	*out = append(*out, Change{Path: orTop(path), Before: show(a), After: show(b)})
}

// keysOf is every key of either mapping, sorted.
func keysOf(a, b map[string]any) []string {
	keys := append(slices.Collect(maps.Keys(a)), slices.Collect(maps.Keys(b))...)
	slices.Sort(keys)
	return slices.Compact(keys)
}

// modules indexes two lists of mappings by their "path" key, when every item has a distinct one.
func modules(a, b any) (map[string]any, map[string]any, bool) {
	index := func(v any) (map[string]any, bool) {
		if v == nil {
			return map[string]any{}, true
		}
		list, ok := v.([]any)
		if !ok {
			return nil, false
		}
		out := map[string]any{}
		for _, item := range list {
			m, ok := item.(map[string]any)
			if !ok {
				return nil, false
			}
			p, ok := m["path"].(string)
			if !ok || out[p] != nil {
				return nil, false
			}
			out[p] = m
		}
		return out, true
	}
	al, aok := index(a)
	bl, bok := index(b)
	if !aok || !bok || (a == nil && b == nil) {
		return nil, nil, false
	}
	return al, bl, true
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func orTop(path string) string {
	if path == "" {
		return "(the whole file)"
	}
	return path
}

// show prints a value on one line, in YAML's flow style.
func show(v any) string {
	if v == nil {
		return "(none)"
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	node := &yaml.Node{}
	if err := node.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	flow(node)
	if err := enc.Encode(node); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSpace(b.String())
}

func flow(n *yaml.Node) {
	n.Style |= yaml.FlowStyle
	for _, c := range n.Content {
		flow(c)
	}
}
