package service_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acme/contracts/gate/bufcli"
	"github.com/acme/contracts/gate/compare"
	"github.com/acme/contracts/registry/schema"
	"github.com/acme/contracts/registry/service"
	"github.com/acme/contracts/registry/store"
)

const common = `syntax = "proto3";
package demo.v1;
message Money {
  int64 cents = 1;
}
`

const orderV1 = `syntax = "proto3";
package demo.v1;
import "demo/v1/common.proto";
message Order {
  string id = 1;
  int32 count = 2;
  Money total = 3;
}
`

var (
	orderV2 = strings.Replace(orderV1, "int32 count", "int64 count", 1)
	orderV3 = strings.Replace(orderV2, "Money total = 3;", "Money total = 3;\n  string note = 4;", 1)
)

// releasesRepo makes a git repository with three release tags of demo/v1: v0.2.0 changes
// Order.count's type, accepted in its tag message when accept is true.
func releasesRepo(t *testing.T, accept bool) string {
	t.Helper()
	dir := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, "proto", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	message := "v0.2.0"
	if accept {
		message += "\n\nAccepted-Break: FIELD_SAME_TYPE demo.v1.Order.count"
	}
	for _, release := range []struct{ tag, order, message string }{
		{"v0.1.0", orderV1, "v0.1.0"}, {"v0.2.0", orderV2, message}, {"v0.3.0", orderV3, "v0.3.0"},
	} {
		write("demo/v1/common.proto", common)
		write("demo/v1/order.proto", release.order)
		git("add", "-A")
		git("commit", "-q", "-m", release.tag)
		git("tag", "-a", release.tag, "-m", release.message)
	}
	return dir
}

func newRegistry(t *testing.T) *service.Registry {
	t.Helper()
	if _, err := exec.LookPath("buf"); err != nil {
		t.Fatal("buf is not on PATH: run these tests with make test-schema-registry")
	}
	st, err := store.Open(filepath.Join(t.TempDir(), "registry.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	config, err := filepath.Abs("../../buf.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return service.New(st, schema.Judge{Comparer: compare.Comparer{Buf: bufcli.Buf{Dir: filepath.Dir(config)}, Config: config}})
}

func TestFillFromReleasesHonoursAcceptedBreaks(t *testing.T) {
	ctx := context.Background()
	repo := releasesRepo(t, true)
	r := newRegistry(t)
	n, err := r.FillFromReleases(ctx, repo, "proto")
	if err != nil || n != 3 {
		t.Fatalf("fill: %d releases, %v", n, err)
	}
	order := r.Store.Versions("demo/v1/order.proto")
	if len(order) != 3 || len(r.Store.Versions("demo/v1/common.proto")) != 1 {
		t.Fatalf("versions: order %v, common %v", order, r.Store.Versions("demo/v1/common.proto"))
	}
	for i, tag := range []string{"v0.1.0", "v0.2.0", "v0.3.0"} {
		if got := r.ReleaseOf(order[i]); got != tag {
			t.Errorf("version %d: release %q, want %s", order[i].Version, got, tag)
		}
	}
	sc, _ := r.Store.SchemaByID(order[2].SchemaID)
	if len(sc.References) != 1 || sc.References[0] != (store.Reference{Name: "demo/v1/common.proto", Subject: "demo/v1/common.proto", Version: 1}) {
		t.Errorf("references: %v", sc.References)
	}
	// Against every release (BACKWARD_TRANSITIVE), a candidate that keeps v0.2.0's accepted
	// break is compatible: v0.2.0 accepted it, as make check waives it.
	candidate := service.Request{Schema: strings.Replace(orderV3, "string note = 4;", "string note = 4;\n  bool gift = 5;", 1),
		SchemaType: "PROTOBUF", References: sc.References}
	messages, err := r.Compatibility(ctx, "demo/v1/order.proto", "", candidate)
	if err != nil || len(messages) != 0 {
		t.Errorf("candidate: %v %v", messages, err)
	}
	// Filling again changes nothing.
	if _, err := r.FillFromReleases(ctx, repo, "proto"); err != nil || len(r.Store.Versions("demo/v1/order.proto")) != 3 {
		t.Errorf("fill again: %v, %v", err, r.Store.Versions("demo/v1/order.proto"))
	}
}

func TestFillFromReleasesRefusesAnUnacceptedBreak(t *testing.T) {
	r := newRegistry(t)
	_, err := r.FillFromReleases(context.Background(), releasesRepo(t, false), "proto")
	if err == nil || !strings.Contains(err.Error(), "release v0.2.0") || !strings.Contains(err.Error(), "FIELD_SAME_TYPE demo.v1.Order.count") {
		t.Fatalf("want v0.2.0 refused with FIELD_SAME_TYPE, got %v", err)
	}
	if got := r.Store.Versions("demo/v1/order.proto"); len(got) != 1 {
		t.Errorf("versions after the refusal: %v", got)
	}
}
