package service

import (
	"context"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/acme/contracts/gate/findings"
	"github.com/acme/contracts/gate/gitrepo"
	"github.com/acme/contracts/gate/releases"
	"github.com/acme/contracts/registry/store"
)

// releaseIndex is the release history the registry was filled from, and which version of
// each subject each release made.
type releaseIndex struct {
	history releases.History
	tags    map[string]map[int]string
}

// unwaived drops the findings against a version that a newer release accepted: the gate's
// own rule (findings.WaivedBy), so the registry waives exactly what make check does.
func (ri *releaseIndex) unwaived(v store.Version, found []findings.Finding) []findings.Finding {
	if ri == nil {
		return found
	}
	tag := ri.tags[v.Subject][v.Version]
	if tag == "" {
		return found
	}
	var out []findings.Finding
	for _, f := range found {
		if findings.WaivedBy(ri.history, tag, f) == "" {
			out = append(out, f)
		}
	}
	return out
}

// FillFromReleases registers every release of the contracts, oldest first: each .proto file
// under protoDir at each release tag (releases.Pattern) of the repository at repoDir, as the
// subject named by its path below protoDir, its imports of other contract files as references
// to the versions that release made. A break that a release accepted (its tag's
// Accepted-Break: lines) is waived; any other break stops the filling with the findings. It
// returns how many releases it read. Filling again is idempotent: a file that did not change
// is the same version.
func (r *Registry) FillFromReleases(ctx context.Context, repoDir, protoDir string) (int, error) {
	repo := gitrepo.Repo{Dir: repoDir}
	tags, err := repo.Tags(ctx, releases.Pattern)
	if err != nil {
		return 0, fmt.Errorf("read the release tags: %w", err)
	}
	r.releases = &releaseIndex{history: releases.Parse(tags), tags: map[string]map[int]string{}}
	for i := len(tags) - 1; i >= 0; i-- {
		tag := tags[i]
		sources, err := releaseSources(ctx, repo, tag.Commit, protoDir)
		if err != nil {
			return 0, fmt.Errorf("release %s: %w", tag.Name, err)
		}
		made := map[string]int{}
		for _, subject := range importOrder(sources) {
			req := Request{Schema: sources[subject], SchemaType: "PROTOBUF"}
			for _, imp := range imports(sources[subject]) {
				if _, own := sources[imp]; own {
					req.References = append(req.References, store.Reference{Name: imp, Subject: imp, Version: made[imp]})
				}
			}
			v, err := r.Register(ctx, subject, req)
			if err != nil {
				return 0, fmt.Errorf("release %s, %s: %w", tag.Name, subject, err)
			}
			made[subject] = v.Version
			if r.releases.tags[subject] == nil {
				r.releases.tags[subject] = map[int]string{}
			}
			if _, older := r.releases.tags[subject][v.Version]; !older {
				r.releases.tags[subject][v.Version] = tag.Name
			}
		}
	}
	return len(tags), nil
}

// releaseSources reads the .proto files under dir at a commit, by their path below dir.
func releaseSources(ctx context.Context, repo gitrepo.Repo, commit, dir string) (map[string]string, error) {
	list, err := repo.Git(ctx, "ls-tree", "-r", "--name-only", commit, "--", dir)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, p := range strings.Split(list, "\n") {
		if !strings.HasSuffix(p, ".proto") {
			continue
		}
		data, ok := repo.Show(ctx, commit, p)
		if !ok {
			return nil, fmt.Errorf("read %s", p)
		}
		rel := strings.TrimPrefix(p, path.Clean(dir)+"/")
		out[rel] = string(data)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no .proto file under %s", dir)
	}
	return out, nil
}

var importLine = regexp.MustCompile(`(?m)^\s*import\s+(?:public\s+|weak\s+)?"([^"]+)"\s*;`)

// imports lists the files a .proto text imports.
func imports(text string) []string {
	var out []string
	for _, m := range importLine.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// importOrder lists the files so that each comes after the contract files it imports (a
// cycle, which protoc refuses anyway, is broken by name order and then fails to compile).
func importOrder(sources map[string]string) []string {
	names := make([]string, 0, len(sources))
	for n := range sources {
		names = append(names, n)
	}
	sort.Strings(names)
	var out []string
	state := map[string]int{}
	var visit func(n string)
	visit = func(n string) {
		if state[n] != 0 {
			return
		}
		state[n] = 1
		for _, imp := range imports(sources[n]) {
			if _, own := sources[imp]; own {
				visit(imp)
			}
		}
		state[n] = 2
		out = append(out, n)
	}
	for _, n := range names {
		visit(n)
	}
	return out
}

// ReleaseOf names the release that made a subject's version ("" when a client registered it).
func (r *Registry) ReleaseOf(v store.Version) string {
	if r.releases == nil {
		return ""
	}
	return r.releases.tags[v.Subject][v.Version]
}
