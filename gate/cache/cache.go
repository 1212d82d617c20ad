// Package cache keeps what the gate computed once (compiled images, comparisons, generated
// code) so that a later run does not compute it again, and makes sure an entry cannot lie:
//
//   - every key includes the identity of the gate that computes it (the hash of its binaries),
//     so a modified gate never reads or writes the entries of another;
//   - every entry carries a header naming its format, kind, key and identity, and the hash of
//     its payload; an entry that is corrupt, from a newer gate, or not what its name says is
//     refused with a one-line error (and removed, so the next run computes it again) — never
//     used, and never taken for a miss that lets a check pass.
package cache

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Format is the entry format this gate writes and reads.
const Format = 1

// Store is a directory of entries.
type Store struct {
	Dir string
	// Identity is the gate's own version: the hash of its binaries (Identity()).
	Identity string
}

type header struct {
	Format   int    `json:"format"`
	Kind     string `json:"kind"`
	Key      string `json:"key"`
	Identity string `json:"gate"`
	SHA256   string `json:"sha256"`
}

// Key is the key of an entry of one kind, from everything the entry depends on.
func (s Store) Key(kind string, parts ...string) string {
	h := sha256.New()
	for _, p := range append([]string{s.Identity, kind}, parts...) {
		fmt.Fprintf(h, "%d:%s\n", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Path is where an entry is kept.
func (s Store) Path(kind, key string) string { return filepath.Join(s.Dir, kind, key) }

// ErrBad is wrapped by every error about an entry that cannot be trusted.
var ErrBad = errors.New("cache entry not trusted")

// Get reads an entry; ok is false when there is none. An entry that cannot be trusted is an
// error (and is removed).
func (s Store) Get(kind, key string) (payload []byte, ok bool, err error) {
	path := s.Path(kind, key)
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read cache entry %s: %w", path, err)
	}
	payload, err = s.verify(kind, key, data)
	if err != nil {
		_ = os.Remove(path)
		return nil, false, fmt.Errorf("%w: %s %v (removed; the next run computes it again)", ErrBad, path, err)
	}
	now := time.Now()
	_ = os.Chtimes(path, now, now) // used now: CI forgets what goes unused
	return payload, true, nil
}

func (s Store) verify(kind, key string, data []byte) ([]byte, error) {
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		return nil, errors.New("has no header")
	}
	var h header
	if err := json.Unmarshal(data[:nl], &h); err != nil {
		return nil, errors.New("has a header that is not JSON")
	}
	payload := data[nl+1:]
	sum := sha256.Sum256(payload)
	switch {
	case h.Format > Format:
		return nil, fmt.Errorf("comes from a newer gate (format %d; this gate reads format %d)", h.Format, Format)
	case h.Format != Format:
		return nil, fmt.Errorf("has format %d; this gate reads format %d", h.Format, Format)
	case h.Identity != s.Identity:
		return nil, fmt.Errorf("was written by another gate (%.12s; this gate is %.12s)", h.Identity, s.Identity)
	case h.Kind != kind || h.Key != key:
		return nil, fmt.Errorf("holds a %s entry for key %.12s, not the %s entry its name says", h.Kind, h.Key, kind)
	case h.SHA256 != hex.EncodeToString(sum[:]):
		return nil, errors.New("is corrupt (its payload does not match its hash)")
	}
	return payload, nil
}

// Put writes an entry whole or not at all: another run may write the same entry at once.
func (s Store) Put(kind, key string, payload []byte) error {
	dir := filepath.Join(s.Dir, kind)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	sum := sha256.Sum256(payload)
	head, _ := json.Marshal(header{Format: Format, Kind: kind, Key: key, Identity: s.Identity, SHA256: hex.EncodeToString(sum[:])})
	tmp, err := os.CreateTemp(dir, key+".*.part")
	if err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	_, err = tmp.Write(append(append(head, '\n'), payload...))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), s.Path(kind, key))
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("write cache entry %s: %w", s.Path(kind, key), err)
	}
	return nil
}

// Identity is the hash of the given files (the gate's binaries): a gate built from other code
// has another identity.
func Identity(paths ...string) (string, error) {
	h := sha256.New()
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return "", fmt.Errorf("hash %s: %w", p, err)
		}
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("hash %s: %w", p, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// FileHash is the hash of one file's content ("" when it does not exist), for keys.
func FileHash(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// PutFile keeps a file as an entry (moved in, not copied): a large payload that a tool reads by
// path, such as an image buf compares (tools tell formats by the extension, ext). Its header is
// kept beside it.
func (s Store) PutFile(kind, key, ext, src string) error {
	dir := filepath.Join(s.Dir, kind)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	sum, err := fileSum(src)
	if err != nil {
		return err
	}
	head, _ := json.Marshal(header{Format: Format, Kind: kind, Key: key, Identity: s.Identity, SHA256: sum})
	data := s.Path(kind, key) + ext
	if err := os.Rename(src, data); err != nil {
		return fmt.Errorf("write cache entry %s: %w", data, err)
	}
	return s.Put(kind+"-files", key, head)
}

// GetFile is the path of a file entry after checking it against its header; ok is false when
// there is none. An entry that cannot be trusted is an error (and is removed).
func (s Store) GetFile(kind, key, ext string) (path string, ok bool, err error) {
	meta, ok, err := s.Get(kind+"-files", key)
	if err != nil || !ok {
		return "", false, err
	}
	data := s.Path(kind, key) + ext
	bad := func(why string) (string, bool, error) {
		_ = os.Remove(data)
		_ = os.Remove(s.Path(kind+"-files", key))
		return "", false, fmt.Errorf("%w: %s %s (removed; the next run computes it again)", ErrBad, data, why)
	}
	var h header
	if err := json.Unmarshal(meta, &h); err != nil || h.Kind != kind || h.Key != key || h.Identity != s.Identity {
		return bad("is not described by its header")
	}
	sum, err := fileSum(data)
	if err != nil {
		return bad("is missing")
	}
	if sum != h.SHA256 {
		return bad("is corrupt (its content does not match its hash)")
	}
	now := time.Now()
	_ = os.Chtimes(data, now, now)
	return data, true, nil
}

func fileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
