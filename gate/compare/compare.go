// Package compare runs `buf breaking` of a head image against other images — buf's rules and
// those of the check plugins the configuration names (our VALIDATE_… rules among them) — and
// returns typed findings pinned to the elements they concern. A comparison covers only the
// files that can hold a finding, and is remembered.
package compare

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/acme/contracts/gate/bufcli"
	"github.com/acme/contracts/gate/cache"
	"github.com/acme/contracts/gate/findings"
	"github.com/acme/contracts/gate/image"
	"google.golang.org/protobuf/proto"
)

// Comparer compares with one configuration.
type Comparer struct {
	Buf bufcli.Buf
	// Config is the buf.yaml whose breaking rules and plugins judge.
	Config string
	// Cache remembers comparisons (nil: none is remembered); Salt is a digest of everything
	// besides the images and files compared that decides a comparison (the configuration, the
	// tools' versions).
	Cache *cache.Store
	Salt  string
}

// Images compares two images whole: the API for a caller that holds two schemas (a schema
// registry, a tool) rather than a repository.
func (c Comparer) Images(ctx context.Context, base, head *image.Image) ([]findings.Finding, error) {
	dir, err := os.MkdirTemp("", "gate-compare-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	paths := [2]string{filepath.Join(dir, "base.binpb"), filepath.Join(dir, "head.binpb")}
	for i, im := range []*image.Image{base, head} {
		data, err := proto.Marshal(im.Set)
		if err != nil {
			return nil, fmt.Errorf("write image %s: %w", im.Name, err)
		}
		if err := os.WriteFile(paths[i], data, 0o644); err != nil {
			return nil, err
		}
	}
	violations, err := c.Buf.Breaking(ctx, paths[1], paths[0], c.Config, nil)
	if err != nil {
		return nil, err
	}
	out := make([]findings.Finding, len(violations))
	for i, v := range violations {
		out[i] = findings.Pin(v, head, base)
	}
	return out, nil
}

// Side is one image the head is compared with.
type Side struct {
	Name string
	// Key identifies its image without reading it (the snapshot's cache key).
	Key string
	// Path is its image, made on first use (a miss).
	Path func(context.Context) (string, error)
	// Has says which files it holds, asked only on a miss.
	Has func(context.Context) (map[string]bool, error)
	// Changed lists the files (module paths) that differ between it and the head; All says a
	// file was deleted (its loss is judged on the whole tree).
	Changed []string
	All     bool
}

// How says what a comparison cost.
type How int

const (
	// Nothing: no file differs, nothing can break.
	Nothing How = iota
	// Remembered: an earlier run compared the same.
	Remembered
	// Compared now.
	Compared
)

// Head is the image compared.
type Head struct {
	Image  *image.Image
	Path   string
	Digest string
}

// Run compares the head with every side, side by side (one per core), and returns each side's
// findings, in order, and what each comparison cost.
func (c Comparer) Run(ctx context.Context, head Head, sides []Side) ([][]bufcli.Violation, []How, error) {
	out := make([][]bufcli.Violation, len(sides))
	how := make([]How, len(sides))
	errs := make([]error, len(sides))
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.NumCPU())
	for i := range sides {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			out[i], how[i], errs[i] = c.one(ctx, head, sides[i])
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, nil, fmt.Errorf("compare with %s: %w", sides[i].Name, err)
		}
	}
	return out, how, nil
}

func (c Comparer) one(ctx context.Context, head Head, side Side) ([]bufcli.Violation, How, error) {
	if !side.All && len(side.Changed) == 0 {
		return nil, Nothing, nil
	}
	// The files compared follow from the head and the changed files: they are the key.
	scope := "ALL"
	if !side.All {
		changed := append([]string{}, side.Changed...)
		sort.Strings(changed)
		scope = strings.Join(changed, "\n")
	}
	var key string
	if c.Cache != nil {
		key = c.Cache.Key("comparison", c.Salt, head.Digest, side.Key, scope)
		data, ok, err := c.Cache.Get("comparison", key)
		if err != nil {
			return nil, 0, err
		}
		if ok {
			var v []bufcli.Violation
			if err := json.Unmarshal(data, &v); err != nil {
				return nil, 0, fmt.Errorf("cache entry %s: %w", c.Cache.Path("comparison", key), err)
			}
			return v, Remembered, nil
		}
	}
	var paths []string
	if !side.All {
		has, err := side.Has(ctx)
		if err != nil {
			return nil, 0, err
		}
		// A file the other side lacks is new: nothing in it can break, and buf refuses the path.
		for _, p := range Affected(head.Image, side.Changed) {
			if has[p] {
				paths = append(paths, p)
			}
		}
	}
	var violations []bufcli.Violation
	if side.All || len(paths) > 0 {
		against, err := side.Path(ctx)
		if err != nil {
			return nil, 0, err
		}
		violations, err = c.Buf.Breaking(ctx, head.Path, against, c.Config, paths)
		if err != nil {
			return nil, 0, err
		}
	}
	if c.Cache != nil {
		data, _ := json.Marshal(violations)
		if err := c.Cache.Put("comparison", key, data); err != nil {
			return nil, 0, err
		}
	}
	return violations, Compared, nil
}

// Affected are the files a comparison must cover when some files changed: the changed files
// that still exist, and every file that imports one of them, directly or not. buf's FILE rules
// judge file by file, but a name an unchanged file uses can now resolve to another type; and the
// validation rules need the RPCs that say who sends a changed file's messages, which live in the
// files that import it.
func Affected(head *image.Image, changed []string) []string {
	importers := map[string][]string{}
	exists := map[string]bool{}
	for _, f := range head.Set.GetFile() {
		exists[f.GetName()] = true
		for _, dep := range f.GetDependency() {
			importers[dep] = append(importers[dep], f.GetName())
		}
	}
	seen := map[string]bool{}
	queue := []string{}
	for _, c := range changed {
		if exists[c] && !seen[c] {
			seen[c] = true
			queue = append(queue, c)
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, imp := range importers[f] {
			if !seen[imp] {
				seen[imp] = true
				queue = append(queue, imp)
			}
		}
	}
	out := make([]string, 0, len(seen))
	for f := range seen {
		if !head.IsImport(f) {
			out = append(out, f)
		}
	}
	sort.Strings(out)
	return out
}
