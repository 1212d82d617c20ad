// Package store keeps the registry's schemas, subjects' versions and compatibility settings
// in SQLite, and serves every read from memory: the database is read once at start, and each
// write is one transaction, applied to memory only after it committed — nothing is ever
// stored half-way.
package store

import (
	"database/sql"
	"encoding/json"
	"fmt"
	"sort"
	"sync"

	// A pure-Go SQLite: the registry builds and runs without cgo.
	_ "modernc.org/sqlite"
)

// Reference is one import of a schema, as Confluent names it: the import path, and the
// subject and version that hold the imported schema.
type Reference struct {
	Name    string `json:"name"`
	Subject string `json:"subject"`
	Version int    `json:"version"`
}

// Schema is one registered schema; one id for the same schema in every subject.
type Schema struct {
	ID          int64
	Fingerprint string
	Text        string
	References  []Reference
	// Serialized is the compiled file in Confluent's serialized format.
	Serialized string
}

// Version is one version of a subject.
type Version struct {
	Subject  string
	Version  int
	SchemaID int64
}

// Store is the registry's data.
type Store struct {
	db *sql.DB
	// write serialises writers: a registration's checks and its insert see one state.
	write sync.Mutex

	mu            sync.RWMutex
	byID          map[int64]*Schema
	byFingerprint map[string]*Schema
	subjects      map[string][]Version
	config        map[string]string
}

const ddl = `
CREATE TABLE IF NOT EXISTS schemas (
  id INTEGER PRIMARY KEY,
  fingerprint TEXT NOT NULL UNIQUE,
  text TEXT NOT NULL,
  refs TEXT NOT NULL,
  serialized TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS versions (
  subject TEXT NOT NULL,
  version INTEGER NOT NULL,
  schema_id INTEGER NOT NULL REFERENCES schemas(id),
  PRIMARY KEY (subject, version)
);
CREATE TABLE IF NOT EXISTS config (
  subject TEXT PRIMARY KEY,
  level TEXT NOT NULL
);`

// Open opens (or creates) the database at path and reads it into memory.
func Open(path string) (*Store, error) {
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)")
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", path, err)
	}
	// One connection: SQLite has one writer, and the readers are served from memory.
	db.SetMaxOpenConns(1)
	if _, err := db.Exec(ddl); err != nil {
		db.Close()
		return nil, fmt.Errorf("create the tables in %s: %w", path, err)
	}
	s := &Store{db: db, byID: map[int64]*Schema{}, byFingerprint: map[string]*Schema{},
		subjects: map[string][]Version{}, config: map[string]string{}}
	if err := s.load(); err != nil {
		db.Close()
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return s, nil
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) load() error {
	rows, err := s.db.Query(`SELECT id, fingerprint, text, refs, serialized FROM schemas`)
	if err != nil {
		return err
	}
	for rows.Next() {
		sc := &Schema{}
		var refs string
		if err := rows.Scan(&sc.ID, &sc.Fingerprint, &sc.Text, &refs, &sc.Serialized); err != nil {
			rows.Close()
			return err
		}
		if err := json.Unmarshal([]byte(refs), &sc.References); err != nil {
			rows.Close()
			return fmt.Errorf("schema %d's references: %w", sc.ID, err)
		}
		s.byID[sc.ID], s.byFingerprint[sc.Fingerprint] = sc, sc
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	rows, err = s.db.Query(`SELECT subject, version, schema_id FROM versions ORDER BY subject, version`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var v Version
		if err := rows.Scan(&v.Subject, &v.Version, &v.SchemaID); err != nil {
			rows.Close()
			return err
		}
		s.subjects[v.Subject] = append(s.subjects[v.Subject], v)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	rows, err = s.db.Query(`SELECT subject, level FROM config`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var subject, level string
		if err := rows.Scan(&subject, &level); err != nil {
			return err
		}
		s.config[subject] = level
	}
	return rows.Err()
}

// Lock takes the writers' lock: a writer checks and then writes with nobody writing between.
func (s *Store) Lock()   { s.write.Lock() }
func (s *Store) Unlock() { s.write.Unlock() }

// SchemaByID is a schema by its id.
func (s *Store) SchemaByID(id int64) (*Schema, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sc, ok := s.byID[id]
	return sc, ok
}

// SchemaByFingerprint is a schema by its fingerprint.
func (s *Store) SchemaByFingerprint(fp string) (*Schema, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	sc, ok := s.byFingerprint[fp]
	return sc, ok
}

// Subjects lists the subjects, sorted.
func (s *Store) Subjects() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, 0, len(s.subjects))
	for name := range s.subjects {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Versions lists a subject's versions, oldest first (nil: no such subject).
func (s *Store) Versions(subject string) []Version {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]Version(nil), s.subjects[subject]...)
}

// Config is a subject's compatibility level ("" for the global one); ok is false when none
// is set.
func (s *Store) Config(subject string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	level, ok := s.config[subject]
	return level, ok
}

// SetConfig sets a subject's compatibility level ("" for the global one).
func (s *Store) SetConfig(subject, level string) error {
	if _, err := s.db.Exec(`INSERT INTO config(subject, level) VALUES(?, ?)
		ON CONFLICT(subject) DO UPDATE SET level = excluded.level`, subject, level); err != nil {
		return fmt.Errorf("store the compatibility level: %w", err)
	}
	s.mu.Lock()
	s.config[subject] = level
	s.mu.Unlock()
	return nil
}

// AddVersion stores a new version of a subject: the schema sc (inserted, and given its id,
// when its fingerprint is new) in one transaction. The caller holds the writers' lock.
func (s *Store) AddVersion(subject string, sc *Schema) (Version, error) {
	tx, err := s.db.Begin()
	if err != nil {
		return Version{}, fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback()
	existing, known := s.SchemaByFingerprint(sc.Fingerprint)
	if known {
		sc = existing
	} else {
		refs, err := json.Marshal(sc.References)
		if err != nil {
			return Version{}, err
		}
		if sc.References == nil {
			refs = []byte("[]")
		}
		res, err := tx.Exec(`INSERT INTO schemas(fingerprint, text, refs, serialized) VALUES(?, ?, ?, ?)`,
			sc.Fingerprint, sc.Text, string(refs), sc.Serialized)
		if err != nil {
			return Version{}, fmt.Errorf("store the schema: %w", err)
		}
		id, err := res.LastInsertId()
		if err != nil {
			return Version{}, err
		}
		sc = &Schema{ID: id, Fingerprint: sc.Fingerprint, Text: sc.Text, References: sc.References, Serialized: sc.Serialized}
	}
	versions := s.Versions(subject)
	v := Version{Subject: subject, Version: 1, SchemaID: sc.ID}
	if len(versions) > 0 {
		v.Version = versions[len(versions)-1].Version + 1
	}
	if _, err := tx.Exec(`INSERT INTO versions(subject, version, schema_id) VALUES(?, ?, ?)`, subject, v.Version, v.SchemaID); err != nil {
		return Version{}, fmt.Errorf("store the version: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return Version{}, fmt.Errorf("commit: %w", err)
	}
	s.mu.Lock()
	s.byID[sc.ID], s.byFingerprint[sc.Fingerprint] = sc, sc
	s.subjects[subject] = append(s.subjects[subject], v)
	s.mu.Unlock()
	return v, nil
}
