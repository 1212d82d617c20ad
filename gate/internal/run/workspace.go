// Package run holds the gate's commands: each arranges the packages that do one job (image,
// rulediff through buf, compare, exceptions, releases, drift, versions, report) for one use —
// make check, make release, the pull-request workflow.
package run

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/acme/contracts/gate/bufcli"
	"github.com/acme/contracts/gate/cache"
	"github.com/acme/contracts/gate/gitrepo"
	"github.com/acme/contracts/gate/snapshot"
)

// The repository's layout, in one place.
const (
	ProtoDir       = "proto"
	BufYAML        = "buf.yaml"
	GenTemplate    = "buf.gen.yaml"
	ExceptionsFile = "proto/breaking-exceptions.yaml"
	// PluginName is the check plugin buf.yaml names; buf finds it on PATH, and so does the gate,
	// whose identity includes it.
	PluginName = "buf-plugin-protovalidate-breaking"
	// protoDeps is the folder of validate.proto, extracted at set-up, that buf.yaml names.
	protoDeps = ".tmp/proto-deps"
)

// generator lists what, besides the protos, decides what generation writes.
var generator = []string{GenTemplate, BufYAML, "versions.env", "package-lock.json", "scripts/setup/requirements-tools.txt",
	"scripts/gate/protoc-gen-python-grpcio", "scripts/gate/protoc-gen-python-grpcio.py"}

// Workspace is the repository the gate runs in, and the gate's own state.
type Workspace struct {
	Root string
	// Out is where a run writes its findings and report (GATE_OUT, default .tmp/gate).
	Out string
	// Identity is the gate's version: the hash of its binary and of the plugin buf runs.
	Identity string
	Cache    cache.Store
	Repo     gitrepo.Repo
	Buf      bufcli.Buf
}

// Open finds the workspace (the current directory, which must hold buf.yaml) and the gate's
// identity.
func Open() (*Workspace, error) {
	root, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(root, BufYAML)); err != nil {
		return nil, fmt.Errorf("run the gate from the repository's root: there is no %s in %s", BufYAML, root)
	}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	plugin, err := exec.LookPath(PluginName)
	if err != nil {
		return nil, fmt.Errorf("%s is not on PATH (make setup builds it into .tmp/bin)", PluginName)
	}
	identity, err := cache.Identity(self, plugin)
	if err != nil {
		return nil, err
	}
	ws := &Workspace{Root: root, Identity: identity, Repo: gitrepo.Repo{Dir: root}, Buf: bufcli.Buf{Dir: root}}
	ws.Out = env("GATE_OUT", filepath.Join(root, ".tmp", "gate"))
	ws.Cache = cache.Store{Dir: env("GATE_CACHE", filepath.Join(root, ".tmp", "cache", "gate")), Identity: identity}
	return ws, nil
}

func env(name, fallback string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return fallback
}

func (ws *Workspace) path(rel string) string { return filepath.Join(ws.Root, rel) }

// digest is a hash of files of the workspace, for cache keys.
func (ws *Workspace) digest(files ...string) string {
	var parts []string
	for _, f := range files {
		parts = append(parts, f+"="+cache.FileHash(ws.path(f)))
	}
	return strings.Join(parts, ";")
}

// Snapshots compiles the contracts of commits, with this workspace's tools.
func (ws *Workspace) Snapshots() snapshot.Compiler {
	return snapshot.Compiler{
		Repo: ws.Repo, Cache: ws.Cache, Files: []string{BufYAML, ProtoDir}, Input: ProtoDir,
		Deps:  map[string]string{protoDeps: ws.path(protoDeps)},
		Tools: ws.digest("versions.env", "package-lock.json", protoDeps+"/buf/validate/validate.proto"),
	}
}

// compileHead compiles the working tree's contracts into dir/head.binpb.
func (ws *Workspace) compileHead(ctx context.Context, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	out := filepath.Join(dir, "head.binpb")
	if err := onlyRootConfig(ws); err != nil {
		return "", err
	}
	if err := ws.Buf.Build(ctx, ProtoDir, out); err != nil {
		return "", fmt.Errorf("the working tree: %w", err)
	}
	return out, nil
}

// onlyRootConfig refuses a buf configuration under the contracts' folder: buf builds the head
// from that folder and reads a buf.yaml (or buf.work.yaml, buf.lock) it finds there first, so
// such a file would decide which files are the contracts (an exclude) while the gate compares
// only the root buf.yaml.
func onlyRootConfig(ws *Workspace) error {
	var found []string
	err := filepath.WalkDir(ws.path(ProtoDir), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		switch d.Name() {
		case "buf.yaml", "buf.yml", "buf.work.yaml", "buf.work.yml", "buf.lock":
			rel, _ := filepath.Rel(ws.Root, path)
			found = append(found, rel)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(found) > 0 {
		return fmt.Errorf("%s: the contracts are configured by the root %s only; a buf configuration under %s/ would decide what buf builds there without the gate comparing it: delete it",
			strings.Join(found, ", "), BufYAML, ProtoDir)
	}
	return nil
}

// errFailed is a check that failed, with its own output already printed.
var errFailed = errors.New("failed")
