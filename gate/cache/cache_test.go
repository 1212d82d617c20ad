package cache_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/acme/contracts/gate/cache"
)

func TestAnEntryIsReadBackOnlyByTheGateThatWroteIt(t *testing.T) {
	dir := t.TempDir()
	real := cache.Store{Dir: dir, Identity: "real-gate"}
	modified := cache.Store{Dir: dir, Identity: "modified-gate"}
	// The same inputs give each gate its own key: a modified gate never reads the real one's
	// entries, nor writes where the real one reads.
	if real.Key("comparison", "a", "b") == modified.Key("comparison", "a", "b") {
		t.Fatal("two gates share a key")
	}
	if err := modified.Put("comparison", modified.Key("comparison", "a", "b"), []byte("[]")); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := real.Get("comparison", real.Key("comparison", "a", "b")); ok || err != nil {
		t.Fatalf("the real gate read the modified gate's entry: %v %v", ok, err)
	}
	// Copied under the real gate's key, it is refused and removed.
	key := real.Key("comparison", "a", "b")
	data, _ := os.ReadFile(modified.Path("comparison", modified.Key("comparison", "a", "b")))
	os.WriteFile(real.Path("comparison", key), data, 0o644)
	_, ok, err := real.Get("comparison", key)
	if ok || !errors.Is(err, cache.ErrBad) || !strings.Contains(err.Error(), "was written by another gate") {
		t.Fatalf("forged entry: ok %v err %v", ok, err)
	}
	if _, err := os.Stat(real.Path("comparison", key)); !os.IsNotExist(err) {
		t.Error("the forged entry was kept")
	}
}

func TestBadEntriesAreRefused(t *testing.T) {
	s := cache.Store{Dir: t.TempDir(), Identity: "gate"}
	key := s.Key("comparison", "x")
	for _, c := range []struct {
		name  string
		spoil func(string) string
		says  string
	}{
		{"payload changed", func(e string) string { return e + "x" }, "is corrupt"},
		{"newer format", func(e string) string { return strings.Replace(e, `"format":1`, `"format":9`, 1) }, "comes from a newer gate (format 9; this gate reads format 1)"},
		{"older format", func(e string) string { return strings.Replace(e, `"format":1`, `"format":0`, 1) }, "has format 0"},
		{"another key", func(e string) string { return strings.Replace(e, key, strings.Repeat("0", 64), 1) }, "not the comparison entry its name says"},
		{"no header", func(string) string { return "garbage" }, "has no header"},
		{"a header that is not JSON", func(string) string { return "{\n[]" }, "has a header that is not JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := s.Put("comparison", key, []byte(`[{"type":"FIELD_SAME_TYPE"}]`)); err != nil {
				t.Fatal(err)
			}
			path := s.Path("comparison", key)
			data, _ := os.ReadFile(path)
			os.WriteFile(path, []byte(c.spoil(string(data))), 0o644)
			_, ok, err := s.Get("comparison", key)
			if ok || err == nil || !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), path) {
				t.Errorf("ok %v err %v", ok, err)
			}
		})
	}
}

func TestFileEntries(t *testing.T) {
	s := cache.Store{Dir: t.TempDir(), Identity: "gate"}
	src := filepath.Join(s.Dir, "image.binpb")
	os.WriteFile(src, []byte("image bytes"), 0o644)
	if err := s.PutFile("image", "k", ".binpb", src); err != nil {
		t.Fatal(err)
	}
	path, ok, err := s.GetFile("image", "k", ".binpb")
	if !ok || err != nil || !strings.HasSuffix(path, ".binpb") {
		t.Fatalf("%s %v %v", path, ok, err)
	}
	os.WriteFile(path, []byte("another image"), 0o644)
	if _, ok, err := s.GetFile("image", "k", ".binpb"); ok || !errors.Is(err, cache.ErrBad) {
		t.Fatalf("a changed image was trusted: %v %v", ok, err)
	}
	if _, ok, err := s.GetFile("image", "k", ".binpb"); ok || err != nil {
		t.Fatalf("after removal: %v %v", ok, err)
	}
}
