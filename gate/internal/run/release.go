package run

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/acme/contracts/gate/findings"
	"github.com/acme/contracts/gate/image"
	"github.com/acme/contracts/gate/releases"
	"github.com/acme/contracts/gate/report"
	"github.com/acme/contracts/gate/versions"
)

// Plan is what `make release` does next, decided from the schema: the kind of release and the
// version it gets.
type Plan struct {
	Kind   string // first, breaking, additions, patch or none
	Latest string // the latest release tag ("" before the first)
	Next   string // the version to release (without "v")
	// Breaks lists the releases whose clients the change breaks, newest first.
	Breaks []string
}

// ReleasePlan compares the working tree with the latest release (its base) and every earlier
// one, writes the findings document, and decides the next release: a change that breaks any
// release's clients (accepted by an exception or not) is breaking — the next major, or minor
// while 0.x; additions are the next minor; comments or options the next patch.
func ReleasePlan(ctx context.Context, ws *Workspace, today time.Time, log io.Writer) (*Plan, error) {
	tags, err := ws.Repo.Tags(ctx, releases.Pattern)
	if err != nil {
		return nil, err
	}
	if len(tags) == 0 {
		v, err := versions.Read(ws.Root)
		if err != nil {
			return nil, err
		}
		return &Plan{Kind: "first", Next: v["SDK_VERSION"]}, nil
	}
	latest := tags[0].Name
	scratch, err := os.MkdirTemp("", "gate-release-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(scratch)
	headPath, err := ws.compileHead(ctx, scratch)
	if err != nil {
		return nil, err
	}
	head, err := image.Read(headPath)
	if err != nil {
		return nil, err
	}
	doc := &findings.Document{Gate: ws.Identity, Findings: []findings.Finding{}}
	if err := breaking(ctx, ws, headPath, head, BreakingOptions{BaseRef: latest, Today: today, Released: true}, doc, log); err != nil {
		return nil, err
	}
	doc.Checks = append(doc.Checks, findings.Check{Name: "breaking", OK: len(doc.Refused()) == 0 && len(doc.Exceptions.Problems) == 0})
	if err := writeOutputs(ws, doc); err != nil {
		return nil, err
	}
	if len(doc.Exceptions.Problems) > 0 {
		return nil, fmt.Errorf("the exceptions file is wrong; fix it first: %s", doc.Exceptions.Problems[0])
	}
	fmt.Fprintln(log, report.Text(doc))
	p := &Plan{Latest: latest, Kind: doc.Version.Bump}
	for _, f := range report.Breaks(doc) {
		p.Kind = findings.BumpBreaking
		for _, side := range f.Breaks {
			if side == findings.BaseSide {
				side = latest
			}
			if !slices.Contains(p.Breaks, side) {
				p.Breaks = append(p.Breaks, side)
			}
		}
	}
	// Newest first, as the releases are listed.
	order := map[string]int{}
	for i, t := range tags {
		order[t.Name] = i
	}
	sort.Slice(p.Breaks, func(i, j int) bool { return order[p.Breaks[i]] < order[p.Breaks[j]] })
	m := regexp.MustCompile(`^v(\d+)\.(\d+)\.(\d+)$`).FindStringSubmatch(latest)
	if m == nil {
		return nil, fmt.Errorf("the latest release tag %s is not vMAJOR.MINOR.PATCH", latest)
	}
	major, _ := strconv.Atoi(m[1])
	minor, _ := strconv.Atoi(m[2])
	patch, _ := strconv.Atoi(m[3])
	switch p.Kind {
	case findings.BumpBreaking:
		if major == 0 {
			p.Next = fmt.Sprintf("0.%d.0", minor+1)
		} else {
			p.Next = fmt.Sprintf("%d.0.0", major+1)
		}
	case findings.BumpAdditions:
		p.Next = fmt.Sprintf("%d.%d.0", major, minor+1)
	case findings.BumpPatch:
		p.Next = fmt.Sprintf("%d.%d.%d", major, minor, patch+1)
	}
	return p, nil
}

// ReleaseNotes prints a release's CHANGELOG section from the findings document ReleasePlan
// wrote.
func ReleaseNotes(ws *Workspace, r report.Release, oldClients string, out io.Writer) error {
	var doc *findings.Document
	if r.Kind != "first" {
		var err error
		if doc, err = findings.Read(filepath.Join(ws.Out, "findings.json")); err != nil {
			return err
		}
	}
	if oldClients != "" {
		data, err := os.ReadFile(oldClients)
		if err != nil {
			return err
		}
		r.OldClients = string(data)
	}
	if r.Date == "" {
		r.Date = time.Now().UTC().Format("2006-01-02")
	}
	_, err := fmt.Fprintln(out, report.Changelog(doc, r))
	return err
}

// AcceptedBreaks prints the lines a breaking release's tag records: one per break it accepts.
func AcceptedBreaks(ws *Workspace, out io.Writer) error {
	doc, err := findings.Read(filepath.Join(ws.Out, "findings.json"))
	if err != nil {
		return err
	}
	var breaks []releases.Break
	for _, f := range report.Breaks(doc) {
		breaks = append(breaks, releases.Break{Rule: f.Rule, Element: f.Element})
	}
	if lines := releases.Lines(breaks); lines != "" {
		_, err = fmt.Fprintln(out, lines)
	}
	return err
}

// TagCheck refuses a release tag that is not "v" + SDK_VERSION, so the tag, the three SDK
// packages and their manifests always carry one version.
func TagCheck(root, tag string) error {
	v, err := versions.Read(root)
	if err != nil {
		return err
	}
	sdk := v["SDK_VERSION"]
	if sdk == "" {
		return fmt.Errorf("SDK_VERSION is not set in versions.env")
	}
	if tag != "v"+sdk {
		return fmt.Errorf("tag '%s' does not match SDK_VERSION=%s in versions.env: tag 'v%s', or bump SDK_VERSION, run 'make gen' and commit", tag, sdk, sdk)
	}
	fmt.Printf("tag %s matches SDK_VERSION=%s\n", tag, sdk)
	return nil
}

// Images prints the path of the contracts' image at each revision, compiling the missing ones.
func Images(ctx context.Context, ws *Workspace, revs []string, out io.Writer) error {
	var commits []string
	for _, r := range revs {
		c, ok := ws.Repo.Commit(ctx, r)
		if !ok {
			return fmt.Errorf("no commit %s here", r)
		}
		commits = append(commits, c)
	}
	paths, err := ws.Snapshots().Paths(ctx, commits)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(out, strings.Join(paths, "\n"))
	return err
}
