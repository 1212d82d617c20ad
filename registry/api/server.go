// Package api serves the registry over Confluent Schema Registry's REST API: routes, the
// JSON bodies and the error answers ({"error_code": N, "message": "…"}). It knows nothing of
// schemas; the service package does the work.
package api

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/acme/contracts/registry/service"
)

// Server is the HTTP face of a registry.
type Server struct {
	Registry *service.Registry
	// Auth checks tokens (nil: every request is open).
	Auth *Auth
}

// writes are the routes that change the registry; the others read (a compatibility check
// and a look-up are POSTs that change nothing).
var writes = map[string]bool{
	"POST /subjects/{subject}/versions": true,
	"PUT /config":                       true,
	"PUT /config/{subject}":             true,
}

// Handler routes every endpoint.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /subjects", s.listSubjects)
	mux.HandleFunc("POST /subjects/{subject}", s.lookUp)
	mux.HandleFunc("GET /subjects/{subject}/versions", s.listVersions)
	mux.HandleFunc("POST /subjects/{subject}/versions", s.register)
	mux.HandleFunc("GET /subjects/{subject}/versions/{version}", s.getVersion)
	mux.HandleFunc("GET /subjects/{subject}/versions/{version}/schema", s.getVersionSchema)
	mux.HandleFunc("GET /schemas/ids/{id}", s.getSchema)
	mux.HandleFunc("GET /schemas/types", s.schemaTypes)
	mux.HandleFunc("POST /compatibility/subjects/{subject}/versions", s.compatibility)
	mux.HandleFunc("POST /compatibility/subjects/{subject}/versions/{version}", s.compatibility)
	mux.HandleFunc("GET /config", s.getConfig)
	mux.HandleFunc("PUT /config", s.putConfig)
	mux.HandleFunc("GET /config/{subject}", s.getConfig)
	mux.HandleFunc("PUT /config/{subject}", s.putConfig)
	return guard(mux, s.Auth)
}

// unrouted answers a request no route takes as JSON, with the status the mux chose (404, or
// 405 with Allow when the path exists for other methods), as Confluent's clients read errors.
func unrouted(w http.ResponseWriter, r *http.Request, h http.Handler) {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	if allow := rec.Header().Get("Allow"); allow != "" {
		w.Header().Set("Allow", allow)
	}
	writeError(w, &service.Error{Code: rec.Code, Message: "HTTP " + strconv.Itoa(rec.Code) + " " + http.StatusText(rec.Code)})
}

// guard bounds every body, turns a panic into a logged 500 (a bug, never an answer to input),
// answers what no route takes as JSON, and checks tokens before any route runs.
func guard(mux *http.ServeMux, auth *Auth) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		defer func() {
			if p := recover(); p != nil {
				log.Printf("panic serving %s %s: %v", r.Method, r.URL.Path, p)
				writeError(w, &service.Error{Code: 50001, Message: "Error in the backend data store"})
			}
		}()
		h, pattern := mux.Handler(r)
		if pattern == "" {
			unrouted(w, r, h)
			return
		}
		if !auth.check(w, r, writes[pattern]) {
			return
		}
		mux.ServeHTTP(w, r)
	})
}

// subject reads and checks the subject of a route.
func subject(r *http.Request) (string, *service.Error) {
	name := r.PathValue("subject")
	if r.Pattern == "GET /config" || r.Pattern == "PUT /config" {
		return "", nil
	}
	if name == "" || len(name) > MaxSubjectBytes || !utf8.ValidString(name) ||
		strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return "", &service.Error{Code: service.CodeUnprocessable,
			Message: "Invalid subject: a subject is 1 to 255 bytes of UTF-8 without control characters"}
	}
	return name, nil
}

// readBody decodes a JSON body into v; the answer for a body that is not one is 422 (413 when
// it is too large).
func readBody(r *http.Request, v any) *service.Error {
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return &service.Error{Code: service.CodeTooLarge, Message: "Request body larger than the limit of 1 MiB"}
		}
		return &service.Error{Code: service.CodeUnprocessable, Message: "Unrecognized or malformed JSON body: " + err.Error()}
	}
	if dec.More() {
		return &service.Error{Code: service.CodeUnprocessable, Message: "Unrecognized JSON body: more than one value"}
	}
	return nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/vnd.schemaregistry.v1+json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError answers an error: a service.Error with its code, anything else as a logged 500
// without its details (a fault of the registry, not of the request).
func writeError(w http.ResponseWriter, err error) {
	var e *service.Error
	if !errors.As(err, &e) {
		if errors.Is(err, context.DeadlineExceeded) {
			e = &service.Error{Code: 50002, Message: "Operation timed out"}
		} else {
			log.Printf("error: %v", err)
			e = &service.Error{Code: 50001, Message: "Error in the backend data store"}
		}
	}
	writeJSON(w, e.Status(), map[string]any{"error_code": e.Code, "message": e.Message})
}
