package bufconfig_test

import (
	"crypto/sha256"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/acme/contracts/gate/bufconfig"
)

const base = `# the contracts
version: v2
modules:
  - path: proto
  - path: .tmp/proto-deps
    breaking:
      use: [FILE]
breaking:
  use:
    - FILE
    - VALIDATE
plugins:
  - plugin: buf-plugin-protovalidate-breaking
`

func TestDiff(t *testing.T) {
	for _, c := range []struct {
		name, after string
		want        []string
	}{
		{"comments, layout and key order change nothing",
			"version: v2\nplugins: [{plugin: buf-plugin-protovalidate-breaking}]\nbreaking: {use: [FILE, VALIDATE]}\n" +
				"modules:\n  - path: proto # ours\n  - {path: .tmp/proto-deps, breaking: {use: [FILE]}}\n", nil},
		{"a rule dropped", replace(base, "    - VALIDATE\n", ""),
			[]string{"breaking.use: [FILE, VALIDATE] → [FILE]"}},
		{"an except list added", replace(base, "    - VALIDATE\n", "    - VALIDATE\n  except: [FIELD_NO_DELETE]\n"),
			[]string{"breaking.except: (none) → [FIELD_NO_DELETE]"}},
		{"a module's files excluded", replace(base, "  - path: proto\n", "  - path: proto\n    excludes: [proto/acme/auth]\n"),
			[]string{"modules[path: proto].excludes: (none) → [proto/acme/auth]"}},
		{"the plugin dropped", replace(base, "plugins:\n  - plugin: buf-plugin-protovalidate-breaking\n", ""),
			[]string{"plugins: [{plugin: buf-plugin-protovalidate-breaking}] → (none)"}},
		{"a module's own rules", replace(base, "      use: [FILE]\n", "      use: [WIRE]\n"),
			[]string{"modules[path: .tmp/proto-deps].breaking.use: [FILE] → [WIRE]"}},
		{"the file deleted", "",
			[]string{"breaking.use: [FILE, VALIDATE] → (none)", "modules[path: .tmp/proto-deps].breaking.use: [FILE] → (none)",
				"modules[path: .tmp/proto-deps].path: .tmp/proto-deps → (none)", "modules[path: proto].path: proto → (none)",
				"plugins: [{plugin: buf-plugin-protovalidate-breaking}] → (none)", "version: v2 → (none)"}},
		{"not YAML", "breaking: [\n", []string{"(the whole file, not YAML on one side): sha256:" + sha("base") + " → sha256:" + sha("breaking: [\n")}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, change := range bufconfig.Diff([]byte(base), []byte(c.after)) {
				got = append(got, change.String())
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("\n got %q\nwant %q", got, c.want)
			}
		})
	}
}

// sha is the digest's part of a text's name (base: the test's base text).
func sha(text string) string {
	if text == "base" {
		text = base
	}
	return fmt.Sprintf("%x", sha256.Sum256([]byte(text)))[:12]
}

// Each change is its own element, with its new value: an exception for one edit accepts no other.
func TestElement(t *testing.T) {
	changes := bufconfig.Diff([]byte(base), []byte(replace(replace(base, "    - VALIDATE\n", ""), "  - path: proto\n", "  - path: proto\n    excludes: [proto/acme/auth]\n")))
	var got []string
	for _, c := range changes {
		got = append(got, c.Element())
	}
	want := []string{"buf.yaml:breaking.use=[FILE]", "buf.yaml:modules[path: proto].excludes=[proto/acme/auth]"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if !bufconfig.IsElement(want[0]) || bufconfig.IsElement("acme.person.v1.Person") {
		t.Error("IsElement")
	}
}

func replace(s, old, new string) string {
	if !strings.Contains(s, old) {
		panic("no " + old + " in " + s)
	}
	return strings.Replace(s, old, new, 1)
}
