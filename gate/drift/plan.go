// Package drift is the generated-code drift gate: gen/ must be exactly what `buf generate` makes
// of the contracts. Regenerating a whole tree on every run costs seconds per thousand files,
// almost all of it on packages nobody touched, so the tree is split into units and each unit's
// output is remembered under a key of everything that can change it; a unit whose key was seen
// before is not regenerated, its remembered output is what gen/ must hold.
//
//   - A unit is a set of proto packages (directories) whose generated files share an output
//     folder: a directory's TypeScript and Python output sits beside its proto path, its Java
//     output in its java_package's folder, so two directories with one java_package are one
//     unit. The imported files that are not ours (buf/validate, well-known types) are one more.
//   - A unit's key is a hash of its files and of every file they import, transitively (ours by
//     content, the others by descriptor), and of the generator: the template, buf.yaml, the
//     pinned versions and whatever else Options.Generator names.
//   - The units not seen before are regenerated together (every plugin runs once, as in `make
//     gen`), in batches that bound the memory buf and its plugins need; every file written is
//     assigned to the unit owning its folder and remembered under that unit's key.
//   - gen/'s output folders (the plugins' out, files git does not ignore) must then hold exactly
//     the union of every unit's files: a file that differs, is missing, or belongs to no unit
//     (hand-made, or left from a deleted package) is drift.
//
// Whenever an assumption fails — a plugin writes outside the folders its unit owns, two units
// claim one file with different content, a regenerated file disagrees with a unit's remembered
// output — the cache is not used: the whole tree is regenerated and compared.
package drift

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/acme/contracts/gate/image"
	"go.yaml.in/yaml/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

// plugin is where one plugin of the template writes, and how it lays its files out.
type plugin struct {
	out    string
	layout string // java, python or proto (beside the proto's own path)
}

// template is what the gate needs of buf.gen.yaml.
type template struct {
	source  string // the input directory (proto)
	plugins []plugin
}

func readTemplate(root, name string) (template, error) {
	data, err := os.ReadFile(filepath.Join(root, name))
	if err != nil {
		return template{}, fmt.Errorf("read %s: %w", name, err)
	}
	var raw struct {
		Inputs []struct {
			Directory string `yaml:"directory"`
		} `yaml:"inputs"`
		Plugins []map[string]any `yaml:"plugins"`
	}
	if err := yaml.Unmarshal(data, &raw); err != nil {
		return template{}, fmt.Errorf("%s: %v", name, err)
	}
	if len(raw.Inputs) != 1 || raw.Inputs[0].Directory == "" {
		return template{}, fmt.Errorf("%s: the drift gate needs exactly one input directory", name)
	}
	t := template{source: raw.Inputs[0].Directory}
	for _, p := range raw.Plugins {
		out, _ := p["out"].(string)
		var id string
		for _, k := range []string{"protoc_builtin", "local", "remote"} {
			if s, ok := p[k].(string); ok {
				id = path.Base(s)
			}
		}
		layout := "proto"
		switch {
		case strings.Contains(id, "java"):
			layout = "java"
		case strings.Contains(id, "python") || id == "pyi":
			layout = "python"
		}
		t.plugins = append(t.plugins, plugin{out: out, layout: layout})
	}
	return t, nil
}

// folder is the folder a file's generated code lands in. Java: its java_package's (or
// package's). Python: its module path — protoc turns every '.' of the file's path into a folder
// and '-' into '_' (googleapis' google/cloud/run/v2/k8s.min.proto is k8s/min_pb2.py). Others:
// beside the proto's own path.
func folder(f *descriptorpb.FileDescriptorProto, layout string) string {
	switch layout {
	case "java":
		pkg := f.GetOptions().GetJavaPackage()
		if pkg == "" {
			pkg = f.GetPackage()
		}
		return strings.ReplaceAll(pkg, ".", "/")
	case "python":
		name := strings.TrimSuffix(f.GetName(), ".proto")
		return path.Dir(strings.ReplaceAll(strings.ReplaceAll(name, "-", "_"), ".", "/"))
	}
	return path.Dir(f.GetName())
}

// plan is the units of one tree, their keys and the output folders each owns.
type plan struct {
	tpl     template
	files   map[string]*descriptorpb.FileDescriptorProto
	local   map[string]bool     // the tree's own files (under the source directory)
	members map[string][]string // unit → its files
	keys    map[string]string   // unit → key
	owner   map[[2]string]string
}

func newPlan(root string, im *image.Image, tpl template, generator string) (*plan, error) {
	p := &plan{tpl: tpl, files: map[string]*descriptorpb.FileDescriptorProto{}, local: map[string]bool{},
		members: map[string][]string{}, keys: map[string]string{}, owner: map[[2]string]string{}}
	content := map[string]string{}
	for _, f := range im.Set.GetFile() {
		p.files[f.GetName()] = f
		data, err := os.ReadFile(filepath.Join(root, tpl.source, f.GetName()))
		if err == nil {
			p.local[f.GetName()] = true
			content[f.GetName()] = sum(data)
			continue
		}
		d, err := proto.MarshalOptions{Deterministic: true}.Marshal(f)
		if err != nil {
			return nil, err
		}
		content[f.GetName()] = sum(d)
	}
	group := func(name string) string {
		if p.local[name] {
			return "dir:" + path.Dir(name)
		}
		return "imports"
	}
	parent := map[string]string{}
	var find func(string) string
	find = func(x string) string {
		if _, ok := parent[x]; !ok {
			parent[x] = x
		}
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	names := make([]string, 0, len(p.files))
	for n := range p.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		for _, pl := range tpl.plugins {
			k := [2]string{pl.out, folder(p.files[name], pl.layout)}
			if o, ok := p.owner[k]; ok {
				parent[find(group(name))] = find(o)
			} else {
				p.owner[k] = group(name)
				find(group(name))
			}
		}
	}
	for k, v := range p.owner {
		p.owner[k] = find(v)
	}
	for _, name := range names {
		u := find(group(name))
		p.members[u] = append(p.members[u], name)
	}
	closure := map[string]map[string]bool{}
	var imports func(string) map[string]bool
	imports = func(name string) map[string]bool {
		if c, ok := closure[name]; ok {
			return c
		}
		c := map[string]bool{name: true}
		closure[name] = c
		for _, dep := range p.files[name].GetDependency() {
			for d := range imports(dep) {
				c[d] = true
			}
		}
		return c
	}
	for unit, files := range p.members {
		needed := map[string]bool{}
		for _, n := range files {
			for d := range imports(n) {
				needed[d] = true
			}
		}
		lines := []string{generator}
		for _, n := range sortedKeys(needed) {
			lines = append(lines, n+" "+content[n])
		}
		p.keys[unit] = sum([]byte(strings.Join(lines, "\n") + "\n" + unit))
	}
	return p, nil
}

// name is how a unit is shown: its directories.
func (p *plan) name(unit string) string {
	var out []string
	for _, g := range sortedKeys(p.groups(unit)) {
		if g == "imports" {
			out = append(out, "(imported files)")
		} else {
			out = append(out, strings.TrimPrefix(g, "dir:"))
		}
	}
	return strings.Join(out, ", ")
}

func (p *plan) groups(unit string) map[string]bool {
	out := map[string]bool{}
	for _, n := range p.members[unit] {
		if p.local[n] {
			out["dir:"+path.Dir(n)] = true
		} else {
			out["imports"] = true
		}
	}
	return out
}

// ownerOf is the unit whose folder holds a generated file (a path relative to the root).
func (p *plan) ownerOf(file string) string {
	for _, pl := range p.tpl.plugins {
		if rest, ok := strings.CutPrefix(file, pl.out+"/"); ok {
			if u, ok := p.owner[[2]string{pl.out, path.Dir(rest)}]; ok {
				return u
			}
		}
	}
	return ""
}

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
