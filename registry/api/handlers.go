package api

import (
	"context"
	"net/http"
	"strconv"

	"github.com/acme/contracts/registry/service"
	"github.com/acme/contracts/registry/store"
)

// schemaJSON is a stored schema as the API shows it.
type schemaJSON struct {
	Subject    string            `json:"subject,omitempty"`
	Version    int               `json:"version,omitempty"`
	ID         int64             `json:"id"`
	SchemaType string            `json:"schemaType"`
	Schema     string            `json:"schema"`
	References []store.Reference `json:"references,omitempty"`
}

// text is a stored schema as asked: as registered, or serialized (a base64
// FileDescriptorProto, what the protobuf deserializers ask for).
func text(r *http.Request, sc *store.Schema) string {
	if r.URL.Query().Get("format") == "serialized" {
		return sc.Serialized
	}
	return sc.Text
}

func (s *Server) listSubjects(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, s.Registry.Store.Subjects())
}

func (s *Server) listVersions(w http.ResponseWriter, r *http.Request) {
	name, bad := subject(r)
	if bad != nil {
		writeError(w, bad)
		return
	}
	versions := s.Registry.Store.Versions(name)
	if len(versions) == 0 {
		writeError(w, &service.Error{Code: service.CodeSubjectNotFound, Message: "Subject '" + name + "' not found."})
		return
	}
	out := make([]int, len(versions))
	for i, v := range versions {
		out[i] = v.Version
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) version(w http.ResponseWriter, r *http.Request) (store.Version, *store.Schema, bool) {
	name, bad := subject(r)
	if bad != nil {
		writeError(w, bad)
		return store.Version{}, nil, false
	}
	v, err := s.Registry.Version(name, r.PathValue("version"))
	if err != nil {
		writeError(w, err)
		return store.Version{}, nil, false
	}
	sc, _ := s.Registry.Store.SchemaByID(v.SchemaID)
	if sc == nil {
		writeError(w, &service.Error{Code: service.CodeSchemaNotFound, Message: "Schema not found"})
		return store.Version{}, nil, false
	}
	return v, sc, true
}

func (s *Server) getVersion(w http.ResponseWriter, r *http.Request) {
	if v, sc, ok := s.version(w, r); ok {
		writeJSON(w, http.StatusOK, schemaJSON{Subject: v.Subject, Version: v.Version, ID: sc.ID,
			SchemaType: "PROTOBUF", Schema: text(r, sc), References: sc.References})
	}
}

func (s *Server) getVersionSchema(w http.ResponseWriter, r *http.Request) {
	if _, sc, ok := s.version(w, r); ok {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = w.Write([]byte(text(r, sc)))
	}
}

func (s *Server) getSchema(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	sc, ok := s.Registry.Store.SchemaByID(id)
	if err != nil || !ok {
		writeError(w, &service.Error{Code: service.CodeSchemaNotFound, Message: "Schema " + r.PathValue("id") + " not found"})
		return
	}
	writeJSON(w, http.StatusOK, schemaJSON{ID: sc.ID, SchemaType: "PROTOBUF", Schema: text(r, sc), References: sc.References})
}

func (s *Server) schemaTypes(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, []string{"PROTOBUF"})
}

// request reads a schema request's subject and body.
func request(w http.ResponseWriter, r *http.Request) (string, service.Request, bool) {
	name, bad := subject(r)
	if bad == nil {
		var req service.Request
		if bad = readBody(r, &req); bad == nil {
			if req.SchemaType == "" {
				// Confluent's default type is AVRO; a client that names none means the
				// only type served here only if it says so, so the check below refuses it.
				req.SchemaType = "AVRO"
			}
			return name, req, true
		}
	}
	writeError(w, bad)
	return "", service.Request{}, false
}

func (s *Server) register(w http.ResponseWriter, r *http.Request) {
	name, req, ok := request(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), JudgeTimeout)
	defer cancel()
	v, err := s.Registry.Register(ctx, name, req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]int64{"id": v.SchemaID})
}

func (s *Server) lookUp(w http.ResponseWriter, r *http.Request) {
	name, req, ok := request(w, r)
	if !ok {
		return
	}
	v, sc, err := s.Registry.LookUp(name, req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, schemaJSON{Subject: v.Subject, Version: v.Version, ID: sc.ID,
		SchemaType: "PROTOBUF", Schema: sc.Text, References: sc.References})
}

func (s *Server) compatibility(w http.ResponseWriter, r *http.Request) {
	name, req, ok := request(w, r)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), JudgeTimeout)
	defer cancel()
	messages, err := s.Registry.Compatibility(ctx, name, r.PathValue("version"), req)
	if err != nil {
		writeError(w, err)
		return
	}
	out := map[string]any{"is_compatible": len(messages) == 0}
	if r.URL.Query().Get("verbose") == "true" {
		if messages == nil {
			messages = []string{}
		}
		out["messages"] = messages
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getConfig(w http.ResponseWriter, r *http.Request) {
	name, bad := subject(r)
	if bad != nil {
		writeError(w, bad)
		return
	}
	level, ok := s.Registry.Store.Config(name)
	switch {
	case ok:
	case name == "" || r.URL.Query().Get("defaultToGlobal") == "true":
		level = s.Registry.Level(name)
	default:
		writeError(w, &service.Error{Code: service.CodeSubjectNoConfig,
			Message: "Subject '" + name + "' does not have subject-level compatibility configured"})
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"compatibilityLevel": level})
}

func (s *Server) putConfig(w http.ResponseWriter, r *http.Request) {
	name, bad := subject(r)
	if bad != nil {
		writeError(w, bad)
		return
	}
	var body struct {
		Compatibility string `json:"compatibility"`
	}
	if bad := readBody(r, &body); bad != nil {
		writeError(w, bad)
		return
	}
	if !service.ValidLevel(body.Compatibility) {
		writeError(w, &service.Error{Code: service.CodeInvalidLevel, Message: "Invalid compatibility level. Valid values are none, backward, forward, full, backward_transitive, forward_transitive, and full_transitive"})
		return
	}
	if err := s.Registry.Store.SetConfig(name, body.Compatibility); err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"compatibility": body.Compatibility})
}
