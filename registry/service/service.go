// Package service is the registry's logic, apart from HTTP: registering a schema under a
// subject, looking one up, and judging compatibility at a subject's level with the gate's own
// comparison. Every error the client caused is an *Error with Confluent's code.
package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/acme/contracts/gate/findings"
	"github.com/acme/contracts/registry/schema"
	"github.com/acme/contracts/registry/store"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Registry is the schema registry.
type Registry struct {
	Store *store.Store
	Judge schema.Judge

	mu       sync.Mutex
	compiled map[string]*schema.Compiled

	// releases are the contracts' releases the registry was filled from (none: nothing is
	// waived).
	releases *releaseIndex
}

// New makes a registry over a store.
func New(st *store.Store, judge schema.Judge) *Registry {
	return &Registry{Store: st, Judge: judge, compiled: map[string]*schema.Compiled{}}
}

// Request is a schema a client sends: to register, look up or check.
type Request struct {
	Schema     string            `json:"schema"`
	SchemaType string            `json:"schemaType"`
	References []store.Reference `json:"references"`
}

func (r Request) fingerprint() string {
	refs, _ := json.Marshal(r.References)
	sum := sha256.Sum256([]byte(strings.TrimSpace(r.Schema) + "\x00" + string(refs)))
	return hex.EncodeToString(sum[:])
}

func (r Request) check() error {
	if r.SchemaType != "PROTOBUF" {
		return errorf(CodeInvalidSchema, "schemaType %q is not served: this registry holds PROTOBUF schemas only", r.SchemaType)
	}
	if strings.TrimSpace(r.Schema) == "" {
		return errorf(CodeInvalidSchema, "the schema is empty")
	}
	for _, ref := range r.References {
		if ref.Name == "" || ref.Subject == "" || ref.Version < 1 {
			return errorf(CodeInvalidSchema, "reference %+v needs a name, a subject and a version ≥ 1", ref)
		}
	}
	return nil
}

// fileName is the file a .proto text registered under a subject is compiled as.
func fileName(subject string) string {
	if strings.HasSuffix(subject, ".proto") {
		return subject
	}
	return subject + ".proto"
}

// Level is the compatibility level in force for a subject.
func (r *Registry) Level(subject string) string {
	if l, ok := r.Store.Config(subject); ok {
		return l
	}
	if l, ok := r.Store.Config(""); ok {
		return l
	}
	return DefaultLevel
}

// Register stores a schema as the subject's next version, unless the subject already holds
// it (its id again) or it breaks the versions its level compares it with (409 and the
// findings).
func (r *Registry) Register(ctx context.Context, subject string, req Request) (store.Version, error) {
	if err := req.check(); err != nil {
		return store.Version{}, err
	}
	fp := req.fingerprint()
	r.Store.Lock()
	defer r.Store.Unlock()
	versions := r.Store.Versions(subject)
	for _, v := range versions {
		if sc, _ := r.Store.SchemaByID(v.SchemaID); sc != nil && sc.Fingerprint == fp {
			return v, nil
		}
	}
	head, err := r.compile(ctx, subject, req.Schema, req.References)
	if err != nil {
		return store.Version{}, err
	}
	messages, err := r.judge(ctx, r.Level(subject), head, versions, true)
	if err != nil {
		return store.Version{}, err
	}
	if len(messages) > 0 {
		return store.Version{}, errorf(CodeIncompatible, "Schema being registered is incompatible with an earlier schema for subject %q (level %s): %s",
			subject, r.Level(subject), strings.Join(messages, "; "))
	}
	serialized, err := head.Serialized()
	if err != nil {
		return store.Version{}, err
	}
	return r.Store.AddVersion(subject, &store.Schema{Fingerprint: fp, Text: req.Schema, References: req.References, Serialized: serialized})
}

// LookUp finds the version of a subject that holds a schema.
func (r *Registry) LookUp(subject string, req Request) (store.Version, *store.Schema, error) {
	if err := req.check(); err != nil {
		return store.Version{}, nil, err
	}
	versions := r.Store.Versions(subject)
	if len(versions) == 0 {
		return store.Version{}, nil, errorf(CodeSubjectNotFound, "Subject '%s' not found.", subject)
	}
	fp := req.fingerprint()
	for _, v := range versions {
		if sc, _ := r.Store.SchemaByID(v.SchemaID); sc != nil && sc.Fingerprint == fp {
			return v, sc, nil
		}
	}
	return store.Version{}, nil, errorf(CodeSchemaNotFound, "Schema not found")
}

// Version finds a subject's version by its number or "latest".
func (r *Registry) Version(subject, spec string) (store.Version, error) {
	n := 0
	if spec != "latest" && spec != "-1" {
		var err error
		n, err = strconv.Atoi(spec)
		if err != nil || n < 1 {
			return store.Version{}, errorf(CodeInvalidVersion, "The specified version '%s' is not a valid version id. Allowed values are between [1, 2^31-1] and the string \"latest\"", spec)
		}
	}
	versions := r.Store.Versions(subject)
	if len(versions) == 0 {
		return store.Version{}, errorf(CodeSubjectNotFound, "Subject '%s' not found.", subject)
	}
	if n == 0 {
		return versions[len(versions)-1], nil
	}
	for _, v := range versions {
		if v.Version == n {
			return v, nil
		}
	}
	return store.Version{}, errorf(CodeVersionNotFound, "Version %d not found.", n)
}

// Compatibility judges a schema against a subject's version (spec a number or "latest"), or
// against the versions its level compares with (spec ""); the findings, as messages, say why
// it is not compatible.
func (r *Registry) Compatibility(ctx context.Context, subject, spec string, req Request) ([]string, error) {
	if err := req.check(); err != nil {
		return nil, err
	}
	versions := r.Store.Versions(subject)
	if spec != "" && spec != "latest" {
		v, err := r.Version(subject, spec)
		if err != nil {
			return nil, err
		}
		versions = []store.Version{v}
	} else if len(versions) == 0 {
		return nil, errorf(CodeSubjectNotFound, "Subject '%s' not found.", subject)
	}
	head, err := r.compile(ctx, subject, req.Schema, req.References)
	if err != nil {
		return nil, err
	}
	return r.judge(ctx, r.Level(subject), head, versions, spec == "" || spec == "latest")
}

// judge compares a schema with versions at a level: with the last of them, or every one
// when the level is transitive and byLevel says the level chooses.
func (r *Registry) judge(ctx context.Context, levelName string, head *schema.Compiled, versions []store.Version, byLevel bool) ([]string, error) {
	l := levels[levelName]
	if len(versions) == 0 || (!l.backward && !l.forward) {
		return nil, nil
	}
	if byLevel && !l.transitive {
		versions = versions[len(versions)-1:]
	}
	var messages []string
	for _, v := range versions {
		sc, ok := r.Store.SchemaByID(v.SchemaID)
		if !ok {
			return nil, fmt.Errorf("version %d of %s names schema %d, which is not stored", v.Version, v.Subject, v.SchemaID)
		}
		base, err := r.compileStored(ctx, sc, fileName(v.Subject), 0)
		if err != nil {
			return nil, fmt.Errorf("compile the stored version %d of %s: %w", v.Version, v.Subject, err)
		}
		if l.backward {
			found, err := r.Judge.Breaks(ctx, base, head)
			if err != nil {
				return nil, err
			}
			messages = append(messages, describe(r.releases.unwaived(v, found), "BACKWARD", v.Version)...)
		}
		if l.forward {
			found, err := r.Judge.Breaks(ctx, head, base)
			if err != nil {
				return nil, err
			}
			messages = append(messages, describe(found, "FORWARD", v.Version)...)
		}
	}
	return messages, nil
}

func describe(found []findings.Finding, direction string, version int) []string {
	out := make([]string, len(found))
	for i, f := range found {
		out[i] = fmt.Sprintf("%s %s (%s): %s [%s against version %d]", f.Rule, f.Element, f.Location(), f.Message, direction, version)
	}
	return out
}

// compile compiles a schema with its references, remembering stored schemas' compilations.
func (r *Registry) compile(ctx context.Context, subject, text string, refs []store.Reference) (*schema.Compiled, error) {
	files, err := r.resolve(ctx, refs, 0)
	if err != nil {
		return nil, err
	}
	c, err := schema.Compile(ctx, fileName(subject), text, files)
	if schema.IsInvalid(err) {
		return nil, errorf(CodeInvalidSchema, "Invalid schema: %v", err)
	}
	return c, err
}

// compileStored compiles a stored schema as the file name, once.
func (r *Registry) compileStored(ctx context.Context, sc *store.Schema, name string, depth int) (*schema.Compiled, error) {
	key := fmt.Sprintf("%d\x00%s", sc.ID, name)
	r.mu.Lock()
	c := r.compiled[key]
	r.mu.Unlock()
	if c != nil {
		return c, nil
	}
	deps, err := r.resolve(ctx, sc.References, depth)
	if err != nil {
		return nil, err
	}
	if c, err = schema.Compile(ctx, name, sc.Text, deps); err != nil {
		return nil, fmt.Errorf("compile the stored schema %d: %w", sc.ID, err)
	}
	r.mu.Lock()
	r.compiled[key] = c
	r.mu.Unlock()
	return c, nil
}

// maxReferenceDepth bounds how deep references may nest, so a cycle of references (which
// the versions' order makes impossible, but a store edited by hand could hold) ends.
const maxReferenceDepth = 32

// resolve compiles a schema's references into the files its imports name: each referenced
// file under the reference's name, and everything those import.
func (r *Registry) resolve(ctx context.Context, refs []store.Reference, depth int) (map[string]*descriptorpb.FileDescriptorProto, error) {
	if depth > maxReferenceDepth {
		return nil, errorf(CodeInvalidSchema, "Invalid schema: references nest deeper than %d", maxReferenceDepth)
	}
	out := map[string]*descriptorpb.FileDescriptorProto{}
	for _, ref := range refs {
		v, err := r.Version(ref.Subject, strconv.Itoa(ref.Version))
		if err != nil {
			var e *Error
			if errors.As(err, &e) {
				return nil, errorf(CodeInvalidSchema, "Invalid schema: reference %q to %s version %d: %s", ref.Name, ref.Subject, ref.Version, e.Message)
			}
			return nil, err
		}
		sc, ok := r.Store.SchemaByID(v.SchemaID)
		if !ok {
			return nil, fmt.Errorf("version %d of %s names schema %d, which is not stored", v.Version, v.Subject, v.SchemaID)
		}
		c, err := r.compileStored(ctx, sc, ref.Name, depth+1)
		if err != nil {
			return nil, err
		}
		for _, f := range c.Image.Set.GetFile() {
			if strings.HasPrefix(f.GetName(), "google/protobuf/") {
				continue
			}
			if f == c.Main {
				renamed := proto.Clone(f).(*descriptorpb.FileDescriptorProto)
				renamed.Name = proto.String(ref.Name)
				out[ref.Name] = renamed
				continue
			}
			out[f.GetName()] = f
		}
	}
	return out, nil
}
