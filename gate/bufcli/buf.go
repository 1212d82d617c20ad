// Package bufcli runs the buf CLI for the gate: it compiles images, lints, checks the format,
// and runs `buf breaking`, whose findings (buf's own rules and those of the check plugins the
// configuration names, such as ours) it reads as typed values.
package bufcli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Buf runs buf in one directory (the workspace whose buf.yaml applies).
type Buf struct {
	Dir string
	// Bin is the buf executable (default: "buf" on PATH).
	Bin string
}

// Result is what a buf command printed.
type Result struct {
	Stdout, Stderr string
	Exit           int
}

func (b Buf) run(ctx context.Context, args ...string) (Result, error) {
	bin := b.Bin
	if bin == "" {
		bin = "buf"
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = b.Dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := Result{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.Exit = exit.ExitCode()
	default:
		return r, fmt.Errorf("run buf %s: %w", args[0], err)
	}
	return r, nil
}

// FirstLine is the first non-empty line of a text, for one-line errors.
func FirstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}

// Build compiles an input (a directory of the workspace) into an image file.
func (b Buf) Build(ctx context.Context, input, out string) error {
	r, err := b.run(ctx, "build", input, "-o", out)
	if err != nil {
		return err
	}
	if r.Exit != 0 {
		return fmt.Errorf("%s does not compile: %s", input, FirstLine(r.Stderr+r.Stdout))
	}
	return nil
}

// Lint runs buf lint; the findings are in the result's output (msvs format: each names its rule).
func (b Buf) Lint(ctx context.Context) (Result, error) {
	return b.run(ctx, "lint", "--error-format=msvs")
}

// FormatDiff runs buf format on an input and returns the diff it would apply ("" when none).
func (b Buf) FormatDiff(ctx context.Context, input string) (string, error) {
	r, err := b.run(ctx, "format", input, "--diff", "--exit-code")
	if err != nil {
		return "", err
	}
	switch r.Exit {
	case 0:
		return "", nil
	case 100:
		return r.Stdout, nil
	}
	return "", fmt.Errorf("buf format failed: %s", FirstLine(r.Stderr+r.Stdout))
}

// Violation is one finding of buf breaking, as its JSON error format reports it.
type Violation struct {
	Path        string `json:"path"`
	StartLine   int    `json:"start_line"`
	StartColumn int    `json:"start_column"`
	EndLine     int    `json:"end_line"`
	EndColumn   int    `json:"end_column"`
	Type        string `json:"type"`
	Message     string `json:"message"`
	Plugin      string `json:"plugin,omitempty"`
}

// Breaking runs buf breaking of head against another image with a configuration (a buf.yaml),
// limited to paths when given (they must exist in head).
func (b Buf) Breaking(ctx context.Context, head, against, config string, paths []string) ([]Violation, error) {
	args := []string{"breaking", head, "--against", against, "--exclude-imports", "--error-format=json"}
	if config != "" {
		args = append(args, "--config", config)
	}
	for _, p := range paths {
		args = append(args, "--path", p)
	}
	r, err := b.run(ctx, args...)
	if err != nil {
		return nil, err
	}
	if r.Exit != 0 && r.Exit != 100 {
		return nil, fmt.Errorf("buf breaking failed (exit %d): %s", r.Exit, FirstLine(r.Stderr+r.Stdout))
	}
	var out []Violation
	scanner := bufio.NewScanner(strings.NewReader(r.Stdout))
	scanner.Buffer(make([]byte, 1<<20), 1<<26)
	for scanner.Scan() {
		line := strings.TrimSpace(scanner.Text())
		if line == "" {
			continue
		}
		var v Violation
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			return nil, fmt.Errorf("buf breaking printed a line that is not a finding: %.120s", line)
		}
		out = append(out, v)
	}
	if r.Exit == 100 && len(out) == 0 {
		return nil, fmt.Errorf("buf breaking failed without a finding: %s", FirstLine(r.Stderr))
	}
	return out, scanner.Err()
}

// BreakingRules lists the ids of every breaking rule the configuration knows: buf's, and those
// of the plugins it names.
func (b Buf) BreakingRules(ctx context.Context) (map[string]bool, error) {
	r, err := b.run(ctx, "config", "ls-breaking-rules", "--format", "json", "--include-deprecated")
	if err != nil {
		return nil, err
	}
	if r.Exit != 0 {
		return nil, fmt.Errorf("buf config ls-breaking-rules failed: %s", FirstLine(r.Stderr+r.Stdout))
	}
	ids := map[string]bool{}
	for _, line := range strings.Split(r.Stdout, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var rule struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal([]byte(line), &rule); err != nil {
			return nil, fmt.Errorf("buf config ls-breaking-rules printed %.80q", line)
		}
		ids[rule.ID] = true
	}
	return ids, nil
}
