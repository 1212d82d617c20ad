// Package snapshot compiles the contracts as they were at a commit (a release, the base) into
// an image, once: images are kept in the gate's cache under a key of the commit and of the tools
// that compile it, and compiled side by side, one per core, when several are missing.
package snapshot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sync"

	"github.com/acme/contracts/gate/bufcli"
	"github.com/acme/contracts/gate/cache"
	"github.com/acme/contracts/gate/gitrepo"
	"github.com/acme/contracts/gate/image"
)

// Compiler compiles the contracts of a commit.
type Compiler struct {
	Repo  gitrepo.Repo
	Cache cache.Store
	// Files are what a commit's contracts are made of: the workspace's buf.yaml and its
	// modules' folders (e.g. "buf.yaml", "proto").
	Files []string
	// Input is the module to compile (e.g. "proto").
	Input string
	// Deps is linked into every copy: the folders buf.yaml names that are not committed
	// (link path inside the copy → target), e.g. ".tmp/proto-deps".
	Deps map[string]string
	// Tools is a digest of everything besides the commit that decides an image: the buf version,
	// the dependencies' content.
	Tools string
}

const kind = "image"

func (c Compiler) key(commit string) string { return c.Cache.Key(kind, commit, c.Tools) }

// Path is the image of a commit, compiled now if it was not before.
func (c Compiler) Path(ctx context.Context, commit string) (string, error) {
	paths, err := c.Paths(ctx, []string{commit})
	if err != nil {
		return "", err
	}
	return paths[0], nil
}

// Paths are the images of several commits; the missing ones are compiled side by side.
func (c Compiler) Paths(ctx context.Context, commits []string) ([]string, error) {
	out := make([]string, len(commits))
	errs := make([]error, len(commits))
	var wg sync.WaitGroup
	slots := make(chan struct{}, runtime.NumCPU())
	done := map[string]int{}
	for i, commit := range commits {
		if _, ok := done[commit]; ok { // two tags of one commit: one image
			continue
		}
		done[commit] = i
		wg.Add(1)
		go func(i int, commit string) {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			out[i], errs[i] = c.one(ctx, commit)
		}(i, commit)
	}
	wg.Wait()
	for i := range commits {
		if j, ok := done[commits[i]]; ok && j != i {
			out[i], errs[i] = out[j], errs[j]
		}
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (c Compiler) one(ctx context.Context, commit string) (string, error) {
	key := c.key(commit)
	if path, ok, err := c.Cache.GetFile(kind, key, ".binpb"); err != nil || ok {
		return path, err
	}
	// The copy is made beside the cache, so the image is moved into it, never copied.
	if err := os.MkdirAll(c.Cache.Dir, 0o755); err != nil {
		return "", err
	}
	copy, err := os.MkdirTemp(c.Cache.Dir, "snapshot-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(copy)
	if err := c.Repo.Archive(ctx, commit, copy, c.Files...); err != nil {
		return "", err
	}
	for link, target := range c.Deps {
		at := filepath.Join(copy, link)
		// A copy of a dependency folder committed by mistake is never followed: ours replaces it.
		_ = os.RemoveAll(at)
		if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
			return "", err
		}
		if err := os.Symlink(target, at); err != nil {
			return "", err
		}
	}
	out := filepath.Join(copy, "image.binpb")
	if err := (bufcli.Buf{Dir: copy}).Build(ctx, c.Input, out); err != nil {
		return "", fmt.Errorf("the contracts at %.12s: %w", commit, err)
	}
	if err := c.Cache.PutFile(kind, key, ".binpb", out); err != nil {
		return "", err
	}
	path, _, err := c.Cache.GetFile(kind, key, ".binpb")
	return path, err
}

// Image is the decoded image of a commit.
func (c Compiler) Image(ctx context.Context, commit, name string) (*image.Image, error) {
	path, err := c.Path(ctx, commit)
	if err != nil {
		return nil, err
	}
	im, err := image.Read(path)
	if err != nil {
		return nil, err
	}
	im.Name = name
	return im, nil
}
