package run

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/acme/contracts/gate/drift"
	"github.com/acme/contracts/gate/findings"
	"github.com/acme/contracts/gate/image"
	"github.com/acme/contracts/gate/report"
	"github.com/acme/contracts/gate/versions"
)

// CheckOptions choose the checks.
type CheckOptions struct {
	Breaking BreakingOptions
	// Only lists the checks to run (all when empty): lint, format, breaking, versions, drift.
	Only []string
	// Stdout and Stderr receive the report and each check's own messages.
	Stdout, Stderr io.Writer
}

// Checks, in the order they run.
var allChecks = []string{"lint", "format", "breaking", "versions", "drift"}

// Check is `make check`: every check, even after one fails, so that one run shows everything to
// fix. It writes the findings document and the report into ws.Out, prints the report, and
// returns an error when a check failed.
func Check(ctx context.Context, ws *Workspace, o CheckOptions) error {
	run := map[string]bool{}
	for _, c := range o.Only {
		if !slices.Contains(allChecks, c) {
			// A misspelt name would otherwise run nothing and pass.
			return fmt.Errorf("no check %q: the checks are %s", c, strings.Join(allChecks, ", "))
		}
		run[c] = true
	}
	if len(o.Only) == 0 {
		for _, c := range allChecks {
			run[c] = true
		}
	}
	doc := &findings.Document{Gate: ws.Identity, Findings: []findings.Finding{}, Releases: nil}
	timings := newTimings(os.Getenv("GATE_TIMINGS"))
	scratch, err := os.MkdirTemp("", "gate-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)

	// The working tree is compiled once, for every check that reads it (breaking, drift), and
	// decoded once.
	var headPath string
	var head *image.Image
	var compileErr error
	if run["breaking"] || run["drift"] {
		timings.step("compile", func() error {
			headPath, compileErr = ws.compileHead(ctx, scratch)
			if compileErr == nil {
				head, compileErr = image.Read(headPath)
			}
			return compileErr
		})
	}
	needsHead := func(name string) error {
		if compileErr != nil {
			return fmt.Errorf("skipped: %v", compileErr)
		}
		return nil
	}
	steps := []struct {
		name string
		fn   func() error
	}{
		{"lint", func() error {
			// A buf.yaml under proto/ would choose the lint rules too.
			if err := onlyRootConfig(ws); err != nil {
				return err
			}
			r, err := ws.Buf.Lint(ctx)
			if err != nil {
				return err
			}
			fmt.Fprint(o.Stdout, r.Stdout)
			fmt.Fprint(o.Stderr, r.Stderr)
			if r.Exit != 0 {
				return errFailed
			}
			return nil
		}},
		{"format", func() error {
			diff, err := ws.Buf.FormatDiff(ctx, ProtoDir)
			if err != nil {
				return err
			}
			if diff != "" {
				fmt.Fprint(o.Stdout, diff)
				fmt.Fprintln(o.Stderr, "buf format: the files above are not formatted; run 'make format' to fix them")
				return errFailed
			}
			return nil
		}},
		{"breaking", func() error {
			if err := needsHead("breaking"); err != nil {
				return err
			}
			if err := breaking(ctx, ws, headPath, head, o.Breaking, doc, o.Stderr); err != nil {
				return err
			}
			if len(doc.Refused()) > 0 || len(doc.Exceptions.Problems) > 0 {
				return errFailed
			}
			return nil
		}},
		{"versions", func() error {
			res, err := versions.Run(ws.Root, "", false)
			if err != nil {
				return err
			}
			if len(res.Wrong) > 0 {
				fmt.Fprintln(o.Stderr, "versions: these pins differ from versions.env (change versions.env, then run 'make versions'; or undo the edit):")
				fmt.Fprintln(o.Stderr, strings.Join(res.Wrong, "\n"))
				return errFailed
			}
			fmt.Fprintf(o.Stdout, "versions: %d pins in %d files agree with versions.env\n", res.Pins, res.Files)
			return nil
		}},
		{"drift", func() error {
			if err := needsHead("drift"); err != nil {
				return err
			}
			return checkDrift(ctx, ws, headPath, head, o.Stdout, o.Stderr)
		}},
	}
	for _, s := range steps {
		if !run[s.name] {
			continue
		}
		fmt.Fprintf(o.Stderr, "==> check: %s\n", s.name)
		c := findings.Check{Name: s.name, OK: true}
		var stepErr error
		c.Seconds = timings.step(s.name, func() error { stepErr = s.fn(); return stepErr })
		if stepErr != nil {
			c.OK = false
			if stepErr != errFailed {
				c.Detail = "error: " + stepErr.Error()
				fmt.Fprintf(o.Stderr, "error: %v\n", stepErr)
			}
		}
		doc.Checks = append(doc.Checks, c)
	}
	if run["breaking"] && compileErr == nil {
		fmt.Fprintln(o.Stdout, report.Text(doc))
		if os.Getenv("GITHUB_ACTIONS") == "true" {
			if a := report.Annotations(doc, ProtoDir); a != "" {
				fmt.Fprintln(o.Stdout, a)
			}
		}
	}
	if err := writeOutputs(ws, doc); err != nil {
		return err
	}
	if failed := doc.Failed(); len(failed) > 0 {
		return fmt.Errorf("governance gate FAILED: %s (report: %s)", strings.Join(failed, ", "), rel(ws, filepath.Join(ws.Out, "report.md")))
	}
	var names []string
	for _, c := range doc.Checks {
		names = append(names, c.Name)
	}
	fmt.Fprintf(o.Stdout, "governance gate passed: %s (report: %s)\n", strings.Join(names, " "), rel(ws, filepath.Join(ws.Out, "report.md")))
	return nil
}

// writeOutputs writes the findings document and the Markdown report, and appends the report to
// the job summary in GitHub Actions.
func writeOutputs(ws *Workspace, doc *findings.Document) error {
	if err := doc.Write(filepath.Join(ws.Out, "findings.json")); err != nil {
		return fmt.Errorf("write findings: %w", err)
	}
	md := report.Markdown(doc)
	if err := os.WriteFile(filepath.Join(ws.Out, "report.md"), []byte(md), 0o644); err != nil {
		return err
	}
	if summary := os.Getenv("GITHUB_STEP_SUMMARY"); summary != "" {
		f, err := os.OpenFile(summary, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			_, _ = f.WriteString(md)
			f.Close()
		}
	}
	return nil
}

func rel(ws *Workspace, path string) string {
	if r, err := filepath.Rel(ws.Root, path); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return path
}

func checkDrift(ctx context.Context, ws *Workspace, headPath string, head *image.Image, stdout, stderr io.Writer) error {
	// The SDKs' manifests are not buf's output: `make gen` writes versions.env's versions into
	// them, so they drift when one of those differs.
	manifests, err := versions.Run(ws.Root, "gen/", false)
	if err != nil {
		return err
	}
	started := time.Now()
	res, err := drift.Check(ctx, drift.Options{Root: ws.Root, Template: GenTemplate, ImagePath: headPath, Image: head,
		Generator: generator, Cache: ws.Cache, BatchFiles: batchFiles()})
	if err != nil {
		return err
	}
	seconds := time.Since(started).Seconds()
	if len(manifests.Wrong) > 0 {
		fmt.Fprintln(stderr, "drift gate: the SDKs' manifests name versions that are not versions.env's (run 'make gen'):")
		fmt.Fprintln(stderr, strings.Join(manifests.Wrong, "\n"))
	}
	if len(res.Problems) > 0 {
		fmt.Fprintln(stderr, "drift gate: gen/ is not what proto/ generates (run 'make gen' and commit the result):")
		fmt.Fprintln(stderr, strings.Join(res.Problems, "\n"))
		fmt.Fprintf(stderr, "drift gate: %d files; %s (%.1f s)\n", len(res.Problems), res.How, seconds)
	}
	if len(res.Problems) > 0 || len(manifests.Wrong) > 0 {
		return errFailed
	}
	fmt.Fprintf(stdout, "drift gate: gen/ is exactly what proto/ generates (%d files; %s; %.1f s)\n", res.Files, res.How, seconds)
	return nil
}

// batchFiles is how many proto files one buf generate is given (GATE_GENERATE_BATCH).
func batchFiles() int {
	n := 0
	fmt.Sscan(os.Getenv("GATE_GENERATE_BATCH"), &n)
	return n
}

// timings records each step's seconds and the peak memory so far, for make bench-gate
// (GATE_TIMINGS names the file; each line: STEP SECONDS PEAK_KIB EXIT).
type timings struct{ path string }

func newTimings(path string) timings { return timings{path} }

func (t timings) step(name string, fn func() error) float64 {
	start := time.Now()
	err := fn()
	seconds := time.Since(start).Seconds()
	if t.path != "" {
		exit := 0
		if err != nil {
			exit = 1
		}
		if f, ferr := os.OpenFile(t.path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); ferr == nil {
			fmt.Fprintf(f, "%s %.2f %d %d\n", name, seconds, peakKiB(), exit)
			f.Close()
		}
	}
	return seconds
}

// peakKiB is the largest resident size so far of this process or any process it waited for.
func peakKiB() int64 {
	var self, children syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	return max(self.Maxrss, children.Maxrss)
}
