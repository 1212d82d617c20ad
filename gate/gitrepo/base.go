package gitrepo

import (
	"context"
	"fmt"
	"strings"
)

// Base is the commit a change is compared with, and why that one.
type Base struct {
	Commit string
	Why    string
}

// MainBranch is the branch changes are merged into.
const MainBranch = "main"

// ResolveBase says what the working tree is compared with — never its own commit:
//   - baseRef, when given (a pull request's base commit, a push's previous commit);
//   - on another branch than main: its merge base with main (or origin/main);
//   - on main, or a detached HEAD: the commits not yet on the upstream branch, or where there
//     are none (everything pushed, or no upstream), the previous commit.
//
// A baseRef of forty zeros (a push that created the branch) counts as none. It returns nil when
// there is nothing to compare with (no commit yet, or only one on main).
func (r Repo) ResolveBase(ctx context.Context, baseRef string) (*Base, error) {
	if baseRef != "" && strings.Trim(baseRef, "0") != "" {
		commit, ok := r.Commit(ctx, baseRef)
		if !ok {
			return nil, fmt.Errorf("BASE_REF=%s is not a commit here (fetch it first)", baseRef)
		}
		return &Base{Commit: commit, Why: "BASE_REF=" + baseRef}, nil
	}
	head, ok := r.Commit(ctx, "HEAD")
	if !ok {
		return nil, nil // no commit yet
	}
	branch := r.Branch(ctx)
	if branch != "" && branch != MainBranch {
		for _, main := range []string{MainBranch, "origin/" + MainBranch} {
			if _, ok := r.Commit(ctx, main); ok {
				commit, err := r.MergeBase(ctx, head, main)
				if err != nil {
					return nil, err
				}
				return &Base{Commit: commit, Why: "the merge base of " + branch + " with " + main}, nil
			}
		}
		return nil, fmt.Errorf("no '%s' or 'origin/%s' branch to compare %s with; set BASE_REF to a commit", MainBranch, MainBranch, branch)
	}
	where := "a detached HEAD"
	if branch != "" {
		where = branch
		if upstream := r.Upstream(ctx); upstream != "" {
			if commit, err := r.MergeBase(ctx, head, upstream); err == nil && commit != head {
				return &Base{Commit: commit, Why: "the commits of " + branch + " not yet on " + upstream}, nil
			}
		}
	}
	previous, ok := r.Commit(ctx, head+"~1")
	if !ok {
		return nil, nil // the first commit: nothing came before it
	}
	return &Base{Commit: previous, Why: "the previous commit (on " + where + ")"}, nil
}
