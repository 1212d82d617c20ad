package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

type workflow struct {
	On   yaml.Node `yaml:"on"`
	Jobs map[string]struct {
		Steps []struct {
			Name string `yaml:"name"`
			Uses string `yaml:"uses"`
			If   string `yaml:"if"`
		} `yaml:"steps"`
	} `yaml:"jobs"`
}

// cacheProblems lists every step of a workflow through which a pull request could write a
// cache that later runs restore: actions/cache (which saves at the end of any run it restored
// in) in a workflow pull requests trigger, and actions/cache/save not limited to pushes to main.
func cacheProblems(t *testing.T, name string, data []byte) []string {
	t.Helper()
	var w workflow
	if err := yaml.Unmarshal(data, &w); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var triggers []string
	switch w.On.Kind {
	case yaml.ScalarNode:
		triggers = []string{w.On.Value}
	case yaml.SequenceNode:
		for _, n := range w.On.Content {
			triggers = append(triggers, n.Value)
		}
	case yaml.MappingNode:
		for i := 0; i < len(w.On.Content); i += 2 {
			triggers = append(triggers, w.On.Content[i].Value)
		}
	}
	pullRequests := false
	for _, tr := range triggers {
		pullRequests = pullRequests || strings.HasPrefix(tr, "pull_request")
	}
	var out []string
	for job, j := range w.Jobs {
		for _, s := range j.Steps {
			action, _, _ := strings.Cut(s.Uses, "@")
			switch {
			case action == "actions/cache" && pullRequests:
				out = append(out, name+": "+job+": "+s.Name+": actions/cache saves after a pull request's run; restore with actions/cache/restore")
			case action == "actions/cache/save" && !(strings.Contains(s.If, "github.event_name == 'push'") && strings.Contains(s.If, "github.ref == 'refs/heads/main'")):
				out = append(out, name+": "+job+": "+s.Name+": saves without being limited to pushes to main")
			}
		}
	}
	return out
}

func TestPullRequestsOnlyRestoreCaches(t *testing.T) {
	files, err := filepath.Glob("../../../.github/workflows/*.yml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no workflows found (%v)", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range cacheProblems(t, filepath.Base(f), data) {
			t.Error(p)
		}
	}
}

func TestTheCachePolicyRefusesWhatPoisonedTheCache(t *testing.T) {
	for name, text := range map[string]string{
		"restore and save on pull requests": `on:
  pull_request:
jobs:
  gate:
    steps:
      - name: Restore
        uses: actions/cache@9255dc7a253b0ccc959486e2bca901246202afeb
`,
		"save on any event": `on: [push, pull_request]
jobs:
  gate:
    steps:
      - name: Save
        if: always()
        uses: actions/cache/save@9255dc7a253b0ccc959486e2bca901246202afeb
`,
	} {
		if len(cacheProblems(t, name, []byte(text))) == 0 {
			t.Errorf("%s: not refused", name)
		}
	}
	safe := `on:
  pull_request:
  push:
jobs:
  gate:
    steps:
      - uses: actions/cache/restore@9255dc7a253b0ccc959486e2bca901246202afeb
      - if: always() && github.event_name == 'push' && github.ref == 'refs/heads/main'
        uses: actions/cache/save@9255dc7a253b0ccc959486e2bca901246202afeb
`
	if p := cacheProblems(t, "safe", []byte(safe)); len(p) > 0 {
		t.Errorf("a restore-only workflow refused: %v", p)
	}
}
