package gitrepo_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/acme/contracts/gate/gitrepo"
)

// repo is a throwaway git repository whose main has three commits (c1, c2, c3), pushed to a
// bare origin.
type repo struct {
	t   *testing.T
	dir string
}

func newRepo(t *testing.T) repo {
	t.Helper()
	root := t.TempDir()
	r := repo{t, filepath.Join(root, "work")}
	r.git(root, "init", "-q", "--bare", "-b", "main", filepath.Join(root, "origin.git"))
	r.git(root, "clone", "-q", filepath.Join(root, "origin.git"), r.dir)
	r.git(r.dir, "checkout", "-q", "-b", "main")
	for _, c := range []string{"c1", "c2", "c3"} {
		r.commit(c)
	}
	r.git(r.dir, "push", "-q", "-u", "origin", "main")
	return r
}

func (r repo) git(dir string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r repo) commit(message string) {
	r.git(r.dir, "commit", "-q", "--allow-empty", "-m", message)
}

func (r repo) rev(rev string) string { return r.git(r.dir, "rev-parse", rev) }

func TestResolveBase(t *testing.T) {
	for _, c := range []struct {
		name    string
		setup   func(r repo)
		baseRef string
		want    string // a revision of the repository as it is after setup; "" for none
		why     string
	}{
		{"on main with everything pushed: the previous commit", func(r repo) {}, "", "HEAD~1", "the previous commit (on main)"},
		{"on main with unpushed commits: the upstream", func(r repo) { r.commit("c4"); r.commit("c5") }, "", "origin/main", "the commits of main not yet on origin/main"},
		{"on main behind its upstream: the previous commit", func(r repo) {
			r.commit("c4")
			r.git(r.dir, "push", "-q", "origin", "main")
			r.git(r.dir, "reset", "-q", "--hard", "HEAD~1")
		}, "", "HEAD~1", "the previous commit (on main)"},
		{"on main without an upstream: the previous commit", func(r repo) { r.git(r.dir, "branch", "-q", "--unset-upstream") }, "", "HEAD~1", "the previous commit (on main)"},
		{"on a detached HEAD: the previous commit", func(r repo) { r.git(r.dir, "checkout", "-q", "--detach", "HEAD") }, "", "HEAD~1", "the previous commit (on a detached HEAD)"},
		{"on a branch: its merge base with main", func(r repo) {
			r.git(r.dir, "checkout", "-q", "-b", "feature", "HEAD~1")
			r.commit("f1")
		}, "", "main~1", "the merge base of feature with main"},
		{"on a branch made from main with nothing of its own: main", func(r repo) { r.git(r.dir, "checkout", "-q", "-b", "feature") }, "", "main", "the merge base of feature with main"},
		{"BASE_REF wins", func(r repo) {}, "HEAD~2", "HEAD~2", "BASE_REF=HEAD~2"},
		{"a zero BASE_REF (a push that created the branch) counts as none", func(r repo) {}, strings.Repeat("0", 40), "HEAD~1", "the previous commit (on main)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := newRepo(t)
			c.setup(r)
			base, err := gitrepo.Repo{Dir: r.dir}.ResolveBase(context.Background(), c.baseRef)
			if err != nil {
				t.Fatal(err)
			}
			if base == nil || base.Commit != r.rev(c.want) || base.Why != c.why {
				t.Errorf("base %+v, want %s (%s) %q", base, c.want, r.rev(c.want), c.why)
			}
			if base != nil && base.Commit == r.rev("HEAD") && c.baseRef == "" && !strings.HasPrefix(c.why, "the merge base") {
				t.Errorf("compared a commit with itself")
			}
		})
	}
}

func TestResolveBaseWithNothingToCompare(t *testing.T) {
	dir := t.TempDir()
	r := repo{t, dir}
	r.git(dir, "init", "-q", "-b", "main")
	base, err := gitrepo.Repo{Dir: dir}.ResolveBase(context.Background(), "")
	if err != nil || base != nil {
		t.Fatalf("no commit yet: %v %v", base, err)
	}
	r.commit("first")
	base, err = gitrepo.Repo{Dir: dir}.ResolveBase(context.Background(), "")
	if err != nil || base != nil {
		t.Fatalf("the first commit: %v %v", base, err)
	}
}

func TestResolveBaseErrors(t *testing.T) {
	r := newRepo(t)
	if _, err := (gitrepo.Repo{Dir: r.dir}).ResolveBase(context.Background(), "no-such-ref"); err == nil ||
		err.Error() != "BASE_REF=no-such-ref is not a commit here (fetch it first)" {
		t.Errorf("unknown BASE_REF: %v", err)
	}
	r.git(r.dir, "checkout", "-q", "-b", "feature")
	r.git(r.dir, "branch", "-q", "-D", "main")
	r.git(r.dir, "branch", "-q", "-r", "-d", "origin/main")
	if _, err := (gitrepo.Repo{Dir: r.dir}).ResolveBase(context.Background(), ""); err == nil ||
		!strings.Contains(err.Error(), "no 'main' or 'origin/main' branch to compare feature with") {
		t.Errorf("no main: %v", err)
	}
}

// A lightweight tag has no message of its own: git prints its commit's, which whoever wrote the
// commit chose. Read as the tag's, an "Accepted-Break:" line in a pull request's commit message
// would waive that break once anyone tagged the commit without -a.
func TestALightweightTagHasNoMessage(t *testing.T) {
	r := newRepo(t)
	r.commit("an ordinary change\n\nAccepted-Break: FIELD_NO_DELETE a.B")
	r.git(r.dir, "tag", "v0.1.0")
	tags, err := gitrepo.Repo{Dir: r.dir}.Tags(context.Background(), "v[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	if len(tags) != 1 || tags[0].Commit != r.rev("HEAD") || tags[0].Message != "" {
		t.Errorf("tags %+v", tags)
	}
}

func TestTagsAndChanges(t *testing.T) {
	r := newRepo(t)
	r.git(r.dir, "tag", "-a", "v0.1.0", "-m", "Release v0.1.0\n\nAccepted-Break: FIELD_NO_DELETE a.B", "HEAD~2")
	r.git(r.dir, "tag", "v0.10.0", "HEAD~1") // lightweight
	r.git(r.dir, "tag", "-a", "v0.2.0", "-m", "Release v0.2.0")
	tags, err := gitrepo.Repo{Dir: r.dir}.Tags(context.Background(), "v[0-9]*")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tg := range tags {
		names = append(names, tg.Name)
	}
	if strings.Join(names, " ") != "v0.10.0 v0.2.0 v0.1.0" {
		t.Errorf("not newest first by version: %v", names)
	}
	if tags[2].Commit != r.rev("HEAD~2") || tags[0].Commit != r.rev("HEAD~1") || !strings.Contains(tags[2].Message, "Accepted-Break") {
		t.Errorf("tags %+v", tags)
	}
	os.MkdirAll(filepath.Join(r.dir, "proto"), 0o755)
	os.WriteFile(filepath.Join(r.dir, "proto", "a.proto"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(r.dir, "proto", "b.proto"), []byte("x"), 0o644)
	r.git(r.dir, "add", "-A")
	r.commit("two files")
	os.Remove(filepath.Join(r.dir, "proto", "a.proto"))
	os.WriteFile(filepath.Join(r.dir, "proto", "c.proto"), []byte("new"), 0o644)
	changed, deleted, err := gitrepo.Repo{Dir: r.dir}.Changed(context.Background(), r.rev("HEAD"), "proto")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(changed, " ") != "proto/a.proto proto/c.proto" || strings.Join(deleted, " ") != "proto/a.proto" {
		t.Errorf("changed %v deleted %v", changed, deleted)
	}
	// Several paths in one diff: a file at the root beside the folder.
	os.WriteFile(filepath.Join(r.dir, "buf.yaml"), []byte("version: v2\n"), 0o644)
	changed, _, err = gitrepo.Repo{Dir: r.dir}.Changed(context.Background(), r.rev("HEAD"), "proto", "buf.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if sort.Strings(changed); strings.Join(changed, " ") != "buf.yaml proto/a.proto proto/c.proto" {
		t.Errorf("changed %v", changed)
	}
}
