// Package versions keeps versions.env the one place a version is chosen. Maven POMs,
// package.json files, requirements files, workflows and the consumer templates need literal
// versions of their own; Pins lists each of them, where it lives and which versions.env key it
// must equal. Check reports every pin that differs; Write writes versions.env's values into
// them. A pin that cannot be found is an error in both modes, so a renamed property cannot
// silently leave the table.
package versions

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// Pin is one version in one file: the pattern's group 2 is the version, groups 1 and 3 its
// frame. Every pins all matches (at least one); otherwise exactly one must match.
type Pin struct {
	Path    string
	Pattern string
	Key     string
	Every   bool
}

// Read parses versions.env.
func Read(root string) (map[string]string, error) {
	data, err := os.ReadFile(filepath.Join(root, "versions.env"))
	if err != nil {
		return nil, fmt.Errorf("read versions.env: %w", err)
	}
	out := map[string]string{}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, _ := strings.Cut(line, "=")
		out[k] = v
	}
	return out, nil
}

// Result is what Run found or wrote.
type Result struct {
	Pins, Files int
	// Wrong lists each pin that differs ("  path: found where KEY=value").
	Wrong []string
	// Written lists the files Write changed.
	Written []string
}

// Run checks (write false) or writes every pin under the path prefix only.
func Run(root, only string, write bool) (*Result, error) {
	v, err := Read(root)
	if err != nil {
		return nil, err
	}
	table, err := Pins(root)
	if err != nil {
		return nil, err
	}
	texts := map[string]string{}
	originals := map[string]string{}
	var order []string
	res := &Result{}
	for _, pin := range table {
		if !strings.HasPrefix(pin.Path, only) {
			continue
		}
		res.Pins++
		text, ok := texts[pin.Path]
		if !ok {
			data, err := os.ReadFile(filepath.Join(root, pin.Path))
			if err != nil {
				return nil, fmt.Errorf("versions: %w", err)
			}
			text = string(data)
			originals[pin.Path] = text
			order = append(order, pin.Path)
		}
		value, ok := v[pin.Key]
		if !ok {
			return nil, fmt.Errorf("versions: %s is not in versions.env", pin.Key)
		}
		re, err := regexp.Compile("(?m)" + pin.Pattern)
		if err != nil {
			return nil, fmt.Errorf("versions: %s: %v", pin.Path, err)
		}
		matches := re.FindAllStringSubmatch(text, -1)
		if len(matches) == 0 || (!pin.Every && len(matches) != 1) {
			want := "one"
			if pin.Every {
				want = "a"
			}
			return nil, fmt.Errorf("versions: %s: expected %s match of %q, found %d", pin.Path, want, pin.Pattern, len(matches))
		}
		for _, m := range matches {
			if m[2] != value {
				res.Wrong = append(res.Wrong, fmt.Sprintf("  %s: %s where %s=%s", pin.Path, m[2], pin.Key, value))
			}
		}
		texts[pin.Path] = re.ReplaceAllStringFunc(text, func(s string) string {
			m := re.FindStringSubmatch(s)
			return m[1] + value + m[3]
		})
	}
	res.Files = len(order)
	if write {
		for _, p := range order {
			if texts[p] != originals[p] {
				if err := os.WriteFile(filepath.Join(root, p), []byte(texts[p]), 0o644); err != nil {
					return nil, err
				}
				res.Written = append(res.Written, p)
			}
		}
	}
	return res, nil
}
