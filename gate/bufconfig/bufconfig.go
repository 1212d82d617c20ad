// Package bufconfig compares two versions of the buf.yaml that judges the contracts. That file
// says which files are the contracts (modules, excludes) and which changes break them (the
// breaking rules, their except and ignore lists, the check plugins): a change that edits it
// edits its own judge. The gate reports such an edit as a finding of its own, which passes
// only with a reviewed exception, like a breaking change.
package bufconfig

import (
	"bytes"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Rule is the finding's rule id; Element is what it names (exceptions name it so).
const (
	Rule    = "BUF_CONFIG_CHANGED"
	Element = "buf.yaml"
)

// Diff lists what differs between two buf.yaml texts, one line per changed setting ("path: before
// → after"), ignoring comments, key order and layout; none when they configure the same. A text
// that is not YAML differs from any other text (buf itself refuses it; the gate must not read it
// as unchanged). An absent file is empty text.
func Diff(before, after []byte) []string {
	var a, b any
	errA, errB := yaml.Unmarshal(before, &a), yaml.Unmarshal(after, &b)
	if errA != nil || errB != nil {
		if bytes.Equal(before, after) {
			return nil
		}
		return []string{"the file is not YAML on one side: compared as text, it differs"}
	}
	var out []string
	diff("", a, b, &out)
	return out
}

func diff(path string, a, b any, out *[]string) {
	if reflect.DeepEqual(a, b) {
		return
	}
	// An absent mapping (a deleted file, a new section) is an empty one: each setting is named.
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if (aok || a == nil) && (bok || b == nil) {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			diff(join(path, k), am[k], bm[k], out)
		}
		return
	}
	// Lists of modules are told apart by their path, so that one module's edit names that module.
	if al, bl, ok := modules(a, b); ok {
		paths := map[string]bool{}
		for p := range al {
			paths[p] = true
		}
		for p := range bl {
			paths[p] = true
		}
		sorted := make([]string, 0, len(paths))
		for p := range paths {
			sorted = append(sorted, p)
		}
		sort.Strings(sorted)
		for _, p := range sorted {
			diff(fmt.Sprintf("%s[path: %s]", path, p), al[p], bl[p], out)
		}
		return
	}
	*out = append(*out, fmt.Sprintf("%s: %s → %s", orTop(path), show(a), show(b)))
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
		return "the whole file"
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
