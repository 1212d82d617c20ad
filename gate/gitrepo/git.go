// Package gitrepo asks git what the gate needs of a repository: commits, tags and their
// messages, the files that differ from a commit, and a commit's files.
package gitrepo

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
)

// Repo is a git working tree.
type Repo struct{ Dir string }

// Git runs git in the repository and returns its output without the final newline.
func (r Repo) Git(ctx context.Context, args ...string) (string, error) {
	out, err := r.raw(ctx, args...)
	return strings.TrimRight(string(out), "\n"), err
}

func (r Repo) raw(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = r.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("git %s: %s", strings.Join(args, " "), firstNonEmpty(msg, err.Error()))
	}
	return out, nil
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Commit resolves a revision to a commit id; ok is false when there is no such commit.
func (r Repo) Commit(ctx context.Context, rev string) (string, bool) {
	out, err := r.Git(ctx, "rev-parse", "--verify", "-q", rev+"^{commit}")
	if err != nil || out == "" {
		return "", false
	}
	return out, true
}

// Branch is the checked-out branch's name ("" on a detached HEAD).
func (r Repo) Branch(ctx context.Context) string {
	out, err := r.Git(ctx, "symbolic-ref", "-q", "--short", "HEAD")
	if err != nil {
		return ""
	}
	return out
}

// Upstream is the upstream of the checked-out branch ("" when it has none).
func (r Repo) Upstream(ctx context.Context) string {
	out, err := r.Git(ctx, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}")
	if err != nil {
		return ""
	}
	return out
}

// MergeBase is the best common ancestor of two commits.
func (r Repo) MergeBase(ctx context.Context, a, b string) (string, error) {
	return r.Git(ctx, "merge-base", a, b)
}

// Tag is a release tag: its name, the commit it points at, and its message.
type Tag struct {
	// Message is an annotated tag's own ("" for a lightweight one).
	Name, Commit, Message string
}

// Tags lists the tags matching a pattern, newest version first (git's version sort).
func (r Repo) Tags(ctx context.Context, pattern string) ([]Tag, error) {
	const sep = "\x1e"
	out, err := r.Git(ctx, "for-each-ref", "--sort=-v:refname",
		"--format="+sep+"%(refname:short)%00%(*objectname)%00%(objectname)%00%(contents)", "refs/tags/"+pattern)
	if err != nil {
		return nil, err
	}
	var tags []Tag
	for _, rec := range strings.Split(out, sep) {
		if rec == "" {
			continue
		}
		parts := strings.SplitN(rec, "\x00", 4)
		if len(parts) != 4 {
			continue
		}
		commit, message := parts[1], parts[3] // an annotated tag's commit; empty for a lightweight tag
		if commit == "" {
			// A lightweight tag has no message: git prints its commit's, which the commit's
			// author wrote, not whoever tagged the release.
			commit, message = parts[2], ""
		}
		tags = append(tags, Tag{Name: parts[0], Commit: commit, Message: message})
	}
	return tags, nil
}

// Changed lists the files at or under the given paths that differ between a commit and the
// working tree (untracked files included), and those of them that were deleted.
func (r Repo) Changed(ctx context.Context, commit string, under ...string) (paths, deleted []string, err error) {
	out, err := r.raw(ctx, append([]string{"diff", "--no-renames", "--name-status", "-z", commit, "--"}, under...)...)
	if err != nil {
		return nil, nil, err
	}
	fields := strings.Split(string(out), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		status, path := fields[i], fields[i+1]
		if strings.HasPrefix(status, "D") {
			deleted = append(deleted, path)
		}
		paths = append(paths, path)
	}
	untracked, err := r.raw(ctx, append([]string{"ls-files", "-z", "--others", "--exclude-standard", "--"}, under...)...)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range strings.Split(string(untracked), "\x00") {
		if p != "" {
			paths = append(paths, p)
		}
	}
	return paths, deleted, nil
}

// Show prints a file at a commit; ok is false when the commit has no such file.
func (r Repo) Show(ctx context.Context, commit, path string) ([]byte, bool) {
	out, err := r.raw(ctx, "show", commit+":"+path)
	if err != nil {
		return nil, false
	}
	return out, true
}

// Archive writes the given paths of a commit into dir.
func (r Repo) Archive(ctx context.Context, commit, dir string, paths ...string) error {
	archive := exec.CommandContext(ctx, "git", append([]string{"archive", "--format=tar", commit}, paths...)...)
	archive.Dir = r.Dir
	untar := exec.CommandContext(ctx, "tar", "-x", "-C", dir)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		return err
	}
	untar.Stdin = pipe
	var stderr bytes.Buffer
	archive.Stderr, untar.Stderr = &stderr, &stderr
	if err := untar.Start(); err != nil {
		return err
	}
	if err := archive.Run(); err != nil {
		_ = untar.Wait()
		return fmt.Errorf("git archive %s: %s", commit, strings.TrimSpace(stderr.String()))
	}
	if err := untar.Wait(); err != nil {
		return fmt.Errorf("unpack %s: %s", commit, strings.TrimSpace(stderr.String()))
	}
	return nil
}
