package drift

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/acme/contracts/gate/cache"
	"github.com/acme/contracts/gate/image"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Options say where the tree is and what decides its generated code.
type Options struct {
	Root     string // the repository's root
	Template string // buf.gen.yaml, relative to Root
	// Image is the tree's compiled image (its path, and decoded).
	ImagePath string
	Image     *image.Image
	// Generator lists the files besides the protos that decide what generation writes (the
	// template, buf.yaml, the versions, the plugins' adapters), relative to Root.
	Generator []string
	Cache     cache.Store
	// BatchFiles bounds how many proto files one buf generate is given: buf and every plugin
	// hold a whole batch in memory at once.
	BatchFiles int
	// Buf is the buf executable ("buf" when empty).
	Buf string
}

// Result is the drift gate's verdict.
type Result struct {
	// Problems: one line per file that is not what generation writes.
	Problems []string
	// Files is how many generated files gen/ holds.
	Files int
	// How says what was regenerated and what came from the cache.
	How string
}

// errUntrusted says the cache cannot be used this time, and why.
type errUntrusted struct{ why string }

func (e errUntrusted) Error() string { return e.why }

// Check compares gen/ with what the tree generates.
func Check(ctx context.Context, o Options) (*Result, error) {
	if o.BatchFiles <= 0 {
		o.BatchFiles = 2000
	}
	tpl, err := readTemplate(o.Root, o.Template)
	if err != nil {
		return nil, err
	}
	generator := []string{}
	for _, g := range o.Generator {
		generator = append(generator, g+" "+cache.FileHash(filepath.Join(o.Root, g)))
	}
	p, err := newPlan(o.Root, o.Image, tpl, strings.Join(generator, "\n"))
	if err != nil {
		return nil, err
	}
	scratch, err := os.MkdirTemp(scratchRoot(), "gate-drift-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	res := &Result{}
	expected, regenerated, err := expectedOutput(ctx, o, p, scratch)
	var untrusted errUntrusted
	switch {
	case errors.As(err, &untrusted):
		fmt.Fprintf(os.Stderr, "drift gate: the cache is not used this time (%s); regenerating everything\n", untrusted.why)
		expected, err = generate(ctx, o, p, filepath.Join(scratch, "all"), p.localDirs())
		if err != nil {
			return nil, err
		}
		res.How = "whole tree regenerated"
	case err != nil:
		return nil, err
	default:
		res.How = fmt.Sprintf("%d units, %d from the cache, regenerated %d", len(p.keys), len(p.keys)-len(regenerated), len(regenerated))
		if len(regenerated) > 0 && len(regenerated) <= 5 {
			var names []string
			for _, u := range regenerated {
				names = append(names, p.name(u))
			}
			sort.Strings(names)
			res.How += ": " + strings.Join(names, "; ")
		}
	}
	var outs []string
	for _, pl := range tpl.plugins {
		outs = append(outs, pl.out)
	}
	actual, err := committed(ctx, o.Root, outs)
	if err != nil {
		return nil, err
	}
	res.Files = len(actual)
	all := map[string]bool{}
	for f := range expected {
		all[f] = true
	}
	for f := range actual {
		all[f] = true
	}
	for _, f := range sortedKeys(all) {
		want, generated := expected[f]
		have, present := actual[f]
		switch {
		case !present:
			res.Problems = append(res.Problems, "  "+f+"  (missing: generation writes it)")
		case !generated:
			res.Problems = append(res.Problems, "  "+f+"  (generation does not write it: stale or hand-made)")
		case want != have:
			res.Problems = append(res.Problems, "  "+f+"  (differs from what generation writes)")
		}
	}
	return res, nil
}

// expectedOutput is what gen/ must hold, and the units regenerated to know it.
func expectedOutput(ctx context.Context, o Options, p *plan, scratch string) (map[string]string, []string, error) {
	remembered := map[string]map[string]string{}
	for unit, key := range p.keys {
		data, ok, err := o.Cache.Get("drift", o.Cache.Key("drift", key))
		if err != nil {
			return nil, nil, err
		}
		if ok {
			files := map[string]string{}
			if err := json.Unmarshal(data, &files); err != nil {
				return nil, nil, fmt.Errorf("cache entry %s: %w", o.Cache.Path("drift", o.Cache.Key("drift", key)), err)
			}
			remembered[unit] = files
		}
	}
	var missing []string
	for unit := range p.keys {
		if _, ok := remembered[unit]; !ok {
			missing = append(missing, unit)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		// The imported files cannot be named to buf by directory: when their unit is missing,
		// everything is generated.
		everything := len(missing) == len(p.keys)
		for _, u := range missing {
			if groups := p.groups(u); len(groups) == 1 && groups["imports"] {
				everything = true
			}
		}
		dirs := p.localDirs()
		if !everything {
			set := map[string]bool{}
			for _, u := range missing {
				for _, n := range p.members[u] {
					if p.local[n] {
						set[path.Dir(n)] = true
					}
				}
			}
			dirs = sortedKeys(set)
		}
		written, err := generate(ctx, o, p, filepath.Join(scratch, "units"), dirs)
		if err != nil {
			return nil, nil, err
		}
		fresh := map[string]map[string]string{}
		for f, digest := range written {
			u := p.ownerOf(f)
			if u == "" {
				return nil, nil, errUntrusted{f + " was generated outside every unit's folders"}
			}
			if fresh[u] == nil {
				fresh[u] = map[string]string{}
			}
			fresh[u][f] = digest
		}
		for u, files := range fresh {
			if old, ok := remembered[u]; ok {
				for f, d := range files {
					if old[f] != d {
						return nil, nil, errUntrusted{"the remembered output of " + p.name(u) + " disagrees with a regeneration"}
					}
				}
			}
		}
		if everything {
			missing = sortedKeys(p.keys)
		}
		for _, u := range missing {
			files := fresh[u]
			if files == nil {
				files = map[string]string{}
			}
			remembered[u] = files
			data, _ := json.Marshal(files)
			if err := o.Cache.Put("drift", o.Cache.Key("drift", p.keys[u]), data); err != nil {
				return nil, nil, err
			}
		}
	}
	expected := map[string]string{}
	for u, files := range remembered {
		for f, d := range files {
			if old, ok := expected[f]; ok && old != d {
				return nil, nil, errUntrusted{"two units disagree on " + f + " (" + p.name(u) + ")"}
			}
			expected[f] = d
		}
	}
	return expected, missing, nil
}

// localDirs lists every directory of the tree's own files.
func (p *plan) localDirs() []string {
	set := map[string]bool{}
	for n := range p.local {
		set[path.Dir(n)] = true
	}
	return sortedKeys(set)
}

// generate runs buf generate for the given directories, in batches of at most BatchFiles
// files, into scratch; it returns every file written (as it would be under the root) with its
// hash.
func generate(ctx context.Context, o Options, p *plan, scratch string, dirs []string) (map[string]string, error) {
	count := map[string]int{}
	for n := range p.local {
		count[path.Dir(n)]++
	}
	var batches [][]string
	var batch []string
	size := 0
	for _, d := range dirs {
		if len(batch) > 0 && size+count[d] > o.BatchFiles {
			batches = append(batches, batch)
			batch, size = nil, 0
		}
		batch = append(batch, d)
		size += count[d]
	}
	if len(batch) > 0 {
		batches = append(batches, batch)
	}
	written := map[string]string{}
	if err := os.MkdirAll(scratch, 0o755); err != nil {
		return nil, err
	}
	bin := o.Buf
	if bin == "" {
		bin = "buf"
	}
	for i, b := range batches {
		out := filepath.Join(scratch, fmt.Sprint(i))
		// Each batch gets an image of its own files and what they import: buf reads (and holds)
		// only that, not the whole tree once per batch.
		sub, err := p.subImage(b, filepath.Join(scratch, fmt.Sprintf("batch-%d.binpb", i)))
		if err != nil {
			return nil, err
		}
		args := []string{"generate", sub, "--template", o.Template, "-o", out}
		for _, d := range b {
			args = append(args, "--path", d)
		}
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Dir = o.Root
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("buf generate failed: %s", firstLine(stderr.String(), err.Error()))
		}
		_ = os.Remove(sub)
		err = filepath.WalkDir(out, func(f string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(f)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(out, f)
			written[filepath.ToSlash(rel)] = sum(data)
			return nil
		})
		if err != nil {
			return nil, err
		}
		// A batch's output is read; the next one needs the disk, not this.
		_ = os.RemoveAll(out)
	}
	return written, nil
}

// committed is gen/'s output folders as they are now: every file git does not ignore.
func committed(ctx context.Context, root string, outs []string) (map[string]string, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"ls-files", "-z", "--cached", "--others", "--exclude-standard", "--"}, outs...)...)
	cmd.Dir = root
	listed, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git ls-files: %w", err)
	}
	found := map[string]string{}
	for _, f := range strings.Split(string(listed), "\x00") {
		if f == "" {
			continue
		}
		path := filepath.Join(root, f)
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			// A tracked file deleted from disk is simply missing; a link to nothing is there.
			if _, lerr := os.Lstat(path); errors.Is(lerr, fs.ErrNotExist) {
				continue
			}
		}
		if err != nil {
			// Skipped, an unreadable file nothing generates would pass as absent.
			return nil, fmt.Errorf("drift: %w", err)
		}
		found[f] = sum(data)
	}
	return found, nil
}

func firstLine(s, fallback string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return fallback
}

// subImage writes an image of the files in the given directories and everything they import,
// dependencies first, as buf orders an image.
func (p *plan) subImage(dirs []string, out string) (string, error) {
	want := map[string]bool{}
	for _, d := range dirs {
		want[d] = true
	}
	set := &descriptorpb.FileDescriptorSet{}
	seen := map[string]bool{}
	var add func(name string)
	add = func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		f := p.files[name]
		if f == nil {
			return
		}
		for _, dep := range f.GetDependency() {
			add(dep)
		}
		set.File = append(set.File, f)
	}
	for _, name := range sortedKeys(p.files) {
		if p.local[name] && want[path.Dir(name)] {
			add(name)
		}
	}
	data, err := proto.Marshal(set)
	if err != nil {
		return "", err
	}
	return out, os.WriteFile(out, data, 0o644)
}

// scratchRoot is where generated code is written before it is hashed: memory (/dev/shm) when
// the machine has it — tens of thousands of small files cost far less there than on disk — or
// the temporary folder (GATE_SCRATCH chooses).
func scratchRoot() string {
	if dir := os.Getenv("GATE_SCRATCH"); dir != "" {
		return dir
	}
	if probe, err := os.MkdirTemp("/dev/shm", "gate-probe-"); err == nil {
		os.Remove(probe)
		return "/dev/shm"
	}
	return ""
}
