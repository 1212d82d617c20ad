package findings

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/acme/contracts/gate/exceptions"
	"github.com/acme/contracts/gate/releases"
)

// Schema names this version of the document; a reader refuses any other.
const Schema = "acme.gate.findings/v1"

// Document is everything one gate run found, for whatever reads it next.
type Document struct {
	Schema string `json:"schema"`
	// Gate is the identity (binary hash) of the gate that wrote it.
	Gate string `json:"gate"`
	Head Head   `json:"head"`
	// Base is what the change was compared with (nil when there was nothing to compare with).
	Base     *Base            `json:"base,omitempty"`
	Releases releases.History `json:"releases"`
	Findings []Finding        `json:"findings"`
	// Exceptions: the entries used, the file's problems, and this change's edits to it.
	Exceptions ExceptionReport `json:"exceptions"`
	// Version is what the change implies for the SDKs' version, against the base.
	Version *Version `json:"version,omitempty"`
	Checks  []Check  `json:"checks"`
}

// Head is what was checked: the working tree at a commit.
type Head struct {
	Commit string `json:"commit,omitempty"`
}

// Base is the commit the working tree was compared with, and why that one.
type Base struct {
	Commit string `json:"commit"`
	Why    string `json:"why"`
}

// ExceptionReport is what became of the exceptions file.
type ExceptionReport struct {
	Path     string             `json:"path"`
	Used     []exceptions.Entry `json:"used"`
	Problems []string           `json:"problems"`
	Edits    []string           `json:"edits"`
}

// Bumps: what a change means for the SDKs' version.
const (
	BumpBreaking  = "breaking"
	BumpAdditions = "additions"
	BumpPatch     = "patch"
	BumpNone      = "none"
)

// Version is the bump a change implies against the base, and the elements it added and removed.
type Version struct {
	Bump    string   `json:"bump"`
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
}

// Check is one check's result.
type Check struct {
	Name    string  `json:"name"`
	OK      bool    `json:"ok"`
	Seconds float64 `json:"seconds"`
	// Detail says what failed, or why the check did nothing.
	Detail string `json:"detail,omitempty"`
}

// Refused lists the findings that fail the gate.
func (d *Document) Refused() []Finding {
	var out []Finding
	for _, f := range d.Findings {
		if f.Verdict == Refused {
			out = append(out, f)
		}
	}
	return out
}

// Failed lists the checks that failed.
func (d *Document) Failed() []string {
	var out []string
	for _, c := range d.Checks {
		if !c.OK {
			out = append(out, c.Name)
		}
	}
	return out
}

// Write writes the document (whole or not at all).
func (d *Document) Write(path string) error {
	d.Schema = Schema
	// Lists are written as lists, never null, so a reader need not tell the two apart.
	if d.Findings == nil {
		d.Findings = []Finding{}
	}
	if d.Releases == nil {
		d.Releases = releases.History{}
	}
	for _, l := range []*[]string{&d.Exceptions.Problems, &d.Exceptions.Edits} {
		if *l == nil {
			*l = []string{}
		}
	}
	if d.Exceptions.Used == nil {
		d.Exceptions.Used = []exceptions.Entry{}
	}
	data, err := json.MarshalIndent(d, "", " ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".part"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// Read reads a document, refusing one of another version.
func Read(path string) (*Document, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read findings: %w", err)
	}
	var probe struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("findings document %s is not JSON: %v", path, err)
	}
	if probe.Schema != Schema {
		newer := strings.HasPrefix(probe.Schema, "acme.gate.findings/")
		if newer {
			return nil, fmt.Errorf("findings document %s is %s, from another gate; this gate reads %s", path, probe.Schema, Schema)
		}
		return nil, fmt.Errorf("%s is not a findings document of the gate (schema %q)", path, probe.Schema)
	}
	d := &Document{}
	if err := json.Unmarshal(data, d); err != nil {
		return nil, fmt.Errorf("findings document %s: %v", path, err)
	}
	return d, nil
}
