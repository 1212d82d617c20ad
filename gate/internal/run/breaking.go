package run

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/acme/contracts/gate/bufconfig"
	"github.com/acme/contracts/gate/cache"
	"github.com/acme/contracts/gate/compare"
	"github.com/acme/contracts/gate/exceptions"
	"github.com/acme/contracts/gate/findings"
	"github.com/acme/contracts/gate/gitrepo"
	"github.com/acme/contracts/gate/image"
	"github.com/acme/contracts/gate/releases"
)

// BreakingOptions choose what the working tree is compared with.
type BreakingOptions struct {
	// BaseRef overrides the base (BASE_REF).
	BaseRef string
	// NoBase compares with the releases only.
	NoBase bool
	// Today decides which exceptions have expired.
	Today time.Time
	// Released: the base is the latest release (make release). Each edit of buf.yaml since was
	// judged, with its exception, when it reached main; its entry has gone since.
	Released bool
}

// breaking compares the working tree (head, compiled) with its base and with every release,
// through buf breaking (buf's rules and the plugin's), and writes the judged findings, the
// exceptions' fate and the version the change implies into doc. It returns an error only when
// the comparison could not be made; refused findings are in doc.
func breaking(ctx context.Context, ws *Workspace, headPath string, head *image.Image, o BreakingOptions, doc *findings.Document, log io.Writer) error {
	var base *gitrepo.Base
	if !o.NoBase {
		var err error
		if base, err = ws.Repo.ResolveBase(ctx, o.BaseRef); err != nil {
			return err
		}
		if base != nil {
			if _, ok := ws.Repo.Show(ctx, base.Commit, BufYAML); !ok {
				fmt.Fprintf(log, "breaking: the base %.12s has no contracts yet (no %s): nothing to compare with\n", base.Commit, BufYAML)
				base = nil
			}
		}
	}
	tags, err := ws.Repo.Tags(ctx, releases.Pattern)
	if err != nil {
		return err
	}
	history := releases.Parse(tags)
	doc.Releases = history
	if base != nil {
		doc.Base = &findings.Base{Commit: base.Commit, Why: base.Why}
	}
	if commit, ok := ws.Repo.Commit(ctx, "HEAD"); ok {
		doc.Head.Commit = commit
	}
	fmt.Fprintf(log, "breaking: comparing the working tree with %s\n", baseLine(doc))

	snapshots := ws.Snapshots()
	// The buf.yaml that judges is the working tree's: a change that edits it edits its judge. So
	// each setting it changed since the base is a finding of its own (refused unless an exception
	// names that setting and its new value), and every side whose buf.yaml differs is compared
	// whole (an exclude, or an ignore, changes no .proto). Against a release the edit is not a
	// finding again: it was judged when it reached the base, and it breaks no client.
	headConfig := readOrEmpty(ws.path(BufYAML))
	var configChanges []bufconfig.Change
	type sideInfo struct {
		name, commit string
	}
	var infos []sideInfo
	if base != nil {
		infos = append(infos, sideInfo{findings.BaseSide, base.Commit})
	}
	for _, r := range history {
		infos = append(infos, sideInfo{r.Tag, r.Commit})
	}
	var sides []compare.Side
	for _, s := range infos {
		changed, deleted, err := ws.Repo.Changed(ctx, s.commit, ProtoDir, BufYAML)
		if err != nil {
			return err
		}
		var protos []string
		configEdited := false
		for _, p := range changed {
			switch {
			case p == BufYAML:
				configEdited = true
			case strings.HasSuffix(p, ".proto"):
				protos = append(protos, strings.TrimPrefix(p, ProtoDir+"/"))
			}
		}
		// A deleted file cannot be named to buf: its loss is judged on the whole tree.
		all := false
		for _, p := range deleted {
			all = all || strings.HasSuffix(p, ".proto")
		}
		// The same diff says whether buf.yaml's text differs; only then are its settings read.
		if configEdited {
			before, _ := ws.Repo.Show(ctx, s.commit, BufYAML)
			changes := bufconfig.Diff(before, headConfig)
			if s.name == findings.BaseSide && !o.Released {
				configChanges = changes
			}
			all = all || len(changes) > 0
		}
		commit := s.commit
		sides = append(sides, compare.Side{
			Name: s.name, Key: commit + " " + snapshots.Tools, Changed: protos, All: all,
			Path: func(ctx context.Context) (string, error) { return snapshots.Path(ctx, commit) },
			Has:  func(ctx context.Context) (map[string]bool, error) { return filesAt(ctx, ws, commit) },
		})
	}
	headDigest, err := cache.Identity(headPath)
	if err != nil {
		return err
	}
	comparer := compare.Comparer{Buf: ws.Buf, Config: ws.path(BufYAML), Cache: &ws.Cache,
		Salt: ws.digest(BufYAML, "versions.env", "package-lock.json")}
	results, how, err := comparer.Run(ctx, compare.Head{Image: head, Path: headPath, Digest: headDigest}, sides)
	if err != nil {
		return err
	}
	fmt.Fprintln(log, "breaking: "+costLine(how))

	// Each side's image is decoded only when a finding must be pinned in it (a deletion).
	images := map[string]*image.Image{}
	var imagesMu sync.Mutex
	imageOf := func(i int) *image.Image {
		imagesMu.Lock()
		defer imagesMu.Unlock()
		if im, ok := images[sides[i].Name]; ok {
			return im
		}
		path, err := sides[i].Path(ctx)
		var im *image.Image
		if err == nil {
			im, err = image.Read(path)
		}
		if err != nil {
			fmt.Fprintf(log, "breaking: %v\n", err)
		}
		images[sides[i].Name] = im
		return im
	}
	var judged []findings.Side
	for i, violations := range results {
		side := findings.Side{Name: sides[i].Name}
		for _, v := range violations {
			f := findings.Pin(v, head, nil)
			if f.Element == v.Path || findings.IsDeletion(v) {
				if im := imageOf(i); im != nil {
					f = findings.Pin(v, head, im)
				}
			}
			side.Findings = append(side.Findings, f)
		}
		if side.Name == findings.BaseSide {
			for _, c := range configChanges {
				side.Findings = append(side.Findings, findings.Finding{
					Rule: bufconfig.Rule, Element: c.Element(), File: BufYAML, Line: 1, Column: 1, Source: findings.SourceGate,
					Message: "a setting of the configuration that judges the contracts changed, " + c.String() +
						"; it judged this change too: accept it with an exception once reviewed"})
			}
		}
		judged = append(judged, side)
	}

	// The exceptions file: its entries must name rules buf knows (with the plugin's) and
	// elements of the head, the base or a release, or a setting of buf.yaml; both are asked only
	// when there is an entry.
	var baseImage func() *image.Image
	if base != nil {
		baseImage = func() *image.Image { return imageOf(0) }
	}
	var rules map[string]bool
	var rulesErr error
	file := exceptions.Parse(ExceptionsFile, readOrEmpty(ws.path(ExceptionsFile)), exceptions.Known{
		Rule: func(id string) bool {
			if id == bufconfig.Rule {
				return true
			}
			if rules == nil && rulesErr == nil {
				rules, rulesErr = ws.Buf.BreakingRules(ctx)
			}
			return rules[id]
		},
		Element: func(name string) bool {
			if bufconfig.IsElement(name) || head.Index().Has(name) {
				return true
			}
			// The base, then each release: a deletion is named as the side that still has it
			// declared it (a field deleted since a release is found only in that release).
			for i := range sides {
				if im := imageOf(i); im != nil && im.Index().Has(name) {
					return true
				}
			}
			return false
		},
	})
	if rulesErr != nil {
		return rulesErr
	}
	list, used := findings.Judge(judged, file, history, o.Today)
	doc.Findings = list
	doc.Exceptions = findings.ExceptionReport{Path: ExceptionsFile, Problems: file.Problems, Used: []exceptions.Entry{}}
	for _, e := range file.Entries {
		if used[e.N] {
			doc.Exceptions.Used = append(doc.Exceptions.Used, e)
		}
	}
	doc.Exceptions.Problems = append(doc.Exceptions.Problems, file.Audit(used, o.Today)...)
	if base != nil {
		var before *exceptions.File
		if data, ok := ws.Repo.Show(ctx, base.Commit, ExceptionsFile); ok {
			before = exceptions.Parse(ExceptionsFile, data, exceptions.Known{})
		}
		doc.Exceptions.Edits = exceptions.Edits(before, exceptions.Parse(ExceptionsFile, readOrEmpty(ws.path(ExceptionsFile)), exceptions.Known{}))
		if im := baseImage(); im != nil {
			doc.Version = version(im, head, list)
		}
	}
	return nil
}

// filesAt lists the contracts' files at a commit (module paths).
func filesAt(ctx context.Context, ws *Workspace, commit string) (map[string]bool, error) {
	out, err := ws.Repo.Git(ctx, "ls-tree", "-r", "--name-only", commit, "--", ProtoDir)
	if err != nil {
		return nil, err
	}
	files := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		if l != "" {
			files[strings.TrimPrefix(l, ProtoDir+"/")] = true
		}
	}
	return files, nil
}

func readOrEmpty(path string) []byte {
	data, _ := os.ReadFile(path)
	return data
}

// version is what the change implies for the SDKs' version against the base: breaking when it
// breaks the base or removes a declaration (whatever the configuration let through); additions
// when it declares something new; patch when only comments or options changed; none otherwise.
// An edit of buf.yaml alone changes no SDK.
func version(base, head *image.Image, list []findings.Finding) *findings.Version {
	v := &findings.Version{Added: []string{}, Removed: []string{}}
	bi, hi := base.Index(), head.Index()
	for _, n := range hi.Names() {
		if !bi.Has(n) {
			v.Added = append(v.Added, n)
		}
	}
	for _, n := range bi.Names() {
		if !hi.Has(n) {
			v.Removed = append(v.Removed, n)
		}
	}
	breaksBase := false
	for _, f := range list {
		for _, s := range f.Breaks {
			breaksBase = breaksBase || (s == findings.BaseSide && f.Source != findings.SourceGate)
		}
	}
	changed := len(bi.Files()) != len(hi.Files())
	for _, f := range hi.Files() {
		changed = changed || bi.Fingerprint(f) != hi.Fingerprint(f)
	}
	switch {
	case breaksBase || len(v.Removed) > 0:
		v.Bump = findings.BumpBreaking
	case len(v.Added) > 0:
		v.Bump = findings.BumpAdditions
	case changed:
		v.Bump = findings.BumpPatch
	default:
		v.Bump = findings.BumpNone
	}
	return v
}

func baseLine(d *findings.Document) string {
	var parts []string
	if d.Base != nil {
		parts = append(parts, fmt.Sprintf("the base %.12s (%s)", d.Base.Commit, d.Base.Why))
	} else {
		parts = append(parts, "no base")
	}
	if len(d.Releases) == 0 {
		parts = append(parts, "no release yet")
	} else {
		var tags []string
		for _, r := range d.Releases {
			tags = append(tags, fmt.Sprintf("%s %.12s", r.Tag, r.Commit))
		}
		parts = append(parts, fmt.Sprintf("every release: %s", strings.Join(tags, ", ")))
	}
	return strings.Join(parts, " and ")
}

func costLine(how []compare.How) string {
	counts := map[compare.How]int{}
	for _, h := range how {
		counts[h]++
	}
	var parts []string
	for _, c := range []struct {
		h    compare.How
		text string
	}{{compare.Nothing, "nothing changed since"}, {compare.Remembered, "remembered from an earlier run"}, {compare.Compared, "compared now"}} {
		if counts[c.h] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[c.h], c.text))
		}
	}
	if len(parts) == 0 {
		return "0 comparisons"
	}
	return fmt.Sprintf("%d comparisons: %s", len(how), strings.Join(parts, ", "))
}
